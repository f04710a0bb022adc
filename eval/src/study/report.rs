//! The study's report from its `results.jsonl`: per condition, then per task and
//! condition — runs, success % with its 95% Wilson interval, and the medians of calls,
//! turns, input tokens, context tokens and bytes, and duration; the tools each condition's
//! runs called ([`ToolsUsed`]) and the verbs, with those installed that no run called
//! ([`VerbsCalled`]) — as Markdown
//! (`report.md`), CSV (`report.csv`) and one self-contained HTML page drawn with the
//! usage report's charts (`mur_usage::html`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use mur_usage::Surface;
use mur_usage::html::{self, Bar};

use super::result::RunResult;
use crate::tokens::{ENCODING, Size};

/// The figures of a group of runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub condition: String,
    /// `None` for a whole condition.
    pub task: Option<String>,
    /// Runs the agent made: every figure but `errors` is over these.
    pub runs: u32,
    /// Runs the harness could not make (a session that never started, a setup call that
    /// failed): left out of the success rate and the medians, counted here.
    pub errors: u32,
    /// The first such run's error, its first line.
    pub first_error: Option<String>,
    /// Runs whose agent never started: `sh` exited 127 (not found) or 126 (not runnable).
    pub not_started: u32,
    /// Runs whose agent exited nonzero otherwise, by exit code: an agent that failed
    /// (an API key refused, a crash) is no verdict on the surface.
    pub agent_exits: BTreeMap<i32, u32>,
    /// Runs whose agent exited nonzero (126 and 127 too) before any call the session
    /// served, any `mur` command and any line of its transcript ([`failed_at_once`]).
    pub failed_at_once: u32,
    /// Runs whose stdout held no event of the `--agent-format` given.
    pub no_events: u32,
    /// Runs the time limit ended (their time is the limit: a lower bound).
    pub timed_out: u32,
    /// Runs with MCP calls whose results nothing counted ([`mcp_results_unseen`]): their
    /// context is a lower bound.
    pub mcp_unseen: u32,
    /// Runs whose results hold what `mur` printed, counted whole (no event stream said
    /// what the agent received): their context is an upper bound.
    pub captured: u32,
    /// Images the runs received (counted by their pixel size, not as base64 text), and
    /// of those, the ones whose pixel size was unknown (no tokens counted).
    pub images: u64,
    pub images_unsized: u64,
    /// What those images put before the agents, summed: their own bytes and estimated
    /// tokens (within the context figures). `None` when a run that received some was
    /// recorded by an older `mur-eval`, which kept no image sizes.
    pub images_size: Option<Size>,
    pub successes: u32,
    pub low: f64,
    pub high: f64,
    pub calls: Option<f64>,
    /// Median attempts per run: calls the session served and invocations mur refused
    /// before any call — an MCP agent's wrong tool name reaches the session (a call), a
    /// CLI agent's wrong verb or option does not, so calls alone favour the CLI.
    pub attempts: Option<f64>,
    /// Median failed calls per run: calls the session served with an error (a tool that
    /// failed, an unknown tool); and their sum.
    pub failed: Option<f64>,
    pub failed_total: u64,
    /// Runs with a failed call: a median of 0 may hide failures in a few runs.
    pub failed_runs: u32,
    pub turns: Option<f64>,
    pub input_tokens: Option<f64>,
    /// Medians of the output tokens and the cost (US dollars) the agents reported, over
    /// the runs that reported them (report.csv).
    pub output_tokens: Option<f64>,
    pub cost_usd: Option<f64>,
    /// How many of the runs reported their turns, their input tokens: the medians are
    /// over those alone.
    pub turns_runs: u32,
    pub input_runs: u32,
    pub context_before: Option<f64>,
    pub context_tokens: Option<f64>,
    pub context_bytes: Option<f64>,
    pub seconds: Option<f64>,
    pub off_condition: u64,
    /// The invocations mur refused (usage errors), by argv shape (`state WORD`), summed
    /// over the runs.
    pub refused: BTreeMap<String, u64>,
    pub reach: Reach,
    /// The agent commands the runs recorded, in the order first seen.
    pub agents: Vec<String>,
    /// Some run's record names no agent command (an older `mur-eval` wrote it): the
    /// study's record of the commands then says whose it may be.
    pub agent_unrecorded: bool,
    /// The verb sets the runs had installed (name → sha256), each with its runs, most
    /// runs first.
    pub verb_sets: Vec<(BTreeMap<String, String>, u32)>,
}

/// Which surface the agent used, summed over the runs: what a condition that offers
/// both measures (seed 000 §13, "unprompted agent preference").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reach {
    /// Runs under a condition that offered both surfaces.
    pub offered_both: u32,
    pub cli_calls: u64,
    pub mcp_calls: u64,
    /// Runs whose first call went through the CLI, through MCP.
    pub first_cli: u32,
    pub first_mcp: u32,
    /// Runs whose instructions named the surfaces in a varied order (`counterbalance`)
    /// and that made a call; of those, the runs whose first call went through the
    /// surface named first.
    pub order_varied: u32,
    pub first_as_listed: u32,
}

impl Reach {
    fn of(runs: &[&RunResult]) -> Self {
        let first = |surface: Surface| {
            runs.iter()
                .filter(|r| r.calls.first_surface == Some(surface))
                .count() as u32
        };
        let varied = || {
            runs.iter()
                .filter(|r| r.listed_first.is_some() && r.calls.first_surface.is_some())
        };
        Reach {
            order_varied: varied().count() as u32,
            first_as_listed: varied()
                .filter(|r| r.listed_first == r.calls.first_surface)
                .count() as u32,
            offered_both: runs.iter().filter(|r| r.surface == "both").count() as u32,
            cli_calls: runs.iter().map(|r| u64::from(r.calls.cli)).sum(),
            mcp_calls: runs.iter().map(|r| u64::from(r.calls.mcp)).sum(),
            first_cli: first(Surface::Cli),
            first_mcp: first(Surface::Mcp),
        }
    }

    /// The share of calls that went through the CLI, 0 to 1 (`None` without calls).
    pub fn cli_share(&self) -> Option<f64> {
        let total = self.cli_calls + self.mcp_calls;
        (total > 0).then(|| self.cli_calls as f64 / total as f64)
    }
}

impl Row {
    /// How many invocations mur refused in these runs.
    pub fn refused_total(&self) -> u64 {
        // Each count is a record's `times`, up to u64::MAX in a hand-edited journal.
        self.refused
            .values()
            .fold(0, |sum, n| sum.saturating_add(*n))
    }

    /// The success rate, 0 to 1; `None` without runs: a task none of whose runs was
    /// made has no rate, not 0%.
    pub fn rate(&self) -> Option<f64> {
        (self.runs > 0).then(|| f64::from(self.successes) / f64::from(self.runs))
    }

    /// The rate and its 95% interval, `None` without runs.
    fn rate_and_interval(&self) -> Option<(f64, f64, f64)> {
        Some((self.rate()?, self.low, self.high))
    }
}

/// The 95% Wilson score interval of `successes` out of `runs`.
pub fn wilson(successes: u32, runs: u32) -> (f64, f64) {
    if runs == 0 {
        return (0.0, 0.0);
    }
    let z: f64 = 1.959_963_984_540_054;
    let n = f64::from(runs);
    let p = f64::from(successes) / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The median of `values` (the mean of the middle two for an even count); `None` when
/// there are none.
pub fn median(mut values: Vec<f64>) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len().is_multiple_of(2) {
        (values[mid - 1] + values[mid]) / 2.0
    } else {
        values[mid]
    })
}

fn row(condition: &str, task: Option<&str>, all: &[&RunResult]) -> Row {
    let errored: Vec<&str> = all.iter().filter_map(|r| r.error.as_deref()).collect();
    let runs: Vec<&RunResult> = all.iter().copied().filter(|r| r.error.is_none()).collect();
    let runs = runs.as_slice();
    let of =
        |f: &dyn Fn(&RunResult) -> Option<f64>| median(runs.iter().filter_map(|r| f(r)).collect());
    let successes = runs.iter().filter(|r| r.success).count() as u32;
    let (low, high) = wilson(successes, runs.len() as u32);
    Row {
        condition: condition.to_owned(),
        task: task.map(str::to_owned),
        runs: runs.len() as u32,
        errors: errored.len() as u32,
        first_error: errored
            .first()
            .map(|e| e.lines().next().unwrap_or_default().to_owned()),
        timed_out: runs.iter().filter(|r| r.timed_out).count() as u32,
        mcp_unseen: runs.iter().filter(|r| mcp_results_unseen(r)).count() as u32,
        captured: runs.iter().filter(|r| r.context.captured_output).count() as u32,
        images: runs.iter().map(|r| u64::from(r.context.images)).sum(),
        images_unsized: runs
            .iter()
            .map(|r| u64::from(r.context.images_unsized))
            .sum(),
        images_size: runs
            .iter()
            .filter(|r| r.context.images > 0)
            .map(|r| r.context.images_size)
            .try_fold(Size::default(), |sum, size| {
                size.map(|size| Size {
                    bytes: sum.bytes.saturating_add(size.bytes),
                    tokens: sum.tokens.saturating_add(size.tokens),
                })
            }),
        not_started: runs
            .iter()
            .filter(|r| matches!(r.agent_exit, Some(126 | 127)))
            .count() as u32,
        agent_exits: runs
            .iter()
            .filter_map(|r| r.agent_exit)
            .filter(|exit| !matches!(exit, 0 | 126 | 127))
            .fold(BTreeMap::new(), |mut exits, exit| {
                *exits.entry(exit).or_default() += 1;
                exits
            }),
        failed_at_once: runs.iter().filter(|r| failed_at_once(r)).count() as u32,
        no_events: runs
            .iter()
            .filter(|r| r.agent.as_ref().is_some_and(|a| a.no_events))
            .count() as u32,
        successes,
        low,
        high,
        calls: of(&|r| Some(f64::from(r.calls.total))),
        attempts: of(&|r| Some(attempts(r) as f64)),
        failed: of(&|r| Some(f64::from(r.calls.failed))),
        failed_total: runs.iter().map(|r| u64::from(r.calls.failed)).sum(),
        failed_runs: runs.iter().filter(|r| r.calls.failed > 0).count() as u32,
        turns: of(&turns),
        input_tokens: of(&input_tokens),
        output_tokens: of(&|r| r.agent.as_ref()?.output_tokens.map(|t| t as f64)),
        cost_usd: of(&|r| r.agent.as_ref()?.cost_usd),
        turns_runs: runs.iter().filter(|r| turns(r).is_some()).count() as u32,
        input_runs: runs.iter().filter(|r| input_tokens(r).is_some()).count() as u32,
        context_before: of(&|r| Some(r.context.before.tokens as f64)),
        context_tokens: of(&|r| Some(r.context.total.tokens as f64)),
        context_bytes: of(&|r| Some(r.context.total.bytes as f64)),
        seconds: of(&|r| Some(r.wall_ms / 1000.0)),
        // Widened: a record is read as written, and a hand-edited one may say anything.
        off_condition: runs.iter().map(|r| u64::from(r.calls.off_condition)).sum(),
        refused: refused(runs),
        reach: Reach::of(runs),
        agents: runs.iter().fold(Vec::new(), |mut agents, r| {
            if let Some(agent) = &r.agent_command
                && !agents.contains(agent)
            {
                agents.push(agent.clone());
            }
            agents
        }),
        agent_unrecorded: runs.iter().any(|r| r.agent_command.is_none()),
        verb_sets: verb_sets(runs),
    }
}

/// The distinct verb sets of `runs`, each with how many runs had it, most first.
fn verb_sets(runs: &[&RunResult]) -> Vec<(BTreeMap<String, String>, u32)> {
    let mut sets: Vec<(BTreeMap<String, String>, u32)> = Vec::new();
    for verbs in runs.iter().filter_map(|r| r.verbs.as_ref()) {
        match sets.iter_mut().find(|(set, _)| set == verbs) {
            Some((_, n)) => *n += 1,
            None => sets.push((verbs.clone(), 1)),
        }
    }
    sets.sort_by_key(|(_, runs)| std::cmp::Reverse(*runs));
    sets
}

/// Whether the run made MCP calls whose results no transcript or event stream gave the
/// context count, so its context figures leave them out. A record written before runs
/// said so is judged by what it has: an mcp run with calls and no result counted.
fn mcp_results_unseen(r: &RunResult) -> bool {
    r.context.mcp_results_unseen
        || (r.surface == "mcp" && r.calls.mcp > 0 && r.context.result_count == 0)
}

/// A run's calls the session served and invocations mur refused before any call.
fn attempts(r: &RunResult) -> u64 {
    // Saturating: a hand-edited record's `times` may be anything up to u64::MAX.
    r.invocations
        .iter()
        .flat_map(|i| &i.refused)
        .fold(u64::from(r.calls.total), |sum, shape| {
            sum.saturating_add(shape.times)
        })
}

/// Whether the run's agent exited nonzero before it did anything the study can see: no
/// call the session served, no `mur` command mur recorded (not even a refused one), no
/// line in the capture or its transcript. That alone does not make it the agent's own
/// failure: an MCP client can read the tool schemas and give up, and mur records no
/// `--help` ([`Categories`] weighs it against the other conditions).
pub fn failed_at_once(r: &RunResult) -> bool {
    r.agent_exit.is_some_and(|exit| exit != 0)
        && !r.timed_out
        && attempts(r) == 0
        && r.invocations.as_ref().is_none_or(|i| i.total == 0)
        && r.agent_lines.unwrap_or(0) == 0
}

/// The turns a run's agent reported.
fn turns(r: &RunResult) -> Option<f64> {
    r.agent.as_ref()?.turns.map(|t| t as f64)
}

/// The input tokens a run's agent reported.
fn input_tokens(r: &RunResult) -> Option<f64> {
    r.agent.as_ref()?.input_tokens.map(|t| t as f64)
}

/// A median over `of` of `runs` runs, and how many when not all (`4 (1 of 2)`).
fn counted(value: Option<f64>, of: u32, runs: u32) -> String {
    match value {
        Some(_) if of < runs => format!("{} ({of} of {runs})", number(value)),
        _ => number(value),
    }
}

/// The refused invocations of `runs` by argv shape.
fn refused(runs: &[&RunResult]) -> BTreeMap<String, u64> {
    let mut by_argv = BTreeMap::new();
    let shapes = runs
        .iter()
        .filter_map(|r| r.invocations.as_ref())
        .flat_map(|i| &i.refused);
    for shape in shapes {
        let times: &mut u64 = by_argv.entry(shape.argv()).or_default();
        *times = times.saturating_add(shape.times);
    }
    by_argv
}

/// The report's rows: one per condition (in `order`), then one per task and condition;
/// and each condition's successes per task category.
pub struct Rows<'a> {
    pub conditions: Vec<Row>,
    pub tasks: Vec<Row>,
    pub categories: Categories,
    /// Each condition's agent commands, as the study's commands named them
    /// (`study.json`); empty when not known.
    pub agents: Vec<(String, Vec<String>)>,
    /// The study's commands, each as a line to run it again with what it ran on
    /// (`study.json`); empty when not known.
    pub commands: Vec<String>,
    /// The runs the rows were made from: a comparison of two conditions is made again
    /// over the (task, repeat) cells both have.
    pub results: &'a [RunResult],
    /// The condition the others are compared with (`--against`); `None`: [`REFERENCE`]
    /// when the rows have it, else the first condition ([`Rows::reference`]).
    pub against: Option<String>,
}

impl Rows<'_> {
    /// The condition the others are compared with: the one `--against` named, else mur
    /// as it ships ([`REFERENCE`]) when the study has it, else its first condition — a
    /// study of `cli-call` and `mcp` is compared too. `None` without conditions.
    pub fn reference(&self) -> Option<&str> {
        let has = |name: &str| self.conditions.iter().any(|r| r.condition == name);
        match &self.against {
            Some(named) => Some(named.as_str()),
            None if has(REFERENCE) => Some(REFERENCE),
            None => self.conditions.first().map(|r| r.condition.as_str()),
        }
    }

    /// Refuses an `--against` that names no condition of the rows (a usage error).
    pub fn check_against(&self) -> mur_core::Result<()> {
        let Some(named) = &self.against else {
            return Ok(());
        };
        if self.conditions.iter().any(|r| &r.condition == named) {
            return Ok(());
        }
        let names: Vec<&str> = self
            .conditions
            .iter()
            .map(|r| r.condition.as_str())
            .collect();
        Err(mur_core::Error::usage(format!(
            "`--against {named}`: the study has no runs of a condition `{named}` (it has {})",
            if names.is_empty() {
                "none".to_owned()
            } else {
                names.join(", ")
            }
        )))
    }
}

/// Per condition, per task category: successful runs and runs (seed 000 §13: a surface
/// that cannot complete a category of task is immediate evidence against it).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Categories {
    /// Every category seen, sorted.
    pub names: Vec<String>,
    /// `(condition, [(successes, runs)] in the order of names)`, in the conditions' order.
    pub by_condition: Vec<(String, Vec<(u32, u32)>)>,
    /// Of each cell's runs, the ids of those left out of the evidence: the agent exited
    /// nonzero at once ([`failed_at_once`]) and so did the same task and repeat under
    /// every condition, in the same order.
    pub at_once: Vec<Vec<BTreeSet<String>>>,
    /// Of each cell's runs, the ids of those whose agent exited nonzero and which are
    /// counted all the same, in the same order.
    pub exited: Vec<Vec<BTreeSet<String>>>,
}

