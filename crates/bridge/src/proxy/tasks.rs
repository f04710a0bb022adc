//! The tasks of a 2026-07-28 session, for a client of 2025-11-25: `tasks/result` and
//! `tasks/cancel`, which the tasks extension answers otherwise, answered as 2025-11-25
//! asks from the session's `tasks/get` ([`about_task_of_older`]), the questions a task
//! waits on asked of the client meanwhile and its answers sent on with `tasks/update`
//! — at most `MAX_ROUNDS` rounds and `MAX_QUESTIONS` questions, as mur's client
//! answers of one call, past which the task is cancelled and the client told so —; and
//! a task in 2025-11-25's form ([`task_of_2025`]).

use std::time::{Duration, Instant};

use mur_client::task::{self, POLL_BOUNDS};
use mur_client::tool_result::without_protocol_fields;
use mur_client::{Reply, TaskStatus};
use mur_core::Result;
use mur_lockfile::jsonrpc::{self, INTERNAL_ERROR};
use serde_json::{Value, json};

use super::upstream::{Asking, LOOK_EVERY};

/// The `_meta` key 2025-11-25 names a task with in `tasks/result`: in its result, and in
/// the questions asked while it waits.
const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// `tasks/result` or `tasks/cancel` (`method`) of a client of 2025-11-25 (or before),
/// about a task of a session of 2026-07-28, whose tasks extension has no `tasks/result`
/// (the outcome is inlined in `tasks/get`) and acknowledges `tasks/cancel` with `{}`:
/// answered as 2025-11-25 asks, from the session's `tasks/get`, read every poll
/// interval until the task ends, for as long as the client's request stands (its
/// cancel, or the proxy giving it up, ends the wait: [`Asking::cancelled`]).
///
/// - `tasks/result`: once the task ended, its outcome as the call would have answered
///   it — the result, with the task named in `_meta` ([`RELATED_TASK`]), or the error;
///   a task cancelled has neither, and is answered an error saying so. Meanwhile the
///   questions the task waits on (`input_required`, its `inputRequests`) are asked of
///   the client as 2025-11-25 asks them there, and the answers sent on with
///   `tasks/update` ([`answer_questions`]); a task that keeps asking (past
///   `MAX_ROUNDS` or `MAX_QUESTIONS`) is cancelled, and answered an error saying so.
/// - `tasks/cancel`: a task that ended already is refused (-32602, as 2025-11-25 asks);
///   else it is cancelled, and once it ended (in `cancelled`, unless it finished
///   first), the task is answered in 2025-11-25's form ([`task_of_2025`]).
///
/// A session whose `tasks/get` answers no task of the extension (one of 2025-11-25 has
/// both methods itself) is sent the request as it came; one that answers an error (no
/// such task) has it passed on.
pub(super) fn about_task_of_older(
    method: &str,
    params: Option<&Value>,
    asking: &Asking<'_>,
) -> Result<Reply> {
    let Some(id) = params.and_then(|p| p.get("taskId")) else {
        return asking.call(method, params);
    };
    let about = json!({ "taskId": id });
    let task = match asking.call("tasks/get", Some(&about))? {
        Reply::Result(task) if of_the_extension(&task) => task,
        Reply::Result(_) => return asking.call(method, params),
        refused @ Reply::Error(_) => return Ok(refused),
    };
    if method == "tasks/result" {
        return Ok(match until_ended(&about, task, asking, Questions::Asked)? {
            Reply::Result(ended) => outcome_of(&ended),
            refused @ Reply::Error(_) => refused,
        });
    }
    let status = TaskStatus::of(&task);
    if status.ended() {
        return Ok(Reply::Error(jsonrpc::error_object(
            jsonrpc::INVALID_PARAMS,
            &format!(
                "Invalid params: task {} is {} already, and a task that ended cannot be cancelled",
                task_name(id),
                status.status
            ),
        )));
    }
    if let refused @ Reply::Error(_) = asking.call("tasks/cancel", Some(&about))? {
        return Ok(refused);
    }
    Ok(match until_ended(&about, task, asking, Questions::Left)? {
        Reply::Result(ended) => Reply::Result(task_of_2025(&ended)),
        refused @ Reply::Error(_) => refused,
    })
}

/// Whether a `tasks/get` answer is a task of the 2026-07-28 tasks extension: complete,
/// with the task's id and status.
fn of_the_extension(task: &Value) -> bool {
    task["resultType"] == "complete" && task["taskId"].is_string() && task["status"].is_string()
}

/// What becomes of the questions a task waits on while it is read until it ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Questions {
    /// Asked of the client, the answers sent on (`tasks/result`).
    Asked,
    /// Left unasked: the task is ending (`tasks/cancel`).
    Left,
}

