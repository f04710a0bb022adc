//! The report as one self-contained HTML page: inline CSS and SVG charts, no
//! script and nothing fetched, so it opens anywhere, offline, as a file.
//! [`bar_chart`], [`text_table`] and [`document`] are public so other reports (the
//! evaluation study, `mur-eval study --html`) draw the same way.

use std::fmt::Write as _;

use crate::report::{NO_TOOL_RAN, Report, Row};

/// Colours of the stacked segments, in order.
const COLOURS: [&str; 7] = [
    "#2e7d32", "#f9a825", "#c62828", "#ef6c00", "#6a1b9a", "#546e7a", "#bdbdbd",
];

/// One bar: a label and its stacked segments (`name`, value).
pub struct Bar {
    pub label: String,
    pub segments: Vec<(String, f64)>,
}

/// The room a label takes in the charts' 12 px sans-serif, generously: most
/// characters are narrower than 7 px, a capital than 9, a wide one (CJK) 12.
fn label_room(label: &str) -> f64 {
    shown(label)
        .chars()
        .map(|c| match c {
            c if c.is_ascii_uppercase() => 9.0,
            c if c.is_ascii() => 7.0,
            _ => 12.0,
        })
        .sum()
}

/// The width of a chart's bars at their longest, and of the figure after one.
const BARS: f64 = 400.0;
const FIGURE: f64 = 60.0;

