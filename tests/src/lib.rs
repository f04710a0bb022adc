//! Shared harness for the end-to-end tests: builds `mur` and `mur-sample`
//! once per test process, gives each test a private sandbox (lockfile, data,
//! cache and home directories; a cleared environment), starts real sample
//! sessions, plants fake lockfiles, and serves tiny loopback HTTP stubs.
//! Every child process is killed and reaped on drop, also on panic.

pub mod plugins;
pub mod stub;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use mur_lockfile::{Lockfile, ReadOutcome, Registry, paths};
use serde_json::Value;

pub use stub::Stub;

/// How long a sample may take to announce itself: a bound against hangs on
/// a loaded machine, not a performance expectation.
const STARTUP_LIMIT: Duration = Duration::from_secs(60);

/// The built binaries.
struct Bins {
    mur: PathBuf,
    sample: PathBuf,
}

/// Builds `mur` and `mur-sample` (once per test process) and returns their paths.
fn bins() -> &'static Bins {
    static BINS: OnceLock<Bins> = OnceLock::new();
    BINS.get_or_init(|| {
        let exe = std::env::current_exe().expect("test executable path");
        // target/<profile>/deps/<test> → target/<profile>
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target profile directory")
            .to_owned();
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("workspace root");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut build = Command::new(cargo);
        build
            .current_dir(root)
            .args(["build", "-p", "mur", "-p", "mur-sample", "--bins"]);
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            build.arg("--release");
        }
        let status = build.status().expect("run cargo build");
        assert!(status.success(), "cargo build of mur and mur-sample failed");
        Bins {
            mur: profile_dir.join("mur"),
            sample: profile_dir.join("mur-sample"),
        }
    })
}

/// Path of the built `mur`.
pub fn mur_bin() -> &'static Path {
    &bins().mur
}

/// Path of the built `mur-sample`.
pub fn sample_bin() -> &'static Path {
    &bins().sample
}

/// What a finished process printed and how it exited.
#[derive(Debug, Clone)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    /// Exit code; -1 when killed by a signal.
    pub code: i32,
}

impl Output {
    fn from_std(out: std::process::Output) -> Self {
        Self {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code().unwrap_or(-1),
        }
    }

