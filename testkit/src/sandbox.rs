//! A private world for one test: its own lockfile directory and XDG/home directories, and
//! a cleared environment for every process it starts; sessions started in it and waited
//! for until their lockfile names them.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use mur_lockfile::{Lockfile, ReadOutcome, Registry, paths};

use crate::artifacts::{Artifacts, artifacts};
use crate::process::{Output, PATIENCE, Process, RUN_LIMIT, free_port, run_within, wait_until};

/// How long a session may take to announce itself.
const STARTUP_LIMIT: Duration = PATIENCE;

/// A private world for one test; its directories are removed on drop.
pub struct Sandbox {
    root: tempfile::TempDir,
    /// The binaries it runs; [`artifacts()`] unless set with [`Sandbox::with_artifacts`].
    artifacts: Option<&'static Artifacts>,
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
        for dir in ["run", "data", "cache", "home", "tmp"] {
            std::fs::create_dir(root.path().join(dir)).expect("sandbox dir");
        }
        Self {
            root,
            artifacts: None,
        }
    }

    /// A sandbox that runs these binaries (a benchmark's release build).
    pub fn with_artifacts(artifacts: &'static Artifacts) -> Self {
        let mut sandbox = Self::new();
        sandbox.artifacts = Some(artifacts);
        sandbox
    }

    /// The binaries this sandbox runs (built on first use).
    pub fn artifacts(&self) -> &'static Artifacts {
        self.artifacts.unwrap_or_else(artifacts)
    }

    pub fn root(&self) -> &Path {
        self.root.path()
    }

    /// Whether `text` (a command line, an environment) names a path in this sandbox.
    fn names(&self, text: &str) -> bool {
        text.contains(&format!("{}/", self.root().display()))
    }

    /// `XDG_RUNTIME_DIR` of this sandbox (0700, as tempdirs are).
    pub fn runtime_dir(&self) -> PathBuf {
        self.root().join("run")
    }

    /// The lockfile registry `mur` and the sessions use in this sandbox.
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

    /// `XDG_STATE_HOME` of this sandbox: `mur`'s usage log is under `mur/usage/`.
    pub fn state_dir(&self) -> PathBuf {
        self.root().join("state")
    }

    /// The usage log `mur` appends to in this sandbox.
    pub fn usage_log(&self) -> PathBuf {
        self.state_dir()
            .join("mur")
            .join("usage")
            .join("usage.jsonl")
    }

    /// The only environment a child sees.
    pub fn env(&self) -> Vec<(&'static str, OsString)> {
        let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
        vec![
            ("XDG_RUNTIME_DIR", self.runtime_dir().into()),
            // mur reads `${TMPDIR}/reactor-devtools-<uid>` too: the sandbox's, not /tmp's.
            ("TMPDIR", self.root().join("tmp").into()),
            ("XDG_DATA_HOME", self.root().join("data").into()),
            ("XDG_CACHE_HOME", self.root().join("cache").into()),
            ("XDG_STATE_HOME", self.state_dir().into()),
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
        let mut cmd = self.command(&self.artifacts().mur);
        cmd.args(args);
        cmd
    }

    /// `bash -eo pipefail -c script` in the sandbox, this `mur` first on PATH: a
    /// command line as a person pastes it (a hint, a documented example).
    pub fn shell_command(&self, script: &str) -> Command {
        let mut cmd = self.command(Path::new("bash"));
        cmd.args(["-eo", "pipefail", "-c", script])
            .env("PATH", self.path_with(&[]));
        cmd
    }

    /// `script -qec LINE`: the command line run with this `mur` first on PATH, as
    /// `shell_command` runs it, but by `sh` (what `script` runs with no `SHELL` set:
    /// keep LINE POSIX) and with stdin, stdout and stderr on a pseudo-terminal, as a
    /// person at a terminal runs it.
    /// Its stdout is what the terminal showed (stdout and stderr together, lines ending
    /// `\r\n`); its exit code is LINE's.
    pub fn on_a_terminal(&self, line: &str) -> Command {
        let mut cmd = self.command(Path::new("script"));
        cmd.args(["-qec", line, "/dev/null"])
            .env("PATH", self.path_with(&[]));
        cmd
    }

    /// A PATH of these directories, then this `mur`'s, then the test's own PATH.
    pub fn path_with(&self, dirs: &[&Path]) -> OsString {
        let bin_dir = self.artifacts().mur.parent().expect("mur's directory");
        let own = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
        let dirs = dirs.iter().copied().chain([bin_dir]).map(Path::to_owned);
        std::env::join_paths(dirs.chain(std::env::split_paths(&own))).expect("PATH")
    }

    /// Runs `mur` to completion (failing the test if it runs past two minutes).
    pub fn mur(&self, args: &[&str]) -> Output {
        self.mur_within(args, RUN_LIMIT)
    }

    /// Runs `mur devtools ARGS…` to completion.
    pub fn devtools(&self, args: &[&str]) -> Output {
        self.mur(&[&["devtools"], args].concat())
    }

    /// Runs `mur devtools --endpoint ENDPOINT ARGS…` to completion: a session found by
    /// its URL (a stub server's), not by discovery.
    pub fn devtools_at(&self, endpoint: &str, args: &[&str]) -> Output {
        self.mur(&[&["devtools", "--endpoint", endpoint], args].concat())
    }

    /// What `mur`'s completion script for `shell` gets at a <Tab> after `mur WORDS…`: `mur`
    /// run with `COMPLETE=<shell>` on `-- mur WORDS…`, completing the last word (bash's
    /// script names its index in `_CLAP_COMPLETE_INDEX`; the others take the last).
    pub fn complete(&self, shell: &str, words: &[&str]) -> Output {
        let mut command = self.mur_command(&["--", "mur"]);
        command
            .args(words)
            .env("COMPLETE", shell)
            .env("_CLAP_COMPLETE_INDEX", words.len().to_string());
        crate::process::run(&mut command)
    }

    /// Runs `mur devtools call TOOL --args ARGS` against the one session there is.
    pub fn call_tool(&self, tool: &str, args: &str) -> Output {
        self.mur(&["devtools", "call", tool, "--args", args])
    }

    /// Runs `mur devtools --endpoint ENDPOINT [OPTIONS…] call version`: the one call most
    /// transport tests make against a stub or a session named by hand.
    pub fn call_version_at(&self, endpoint: &str, options: &[&str]) -> Output {
        let mut args = vec!["devtools", "--endpoint", endpoint];
        args.extend_from_slice(options);
        args.extend(["call", "version"]);
        self.mur(&args)
    }

    /// Runs `mur devtools --endpoint ENDPOINT call tools/call --args PARAMS`: the line
    /// mur's hints give for a tool reached only through `tools/call` (a `/` in its name,
    /// or a verb name that is mur's own command), run as a user pasting it would.
    pub fn tools_call_at(&self, endpoint: &str, params: &str) -> Output {
        self.devtools(&[
            "--endpoint",
            endpoint,
            "call",
            "tools/call",
            "--args",
            params,
        ])
    }

    /// Runs `mur` to completion; fails the test, killing `mur`, if it is still running
    /// after `limit`.
    pub fn mur_within(&self, args: &[&str], limit: Duration) -> Output {
        self.mur_timed(args, limit).0
    }

    /// Like [`Sandbox::mur_within`], also returning how long `mur` ran.
    pub fn mur_timed(&self, args: &[&str], limit: Duration) -> (Output, Duration) {
        let mut cmd = self.mur_command(args);
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        run_within(&mut cmd, limit)
    }

    /// A project file `<sandbox>/<name>/App.csproj` (created empty).
    pub fn project(&self, name: &str) -> PathBuf {
        let dir = self.root().join(name);
        std::fs::create_dir_all(&dir).expect("project dir");
        let file = dir.join("App.csproj");
        std::fs::write(&file, "<Project />\n").expect("project file");
        file
    }

    /// A directory `<sandbox>/<name>` (created, with its parents).
    pub fn dir(&self, name: &str) -> PathBuf {
        let dir = self.root().join(name);
        std::fs::create_dir_all(&dir).expect("sandbox subdirectory");
        dir
    }

    /// A file `<sandbox>/<name>` holding `contents` (its directory created).
    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let file = self.root().join(name);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).expect("sandbox subdirectory");
        }
        std::fs::write(&file, contents).expect("sandbox file");
        file
    }

    /// Runs `mur devtools WORDS…` for each of `commands` with the directory variable
    /// `var` set to a file, and checks each is refused whole (exit 7, nothing on
    /// stdout), saying mur keeps its `what` in a directory under it (`$var/under`).
    pub fn assert_home_file_refused(
        &self,
        var: &str,
        what: &str,
        under: &str,
        commands: &[&[&str]],
    ) {
        let file = self.file(&format!("{var}-is-a-file"), "");
        let shown = file.to_str().expect("utf-8");
        for words in commands {
            let mut mur = self.mur_command(&[&["devtools"][..], words].concat());
            mur.env(var, &file);
            crate::process::run(&mut mur)
                .assert_code(7)
                .assert_stdout_is("")
                .assert_stderr_is(format!(
                    "error: `{var}` is `{shown}`, a file: mur keeps its {what} in a directory \
                     under it (`${var}/{under}`)\n\
                     hint: set `{var}` to a directory, or unset it\n"
                ));
        }
    }

    /// The canonical form of `project`, as lockfiles name it.
    pub fn canonical_project(&self, project: &Path) -> String {
        paths::canonical_project(project).expect("canonical project")
    }

    /// Where the lockfile of `project` lives.
    pub fn lockfile_path(&self, project: &Path) -> PathBuf {
        self.registry().path_for(&self.canonical_project(project))
    }

    /// The lockfile of `project`, when there is a valid one.
    pub fn read_lockfile(&self, project: &Path) -> Option<Lockfile> {
        match self.registry().read(&self.lockfile_path(project)) {
            ReadOutcome::Valid(lock) => Some(lock),
            _ => None,
        }
    }

    /// The `Authorization` value a request to the bridge of `project` needs: its
    /// secret, from its sidecar `<hash>.bridge` beside the lockfile, as `mur`
    /// sends it. For a test's own requests to a bridge (an app's session needs none).
    pub fn bridge_authorization(&self, project: &Path) -> String {
        let sidecar = self.lockfile_path(project).with_extension("bridge");
        let text = std::fs::read_to_string(&sidecar)
            .unwrap_or_else(|e| panic!("no sidecar `{}`: {e}", sidecar.display()));
        let fields: serde_json::Value = serde_json::from_str(&text).expect("a JSON sidecar");
        let secret = fields["secret"].as_str().expect("a secret in the sidecar");
        format!("Bearer {secret}")
    }

    /// Polls (up to a minute) until the lockfile of `project` is valid and satisfies `accept`.
    pub fn wait_for_lockfile(
        &self,
        project: &Path,
        accept: impl Fn(&Lockfile) -> bool,
    ) -> Lockfile {
        wait_until("a matching lockfile", || {
            self.read_lockfile(project).filter(|lock| accept(lock))
        })
    }

    /// A session binary for `project` with `extra` arguments, in the sandbox, its stdout and
    /// stderr piped: for a test that spawns it itself (see [`Process::spawn`]).
    pub fn session_command(&self, program: &Path, project: &Path, extra: &[&str]) -> Command {
        let mut cmd = self.command(program);
        cmd.arg("--project")
            .arg(project)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// Starts `mur-sample --project <project>` and waits for its lockfile.
    pub fn start_sample(&self, project: &Path) -> Session {
        self.start_sample_with(project, &[])
    }

    /// A new sandbox with `mur-sample` running for the project `app`: the setup of most
    /// tests that talk to a session.
    pub fn with_app() -> (Self, Session) {
        let sandbox = Self::new();
        let app = sandbox.start_app();
        (sandbox, app)
    }

    /// A new sandbox with `mur-sample` running for each of these projects (`["a", "b"]`),
    /// each session in the order of its project.
    pub fn with_apps<const N: usize>(projects: [&str; N]) -> (Self, [Session; N]) {
        let sandbox = Self::new();
        let sessions = projects.map(|name| sandbox.start_sample(&sandbox.project(name)));
        (sandbox, sessions)
    }

    /// A new sandbox whose one session speaks stdio (`/stdio/App.csproj`): its lockfile,
    /// planted, names this test's own (live) process.
    pub fn with_stdio_session() -> Self {
        let sandbox = Self::new();
        sandbox.plant_stdio_lockfile("/stdio/App.csproj", std::process::id());
        sandbox
    }

    /// Starts `mur-sample` for the project `app`, the one most tests need.
    pub fn start_app(&self) -> Session {
        self.start_sample(&self.project("app"))
    }

    /// Like [`Sandbox::start_sample`], with extra arguments (`--port N`).
    pub fn start_sample_with(&self, project: &Path, extra: &[&str]) -> Session {
        self.start_session(&self.artifacts().sample, project, extra)
    }

    /// Starts the server's `minimal_session` example for `project` and waits for its lockfile.
    pub fn start_example(&self, project: &Path, extra: &[&str]) -> Session {
        self.start_session(&self.artifacts().example, project, extra)
    }

    /// Starts the session binary `program` for `project` and waits for its lockfile.
    pub fn start_session(&self, program: &Path, project: &Path, extra: &[&str]) -> Session {
        self.start(self.session_command(program, project, extra), project)
    }

    /// Spawns `command` — a session for `project`, perhaps behind a wrapper that `exec`s it —
    /// with stdout discarded and stderr kept in a log, then waits (up to a minute) until the
    /// lockfile of `project` names it. Fails the test, showing the log, if it exits first.
    pub fn start(&self, command: Command, project: &Path) -> Session {
        let what = command.get_program().to_string_lossy().into_owned();
        self.try_start(command, project)
            .unwrap_or_else(|(status, log)| {
                let lockfile = self.lockfile_path(project);
                panic!(
                    "`{what}` exited ({status}) before announcing in `{}`:\n{log}",
                    lockfile.display()
                )
            })
    }

    /// Starts the session binary `program` for `project` on a port named to it
    /// (`--port PORT`, with `extra`), and returns it and the port. The port is one found
    /// free, which it is only until something binds it: another test's listener may take
    /// it before the session starts, and the session then exits saying it cannot listen
    /// there. Another port is tried then, so that a port named to the session is taken
    /// every time.
    pub fn start_session_on_a_free_port(
        &self,
        program: &Path,
        project: &Path,
        extra: &[&str],
    ) -> (Session, u16) {
        let ports = std::iter::repeat_with(free_port).take(10);
        self.start_session_on_one_of(program, project, extra, ports)
    }

    /// [`Sandbox::start_session_on_a_free_port`] on the first of `ports` that is free
    /// when the session starts.
    pub fn start_session_on_one_of(
        &self,
        program: &Path,
        project: &Path,
        extra: &[&str],
        ports: impl IntoIterator<Item = u16>,
    ) -> (Session, u16) {
        let mut tried = 0;
        for port in ports {
            tried += 1;
            let port_arg = port.to_string();
            let args = [&["--port", port_arg.as_str()][..], extra].concat();
            match self.try_start(self.session_command(program, project, &args), project) {
                Ok(session) => return (session, port),
                Err((_, log)) if log.contains("cannot listen on") && log.contains("in use") => {}
                Err((status, log)) => panic!(
                    "`{}` on port {port} exited ({status}) before announcing itself:\n{log}",
                    program.display()
                ),
            }
        }
        panic!("{tried} ports were each taken before the session could listen on it")
    }

    /// [`Sandbox::start_session_on_one_of`] of `mur-sample`.
    pub fn start_sample_on_one_of(
        &self,
        project: &Path,
        ports: impl IntoIterator<Item = u16>,
    ) -> (Session, u16) {
        self.start_session_on_one_of(&self.artifacts().sample, project, &[], ports)
    }

    /// [`Sandbox::start_session_on_a_free_port`] of `mur-sample`.
    pub fn start_sample_on_a_free_port(&self, project: &Path, extra: &[&str]) -> (Session, u16) {
        self.start_session_on_a_free_port(&self.artifacts().sample, project, extra)
    }

    /// [`Sandbox::start`] for a caller that can start it again: the exit status and the
    /// log of a session that exited before it announced itself.
    fn try_start(
        &self,
        mut command: Command,
        project: &Path,
    ) -> Result<Session, (ExitStatus, String)> {
        let log = self.root().join(format!("session-{}.log", unique()));
        command
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("session log"));
        let mut process = Process::spawn(&mut command);
        let lockfile = self.lockfile_path(project);
        let what = command.get_program().to_string_lossy().into_owned();
        let awaited = format!("announcing in `{}`", lockfile.display());
        let pid = process.pid();
        let lock = process
            .try_wait_ready(
                &what,
                &awaited,
                STARTUP_LIMIT,
                || match self.registry().read(&lockfile) {
                    ReadOutcome::Valid(lock) if lock.pid == pid => Some(lock),
                    _ => None,
                },
                || read(&log),
            )
            .map_err(|status| (status, read(&log)))?;
        Ok(Session {
            process,
            project: project.to_owned(),
            lock,
            lockfile,
            log,
        })
    }

    /// Runs `mur-sample` with these arguments to completion (e.g. a second session for a
    /// project that has one: exit 3).
    pub fn run_sample(&self, args: &[&str]) -> Output {
        let mut cmd = self.command(&self.artifacts().sample);
        cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
        run_within(&mut cmd, RUN_LIMIT).0
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

/// A running session (`mur-sample`, the example, …) that has announced itself; killed and
/// reaped on drop.
pub struct Session {
    process: Process,
    /// The project path it was started with, as a user types it (the lockfile holds its
    /// canonical form).
    pub project: PathBuf,
    /// The lockfile it announced.
    pub lock: Lockfile,
    pub lockfile: PathBuf,
    log: PathBuf,
}

/// A running `mur-sample` (the name the end-to-end tests know it by).
pub type Sample = Session;

impl Session {
    pub fn pid(&self) -> u32 {
        self.lock.pid
    }

    pub fn endpoint(&self) -> &str {
        &self.lock.endpoint
    }

    /// Kills the process (SIGKILL: its lockfile stays behind, stale).
    pub fn kill(mut self) {
        self.process.kill();
    }

    /// Sends the signal `name` (`TERM`, `INT`, `STOP`, …).
    pub fn signal(&self, name: &str) {
        self.process.signal(name);
    }

    /// Waits (up to a minute) for the process to exit on its own.
    pub fn wait_status(self) -> ExitStatus {
        self.process.wait_status()
    }

    /// What it logged on stderr so far.
    pub fn log(&self) -> String {
        read(&self.log)
    }

    /// Takes its lockfile out of the lockfile directory while it runs on, holding its
    /// slot: to a reader it is a session on its way (a reload's successor, a restart,
    /// before it announces itself) until [`Withdrawn::announce`] puts the file back, at
    /// the moment the test picks. A session started at that moment instead would have
    /// to announce itself within discovery's wait for one on its way (5 s), which a
    /// loaded machine does not promise.
    pub fn withdraw(&self) -> Withdrawn {
        let name = self.lockfile.file_name().expect("a lockfile name");
        let dir = self.lockfile.parent().expect("the lockfile directory");
        // Beside the lockfile directory, out of every reader's sight.
        let aside = dir
            .parent()
            .expect("the lockfile directory's parent")
            .join(name)
            .with_extension("json.withdrawn");
        std::fs::rename(&self.lockfile, &aside).expect("withdraw the lockfile");
        Withdrawn {
            aside,
            lockfile: self.lockfile.clone(),
        }
    }
}

/// A running session's lockfile taken out of sight ([`Session::withdraw`]).
pub struct Withdrawn {
    aside: PathBuf,
    lockfile: PathBuf,
}

impl Withdrawn {
    /// Puts the lockfile back, whole at once (a rename): the session is announced again.
    pub fn announce(self) {
        std::fs::rename(&self.aside, &self.lockfile).expect("announce the lockfile again");
    }
}

/// What a session prints on stderr, whole, before it exits 3, when another session for
/// its project is active at `endpoint` with `pid`.
pub fn another_session_line(endpoint: &str, pid: impl std::fmt::Display) -> String {
    format!(
        "[devtools] another session for this project is active at {endpoint} (pid {pid}); \
         stop it first.\n"
    )
}

/// The rows under a mur error that lists sessions (none for `--project`, several found),
/// whole: each session's project padded to the longest, its endpoint and pid, in the order
/// given (mur's: by project).
pub fn session_rows(sessions: &[&Session]) -> String {
    let width = sessions
        .iter()
        .map(|s| s.lock.project.len())
        .max()
        .unwrap_or(0);
    sessions
        .iter()
        .map(|s| {
            format!(
                "  {:width$}  {}  (pid {})\n",
                s.lock.project,
                s.endpoint(),
                s.pid()
            )
        })
        .collect()
}

/// mur's error, whole, when `sessions` (in its order) all answer and none was chosen, for
/// the command `command` (the words after `mur devtools`, as the hint repeats them).
pub fn several_sessions_error(sessions: &[&Session], command: &str) -> String {
    format!(
        "error: {} live devtools sessions found; which one is meant?\n{}\
         hint: choose one with `--project PATH` or `--endpoint URL`; for the first: \
         `mur devtools --project {} {command}`\n",
        sessions.len(),
        session_rows(sessions),
        sessions.first().map_or("", |s| s.lock.project.as_str()),
    )
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

/// The sessions of a sandbox that `reload` started: every lockfile pid but the
/// original session's, if it runs `mur-sample` for a project in this sandbox. The
/// sandbox ends them on drop, as every process of its own.
pub struct Successors<'a> {
    sandbox: &'a Sandbox,
    original: u32,
}

impl<'a> Successors<'a> {
    pub fn new(sandbox: &'a Sandbox, original: u32) -> Self {
        Self { sandbox, original }
    }

    fn pids(&self) -> Vec<u32> {
        let Ok(entries) = std::fs::read_dir(self.sandbox.lockfile_dir()) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|e| {
                serde_json::from_slice::<serde_json::Value>(&std::fs::read(e.path()).ok()?).ok()
            })
            .filter_map(|lock| u32::try_from(lock["pid"].as_u64()?).ok())
            .filter(|&pid| pid != self.original)
            .filter(|&pid| {
                let cmdline = proc_text(pid, "cmdline");
                cmdline.contains("mur-sample") && self.sandbox.names(&cmdline)
            })
            .collect()
    }

    /// Waits until the session that took over has announced itself, and returns its pid.
    pub fn wait(&self) -> u32 {
        wait_until("a new session after `reload`", || {
            self.pids().first().copied()
        })
    }
}

