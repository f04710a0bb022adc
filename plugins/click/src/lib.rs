//! `mur devtools click <selector>`: click the element a selector matches (MCP tool `click`).

use mur_verb_guest::About;

mur_verb_guest::selector_verb!(
    Click,
    About {
        name: "click",
        tool: "click",
        summary: "Click the element a selector matches",
        synopsis: "click <selector>",
        details: "",
        example: "mur devtools click '#btn-inc'",
    },
    "the element to click"
);
