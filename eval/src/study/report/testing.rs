//! The runs the report's tests are made of, and the CSV rows and cells they read.

use mur_usage::Surface;

use super::csv::csv;
use super::rows::Rows;
use crate::profile::Profile;
use crate::study::result::{Checks, Context, RunCalls, RunResult};
use crate::tokens::Size;

pub(super) fn result(
    condition: &str,
    task: &str,
    success: bool,
    calls: u32,
    tokens: u64,
) -> RunResult {
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
            Profile::Cli,
            task.to_owned(),
            1,
            "t".into(),
        )
    }
}

pub(super) fn refusing(condition: &str, refused: &[(&str, &[&str], u32, u64)]) -> RunResult {
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

/// The CSV row of `condition` as a whole (its `task` empty).
pub(super) fn csv_row(rows: &Rows<'_>, condition: &str) -> String {
    csv(rows)
        .lines()
        .find(|l| l.starts_with(&format!("{condition},,")))
        .map(str::to_owned)
        .unwrap_or_default()
}

/// The cell of `row`, a line of `csv`, in the column its header names `name` (`None`: no
/// such column).
pub(super) fn csv_cell<'a>(csv: &str, row: &'a str, name: &str) -> Option<&'a str> {
    let header = csv.lines().next().unwrap_or_default();
    let at = header.split(',').position(|h| h == name)?;
    Some(row.split(',').nth(at).expect("a cell in every column"))
}

/// Asserts the cells of the CSV's first row, by column (`None`: no such column), naming
/// the column of a cell that differs.
#[track_caller]
pub(super) fn assert_first_row(csv: &str, cells: &[(&str, Option<&str>)]) {
    let first = csv.lines().nth(1).unwrap_or_default();
    for (name, cell) in cells {
        assert_eq!(csv_cell(csv, first, name), *cell, "{name}: {csv}");
    }
}

/// Asserts that the CSV row of `condition` ends with `tail`, its last columns.
#[track_caller]
pub(super) fn assert_csv_row_ends(rows: &Rows<'_>, condition: &str, tail: &str) {
    assert!(csv_row(rows, condition).ends_with(tail), "{}", csv(rows));
}

/// A run under a `both` condition: its calls by surface and where it reached first.
pub(super) fn reaching(first: Surface, cli: u32, mcp: u32) -> RunResult {
    let mut run = result("both", "a", true, cli + mcp, 100);
    run.surface = Profile::Both;
    run.calls.cli = cli;
    run.calls.mcp = mcp;
    run.calls.first_surface = Some(first);
    run
}
