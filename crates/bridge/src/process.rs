//! The stdio server's process, awaited without tokio's process driver.
//!
//! `tokio::process` is the obvious tool, but its cargo feature (with the
//! `signal` feature it needs) makes tokio build a signal driver into every
//! runtime of the binary: a socket pair, a table of ~65 signal slots and an
//! epoll registration, ~24 µs and six pages of heap on every `mur devtools …`
//! call, which starts a runtime for its one request and never spawns a process
//! (docs/performance.md, "Left in the runtime a call starts: the signal driver"). What the
//! bridge needs of a child is small: its stdin and stdout as async pipes (tokio's
//! `net` feature has those), and its exit as something to await — on Linux a
//! pidfd, readable once the child has exited; elsewhere (or on a kernel before
//! 5.3) a poll of `try_wait`. The `std::process::Child` stays the one owner of
//! the pid: it knows whether it has reaped the child, so a kill never reaches
//! a recycled pid. It is spawned through [`mur_procs::spawn`], which lists it
//! until reaped, so the bridge's own reaping never takes its status.
//!
//! The child leads a process group of its own, and the group is what is ended:
//! a server started through a wrapper (`npx` runs `npm exec`, which runs
//! `sh -c`, which runs `node`; `sh -c 'server; cleanup'`) has its real process
//! as a grandchild, which a signal to the child alone leaves running, orphaned.
//!
//! What left the group (a `setsid`, a daemon's double fork) is found by the marker
//! the child's environment holds ([`SERVER_VAR`], inherited by all it starts): on
//! Linux the bridge is a child subreaper ([`mur_procs::become_subreaper`]), so such a
//! process stays its descendant however it detached, and is killed once the group
//! is gone. A process that left the group and replaced its environment
//! (`setsid env -i …`) is not found, nor anything outside the group without `/proc`.
//! Whatever of the server's the bridge adopted and exits on its own (or was killed and
//! not reaped yet) is reaped every [`REAP_EVERY`] while the server runs, and as a start
//! ends ([`mur_procs::reap_adopted`]): a bridge that runs for days and restarts its
//! server does not gather zombies. That reaping, and the look at what is left of the
//! group while a start ends, read all of `/proc` (thousands of entries on a busy
//! machine): done on the runtime's blocking threads, never on the ones that relay
//! requests.

use std::io;
use std::process::ExitStatus;
use std::time::Duration;

use mur_procs::Spawned;
use tokio::net::unix::pipe;

/// How often a child's exit is checked where there is no pidfd to wait on.
const EXIT_POLL: Duration = Duration::from_millis(50);
/// How often a group being ended is looked at (nothing tells when its last
/// process is gone).
const GROUP_POLL: Duration = Duration::from_millis(20);
/// How long the group gets to go after SIGKILL (a process in uninterruptible
/// sleep dies only when it wakes): past it the bridge goes on without it.
const KILL_WAIT: Duration = Duration::from_secs(2);
/// How often the bridge's zombie children no `Child` is owed are reaped while the
/// server runs: a process whose parent exited is the bridge's (a subreaper), in the
/// server's group or out of it (`setsid`, marked or not), and nothing else reaps
/// it once it exits on its own. One `waitid` each time, `/proc` read only when there
/// is a zombie; on a blocking thread ([`Reaping`]), never on a request's path.
const REAP_EVERY: Duration = Duration::from_secs(5);

/// How [`Process::wait`] reaps what the bridge adopted: every [`REAP_EVERY`],
/// [`reaped_adopted`]. A field of the process so a test can stand a slow scan of
/// `/proc` in for it, and see that it holds up no request.
#[derive(Clone, Copy)]
struct Reaping {
    every: Duration,
    reap: fn(),
}

const REAPING: Reaping = Reaping {
    every: REAP_EVERY,
    reap: reaped_adopted,
};

/// The variable in the server's environment (and so in that of everything it
/// starts) whose value marks the processes of that one start of it
/// ([`mur_procs::marker`]).
pub(crate) const SERVER_VAR: &str = "MUR_BRIDGE_SERVER";