impl Categories {
    fn of(results: &[RunResult], conditions: &[String]) -> Self {
        let mut names: Vec<String> = results
            .iter()
            .flat_map(|r| r.categories.iter().cloned())
            .collect();
        names.sort();
        names.dedup();
        let made = || results.iter().filter(|r| r.error.is_none());
        let tally = |condition: &String, name: &String| {
            made()
                .filter(|r| &r.condition == condition && r.categories.contains(name))
                .fold((0, 0), |(ok, all), r| (ok + u32::from(r.success), all + 1))
        };
        let by_condition: Vec<(String, Vec<(u32, u32)>)> = conditions
            .iter()
            .map(|c| (c.clone(), names.iter().map(|n| tally(c, n)).collect()))
            .filter(|(_, cells): &(String, Vec<(u32, u32)>)| cells.iter().any(|c| c.1 > 0))
            .collect();
        // The agent failed on its own only where it failed so whatever the surface: the
        // same task and repeat exited at once under every condition.
        let everywhere = |r: &RunResult| {
            by_condition.iter().all(|(condition, _)| {
                made().any(|o| {
                    &o.condition == condition
                        && o.task == r.task
                        && o.repeat == r.repeat
                        && failed_at_once(o)
                })
            })
        };
        let cells = |keep: &dyn Fn(&RunResult) -> bool| -> Vec<Vec<BTreeSet<String>>> {
            by_condition
                .iter()
                .map(|(condition, _)| {
                    let of = |name: &String| {
                        made()
                            .filter(|r| &r.condition == condition && r.categories.contains(name))
                            .filter(|r| r.agent_exit.is_some_and(|exit| exit != 0) && keep(r))
                            .map(|r| r.id.clone())
                            .collect()
                    };
                    names.iter().map(of).collect()
                })
                .collect()
        };
        let at_once = cells(&|r| failed_at_once(r) && everywhere(r));
        let exited = cells(&|r| !(failed_at_once(r) && everywhere(r)));
        Self {
            names,
            by_condition,
            at_once,
            exited,
        }
    }

    /// The table's header and one row of `successes/runs` cells per condition (`None`
    /// when no result names a category: results written before they were recorded).
    fn table(&self) -> Option<(Vec<String>, Vec<Vec<String>>)> {
        // No run made (every run an error): a header with nothing under it says nothing.
        let made = self
            .by_condition
            .iter()
            .flat_map(|(_, cells)| cells)
            .any(|(_, all)| *all > 0);
        if self.names.is_empty() || !made {
            return None;
        }
        let header = std::iter::once("condition".to_owned())
            .chain(self.names.iter().cloned())
            .collect();
        let rows = self
            .by_condition
            .iter()
            .map(|(condition, cells)| {
                let cells = cells.iter().map(|(ok, all)| match all {
                    0 => "–".to_owned(),
                    all => format!("{ok}/{all}"),
                });
                std::iter::once(condition.clone()).chain(cells).collect()
            })
            .collect();
        Some((header, rows))
    }

    /// The categories a condition ran and never completed, one clause per condition
    /// (`None` when every condition completed some run of each).
    ///
    /// A run whose agent exited nonzero at once (no call, no `mur` command, no line of
    /// its transcript: a refused API key, a program not found) is left out of this
    /// evidence only when the same task and repeat failed so under every condition of
    /// the study: then the agent failed whatever the surface. Anywhere else it counts —
    /// an MCP client that read the tool schemas and gave up, or an agent that read
    /// `mur --help` (which mur does not record), failed on the surface. The line says how
    /// many it left out and how many runs whose agent exited nonzero it counted, so a
    /// study whose agent failed throughout does not read as one with nothing against any
    /// surface, nor as one whose surfaces failed.
    pub fn never_completed(&self) -> Option<String> {
        let mut left_out = BTreeSet::new();
        let mut counted = BTreeSet::new();
        let clauses: Vec<String> = self
            .by_condition
            .iter()
            .zip(self.at_once.iter().zip(&self.exited))
            .filter_map(|((condition, cells), (at_once, exited))| {
                let mut failed = Vec::new();
                let each = self.names.iter().zip(cells).zip(at_once.iter().zip(exited));
                for ((name, (ok, all)), (at_once, exited)) in each {
                    let tried = all - at_once.len() as u32;
                    if *ok == 0 && *all > 0 {
                        left_out.extend(at_once);
                        counted.extend(exited);
                        if tried > 0 {
                            failed.push(format!("`{name}` (0 of {tried})"));
                        }
                    }
                }
                (!failed.is_empty()).then(|| format!("`{condition}` {}", failed.join(", ")))
            })
            .collect();
        let left_out = [
            (!left_out.is_empty()).then(|| {
                format!(
                    "{} left out: the agent exited nonzero at once (no call, `mur` command or \
                     transcript line) in the same task and repeat under every condition, so \
                     it failed on its own",
                    plural(left_out.len(), "run")
                )
            }),
            (!counted.is_empty()).then(|| {
                format!(
                    "{} counted whose agent exited nonzero",
                    plural(counted.len(), "run")
                )
            }),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>();
        let left_out = (!left_out.is_empty()).then(|| left_out.join("; "));
        match (clauses.is_empty(), left_out) {
            (true, None) => None,
            (true, Some(left_out)) => Some(format!(
                "Task categories a condition never completed: none counted as evidence \
                 against a surface ({left_out})."
            )),
            (false, left_out) => Some(format!(
                "Task categories a condition never completed (evidence against it): {}{}.",
                clauses.join("; "),
                left_out.map_or_else(String::new, |l| format!(" ({l})"))
            )),
        }
    }
}

/// The most tools "Tools used, by condition" lists: the rest are counted in a line.
const MAX_TOOLS: usize = 20;

/// "Tools used, by condition": per tool the sessions served (each run's `calls.tools`),
/// per condition, the runs made that called it and its calls: what an operator reads to
/// see what the agents reached for without `usage report --server-log`. It names tools,
/// not verbs (`wait` calls `waitFor`): which verbs no run called is [`VerbsCalled`]'s.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolsUsed {
    /// The conditions with runs made, in the report's order, each with those runs.
    pub conditions: Vec<(String, u32)>,
    /// `(tool, [(runs that called it, calls)] in the order of conditions)`, most calls
    /// first.
    pub tools: Vec<(String, Vec<(u32, u64)>)>,
}

impl ToolsUsed {
    /// `None` when no run was made.
    fn of(rows: &Rows<'_>) -> Option<Self> {
        let made = |condition: &str| -> Vec<&RunResult> {
            rows.results
                .iter()
                .filter(|r| r.condition == condition && r.error.is_none())
                .collect()
        };
        let conditions: Vec<(String, u32)> = rows
            .conditions
            .iter()
            .filter(|row| row.runs > 0)
            .map(|row| (row.condition.clone(), row.runs))
            .collect();
        if conditions.is_empty() {
            return None;
        }
        let mut by_tool: BTreeMap<String, Vec<(u32, u64)>> = BTreeMap::new();
        for (index, (condition, _)) in conditions.iter().enumerate() {
            for (tool, calls) in made(condition).iter().flat_map(|r| &r.calls.tools) {
                let cells = by_tool
                    .entry(tool.clone())
                    .or_insert_with(|| vec![(0, 0); conditions.len()]);
                cells[index].0 += 1;
                cells[index].1 += u64::from(*calls);
            }
        }
        let mut tools: Vec<(String, Vec<(u32, u64)>)> = by_tool.into_iter().collect();
        // Stable: equal totals stay in the tools' names' order.
        tools.sort_by_key(|(_, cells)| std::cmp::Reverse(cells.iter().map(|c| c.1).sum::<u64>()));
        Some(Self { conditions, tools })
    }

    /// The table's header and its rows, at most [`MAX_TOOLS`]: `2/3 · 7` is 2 of the
    /// condition's 3 runs called the tool, 7 calls in all; `–` none did.
    fn table(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let header = std::iter::once("tool".to_owned())
            .chain(self.conditions.iter().map(|(c, _)| c.clone()))
            .collect();
        let rows =
            self.tools
                .iter()
                .take(MAX_TOOLS)
                .map(|(tool, cells)| {
                    let cells = cells.iter().zip(&self.conditions).map(
                        |((runs, calls), (_, of))| match runs {
                            0 => "–".to_owned(),
                            runs => format!("{runs}/{of} · {calls}"),
                        },
                    );
                    std::iter::once(tool.clone()).chain(cells).collect()
                })
                .collect();
        (header, rows)
    }

    /// What the table does not show: no call at all, the tools past [`MAX_TOOLS`].
    fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.tools.is_empty() {
            lines.push("No run made a call the session served.".to_owned());
        }
        if let Some(rest) = self.tools.get(MAX_TOOLS..).filter(|rest| !rest.is_empty()) {
            let calls: u64 = rest.iter().flat_map(|(_, cells)| cells).map(|c| c.1).sum();
            lines.push(format!(
                "(+{} more, {})",
                rest.len(),
                plural(calls as usize, "call")
            ));
        }
        lines
    }

    /// The section of `report.md`.
    pub fn markdown(&self) -> String {
        let mut text = format!("## {TOOLS_USED}\n\n{TOOLS_USED_SAYS}\n\n");
        let (header, rows) = self.table();
        if !rows.is_empty() {
            text.push_str(&markdown_table(&header, &rows));
        }
        for line in self.lines() {
            let _ = write!(text, "\n{line}\n");
        }
        text
    }

    /// The section of the page.
    fn html(&self) -> String {
        let mut body = format!(
            "<h2>{TOOLS_USED}</h2><p>{}</p>",
            html::escape(&TOOLS_USED_SAYS.replace('`', ""))
        );
        let (header, rows) = self.table();
        if !rows.is_empty() {
            let header: Vec<&str> = header.iter().map(String::as_str).collect();
            body.push_str(&html::text_table(&header, &rows));
        }
        for line in self.lines() {
            let _ = write!(body, "<p>{}</p>", html::escape(&line.replace('`', "")));
        }
        body
    }
}

const TOOLS_USED: &str = "Tools used, by condition";
const TOOLS_USED_SAYS: &str = "Per tool the sessions served, of each condition's runs the \
    ones that called it, then its calls (`2/3 · 7`; `–` none), most calls first.";

/// A condition's column of "Verbs called, by condition".
#[derive(Debug, Clone, PartialEq)]
pub struct VerbColumn {
    pub condition: String,
    /// Its runs made that recorded the verbs installed for them.
    pub with_verbs: u32,
    /// Of those, the runs that also recorded which verbs their agent invoked: the cells
    /// are over these (an older `mur-eval` recorded none).
    pub known: u32,
}

/// A verb under a condition: `None` not installed for its runs, else the runs that
/// invoked it and its invocations.
pub type VerbCell = Option<(u32, u64)>;

/// "Verbs called, by condition": per verb installed for a condition's runs, the runs
/// that invoked it and its invocations (each run's `verbsCalled`, from mur's records of
/// the agent's invocations) — and the installed verbs no run called, which is what an
/// operator prunes: verbs, not the tools [`ToolsUsed`] names (`wait` calls `waitFor`,
/// several verbs may call one tool, and a verb never called calls none).
#[derive(Debug, Clone, PartialEq)]
pub struct VerbsCalled {
    /// The conditions whose runs recorded their installed verbs, in the report's order,
    /// those with no run that recorded what it called among them.
    pub conditions: Vec<VerbColumn>,
    /// `(verb, [cell] in the order of the conditions whose calls are known)`, most
    /// invocations first, then by name.
    pub verbs: Vec<(String, Vec<VerbCell>)>,
    /// How long a window `verbs prune --until last` needs to cover the runs: whole
    /// hours from the first run's start to the last one's end (`None` when the runs
    /// say no start, as an older `mur-eval`'s).
    pub window_hours: Option<u64>,
}

impl VerbsCalled {
    /// `None` when no condition's runs recorded the verbs installed for them (no cli
    /// condition, or results of an older `mur-eval`).
    fn of(rows: &Rows<'_>) -> Option<Self> {
        let made = |condition: &str| -> Vec<&RunResult> {
            rows.results
                .iter()
                .filter(|r| r.condition == condition && r.error.is_none())
                .filter(|r| r.verbs.as_ref().is_some_and(|v| !v.is_empty()))
                .collect()
        };
        let with_verbs: Vec<(Vec<&RunResult>, &Row)> = rows
            .conditions
            .iter()
            .map(|row| (made(&row.condition), row))
            .filter(|(runs, _)| !runs.is_empty())
            .collect();
        let conditions: Vec<(VerbColumn, Vec<&RunResult>)> = with_verbs
            .iter()
            .map(|(runs, row)| {
                let known: Vec<&RunResult> = runs
                    .iter()
                    .copied()
                    .filter(|r| r.verbs_called.is_some())
                    .collect();
                let column = VerbColumn {
                    condition: row.condition.clone(),
                    with_verbs: runs.len() as u32,
                    known: known.len() as u32,
                };
                (column, known)
            })
            .collect();
        if conditions.is_empty() {
            return None;
        }
        let tabled: Vec<&Vec<&RunResult>> = conditions
            .iter()
            .filter(|(column, _)| column.known > 0)
            .map(|(_, known)| known)
            .collect();
        let mut by_verb: BTreeMap<String, Vec<VerbCell>> = BTreeMap::new();
        for (index, known) in tabled.iter().enumerate() {
            let installed = known.iter().flat_map(|r| r.verbs.iter().flatten());
            for (verb, _) in installed {
                let cells = by_verb
                    .entry(verb.clone())
                    .or_insert_with(|| vec![None; tabled.len()]);
                cells[index] = Some((0, 0));
            }
            for called in known.iter().filter_map(|r| r.verbs_called.as_ref()) {
                for (verb, times) in called {
                    // A verb the agent added itself was not installed for the run.
                    let cell = by_verb
                        .get_mut(verb)
                        .and_then(|cells| cells[index].as_mut());
                    if let Some((runs, calls)) = cell
                        && *times > 0
                    {
                        *runs += 1;
                        *calls = calls.saturating_add(u64::from(*times));
                    }
                }
            }
        }
        let total = |cells: &[VerbCell]| -> u64 {
            cells
                .iter()
                .flatten()
                .map(|c| c.1)
                .fold(0, u64::saturating_add)
        };
        let mut verbs: Vec<(String, Vec<VerbCell>)> = by_verb.into_iter().collect();
        // Stable: equal totals stay in the verbs' names' order.
        verbs.sort_by_key(|(_, cells)| std::cmp::Reverse(total(cells)));
        let runs = with_verbs.iter().flat_map(|(runs, _)| runs);
        Some(Self {
            conditions: conditions.into_iter().map(|(c, _)| c).collect(),
            verbs,
            window_hours: window_hours(runs.copied()),
        })
    }

    /// The columns of the conditions whose calls are known.
    fn tabled(&self) -> impl Iterator<Item = &VerbColumn> {
        self.conditions.iter().filter(|c| c.known > 0)
    }

    /// The table's header and rows: `2/3 · 7` is 2 of the condition's 3 runs invoked the
    /// verb, 7 times in all; `–` it was installed and none did.
    fn table(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let header = std::iter::once("verb".to_owned())
            .chain(self.tabled().map(|c| c.condition.clone()))
            .collect();
        let rows = self
            .verbs
            .iter()
            .map(|(verb, cells)| {
                let cells = cells
                    .iter()
                    .zip(self.tabled())
                    .map(|(cell, column)| match cell {
                        None => "not installed".to_owned(),
                        Some((0, _)) => "–".to_owned(),
                        Some((runs, calls)) => format!("{runs}/{} · {calls}", column.known),
                    });
                std::iter::once(verb.clone()).chain(cells).collect()
            })
            .collect();
        (header, rows)
    }

    /// Per condition whose calls are known, the verbs installed for it that no run
    /// invoked, in their names' order.
    fn unused(&self) -> Vec<(&VerbColumn, Vec<&str>, usize)> {
        self.tabled()
            .enumerate()
            .map(|(index, column)| {
                let installed = self
                    .verbs
                    .iter()
                    .filter(|(_, cells)| cells[index].is_some());
                let mut unused: Vec<&str> = installed
                    .clone()
                    .filter(|(_, cells)| cells[index].is_some_and(|(runs, _)| runs == 0))
                    .map(|(verb, _)| verb.as_str())
                    .collect();
                unused.sort_unstable();
                (column, unused, installed.count())
            })
            .collect()
    }

