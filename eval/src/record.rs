//! What one run of one task under one profile produced (a [`RunRecord`], also written as
//! `record.json` beside its transcript), and the report over a profile's runs: completion
//! rate, calls per task by surface, wall time. Schema `mur-eval/1`, documented in
//! docs/eval.md.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::profile::Profile;
use crate::usage::{Calls, Invocations};
use mur_usage::round2;

/// The `schema` of a report.
pub const SCHEMA: &str = "mur-eval/1";

/// One check and how it went.
#[derive(Debug, Clone, Serialize)]
pub struct CheckResult {
    pub what: String,
    pub passed: bool,
    /// What was seen instead, when it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seen: Option<String>,
}

/// One task, run once, under one profile.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunRecord {
    pub task: String,
    pub title: String,
    pub categories: Vec<String>,
    pub profile: Profile,
    /// Every check passed.
    pub completed: bool,
    pub checks: Vec<CheckResult>,
    /// The agent's calls, from the session's usage log.
    pub calls: Calls,
    /// The agent's `mur` invocations, from mur's own usage log (cli profile).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invocations: Option<Invocations>,
    /// The agent's exit code (`None` when a signal ended it).
    pub agent_exit: Option<i32>,
    pub timed_out: bool,
    /// The agent's wall time, milliseconds.
    pub wall_ms: f64,
    /// The task's directory: prompt, agent output, the session's call log, this record.
    /// Absolute in memory and on stdout; relative to the directory it is in where a
    /// record is stored ([`RunRecord::stored_in`]).
    pub transcript: PathBuf,
    /// Why the harness could not run the task (then `completed` is false).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What of the agent's output was not kept (`agent.stdout` past its cap).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A profile's runs and their summary.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub schema: &'static str,
    pub profile: Profile,
    pub agent: String,
    pub out: PathBuf,
    pub summary: Summary,
    pub runs: Vec<RunRecord>,
}

/// The figures a profile is compared by.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// The tasks the agent ran: every figure but `errors` is over these.
    pub tasks: usize,
    pub completed: usize,
    /// `completed / tasks`, 0 to 1 (0 when no task was run).
    pub completion_rate: f64,
    /// Mean calls per task run, all surfaces, then each.
    pub calls_per_task: f64,
    pub cli_calls_per_task: f64,
    pub mcp_calls_per_task: f64,
    /// Calls that came through the surface the profile keeps out of reach.
    pub other_surface_calls: u32,
    pub failed_calls: u32,
    /// The agent's `mur` invocations a verb refused (usage errors; cli profile): turns
    /// spent on argv that never reached the session.
    pub refused_invocations: u32,
    pub wall_ms: f64,
    /// Tasks the harness could not run (a session that would not start, a setup call that
    /// failed): no agent ran, so they are in no other figure — not the agent's failures.
    pub errors: usize,
}

impl RunRecord {
    /// The record as it is stored in the directory `dir` (a run's output directory, a
    /// study's): its `transcript` relative to `dir` ([`relative_in`]), so that `dir`
    /// copied, moved or published still names the task's directory.
    pub fn stored_in(&self, dir: &Path) -> Self {
        Self {
            transcript: relative_in(&self.transcript, dir),
            ..self.clone()
        }
    }
}

/// `path` relative to `dir` when it is in it, else as it is. A reader resolves what it
/// reads back with `dir.join(path)`, which keeps an absolute path (as an older
/// `mur-eval` stored it) as it is.
pub fn relative_in(path: &Path, dir: &Path) -> PathBuf {
    path.strip_prefix(dir)
        .map_or_else(|_| path.to_owned(), Path::to_owned)
}

impl Report {
    /// The report as `report.json` stores it in its output directory `out`: each run's
    /// `transcript` relative to `out` ([`RunRecord::stored_in`]); `out` itself, where
    /// the run was made, stays absolute, as a study's `cwd` does.
    pub fn stored(&self) -> Self {
        Self {
            runs: self
                .runs
                .iter()
                .map(|run| run.stored_in(&self.out))
                .collect(),
            ..self.clone()
        }
    }

    pub fn new(profile: Profile, agent: &str, out: PathBuf, runs: Vec<RunRecord>) -> Self {
        Self {
            schema: SCHEMA,
            profile,
            agent: agent.to_owned(),
            out,
            summary: Summary::of(profile, &runs),
            runs,
        }
    }

