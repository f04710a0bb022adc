//! `mur devtools proxy`: a stdio MCP server in front of the discovered session.
//!
//! A stdio client from the Python MCP SDK (1.x, `tests/interop/proxy_client.py`)
//! launches `mur devtools proxy` as its server, as an agent host that can only
//! launch stdio servers would, and drives `mur-sample` through it: `initialize`
//! answered with the session's capabilities, tools listed and called, and the
//! sample's question (`clearTodos` asks for a confirmation) relayed to the
//! client's elicitation callback. Plain JSON lines on stdin show the rest:
//! `ping` answered by the proxy, a JSON-RPC error passed through, progress
//! relayed under the client's own token, and no session at all (or several)
//! answered as an error saying how to fix it, rather than silence.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use mur_e2e::{Output, Process, Sandbox};
use serde_json::{Value, json};

use crate::interop_everything::Everything;
use crate::interop_python;

/// Runs `mur devtools proxy` with `lines` on its stdin and returns what it wrote.
fn proxy(sb: &Sandbox, lines: &[Value]) -> Output {
    proxy_at(sb, &[], lines)
}

/// [`proxy`] with host options (`--endpoint URL`) before `proxy`.
fn proxy_at(sb: &Sandbox, host: &[&str], lines: &[Value]) -> Output {
    proxy_fed_at(sb, host, |stdin| write_lines(stdin, lines))
}

/// [`proxy`] with the proxy's own options after `proxy` (`--timeout MS`).
fn proxy_after(sb: &Sandbox, options: &[&str], lines: &[Value]) -> Output {
    let argv = [&["devtools", "proxy"][..], options].concat();
    mur_fed(sb, &argv, |stdin| write_lines(stdin, lines))
}

/// Writes `lines` on `stdin`, one a line.
fn write_lines(stdin: &mut std::process::ChildStdin, lines: &[Value]) {
    for line in lines {
        writeln!(stdin, "{line}").expect("write a line");
    }
}

/// Runs `mur devtools proxy` with what `feed` writes on its stdin, then its end.
fn proxy_fed(sb: &Sandbox, feed: impl FnOnce(&mut std::process::ChildStdin)) -> Output {
    proxy_fed_at(sb, &[], feed)
}

/// [`proxy_fed`] with host options before `proxy`.
fn proxy_fed_at(
    sb: &Sandbox,
    host: &[&str],
    feed: impl FnOnce(&mut std::process::ChildStdin),
) -> Output {
    let argv = [&["devtools"][..], host, &["proxy"]].concat();
    mur_fed(sb, &argv, feed)
}

/// Runs `mur ARGV…` with what `feed` writes on its stdin, then its end.
fn mur_fed(
    sb: &Sandbox,
    argv: &[&str],
    feed: impl FnOnce(&mut std::process::ChildStdin),
) -> Output {
    let mut command = sb.mur_command(argv);
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let (process, mut stdin) = Process::spawn_with_stdin(&mut command);
    feed(&mut stdin);
    drop(stdin);
    process.wait_output()
}

/// [`proxy`] as an agent's client on 2025-06-18 that declares no capability
/// drives it: `initialize` (id 1) and `notifications/initialized`, then `requests`.
pub(crate) fn proxy_initialized(sb: &Sandbox, requests: &[Value]) -> Output {
    let opening = [
        initialize(),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
    ];
    proxy(sb, &[&opening[..], requests].concat())
}

/// `initialize` (id 1) from an agent's client on 2025-06-18 that declares no capability.
fn initialize() -> Value {
    json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": { "name": "agent", "version": "1" } } })
}

/// A JSON-RPC request with `id` calling the tool `name` with `arguments`.
pub(crate) fn tool_call(id: u64, name: &str, arguments: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": name, "arguments": arguments } })
}

/// A `waitFor` call (request `id`) for a selector nothing on the sample matches: the
/// sample answers it, as a tool's error, after `timeout_ms`.
fn waiting_for_nothing(id: u64, timeout_ms: u64) -> Value {
    tool_call(
        id,
        "waitFor",
        json!({ "selector": "#nope", "timeoutMs": timeout_ms }),
    )
}

/// The answer with `id` among the lines the proxy wrote.
pub(crate) fn answer(out: &Output, id: u64) -> Value {
    out.json_lines()
        .into_iter()
        .find(|m| m["id"] == id)
        .unwrap_or_else(|| panic!("no answer with id {id}\n{out}"))
}

/// `proxy` reads the host options that find and call the session, and its help lists
/// those alone: `--pretty` (it writes JSON-RPC messages, one a line) and `--refresh` are
/// refused, before the command or after it, as an option it does not have is (exit 1,
/// with the usage). Both were taken, and changed nothing.
#[test]
fn proxy_refuses_the_host_options_it_does_not_read() {
    let sb = Sandbox::new();
    let reads = "`--endpoint`, `--project`, `--auto`, `--auto-full`, `--auto-range`, \
                 `--timeout`, `--max-response`, `-v`, `-q`, `--answer` and `--protocol`";
    let usage = "hint: usage: mur devtools proxy [OPTIONS] (`--help` shows more)";
    for (args, option) in [
        (&["devtools", "proxy", "--pretty"][..], "--pretty"),
        (&["--refresh", "devtools", "-q", "proxy"], "--refresh"),
    ] {
        let out = mur_fed(&sb, args, |_| {});
        out.assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: `{option}` does nothing for `proxy`, which reads only {reads} of the host \
             options\n{usage}\n"
            ));
    }
}

#[test]
fn an_sdk_stdio_client_drives_the_sample_through_the_proxy() {
    let Some(python) = interop_python::python_or_skip("interop-venv", "1", "requirements.txt")
    else {
        return;
    };
    let (sb, _sample) = Sandbox::with_app();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("interop/proxy_client.py");
    let mut command = sb.command(&python);
    command
        .arg("-B")
        .arg(&script)
        .arg(&sb.artifacts().mur)
        .args(["devtools", "proxy"]);
    let out = mur_e2e::run(&mut command);
    out.assert_code(0);
    let seen = out.json();
    assert_eq!(seen["server"], "mur-sample", "{out}");
    assert!(seen["capabilities"]["tools"].is_object(), "{out}");
    for tool in ["click", "state", "clearTodos"] {
        assert!(
            seen["tools"]
                .as_array()
                .is_some_and(|t| t.contains(&json!(tool))),
            "{tool} missing\n{out}"
        );
    }
    assert_eq!(
        (&seen["before"], &seen["after"]),
        (&json!("0"), &json!("1")),
        "{out}"
    );
    assert_eq!(
        seen["asked"],
        json!(["Clear all 1 todo(s)? This cannot be undone."]),
        "the question reached the client's callback\n{out}"
    );
    assert_eq!(
        seen["cleared"],
        json!({ "cleared": 1, "remaining": 0 }),
        "{out}"
    );
}

#[test]
fn the_proxy_answers_ping_itself_relays_progress_and_passes_errors_through() {
    let (sb, _sample) = Sandbox::with_app();
    let out = proxy_initialized(
        &sb,
        &[
            json!({ "jsonrpc": "2.0", "id": 2, "method": "ping" }),
            json!({ "jsonrpc": "2.0", "id": 3, "method": "nosuch/method" }),
            tool_call(4, "state", json!({ "selector": "#count" })),
            json!({ "jsonrpc": "2.0", "id": 5, "method": "tools/call",
                    "params": { "name": "exportTodos", "arguments": {},
                                "_meta": { "progressToken": "p1" } } }),
            tool_call(6, "state", json!(["#count"])),
            json!({ "jsonrpc": "2.0", "id": { "not": "an id" }, "method": "ping" }),
        ],
    );
    out.assert_code(0);
    let init = answer(&out, 1);
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "{out}");
    assert_eq!(init["result"]["serverInfo"]["name"], "mur-sample", "{out}");
    assert_eq!(answer(&out, 2)["result"], json!({}), "{out}");
    assert_eq!(answer(&out, 3)["error"]["code"], -32601, "{out}");
    assert_eq!(
        answer(&out, 4)["result"]["structuredContent"]["text"],
        "0",
        "{out}"
    );
    assert!(answer(&out, 5)["result"].is_object(), "{out}");
    // The session's own word for malformed params, passed through whole.
    assert_eq!(
        answer(&out, 6)["error"],
        json!({ "code": -32602, "message": "invalid params for `tools/call`: `arguments` must be an object of the tool's arguments by name (invalid type: sequence, expected a map)" }),
        "{out}"
    );
    let bad_id: Vec<Value> = out
        .json_lines()
        .into_iter()
        .filter(|m| m["id"].is_null() && m.get("id").is_some())
        .collect();
    assert_eq!(
        bad_id,
        [
            json!({ "jsonrpc": "2.0", "id": null, "error": { "code": -32600,
                 "message": "Invalid Request: `id` must be a string or a number" } })
        ],
        "{out}"
    );
    // The session's progress comes back under the client's own token.
    let progress: Vec<Value> = out
        .json_lines()
        .into_iter()
        .filter(|m| m["method"] == "notifications/progress")
        .collect();
    assert!(!progress.is_empty(), "no progress relayed\n{out}");
    assert!(
        progress
            .iter()
            .all(|p| p["params"]["progressToken"] == "p1"),
        "{out}"
    );
    let answers = out
        .json_lines()
        .into_iter()
        .filter(|m| m.get("id").is_some());
    assert_eq!(answers.count(), 7, "one answer per request\n{out}");
}

/// A client that negotiated 2025-06-18 gets results of that revision's shape, though
/// mur speaks 2026-07-28 to the sample: none of the fields that revision added
/// (`resultType`, a list's `ttlMs` and `cacheScope`), which a strict client refuses. And
/// what is no JSON-RPC 2.0 request is refused with Invalid Request (-32600), under its
/// id, rather than served: before, a `ping` of `jsonrpc` 1.0, or of none, was answered.
/// So is a message with an `id` and neither `method` nor `result` nor `error`, which
/// was taken for an answer nobody asked for and dropped, its client waiting for ever
/// (review 609 #7); an answer (`result`) to no question of the proxy's is still not
/// answered, as JSON-RPC asks.
#[test]
fn the_proxys_client_gets_its_revisions_shape_and_json_rpc_2_0_alone_is_served() {
    let (sb, _sample) = Sandbox::with_app();
    let out = proxy_initialized(
        &sb,
        &[
            tool_call(2, "state", json!({ "selector": "#count" })),
            json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/list" }),
            json!({ "jsonrpc": "1.0", "id": 5, "method": "ping" }),
            json!({ "id": 6, "method": "ping" }),
            json!({ "jsonrpc": "2.0", "id": 7, "params": {} }),
            json!({ "jsonrpc": "2.0", "id": 8, "result": {} }),
        ],
    );
    out.assert_code(0);
    assert_eq!(
        answer(&out, 7),
        json!({ "jsonrpc": "2.0", "id": 7, "error": { "code": -32600,
            "message": "Invalid Request: neither `method` nor `result` nor `error`" } }),
        "{out}"
    );
    assert!(
        out.json_lines().iter().all(|m| m["id"] != 8),
        "an answer answered\n{out}"
    );
    let call = answer(&out, 2)["result"].clone();
    assert_eq!(call["structuredContent"]["text"], "0", "{out}");
    let list = answer(&out, 3)["result"].clone();
    assert!(
        list["tools"].as_array().is_some_and(|t| !t.is_empty()),
        "{out}"
    );
    for (result, what) in [(&call, "tools/call"), (&list, "tools/list")] {
        for field in ["resultType", "ttlMs", "cacheScope"] {
            assert!(result.get(field).is_none(), "{what} has `{field}`\n{out}");
        }
    }
    for id in [5, 6] {
        assert_eq!(
            answer(&out, id),
            json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32600,
                "message": "Invalid Request: `jsonrpc` must be the string `2.0`" } }),
            "{out}"
        );
    }
}

