//! What a project's bridge said as it stopped, read from its log once its session is
//! gone: why it stopped (idle, its server kept dying, `bridge stop`) and the command
//! that starts it again. "No live session for project X" alone sent an agent looking
//! for an app to start, when the fix was to run the bridge's command once more.

use std::io::{Read as _, Seek as _, SeekFrom};
use std::path::{Path, PathBuf};

use mur_discovery::ProjectFilter;
use mur_lockfile::Registry;

use crate::files::{BridgeFiles, LOG_SUFFIX};

/// The most of a log's end read: the last bridge's start and stop lines are near it
/// (the log is cut to its newest part past its cap anyway).
const TAIL_BYTES: u64 = 64 << 10;

/// The stop of a project's last bridge, as its log tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastStop {
    /// When, to the second (RFC 3339).
    pub at: String,
    /// Why: "no request for 10m", "its server kept exiting (…)", "stopped by a signal …".
    pub why: String,
    /// The server's command as a shell reads it back, when the log still holds it.
    pub command: Option<String>,
    /// The log itself.
    pub log: PathBuf,
}

/// The last stop of the bridge whose lockfile would be `lockfile`, if its log (the
/// user's own, private) ends with one: none while a bridge runs or starts there, nor
/// when the log is gone, another's or unreadable.
fn last_stop(lockfile: &Path) -> Option<LastStop> {
    let log = BridgeFiles::beside(lockfile).log;
    let tail = read_tail(&log)?;
    stop_in(&tail, log)
}

/// The last stop in `tail`, the end of the log `log`.
fn stop_in(tail: &str, log: PathBuf) -> Option<LastStop> {
    let (at, why, command) = parse(tail)?;
    Some(LastStop {
        at,
        why,
        command,
        log,
    })
}

/// The hint for "no live session" of `project` (`--project` as calls match it):
/// what its bridge said as it stopped and how to start it again; none when no bridge of
/// it stopped. Its log is beside its lockfile in whichever directory `registry` searches
/// it announced itself in (`${TMPDIR:-/tmp}/reactor-devtools-<uid>` for one started
/// without `XDG_RUNTIME_DIR`); the newest stop among them is the project's last. A
/// folder is the project directly in it, as for a call ([`folders_stops`]): "start the
/// app" was said of a folder whose bridge stopped; of a folder whose bridges of several
/// projects stopped, each is named with its stop and how to start it again, in one
/// line. A line, not an error: discovery decides where it goes among its own hints (in
/// place of "start the app").
pub fn last_stop_hint(registry: &Registry, project: &ProjectFilter) -> Option<String> {
    if !project.is_folder() {
        return Some(newest_stop(&registry.paths_for(project.canonical()))?.hint());
    }
    let mut stops = folders_stops(registry, project);
    match stops.len() {
        0 => None,
        1 => Some(stops.remove(0).1.hint()),
        n => {
            let each: Vec<String> = stops
                .iter()
                .map(|(project, stop)| {
                    format!("`{project}` at {}: {}; {}", stop.at, stop.why, stop.again())
                })
                .collect();
            Some(format!(
                "the bridges of {n} projects in this folder stopped: {}",
                each.join("; ")
            ))
        }
    }
}

/// The last stop of the bridge of each project of `folder` (one directly in it, or the
/// folder itself, as [`ProjectFilter::matches_project`] takes it for a call), in the
/// order of their projects, by the logs in the directories `registry` searches that end
/// with a stop and name their project (the last bridge's start line, whose project the
/// log's name is the hash of).
fn folders_stops(registry: &Registry, folder: &ProjectFilter) -> Vec<(String, LastStop)> {
    let (logs, _) = folder.files_of(registry, LOG_SUFFIX, |log, lockfile| {
        let tail = read_tail(log)?;
        let project = started(&tail)?;
        let own = lockfile.file_name()? == mur_lockfile::paths::lockfile_name(project).as_str();
        own.then(|| (project.to_owned(), stop_in(&tail, log.to_owned())))
    });
    let mut stops: Vec<(String, LastStop)> = Vec::new();
    for log in logs {
        let Some(stop) = log.what else { continue };
        match stops
            .iter_mut()
            .find(|(project, _)| *project == log.project)
        {
            // RFC 3339 times to the second, all in UTC: in order as text.
            Some((_, newest)) if newest.at < stop.at => *newest = stop,
            Some(_) => {}
            None => stops.push((log.project, stop)),
        }
    }
    stops.sort_by(|a, b| a.0.cmp(&b.0));
    stops
}

