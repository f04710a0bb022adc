//! A `mur:verb@0.2.0` test verb written against the WIT directly (no kit), to
//! pin what the host does with what 0.2 declares. It clicks `#btn-inc`, so a
//! test sees from the counter whether the call was sent.
//!
//! - `--project NAME` is its own option, which the host must not take;
//! - `--out PATH` declares PATH as a write and writes `forged` there;
//! - `--forge PATH` declares `PATH.forged`, a path the user never typed, which
//!   the host must refuse before the call;
//! - `--plant PATH` declares PATH, typed but as a `text` value, not an output path,
//!   which the host must refuse before the call too;
//! - `--sneak PATH` declares nothing but asks `shape` to write PATH;
//! - `--fail-shape` makes `shape` fail after the call.
//!
//! Its stdout is the state `parse` handed to `shape`, so tests see that too.

// Kept on 0.2.0 (its text, unchanged, in wit/deps/): the host still loads it.
wit_bindgen::generate!({ path: "../../../wit/deps/verb-0.2.0", world: "verb" });

use mur::verb::types::{CallRequest, FileWrite, Param, ValueKind};

struct Forger;

fn option(name: &str, value_name: &str, kind: ValueKind, help: &str) -> Param {
    Param {
        name: name.into(),
        value_name: value_name.into(),
        kind,
        help: help.into(),
        required: false,
        repeatable: false,
        choices: Vec::new(),
    }
}

impl Guest for Forger {
    fn info() -> VerbInfo {
        VerbInfo {
            name: "forger".into(),
            tool: "click".into(),
            summary: "Click #btn-inc, declaring writes as told (test verb)".into(),
            usage: String::new(),
            details: "A test verb of mur:verb@0.2.0.".into(),
            examples: vec!["mur devtools forger --out note.txt".into()],
            positionals: Vec::new(),
            options: vec![
                option("project", "NAME", ValueKind::Name, "a project of its own"),
                option(
                    "out",
                    "PATH",
                    ValueKind::OutputPath,
                    "write `forged` to PATH",
                ),
                option("forge", "PATH", ValueKind::Text, "declare PATH.forged"),
                option(
                    "plant",
                    "PATH",
                    ValueKind::Text,
                    "declare PATH, typed as text",
                ),
                option("sneak", "PATH", ValueKind::Text, "write PATH undeclared"),
                option("fail-shape", "", ValueKind::Flag, "fail in shape"),
            ],
        }
    }

    fn parse(argv: Vec<String>) -> Result<Parsed, String> {
        let mut writes = Vec::new();
        let mut state = Vec::new();
        let mut words = argv.into_iter();
        while let Some(word) = words.next() {
            let mut value = || words.next().ok_or(format!("`{word}` needs a value"));
            match word.as_str() {
                "--help" | "-h" => return Ok(Parsed::Help),
                "--project" => state.push(format!("project={}", value()?)),
                "--out" => {
                    let path = value()?;
                    writes.push(path.clone());
                    state.push(format!("out={path}"));
                }
                "--forge" => writes.push(format!("{}.forged", value()?)),
                "--plant" => writes.push(value()?),
                "--sneak" => state.push(format!("sneak={}", value()?)),
                "--fail-shape" => state.push("fail".into()),
                other => return Err(format!("unexpected argument `{other}`")),
            }
        }
        Ok(Parsed::Call(CallRequest {
            arguments: r##"{"selector":"#btn-inc"}"##.into(),
            timeout_ms: None,
            writes,
            state: state.join(" "),
        }))
    }

    fn shape(_result: String, state: String, _options: OutputOptions) -> Result<Shaped, String> {
        if state.split(' ').any(|w| w == "fail") {
            return Err("refusing to shape, as told".into());
        }
        let files = state
            .split(' ')
            .filter_map(|w| w.strip_prefix("out=").or_else(|| w.strip_prefix("sneak=")))
            .map(|path| FileWrite {
                path: path.into(),
                contents: b"forged".to_vec(),
            })
            .collect();
        Ok(Shaped {
            stdout: format!("{state}\n").into_bytes(),
            files,
        })
    }
}

export!(Forger);
