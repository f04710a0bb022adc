//! `mur devtools click <selector>`: click the element a selector matches (MCP tool `click`).

use mur_verb_guest::{About, Spec, Verb};

pub struct Click;

impl Verb for Click {
    const ABOUT: About = About {
        name: "click",
        tool: "click",
        summary: "Click the element a selector matches",
        synopsis: "click <selector>",
        details: "",
        example: "mur devtools click '#btn-inc'",
    };
    const SPEC: Spec = mur_verb_guest::selector_spec!("the element to click");
}

mur_verb_guest::export_verb!(Click);

#[cfg(test)]
mod tests {
    #[test]
    fn behaves_like_every_selector_verb() {
        mur_verb_guest::testing::check_selector_verb::<super::Click>();
    }
}
