//! The MCP face of a [`ToolSet`]: tools, resources, prompts and logging, with
//! the capabilities declared (`server/discover`, `initialize`) exactly as registered.
#![allow(deprecated)] // rmcp marks logging and resource subscriptions deprecated (SEP-2577); 2025-11-25 clients still use them.

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::{Arc, Mutex, MutexGuard},
};

use base64::Engine as _;
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams,
        ClientCapabilities, ContentBlock, CreateTaskResult, CustomRequest, CustomResult,
        GetPromptRequestParams, GetPromptResponse, GetTaskParams, GetTaskResult, Implementation,
        InitializeRequestParams, InitializeResult, InputRequests, InputRequiredResult, JsonObject,
        ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
        PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
        ServerCapabilities, ServerConfig, SetLevelRequestParams, SubscribeRequestParams,
        TASKS_EXTENSION_ID, Tool, ToolAnnotations, UnsubscribeRequestParams, UpdateTaskParams,
    },
    service::RequestContext,
    task_manager::TaskExit,
};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::call::{CallContext, LogLevel, SessionControl};
use crate::catalog::{PromptOutput, PromptRole, PromptSpec, ResourceInfo};
use crate::output::{Content, ErrorKind, InputRequired, ResourceContents, ToolError, ToolOutput};
use crate::request_state;
use crate::task::{self, Ended, Ran, Served};
use crate::tools::{TaskSupport, ToolSet, ToolSpec};
use crate::usage::{Finish, Recorder};
use mur_usage::Outcome;

/// What one client session (2025-11-25) set; a stateless request gets a fresh one.
#[derive(Debug)]
struct SessionState {
    /// `logging/setLevel`; until it is sent, `info` and above.
    log_level: Mutex<LogLevel>,
    /// `resources/subscribe`d URIs.
    subscriptions: Mutex<BTreeSet<String>>,
}

impl Default for SessionState {
    fn default() -> Self {
        Self {
            log_level: Mutex::new(LogLevel::Info),
            subscriptions: Mutex::new(BTreeSet::new()),
        }
    }
}

impl SessionState {
    fn log_level(&self) -> MutexGuard<'_, LogLevel> {
        held(&self.log_level)
    }

    fn subscriptions(&self) -> MutexGuard<'_, BTreeSet<String>> {
        held(&self.subscriptions)
    }
}

