//! Calls that outlive their request (the `io.modelcontextprotocol/tasks`
//! extension, SEP-2663): a task-supporting call still running
//! [`TASK_AFTER`] after it began, or whose handler asks the client a question,
//! moves into the session's task store, and the request is answered with its
//! task id. The client reads it with `tasks/get`,
//! answers its questions with `tasks/update` and may stop it with
//! `tasks/cancel`; rmcp's [`TaskManager`] keeps the store and answers those,
//! and [`Tasks`] bounds how many it runs and keeps.

use std::collections::VecDeque;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use futures_util::FutureExt as _;
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, Task};
use rmcp::task_manager::{TaskContext, TaskExit, TaskFuture, TaskManager, TaskOptions};

use crate::call::CallContext;
use crate::tools::{TASK_AFTER, ToolFuture, ToolResult};

/// How long a task may run, and how long it is kept after it ends (rmcp uses
/// one TTL for both): a devtools call may wait on the app for minutes, and the
/// client needs time to collect the result after it ends.
const TTL: Duration = Duration::from_secs(60 * 60);

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

/// Tasks kept at most, running or ended. rmcp keeps an ended task, with its
/// whole result, for [`TTL`] after it ends, so without a cap a client that
/// makes tasks and cancels them in a loop grows the session by thousands of
/// tasks a minute, for an hour. rmcp 3.9 can neither drop one task sooner nor
/// keep ended tasks for less time than running ones may run, so at the cap a
/// call is served within its request, as at [`MAX_TASKS`]. The other choice,
/// evicting the oldest ended task, needs a removal rmcp lacks and would let a
/// flood of calls take a result another client has yet to read; this way no
/// result is lost, and a call past the cap loses only its task (a question
/// becomes an input-required round). 256 an hour is a task every 14 s, more
/// than a devtools session makes; a flood fills it, then costs nothing more.
pub(crate) const MAX_KEPT_TASKS: usize = 256;

/// A handler's run: its result, or the protocol error of a handler that
/// panicked (a crash of the tool, not an answer from it).
pub(crate) type Ran = Result<ToolResult, ErrorData>;

/// A call with panics caught ([`guarded`]), boxed so that it can be handed
/// back when it may not become a task.
type Guarded = Pin<Box<dyn Future<Output = Ran> + Send>>;

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

/// The session's tasks: rmcp's store, which answers `tasks/*`, and the limits
/// on what it holds. Clones share the store and the count.
#[derive(Clone)]
pub(crate) struct Tasks {
    store: TaskManager,
    /// Tasks running at most ([`MAX_TASKS`]).
    max_running: usize,
    /// Tasks kept at most, running or ended ([`MAX_KEPT_TASKS`]).
    max_kept: usize,
    /// [`TTL`]; the tests shorten it.
    ttl: Duration,
    /// The tasks the store may still hold, oldest first: rmcp does not say
    /// how many it holds, so they are counted here.
    kept: Arc<Mutex<VecDeque<Kept>>>,
}

/// A task the store may still hold.
struct Kept {
    id: String,
    /// Taken once `spawn` returned, so never earlier than rmcp's own start of
    /// the task (see [`Tasks::forget_gone`]).
    since: Instant,
}

impl Tasks {
    pub(crate) fn new(max_running: usize, max_kept: usize) -> Self {
        Self {
            store: TaskManager::new(),
            max_running,
            max_kept,
            ttl: TTL,
            kept: Arc::default(),
        }
    }

    #[cfg(test)]
    fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// rmcp's store, for `tasks/get`, `tasks/update` and `tasks/cancel`.
    pub(crate) fn store(&self) -> &TaskManager {
        &self.store
    }

