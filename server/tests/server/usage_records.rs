//! The usage records a session keeps of the calls it serves (`mur-sample --usage-log`),
//! over real HTTP: the names a client chose are kept only when the session has the tool
//! or they are shaped like names (a value sent as one is `WORD`), a call its
//! client stops — the HTTP request dropped (2026-07-28), `notifications/cancelled` (a
//! 2025-11-25 session), `tasks/cancel` — stops there and then and is recorded
//! `interrupted` with the time it ran, and a call that could have become a task but
//! ended first is recorded as any other.
#![cfg(unix)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use mur_testkit::{fields, usage_records as records};
use serde_json::{Value, json};

use crate::mcp_features::LegacySession;
use crate::support::{Session, World, mcp, wait_until};

/// How long `slow_compute` is asked to work: far past any wait below, so a record
/// that comes sooner says the call was stopped, not that it ended.
const SECONDS: u64 = 60;

/// A 2 MiB name: its record would be longer than the 1 MiB line a reader takes.
fn flood() -> String {
    "v".repeat(2 << 20)
}

/// `mur-sample` with its fixture tools, recording to its log.
struct Recording {
    _world: World,
    session: Session,
    log: PathBuf,
}

impl Recording {
    fn start() -> Self {
        let world = World::new();
        let log = world.sandbox.root().join("served.jsonl");
        let args = [
            "--conformance-fixtures",
            "--usage-log",
            log.to_str().expect("a UTF-8 path"),
        ];
        let session = world.sandbox.start_sample_with(&world.project, &args);
        Self {
            _world: world,
            session,
            log,
        }
    }

    fn endpoint(&self) -> &str {
        &self.session.lock.endpoint
    }

    /// The `n`th record (from 1) once it is written, and how long after `since` it was seen.
    fn record(&self, n: usize, since: Instant) -> (Value, Duration) {
        let record = wait_until(&format!("record {n}"), || {
            records(&self.log).into_iter().nth(n - 1)
        });
        (record, since.elapsed())
    }
}

/// A 2026-07-28 `tools/call` of `name`, its `_meta` the modern one plus `meta`,
/// from a client that gives up after `patience` (and drops the request): its answer,
/// or `None` when it gave up.
fn call(
    endpoint: &str,
    name: &str,
    arguments: Value,
    meta: Value,
    patience: Duration,
) -> Option<Value> {
    let mut full = mcp::modern_meta();
    if let (Some(full), Some(meta)) = (full.as_object_mut(), meta.as_object()) {
        full.extend(meta.clone());
    }
    let params = json!({ "name": name, "arguments": arguments, "_meta": full });
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params });
    let sent = mcp::post(endpoint)
        .header("MCP-Protocol-Version", mcp::MODERN)
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", name)
        .timeout(patience)
        .json(&body)
        .send();
    // Plain JSON on one line, or an event stream's `data:` lines; either may be cut
    // off by the client's patience.
    let text = sent.ok()?.text().ok()?;
    text.lines()
        .map(|line| line.strip_prefix("data:").unwrap_or(line))
        .filter_map(|line| serde_json::from_str::<Value>(line.trim()).ok())
        .find(|message| message["id"] == 1)
}

/// The capabilities of a client that follows tasks.
fn follows_tasks() -> Value {
    json!({ "io.modelcontextprotocol/clientCapabilities": {
        "extensions": { "io.modelcontextprotocol/tasks": {} } } })
}

/// `record` is of `tool`, `interrupted`, after about `ran` (as the server measured it),
/// and was `seen` well before the tool's own end (half its `SECONDS`).
#[track_caller]
fn assert_interrupted(record: &Value, tool: &str, ran: Duration, seen: Duration) {
    assert_eq!(
        (&record["tool"], &record["outcome"]),
        (&json!(tool), &json!("interrupted")),
        "{record}"
    );
    let ms = record["ms"].as_f64().unwrap_or(-1.0);
    let ran = ran.as_secs_f64() * 1000.0;
    assert!(
        ms >= ran * 0.5 && ms < ran + 10_000.0,
        "ran about {ran} ms: {record}"
    );
    assert!(
        seen < Duration::from_secs(SECONDS / 2),
        "recorded after {seen:?}"
    );
}

