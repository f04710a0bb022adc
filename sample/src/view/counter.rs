//! The counter component: a count and two buttons; decrement is disabled at zero.

use crate::element::{Binding, Command, Element, Kind, Rect};
use crate::state::AppState;
use crate::tree::{NodeId, Tree};

use super::layout::GLYPH;

pub fn build(tree: &mut Tree, panel: NodeId, state: &AppState) -> &'static str {
    let label = Element::new(Kind::Text, "count-label", "Count label", "Count:")
        .at(Rect::new(16, 64, 96, GLYPH));
    tree.add(panel, label);
    let count = Element::new(Kind::Text, "count", "Count", state.count.to_string())
        .at(Rect::new(128, 64, 320, GLYPH));
    tree.add(panel, count);
    let mut dec = Element::new(Kind::Button, "btn-dec", "Decrement", "-")
        .at(Rect::new(16, 100, 64, 32))
        .bound(Binding::Command(Command::Decrement));
    dec.enabled = state.count > 0;
    tree.add(panel, dec);
    let inc = Element::new(Kind::Button, "btn-inc", "Increment", "+")
        .at(Rect::new(96, 100, 64, 32))
        .bound(Binding::Command(Command::Increment));
    tree.add(panel, inc);
    file!()
}
