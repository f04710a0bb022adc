//! The todo component: an input, an add button (disabled while the input is blank) and a
//! list whose items can be selected and checked.

use crate::element::{Binding, Command, Element, Field, Kind, ListKind, Rect};
use crate::state::AppState;
use crate::tree::{NodeId, Tree};

use super::layout::GLYPH;

const LIST: Rect = Rect::new(16, 108, 608, 328);
const ROW_HEIGHT: i32 = 32;

pub fn build(tree: &mut Tree, panel: NodeId, state: &AppState) -> &'static str {
    let input = Element::for_field(
        "todo-input",
        "New todo",
        Field::TodoInput,
        &state.todo_input,
    );
    tree.add(panel, input.at(Rect::new(16, 60, 480, 32)));
    let mut add = Element::new(Kind::Button, "todo-add", "Add todo", "Add")
        .at(Rect::new(512, 60, 112, 32))
        .bound(Binding::Command(Command::AddTodo));
    add.enabled = !state.todo_input.trim().is_empty();
    tree.add(panel, add);
    build_list(tree, panel, state);
    let status = Element::new(Kind::Text, "todo-status", "Status", status_text(state))
        .at(Rect::new(16, 448, 608, GLYPH));
    tree.add(panel, status);
    file!()
}

fn build_list(tree: &mut Tree, panel: NodeId, state: &AppState) {
    let selected_text = state
        .todos
        .iter()
        .find(|todo| Some(todo.id) == state.selected_todo)
        .map(|todo| todo.text.clone());
    let mut list = Element::new(Kind::List, "todo-list", "Todos", "")
        .at(LIST)
        .bound(Binding::List(ListKind::Todos));
    list.value = selected_text;
    let list = tree.add(panel, list);
    for (row, todo) in state.todos.iter().enumerate() {
        let bounds = Rect::new(
            LIST.x + 4,
            LIST.y + 4 + row as i32 * ROW_HEIGHT,
            LIST.width - 8,
            ROW_HEIGHT - 4,
        );
        let mut item = Element::new(
            Kind::ListItem,
            format!("todo-{}", todo.id),
            format!("Todo {}", todo.id),
            todo.text.clone(),
        )
        .at(bounds)
        .bound(Binding::Item(ListKind::Todos, todo.id));
        item.checked = Some(todo.done);
        item.selected = Some(state.selected_todo == Some(todo.id));
        tree.add(list, item);
    }
}

fn status_text(state: &AppState) -> String {
    let done = state.todos.iter().filter(|todo| todo.done).count();
    format!("{} items, {done} done", state.todos.len())
}
