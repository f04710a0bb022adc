//! `mur devtools state`: print the running app's state, or the state of the element a
//! selector matches (MCP tool `state`).

use mur_verb_kit::{About, Opt, Spec, Verb};

pub struct State;

impl Verb for State {
    const ABOUT: About = About {
        name: "state",
        tool: "state",
        summary: "Print the running app's state, or that of the element a selector matches",
        synopsis: "",
        details: "",
        examples: &["mur devtools state --selector '#count'"],
    };
    const SPEC: Spec = Spec {
        positionals: &[],
        options: &[Opt::selector("only the element the selector S matches").or_word()],
        exclusive: &[],
    };
}

mur_verb_kit::export_verb!(State);

mur_verb_kit::verb_tables!(State {
    arguments: [
        // The selector alone, as the action verbs take theirs: any word, the verb's
        // only option being the selector.
        (&["#count"], json!({"selector": "#count"})),
        (&["Button"], json!({"selector": "Button"})),
    ],
    usage_errors: [(&["--window", "main"], "unknown option `--window`")],
});

#[cfg(test)]
mod tests {
    use super::State;
    use mur_verb_kit::{json, testing};

    #[test]
    fn takes_its_selector_as_every_verb_with_an_optional_one_does() {
        testing::check_optional_selector_verb::<State>();
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