/// `mutex` held, though a holder panicked: what it guards (a level, a set of URIs) is
/// whole between any two statements, so a client's next request may use it.
fn held<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One per request in stateless mode and one per legacy session (rmcp asks its
/// factory each time), so it is cheap to clone.
#[derive(Clone)]
pub(crate) struct DevtoolsHandler {
    tools: Arc<ToolSet>,
    control: SessionControl,
    server_info: Implementation,
    session: Arc<SessionState>,
    /// Records each `tools/call` served, when the app turned usage on.
    usage: Option<Arc<Recorder>>,
    /// The calls that became tasks, shared by every request and session.
    tasks: task::Tasks,
    /// Marks the answer of a call that asked for a reload (a stdio session's,
    /// for the bridge: [`crate::reload::RELOADING_META`]).
    marks_reloads: bool,
}

impl DevtoolsHandler {
    pub(crate) fn new(
        tools: Arc<ToolSet>,
        control: SessionControl,
        name: &str,
        version: &str,
    ) -> Self {
        Self {
            tools,
            control,
            server_info: Implementation::new(name, version),
            session: Arc::default(),
            usage: None,
            tasks: task::Tasks::new(task::MAX_TASKS, task::MAX_KEPT_TASKS),
            marks_reloads: false,
        }
    }

    /// Tasks running at most, and kept at most (running or ended); set before
    /// the first call, as it starts a new store.
    pub(crate) fn with_task_limits(mut self, max_running: usize, max_kept: usize) -> Self {
        self.tasks = task::Tasks::new(max_running, max_kept);
        self
    }

    /// Marks each call's answer given once a reload is asked for (the reload's
    /// own first) `_meta` `mur/reloading`: the stdio bridge then sends the
    /// requests that follow to the process started next, not to this one, which
    /// exits once its answers are out.
    pub(crate) fn marking_reloads(mut self) -> Self {
        self.marks_reloads = true;
        self
    }

    pub(crate) fn with_usage(mut self, recorder: Option<Recorder>) -> Self {
        self.usage = recorder.map(Arc::new);
        self
    }

    /// The same app for a new client session: its own log level and subscriptions.
    pub(crate) fn for_new_session(&self) -> Self {
        Self {
            session: Arc::default(),
            ..self.clone()
        }
    }

    fn capabilities(&self) -> ServerCapabilities {
        let mut caps = json!({ "tools": {}, "logging": {} });
        if self.tools.catalog.has_resources() {
            caps["resources"] = json!({});
        }
        if self.tools.catalog.has_prompts() {
            caps["prompts"] = json!({});
        }
        if self
            .tools
            .specs()
            .any(|spec| spec.tasks != TaskSupport::Never)
        {
            caps["extensions"] = json!({ TASKS_EXTENSION_ID: {} });
        }
        from_json(caps).unwrap_or_default()
    }

    /// What a handler's [`SessionControl`] knows of this request;
    /// `may_become_task` for a call that [`task::serve`] runs.
    fn call_context(
        &self,
        context: &RequestContext<RoleServer>,
        input_responses: Option<BTreeMap<String, Value>>,
        state: Option<Value>,
        may_become_task: bool,
    ) -> Arc<CallContext> {
        let inline = is_inline(context);
        let (client_capabilities, log_threshold) = if inline {
            (
                context.meta.client_capabilities().unwrap_or_default(),
                context.meta.log_level().map(LogLevel::from_mcp),
            )
        } else {
            let caps = context
                .peer
                .peer_info()
                .map(|info| info.capabilities.clone())
                .unwrap_or_default();
            let level = *self.session.log_level();
            (caps, Some(level))
        };
        Arc::new(CallContext {
            peer: Some(context.peer.clone()),
            progress_token: context.meta.get_progress_token(),
            log_threshold,
            logger: Some(self.server_info.name.clone()),
            client_capabilities,
            inline_input: inline,
            input_responses: input_responses.unwrap_or_default(),
            state,
            cancelled: context.ct.clone(),
            task: crate::call::TaskSlot::new(may_become_task),
            task_answers: std::sync::Mutex::default(),
            last_progress: std::sync::Mutex::default(),
        })
    }

    /// rmcp's gate on `tasks/*`, for a request it could not read: the answer a
    /// well-formed one gets first, so that malformed params are -32602 only
    /// where the method is served — -32601 from a server that runs no tasks,
    /// -32021 to a request that did not declare the extension.
    fn tasks_gate(
        &self,
        method: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if !self.get_info().capabilities.supports_tasks() {
            return Err(method_not_found(method));
        }
        if !context
            .client_capabilities()
            .is_some_and(|caps| caps.supports_tasks())
        {
            return Err(ErrorData::missing_required_client_capability(
                ClientCapabilities::builder().enable_tasks().build(),
            ));
        }
        Ok(())
    }

    /// [`Self::serve_call`], stopped when its client cancels the request: rmcp
    /// cancels the request's token when the HTTP request is dropped before its
    /// answer (2026-07-28: a client that gave up, at its timeout or Ctrl-C) and on
    /// `notifications/cancelled` (a 2025-11-25 session, stdio), but only cancels
    /// it; the tool runs inside this future, so it stops only when this future is
    /// dropped. A call that became a task has been answered by then (its request
    /// is over, its token cancelled with it): `tasks/cancel` stops that one.
    async fn serve_unless_cancelled(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
        finish: Option<&Finish>,
    ) -> Result<CallToolResponse, ErrorData> {
        let cancelled = context.ct.clone();
        tokio::select! {
            biased;
            () = cancelled.cancelled() => {
                // Nobody reads the answer; the record says the client stopped the call.
                if let Some(finish) = finish {
                    finish.done(Outcome::Interrupted);
                }
                Err(ErrorData::internal_error("the client cancelled the call", None))
            }
            response = self.serve_call(request, context, finish) => response,
        }
    }

    /// `tools/call` itself. A call of a task-supporting tool from a client
    /// that can follow tasks may become one (see [`task::serve`]); a clone of
    /// `finish` then goes with it, to record the call when it ends.
    async fn serve_call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
        finish: Option<&Finish>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(spec) = self.tools.spec(&request.name) else {
            return Err(unknown_tool(&request.name));
        };
        let inline = is_inline(&context);
        let follows_tasks = inline
            && context
                .client_capabilities()
                .is_some_and(|caps| caps.supports_tasks());
        if spec.tasks == TaskSupport::Required && !follows_tasks {
            return Err(tasks_required(&request.name));
        }
        let as_task = spec.tasks != TaskSupport::Never && follows_tasks;
        let state = open_state(
            "tools/call",
            &request.name,
            request.request_state.as_deref(),
        )?;
        let call_context = self.call_context(&context, request.input_responses, state, as_task);
        let control = self.control.for_call(call_context.clone());
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let Some(call) = self.tools.call(&request.name, arguments, control) else {
            return Err(unknown_tool(&request.name));
        };
        if !as_task {
            return respond(&request.name, task::guarded(call).await, inline);
        }
        let name = request.name.clone();
        let finish = finish.cloned();
        let settle = move |ended: Ended| {
            let settled = settle_task(&name, ended);
            if let Some(finish) = finish {
                finish.done(task_outcome(&settled));
            }
            settled
        };
        match task::serve(&self.tasks, call, call_context, settle).await {
            Served::Now(ran) => respond(&request.name, ran, inline),
            Served::Task(task) => Ok(CreateTaskResult::new(task).into()),
        }
    }
}

