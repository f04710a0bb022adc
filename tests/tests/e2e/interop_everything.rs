//! `mur` against a third-party, session-based MCP server: npm `@modelcontextprotocol/server-everything`
//! in Streamable HTTP mode on 127.0.0.1.
//!
//! That server speaks the 2025-11-25 revision and needs `initialize` and an `Mcp-Session-Id`,
//! so a working `mur devtools call --endpoint …` proves the legacy fallback of DESIGN.md
//! ("MCP transport"): the modern request is refused with a 400, then `initialize` →
//! `notifications/initialized` → the call → `DELETE` of the session. The server's own log
//! shows each session being created and deleted. Its long-running tool reports progress in
//! the call's stream (mur's plain lines on a pipe), and its elicitation tool asks a question
//! there, answered from `--answer` in the session.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mur_e2e::{Output, Process, Sandbox};
use serde_json::json;

use crate::node;

/// Bound on the server's startup: against hangs, not a performance expectation.
const STARTUP_LIMIT: Duration = Duration::from_secs(60);
/// What `tests/interop/loopback-only.cjs` prints once the server listens.
const LISTENING: &str = "loopback-only: listening on ";

/// A running server-everything, killed and reaped on drop.
struct Everything {
    _process: Process,
    endpoint: String,
    stdout: PathBuf,
}

