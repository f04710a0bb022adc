//! `mur` against third-party MCP servers written in Python, from the MCP SDK, on 127.0.0.1:
//!
//! - `tests/interop/elicit_server.py`: FastMCP of the SDK's 1.x line, session-based (the
//!   2025-11-25 form, reached through mur's legacy fallback). Its tool `ask` asks the client a
//!   question (`ctx.elicit`), sent as an `elicitation/create` request in the tool call's SSE
//!   stream: answered from `--answer`, or — with no answer and no terminal — refused at once
//!   with a JSON-RPC error (so the tool fails now instead of waiting), the call ending with
//!   exit 5 naming the question; the session is ended either way.
//! - `tests/interop/modern_server.py`: MCPServer of the SDK's 2.x line, stateless (the
//!   2026-07-28 form). Its tool `count` reports progress, `wipe` asks for a confirmation as an
//!   input-required result, answered by calling again with `inputResponses`.
//!
//! The SDKs come from `target/interop-venv` and `target/interop-modern-venv` (made by
//! `.ci/run` from `tests/interop/requirements.txt` and `requirements-modern.txt`), the 1.x one
//! else from the `python3` on `PATH`. When one is missing its tests are skipped with the
//! reason, except under CI (`CI` set), where that is a failure: CI installs both.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use mur_e2e::{Process, Sandbox, wait_until};
use serde_json::json;

/// Bound on the server's startup: against hangs, not a performance expectation.
const STARTUP_LIMIT: Duration = Duration::from_secs(60);
/// A Python with the MCP SDK `major`.x from `venv` (under `target/`), or why there is none.
fn python(venv: &str, major: &str) -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let venv = root.join("target").join(venv).join("bin/python3");
    let mut reasons = Vec::new();
    let mut candidates = vec![venv];
    if major == "1" {
        candidates.push(PathBuf::from("python3"));
    }
    for python in candidates {
        let probe = Command::new(&python)
            .args([
                "-c",
                "import importlib.metadata as m, mcp.server, uvicorn; print(m.version('mcp'))",
            ])
            .stdin(Stdio::null())
            .output();
        match probe {
            Ok(out) if out.status.success() => {
                let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
                if version.starts_with(&format!("{major}.")) {
                    return Ok(python);
                }
                reasons.push(format!(
                    "{}: mcp {version}, not {major}.x",
                    python.display()
                ));
            }
            Ok(out) => reasons.push(format!(
                "{}: no `mcp` package ({})",
                python.display(),
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            )),
            Err(e) => reasons.push(format!("{}: {e}", python.display())),
        }
    }
    Err(reasons.join("; "))
}

/// The Python to run a server with; `None` (after saying why) to skip.
pub(crate) fn python_or_skip(venv: &str, major: &str, requirements: &str) -> Option<PathBuf> {
    match python(venv, major) {
        Ok(python) => Some(python),
        Err(why) if std::env::var_os("CI").is_some() => {
            panic!("the Python MCP SDK is missing under CI, which installs it: {why}")
        }
        Err(why) => {
            eprintln!(
                "skipped: the Python MCP SDK {major}.x is not installed ({why}); install it with \
                 `python3 -m venv target/{venv} && \
                 target/{venv}/bin/pip install -r tests/interop/{requirements}`"
            );
            None
        }
    }
}

/// The running server, killed and reaped on drop.
struct Server {
    _process: Process,
    endpoint: String,
    log: PathBuf,
    /// Its own sandbox, removed after the server is killed.
    sandbox: Sandbox,
}

