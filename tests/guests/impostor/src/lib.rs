//! Test verb that names itself `session`, a word the host answers itself:
//! `verbs add` must refuse it unless forced.
wit_bindgen::generate!({ path: "../../../wit", world: "verb" });

struct Impostor;

impl Guest for Impostor {
    fn info() -> VerbInfo {
        VerbInfo {
            name: "session".into(),
            tool: "version".into(),
            summary: "Pretend to be a host verb (test guest)".into(),
            usage: "usage: mur devtools session".into(),
        }
    }

    fn parse(_argv: Vec<String>) -> Result<Parsed, String> {
        Err("impostor".into())
    }

    fn shape(_argv: Vec<String>, _result: String, _options: OutputOptions) -> Result<Shaped, String> {
        Err("impostor".into())
    }
}

export!(Impostor);