/// A call's result as its response: the tool's result, its question (2026-07-28)
/// or its failure.
fn respond(name: &str, ran: Ran, inline: bool) -> Result<CallToolResponse, ErrorData> {
    match ran? {
        Ok(ToolOutput::InputRequired(input)) => {
            if !inline {
                return Ok(error_result(&ToolError::new(
                    "this tool needs answers the client can only give on protocol 2026-07-28",
                ))
                .into());
            }
            Ok(input_required("tools/call", name, input)?.into())
        }
        Ok(output) => Ok(success_result(output)?.into()),
        Err(error) => match error.kind() {
            ErrorKind::MissingCapability(capability) => Err(missing_capability(capability)),
            ErrorKind::Failed | ErrorKind::Invalid => Ok(error_result(&error).into()),
        },
    }
}

/// What `tasks/get` shows of a task that ended: `completed` with the tool's
/// result (`isError: true` for the tool's own failure), `failed` with the
/// protocol error of a crash or a missing capability, or `cancelled`.
fn settle_task(name: &str, ended: Ended) -> Result<CallToolResult, TaskExit> {
    let ran = match ended {
        Ended::Ran(ran) => ran,
        Ended::Cancelled => return Err(TaskExit::Cancelled),
    };
    // A task has no round to carry questions returned by hand: the handler
    // would have to be run again with the answers. `ask` puts them in the task.
    if let Ok(Ok(ToolOutput::InputRequired(_))) = &ran {
        return Err(TaskExit::Error(ErrorData::internal_error(
            format!(
                "tool `{name}` returned questions after its call became a task; a tool that \
                 may run as a task asks with `SessionControl::ask`"
            ),
            None,
        )));
    }
    match respond(name, ran, false).map_err(TaskExit::Error)? {
        CallToolResponse::Complete(result) => Ok(result),
        _ => Err(TaskExit::Error(ErrorData::internal_error(
            "the task ended with something other than a tool result",
            None,
        ))),
    }
}

