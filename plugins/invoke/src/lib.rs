//! `mur devtools invoke <selector>`: invoke the default action of the element a selector matches (MCP tool `invoke`).

use mur_verb_kit::About;

mur_verb_kit::selector_verb!(
    Invoke,
    About {
        name: "invoke",
        tool: "invoke",
        summary: "Invoke the default action of the element a selector matches",
        synopsis: "",
        details: "",
        examples: &["mur devtools invoke '#todo-add'"],
    },
    "the element to invoke"
);
