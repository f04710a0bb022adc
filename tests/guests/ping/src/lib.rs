//! A well-behaved verb that is not part of the standard set: the tests install it
//! with `verbs add` to show a new verb works without rebuilding `mur`.
wit_bindgen::generate!({ path: "../../../wit", world: "verb" });

use mur::verb::types::CallRequest;

const USAGE: &str = "usage: mur devtools ping\n\nAsk the session for its version and answer with a pong.";

struct Ping;

impl Guest for Ping {
    fn info() -> VerbInfo {
        VerbInfo {
            name: "ping".into(),
            tool: "version".into(),
            summary: "Answer pong with the session's version (test verb)".into(),
            usage: USAGE.into(),
        }
    }

    fn parse(argv: Vec<String>) -> Result<Parsed, String> {
        match argv.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
            [] => Ok(call()),
            ["--help"] | ["-h"] => Ok(Parsed::Help),
            [other, ..] => Err(format!("unexpected argument `{other}`")),
        }
    }

    fn shape(_argv: Vec<String>, result: String, options: OutputOptions) -> Result<Shaped, String> {
        let sep = if options.pretty { "\n  " } else { "" };
        let out = format!("{{{sep}\"pong\":true,{sep}\"result\":{result}\n}}\n");
        Ok(Shaped { stdout: out.into_bytes(), files: Vec::new() })
    }
}

fn call() -> Parsed {
    Parsed::Call(CallRequest { arguments: "{}".into(), timeout_ms: None })
}

export!(Ping);