/// An SVG horizontal bar chart; segment names form the legend. The label column
/// is as wide as the longest label (`settings-screenshot · cli-compact` whole, not
/// cut to a fixed width); a chart wider than the page is scaled down to it.
pub fn bar_chart(title: &str, bars: &[Bar]) -> String {
    let longest = bars
        .iter()
        .map(|b| label_room(&b.label))
        .fold(0.0, f64::max);
    let label_width = (longest + 12.0).max(60.0).ceil();
    let width = label_width + BARS + FIGURE;
    let row = 22.0;
    let max = bars
        .iter()
        .map(|b| b.segments.iter().map(|s| s.1).sum::<f64>())
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    let height = row * bars.len() as f64 + 30.0;
    let mut svg = format!(
        "<figure><figcaption>{}</figcaption><svg role=\"img\" aria-label=\"{}\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" xmlns=\"http://www.w3.org/2000/svg\">",
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
            let w = value / max * BARS;
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

/// `text` with its first letter in capitals: a heading made of a phrase the text form says
/// mid-line.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `text` safe inside HTML text and attribute values, and shown as it is: a
/// bidirectional formatting character (a right-to-left override in a tool's
/// name) is written as its escape, `\u{202e}`, as mur's terminal output writes
/// it, instead of reordering the rest of the cell.
pub fn escape(text: &str) -> String {
    let mut html = String::with_capacity(text.len());
    for c in shown(text).chars() {
        match c {
            '&' => html.push_str("&amp;"),
            '<' => html.push_str("&lt;"),
            '>' => html.push_str("&gt;"),
            '"' => html.push_str("&quot;"),
            c => html.push(c),
        }
    }
    html
}

/// `text` as the page shows it: each bidirectional formatting character written
/// as its escape (`\u{202e}`), as mur's terminal output writes it.
fn shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_bidi_control(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// Unicode's Bidi_Control characters, which reorder the text around them. The
/// same set as `mur_core::text::unprintable`'s (mur-usage, which a session embeds,
/// does not depend on mur-core): a test holds the two together.
fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// `text` escaped, its `quoted` spans as `<code>`, as the page writes a command.
fn code_spans(text: &str) -> String {
    let mut html = String::new();
    for (n, part) in text.split('`').enumerate() {
        match n % 2 {
            1 => {
                let _ = write!(html, "<code>{}</code>", escape(part));
            }
            _ => html.push_str(&escape(part)),
        }
    }
    html
}

/// A table of text cells (escaped here): `headers`, then one row per entry of `rows`,
/// in a box of its own that scrolls sideways when the table is wider than the window
/// ([`document`]'s `.wide`): its names are never squeezed to fit, nor the page widened.
pub fn text_table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut html = String::from("<div class=\"wide\"><table><tr>");
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
    html.push_str("</table></div>");
    html
}

/// A whole page: `title`, then `body` (already HTML). Text is kept to lines a reader
/// can follow (60em); a table takes the window's width, and one wider than that
/// scrolls in its box ([`text_table`]). No cell wraps: a name broken over lines, or
/// squeezed to a letter a line as a table shrinks its one breakable column to fit a
/// narrow body, is no name to read (a name is cut to 200 characters, so no row runs
/// on without end).
pub fn document(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>\
body{{font:14px system-ui,sans-serif;margin:2em}}p,ul{{max-width:60em}}.wide{{overflow-x:auto}}\
table{{border-collapse:collapse}}td,th{{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}}\
td:first-child,th:first-child{{text-align:left}}svg text{{font:12px system-ui,sans-serif}}\
svg{{max-width:100%;height:auto}}\
figcaption{{font-weight:bold;margin:1em 0 .3em}}code{{background:#f4f4f4}}</style></head><body>\
<h1>{}</h1>\n{body}\n</body></html>\n",
        escape(title),
        escape(title)
    )
}

/// A row's name as the table prints it: with its kind, when it has one
/// (`click (plugin)` and `click (derived)` are two verbs).
fn label(r: &Row) -> String {
    match r.kind {
        Some(kind) => format!("{} ({})", r.name, kind.as_str()),
        None => r.name.clone(),
    }
}

fn outcome_bars(rows: &[Row]) -> Vec<Bar> {
    rows.iter()
        .map(|r| Bar {
            label: label(r),
            segments: vec![
                ("ok".to_owned(), r.ok as f64),
                ("usage errors".to_owned(), r.usage_errors as f64),
                ("tool failures".to_owned(), r.tool_failures as f64),
                ("rpc errors".to_owned(), r.rpc_errors as f64),
                ("plugin failures".to_owned(), r.plugin_failures as f64),
                ("other failures".to_owned(), r.other_failures as f64),
                ("interrupted".to_owned(), r.interrupted as f64),
            ],
        })
        .collect()
}

/// The bars of the rows with a latency: one with no call that reached its tool and
/// ended has none (its table's cells say `–`), and a bar `0` read as an instant answer.
fn latency_bars(rows: &[Row]) -> Vec<Bar> {
    rows.iter()
        .filter(|r| r.timed())
        .map(|r| Bar {
            label: label(r),
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

/// The rows as the table for people has them: every count, the other failures too,
/// and the kind of each verb in a column of its own.
fn table(rows: &[Row]) -> String {
    let with_kind = rows.iter().any(|r| r.kind.is_some());
    let mut headers = vec!["name"];
    if with_kind {
        headers.push("kind");
    }
    headers.extend([
        "calls",
        "ok",
        "usage errors",
        "tool failures",
        "rpc errors",
        "plugin failures",
        "other failures",
        "interrupted",
        "p50 ms",
        "p90 ms",
        "last used",
    ]);
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut cells = vec![r.name.clone()];
            if with_kind {
                cells.push(r.kind.map_or("", |k| k.as_str()).to_owned());
            }
            cells.extend(r.figures());
            cells
        })
        .collect();
    text_table(&headers, &cells)
}

/// How the report was made: whose calls, over which window, and what makes a
/// loser, so a saved page of one agent never reads as every agent's.
fn criteria(report: &Report) -> String {
    let agent = match &report.agent {
        Some(agent) => format!("agent <code>{}</code>", escape(agent)),
        None => "every agent".to_owned(),
    };
    let mut window = match &report.since {
        Some(since) => format!("since {}", escape(since)),
        None => "the whole log".to_owned(),
    };
    if let Some(until) = &report.until {
        let _ = write!(window, " up to {}", escape(until));
    }
    // Where the logs named end, as it ends without `--until` when they are read alone.
    if let Some(end) = report.ends_at_named_last() {
        let _ = write!(window, " ({})", code_spans(&end));
    }
    // Over the logs named alone, as a loser's verdict says it: their span is no window
    // "since" a time, the calls after their last record were never read.
    let unused = match (&report.unused_in_named, &report.unused_since) {
        (Some((first, last)), _) => format!(
            "no call in the logs named ({} to {})",
            escape(first),
            escape(last)
        ),
        // Earlier than the window above when recording was off in it: said why here.
        (None, Some(since)) if report.recording_was_off().is_some() => format!(
            "no call since {} (the window begun as much earlier as recording was off in it)",
            escape(since)
        ),
        (None, Some(since)) => format!("no call since {}", escape(since)),
        (None, None) => "no call in the log".to_owned(),
    };
    let mut html = format!(
        "<ul class=\"criteria\"><li>Calls of: {agent}.</li><li>Window: {window}.</li>\
         <li>Losers: installed named verbs with {unused}, or whose usage errors exceed \
         {}%, or failures of their own (exit 6) {}%, of at least {} calls of the version \
         installed.</li>",
        crate::report::round2(report.rule.max_usage_error_rate * 100.0),
        crate::report::round2(report.rule.max_plugin_failure_rate * 100.0),
        report.rule.min_calls
    );
    if let Some(left_out) = report.server_records_not_counted() {
        let _ = write!(html, "<li>{}.</li>", code_spans(&left_out));
    }
    if let Some(left_out) = report.forwarded_not_counted() {
        let _ = write!(html, "<li>{}.</li>", code_spans(&left_out));
    }
    if report.skipped_lines > 0 {
        let _ = write!(
            html,
            "<li>{} line(s) of the usage logs are not records and were skipped.</li>",
            report.skipped_lines
        );
    }
    html.push_str(&logs_read(report));
    html.push_str("</ul>");
    html
}

/// Every log the report read, whole: a published page names its inputs.
fn logs_read(report: &Report) -> String {
    let logs = &report.logs_read;
    let paths = |paths: &[String]| {
        let each: Vec<String> = paths
            .iter()
            .map(|p| format!("<code>{}</code>", escape(p)))
            .collect();
        each.join(", ")
    };
    let mut html = String::new();
    if logs.only_named {
        html.push_str(
            "<li>Only the logs given with <code>--server-log</code> were read \
             (<code>--only-named</code>): not mur's own usage log, nor the sessions' found \
             beside it.</li>",
        );
    }
    // Its rotated files too, by their names: most of a long log's records are in them.
    let own: Vec<String> = (logs.mur.iter())
        .chain(&logs.mur_rotated)
        .cloned()
        .collect();
    match (logs.mur.is_some(), logs.mur_rotated.len()) {
        (_, 0) if own.is_empty() => {}
        (true, 0) => {
            let _ = write!(html, "<li>mur's usage log: {}.</li>", paths(&own));
        }
        (true, _) => {
            let _ = write!(
                html,
                "<li>mur's usage log: {}, and its rotated files: {}.</li>",
                paths(&own[..1]),
                paths(&own[1..])
            );
        }
        (false, _) => {
            let _ = write!(
                html,
                "<li>mur's usage log, its rotated files: {}.</li>",
                paths(&own)
            );
        }
    }
    for (what, list) in [
        ("The sessions' usage logs found", &logs.sessions),
        (
            "The logs given with <code>--server-log</code>",
            &logs.server_logs,
        ),
    ] {
        if !list.is_empty() {
            let _ = write!(html, "<li>{what} ({}): {}.</li>", list.len(), paths(list));
        }
    }
    html
}

/// The usage report as a page: per-verb charts, the tables, the losers.
pub fn page(report: &Report) -> String {
    let mut body = match report.no_record() {
        Some(mut none) => {
            none[..1].make_ascii_uppercase();
            format!("<p>{}.</p>", code_spans(&none))
        }
        None => format!(
            "<p>{} from {} to {}.</p>",
            report.records_counted(),
            escape(report.first.as_deref().unwrap_or("-")),
            escape(report.last.as_deref().unwrap_or("-"))
        ),
    };
    body.push_str(&criteria(report));
    body.push_str("<h2>Verbs</h2>");
    body.push_str(&bar_chart(
        "Calls per verb, by outcome",
        &outcome_bars(&report.verbs),
    ));
    body.push_str(&bar_chart("Latency per verb", &latency_bars(&report.verbs)));
    body.push_str(&table(&report.verbs));
    body.push_str("<h2>Surfaces</h2>");
    // In two groups, the sessions' (the comparison) first: never interleaved with mur's
    // rows by verb kind, which count the same calls again (review 608 #10).
    for (title, rows) in report.surface_groups() {
        body.push_str(&format!("<h3>{}</h3>", escape(&capitalized(title))));
        body.push_str(&bar_chart(
            "Calls per surface, by outcome",
            &outcome_bars(&rows),
        ));
        body.push_str(&table(&rows));
    }
    if let Some(sides) = report.sides_explained() {
        body.push_str(&format!("<p>{}.</p>", code_spans(&capitalized(&sides))));
    }
    body.push_str("<h2>Tools</h2><h3>Called by mur</h3>");
    body.push_str(&table(&report.tools_cli));
    body.push_str("<h3>Served by the session</h3>");
    body.push_str(&table(&report.tools_served));
    if let Some(unknown) = report.unknown_tools_explained() {
        body.push_str(&format!("<p>{}.</p>", code_spans(unknown)));
    }
    if !report.clients_served.is_empty() {
        body.push_str("<h3>Clients the sessions served</h3>");
        body.push_str(&table(&report.clients_served));
    }
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
    if let Some(tools) = report.tools_no_named_verb_reached() {
        let _ = write!(
            body,
            "<h2>Tools no named verb reached</h2><p>{}</p>",
            escape(&tools.join(", "))
        );
    }
    if !report.verbs_no_tool_ran.is_empty() {
        let mut why = NO_TOOL_RAN.to_owned();
        why[..1].make_ascii_uppercase();
        let _ = write!(
            body,
            "<h2>Named verbs no tool ran for</h2><p>{}.</p>",
            code_spans(&why)
        );
        let rows = report.no_tool_ran_rows();
        body.push_str(&text_table(
            &["Verb", "Tool", "Calls", "Sessions", "Last"],
            &rows,
        ));
    }
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
                escape(&loser.reason.to_string()),
                escape(&loser.command)
            );
        }
        body.push_str("</ul>");
    }
    for said in report.beside_losers() {
        let _ = write!(body, "<p>{}.</p>", escape(&said));
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
    use crate::report::{Criteria, report};
    use crate::{Kind, Outcome, Record, Side, Surface};

    /// The page escapes what mur's terminal output escapes, control characters aside
    /// (a page shows them as nothing).
    #[test]
    fn the_bidi_set_is_mur_cores() {
        for c in (0..0x3_0000)
            .filter_map(char::from_u32)
            .filter(|c| !c.is_control())
        {
            assert_eq!(
                is_bidi_control(c),
                mur_core::text::unprintable(c),
                "U+{:04X}",
                u32::from(c)
            );
        }
    }

    /// A label is as wide as it is drawn, its escapes included.
    #[test]
    fn a_label_is_measured_as_shown() {
        assert_eq!(label_room("a\u{202e}b"), label_room("a\\u{202e}b"));
    }

    #[test]
    fn text_is_escaped_and_a_bidirectional_override_shown_not_obeyed() {
        assert_eq!(
            escape("<a href=\"x\">&</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
        assert_eq!(escape("list\u{202e}txt.exe"), "list\\u{202e}txt.exe");
        assert_eq!(escape("שלום"), "שלום");
    }

    fn cli(verb: &str, kind: Kind, tool: &str, outcome: Outcome) -> Record {
        let mut r = Record::new(Side::Cli, Surface::Cli, outcome, 1.0);
        r.verb = Some(verb.to_owned());
        r.kind = Some(kind);
        r.tool = Some(tool.to_owned());
        r.agent = Some("claude".to_owned());
        r
    }

    /// The page shows the surfaces in the text form's two groups, each its heading, chart
    /// and table: the sessions' (`server/cli` against `server/mcp`) first, then mur's by
    /// verb kind, which count the same calls again (review 608 #10).
    #[test]
    fn the_page_groups_the_surfaces_the_sessions_first() {
        let served = |surface| Record::new(Side::Server, surface, Outcome::Ok, 1.0);
        let mut records = vec![cli("click", Kind::Plugin, "click", Outcome::Ok); 3];
        records.extend([served(Surface::Cli), served(Surface::Mcp)]);
        let page = page(&report(&records, 0, &Criteria::default()));
        let at = |text: &str| page.find(text).unwrap_or_else(|| panic!("{text}: {page}"));
        let [by_session, by_mur] = [
            at("<h3>As the sessions served them (one row per surface)</h3>"),
            at("<h3>As mur ran them (by verb kind)</h3>"),
        ];
        let rows = |from: usize, to: usize| {
            // A row's cell, not the note under the groups that names them.
            [
                "<td>server/cli</td>",
                "<td>server/mcp</td>",
                "<td>cli/plugin</td>",
            ]
            .map(|name| page[from..to].contains(name))
        };
        assert!(by_session < by_mur, "{page}");
        assert_eq!(rows(by_session, by_mur), [true, true, false]);
        assert_eq!(rows(by_mur, at("<h2>Tools</h2>")), [false, false, true]);
    }

    /// The plugin verb `name`, of the tool of its name, installed.
    fn plugin(name: &str) -> crate::Installed {
        crate::Installed {
            name: name.to_owned(),
            kind: Kind::Plugin,
            tool: name.to_owned(),
            sha256: None,
            added_at: None,
        }
    }

    /// A named verb every call of which the session answered with a JSON-RPC error has
    /// a table of its own, saying why it is no loser (only its row's rpc errors said it).
    #[test]
    fn the_page_names_the_verbs_no_tool_ran_for() {
        let mut r = cli("pick", Kind::Plugin, "pick", Outcome::RpcError);
        r.time = "2026-11-20T10:00:00.000Z".to_owned();
        let criteria = Criteria {
            installed: vec![plugin("pick")],
            ..Criteria::default()
        };
        let page = page(&report(&[r], 0, &criteria));
        assert_eq!(
            table_after(&page, "<h2>Named verbs no tool ran for</h2>"),
            [
                "Verb Tool Calls Sessions Last",
                "pick (plugin) pick 1 1 2026-11-20T10:00:00.000Z"
            ],
            "{page}"
        );
        assert!(
            page.contains(
                "<h2>Named verbs no tool ran for</h2><p>Every call of theirs the session \
                 answered was a JSON-RPC error: no tool ran, most often as the session has no \
                 tool of that name (a verb for another app, or a tool renamed; \
                 <code>mur devtools catalog</code> on the session lists its tools); not \
                 losers.</p>"
            ),
            "{page}"
        );
    }

    /// The calls of a name its record did not keep (`WORD`) are the row `(not a known
    /// tool)`, said under the tools tables (it was a row `WORD`, read as a tool's).
    #[test]
    fn the_page_names_the_calls_of_no_known_tool_for_what_they_are() {
        let mut r = cli("call", Kind::Call, crate::NOT_A_NAME, Outcome::RpcError);
        r.time = "2026-11-20T10:00:00.000Z".to_owned();
        let page = page(&report(&[r], 0, &Criteria::default()));
        assert_eq!(
            table_after(&page, "<h3>Called by mur</h3>")[1],
            "(not a known tool) 1 0 0 0 1 0 0 0 1 1 2026-11-20T10:00:00.000Z",
            "{page}"
        );
        assert!(
            page.contains(
                "<p><code>(not a known tool)</code> counts the calls of names no tool of the \
                 session has and none could be named (a value typed or sent where a tool's \
                 name goes), which a record never keeps; a name shaped like a tool's is a row \
                 of its own even when no tool has it.</p>"
            ),
            "{page}"
        );
        assert!(!page.contains("<td>WORD</td>"), "{page}");
    }

    /// A word of 120,000 characters asked for as a verb: its cell is cut, and its table
    /// scrolls in a box of its own, so neither widens the page past its screen (the
    /// first column wrapped, and so was squeezed to a letter a line: audit 57 #4).
    #[test]
    fn a_long_word_is_cut_and_the_page_wraps() {
        let mut r = cli(
            &"a".repeat(120_000),
            Kind::Unknown,
            "x",
            Outcome::UsageError,
        );
        r.argv = Some(crate::record::argv_shape(&[], |_| false, false));
        let report = crate::report(&[r], 0, &crate::Criteria::default());
        let page = page(&report);
        assert!(page.len() < 20_000, "{} bytes", page.len());
        let cut = format!("{}…", "a".repeat(crate::refused::ARGV_CELL_CHARS - 1));
        assert!(page.contains(&format!("<td>{cut}</td>")), "{page}");
        assert!(
            page.contains("<div class=\"wide\"><table><tr><th>Argv</th>")
                && page.contains(".wide{overflow-x:auto}"),
            "{page}"
        );
    }

    /// The rows of the first table after `heading`, each as its cells' text.
    fn table_after(page: &str, heading: &str) -> Vec<String> {
        let at = page.find(heading).expect(heading);
        let table = &page[at..];
        let table = &table[table.find("<table>").expect("a table")..];
        let table = &table[..table.find("</table>").expect("its end")];
        table
            .replace("</th>", "</td>")
            .split("<tr>")
            .skip(1)
            .map(|row| {
                let cells = row.split("</td>").filter_map(|c| c.rsplit('>').next());
                cells
                    .filter(|c| !c.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .filter(|row| !row.is_empty())
            .collect()
    }

    #[test]
    fn the_page_says_what_the_table_says() {
        let records = [
            // Exit 2: no session. An other failure, counted as the table counts it.
            cli("state", Kind::Plugin, "state", Outcome::SessionError),
            cli("click", Kind::Plugin, "click", Outcome::Ok),
            cli("click", Kind::Derived, "click", Outcome::Ok),
            cli("click", Kind::Derived, "click", Outcome::Ok),
            cli("call", Kind::Call, "fire", Outcome::Ok),
            // Ctrl-C during the call: its own column, no failure, no latency.
            {
                let mut r = cli("wait", Kind::Plugin, "waitFor", Outcome::Interrupted);
                r.phases = Some(crate::record::Phases {
                    call: Some(1.0),
                    ..crate::record::Phases::default()
                });
                r
            },
            // No such tool: an rpc error, as the record says, no tool that failed.
            cli("call", Kind::Call, "getText", Outcome::RpcError),
        ];
        // A named verb installed: without one, no tool is listed as no named verb's.
        let criteria = Criteria {
            installed: vec![plugin("state")],
            ..Criteria::default()
        };
        let page = page(&report(&records, 0, &criteria));
        let verbs = table_after(&page, "<h2>Verbs</h2>");
        let cells = |row: &str| row.rsplit_once(' ').map_or(row, |(r, _last)| r).to_owned();
        assert_eq!(
            verbs.iter().skip(1).map(|r| cells(r)).collect::<Vec<_>>(),
            [
                "call call 2 1 0 0 1 0 0 0 1 1",
                "click derived 2 2 0 0 0 0 0 0 1 1",
                "click plugin 1 1 0 0 0 0 0 0 1 1",
                // No session: the tool was not reached, no latency of it (`–`: a `0`
                // read as an instant answer, audit 57 #14).
                "state plugin 1 0 0 0 0 0 1 0 – –",
                "wait plugin 1 0 0 0 0 0 0 1 – –",
            ],
            "{page}"
        );
        assert!(
            page.contains("<th>tool failures</th><th>rpc errors</th><th>plugin failures</th>")
                && page.contains("<th>other failures</th><th>interrupted</th>")
                && page.contains("<th>kind</th>"),
            "{page}"
        );
        assert!(page.contains("<title>rpc errors: 1</title>"), "{page}");
        assert_eq!(
            table_after(&page, "<h3>Called by mur</h3>")
                .iter()
                .find(|row| row.starts_with("getText "))
                .map(|row| cells(row)),
            Some("getText 1 0 0 0 1 0 0 0 1 1".to_owned()),
            "{page}"
        );
        // Two verbs, two bars, told apart; a verb with no latency has no bar of it.
        for (label, bars) in [
            ("click (plugin)", 2),
            ("click (derived)", 2),
            ("state (plugin)", 1),
        ] {
            assert_eq!(
                page.matches(&format!(">{label}</text>")).count(),
                bars,
                "{label}: a bar in each chart of the verbs it has a figure in\n{page}"
            );
        }
        // Surfaces and tools have no kind: no column for one.
        assert!(table_after(&page, "<h2>Surfaces</h2>")[0].starts_with("name calls ok"));
        assert!(
            page.contains("<h2>Tools no named verb reached</h2><p>fire, state</p>"),
            "{page}"
        );
    }

    /// With no named verb installed (someone who only bridges stdio servers) every
    /// tool is one no named verb reached: the page leaves the list out, as the table
    /// does; the JSON keeps it.
    #[test]
    fn with_no_named_verb_installed_the_page_lists_no_tools_none_reached() {
        let mut served = Record::new(Side::Server, Surface::Mcp, Outcome::Ok, 1.0);
        served.tool = Some("echo".to_owned());
        let report = report(&[served], 0, &Criteria::default());
        assert_eq!(report.tools_without_named_calls, ["echo"]);
        assert_eq!(report.tools_no_named_verb_reached(), None);
        let page = page(&report);
        assert!(!page.contains("no named verb reached"), "{page}");
    }

    #[test]
    fn the_page_and_the_json_say_how_the_report_was_made() {
        let records = [cli("click", Kind::Plugin, "click", Outcome::Ok)];
        let since = crate::Since("2026-01-01T00:00:00.000Z".to_owned());
        let criteria = Criteria {
            agent: Some("claude".to_owned()),
            since: Some(since),
            rule: crate::LoserRule {
                max_usage_error_rate: 0.3,
                ..crate::LoserRule::default()
            },
            ..Criteria::default()
        };
        let report = report(&records, 2, &criteria);
        let page = page(&report);
        for said in [
            "<li>Calls of: agent <code>claude</code>.</li>",
            "<li>Window: since 2026-01-01T00:00:00.000Z.</li>",
            "no call since 2026-01-01T00:00:00.000Z, or whose usage errors exceed 30%, or \
             failures of their own (exit 6) 20%, of at least 3 calls",
            "<li>2 line(s) of the usage logs are not records and were skipped.</li>",
        ] {
            assert!(page.contains(said), "{said}\n{page}");
        }
        let json = serde_json::to_value(&report).expect("json");
        assert_eq!(
            (
                &json["agent"],
                &json["since"],
                &json["maxUsageErrorRate"],
                &json["maxPluginFailureRate"],
                &json["minCalls"]
            ),
            (
                &serde_json::json!("claude"),
                &serde_json::json!("2026-01-01T00:00:00.000Z"),
                &serde_json::json!(0.3),
                &serde_json::json!(0.2),
                &serde_json::json!(3)
            )
        );
        // Every log read, whole: a published page names its inputs.
        let mut report = report;
        report.logs_read = crate::LogsRead {
            mur: Some("/s/mur/usage/usage.jsonl".to_owned()),
            sessions: vec!["/s/mur/usage/sessions/ab.jsonl".to_owned()],
            server_logs: vec![
                "/runs/1/calls.jsonl".to_owned(),
                "/runs/2/c<.jsonl".to_owned(),
            ],
            only_named: false,
            mur_rotated: Vec::new(),
        };
        let page = super::page(&report);
        assert!(
            page.contains(
                "<li>mur's usage log: <code>/s/mur/usage/usage.jsonl</code>.</li>\
                 <li>The sessions' usage logs found (1): <code>/s/mur/usage/sessions/ab.jsonl</code>.</li>\
                 <li>The logs given with <code>--server-log</code> (2): \
                 <code>/runs/1/calls.jsonl</code>, <code>/runs/2/c&lt;.jsonl</code>.</li></ul>"
            ),
            "{page}"
        );
        let json = serde_json::to_value(&report).expect("json");
        assert_eq!(
            json["logsRead"],
            serde_json::json!({
                "mur": "/s/mur/usage/usage.jsonl",
                "sessions": ["/s/mur/usage/sessions/ab.jsonl"],
                "serverLogs": ["/runs/1/calls.jsonl", "/runs/2/c<.jsonl"],
                "onlyNamed": false,
            })
        );
        // Its rotated files too, by name; and right after a rotation, no live file named
        // (review 407 #6).
        report.logs_read = crate::LogsRead {
            mur: Some("/s/usage.jsonl".to_owned()),
            mur_rotated: vec!["/s/usage.jsonl.2".to_owned(), "/s/usage.jsonl.1".to_owned()],
            ..crate::LogsRead::default()
        };
        assert!(
            super::page(&report).contains(
                "<li>mur's usage log: <code>/s/usage.jsonl</code>, and its rotated files: \
                 <code>/s/usage.jsonl.2</code>, <code>/s/usage.jsonl.1</code>.</li>"
            ),
            "{page}"
        );
        let json = serde_json::to_value(&report).expect("json");
        assert_eq!(
            json["logsRead"]["murRotated"],
            serde_json::json!(["/s/usage.jsonl.2", "/s/usage.jsonl.1"])
        );
        report.logs_read.mur = None;
        assert!(
            super::page(&report).contains(
                "<li>mur's usage log, its rotated files: <code>/s/usage.jsonl.2</code>, \
                 <code>/s/usage.jsonl.1</code>.</li>"
            ),
            "{page}"
        );
        // Of every agent, over the whole log.
        let every = report_of_all(&records);
        assert!(
            every.contains("<li>Calls of: every agent.</li><li>Window: the whole log.</li>"),
            "{every}"
        );
    }

    /// Over the logs named alone (`--only-named`), a window begun before their first
    /// record is judged over their span: the page says so as a loser's verdict does
    /// ("in the logs named"), not "no call since" their first record, which read as
    /// a window up to now (the calls after their last were never read).
    #[test]
    fn the_page_judges_the_logs_named_alone_over_their_span_as_the_verdict_says() {
        let mut call = cli("click", Kind::Plugin, "click", Outcome::Ok);
        call.time = "2026-11-20T10:01:00.000Z".to_owned();
        let mut last = call.clone();
        last.time = "2026-11-20T10:04:00.000Z".to_owned();
        let criteria = Criteria {
            installed: vec![plugin("idle")],
            unused_since: Some(crate::Since("2026-11-01T00:00:00.000Z".to_owned())),
            until: Some(last.time.clone()),
            logs_read: crate::LogsRead {
                only_named: true,
                ..crate::LogsRead::default()
            },
            ..Criteria::default()
        };
        let report = report(&[call, last], 0, &criteria);
        let span = "in the logs named (2026-11-20T10:01:00.000Z to 2026-11-20T10:04:00.000Z)";
        assert_eq!(
            report.losers[0].reason.to_string(),
            format!("never used {span}")
        );
        let page = page(&report);
        assert!(
            page.contains(&format!(
                "<li>Losers: installed named verbs with no call {span}, or"
            )),
            "{page}"
        );
        assert!(!page.contains("no call since"), "{page}");
        // Its window ends at their last record, as without `--until`: said so.
        assert!(
            page.contains(
                "<li>Window: the whole log up to 2026-11-20T10:04:00.000Z (the logs named end \
                 at 2026-11-20T10:04:00.000Z: the window ends there; <code>--until</code> sets \
                 another end).</li>"
            ),
            "{page}"
        );
    }

    #[test]
    fn the_page_says_what_agent_leaves_out() {
        let mut served = Record::new(Side::Server, Surface::Mcp, Outcome::Ok, 1.0);
        served.tool = Some("click".to_owned());
        let records = [
            cli("click", Kind::Plugin, "click", Outcome::Ok),
            served.clone(),
            served,
        ];
        let criteria = Criteria {
            agent: Some("claude".to_owned()),
            ..Criteria::default()
        };
        let said = "<li><code>--agent</code> leaves out the sessions' 2 record(s): \
                    a session's record names no agent.</li>";
        let page = page(&report(&records, 0, &criteria));
        assert!(page.contains(said), "{said}\n{page}");
        // Of every agent, nothing is left out, and the page says nothing of it.
        let every = report_of_all(&records);
        assert!(!every.contains("leaves out"), "{every}");
    }

    fn report_of_all(records: &[Record]) -> String {
        page(&report(records, 0, &Criteria::default()))
    }

    #[test]
    fn the_label_column_holds_the_longest_label() {
        let bar = |label: &str| Bar {
            label: label.to_owned(),
            segments: vec![("calls".to_owned(), 4.0)],
        };
        let long = "settings-screenshot · cli-compact";
        let svg = bar_chart("Calls", &[bar("a"), bar(long)]);
        // Each label ends at the column's edge, right-aligned: its x is the room it has.
        let [x] = mur_testkit::text_x(&svg, long)[..] else {
            panic!("the label, whole, once: {svg}");
        };
        assert!(x >= label_room(long), "{x} < {}: {svg}", label_room(long));
        // Taken from the longest label, not fixed: 180 px cut this one off.
        assert!(x > 180.0, "{svg}");
        // A short label leaves a narrow column, and the chart its bars' width.
        let short = bar_chart("Calls", &[bar("a")]);
        assert!(short.contains("width=\"520\""), "{short}");
    }

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
