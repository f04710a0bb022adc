//! `mur devtools focus <selector>`: move keyboard focus to the element a selector matches (MCP tool `focus`).

use mur_verb_kit::About;

mur_verb_kit::selector_verb!(
    Focus,
    About {
        name: "focus",
        tool: "focus",
        summary: "Move keyboard focus to the element a selector matches",
        synopsis: "",
        details: "",
        examples: &["mur devtools focus '#todo-input'"],
    },
    "the element to focus"
);
