//! Per-call latency, whole process, warm: contenders run interleaved (one run
//! of each in turn, so machine noise hits them alike; each round in a fresh
//! shuffled order, so no row always follows the same one) and every row is put
//! against the two floors measured in the same run — `mur-floor` (one raw
//! POST) and `mur-contract-floor` (the lockfile contract, then the POST). The
//! stack floors (`mur-stack-floor`) make the probe and the POST through tokio +
//! hyper alone, through mur's own HTTP (`mur-http`) and through a reqwest client,
//! with no discovery: what the HTTP stack by itself costs a call.
//!
//! A new row is one more [`Contender`] in [`per_call_latency`]'s list (or in
//! another table built with [`measure_interleaved`] and [`Floors`]).

use std::{process::Command, time::Duration};

use crate::{
    measure,
    runs::{Run, Runs},
    setup::{Bench, Result},
    stats::Row,
};

pub const STATE_ARGS: &str = r##"{"selector":"#count"}"##;

/// Warm-up runs of each contender before any is measured.
const WARM_UPS: usize = 3;

/// One row of an interleaved table: its label and how to start one run.
pub struct Contender<'a> {
    pub label: String,
    pub command: Box<dyn Fn() -> Command + 'a>,
    /// Whether a non-zero exit fails the benchmark (mur and the floors) or is
    /// only counted (peers).
    pub must_succeed: bool,
}

impl<'a> Contender<'a> {
    pub fn new(label: impl Into<String>, command: impl Fn() -> Command + 'a) -> Self {
        Self {
            label: label.into(),
            command: Box::new(command),
            must_succeed: true,
        }
    }

    /// A contender whose failures are counted in its row, not fatal.
    pub fn tolerated(mut self) -> Self {
        self.must_succeed = false;
        self
    }
}

/// The two floors' medians of one run, for the ratio notes.
#[derive(Debug, Clone, Copy)]
pub struct Floors {
    pub one_post: Duration,
    pub contract: Duration,
}

impl Floors {
    /// `2.41x floor, 1.95x contract floor`.
    pub fn note(&self, median: Duration) -> String {
        let ratio = |floor: Duration| median.as_secs_f64() / floor.as_secs_f64().max(1e-9);
        format!(
            "{:.2}x floor, {:.2}x contract floor",
            ratio(self.one_post),
            ratio(self.contract)
        )
    }
}

/// The floors as contenders: `mur-floor` POSTing to `endpoint`, and
/// `mur-contract-floor` finding the session as the contract says.
pub fn floor_contenders<'a>(sandbox: &'a Bench, endpoint: &'a str) -> [Contender<'a>; 2] {
    [
        Contender::new(
            "contract floor: lockfile, pid, GET probe, POST (std only)",
            move || {
                let mut command = sandbox.program("mur-contract-floor");
                command.args(["state", STATE_ARGS]);
                command
            },
        ),
        Contender::new("floor: one raw POST (std only)", move || {
            let mut command = sandbox.floor();
            command.args([endpoint, "state", STATE_ARGS]);
            command
        }),
    ]
}

/// The order of the contenders within each round of an interleaved table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// A fresh order every round (from a fixed seed, so a run can be repeated).
    /// A process runs measurably slower right after a large one than after a
    /// small one (the caches hold the other's code): in a fixed order the row
    /// after the largest contender always pays that, the floors never.
    Shuffled,
    /// The contenders' own order every round (`--fixed-order`).
    Fixed,
}

/// The seed of [`Order::Shuffled`]: the same sequence of orders in every run.
const SHUFFLE_SEED: u64 = 0x6d75_722d_6265_6e63;

