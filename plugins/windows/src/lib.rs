//! `mur devtools windows`: list the running app's windows (MCP tool `windows`).

use mur_verb_guest::{About, Spec, Verb};

pub struct Windows;

impl Verb for Windows {
    const ABOUT: About = About {
        name: "windows",
        tool: "windows",
        summary: "List the running app's windows",
        synopsis: "windows",
        details: "",
        example: "mur devtools windows --pretty",
    };
    const SPEC: Spec = Spec::NONE;
}

mur_verb_guest::export_verb!(Windows);

#[cfg(test)]
mod tests {
    #[test]
    fn behaves_like_every_verb_without_arguments() {
        mur_verb_guest::testing::check_no_argument_verb::<super::Windows>();
    }
}
