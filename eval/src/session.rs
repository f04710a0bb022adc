//! A fresh `mur-sample` per task, in the task's own lockfile directory, on a fixed
//! loopback port (so a reload's successor answers at the same endpoint the MCP
//! configuration names), recording every call it serves; stopped afterwards together
//! with any successor a reload started.
//!
//! The lockfile is in the agent's reach (its `XDG_RUNTIME_DIR`), so nothing it says after
//! the agent ran is taken on trust. The session runs in a process session of its own
//! (`setsid`): its id is the first pid, a reload's successor inherits it, and no process
//! outside can join it. The checks go to the endpoint the session announced before the
//! agent started, once a lockfile names a process of that session serving there; and
//! stopping signals that session's process group, never a pid a lockfile names.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mur_core::{Error, Result};
use mur_lockfile::{Lockfile, ReadOutcome, Registry, paths};
use nix::sys::signal::{Signal, kill, killpg};
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

/// The file, in the task's directory, naming the session's process group while it runs
/// (as `agent.group` does the agent's), so that a study killed mid-run stops it when it
/// resumes.
pub const GROUP_FILE: &str = "session.group";

/// The session serving now, as far as the harness can tell: a process of the session it
/// started, at the endpoint that session announced before the agent ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Serving {
    pub pid: u32,
    pub endpoint: String,
}

/// The task's session.
pub struct Session {
    /// Listed as its `Child`'s until reaped (`mur_procs::spawn`): the reaping of what
    /// mur-eval adopted never takes its status.
    child: mur_procs::Spawned,
    /// The pid that announced itself first; a reload replaces it. Also the id of the
    /// process session (and group) it leads, which a successor inherits.
    pub first_pid: u32,
    /// The endpoint it announced, before any agent ran.
    endpoint: String,
    registry: Registry,
    lockfile: PathBuf,
    log: PathBuf,
    /// Where its process group is recorded while it runs ([`GROUP_FILE`]).
    group_file: PathBuf,
}

