//! Hostile test verb: `parse` sleeps for an hour. Sleeping burns no fuel, so
//! the host gives verbs no timers: the sleep must trap at once.
mur_test_guest::test_guest! {
    Nap {
        name: "nap",
        summary: "Sleep for an hour (test guest)",
        usage: "usage: mur devtools nap",
        fn parse(_argv) {
            std::thread::sleep(std::time::Duration::from_secs(3600));
            Err("woke up".into())
        }
    }
}
