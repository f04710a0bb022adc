//! The report as one self-contained HTML page: charts per condition and per task, drawn
//! with the usage report's (`mur_usage::html`), and the tables.

use std::fmt::Write as _;

use mur_usage::html::{self, Bar};

use super::cells::{COLUMNS, figures, number, percent, seconds};
use super::notes::{legend, made_line, scripted_line, table_lines};
use super::rows::{Row, Rows};
use super::tools_used::ToolsUsed;
use super::verbs_called::VerbsCalled;

fn html_table(rows: &[&Row], with_task: bool) -> String {
    let mut headers = vec![];
    if with_task {
        headers.push("task");
    }
    headers.push("condition");
    headers.extend(COLUMNS.iter().map(|column| column.html));
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            let mut cells = vec![];
            if with_task {
                cells.push(row.task.clone().unwrap_or_default());
            }
            cells.push(row.condition.clone());
            cells.extend(figures(row));
            cells
        })
        .collect();
    html::text_table(&headers, &body)
}

/// What a chart shows of a row: its bar's segments, named.
type Segments<'a> = &'a dyn Fn(&Row) -> Vec<(String, f64)>;

/// One bar chart per `(title, segments)`, a bar per row with runs labelled by `label`;
/// the rows without runs are drawn in none (a bar would end in a 0 no run measured) and
/// named under the charts.
fn charts(rows: &[&Row], label: &dyn Fn(&Row) -> String, charts: &[(&str, Segments)]) -> String {
    let mut out = String::new();
    let (drawn, none): (Vec<&Row>, Vec<&Row>) = rows.iter().partition(|row| row.runs > 0);
    if drawn.is_empty() {
        return out;
    }
    for (title, segments) in charts {
        let bars: Vec<Bar> = drawn
            .iter()
            .map(|row| Bar {
                label: label(row),
                segments: segments(row),
            })
            .collect();
        out.push_str(&html::bar_chart(title, &bars));
    }
    if !none.is_empty() {
        let named: Vec<String> = none.iter().map(|row| label(row)).collect();
        let _ = write!(
            out,
            "<p>No runs made (not drawn): {}.</p>",
            html::escape(&named.join(", "))
        );
    }
    out
}

/// A figure as the tables print it (`number`, `seconds`, `percent`), for a chart to
/// show the same: a median of 4552.5 tokens is 4552 in both, not 4552.5 in one.
fn as_printed(printed: &str) -> f64 {
    let figure = printed.trim_end_matches([' ', 's', '%']);
    figure.parse().unwrap_or(0.0)
}

/// A bar of two segments, as the tables print the figures: the `part`, then what the
/// `whole` adds to it — so the bar ends at the whole (medians: the two are not summed).
fn two_parts(
    (part_name, part): (&str, Option<f64>),
    (rest_name, whole): (&str, Option<f64>),
) -> Vec<(String, f64)> {
    let part = as_printed(&number(part));
    vec![
        (part_name.to_owned(), part),
        (
            rest_name.to_owned(),
            (as_printed(&number(whole)) - part).max(0.0),
        ),
    ]
}

