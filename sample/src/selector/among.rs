//! What the hints of a selector that matches nothing are drawn from: the elements it
//! was matched among, and what the tool does with the element it names.

use crate::tree::{NodeId, Tree};

/// What a tool does with the element a selector names. An action (or a screenshot of the
/// element) needs it visible, so a hint that names a hidden element says what shows it; a
/// read takes it hidden, and switching to show it would change the app for nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Act,
    Read,
    /// An element looked for inside this container, which the tool acts on: `select`'s
    /// item, `scroll`'s `to`. The tool needs the container visible, not the element (a
    /// scroll brings it into view), so a hint says what shows the container when it is
    /// hidden, and nothing of the element's own visibility.
    Within(NodeId),
}

/// The elements of `tree` a selector is matched among, and what for: what the hints of
/// a selector that names none are drawn from.
#[derive(Clone, Copy)]
pub struct Among<'a> {
    pub tree: &'a Tree,
    pub scope: &'a [NodeId],
    pub purpose: Purpose,
}