/// A client of 2025-11-25 asking the proxy about a task (`tasks/get`) gets it in that
/// revision's form — `ttl` and `pollInterval`, no `resultType`, no outcome inlined —
/// though the sample answers mur in 2026-07-28's (`ttlMs`, `pollIntervalMs`); it got
/// that form, its `ttlMs` taken off. And `initialize` asking for a revision the proxy
/// does not speak ("banana") is answered with one it does, 2025-11-25, as MCP's lifecycle
/// asks (the client decides), and served so; one it speaks is echoed. Before, any was
/// echoed.
#[test]
fn a_task_is_told_in_the_clients_revision_and_an_unknown_one_is_answered_with_one_spoken() {
    let sb = Sandbox::new();
    let app = sb.start_sample_with(&sb.project("app"), &["--conformance-fixtures"]);
    // Another client, of 2026-07-28, leaves a long task running.
    let follows_tasks = json!({ "io.modelcontextprotocol/clientCapabilities": {
        "extensions": { "io.modelcontextprotocol/tasks": {} } } });
    let created = mur_e2e::mcp::tool_exchange(
        app.endpoint(),
        "slow_compute",
        json!({ "arguments": { "seconds": 60 } }),
        follows_tasks,
    );
    let task = mur_e2e::mcp::response(&created)["result"]["taskId"].clone();
    assert!(task.is_string(), "{created:?}");
    for (asked, answered) in [("2025-11-25", "2025-11-25"), ("banana", "2025-11-25")] {
        let out = proxy(
            &sb,
            &[
                json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                    "protocolVersion": asked, "capabilities": {},
                    "clientInfo": { "name": "agent", "version": "1" } } }),
                json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
                json!({ "jsonrpc": "2.0", "id": 2, "method": "tasks/get",
                        "params": { "taskId": task } }),
            ],
        );
        out.assert_code(0);
        assert_eq!(
            answer(&out, 1)["result"]["protocolVersion"],
            answered,
            "{out}"
        );
        let got = answer(&out, 2)["result"].clone();
        assert_eq!(
            (&got["taskId"], &got["status"]),
            (&task, &json!("working")),
            "{out}"
        );
        assert!(got["pollInterval"].is_u64() && got["ttl"].is_u64(), "{out}");
        for field in ["pollIntervalMs", "ttlMs", "resultType", "result"] {
            assert!(got.get(field).is_none(), "`{field}` for {asked}\n{out}");
        }
    }
}

/// A task of `slow_compute` working for `seconds` at the sample `app`, as another
/// client, of 2026-07-28, leaves it: its id.
fn sample_task(app: &mur_e2e::Session, seconds: u64) -> Value {
    sample_task_of(app, "slow_compute", json!({ "seconds": seconds }))
}

/// A task of the sample's tool `name` called with `arguments`, as another client, of
/// 2026-07-28, that answers questions, leaves it: its id.
fn sample_task_of(app: &mur_e2e::Session, name: &str, arguments: Value) -> Value {
    let follows_tasks = json!({ "io.modelcontextprotocol/clientCapabilities": {
        "elicitation": {}, "extensions": { "io.modelcontextprotocol/tasks": {} } } });
    let created = mur_e2e::mcp::tool_exchange(
        app.endpoint(),
        name,
        json!({ "arguments": arguments }),
        follows_tasks,
    );
    let task = mur_e2e::mcp::response(&created)["result"]["taskId"].clone();
    assert!(task.is_string(), "{created:?}");
    task
}

/// `initialize` of a client of 2025-11-25 with `capabilities`.
pub(crate) fn initialize_2025(capabilities: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": capabilities,
        "clientInfo": { "name": "agent", "version": "1" } } })
}

/// A client of 2025-11-25 whose `tasks/result` waits on a task of the sample that waits
/// on questions (`multi_input`, two at once, in `inputRequests`) is asked them there, as
/// its revision asks: each an `elicitation/create` naming the task in `_meta`. Its
/// answers go to the sample (`tasks/update`), and the result comes, the task named. A
/// client that cannot answer (no `elicitation`) is told so at once, the task left
/// waiting. Both waited for ever: nothing asked the questions.
#[test]
fn a_client_of_2025_11_25_answers_a_sample_tasks_questions_through_tasks_result() {
    let sb = Sandbox::new();
    let app = sb.start_sample_with(&sb.project("app"), &["--conformance-fixtures"]);
    let task = sample_task_of(&app, "multi_input", json!({}));
    let out = proxy(
        &sb,
        &[
            initialize_2025(json!({})),
            about_task(2, "tasks/result", &task),
        ],
    );
    out.assert_code(0);
    let id = task.as_str().expect("a task id");
    assert_eq!(
        answer(&out, 2)["error"],
        json!({ "code": -32603, "message": format!(
            "task `{id}` waits on an answer to \"First name?\", which the client cannot \
             give: it declared no `elicitation` capability") }),
        "{out}"
    );

    let mut proxy = Live::start(&sb, &["proxy"]);
    proxy.send(&initialize_2025(json!({ "elicitation": {} })));
    proxy.answer(1);
    proxy.send(&about_task(2, "tasks/result", &task));
    // Asked one at a time, each answered before the next is asked.
    let mut asked = Vec::new();
    for n in 1..=2 {
        let question = mur_e2e::wait_until(&format!("question {n}"), || {
            let mut questions = proxy
                .lines()
                .into_iter()
                .filter(|m| m["method"] == "elicitation/create");
            questions.nth(n - 1)
        });
        let params = &question["params"];
        assert_eq!(
            params["_meta"],
            json!({ "io.modelcontextprotocol/related-task": { "taskId": task } }),
            "{question}"
        );
        let message = params["message"].as_str().unwrap_or_default().to_owned();
        let name = if message == "First name?" {
            "Ada"
        } else {
            "Grace"
        };
        proxy.send(&json!({ "jsonrpc": "2.0", "id": question["id"],
            "result": { "action": "accept", "content": { "name": name } } }));
        asked.push(message);
    }
    asked.sort();
    assert_eq!(asked, ["First name?", "Second name?"]);
    assert_eq!(
        proxy.answer(2)["result"],
        json!({ "content": [{ "type": "text", "text": "Both answered: Ada, Grace" }],
            "isError": false,
            "_meta": { "io.modelcontextprotocol/related-task": { "taskId": task } } })
    );
    proxy.end().assert_code(0);
}

/// A client of 2025-11-25 gets a task of the sample (which speaks 2026-07-28, whose
/// tasks extension has neither) as 2025-11-25 asks: `tasks/result` waits for the task to
/// end and answers its result, the task named in `_meta`, where it got -32601; and
/// `tasks/cancel` answers the task cancelled, in that revision's form, where it got
/// `{}`, and refuses one that ended already (-32602). `initialize` asking for
/// 2026-07-28, which has no `initialize`, is answered 2025-11-25, as the sample answers
/// it, and the results are shaped so; it was echoed.
#[test]
fn a_client_of_2025_11_25_gets_a_sample_tasks_result_and_cancels_one() {
    let sb = Sandbox::new();
    let app = sb.start_sample_with(&sb.project("app"), &["--conformance-fixtures"]);
    let quick = sample_task(&app, 2);
    let long = sample_task(&app, 600);
    for asked in ["2025-11-25", "2026-07-28"] {
        let mut proxy = Live::start(&sb, &["proxy"]);
        proxy.send(
            &json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": asked, "capabilities": {},
            "clientInfo": { "name": "agent", "version": "1" } } }),
        );
        assert_eq!(
            proxy.answer(1)["result"]["protocolVersion"],
            "2025-11-25",
            "{asked}"
        );
        proxy.send(&about_task(2, "tasks/result", &quick));
        assert_eq!(
            proxy.answer(2)["result"],
            json!({ "content": [{ "type": "text", "text": "work: computed in 2 s" }],
                "isError": false,
                "_meta": { "io.modelcontextprotocol/related-task": { "taskId": quick } } }),
            "{asked}"
        );
        proxy.send(&about_task(3, "tasks/cancel", &quick));
        assert_eq!(
            proxy.answer(3)["error"]["code"],
            -32602,
            "{asked}: a task that ended is not cancelled"
        );
        if asked == "2025-11-25" {
            proxy.send(&about_task(4, "tasks/cancel", &long));
            let cancelled = proxy.answer(4)["result"].clone();
            assert_eq!(
                (&cancelled["taskId"], &cancelled["status"]),
                (&long, &json!("cancelled")),
                "{cancelled}"
            );
            assert!(
                cancelled["ttl"].is_u64() || cancelled["ttl"].is_null(),
                "{cancelled}"
            );
            for field in ["pollIntervalMs", "ttlMs", "resultType"] {
                assert!(cancelled.get(field).is_none(), "`{field}`: {cancelled}");
            }
        }
        proxy.end().assert_code(0);
    }
}

