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
use std::time::{Duration, Instant};

use mur_e2e::{Process, Sandbox};

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
fn python_or_skip(venv: &str, major: &str, requirements: &str) -> Option<PathBuf> {
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
    process: Process,
    endpoint: String,
    log: PathBuf,
}

impl Server {
    /// Runs `tests/interop/<name>.py`, which prints `<prefix>: listening on ADDRESS`.
    fn start(sandbox: &Sandbox, python: &Path, name: &str, prefix: &str) -> Self {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("interop/{name}.py"));
        let log = sandbox.root().join(format!("{name}.log"));
        let listening = format!("{prefix}: listening on ");
        let mut command = sandbox.command(python);
        command
            .arg(&script)
            .stdout(File::create(&log).expect("server log"))
            .stderr(File::options().append(true).open(&log).expect("server log"));
        let mut server = Self {
            process: Process::spawn(&mut command),
            endpoint: String::new(),
            log,
        };
        let deadline = Instant::now() + STARTUP_LIMIT;
        let address = loop {
            let log = server.log();
            if let Some(line) = log.lines().find_map(|l| l.strip_prefix(listening.as_str())) {
                break line.trim().to_owned();
            }
            if let Some(status) = server.process.try_wait() {
                panic!("the Python server exited ({status}) before listening:\n{log}");
            }
            assert!(
                Instant::now() < deadline,
                "the Python server did not start listening:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(address.starts_with("127.0.0.1:"), "not loopback: {address}");
        server.endpoint = format!("http://{address}/mcp");
        server
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits (a few seconds at most) for a line of the log that starts with `prefix`.
    fn wait_for(&self, prefix: &str) -> Option<String> {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let found = self
                .log()
                .lines()
                .find_map(|l| l.strip_prefix(prefix).map(str::to_owned));
            if found.is_some() || Instant::now() > deadline {
                return found;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The 1.x SDK's session-based server, or `None` to skip.
fn legacy_server(sb: &Sandbox) -> Option<Server> {
    let python = python_or_skip("interop-venv", "1", "requirements.txt")?;
    Some(Server::start(
        sb,
        &python,
        "elicit_server",
        "interop-elicit",
    ))
}

/// The 2.x SDK's stateless server, or `None` to skip.
fn modern_server(sb: &Sandbox) -> Option<Server> {
    let python = python_or_skip("interop-modern-venv", "2", "requirements-modern.txt")?;
    Some(Server::start(
        sb,
        &python,
        "modern_server",
        "interop-modern",
    ))
}

impl Server {
    fn mur(&self, sb: &Sandbox, args: &[&str]) -> mur_e2e::Output {
        sb.mur(&[&["devtools", "--endpoint", &self.endpoint], args].concat())
    }

    /// How many log lines start with `prefix`.
    fn count(&self, prefix: &str) -> usize {
        self.log().lines().filter(|l| l.starts_with(prefix)).count()
    }
}

#[test]
fn a_question_from_a_python_sdk_tool_nobody_can_answer_is_refused_and_the_session_ended() {
    let sb = Sandbox::new();
    let Some(server) = legacy_server(&sb) else {
        return;
    };
    // The legacy fallback works against this server: a plain tool answers.
    let out = server.mur(&sb, &["call", "echo", "--args", r#"{"text":"hi"}"#]);
    out.assert_code(0);
    assert_eq!(out.json()["content"][0]["text"], "hi", "{out}");

    // The tool that asks a question, with no answer and no terminal: exit 5 naming it.
    let out = server.mur(&sb, &["call", "ask"]);
    out.assert_code(5);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        format!(
            "error: `{}` asks \"What is your name?\" and mur has no answer: no `--answer` \
             answers it, and stdin and stderr are not both a terminal to ask on\n\
             hint: answer it with `--answer name=TEXT`\n",
            server.endpoint
        )
    );
    // The SDK got mur's refusal: the tool's `elicit` raised it, so it ended at once.
    let refused = server.wait_for("interop-elicit: elicit refused: ");
    assert!(
        refused
            .as_deref()
            .is_some_and(|m| m.starts_with("mur has no answer: ")),
        "{}",
        server.log()
    );
    // Both calls ended their sessions.
    assert_eq!(
        server.count("interop-elicit: session ended "),
        2,
        "{}",
        server.log()
    );
}

#[test]
fn a_question_from_a_python_sdk_tool_is_answered_with_answer_in_the_session() {
    let sb = Sandbox::new();
    let Some(server) = legacy_server(&sb) else {
        return;
    };
    let out = server.mur(&sb, &["call", "ask", "--answer", "name=Ada"]);
    out.assert_code(0);
    assert_eq!(
        out.json()["content"][0]["text"],
        "hello name='Ada'",
        "{out}"
    );
    assert_eq!(out.stderr, "");
    assert_eq!(
        server
            .wait_for("interop-elicit: elicit answered: ")
            .as_deref(),
        Some("accept"),
        "{}",
        server.log()
    );
    assert_eq!(
        server.count("interop-elicit: session ended "),
        1,
        "{}",
        server.log()
    );
}

#[test]
fn a_stateless_python_sdk_server_reports_progress_to_mur() {
    let sb = Sandbox::new();
    let Some(server) = modern_server(&sb) else {
        return;
    };
    let out = server.mur(&sb, &["call", "count", "--args", r#"{"steps":3}"#]);
    out.assert_code(0);
    assert_eq!(out.json()["content"][0]["text"], "counted to 3", "{out}");
    assert_eq!(
        out.stderr,
        "progress: 1/3 step 1\nprogress: 2/3 step 2\nprogress: 3/3 step 3\n"
    );
    let quiet = server.mur(&sb, &["-q", "call", "count", "--args", r#"{"steps":2}"#]);
    quiet.assert_code(0);
    assert_eq!(quiet.stderr, "");
    // Stateless throughout: each call one POST of the 2026-07-28 form, no `initialize`.
    let requests: Vec<String> = server
        .log()
        .lines()
        .filter_map(|l| l.strip_prefix("interop-modern: request "))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        requests,
        ["tools/call 2026-07-28", "tools/call 2026-07-28"],
        "{}",
        server.log()
    );
}

#[test]
fn a_stateless_python_sdk_servers_question_is_answered_through_input_required_rounds() {
    let sb = Sandbox::new();
    let Some(server) = modern_server(&sb) else {
        return;
    };
    let out = server.mur(&sb, &["call", "wipe"]);
    out.assert_code(5);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        format!(
            "error: `{}` asks \"Wipe all 3 records? This cannot be undone.\" and mur has no \
             answer: no `--answer` answers it, and stdin and stderr are not both a terminal to \
             ask on\nhint: answer it with `--answer confirm=true|false`\n",
            server.endpoint
        )
    );
    assert_eq!(server.count("interop-modern: wipe answered"), 0);

    let out = server.mur(&sb, &["call", "wipe", "--answer", "confirm=no"]);
    out.assert_code(0);
    assert_eq!(out.json()["content"][0]["text"], "kept 3 records", "{out}");
    let out = server.mur(&sb, &["call", "wipe", "--answer", "confirm=yes"]);
    out.assert_code(0);
    assert_eq!(out.json()["content"][0]["text"], "wiped 3 records", "{out}");
    let log = server.log();
    let answered: Vec<&str> = log
        .lines()
        .filter_map(|l| l.strip_prefix("interop-modern: wipe answered "))
        .collect();
    assert_eq!(answered, ["False", "True"], "{log}");
    // The question and its answer: two POSTs per answered call, the first one asking.
    assert_eq!(
        server.count("interop-modern: request tools/call 2026-07-28"),
        5,
        "{log}"
    );
}
