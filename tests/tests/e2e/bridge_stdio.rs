//! `mur devtools bridge`: third-party stdio MCP servers as devtools sessions.
//!
//! - npm `@modelcontextprotocol/server-everything` in stdio mode (pinned in
//!   `tests/conformance/package.json`): `call`, a derived verb, `session list`
//!   with the bridge's log, progress and a question relayed from the server,
//!   `bridge stop`, and a second bridge of the project refused with exit 3.
//! - `tests/interop/stdio_server.py`, on the Python MCP SDK's 1.x and 2.x lines
//!   (the venvs `.ci/run` makes): state kept between calls (one warm process),
//!   a server that dies restarted with a message in the log, a question
//!   answered from `--answer`.
//!
//! Every bridge is started in the background as a user would; each test
//! stops its bridge (or kills it by pid on the way out if it fails first).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use mur_e2e::{Adopted, Output, Sandbox, wait_until};
use mur_lockfile::{Lockfile, ReadOutcome};
use serde_json::{Value, json};

use crate::bridge_proxy::{answer, proxy_initialized, tool_call};
use crate::tasks::{cancelled_task, final_status};
use crate::{interop_python, node};

/// A bridge started in a sandbox: its project, its session line, and its pid
/// (killed on drop if the test did not stop it).
pub(crate) struct Bridge<'a> {
    sb: &'a Sandbox,
    pub(crate) project: PathBuf,
    pub(crate) line: Value,
    _pid: Adopted,
}

impl<'a> Bridge<'a> {
    /// The endpoint its start line announced.
    pub(crate) fn endpoint(&self) -> String {
        self.line["endpoint"].as_str().expect("endpoint").to_owned()
    }

    /// `mur devtools bridge --project <sandbox>/<name>/App.csproj [extra…] -- command…`,
    /// which must succeed.
    pub(crate) fn start(sb: &'a Sandbox, name: &str, extra: &[&str], command: &[OsString]) -> Self {
        let project = sb.project(name);
        let out = start(sb, &project, extra, command);
        Self::adopted(sb, project, &out)
    }

    /// The bridge of `project` whose start printed `out`, which must have succeeded.
    fn adopted(sb: &'a Sandbox, project: PathBuf, out: &Output) -> Self {
        out.assert_code(0);
        let line = out.json();
        let pid = line["pid"].as_u64().expect("pid") as u32;
        Self {
            sb,
            project,
            line,
            _pid: Adopted(pid),
        }
    }

    /// The `Authorization` its own requests carry: the secret in its sidecar.
    fn authorization(&self) -> String {
        self.sb.bridge_authorization(&self.project)
    }

    fn project_arg(&self) -> &str {
        self.project.to_str().expect("utf-8 project")
    }

    /// `mur devtools --project <this project> ARGS…`.
    pub(crate) fn mur(&self, args: &[&str]) -> Output {
        self.sb
            .mur(&[&["devtools", "--project", self.project_arg()], args].concat())
    }

    /// The bridge's log (the server's stderr and the bridge's messages).
    fn log(&self) -> String {
        std::fs::read_to_string(self.line["log"].as_str().expect("log")).unwrap_or_default()
    }

    /// Its [log](Self::log) holds `said`.
    fn assert_logged(&self, said: &str) {
        assert!(self.log().contains(said), "{}", self.log());
    }

    fn lockfile(&self) -> Option<Lockfile> {
        match self
            .sb
            .registry()
            .read(&self.sb.lockfile_path(&self.project))
        {
            ReadOutcome::Valid(lock) => Some(lock),
            _ => None,
        }
    }

    /// `bridge stop`, which must succeed and leave no lockfile.
    pub(crate) fn stop(self) {
        let out = self.mur(&["bridge", "stop"]);
        out.assert_code(0).assert_stderr_is(format!(
            "stopped the bridge of `{}` (pid {})\n",
            self.sb.canonical_project(&self.project),
            self.line["pid"]
        ));
        assert!(
            self.lockfile().is_none(),
            "the lockfile outlived `bridge stop`"
        );
    }

    /// `bridge stop`, then what the project's next call (`mur devtools --project PROJECT
    /// ARGS…`) says of that stop: see `said_after_stop`.
    fn stop_then_said(self, args: &[&str]) -> String {
        let (sb, project) = (self.sb, self.project_arg().to_owned());
        self.stop();
        said_after_stop(&sb.mur(&[&["devtools", "--project", &project][..], args].concat()))
            .to_owned()
    }
}

fn start(sb: &Sandbox, project: &Path, extra: &[&str], command: &[OsString]) -> Output {
    let mut cmd = sb.mur_command(&["devtools", "bridge", "--project"]);
    cmd.arg(project).args(extra).arg("--").args(command);
    mur_e2e::run(&mut cmd)
}

/// `mur devtools --project <project> call count`.
fn call_count(sb: &Sandbox, project: &Path) -> Output {
    let mut call = sb.mur_command(&["devtools", "--project"]);
    call.arg(project).args(["call", "count"]);
    mur_e2e::run(&mut call)
}

/// A bridge of `project` running `command`, started with `--idle 1s`, once it has
/// stopped on its own (no lockfile, "bridge stopped" in its log).
fn idle_bridge_that_stopped<'a>(
    sb: &'a Sandbox,
    project: &Path,
    command: &[OsString],
) -> Bridge<'a> {
    let out = start(sb, project, &["--idle", "1s"], command);
    let bridge = Bridge::adopted(sb, project.to_path_buf(), &out);
    wait_until("the idle bridge to log its end", || {
        (bridge.lockfile().is_none() && bridge.log().contains("bridge stopped")).then_some(())
    });
    bridge
}

/// server-everything in stdio mode, on the pinned Node.
fn everything() -> Vec<OsString> {
    let tools = node::tools();
    vec![
        tools.node.clone().into(),
        tools.everything_server.clone().into(),
        "stdio".into(),
    ]
}

/// `tests/interop/stdio_server.py` on the SDK `major`.x from `venv`; `None`
/// (after saying why) when that SDK is not installed.
fn python_server(venv: &str, major: &str, requirements: &str) -> Option<Vec<OsString>> {
    let python = interop_python::python_or_skip(venv, major, requirements)?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("interop/stdio_server.py");
    Some(vec![python.into(), "-B".into(), script.into()])
}

/// A bridge in `sb` for the Python SDK 1.x server; `None` (after saying why) without it.
fn python_bridge(sb: &Sandbox) -> Option<Bridge<'_>> {
    let server = python_server("interop-venv", "1", "requirements.txt")?;
    Some(Bridge::start(sb, "python", &[], &server))
}

