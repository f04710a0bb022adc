//! `bridge stop`: find the bridge (of `--project`, a folder's project as a call takes
//! it; or the only one running, or one still starting its server, which has no
//! lockfile yet) in every directory
//! where a bridge of this user may have announced itself, make sure the
//! process is the one that wrote the lockfile, send it SIGTERM (and SIGCONT when
//! it is stopped, so that it takes it) and wait for the process to end. Not for
//! its lockfile to go: a bridge removes that (and its sidecar) first, while it
//! still holds its port, then stops its server (up to 4 s). Only a bridge is ever
//! signalled: an app's own session is the user's to stop; the session of a stdio
//! server a bridge runs (its own project's) is refused naming that bridge, the one
//! to stop.

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use mur_core::{Error, Result};
use mur_discovery::ProjectFilter;
use mur_lockfile::{
    Lockfile, ReadOutcome, Registry, Transport, Unlisted,
    liveness::{self, Fate, Liveness},
};
use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, Signal, System};

use crate::files::{Sidecar, bridge_of, starting, trusted_bridge_of};

/// How long a bridge gets to end after SIGTERM (it stops its server: 2 s for
/// it to exit when its input ends, 2 s after SIGTERM; and gives the responses in
/// flight up to 3 s).
const STOP_LIMIT: Duration = Duration::from_secs(10);
const POLL: Duration = Duration::from_millis(20);

/// The bridge that was stopped.
#[derive(Debug)]
pub struct Stopped {
    pub project: String,
    pub pid: u32,
}

/// Stops the bridge of `project`, or the only bridge running, looked for in every
/// directory a reader searches ([`Registry::for_readers`]): a bridge started without
/// `XDG_RUNTIME_DIR` (by a service, an IDE started from a desktop file) announced itself
/// in `${TMPDIR:-/tmp}/reactor-devtools-<uid>`. A directory there that is not searched
/// (another user's, or open to others' writes) is named when no bridge is found.
pub async fn stop(project: Option<&Path>, http: &mur_http::Http) -> Result<Stopped> {
    let registry = Registry::for_readers();
    let found = match project {
        Some(project) => of_project(&registry, project)?,
        None => only_bridge(&registry)?,
    };
    let (path, lock) = match found {
        Found::Announced(path, lock) => (path, lock),
        Found::Starting(_, project, bridge) => {
            let started_at = liveness::rfc3339_secs(&bridge.started_at);
            terminate(bridge.pid, started_at)?;
            until_ended(&project, bridge.pid, started_at).await?;
            return Ok(Stopped {
                project,
                pid: bridge.pid,
            });
        }
    };
    match liveness::check(http, &lock).await {
        // Unresponsive: the process that wrote the lockfile, busy; SIGTERM
        // still reaches it.
        Liveness::Live | Liveness::Unresponsive(_) => {}
        Liveness::Stale(why) | Liveness::NotDevtools(why) => {
            let _ = registry.remove_if_unchanged(&path, &lock);
            return Err(Error::no_session(format!(
                "the bridge of `{}` is gone ({why}); its lockfile was stale",
                lock.project
            )));
        }
    }
    let started_at = liveness::started_at_secs(&lock);
    terminate(lock.pid, started_at)?;
    until_ended(&lock.project, lock.pid, started_at).await?;
    if still_there(&registry, &path, &lock) {
        // Killed before it could remove it (SIGKILL from elsewhere, a crash).
        let _ = registry.remove_if_unchanged(&path, &lock);
    }
    Ok(Stopped {
        project: lock.project,
        pid: lock.pid,
    })
}

/// Waits for the signalled bridge (`pid`, started at `started_at`) to end: when
/// it has, its server has been stopped, and its lockfile, sidecar and slot are
/// let go.
async fn until_ended(project: &str, pid: u32, started_at: Option<i64>) -> Result<()> {
    let deadline = Instant::now() + STOP_LIMIT;
    loop {
        let fate = liveness::fate(pid, started_at);
        if fate == Fate::Gone {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(not_ended(project, pid, fate));
        }
        tokio::time::sleep(POLL).await;
    }
}

