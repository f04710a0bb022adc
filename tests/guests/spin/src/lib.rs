//! Hostile test verb: `parse` never returns. The host's fuel budget must stop it.
mur_test_guest::test_guest! {
    Spin {
        name: "spin",
        summary: "Loop forever (test guest)",
        usage: "usage: mur devtools spin",
        fn parse(_argv) {
            let mut n: u64 = 0;
            // `black_box` keeps the optimiser from proving the loop useless.
            loop {
                n = std::hint::black_box(n.wrapping_add(1));
            }
        }
    }
}
