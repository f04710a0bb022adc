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
use std::time::Duration;

use mur_e2e::{Output, Process, Sandbox};
use serde_json::{Value, json};

use crate::node;

/// Bound on the server's startup: against hangs, not a performance expectation.
const STARTUP_LIMIT: Duration = Duration::from_secs(60);
/// What `tests/interop/loopback-only.cjs` prints once the server listens.
const LISTENING: &str = "loopback-only: listening on ";

/// A running server-everything, killed and reaped on drop (`bridge_proxy` drives
/// it through the proxy too).
pub(crate) struct Everything {
    _process: Process,
    pub(crate) endpoint: String,
    stdout: PathBuf,
    /// Its own sandbox, removed after the server is killed.
    sandbox: Sandbox,
}

impl Everything {
    /// Starts it in a sandbox of its own on a port the OS picks, bound to 127.0.0.1 only.
    pub(crate) fn start() -> Self {
        Self::start_on(0)
    }

    /// [`Everything::start`] on `port` (0: one the OS picks): a server started again
    /// where one was knows none of its sessions.
    pub(crate) fn start_on(port: u16) -> Self {
        let sandbox = Sandbox::new();
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
            .env("PORT", port.to_string())
            .stdout(std::fs::File::create(&stdout).expect("server stdout file"))
            .stderr(std::fs::File::create(&stderr).expect("server stderr file"));
        let mut process = Process::spawn(&mut command);
        let address = process.wait_ready(
            "server-everything",
            "listening",
            STARTUP_LIMIT,
            || {
                let log = read(&stderr);
                let line = log.lines().find_map(|line| line.strip_prefix(LISTENING))?;
                Some(line.trim().to_owned())
            },
            || format!("{}\n{}", read(&stderr), read(&stdout)),
        );
        assert!(
            address.starts_with("127.0.0.1:"),
            "server-everything is not bound to loopback only: {address}"
        );
        Self {
            _process: process,
            endpoint: format!("http://{address}/mcp"),
            stdout,
            sandbox,
        }
    }

