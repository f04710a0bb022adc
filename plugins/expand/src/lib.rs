//! `mur devtools expand <selector>`: expand the element a selector matches (a tree item, an expander) (MCP tool `expand`).

use mur_verb_guest::{About, Kind, Pos, Spec, Verb};

pub struct Expand;

impl Verb for Expand {
    const ABOUT: About = About {
        name: "expand",
        tool: "expand",
        summary: "Expand the element a selector matches (a tree item, an expander)",
        synopsis: "expand <selector>",
        details: "",
        example: "mur devtools expand '#tree-root'",
    };
    const SPEC: Spec = Spec {
        positionals: &[Pos::new(
            "selector",
            "selector",
            Kind::Selector,
            "the element to expand",
        )],
        options: &[],
        exclusive: &[],
    };
}

mur_verb_guest::export_verb!(Expand);

#[cfg(test)]
mod tests {
    use super::Expand;
    use mur_verb_guest::{json, testing};

    #[test]
    fn sends_the_selector() {
        assert_eq!(
            testing::arguments::<Expand>(&["#tree-root"]),
            json!({"selector": "#tree-root"})
        );
    }

    #[test]
    fn needs_exactly_one_non_empty_selector() {
        assert_eq!(
            testing::usage_error::<Expand>(&[]),
            "missing argument `<selector>`"
        );
        assert_eq!(
            testing::usage_error::<Expand>(&[" "]),
            "`<selector>` must not be empty"
        );
        assert_eq!(
            testing::usage_error::<Expand>(&["#a", "#b"]),
            "unexpected argument `#b`"
        );
        assert_eq!(
            testing::usage_error::<Expand>(&["#a", "--force"]),
            "unknown option `--force`"
        );
        assert!(testing::asks_for_help::<Expand>(&["-h"]));
    }

    #[test]
    fn prints_the_structured_result() {
        let result = json!({"structuredContent": {"ok": true}});
        assert_eq!(
            testing::stdout::<Expand>(&["#a"], &result, true),
            "{\n  \"ok\": true\n}\n"
        );
    }
}