/// A request under the proxy's line limit (4 MiB) whose body, as mur sends it on, is past
/// the session's cap is answered with an error saying so, in one line, and the proxy
/// serves on: the session read the body on to its end before refusing it, where it
/// closed the connection as the headers declared it, and the proxy's client read
/// "Broken pipe".
#[test]
fn a_request_past_the_sessions_cap_is_answered_too_large_in_one_line() {
    let (sb, sample) = Sandbox::with_app();
    let text = "x".repeat((4 << 20) - 200);
    let large = |id| tool_call(id, "state", json!({ "selector": text }));
    let out = proxy_initialized(
        &sb,
        &[
            large(2),
            large(3),
            large(4),
            tool_call(5, "state", json!({ "selector": "#count" })),
        ],
    );
    out.assert_code(0);
    // The size said is the request's as sent (the text in its envelope).
    let said = format!("`{}` refused the request of ", sample.lock.endpoint);
    let message = answer(&out, 2)["error"]["message"].clone();
    let sent: usize = (message.as_str().and_then(|m| m.strip_prefix(&said)))
        .and_then(|rest| rest.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(sent > 4 << 20, "{out}");
    let refused = json!({ "code": -32603, "message": format!(
        "{said}{sent} bytes as larger than it takes (HTTP 413; a session of mur's takes at \
         most 4 MiB, 4194304 bytes, in one)"
    ) });
    for id in 2..=4 {
        assert_eq!(answer(&out, id)["error"], refused, "{out}");
    }
    assert_eq!(
        answer(&out, 5)["result"]["structuredContent"]["text"],
        "0",
        "{out}"
    );
}

#[test]
fn with_no_session_each_request_gets_an_error_naming_why() {
    let sb = Sandbox::new();
    let out = proxy(
        &sb,
        &[json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/list" })],
    );
    out.assert_code(0);
    let error = &answer(&out, 7)["error"];
    assert_eq!(error["code"], -32603, "{out}");
    // With the hints mur prints: the agent reads the fix too.
    let message = error["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(
            "no running devtools session found\nhint: start the app with its devtools session enabled"
        ),
        "{out}"
    );
    // Two sessions: which one is meant, and how to say it.
    let _apps = [sb.start_app(), sb.start_sample(&sb.project("other"))];
    let out = proxy(
        &sb,
        &[json!({ "jsonrpc": "2.0", "id": 8, "method": "tools/list" })],
    );
    let message = answer(&out, 8)["error"]["message"].clone();
    let message = message.as_str().unwrap_or_default();
    assert!(
        message.starts_with("2 live devtools sessions found; which one is meant?\n")
            && message.ends_with("\nhint: choose one with `--project PATH` or `--endpoint URL`"),
        "{out}"
    );
    // The sessions themselves, one line each, as mur lists them.
    let listed = message
        .lines()
        .filter(|l| l.starts_with("  ") && l.contains("(pid "))
        .count();
    assert_eq!(listed, 2, "{message}");
}

#[test]
fn a_line_that_is_no_utf8_is_answered_and_the_call_in_flight_still_gets_its_answer() {
    let (sb, _sample) = Sandbox::with_app();
    // A call that takes a while, then a line that is no UTF-8, then the end.
    let slow = waiting_for_nothing(1, 1000);
    let out = proxy_fed(&sb, |stdin| {
        writeln!(stdin, "{slow}").expect("write a line");
        stdin.write_all(b"\xff\xfe\n").expect("write a line");
    });
    out.assert_code(0);
    let lines = out.json_lines();
    assert!(
        lines
            .iter()
            .any(|m| m["id"].is_null() && m["error"]["code"] == -32700),
        "no parse error\n{out}"
    );
    answer(&out, 1);
}

#[test]
fn in_front_of_an_older_server_initialize_tells_that_servers_capabilities_name_and_instructions() {
    use mur_e2e::stub::{Reply, Stub};
    let sb = Sandbox::new();
    // A 2025-11-25 server: sessions only, and no `server/discover`.
    let initialized = json!({
        "protocolVersion": "2025-11-25",
        "capabilities": { "tools": { "listChanged": true },
                          "resources": { "subscribe": true, "listChanged": true },
                          "prompts": {}, "completions": {}, "logging": {} },
        "serverInfo": { "name": "older-server", "version": "3.1" },
        "instructions": "Use the older server's tools." });
    let server = Stub::legacy("s-1", initialized, |req| {
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": req.json()["id"],
                     "error": { "code": -32601, "message": "Method not found" } }),
        )
    });
    let endpoint = server.endpoint();
    let out = proxy_at(&sb, &["--endpoint", &endpoint], &[initialize()]);
    let result = answer(&out, 1)["result"].clone();
    // Less the subscriptions: nothing outside a request reaches the proxy's client.
    assert_eq!(
        result["capabilities"],
        json!({ "tools": {}, "resources": {},
                "prompts": {}, "completions": {}, "logging": {} }),
        "{out}"
    );
    assert_eq!(
        result["serverInfo"],
        json!({ "name": "older-server", "version": "3.1" })
    );
    assert_eq!(result["instructions"], "Use the older server's tools.");
    // mur's own `call` sends the method as it is and gets the server's answer: it has none.
    let asked = sb.devtools_at(&endpoint, &["call", "--method", "server/discover"]);
    asked.assert_code(5);
    assert_eq!(asked.json()["error"]["code"], -32601, "{asked}");
}

/// Told to speak 2025-11-25 to a session that refuses `server/discover` there with
/// another error than "method not found" (mur-sample's: -32602, invalid params), the
/// proxy still answers `initialize` with the session's capabilities and name, from
/// the `initialize` mur ran with it (it answered a stub with only `tools` before).
#[test]
fn over_2025_11_25_initialize_tells_the_sessions_capabilities_whatever_discover_answered() {
    let (sb, _sample) = Sandbox::with_app();
    let out = proxy_at(&sb, &["--protocol", "2025-11-25"], &[initialize()]);
    out.assert_code(0);
    let result = answer(&out, 1)["result"].clone();
    assert_eq!(result["serverInfo"]["name"], "mur-sample", "{out}");
    assert!(result["capabilities"]["logging"].is_object(), "{out}");
    assert!(result["capabilities"]["resources"].is_object(), "{out}");
}

/// A session's usage records name the agent host behind the proxy (its `clientInfo`),
/// not mur, in either revision the proxy speaks to the session.
#[test]
fn the_session_is_told_the_agent_host_behind_the_proxy_is_who_calls() {
    for protocol in [None, Some("2025-11-25")] {
        let sb = Sandbox::new();
        let (_app, served) = sample_recording(&sb);
        let host: Vec<&str> = protocol.map_or(vec![], |p| vec!["--protocol", p]);
        // The second call labels itself a verb of mur's: the proxy's calls are MCP.
        let labelled = json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": { "name": "version", "arguments": {},
                        "_meta": { "dev.mur/verb": { "name": "click", "kind": "plugin" } } } });
        let opening = [
            initialize(),
            json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
            tool_call(2, "version", json!({})),
            labelled,
        ];
        let out = proxy_at(&sb, &host, &opening);
        out.assert_code(0);
        assert!(answer(&out, 2)["result"].is_object(), "{out}");
        // A client that never said who it is: the session is told mur's proxy called.
        let anonymous = proxy_at(&sb, &host, &[tool_call(4, "version", json!({}))]);
        assert!(answer(&anonymous, 4)["result"].is_object(), "{anonymous}");
        let records = crate::usage::records(&served);
        let seen: Vec<[&str; 3]> = records
            .iter()
            .map(|r| {
                let text = |key: &str| r[key].as_str().unwrap_or("-");
                [text("surface"), text("tool"), text("client")]
            })
            .collect();
        let proxy = format!("mur-proxy {}", env!("CARGO_PKG_VERSION"));
        let mut seen = seen;
        seen.sort_unstable();
        assert_eq!(
            seen,
            [
                ["mcp", "version", "agent 1"],
                ["mcp", "version", "agent 1"],
                ["mcp", "version", proxy.as_str()],
            ],
            "{protocol:?}: {records:#?}"
        );
    }
}

/// What a client says of itself is vetted before the session is told it, in either
/// revision: a `clientInfo` with no version is relayed (a 2025-11-25 session refused it,
/// and so every request), one whose name is no string is not (the session recorded
/// rmcp's own name), and a name of 1.5 MB is cut (its records were longer than a usage
/// report reads, so the client was never counted).
#[test]
fn a_clients_info_is_vetted_and_bounded_before_the_session_records_it() {
    let long = "B".repeat(1_500_000);
    let clients = [
        json!({ "name": "noversion" }),
        json!({ "name": 12345, "version": ["x"] }),
        json!({ "name": long, "version": "1" }),
    ];
    for protocol in [None, Some("2025-11-25")] {
        let sb = Sandbox::new();
        let (_app, served) = sample_recording(&sb);
        let host: Vec<&str> = protocol.map_or(vec![], |p| vec!["--protocol", p]);
        for (n, client) in clients.iter().enumerate() {
            let mut opening = initialize();
            opening["params"]["clientInfo"] = client.clone();
            let out = proxy_at(&sb, &host, &[opening, tool_call(2, "version", json!({}))]);
            out.assert_code(0);
            let called = answer(&out, 2);
            assert!(
                called["result"].is_object(),
                "{protocol:?}, client {n}: {called}"
            );
        }
        let text = std::fs::read_to_string(&served).expect("the usage log");
        assert!(
            text.lines().all(|line| line.len() < 4096),
            "{protocol:?}: a record of {} bytes",
            text.lines().map(str::len).max().unwrap_or_default()
        );
        let seen = crate::usage::clients(&served);
        let cut = format!("{}… 1", "B".repeat(200));
        let proxy = format!("mur-proxy {}", env!("CARGO_PKG_VERSION"));
        assert_eq!(
            seen,
            ["noversion", proxy.as_str(), cut.as_str()],
            "{protocol:?}"
        );
    }
}