/// -32021 for a tool that runs only as a task, to a client that did not
/// declare the tasks extension (or speaks a revision without it).
fn tasks_required(name: &str) -> ErrorData {
    let mut error = ErrorData::missing_required_client_capability(
        ClientCapabilities::builder().enable_tasks().build(),
    );
    error.message = format!(
        "tool `{name}` runs only as a task, and the request did not declare the extension `{TASKS_EXTENSION_ID}` (protocol 2026-07-28)"
    )
    .into();
    error
}

/// Whether the request speaks 2026-07-28 or newer (questions as input-required results).
fn is_inline(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

impl ServerHandler for DevtoolsHandler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(self.capabilities()).with_server_info(self.server_info.clone())
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        // Sessions (2025-11-25) can subscribe to resources; 2026-07-28 has
        // `subscriptions/listen` instead, which this server does not offer.
        if let Some(resources) = result.capabilities.resources.as_mut() {
            resources.subscribe = Some(true);
        }
        Ok(result)
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        *self.session.log_level() = LogLevel::from_mcp(request.level);
        Ok(())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            self.tools.specs().map(mcp_tool).collect(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.spec(name).map(mcp_tool)
    }

    // rmcp answers these only when the server declares the extension and the
    // request does (else -32601 or -32021), and acks update and cancel itself.
    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.tasks
            .store()
            .get_task(&request.task_id)
            .map(GetTaskResult::new)
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks
            .store()
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks.store().cancel_task(&request.task_id)
    }

    /// rmcp hands over as a custom request every request it could not read as
    /// the method it names, and every method the request's revision lacks: for a
    /// method this server serves in that revision, the params were malformed
    /// (`arguments` an array), which is -32602 saying what was wrong, not
    /// "method not found".
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        if is_inline(&context) && REMOVED_IN_2026_07_28.contains(&&*request.method) {
            return Err(method_not_found(&request.method));
        }
        if TASK_METHODS.contains(&&*request.method) {
            self.tasks_gate(&request.method, &context)?;
        }
        Err(not_understood(&request.method, request.params.as_ref()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let finish = self.usage.as_ref().map(|usage| {
            let has_tool = self.tools.spec(&request.name).is_some();
            Finish::start(usage, &request.name, has_tool, &context)
        });
        let mut response = self
            .serve_unless_cancelled(request, context, finish.as_ref())
            .await;
        if let (Some(finish), Some(outcome)) = (finish, outcome_of(&response)) {
            finish.done(outcome);
        }
        if self.marks_reloads
            && self.control.reload_requested()
            && let Ok(CallToolResponse::Complete(result)) = &mut response
        {
            let meta = result.meta.get_or_insert_with(rmcp::model::MetaObject::new);
            meta.0
                .insert(crate::reload::RELOADING_META.to_owned(), Value::Bool(true));
        }
        response
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        listing(
            self.tools.resources(),
            |spec| listed(("uri", &spec.uri), &spec.info),
            ListResourcesResult::with_all_items,
        )
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        listing(
            self.tools.resource_templates(),
            |spec| listed(("uriTemplate", &spec.uri_template), &spec.info),
            ListResourceTemplatesResult::with_all_items,
        )
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        if !self.tools.catalog.serves(&uri) {
            return Err(resource_not_found(&uri));
        }
        let state = open_state("resources/read", &uri, request.request_state.as_deref())?;
        let call_context = self.call_context(&context, request.input_responses, state, false);
        let control = self.control.for_call(call_context);
        let Some(read) = self.tools.read_resource(&uri, control) else {
            return Err(resource_not_found(&uri));
        };
        let contents = read.await.map_err(|error| handler_error(&error))?;
        let contents: Vec<Value> = contents.iter().map(resource_contents_json).collect();
        Ok(from_json::<rmcp::model::ReadResourceResult>(
            json!({ "resultType": "complete", "contents": contents }),
        )?
        .into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if !self.tools.catalog.serves(&request.uri) {
            return Err(resource_not_found(&request.uri));
        }
        self.session.subscriptions().insert(request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.subscriptions().remove(&request.uri);
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        listing(
            self.tools.prompts(),
            prompt_entry,
            ListPromptsResult::with_all_items,
        )
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let name = request.name;
        let mut args = BTreeMap::new();
        for (key, value) in request.arguments.unwrap_or_default() {
            let Value::String(value) = value else {
                return Err(ErrorData::invalid_params(
                    format!("prompt argument `{key}` must be a string, not {value}"),
                    None,
                ));
            };
            args.insert(key, value);
        }
        if !self.tools.prompts().any(|spec| spec.name == name) {
            return Err(ErrorData::invalid_params(
                format!("unknown prompt `{name}`; `prompts/list` shows the available prompts"),
                Some(json!({ "name": name })),
            ));
        }
        let state = open_state("prompts/get", &name, request.request_state.as_deref())?;
        let call_context = self.call_context(&context, request.input_responses, state, false);
        let control = self.control.for_call(call_context);
        let get = match self.tools.get_prompt(&name, args, control) {
            Some(Ok(get)) => get,
            Some(Err(error)) => return Err(handler_error(&error)),
            None => {
                return Err(ErrorData::invalid_params(
                    format!("unknown prompt `{name}`"),
                    None,
                ));
            }
        };
        match get.await.map_err(|error| handler_error(&error))? {
            PromptOutput::InputRequired(input) => {
                if !is_inline(&context) {
                    return Err(ErrorData::invalid_request(
                        "this prompt needs answers the client can only give on protocol 2026-07-28",
                        None,
                    ));
                }
                Ok(input_required("prompts/get", &name, input)?.into())
            }
            PromptOutput::Messages {
                description,
                messages,
            } => {
                let messages: Vec<Value> = messages
                    .iter()
                    .map(|message| {
                        let role = match message.role {
                            PromptRole::User => "user",
                            PromptRole::Assistant => "assistant",
                        };
                        json!({ "role": role, "content": content_json(&message.content) })
                    })
                    .collect();
                let mut result = json!({ "resultType": "complete", "messages": messages });
                if let Some(description) = description {
                    result["description"] = description.into();
                }
                Ok(from_json::<rmcp::model::GetPromptResult>(result)?.into())
            }
        }
    }
}

/// Builds an rmcp type from its wire JSON (most are `#[non_exhaustive]`).
fn from_json<T: DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value).map_err(|error| {
        ErrorData::internal_error(format!("the server built an invalid result: {error}"), None)
    })
}

