//! `mur devtools windows`: list the running app's windows (MCP tool `windows`).

use mur_verb_guest::About;

mur_verb_guest::no_argument_verb!(
    Windows,
    About {
        name: "windows",
        tool: "windows",
        summary: "List the running app's windows",
        synopsis: "windows",
        details: "",
        example: "mur devtools windows --pretty",
    }
);
