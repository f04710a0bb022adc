//! Everything a benchmark run needs: release binaries, the standard verbs,
//! a private sandbox (lockfile, verb and cache directories) and a live
//! `mur-sample` session in it.

use std::{
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use mur_lockfile::{Lockfile, ReadOutcome, Registry};

pub type Result<T> = std::result::Result<T, String>;

/// The workspace root (the parent of this crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Build `mur`, `mur-sample` and `mur-floor` in release mode and every
/// standard verb for wasm32-wasip2; return the release directory.
pub fn build_everything() -> Result<PathBuf> {
    let root = workspace_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("building release binaries…");
    let status = Command::new(&cargo)
        .current_dir(&root)
        .args([
            "build",
            "--release",
            "-p",
            "mur",
            "-p",
            "mur-sample",
            "-p",
            "mur-bench",
            "--bins",
        ])
        .status()
        .map_err(|err| format!("cannot run cargo: {err}"))?;
    if !status.success() {
        return Err("release build failed".into());
    }
    eprintln!("building standard verbs…");
    let status = Command::new("bash")
        .arg(root.join("plugins/build.sh"))
        .current_dir(&root)
        .stdout(Stdio::null())
        .status()
        .map_err(|err| format!("cannot run plugins/build.sh: {err}"))?;
    if !status.success() {
        return Err("plugins/build.sh failed".into());
    }
    Ok(root.join("target/release"))
}

/// Directories and binaries private to this run.
pub struct Sandbox {
    _root: tempfile::TempDir,
    pub runtime_dir: PathBuf,
    pub data_dir: PathBuf,
    pub cache_dir: PathBuf,
    pub project: PathBuf,
    pub bin: PathBuf,
}

impl Sandbox {
    pub fn new(bin: PathBuf) -> Result<Self> {
        let root = tempfile::tempdir().map_err(|err| err.to_string())?;
        let make = |name: &str| {
            let dir = root.path().join(name);
            std::fs::create_dir_all(&dir)
                .map(|_| dir)
                .map_err(|err| err.to_string())
        };
        let (runtime_dir, data_dir, cache_dir) = (make("run")?, make("data")?, make("cache")?);
        let project = make("app")?.join("Bench.csproj");
        std::fs::write(&project, "").map_err(|err| err.to_string())?;
        Ok(Self {
            _root: root,
            runtime_dir,
            data_dir,
            cache_dir,
            project,
            bin,
        })
    }

    /// The lockfile directory `mur` and `mur-sample` use in this sandbox.
    pub fn registry(&self) -> Registry {
        Registry::at(self.runtime_dir.join("reactor-devtools"))
    }

    /// A command for one of our binaries with the sandbox's environment.
    pub fn command(&self, binary: &str) -> Command {
        let mut command = Command::new(self.bin.join(binary));
        command
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.data_dir.parent().unwrap_or(Path::new("/")))
            .env("XDG_RUNTIME_DIR", &self.runtime_dir)
            .env("XDG_DATA_HOME", &self.data_dir)
            .env("XDG_CACHE_HOME", &self.cache_dir);
        command
    }

    /// `mur devtools <args>`.
    pub fn mur(&self, args: &[&str]) -> Command {
        let mut command = self.command("mur");
        command.arg("devtools").args(args);
        command
    }

    /// Install the standard verbs built by `plugins/build.sh`.
    pub fn install_standard_verbs(&self) -> Result<Vec<PathBuf>> {
        let wasm = standard_verb_files()?;
        let status = self
            .mur(&["verbs", "add", "--force"])
            .args(&wasm)
            .stdout(Stdio::null())
            .status()
            .map_err(|err| err.to_string())?;
        if !status.success() {
            return Err("`mur devtools verbs add` failed".into());
        }
        Ok(wasm)
    }

    /// Start `mur-sample` for the sandbox's project and wait for its lockfile.
    pub fn start_sample(&self, port: Option<u16>) -> Result<Session> {
        let mut command = self.command("mur-sample");
        command
            .arg("--project")
            .arg(&self.project)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some(port) = port {
            command.args(["--port", &port.to_string()]);
        }
        let child = command
            .spawn()
            .map_err(|err| format!("cannot start mur-sample: {err}"))?;
        let mut session = Session {
            child,
            lockfile: None,
        };
        session.lockfile = Some(wait_for_lockfile(&self.registry(), session.child.id())?);
        Ok(session)
    }
}

/// Every `mur_verb_*.wasm` built for release.
pub fn standard_verb_files() -> Result<Vec<PathBuf>> {
    let dir = workspace_root().join("plugins/target/wasm32-wasip2/release");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|err| format!("cannot list {}: {err}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("mur_verb_")
                && name.ends_with(".wasm")
                && name != "mur_verb_guest.wasm"
        })
        .collect();
    files.sort();
    Ok(files)
}

fn wait_for_lockfile(registry: &Registry, pid: u32) -> Result<Lockfile> {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        for entry in registry.scan().unwrap_or_default() {
            if let ReadOutcome::Valid(lock) = entry.outcome
                && lock.pid == pid
            {
                return Ok(lock);
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Err("mur-sample wrote no lockfile within 20 s".into())
}

/// A running `mur-sample`; interrupted (so it removes its lockfile) on drop.
pub struct Session {
    child: Child,
    lockfile: Option<Lockfile>,
}

impl Session {
    pub fn lockfile(&self) -> &Lockfile {
        self.lockfile
            .as_ref()
            .expect("a started session has a lockfile")
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            // SAFETY: kill(2) on our own child's pid with SIGINT.
            #[allow(unsafe_code)]
            unsafe {
                libc::kill(self.child.id() as libc::pid_t, libc::SIGINT);
            }
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
