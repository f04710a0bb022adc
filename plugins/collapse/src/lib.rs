//! `mur devtools collapse <selector>`: collapse the element a selector matches (a tree item, an expander) (MCP tool `collapse`).

use mur_verb_kit::About;

mur_verb_kit::selector_verb!(
    Collapse,
    About {
        name: "collapse",
        tool: "collapse",
        summary: "Collapse the element a selector matches (a tree item, an expander)",
        synopsis: "",
        details: "",
        examples: &["mur devtools collapse '#advanced'"],
    },
    "the element to collapse"
);
