//! `mur devtools usage report|on|off|path`: usage recording switched on and off,
//! and the usage logs read into the operator's report.

use std::path::{Path, PathBuf};

use mur_core::{Error, Result, Settings};
use mur_usage::{PageOnTerminal, PageTarget, Reached, Report, Row, UsageDir};
use mur_verbs::VerbHost;

use crate::cli::{ReportArgs, UsageCommand};
use crate::judging::{
    Read, criteria, not_covered_notice, one_line_each, only_verbs_notice, read, skipped_notice,
    usage_dir,
};
use crate::output;

/// Runs a `usage` command; the `--timeout` of `settings` bounds how long `--html` waits
/// for a FIFO's reader that takes nothing.
pub fn run(cmd: &UsageCommand, settings: &Settings) -> Result<()> {
    let dir = usage_dir()?;
    match cmd {
        UsageCommand::Report(args) => {
            let page = (args.html.as_deref())
                .map(|path| PageOut::resolve(path, args.json))
                .transpose()?;
            report(&dir, args, page.as_ref(), settings)
        }
        UsageCommand::On { with_values } => switch(&dir, true, *with_values),
        UsageCommand::Off => switch(&dir, false, false),
        UsageCommand::Path => {
            if !dir.enabled() {
                output::diagnostic("usage recording is off (`mur devtools usage on` turns it on)");
            }
            output::stdout(format!("{}\n", dir.log().path().display()).as_bytes())
        }
    }
}

fn switch(dir: &UsageDir, on: bool, with_values: bool) -> Result<()> {
    dir.switch(on, with_values).map_err(crate::usage::error)?;
    let state = match (on, with_values) {
        // mur's switch is mur's: a session that records (`--usage`, `bridge --usage`)
        // goes on recording the calls it serves, mur's among them (audit 57 #11).
        (false, _) => "usage recording is off: mur records no call until `usage on`; \
                       a session that records usage still records the calls it serves, \
                       mur's among them"
            .to_owned(),
        (true, false) => format!("usage is recorded to `{}`", dir.log().path().display()),
        (true, true) => format!(
            "usage is recorded to `{}`, argument values included",
            dir.log().path().display()
        ),
    };
    output::diagnostic(&state);
    Ok(())
}

/// Where `--html` writes the report's page, resolved from the path typed before any log
/// is read, as `call --out` resolves its path (`media::target`): the command takes this,
/// never the raw path, so a page that could not be written is said in the user's terms
/// (exit 1), not the OS's after the logs were read (exit 7).
enum PageOut {
    /// `-`, or a name that is mur's own stdout (`/dev/stdout`), as `--out` takes it: the
    /// page is then the output.
    Stdout,
    /// A name a file can be written at ([`mur_lockfile::check_named`]).
    File(PathBuf),
}

impl PageOut {
    /// `--html PATH`, refused when it cannot hold the page: stdout that `--json` prints on
    /// too, or a terminal; or a name no file can be written at.
    fn resolve(path: &Path, json: bool) -> Result<Self> {
        match mur_usage::page_target(path.to_owned()) {
            PageTarget::File(path) => {
                // In the words `call --out` and a verb's `--out` use
                // (`mur_verbs::writable_before_the_call`), but for "nothing was sent": a
                // report sends nothing.
                mur_lockfile::check_named(&path).map_err(|e| {
                    Error::usage(format!("cannot write `{}`: {e}", path.display()))
                        .with_hint("name a file that can be written, in a directory that exists")
                })?;
                Ok(Self::File(path))
            }
            // Said before a terminal is: `--json` makes the page no output of its own.
            PageTarget::Stdout if json => {
                Err(Error::usage("`--json` and `--html -` both print on stdout")
                    .with_hint("write the page to a file (`--html report.html`), or drop one"))
            }
            PageTarget::Stdout => {
                PageOnTerminal::refuse_if(output::stdout_is_terminal())
                    .map_err(|e| Error::usage(e.to_string()).with_hint(e.hint("usage.html")))?;
                Ok(Self::Stdout)
            }
        }
    }