/// A started child with piped stdin and stdout, leading a process group of its
/// own; its group is killed (and the child reaped) when dropped.
pub(crate) struct Process {
    /// `None` only while being dropped.
    child: Option<Spawned>,
    /// The child's process group (its pid), until it is known to be empty: a
    /// group's number is not given to a new process while any member lives,
    /// but once the group is empty it may be, so it is not signalled again.
    group: Option<rustix::process::Pid>,
    /// The group's number for good: a process marked is said to have left it
    /// or not, and the group is gone once only exited members are left.
    pgid: i32,
    /// The child's [`SERVER_VAR`], until what carries it has been killed.
    marker: Option<String>,
    reaping: Reaping,
    #[cfg(target_os = "linux")]
    exit: Option<tokio::io::unix::AsyncFd<std::os::fd::OwnedFd>>,
}

impl Process {
    /// Takes over `child` (spawned through [`mur_procs::spawn`] with piped stdin
    /// and stdout, in a process group of its own: [`in_own_group`], its environment
    /// holding `marker`: [`marked`]); returns it with those two pipes as async ends.
    /// Called inside the runtime.
    pub(crate) fn adopt(
        mut child: Spawned,
        marker: String,
    ) -> io::Result<(Self, pipe::Sender, pipe::Receiver)> {
        let pipes = match (child.stdin.take(), child.stdout.take()) {
            (Some(stdin), Some(stdout)) => pipe::Sender::from_owned_fd(stdin.into())
                .and_then(|stdin| Ok((stdin, pipe::Receiver::from_owned_fd(stdout.into())?))),
            _ => Err(io::Error::other(
                "the server's stdin or stdout was not piped",
            )),
        };
        let group = rustix::process::Pid::from_child(&child);
        let process = Self {
            #[cfg(target_os = "linux")]
            exit: exit_fd(&child),
            group: Some(group),
            pgid: group.as_raw_nonzero().get(),
            marker: Some(marker),
            reaping: REAPING,
            child: Some(child),
        };
        let (stdin, stdout) = pipes?;
        Ok((process, stdin, stdout))
    }

    /// The server's pid: the number of the group it leads.
    pub(crate) fn pid(&self) -> i32 {
        self.pgid
    }

    /// Resolves once the child has exited, with its status (cancel-safe: a
    /// `select!` may drop it and wait again). Meanwhile the bridge's zombie children
    /// that no `Child` is owed are reaped every [`REAP_EVERY`].
    pub(crate) async fn wait(&mut self) -> io::Result<ExitStatus> {
        let every = self.reaping.every;
        let mut next_reap = tokio::time::Instant::now() + every;
        loop {
            let child = self.child_mut()?;
            if let Some(status) = child.try_wait()? {
                return Ok(status);
            }
            if tokio::time::Instant::now() >= next_reap {
                // Not the child, which is listed as its `Child`'s (`mur_procs::spawn`):
                // what the server left that has exited since.
                self.reap_adopted().await;
                next_reap = tokio::time::Instant::now() + every;
            }
            #[cfg(target_os = "linux")]
            if let Some(exit) = &self.exit {
                tokio::select! {
                    ready = exit.readable() => ready?.clear_ready(),
                    () = tokio::time::sleep_until(next_reap) => {}
                }
                continue;
            }
            tokio::time::sleep(EXIT_POLL).await;
        }
    }

    /// Ends the child's whole group: SIGTERM to every process in it (a server
    /// that saves its state on SIGTERM gets to), `grace` for them to go, then
    /// SIGKILL; returns once the child is reaped and the group gone (or after
    /// [`KILL_WAIT`] past the SIGKILL), and what it left outside the group is
    /// killed ([`Process::end_left`]). The signals are skipped if the group is
    /// already empty.
    pub(crate) async fn end(&mut self, grace: Duration) -> io::Result<ExitStatus> {
        if !self.group_gone().await {
            self.signal_group(rustix::process::Signal::TERM);
            if !self.group_gone_within(grace).await {
                tracing::info!(
                    "the server's processes did not exit within {} s of SIGTERM; killing them",
                    grace.as_secs()
                );
                self.signal_group(rustix::process::Signal::KILL);
                self.group_gone_within(KILL_WAIT).await;
            }
        }
        let status = self.wait().await;
        self.reap().await;
        self.end_left().await;
        status
    }

    /// Kills what carries the child's marker, the processes it started that left
    /// its group (and any of the group still there), and reaps those that are the
    /// bridge's; once, after the child is reaped by its `Child` (a zombie of the
    /// marker is reaped here). Blocking work, done off the runtime's threads.
    async fn end_left(&mut self) {
        let Some(marker) = self.marker.take() else {
            return;
        };
        let group = self.pgid;
        let killed = tokio::task::spawn_blocking(move || {
            mur_procs::kill_left(SERVER_VAR, &marker, Some(group))
        })
        .await;
        match killed {
            Ok(0) => {}
            Ok(left) => tracing::info!(
                "the server left {left} {} running outside its process group (`setsid`, a \
                 daemon); killed {}",
                if left == 1 { "process" } else { "processes" },
                if left == 1 { "it" } else { "them" },
            ),
            Err(e) => tracing::debug!("cannot end what the server left running: {e}"),
        }
    }

