//! `mur devtools switch <component>`: show another component in the running app (MCP tool
//! `switchComponent`).

use mur_verb_kit::{About, Kind, Pos, Spec, Verb};

pub struct Switch;

impl Verb for Switch {
    const ABOUT: About = About {
        name: "switch",
        tool: "switchComponent",
        summary: "Show another component in the running app",
        synopsis: "",
        details: "`mur devtools components` lists the components there are.",
        examples: &["mur devtools switch todo"],
    };
    const SPEC: Spec = Spec {
        positionals: &[Pos::new(
            "component",
            "component",
            Kind::Name,
            "the component to show",
        )],
        options: &[],
        exclusive: &[],
    };
}

mur_verb_kit::export_verb!(Switch);

mur_verb_kit::verb_tables!(Switch {
    arguments: [(&["CounterPage"], json!({"component": "CounterPage"}))],
    usage_errors: [
        (&[], "missing argument `<component>`"),
        (&[""], "`<component>` must not be empty"),
        (&["A", "B"], "unexpected argument `B`"),
        (&["A", "--to", "B"], "unknown option `--to`"),
    ],
});

#[cfg(test)]
mod tests {
    use super::Switch;
    use mur_verb_kit::{json, testing};

    #[test]
    fn prints_the_acknowledgement_text() {
        let result = json!({"content": [{"type": "text", "text": "switched to CounterPage"}]});
        assert_eq!(
            testing::stdout::<Switch>(&["CounterPage"], &result, false),
            "\"switched to CounterPage\"\n"
        );
    }
}
