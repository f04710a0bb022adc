//! `report.csv`: one line per condition, then per task and condition, every figure.

use std::fmt::Write as _;

use super::rows::{Row, Rows};

fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

/// A median or other figure a row may not have: empty when it has none, never 0.
fn opt(value: Option<f64>) -> String {
    value.map_or_else(String::new, |v| format!("{v}"))
}

/// A row's success rate or a bound of its 95% interval (`pick` of rate, low, high); a
/// row with no runs has none: empty, as its medians are, never 0% within 0–0.
fn rate(row: &Row, pick: fn((f64, f64, f64)) -> f64) -> String {
    row.rate_and_interval()
        .map_or_else(String::new, |figures| format!("{:.4}", pick(figures)))
}

/// A column's field of a row, as `report.csv` writes it.
type Field = fn(&Row) -> String;

/// `report.csv`'s columns, in order: a name and the field of a row. Raw numbers, not the
/// tables' cells (`cells.rs`), and more of them, so a table of their own.
const COLUMNS: &[(&str, Field)] = &[
    ("condition", |row| quote(&row.condition)),
    ("task", |row| quote(row.task.as_deref().unwrap_or(""))),
    ("runs", |row| row.runs.to_string()),
    ("successes", |row| row.successes.to_string()),
    ("success_rate", |row| rate(row, |(rate, _, _)| rate)),
    ("ci_low", |row| rate(row, |(_, low, _)| low)),
    ("ci_high", |row| rate(row, |(_, _, high)| high)),
    ("median_calls", |row| opt(row.calls)),
    ("median_attempts", |row| opt(row.attempts)),
    ("median_failed_calls", |row| opt(row.failed)),
    ("median_turns", |row| opt(row.turns)),
    ("median_input_tokens", |row| opt(row.input_tokens)),
    ("median_output_tokens", |row| opt(row.output_tokens)),
    ("median_cost_usd", |row| opt(row.cost_usd)),
    ("median_cached_tokens", |row| opt(row.cached_tokens)),
    ("median_context_tokens", |row| opt(row.context_tokens)),
    (
        "median_context_tokens_before",
        |row| opt(row.context_before),
    ),
    ("median_context_bytes", |row| opt(row.context_bytes)),
    ("median_seconds", |row| {
        row.seconds.map_or_else(String::new, |v| format!("{v:.3}"))
    }),
    // Over the successful runs alone (the columns above are over every run made).
    ("solved_median_calls", |row| opt(row.solved.calls)),
    ("solved_median_input_tokens", |row| {
        opt(row.solved.input_tokens)
    }),
    ("solved_median_output_tokens", |row| {
        opt(row.solved.output_tokens)
    }),
    ("solved_median_cost_usd", |row| opt(row.solved.cost_usd)),
    ("solved_median_context_tokens", |row| {
        opt(row.solved.context_tokens)
    }),
    ("solved_median_seconds", |row| {
        row.solved
            .seconds
            .map_or_else(String::new, |v| format!("{v:.3}"))
    }),
    ("off_condition_calls", |row| row.off_condition.to_string()),
    ("derived_invocations", |row| {
        row.derived_invocations.to_string()
    }),
    ("call_invocations", |row| row.call_invocations.to_string()),
    ("refused_invocations", |row| row.refused_total().to_string()),
    ("failed_calls", |row| row.failed_total.to_string()),
    ("cli_calls", |row| row.reach.cli_calls.to_string()),
    ("mcp_calls", |row| row.reach.mcp_calls.to_string()),
    ("first_via_cli", |row| row.reach.first_cli.to_string()),
    ("first_via_mcp", |row| row.reach.first_mcp.to_string()),
    ("order_varied_runs", |row| {
        row.reach.order_varied.to_string()
    }),
    ("first_via_listed_first", |row| {
        row.reach.first_as_listed.to_string()
    }),
    ("runs_not_made", |row| row.errors.to_string()),
    ("turns_runs", |row| row.turns_runs.to_string()),
    ("input_tokens_runs", |row| row.input_runs.to_string()),
    ("timed_out", |row| row.timed_out.to_string()),
    ("mcp_results_unseen_runs", |row| row.mcp_unseen.to_string()),
    ("agent_failed", |row| {
        (row.agent_exits.values().map(|&n| u64::from(n)).sum::<u64>() + u64::from(row.not_started))
            .to_string()
    }),
    ("agent_failed_at_once", |row| row.failed_at_once.to_string()),
    ("no_events_runs", |row| row.no_events.to_string()),
    ("images", |row| row.images.to_string()),
    ("images_unsized", |row| row.images_unsized.to_string()),
    // Unknown (an older record of a run that received images): empty, not 0.
    ("image_tokens", |row| {
        row.images_size
            .map_or_else(String::new, |s| s.tokens.to_string())
    }),
    ("image_bytes", |row| {
        row.images_size
            .map_or_else(String::new, |s| s.bytes.to_string())
    }),
];

/// `report.csv`: one row per condition (empty `task`), then per task and condition.
pub fn csv(rows: &Rows<'_>) -> String {
    let names: Vec<&str> = COLUMNS.iter().map(|(name, _)| *name).collect();
    let mut text = format!("{}\n", names.join(","));
    for row in rows.conditions.iter().chain(&rows.tasks) {
        let fields: Vec<String> = COLUMNS.iter().map(|(_, field)| field(row)).collect();
        let _ = writeln!(text, "{}", fields.join(","));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::report::{rows, testing::*};
    use crate::study::result::RunResult;

    /// A cli run's invocations as mur recorded them, `refused` among them.
    #[test]
    fn output_tokens_and_cost_the_agents_reported_are_in_the_csv() {
        let reported = |output, cost| RunResult {
            agent: Some(crate::adapters::AgentReport {
                output_tokens: Some(output),
                cost_usd: Some(cost),
                ..crate::adapters::AgentReport::new(crate::adapters::Format::StreamJson)
            }),
            ..result("mcp", "a", true, 3, 100)
        };
        let made = [reported(100, 0.02), reported(300, 0.04)];
        let rows = rows(&made, &[]);
        let csv = csv(&rows);
        assert_first_row(
            &csv,
            &[
                ("median_output_tokens", Some("200")),
                ("median_cost_usd", Some("0.03")),
            ],
        );
        // Not reported: empty.
        let none = super::super::csv(&super::super::rows(
            &[result("mcp", "a", true, 3, 100)],
            &[],
        ));
        assert!(none.contains(",3,3,0,,,,,"), "{none}");
    }
}