/// The bridge of `project` (`pid`) did not end within [`STOP_LIMIT`] of its SIGTERM,
/// and is now as `fate` says. Stopped (a debugger holds it, or it was stopped again),
/// it has the signal pending, so it ends once resumed: said with how to resume it, in
/// the words a call to a stopped session's process is told.
fn not_ended(project: &str, pid: u32, fate: Fate) -> Error {
    let e = Error::transport(format!(
        "the bridge of `{project}` (pid {pid}) did not stop within {} s",
        STOP_LIMIT.as_secs()
    ));
    match fate {
        Fate::Stopped => e.with_hint(format!(
            "it is stopped (a debugger, SIGSTOP) and stops once resumed: `kill -CONT {pid}` \
             resumes it"
        )),
        Fate::Gone | Fate::Running => e,
    }
}

/// A bridge to stop.
enum Found {
    /// Serving: its lockfile (at this path).
    Announced(PathBuf, Lockfile),
    /// Still starting its server: the lockfile it will write, its project and its
    /// sidecar.
    Starting(PathBuf, String, Sidecar),
}

impl Found {
    fn project(&self) -> &str {
        match self {
            Found::Announced(_, lock) => &lock.project,
            Found::Starting(_, project, _) => project,
        }
    }

    fn pid(&self) -> u32 {
        match self {
            Found::Announced(_, lock) => lock.pid,
            Found::Starting(_, _, bridge) => bridge.pid,
        }
    }

    /// The lockfile directory it announced itself in.
    fn dir(&self) -> &Path {
        let (Found::Announced(path, _) | Found::Starting(path, _, _)) = self;
        path.parent().unwrap_or(path)
    }
}

/// The bridge of `project`, by its lockfile or, still starting, its sidecar, in every
/// directory searched: an app's session of the project in one does not hide a bridge of
/// it in another. A folder is also the project directly in it, as a call takes it
/// ([`ProjectFilter::matches_project`]): a bridge's project file seldom exists, and
/// `--project FOLDER` found its session for a call but not here; several bridges there
/// are named ([`several`]), none stopped.
fn of_project(registry: &Registry, project: &Path) -> Result<Found> {
    let named = crate::slot::canonical_project(project)
        .map_err(|e| Error::usage(format!("cannot use project `{}`: {e}", project.display())))?;
    let filter = ProjectFilter::new(project)?;
    let mut lockfiles: Vec<(PathBuf, String)> = (registry.paths_for(&named).into_iter())
        .map(|path| (path, named.clone()))
        .collect();
    let mut unlisted = Vec::new();
    if filter.is_folder() {
        let (found, not_listed) = in_folder(registry, &filter);
        unlisted = not_listed;
        for (path, project) in found {
            if !lockfiles.iter().any(|(known, _)| *known == path) {
                lockfiles.push((path, project));
            }
        }
    }
    let mut bridges = Vec::new();
    // Why no bridge is to be stopped: of a process that runs (an app's session, a bridge's
    // server), said rather than of one that has ended, whatever the lockfiles' order.
    let (mut app, mut gone) = (None, None);
    for (path, canonical) in lockfiles {
        match registry.read(&path) {
            ReadOutcome::Valid(lock) => match trusted_bridge_of(&path, &lock) {
                Ok(Some(_)) => bridges.push(Found::Announced(path, lock)),
                // No bridge's, and its process is gone: no session to stop in an app,
                // nor a pid to `kill`. A bridge still starting there is stopped.
                _ if liveness::fate(lock.pid, liveness::started_at_secs(&lock)) == Fate::Gone => {
                    let _ = registry.remove_if_unchanged(&path, &lock);
                    match starting(&path) {
                        Some(bridge) => {
                            bridges.push(Found::Starting(path, canonical.clone(), bridge))
                        }
                        None => {
                            let lockfiles = registry.paths_for(&canonical);
                            gone.get_or_insert_with(|| ended(&canonical, lock.pid, &lockfiles));
                        }
                    }
                }
                Ok(None) if lock.transport == Transport::Stdio => {
                    let owner = owner_of(registry, lock.pid);
                    app.get_or_insert_with(|| bridges_server(&canonical, lock.pid, owner));
                }
                read => {
                    let log = crate::files::BridgeFiles::beside(&path).log;
                    let untrusted = read.err().map(Untrusted::Sidecar).or_else(|| {
                        log.is_file()
                            .then(|| Untrusted::NoSidecar(mur_discovery::sidecar_path(&path)))
                    });
                    app.get_or_insert_with(|| not_a_bridge(untrusted, &canonical, lock.pid));
                }
            },
            _ => {
                if let Some(bridge) = starting(&path) {
                    bridges.push(Found::Starting(path, canonical.clone(), bridge));
                }
            }
        }
    }
    // Named in the order of their projects, as a call lists sessions.
    bridges.sort_by(|a, b| a.project().cmp(b.project()));
    match (bridges.len(), app.or(gone)) {
        (1, _) => Ok(bridges.remove(0)),
        (0, Some(app)) => Err(app),
        (0, None) => Err(no_bridge(
            format!("no bridge is running for `{named}`"),
            registry,
            &unlisted,
        )),
        _ => Err(several(
            &bridges,
            "running",
            filter.is_folder().then_some(filter.canonical()),
        )),
    }
}

