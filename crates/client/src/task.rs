//! Tools that run only as tasks (MCP 2025-11-25, "Tasks"): a tool whose
//! `tools/list` entry says `execution.taskSupport: "required"` is called with a
//! `task` in its params; the server answers at once with the task it created,
//! and mur waits for its outcome with `tasks/result` (which the server holds
//! until the task ends, and on whose stream it asks its questions), reading
//! `tasks/get` every `pollInterval` meanwhile to show the task's status. The
//! caller sees the tool's own result, as for any call. A call that ends before
//! the task does (the timeout, a failure) cancels it on the way out, so no
//! task of mur's runs on unwatched.
//!
//! The follow-up requests go the way the call went: in its legacy session, or
//! stateless in the modern revision the server answered (a bridge in front of
//! a 2025-11-25 stdio server).
//!
//! On the 2026-07-28 revision tasks are an extension
//! (`io.modelcontextprotocol/tasks`, SEP-2663), which mur declares in every
//! modern request: the server decides which calls become tasks and answers
//! them with a flat `resultType: "task"`. There is no `tasks/result`: mur reads
//! `tasks/get` every `pollIntervalMs` until the task ends, and takes the
//! result (or error) inlined in it; a task that waits on a question shows it
//! in `inputRequests`, and mur's answer (`--answer`, else the person at the
//! terminal) goes back with `tasks/update`, within the call's bounds on the
//! server's questions (100 rounds and 1,000 questions, however they come:
//! `MAX_ROUNDS`, `MAX_QUESTIONS`), as a server that keeps asking must not hold
//! mur (or its memory) without end. The task is let go only once `tasks/get`
//! shows it ended: a refused `tasks/get` or `tasks/update` (exit 5, worded as
//! the refusal it is, not as the tool's failure), a status the extension does
//! not define or a question too many ends the call, and so cancels the task. A
//! `resultType: "task"` that is no readable task is a
//! malformed answer (exit 2), never printed as a result.

use std::time::Duration;

use serde_json::{Value, json};

use crate::request::MODERN_VERSION;
use crate::response::{Reply, snippet};
use crate::session::{Pending, Route};
use crate::{Client, Step, TaskStatus};
use mur_core::Error;
use mur_core::Result;

/// The id of the `tasks/result` request; each `tasks/get` takes the next one up.
const RESULT_ID: u64 = 4;
/// How often to read the task's status when the server names no interval.
pub const DEFAULT_POLL: Duration = Duration::from_secs(1);
/// Bounds on the server's `pollInterval`: not a busy loop, not blind for long.
pub const POLL_BOUNDS: (Duration, Duration) = (Duration::from_millis(100), Duration::from_secs(5));
/// Whether a tool, as `tools/list` gives it, runs only as a task.
pub fn required(tool: &Value) -> bool {
    tool["execution"]["taskSupport"] == "required"
}

/// A task the server created for a call.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Created {
    pub id: String,
    /// How often to read its status.
    pub poll: Duration,
    /// Its status when it was created.
    pub status: TaskStatus,
    /// The wire it was created on, which decides how it is followed.
    pub wire: Wire,
}

/// The two wires of tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wire {
    /// 2025-11-25: `{task: {…}}`, the outcome from `tasks/result`.
    Nested,
    /// The 2026-07-28 extension: flat `resultType: "task"`, the outcome
    /// inlined in `tasks/get`, answers through `tasks/update`.
    Extension,
}

/// The task a `tools/call` reply created (a `CreateTaskResult`), if it is
/// one; `Err` says why a reply of the extension's `resultType: "task"` is no
/// task mur can read.
pub(crate) fn created(reply: &Reply) -> Result<Option<Created>, String> {
    let Reply::Result(result) = reply else {
        return Ok(None);
    };
    if result["resultType"] == "task" {
        return extension_task(result).map(Some);
    }
    // 2025-11-25: a `task` without an id is no task to follow (a caller that
    // asked for it itself gets it as it is).
    Ok(result.get("task").and_then(|task| {
        Some(Created {
            id: task["taskId"].as_str()?.to_owned(),
            poll: poll_interval(task, "pollInterval"),
            status: TaskStatus::of(task),
            wire: Wire::Nested,
        })
    }))
}

