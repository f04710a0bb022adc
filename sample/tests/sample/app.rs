//! Drives a fresh sample app through its registered tools, exactly as the server would.

use mur_server::{SessionControl, ToolOutput, ToolSet, ToolSpec};
use serde_json::Value;

/// One sample app with its own state, and a runtime to run its handlers on.
pub struct App {
    tools: ToolSet,
    runtime: tokio::runtime::Runtime,
    pub control: SessionControl,
}

impl App {
    pub fn new() -> Self {
        // Worker threads let background work (a todo being added) run between calls.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("tokio runtime");
        Self {
            tools: mur_sample::tool_set(),
            runtime,
            control: SessionControl::default(),
        }
    }

    /// A fresh app switched to `component` (`todo`, `settings`, …), as a person would
    /// open that page before using it.
    pub fn showing(component: &str) -> Self {
        let app = Self::new();
        app.ok(
            "switchComponent",
            serde_json::json!({ "component": component }),
        );
        app
    }

    pub fn tools(&self) -> &ToolSet {
        &self.tools
    }

    /// The published spec of tool `name`, which must exist.
    pub fn spec(&self, name: &str) -> &ToolSpec {
        self.tools
            .specs()
            .find(|spec| spec.name == name)
            .unwrap_or_else(|| panic!("no tool `{name}`"))
    }

    pub fn call(&self, tool: &str, args: Value) -> Result<ToolOutput, String> {
        let running = self
            .tools
            .call(tool, args, self.control.clone())
            .unwrap_or_else(|| panic!("no tool `{tool}`"));
        self.runtime.block_on(running).map_err(|err| err.message)
    }

    /// The JSON result of a call that must succeed.
    pub fn ok(&self, tool: &str, args: Value) -> Value {
        match self.call(tool, args.clone()) {
            Ok(ToolOutput::Json(value)) => value,
            Ok(ToolOutput::Image { details, .. }) => details,
            Ok(ToolOutput::Content { structured, .. }) => structured.unwrap_or(Value::Null),
            Ok(ToolOutput::InputRequired(input)) => panic!("`{tool}` {args} asked: {input:?}"),
            Err(message) => panic!("`{tool}` {args} failed: {message}"),
        }
    }

    /// The message of a call that must fail.
    pub fn err(&self, tool: &str, args: Value) -> String {
        match self.call(tool, args.clone()) {
            Ok(_) => panic!("`{tool}` {args} succeeded but should have failed"),
            Err(message) => message,
        }
    }

    /// Adds each of `texts` as a todo through the `todo.add` event, in order: `#todo-1`,
    /// `#todo-2`, … in a fresh app.
    pub fn add_todos(&self, texts: &[&str]) {
        for text in texts {
            self.ok(
                "fire",
                serde_json::json!({ "target": "todo.add", "args": { "text": text } }),
            );
        }
    }

    /// A property of the first element matching `selector`.
    pub fn prop(&self, selector: &str, property: &str) -> Value {
        self.ok("state", serde_json::json!({ "selector": selector }))[property].clone()
    }

    pub fn app_state(&self) -> Value {
        self.ok("state", serde_json::json!({}))
    }
}