/// A whole list result (this server never pages one): each of `specs` as its wire
/// entry, read back as rmcp's item type, handed to the result type's `with_all_items`.
fn listing<S, T: DeserializeOwned, R>(
    specs: impl Iterator<Item = S>,
    entry: impl FnMut(S) -> Value,
    with_all_items: impl FnOnce(Vec<T>) -> R,
) -> Result<R, ErrorData> {
    let items = specs.map(entry).map(from_json).collect::<Result<_, _>>()?;
    Ok(with_all_items(items))
}

/// A `prompts/list` entry: name, description and arguments, and the title when set.
fn prompt_entry(spec: &PromptSpec) -> Value {
    let arguments: Vec<Value> = spec
        .arguments
        .iter()
        .map(|arg| json!({ "name": arg.name, "description": arg.description, "required": arg.required }))
        .collect();
    with_optional(
        json!({ "name": spec.name, "description": spec.description, "arguments": arguments }),
        &[("title", &spec.title)],
    )
}

/// A `resources/list` or `resources/templates/list` entry: the address under its
/// key, then what the two listings share.
fn listed((key, address): (&str, &str), info: &ResourceInfo) -> Value {
    let mut entry = json!({ "name": info.name, "description": info.description });
    entry[key] = address.into();
    with_optional(
        entry,
        &[("title", &info.title), ("mimeType", &info.mime_type)],
    )
}

