//! `mur devtools windows`: list the running app's windows (MCP tool `windows`).

use mur_verb_kit::About;

mur_verb_kit::no_argument_verb!(
    Windows,
    About {
        name: "windows",
        tool: "windows",
        summary: "List the running app's windows",
        synopsis: "",
        details: "",
        examples: &["mur devtools windows --pretty"],
    }
);