    /// The file it names, if it is one.
    fn file(&self) -> Option<&Path> {
        match self {
            Self::File(path) => Some(path),
            Self::Stdout => None,
        }
    }
}

/// The report: a table for people, one JSON object with `--json` (indented with
/// `--pretty`, as every JSON mur prints), and the page where `page` says. Its notes on
/// stderr are left out under `-q`, as every command's are; its warnings stay.
fn report(
    dir: &UsageDir,
    args: &ReportArgs,
    page: Option<&PageOut>,
    settings: &Settings,
) -> Result<()> {
    let (pretty, patience, quiet) = (settings.pretty, settings.timeout, settings.quiet);
    let verbs = VerbHost::open()?;
    let judged_by = &args.judging;
    let (records, skipped, read) = read(dir, judged_by)?;
    only_verbs_notice(judged_by, verbs.entries());
    let criteria = criteria(judged_by, args.since, dir, &records, &read, verbs.entries());
    let mut report = mur_usage::report(&records, skipped, &criteria);
    // One slip of tab-completion would replace the records with their page: a file
    // the report read (mur's own log, a `--server-log`, a session's) is refused.
    let page_file = page.and_then(PageOut::file);
    if let Some((path, log)) = page_file.and_then(|path| Some((path, read.files.read_as(path)?))) {
        return Err(Error::usage(format!(
            "`--html {}`: that is the usage log `{}`, which this report reads; \
             the page would replace its records",
            path.display(),
            log.display()
        ))
        .with_hint("write the page to another file (`--html usage.html`)"));
    }
    if !dir.enabled() && !judged_by.only_named {
        output::notice("usage recording is off: this report covers what was recorded before");
    }
    skipped_notice(&report, &read.skipped_in);
    // Who installed no named verb (a user of bridged stdio servers) has none to judge
    // unused: that the log is too young to judge one is no news to them.
    let judging = !criteria.installed.is_empty();
    not_covered_notice(&report, criteria.agent.as_deref(), judging, true, quiet);
    if let Some(left_out) = report.server_records_not_counted() {
        output::notice(&left_out);
    }
    if let Some(left_out) = report.forwarded_not_counted().filter(|_| !quiet) {
        output::diagnostic(&format!("note: {left_out}"));
    }
    // Near what mur said it was near when it was typed: the installed verbs, mur's own
    // commands, and the session's verbs, as far as the logs show them (a team with no
    // named verb has no other). Measured here: mur-usage, which a session embeds, has
    // neither mur-core's measure nor mur-verbs' names of a session's tools.
    let words: Vec<String> = (criteria.installed.iter().map(|v| v.name.clone()))
        .chain(criteria.known_words.iter().cloned())
        .chain(sessions_verbs(&report.reached))
        .collect();
    for asked in &mut report.unknown_verbs {
        asked.nearest = mur_core::nearest(&asked.verb, &words).cloned();
    }
    match page {
        Some(PageOut::Stdout) => return output::stdout(mur_usage::html::page(&report).as_bytes()),
        Some(PageOut::File(path)) => {
            let page = mur_usage::html::page(&report);
            mur_lockfile::write_named(path, page.as_bytes(), patience)
                .map_err(|e| Error::internal(format!("cannot write `{}`: {e}", path.display())))?;
        }
        None => {}
    }
    if args.json {
        let value = serde_json::to_value(&report)
            .map_err(|e| Error::internal(format!("cannot render the report: {e}")))?;
        return output::json(&value, pretty);
    }
    // Record text (a server's tool name) is escaped as a help's is: the report's
    // lines and tabs stay, no ESC or CR reaches the terminal.
    output::text(&text(&report, &read))
}

/// The verbs of the sessions' tools the logs show were there (`reached`): the derived
/// verbs mur ran, and each session's tools that answered by their verb names as mur
/// derives them from a tool list (`get_sum` is `get-sum`), the tools of one session
/// taken together as its list would be.
fn sessions_verbs(reached: &Reached) -> Vec<String> {
    let tools = reached.tools.values().flat_map(|session| {
        let listed: Vec<serde_json::Value> = session
            .iter()
            .map(|tool| serde_json::json!({ "name": tool }))
            .collect();
        mur_verbs::derived::verb_names(&listed)
    });
    let mut verbs: Vec<String> = reached
        .derived
        .iter()
        .cloned()
        .chain(tools.flatten())
        .collect();
    verbs.sort();
    verbs.dedup();
    verbs
}

