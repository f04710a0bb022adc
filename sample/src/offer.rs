//! What the sample offers besides tools: its log and its todos as resources, and a
//! prompt that walks an agent through one component of the UI.

use std::collections::BTreeMap;

use serde_json::json;

use mur_server::{
    Content, PromptArgument, PromptMessage, PromptOutput, PromptSpec, ResourceContents,
    ResourceSpec, ResourceTemplateSpec, ToolError, ToolSet,
};

use crate::app::SampleApp;
use crate::element::Kind;
use crate::state::Component;
use crate::view;

/// The app's log: one line per tool call.
pub const LOG_URI: &str = "app://log";
/// One todo by id.
pub const TODO_TEMPLATE: &str = "app://todos/{id}";

pub fn register(tools: &mut ToolSet, app: &SampleApp) {
    let log_app = app.clone();
    tools.add_resource(
        ResourceSpec::new(
            LOG_URI,
            "log",
            "The app's log: one line per tool call (`<tool>: ok` or `<tool>: failed: <why>`), oldest first, the last 500",
            "text/plain",
        )
        .with_title("App log"),
        move |uri, _| {
            let lines = log_app.log_lines();
            async move { Ok(vec![ResourceContents::text(uri, "text/plain", lines.join("\n"))]) }
        },
    );
    let todo_app = app.clone();
    tools.add_resource_template(
        ResourceTemplateSpec::new(
            TODO_TEMPLATE,
            "todo",
            "One todo as JSON: `id`, `text`, `done` (ids as `tree` shows them, `todo-<id>`)",
            "application/json",
        ),
        move |uri, vars, _| {
            let todo = read_todo(&todo_app, &vars);
            async move {
                let todo = todo?;
                Ok(vec![ResourceContents::text(
                    uri,
                    "application/json",
                    todo.to_string(),
                )])
            }
        },
    );
    let prompt_app = app.clone();
    tools.add_prompt(
        PromptSpec::new(
            "walkthrough",
            "Walk through one component of the sample app's UI with the devtools tools",
        )
        .with_title("UI walkthrough")
        .with_argument(PromptArgument::optional(
            "component",
            "counter, todo or settings (default: the one shown now)",
        )),
        move |args, _| {
            let messages = walkthrough(&prompt_app, &args);
            async move { messages }
        },
    );
}

fn read_todo(
    app: &SampleApp,
    vars: &BTreeMap<String, String>,
) -> Result<serde_json::Value, ToolError> {
    let raw = vars.get("id").map_or("", String::as_str);
    let id: u64 = raw.parse().map_err(|_| {
        ToolError::invalid(format!(
            "`{raw}` is not a todo id (a number, e.g. app://todos/1)"
        ))
    })?;
    let state = app.lock();
    let todo = state
        .todos
        .iter()
        .find(|todo| todo.id == id)
        .ok_or_else(|| {
            ToolError::invalid(format!(
                "no todo {id}; the list has {} todo(s)",
                state.todos.len()
            ))
        })?;
    Ok(json!({ "id": todo.id, "text": todo.text, "done": todo.done }))
}

fn walkthrough(
    app: &SampleApp,
    args: &BTreeMap<String, String>,
) -> Result<PromptOutput, ToolError> {
    let state = app.lock();
    let component = match args.get("component") {
        Some(name) => Component::named(name).map_err(ToolError::invalid)?,
        None => state.active,
    };
    let tree = view::build(&state);
    let mut controls = Vec::new();
    if let Some(panel) = tree.find_id(component.name()) {
        for id in tree.subtree(panel) {
            let element = tree.element(id);
            let interactive = matches!(
                element.kind,
                Kind::Button
                    | Kind::TextBox
                    | Kind::Toggle
                    | Kind::CheckBox
                    | Kind::List
                    | Kind::Expander
            );
            if interactive && !element.id.is_empty() {
                controls.push(format!(
                    "- `#{}` ({:?}, \"{}\")",
                    element.id, element.kind, element.name
                ));
            }
        }
    }
    let text = format!(
        "Walk me through the {title} component of the sample app, one step at a time.\n\
1. If it is not shown, show it: `switchComponent` with `{{\"component\": \"{name}\"}}`.\n\
2. Look at it: `overview` (text and a screenshot), then `tree` with `{{\"selector\": \"#{name}\"}}`.\n\
3. Try each control below with the tool that fits it (`click`, `type`, `toggle`, `select`, `expand`), \
and after each one check the effect with `state` on the element it should change.\n\
4. Finish with `overview` again and say what changed.\n\n\
Controls:\n{controls}",
        title = component.title(),
        name = component.name(),
        controls = if controls.is_empty() {
            "(none)".to_owned()
        } else {
            controls.join("\n")
        },
    );
    Ok(PromptOutput::Messages {
        description: Some(format!(
            "A walkthrough of the {} component",
            component.title()
        )),
        messages: vec![PromptMessage::user(Content::text(text))],
    })
}
