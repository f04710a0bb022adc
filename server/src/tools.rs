//! The registration API: how an app exposes its own tools to devtools clients.
//!
//! An app builds a [`ToolSet`] — each tool a [`ToolSpec`] (name, description,
//! JSON Schema for its arguments, behaviour hints) plus an async handler — and
//! hands it to the server. Handlers return JSON or a PNG image; the server
//! turns that into an MCP `CallToolResult` (structured content plus the same
//! JSON as text, or an image block with width/height metadata).

use std::{future::Future, pin::Pin, sync::Arc};

use serde_json::Value;

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
}

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
        }
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

/// A successful tool result.
#[derive(Debug, Clone)]
pub enum ToolOutput {
    /// Sent as `structuredContent` and as the same JSON in a text block.
    Json(Value),
    /// Sent as an MCP image block (`image/png`); `details` (which should
    /// include `width` and `height`) goes to `structuredContent` and a text block.
    Image {
        png: Vec<u8>,
        width: u32,
        height: u32,
        details: Value,
    },
}

/// A tool failure a person can act on; sent as a result with `isError: true`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    pub message: String,
}

impl ToolError {
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

impl From<String> for ToolError {
    fn from(message: String) -> Self {
        Self { message }
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> Self {
        Self {
            message: message.to_owned(),
        }
    }
}

pub type ToolResult = Result<ToolOutput, ToolError>;
pub type ToolFuture = Pin<Box<dyn Future<Output = ToolResult> + Send>>;
type Handler = Arc<dyn Fn(Value, SessionControl) -> ToolFuture + Send + Sync>;

/// Lets a tool act on the session itself (today: ask for a reload).
#[derive(Clone, Debug, Default)]
pub struct SessionControl {
    reload: Arc<std::sync::atomic::AtomicBool>,
    // Wakes the server loop; `notify_one` keeps a permit, so a request made
    // before anyone waits is not lost.
    reload_signal: Arc<tokio::sync::Notify>,
}

impl SessionControl {
    /// Ask the server to restart the app once the current response is sent:
    /// the lockfile is removed, the same executable is started again with the
    /// same arguments, and this process exits.
    pub fn request_reload(&self) {
        self.reload.store(true, std::sync::atomic::Ordering::SeqCst);
        self.reload_signal.notify_one();
    }

    /// Resolves once [`request_reload`](Self::request_reload) has been called.
    pub async fn reload_wanted(&self) {
        if !self.reload_requested() {
            self.reload_signal.notified().await;
        }
    }

    /// Whether a reload was asked for.
    pub fn reload_requested(&self) -> bool {
        self.reload.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// The tools an app exposes.
#[derive(Clone, Default)]
pub struct ToolSet {
    tools: Vec<(ToolSpec, Handler)>,
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

    pub fn specs(&self) -> impl Iterator<Item = &ToolSpec> {
        self.tools.iter().map(|(spec, _)| spec)
    }

    /// The spec of the tool called `name`, if registered.
    pub fn spec(&self, name: &str) -> Option<&ToolSpec> {
        self.specs().find(|spec| spec.name == name)
    }

    /// Run a tool by name; `None` when no such tool is registered.
    pub fn call(&self, name: &str, args: Value, control: SessionControl) -> Option<ToolFuture> {
        self.tools
            .iter()
            .find(|(spec, _)| spec.name == name)
            .map(|(_, handler)| handler(args, control))
    }
}