    /// Session ids the server created and deleted, from its log.
    pub(crate) fn sessions(&self) -> (Vec<String>, Vec<String>) {
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

    /// The tool and outcome of the last usage record.
    fn last_outcome(&self) -> (String, String) {
        let log = read(&self.sandbox.usage_log());
        let record: serde_json::Value =
            serde_json::from_str(log.lines().last().unwrap_or_default()).expect("a record");
        let field = |name: &str| record[name].as_str().unwrap_or_default().to_owned();
        (field("tool"), field("outcome"))
    }

    /// `mur devtools --endpoint ENDPOINT ARGS…`.
    fn devtools(&self, args: &[&str]) -> Output {
        self.sandbox
            .mur(&[&["devtools", "--endpoint", &self.endpoint], args].concat())
    }

    /// `mur devtools --endpoint ENDPOINT call TARGET [--args ARGS]`.
    fn call(&self, target: &str, args: Option<&str>) -> Output {
        let mut argv = vec!["call", target];
        argv.extend(args.iter().flat_map(|args| ["--args", args]));
        self.devtools(&argv)
    }

    /// A server [`started`](Self::start), and [`call`](Self::call) made at it.
    fn start_and_call(target: &str, args: Option<&str>) -> (Self, Output) {
        let server = Self::start();
        let out = server.call(target, args);
        (server, out)
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[test]
fn tools_list_works_through_the_legacy_session_fallback() {
    let (server, out) = Everything::start_and_call("tools/list", None);
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
    let (server, out) = Everything::start_and_call("echo", Some(r#"{"message":"hi"}"#));
    out.assert_code(0);
    assert_eq!(
        out.json()["content"],
        json!([{ "type": "text", "text": "Echo: hi" }]),
        "{out}"
    );
    // Twice: each `mur` process opens and deletes its own session.
    server
        .call("echo", Some(r#"{"message":"again"}"#))
        .assert_code(0);
    server.assert_each_session_deleted(2);
}

#[test]
fn its_tools_are_derived_verbs_through_the_legacy_fallback() {
    let server = Everything::start();
    let out = server.devtools(&["echo", "--message", "hi"]);
    out.assert_code(0).assert_stdout_is("\"Echo: hi\"\n");
    let help = server.devtools(&["echo", "--help"]);
    help.assert_code(0)
        .assert_stdout_starts_with("Usage: mur devtools echo <message> [--args JSON]\n");
    // A choice with a space is shown as it must be typed.
    let cities = server.devtools(&["get-structured-content", "--help"]);
    assert_eq!(
        cities.stdout.lines().next(),
        Some(
            "Usage: mur devtools get-structured-content --location 'New York'|Chicago|'Los Angeles' [--args JSON]"
        ),
        "{cities}"
    );
    server
        .devtools(&["echo"])
        .assert_code(1)
        .assert_stderr_starts_with("error: echo: missing argument `<message>`\n");
    // An image between two captions: the captions are printed, and the image is not
    // dropped without a word.
    let image = server.devtools(&["get-tiny-image"]);
    image.assert_code(0).assert_stdout_is(
        "[\"Here's the image you requested:\",\"The image above is the MCP logo.\"]\n",
    );
    // The command it names reaches this server too (`--endpoint`, as typed).
    assert_eq!(
        image.stderr,
        format!(
            "note: the result has 1 more content block (image) than the 2 blocks printed; \
             `mur devtools --endpoint {} call get-tiny-image --out FILE` prints the whole result \
             and writes its media to FILE, as `--out FILE` after `get-tiny-image` does\n",
            server.endpoint
        )
    );
    let quiet = server.devtools(&["-q", "get-tiny-image"]);
    assert_eq!((quiet.code, quiet.stderr.as_str()), (0, ""), "{quiet}");
    // The note's `call` is the same call, ready to paste: it prints the image too.
    let words = [
        "get-annotated-message",
        "--message-type",
        "error",
        "--include-image",
    ];
    let annotated = server.devtools(&words);
    annotated.assert_code(0);
    let arguments = r#"{"messageType":"error","includeImage":true}"#;
    assert_eq!(
        annotated.stderr,
        format!(
            "note: the result has 1 more content block (image) than the text printed; \
             `mur devtools --endpoint {} call get-annotated-message --args '{arguments}' --out \
             FILE` prints the whole result and writes its media to FILE, as `--out FILE` after \
             `get-annotated-message` does\n",
            server.endpoint
        )
    );
    let whole = server.devtools(&["call", "get-annotated-message", "--args", arguments]);
    whole.assert_code(0);
    let kinds: Vec<Value> = whole.json()["content"]
        .as_array()
        .map(|blocks| blocks.iter().map(|b| b["type"].clone()).collect())
        .unwrap_or_default();
    assert_eq!(kinds, [json!("text"), json!("image")], "{whole}");
    // Or the verb writes its media itself, in the one call.
    let tiny = server.sandbox.root().join("tiny.png");
    let saved = server.devtools(&["get-tiny-image", "--out", &tiny.display().to_string()]);
    saved.assert_code(0);
    let png = std::fs::read(&tiny).expect("the image written");
    assert!(png.starts_with(b"\x89PNG"), "{saved}");
    let image = &saved.json()["content"][1];
    assert_eq!(
        (&image["type"], &image["path"], &image["bytes"]),
        (
            &json!("image"),
            &json!(tiny.display().to_string()),
            &json!(png.len())
        ),
        "{saved}"
    );
}

/// A tool whose caption introduces its data (resource links, an embedded resource) is
/// printed whole by its derived verb: every block in order, a text as it reads, a link
/// or resource as it came. Before, only the caption was printed, with a note to run
/// `call` for the rest.
#[test]
fn a_derived_verb_prints_the_blocks_after_a_caption() {
    let server = Everything::start();
    let links = server.devtools(&["get-resource-links", "--count", "2"]);
    links.assert_quiet_success().assert_stdout_is(concat!(
        r#"["Here are 2 resource links to resources available in this server:","#,
        r#"{"name":"Blob Resource 1","uri":"demo://resource/dynamic/blob/1","#,
        r#""description":"Resource 1: plaintext resource","mimeType":"text/plain","type":"resource_link"},"#,
        r#"{"name":"Text Resource 2","uri":"demo://resource/dynamic/text/2","#,
        r#""description":"Resource 2: plaintext resource","mimeType":"text/plain","type":"resource_link"}]"#,
        "\n"
    ));
    let reference = server.devtools(&[
        "get-resource-reference",
        "--resource-type",
        "Text",
        "--resource-id",
        "2",
    ]);
    reference.assert_quiet_success();
    let printed = reference.json();
    assert_eq!(
        (
            &printed[0],
            &printed[1]["type"],
            &printed[1]["resource"]["uri"],
            &printed[2]
        ),
        (
            &json!("Returning resource reference for Resource 2:"),
            &json!("resource"),
            &json!("demo://resource/dynamic/text/2"),
            &json!("You can access this resource using the URI: demo://resource/dynamic/text/2")
        ),
        "{reference}"
    );
    assert!(
        printed[1]["resource"]["text"]
            .as_str()
            .is_some_and(|text| text.starts_with("Resource 2: This is a plaintext resource")),
        "{reference}"
    );
}

/// The instructions the server gives in `initialize` (it speaks 2025-11-25: no
/// `server/discover`) are in the catalog: a field of its JSON, and after the verbs in
/// its table, whole. Before, only an agent host behind `mur devtools proxy` got them.
#[test]
fn the_catalog_carries_the_servers_instructions() {
    let server = Everything::start();
    let docs = node::tools()
        .everything_server
        .parent()
        .expect("dist")
        .join("docs/instructions.md");
    let instructions = std::fs::read_to_string(&docs).expect("the server's instructions file");
    assert!(
        instructions.starts_with("# Everything Server"),
        "{instructions}"
    );
    let json = server.devtools(&["catalog", "--json"]);
    json.assert_quiet_success();
    assert_eq!(json.json()["instructions"], instructions.as_str(), "{json}");
    let table = server.devtools(&["catalog"]);
    table.assert_quiet_success();
    let after = format!(
        "\nInstructions of the session's server:\n{}\n",
        instructions.trim_end()
    );
    assert!(table.stdout.starts_with("NAME "), "{table}");
    assert!(table.stdout.ends_with(&after), "{table}");
}

#[test]
fn a_failing_tool_exits_5_with_the_result() {
    let (server, out) = Everything::start_and_call("echo", Some("{}"));
    out.assert_code(5);
    assert_eq!(out.json()["isError"], true, "{out}");
    // stderr carries the tool's error text.
    out.assert_stderr_contains("message");
    server.assert_each_session_deleted(1);
}

#[test]
fn a_tool_it_does_not_have_is_answered_with_the_one_likely_meant() {
    let (server, out) = Everything::start_and_call("ecoh", Some(r#"{"message": "hi"}"#));
    out.assert_code(5);
    // The TypeScript SDK answers with a failed result, not a JSON-RPC error.
    assert_eq!(out.json()["isError"], true, "{out}");
    assert_eq!(
        out.stderr,
        format!(
            "error: the session has no tool `ecoh`\n\
             hint: did you mean `echo`?\n\
             hint: `mur devtools --endpoint {} catalog` lists the tools this session has, each as a verb\n",
            server.endpoint
        ),
        "the server's own wording of an unknown tool is recognized"
    );
    // The call, then the tool list read for the hint: one legacy session each.
    server.assert_each_session_deleted(2);
    // Recorded as the server's refusal (no tool ran), so no verb is owed `ecoh`: kept by
    // name, as a tool an agent reached for that the server does not have.
    assert_eq!(server.last_outcome(), ("ecoh".into(), "rpc-error".into()));
}

/// A named verb whose tool the server lacks (the standard `state` against a server with
/// no `state`) is told so as `call` tells it (not "tool `state` failed" with the server's
/// word), says where the session's tools are listed, and is recorded as the server's
/// refusal, as `call` is.
#[test]
fn a_named_verb_whose_tool_it_lacks_is_refused_and_recorded_so() {
    let server = Everything::start();
    mur_e2e::plugins::install_standard(&server.sandbox);
    let out = server.devtools(&["state"]);
    out.assert_code(5).assert_stderr_is(format!(
        "error: the session has no tool `state`\n\
         hint: `mur devtools --endpoint {} catalog` lists the tools this session has, each as a verb\n",
        server.endpoint
    ));
    assert_eq!(server.last_outcome(), ("state".into(), "rpc-error".into()));
}

#[test]
fn an_unknown_method_exits_5_with_the_json_rpc_error() {
    let (server, out) = Everything::start_and_call("nosuch/method", None);
    out.assert_code(5);
    assert_eq!(out.json()["error"]["code"], -32601, "{out}");
    // Two sessions, each deleted: the call's, and the tool list's that mur reads on
    // the refusal to tell whether `nosuch/method` names a tool (a tool's name may hold
    // a `/`; c2b8a97); none has it, so the -32601 hint stays.
    server.assert_each_session_deleted(2);
    out.assert_stderr_contains("`call NAME` without a `/` calls the tool NAME");
}

#[test]
fn its_long_running_tool_reports_progress_through_the_legacy_path() {
    let server = Everything::start();
    let args = r#"{"duration":0.3,"steps":3}"#;
    let out = server.call("trigger-long-running-operation", Some(args));
    assert_eq!(
        out.tool_text(0),
        "Long running operation completed. Duration: 0.3 seconds, Steps: 3.",
        "{out}"
    );
    assert_eq!(out.stderr, "progress: 1/3\nprogress: 2/3\nprogress: 3/3\n");
    server.assert_each_session_deleted(1);
}

#[test]
fn its_elicitation_tool_is_answered_from_answer_options_and_defaults() {
    let server = Everything::start();
    let tool = "trigger-elicitation-request";
    let answers = ["--answer", "name=Ada Lovelace", "--answer", "check=yes"];
    let out = server.devtools(&[&["call", tool][..], &answers].concat());
    assert_eq!(
        out.tool_text(1),
        "User inputs:\n- Name: Ada Lovelace\n- Agreed to terms: true\n\
         - Favorite Integer: 42\n- Favorite Number: 3.14",
        "{out}"
    );
    // Unanswered, with no terminal: exit 5 naming the question; the session still ends.
    let out = server.call(tool, None);
    let hint = out.unanswered_hint(
        &server.endpoint,
        "Please provide inputs for the following fields:",
    );
    assert!(hint.contains("`--answer name=TEXT`, "), "{out}");
    // Its choices carry titles for people (`enumNames`, `oneOf` of titled `const`s): the
    // hint names each id with its title.
    assert!(
        hint.contains(
            "`--answer legacyTitledEnum=pet-1` (one of `pet-1` (Cats), `pet-2` (Dogs), \
             `pet-3` (Birds), `pet-4` (Fish), `pet-5` (Reptiles), or a title) (optional)"
        ),
        "{out}"
    );
    assert!(
        hint.contains(
            "`--answer titledMultipleSelectEnum=fish-1` (any of `fish-1` (Tuna), `fish-2` \
             (Salmon), `fish-3` (Trout), or a title, joined by commas) (optional)"
        ),
        "{out}"
    );
    server.assert_each_session_deleted(2);
}

/// A titled choice is answered by its id or by the title a person reads (`Dogs` for
/// `pet-2`); the server gets the id.
#[test]
fn its_titled_choices_are_answered_by_title() {
    let server = Everything::start();
    let out = server.devtools(&[
        "call",
        "trigger-elicitation-request",
        "--answer",
        "name=Ada",
        "--answer",
        "legacyTitledEnum=Dogs",
        "--answer",
        "titledSingleSelectEnum=Green Lantern",
        "--answer",
        "titledMultipleSelectEnum=Tuna,fish-3",
    ]);
    let raw = out.tool_text(2);
    let raw = raw.split_once("Raw result: ").expect("the raw result").1;
    let content = serde_json::from_str::<Value>(raw).expect("JSON")["content"].clone();
    assert_eq!(content["legacyTitledEnum"], "pet-2", "{out}");
    assert_eq!(content["titledSingleSelectEnum"], "hero-2", "{out}");
    assert_eq!(
        content["titledMultipleSelectEnum"],
        json!(["fish-1", "fish-3"]),
        "{out}"
    );
    server.assert_each_session_deleted(1);
}