impl Server {
    /// Runs `tests/interop/<name>.py` in a sandbox of its own; the script prints
    /// `<prefix>: listening on ADDRESS`.
    fn start(python: &Path, name: &str, prefix: &str) -> Self {
        let sandbox = Sandbox::new();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("interop/{name}.py"));
        let log = sandbox.root().join(format!("{name}.log"));
        let listening = format!("{prefix}: listening on ");
        let mut command = sandbox.command(python);
        // -B: no __pycache__ beside the scripts for the module they share.
        command
            .arg("-B")
            .arg(&script)
            .stdout(File::create(&log).expect("server log"))
            .stderr(File::options().append(true).open(&log).expect("server log"));
        let mut process = Process::spawn(&mut command);
        let read = || std::fs::read_to_string(&log).unwrap_or_default();
        let address = process.wait_ready(
            &format!("{name}.py"),
            "listening",
            STARTUP_LIMIT,
            || {
                let log = read();
                let line = log
                    .lines()
                    .find_map(|l| l.strip_prefix(listening.as_str()))?;
                Some(line.trim().to_owned())
            },
            read,
        );
        assert!(address.starts_with("127.0.0.1:"), "not loopback: {address}");
        Self {
            _process: process,
            endpoint: format!("http://{address}/mcp"),
            log,
            sandbox,
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The rest of the first log line that starts with `prefix`, once there is one.
    fn wait_for(&self, prefix: &str) -> String {
        wait_until(&format!("a log line starting with {prefix:?}"), || {
            self.lines_after(prefix).into_iter().next()
        })
    }

    /// The rest of each log line that starts with `prefix`.
    fn lines_after(&self, prefix: &str) -> Vec<String> {
        let log = self.log();
        log.lines()
            .filter_map(|l| l.strip_prefix(prefix))
            .map(str::to_owned)
            .collect()
    }

    /// Asserts what follows `prefix` in the log lines that start with it, showing the log.
    #[track_caller]
    fn assert_lines(&self, prefix: &str, expected: &[&str]) {
        assert_eq!(self.lines_after(prefix), expected, "{}", self.log());
    }
}

/// The 1.x SDK's session-based server, or `None` to skip.
fn legacy_server() -> Option<Server> {
    let python = python_or_skip("interop-venv", "1", "requirements.txt")?;
    Some(Server::start(&python, "elicit_server", "interop-elicit"))
}

/// The 2.x SDK's stateless server, or `None` to skip.
fn modern_server() -> Option<Server> {
    let python = python_or_skip("interop-modern-venv", "2", "requirements-modern.txt")?;
    Some(Server::start(&python, "modern_server", "interop-modern"))
}

impl Server {
    fn mur(&self, args: &[&str]) -> mur_e2e::Output {
        self.sandbox
            .mur(&[&["devtools", "--endpoint", &self.endpoint], args].concat())
    }

