//! Whether the session behind a lockfile is really serving. Three facts are
//! checked, cheapest first:
//!
//! 1. the pid is a running process, and that process is the one that wrote
//!    the lockfile: it started no later than the lockfile's `startedAt` (a
//!    process that started afterwards got a reused pid);
//! 2. the endpoint is a loopback one (nothing else is ever contacted);
//! 3. `GET <endpoint>` answers the devtools probe, as that pid.
//!
//! A pid alone is never enough — pids are reused. And a running session that
//! does not answer in time (stopped in a debugger, out of file descriptors) is
//! [`Liveness::Unresponsive`], never mistaken for a stale one.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::StreamExt as _;
use mur_http::{Http, Request, SendError, innermost};
use serde::Deserialize;
#[cfg(not(target_os = "linux"))]
use sysinfo::{Pid, ProcessRefreshKind, ProcessStatus, ProcessesToUpdate, System};
use tokio::time::Instant;

use crate::endpoint;
use crate::schema::{Lockfile, PROBE_SCHEMA, Transport};

/// How long one probe may take. Loopback answers in well under a millisecond;
/// this only bounds a process that accepts connections and never answers.
pub const PROBE_TIMEOUT: Duration = Duration::from_millis(1500);

/// The most of a probe answer that is read: the real one is a few hundred bytes.
pub const PROBE_MAX_BYTES: usize = 16 * 1024;

/// The most probes in flight at once, each a connection (a descriptor) open: a
/// directory of thousands of lockfiles whose processes run must not exhaust this
/// process's descriptors, which would make every probe past the limit fail as if its
/// session had. Fewer when `ulimit -n` leaves fewer ([`probes_in_flight`]).
pub const PROBES_IN_FLIGHT: usize = 256;

/// The descriptors left to the rest of the process while probes are in flight (its
/// standard streams, the runtime's, kept connections, a verb's files).
const DESCRIPTORS_KEPT: u64 = 32;

/// How many probes may be in flight at once in this process: [`PROBES_IN_FLIGHT`], or
/// what the descriptor limit (`ulimit -n`, 1024 by default on Linux, 256 on macOS)
/// leaves once [`DESCRIPTORS_KEPT`] are kept for the rest, at least one.
pub fn probes_in_flight() -> usize {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes one `rlimit` into the struct given, valid for the call.
        #[allow(unsafe_code)]
        let failed = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0;
        if !failed && limit.rlim_cur != libc::RLIM_INFINITY {
            let soft: u64 = limit.rlim_cur;
            let left = soft.saturating_sub(DESCRIPTORS_KEPT);
            return usize::try_from(left)
                .unwrap_or(PROBES_IN_FLIGHT)
                .clamp(1, PROBES_IN_FLIGHT);
        }
    }
    PROBES_IN_FLIGHT
}

/// Slack between a process's start time as the OS reports it (whole seconds,
/// derived from the boot time) and the `startedAt` the process wrote itself.
const START_SLACK_SECS: i64 = 2;

/// What the process table says about one lockfile's pid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcessState {
    /// Running, and not started after the lockfile was written (or the start
    /// time could not be compared): the session's own process.
    Session,
    /// No such process, a zombie, or one exiting.
    Gone,
    /// Running, but started after the lockfile's `startedAt`: the pid was reused.
    Reused,
}

/// For each `(pid, startedAt)`, what the process table says.
///
/// On Linux that is one read of `/proc/<pid>/stat` per distinct pid (its state,
/// flags and start time) and two clock reads for the boot time; elsewhere one `sysinfo` snapshot refreshing
/// only these pids. Either way a thousand stale lockfiles cost one look per
/// pid, never a scan of every process.
fn process_states(pids: &[(u32, Option<i64>)]) -> Vec<ProcessState> {
    let mut seen: Vec<(u32, ProcessStart)> = Vec::new();
    pids.iter()
        .map(|&(pid, started_at)| {
            let start = match seen.iter().find(|(p, _)| *p == pid) {
                Some((_, start)) => *start,
                None => {
                    let start = process_start(pid);
                    seen.push((pid, start));
                    start
                }
            };
            judge(start, started_at)
        })
        .collect()
}

/// Whether process `pid` is gone (none, a zombie, or exiting): it writes nothing
/// more. A pid whose state cannot be read is not gone.
pub(crate) fn is_gone(pid: u32) -> bool {
    process_states(&[(pid, None)]) == [ProcessState::Gone]
}