/// Runs `test` on a [`python_bridge`] in a sandbox of its own, then stops the bridge;
/// without the SDK, nothing (after saying why).
fn with_python_bridge(test: impl FnOnce(&Bridge<'_>)) {
    let sb = Sandbox::new();
    let Some(bridge) = python_bridge(&sb) else {
        return;
    };
    test(&bridge);
    bridge.stop();
}

#[test]
fn a_bridged_stdio_server_is_a_session_for_call_derived_verbs_and_session_list() {
    let sb = Sandbox::new();
    let bridge = Bridge::start(&sb, "everything", &[], &everything());
    let lock = bridge.lockfile().expect("the bridge's lockfile");
    assert_eq!(bridge.line["endpoint"], lock.endpoint);
    assert_eq!(
        bridge.line["pid"], lock.pid,
        "the lockfile names the bridge"
    );
    assert_eq!(bridge.line["transport"], "http");
    assert!(Path::new(bridge.line["log"].as_str().expect("log")).is_file());
    // Its server's command, which tells one bridge from another.
    let command = bridge.line["command"]
        .as_array()
        .expect("its command's words");
    assert!(
        command.last() == Some(&Value::from("stdio")),
        "{}",
        bridge.line
    );
    // The probe answers with the bridge's pid, as any session's does.
    let probe: Value = mur_e2e::mcp::client()
        .get(&lock.endpoint)
        .send()
        .and_then(|r| r.json())
        .expect("probe");
    assert_eq!(probe["pid"], lock.pid);
    // The same Host/Origin rules as every session: a rebinding page is refused.
    let foreign = mur_e2e::mcp::client()
        .post(&lock.endpoint)
        .header("Host", "evil.example")
        .header("Content-Type", "application/json")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
        .send()
        .expect("an answer");
    assert_eq!(foreign.status(), reqwest::StatusCode::FORBIDDEN);

    // No flags: the lockfile is all `mur` needs.
    let list = sb.mur(&["devtools", "session", "list"]);
    list.assert_code(0);
    assert_eq!(
        list.json_lines(),
        std::slice::from_ref(&bridge.line),
        "{list}"
    );
    let table = sb.mur(&["devtools", "session", "list", "--pretty"]);
    let header = table.stdout.lines().next().unwrap_or_default();
    assert!(header.ends_with("STARTED               LOG"), "{table}");
    assert!(
        table
            .stdout
            .contains(bridge.line["log"].as_str().expect("log")),
        "{table}"
    );

    let tools = sb.mur(&["devtools", "call", "tools/list"]);
    tools.assert_code(0);
    assert!(
        tools.json()["tools"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["name"] == "echo")),
        "{tools}"
    );
    let echo = sb.mur(&["devtools", "echo", "--message", "hi"]);
    echo.assert_code(0).assert_stdout_is("\"Echo: hi\"\n");
    // The whole result through the bridge, its keys as the server wrote them (a block's
    // `type` before its `text`), not sorted.
    let called = sb.mur(&["devtools", "call", "echo", "--args", r#"{"message":"hi"}"#]);
    called
        .assert_code(0)
        .assert_stdout_is("{\"content\":[{\"type\":\"text\",\"text\":\"Echo: hi\"}]}\n");
    // The server's capabilities, less the notifications the bridge does not pass on
    // (it keeps no stream open): the server offers subscriptions and list changes.
    let discovered = sb.mur(&["devtools", "call", "server/discover"]);
    let capabilities = &discovered.assert_code(0).json()["capabilities"];
    assert!(capabilities["tools"].is_object(), "{discovered}");
    assert!(capabilities["resources"].is_object(), "{discovered}");
    for kind in ["tools", "resources", "prompts"] {
        assert_eq!(capabilities[kind].get("listChanged"), None, "{discovered}");
    }
    assert_eq!(
        capabilities["resources"].get("subscribe"),
        None,
        "{discovered}"
    );
    bridge.stop();
    sb.mur(&["devtools", "session", "list"]).assert_code(4);
}

#[test]
fn progress_and_questions_of_the_server_reach_the_caller() {
    let sb = Sandbox::new();
    let bridge = Bridge::start(&sb, "everything", &[], &everything());
    let args = r#"{"duration":0.3,"steps":3}"#;
    let out = bridge.mur(&["call", "trigger-long-running-operation", "--args", args]);
    out.assert_code(0)
        .assert_stderr_is("progress: 1/3\nprogress: 2/3\nprogress: 3/3\n");

    let tool = "trigger-elicitation-request";
    let out = bridge.mur(&[
        "call",
        tool,
        "--answer",
        "name=Ada",
        "--answer",
        "check=yes",
    ]);
    assert!(
        out.tool_text(1).starts_with("User inputs:\n- Name: Ada\n"),
        "{out}"
    );
    // Unanswered, with no terminal: exit 5 naming the question, and the
    // bridge still serves the next call.
    let out = bridge.mur(&["call", tool]);
    out.unanswered_hint(
        bridge.line["endpoint"].as_str().expect("endpoint"),
        "Please provide inputs for the following fields:",
    );
    bridge
        .mur(&["echo", "--message", "still there"])
        .assert_code(0);
    // The 2025-11-25 session form (`initialize` answered by the bridge) works too.
    let legacy = bridge.mur(&["--protocol", "2025-11-25", "echo", "--message", "legacy"]);
    assert_eq!(legacy.stdout, "\"Echo: legacy\"\n", "{legacy}");
    bridge.stop();
}

/// server-everything's `simulate-research-query` runs only as a task (2025-11-25
/// "Tasks"): mur calls it as one, shows its status, answers its question, prints its
/// result, and cancels it when the call runs out of time; an agent behind the proxy
/// gets its result too.
#[test]
fn a_tool_that_runs_only_as_a_task_is_followed_to_its_result() {
    let sb = Sandbox::new();
    let bridge = Bridge::start(&sb, "everything", &[], &everything());
    let report = |out: &Output| out.json().as_str().unwrap_or_default().to_owned();
    let help = bridge.mur(&["simulate-research-query", "--help"]);
    assert!(
        help.stdout
            .contains("\nTool `simulate-research-query`: runs as a task.\n"),
        "{help}"
    );
    // A derived verb (its tool entry read): the question comes while the task waits.
    let words = ["simulate-research-query", "--topic", "rust", "--ambiguous"];
    let out = bridge.mur(&[&words[..], &["--answer", "interpretation=historical"]].concat());
    out.assert_code(0);
    assert!(
        report(&out).starts_with("# Research Report: rust (historical)\n"),
        "{out}"
    );
    let shown: Vec<&str> = out.stderr.lines().collect();
    for line in [
        "task (working): Gathering sources...",
        "task (input_required): Found multiple interpretations for \"rust\". Requesting clarification...",
        "task (working): Continuing with interpretation: \"historical\"...",
    ] {
        assert!(shown.contains(&line), "no `{line}`: {out}");
    }
    // `call NAME` reads no tool list first: refused, it is called again as a task; in
    // the 2025-11-25 session form the task is followed in the session.
    let args = r#"{"topic":"go"}"#;
    let call = [
        "--protocol",
        "2025-11-25",
        "-q",
        "call",
        "simulate-research-query",
    ];
    let out = bridge.mur(&[&call[..], &["--args", args]].concat());
    out.assert_code(0);
    assert!(
        out.tool_text(0).starts_with("# Research Report: go\n"),
        "{out}"
    );
    assert_eq!(out.stderr, "", "-q shows no status");
    // An agent behind the proxy whose client knows nothing of tasks, as most agents'
    // are: refused by the server, the call is made again as a task and followed for it.
    let out = proxy_initialized(
        &sb,
        &[tool_call(
            2,
            "simulate-research-query",
            json!({ "topic": "go" }),
        )],
    );
    out.assert_code(0);
    let report = answer(&out, 2)["result"]["content"][0]["text"].clone();
    assert!(
        report
            .as_str()
            .is_some_and(|r| r.starts_with("# Research Report: go\n")),
        "{out}"
    );
    // Out of time: exit 2, and the task is cancelled, not left running.
    let out = bridge.mur(&[
        "-v",
        "--timeout",
        "1500",
        "simulate-research-query",
        "--topic",
        "x",
    ]);
    out.assert_code(2);
    let cancelled = cancelled_task(&out);
    assert_eq!(
        final_status(&cancelled, |argv| bridge.mur(argv)),
        "cancelled"
    );
    bridge.stop();
}

/// `bridge --usage-log PATH` records every tool call the bridge serves, as a session
/// does: mur's on surface `cli` with their verb, the proxy's MCP client's on `mcp`,
/// a failed one as such; `usage report --server-log` reads them.
#[test]
fn a_bridge_records_the_calls_it_serves_from_mur_and_from_mcp_clients() {
    let sb = Sandbox::new();
    let served = sb.root().join("served.jsonl");
    let log = served.to_str().expect("utf-8 path");
    // A log that cannot be one ends the bridge at its start (exit 7), saying so.
    let blocked = sb.file("blocked", "");
    let inside = blocked.join("served.jsonl");
    let refused = start(
        &sb,
        &sb.project("everything"),
        &["--usage-log", inside.to_str().expect("utf-8 path")],
        &everything(),
    );
    refused.assert_code(7).assert_stderr_starts_with(&format!(
        "error: cannot write the usage log `{}`",
        inside.display()
    ));
    let bridge = Bridge::start(&sb, "everything", &["--usage-log", log], &everything());
    // Made at the start, before any call, and named in the session line.
    assert!(served.is_file(), "no log before the first call");
    assert_eq!(bridge.line["usageLog"], log, "{}", bridge.line);
    bridge
        .mur(&["call", "echo", "--args", r#"{"message": "hi"}"#])
        .assert_code(0);
    bridge.mur(&["echo", "--message", "hi"]).assert_code(0);
    let relayed = proxy_initialized(
        &sb,
        &[
            tool_call(2, "echo", json!({ "message": "hi" })),
            tool_call(3, "echo", json!({})),
        ],
    );
    relayed.assert_code(0);
    assert_eq!(answer(&relayed, 3)["result"]["isError"], true, "{relayed}");
    let project = bridge_project_hash(&sb, &bridge.project);
    bridge.stop();
    let records = crate::usage::records(&served);
    // The proxy's two calls run at once: their records come in the order they ended.
    let mut seen: Vec<[&str; 5]> = records
        .iter()
        .map(|r| {
            let text = |key: &str| r[key].as_str().unwrap_or("-");
            [
                text("side"),
                text("surface"),
                text("verb"),
                text("tool"),
                text("outcome"),
            ]
        })
        .collect();
    seen.sort_unstable();
    assert_eq!(
        seen,
        [
            ["server", "cli", "call", "echo", "ok"],
            ["server", "cli", "echo", "echo", "ok"],
            ["server", "mcp", "-", "echo", "ok"],
            ["server", "mcp", "-", "echo", "tool-error"],
        ],
        "{records:#?}"
    );
    assert!(
        records.iter().all(|r| r["project"] == project.as_str()),
        "{records:#?}"
    );
    // Each in the name of its client: mur, or the agent host behind the proxy.
    let clients: Vec<&str> = records
        .iter()
        .filter_map(|r| r["client"].as_str())
        .collect();
    let mur = format!("mur {}", env!("CARGO_PKG_VERSION"));
    assert_eq!(
        clients.iter().filter(|c| **c == mur).count(),
        2,
        "{records:#?}"
    );
    assert_eq!(
        clients.iter().filter(|c| **c == "agent 1").count(),
        2,
        "{records:#?}"
    );
    let report = sb.devtools(&["usage", "report", "--server-log", log, "--json"]);
    let json = report.assert_code(0).json();
    // Which client made which calls: mur, and the agent host behind the proxy.
    let clients: Vec<(String, u64)> = json["clientsServed"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|row| {
            let name = row["name"].as_str().unwrap_or_default().to_owned();
            (name, row["calls"].as_u64().unwrap_or_default())
        })
        .collect();
    let mut expected = vec![(mur.clone(), 2), ("agent 1".to_owned(), 2)];
    expected.sort();
    let mut clients = clients;
    clients.sort();
    assert_eq!(clients, expected, "{json:#}");
    let surfaces = &json["surfaces"];
    let calls = |surface: &str| {
        surfaces
            .as_array()
            .and_then(|rows| rows.iter().find(|row| row["name"] == surface))
            .map(|row| row["calls"].clone())
    };
    assert_eq!(
        (calls("server/cli"), calls("server/mcp")),
        (Some(json!(2)), Some(json!(2))),
        "{surfaces:#}"
    );
    // Read beside mur's own log, a call of mur's is on both sides: the table says so.
    let table = sb.devtools(&["usage", "report", "--server-log", log]);
    assert!(
        table.assert_code(0).stdout.contains(
            "\n(a call of mur's to a session that records usage is in both groups; `server/cli` \
             against\n`server/mcp` is how often each was used: a preference only where the same \
             agents were offered both,\nnot across a study's CLI-only and MCP-only runs)\n"
        ),
        "{table}"
    );
}

/// A `--usage` log that cannot be written ends the bridge (exit 7) before its server
/// starts, the hint naming the directory `--usage` writes in, which must be writable: it
/// said "give `--usage-log` a file …, or use `--usage`" to whoever had used it.
#[test]
fn a_usage_log_that_cannot_be_written_gets_the_hint_of_the_option_given() {
    let sb = Sandbox::new();
    let sessions = crate::bridge_proxy::usage_sessions_a_file(&sb);
    let project = sb.project("usage");
    let out = start(&sb, &project, &["--usage"], &["true".into()]);
    out.assert_code(7).assert_stdout_is("").assert_stderr_is(format!(
        "error: cannot write the usage log `{dir}/{hash}.jsonl`: Not a directory (os error 20)\n\
         hint: `--usage` keeps its log in `$XDG_STATE_HOME/mur/usage/sessions` (`{dir}`), \
         which must be a directory mur can write; or give `--usage-log` a file in one\n\
         hint: its log is `{log}`\n",
        dir = sessions.display(),
        hash = bridge_project_hash(&sb, &project),
        log = sb.lockfile_path(&project).with_extension("bridge.log").display(),
    ));
}

/// The project hash a bridge's records carry: its lockfile's name without `.json`.
fn bridge_project_hash(sb: &Sandbox, project: &Path) -> String {
    let lockfile = sb.lockfile_path(project);
    let stem = lockfile.file_stem().expect("a lockfile name");
    stem.to_string_lossy().into_owned()
}

#[test]
fn a_second_bridge_or_session_for_the_project_exits_3_saying_how_to_stop_it() {
    let sb = Sandbox::new();
    let bridge = Bridge::start(&sb, "everything", &[], &everything());
    let again = start(&sb, &bridge.project, &[], &everything());
    let active = format!(
        "error: another session for this project is active at {} (pid {})\n",
        bridge.endpoint(),
        bridge.line["pid"]
    );
    again.assert_code(3).assert_stderr_is(format!(
        "{active}hint: stop it first with `mur devtools bridge stop --project {}`\n",
        bridge.project_arg()
    ));
    // In the foreground too (the bridge's own claim of the slot).
    let mut foreground = sb.mur_command(&["devtools", "bridge", "--foreground", "--project"]);
    foreground.arg(&bridge.project).arg("--").args(everything());
    let out = mur_e2e::run(&mut foreground);
    out.assert_code(3).assert_stderr_contains(&format!(
        "{active}hint: stop it first with `mur devtools bridge stop --project {}`\n",
        bridge.project_arg()
    ));
    assert_eq!(again.stdout, "");
    // The project spelt with `..` (its file does not exist: a bridge's seldom does) is
    // the same project: refused, and found by the verbs.
    let dir = bridge.project.parent().expect("a project's directory");
    let dotted = dir
        .join("elsewhere/..")
        .join(bridge.project.file_name().expect("a file name"));
    start(&sb, &dotted, &[], &everything())
        .assert_code(3)
        .assert_stderr_contains(&active);
    let mut echo = sb.mur_command(&["devtools", "--project"]);
    echo.arg(&dotted).args(["echo", "--message", "dotted"]);
    mur_e2e::run(&mut echo).assert_code(0);
    // The first one is untouched, its log too.
    bridge.mur(&["echo", "--message", "first"]).assert_code(0);
    let log = bridge.log();
    assert!(log.contains("announced at"), "{log}");
    assert!(
        !log.contains("another session"),
        "the refused start wrote in its log: {log}"
    );
    bridge.stop();

    // An app's session holds its project against a bridge the same way.
    let project = sb.project("app");
    let sample = sb.start_sample(&project);
    let refused = start(&sb, &project, &[], &everything());
    refused.assert_code(3).assert_stderr_is(format!(
        "error: another session for this project is active at {} (pid {})\n\
         hint: it is an app's own session (pid {}), which `bridge stop` leaves alone: stop the app first\n",
        sample.endpoint(),
        sample.pid(),
        sample.pid()
    ));
}

/// A bridge started for a folder holding one project file is that project's, as an
/// app's session started so is (`mur_lockfile::paths::project_file`): found by the
/// verbs through the file and through the folder, refused a second bridge under either
/// name, and stopped by `bridge stop --project FOLDER`. It announced the folder, which
/// `--project FOLDER/App.csproj` did not find.
#[test]
fn a_bridge_for_a_folder_is_its_one_project_files_and_stopped_by_the_folder() {
    let sb = Sandbox::new();
    let file = sb.project("folder");
    let folder = file.parent().expect("the project's folder").to_path_buf();
    let command = hostile_command(&sb);
    let out = start(&sb, &folder, &[], &command);
    let bridge = Bridge::adopted(&sb, folder.clone(), &out);
    let canonical = sb.canonical_project(&file);
    assert_eq!(bridge.line["project"], canonical.as_str(), "{out}");
    for project in [&file, &folder] {
        call_count(&sb, project).assert_code(0);
        start(&sb, project, &[], &command)
            .assert_code(3)
            .assert_stderr_contains("another session for this project is active at");
    }
    let mut stop = sb.mur_command(&["devtools", "bridge", "stop", "--project"]);
    stop.arg(&folder);
    mur_e2e::run(&mut stop)
        .assert_code(0)
        .assert_stderr_is(format!(
            "stopped the bridge of `{canonical}` (pid {})\n",
            bridge.line["pid"]
        ));
    assert!(
        sb.read_lockfile(&file).is_none(),
        "the lockfile outlived `bridge stop`"
    );
}

/// `bridge stop --project FOLDER` stops the bridge of the project directly in the
/// folder, as a call takes it, though that project's file does not exist (a bridge's
/// seldom does: the README's `~/demo/Demo.csproj`); it said "no bridge is running for
/// `FOLDER`" (exit 4) of the bridge the call had just used. With bridges of two projects
/// in it, it asks which one is meant (exit 1) and stops neither.
#[test]
fn bridge_stop_of_a_folder_stops_the_bridge_of_the_project_in_it_as_a_call_finds_it() {
    let sb = Sandbox::new();
    let command = hostile_command(&sb);
    let folder = sb.dir("odd");
    let canonical_folder = sb.canonical_project(&folder);
    let bridge_in = |name: &str| {
        let project = folder.join(name);
        Bridge::adopted(&sb, project.clone(), &start(&sb, &project, &[], &command))
    };
    let stop = || {
        let mut stop = sb.mur_command(&["devtools", "bridge", "stop", "--project"]);
        stop.arg(&folder);
        mur_e2e::run(&mut stop)
    };
    let odd = bridge_in("Odd.csproj");
    call_count(&sb, &folder).assert_code(0);
    stop().assert_code(0).assert_stderr_is(format!(
        "stopped the bridge of `{canonical_folder}/Odd.csproj` (pid {})\n",
        odd.line["pid"]
    ));
    assert!(
        odd.lockfile().is_none(),
        "the lockfile outlived `bridge stop`"
    );

    let (b, a) = (bridge_in("B.csproj"), bridge_in("A.csproj"));
    stop().assert_code(1).assert_stderr_is(format!(
        "error: `{canonical_folder}` is a folder with the projects of 2 running bridges in it: \
         `{canonical_folder}/A.csproj`, `{canonical_folder}/B.csproj`; which one is meant?\n\
         hint: a project is named by its file: choose one with `--project PATH`\n"
    ));
    a.mur(&["call", "count"]).assert_code(0);
    a.stop();
    b.stop();
}

/// `bridge stop --project FOLDER` passes over a lockfile directory it cannot list (here
/// the variable's, a file in its place): it stops the bridge of the project in the folder
/// announced in another directory searched (one started without `XDG_RUNTIME_DIR`), and
/// with none, "no bridge" names the directory it could not read. It failed (exit 7) on
/// that directory, though the bridge was in the other.
#[cfg(unix)]
#[test]
fn bridge_stop_of_a_folder_passes_over_a_lockfile_directory_it_cannot_list() {
    let sb = Sandbox::new();
    let folder = sb.dir("unlisted");
    let stop = || {
        let mut stop = sb.mur_command(&["devtools", "bridge", "stop", "--project"]);
        stop.arg(&folder);
        mur_e2e::run(&mut stop)
    };
    let no_bridge = format!(
        "no bridge is running for `{}`",
        sb.canonical_project(&folder)
    );
    stop_passes_over_an_unlistable_lockfile_directory(
        &sb,
        &folder.join("U.csproj"),
        stop,
        &no_bridge,
    );
}

/// Plain `bridge stop` passes over a lockfile directory it cannot list, as `--project
/// FOLDER` does: it stops the one bridge announced in another directory searched, and
/// with none, "no bridge" names the directory it could not read, in a hint. It failed
/// (exit 7, "cannot read the lockfile directory") on that directory, though the only
/// bridge running was announced in the other.
#[cfg(unix)]
#[test]
fn bridge_stop_passes_over_a_lockfile_directory_it_cannot_list() {
    let sb = Sandbox::new();
    let project = sb.project("unlisted-only");
    let stop = || sb.mur(&["devtools", "bridge", "stop"]);
    stop_passes_over_an_unlistable_lockfile_directory(&sb, &project, stop, "no bridge is running");
}

/// Starts a bridge of `project` without `XDG_RUNTIME_DIR` (so it is announced in the shared
/// directory), puts a file in the place of the variable's lockfile directory, and checks
/// that `stop` stops that bridge and, run again, fails with exit 4: `error: {no_bridge}`
/// and hints naming both directories and the one it could not read.
#[cfg(unix)]
fn stop_passes_over_an_unlistable_lockfile_directory(
    sb: &Sandbox,
    project: &Path,
    stop: impl Fn() -> Output,
    no_bridge: &str,
) {
    let scrubbed = crate::host_discovery::NoRuntimeVar::new(sb);
    let shared = scrubbed.shared();
    let script = sb.file("hostile_server.py", HOSTILE_SERVER);
    let mut start = scrubbed.env(sb.mur_command(&["devtools", "bridge", "--project"]));
    start
        .arg(project)
        .args(["--", "python3", "-u"])
        .arg(&script);
    let bridge = Bridge::adopted(sb, project.to_path_buf(), &mur_e2e::run(&mut start));
    let unlistable = sb.lockfile_dir();
    std::fs::write(&unlistable, "not a directory").expect("a file in its place");
    stop().assert_code(0).assert_stderr_is(format!(
        "stopped the bridge of `{}` (pid {})\n",
        sb.canonical_project(project),
        bridge.line["pid"]
    ));
    assert!(
        !shared.path_for(&sb.canonical_project(project)).exists(),
        "the lockfile outlived `bridge stop`"
    );
    let error = std::fs::read_dir(&unlistable).expect_err("a file is not listed");
    stop().assert_code(4).assert_stderr_is(format!(
        "error: {no_bridge}\n\
         hint: a bridge announces itself in `{}` or `{}`\n\
         hint: cannot read the lockfile directory `{}`: {error}; a bridge announced there is \
         not stopped\n",
        unlistable.display(),
        shared.dir().display(),
        unlistable.display(),
    ));
}

/// Of a folder's projects, a live app's session and one whose session ended leaving its
/// lockfile, `bridge stop --project FOLDER` says the live one is not a bridge, whichever
/// lockfile comes first: it said "has ended; its lockfile was stale" (exit 4) of the other
/// when its lockfile was listed first, hiding the session that runs.
#[test]
fn bridge_stop_of_a_folder_speaks_of_the_session_that_runs_not_one_that_ended() {
    let sb = Sandbox::new();
    let folder = sb.dir("mixed");
    let mut projects: Vec<PathBuf> = ["A.csproj", "B.csproj"]
        .into_iter()
        .map(|name| sb.file(&format!("mixed/{name}"), "<Project />\n"))
        .collect();
    // The ended session's lockfile is listed first.
    projects.sort_by_key(|project| sb.lockfile_path(project));
    let (ended, live) = (&projects[0], &projects[1]);
    let mut exited = std::process::Command::new("true").spawn().expect("true");
    let pid = exited.id();
    exited.wait().expect("true exits");
    let stale = sb.plant_http_lockfile(&sb.canonical_project(ended), pid, 9);
    let app = sb.start_sample(live);
    let mut stop = sb.mur_command(&["devtools", "bridge", "stop", "--project"]);
    stop.arg(&folder);
    mur_e2e::run(&mut stop)
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: the session of `{}` (pid {}) is not a bridge; `bridge stop` stops only \
             bridges\n\
             hint: stop an app's session in the app (Ctrl+C where it runs)\n",
            sb.canonical_project(live),
            app.pid()
        ));
    assert!(!stale.exists(), "the stale lockfile is removed");
    // The app's session was not touched.
    let mut call = sb.mur_command(&["devtools", "--project"]);
    call.arg(live).args(["call", "ping"]);
    mur_e2e::run(&mut call).assert_code(0);
}

/// A call of `--project FOLDER` whose project's bridge stopped (idle) says so, and how
/// to start it again, as the call of its file does: it said "start the app with its
/// devtools session enabled", an app's remedy, for a bridge.
#[test]
fn a_folders_stopped_bridge_is_told_as_its_project_files_is() {
    let sb = Sandbox::new();
    let command = hostile_command(&sb);
    let folder = sb.dir("idle");
    let project = folder.join("I.csproj");
    let _bridge = idle_bridge_that_stopped(&sb, &project, &command);
    let call = |project: &Path| call_count(&sb, project);
    let (by_file, by_folder) = (call(&project), call(&folder));
    by_folder.assert_code(4);
    let no_session = |project: &Path| {
        format!(
            "error: no live devtools session for project `{}`\n",
            sb.canonical_project(project)
        )
    };
    assert_eq!(
        by_folder.stderr.replacen(&no_session(&folder), "", 1),
        by_file.stderr.replacen(&no_session(&project), "", 1),
        "{by_folder}"
    );
    assert!(said_after_stop(&by_folder).starts_with("no request for 1s; start it again: `"));
}

/// A call of `--project FOLDER` whose projects' bridges stopped (idle) names each, with
/// its stop and how to start it again, in the words each project file's call has: it
/// said "start the app with its devtools session enabled", an app's remedy, when more
/// than one had stopped.
#[test]
fn a_folders_stopped_bridges_are_each_told_with_how_to_start_it_again() {
    let sb = Sandbox::new();
    let command = hostile_command(&sb);
    let folder = sb.dir("idle-two");
    let projects = [folder.join("A.csproj"), folder.join("B.csproj")];
    for project in &projects {
        idle_bridge_that_stopped(&sb, project, &command);
    }
    let call = |project: &Path| call_count(&sb, project);
    let each: Vec<String> = projects
        .iter()
        .map(|project| {
            let out = call(project);
            let said = out.stderr_after("hint: this project's bridge stopped at ");
            format!("`{}` at {said}", sb.canonical_project(project))
        })
        .collect();
    let by_folder = call(&folder);
    by_folder.assert_code(4).assert_stderr_is(format!(
        "error: no live devtools session for project `{}`\n\
         hint: the bridges of 2 projects in this folder stopped: {}\n",
        sb.canonical_project(&folder),
        each.join("; ")
    ));
}

#[test]
fn a_python_sdk_server_stays_warm_and_is_restarted_when_it_dies() {
    for (venv, major, requirements) in [
        ("interop-venv", "1", "requirements.txt"),
        ("interop-modern-venv", "2", "requirements-modern.txt"),
    ] {
        let Some(server) = python_server(venv, major, requirements) else {
            continue;
        };
        let sb = Sandbox::new();
        let bridge = Bridge::start(&sb, "python", &[], &server);
        // One process between calls: its counter goes on.
        for expected in [1, 2, 3] {
            let out = bridge.mur(&["count"]);
            out.assert_code(0);
            assert_eq!(
                out.json(),
                json!({ "result": expected }),
                "mcp {major}.x: {out}"
            );
        }
        let out = bridge.mur(&["greet", "--answer", "name=Ada"]);
        assert_eq!(
            out.json(),
            json!({ "result": "hello Ada" }),
            "mcp {major}.x: {out}"
        );
        let out = bridge.mur(&["steps", "--n", "2"]);
        assert_eq!(
            out.stderr, "progress: 1/2\nprogress: 2/2\n",
            "mcp {major}.x"
        );
        // pydantic's schemas: `Optional[T]` is `anyOf` T and null, an enum a `$ref`
        // into `$defs`; each is the option T would be, not a JSON value.
        let out = bridge.mur(&["search", "--help"]);
        let usage = out.stdout.lines().next().unwrap_or_default();
        assert_eq!(
            usage,
            "Usage: mur devtools search <query> [--limit N] [--mode fast|slow] [--tags TEXT]... [--args JSON]",
            "mcp {major}.x: {out}"
        );
        let words = ["search", "--query", "q", "--limit", "3", "--mode", "fast"];
        let out = bridge.mur(&[&words[..], &["--tags", "a", "--tags", "b"]].concat());
        assert_eq!(
            out.json(),
            json!({ "query": "q", "limit": 3, "mode": "fast", "tags": ["a", "b"] }),
            "mcp {major}.x: {out}"
        );
        bridge
            .mur(&["search", "--query", "q", "--mode", "medium"])
            .assert_code(1)
            .assert_stderr_starts_with(
                "error: search: `--mode` must be `fast` or `slow`, got `medium`\n",
            );

        // A server that dies: the call in flight fails, the next one reaches
        // a fresh process (its counter starts again), and the log says so.
        let out = bridge.mur(&["call", "crash"]);
        out.assert_code(5)
            .assert_stderr_contains("the stdio server exited (exit status: 3)");
        let out = bridge.mur(&["count"]);
        assert_eq!(out.json(), json!({ "result": 1 }), "mcp {major}.x: {out}");
        let log = bridge.log();
        assert!(
            log.contains("restarting it (1 of 5 within a minute)"),
            "mcp {major}.x: {log}"
        );
        assert_eq!(log.matches("stdio-server: started").count(), 2, "{log}");
        bridge.stop();
    }
}

/// How long the idle test's bridge waits for a request: past what its first call (and
/// the first call of the bridge started again) takes to arrive under load, which one
/// second was not (the bridge counts from its start).
const IDLE: &str = "5s";

#[test]
fn an_idle_bridge_stops_on_its_own_and_removes_its_lockfile() {
    let sb = Sandbox::new();
    let bridge = Bridge::start(&sb, "idle", &["--idle", IDLE], &everything());
    bridge.mur(&["echo", "--message", "once"]).assert_code(0);
    wait_until("the idle bridge to remove its lockfile", || {
        bridge.lockfile().is_none().then_some(())
    });
    wait_until("the idle bridge to log its end", || {
        bridge.log().contains("bridge stopped").then_some(())
    });
    bridge.assert_logged(&format!("no request for {IDLE}; stopping"));
    sb.mur(&["devtools", "session", "list"]).assert_code(4);
    // The project's next call says why no session is there, and how to start it
    // again, with the options it had: a command that, pasted, does.
    let out = bridge.mur(&["echo", "--message", "again"]);
    let command = idle_stop_command(&out, IDLE);
    let line = mur_e2e::run(&mut sb.shell_command(command));
    line.assert_code(0);
    let _again = Adopted(line.json()["pid"].as_u64().expect("pid") as u32);
    bridge
        .mur(&["echo", "--message", "again"])
        .assert_code(0)
        .assert_stdout_contains("Echo: again");
}

/// The command a call (`out`, exit 4) says starts its project's bridge again, which
/// stopped after no request for `idle`: "hint: this project's bridge stopped at TIME:
/// no request for IDLE; start it again: `COMMAND`".
fn idle_stop_command<'o>(out: &'o Output, idle: &str) -> &'o str {
    let said = said_after_stop(out);
    said.strip_prefix(&format!("no request for {idle}; start it again: `"))
        .and_then(|command| command.strip_suffix('`'))
        .unwrap_or_else(|| panic!("{said}"))
}

