//! `mur devtools tree`: print the running app's UI tree, or the part a selector matches
//! (MCP tool `tree`).

use mur_verb_kit::{About, Kind, Opt, Spec, Verb};

pub struct Tree;

impl Verb for Tree {
    const ABOUT: About = About {
        name: "tree",
        tool: "tree",
        summary: "Print the running app's UI tree, or the part a selector matches",
        synopsis: "",
        details: "The summary leaves hidden elements out (in a collapsed expander, scrolled out of\n\
                  view): `--view full --selector S` shows them under S.",
        examples: &["mur devtools tree --selector '#btn-inc' --view full --pretty"],
    };
    const SPEC: Spec = Spec {
        positionals: &[],
        options: &[
            Opt::selector("only the subtree the selector S matches").or_word(),
            Opt::window("only this window (default: every window)"),
            Opt::value(
                "view",
                "summary|full",
                Kind::Choice(&["summary", "full"]),
                "summary (default): visible elements only; full: hidden ones too, every property",
            ),
            Opt::flag(
                "include-reactor-source",
                "include where in the source each node was declared",
            ),
        ],
        exclusive: &[],
    };
}

mur_verb_kit::export_verb!(Tree);

mur_verb_kit::verb_tables!(Tree {
    arguments: [
        (
            &[
                "--selector=#root",
                "--window",
                "main",
                "--view",
                "full",
                "--include-reactor-source",
            ],
            json!({"selector": "#root", "window": "main", "view": "full", "includeReactorSource": true}),
        ),
        // A selector alone, where it starts like one.
        (&["#root"], json!({"selector": "#root"})),
        (
            &["[name=x]", "--view", "full"],
            json!({"selector": "[name=x]", "view": "full"}),
        ),
    ],
    usage_errors: [
        (
            &["--view", "brief"],
            "`--view` must be `summary` or `full`, got `brief`",
        ),
        (
            &["--view", "fll"],
            "`--view` must be `summary` or `full`, got `fll`; did you mean `full`?",
        ),
        (
            &["-s", "#root"],
            "unknown option `-s`; did you mean `--selector`?",
        ),
        // `-i`: `--include-reactor-source`; `-w`: `--window`; none starts with `x`.
        (
            &["-w", "main"],
            "unknown option `-w`; did you mean `--window`?",
        ),
        (&["-x"], "unknown option `-x`"),
        // A plain word may be a window's name as well: refused, naming both readings.
        (
            &["main"],
            "unexpected argument `main`; did you mean `--selector main` or `--window main`?",
        ),
        // A word with a selector's marks is no window's name.
        (
            &[":text(\"x\")"],
            "unexpected argument `:text(\"x\")`; did you mean `--selector ':text(\"x\")'`?",
        ),
        // A plain word beside `--selector`: the other option it fits.
        (
            &["--selector", "#a", "main"],
            "unexpected argument `main`; did you mean `--window main`?",
        ),
        (
            &["full"],
            "unexpected argument `full`; did you mean `--view full`?",
        ),
        (
            &["--include-reactor-source=yes"],
            "`--include-reactor-source` takes no value, got `yes`",
        ),
    ],
});

#[cfg(test)]
mod tests {
    use super::Tree;
    use mur_verb_kit::{json, testing};

    #[test]
    fn takes_its_selector_as_every_verb_with_an_optional_one_does() {
        testing::check_optional_selector_verb::<Tree>();
    }

    #[test]
    fn prints_the_tree_from_structured_or_text_content_in_the_servers_key_order() {
        let structured = r#"{"structuredContent": {"type": "Button", "children": []}}"#;
        let structured = mur_verb_kit::serde_json::from_str(structured).expect("JSON");
        assert_eq!(
            testing::stdout::<Tree>(&[], &structured, false),
            "{\"type\":\"Button\",\"children\":[]}\n"
        );
        let text = json!({"content": [{"type": "text", "text": "{\"type\":\"Window\"}"}]});
        assert_eq!(
            testing::stdout::<Tree>(&[], &text, true),
            "{\n  \"type\": \"Window\"\n}\n"
        );
    }
}
