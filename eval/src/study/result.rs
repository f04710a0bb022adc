//! One line of `results.jsonl`: a run of one task, once, under one condition, with its
//! verdict and metrics. Schema `mur-eval-run/1`, documented in docs/eval.md.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

use crate::adapters::AgentReport;
use crate::profile::Profile;
use crate::tokens::Size;
use crate::usage::Invocations;
use mur_usage::Surface;

/// The `schema` of a result line.
pub const SCHEMA: &str = "mur-eval-run/1";

/// A line of `results.jsonl`. An optional field is left out when `None`, but for
/// `agentExit` and `agent`, which are written `null`.
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    pub schema: String,
    /// `<condition>/<task>/<repeat>`: what resuming skips.
    pub id: String,
    pub condition: String,
    /// `cli`, `mcp` or `both`.
    pub surface: Profile,
    pub task: String,
    /// The task's categories (`interact`, `screenshot`, …): what the report's per-category
    /// table groups by.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// 1-based.
    pub repeat: u32,
    /// The surface the instructions named first, under a condition that varies the
    /// order (`counterbalance`): what the first reach is weighed against.
    pub listed_first: Option<Surface>,
    /// The run's place in the study's shuffled order, 0-based.
    pub order: usize,
    /// Every check of the task's oracle passed.
    pub success: bool,
    pub checks: Checks,
    pub calls: RunCalls,
    /// The agent's `mur` invocations as mur recorded them (cli conditions): also the
    /// argv a verb refused, which never reached the session.
    pub invocations: Option<Invocations>,
    /// The agent's wall time, milliseconds.
    pub wall_ms: f64,
    #[serialize_always]
    pub agent_exit: Option<i32>,
    pub timed_out: bool,
    pub context: Context,
    /// What the agent reported about itself (`--agent-format`), when it did.
    #[serialize_always]
    pub agent: Option<AgentReport>,
    /// The run's directory: transcript, the session's call log, the oracle's verdict.
    /// Absolute in memory; stored relative to the study's directory (`runs/<condition>/
    /// <task>/<repeat>`, [`stored_in`]), which a study copied or moved still names. An
    /// older `mur-eval` stored it absolute, which [`resolved_in`] keeps.
    pub transcript: PathBuf,
    /// Why the harness could not run it (then `success` is false).
    pub error: Option<String>,
    /// What of the agent's files was not read whole (a FIFO refused, a file past its
    /// cap), so the figures from it are partial.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The agent command that made the run (`--agent`, as given): a study extended or
    /// resumed by another command says whose runs each row holds. Absent in records of
    /// an older `mur-eval`.
    pub agent_command: Option<String>,
    /// The verbs installed for the run's agent, name → sha256 of the file installed
    /// (conditions that install verbs): a study extended after `verbs prune`, or with
    /// rebuilt verbs, says which runs had which set.
    pub verbs: Option<BTreeMap<String, String>>,
    /// Of the named verbs (plugin and data: what `verbs prune` removes), those the run's
    /// agent invoked, name → invocations (a refused one too, as `usage report` counts a
    /// use), under a condition that installs verbs: the report's "Verbs called" says which
    /// installed verbs no run called. Absent elsewhere and in records of an older
    /// `mur-eval`, for which it is unknown.
    pub verbs_called: Option<BTreeMap<String, u32>>,
    /// Under a condition that installs verbs, the verbs the agent reached through mur
    /// other than as a named verb installed for it: derived verbs, name → invocations (a
    /// verb `verbs prune` removed, answered by the session's tool of its name), which
    /// "Verbs called" says beside the installed ones. Absent elsewhere and in records of
    /// an older `mur-eval`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived_called: Option<BTreeMap<String, u32>>,
    /// Under a condition that installs verbs, the agent's `mur devtools call`
    /// invocations. Absent elsewhere and in records of an older `mur-eval`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_invocations: Option<u32>,
    /// The sha256 of the task's file the run was judged by: a task file changed between
    /// two commands into one study (a `git pull` of `eval/tasks`) says which runs had
    /// which oracle. Absent in records of an older `mur-eval`.
    pub task_sha256: Option<String>,
    /// When the run started, UTC (RFC 3339): what a published study's runs are dated by.
    /// Absent in records of an older `mur-eval`.
    pub started_at: Option<String>,
    /// How many lines the agent left in the capture (`captured.jsonl`: its `mur`
    /// commands) and its transcript: none, with no call and no `mur` command, is an agent
    /// that did nothing the study can see before it exited. Absent in records of an
    /// older `mur-eval`, which are judged as if it were 0.
    pub agent_lines: Option<u32>,
    /// The sha256 of the condition's files the run had: its toml, then its instructions
    /// (the treatment). A condition edited between two commands into one study says
    /// which runs had which. Absent in records of an older `mur-eval`.
    pub condition_sha256: Option<String>,
    /// The command that made the run: its place in `study.json`'s `matrices`, 0-based.
    /// What the report's "Made by" line counts each command's runs by. Absent in records
    /// of an older `mur-eval`.
    pub made_by: Option<usize>,
}

