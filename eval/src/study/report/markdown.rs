//! `report.md`, and its per-condition table as the README's block shows it.

use std::fmt::Write as _;

use super::cells::{cells, markdown_columns, markdown_header, markdown_table, separator};
use super::notes::{legend, made_line, table_lines};
use super::rows::Rows;
use super::tools_used::ToolsUsed;
use super::verbs_called::VerbsCalled;

/// The per-condition table and what it is compared by: against the reference, and the
/// agent's own choice where both surfaces were offered (the README's baseline is this).
pub fn condition_table(rows: &Rows<'_>) -> String {
    let mut text = format!(
        "| condition {}\n{}\n",
        markdown_header(),
        separator(1 + markdown_columns())
    );
    for row in &rows.conditions {
        let _ = writeln!(text, "| {} {}", row.condition, cells(row));
    }
    for line in table_lines(rows) {
        let _ = write!(text, "\n{line}\n");
    }
    text
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
        let _ = write!(text, "\n{}", used.section().markdown());
    }
    if let Some(verbs) = VerbsCalled::of(rows) {
        let _ = write!(text, "\n{}", verbs.section().markdown());
    }
    text.push_str(&format!(
        "\n## Tasks\n\n| task | condition {}\n{}\n",
        markdown_header(),
        separator(2 + markdown_columns())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;
    use crate::study::report::{cells::percent, page, rows, testing::*};
    use crate::study::result::RunResult;

    #[test]
    fn runs_whose_mcp_results_nothing_counted_are_marked_and_said() {
        let mcp = |task: &str, mcp_calls: u32, counted: u32| {
            let mut run = result("mcp", task, true, mcp_calls, 100);
            run.surface = Profile::Mcp;
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
        for header in [
            "| condition | runs | success | 95% CI | median calls | median attempts | median failed calls | median turns | median input tokens | median context tokens (before) | median context bytes | median time |\n",
            "| task | condition | runs | success | 95% CI | median calls |",
        ] {
            assert!(md.contains(header), "{header:?} not in:\n{md}");
        }
        assert!(page(&rows, "study").contains("<th>median calls</th>"));
    }

    #[test]
    fn medians_of_what_only_some_runs_reported_say_how_many() {
        let reported = |turns: Option<u64>, input: Option<u64>| RunResult {
            agent: Some(crate::adapters::AgentReport {
                turns,
                input_tokens: input,
                ..crate::adapters::AgentReport::new(crate::adapters::Format::StreamJson)
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
        let all = super::super::rows(&made, &[]);
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
}