/// What is known of a pid: gone (`None`), or running since `Some(secs)`
/// (`None` inside when its start time could not be read).
type ProcessStart = Option<Option<i64>>;

fn judge(start: ProcessStart, started_at: Option<i64>) -> ProcessState {
    match (start, started_at) {
        (None, _) => ProcessState::Gone,
        (Some(Some(process_start)), Some(written))
            if process_start > written + START_SLACK_SECS =>
        {
            ProcessState::Reused
        }
        (Some(_), _) => ProcessState::Session,
    }
}

/// A task's flag (`/proc/<pid>/stat`'s ninth field) set from the moment it begins
/// to exit. A process killed closes its sockets while it still shows as running
/// (`R`) and long before it is a zombie, so a client whose call it cut off would
/// otherwise see it alive; every thread sets it before the file table is closed.
#[cfg(target_os = "linux")]
const PF_EXITING: u32 = 0x4;

/// What one read of `/proc/<pid>/stat` says of a process.
#[cfg(target_os = "linux")]
enum Seen {
    /// No such process, a zombie, or exiting.
    Gone,
    /// There, but its stat could not be read or parsed.
    Unreadable,
    /// Running since `start` (seconds since the epoch, when known); `stopped`
    /// by SIGSTOP or a debugger (`T`, or `t` for traced).
    There { start: Option<i64>, stopped: bool },
}

#[cfg(target_os = "linux")]
fn look(pid: u32) -> Seen {
    use procfs::FromRead as _;
    let stat = match read_proc_stat(pid) {
        Ok(bytes) => procfs::process::Stat::from_read(bytes.as_slice()).ok(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Seen::Gone,
        Err(_) => return Seen::Unreadable,
    };
    let Some(stat) = stat else {
        return Seen::Unreadable;
    };
    if matches!(stat.state, 'Z' | 'X' | 'x') || stat.flags & PF_EXITING != 0 {
        return Seen::Gone;
    }
    let since_boot = stat.starttime / procfs::ticks_per_second().max(1);
    Seen::There {
        start: boot_time_secs().and_then(|boot| i64::try_from(boot + since_boot).ok()),
        stopped: matches!(stat.state, 'T' | 't'),
    }
}

/// `/proc/<pid>/stat`: gone when absent, a zombie or exiting; else its start
/// time in seconds since the epoch (boot time plus its start in clock ticks).
#[cfg(target_os = "linux")]
fn process_start(pid: u32) -> ProcessStart {
    match look(pid) {
        Seen::Gone => None,
        // Unreadable: say "running" and let the probe decide, since a wrong
        // "gone" would delete a live session's lockfile.
        Seen::Unreadable => Some(None),
        Seen::There { start, .. } => Some(start),
    }
}

/// `/proc/<pid>/stat` in one read: the file reports no size, so `fs::read`
/// would grow its buffer from 32 bytes, a read each time; the line is a few
/// hundred bytes (its one free-form field, the command name, is at most 64).
#[cfg(target_os = "linux")]
fn read_proc_stat(pid: u32) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let mut bytes = Vec::with_capacity(1024);
    std::fs::File::open(format!("/proc/{pid}/stat"))?.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// When the machine booted, in whole seconds since the epoch: the wall clock
/// less the time since boot, which is how the kernel derives `/proc/stat`'s
/// `btime`. Two clock reads (in the vDSO on current kernels), where reading
/// `/proc/stat` had the kernel format every CPU's counters (and, on a large
/// machine, every interrupt's: tens of KiB) on every call.
#[cfg(target_os = "linux")]
fn boot_time_secs() -> Option<u64> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    let mut up = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `up` is a valid, writable timespec for the call's duration.
    #[allow(unsafe_code)]
    let failed = unsafe { libc::clock_gettime(libc::CLOCK_BOOTTIME, &mut up) } != 0;
    if failed {
        return None;
    }
    let up = std::time::Duration::new(
        u64::try_from(up.tv_sec).ok()?,
        u32::try_from(up.tv_nsec).ok()?,
    );
    Some(now.checked_sub(up)?.as_secs())
}

