//! Child processes: killed and reaped on drop (also when a test panics), their pipes
//! drained while they run, and one watchdog for every wait — a process still running
//! past its bound is killed and the test fails naming it, instead of hanging the suite.

use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// Bound for anything a test waits on (a lockfile to appear, a session to exit): a guard
/// against hangs on a loaded machine, not a performance expectation.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Longest a short-lived command (`mur`, a refused session) may run by default.
pub const RUN_LIMIT: Duration = Duration::from_secs(120);

/// How long to wait for end-of-file after the child exited: a reload successor inherits
/// the pipes and keeps them open, so EOF may never come.
const PIPE_GRACE: Duration = Duration::from_secs(2);

/// How often [`wait_until`] probes.
const POLL: Duration = Duration::from_millis(20);

/// What a finished process printed and how it exited.
#[derive(Debug, Clone)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    /// Exit code; -1 when killed by a signal.
    pub code: i32,
}

impl Output {
    /// stdout as one JSON value (panics with the whole output if it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{self}"))
    }

    /// stdout as JSON lines.
    pub fn json_lines(&self) -> Vec<serde_json::Value> {
        self.stdout
            .lines()
            .map(|l| {
                serde_json::from_str(l)
                    .unwrap_or_else(|e| panic!("line is not JSON ({e}): {l}\n{self}"))
            })
            .collect()
    }

    /// Asserts the exit code, showing the whole output when it differs.
    #[track_caller]
    pub fn assert_code(&self, code: i32) -> &Self {
        assert_eq!(self.code, code, "unexpected exit status\n{self}");
        self
    }

    /// Asserts a quiet success: exit 0 and nothing on stderr, showing the whole output
    /// when not.
    #[track_caller]
    pub fn assert_quiet_success(&self) -> &Self {
        self.assert_code(0);
        assert!(self.stderr.is_empty(), "nothing on stderr\n{self}");
        self
    }

    /// Asserts that `mur` exited 0 printing the `version` tool's result of the session
    /// with `pid`: the session that answered the call.
    #[track_caller]
    pub fn assert_answered_by(&self, pid: u32) -> &Self {
        self.assert_code(0);
        assert_eq!(
            self.json()["structuredContent"]["pid"],
            pid,
            "answered by pid {pid}\n{self}"
        );
        self
    }

    /// Asserts a failed tool as `mur` reports it: exit 5, `error: tool `TOOL` failed: …`
    /// on stderr, and on stdout the tool's result (`isError`) whose text says `message`.
    #[track_caller]
    pub fn assert_tool_failed(&self, tool: &str, message: &str) -> &Self {
        self.assert_verb_failed(tool, tool, message)
    }

    /// [`Output::assert_tool_failed`] of verb `verb`, whose tool is `tool`: a verb called
    /// otherwise is named too, `error: `VERB` (tool `TOOL`) failed: …`.
    #[track_caller]
    pub fn assert_verb_failed(&self, verb: &str, tool: &str, message: &str) -> &Self {
        self.assert_code(5);
        let named = match verb == tool {
            true => format!("tool `{tool}`"),
            false => format!("`{verb}` (tool `{tool}`)"),
        };
        self.assert_stderr_starts_with(&format!("error: {named} failed: "));
        self.assert_stderr_contains(message);
        let result = self.json();
        assert_eq!(result["isError"], true, "{self}");
        assert!(
            result["content"][0]["text"]
                .as_str()
                .is_some_and(|text| text.contains(message)),
            "the result says `{message}`\n{self}"
        );
        self
    }

    /// Asserts stdout is `expected`, whole, showing the whole output when it is not.
    #[track_caller]
    pub fn assert_stdout_is(&self, expected: impl AsRef<str>) -> &Self {
        assert_eq!(self.stdout, expected.as_ref(), "stdout\n{self}");
        self
    }

    /// Asserts stderr is `expected`, whole, showing the whole output when it is not.
    #[track_caller]
    pub fn assert_stderr_is(&self, expected: impl AsRef<str>) -> &Self {
        assert_eq!(self.stderr, expected.as_ref(), "stderr\n{self}");
        self
    }

    /// Asserts stdout begins with `prefix`, showing the whole output when it does not.
    #[track_caller]
    pub fn assert_stdout_starts_with(&self, prefix: &str) -> &Self {
        self.assert_stdout(self.stdout.starts_with(prefix), "start with", prefix)
    }

    /// Asserts stderr begins with `prefix`, showing the whole output when it does not.
    #[track_caller]
    pub fn assert_stderr_starts_with(&self, prefix: &str) -> &Self {
        self.assert_stderr(self.stderr.starts_with(prefix), "start with", prefix)
    }

    /// Asserts stdout contains `part`, showing the whole output when it does not.
    #[track_caller]
    pub fn assert_stdout_contains(&self, part: &str) -> &Self {
        self.assert_stdout(self.stdout.contains(part), "contain", part)
    }

    /// Asserts stderr contains `part`, showing the whole output when it does not.
    #[track_caller]
    pub fn assert_stderr_contains(&self, part: &str) -> &Self {
        self.assert_stderr(self.stderr.contains(part), "contain", part)
    }

    /// The text of content block `index` of the tool result on stdout, asserting that `mur`
    /// exited 0 (panics, showing the output, when that block has no text).
    #[track_caller]
    pub fn tool_text(&self, index: usize) -> String {
        self.assert_code(0);
        self.json()["content"][index]["text"]
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("no text in content block {index}\n{self}"))
    }

    /// What the hint says to answer with (`` `--answer name=TEXT`\n ``), asserting that `mur`
    /// exited 5 with nothing on stdout because `endpoint` asked `question` and nothing
    /// could answer it.
    #[track_caller]
    pub fn unanswered_hint(&self, endpoint: &str, question: &str) -> &str {
        self.assert_code(5);
        assert_eq!(self.stdout, "", "nothing on stdout\n{self}");
        let prefix = format!(
            "error: `{endpoint}` asks \"{question}\" and mur has no answer: no `--answer` \
             answers it, and stdin and stderr are not both a terminal to ask on\n\
             hint: answer it with "
        );
        self.assert_stderr_starts_with(&prefix);
        &self.stderr[prefix.len()..]
    }

    /// The first line of stdout that begins with `prefix` (panics, showing the whole
    /// output, when there is none).
    #[track_caller]
    pub fn stdout_line(&self, prefix: &str) -> &str {
        self.first_line(&self.stdout, "stdout", prefix)
    }

    /// What follows `prefix` on the first line of stderr that begins with it (panics,
    /// showing the whole output, when there is none).
    #[track_caller]
    pub fn stderr_after(&self, prefix: &str) -> &str {
        &self.first_line(&self.stderr, "stderr", prefix)[prefix.len()..]
    }

    /// The first line of `text`, this output's `stream`, that begins with `prefix`
    /// (panics, showing the whole output, when there is none).
    #[track_caller]
    fn first_line<'a>(&self, text: &'a str, stream: &str, prefix: &str) -> &'a str {
        text.lines()
            .find(|line| line.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {stream} line starts with {prefix:?}\n{self}"))
    }

    /// The lines of stdout that begin with `prefix`, in order.
    pub fn stdout_lines(&self, prefix: &str) -> Vec<&str> {
        lines_starting(&self.stdout, prefix)
    }

    /// The lines of stderr that begin with `prefix`, in order.
    pub fn stderr_lines(&self, prefix: &str) -> Vec<&str> {
        lines_starting(&self.stderr, prefix)
    }

    #[track_caller]
    fn assert_stdout(&self, holds: bool, how: &str, text: &str) -> &Self {
        assert!(holds, "stdout should {how} {text:?}\n{self}");
        self
    }

    #[track_caller]
    fn assert_stderr(&self, holds: bool, how: &str, text: &str) -> &Self {
        assert!(holds, "stderr should {how} {text:?}\n{self}");
        self
    }
}

