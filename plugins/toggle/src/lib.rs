//! `mur devtools toggle <selector>`: toggle the element a selector matches (a check box, a switch) (MCP tool `toggle`).

use mur_verb_kit::About;

mur_verb_kit::selector_verb!(
    Toggle,
    About {
        name: "toggle",
        tool: "toggle",
        summary: "Toggle the element a selector matches (a check box, a switch)",
        synopsis: "",
        details: "",
        examples: &["mur devtools toggle '#dark-mode'"],
    },
    "the element to toggle"
);