    /// Under the table: the verbs no run called, per condition; the runs whose calls are
    /// unknown; and how to prune the verbs no run called.
    fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let unused = self.unused();
        if !unused.is_empty() {
            let clauses: Vec<String> = unused
                .iter()
                .map(|(column, verbs, installed)| {
                    let named: Vec<String> = verbs.iter().map(|v| format!("`{v}`")).collect();
                    match verbs.len() {
                        0 => format!("`{}` none of {installed}", column.condition),
                        n => format!(
                            "`{}` {n} of {installed} ({})",
                            column.condition,
                            named.join(", ")
                        ),
                    }
                })
                .collect();
            lines.push(format!(
                "Installed and called by no run: {}.",
                clauses.join("; ")
            ));
        }
        let unknown: Vec<String> = self
            .conditions
            .iter()
            .filter(|c| c.known < c.with_verbs)
            .map(|c| {
                let what = if c.known == 0 {
                    "not tabled"
                } else {
                    "a verb said called by no run may have been called in them"
                };
                format!(
                    "`{}` {} of {} ({what})",
                    c.condition,
                    c.with_verbs - c.known,
                    plural(c.with_verbs as usize, "run")
                )
            })
            .collect();
        if !unknown.is_empty() {
            lines.push(format!(
                "Which verbs were called is unknown for runs an older `mur-eval` recorded, \
                 which kept no verb names: {}; `mur devtools usage report --server-log \
                 runs/<condition>/*/*/state/mur/usage/usage.jsonl` reads them from the runs' \
                 own logs.",
                unknown.join("; ")
            ));
        }
        if let Some((column, _, _)) = unused.iter().find(|(_, verbs, _)| !verbs.is_empty()) {
            let window = self
                .window_hours
                .map_or_else(|| "DURATION".to_owned(), |hours| format!("{hours}h"));
            let covers = match self.window_hours {
                Some(_) => format!("`{window}` covers the study's runs"),
                None => "`DURATION` as long as the study's runs took".to_owned(),
            };
            let runs = format!("runs/{}/*/*", column.condition);
            lines.push(format!(
                "To remove them from your installed verbs, judged on the runs' own logs, one \
                 condition at a time: from the study's directory, `mur devtools verbs prune \
                 --until last --unused-for {window} --server-log {runs}/calls.jsonl \
                 {runs}/state/mur/usage/usage.jsonl` ({covers}) prints what it would remove \
                 and `--yes` removes it (docs/usage.md, \"Removing the losers\"; a next study \
                 measures the rest only without `--verbs`: docs/eval.md, \"Pruning verbs \
                 between studies\")."
            ));
        }
        lines
    }

    /// The section of `report.md`.
    pub fn markdown(&self) -> String {
        let mut text = format!("## {VERBS_CALLED}\n\n{VERBS_CALLED_SAYS}\n\n");
        let (header, rows) = self.table();
        if header.len() > 1 {
            text.push_str(&markdown_table(&header, &rows));
        }
        for line in self.lines() {
            let _ = write!(text, "\n{line}\n");
        }
        text
    }

    /// The section of the page.
    fn html(&self) -> String {
        let mut body = format!(
            "<h2>{VERBS_CALLED}</h2><p>{}</p>",
            html::escape(&VERBS_CALLED_SAYS.replace('`', ""))
        );
        let (header, rows) = self.table();
        if header.len() > 1 {
            let header: Vec<&str> = header.iter().map(String::as_str).collect();
            body.push_str(&html::text_table(&header, &rows));
        }
        for line in self.lines() {
            let _ = write!(body, "<p>{}</p>", html::escape(&line.replace('`', "")));
        }
        body
    }
}

const VERBS_CALLED: &str = "Verbs called, by condition";
const VERBS_CALLED_SAYS: &str = "Per verb installed for a condition's runs (the conditions \
    that install verbs), of its runs the ones that invoked it — any invocation mur \
    recorded, a refused one too, as `usage report` counts a use — then the invocations \
    (`2/3 · 7`; `–` none), most invocations first.";

/// The whole hours from the first of `runs`' starts to the last one's end (at least 1):
/// a `verbs prune --until last --unused-for` window over the runs' logs that reaches back
/// past their first call. `None` when no run says when it started.
fn window_hours<'a>(runs: impl Iterator<Item = &'a RunResult>) -> Option<u64> {
    let spans: Vec<(i128, i128)> = runs
        .filter_map(|r| {
            let start = started_millis(r.started_at.as_deref()?)?;
            Some((start, start + r.wall_ms.max(0.0) as i128))
        })
        .collect();
    let first = spans.iter().map(|s| s.0).min()?;
    let last = spans.iter().map(|s| s.1).max()?;
    const HOUR: i128 = 3_600_000;
    Some(((last - first + HOUR - 1) / HOUR).max(1) as u64)
}

/// A run's `startedAt` (UTC RFC 3339 with milliseconds, as mur-eval writes it) in
/// milliseconds since the Unix epoch.
fn started_millis(text: &str) -> Option<i128> {
    // `2026-12-02T06:42:22.123Z`: mur-eval's own form; another is no start.
    let time = text.strip_suffix('Z').filter(|t| t.len() == 23)?;
    let field = |at: usize, len: usize| time.get(at..at + len)?.parse::<u16>().ok();
    let month = time::Month::try_from(u8::try_from(field(5, 2)?).ok()?).ok()?;
    let date = time::Date::from_calendar_date(i32::from(field(0, 4)?), month, field(8, 2)? as u8);
    let [hour, minute, second] = [field(11, 2)?, field(14, 2)?, field(17, 2)?.min(59)];
    let clock = time::Time::from_hms_milli(hour as u8, minute as u8, second as u8, field(20, 3)?);
    let at = time::PrimitiveDateTime::new(date.ok()?, clock.ok()?).assume_utc();
    Some(at.unix_timestamp_nanos() / 1_000_000)
}

/// Groups `results` by condition (in the order of `conditions`, then any other seen)
/// and by task.
pub fn rows<'a>(results: &'a [RunResult], conditions: &[String]) -> Rows<'a> {
    let mut names: Vec<String> = conditions.to_vec();
    for r in results {
        if !names.contains(&r.condition) {
            names.push(r.condition.clone());
        }
    }
    let mut tasks: Vec<String> = results.iter().map(|r| r.task.clone()).collect();
    tasks.sort();
    tasks.dedup();
    let of = |c: &str, t: Option<&str>| -> Vec<&RunResult> {
        results
            .iter()
            .filter(|r| r.condition == c && t.is_none_or(|t| r.task == t))
            .collect()
    };
    let condition_rows = names
        .iter()
        .filter(|c| !of(c, None).is_empty())
        .map(|c| row(c, None, &of(c, None)))
        .collect();
    let mut task_rows = Vec::new();
    for task in &tasks {
        for c in &names {
            let runs = of(c, Some(task));
            if !runs.is_empty() {
                task_rows.push(row(c, Some(task), &runs));
            }
        }
    }
    Rows {
        categories: Categories::of(results, &names),
        conditions: condition_rows,
        tasks: task_rows,
        agents: Vec::new(),
        commands: Vec::new(),
        results,
        against: None,
    }
}

fn number(value: Option<f64>) -> String {
    match value {
        None => "–".to_owned(),
        Some(v) if v >= 100.0 || v.fract() == 0.0 => format!("{v:.0}"),
        Some(v) => format!("{v:.1}"),
    }
}

fn seconds(value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_owned(), |v| format!("{v:.2} s"))
}

/// A rate as a whole percentage; 100% and 0% only when exact (299 of 300 is 99%, not
/// 100%). Exact within what floating point computes: the Wilson interval's upper bound
/// of 42 of 42 is 1 less a rounding error, and printed 99%.
fn percent(value: f64) -> String {
    const ROUNDING: f64 = 1e-9;
    match format!("{:.0}", value * 100.0).as_str() {
        "100" if value < 1.0 - ROUNDING => "99%".to_owned(),
        "0" if value > ROUNDING => "1%".to_owned(),
        shown => format!("{shown}%"),
    }
}

/// The figures' headers: the medians say so, or a condition's `calls 3` over 14 tasks
/// reads as a total.
const HEADER: &str = "| runs | success | 95% CI | median calls | median attempts | median failed calls | median turns | median input tokens | median context tokens (before) | median context bytes | median time |";

/// A row's figures as the tables print them: runs, success, 95% CI, calls, attempts,
/// failed calls, turns, input tokens, context tokens, before the first call, context
/// bytes, time.
fn figures(row: &Row) -> [String; 12] {
    [
        row.runs.to_string(),
        match row.rate() {
            None => "0/0 (–)".to_owned(),
            Some(rate) => format!("{}/{} ({})", row.successes, row.runs, percent(rate)),
        },
        match row.rate() {
            None => "–".to_owned(),
            Some(_) => format!("{}–{}", percent(row.low), percent(row.high)),
        },
        number(row.calls),
        number(row.attempts),
        number(row.failed),
        counted(row.turns, row.turns_runs, row.runs),
        counted(row.input_tokens, row.input_runs, row.runs),
        at_least(row, number(row.context_tokens)),
        number(row.context_before),
        at_least(row, number(row.context_bytes)),
        seconds(row.seconds),
    ]
}

/// A context figure, marked `≥` when some of the row's runs made MCP calls whose results
/// were not counted: it is then a lower bound (the line under the table says why).
fn at_least(row: &Row, figure: String) -> String {
    if row.mcp_unseen > 0 && figure != "–" {
        format!("≥{figure}")
    } else {
        figure
    }
}

/// A Markdown table's line under its header, of `columns` columns.
fn separator(columns: usize) -> String {
    format!("|{}", "---|".repeat(columns))
}

/// `header` and `rows` as a Markdown table, a line each.
fn markdown_table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut text = format!("| {} |\n{}\n", header.join(" | "), separator(header.len()));
    for row in rows {
        let _ = writeln!(text, "| {} |", row.join(" | "));
    }
    text
}

fn cells(row: &Row) -> String {
    let [
        runs,
        success,
        ci,
        calls,
        attempts,
        failed,
        turns,
        input,
        context,
        before,
        bytes,
        time,
    ] = figures(row);
    format!(
        "| {runs} | {success} | {ci} | {calls} | {attempts} | {failed} | {turns} | {input} | {context} ({before}) | {bytes} | {time} |"
    )
}

/// The per-condition table and what it is compared by: against the reference, and the
/// agent's own choice where both surfaces were offered (the README's baseline is this).
pub fn condition_table(rows: &Rows<'_>) -> String {
    let mut text = format!("| condition {HEADER}\n{}\n", separator(12));
    for row in &rows.conditions {
        let _ = writeln!(text, "| {} {}", row.condition, cells(row));
    }
    for line in table_lines(rows) {
        let _ = write!(text, "\n{line}\n");
    }
    text
}

/// What follows the per-condition table, in order: who ran it, what was left out or cut
/// short, how the conditions compare, and the usage errors — the same lines in the
/// report, on the page and in the README's block (which once lacked the usage errors,
/// so its attempts exceeded its calls with no word why).
fn table_lines(rows: &Rows<'_>) -> Vec<String> {
    [
        agents_line(rows),
        verb_sets_line(rows),
        task_versions_line(rows),
        condition_versions_line(rows),
        errors_line(rows),
        not_started_line(rows),
        agent_exits_line(rows),
        no_events_line(rows),
        timed_out_line(rows),
        unseen_line(rows),
        captured_line(rows),
        images_line(rows),
        unequal_line(rows),
        rows.reference()
            .and_then(|reference| against(rows, reference)),
        rows.categories.never_completed(),
        refused_line(rows),
        failed_line(rows),
        preference_line(rows),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The agents that made `row`'s runs: those its runs recorded, and for runs recorded
/// without one, those the study's commands named for its condition.
fn agents_of<'a>(row: &'a Row, rows: &'a Rows<'_>) -> Vec<&'a str> {
    let mut agents: Vec<&str> = row.agents.iter().map(String::as_str).collect();
    if row.agent_unrecorded {
        let named = rows.agents.iter().filter(|(c, _)| c == &row.condition);
        for agent in named.flat_map(|(_, agents)| agents) {
            if !agents.contains(&agent.as_str()) {
                agents.push(agent);
            }
        }
    }
    agents
}

/// Which agent made the runs in the table: one line naming it when every condition's
/// runs had the same; else a warning naming each condition's — a row whose runs were
/// made by more than one agent mixes them, and rows made by different agents compare
/// the agents as much as the surfaces (`None` when not known).
pub fn agents_line(rows: &Rows<'_>) -> Option<String> {
    let shown: Vec<(&str, Vec<&str>)> = rows
        .conditions
        .iter()
        .filter(|r| r.runs > 0)
        .map(|r| (r.condition.as_str(), agents_of(r, rows)))
        .filter(|(_, agents)| !agents.is_empty())
        .collect();
    let first = shown.first()?;
    let named = |agents: &[&str]| {
        agents
            .iter()
            .map(|a| format!("`{a}`"))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    let mixed = shown.iter().any(|(_, agents)| agents.len() > 1);
    if !mixed && shown.iter().all(|(_, agents)| agents == &first.1) {
        return Some(format!("Agent: {}.", named(&first.1)));
    }
    let clauses: Vec<String> = shown
        .iter()
        .map(|(c, agents)| format!("`{c}` by {}", named(agents)))
        .collect();
    let why = if mixed {
        "a condition's runs were made by different agents, so its row mixes them"
    } else {
        "the conditions were run by different agents, so their rows compare the agents as \
         much as the surfaces"
    };
    Some(format!("Warning: {why} — {}.", clauses.join("; ")))
}

/// A warning for the conditions whose runs had different verb sets installed (`None`
/// when none did): `verbs prune` or a rebuild between two commands into one study, whose
/// row then mixes them. Each set is said against the row's most common one.
pub fn verb_sets_line(rows: &Rows<'_>) -> Option<String> {
    per_condition(rows, |r| {
        (r.verb_sets.len() > 1).then(|| {
            let common = &r.verb_sets[0].0;
            let sets: Vec<String> = r
                .verb_sets
                .iter()
                .map(|(set, runs)| {
                    let names = |f: &dyn Fn(&String) -> bool, of: &BTreeMap<String, String>| {
                        of.keys()
                            .filter(|n| f(n))
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                    };
                    let mut how = Vec::new();
                    let without = names(&|n| !set.contains_key(n), common);
                    if !without.is_empty() {
                        how.push(format!("without {}", without.join(", ")));
                    }
                    let with = names(&|n| !common.contains_key(n), set);
                    if !with.is_empty() {
                        how.push(format!("with {}", with.join(", ")));
                    }
                    let other = names(
                        &|n| common.get(n).is_some_and(|sha| Some(sha) != set.get(n)),
                        set,
                    );
                    if !other.is_empty() {
                        how.push(format!("another build of {}", other.join(", ")));
                    }
                    let how = if how.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", how.join("; "))
                    };
                    format!(
                        "{}{how} in {}",
                        plural(set.len(), "verb"),
                        plural(*runs as usize, "run")
                    )
                })
                .collect();
            format!("`{}` {}", r.condition, sets.join(", "))
        })
    })
    .map(|clauses| {
        format!(
            "Warning: a condition's runs had different verbs installed (`verbs prune` or a \
             rebuild between two commands into this study), so its row mixes them — {clauses}."
        )
    })
}

/// The runs the harness could not make, per condition with the first one's error
/// (`None` when it made every run): they are in no figure of the tables.
pub fn errors_line(rows: &Rows<'_>) -> Option<String> {
    per_condition(rows, |r| {
        (r.errors > 0).then(|| {
            let why = r
                .first_error
                .as_deref()
                .map(|e| format!(" (first: {})", cut(e, 200)))
                .unwrap_or_default();
            format!("`{}` {}{why}", r.condition, r.errors)
        })
    })
    .map(|clauses| {
        format!(
            "Errors: runs the harness could not make (the agent never ran), left out of \
             every figure above: {clauses}. The same command again (the same `--out`) makes \
             them."
        )
    })
}

/// The clauses `clause` gives the conditions that have one, in order and joined by `; `
/// (`None` when none has): what each line after the per-condition table lists.
fn per_condition(rows: &Rows<'_>, clause: impl Fn(&Row) -> Option<String>) -> Option<String> {
    let clauses: Vec<String> = rows.conditions.iter().filter_map(clause).collect();
    (!clauses.is_empty()).then(|| clauses.join("; "))
}

/// "`cli-derived` 2 of 4 runs" for each condition with runs that `count` counts, as
/// [`per_condition`] joins them.
fn runs_of_each_condition(rows: &Rows<'_>, count: fn(&Row) -> u32) -> Option<String> {
    per_condition(rows, |r| {
        (count(r) > 0).then(|| {
            format!(
                "`{}` {} of {}",
                r.condition,
                count(r),
                plural(r.runs as usize, "run")
            )
        })
    })
}

/// The runs whose agent never started (`sh` exited 127 or 126), per condition (`None`
/// when every agent started): their failures say nothing of a surface.
pub fn not_started_line(rows: &Rows<'_>) -> Option<String> {
    runs_of_each_condition(rows, |r| r.not_started).map(|clauses| {
        format!(
            "The agent never started (its command exited 127, not found, or 126, not \
             runnable) in {clauses}: each run's `agent.stderr` says why."
        )
    })
}

/// The runs whose agent exited nonzero (but for 126 and 127, which [`not_started_line`]
/// says), per condition with the exit codes (`None` when none did): an agent that
/// failed — a refused API key, a crash — fails its runs whatever the surface, which the
/// success column alone would put on the surface. How many of them exited before trying
/// the surface at all is said too.
pub fn agent_exits_line(rows: &Rows<'_>) -> Option<String> {
    let clauses = per_condition(rows, |r| {
        (!r.agent_exits.is_empty()).then(|| {
            let exited: u64 = r.agent_exits.values().map(|&n| u64::from(n)).sum();
            let codes: Vec<String> = r
                .agent_exits
                .iter()
                .map(|(code, n)| format!("exit {code} ×{n}"))
                .collect();
            format!(
                "`{}` {exited} of {} ({})",
                r.condition,
                plural(r.runs as usize, "run"),
                codes.join(", ")
            )
        })
    });
    let at_once: u64 = rows
        .conditions
        .iter()
        .map(|r| u64::from(r.failed_at_once))
        .sum();
    let at_once = match at_once {
        0 => String::new(),
        n => format!(
            "; {} before any call, `mur` command or transcript line (126 and 127 too)",
            plural(n as usize, "run")
        ),
    };
    clauses.map(|clauses| {
        format!(
            "The agent exited nonzero in {clauses}{at_once}: each run's `agent.stderr` says why."
        )
    })
}

/// The runs whose stdout held no event of the `--agent-format` given, per condition
/// (`None` when none): their turns, tokens and cost are `–` because nothing was read —
/// most often an agent not told to write its stream — not because it reported none.
pub fn no_events_line(rows: &Rows<'_>) -> Option<String> {
    runs_of_each_condition(rows, |r| r.no_events).map(|clauses| {
        format!(
            "Warning: `--agent-format` was given, but the agent's stdout held no event of it \
             in {clauses}: their turns, tokens and cost are unknown, and their context was counted \
             as if no stream were read; {}.",
            crate::adapters::NO_EVENTS_HINT
        )
    })
}

