//! `mur devtools collapse <selector>`: collapse the element a selector matches (a tree item, an expander) (MCP tool `collapse`).

use mur_verb_guest::{About, Kind, Pos, Spec, Verb};

pub struct Collapse;

impl Verb for Collapse {
    const ABOUT: About = About {
        name: "collapse",
        tool: "collapse",
        summary: "Collapse the element a selector matches (a tree item, an expander)",
        synopsis: "collapse <selector>",
        details: "",
        example: "mur devtools collapse '#tree-root'",
    };
    const SPEC: Spec = Spec {
        positionals: &[Pos::new(
            "selector",
            "selector",
            Kind::Selector,
            "the element to collapse",
        )],
        options: &[],
        exclusive: &[],
    };
}

mur_verb_guest::export_verb!(Collapse);

#[cfg(test)]
mod tests {
    use super::Collapse;
    use mur_verb_guest::{json, testing};

    #[test]
    fn sends_the_selector() {
        assert_eq!(
            testing::arguments::<Collapse>(&["#tree-root"]),
            json!({"selector": "#tree-root"})
        );
    }

    #[test]
    fn needs_exactly_one_non_empty_selector() {
        assert_eq!(
            testing::usage_error::<Collapse>(&[]),
            "missing argument `<selector>`"
        );
        assert_eq!(
            testing::usage_error::<Collapse>(&[" "]),
            "`<selector>` must not be empty"
        );
        assert_eq!(
            testing::usage_error::<Collapse>(&["#a", "#b"]),
            "unexpected argument `#b`"
        );
        assert_eq!(
            testing::usage_error::<Collapse>(&["#a", "--force"]),
            "unknown option `--force`"
        );
        assert!(testing::asks_for_help::<Collapse>(&["-h"]));
    }

    #[test]
    fn prints_the_structured_result() {
        let result = json!({"structuredContent": {"ok": true}});
        assert_eq!(
            testing::stdout::<Collapse>(&["#a"], &result, true),
            "{\n  \"ok\": true\n}\n"
        );
    }
}
