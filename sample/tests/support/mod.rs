//! Test harness: start the `minimal_session` example as a real process with a
//! private lockfile directory, and always kill and reap it afterwards.

#![allow(dead_code)] // each test file uses a different part of the harness

pub mod mcp;

use std::{
    io::Read,
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus, Output, Stdio},
    sync::{Arc, Mutex, OnceLock, mpsc},
    time::{Duration, Instant},
};

use mur_lockfile::{Lockfile, ReadOutcome, Registry, paths};

/// Upper bound for anything we wait on; reaching it fails the test with a message.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A private world for one test: its own lockfile directory and project file.
pub struct World {
    pub temp: tempfile::TempDir,
    pub project: PathBuf,
}

impl World {
    pub fn new() -> Self {
        let temp = tempfile::tempdir().expect("tempdir");
        let runtime_dir = temp.path().join("runtime");
        std::fs::create_dir(&runtime_dir).expect("runtime dir");
        set_private(&runtime_dir);
        let project = temp.path().join("App.csproj");
        std::fs::write(&project, "<Project />").expect("project file");
        Self { temp, project }
    }

    pub fn runtime_dir(&self) -> PathBuf {
        self.temp.path().join("runtime")
    }

    /// The lockfile directory the session must use under our XDG_RUNTIME_DIR.
    pub fn lockfile_dir(&self) -> PathBuf {
        self.runtime_dir().join("reactor-devtools")
    }

    pub fn canonical_project(&self) -> String {
        paths::canonical_project(&self.project).expect("canonical project")
    }

    pub fn lockfile_path(&self) -> PathBuf {
        Registry::at(self.lockfile_dir()).path_for(&self.canonical_project())
    }

    /// The session command with our environment and `extra` arguments.
    pub fn command(&self, extra: &[&str]) -> Command {
        self.command_for(&example_binary(), extra)
    }

    /// Like [`World::command`], for another session binary (e.g. `mur-sample`).
    pub fn command_for(&self, binary: &std::path::Path, extra: &[&str]) -> Command {
        let mut command = Command::new(binary);
        command.arg("--project").arg(&self.project).args(extra);
        command
            .env("XDG_RUNTIME_DIR", self.runtime_dir())
            .env_remove("RUST_LOG");
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    }

    /// Starts an HTTP session and waits until its lockfile names it.
    pub fn start(&self) -> Session {
        let child = self.command(&[]).spawn().expect("spawn minimal_session");
        let session = Session { child: Some(child) };
        let lock = self.wait_for_lockfile(|lock| lock.pid == session.pid());
        Session::check_endpoint(&lock);
        session
    }

    /// Polls until the lockfile exists, parses, and satisfies `accept`.
    pub fn wait_for_lockfile(&self, accept: impl Fn(&Lockfile) -> bool) -> Lockfile {
        let path = self.lockfile_path();
        let registry = Registry::at(self.lockfile_dir());
        wait_until("a matching lockfile", || match registry.read(&path) {
            ReadOutcome::Valid(lock) if accept(&lock) => Some(lock),
            _ => None,
        })
    }

    pub fn read_lockfile(&self) -> Option<Lockfile> {
        match Registry::at(self.lockfile_dir()).read(&self.lockfile_path()) {
            ReadOutcome::Valid(lock) => Some(lock),
            _ => None,
        }
    }
}

/// A running session process; killed and reaped on drop, also when a test panics.
pub struct Session {
    child: Option<Child>,
}

impl Session {
    /// Takes ownership of a child we spawned ourselves.
    pub fn adopt(child: Child) -> Self {
        Self { child: Some(child) }
    }

    pub fn child_mut(&mut self) -> &mut Child {
        self.child.as_mut().expect("child")
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("child").id()
    }

    pub fn signal(&self, name: &str) {
        send_signal(self.pid(), name);
    }

    /// Waits for the process to exit on its own, without reading its pipes
    /// (a reload successor inherits them and keeps them open).
    pub fn wait_status(mut self) -> ExitStatus {
        let mut child = self.child.take().expect("child");
        wait_until("the session process to exit", || {
            child.try_wait().expect("try_wait")
        })
    }

