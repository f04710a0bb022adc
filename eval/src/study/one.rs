//! One run of a study: the task run as `mur-eval run` makes it, with the condition's
//! instructions, MCP configuration and capture, then measured — the oracle's verdict,
//! calls by surface and outside the verb set, the agent's own report, the context.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::live::{LIVE_ROOT_PREFIX, Live};
use super::plan::{Planned, Study, id, run_dir};
use super::prepare::Ready;
use super::result::{Checks, RunCalls, RunResult};
use super::{context, traces};
use crate::adapters;
use crate::checker::Checker;
use crate::condition::Condition;
use crate::record::RunRecord;
use crate::run::{self, Extras};
use crate::usage;

/// The most of the agent's stdout that is read for its event stream: all that is kept.
const STDOUT_CAP: u64 = crate::agent::OUTPUT_CAP;

/// The file, in a run's directory in `out`, naming the directory the run is made in
/// while it runs ([`run_one`]): what a resumed study stops a killed run's leftovers in.
const LIVE_FILE: &str = "live";

/// What every run of a study is made with: the study, its prepared conditions, the
/// checker of the thread that makes the run, the study's folder, and where runs are
/// made while they run.
#[derive(Clone, Copy)]
pub struct Making<'a> {
    pub study: &'a Study,
    pub ready: &'a [Option<Ready>],
    pub checker: &'a Checker,
    pub out: &'a Path,
    pub live: &'a Live,
}

/// One run, measured; a failure of the harness is recorded in the result. It is made in
/// a directory of its own under `live`'s, outside `out`, and moved into `out` once the
/// agent and the checks are done: an agent that looks around (`ls ../..`) finds no other
/// run's files, and no path its environment names leads into the study. A run a signal
/// stops is neither begun nor moved in (its result is not recorded). A panic of
/// mur-eval's own while making or measuring it (a bug) is recorded as the run's
/// harness error, made again on resume, not the end of the study.
pub fn run_one(making: &Making<'_>, planned: &Planned) -> RunResult {
    guarded(
        || make(making, planned),
        || unmade(making.study, making.out, planned),
    )
}

/// What `make` returns; if it panics, `unmade` with the panic as its harness error. The
/// session and the run's temporary directory are dropped (stopped, removed) as the
/// panic unwinds.
fn guarded(make: impl FnOnce() -> RunResult, unmade: impl FnOnce() -> RunResult) -> RunResult {
    let panic = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(make)) {
        Ok(result) => return result,
        Err(panic) => panic,
    };
    let why = mur_lockfile::panic_message(&*panic);
    let mut result = unmade();
    result.error = Some(format!(
        "mur-eval failed making or measuring this run (a bug in mur-eval): {why}"
    ));
    result
}

/// The run's record before anything is made.
fn unmade(study: &Study, out: &Path, planned: &Planned) -> RunResult {
    let condition = &study.conditions[planned.condition];
    let task = &study.tasks[planned.task];
    RunResult {
        categories: task.categories.clone(),
        order: planned.order,
        ..RunResult::unmade(
            id(study, planned),
            condition.name.clone(),
            condition.surface,
            task.id.clone(),
            planned.repeat,
            run_dir(study, out, planned),
        )
    }
}

fn make(making: &Making<'_>, planned: &Planned) -> RunResult {
    let mut result = started(making, planned);
    if let Err(why) = make_and_measure(making, planned, &mut result) {
        result.error = Some(why);
    }
    result
}

/// The run's record as it starts: what it is made with, and when. Its directory in
/// `out` is cleared first.
fn started(making: &Making<'_>, planned: &Planned) -> RunResult {
    let Making { study, out, .. } = *making;
    let condition = &study.conditions[planned.condition];
    let task = &study.tasks[planned.task];
    // A run cut short by a kill left its directory (its session was stopped when the
    // study started again): it is made again from nothing.
    let _ = std::fs::remove_dir_all(run_dir(study, out, planned));
    let mut result = unmade(study, out, planned);
    result.agent_command = Some(study.agent.clone());
    result.task_sha256 = Some(task.sha256.clone());
    result.condition_sha256 = Some(condition.sha256.clone());
    result.started_at = Some(mur_lockfile::rfc3339_millis(time::OffsetDateTime::now_utc()));
    result
}

