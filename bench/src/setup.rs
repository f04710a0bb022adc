//! Everything a benchmark run needs, from the workspace's test kit (`mur-testkit`):
//! release binaries, the standard verbs, a private sandbox (lockfile, verb and cache
//! directories, a cleared environment) and a live `mur-sample` session in it.

use std::{
    collections::BTreeMap,
    path::PathBuf,
    process::{Command, Stdio},
};

use mur_lockfile::Registry;
use mur_testkit::{Artifacts, Sandbox, Session, plugins};

pub type Result<T> = std::result::Result<T, String>;

/// A sandbox running release builds of `mur`, `mur-sample` and `mur-floor`.
pub struct Bench {
    sandbox: Sandbox,
    floor: PathBuf,
    other: Option<OtherBuild>,
}

/// `mur` and the two floors built for another target (`mur-bench --target TRIPLE`), run
/// in the same sandbox against the same session as the host build's.
pub struct OtherBuild {
    pub target: String,
    pub mur: PathBuf,
    pub floor: PathBuf,
    pub contract_floor: PathBuf,
    pub stack_floor: PathBuf,
}

impl Bench {
    /// Builds `mur`, `mur-sample` and `mur-floor` in release mode (one `cargo build`) and
    /// every standard verb (for wasm32-unknown-unknown), and makes a fresh sandbox for them; with a
    /// `target`, builds them once more for it ([`OtherBuild`]).
    pub fn build(target: Option<&str>) -> Result<Self> {
        crate::output::note("building release binaries…");
        // Leaked: the one build of this process, used until it exits.
        let artifacts: &'static Artifacts =
            Box::leak(Box::new(mur_testkit::build(true, &["mur-bench"])?));
        let floor = bin(&artifacts.all, "mur-floor")?;
        warn_of_stale_order(&bin(&artifacts.all, "mur")?, None);
        let other = target.map(OtherBuild::build).transpose()?;
        Ok(Self {
            sandbox: Sandbox::with_artifacts(artifacts),
            floor,
            other,
        })
    }

    /// The build for `--target`, when one was asked for.
    pub fn other(&self) -> Option<&OtherBuild> {
        self.other.as_ref()
    }

    /// The lockfile directory `mur` and `mur-sample` use in this sandbox.
    pub fn registry(&self) -> Registry {
        self.sandbox.registry()
    }

    /// `XDG_RUNTIME_DIR` of the sandbox.
    pub fn runtime_dir(&self) -> PathBuf {
        self.sandbox.runtime_dir()
    }

    /// The sandbox's own directory (its XDG directories are inside).
    pub fn root(&self) -> &std::path::Path {
        self.sandbox.root()
    }

    /// `XDG_CACHE_HOME` of the sandbox.
    pub fn cache_dir(&self) -> PathBuf {
        self.sandbox.root().join("cache")
    }

    /// `mur devtools <args>` of the other build.
    pub fn other_mur(&self, other: &OtherBuild, args: &[&str]) -> Command {
        let mut command = self.sandbox.command(&other.mur);
        command.arg("devtools").args(args);
        command
    }

    /// `mur devtools <args>`.
    pub fn mur(&self, args: &[&str]) -> Command {
        let mut command = self.sandbox.mur_command(&["devtools"]);
        command.args(args);
        command
    }

    /// The std-only floor client, `mur-floor`.
    pub fn floor(&self) -> Command {
        self.sandbox.command(&self.floor)
    }

    /// `program` (a path) with the sandbox's environment, in its directory.
    pub fn command(&self, program: &std::path::Path) -> Command {
        self.sandbox.command(program)
    }

    /// One of this package's own programs (`mur-stdio-once`), in the sandbox.
    pub fn program(&self, name: &str) -> Command {
        let path = self
            .sandbox
            .artifacts()
            .bin(name)
            .map_or_else(|| PathBuf::from(name), std::path::Path::to_owned);
        self.sandbox.command(&path)
    }

    /// Installs the standard verbs (built by `plugins/build.sh`); returns their files.
    pub fn install_standard_verbs(&self) -> Result<Vec<PathBuf>> {
        crate::output::note("building standard verbs…");
        let wasm = plugins::standard_files();
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

    /// Starts `mur-sample` for a project of the sandbox and waits for its lockfile.
    pub fn start_sample(&self) -> Session {
        self.sandbox.start_sample(&self.sandbox.project("app"))
    }
}

impl OtherBuild {
    /// `mur` alone, as `cargo install --path host --target TRIPLE` resolves its features
    /// (so a link order made for the install matches it), then the floors.
    fn build(target: &str) -> Result<Self> {
        crate::output::note(&format!("building release binaries for {target}…"));
        let mur = mur_testkit::cargo_build(&["--release", "--target", target, "-p", "mur"])?;
        let floors = mur_testkit::cargo_build(&[
            "--release",
            "--target",
            target,
            "-p",
            "mur-bench",
            "--bin",
            "mur-floor",
            "--bin",
            "mur-contract-floor",
            "--bin",
            "mur-stack-floor",
        ])?;
        let mur = bin(&mur, "mur")?;
        warn_of_stale_order(&mur, Some(target));
        Ok(Self {
            target: target.to_owned(),
            mur,
            floor: bin(&floors, "mur-floor")?,
            contract_floor: bin(&floors, "mur-contract-floor")?,
            stack_floor: bin(&floors, "mur-stack-floor")?,
        })
    }
}

/// A line on stderr when the link order of the `mur` at `binary` is stale.
fn warn_of_stale_order(binary: &std::path::Path, target: Option<&str>) {
    if let Some(line) = crate::link_order::stale_note(binary, target) {
        crate::output::note(&line);
    }
}

/// The executable `name` among those a build reported.
fn bin(built: &BTreeMap<String, PathBuf>, name: &str) -> Result<PathBuf> {
    built
        .get(name)
        .cloned()
        .ok_or_else(|| format!("the release build made no {name}"))
}
