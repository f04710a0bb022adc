//! `mur devtools session list` and `session clean`: the lockfile directory
//! as the user sees it. Neither ever stops a process.

use std::path::{Path, PathBuf};

use mur_bridge::{BridgeFiles, Sidecar};
use mur_core::settings::{Settings, Source};
use mur_core::{Error, Result};
use mur_discovery::{self as discovery, Candidate, Found, ProjectFilter, Report as _, Survey};
use mur_lockfile::{LOCKFILE_SCHEMA, Lockfile};

use crate::cli::SessionCommand;
use crate::output::{self, Notices};

/// Runs `cmd`. `--endpoint` never reaches here: no `session` command reads it, so the
/// host refuses it first, as any host option a command does not read (`cli::COMMAND_READS`).
pub async fn run(cmd: &SessionCommand, settings: &Settings) -> Result<()> {
    match cmd {
        SessionCommand::List { json } => list(settings, *json).await,
        SessionCommand::Clean { dry_run } => clean(*dry_run, settings).await,
    }
}

/// One JSON line of lockfile fields per live session (a table with
/// `--pretty`); exit 4 when there is none, 2 when the only sessions there
/// are did not answer. Stale lockfiles are removed on the way, each one of a
/// session that would be listed said in a `note:` (its app crashed or was killed:
/// not a session that never ran). `--auto` adds sessions found by a port scan. With
/// `--project`, only that project's sessions count, for the listing and the
/// exit code alike: `session list --project P` is how a script asks whether
/// P's session (a bridge that may have stopped when idle) is still up. Ports the scan
/// found answering HTTP, not as devtools sessions, are named with the `--endpoint` that
/// reaches an MCP server there: in a hint under exit 4, else in a `note:`; ports the scan
/// passed over (its probes' time spent on listeners that never answer) are counted in a
/// hint under exit 4, else in a `warning:`.
async fn list(settings: &Settings, json: bool) -> Result<()> {
    // `--timeout` bounds the listing, the stale lockfiles' removal on the way included.
    let deadline = std::time::Instant::now() + settings.timeout;
    let http = mur_http::Http::new();
    let registry = discovery::registry();
    let project = settings
        .project
        .as_deref()
        .map(ProjectFilter::new)
        .transpose()?;
    let meant = |c: &Candidate| project.as_ref().is_none_or(|p| p.matches(c));
    // One `--timeout` for the survey and the scan together.
    let (survey, others, sessions, scan_said) =
        discovery::within(settings.timeout, "reading the sessions", async {
            let mut survey =
                discovery::survey(&registry, &http, &mut Notices, Some(deadline)).await?;
            // Every live session is probed, not only the project's: when the project
            // has none, the error lists the others (`--project` may name the wrong file).
            let (live, others): (Vec<Found>, Vec<Found>) = std::mem::take(&mut survey.live)
                .into_iter()
                .partition(|f| meant(&Candidate::from_lockfile(f)));
            survey.live = live;
            survey
                .unresponsive
                .retain(|(f, _)| meant(&Candidate::from_lockfile(f)));
            survey
                .impostors
                .retain(|(f, _)| meant(&Candidate::from_lockfile(f)));
            let mut sessions: Vec<Lockfile> = survey.live.iter().map(|f| f.lock.clone()).collect();
            // By project, as every list of sessions is: the directory's order (of hashes)
            // means nothing to a reader.
            sessions.sort_by(|a, b| a.project.cmp(&b.project));
            let mut scan_said = None;
            if let Source::Auto(range) = settings.source {
                let mut scanned = discovery::scan(&http, range, &Notices).await;
                let found = std::mem::take(&mut scanned.sessions);
                let found = found.into_iter().filter(|c| meant(c)).collect();
                sessions.extend(unlisted(found, &sessions));
                scan_said = Some(ScanSaid {
                    searched: scanned.searched(),
                    passed_over: scanned.passed_over(),
                    not_devtools: scanned.not_devtools(&http).await,
                });
            }
            Ok((survey, others, sessions, scan_said))
        })
        .await?;
    let removed = survey.collect_garbage(&registry, &mut Notices, Some(deadline));
    if !settings.quiet {
        let meant = |f: &Found| project.as_ref().is_none_or(|p| p.matches_lockfile(f));
        for line in discovery::ended_notes(survey.ended(&removed, meant)) {
            discovery::Report::note(&mut Notices, line);
        }
    }
    // Said as every command that reads the sessions says it: a lockfile skipped
    // unsaid made "no running devtools session found" the only word on a session
    // whose endpoint is off loopback, or another program's.
    survey.report_impostors(&mut Notices);
    if sessions.is_empty() {
        // The error names the sessions that did not answer: no warning says it first.
        let error = nothing_live(&survey, &registry);
        let error = match &project {
            Some(project) if survey.unresponsive.is_empty() => {
                none_of_project(project, &others, &registry)
            }
            _ => error,
        };
        // What the scan met, as `--auto`'s error for a call says it.
        return Err(match scan_said {
            Some(said) => (said.not_devtools.into_iter())
                .fold(error.with_hint(said.searched), Error::with_hint),
            None => error,
        });
    }
    if let Some(said) = scan_said {
        said.tell(settings.quiet);
    }
    survey.report_unresponsive(&mut Notices);
    let bridges: Vec<Option<Sidecar>> = sessions.iter().map(|l| bridge(&survey, l)).collect();
    if settings.pretty && !json {
        output::stdout(table(&sessions, &bridges).as_bytes())
    } else {
        let mut text = String::new();
        for lock in &sessions {
            text.push_str(&line(&survey, lock));
            text.push('\n');
        }
        output::stdout(text.as_bytes())
    }
}

