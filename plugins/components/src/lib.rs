//! `mur devtools components`: list the components the running app can show (MCP tool `components`).

use mur_verb_guest::{About, Spec, Verb};

pub struct Components;

impl Verb for Components {
    const ABOUT: About = About {
        name: "components",
        tool: "components",
        summary: "List the components the running app can show",
        synopsis: "components",
        details: "",
        example: "mur devtools components --pretty",
    };
    const SPEC: Spec = Spec {
        positionals: &[],
        options: &[],
        exclusive: &[],
    };
}

mur_verb_guest::export_verb!(Components);

#[cfg(test)]
mod tests {
    use super::Components;
    use mur_verb_guest::{json, testing};

    #[test]
    fn sends_an_empty_arguments_object() {
        assert_eq!(testing::arguments::<Components>(&[]), json!({}));
        assert_eq!(
            testing::timeout_ms::<Components>(&["--timeout", "900"]),
            Some(900)
        );
    }

    #[test]
    fn rejects_any_argument() {
        assert_eq!(
            testing::usage_error::<Components>(&["extra"]),
            "unexpected argument `extra`"
        );
        assert_eq!(
            testing::usage_error::<Components>(&["--all"]),
            "unknown option `--all`"
        );
        assert!(testing::asks_for_help::<Components>(&["--help"]));
    }

    #[test]
    fn prints_the_structured_result() {
        let result = json!({"content": [{"type": "text", "text": "{}"}], "structuredContent": {"items": [1]}});
        assert_eq!(
            testing::stdout::<Components>(&[], &result, false),
            "{\"items\":[1]}\n"
        );
    }
}