/// The task `about` names, `now` as last read, read again with `tasks/get` until it
/// ended, as mur's client follows a task (the first look soon, each next one twice as
/// late up to the task's interval: [`next_look`]), its questions asked of the client
/// if `questions` says so ([`answer_questions`]): `Reply::Result` of the task then;
/// `Reply::Error` when the session refuses to tell it (it expired), the task waits on a
/// question the client cannot or did not answer, or it keeps asking (past
/// `MAX_ROUNDS` or `MAX_QUESTIONS`: it is cancelled then); an error when the client's
/// request is cancelled meanwhile (nothing is written for it then), the task is in a
/// status MCP does not define (it could be followed for ever), or the session answers
/// about another task.
fn until_ended(
    about: &Value,
    mut now: Value,
    asking: &Asking<'_>,
    questions: Questions,
) -> Result<Reply> {
    let id = &about["taskId"];
    let mut asked = Asked::default();
    let mut wait = POLL_BOUNDS.0;
    loop {
        if let Some(other) = task::about_another(id, &now) {
            return Err(mur_core::Error::transport(format!(
                "the session answered `tasks/get` of task {} about task {}",
                task_name(id),
                task_name(other)
            )));
        }
        let status = TaskStatus::of(&now);
        if status.ended() {
            return Ok(Reply::Result(now));
        }
        if !status.defined() {
            return Err(mur_core::Error::transport(format!(
                "task {} is in a status MCP does not define: {}",
                task_name(id),
                now["status"]
            )));
        }
        if status.status == "input_required"
            && questions == Questions::Asked
            && let Some(unanswered) = answer_questions(id, &now, asking, &mut asked)?
        {
            return Ok(unanswered);
        }
        if !pause(wait, asking) {
            return Err(cancelled());
        }
        wait = next_look(wait, &now);
        now = match asking.call("tasks/get", Some(about))? {
            Reply::Result(task) => task,
            refused @ Reply::Error(_) => return Ok(refused),
        };
    }
}

/// How long after a look that waited `wait` the next look at `task` (as it was read)
/// comes: twice as late, up to the task's `pollIntervalMs` as mur's client holds it
/// ([`task::poll_interval`]: a second when it names none).
fn next_look(wait: Duration, task: &Value) -> Duration {
    (wait * 2).min(task::poll_interval(task, "pollIntervalMs"))
}

/// The error of a request its client cancelled (nothing is written for it).
fn cancelled() -> mur_core::Error {
    mur_core::Error::transport("the request was cancelled")
}

/// What a `tasks/result` asked of its client so far: the keys of the questions of the
/// task it was asked (a read before the session took the answers shows them again),
/// only those the task still shows kept; and how many rounds and questions it asked in
/// all, counted by mur's client's own bounds ([`mur_client::Asked`]): the proxy asks
/// for its client what mur would answer of one call. A task that asks more keeps
/// asking: relayed for ever, it would hold the client's request, a thread of the
/// proxy's and the client's attention without end. Past either bound `tasks/result` is
/// answered an error saying so, and the task is cancelled ([`kept_asking`]).
#[derive(Debug, Default)]
struct Asked {
    shown: std::collections::BTreeSet<String>,
    counted: mur_client::Asked,
}

/// What `tasks/result` answers about task `id`, which asks past `bound` ("1000
/// questions"): an error saying so, once the session was told to cancel the task
/// (`tasks/cancel`), as mur's client cancels a task that keeps asking; the error says
/// too whether that failed.
fn kept_asking(id: &Value, bound: &str, asking: &Asking<'_>) -> Reply {
    let about = json!({ "taskId": id });
    let cancelled = match asking.call("tasks/cancel", Some(&about)) {
        Ok(Reply::Result(_)) => "it is cancelled".to_owned(),
        Ok(Reply::Error(refused)) => format!(
            "the session refused to cancel it: {}",
            refused["message"].as_str().unwrap_or("(no message)")
        ),
        Err(e) => format!("cancelling it failed: {}", e.message()),
    };
    tracing::info!("task {id} kept asking past {bound}: {cancelled}");
    Reply::Error(jsonrpc::error_object(
        INTERNAL_ERROR,
        &format!(
            "task {} was still asking for input after {bound}, the most the proxy asks of \
             one task; {cancelled}",
            task_name(id)
        ),
    ))
}