    /// Waits for the process to exit on its own and returns its output.
    pub fn wait_output(mut self) -> Output {
        let child = self.child.take().expect("child");
        wait_with_patience(child)
    }

    fn check_endpoint(lock: &Lockfile) {
        assert_eq!(lock.endpoint, format!("http://127.0.0.1:{}/mcp", lock.port));
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A process we did not spawn directly (a reload successor): SIGKILLed by pid on drop.
pub struct Adopted(pub u32);

impl Drop for Adopted {
    fn drop(&mut self) {
        send_signal(self.0, "KILL");
    }
}

pub fn send_signal(pid: u32, name: &str) {
    let status = Command::new("kill")
        .arg(format!("-{name}"))
        .arg(pid.to_string())
        .status()
        .expect("run kill");
    assert!(
        status.success() || name == "KILL",
        "kill -{name} {pid} failed"
    );
}

/// Runs a command to completion (bounded by [`PATIENCE`]).
pub fn run_to_end(mut command: Command) -> Output {
    wait_with_patience(command.spawn().expect("spawn"))
}

fn wait_with_patience(mut child: Child) -> Output {
    // Pipes are drained while the child runs, so a chatty child never blocks on a full pipe.
    let stdout = PipeCollector::start(child.stdout.take());
    let stderr = PipeCollector::start(child.stderr.take());
    let status = wait_until("the session process to exit", || {
        child.try_wait().expect("try_wait")
    });
    Output {
        status,
        stdout: stdout.finish(),
        stderr: stderr.finish(),
    }
}

/// How long to wait for end-of-file after the child exited: a reload
/// successor inherits the pipes and keeps them open, so EOF may never come.
const PIPE_GRACE: Duration = Duration::from_secs(2);

/// Reads a pipe on a thread; [`finish`](Self::finish) returns what arrived.
struct PipeCollector {
    bytes: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Receiver<()>,
}

impl PipeCollector {
    fn start(pipe: Option<impl Read + Send + 'static>) -> Self {
        let bytes = Arc::new(Mutex::new(Vec::new()));
        let (done_tx, done) = mpsc::channel();
        let sink = Arc::clone(&bytes);
        std::thread::spawn(move || {
            if let Some(mut pipe) = pipe {
                let mut chunk = [0u8; 4096];
                while let Ok(read @ 1..) = pipe.read(&mut chunk) {
                    sink.lock()
                        .expect("pipe buffer")
                        .extend_from_slice(&chunk[..read]);
                }
            }
            let _ = done_tx.send(());
        });
        Self { bytes, done }
    }

    fn finish(self) -> Vec<u8> {
        let _ = self.done.recv_timeout(PIPE_GRACE);
        self.bytes.lock().expect("pipe buffer").clone()
    }
}

pub fn exit_code(status: ExitStatus) -> Option<i32> {
    status.code()
}

/// Polls `probe` until it yields a value; panics naming `what` after [`PATIENCE`].
pub fn wait_until<T>(what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(value) = probe() {
            return value;
        }
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// A pid that certainly belongs to no running process: a child we already reaped.
pub fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().expect("spawn true");
    let pid = child.id();
    child.wait().expect("wait true");
    pid
}

/// The example binary, built once per test process.
pub fn example_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(build_example).clone()
}

fn build_example() -> PathBuf {
    // target/<profile>/deps/<test binary> → target/<profile>/examples/minimal_session
    let test_exe = std::env::current_exe().expect("current exe");
    let profile_dir = test_exe
        .parent()
        .and_then(Path::parent)
        .expect("profile dir");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build.args([
        "build",
        "--quiet",
        "-p",
        "mur-server",
        "--example",
        "minimal_session",
    ]);
    if profile_dir.ends_with("release") {
        build.arg("--release");
    }
    let status = build
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("run cargo build");
    assert!(
        status.success(),
        "building the minimal_session example failed"
    );
    profile_dir.join("examples").join("minimal_session")
}

fn set_private(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).expect("chmod 700");
}