/// `transcript`, a run's directory, as a record in the study `study` stores it: relative
/// to the study's directory when it is in it (as it is), else as it is.
pub fn stored_in(transcript: &Path, study: &Path) -> PathBuf {
    crate::record::relative_in(transcript, study)
}

/// `transcript` as a record in the study `study` stores it, resolved against the
/// study's directory: relative, as a record stores it, or absolute, as an older
/// `mur-eval`'s did (kept as it is).
pub fn resolved_in(transcript: &Path, study: &Path) -> PathBuf {
    study.join(transcript)
}

impl RunResult {
    /// A run of `task` under `condition` (its `surface`), repeat `repeat`, as it stands
    /// before anything is made: no success, no calls, no figures; `transcript` its
    /// directory.
    pub fn unmade(
        id: String,
        condition: String,
        surface: Profile,
        task: String,
        repeat: u32,
        transcript: PathBuf,
    ) -> Self {
        Self {
            schema: SCHEMA.to_owned(),
            id,
            condition,
            surface,
            task,
            categories: Vec::new(),
            repeat,
            listed_first: None,
            order: 0,
            success: false,
            checks: Checks::default(),
            calls: RunCalls::default(),
            invocations: None,
            wall_ms: 0.0,
            agent_exit: None,
            timed_out: false,
            context: Context::default(),
            agent: None,
            transcript,
            error: None,
            notes: Vec::new(),
            agent_command: None,
            verbs: None,
            verbs_called: None,
            derived_called: None,
            call_invocations: None,
            task_sha256: None,
            started_at: None,
            agent_lines: None,
            condition_sha256: None,
            made_by: None,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checks {
    pub passed: u32,
    pub total: u32,
}

/// The agent's calls as the session recorded them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunCalls {
    pub total: u32,
    pub cli: u32,
    pub mcp: u32,
    /// The surface the agent reached for first (what a `both` condition measures): its
    /// first `mur` command (any: the guide, `--help`, argv a verb refused) or its first
    /// call the session served, whichever came first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_surface: Option<Surface>,
    pub failed: u32,
    /// Calls through the surface the condition keeps out of reach.
    pub other_surface: u32,
    /// Calls through mur with a verb kind the condition's verb set leaves out (a derived
    /// verb under `cli-call`).
    pub off_condition: u32,
    pub tools: BTreeMap<String, u32>,
}

/// What was put before the agent, in bytes and tokens (`o200k_base`, an estimate for
/// models with other tokenizers).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Context {
    /// Before its first call: the instructions, then the tool schemas (mcp) or what it
    /// read of `guide`, `catalog` and `--help` (cli).
    pub before: Size,
    /// Every result it received: tool results (mcp), a verb's stdout and stderr (cli).
    pub results: Size,
    /// How many results.
    pub result_count: u32,
    pub total: Size,
    /// The agent made MCP calls and none of their results were counted: it logged none
    /// in its transcript (`MUR_EVAL_TRANSCRIPT`) and no event stream of its carried
    /// them — so `results` and `total` leave them out (lower bounds). Absent when false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub mcp_results_unseen: bool,
    /// The results hold what `mur` printed as the capture kept it, counted whole (no
    /// event stream said what the agent received): output the agent piped away or sent
    /// to a file is in it, so the figures are an upper bound. Absent when false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub captured_output: bool,
    /// Images among what it received (an MCP `screenshot`, a `Read` of a PNG), counted
    /// as images, not as their base64 text: their own bytes and the tokens of their
    /// pixel size (`crate::images`). Absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub images: u32,
    /// Of those, the images whose pixel size could not be read (no PNG or JPEG header):
    /// their bytes are counted, their tokens are not (lower bounds). Absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub images_unsized: u32,
    /// What those images put before the agent, within `before` and `results`: their own
    /// bytes and estimated tokens (none for one of unknown pixel size). Absent when it
    /// received none, and in records of an older `mur-eval`, for which it is unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub images_size: Option<Size>,
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

fn is_false(value: &bool) -> bool {
    !*value
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A result line as an older `mur-eval` wrote it and as this one writes it: its
    /// optional fields left out when `None` — but for `agentExit` and `agent`, which a
    /// reader of `results.jsonl` finds written as `null` — and read back as `None`.
    #[test]
    fn a_results_line_writes_null_only_for_the_agents_exit_and_report() {
        let unmade = |id: &str| {
            let [condition, task, repeat] = id.split('/').collect::<Vec<_>>()[..] else {
                panic!("{id}");
            };
            let repeat = repeat.parse().expect("repeat");
            let dir = PathBuf::from("/runs").join(id);
            RunResult::unmade(
                id.into(),
                condition.into(),
                crate::profile::Profile::Cli,
                task.into(),
                repeat,
                dir,
            )
        };
        let result = unmade("c/t/1");
        let line = serde_json::to_string(&result).expect("json");
        let nulls: Vec<&str> = line
            .split(',')
            .filter(|field| field.ends_with(":null") || field.ends_with(":null}"))
            .collect();
        assert_eq!(nulls, [r#""agentExit":null"#, r#""agent":null"#], "{line}");
        assert_eq!(
            serde_json::from_str::<RunResult>(&line).expect("back"),
            result
        );
        // Without the two: a line of a record that never had them reads as well.
        let older = line
            .replace(r#""agentExit":null,"#, "")
            .replace(r#""agent":null,"#, "");
        assert_eq!(
            serde_json::from_str::<RunResult>(&older).expect("older"),
            result
        );
    }

    /// The surface and the agent's format are written by the names `--profile`, a
    /// condition's `surface` and `--agent-format` give them, as when they were strings:
    /// a line an older `mur-eval` wrote reads back the same.
    #[test]
    fn a_runs_surface_and_agent_format_are_written_by_their_names() {
        use crate::adapters::{AgentReport, Format};
        use crate::profile::Profile;
        for (surface, name) in [
            (Profile::Cli, "cli"),
            (Profile::Mcp, "mcp"),
            (Profile::Both, "both"),
        ] {
            for (format, format_name) in [
                (Format::StreamJson, "stream-json"),
                (Format::CodexJson, "codex-json"),
            ] {
                let result = RunResult {
                    agent: Some(AgentReport::new(format)),
                    ..RunResult::unmade(
                        "c/t/1".into(),
                        "c".into(),
                        surface,
                        "t".into(),
                        1,
                        "/r".into(),
                    )
                };
                let line = serde_json::to_string(&result).expect("json");
                assert!(line.contains(&format!(r#""surface":"{name}","#)), "{line}");
                assert!(
                    line.contains(&format!(r#""agent":{{"format":"{format_name}","#)),
                    "{line}"
                );
                assert_eq!(
                    serde_json::from_str::<RunResult>(&line).expect("back"),
                    result
                );
            }
        }
    }
}
