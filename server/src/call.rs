//! One call in progress: what a handler may send the client while it runs
//! (progress, log messages) and how it asks the client questions.
//!
//! Questions work on both wire revisions with one API, [`SessionControl::ask`]:
//! on 2026-07-28 the answer comes back in the client's next call
//! (`inputResponses`; the handler returns [`Asked::Pending`] as an
//! `InputRequiredResult` and is run again), on 2025-11-25 (and stdio) the
//! question goes to the client over the response stream (`elicitation/create`)
//! and `ask` waits for the answer.
#![allow(deprecated)] // rmcp marks logging, sampling and roots deprecated (SEP-2577); we still serve them.

use std::collections::BTreeMap;
use std::sync::Arc;

use rmcp::task_manager::{TaskContext, TaskExit};
use rmcp::{
    Peer, RoleServer,
    model::{
        ClientCapabilities, ClientResult, InputRequest, LoggingLevel,
        LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken, ServerRequest,
    },
};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::output::{Asked, InputRequired, Question, ToolError};

/// Severity of a log message, lowest first (the syslog levels MCP uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detail for debugging.
    Debug,
    /// Normal progress.
    Info,
    /// Normal but significant.
    Notice,
    /// Something may be wrong.
    Warning,
    /// Something failed.
    Error,
    /// A part of the app cannot work.
    Critical,
    /// Someone must act at once.
    Alert,
    /// The app is unusable.
    Emergency,
}

impl LogLevel {
    pub(crate) fn to_mcp(self) -> LoggingLevel {
        match self {
            Self::Debug => LoggingLevel::Debug,
            Self::Info => LoggingLevel::Info,
            Self::Notice => LoggingLevel::Notice,
            Self::Warning => LoggingLevel::Warning,
            Self::Error => LoggingLevel::Error,
            Self::Critical => LoggingLevel::Critical,
            Self::Alert => LoggingLevel::Alert,
            Self::Emergency => LoggingLevel::Emergency,
        }
    }

    pub(crate) fn from_mcp(level: LoggingLevel) -> Self {
        match level {
            LoggingLevel::Debug => Self::Debug,
            LoggingLevel::Info => Self::Info,
            LoggingLevel::Notice => Self::Notice,
            LoggingLevel::Warning => Self::Warning,
            LoggingLevel::Error => Self::Error,
            LoggingLevel::Critical => Self::Critical,
            LoggingLevel::Alert => Self::Alert,
            LoggingLevel::Emergency => Self::Emergency,
        }
    }
}

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
    /// the lockfile is removed, the program is started again from the path it
    /// was started from (after a rebuild, the new build) with the same
    /// arguments (and the same stderr), and this process
    /// exits with code 0 from inside [`serve`](crate::serve), which does not
    /// return; code after `run` or `serve` in `main` does not run then. In the
    /// foreground of a terminal the program replaces this process in place (the
    /// same pid, so Ctrl+C there still stops it). When
    /// the new process cannot be started, the reload fails: it is logged, the
    /// lockfile written again, and the session serves on. A stdio session is
    /// not started again by itself: it exits with
    /// [`STDIO_RELOAD_EXIT`](crate::STDIO_RELOAD_EXIT), for its client to.
    pub fn request_reload(&self) {
        self.reload.store(true, std::sync::atomic::Ordering::SeqCst);
        self.reload_signal.notify_one();
    }

    /// Resolves once [`request_reload`](Self::request_reload) has been called.
    pub async fn reload_wanted(&self) {
        // A loop: a wake-up kept from a request a failed reload already served
        // does not count again.
        while !self.reload_requested() {
            self.reload_signal.notified().await;
        }
    }

    /// Whether a reload was asked for.
    pub fn reload_requested(&self) -> bool {
        self.reload.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The reload asked for could not start the new process: the session serves
    /// on, and a later request asks again.
    pub(crate) fn reload_failed(&self) {
        self.reload
            .store(false, std::sync::atomic::Ordering::SeqCst);
    }

    /// The same session handle for one call.
    pub(crate) fn for_call(&self, call: Arc<CallContext>) -> Self {
        Self {
            reload: self.reload.clone(),
            reload_signal: self.reload_signal.clone(),
            call: Some(call),
        }
    }
}

/// How many times a task asks one question whose answers do not fit it.
const TASK_ASKS: u32 = 3;

/// The task a call may become: set once, when it has run too long within its
/// request or when its handler asks a question (a task waits for the answer
/// without the handler being run again).
pub(crate) struct TaskSlot {
    /// Whether the call may become a task at all (the tool supports tasks and
    /// the client declared it can follow one).
    possible: bool,
    made: tokio::sync::watch::Sender<Made>,
    /// The handler wants to be a task now (it asked a question).
    wanted: tokio::sync::Notify,
}

/// Whether the call became a task.
#[derive(Clone)]
enum Made {
    NotYet,
    Task(TaskContext),
    /// The session runs as many tasks as it may: the call stays in its request.
    Refused,
}