/// The extension's flat task: an id, and a status the extension defines.
fn extension_task(task: &Value) -> Result<Created, String> {
    let id = match &task["taskId"] {
        Value::String(id) if !id.is_empty() => id.clone(),
        other => return Err(format!("its `taskId` is {}, not a string", shown(other))),
    };
    let status = TaskStatus::of(task);
    if !status.defined() {
        return Err(format!(
            "its `status` is {}, which the tasks extension does not define",
            shown(&task["status"])
        ));
    }
    Ok(Created {
        id,
        poll: poll_interval(task, "pollIntervalMs"),
        status,
        wire: Wire::Extension,
    })
}

/// The task's interval under `field` (`pollInterval`, `pollIntervalMs`), held to
/// [`POLL_BOUNDS`]; [`DEFAULT_POLL`] when it names none.
pub fn poll_interval(task: &Value, field: &str) -> Duration {
    task[field]
        .as_u64()
        .map_or(DEFAULT_POLL, Duration::from_millis)
        .clamp(POLL_BOUNDS.0, POLL_BOUNDS.1)
}

/// The task a reply about task `asked` (`tasks/get`'s, `tasks/update`'s) names
/// instead, if it names another: its status, or outcome, is not the asked one's.
pub fn about_another<'v>(asked: &Value, reply: &'v Value) -> Option<&'v Value> {
    reply.get("taskId").filter(|named| *named != asked)
}

/// A server's JSON value in a message: one short line.
fn shown(value: &Value) -> String {
    snippet(value.to_string().as_bytes())
}

/// A server's text (a task id, a status) in a message: one short line.
fn short(text: &str) -> String {
    snippet(text.as_bytes())
}

/// The keys of the questions of a task mur answered: each is remembered (a
/// poll may show it again before the server took the answer).
type Answered = std::collections::BTreeSet<String>;

