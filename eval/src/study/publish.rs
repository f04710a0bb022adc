//! The study's reports, written to its directory: `report.md`, `report.csv` and
//! `transcripts.md`.

use std::path::Path;

use mur_core::Result;

use super::files::TRANSCRIPTS_FILE;
use super::report;
use super::traces;

/// What a study's report's title begins with (also how its page is known again).
pub const TITLE: &str = "mur-eval study: ";

/// The title of a study's report.
pub fn title(results: usize, seed: u64) -> String {
    format!(
        "{TITLE}{}, seed {seed}",
        crate::words::plural(results, "run")
    )
}

/// `report.md`, `report.csv` and `transcripts.md` in `out`; the report's Markdown.
pub fn write_reports(out: &Path, rows: &report::Rows<'_>, seed: u64) -> Result<String> {
    let title = title(rows.results.len(), seed);
    let markdown = report::markdown(rows, &title);
    crate::write::record(&out.join("report.md"), markdown.as_bytes())?;
    crate::write::record(&out.join("report.csv"), report::csv(rows).as_bytes())?;
    let conditions: Vec<String> = rows
        .conditions
        .iter()
        .map(|r| r.condition.clone())
        .collect();
    let transcripts = traces::transcripts(out, rows.results, &conditions, &title);
    crate::write::record(&out.join(TRANSCRIPTS_FILE), transcripts.as_bytes())?;
    Ok(markdown)
}