/// What a call of a project whose bridge stopped (`out`, exit 4) says after "hint: this
/// project's bridge stopped at TIME: ": why, and the command that starts it again.
fn said_after_stop(out: &Output) -> &str {
    out.assert_code(4);
    let hint = out.stderr_after("hint: this project's bridge stopped at ");
    mur_e2e::after_stop_time(hint, "")
}

/// The command a stopped bridge's project offers to start it again works pasted from
/// anywhere: it goes first to the directory the bridge ran its server in, where a
/// server named by a relative path (`python server.py`, here `sh server.sh`) is found.
/// Without the `cd`, pasted from the sandbox's root, `sh` found no `server.sh` and the
/// start failed (exit 2).
#[test]
fn the_command_that_starts_a_bridge_again_runs_its_server_where_it_ran() {
    let sb = Sandbox::new();
    let dir = sb.dir("my server");
    let words: Vec<String> = everything()
        .iter()
        .map(|w| mur_core::shell_word(&w.to_string_lossy()))
        .collect();
    std::fs::write(
        dir.join("server.sh"),
        format!("exec {} \"$@\"\n", words.join(" ")),
    )
    .expect("server.sh");
    let project = sb.project("relative");
    let mut cmd = sb.mur_command(&["devtools", "bridge", "--project"]);
    cmd.arg(&project)
        .args(["--", "sh", "server.sh"])
        .current_dir(&dir);
    let bridge = Bridge::adopted(&sb, project, &mur_e2e::run(&mut cmd));
    let project = bridge.project.clone();
    let said = bridge.stop_then_said(&["echo", "--message", "again"]);
    let dir = std::fs::canonicalize(&dir).expect("the server's directory");
    let command = format!(
        "cd '{}' && mur devtools bridge --project {} -- sh server.sh",
        dir.display(),
        sb.canonical_project(&project)
    );
    assert_eq!(
        said,
        format!("stopped by a signal (`bridge stop`, Ctrl+C); start it again: `{command}`")
    );
    let again = Bridge::adopted(&sb, project, &mur_e2e::run(&mut sb.shell_command(&command)));
    again
        .mur(&["echo", "--message", "again"])
        .assert_code(0)
        .assert_stdout_contains("Echo: again");
    again.stop();
}

/// A server argument holding a newline or a control character (ESC) keeps the command
/// that starts the bridge again one line, in the log's last line and in the hint that
/// quotes it, written in bash's `$'…'`: read back by bash, it is the same words, run
/// from the same directory. In single quotes the newline split the log's last line (the
/// hint lost the command), and ESC, escaped in the log as `\x1b`, pasted as those four
/// characters.
#[test]
fn the_command_that_starts_a_bridge_again_gives_back_every_word_of_its_server() {
    let sb = Sandbox::new();
    let script = sb.file("hostile_server.py", HOSTILE_SERVER);
    let odd = "\x1b[31mRED\nerror: x";
    let server: Vec<OsString> = vec![
        "python3".into(),
        "-u".into(),
        script.clone().into(),
        odd.into(),
        "a b".into(),
    ];
    let bridge = Bridge::start(&sb, "odd-words", &[], &server);
    let log = PathBuf::from(bridge.line["log"].as_str().expect("log"));
    let project = sb.canonical_project(&bridge.project);
    let said = bridge.stop_then_said(&["call", "count"]);
    let command = said
        .strip_prefix("stopped by a signal (`bridge stop`, Ctrl+C); start it again: `")
        .and_then(|command| command.strip_suffix('`'))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(
        command.ends_with(&format!(
            "&& mur devtools bridge --project {project} -- python3 -u {} \
             $'\\x1b[31mRED\\x0aerror: x' 'a b'",
            script.display()
        )),
        "{command}"
    );
    let text = std::fs::read_to_string(&log).expect("the log");
    let last = text.lines().last().expect("a last line");
    assert!(
        last.ends_with(&format!(
            " INFO bridge stopped: stopped by a signal (`bridge stop`, Ctrl+C); to start it \
             again: `{command}`"
        )),
        "{text}"
    );
    // As bash reads it (the shell a pasted `$'…'` needs): `mur` given the same words,
    // from the directory the bridge ran in.
    let words = mur_e2e::run(&mut sb.shell_command(&format!(
        "mur() {{ printf '%s\\0' \"$PWD\" \"$@\"; }}; {command}"
    )));
    words.assert_code(0);
    let read: Vec<&str> = words.stdout.split_terminator('\0').collect();
    let root = std::fs::canonicalize(sb.root()).expect("the sandbox");
    let script = script.to_str().expect("utf-8");
    assert_eq!(
        read,
        [
            root.to_str().expect("utf-8"),
            "devtools",
            "bridge",
            "--project",
            &project,
            "--",
            "python3",
            "-u",
            script,
            odd,
            "a b"
        ]
    );
}

/// The project's next call names the stop of the last bridge, one run in the
/// foreground too: its own lines (its start, its stop and the command that starts it
/// again) go to the log as well as to its terminal, and the hint reads the log only
/// from where the last bridge started. It named the bridge before it (stopped by
/// `bridge stop`, at another time, its command without `--idle`).
#[test]
fn after_a_foreground_bridge_the_stop_hint_is_its_own_not_the_last_ones() {
    let sb = Sandbox::new();
    let before = Bridge::start(&sb, "fg-after-bg", &[], &everything());
    let project = before.project.clone();
    let log = PathBuf::from(before.line["log"].as_str().expect("log"));
    before.stop();
    let out = foreground_for_a_second(&sb, &project);
    out.assert_stderr_contains("INFO bridge stopped: no request for 1s; to start it again: `");
    let out = sb.mur(&[
        "devtools",
        "--project",
        project.to_str().expect("utf-8"),
        "echo",
        "--message",
        "again",
    ]);
    let command = idle_stop_command(&out, "1s");
    assert!(
        command.starts_with(&format!(
            "{}mur devtools bridge --project ",
            crate::servers::from_the_root(&sb)
        )) && command.contains(" --idle 1s -- "),
        "{command}"
    );
    // The bridge's own lines are in its part of the log.
    let text = std::fs::read_to_string(&log).expect("the log");
    let (_, last) = text
        .rsplit_once(
            ": a bridge for this project starts; the lines above are the last one's -----\n",
        )
        .unwrap_or_else(|| panic!("no line where the foreground bridge starts: {text}"));
    assert!(last.contains("INFO bridge for `"), "{last}");
}

/// A foreground bridge's log holds what its stderr shows, in the same layout:
/// `mur-server`'s lines too — the stale lockfile it removed as the bridge claimed the
/// slot, before the log was made, and the session it announced — which reached only
/// the terminal when the bridge wrote its own lines to the log by hand; and the
/// server's stderr, `server: …` (each line of it in the log as it was shown, not as the
/// server wrote it).
#[test]
fn a_foreground_bridges_log_holds_what_its_stderr_shows() {
    let sb = Sandbox::new();
    let project = sb.project("fg-log");
    let lockfile = sb.plant_http_lockfile(&sb.canonical_project(&project), mur_e2e::dead_pid(), 9);
    let out = foreground_for_a_second(&sb, &project);
    // `<time>  INFO message`, the time each layer's own (and the pump's, which writes
    // the server's lines to the log); the server's lines and the bridge's are compared
    // apart, as they come from threads of their own.
    let untimed = |line: &'_ str| line.split_once(' ').map(|(_, rest)| rest.to_owned());
    let server = |line: &String| line.starts_with(" INFO server: ");
    let shown: Vec<String> = out.stderr.lines().filter_map(untimed).collect();
    let (shown_server, shown): (Vec<String>, Vec<String>) = shown.into_iter().partition(server);
    assert!(!shown_server.is_empty(), "the server said nothing: {out}");
    for said in [
        format!(
            "INFO removing stale lockfile `{}` (pid ",
            lockfile.display()
        ),
        "INFO session for `".to_owned(),
        "INFO bridge stopped: no request for 1s; ".to_owned(),
    ] {
        assert!(
            shown.iter().any(|line| line.contains(&said)),
            "{said}: {out}"
        );
    }
    let log = std::fs::read_to_string(lockfile.with_extension("bridge.log")).expect("the log");
    let logged: Vec<String> = log
        .lines()
        .filter(|line| !line.starts_with("----- "))
        .filter_map(untimed)
        .collect();
    let (logged_server, logged): (Vec<String>, Vec<String>) = logged.into_iter().partition(server);
    assert_eq!(logged, shown, "the log:\n{log}");
    assert_eq!(logged_server, shown_server, "the log:\n{log}");
}

/// `mur devtools bridge --foreground --idle 1s --project PROJECT -- server-everything`,
/// to its end (a second without a request), which must succeed.
fn foreground_for_a_second(sb: &Sandbox, project: &Path) -> Output {
    let mut foreground = sb.mur_command(&[
        "devtools",
        "bridge",
        "--foreground",
        "--idle",
        "1s",
        "--project",
    ]);
    foreground.arg(project).arg("--").args(everything());
    let out = mur_e2e::run(&mut foreground);
    out.assert_code(0);
    out
}

/// A bridge start (`mur devtools bridge --project PROJECT -- SERVER…`) still running,
/// its stderr kept in a file: for what a start says while it waits.
struct Starting {
    process: mur_e2e::Process,
    stderr: PathBuf,
}

impl Starting {
    /// The start of `project`'s bridge over `server`, once its stderr holds `awaited`.
    fn once_said(sb: &Sandbox, project: &Path, server: &[OsString], awaited: &str) -> Self {
        let stderr = sb.root().join("start.stderr");
        let mut command = sb.mur_command(&["devtools", "bridge", "--project"]);
        command
            .arg(project)
            .arg("--")
            .args(server)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::fs::File::create(&stderr).expect("a file for stderr"));
        let process = mur_e2e::Process::spawn(&mut command);
        wait_until(&format!("the start to say `{awaited}`"), || {
            let said = std::fs::read_to_string(&stderr).unwrap_or_default();
            said.contains(awaited).then_some(())
        });
        Self { process, stderr }
    }

    /// Waits for the start to end: its output, and all it said on stderr.
    fn finish(self) -> (Output, String) {
        let out = self.process.wait_output();
        let said = std::fs::read_to_string(&self.stderr).expect("the start's stderr");
        (out, said)
    }
}

#[test]
fn a_slow_start_says_what_the_bridge_waits_for() {
    let sb = Sandbox::new();
    let project = sb.project("slow");
    // server-everything, started only once mur has said why it has not returned yet
    // (after 2 s): the start waits on that line, not on a sleep a loaded machine outruns.
    let go = sb.root().join("go");
    let held = format!(
        "while [ ! -e {} ]; do sleep 0.05; done; exec \"$@\"",
        mur_core::shell_word(&go.to_string_lossy())
    );
    let server: Vec<OsString> = ["sh", "-c", &held, "sh"].map(OsString::from).to_vec();
    let starting = Starting::once_said(&sb, &project, &[server, everything()].concat(), "\n");
    std::fs::write(&go, "").expect("go");
    let (out, said) = starting.finish();
    let bridge = Bridge::adopted(&sb, project, &out);
    assert_eq!(
        said,
        format!(
            "waiting for the server to answer `initialize` (at most 60 s); its log is `{}`\n",
            bridge.line["log"].as_str().expect("log")
        )
    );
    bridge.stop();
}

#[test]
fn a_server_that_cannot_start_is_reported_and_leaves_no_session() {
    let sb = Sandbox::new();
    let project = sb.project("broken");
    let out = start(&sb, &project, &[], &["/nonexistent/mcp-server".into()]);
    out.assert_code(1)
        .assert_stderr_starts_with("error: cannot start `/nonexistent/mcp-server`: ");
    assert_eq!(out.stdout, "");
    // Nor its sidecar, whose secret would name a port someone else may take.
    let sidecar = sb.lockfile_path(&project).with_extension("bridge");
    assert!(sb.read_lockfile(&project).is_none());
    assert!(!sidecar.exists(), "{}", sidecar.display());

    // A program that is no MCP server: it exits without answering `initialize`.
    let out = start(&sb, &project, &[], &["true".into()]);
    out.assert_code(2).assert_stderr_starts_with(
        "error: the server exited (exit status: 0) before it answered `initialize`\n",
    );
    assert!(sb.read_lockfile(&project).is_none());
    assert!(!sidecar.exists(), "{}", sidecar.display());
}

#[test]
fn bridge_stop_stops_only_bridges_and_bad_starts_are_usage_errors() {
    let sb = Sandbox::new();
    sb.mur(&["devtools", "bridge", "stop"])
        .assert_code(4)
        .assert_stderr_starts_with("error: no bridge is running\n");
    let project = sb.project("app");
    let sample = sb.start_sample(&project);
    let project_arg = project.to_str().expect("utf-8");
    sb.mur(&["devtools", "--project", project_arg, "bridge", "stop"])
        .assert_code(1)
        .assert_stderr_contains("is not a bridge; `bridge stop` stops only bridges");
    // The app's session was not touched.
    sb.mur(&["devtools", "--project", project_arg, "call", "ping"])
        .assert_code(0);
    drop(sample);

    sb.mur(&["devtools", "bridge", "--", "server"])
        .assert_code(1)
        .assert_stderr_starts_with("error: `bridge` needs `--project PATH`");
    sb.mur(&[
        "devtools",
        "bridge",
        "--project",
        "x",
        "--idle",
        "soon",
        "--",
        "server",
    ])
    .assert_code(1)
    .assert_stderr_contains("`soon` is not a duration such as 30s, 15m, 12h, 7d or 1h 30m");
}

#[test]
fn concurrent_calls_through_one_bridge_each_get_their_own_answer() {
    with_python_bridge(|bridge| {
        // Every `mur` call is request 1 with progress token `mur`: the bridge
        // tells them apart. Eight at once, each counted exactly once.
        let mut counts: Vec<u64> = std::thread::scope(|scope| {
            let calls: Vec<_> = (0..8)
                .map(|_| scope.spawn(|| bridge.mur(&["count"])))
                .collect();
            calls
                .into_iter()
                .map(|call| {
                    let out = call.join().expect("a call");
                    out.assert_code(0);
                    out.json()["result"].as_u64().expect("a count")
                })
                .collect()
        });
        counts.sort_unstable();
        assert_eq!(counts, (1..=8).collect::<Vec<u64>>());
    });
}

#[test]
fn in_the_foreground_the_bridge_prints_its_line_and_ends_on_sigterm() {
    let sb = Sandbox::new();
    let project = sb.project("fg");
    let mut command = sb.mur_command(&["devtools", "bridge", "--foreground", "--project"]);
    command.arg(&project).arg("--").args(everything());
    // Waits for the lockfile naming this very process: the bridge is `mur` itself.
    let session = sb.start(command, &project);
    sb.mur(&["devtools", "echo", "--message", "fg"])
        .assert_code(0);
    session.signal("TERM");
    let log = session.log();
    let lockfile = session.lockfile.clone();
    assert!(session.wait_status().success(), "{log}");
    assert!(!lockfile.exists(), "the lockfile outlived SIGTERM");
    assert!(
        log.contains("INFO bridge for `"),
        "its messages on stderr: {log}"
    );
}

