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
//! a recycled pid.

use std::io;
use std::process::{Child, ExitStatus};
use std::time::Duration;

use tokio::net::unix::pipe;

/// How often a child's exit is checked where there is no pidfd to wait on.
const EXIT_POLL: Duration = Duration::from_millis(50);

/// A started child with piped stdin and stdout; killed (and reaped) when dropped.
pub(crate) struct Process {
    /// `None` only while being dropped.
    child: Option<Child>,
    #[cfg(target_os = "linux")]
    exit: Option<tokio::io::unix::AsyncFd<std::os::fd::OwnedFd>>,
}

impl Process {
    /// Takes over `child` (spawned with piped stdin and stdout); returns it
    /// with those two pipes as async ends. Called inside the runtime.
    pub(crate) fn adopt(mut child: Child) -> io::Result<(Self, pipe::Sender, pipe::Receiver)> {
        let pipes = match (child.stdin.take(), child.stdout.take()) {
            (Some(stdin), Some(stdout)) => pipe::Sender::from_owned_fd(stdin.into())
                .and_then(|stdin| Ok((stdin, pipe::Receiver::from_owned_fd(stdout.into())?))),
            _ => Err(io::Error::other(
                "the server's stdin or stdout was not piped",
            )),
        };
        let process = Self {
            #[cfg(target_os = "linux")]
            exit: exit_fd(&child),
            child: Some(child),
        };
        let (stdin, stdout) = pipes?;
        Ok((process, stdin, stdout))
    }

    /// Resolves once the child has exited, with its status (cancel-safe: a
    /// `select!` may drop it and wait again).
    pub(crate) async fn wait(&mut self) -> io::Result<ExitStatus> {
        loop {
            if let Some(status) = self.child_mut()?.try_wait()? {
                return Ok(status);
            }
            #[cfg(target_os = "linux")]
            if let Some(exit) = &self.exit {
                exit.readable().await?.clear_ready();
                continue;
            }
            tokio::time::sleep(EXIT_POLL).await;
        }
    }

    /// Sends SIGKILL (nothing, once the child has been reaped).
    pub(crate) fn start_kill(&mut self) -> io::Result<()> {
        self.child_mut()?.kill()
    }

    /// Kills the child and waits for it to be gone.
    pub(crate) async fn kill(&mut self) -> io::Result<ExitStatus> {
        self.start_kill()?;
        self.wait().await
    }

    fn child_mut(&mut self) -> io::Result<&mut Child> {
        self.child
            .as_mut()
            .ok_or_else(|| io::Error::other("the server's process is gone"))
    }
}

impl Drop for Process {
    /// As `kill_on_drop`: a bridge that stops or fails leaves no server behind.
    /// The reaping happens on a thread of its own, so a child slow to die
    /// (in uninterruptible sleep) does not hold up the runtime.
    fn drop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        if matches!(child.try_wait(), Ok(Some(_))) {
            return;
        }
        let _ = child.kill();
        let _ = std::thread::Builder::new()
            .name("reap-server".into())
            .spawn(move || child.wait());
    }
}

/// A pidfd for `child`: readable once it has exited. `None` where the kernel
/// has none (before 5.3): [`Process::wait`] then polls.
#[cfg(target_os = "linux")]
fn exit_fd(child: &Child) -> Option<tokio::io::unix::AsyncFd<std::os::fd::OwnedFd>> {
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

    use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

    use super::*;

    fn start(script: &str) -> (Process, pipe::Sender, pipe::Receiver) {
        let child = Command::new("sh")
            .args(["-c", script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("sh starts");
        Process::adopt(child).expect("adopted")
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
        stdin.write_all(b"ping\n").await.expect("written");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .await
            .expect("read");
        assert_eq!(line, "got ping\n");
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

    #[tokio::test]
    async fn a_killed_process_is_reaped_and_a_dropped_one_is_killed() {
        let (mut process, _stdin, _stdout) = start("sleep 60");
        let status = process.kill().await.expect("killed");
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(9)
        );
        // Killing what has been reaped is no error and signals nothing.
        process.start_kill().expect("no-op");

        let (process, _stdin, _stdout) = start("sleep 60");
        let pid = process.child.as_ref().map(Child::id).expect("a child");
        assert!(exists(pid));
        drop(process);
        let gone = async {
            while exists(pid) {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(10), gone)
            .await
            .expect("killed and reaped when dropped");
    }
}
