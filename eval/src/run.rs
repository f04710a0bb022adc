//! One run: every selected task under one profile, each in a directory of its own under
//! the output directory — a fresh session, the setup, the agent, the checks — and the
//! report over them. An output directory an earlier run wrote is cleared of what it wrote
//! first ([`outdir`]), so every figure comes from this run.
//!
//! A task's directory is its transcript: `prompt.md`, `agent.stdout` and `agent.stderr`
//! side by side with `calls.jsonl` (the session's records of the agent's calls),
//! `usage.jsonl` (every call the session served, the harness's own included),
//! `session.log`, `work/` (the agent's working directory) and `record.json`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use mur_core::{Error, Result};
use serde_json::Value;

use crate::agent::{self, Invocation};
use crate::checker::{self, Checker};
use crate::default_out::DefaultOut;
use crate::oracle;
use crate::outdir;
use crate::profile::{self, MCP_CONFIG, Prepared, Profile};
use crate::record::{CheckResult, Report, RunRecord};
use crate::session::{Serving, Session};
use crate::task::{Check, CheckKind, Task};
use crate::usage::{self, Calls, Invocations};
use mur_usage::round2;

/// Everything a run needs, validated.
pub struct Plan {
    pub profile: Profile,
    pub agent: String,
    pub tasks: Vec<Task>,
    pub out: PathBuf,
    /// The default directory made as `out` was named (`mur-eval-out/<profile>-<time>`),
    /// when no `--out` was given: removed as the plan is dropped if the run wrote nothing
    /// there (it was refused first).
    pub _made_out: Option<DefaultOut>,
    /// The verb components installed for the agent (cli profile).
    pub verbs: PathBuf,
    pub runner: Runner,
}

/// How each run is made, the same for `mur-eval run` and a study's conditions.
#[derive(Debug, Clone)]
pub struct Runner {
    /// The agent's time limit unless a task sets its own.
    pub time_limit: Duration,
    /// `--time-limit` given: it overrides the tasks' own.
    pub time_limit_forced: bool,
    pub mur: PathBuf,
    pub sample: PathBuf,
    /// Environment variables passed through to the agent (`--pass-env`).
    pub pass_env: Vec<(OsString, OsString)>,
}

impl Runner {
    /// The agent's `HOME` when it is mur-eval's own (`--pass-env HOME`, set here), which
    /// a `~/` in its command leads to; `None`: each run's own ([`agent_env`]).
    pub fn agent_home(&self) -> Option<&Path> {
        self.pass_env
            .iter()
            .rev()
            .find(|(name, _)| name == "HOME")
            .map(|(_, home)| Path::new(home))
    }

    /// [`agent::check_program`] of `command` (`more`, the caller's own placeholders) on
    /// the `PATH` and `HOME` its agent runs with: its warnings, or why no run would start
    /// it.
    pub fn check_agent(&self, command: &str, more: &[&str]) -> Result<Vec<String>> {
        let path = profile::agent_path(std::env::var_os("PATH"), &self.mur);
        agent::check_program(command, &path, self.agent_home(), more)
    }
}

/// What a study adds to a run (none for `mur-eval run`): files for the agent's working
/// directory (the condition's instructions), variables for its environment, and the MCP
/// client configuration's file and server name.
#[derive(Debug, Clone, Default)]
pub struct Extras {
    pub files: Vec<(String, String)>,
    pub env: Vec<(OsString, OsString)>,
    pub mcp: Option<(String, String)>,
}

/// Runs every task of `plan`; `progress` hears about each run as it ends.
pub fn run(plan: &Plan, progress: &mut dyn FnMut(&str)) -> Result<Report> {
    check_before_out(plan, progress)?;
    let out = absolute(&plan.out)?;
    // Held until the run ends: a second run into this directory is refused.
    let _in_use = outdir::claim(&out, &plan.tasks, &plan.runner.sample, progress)?;
    let store = out.join(crate::compiled::STORE);
    let prepared = profile::prepare(
        plan.profile,
        &out,
        std::env::var_os("PATH"),
        &plan.runner.mur,
        &[&plan.verbs],
        &store,
        &mut |dir| progress(&crate::compiled::installing(dir, &store)),
    )?;
    for warning in &prepared.warnings {
        progress(&format!("warning: {warning}"));
    }
    let checker = Checker::new()?;
    let mut runs = Vec::new();
    for (index, task) in plan.tasks.iter().enumerate() {
        let dir = out.join(&task.id);
        let harness = Harness {
            plan,
            prepared: &prepared,
            checker: &checker,
            extras: &Extras::default(),
        };
        let record = run_task(&harness, task, &dir);
        // Stored relative to `out`, as the report is: the directory can be moved.
        write_json(&dir.join("record.json"), &record.stored_in(&out))?;
        progress(&format!(
            "[{}/{}] {}: {}",
            index + 1,
            plan.tasks.len(),
            task.id,
            outcome(&record)
        ));
        runs.push(record);
    }
    let report = Report::new(plan.profile, &plan.agent, out.clone(), runs);
    write_json(&out.join(outdir::REPORT), &report.stored())?;
    Ok(report)
}