    /// `call` as a task, or `call` handed back when the session runs or keeps
    /// as many tasks as it may.
    fn start<S>(
        &self,
        options: TaskOptions,
        call: Guarded,
        context: Arc<CallContext>,
        settle: S,
    ) -> Result<Task, Guarded>
    where
        S: FnOnce(Ended) -> Result<CallToolResult, TaskExit> + Send + 'static,
    {
        // Held until the task is counted, so that calls at once cannot pass
        // the cap together.
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(limit) = self.reached(&mut kept) {
            tracing::warn!("the session {limit}, its limit: this call stays in its request");
            return Err(call);
        }
        let task = self
            .store
            .spawn(options, move |task| as_task(task, call, context, settle));
        kept.push_back(Kept {
            id: task.task_id.clone(),
            since: Instant::now(),
        });
        Ok(task)
    }

    /// The limit reached, if one is, said as "the session …".
    fn reached(&self, kept: &mut VecDeque<Kept>) -> Option<String> {
        if self.store.running_task_count() >= self.max_running {
            return Some(format!("runs {} task(s)", self.max_running));
        }
        if kept.len() >= self.max_kept {
            self.forget_gone(kept);
        }
        (kept.len() >= self.max_kept).then(|| format!("keeps {} task(s)", self.max_kept))
    }

    /// Drops from `kept` the tasks rmcp has let go. rmcp lets a task go no
    /// sooner than `ttl` after it began (an ended one `ttl` after its end, a
    /// running one `ttl` after it is failed for running `ttl`), so only older
    /// ones are asked about. `cancel_task` asks without copying the result, as
    /// `get_task` would, and changes nothing on such a task: rmcp fails one
    /// that ran past its TTL in the same call, before the cancel, and a cancel
    /// of an ended task is only noted.
    fn forget_gone(&self, kept: &mut VecDeque<Kept>) {
        kept.retain(|task| {
            task.since.elapsed() < self.ttl || self.store.cancel_task(&task.id).is_ok()
        });
    }
}

/// Runs `call` within the request for up to [`TASK_AFTER`] or until its
/// handler asks a question, then as a task, unless `tasks` is at one of its
/// limits (then within the request to its end).
/// `settle` turns how the task ended into what `tasks/get` shows.
pub(crate) async fn serve<S>(
    tasks: &Tasks,
    call: ToolFuture,
    context: Arc<CallContext>,
    settle: S,
) -> Served
where
    S: FnOnce(Ended) -> Result<CallToolResult, TaskExit> + Send + 'static,
{
    let mut call: Guarded = Box::pin(guarded(call));
    tokio::select! {
        ran = &mut call => return Served::Now(ran),
        () = tokio::time::sleep(TASK_AFTER) => {}
        () = context.task.wanted() => {}
    }
    let options = task_options(tasks.ttl, &context);
    match tasks.start(options, call, context.clone(), settle) {
        Ok(task) => Served::Task(task),
        Err(call) => {
            context.task.refuse();
            Served::Now(call.await)
        }
    }
}

/// The task's TTL and poll interval, and the progress reported so far as its
/// status message.
fn task_options(ttl: Duration, context: &CallContext) -> TaskOptions {
    let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
    let options = TaskOptions::new()
        .with_ttl_ms(ttl_ms)
        .with_poll_interval_ms(POLL_INTERVAL_MS);
    let reported = context
        .last_progress
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    match reported {
        Some(status) => options.with_status_message(status),
        None => options,
    }
}

/// The task's operation: `call`, unless `tasks/cancel` comes first, ended as
/// `settle` says.
fn as_task<S>(task: TaskContext, call: Guarded, context: Arc<CallContext>, settle: S) -> TaskFuture
where
    S: FnOnce(Ended) -> Result<CallToolResult, TaskExit> + Send + 'static,
{
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
}

