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

use std::panic::AssertUnwindSafe;
use std::{future::Future, pin::Pin, sync::Arc};

use futures_util::FutureExt as _;

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
    /// What `tools/call` names (see [`ToolSpec::new`] for the names clients accept).
    pub name: String,
    /// Human-readable title; `None` derives one from the name (`switchComponent` → "Switch component").
    pub title: Option<String>,
    /// What the tool does, for the person or model choosing a tool.
    pub description: String,
    /// JSON Schema (`{"type":"object",...}`) of the tool's `arguments`:
    /// published, not enforced (see [`ToolSpec::new`]).
    pub input_schema: Value,
    /// Behaviour hints, published as the tool's `annotations`.
    pub hints: ToolHints,
    /// Whether a call may outlive its request as a task (SEP-2663).
    pub tasks: TaskSupport,
}

/// Whether a tool's calls may run as tasks (the `io.modelcontextprotocol/tasks`
/// extension): a call that is still running [`TASK_AFTER`]
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
    /// A tool called `name` (what `tools/call` names; the standard verbs call
    /// fixed names, see docs/server.md), described to clients by
    /// `description`, taking arguments of `input_schema`, with no explicit
    /// title and no task support.
    ///
    /// `name` should follow MCP's tool-name guidance (2025-11-25): 1 to 128
    /// characters, only `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`. Another name is
    /// still served, since the guidance is a recommendation, but some clients
    /// refuse or rename such a tool, so the session logs a warning for it when
    /// it starts.
    ///
    /// `input_schema` is a JSON Schema of an object (`{"type": "object",
    /// "properties": {…}, "required": […]}`), or `Value::Null` for "any
    /// arguments"; an object without `type` is served with `"type": "object"`,
    /// and [`ToolSet::add`] panics on a schema of another type. It is published
    /// in `tools/list`, not enforced: the handler gets whatever `arguments` the
    /// client sent (an empty object when it sent none) and checks them itself.
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

    /// The same spec with this human-readable title, in place of the one
    /// derived from the name.
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