/// `bridge stop` of a project whose session has ended without withdrawing its lockfile,
/// and whose bridge sidecar is gone, says that nothing runs, with the bridge's own last
/// word when its log has one. It said "is not a bridge" and to stop the app's session
/// "in the app (Ctrl+C where it runs)", where no app and no bridge ran.
#[test]
fn bridge_stop_of_a_session_that_has_ended_says_so_not_to_stop_an_app() {
    let sb = Sandbox::new();
    let project = sb.project("gone");
    let canonical = sb.canonical_project(&project);
    let mut exited = std::process::Command::new("true").spawn().expect("true");
    let pid = exited.id();
    exited.wait().expect("true exits");
    let stop = || {
        sb.mur(&[
            "devtools",
            "bridge",
            "stop",
            "--project",
            project.to_str().expect("utf-8 project"),
        ])
    };
    let ended = format!(
        "error: no bridge is running for `{canonical}`: the session whose lockfile was left \
         there (pid {pid}) has ended; its lockfile was stale\n"
    );
    let lockfile = sb.plant_http_lockfile(&canonical, pid, 9);
    stop().assert_code(4).assert_stderr_is(&ended);
    assert!(!lockfile.exists(), "the stale lockfile is removed");
    // Its bridge's log says how it stopped, and how to start it again.
    let log = lockfile.with_extension("bridge.log");
    std::fs::write(
        &log,
        "2026-11-29T11:23:38.810867Z  INFO bridge stopped: no request for 1s; to start it \
         again: `mur devtools bridge --project /p/d.toml -- python x.py`\n",
    )
    .expect("a log");
    sb.plant_http_lockfile(&canonical, pid, 9);
    stop().assert_code(4).assert_stderr_is(format!(
        "{ended}hint: this project's bridge stopped at 2026-11-29T11:23:38Z: no request for \
         1s; start it again: `mur devtools bridge --project /p/d.toml -- python x.py`\n"
    ));
}

/// A bridge started in the background prints its session line where it was started,
/// and not into its log too: there it was a bare line of JSON among the bridge's lines
/// and the server's stderr, which read as a message of the server's gone astray.
#[test]
fn a_background_bridges_session_line_is_not_in_its_log() {
    let sb = Sandbox::new();
    let bridge = Bridge::start(&sb, "bg", &[], &everything());
    let log = PathBuf::from(bridge.line["log"].as_str().expect("log"));
    bridge.stop();
    let log = std::fs::read_to_string(&log).expect("the log");
    assert!(log.contains("INFO bridge for `"), "its own lines: {log}");
    assert!(
        !log.lines().any(|line| line.starts_with('{')),
        "a line of JSON in the log: {log}"
    );
}

/// A server that keeps dying is restarted 5 times a minute, each crash saying what
/// became of it, then the bridge gives up. A request that arrives while the server
/// restarts waits for it and fails as any crash (the second crash, here): it neither
/// found the server "did not start again" nor made a restart of its own.
#[test]
fn a_server_that_keeps_dying_is_restarted_5_times_a_minute_then_the_bridge_gives_up() {
    let sb = Sandbox::new();
    let Some(bridge) = python_bridge(&sb) else {
        return;
    };
    let log = bridge.line["log"].as_str().expect("log").to_owned();
    // Each crash says what became of the server and where its stderr is.
    let crashed = |restart: u32| {
        bridge
            .mur(&["--timeout", "30000", "call", "crash"])
            .assert_code(5)
            .assert_stderr_is(format!(
                "error: tool `crash` failed: the stdio server exited (exit status: 3) before it \
                 answered; the bridge is starting it again ({restart} of at most 5 restarts a \
                 minute); its stderr is in `{log}` (JSON-RPC error -32603)\n\
                 hint: JSON-RPC -32603 (internal error) is the server failing, not the tool refusing \
                 its arguments: check the app's log and state, then retry once\n"
            ));
    };
    crashed(1);
    // The server is being started again (250 ms pause, then Python's start): this
    // request waits for its `initialize`, then kills it as the first did.
    wait_until("the bridge to restart the server", || {
        bridge
            .log()
            .contains("restarting it (1 of 5 within a minute)")
            .then_some(())
    });
    crashed(2);
    let out = bridge.mur(&["count"]);
    assert_eq!(out.json(), json!({ "result": 1 }), "{out}");
    let restarted = bridge.log();
    for (line, said) in [
        ("did not start again", false),
        ("restarting it (2 of 5 within a minute)", true),
        ("restarting it (3 of 5 within a minute)", false),
    ] {
        assert_eq!(restarted.contains(line), said, "{line}: {restarted}");
    }
    for restart in 3..=5 {
        crashed(restart);
        // The next request waits for the restarted server.
        let out = bridge.mur(&["count"]);
        assert_eq!(
            out.json(),
            json!({ "result": 1 }),
            "restart {restart}: {out}"
        );
    }
    // The sixth within the minute: the bridge gives up, saying so.
    bridge
        .mur(&["call", "crash"])
        .assert_code(5)
        .assert_stderr_is(format!(
            "error: tool `crash` failed: the stdio server exited (exit status: 3) before it \
         answered; it was restarted 5 times within a minute, so the bridge gave up and \
         stopped; its stderr is in `{log}` (JSON-RPC error -32603)\n\
                 hint: JSON-RPC -32603 (internal error) is the server failing, not the tool refusing \
                 its arguments: check the app's log and state, then retry once\n"
        ));
    wait_until("the bridge to give up and remove its lockfile", || {
        bridge.lockfile().is_none().then_some(())
    });
    let log = bridge.log();
    assert!(
        log.contains("restarting it (5 of 5 within a minute)"),
        "{log}"
    );
    assert!(
        log.contains("it was restarted 5 times within a minute, so the bridge gives up"),
        "{log}"
    );
    sb.mur(&["devtools", "session", "list"]).assert_code(4);
}

/// A hostile stdio server (Python, standard library only), one behaviour per tool:
/// `count` answers how many times it was called (a restarted server starts again
/// at 1); `noeol` writes 80 MiB with no newline and then nothing; `junk` writes
/// a 5 MB line that is no JSON, then answers; `flood` sends `n` log messages of
/// 1 KB, then answers; `stderr` writes `n` lines to stderr, a last line naming
/// `END-OF-FLOOD`, then answers; `ask` asks a question and answers with what the
/// client said; `hang` never answers; `cancels` answers the request ids of the
/// `notifications/cancelled` it was sent; `deep` answers with `structuredContent`
/// nested 200 levels deep; `closeout` closes its stdout and sleeps; `wrongid`,
/// `noid` and `badjson` answer with id 987654, with no id, with a line cut short;
/// `batch` answers in a batch of one; `nojsonrpc` answers without `"jsonrpc"`;
/// `badutf8` answers with text whose bytes are not UTF-8 (`\xff\xfe`, at byte 61).
const HOSTILE_SERVER: &str = r#"
import json, os, sys, time
out = sys.stdout.buffer
def send(m):
    out.write(json.dumps(m).encode() + b"\n"); out.flush()
def text(mid, t):
    send({"jsonrpc": "2.0", "id": mid, "result": {"content": [{"type": "text", "text": t}]}})
calls, cancels, asking, asked_badly = 0, [], {}, {}
for raw in sys.stdin.buffer:
    msg = json.loads(raw)
    mid, method = msg.get("id"), msg.get("method")
    params = msg.get("params") or {}
    if method is None and mid in asking:
        text(asking.pop(mid), json.dumps(msg.get("result")))
        continue
    if method is None and mid in asked_badly:
        text(asked_badly.pop(mid), json.dumps(msg))
        continue
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": "2025-06-18",
              "capabilities": {"tools": {}, "logging": {}}, "serverInfo": {"name": "hostile", "version": "1"}}})
    elif method == "notifications/cancelled":
        cancels.append(params.get("requestId"))
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": []}})
    elif method == "tools/call":
        name, args = params.get("name"), params.get("arguments") or {}
        if name == "count":
            calls += 1
            text(mid, str(calls))
        elif name == "noeol":
            for _ in range(80):
                out.write(b"y" * (1 << 20)); out.flush()
        elif name == "junk":
            out.write(b"z" * 5000000 + b"\n"); out.flush()
            text(mid, "after junk")
        elif name == "flood":
            for _ in range(args.get("n", 1)):
                out.write(b'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"' + b"n" * 1000 + b'"}}\n')
            out.flush()
            text(mid, "flooded")
        elif name == "stderr":
            for i in range(args.get("n", 1)):
                sys.stderr.write("stderr line %d of the flood, written to fill the log\n" % i)
            sys.stderr.write("x" * 100000 + "\n")
            sys.stderr.write("END-OF-FLOOD\n"); sys.stderr.flush()
            text(mid, "wrote stderr")
        elif name == "ask":
            asking["q-%d" % mid] = mid
            send({"jsonrpc": "2.0", "id": "q-%d" % mid, "method": "elicitation/create",
                  "params": {"message": "Which?", "requestedSchema": {"type": "object", "properties": {"who": {"type": "string"}}}}})
        elif name == "askbadly":
            asked_badly["b-%d" % mid] = mid
            out.write(b'{"jsonrpc":"2.0","id":"b-%d","method":"elicitation/create","params":{"message":"\xff"}}\n' % mid); out.flush()
        elif name == "cancels":
            text(mid, json.dumps(cancels))
        elif name == "hang":
            pass
        elif name == "big":
            text(mid, "b" * (args.get("kib", 1) * 1024))
        elif name == "deep":
            nested = {}
            for _ in range(200):
                nested = {"a": nested}
            send({"jsonrpc": "2.0", "id": mid, "result": {"content": [], "structuredContent": nested}})
        elif name == "closeout":
            os.close(1)
            time.sleep(600)
        elif name == "wrongid":
            send({"jsonrpc": "2.0", "id": 987654, "result": {"content": []}})
        elif name == "noid":
            send({"jsonrpc": "2.0", "result": {"content": []}})
        elif name == "badjson":
            out.write(b'{"jsonrpc": "2.0", "id": ' + str(mid).encode() + b', "resu\n'); out.flush()
        elif name == "nojsonrpc":
            send({"id": mid, "result": {"content": [{"type": "text", "text": "bare"}]}})
        elif name == "badutf8":
            out.write(b'{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"\xff\xfe"}]},"id":' + str(mid).encode() + b'}\n'); out.flush()
        elif name == "batch":
            out.write(json.dumps([{"jsonrpc": "2.0", "id": mid, "result": {"content": [{"type": "text", "text": "batched"}]}}]).encode() + b"\n"); out.flush()
    elif mid is not None:
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "nope"}})
"#;

/// A bridge over [`HOSTILE_SERVER`], written into the sandbox.
fn hostile_bridge(sb: &Sandbox) -> Bridge<'_> {
    hostile_bridge_with(sb, &[])
}

/// `python3 -u <sandbox>/hostile_server.py`: the command of a [`HOSTILE_SERVER`].
fn hostile_command(sb: &Sandbox) -> [OsString; 3] {
    let script = sb.file("hostile_server.py", HOSTILE_SERVER);
    ["python3".into(), "-u".into(), script.into()]
}

/// [`hostile_bridge`] with the bridge's options `extra`.
fn hostile_bridge_with<'a>(sb: &'a Sandbox, extra: &[&str]) -> Bridge<'a> {
    let command = hostile_command(sb);
    Bridge::start(sb, "hostile", extra, &command)
}

/// Runs `test` on a [`hostile_bridge_with`] the options `extra`, in a sandbox of its
/// own, then stops the bridge.
fn with_hostile_bridge(extra: &[&str], test: impl FnOnce(&Bridge<'_>)) {
    let sb = Sandbox::new();
    let bridge = hostile_bridge_with(&sb, extra);
    test(&bridge);
    bridge.stop();
}

/// A stdio server trusts its parent alone, and the bridge's loopback port is every
/// local user's to reach: the bridge runs a request only with the secret in its
/// private sidecar. A POST (or DELETE) without it, with a wrong one or in another
/// scheme is refused 401 before anything runs — the server's count of calls shows
/// none reached it — while the probe stays open (discovery reads it), and mur's
/// own ways in (a call by lockfile, `--endpoint`, `--auto`, `catalog`, the proxy)
/// all carry it. An app's own session still answers a plain POST (seed 000).
#[test]
fn a_bridge_runs_nothing_for_a_client_without_its_secret() {
    let sb = Sandbox::new();
    let bridge = hostile_bridge(&sb);
    let endpoint = bridge.endpoint();
    let secret = bridge.authorization();
    let mut wrong = secret.clone();
    let last = if wrong.pop() == Some('0') { '1' } else { '0' };
    wrong.push(last);
    let bare = secret.trim_start_matches("Bearer ").to_owned();
    let refusals: [(&str, Vec<(&str, String)>); 6] = [
        ("POST", vec![]),
        ("POST", vec![("Authorization", wrong.clone())]),
        ("POST", vec![("Authorization", format!("Basic {bare}"))]),
        ("POST", vec![("Authorization", bare.clone())]),
        ("POST", vec![("Authorization", format!("{secret}0"))]),
        ("DELETE", vec![]),
    ];
    for (method, headers) in refusals {
        let mut request = mur_e2e::mcp::client()
            .request(method.parse().expect("a method"), &endpoint)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .body(tool_call(1, "count", json!({})).to_string());
        for (name, value) in &headers {
            request = request.header(*name, value);
        }
        let response = request.send().expect("an answer");
        assert_eq!(response.status(), 401, "{method} {headers:?}");
        assert_eq!(
            response.json::<Value>().expect("a JSON body"),
            json!({ "error": "unauthorized: this endpoint takes requests only with its secret \
                (`Authorization: Bearer …`), which `mur` reads from the bridge's private sidecar file" }),
        );
    }
    // The probe needs none: it is how a lockfile is told live.
    let probe: Value = mur_e2e::mcp::client()
        .get(&endpoint)
        .send()
        .and_then(|r| r.json())
        .expect("probe");
    assert_eq!(probe["pid"], bridge.line["pid"]);
    // Not one of the refused calls reached the server: mur's is its first.
    let out = bridge.mur(&["call", "count"]);
    assert_eq!(out.assert_code(0).tool_text(0), "1", "{out}");
    let by_endpoint = sb.devtools_at(&endpoint, &["call", "count"]);
    assert_eq!(
        by_endpoint.assert_code(0).tool_text(0),
        "2",
        "{by_endpoint}"
    );
    let auto = sb.mur(&["devtools", "--auto", "call", "count"]);
    assert_eq!(auto.assert_code(0).tool_text(0), "3", "{auto}");
    let catalog = bridge.mur(&["catalog", "--json"]);
    assert_eq!(catalog.assert_code(0).json()["session"], endpoint.as_str());
    let proxied = proxy_initialized(&sb, &[tool_call(2, "count", json!({}))]);
    let answered = answer(proxied.assert_code(0), 2);
    assert_eq!(answered["result"]["content"][0]["text"], "4", "{answered}");
    // The secret is in the 0600 sidecar alone: not in the lockfile, nor any line mur prints.
    let sidecar = sb.lockfile_path(&bridge.project).with_extension("bridge");
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(&sidecar)
            .expect("the sidecar")
            .permissions(),
    );
    assert_eq!(mode & 0o777, 0o600);
    let lockfile = std::fs::read_to_string(sb.lockfile_path(&bridge.project)).expect("lockfile");
    let list = sb.mur(&["devtools", "session", "list"]);
    for shown in [&lockfile, &list.stdout, &bridge.line.to_string()] {
        assert!(!shown.contains(&bare), "the secret is out: {shown}");
    }
    bridge.stop();

    // An app's own session asks for nothing.
    let sample = sb.start_sample(&sb.project("app"));
    let plain = mur_e2e::mcp::call_tool(sample.endpoint(), "version", json!({}));
    assert!(plain["result"].is_object(), "{plain}");
}

/// When mur has no secret a bridge takes — its sidecar open to others (not trusted,
/// so not read), tampered with, holding a secret no header can carry, or gone —
/// the call ends with one line saying the bridge refused it, exit 2, and a hint
/// naming the sidecar and how to get a bridge whose secret mur reads; by
/// `--endpoint` too, with no OAuth flow; nothing ran.
#[test]
fn mur_refused_by_a_bridge_says_why_in_one_line_and_exits_2() {
    with_hostile_bridge(&[], |bridge| {
        let sidecar = bridge
            .sb
            .lockfile_path(&bridge.project)
            .with_extension("bridge");
        let kept = std::fs::read(&sidecar).expect("the sidecar");
        let shown = sidecar.display().to_string();
        let pid = &bridge.line["pid"];
        let restart = format!(
            "stop the bridge (`mur devtools bridge stop --project {}`) and start it again",
            bridge.sb.canonical_project(&bridge.project)
        );
        // `bridge stop` signals no bridge whose sidecar it does not trust, or that has none:
        // `kill PID` then (review 408 #1).
        let refused = |what: &str, hint: &str| {
            let out = bridge.mur(&["call", "count"]);
            out.assert_code(2).assert_stderr_is(format!(
                "error: `{}` refused mur's request (HTTP 401): {what}\n\
                 hint: {hint}\n",
                bridge.endpoint(),
            ));
            assert_eq!(out.stdout, "");
        };
        let no_secret = "it is a bridge (`mur devtools bridge`), which takes requests only with \
                         its secret, and mur has none for it";
        let chmod = |mode: u32| {
            let permissions = std::os::unix::fs::PermissionsExt::from_mode(mode);
            std::fs::set_permissions(&sidecar, permissions).expect("chmod");
        };
        chmod(0o644);
        refused(
            no_secret,
            &format!(
                "mur did not read the bridge's secret: `{shown}` is open to group or others \
                 (mode 644), so its secret is no secret; if the bridge is yours, stop it with \
                 `kill {pid}` (`bridge stop` signals nothing by a sidecar it does not trust) and \
                 start it again"
            ),
        );
        chmod(0o600);
        let text = String::from_utf8(kept.clone()).expect("utf-8");
        let fields: Value = serde_json::from_str(&text).expect("json");
        let secret = fields["secret"].as_str().expect("a secret");
        let flipped = format!(
            "{}{}",
            &secret[..secret.len() - 1],
            if secret.ends_with('0') { '1' } else { '0' }
        );
        std::fs::write(&sidecar, text.replace(secret, &flipped)).expect("tamper");
        refused(
            "the bridge did not take the secret mur sent",
            &format!("the secret in `{shown}` is not the one the bridge holds; {restart}"),
        );
        // A secret no header can carry is not read (it would not be sent).
        let crooked = text.replace(secret, "abc\\r\\nX-Injected: 1");
        std::fs::write(&sidecar, crooked).expect("crook");
        refused(
            no_secret,
            &format!(
                "mur did not read the bridge's secret: `{shown}` holds a secret no `Authorization` \
                 header can carry (a bridge's is letters and digits); {restart}"
            ),
        );
        std::fs::remove_file(&sidecar).expect("remove the sidecar");
        refused(
            no_secret,
            &format!(
                "no sidecar beside its lockfile names its process: an app's own session asks for \
                 no secret, and mur runs no OAuth flow for a session found by its lockfile (it \
                 does for `--endpoint URL`); a bridge whose sidecar is gone is stopped with \
                 `kill {pid}` and started again"
            ),
        );
        // `--endpoint` of it: no bridge mur knows names that endpoint now, but its
        // 401 says it is a bridge: no OAuth flow (it has no authorization server).
        let out = bridge
            .sb
            .devtools_at(&bridge.endpoint(), &["call", "count"]);
        out.assert_code(2).assert_stderr_is(format!(
            "error: `{}` refused mur's request (HTTP 401): it is a bridge (`mur devtools bridge`), \
             which takes requests only with its secret, and mur has none for it\n\
             hint: mur reads a bridge's secret from its sidecar beside its lockfile, and no sidecar \
             of yours names this endpoint: it is gone or unreadable, or the bridge is another \
             user's; if it is yours, stop the bridge (`mur devtools bridge stop`) and start it again\n",
            bridge.endpoint()
        ));
        assert_eq!(out.stdout, "");
        std::fs::write(&sidecar, &kept).expect("restore");
        chmod(0o600);
        let out = bridge.mur(&["call", "count"]);
        assert_eq!(
            out.assert_code(0).tool_text(0),
            "1",
            "nothing ran before: {out}"
        );
    });
}