impl Everything {
    /// Starts it on a port the OS picks, bound to 127.0.0.1 only.
    fn start(sandbox: &Sandbox) -> Self {
        let tools = node::tools();
        let preload = Path::new(env!("CARGO_MANIFEST_DIR")).join("interop/loopback-only.cjs");
        let stdout = sandbox.root().join("everything.out");
        let stderr = sandbox.root().join("everything.err");
        let mut command = sandbox.command(&tools.node);
        command
            .arg("--require")
            .arg(&preload)
            .arg(&tools.everything_server)
            .arg("streamableHttp")
            .env("PORT", "0")
            .stdout(std::fs::File::create(&stdout).expect("server stdout file"))
            .stderr(std::fs::File::create(&stderr).expect("server stderr file"));
        let mut process = Process::spawn(&mut command);
        let deadline = Instant::now() + STARTUP_LIMIT;
        let address = loop {
            let log = read(&stderr);
            if let Some(line) = log.lines().find_map(|line| line.strip_prefix(LISTENING)) {
                break line.trim().to_owned();
            }
            if let Some(status) = process.try_wait() {
                panic!(
                    "server-everything exited ({status}) before listening:\n{log}\n{}",
                    read(&stdout)
                );
            }
            assert!(
                Instant::now() < deadline,
                "server-everything did not start listening:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(
            address.starts_with("127.0.0.1:"),
            "server-everything is not bound to loopback only: {address}"
        );
        Self {
            _process: process,
            endpoint: format!("http://{address}/mcp"),
            stdout,
        }
    }

    /// Session ids the server created and deleted, from its log.
    fn sessions(&self) -> (Vec<String>, Vec<String>) {
        let log = read(&self.stdout);
        let ids = |prefix: &str| {
            log.lines()
                .filter_map(|l| l.strip_prefix(prefix))
                .map(|id| id.trim().to_owned())
                .collect()
        };
        (
            ids("Session initialized with ID: "),
            ids("Received session termination request for session "),
        )
    }

    /// Asserts that exactly `calls` sessions were opened, and each was deleted.
    #[track_caller]
    fn assert_each_session_deleted(&self, calls: usize) {
        let (created, deleted) = self.sessions();
        assert_eq!(
            created.len(),
            calls,
            "expected one legacy session per call:\n{}",
            read(&self.stdout)
        );
        assert_eq!(
            created,
            deleted,
            "every session mur opened must be deleted:\n{}",
            read(&self.stdout)
        );
    }

    fn call(&self, sandbox: &Sandbox, target: &str, args: Option<&str>) -> Output {
        let mut argv = vec!["devtools", "call", target, "--endpoint", &self.endpoint];
        if let Some(args) = args {
            argv.extend(["--args", args]);
        }
        sandbox.mur(&argv)
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[test]
fn tools_list_works_through_the_legacy_session_fallback() {
    let sandbox = Sandbox::new();
    let server = Everything::start(&sandbox);
    let out = server.call(&sandbox, "tools/list", None);
    out.assert_code(0);
    let tools = out.json()["tools"]
        .as_array()
        .cloned()
        .unwrap_or_else(|| panic!("no `tools` array:\n{out}"));
    let echo = tools
        .iter()
        .find(|tool| tool["name"] == "echo")
        .unwrap_or_else(|| panic!("no `echo` tool:\n{out}"));
    assert_eq!(echo["inputSchema"]["required"], json!(["message"]), "{out}");
    server.assert_each_session_deleted(1);
}

#[test]
fn a_tool_call_returns_the_servers_result() {
    let sandbox = Sandbox::new();
    let server = Everything::start(&sandbox);
    let out = server.call(&sandbox, "echo", Some(r#"{"message":"hi"}"#));
    out.assert_code(0);
    assert_eq!(
        out.json()["content"],
        json!([{ "type": "text", "text": "Echo: hi" }]),
        "{out}"
    );
    // Twice: each `mur` process opens and deletes its own session.
    server
        .call(&sandbox, "echo", Some(r#"{"message":"again"}"#))
        .assert_code(0);
    server.assert_each_session_deleted(2);
}

#[test]
fn its_tools_are_derived_verbs_through_the_legacy_fallback() {
    let sandbox = Sandbox::new();
    let server = Everything::start(&sandbox);
    let endpoint = server.endpoint.as_str();
    let out = sandbox.mur(&[
        "devtools",
        "echo",
        "--message",
        "hi",
        "--endpoint",
        endpoint,
    ]);
    out.assert_code(0);
    assert_eq!(out.stdout, "\"Echo: hi\"\n", "{out}");
    let help = sandbox.mur(&["devtools", "echo", "--help", "--endpoint", endpoint]);
    help.assert_code(0);
    assert!(
        help.stdout
            .starts_with("Usage: mur devtools echo --message TEXT [--args JSON]\n"),
        "{help}"
    );
    let missing = sandbox.mur(&["devtools", "echo", "--endpoint", endpoint]);
    missing.assert_code(1);
    assert!(
        missing
            .stderr
            .starts_with("error: echo: missing option `--message`\n"),
        "{missing}"
    );
}

#[test]
fn a_failing_tool_exits_5_with_the_result() {
    let sandbox = Sandbox::new();
    let server = Everything::start(&sandbox);
    let out = server.call(&sandbox, "echo", Some("{}"));
    out.assert_code(5);
    assert_eq!(out.json()["isError"], true, "{out}");
    assert!(
        out.stderr.contains("message"),
        "stderr should carry the tool's error text:\n{out}"
    );
    server.assert_each_session_deleted(1);
}

#[test]
fn an_unknown_method_exits_5_with_the_json_rpc_error() {
    let sandbox = Sandbox::new();
    let server = Everything::start(&sandbox);
    let out = server.call(&sandbox, "nosuch/method", None);
    out.assert_code(5);
    assert_eq!(out.json()["error"]["code"], -32601, "{out}");
    server.assert_each_session_deleted(1);
}

#[test]
fn its_long_running_tool_reports_progress_through_the_legacy_path() {
    let sandbox = Sandbox::new();
    let server = Everything::start(&sandbox);
    let args = r#"{"duration":0.3,"steps":3}"#;
    let out = server.call(&sandbox, "trigger-long-running-operation", Some(args));
    out.assert_code(0);
    assert_eq!(
        out.json()["content"][0]["text"],
        "Long running operation completed. Duration: 0.3 seconds, Steps: 3.",
        "{out}"
    );
    assert_eq!(out.stderr, "progress: 1/3\nprogress: 2/3\nprogress: 3/3\n");
    server.assert_each_session_deleted(1);
}

#[test]
fn its_elicitation_tool_is_answered_from_answer_options_and_defaults() {
    let sandbox = Sandbox::new();
    let server = Everything::start(&sandbox);
    let endpoint = server.endpoint.as_str();
    let out = sandbox.mur(&[
        "devtools",
        "call",
        "trigger-elicitation-request",
        "--endpoint",
        endpoint,
        "--answer",
        "name=Ada Lovelace",
        "--answer",
        "check=yes",
    ]);
    out.assert_code(0);
    assert_eq!(
        out.json()["content"][1]["text"],
        "User inputs:\n- Name: Ada Lovelace\n- Agreed to terms: true\n\
         - Favorite Integer: 42\n- Favorite Number: 3.14",
        "{out}"
    );
    // Unanswered, with no terminal: exit 5 naming the question; the session still ends.
    let out = server.call(&sandbox, "trigger-elicitation-request", None);
    out.assert_code(5);
    out.assert_stderr_starts_with(&format!(
        "error: `{endpoint}` asks \"Please provide inputs for the following fields:\" and mur \
         has no answer: no `--answer` answers it, and stdin and stderr are not both a terminal \
         to ask on\nhint: answer it with "
    ));
    out.assert_stderr_contains("`--answer name=TEXT`, ");
    server.assert_each_session_deleted(2);
}
