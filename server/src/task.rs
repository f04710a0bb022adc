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
    context: Arc<CallContext>,
    settle: S,
) -> Served
where
    S: FnOnce(Ended) -> Result<CallToolResult, TaskExit> + Send + 'static,
{
    let mut call = Box::pin(guarded(call));
    tokio::select! {
        ran = &mut call => return Served::Now(ran),
        () = tokio::time::sleep(TASK_AFTER) => {}
        () = context.task.wanted() => {}
    }
    if tasks.running_task_count() >= max_tasks {
        tracing::warn!(
            "the session runs {max_tasks} task(s), its limit: this call stays in its request"
        );
        context.task.refuse();
        return Served::Now(call.await);
    }
    let mut options = TaskOptions::new()
        .with_ttl_ms(TTL_MS)
        .with_poll_interval_ms(POLL_INTERVAL_MS);
    let reported = context
        .last_progress
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    if let Some(status) = reported {
        options = options.with_status_message(status);
    }
    let task = tasks.spawn(options, move |task| {
        // From now on the handler asks through the task.
        context.task.set(task.clone());
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::time::Duration;

    use rmcp::model::{CallToolResult, TaskPayload, TaskStatus};
    use serde_json::{Value, json};
    use tokio_util::sync::CancellationToken;

    use super::*;
    use crate::call::{SessionControl, TaskSlot};
    use crate::output::{Asked, Question, ToolOutput};

    /// The handle of a call from a client on 2026-07-28 that answers questions
    /// and (`may_become_task`) follows tasks.
    fn control(may_become_task: bool) -> SessionControl {
        SessionControl::default().for_call(Arc::new(CallContext {
            peer: None,
            progress_token: None,
            log_threshold: None,
            logger: None,
            client_capabilities: serde_json::from_value(json!({ "elicitation": {} }))
                .expect("capabilities"),
            inline_input: true,
            input_responses: BTreeMap::new(),
            state: None,
            cancelled: CancellationToken::new(),
            task: TaskSlot::new(may_become_task),
            task_answers: std::sync::Mutex::default(),
            last_progress: std::sync::Mutex::default(),
        }))
    }

    /// A handler that asks `confirm` twice, as one that re-reads an answer
    /// does, and reports both answers.
    fn asking_twice(control: SessionControl) -> ToolFuture {
        Box::pin(async move {
            let schema = json!({ "type": "object", "properties": { "ok": { "type": "boolean" } } });
            let question = || Question::elicit("Sure?", schema.clone());
            let mut seen = Vec::new();
            for _ in 0..2 {
                match control.ask("confirm", question()).await? {
                    Asked::Answered(answer) => seen.push(answer),
                    Asked::Pending(input) => return Ok(ToolOutput::InputRequired(input)),
                }
            }
            Ok(ToolOutput::Json(Value::Array(seen)))
        })
    }

    fn settle(ended: Ended) -> Result<CallToolResult, TaskExit> {
        match ended {
            Ended::Ran(Ok(Ok(ToolOutput::Json(value)))) => Ok(CallToolResult::structured(value)),
            Ended::Ran(other) => Err(TaskExit::Error(ErrorData::internal_error(
                format!("not the JSON of the answers: {other:?}"),
                None,
            ))),
            Ended::Cancelled => Err(TaskExit::Cancelled),
        }
    }

    async fn until(tasks: &TaskManager, id: &str, status: TaskStatus) -> TaskPayload {
        for _ in 0..500 {
            let task = tasks.get_task(id).expect("the task is known");
            if task.status() == status {
                return task.payload;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!(
            "task {id} never became {status:?}: {:?}",
            tasks.get_task(id).ok()
        );
    }

    #[tokio::test]
    async fn a_question_makes_the_call_a_task_that_asks_it_once() {
        let tasks = TaskManager::new();
        let control = control(true);
        let context = control.call.clone().expect("a call's handle");
        let Served::Task(task) = serve(&tasks, 4, asking_twice(control), context, settle).await
        else {
            panic!("a question from a call that may become a task makes it one");
        };
        let TaskPayload::InputRequired { input_requests } =
            until(&tasks, &task.task_id, TaskStatus::InputRequired).await
        else {
            unreachable!("until returns the payload of the status it waited for");
        };
        assert_eq!(input_requests.keys().collect::<Vec<_>>(), ["confirm"]);
        // An answer that does not fit is asked for again, under a new key.
        tasks
            .update_task(
                &task.task_id,
                [("confirm".to_owned(), json!({ "action": "maybe" }))],
            )
            .expect("update");
        let TaskPayload::InputRequired { input_requests } =
            until(&tasks, &task.task_id, TaskStatus::InputRequired).await
        else {
            unreachable!("until returns the payload of the status it waited for");
        };
        assert_eq!(input_requests.keys().collect::<Vec<_>>(), ["confirm#2"]);
        let answer = json!({ "action": "accept", "content": { "ok": true } });
        tasks
            .update_task(&task.task_id, [("confirm#2".to_owned(), answer.clone())])
            .expect("update");
        // Asked again under the same key, the handler gets the same answer
        // without a second question.
        let TaskPayload::Completed { result } =
            until(&tasks, &task.task_id, TaskStatus::Completed).await
        else {
            unreachable!("until returns the payload of the status it waited for");
        };
        assert_eq!(result["structuredContent"], json!([answer, answer]));
    }

    #[tokio::test]
    async fn at_the_limit_a_question_is_an_input_required_round() {
        let tasks = TaskManager::new();
        let control = control(true);
        let context = control.call.clone().expect("a call's handle");
        let Served::Now(Ok(Ok(ToolOutput::InputRequired(input)))) =
            serve(&tasks, 0, asking_twice(control), context, settle).await
        else {
            panic!("with no task to spare, the question is a round of the request");
        };
        assert_eq!(input.questions.keys().collect::<Vec<_>>(), ["confirm"]);
        assert_eq!(tasks.running_task_count(), 0);
    }

    #[tokio::test]
    async fn a_call_that_may_not_become_a_task_asks_within_its_request() {
        let tasks = TaskManager::new();
        let control = control(false);
        let context = control.call.clone().expect("a call's handle");
        let served = serve(&tasks, 4, asking_twice(control), context, settle).await;
        assert!(matches!(
            served,
            Served::Now(Ok(Ok(ToolOutput::InputRequired(_))))
        ));
    }
}
