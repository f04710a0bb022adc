//! Calls that outlive their request (the `io.modelcontextprotocol/tasks`
//! extension, SEP-2663): a task-supporting call still running
//! [`TASK_AFTER`] after it began, or whose handler asks the client a question,
//! moves into the session's task store, and the request is answered with its
//! task id. The client reads it with `tasks/get`,
//! answers its questions with `tasks/update` and may stop it with
//! `tasks/cancel`; rmcp's [`TaskManager`] keeps the store and answers those.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures_util::FutureExt as _;
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, Task};
use rmcp::task_manager::{TaskExit, TaskManager, TaskOptions};

use crate::call::CallContext;
use crate::tools::{TASK_AFTER, ToolFuture, ToolResult};

/// How long a task is kept: a devtools call may wait on the app for minutes,
/// and the client needs time to collect the result after it ends.
const TTL_MS: u64 = 60 * 60 * 1000;

/// How often the client is told to poll: a devtools call is short, so the
/// result should not wait long on the client's next look.
const POLL_INTERVAL_MS: u64 = 200;

/// Calls running as tasks at most (2026-07-28 tasks extension). A task outlives its
/// request, so the connection cap does not bound it: without this, a client could
/// leave any number of long calls running. A devtools session runs a few at a time;
/// at the cap, a call that would become a task is served within its request
/// instead (which the extension allows), and a question asked in it becomes an
/// input-required round.
pub(crate) const MAX_TASKS: usize = 64;

/// A handler's run: its result, or the protocol error of a handler that
/// panicked (a crash of the tool, not an answer from it).
pub(crate) type Ran = Result<ToolResult, ErrorData>;

/// How a task-supporting call was served.
pub(crate) enum Served {
    /// It finished within its request.
    Now(Ran),
    /// It goes on as this task.
    Task(Task),
}

/// How a task ended, for the caller to turn into its terminal state.
pub(crate) enum Ended {
    Ran(Ran),
    /// `tasks/cancel` arrived first; the handler was dropped.
    Cancelled,
}

/// Runs `call` within the request for up to [`TASK_AFTER`] or until its
/// handler asks a question, then as a task, unless `max_tasks` run already
/// (then within the request to its end).
/// `settle` turns how the task ended into what `tasks/get` shows.
pub(crate) async fn serve<S>(
    tasks: &TaskManager,
    max_tasks: usize,
    call: ToolFuture,
    context: Option<Arc<CallContext>>,
    settle: S,
) -> Served
where
    S: FnOnce(Ended) -> Result<CallToolResult, TaskExit> + Send + 'static,
{
    let mut call = Box::pin(guarded(call));
    let asked = async {
        match &context {
            Some(context) => context.task.wanted().await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        ran = &mut call => return Served::Now(ran),
        () = tokio::time::sleep(TASK_AFTER) => {}
        () = asked => {}
    }
    if tasks.running_task_count() >= max_tasks {
        tracing::warn!(
            "the session runs {max_tasks} task(s), its limit: this call stays in its request"
        );
        if let Some(context) = &context {
            context.task.refuse();
        }
        return Served::Now(call.await);
    }
    let mut options = TaskOptions::new()
        .with_ttl_ms(TTL_MS)
        .with_poll_interval_ms(POLL_INTERVAL_MS);
    let reported = context.as_ref().and_then(|context| {
        context
            .last_progress
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    });
    if let Some(status) = reported {
        options = options.with_status_message(status);
    }
    let task = tasks.spawn(options, move |task| {
        if let Some(context) = &context {
            // From now on the handler asks through the task.
            context.task.set(task.clone());
        }
        Box::pin(async move {
            let ended = tokio::select! {
                // A cancel also ends a handler waiting on a question (with an
                // error): the task is `cancelled` all the same.
                biased;
                () = task.cancelled() => Ended::Cancelled,
                ran = call => Ended::Ran(ran),
            };
            settle(ended)
        })
    });
    Served::Task(task)
}

/// `call`, with a panic in the handler turned into an internal error: a task's
/// operation that panicked would otherwise leave it `working` for good.
pub(crate) async fn guarded(call: ToolFuture) -> Ran {
    AssertUnwindSafe(call)
        .catch_unwind()
        .await
        .map_err(|panic| {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_owned());
            ErrorData::internal_error(format!("the tool's handler panicked: {why}"), None)
        })
}