/// `schema` as the object schema a tool is served with (see [`ToolSet::add`]);
/// panics, naming the tool, on a schema that is not one.
#[track_caller]
fn object_schema(tool: &str, schema: Value) -> Value {
    let mut object = match schema {
        Value::Null => serde_json::Map::new(),
        Value::Object(object) => object,
        other => panic!(
            "tool `{tool}`: its input schema is a JSON {}, not an object schema; MCP requires \
             one (`{{\"type\": \"object\", \"properties\": {{…}}}}`, or `Value::Null` for any arguments)",
            json_kind(&other)
        ),
    };
    match object.get("type") {
        None => {
            object.insert("type".to_owned(), Value::from("object"));
        }
        Some(Value::String(kind)) if kind == "object" => {}
        Some(other) => panic!(
            "tool `{tool}`: its input schema has `\"type\": {other}`; a tool's arguments are \
             an object, so MCP requires `\"type\": \"object\"`"
        ),
    }
    Value::Object(object)
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Why `name` is outside MCP's tool-name guidance (2025-11-25, "Tool Names":
/// 1 to 128 characters, only ASCII letters, digits, `_`, `-` and `.`), if it is.
pub(crate) fn tool_name_problem(name: &str) -> Option<String> {
    let length = name.chars().count();
    if length == 0 {
        return Some("is empty".to_owned());
    }
    if length > 128 {
        return Some(format!("is {length} characters long (at most 128)"));
    }
    let mut outside: Vec<char> = Vec::new();
    for c in name.chars() {
        let allowed = c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
        if !allowed && !outside.contains(&c) {
            outside.push(c);
        }
    }
    if outside.is_empty() {
        return None;
    }
    let listed: Vec<String> = outside.iter().map(|c| format!("{c:?}")).collect();
    Some(format!(
        "contains {} (only A-Z, a-z, 0-9, `_`, `-` and `.`)",
        listed.join(", ")
    ))
}

/// A warning on the log for each tool whose name is outside MCP's guidance:
/// such a tool is still served (the guidance is a SHOULD), but some clients
/// refuse or rename it. Logged when the session starts, after `run` has
/// installed its log subscriber.
pub(crate) fn warn_about_tool_names(tools: &ToolSet) {
    for spec in tools.specs() {
        if let Some(problem) = tool_name_problem(&spec.name) {
            tracing::warn!(
                "tool name {:?} {problem}: MCP recommends 1 to 128 characters of A-Z, a-z, 0-9, \
                 `_`, `-` and `.`; the tool is served, but some clients refuse or rename it",
                spec.name
            );
        }
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

/// A running tool call, as [`ToolSet::call`] returns it.
pub type ToolFuture = Pin<Box<dyn Future<Output = ToolResult> + Send>>;
type Handler = Arc<dyn Fn(Value, SessionControl) -> ToolFuture + Send + Sync>;

/// What an app exposes: tools, resources (static and templates) and prompts.
#[derive(Clone, Default)]
pub struct ToolSet {
    tools: Vec<(ToolSpec, Handler)>,
    pub(crate) catalog: Catalog,
}

impl ToolSet {
    /// An empty set: no tools, resources or prompts.
    pub fn new() -> Self {
        Self::default()
    }

    /// Register a tool. A later tool with the same name replaces an earlier one.
    ///
    /// `handler` gets the call's `arguments` (always a JSON object, empty when
    /// the client sent none) and the call's [`SessionControl`]. The arguments
    /// are not checked against `input_schema`: the handler checks what it needs
    /// and answers bad input with a [`ToolError`] (a result with `isError: true`).
    /// Handlers run on the session's tokio runtime, several at once, so they
    /// must not block it (use `tokio::task::spawn_blocking` for slow synchronous
    /// work). A handler that panics, before or inside its future, does not take
    /// the session down: its call is answered with a JSON-RPC internal error
    /// (-32603, "the tool's handler panicked: …"), or its task ends `failed`.
    ///
    /// The spec's `input_schema` is served as an object schema, as MCP requires:
    /// `Value::Null` becomes `{"type": "object"}` (any arguments), and an object
    /// without `type` gets `"type": "object"`.
    ///
    /// # Panics
    ///
    /// When `input_schema` is neither null nor a JSON object, or names a `type`
    /// other than `"object"` (`{"type": "string"}`): the arguments of an MCP tool
    /// are always an object, so such a spec is a bug of the app, reported where
    /// it registers the tool, at startup.
    #[track_caller]
    pub fn add<F, Fut>(&mut self, mut spec: ToolSpec, handler: F) -> &mut Self
    where
        F: Fn(Value, SessionControl) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ToolResult> + Send + 'static,
    {
        spec.input_schema = object_schema(&spec.name, std::mem::take(&mut spec.input_schema));
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

    /// The registered tools' specs, in registration order (as `tools/list` shows them).
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
    ///
    /// A handler that panics before it returns its future (in the closure's own
    /// body, outside `async`) gives a future that panics with the same payload
    /// when polled, so the server catches it as it catches a panic inside the
    /// future.
    pub fn call(&self, name: &str, args: Value, control: SessionControl) -> Option<ToolFuture> {
        let (_, handler) = self.tools.iter().find(|(spec, _)| spec.name == name)?;
        let started =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(args, control)));
        Some(
            started
                .unwrap_or_else(|panic| Box::pin(async move { std::panic::resume_unwind(panic) })),
        )
    }

    /// Read a resource by URI (a static one, else the first matching template);
    /// `None` when nothing registered serves that URI. A handler that panics, as it
    /// starts or as it runs, fails the read (-32603) instead of leaving it unanswered.
    pub fn read_resource(&self, uri: &str, control: SessionControl) -> Option<ResourceFuture> {
        const WHAT: &str = "the resource's handler";
        match std::panic::catch_unwind(AssertUnwindSafe(|| self.catalog.read(uri, control))) {
            Ok(read) => read.map(|future| caught(WHAT, future)),
            Err(panic) => Some(failed(WHAT, &*panic)),
        }
    }

    /// Get a prompt by name with its arguments; `None` when no such prompt is
    /// registered, `Some(Err)` when the arguments do not fit its spec. A handler that
    /// panics fails the request (-32603), as a resource's does.
    pub fn get_prompt(
        &self,
        name: &str,
        args: std::collections::BTreeMap<String, String>,
        control: SessionControl,
    ) -> Option<Result<PromptFuture, ToolError>> {
        const WHAT: &str = "the prompt's handler";
        let started = std::panic::catch_unwind(AssertUnwindSafe(|| {
            self.catalog.get_prompt(name, args, control)
        }));
        match started {
            Ok(got) => got.map(|got| got.map(|future| caught(WHAT, future))),
            Err(panic) => Some(Ok(failed(WHAT, &*panic))),
        }
    }
}

/// A prompt's or resource's future.
type Handled<T> = Pin<Box<dyn Future<Output = Result<T, ToolError>> + Send>>;

/// `future` with a panic in it turned into its failure, naming `what` panicked.
fn caught<T: Send + 'static>(what: &'static str, future: Handled<T>) -> Handled<T> {
    Box::pin(async move {
        AssertUnwindSafe(future)
            .catch_unwind()
            .await
            .unwrap_or_else(|panic| Err(panicked(what, &*panic)))
    })
}

/// A future that fails at once: `what` panicked before it returned its own.
fn failed<T: Send + 'static>(what: &'static str, panic: &(dyn std::any::Any + Send)) -> Handled<T> {
    let error = panicked(what, panic);
    Box::pin(std::future::ready(Err(error)))
}

