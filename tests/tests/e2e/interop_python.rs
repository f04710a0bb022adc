//! `mur` against a third-party, session-based MCP server written in Python: the MCP SDK's
//! FastMCP over streamable HTTP (`tests/interop/elicit_server.py`, on 127.0.0.1).
//!
//! Its tool `ask` asks the client a question (`ctx.elicit`), which the SDK sends as an
//! `elicitation/create` request in the tool call's SSE stream. mur cannot answer it: it must
//! refuse it at once with a JSON-RPC error (so the tool fails now instead of waiting for an
//! answer), end the call promptly with exit 5 naming the method, and still end its session.
//!
//! The SDK comes from `target/interop-venv` (made by `.ci/run` from
//! `tests/interop/requirements.txt`) or else the `python3` on `PATH`. When neither has the
//! `mcp` package the test is skipped with the reason, except under CI (`CI` set), where that
//! is a failure: CI installs it.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mur_e2e::{Process, Sandbox};

/// Bound on the server's startup: against hangs, not a performance expectation.
const STARTUP_LIMIT: Duration = Duration::from_secs(60);
/// What the server prints once it listens.
const LISTENING: &str = "interop-elicit: listening on ";

/// A Python with the MCP SDK 1.x, or why there is none.
fn python() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let venv = root.join("target/interop-venv/bin/python3");
    let mut reasons = Vec::new();
    for python in [venv, PathBuf::from("python3")] {
        let probe = Command::new(&python)
            .args([
                "-c",
                "import importlib.metadata as m, mcp.server.fastmcp, uvicorn; print(m.version('mcp'))",
            ])
            .stdin(Stdio::null())
            .output();
        match probe {
            Ok(out) if out.status.success() => {
                let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
                if version.starts_with("1.") {
                    return Ok(python);
                }
                reasons.push(format!("{}: mcp {version}, not 1.x", python.display()));
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

/// The Python to run the server with; `None` (after saying why) to skip.
fn python_or_skip() -> Option<PathBuf> {
    match python() {
        Ok(python) => Some(python),
        Err(why) if std::env::var_os("CI").is_some() => {
            panic!("the Python MCP SDK is missing under CI, which installs it: {why}")
        }
        Err(why) => {
            eprintln!(
                "skipped: the Python MCP SDK is not installed ({why}); install it with \
                 `python3 -m venv target/interop-venv && \
                 target/interop-venv/bin/pip install -r tests/interop/requirements.txt`"
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
    fn start(sandbox: &Sandbox, python: &Path) -> Self {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("interop/elicit_server.py");
        let log = sandbox.root().join("elicit-server.log");
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
            if let Some(line) = log.lines().find_map(|l| l.strip_prefix(LISTENING)) {
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

#[test]
fn a_question_from_a_python_sdk_tool_is_refused_at_once_and_the_session_ended() {
    let Some(python) = python_or_skip() else {
        return;
    };
    let sb = Sandbox::new();
    let server = Server::start(&sb, &python);

    // The legacy fallback works against this server: a plain tool answers.
    let out = sb.mur(&[
        "devtools",
        "--endpoint",
        &server.endpoint,
        "call",
        "echo",
        "--args",
        r#"{"text":"hi"}"#,
    ]);
    out.assert_code(0);
    assert_eq!(out.json()["content"][0]["text"], "hi", "{out}");

    // The tool that asks a question: refused at once, exit 5, well within the default 10 s.
    let started = Instant::now();
    let out = sb.mur(&["devtools", "--endpoint", &server.endpoint, "call", "ask"]);
    let took = started.elapsed();
    out.assert_code(5);
    assert!(took < Duration::from_secs(5), "took {took:?}\n{out}");
    assert_eq!(out.stdout, "");
    out.assert_stderr_starts_with(&format!(
        "error: `{}` asks \"What is your name?\" and mur has no answer: no `--answer` answers \
         it, and stdin and stderr are not both a terminal to ask on\n\
         hint: answer it with `--answer name=TEXT`\n",
        server.endpoint
    ));
    // The SDK got mur's answer: the tool's `elicit` raised it.
    let refused = server.wait_for("interop-elicit: elicit refused: ");
    assert!(
        refused
            .as_deref()
            .is_some_and(|m| m.starts_with("mur has no answer: ")),
        "{}",
        server.log()
    );
    // Both calls ended their sessions.
    let log = server.log();
    let ended = log
        .lines()
        .filter(|l| l.starts_with("interop-elicit: session ended "))
        .count();
    assert_eq!(ended, 2, "{log}");
}
