//! The study's report from its `results.jsonl`: per condition, then per task and
//! condition — runs, success % with its 95% Wilson interval, and the medians of calls,
//! turns, input tokens, context tokens and bytes, and duration; the tools each condition's
//! runs called and the verbs, with those installed that no run called — as Markdown
//! (`report.md`), CSV (`report.csv`) and one self-contained HTML page drawn with the
//! usage report's charts (`mur_usage::html`).
//!
//! The runs are grouped into rows in `rows.rs` (with the statistics of `stats.rs` and
//! what one run's record says, `per_run.rs`); the sentences under the tables are in
//! `notes.rs`, the figures as a table prints them in `cells.rs`; each rendering has its
//! module (`markdown.rs`, `csv.rs`, `page.rs`), and each table beyond the figures its own
//! (`categories.rs`, `tools_used.rs`, `verbs_called.rs`).

mod categories;
mod cells;
mod csv;
mod markdown;
mod notes;
mod page;
mod per_run;
mod rows;
mod stats;
#[cfg(test)]
mod testing;
mod tools_used;
mod verbs_called;

pub use csv::csv;
pub use markdown::{condition_table, markdown};
pub use notes::{incomplete, legend, made_line};
pub use page::page;
pub use per_run::failed_at_once;
pub use rows::{Rows, rows};