/// Audit 54 #1: the verb name in `_meta["dev.mur/verb"]` (and the tool's) was written
/// whole: a 2 MiB one made a record the report skips, and a few dozen such calls rotated
/// every other record out of the log. Such a name, no tool's of the session's nor shaped
/// like one, is now `WORD` (a name kept is cut: usage.rs's unit tests).
#[test]
fn names_a_client_chose_do_not_flood_the_log() {
    let recording = Recording::start();
    let name = flood();
    let verb = json!({ "dev.mur/verb": { "name": name, "kind": "plugin" } });
    let answer = call(
        recording.endpoint(),
        "greet",
        json!({}),
        verb,
        Duration::from_secs(30),
    );
    assert_eq!(answer.expect("an answer")["result"]["isError"], false);
    // On 2025-11-25 no header carries the tool's name: a call of a tool the session
    // lacks, under any name, is recorded (`rpc-error`).
    let legacy = LegacySession::start(recording.endpoint(), json!({}));
    let unknown = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": name, "arguments": {} } });
    let answered = legacy.post(&unknown);
    assert!(answered.status().is_success(), "{}", answered.status());
    let (served, _) = recording.record(2, Instant::now());
    let records = records(&recording.log);
    let kept = |r: &Value, key: &str| r[key].as_str().unwrap_or_default().to_owned();
    assert_eq!(
        (kept(&records[0], "verb"), kept(&records[0], "tool")),
        ("WORD".to_owned(), "greet".to_owned())
    );
    assert_eq!(
        (kept(&served, "tool"), kept(&served, "outcome")),
        ("WORD".to_owned(), "rpc-error".to_owned())
    );
    let size = std::fs::metadata(&recording.log).expect("the log").len();
    assert!(size < 4096, "the log holds {size} bytes");
}

/// A value sent as a tool's name (`{"password":"hunter2"}`, `fs.read_v2` where the
/// session has no such tool) or as the verb's is recorded as `WORD`, as mur's own record
/// of `call '{"password":"hunter2"}'` is, never as sent (it was, cut to 200 characters);
/// a name shaped like one is kept, and so is a tool the session has whatever its shape
/// (`json_schema_2020_12_tool`), with its verb as mur names it.
#[test]
fn a_value_sent_as_a_tool_or_verb_name_is_never_recorded() {
    let recording = Recording::start();
    let password = r#"{"password":"hunter2"}"#;
    let verb = |name: &str| json!({ "dev.mur/verb": { "name": name, "kind": "derived" } });
    let patience = Duration::from_secs(30);
    let tool = "json_schema_2020_12_tool";
    let calls = [
        (password, json!({})),
        ("fs.read_v2", json!({})),
        ("get-text", json!({})),
        ("greet", verb(password)),
        (tool, verb("json-schema-2020-12-tool")),
        (tool, verb(tool)),
    ];
    for (name, meta) in &calls {
        let answer = call(
            recording.endpoint(),
            name,
            json!({}),
            meta.clone(),
            patience,
        );
        assert!(answer.is_some(), "{name} answered");
    }
    recording.record(calls.len(), Instant::now());
    let log = std::fs::read_to_string(&recording.log).expect("the log");
    assert!(
        !log.contains("hunter2") && !log.contains("fs.read"),
        "{log}"
    );
    let records = records(&recording.log);
    assert_eq!(
        fields(&records, ["tool", "verb", "outcome"]),
        [
            ["WORD", "null", "rpc-error"],
            ["WORD", "null", "rpc-error"],
            ["get-text", "null", "rpc-error"],
            ["greet", "WORD", "ok"],
            [tool, "json-schema-2020-12-tool", "ok"],
            [tool, tool, "ok"],
        ]
    );
}