/// `call`, with a panic in the handler turned into an internal error: a task's
/// operation that panicked would otherwise leave it `working` for good.
pub(crate) async fn guarded(call: ToolFuture) -> Ran {
    AssertUnwindSafe(call)
        .catch_unwind()
        .await
        .map_err(|panic| {
            let why = mur_lockfile::panic_message(&*panic);
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

    async fn until(tasks: &Tasks, id: &str, status: TaskStatus) -> TaskPayload {
        for _ in 0..500 {
            let task = tasks.store().get_task(id).expect("the task is known");
            if task.status() == status {
                return task.payload;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!(
            "task {id} never became {status:?}: {:?}",
            tasks.store().get_task(id).ok()
        );
    }

    #[tokio::test]
    async fn a_question_makes_the_call_a_task_that_asks_it_once() {
        let tasks = Tasks::new(4, 4);
        let control = control(true);
        let context = control.call.clone().expect("a call's handle");
        let Served::Task(task) = serve(&tasks, asking_twice(control), context, settle).await else {
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
            .store()
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
            .store()
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
        let tasks = Tasks::new(0, 4);
        let control = control(true);
        let context = control.call.clone().expect("a call's handle");
        let Served::Now(Ok(Ok(ToolOutput::InputRequired(input)))) =
            serve(&tasks, asking_twice(control), context, settle).await
        else {
            panic!("with no task to spare, the question is a round of the request");
        };
        assert_eq!(input.questions.keys().collect::<Vec<_>>(), ["confirm"]);
        assert_eq!(tasks.store().running_task_count(), 0);
    }

    #[tokio::test]
    async fn a_call_that_may_not_become_a_task_asks_within_its_request() {
        let tasks = Tasks::new(4, 4);
        let control = control(false);
        let context = control.call.clone().expect("a call's handle");
        let served = serve(&tasks, asking_twice(control), context, settle).await;
        assert!(matches!(
            served,
            Served::Now(Ok(Ok(ToolOutput::InputRequired(_))))
        ));
    }

    /// A call that asks a question, and so becomes a task at once if it may.
    async fn ask(tasks: &Tasks) -> Served {
        let control = control(true);
        let context = control.call.clone().expect("a call's handle");
        serve(tasks, asking_twice(control), context, settle).await
    }

    /// A task that asked, then was cancelled, until it has ended.
    async fn ended_task(tasks: &Tasks) -> String {
        let Served::Task(task) = ask(tasks).await else {
            panic!("a question from a call that may become a task makes it one");
        };
        tasks.store().cancel_task(&task.task_id).expect("cancel");
        until(tasks, &task.task_id, TaskStatus::Cancelled).await;
        task.task_id
    }

    #[tokio::test]
    async fn ended_tasks_count_toward_the_tasks_kept_and_stay_readable() {
        let tasks = Tasks::new(4, 2);
        let first = ended_task(&tasks).await;
        let second = ended_task(&tasks).await;
        assert_eq!(tasks.store().running_task_count(), 0);
        // Nothing runs, but two are kept: the next call stays in its request.
        let Served::Now(Ok(Ok(ToolOutput::InputRequired(_)))) = ask(&tasks).await else {
            panic!("with two tasks kept, the question is a round of the request");
        };
        // and no result was dropped to make room.
        for id in [first, second] {
            let task = tasks.store().get_task(&id).expect("still kept");
            assert_eq!(task.status(), TaskStatus::Cancelled);
        }
    }

    #[tokio::test]
    async fn a_task_rmcp_let_go_no_longer_counts() {
        // rmcp lets an ended task go one TTL after it ended.
        let ttl = Duration::from_millis(1);
        let tasks = Tasks::new(4, 1).with_ttl(ttl);
        let Served::Task(first) = ask(&tasks).await else {
            panic!("the first call becomes a task");
        };
        // rmcp fails a task that ran past its TTL when it next looks (here),
        // and lets it go one TTL later.
        tokio::time::sleep(ttl * 20).await;
        let failed = tasks.store().get_task(&first.task_id).expect("kept");
        assert_eq!(failed.status(), TaskStatus::Failed);
        tokio::time::sleep(ttl * 20).await;
        let Served::Task(second) = ask(&tasks).await else {
            panic!("the task let go makes room for another");
        };
        assert!(tasks.store().get_task(&first.task_id).is_err());
        assert_ne!(first.task_id, second.task_id);
    }
}