/// The report for people: tables, then the losers with their commands. What a
/// record says (a time, a tool's name) is one line each, as in the tables. `read`
/// says which logs beside mur's own were read, in a line under the first ([`logs_line`]).
fn text(report: &Report, read: &Read) -> String {
    // Whose calls, and by what rule losers are named: a saved table of one agent's
    // calls never reads as every agent's.
    let mut whose = match &report.agent {
        Some(agent) => format!("agent `{}`", output::line(agent)),
        None => "every agent".to_owned(),
    };
    // The window (`--since`) is said, as the page says it: a saved table of the last
    // 30 minutes never reads as the whole log.
    if let Some(since) = &report.since {
        whose.push_str(&format!(", since {since}"));
    }
    // A window that ends before now (`--until`) is said: the records after it are not
    // in these figures.
    if let Some(until) = &report.until {
        whose.push_str(&format!(", up to {until}"));
    }
    let mut out = wrapped(&format!(
        "{}{} ({whose}; usage errors above {}% or failures of the verb's own above \
         {}% of at least {} calls make a loser)",
        report.records_counted(),
        match (&report.first, &report.last) {
            (Some(first), Some(last)) => {
                format!(", {} to {}", output::line(first), output::line(last))
            }
            _ => String::new(),
        },
        mur_usage::round2(report.rule.max_usage_error_rate * 100.0),
        mur_usage::round2(report.rule.max_plugin_failure_rate * 100.0),
        report.rule.min_calls,
    ));
    // A line naming logs is not wrapped: a path is copied whole.
    if let Some(logs) = logs_line(read) {
        out.push_str(&format!("({logs})\n"));
    }
    // With `--only-named`, a window that ends where the logs named end, not now (without
    // `--until`): said where it is said how far it reaches.
    if let Some(end) = report.ends_at_named_last() {
        out.push_str(&format!("({end})\n"));
    }
    // No record: said plainly, where the tables would be.
    if let Some(none) = report.no_record() {
        out.push_str(&format!("\n{}\n", output::line(&none)));
    }
    // What the short headers of the figures' columns stand for, once, above the tables.
    if !report.verbs.is_empty() || !report.surfaces.is_empty() {
        out.push_str(&wrapped(COLUMNS_SAID));
    }
    section(&mut out, "VERB", "verbs (as mur ran them)", &report.verbs);
    // The sessions' surfaces (the comparison) apart from mur's by verb kind, which count
    // the same calls again (review 608 #10).
    for (title, rows) in report.surface_groups() {
        section(&mut out, "SURFACE", &format!("surfaces, {title}"), &rows);
    }
    if let Some(sides) = report.sides_explained() {
        out.push_str(&wrapped(&format!("({sides})")));
    }
    section(&mut out, "TOOL", "tools called by mur", &report.tools_cli);
    section(
        &mut out,
        "TOOL",
        "tools served by the session",
        &report.tools_served,
    );
    if let Some(unknown) = report.unknown_tools_explained() {
        out.push_str(&wrapped(&format!("({unknown})")));
    }
    section(
        &mut out,
        "CLIENT",
        "clients the sessions served",
        &report.clients_served,
    );
    let (refused, asked) = report.argv_rows();
    argv_section(
        &mut out,
        "argv the verbs refused (usage errors by shape; WORD: a word not an option)",
        &["ARGV", "TIMES", "LAST"],
        &refused,
    );
    argv_section(
        &mut out,
        "verbs asked for that do not exist (as typed; WORD: a word not an option; NEAREST: a likely typo)",
        &["ARGV", "TIMES", "LAST", "NEAREST"],
        &asked,
    );
    if let Some(tools) = report.tools_no_named_verb_reached() {
        out.push_str(&format!(
            "\ntools no named verb reached: {}\n",
            one_line_each(tools)
        ));
    }
    if !report.verbs_no_tool_ran.is_empty() {
        let rows = report.no_tool_ran_rows();
        out.push('\n');
        out.push_str(&wrapped(&format!(
            "named verbs no tool ran for ({}):",
            mur_usage::NO_TOOL_RAN
        )));
        out.push_str(&output::table(
            &["VERB", "TOOL", "CALLS", "SESSIONS", "LAST"],
            &rows,
        ));
    }
    out.push_str("\nlosers:");
    if report.losers.is_empty() {
        out.push_str(" none\n");
    } else {
        out.push('\n');
        for loser in &report.losers {
            out.push_str(&indented_wrapped(
                &format!(
                    "  {}: {}",
                    output::line(&loser.verb),
                    output::line(&loser.reason.to_string())
                ),
                4,
            ));
            out.push_str(&format!("    {}\n", output::line(&loser.command)));
        }
    }
    for said in report.beside_losers() {
        out.push_str(&indented_wrapped(
            &format!("  ({})", output::line(&said)),
            3,
        ));
    }
    out
}

