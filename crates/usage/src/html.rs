//! The report as one self-contained HTML page: inline CSS and SVG charts, no
//! script and nothing fetched, so it opens anywhere, offline, as a file.
//! [`bar_chart`], [`text_table`] and [`document`] are public so other reports (the
//! evaluation study, `mur-eval study --html`) draw the same way.

use std::fmt::Write as _;

use crate::report::{Report, Row};

/// Colours of the stacked segments, in order.
const COLOURS: [&str; 5] = ["#2e7d32", "#f9a825", "#c62828", "#6a1b9a", "#546e7a"];

/// One bar: a label and its stacked segments (`name`, value).
pub struct Bar {
    pub label: String,
    pub segments: Vec<(String, f64)>,
}

/// An SVG horizontal bar chart; segment names form the legend.
pub fn bar_chart(title: &str, bars: &[Bar]) -> String {
    let width = 640.0;
    let label_width = 180.0;
    let row = 22.0;
    let max = bars
        .iter()
        .map(|b| b.segments.iter().map(|s| s.1).sum::<f64>())
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    let height = row * bars.len() as f64 + 30.0;
    let mut svg = format!(
        "<figure><figcaption>{}</figcaption><svg role=\"img\" aria-label=\"{}\" width=\"{width}\" height=\"{height}\" xmlns=\"http://www.w3.org/2000/svg\">",
        escape(title),
        escape(title)
    );
    for (i, bar) in bars.iter().enumerate() {
        let y = row * i as f64;
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            label_width - 6.0,
            y + 15.0,
            escape(&bar.label)
        );
        let mut x = label_width;
        for (n, (name, value)) in bar.segments.iter().enumerate() {
            let w = value / max * (width - label_width - 60.0);
            if w > 0.0 {
                let _ = write!(
                    svg,
                    "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"16\" fill=\"{}\"><title>{}: {}</title></rect>",
                    y + 3.0,
                    COLOURS[n % COLOURS.len()],
                    escape(name),
                    crate::report::round2(*value)
                );
            }
            x += w;
        }
        let total: f64 = bar.segments.iter().map(|s| s.1).sum();
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{}\">{}</text>",
            x + 4.0,
            y + 15.0,
            // As every figure of a report is written: a sum of two rounded
            // figures is not itself one (20.5 + 11.31 is 31.810000000000002).
            crate::report::round2(total)
        );
    }
    svg.push_str("</svg>");
    if let Some(first) = bars.first() {
        svg.push_str("<p class=\"legend\">");
        for (n, (name, _)) in first.segments.iter().enumerate() {
            let _ = write!(
                svg,
                "<span style=\"color:{}\">■</span> {} ",
                COLOURS[n % COLOURS.len()],
                escape(name)
            );
        }
        svg.push_str("</p>");
    }
    svg.push_str("</figure>");
    svg
}

/// `text` safe inside HTML text and attribute values.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A table of text cells (escaped here): `headers`, then one row per entry of `rows`.
pub fn text_table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut html = String::from("<table><tr>");
    for header in headers {
        let _ = write!(html, "<th>{}</th>", escape(header));
    }
    html.push_str("</tr>");
    for row in rows {
        html.push_str("<tr>");
        for cell in row {
            let _ = write!(html, "<td>{}</td>", escape(cell));
        }
        html.push_str("</tr>");
    }
    html.push_str("</table>");
    html
}