/// A warning for the tasks whose runs were judged by different versions of their file
/// (`None` when none were): a task edited, or `eval/tasks` pulled, between two commands
/// into one study mixes two oracles in its rows. Runs an older `mur-eval` recorded,
/// without the file's sha256, are no version of their own.
pub fn task_versions_line(rows: &Rows<'_>) -> Option<String> {
    versions_line(rows, |r| (&r.task, r.task_sha256.as_deref())).map(|clauses| {
        format!(
            "Warning: a task's file changed between commands into this study, so its runs \
             were judged by different oracles (by the sha256 of the file) — {clauses}."
        )
    })
}

/// A warning for the conditions whose runs had different versions of their files, the
/// condition's toml and its instructions (`None` when none did): the instructions are
/// the treatment, so a condition edited between two commands into one study mixes two
/// treatments in its row. Runs an older `mur-eval` recorded are no version of their own.
pub fn condition_versions_line(rows: &Rows<'_>) -> Option<String> {
    versions_line(rows, |r| (&r.condition, r.condition_sha256.as_deref())).map(|clauses| {
        format!(
            "Warning: a condition's files changed between commands into this study, so its \
             runs had different instructions or settings (by the sha256 of its file and its \
             instructions) — {clauses}."
        )
    })
}

/// Of what `of` names each made run by (a task, a condition) and the version it had,
/// the names with more than one version, each with its versions and their runs
/// (`` `count` aaaaaaaaaaaa in 2 runs, bbbbbbbbbbbb in 1 run``); `None` when none.
fn versions_line(
    rows: &Rows<'_>,
    of: impl Fn(&RunResult) -> (&String, Option<&str>),
) -> Option<String> {
    let mut versions: BTreeMap<&str, Vec<(&str, u32)>> = BTreeMap::new();
    for r in rows.results.iter().filter(|r| r.error.is_none()) {
        let (name, Some(sha)) = of(r) else {
            continue;
        };
        let seen = versions.entry(name.as_str()).or_default();
        match seen.iter_mut().find(|(s, _)| *s == sha) {
            Some((_, n)) => *n += 1,
            None => seen.push((sha, 1)),
        }
    }
    let clauses: Vec<String> = versions
        .iter()
        .filter(|(_, seen)| seen.len() > 1)
        .map(|(name, seen)| {
            let each: Vec<String> = seen
                .iter()
                .map(|(sha, n)| {
                    // As results.jsonl holds it: a hand-edited value may be no hex.
                    let short = sha.get(..12).unwrap_or(sha);
                    format!("{short} in {}", plural(*n as usize, "run"))
                })
                .collect();
            format!("`{name}` {}", each.join(", "))
        })
        .collect();
    (!clauses.is_empty()).then(|| clauses.join("; "))
}

/// The runs the time limit ended, per condition (`None` when none): their time is the
/// limit, so a median time over them is a lower bound, and their other figures partial.
pub fn timed_out_line(rows: &Rows<'_>) -> Option<String> {
    runs_of_each_condition(rows, |r| r.timed_out).map(|clauses| {
        format!(
            "Timed out (the time limit ended the agent; its time is the limit, so the medians \
             are lower bounds): {clauses}."
        )
    })
}

/// The runs whose MCP results nothing counted, per condition (`None` when none): an
/// agent that logs no transcript and has no event stream mur-eval reads, whose context
/// then holds the tool schemas but none of the results it received.
pub fn unseen_line(rows: &Rows<'_>) -> Option<String> {
    runs_of_each_condition(rows, |r| r.mcp_unseen).map(|clauses| {
        format!(
            "Warning: context under-counted (`≥`): the agent made MCP calls but neither logged \
             their results (`MUR_EVAL_TRANSCRIPT`) nor gave an event stream that carries them \
             (`--agent-format`), so its context leaves them out, in {clauses}."
        )
    })
}

/// How the images the agents received were counted, per condition (`None` when no run
/// received one): as images, never as their base64 text, which would put a screenshot at
/// tens of thousands of tokens; and how many were left out of the tokens.
pub fn images_line(rows: &Rows<'_>) -> Option<String> {
    let clauses = per_condition(rows, |r| {
        (r.images > 0).then(|| {
            let unsized_ = match r.images_unsized {
                0 => String::new(),
                n => format!(" ({n} of unknown pixel size: bytes only)"),
            };
            format!(
                "`{}` {}{unsized_}",
                r.condition,
                plural(r.images as usize, "image")
            )
        })
    })?;
    Some(format!(
        "Images in tool results counted as images, not as their base64 text: {IMAGES_COUNTED}, \
         in {clauses}."
    ))
}

/// How an image is counted, as the report says it ([`crate::images`]).
const IMAGES_COUNTED: &str = "tokens ≈ width × height / 750 (Anthropic's estimate, after scaling \
     to at most 1568 px on the long edge and ~1600 tokens), bytes its own size; one whose \
     pixel size is not in a PNG or JPEG header counts its bytes and no tokens";

/// The runs whose CLI results were counted from what `mur` printed, per condition
/// (`None` when none): no event stream said what the agent received, so output it piped
/// away (`| jq`, `> file`) is counted whole and the figures are upper bounds.
pub fn captured_line(rows: &Rows<'_>) -> Option<String> {
    runs_of_each_condition(rows, |r| r.captured).map(|clauses| {
        format!(
            "CLI context counted from everything `mur` printed, as no event stream \
             (`--agent-format`) said what the agent received: output it piped away or sent \
             to a file is counted whole, so these figures are upper bounds, in {clauses}."
        )
    })
}

/// `text`, at most `max` characters (`…` when cut).
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// One line when the conditions did not run the same tasks the same number of times
/// (`None` when they did, or for one condition): each condition's tasks and repeats, and
/// the tasks it lacks. Its row then sums another set of runs than the others', so the
/// rows do not compare like for like — as when commands with different `--tasks` or
/// `--repeats` wrote into one study, or a study was stopped before its end.
pub fn unequal_line(rows: &Rows<'_>) -> Option<String> {
    let ran: Vec<(&str, BTreeMap<&str, u32>)> = rows
        .conditions
        .iter()
        .map(|c| {
            let tasks = rows
                .tasks
                .iter()
                .filter(|r| r.condition == c.condition)
                .filter_map(|r| Some((r.task.as_deref()?, r.runs)))
                .collect();
            (c.condition.as_str(), tasks)
        })
        .collect();
    if ran.windows(2).all(|pair| pair[0].1 == pair[1].1) {
        return None;
    }
    let every: BTreeSet<&str> = ran.iter().flat_map(|(_, t)| t.keys().copied()).collect();
    let clauses: Vec<String> = ran
        .iter()
        .map(|(condition, tasks)| {
            let fewest = tasks.values().min().copied().unwrap_or(0);
            let most = tasks.values().max().copied().unwrap_or(0);
            let repeats = if fewest == most {
                plural(most as usize, "repeat")
            } else {
                format!("{fewest}–{most} repeats")
            };
            let lacking: Vec<String> = every
                .iter()
                .filter(|t| !tasks.contains_key(*t))
                .map(|t| format!("`{t}`"))
                .collect();
            let without = if lacking.is_empty() {
                String::new()
            } else {
                format!(", without {}", lacking.join(", "))
            };
            format!(
                "`{condition}` {} × {repeats}{without}",
                plural(tasks.len(), "task")
            )
        })
        .collect();
    Some(format!(
        "Warning: the conditions ran different tasks or numbers of repeats, so their rows \
         are not like for like — {}. Compare them task by task, on the tasks they share.",
        clauses.join("; ")
    ))
}

/// `n thing` or `n things`.
pub fn plural(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// The condition the others are compared with: mur as it ships.
pub const REFERENCE: &str = "cli-named";

/// Each other condition's success and median context tokens against `reference`'s, as
/// one line (`None` without the reference or another condition). The difference in
/// success carries its 95% interval ([`newcombe`]); the change in context tokens is
/// between two medians and carries none (see [`legend`]).
pub fn against(rows: &Rows<'_>, reference: &str) -> Option<String> {
    rows.conditions.iter().find(|r| r.condition == reference)?;
    if started(rows, reference).is_empty() {
        return None;
    }
    let others: Vec<String> = rows
        .conditions
        .iter()
        .filter(|r| r.condition != reference)
        .filter_map(|r| compared(rows, reference, &r.condition))
        .collect();
    (!others.is_empty()).then(|| format!("Against `{reference}`: {}.", others.join("; ")))
}

/// The runs of `condition` the harness made and whose agent started: one that never did
/// (127, 126) measured nothing of the surface, and a comparison built from it would
/// compare the instructions' tokens alone.
fn started<'a>(rows: &Rows<'a>, condition: &str) -> Vec<&'a RunResult> {
    rows.results
        .iter()
        .filter(|r| r.condition == condition && r.error.is_none())
        .filter(|r| crate::agent::could_not_start(r.agent_exit).is_none())
        .collect()
}

/// `condition` against `reference`, over the (task, repeat) cells both made — like for
/// like even where their commands ran other tasks or repeats (the medians over all runs
/// would compare two task mixes) — saying so when that leaves some runs out. `None`
/// when the reference's context tokens are none to compare with.
fn compared(rows: &Rows<'_>, reference: &str, condition: &str) -> Option<String> {
    let (base_runs, other_runs) = (started(rows, reference), started(rows, condition));
    if other_runs.is_empty()
        && rows
            .results
            .iter()
            .any(|r| r.condition == condition && r.error.is_none())
    {
        return Some(format!(
            "`{condition}` not compared: its agent never started"
        ));
    }
    let cell = |r: &&RunResult| (r.task.clone(), r.repeat);
    let base_cells: BTreeSet<(String, u32)> = base_runs.iter().map(cell).collect();
    let other_cells: BTreeSet<(String, u32)> = other_runs.iter().map(cell).collect();
    let shared: BTreeSet<&(String, u32)> = base_cells.intersection(&other_cells).collect();
    if shared.is_empty() && !(base_runs.is_empty() && other_runs.is_empty()) {
        return Some(format!(
            "`{condition}` made no run of a task and repeat `{reference}` made"
        ));
    }
    let in_shared = |r: &&&RunResult| shared.contains(&(r.task.clone(), r.repeat));
    let base_kept: Vec<&RunResult> = base_runs.iter().filter(in_shared).copied().collect();
    let other_kept: Vec<&RunResult> = other_runs.iter().filter(in_shared).copied().collect();
    let (base, other) = (
        row(reference, None, &base_kept),
        row(condition, None, &other_kept),
    );
    let base_tokens = base.context_tokens.filter(|t| *t > 0.0)?;
    let change = other.context_tokens.map_or_else(
        || "–".to_owned(),
        |t| format!("{:+.0}%", (t / base_tokens - 1.0) * 100.0),
    );
    // Without runs on one side there is no difference of success.
    let success = match (other.rate(), base.rate()) {
        (Some(rate), Some(base_rate)) => {
            let points = (rate - base_rate) * 100.0;
            let (low, high) = newcombe((other.successes, other.runs), (base.successes, base.runs));
            format!(
                "{points:+.0} points of success ({} to {})",
                signed_points(low),
                signed_points(high)
            )
        }
        _ => "no runs to compare success by".to_owned(),
    };
    let over = if base_cells == other_cells {
        String::new()
    } else {
        format!(
            ", over the {} of the same task and repeat both made",
            plural(shared.len(), "run")
        )
    };
    Some(format!(
        "`{condition}` {change} context tokens, {success}{over}"
    ))
}

/// The 95% interval of the difference of two independent proportions, `one` less
/// `two` (each `(successes, runs)`), by Newcombe's hybrid score method (Newcombe 1998,
/// method 10): each proportion's Wilson interval, its two distances from its
/// proportion combined in quadrature. Neither Wilson interval alone bounds a
/// difference (it has both proportions' variances), and the simple Wald interval
/// collapses at 0% and 100% — where small studies of agents often are.
pub fn newcombe(one: (u32, u32), two: (u32, u32)) -> (f64, f64) {
    let rate = |(successes, runs): (u32, u32)| f64::from(successes) / f64::from(runs.max(1));
    let (p1, p2) = (rate(one), rate(two));
    let (l1, u1) = wilson(one.0, one.1);
    let (l2, u2) = wilson(two.0, two.1);
    let d = p1 - p2;
    (
        d - ((p1 - l1).powi(2) + (u2 - p2).powi(2)).sqrt(),
        d + ((u1 - p1).powi(2) + (p2 - l2).powi(2)).sqrt(),
    )
}

/// A difference of proportions (-1 to 1) in points, signed, rounded (never `-0`).
fn signed_points(value: f64) -> String {
    let points = (value * 100.0).round();
    if points == 0.0 {
        "+0".to_owned()
    } else {
        format!("{points:+.0}")
    }
}

/// How the study was made (`None` when not known): its commands that made runs in the
/// results, each with the versions and machine it ran on and how many, and when its runs
/// started — wall times on a loaded 2-core machine with a debug build are not those of
/// another, and a study is made again from these. A command that made none (a resume
/// with nothing left, run with another `--jobs`) is not named; where some run does not
/// say which command made it (an older `mur-eval`), every command is, without counts.
pub fn made_line(rows: &Rows<'_>) -> Option<String> {
    let attributed = rows.results.iter().all(|r| r.made_by.is_some());
    let commands: Vec<String> = rows
        .commands
        .iter()
        .enumerate()
        .filter_map(|(i, command)| {
            if !attributed {
                return Some(command.clone());
            }
            let made = rows.results.iter().filter(|r| r.made_by == Some(i)).count();
            (made > 0).then(|| format!("{command}, {}", plural(made, "run")))
        })
        .collect();
    if commands.is_empty() {
        return None;
    }
    let started: Vec<&str> = rows
        .results
        .iter()
        .filter_map(|r| r.started_at.as_deref())
        .collect();
    let when = match (started.iter().min(), started.iter().max()) {
        (Some(first), Some(last)) => format!(" Its runs started from {first} to {last}."),
        _ => String::new(),
    };
    Some(format!("Made by {}.{when}", commands.join("; then ")))
}

/// `report.md`: the conditions, then the tasks, then how to read them.
pub fn markdown(rows: &Rows<'_>, title: &str) -> String {
    let mut text = format!("# {title}\n\n");
    if let Some(line) = made_line(rows) {
        let _ = write!(text, "{line}\n\n");
    }
    text.push_str("## Conditions\n\n");
    text.push_str(&condition_table(rows));
    let off: Vec<String> = rows
        .conditions
        .iter()
        .filter(|r| r.off_condition > 0)
        .map(|r| format!("{} ({})", r.condition, r.off_condition))
        .collect();
    if !off.is_empty() {
        let _ = writeln!(
            text,
            "\nCalls outside the condition's verb set: {}.",
            off.join(", ")
        );
    }
    if let Some((header, cells)) = rows.categories.table() {
        let _ = write!(
            text,
            "\n## Task categories\n\nSuccessful runs of the tasks in each category.\n\n{}",
            markdown_table(&header, &cells)
        );
    }
    if let Some(used) = ToolsUsed::of(rows) {
        let _ = write!(text, "\n{}", used.markdown());
    }
    if let Some(verbs) = VerbsCalled::of(rows) {
        let _ = write!(text, "\n{}", verbs.markdown());
    }
    text.push_str(&format!(
        "\n## Tasks\n\n| task | condition {HEADER}\n{}\n",
        separator(13)
    ));
    for row in &rows.tasks {
        let _ = writeln!(
            text,
            "| {} | {} {}",
            row.task.as_deref().unwrap_or(""),
            row.condition,
            cells(row)
        );
    }
    let _ = write!(text, "\n{}", legend());
    text
}

/// The invocations mur refused, per condition with their argv shapes, most frequent
/// first (`None` when there were none): the argv agents reached for that a verb did
/// not take, which cost turns but never reached the session.
pub fn refused_line(rows: &Rows<'_>) -> Option<String> {
    per_condition(rows, |r| {
        (r.refused_total() > 0).then(|| {
            let mut shapes: Vec<(&String, &u64)> = r.refused.iter().collect();
            shapes.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
            let shapes: Vec<String> = shapes
                .iter()
                .map(|(argv, times)| format!("`{argv}` ×{times}"))
                .collect();
            format!(
                "`{}` {} ({})",
                r.condition,
                r.refused_total(),
                shapes.join(", ")
            )
        })
    })
    .map(|clauses| {
        format!(
            "Invocations mur refused (argv a verb did not take; WORD is any other word): {clauses}."
        )
    })
}

/// The failed calls, per condition with the runs that had one (`None` when no call
/// failed): the column's median can be 0 while a few runs failed calls, and which
/// surface leads an agent into failing calls is what a study compares.
pub fn failed_line(rows: &Rows<'_>) -> Option<String> {
    per_condition(rows, |r| {
        (r.failed_total > 0).then(|| {
            format!(
                "`{}` {} in {} of {}",
                r.condition,
                r.failed_total,
                r.failed_runs,
                plural(r.runs as usize, "run")
            )
        })
    })
    .map(|clauses| format!("Failed calls (the session answered with an error): {clauses}."))
}