/// The report as one self-contained page: charts per condition and per task, the tables.
pub fn page(rows: &Rows<'_>, title: &str) -> String {
    let conditions: Vec<&Row> = rows.conditions.iter().collect();
    let tasks: Vec<&Row> = rows.tasks.iter().collect();
    let by_condition = |row: &Row| row.condition.clone();
    let by_task = |row: &Row| format!("{} · {}", row.task.as_deref().unwrap_or(""), row.condition);
    // Every figure as the tables print it.
    // (Only rows with runs are drawn: they have a rate.)
    let success = |row: &Row| {
        let rate = row.rate().map_or(0.0, |rate| as_printed(&percent(rate)));
        vec![("success %".to_owned(), rate)]
    };
    let context = |row: &Row| {
        two_parts(
            ("before the first call", row.context_before),
            ("results", row.context_tokens),
        )
    };
    // Attempts, not calls alone, are what the surfaces compare by (the legend): the bar
    // is the median calls, then what the median attempts add to them. Two medians'
    // difference (0.5 of a run of 2 and one of 3 calls), named as such: not a count of
    // refused invocations, which report.md gives per condition.
    let attempts = |row: &Row| {
        two_parts(
            ("median calls", row.calls),
            ("median attempts − median calls", row.attempts),
        )
    };
    let time = |row: &Row| vec![("seconds".to_owned(), as_printed(&seconds(row.seconds)))];
    // How the study was made, as report.md and the README's block begin: a published
    // page's figures are read for the build and machine they came from.
    let mut body = made_line(rows).map_or_else(String::new, |line| {
        format!("<p>{}</p>", html::escape(&line.replace('`', "")))
    });
    body.push_str("<h2>Conditions</h2>");
    // Above the charts, which a scripted agent's time and context would otherwise
    // present as the surfaces'.
    let scripted = scripted_line(rows);
    if let Some(line) = &scripted {
        let _ = write!(
            body,
            "<p><strong>{}</strong></p>",
            html::escape(&line.replace('`', ""))
        );
    }
    body.push_str(&charts(
        &conditions,
        &by_condition,
        &[
            ("Success % per condition", &success),
            ("Context tokens per run (median, estimated)", &context),
            (
                "Attempts per run (median): the calls, then up to the attempts",
                &attempts,
            ),
            ("Wall time per run (median, s)", &time),
        ],
    ));
    body.push_str(&html_table(&conditions, false));
    for line in table_lines(rows)
        .into_iter()
        .filter(|l| Some(l) != scripted.as_ref())
    {
        let _ = write!(body, "<p>{}</p>", html::escape(&line.replace('`', "")));
    }
    if let Some((header, cells)) = rows.categories.table() {
        body.push_str(
            "<h2>Task categories</h2><p>Successful runs of the tasks in each category.</p>",
        );
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        body.push_str(&html::text_table(&header, &cells));
    }
    if let Some(used) = ToolsUsed::of(rows) {
        body.push_str(&used.section().html());
    }
    if let Some(verbs) = VerbsCalled::of(rows) {
        body.push_str(&verbs.section().html());
    }
    body.push_str("<h2>Tasks</h2>");
    body.push_str(&charts(
        &tasks,
        &by_task,
        &[
            ("Success % per task and condition", &success),
            (
                "Context tokens per task and condition (median, estimated)",
                &context,
            ),
            (
                "Attempts per task and condition (median): the calls, then up to the attempts",
                &attempts,
            ),
        ],
    ));
    body.push_str(&html_table(&tasks, true));
    // The page's tables give the part before the first call a column of its own, and
    // show no Markdown.
    let legend = legend()
        .replace(
            "the part before its first call in parentheses",
            "the part before its first call in a column of its own",
        )
        .replace('`', "");
    let _ = write!(body, "<p>{}</p>", html::escape(&legend));
    html::document(title, &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::report::{condition_table, rows, testing::*};
    use crate::study::result::RunResult;

    #[test]
    fn the_pages_legend_describes_its_own_tables_without_markdown() {
        let made = [result("mcp", "a", true, 3, 100)];
        let rows = rows(&made, &[]);
        let page = page(&rows, "study");
        let shown = page.rsplit("<p>").next().unwrap_or_default();
        assert!(
            shown.contains("before its first call in a column of its own"),
            "{shown}"
        );
        assert!(!shown.contains('`'), "{shown}");
        assert!(legend().contains("before its first call in parentheses"));
    }

    #[test]
    fn the_charts_show_the_medians_as_the_tables_print_them() {
        // Medians of 4552.5 context tokens, 2.5 calls, 0.6675 s.
        let run = |calls, tokens, wall_ms| RunResult {
            wall_ms,
            ..result("cli-compact", "settings-screenshot", true, calls, tokens)
        };
        let results = [run(2, 4552, 667.0), run(3, 4553, 668.0)];
        let rows = rows(&results, &[]);
        let row = &rows.conditions[0];
        assert_eq!(
            (row.context_tokens, row.calls, row.seconds),
            (Some(4552.5), Some(2.5), Some(0.6675))
        );
        let table = condition_table(&rows);
        assert!(
            table.contains("| 2.5 | 0 | – | – | 4552 (2276) |"),
            "{table}"
        );
        let page = page(&rows, "study");
        // Each chart's bar ends with the figure the table prints.
        for figure in [">4552</text>", ">2.5</text>", ">0.67</text>", ">100</text>"] {
            assert!(page.contains(figure), "{figure}\n{page}");
        }
        assert!(!page.contains("4552.5"), "{page}");
        // And its label whole, however long.
        assert!(
            page.contains(">settings-screenshot · cli-compact</text>"),
            "{page}"
        );
    }
}
