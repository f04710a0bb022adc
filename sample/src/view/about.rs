//! The about window: name, version and one checkbox.

use crate::element::{Element, Flag, Kind, Rect};
use crate::state::AppState;
use crate::tree::{NodeId, Tree};

use super::layout::GLYPH;

pub const SOURCE: &str = file!();

pub fn build(tree: &mut Tree, window: NodeId, state: &AppState) {
    let lines = [
        ("about-name", "Name", "mur-sample".to_owned()),
        (
            "about-version",
            "Version",
            format!("version {}", env!("CARGO_PKG_VERSION")),
        ),
        ("about-blurb", "Blurb", "a headless app for mur".to_owned()),
    ];
    for (index, (id, name, text)) in lines.into_iter().enumerate() {
        let y = 16 + index as i32 * 24;
        tree.add(
            window,
            Element::new(Kind::Text, id, name, text).at(Rect::new(16, y, 368, GLYPH)),
        );
    }
    let updates = Element::for_flag(
        Kind::CheckBox,
        "check-updates",
        "Check for updates",
        Flag::CheckUpdates,
        state.check_updates,
    );
    tree.add(window, updates.at(Rect::new(16, 100, 368, 28)));
}