/// A proxy started with `--usage-log PATH` in front of a session that records nothing
/// records each tool call it forwards once answered, as a session would (side `server`,
/// surface `mcp`, in the name of the `clientInfo` its client gave, the session's project,
/// how it ended), and nothing else it serves; argument values never; a client that named
/// itself nowhere is no client (`(unnamed)`). `usage report --server-log` counts them on
/// `server/mcp` under their client. Without it, a third-party server's MCP side could
/// not be measured at all (the proxy recorded nothing).
#[test]
fn a_proxy_with_a_usage_log_records_each_tool_call_it_forwards() {
    let (sb, app) = Sandbox::with_app();
    let log = sb.root().join("proxied.jsonl");
    let log_arg = log.to_str().expect("utf-8 path");
    let secret = "a-value-never-recorded";
    let lines = [
        initialize(),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
        tool_call(2, "version", json!({})),
        tool_call(3, "getText", json!({ "selector": secret })),
        json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/list" }),
    ];
    let out = proxy_after(&sb, &["--usage-log", log_arg], &lines);
    out.assert_code(0);
    assert!(answer(&out, 2)["result"].is_object(), "{out}");
    assert!(answer(&out, 4)["result"]["tools"].is_array(), "{out}");
    let records = crate::usage::records(&log);
    let project = app.lockfile.file_stem().expect("a lockfile name");
    let project = project.to_str().expect("utf-8");
    let mut seen = mur_e2e::fields(
        &records,
        ["side", "surface", "client", "tool", "outcome", "project"],
    );
    seen.sort_unstable();
    let expected = [
        ["server", "mcp", "agent 1", "getText", "rpc-error", project],
        ["server", "mcp", "agent 1", "version", "ok", project],
    ];
    assert_eq!(
        seen,
        expected.map(|row| row.map(str::to_owned)),
        "{records:#?}"
    );
    let text = std::fs::read_to_string(&log).expect("the proxy's log");
    assert!(!text.contains(secret), "{text}");
    // A client that never said who it is.
    let anonymous = proxy_after(
        &sb,
        &["--usage-log", log_arg],
        &[tool_call(5, "version", json!({}))],
    );
    assert!(answer(&anonymous, 5)["result"].is_object(), "{anonymous}");
    assert_eq!(crate::usage::clients(&log), ["agent 1", "agent 1", "null"]);
    let report = sb.devtools(&["usage", "report", "--server-log", log_arg, "--json"]);
    report.assert_code(0);
    let json = report.json();
    let rows = |table: &str| -> Vec<(Value, Value)> {
        json[table]
            .as_array()
            .into_iter()
            .flatten()
            .map(|row| (row["name"].clone(), row["calls"].clone()))
            .collect()
    };
    assert_eq!(
        rows("surfaces"),
        [(json!("server/mcp"), json!(3))],
        "{json}"
    );
    assert_eq!(
        rows("clientsServed"),
        [(json!("agent 1"), json!(2)), (json!("(unnamed)"), json!(1))],
        "{json}"
    );
}

/// `proxy --usage` keeps its log beside mur's own, where `usage report` reads it with no
/// flag (`usage/sessions/mur-proxy.jsonl`).
#[test]
fn a_proxy_with_usage_records_where_the_report_reads_without_a_flag() {
    let (sb, _app) = Sandbox::with_app();
    let lines = [initialize(), tool_call(2, "version", json!({}))];
    proxy_after(&sb, &["--usage"], &lines).assert_code(0);
    let log = sb.state_dir().join("mur/usage/sessions/mur-proxy.jsonl");
    assert_eq!(crate::usage::clients(&log), ["agent 1"]);
    let report = sb.devtools(&["usage", "report", "--json"]);
    report.assert_code(0);
    let json = report.json();
    let surfaces: Vec<(&Value, &Value)> = json["surfaces"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|row| (&row["name"], &row["calls"]))
        .collect();
    assert_eq!(surfaces, [(&json!("server/mcp"), &json!(1))], "{json}");
}

/// `$XDG_STATE_HOME/mur/usage/sessions`, where `--usage` keeps its logs, made a file,
/// so that no log can be written in it: its path.
pub(crate) fn usage_sessions_a_file(sb: &Sandbox) -> PathBuf {
    let sessions = sb.state_dir().join("mur").join("usage").join("sessions");
    std::fs::create_dir_all(sessions.parent().expect("its directory")).expect("mkdir");
    std::fs::write(&sessions, "").expect("a file where the directory goes");
    sessions
}

/// A `--usage` log that cannot be written ends the proxy (exit 7) before it serves, the
/// hint naming the directory `--usage` writes in, which must be writable: it said "give
/// `--usage-log` a file …, or use `--usage`" to whoever had used it. A `--usage-log`
/// that cannot be written is offered another file, or `--usage`.
#[test]
fn a_usage_log_that_cannot_be_written_gets_the_hint_of_the_option_given() {
    let sb = Sandbox::new();
    let sessions = usage_sessions_a_file(&sb);
    let out = proxy_after(&sb, &["--usage"], &[]);
    out.assert_code(7)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: cannot write the usage log `{dir}/mur-proxy.jsonl`: Not a directory (os error \
         20)\n\
         hint: `--usage` keeps its log in `$XDG_STATE_HOME/mur/usage/sessions` (`{dir}`), \
         which must be a directory mur can write; or give `--usage-log` a file in one\n",
            dir = sessions.display(),
        ));
    let inside = sessions.join("proxied.jsonl");
    let out = proxy_after(&sb, &["--usage-log", inside.to_str().expect("utf-8")], &[]);
    out.assert_code(7)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: cannot write the usage log `{}`: Not a directory (os error 20)\n\
         hint: give `--usage-log` a file in a directory mur can write, or use `--usage`\n",
            inside.display(),
        ));
}

/// `proxy --usage-log` in a directory that does not exist is refused as the bridge
/// refuses it: exit 1, one line, before the proxy reads a request (none is answered),
/// and no directory made.
#[test]
fn a_proxy_usage_log_in_a_directory_that_does_not_exist_is_refused_before_it_serves() {
    let (sb, _app) = Sandbox::with_app();
    let missing = sb.root().join("no").join("such");
    let log = missing.join("proxied.jsonl");
    let argv = [
        "devtools",
        "proxy",
        "--usage-log",
        log.to_str().expect("utf-8"),
    ];
    // Refused before it reads stdin, the proxy may be gone before the line is written
    // (a broken pipe, which CI saw): the client's line is offered, not required.
    let out = mur_fed(&sb, &argv, |stdin| {
        let _ = writeln!(stdin, "{}", initialize());
    });
    out.assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `--usage-log`: the directory `{}` does not exist (nothing was started)\n",
            missing.display()
        ));
    assert!(!sb.root().join("no").exists(), "a directory was made");
}

/// A sample session recording the calls it serves, and the path of its usage log.
fn sample_recording(sb: &Sandbox) -> (mur_e2e::Session, std::path::PathBuf) {
    let served = sb.root().join("served.jsonl");
    let log = served.to_str().expect("utf-8 path");
    let app = sb.start_sample_with(&sb.project("app"), &["--usage-log", log]);
    (app, served)
}

/// `initialize` from an agent's client that answers questions (form elicitation).
fn initialize_answering() -> Value {
    json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": { "elicitation": {} },
        "clientInfo": { "name": "agent", "version": "1" } } })
}

/// A question is asked of the client with the session's requested schema whole (its
/// titled and legacy enums' labels too), and the client's answer goes back.
#[test]
fn a_question_reaches_the_client_with_its_schema_whole_and_its_answer_goes_back() {
    let sb = Sandbox::new();
    let _app = sb.start_sample_with(&sb.project("app"), &["--conformance-fixtures"]);
    let mut proxy = Live::start(&sb, &["proxy"]);
    proxy.send(&initialize_answering());
    proxy.send(&tool_call(2, "test_elicitation_sep1330_enums", json!({})));
    let question = mur_e2e::wait_until("the question", || {
        let lines = proxy.lines();
        lines
            .into_iter()
            .find(|m| m["method"] == "elicitation/create")
    });
    let schema = &question["params"]["requestedSchema"];
    assert_eq!(
        schema["properties"]["titledSingle"]["oneOf"][0],
        json!({ "const": "value1", "title": "First Option" }),
        "{question}"
    );
    assert_eq!(
        schema["properties"]["legacyEnum"]["enumNames"],
        json!(["Option One", "Option Two", "Option Three"]),
        "{question}"
    );
    let chosen = json!({ "jsonrpc": "2.0", "id": question["id"], "result": {
        "action": "accept", "content": { "untitledSingle": "option2" } } });
    proxy.send(&chosen);
    let answered = proxy.answer(2);
    proxy.end().assert_code(0);
    let said = answered["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(
        said.starts_with("Elicitation completed: action=accept") && said.contains("option2"),
        "{answered}"
    );
}

/// The input ending while a call's question is still to be asked: nobody can answer
/// it, so the call fails saying so, and the proxy ends (it waited for ever).
#[test]
fn a_question_asked_after_the_input_ended_fails_its_call_and_the_proxy_ends() {
    let sb = Sandbox::new();
    let _app = sb.start_sample_with(&sb.project("app"), &["--conformance-fixtures"]);
    let call = tool_call(2, "test_elicitation_sep1330_enums", json!({}));
    let out = proxy(&sb, &[initialize_answering(), call]);
    out.assert_code(0);
    let error = answer(&out, 2)["error"]["message"].clone();
    assert!(
        error.as_str().is_some_and(|m| m.contains(
            "asks \"Please select options from the enum fields\" and the client could not be asked"
        )),
        "{out}"
    );
}

/// A proxy an agent host keeps open: requests written one at a time as a
/// conversation goes, each answer waited for; what it writes goes to a file.
pub(crate) struct Live {
    process: Process,
    stdin: Option<std::process::ChildStdin>,
    stdout: std::path::PathBuf,
}

impl Live {
    /// `mur devtools ARGS…` (`proxy`, with its options), stdin open.
    pub(crate) fn start(sb: &Sandbox, args: &[&str]) -> Self {
        Self::of(sb, sb.mur_command(&[&["devtools"][..], args].concat()))
    }

    /// `command` (of `sb`, `mur devtools proxy` in an environment of its own), stdin open.
    fn of(sb: &Sandbox, mut command: std::process::Command) -> Self {
        let stdout = sb.root().join(format!(
            "proxy-{}.out",
            sb.root().read_dir().map_or(0, Iterator::count)
        ));
        command
            .stdout(std::fs::File::create(&stdout).expect("stdout file"))
            .stderr(Stdio::piped());
        let (process, stdin) = Process::spawn_with_stdin(&mut command);
        Self {
            process,
            stdin: Some(stdin),
            stdout,
        }
    }

    pub(crate) fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        writeln!(stdin, "{message}").expect("write a line");
    }

    /// Every line written so far.
    fn lines(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(&self.stdout).unwrap_or_default();
        text.lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }

    /// The lines written since byte `read` of its output, whole ones only; `read` moves
    /// past them. For a conversation of many lines, each read once.
    pub(crate) fn lines_after(&self, read: &mut usize) -> Vec<Value> {
        let text = std::fs::read(&self.stdout).unwrap_or_default();
        let new = text.get(*read..).unwrap_or_default();
        let whole = new
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |end| end + 1);
        *read += whole;
        (String::from_utf8_lossy(&new[..whole]).lines())
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }

    /// The answer with `id`, once it is written.
    pub(crate) fn answer(&self, id: u64) -> Value {
        mur_e2e::wait_until(&format!("the answer to request {id}"), || {
            self.lines().into_iter().find(|m| m["id"] == id)
        })
    }

    /// Closes its stdin, as an agent host does before it sends SIGTERM.
    fn close_stdin(&mut self) {
        drop(self.stdin.take());
    }

    /// Sends it `signal` (`TERM`, `INT`, `HUP`), then, if `close_stdin`, closes its
    /// stdin (else left as it is), and waits for it to exit: how it exited, and the
    /// lines it wrote.
    fn ended_by(
        mut self,
        signal: &str,
        close_stdin: bool,
    ) -> (std::process::ExitStatus, Vec<Value>) {
        self.process.signal(signal);
        if close_stdin {
            self.close_stdin();
        }
        let lines = || {
            let text = std::fs::read_to_string(&self.stdout).unwrap_or_default();
            text.lines()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect()
        };
        (self.process.wait_status(), lines())
    }

    /// Closes stdin and waits for the proxy to exit: its output (stdout as written).
    pub(crate) fn end(mut self) -> Output {
        drop(self.stdin.take());
        let mut out = self.process.wait_output();
        out.stdout = std::fs::read_to_string(&self.stdout).unwrap_or_default();
        out
    }
}