#[test]
fn a_server_message_past_the_cap_fails_the_call_restarts_the_server_and_logs_are_clipped() {
    with_hostile_bridge(&[], |bridge| {
        bridge.mur(&["call", "count"]).assert_code(0);
        // 80 MiB with no newline: past the 64 MiB a message may have, the call in
        // flight fails, saying why, and the server is started again.
        fails_and_a_fresh_server_answers(
            bridge,
            "noeol",
            "the stdio server wrote a message larger than 64 MiB, the bridge's message limit (a \
             bridge started with `--max-message BYTES` reads larger ones)",
        );
        // A line of 5 MB that is no JSON goes to the log clipped, and the call goes on.
        let out = bridge.mur(&["call", "junk"]);
        assert_eq!(out.tool_text(0), "after junk", "{out}");
        let log = bridge.log();
        assert!(
            log.contains("restarting it (1 of 5 within a minute)"),
            "{log}"
        );
        assert!(
            log.contains(&format!("{}… (5000000 bytes in all)", "z".repeat(100))),
            "{log}"
        );
        assert!(
            log.len() < 100_000,
            "the log holds the whole line: {} bytes",
            log.len()
        );
    });
}

/// Calls `tool`, which leaves the server unable to answer: the call fails (exit 5)
/// saying `said`, and a server started afresh (its count at 1) answers the next.
fn fails_and_a_fresh_server_answers(bridge: &Bridge<'_>, tool: &str, said: &str) {
    let out = bridge.mur(&["--timeout", "60000", "call", tool]);
    out.assert_code(5).assert_stderr_contains(said);
    let out = bridge.mur(&["call", "count"]);
    out.assert_code(0);
    assert_eq!(out.tool_text(0), "1", "a fresh server answers: {out}");
}

/// A server that closes its stdout but runs on can answer nothing more: the call in
/// flight fails at once saying so, and the server is stopped and started again as
/// after a crash (the call, and every one after it, waited out its time, the bridge's
/// log silent).
#[test]
fn a_server_that_closes_its_stdout_and_runs_on_is_restarted_as_after_a_crash() {
    with_hostile_bridge(&[], |bridge| {
        fails_and_a_fresh_server_answers(
            bridge,
            "closeout",
            "the stdio server closed its stdout but kept running, so it could answer nothing \
             more; the bridge stopped it before it answered; the bridge is starting it again (1 of \
             at most 5 restarts a minute)",
        );
        let log = bridge.log();
        assert!(
            log.contains(
                "the server closed its stdout but kept running, so it could answer nothing more; \
                 restarting it (1 of 5 within a minute)"
            ),
            "{log}"
        );
    });
}

/// What the server writes that the bridge can match to no request — an answer to an
/// id it never sent, an answer with no id, a line that is no JSON — is logged, and
/// the call waiting is told so in a log message of the bridge's (`-v` shows it):
/// it may have been its answer (a wrong id left no word anywhere, and every call
/// ended as a timeout only). A batch is read message by message: its answer ends
/// the call. An answer without `"jsonrpc"` (some servers leave it out) is relayed
/// as JSON-RPC 2.0.
#[test]
fn what_the_bridge_cannot_match_is_logged_and_told_and_a_batch_is_read() {
    with_hostile_bridge(&[], |bridge| {
        for (tool, what) in [
            (
                "wrongid",
                "an answer to id 987654, an id the bridge never sent",
            ),
            (
                "noid",
                "a message that is no JSON-RPC (neither a method nor an id)",
            ),
            (
                "badjson",
                "a line that is not JSON (EOF while parsing a string",
            ),
        ] {
            let out = bridge.mur(&["-v", "--timeout", "3000", "call", tool]);
            out.assert_code(2).assert_stderr_contains(&format!(
                "server log (warning mur-bridge): the stdio server wrote {what}"
            ));
            out.assert_stderr_contains(
                "which the bridge cannot match to a request (the bridge's log has it); if it was \
                 this request's answer, no other will come",
            );
            let log = bridge.log();
            assert!(
                log.contains(&format!("the server wrote {what}")),
                "{tool}: {log}"
            );
        }
        let out = bridge.mur(&["--timeout", "20000", "call", "batch"]);
        out.assert_code(0);
        assert_eq!(out.tool_text(0), "batched", "{out}");
        // Relayed as written, mur would refuse it (exit 2, naming the bridge).
        let out = bridge.mur(&["--timeout", "20000", "call", "nojsonrpc"]);
        out.assert_code(0);
        assert_eq!(out.tool_text(0), "bare", "{out}");
    });
}

/// An answer the bridge cannot read ends its call at once as the malformed answer it
/// is (exit 2, as the same bytes read over HTTP would), neither relayed mended nor
/// said as the tool's failure, nor left to time out; the server goes on serving. Text
/// whose bytes are not UTF-8 was read lossily and relayed as `"\u{fffd}\u{fffd}"`
/// (exit 0); JSON nested deeper than the bridge reads (128 levels) was exit 5.
#[test]
fn an_answer_the_bridge_cannot_read_fails_its_call_at_once_as_malformed() {
    with_hostile_bridge(&[], |bridge| {
        let out = bridge.mur(&["--timeout", "20000", "call", "badutf8"]);
        out.assert_code(2).assert_stdout_is("").assert_stderr_is(format!(
            "error: `{}`: the stdio server answered with a line that is not UTF-8, as JSON must \
             be (invalid utf-8 sequence of 1 bytes from index 61)\n",
            bridge.endpoint()
        ));
        let out = bridge.mur(&["--timeout", "20000", "call", "deep"]);
        out.assert_code(2).assert_stdout_is("").assert_stderr_contains(&format!(
            "error: `{}`: the stdio server answered with JSON the bridge cannot read (recursion \
             limit exceeded",
            bridge.endpoint()
        ));
        bridge.mur(&["call", "count"]).assert_code(0);
        assert!(
            bridge
                .log()
                .contains("the server answered with a line that is not UTF-8"),
            "{}",
            bridge.log()
        );
    });
}

/// A question of the server's that the bridge cannot read (its text not UTF-8) is
/// answered to the server at once with a JSON-RPC parse error of its id, and the tool
/// that asked it goes on (here it returns what it was answered). The bridge logged and
/// dropped it: the server waited for an answer that never came, and the call ran out
/// of time (exit 2).
#[test]
fn a_question_the_bridge_cannot_read_is_answered_to_the_server_with_a_parse_error() {
    with_hostile_bridge(&[], |bridge| {
        let out = bridge.mur(&["call", "askbadly"]);
        out.assert_code(0);
        let answer: Value = serde_json::from_str(&out.tool_text(0)).expect("the answer, as JSON");
        let id = answer["id"].as_str().expect("the question's id");
        // Where the byte that is not UTF-8 is in the line the server wrote.
        let at = format!(
            r#"{{"jsonrpc":"2.0","id":"{id}","method":"elicitation/create","params":{{"message":""#
        )
        .len();
        assert_eq!(
            answer,
            json!({ "jsonrpc": "2.0", "id": id, "error": {
                "code": -32700,
                "message": format!(
                    "the bridge cannot read this request: it is a line that is not UTF-8, as \
                     JSON must be (invalid utf-8 sequence of 1 bytes from index {at})"
                ),
            }})
        );
        assert!(
            bridge
                .log()
                .contains("the server asked with a line that is not UTF-8"),
            "{}",
            bridge.log()
        );
    });
}

/// `bridge --max-message BYTES` sets the largest message the bridge reads of its
/// server (64 MiB by default, what a `mur` call reads of one answer): raised, an
/// answer past the default goes through to a call that reads as much
/// (`--max-response`); past the new limit, the error names it as the bridge's.
#[test]
fn max_message_raises_the_bridges_limit_and_the_error_names_it() {
    with_hostile_bridge(&["--max-message", "65M"], |bridge| {
        // 64.5 MiB of text: past the default limit, within this bridge's.
        let kib = 66_048;
        let args = format!(r#"{{"kib":{kib}}}"#);
        let call = [
            "--max-response",
            "65M",
            "--timeout",
            "120000",
            "call",
            "big",
            "--args",
        ];
        let out = bridge.mur(&[&call[..], &[args.as_str()]].concat());
        out.assert_code(0);
        assert_eq!(out.tool_text(0).len(), kib * 1024);
        let past = format!(r#"{{"kib":{}}}"#, 65 * 1024 + 1);
        let out = bridge.mur(&[&call[..], &[past.as_str()]].concat());
        out.assert_code(5).assert_stderr_contains(
            "the stdio server wrote a message larger than 65 MiB, the bridge's message limit (a \
             bridge started with `--max-message BYTES` reads larger ones)",
        );
    });
}

/// A bridge started again appends to its project's log, below a line saying where
/// it starts: the last bridge's lines — why it ended — stay where `session list`
/// points, rather than being emptied by the next start.
#[test]
fn a_bridge_started_again_keeps_the_last_ones_log_above_its_own() {
    let sb = Sandbox::new();
    let first = hostile_bridge(&sb);
    let out = first.mur(&["call", "stderr", "--args", r#"{"n":1}"#]);
    assert_eq!(out.tool_text(0), "wrote stderr", "{out}");
    wait_until("the server's stderr in the log", || {
        first.log().contains("END-OF-FLOOD").then_some(())
    });
    let path = first.line["log"].clone();
    first.stop();
    let again = hostile_bridge(&sb);
    assert_eq!(again.line["log"], path, "one log for the project");
    let log = again.log();
    let (before, after) = log
        .split_once(
            ": a bridge for this project starts; the lines above are the last one's -----\n",
        )
        .unwrap_or_else(|| panic!("no line where the new bridge starts: {log}"));
    assert!(before.contains("END-OF-FLOOD"), "{before}");
    assert!(before.contains("bridge stopped"), "{before}");
    assert!(!after.contains("END-OF-FLOOD"), "{after}");
    assert!(after.contains("bridge for `"), "{after}");
    again.stop();
}

/// A request of 3 MiB — under the 4 MiB a session takes, and the proxy reads — reaches
/// the server (axum's own 2 MB cap refused it with a plain-text 413 before).
#[test]
fn a_request_a_session_would_take_is_taken_by_the_bridge_too() {
    with_hostile_bridge(&[], |bridge| {
        let padded = tool_call(2, "count", json!({ "pad": "x".repeat(3 << 20) }));
        let out = proxy_initialized(bridge.sb, &[padded]);
        out.assert_code(0);
        let answered = answer(&out, 2);
        assert_eq!(answered["result"]["content"][0]["text"], "1", "{answered}");
    });
}

/// A client that talks to the bridge itself is recorded by a bounded label: its name and
/// version, or its name alone with no trailing space, each cut to 200 characters (a
/// name of 1.5 MB made records longer than a usage report reads, never counted).
#[test]
fn the_bridge_records_a_clients_name_bounded_and_without_a_trailing_space() {
    let sb = Sandbox::new();
    let served = sb.root().join("served.jsonl");
    let log = served.to_str().expect("utf-8 path");
    let bridge = hostile_bridge_with(&sb, &["--usage-log", log]);
    let long = "B".repeat(1_500_000);
    for (id, client) in [
        (1, json!({ "name": "noversion" })),
        (2, json!({ "name": long, "version": "1" })),
    ] {
        post_json(
            &bridge,
            &json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                "name": "count", "arguments": {},
                "_meta": { "io.modelcontextprotocol/clientInfo": client } } }),
        );
    }
    bridge.stop();
    let cut = format!("{}… 1", "B".repeat(200));
    assert_eq!(crate::usage::clients(&served), ["noversion", cut.as_str()]);
}

/// Opens a connection to `bridge` and POSTs to it a call of the tool `name` with
/// `arguments` (id 1, as every `mur` call's, with the bridge's secret), reading nothing.
fn call_unread(bridge: &Bridge<'_>, name: &str, arguments: Value) -> std::net::TcpStream {
    use std::io::Write as _;
    let endpoint = bridge.endpoint();
    let authority = endpoint
        .trim_start_matches("http://")
        .trim_end_matches("/mcp");
    let mut socket = std::net::TcpStream::connect(authority).expect("connect to the bridge");
    let body = tool_call(1, name, arguments).to_string();
    write!(
        socket,
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nAuthorization: {}\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Content-Length: {}\r\n\r\n{body}",
        bridge.authorization(),
        body.len()
    )
    .expect("send the request");
    socket
}

/// Reads `socket` until what it read contains `needle` (or 60 s pass); returns all of it.
fn read_until(socket: &mut std::net::TcpStream, needle: &str) -> String {
    use std::io::Read as _;
    socket
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .expect("a read timeout");
    let mut read = Vec::new();
    let mut chunk = vec![0; 1 << 16];
    while !String::from_utf8_lossy(&read).contains(needle) {
        match socket.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => read.extend_from_slice(&chunk[..n]),
        }
    }
    String::from_utf8_lossy(&read).into_owned()
}

#[test]
fn a_client_that_stops_reading_loses_notifications_past_a_bound_but_gets_its_answer() {
    with_hostile_bridge(&[], |bridge| {
        // 30,000 log messages of 1 KB for a client that reads none of them: the
        // bridge holds a bounded backlog for it, drops the rest and says so.
        let mut stalled = call_unread(bridge, "flood", json!({ "n": 30000 }));
        wait_until(
            "the bridge to drop what the stalled client does not read",
            || {
                bridge
                    .log()
                    .contains("the server's notifications for it are dropped until it reads")
                    .then_some(())
            },
        );
        // Everyone else is served meanwhile.
        let out = bridge.mur(&["call", "count"]);
        assert_eq!(out.tool_text(0), "1", "{out}");
        // The stalled client reads at last: what was kept, then its answer.
        let read = read_until(&mut stalled, "flooded");
        assert!(
            read.contains(r#""text":"flooded""#),
            "no answer: …{}",
            &read[read.len().saturating_sub(500)..]
        );
        let relayed = read.matches("notifications/message").count();
        assert!(relayed > 0 && relayed < 30000, "{relayed} relayed");
        wait_until("the bridge to log how many it dropped", || {
            bridge
                .log()
                .contains("notification(s) of the server were dropped, its client not reading them")
                .then_some(())
        });
    });
}

/// POSTs `message` to `bridge` as another client of its user's would (with its secret).
fn post_json(bridge: &Bridge<'_>, message: &Value) {
    mur_e2e::mcp::client()
        .post(bridge.endpoint())
        .header("Authorization", bridge.authorization())
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .body(message.to_string())
        .send()
        .expect("an answer");
}

#[test]
fn one_client_can_neither_cancel_nor_answer_for_another() {
    with_hostile_bridge(&[], |bridge| {
        // Alice's call (id 1, as every `mur` call's) asks her a question.
        let mut alice = call_unread(bridge, "ask", json!({}));
        let read = read_until(&mut alice, "elicitation/create");
        let question: Value = read
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .find(|l| l.contains("elicitation/create"))
            .and_then(|l| serde_json::from_str(l).ok())
            .unwrap_or_else(|| panic!("no question in {read}"));
        // Mallory, another client, cancels "request 1" and answers every id she guesses.
        post_json(
            bridge,
            &json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 1 } }),
        );
        for n in 0..50 {
            let guess = json!({ "jsonrpc": "2.0", "id": format!("bridge-q{n}"),
                                "result": { "action": "accept", "content": { "who": "mallory" } } });
            post_json(bridge, &guess);
        }
        // Alice's answer is the one the server gets, and her call was never cancelled.
        let mine = json!({ "jsonrpc": "2.0", "id": question["id"],
                           "result": { "action": "accept", "content": { "who": "alice" } } });
        post_json(bridge, &mine);
        let read = read_until(&mut alice, "who");
        let tail = read.rsplit("data: ").next().unwrap_or_default();
        assert!(tail.contains(r#"\"who\": \"alice\""#), "{read}");
        let out = bridge.mur(&["call", "cancels"]);
        assert_eq!(
            out.tool_text(0),
            "[]",
            "the server was told to cancel: {out}"
        );
    });
}

