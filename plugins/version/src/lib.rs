//! `mur devtools version`: print the version of the running app's devtools server (MCP tool `version`).

use mur_verb_guest::{About, Spec, Verb};

pub struct Version;

impl Verb for Version {
    const ABOUT: About = About {
        name: "version",
        tool: "version",
        summary: "Print the version of the running app's devtools server",
        synopsis: "version",
        details: "",
        example: "mur devtools version --pretty",
    };
    const SPEC: Spec = Spec::NONE;
}

mur_verb_guest::export_verb!(Version);

#[cfg(test)]
mod tests {
    #[test]
    fn behaves_like_every_verb_without_arguments() {
        mur_verb_guest::testing::check_no_argument_verb::<super::Version>();
    }
}