/// One `sysinfo` lookup of this pid (and no other process).
#[cfg(not(target_os = "linux"))]
fn process_start(pid: u32) -> ProcessStart {
    // Where sysinfo cannot read the process table, say "running" and let the
    // probe decide: a wrong "gone" would delete a live session's lockfile.
    let Ok(mut system) = System::new() else {
        return Some(None);
    };
    let pid = Pid::from_u32(pid);
    system.refresh_processes_specifics(
        ProcessesToUpdate::Some(&[pid]),
        true,
        ProcessRefreshKind::nothing(),
    );
    let process = system.process(pid)?;
    if matches!(
        process.status(),
        ProcessStatus::Zombie | ProcessStatus::Dead
    ) {
        return None;
    }
    Some(i64::try_from(process.start_time()).ok())
}

/// A lockfile's `startedAt` as seconds since the epoch; `None` when it is not
/// RFC 3339 (then the process's start time cannot be compared with it).
pub fn started_at_secs(lock: &Lockfile) -> Option<i64> {
    rfc3339_secs(&lock.started_at)
}

/// An RFC 3339 time (a lockfile's `startedAt`) as seconds since the epoch.
pub fn rfc3339_secs(text: &str) -> Option<i64> {
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .ok()
        .map(time::OffsetDateTime::unix_timestamp)
}

/// What became of a session's process, asked when a call to it failed midway.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Exited (or its pid now belongs to a process started since): restarted,
    /// reloaded, crashed, killed.
    Gone,
    /// Stopped (SIGSTOP, a debugger): it answers nothing until resumed.
    Stopped,
    /// Running, as far as the process table tells.
    Running,
}

/// The fate of the session process `pid` whose lockfile says it started at
/// `started_at` (seconds since the epoch): one read of `/proc/<pid>/stat`.
#[cfg(target_os = "linux")]
pub fn fate(pid: u32, started_at: Option<i64>) -> Fate {
    let (start, stopped) = match look(pid) {
        Seen::Gone => return Fate::Gone,
        Seen::Unreadable => return Fate::Running,
        Seen::There { start, stopped } => (start, stopped),
    };
    match judge(Some(start), started_at) {
        ProcessState::Gone | ProcessState::Reused => Fate::Gone,
        ProcessState::Session if stopped => Fate::Stopped,
        ProcessState::Session => Fate::Running,
    }
}

/// The fate of the session process `pid` whose lockfile says it started at
/// `started_at` (seconds since the epoch).
#[cfg(not(target_os = "linux"))]
pub fn fate(pid: u32, started_at: Option<i64>) -> Fate {
    match process_states(&[(pid, started_at)])[0] {
        ProcessState::Gone | ProcessState::Reused => Fate::Gone,
        ProcessState::Session if is_stopped(pid) => Fate::Stopped,
        ProcessState::Session => Fate::Running,
    }
}

/// Whether `pid` is stopped, by one `sysinfo` lookup.
#[cfg(not(target_os = "linux"))]
fn is_stopped(pid: u32) -> bool {
    let Ok(mut system) = System::new() else {
        return false;
    };
    let pid = Pid::from_u32(pid);
    system.refresh_processes_specifics(
        ProcessesToUpdate::Some(&[pid]),
        true,
        ProcessRefreshKind::nothing(),
    );
    system
        .process(pid)
        .is_some_and(|p| matches!(p.status(), ProcessStatus::Stop | ProcessStatus::Tracing))
}

/// What a devtools endpoint answers to `GET /mcp`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProbeInfo {
    pub schema: String,
    pub pid: u32,
    #[serde(default)]
    pub project: String,
    #[serde(default)]
    pub build_tag: String,
    #[serde(default)]
    pub started_at: String,
}

/// The verdict on one lockfile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Liveness {
    Live,
    /// The process is gone, or its pid now belongs to a newer process: the
    /// lockfile is stale. The text says which.
    Stale(String),
    /// The session's process runs but did not answer the probe in time (a
    /// breakpoint, SIGSTOP, out of file descriptors): it is not "no session".
    Unresponsive(String),
    /// The session's process runs, but its endpoint is not that session: it
    /// refused the connection, answered as another program or another pid,
    /// or is not on loopback (then it was not contacted).
    NotDevtools(String),
}

/// Why a probe did not confirm a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeError {
    /// Connected but no complete answer in time, or the connection broke, or
    /// could not be made for a reason that says nothing of the endpoint (this
    /// process out of descriptors).
    NoAnswer(String),
    /// Refused, or answered with something that is not the devtools probe (not
    /// even HTTP: another program has the port).
    NotDevtools(String),
}

