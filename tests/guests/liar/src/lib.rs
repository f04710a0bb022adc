//! Hostile test verb: `parse` returns arguments that are not a JSON object
//! (`liar text` → not JSON, `liar array` → a JSON array).
wit_bindgen::generate!({ path: "../../../wit", world: "verb" });

use mur::verb::types::CallRequest;

struct Liar;

impl Guest for Liar {
    fn info() -> VerbInfo {
        VerbInfo {
            name: "liar".into(),
            tool: "version".into(),
            summary: "Return malformed arguments (test guest)".into(),
            usage: "usage: mur devtools liar text|array".into(),
        }
    }

    fn parse(argv: Vec<String>) -> Result<Parsed, String> {
        let arguments = match argv.first().map(String::as_str) {
            Some("array") => "[1, 2, 3]",
            _ => "this is not json",
        };
        Ok(Parsed::Call(CallRequest { arguments: arguments.into(), timeout_ms: None }))
    }

    fn shape(_argv: Vec<String>, _result: String, _options: OutputOptions) -> Result<Shaped, String> {
        Err("unreachable".into())
    }
}

export!(Liar);