/// Audit 57 #3: a client that names itself nowhere — the README's curl example, a
/// 2026-07-28 `tools/call` whose `_meta` has no `clientInfo` — is recorded with no client
/// (the report's `(unnamed)`); it was credited to `rmcp 3.9.0`, the name rmcp stands in
/// for the handshake a stateless request skips. A client that names itself in `_meta` is
/// recorded so, and a 2025-11-25 session's client by its `initialize`. The tool it
/// reached for that the session does not have (`getText`) is kept by name.
#[test]
fn a_client_that_names_itself_nowhere_is_recorded_as_no_client() {
    let recording = Recording::start();
    let readme = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "getText", "arguments": {}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": mcp::MODERN,
            "io.modelcontextprotocol/clientCapabilities": {} } } });
    let sent = mcp::post(recording.endpoint())
        .header("Content-Type", "application/json")
        .header("MCP-Protocol-Version", mcp::MODERN)
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", "getText")
        .json(&readme)
        .send()
        .expect("the README's call");
    assert!(sent.status().is_success(), "{}", sent.status());
    let patience = Duration::from_secs(30);
    let named = call(
        recording.endpoint(),
        "greet",
        json!({}),
        json!({}),
        patience,
    );
    assert!(named.is_some(), "greet answered");
    let legacy = LegacySession::start(recording.endpoint(), json!({}));
    let greet = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "greet", "arguments": {} } });
    assert!(legacy.post(&greet).status().is_success());
    recording.record(3, Instant::now());
    assert_eq!(
        fields(&records(&recording.log), ["tool", "client", "outcome"]),
        [
            ["getText", "null", "rpc-error"],
            ["greet", "mur-server-tests 0", "ok"],
            ["greet", "legacy 0", "ok"],
        ]
    );
}

/// Audit 54 #2: a call whose client went away ran on to its end and was recorded as
/// the tool ended, with that whole duration. rmcp cancels the request's token when the
/// HTTP request is dropped, before its answer (a plain JSON one) or during its event
/// stream (once a progress notification went out); the call now stops with it.
#[test]
fn a_call_whose_http_request_is_dropped_stops_and_is_recorded_interrupted() {
    let recording = Recording::start();
    let arguments = json!({ "seconds": SECONDS });
    let patience = Duration::from_millis(1000);
    for (n, meta) in [(1, json!({})), (2, json!({ "progressToken": "p" }))] {
        let started = Instant::now();
        let answer = call(
            recording.endpoint(),
            "slow_compute",
            arguments.clone(),
            meta,
            patience,
        );
        assert_eq!(answer, None, "the client gave up before the tool's end");
        let (record, seen) = recording.record(n, started);
        assert_interrupted(&record, "slow_compute", patience, seen);
    }
}

/// A 2025-11-25 client stops a call with `notifications/cancelled`: rmcp cancels the
/// request's token, and the call stops with it. The POST of the call is its own, so
/// the cancel is sent (again, while the call is not yet known) until the record comes.
#[test]
fn notifications_cancelled_stops_a_legacy_sessions_call() {
    let recording = Recording::start();
    let legacy = LegacySession::start(recording.endpoint(), json!({}));
    let started = Instant::now();
    let endpoint = recording.endpoint().to_owned();
    let call = json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": { "name": "slow_compute", "arguments": { "seconds": SECONDS } } });
    let session_id = legacy.id.clone();
    let in_flight = std::thread::spawn(move || {
        // Its answer is dropped once the call is cancelled: the POST ends at its timeout.
        let _ = mcp::post(&endpoint)
            .header("Mcp-Session-Id", session_id)
            .header("MCP-Protocol-Version", mcp::LEGACY)
            .timeout(Duration::from_secs(5))
            .json(&call)
            .send()
            .and_then(|response| response.text());
    });
    let cancel = json!({ "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": { "requestId": 7, "reason": "the user stopped it" } });
    let record = wait_until("the cancelled call's record", || {
        assert_eq!(legacy.post(&cancel).status(), 202);
        std::thread::sleep(Duration::from_millis(100));
        records(&recording.log).pop()
    });
    let seen = started.elapsed();
    assert_interrupted(&record, "slow_compute", Duration::ZERO, seen);
    assert!(
        record["ms"].as_f64().unwrap_or(f64::MAX) < 4000.0,
        "{record}"
    );
    in_flight.join().expect("the call's POST");
}