/// `GET <endpoint>` and parse the devtools probe answer, reading at most
/// [`PROBE_MAX_BYTES`], within [`PROBE_TIMEOUT`]. A redirect is refused,
/// naming where it pointed (it is never followed).
pub async fn probe(http: &Http, endpoint: &str) -> Result<ProbeInfo, ProbeError> {
    let within = || format!("within {} ms", PROBE_TIMEOUT.as_millis());
    probe_by(http, endpoint, Instant::now() + PROBE_TIMEOUT, within).await
}

/// [`probe`], answered by `deadline`; `within` says how long it had ("within 1500
/// ms"), for the verdict on a probe that had no answer by then.
async fn probe_by(
    http: &Http,
    endpoint: &str,
    deadline: Instant,
    within: impl FnOnce() -> String,
) -> Result<ProbeInfo, ProbeError> {
    endpoint::check_loopback(endpoint).map_err(ProbeError::NotDevtools)?;
    tokio::time::timeout_at(deadline, probe_unbounded(http, endpoint))
        .await
        .unwrap_or_else(|_| {
            Err(ProbeError::NoAnswer(format!(
                "did not answer the probe {}",
                within()
            )))
        })
}

async fn probe_unbounded(http: &Http, endpoint: &str) -> Result<ProbeInfo, ProbeError> {
    let request = Request::get(endpoint).header(
        reqwest::header::ACCEPT,
        reqwest::header::HeaderValue::from_static("application/json"),
    );
    let response = http.send(request).await.map_err(|err| unsent(&err))?;
    let status = response.status();
    if status.is_redirection() {
        let location = response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("(no Location)");
        return Err(ProbeError::NotDevtools(format!(
            "answered HTTP {} redirecting to `{location}` (redirects are never followed)",
            status.as_u16()
        )));
    }
    if !status.is_success() {
        return Err(ProbeError::NotDevtools(format!(
            "answered HTTP {}",
            status.as_u16()
        )));
    }
    let body = read_capped(response).await?;
    let info: ProbeInfo = serde_json::from_slice(&body)
        .map_err(|_| ProbeError::NotDevtools("did not answer the devtools probe".to_owned()))?;
    if info.schema != PROBE_SCHEMA {
        return Err(ProbeError::NotDevtools(format!(
            "answered probe schema `{}`, not `{PROBE_SCHEMA}`",
            info.schema
        )));
    }
    Ok(info)
}

/// What a probe that got no HTTP answer says of the endpoint. Nothing listening
/// (refused), or an answer that is not HTTP at all (an SSH banner: another program
/// has the port), is no devtools session; a listener that says nothing, or a
/// connection that broke, is what a stopped session looks like. A connection that
/// could not be made for another reason (this process out of descriptors) is said as
/// what it was, not as a refusal: it says nothing of the session.
fn unsent(err: &SendError) -> ProbeError {
    match err {
        err if err.is_refused() => ProbeError::NotDevtools("refused the connection".to_owned()),
        // One wording for both ways hyper says it (SendError::Unasked).
        err if err.is_not_http() => {
            ProbeError::NotDevtools("answered with something that is not HTTP".to_owned())
        }
        SendError::Url(_) | SendError::Lookup(_) => ProbeError::NotDevtools(err.to_string()),
        SendError::Connect(_, e) => ProbeError::NoAnswer(format!("could not be connected to: {e}")),
        SendError::Http(e) | SendError::Unasked(e) => {
            ProbeError::NoAnswer(format!("broke off the probe: {}", innermost(e)))
        }
    }
}

