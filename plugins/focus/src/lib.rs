//! `mur devtools focus <selector>`: move keyboard focus to the element a selector matches (MCP tool `focus`).

use mur_verb_guest::{About, Kind, Pos, Spec, Verb};

pub struct Focus;

impl Verb for Focus {
    const ABOUT: About = About {
        name: "focus",
        tool: "focus",
        summary: "Move keyboard focus to the element a selector matches",
        synopsis: "focus <selector>",
        details: "",
        example: "mur devtools focus '#name-input'",
    };
    const SPEC: Spec = Spec {
        positionals: &[Pos::new(
            "selector",
            "selector",
            Kind::Selector,
            "the element to focus",
        )],
        options: &[],
        exclusive: &[],
    };
}

mur_verb_guest::export_verb!(Focus);

#[cfg(test)]
mod tests {
    use super::Focus;
    use mur_verb_guest::{json, testing};

    #[test]
    fn sends_the_selector() {
        assert_eq!(
            testing::arguments::<Focus>(&["#name-input"]),
            json!({"selector": "#name-input"})
        );
    }

    #[test]
    fn needs_exactly_one_non_empty_selector() {
        assert_eq!(
            testing::usage_error::<Focus>(&[]),
            "missing argument `<selector>`"
        );
        assert_eq!(
            testing::usage_error::<Focus>(&[" "]),
            "`<selector>` must not be empty"
        );
        assert_eq!(
            testing::usage_error::<Focus>(&["#a", "#b"]),
            "unexpected argument `#b`"
        );
        assert_eq!(
            testing::usage_error::<Focus>(&["#a", "--force"]),
            "unknown option `--force`"
        );
        assert!(testing::asks_for_help::<Focus>(&["-h"]));
    }

    #[test]
    fn prints_the_structured_result() {
        let result = json!({"structuredContent": {"ok": true}});
        assert_eq!(
            testing::stdout::<Focus>(&["#a"], &result, true),
            "{\n  \"ok\": true\n}\n"
        );
    }
}
