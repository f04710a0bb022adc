//! `mur devtools click <selector>`: click the element a selector matches (MCP tool `click`).

use mur_verb_guest::{About, Kind, Pos, Spec, Verb};

pub struct Click;

impl Verb for Click {
    const ABOUT: About = About {
        name: "click",
        tool: "click",
        summary: "Click the element a selector matches",
        synopsis: "click <selector>",
        details: "",
        example: "mur devtools click '#btn-inc'",
    };
    const SPEC: Spec = Spec {
        positionals: &[Pos::new(
            "selector",
            "selector",
            Kind::Selector,
            "the element to click",
        )],
        options: &[],
        exclusive: &[],
    };
}

mur_verb_guest::export_verb!(Click);

#[cfg(test)]
mod tests {
    use super::Click;
    use mur_verb_guest::{json, testing};

    #[test]
    fn sends_the_selector() {
        assert_eq!(
            testing::arguments::<Click>(&["#btn-inc"]),
            json!({"selector": "#btn-inc"})
        );
    }

    #[test]
    fn needs_exactly_one_non_empty_selector() {
        assert_eq!(
            testing::usage_error::<Click>(&[]),
            "missing argument `<selector>`"
        );
        assert_eq!(
            testing::usage_error::<Click>(&[" "]),
            "`<selector>` must not be empty"
        );
        assert_eq!(
            testing::usage_error::<Click>(&["#a", "#b"]),
            "unexpected argument `#b`"
        );
        assert_eq!(
            testing::usage_error::<Click>(&["#a", "--force"]),
            "unknown option `--force`"
        );
        assert!(testing::asks_for_help::<Click>(&["-h"]));
    }

    #[test]
    fn prints_the_structured_result() {
        let result = json!({"structuredContent": {"ok": true}});
        assert_eq!(
            testing::stdout::<Click>(&["#a"], &result, true),
            "{\n  \"ok\": true\n}\n"
        );
    }
}
