//! `report.csv`: one line per condition, then per task and condition, every figure.

use std::fmt::Write as _;

use super::rows::Rows;

fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

/// `report.csv`: one row per condition (empty `task`), then per task and condition.
pub fn csv(rows: &Rows<'_>) -> String {
    let mut text = String::from(
        "condition,task,runs,successes,success_rate,ci_low,ci_high,median_calls,median_attempts,median_failed_calls,median_turns,median_input_tokens,median_output_tokens,median_cost_usd,median_context_tokens,median_context_tokens_before,median_context_bytes,median_seconds,off_condition_calls,refused_invocations,failed_calls,cli_calls,mcp_calls,first_via_cli,first_via_mcp,order_varied_runs,first_via_listed_first,runs_not_made,turns_runs,input_tokens_runs,timed_out,mcp_results_unseen_runs,agent_failed,agent_failed_at_once,no_events_runs,images,images_unsized,image_tokens,image_bytes\n",
    );
    let opt = |v: Option<f64>| v.map_or_else(String::new, |v| format!("{v}"));
    for row in rows.conditions.iter().chain(&rows.tasks) {
        // A row with no runs has no rate and no interval: empty, as its medians are,
        // never 0% within 0–0.
        let (rate, low, high) = row.rate_and_interval().map_or_else(
            || (String::new(), String::new(), String::new()),
            |(rate, low, high)| {
                (
                    format!("{rate:.4}"),
                    format!("{low:.4}"),
                    format!("{high:.4}"),
                )
            },
        );
        let _ = writeln!(
            text,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            quote(&row.condition),
            quote(row.task.as_deref().unwrap_or("")),
            row.runs,
            row.successes,
            rate,
            low,
            high,
            opt(row.calls),
            opt(row.attempts),
            opt(row.failed),
            opt(row.turns),
            opt(row.input_tokens),
            opt(row.output_tokens),
            opt(row.cost_usd),
            opt(row.context_tokens),
            opt(row.context_before),
            opt(row.context_bytes),
            row.seconds.map_or_else(String::new, |v| format!("{v:.3}")),
            row.off_condition,
            row.refused_total(),
            row.failed_total,
            row.reach.cli_calls,
            row.reach.mcp_calls,
            row.reach.first_cli,
            row.reach.first_mcp,
            row.reach.order_varied,
            row.reach.first_as_listed,
            row.errors,
            row.turns_runs,
            row.input_runs,
            row.timed_out,
            row.mcp_unseen,
            row.agent_exits.values().map(|&n| u64::from(n)).sum::<u64>()
                + u64::from(row.not_started),
            row.failed_at_once,
            row.no_events,
            row.images,
            row.images_unsized,
            // Unknown (an older record of a run that received images): empty, not 0.
            row.images_size
                .map_or_else(String::new, |s| s.tokens.to_string()),
            row.images_size
                .map_or_else(String::new, |s| s.bytes.to_string()),
        );
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
        let header: Vec<&str> = csv.lines().next().unwrap_or_default().split(',').collect();
        let row: Vec<&str> = csv.lines().nth(1).unwrap_or_default().split(',').collect();
        let column = |name: &str| header.iter().position(|h| *h == name).map(|i| row[i]);
        assert_eq!(column("median_output_tokens"), Some("200"), "{csv}");
        assert_eq!(column("median_cost_usd"), Some("0.03"), "{csv}");
        // Not reported: empty.
        let none = super::super::csv(&super::super::rows(
            &[result("mcp", "a", true, 3, 100)],
            &[],
        ));
        assert!(none.contains(",3,3,0,,,,,"), "{none}");
    }
}