/// `object` plus each optional field that is set.
fn with_optional(mut object: Value, fields: &[(&str, &Option<String>)]) -> Value {
    for (key, value) in fields {
        if let Some(value) = value {
            object[*key] = value.clone().into();
        }
    }
    object
}

fn open_state(method: &str, name: &str, sealed: Option<&str>) -> Result<Option<Value>, ErrorData> {
    sealed
        .map(|sealed| request_state::open(method, name, sealed))
        .transpose()
}

fn input_required(
    method: &str,
    name: &str,
    input: InputRequired,
) -> Result<InputRequiredResult, ErrorData> {
    let mut requests = InputRequests::new();
    for (key, question) in &input.questions {
        let request = question
            .to_input_request()
            .map_err(|error| ErrorData::internal_error(error.message, None))?;
        requests.insert(key.clone(), request);
    }
    let state = input
        .state
        .as_ref()
        .map(|state| request_state::seal(method, name, state))
        .transpose()?;
    if requests.is_empty() && state.is_none() {
        return Err(ErrorData::internal_error(
            "the handler asked for input but gave no question and no state",
            None,
        ));
    }
    Ok(InputRequiredResult::new(
        (!requests.is_empty()).then_some(requests),
        state,
    ))
}

/// How a served call ended, for its usage record; `None` for an
/// input-required round, which is one step of a call and not a call.
fn outcome_of(response: &Result<CallToolResponse, ErrorData>) -> Option<Outcome> {
    match response {
        Ok(CallToolResponse::Complete(result)) => Some(result_outcome(result)),
        Ok(_) => None,
        Err(_) => Some(Outcome::RpcError),
    }
}

/// How a task ended, for its usage record: `tasks/cancel` is the client
/// stopping the call, as mur's Ctrl-C is, no failure; a crash or a refused
/// question is the protocol error it ends with.
fn task_outcome(settled: &Result<CallToolResult, TaskExit>) -> Outcome {
    match settled {
        Ok(result) => result_outcome(result),
        Err(TaskExit::Cancelled) => Outcome::Interrupted,
        Err(_) => Outcome::RpcError,
    }
}

/// How a tool's result ended: its own failure (`isError`), or well.
fn result_outcome(result: &CallToolResult) -> Outcome {
    if result.is_error == Some(true) {
        Outcome::ToolError
    } else {
        Outcome::Ok
    }
}

