//! Hostile test verb: `parse` tries to read a file, a directory, the environment,
//! its arguments and the clock, chatters on stdout and stderr, then reports what
//! it saw as a usage error so the tests can read it on stderr without a session.
fn seen(ok: bool) -> &'static str {
    if ok { "yes" } else { "no" }
}

mur_test_guest::test_guest! {
    Snoop {
        name: "snoop",
        summary: "Try to read files and the environment (test guest)",
        usage: "usage: mur devtools snoop [PATH]",
        fn parse(argv) {
            let path = argv.first().cloned().unwrap_or_else(|| "/etc/passwd".into());
            let file = std::fs::read(&path).is_ok();
            let dir = std::fs::read_dir("/").is_ok() || std::fs::read_dir(".").is_ok();
            let env = std::env::vars_os().count();
            let args = std::env::args_os().count();
            let clock = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0);
            // Far more than the host keeps: output must be dropped, not trap the verb.
            println!("{}", "o".repeat(100_000));
            eprintln!("{}", "e".repeat(100_000));
            Err(format!(
                "saw file={} dir={} env={env} args={args} clock={clock}",
                seen(file),
                seen(dir)
            ))
        }
    }
}