/// Where the conditions that offered both surfaces saw the agent reach, one clause per
/// condition (`None` when no condition offered both): the run's first call, then every
/// call.
pub fn preference_line(rows: &Rows<'_>) -> Option<String> {
    per_condition(rows, |r| {
        (r.reach.offered_both > 0).then(|| {
            let reach = &r.reach;
            let share = reach
                .cli_share()
                .map_or_else(|| "no calls".to_owned(), |s| format!("{} of calls via the CLI", percent(s)));
            let listed = match reach.order_varied {
                0 => String::new(),
                varied => format!(
                    "; the surface its instructions named first was reached first in {} of {varied}",
                    reach.first_as_listed
                ),
            };
            format!(
                "{} first reached for the CLI in {} of {}, for MCP in {}{listed}; {share} ({} CLI, {} MCP)",
                r.condition, reach.first_cli, plural(r.runs as usize, "run"), reach.first_mcp, reach.cli_calls, reach.mcp_calls
            )
        })
    })
    .map(|clauses| format!("Where both surfaces were offered, the agent's own choice: {clauses}."))
}

/// What the columns mean, under every table.
pub fn legend() -> String {
    format!(
        "Success is the task's oracle on the app's state; the interval is the 95% Wilson \
         score interval. Against the reference condition, the points of success carry the \
         95% interval of a difference of two proportions (Newcombe's hybrid score interval, \
         from the two Wilson intervals); the change in context tokens is between two \
         medians and carries none. Other columns are medians per run: calls the session served for \
         the agent, attempts (those calls and the invocations mur refused before any call: \
         an MCP agent's wrong tool name is a call, a CLI agent's wrong verb or option is \
         not, so compare the surfaces by attempts), failed calls (calls the session \
         answered with an error: a tool that failed, an unknown tool), the agent's turns and input tokens (when its event stream reports \
         them, `–` otherwise; `4 (1 of 2)` when only some runs reported them), context tokens (`{ENCODING}`: an estimate for models with \
         other tokenizers) of everything the agent received — the tool results its event \
         stream carries when one is read, through either surface; else what `mur` printed \
         (an upper bound: output the agent piped away is counted whole) and the MCP results \
         it logged — the part before its first call in parentheses — and its bytes, and the \
         agent's wall time. An image a result carried counts as an image, not as its base64 \
         text: {IMAGES_COUNTED}. A run the harness could not make (no agent ran) is in no \
         figure: it is counted apart (report.csv's `runs_not_made`), never as a failure.\n"
    )
}

fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

/// `report.csv`: one row per condition (empty `task`), then per task and condition.
pub fn csv(rows: &Rows<'_>) -> String {
    let mut text = String::from(
        "condition,task,runs,successes,success_rate,ci_low,ci_high,median_calls,median_attempts,median_failed_calls,median_turns,median_input_tokens,median_output_tokens,median_cost_usd,median_context_tokens,median_context_tokens_before,median_context_bytes,median_seconds,off_condition_calls,refused_invocations,failed_calls,cli_calls,mcp_calls,first_via_cli,first_via_mcp,order_varied_runs,first_via_listed_first,runs_not_made,turns_runs,input_tokens_runs,timed_out,mcp_results_unseen_runs,agent_failed,agent_failed_at_once,no_events_runs,images,images_unsized,image_tokens,image_bytes\n",
    );
    let opt = |v: Option<f64>| v.map_or_else(String::new, |v| format!("{v}"));
    for row in rows.conditions.iter().chain(&rows.tasks) {
        // A row with no runs has no rate and no interval: empty, as its medians are,
        // never 0% within 0–0.
        let (rate, low, high) = row.rate_and_interval().map_or_else(
            || (String::new(), String::new(), String::new()),
            |(rate, low, high)| {
                (
                    format!("{rate:.4}"),
                    format!("{low:.4}"),
                    format!("{high:.4}"),
                )
            },
        );
        let _ = writeln!(
            text,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            quote(&row.condition),
            quote(row.task.as_deref().unwrap_or("")),
            row.runs,
            row.successes,
            rate,
            low,
            high,
            opt(row.calls),
            opt(row.attempts),
            opt(row.failed),
            opt(row.turns),
            opt(row.input_tokens),
            opt(row.output_tokens),
            opt(row.cost_usd),
            opt(row.context_tokens),
            opt(row.context_before),
            opt(row.context_bytes),
            row.seconds.map_or_else(String::new, |v| format!("{v:.3}")),
            row.off_condition,
            row.refused_total(),
            row.failed_total,
            row.reach.cli_calls,
            row.reach.mcp_calls,
            row.reach.first_cli,
            row.reach.first_mcp,
            row.reach.order_varied,
            row.reach.first_as_listed,
            row.errors,
            row.turns_runs,
            row.input_runs,
            row.timed_out,
            row.mcp_unseen,
            row.agent_exits.values().map(|&n| u64::from(n)).sum::<u64>()
                + u64::from(row.not_started),
            row.failed_at_once,
            row.no_events,
            row.images,
            row.images_unsized,
            // Unknown (an older record of a run that received images): empty, not 0.
            row.images_size
                .map_or_else(String::new, |s| s.tokens.to_string()),
            row.images_size
                .map_or_else(String::new, |s| s.bytes.to_string()),
        );
    }
    text
}

fn html_table(rows: &[&Row], with_task: bool) -> String {
    let mut headers = vec![];
    if with_task {
        headers.push("task");
    }
    headers.extend([
        "condition",
        "runs",
        "success",
        "95% CI",
        "median calls",
        "median attempts",
        "median failed calls",
        "median turns",
        "median input tokens",
        "median context tokens",
        "before first call",
        "median context bytes",
        "median time",
    ]);
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            let mut cells = vec![];
            if with_task {
                cells.push(row.task.clone().unwrap_or_default());
            }
            cells.push(row.condition.clone());
            cells.extend(figures(row));
            cells
        })
        .collect();
    html::text_table(&headers, &body)
}

/// What a chart shows of a row: its bar's segments, named.
type Segments<'a> = &'a dyn Fn(&Row) -> Vec<(String, f64)>;

/// One bar chart per `(title, segments)`, a bar per row with runs labelled by `label`;
/// the rows without runs are drawn in none (a bar would end in a 0 no run measured) and
/// named under the charts.
fn charts(rows: &[&Row], label: &dyn Fn(&Row) -> String, charts: &[(&str, Segments)]) -> String {
    let mut out = String::new();
    let (drawn, none): (Vec<&Row>, Vec<&Row>) = rows.iter().partition(|row| row.runs > 0);
    if drawn.is_empty() {
        return out;
    }
    for (title, segments) in charts {
        let bars: Vec<Bar> = drawn
            .iter()
            .map(|row| Bar {
                label: label(row),
                segments: segments(row),
            })
            .collect();
        out.push_str(&html::bar_chart(title, &bars));
    }
    if !none.is_empty() {
        let named: Vec<String> = none.iter().map(|row| label(row)).collect();
        let _ = write!(
            out,
            "<p>No runs made (not drawn): {}.</p>",
            html::escape(&named.join(", "))
        );
    }
    out
}

/// A figure as the tables print it (`number`, `seconds`, `percent`), for a chart to
/// show the same: a median of 4552.5 tokens is 4552 in both, not 4552.5 in one.
fn as_printed(printed: &str) -> f64 {
    let figure = printed.trim_end_matches([' ', 's', '%']);
    figure.parse().unwrap_or(0.0)
}

/// A bar of two segments, as the tables print the figures: the `part`, then what the
/// `whole` adds to it — so the bar ends at the whole (medians: the two are not summed).
fn two_parts(
    (part_name, part): (&str, Option<f64>),
    (rest_name, whole): (&str, Option<f64>),
) -> Vec<(String, f64)> {
    let part = as_printed(&number(part));
    vec![
        (part_name.to_owned(), part),
        (
            rest_name.to_owned(),
            (as_printed(&number(whole)) - part).max(0.0),
        ),
    ]
}

