//! The usage logs read and the verbs judged by them, alike for `usage report` and
//! `verbs prune` so that both name the same losers: which logs (mur's own, those named
//! with `--server-log`, the sessions' own), the criteria, and what stderr says of what
//! the logs do not cover.

use std::path::PathBuf;

use mur_core::{Error, Result};
use mur_usage::{
    Criteria, Installed, Kind, LogReader, LogsRead, ReadFiles, Report, Since, Until, UsageDir,
    UsageLog,
};
use mur_verbs::Entry;

use crate::cli::JudgingArgs;
use crate::output;

/// The CLI's usage directory (its log and whether recording is on), for every command
/// that reads or switches it (`usage …`, `verbs prune`); an error without a home
/// directory, whose hint says how to name one, and where a file stands in its place
/// (`XDG_STATE_HOME` set to a file): no log could be read or written there, and a
/// command that read none would say "0 records" or "no verb to prune" as if it had.
pub fn usage_dir() -> Result<UsageDir> {
    let dir = UsageDir::from_env().ok_or_else(|| {
        Error::internal("cannot find a home directory for the usage log")
            .with_hint("set `XDG_STATE_HOME` (or `HOME`)")
    })?;
    match dir.file_in_the_way() {
        Some(e) => Err(crate::usage::error(e)),
        None => Ok(dir),
    }
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

/// What `usage report` and `verbs prune` judge by, built alike from the flags they share
/// (`args`) so that they name the same losers: every verdict (unused, refused too often,
/// failing too often) over the last `--unused-for`, or over `--since`'s window (`since`)
/// when the report is given one; the verbs judged are those of `entries`, the verb
/// index's. Both windows end where [`Until::window_end`] says, of the `records` read:
/// at `--until`, else now (with `--only-named`, at the last record of the logs named,
/// as `--until last`).
/// The times recording was off are `dir`'s, unless `--only-named` leaves its log unread
/// (a gap in the operator's own log hides nothing of the logs named); with it, those
/// logs are the whole record, which [`mur_usage::report`] judges over their own span
/// (`read.logs.only_named` says so to it). The report names
/// the logs `read`, and no word among the verbs that do not exist that is mur's own.
pub fn criteria(
    args: &JudgingArgs,
    since: Option<std::time::Duration>,
    dir: &UsageDir,
    records: &[mur_usage::Record],
    read: &Read,
    entries: &[Entry],
) -> Criteria {
    let until = Until::window_end(
        args.until.as_ref(),
        args.only_named,
        read.newest_named.as_deref(),
        records.iter().map(|r| r.time.as_str()),
    );
    let back = |duration| match &until {
        Some(end) => Since::before(end, duration),
        None => Since::ago(duration),
    };
    Criteria {
        since: since.map(back),
        unused_since: match since {
            Some(_) => None,
            None => Some(back(args.unused_for)),
        },
        agent: args.agent.clone(),
        rule: args.rule(),
        installed: installed(entries),
        off_periods: match args.only_named {
            true => Vec::new(),
            false => dir.off_periods(),
        },
        until,
        known_words: crate::cli::host_verbs(),
        logs_read: read.logs.clone(),
        only_verbs: (!args.only_verbs.is_empty()).then(|| args.only_verbs.clone()),
    }
}

/// Which logs a report read: how many of the sessions' own in each directory they are
/// kept in ([`mur_usage::sessions_dir`], then `usage/` in each lockfile directory
/// searched, [`mur_usage::lockfile_sessions_dir`] first), where it read any; every
/// log, each by the one path it was read by (the report's `logsRead`); and every
/// file it read, which no page it writes may replace.
#[derive(Debug, Default)]
pub struct Read {
    pub session_logs: Vec<(usize, PathBuf)>,
    pub logs: LogsRead,
    pub files: ReadFiles,
    /// Where lines that were not records were skipped ([`skipped_notice`]).
    pub skipped_in: Vec<mur_usage::Skipped>,
    /// The time of the newest record of the logs named with `--server-log` (`--until
    /// last`).
    pub newest_named: Option<String>,
    /// Which sides' records each log named with `--server-log` held (one for each of
    /// `logs.server_logs`): the report's header says what they were, not that they
    /// were the sessions' (one may be a study run's mur log).
    pub named_sides: Vec<Sides>,
}

/// Which sides' records a log held: mur's (`cli`), a session's (`server`), both, or
/// none (a log with no record).
#[derive(Debug, Clone, Copy)]
pub struct Sides {
    pub cli: bool,
    pub server: bool,
}

impl Sides {
    fn of(records: &[mur_usage::Record]) -> Self {
        let has = |side| records.iter().any(|r| r.side == side);
        Self {
            cli: has(mur_usage::Side::Cli),
            server: has(mur_usage::Side::Server),
        }
    }
}

/// `path` as a report names a log it read: absolute, so a saved report or page says
/// which file wherever it is read (`--server-log runs/1/calls.jsonl` was relative to a
/// directory the page does not name).
fn named_path(path: &std::path::Path) -> String {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    path.to_string_lossy().into_owned()
}

/// The records of the logs named with `--server-log` (`args`) and, unless
/// `--only-named`, of the CLI's log and the sessions' own logs found without being
/// named, and how many lines were not records (for [`skipped_notice`]). mur's own log
/// that cannot be read is mur's failure (exit 7); a `--server-log` that cannot, the
/// caller's word (exit 1): each log's error carries its class. A log of the sessions'
/// that is not the user's own regular file, or cannot be read, is skipped with a
/// warning: no one named it. Each file is read once: a `--server-log` given twice,
/// or naming mur's own log (or a file of it), adds nothing the second time, and
/// stderr says so; a session's log named with `--server-log` too is read once,
/// silently.
pub fn read(dir: &UsageDir, args: &JudgingArgs) -> Result<(Vec<mur_usage::Record>, usize, Read)> {
    let (server, only_named) = (&args.server_logs, args.only_named);
    let own = dir.log();
    // Not read, no file of it is "read already": a `--server-log` naming it is read.
    let own_files = if only_named { Vec::new() } else { own.files() };
    let mut reader = LogReader::default();
    let mut read = Read::default();
    read.logs.only_named = only_named;
    if !own_files.is_empty() {
        // Each file by its own name: the live one (none the moment after a rotation),
        // then the rotated ones most records may come from.
        let (live, rotated): (Vec<&PathBuf>, Vec<&PathBuf>) = own_files
            .iter()
            .partition(|file| file.as_path() == own.path());
        read.logs.mur = live.first().map(|file| named_path(file));
        read.logs.mur_rotated = rotated.into_iter().map(|file| named_path(file)).collect();
        reader.read(&[own]).map_err(crate::usage::error)?;
    }
    for path in server {
        let (before, records) = (reader.read.len(), reader.records.len());
        reader
            .read(&[UsageLog::named(path.clone())])
            .map_err(crate::usage::error)?;
        let these = &reader.records[records..];
        let newest = these.iter().map(|r| &r.time).max();
        if newest > read.newest_named.as_ref() {
            read.newest_named = newest.cloned();
        }
        // One read already (given twice, mur's own) is said below, and named once.
        if reader.read.len() > before {
            read.logs.server_logs.push(named_path(path));
            read.named_sides.push(Sides::of(these));
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
    if !only_named {
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
        skipped_in,
        ..
    } = reader;
    read.files = files;
    read.skipped_in = skipped_in;
    Ok((records, skipped, read))
}

/// Says on stderr how many lines of the logs were not records, if any, and where
/// (`skipped_in`): of many logs (a study's 51 `--server-log`), the few that hold them,
/// the first such line of each.
pub fn skipped_notice(report: &Report, skipped_in: &[mur_usage::Skipped]) {
    const NAMED: usize = 3;
    if report.skipped_lines == 0 {
        return;
    }
    let mut files: Vec<String> = skipped_in
        .iter()
        .take(NAMED)
        .map(|s| {
            let path = output::line(&s.path.display().to_string());
            match s.lines {
                1 => format!("1 in `{path}` (line {})", s.first_line),
                n => format!("{n} in `{path}` (the first at line {})", s.first_line),
            }
        })
        .collect();
    if skipped_in.len() > NAMED {
        files.push(format!("and in {} more logs", skipped_in.len() - NAMED));
    }
    output::notice(&format!(
        "{} line(s) of the usage logs are not records and were skipped: {}",
        report.skipped_lines,
        files.join(", ")
    ));
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

/// Says on stderr when the log (of `agent`) holds no record of `agent` at all, and
/// when recording is off (since a time in the window); and, for `verbs prune` (not `in_report`), as
/// a `note:`, when it is too young to call any verb unused (when there are verbs to
/// `judge`: named ones installed), or the window begins where no log recorded (after the
/// logs named, after now). A report says that last under its losers, once: it is every new
/// user's state for a month, no warning. Each is said whatever else is: a time recording
/// was off hides no misspelled `--agent`. The notes are left out under `quiet` (`-q`), as
/// every command's are; the warnings stay.
pub fn not_covered_notice(
    report: &Report,
    agent: Option<&str>,
    judging: bool,
    in_report: bool,
    quiet: bool,
) {
    let unknown_agent = agent.is_some_and(|agent| !report.agents.iter().any(|a| a == agent));
    if report.window_covered || !(judging || unknown_agent) {
        return;
    }
    // Still off: said as a warning, with the way out. (An ended time recording was off
    // only lengthened the window, said beside the losers.)
    let still_off = report
        .recording_off
        .as_ref()
        .is_some_and(|off| off.to.is_none());
    if let (true, Some(why)) = (still_off, report.unused_not_judged()) {
        output::notice(&why);
        output::diagnostic("hint: `mur devtools usage on` turns it on");
    }
    if !unknown_agent && (in_report || report.reaches_back) {
        return;
    }
    let note = |why: &str| {
        if !quiet {
            output::diagnostic(&format!("note: {why}"));
        }
    };
    // The logs named end before the window, or it begins after now: said as such, not
    // as a log too young.
    let unrecorded = (report.named_logs_ended()).or_else(|| report.window_ahead());
    if let (false, Some(why)) = (unknown_agent, unrecorded) {
        note(&why);
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
        note(&line);
    }
}

/// Says on stderr, in a warning each, the names `--only-verbs` gave (`args`) that are no
/// installed verb (of `entries`): they are not judged, as no verb of theirs is, and a slip
/// (`clik`) would leave the verb meant unjudged unseen. The installed ones are judged.
pub fn only_verbs_notice(args: &JudgingArgs, entries: &[Entry]) {
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    for why in not_installed(&args.only_verbs, &names) {
        output::notice(&why);
    }
}

/// What [`only_verbs_notice`] says of each name of `only` not among `installed`, once
/// each, with the installed verb it likely meant ([`mur_core::choice_meant`]).
fn not_installed(only: &[String], installed: &[&str]) -> Vec<String> {
    let mut said: Vec<&str> = Vec::new();
    let mut warnings = Vec::new();
    for name in only {
        if installed.contains(&name.as_str()) || said.contains(&name.as_str()) {
            continue;
        }
        said.push(name);
        let meant = match mur_core::choice_meant(name, installed.iter().copied()) {
            Some(meant) => format!(" (did you mean `{meant}`?)"),
            None => String::new(),
        };
        warnings.push(format!(
            "`--only-verbs`: `{}` is not an installed verb, so it is not judged{meant}",
            output::line(name)
        ));
    }
    warnings
}

/// `names` (a log's, whoever wrote it) joined by commas, each one bounded line:
/// a newline in one must not start a line that reads as mur's own `error:`.
pub fn one_line_each(names: &[String]) -> String {
    let names: Vec<String> = names.iter().map(|n| output::one_line(n)).collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name `--only-verbs` gives that is not installed is said once, with the installed
    /// verb it is likely a slip of, case aside; an installed name, nothing.
    #[test]
    fn only_verbs_names_not_installed_are_said_with_the_verb_meant() {
        let only = ["click", "clik", "Tree", "zzzz", "clik"].map(str::to_owned);
        assert_eq!(
            not_installed(&only, &["click", "tree", "scroll"]),
            [
                "`--only-verbs`: `clik` is not an installed verb, so it is not judged (did you \
                 mean `click`?)",
                "`--only-verbs`: `Tree` is not an installed verb, so it is not judged (did you \
                 mean `tree`?)",
                "`--only-verbs`: `zzzz` is not an installed verb, so it is not judged",
            ]
        );
        assert_eq!(not_installed(&only[..1], &["click"]), Vec::<String>::new());
    }
}
