//! What the interaction tools do to the app state, given the element they resolved.
//!
//! Actions check what a person would check (is it visible, enabled, the right kind of
//! element) and fail with a message that says what to do instead. They never wait:
//! slow work comes back as an [`Effect`] for the caller to schedule.

use super::element::{Binding, Command, Element, Field, Flag, Kind, ListKind};
use super::state::{AppState, Component};
use super::tree::{NodeId, Tree};

/// Work an action leaves for later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    None,
    /// A todo with this text appears after a short delay (as if saved to a slow backend).
    AddTodoLater(String),
}

pub type ActionResult = Result<Effect, String>;

/// Refuse elements a person could not interact with right now.
pub fn ensure_usable(tree: &Tree, id: NodeId) -> Result<(), String> {
    let element = tree.element(id);
    if !element.visible {
        return Err(not_visible(tree, id, &element.label()));
    }
    if !element.enabled {
        return Err(format!(
            "{} is disabled{}",
            element.label(),
            why_disabled(tree, element)
        ));
    }
    Ok(())
}

/// What enables a disabled element, where an agent would otherwise have to find out: the
/// add button is disabled while the input, trimmed, is empty (`view/todo.rs`), so what
/// the input holds is read, not assumed: spaces alone are no todo either. Decrement,
/// disabled at 0, says no more: the count beside it says why.
fn why_disabled(tree: &Tree, element: &Element) -> String {
    let Binding::Command(Command::AddTodo) = element.binding else {
        return String::new();
    };
    let input = tree.find_id("todo-input").map(|id| &tree.element(id).text);
    let holds = match input {
        Some(text) if !text.is_empty() => "holds only whitespace",
        _ => "is empty",
    };
    format!(": `#todo-input` {holds}; type the todo first (tool `type`, selector `#todo-input`)")
}

/// "`subject` is not visible: …", saying what hides the (hidden) element `id` and the
/// tool that shows it. `subject` is its label, or "It" where a hint names it just before.
pub fn not_visible(tree: &Tree, id: NodeId, subject: &str) -> String {
    match why_hidden(tree, id) {
        Some(why) => format!("{subject} is not visible: {why}"),
        None => format!("{subject} is not visible"),
    }
}

/// What hides the (hidden) element `id` and the tool that shows it (`component `todo` is
/// not active; switch to it first (tool `switchComponent`, …)`), when a person could
/// tell.
pub fn why_hidden(tree: &Tree, id: NodeId) -> Option<String> {
    let element = tree.element(id);
    // A component's own panel (`#todo`) is hidden for the same reason as its children: it
    // is not the active one. Scrolling would not show it.
    let panel = match element.kind {
        Kind::Panel => Some(id),
        _ => tree.ancestor_of_kind(id, Kind::Panel),
    };
    let hidden_panel = panel.filter(|&panel| !tree.element(panel).visible);
    if let Some(component) =
        hidden_panel.and_then(|panel| Component::from_name(&tree.element(panel).id))
    {
        return Some(format!(
            "component `{0}` is not active; switch to it first (tool `switchComponent`, component `{0}`)",
            component.name()
        ));
    }
    // Otherwise the nearest reason above it that a person would undo: an expander closed
    // over it, or a viewport it lies outside of. The tools are named, not a client's
    // commands: an agent reads this over MCP as well as through a CLI.
    let mut current = id;
    while let Some(parent) = tree.node(current).parent {
        let container = tree.element(parent);
        if container.expanded == Some(false) {
            return Some(format!(
                "it is inside {}, which is collapsed; expand it first (tool `expand`, selector `#{}`)",
                container.label(),
                container.id
            ));
        }
        if container.kind.clips_children()
            && !container.bounds.intersects(&tree.element(current).bounds)
        {
            return Some(match container.kind {
                Kind::ScrollViewer => format!(
                    "it is scrolled out of view in {}; scroll it into view first (tool `scroll`, selector `#{}`)",
                    container.label(),
                    element.id
                ),
                _ => format!("it lies outside the visible area of {}", container.label()),
            });
        }
        current = parent;
    }
    None
}

/// Click: what a mouse click on the element would do.
pub fn click(state: &mut AppState, tree: &Tree, id: NodeId) -> ActionResult {
    ensure_usable(tree, id)?;
    let element = tree.element(id);
    take_focus(state, element);
    match (element.kind, element.binding) {
        (Kind::Button, Binding::Command(command)) => Ok(run_command(state, command)),
        (Kind::Toggle | Kind::CheckBox, _) => flip(state, element),
        (Kind::ListItem, Binding::Item(list, key)) => Ok(choose(state, list, key)),
        (Kind::Expander, _) => set_expanded(state, element, !element.expanded.unwrap_or(false)),
        // Clicking static content does nothing, as in a real UI.
        _ => Ok(Effect::None),
    }
}

/// Invoke: press a button without a pointer.
pub fn invoke(state: &mut AppState, tree: &Tree, id: NodeId) -> ActionResult {
    ensure_usable(tree, id)?;
    let element = tree.element(id);
    match element.binding {
        Binding::Command(command) => Ok(run_command(state, command)),
        _ => Err(wrong_kind(
            element,
            "invoke",
            "Button elements; use toggle, select or expand for other controls",
        )),
    }
}

fn run_command(state: &mut AppState, command: Command) -> Effect {
    match command {
        Command::Increment => state.count = state.count.saturating_add(1),
        Command::Decrement => state.count = state.count.saturating_sub(1),
        Command::AddTodo => {
            let text = std::mem::take(&mut state.todo_input).trim().to_owned();
            state.pending_todos += 1;
            return Effect::AddTodoLater(text);
        }
    }
    Effect::None
}