#[test]
fn a_server_that_floods_its_stderr_leaves_a_bounded_log_with_its_newest_lines() {
    with_hostile_bridge(&[], |bridge| {
        // About 8 MB of stderr, then a line of 100,000 characters and a last line.
        let out = bridge.mur(&[
            "--timeout",
            "60000",
            "call",
            "stderr",
            "--args",
            r#"{"n":150000}"#,
        ]);
        assert_eq!(out.tool_text(0), "wrote stderr", "{out}");
        // The bridge reads the server's stderr on its own: the last line comes soon.
        let log = wait_until("the server's last line in the log", || {
            let log = bridge.log();
            log.contains("END-OF-FLOOD").then_some(log)
        });
        assert!(log.len() <= 4 << 20, "the log has {} bytes", log.len());
        assert!(
            log.contains("[the log passed 4 MiB: its older lines were dropped, the newest kept]"),
            "{}",
            &log[..log.len().min(300)]
        );
        // Each line of the server's as a foreground bridge shows it: `TIME  INFO server: …`.
        let said: Vec<&str> = log
            .lines()
            .filter_map(|line| line.split_once("  INFO server: ").map(|(_, said)| said))
            .collect();
        let clipped = format!("{}… (100000 bytes in all)", "x".repeat(2_000));
        assert!(
            said.ends_with(&[clipped.as_str(), "END-OF-FLOOD"]),
            "the newest lines, the long one clipped"
        );
    });
}

#[test]
fn requests_the_server_never_answers_do_not_lock_out_the_probe() {
    with_hostile_bridge(&[], |bridge| {
        // 300 calls the server never answers, more than the 256 connections the
        // endpoint takes: past 128 in flight the bridge refuses them at once.
        let mut hung: Vec<_> = (0..300)
            .map(|_| call_unread(bridge, "hang", json!({})))
            .collect();
        let refused = read_until(
            hung.last_mut().expect("a connection"),
            "the most the bridge holds",
        );
        assert!(
            refused
                .contains("the stdio server has 128 requests in flight, the most the bridge holds"),
            "{refused}"
        );
        // The session still answers its probe: `session list` finds it live.
        let list = wait_until("the probe to answer", || {
            let list = bridge.sb.mur(&["devtools", "session", "list"]);
            (list.code == 0 && list.stderr.is_empty()).then_some(list)
        });
        assert_eq!(
            list.json_lines(),
            std::slice::from_ref(&bridge.line),
            "{list}"
        );
        drop(hung);
    });
}

/// `bridge.mur(args)` started in the background, returned once the server
/// has its request: once the call's first progress line is on its stderr
/// (`args` call a tool that reports progress, without `-q`). Its stdout and
/// stderr go to files named after `name`.
fn in_flight(bridge: &Bridge<'_>, name: &str, args: &[&str]) -> InFlight {
    let stdout = bridge.sb.root().join(format!("{name}.out"));
    let stderr = bridge.sb.root().join(format!("{name}.err"));
    let mut command = bridge
        .sb
        .mur_command(&[&["devtools", "--project", bridge.project_arg()], args].concat());
    command
        .stdout(std::fs::File::create(&stdout).expect("stdout file"))
        .stderr(std::fs::File::create(&stderr).expect("stderr file"));
    let mut process = mur_e2e::Process::spawn(&mut command);
    process.wait_for_progress(&stderr);
    InFlight {
        process,
        stdout,
        stderr,
    }
}

/// A call [`in_flight`] started.
struct InFlight {
    process: mur_e2e::Process,
    stdout: PathBuf,
    stderr: PathBuf,
}

impl InFlight {
    /// Its output, once it has exited.
    fn finish(self) -> Output {
        let status = self.process.wait_status();
        let read = |path: &Path| std::fs::read_to_string(path).expect("the call's output");
        Output {
            stdout: read(&self.stdout),
            stderr: read(&self.stderr),
            code: status.code().unwrap_or(-1),
        }
    }
}

/// `first` in flight at the server (see [`in_flight`]), then `second` to its end,
/// then `first` to its end.
fn two_calls(bridge: &Bridge<'_>, first: &[&str], second: &[&str]) -> (Output, Output) {
    let a = in_flight(bridge, "first", first);
    let b = bridge.mur(second);
    (a.finish(), b)
}

/// A call that reports its first step, then waits until a `greet` has had its answer
/// (or refusal) before its last two: still in flight when another call's question is
/// asked, however slow the machine (a long call was not, under load). Its bound is the
/// server's own for the wait, past the default 10 s another call may take under load.
const A_UNTIL_GREETED: [&str; 6] = [
    "--timeout",
    "60000",
    "steps",
    "--n",
    "3",
    "--wait-for-greet",
];

/// What the bridge logs when a client refuses a question and it goes to the next request.
const PASSED_ON: &str = "its client did not answer the server's question; passing it on";

#[test]
fn a_question_goes_to_the_call_that_can_answer_it_and_the_other_call_goes_on() {
    with_python_bridge(|bridge| {
        // A call (A) that waits for a greet is the oldest in flight when B's tool
        // asks: A has no answer, refuses it and waits on; B, which has one, is
        // asked next.
        let (a, b) = two_calls(bridge, &A_UNTIL_GREETED, &["greet", "--answer", "name=Ada"]);
        a.assert_code(0);
        assert_eq!(a.json(), json!({ "result": "3 steps" }), "{a}");
        b.assert_code(0);
        assert_eq!(b.json(), json!({ "result": "hello Ada" }), "{b}");
        let log = bridge.log();
        assert_eq!(log.matches(PASSED_ON).count(), 1, "{log}");

        // Nobody has the answer: both refuse it, and the server's tool fails
        // for want of one. B's failure is its own result (on stdout); the
        // question, which may have been A's, is a hint under it. A goes on.
        let (a, b) = two_calls(bridge, &A_UNTIL_GREETED, &["greet"]);
        a.assert_code(0);
        assert_eq!(a.json(), json!({ "result": "3 steps" }), "{a}");
        b.assert_code(5)
            .assert_stderr_starts_with("error: tool `greet` failed: ");
        assert_eq!(b.json()["isError"], true, "{b}");
        assert_refused_greet(&b, bridge);
        // Passed on twice more: from A to B, and from B (no request left) to the server.
        let log = bridge.log();
        assert_eq!(log.matches(PASSED_ON).count(), 3, "{log}");
    });
}

/// B refused a question that was A's (A then answered it) and B's own tool then
/// failed: B's failure is its own (its result on stdout, its message), the
/// question a hint only.
#[test]
fn a_call_that_refused_anothers_question_fails_with_its_own_result() {
    with_python_bridge(|bridge| {
        // B is the oldest in flight: A's question is offered to B first.
        let (b, a) = two_calls(
            bridge,
            &["fails_after_greet"],
            &["greet", "--answer", "name=Ada"],
        );
        a.assert_code(0);
        assert_eq!(a.json(), json!({ "result": "hello Ada" }), "{a}");
        let log = bridge.log();
        assert_eq!(log.matches(PASSED_ON).count(), 1, "{log}");
        b.assert_code(5);
        assert_eq!(b.json()["isError"], true, "{b}");
        assert!(b.stdout.contains("failed for a reason of its own"), "{b}");
        let error = b
            .stderr
            .lines()
            .find(|line| line.starts_with("error: "))
            .unwrap_or_default();
        assert!(
            error.starts_with("error: tool `fails_after_greet` failed: ")
                && error.contains("failed for a reason of its own"),
            "{b}"
        );
        assert_refused_greet(&b, bridge);
    });
}

/// A question goes to the oldest call in flight, and a call with `--answer` answers
/// it, though over stdio nothing says which call asked: the call that did goes on,
/// exit 0, with what another caller typed (the relay README describes). Both calls
/// say so in a note, and the bridge's log records it; neither said anything.
#[test]
fn a_call_that_got_anothers_answer_and_the_call_that_gave_it_say_so() {
    with_python_bridge(|bridge| {
        // A (with an answer, waiting for a greet) is the oldest in flight when B's
        // tool asks: A is asked first, and answers with its own `--answer`.
        let a_answering = [&A_UNTIL_GREETED[..], &["--answer", "name=Ann"]].concat();
        let (a, b) = two_calls(bridge, &a_answering, &["greet"]);
        a.assert_code(0);
        assert_eq!(a.json(), json!({ "result": "3 steps" }), "{a}");
        a.assert_stderr_contains(
            "\nnote: this call answered a question of the server that another call in flight on its \
             bridge may have asked (stdio does not say which call asks); if so, that call went on \
             with this call's answers\n",
        );
        b.assert_code(0).assert_stderr_is(
            "note: another call on this bridge answered a question of the server asked while this \
             call was in flight (stdio does not say which call asks); if this call asked, its result \
             carries that call's answers\n",
        );
        assert_eq!(b.json(), json!({ "result": "hello Ann" }), "{b}");
        let log = bridge.log();
        assert!(
            log.contains("its client answered a question the server asked while request(s) "),
            "{log}"
        );
        // Alone, a call answering its own question is told nothing.
        let out = bridge.mur(&["greet", "--answer", "name=Ann"]);
        out.assert_code(0).assert_stderr_is("");
    });
}

#[test]
fn bridge_stop_answers_the_calls_in_flight_with_an_error_saying_so() {
    let sb = Sandbox::new();
    let Some(bridge) = python_bridge(&sb) else {
        return;
    };
    // In flight until the bridge stops: it waits for a greet that never comes.
    let slow = in_flight(&bridge, "slow", &A_UNTIL_GREETED);
    let project = bridge.project_arg().to_owned();
    bridge
        .sb
        .mur(&["devtools", "bridge", "stop", "--project", &project])
        .assert_code(0);
    let out = slow.finish();
    out.assert_code(5)
        .assert_stderr_contains("the bridge was stopped before the stdio server answered");
    assert!(bridge.lockfile().is_none());
}

/// `out` ends with the hint that its call refused `greet`'s question, as one that may
/// have been another call's.
fn assert_refused_greet(out: &Output, bridge: &Bridge<'_>) {
    assert!(
        out.stderr.ends_with(&format!(
            "\nhint: `{}` asked \"Who is there?\" during this call, and mur, with no answer, \
             refused it as a question that may be another call's (if it was this call's: \
             answer it with `--answer name=TEXT`)\n",
            bridge.endpoint()
        )),
        "{out}"
    );
}

/// A stdio server (Python, standard library only) that outlives its input, as a
/// server with a timer does (node's event loop): it keeps running after its stdin
/// ends. `argv[1]` says what it does on SIGTERM: `cleanup` (says so on stderr,
/// then exits) or `ignore`; with `argv[2]` `mute` it never answers `initialize`
/// (a server still being fetched, say). It writes its process group to stderr
/// first; its one tool, `crash`, exits 3.
const LINGERING_SERVER: &str = r#"
import os, signal, sys, time
def term(*_):
    sys.stderr.write("lingering: SIGTERM, cleaning up\n"); sys.stderr.flush(); os._exit(0)
signal.signal(signal.SIGTERM, signal.SIG_IGN if sys.argv[1] == "ignore" else term)
sys.stderr.write("lingering: group %d\n" % os.getpgid(0)); sys.stderr.flush()
from line_server import answer, serve
def call(mid, params):
    if params["name"] == "crash":
        os._exit(3)
    answer(mid, {})
serve("lingering", call, initialize=sys.argv[2:] != ["mute"])
while True:
    time.sleep(1)
"#;

/// [`LINGERING_SERVER`] with these arguments, run as it is.
fn lingering(sb: &Sandbox, args: &[&str]) -> Vec<OsString> {
    let script = crate::servers::line_server(sb, "lingering_server.py", LINGERING_SERVER);
    let mut command: Vec<OsString> = vec!["python3".into(), "-u".into(), script.into()];
    command.extend(args.iter().map(OsString::from));
    command
}

/// [`LINGERING_SERVER`] behind a wrapper that is no `exec`: `sh` runs it as a
/// child and waits for it, as `npx` (`npm exec` → `sh -c` → `node`) does.
fn wrapped_lingering(sb: &Sandbox, args: &[&str]) -> Vec<OsString> {
    let script = crate::servers::line_server(sb, "lingering_server.py", LINGERING_SERVER);
    let mut command: Vec<OsString> = ["sh", "-c", "python3 -u \"$0\" \"$@\"; true"]
        .map(OsString::from)
        .to_vec();
    command.push(script.into());
    command.extend(args.iter().map(OsString::from));
    command
}

/// The process group a [`LINGERING_SERVER`] wrote to `log` (waiting for the line);
/// killed on drop, so a failing test leaves nothing running.
struct Group(u32);

impl Group {
    fn of(log: &Path) -> Self {
        Self(wait_until("the server to say its process group", || {
            let text = std::fs::read_to_string(log).unwrap_or_default();
            // `TIME  INFO server: lingering: group N`, as every line of its stderr.
            let line = text
                .lines()
                .find_map(|l| l.split_once(" INFO server: lingering: group "))?
                .1;
            line.trim().parse().ok()
        }))
    }

    /// Asserts that none of its processes is left running, naming any that is.
    #[track_caller]
    fn assert_none_left(&self) {
        assert_eq!(self.members(), Vec::<String>::new(), "left running");
    }

    /// Its live processes' command lines (one that has exited and waits to be
    /// reaped holds nothing).
    fn members(&self) -> Vec<String> {
        let entries = std::fs::read_dir("/proc").expect("/proc");
        entries
            .filter_map(|entry| {
                let pid: u32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                // `pid (comm) state ppid pgrp …`: comm may hold spaces and parens.
                let fields: Vec<&str> = stat[stat.rfind(')')? + 2..].split(' ').collect();
                (fields.first() != Some(&"Z") && fields.get(2)?.parse() == Ok(self.0)).then(|| {
                    let line = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                    format!(
                        "{pid}: {}",
                        String::from_utf8_lossy(&line).replace('\0', " ")
                    )
                })
            })
            .collect()
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0)])
            .stderr(std::process::Stdio::null())
            .status();
    }
}

#[test]
fn bridge_stop_and_the_idle_stop_leave_nothing_of_a_wrapped_server_running() {
    let sb = Sandbox::new();
    // `bridge stop`: the server ignores the end of its input, so it is sent
    // SIGTERM, to its whole group — the wrapper and the server under it.
    let bridge = Bridge::start(&sb, "stop", &[], &wrapped_lingering(&sb, &["cleanup"]));
    let log = PathBuf::from(bridge.line["log"].as_str().expect("log"));
    let group = Group::of(&log);
    // The wrapper and its server (and whatever is between: a pyenv shim).
    assert!(group.members().len() >= 2, "{:?}", group.members());
    bridge.stop();
    group.assert_none_left();
    let log = std::fs::read_to_string(&log).expect("log");
    assert!(log.contains("lingering: SIGTERM, cleaning up"), "{log}");

    // The idle stop, of a server that ignores SIGTERM too: SIGKILL ends it.
    let bridge = Bridge::start(
        &sb,
        "idle",
        &["--idle", "1s"],
        &wrapped_lingering(&sb, &["ignore"]),
    );
    let group = Group::of(Path::new(bridge.line["log"].as_str().expect("log")));
    // Its lockfile goes first (while it still holds its port), its process
    // once its server is gone.
    let pid = bridge.line["pid"].as_u64().expect("pid") as u32;
    wait_until("the idle bridge to end", || {
        let gone = mur_lockfile::liveness::fate(pid, None) == mur_lockfile::liveness::Fate::Gone;
        gone.then_some(())
    });
    assert!(bridge.lockfile().is_none());
    group.assert_none_left();
}

/// `mur devtools bridge --project <sandbox>/<name>/App.csproj -- [LINGERING_SERVER]
/// cleanup mute`, started, and returned once its server runs (and will never
/// answer `initialize`): the command, the project, the server's group and the log.
fn starting_bridge(sb: &Sandbox, name: &str) -> (mur_e2e::Process, PathBuf, Group, PathBuf) {
    let project = sb.project(name);
    let mut command = sb.mur_command(&["devtools", "bridge", "--project"]);
    command
        .arg(&project)
        .arg("--")
        .args(wrapped_lingering(sb, &["cleanup", "mute"]))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let starting = mur_e2e::Process::spawn(&mut command);
    let log = sb.lockfile_path(&project).with_extension("bridge.log");
    let group = Group::of(&log);
    (starting, project, group, log)
}

/// Ctrl+C while a start waits for its bridge stops the bridge and its server, says so in
/// one line as every call a signal stops does (it said nothing), and ends the command as
/// the signal would have.
#[test]
fn ctrl_c_while_a_bridge_starts_stops_it_and_its_server() {
    let sb = Sandbox::new();
    let project = sb.project("interrupted");
    let stderr = sb.root().join("start.stderr");
    let mut command = sb.mur_command(&["devtools", "bridge", "--project"]);
    command
        .arg(&project)
        .arg("--")
        .args(wrapped_lingering(&sb, &["cleanup", "mute"]))
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&stderr).expect("a file for stderr"));
    let starting = mur_e2e::Process::spawn(&mut command);
    let log = sb.lockfile_path(&project).with_extension("bridge.log");
    let group = Group::of(&log);
    starting.signal("INT");
    let status = starting.wait_status();
    // Ended as an interrupted command is…
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(2),
        "{status:?}"
    );
    let said = std::fs::read_to_string(&stderr).expect("its stderr");
    assert_eq!(
        after_waiting(&said, &log),
        "error: interrupted by SIGINT while the bridge started: it was stopped, and its \
         server with it\n"
    );
    // …with nothing left: no bridge holds the project or will come up later,
    // and its server is gone.
    assert!(sb.read_lockfile(&project).is_none());
    assert!(
        !mur_lockfile::is_held(&sb.lockfile_path(&project)),
        "a bridge still holds the project"
    );
    group.assert_none_left();
}

/// stderr of a start that failed, without the lines said first past 2 s of waiting (on a
/// loaded machine): what it waits for, and the note on what the server wrote.
fn after_waiting<'a>(stderr: &'a str, log: &Path) -> &'a str {
    let waiting = format!(
        "waiting for the server to answer `initialize` (at most 60 s); its log is `{}`\n",
        log.display()
    );
    let Some(after) = stderr.strip_prefix(&waiting) else {
        return stderr;
    };
    match after.strip_prefix(&format!("note: {NOT_JSON_RPC_NOTE}")) {
        Some(note) => note.split_once('\n').map_or(note, |(_, rest)| rest),
        None => after,
    }
}