/// [`WARM_UPS`] of each contender (all but the first are memory runs), then
/// `runs` timed rounds of every contender; the runs of each, in the
/// contenders' order.
pub fn measure_interleaved(
    contenders: &[Contender],
    runs: usize,
    order: Order,
) -> Result<Vec<Runs>> {
    let mut all = contenders
        .iter()
        .map(|contender| {
            // The first fills what a warm call finds filled (a derived verb's tool
            // list), so the memory is a warm call's.
            run_one(contender, measure::run)?;
            let memory = (1..WARM_UPS)
                .map(|_| run_one(contender, measure::run_for_memory))
                .collect::<Result<Vec<_>>>()?;
            let timed = Vec::with_capacity(runs);
            Ok(Runs { timed, memory })
        })
        .collect::<Result<Vec<_>>>()?;
    let mut rounds = Rounds::new(contenders.len(), order);
    for _ in 0..runs {
        for &at in rounds.next_round() {
            all[at].timed.push(run_one(&contenders[at], measure::run)?);
        }
    }
    Ok(all)
}

/// The order of each round: the contenders' indices, shuffled anew per round
/// or left as they are.
pub struct Rounds {
    order: Vec<usize>,
    shuffle: Option<fastrand::Rng>,
}

impl Rounds {
    pub fn new(contenders: usize, order: Order) -> Self {
        Self {
            order: (0..contenders).collect(),
            shuffle: (order == Order::Shuffled).then(|| fastrand::Rng::with_seed(SHUFFLE_SEED)),
        }
    }

    pub fn next_round(&mut self) -> &[usize] {
        if let Some(rng) = &mut self.shuffle {
            rng.shuffle(&mut self.order);
        }
        &self.order
    }
}

fn run_one(contender: &Contender, how: fn(&mut Command) -> std::io::Result<Run>) -> Result<Run> {
    let run = how(&mut (contender.command)()).map_err(|e| e.to_string())?;
    if contender.must_succeed && run.exit_code != 0 {
        return Err(format!("`{}` exited {}", contender.label, run.exit_code));
    }
    Ok(run)
}

/// Rows for `contenders` whose last two are [`floor_contenders`]: each row
/// notes its ratio to both floors (and its failures, if any).
pub fn rows_against_floors(contenders: &[Contender], runs: &[Runs]) -> (Vec<Row>, Floors) {
    let median = |at: usize| Row::from_runs("", &runs[at].timed).median();
    let count = contenders.len();
    let floors = Floors {
        contract: median(count - 2),
        one_post: median(count - 1),
    };
    let rows = contenders
        .iter()
        .zip(runs)
        .map(|(contender, runs)| {
            let row = Row::from_measured(contender.label.clone(), runs);
            let mut note = floors.note(row.median());
            let failed = runs.timed.iter().filter(|run| run.exit_code != 0).count();
            if failed > 0 {
                note.push_str(&format!("; {failed} non-zero exits"));
            }
            row.note(note)
        })
        .collect();
    (rows, floors)
}

/// Per-call latency: a warm named verb, a data verb and a derived verb,
/// `call`, and both floors. The data verb is docs/examples/count.json (it
/// calls `state` on `#count`, as the named verb and the floors do); the
/// derived verb is `clear-todos` (with no todos: nothing to clear, nothing
/// asked), a tool no standard verb covers, its list cached after the warm-up.
/// (`export-todos` streams its progress, which measures the stream, not the verb.)
///
/// With `--target`, the same rows and both floors of that build run interleaved with
/// the host build's, and its rows are put against its own floors as well.
pub fn per_call_latency(
    sandbox: &Bench,
    endpoint: &str,
    runs: usize,
    order: Order,
) -> Result<Vec<Row>> {
    let count = mur_testkit::plugins::repo_root().join("docs/examples/count.json");
    let count = count.to_str().ok_or("a non-UTF-8 checkout path")?;
    measure::run_expect(&mut sandbox.mur(&["verbs", "add", "--force", count]), 0)
        .map_err(|e| e.to_string())?;
    let mut contenders = mur_rows("", |args| sandbox.mur(args));
    contenders.extend(stack_rows("", endpoint, move || {
        sandbox.program("mur-stack-floor")
    }));
    // The other build's rows, when there is one: its mur rows, its stack floors,
    // then its two floors.
    let start = contenders.len();
    if let Some(other) = sandbox.other() {
        let tag = format!(" [{}]", other.target);
        contenders.extend(mur_rows(&tag, move |args| sandbox.other_mur(other, args)));
        contenders.extend(stack_rows(&tag, endpoint, move || {
            sandbox.command(&other.stack_floor)
        }));
        contenders.push(Contender::new(format!("contract floor{tag}"), move || {
            let mut command = sandbox.command(&other.contract_floor);
            command.args(["state", STATE_ARGS]);
            command
        }));
        contenders.push(Contender::new(format!("floor{tag}"), move || {
            let mut command = sandbox.command(&other.floor);
            command.args([endpoint, "state", STATE_ARGS]);
            command
        }));
    }
    let theirs = start..contenders.len();
    contenders.extend(floor_contenders(sandbox, endpoint));
    let runs = measure_interleaved(&contenders, runs, order)?;
    let (mut rows, _) = rows_against_floors(&contenders, &runs);
    if sandbox.other().is_some() {
        let own = Floors {
            contract: rows[theirs.end - 2].median(),
            one_post: rows[theirs.end - 1].median(),
        };
        for row in &mut rows[theirs] {
            row.note = format!("{}; its own: {}", row.note, own.note(row.median()));
        }
    }
    Ok(rows)
}