fn lines_starting<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.lines()
        .filter(|line| line.starts_with(prefix))
        .collect()
}

impl std::fmt::Display for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--- stdout\n{}--- stderr\n{}[exit status: {}]",
            self.stdout, self.stderr, self.code
        )
    }
}

/// A child process we own: SIGKILLed and reaped on drop.
pub struct Process {
    child: Option<Child>,
    /// The program, for messages.
    what: String,
}

impl Process {
    /// Spawns `command` (panics naming the program when it cannot start).
    pub fn spawn(command: &mut Command) -> Self {
        let what = std::iter::once(command.get_program())
            .chain(command.get_args())
            .map(|part| part.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ");
        let child = command
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start `{what}`: {error}"));
        Self {
            child: Some(child),
            what,
        }
    }

    /// Spawns `command` with its stdin a pipe, and returns that pipe's writing end with
    /// it: the child reads what the test writes there, and dropping it ends the input.
    pub fn spawn_with_stdin(command: &mut Command) -> (Self, ChildStdin) {
        command.stdin(Stdio::piped());
        let mut process = Self::spawn(command);
        let stdin = process.child_mut().stdin.take().expect("stdin");
        (process, stdin)
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, Child::id)
    }

    /// The child itself, e.g. to take its stdin.
    pub fn child_mut(&mut self) -> &mut Child {
        self.child
            .as_mut()
            .expect("the process was already waited for")
    }

