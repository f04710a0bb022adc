//! `mur devtools invoke <selector>`: invoke the default action of the element a selector matches (MCP tool `invoke`).

use mur_verb_guest::{About, Kind, Pos, Spec, Verb};

pub struct Invoke;

impl Verb for Invoke {
    const ABOUT: About = About {
        name: "invoke",
        tool: "invoke",
        summary: "Invoke the default action of the element a selector matches",
        synopsis: "invoke <selector>",
        details: "",
        example: "mur devtools invoke '#btn-save'",
    };
    const SPEC: Spec = Spec {
        positionals: &[Pos::new(
            "selector",
            "selector",
            Kind::Selector,
            "the element to invoke",
        )],
        options: &[],
        exclusive: &[],
    };
}

mur_verb_guest::export_verb!(Invoke);

#[cfg(test)]
mod tests {
    use super::Invoke;
    use mur_verb_guest::{json, testing};

    #[test]
    fn sends_the_selector() {
        assert_eq!(
            testing::arguments::<Invoke>(&["#btn-save"]),
            json!({"selector": "#btn-save"})
        );
    }

    #[test]
    fn needs_exactly_one_non_empty_selector() {
        assert_eq!(
            testing::usage_error::<Invoke>(&[]),
            "missing argument `<selector>`"
        );
        assert_eq!(
            testing::usage_error::<Invoke>(&[" "]),
            "`<selector>` must not be empty"
        );
        assert_eq!(
            testing::usage_error::<Invoke>(&["#a", "#b"]),
            "unexpected argument `#b`"
        );
        assert_eq!(
            testing::usage_error::<Invoke>(&["#a", "--force"]),
            "unknown option `--force`"
        );
        assert!(testing::asks_for_help::<Invoke>(&["-h"]));
    }

    #[test]
    fn prints_the_structured_result() {
        let result = json!({"structuredContent": {"ok": true}});
        assert_eq!(
            testing::stdout::<Invoke>(&["#a"], &result, true),
            "{\n  \"ok\": true\n}\n"
        );
    }
}