/// The methods the 2026-07-28 revision removed: a request of that revision
/// naming one is "method not found" (HTTP 404), whatever its params.
const REMOVED_IN_2026_07_28: &[&str] = &[
    "initialize",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// The methods of the tasks extension, which rmcp serves only behind its gate
/// (see [`DevtoolsHandler::tasks_gate`]).
const TASK_METHODS: &[&str] = &["tasks/get", "tasks/update", "tasks/cancel"];

/// -32601 with the method alone as its message, as rmcp answers it.
fn method_not_found(method: &str) -> ErrorData {
    ErrorData::new(
        rmcp::model::ErrorCode::METHOD_NOT_FOUND,
        method.to_owned(),
        None,
    )
}

/// The error for a request rmcp could not read: -32602 naming the fault when
/// the method is one this server serves, else "method not found".
fn not_understood(method: &str, params: Option<&Value>) -> ErrorData {
    let fault = match method {
        "tools/call" => malformed::<CallToolRequestParams>(params).map(|fault| {
            match params.and_then(|p| p.get("arguments")) {
                // serde's words name a map; MCP's name the tool's arguments.
                Some(arguments) if !arguments.is_object() && !arguments.is_null() => {
                    let why = malformed::<JsonObject>(Some(arguments)).unwrap_or(fault);
                    format!("`arguments` must be an object of the tool's arguments by name ({why})")
                }
                _ => fault,
            }
        }),
        "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list" => {
            malformed::<PaginatedRequestParams>(params)
        }
        "resources/read" => malformed::<ReadResourceRequestParams>(params),
        "resources/subscribe" => malformed::<SubscribeRequestParams>(params),
        "resources/unsubscribe" => malformed::<UnsubscribeRequestParams>(params),
        "prompts/get" => malformed::<GetPromptRequestParams>(params),
        "logging/setLevel" => malformed::<SetLevelRequestParams>(params),
        "initialize" => malformed::<InitializeRequestParams>(params),
        "tasks/get" => malformed::<GetTaskParams>(params),
        "tasks/update" => malformed::<UpdateTaskParams>(params),
        "tasks/cancel" => malformed::<CancelTaskParams>(params),
        _ => return method_not_found(method),
    };
    let fault = fault.unwrap_or_else(|| "they are not what the method takes".to_owned());
    ErrorData::invalid_params(format!("invalid params for `{method}`: {fault}"), None)
}

/// Why `params` are not a `T`, if they are not.
fn malformed<T: DeserializeOwned>(params: Option<&Value>) -> Option<String> {
    let params = params.cloned().unwrap_or_else(|| json!({}));
    serde_json::from_value::<T>(params)
        .err()
        .map(|e| e.to_string())
}

fn unknown_tool(name: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("unknown tool `{name}`; `tools/list` shows the available tools"),
        None,
    )
}

/// -32602 on 2026-07-28 (rmcp maps it), -32002 on older revisions; `data.uri` either way.
fn resource_not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(
        format!(
            "no resource at `{uri}`; `resources/list` and `resources/templates/list` show what there is"
        ),
        Some(json!({ "uri": uri })),
    )
}

fn missing_capability(capability: &str) -> ErrorData {
    let caps: ClientCapabilities =
        serde_json::from_value(json!({ capability: {} })).unwrap_or_default();
    let mut error = ErrorData::missing_required_client_capability(caps);
    error.message = format!(
        "this call needs the client capability `{capability}`, which the request did not declare"
    )
    .into();
    error
}

/// A prompt or resource handler's failure as a JSON-RPC error.
fn handler_error(error: &ToolError) -> ErrorData {
    match error.kind() {
        ErrorKind::Failed => ErrorData::internal_error(error.message.clone(), None),
        ErrorKind::Invalid => ErrorData::invalid_params(error.message.clone(), None),
        ErrorKind::MissingCapability(capability) => missing_capability(capability),
    }
}

/// The `tools/list` entry for a spec: schema, title and behaviour hints.
fn mcp_tool(spec: &ToolSpec) -> Tool {
    let title = spec.display_title();
    let annotations = ToolAnnotations::with_title(title.clone())
        .read_only(spec.hints.read_only)
        .destructive(spec.hints.destructive)
        .idempotent(spec.hints.idempotent);
    Tool::new(
        spec.name.clone(),
        spec.description.clone(),
        Arc::new(schema_object(&spec.input_schema)),
    )
    .with_title(title)
    .with_annotations(annotations)
}

/// The spec's schema, an object schema since `ToolSet::add` made it one.
fn schema_object(schema: &Value) -> JsonObject {
    match schema {
        Value::Object(object) => object.clone(),
        _ => JsonObject::from_iter([("type".to_owned(), Value::from("object"))]),
    }
}

fn base64(data: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(data)
}

fn resource_contents_json(contents: &ResourceContents) -> Value {
    match contents {
        ResourceContents::Text {
            uri,
            mime_type,
            text,
        } => with_optional(
            json!({ "uri": uri, "text": text }),
            &[("mimeType", mime_type)],
        ),
        ResourceContents::Blob {
            uri,
            mime_type,
            data,
        } => with_optional(
            json!({ "uri": uri, "blob": base64(data) }),
            &[("mimeType", mime_type)],
        ),
    }
}