    /// The exit status, if it has exited.
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        self.child
            .as_mut()
            .and_then(|c| c.try_wait().ok().flatten())
    }

    /// Waits for the process, just started, to be ready — `ready` yields a value — and
    /// returns that value. Fails the test, showing `log()`, if it exits first or is not ready
    /// within `limit`; `name` names it and `awaited` (`listening`) is what it was to start doing.
    pub fn wait_ready<T>(
        &mut self,
        name: &str,
        awaited: &str,
        limit: Duration,
        ready: impl FnMut() -> Option<T>,
        log: impl Fn() -> String,
    ) -> T {
        self.try_wait_ready(name, awaited, limit, ready, &log)
            .unwrap_or_else(|status| {
                panic!("`{name}` exited ({status}) before {awaited}:\n{}", log())
            })
    }

    /// Waits for this `mur`, its stderr going to the file `stderr`, to write `said` there
    /// within `limit` ([`Process::wait_ready`]); `awaited` is what that shows it doing.
    pub fn wait_for_stderr(
        &mut self,
        stderr: &std::path::Path,
        said: &str,
        awaited: &str,
        limit: Duration,
    ) {
        let read = || std::fs::read_to_string(stderr).unwrap_or_default();
        let ready = || read().contains(said).then_some(());
        self.wait_ready("mur", awaited, limit, ready, read);
    }

    /// [`Process::wait_for_stderr`] until `mur` reports its call's progress (a
    /// `progress: ` line): the server has the call's request, still at work.
    pub fn wait_for_progress(&mut self, stderr: &std::path::Path) {
        let awaited = "reporting its call's progress";
        self.wait_for_stderr(stderr, "progress: ", awaited, Duration::from_secs(60));
    }

    /// [`Process::wait_ready`] for a caller that can start it again: its exit status
    /// when it exits before it is ready (still failing the test past `limit`).
    pub fn try_wait_ready<T>(
        &mut self,
        name: &str,
        awaited: &str,
        limit: Duration,
        mut ready: impl FnMut() -> Option<T>,
        log: impl Fn() -> String,
    ) -> Result<T, ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(value) = ready() {
                return Ok(value);
            }
            if let Some(status) = self.try_wait() {
                return Err(status);
            }
            assert!(
                Instant::now() < deadline,
                "`{name}` did not start {awaited} within {limit:?}:\n{}",
                log()
            );
            std::thread::sleep(POLL);
        }
    }

    /// Sends the signal `name` (`TERM`, `INT`, `STOP`, …).
    pub fn signal(&self, name: &str) {
        signal(self.pid(), name);
    }

    /// SIGKILL and reap, now.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Waits (up to [`PATIENCE`]) for the process to exit on its own, without reading its
    /// pipes (a reload successor inherits them and keeps them open).
    pub fn wait_status(mut self) -> ExitStatus {
        let child = self.child.take().expect("child");
        let what = self.what.clone();
        watch(child, PATIENCE, || {
            format!("`{what}` still running after {PATIENCE:?}, killed")
        })
        .0
    }

    /// Waits (up to [`PATIENCE`]) for the process to exit, draining its pipes meanwhile.
    pub fn wait_output(self) -> Output {
        self.wait_output_within(PATIENCE).0
    }

    /// Waits for the process to exit, draining its pipes meanwhile; kills it and fails the
    /// test if it still runs after `limit`. Also returns how long it ran from here.
    pub fn wait_output_within(mut self, limit: Duration) -> (Output, Duration) {
        let mut child = self.child.take().expect("child");
        let stdout = PipeCollector::start(child.stdout.take());
        let stderr = PipeCollector::start(child.stderr.take());
        let what = self.what.clone();
        let (status, took) = watch(child, limit, || {
            let so_far = Output {
                stdout: String::from_utf8_lossy(&stdout.snapshot()).into_owned(),
                stderr: String::from_utf8_lossy(&stderr.snapshot()).into_owned(),
                code: -1,
            };
            format!("`{what}` hung: still running after {limit:?}, killed\n{so_far}")
        });
        let output = Output {
            stdout: String::from_utf8_lossy(&stdout.finish()).into_owned(),
            stderr: String::from_utf8_lossy(&stderr.finish()).into_owned(),
            code: status.code().unwrap_or(-1),
        };
        (output, took)
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A process we did not spawn directly (a reload successor): SIGKILLed by pid on drop.
pub struct Adopted(pub u32);

impl Drop for Adopted {
    fn drop(&mut self) {
        signal(self.0, "KILL");
    }
}

/// Runs `command` to completion, stdin empty, stdout and stderr captured; fails the test
/// (killing it) if it still runs after [`RUN_LIMIT`].
pub fn run(command: &mut Command) -> Output {
    command.stdin(Stdio::null());
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    run_within(command, RUN_LIMIT).0
}

/// Runs `command` to its end with stdout discarded and stderr a pipe whose reader is
/// already gone (an agent host that closed it): how it exits, within [`PATIENCE`].
pub fn exit_with_stderr_gone(command: &mut Command) -> ExitStatus {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    command.stdout(Stdio::null()).stderr(writer);
    Process::spawn(command).wait_status()
}

/// A guard for toolchain runs (cargo, componentize-py, npm), not a timing.
pub const BUILD_LIMIT: Duration = Duration::from_secs(900);

/// Runs `command` (a build) in `dir` to completion within [`BUILD_LIMIT`], stdin empty,
/// its output captured; fails the test, showing the output, unless it succeeds.
pub fn run_ok(dir: &std::path::Path, command: &mut Command) -> Output {
    command
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let (out, _) = run_within(command, BUILD_LIMIT);
    assert_eq!(
        out.code,
        0,
        "{command:?} failed in {}\n{out}",
        dir.display()
    );
    out
}

/// Runs `command` to completion with its output captured (set its stdout and stderr to
/// piped first); fails the test if it still runs after `limit`. Also returns how long it ran.
pub fn run_within(command: &mut Command, limit: Duration) -> (Output, Duration) {
    Process::spawn(command).wait_output_within(limit)
}

/// Sends the signal `name` (`TERM`, `INT`, `HUP`, `STOP`, `CONT`, `KILL`) to `pid`; a
/// failure is only an error for signals other than `KILL` (the process may be gone
/// already). By the system call itself, not `kill(1)`: a test that signals a process
/// while it is in some phase (a verb's `parse`, a call in flight) must not first wait
/// for a fork and an exec, which on a loaded machine can take longer than the phase.
pub fn signal(pid: u32, name: &str) {
    use rustix::process::Signal;
    let number = match name {
        "TERM" => Signal::TERM,
        "INT" => Signal::INT,
        "HUP" => Signal::HUP,
        "STOP" => Signal::STOP,
        "CONT" => Signal::CONT,
        "KILL" => Signal::KILL,
        other => panic!("the test kit sends no signal `{other}`"),
    };
    // Never 0 or a negative number: kill(2) would signal a whole process group, the
    // test's own among them (a process already reaped says pid 0).
    let target = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw);
    let Some(target) = target else {
        assert_eq!(
            name, "KILL",
            "kill -{name} {pid}: no such process to signal"
        );
        return;
    };
    let sent = rustix::process::kill_process(target, number);
    assert!(
        sent.is_ok() || name == "KILL",
        "kill -{name} {pid} failed: {sent:?}"
    );
}

