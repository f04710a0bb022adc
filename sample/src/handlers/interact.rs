//! Tools that interact with one element: click, type, focus, invoke, toggle, expand,
//! collapse, select and scroll.

use std::time::Duration;

use serde::Deserialize;
use serde_json::{Map, Value, json};

use mur_server::{ToolError, ToolHints, ToolOutput, ToolResult, ToolSet, ToolSpec};

use super::registration::{
    SELECTOR_HELP, SelectorArgs, object_schema, register_sync, selector_property,
};
use crate::actions::{self, ActionResult, Effect};
use crate::app::{SampleApp, find_inside, find_one};
use crate::element::Kind;
use crate::state::AppState;
use crate::tree::{NodeId, Tree};
use crate::view;

/// How long a new todo takes to appear after the add button is pressed.
pub const TODO_DELAY: Duration = Duration::from_millis(200);

pub fn register(tools: &mut ToolSet, app: &SampleApp) {
    register_simple(tools, app);
    register_type(tools, app);
    register_select(tools, app);
    register_scroll(tools, app);
}

/// The tools whose only argument is the element.
fn register_simple(tools: &mut ToolSet, app: &SampleApp) {
    type Simple = fn(&mut AppState, &Tree, NodeId) -> ActionResult;
    let simple: [(&str, &str, Simple); 6] = [
        (
            "click",
            "Click the element: presses a button, flips a toggle or checkbox, selects a list item, opens or closes an expander, focuses a textbox. Clicking `#todo-add` adds the typed todo, which appears about 200 ms later.",
            actions::click,
        ),
        (
            "focus",
            "Move keyboard focus to the element.",
            actions::focus,
        ),
        (
            "invoke",
            "Press a button without a pointer (same effect as click on a Button).",
            actions::invoke,
        ),
        (
            "toggle",
            "Flip a Toggle, a CheckBox or a todo item's done mark.",
            actions::toggle,
        ),
        (
            "expand",
            "Open an Expander, showing its children.",
            |state, tree, id| actions::expand(state, tree, id, true),
        ),
        (
            "collapse",
            "Close an Expander, hiding its children.",
            |state, tree, id| actions::expand(state, tree, id, false),
        ),
    ];
    for (name, summary, action) in simple {
        let schema = object_schema(
            json!({ "selector": selector_property("the element to act on") }),
            &["selector"],
        );
        let description = format!("{summary} Returns the element afterwards. {SELECTOR_HELP}");
        let spec = ToolSpec::new(name, description, schema, ToolHints::ACTION);
        register_sync(tools, app, spec, move |app, args: SelectorArgs, _| {
            act(app, &args.selector, action)
        });
    }
}

/// Resolve `selector`, run `action` on it, start any delayed work, and report the element.
fn act(
    app: &SampleApp,
    selector: &str,
    action: impl FnOnce(&mut AppState, &Tree, NodeId) -> ActionResult,
) -> ToolResult {
    let mut state = app.lock();
    let tree = view::build(&state);
    let id = find_one(&tree, selector)?;
    let effect = action(&mut state, &tree, id)?;
    let mut result = element_after(&state, &tree.element(id).id);
    drop(state);
    if let Some(note) = schedule(app, effect) {
        result.insert("note".into(), json!(note));
    }
    Ok(ToolOutput::Json(Value::Object(result)))
}

/// `{"element": …}` with the element as it is after the action.
fn element_after(state: &AppState, element_id: &str) -> Map<String, Value> {
    let tree = view::build(state);
    let element = tree
        .find_id(element_id)
        .map(|id| Value::Object(tree.element(id).full_json()));
    let mut result = Map::new();
    result.insert("element".into(), element.unwrap_or(Value::Null));
    result
}

/// Start delayed work; returns a note for the caller about what is still to come.
fn schedule(app: &SampleApp, effect: Effect) -> Option<String> {
    let Effect::AddTodoLater(text) = effect else {
        return None;
    };
    let note = format!(
        "todo `{text}` will appear in #todo-list in about {} ms",
        TODO_DELAY.as_millis()
    );
    let app = app.clone();
    let arrive = move || {
        let mut state = app.lock();
        state.add_todo(&text);
        state.pending_todos = state.pending_todos.saturating_sub(1);
    };
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => {
            runtime.spawn(async move {
                tokio::time::sleep(TODO_DELAY).await;
                arrive();
            });
        }
        // Outside a runtime there is nothing to run a timer on; add it right away.
        Err(_) => arrive(),
    }
    Some(note)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TypeArgs {
    selector: String,
    text: String,
    #[serde(default)]
    clear: bool,
}

