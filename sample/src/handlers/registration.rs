//! What the sample's tools share: registration (arguments parsed with clear messages,
//! each outcome logged) and the JSON Schema pieces their specs are built from.

use std::future::Future;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use mur_server::{SessionControl, ToolError, ToolResult, ToolSet, ToolSpec};

use crate::app::SampleApp;

/// How selectors are written; repeated in every tool description that takes one.
pub(super) const SELECTOR_HELP: &str = "Selectors: `#id`; a type name, case-insensitive (`Button`, `ListItem`, `*` for any); \
`[attr=\"v\"]` (`*=` for contains; attrs: id, type, name, text, value, visible, enabled, focused, checked, selected, expanded); \
descendant (space) and child (`>`) combinators; `:nth(n)` keeps the n-th match, 0-based; `:text(\"…\")` text contains, ignoring case. \
Tools acting on one element use the first match in document order.";

/// Register a tool whose arguments deserialize into `A`; bad arguments never reach the handler.
pub(super) fn register<A, F, Fut>(tools: &mut ToolSet, app: &SampleApp, spec: ToolSpec, handler: F)
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
pub(super) fn register_sync<A, F>(tools: &mut ToolSet, app: &SampleApp, spec: ToolSpec, handler: F)
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
pub(super) fn object_schema(properties: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false })
}

pub(super) fn selector_property(what: &str) -> Value {
    json!({ "type": "string", "minLength": 1, "description": what })
}

/// Arguments of tools that take nothing.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NoArgs {}

/// Arguments of tools that take only `{selector}`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SelectorArgs {
    pub selector: String,
}