    /// Whether the child has exited (it is reaped then) and no other process
    /// of its group is left. Polled: waits for up to `limit`.
    pub(crate) async fn group_gone_within(&mut self, limit: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            if self.group_gone().await {
                return true;
            }
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(GROUP_POLL).await;
        }
    }

    /// Reaps the child if it has exited (and what of its group is the
    /// bridge's: [`Process::reap`]), then asks the kernel whether its group
    /// still has a process (an exited one not yet reaped counts).
    async fn group_gone(&mut self) -> bool {
        self.reap().await;
        let Some(group) = self.group else {
            return true;
        };
        // ESRCH: no process is in the group any more. Any other answer
        // (EPERM: a member changed user) means there is one — or only
        // processes that have exited and wait for their new parent to reap
        // them, which hold nothing (an init that reaps late keeps them for
        // seconds). That is a read of all of `/proc`, polled while a start
        // ends: on a blocking thread.
        let pgid = self.pgid;
        let gone = rustix::process::test_kill_process_group(group)
            .is_err_and(|e| e == rustix::io::Errno::SRCH)
            || tokio::task::spawn_blocking(move || mur_procs::only_exited(pgid))
                .await
                .unwrap_or(false);
        if gone {
            self.group = None;
            // The child, if it was one of those exited, is reaped now.
            self.reap().await;
        }
        gone
    }

    /// Reaps the child if it has exited, and then the bridge's zombie children no
    /// `Child` is owed: a process of the group whose parent exited is the bridge's
    /// (a subreaper), and its zombie would stay until the bridge ends (and keep the
    /// group from being gone).
    async fn reap(&mut self) {
        let reaped = self
            .child
            .as_mut()
            .is_some_and(|child| matches!(child.try_wait(), Ok(Some(_))));
        if reaped {
            self.reap_adopted().await;
        }
    }

    /// The bridge's zombie children no `Child` is owed, reaped ([`Reaping`]) on a
    /// blocking thread: with a zombie to reap, all of `/proc` is read, which on a
    /// thread of the runtime held up every request it relayed meanwhile. Cancel-safe:
    /// dropped, the reaping runs to its end all the same.
    async fn reap_adopted(&self) {
        let _ = tokio::task::spawn_blocking(self.reaping.reap).await;
    }

    fn signal_group(&mut self, signal: rustix::process::Signal) {
        if let Some(group) = self.group
            && let Err(e) = rustix::process::kill_process_group(group, signal)
        {
            if e == rustix::io::Errno::SRCH {
                self.group = None;
            } else {
                tracing::debug!("cannot signal the server's processes: {e}");
            }
        }
    }

    fn child_mut(&mut self) -> io::Result<&mut Spawned> {
        self.child
            .as_mut()
            .ok_or_else(|| io::Error::other("the server's process is gone"))
    }
}

impl Drop for Process {
    /// As `kill_on_drop`, for the whole group and what carries the child's
    /// marker: a bridge that stops or fails leaves no server behind.
    /// The reaping happens on a thread of its own, so a child slow to die
    /// (in uninterruptible sleep) does not hold up the runtime; so does the look at
    /// `/proc` for what is left of the group: SIGKILL goes to the group if the kernel
    /// has one by its number (one whose members have all exited takes it harmlessly).
    fn drop(&mut self) {
        self.signal_group(rustix::process::Signal::KILL);
        let marker = self.marker.take();
        let killed = marker
            .as_ref()
            .map(|marker| mur_procs::kill_marked(SERVER_VAR, marker));
        let mut child = self.child.take();
        if child
            .as_mut()
            .is_none_or(|child| matches!(child.try_wait(), Ok(Some(_))))
        {
            child = None;
            if marker.is_none() {
                return;
            }
        }
        if let Some(child) = &mut child {
            let _ = child.kill();
        }
        let group = self.pgid;
        let _ = std::thread::Builder::new()
            .name("reap-server".into())
            .spawn(move || {
                if let Some(mut child) = child {
                    let _ = child.wait();
                }
                // Its `Child` reaped: the rest of the group and what left it are
                // the bridge's to reap.
                if let (Some(marker), Some(killed)) = (marker, killed) {
                    mur_procs::kill_left_after(killed, SERVER_VAR, &marker, Some(group));
                }
                reaped_adopted();
            });
    }
}