/// A process's `/proc/PID/<file>` (`cmdline`, `environ`, `stat`) as text; empty once it is gone.
fn proc_text(pid: u32, file: &str) -> String {
    let bytes = std::fs::read(format!("/proc/{pid}/{file}")).unwrap_or_default();
    String::from_utf8_lossy(&bytes).into_owned()
}

impl Drop for Sandbox {
    /// Ends every process the test left running in the sandbox: a session a `reload`
    /// replaced (its successor is no child of the test, and a test that stopped before
    /// it announced itself left it running for ever, one orphan a test run), a bridge
    /// started `--background`, an agent a harness started. A process is the sandbox's
    /// when its command line or its environment names the sandbox's directory, a fresh
    /// temporary one no process outside the test can name: nothing else is signalled.
    fn drop(&mut self) {
        let me = std::process::id();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return;
        };
        let ours: Vec<u32> = entries
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&pid| pid != me)
            .filter(|&pid| {
                self.names(&proc_text(pid, "cmdline")) || self.names(&proc_text(pid, "environ"))
            })
            .collect();
        for &pid in &ours {
            crate::process::signal(pid, "KILL");
        }
        for pid in ours {
            // Not always our child: its new parent reaps it; wait until it is gone (a
            // zombie of ours is gone enough: its `Process` reaps it).
            let deadline = std::time::Instant::now() + Duration::from_secs(10);
            while Path::new(&format!("/proc/{pid}")).exists()
                && std::time::Instant::now() < deadline
                && proc_text(pid, "stat").split_whitespace().nth(2) != Some("Z")
            {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}
