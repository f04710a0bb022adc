//! A well-behaved verb that is not part of the standard set: the tests install it
//! with `verbs add` to show a new verb works without rebuilding `mur`.
use mur::verb::types::CallRequest;

const USAGE: &str = "usage: mur devtools ping\n\nAsk the session for its version and answer with a pong.";

mur_test_guest::test_guest! {
    Ping {
        name: "ping",
        summary: "Answer pong with the session's version (test verb)",
        usage: USAGE,
        fn parse(argv) {
            match argv.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
                [] => Ok(call()),
                ["--help"] | ["-h"] => Ok(Parsed::Help),
                [other, ..] => Err(format!("unexpected argument `{other}`")),
            }
        }
        fn shape(_argv, result, options) {
            let sep = if options.pretty { "\n  " } else { "" };
            let out = format!("{{{sep}\"pong\":true,{sep}\"result\":{result}\n}}\n");
            Ok(Shaped { stdout: out.into_bytes(), files: Vec::new() })
        }
    }
}

fn call() -> Parsed {
    Parsed::Call(CallRequest { arguments: "{}".into(), timeout_ms: None })
}