/// The report as one self-contained page: charts per condition and per task, the tables.
pub fn page(rows: &Rows<'_>, title: &str) -> String {
    let conditions: Vec<&Row> = rows.conditions.iter().collect();
    let tasks: Vec<&Row> = rows.tasks.iter().collect();
    let by_condition = |row: &Row| row.condition.clone();
    let by_task = |row: &Row| format!("{} · {}", row.task.as_deref().unwrap_or(""), row.condition);
    // Every figure as the tables print it.
    // (Only rows with runs are drawn: they have a rate.)
    let success = |row: &Row| {
        let rate = row.rate().map_or(0.0, |rate| as_printed(&percent(rate)));
        vec![("success %".to_owned(), rate)]
    };
    let context = |row: &Row| {
        two_parts(
            ("before the first call", row.context_before),
            ("results", row.context_tokens),
        )
    };
    // Attempts, not calls alone, are what the surfaces compare by (the legend): the bar
    // is the median calls, then what the median attempts add to them. Two medians'
    // difference (0.5 of a run of 2 and one of 3 calls), named as such: not a count of
    // refused invocations, which report.md gives per condition.
    let attempts = |row: &Row| {
        two_parts(
            ("median calls", row.calls),
            ("median attempts − median calls", row.attempts),
        )
    };
    let time = |row: &Row| vec![("seconds".to_owned(), as_printed(&seconds(row.seconds)))];
    // How the study was made, as report.md and the README's block begin: a published
    // page's figures are read for the build and machine they came from.
    let mut body = made_line(rows).map_or_else(String::new, |line| {
        format!("<p>{}</p>", html::escape(&line.replace('`', "")))
    });
    body.push_str("<h2>Conditions</h2>");
    body.push_str(&charts(
        &conditions,
        &by_condition,
        &[
            ("Success % per condition", &success),
            ("Context tokens per run (median, estimated)", &context),
            (
                "Attempts per run (median): the calls, then up to the attempts",
                &attempts,
            ),
            ("Wall time per run (median, s)", &time),
        ],
    ));
    body.push_str(&html_table(&conditions, false));
    for line in table_lines(rows) {
        let _ = write!(body, "<p>{}</p>", html::escape(&line.replace('`', "")));
    }
    if let Some((header, cells)) = rows.categories.table() {
        body.push_str(
            "<h2>Task categories</h2><p>Successful runs of the tasks in each category.</p>",
        );
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        body.push_str(&html::text_table(&header, &cells));
    }
    if let Some(used) = ToolsUsed::of(rows) {
        body.push_str(&used.html());
    }
    if let Some(verbs) = VerbsCalled::of(rows) {
        body.push_str(&verbs.html());
    }
    body.push_str("<h2>Tasks</h2>");
    body.push_str(&charts(
        &tasks,
        &by_task,
        &[
            ("Success % per task and condition", &success),
            (
                "Context tokens per task and condition (median, estimated)",
                &context,
            ),
            (
                "Attempts per task and condition (median): the calls, then up to the attempts",
                &attempts,
            ),
        ],
    ));
    body.push_str(&html_table(&tasks, true));
    // The page's tables give the part before the first call a column of its own, and
    // show no Markdown.
    let legend = legend()
        .replace(
            "the part before its first call in parentheses",
            "the part before its first call in a column of its own",
        )
        .replace('`', "");
    let _ = write!(body, "<p>{}</p>", html::escape(&legend));
    html::document(title, &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::result::{Checks, Context, RunCalls};
    use crate::tokens::Size;

    fn result(condition: &str, task: &str, success: bool, calls: u32, tokens: u64) -> RunResult {
        RunResult {
            success,
            checks: Checks {
                passed: u32::from(success),
                total: 1,
            },
            calls: RunCalls {
                total: calls,
                ..RunCalls::default()
            },
            wall_ms: 500.0,
            agent_exit: Some(0),
            context: Context {
                before: Size {
                    bytes: tokens * 2,
                    tokens: tokens / 2,
                },
                results: Size {
                    bytes: tokens * 2,
                    tokens: tokens / 2,
                },
                result_count: 1,
                total: Size {
                    bytes: tokens * 4,
                    tokens,
                },
                ..Context::default()
            },
            ..RunResult::unmade(
                format!("{condition}/{task}/1"),
                condition.to_owned(),
                "cli".to_owned(),
                task.to_owned(),
                1,
                "t".into(),
            )
        }
    }

    #[test]
    fn the_wilson_interval_matches_known_values() {
        let (low, high) = wilson(8, 10);
        assert!((low - 0.4902).abs() < 1e-4, "{low}");
        assert!((high - 0.9433).abs() < 1e-4, "{high}");
        let (low, high) = wilson(0, 5);
        assert_eq!(low, 0.0);
        assert!((high - 0.4345).abs() < 1e-4, "{high}");
        assert_eq!(wilson(3, 3).1, 1.0);
    }

    #[test]
    fn the_difference_of_two_rates_has_newcombes_interval() {
        // Newcombe (1998), table II: 56/70 against 48/80, method 10: 0.0524 to 0.3339.
        let (low, high) = newcombe((56, 70), (48, 80));
        assert!((low - 0.0524).abs() < 5e-5, "{low}");
        assert!((high - 0.3339).abs() < 5e-5, "{high}");
        // 9/10 against 3/10: 0.1705 to 0.8090 (method 10 of the same table).
        let (low, high) = newcombe((9, 10), (3, 10));
        assert!((low - 0.1705).abs() < 5e-5, "{low}");
        assert!((high - 0.8090).abs() < 5e-5, "{high}");
        // Both at 100%, as the README's baseline: the interval says how far apart two
        // perfect scores of 42 could still be, as the line prints it.
        let all = |condition: &str| {
            (1..=42)
                .map(|n| result(condition, &format!("t{n}"), true, 2, 100))
                .collect::<Vec<_>>()
        };
        let results = [all("cli-named"), all("mcp")].concat();
        let rows = rows(&results, &["cli-named".to_owned(), "mcp".to_owned()]);
        assert_eq!(
            against(&rows, "cli-named").as_deref(),
            Some("Against `cli-named`: `mcp` +0% context tokens, +0 points of success (-8 to +8).")
        );
        assert!(legend().contains("Newcombe's hybrid score interval"));
    }

    #[test]
    fn runs_whose_mcp_results_nothing_counted_are_marked_and_said() {
        let mcp = |task: &str, mcp_calls: u32, counted: u32| {
            let mut run = result("mcp", task, true, mcp_calls, 100);
            run.surface = "mcp".to_owned();
            run.calls.mcp = mcp_calls;
            run.context.result_count = counted;
            run
        };
        // Two runs logged no result of their calls (one recorded before runs said so,
        // one that says so); one logged its results; one made no call.
        let mut said = mcp("b", 2, 0);
        said.context.mcp_results_unseen = true;
        let results = vec![
            mcp("a", 3, 0),
            said,
            mcp("c", 2, 2),
            mcp("d", 0, 0),
            result("cli-named", "a", true, 2, 100),
        ];
        let rows = rows(&results, &["cli-named".to_owned(), "mcp".to_owned()]);
        let md = markdown(&rows, "study");
        assert!(
            md.contains(
                "| mcp | 4 | 4/4 (100%) | 51%–100% | 2 | 2 | 0 | – | – | ≥100 (50) | ≥400 |"
            ),
            "{md}"
        );
        assert!(
            md.contains(
                "| cli-named | 1 | 1/1 (100%) | 21%–100% | 2 | 2 | 0 | – | – | 100 (50) | 400 |"
            ),
            "{md}"
        );
        assert!(
            md.contains(
                "\nWarning: context under-counted (`≥`): the agent made MCP calls but neither \
                 logged their results (`MUR_EVAL_TRANSCRIPT`) nor gave an event stream that \
                 carries them (`--agent-format`), so its context leaves them out, in `mcp` 2 \
                 of 4 runs.\n"
            ),
            "{md}"
        );
        assert!(
            md.contains("| a | mcp | 1 | 1/1 (100%) | 21%–100% | 3 | 3 | 0 | – | – | ≥100 (50) |"),
            "{md}"
        );
        assert!(
            md.contains("| c | mcp | 1 | 1/1 (100%) | 21%–100% | 2 | 2 | 0 | – | – | 100 (50) |"),
            "{md}"
        );
        let mcp_row = csv_row(&rows, "mcp");
        assert!(mcp_row.ends_with(",0,0,0,2,0,0,0,0,0,0,0"), "{mcp_row}");
    }

    #[test]
    fn the_tables_say_their_figures_are_medians() {
        let made = [result("mcp", "a", true, 3, 100)];
        let rows = rows(&made, &[]);
        let md = markdown(&rows, "study");
        assert!(
            md.contains("| condition | runs | success | 95% CI | median calls | median attempts | median failed calls | median turns | median input tokens | median context tokens (before) | median context bytes | median time |\n"),
            "{md}"
        );
        assert!(
            md.contains("| task | condition | runs | success | 95% CI | median calls |"),
            "{md}"
        );
        assert!(page(&rows, "study").contains("<th>median calls</th>"));
    }

    #[test]
    fn the_pages_legend_describes_its_own_tables_without_markdown() {
        let made = [result("mcp", "a", true, 3, 100)];
        let rows = rows(&made, &[]);
        let page = page(&rows, "study");
        let shown = page.rsplit("<p>").next().unwrap_or_default();
        assert!(
            shown.contains("before its first call in a column of its own"),
            "{shown}"
        );
        assert!(!shown.contains('`'), "{shown}");
        assert!(legend().contains("before its first call in parentheses"));
    }

    #[test]
    fn the_charts_show_the_medians_as_the_tables_print_them() {
        // Medians of 4552.5 context tokens, 2.5 calls, 0.6675 s.
        let run = |calls, tokens, wall_ms| RunResult {
            wall_ms,
            ..result("cli-compact", "settings-screenshot", true, calls, tokens)
        };
        let results = [run(2, 4552, 667.0), run(3, 4553, 668.0)];
        let rows = rows(&results, &[]);
        let row = &rows.conditions[0];
        assert_eq!(
            (row.context_tokens, row.calls, row.seconds),
            (Some(4552.5), Some(2.5), Some(0.6675))
        );
        let table = condition_table(&rows);
        assert!(
            table.contains("| 2.5 | 0 | – | – | 4552 (2276) |"),
            "{table}"
        );
        let page = page(&rows, "study");
        // Each chart's bar ends with the figure the table prints.
        for figure in [">4552</text>", ">2.5</text>", ">0.67</text>", ">100</text>"] {
            assert!(page.contains(figure), "{figure}\n{page}");
        }
        assert!(!page.contains("4552.5"), "{page}");
        // And its label whole, however long.
        assert!(
            page.contains(">settings-screenshot · cli-compact</text>"),
            "{page}"
        );
    }

    #[test]
    fn runs_the_harness_could_not_make_are_counted_apart_not_as_failures() {
        let errored = |task: &str| RunResult {
            error: Some(
                "mur-sample exited (exit status: 1) before announcing itself\nmore".to_owned(),
            ),
            wall_ms: 0.0,
            ..result("cli-derived", task, false, 0, 0)
        };
        let results = vec![
            result("cli-derived", "a", true, 3, 100),
            result("cli-derived", "a", true, 3, 100),
            errored("a"),
            errored("b"),
        ];
        let rows = rows(&results, &[]);
        let row = &rows.conditions[0];
        assert_eq!((row.runs, row.successes, row.errors), (2, 2, 2));
        assert_eq!((row.calls, row.context_tokens), (Some(3.0), Some(100.0)));
        let line = "Errors: runs the harness could not make (the agent never ran), left out of \
                    every figure above: `cli-derived` 2 (first: mur-sample exited (exit status: \
                    1) before announcing itself). The same command again (the same `--out`) makes them.";
        assert_eq!(errors_line(&rows).as_deref(), Some(line));
        let md = markdown(&rows, "study");
        assert!(
            md.contains("| cli-derived | 2 | 2/2 (100%) | 34%–100% | 3 |"),
            "{md}"
        );
        assert!(md.contains(&format!("\n{line}\n")), "{md}");
        // A task no run of which was made: no rate, no interval.
        assert!(
            md.contains("| b | cli-derived | 0 | 0/0 (–) | – | – |"),
            "{md}"
        );
        assert_csv_row_ends(&rows, "cli-derived", ",2,0,0,0,0,0,0,0,0,0,0,0");
        // In the CSV too: an empty rate and interval, as its medians are — not 0% in 0–0.
        let csv = csv(&rows);
        let task_b = csv
            .lines()
            .find(|l| l.starts_with("cli-derived,b,"))
            .unwrap_or_default();
        assert!(task_b.starts_with("cli-derived,b,0,0,,,,,,,,,,,"), "{csv}");
        // And on the page: no bar ending in 0 for it, but said.
        let page = page(&rows, "study");
        assert!(!page.contains(">b · cli-derived</text>"), "{page}");
        assert!(page.contains(">a · cli-derived</text>"), "{page}");
        assert!(
            page.contains("<p>No runs made (not drawn): b · cli-derived.</p>"),
            "{page}"
        );
        // Without errors, no line.
        assert_eq!(errors_line(&super::rows(&results[..2], &[])), None);
    }

    #[test]
    fn medians_of_what_only_some_runs_reported_say_how_many() {
        let reported = |turns: Option<u64>, input: Option<u64>| RunResult {
            agent: Some(crate::adapters::AgentReport {
                turns,
                input_tokens: input,
                ..crate::adapters::AgentReport::default()
            }),
            ..result("cli-derived", "a", true, 3, 100)
        };
        let results = vec![
            reported(Some(4), Some(51412)),
            reported(None, None),
            reported(Some(6), Some(100)),
        ];
        let rows = rows(&results, &[]);
        let md = markdown(&rows, "study");
        assert!(
            md.contains(
                "| 3/3 (100%) | 44%–100% | 3 | 3 | 0 | 5 (2 of 3) | 25756 (2 of 3) | 100 (50) |"
            ),
            "{md}"
        );
        assert_csv_row_ends(&rows, "cli-derived", ",0,2,2,0,0,0,0,0,0,0,0,0");
        // All reported: no count.
        let made = [reported(Some(4), Some(10))];
        let all = super::rows(&made, &[]);
        assert!(markdown(&all, "s").contains("| 3 | 0 | 4 | 10 |"));
    }

    #[test]
    fn a_rate_is_100_or_0_percent_only_when_exact() {
        assert_eq!(percent(299.0 / 300.0), "99%");
        assert_eq!(percent(1.0 / 300.0), "1%");
        // A bound that is 1 but for a rounding error (42 of 42's Wilson upper bound).
        assert_eq!(percent(1.0 - 1e-15), "100%");
        let all: Vec<_> = (0..42)
            .map(|_| result("cli-derived", "a", true, 1, 10))
            .collect();
        let md = markdown(&rows(&all, &[]), "t");
        assert!(md.contains("| 42 | 42/42 (100%) | 92%–100% |"), "{md}");
        assert_eq!(
            (percent(1.0), percent(0.0), percent(0.5)),
            ("100%".to_owned(), "0%".to_owned(), "50%".to_owned())
        );
        let mut results = vec![result("cli-derived", "a", false, 1, 10)];
        results.extend((0..299).map(|_| result("cli-derived", "a", true, 1, 10)));
        let md = markdown(&rows(&results, &[]), "t");
        assert!(md.contains("| 300 | 299/300 (99%) | 98%–99% |"), "{md}");
    }

    #[test]
    fn runs_the_time_limit_ended_are_counted() {
        let mut cut = result("cli-derived", "a", true, 3, 100);
        cut.timed_out = true;
        let results = vec![cut, result("cli-derived", "a", true, 3, 100)];
        let rows = rows(&results, &[]);
        let line = "Timed out (the time limit ended the agent; its time is the limit, so the \
                    medians are lower bounds): `cli-derived` 1 of 2 runs.";
        assert_eq!(timed_out_line(&rows).as_deref(), Some(line));
        assert!(markdown(&rows, "t").contains(&format!("\n{line}\n")));
        assert_csv_row_ends(&rows, "cli-derived", ",0,0,0,1,0,0,0,0,0,0,0,0");
        assert!(crate::study::progress::line(&results[0]).contains(": pass (timed out; 3 calls,"));
    }

    #[test]
    fn each_conditions_agent_is_named_and_a_difference_is_warned() {
        let results = vec![
            result("cli-derived", "a", true, 3, 100),
            result("cli-named", "a", false, 0, 100),
        ];
        let mut rows = rows(&results, &[]);
        rows.agents = vec![
            ("cli-derived".to_owned(), vec!["bash agent.sh".to_owned()]),
            ("cli-named".to_owned(), vec!["true".to_owned()]),
        ];
        let line = "Warning: the conditions were run by different agents, so their rows compare \
                    the agents as much as the surfaces — `cli-derived` by `bash agent.sh`; \
                    `cli-named` by `true`.";
        assert_eq!(agents_line(&rows).as_deref(), Some(line));
        assert!(condition_table(&rows).contains(&format!("\n{line}\n")));
        rows.agents[1].1 = vec!["bash agent.sh".to_owned()];
        assert_eq!(
            agents_line(&rows).as_deref(),
            Some("Agent: `bash agent.sh`.")
        );
    }

    #[test]
    fn the_agents_named_are_those_whose_runs_are_in_the_table() {
        let by = |agent: &str, task: &str| RunResult {
            agent_command: Some(agent.to_owned()),
            ..result("mcp", task, true, 3, 100)
        };
        // Resumed with another agent: `sleep 300` was named by a command and made no run.
        let made = [by("true", "a"), by("true", "b")];
        let mut rows = rows(&made, &[]);
        rows.agents = vec![(
            "mcp".to_owned(),
            vec!["sleep 300".to_owned(), "true".to_owned()],
        )];
        assert_eq!(agents_line(&rows).as_deref(), Some("Agent: `true`."));
        // One row made by two agents is said to mix them.
        let made = [by("true", "a"), by("false", "b")];
        let mut rows = super::rows(&made, &[]);
        rows.agents = vec![("mcp".to_owned(), vec!["true".to_owned()])];
        assert_eq!(
            agents_line(&rows).as_deref(),
            Some(
                "Warning: a condition's runs were made by different agents, so its row mixes \
                 them — `mcp` by `true` and `false`."
            )
        );
        // Records of an older mur-eval name no agent: the study's commands say whose.
        let made = [result("mcp", "a", true, 3, 100)];
        let mut old = super::rows(&made, &[]);
        old.agents = vec![("mcp".to_owned(), vec!["bash agent.sh".to_owned()])];
        assert_eq!(
            agents_line(&old).as_deref(),
            Some("Agent: `bash agent.sh`.")
        );
    }

    #[test]
    fn a_condition_whose_runs_had_different_verbs_is_warned() {
        let with = |verbs: &[(&str, &str)], repeat: u32| RunResult {
            verbs: Some(
                verbs
                    .iter()
                    .map(|(n, sha)| ((*n).to_owned(), (*sha).to_owned()))
                    .collect(),
            ),
            repeat,
            ..result("cli-named", "add-todo", true, 3, 100)
        };
        let all = [("click", "c1"), ("type", "t1"), ("wait", "w1")];
        let pruned = [("click", "c1"), ("type", "t1")];
        let rebuilt = [("click", "c2"), ("type", "t1"), ("wait", "w1")];
        let made = [with(&all, 1), with(&all, 2)];
        let same = rows(&made, &[]);
        assert_eq!(verb_sets_line(&same), None);
        let made = [
            with(&all, 1),
            with(&all, 2),
            with(&pruned, 3),
            with(&rebuilt, 4),
        ];
        let mixed = rows(&made, &[]);
        let line = "Warning: a condition's runs had different verbs installed (`verbs prune` or \
                    a rebuild between two commands into this study), so its row mixes them — \
                    `cli-named` 3 verbs in 2 runs, 2 verbs (without `wait`) in 1 run, 3 verbs \
                    (another build of `click`) in 1 run.";
        assert_eq!(verb_sets_line(&mixed).as_deref(), Some(line));
        assert!(markdown(&mixed, "study").contains(&format!("\n{line}\n")));
    }

    #[test]
    fn cli_context_counted_from_what_mur_printed_is_said_an_upper_bound() {
        let mut captured = result("cli-named", "a", true, 3, 100);
        captured.context.captured_output = true;
        let streamed = result("cli-named", "b", true, 3, 100);
        let made = [captured, streamed];
        let rows = rows(&made, &[]);
        let line = "CLI context counted from everything `mur` printed, as no event stream \
                    (`--agent-format`) said what the agent received: output it piped away or \
                    sent to a file is counted whole, so these figures are upper bounds, in \
                    `cli-named` 1 of 2 runs.";
        assert_eq!(captured_line(&rows).as_deref(), Some(line));
        assert!(condition_table(&rows).contains(&format!("\n{line}\n")));
    }

    #[test]
    fn images_are_said_to_be_counted_as_images_with_those_of_unknown_size() {
        let mut shot = result("mcp", "settings-screenshot", true, 3, 100);
        (shot.context.images, shot.context.images_unsized) = (2, 1);
        let made = [
            shot,
            result("cli-named", "settings-screenshot", true, 3, 100),
        ];
        let rows = rows(&made, &[]);
        let line = "Images in tool results counted as images, not as their base64 text: tokens \
                    ≈ width × height / 750 (Anthropic's estimate, after scaling to at most 1568 \
                    px on the long edge and ~1600 tokens), bytes its own size; one whose pixel \
                    size is not in a PNG or JPEG header counts its bytes and no tokens, in `mcp` \
                    2 images (1 of unknown pixel size: bytes only).";
        assert_eq!(images_line(&rows).as_deref(), Some(line));
        assert!(condition_table(&rows).contains(&format!("\n{line}\n")));
        let none = [result("mcp", "a", true, 3, 100)];
        assert_eq!(images_line(&super::rows(&none, &[])), None);
    }

    #[test]
    fn the_reference_is_the_one_named_else_cli_named_else_the_first_condition() {
        let results = [
            result("cli-call", "a", true, 2, 100),
            result("mcp", "a", true, 2, 200),
        ];
        let mut rows = rows(&results, &["cli-call".to_owned(), "mcp".to_owned()]);
        let first =
            "Against `cli-call`: `mcp` +100% context tokens, +0 points of success (-79 to +79).";
        assert_eq!(rows.reference(), Some("cli-call"));
        assert!(
            markdown(&rows, "t").contains(&format!("\n{first}\n")),
            "{}",
            markdown(&rows, "t")
        );
        rows.against = Some("mcp".to_owned());
        assert!(markdown(&rows, "t").contains(
            "\nAgainst `mcp`: `cli-call` -50% context tokens, +0 points of success (-79 to +79).\n"
        ));
        rows.against = Some("both".to_owned());
        assert_eq!(
            rows.check_against().expect_err("refused").to_string(),
            "`--against both`: the study has no runs of a condition `both` (it has cli-call, mcp)"
        );
        let named = [
            result("mcp", "a", true, 2, 200),
            result("cli-named", "a", true, 2, 100),
        ];
        assert_eq!(super::rows(&named, &[]).reference(), Some("cli-named"));
    }

    #[test]
    fn no_comparison_is_made_of_runs_whose_agent_never_started() {
        let never = |condition: &str| RunResult {
            agent_exit: Some(127),
            ..result(condition, "a", false, 0, 100)
        };
        let results = [never("cli-named"), never("mcp")];
        let rows = rows(&results, &[]);
        assert_eq!(against(&rows, "cli-named"), None);
        assert!(!markdown(&rows, "t").contains("\nAgainst `"));
        let results = [result("cli-named", "a", true, 2, 100), never("mcp")];
        assert_eq!(
            against(&super::rows(&results, &[]), "cli-named").as_deref(),
            Some("Against `cli-named`: `mcp` not compared: its agent never started.")
        );
    }

    #[test]
    fn no_categories_table_is_printed_when_no_run_was_made() {
        let mut unmade = result("cli-named", "a", false, 0, 0);
        unmade.categories = vec!["interact".to_owned()];
        unmade.error = Some("the session did not start".to_owned());
        let results = [unmade];
        assert!(!markdown(&rows(&results, &[]), "t").contains("## Task categories"));
    }

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(vec![]), None);
    }

    #[test]
    fn conditions_run_over_different_tasks_or_repeats_are_said_to_be_unequal() {
        let repeat = |condition: &str, task: &str, repeat: u32| RunResult {
            repeat,
            ..result(condition, task, true, 1, 10)
        };
        let even = vec![
            repeat("cli-named", "a", 1),
            repeat("mcp", "a", 1),
            repeat("cli-named", "b", 1),
            repeat("mcp", "b", 1),
        ];
        let same = rows(&even, &[]);
        assert_eq!(unequal_line(&same), None);
        assert!(!condition_table(&same).contains("Warning"));

        let uneven = vec![
            repeat("cli-named", "a", 1),
            repeat("cli-named", "a", 2),
            repeat("cli-named", "b", 1),
            repeat("mcp", "a", 1),
            repeat("cli-derived", "a", 1),
            repeat("cli-derived", "a", 2),
            repeat("cli-derived", "b", 1),
            repeat("cli-derived", "b", 2),
        ];
        let line = "Warning: the conditions ran different tasks or numbers of repeats, so their \
                    rows are not like for like — `cli-named` 2 tasks × 1–2 repeats; `mcp` 1 task \
                    × 1 repeat, without `b`; `cli-derived` 2 tasks × 2 repeats. Compare them task \
                    by task, on the tasks they share.";
        let unequal = rows(&uneven, &["cli-named".to_owned(), "mcp".to_owned()]);
        assert_eq!(unequal_line(&unequal).as_deref(), Some(line));
        assert!(markdown(&unequal, "t").contains(&format!("\n\n{line}\n")));
        assert!(page(&unequal, "t").contains("Warning: the conditions ran different tasks"));
    }

    #[test]
    fn rows_group_by_condition_and_task() {
        let results = vec![
            result("cli-named", "a", true, 2, 100),
            result("cli-named", "b", false, 4, 300),
            result("mcp", "a", true, 3, 900),
        ];
        let rows = rows(&results, &["mcp".to_owned(), "cli-named".to_owned()]);
        assert_eq!(rows.conditions[0].condition, "mcp");
        let named = &rows.conditions[1];
        assert_eq!((named.runs, named.successes), (2, 1));
        assert_eq!(named.calls, Some(3.0));
        assert_eq!(named.context_tokens, Some(200.0));
        assert_eq!(named.turns, None);
        assert_eq!(rows.tasks.len(), 3);
        // Compared on the task both ran (`a`), not cli-named's mix of `a` and `b`.
        assert_eq!(
            against(&rows, "cli-named").as_deref(),
            Some(
                "Against `cli-named`: `mcp` +800% context tokens, +0 points of success \
                 (-79 to +79), over the 1 run of the same task and repeat both made."
            )
        );
        let md = markdown(&rows, "study");
        assert!(
            md.contains(
                "| cli-named | 2 | 1/2 (50%) | 9%–91% | 3 | 3 | 0 | – | – | 200 (100) | 800 | 0.50 s |"
            ),
            "{md}"
        );
        let csv = csv(&rows);
        assert_eq!(csv.lines().count(), 1 + 2 + 3);
        assert!(csv.contains("\ncli-named,,2,1,0.5000,"), "{csv}");
        let page = page(&rows, "study");
        assert!(
            page.contains("<svg") && page.contains("cli-named"),
            "{page}"
        );
        assert!(
            !md.contains("Invocations mur refused"),
            "none refused: {md}"
        );
    }

    /// A cli run's invocations as mur recorded them, `refused` among them.
    #[test]
    fn output_tokens_and_cost_the_agents_reported_are_in_the_csv() {
        let reported = |output, cost| RunResult {
            agent: Some(crate::adapters::AgentReport {
                output_tokens: Some(output),
                cost_usd: Some(cost),
                ..Default::default()
            }),
            ..result("mcp", "a", true, 3, 100)
        };
        let made = [reported(100, 0.02), reported(300, 0.04)];
        let rows = rows(&made, &[]);
        let csv = csv(&rows);
        let header: Vec<&str> = csv.lines().next().unwrap_or_default().split(',').collect();
        let row: Vec<&str> = csv.lines().nth(1).unwrap_or_default().split(',').collect();
        let column = |name: &str| header.iter().position(|h| *h == name).map(|i| row[i]);
        assert_eq!(column("median_output_tokens"), Some("200"), "{csv}");
        assert_eq!(column("median_cost_usd"), Some("0.03"), "{csv}");
        // Not reported: empty.
        let none = super::csv(&super::rows(&[result("mcp", "a", true, 3, 100)], &[]));
        assert!(none.contains(",3,3,0,,,,,"), "{none}");
    }

    #[test]
    fn the_same_wrong_guesses_are_as_many_attempts_on_either_surface() {
        // Three wrong names, then three clicks: under MCP the session answered all six
        // (calls 6); under the CLI mur refused the three before any call (calls 3).
        let mut cli = refusing("cli-named", &[("press", &[], 1, 2), ("tap", &[], 1, 1)]);
        cli.calls.total = 3;
        let mcp = result("mcp", "a", true, 6, 900);
        let made = [cli, mcp];
        let rows = rows(&made, &["cli-named".to_owned(), "mcp".to_owned()]);
        let calls: Vec<Option<f64>> = rows.conditions.iter().map(|r| r.calls).collect();
        assert_eq!(calls, [Some(3.0), Some(6.0)]);
        let attempts: Vec<Option<f64>> = rows.conditions.iter().map(|r| r.attempts).collect();
        assert_eq!(attempts, [Some(6.0), Some(6.0)]);
        // Both in the table, text and page: calls 3 and 6, attempts 6 and 6.
        let table = condition_table(&rows);
        assert!(
            table.contains(
                "| median calls | median attempts | median failed calls | median turns |"
            ),
            "{table}"
        );
        for row in [
            "\n| cli-named | 1 | 1/1 (100%) | 21%–100% | 3 | 6 | 0 | – |",
            "\n| mcp | 1 | 1/1 (100%) | 21%–100% | 6 | 6 | 0 | – |",
        ] {
            assert!(table.contains(row), "{table}");
        }
        let page = page(&rows, "study");
        assert!(
            page.contains("<th>median calls</th><th>median attempts</th>"),
            "{page}"
        );
        assert!(page.contains("<td>3</td><td>6</td>"), "{page}");
        let csv = csv(&rows);
        assert!(csv.starts_with("condition,task,runs,successes,success_rate,ci_low,ci_high,median_calls,median_attempts,"), "{csv}");
        assert!(
            csv.contains("\ncli-named,,1,1,1.0000,0.2065,1.0000,3,6,"),
            "{csv}"
        );
    }

    fn refusing(condition: &str, refused: &[(&str, &[&str], u32, u64)]) -> RunResult {
        let mut run = result(condition, "a", true, 2, 100);
        let refused = refused
            .iter()
            .map(|(verb, options, positionals, times)| mur_usage::Refused {
                verb: (*verb).to_owned(),
                kind: None,
                options: options.iter().map(|o| (*o).to_owned()).collect(),
                positionals: *positionals,
                times: *times,
                last: String::new(),
                nearest: None,
            })
            .collect();
        run.invocations = Some(crate::usage::Invocations {
            refused,
            ..Default::default()
        });
        run
    }

    #[test]
    fn refused_invocations_are_summed_per_condition_by_argv_shape() {
        // (Attempts: see the_same_wrong_guesses_are_as_many_attempts_on_either_surface.)
        let results = vec![
            refusing("cli-named", &[("state", &[], 1, 2), ("call", &[], 2, 1)]),
            refusing("cli-named", &[("state", &[], 1, 1)]),
            refusing("cli-compact", &[("click", &["--selector"], 1, 1)]),
            result("mcp", "a", true, 3, 900),
        ];
        let names = ["cli-named", "cli-compact", "mcp"].map(str::to_owned);
        let rows = rows(&results, &names);
        let line = "Invocations mur refused (argv a verb did not take; WORD is any other word): \
            `cli-named` 4 (`state WORD` ×3, `call WORD WORD` ×1); \
            `cli-compact` 1 (`click --selector WORD` ×1).";
        assert_eq!(refused_line(&rows).as_deref(), Some(line));
        let md = markdown(&rows, "study");
        assert!(md.contains(&format!("\n{line}\n")), "{md}");
        let csv = csv(&rows);
        assert!(
            csv.lines()
                .next()
                .unwrap_or_default()
                .ends_with(",failed_calls,cli_calls,mcp_calls,first_via_cli,first_via_mcp,order_varied_runs,first_via_listed_first,runs_not_made,turns_runs,input_tokens_runs,timed_out,mcp_results_unseen_runs,agent_failed,agent_failed_at_once,no_events_runs,images,images_unsized,image_tokens,image_bytes")
        );
        assert!(csv.contains("\ncli-named,,2,2,1.0000,"), "{csv}");
        let named = csv_row(&rows, "cli-named");
        assert!(
            named.ends_with(",0,4,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"),
            "{named}"
        );
        // Read back from results.jsonl as written.
        let line = serde_json::to_string(&results[0]).expect("serialize");
        let back: RunResult = serde_json::from_str(&line).expect("deserialize");
        assert_eq!(back, results[0]);
    }

    /// A hand-edited journal may give any figure its type holds: the sums over runs are
    /// wide enough (or saturate), never a panic.
    #[test]
    fn figures_near_their_types_most_are_summed_without_overflow() {
        let mut results = vec![
            refusing("cli-named", &[("state", &[], 1, u64::MAX)]),
            refusing("cli-named", &[("state", &[], 1, u64::MAX)]),
        ];
        for run in &mut results {
            run.calls.off_condition = u32::MAX;
        }
        let rows = rows(&results, &["cli-named".to_owned()]);
        let named = rows.conditions.first().expect("a row");
        assert_eq!(named.off_condition, 2 * u64::from(u32::MAX));
        assert_eq!(named.refused_total(), u64::MAX);
        assert_eq!(named.attempts, Some(u64::MAX as f64));
        assert!(markdown(&rows, "study").contains("cli-named"));
        assert!(csv(&rows).contains(&format!(",{},", 2 * u64::from(u32::MAX))));
    }

    /// The CSV row of `condition` as a whole (its `task` empty).
    fn csv_row(rows: &Rows<'_>, condition: &str) -> String {
        csv(rows)
            .lines()
            .find(|l| l.starts_with(&format!("{condition},,")))
            .map(str::to_owned)
            .unwrap_or_default()
    }

    /// Asserts that the CSV row of `condition` ends with `tail`, its last columns.
    #[track_caller]
    fn assert_csv_row_ends(rows: &Rows<'_>, condition: &str, tail: &str) {
        assert!(csv_row(rows, condition).ends_with(tail), "{}", csv(rows));
    }

    /// A run under a `both` condition: its calls by surface and where it reached first.
    fn reaching(first: Surface, cli: u32, mcp: u32) -> RunResult {
        let mut run = result("both", "a", true, cli + mcp, 100);
        run.surface = "both".to_owned();
        run.calls.cli = cli;
        run.calls.mcp = mcp;
        run.calls.first_surface = Some(first);
        run
    }

    #[test]
    fn where_both_surfaces_were_offered_the_first_reach_and_the_share_are_reported() {
        let results = vec![
            reaching(Surface::Cli, 3, 0),
            reaching(Surface::Cli, 2, 1),
            reaching(Surface::Mcp, 0, 2),
            result("cli-named", "a", true, 2, 100),
        ];
        let rows = rows(&results, &["cli-named".to_owned(), "both".to_owned()]);
        let line = "Where both surfaces were offered, the agent's own choice: both first reached \
            for the CLI in 2 of 3 runs, for MCP in 1; 62% of calls via the CLI \
            (5 CLI, 3 MCP).";
        assert_eq!(preference_line(&rows).as_deref(), Some(line));
        let md = markdown(&rows, "study");
        assert!(md.contains(&format!("\n{line}\n")), "{md}");
        let both = csv_row(&rows, "both");
        assert!(
            both.ends_with(",5,3,2,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0"),
            "{both}"
        );
        assert!(page(&rows, "study").contains("the agent's own choice: both first reached"));
        // A condition that offers one surface has no preference to report.
        let one = super::rows(&results[3..], &["cli-named".to_owned()]);
        assert_eq!(preference_line(&one), None);
        let line = serde_json::to_string(&results[0]).expect("serialize");
        assert!(line.contains(r#""firstSurface":"cli""#), "{line}");
        assert!(!line.contains("listedFirst"), "{line}");
    }

    #[test]
    fn where_the_order_of_the_surfaces_varied_the_reach_for_the_first_named_is_reported() {
        let listed = |first: Surface, listed: Surface| {
            let mut run = reaching(first, 1, 1);
            run.listed_first = Some(listed);
            run
        };
        let results = vec![
            listed(Surface::Cli, Surface::Cli),
            listed(Surface::Mcp, Surface::Mcp),
            listed(Surface::Cli, Surface::Mcp),
            listed(Surface::Mcp, Surface::Mcp),
        ];
        let rows = rows(&results, &["both".to_owned()]);
        let line = "Where both surfaces were offered, the agent's own choice: both first reached \
            for the CLI in 2 of 4 runs, for MCP in 2; the surface its instructions \
            named first was reached first in 3 of 4; 50% of calls via the CLI (4 CLI, 4 MCP).";
        assert_eq!(preference_line(&rows).as_deref(), Some(line));
        let both = csv_row(&rows, "both");
        assert!(
            both.ends_with(",4,4,2,2,4,3,0,0,0,0,0,0,0,0,0,0,0,0"),
            "{both}"
        );
        let line = serde_json::to_string(&results[2]).expect("serialize");
        assert!(line.contains(r#""listedFirst":"mcp""#), "{line}");
    }

    #[test]
    fn failed_calls_have_a_column_and_runs_not_made_are_named_so() {
        let failing = |failed: u32| {
            let mut run = result("mcp", "a", false, 2, 100);
            run.calls.failed = failed;
            run
        };
        let made = [failing(1), failing(1), failing(0)];
        let rows = rows(&made, &[]);
        assert_eq!(rows.conditions[0].failed, Some(1.0));
        assert_eq!(rows.conditions[0].failed_total, 2);
        let line = "Failed calls (the session answered with an error): `mcp` 2 in 2 of 3 runs.";
        assert_eq!(failed_line(&rows).as_deref(), Some(line));
        assert!(condition_table(&rows).contains(&format!("\n{line}\n")));
        let table = condition_table(&rows);
        assert!(
            table.contains("| mcp | 3 | 0/3 (0%) | 0%–56% | 2 | 2 | 1 | – |"),
            "{table}"
        );
        assert!(legend().contains("failed calls (calls the session answered with an error"));
        assert!(legend().contains("report.csv's `runs_not_made`"));
        let csv = csv(&rows);
        let header: Vec<&str> = csv.lines().next().unwrap_or_default().split(',').collect();
        let row: Vec<&str> = csv.lines().nth(1).unwrap_or_default().split(',').collect();
        let column = |name: &str| header.iter().position(|h| *h == name).map(|i| row[i]);
        assert_eq!(column("median_failed_calls"), Some("1"), "{csv}");
        assert_eq!(column("failed_calls"), Some("2"), "{csv}");
        assert_eq!(column("runs_not_made"), Some("0"), "{csv}");
        assert_eq!(column("errors"), None, "{csv}");
        assert!(page(&rows, "study").contains("<th>median failed calls</th>"));
    }

    #[test]
    fn an_agent_that_exited_nonzero_is_said_and_no_evidence_against_the_surface() {
        let run = |condition: &str, repeat: u32, exit: i32, calls: u32| {
            let mut run = result(condition, "count", false, calls, 100);
            run.id = format!("{condition}/count/{repeat}");
            run.repeat = repeat;
            run.agent_exit = Some(exit);
            run.categories = vec!["interact".to_owned()];
            run
        };
        // `mcp`: the agent exited 1 at once, every run (an API key refused).
        // `cli-named`: it tried (2 calls) and failed, exiting 3, then at once exit 127.
        let results = vec![
            run("mcp", 1, 1, 0),
            run("mcp", 2, 1, 0),
            run("cli-named", 1, 3, 2),
            run("cli-named", 2, 127, 0),
        ];
        let names = ["cli-named", "mcp"].map(str::to_owned);
        let rows = rows(&results, &names);
        assert_eq!(
            agent_exits_line(&rows).as_deref(),
            Some(
                "The agent exited nonzero in `cli-named` 1 of 2 runs (exit 3 ×1); `mcp` 2 of \
                 2 runs (exit 1 ×2); 3 runs before any call, `mur` command or transcript \
                 line (126 and 127 too): each run's `agent.stderr` says why."
            )
        );
        // Repeat 2 exited at once under both conditions: the agent's own failure, left
        // out. mcp's repeat 1 exited at once where cli-named's tried the surface: it
        // counts, as cli-named's does.
        let line = "Task categories a condition never completed (evidence against it): \
                    `cli-named` `interact` (0 of 1); `mcp` `interact` (0 of 1) (2 runs left \
                    out: the agent exited nonzero at once (no call, `mur` command or \
                    transcript line) in the same task and repeat under every condition, so it \
                    failed on its own; 2 runs counted whose agent exited nonzero).";
        assert_eq!(rows.categories.never_completed().as_deref(), Some(line));
        let md = markdown(&rows, "study");
        assert!(md.contains(&format!("\n{line}\n")), "{md}");
        // Only runs the agent failed at once, under the study's one condition: no
        // evidence at all, and said so.
        let at_once = super::rows(&results[..2], &names);
        assert_eq!(
            at_once.categories.never_completed().as_deref(),
            Some(
                "Task categories a condition never completed: none counted as evidence \
                 against a surface (2 runs left out: the agent exited nonzero at once (no \
                 call, `mur` command or transcript line) in the same task and repeat under \
                 every condition, so it failed on its own)."
            )
        );
        // An agent that only had argv refused, or only logged a read, tried the surface:
        // under every condition its exit is evidence.
        let mut refused = run("mcp", 1, 1, 0);
        refused.invocations = refusing("mcp", &[("press", &[], 1, 1)]).invocations;
        let mut read = run("cli-named", 1, 1, 0);
        read.agent_lines = Some(1);
        let tried = [refused, read];
        assert!(!failed_at_once(&tried[0]) && !failed_at_once(&tried[1]));
        assert_eq!(
            super::rows(&tried, &names)
                .categories
                .never_completed()
                .as_deref(),
            Some(
                "Task categories a condition never completed (evidence against it): \
                 `cli-named` `interact` (0 of 1); `mcp` `interact` (0 of 1) (2 runs counted \
                 whose agent exited nonzero)."
            )
        );
        assert_csv_row_ends(&rows, "mcp", ",2,2,0,0,0,0,0");
        assert!(
            crate::study::progress::line(&results[0]).contains(": FAIL (agent exit 1; 0 calls,"),
            "{}",
            crate::study::progress::line(&results[0])
        );
    }

    #[test]
    fn a_task_judged_by_two_versions_of_its_file_and_a_stream_never_read_are_warned() {
        let run = |repeat: u32, sha: &str| {
            let mut run = result("cli-named", "count", true, 3, 100);
            run.id = format!("cli-named/count/{repeat}");
            run.repeat = repeat;
            run.task_sha256 = Some(sha.repeat(64));
            run
        };
        let mut unread = run(3, "a");
        unread.agent = Some(crate::adapters::AgentReport {
            format: "stream-json".to_owned(),
            no_events: true,
            ..Default::default()
        });
        let results = vec![run(1, "a"), run(2, "b"), unread];
        let rows = rows(&results, &[]);
        let versions = "Warning: a task's file changed between commands into this study, so \
                        its runs were judged by different oracles (by the sha256 of the file) \
                        — `count` aaaaaaaaaaaa in 2 runs, bbbbbbbbbbbb in 1 run.";
        assert_eq!(task_versions_line(&rows).as_deref(), Some(versions));
        let stream = "Warning: `--agent-format` was given, but the agent's stdout held no event \
                      of it in `cli-named` 1 of 3 runs: their turns, tokens and cost are \
                      unknown, and their context was counted as if no stream were read; check \
                      the agent's flags (Claude Code writes its stream with `--output-format \
                      stream-json --verbose`; Codex with `exec --json`).";
        assert_eq!(no_events_line(&rows).as_deref(), Some(stream));
        let table = condition_table(&rows);
        assert!(
            table.contains(versions) && table.contains(stream),
            "{table}"
        );
        // A value that is no hex (results.jsonl edited by hand) is shown, not cut
        // inside a character.
        let mut odd = [run(1, "a"), run(2, "b")];
        let cut = format!("a{}", "é".repeat(20));
        odd[1].task_sha256 = Some(cut.clone());
        assert!(
            task_versions_line(&super::rows(&odd, &[]))
                .expect("two versions")
                .contains(&format!("{cut} in 1 run.")),
        );
        // A condition's instructions edited between two commands: said the same way.
        let mut edited = [run(1, "a"), run(2, "a"), run(3, "a")];
        for (run, sha) in edited.iter_mut().zip(["c", "c", "d"]) {
            run.condition_sha256 = Some(sha.repeat(64));
        }
        let rows = super::rows(&edited, &[]);
        let conditions = "Warning: a condition's files changed between commands into this \
                          study, so its runs had different instructions or settings (by the \
                          sha256 of its file and its instructions) — `cli-named` cccccccccccc \
                          in 2 runs, dddddddddddd in 1 run.";
        assert_eq!(condition_versions_line(&rows).as_deref(), Some(conditions));
        assert!(condition_table(&rows).contains(conditions));
        assert_eq!(task_versions_line(&rows), None);
        // One version, or runs recorded before the file's sha256 was: nothing said.
        let one = [run(1, "a"), result("cli-named", "count", true, 3, 100)];
        assert_eq!(task_versions_line(&super::rows(&one, &[])), None);
    }

    #[test]
    fn the_readme_block_keeps_the_refused_line_and_the_page_charts_attempts() {
        let mut cli = refusing("cli-named", &[("press", &[], 1, 2)]);
        cli.calls.total = 3;
        let made = [cli];
        let rows = rows(&made, &[]);
        let line = refused_line(&rows).expect("a refused line");
        // The README's block is the condition table and what follows it.
        assert!(condition_table(&rows).contains(&line));
        // Said once in report.md.
        assert_eq!(markdown(&rows, "study").matches(&line).count(), 1);
        let page = page(&rows, "study");
        assert!(
            page.contains("Attempts per run (median): the calls, then up to the attempts"),
            "{page}"
        );
        assert!(!page.contains("Calls per run (median)"), "{page}");
        // The second segment is a difference of two medians, named so: not a count of
        // refused invocations (a median of 2.5 calls would make it half an invocation).
        assert!(
            page.contains("<title>median attempts − median calls: 2</title>"),
            "{page}"
        );
        assert!(!page.contains("refused invocations:"), "{page}");
        // The bar ends at the median attempts: 3 calls, 2 refused.
        assert!(page.contains(">5</text>"), "{page}");
    }

    #[test]
    fn the_report_says_how_the_study_was_made() {
        let mut early = result("mcp", "a", true, 3, 100);
        early.started_at = Some("2026-11-29T10:00:00.000Z".to_owned());
        let mut late = result("mcp", "b", true, 3, 100);
        late.started_at = Some("2026-11-29T11:00:00.000Z".to_owned());
        let made = [late, early];
        let mut rows = rows(&made, &[]);
        assert_eq!(made_line(&rows), None);
        rows.commands = vec!["`mur-eval study --jobs 2` (mur-eval 0.1.0 (debug build))".to_owned()];
        let line = "Made by `mur-eval study --jobs 2` (mur-eval 0.1.0 (debug build)). Its runs \
                    started from 2026-11-29T10:00:00.000Z to 2026-11-29T11:00:00.000Z.";
        assert_eq!(made_line(&rows).as_deref(), Some(line));
        assert!(
            markdown(&rows, "study").starts_with(&format!("# study\n\n{line}\n\n## Conditions"))
        );
        // The page too, before its first heading.
        let html = page(&rows, "study");
        let said = html::escape(&line.replace('`', ""));
        assert!(
            html.contains(&format!("<p>{said}</p><h2>Conditions</h2>")),
            "{html}"
        );
        // Runs that say which command made them: a command that made none (a resume
        // with nothing left, another `--jobs`) is not named, the others with their runs.
        let mut made = made.clone();
        made[0].made_by = Some(2);
        made[1].made_by = Some(0);
        let mut rows = super::rows(&made, &[]);
        rows.commands = [
            "`mur-eval study --jobs 2`",
            "`mur-eval study --jobs 1`",
            "`b`",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            made_line(&rows).as_deref(),
            Some(
                "Made by `mur-eval study --jobs 2`, 1 run; then `b`, 1 run. Its runs started \
                 from 2026-11-29T10:00:00.000Z to 2026-11-29T11:00:00.000Z."
            )
        );
    }

    #[test]
    fn a_category_a_condition_never_completed_is_evidence_against_it() {
        let run = |condition: &str, task: &str, categories: &[&str], success: bool| {
            let mut run = result(condition, task, success, 2, 100);
            run.categories = categories.iter().map(|c| (*c).to_owned()).collect();
            run
        };
        let results = vec![
            run("cli-named", "count", &["interact"], true),
            run("cli-named", "shot", &["interact", "screenshot"], true),
            run("cli-derived", "count", &["interact"], true),
            run("cli-derived", "shot", &["interact", "screenshot"], false),
            run("cli-derived", "shot", &["interact", "screenshot"], false),
        ];
        let names = ["cli-named", "cli-derived"].map(str::to_owned);
        let rows = rows(&results, &names);
        let line = "Task categories a condition never completed (evidence against it): \
            `cli-derived` `screenshot` (0 of 2).";
        assert_eq!(rows.categories.never_completed().as_deref(), Some(line));
        let md = markdown(&rows, "study");
        assert!(
            md.contains(
                "## Task categories\n\nSuccessful runs of the tasks in each category.\n\n\
                 | condition | interact | screenshot |\n|---|---|---|\n\
                 | cli-named | 2/2 | 1/1 |\n| cli-derived | 1/3 | 0/2 |\n"
            ),
            "{md}"
        );
        // With the per-condition table, as the README's baseline shows it.
        assert!(condition_table(&rows).contains(line));
        assert!(page(&rows, "study").contains("<th>screenshot</th>"));
        // Results recorded before categories were: no table, no line.
        let old: Vec<RunResult> = results
            .into_iter()
            .map(|mut r| {
                r.categories.clear();
                r
            })
            .collect();
        let rows = super::rows(&old, &names);
        assert!(!markdown(&rows, "study").contains("## Task categories"));
        assert_eq!(rows.categories.never_completed(), None);
    }

    #[test]
    fn the_tools_each_condition_used_are_tabled() {
        let run = |condition: &str, repeat: u32, tools: &[(&str, u32)]| {
            let mut run = result(condition, "count", true, 0, 100);
            run.id = format!("{condition}/count/{repeat}");
            run.calls.tools = tools.iter().map(|(t, n)| ((*t).to_owned(), *n)).collect();
            run.calls.total = run.calls.tools.values().sum();
            run
        };
        let mut not_made = run("mcp", 3, &[("tree", 9)]);
        not_made.error = Some("the session never started".to_owned());
        let results = [
            run("cli-named", 1, &[("click", 4), ("state", 1)]),
            run("cli-named", 2, &[("click", 2)]),
            run("cli-named", 3, &[]),
            run("mcp", 1, &[("click", 3), ("noSuchTool", 1)]),
            run("mcp", 2, &[("state", 2)]),
            not_made,
        ];
        let rows = rows(&results, &["cli-named".to_owned(), "mcp".to_owned()]);
        let section = "## Tools used, by condition\n\n\
            Per tool the sessions served, of each condition's runs the ones that called it, \
            then its calls (`2/3 · 7`; `–` none), most calls first.\n\n\
            | tool | cli-named | mcp |\n|---|---|---|\n\
            | click | 2/3 · 6 | 1/2 · 3 |\n\
            | state | 1/3 · 1 | 1/2 · 2 |\n\
            | noSuchTool | – | 1/2 · 1 |\n";
        let used = ToolsUsed::of(&rows).expect("runs were made");
        assert_eq!(used.markdown(), section);
        assert!(
            markdown(&rows, "study").contains(&format!("\n{section}\n## Tasks")),
            "{}",
            markdown(&rows, "study")
        );
        let page = page(&rows, "study");
        assert!(page.contains("<h2>Tools used, by condition</h2>"), "{page}");
        assert!(page.contains("<td>noSuchTool</td>"), "{page}");
        // Past 20 tools, the rest are counted under the table.
        let many: Vec<(String, u32)> = (1..=22).map(|n| (format!("t{n:02}"), 1)).collect();
        let many: Vec<(&str, u32)> = many.iter().map(|(t, n)| (t.as_str(), *n)).collect();
        let made = [run("mcp", 1, &many)];
        let used = ToolsUsed::of(&super::rows(&made, &[])).expect("a run was made");
        let text = used.markdown();
        assert!(
            text.contains("| t20 | 1/1 · 1 |\n\n(+2 more, 2 calls)\n"),
            "{text}"
        );
        assert!(!text.contains("t21"), "{text}");
        // No run made: no section.
        let none = [results[5].clone()];
        assert_eq!(ToolsUsed::of(&super::rows(&none, &[])), None);
    }

    /// A run of `condition` with `installed` verbs, which invoked `called` (`None`: an
    /// older `mur-eval`'s record, which kept no verb names), started at `started`.
    fn invoking(
        condition: &str,
        repeat: u32,
        installed: &[&str],
        called: Option<&[(&str, u32)]>,
        started: &str,
    ) -> RunResult {
        let mut run = result(condition, "count", true, 3, 100);
        run.id = format!("{condition}/count/{repeat}");
        run.repeat = repeat;
        run.verbs = Some(
            installed
                .iter()
                .map(|v| ((*v).to_owned(), format!("sha-of-{v}")))
                .collect(),
        );
        run.verbs_called =
            called.map(|called| called.iter().map(|(v, n)| ((*v).to_owned(), *n)).collect());
        run.started_at = Some(started.to_owned());
        run
    }

    #[test]
    fn the_verbs_each_condition_called_and_those_no_run_called_are_said() {
        let standard = ["click", "collapse", "state", "tree", "wait"];
        // A record as an older mur-eval wrote it: no `verbsCalled`, read back as unknown.
        let older = {
            let run = invoking("both", 2, &standard, None, "2026-12-02T10:20:00.000Z");
            let line = serde_json::to_string(&run).expect("json");
            assert!(!line.contains("verbsCalled"), "{line}");
            serde_json::from_str::<RunResult>(&line).expect("an older line")
        };
        let mut not_made = invoking(
            "cli-named",
            4,
            &standard,
            Some(&[("tree", 9)]),
            "2026-12-02T10:00:00.000Z",
        );
        not_made.error = Some("the session never started".to_owned());
        let results = [
            invoking(
                "cli-named",
                1,
                &standard,
                Some(&[("click", 4), ("state", 1)]),
                "2026-12-02T10:00:00.000Z",
            ),
            invoking(
                "cli-named",
                2,
                &standard,
                // `mine`: a verb the agent added itself, not installed for the run.
                Some(&[("click", 2), ("mine", 1)]),
                "2026-12-02T10:10:00.000Z",
            ),
            {
                // The last run ends 1 h 30 min and 1 s after the first began: 2 h.
                let mut last = invoking(
                    "cli-named",
                    3,
                    &standard,
                    Some(&[]),
                    "2026-12-02T11:30:00.000Z",
                );
                last.wall_ms = 1000.0;
                last
            },
            not_made,
            invoking(
                "both",
                1,
                &standard,
                Some(&[("wait", 1)]),
                "2026-12-02T10:30:00.000Z",
            ),
            older.clone(),
            // Every run of it recorded before the verbs called were.
            invoking(
                "cli-compact",
                1,
                &standard,
                None,
                "2026-12-02T10:40:00.000Z",
            ),
            // No verbs installed: no column.
            result("mcp", "count", true, 3, 100),
        ];
        let names = ["cli-named", "both", "cli-compact", "mcp"].map(str::to_owned);
        let rows = rows(&results, &names);
        let section = "## Verbs called, by condition\n\n\
            Per verb installed for a condition's runs (the conditions that install verbs), \
            of its runs the ones that invoked it — any invocation mur recorded, a refused one \
            too, as `usage report` counts a use — then the invocations (`2/3 · 7`; `–` none), \
            most invocations first.\n\n\
            | verb | cli-named | both |\n|---|---|---|\n\
            | click | 2/3 · 6 | – |\n\
            | state | 1/3 · 1 | – |\n\
            | wait | – | 1/1 · 1 |\n\
            | collapse | – | – |\n\
            | tree | – | – |\n\
            \n\
            Installed and called by no run: `cli-named` 3 of 5 (`collapse`, `tree`, `wait`); \
            `both` 4 of 5 (`click`, `collapse`, `state`, `tree`).\n\
            \n\
            Which verbs were called is unknown for runs an older `mur-eval` recorded, which \
            kept no verb names: `both` 1 of 2 runs (a verb said called by no run may have \
            been called in them); `cli-compact` 1 of 1 run (not tabled); `mur devtools usage \
            report --server-log runs/<condition>/*/*/state/mur/usage/usage.jsonl` reads them \
            from the runs' own logs.\n\
            \n\
            To remove them from your installed verbs, judged on the runs' own logs, one \
            condition at a time: from the study's directory, `mur devtools verbs prune \
            --until last --unused-for 2h --server-log runs/cli-named/*/*/calls.jsonl \
            runs/cli-named/*/*/state/mur/usage/usage.jsonl` (`2h` covers the study's runs) \
            prints what it would remove and `--yes` removes it (docs/usage.md, \"Removing the \
            losers\"; a next study measures the rest only without `--verbs`: docs/eval.md, \
            \"Pruning verbs between studies\").\n";
        let verbs = VerbsCalled::of(&rows).expect("verbs were installed");
        assert_eq!(verbs.markdown(), section);
        let md = markdown(&rows, "study");
        assert!(
            md.contains("\n## Tools used, by condition\n")
                && md.contains(&format!("\n{section}\n## Tasks")),
            "{md}"
        );
        let page = page(&rows, "study");
        assert!(
            page.contains("<h2>Verbs called, by condition</h2>"),
            "{page}"
        );
        assert!(
            page.contains("<td>collapse</td><td>–</td><td>–</td>"),
            "{page}"
        );
        assert!(
            page.contains(
                "Installed and called by no run: cli-named 3 of 5 (collapse, tree, wait)"
            ),
            "{page}"
        );
        // A verb installed for one condition only; every verb called; no start recorded.
        let results = [
            RunResult {
                started_at: None,
                ..invoking("cli-named", 1, &["click"], Some(&[("click", 1)]), "")
            },
            RunResult {
                started_at: None,
                ..invoking(
                    "cli-compact",
                    1,
                    &["click", "tree"],
                    Some(&[("tree", 2)]),
                    "",
                )
            },
        ];
        let verbs = VerbsCalled::of(&super::rows(&results, &[])).expect("installed");
        let text = verbs.markdown();
        assert!(
            text.contains("| tree | not installed | 1/1 · 2 |\n| click | 1/1 · 1 | – |\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "Installed and called by no run: `cli-named` none of 1; `cli-compact` 1 of 2 \
                 (`click`).\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("--unused-for DURATION --server-log runs/cli-compact/*/*/calls.jsonl")
                && text.contains("(`DURATION` as long as the study's runs took)"),
            "{text}"
        );
        // Only older records: said unknown, no table, no command.
        let text = VerbsCalled::of(&super::rows(&[older], &[]))
            .expect("installed")
            .markdown();
        assert!(
            !text.contains("| verb |") && !text.contains("verbs prune"),
            "{text}"
        );
        assert!(text.contains("`both` 1 of 1 run (not tabled)"), "{text}");
        // No condition installs verbs (or results from before they were recorded): no
        // section.
        let none = [result("mcp", "a", true, 3, 100)];
        let rows = super::rows(&none, &[]);
        assert_eq!(VerbsCalled::of(&rows), None);
        assert!(!markdown(&rows, "study").contains("Verbs called"));
    }

    /// report.csv's image columns are the counts report.md's line says, and the images'
    /// own tokens and bytes summed; unknown (empty) where an older record of a run with
    /// images kept no sizes.
    #[test]
    fn the_images_and_their_tokens_and_bytes_are_in_the_csv() {
        let shot = |images: u32, unsized_: u32, size: Option<(u64, u64)>| {
            let mut run = result("mcp", "settings-screenshot", true, 3, 4000);
            run.context.images = images;
            run.context.images_unsized = unsized_;
            run.context.images_size = size.map(|(bytes, tokens)| Size { bytes, tokens });
            run
        };
        let made = [
            shot(1, 0, Some((31_000, 640))),
            shot(2, 1, Some((45_000, 1600))),
            shot(0, 0, None),
            result("cli-named", "settings-screenshot", true, 3, 100),
        ];
        let rows = rows(&made, &[]);
        let csv = csv(&rows);
        let header: Vec<&str> = csv.lines().next().unwrap_or_default().split(',').collect();
        assert!(
            csv.starts_with("condition,")
                && csv
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .ends_with(",no_events_runs,images,images_unsized,image_tokens,image_bytes"),
            "{csv}"
        );
        let column = |condition: &str, name: &str| {
            let row = csv_row(&rows, condition);
            let row: Vec<&str> = row.split(',').collect();
            header
                .iter()
                .position(|h| *h == name)
                .map(|i| row[i].to_owned())
        };
        let images = |condition: &str| {
            ["images", "images_unsized", "image_tokens", "image_bytes"]
                .map(|name| column(condition, name).unwrap_or_default())
        };
        assert_eq!(images("mcp"), ["3", "1", "2240", "76000"], "{csv}");
        assert_eq!(images("cli-named"), ["0", "0", "0", "0"], "{csv}");
        // As report.md says them.
        assert!(
            images_line(&rows).is_some_and(
                |l| l.ends_with("in `mcp` 3 images (1 of unknown pixel size: bytes only).")
            ),
            "{:?}",
            images_line(&rows)
        );
        // An older record of a run that received an image, which kept no size: the count
        // stands, the tokens and bytes are unknown.
        let older = [shot(1, 0, None), shot(1, 0, Some((31_000, 640)))];
        let older_rows = super::rows(&older, &[]);
        assert!(
            csv_row(&older_rows, "mcp").ends_with(",2,0,,"),
            "{}",
            super::csv(&older_rows)
        );
    }
}
