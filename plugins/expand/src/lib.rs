//! `mur devtools expand <selector>`: expand the element a selector matches (a tree item, an expander) (MCP tool `expand`).

use mur_verb_guest::About;

mur_verb_guest::selector_verb!(
    Expand,
    About {
        name: "expand",
        tool: "expand",
        summary: "Expand the element a selector matches (a tree item, an expander)",
        synopsis: "expand <selector>",
        details: "",
        example: "mur devtools expand '#advanced'",
    },
    "the element to expand"
);