/// The three stack floors of one build (`mur-stack-floor`): the probe and the
/// call through tokio and hyper alone, through mur's own HTTP (`mur_http`, what
/// a call goes through), and through the reqwest client mur builds for OAuth.
fn stack_rows<'a>(
    tag: &str,
    endpoint: &'a str,
    program: impl Fn() -> Command + Copy + 'a,
) -> Vec<Contender<'a>> {
    let row = |label: &str, stack: &'static str| {
        Contender::new(format!("{label}{tag}"), move || {
            let mut command = program();
            command.args([stack, endpoint, "state", STATE_ARGS]);
            command
        })
    };
    vec![
        row(
            "stack floor: GET probe, POST through tokio + hyper",
            "hyper",
        ),
        row(
            "stack floor: GET probe, POST through mur's HTTP (mur_http)",
            "mur",
        ),
        row(
            "stack floor: GET probe, POST through a reqwest client",
            "reqwest",
        ),
    ]
}

/// The four mur rows — named, data and derived verb, `call` — of one build.
fn mur_rows<'a>(tag: &str, mur: impl Fn(&[&str]) -> Command + Copy + 'a) -> Vec<Contender<'a>> {
    let row = |label: &str, args: &'static [&'static str]| {
        Contender::new(format!("{label}{tag}"), move || mur(args))
    };
    vec![
        row(
            "mur devtools state --selector '#count' (named verb)",
            &["state", "--selector", "#count"],
        ),
        row("mur devtools count (data verb)", &["count"]),
        row("mur devtools clear-todos (derived verb)", &["clear-todos"]),
        row(
            "mur devtools call state --args …",
            &["call", "state", "--args", STATE_ARGS],
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rounds(order: Order, count: usize) -> Vec<Vec<usize>> {
        let mut rounds = Rounds::new(5, order);
        (0..count).map(|_| rounds.next_round().to_vec()).collect()
    }

    #[test]
    fn a_shuffled_round_runs_each_contender_once_and_no_row_always_follows_another() {
        let shuffled = rounds(Order::Shuffled, 50);
        for round in &shuffled {
            let mut sorted = round.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3, 4]);
        }
        // The row after contender 0 varies from round to round.
        let after_first: std::collections::BTreeSet<Option<usize>> = shuffled
            .iter()
            .map(|round| {
                round
                    .iter()
                    .position(|&at| at == 0)
                    .and_then(|i| round.get(i + 1).copied())
            })
            .collect();
        assert!(after_first.len() > 2, "{after_first:?}");
        // The same seed: the same orders in every run of the benchmark.
        assert_eq!(shuffled, rounds(Order::Shuffled, 50));
        assert_eq!(rounds(Order::Fixed, 3), vec![vec![0, 1, 2, 3, 4]; 3]);
    }
}
