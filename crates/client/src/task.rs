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
//! terminal) goes back with `tasks/update`.

use std::time::Duration;

use serde_json::{Value, json};

use crate::request::MODERN_VERSION;
use crate::response::Reply;
use crate::session::{Pending, Route};
use crate::{Client, FAREWELL_LIMIT, Step, TaskStatus};
use mur_core::Error;
use mur_core::Result;

/// The id of the `tasks/result` request; each `tasks/get` takes the next one up.
const RESULT_ID: u64 = 4;
/// How often to read the task's status when the server names no interval.
const DEFAULT_POLL: Duration = Duration::from_secs(1);
/// Bounds on the server's `pollInterval`: not a busy loop, not blind for long.
const POLL_BOUNDS: (Duration, Duration) = (Duration::from_millis(100), Duration::from_secs(5));

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

/// The task a `tools/call` reply created (a `CreateTaskResult`), if it is one.
pub(crate) fn created(reply: &Reply) -> Option<Created> {
    let Reply::Result(result) = reply else {
        return None;
    };
    let (task, wire, interval) = if result["resultType"] == "task" {
        (result, Wire::Extension, "pollIntervalMs")
    } else {
        (result.get("task")?, Wire::Nested, "pollInterval")
    };
    let poll = task[interval]
        .as_u64()
        .map_or(DEFAULT_POLL, Duration::from_millis)
        .clamp(POLL_BOUNDS.0, POLL_BOUNDS.1);
    Some(Created {
        id: task["taskId"].as_str()?.to_owned(),
        poll,
        status: TaskStatus::of(task),
        wire,
    })
}

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
        match created(&reply) {
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
        }));
        self.events.task(&task.status);
        let outcome = match task.wire {
            Wire::Nested => self.wait_nested(&route, &task).await,
            Wire::Extension => self.poll_extension(&route, &task).await,
        };
        // An outcome from the server: the task is over as far as it is concerned.
        if outcome.is_ok() {
            self.keep_task(None);
        }
        outcome
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
        let mut answered = std::collections::BTreeSet::new();
        let mut id = RESULT_ID;
        // A task that ends soon is read soon: the first look after the bound's
        // floor, each next one twice as late, up to the server's interval (a
        // server's default of a second would add a second to every quick call).
        let mut wait = task.poll.min(POLL_BOUNDS.0);
        loop {
            id += 1;
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(task.poll);
            let now = match self.ask(route, id, "tasks/get", &params).await? {
                Reply::Result(now) => now,
                error => return Ok(error),
            };
            self.show(&now);
            match now["status"].as_str().unwrap_or_default() {
                "completed" => return self.inlined(&task.id, &now, "result").map(Reply::Result),
                "failed" => return self.inlined(&task.id, &now, "error").map(Reply::Error),
                "cancelled" => return Err(self.cancelled_by_server(&task.id)),
                "input_required" => {
                    let asked = self.answer_task(route, id, &task.id, &now, &mut answered);
                    if let Some(refused) = asked.await? {
                        return Ok(refused);
                    }
                }
                _ => {}
            }
        }
    }

    /// Answers the questions a waiting task shows that were not answered
    /// yet (a poll read before the server took answers in shows them again),
    /// with `tasks/update`; the server's error if it refuses the answers.
    async fn answer_task(
        &self,
        route: &Route,
        id: u64,
        task_id: &str,
        task: &Value,
        answered: &mut std::collections::BTreeSet<String>,
    ) -> Result<Option<Reply>> {
        let unanswered: serde_json::Map<String, Value> = task["inputRequests"]
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(key, _)| !answered.contains(*key))
            .map(|(key, request)| (key.clone(), request.clone()))
            .collect();
        if unanswered.is_empty() {
            return Ok(None);
        }
        let responses = self.responses(&unanswered)?;
        answered.extend(unanswered.into_iter().map(|(key, _)| key));
        let update = json!({ "taskId": task_id, "inputResponses": responses });
        Ok(match self.ask(route, id, "tasks/update", &update).await? {
            Reply::Error(error) => Some(Reply::Error(error)),
            Reply::Result(_) => None,
        })
    }

    /// The outcome a finished task inlines under `field` (`result` or `error`):
    /// an object, or the server broke the extension's wire.
    fn inlined(&self, id: &str, task: &Value, field: &str) -> Result<Value> {
        match task.get(field) {
            Some(outcome @ Value::Object(_)) => Ok(outcome.clone()),
            _ => Err(Error::transport(format!(
                "`{}` says task {id} is {} but gives no `{field}` object with it",
                self.endpoint,
                task["status"].as_str().unwrap_or_default()
            ))),
        }
    }

    /// A task the server cancelled (mur cancels only on its way out).
    fn cancelled_by_server(&self, id: &str) -> Error {
        Error::tool_failed(format!(
            "`{}` cancelled task {id} before it ended; the tool gave no result",
            self.endpoint
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

    /// Cancels the task this call is still waiting for, if any (the call
    /// timed out or failed), with its own short bound.
    pub(crate) async fn cancel_task(&self) {
        let pending = self.task.lock().ok().and_then(|mut slot| slot.take());
        let Some(Pending { route, id, .. }) = pending else {
            return;
        };
        tracing::debug!("cancelling task {id}: the call ended before it did");
        let params = json!({ "taskId": id });
        let cancel = self.ask(&route, u64::MAX, "tasks/cancel", &params);
        match tokio::time::timeout(FAREWELL_LIMIT, cancel).await {
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
        let v1_name = json!({ "resultType": "task", "taskId": "t3", "pollInterval": 250 });
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
    fn only_a_tool_that_requires_a_task_is_called_as_one() {
        let tool = |support: &str| json!({ "name": "t", "execution": { "taskSupport": support } });
        assert!(required(&tool("required")));
        assert!(!required(&tool("optional")));
        assert!(!required(&tool("forbidden")));
        assert!(!required(&json!({ "name": "t" })));
    }
}