fn content_json(content: &Content) -> Value {
    match content {
        Content::Text(text) => json!({ "type": "text", "text": text }),
        Content::Image { data, mime_type } => {
            json!({ "type": "image", "data": base64(data), "mimeType": mime_type })
        }
        Content::Audio { data, mime_type } => {
            json!({ "type": "audio", "data": base64(data), "mimeType": mime_type })
        }
        Content::Resource(contents) => {
            json!({ "type": "resource", "resource": resource_contents_json(contents) })
        }
    }
}

fn success_result(output: ToolOutput) -> Result<CallToolResult, ErrorData> {
    Ok(match output {
        ToolOutput::Json(value) => CallToolResult::structured(value),
        ToolOutput::Image {
            png,
            width,
            height,
            details,
        } => image_result(&png, width, height, details),
        ToolOutput::Content { blocks, structured } => {
            let content: Vec<Value> = blocks.iter().map(content_json).collect();
            let mut result =
                json!({ "resultType": "complete", "content": content, "isError": false });
            if let Some(structured) = structured {
                result["structuredContent"] = structured;
            }
            from_json(result)?
        }
        ToolOutput::InputRequired(_) => {
            return Err(ErrorData::internal_error(
                "input required is not a result",
                None,
            ));
        }
    })
}

/// An image block, plus the details (always with `width`/`height`) as structured content and text.
fn image_result(png: &[u8], width: u32, height: u32, details: Value) -> CallToolResult {
    let mut details = match details {
        Value::Object(object) => object,
        _ => JsonObject::new(),
    };
    details.entry("width").or_insert(width.into());
    details.entry("height").or_insert(height.into());
    details.entry("mimeType").or_insert("image/png".into());
    let mut result = CallToolResult::structured(Value::Object(details));
    result
        .content
        .insert(0, ContentBlock::image(base64(png), "image/png"));
    result
}

fn error_result(error: &ToolError) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(error.message.clone())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_schemaless_tool_is_listed_with_an_object_schema() {
        let mut tools = ToolSet::new();
        for (name, schema) in [("schemaless", json!({})), ("null", Value::Null)] {
            let spec = ToolSpec::new(name, "d", schema, crate::tools::ToolHints::READ_ONLY);
            tools.add(spec, |_, _| async { Ok(ToolOutput::Json(Value::Null)) });
        }
        for name in ["schemaless", "null"] {
            let listed = serde_json::to_value(mcp_tool(tools.spec(name).expect("registered")))
                .expect("json");
            assert_eq!(listed["inputSchema"], json!({ "type": "object" }), "{name}");
        }
    }

    #[test]
    fn a_task_ends_as_its_handler_did() {
        let text = |result: &CallToolResult| serde_json::to_value(result).expect("json");
        let done = settle_task("t", Ended::Ran(Ok(Ok(ToolOutput::Json(json!({ "n": 1 }))))));
        assert_eq!(
            done.map(|r| text(&r)["structuredContent"].clone()).ok(),
            Some(json!({ "n": 1 }))
        );
        let failed = settle_task("t", Ended::Ran(Ok(Err(ToolError::new("no")))));
        assert_eq!(failed.map(|r| r.is_error).ok(), Some(Some(true)));
        assert!(matches!(
            settle_task("t", Ended::Cancelled),
            Err(TaskExit::Cancelled)
        ));
        // Questions returned by hand have no round to go in: the app's error,
        // said to its developer, not the 2025-11-25 refusal.
        let asked = InputRequired::new().ask("k", crate::output::Question::Roots);
        match settle_task("t", Ended::Ran(Ok(Ok(ToolOutput::InputRequired(asked))))) {
            Err(TaskExit::Error(error)) => {
                assert!(error.message.contains("`SessionControl::ask`"), "{error:?}");
            }
            other => panic!("a failed task, not {other:?}"),
        }
    }
}
