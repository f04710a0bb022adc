//! One project in a test-kit [`Sandbox`]: each server test works on exactly one, so
//! the calls name it once. Everything else — building the example, the cleared
//! environment, waiting for lockfiles, killing children — is `mur-testkit`'s.

use std::path::{Path, PathBuf};
use std::process::Command;

use mur_lockfile::{Lockfile, Registry};
pub use mur_testkit::{
    Adopted, Output, Process, Sandbox, Session, dead_pid, example_bin, mcp, sample_bin, signal,
    silent_listener, wait_until,
};

/// A sandbox and the one project the test's sessions are for.
pub struct World {
    pub sandbox: Sandbox,
    pub project: PathBuf,
}

impl World {
    pub fn new() -> Self {
        let sandbox = Sandbox::new();
        let project = sandbox.project("app");
        Self { sandbox, project }
    }

    /// A new world with the example session started in it.
    pub fn started() -> (Self, Session) {
        let world = Self::new();
        let session = world.start();
        (world, session)
    }

    pub fn lockfile_dir(&self) -> PathBuf {
        self.sandbox.lockfile_dir()
    }

    pub fn canonical_project(&self) -> String {
        self.sandbox.canonical_project(&self.project)
    }

    pub fn lockfile_path(&self) -> PathBuf {
        self.sandbox.lockfile_path(&self.project)
    }

    pub fn read_lockfile(&self) -> Option<Lockfile> {
        self.sandbox.read_lockfile(&self.project)
    }

    /// The endpoint the project's lockfile names.
    pub fn endpoint(&self) -> String {
        self.read_lockfile().expect("lockfile").endpoint
    }

    /// Makes the lockfile directory, as a session before this one would have.
    pub fn ensure_lockfile_dir(&self) {
        Registry::at(self.lockfile_dir())
            .ensure_dir()
            .expect("lockfile dir");
    }

    /// Writes `lock` into the project's slot, as a session before this one would have.
    pub fn plant(&self, lock: &Lockfile) {
        Registry::at(self.lockfile_dir())
            .write(lock)
            .expect("plant lockfile");
    }

    /// Starts the example session and asserts that its lockfile, not what was in the
    /// slot before, now names the project's session.
    pub fn start_taking_the_slot(&self) -> Session {
        let session = self.start();
        assert_eq!(
            self.read_lockfile().map(|lock| lock.pid),
            Some(session.pid())
        );
        session
    }

    /// Polls until the lockfile is valid and satisfies `accept`.
    pub fn wait_for_lockfile(&self, accept: impl Fn(&Lockfile) -> bool) -> Lockfile {
        self.sandbox.wait_for_lockfile(&self.project, accept)
    }

    /// The example session with `extra` arguments, stdout and stderr piped.
    pub fn command(&self, extra: &[&str]) -> Command {
        self.command_for(example_bin(), extra)
    }

    /// Like [`World::command`], for another session binary (e.g. `mur-sample`).
    pub fn command_for(&self, binary: &Path, extra: &[&str]) -> Command {
        self.sandbox.session_command(binary, &self.project, extra)
    }

    /// Starts the example session and waits until its lockfile names it.
    pub fn start(&self) -> Session {
        let session = self.sandbox.start_example(&self.project, &[]);
        assert_eq!(
            session.lock.endpoint,
            format!("http://127.0.0.1:{}/mcp", session.lock.port)
        );
        session
    }

    /// Spawns the example with `extra` arguments; its pipes are the caller's to use.
    pub fn spawn(&self, extra: &[&str]) -> Process {
        Process::spawn(&mut self.command(extra))
    }
}

/// Asserts that `answer` is an invalid-params error (-32602) whose message says `part`.
#[track_caller]
pub fn assert_invalid_params_saying(answer: &serde_json::Value, part: &str) {
    let message = mcp::error_message(answer, -32602);
    assert!(message.contains(part), "{answer}");
}

/// Runs a command to completion (bounded by the kit's patience).
pub fn run_to_end(mut command: Command) -> Output {
    Process::spawn(&mut command).wait_output()
}