fn register_type(tools: &mut ToolSet, app: &SampleApp) {
    let schema = object_schema(
        json!({
            "selector": selector_property("the TextBox to type into"),
            "text": { "type": "string", "description": "text to append" },
            "clear": { "type": "boolean", "default": false, "description": "empty the textbox first" },
        }),
        &["selector", "text"],
    );
    let description = format!(
        "Type text into a TextBox (appended; `clear` empties it first) and focus it. {SELECTOR_HELP}"
    );
    let spec = ToolSpec::new("type", description, schema, ToolHints::ACTION);
    register_sync(tools, app, spec, |app, args: TypeArgs, _| {
        act(app, &args.selector, |state, tree, id| {
            actions::type_text(state, tree, id, &args.text, args.clear)
        })
    });
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SelectArgs {
    selector: String,
    item: String,
}

fn register_select(tools: &mut ToolSet, app: &SampleApp) {
    let schema = object_schema(
        json!({
            "selector": selector_property("the List"),
            "item": selector_property("the item, matched among the list's descendants, e.g. `#theme-forest` or `:nth(1)`"),
        }),
        &["selector", "item"],
    );
    let description = format!("Select an item of a List (`#todo-list`, `#theme`). {SELECTOR_HELP}");
    let spec = ToolSpec::new("select", description, schema, ToolHints::ACTION);
    register_sync(tools, app, spec, |app, args: SelectArgs, _| {
        act(app, &args.selector, |state, tree, list| {
            let item = find_inside(tree, list, &args.item).map_err(|err| err.message)?;
            actions::select(state, tree, list, item)
        })
    });
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScrollArgs {
    selector: String,
    by: Option<Offset>,
    to: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Offset {
    #[serde(default)]
    dx: i32,
    #[serde(default)]
    dy: i32,
}

fn register_scroll(tools: &mut ToolSet, app: &SampleApp) {
    let by = json!({
        "type": "object",
        "properties": { "dx": { "type": "integer", "default": 0 }, "dy": { "type": "integer", "default": 0 } },
        "additionalProperties": false,
        "description": "pixels to scroll; positive dy moves down the content",
    });
    let schema = object_schema(
        json!({
            "selector": selector_property("the ScrollViewer (`#log`)"),
            "by": by,
            "to": selector_property("an element inside the viewer to bring into view"),
        }),
        &["selector"],
    );
    let description = format!(
        "Scroll a ScrollViewer by an offset or until an element inside it is in view; give at most one of `by` and `to`; with neither, the ScrollViewer around the element scrolls it into view. Returns the viewer with its scroll offset and the first and last visible children. {SELECTOR_HELP}"
    );
    let spec = ToolSpec::new("scroll", description, schema, ToolHints::ACTION);
    register_sync(tools, app, spec, |app, args: ScrollArgs, _| {
        scroll(app, args)
    });
}

fn scroll(app: &SampleApp, args: ScrollArgs) -> ToolResult {
    let output = match (&args.by, &args.to) {
        (Some(by), None) => act(app, &args.selector, |state, tree, id| {
            actions::scroll_by(state, tree, id, by.dx, by.dy)
        })?,
        (None, Some(to)) => act(app, &args.selector, |state, tree, id| {
            let target = find_inside(tree, id, to).map_err(|err| err.message)?;
            actions::scroll_to(state, tree, id, target)
        })?,
        (None, None) => into_view(app, &args.selector)?,
        _ => {
            return Err(ToolError::new(
                "give at most one of `by` ({\"dx\":0,\"dy\":100}) and `to` (a selector)",
            ));
        }
    };
    Ok(with_visible_range(app, output))
}

/// Neither `by` nor `to`: scroll the ScrollViewer around the element until the element is in view.
fn into_view(app: &SampleApp, selector: &str) -> ToolResult {
    let viewer = {
        let tree = app.tree();
        let id = find_one(&tree, selector)?;
        let Some(viewer) = tree.ancestor_of_kind(id, Kind::ScrollViewer) else {
            // Said as it is: `by` and `to` scroll a ScrollViewer, so they help only when
            // the element is one.
            let element = tree.element(id);
            let why = match element.kind {
                Kind::ScrollViewer => {
                    ", it is one: scrolling it needs `by` (an offset) or `to` (an element inside it)"
                }
                _ => ", so nothing scrolls it into view",
            };
            return Err(ToolError::new(format!(
                "{} is not inside a ScrollViewer{why}",
                element.label()
            )));
        };
        format!("#{}", tree.element(viewer).id)
    };
    act(app, &viewer, |state, tree, viewer| {
        let target = find_one(tree, selector).map_err(|err| err.message)?;
        actions::scroll_to(state, tree, viewer, target)
    })
}

/// Add `firstVisible`/`lastVisible`: which children the viewport shows now.
fn with_visible_range(app: &SampleApp, output: ToolOutput) -> ToolOutput {
    let ToolOutput::Json(Value::Object(mut result)) = output else {
        return output;
    };
    let tree = app.tree();
    let viewer = result["element"]["id"]
        .as_str()
        .and_then(|id| tree.find_id(id));
    if let Some(viewer) = viewer {
        let visible: Vec<String> = tree
            .node(viewer)
            .children
            .iter()
            .filter(|&&child| tree.element(child).visible)
            .map(|&child| format!("#{}", tree.element(child).id))
            .collect();
        result.insert("firstVisible".into(), json!(visible.first()));
        result.insert("lastVisible".into(), json!(visible.last()));
    }
    ToolOutput::Json(Value::Object(result))
}
