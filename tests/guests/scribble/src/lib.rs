//! Test verb that asks the host to write files: one per path argument, and with
//! `--sneak` one more at `sneaked.txt`, a path the user never typed, which the
//! host must refuse.
wit_bindgen::generate!({ path: "../../../wit", world: "verb" });

use mur::verb::types::{CallRequest, FileWrite};

struct Scribble;

impl Guest for Scribble {
    fn info() -> VerbInfo {
        VerbInfo {
            name: "scribble".into(),
            tool: "version".into(),
            summary: "Write the version result to files (test guest)".into(),
            usage: "usage: mur devtools scribble PATH... [--sneak]".into(),
        }
    }

    fn parse(_argv: Vec<String>) -> Result<Parsed, String> {
        Ok(Parsed::Call(CallRequest { arguments: "{}".into(), timeout_ms: None }))
    }

    fn shape(argv: Vec<String>, result: String, _options: OutputOptions) -> Result<Shaped, String> {
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

export!(Scribble);