/// Sends `version` as request `id`: the pid of the session that answered it.
fn version_answered_by(proxy: &mut Live, id: u64) -> Value {
    proxy.send(&tool_call(id, "version", json!({})));
    let answer = proxy.answer(id);
    assert!(answer["result"].is_object(), "{answer}");
    answer["result"]["structuredContent"]["pid"].clone()
}

/// A proxy that has answered request 2 (`version`) from `session`, after `initialize`:
/// pinned to its project.
fn pinned_to(sb: &Sandbox, session: &mur_e2e::Session) -> Live {
    let mut proxy = Live::start(sb, &["proxy"]);
    proxy.send(&initialize());
    proxy.answer(1);
    assert_eq!(version_answered_by(&mut proxy, 2), session.pid());
    proxy
}

/// One proxy, one project: a second session that starts mid-conversation does not
/// make the next request ambiguous, as it did when the proxy looked afresh each time.
#[test]
fn a_session_that_starts_mid_conversation_leaves_the_proxy_with_its_first() {
    let (sb, first) = Sandbox::with_app();
    let mut proxy = pinned_to(&sb, &first);
    let _second = sb.start_sample(&sb.project("other"));
    assert_eq!(version_answered_by(&mut proxy, 3), first.pid());
    proxy.end().assert_code(0);
}

/// When the first session's project has no session, the proxy says so, naming that
/// project, rather than forwarding to another project's server (whose tools the agent
/// host was never told); it follows its project to that project's next session.
#[test]
fn the_proxy_keeps_to_its_project_never_turning_to_another_ones_session() {
    let (sb, first) = Sandbox::with_app();
    let app = sb.project("app");
    let mut proxy = pinned_to(&sb, &first);
    first.kill();
    let _other = sb.start_sample(&sb.project("other"));
    proxy.send(&json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/list" }));
    let project = sb.canonical_project(&app);
    assert_eq!(
        proxy.answer(3)["error"],
        json!({ "code": -32603, "message": format!(
            "no live devtools session for project `{project}`, the one this proxy forwards to\n\
             hint: start its app again (or its bridge: `mur devtools bridge --project {project} -- COMMAND…`): \
             the proxy forwards to the project's next session, whatever its port\n\
             hint: the proxy keeps to the project of the first session it found, as the agent host \
             was told that session's tools; for another project's, configure another proxy with \
             `mur devtools --project PATH proxy`") })
    );
    // The project's next session (a restart: another port and pid) is the proxy's.
    let again = sb.start_sample(&app);
    assert_eq!(version_answered_by(&mut proxy, 4), again.pid());
    proxy.end().assert_code(0);
}

/// A request has no bound of mur's own unless the proxy is started with one: a tool
/// that takes longer than a command line's 10 s gets its own answer. With `--timeout`,
/// a request out of time says how to change the bound where the proxy is started
/// (a command line's hint, "before the verb name", meant nothing to an agent host).
#[test]
fn a_request_is_bounded_only_by_the_proxys_own_timeout_which_its_hint_names() {
    let (sb, app) = Sandbox::with_app();
    // The sample gives up on its own after 11 s: its answer, not mur's 10 s cut.
    let slow = waiting_for_nothing(2, 11000);
    let out = proxy(&sb, &[slow]);
    out.assert_code(0);
    let answered = answer(&out, 2);
    assert_eq!(answered["result"]["isError"], true, "{out}");
    let bounded = waiting_for_nothing(3, 5000);
    let out = proxy_after(&sb, &["--timeout", "300"], &[bounded]);
    assert_eq!(
        answer(&out, 3)["error"]["message"],
        format!(
            "`{}` did not answer within 300 ms\n\
             hint: a slow tool may need a longer bound: start the proxy with a longer \
             `--timeout MS` (`mur devtools proxy --timeout MS`), or with none, to leave the \
             bound to the agent host",
            app.endpoint()
        ),
        "{out}"
    );
}

/// A stdio server (Python, standard library only) for a bridge: `hang` reports
/// progress once and never answers; `cancels` answers with how many
/// `notifications/cancelled` it was sent.
const CANCELLABLE_SERVER: &str = r#"
from line_server import send, serve, text
cancels = []
def cancelled(msg):
    if msg.get("method") == "notifications/cancelled":
        cancels.append(msg)
        return True
def call(mid, params):
    if params.get("name") == "hang":
        token = (params.get("_meta") or {}).get("progressToken")
        send({"jsonrpc": "2.0", "method": "notifications/progress",
              "params": {"progressToken": token, "progress": 1}})
    else:
        text(mid, str(len(cancels)))
serve("cancellable", call, other=cancelled)
"#;

/// A bridge over [`CANCELLABLE_SERVER`] for the project `name`, with `extra`
/// options (`--idle 2s`): its project file, its start line, and its pid (killed
/// on the way out).
fn cancellable_bridge(
    sb: &Sandbox,
    name: &str,
    extra: &[&str],
) -> (std::path::PathBuf, Value, mur_e2e::Adopted) {
    let script = crate::servers::line_server(sb, &format!("{name}.py"), CANCELLABLE_SERVER);
    let project = sb.project(name);
    let mut command = sb.mur_command(&["devtools", "bridge", "--project"]);
    command
        .arg(&project)
        .args(extra)
        .args(["--", "python3", "-u"])
        .arg(script);
    let out = mur_e2e::run(&mut command);
    out.assert_code(0);
    let line = out.json();
    let pid = line["pid"].as_u64().expect("pid") as u32;
    (project, line, mur_e2e::Adopted(pid))
}

/// A request the agent host cancels is given up: the server behind the session (a
/// bridge) is told, no answer comes for it, and the proxy ends with its stdin rather
/// than waiting for the cancelled call (it waited out `--timeout`).
#[test]
fn a_cancelled_request_is_cancelled_at_the_server_and_the_proxy_ends_with_stdin() {
    let sb = Sandbox::new();
    let (project, _, _bridge) = cancellable_bridge(&sb, "cancellable", &[]);
    let project = project.to_str().expect("utf-8 path");
    let mut proxy = Live::start(&sb, &["--project", project, "proxy"]);
    cancel_a_hanging_call(&mut proxy);
    mur_e2e::wait_until("the server to be told of the cancel", || {
        let out = sb.mur(&["devtools", "--project", project, "call", "count"]);
        (out.tool_text(0) == "1").then_some(())
    });
    proxy.send(&json!({ "jsonrpc": "2.0", "id": 3, "method": "ping" }));
    proxy.answer(3);
    let out = proxy.end();
    out.assert_code(0);
    let answered: Vec<Value> = out
        .json_lines()
        .into_iter()
        .filter(|m| m.get("id").is_some())
        .map(|m| m["id"].clone())
        .collect();
    assert_eq!(answered, [json!(1), json!(3)], "{out}");
}

/// As an agent host behind `proxy` does: initializes, calls the cancellable bridge's
/// `hang` (id 2) and, once its progress says the call has reached the server, cancels
/// it with `notifications/cancelled`.
fn cancel_a_hanging_call(proxy: &mut Live) {
    proxy.send(&initialize());
    proxy.answer(1);
    proxy.send(&json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "hang", "arguments": {}, "_meta": { "progressToken": "h" } } }));
    mur_e2e::wait_until("the hanging call's progress", || {
        proxy
            .lines()
            .into_iter()
            .find(|m| m["method"] == "notifications/progress")
    });
    proxy.send(
        &json!({ "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": { "requestId": 2, "reason": "the user pressed Esc" } }),
    );
}

/// A call whose client went away before its answer is recorded `interrupted` by the
/// bridge (`--usage-log`), as a session records it and as the proxy records a call its
/// own client cancelled: an agent host's `notifications/cancelled` (the proxy drops its
/// HTTP request) and `mur` stopped by Ctrl-C mid-call (its connection closes) are the
/// same event on two surfaces, and mur's own record of its call says `interrupted` too.
/// The server is told to cancel each. (The bridge recorded them `rpc-error`, a failure
/// no one had, so an operator read the proxy's and the bridge's records differently.)
#[test]
fn a_call_whose_client_went_away_is_recorded_interrupted_by_the_bridge_and_the_proxy() {
    let sb = Sandbox::new();
    let bridge_log = sb.root().join("bridge.jsonl");
    let proxy_log = sb.root().join("proxy.jsonl");
    let (bridge_arg, proxy_arg) = (
        bridge_log.to_str().expect("utf-8 path"),
        proxy_log.to_str().expect("utf-8 path"),
    );
    let (project, _, _bridge) = cancellable_bridge(&sb, "gone", &["--usage-log", bridge_arg]);
    let project = project.to_str().expect("utf-8 path");
    let cancels_told = |cancels: usize| {
        mur_e2e::wait_until("the server to be told of the cancel", || {
            let out = sb.mur(&["devtools", "--project", project, "call", "count"]);
            (out.tool_text(0) == cancels.to_string()).then_some(())
        });
    };
    // An agent host behind the proxy cancels its call once the call reached the server.
    let mut proxy = Live::start(
        &sb,
        &["--project", project, "proxy", "--usage-log", proxy_arg],
    );
    cancel_a_hanging_call(&mut proxy);
    cancels_told(1);
    proxy.end().assert_code(0);
    // `mur` stopped by Ctrl-C once its call reported progress: the server has it.
    let stderr = sb.root().join("hang.err");
    let mut command = sb.mur_command(&["devtools", "--project", project, "call", "hang"]);
    command
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&stderr).expect("stderr file"));
    let mut mur = Process::spawn(&mut command);
    mur.wait_for_progress(&stderr);
    mur.signal("INT");
    mur.wait_status();
    cancels_told(2);
    // The bridge's records of the two, the proxy's of its client's, and mur's of its own.
    let hung = |path: &Path, keys: [&str; 3]| -> Vec<[String; 3]> {
        let records = crate::usage::records(path);
        let mut seen: Vec<[String; 3]> = mur_e2e::fields(&records, keys)
            .into_iter()
            .filter(|[tool, ..]| tool == "hang")
            .collect();
        seen.sort_unstable();
        seen
    };
    let row = |row: [&str; 3]| row.map(str::to_owned);
    assert_eq!(
        hung(&bridge_log, ["tool", "surface", "outcome"]),
        [
            row(["hang", "cli", "interrupted"]),
            row(["hang", "mcp", "interrupted"]),
        ],
        "{:#?}",
        crate::usage::records(&bridge_log)
    );
    assert_eq!(
        hung(&proxy_log, ["tool", "surface", "outcome"]),
        [row(["hang", "mcp", "interrupted"])],
        "{:#?}",
        crate::usage::records(&proxy_log)
    );
    assert_eq!(
        hung(&sb.usage_log(), ["tool", "side", "outcome"]),
        [row(["hang", "cli", "interrupted"])],
        "{:#?}",
        crate::usage::records(&sb.usage_log())
    );
}