/// The lockfiles, and the projects they are (or will be, a bridge still starting) of,
/// that `folder` names as a call takes it ([`ProjectFilter::files_of`]): announced in
/// the directories searched, or of a bridge starting there whose sidecar names its
/// project. A directory that cannot be listed is passed over, and returned (the
/// project's own lockfile path there was read all the same): a bridge found elsewhere is
/// stopped, and "no bridge" names it.
fn in_folder(
    registry: &Registry,
    folder: &ProjectFilter,
) -> (Vec<(PathBuf, String)>, Vec<Unlisted>) {
    let (announced, unlisted) = folder.files_of(registry, ".json", |lockfile, _| {
        match registry.read(lockfile) {
            ReadOutcome::Valid(lock) => Some((lock.project, ())),
            _ => None,
        }
    });
    let (starting, _) = folder.files_of(registry, mur_discovery::SIDECAR_SUFFIX, |_, lockfile| {
        Some((starting(lockfile)?.project?, ()))
    });
    let found = (announced.into_iter().chain(starting))
        .map(|found| (found.lockfile, found.project))
        .collect();
    (found, unlisted)
}

/// The lockfiles in the directories searched, read, and the directories that could not
/// be listed.
fn listed(registry: &Registry) -> (Vec<mur_lockfile::Entry>, Vec<Unlisted>) {
    let mut entries = Vec::new();
    let mut unlisted = Vec::new();
    for dir in registry.dirs() {
        match Registry::at(dir.to_owned()).scan_naming() {
            Ok(found) => entries.extend(found),
            Err(not) => unlisted.push(not),
        }
    }
    (entries, unlisted)
}

/// No bridge found (`message`): where bridges announce themselves, each directory
/// searched named, as the "no session" hints name them; and each directory where one
/// may have that was not searched (refused, or `unlisted`: it could not be listed), and
/// why.
fn no_bridge(message: String, registry: &Registry, unlisted: &[Unlisted]) -> Error {
    let error = Error::no_session(message).with_hint(format!(
        "a bridge announces itself in {}",
        registry.searched()
    ));
    let unlisted = unlisted.iter().map(|not| {
        format!(
            "cannot read the lockfile directory `{}`: {}; a bridge announced there is not \
             stopped",
            not.dir.display(),
            not.error
        )
    });
    let refused = (registry.refused().iter())
        .map(|why| format!("{why}: a bridge announced there is not stopped"));
    refused.chain(unlisted).fold(error, Error::with_hint)
}

