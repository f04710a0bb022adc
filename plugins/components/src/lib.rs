//! `mur devtools components`: list the components the running app can show (MCP tool `components`).

use mur_verb_guest::{About, Spec, Verb};

pub struct Components;

impl Verb for Components {
    const ABOUT: About = About {
        name: "components",
        tool: "components",
        summary: "List the components the running app can show",
        synopsis: "components",
        details: "",
        example: "mur devtools components --pretty",
    };
    const SPEC: Spec = Spec::NONE;
}

mur_verb_guest::export_verb!(Components);

#[cfg(test)]
mod tests {
    #[test]
    fn behaves_like_every_verb_without_arguments() {
        mur_verb_guest::testing::check_no_argument_verb::<super::Components>();
    }
}