/// What the proxy's error `answer` says after "the bridge of project `CANONICAL`, whose
/// server this proxy forwards to, stopped at TIME: " (checked): why, and its hint.
fn after_the_bridges_stop(answer: &Value, canonical: &str) -> String {
    let message = answer["error"]["message"].as_str().expect("an error");
    let prefix = format!(
        "the bridge of project `{canonical}`, whose server this proxy forwards to, stopped at "
    );
    mur_e2e::after_stop_time(message, &prefix).to_owned()
}

/// A proxy in front of a bridge that stopped after its idle time says when and why that
/// bridge stopped and the command that starts it again, with the options it had (it
/// said "no live devtools session" and listed every other project's; then it guessed
/// at why and left its options out); started again, it is the proxy's.
#[test]
fn when_its_bridge_idles_out_the_proxy_says_so_and_how_to_start_it_again() {
    let sb = Sandbox::new();
    // The proxy runs before the bridge does (it finds a session at its first request):
    // the bridge's 2 s count from its start, and a proxy started after it had to start
    // and send its first request within them, which a loaded machine could miss.
    let mut proxy = Live::start(&sb, &["proxy"]);
    let (project, _, bridge) = cancellable_bridge(&sb, "idle", &["--idle", "2s"]);
    proxy.send(&initialize());
    assert_eq!(
        proxy.answer(1)["result"]["serverInfo"]["name"],
        "cancellable"
    );
    proxy.send(&tool_call(2, "count", json!({})));
    assert!(proxy.answer(2)["result"].is_object());
    // Gone, not only its lockfile: a bridge stopping holds its slot until its server has
    // ended and its log says why, and a request meanwhile waits for it, but only for
    // discovery's 5 s (past them, its log said nothing yet: "killed").
    until_gone(bridge.0, "the bridge to stop, idle");
    assert_eq!(
        sb.read_lockfile(&project),
        None,
        "its lockfile is withdrawn"
    );
    proxy.send(&tool_call(3, "count", json!({})));
    let canonical = sb.canonical_project(&project);
    let script = sb.root().join("idle.py");
    assert_eq!(
        after_the_bridges_stop(&proxy.answer(3), &canonical),
        format!(
            "no request for 2s\n\
             hint: start it again: `{}mur devtools bridge --project {canonical} --idle 2s -- python3 -u {}`; \
             the proxy forwards to it once it runs",
            crate::servers::from_the_root(&sb),
            script.display()
        )
    );
    let (_, _, _again) = cancellable_bridge(&sb, "idle", &[]);
    proxy.send(&tool_call(4, "count", json!({})));
    assert!(proxy.answer(4)["result"].is_object());
    proxy.end().assert_code(0);
}

/// The proxy's error for its bridge of `canonical` killed without a word in `log`,
/// started from `sb`'s root with `options` (its own, then `-- COMMAND…`).
fn killed_said(sb: &Sandbox, canonical: &str, log: &str, options: &str) -> String {
    let cd = crate::servers::from_the_root(sb);
    format!(
        "the bridge of project `{canonical}`, whose server this proxy forwards to, has \
         stopped without a word in its log (it was killed, or its log is gone): `{log}`\n\
         hint: start it again as it was started: `{cd}mur devtools bridge --project {canonical} \
         {options}`; the proxy forwards to it once it runs"
    )
}

/// A proxy in front of a bridge killed without a word in its log offers the command
/// that bridge was started with, its options too (it offered `mur devtools bridge
/// --project P -- CMD`, built by hand, leaving `--idle` and `--max-message` out).
#[test]
fn when_its_bridge_is_killed_the_proxy_offers_the_command_it_was_started_with() {
    let options = ["--idle", "1d", "--max-message", "2M"];
    let (sb, project) = (Sandbox::new(), "killed");
    let (project, _, bridge) = cancellable_bridge(&sb, project, &options);
    let mut proxy = Live::start(&sb, &["proxy"]);
    proxy.send(&initialize());
    proxy.answer(1);
    proxy.send(&tool_call(2, "count", json!({})));
    assert!(proxy.answer(2)["result"].is_object());
    killed(bridge);
    proxy.send(&tool_call(3, "count", json!({})));
    let canonical = sb.canonical_project(&project);
    let log = sb.lockfile_path(&project).with_extension("bridge.log");
    let script = sb.root().join("killed.py");
    assert_eq!(
        proxy.answer(3)["error"]["message"],
        killed_said(
            &sb,
            &canonical,
            &log.display().to_string(),
            &format!(
                "--idle 1d --max-message 2097152 -- python3 -u {}",
                script.display()
            )
        )
    );
    proxy.end().assert_code(0);
}

/// A proxy, initialized, that reads both lockfile directories: the sandbox's
/// `XDG_RUNTIME_DIR` and `scrubbed`'s `${TMPDIR}/reactor-devtools-<uid>`.
fn proxy_of_both(sb: &Sandbox, scrubbed: &crate::host_discovery::NoRuntimeVar) -> Live {
    let mut proxy_command = scrubbed.env(sb.mur_command(&["devtools", "proxy"]));
    proxy_command.env("XDG_RUNTIME_DIR", sb.runtime_dir());
    let mut proxy = Live::of(sb, proxy_command);
    proxy.send(&initialize());
    proxy.answer(1);
    proxy
}

/// The bridge of `project` over `script` (`--idle idle`) started without
/// `XDG_RUNTIME_DIR`, as `scrubbed` runs it: its start line, and its pid (killed on
/// the way out).
fn started_elsewhere(
    sb: &Sandbox,
    scrubbed: &crate::host_discovery::NoRuntimeVar,
    project: &Path,
    idle: &str,
    script: &Path,
) -> (Value, mur_e2e::Adopted) {
    let mut again = scrubbed.env(sb.mur_command(&["devtools", "bridge", "--project"]));
    again
        .arg(project)
        .args(["--idle", idle, "--", "python3", "-u"])
        .arg(script);
    let started = mur_e2e::run(&mut again);
    started.assert_code(0);
    let line = started.json();
    let pid = line["pid"].as_u64().expect("pid") as u32;
    (line, mur_e2e::Adopted(pid))
}

/// Kills `bridge` (SIGKILL: no word in its log) and returns once it is gone.
fn killed(bridge: mur_e2e::Adopted) {
    let pid = bridge.0;
    drop(bridge);
    until_gone(pid, "the killed bridge to be gone");
}

/// Returns once the process `pid` is gone (`what` names the wait), and with it the
/// project's slot it held.
fn until_gone(pid: u32, what: &str) {
    mur_e2e::wait_until(what, || {
        let fate = mur_lockfile::liveness::fate(pid, None);
        (fate == mur_lockfile::liveness::Fate::Gone).then_some(())
    });
}

/// Returns in the next second: stop and start times are to the second.
fn until_the_next_second() {
    let now = mur_lockfile::now_rfc3339();
    mur_e2e::wait_until("the next second", || {
        (mur_lockfile::now_rfc3339()[..19] > now[..19]).then_some(())
    });
}

/// The proxy reads its bridge's last stop where any command does, among the logs in
/// every lockfile directory: started again without `XDG_RUNTIME_DIR` (announced in
/// `${TMPDIR}/reactor-devtools-<uid>`) with other options and stopped, the bridge's
/// newest stop is the one told, its options too (it read the log beside the lockfile it
/// had found, and told the older stop, without them).
#[test]
fn the_proxy_tells_its_bridges_newest_stop_from_whichever_directory() {
    let sb = Sandbox::new();
    let scrubbed = crate::host_discovery::NoRuntimeVar::new(&sb);
    let (project, _, _first) = cancellable_bridge(&sb, "moved", &[]);
    let project_arg = project.to_str().expect("utf-8");
    let mut proxy = proxy_of_both(&sb, &scrubbed);
    let stop = ["devtools", "--project", project_arg, "bridge", "stop"];
    sb.mur(&stop).assert_code(0);
    let script = sb.root().join("moved.py");
    let (_, _second) = started_elsewhere(&sb, &scrubbed, &project, "5m", &script);
    // Stop times are to the second: the second stop is in a later one than the first.
    until_the_next_second();
    scrubbed.mur(&stop).assert_code(0);
    proxy.send(&tool_call(2, "count", json!({})));
    let canonical = sb.canonical_project(&project);
    assert_eq!(
        after_the_bridges_stop(&proxy.answer(2), &canonical),
        format!(
            "stopped by a signal (`bridge stop`, Ctrl+C)\n\
             hint: start it again: `{}mur devtools bridge --project {canonical} --idle 5m -- \
             python3 -u {}`; the proxy forwards to it once it runs",
            crate::servers::from_the_root(&sb),
            script.display()
        )
    );
    proxy.end().assert_code(0);
}

/// A bridge started again in another lockfile directory, after a clean stop in the
/// first, and then killed, is said to be killed, with its own command: the older
/// bridge's stop, the only one in the logs, is not why it is gone (the proxy told that
/// stop, its time and its command, RV4 MED 1).
#[test]
fn a_bridge_killed_after_an_older_one_stopped_elsewhere_is_said_killed() {
    let sb = Sandbox::new();
    let scrubbed = crate::host_discovery::NoRuntimeVar::new(&sb);
    let (project, _, _first) = cancellable_bridge(&sb, "again", &["--idle", "5m"]);
    let project_arg = project.to_str().expect("utf-8");
    let mut proxy = proxy_of_both(&sb, &scrubbed);
    sb.mur(&["devtools", "--project", project_arg, "bridge", "stop"])
        .assert_code(0);
    // Times are to the second: the second bridge starts in a later one than the stop.
    until_the_next_second();
    let script = sb.root().join("again.py");
    let (line, second) = started_elsewhere(&sb, &scrubbed, &project, "1d", &script);
    // The proxy's call goes to the second bridge, which it now forwards to.
    proxy.send(&tool_call(2, "count", json!({})));
    assert!(proxy.answer(2)["result"].is_object());
    killed(second);
    proxy.send(&tool_call(3, "count", json!({})));
    let canonical = sb.canonical_project(&project);
    assert_eq!(
        proxy.answer(3)["error"]["message"],
        killed_said(
            &sb,
            &canonical,
            line["log"].as_str().expect("its log"),
            &format!("--idle 1d -- python3 -u {}", script.display())
        )
    );
    proxy.end().assert_code(0);
}