/// The widest line the text form wraps its sentences at (review 608 #9: its notes were
/// one line of up to 421 characters). Tables are as wide as their cells, and a line
/// naming logs is not wrapped.
const WIDTH: usize = 100;

/// What the short headers of the figures' columns stand for, said above the tables.
const COLUMNS_SAID: &str = "(USAGE: usage errors; TOOL: the tool failed; RPC: a JSON-RPC \
     error, no tool ran; PLUGIN: the verb failed itself, exit 6; OTHER: no session, or mur's \
     own failure; INTR: interrupted; P50MS, P90MS: latency)";

/// `text` as lines of at most [`WIDTH`] characters, broken at spaces (a longer word
/// stays whole), each ending in a newline.
fn wrapped(text: &str) -> String {
    indented_wrapped(text, 0)
}

/// [`wrapped`], the lines after the first indented by `indent` spaces; `text`'s own
/// leading spaces stay.
fn indented_wrapped(text: &str, indent: usize) -> String {
    let lead = text.len() - text.trim_start_matches(' ').len();
    let mut out = String::new();
    let mut line = text[..lead].to_owned();
    let mut empty = true;
    for word in text[lead..].split(' ') {
        let (at, len) = (line.chars().count(), word.chars().count());
        if !empty && at + 1 + len > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = " ".repeat(indent);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The line under the report's first: where the sessions' logs were found, and the logs
/// named with `--server-log` by what they held — the calls sessions served, mur's calls
/// (a study run's mur log is given so too: the flag is named for what it was first
/// for, each record keeps its side), no record — so a saved table names every input,
/// as the JSON and the page list them whole, and never calls mur's records the
/// sessions'. `None` when mur's own log was all it read.
fn logs_line(read: &Read) -> Option<String> {
    let logs = &read.logs;
    let (mut served, mut cli, mut none) = (Vec::new(), Vec::new(), Vec::new());
    for (path, sides) in logs.server_logs.iter().zip(&read.named_sides) {
        if sides.server {
            served.push(path.clone());
        }
        if sides.cli {
            cli.push(path.clone());
        }
        if !sides.server && !sides.cli {
            none.push(path.clone());
        }
    }
    // A table spells out a few logs of each kind, and says where many are.
    let many = [&served, &cli, &none]
        .iter()
        .any(|named| named.len() > NAMED_SPELLED);
    let given =
        |named: &[String]| (!named.is_empty()).then(|| (named.len(), given_with_server_log(named)));
    let found = read.session_logs.iter().map(|(count, dir)| {
        let dir = output::line(&dir.to_string_lossy());
        (*count, format!("in `{dir}`"))
    });
    let served: Vec<(usize, String)> = found.chain(given(&served)).collect();
    let mut parts = Vec::new();
    if !served.is_empty() {
        parts.push(format!(
            "the tool calls the sessions served, as {} them",
            places(&served, "record")
        ));
    }
    if let Some(cli) = given(&cli) {
        parts.push(format!("mur's calls, as {} them", places(&[cli], "record")));
    }
    if let Some(none) = given(&none) {
        parts.push(format!("{} no record", places(&[none], "hold")));
    }
    let last = parts.pop()?;
    let said = match parts.is_empty() {
        true => last,
        false => format!("{}, and {last}", parts.join(", ")),
    };
    let each = if many {
        "; `--json` and `--html` name each"
    } else {
        ""
    };
    Some(match logs.only_named {
        true => format!("only the logs named (`--only-named`): {said}{each}"),
        false => format!("with {said}{each}"),
    })
}

/// `places` (how many logs, and where) as one phrase, the subject of `verb`: `1 log in
/// `DIR` records`, `2 logs in `DIR` and 3 given with `--server-log` … record`.
fn places(places: &[(usize, String)], verb: &str) -> String {
    let each: Vec<String> = places
        .iter()
        .enumerate()
        .map(|(n, (count, place))| match (n, count) {
            (0, 1) => format!("1 log {place}"),
            (0, _) => format!("{count} logs {place}"),
            _ => format!("{count} {place}"),
        })
        .collect();
    let one = places.iter().map(|(count, _)| count).sum::<usize>() == 1;
    format!(
        "{} {verb}{}",
        each.join(" and "),
        if one { "s" } else { "" }
    )
}

/// The most logs named with `--server-log` the table's line spells out.
const NAMED_SPELLED: usize = 3;

/// The logs named with `--server-log` (`named`, absolute), compactly: each path for a
/// few, else where they all are (a study's `runs/*/*/*/calls.jsonl` are dozens).
fn given_with_server_log(named: &[String]) -> String {
    if named.len() <= NAMED_SPELLED {
        let each: Vec<String> = named
            .iter()
            .map(|p| format!("`{}`", output::line(p)))
            .collect();
        return format!("given with `--server-log` ({})", each.join(", "));
    }
    // The longest directory every one is in.
    let parents = named
        .iter()
        .filter_map(|p| std::path::Path::new(p).parent());
    let under = parents
        .reduce(|common, parent| {
            common
                .ancestors()
                .find(|a| parent.starts_with(a))
                .unwrap_or(common)
        })
        .map(|dir| dir.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("given with `--server-log` under `{}`", output::line(&under))
}

/// A table of argv shapes' `rows`, under `title`; nothing when there are none.
fn argv_section(out: &mut String, title: &str, header: &[&str], rows: &[Vec<String>]) {
    if rows.is_empty() {
        return;
    }
    out.push_str(&format!("\n{title}:\n"));
    out.push_str(&output::table(header, rows));
}

fn section(out: &mut String, first: &str, title: &str, rows: &[Row]) {
    if rows.is_empty() {
        return;
    }
    out.push_str(&format!("\n{title}:\n"));
    // Short, to fit ~100 columns with a name and a time (review 608 #9): what each
    // stands for is said above the tables ([`COLUMNS_SAID`]).
    let header = [
        first,
        "CALLS",
        "OK",
        "USAGE",
        "TOOL",
        "RPC",
        "PLUGIN",
        "OTHER",
        "INTR",
        "P50MS",
        "P90MS",
        "LAST-USED",
    ];
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let name = match r.kind {
                Some(kind) => format!("{} ({})", r.name, kind.as_str()),
                None => r.name.clone(),
            };
            std::iter::once(name).chain(r.figures()).collect()
        })
        .collect();
    out.push_str(&output::table(&header, &rows));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// mur's record of a call of `verb` at 2026-11-20T10:00:00.000Z that ended `outcome`.
    fn at_ten(verb: &str, kind: mur_usage::Kind, outcome: mur_usage::Outcome) -> mur_usage::Record {
        use mur_usage::{Record, Side, Surface};
        let mut record = Record::new(Side::Cli, Surface::Cli, outcome, 1.0);
        record.time = "2026-11-20T10:00:00.000Z".to_owned();
        record.verb = Some(verb.to_owned());
        record.kind = Some(kind);
        record
    }

    /// A named verb whose every call the session answered was a JSON-RPC error (its tool
    /// on no session it was called on) is said in a table of its own, with why it is no
    /// loser: only its row's RPC-ERR said it, and `verbs prune` would remove a verb meant
    /// for another app.
    #[test]
    fn a_named_verb_no_tool_ran_for_is_said_in_the_report() {
        use mur_usage::{Criteria, Installed, Kind, Outcome};
        let mut record = at_ten("pick", Kind::Plugin, Outcome::RpcError);
        record.tool = Some("pickItem".to_owned());
        record.project = Some("ab12".to_owned());
        let criteria = Criteria {
            installed: vec![Installed {
                name: "pick".to_owned(),
                kind: Kind::Plugin,
                tool: "pickItem".to_owned(),
                sha256: None,
                added_at: None,
            }],
            ..Criteria::default()
        };
        let report = mur_usage::report(&[record], 0, &criteria);
        let text = text(&report, &crate::judging::Read::default());
        let expected = format!(
            "1 record, 2026-11-20T10:00:00.000Z to 2026-11-20T10:00:00.000Z (every agent; usage \
             errors above 50%\n\
             or failures of the verb's own above 20% of at least 3 calls make a loser)\n\
             (USAGE: usage errors; TOOL: the tool failed; RPC: a JSON-RPC error, no tool ran; \
             PLUGIN: the verb\n\
             failed itself, exit 6; OTHER: no session, or mur's own failure; INTR: interrupted; \
             P50MS, P90MS:\n\
             latency)\n\
             \n\
             verbs (as mur ran them):\n\
             VERB           {h}\n\
             pick (plugin)  {f}\n\
             \n\
             surfaces, as mur ran them (by verb kind):\n\
             SURFACE     {h}\n\
             cli/plugin  {f}\n\
             \n\
             tools called by mur:\n\
             TOOL      {h}\n\
             pickItem  {f}\n\
             \n\
             named verbs no tool ran for (every call of theirs the session answered was a \
             JSON-RPC error: no tool\n\
             ran, most often as the session has no tool of that name (a verb for another app, \
             or a tool renamed;\n\
             `mur devtools catalog` on the session lists its tools); not losers):\n\
             VERB           TOOL      CALLS  SESSIONS  LAST\n\
             pick (plugin)  pickItem  1      1         2026-11-20T10:00:00.000Z\n\
             \n\
             losers: none\n",
            h = "CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED",
            f = "1      0   0      0     1    0       0      0     1      1      2026-11-20T10:00:00.000Z",
        );
        assert_eq!(text, expected);
    }

    /// The text form fits 100 columns where it can (review 608 #9): short headers said
    /// once above the tables, sentences wrapped; the surfaces in two groups, the
    /// sessions' (`server/cli` against `server/mcp`) apart from mur's by verb kind, which
    /// count the same calls again (#10); an unused verb said when it was last used (#8).
    #[test]
    fn the_text_form_groups_the_surfaces_and_fits_a_hundred_columns() {
        use mur_usage::{Criteria, Installed, Kind, Outcome, Record, Side, Since, Surface};
        let served = |surface| {
            let mut record = Record::new(Side::Server, surface, Outcome::Ok, 1.0);
            record.time = "2026-11-20T10:00:00.000Z".to_owned();
            record.tool = Some("click".to_owned());
            record
        };
        let mut old = at_ten("idle", Kind::Plugin, Outcome::Ok);
        old.time = "2026-11-01T10:00:00.000Z".to_owned();
        let records = [
            old,
            at_ten("click", Kind::Plugin, Outcome::Ok),
            served(Surface::Cli),
            served(Surface::Mcp),
        ];
        let plugin = |name: &str| Installed {
            name: name.to_owned(),
            kind: Kind::Plugin,
            tool: name.to_owned(),
            sha256: None,
            added_at: None,
        };
        let criteria = Criteria {
            since: Some(Since("2026-11-20T09:00:00.000Z".to_owned())),
            installed: vec![plugin("click"), plugin("idle")],
            ..Criteria::default()
        };
        let report = mur_usage::report(&records, 0, &criteria);
        let text = text(&report, &crate::judging::Read::default());
        // Every line but the verbs table's, whose names say their kind too (`(plugin)`).
        let wide: Vec<&str> = (text.lines())
            .filter(|line| line.chars().count() > 100)
            .filter(|line| !line.starts_with("VERB ") && !line.starts_with("click (plugin)"))
            .collect();
        assert!(wide.is_empty(), "{wide:#?}:\n{text}");
        let h = "CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED";
        let f = |calls: u64| {
            format!(
                "{calls}      {calls}   0      0     0    0       0      0     1      1      \
                 2026-11-20T10:00:00.000Z"
            )
        };
        let expected = format!(
            "\
3 records, 2026-11-20T10:00:00.000Z to 2026-11-20T10:00:00.000Z (every agent, since
2026-11-20T09:00:00.000Z; usage errors above 50% or failures of the verb's own above 20% of at least
3 calls make a loser)
(USAGE: usage errors; TOOL: the tool failed; RPC: a JSON-RPC error, no tool ran; PLUGIN: the verb
failed itself, exit 6; OTHER: no session, or mur's own failure; INTR: interrupted; P50MS, P90MS:
latency)

verbs (as mur ran them):
VERB            {h}
click (plugin)  {one}

surfaces, as the sessions served them (one row per surface):
SURFACE     {h}
server/cli  {one}
server/mcp  {one}

surfaces, as mur ran them (by verb kind):
SURFACE     {h}
cli/plugin  {one}
(a call of mur's to a session that records usage is in both groups; `server/cli` against
`server/mcp` is how often each was used: a preference only where the same agents were offered both,
not across a study's CLI-only and MCP-only runs)

tools served by the session:
TOOL   {h}
click  {two}

clients the sessions served:
CLIENT     {h}
(unnamed)  {two}

tools no named verb reached: click, idle

losers:
  idle: last used 2026-11-01T10:00:00.000Z, none in the window (since 2026-11-20T09:00:00.000Z)
    mur devtools verbs remove idle
",
            one = f(1),
            two = f(2),
        );
        assert_eq!(text, expected);
    }

    /// The table's first line says its window (`--since`), as the page does: a saved
    /// table of the last 30 minutes never reads as the whole log (review 407 #5).
    #[test]
    fn the_first_line_says_the_window() {
        use mur_usage::{Criteria, Kind, Outcome, Since};
        let record = at_ten("guide", Kind::Host, Outcome::Ok);
        let criteria = Criteria {
            since: Some(Since("2026-11-20T09:30:00.000Z".to_owned())),
            until: Some("2026-11-20T10:00:00.000Z".to_owned()),
            ..Criteria::default()
        };
        let report = mur_usage::report(&[record], 0, &criteria);
        let text = text(&report, &crate::judging::Read::default());
        // Wrapped at 100 columns: its first lines, up to the first that closes it.
        let first = text
            .split(")\n")
            .next()
            .unwrap_or_default()
            .replace('\n', " ");
        assert_eq!(
            format!("{first})"),
            "1 record, 2026-11-20T10:00:00.000Z to 2026-11-20T10:00:00.000Z (every agent, since \
             2026-11-20T09:30:00.000Z, up to 2026-11-20T10:00:00.000Z; usage errors above 50% \
             or failures of the verb's own above 20% of at least 3 calls make a loser)"
        );
    }

    /// A session's tools are named as its list names them: `get_sum` is `get-sum`
    /// alone, but beside `getSum` each keeps its own name, as neither is `get-sum`;
    /// the derived verbs mur ran keep the names it ran them under.
    #[test]
    fn a_sessions_tools_are_named_as_mur_derives_their_verbs() {
        let set = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect();
        let reached = Reached {
            derived: set(&["echo"]),
            tools: [
                (Some("a".to_owned()), set(&["get_sum", "take_screenshot"])),
                (Some("b".to_owned()), set(&["getSum", "get_sum"])),
            ]
            .into_iter()
            .collect(),
        };
        assert_eq!(
            sessions_verbs(&reached),
            ["echo", "get-sum", "getSum", "get_sum", "take-screenshot"]
        );
    }
}
