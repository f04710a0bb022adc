//! A row's figures as the tables print them (medians, rates, seconds), a Markdown
//! table, and a section that is a table under a heading ([`Section`]).

use std::fmt::Write as _;

use mur_usage::html;

use super::rows::Row;

/// A median over `of` of `runs` runs, and how many when not all (`4 (1 of 2)`).
fn counted(value: Option<f64>, of: u32, runs: u32) -> String {
    match value {
        Some(_) if of < runs => format!("{} ({of} of {runs})", number(value)),
        _ => number(value),
    }
}

pub(super) fn number(value: Option<f64>) -> String {
    match value {
        None => "–".to_owned(),
        Some(v) if v >= 100.0 || v.fract() == 0.0 => format!("{v:.0}"),
        Some(v) => format!("{v:.1}"),
    }
}

pub(super) fn seconds(value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_owned(), |v| format!("{v:.2} s"))
}

/// A rate as a whole percentage; 100% and 0% only when exact (299 of 300 is 99%, not
/// 100%). Exact within what floating point computes: the Wilson interval's upper bound
/// of 42 of 42 is 1 less a rounding error, and printed 99%.
pub(super) fn percent(value: f64) -> String {
    const ROUNDING: f64 = 1e-9;
    match format!("{:.0}", value * 100.0).as_str() {
        "100" if value < 1.0 - ROUNDING => "99%".to_owned(),
        "0" if value > ROUNDING => "1%".to_owned(),
        shown => format!("{shown}%"),
    }
}

/// The figures' headers: the medians say so, or a condition's `calls 3` over 14 tasks
/// reads as a total.
pub(super) const HEADER: &str = "| runs | success | 95% CI | median calls | median attempts | median failed calls | median turns | median input tokens | median context tokens (before) | median context bytes | median time |";

/// A row's figures as the tables print them: runs, success, 95% CI, calls, attempts,
/// failed calls, turns, input tokens, context tokens, before the first call, context
/// bytes, time.
pub(super) fn figures(row: &Row) -> [String; 12] {
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
pub(super) fn separator(columns: usize) -> String {
    format!("|{}", "---|".repeat(columns))
}

/// `header` and `rows` as a Markdown table, a line each.
pub(super) fn markdown_table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut text = format!("| {} |\n{}\n", header.join(" | "), separator(header.len()));
    for row in rows {
        let _ = writeln!(text, "| {} |", row.join(" | "));
    }
    text
}

pub(super) fn cells(row: &Row) -> String {
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

/// A section of the report that is a heading, a sentence saying what it counts, a table
/// when it has one to show, and lines under it: as `report.md` writes it and as the page
/// does (backquotes dropped, text escaped).
pub(super) struct Section {
    pub title: &'static str,
    pub says: &'static str,
    /// The header and the rows; `None`: no table.
    pub table: Option<(Vec<String>, Vec<Vec<String>>)>,
    pub lines: Vec<String>,
}

impl Section {
    /// The section of `report.md`.
    pub(super) fn markdown(&self) -> String {
        let mut text = format!("## {}\n\n{}\n\n", self.title, self.says);
        if let Some((header, rows)) = &self.table {
            text.push_str(&markdown_table(header, rows));
        }
        for line in &self.lines {
            let _ = write!(text, "\n{line}\n");
        }
        text
    }

    /// The section of the page.
    pub(super) fn html(&self) -> String {
        let mut body = format!(
            "<h2>{}</h2><p>{}</p>",
            self.title,
            html::escape(&self.says.replace('`', ""))
        );
        if let Some((header, rows)) = &self.table {
            let header: Vec<&str> = header.iter().map(String::as_str).collect();
            body.push_str(&html::text_table(&header, rows));
        }
        for line in &self.lines {
            let _ = write!(body, "<p>{}</p>", html::escape(&line.replace('`', "")));
        }
        body
    }
}