/// What `--auto`'s scan has to say beside the sessions it found, in the words of the
/// hints under its "no session" ([`discovery::Scanned`]).
struct ScanSaid {
    /// The ports scanned, and those passed over: the hint under "no session".
    searched: String,
    /// The ports passed over, said to a listing ([`discovery::Scanned::passed_over`]).
    passed_over: Option<String>,
    /// The ports that answered HTTP, not as devtools sessions.
    not_devtools: Option<String>,
}

impl ScanSaid {
    /// Said beside a listing: a third-party MCP server the scan met, named with its
    /// `--endpoint` (`--auto` lists devtools sessions only), in a note; the ports it
    /// passed over in a warning, whatever `-q` says: a session among them would be
    /// missing from a list that reads as whole.
    fn tell(self, quiet: bool) {
        if let Some(not_devtools) = self.not_devtools
            && !quiet
        {
            discovery::Report::note(&mut Notices, not_devtools);
        }
        if let Some(passed_over) = self.passed_over {
            Notices.notice(passed_over);
        }
    }
}

/// A session's line: its lockfile's fields, and a bridge's `log`.
fn line(survey: &Survey, lock: &Lockfile) -> String {
    match survey.live.iter().find(|f| f.lock == *lock) {
        Some(found) => mur_bridge::session_line(&found.path, lock),
        None => serde_json::to_string(lock).unwrap_or_default(),
    }
}

/// What a session that is a bridge (`mur devtools bridge`) says of itself: its
/// server's command and its log.
fn bridge(survey: &Survey, lock: &Lockfile) -> Option<Sidecar> {
    let found = survey.live.iter().find(|f| f.lock == *lock)?;
    mur_bridge::bridge_of(&found.path, lock)
}

/// A bridged server's command line as a shell reads it back, each word quoted when
/// it needs to be, as one bounded line: the command is the server's to choose (a
/// word may hold anything), and it is what tells one bridge from another.
fn command_line(command: &[String]) -> String {
    let words: Vec<String> = command.iter().map(|w| mur_core::shell_word(w)).collect();
    output::one_line(&words.join(" "))
}

/// Sessions the port scan found that no lockfile names, in the lockfile's
/// shape: the probe carries the same identity facts.
fn unlisted(scanned: Vec<Candidate>, listed: &[Lockfile]) -> Vec<Lockfile> {
    scanned
        .into_iter()
        .filter(|c| !listed.iter().any(|l| l.endpoint == c.endpoint))
        .map(|c| Lockfile {
            schema: LOCKFILE_SCHEMA.to_owned(),
            port: port_of(&c.endpoint),
            endpoint: c.endpoint,
            transport: c.transport,
            pid: c.pid,
            build_tag: c.build_tag,
            project: c.project,
            started_at: c.started_at,
        })
        .collect()
}

fn port_of(endpoint: &str) -> u16 {
    reqwest::Url::parse(endpoint)
        .ok()
        .and_then(|url| url.port())
        .unwrap_or(0)
}

