//! What a parsed selector is: steps joined by combinators, each a list of filters.

use crate::element::Kind;

/// Attributes usable in `[attr="value"]`.
pub const ATTRIBUTES: [&str; 11] = [
    "id", "type", "name", "text", "value", "visible", "enabled", "focused", "checked", "selected",
    "expanded",
];

/// A parsed selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// How this step relates to the previous one (ignored on the first step).
    pub combinator: Combinator,
    pub filters: Vec<Filter>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combinator {
    Descendant,
    Child,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Filter {
    Kind(Kind),
    Id(String),
    Attribute {
        name: String,
        op: AttrOp,
        value: String,
    },
    Text(String),
    /// Keep only the n-th (0-based) of the elements matched so far.
    Nth(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrOp {
    Equals,
    Contains,
}
