//! `mur devtools reload`: ask the running app to reload, and exit once it acknowledges
//! (MCP tool `reload`). Reconnecting to the new build is the user's next invocation.

use mur_verb_kit::{About, Kind, Opt, Spec, Verb};

pub struct Reload;

impl Verb for Reload {
    const ABOUT: About = About {
        name: "reload",
        tool: "reload",
        summary: "Ask the running app to reload, and exit once it acknowledges",
        synopsis: "",
        details: "Prints the server's acknowledgement and exits 0; the next `mur devtools` call\nfinds the new build.",
        examples: &["mur devtools reload --component counter"],
    };
    const SPEC: Spec = Spec {
        positionals: &[],
        options: &[Opt::value(
            "component",
            "N",
            Kind::Name,
            "the component to reload; an app may restart whole",
        )],
        exclusive: &[],
    };
}

mur_verb_kit::export_verb!(Reload);

mur_verb_kit::verb_tables!(Reload {
    arguments: [
        (&[], json!({})),
        (&["--component", "Counter"], json!({"component": "Counter"})),
    ],
    usage_errors: [
        (
            &["Counter"],
            "unexpected argument `Counter`; did you mean `--component Counter`?",
        ),
        (&["--component"], "`--component <N>` needs a value"),
        (&["--component="], "`--component` must not be empty"),
    ],
});

#[cfg(test)]
mod tests {
    use super::Reload;
    use mur_verb_kit::{json, testing};

    #[test]
    fn prints_the_acknowledgement() {
        let text = json!({"content": [{"type": "text", "text": "reloading"}]});
        assert_eq!(
            testing::stdout::<Reload>(&[], &text, false),
            "\"reloading\"\n"
        );
        let structured = json!({"content": [], "structuredContent": {"reloading": true}});
        assert_eq!(
            testing::stdout::<Reload>(&[], &structured, false),
            "{\"reloading\":true}\n"
        );
    }
}