impl Session {
    /// Starts `sample` for a project in `dir`, its lockfile directory under `runtime`,
    /// recording the calls it serves in `usage_log`, and waits until it announces itself.
    /// A session that exits first is started again, twice at most: the free port it was
    /// given may have been taken by another process in the meantime.
    pub fn start(sample: &Path, dir: &Path, runtime: &Path, usage_log: &Path) -> Result<Self> {
        let project = dir.join("app").join("App.csproj");
        crate::tree::create_dir(project.parent().unwrap_or(dir))?;
        std::fs::write(&project, "<Project />\n").map_err(|e| write_error(&project, e))?;
        let canonical = paths::canonical_project(&project).map_err(|e| write_error(&project, e))?;
        let registry = runtime_registry(runtime);
        let lockfile = registry.path_for(&canonical);
        let log = dir.join("session.log");
        let mut attempts = 1;
        loop {
            let stderr = File::create(&log).map_err(|e| write_error(&log, e))?;
            let mut command = Command::new(sample);
            crate::stop::unblocked(&mut command);
            // A session of its own: what it and its successors are, and what is signalled.
            #[allow(unsafe_code)]
            // SAFETY: `setsid` is async-signal-safe and touches no memory of ours.
            unsafe {
                use std::os::unix::process::CommandExt as _;
                command.pre_exec(|| {
                    nix::unistd::setsid()
                        .map(drop)
                        .map_err(std::io::Error::from)
                });
            }
            command
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
                .stderr(stderr);
            let child = mur_procs::spawn(&mut command).map_err(|e| {
                Error::internal(format!("cannot start `{}`: {e}", sample.display()))
            })?;
            crate::stop::register(child.id(), Signal::SIGTERM);
            // Recorded at once (the new session is made before `spawn` returns): a study
            // killed from here on stops it when it resumes.
            if let Some(group) = crate::group::Group::of(child.id()) {
                group.record(&dir.join(GROUP_FILE));
            }
            let mut session = Self {
                first_pid: child.id(),
                endpoint: String::new(),
                child,
                registry: registry.clone(),
                lockfile: lockfile.clone(),
                log: log.clone(),
                group_file: dir.join(GROUP_FILE),
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
            if let Some(lock) = self.current().filter(|lock| lock.pid == self.first_pid) {
                self.endpoint = lock.endpoint;
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
        // Opened without waiting and read up to a cap: a FIFO or a device put in its
        // place is no log to wait on.
        let log = crate::bounded::read(&self.log, LOG_CAP)
            .map(|read| String::from_utf8_lossy(&read.bytes).into_owned())
            .unwrap_or_default();
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

    /// The endpoint the session announced when it started, before any agent ran.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The session serving now — the first process, or a reload's successor once it has
    /// announced itself — waiting a while for the successor. A lockfile is believed only
    /// when it names a running process of the session the harness started, serving at
    /// the endpoint it announced first: the agent can rewrite it.
    pub fn serving(&self) -> Result<Serving> {
        let deadline = Instant::now() + SUCCESSOR_LIMIT;
        let mut untrusted = None;
        loop {
            if let Some(lock) = self.current() {
                if lock.endpoint == self.endpoint
                    && running(lock.pid)
                    && in_session(lock.pid, self.first_pid)
                {
                    return Ok(Serving {
                        pid: lock.pid,
                        endpoint: self.endpoint.clone(),
                    });
                }
                untrusted = Some(lock);
            }
            if Instant::now() > deadline {
                let why = match untrusted {
                    Some(lock) if lock.endpoint != self.endpoint => format!(
                        "; its lockfile names the endpoint `{}`, not the session's `{}`",
                        lock.endpoint, self.endpoint
                    ),
                    Some(lock) => format!(
                        "; its lockfile names pid {}, no process of the session the harness started (pid {})",
                        lock.pid, self.first_pid
                    ),
                    None => String::new(),
                };
                return Err(Error::no_session(format!(
                    "no session announced itself in `{}` within {} s{why}",
                    self.registry.dir().display(),
                    SUCCESSOR_LIMIT.as_secs()
                )));
            }
            std::thread::sleep(POLL);
        }
    }

    /// Stops the session (SIGTERM to its process group, so each removes its lockfile) and
    /// with it any successor a reload started; kills what has not exited after a few
    /// seconds.
    pub fn stop(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        let Ok(group) = i32::try_from(self.first_pid).map(Pid::from_raw) else {
            return;
        };
        let _ = killpg(group, Signal::SIGTERM);
        let deadline = Instant::now() + STOP_LIMIT;
        while Instant::now() < deadline && !self.all_gone(group) {
            std::thread::sleep(POLL);
        }
        let _ = killpg(group, Signal::SIGKILL);
        let _ = self.child.wait();
        mur_procs::reap_adopted();
        crate::stop::unregister(self.first_pid);
        // Stopped: nothing is left for a resumed study to stop (as `agent.group`).
        let _ = std::fs::remove_file(&self.group_file);
    }

    /// The first process has exited (and is reaped) and no process is left in its group.
    fn all_gone(&mut self, group: Pid) -> bool {
        let first_exited = !matches!(self.child.try_wait(), Ok(None));
        if first_exited {
            // A successor, its parent gone, is mur-eval's child (`crate::orphans`): once
            // it exits it is reaped here, or its zombie would keep the group alive.
            mur_procs::reap_adopted();
        }
        first_exited && killpg(group, None).is_err()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.shut_down();
        }
        crate::stop::unregister(self.first_pid);
    }
}

/// Stops what a study killed mid-run left of the session of the task in `dir`: its
/// recorded process group ([`GROUP_FILE`]), and — for a kill that came between starting
/// it and recording it — any process that leads a process session of its own and runs
/// The most of `session.log` said when the session failed: what it said as it failed.
const LOG_CAP: u64 = 64 << 10;

/// `sample` with this task's usage log: one mur-eval started, never a pid a file names.
/// Whether anything was left running to stop.
pub fn stop_leftovers(sample: &Path, dir: &Path) -> bool {
    #[cfg_attr(not(target_os = "linux"), allow(unused_mut))]
    let mut stopped = crate::group::Group::stop_recorded(&dir.join(GROUP_FILE));
    #[cfg(target_os = "linux")]
    {
        let sample = std::fs::canonicalize(sample).unwrap_or_else(|_| sample.to_owned());
        let log = dir.join("usage.jsonl");
        let wanted: Vec<u8> = [
            b"--usage-log\0".as_slice(),
            log.as_os_str().as_encoded_bytes(),
            b"\0",
        ]
        .concat();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return stopped;
        };
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|p| p.parse::<u32>().ok())
            else {
                continue;
            };
            let leader = i32::try_from(pid)
                .ok()
                .and_then(mur_procs::stat)
                .is_some_and(|stat| u32::try_from(stat.session).is_ok_and(|s| s == pid));
            let ours = leader
                && std::fs::read_link(entry.path().join("exe")).is_ok_and(|exe| exe == sample)
                && std::fs::read(entry.path().join("cmdline"))
                    .is_ok_and(|cmdline| cmdline.windows(wanted.len()).any(|w| w == wanted));
            if let (true, Ok(group)) = (ours, i32::try_from(pid)) {
                stopped |= killpg(Pid::from_raw(group), Signal::SIGKILL).is_ok();
            }
        }
    }
    stopped
}

/// Whether `pid` belongs to the process session `session` leads (a pid is not reused
/// while it names a session with members, so no stranger can be in it), and has not
/// exited: a successor that did is mur-eval's zombie until reaped (`crate::orphans`).
#[cfg(target_os = "linux")]
fn in_session(pid: u32, session: u32) -> bool {
    i32::try_from(pid)
        .ok()
        .and_then(mur_procs::stat)
        .is_some_and(|stat| !stat.zombie && u32::try_from(stat.session).is_ok_and(|s| s == session))
}

/// Without `/proc`: only the process the harness started itself.
#[cfg(not(target_os = "linux"))]
fn in_session(pid: u32, session: u32) -> bool {
    pid == session
}

/// The lockfile registry of a sandbox whose `XDG_RUNTIME_DIR` is `runtime`.
fn runtime_registry(runtime: &Path) -> Registry {
    let runtime = runtime.as_os_str().to_owned();
    Registry::at(paths::lockfile_dir_from(
        |name| (name == "XDG_RUNTIME_DIR").then(|| runtime.clone()),
        0,
    ))
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