/// A proxy of `sb`'s session, initialized, with a call in flight that would go on for
/// ten minutes; its stderr to `stderr`. Its stdin and stdout are the host's ends.
fn proxy_in_a_long_call(
    sb: &Sandbox,
    stderr: Stdio,
) -> (
    Process,
    std::process::ChildStdin,
    std::io::BufReader<std::process::ChildStdout>,
) {
    let mut command = sb.mur_command(&["devtools", "proxy"]);
    command.stdout(Stdio::piped()).stderr(stderr);
    let (mut process, mut stdin) = Process::spawn_with_stdin(&mut command);
    let stdout = process.child_mut().stdout.take().expect("stdout");
    let mut stdout = std::io::BufReader::new(stdout);
    write_lines(&mut stdin, &[initialize()]);
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut line).expect("the answer to initialize");
    assert!(line.contains("\"id\":1"), "{line}");
    write_lines(&mut stdin, &[waiting_for_nothing(2, 600_000)]);
    (process, stdin, stdout)
}

/// An agent host killed mid-call (its end of both pipes closed) leaves no proxy behind:
/// with a call in flight that would go on for ten minutes, the proxy sees its stdout
/// closed once its stdin ends, gives the call up and exits (it waited for the call
/// for ever, an orphan per host killed).
#[test]
fn a_proxy_whose_host_is_gone_gives_up_its_calls_in_flight_and_exits() {
    let (sb, _app) = Sandbox::with_app();
    let (mut process, stdin, stdout) = proxy_in_a_long_call(&sb, Stdio::null());
    drop(stdin);
    drop(stdout);
    // A hang guard, well under the minute a proxy whose stdout is still open
    // gives its calls after its input ends.
    let status = mur_e2e::wait_until_within(
        "the proxy to exit with its host gone",
        std::time::Duration::from_secs(30),
        || process.try_wait(),
    );
    assert!(status.success(), "{status}");
}

/// An agent host that closes only its read end of the proxy (the proxy's stdout), its
/// stdin left open, is gone all the same: the call in flight, which would go on for ten
/// minutes, is given up at once and the proxy exits, quietly, as on a closed pipe. It
/// saw the hangup only once its stdin ended or a write failed: it ran the call on.
#[test]
fn a_proxy_whose_host_closes_only_its_stdout_gives_up_its_calls_and_exits() {
    let (sb, _app) = Sandbox::with_app();
    let (process, stdin, stdout) = proxy_in_a_long_call(&sb, Stdio::piped());
    drop(stdout);
    // A hang guard, far past the moment the hangup is seen.
    let (out, _) = process.wait_output_within(std::time::Duration::from_secs(30));
    out.assert_code(0).assert_stderr_is("");
    drop(stdin);
}

/// A proxy whose stdout cannot be written (a full disk: `/dev/full`) stops at once, its
/// stdin still open, with one line saying why and exit 7, as any command whose result
/// cannot be written: it read on until its input ended, every answer lost, and exited 0.
/// A closed pipe (the agent host gone) ends it at once too, quietly, as everywhere.
#[test]
fn a_proxy_whose_stdout_cannot_be_written_stops_at_once_saying_so() {
    let sb = Sandbox::new();
    let list = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" });
    let mut command = sb.mur_command(&["devtools", "proxy"]);
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    command.stdout(full).stderr(Stdio::piped());
    let (process, mut stdin) = Process::spawn_with_stdin(&mut command);
    write_lines(&mut stdin, std::slice::from_ref(&list));
    // Its stdin stays open until it has exited.
    process.wait_output().assert_code(7).assert_stderr_is(
        "error: cannot write to stdout: No space left on device (os error 28)
",
    );
    drop(stdin);
    let mut command = sb.mur_command(&["devtools", "proxy"]);
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let (mut process, mut stdin) = Process::spawn_with_stdin(&mut command);
    drop(process.child_mut().stdout.take());
    write_lines(&mut stdin, &[list]);
    process.wait_output().assert_code(0).assert_stderr_is("");
    drop(stdin);
}

/// A request the agent host cancels, which the proxy relays to a server of the
/// 2025-11-25 revision, is cancelled at that server too (`notifications/cancelled`
/// naming the request in its session), as that revision asks of a client that gives
/// up: before, only the `DELETE`. The session is the proxy's, ended when it ends.
#[test]
fn a_cancelled_request_is_cancelled_at_a_legacy_server_in_its_session() {
    let sb = Sandbox::new();
    let (_server, endpoint, record) = crate::host_call::legacy_py(&sb);
    let mut proxy = Live::start(&sb, &["--endpoint", &endpoint, "proxy"]);
    proxy.send(&initialize());
    proxy.answer(1);
    proxy.send(&tool_call(2, "slow", json!({})));
    let seen = || crate::host_call::legacy_py_seen(&record);
    // The modern request (id 1, refused) comes first; then the call in the session,
    // under an id of the proxy's session.
    let call = mur_e2e::wait_until("the call to reach the server in its session", || {
        seen()
            .into_iter()
            .find(|s| s.starts_with("POST tools/call ") && s != "POST tools/call 1")
    });
    let id = call.trim_start_matches("POST tools/call ").to_owned();
    proxy.send(
        &json!({ "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": { "requestId": 2, "reason": "the user pressed Esc" } }),
    );
    let cancelled = format!("POST notifications/cancelled {id}");
    mur_e2e::wait_until("the call to be cancelled", || {
        seen().contains(&cancelled).then_some(())
    });
    let out = proxy.end();
    out.assert_code(0);
    let seen = seen();
    assert_eq!(
        seen[seen.len() - 3..],
        [call, cancelled, "DELETE".to_owned()],
        "{seen:?}"
    );
    let text = std::fs::read_to_string(&record).expect("record");
    let cancelled: Value =
        serde_json::from_str(text.lines().nth_back(1).expect("the cancel")).expect("json");
    assert_eq!(cancelled["session"], "py-1");
    assert_eq!(
        cancelled["message"]["params"]["reason"],
        "the client cancelled the request"
    );
}

/// A JSON-RPC request with `id` asking after task `task` with `method` (`tasks/get`,
/// `tasks/result`).
pub(crate) fn about_task(id: u64, method: &str, task: &Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": { "taskId": task } })
}

/// server-everything (a session-based server) started for a new sandbox, and an
/// [`initialized_at`] proxy in front of it.
fn initialized_at_everything() -> (Everything, Sandbox, Live) {
    let server = Everything::start();
    let sb = Sandbox::new();
    let proxy = initialized_at(&sb, &server.endpoint);
    (server, sb, proxy)
}

/// A proxy that has answered `initialize` in front of the server at `endpoint`.
fn initialized_at(sb: &Sandbox, endpoint: &str) -> Live {
    let mut proxy = Live::start(sb, &["--endpoint", endpoint, "proxy"]);
    proxy.send(&initialize());
    proxy.answer(1);
    proxy
}

/// Asserts that `server` saw one MCP session, and that the proxy's end deleted it.
#[track_caller]
fn assert_one_session_deleted(server: &Everything) {
    let (created, deleted) = server.sessions();
    assert_eq!(
        created.len(),
        1,
        "one session for the proxy's life: {created:?}"
    );
    assert_eq!(deleted, created, "the proxy's end deletes its session");
}

/// An agent host ends its stdio server with a signal (SIGTERM, as MCP's stdio
/// shutdown does; Ctrl+C; a terminal closed): the proxy ends as at its input's end,
/// its session with a session-based server deleted (the server's log shows it), the
/// call in flight given up (answered so), then exits by the signal. Before, the
/// session was left to the server's idle timeout.
///
/// So too when its stdin has ended as well (MCP's stdio shutdown: stdin closed, then
/// SIGTERM), in either order: closed then signalled (the proxy waiting for the call's
/// answer, or not yet seeing its input end), or signalled then closed. Its session is
/// deleted once. Before, the proxy exited 0 or by the signal at random (once its
/// input's end was served it returned while the signal's own ending went on).
#[test]
fn a_proxy_ended_by_a_signal_deletes_its_session_and_exits_by_it_whenever_its_stdin_ends() {
    let server = Everything::start();
    let sb = Sandbox::new();
    // Each signal with the proxy's stdin left open, closed before it, closed after it.
    let rounds = [("TERM", 15), ("INT", 2), ("HUP", 1)]
        .into_iter()
        .flat_map(|signal| {
            [
                (signal, Stdin::Open),
                (signal, Stdin::ClosedFirst),
                (signal, Stdin::ClosedAfter),
            ]
        });
    for (n, (signal, stdin)) in rounds.enumerate() {
        let mut proxy = calling_long(&sb, &server.endpoint);
        if stdin == Stdin::ClosedFirst {
            proxy.close_stdin();
        }
        let ended = proxy.ended_by(signal.0, stdin == Stdin::ClosedAfter);
        assert_ended_by(&server, n + 1, signal, ended);
    }
}

/// What becomes of a proxy's stdin around the signal that ends it.
#[derive(Clone, Copy, PartialEq)]
enum Stdin {
    Open,
    ClosedFirst,
    ClosedAfter,
}

/// A proxy in front of `endpoint` (server-everything) with a call of 600 s in flight
/// at the server (its first progress relayed), after `echo` was answered.
fn calling_long(sb: &Sandbox, endpoint: &str) -> Live {
    let mut proxy = initialized_at(sb, endpoint);
    proxy.send(&tool_call(2, "echo", json!({ "message": "one" })));
    proxy.answer(2);
    let mut long = tool_call(
        3,
        "trigger-long-running-operation",
        json!({ "duration": 600, "steps": 600 }),
    );
    long["params"]["_meta"] = json!({ "progressToken": "long" });
    proxy.send(&long);
    mur_e2e::wait_until("the call's progress", || {
        let lines = proxy.lines();
        lines
            .into_iter()
            .find(|m| m["params"]["progressToken"] == "long")
    });
    proxy
}

