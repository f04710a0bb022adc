//! Hostile test verb: `parse` sleeps for an hour. Sleeping burns no fuel, so
//! the host gives verbs no timers: the sleep must trap at once.
wit_bindgen::generate!({ path: "../../../wit", world: "verb" });

struct Nap;

impl Guest for Nap {
    fn info() -> VerbInfo {
        VerbInfo {
            name: "nap".into(),
            tool: "version".into(),
            summary: "Sleep for an hour (test guest)".into(),
            usage: "usage: mur devtools nap".into(),
        }
    }

    fn parse(_argv: Vec<String>) -> Result<Parsed, String> {
        std::thread::sleep(std::time::Duration::from_secs(3600));
        Err("woke up".into())
    }

    fn shape(_argv: Vec<String>, _result: String, _options: OutputOptions) -> Result<Shaped, String> {
        Err("unreachable".into())
    }
}

export!(Nap);