/// Polls `probe` until it yields a value; panics naming `what` after [`PATIENCE`].
pub fn wait_until<T>(what: &str, probe: impl FnMut() -> Option<T>) -> T {
    wait_until_within(what, PATIENCE, probe)
}

/// [`wait_until`] for what takes longer than [`PATIENCE`] on a loaded machine
/// (several runs of a study, each with its own session and agent).
pub fn wait_until_within<T>(
    what: &str,
    limit: Duration,
    mut probe: impl FnMut() -> Option<T>,
) -> T {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(value) = probe() {
            return value;
        }
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(POLL);
    }
}

/// A pid that is certainly not running: a child that has been reaped.
pub fn dead_pid() -> u32 {
    try_dead_pid().expect("spawn and reap `true`")
}

/// [`dead_pid`] for a caller that reports errors instead of panicking (the benchmark).
pub fn try_dead_pid() -> std::io::Result<u32> {
    let mut child = Command::new("true").spawn()?;
    let pid = child.id();
    child.wait()?;
    Ok(pid)
}

/// A free loopback port (bound, then released).
pub fn free_port() -> u16 {
    silent_listener().1
}

/// A loopback port that refuses every connection while the socket lives: bound, never
/// listened on. Unlike a port merely freed ([`free_port`]), the kernel cannot hand it to
/// another listener meanwhile (not even the test's own next stub), so "connection
/// refused" is what a client gets, every time.
pub fn refusing_port() -> (socket2::Socket, u16) {
    use socket2::{Domain, SockAddr, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None).expect("socket");
    let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    socket.bind(&SockAddr::from(loopback)).expect("bind");
    let port = socket
        .local_addr()
        .ok()
        .and_then(|a| a.as_socket())
        .expect("local addr")
        .port();
    (socket, port)
}

