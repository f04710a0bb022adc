//! `mur devtools expand <selector>`: expand the element a selector matches (a tree item, an expander) (MCP tool `expand`).

use mur_verb_kit::About;

mur_verb_kit::selector_verb!(
    Expand,
    About {
        name: "expand",
        tool: "expand",
        summary: "Expand the element a selector matches (a tree item, an expander)",
        synopsis: "",
        details: "",
        examples: &["mur devtools expand '#advanced'"],
    },
    "the element to expand"
);
