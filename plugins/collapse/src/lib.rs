//! `mur devtools collapse <selector>`: collapse the element a selector matches (a tree item, an expander) (MCP tool `collapse`).

use mur_verb_guest::{About, Spec, Verb};

pub struct Collapse;

impl Verb for Collapse {
    const ABOUT: About = About {
        name: "collapse",
        tool: "collapse",
        summary: "Collapse the element a selector matches (a tree item, an expander)",
        synopsis: "collapse <selector>",
        details: "",
        example: "mur devtools collapse '#advanced'",
    };
    const SPEC: Spec = mur_verb_guest::selector_spec!("the element to collapse");
}

mur_verb_guest::export_verb!(Collapse);

#[cfg(test)]
mod tests {
    #[test]
    fn behaves_like_every_selector_verb() {
        mur_verb_guest::testing::check_selector_verb::<super::Collapse>();
    }
}
