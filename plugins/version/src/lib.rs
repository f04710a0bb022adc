//! `mur devtools version`: print the version of the running app's devtools server (MCP tool `version`).

use mur_verb_guest::About;

mur_verb_guest::no_argument_verb!(
    Version,
    About {
        name: "version",
        tool: "version",
        summary: "Print the version of the running app's devtools server",
        synopsis: "version",
        details: "",
        example: "mur devtools version --pretty",
    }
);
