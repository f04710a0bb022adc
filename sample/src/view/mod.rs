//! Builds the element tree of every window from the app state, with a simple fixed layout.
//!
//! The tree is rebuilt on every query: the state is the single source of truth, so the UI
//! a client sees can never drift from it.

mod about;
mod counter;
mod layout;
mod settings;
mod todo;

use super::element::{Element, Kind, Rect};
use super::state::{AppState, Component};
use super::tree::{NodeId, Tree};
pub use layout::{GLYPH, text_width};

pub const MAIN_WINDOW: Rect = Rect::new(0, 0, 640, 480);
pub const ABOUT_WINDOW: Rect = Rect::new(0, 0, 400, 160);
/// Where a component's panel sits in the main window, below the title.
const PANEL: Rect = Rect::new(0, 44, 640, 436);

/// Window titles, shown by `windows` and in screenshot chrome.
pub fn window_title(window_id: &str) -> &'static str {
    match window_id {
        "main" => "mur sample",
        _ => "About mur-sample",
    }
}

/// The whole UI for `state`: windows, elements, layout, visibility and focus.
pub fn build(state: &AppState) -> Tree {
    let mut tree = Tree::new();
    build_main(&mut tree, state);
    let about = tree.add_window(
        Element::new(Kind::Window, "about", "About", window_title("about")).at(ABOUT_WINDOW),
    );
    about::build(&mut tree, about, state);
    stamp_source(&mut tree, about, about::SOURCE);
    tree.resolve_visibility();
    mark_focus(&mut tree, state);
    tree
}

fn build_main(tree: &mut Tree, state: &AppState) {
    let main = tree.add_window(
        Element::new(Kind::Window, "main", "Main", window_title("main")).at(MAIN_WINDOW),
    );
    stamp_source(tree, main, file!());
    let title = Element::new(Kind::Text, "title", "Title", state.active.title())
        .at(Rect::new(16, 14, 608, GLYPH));
    let title = tree.add(main, title);
    stamp_source(tree, title, file!());
    for component in Component::ALL {
        let mut panel =
            Element::new(Kind::Panel, component.name(), component.title(), "").at(PANEL);
        panel.visible = state.active == component;
        let panel = tree.add(main, panel);
        let source = match component {
            Component::Counter => counter::build(tree, panel, state),
            Component::Todo => todo::build(tree, panel, state),
            Component::Settings => settings::build(tree, panel, state),
        };
        stamp_source(tree, panel, source);
    }
}

/// Record which view module built each element of a subtree.
fn stamp_source(tree: &mut Tree, root: NodeId, source: &'static str) {
    for id in tree.subtree(root) {
        tree.element_mut(id).source = source;
    }
}

fn mark_focus(tree: &mut Tree, state: &AppState) {
    let Some(focus) = &state.focus else { return };
    if let Some(id) = tree.find_id(focus) {
        tree.element_mut(id).focused = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_ids_are_unique() {
        let mut state = AppState::default();
        state.add_todo("milk");
        let tree = build(&state);
        let mut ids: Vec<&str> = tree.ids().map(|id| tree.element(id).id.as_str()).collect();
        let total = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), total);
    }

    #[test]
    fn only_the_active_component_is_visible() {
        let mut state = AppState::default();
        state.switch_to(Component::Todo);
        let tree = build(&state);
        let visible = |id: &str| {
            tree.element(tree.find_id(id).expect("element exists"))
                .visible
        };
        assert!(visible("todo-input"));
        assert!(!visible("btn-inc"));
        assert!(!visible("dark-mode"));
    }
}