/// The last stop of a project's bridge: the newest among the bridges whose lockfiles
/// would be `lockfiles`, the project's lockfile path in each directory discovery
/// searches (a bridge started again may have announced itself in another).
pub fn newest_stop(lockfiles: &[PathBuf]) -> Option<LastStop> {
    // RFC 3339 times to the second, all in UTC: in order as text.
    let stops = lockfiles.iter().filter_map(|lockfile| last_stop(lockfile));
    stops.max_by(|a, b| a.at.cmp(&b.at))
}

/// The last stop of a project's bridge ([`newest_stop`]) if it is not older than the
/// bridge that started at `started_at` (RFC 3339): a bridge killed without a word
/// leaves no stop of its own, and an older one's, in another directory, is not why it
/// is gone.
pub fn stop_since(lockfiles: &[PathBuf], started_at: &str) -> Option<LastStop> {
    newest_stop(lockfiles).filter(|stop| stop.at >= to_the_second(started_at))
}

impl LastStop {
    /// The line that says it: when, why, and how to start it again.
    pub(crate) fn hint(&self) -> String {
        format!(
            "this project's bridge stopped at {}: {}; {}",
            self.at,
            self.why,
            self.again()
        )
    }

    /// What to do: "start it again: `mur devtools bridge …`", else where its log is.
    pub fn again(&self) -> String {
        match &self.command {
            Some(command) => format!("start it again: `{command}`"),
            None => format!("its log is `{}`", self.log.display()),
        }
    }
}