/// Toggle: flip a toggle, a checkbox, or a todo item's done mark.
pub fn toggle(state: &mut AppState, tree: &Tree, id: NodeId) -> ActionResult {
    ensure_usable(tree, id)?;
    flip(state, tree.element(id))
}

fn flip(state: &mut AppState, element: &Element) -> ActionResult {
    let flag = match element.binding {
        Binding::Flag(flag) => flag,
        Binding::Item(ListKind::Todos, todo) => Flag::TodoDone(todo),
        _ => {
            return Err(wrong_kind(
                element,
                "toggle",
                "Toggle, CheckBox and todo ListItem elements",
            ));
        }
    };
    match flag {
        Flag::DarkMode => state.dark_mode = !state.dark_mode,
        Flag::Verbose => state.verbose = !state.verbose,
        Flag::CheckUpdates => state.check_updates = !state.check_updates,
        Flag::TodoDone(todo) => {
            if let Some(todo) = state.todo_mut(todo) {
                todo.done = !todo.done;
            }
        }
    }
    Ok(Effect::None)
}

/// Type: put text into a textbox, after emptying it when `clear` is set.
pub fn type_text(
    state: &mut AppState,
    tree: &Tree,
    id: NodeId,
    text: &str,
    clear: bool,
) -> ActionResult {
    ensure_usable(tree, id)?;
    let element = tree.element(id);
    let Binding::Field(field) = element.binding else {
        return Err(wrong_kind(element, "type", "TextBox elements"));
    };
    let contents = match field {
        Field::TodoInput => &mut state.todo_input,
        Field::CacheSize => &mut state.cache_size,
    };
    if clear {
        contents.clear();
    }
    contents.push_str(text);
    take_focus(state, element);
    Ok(Effect::None)
}

/// Focus: move keyboard focus to the element.
pub fn focus(state: &mut AppState, tree: &Tree, id: NodeId) -> ActionResult {
    ensure_usable(tree, id)?;
    let element = tree.element(id);
    if !element.kind.focusable() {
        return Err(format!(
            "{} is a {} and cannot take focus",
            element.label(),
            element.kind.name()
        ));
    }
    take_focus(state, element);
    Ok(Effect::None)
}

fn take_focus(state: &mut AppState, element: &Element) {
    if element.kind.focusable() {
        state.focus = Some(element.id.clone());
    }
}

/// Expand or collapse an expander.
pub fn expand(state: &mut AppState, tree: &Tree, id: NodeId, open: bool) -> ActionResult {
    ensure_usable(tree, id)?;
    set_expanded(state, tree.element(id), open)
}

fn set_expanded(state: &mut AppState, element: &Element, open: bool) -> ActionResult {
    let verb = if open { "expand" } else { "collapse" };
    match element.binding {
        Binding::Advanced => state.advanced_open = open,
        _ => return Err(wrong_kind(element, verb, "Expander elements")),
    }
    if !open
        && state
            .focus
            .as_deref()
            .is_some_and(|focus| focus == "verbose" || focus == "cache-size")
    {
        state.focus = None;
    }
    Ok(Effect::None)
}

/// Select: make `item` the selected item of `list`.
pub fn select(state: &mut AppState, tree: &Tree, list: NodeId, item: NodeId) -> ActionResult {
    ensure_usable(tree, list)?;
    let list_element = tree.element(list);
    if list_element.kind != Kind::List {
        return Err(wrong_kind(list_element, "select", "List elements"));
    }
    match tree.element(item).binding {
        Binding::Item(kind, key) => Ok(choose(state, kind, key)),
        _ => Err(format!(
            "{} is not an item of {}; pick one of its ListItem children",
            tree.element(item).label(),
            list_element.label()
        )),
    }
}

fn choose(state: &mut AppState, list: ListKind, key: u64) -> Effect {
    match list {
        ListKind::Todos => state.selected_todo = Some(key),
        ListKind::Theme => state.theme = key as usize,
    }
    Effect::None
}

/// Scroll a scroll viewer by a distance; the offset stays within the content.
pub fn scroll_by(state: &mut AppState, tree: &Tree, id: NodeId, dx: i32, dy: i32) -> ActionResult {
    ensure_usable(tree, id)?;
    let element = tree.element(id);
    let (Binding::Log, Some(scroll)) = (element.binding, element.scroll) else {
        return Err(wrong_kind(element, "scroll", "ScrollViewer elements"));
    };
    let x = scroll.x.saturating_add(dx).clamp(0, scroll.max_x);
    let y = scroll.y.saturating_add(dy).clamp(0, scroll.max_y);
    state.log_scroll = (x, y);
    Ok(Effect::None)
}

/// Scroll a scroll viewer just enough to bring `target` (one of its descendants) into view.
pub fn scroll_to(state: &mut AppState, tree: &Tree, id: NodeId, target: NodeId) -> ActionResult {
    let viewport = tree.element(id).bounds;
    let bounds = tree.element(target).bounds;
    let dy = if bounds.y < viewport.y {
        bounds.y - viewport.y
    } else {
        (bounds.bottom() - viewport.bottom()).max(0)
    };
    let dx = (bounds.x - viewport.x).min(0);
    scroll_by(state, tree, id, dx, dy)
}

fn wrong_kind(element: &Element, verb: &str, works_on: &str) -> String {
    format!(
        "{} is a {}; {verb} works on {works_on}",
        element.label(),
        element.kind.name()
    )
}