/// A whole page: `title`, then `body` (already HTML).
pub fn document(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>\
body{{font:14px system-ui,sans-serif;margin:2em;max-width:60em}}\
table{{border-collapse:collapse}}td,th{{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}}\
td:first-child,th:first-child{{text-align:left}}svg text{{font:12px system-ui,sans-serif}}\
figcaption{{font-weight:bold;margin:1em 0 .3em}}code{{background:#f4f4f4}}</style></head><body>\
<h1>{}</h1>\n{body}\n</body></html>\n",
        escape(title),
        escape(title)
    )
}

fn outcome_bars(rows: &[Row]) -> Vec<Bar> {
    rows.iter()
        .map(|r| Bar {
            label: r.name.clone(),
            segments: vec![
                ("ok".to_owned(), r.ok as f64),
                ("usage errors".to_owned(), r.usage_errors as f64),
                ("tool failures".to_owned(), r.tool_failures as f64),
                ("plugin failures".to_owned(), r.plugin_failures as f64),
                ("other failures".to_owned(), r.other_failures as f64),
            ],
        })
        .collect()
}

fn latency_bars(rows: &[Row]) -> Vec<Bar> {
    rows.iter()
        .map(|r| Bar {
            label: r.name.clone(),
            segments: vec![
                ("p50 ms".to_owned(), r.p50_ms),
                (
                    "p90 − p50 ms".to_owned(),
                    crate::report::round2(r.p90_ms - r.p50_ms),
                ),
            ],
        })
        .collect()
}

fn table(rows: &[Row]) -> String {
    let mut html = String::from(
        "<table><tr><th>name</th><th>calls</th><th>ok</th><th>usage errors</th><th>tool failures</th><th>plugin failures</th><th>p50 ms</th><th>p90 ms</th><th>last used</th></tr>",
    );
    for r in rows {
        let _ = write!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&r.name),
            r.calls,
            r.ok,
            r.usage_errors,
            r.tool_failures,
            r.plugin_failures,
            r.p50_ms,
            r.p90_ms,
            escape(&r.last_used)
        );
    }
    html.push_str("</table>");
    html
}

/// The usage report as a page: per-verb charts, the tables, the losers.
pub fn page(report: &Report) -> String {
    let mut body = format!(
        "<p>{} records from {} to {}.</p>",
        report.records,
        escape(report.first.as_deref().unwrap_or("-")),
        escape(report.last.as_deref().unwrap_or("-"))
    );
    body.push_str("<h2>Verbs</h2>");
    body.push_str(&bar_chart(
        "Calls per verb, by outcome",
        &outcome_bars(&report.verbs),
    ));
    body.push_str(&bar_chart("Latency per verb", &latency_bars(&report.verbs)));
    body.push_str(&table(&report.verbs));
    body.push_str("<h2>Surfaces</h2>");
    body.push_str(&bar_chart(
        "Calls per surface, by outcome",
        &outcome_bars(&report.surfaces),
    ));
    body.push_str(&table(&report.surfaces));
    body.push_str("<h2>Tools</h2><h3>Called by mur</h3>");
    body.push_str(&table(&report.tools_cli));
    body.push_str("<h3>Served by the session</h3>");
    body.push_str(&table(&report.tools_served));
    let (refused, asked) = report.argv_rows();
    argv_section(
        &mut body,
        "Argv the verbs refused",
        "Usage errors by shape; WORD is a word that is not an option.",
        &["Argv", "Times", "Last"],
        &refused,
    );
    argv_section(
        &mut body,
        "Verbs asked for that do not exist",
        "Words typed where a verb goes that no verb, command or tool answers to, as typed; WORD is a word that is not an option; the nearest verb, when one is near, makes it a likely typo.",
        &["Argv", "Times", "Last", "Nearest verb"],
        &asked,
    );
    body.push_str("<h2>Losers</h2>");
    if report.losers.is_empty() {
        body.push_str("<p>None.</p>");
    } else {
        body.push_str("<ul class=\"losers\">");
        for loser in &report.losers {
            let _ = write!(
                body,
                "<li><b>{}</b>: {} <code>{}</code></li>",
                escape(&loser.verb),
                escape(&loser.reason),
                escape(&loser.command)
            );
        }
        body.push_str("</ul>");
    }
    if let Some(why) = report.unused_not_judged() {
        let _ = write!(body, "<p>{}.</p>", escape(&why));
    }
    document("mur usage report", &body)
}

/// A table of argv shapes' `rows` under a heading and a line saying what they are;
/// nothing when there are none.
fn argv_section(
    body: &mut String,
    heading: &str,
    what: &str,
    header: &[&str],
    rows: &[Vec<String>],
) {
    if rows.is_empty() {
        return;
    }
    let _ = write!(body, "<h2>{}</h2><p>{}</p>", escape(heading), escape(what));
    body.push_str(&text_table(header, rows));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bars_figures_are_written_to_hundredths() {
        let bars = [Bar {
            label: "bump".to_owned(),
            segments: vec![("p50".to_owned(), 20.5), ("p90".to_owned(), 11.31)],
        }];
        let svg = bar_chart("Latency", &bars);
        assert!(svg.contains(">31.81</text>"), "{svg}");
        assert!(!svg.contains("31.810000000000002"), "{svg}");
    }
}