/// The run made under `live`'s directory, moved into its own in `out`, and measured
/// into `result`; why not, where the harness could not make it or move it in.
fn make_and_measure(
    making: &Making<'_>,
    planned: &Planned,
    result: &mut RunResult,
) -> Result<(), String> {
    let Making {
        study, ready, live, ..
    } = *making;
    let condition = &study.conditions[planned.condition];
    let ready = ready
        .get(planned.condition)
        .and_then(Option::as_ref)
        .ok_or_else(|| "the condition was not prepared".to_owned())?;
    result.verbs = ready.verbs.clone();
    let dir = run_dir(study, making.out, planned);
    let made = made_live(live, &dir)?;
    let instructions = instructions(condition, planned.swapped, result);
    let mut record = run_agent(making, ready, planned, &instructions, made.path());
    moved_in(live, made, &dir, &mut record)?;
    let run = Made {
        out: making.out,
        condition,
        format: study.agent_format.or(condition.agent_format),
        dir: &dir,
        instructions: &instructions,
        schemas: ready.schemas.as_deref(),
    };
    measure(&run, &record, result);
    Ok(())
}

/// The condition's instructions, in this run's order where it counterbalances them
/// (the surface it lists first recorded in `result`).
fn instructions(condition: &Condition, swapped: bool, result: &mut RunResult) -> String {
    let Some(order) = &condition.counterbalanced else {
        return condition.instructions.clone();
    };
    let (text, first) = order.text(swapped);
    result.listed_first = Some(first);
    text
}

/// The task run in `made` as `mur-eval run` runs it, with what the study adds.
fn run_agent(
    making: &Making<'_>,
    ready: &Ready,
    planned: &Planned,
    instructions: &str,
    made: &Path,
) -> RunRecord {
    let study = making.study;
    let condition = &study.conditions[planned.condition];
    let mut extras = extras(condition, instructions, planned.repeat, made);
    extras
        .env
        .push(("MUR_AGENT".into(), agent_name(&study.agent).into()));
    let harness = run::Harness {
        plan: &ready.plan,
        prepared: &ready.prepared,
        checker: making.checker,
        extras: &extras,
    };
    run::run_task(&harness, &study.tasks[planned.task], made)
}

/// The run's files moved from `made` into its directory `dir` ([`move_in`]), and what
/// `record` says of them made to name them there.
fn moved_in(
    live: &Live,
    made: tempfile::TempDir,
    dir: &Path,
    record: &mut RunRecord,
) -> Result<(), String> {
    // The session is stopped and the agent's group gone: its files join the study's, and
    // what the record says of them names them there.
    let made_in = made.path().to_string_lossy().into_owned();
    move_in(live, made, dir)?;
    let moved = |text: &mut String| *text = text.replace(&made_in, &dir.to_string_lossy());
    record
        .checks
        .iter_mut()
        .filter_map(|c| c.seen.as_mut())
        .for_each(moved);
    if let Some(error) = record.error.as_mut() {
        moved(error);
    }
    record.transcript = dir.to_owned();
    Ok(())
}

/// A run made and moved into its directory, as it is measured.
struct Made<'a> {
    /// The study's directory.
    out: &'a Path,
    condition: &'a Condition,
    /// How the agent's stdout is read (`--agent-format`, else the condition's).
    format: Option<adapters::Format>,
    dir: &'a Path,
    /// What the agent was told, in this run's order.
    instructions: &'a str,
    /// The tool schemas the condition's client loads (mcp).
    schemas: Option<&'a str>,
}

