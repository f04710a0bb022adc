//! `mur devtools collapse <selector>`: collapse the element a selector matches (a tree item, an expander) (MCP tool `collapse`).

use mur_verb_guest::About;

mur_verb_guest::selector_verb!(
    Collapse,
    About {
        name: "collapse",
        tool: "collapse",
        summary: "Collapse the element a selector matches (a tree item, an expander)",
        synopsis: "collapse <selector>",
        details: "",
        example: "mur devtools collapse '#advanced'",
    },
    "the element to collapse"
);