/// [`mur_procs::reap_adopted`], said in the log when it reaped something.
fn reaped_adopted() {
    let reaped = mur_procs::reap_adopted();
    if reaped > 0 {
        tracing::debug!(
            "reaped {reaped} exited {} the bridge adopted",
            if reaped == 1 { "process" } else { "processes" }
        );
    }
}

/// `command`, set to start in a process group of its own (led by the child),
/// which [`Process`] ends as a whole.
pub(crate) fn in_own_group(command: &mut std::process::Command) -> &mut std::process::Command {
    std::os::unix::process::CommandExt::process_group(command, 0)
}

/// Gives `command` a new marker in its environment ([`SERVER_VAR`]), which
/// everything it starts inherits; returns it, for [`Process::adopt`].
pub(crate) fn marked(command: &mut std::process::Command) -> String {
    let marker = mur_procs::marker();
    command.env(SERVER_VAR, &marker);
    marker
}

/// A pidfd for `child`: readable once it has exited. `None` where the kernel
/// has none (before 5.3): [`Process::wait`] then polls.
#[cfg(target_os = "linux")]
fn exit_fd(child: &std::process::Child) -> Option<tokio::io::unix::AsyncFd<std::os::fd::OwnedFd>> {
    use rustix::process::{Pid, PidfdFlags, pidfd_open};
    let pid = Pid::from_child(child);
    let fd = pidfd_open(pid, PidfdFlags::NONBLOCK)
        .map_err(|e| {
            tracing::debug!("no pidfd for the server (pid {pid:?}): {e}; polling its exit")
        })
        .ok()?;
    // SAFETY: an `OwnedFd` is open until dropped and always names the same
    // descriptor, which is all tokio asks of what it registers.
    #[allow(unsafe_code)]
    let watched = unsafe {
        tokio::io::unix::AsyncFd::register_with_interest(fd, tokio::io::Interest::READABLE)
    };
    watched
        .map_err(|e| tracing::debug!("cannot watch the server's pidfd: {e}; polling its exit"))
        .ok()
}

#[cfg(test)]
mod tests {
    use std::process::{Command, Stdio};

    use std::os::unix::process::ExitStatusExt as _;

    use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

    use super::*;

