//! One run of a study: the task run as `mur-eval run` makes it, with the condition's
//! instructions, MCP configuration and capture, then measured — the oracle's verdict,
//! calls by surface and outside the verb set, the agent's own report, the context.

use std::ffi::OsString;
use std::path::Path;

use super::files::write;
use super::plan::{Planned, Study, id, run_dir};
use super::prepare::Ready;
use super::result::{Checks, RunCalls, RunResult};
use super::{context, traces};
use crate::adapters;
use crate::checker::Checker;
use crate::condition::Condition;
use crate::profile;
use crate::run::{self, Extras};
use crate::usage;

/// The most of the agent's stdout that is read for its event stream.
const STDOUT_CAP: u64 = 64 << 20;

/// One run, measured; a failure of the harness is recorded in the result.
pub fn run_one(
    study: &Study,
    ready: &[Option<Ready>],
    checker: &Checker,
    out: &Path,
    planned: &Planned,
) -> RunResult {
    let condition = &study.conditions[planned.condition];
    let task = &study.tasks[planned.task];
    let dir = run_dir(study, out, planned);
    // A run cut short by a kill left its directory (its session was stopped when the
    // study started again): it is made again from nothing.
    let _ = std::fs::remove_dir_all(&dir);
    let mut result = RunResult {
        categories: task.categories.clone(),
        order: planned.order,
        ..RunResult::unmade(
            id(study, planned),
            condition.name.clone(),
            condition.surface.name().to_owned(),
            task.id.clone(),
            planned.repeat,
            dir.clone(),
        )
    };
    result.agent_command = Some(study.agent.clone());
    let Some(ready) = ready.get(planned.condition).and_then(Option::as_ref) else {
        result.error = Some("the condition was not prepared".to_owned());
        return result;
    };
    result.verbs = ready.verbs.clone();
    if let Err(e) = profile::create_dir(&dir) {
        result.error = Some(e.message().to_owned());
        return result;
    }
    let instructions = match &condition.counterbalanced {
        Some(order) => {
            let (text, first) = order.text(planned.swapped);
            result.listed_first = Some(first);
            text
        }
        None => condition.instructions.clone(),
    };
    let mut extras = extras(condition, &instructions, planned.repeat, &dir);
    extras
        .env
        .push(("MUR_AGENT".into(), agent_name(&study.agent).into()));
    let harness = run::Harness {
        plan: &ready.plan,
        prepared: &ready.prepared,
        checker,
        extras: &extras,
    };
    let record = run::run_task(&harness, task, &dir);
    result.success = record.completed;
    result.checks = Checks {
        passed: record.checks.iter().filter(|c| c.passed).count() as u32,
        total: record.checks.len() as u32,
    };
    // Read once: the first surface, the context and the trace are each made from it.
    let recorded = context::Recorded::read(&dir);
    result.calls = calls(&dir, &record.calls, condition, &recorded.captured);
    result.invocations = record.invocations.clone();
    result.wall_ms = record.wall_ms;
    result.agent_exit = record.agent_exit;
    result.timed_out = record.timed_out;
    result.error = record.error.clone();
    let format = study.agent_format.or(condition.agent_format);
    result.agent = format.map(|format| {
        // Read lossily: one byte that is not UTF-8 (a stream cut mid-character at the
        // time limit) must not lose the rest of it.
        let stdout = match crate::bounded::read(&dir.join("agent.stdout"), STDOUT_CAP) {
            Ok(read) => {
                if read.cut {
                    result.notes.push(format!(
                        "`agent.stdout` is larger than {}: only its first {} were read",
                        crate::bounded::size(STDOUT_CAP),
                        crate::bounded::size(STDOUT_CAP)
                    ));
                }
                String::from_utf8_lossy(&read.bytes).into_owned()
            }
            Err(why) => {
                result.notes.push(format!("`agent.stdout` not read: {why}"));
                String::new()
            }
        };
        adapters::read(format, &stdout)
    });
    // The agent may have left anything under these names (a FIFO would hold the write):
    // each is made anew.
    for name in ["record.json", traces::TRACE_FILE] {
        let _ = std::fs::remove_file(dir.join(name));
    }
    if let Ok(text) = serde_json::to_string_pretty(&record) {
        let _ = write(&dir.join("record.json"), &(text + "\n"));
    }
    result.context = context::measure(
        &recorded,
        &instructions,
        ready.schemas.as_deref(),
        result.agent.as_ref(),
        result.calls.mcp,
    );
    // For the people reading it; a trace that cannot be written costs the run nothing.
    let _ = traces::write_trace(&result, &traces::steps(&recorded, result.agent.as_ref()));
    result.notes.extend(recorded.notes);
    result
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
    dir: &Path,
    counted: &usage::Calls,
    condition: &Condition,
    captured: &[context::Captured],
) -> RunCalls {
    let records = usage::read(&dir.join("calls.jsonl")).unwrap_or_default();
    let off_condition = records
        .iter()
        .filter(|r| r.surface == mur_usage::Surface::Cli)
        .filter(|r| !condition.verbs.as_ref().is_none_or(|v| v.allows(r.kind)))
        .count() as u32;
    RunCalls {
        total: counted.total,
        cli: counted.cli,
        mcp: counted.mcp,
        first_surface: first_surface(&records, captured),
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
