//! A fresh `mur-sample` per task, in the task's own lockfile directory, on a fixed
//! loopback port (so a reload's successor answers at the same endpoint the MCP
//! configuration names), recording every call it serves; stopped afterwards together
//! with any successor a reload started.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mur_core::{Error, Result};
use mur_lockfile::{Lockfile, ReadOutcome, Registry, paths};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// How long a session may take to announce itself (a bound against hangs).
const STARTUP_LIMIT: Duration = Duration::from_secs(30);
/// How long a session, or a reload's successor, may take to write its lockfile once
/// the agent is done.
const SUCCESSOR_LIMIT: Duration = Duration::from_secs(15);
/// How long a stopped session may take to exit before it is killed.
const STOP_LIMIT: Duration = Duration::from_secs(5);
const POLL: Duration = Duration::from_millis(20);

/// Why a session started did not announce itself.
enum NotAnnounced {
    /// It exited (a port taken, a bad flag): worth another try if the port was the cause.
    Exited(Error),
    /// It is still running, silent.
    Silent(Error),
}
use NotAnnounced::{Exited, Silent};

/// The task's session.
pub struct Session {
    child: Child,
    /// The pid that announced itself first; a reload replaces it.
    pub first_pid: u32,
    registry: Registry,
    lockfile: PathBuf,
    log: PathBuf,
}

impl Session {
    /// Starts `sample` for a project in `dir`, its lockfile directory under `runtime`,
    /// recording the calls it serves in `usage_log`, and waits until it announces itself.
    /// A session that exits first is started again, twice at most: the free port it was
    /// given may have been taken by another process in the meantime.
    pub fn start(sample: &Path, dir: &Path, runtime: &Path, usage_log: &Path) -> Result<Self> {
        let project = dir.join("app").join("App.csproj");
        crate::profile::create_dir(project.parent().unwrap_or(dir))?;
        std::fs::write(&project, "<Project />\n").map_err(|e| write_error(&project, e))?;
        let canonical = paths::canonical_project(&project).map_err(|e| write_error(&project, e))?;
        let registry = runtime_registry(runtime);
        let lockfile = registry.path_for(&canonical);
        let log = dir.join("session.log");
        let mut attempts = 1;
        loop {
            let stderr = File::create(&log).map_err(|e| write_error(&log, e))?;
            let child = Command::new(sample)
                .arg("--project")
                .arg(&project)
                .args(["--port", &free_port()?.to_string()])
                .arg("--usage-log")
                .arg(usage_log)
                .env_clear()
                .env("PATH", "/usr/bin:/bin")
                .env("XDG_RUNTIME_DIR", runtime)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(stderr)
                .spawn()
                .map_err(|e| {
                    Error::internal(format!("cannot start `{}`: {e}", sample.display()))
                })?;
            let mut session = Self {
                first_pid: child.id(),
                child,
                registry: registry.clone(),
                lockfile: lockfile.clone(),
                log: log.clone(),
            };
            match session.wait_announced() {
                Ok(()) => return Ok(session),
                Err(Exited(_)) if attempts < 3 => attempts += 1,
                Err(Exited(error) | Silent(error)) => return Err(error),
            }
        }
    }

    fn wait_announced(&mut self) -> std::result::Result<(), NotAnnounced> {
        let deadline = Instant::now() + STARTUP_LIMIT;
        loop {
            if self
                .current()
                .is_some_and(|lock| lock.pid == self.first_pid)
            {
                return Ok(());
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(Exited(
                    self.failed(&format!("exited ({status}) before announcing itself")),
                ));
            }
            if Instant::now() > deadline {
                return Err(Silent(self.failed(&format!(
                    "did not announce itself within {} s",
                    STARTUP_LIMIT.as_secs()
                ))));
            }
            std::thread::sleep(POLL);
        }
    }

    fn failed(&self, what: &str) -> Error {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        match log.trim() {
            "" => Error::internal(format!("mur-sample {what}, saying nothing")),
            log => Error::internal(format!("mur-sample {what}: {log}")),
        }
    }