    /// Every task was completed.
    pub fn all_completed(&self) -> bool {
        self.summary.completed == self.summary.tasks
    }
}

impl Summary {
    fn of(profile: Profile, all: &[RunRecord]) -> Self {
        let runs: Vec<&RunRecord> = all.iter().filter(|run| run.error.is_none()).collect();
        let tasks = runs.len();
        let mean = |f: &dyn Fn(&RunRecord) -> u32| {
            if tasks == 0 {
                0.0
            } else {
                round2(runs.iter().map(|run| f(run) as f64).sum::<f64>() / tasks as f64)
            }
        };
        let completed = runs.iter().filter(|run| run.completed).count();
        Self {
            tasks,
            completed,
            completion_rate: if tasks == 0 {
                0.0
            } else {
                round2(completed as f64 / tasks as f64)
            },
            calls_per_task: mean(&|run| run.calls.total),
            cli_calls_per_task: mean(&|run| run.calls.cli),
            mcp_calls_per_task: mean(&|run| run.calls.mcp),
            other_surface_calls: runs
                .iter()
                .map(|run| run.calls.on_other_surface(profile))
                .sum(),
            failed_calls: runs.iter().map(|run| run.calls.failed).sum(),
            refused_invocations: runs
                .iter()
                .filter_map(|run| run.invocations.as_ref())
                .flat_map(|invocations| &invocations.refused)
                .map(|refused| refused.times as u32)
                .sum(),
            wall_ms: round2(runs.iter().map(|run| run.wall_ms).sum()),
            errors: all.len() - tasks,
        }
    }
}