/// Several `bridges` (`what`: running, starting) where one was meant, each named by its
/// project; and when two are of one project (one announced in each directory searched),
/// each by its pid and directory too, as `--project` cannot tell them apart. Of the
/// projects in `folder`, when `--project` named a folder: asked which one is meant, as a
/// call is.
fn several(bridges: &[Found], what: &str, folder: Option<&str>) -> Error {
    let projects: Vec<&str> = bridges.iter().map(Found::project).collect();
    let repeated = (1..projects.len()).any(|n| projects[..n].contains(&projects[n]));
    let named: Vec<String> = bridges
        .iter()
        .map(|bridge| match repeated {
            false => format!("`{}`", bridge.project()),
            true => format!(
                "`{}` (pid {}, in `{}`)",
                bridge.project(),
                bridge.pid(),
                bridge.dir().display()
            ),
        })
        .collect();
    let error = match folder {
        Some(folder) => Error::usage(format!(
            "`{folder}` is a folder with the projects of {} {what} bridges in it: {}; which \
             one is meant?",
            bridges.len(),
            named.join(", ")
        )),
        None => Error::usage(format!(
            "{} bridges are {what}: {}",
            bridges.len(),
            named.join(", ")
        )),
    };
    match repeated {
        false if folder.is_some() => {
            error.with_hint("a project is named by its file: choose one with `--project PATH`")
        }
        false => error.with_hint("pick one with `--project PATH`"),
        true => error.with_hint(
            "stop the one meant with `kill PID`: a bridge ends on SIGTERM as `bridge stop` ends it",
        ),
    }
}

/// Why a session that may be a bridge's is not signalled.
enum Untrusted {
    /// Its sidecar is not trusted (why: another user's, or readable by others: whoever
    /// wrote it could name any pid).
    Sidecar(String),
    /// It has none (at this path), but a bridge's log is beside its lockfile: a bridge
    /// of the project ran there, and this may be it, its sidecar removed.
    NoSidecar(PathBuf),
}

/// The session of `canonical` (pid `pid`) names no bridge `bridge stop` may signal: an
/// app's, or one that may be a bridge's (`untrusted`, which it says).
fn not_a_bridge(untrusted: Option<Untrusted>, canonical: &str, pid: u32) -> Error {
    let no_bridge_to_signal = || {
        Error::usage(format!(
            "the session of `{canonical}` (pid {pid}) is no bridge `bridge stop` may signal: it \
             signals only a bridge whose sidecar it trusts"
        ))
    };
    match untrusted {
        // It may well be a bridge (the hint says how to stop it if so): "is not a
        // bridge" was contradicted by that hint.
        Some(Untrusted::Sidecar(why)) => no_bridge_to_signal()
            .with_hint(format!("its sidecar is not trusted, so nothing is signalled: {why}"))
            .with_hint(format!(
                "if the bridge is yours, stop it with `kill {pid}`; `session clean` then removes the sidecar"
            )),
        // "Stop an app's session in the app" was said of what may be a bridge, which no
        // app runs.
        Some(Untrusted::NoSidecar(sidecar)) => no_bridge_to_signal().with_hint(format!(
            "it has no sidecar (`{}`), though a bridge's log is beside its lockfile: if it is \
             a bridge, stop it with `kill {pid}`; if it is an app's session, stop it in the app \
             (Ctrl+C where it runs)",
            sidecar.display()
        )),
        None => Error::usage(format!(
            "the session of `{canonical}` (pid {pid}) is not a bridge; `bridge stop` stops only \
             bridges"
        ))
        .with_hint("stop an app's session in the app (Ctrl+C where it runs)"),
    }
}

/// The session of `canonical` (pid `pid`), no bridge's, has ended without withdrawing
/// its lockfile (`lockfiles`, the project's in each directory searched): nothing runs to
/// be stopped. It was "not a bridge", hinting to stop the app in the app. Its bridge's
/// last word, when its log has one, says how to start it again.
fn ended(canonical: &str, pid: u32, lockfiles: &[PathBuf]) -> Error {
    let e = Error::no_session(format!(
        "no bridge is running for `{canonical}`: the session whose lockfile was left there \
         (pid {pid}) has ended; its lockfile was stale"
    ));
    match crate::ended::newest_stop(lockfiles) {
        Some(stop) => e.with_hint(stop.hint()),
        None => e,
    }
}

