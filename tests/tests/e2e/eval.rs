//! `mur-eval`, the agent evaluation suite: both reference agents complete every task of
//! eval/tasks under their profile — the scripted CLI agent (eval/agents/cli, one script
//! per task) with only `mur` in reach, the scripted MCP agent (eval/agents/mcp/agent.py,
//! the Python SDK 2.x from `target/interop-modern-venv`) with only an MCP configuration —
//! and the report counts their calls by surface from the session's own usage log and
//! keeps a transcript per task. An agent that only claims success completes nothing, and
//! each profile keeps the other surface out of the agent's reach. A refused command line
//! reads as mur's refusals do, and an agent command that runs no program is refused
//! before any run.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::{Value, json};

use mur_e2e::plugins::{repo_root, standard, standard_dir};
use mur_e2e::process::{Process, wait_until_within};
use mur_e2e::{Output, Sandbox, run_within};

use crate::interop_python::python_or_skip;

/// Bound on one whole run of the suite: against hangs, not a performance expectation.
const RUN_LIMIT: Duration = Duration::from_secs(15 * 60);

/// `mur-eval`, built beside `mur` and `mur-sample` (which it finds there): by the kit's one
/// build of the workspace, or a build of its own where the kit built in release (which
/// builds only what the benchmark needs).
pub(crate) fn eval_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(built) = mur_e2e::artifacts().bin("mur-eval") {
            return built.to_owned();
        }
        let built = mur_e2e::build(false, &["mur-eval"]).unwrap_or_else(|e| panic!("{e}"));
        built
            .bin("mur-eval")
            .expect("cargo built mur-eval")
            .to_owned()
    })
}

/// The shipped tasks' ids.
fn task_ids() -> Vec<String> {
    shipped("tasks")
}

/// The names of the shipped files of `eval/KIND` (`tasks`, `conditions`), sorted.
pub(crate) fn shipped(kind: &str) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(repo_root().join("eval").join(kind))
        .expect("eval's shipped files")
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".toml").map(str::to_owned)
        })
        .collect();
    ids.sort();
    ids
}

/// `mur-eval ARGS…` in `sandbox` (its cleared environment, `PATH` = `path`), to the end.
fn eval(sandbox: &Sandbox, args: &[&str], path: Option<&str>) -> Output {
    let mut command = sandbox.command(eval_bin());
    command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(path) = path {
        command.env("PATH", path);
    }
    run_within(&mut command, RUN_LIMIT).0
}

/// `mur-eval run --profile PROFILE --agent AGENT --json` with its output in the sandbox,
/// plus `extra`; the report.
fn run(sandbox: &Sandbox, profile: &str, agent: &str, extra: &[&str]) -> (Output, Value) {
    let out = sandbox.root().join("out");
    let mut args = vec!["run", "--profile", profile, "--agent", agent, "--json"];
    args.extend(["--out", out.to_str().expect("utf-8 path")]);
    args.extend_from_slice(extra);
    let output = eval(sandbox, &args, None);
    let report = output.json();
    (output, report)
}

/// Every task completed, each with calls through `surface` only, and its transcript kept.
#[track_caller]
fn assert_all_completed(output: &Output, report: &Value, surface: &str) {
    output.assert_code(0);
    let runs = report["runs"].as_array().expect("runs");
    let ran: Vec<&str> = runs.iter().filter_map(|r| r["task"].as_str()).collect();
    assert_eq!(ran, task_ids(), "every task ran, in order\n{output}");
    let other = if surface == "cli" { "mcp" } else { "cli" };
    for run in runs {
        let task = &run["task"];
        assert_eq!(
            run["completed"], true,
            "{task} not completed: {run}\n{output}"
        );
        let calls = &run["calls"];
        assert!(
            calls[surface].as_u64() > Some(0),
            "{task}: no {surface} calls: {run}"
        );
        assert_eq!(calls[other], 0, "{task}: calls through {other}: {run}");
        assert_eq!(calls["total"], calls[surface], "{task}: {run}");
        let transcript = Path::new(run["transcript"].as_str().expect("transcript dir"));
        let logged = std::fs::read_to_string(transcript.join("calls.jsonl")).expect("call log");
        assert_eq!(
            logged.lines().count() as u64,
            calls["total"].as_u64().expect("count"),
            "{task}: one call-log line per counted call"
        );
        for kept in ["prompt.md", "agent.stdout", "agent.stderr", "record.json"] {
            assert!(transcript.join(kept).is_file(), "{task}: no {kept}");
        }
    }
    let summary = &report["summary"];
    assert_eq!(summary["completionRate"], 1.0, "{summary}");
    assert_eq!(summary["otherSurfaceCalls"], 0, "{summary}");
    assert!(
        summary[format!("{surface}CallsPerTask")].as_f64() > Some(1.0),
        "{summary}"
    );
}

/// The sessions (their command line names a path under `dir`) and the agents' processes
/// (their environment does: the prompt file, which `run` and `study` both set) still
/// running: pid and command line.
pub(crate) fn left_under(dir: &Path) -> Vec<(u32, String)> {
    let dir = dir.to_string_lossy().into_owned();
    let text = |raw: Vec<u8>| String::from_utf8_lossy(&raw).replace('\0', " ");
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let zombie = stat.rsplit(')').next()?.split_whitespace().next() == Some("Z");
            let cmdline = text(std::fs::read(entry.path().join("cmdline")).ok()?);
            let environ = text(std::fs::read(entry.path().join("environ")).unwrap_or_default());
            let session = cmdline.contains("mur-sample") && cmdline.contains(&dir);
            let agent = environ.contains(&format!("MUR_EVAL_PROMPT_FILE={dir}"));
            (!zombie && (session || agent)).then_some((pid, cmdline))
        })
        .collect()
}

/// Nothing of [`left_under`] `dir` runs, once what was signalled has had a moment to
/// exit (a bound against a hang, not a timing expectation); what still runs is killed.
#[track_caller]
pub(crate) fn assert_none_left(dir: &Path) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let mut left = left_under(dir);
    while !left.is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        left = left_under(dir);
    }
    for (pid, _) in &left {
        mur_e2e::process::signal(*pid, "KILL");
    }
    assert!(left.is_empty(), "still running: {left:?}");
}

/// The run of `task` in a `mur-eval run --json` report.
fn run_of<'a>(report: &'a Value, task: &str) -> &'a Value {
    report["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .find(|r| r["task"] == task)
        .unwrap_or_else(|| panic!("{task} ran"))
}

/// The `--agent` of the README's `run --profile PROFILE` ("Agent evaluation"), with
/// `$PWD` as a shell at the top of the checkout gives it: the reference agents are run as
/// the README says (the agent runs in each task's `work/`, so a relative path is none).
fn readme_agent(profile: &str) -> String {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README.md");
    let section = readme
        .split("\n## Agent evaluation\n")
        .nth(1)
        .expect("README's Agent evaluation");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("its sh block");
    let command = block
        .replace("\\\n", " ")
        .lines()
        .find(|line| line.contains(&format!("--profile {profile} ")))
        .unwrap_or_else(|| panic!("no `--profile {profile}` in:\n{block}"))
        .to_owned();
    let agent = command
        .split("--agent \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no --agent in `{command}`"));
    agent.replace("$PWD", &repo_root().display().to_string())
}

