//! Calls that become tasks on the 2026-07-28 revision (the
//! `io.modelcontextprotocol/tasks` extension), end to end: `mur-sample
//! --conformance-fixtures` serves tools that run long, fail, crash or ask
//! questions as tasks; `mur` declares the extension, follows each task with
//! `tasks/get` to the tool's own result, answers its questions with
//! `tasks/update`, and cancels a task it stops waiting for. The session
//! records each such call once, with how it ended. An agent behind `mur
//! devtools proxy`, whose client knows nothing of tasks, gets the result too.
//! A session at its limit of tasks serves calls within their requests.

use std::path::Path;

use mur_e2e::stub::Reply;
use mur_e2e::{Output, Sandbox, Stub, mcp, wait_until};
use serde_json::{Value, json};

use crate::bridge_proxy::{
    Live, about_task, answer, initialize_2025, proxy_initialized, tool_call,
};

/// The fixture `failing_job`'s tool error.
const JOB_FAILED: &str = "The job failed, as this fixture always does";

fn with_fixtures(sandbox: &Sandbox, extra: &[&str]) -> mur_e2e::Session {
    let args = [&["--conformance-fixtures"][..], extra].concat();
    sandbox.start_sample_with(&sandbox.project("app"), &args)
}

/// The id of the task `mur -v` said it cancelled on its way out.
pub(crate) fn cancelled_task(out: &Output) -> String {
    let rest = out.stderr_after("DEBUG cancelling task ");
    rest.split(':').next().unwrap_or(rest).to_owned()
}

/// `out` is a call whose request `method` about `task` the server refused with -32602
/// and `message`: exit 5, the error on stdout, and stderr naming what was refused.
fn assert_refused(out: &Output, endpoint: &str, (method, task): (&str, &str), message: &str) {
    out.assert_code(5);
    assert_eq!(
        out.json(),
        json!({ "error": { "code": -32602, "message": message } })
    );
    assert_eq!(
        out.stderr,
        format!(
            "error: `{endpoint}` refused `{method}` of task {task}: {message} (JSON-RPC error -32602)\n"
        )
    );
}

/// `mur call TOOL` with `--timeout 1500` at `server`, whose task `TOOL` never ends:
/// exit 2 naming the task and its status, and the task cancelled on the way out — said
/// in a hint, with that the tool ran (nothing said either, where every other call out
/// of time says whether its tool may have run). Bounded, so that a call that never ends
/// fails the test instead of hanging it.
fn assert_outlasted(sandbox: &Sandbox, server: &Stub, tool: &str) {
    let endpoint = server.endpoint();
    let argv = [
        "devtools",
        "--endpoint",
        &endpoint,
        "--timeout",
        "1500",
        "-q",
        "call",
        tool,
    ];
    let (out, _) = sandbox.mur_timed(&argv, std::time::Duration::from_secs(60));
    out.assert_code(2).assert_stderr_is(format!(
        "error: task {tool} at `{endpoint}` was still `working` after 1500 ms\n\
         hint: mur asked the server to cancel task {tool}; tool `{tool}` ran and may have \
         changed the app's state: check it before running it again\n\
         hint: a slow tool may need a longer `--timeout MS` before `call`\n"
    ));
    assert_eq!(cancelled_at(server), [tool]);
}

/// The status `id` ends with, as `tasks/get` through `devtools` (mur's argv after
/// `devtools`) says it: a cancel is acknowledged before the task has settled, so
/// this waits for the end.
pub(crate) fn final_status(id: &str, devtools: impl Fn(&[&str]) -> Output) -> Value {
    let args = json!({ "taskId": id }).to_string();
    wait_until(&format!("task {id} to end"), || {
        let task = devtools(&["call", "tasks/get", "--args", &args]);
        task.assert_code(0);
        let status = task.json()["status"].clone();
        (status != "working" && status != "input_required").then_some(status)
    })
}

