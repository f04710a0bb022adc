//! `mur devtools state`: print the running app's state, or the state of the element a
//! selector matches (MCP tool `state`).

use mur_verb_kit::{About, Opt, Spec, Verb};

pub struct State;

impl Verb for State {
    const ABOUT: About = About {
        name: "state",
        tool: "state",
        summary: "Print the running app's state, or that of the element a selector matches",
        synopsis: "state [--selector S]",
        details: "",
        examples: &["mur devtools state --selector '#count'"],
    };
    const SPEC: Spec = Spec {
        positionals: &[],
        options: &[Opt::selector("only the element the selector S matches")],
        exclusive: &[],
    };
}

mur_verb_kit::export_verb!(State);

#[cfg(test)]
mod tests {
    use super::State;
    use mur_verb_kit::{json, testing};

    #[test]
    fn sends_the_selector_when_given() {
        testing::assert_arguments::<State>(&[
            (&[], json!({})),
            (&["--selector", "#count"], json!({"selector": "#count"})),
        ]);
    }

    #[test]
    fn rejects_a_bare_selector_and_unknown_options() {
        testing::assert_usage_errors::<State>(&[
            (&["#count"], "unexpected argument `#count`"),
            (&["--window", "main"], "unknown option `--window`"),
        ]);
    }

    #[test]
    fn prints_the_state() {
        let result = json!({"structuredContent": {"count": 3}});
        assert_eq!(
            testing::stdout::<State>(&[], &result, false),
            "{\"count\":3}\n"
        );
    }
}