fn nothing_live(survey: &Survey, registry: &mur_lockfile::Registry) -> Error {
    if let Some((found, _)) = survey.unresponsive.first() {
        return Error::transport("no session answered its probe")
            .with_list(survey.unresponsive_lines())
            .with_hint(format!(
                "is it stopped in a debugger or overloaded? `kill -CONT {}` resumes a stopped process",
                found.lock.pid
            ));
    }
    Error::no_session("no running devtools session found").with_hint(format!(
        "sessions announce themselves in {}",
        registry.searched()
    ))
}

/// `--project` named a project with no live session: exit 4, as with no session at
/// all, naming the sessions of other projects (the path may be the wrong file).
fn none_of_project(
    project: &ProjectFilter,
    others: &[Found],
    registry: &mur_lockfile::Registry,
) -> Error {
    let error = Error::no_session(format!(
        "no live devtools session for project `{}`",
        project.canonical()
    ));
    if others.is_empty() {
        return error.with_hint(format!(
            "sessions announce themselves in {}",
            registry.searched()
        ));
    }
    let mut others: Vec<Candidate> = others.iter().map(Candidate::from_lockfile).collect();
    others.sort_by(|a, b| a.project.cmp(&b.project));
    let others: Vec<&Candidate> = others.iter().collect();
    error.with_list(discovery::session_rows(&others)).with_hint(
        "these sessions are of other projects: `mur devtools session list` lists them all",
    )
}

/// The sessions for people; when a bridge is among them, a COMMAND column (the
/// server it runs, next to the project: what tells two bridges apart) and a LOG
/// column.
fn table(live: &[Lockfile], bridges: &[Option<Sidecar>]) -> String {
    let with_bridges = bridges.iter().any(Option::is_some);
    let rows: Vec<Vec<String>> = live
        .iter()
        .zip(bridges)
        .map(|(lock, bridge)| {
            let mut row = vec![lock.project.clone()];
            if with_bridges {
                row.push(
                    bridge
                        .as_ref()
                        .map_or_else(String::new, |b| command_line(&b.command)),
                );
            }
            row.extend([
                lock.transport.as_str().to_owned(),
                lock.endpoint.clone(),
                lock.pid.to_string(),
                lock.started_at.clone(),
            ]);
            if with_bridges {
                let log = bridge
                    .as_ref()
                    .map(|b| b.log.to_string_lossy().into_owned());
                row.push(log.unwrap_or_default());
            }
            row
        })
        .collect();
    let header: &[&str] = if with_bridges {
        &[
            "PROJECT",
            "COMMAND",
            "TRANSPORT",
            "ENDPOINT",
            "PID",
            "STARTED",
            "LOG",
        ]
    } else {
        &["PROJECT", "TRANSPORT", "ENDPOINT", "PID", "STARTED"]
    };
    output::table(header, &rows)
}

/// What `session clean` says while it reads the directory: every notice but that a
/// malformed lockfile is skipped and `session clean` removes it — it is removing it,
/// and says how many in its last line.
struct Cleaning;

impl discovery::Report for Cleaning {
    fn notice(&mut self, message: String) {
        discovery::Report::notice(&mut Notices, message);
    }

    fn malformed(&mut self, _path: &std::path::Path, _why: &str) {}

    fn more_malformed(&mut self, _count: usize) {}
}