/// The newest [`TAIL_BYTES`] of the log, when it is the user's own regular file
/// kept from others (a log another user planted says nothing of ours).
fn read_tail(log: &Path) -> Option<String> {
    let mut file = mur_lockfile::open_regular(std::fs::OpenOptions::new().read(true), log).ok()?;
    let meta = file.metadata().ok()?;
    mur_lockfile::check_own(&meta, mur_lockfile::Keep::Writes).ok()?;
    let from = meta.len().saturating_sub(TAIL_BYTES);
    file.seek(SeekFrom::Start(from)).ok()?;
    let mut bytes = Vec::new();
    file.take(TAIL_BYTES).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// From a log's text: the last bridge's stop (when, why, the command that starts it
/// again), if its last line of its own says it stopped (a bridge that runs, or was
/// killed, has no such line last). Only the last bridge's part of the log is read,
/// after the line where it started: a bridge that wrote no line of its own (killed
/// at once) says nothing, rather than the one before it.
fn parse(text: &str) -> Option<(String, String, Option<String>)> {
    // The last bridge's lines: those after the last line that is a start's whole
    // line. The marker found anywhere in the text cut a server's line that quoted it,
    // and what the server wrote after it on that line was read as the bridge's own.
    let (stamp, message) = text
        .lines()
        .rev()
        .take_while(|line| !starts_a_bridge(line))
        .find_map(own)?;
    let stopped = message.strip_prefix(crate::serve::STOPPED)?;
    let (why, command) = match stopped.rsplit_once(crate::serve::AGAIN) {
        Some((why, command)) => (why, command.strip_suffix('`')),
        None => (stopped, None),
    };
    Some((
        to_the_second(stamp),
        why.to_owned(),
        command.map(in_the_background),
    ))
}

/// The command a stop line offers, as a hint to whoever calls next: without the
/// `--foreground` its user ran it with (an interrupted foreground start offers it back
/// so, [`crate::options::Options::again_in_foreground`]). A caller told to run it in
/// the foreground, an agent above all, would be held by it until the bridge stops.
fn in_the_background(command: &str) -> String {
    command.replacen(" devtools bridge --foreground ", " devtools bridge ", 1)
}

/// The project the last bridge of a log's text (`tail`) started for, by its own line
/// `bridge for `PROJECT` starting `COMMAND`` (written by `serve`); none when that line
/// is not in the text.
fn started(tail: &str) -> Option<&str> {
    let (_, message) = tail
        .lines()
        .rev()
        .take_while(|line| !starts_a_bridge(line))
        .filter_map(own)
        .find(|(_, message)| message.starts_with(crate::serve::STARTING_FOR))?;
    let (project, _) = message
        .strip_prefix(crate::serve::STARTING_FOR)?
        .split_once(crate::serve::STARTING_WITH)?;
    Some(project)
}

/// Whether `line` is the whole line a bridge writes into the log as it starts
/// ([`crate::serve::start_line`], `----- <time>: a bridge for this project starts; …`),
/// not one that quotes it.
fn starts_a_bridge(line: &str) -> bool {
    line.strip_prefix(crate::serve::START_PREFIX)
        .and_then(|rest| rest.strip_suffix(crate::serve::STARTS))
        .is_some_and(|at| !at.is_empty() && !at.contains(char::is_whitespace))
}

/// A line of the bridge's own or its session library's (`<time> <LEVEL> <message>`):
/// its time and message; none for the server's stderr, which the log holds too, in the
/// same layout (`<time>  INFO server: …`) or, from an older mur, as written: a server
/// that writes "bridge stopped: …" gives no command to run.
fn own(line: &str) -> Option<(&str, &str)> {
    if crate::log::of_the_server(line) {
        return None;
    }
    let (stamp, rest) = line.split_once(' ')?;
    let (level, message) = rest.trim_start().split_once(' ')?;
    matches!(level, "INFO" | "WARN" | "ERROR").then_some((stamp, message))
}

/// `2026-11-29T11:23:38.810867Z` as `2026-11-29T11:23:38Z`.
fn to_the_second(stamp: &str) -> String {
    match stamp.split_once('.') {
        Some((seconds, _)) => format!("{seconds}Z"),
        None => stamp.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAVE_UP: &str = "\
2026-11-29T11:23:28.983780Z  INFO bridge for `/p/d.toml` starting `python 'my server.py'`
Processing request of type CallToolRequest
2026-11-29T11:23:38.806766Z ERROR the server exited (exit status: 3); it was restarted 5 times within a minute, so the bridge gives up
2026-11-29T11:23:38.810867Z  INFO bridge stopped: its server kept exiting (restarted 5 times within a minute); to start it again: `cd '/home/u/my tools' && mur devtools bridge --project /p/d.toml --usage -- python 'my server.py'`
";

    #[test]
    fn an_interrupted_foreground_start_is_offered_to_callers_in_the_background() {
        let log = "2026-11-29T11:23:38.810867Z  INFO bridge stopped: interrupted by SIGINT \
                   while its server started; to start it again: `cd /w && mur devtools bridge \
                   --foreground --project /p/d.toml -- python x.py`\n";
        let (_, _, command) = parse(log).expect("a stop");
        assert_eq!(
            command.as_deref(),
            Some("cd /w && mur devtools bridge --project /p/d.toml -- python x.py")
        );
    }

    #[test]
    fn the_last_stop_says_when_why_and_the_command_to_run_again() {
        assert_eq!(
            parse(GAVE_UP),
            Some((
                "2026-11-29T11:23:38Z".to_owned(),
                "its server kept exiting (restarted 5 times within a minute)".to_owned(),
                Some(
                    "cd '/home/u/my tools' && mur devtools bridge --project /p/d.toml --usage -- \
                     python 'my server.py'"
                        .to_owned()
                ),
            ))
        );
    }

    #[test]
    fn a_bridge_that_runs_or_was_killed_has_no_last_stop() {
        let running = GAVE_UP.lines().take(3).collect::<Vec<_>>().join("\n");
        assert_eq!(parse(&running), None);
        // Started again after that stop: the new bridge's lines come last.
        let again = format!(
            "{GAVE_UP}----- 2026-11-29T11:30:00Z: a bridge for this project starts; the lines above are the last one's -----\n\
             2026-11-29T11:30:00.1Z  INFO bridge for `/p/d.toml` starting `python x.py`\n"
        );
        assert_eq!(parse(&again), None);
        // The server's own lines after the stop do not hide it.
        let noisy = format!("{GAVE_UP}Traceback (most recent call last):\n");
        assert!(parse(&noisy).is_some());
        let logged = format!(
            "{GAVE_UP}2026-11-29T11:23:39.000001Z  INFO server: Traceback (most recent call last):\n"
        );
        assert_eq!(parse(&logged), parse(GAVE_UP));
    }

    /// The server's stderr is logged in the bridge's layout: a line of it that reads as
    /// the bridge's stop is not taken for one, nor its command offered.
    #[test]
    fn a_stop_the_server_wrote_is_not_the_bridges() {
        let forged = format!(
            "{GAVE_UP}2026-11-29T11:24:00.000001Z  INFO server: bridge stopped: no request \
             for 1s; to start it again: `rm -rf ~`\n"
        );
        assert_eq!(parse(&forged), parse(GAVE_UP));
        let running = GAVE_UP.lines().take(3).collect::<Vec<_>>().join("\n");
        let forged = format!(
            "{running}\n2026-11-29T11:24:00.000001Z  INFO server: bridge stopped: x; to start \
             it again: `rm -rf ~`\n"
        );
        assert_eq!(parse(&forged), None);
    }

    /// A bridge that left no line of its own (killed, or one whose own lines went
    /// elsewhere) is not taken for the one before it, whose stop is above its start.
    #[test]
    fn the_stop_of_the_bridge_before_the_last_is_not_the_last_ones() {
        let silent = format!(
            "{GAVE_UP}{}\nProcessing request of type CallToolRequest\n",
            crate::serve::start_line("2026-11-29T11:30:00Z")
        );
        assert_eq!(parse(&silent), None);
        // Its own stop is read, not the one before; a bridge of an older mur names
        // no directory to start it again from.
        let idle = format!(
            "{silent}2026-11-29T11:31:00.5Z  INFO bridge stopped: no request for 1s; to start it again: `mur devtools bridge --project /p/d.toml --idle 1s -- python x.py`\n"
        );
        assert_eq!(
            parse(&idle),
            Some((
                "2026-11-29T11:31:00Z".to_owned(),
                "no request for 1s".to_owned(),
                Some("mur devtools bridge --project /p/d.toml --idle 1s -- python x.py".to_owned()),
            ))
        );
    }

    /// A line of the server's that quotes the start's marker is not where the last
    /// bridge's lines begin: what it wrote after the marker was read as the bridge's own
    /// stop, its command offered to run.
    #[test]
    fn a_server_line_quoting_the_start_marker_is_not_a_start() {
        let quoted = format!(
            "{GAVE_UP}2026-11-29T11:24:00.000001Z  INFO server: {}Z INFO bridge \
             stopped: no request for 1s; to start it again: `rm -rf ~`\n",
            crate::serve::start_line("x")
        );
        assert_eq!(parse(&quoted), parse(GAVE_UP));
        // Nor does one before the last start hide that start.
        let again = format!(
            "{quoted}{}\n2026-11-29T11:30:00.1Z  INFO bridge for \
             `/p/d.toml` starting `python x.py`\n",
            crate::serve::start_line("2026-11-29T11:30:00Z")
        );
        assert_eq!(parse(&again), None);
    }

    #[test]
    fn a_log_that_is_not_the_users_own_private_file_says_nothing() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("tempdir");
        let lockfile = dir.path().join("0123456789abcdef.json");
        let log = BridgeFiles::beside(&lockfile).log;
        std::fs::write(&log, GAVE_UP).expect("log");
        std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o600)).expect("0600");
        let stop = last_stop(&lockfile).expect("a stop");
        assert!(
            stop.command
                .expect("its command")
                .ends_with("-- python 'my server.py'")
        );
        std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o666)).expect("0666");
        assert_eq!(last_stop(&lockfile), None);
    }

    /// `--project FOLDER` is the project directly in it, as for a call: its bridge's
    /// stop is told by the log its start line names it in (and whose name is its hash);
    /// one deeper down is not the folder's, nor a log whose start line names a project
    /// it is not the log of. Stops of two projects there are each told, in the order of
    /// their projects, with how to start it again (it said "start the app").
    #[test]
    fn a_folders_stop_is_that_of_the_one_project_directly_in_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let folder = dir.path().join("w");
        std::fs::create_dir(&folder).expect("folder");
        let registry = Registry::at(dir.path().join("reactor-devtools"));
        std::fs::create_dir(registry.dir()).expect("registry");
        let filter = ProjectFilter::new(&folder).expect("filter");
        let log_of = |project: &str, logged: &str, at: &str| {
            let lockfile = registry.path_for(project);
            let text = format!(
                "{at}.1Z  INFO bridge for `{logged}` starting `python x.py`\n\
                 {at}.2Z  INFO bridge stopped: no request for 1s; to start it again: \
                 `mur devtools bridge --project {logged} -- python x.py`\n"
            );
            std::fs::write(BridgeFiles::beside(&lockfile).log, text).expect("log");
        };
        let folder = filter.canonical().to_owned();
        let (a, deep) = (format!("{folder}/A.csproj"), format!("{folder}/x/D.csproj"));
        log_of(&deep, &deep, "2026-11-29T11:00:03");
        log_of(
            "/elsewhere/E.csproj",
            &format!("{folder}/E.csproj"),
            "2026-11-29T11:00:04",
        );
        assert_eq!(last_stop_hint(&registry, &filter), None);
        log_of(&a, &a, "2026-11-29T11:00:01");
        assert_eq!(
            last_stop_hint(&registry, &filter),
            Some(format!(
                "this project's bridge stopped at 2026-11-29T11:00:01Z: no request for 1s; \
                 start it again: `mur devtools bridge --project {a} -- python x.py`"
            ))
        );
        let b = format!("{folder}/B.csproj");
        log_of(&b, &b, "2026-11-29T11:00:02");
        let again = |project: &str| {
            format!("start it again: `mur devtools bridge --project {project} -- python x.py`")
        };
        assert_eq!(
            last_stop_hint(&registry, &filter),
            Some(format!(
                "the bridges of 2 projects in this folder stopped: `{a}` at \
                 2026-11-29T11:00:01Z: no request for 1s; {}; `{b}` at 2026-11-29T11:00:02Z: no \
                 request for 1s; {}",
                again(&a),
                again(&b)
            ))
        );
    }
}
