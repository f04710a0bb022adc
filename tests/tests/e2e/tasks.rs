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

use crate::bridge_proxy::{answer, proxy_initialized};

/// The fixture `failing_job`'s tool error.
const JOB_FAILED: &str = "The job failed, as this fixture always does";

fn with_fixtures(sandbox: &Sandbox, extra: &[&str]) -> mur_e2e::Session {
    let args = [&["--conformance-fixtures"][..], extra].concat();
    sandbox.start_sample_with(&sandbox.project("app"), &args)
}

/// The id of the task `mur -v` said it cancelled on its way out.
pub(crate) fn cancelled_task(out: &Output) -> String {
    out.stderr
        .lines()
        .find_map(|line| line.strip_prefix("DEBUG cancelling task "))
        .and_then(|rest| rest.split(':').next())
        .unwrap_or_else(|| panic!("no task cancelled\n{out}"))
        .to_owned()
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
        json!({ "content": [{ "type": "text", "text": "L: computed in 1 s" }], "isError": false, "resultType": "complete" }),
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
         protocol_error_job crashes on purpose (JSON-RPC error -32603)\n"
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
    out.assert_code(5);
    assert_eq!(
        out.stderr,
        "error: tool `failing_job` failed: tool `failing_job` runs only as a task, and the request \
         did not declare the extension `io.modelcontextprotocol/tasks` (protocol 2026-07-28) \
         (JSON-RPC error -32021)\n"
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
        &[json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": { "name": "slow_compute", "arguments": { "seconds": 1, "label": "P" } } })],
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

#[test]
fn a_task_is_read_soon_and_one_a_server_ends_badly_is_a_clear_error() {
    let sandbox = Sandbox::new();
    // A server of the extension whose tasks end as its tool's name says: the
    // task id is the tool's name, and `tasks/get` answers by it. It asks to be
    // polled every 5 s, so each call's first look is mur's own early one.
    let server = Stub::serve(|req| {
        let body = req.json();
        let task = |fields: Value| {
            let mut task = json!({ "taskId": body["params"]["taskId"], "status": "working",
                "createdAt": "2026-11-28T10:00:00Z", "lastUpdatedAt": "2026-11-28T10:00:01Z", "ttlMs": 60000 });
            if let (Some(task), Some(fields)) = (task.as_object_mut(), fields.as_object()) {
                task.extend(fields.clone());
            }
            task
        };
        let result = match body["method"].as_str().unwrap_or_default() {
            "tools/call" => {
                json!({ "resultType": "task", "taskId": body["params"]["name"], "status": "working",
                "createdAt": "2026-11-28T10:00:00Z", "lastUpdatedAt": "2026-11-28T10:00:00Z",
                "ttlMs": 60000, "pollIntervalMs": 5000 })
            }
            "tasks/get" => match body["params"]["taskId"].as_str().unwrap_or_default() {
                "bare" => task(json!({ "status": "completed" })),
                "quick" => task(json!({ "status": "completed",
                    "result": { "content": [{ "type": "text", "text": "done" }], "isError": false } })),
                "dropped" => task(json!({ "status": "cancelled" })),
                "crashed" => task(
                    json!({ "status": "failed", "error": { "code": -32603, "message": "out of memory" } }),
                ),
                _ => {
                    return Reply::json(
                        200,
                        &json!({ "jsonrpc": "2.0", "id": body["id"],
                        "error": { "code": -32602, "message": "unknown task" } }),
                    );
                }
            },
            _ => json!({}),
        };
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": body["id"], "result": result }),
        )
    });
    let call =
        |tool: &str| sandbox.devtools(&["--endpoint", &server.endpoint(), "-q", "call", tool]);
    let endpoint = server.endpoint();

    // Done at once, yet the server asks to be polled every 5 s: mur looks
    // soon first, so the call ends well within its 3 s.
    let out = sandbox.devtools(&[
        "--endpoint",
        &endpoint,
        "--timeout",
        "3000",
        "call",
        "quick",
    ]);
    assert_eq!(out.tool_text(0), "done", "{out}");

    let out = call("bare");
    out.assert_code(2);
    assert_eq!(
        out.stderr,
        format!(
            "error: `{endpoint}` says task bare is completed but gives no `result` object with it\n"
        )
    );
    let out = call("dropped");
    out.assert_code(5);
    assert_eq!(
        out.stderr,
        format!(
            "error: `{endpoint}` cancelled task dropped before it ended; the tool gave no result\n"
        )
    );
    let out = call("crashed");
    out.assert_code(5);
    assert_eq!(
        out.json(),
        json!({ "error": { "code": -32603, "message": "out of memory" } })
    );
    let out = call("forgotten");
    out.assert_code(5);
    assert_eq!(
        out.json(),
        json!({ "error": { "code": -32602, "message": "unknown task" } })
    );
}