    /// stdout as one JSON value (panics with the whole output if it is not).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{self}"))
    }

    /// stdout as JSON lines.
    pub fn json_lines(&self) -> Vec<Value> {
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

/// A private world for one test: its own lockfile directory and XDG/home
/// directories, and a cleared environment for every process it starts.
pub struct Sandbox {
    root: tempfile::TempDir,
}

impl Default for Sandbox {
    fn default() -> Self {
        Self::new()
    }
}

impl Sandbox {
    pub fn new() -> Self {
        let root = tempfile::Builder::new()
            .prefix("mur-e2e-")
            .tempdir()
            .expect("tempdir");
        for dir in ["run", "data", "cache", "home"] {
            std::fs::create_dir(root.path().join(dir)).expect("sandbox dir");
        }
        Self { root }
    }

    pub fn root(&self) -> &Path {
        self.root.path()
    }

    /// `XDG_RUNTIME_DIR` of this sandbox (0700, as tempdirs are).
    pub fn runtime_dir(&self) -> PathBuf {
        self.root().join("run")
    }

    /// The lockfile registry `mur` and the sample use in this sandbox.
    pub fn registry(&self) -> Registry {
        Registry::at(paths::lockfile_dir_from(
            |name| (name == "XDG_RUNTIME_DIR").then(|| self.runtime_dir().into_os_string()),
            0,
        ))
    }

    /// The lockfile directory (may not exist yet).
    pub fn lockfile_dir(&self) -> PathBuf {
        self.registry().dir().to_owned()
    }

    /// The only environment a child sees.
    pub fn env(&self) -> Vec<(&'static str, OsString)> {
        let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
        vec![
            ("XDG_RUNTIME_DIR", self.runtime_dir().into()),
            ("XDG_DATA_HOME", self.root().join("data").into()),
            ("XDG_CACHE_HOME", self.root().join("cache").into()),
            ("HOME", self.root().join("home").into()),
            ("PATH", path),
        ]
    }

    /// A command for `program` with the sandbox environment and nothing else.
    pub fn command(&self, program: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .envs(self.env())
            .current_dir(self.root())
            .stdin(Stdio::null());
        cmd
    }

    /// `mur` with these arguments, in the sandbox.
    pub fn mur_command(&self, args: &[&str]) -> Command {
        let mut cmd = self.command(mur_bin());
        cmd.args(args);
        cmd
    }

    /// Runs `mur` to completion.
    pub fn mur(&self, args: &[&str]) -> Output {
        let child = self
            .mur_command(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn mur");
        Output::from_std(Guard(Some(child)).wait_output())
    }

    /// A project file `<sandbox>/<name>/App.csproj` (created empty).
    pub fn project(&self, name: &str) -> PathBuf {
        let dir = self.root().join(name);
        std::fs::create_dir_all(&dir).expect("project dir");
        let file = dir.join("App.csproj");
        std::fs::write(&file, "<Project />\n").expect("project file");
        file
    }

    /// Starts `mur-sample --project <project>` and waits for its lockfile.
    pub fn start_sample(&self, project: &Path) -> Sample {
        self.start_sample_with(project, &[])
    }

    /// Like [`Sandbox::start_sample`], with extra arguments (`--port N`).
    pub fn start_sample_with(&self, project: &Path, extra: &[&str]) -> Sample {
        let log = self.root().join(format!("sample-{}.log", unique()));
        let mut cmd = self.command(sample_bin());
        cmd.arg("--project").arg(project).args(extra);
        cmd.stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("sample log"));
        let child = Guard(Some(cmd.spawn().expect("spawn mur-sample")));
        let lockfile = self
            .registry()
            .path_for(&paths::canonical_project(project).expect("canonical project"));
        let lock = self.wait_for_lockfile(&lockfile, child, &log);
        Sample {
            child: lock.1,
            lock: lock.0,
            lockfile,
            log,
        }
    }

    fn wait_for_lockfile(&self, path: &Path, mut child: Guard, log: &Path) -> (Lockfile, Guard) {
        let deadline = Instant::now() + STARTUP_LIMIT;
        loop {
            if let ReadOutcome::Valid(lock) = self.registry().read(path) {
                if lock.pid == child.pid() {
                    return (lock, child);
                }
            }
            if let Some(status) = child.try_wait() {
                panic!(
                    "mur-sample exited ({status}) before announcing:\n{}",
                    read(log)
                );
            }
            assert!(
                Instant::now() < deadline,
                "mur-sample never wrote `{}`:\n{}",
                path.display(),
                read(log)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Runs `mur-sample` with these arguments to completion (e.g. a second
    /// session for a project that has one: exit 3).
    pub fn run_sample(&self, args: &[&str]) -> Output {
        let child = self
            .command(sample_bin())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn mur-sample");
        Output::from_std(Guard(Some(child)).wait_output())
    }

    /// Writes a lockfile (0600) named for `project`, with these contents.
    pub fn plant_lockfile(&self, project: &str, contents: &str) -> PathBuf {
        let dir = self.lockfile_dir();
        create_private_dir(&dir);
        let path = self.registry().path_for(project);
        write_private(&path, contents.as_bytes());
        path
    }

    /// Writes a valid HTTP lockfile for `project` naming `pid` and `port`.
    pub fn plant_http_lockfile(&self, project: &str, pid: u32, port: u16) -> PathBuf {
        let lock = Lockfile::http(port, pid, project.to_owned(), "test-build".to_owned());
        self.plant_lockfile(
            project,
            &serde_json::to_string_pretty(&lock).expect("lockfile json"),
        )
    }

    /// Writes a valid stdio lockfile for `project` naming `pid`.
    pub fn plant_stdio_lockfile(&self, project: &str, pid: u32) -> PathBuf {
        let lock = Lockfile::stdio(pid, project.to_owned(), "test-build".to_owned());
        self.plant_lockfile(
            project,
            &serde_json::to_string_pretty(&lock).expect("lockfile json"),
        )
    }
}

/// A running `mur-sample`; killed and reaped on drop.
pub struct Sample {
    child: Guard,
    /// The lockfile it announced.
    pub lock: Lockfile,
    pub lockfile: PathBuf,
    log: PathBuf,
}

impl Sample {
    pub fn pid(&self) -> u32 {
        self.lock.pid
    }

    pub fn endpoint(&self) -> &str {
        &self.lock.endpoint
    }

    /// Kills the process by pid (SIGKILL: its lockfile stays behind, stale).
    pub fn kill(mut self) {
        self.child.kill();
    }

    /// What it logged on stderr so far.
    pub fn log(&self) -> String {
        read(&self.log)
    }
}

/// A pid that is certainly not running: a child that has been reaped.
pub fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().expect("spawn true");
    let pid = child.id();
    child.wait().expect("wait for true");
    pid
}

/// A free loopback port (bound, then released).
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("local addr").port()
}

/// Owns a child process: kills and reaps it on drop, also on panic.
struct Guard(Option<Child>);

/// Longest a short-lived child (`mur`, a refused sample) may run: a bound
/// against hangs, so a broken build fails instead of blocking the suite.
const RUN_LIMIT: Duration = Duration::from_secs(120);

impl Guard {
    fn pid(&self) -> u32 {
        self.0.as_ref().map_or(0, Child::id)
    }

    fn try_wait(&mut self) -> Option<std::process::ExitStatus> {
        self.0.as_mut().and_then(|c| c.try_wait().ok().flatten())
    }

    fn kill(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Waits for exit while draining stdout and stderr; kills after [`RUN_LIMIT`].
    fn wait_output(mut self) -> std::process::Output {
        let mut child = self.0.take().expect("child");
        let pid = child.id();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let watchdog = std::thread::spawn(move || {
            if done_rx.recv_timeout(RUN_LIMIT).is_err() {
                // Still running past the limit: end it by its pid.
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
        });
        let out = wait_with_output(&mut child);
        let _ = done_tx.send(());
        let _ = watchdog.join();
        out
    }
}

fn wait_with_output(child: &mut Child) -> std::process::Output {
    use std::io::Read as _;
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(s) = stderr.as_mut() {
            let _ = s.read_to_end(&mut buf);
        }
        buf
    });
    let mut out = Vec::new();
    if let Some(s) = stdout.as_mut() {
        let _ = s.read_to_end(&mut out);
    }
    let err = err_reader.join().unwrap_or_default();
    let status = child.wait().expect("wait for child");
    std::process::Output {
        status,
        stdout: out,
        stderr: err,
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        self.kill();
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) {
    use std::os::unix::fs::DirBuilderExt as _;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .expect("lockfile dir");
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) {
    std::fs::create_dir_all(dir).expect("lockfile dir");
}

#[cfg(unix)]
fn write_private(path: &Path, bytes: &[u8]) {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .expect("open lockfile");
    file.write_all(bytes).expect("write lockfile");
}

#[cfg(not(unix))]
fn write_private(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).expect("write lockfile");
}