/// Asks the client the questions task `id` waits on (`now`, as last read: its
/// `inputRequests`) that it was not asked yet, as 2025-11-25 asks them while
/// `tasks/result` waits — `elicitation/create`, the task named in `_meta`
/// ([`RELATED_TASK`]) — and sends the session the answers with `tasks/update`, as mur's
/// client answers a task's questions. `Some` error to answer `tasks/result` with at
/// once, rather than wait on a task that waits on the client: it cannot answer (it
/// declared no `elicitation`) or a question is of a kind the proxy does not relay —
/// both decided before anything is asked or counted against the bounds, the task left
/// as it is —, it gave no answer, the session refused the answers, or the task asks
/// past `MAX_ROUNDS` or `MAX_QUESTIONS` (none of those asked; the task is cancelled).
fn answer_questions(
    id: &Value,
    now: &Value,
    asking: &Asking<'_>,
    asked: &mut Asked,
) -> Result<Option<Reply>> {
    let requests = now["inputRequests"].as_object();
    (asked.shown).retain(|key| requests.is_some_and(|shown| shown.contains_key(key)));
    let unanswered: Vec<(&String, &Value)> = requests
        .into_iter()
        .flatten()
        .filter(|(key, _)| !asked.shown.contains(*key))
        .collect();
    if unanswered.is_empty() {
        return Ok(None);
    }
    let waits = |on: String| {
        let message = format!("task {} waits on {on}", task_name(id));
        Ok(Some(Reply::Error(jsonrpc::error_object(
            INTERNAL_ERROR,
            &message,
        ))))
    };
    // Decided before anything is asked or counted: a question the proxy does not
    // relay, or a client that cannot answer, is said at once and the task left as it
    // is, however many questions it shows (it waits on the client; it is not cancelled
    // for asking too much).
    for (_, request) in &unanswered {
        let method = request["method"].as_str().unwrap_or("(no method)");
        if method != "elicitation/create" {
            return waits(format!(
                "`{method}`, which the proxy does not relay (it relays `elicitation/create`)"
            ));
        }
        if !asking.events.can_answer() {
            return waits(format!(
                "an answer to \"{}\", which the client cannot give: it declared no \
                 `elicitation` capability",
                question_of(request)
            ));
        }
    }
    if let Err(bound) = asked.counted.admit(1, unanswered.len()) {
        return Ok(Some(kept_asking(id, &bound, asking)));
    }
    let mut responses = serde_json::Map::new();
    for (key, request) in unanswered {
        let question = question_of(request);
        let mut params = match &request["params"] {
            Value::Object(params) => params.clone(),
            _ => serde_json::Map::new(),
        };
        let meta = params.entry("_meta").or_insert_with(|| json!({}));
        if !meta.is_object() {
            *meta = json!({});
        }
        meta[RELATED_TASK] = json!({ "taskId": id });
        let Some(response) = asking.events.elicit(Value::Object(params)) else {
            if asking.cancelled() {
                return Err(cancelled());
            }
            return waits(format!(
                "an answer to \"{question}\", which the client did not give (its input \
                 ended, or it answered with an error)"
            ));
        };
        responses.insert(key.clone(), response.to_json());
    }
    asked.shown.extend(responses.keys().cloned());
    let update = json!({ "taskId": id, "inputResponses": responses });
    Ok(match asking.call("tasks/update", Some(&update))? {
        Reply::Result(_) => None,
        refused @ Reply::Error(_) => Some(refused),
    })
}

/// The message of question `request` (`elicitation/create`), empty if it has none.
fn question_of(request: &Value) -> String {
    let message = request["params"]["message"].as_str();
    message.unwrap_or_default().to_owned()
}

/// Waits `wait`, unless the request is cancelled first: whether it was not.
fn pause(wait: Duration, asking: &Asking<'_>) -> bool {
    let until = Instant::now() + wait;
    loop {
        if asking.cancelled() {
            return false;
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return true;
        }
        std::thread::sleep(left.min(LOOK_EVERY));
    }
}

/// What `tasks/result` answers for a task of the extension that ended: its result
/// inlined, without 2026-07-28's fields and with the task named in `_meta`, as
/// 2025-11-25 asks; or its error; or, for one that has neither (cancelled), an error
/// saying it has no result.
fn outcome_of(task: &Value) -> Reply {
    let id = &task["taskId"];
    if let Some(Value::Object(found)) = task.get("result") {
        let mut result = Value::Object(found.clone());
        without_protocol_fields(&mut result);
        if !result["_meta"].is_object() {
            result["_meta"] = json!({});
        }
        result["_meta"][RELATED_TASK] = json!({ "taskId": id });
        return Reply::Result(result);
    }
    if let Some(error @ Value::Object(_)) = task.get("error") {
        return Reply::Error(error.clone());
    }
    let status = task["status"].as_str().unwrap_or("ended");
    Reply::Error(jsonrpc::error_object(
        INTERNAL_ERROR,
        &format!("task {} is {status}: it has no result", task_name(id)),
    ))
}

/// A task's id as a message names it: `` `t` ``.
fn task_name(id: &Value) -> String {
    match id.as_str() {
        Some(id) => format!("`{id}`"),
        None => id.to_string(),
    }
}

