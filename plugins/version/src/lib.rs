//! `mur devtools version`: print the version of the running app's devtools server (MCP tool `version`).

use mur_verb_kit::About;

mur_verb_kit::no_argument_verb!(
    Version,
    About {
        name: "version",
        tool: "version",
        summary: "Print the version of the running app's devtools server",
        synopsis: "",
        details: "",
        examples: &["mur devtools version --pretty"],
    }
);
