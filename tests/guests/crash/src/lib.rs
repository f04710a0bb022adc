//! Hostile test verb: `parse` panics. The host must report the crash, with the
//! panic message, and exit cleanly.
wit_bindgen::generate!({ path: "../../../wit/deps/verb-0.1.0", world: "verb" });

struct Crash;

impl Guest for Crash {
    fn info() -> VerbInfo {
        VerbInfo {
            name: "crash".into(),
            tool: "version".into(),
            summary: "Panic while parsing (test guest)".into(),
            usage: "usage: mur devtools crash".into(),
        }
    }

    fn parse(_argv: Vec<String>) -> Result<Parsed, String> {
        panic!("boom: this verb panics on purpose")
    }

    fn shape(_argv: Vec<String>, _result: String, _options: OutputOptions) -> Result<Shaped, String> {
        Err("unreachable".into())
    }
}

export!(Crash);