/// Refuses, before the run's `--out` is made or claimed (its lock, its record), what a
/// run can tell is wrong without running anything: an agent command that runs no agent,
/// and a verb directory (cli) that is missing or empty. A refused run left an `--out`
/// holding its lock alone, as a study's did ([`crate::study`]).
fn check_before_out(plan: &Plan, progress: &mut dyn FnMut(&str)) -> Result<()> {
    if let Some(warning) = agent::check_command(&plan.agent, plan.profile)? {
        progress(&format!("warning: {warning}"));
    }
    for warning in plan.runner.check_agent(&plan.agent, &[])? {
        progress(&format!("warning: {warning}"));
    }
    if plan.profile.gives_cli() {
        crate::compiled::check_dir(&plan.verbs, crate::compiled::STANDARD_VERBS_HINT)?;
    }
    Ok(())
}

/// What a task's progress line says of it: `pass` or `FAIL` with its figures (after how
/// the agent ended, when not well: `FAIL (agent exit 1; 0 calls, …)`), or, for a task the
/// harness could not run (no agent ran, so no figures), `ERROR, not run` and why — as a
/// study's progress says it.
fn outcome(record: &RunRecord) -> String {
    if let Some(error) = &record.error {
        return format!(
            "ERROR, not run: {}",
            error.lines().next().unwrap_or_default()
        );
    }
    let start = agent::ended_badly(record.agent_exit, record.timed_out);
    format!(
        "{} ({start}{} call{}, {:.2} s)",
        if record.completed { "pass" } else { "FAIL" },
        record.calls.total,
        if record.calls.total == 1 { "" } else { "s" },
        record.wall_ms / 1000.0
    )
}

/// What every task of one profile shares: the plan, the prepared profile, the checker
/// and what a study adds.
pub struct Harness<'a> {
    pub plan: &'a Plan,
    pub prepared: &'a Prepared,
    pub checker: &'a Checker,
    pub extras: &'a Extras,
}

/// One task; a failure of the harness itself is recorded in the run, not raised.
pub fn run_task(harness: &Harness, task: &Task, dir: &Path) -> RunRecord {
    let plan = harness.plan;
    let mut record = RunRecord {
        task: task.id.clone(),
        title: task.title.clone(),
        categories: task.categories.clone(),
        profile: plan.profile,
        completed: false,
        checks: Vec::new(),
        calls: Calls::default(),
        invocations: None,
        agent_exit: None,
        timed_out: false,
        wall_ms: 0.0,
        transcript: dir.to_owned(),
        error: None,
        notes: Vec::new(),
    };
    if let Err(error) = attempt(harness, task, dir, &mut record) {
        record.error = Some(error.message().to_owned());
        record.completed = false;
    }
    // The run's agent and session ended and their leftovers killed: what of theirs
    // exited on its own, outside their groups (no marker, or gone before the kill), is
    // mur-eval's, a subreaper, and stays a zombie until reaped — a study of thousands of
    // runs would gather them. Never a `Child`'s (`mur_procs::spawn`): with `--jobs`,
    // another run's agent and session are listed as theirs.
    mur_procs::reap_adopted();
    // The verbs copied in for the agent are the installation's, not what it did: tens
    // of MB of compiled code a run, which `--out` would keep and a study publish.
    for copied in [DATA, CACHE] {
        let _ = std::fs::remove_dir_all(dir.join(copied));
    }
    record
}

/// The task's own `XDG_DATA_HOME` and `XDG_CACHE_HOME`, in its directory while it runs:
/// a copy of the verbs installed for it (CLI), else empty.
const DATA: &str = "data";
const CACHE: &str = "cache";