/// A loopback listener that never accepts, and its port: the kernel completes the
/// handshake and a request waits, as with a session that is stopped.
pub fn silent_listener() -> (std::net::TcpListener, u16) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("local addr").port();
    (listener, port)
}

/// `count` loopback listeners that never accept ([`silent_listener`]), on consecutive
/// ports outside `handed_out`, the range the kernel hands out for `bind(127.0.0.1:0)` and
/// a connection's own end (`mur_core::settings::PortRange::ephemeral`): no other test's
/// listener or [`free_port`] is among them, nor can be while they live, so a scan of
/// their ports meets them alone. A block with a port taken is given up for the next; the
/// first block tried is the process's own, so runs side by side start apart.
pub fn silent_block(
    count: u16,
    handed_out: std::ops::RangeInclusive<u16>,
) -> Vec<std::net::TcpListener> {
    let fits = |start: &u32| {
        let end = start + u32::from(count) - 1;
        end <= u32::from(u16::MAX)
            && (end < u32::from(*handed_out.start()) || *start > u32::from(*handed_out.end()))
    };
    let mut starts: Vec<u32> = (1024..=u32::from(u16::MAX))
        .step_by(usize::from(count.max(1)))
        .filter(fits)
        .collect();
    assert!(
        !starts.is_empty(),
        "no {count} ports outside {handed_out:?}"
    );
    let own = usize::try_from(std::process::id()).unwrap_or(0) % starts.len();
    starts.rotate_left(own);
    let bound = |start: u32| -> Option<Vec<std::net::TcpListener>> {
        (start..start + u32::from(count))
            .map(|port| {
                let port = u16::try_from(port).ok()?;
                std::net::TcpListener::bind(("127.0.0.1", port)).ok()
            })
            .collect()
    };
    starts
        .into_iter()
        .find_map(bound)
        .unwrap_or_else(|| panic!("every block of {count} ports outside {handed_out:?} is taken"))
}

/// Makes a FIFO at `path` (a file nothing will ever write to).
pub fn mkfifo(path: &std::path::Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// The watchdog: waits for `child` to exit and returns its status and how long that took;
/// past `limit` it is killed by pid and reaped, and the test fails with `hung()`'s message.
/// (The pid cannot be reused before the waiting thread has reaped it.)
fn watch(child: Child, limit: Duration, hung: impl FnOnce() -> String) -> (ExitStatus, Duration) {
    let pid = child.id();
    let started = Instant::now();
    let (done_tx, done) = mpsc::channel();
    std::thread::spawn(move || {
        let mut child = child;
        let _ = done_tx.send(child.wait());
    });
    match done.recv_timeout(limit) {
        Ok(Ok(status)) => (status, started.elapsed()),
        Ok(Err(error)) => panic!("cannot wait for pid {pid}: {error}"),
        Err(_) => {
            signal(pid, "KILL");
            let _ = done.recv_timeout(PIPE_GRACE);
            panic!("{}", hung())
        }
    }
}

/// Reads a pipe on a thread, so a chatty child never blocks on a full pipe.
struct PipeCollector {
    bytes: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Receiver<()>,
}

impl PipeCollector {
    fn start(pipe: Option<impl std::io::Read + Send + 'static>) -> Self {
        let bytes = Arc::new(Mutex::new(Vec::new()));
        let (done_tx, done) = mpsc::channel();
        let sink = Arc::clone(&bytes);
        std::thread::spawn(move || {
            if let Some(mut pipe) = pipe {
                let mut chunk = [0u8; 8192];
                while let Ok(read @ 1..) = pipe.read(&mut chunk) {
                    if let Ok(mut sink) = sink.lock() {
                        sink.extend_from_slice(&chunk[..read]);
                    }
                }
            }
            let _ = done_tx.send(());
        });
        Self { bytes, done }
    }

    /// What arrived so far.
    fn snapshot(&self) -> Vec<u8> {
        self.bytes.lock().map(|b| b.clone()).unwrap_or_default()
    }

    /// Everything, once the pipe closed (or [`PIPE_GRACE`] after the child exited).
    fn finish(self) -> Vec<u8> {
        let _ = self.done.recv_timeout(PIPE_GRACE);
        self.snapshot()
    }
}