/// The run measured into `result`: what its record says, its calls, the agent's own
/// report and the context; `record.json` and `trace.md` written in its directory.
fn measure(run: &Made<'_>, record: &RunRecord, result: &mut RunResult) {
    from_record(record, result);
    // Read once: the first surface, the context and the trace are each made from it.
    let recorded = context::Recorded::read(run.dir);
    count_calls(run, record, &recorded, result);
    result.agent = run
        .format
        .map(|format| agent_report(format, run.dir, &mut result.notes));
    write_record(run.out, run.dir, record);
    result.context = context::measure(
        &recorded,
        run.instructions,
        run.schemas,
        result.agent.as_ref(),
        result.calls.mcp,
    );
    // For the people reading it; a trace that cannot be written costs the run nothing.
    let _ = traces::write_trace(result, &traces::steps(&recorded, result.agent.as_ref()));
    result.notes.extend(recorded.notes);
}

/// What the run's record says: whether the task was completed, its checks, the agent's
/// invocations, how long it ran and how it ended, the harness's error and notes.
fn from_record(record: &RunRecord, result: &mut RunResult) {
    result.success = record.completed;
    result.checks = Checks {
        passed: record.checks.iter().filter(|c| c.passed).count() as u32,
        total: record.checks.len() as u32,
    };
    result.invocations = record.invocations.clone();
    result.wall_ms = record.wall_ms;
    result.agent_exit = record.agent_exit;
    result.timed_out = record.timed_out;
    result.error = record.error.clone();
    result.notes.extend(record.notes.iter().cloned());
}

/// The run's calls, counted from the session's records of them (`calls.jsonl`) and the
/// agent's `recorded` invocations, and the lines those hold; which installed verbs the
/// agent invoked.
fn count_calls(
    run: &Made<'_>,
    record: &RunRecord,
    recorded: &context::Recorded,
    result: &mut RunResult,
) {
    let served = usage::read(&run.dir.join("calls.jsonl")).unwrap_or_default();
    result.calls = calls(&served, &record.calls, run.condition, &recorded.captured);
    // Which installed verbs the agent invoked, where the condition installs some: what
    // the report says no run called (the operator prunes verbs, not tools).
    if result.verbs.is_some() {
        let own = usage::read(&run.dir.join(run::MUR_LOG)).unwrap_or_default();
        result.verbs_called = Some(usage::verbs_called(&own, &served));
        let (derived, call) = usage::reached_otherwise(&own, &served);
        result.derived_called = Some(derived);
        result.call_invocations = Some(call);
    }
    result.agent_lines = Some((recorded.captured.len() + recorded.logged.len()) as u32);
}

/// The agent's own report (turns, tokens, cost), read from its stdout in `dir` as
/// `format`; what could not be read, or held no event, said in `notes`.
fn agent_report(
    format: adapters::Format,
    dir: &Path,
    notes: &mut Vec<String>,
) -> adapters::AgentReport {
    let stdout = agent_stdout(dir, notes);
    let report = adapters::read(format, &stdout);
    if report.no_events {
        notes.push(no_events_note(format));
    }
    notes.extend(report.notes.iter().cloned());
    report
}

/// The agent's stdout in `dir`, up to [`STDOUT_CAP`]; a cut or a failed read said in
/// `notes`.
fn agent_stdout(dir: &Path, notes: &mut Vec<String>) -> String {
    // Read lossily: one byte that is not UTF-8 (a stream cut mid-character at the time
    // limit) must not lose the rest of it.
    match crate::bounded::read(&dir.join("agent.stdout"), STDOUT_CAP) {
        Ok(read) => {
            if read.cut {
                notes.push(format!(
                    "`agent.stdout` is larger than {}: only its first {} were read",
                    mur_core::settings::human_bytes(STDOUT_CAP),
                    mur_core::settings::human_bytes(STDOUT_CAP)
                ));
            }
            String::from_utf8_lossy(&read.bytes).into_owned()
        }
        Err(why) => {
            notes.push(format!("`agent.stdout` not read: {why}"));
            String::new()
        }
    }
}