/// Removes lockfiles whose process is gone, files named like lockfiles that are
/// none (malformed: an empty directory too, never one with files in it), and what ended
/// sessions left beside their lockfiles: slot locks, temporary files of writes whose
/// writer is gone, and bridges' sidecars and logs (up to 4 MiB each, in a directory that is
/// often in memory; [`mur_lockfile::Leftovers`] says which and when). A lockfile
/// whose process runs is never touched, even when its endpoint does not answer: the
/// session may be busy, and a wrong removal would hide a live session from
/// discovery; nor are the files of its project. Each file it cannot remove is named in
/// a warning, and the clean exits 7 after its count of what it removed.
async fn clean(dry_run: bool, settings: &Settings) -> Result<()> {
    let http = mur_http::Http::new();
    let registry = discovery::registry();
    // Before the survey: the slot locks it takes to remove stale lockfiles are made
    // (and removed) by this command, none the user had.
    let leftovers = registry.leftovers(BridgeFiles::all_beside);
    let deadline = std::time::Instant::now() + settings.timeout;
    let survey = discovery::within(
        settings.timeout,
        "reading the sessions",
        discovery::survey(&registry, &http, &mut Cleaning, Some(deadline)),
    )
    .await?;
    if dry_run {
        let stale = would_go(survey.stale.iter().map(|found| found.path.as_path()));
        let malformed = would_go(survey.malformed.iter().map(PathBuf::as_path));
        // What the clean cannot remove, said as it says it (and left out of the list).
        let judged = survey.stale.iter().map(|found| found.path.as_path());
        for lockfile in judged.chain(survey.malformed.iter().map(PathBuf::as_path)) {
            if let Some(broken) = unremovable_slot(lockfile) {
                Cleaning.notice(discovery::unremoved(lockfile, &broken));
            }
        }
        let going: Vec<&Path> = stale.iter().chain(&malformed).copied().collect();
        let left = leftovers.removable(&going);
        let mut names = Vec::new();
        for path in going
            .iter()
            .copied()
            .chain(left.iter().map(PathBuf::as_path))
        {
            names.extend(mur_core::shell_name(path.as_os_str()).into_bytes());
            names.push(b'\n');
        }
        output::stdout(&names)?;
        output::diagnostic(&format!(
            "would remove {}",
            counted(stale.len(), malformed.len(), left.len())
        ));
        return Ok(());
    }
    let mut failed = Failures(0);
    let removed = survey.clean_garbage(&registry, &mut failed).len();
    let mut cleared = 0;
    for path in &survey.malformed {
        match registry.remove_if_malformed(path) {
            Ok(true) => cleared += 1,
            Ok(false) => {}
            Err(e) => failed.notice(discovery::unremoved(path, &e)),
        }
    }
    let left = leftovers.clear();
    // The lockfile crate's line, naming the file: escaped whole.
    for failure in &left.failed {
        failed.notice(mur_core::text::escape_value(&failure.to_string()).into_owned());
    }
    output::diagnostic(&format!(
        "removed {}",
        counted(removed, cleared, left.removed.len())
    ));
    match failed.0 {
        0 => Ok(()),
        // Not a clean one: a script that cleans up must not take it for one.
        n => Err(Error::internal(format!(
            "{n} of the files to remove could not be removed (each is named above)"
        ))),
    }
}

/// Of the lockfiles judged stale or malformed, those the clean would remove: the real
/// one takes each file's slot first and leaves the file of a session that holds it (one
/// starting, or running with a lockfile mur cannot read), which the dry run listed, and
/// the file whose slot lock is a directory with files in it ([`unremovable_slot`]).
fn would_go<'a>(judged: impl Iterator<Item = &'a Path>) -> Vec<&'a Path> {
    judged
        .filter(|path| !mur_lockfile::is_held(path) && unremovable_slot(path).is_none())
        .collect()
}

/// The error the clean meets at `lockfile` when its slot lock is none that the clean
/// may remove to take the slot (a directory with files in it), if it is one.
fn unremovable_slot(lockfile: &Path) -> Option<std::io::Error> {
    mur_lockfile::BrokenSlot::of_lockfile(lockfile)
        .filter(|broken| !broken.removable())
        .map(std::io::Error::other)
}

/// The notices of a clean's removals, said and counted: each is one it could not make.
struct Failures(usize);

impl discovery::Report for Failures {
    fn notice(&mut self, message: String) {
        self.0 += 1;
        discovery::Report::notice(&mut Notices, message);
    }
}

/// What a clean removed, or would: the stale lockfiles, the malformed ones and the files
/// of ended sessions (slot locks, bridges' sidecars and logs), those of which there are
/// some, joined as English lists are ("1 stale entry, 2 malformed lockfiles and 3 files
/// of ended sessions"); "0 stale entries" when there is nothing. It said each kind after
/// "and", and the stale entries even when there were none.
fn counted(stale: usize, malformed: usize, leftovers: usize) -> String {
    let kinds = [
        (stale, "stale entry", "stale entries"),
        (malformed, "malformed lockfile", "malformed lockfiles"),
        (
            leftovers,
            "file of an ended session",
            "files of ended sessions",
        ),
    ];
    let mut said: Vec<String> = kinds
        .into_iter()
        .filter(|(n, ..)| *n > 0)
        .map(|(n, one, many)| match n {
            1 => format!("1 {one}"),
            n => format!("{n} {many}"),
        })
        .collect();
    match said.pop() {
        None => "0 stale entries".to_owned(),
        Some(last) if said.is_empty() => last,
        Some(last) => format!("{} and {last}", said.join(", ")),
    }
}