fn attempt(harness: &Harness, task: &Task, dir: &Path, record: &mut RunRecord) -> Result<()> {
    let Harness {
        plan,
        prepared,
        checker,
        extras,
    } = *harness;
    let work = dir.join("work");
    let runtime = dir.join("run");
    for d in [
        &work,
        &dir.join("home"),
        &dir.join("state"),
        &dir.join("tmp"),
    ] {
        crate::tree::create_dir(d)?;
    }
    ensure_private(&runtime)?;
    let (data, cache) = (dir.join(DATA), dir.join(CACHE));
    match &prepared.verbs {
        Some(installed) => installed.copy_to(&data, &cache)?,
        None => [&data, &cache]
            .into_iter()
            .try_for_each(|d| crate::tree::create_dir(d))?,
    }
    for (name, text) in &extras.files {
        write(&work.join(name), text.as_bytes())?;
    }
    let prompt_file = dir.join("prompt.md");
    write(&prompt_file, task.prompt.as_bytes())?;
    let usage_log = dir.join("usage.jsonl");
    let session = Session::start(&plan.runner.sample, dir, &runtime, &usage_log)?;
    let endpoint = session.endpoint().to_owned();
    set_up(checker, &endpoint, task)?;
    let before = usage::read(&usage_log).map_err(Error::internal)?.len();
    let (file, server) = extras
        .mcp
        .clone()
        .unwrap_or_else(|| (MCP_CONFIG.to_owned(), profile::MCP_SERVER.to_owned()));
    let mcp_config = plan.profile.gives_mcp().then(|| work.join(file));
    if let Some(path) = &mcp_config {
        write_json(path, &profile::mcp_config(&endpoint, &server))?;
    }
    let invocation = Invocation {
        command: &plan.agent,
        profile: plan.profile,
        task: &task.id,
        prompt: &task.prompt,
        prompt_file: &prompt_file,
        workdir: &work,
        mcp_config: mcp_config.as_deref(),
        env: agent_env(
            plan,
            prepared,
            task,
            dir,
            mcp_config.as_deref(),
            &extras.env,
        ),
        output_cap: agent::OUTPUT_CAP,
        stdout: dir.join("agent.stdout"),
        stderr: dir.join("agent.stderr"),
        limit: time_limit(plan, task),
        group: Some(dir.join(crate::group::FILE)),
    };
    let ended = agent::run(&invocation)?;
    record.agent_exit = ended.exit;
    record.timed_out = ended.timed_out;
    record.wall_ms = round2(ended.wall.as_secs_f64() * 1000.0);
    record.notes = ended.notes;
    count_calls(plan, dir, before, record)?;
    let judged = Judged {
        checker,
        serving: session.serving().map_err(|e| e.message().to_owned()),
        first_pid: session.first_pid,
        work: &work,
    };
    record.checks = task.checks.iter().map(|c| judged.check(c)).collect();
    record.completed = record.checks.iter().all(|check| check.passed);
    session.stop();
    Ok(())
}

/// The task's setup calls, made by the harness before the agent starts.
fn set_up(checker: &Checker, endpoint: &str, task: &Task) -> Result<()> {
    for call in &task.setup {
        checker
            .call(endpoint, &call.tool, &call.args)
            .map_err(|why| {
                Error::internal(format!("task `{}`: setup call failed: {why}", task.id))
            })?;
    }
    Ok(())
}

/// mur's own usage log in a task's directory (cli and both profiles: the agent's
/// `XDG_STATE_HOME` is the directory's `state`).
pub const MUR_LOG: &str = "state/mur/usage/usage.jsonl";

/// The agent's calls — the session's records written after the setup (the first
/// `before`) and before the checks — into `record` and `calls.jsonl`; under the CLI
/// profile also mur's own records of its invocations.
fn count_calls(plan: &Plan, dir: &Path, before: usize, record: &mut RunRecord) -> Result<()> {
    let records = usage::read(&dir.join("usage.jsonl")).map_err(Error::internal)?;
    let agents = records.get(before..).unwrap_or_default();
    record.calls = Calls::of(agents);
    let lines: String = agents
        .iter()
        .filter_map(|r| serde_json::to_string(r).ok())
        .map(|line| line + "\n")
        .collect();
    crate::write::record(&dir.join("calls.jsonl"), lines.as_bytes())?;
    if plan.profile.gives_cli() {
        let log = dir.join(MUR_LOG);
        let records = usage::read(&log).map_err(Error::internal)?;
        record.invocations = Some(Invocations::of(&records));
    }
    Ok(())
}

