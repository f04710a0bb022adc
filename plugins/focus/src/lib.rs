//! `mur devtools focus <selector>`: move keyboard focus to the element a selector matches (MCP tool `focus`).

use mur_verb_guest::About;

mur_verb_guest::selector_verb!(
    Focus,
    About {
        name: "focus",
        tool: "focus",
        summary: "Move keyboard focus to the element a selector matches",
        synopsis: "focus <selector>",
        details: "",
        example: "mur devtools focus '#todo-input'",
    },
    "the element to focus"
);
