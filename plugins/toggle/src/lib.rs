//! `mur devtools toggle <selector>`: toggle the element a selector matches (a check box, a switch) (MCP tool `toggle`).

use mur_verb_guest::{About, Kind, Pos, Spec, Verb};

pub struct Toggle;

impl Verb for Toggle {
    const ABOUT: About = About {
        name: "toggle",
        tool: "toggle",
        summary: "Toggle the element a selector matches (a check box, a switch)",
        synopsis: "toggle <selector>",
        details: "",
        example: "mur devtools toggle '#chk-dark'",
    };
    const SPEC: Spec = Spec {
        positionals: &[Pos::new(
            "selector",
            "selector",
            Kind::Selector,
            "the element to toggle",
        )],
        options: &[],
        exclusive: &[],
    };
}

mur_verb_guest::export_verb!(Toggle);

#[cfg(test)]
mod tests {
    use super::Toggle;
    use mur_verb_guest::{json, testing};

    #[test]
    fn sends_the_selector() {
        assert_eq!(
            testing::arguments::<Toggle>(&["#chk-dark"]),
            json!({"selector": "#chk-dark"})
        );
    }

    #[test]
    fn needs_exactly_one_non_empty_selector() {
        assert_eq!(
            testing::usage_error::<Toggle>(&[]),
            "missing argument `<selector>`"
        );
        assert_eq!(
            testing::usage_error::<Toggle>(&[" "]),
            "`<selector>` must not be empty"
        );
        assert_eq!(
            testing::usage_error::<Toggle>(&["#a", "#b"]),
            "unexpected argument `#b`"
        );
        assert_eq!(
            testing::usage_error::<Toggle>(&["#a", "--force"]),
            "unknown option `--force`"
        );
        assert!(testing::asks_for_help::<Toggle>(&["-h"]));
    }

    #[test]
    fn prints_the_structured_result() {
        let result = json!({"structuredContent": {"ok": true}});
        assert_eq!(
            testing::stdout::<Toggle>(&["#a"], &result, true),
            "{\n  \"ok\": true\n}\n"
        );
    }
}