#[test]
fn the_scripted_cli_agent_completes_every_task_through_mur() {
    let sandbox = Sandbox::new();
    let agent = readme_agent("cli");
    let verbs = standard_dir().to_str().expect("utf-8 path").to_owned();
    let (output, report) = run(&sandbox, "cli", &agent, &["--verbs", &verbs]);
    assert_all_completed(&output, &report, "cli");
    // The counter took three clicks, and the session recorded each through its verb.
    let count = &run_of(&report, "count-to-three")["calls"];
    assert_eq!(
        (count["total"].as_u64(), count["tools"]["click"].as_u64()),
        (Some(3), Some(3))
    );
    // The call after a reload finds the new session: `restart` is `reload` then `fire`,
    // with no call in between to look for it.
    let restart = &run_of(&report, "restart")["calls"];
    assert_eq!(
        restart["tools"],
        json!({ "reload": 1, "fire": 1 }),
        "{restart}"
    );
    // Its first `click --element …`, refused before any call, is in mur's own record.
    let run = run_of(&report, "count-to-three");
    let invocations = &run["invocations"];
    assert_eq!(
        (&invocations["total"], &invocations["failed"]),
        (&json!(4), &json!({ "usage-error": 1 })),
        "{run}"
    );
    assert_eq!(
        invocations["refused"],
        json!([{ "verb": "click", "kind": "plugin", "options": ["--element"],
                 "positionals": 1, "times": 1, "last": invocations["refused"][0]["last"] }])
    );
    assert_eq!(
        report["summary"]["refusedInvocations"], 1,
        "{}",
        report["summary"]
    );
}

#[test]
fn the_scripted_mcp_agent_completes_every_task_through_the_sdk() {
    if python_or_skip("interop-modern-venv", "2", "requirements-modern.txt").is_none() {
        return;
    }
    let sandbox = Sandbox::new();
    // README's: `target/interop-modern-venv`'s python (the one found), `-B` (no
    // __pycache__ beside the agent).
    let agent = readme_agent("mcp");
    let (output, report) = run(&sandbox, "mcp", &agent, &[]);
    assert_all_completed(&output, &report, "mcp");
}

#[test]
fn an_agent_that_only_claims_success_completes_nothing() {
    let sandbox = Sandbox::new();
    let claim = r#"echo '{"counter":{"count":3}}'; echo 'Done: the counter shows 3.'"#;
    let (output, report) = run(&sandbox, "mcp", claim, &["--tasks", "count-to-three"]);
    output.assert_code(2);
    let only = &report["runs"][0];
    assert_eq!(only["completed"], false, "{only}");
    assert_eq!(only["calls"]["total"], 0, "{only}");
    assert_eq!(only["checks"][0]["seen"], "saw 0", "{only}");
    let transcript = Path::new(only["transcript"].as_str().expect("transcript"));
    let said = std::fs::read_to_string(transcript.join("agent.stdout")).expect("kept");
    assert!(said.contains("Done: the counter shows 3."), "{said}");
    assert_eq!(report["summary"]["completionRate"], 0.0);
}

/// What an agent finds in its reach: where `mur` is, and what its MCP configuration
/// says, written into its working directory.
const LOOK_AROUND: &str =
    "command -v mur > where.txt || true; cat .mcp.json > config.txt 2>/dev/null || true";

/// `mur-eval run --profile PROFILE --agent LOOK_AROUND` on one task, plus `extra`, with
/// `PATH` = `path`, into `<sandbox>/PROFILE`; the output and that directory.
fn look_around(sandbox: &Sandbox, profile: &str, extra: &[&str], path: &str) -> (Output, PathBuf) {
    let out = sandbox.root().join(profile);
    let mut args = vec!["run", "--profile", profile, "--agent", LOOK_AROUND];
    args.extend(["--tasks", "count-to-three", "--json"]);
    args.extend(["--out", out.to_str().expect("utf-8")]);
    args.extend_from_slice(extra);
    (eval(sandbox, &args, Some(path)), out)
}

/// The working directory of the only task of a run.
fn workdir(report: &Value) -> PathBuf {
    Path::new(
        report["runs"][0]["transcript"]
            .as_str()
            .expect("transcript"),
    )
    .join("work")
}

#[test]
fn each_profile_keeps_the_other_surface_out_of_reach() {
    // A `mur` on the PATH mur-eval inherits: no profile lets the agent find it. The
    // directory of the mur under test (beside mur-eval, the one install directory) is
    // left off too, and said of only when its mur is another (`stray`'s, a copy).
    let sandbox = Sandbox::new();
    let stray = sandbox.dir("stray");
    std::fs::copy(mur_e2e::mur_bin(), stray.join("mur")).expect("copy");
    let installed = eval_bin().parent().expect("mur-eval's directory");
    let path = format!("{}:{}:/usr/bin:/bin", stray.display(), installed.display());
    let (mcp, _) = look_around(&sandbox, "mcp", &[], &path);
    mcp.assert_code(2).assert_stderr_contains(&format!(
        "warning: `{}` left off the agent's PATH: it holds a `mur`, and the mcp profile keeps mur out of the agent's reach",
        stray.display()
    ));
    assert_eq!(mcp.stderr.matches("left off").count(), 1, "{mcp}");
    let work = workdir(&mcp.json());
    assert_eq!(
        std::fs::read_to_string(work.join("where.txt")).expect("ran"),
        ""
    );
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("config.txt")).expect("ran"))
            .expect("the MCP configuration is JSON");
    let url = config["mcpServers"]["mur-sample"]["url"]
        .as_str()
        .expect("a URL");
    assert!(url.starts_with("http://127.0.0.1:"), "{config}");

    // The CLI profile: its own `mur` (with the verbs given) and no MCP configuration.
    let verbs = sandbox.dir("verbs");
    std::fs::copy(standard("version"), verbs.join("version.wasm")).expect("copy");
    let (cli, out) = look_around(
        &sandbox,
        "cli",
        &["--verbs", verbs.to_str().expect("utf-8")],
        &path,
    );
    cli.assert_code(2);
    let work = workdir(&cli.json());
    let found = std::fs::read_to_string(work.join("where.txt")).expect("ran");
    assert_eq!(found.trim(), out.join("bin/mur").to_str().expect("utf-8"));
    assert_eq!(
        std::fs::read_to_string(work.join("config.txt")).expect("ran"),
        ""
    );

    // Both: that same `mur` (still not the stray one) and the MCP configuration.
    let (both, out) = look_around(
        &sandbox,
        "both",
        &["--verbs", verbs.to_str().expect("utf-8")],
        &path,
    );
    both.assert_code(2).assert_stderr_contains(&format!(
        "warning: `{}` left off the agent's PATH: it holds a `mur`, and the agent is given only the mur under test",
        stray.display()
    ));
    assert_eq!(both.stderr.matches("left off").count(), 1, "{both}");
    let work = workdir(&both.json());
    let found = std::fs::read_to_string(work.join("where.txt")).expect("ran");
    assert_eq!(found.trim(), out.join("bin/mur").to_str().expect("utf-8"));
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("config.txt")).expect("ran"))
            .expect("the MCP configuration is JSON");
    assert!(
        config["mcpServers"]["mur-sample"]["url"]
            .as_str()
            .is_some_and(|url| url.starts_with("http://127.0.0.1:")),
        "{config}"
    );
}

