//! The registration API: how an app exposes its own tools to devtools clients.
//!
//! An app builds a [`ToolSet`] — each tool a [`ToolSpec`] (name, description,
//! JSON Schema for its arguments, behaviour hints) plus an async handler — and
//! hands it to the server. Handlers return JSON, a PNG image, any mix of text,
//! image, audio and embedded-resource blocks, or a request for input (see
//! [`Asked`]); the server turns that into an MCP `CallToolResult`.
//!
//! While it runs, a handler talks to the client through its [`SessionControl`]:
//! progress notifications, log messages, and questions.
//!
//! The same set carries the app's resources ([`ResourceSpec`],
//! [`ResourceTemplateSpec`]) and prompts ([`PromptSpec`]); the server declares
//! exactly the capabilities that have something registered.

use std::{future::Future, pin::Pin, sync::Arc};

use serde_json::Value;

pub use crate::call::{LogLevel, SessionControl};
use crate::catalog::{Catalog, PromptHandler, ResourceHandler};
pub use crate::catalog::{
    PromptArgument, PromptFuture, PromptMessage, PromptOutput, PromptRole, PromptSpec,
    ResourceFuture, ResourceInfo, ResourceSpec, ResourceTemplateSpec,
};
pub use crate::output::{
    Asked, Content, InputRequired, Question, ResourceContents, ToolError, ToolOutput, ToolResult,
};

/// Behaviour hints published as MCP tool annotations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToolHints {
    /// The tool does not change the app.
    pub read_only: bool,
    /// The tool may discard or overwrite something the user cares about.
    pub destructive: bool,
    /// Calling it twice with the same arguments has no further effect.
    pub idempotent: bool,
}

impl ToolHints {
    /// A tool that only reads.
    pub const READ_ONLY: Self = Self {
        read_only: true,
        destructive: false,
        idempotent: true,
    };
    /// A tool that changes the app without destroying anything.
    pub const ACTION: Self = Self {
        read_only: false,
        destructive: false,
        idempotent: false,
    };
}

/// What a client sees of a tool in `tools/list`.
#[derive(Debug, Clone)]
pub struct ToolSpec {
    pub name: String,
    /// Human-readable title; `None` derives one from the name (`switchComponent` → "Switch component").
    pub title: Option<String>,
    pub description: String,
    /// JSON Schema (`{"type":"object",...}`) of the tool's `arguments`.
    pub input_schema: Value,
    pub hints: ToolHints,
    /// Whether a call may outlive its request as a task (SEP-2663).
    pub tasks: TaskSupport,
}

/// Whether a tool's calls may run as tasks (the `io.modelcontextprotocol/tasks`
/// extension): a call that is still running [`TASK_AFTER`](crate::tools::TASK_AFTER)
/// after it began is handed a task id and goes on after its request has been
/// answered, for a client that declared the extension. The handler is the same
/// either way; its questions are asked through the task.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TaskSupport {
    /// Every call is answered within its request (the default).
    #[default]
    Never,
    /// A slow call becomes a task when the client can follow one; else it
    /// runs within its request.
    Optional,
    /// The tool can only be served to a client that can follow a task: any
    /// other is refused with -32021 before the handler runs. A quick call is
    /// still answered within its request.
    Required,
}

/// How long a task-supporting call runs within its request before it becomes
/// a task: long enough that a quick call costs the client no polling, short
/// enough that a client is not left waiting on an open request.
pub const TASK_AFTER: std::time::Duration = std::time::Duration::from_millis(200);

impl ToolSpec {
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
        hints: ToolHints,
    ) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: description.into(),
            input_schema,
            hints,
            tasks: TaskSupport::Never,
        }
    }

    /// Let calls of this tool run as tasks (see [`TaskSupport`]).
    pub fn with_tasks(mut self, tasks: TaskSupport) -> Self {
        self.tasks = tasks;
        self
    }

    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The title clients show: the explicit one, else the name split into words.
    pub fn display_title(&self) -> String {
        self.title
            .clone()
            .unwrap_or_else(|| title_from_name(&self.name))
    }
}

/// `switchComponent` → "Switch component", `wait_for` → "Wait for".
fn title_from_name(name: &str) -> String {
    let mut title = String::with_capacity(name.len() + 4);
    for ch in name.chars() {
        if ch == '_' || ch == '-' {
            title.push(' ');
        } else if ch.is_uppercase() && !title.is_empty() {
            title.push(' ');
            title.extend(ch.to_lowercase());
        } else if title.is_empty() {
            title.extend(ch.to_uppercase());
        } else {
            title.push(ch);
        }
    }
    title
}