    /// Asserts that `count` log lines start with `prefix`, showing the log.
    #[track_caller]
    fn assert_count(&self, prefix: &str, count: usize) {
        assert_eq!(self.lines_after(prefix).len(), count, "{}", self.log());
    }
}

/// One 1.x server (a start takes seconds): a question nobody can answer, then the same
/// answered with `--answer`.
#[test]
fn a_question_from_a_python_sdk_tool_is_refused_unanswered_and_answered_with_answer() {
    let Some(server) = legacy_server() else {
        return;
    };
    // The legacy fallback works against this server: a plain tool answers.
    let out = server.mur(&["call", "echo", "--args", r#"{"text":"hi"}"#]);
    assert_eq!(out.tool_text(0), "hi", "{out}");

    // The tool that asks a question, with no answer and no terminal: exit 5 naming it.
    let out = server.mur(&["call", "ask"]);
    let hint = out.unanswered_hint(&server.endpoint, "What is your name?");
    assert_eq!(hint, "`--answer name=TEXT`\n");
    // The SDK got mur's refusal: the tool's `elicit` raised it, so it ended at once.
    let refused = server.wait_for("interop-elicit: elicit refused: ");
    assert!(
        refused.starts_with("mur has no answer: "),
        "{}",
        server.log()
    );
    // Both calls ended their sessions.
    server.assert_count("interop-elicit: session ended ", 2);

    // Answered in the session, which the call then ends too.
    let out = server.mur(&["call", "ask", "--answer", "name=Ada"]);
    assert_eq!(out.tool_text(0), "hello name='Ada'", "{out}");
    assert_eq!(out.stderr, "");
    let answered = server.wait_for("interop-elicit: elicit answered: ");
    assert_eq!(answered, "accept", "{}", server.log());
    server.assert_count("interop-elicit: session ended ", 2 + 1);
}

/// One 2.x server (a start takes seconds): progress, then a question answered through
/// `input_required` rounds.
#[test]
fn a_stateless_python_sdk_server_reports_progress_and_its_question_is_answered_in_rounds() {
    let Some(server) = modern_server() else {
        return;
    };
    let out = server.mur(&["call", "count", "--args", r#"{"steps":3}"#]);
    assert_eq!(out.tool_text(0), "counted to 3", "{out}");
    assert_eq!(
        out.stderr,
        "progress: 1/3 step 1\nprogress: 2/3 step 2\nprogress: 3/3 step 3\n"
    );
    let quiet = server.mur(&["-q", "call", "count", "--args", r#"{"steps":2}"#]);
    quiet.assert_quiet_success();
    // Stateless throughout: each call one POST of the 2026-07-28 form, no `initialize`.
    server.assert_lines("interop-modern: request ", &["tools/call 2026-07-28"; 2]);

    let out = server.mur(&["call", "wipe"]);
    let question = "Wipe all 3 records? This cannot be undone.";
    let hint = out.unanswered_hint(&server.endpoint, question);
    assert_eq!(hint, "`--answer confirm=true` (or `false`)\n");
    server.assert_lines("interop-modern: wipe answered ", &[]);

    let out = server.mur(&["call", "wipe", "--answer", "confirm=no"]);
    assert_eq!(out.tool_text(0), "kept 3 records", "{out}");
    let out = server.mur(&["call", "wipe", "--answer", "confirm=yes"]);
    assert_eq!(out.tool_text(0), "wiped 3 records", "{out}");
    server.assert_lines("interop-modern: wipe answered ", &["False", "True"]);
    // The question and its answer: two POSTs per answered call, the first one asking
    // (after the two of the progress calls).
    server.assert_count("interop-modern: request tools/call 2026-07-28", 2 + 5);
}

/// The same tool (`echo`, in both scripts) prints the same from a 1.x and a 2.x server:
/// `call NAME` prints the tool's result, without what the 2026-07-28 revision puts in
/// every result (`resultType`, `_meta`'s `io.modelcontextprotocol/serverInfo`), which it
/// printed from the 2.x server only. `call tools/call`, the protocol as it is, still
/// shows them: it is how to see what a server sends.
#[test]
fn a_tools_result_prints_the_same_whatever_the_servers_revision() {
    let (Some(legacy), Some(modern)) = (legacy_server(), modern_server()) else {
        return;
    };
    let echo = |server: &Server| {
        let out = server.mur(&["call", "echo", "--args", r#"{"text":"hi"}"#]);
        out.assert_code(0);
        assert_eq!(out.stderr, "", "{out}");
        out.json()
    };
    // Compared as JSON: each SDK writes the keys in an order of its own.
    let printed = json!({ "content": [{ "type": "text", "text": "hi" }],
                          "structuredContent": { "result": "hi" }, "isError": false });
    assert_eq!(echo(&legacy), printed);
    assert_eq!(echo(&modern), printed);
    let raw = modern.mur(&[
        "call",
        "tools/call",
        "--args",
        r#"{"name":"echo","arguments":{"text":"hi"}}"#,
    ]);
    let raw = raw.assert_code(0).json();
    assert_eq!(raw["resultType"], "complete", "{raw}");
    assert_eq!(
        raw["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "interop-modern",
        "{raw}"
    );
}

/// An MCP client that sends its next request right after `reload` answered (the 2.x
/// SDK's own `Client` does: it lists the tools to check the call's output) gets it
/// answered, by the new process: the session hands its listening socket over, so the
/// request waits for the successor instead of being refused (it was, in most tries,
/// and the SDK then lost the reload's answer too), and the old process leaves it
/// there (on a loaded machine it sometimes took it from the queue and closed it
/// unread: the SDK's `ReadError`; `mur-server`'s `http::serve` tests pin that down).
/// Three reloads in a row, each answered by the process the one before started.
#[test]
fn a_python_sdk_client_s_request_right_after_reload_is_answered_by_the_new_process() {
    let Some(python) = python_or_skip("interop-modern-venv", "2", "requirements-modern.txt") else {
        return;
    };
    let (sandbox, app) = mur_e2e::Sandbox::with_app();
    let successors = mur_e2e::Successors::new(&sandbox, app.pid());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("interop/reload_client.py");
    let mut client = sandbox.command(&python);
    client.arg("-B").arg(&script).args([app.endpoint(), "3"]);
    let out = mur_e2e::run(&mut client);
    let lines: Vec<(u32, String)> = out
        .stdout_lines("reload: ")
        .iter()
        .map(|line| {
            let line = line.trim_start_matches("reload: ");
            let (pid, tools) = line.split_once(" tools: ").expect("reload: PID tools: N");
            (pid.parse().expect("a pid"), tools.to_owned())
        })
        .collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0].0, app.pid(), "{out}");
    let pids: std::collections::BTreeSet<u32> = lines.iter().map(|(pid, _)| *pid).collect();
    assert_eq!(
        pids.len(),
        3,
        "each reload answered by a new process: {out}"
    );
    assert!(lines.iter().all(|(_, tools)| tools == "22"), "{out}");
    out.assert_code(0);
    successors.wait();
}
