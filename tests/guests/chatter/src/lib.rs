//! Hostile test verb: `parse` writes without end, as a verb left printing debug
//! lines does. Writing costs the host work the guest's own instructions do not
//! show, so the host must count it against the verb's budget and stop it:
//!
//! - nothing: short lines on stderr, one `eprintln!` each;
//! - `--big`: lines of 1 MiB on stderr;
//! - `--stdout`: lines of 1 MiB on stdout.
mur_test_guest::test_guest! {
    Chatter {
        name: "chatter",
        summary: "Write to stderr or stdout without end (test guest)",
        usage: "usage: mur devtools chatter [--big|--stdout]",
        fn parse(argv) {
            let big = "x".repeat(1 << 20);
            let mut step: u64 = 0;
            loop {
                step += 1;
                match argv.first().map(String::as_str) {
                    Some("--big") => eprintln!("{step}: {big}"),
                    Some("--stdout") => println!("{step}: {big}"),
                    _ => eprintln!("debug: parsing step {step} of the argv, nothing wrong yet"),
                }
            }
        }
    }
}