    /// The session's lockfile as it is now (the successor's after a reload).
    pub fn current(&self) -> Option<Lockfile> {
        match self.registry.read(&self.lockfile) {
            ReadOutcome::Valid(lock) => Some(lock),
            _ => None,
        }
    }

    /// The lockfile of the session serving now, waiting a while for a reload's
    /// successor to announce itself.
    pub fn serving(&self) -> Result<Lockfile> {
        let deadline = Instant::now() + SUCCESSOR_LIMIT;
        loop {
            if let Some(lock) = self.current().filter(|lock| running(lock.pid)) {
                return Ok(lock);
            }
            if Instant::now() > deadline {
                return Err(Error::no_session(format!(
                    "no session announced itself in `{}` within {} s",
                    self.registry.dir().display(),
                    SUCCESSOR_LIMIT.as_secs()
                )));
            }
            std::thread::sleep(POLL);
        }
    }

    /// Stops the session (SIGTERM, so it removes its lockfile) and any successor a
    /// reload started; kills what has not exited after a few seconds.
    pub fn stop(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        let successor = self
            .current()
            .map(|lock| lock.pid)
            .filter(|&pid| pid != self.first_pid);
        let pids: Vec<u32> = std::iter::once(self.first_pid).chain(successor).collect();
        for &pid in &pids {
            signal(pid, Signal::SIGTERM);
        }
        let deadline = Instant::now() + STOP_LIMIT;
        while Instant::now() < deadline && !self.all_gone(&pids) {
            std::thread::sleep(POLL);
        }
        for &pid in &pids {
            signal(pid, Signal::SIGKILL);
        }
        let _ = self.child.wait();
    }

    fn all_gone(&mut self, pids: &[u32]) -> bool {
        let first_exited = !matches!(self.child.try_wait(), Ok(None));
        first_exited && pids[1..].iter().all(|&pid| !running(pid))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.shut_down();
        }
    }
}

/// Stops any session still announced in `runtime` (a study killed mid-run leaves its
/// sessions running; resuming stops them before the run is made again).
pub fn stop_leftovers(runtime: &Path) {
    let pids: Vec<u32> = runtime_registry(runtime)
        .scan()
        .unwrap_or_default()
        .into_iter()
        .filter_map(|entry| match entry.outcome {
            ReadOutcome::Valid(lock) => Some(lock.pid).filter(|&pid| running(pid)),
            _ => None,
        })
        .collect();
    for &pid in &pids {
        signal(pid, Signal::SIGTERM);
    }
    let deadline = Instant::now() + STOP_LIMIT;
    while Instant::now() < deadline && pids.iter().any(|&pid| running(pid)) {
        std::thread::sleep(POLL);
    }
    for &pid in &pids {
        signal(pid, Signal::SIGKILL);
    }
}

/// The lockfile registry of a sandbox whose `XDG_RUNTIME_DIR` is `runtime`.
fn runtime_registry(runtime: &Path) -> Registry {
    let runtime = runtime.as_os_str().to_owned();
    Registry::at(paths::lockfile_dir_from(
        |name| (name == "XDG_RUNTIME_DIR").then(|| runtime.clone()),
        0,
    ))
}

/// Sends `signal` to `pid`; a process already gone is fine.
fn signal(pid: u32, signal: Signal) {
    if let Ok(pid) = i32::try_from(pid) {
        let _ = kill(Pid::from_raw(pid), signal);
    }
}

/// Whether `pid` is a running process (signal 0 reaches it).
fn running(pid: u32) -> bool {
    i32::try_from(pid).is_ok_and(|pid| kill(Pid::from_raw(pid), None).is_ok())
}

/// A free loopback port: bound, then released for the session to take.
fn free_port() -> Result<u16> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .map_err(|e| Error::internal(format!("cannot find a free loopback port: {e}")))
}

fn write_error(path: &Path, e: std::io::Error) -> Error {
    Error::internal(format!("cannot write `{}`: {e}", path.display()))
}
