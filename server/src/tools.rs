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

use crate::call::CallContext;
pub use crate::call::{Asked, InputRequired, LogLevel, Question};
use crate::catalog::{Catalog, PromptHandler, ResourceHandler};
pub use crate::catalog::{
    PromptArgument, PromptFuture, PromptMessage, PromptOutput, PromptRole, PromptSpec,
    ResourceFuture, ResourceInfo, ResourceSpec, ResourceTemplateSpec,
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

/// One block of a tool result or a prompt message.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    Text(String),
    /// Raw bytes (sent base64-encoded) and their MIME type, e.g. `image/png`.
    Image {
        data: Vec<u8>,
        mime_type: String,
    },
    /// Raw bytes (sent base64-encoded) and their MIME type, e.g. `audio/wav`.
    Audio {
        data: Vec<u8>,
        mime_type: String,
    },
    /// An embedded resource: its contents travel inside the result.
    Resource(ResourceContents),
}

impl Content {
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(text.into())
    }

    pub fn png(data: Vec<u8>) -> Self {
        Self::Image {
            data,
            mime_type: "image/png".into(),
        }
    }
}

/// The contents of a resource: text, or bytes (sent base64-encoded as `blob`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceContents {
    Text {
        uri: String,
        mime_type: Option<String>,
        text: String,
    },
    Blob {
        uri: String,
        mime_type: Option<String>,
        data: Vec<u8>,
    },
}

impl ResourceContents {
    pub fn text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        Self::Text {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            text: text.into(),
        }
    }

    pub fn blob(uri: impl Into<String>, mime_type: impl Into<String>, data: Vec<u8>) -> Self {
        Self::Blob {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            data,
        }
    }

    pub fn uri(&self) -> &str {
        match self {
            Self::Text { uri, .. } | Self::Blob { uri, .. } => uri,
        }
    }
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
    /// Any mix of blocks, in order; `structured` (an object) also goes to
    /// `structuredContent`.
    Content {
        blocks: Vec<Content>,
        structured: Option<Value>,
    },
    /// The tool needs answers from the client first (2026-07-28: an
    /// `InputRequiredResult`; the client calls again with the answers).
    /// Built by [`SessionControl::ask`] or by hand for several questions.
    InputRequired(InputRequired),
}

impl ToolOutput {
    /// A result of these blocks and no structured content.
    pub fn blocks(blocks: impl IntoIterator<Item = Content>) -> Self {
        Self::Content {
            blocks: blocks.into_iter().collect(),
            structured: None,
        }
    }
}

/// A failure a person can act on. From a tool it is a result with
/// `isError: true`; from a prompt or resource handler, a JSON-RPC error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    pub message: String,
    kind: ErrorKind,
}

/// What kind of failure a [`ToolError`] is, which decides how it is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ErrorKind {
    /// The work failed (tool: `isError`; prompt/resource: -32603).
    Failed,
    /// The caller's input is wrong (tool: `isError`; prompt/resource: -32602).
    Invalid,
    /// The call needs a client capability the client did not declare
    /// (JSON-RPC -32021 with `data.requiredCapabilities`, e.g. `{"sampling":{}}`).
    MissingCapability(String),
}

impl ToolError {
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            kind: ErrorKind::Failed,
        }
    }

    /// Bad input from the caller: a JSON-RPC -32602 from prompts and resources.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            kind: ErrorKind::Invalid,
        }
    }

    /// The call needs the client capability `capability` (`"sampling"`,
    /// `"elicitation"`, `"roots"`), which the client did not declare: a
    /// JSON-RPC -32021 (MissingRequiredClientCapability), whatever the handler kind.
    pub fn missing_capability(capability: impl Into<String>) -> Self {
        let capability = capability.into();
        Self {
            message: format!(
                "this call needs the client capability `{capability}`, which the client did not declare"
            ),
            kind: ErrorKind::MissingCapability(capability),
        }
    }

    pub(crate) fn kind(&self) -> &ErrorKind {
        &self.kind
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
        Self::new(message)
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> Self {
        Self::new(message)
    }
}

pub type ToolResult = Result<ToolOutput, ToolError>;
pub type ToolFuture = Pin<Box<dyn Future<Output = ToolResult> + Send>>;
type Handler = Arc<dyn Fn(Value, SessionControl) -> ToolFuture + Send + Sync>;

/// Lets a handler act on the session (ask for a reload) and, while it runs,
/// talk to the client that called it: [`progress`](Self::progress),
/// [`log`](Self::log), and questions ([`ask`](Self::ask),
/// [`answer`](Self::answer), [`state`](Self::state)).
///
/// `SessionControl::default()` is one with no client attached (a unit test):
/// progress and logs go nowhere and questions cannot be asked.
#[derive(Clone, Debug, Default)]
pub struct SessionControl {
    reload: Arc<std::sync::atomic::AtomicBool>,
    // Wakes the server loop; `notify_one` keeps a permit, so a request made
    // before anyone waits is not lost.
    reload_signal: Arc<tokio::sync::Notify>,
    /// The call in progress; `None` for the session-wide handle.
    pub(crate) call: Option<Arc<CallContext>>,
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

    /// The same session handle for one call.
    pub(crate) fn for_call(&self, call: CallContext) -> Self {
        Self {
            reload: self.reload.clone(),
            reload_signal: self.reload_signal.clone(),
            call: Some(Arc::new(call)),
        }
    }
}

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
