//! `mur devtools components`: list the components the running app can show (MCP tool `components`).

use mur_verb_kit::About;

mur_verb_kit::no_argument_verb!(
    Components,
    About {
        name: "components",
        tool: "components",
        summary: "List the components the running app can show",
        synopsis: "",
        details: "",
        examples: &["mur devtools components --pretty"],
    }
);