/// The body, chunk by chunk, refusing more than [`PROBE_MAX_BYTES`]: a
/// "probe" that streams forever must not grow the reader.
async fn read_capped(response: reqwest::Response) -> Result<Vec<u8>, ProbeError> {
    let mut body = Vec::new();
    let mut chunks = response.bytes_stream();
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk.map_err(|err| {
            ProbeError::NoAnswer(format!("broke off the probe: {}", innermost(&err)))
        })?;
        if body.len() + chunk.len() > PROBE_MAX_BYTES {
            return Err(ProbeError::NotDevtools(format!(
                "answered more than {PROBE_MAX_BYTES} bytes, which is not a devtools probe"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// Judge one lockfile.
pub async fn check(client: &Http, lock: &Lockfile) -> Liveness {
    check_all(client, &[lock])
        .await
        .pop()
        .unwrap_or(Liveness::Stale("not checked".into()))
}

/// Judge many lockfiles: one look at each distinct pid, then the HTTP probes of the
/// sessions' processes concurrently, [`probes_in_flight`] at a time, all within one
/// [`PROBE_TIMEOUT`], each its fair share of it ([`Shares`]). Verdicts come back in the
/// order of `locks`.
async fn check_all(client: &Http, locks: &[&Lockfile]) -> Vec<Liveness> {
    // Every lockfile is probed, so every verdict is there.
    let probed: Vec<(&Lockfile, bool)> = locks.iter().map(|lock| (*lock, true)).collect();
    check_wanted(client, &probed)
        .await
        .into_iter()
        .flatten()
        .collect()
}

/// As [`check_all`], but only the lockfiles paired with `true` are probed: another is
/// judged by its process alone, `None` while that runs. A call for one project
/// does not wait on the probe of another's session (stopped in a debugger, it
/// would cost the whole probe timeout), yet still sees which lockfiles are stale.
pub async fn check_wanted(client: &Http, locks: &[(&Lockfile, bool)]) -> Vec<Option<Liveness>> {
    check_in_flight(client, locks, probes_in_flight()).await
}

/// [`check_wanted`] with at most `in_flight` probes at once.
async fn check_in_flight(
    client: &Http,
    locks: &[(&Lockfile, bool)],
    in_flight: usize,
) -> Vec<Option<Liveness>> {
    let pids: Vec<(u32, Option<i64>)> = locks
        .iter()
        .map(|(lock, _)| (lock.pid, started_at_secs(lock)))
        .collect();
    let states = process_states(&pids);
    let mut verdicts: Vec<Option<Liveness>> = Vec::with_capacity(locks.len());
    let mut probed = Vec::new();
    for (at, (&(lock, probe), state)) in locks.iter().zip(states).enumerate() {
        verdicts.push(match stale(lock, state) {
            Some(stale) => Some(stale),
            // Stdio sessions have no endpoint: their process is all there is to check.
            None if probe && lock.transport == Transport::Stdio => Some(Liveness::Live),
            None if probe => {
                probed.push(at);
                None
            }
            None => None,
        });
    }
    let shares = Shares::new(Instant::now() + PROBE_TIMEOUT, in_flight, probed.len());
    let shares = &shares;
    let probes = probed.into_iter().map(|at| async move {
        let verdict = check_running(client, locks[at].0, shares).await;
        shares.finished();
        (at, verdict)
    });
    // Unordered: a probe whose answer is in frees its place at once, whatever the
    // probes before it wait on (an ordered buffer held every place behind a silent one).
    let answered: Vec<(usize, Liveness)> = futures_util::stream::iter(probes)
        .buffer_unordered(in_flight.max(1))
        .collect()
        .await;
    for (at, verdict) in answered {
        verdicts[at] = Some(verdict);
    }
    verdicts
}

/// How the probe budget ([`PROBE_TIMEOUT`], one deadline over a batch) is shared by the
/// probes of a batch, `places` of them in flight at once. A probe may take, from when it
/// starts, the time left times the places over the probes not finished: all of the time
/// left while there are no more probes than places, and otherwise an equal share of the
/// places' time, which the probes answered sooner hand on to the later ones. A silent
/// endpoint (a process that accepts connections and never answers: stopped, or
/// planted so) holds its place no longer than its share, so however many there are,
/// each probe after them starts before the deadline with a share of its own: with the
/// deadline alone, `places` silent ones held every place to the end, and the live
/// session listed after them was never probed.
struct Shares {
    deadline: Instant,
    places: u32,
    /// How many were to be probed.
    count: usize,
    /// How many have not finished.
    unfinished: AtomicUsize,
}

impl Shares {
    fn new(deadline: Instant, places: usize, count: usize) -> Self {
        Self {
            deadline,
            places: u32::try_from(places.max(1)).unwrap_or(u32::MAX),
            count,
            unfinished: AtomicUsize::new(count),
        }
    }

    /// The time a probe starting now may take, and how to say it; `None` once the
    /// deadline is past.
    fn share(&self) -> Option<(Duration, String)> {
        let left = self.deadline.checked_duration_since(Instant::now())?;
        if left.is_zero() {
            return None;
        }
        let unfinished = self.unfinished.load(Ordering::Relaxed).max(1);
        let probes = u32::try_from(unfinished).unwrap_or(u32::MAX);
        if probes <= self.places {
            return Some((left, format!("within {} ms", PROBE_TIMEOUT.as_millis())));
        }
        let share = left * self.places / probes;
        let said = format!(
            "within {} ms, its share of the {} ms that the probes of {} sessions had",
            share.as_millis(),
            PROBE_TIMEOUT.as_millis(),
            self.count
        );
        Some((share, said))
    }

    fn finished(&self) {
        self.unfinished.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The verdict on a lockfile whose process is gone or is another's now.
fn stale(lock: &Lockfile, state: ProcessState) -> Option<Liveness> {
    match state {
        ProcessState::Gone => Some(Liveness::Stale(format!("pid {} is gone", lock.pid))),
        ProcessState::Reused => Some(Liveness::Stale(format!(
            "pid {} now belongs to a process started after the session",
            lock.pid
        ))),
        ProcessState::Session => None,
    }
}

/// The verdict on the lockfile of an HTTP session whose process runs, probed within
/// its share of the batch's time.
async fn check_running(client: &Http, lock: &Lockfile, shares: &Shares) -> Liveness {
    // Its turn came too late (the machine too slow to start it in time): not
    // contacted, it is said so, rather than connected to and dropped at once.
    let Some((share, within)) = shares.share() else {
        return Liveness::Unresponsive(format!(
            "was not probed within {} ms: the probes of other sessions took all of it",
            PROBE_TIMEOUT.as_millis()
        ));
    };
    match probe_by(client, &lock.endpoint, Instant::now() + share, || within).await {
        Ok(info) if info.pid == lock.pid => Liveness::Live,
        Ok(info) => {
            Liveness::NotDevtools(format!("answered for pid {}, not {}", info.pid, lock.pid))
        }
        Err(ProbeError::NoAnswer(reason)) => Liveness::Unresponsive(reason),
        Err(ProbeError::NotDevtools(reason)) => Liveness::NotDevtools(reason),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A lockfile for this (live) process, naming a session at `port`.
    fn ours_at(port: u16) -> Lockfile {
        Lockfile::http(port, std::process::id(), "/p".into(), "t".into())
    }

    /// The pid of a child that has exited and been reaped: certainly not running
    /// (the leftovers' tests use it too).
    pub(crate) fn reaped_pid() -> u32 {
        let mut child = std::process::Command::new("true")
            .spawn()
            .expect("spawn true");
        let pid = child.id();
        child.wait().expect("wait");
        pid
    }

    /// Asserts the check makes `expected` (`Liveness::Stale`, …) of `lock`, with a
    /// reason that contains `part`.
    async fn assert_verdict(lock: &Lockfile, expected: fn(String) -> Liveness, part: &str) {
        let verdict = check(&Http::new(), lock).await;
        let why = match &verdict {
            Liveness::Live => "",
            Liveness::Stale(why) | Liveness::Unresponsive(why) | Liveness::NotDevtools(why) => why,
        };
        let same =
            std::mem::discriminant(&verdict) == std::mem::discriminant(&expected(String::new()));
        assert!(same && why.contains(part), "{verdict:?}");
    }

    #[test]
    fn this_process_is_running() {
        assert_eq!(
            process_states(&[(std::process::id(), None)]),
            [ProcessState::Session]
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_boot_time_is_the_one_proc_stat_reports() {
        let ours = boot_time_secs().expect("boot time");
        let kernels = procfs::boot_time_secs().expect("/proc/stat");
        assert!(ours.abs_diff(kernels) <= 1, "{ours} vs {kernels}");
    }

    #[test]
    fn a_reaped_child_is_not_running() {
        let pid = reaped_pid();
        assert_eq!(process_states(&[(pid, None)]), [ProcessState::Gone]);
    }

    #[tokio::test]
    async fn a_dead_pid_is_stale_without_any_network() {
        let pid = reaped_pid();
        let lock = Lockfile::http(1, pid, "/p".into(), "t".into());
        assert_eq!(
            check(&Http::new(), &lock).await,
            Liveness::Stale(format!("pid {pid} is gone"))
        );
    }

    #[tokio::test]
    async fn check_all_judges_each_lockfile_in_order() {
        let dead = reaped_pid();
        let stale = Lockfile::http(1, dead, "/a".into(), "t".into());
        let stdio = Lockfile::stdio(std::process::id(), "/b".into(), "t".into());
        let verdicts = check_all(&Http::new(), &[&stale, &stdio, &stale]).await;
        let gone = Liveness::Stale(format!("pid {dead} is gone"));
        assert_eq!(verdicts, [gone.clone(), Liveness::Live, gone]);
    }

    #[tokio::test]
    async fn a_live_pid_with_nothing_listening_is_not_devtools() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        drop(listener);
        assert_verdict(&ours_at(port), Liveness::NotDevtools, "").await;
    }

    #[tokio::test]
    async fn a_pid_now_owned_by_a_newer_process_is_stale() {
        // This process started moments ago; a lockfile from 2001 with its pid
        // was written by some earlier process that had the same number.
        let mut lock = Lockfile::stdio(std::process::id(), "/p".into(), "t".into());
        lock.started_at = "2001-02-03T04:05:06Z".into();
        assert_verdict(&lock, Liveness::Stale, "started after").await;
    }

    #[tokio::test]
    async fn a_listener_that_never_answers_is_unresponsive_not_stale() {
        // Bound and listening, never accepting: the kernel completes the
        // handshake and the request waits, as with a session under SIGSTOP.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        assert_verdict(&ours_at(port), Liveness::Unresponsive, "did not answer").await;
        drop(listener);
    }

    /// A listener on `127.0.0.1` that answers every connection's request with the devtools
    /// probe, as this process's session; its port.
    fn answering_the_probe() -> u16 {
        use std::io::{Read as _, Write as _};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let body = format!(
            "{{\"schema\":\"{PROBE_SCHEMA}\",\"pid\":{}}}",
            std::process::id()
        );
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                let _ = stream.read(&mut [0u8; 4096]);
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        port
    }

    /// Whether each listener was connected to: a connection the client dropped still
    /// waits in the accept queue.
    fn contacted(listeners: &[std::net::TcpListener]) -> Vec<bool> {
        listeners
            .iter()
            .map(|l| {
                l.set_nonblocking(true).expect("nonblocking");
                l.accept().is_ok()
            })
            .collect()
    }

    /// A live session listed after more silent ones (that accept connections and never
    /// answer) than probes in flight is found, and every silent one is contacted, all
    /// within the one probe timeout: each probe gets its share of it. Before, the silent
    /// ones held every place in flight until the deadline, and the live session, its
    /// turn come too late, was "not probed" (left out of `session list`, exit 2).
    #[tokio::test]
    async fn a_live_session_after_more_silent_ones_than_places_in_flight_is_found() {
        let in_flight = 4;
        let silent: Vec<std::net::TcpListener> = (0..in_flight + 2)
            .map(|_| std::net::TcpListener::bind("127.0.0.1:0").expect("bind"))
            .collect();
        let mut locks: Vec<Lockfile> = silent
            .iter()
            .map(|l| ours_at(l.local_addr().expect("addr").port()))
            .collect();
        locks.push(ours_at(answering_the_probe()));
        let probed: Vec<(&Lockfile, bool)> = locks.iter().map(|lock| (lock, true)).collect();
        let verdicts: Vec<Liveness> = check_in_flight(&Http::new(), &probed, in_flight)
            .await
            .into_iter()
            .flatten()
            .collect();

        assert_eq!(verdicts.len(), locks.len());
        let (live, silent_verdicts) = verdicts.split_last().expect("verdicts");
        assert_eq!(*live, Liveness::Live, "{verdicts:?}");
        for verdict in silent_verdicts {
            let Liveness::Unresponsive(why) = verdict else {
                panic!("{verdicts:?}");
            };
            assert!(why.starts_with("did not answer the probe within "), "{why}");
        }
        assert_eq!(contacted(&silent), vec![true; silent.len()]);
    }

    /// More silent sessions than places in flight: the first probes say that their time
    /// was their share of the probe timeout, with others, and the last that it was the
    /// probe timeout; none is left unprobed.
    #[tokio::test]
    async fn a_silent_sessions_share_of_the_probe_timeout_is_said() {
        let in_flight = 2;
        let silent: Vec<std::net::TcpListener> = (0..3)
            .map(|_| std::net::TcpListener::bind("127.0.0.1:0").expect("bind"))
            .collect();
        let locks: Vec<Lockfile> = silent
            .iter()
            .map(|l| ours_at(l.local_addr().expect("addr").port()))
            .collect();
        let probed: Vec<(&Lockfile, bool)> = locks.iter().map(|lock| (lock, true)).collect();
        let verdicts = check_in_flight(&Http::new(), &probed, in_flight).await;
        let said: Vec<String> = verdicts
            .into_iter()
            .map(|verdict| match verdict {
                Some(Liveness::Unresponsive(why)) => why,
                other => panic!("{other:?}"),
            })
            .collect();
        for why in &said[..2] {
            assert!(
                why.starts_with("did not answer the probe within ")
                    && why.ends_with(
                        " ms, its share of the 1500 ms that the probes of 3 sessions had"
                    ),
                "{why}"
            );
        }
        assert_eq!(said[2], "did not answer the probe within 1500 ms");
        assert_eq!(contacted(&silent), [true; 3]);
    }

    /// The places in flight are what the descriptor limit leaves, at most
    /// [`PROBES_IN_FLIGHT`].
    #[cfg(unix)]
    #[test]
    fn the_probes_in_flight_are_bounded_by_the_descriptor_limit() {
        let places = probes_in_flight();
        assert!((1..=PROBES_IN_FLIGHT).contains(&places), "{places}");
    }

    #[tokio::test]
    async fn a_listener_that_hangs_up_on_the_probe_broke_it_off() {
        use std::io::Read as _;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        std::thread::spawn(move || {
            if let Ok((mut stream, _)) = listener.accept() {
                let _ = stream.read(&mut [0u8; 1024]);
            }
        });
        assert_eq!(
            check(&Http::new(), &ours_at(port)).await,
            Liveness::Unresponsive(
                "broke off the probe: connection closed before message completed".into()
            )
        );
    }

    /// A listener on `127.0.0.1` that greets each connection with `greeting` and
    /// holds it open, as an SSH server does; its port.
    fn greeting_with(greeting: &'static [u8]) -> u16 {
        use std::io::Write as _;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        std::thread::spawn(move || {
            let mut held = Vec::new();
            for mut stream in listener.incoming().flatten() {
                let _ = stream.write_all(greeting);
                held.push(stream);
            }
        });
        port
    }

    #[tokio::test]
    async fn a_port_that_answers_something_not_http_is_another_programs() {
        // Read as a stopped session, it made every call without --project exit 1
        // ("1 of them not answering") beside a live session, and this one exit 2.
        // hyper says a greeting one of two ways, by whether it arrived before the
        // request was written (CI saw the second as "broke off the probe"): each
        // probe is a new connection, so a few of them meet both.
        let port = greeting_with(b"SSH-2.0-OpenSSH_9.6\r\n");
        for _ in 0..20 {
            assert_eq!(
                check(&Http::new(), &ours_at(port)).await,
                Liveness::NotDevtools("answered with something that is not HTTP".into())
            );
        }
    }

    #[test]
    fn a_connect_that_fails_for_another_reason_than_a_refusal_says_so() {
        let addr = "127.0.0.1:9".parse().expect("addr");
        let emfile = SendError::Connect(addr, std::io::Error::from_raw_os_error(libc::EMFILE));
        let ProbeError::NoAnswer(why) = unsent(&emfile) else {
            panic!("out of descriptors is no verdict on the session");
        };
        assert!(why.starts_with("could not be connected to: "), "{why}");
        assert!(!why.contains("refused"), "{why}");
    }

    #[tokio::test]
    async fn an_endless_probe_answer_is_cut_at_the_cap() {
        use std::io::{Read as _, Write as _};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        std::thread::spawn(move || {
            let Ok((mut stream, _)) = listener.accept() else {
                return;
            };
            let mut request = [0u8; 1024];
            let _ = stream.read(&mut request);
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n");
            let chunk = [b' '; 4096];
            while stream.write_all(&chunk).is_ok() {}
        });
        assert_verdict(
            &ours_at(port),
            Liveness::NotDevtools,
            "more than 16384 bytes",
        )
        .await;
    }

    #[tokio::test]
    async fn an_endpoint_off_loopback_is_never_contacted() {
        let mut lock = ours_at(80);
        // Contacted, this address would time out (an Unresponsive verdict).
        lock.endpoint = "http://10.255.255.1:80/mcp".into();
        assert_verdict(&lock, Liveness::NotDevtools, "not a loopback address").await;
    }
}