impl Made {
    fn task(&self) -> Option<TaskContext> {
        match self {
            Self::Task(task) => Some(task.clone()),
            Self::NotYet | Self::Refused => None,
        }
    }
}

impl TaskSlot {
    pub(crate) fn new(possible: bool) -> Self {
        Self {
            possible,
            made: tokio::sync::watch::Sender::new(Made::NotYet),
            wanted: tokio::sync::Notify::new(),
        }
    }

    pub(crate) fn get(&self) -> Option<TaskContext> {
        self.made.borrow().task()
    }

    pub(crate) fn set(&self, task: TaskContext) {
        self.made.send_replace(Made::Task(task));
    }

    /// The call will not become a task: a handler waiting to be one asks
    /// within the request instead.
    pub(crate) fn refuse(&self) {
        self.made.send_replace(Made::Refused);
    }

    /// Resolves when the handler asks to become a task.
    pub(crate) async fn wanted(&self) {
        // `notify_one` keeps a permit, so a wish made before this waits is not lost.
        self.wanted.notified().await;
    }

    /// Whether the call may become a task at all.
    fn possible(&self) -> bool {
        self.possible
    }

    /// The call as a task, made now if it may become one; `None` if it may not.
    async fn become_task(&self) -> Option<TaskContext> {
        if !self.possible {
            return None;
        }
        self.wanted.notify_one();
        let mut made = self.made.subscribe();
        let made = made.wait_for(|made| !matches!(made, Made::NotYet)).await;
        made.ok()?.task()
    }
}

impl std::fmt::Debug for TaskSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskSlot")
            .field("possible", &self.possible)
            .field("task", &self.get().map(|task| task.task_id().to_owned()))
            .finish()
    }
}

/// Everything about the call in progress a handler may use.
#[derive(Debug)]
pub(crate) struct CallContext {
    pub peer: Option<Peer<RoleServer>>,
    pub progress_token: Option<ProgressToken>,
    /// The lowest level the client wants; `None`: send no log messages.
    pub log_threshold: Option<LogLevel>,
    pub logger: Option<String>,
    pub client_capabilities: ClientCapabilities,
    /// 2026-07-28: questions travel as `InputRequiredResult`, answers in `inputResponses`.
    pub inline_input: bool,
    pub input_responses: BTreeMap<String, Value>,
    /// The opened (verified) `requestState`.
    pub state: Option<Value>,
    pub cancelled: CancellationToken,
    /// The task the call may become: its questions and progress go through
    /// the task from then on.
    pub task: TaskSlot,
    /// Answers the client gave through the task, by key: asking again under a
    /// key already answered gets the same answer, as it does across rounds.
    pub task_answers: std::sync::Mutex<BTreeMap<String, Value>>,
    /// The last progress report, as a status message: what the task says it
    /// is doing when the call becomes one.
    pub last_progress: std::sync::Mutex<Option<String>>,
}

impl CallContext {
    /// A question asked from a task: the task shows it as `input_required`
    /// until `tasks/update` brings the answer. An answer that does not fit is
    /// asked for again, as a round would ask it again, under a new key (a key
    /// names one request for the life of a task): `key#2`, then `key#3`.
    async fn ask_in_task(
        &self,
        task: &TaskContext,
        key: &str,
        question: Question,
    ) -> Result<Asked, ToolError> {
        if let Some(answer) = self.answered(key) {
            return Ok(Asked::Answered(answer));
        }
        for attempt in 1..=TASK_ASKS {
            let asked_as = match attempt {
                1 => key.to_owned(),
                n => format!("{key}#{n}"),
            };
            let answer = task
                .request_input(asked_as, question.to_input_request()?)
                .await
                .map_err(|exit| match exit {
                    TaskExit::Cancelled => ToolError::new("the task was cancelled"),
                    TaskExit::Error(error) => ToolError::new(error.message),
                })?;
            if question.fits(&answer) {
                self.task_answers
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .insert(key.to_owned(), answer.clone());
                return Ok(Asked::Answered(answer));
            }
            tracing::debug!("the answer to `{key}` does not answer the question: {answer}");
        }
        Err(ToolError::invalid(format!(
            "the client answered `{key}` {TASK_ASKS} times with something that does not answer the question"
        )))
    }

    fn answered(&self, key: &str) -> Option<Value> {
        self.task_answers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(key)
            .cloned()
    }

    fn declares(&self, capability: &str) -> bool {
        let caps = &self.client_capabilities;
        match capability {
            "elicitation" => caps.elicitation.is_some(),
            "sampling" => caps.sampling.is_some(),
            "roots" => caps.roots.is_some(),
            _ => false,
        }
    }
}

