//! `bridge stop`: find the bridge (of `--project`, or the only one running,
//! or one still starting its server, which has no lockfile yet), make sure the
//! process is the one that wrote the lockfile, send it SIGTERM and wait for the
//! process to end. Not for its lockfile to go: a bridge removes that (and its
//! sidecar) first, while it still holds its port, then stops its server (up to
//! 4 s). Only a bridge is ever signalled: an app's own session is the user's to stop.

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use mur_core::{Error, Result};
use mur_lockfile::{
    Lockfile, ReadOutcome, Registry,
    liveness::{self, Liveness},
    paths,
};
use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, Signal, System};

use crate::files::{Sidecar, bridge_of, starting};

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

/// Stops the bridge of `project`, or the only bridge running.
pub async fn stop(project: Option<&Path>, http: &mur_http::Http) -> Result<Stopped> {
    let registry = Registry::default_location();
    let found = match project {
        Some(project) => of_project(&registry, project)?,
        None => only_bridge(&registry)?,
    };
    let (path, lock) = match found {
        Found::Announced(path, lock) => (path, lock),
        Found::Starting(project, bridge) => {
            terminate(bridge.pid)?;
            let started_at = liveness::rfc3339_secs(&bridge.started_at);
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
    terminate(lock.pid)?;
    until_ended(&lock.project, lock.pid, liveness::started_at_secs(&lock)).await?;
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
    while liveness::fate(pid, started_at) != liveness::Fate::Gone {
        if Instant::now() >= deadline {
            return Err(Error::transport(format!(
                "the bridge of `{project}` (pid {pid}) did not stop within {} s",
                STOP_LIMIT.as_secs()
            )));
        }
        tokio::time::sleep(POLL).await;
    }
    Ok(())
}

/// A bridge to stop.
enum Found {
    /// Serving: its lockfile (at this path).
    Announced(PathBuf, Lockfile),
    /// Still starting its server: its project and its sidecar.
    Starting(String, Sidecar),
}

/// The lockfile of `project`, if a bridge wrote it, or the bridge of
/// `project` still starting.
fn of_project(registry: &Registry, project: &Path) -> Result<Found> {
    let canonical = paths::canonical_project(project)
        .map_err(|e| Error::usage(format!("cannot use project `{}`: {e}", project.display())))?;
    let path = registry.path_for(&canonical);
    match registry.read(&path) {
        ReadOutcome::Valid(lock) if bridge_of(&path, &lock).is_some() => {
            Ok(Found::Announced(path, lock))
        }
        ReadOutcome::Valid(lock) => Err(not_a_bridge(&path, &canonical, lock.pid)),
        _ => match starting(&path) {
            Some(bridge) => Ok(Found::Starting(canonical, bridge)),
            None => Err(Error::no_session(format!(
                "no bridge is running for `{canonical}`"
            ))),
        },
    }
}

/// The session of `canonical` (pid `pid`, lockfile `path`) names no bridge `bridge stop`
/// may signal: an app's, or one whose sidecar mur does not trust (another user's, or
/// readable by others: whoever wrote it could name any pid), which it says, with why.
fn not_a_bridge(path: &Path, canonical: &str, pid: u32) -> Error {
    let sidecar = mur_discovery::sidecar_path(path);
    let not_a_bridge = Error::usage(format!(
        "the session of `{canonical}` (pid {pid}) is not a bridge; `bridge stop` stops only bridges"
    ));
    match mur_discovery::read_sidecar(&sidecar) {
        Err(why) => not_a_bridge
            .with_hint(format!("its sidecar is not trusted, so nothing is signalled: {why}"))
            .with_hint(format!(
                "if the bridge is yours, stop it with `kill {pid}`; `session clean` then removes the sidecar"
            )),
        Ok(_) => not_a_bridge.with_hint("stop an app's session in the app (Ctrl+C where it runs)"),
    }
}

/// The one bridge whose lockfile is in the directory, or with none, the one
/// still starting.
fn only_bridge(registry: &Registry) -> Result<Found> {
    let entries = registry.scan().map_err(|e| {
        Error::internal(format!(
            "cannot read the lockfile directory `{}`: {e}",
            registry.dir().display()
        ))
    })?;
    let mut bridges: Vec<(std::path::PathBuf, Lockfile)> = entries
        .into_iter()
        .filter_map(|entry| match entry.outcome {
            ReadOutcome::Valid(lock) if bridge_of(&entry.path, &lock).is_some() => {
                Some((entry.path, lock))
            }
            _ => None,
        })
        .collect();
    match bridges.len() {
        0 => {
            let mut starting = starting_bridges(registry);
            match starting.len() {
                0 => Err(Error::no_session("no bridge is running")),
                1 => Ok(starting.remove(0)),
                n => Err(Error::usage(format!("{n} bridges are starting"))
                    .with_hint("pick one with `--project PATH`")),
            }
        }
        1 => {
            let (path, lock) = bridges.remove(0);
            Ok(Found::Announced(path, lock))
        }
        n => Err(Error::usage(format!(
            "{n} bridges are running: {}",
            bridges
                .iter()
                .map(|(_, l)| format!("`{}`", l.project))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .with_hint("pick one with `--project PATH`")),
    }
}

/// The bridges still starting (see [`starting`]) whose sidecar names their
/// project, by the sidecars in the directory.
fn starting_bridges(registry: &Registry) -> Vec<Found> {
    let Ok(entries) = std::fs::read_dir(registry.dir()) else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            let sidecar = entry.ok()?.path();
            if sidecar.extension()? != "bridge" {
                return None;
            }
            let lockfile = sidecar.with_extension("json");
            if matches!(registry.read(&lockfile), ReadOutcome::Valid(_)) {
                return None;
            }
            let bridge = starting(&lockfile)?;
            let project = bridge.project.clone()?;
            Some(Found::Starting(project, bridge))
        })
        .collect()
}

fn terminate(pid: u32) -> Result<()> {
    let pid = Pid::from_u32(pid);
    let Ok(mut system) = System::new() else {
        return Err(Error::internal("cannot read the process table"));
    };
    system.refresh_processes_specifics(
        ProcessesToUpdate::Some(&[pid]),
        true,
        ProcessRefreshKind::nothing(),
    );
    let sent = system
        .process(pid)
        .and_then(|process| process.kill_with(Signal::Term));
    match sent {
        Some(true) => Ok(()),
        _ => Err(Error::internal(format!(
            "cannot signal the bridge (pid {pid})"
        ))),
    }
}

/// Whether the lockfile still names the bridge we signalled.
fn still_there(registry: &Registry, path: &Path, lock: &Lockfile) -> bool {
    matches!(registry.read(path), ReadOutcome::Valid(now) if now.pid == lock.pid && now.started_at == lock.started_at)
}
