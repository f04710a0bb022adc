//! `mur devtools click <selector>`: click the element a selector matches (MCP tool `click`).

use mur_verb_kit::About;

mur_verb_kit::selector_verb!(
    Click,
    About {
        name: "click",
        tool: "click",
        summary: "Click the element a selector matches",
        synopsis: "",
        details: "",
        examples: &["mur devtools click '#btn-inc'"],
    },
    "the element to click"
);