fn served(path: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("a record"))
        .map(|r| {
            (
                r["tool"].as_str().unwrap_or_default().to_owned(),
                r["outcome"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_call_that_becomes_a_task_ends_as_the_tool_ended_and_is_recorded_once() {
    let sandbox = Sandbox::new();
    let log = sandbox.root().join("served.jsonl");
    let _app = with_fixtures(&sandbox, &["--usage-log", &log.display().to_string()]);

    let args = r#"{"seconds":1,"label":"L"}"#;
    let out = sandbox.devtools(&["call", "slow_compute", "--args", args]);
    out.assert_code(0);
    assert_eq!(
        out.json(),
        json!({ "content": [{ "type": "text", "text": "L: computed in 1 s" }], "isError": false }),
        "the tool's own result, not the task\n{out}"
    );
    // What the task said it was doing, from the progress it reported before it
    // became a task; at the end, its status alone (the message is the work's).
    assert_eq!(
        out.stderr,
        "progress: 0/1 computing\ntask (working): computing\ntask (completed)\n"
    );
    sandbox
        .devtools(&["-q", "call", "slow_compute", "--args", args])
        .assert_quiet_success();

    // The tool's own failure: exit 5 with its result, as for any call.
    sandbox
        .devtools(&["-q", "call", "failing_job"])
        .assert_tool_failed("failing_job", JOB_FAILED);
    // A handler that crashed: the task `failed` with the server's error.
    let out = sandbox.devtools(&["-q", "call", "protocol_error_job"]);
    out.assert_code(5);
    assert_eq!(
        out.json(),
        json!({ "error": { "code": -32603, "message": "the tool's handler panicked: protocol_error_job crashes on purpose" } })
    );
    assert_eq!(
        out.stderr,
        "error: tool `protocol_error_job` failed: the tool's handler panicked: \
         protocol_error_job crashes on purpose (JSON-RPC error -32603)\n\
         hint: JSON-RPC -32603 (internal error) is the server failing, not the tool refusing \
         its arguments: check the app's log and state, then retry once\n"
    );

    // One record a call, written when the task ended, with how it ended.
    let expected = [
        ("slow_compute", "ok"),
        ("slow_compute", "ok"),
        ("failing_job", "tool-error"),
        ("protocol_error_job", "rpc-error"),
    ];
    assert_eq!(
        served(&log),
        expected.map(|(tool, outcome)| (tool.to_owned(), outcome.to_owned()))
    );

    // A client on the 2025-11-25 revision cannot follow a task: a task-supporting
    // tool runs within its request, one that needs a task is refused (-32021).
    let out = sandbox.devtools(&[
        "--protocol",
        "2025-11-25",
        "call",
        "slow_compute",
        "--args",
        args,
    ]);
    assert_eq!(out.tool_text(0), "L: computed in 1 s");
    let out = sandbox.devtools(&["--protocol", "2025-11-25", "-q", "call", "failing_job"]);
    out.assert_code(5).assert_stderr_is(
        "error: tool `failing_job` failed: tool `failing_job` runs only as a task, and the request \
         did not declare the extension `io.modelcontextprotocol/tasks` (protocol 2026-07-28) \
         (JSON-RPC error -32021)\n",
    );
}

#[test]
fn a_task_asks_through_tasks_update_and_a_call_that_stops_waiting_cancels_it() {
    let sandbox = Sandbox::new();
    let _app = with_fixtures(&sandbox, &[]);

    let answer = ["--answer", "confirm=true"];
    let out = sandbox.devtools(
        &[
            &answer[..],
            &[
                "call",
                "confirm_delete",
                "--args",
                r#"{"filename":"a.txt"}"#,
            ],
        ]
        .concat(),
    );
    assert_eq!(out.tool_text(0), "a.txt: deleted");
    assert!(
        out.stderr.lines().any(|l| l == "task (input_required)"),
        "{out}"
    );
    // Two questions pending at once, one `--answer` for both.
    let out = sandbox.devtools(&["--answer", "name=Ada", "call", "multi_input"]);
    assert_eq!(out.tool_text(0), "Both answered: Ada, Ada");
    // An input-required round first, then a task.
    let out = sandbox.devtools(&["--answer", "name=Ada", "call", "test_tool_with_task"]);
    assert_eq!(out.tool_text(0), "Hello, Ada! (greeted from a task)");

    // Nobody to answer: exit 5 with the hint, and the task is cancelled, not
    // left waiting on the question.
    let out = sandbox.devtools(&[
        "-v",
        "call",
        "confirm_delete",
        "--args",
        r#"{"filename":"b"}"#,
    ]);
    out.assert_code(5);
    out.assert_stderr_contains("asks \"Delete b?\" and mur has no answer");
    assert_eq!(
        final_status(&cancelled_task(&out), |argv| sandbox.devtools(argv)),
        "cancelled"
    );

    // Out of time: exit 2, and the task is cancelled.
    let slow = [
        "-v",
        "--timeout",
        "2000",
        "call",
        "slow_compute",
        "--args",
        r#"{"seconds":60}"#,
    ];
    let out = sandbox.devtools(&slow);
    out.assert_code(2);
    assert_eq!(
        final_status(&cancelled_task(&out), |argv| sandbox.devtools(argv)),
        "cancelled"
    );
}

#[test]
fn an_agent_behind_the_proxy_gets_the_result_of_a_call_that_became_a_task() {
    let sandbox = Sandbox::new();
    let _app = with_fixtures(&sandbox, &[]);
    let out = proxy_initialized(
        &sandbox,
        &[tool_call(
            2,
            "slow_compute",
            json!({ "seconds": 1, "label": "P" }),
        )],
    );
    out.assert_code(0);
    assert_eq!(
        answer(&out, 2)["result"]["content"],
        json!([{ "type": "text", "text": "P: computed in 1 s" }]),
        "{out}"
    );
}

#[test]
fn at_its_limit_of_tasks_a_session_serves_calls_within_their_requests() {
    let sandbox = Sandbox::new();
    let app = with_fixtures(&sandbox, &["--max-tasks", "1"]);
    // Another client (not mur) leaves one long task running: the limit is reached.
    let follows_tasks = json!({ "io.modelcontextprotocol/clientCapabilities": {
        "extensions": { "io.modelcontextprotocol/tasks": {} } } });
    let created = mcp::tool_exchange(
        &app.lock.endpoint,
        "slow_compute",
        json!({ "arguments": { "seconds": 60 } }),
        follows_tasks,
    );
    assert_eq!(
        mcp::response(&created)["result"]["resultType"],
        "task",
        "{created:?}"
    );

    // A slow call now runs to its end in its request: no task to follow.
    let out = sandbox.devtools(&[
        "call",
        "slow_compute",
        "--args",
        r#"{"seconds":1,"label":"in"}"#,
    ]);
    assert_eq!(out.tool_text(0), "in: computed in 1 s");
    assert!(!out.stderr.contains("task ("), "{out}");
    // A question becomes an input-required round instead of a task's.
    let out = sandbox.devtools(&[
        "--answer",
        "confirm=true",
        "call",
        "confirm_delete",
        "--args",
        r#"{"filename":"c"}"#,
    ]);
    assert_eq!(out.tool_text(0), "c: deleted");
    assert!(!out.stderr.contains("task ("), "{out}");
    let out = sandbox.devtools(&["--answer", "name=Ada", "call", "multi_input"]);
    assert_eq!(out.tool_text(0), "Both answered: Ada, Ada");
}

/// A server of the tasks extension, played by a stub: `tools/call NAME` creates
/// task NAME, to be polled every `poll_ms`; any other request is answered by
/// `on` with its body and how many `tasks/get` of its task came before it.
fn extension_server(
    poll_ms: u64,
    on: impl Fn(&Value, usize) -> Reply + Send + Sync + 'static,
) -> Stub {
    let polls = std::sync::Mutex::new(std::collections::HashMap::<String, usize>::new());
    Stub::serve(move |req| {
        let body = req.json();
        if body["method"] == "tools/call" {
            return rpc_result(
                &body,
                json!({ "resultType": "task", "taskId": body["params"]["name"], "status": "working",
                    "createdAt": "2026-11-28T10:00:00Z", "lastUpdatedAt": "2026-11-28T10:00:00Z",
                    "ttlMs": 60000, "pollIntervalMs": poll_ms }),
            );
        }
        let id = body["params"]["taskId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let before = polls.lock().map_or(0, |mut polls| {
            let count = polls.entry(id).or_default();
            let before = *count;
            *count += usize::from(body["method"] == "tasks/get");
            before
        });
        on(&body, before)
    })
}

fn rpc_result(body: &Value, result: Value) -> Reply {
    Reply::json(
        200,
        &json!({ "jsonrpc": "2.0", "id": body["id"], "result": result }),
    )
}

fn rpc_error(body: &Value, code: i64, message: &str) -> Reply {
    Reply::json(
        200,
        &json!({ "jsonrpc": "2.0", "id": body["id"], "error": { "code": code, "message": message } }),
    )
}

/// The task a `tasks/get` asks for, `working` unless `fields` say otherwise.
fn task_now(body: &Value, fields: Value) -> Reply {
    let mut task = json!({ "taskId": body["params"]["taskId"], "status": "working",
        "createdAt": "2026-11-28T10:00:00Z", "lastUpdatedAt": "2026-11-28T10:00:01Z", "ttlMs": 60000 });
    if let (Some(task), Some(fields)) = (task.as_object_mut(), fields.as_object()) {
        task.extend(fields.clone());
    }
    rpc_result(body, task)
}

/// The ids of the tasks `server` was asked to cancel.
fn cancelled_at(server: &Stub) -> Vec<String> {
    (server.sent("tasks/cancel").iter())
        .map(|body| {
            body["params"]["taskId"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        })
        .collect()
}

#[test]
fn a_task_is_read_soon_and_one_a_server_ends_badly_is_a_clear_error() {
    let sandbox = Sandbox::new();
    // A server whose tasks end as their tool's name says. It asks to be polled
    // every 5 s, so each call's first look is mur's own early one.
    let server = extension_server(5000, |body, _| {
        if body["method"] != "tasks/get" {
            return rpc_result(body, json!({}));
        }
        let fields = match body["params"]["taskId"].as_str().unwrap_or_default() {
            "bare" => json!({ "status": "completed" }),
            "quick" => json!({ "status": "completed",
                "result": { "content": [{ "type": "text", "text": "done" }], "isError": false } }),
            "dropped" => json!({ "status": "cancelled" }),
            "crashed" => {
                json!({ "status": "failed", "error": { "code": -32603, "message": "out of memory" } })
            }
            "paused" => json!({ "status": "paused" }),
            "mixed" => json!({ "taskId": "other", "status": "completed",
                "result": { "content": [{ "type": "text", "text": "another's" }] } }),
            _ => return rpc_error(body, -32602, "unknown task"),
        };
        task_now(body, fields)
    });
    let call = |tool: &str| sandbox.devtools_at(&server.endpoint(), &["-q", "call", tool]);
    let endpoint = server.endpoint();

    // Done at once, yet the server asks to be polled every 5 s: mur looks
    // soon first, so the call ends well within its 3 s.
    let out = sandbox.devtools_at(&endpoint, &["--timeout", "3000", "call", "quick"]);
    assert_eq!(out.tool_text(0), "done", "{out}");

    let out = call("bare");
    out.assert_code(2).assert_stderr_is(format!(
        "error: `{endpoint}` says task bare is completed but gives no `result` object with it\n"
    ));
    let out = call("dropped");
    out.assert_code(5).assert_stderr_is(format!(
        "error: `{endpoint}` cancelled task dropped before it ended; the tool gave no result\n"
    ));
    let out = call("crashed");
    out.assert_code(5);
    assert_eq!(
        out.json(),
        json!({ "error": { "code": -32603, "message": "out of memory" } })
    );
    // A task that ended, however badly, is not cancelled.
    assert_eq!(cancelled_at(&server), Vec::<String>::new());

    // `tasks/get` refused: a JSON-RPC error (exit 5, on stdout) that says what
    // was refused, not that the tool failed; the task may run on: cancelled.
    assert_refused(
        &call("forgotten"),
        &endpoint,
        ("tasks/get", "forgotten"),
        "unknown task",
    );
    // A status the extension does not define: mur cannot tell when it ends.
    let out = call("paused");
    out.assert_code(2).assert_stderr_is(format!(
        "error: `{endpoint}` says task paused is \"paused\", a status the tasks extension \
             does not define\n"
    ));
    assert_eq!(cancelled_at(&server), ["forgotten", "paused"]);
    // Another task's status, and its outcome: not this one's (it was taken as its result).
    let out = call("mixed");
    out.assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{endpoint}` answered `tasks/get` for task mixed about task other\n"
        ));
    assert_eq!(cancelled_at(&server), ["forgotten", "paused", "mixed"]);

    // A task that cannot be read is a malformed answer, not a result.
    let numbered = Stub::answering(json!({ "resultType": "task", "taskId": 12345,
        "status": "working", "pollIntervalMs": 100 }));
    let out = sandbox.devtools_at(&numbered.endpoint(), &["call", "numbered"]);
    out.assert_code(2).assert_stdout_is("");
    assert_eq!(
        out.stderr,
        format!(
            "error: `{}` answered with a task mur cannot read: its `taskId` is 12345, not a \
             string\n",
            numbered.endpoint()
        )
    );
}

/// An `elicitation/create` form question `--answer confirm=true` answers.
fn confirm(message: &str) -> Value {
    json!({ "method": "elicitation/create", "params": { "mode": "form", "message": message,
        "requestedSchema": { "type": "object",
            "properties": { "confirm": { "type": "boolean" } }, "required": ["confirm"] } } })
}

#[test]
fn a_task_that_keeps_asking_or_refuses_the_answers_ends_the_call_and_is_cancelled() {
    let sandbox = Sandbox::new();
    // Each read of `asking` shows 300 new questions, of `nagging` one; `refusing`
    // asks once and refuses the answer.
    let server = extension_server(100, |body, polls| {
        let task = body["params"]["taskId"].as_str().unwrap_or_default();
        match (body["method"].as_str().unwrap_or_default(), task) {
            ("tasks/update", "refusing") => rpc_error(body, -32602, "answers refused"),
            ("tasks/get", _) => {
                let (first, count) = match task {
                    "asking" => (polls * 300, 300),
                    "nagging" => (polls, 1),
                    _ => (0, 1),
                };
                let questions: serde_json::Map<String, Value> = (first..first + count)
                    .map(|n| (format!("q{n}"), confirm(&format!("Question {n}?"))))
                    .collect();
                task_now(
                    body,
                    json!({ "status": "input_required", "inputRequests": questions }),
                )
            }
            _ => rpc_result(body, json!({})),
        }
    });
    let endpoint = server.endpoint();
    let call = |tool: &str| {
        sandbox.devtools_at(
            &endpoint,
            &[
                "--timeout",
                "60000",
                "--answer",
                "confirm=true",
                "-q",
                "call",
                tool,
            ],
        )
    };

    let out = call("asking");
    out.assert_code(5).assert_stdout_is("");
    assert_eq!(
        out.stderr,
        format!(
            "error: `{endpoint}` was still asking for input after 1000 questions of task asking\n"
        )
    );
    let out = call("nagging");
    out.assert_code(5).assert_stderr_is(format!(
        "error: `{endpoint}` was still asking for input after 100 rounds of task nagging\n"
    ));
    let updates = |task: &str| {
        (server.sent("tasks/update").iter())
            .filter(|b| b["params"]["taskId"] == task)
            .count()
    };
    assert_eq!((updates("asking"), updates("nagging")), (3, 100));

    assert_refused(
        &call("refusing"),
        &endpoint,
        ("tasks/update", "refusing"),
        "answers refused",
    );
    assert_eq!(cancelled_at(&server), ["asking", "nagging", "refusing"]);
}

/// A client of 2025-11-25 behind `mur devtools proxy`, whose `tasks/result`s wait on
/// tasks of a 2026-07-28 server that keep asking, is asked no more than mur answers of
/// one call (the test above): `asking` shows 300 new questions a read, and after three
/// rounds the next 300 would pass 1000 questions; `nagging` one a read, past 100 rounds.
/// Each `tasks/result` is answered an error saying so, and each task cancelled. The
/// client answers every question as it comes, so both were relayed for ever.
#[test]
fn a_task_that_keeps_asking_a_client_behind_the_proxy_is_cancelled() {
    let sandbox = Sandbox::new();
    let server = extension_server(100, |body, polls| {
        let task = body["params"]["taskId"].as_str().unwrap_or_default();
        if body["method"] != "tasks/get" {
            return rpc_result(body, json!({ "resultType": "complete" }));
        }
        let (first, count) = if task == "asking" {
            (polls * 300, 300)
        } else {
            (polls, 1)
        };
        let questions: serde_json::Map<String, Value> = (first..first + count)
            .map(|n| (format!("q{n}"), confirm(&format!("Question {n}?"))))
            .collect();
        task_now(
            body,
            json!({ "resultType": "complete", "status": "input_required",
                "pollIntervalMs": 100, "inputRequests": questions }),
        )
    });
    let endpoint = server.endpoint();
    let mut proxy = Live::start(&sandbox, &["--endpoint", &endpoint, "proxy"]);
    proxy.send(&initialize_2025(json!({ "elicitation": {} })));
    proxy.answer(1);
    proxy.send(&about_task(2, "tasks/result", &json!("asking")));
    proxy.send(&about_task(3, "tasks/result", &json!("nagging")));
    // Every question answered as it comes (each waits on its answer), until both
    // requests are answered.
    let (mut read, mut answers) = (0, std::collections::BTreeMap::new());
    let until = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while answers.len() < 2 {
        for line in proxy.lines_after(&mut read) {
            if line["method"] == "elicitation/create" {
                proxy.send(&json!({ "jsonrpc": "2.0", "id": line["id"],
                    "result": { "action": "accept", "content": { "confirm": true } } }));
            } else if let Some(id) = line["id"].as_u64().filter(|id| *id > 1) {
                answers.insert(id, line);
            }
        }
        assert!(
            std::time::Instant::now() < until,
            "still relaying: {answers:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let error = |id: u64| answers[&id]["error"].clone();
    let refused = |task: &str, bound: &str| {
        json!({ "code": -32603, "message": format!("task `{task}` was still asking for input \
            after {bound}, the most the proxy asks of one task; it is cancelled") })
    };
    assert_eq!(error(2), refused("asking", "1000 questions"));
    assert_eq!(error(3), refused("nagging", "100 rounds"));
    let updates = |task: &str| {
        (server.sent("tasks/update").iter())
            .filter(|b| b["params"]["taskId"] == task)
            .count()
    };
    assert_eq!((updates("asking"), updates("nagging")), (3, 100));
    let mut cancelled = cancelled_at(&server);
    cancelled.sort();
    assert_eq!(cancelled, ["asking", "nagging"]);
    proxy.end().assert_code(0);
}

#[test]
fn a_task_that_never_ends_says_so_at_the_timeout() {
    let sandbox = Sandbox::new();
    let server = extension_server(100, |body, _| match body["method"].as_str() {
        Some("tasks/get") => task_now(body, json!({ "statusMessage": "still thinking" })),
        _ => rpc_result(body, json!({})),
    });
    assert_outlasted(&sandbox, &server, "endless");
}

#[test]
fn a_servers_status_and_progress_messages_show_as_one_short_line_each() {
    let sandbox = Sandbox::new();
    let long = format!(
        "line one\nerror: forged by the server\n{}",
        "y".repeat(1 << 20)
    );
    let said = long.clone();
    let server = Stub::serve(move |req| {
        let body = req.json();
        match body["method"].as_str().unwrap_or_default() {
            "tools/call" => Reply::sse(&[
                json!({ "jsonrpc": "2.0", "method": "notifications/message",
                    "params": { "level": "info", "logger": "stub\nerror: x", "data": said } }),
                json!({ "jsonrpc": "2.0", "method": "notifications/progress",
                    "params": { "progressToken": "mur", "progress": 0, "total": 1, "message": said } }),
                json!({ "jsonrpc": "2.0", "id": body["id"], "result": { "resultType": "task",
                    "taskId": "t", "status": "working", "statusMessage": said, "pollIntervalMs": 100 } }),
            ]),
            "tasks/get" => task_now(
                &body,
                json!({ "status": "completed", "statusMessage": "done",
                    "result": { "content": [{ "type": "text", "text": "ok" }], "isError": false } }),
            ),
            _ => rpc_result(&body, json!({})),
        }
    });
    let out = sandbox.devtools_at(&server.endpoint(), &["call", "chatty"]);
    assert_eq!(out.tool_text(0), "ok");
    let shown = format!(
        "line one\\x0aerror: forged by the server\\x0a{}…",
        "y".repeat(200 - "line one\\x0aerror: forged by the server\\x0a".len())
    );
    assert_eq!(
        out.stderr,
        format!("progress: 0/1 {shown}\ntask (working): {shown}\ntask (completed): done\n")
    );
    // A log message, shown with `-v`, is one line too, if a longer one.
    let verbose = sandbox.devtools(&["-v", "--endpoint", &server.endpoint(), "call", "chatty"]);
    let logged = verbose.stderr_lines("server log");
    let head = "line one\\x0aerror: forged by the server\\x0a";
    assert_eq!(
        logged,
        [format!(
            "server log (info stub\\x0aerror: x): {head}{}…",
            "y".repeat(2_000 - head.len())
        )]
    );
    assert!(!verbose.stderr.contains("\nerror: "), "{verbose}");
}

/// A session-based server of the 2025-11-25 revision, played by a stub, whose
/// tool `job` runs only as a task that never ends: called without a task it is
/// refused (-32601), so mur reads `tools/list` and calls it again as one. Each
/// `initialize` opens a session of its own; once a task is created in one, no
/// request in it is answered (`tasks/result`, `tasks/cancel`, its `DELETE`).
fn hung_task_server() -> Stub {
    let sessions = std::sync::Mutex::new((0, None::<String>));
    Stub::serve(move |req| {
        let Ok(mut sessions) = sessions.lock() else {
            return Reply::HangUp;
        };
        let session = req.header("mcp-session-id").map(str::to_owned);
        if session.is_some() && session == sessions.1 && req.json()["method"] != "tasks/get" {
            return Reply::Silence;
        }
        let body = req.json();
        if req.method == "GET" {
            return Reply::empty(405);
        }
        if req.method == "DELETE" || body["method"].as_str().is_none() {
            return Reply::empty(200);
        }
        if req.header("mcp-protocol-version") == Some("2026-07-28") {
            return Reply::json(
                400,
                &json!({ "jsonrpc": "2.0", "id": null,
                    "error": { "code": -32000, "message": "No valid session ID provided" } }),
            );
        }
        let result = match body["method"].as_str().unwrap_or_default() {
            "initialize" => {
                sessions.0 += 1;
                let id = format!("s{}", sessions.0);
                return Reply::Respond {
                    status: 200,
                    headers: vec![
                        ("content-type".into(), "application/json".into()),
                        ("mcp-session-id".into(), id),
                    ],
                    body: json!({ "jsonrpc": "2.0", "id": body["id"], "result": {
                        "protocolVersion": "2025-11-25", "capabilities": { "tools": {}, "tasks": {} },
                        "serverInfo": { "name": "stub", "version": "0" } } })
                    .to_string()
                    .into_bytes(),
                };
            }
            m if m.starts_with("notifications/") => return Reply::empty(202),
            "tools/list" => json!({ "tools": [{ "name": "job", "inputSchema": { "type": "object" },
                "execution": { "taskSupport": "required" } }] }),
            "tools/call" if body["params"].get("task").is_none() => {
                return rpc_error(&body, -32601, "job runs only as a task");
            }
            "tools/call" => {
                sessions.1 = session;
                json!({ "task": { "taskId": "job", "status": "working", "pollInterval": 100,
                    "createdAt": "2026-11-28T10:00:00Z", "lastUpdatedAt": "2026-11-28T10:00:00Z" } })
            }
            "tasks/get" => json!({ "taskId": "job", "status": "working",
                "createdAt": "2026-11-28T10:00:00Z", "lastUpdatedAt": "2026-11-28T10:00:00Z" }),
            _ => json!({}),
        };
        rpc_result(&body, result)
    })
}

/// A stateless server (2026-07-28 form) of the 2025-11-25 "Tasks", played by a stub,
/// whose tool `job` runs as it is until `task_only` is set, then only as a task: called
/// without one it is refused (-32601), its `tools/list` entry says `taskSupport:
/// "required"`, and a task of it is done at once (`tasks/result`: `done`).
fn becomes_task_only(task_only: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Stub {
    Stub::serve(move |req| {
        let body = req.json();
        let required = task_only.load(std::sync::atomic::Ordering::SeqCst);
        let done = |text: &str| json!({ "content": [{ "type": "text", "text": text }] });
        let result = match body["method"].as_str().unwrap_or_default() {
            "tools/list" => {
                let mut job = json!({ "name": "job", "inputSchema": { "type": "object" } });
                if required {
                    job["execution"] = json!({ "taskSupport": "required" });
                }
                json!({ "tools": [job] })
            }
            "tools/call" if body["params"].get("task").is_some() => {
                json!({ "task": { "taskId": "t1", "status": "working", "pollInterval": 100,
                    "createdAt": "2026-11-28T10:00:00Z", "lastUpdatedAt": "2026-11-28T10:00:00Z" } })
            }
            "tools/call" if required => return rpc_error(&body, -32601, "job runs only as a task"),
            "tools/call" => done("ran"),
            "tasks/result" => done("done"),
            "tasks/get" => json!({ "taskId": "t1", "status": "completed",
                "createdAt": "2026-11-28T10:00:00Z", "lastUpdatedAt": "2026-11-28T10:00:01Z" }),
            _ => json!({}),
        };
        rpc_result(&body, result)
    })
}

/// A tool that became task-only since its session's tool list was cached is called as a
/// task: the refusal (-32601) reads the list afresh where the cached entry does not mark
/// it (trusted, the tool stayed refused, exit 5, until something else read the list), and
/// the list read is cached, so the next calls of it cost no `tools/list` (each read one).
#[test]
fn a_tool_that_became_task_only_is_called_as_one_and_its_list_read_once() {
    let sandbox = Sandbox::new();
    let task_only = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let server = becomes_task_only(task_only.clone());
    let endpoint = server.endpoint();
    let call = || sandbox.devtools_at(&endpoint, &["-q", "call", "job"]);
    let lists = || server.sent("tools/list").len();
    assert_eq!(call().tool_text(0), "ran");
    // The list as it was, cached: `job` runs without a task.
    sandbox
        .devtools_at(&endpoint, &["call", "tools/list"])
        .assert_code(0);
    assert_eq!(lists(), 1);
    task_only.store(true, std::sync::atomic::Ordering::SeqCst);
    for _ in 0..3 {
        let out = call();
        assert_eq!(out.tool_text(0), "done", "{out}");
        assert_eq!(out.stderr, "", "{out}");
    }
    assert_eq!(
        lists(),
        2,
        "the list read again once, after the first refusal"
    );
}

#[test]
fn a_task_cancelled_and_a_session_ended_on_the_way_out_share_one_allowance() {
    let sandbox = Sandbox::new();
    let server = hung_task_server();
    assert_outlasted(&sandbox, &server, "job");
    // The timeout, then 500 ms shared by the `tasks/cancel` and the `DELETE`,
    // neither of which is answered: the call ends, whatever the server does. How
    // long it took is not asserted (these machines are too noisy for a bound that
    // tells 2.0 s from 2.5 s).
}

/// The status the task of a `-v` call [`interrupted`] (its exit code `rc` and its
/// `stderr`) ends in, cancelled by mur, as `tasks/get` says once it is no longer working.
fn interrupted_task_ends(sandbox: &Sandbox, rc: i32, stderr: String) -> Value {
    let out = Output {
        stdout: String::new(),
        stderr,
        code: rc,
    };
    final_status(&cancelled_task(&out), |argv| sandbox.devtools(argv))
}

/// `mur devtools ARGS` started in `sandbox`, its stderr going to a file, and signalled
/// `signal` once that file holds a line starting `shown` (the call is in flight): its
/// exit code and stderr.
fn interrupted(sandbox: &Sandbox, args: &[&str], shown: &str, signal: &str) -> (i32, String) {
    let log = sandbox.root().join(format!("interrupted-{signal}.stderr"));
    let file = std::fs::File::create(&log).expect("stderr file");
    let mut command = sandbox.mur_command(&[&["devtools"][..], args].concat());
    command.stdout(std::process::Stdio::null()).stderr(file);
    let process = mur_e2e::Process::spawn(&mut command);
    let read = || std::fs::read_to_string(&log).unwrap_or_default();
    wait_until(&format!("`{shown}` on mur's stderr"), || {
        read().lines().any(|l| l.starts_with(shown)).then_some(())
    });
    process.signal(signal);
    let status = process.wait_status();
    (status.code().unwrap_or(-1), read())
}

/// `stderr` without `-v`'s lines.
fn said(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|l| !l.starts_with("DEBUG "))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn ctrl_c_or_sigterm_on_a_call_tells_the_server_to_stop_it_then_exits_130_or_143() {
    let sandbox = Sandbox::new();
    let _app = with_fixtures(&sandbox, &[]);
    let slow = ["-v", "call", "slow_compute", "--args", r#"{"seconds":60}"#];

    // A call that became a task: the task is cancelled, not left `working`.
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let (rc, stderr) = interrupted(&sandbox, &slow, "task (working)", signal);
        assert_eq!(rc, code, "{stderr}");
        assert_eq!(
            said(&stderr),
            format!(
                "progress: 0/1 computing\ntask (working): computing\nerror: interrupted by \
                 SIG{signal} during the call to tool `slow_compute`: the server was told to stop \
                 it\n"
            )
        );
        assert_eq!(interrupted_task_ends(&sandbox, rc, stderr), "cancelled");
    }

    // A legacy (2025-11-25) session: the request is cancelled and the session ended.
    let legacy = [&["--protocol", "2025-11-25"][..], &slow].concat();
    let (rc, stderr) = interrupted(&sandbox, &legacy, "progress:", "INT");
    assert_eq!(rc, 130, "{stderr}");
    assert_eq!(
        said(&stderr),
        "progress: 0/1 computing\nerror: interrupted by SIGINT during the call to tool \
         `slow_compute`: the server was told to stop it\n"
    );
    for told in [
        "DEBUG `notifications/cancelled` got HTTP 202",
        "DEBUG DELETE ",
    ] {
        assert!(
            stderr.lines().any(|l| l.starts_with(told)),
            "{told}\n{stderr}"
        );
    }
}

/// The terminal or SSH connection closing (SIGHUP) stops a call as Ctrl-C does: the
/// task cancelled, one line, the call recorded as interrupted, exit 129. It killed mur:
/// the task went on running, nothing said and no record (review 609 #4). Under `nohup`
/// (SIGHUP ignored when mur started) it changes nothing: the call runs to its answer.
#[test]
fn sighup_on_a_call_tells_the_server_to_stop_it_then_exits_129_unless_ignored() {
    let sandbox = Sandbox::new();
    let _app = with_fixtures(&sandbox, &[]);
    let slow = ["-v", "call", "slow_compute", "--args", r#"{"seconds":60}"#];
    let (rc, stderr) = interrupted(&sandbox, &slow, "task (working)", "HUP");
    assert_eq!(rc, 129, "{stderr}");
    assert_eq!(
        said(&stderr),
        "progress: 0/1 computing\ntask (working): computing\nerror: interrupted by SIGHUP \
         during the call to tool `slow_compute`: the server was told to stop it\n"
    );
    assert_eq!(interrupted_task_ends(&sandbox, rc, stderr), "cancelled");
    // Recorded as interrupted (the `tasks/get` above is recorded after it).
    let records = crate::usage::records(&sandbox.usage_log());
    let fields = crate::usage::fields(&records, ["tool", "outcome", "exit"]);
    assert_eq!(
        fields.iter().find(|f| f[0] == "slow_compute"),
        Some(&["slow_compute", "interrupted", "129"].map(String::from)),
        "{records:?}"
    );

    // Started with SIGHUP ignored, as `nohup` starts it: it stays ignored.
    let log = sandbox.root().join("nohup.stderr");
    let file = std::fs::File::create(&log).expect("stderr file");
    let mut command = sandbox.shell_command(
        r#"trap '' HUP; exec mur devtools -v call slow_compute --args '{"seconds":2}'"#,
    );
    command.stdout(std::process::Stdio::null()).stderr(file);
    let process = mur_e2e::Process::spawn(&mut command);
    let read = || std::fs::read_to_string(&log).unwrap_or_default();
    wait_until("`task (working)` on mur's stderr", || {
        read()
            .lines()
            .any(|l| l.starts_with("task (working)"))
            .then_some(())
    });
    process.signal("HUP");
    let status = process.wait_status();
    assert_eq!(status.code(), Some(0), "{}", read());
    assert!(!read().contains("interrupted"), "{}", read());
}

/// A verb whose tool is called otherwise is named as typed when it is stopped, as its
/// failure is ("`slow-compute` (tool `slow_compute`)"; the tool's name alone read as
/// if another command had run), and its call is recorded as interrupted, with its exit
/// code and no error class: not a session's failure (it was `session-error`, class
/// `transport`), and the report counts it apart from the failures.
#[test]
fn a_verb_stopped_is_named_as_typed_and_recorded_as_interrupted_not_failed() {
    let sandbox = Sandbox::new();
    let _app = with_fixtures(&sandbox, &[]);
    let verb = ["-v", "slow-compute", "--seconds", "60"];
    let (rc, stderr) = interrupted(&sandbox, &verb, "task (working)", "TERM");
    assert_eq!(rc, 143, "{stderr}");
    assert_eq!(
        said(&stderr),
        "progress: 0/1 computing\ntask (working): computing\nerror: interrupted by SIGTERM \
         during the call to `slow-compute` (tool `slow_compute`): the server was told to stop \
         it\n"
    );
    let records = crate::usage::records(&sandbox.usage_log());
    let keys = ["verb", "kind", "tool", "outcome", "exit", "class"];
    assert_eq!(
        crate::usage::fields(&records, keys).last(),
        Some(
            &[
                "slow-compute",
                "derived",
                "slow_compute",
                "interrupted",
                "143",
                "null"
            ]
            .map(String::from)
        ),
        "{records:?}"
    );
    let report = sandbox.devtools(&["usage", "report", "--json"]).json();
    let row = report["verbs"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["name"] == "slow-compute"))
        .cloned()
        .unwrap_or_default();
    let keys = ["calls", "ok", "otherFailures", "interrupted", "p50Ms"];
    assert_eq!(
        keys.map(|k| row[k].clone()),
        [json!(1), json!(0), json!(0), json!(1), json!(0.0)],
        "{report}"
    );
}

/// Once its call is over, a signal still ends mur: signal-hook cannot give a signal its
/// default back once it has handled it, and unregistering the call's handlers left
/// SIGINT and SIGTERM ignored, so mur, blocked printing a large result into a pipe
/// nobody read, could not be stopped (review RV2 1 of af00142). It ends as a call
/// stopped does, exit 130 or 143 (audit 47 #2: it took the default action, no record).
#[test]
fn after_the_call_a_signal_ends_mur_as_a_call_stopped_does() {
    use std::io::Read as _;
    let sandbox = Sandbox::new();
    let text = "x".repeat(4 << 20);
    let stub = Stub::with_tools(
        json!([{ "name": "big", "inputSchema": { "type": "object" } }]),
        move |_| Ok(json!({ "content": [{ "type": "text", "text": text }] })),
    );
    for signal in ["INT", "TERM"] {
        let mut command = sandbox.mur_command(&["devtools", "--endpoint", &stub.endpoint()]);
        command
            .args(["call", "big"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null());
        let mut process = mur_e2e::Process::spawn(&mut command);
        let mut stdout = process.child_mut().stdout.take().expect("stdout");
        // Its first byte printed: the call is over, and mur blocks on the full pipe.
        stdout
            .read_exact(&mut [0u8; 1])
            .expect("a byte of the result");
        process.signal(signal);
        let status = process.wait_status();
        let code = if signal == "INT" { 130 } else { 143 };
        assert_eq!(status.code(), Some(code), "SIG{signal}: {status}");
        drop(stdout);
    }
}