fn panicked(what: &str, panic: &(dyn std::any::Any + Send)) -> ToolError {
    ToolError::new(format!(
        "{what} panicked: {}",
        mur_lockfile::panic_message(panic)
    ))
}

#[cfg(test)]
mod tests {

    use serde_json::json;

    use super::*;

    fn registered(schema: Value) -> Value {
        let mut tools = ToolSet::new();
        tools.add(
            ToolSpec::new("t", "a tool", schema, ToolHints::READ_ONLY),
            |_, _| async { Ok(ToolOutput::Json(Value::Null)) },
        );
        tools.spec("t").expect("registered").input_schema.clone()
    }

    #[test]
    fn every_registered_schema_is_an_object_schema() {
        assert_eq!(registered(json!({})), json!({ "type": "object" }));
        assert_eq!(registered(Value::Null), json!({ "type": "object" }));
        let properties = json!({ "n": { "type": "integer" } });
        assert_eq!(
            registered(json!({ "properties": properties })),
            json!({ "type": "object", "properties": properties })
        );
        let whole = json!({ "type": "object", "properties": properties, "required": ["n"] });
        assert_eq!(registered(whole.clone()), whole);
    }

    #[test]
    #[should_panic(expected = "tool `t`: its input schema has `\"type\": \"string\"`")]
    fn a_schema_of_another_type_is_refused_at_registration() {
        registered(json!({ "type": "string" }));
    }

    #[test]
    #[should_panic(expected = "tool `t`: its input schema is a JSON array, not an object schema")]
    fn a_schema_that_is_no_object_is_refused_at_registration() {
        registered(json!(["object"]));
    }

    #[test]
    fn names_outside_the_mcp_guidance_are_told_apart() {
        for good in [
            "click",
            "switchComponent",
            "DATA_EXPORT_v2",
            "admin.tools.list",
            "a-b",
        ] {
            assert_eq!(tool_name_problem(good), None, "{good}");
        }
        assert_eq!(tool_name_problem("").as_deref(), Some("is empty"));
        assert_eq!(
            tool_name_problem(&"a".repeat(129)).as_deref(),
            Some("is 129 characters long (at most 128)")
        );
        assert_eq!(tool_name_problem(&"a".repeat(128)), None);
        assert_eq!(
            tool_name_problem("my tool, now").as_deref(),
            Some("contains ' ', ',' (only A-Z, a-z, 0-9, `_`, `-` and `.`)")
        );
        assert!(tool_name_problem("user/update").is_some());
        assert!(tool_name_problem("état").is_some());
    }

