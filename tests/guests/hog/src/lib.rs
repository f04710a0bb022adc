//! Hostile test verb: `parse` allocates until memory runs out. The host's memory
//! limit must stop it. With `--catch`, it notices the allocation refused and returns
//! its own error instead, as a JavaScript verb does (SpiderMonkey throws "out of
//! memory", which the kit returns as the verb's message): still the memory limit.
mur_test_guest::test_guest! {
    Hog {
        name: "hog",
        summary: "Allocate without bound (test guest)",
        usage: "usage: mur devtools hog [--catch]",
        fn parse(argv) {
            let catch = argv.iter().any(|word| word == "--catch");
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                if catch {
                    let mut chunk: Vec<u8> = Vec::new();
                    if chunk.try_reserve_exact(1 << 20).is_err() {
                        return Err("out of memory".to_owned());
                    }
                    chunk.resize(1 << 20, 1);
                    hoard.push(std::hint::black_box(chunk));
                    continue;
                }
                // Touch every page so the allocation is real, not just reserved.
                hoard.push(std::hint::black_box(vec![1u8; 1 << 20]));
            }
        }
    }
}
