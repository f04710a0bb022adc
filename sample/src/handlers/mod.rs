//! Registers the 19 devtools tools of the sample app and the plumbing they share:
//! argument parsing with clear messages, and JSON Schema helpers.

mod inspect;
mod interact;
mod overview;
mod screenshot;
mod session;
mod todos;
mod wait;

use std::future::Future;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use mur_server::{SessionControl, ToolError, ToolResult, ToolSet, ToolSpec};

use super::app::SampleApp;

/// How selectors are written; repeated in every tool description that takes one.
pub const SELECTOR_HELP: &str = "Selectors: `#id`; a type name, case-insensitive (`Button`, `ListItem`, `*` for any); \
`[attr=\"v\"]` (`*=` for contains; attrs: id, type, name, text, value, visible, enabled, focused, checked, selected, expanded); \
descendant (space) and child (`>`) combinators; `:nth(n)` keeps the n-th match, 0-based; `:text(\"…\")` text contains, ignoring case. \
Tools acting on one element use the first match in document order.";

/// Every tool of the sample app, bound to `app`.
pub fn register_all(tools: &mut ToolSet, app: &SampleApp) {
    inspect::register(tools, app);
    screenshot::register_tool(tools, app);
    interact::register(tools, app);
    wait::register_tool(tools, app);
    session::register(tools, app);
    todos::register_tools(tools, app);
    overview::register_tool(tools, app);
}

/// Register a tool whose arguments deserialize into `A`; bad arguments never reach the handler.
fn register<A, F, Fut>(tools: &mut ToolSet, app: &SampleApp, spec: ToolSpec, handler: F)
where
    A: DeserializeOwned + Send + 'static,
    F: Fn(SampleApp, A, SessionControl) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ToolResult> + Send + 'static,
{
    let app = app.clone();
    let name = spec.name.clone();
    tools.add(spec, move |args, control| {
        let call = parse_args::<A>(&name, args).map(|args| handler(app.clone(), args, control));
        let (app, name) = (app.clone(), name.clone());
        async move {
            let result = match call {
                Ok(running) => running.await,
                Err(error) => Err(error),
            };
            match &result {
                Ok(mur_server::ToolOutput::InputRequired(_)) => {
                    app.log(format!("{name}: waiting for an answer"))
                }
                Ok(_) => app.log(format!("{name}: ok")),
                Err(error) => app.log(format!("{name}: failed: {}", error.message)),
            }
            result
        }
    });
}

/// Register a tool that answers without waiting.
fn register_sync<A, F>(tools: &mut ToolSet, app: &SampleApp, spec: ToolSpec, handler: F)
where
    A: DeserializeOwned + Send + 'static,
    F: Fn(&SampleApp, A, &SessionControl) -> ToolResult + Send + Sync + 'static,
{
    let handler = std::sync::Arc::new(handler);
    register(tools, app, spec, move |app, args: A, control| {
        let handler = handler.clone();
        async move { handler(&app, args, &control) }
    });
}

fn parse_args<A: DeserializeOwned>(tool: &str, args: Value) -> Result<A, ToolError> {
    // A client that sends no `arguments` at all means "no arguments".
    let args = if args.is_null() {
        Value::Object(Map::new())
    } else {
        args
    };
    serde_json::from_value(args)
        .map_err(|err| ToolError::new(format!("bad arguments for `{tool}`: {err}")))
}

/// An object schema that allows exactly `properties` and requires `required`.
fn object_schema(properties: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false })
}

fn selector_property(what: &str) -> Value {
    json!({ "type": "string", "minLength": 1, "description": what })
}

/// Arguments of tools that take nothing.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

/// Arguments of tools that take only `{selector}`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SelectorArgs {
    selector: String,
}
