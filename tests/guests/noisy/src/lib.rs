//! A `mur:verb@0.3.0` test verb written against the WIT directly (no kit), whose
//! notes are hostile, to show the host bounds them and keeps the terminal safe. It
//! calls `version`, prints `{"noisy":true}` and, as told:
//!
//! - `--controls`: a note full of control characters (`ESC[2J` clears a terminal,
//!   a newline would start a line of its own, `\u{9b}` is the one-byte CSI);
//! - `--huge`: one note of 1 MiB;
//! - `--many`: 100,000 notes;
//! - `--fail`: `shape` fails (and so prints no note);
//! - nothing: one ordinary note.

wit_bindgen::generate!({ path: "../../../wit/verb.wit", world: "verb" });

use mur::verb::types::CallRequest;

struct Noisy;

impl Guest for Noisy {
    fn info() -> VerbInfo {
        VerbInfo {
            name: "noisy".into(),
            tool: "version".into(),
            summary: "Print a line and notes on stderr, hostile ones as told (test verb)".into(),
            usage: "noisy [--controls|--huge|--many|--fail]".into(),
            details: String::new(),
            examples: Vec::new(),
            positionals: Vec::new(),
            options: Vec::new(),
        }
    }

    fn parse(argv: Vec<String>) -> Result<Parsed, String> {
        let mode = match argv.as_slice() {
            [] => "",
            [only] if ["--controls", "--huge", "--many", "--fail"].contains(&only.as_str()) => {
                only.as_str()
            }
            [other, ..] => return Err(format!("unexpected argument `{other}`")),
        };
        Ok(Parsed::Call(CallRequest {
            arguments: "{}".into(),
            timeout_ms: None,
            writes: Vec::new(),
            state: mode.into(),
        }))
    }

    fn shape(_result: String, state: String, _options: OutputOptions) -> Result<Shaped, String> {
        let notes = match state.as_str() {
            "--fail" => return Err("refusing to shape, as told".into()),
            "--controls" => vec!["a\x1b[2Jb\nnext: c\r\u{9b}31md\x07".to_owned()],
            "--huge" => vec!["x".repeat(1 << 20)],
            "--many" => (0..100_000).map(|i| format!("note {i}")).collect(),
            _ => vec!["next: mur devtools noisy --many".to_owned()],
        };
        Ok(Shaped {
            stdout: b"{\"noisy\":true}\n".to_vec(),
            files: Vec::new(),
            notes,
        })
    }
}

export!(Noisy);