#[test]
fn the_cli_profile_refuses_an_agent_that_wants_an_mcp_configuration() {
    let sandbox = Sandbox::new();
    let agent = "agent --mcp {mcp_config}";
    let run = ["run", "--profile", "cli", "--agent", agent, "--verbs"];
    let out = eval(&sandbox, &[&run[..], &["/nonexistent"]].concat(), None);
    out.assert_code(1).assert_stderr_is(
        "error: the agent command uses `{mcp_config}`, but the cli profile gives the agent no MCP configuration\n\
         hint: run it with `--profile mcp`, or drop `{mcp_config}` from the command\n",
    );
    assert_eq!(out.stdout, "");
}

#[test]
fn an_unknown_task_is_a_usage_error_naming_the_tasks() {
    let sandbox = Sandbox::new();
    let run = ["run", "--profile", "mcp", "--agent", "true"];
    let out = eval(&sandbox, &[&run[..], &["--tasks", "nope"]].concat(), None);
    out.assert_code(1).assert_stderr_is(format!(
        "error: no task `nope` (tasks: {})\n",
        task_ids().join(", ")
    ));
    // An unknown condition is said the same way: the list in the line.
    let study = ["study", "--agent", "true", "--conditions", "nope"];
    let out = eval(&sandbox, &study, None);
    out.assert_code(1).assert_stderr_is(format!(
        "error: no condition `nope` (conditions: {})\n",
        shipped("conditions").join(", ")
    ));
    let listed = eval(&sandbox, &["tasks", "--json"], None);
    listed.assert_code(0);
    let ids: Vec<String> = listed
        .json_lines()
        .iter()
        .filter_map(|task| task["id"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(ids, task_ids());
}

#[test]
fn a_session_that_will_not_start_is_the_harness_failing_not_the_agent() {
    let sandbox = Sandbox::new();
    let (output, report) = run(
        &sandbox,
        "mcp",
        "true",
        &["--tasks", "updates-off", "--sample", "/bin/false"],
    );
    output.assert_code(7);
    let only = &report["runs"][0];
    assert_eq!(only["completed"], false, "{only}");
    assert_eq!(
        only["error"],
        "mur-sample exited (exit status: 1) before announcing itself, saying nothing",
        "{only}"
    );
    assert_eq!(report["summary"]["errors"], 1);
    // Not the agent's failure: in no figure, said as such.
    assert_eq!(
        (&report["summary"]["tasks"], &report["summary"]["completed"]),
        (&json!(0), &json!(0)),
        "{report}"
    );
    output.assert_stderr_contains(
        "[1/1] updates-off: ERROR, not run: mur-sample exited (exit status: 1) before announcing \
         itself, saying nothing\n",
    );
}

#[test]
fn an_agent_past_its_time_limit_is_stopped_and_the_task_not_completed() {
    let sandbox = Sandbox::new();
    let slow = "echo started; sleep 60; echo never";
    let (output, report) = run(
        &sandbox,
        "mcp",
        slow,
        &["--tasks", "updates-off", "--time-limit", "1"],
    );
    output.assert_code(2);
    let only = &report["runs"][0];
    assert_eq!(
        (&only["timedOut"], &only["completed"]),
        (&Value::Bool(true), &Value::Bool(false)),
        "{only}"
    );
    assert_eq!(only["agentExit"], Value::Null, "ended by a signal: {only}");
    // Said in the progress line as a study says it, not only in report.json.
    output.assert_stderr_contains("[1/1] updates-off: FAIL (timed out; 0 calls, ");
    let transcript = Path::new(only["transcript"].as_str().expect("transcript"));
    let said = std::fs::read_to_string(transcript.join("agent.stdout")).expect("kept");
    assert_eq!(said, "started\n");
    // The session stopped, its process group is no longer recorded (as the agent's).
    for group in ["session.group", "agent.group"] {
        assert!(!transcript.join(group).exists(), "{group} left");
    }
    // The harness's own check calls are in the session's log under its own name.
    let served = std::fs::read_to_string(transcript.join("usage.jsonl")).expect("usage.jsonl");
    let clients: Vec<String> = served
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .map(|r| r["client"].as_str().unwrap_or_default().to_owned())
        .collect();
    let harness = format!("mur-eval {}", env!("CARGO_PKG_VERSION"));
    assert!(
        !clients.is_empty() && clients.iter().all(|c| *c == harness),
        "{served}"
    );
}

/// An agent that exits nonzero (an API key refused) is said to in the progress line: a
/// FAIL with 0 calls alone reads as the surface's fault.
#[test]
fn an_agent_that_exits_nonzero_is_said_to_in_the_progress_line() {
    let sandbox = Sandbox::new();
    let (output, report) = run(&sandbox, "mcp", "exit 3", &["--tasks", "count-to-three"]);
    output.assert_code(2);
    assert_eq!(report["runs"][0]["agentExit"], 3, "{report}");
    output.assert_stderr_contains("[1/1] count-to-three: FAIL (agent exit 3; 0 calls, ");
}

#[test]
fn a_time_limit_of_zero_is_refused() {
    let sandbox = Sandbox::new();
    for command in ["run", "study"] {
        let output = eval(
            &sandbox,
            &[command, "--agent", "true", "--time-limit", "0"],
            None,
        );
        output.assert_code(1).assert_stderr_is(
            "error: invalid value `0` for `--time-limit <SECS>`: the time limit must be at \
             least 1 second\n",
        );
        assert_eq!(output.stdout, "");
    }
}

/// What clap refuses is said as `mur` says it: one `error:` line in backticks, a list of
/// values in the line, the usage in a `hint:` line; not clap's own layout.
#[test]
fn a_refused_command_line_reads_as_murs_refusals_do() {
    let sandbox = Sandbox::new();
    let cases: [(&[&str], &str); 4] = [
        (
            &["run", "--profile", "nope", "--agent", "true"],
            "error: invalid value `nope` for `--profile <PROFILE>` (possible values: cli, mcp, \
             both)\n",
        ),
        (
            &["study", "--agent", "true", "--repeats", "0"],
            "error: invalid value `0` for `--repeats <N>`: the number of repeats must be at \
             least 1\n",
        ),
        (
            &["run", "--agent", "true"],
            "error: missing argument `--profile <PROFILE>`\n\
             hint: usage: mur-eval run --profile <PROFILE> --agent <COMMAND> (`--help` shows \
             more)\n",
        ),
        (
            &["study", "--agent", "true", "--repeat", "2"],
            "error: unexpected argument `--repeat` found\n\
             hint: did you mean `--repeats`?\n\
             hint: usage: mur-eval study --agent <COMMAND> --repeats <N> (`--help` shows more)\n",
        ),
    ];
    for (args, said) in cases {
        let output = eval(&sandbox, args, None);
        output.assert_code(1).assert_stderr_is(said);
        assert_eq!(output.stdout, "", "{args:?}");
    }
}

/// An agent command that runs nothing (`--agent "$AGENT"` with the variable unset, or
/// only assignments) is refused before any run: `sh -c` would exit 0 every time, and
/// every run be recorded as the surface's failure.
#[test]
fn an_agent_command_that_names_no_program_is_refused_before_any_run() {
    let sandbox = Sandbox::new();
    let hint = "hint: give `--agent` the command that runs the agent on a task (`--help` says \
                its placeholders)\n";
    for (agent, why) in [("", "is empty"), ("FOO=1", "`FOO=1` names no program")] {
        let said = format!("error: the agent command {why}, so no run would run an agent\n{hint}");
        assert_refused_before_any_run(&sandbox, agent, &said);
    }
}

/// `run` and `study` with `--agent AGENT` both exit 1 saying `said` on stderr, before any
/// run: nothing on stdout, no `--out` made.
#[track_caller]
fn assert_refused_before_any_run(sandbox: &Sandbox, agent: &str, said: &str) {
    assert_each_refused_before_any_run(sandbox, agent, [said, said]);
}

/// As [`assert_refused_before_any_run`], `run` saying the first of `said`, `study` the
/// second.
#[track_caller]
fn assert_each_refused_before_any_run(sandbox: &Sandbox, agent: &str, said: [&str; 2]) {
    assert_each_refused_on(sandbox, agent, said, None);
}

/// As [`assert_each_refused_before_any_run`], mur-eval run with `PATH` set to `path`.
#[track_caller]
fn assert_each_refused_on(sandbox: &Sandbox, agent: &str, said: [&str; 2], path: Option<&str>) {
    let out = sandbox.root().join("out");
    let out = out.to_str().expect("utf-8 path");
    for (command, said) in [
        &["run", "--profile", "cli"][..],
        &["study", "--conditions", "cli-call", "--repeats", "1"][..],
    ]
    .into_iter()
    .zip(said)
    {
        let args = [
            command,
            &["--tasks", "count-to-three", "--out", out, "--agent", agent],
        ]
        .concat();
        let output = eval(sandbox, &args, path);
        output.assert_code(1).assert_stderr_is(said);
        assert_eq!(output.stdout, "", "{args:?}");
        assert!(!Path::new(out).exists(), "nothing made: {args:?}");
    }
}

/// An agent command `sh` cannot parse is refused before any run, with what `sh` says of
/// it: each run's `sh -c` would exit 2 at once (not 126 or 127, which say the agent never
/// started), and every run be recorded as the surface's failure. What `sh` says is
/// pinned by an `sh` of the test's own first on the `PATH` (the runs' `sh` is looked up
/// there): dash's words and bash's, each said without the shell's name. The whole output
/// was compared only where `/bin/sh` was dash; the machine's own `sh` still refuses both.
#[test]
fn an_agent_command_sh_cannot_parse_is_refused_before_any_run() {
    let sandbox = Sandbox::new();
    let hint = "hint: `sh -c` runs the command as written, each placeholder replaced by its \
                value shell-quoted: check its quotes and brackets\n";
    let refused = "error: the agent command is not valid shell, so no run would run an agent: \
                   `sh -n` said: ";
    let agents = ["claude ((", "claude -p {prompt} 'unbalanced"];
    // dash's words (Debian's `sh`), and bash's, which echoes the line it read.
    let dash = [
        r#"sh: 1: Syntax error: "(" unexpected (expecting ")")"#,
        "sh: 1: Syntax error: Unterminated quoted string",
    ];
    let bash = [
        "sh: -c: line 1: syntax error near unexpected token `('\nsh: -c: line 1: `claude (('",
        "sh: -c: line 1: unexpected EOF while looking for matching `''",
    ];
    let dash_said = [
        r#"line 1: Syntax error: "(" unexpected (expecting ")")"#,
        "line 1: Syntax error: Unterminated quoted string",
    ];
    let bash_said = [
        "line 1: syntax error near unexpected token `('; line 1: `claude (('",
        "line 1: unexpected EOF while looking for matching `''",
    ];
    for (shell, says, said) in [("dash", dash, dash_said), ("bash", bash, bash_said)] {
        let path = shell_saying(&sandbox, shell, &agents, &says);
        for (agent, line) in agents.into_iter().zip(said) {
            let said = format!("{refused}{line}\n{hint}");
            assert_each_refused_on(&sandbox, agent, [&said, &said], Some(&path));
        }
    }
    // The machine's own `sh`, whatever its words: refused before any run all the same.
    for agent in agents {
        let out = sandbox.root().join("out");
        let args = [
            "run",
            "--profile",
            "cli",
            "--tasks",
            "count-to-three",
            "--out",
            out.to_str().expect("utf-8 path"),
            "--agent",
            agent,
        ];
        let output = eval(&sandbox, &args, None);
        output.assert_code(1);
        assert_eq!(output.stdout, "", "{agent}");
        assert!(
            output.stderr.starts_with(refused) && output.stderr.ends_with(hint),
            "{agent}: {}",
            output.stderr
        );
        assert!(!out.exists(), "nothing made: {agent}");
    }
}

/// A `PATH` whose first `sh` says `says[i]` on stderr (exit 2) when asked `sh -n -c
/// agents[i]`, as `shell` would, and is `/bin/sh` for anything else.
fn shell_saying(sandbox: &Sandbox, shell: &str, agents: &[&str], says: &[&str]) -> String {
    let quote = |text: &str| format!("'{}'", text.replace('\'', r"'\''"));
    let cases: String = agents
        .iter()
        .zip(says)
        .map(|(agent, said)| {
            format!(
                "  {}) printf '%s\\n' {} >&2; exit 2 ;;\n",
                quote(agent),
                quote(said)
            )
        })
        .collect();
    let script = format!(
        "#!/bin/sh\n\
         if [ \"$1\" = -n ] && [ \"$2\" = -c ]; then\n\
         case \"$3\" in\n{cases}esac\nfi\n\
         exec /bin/sh \"$@\"\n"
    );
    let sh = executable(sandbox, &format!("{shell}-bin/sh"), &script);
    let bin = sh.parent().expect("its directory");
    let own = std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into());
    format!("{}:{own}", bin.display())
}

/// A refused run or study left no default out directory in `cwd` (`mur-eval-out`),
/// nor anything in it: one made as it was named was left behind.
#[track_caller]
pub(crate) fn assert_no_default_out(cwd: &Path) {
    let made: Vec<_> = std::fs::read_dir(cwd.join("mur-eval-out"))
        .map(|dir| dir.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(made.is_empty(), "left: {made:?}");
    assert!(
        !cwd.join("mur-eval-out").exists(),
        "the `mur-eval-out` made for it is left"
    );
}

/// An executable file `<sandbox>/<name>` (mode 755, its directory made) holding `script`:
/// an agent, or a program on the `PATH` a test gives mur-eval.
pub(crate) fn executable(sandbox: &Sandbox, name: &str, script: &str) -> PathBuf {
    let file = sandbox.file(name, script);
    std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    file
}

/// A program under `~/`, which each run's `sh` expands with the run's own `HOME` (made
/// empty), is refused before any run, naming where it is in mur-eval's `HOME`; with that
/// `HOME` passed on (`--pass-env HOME`) it is judged as an absolute path, and runs.
#[test]
fn a_program_under_home_is_found_where_the_agents_home_leads() {
    let sandbox = Sandbox::new();
    let agent = executable(&sandbox, "home/bin/agent", "#!/bin/sh\nexit 3\n");
    let bin = agent.parent().expect("home/bin");
    let said = format!(
        "error: the agent's program `~/bin/agent` is under `~`, which each run's `sh` expands \
         to the run's own `HOME`, an empty directory\n\
         hint: name it by absolute path (`{}`), or give the agent your `HOME` with \
         `--pass-env HOME`\n",
        bin.join("agent").display()
    );
    assert_refused_before_any_run(&sandbox, "~/bin/agent {task}", &said);
    // Not in mur-eval's `HOME` either: the hint does not name it as where it is.
    let said = format!(
        "error: the agent's program `~/bin/nope` is under `~`, which each run's `sh` expands \
         to the run's own `HOME`, an empty directory\n\
         hint: name it by absolute path, where it is: `{}`, in your `HOME`, does not exist \
         either\n",
        bin.join("nope").display()
    );
    assert_refused_before_any_run(&sandbox, "~/bin/nope {task}", &said);
    let (output, report) = run(
        &sandbox,
        "mcp",
        "~/bin/agent {task}",
        &["--tasks", "count-to-three", "--pass-env", "HOME"],
    );
    output.assert_code(2);
    assert_eq!(report["runs"][0]["agentExit"], 3, "{report}");
    let missing = eval(
        &sandbox,
        &[
            "run",
            "--profile",
            "mcp",
            "--agent",
            "~/bin/nope {task}",
            "--pass-env",
            "HOME",
        ],
        None,
    );
    // Where it was looked for, and a hint for a path under `~/`, not `$PWD/…`.
    missing.assert_code(1).assert_stderr_is(format!(
        "error: the agent's program `~/bin/nope` is `{}` with your `HOME` passed on \
         (`--pass-env HOME`), which does not exist\n\
         hint: name it by absolute path, where it is\n",
        bin.join("nope").display()
    ));
}

/// A run that finished (its `report.json` written) is not replaced by the next run into
/// the same `--out`: that run was cleared, and lost. It is refused, exit 1, in one line
/// with a hint, and nothing in the directory is touched — as a study refuses a directory
/// holding what is not its own. (A run killed or stopped mid-way wrote no report: the
/// next run clears it, [`a_run_killed_mid_task_leaves_nothing_that_drives_the_next_run`].)
#[test]
fn a_run_refuses_the_directory_of_a_finished_run_and_touches_nothing() {
    let sandbox = Sandbox::new();
    let out = sandbox.root().join("out");
    let tasks = ["--tasks", "count-to-three"];
    let (first, report) = run(&sandbox, "mcp", "echo earlier > left.txt", &tasks);
    first.assert_code(2);
    assert_eq!(report["runs"].as_array().map(Vec::len), Some(1), "{first}");
    let before = tree(&out);
    assert!(
        before.iter().any(|(p, _)| p.ends_with("left.txt")),
        "{before:?}"
    );
    let args = [
        "run",
        "--profile",
        "mcp",
        "--agent",
        "true",
        "--json",
        "--out",
    ];
    let out_arg = out.to_str().expect("utf-8");
    let second = eval(
        &sandbox,
        &[&args[..], &[out_arg], &tasks[..]].concat(),
        None,
    );
    second.assert_code(1).assert_stderr_is(format!(
        "error: `{}` holds an earlier run's report (`report.json`): a run writes into a new or \
         empty directory, or one whose run never finished\n\
         hint: name a new directory with `--out`, or remove this one to run into it again; \
         nothing in it was touched\n",
        out.display()
    ));
    assert_eq!(second.stdout, "");
    assert_eq!(tree(&out), before, "the earlier run was touched");
}

/// `report.json` and each task's `record.json` name the task's directory relative to
/// the output directory, so a run's directory moved or published still names its
/// tasks'; `out`, where the run was made, stays absolute, as a study's `cwd` does. What
/// `--json` prints is for this machine now: absolute. (Nothing reads a `report.json`
/// back but the next run into the directory, which refuses it whatever it holds,
/// [`a_run_refuses_the_directory_of_a_finished_run_and_touches_nothing`]: an older,
/// absolute one is refused alike.)
#[test]
fn a_runs_report_names_its_tasks_relative_to_its_directory() {
    let sandbox = Sandbox::new();
    let out = sandbox.root().join("out");
    let (output, printed) = run(&sandbox, "mcp", "true", &["--tasks", "count-to-three"]);
    output.assert_code(2);
    let task = out.join("count-to-three");
    assert_eq!(
        printed["runs"][0]["transcript"],
        task.to_str().expect("utf-8")
    );
    let moved = sandbox.root().join("moved");
    std::fs::rename(&out, &moved).expect("move the run's directory");
    let stored = read_json(&moved.join("report.json"));
    assert_eq!(stored["out"], out.to_str().expect("utf-8"), "{stored}");
    assert_eq!(
        stored["runs"][0]["transcript"], "count-to-three",
        "{stored}"
    );
    // Apart from it, what is stored is what was printed.
    let mut as_printed = stored.clone();
    as_printed["runs"][0]["transcript"] = printed["runs"][0]["transcript"].clone();
    assert_eq!(as_printed, printed);
    let dir = moved.join(
        stored["runs"][0]["transcript"]
            .as_str()
            .expect("transcript"),
    );
    let record = read_json(&dir.join("record.json"));
    assert_eq!(record["transcript"], "count-to-three", "{record}");
    assert!(
        dir.join("prompt.md").is_file(),
        "the task's directory, moved"
    );
}

/// The JSON file at `path`.
fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read `{}`: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("`{}`: {e}", path.display()))
}