/// How the note on what a server still starting wrote to its stdout begins.
const NOT_JSON_RPC_NOTE: &str = "the server has not answered `initialize` yet and wrote to its \
                                 stdout what is not JSON-RPC, where an MCP stdio server writes \
                                 only its JSON-RPC messages (is the command one?); the first such \
                                 line: ";

/// `mur ARGS…`, a `bridge stop`, stops the bridge `starting` of `project`, still
/// starting: it exits 0 saying so, and the bridge exits 2 leaving nothing of its
/// server (`group`) running. The bridge's output.
fn stop_while_starting(
    sb: &Sandbox,
    args: &[&str],
    starting: mur_e2e::Process,
    project: &Path,
    group: &Group,
) -> Output {
    let said = format!(
        "stopped the bridge of `{}` (pid ",
        sb.canonical_project(project)
    );
    sb.mur(args).assert_code(0).assert_stderr_starts_with(&said);
    let out = starting.wait_output();
    out.assert_code(2);
    group.assert_none_left();
    out
}

/// A bridge that is itself stopped (SIGSTOP, Ctrl+Z) is stopped by `bridge stop` all
/// the same: resumed to take its SIGTERM. `bridge stop` waited out 10 s, exited 2 with
/// no hint, and left the stop pending until someone resumed the bridge.
#[test]
fn bridge_stop_stops_a_bridge_that_is_itself_stopped() {
    let sb = Sandbox::new();
    let bridge = hostile_bridge(&sb);
    let pid = bridge.line["pid"].as_u64().expect("pid") as u32;
    mur_e2e::signal(pid, "STOP");
    bridge.stop();
}

#[test]
fn bridge_stop_stops_a_bridge_still_starting() {
    let sb = Sandbox::new();
    let (starting, project, group, log) = starting_bridge(&sb, "stopped");
    let project_arg = project.to_str().expect("utf-8");
    let stop = ["devtools", "--project", project_arg, "bridge", "stop"];
    let out = stop_while_starting(&sb, &stop, starting, &project, &group);
    assert_eq!(
        after_waiting(&out.stderr, &log),
        format!(
            "error: the bridge was stopped before the server answered `initialize`\n\
             hint: its log is `{}`\n",
            log.display()
        ),
        "{out}"
    );
    assert!(sb.read_lockfile(&project).is_none());
    let log = std::fs::read_to_string(&log).expect("log");
    assert!(log.contains("lingering: SIGTERM, cleaning up"), "{log}");

    // Without `--project`: the one bridge there is, though still starting.
    let (starting, project, group, _log) = starting_bridge(&sb, "only");
    let stop = ["devtools", "bridge", "stop"];
    stop_while_starting(&sb, &stop, starting, &project, &group);
}

/// A second `bridge` for a project whose bridge is still starting is refused (exit 3)
/// and writes nothing into that bridge's log: it opened the log before its bridge
/// claimed the slot, and its refusal ("another session for this project is starting")
/// landed among the starting bridge's lines, as if that bridge had failed. While it
/// waits for the slot (5 s) it says so, after 2 s: it said nothing until refused. So
/// does a bridge started in the foreground, which said nothing (its own lines are
/// held for its log until it holds the slot).
#[test]
fn a_bridge_refused_while_another_starts_writes_nothing_in_its_log() {
    let sb = Sandbox::new();
    let (starting, project, group, log) = starting_bridge(&sb, "starting");
    let before = std::fs::read_to_string(&log).expect("log");
    let out = start(&sb, &project, &[], &lingering(&sb, &["cleanup"]));
    assert_eq!(
        std::fs::read_to_string(&log).expect("log"),
        before,
        "the starting bridge's log was written to"
    );
    // Its words end without the session library's "; stop it first.", and its hint
    // names the command that stops a bridge still starting.
    let project_arg = project.to_str().expect("utf-8");
    let refused = format!(
        "another session for this project is starting; waiting up to 5 s for it to announce \
         itself\nerror: another session for this project is starting (it holds `{}`) and has not \
         announced itself\nhint: stop it first with `mur devtools bridge stop --project {}`, \
         or try again once it has announced itself\n",
        sb.lockfile_path(&project).with_extension("lock").display(),
        mur_core::shell_word(project_arg)
    );
    out.assert_code(3).assert_stderr_is(&refused);
    // In the foreground: the same words, once, and nothing in the starting bridge's log.
    let mut foreground = sb.mur_command(&["devtools", "bridge", "--foreground", "--project"]);
    foreground
        .arg(&project)
        .arg("--")
        .args(lingering(&sb, &["cleanup"]));
    let out = mur_e2e::run(&mut foreground);
    out.assert_code(3).assert_stderr_is(&refused);
    assert_eq!(
        std::fs::read_to_string(&log).expect("log"),
        before,
        "the starting bridge's log was written to"
    );
    let stop = ["devtools", "--project", project_arg, "bridge", "stop"];
    stop_while_starting(&sb, &stop, starting, &project, &group);
}

/// An idle time past any a bridge waits (what someone writes for "never") is taken
/// as a year, not refused by the bridge it starts in a unit they never wrote.
#[test]
fn a_huge_idle_time_is_taken_as_a_year() {
    let sb = Sandbox::new();
    let server = lingering(&sb, &["cleanup"]);
    let bridge = Bridge::start(&sb, "never-idle", &["--idle", "999999999h"], &server);
    assert!(bridge.lockfile().is_some());
    bridge.stop();
}

/// An idle time reaches the bridge started in the background as written, and is shown
/// back so in the command that starts it again (`1d` was said `24h`). One shorter than
/// a bridge takes (1s) is refused at once, in the words typed: `1ns` was taken, then
/// refused by the background bridge as `0h`, a value never typed (exit 1, pointing at
/// the log), and one of a few milliseconds started a bridge that stopped before it was
/// seen to announce itself (exit 7, "the bridge exited (code 0)").
#[test]
fn an_idle_time_is_taken_and_shown_back_as_written() {
    let sb = Sandbox::new();
    let project = sb.project("hostile");
    let out = start(&sb, &project, &["--idle", "1ns"], &["true".into()]);
    out.assert_code(1).assert_stdout_is("").assert_stderr_is(
        "error: invalid value `1ns` for `--idle <DURATION>`: the idle time must be at least 1s, \
         or the bridge stops before its first request reaches it (`never` keeps the bridge \
         until `bridge stop`)\n",
    );
    let said = hostile_bridge_with(&sb, &["--idle", "1d"]).stop_then_said(&["call", "count"]);
    let script = sb.root().join("hostile_server.py");
    assert!(
        said.ends_with(&format!(
            " --idle 1d -- python3 -u {}`",
            mur_core::shell_word(&script.to_string_lossy())
        )),
        "{said}"
    );
}

/// A server that exits before `initialize` is quoted under the error, escaped, so the
/// user sees why without opening the log, which holds its stderr; no lockfile is left.
/// Rows: the project, the server (`sh -c SCRIPT`), what the start says before the log.
/// - A mistyped npm package: npm says why on stderr and exits 1; quoted from the end of
///   its stderr.
/// - A command that is no MCP stdio server (an HTTP server bridged by mistake) writes to
///   its stdout what is not JSON-RPC: quoted first, as the cause, where only the stderr
///   was (here a warning that says nothing of it) and the log alone had the stdout.
///   Blank lines are skipped, as on stderr; JSON that is no JSON-RPC message (a JSON
///   logger's line) is quoted too, where the log alone had it.
#[test]
fn a_server_that_exits_before_initialize_is_quoted_from_what_it_wrote() {
    let sb = Sandbox::new();
    for (name, script, said) in [
        (
            "typo",
            "echo 'npm error code E404' >&2; echo >&2; \
             echo 'npm error 404 Not Found - GET https://registry.npmjs.org/nope' >&2; \
             printf 'npm error \\033[31mgone\\033[0m\\n' >&2; exit 1",
            "error: the server exited (exit status: 1) before it answered `initialize`\n\
             hint: stderr: npm error code E404\n\
             hint: stderr: npm error 404 Not Found - GET https://registry.npmjs.org/nope\n\
             hint: stderr: npm error \\x1b[31mgone\\x1b[0m\n",
        ),
        (
            "http",
            "echo 'Listening on http://127.0.0.1:3000'; echo; echo hello; \
             echo '{\"level\":40,\"msg\":\"no routes\"}'; \
             echo 'warning: no config file' >&2; exit 3",
            "error: the server exited (exit status: 3) before it answered `initialize`\n\
             hint: it wrote to its stdout what is not JSON-RPC, where an MCP stdio server \
             writes only its JSON-RPC messages: is the command one?\n\
             hint: stdout: Listening on http://127.0.0.1:3000\n\
             hint: stdout: hello\n\
             hint: stdout: {\"level\":40,\"msg\":\"no routes\"}\n\
             hint: stderr: warning: no config file\n",
        ),
    ] {
        let project = sb.project(name);
        let server = ["sh".into(), "-c".into(), script.into()];
        let out = start(&sb, &project, &[], &server);
        out.assert_code(2);
        assert!(sb.read_lockfile(&project).is_none(), "{out}");
        let log = sb.lockfile_path(&project).with_extension("bridge.log");
        assert_eq!(
            after_waiting(&out.stderr, &log),
            format!("{said}hint: its stderr is in `{}`\n", log.display()),
            "{out}"
        );
    }
}

/// A server whose answer to `initialize` is no initialize result (`"result":"nope"`) is
/// a start that fails: exit 2, naming what it answered, what it wrote that is not
/// JSON-RPC and its log. The bridge announced it, and relayed the string as its own
/// `initialize` result, every call then failing as if its endpoint were malformed.
#[test]
fn a_server_whose_initialize_answer_is_no_result_fails_the_start() {
    let sb = Sandbox::new();
    let script = sb.file(
        "badinit.py",
        r#"
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("method") == "initialize":
        sys.stderr.write("badinit: answering\n"); sys.stderr.flush()
        print("this is not json at all", flush=True)
        print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": "nope"}), flush=True)
"#,
    );
    let project = sb.project("badinit");
    let out = start(&sb, &project, &[], &["python3".into(), script.into()]);
    out.assert_code(2);
    assert!(sb.read_lockfile(&project).is_none(), "{out}");
    let log = sb.lockfile_path(&project).with_extension("bridge.log");
    assert_eq!(
        after_waiting(&out.stderr, &log),
        format!(
            "error: the server answered `initialize` with a `result` that is the string \
             \"nope\", not an object\n\
             hint: it wrote to its stdout what is not JSON-RPC, where an MCP stdio server \
             writes only its JSON-RPC messages: is the command one?\n\
             hint: stdout: this is not json at all\n\
             hint: stderr: badinit: answering\n\
             hint: its stderr is in `{}`\n",
            log.display()
        ),
        "{out}"
    );
}

/// A server that writes to its stdout what is not JSON-RPC (a JSON logger's line, then
/// an HTTP server's banner) and has not answered `initialize` after 2 s is said to,
/// once, while the start waits on: the first such line quoted, on the command's
/// stderr and in the log. Such a server was told from one merely slow only by the 60 s
/// bound, and a JSON line that is no JSON-RPC was in the log alone.
#[test]
fn a_start_still_waiting_names_what_the_server_wrote_that_is_not_json_rpc() {
    let sb = Sandbox::new();
    let project = sb.project("banner");
    let project_arg = project.to_str().expect("utf-8");
    let server = [
        "sh",
        "-c",
        "echo '{\"level\":30,\"msg\":\"listening on 3000\"}'; \
         echo 'Listening on http://127.0.0.1:3000'; sleep 600",
    ];
    let starting = Starting::once_said(&sb, &project, &server.map(OsString::from), "\nnote: ");
    let stop = ["devtools", "--project", project_arg, "bridge", "stop"];
    sb.mur(&stop).assert_code(0);
    let (out, said) = starting.finish();
    out.assert_code(2);
    let log = sb.lockfile_path(&project).with_extension("bridge.log");
    let note = format!("{NOT_JSON_RPC_NOTE}{{\"level\":30,\"msg\":\"listening on 3000\"}}");
    assert_eq!(
        said,
        format!(
            "waiting for the server to answer `initialize` (at most 60 s); its log is `{log}`\n\
             note: {note}\n\
             error: the bridge was stopped before the server answered `initialize`\n\
             hint: its log is `{log}`\n",
            log = log.display()
        )
    );
    let logged = std::fs::read_to_string(&log).expect("the log");
    assert_eq!(logged.matches(&note).count(), 1, "{logged}");
}

/// `bridge` and `bridge stop` read `--project`, `-v` and `-q` of the host options, and
/// their help lists those alone; another one, typed before the command or after it, is
/// refused as an option they do not have is (exit 1, with the usage), before anything
/// starts. `bridge --timeout 5` was taken and bounded nothing, and the help listed all
/// 13 host options.
#[test]
fn bridge_refuses_the_host_options_it_does_not_read() {
    let sb = Sandbox::new();
    let project = sb.project("refused");
    let project_arg = project.to_str().expect("utf-8");
    let refused = "error: `--timeout` does nothing for `bridge`, which reads only `--project`, \
                   `-v` and `-q` of the host options\n\
                   hint: usage: mur devtools bridge [OPTIONS] -- <SERVER>... (`--help` shows more)\n";
    let start = ["bridge", "--project", project_arg];
    for args in [
        [&["devtools"][..], &start, &["--timeout", "5", "--", "true"]].concat(),
        [&["--timeout", "5", "devtools"][..], &start, &["--", "true"]].concat(),
    ] {
        let out = sb.mur(&args);
        out.assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(refused);
    }
    assert!(sb.read_lockfile(&project).is_none());
    let out = sb.mur(&["devtools", "bridge", "stop", "--pretty", "-q"]);
    out.assert_code(1).assert_stdout_is("").assert_stderr_is(
        "error: `--pretty` does nothing for `bridge stop`, which reads only `--project`, `-v` \
         and `-q` of the host options\n\
         hint: usage: mur devtools bridge stop [OPTIONS] (`--help` shows more)\n",
    );
}

/// In the foreground the server's stderr is shown among the bridge's messages,
/// for someone watching a server start; in the background it is in the log once.
#[test]
fn in_the_foreground_the_servers_stderr_is_on_the_terminal_too() {
    let sb = Sandbox::new();
    let server = lingering(&sb, &["cleanup"]);
    let project = sb.project("fg-stderr");
    let mut command = sb.mur_command(&["devtools", "bridge", "--foreground", "--project"]);
    command.arg(&project).arg("--").args(&server);
    let session = sb.start(command, &project);
    wait_until("the server's stderr among the bridge's messages", || {
        session
            .log()
            .contains("INFO server: lingering: group ")
            .then_some(())
    });
    session.signal("TERM");
    assert!(session.wait_status().success());

    let bridge = Bridge::start(&sb, "bg-stderr", &[], &server);
    Group::of(Path::new(bridge.line["log"].as_str().expect("log")));
    let log = bridge.log();
    assert_eq!(log.matches("lingering: group ").count(), 1, "{log}");
    bridge.stop();
}

/// A background bridge's log holds its server's stderr as `--foreground` shows it: each
/// line `TIME  INFO server: …`, its control characters escaped. It held the lines as the
/// server wrote them, ESC bytes for the terminal of whoever `tail`s the log (as `session
/// list` says to), and a line `error: forged` that read as the bridge's own.
#[test]
fn a_background_bridges_log_holds_the_servers_stderr_as_the_foreground_shows_it() {
    let sb = Sandbox::new();
    let script = sb.file("hostile_server.py", HOSTILE_SERVER);
    let server: Vec<OsString> = vec![
        "sh".into(),
        "-c".into(),
        r#"printf '\033[31mRED\nerror: forged\n' >&2; exec python3 -u "$0""#.into(),
        script.into(),
    ];
    let bridge = Bridge::start(&sb, "escaped", &[], &server);
    let log = wait_until("the server's stderr in the log", || {
        let log = bridge.log();
        let written = log.lines().any(|line| line.ends_with("error: forged"));
        written.then_some(log)
    });
    assert!(!log.contains('\x1b'), "{log}");
    let said: Vec<&str> = log
        .lines()
        .filter(|line| line.ends_with("RED") || line.ends_with("error: forged"))
        .map(|line| {
            let (time, said) = line
                .split_once("  INFO ")
                .unwrap_or_else(|| panic!("{log}"));
            assert!(time.ends_with('Z') && !time.contains(' '), "{log}");
            said
        })
        .collect();
    assert_eq!(
        said,
        ["server: \\x1b[31mRED", "server: error: forged"],
        "{log}"
    );
    bridge.stop();
}