/// A task of the 2026-07-28 tasks extension as 2025-11-25 writes one (its `Task`):
/// `ttlMs` and `pollIntervalMs` are `ttl` (`null`, unlimited, when not given: 2025-11-25
/// requires it) and `pollInterval`; what the extension inlines in `tasks/get` — the
/// outcome (`result`, `error`) and the questions (`inputRequests`) — is left out, as
/// 2025-11-25 has no place for it there.
pub(super) fn task_of_2025(task: &Value) -> Value {
    let mut written = serde_json::Map::new();
    for (extension, older) in [
        ("taskId", "taskId"),
        ("status", "status"),
        ("statusMessage", "statusMessage"),
        ("createdAt", "createdAt"),
        ("lastUpdatedAt", "lastUpdatedAt"),
        ("ttlMs", "ttl"),
        ("pollIntervalMs", "pollInterval"),
    ] {
        if let Some(value) = task.get(extension) {
            written.insert(older.to_owned(), value.clone());
        }
    }
    written.entry("ttl").or_insert(Value::Null);
    Value::Object(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proxy::tests::{ends_within_a_minute, lines_of, results_of, served_lines};
    use crate::proxy::{Request, Upstream, serve};
    use mur_client::Events;
    use mur_testkit::Captured;
    use std::io::Write as _;
    use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};

    /// An upstream that answers as a 2026-07-28 session with the tasks extension does:
    /// `tools/call` with a task created, `tasks/get` with the task and its outcome inlined.
    struct ModernTasks;

    impl Upstream for ModernTasks {
        fn call(&self, request: Request<'_>, _events: &dyn Events) -> Result<Reply> {
            let task = json!({ "taskId": "t", "status": "completed", "statusMessage": "done",
                "createdAt": "c", "lastUpdatedAt": "u", "ttlMs": 3_600_000, "pollIntervalMs": 200 });
            let mut answer = task.clone();
            match request.method {
                "tools/call" => answer["resultType"] = json!("task"),
                "tasks/get" => {
                    answer["resultType"] = json!("complete");
                    answer["result"] = json!({ "content": [], "isError": false });
                    answer["_meta"] =
                        json!({ "io.modelcontextprotocol/serverInfo": { "name": "s" } });
                }
                _ => answer = json!({}),
            }
            Ok(Reply::Result(answer))
        }
    }

    /// The results of a `tools/call` (asking for a task) and a `tasks/get` from
    /// [`ModernTasks`], to a client that asked for `revision` in `initialize` (`None`: one
    /// of 2026-07-28, which sends no `initialize`).
    fn task_answers(revision: Option<&str>) -> [Value; 2] {
        let opening = revision.map(|revision| format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{revision}"}}}}"#
        ));
        let input = opening
            .into_iter()
            .chain([
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","task":{"ttl":60000}}}"#.to_owned(),
                r#"{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"t"}}"#.to_owned(),
            ])
            .collect::<Vec<_>>()
            .join("\n");
        results_of(&served_lines(Arc::new(ModernTasks), input), [2, 3])
    }

    /// A client of 2025-11-25 gets a task in that revision's form: a task created as
    /// `{"task": {…}}`, `tasks/get` as the task alone, `ttl` and `pollInterval` named
    /// so, without the outcome 2026-07-28 inlines. It got 2026-07-28's flat task, its
    /// `ttlMs` taken off, `pollIntervalMs` and `result` kept. A client of 2026-07-28 (no
    /// `initialize`) gets them as they came.
    #[test]
    fn a_task_is_answered_in_the_form_of_the_revision_negotiated() {
        let task = json!({ "taskId": "t", "status": "completed", "statusMessage": "done",
            "createdAt": "c", "lastUpdatedAt": "u", "ttl": 3_600_000, "pollInterval": 200 });
        assert_eq!(
            task_answers(Some("2025-11-25")),
            [json!({ "task": task }), task.clone()]
        );
        let [created, got] = task_answers(None);
        assert_eq!(created["resultType"], "task");
        assert_eq!(created["pollIntervalMs"], 200);
        assert_eq!(got["resultType"], "complete");
        assert_eq!(got["result"]["isError"], false);
        // One without a TTL is unlimited, which 2025-11-25 writes `null`.
        assert_eq!(
            task_of_2025(&json!({ "taskId": "t", "status": "working" })),
            json!({ "taskId": "t", "status": "working", "ttl": null })
        );
    }

    /// An upstream that answers as a 2026-07-28 session with the tasks extension does
    /// about its one task `t` (any other is not found): `tasks/get` shows it `working` for
    /// the first `working` reads, then — one that `asks` — `input_required`, waiting on
    /// [`QUESTION`] until `tasks/update` answers it (and once more after, as a session
    /// that had not taken the answer yet shows it), then ended as `ends` (`completed`
    /// with its result inlined, `failed` with its error), or `cancelled` once
    /// `tasks/cancel` came (which is acknowledged with `{}`); `tasks/list` lists it; the
    /// extension has no `tasks/result` (-32601). The reads of `tasks/get` are counted,
    /// the `tasks/update` kept. Its tasks are named `names` (`t`, or another).
    struct TaskSession {
        working: u64,
        ends: &'static str,
        asks: bool,
        names: &'static str,
        reads: AtomicU64,
        cancelled: AtomicBool,
        updated: Mutex<Option<Value>>,
        shown_after_update: AtomicBool,
    }

    /// The question a [`TaskSession`] that asks waits on, under the key `confirm`.
    fn question() -> Value {
        json!({ "message": "Delete f?", "requestedSchema": { "type": "object",
            "properties": { "confirm": { "type": "boolean" } }, "required": ["confirm"] } })
    }

    impl TaskSession {
        fn new(working: u64, ends: &'static str) -> Arc<Self> {
            Arc::new(Self::of(working, ends))
        }

        /// Asks [`question`] after one `working` read, then completes.
        fn asking() -> Arc<Self> {
            Arc::new(Self {
                asks: true,
                ..Self::of(1, "completed")
            })
        }

        fn of(working: u64, ends: &'static str) -> Self {
            Self {
                working,
                ends,
                asks: false,
                names: "t",
                reads: AtomicU64::new(0),
                cancelled: AtomicBool::new(false),
                updated: Mutex::default(),
                shown_after_update: AtomicBool::new(false),
            }
        }

        fn task(&self, status: &str) -> Value {
            json!({ "resultType": "complete", "taskId": self.names, "status": status,
                "createdAt": "c", "lastUpdatedAt": "u", "ttlMs": 60_000, "pollIntervalMs": 100,
                "_meta": { "io.modelcontextprotocol/serverInfo": { "name": "s" } } })
        }

        /// Whether the task still shows its question: until it is answered, and once
        /// after.
        fn waiting(&self) -> bool {
            let answered = self.updated.lock().expect("lock").is_some();
            !answered || !self.shown_after_update.swap(true, Ordering::SeqCst)
        }
    }

    impl Upstream for TaskSession {
        fn call(&self, request: Request<'_>, _events: &dyn Events) -> Result<Reply> {
            let refused = |code: i64, message: &str| {
                Ok(Reply::Error(json!({ "code": code, "message": message })))
            };
            if request.method != "tasks/list"
                && request.params.map(|p| &p["taskId"]) != Some(&json!("t"))
            {
                return refused(
                    jsonrpc::INVALID_PARAMS,
                    "Failed to retrieve task: Task not found",
                );
            }
            Ok(Reply::Result(match request.method {
                "tasks/get" if self.cancelled.load(Ordering::SeqCst) => self.task("cancelled"),
                "tasks/get" if self.reads.fetch_add(1, Ordering::SeqCst) < self.working => {
                    self.task("working")
                }
                "tasks/get" if self.asks && self.waiting() => {
                    let mut task = self.task("input_required");
                    task["inputRequests"] = json!({ "confirm": {
                        "method": "elicitation/create", "params": question() } });
                    task
                }
                "tasks/get" => {
                    let mut task = self.task(self.ends);
                    match self.ends {
                        "completed" => {
                            task["result"] = json!({ "resultType": "complete",
                                "content": [{ "type": "text", "text": "done" }], "isError": false,
                                "_meta": { "io.modelcontextprotocol/serverInfo": { "name": "s" } } });
                        }
                        _ => task["error"] = json!({ "code": -32603, "message": "it broke" }),
                    }
                    task
                }
                "tasks/cancel" => {
                    self.cancelled.store(true, Ordering::SeqCst);
                    json!({ "resultType": "complete" })
                }
                "tasks/update" => {
                    *self.updated.lock().expect("lock") = request.params.cloned();
                    json!({ "resultType": "complete" })
                }
                "tasks/list" => json!({ "resultType": "complete", "tasks": [self.task("working")],
                    "nextCursor": "n" }),
                method => return refused(jsonrpc::METHOD_NOT_FOUND, method),
            }))
        }
    }

    /// What a client of 2025-11-25 was answered to `requests` (each `[id, method, taskId]`)
    /// by the proxy in front of `session`, by id.
    fn asked_of_2025(session: Arc<TaskSession>, requests: &[(u64, &str, &str)]) -> Vec<Value> {
        let opening = initialize_2025(json!({}));
        let asked = requests.iter().map(|(id, method, task)| {
            json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": { "taskId": task } })
        });
        let input = std::iter::once(opening)
            .chain(asked)
            .map(|line| line.to_string())
            .collect::<Vec<_>>()
            .join("\n");
        let lines = served_lines(session, input);
        requests
            .iter()
            .map(|(id, ..)| {
                lines
                    .iter()
                    .find(|l| l["id"] == *id)
                    .expect("answered")
                    .clone()
            })
            .collect()
    }

    /// A client of 2025-11-25 asking for a task's result (`tasks/result`) of a session of
    /// 2026-07-28, whose tasks extension has no such method, gets it as 2025-11-25 asks:
    /// once the task ended (the proxy read `tasks/get` until then), its result, named
    /// with the task in `_meta` and without 2026-07-28's fields, or its error; a task the
    /// session does not have is the session's error. It got -32601 (method not found).
    #[test]
    fn a_client_of_2025_11_25_gets_a_tasks_result_once_it_ended() {
        let session = TaskSession::new(2, "completed");
        let [done, unknown] = asked_of_2025(
            session.clone(),
            &[(1, "tasks/result", "t"), (2, "tasks/result", "nope")],
        )
        .try_into()
        .expect("two answers");
        assert_eq!(
            done["result"],
            json!({ "content": [{ "type": "text", "text": "done" }], "isError": false,
                "_meta": { "io.modelcontextprotocol/related-task": { "taskId": "t" } } })
        );
        assert_eq!(
            session.reads.load(Ordering::SeqCst),
            3,
            "read until it ended"
        );
        assert_eq!(
            unknown["error"],
            json!({ "code": -32602, "message": "Failed to retrieve task: Task not found" })
        );
        let [failed] = asked_of_2025(TaskSession::new(0, "failed"), &[(1, "tasks/result", "t")])
            .try_into()
            .expect("an answer");
        assert_eq!(
            failed["error"],
            json!({ "code": -32603, "message": "it broke" })
        );
    }

    /// A client of 2025-11-25 cancelling a task (`tasks/cancel`) of a session of
    /// 2026-07-28 gets the task, `cancelled`, in its revision's form, as 2025-11-25 asks
    /// (the extension acknowledges with `{}`, which it got); a task that ended already is
    /// refused with -32602, as 2025-11-25 asks. And `tasks/list` lists the tasks in its
    /// revision's form, where it got 2026-07-28's.
    #[test]
    fn a_client_of_2025_11_25_cancels_and_lists_tasks_in_its_revisions_form() {
        let task = |status: &str| {
            json!({ "taskId": "t", "status": status, "createdAt": "c", "lastUpdatedAt": "u",
                "ttl": 60_000, "pollInterval": 100 })
        };
        let session = TaskSession::new(u64::MAX, "completed");
        let [cancelled, listed] = asked_of_2025(
            session.clone(),
            &[(1, "tasks/cancel", "t"), (2, "tasks/list", "")],
        )
        .try_into()
        .expect("two answers");
        assert_eq!(cancelled["result"], task("cancelled"));
        assert!(session.cancelled.load(Ordering::SeqCst));
        assert_eq!(
            listed["result"],
            json!({ "tasks": [task("working")], "nextCursor": "n" })
        );
        let [refused] = asked_of_2025(
            TaskSession::new(0, "completed"),
            &[(1, "tasks/cancel", "t")],
        )
        .try_into()
        .expect("an answer");
        assert_eq!(
            refused["error"],
            json!({ "code": -32602, "message":
                "Invalid params: task `t` is completed already, and a task that ended cannot be cancelled" })
        );
    }

    /// `initialize` of a client of 2025-11-25 with `capabilities`, as request 0.
    fn initialize_2025(capabilities: Value) -> Value {
        json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": { "protocolVersion": "2025-11-25", "capabilities": capabilities } })
    }

    /// The lines written so far that are whole (one may be being written).
    fn whole_lines(out: &Captured) -> Vec<Value> {
        let text = out.text();
        text.lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect()
    }

    /// A client of 2025-11-25 whose `tasks/result` waits on a task of a 2026-07-28
    /// session that waits on a question (`input_required`) is asked it there, as its
    /// revision asks it: `elicitation/create` with the task named in `_meta`, once (the
    /// session shows it again before it took the answer); its answer goes to the session
    /// with `tasks/update`, and the result comes once the task completes. The proxy read
    /// on for ever: nothing asked the question, and the task never left `input_required`.
    #[test]
    fn a_tasks_question_is_asked_of_a_client_of_2025_11_25_and_its_answer_sent_on() {
        let (input, mut feed) = std::io::pipe().expect("a pipe");
        let out = Captured::default();
        let session = TaskSession::asking();
        let serving = {
            let (session, out) = (session.clone(), out.clone());
            std::thread::spawn(move || serve(session, std::io::BufReader::new(input), out, None))
        };
        let send = |feed: &mut std::io::PipeWriter, line: Value| {
            writeln!(feed, "{line}").expect("written");
        };
        send(&mut feed, initialize_2025(json!({ "elicitation": {} })));
        send(
            &mut feed,
            json!({ "jsonrpc": "2.0", "id": 1, "method": "tasks/result",
                "params": { "taskId": "t" } }),
        );
        let asked = |out: &Captured| {
            let lines = whole_lines(out);
            lines
                .into_iter()
                .filter(|l| l["method"] == "elicitation/create")
                .collect::<Vec<_>>()
        };
        let elicited = mur_testkit::wait_until("the question", || asked(&out).pop());
        let mut meant = question();
        meant["_meta"] = json!({ RELATED_TASK: { "taskId": "t" } });
        assert_eq!(
            elicited,
            json!({ "jsonrpc": "2.0", "id": "mur-proxy-q1", "method": "elicitation/create",
                "params": meant })
        );
        send(
            &mut feed,
            json!({ "jsonrpc": "2.0", "id": "mur-proxy-q1",
                "result": { "action": "accept", "content": { "confirm": true } } }),
        );
        let done = mur_testkit::wait_until("the result", || {
            whole_lines(&out).into_iter().find(|l| l["id"] == 1)
        });
        drop(feed);
        serving.join().expect("no panic").expect("served");
        assert_eq!(
            done["result"],
            json!({ "content": [{ "type": "text", "text": "done" }], "isError": false,
                "_meta": { RELATED_TASK: { "taskId": "t" } } })
        );
        assert_eq!(
            *session.updated.lock().expect("lock"),
            Some(json!({ "taskId": "t", "inputResponses": {
                "confirm": { "action": "accept", "content": { "confirm": true } } } }))
        );
        assert_eq!(asked(&out).len(), 1, "{}", out.text());
    }

    /// A client of 2025-11-25 that cannot answer questions (it declared no
    /// `elicitation`) is answered at once when the task its `tasks/result` waits on waits
    /// on one, saying so, and the session is sent no answer: the proxy read on for ever.
    #[test]
    fn a_tasks_result_waiting_on_a_question_the_client_cannot_answer_is_refused_at_once() {
        let session = TaskSession::asking();
        let [refused] = asked_of_2025(session.clone(), &[(1, "tasks/result", "t")])
            .try_into()
            .expect("an answer");
        assert_eq!(
            refused["error"],
            json!({ "code": INTERNAL_ERROR, "message": "task `t` waits on an answer to \
                \"Delete f?\", which the client cannot give: it declared no `elicitation` \
                capability" })
        );
        assert_eq!(*session.updated.lock().expect("lock"), None);
    }

    /// A session that answers `tasks/get` about another task than the one asked about is
    /// not taken at its word: `tasks/result` is answered an error naming both, as mur's
    /// client refuses it. The other task's result was given as the one asked for.
    #[test]
    fn a_tasks_result_answered_about_another_task_is_refused() {
        let session = Arc::new(TaskSession {
            names: "u",
            ..TaskSession::of(0, "completed")
        });
        let [refused] = asked_of_2025(session, &[(1, "tasks/result", "t")])
            .try_into()
            .expect("an answer");
        assert_eq!(
            refused["error"],
            json!({ "code": INTERNAL_ERROR,
                "message": "the session answered `tasks/get` of task `t` about task `u`" })
        );
    }

    /// A task that names no interval is read every second at most, as mur's client reads
    /// one ([`task::DEFAULT_POLL`]), the first look soon and each next one twice as late;
    /// one that names an interval, bounded, as it says. It was read every 5 s.
    #[test]
    fn a_task_is_read_as_often_as_murs_client_reads_one() {
        let working = json!({ "taskId": "t", "status": "working" });
        let looks: Vec<Duration> =
            std::iter::successors(Some(POLL_BOUNDS.0), |wait| Some(next_look(*wait, &working)))
                .take(6)
                .collect();
        assert_eq!(
            looks,
            [100, 200, 400, 800, 1000, 1000].map(Duration::from_millis)
        );
        assert_eq!(next_look(POLL_BOUNDS.1, &working), task::DEFAULT_POLL);
        let named = |ms: u64| json!({ "taskId": "t", "status": "working", "pollIntervalMs": ms });
        assert_eq!(
            next_look(POLL_BOUNDS.1, &named(300)),
            Duration::from_millis(300)
        );
        assert_eq!(
            next_look(Duration::from_secs(60), &named(600_000)),
            POLL_BOUNDS.1
        );
    }

    /// A `tasks/result` the client cancels while its task runs on stops waiting for it:
    /// nothing is written for it, and the proxy ends with its input (a wait that went on
    /// would hold it past the hang guard: its grace is ten minutes).
    #[test]
    fn a_tasks_result_the_client_cancels_waits_no_more() {
        let out = Captured::default();
        let input = [
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tasks/result","params":{"taskId":"t"}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
        ]
        .join("\n");
        let session = TaskSession::new(u64::MAX, "completed");
        let ten_minutes = Duration::from_secs(600);
        assert!(
            ends_within_a_minute(session, input, out.clone(), ten_minutes),
            "the proxy still waits for the task"
        );
        assert!(
            lines_of(&out).iter().all(|l| l["id"] != 1),
            "{}",
            out.text()
        );
    }

    /// An upstream that answers as a 2026-07-28 session whose task `t` keeps asking does:
    /// each read of `tasks/get` shows it `input_required`, waiting on `per_read` questions
    /// it did not show before. The `tasks/update`s are counted, a `tasks/cancel` kept.
    struct Nagging {
        per_read: usize,
        reads: AtomicUsize,
        updates: AtomicUsize,
        cancelled: AtomicBool,
    }

    impl Upstream for Nagging {
        fn call(&self, request: Request<'_>, _events: &dyn Events) -> Result<Reply> {
            let done = json!({ "resultType": "complete" });
            Ok(Reply::Result(match request.method {
                "tasks/get" => {
                    let read = self.reads.fetch_add(1, Ordering::SeqCst);
                    let first = read * self.per_read;
                    let questions: serde_json::Map<String, Value> = (first..first + self.per_read)
                        .map(|n| {
                            let asked =
                                json!({ "method": "elicitation/create", "params": question() });
                            (format!("q{n}"), asked)
                        })
                        .collect();
                    json!({ "resultType": "complete", "taskId": "t", "status": "input_required",
                        "pollIntervalMs": 100, "inputRequests": questions })
                }
                "tasks/update" => {
                    self.updates.fetch_add(1, Ordering::SeqCst);
                    done
                }
                "tasks/cancel" => {
                    self.cancelled.store(true, Ordering::SeqCst);
                    done
                }
                method => {
                    let refused = json!({ "code": jsonrpc::METHOD_NOT_FOUND, "message": method });
                    return Ok(Reply::Error(refused));
                }
            }))
        }
    }

    /// A task whose questions never end is not relayed for ever: `tasks/result` asks at
    /// most `MAX_QUESTIONS` of its client, as mur's client answers of one call, then is
    /// answered an error saying so, and the task is cancelled. The client answers every
    /// question at once; 400 a read, the third read's would pass the bound, and is not
    /// asked. It was relayed until the client gave up.
    #[test]
    fn a_task_that_keeps_asking_is_cancelled_past_the_questions_the_proxy_asks() {
        let (input, mut feed) = std::io::pipe().expect("a pipe");
        let out = Captured::default();
        let session = Arc::new(Nagging {
            per_read: 400,
            reads: AtomicUsize::new(0),
            updates: AtomicUsize::new(0),
            cancelled: AtomicBool::new(false),
        });
        let serving = {
            let (session, out) = (session.clone(), out.clone());
            std::thread::spawn(move || serve(session, std::io::BufReader::new(input), out, None))
        };
        let mut send = |line: Value| writeln!(feed, "{line}").expect("written");
        send(initialize_2025(json!({ "elicitation": {} })));
        send(json!({ "jsonrpc": "2.0", "id": 1, "method": "tasks/result",
            "params": { "taskId": "t" } }));
        // Each question answered as soon as it is written (a question waits on its
        // answer before the next is asked), until `tasks/result` is answered.
        let (mut read, mut asked) = (0, 0);
        let until = Instant::now() + Duration::from_secs(60);
        let done = loop {
            let text = out.text();
            let whole = text[read..].rfind('\n').map_or(read, |end| read + end + 1);
            let lines: Vec<Value> = (text[read..whole].lines())
                .map(|line| serde_json::from_str(line).expect("a JSON line"))
                .collect();
            read = whole;
            if let Some(done) = lines.iter().find(|l| l["id"] == 1) {
                break done.clone();
            }
            for question in lines.iter().filter(|l| l["method"] == "elicitation/create") {
                asked += 1;
                send(json!({ "jsonrpc": "2.0", "id": question["id"],
                    "result": { "action": "accept", "content": { "confirm": true } } }));
            }
            assert!(
                Instant::now() < until,
                "no answer to `tasks/result`: {asked} asked"
            );
            std::thread::sleep(Duration::from_millis(1));
        };
        drop(feed);
        serving.join().expect("no panic").expect("served");
        assert_eq!(
            done["error"],
            json!({ "code": INTERNAL_ERROR, "message": "task `t` was still asking for input \
                after 1000 questions, the most the proxy asks of one task; it is cancelled" })
        );
        assert_eq!(asked, 800);
        assert_eq!(session.updates.load(Ordering::SeqCst), 2);
        assert!(session.cancelled.load(Ordering::SeqCst));
    }
}