/// The session of `canonical` (pid `pid`) is a stdio server's: when a bridge runs it
/// (`owner`, its project and pid), that is what `bridge stop` stops, and the server
/// with it; else a stdio server ends with whoever started it.
fn bridges_server(canonical: &str, pid: u32, owner: Option<(String, u32)>) -> Error {
    let Some((project, bridge)) = owner else {
        return not_a_bridge(None, canonical, pid);
    };
    Error::usage(format!(
        "the session of `{canonical}` (pid {pid}) is the stdio server of the bridge of \
         `{project}` (pid {bridge}); `bridge stop` stops only bridges"
    ))
    .with_hint(format!(
        "stop that bridge, and its server with it: `mur devtools bridge stop --project {}`",
        mur_core::shell_word(&project)
    ))
}

/// The bridge (its project and pid), running or still starting, whose server is the
/// process `pid` or one it started: a bridge among its ancestors.
fn owner_of(registry: &Registry, pid: u32) -> Option<(String, u32)> {
    let (bridges, _) = announced_bridges(registry);
    let ancestors = ancestors_of(pid);
    bridges
        .into_iter()
        .chain(starting_bridges(registry))
        .find(|bridge| ancestors.contains(&bridge.pid()))
        .map(|bridge| (bridge.project().to_owned(), bridge.pid()))
}

/// The parent of the process `pid`, its parent's, and so on up to init (not listed);
/// none where `/proc` cannot tell.
fn ancestors_of(pid: u32) -> Vec<u32> {
    let mut ancestors = Vec::new();
    let mut next = i32::try_from(pid).ok();
    // Bounded: processes come and go while the chain is read.
    while let Some(parent) = next.and_then(mur_procs::stat).map(|p| p.ppid)
        && parent > 1
        && ancestors.len() < 64
    {
        ancestors.extend(u32::try_from(parent));
        next = Some(parent);
    }
    ancestors
}

/// The bridges whose lockfiles are in the directories searched, and the directories
/// that could not be listed.
fn announced_bridges(registry: &Registry) -> (Vec<Found>, Vec<Unlisted>) {
    let (entries, unlisted) = listed(registry);
    let bridges = entries
        .into_iter()
        .filter_map(|entry| match entry.outcome {
            ReadOutcome::Valid(lock) if bridge_of(&entry.path, &lock).is_some() => {
                Some(Found::Announced(entry.path, lock))
            }
            _ => None,
        })
        .collect();
    (bridges, unlisted)
}

/// The one bridge whose lockfile is in the directories searched, or with none, the
/// one still starting. A directory that cannot be listed is passed over, as
/// `--project FOLDER` passes it over ([`in_folder`]): a lockfile directory of another
/// user's that `XDG_RUNTIME_DIR` names, or one made unreadable, failed the whole command
/// (exit 7) though the bridge to stop was announced in another; "no bridge" names it.
fn only_bridge(registry: &Registry) -> Result<Found> {
    let (mut bridges, unlisted) = announced_bridges(registry);
    match bridges.len() {
        0 => {
            let mut starting = starting_bridges(registry);
            match starting.len() {
                0 => Err(no_bridge(
                    "no bridge is running".to_owned(),
                    registry,
                    &unlisted,
                )),
                1 => Ok(starting.remove(0)),
                _ => Err(several(&starting, "starting", None)),
            }
        }
        1 => Ok(bridges.remove(0)),
        _ => Err(several(&bridges, "running", None)),
    }
}

/// The bridges still starting (see [`starting`]) whose sidecar names their
/// project, by the sidecars in the directories searched.
fn starting_bridges(registry: &Registry) -> Vec<Found> {
    registry
        .files("bridge")
        .into_iter()
        .filter_map(|sidecar| {
            let lockfile = sidecar.with_extension("json");
            if matches!(registry.read(&lockfile), ReadOutcome::Valid(_)) {
                return None;
            }
            let bridge = starting(&lockfile)?;
            let project = bridge.project.clone()?;
            Some(Found::Starting(lockfile, project, bridge))
        })
        .collect()
}