/// A bridge that is stopping never leaves its lockfile or sidecar naming a port
/// it has let go: another local user could bind it, answer the probe as the
/// bridge, and get mur's secret and call and answer them. The server here ignores
/// the end of its input and SIGTERM, so the bridge takes its longest to stop it
/// (SIGKILL at last); all the while, whenever the port can be bound, nothing
/// names it — and `bridge stop` says it stopped the bridge only once its server
/// is gone.
#[test]
fn a_stopping_bridge_never_names_a_port_it_has_let_go() {
    let sb = Sandbox::new();
    let bridge = Bridge::start(&sb, "stopping", &[], &wrapped_lingering(&sb, &["ignore"]));
    let group = Group::of(Path::new(bridge.line["log"].as_str().expect("log")));
    let endpoint = bridge.endpoint();
    let port: u16 = endpoint
        .strip_prefix("http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("not a loopback endpoint: {endpoint}"));
    let lockfile = sb.lockfile_path(&bridge.project);
    let sidecar = lockfile.with_extension("bridge");
    assert!(sidecar.exists());
    let mut command = sb.mur_command(&["devtools", "bridge", "stop", "--project"]);
    command
        .arg(&bridge.project)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut stop = mur_e2e::Process::spawn(&mut command);
    wait_until("`bridge stop` to end", || {
        // Read while the test holds the port: a lockfile that names it then
        // names a port the bridge has let go.
        if let Ok(_taken) = std::net::TcpListener::bind(("127.0.0.1", port)) {
            if let Some(lock) = bridge.lockfile() {
                assert_ne!(lock.endpoint, endpoint, "the lockfile names a port let go");
            }
            assert!(
                !sidecar.exists(),
                "the sidecar (and its secret) outlived the port"
            );
        }
        stop.try_wait()
    });
    let out = stop.wait_output();
    out.assert_code(0).assert_stderr_is(format!(
        "stopped the bridge of `{}` (pid {})\n",
        sb.canonical_project(&bridge.project),
        bridge.line["pid"]
    ));
    // When it says so, the server is gone.
    group.assert_none_left();
    assert!(bridge.lockfile().is_none() && !sidecar.exists());
}

/// An app's own session (mur-server) stopping with a call in flight, which it
/// gives up to 3 s to be answered after it stops accepting: its lockfile is
/// gone before its port is let go, as a bridge's is.
#[test]
fn an_app_session_stopping_with_a_call_in_flight_never_names_a_port_it_has_let_go() {
    let (sb, sample) = Sandbox::with_app();
    let port = sample.lock.port;
    let project = sample.project.to_str().expect("utf-8 project").to_owned();
    let mut command = sb.mur_command(&[
        "devtools",
        "--project",
        &project,
        "call",
        "waitFor",
        "--args",
        r##"{"selector": "#never-there", "timeoutMs": 60000}"##,
    ]);
    command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let waiting = mur_e2e::Process::spawn(&mut command);
    // A round trip after it: the app has read the waitFor call by now.
    sb.mur(&["devtools", "--project", &project, "call", "version"])
        .assert_code(0);
    sample.signal("TERM");
    let lockfile = sample.lockfile.clone();
    let read = || match sb.registry().read(&lockfile) {
        ReadOutcome::Valid(lock) => Some(lock),
        _ => None,
    };
    let pid = sample.pid();
    wait_until("the app to end", || {
        if let Ok(_taken) = std::net::TcpListener::bind(("127.0.0.1", port))
            && let Some(lock) = read()
        {
            assert_ne!(lock.port, port, "the lockfile names a port let go");
        }
        let ended = mur_lockfile::liveness::fate(pid, None) == mur_lockfile::liveness::Fate::Gone;
        ended.then_some(())
    });
    let status = sample.wait_status();
    assert_eq!(status.code(), Some(0), "SIGTERM is a clean stop");
    assert!(read().is_none());
    drop(waiting);
}

/// The command of mur-sample `--stdio` for `project`: a bridge's server, as in the
/// README, whose lockfile names that project.
fn sample_stdio(sb: &Sandbox, project: &Path) -> Vec<OsString> {
    vec![
        sb.artifacts().sample.clone().into(),
        "--stdio".into(),
        "--project".into(),
        project.into(),
    ]
}

/// `reload` of a bridged stdio server (mur-sample `--stdio`, as in the README) is no
/// crash: the server exits with status 75 once it has answered, and the bridge starts
/// it again at once without counting it against its 5 restarts a minute. Six reloads
/// in a row (one past that budget): each answered, the next call at once answered by a
/// new process (the old one answered it for a quarter of a second), and the bridge
/// serves on (it gave up at the sixth, and every call was exit 4 since).
#[test]
fn reloads_of_a_bridged_server_are_no_crashes_and_never_stop_the_bridge() {
    let sb = Sandbox::new();
    let server = sample_stdio(&sb, &sb.project("server"));
    let bridge = Bridge::start(&sb, "app", &[], &server);
    let first = bridge.mur(&["version"]);
    let mut pids = vec![first.json()["pid"].as_u64().expect("a pid")];
    for reload in 1..=6 {
        let out = bridge.mur(&["reload"]);
        out.assert_quiet_success();
        assert_eq!(out.json()["reloading"], true, "reload {reload}: {out}");
        // At once: the call after the reload's answer reaches the process started
        // next, not the one answering (it exits a moment later).
        let out = bridge.mur(&["version"]);
        out.assert_quiet_success();
        pids.push(out.json()["pid"].as_u64().expect("a pid"));
    }
    pids.dedup();
    assert_eq!(pids.len(), 7, "a new process after each reload: {pids:?}");
    let log = bridge.log();
    assert!(!log.contains("restarting it"), "{log}");
    bridge.stop();
}

/// `bridge stop --project` of the project of a bridge's stdio server (mur-sample
/// `--stdio`, whose lockfile names its own project) signals nothing and names the
/// bridge that runs it, the one to stop, with the command that stops it. Before, it
/// said to stop the app's session "in the app (Ctrl+C where it runs)", though no
/// terminal runs it: the bridge started it, and restarts it when it ends.
#[test]
fn bridge_stop_for_a_bridged_stdio_servers_project_names_its_bridge() {
    let sb = Sandbox::new();
    let server_project = sb.project("server");
    let server = sample_stdio(&sb, &server_project);
    let bridge = Bridge::start(&sb, "app", &[], &server);
    let server_lock = wait_until("the stdio server's lockfile", || {
        match sb.registry().read(&sb.lockfile_path(&server_project)) {
            ReadOutcome::Valid(lock) => Some(lock),
            _ => None,
        }
    });
    let server_arg = server_project.to_str().expect("utf-8 project");
    let bridge_project = sb.canonical_project(&bridge.project);
    sb.mur(&["devtools", "bridge", "stop", "--project", server_arg])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: the session of `{}` (pid {}) is the stdio server of the bridge of `{}` \
             (pid {}); `bridge stop` stops only bridges\n\
             hint: stop that bridge, and its server with it: \
             `mur devtools bridge stop --project {}`\n",
            sb.canonical_project(&server_project),
            server_lock.pid,
            bridge_project,
            bridge.line["pid"],
            mur_core::shell_word(&bridge_project)
        ));
    // Nothing was signalled: the bridge's server still answers.
    bridge.mur(&["version"]).assert_quiet_success();
    bridge.stop();
}

/// A call out of time during which the bridge told it of a line the server wrote
/// that it could match to no request quotes what the bridge said, without `-v`:
/// the answer may have gone astray, which no longer `--timeout` mends. Before, the
/// error said the server had sent progress or log messages and only hinted at a
/// slow tool (the bridge's warning counted as the server's word, and `-v` alone
/// showed it).
#[test]
fn a_call_out_of_time_quotes_what_the_bridge_could_not_match() {
    with_hostile_bridge(&[], |bridge| {
        let out = bridge.mur(&["--timeout", "3000", "call", "wrongid"]);
        out.assert_code(2).assert_stderr_is(format!(
            "error: `{}` did not answer within 3000 ms\n\
             hint: the request was sent, so tool `wrongid` may have run: check the app's state \
             before running it again (the session is not known to mark it read-only or \
             idempotent)\n\
             hint: the bridge said: the stdio server wrote an answer to id 987654, an id the \
             bridge never sent, which the bridge cannot match to a request (the bridge's log has \
             it); if it was this request's answer, no other will come\n\
             hint: a slow tool may need a longer `--timeout MS` before `call`\n",
            bridge.endpoint()
        ));
    });
}

/// A stdio server (Python, standard library only) that starts a process outside its
/// process group, as a daemon does: `setsid sh -c …` appends its pid to the file
/// `argv[1]` and becomes `sleep 300`. Its tool `exit` exits 3; any other answers.
const LEAVING_SERVER: &str = r#"
import os, subprocess, sys
subprocess.Popen(["setsid", "sh", "-c", 'echo $$ >> "$0"; exec sleep 300', sys.argv[1]],
                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
from line_server import serve, text
serve("leaving", lambda mid, params: os._exit(3) if params["name"] == "exit" else text(mid, "here"))
"#;

/// A bridge of the project `name` whose server is the line server `server` (saved as
/// `<name>_server.py`), given the file `<sandbox>/{pids}` to write pids to, and that file.
fn start_writing_pids<'a>(
    sb: &'a Sandbox,
    name: &str,
    server: &str,
    pids: &str,
) -> (Bridge<'a>, PathBuf) {
    let script = crate::servers::line_server(sb, &format!("{name}_server.py"), server);
    let pids = sb.root().join(pids);
    let command: Vec<OsString> = vec![
        "python3".into(),
        "-u".into(),
        script.into(),
        pids.clone().into(),
    ];
    (Bridge::start(sb, name, &[], &command), pids)
}

/// The process a [`LEAVING_SERVER`] left outside its group, the `n`th (from 0) its
/// file names; killed on drop while it still runs `sleep`, so a failing test leaves
/// nothing running.
struct Left(u32);

impl Left {
    fn nth(pids: &Path, n: usize) -> Self {
        Self(wait_until(
            "the server's setsid'd process to write its pid",
            || {
                let text = std::fs::read_to_string(pids).unwrap_or_default();
                let whole = text.rfind('\n').map_or("", |end| &text[..end]);
                whole.lines().nth(n)?.trim().parse().ok()
            },
        ))
    }

    /// Whether it still runs: not gone, and no zombie (one that has exited and
    /// waits to be reaped holds nothing).
    fn running(&self) -> bool {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.0)).unwrap_or_default();
        // `pid (comm) state …`: comm may hold spaces and parens.
        stat.rfind(')')
            .and_then(|at| stat.get(at + 2..at + 3))
            .is_some_and(|state| state != "Z")
    }
}

impl Drop for Left {
    fn drop(&mut self) {
        let comm = std::fs::read_to_string(format!("/proc/{}/comm", self.0)).unwrap_or_default();
        if self.running() && comm.trim() == "sleep" {
            drop(mur_e2e::Adopted(self.0));
        }
    }
}

/// What the server started outside its process group (`setsid`, a daemon's double
/// fork) does not outlive it: the bridge (a subreaper) kills what carries the marker
/// the server's environment held (`MUR_BRIDGE_SERVER`) once the group is gone — at a
/// restart, before the new server answers, and at `bridge stop`. Before, the group
/// alone was ended: each such process ran on, reparented to init, after every restart
/// and after the bridge.
#[test]
fn what_the_server_started_outside_its_group_ends_at_a_restart_and_at_bridge_stop() {
    let sb = Sandbox::new();
    let (bridge, pids) = start_writing_pids(&sb, "leaving", LEAVING_SERVER, "left.pids");
    let first = Left::nth(&pids, 0);
    assert!(first.running(), "the first server's process runs");

    // The server exits; the one started again answers, and what the first left is gone.
    bridge
        .mur(&["call", "exit"])
        .assert_code(5)
        .assert_stderr_contains("the bridge is starting it again");
    let out = bridge.mur(&["call", "here"]);
    out.assert_code(0);
    assert_eq!(out.tool_text(0), "here", "{out}");
    assert!(
        !first.running(),
        "the first server's setsid'd process (pid {}) outlived its restart",
        first.0
    );
    let log = bridge.log();
    assert!(
        log.contains(
            "the server left 1 process running outside its process group (`setsid`, a daemon); \
             killed it"
        ),
        "{log}"
    );

    let second = Left::nth(&pids, 1);
    assert!(second.running(), "the second server's process runs");
    bridge.stop();
    assert!(
        !second.running(),
        "the server's setsid'd process (pid {}) outlived `bridge stop`",
        second.0
    );
}

/// A stdio server (Python, standard library only) that, as it starts, leaves two processes
/// that exit on their own 2 s later, outside its process group and its children no more:
/// `setsid sh -c 'sh -c … &'` — the `sh` made session leader starts one, which writes
/// its pid to the file `argv[1]`, and exits at once (the server reaps it), so its child
/// is reparented to the bridge, a subreaper. The second has no `MUR_BRIDGE_SERVER` in
/// its environment. Its tool `exit` exits 3; any other answers.
const ORPHANING_SERVER: &str = r#"
import os, subprocess, sys
for env in ([], ["env", "-u", "MUR_BRIDGE_SERVER"]):
    inner = " ".join(env) + """ sh -c 'echo $$ >> "$0"; exec sleep 2' "$0" &"""
    subprocess.run(["setsid", "sh", "-c", inner, sys.argv[1]], stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
from line_server import serve, text
serve("orphaning", lambda mid, params: os._exit(3) if params["name"] == "exit" else text(mid, "here"))
"#;

/// `pid`'s state and parent, from `/proc/<pid>/stat`; `None` once it is gone (reaped).
fn state_and_parent(pid: u32) -> Option<(String, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid …`: comm may hold spaces and parens.
    let mut fields = stat.get(stat.rfind(')')? + 1..)?.split_whitespace();
    let state = fields.next()?.to_owned();
    Some((state, fields.next()?.parse().ok()?))
}

/// The zombie children of process `parent`: exited, not yet reaped by it.
fn zombie_children(parent: u32) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| state_and_parent(pid).is_some_and(|(s, ppid)| s == "Z" && ppid == parent))
        .collect()
}

/// What the bridge adopted from its server (a process that left the server's group, whose
/// parent exited) and that exits on its own — carrying the server's marker or not — is
/// reaped while the bridge runs: the bridge is left with no zombie child, each start of
/// the server after the other. The server's own exit is still the bridge's to see (its
/// status is not taken by that reaping: `exit` says "exit status: 3"), calls are served
/// after, and `bridge stop` ends it. Before, each such process stayed a zombie of the
/// bridge until the bridge exited, and a bridge that ran for days gathered them.
#[test]
fn what_the_bridge_adopted_and_exits_on_its_own_is_reaped_while_it_runs() {
    let sb = Sandbox::new();
    let (bridge, pids) = start_writing_pids(&sb, "orphaning", ORPHANING_SERVER, "orphans.pids");
    let pid = bridge.line["pid"].as_u64().expect("pid") as u32;
    // Each start's two: first the bridge's children (adopted), then reaped once exited —
    // the bridge looks every 5 s; the limit is against a hang, not a speed expected.
    let reaped = |first: usize| {
        let orphans = [Left::nth(&pids, first), Left::nth(&pids, first + 1)];
        for orphan in &orphans {
            // Its parent, the `sh` made session leader, exits a moment after it starts.
            wait_until("the server's orphan to be the bridge's child", || {
                match state_and_parent(orphan.0) {
                    Some((_, parent)) => (parent == pid).then_some(()),
                    // Exited and reaped before it was seen: by the bridge, its parent.
                    None => Some(()),
                }
            });
        }
        mur_e2e::process::wait_until_within(
            "the bridge to reap what it adopted",
            std::time::Duration::from_secs(120),
            || {
                let gone = orphans.iter().all(|o| state_and_parent(o.0).is_none());
                (gone && zombie_children(pid).is_empty()).then_some(())
            },
        );
    };
    reaped(0);
    let out = bridge.mur(&["call", "here"]);
    out.assert_code(0);
    assert_eq!(out.tool_text(0), "here", "{out}");

    // The server's own status reaches the bridge: not taken by the reaping.
    bridge
        .mur(&["call", "exit"])
        .assert_code(5)
        .assert_stderr_contains("the stdio server exited (exit status: 3)")
        .assert_stderr_contains("the bridge is starting it again");
    let out = bridge.mur(&["call", "here"]);
    out.assert_code(0);
    assert_eq!(out.tool_text(0), "here", "{out}");
    reaped(2);
    let out = bridge.mur(&["call", "here"]);
    out.assert_code(0);
    bridge.stop();
}

/// A stdio server (Python, standard library only) that notes each start's pid in
/// `DIR/pid-N` (`DIR` its argument), every start after the first waiting to answer
/// `initialize` until `DIR/go` exists: a restart as slow as the test likes. `crash`
/// exits (status 3); `count` answers how many times this start was called.
const SLOW_RESTARTING_SERVER: &str = r#"
import os, sys, time
dir = sys.argv[1]
n = len([f for f in os.listdir(dir) if f.startswith("pid-")]) + 1
with open(os.path.join(dir, "pid-%d" % n), "w") as f:
    f.write(str(os.getpid()))
while n > 1 and not os.path.exists(os.path.join(dir, "go")):
    time.sleep(0.05)
from line_server import serve, text
calls = []
def call(mid, params):
    if params["name"] == "crash":
        os._exit(3)
    calls.append(mid)
    text(mid, str(len(calls)))
serve("slow", call, tools=[{"name": t, "inputSchema": {"type": "object"}} for t in ("crash", "count")])
"#;

/// A call made while the bridge starts its server again, and that the start outlasts,
/// is answered by the bridge before the call's `--timeout` runs out (mur tells it how
/// long it waits): exit 5, saying the request was not sent. It ran out of time (exit 2)
/// with the hint "the request was sent, so tool `count` may have run", though the
/// bridge never sent it. The log names the pid of each start of the server: the first,
/// and the one that started again (its line had none).
#[test]
fn a_call_that_a_slow_restart_outlasts_is_told_it_was_not_sent() {
    let sb = Sandbox::new();
    let script =
        crate::servers::line_server(&sb, "slow_restarting_server.py", SLOW_RESTARTING_SERVER);
    let dir = sb.dir("starts");
    let command: Vec<OsString> = vec![
        "python3".into(),
        "-u".into(),
        script.into(),
        dir.clone().into(),
    ];
    let bridge = Bridge::start(&sb, "slow-restart", &[], &command);
    let log = bridge.line["log"].as_str().expect("log").to_owned();
    let first = std::fs::read_to_string(dir.join("pid-1")).expect("the first start's pid");
    bridge.assert_logged(&format!("the server started (pid {first})"));
    bridge
        .mur(&["call", "crash"])
        .assert_code(5)
        .assert_stderr_contains("the bridge is starting it again");
    bridge
        .mur(&["--timeout", "3000", "call", "count"])
        .assert_code(5)
        .assert_stderr_is(format!(
            "error: tool `count` failed: the stdio server is being started again and has not \
             answered `initialize` before this call's timeout; the request was not sent to it, \
             and the bridge gives the start up to 1m, so try again shortly; its stderr is in \
             `{log}` (JSON-RPC error -32603)\n\
                 hint: JSON-RPC -32603 (internal error) is the server failing, not the tool refusing \
                 its arguments: check the app's log and state, then retry once\n"
        ));
    sb.file("starts/go", "");
    wait_until("the server to start again", || {
        let second = std::fs::read_to_string(dir.join("pid-2")).ok()?;
        let said = format!("the server started again (pid {second})");
        bridge.log().contains(&said).then_some(())
    });
    let out = bridge.mur(&["call", "count"]);
    out.assert_code(0);
    assert_eq!(out.tool_text(0), "1", "{out}");
    bridge.stop();
}