/// A call that became a task is stopped by `tasks/cancel` (the task's handler is
/// dropped), and recorded `interrupted`, not as the protocol error it was.
#[test]
fn tasks_cancel_stops_a_task_and_records_it_interrupted() {
    let recording = Recording::start();
    let endpoint = recording.endpoint();
    let started = Instant::now();
    let arguments = json!({ "seconds": SECONDS });
    let patience = Duration::from_secs(30);
    let created = call(
        endpoint,
        "slow_compute",
        arguments,
        follows_tasks(),
        patience,
    )
    .expect("an answer");
    let id = created["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_owned();
    let mut meta = mcp::modern_meta();
    meta["io.modelcontextprotocol/clientCapabilities"] =
        follows_tasks()["io.modelcontextprotocol/clientCapabilities"].clone();
    let cancel = json!({ "jsonrpc": "2.0", "id": 2, "method": "tasks/cancel",
        "params": { "taskId": id, "_meta": meta } });
    let acked = mcp::post(endpoint)
        .header("MCP-Protocol-Version", mcp::MODERN)
        .header("Mcp-Method", "tasks/cancel")
        .header("Mcp-Name", &id)
        .json(&cancel)
        .send()
        .expect("tasks/cancel");
    let acked = mcp::message_with_id(acked, 2);
    assert!(acked.get("result").is_some(), "{acked}");
    let cancelled_after = started.elapsed();
    let (record, seen) = recording.record(1, started);
    assert_interrupted(&record, "slow_compute", cancelled_after, seen);
}

/// A call of a tool that supports tasks, from a client that follows them (as mur does
/// on every call), that ended before it became a task: recorded as any call. Its record
/// went with the task it did not become, and was never written.
#[test]
fn a_call_that_ended_before_it_became_a_task_is_recorded() {
    let recording = Recording::start();
    let arguments = json!({ "seconds": 0 });
    let patience = Duration::from_secs(30);
    let answer = call(
        recording.endpoint(),
        "slow_compute",
        arguments,
        follows_tasks(),
        patience,
    )
    .expect("an answer");
    assert_eq!(answer["result"]["resultType"], "complete", "{answer}");
    let (record, _) = recording.record(1, Instant::now());
    assert_eq!(
        (&record["tool"], &record["outcome"]),
        (&json!("slow_compute"), &json!("ok")),
        "{record}"
    );
}

/// A record the session cannot write is said on its stderr, for each call it serves, the
/// log and why, as mur says its own (audit 307 #26); the call is answered all the same.
#[test]
fn a_record_that_cannot_be_written_is_said_in_the_sessions_log() {
    let recording = Recording::start();
    let greet = || {
        call(
            recording.endpoint(),
            "greet",
            json!({}),
            json!({}),
            Duration::from_secs(30),
        )
    };
    assert!(greet().is_some(), "greet answered");
    recording.record(1, Instant::now());
    std::fs::remove_file(&recording.log).expect("rm");
    std::fs::create_dir(&recording.log).expect("mkdir");
    let lost = format!(
        "cannot write the usage log `{}`: Is a directory (os error 21); this call is not \
         recorded",
        recording.log.display()
    );
    for n in 1..=2 {
        assert!(greet().is_some(), "greet answered");
        wait_until(&format!("warning {n}"), || {
            let log = recording.session.log();
            let said = log
                .lines()
                .filter(|l| l.contains("WARN") && l.ends_with(&lost));
            (said.count() == n).then_some(())
        });
    }
}
