//! `overview`: what a window shows, in words and as a screenshot, in one result.

use serde::Deserialize;
use serde_json::json;

use mur_server::{Content, ToolHints, ToolOutput, ToolSet, ToolSpec};

use super::registration::{object_schema, register_sync};
use crate::app::{SampleApp, window_node};
use crate::render;
use crate::state::AppState;
use crate::view;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OverviewArgs {
    window: Option<String>,
}

pub fn register_tool(tools: &mut ToolSet, app: &SampleApp) {
    let schema = object_schema(
        json!({ "window": { "type": "string", "description": "window id (`main`, `about`); default `main`" } }),
        &[],
    );
    let description = "Describe a window in a few sentences and show it: the result is a text block \
followed by a PNG screenshot of the same window.";
    let spec = ToolSpec::new("overview", description, schema, ToolHints::READ_ONLY);
    register_sync(tools, app, spec, |app, args: OverviewArgs, _| {
        let state = app.lock();
        let tree = view::build(&state);
        let name = args.window.as_deref().unwrap_or("main");
        let window = window_node(&tree, name)?;
        let shot = render::screenshot(&tree, &state, window, None, false)?;
        let text = describe(name, &state);
        Ok(ToolOutput::Content {
            blocks: vec![Content::text(text), Content::png(shot.png)],
            structured: Some(json!({
                "window": name,
                "active": state.active.name(),
                "width": shot.width,
                "height": shot.height,
            })),
        })
    });
}

/// A few sentences on what `window` shows.
fn describe(window: &str, state: &AppState) -> String {
    if window != "main" {
        return format!("The `{window}` window shows information about the app.");
    }
    let done = state.todos.iter().filter(|todo| todo.done).count();
    format!(
        "The main window shows the {} component. The counter is at {}. The todo list has {} item(s), {} done{}. \
Dark mode is {}.",
        state.active.title(),
        state.count,
        state.todos.len(),
        done,
        if state.pending_todos > 0 {
            format!(", and {} more being added", state.pending_todos)
        } else {
            String::new()
        },
        if state.dark_mode { "on" } else { "off" }
    )
}
