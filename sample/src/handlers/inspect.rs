//! Read-only tools: version, windows, components, tree and state.

use serde::Deserialize;
use serde_json::{Map, Value, json};

use mur_server::{ToolHints, ToolOutput, ToolSet, ToolSpec};

use super::registration::{NoArgs, SELECTOR_HELP, object_schema, register_sync, selector_property};
use crate::app::{SampleApp, find_some, window_node};
use crate::events::EVENTS;
use crate::selector::Purpose;
use crate::state::Component;
use crate::tree::{NodeId, Tree};

pub fn register(tools: &mut ToolSet, app: &SampleApp) {
    register_report(
        tools,
        app,
        "version",
        "Name, version and pid of the running app.",
        |_| json!({ "name": "mur-sample", "version": env!("CARGO_PKG_VERSION"), "pid": std::process::id() }),
    );
    register_report(
        tools,
        app,
        "windows",
        "The app's windows: id, title, bounds, and whether one holds the focus.",
        |app| windows_json(&app.tree()),
    );
    register_report(
        tools,
        app,
        "components",
        "The components of the main window, which one is active, and the events each accepts (see `fire`).",
        |app| components_json(app.lock().active),
    );
    register_tree(tools, app);
    register_state(tools, app);
}

/// A read-only tool without arguments whose answer is `report` of the app, as JSON.
fn register_report(
    tools: &mut ToolSet,
    app: &SampleApp,
    name: &str,
    description: &str,
    report: fn(&SampleApp) -> Value,
) {
    let spec = ToolSpec::new(
        name,
        description,
        object_schema(json!({}), &[]),
        ToolHints::READ_ONLY,
    );
    register_sync(tools, app, spec, move |app, _: NoArgs, _| {
        Ok(ToolOutput::Json(report(app)))
    });
}

fn windows_json(tree: &Tree) -> Value {
    let windows: Vec<Value> = tree
        .windows()
        .map(|window| {
            let element = tree.element(window);
            let focused = tree.subtree(window).into_iter().any(|id| tree.element(id).focused);
            json!({ "id": element.id, "title": element.text, "bounds": element.bounds.to_json(), "focused": focused })
        })
        .collect();
    json!({ "windows": windows })
}

fn components_json(active: Component) -> Value {
    let components: Vec<Value> = Component::ALL
        .into_iter()
        .map(|component| {
            let prefix = format!("{}.", component.name());
            let events: Vec<&str> = EVENTS.iter().map(|(name, _, _)| *name).filter(|name| name.starts_with(&prefix)).collect();
            json!({ "name": component.name(), "title": component.title(), "window": "main", "active": component == active, "events": events })
        })
        .collect();
    json!({ "active": active.name(), "components": components })
}

#[derive(Deserialize, Default, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum View {
    #[default]
    Summary,
    Full,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct TreeArgs {
    selector: Option<String>,
    window: Option<String>,
    #[serde(default)]
    view: View,
    #[serde(default)]
    include_reactor_source: bool,
}

fn register_tree(tools: &mut ToolSet, app: &SampleApp) {
    let schema = object_schema(
        json!({
            "selector": selector_property("show only the subtrees of the matching elements"),
            "window": { "type": "string", "description": "window id (`main`, `about`); default: every window" },
            "view": { "type": "string", "enum": ["summary", "full"], "default": "summary", "description": "summary: id, type, name, text and non-default states of visible elements; full: every property of every element, hidden ones included" },
            "includeReactorSource": { "type": "boolean", "default": false, "description": "add `source`: the file whose view code builds each element" },
        }),
        &[],
    );
    let description = format!("The element tree of the app's windows. {SELECTOR_HELP}");
    let spec = ToolSpec::new("tree", description, schema, ToolHints::READ_ONLY);
    register_sync(tools, app, spec, |app, args: TreeArgs, _| {
        let tree = app.tree();
        let roots = tree_roots(&tree, &args)?;
        let nodes: Vec<Value> = roots
            .into_iter()
            .map(|id| node_json(&tree, id, &args))
            .collect();
        Ok(ToolOutput::Json(
            json!({ "view": if args.view == View::Full { "full" } else { "summary" }, "nodes": nodes }),
        ))
    });
}

fn tree_roots(tree: &Tree, args: &TreeArgs) -> Result<Vec<NodeId>, String> {
    match (&args.selector, &args.window) {
        (Some(selector), window) => {
            find_some(tree, selector, window.as_deref(), Purpose::Read).map_err(|err| err.message)
        }
        (None, Some(window)) => Ok(vec![window_node(tree, window).map_err(|err| err.message)?]),
        (None, None) => Ok(tree.windows().collect()),
    }
}

fn node_json(tree: &Tree, id: NodeId, args: &TreeArgs) -> Value {
    let element = tree.element(id);
    let mut map: Map<String, Value> = match args.view {
        View::Full => element.full_json(),
        View::Summary => element.summary_json(),
    };
    if args.include_reactor_source {
        map.insert("source".into(), json!(element.source));
    }
    let children: Vec<Value> = tree
        .node(id)
        .children
        .iter()
        .filter(|&&child| args.view == View::Full || tree.element(child).visible)
        .map(|&child| node_json(tree, child, args))
        .collect();
    if !children.is_empty() {
        map.insert("children".into(), Value::Array(children));
    }
    Value::Object(map)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StateArgs {
    selector: Option<String>,
}

fn register_state(tools: &mut ToolSet, app: &SampleApp) {
    let schema = object_schema(
        json!({ "selector": selector_property("report this element's properties instead of the app state") }),
        &[],
    );
    let description = format!(
        "Without a selector: the app state (active component, count, todos, settings). With one: every property of the first matching element, its window and how many elements matched. {SELECTOR_HELP}"
    );
    let spec = ToolSpec::new("state", description, schema, ToolHints::READ_ONLY);
    register_sync(tools, app, spec, |app, args: StateArgs, _| {
        let Some(selector) = args.selector else {
            return Ok(ToolOutput::Json(app.lock().to_json()));
        };
        let tree = app.tree();
        let matches = find_some(&tree, &selector, None, Purpose::Read)?;
        let id = matches[0];
        let mut map = tree.element(id).full_json();
        map.insert("window".into(), json!(tree.element(tree.window_of(id)).id));
        map.insert("matchCount".into(), json!(matches.len()));
        Ok(ToolOutput::Json(Value::Object(map)))
    });
}