    fn start(script: &str) -> (Process, pipe::Sender, pipe::Receiver) {
        let mut command = Command::new("sh");
        let marker = marked(&mut command);
        in_own_group(&mut command)
            .args(["-c", script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        // Listed, as the server is: other tests of this process reap what it adopted.
        let child = mur_procs::spawn(&mut command).expect("sh starts");
        Process::adopt(child, marker).expect("adopted")
    }

    /// Writes `ping` to the server started by [`start`], and reads the line it answers.
    async fn ping(stdin: &mut pipe::Sender, stdout: pipe::Receiver) -> String {
        stdin.write_all(b"ping\n").await.expect("written");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .await
            .expect("read");
        line
    }

    /// Whether `pid` is still a process (a zombie counts: it is not reaped).
    fn exists(pid: u32) -> bool {
        std::path::Path::new(&format!("/proc/{pid}")).exists()
    }

    /// The exit status, which must come within 10 s.
    async fn exit_of(process: &mut Process) -> ExitStatus {
        tokio::time::timeout(Duration::from_secs(10), process.wait())
            .await
            .expect("the exit is noticed")
            .expect("waited")
    }

    /// A wait that must not end within `for_`, given up after it.
    async fn still_running(process: &mut Process, for_: Duration) {
        tokio::select! {
            _ = process.wait() => panic!("exited before its input closed"),
            () = tokio::time::sleep(for_) => {}
        }
    }

    #[tokio::test]
    async fn the_pipes_carry_lines_and_the_exit_is_awaited_with_its_status() {
        let (mut process, mut stdin, stdout) = start("read line; echo \"got $line\"; exit 3");
        assert_eq!(ping(&mut stdin, stdout).await, "got ping\n");
        let status = exit_of(&mut process).await;
        assert_eq!(status.code(), Some(3));
        // Waiting again answers the same.
        assert_eq!(process.wait().await.expect("waited").code(), Some(3));
    }

    #[tokio::test]
    async fn a_wait_given_up_in_a_select_can_be_taken_up_again() {
        let (mut process, stdin, _stdout) = start("read line; exit 0");
        still_running(&mut process, Duration::from_millis(100)).await;
        drop(stdin);
        let status = exit_of(&mut process).await;
        assert!(status.success());
    }

    /// Where there is no pidfd (not Linux, or a kernel before 5.3), the exit
    /// is found by polling: the same answers, a little later.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn without_a_pidfd_the_exit_is_found_by_polling() {
        let (mut process, stdin, _stdout) = start("read line; exit 4");
        process.exit = None;
        still_running(&mut process, EXIT_POLL * 2).await;
        drop(stdin);
        let status = exit_of(&mut process).await;
        assert_eq!(status.code(), Some(4));
    }

    /// The stand-in for a scan of a large `/proc` ([`held_scan`]): whether it began,
    /// whether it was let go, and whether it waited out its 10 s instead.
    struct HeldScan {
        began: std::sync::atomic::AtomicBool,
        let_go: std::sync::Mutex<bool>,
        going: std::sync::Condvar,
        waited_out: std::sync::atomic::AtomicBool,
    }

    static HELD_SCAN: HeldScan = HeldScan {
        began: std::sync::atomic::AtomicBool::new(false),
        let_go: std::sync::Mutex::new(false),
        going: std::sync::Condvar::new(),
        waited_out: std::sync::atomic::AtomicBool::new(false),
    };

    /// A reaping that takes until the test lets it go (10 s at most): a read of all of
    /// `/proc` on a machine of many processes, made as long as the test needs.
    fn held_scan() {
        use std::sync::atomic::Ordering::SeqCst;
        HELD_SCAN.began.store(true, SeqCst);
        let let_go = HELD_SCAN.let_go.lock().expect("the flag");
        let (_let_go, waited) = HELD_SCAN
            .going
            .wait_timeout_while(let_go, Duration::from_secs(10), |go| !*go)
            .expect("the flag");
        if waited.timed_out() {
            HELD_SCAN.waited_out.store(true, SeqCst);
        }
    }

    /// While the periodic reaping scans `/proc`, what the server is sent and answers
    /// still goes through: on a runtime of one thread, a scan on it held every
    /// request up (here until it gave up, 10 s on; in a bridge, for as long as the
    /// scan took).
    #[tokio::test]
    async fn a_request_is_relayed_while_the_reaping_scans() {
        use std::sync::atomic::Ordering::SeqCst;
        let (mut process, mut stdin, stdout) =
            start("while read line; do echo \"got $line\"; done");
        process.reaping = Reaping {
            every: Duration::from_millis(10),
            reap: held_scan,
        };
        let relayed = async {
            while !HELD_SCAN.began.load(SeqCst) {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            let line = ping(&mut stdin, stdout).await;
            *HELD_SCAN.let_go.lock().expect("the flag") = true;
            HELD_SCAN.going.notify_all();
            line
        };
        let answer = tokio::select! {
            _ = process.wait() => panic!("the server exited"),
            answer = relayed => answer,
        };
        assert_eq!(answer, "got ping\n");
        assert!(
            !HELD_SCAN.waited_out.load(SeqCst),
            "the request waited for the scan to end"
        );
    }

    /// The live processes of group `pgid` (an exited one not yet reaped by
    /// its new parent does not count: it holds nothing).
    fn members(pgid: u32) -> Vec<u32> {
        mur_procs::processes()
            .unwrap_or_default()
            .into_iter()
            .filter(|p| !p.zombie && u32::try_from(p.pgrp) == Ok(pgid))
            .filter_map(|p| u32::try_from(p.pid).ok())
            .collect()
    }

    /// A server behind a wrapper: `sh` runs it as a child and waits, as
    /// `npx` or `sh -c 'server; cleanup'` do; the server ignores SIGTERM.
    const WRAPPED: &str = "sh -c 'trap \"\" TERM; sleep 60'; true";

    #[tokio::test]
    async fn ending_a_process_ends_its_group_sigterm_first() {
        // One that exits on SIGTERM is not killed.
        let (mut process, _stdin, _stdout) = start("sleep 60");
        let status = process.end(Duration::from_secs(10)).await.expect("ended");
        assert_eq!(status.signal(), Some(15));
        // Ending what has been reaped is no error and signals nothing.
        process.end(Duration::ZERO).await.expect("no-op");

        // A grandchild that ignores SIGTERM is killed with the group.
        let (mut process, _stdin, _stdout) = start(WRAPPED);
        let pgid = process
            .child
            .as_ref()
            .map(|child| child.id())
            .expect("a child");
        server_started(pgid).await;
        process
            .end(Duration::from_millis(200))
            .await
            .expect("ended");
        assert_eq!(members(pgid), Vec::<u32>::new());
    }

    /// Waits until the wrapper of group `pgid` has started its server (two members).
    async fn server_started(pgid: u32) {
        let two = async {
            while members(pgid).len() < 2 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(10), two)
            .await
            .expect("the wrapper starts its server");
    }

    #[tokio::test]
    async fn a_dropped_process_is_killed_with_its_group_and_reaped() {
        let (process, _stdin, _stdout) = start(WRAPPED);
        let pid = process
            .child
            .as_ref()
            .map(|child| child.id())
            .expect("a child");
        assert!(exists(pid));
        server_started(pid).await;
        drop(process);
        let gone = async {
            while exists(pid) || !members(pid).is_empty() {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(10), gone)
            .await
            .expect("killed and reaped when dropped");
    }

    /// A server that leaves a process outside its group (`setsid`), which writes its
    /// pid to the server's stdout and sleeps; the server waits for it.
    const LEAVES: &str = "setsid sh -c 'echo $$; exec sleep 60' & wait";

    /// The pid the first line of `stdout` names.
    async fn first_pid(stdout: pipe::Receiver) -> i32 {
        let (mut line, mut stdout) = (String::new(), BufReader::new(stdout));
        let read = stdout.read_line(&mut line);
        tokio::time::timeout(Duration::from_secs(10), read)
            .await
            .expect("a line within 10 s")
            .expect("read");
        line.trim().parse().expect("a pid")
    }

    /// Whether `pid` is running (not gone, no zombie).
    fn running(pid: i32) -> bool {
        mur_procs::stat(pid).is_some_and(|p| !p.zombie)
    }

    /// Waits until `pid` is gone, reaped, for at most 10 s.
    async fn reaped(pid: i32) {
        let gone = async {
            while mur_procs::stat(pid).is_some() {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(10), gone)
            .await
            .expect("gone and reaped");
    }

    /// What the server moved out of its group carries its marker: ending the
    /// server kills it, and reaps it (its parent gone, it is the bridge's, a
    /// subreaper). Before, it ran on, reparented to init.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn ending_a_process_kills_what_it_left_outside_its_group() {
        mur_procs::become_subreaper().expect("a subreaper");
        let (mut process, _stdin, stdout) = start(LEAVES);
        let left = first_pid(stdout).await;
        let pgid = process.pgid;
        assert!(running(left));
        assert_ne!(mur_procs::stat(left).map(|p| p.pgrp), Some(pgid));
        process
            .end(Duration::from_millis(200))
            .await
            .expect("ended");
        assert_eq!(mur_procs::stat(left), None, "killed and reaped");
        assert_eq!(members(pgid as u32), Vec::<u32>::new());
    }

    /// Dropped, the same: killed at once, reaped on the reaping thread.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn a_dropped_process_kills_what_it_left_outside_its_group() {
        mur_procs::become_subreaper().expect("a subreaper");
        let (process, _stdin, stdout) = start(LEAVES);
        let left = first_pid(stdout).await;
        assert!(running(left));
        drop(process);
        reaped(left).await;
    }

    /// A process of the group whose parent exited is the bridge's: its zombie is
    /// reaped once the child is, and the group is gone (not just all exited).
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_groups_zombies_that_are_the_bridges_are_reaped() {
        mur_procs::become_subreaper().expect("a subreaper");
        let (mut process, stdin, stdout) = start("(sh -c 'echo $$; exec sleep 0.1' &); read line");
        let orphan = first_pid(stdout).await;
        let me = i32::try_from(std::process::id()).expect("a pid");
        // Or reaped already: by this process, its parent, where another test's server
        // ended meanwhile (what a bridge adopted is reaped whoever's it was).
        let zombie = async {
            while !mur_procs::stat(orphan).is_none_or(|p| p.zombie && p.ppid == me) {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(10), zombie)
            .await
            .expect("a zombie of this process");
        drop(stdin);
        assert!(process.group_gone_within(Duration::from_secs(10)).await);
        assert_eq!(mur_procs::stat(orphan), None, "reaped");
    }
}
