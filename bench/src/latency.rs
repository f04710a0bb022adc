//! Per-call latency, whole process, warm: contenders run interleaved (one run
//! of each in turn, so machine noise hits them alike) and every row is put
//! against the two floors measured in the same run — `mur-floor` (one raw
//! POST) and `mur-contract-floor` (the lockfile contract, then the POST).
//!
//! A new row is one more [`Contender`] in [`per_call_latency`]'s list (or in
//! another table built with [`measure_interleaved`] and [`Floors`]).

use std::{process::Command, time::Duration};

use crate::{
    measure::{self, Run},
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

/// `runs` rounds of every contender in turn, after [`WARM_UPS`] of each;
/// the runs of each contender, in the contenders' order.
pub fn measure_interleaved(contenders: &[Contender], runs: usize) -> Result<Vec<Vec<Run>>> {
    for contender in contenders {
        for _ in 0..WARM_UPS {
            run_one(contender)?;
        }
    }
    let mut all: Vec<Vec<Run>> = vec![Vec::with_capacity(runs); contenders.len()];
    for _ in 0..runs {
        for (at, contender) in contenders.iter().enumerate() {
            all[at].push(run_one(contender)?);
        }
    }
    Ok(all)
}

fn run_one(contender: &Contender) -> Result<Run> {
    let run = measure::run(&mut (contender.command)()).map_err(|e| e.to_string())?;
    if contender.must_succeed && run.exit_code != 0 {
        return Err(format!("`{}` exited {}", contender.label, run.exit_code));
    }
    Ok(run)
}

/// Rows for `contenders` whose last two are [`floor_contenders`]: each row
/// notes its ratio to both floors (and its failures, if any).
pub fn rows_against_floors(contenders: &[Contender], runs: &[Vec<Run>]) -> (Vec<Row>, Floors) {
    let median = |at: usize| Row::from_runs("", &runs[at]).median();
    let count = contenders.len();
    let floors = Floors {
        contract: median(count - 2),
        one_post: median(count - 1),
    };
    let rows = contenders
        .iter()
        .zip(runs)
        .map(|(contender, runs)| {
            let row = Row::from_runs(contender.label.clone(), runs);
            let mut note = floors.note(row.median());
            let failed = runs.iter().filter(|run| run.exit_code != 0).count();
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
pub fn per_call_latency(sandbox: &Bench, endpoint: &str, runs: usize) -> Result<Vec<Row>> {
    let count = mur_testkit::plugins::repo_root().join("docs/examples/count.json");
    let count = count.to_str().ok_or("a non-UTF-8 checkout path")?;
    measure::run_expect(&mut sandbox.mur(&["verbs", "add", "--force", count]), 0)
        .map_err(|e| e.to_string())?;
    let mut contenders = mur_rows("", |args| sandbox.mur(args));
    // The other build's rows, when there is one: its mur rows, then its two floors.
    let theirs = contenders.len()..contenders.len() * 2 + 2;
    if let Some(other) = sandbox.other() {
        let tag = format!(" [{}]", other.target);
        contenders.extend(mur_rows(&tag, move |args| sandbox.other_mur(other, args)));
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
    contenders.extend(floor_contenders(sandbox, endpoint));
    let runs = measure_interleaved(&contenders, runs)?;
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