impl Client<'_> {
    /// `params` with a `task` asking for one, when `method` calls a tool that
    /// runs only as a task and the caller did not ask for one itself (a
    /// caller that did, like an agent through the proxy, gets the task back).
    pub(crate) fn as_task(&self, method: &str, params: Option<&Value>) -> Option<Value> {
        let tool = self
            .tool
            .filter(|tool| method == "tools/call" && required(tool))?;
        let mut params = params.cloned().unwrap_or_else(|| json!({}));
        let fields = params.as_object_mut()?;
        if fields.contains_key("task") {
            return None;
        }
        let ttl = u64::try_from(self.budget.as_millis()).unwrap_or(u64::MAX);
        fields.insert("task".into(), json!({ "ttl": ttl }));
        tracing::debug!(
            "tool `{}` runs only as a task: calling it as one",
            tool["name"].as_str().unwrap_or_default()
        );
        Some(params)
    }

    /// The call's reply: when it is a task mur asked for (`augmented`, the
    /// 2025-11-25 wire) or one of the extension mur declared, the task's
    /// outcome, waited for with its status shown meanwhile. A 2025-11-25 task
    /// the caller asked for itself (an agent through the proxy) is its to follow.
    pub(crate) async fn follow(&self, reply: Reply, augmented: bool) -> Result<Reply> {
        let created = created(&reply).map_err(|why| {
            Error::transport(format!(
                "`{}` answered with a task mur cannot read: {why}",
                self.endpoint
            ))
        })?;
        match created {
            Some(task) if augmented || task.wire == Wire::Extension => self.follow_task(task).await,
            _ => Ok(reply),
        }
    }

    async fn follow_task(&self, task: Created) -> Result<Reply> {
        let route = self.route();
        self.keep_task(Some(Pending {
            route: route.clone(),
            id: task.id.clone(),
            shown: String::new(),
            status: task.status.status.clone(),
        }));
        self.events.task(&task.status);
        match task.wire {
            Wire::Nested => {
                let outcome = self.wait_nested(&route, &task).await;
                // `tasks/result` answers with the task's own outcome: it is over.
                if outcome.is_ok() {
                    self.keep_task(None);
                }
                outcome
            }
            // Let go there once `tasks/get` shows the task ended, and only then.
            Wire::Extension => self.poll_extension(&route, &task).await,
        }
    }

    /// 2025-11-25: waits on `tasks/result` while `tasks/get` shows the status.
    async fn wait_nested(&self, route: &Route, task: &Created) -> Result<Reply> {
        let params = json!({ "taskId": task.id });
        let result = std::pin::pin!(self.ask(route, RESULT_ID, "tasks/result", &params));
        let watch = std::pin::pin!(self.watch(route, task));
        match futures_util::future::select(result, watch).await {
            futures_util::future::Either::Left((reply, _)) => reply,
            futures_util::future::Either::Right(((), result)) => result.await,
        }
    }

    /// The extension: reads `tasks/get` (soon, then every poll interval), answers the
    /// questions it shows, and ends with the outcome it inlines.
    async fn poll_extension(&self, route: &Route, task: &Created) -> Result<Reply> {
        let params = json!({ "taskId": task.id });
        let mut answered = Answered::new();
        let mut id = RESULT_ID;
        // A task that ends soon is read soon: the first look after the bound's
        // floor, each next one twice as late, up to the server's interval (a
        // server's default of a second would add a second to every quick call).
        let mut wait = task.poll.min(POLL_BOUNDS.0);
        loop {
            id += 1;
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(task.poll);
            let now = self.about_task(route, id, "tasks/get", &params).await?;
            // Another task's status (or outcome) is not this one's.
            if let Some(other) = about_another(&params["taskId"], &now) {
                return Err(self.other_task(&task.id, other));
            }
            self.show(&now);
            match now["status"].as_str().unwrap_or_default() {
                "working" => {}
                "input_required" => {
                    self.answer_task(route, id, task, &now, &mut answered)
                        .await?;
                }
                status @ ("completed" | "failed" | "cancelled") => {
                    // Over as far as the server is concerned: nothing to cancel.
                    self.keep_task(None);
                    return self.ended(&task.id, &now, status);
                }
                _ => return Err(self.undefined_status(&task.id, &now["status"])),
            }
        }
    }

    /// The outcome of a task `tasks/get` shows ended with `status`.
    fn ended(&self, id: &str, task: &Value, status: &str) -> Result<Reply> {
        match status {
            "completed" => self.inlined(id, task, "result").map(Reply::Result),
            "failed" => self.inlined(id, task, "error").map(Reply::Error),
            _ => Err(self.cancelled_by_server(id)),
        }
    }

    /// Answers the questions a waiting task shows that were not answered
    /// yet (a poll read before the server took answers in shows them again),
    /// with `tasks/update`, within the call's bounds on questions (counted before
    /// any is copied or answered: [`Client::admit`]).
    async fn answer_task(
        &self,
        route: &Route,
        id: u64,
        task: &Created,
        now: &Value,
        answered: &mut Answered,
    ) -> Result<()> {
        let unanswered: Vec<(&String, &Value)> = now["inputRequests"]
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(key, _)| !answered.contains(*key))
            .collect();
        if unanswered.is_empty() {
            return Ok(());
        }
        self.admit(1, unanswered.len(), || format!("task {}", short(&task.id)))?;
        let responses = self.responses(unanswered.iter().copied())?;
        answered.extend(unanswered.into_iter().map(|(key, _)| key.clone()));
        let update = json!({ "taskId": task.id, "inputResponses": responses });
        self.about_task(route, id, "tasks/update", &update)
            .await
            .map(drop)
    }

    /// mur's own request `method` about a task (`tasks/get`, `tasks/update`):
    /// its result, or the server's refusal as the call's error.
    async fn about_task(
        &self,
        route: &Route,
        id: u64,
        method: &str,
        params: &Value,
    ) -> Result<Value> {
        match self.ask(route, id, method, params).await? {
            Reply::Result(result) => Ok(result),
            Reply::Error(error) => Err(self.refused(method, &params["taskId"], &error)),
        }
    }

    /// A JSON-RPC error to mur's own request about a task: exit 5 with the
    /// error on stdout, as any JSON-RPC error, but worded as the refusal it
    /// is: the tool did not fail, and the task may run on (it is cancelled).
    fn refused(&self, method: &str, task_id: &Value, error: &Value) -> Error {
        let message = error["message"].as_str().unwrap_or("(no message)");
        let code = error["code"]
            .as_i64()
            .map(|code| format!(" (JSON-RPC error {code})"))
            .unwrap_or_default();
        let body = json!({ "error": error });
        let stdout = if self.pretty {
            serde_json::to_string_pretty(&body)
        } else {
            serde_json::to_string(&body)
        };
        Error::tool_failed(format!(
            "`{}` refused `{method}` of task {}: {}{code}",
            self.endpoint,
            short(task_id.as_str().unwrap_or_default()),
            snippet(message.as_bytes())
        ))
        .with_stdout(format!("{}\n", stdout.unwrap_or_default()).into_bytes())
    }

    /// A task in a status the extension does not define: mur cannot tell
    /// whether it ends, so the call ends (and cancels it).
    /// `tasks/get` about task `id` answered about task `other`.
    fn other_task(&self, id: &str, other: &Value) -> Error {
        Error::transport(format!(
            "`{}` answered `tasks/get` for task {} about task {}",
            self.endpoint,
            short(id),
            other.as_str().map_or_else(|| shown(other), short)
        ))
    }

    fn undefined_status(&self, id: &str, status: &Value) -> Error {
        Error::transport(format!(
            "`{}` says task {} is {}, a status the tasks extension does not define",
            self.endpoint,
            short(id),
            shown(status)
        ))
    }

    /// The outcome a finished task inlines under `field` (`result` or `error`):
    /// an object, or the server broke the extension's wire.
    fn inlined(&self, id: &str, task: &Value, field: &str) -> Result<Value> {
        match task.get(field) {
            Some(outcome @ Value::Object(_)) => Ok(outcome.clone()),
            _ => Err(Error::transport(format!(
                "`{}` says task {} is {} but gives no `{field}` object with it",
                self.endpoint,
                short(id),
                task["status"].as_str().unwrap_or_default()
            ))),
        }
    }

    /// A task the server cancelled (mur cancels only on its way out).
    fn cancelled_by_server(&self, id: &str) -> Error {
        Error::tool_failed(format!(
            "`{}` cancelled task {} before it ended; the tool gave no result",
            self.endpoint,
            short(id)
        ))
    }

    /// The way the call went: its legacy session if it opened one, else the
    /// modern revision the server answered in.
    fn route(&self) -> Route {
        let session = self.session.lock().ok().and_then(|slot| slot.clone());
        match session {
            Some(session) => Route::Session(session),
            None => Route::Modern(
                self.spoken
                    .lock()
                    .ok()
                    .and_then(|v| v.clone())
                    .unwrap_or_else(|| MODERN_VERSION.to_owned()),
            ),
        }
    }

    /// One request about the task, the way the call went.
    async fn ask(&self, route: &Route, id: u64, method: &str, params: &Value) -> Result<Reply> {
        match route {
            Route::Session(session) => self.in_session(session, id, method, Some(params)).await,
            Route::Modern(version) => match self.modern(method, Some(params), version).await? {
                Step::Done(reply) => Ok(reply),
                Step::Legacy => Err(self.not_speaking(version)),
            },
        }
    }

    /// Reads the task's status every `poll` and shows it, until it reaches an
    /// end (or `tasks/get` fails: the result will say why). A server that
    /// also notifies (`notifications/tasks/status`) is shown sooner
    /// ([`Client::notified_task`]); the same status twice is shown once.
    async fn watch(&self, route: &Route, task: &Created) {
        let params = json!({ "taskId": task.id });
        for id in RESULT_ID + 1.. {
            tokio::time::sleep(task.poll).await;
            let Ok(Reply::Result(now)) = self.ask(route, id, "tasks/get", &params).await else {
                return;
            };
            self.show(&now);
            if TaskStatus::of(&now).ended() {
                return;
            }
        }
    }

    /// A `notifications/tasks/status`: shown when it is about the task this
    /// call waits for.
    pub(crate) fn notified_task(&self, params: &Value) {
        self.show(params);
    }

    /// Shows `task`'s status if it is the task this call waits for and no
    /// later status of it was shown.
    fn show(&self, task: &Value) {
        let updated = task["lastUpdatedAt"].as_str().unwrap_or_default();
        let newer = self
            .task
            .lock()
            .ok()
            .is_some_and(|mut slot| match slot.as_mut() {
                Some(pending) if task["taskId"].as_str() == Some(&pending.id) => {
                    // Timestamps of one server, in one format: they order as text.
                    let newer = updated >= pending.shown.as_str();
                    if newer {
                        pending.shown = updated.to_owned();
                        pending.status = TaskStatus::of(task).status;
                    }
                    newer
                }
                _ => false,
            });
        if newer {
            self.events.task(&TaskStatus::of(task));
        }
    }

    fn keep_task(&self, task: Option<Pending>) {
        if let Ok(mut slot) = self.task.lock() {
            *slot = task;
        }
    }

    /// The id and last status of the task this call still waits for, if any.
    pub(crate) fn pending_task(&self) -> Option<(String, String)> {
        let slot = self.task.lock().ok()?;
        slot.as_ref()
            .map(|pending| (pending.id.clone(), pending.status.clone()))
    }

    /// Cancels the task this call is still waiting for, if any (the call
    /// timed out or failed), by `deadline`: the call's farewell allowance,
    /// which ending a legacy session shares.
    pub(crate) async fn cancel_task(&self, deadline: tokio::time::Instant) {
        let pending = self.task.lock().ok().and_then(|mut slot| slot.take());
        let Some(Pending { route, id, .. }) = pending else {
            return;
        };
        tracing::debug!("cancelling task {id}: the call ended before it did");
        let params = json!({ "taskId": id });
        let cancel = self.ask(&route, u64::MAX, "tasks/cancel", &params);
        match tokio::time::timeout_at(deadline, cancel).await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => tracing::debug!("cancelling the task failed: {}", e.message()),
            Err(_) => tracing::debug!("cancelling the task took too long; left to its ttl"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_create_task_result_is_read_with_its_poll_interval_bounded() {
        let reply = |task: Value| Reply::Result(json!({ "task": task }));
        let created = |reply: &Reply| created(reply).expect("readable");
        assert_eq!(
            created(&reply(
                json!({ "taskId": "t1", "status": "working", "pollInterval": 250 })
            )),
            Some(Created {
                id: "t1".into(),
                poll: Duration::from_millis(250),
                status: TaskStatus {
                    status: "working".into(),
                    message: None
                },
                wire: Wire::Nested,
            })
        );
        // The 2026-07-28 extension's task is flat, its interval in `pollIntervalMs`.
        let flat = json!({
            "resultType": "task", "taskId": "t2", "status": "working",
            "statusMessage": "computing", "pollIntervalMs": 200, "ttlMs": 3_600_000
        });
        assert_eq!(
            created(&Reply::Result(flat)),
            Some(Created {
                id: "t2".into(),
                poll: Duration::from_millis(200),
                status: TaskStatus {
                    status: "working".into(),
                    message: Some("computing".into())
                },
                wire: Wire::Extension,
            })
        );
        // A v1 interval name on a flat task is not read as the extension's.
        let v1_name = json!({ "resultType": "task", "taskId": "t3", "status": "working", "pollInterval": 250 });
        assert_eq!(
            created(&Reply::Result(v1_name)).map(|c| c.poll),
            Some(DEFAULT_POLL)
        );
        let poll = |interval: Value| {
            created(&reply(json!({ "taskId": "t", "pollInterval": interval }))).map(|c| c.poll)
        };
        assert_eq!(poll(json!(1)), Some(POLL_BOUNDS.0));
        assert_eq!(poll(json!(3_600_000)), Some(POLL_BOUNDS.1));
        assert_eq!(poll(Value::Null), Some(DEFAULT_POLL));
        // A tool's own result, or a task without an id, is no task to follow.
        assert_eq!(created(&Reply::Result(json!({ "content": [] }))), None);
        assert_eq!(created(&reply(json!({ "status": "working" }))), None);
        assert_eq!(created(&Reply::Error(json!({ "code": -32601 }))), None);
    }

    #[test]
    fn an_extension_task_without_a_string_id_or_a_defined_status_is_unreadable() {
        let flat = |fields: Value| {
            let mut task = json!({ "resultType": "task", "taskId": "t", "status": "working" });
            if let (Some(task), Some(fields)) = (task.as_object_mut(), fields.as_object()) {
                task.extend(fields.clone());
            }
            created(&Reply::Result(task))
        };
        assert_eq!(
            flat(json!({ "taskId": 12345 })),
            Err("its `taskId` is 12345, not a string".into())
        );
        assert_eq!(
            flat(json!({ "taskId": "" })),
            Err("its `taskId` is \"\", not a string".into())
        );
        assert_eq!(
            flat(json!({ "status": "paused" })),
            Err("its `status` is \"paused\", which the tasks extension does not define".into())
        );
        assert_eq!(
            flat(json!({ "status": null })),
            Err("its `status` is null, which the tasks extension does not define".into())
        );
        assert!(matches!(flat(json!({})), Ok(Some(_))));
    }

    #[test]
    fn only_a_tool_that_requires_a_task_is_called_as_one() {
        let tool = |support: &str| json!({ "name": "t", "execution": { "taskSupport": support } });
        assert!(required(&tool("required")));
        assert!(!required(&tool("optional")));
        assert!(!required(&tool("forbidden")));
        assert!(!required(&json!({ "name": "t" })));
    }
}
