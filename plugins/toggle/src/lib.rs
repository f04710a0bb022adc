//! `mur devtools toggle <selector>`: toggle the element a selector matches (a check box, a switch) (MCP tool `toggle`).

use mur_verb_guest::{About, Spec, Verb};

pub struct Toggle;

impl Verb for Toggle {
    const ABOUT: About = About {
        name: "toggle",
        tool: "toggle",
        summary: "Toggle the element a selector matches (a check box, a switch)",
        synopsis: "toggle <selector>",
        details: "",
        example: "mur devtools toggle '#dark-mode'",
    };
    const SPEC: Spec = mur_verb_guest::selector_spec!("the element to toggle");
}

mur_verb_guest::export_verb!(Toggle);

#[cfg(test)]
mod tests {
    #[test]
    fn behaves_like_every_selector_verb() {
        mur_verb_guest::testing::check_selector_verb::<super::Toggle>();
    }
}
