//! `mur devtools windows`: list the running app's windows (MCP tool `windows`).

use mur_verb_guest::{About, Spec, Verb};

pub struct Windows;

impl Verb for Windows {
    const ABOUT: About = About {
        name: "windows",
        tool: "windows",
        summary: "List the running app's windows",
        synopsis: "windows",
        details: "",
        example: "mur devtools windows --pretty",
    };
    const SPEC: Spec = Spec {
        positionals: &[],
        options: &[],
        exclusive: &[],
    };
}

mur_verb_guest::export_verb!(Windows);

#[cfg(test)]
mod tests {
    use super::Windows;
    use mur_verb_guest::{json, testing};

    #[test]
    fn sends_an_empty_arguments_object() {
        assert_eq!(testing::arguments::<Windows>(&[]), json!({}));
        assert_eq!(
            testing::timeout_ms::<Windows>(&["--timeout", "900"]),
            Some(900)
        );
    }

    #[test]
    fn rejects_any_argument() {
        assert_eq!(
            testing::usage_error::<Windows>(&["extra"]),
            "unexpected argument `extra`"
        );
        assert_eq!(
            testing::usage_error::<Windows>(&["--all"]),
            "unknown option `--all`"
        );
        assert!(testing::asks_for_help::<Windows>(&["--help"]));
    }

    #[test]
    fn prints_the_structured_result() {
        let result = json!({"content": [{"type": "text", "text": "{}"}], "structuredContent": {"items": [1]}});
        assert_eq!(
            testing::stdout::<Windows>(&[], &result, false),
            "{\"items\":[1]}\n"
        );
    }
}