/// The run's `record.json` written in `dir`, where the trace is written after; its
/// `transcript` relative to the study's directory `out`, as `results.jsonl` has it.
fn write_record(out: &Path, dir: &Path, record: &RunRecord) {
    let record = &record.stored_in(out);
    // The agent may have left anything under these names (a FIFO would hold the write):
    // each is made anew.
    for name in ["record.json", traces::TRACE_FILE] {
        let _ = std::fs::remove_file(dir.join(name));
    }
    if let Ok(text) = serde_json::to_string_pretty(record) {
        let _ = crate::write::record(&dir.join("record.json"), (text + "\n").as_bytes());
    }
}

/// The note of a run whose stdout held no event of the `--agent-format` given: its
/// turns, tokens and cost are unknown because nothing was read — most often an agent
/// not told to write its stream.
pub fn no_events_note(format: adapters::Format) -> String {
    format!(
        "`--agent-format {}` was given, but `agent.stdout` held no event of it: {}",
        format.name(),
        adapters::NO_EVENTS_HINT
    )
}

/// The name mur's records give the agent (`MUR_AGENT`): its command's program, as the
/// command names it (`claude`, `codex`, `bash`). Without it mur would name its parent,
/// the capture wrapper, cut by the kernel to `mur-eval-captur`. A `--pass-env
/// MUR_AGENT` of the operator's own comes later in the environment and wins.
fn agent_name(command: &str) -> String {
    shlex::split(command)
        .and_then(|words| words.into_iter().find(|w| !w.contains('=')))
        .and_then(|program| {
            Path::new(&program)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "mur-eval-agent".to_owned())
}

/// What a study adds to the run: the instructions file (`instructions`, the condition's
/// in this run's order), the condition's MCP client configuration, which repeat it is,
/// and where the capture and the agent's transcript go.
fn extras(condition: &Condition, instructions: &str, repeat: u32, dir: &Path) -> Extras {
    let mut env: Vec<(OsString, OsString)> = vec![
        ("MUR_EVAL_CONDITION".into(), condition.name.clone().into()),
        ("MUR_EVAL_REPEAT".into(), repeat.to_string().into()),
        (
            "MUR_EVAL_TRANSCRIPT".into(),
            dir.join(context::TRANSCRIPT_FILE).into(),
        ),
    ];
    if condition.surface.gives_cli() {
        env.push((
            "MUR_EVAL_CAPTURE".into(),
            dir.join(context::CAPTURE_FILE).into(),
        ));
    }
    Extras {
        env,
        files: vec![(condition.instructions_file.clone(), instructions.to_owned())],
        mcp: condition
            .mcp
            .as_ref()
            .map(|m| (m.file.clone(), m.server.clone())),
    }
}

/// The run's calls, with those outside the condition's verb set counted from the
/// session's records of the agent's calls (mur names each call's verb kind), and the
/// surface first reached for, from those records and the `captured` invocations.
fn calls(
    records: &[mur_usage::Record],
    counted: &usage::Calls,
    condition: &Condition,
    captured: &[context::Captured],
) -> RunCalls {
    let off_condition = records
        .iter()
        .filter(|r| r.surface == mur_usage::Surface::Cli)
        .filter(|r| !condition.verbs.as_ref().is_none_or(|v| v.allows(r.kind)))
        .count() as u32;
    RunCalls {
        total: counted.total,
        cli: counted.cli,
        mcp: counted.mcp,
        first_surface: first_surface(records, captured),
        failed: counted.failed,
        other_surface: counted.on_other_surface(condition.surface),
        off_condition,
        tools: counted.tools.clone(),
    }
}

/// The surface the agent reached for first, where the condition offered both: its first
/// `mur` command as the capture recorded it — whatever it was, the guide, `--help`, argv a
/// verb refused or a call — or its first call the session served, whichever came first.
/// (Its first call alone would miss every `mur` command that never reached the session.)
fn first_surface(
    records: &[mur_usage::Record],
    captured: &[context::Captured],
) -> Option<mur_usage::Surface> {
    // Record times are UTC RFC 3339 with milliseconds, which compare as strings.
    let served = records
        .iter()
        .min_by(|a, b| a.time.cmp(&b.time))
        .map(|r| (r.time.clone(), r.surface));
    let ran = captured
        .iter()
        .filter_map(|c| c.time)
        .min_by(f64::total_cmp)
        .and_then(|ms| time::OffsetDateTime::from_unix_timestamp_nanos((ms * 1e6) as i128).ok())
        .map(|at| (mur_lockfile::rfc3339_millis(at), mur_usage::Surface::Cli));
    match (served, ran) {
        // The command starts before the session records its call: a tie is the CLI's.
        (Some(served), Some(ran)) if served.0 < ran.0 => Some(served.1),
        (_, Some(ran)) => Some(ran.1),
        (served, None) => served.map(|s| s.1),
    }
}

/// The run, whose directory in `out` is `dir`, begun: that directory made, with a fresh
/// one under `live`'s to make the run in, named in `dir`'s [`LIVE_FILE`] before anything
/// runs there. Refused once a signal is stopping the study.
fn made_live(live: &Live, dir: &Path) -> Result<tempfile::TempDir, String> {
    let mut begun = live.changing().ok_or(STOPPED)?;
    // Begun from here: a stop (or the study's end) before it is recorded removes `dir`.
    begun.insert(dir.to_owned());
    crate::tree::create_dir(dir).map_err(|e| e.message().to_owned())?;
    let made = tempfile::Builder::new()
        .prefix(RUN_PREFIX)
        .tempdir_in(live.root())
        .map_err(|e| {
            format!(
                "cannot make the run's directory in `{}`: {e}",
                live.root().display()
            )
        })?;
    crate::write::record(
        &dir.join(LIVE_FILE),
        made.path().to_string_lossy().as_bytes(),
    )
    .map_err(|e| e.message().to_owned())?;
    Ok(made)
}

/// Why a run was not begun or moved in (never recorded: a signal is stopping the study).
const STOPPED: &str = "stopped by a signal";

/// The files of the run made in `made` moved into its directory `dir` (renamed, or
/// copied where `made` is on another file system), `made` then removed. Refused once a
/// signal is stopping the study, whose cleanup removes them.
fn move_in(live: &Live, made: tempfile::TempDir, dir: &Path) -> Result<(), String> {
    let _changing = live.changing().ok_or(STOPPED)?;
    let _ = std::fs::remove_file(dir.join(LIVE_FILE));
    let moving = made.keep();
    let moved = std::fs::rename(&moving, dir).or_else(|_| {
        crate::tree::copy(&moving, dir)?;
        std::fs::remove_dir_all(&moving)
    });
    moved.map_err(|e| {
        format!(
            "cannot move the run's files from `{}` to `{}`: {e}",
            moving.display(),
            dir.display()
        )
    })
}

/// Stops what a run killed mid-way left running: in its directory `dir`, and in the one
/// it was being made in, which [`LIVE_FILE`] names. Returns that one's study's temporary
/// directory, for the caller to remove once every run's leftovers are stopped (the study
/// that made it is gone, as this one holds `out`); and whether anything was left running
/// to stop.
pub fn stop_left_running(dir: &Path, sample: &Path) -> (bool, Option<PathBuf>) {
    let stopped = crate::outdir::stop_left_running(dir, sample);
    let Some(live) = named_in(&dir.join(LIVE_FILE)) else {
        return (stopped, None);
    };
    let stopped = crate::outdir::stop_left_running(&live, sample) || stopped;
    let root = live
        .parent()
        .filter(|root| ours(&live, RUN_PREFIX) && ours(root, LIVE_ROOT_PREFIX))
        .map(Path::to_owned);
    (stopped, root)
}

/// The path a study's own file names (a run's [`LIVE_FILE`], the study's
/// [`LIVE_ROOT`](super::files::LIVE_ROOT)), read up to 4 KiB.
fn named_in(file: &Path) -> Option<PathBuf> {
    let named = crate::bounded::read(file, 4096).ok()?;
    Some(PathBuf::from(
        String::from_utf8_lossy(&named.bytes).into_owned(),
    ))
}

/// Whether `path` has a name a study gives (it begins with `prefix`): a file naming a
/// path is no order to delete anything.
fn ours(path: &Path, prefix: &str) -> bool {
    path.file_name()
        .is_some_and(|name| name.to_string_lossy().starts_with(prefix))
}

/// How a run's directory in it is named.
const RUN_PREFIX: &str = "run-";

/// The temporary directory a study killed in `out` made its runs in, as its
/// [`LIVE_ROOT`](super::files::LIVE_ROOT) file names it: only one with the name a
/// study gives it (the file is no order to delete anything).
pub fn recorded_live_root(out: &Path) -> Option<PathBuf> {
    named_in(&out.join(super::files::LIVE_ROOT)).filter(|root| ours(root, LIVE_ROOT_PREFIX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mur_usage::Surface;

    fn served(time: &str, surface: Surface) -> mur_usage::Record {
        let line = serde_json::json!({ "schema": "mur-usage/1", "time": time,
            "side": "server", "surface": surface, "client": "c", "outcome": "ok",
            "tool": "click", "ms": 1.0 });
        serde_json::from_value(line).expect("a record")
    }

    fn ran(argv: &[&str], ms: f64) -> context::Captured {
        serde_json::from_value(serde_json::json!({ "argv": argv, "time": ms }))
            .expect("a capture line")
    }

    /// A panic of mur-eval's own in a run is that run's harness error, not the end of
    /// the study (whose thread scope would panic in turn).
    #[test]
    fn a_panic_while_making_a_run_is_its_harness_error() {
        let unmade = || {
            RunResult::unmade(
                "cli-named/a/1".into(),
                "cli-named".into(),
                crate::profile::Profile::Cli,
                "a".into(),
                1,
                PathBuf::from("/nowhere"),
            )
        };
        let made = guarded(|| panic!("attempt to add with overflow"), unmade);
        assert_eq!(
            made.error.as_deref(),
            Some(
                "mur-eval failed making or measuring this run (a bug in mur-eval): attempt to add with overflow"
            )
        );
        assert_eq!(made.id, "cli-named/a/1");
        let made = guarded(|| panic!("{} of {}", 1, 2), unmade);
        assert!(made.error.is_some_and(|e| e.ends_with(": 1 of 2")));
        // A panic with no text says so, in the words a session's handler uses.
        let made = guarded(|| std::panic::panic_any(42_u8), unmade);
        assert_eq!(
            made.error.as_deref(),
            Some("mur-eval failed making or measuring this run (a bug in mur-eval): no message")
        );
    }

    #[test]
    fn the_agent_is_named_by_its_commands_program() {
        assert_eq!(agent_name("claude -p \"$(cat {prompt_file})\""), "claude");
        assert_eq!(agent_name("/usr/bin/python3 -B agent.py"), "python3");
        assert_eq!(agent_name("FOO=1 bash /x/scripted.sh {task}"), "bash");
        assert_eq!(agent_name(""), "mur-eval-agent");
    }

    #[test]
    fn the_first_reach_is_the_earliest_mur_command_or_served_call() {
        // 2026-11-29T11:00:00.000Z
        let at = 1_795_950_000_000.0;
        let mcp = [served("2026-11-29T11:00:05.000Z", Surface::Mcp)];
        // The guide read and a refused click before the first MCP call: the CLI first.
        let refused = [
            ran(&["devtools", "guide"], at + 1000.0),
            ran(&["devtools", "click", "--element", "#b"], at + 2000.0),
        ];
        assert_eq!(first_surface(&mcp, &refused), Some(Surface::Cli));
        // A mur command after the first MCP call: MCP first.
        let later = [ran(&["devtools", "guide"], at + 9000.0)];
        assert_eq!(first_surface(&mcp, &later), Some(Surface::Mcp));
        // Either alone.
        assert_eq!(first_surface(&mcp, &[]), Some(Surface::Mcp));
        assert_eq!(first_surface(&[], &later), Some(Surface::Cli));
        assert_eq!(first_surface(&[], &[]), None);
    }
}
