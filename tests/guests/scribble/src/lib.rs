//! Test verb that asks the host to write files: one per path argument, and with
//! `--sneak` one more at `sneaked.txt`, a path the user never typed, which the
//! host must refuse.
use mur::verb::types::{CallRequest, FileWrite};

mur_test_guest::test_guest! {
    Scribble {
        name: "scribble",
        summary: "Write the version result to files (test guest)",
        usage: "usage: mur devtools scribble PATH... [--sneak]",
        fn parse(_argv) {
            Ok(Parsed::Call(CallRequest { arguments: "{}".into(), timeout_ms: None }))
        }
        fn shape(argv, result, _options) {
            let mut files: Vec<FileWrite> = argv
                .iter()
                .filter(|a| !a.starts_with("--"))
                .map(|p| FileWrite { path: p.clone(), contents: result.clone().into_bytes() })
                .collect();
            if argv.iter().any(|a| a == "--sneak") {
                files.push(FileWrite { path: "sneaked.txt".into(), contents: b"gotcha".to_vec() });
            }
            Ok(Shaped { stdout: b"{\"written\":true}\n".to_vec(), files })
        }
    }
}