/// The agent's whole environment: the profile's `PATH`, a home and XDG directories of
/// the task's own (its copy of the installed verbs among them), what the task is, and
/// the variables `--pass-env` names.
fn agent_env(
    plan: &Plan,
    prepared: &Prepared,
    task: &Task,
    dir: &Path,
    mcp_config: Option<&Path>,
    extra: &[(OsString, OsString)],
) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = vec![
        ("PATH".into(), prepared.path.clone()),
        ("HOME".into(), dir.join("home").into()),
        ("XDG_RUNTIME_DIR".into(), dir.join("run").into()),
        // The run's own: mur's readers search `$TMPDIR/reactor-devtools-<uid>` too, where
        // a session of this machine started without `XDG_RUNTIME_DIR` announces itself,
        // and the agent must find the run's session alone.
        ("TMPDIR".into(), dir.join("tmp").into()),
        ("XDG_STATE_HOME".into(), dir.join("state").into()),
        ("XDG_DATA_HOME".into(), dir.join(DATA).into()),
        ("XDG_CACHE_HOME".into(), dir.join(CACHE).into()),
        ("MUR_EVAL_TASK".into(), task.id.clone().into()),
        ("MUR_EVAL_PROFILE".into(), plan.profile.name().into()),
        ("MUR_EVAL_PROMPT_FILE".into(), dir.join("prompt.md").into()),
    ];
    if let Some(config) = mcp_config {
        env.push(("MUR_EVAL_MCP_CONFIG".into(), config.into()));
    }
    env.extend(extra.iter().cloned());
    env.extend(plan.runner.pass_env.iter().cloned());
    env
}

fn time_limit(plan: &Plan, task: &Task) -> Duration {
    match task.time_limit {
        Some(own) if !plan.runner.time_limit_forced => own,
        _ => plan.runner.time_limit,
    }
}

/// The session the checks read: the one serving now (a reload's successor, once it has
/// announced itself), looked up once; or why there is none, which fails every check.
struct Judged<'a> {
    checker: &'a Checker,
    serving: std::result::Result<Serving, String>,
    first_pid: u32,
    work: &'a Path,
}

impl Judged<'_> {
    /// One check against the app as it is now.
    fn check(&self, check: &Check) -> CheckResult {
        let outcome = self.serving.clone().and_then(|lock| match &check.kind {
            CheckKind::Value {
                call,
                pointer,
                expect,
            } => {
                let result = self.checker.call(&lock.endpoint, &call.tool, &call.args)?;
                oracle::judge(
                    expect,
                    mur_client::tool_result::payload(&result).pointer(pointer),
                )
            }
            CheckKind::Reloaded(wanted) => self.reloaded(&lock, *wanted),
            CheckKind::Screenshot { file, args } => {
                self.same_screenshot(&lock, &self.work.join(file), args)
            }
        });
        CheckResult {
            what: check.what.clone(),
            passed: outcome.is_ok(),
            seen: outcome.err(),
        }
    }

    fn reloaded(&self, lock: &Serving, wanted: bool) -> std::result::Result<(), String> {
        let reloaded = lock.pid != self.first_pid;
        match (reloaded, wanted) {
            (true, true) | (false, false) => Ok(()),
            (true, false) => Err(format!(
                "the app was restarted (pid {} → {})",
                self.first_pid, lock.pid
            )),
            (false, true) => Err(format!(
                "the app was not restarted (still pid {})",
                lock.pid
            )),
        }
    }

    /// The file is a PNG of what `screenshot` with `args` shows now.
    fn same_screenshot(
        &self,
        lock: &Serving,
        file: &Path,
        args: &Value,
    ) -> std::result::Result<(), String> {
        // The agent's file: a FIFO is refused, not waited on, and a file past the cap is
        // no screenshot of the app's.
        let read = crate::bounded::read(file, SCREENSHOT_CAP)?;
        if read.cut {
            return Err(format!(
                "`{}` is larger than {}: not a screenshot of the app",
                file.display(),
                mur_core::settings::human_bytes(SCREENSHOT_CAP)
            ));
        }
        let saved = oracle::decode_png(&read.bytes)?;
        let result = self.checker.call(&lock.endpoint, "screenshot", args)?;
        let now = oracle::decode_png(&checker::image_of(&result)?)?;
        oracle::same_picture(&saved, &now)
    }
}

/// The largest screenshot file the checks read.
const SCREENSHOT_CAP: u64 = 64 << 20;

fn absolute(path: &Path) -> Result<PathBuf> {
    std::path::absolute(path)
        .map_err(|e| Error::internal(format!("cannot resolve `{}`: {e}", path.display())))
}

/// The session's lockfile directory lives here: private and this user's, as the lockfile
/// contract wants (the project's one check of a private directory).
pub fn ensure_private(dir: &Path) -> Result<()> {
    mur_lockfile::ensure_private_dir(dir, "the session's lockfile directory")
        .map_err(Error::internal)
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes)
        .map_err(|e| Error::internal(format!("cannot write `{}`: {e}", path.display())))
}

fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<()> {
    let mut text = serde_json::to_string_pretty(value)
        .map_err(|e| Error::internal(format!("cannot serialize `{}`: {e}", path.display())))?;
    text.push('\n');
    crate::write::record(path, text.as_bytes())
}
