//! The runs grouped into the report's rows: one per condition, then one per task and
//! condition, each with its figures ([`Row`]), and the condition the others are compared
//! with.

use std::collections::BTreeMap;

use mur_usage::Surface;

use super::categories::Categories;
use super::per_run::{
    attempts, failed_at_once, input_tokens, mcp_results_unseen, timed_out_at_once, turns,
};
use super::stats::{median, wilson};
use crate::profile::Profile;
use crate::study::journal::Matrix;
use crate::study::result::RunResult;
use crate::tokens::Size;

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
    /// Of those, the runs the limit ended before the agent did anything the study can
    /// see ([`timed_out_at_once`]).
    pub timed_out_at_once: u32,
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
    /// Median of the input tokens the cache wrote or read (within the input tokens).
    pub cached_tokens: Option<f64>,
    /// How many of the runs reported their turns, their input tokens: the medians are
    /// over those alone.
    pub turns_runs: u32,
    pub input_runs: u32,
    pub context_before: Option<f64>,
    pub context_tokens: Option<f64>,
    pub context_bytes: Option<f64>,
    pub seconds: Option<f64>,
    pub off_condition: u64,
    /// Under a condition that installs verbs, the invocations of derived verbs (a verb
    /// pruned since, reached unnamed) and of `call`, summed over the runs.
    pub derived_invocations: u64,
    pub call_invocations: u64,
    /// The medians over the successful runs alone (cost per solved task, as published
    /// CLI-vs-MCP benchmarks give it): the tables' medians are over every run made, a
    /// failed one too, so an agent that gives up early looks cheap there (report.csv).
    pub solved: Solved,
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
            offered_both: runs.iter().filter(|r| r.surface == Profile::Both).count() as u32,
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

/// Medians over a row's successful runs alone (`None`: no successful run reported one).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Solved {
    pub calls: Option<f64>,
    pub input_tokens: Option<f64>,
    pub output_tokens: Option<f64>,
    pub cost_usd: Option<f64>,
    pub context_tokens: Option<f64>,
    pub seconds: Option<f64>,
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
    pub(super) fn rate_and_interval(&self) -> Option<(f64, f64, f64)> {
        Some((self.rate()?, self.low, self.high))
    }
}

pub(super) fn row(condition: &str, task: Option<&str>, all: &[&RunResult]) -> Row {
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
        timed_out_at_once: runs.iter().filter(|r| timed_out_at_once(r)).count() as u32,
        cached_tokens: of(&|r| r.agent.as_ref()?.cached_tokens.map(|t| t as f64)),
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
        derived_invocations: runs
            .iter()
            .flat_map(|r| r.derived_called.iter().flat_map(|d| d.values()))
            .map(|n| u64::from(*n))
            .fold(0, u64::saturating_add),
        call_invocations: runs
            .iter()
            .filter_map(|r| r.call_invocations)
            .map(u64::from)
            .fold(0, u64::saturating_add),
        solved: {
            let solved = |f: &dyn Fn(&RunResult) -> Option<f64>| {
                median(
                    runs.iter()
                        .filter(|r| r.success)
                        .filter_map(|r| f(r))
                        .collect(),
                )
            };
            Solved {
                calls: solved(&|r| Some(f64::from(r.calls.total))),
                input_tokens: solved(&input_tokens),
                output_tokens: solved(&|r| r.agent.as_ref()?.output_tokens.map(|t| t as f64)),
                cost_usd: solved(&|r| r.agent.as_ref()?.cost_usd),
                context_tokens: solved(&|r| Some(r.context.total.tokens as f64)),
                seconds: solved(&|r| Some(r.wall_ms / 1000.0)),
            }
        },
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
    /// Every run the study's commands asked for (`study.json`'s matrices): the runs
    /// recorded are compared with them, so a study stopped before its end says what it
    /// lacks. Empty when not known (nothing is then said).
    pub asked: &'a [Matrix],
    /// `asked` is not all the study's commands asked for: its earliest went unrecorded
    /// (`study.json` begun in schema 1), so what it lacks cannot be told.
    pub asked_in_part: bool,
    /// The condition the others are compared with (`--against`); `None`: [`REFERENCE`]
    /// when the rows have it, else the first condition ([`Rows::reference`]).
    pub against: Option<String>,
}

impl<'a> Rows<'a> {
    /// The runs of `condition` the harness made: one it could not make (its error) is no
    /// figure of the surface.
    pub fn made(&self, condition: &str) -> impl Iterator<Item = &'a RunResult> {
        self.results
            .iter()
            .filter(move |r| r.condition == condition && r.error.is_none())
    }

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
        asked: &[],
        asked_in_part: false,
        against: None,
    }
}

/// The condition the others are compared with: mur as it ships.
const REFERENCE: &str = "cli-named";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::report::{condition_table, csv, markdown, notes::against, page, testing::*};

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
        for said in [
            "| median calls | median attempts | median failed calls | median turns |",
            "\n| cli-named | 1 | 1/1 (100%) | 21%–100% | 3 | 6 | 0 | – |",
            "\n| mcp | 1 | 1/1 (100%) | 21%–100% | 6 | 6 | 0 | – |",
        ] {
            assert!(table.contains(said), "{said:?} not in:\n{table}");
        }
        let page = page(&rows, "study");
        for said in [
            "<th>median calls</th><th>median attempts</th>",
            "<td>3</td><td>6</td>",
        ] {
            assert!(page.contains(said), "{said:?} not in:\n{page}");
        }
        let csv = csv(&rows);
        assert!(csv.starts_with("condition,task,runs,successes,success_rate,ci_low,ci_high,median_calls,median_attempts,"), "{csv}");
        assert!(
            csv.contains("\ncli-named,,1,1,1.0000,0.2065,1.0000,3,6,"),
            "{csv}"
        );
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
}