/// SIGTERM to the bridge `pid` (the process that wrote its lockfile or sidecar, which
/// says it started at `started_at`). A bridge found stopped then (SIGSTOP, Ctrl+Z)
/// takes it only once resumed, so it is sent SIGCONT too: `bridge stop` is asked to
/// stop it, not to leave the stop pending. Only this verified pid is signalled; one a
/// debugger holds stays stopped, which [`not_ended`] says.
fn terminate(pid: u32, started_at: Option<i64>) -> Result<()> {
    let target = Pid::from_u32(pid);
    let Ok(mut system) = System::new() else {
        return Err(Error::internal("cannot read the process table"));
    };
    system.refresh_processes_specifics(
        ProcessesToUpdate::Some(&[target]),
        true,
        ProcessRefreshKind::nothing(),
    );
    let Some(process) = system.process(target) else {
        return Err(cannot_signal(pid));
    };
    if process.kill_with(Signal::Term) != Some(true) {
        return Err(cannot_signal(pid));
    }
    // `fate` compares its start time with `started_at` again: a pid reused since is
    // `Gone`, never resumed.
    if liveness::fate(pid, started_at) == Fate::Stopped {
        tracing::debug!("the bridge (pid {pid}) is stopped: resuming it to take SIGTERM");
        let _ = process.kill_with(Signal::Continue);
    }
    Ok(())
}

fn cannot_signal(pid: u32) -> Error {
    Error::internal(format!("cannot signal the bridge (pid {pid})"))
}

/// Whether the lockfile still names the bridge we signalled.
fn still_there(registry: &Registry, path: &Path, lock: &Lockfile) -> bool {
    matches!(registry.read(path), ReadOutcome::Valid(now) if now.pid == lock.pid && now.started_at == lock.started_at)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bridge still there after its SIGTERM's wait is named; stopped, it is said how
    /// it takes the stop (pending until it is resumed), in one hint.
    #[test]
    fn a_bridge_that_did_not_stop_is_named_and_a_stopped_one_how_to_resume_it() {
        let e = not_ended("/p/App.csproj", 42, Fate::Stopped);
        assert_eq!(e.exit_code(), 2);
        assert_eq!(
            (e.message(), e.hints()),
            (
                "the bridge of `/p/App.csproj` (pid 42) did not stop within 10 s",
                &[
                    "it is stopped (a debugger, SIGSTOP) and stops once resumed: `kill -CONT 42` \
                   resumes it"
                        .to_owned()
                ][..]
            )
        );
        assert!(
            not_ended("/p/App.csproj", 42, Fate::Running)
                .hints()
                .is_empty()
        );
    }

    /// A bridge's server is its child, or a process its child started (a server's
    /// command run through `sh -c`, `npx`): the bridge is among its ancestors.
    #[test]
    fn a_process_started_by_a_child_of_ours_has_us_among_its_ancestors() {
        let mut shell = std::process::Command::new("sh")
            .args(["-c", "sleep 5 & echo $!; wait"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("sh");
        let mut line = String::new();
        let stdout = shell.stdout.take().expect("piped");
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line)
            .expect("the pid of sleep");
        let sleep: u32 = line.trim().parse().expect("a pid");
        let ancestors = ancestors_of(sleep);
        let _ = std::process::Command::new("kill")
            .arg(sleep.to_string())
            .status();
        let _ = shell.wait();
        assert_eq!(
            ancestors[..2],
            [shell.id(), std::process::id()],
            "{ancestors:?}"
        );
    }

    /// The session of a bridge's stdio server names the bridge to stop, by its project.
    #[test]
    fn a_bridges_stdio_server_names_the_bridge_to_stop() {
        let e = bridges_server("/p/Stdio.csproj", 7, Some(("/p/My Tools.csproj".into(), 6)));
        assert_eq!(e.exit_code(), 1);
        assert_eq!(
            (e.message(), e.hints()),
            (
                "the session of `/p/Stdio.csproj` (pid 7) is the stdio server of the bridge of \
                 `/p/My Tools.csproj` (pid 6); `bridge stop` stops only bridges",
                &["stop that bridge, and its server with it: \
                   `mur devtools bridge stop --project '/p/My Tools.csproj'`"
                    .to_owned()][..]
            )
        );
        let alone = bridges_server("/p/Stdio.csproj", 7, None);
        assert!(alone.message().contains("is not a bridge"), "{alone:?}");
    }
}
