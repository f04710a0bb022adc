//! A row's figures as the tables print them (medians, rates, seconds), their columns
//! declared once ([`COLUMNS`]: `report.md`'s tables and the page's iterate it), a
//! Markdown table, and a section that is a table under a heading ([`Section`]).

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

/// One of the figures' columns, as report.md and the page head it and print its cells
/// (`report.csv` has its own columns: the raw numbers, more of them, in `csv.rs`).
pub(super) struct Column {
    /// Its header in `report.md`; `None`: its cell is printed in parentheses after the
    /// column before's, in that column (the context before the first call).
    pub markdown: Option<&'static str>,
    /// Its header on the page, where every column is its own.
    pub html: &'static str,
    pub cell: fn(&Row) -> String,
}

/// The figures' columns, in order. The headers say the medians are medians, or a
/// condition's `calls 3` over 14 tasks reads as a total.
pub(super) const COLUMNS: &[Column] = &[
    Column {
        markdown: Some("runs"),
        html: "runs",
        cell: |row| row.runs.to_string(),
    },
    Column {
        markdown: Some("success"),
        html: "success",
        cell: |row| match row.rate() {
            None => "0/0 (–)".to_owned(),
            Some(rate) => format!("{}/{} ({})", row.successes, row.runs, percent(rate)),
        },
    },
    Column {
        markdown: Some("95% CI"),
        html: "95% CI",
        cell: |row| match row.rate() {
            None => "–".to_owned(),
            Some(_) => format!("{}–{}", percent(row.low), percent(row.high)),
        },
    },
    Column {
        markdown: Some("median calls"),
        html: "median calls",
        cell: |row| number(row.calls),
    },
    Column {
        markdown: Some("median attempts"),
        html: "median attempts",
        cell: |row| number(row.attempts),
    },
    Column {
        markdown: Some("median failed calls"),
        html: "median failed calls",
        cell: |row| number(row.failed),
    },
    Column {
        markdown: Some("median turns"),
        html: "median turns",
        cell: |row| counted(row.turns, row.turns_runs, row.runs),
    },
    Column {
        markdown: Some("median input tokens"),
        html: "median input tokens",
        cell: |row| counted(row.input_tokens, row.input_runs, row.runs),
    },
    Column {
        markdown: Some("median context tokens (before)"),
        html: "median context tokens",
        cell: |row| at_least(row, number(row.context_tokens)),
    },
    Column {
        markdown: None,
        html: "before first call",
        cell: |row| number(row.context_before),
    },
    Column {
        markdown: Some("median context bytes"),
        html: "median context bytes",
        cell: |row| at_least(row, number(row.context_bytes)),
    },
    Column {
        markdown: Some("median time"),
        html: "median time",
        cell: |row| seconds(row.seconds),
    },
];

/// The figures' part of a Markdown table's header, after the columns that name the row
/// (`| condition ` goes before it): `| runs | success | … | median time |`.
pub(super) fn markdown_header() -> String {
    let names: Vec<&str> = COLUMNS.iter().filter_map(|c| c.markdown).collect();
    format!("| {} |", names.join(" | "))
}

/// How many columns of a Markdown table the figures take.
pub(super) fn markdown_columns() -> usize {
    COLUMNS.iter().filter(|c| c.markdown.is_some()).count()
}

/// A row's figures as the page's table prints them: a cell per column.
pub(super) fn figures(row: &Row) -> Vec<String> {
    COLUMNS.iter().map(|column| (column.cell)(row)).collect()
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

/// A row's figures as a Markdown table's line prints them, from `| runs` to the end.
pub(super) fn cells(row: &Row) -> String {
    let mut text = String::new();
    for column in COLUMNS {
        let cell = (column.cell)(row);
        if column.markdown.is_some() {
            let _ = write!(text, "| {cell} ");
        } else {
            let _ = write!(text, "({cell}) ");
        }
    }
    text.push('|');
    text
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
