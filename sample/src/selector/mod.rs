//! The selector language clients use to name elements, and how selectors are matched.
//!
//! ```text
//! #btn-inc                     element with id `btn-inc`
//! Button                       elements of a type (case-insensitive); `*` is any type
//! [name="Increment"]           attribute equals; `*=` means contains
//! #todo-list ListItem          descendant combinator (space)
//! #todo-list > ListItem        child combinator
//! ListItem:nth(0)              the first match so far (0-based)
//! ListItem:text("milk")        text contains, ignoring case
//! ```
//! Filters in one step apply left to right, so `ListItem:text("a"):nth(1)` is the second
//! item containing "a", while `ListItem:nth(1):text("a")` is the second item if it has "a".

mod among;
mod ast;
mod meant;
mod parse;

use std::collections::HashSet;

use super::element::Element;
use super::tree::{NodeId, Tree};

pub use among::{Among, Purpose};
pub use ast::{AttrOp, Combinator, Filter, Selector, Step};
pub use meant::{likely, no_match};
#[cfg(test)]
pub use parse::parse;
pub use parse::parse_in;

impl Selector {
    /// Elements in `scope` (in document order) that match, in document order.
    pub fn query(&self, tree: &Tree, scope: &[NodeId]) -> Vec<NodeId> {
        let mut matched: Vec<NodeId> = Vec::new();
        for (index, step) in self.steps.iter().enumerate() {
            let previous: HashSet<NodeId> = matched.iter().copied().collect();
            let candidates = scope
                .iter()
                .copied()
                .filter(|&id| index == 0 || step.relates(tree, id, &previous));
            matched = step.apply_filters(tree, candidates.collect());
        }
        matched
    }
}

impl Step {
    fn relates(&self, tree: &Tree, id: NodeId, previous: &HashSet<NodeId>) -> bool {
        match self.combinator {
            Combinator::Child => tree
                .node(id)
                .parent
                .is_some_and(|parent| previous.contains(&parent)),
            Combinator::Descendant => {
                let mut current = tree.node(id).parent;
                while let Some(ancestor) = current {
                    if previous.contains(&ancestor) {
                        return true;
                    }
                    current = tree.node(ancestor).parent;
                }
                false
            }
        }
    }

    fn apply_filters(&self, tree: &Tree, mut ids: Vec<NodeId>) -> Vec<NodeId> {
        for filter in &self.filters {
            ids = match filter {
                Filter::Nth(n) => ids.get(*n).map(|&id| vec![id]).unwrap_or_default(),
                _ => ids
                    .into_iter()
                    .filter(|&id| filter.accepts(tree.element(id)))
                    .collect(),
            };
        }
        ids
    }
}

impl Filter {
    fn accepts(&self, element: &Element) -> bool {
        match self {
            Filter::Kind(kind) => element.kind == *kind,
            Filter::Id(id) => element.id == *id,
            Filter::Text(text) => element.text.to_lowercase().contains(&text.to_lowercase()),
            Filter::Attribute { name, op, value } => match (element.attribute(name), op) {
                (Some(actual), AttrOp::Equals) => actual == *value,
                (Some(actual), AttrOp::Contains) => actual.contains(value.as_str()),
                (None, _) => false,
            },
            Filter::Nth(_) => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::AppState;
    use crate::view;

    /// Checks each row: the ids of the elements a selector matches, in order.
    fn assert_matches(state: &AppState, rows: &[(&str, &[&str])]) {
        for (selector, expected) in rows {
            assert_eq!(ids(selector, state), *expected, "{selector}");
        }
    }

    fn ids(selector: &str, state: &AppState) -> Vec<String> {
        let tree = view::build(state);
        let scope: Vec<NodeId> = tree.ids().collect();
        let selector = parse(selector).expect("selector parses");
        selector
            .query(&tree, &scope)
            .into_iter()
            .map(|id| tree.element(id).id.clone())
            .collect()
    }

    fn with_todos() -> AppState {
        let mut state = AppState::default();
        for text in ["milk", "bread", "more milk"] {
            state.add_todo(text);
        }
        state
    }

    #[test]
    fn id_type_and_attribute_selectors_match() {
        assert_matches(
            &AppState::default(),
            &[
                ("#btn-inc", &["btn-inc"]),
                ("button[name=\"Decrement\"]", &["btn-dec"]),
                ("Window", &["main", "about"]),
                ("[name*='Incr']", &["btn-inc"]),
                ("Button[enabled=false]", &["btn-dec", "todo-add"]),
            ],
        );
    }

    #[test]
    fn combinators_nth_and_text_narrow_the_match() {
        assert_matches(
            &with_todos(),
            &[
                ("#todo-list ListItem", &["todo-1", "todo-2", "todo-3"]),
                ("#todo > ListItem", &[]),
                ("#todo-list > ListItem:nth(1)", &["todo-2"]),
                ("ListItem:text(\"MILK\")", &["todo-1", "todo-3"]),
                ("ListItem:text(\"milk\"):nth(1)", &["todo-3"]),
                ("#main #advanced > *", &["verbose", "cache-size"]),
            ],
        );
    }
}
