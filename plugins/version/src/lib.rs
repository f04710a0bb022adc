//! `mur devtools version`: print the version of the running app's devtools server (MCP tool `version`).

use mur_verb_guest::{About, Spec, Verb};

pub struct Version;

impl Verb for Version {
    const ABOUT: About = About {
        name: "version",
        tool: "version",
        summary: "Print the version of the running app's devtools server",
        synopsis: "version",
        details: "",
        example: "mur devtools version --pretty",
    };
    const SPEC: Spec = Spec {
        positionals: &[],
        options: &[],
        exclusive: &[],
    };
}

mur_verb_guest::export_verb!(Version);

#[cfg(test)]
mod tests {
    use super::Version;
    use mur_verb_guest::{json, testing};

    #[test]
    fn sends_an_empty_arguments_object() {
        assert_eq!(testing::arguments::<Version>(&[]), json!({}));
        assert_eq!(
            testing::timeout_ms::<Version>(&["--timeout", "900"]),
            Some(900)
        );
    }

    #[test]
    fn rejects_any_argument() {
        assert_eq!(
            testing::usage_error::<Version>(&["extra"]),
            "unexpected argument `extra`"
        );
        assert_eq!(
            testing::usage_error::<Version>(&["--all"]),
            "unknown option `--all`"
        );
        assert!(testing::asks_for_help::<Version>(&["--help"]));
    }

    #[test]
    fn prints_the_structured_result() {
        let result = json!({"content": [{"type": "text", "text": "{}"}], "structuredContent": {"items": [1]}});
        assert_eq!(
            testing::stdout::<Version>(&[], &result, false),
            "{\"items\":[1]}\n"
        );
    }
}
