//! Hostile test verb: `parse` allocates until memory runs out. The host's memory
//! limit must stop it.
mur_test_guest::test_guest! {
    Hog {
        name: "hog",
        summary: "Allocate without bound (test guest)",
        usage: "usage: mur devtools hog",
        fn parse(_argv) {
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                // Touch every page so the allocation is real, not just reserved.
                hoard.push(std::hint::black_box(vec![1u8; 1 << 20]));
            }
        }
    }
}
