//! `mur devtools select <selector> <item-selector>`: select an item inside a list, combo
//! box or tab view (MCP tool `select`).

use mur_verb_kit::{About, Kind, Pos, Spec, Verb};

pub struct Select;

impl Verb for Select {
    const ABOUT: About = About {
        name: "select",
        tool: "select",
        summary: "Select an item inside a list, combo box or tab view",
        synopsis: "",
        details: "",
        examples: &["mur devtools select '#theme' '#theme-forest'"],
    };
    const SPEC: Spec = Spec {
        positionals: &[
            Pos::selector("the list, combo box or tab view").or_option("S"),
            Pos::new(
                "item-selector",
                "item",
                Kind::Selector,
                "the item inside it to select",
            ),
        ],
        options: &[],
        exclusive: &[],
    };
}

mur_verb_kit::export_verb!(Select);

mur_verb_kit::verb_tables!(Select {
    arguments: [
        (
            &["#list", "#blue"],
            json!({"selector": "#list", "item": "#blue"}),
        ),
        (
            &["--selector", "#list", "#blue"],
            json!({"selector": "#list", "item": "#blue"}),
        ),
    ],
    usage_errors: [
        (
            &["#list", "#blue", "--selector", "#other"],
            "`<selector>` given twice: as `#list` and as `--selector '#other'`",
        ),
        (
            &["#list", "--item-selector", "#blue"],
            "unknown option `--item-selector`; write `<item-selector>` without \
             `--item-selector`: did you mean `mur devtools select '#list' '#blue'`?",
        ),
        (
            &["--item-selector=#blue", "#list"],
            "unknown option `--item-selector`; write `<item-selector>` without \
             `--item-selector`",
        ),
        (&["#list"], "missing argument `<item-selector>`"),
        (&["#list", ""], "`<item-selector>` must not be empty"),
        (&["#a", "#b", "#c"], "unexpected argument `#c`"),
    ],
});