impl SessionControl {
    /// Report progress of the call (`notifications/progress`), when the client
    /// asked for it with a `progressToken`; otherwise nothing is sent.
    /// `progress` should grow with every report.
    /// Once the call is a task, the report becomes the task's status message
    /// instead, which the client reads with `tasks/get`.
    pub async fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let Some(call) = &self.call else { return };
        if call.task.possible() {
            let status = progress_message(progress, total, message);
            if let Some(task) = call.task.get() {
                task.set_status_message(status);
                return;
            }
            *call
                .last_progress
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(status);
        }
        let (Some(peer), Some(token)) = (&call.peer, &call.progress_token) else {
            return;
        };
        let mut params = json!({ "progressToken": token, "progress": progress });
        if let Some(total) = total {
            params["total"] = total.into();
        }
        if let Some(message) = message {
            params["message"] = message.into();
        }
        let Ok(params) = serde_json::from_value::<ProgressNotificationParam>(params) else {
            return;
        };
        if let Err(error) = peer.notify_progress(params).await {
            tracing::debug!("progress notification not sent: {error}");
        }
    }

    /// Send a log message (`notifications/message`) to the client, if it asked
    /// for messages at `level` or above (2026-07-28: the request's `logLevel`;
    /// 2025-11-25: `logging/setLevel`, `info` until set). `data` is a string or any JSON.
    pub async fn log(&self, level: LogLevel, data: impl Into<Value>) {
        let Some(call) = &self.call else { return };
        let Some(peer) = &call.peer else { return };
        if call.log_threshold.is_none_or(|threshold| level < threshold) {
            return;
        }
        let mut params = json!({ "level": level.to_mcp(), "data": data.into() });
        if let Some(logger) = &call.logger {
            params["logger"] = logger.clone().into();
        }
        let Ok(params) = serde_json::from_value::<LoggingMessageNotificationParam>(params) else {
            return;
        };
        if let Err(error) = peer.notify_logging_message(params).await {
            tracing::debug!("log notification not sent: {error}");
        }
    }

    /// Whether the client declared `capability` (`"elicitation"`, `"sampling"`, `"roots"`).
    pub fn client_supports(&self, capability: &str) -> bool {
        self.call
            .as_ref()
            .is_some_and(|call| call.declares(capability))
    }

    /// The client's answer to the question asked under `key` in an earlier
    /// round (2026-07-28 `inputResponses`), as it sent it.
    pub fn answer(&self, key: &str) -> Option<&Value> {
        self.call.as_ref()?.input_responses.get(key)
    }

    /// The state the handler put in its last [`InputRequired`], verified.
    pub fn state(&self) -> Option<&Value> {
        self.call.as_ref()?.state.as_ref()
    }

    /// Ask the client `question`; `key` names it across rounds.
    ///
    /// - An answer of the right shape already sent under `key` → [`Asked::Answered`].
    /// - The client did not declare the capability the question needs → an
    ///   error that reaches the client as JSON-RPC -32021.
    /// - 2026-07-28 → [`Asked::Pending`]: return it, and the client calls again
    ///   with the answer.
    /// - 2025-11-25 and stdio → the request goes to the client now, and its
    ///   answer comes back as [`Asked::Answered`].
    pub async fn ask(&self, key: &str, question: Question) -> Result<Asked, ToolError> {
        let Some(call) = &self.call else {
            return Err(ToolError::new("no client is attached to ask"));
        };
        if let Some(answer) = call.input_responses.get(key)
            && question.fits(answer)
        {
            return Ok(Asked::Answered(answer.clone()));
        }
        if !call.declares(question.capability()) {
            return Err(ToolError::missing_capability(question.capability()));
        }
        if let Some(task) = call.task.get() {
            return call.ask_in_task(&task, key, question).await;
        }
        if let Some(task) = call.task.become_task().await {
            return call.ask_in_task(&task, key, question).await;
        }
        if call.inline_input {
            return Ok(Asked::Pending(InputRequired::new().ask(key, question)));
        }
        let Some(peer) = &call.peer else {
            return Err(ToolError::new("no client is attached to ask"));
        };
        let request = match question.to_input_request()? {
            InputRequest::Elicitation(request) => ServerRequest::ElicitRequest(request),
            InputRequest::CreateMessage(request) => ServerRequest::CreateMessageRequest(request),
            InputRequest::ListRoots(request) => ServerRequest::ListRootsRequest(request),
            _ => return Err(ToolError::new("this question cannot be asked")),
        };
        let answer = tokio::select! {
            answer = peer.send_request(request) => answer,
            () = call.cancelled.cancelled() => return Err(ToolError::new("the call was cancelled")),
        };
        let answer = answer.map_err(|error| {
            ToolError::new(format!("the client did not answer the question: {error}"))
        })?;
        let answer = match answer {
            ClientResult::ElicitResult(result) => serde_json::to_value(result),
            ClientResult::CreateMessageResult(result) => serde_json::to_value(result),
            ClientResult::ListRootsResult(result) => serde_json::to_value(result),
            other => serde_json::to_value(other),
        }
        .map_err(|error| ToolError::new(format!("unreadable answer from the client: {error}")))?;
        Ok(Asked::Answered(answer))
    }
}

/// A progress report as a task's status message: the handler's words, else
/// `3/10` (or `3` with no total).
fn progress_message(progress: f64, total: Option<f64>, message: Option<&str>) -> String {
    match (message, total) {
        (Some(message), _) => message.to_owned(),
        (None, Some(total)) => format!("{progress}/{total}"),
        (None, None) => format!("{progress}"),
    }
}