pub type ToolFuture = Pin<Box<dyn Future<Output = ToolResult> + Send>>;
type Handler = Arc<dyn Fn(Value, SessionControl) -> ToolFuture + Send + Sync>;

/// What an app exposes: tools, resources (static and templates) and prompts.
#[derive(Clone, Default)]
pub struct ToolSet {
    tools: Vec<(ToolSpec, Handler)>,
    pub(crate) catalog: Catalog,
}

impl ToolSet {
    pub fn new() -> Self {
        Self::default()
    }

    /// Register a tool. A later tool with the same name replaces an earlier one.
    pub fn add<F, Fut>(&mut self, spec: ToolSpec, handler: F) -> &mut Self
    where
        F: Fn(Value, SessionControl) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ToolResult> + Send + 'static,
    {
        self.tools
            .retain(|(existing, _)| existing.name != spec.name);
        let handler: Handler = Arc::new(move |args, control| Box::pin(handler(args, control)));
        self.tools.push((spec, handler));
        self
    }

    /// Register a resource at a fixed URI; `read` returns its contents.
    /// A later resource with the same URI replaces an earlier one.
    pub fn add_resource<F, Fut>(&mut self, spec: ResourceSpec, read: F) -> &mut Self
    where
        F: Fn(String, SessionControl) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<ResourceContents>, ToolError>> + Send + 'static,
    {
        let read: ResourceHandler =
            Arc::new(move |uri, _vars, control| Box::pin(read(uri, control)));
        self.catalog.add_resource(spec, read);
        self
    }

    /// Register a resource template (RFC 6570 level 1: `test://items/{id}`, each
    /// `{name}` one path segment). `read` gets the URI and the values of its variables.
    pub fn add_resource_template<F, Fut>(
        &mut self,
        spec: ResourceTemplateSpec,
        read: F,
    ) -> &mut Self
    where
        F: Fn(String, std::collections::BTreeMap<String, String>, SessionControl) -> Fut
            + Send
            + Sync
            + 'static,
        Fut: Future<Output = Result<Vec<ResourceContents>, ToolError>> + Send + 'static,
    {
        let read: ResourceHandler =
            Arc::new(move |uri, vars, control| Box::pin(read(uri, vars, control)));
        self.catalog.add_template(spec, read);
        self
    }

    /// Register a prompt. `get` receives the arguments (checked against the
    /// spec: required ones present, all strings). A later prompt with the same
    /// name replaces an earlier one.
    pub fn add_prompt<F, Fut>(&mut self, spec: PromptSpec, get: F) -> &mut Self
    where
        F: Fn(std::collections::BTreeMap<String, String>, SessionControl) -> Fut
            + Send
            + Sync
            + 'static,
        Fut: Future<Output = Result<PromptOutput, ToolError>> + Send + 'static,
    {
        let get: PromptHandler = Arc::new(move |args, control| Box::pin(get(args, control)));
        self.catalog.add_prompt(spec, get);
        self
    }

    pub fn specs(&self) -> impl Iterator<Item = &ToolSpec> {
        self.tools.iter().map(|(spec, _)| spec)
    }

    /// The spec of the tool called `name`, if registered.
    pub fn spec(&self, name: &str) -> Option<&ToolSpec> {
        self.specs().find(|spec| spec.name == name)
    }

    /// The registered resources, in registration order.
    pub fn resources(&self) -> impl Iterator<Item = &ResourceSpec> {
        self.catalog.resources()
    }

    /// The registered resource templates, in registration order.
    pub fn resource_templates(&self) -> impl Iterator<Item = &ResourceTemplateSpec> {
        self.catalog.templates()
    }

    /// The registered prompts, in registration order.
    pub fn prompts(&self) -> impl Iterator<Item = &PromptSpec> {
        self.catalog.prompts()
    }

    /// Run a tool by name; `None` when no such tool is registered.
    pub fn call(&self, name: &str, args: Value, control: SessionControl) -> Option<ToolFuture> {
        self.tools
            .iter()
            .find(|(spec, _)| spec.name == name)
            .map(|(_, handler)| handler(args, control))
    }

    /// Read a resource by URI (a static one, else the first matching template);
    /// `None` when nothing registered serves that URI.
    pub fn read_resource(&self, uri: &str, control: SessionControl) -> Option<ResourceFuture> {
        self.catalog.read(uri, control)
    }

    /// Get a prompt by name with its arguments; `None` when no such prompt is
    /// registered, `Some(Err)` when the arguments do not fit its spec.
    pub fn get_prompt(
        &self,
        name: &str,
        args: std::collections::BTreeMap<String, String>,
        control: SessionControl,
    ) -> Option<Result<PromptFuture, ToolError>> {
        self.catalog.get_prompt(name, args, control)
    }
}
