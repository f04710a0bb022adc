//! `mur devtools invoke <selector>`: invoke the default action of the element a selector matches (MCP tool `invoke`).

use mur_verb_guest::{About, Spec, Verb};

pub struct Invoke;

impl Verb for Invoke {
    const ABOUT: About = About {
        name: "invoke",
        tool: "invoke",
        summary: "Invoke the default action of the element a selector matches",
        synopsis: "invoke <selector>",
        details: "",
        example: "mur devtools invoke '#todo-add'",
    };
    const SPEC: Spec = mur_verb_guest::selector_spec!("the element to invoke");
}

mur_verb_guest::export_verb!(Invoke);

#[cfg(test)]
mod tests {
    #[test]
    fn behaves_like_every_selector_verb() {
        mur_verb_guest::testing::check_selector_verb::<super::Invoke>();
    }
}
