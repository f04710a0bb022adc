//! `mur devtools usage report|on|off|path` and `verbs prune`: the usage log,
//! read into the operator's report, and the losers it names removed.

use std::path::PathBuf;
use std::time::Duration;

use mur_core::{Error, Result};
use mur_usage::{
    Criteria, Installed, Kind, LogReader, LogsRead, LoserRule, ReadFiles, Report, Row, Since,
    UsageDir, UsageLog,
};
use mur_verbs::manage;
use mur_verbs::{Entry, VerbDirs, VerbHost};

use crate::cli::{ReportArgs, UsageCommand};
use crate::output;

/// Runs a `usage` command; `patience` bounds how long `--html` waits for a FIFO's
/// reader that takes nothing (`--timeout`).
pub fn run(cmd: &UsageCommand, pretty: bool, patience: Duration) -> Result<()> {
    let dir = usage_dir()?;
    match cmd {
        UsageCommand::Report(args) => report(&dir, args, pretty, patience),
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

fn usage_dir() -> Result<UsageDir> {
    UsageDir::from_env().ok_or_else(|| {
        Error::internal("cannot find a home directory for the usage log")
            .with_hint("set `XDG_STATE_HOME` (or `HOME`)")
    })
}

fn switch(dir: &UsageDir, on: bool, with_values: bool) -> Result<()> {
    dir.switch(on, with_values).map_err(crate::usage::error)?;
    let state = match (on, with_values) {
        (false, _) => "usage recording is off".to_owned(),
        (true, false) => format!("usage is recorded to `{}`", dir.log().path().display()),
        (true, true) => format!(
            "usage is recorded to `{}`, argument values included",
            dir.log().path().display()
        ),
    };
    output::diagnostic(&state);
    Ok(())
}

/// The installed verbs (`entries`, the verb index's), as the report judges them.
fn installed(entries: &[Entry]) -> Vec<Installed> {
    entries
        .iter()
        .map(|e| Installed {
            name: e.name.clone(),
            kind: if e.interface == mur_verbs::data::INTERFACE {
                Kind::Data
            } else {
                Kind::Plugin
            },
            tool: e.tool.clone(),
            sha256: Some(e.sha256.clone()),
            // An entry of an older mur may have none: added long ago, for all we know.
            added_at: (!e.added_at.is_empty()).then(|| e.added_at.clone()),
        })
        .collect()
}

/// What `usage report` and `verbs prune` judge by, built alike so that they name
/// the same losers: every verdict (unused, refused too often, failing too often) over
/// the last `unused_for`, or over `--since`'s window when the report is given one; the
/// verbs judged are those of `entries`, the verb index's.
fn criteria(
    dir: &UsageDir,
    since: Option<std::time::Duration>,
    unused_for: std::time::Duration,
    agent: Option<String>,
    rule: LoserRule,
    entries: &[Entry],
) -> Criteria {
    Criteria {
        since: since.map(Since::ago),
        unused_since: match since {
            Some(_) => None,
            None => Some(Since::ago(unused_for)),
        },
        agent,
        rule,
        installed: installed(entries),
        off_periods: dir.off_periods(),
    }
}

/// The report over the CLI's log, the `server` logs, and (`sessions`) the logs the
/// sessions keep of the calls they served; with what was read of the sessions' own.
fn build(
    dir: &UsageDir,
    server: &[PathBuf],
    sessions: bool,
    criteria: &Criteria,
) -> Result<(Report, Read)> {
    let (records, skipped, read) = read(dir, server, sessions)?;
    Ok((mur_usage::report(&records, skipped, criteria), read))
}

/// Which logs a report read: how many of the sessions' own in each directory they are
/// kept in ([`mur_usage::sessions_dir`], then `usage/` in each lockfile directory
/// searched, [`mur_usage::lockfile_sessions_dir`] first), where it read any; every
/// log, each by the one path it was read by (the report's `logsRead`); and every
/// file it read, which no page it writes may replace.
#[derive(Debug, Default)]
struct Read {
    session_logs: Vec<(usize, PathBuf)>,
    logs: LogsRead,
    files: ReadFiles,
}

/// `path` as a report names a log it read: absolute, so a saved report or page says
/// which file wherever it is read (`--server-log runs/1/calls.jsonl` was relative to a
/// directory the page does not name).
fn named_path(path: &std::path::Path) -> String {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    path.to_string_lossy().into_owned()
}

/// The records of the CLI's log, the `server` logs and (`sessions`) the sessions'
/// own logs, and how many lines were not records (for [`skipped_notice`]). mur's own log
/// that cannot be read is mur's failure (exit 7); a `--server-log` that cannot, the
/// caller's word (exit 1): each log's error carries its class. A log of the sessions'
/// that is not the user's own regular file, or cannot be read, is skipped with a
/// warning: no one named it. Each file is read once: a `--server-log` given twice,
/// or naming mur's own log (or a file of it), adds nothing the second time, and
/// stderr says so; a session's log named with `--server-log` too is read once,
/// silently.
fn read(
    dir: &UsageDir,
    server: &[PathBuf],
    sessions: bool,
) -> Result<(Vec<mur_usage::Record>, usize, Read)> {
    let own = dir.log();
    let own_files = own.files();
    let mut reader = LogReader::default();
    let mut read = Read::default();
    if !own_files.is_empty() {
        read.logs.mur = Some(named_path(own.path()));
        reader.read(&[own]).map_err(crate::usage::error)?;
    }
    for path in server {
        let before = reader.read.len();
        reader
            .read(&[UsageLog::named(path.clone())])
            .map_err(crate::usage::error)?;
        // One read already (given twice, mur's own) is said below, and named once.
        if reader.read.len() > before {
            read.logs.server_logs.push(named_path(path));
        }
    }
    for (path, first) in &reader.repeated {
        let what = match (
            own_files.contains(first),
            path.as_os_str() == first.as_os_str(),
        ) {
            (true, true) => "is mur's own usage log, read already".to_owned(),
            (true, false) => format!("is mur's own usage log `{}`, read already", first.display()),
            (false, true) => "is given more than once".to_owned(),
            (false, false) => format!("is `{}`, read already", first.display()),
        };
        output::notice(&format!(
            "`{}` {what}: its records are counted once",
            path.display()
        ));
    }
    if sessions {
        // Where sessions record now, and where sessions without a home and an older
        // mur's record: `usage/` in their lockfile directory (until a logout or reboot
        // empties it), in each directory a reader searches, as a session started
        // without `XDG_RUNTIME_DIR` announced itself (and recorded) in
        // `${TMPDIR:-/tmp}/reactor-devtools-<uid>`.
        let lockfiles = mur_lockfile::Registry::for_readers();
        for why in lockfiles.refused() {
            output::notice(&format!("the sessions' usage logs are not read: {why}"));
        }
        let in_lockfile_dirs: Vec<(PathBuf, Option<&std::path::Path>)> = lockfiles
            .dirs()
            .map(|lockfile_dir| (lockfile_dir.join("usage"), Some(lockfile_dir)))
            .collect();
        let now = mur_usage::sessions_dir();
        let now = (!in_lockfile_dirs.iter().any(|(dir, _)| *dir == now)).then_some((now, None));
        for (dir, lockfile_dir) in now.into_iter().chain(in_lockfile_dirs) {
            let logs = read_sessions(&mut reader, &dir, lockfile_dir);
            if !logs.is_empty() {
                read.session_logs.push((logs.len(), dir));
                read.logs.sessions.extend(logs);
            }
        }
    }
    let LogReader {
        records,
        skipped,
        read: files,
        ..
    } = reader;
    read.files = files;
    Ok((records, skipped, read))
}

/// Says on stderr how many lines of the logs were not records, if any.
fn skipped_notice(report: &Report) {
    if report.skipped_lines > 0 {
        output::notice(&format!(
            "{} line(s) of the usage logs are not records and were skipped",
            report.skipped_lines
        ));
    }
}

/// Reads the sessions' own logs in `dir` into `reader`, each one not read already;
/// returns the logs it read ([`named_path`]). One that is not the user's own regular
/// file, or cannot be read, is skipped with a warning; so is `dir` in a lockfile
/// directory (`lockfile_dir`) that is not the user's own and private.
fn read_sessions(
    reader: &mut LogReader,
    dir: &std::path::Path,
    lockfile_dir: Option<&std::path::Path>,
) -> Vec<String> {
    // In a lockfile directory, whose trust every session announced there relies on:
    // each is judged by itself.
    if dir.exists()
        && let Some(lockfile_dir) = lockfile_dir
        && let Err(why) = mur_lockfile::Registry::at(lockfile_dir.to_owned()).check_dir_trusted()
    {
        output::notice(&format!("the sessions' usage logs are not read: {why}"));
        return Vec::new();
    }
    let (logs, refused) = mur_usage::session_logs(dir);
    for why in refused {
        output::notice(&format!("a session's usage log is skipped: {why}"));
    }
    let mut read = Vec::new();
    for log in logs {
        let (repeated, files) = (reader.repeated.len(), reader.read.len());
        match reader.read(std::slice::from_ref(&log)) {
            Ok(()) if reader.read.len() > files => read.push(named_path(log.path())),
            // Named with `--server-log` too: read once, as that, nothing to say.
            Ok(()) => {}
            Err(e) => output::notice(&format!("a session's usage log is skipped: {e}")),
        }
        reader.repeated.truncate(repeated);
    }
    read
}

/// The report: a table for people, one JSON object with `--json` (indented with
/// `--pretty`, as every JSON mur prints).
fn report(dir: &UsageDir, args: &ReportArgs, pretty: bool, patience: Duration) -> Result<()> {
    // `-` is stdout, as for `screenshot --out -`: the page is then the output. So is a
    // name that is mur's own stdout (`/dev/stdout`), as `--out` takes it.
    let page_on_stdout = args
        .html
        .as_ref()
        .is_some_and(|p| p.as_os_str() == "-" || mur_lockfile::is_stdout(p));
    if args.json && page_on_stdout {
        return Err(Error::usage("`--json` and `--html -` both print on stdout")
            .with_hint("write the page to a file (`--html report.html`), or drop one"));
    }
    // As `--out -` of `call`: a page of markup is no text for a terminal.
    if page_on_stdout && output::stdout_is_terminal() {
        return Err(Error::usage(
            "`--html -` writes the report's page (HTML) to stdout, which is a terminal",
        )
        .with_hint(
            "pipe it (`| w3m -T text/html`, `> usage.html`) or write a file: `--html FILE`",
        ));
    }
    // A page that could not be written is said now, as `--out` says it: before the
    // logs are read, in the user's terms (exit 1), not the OS's after (exit 7).
    let page_file = args.html.as_ref().filter(|_| !page_on_stdout);
    if let Some(path) = page_file {
        mur_lockfile::check_named(path)
            .map_err(|e| Error::usage(format!("`--html {}`: {e}", path.display())))?;
    }
    let verbs = VerbHost::open()?;
    let criteria = criteria(
        dir,
        args.since,
        args.unused_for,
        args.agent.clone(),
        LoserRule {
            max_usage_error_rate: args.max_usage_error_rate,
            max_plugin_failure_rate: args.max_plugin_failure_rate,
            ..LoserRule::default()
        },
        verbs.entries(),
    );
    let (mut report, read) = build(dir, &args.server_logs, true, &criteria)?;
    report.logs_read = read.logs.clone();
    // One slip of tab-completion would replace the records with their page: a file
    // the report read (mur's own log, a `--server-log`, a session's) is refused.
    if let Some((path, log)) = page_file.and_then(|path| Some((path, read.files.read_as(path)?))) {
        return Err(Error::usage(format!(
            "`--html {}`: that is the usage log `{}`, which this report reads; \
             the page would replace its records",
            path.display(),
            log.display()
        ))
        .with_hint("write the page to another file (`--html usage.html`)"));
    }
    if !dir.enabled() {
        output::notice("usage recording is off: this report covers what was recorded before");
    }
    skipped_notice(&report);
    // Who installed no named verb (a user of bridged stdio servers) has none to judge
    // unused: that the log is too young to judge one is no news to them.
    let judging = !criteria.installed.is_empty();
    not_covered_notice(&report, criteria.agent.as_deref(), judging, true);
    if let Some(left_out) = report.server_records_not_counted() {
        output::notice(&left_out);
    }
    if let Some(left_out) = report.forwarded_not_counted() {
        output::diagnostic(&format!("note: {left_out}"));
    }
    // What only mur knows: its own commands, beside the installed verbs.
    let words: Vec<String> = criteria
        .installed
        .iter()
        .map(|v| v.name.clone())
        .chain(crate::cli::host_verbs())
        .collect();
    // A word asked for that is a verb now (added since) is a wish granted: no
    // longer among the verbs that do not exist.
    report
        .unknown_verbs
        .retain(|asked| !words.contains(&asked.verb));
    for asked in &mut report.unknown_verbs {
        asked.nearest = mur_core::nearest(&asked.verb, &words).cloned();
    }
    if let Some(path) = &args.html {
        let page = mur_usage::html::page(&report);
        if page_on_stdout {
            return output::stdout(page.as_bytes());
        }
        mur_lockfile::write_named(path, page.as_bytes(), patience)
            .map_err(|e| Error::internal(format!("cannot write `{}`: {e}", path.display())))?;
    }
    if args.json {
        let value = serde_json::to_value(&report)
            .map_err(|e| Error::internal(format!("cannot render the report: {e}")))?;
        return output::json(&value, pretty);
    }
    // Record text (a server's tool name) is escaped as a help's is: the report's
    // lines and tabs stay, no ESC or CR reaches the terminal.
    output::text(&text(&report, &read, !criteria.installed.is_empty()))
}

/// Says on stderr when the log (of `agent`) holds no record of `agent` at all, and
/// when recording was off in the window; and, for `verbs prune` (not `in_report`), as
/// a `note:`, when it is too young to call any verb unused (when there are verbs to
/// `judge`: named ones installed). A report says that last under its losers, once:
/// it is every new user's state for a month, no warning. Each is said whatever else
/// is: a time recording was off hides no misspelled `--agent`.
fn not_covered_notice(report: &Report, agent: Option<&str>, judging: bool, in_report: bool) {
    let unknown_agent = agent.is_some_and(|agent| !report.agents.iter().any(|a| a == agent));
    if report.window_covered || !(judging || unknown_agent) {
        return;
    }
    if let (Some(off), Some(why)) = (&report.recording_off, report.unused_not_judged()) {
        output::notice(&why);
        if off.to.is_none() {
            output::diagnostic("hint: `mur devtools usage on` turns it on");
        }
    }
    if !unknown_agent && (in_report || report.reaches_back) {
        return;
    }
    let reach = match (agent, &report.unused_since) {
        (Some(agent), _) if !report.agents.iter().any(|a| a == agent) => {
            // A log of many agents is named by its first few.
            let known = match report.agents.as_slice() {
                [] => "none".to_owned(),
                names if names.len() > 8 => {
                    format!("{}, … {} in all", one_line_each(&names[..8]), names.len())
                }
                names => one_line_each(names),
            };
            let agent = output::line(agent);
            format!("holds no record of agent `{agent}` (its agents: {known})")
        }
        (Some(agent), Some(since)) => format!(
            "does not go back to {since} for agent `{}`",
            output::line(agent)
        ),
        (None, Some(since)) => format!("does not go back to {since}"),
        (_, None) => "holds no record of mur's".to_owned(),
    };
    let line = format!("the usage log {reach}: no verb is judged unused over that window");
    if unknown_agent {
        output::notice(&line);
    } else {
        output::diagnostic(&format!("note: {line}"));
    }
}

/// `names` (a log's, whoever wrote it) joined by commas, each one bounded line:
/// a newline in one must not start a line that reads as mur's own `error:`.
fn one_line_each(names: &[String]) -> String {
    let names: Vec<String> = names.iter().map(|n| output::one_line(n)).collect();
    names.join(", ")
}

/// The report for people: tables, then the losers with their commands. What a
/// record says (a time, a tool's name) is one line each, as in the tables. `read`
/// says which logs of the sessions' own were read, in a line under the first; with
/// no named verb installed (`named`), no line lists the tools none reached: all of
/// them.
fn text(report: &Report, read: &Read, named: bool) -> String {
    // Whose calls, and by what rule losers are named: a saved table of one agent's
    // calls never reads as every agent's.
    let whose = match &report.agent {
        Some(agent) => format!("agent `{}`", output::line(agent)),
        None => "every agent".to_owned(),
    };
    let mut out = format!(
        "{} records{} ({whose}; usage errors above {}% or failures of the verb's own above \
         {}% of at least {} calls make a loser)\n",
        report.records,
        match (&report.first, &report.last) {
            (Some(first), Some(last)) => {
                format!(", {} to {}", output::line(first), output::line(last))
            }
            _ => String::new(),
        },
        mur_usage::round2(report.rule.max_usage_error_rate * 100.0),
        mur_usage::round2(report.rule.max_plugin_failure_rate * 100.0),
        report.rule.min_calls,
    );
    // Where the sessions' logs were found, and the logs named: a saved table names
    // every input, as the JSON and the page list them whole.
    let given = &report.logs_read.server_logs;
    let mut places: Vec<(usize, String)> = read
        .session_logs
        .iter()
        .map(|(count, dir)| {
            let dir = output::line(&dir.to_string_lossy());
            (*count, format!("in `{dir}`"))
        })
        .collect();
    if !given.is_empty() {
        places.push((given.len(), given_with_server_log(given)));
    }
    if !places.is_empty() {
        let places: Vec<String> = places
            .iter()
            .enumerate()
            .map(|(n, (count, place))| match (n, count) {
                (0, 1) => format!("1 log {place}"),
                (0, _) => format!("{count} logs {place}"),
                _ => format!("{count} {place}"),
            })
            .collect();
        let each = if given.len() > NAMED_SPELLED {
            "; `--json` and `--html` name each"
        } else {
            ""
        };
        out.push_str(&format!(
            "(with the tool calls the sessions served, as {} record them{each})\n",
            places.join(" and ")
        ));
    }
    section(&mut out, "VERB", "verbs (as mur ran them)", &report.verbs);
    section(&mut out, "SURFACE", "surfaces", &report.surfaces);
    if let Some(sides) = report.sides_explained() {
        out.push_str(&format!("({sides})\n"));
    }
    section(&mut out, "TOOL", "tools called by mur", &report.tools_cli);
    section(
        &mut out,
        "TOOL",
        "tools served by the session",
        &report.tools_served,
    );
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
    if named && !report.tools_without_named_calls.is_empty() {
        out.push_str(&format!(
            "\ntools no named verb reached: {}\n",
            one_line_each(&report.tools_without_named_calls)
        ));
    }
    out.push_str("\nlosers:");
    if report.losers.is_empty() {
        out.push_str(" none\n");
    } else {
        out.push('\n');
        for loser in &report.losers {
            out.push_str(&format!(
                "  {}: {}\n    {}\n",
                output::line(&loser.verb),
                output::line(&loser.reason),
                output::line(&loser.command)
            ));
        }
    }
    if let Some(why) = report.unused_not_judged() {
        out.push_str(&format!("  ({})\n", output::line(&why)));
    }
    out
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
    let header = [
        first,
        "CALLS",
        "OK",
        "USAGE-ERR",
        "TOOL-FAIL",
        "RPC-ERR",
        "PLUGIN-FAIL",
        "OTHER-FAIL",
        "INTERRUPTED",
        "P50-MS",
        "P90-MS",
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

/// `verbs prune`: the losers of `usage report --unused-for UNUSED_FOR` over the
/// same logs, `server_logs` among them (the same criteria, so the same list), removed with `yes`, else listed as the
/// commands that would remove them. While recording is off, calls made since
/// are in no record: no verb is judged unused (stderr says why, as for any
/// window a time recording was off overlaps), and `yes` is refused unless
/// `while_off` insists.
pub fn prune(
    unused_for: std::time::Duration,
    rule: LoserRule,
    agent: Option<String>,
    server_logs: &[PathBuf],
    yes: bool,
    while_off: bool,
) -> Result<()> {
    let dir = usage_dir()?;
    if !dir.enabled() && yes && !while_off {
        return Err(Error::usage(
            "usage recording is off: the calls since it went off are in no record, so nothing is removed",
        )
        .with_hint(
            "`mur devtools usage on` turns it on (prune once calls are recorded again), \
             or `--while-off` removes them all the same",
        ));
    }
    // The verb index, read once: the verbs judged, and where each came from.
    let verbs = VerbHost::open()?;
    let entries = verbs.entries();
    let criteria = criteria(&dir, None, unused_for, agent, rule, entries);
    // One read serves both the report and whether the log reaches back past
    // the window: only then can a verb be called unused over all of it. The
    // sessions' logs too, as the report reads them: their records of mur's calls
    // name the verb, and save it.
    // And the logs named (`--server-log`), as the report takes them: the same
    // records, so the same losers.
    let (records, skipped, _) = read(&dir, server_logs, true)?;
    let report = mur_usage::report(&records, skipped, &criteria);
    skipped_notice(&report);
    not_covered_notice(&report, criteria.agent.as_deref(), true, false);
    // The verbs too recent to be judged unused, as the report says under its losers.
    if let (true, Some(why)) = (report.window_covered, report.unused_not_judged()) {
        output::diagnostic(&why);
    }
    let losers = &report.losers;
    if losers.is_empty() {
        output::diagnostic("no verb to prune");
        return Ok(());
    }
    let dirs = VerbDirs::from_env()?;
    let mut out = String::new();
    // Where each came from, as `verbs add` was given it: the file that brings it back.
    let sources: std::collections::HashMap<&str, &str> = entries
        .iter()
        .filter_map(|e| Some((e.name.as_str(), e.source.as_deref()?)))
        .collect();
    if yes {
        let names: Vec<String> = losers.iter().map(|l| l.verb.clone()).collect();
        manage::remove_all(&dirs, &names)?;
    }
    for loser in losers {
        if yes {
            let from = sources
                .get(loser.verb.as_str())
                .map(|source| format!("; it was from {}", output::line(source)))
                .unwrap_or_default();
            out.push_str(&format!(
                "removed verb `{}` ({}{from})\n",
                loser.verb, loser.reason
            ));
        } else {
            out.push_str(&format!("{}    # {}\n", loser.command, loser.reason));
        }
    }
    output::stdout(out.as_bytes())?;
    if !yes {
        output::diagnostic(
            "a dry run: nothing was removed (`--yes` removes them; `verbs add` brings one back)",
        );
    }
    Ok(())
}