/// The report as text: a line per task, then the summary.
pub fn render(report: &Report) -> String {
    let width = report
        .runs
        .iter()
        .map(|run| run.task.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut text = format!(
        "profile {}, agent `{}`\n{:width$}  result  calls (cli/mcp, failed)  time\n",
        report.profile.name(),
        report.agent,
        "task"
    );
    for run in &report.runs {
        let result = match (&run.error, run.completed) {
            (Some(_), _) => "ERROR",
            (None, true) => "pass",
            (None, false) => "FAIL",
        };
        let calls = format!(
            "{} ({}/{}, {})",
            run.calls.total, run.calls.cli, run.calls.mcp, run.calls.failed
        );
        text.push_str(&format!(
            "{:width$}  {result:6}  {calls:24}  {:.2} s\n",
            run.task,
            run.wall_ms / 1000.0
        ));
        for check in run.checks.iter().filter(|check| !check.passed) {
            let seen = check.seen.as_deref().unwrap_or("");
            text.push_str(&format!("{:width$}    ✗ {}: {seen}\n", "", check.what));
        }
        if let Some(error) = &run.error {
            text.push_str(&format!("{:width$}    ✗ not run: {error}\n", ""));
        }
    }
    let s = &report.summary;
    let rate = match s.tasks {
        0 => "–".to_owned(),
        _ => format!("{:.0}%", s.completion_rate * 100.0),
    };
    let not_run = match s.errors {
        0 => String::new(),
        n => format!(", {n} not run"),
    };
    text.push_str(&format!(
        "completed {}/{} ({rate}{not_run}); calls per task {:.2} (cli {:.2}, mcp {:.2}); \
         calls through the other surface {}; failed calls {}; refused invocations {}; \
         agent time {:.2} s\n\
         transcripts: {}\n",
        s.completed,
        s.tasks,
        s.calls_per_task,
        s.cli_calls_per_task,
        s.mcp_calls_per_task,
        s.other_surface_calls,
        s.failed_calls,
        s.refused_invocations,
        s.wall_ms / 1000.0,
        report.out.display()
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(task: &str, completed: bool, cli: u32, mcp: u32) -> RunRecord {
        RunRecord {
            task: task.to_owned(),
            title: String::new(),
            categories: Vec::new(),
            profile: Profile::Cli,
            completed,
            checks: vec![CheckResult {
                what: "the count is 3".to_owned(),
                passed: completed,
                seen: (!completed).then(|| "saw 2".to_owned()),
            }],
            calls: Calls {
                total: cli + mcp,
                cli,
                mcp,
                ..Calls::default()
            },
            invocations: None,
            agent_exit: Some(0),
            timed_out: false,
            wall_ms: 500.0,
            transcript: PathBuf::from("out").join(task),
            error: None,
            notes: Vec::new(),
        }
    }

    #[test]
    fn the_summary_gives_completion_and_calls_per_task_by_surface() {
        let report = Report::new(
            Profile::Cli,
            "agent",
            PathBuf::from("out"),
            vec![
                run("a", true, 3, 0),
                run("b", false, 2, 1),
                run("c", true, 1, 0),
            ],
        );
        let s = &report.summary;
        assert_eq!((s.tasks, s.completed, s.completion_rate), (3, 2, 0.67));
        assert_eq!(
            (s.calls_per_task, s.cli_calls_per_task, s.mcp_calls_per_task),
            (2.33, 2.0, 0.33)
        );
        assert_eq!(s.other_surface_calls, 1);
        assert_eq!(s.refused_invocations, 0);
        assert!(!report.all_completed());
        let text = render(&report);
        assert!(text.contains("b     FAIL    3 (2/1, 0)"), "{text}");
        assert!(text.contains("✗ the count is 3: saw 2"), "{text}");
        assert!(text.contains("completed 2/3 (67%)"), "{text}");
        assert!(text.contains("; refused invocations 0; "), "{text}");
    }

    #[test]
    fn a_task_the_harness_could_not_run_is_no_failure_of_the_agent() {
        let mut broken = run("broken", false, 0, 0);
        broken.error = Some("task `broken`: setup call failed: no tool".to_owned());
        broken.checks.clear();
        broken.wall_ms = 0.0;
        let report = Report::new(
            Profile::Cli,
            "agent",
            PathBuf::from("out"),
            vec![broken, run("a", true, 3, 0)],
        );
        let s = &report.summary;
        assert_eq!((s.tasks, s.completed, s.completion_rate), (1, 1, 1.0));
        assert_eq!((s.calls_per_task, s.errors), (3.0, 1));
        let text = render(&report);
        for said in [
            "broken  ERROR   0 (0/0, 0)",
            "✗ not run: task `broken`: setup call failed: no tool",
            "completed 1/1 (100%, 1 not run); calls per task 3.00",
        ] {
            assert!(text.contains(said), "{said:?} not in:\n{text}");
        }
        // Nothing run at all: no rate.
        let mut only = run("broken", false, 0, 0);
        only.error = Some("no session".to_owned());
        let text = render(&Report::new(
            Profile::Cli,
            "agent",
            PathBuf::from("out"),
            vec![only],
        ));
        assert!(text.contains("completed 0/0 (–, 1 not run)"), "{text}");
    }

    /// `report.json` holds each task's directory relative to the output directory (a
    /// moved run still names it), one outside it as it is; `out` stays absolute.
    #[test]
    fn a_stored_report_holds_the_tasks_directories_relative_to_out() {
        let out = PathBuf::from("/runs/out");
        let mut elsewhere = run("b", true, 1, 0);
        elsewhere.transcript = PathBuf::from("/elsewhere/b");
        let mut inside = run("a", true, 1, 0);
        inside.transcript = out.join("a");
        let report = Report::new(Profile::Cli, "agent", out.clone(), vec![inside, elsewhere]);
        let stored = report.stored();
        assert_eq!(stored.out, out);
        let transcripts: Vec<&Path> = stored.runs.iter().map(|r| &*r.transcript).collect();
        assert_eq!(transcripts, [Path::new("a"), Path::new("/elsewhere/b")]);
        // Read back, either form names the directory.
        for (run, wanted) in stored.runs.iter().zip(&report.runs) {
            assert_eq!(out.join(&run.transcript), wanted.transcript);
        }
        // What is shown and printed now keeps the absolute form.
        assert_eq!(report.runs[0].transcript, out.join("a"));
    }

    #[test]
    fn refused_invocations_are_summed_over_the_runs() {
        let refused = |times| mur_usage::Refused {
            verb: "click".to_owned(),
            kind: None,
            options: vec!["--selector".to_owned()],
            positionals: 1,
            times,
            last: String::new(),
            nearest: None,
        };
        let mut runs = vec![
            run("a", true, 3, 0),
            run("b", true, 2, 0),
            run("c", true, 1, 0),
        ];
        runs[0].invocations = Some(Invocations {
            refused: vec![refused(2)],
            ..Invocations::default()
        });
        runs[2].invocations = Some(Invocations {
            refused: vec![refused(1)],
            ..Invocations::default()
        });
        let report = Report::new(Profile::Cli, "agent", PathBuf::from("out"), runs);
        assert_eq!(report.summary.refused_invocations, 3);
        assert!(render(&report).contains("; refused invocations 3; "));
    }
}