/// Asserts that a proxy of [`calling_long`], the `proxies`th on `server`, `ended` by
/// `signal` (its name, its number): its session, as each before, deleted once, and
/// its long call given up.
#[track_caller]
fn assert_ended_by(
    server: &Everything,
    proxies: usize,
    (signal, number): (&str, i32),
    (status, lines): (std::process::ExitStatus, Vec<Value>),
) {
    use std::os::unix::process::ExitStatusExt as _;
    assert_eq!(status.signal(), Some(number), "SIG{signal}: {status}");
    let (created, deleted) = server.sessions();
    assert_eq!(created.len(), proxies, "one session a proxy: {created:?}");
    assert_eq!(
        deleted, created,
        "SIG{signal}: the proxy's end deletes its session"
    );
    let given_up: Vec<_> = lines.iter().filter(|m| m["id"] == 3).collect();
    assert_eq!(
        given_up,
        [
            &json!({ "jsonrpc": "2.0", "id": 3, "error": { "code": -32603, "message": format!(
            "the request was given up, its call cancelled: the proxy was ended by SIG{signal}"
        ) } })
        ],
        "{lines:?}"
    );
}

/// Through the proxy, a session-based server (server-everything, 2025-11-25) is
/// spoken to in one MCP session for the proxy's life, which the proxy's end (its
/// stdin closed) deletes at the server, as its log shows. So requests in flight at
/// once share it (each numbered apart, as the server matches answers by id); a task
/// the agent host asked for is read in later requests, its status (`tasks/get`) and
/// its result (`tasks/result`); and a resource a tool made for the session (a
/// `resource_link` it answered with) is read by the next request. Before, each request
/// was a session of its own, and the next found no such task.
#[test]
fn a_session_based_server_is_spoken_to_in_one_session_for_the_proxys_life() {
    let (server, _sb, mut proxy) = initialized_at_everything();
    proxy.send(&tool_call(2, "echo", json!({ "message": "one" })));
    proxy.send(&tool_call(3, "echo", json!({ "message": "two" })));
    proxy.send(&tool_call(4, "get-sum", json!({ "a": 2, "b": 3 })));
    for (id, text) in [
        (2, "Echo: one"),
        (3, "Echo: two"),
        (4, "The sum of 2 and 3 is 5."),
    ] {
        let answer = proxy.answer(id);
        assert_eq!(answer["result"]["content"][0]["text"], text, "{answer}");
    }

    let mut asked = tool_call(5, "simulate-research-query", json!({ "topic": "tides" }));
    asked["params"]["task"] = json!({ "ttl": 60000 });
    proxy.send(&asked);
    let created = proxy.answer(5);
    let task = created["result"]["task"]["taskId"].clone();
    assert!(task.is_string(), "{created}");
    proxy.send(&about_task(6, "tasks/get", &task));
    let status = proxy.answer(6);
    assert_eq!(status["result"]["taskId"], task, "{status}");
    proxy.send(&about_task(7, "tasks/result", &task));
    let result = proxy.answer(7);
    assert!(
        result["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|text| text.starts_with("# Research Report: tides")),
        "{result}"
    );

    let arguments = json!({ "name": "notes.gz", "data": "data:text/plain,hello" });
    proxy.send(&tool_call(8, "gzip-file-as-resource", arguments));
    let made = proxy.answer(8);
    let link = made["result"]["content"][0].clone();
    assert_eq!(link["type"], "resource_link", "{made}");
    proxy.send(
        &json!({ "jsonrpc": "2.0", "id": 9, "method": "resources/read",
                        "params": { "uri": link["uri"] } }),
    );
    let read = proxy.answer(9);
    let contents = &read["result"]["contents"][0];
    assert_eq!(contents["uri"], link["uri"], "{read}");
    assert_eq!(contents["mimeType"], "application/gzip", "{read}");
    assert!(contents["blob"].is_string(), "{read}");
    proxy.end().assert_code(0);
    assert_one_session_deleted(&server);
}

/// The port of `endpoint` (`http://127.0.0.1:PORT/mcp`).
fn port_of(endpoint: &str) -> u16 {
    let address = endpoint
        .trim_start_matches("http://")
        .trim_end_matches("/mcp");
    let (_, port) = address.rsplit_once(':').expect("a port");
    port.parse().expect("a port")
}

/// When a session-based server restarts where it was (its new process knows no
/// session: server-everything answers the old id with HTTP 400), the proxy opens a
/// session with it again, sends the refused request there, and keeps that one.
#[test]
fn after_a_session_based_server_restarts_the_proxy_opens_one_session_with_it_again() {
    let (first, _sb, mut proxy) = initialized_at_everything();
    proxy.send(&tool_call(2, "echo", json!({ "message": "before" })));
    assert_eq!(
        proxy.answer(2)["result"]["content"][0]["text"],
        "Echo: before"
    );
    let port = port_of(&first.endpoint);
    drop(first);
    let again = Everything::start_on(port);
    for id in [3, 4] {
        proxy.send(&tool_call(id, "echo", json!({ "message": "after" })));
        let answer = proxy.answer(id);
        assert_eq!(
            answer["result"]["content"][0]["text"], "Echo: after",
            "{answer}"
        );
    }
    proxy.end().assert_code(0);
    assert_one_session_deleted(&again);
}

/// `tests/interop/forgetful_server.py` (stdlib only) with `args` after its port: the
/// process (killed on drop), its endpoint and its log.
fn forgetful_server(sb: &Sandbox, args: &[&str]) -> (Process, String, std::path::PathBuf) {
    let python = Path::new("/usr/bin/python3");
    let args = [&["0"][..], args].concat();
    crate::servers::interop_server(sb, python, "forgetful_server.py", &args, "forgetful")
}

/// Waits until the server log at `log` holds `line`.
fn logged(log: &Path, line: &str) {
    mur_e2e::wait_until(&format!("`{line}` in the server's log"), || {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        text.lines().any(|l| l == line).then_some(())
    });
}

/// A request another one was in flight beside when the server forgot the session
/// is not sent again: only the one the server refused (HTTP 404) is, in a new
/// session. `slow` is in flight; `forget` drops the session; a `tools/list` gets the
/// 404 and is sent again in a new session; `slow` answers in the old one (the server
/// holds its answer until the new session is asked for). Before, the 404 marked the
/// session expired for every call in it, and `slow`, answered, was sent again: the
/// tool ran twice and the agent got the second run's answer.
#[test]
fn a_request_in_flight_when_the_server_forgets_the_session_runs_once() {
    let sb = Sandbox::new();
    let (_server, endpoint, log) = forgetful_server(&sb, &[]);
    let mut proxy = initialized_at(&sb, &endpoint);
    proxy.send(&tool_call(2, "slow", json!({})));
    logged(&log, "forgetful: slow started");
    proxy.send(&tool_call(3, "forget", json!({})));
    assert_eq!(proxy.answer(3)["result"]["content"][0]["text"], "forgot");
    proxy.send(&json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/list" }));
    let listed = proxy.answer(4);
    assert_eq!(listed["result"]["tools"][0]["name"], "slow", "{listed}");
    let slow = proxy.answer(2);
    assert_eq!(
        slow["result"]["content"][0]["text"], "slow run #1",
        "{slow}"
    );
    proxy.end().assert_code(0);
    let log = std::fs::read_to_string(&log).expect("server log");
    let calls: Vec<&str> = log
        .lines()
        .filter(|l| l.ends_with("session=known tool=slow") || l.starts_with("forgetful: slow ran"))
        .collect();
    assert_eq!(
        calls,
        [
            "forgetful: tools/call session=known tool=slow",
            "forgetful: slow ran, total 1"
        ],
        "{log}"
    );
}

/// A one-shot call to a session-based server whose `initialize` is never answered
/// (the bound is 3 s, not less: the modern request before it must be answered first,
/// on a loaded machine too):
/// the call's modern request was refused (HTTP 404, no session) and its `tools/call`
/// never sent, so out of time it says the tool did not run, and Ctrl-C says it was
/// not sent. Before, the refused modern request counted: "the request was sent, so
/// tool `slow` may have run" and "the server was told to stop it".
#[test]
fn a_call_cut_off_while_its_session_opens_says_its_tool_did_not_run() {
    let sb = Sandbox::new();
    let (_server, endpoint, log) = forgetful_server(&sb, &["--initialize-hangs"]);
    let args = ["devtools", "--endpoint", &endpoint, "--timeout", "3000"];
    let out = sb.mur(&[&args[..], &["call", "slow"]].concat());
    out.assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{endpoint}` did not answer within 3000 ms\n\
         hint: the request was not sent, so tool `slow` did not run: running it again is safe\n\
         hint: a slow tool may need a longer `--timeout MS` before `call`\n"
        ));
    let mut command = sb.mur_command(&["devtools", "--endpoint", &endpoint, "call", "slow"]);
    command.stdout(Stdio::null()).stderr(Stdio::piped());
    let process = Process::spawn(&mut command);
    mur_e2e::wait_until("a second `initialize` at the server", || {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        (text.matches("forgetful: initialize").count() == 2).then_some(())
    });
    process.signal("INT");
    let out = process.wait_output();
    out.assert_code(130).assert_stderr_is(
        "error: interrupted by SIGINT before the request was sent: tool `slow` did not run\n",
    );
    let log = std::fs::read_to_string(&log).expect("server log");
    assert!(!log.contains("session=known"), "{log}");
}

/// The session id the server's tool `session` answered request `id` with.
fn session_answered(proxy: &mut Live, id: u64) -> Value {
    proxy.send(&tool_call(id, "session", json!({})));
    let answer = proxy.answer(id);
    answer["result"]["structuredContent"]["result"].clone()
}

/// The same over the Python SDK, whose restarted server answers the old session's id
/// with HTTP 404, as MCP says: one new session, used for every later request, and
/// deleted at the proxy's end.
#[test]
fn after_a_python_sdk_server_restarts_on_its_port_the_proxy_keeps_one_new_session() {
    let Some(python) = interop_python::python_or_skip("interop-venv", "1", "requirements.txt")
    else {
        return;
    };
    let sb = Sandbox::new();
    let (first, endpoint, _) = crate::servers::session_server(&sb, &python, 0);
    let mut proxy = initialized_at(&sb, &endpoint);
    let before = session_answered(&mut proxy, 2);
    assert!(before.as_str().is_some_and(|id| !id.is_empty()), "{before}");
    assert_eq!(session_answered(&mut proxy, 3), before);
    drop(first);
    let (_again, _, log) = crate::servers::session_server(&sb, &python, port_of(&endpoint));
    let after = session_answered(&mut proxy, 4);
    assert!(
        after.is_string() && after != before,
        "{after} after {before}"
    );
    assert_eq!(session_answered(&mut proxy, 5), after);
    proxy.end().assert_code(0);
    let log = std::fs::read_to_string(&log).expect("server log");
    let ended: Vec<&str> = log
        .lines()
        .filter_map(|l| l.strip_prefix("interop-session: session ended "))
        .collect();
    assert_eq!(ended, [after.as_str().unwrap_or_default()], "{log}");
}
