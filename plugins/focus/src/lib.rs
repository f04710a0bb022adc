//! `mur devtools focus <selector>`: move keyboard focus to the element a selector matches (MCP tool `focus`).

use mur_verb_guest::{About, Spec, Verb};

pub struct Focus;

impl Verb for Focus {
    const ABOUT: About = About {
        name: "focus",
        tool: "focus",
        summary: "Move keyboard focus to the element a selector matches",
        synopsis: "focus <selector>",
        details: "",
        example: "mur devtools focus '#todo-input'",
    };
    const SPEC: Spec = mur_verb_guest::selector_spec!("the element to focus");
}

mur_verb_guest::export_verb!(Focus);

#[cfg(test)]
mod tests {
    #[test]
    fn behaves_like_every_selector_verb() {
        mur_verb_guest::testing::check_selector_verb::<super::Focus>();
    }
}