    #[test]
    fn a_handler_that_panics_before_its_future_is_caught_like_one_that_panics_in_it() {
        let mut tools = ToolSet::new();
        tools.add(
            ToolSpec::new("early", "panics at once", Value::Null, ToolHints::READ_ONLY),
            |args: Value, _| {
                let n = args["n"].as_u64().expect("an `n`");
                async move { Ok(ToolOutput::Json(Value::from(n))) }
            },
        );
        tools.add(
            ToolSpec::new("late", "panics when run", Value::Null, ToolHints::READ_ONLY),
            |_, _| async { panic!("an `n`") },
        );
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        for name in ["early", "late"] {
            let call = tools
                .call(name, json!({}), SessionControl::default())
                .expect("registered");
            let error = runtime
                .block_on(crate::task::guarded(call))
                .expect_err("a panic is an error");
            assert!(
                error.message.contains("the tool's handler panicked"),
                "{name}: {error:?}"
            );
            assert!(error.message.contains("an `n`"), "{name}: {error:?}");
        }
    }

    #[test]
    fn a_resource_or_prompt_handler_that_panics_fails_its_request() {
        use crate::catalog::{PromptOutput, PromptSpec, ResourceSpec};
        let mut tools = ToolSet::new();
        let spec = |uri: &str| ResourceSpec::new(uri, "r", "a resource", "text/plain");
        // Panics in its own body, before it returns its future.
        tools.add_resource(spec("app://early"), |uri: String, _| {
            let n: u32 = uri.parse().expect("no `early` for you");
            async move {
                Ok(vec![ResourceContents::text(
                    uri,
                    "text/plain",
                    n.to_string(),
                )])
            }
        });
        tools.add_resource(spec("app://late"), |_, _| async {
            panic!("no `late` for you")
        });
        tools.add_prompt(PromptSpec::new("late", "panics when run"), |_, _| async {
            panic!("no prompt for you")
        });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        for uri in ["app://early", "app://late"] {
            let read = tools
                .read_resource(uri, SessionControl::default())
                .expect("served");
            let error = runtime.block_on(read).expect_err("a panic is an error");
            assert_eq!(error.kind(), &crate::output::ErrorKind::Failed, "{uri}");
            assert!(
                error
                    .message
                    .starts_with("the resource's handler panicked: no `"),
                "{uri}: {error:?}"
            );
        }
        let get = tools
            .get_prompt("late", Default::default(), SessionControl::default())
            .expect("registered")
            .expect("arguments fit");
        let error = runtime
            .block_on(get)
            .map(|_: PromptOutput| ())
            .expect_err("a panic is an error");
        assert_eq!(
            error.message,
            "the prompt's handler panicked: no prompt for you"
        );
    }

    /// The log lines written while `f` runs, through a subscriber of its own.
    fn logged(f: impl FnOnce()) -> String {
        let buffer = mur_testkit::Captured::default();
        let writer = buffer.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        let logging = mur_testkit::log_on_this_thread(subscriber);
        f();
        drop(logging);
        buffer.text()
    }

    #[test]
    fn a_tool_name_outside_the_guidance_is_warned_about() {
        let mut tools = ToolSet::new();
        for name in ["my tool", "fine_name"] {
            tools.add(
                ToolSpec::new(name, "a tool", Value::Null, ToolHints::READ_ONLY),
                |_, _| async { Ok(ToolOutput::Json(Value::Null)) },
            );
        }
        // Another thread (another test's) warns first, with no subscriber of its own:
        // the test's own line is captured all the same.
        let log = logged(|| {
            std::thread::scope(|s| s.spawn(|| warn_about_tool_names(&tools)).join())
                .expect("the other thread");
            warn_about_tool_names(&tools);
        });
        assert_eq!(log.lines().count(), 1, "{log}");
        assert!(log.contains("WARN"), "{log}");
        assert!(log.contains("tool name \"my tool\" contains ' '"), "{log}");
    }
}