/// Every path under `dir` (relative to it), with each file's contents, sorted.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(at) = pending.pop() {
        for entry in std::fs::read_dir(&at).expect("read").flatten() {
            let path = entry.path();
            let meta = std::fs::symlink_metadata(&path).expect("metadata");
            let contents = if meta.is_file() {
                std::fs::read(&path).expect("read")
            } else {
                Vec::new()
            };
            if meta.is_dir() {
                pending.push(path.clone());
            }
            let relative = path.strip_prefix(dir).expect("under").to_owned();
            found.push((relative, contents));
        }
    }
    found.sort();
    found
}

/// `mur-eval run --profile cli` of count-to-three into the sandbox's `out`, the `click`
/// verb installed, as a command to spawn.
fn click_run(sandbox: &Sandbox, agent: &str) -> std::process::Command {
    let verbs = sandbox.root().join("verbs");
    if !verbs.exists() {
        std::fs::create_dir(&verbs).expect("dir");
        std::fs::copy(standard("click"), verbs.join("click.wasm")).expect("copy");
    }
    let mut command = sandbox.command(eval_bin());
    command
        .args([
            "run",
            "--profile",
            "cli",
            "--tasks",
            "count-to-three",
            "--json",
        ])
        .args(["--agent", agent, "--verbs"])
        .arg(&verbs)
        .arg("--out")
        .arg(sandbox.root().join("out"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// An agent that says it started (a file `started` in the sandbox), then clicks + for
/// as long as it runs.
fn clicking_agent(sandbox: &Sandbox) -> (String, PathBuf) {
    let marker = sandbox.root().join("started");
    let agent = format!(
        "touch {}; while true; do mur devtools click '#btn-inc' >/dev/null 2>&1; sleep 0.2; done",
        marker.display()
    );
    (agent, marker)
}

/// A run of [`clicking_agent`] into `<sandbox>/out`, started and past recording its
/// agent's process group (which it does right after starting it): the run's
/// directory and the run.
fn clicking_run_started(sandbox: &Sandbox) -> (PathBuf, Process) {
    let out = sandbox.root().join("out");
    let (agent, marker) = clicking_agent(sandbox);
    let mut run = Process::spawn(&mut click_run(sandbox, &agent));
    wait_until_within("the agent started", RUN_LIMIT, || {
        if let Some(status) = run.try_wait() {
            panic!("the run ended ({status}) before its agent started");
        }
        (marker.exists() && out.join("count-to-three/agent.group").exists()).then_some(())
    });
    (out, run)
}

#[test]
fn a_run_killed_mid_task_leaves_nothing_that_drives_the_next_run() {
    let sandbox = Sandbox::new();
    let (out, mut first) = clicking_run_started(&sandbox);
    // SIGKILL: nothing of mur-eval's runs to stop what it started.
    first.kill();
    assert!(!left_under(&out).is_empty(), "the kill left them running");

    // The next run into the same directory, with an agent that does nothing: its task's
    // directory is the one the orphaned agent finds sessions in.
    let (second, _) = run_within(&mut click_run(&sandbox, "sleep 2"), RUN_LIMIT);
    second.assert_code(2);
    // Said, so the operator learns that the earlier run died.
    second.assert_stderr_contains(
        "an earlier run into this directory never finished (killed, stopped or failed): stopped what \
         it left running in 1 task (agents, sessions); removed what it wrote: `bin`, \
         `count-to-three`\n",
    );
    let report = second.json();
    assert_eq!(report["runs"][0]["calls"]["total"], 0, "{second}");
    assert_none_left(&out);
}

/// The agent of [`what_an_agent_left_that_exits_on_its_own_is_reaped_after_its_run`]
/// (`$1`: the orphan's pid file, `$2`: where it says what it saw; its `$PPID` is
/// mur-eval's pid, the agent being `exec`'d by mur-eval's `sh -c`). The first run's
/// leaves a process that exits at once, in a session of its own and no child of its
/// (`setsid sh -c 'sh … &'`, whose `sh` exits), and waits until it is mur-eval's zombie
/// (`adopted`: reparented to mur-eval, a subreaper); the next run's says whether it
/// still is (`zombie`) or not (`reaped`).
const ORPHANING_AGENT: &str = r#"
is_zombie_of_mur_eval() {
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    set -- ${stat##*) }
    [ "$1" = Z ] && [ "$2" = "$PPID" ]
}
if [ -s "$1" ]; then
    if is_zombie_of_mur_eval "$(cat "$1")"; then echo zombie; else echo reaped; fi >> "$2"
    exit 0
fi
setsid sh -c 'sh -c '\''echo $$ > "$0.new"; mv "$0.new" "$0"'\'' "$0" &' "$1"
i=0
until [ -s "$1" ] && is_zombie_of_mur_eval "$(cat "$1")"; do
    i=$((i + 1))
    if [ "$i" -gt 1200 ]; then echo "not adopted" >> "$2"; exit 0; fi
    sleep 0.05
done
echo adopted >> "$2"
"#;

/// What an agent left that exits on its own — out of its group and its process tree,
/// which makes it mur-eval's (a subreaper) once its parent exits — is reaped once its run
/// is over: the next run finds no zombie of it. Before, it stayed a zombie of mur-eval
/// (no kill found it: it had exited) until mur-eval exited, and a study of thousands of
/// runs gathered them.
#[test]
fn what_an_agent_left_that_exits_on_its_own_is_reaped_after_its_run() {
    let sandbox = Sandbox::new();
    let agent = sandbox.file("orphaning-agent.sh", ORPHANING_AGENT);
    let (pid_file, seen) = (
        sandbox.root().join("orphan.pid"),
        sandbox.root().join("seen"),
    );
    let command = format!(
        "exec sh '{}' '{}' '{}'",
        agent.display(),
        pid_file.display(),
        seen.display()
    );
    let (output, report) = run(
        &sandbox,
        "mcp",
        &command,
        &["--tasks", "count-to-three,updates-off"],
    );
    // Neither task is done: the agent makes no call.
    output.assert_code(2);
    let runs = report["runs"].as_array().expect("runs");
    assert!(runs.iter().all(|r| r["agentExit"] == 0), "{report}");
    let said = std::fs::read_to_string(&seen).expect("what the agents saw");
    assert_eq!(said, "adopted\nreaped\n", "{output}");
}

#[test]
fn a_second_run_into_a_directory_a_run_holds_is_refused() {
    let sandbox = Sandbox::new();
    let (out, first) = clicking_run_started(&sandbox);
    let (second, _) = run_within(&mut click_run(&sandbox, "true"), RUN_LIMIT);
    second.assert_code(1).assert_stderr_is(format!(
        "error: `{}` is in use by another run (it holds `mur-eval-run.lock`)\n\
         hint: wait for it to end, or name another directory with `--out`\n",
        out.display()
    ));
    assert_eq!(second.stdout, "");
    // The first run's live task was left alone.
    assert!(out.join("count-to-three/agent.group").is_file());
    first.signal("TERM");
    let status = first.wait_status();
    assert_eq!(status.code(), Some(143), "{status}");
    assert_none_left(&out);
}

#[test]
fn a_hangup_stops_the_running_agent_and_session_before_mur_eval_exits() {
    let sandbox = Sandbox::new();
    let (out, run) = clicking_run_started(&sandbox);
    // The terminal (or SSH connection) closed: SIGHUP, as for a study.
    run.signal("HUP");
    let output = run.wait_output();
    output.assert_code(129).assert_stderr_contains(
        "mur-eval: stopped by SIGHUP: the agents and sessions it started were stopped too; \
         runs not finished were not recorded\n",
    );
    assert_none_left(&out);
}

#[test]
fn a_run_refuses_a_directory_no_run_wrote_and_touches_nothing() {
    let sandbox = Sandbox::new();
    let out = sandbox.dir("out");
    std::fs::write(out.join("notes.txt"), "mine\n").expect("write");
    let run = ["run", "--profile", "mcp", "--agent", "true", "--out"];
    let output = eval(
        &sandbox,
        &[&run[..], &[out.to_str().expect("utf-8")]].concat(),
        None,
    );
    output.assert_code(1).assert_stderr_is(format!(
            "error: `{}` is not empty and no earlier `mur-eval run` wrote it: a run writes into a new or empty directory, or an earlier run's\n\
             hint: name a new directory with `--out`; nothing in this one was touched\n",
            out.display()
        ));
    assert_eq!(output.stdout, "");
    let left: Vec<_> = std::fs::read_dir(&out)
        .expect("read")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left, ["notes.txt"]);
}

/// A task or condition file, a condition's instructions, or a run's record of what it
/// wrote that is a FIFO (a named pipe passed by mistake) is refused at once, exit 1, in
/// one line: each was read with a blocking read that waited for a writer for ever. (The
/// time limit guards against that hang; it is not what is checked.)
#[test]
fn a_fifo_for_a_task_a_condition_or_a_runs_record_is_refused_at_once() {
    let sandbox = Sandbox::new();
    let refused = |args: &[&str], expected: String| {
        let mut command = sandbox.command(eval_bin());
        command
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        run_within(&mut command, Duration::from_secs(120))
            .0
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(expected);
    };
    let tasks = sandbox.dir("tasks");
    let task = tasks.join("stuck.toml");
    mur_e2e::mkfifo(&task);
    let not_regular = |path: &Path| format!("`{}` is not a regular file", path.display());
    let dir = |path: &Path| path.to_str().expect("utf-8").to_owned();
    refused(
        &["tasks", "--task-dir", &dir(&tasks)],
        format!("error: {}\n", not_regular(&task)),
    );
    let conditions = sandbox.dir("conditions");
    let condition = conditions.join("stuck.toml");
    mur_e2e::mkfifo(&condition);
    refused(
        &["conditions", "--condition-dir", &dir(&conditions)],
        format!("error: {}\n", not_regular(&condition)),
    );
    std::fs::remove_file(&condition).expect("remove");
    std::fs::write(
        conditions.join("cli.toml"),
        "description = \"a condition\"\nsurface = \"cli\"\ninstructions = \"cli.md\"\n",
    )
    .expect("write");
    let instructions = conditions.join("cli.md");
    mur_e2e::mkfifo(&instructions);
    refused(
        &["conditions", "--condition-dir", &dir(&conditions)],
        format!(
            "error: condition `cli`: its instructions: {}\n",
            not_regular(&instructions)
        ),
    );
    // A run's record that is no record: its directory is refused as one no run wrote.
    let out = sandbox.dir("out");
    mur_e2e::mkfifo(&out.join("mur-eval-run.json"));
    refused(
        &[
            "run",
            "--profile",
            "mcp",
            "--agent",
            "true",
            "--out",
            &dir(&out),
        ],
        format!(
            "error: `{}` is not empty and no earlier `mur-eval run` wrote it: a run writes into a new or empty directory, or an earlier run's\n\
             hint: name a new directory with `--out`; nothing in this one was touched\n",
            out.display()
        ),
    );
}

/// Asserts that `output` said once (on a line starting with `prefix`, as `study: `) that
/// the verbs in `verbs` were compiled once for every run, kept in `out`.
#[track_caller]
pub(crate) fn assert_verbs_compiled_once(output: &Output, prefix: &str, verbs: &str, out: &Path) {
    let installing = format!(
        "{prefix}installing the verbs in `{verbs}` (compiled once for every run, kept in `{}`)",
        out.join("compiled-verbs").display()
    );
    assert_eq!(
        output.stderr_lines(&format!("{prefix}installing")),
        [installing.as_str()],
        "{output}"
    );
}

/// Compares `text` with the snapshot `name` in `tests/snapshots/eval/`, each regular
/// expression of `filters` replaced by its placeholder first. Re-bless after an
/// intended change with `INSTA_UPDATE=always cargo test -p mur-e2e --test e2e eval`,
/// then review `git diff tests/snapshots/eval`.
#[track_caller]
pub(crate) fn assert_eval_snapshot(name: &str, text: &str, filters: &[(&str, &str)]) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots/eval"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    for (regex, placeholder) in filters {
        settings.add_filter(regex, *placeholder);
    }
    settings.bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn the_help_says_what_each_option_takes_and_where_its_default_comes_from() {
    // `--profile` names all three profiles it takes; `--task-dir` and `--condition-dir`
    // say where their default is read from, not a path of the machine that built it.
    let sandbox = Sandbox::new();
    for command in ["", "run", "study", "tasks", "report", "conditions"] {
        let mut help = sandbox.command(eval_bin());
        help.args([command, "--help"].into_iter().filter(|a| !a.is_empty()))
            .env("COLUMNS", "100")
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let output = run_within(&mut help, RUN_LIMIT).0;
        output.assert_code(0).assert_stderr_is("");
        let name = match command {
            "" => "help".to_owned(),
            _ => format!("help_{command}"),
        };
        assert_eval_snapshot(&name, &output.stdout, &[]);
    }
}

/// An error said on a stderr nobody reads any more (the agent host closed it) still ends
/// with the command's own exit code: it was a panic's 101.
#[test]
fn an_error_on_a_closed_stderr_exits_with_its_own_code() {
    let sandbox = Sandbox::new();
    let mut tasks = sandbox.command(eval_bin());
    tasks.args(["tasks", "--task-dir", "/no/such/dir"]);
    let status = mur_e2e::exit_with_stderr_gone(&mut tasks);
    assert_eq!(status.code(), Some(1), "{status:?}");
}

/// A shell's script named relative to here (`sh agent.sh`, with `agent.sh` beside
/// mur-eval), which no run opens from its own directory, and a misspelt placeholder,
/// which every run's agent would get as typed, are refused before any run: under dash a
/// script not opened exits 2, which no early stop reads as "never started".
#[test]
fn a_relative_shell_script_or_a_misspelt_placeholder_is_refused_before_any_run() {
    let sandbox = Sandbox::new();
    std::fs::write(sandbox.root().join("agent.sh"), "exit 0\n").expect("agent.sh");
    let script = sandbox.root().join("agent.sh");
    let misspelt = format!("sh {} {{taks}}", script.display());
    assert_refused_before_any_run(
        &sandbox,
        "sh agent.sh",
        "error: the agent's script `agent.sh` (run by `sh`) is a relative path, which each \
         run resolves in its own working directory\nhint: name the agent's scripts and \
         programs by absolute path (`$PWD/…`): each run's working directory is its own\n",
    );
    // A study's own placeholders are placeholders to `study` alone.
    let placeholders = "{task}, {prompt}, {prompt_file}, {workdir}, {mcp_config}, {profile}";
    let said = |placeholders: &str| {
        format!(
            "error: the agent command has `{{taks}}`, which is no placeholder: every run's \
             agent would get it as typed\nhint: did you mean `{{task}}`? The placeholders are \
             {placeholders}\n"
        )
    };
    assert_each_refused_before_any_run(
        &sandbox,
        &misspelt,
        [
            &said(placeholders),
            &said(&format!("{placeholders}, {{condition}}, {{surface}}")),
        ],
    );
}

// Helper 415: `--repeats 0` and a negative `--seed` in mur's words; `run` refuses an empty
// `--verbs` before it makes or claims its `--out`.

/// `--repeats 0` is said as `--time-limit 0` is, and a negative `--seed` as no seed, not
/// as an unknown option (`unexpected argument `-1` found`); an empty count as mur says an
/// empty value.
#[test]
fn repeats_of_zero_and_a_negative_seed_are_said_in_murs_words() {
    let sandbox = Sandbox::new();
    for (args, said) in [
        (
            &["--repeats", "0"][..],
            "error: invalid value `0` for `--repeats <N>`: the number of repeats must be at \
             least 1\n",
        ),
        (
            &["--seed", "-1"][..],
            "error: invalid value `-1` for `--seed <N>`: a seed is a whole number from 0 to \
             18446744073709551615\n",
        ),
        // Every count of `study` is said so, a negative one too (not clap's "unexpected
        // argument `-2` found", nor its "0 is not in 1..=64").
        (
            &["--repeats", "-2"][..],
            "error: invalid value `-2` for `--repeats <N>`: the number of repeats must be at \
             least 1\n",
        ),
        (
            &["--time-limit", "-1"][..],
            "error: invalid value `-1` for `--time-limit <SECS>`: the time limit must be at \
             least 1 second\n",
        ),
        (
            &["--jobs", "-1"][..],
            "error: invalid value `-1` for `--jobs <J>`: the number of runs at once must be at \
             least 1\n",
        ),
        (
            &["--jobs", "0"][..],
            "error: invalid value `0` for `--jobs <J>`: the number of runs at once must be at \
             least 1\n",
        ),
        (
            &["--jobs", "65"][..],
            "error: invalid value `65` for `--jobs <J>`: the number of runs at once is at most \
             64\n",
        ),
        // An empty value, as mur says one (a script's `--jobs="$UNSET"`), not "`` is not a
        // whole number".
        (
            &["--jobs="][..],
            "error: `--jobs <J>` needs a value (it was given empty)\n",
        ),
        (
            &["--repeats", ""][..],
            "error: `--repeats <N>` needs a value (it was given empty)\n",
        ),
        (
            &["--time-limit="][..],
            "error: `--time-limit <SECS>` needs a value (it was given empty)\n",
        ),
    ] {
        let output = eval(
            &sandbox,
            &[&["study", "--agent", "true"][..], args].concat(),
            None,
        );
        output.assert_code(1).assert_stderr_is(said);
        assert_eq!(output.stdout, "", "{args:?}");
    }
}

/// A list option typed empty (`--tasks ''`, a script's `--conditions "$UNSET"`) is said to
/// be given empty, with what it takes, as mur says an empty value, exit 1 — for `run` and
/// `study` alike; a comma too many (`--tasks a,`) is said as that. Both were said as an
/// unknown name: `` error: no task `` (tasks: …) ``. A name option typed empty
/// (`--pass-env`, `--against`) is said to be given empty too, not as a name that is not
/// set or not a condition.
#[test]
fn an_empty_list_is_said_to_be_given_empty_with_what_it_takes() {
    let sandbox = Sandbox::new();
    let tasks = task_ids().join(", ");
    let conditions = shipped("conditions").join(", ");
    let study = &["study", "--agent", "true"][..];
    let run = &["run", "--profile", "mcp", "--agent", "true"][..];
    for (command, args, said) in [
        (
            study,
            &["--conditions", ""][..],
            format!(
                "error: `--conditions <NAMES>` needs a value (it was given empty; possible \
                 values: all, {conditions})\n"
            ),
        ),
        (
            study,
            &["--tasks="],
            format!(
                "error: `--tasks <IDS>` needs a value (it was given empty; possible values: \
                 {tasks})\n"
            ),
        ),
        (
            study,
            &["--tasks", "count-to-three,"],
            format!(
                "error: `--tasks <IDS>` holds an empty name (`count-to-three,`: a comma too \
                 many; possible values: {tasks})\n"
            ),
        ),
        (
            study,
            &["--conditions", "mcp,,both"],
            format!(
                "error: `--conditions <NAMES>` holds an empty name (`mcp,,both`: a comma too \
                 many; possible values: all, {conditions})\n"
            ),
        ),
        (
            study,
            &["--pass-env", ""],
            "error: `--pass-env <NAME>` needs a value (it was given empty)\n".to_owned(),
        ),
        (
            study,
            &["--against="],
            "error: `--against <CONDITION>` needs a value (it was given empty)\n".to_owned(),
        ),
        (
            run,
            &["--tasks", ""],
            format!(
                "error: `--tasks <IDS>` needs a value (it was given empty; possible values: \
                 {tasks})\n"
            ),
        ),
    ] {
        let out = sandbox.root().join("out");
        let out_args = ["--out", out.to_str().expect("utf-8")];
        let output = eval(&sandbox, &[command, args, &out_args].concat(), None);
        output.assert_code(1).assert_stderr_is(said);
        assert_eq!(output.stdout, "", "{args:?}");
        assert!(!out.exists(), "{args:?}: --out made");
    }
}

/// `report`'s study directory typed empty (`mur-eval report "$DIR"`, the variable unset)
/// is said to be given empty, as an option's empty value is, exit 1: clap said "a value is
/// required for `<DIR>` but none was supplied", which reads as the word left out.
#[test]
fn an_empty_study_directory_is_said_to_be_given_empty() {
    let sandbox = Sandbox::new();
    for args in [&["report", ""][..], &["report", "--html", "page.html", ""]] {
        let output = eval(&sandbox, args, None);
        output
            .assert_code(1)
            .assert_stderr_is("error: `<DIR>` needs a value (it was given empty)\n");
        assert_eq!(output.stdout, "", "{args:?}");
    }
}

/// `run --profile cli` with a `--verbs` directory that holds no verb is refused before its
/// `--out` is made or claimed: it left an `--out` holding its lock and record alone. Nor is
/// the default directory made as it was named left behind.
#[test]
fn a_run_refused_for_its_verbs_leaves_no_out() {
    let sandbox = Sandbox::new();
    let empty = sandbox.dir("no-verbs");
    let out = sandbox.root().join("out");
    let said = format!(
        "error: no verb files (`*.wasm`, `*.json`) in `{}`\n\
         hint: build the standard verbs (`bash plugins/build.sh`) and pass `--verbs \
         plugins/target/wasm32-unknown-unknown/release`, or install them (`bash \
         scripts/setup.sh`)\n",
        empty.display()
    );
    let cwd = sandbox.dir("cwd");
    for given in [true, false] {
        let mut run = sandbox.command(eval_bin());
        run.args(["run", "--profile", "cli", "--agent", "true"])
            .args(["--tasks", "count-to-three", "--verbs"])
            .arg(&empty)
            .current_dir(&cwd)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if given {
            run.arg("--out").arg(&out);
        }
        let output = run_within(&mut run, RUN_LIMIT).0;
        output.assert_code(1).assert_stderr_is(&said);
        assert_eq!(output.stdout, "", "--out given: {given}");
    }
    assert!(!out.exists(), "--out made");
    assert_no_default_out(&cwd);
}
