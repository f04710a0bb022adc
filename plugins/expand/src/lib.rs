//! `mur devtools expand <selector>`: expand the element a selector matches (a tree item, an expander) (MCP tool `expand`).

use mur_verb_guest::{About, Spec, Verb};

pub struct Expand;

impl Verb for Expand {
    const ABOUT: About = About {
        name: "expand",
        tool: "expand",
        summary: "Expand the element a selector matches (a tree item, an expander)",
        synopsis: "expand <selector>",
        details: "",
        example: "mur devtools expand '#advanced'",
    };
    const SPEC: Spec = mur_verb_guest::selector_spec!("the element to expand");
}

mur_verb_guest::export_verb!(Expand);

#[cfg(test)]
mod tests {
    #[test]
    fn behaves_like_every_selector_verb() {
        mur_verb_guest::testing::check_selector_verb::<super::Expand>();
    }
}
