//! The binaries under test, built by one `cargo build` per process: `mur`, `mur-sample` and
//! the server's `minimal_session` example. Their paths come from cargo's own report of what
//! it built (`--message-format=json`), so a `CARGO_TARGET_DIR` or a profile cannot move them
//! out from under the tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

/// The packages every build covers: their binaries, and the example named below.
const PACKAGES: [&str; 3] = ["mur", "mur-sample", "mur-server"];
/// The server library's example session (`server/examples/minimal_session.rs`).
const EXAMPLE: &str = "minimal_session";

/// Where the built executables are.
#[derive(Debug, Clone)]
pub struct Artifacts {
    /// The `mur` binary.
    pub mur: PathBuf,
    /// The sample app, `mur-sample`.
    pub sample: PathBuf,
    /// The `minimal_session` example of `mur-server`.
    pub example: PathBuf,
    /// Every executable the build produced, by target name (also those of extra packages).
    pub all: BTreeMap<String, PathBuf>,
}

impl Artifacts {
    /// The executable of the target `name` (e.g. `mur-floor` when `mur-bench` was built too).
    pub fn bin(&self, name: &str) -> Option<&Path> {
        self.all.get(name).map(PathBuf::as_path)
    }
}

/// Builds `mur`, `mur-sample` and the `minimal_session` example — plus every binary of the
/// packages in `also` (in a debug build: every binary of the workspace) — and returns the
/// paths cargo reports: one `cargo build`, or with `release` two (`mur` first, on its
/// own). Compiler diagnostics go to stderr as usual.
pub fn build(release: bool, also: &[&str]) -> Result<Artifacts, String> {
    let mut args = vec!["--bins", "--example", EXAMPLE];
    let mut all = BTreeMap::new();
    if release {
        // `mur` on its own, as `cargo install --path host` (scripts/setup.sh) builds it:
        // built with other packages, cargo unifies their dependencies' features,
        // which changes `mur`'s code and mangled names, so its link order
        // (host/symbol-order.txt) names nothing in it (named verb's peak RSS 6.8 ->
        // 10.7 MiB, docs/performance.md, "The benchmark's glibc `mur` was not the one
        // users build").
        all = cargo_build(&["--release", "--bins", "-p", "mur"])?;
        args.push("--release");
        for package in PACKAGES.iter().filter(|p| **p != "mur").chain(also) {
            args.extend(["-p", package]);
        }
    } else {
        // The debug build shares its dependencies with `cargo test --workspace`, which
        // resolves features over the whole workspace: building only three packages would
        // resolve fewer (`libc/extra_traits` from one member, `reqwest/blocking` from
        // another) and rebuild half the dependency tree, minutes in CI. So every binary of
        // the workspace is built, with the features the test build already compiled.
        args.push("--workspace");
    }
    all.extend(cargo_build(&args)?);
    let take = |name: &str| {
        all.get(name)
            .cloned()
            .ok_or_else(|| format!("`cargo build` reported no executable `{name}`"))
    };
    Ok(Artifacts {
        mur: take("mur")?,
        sample: take("mur-sample")?,
        example: take(EXAMPLE)?,
        all,
    })
}

/// `cargo build ARGS…` in the workspace; the executables it reports, by target name.
/// Compiler diagnostics go to stderr as usual.
pub fn cargo_build(args: &[&str]) -> Result<BTreeMap<String, PathBuf>, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(workspace_root())
        .args(["build", "--message-format=json-render-diagnostics"])
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|error| format!("cannot run cargo: {error}"))?;
    if !output.status.success() {
        return Err(format!(
            "`cargo build {}` failed ({})",
            args.join(" "),
            output.status
        ));
    }
    Ok(executables(&String::from_utf8_lossy(&output.stdout)))
}

/// The executables named in cargo's JSON messages, by target name.
fn executables(messages: &str) -> BTreeMap<String, PathBuf> {
    messages
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-artifact")
        .filter_map(|message| {
            let name = message["target"]["name"].as_str()?.to_owned();
            let path = message["executable"].as_str()?.into();
            Some((name, path))
        })
        .collect()
}

/// The binaries, built once per process in the profile this process was built in (a test
/// binary under `target/release/deps/` gets release builds). Panics when the build fails.
pub fn artifacts() -> &'static Artifacts {
    static BUILT: OnceLock<Artifacts> = OnceLock::new();
    BUILT.get_or_init(|| build(built_in_release(), &[]).unwrap_or_else(|error| panic!("{error}")))
}

/// Path of the built `mur`.
pub fn mur_bin() -> &'static Path {
    &artifacts().mur
}

/// Path of the built `mur-sample`.
pub fn sample_bin() -> &'static Path {
    &artifacts().sample
}

/// Path of the built `minimal_session` example.
pub fn example_bin() -> &'static Path {
    &artifacts().example
}

/// The repository root (the kit lives in `<root>/testkit`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testkit/ has a parent")
        .to_path_buf()
}

/// An exclusive lock on the file `lock` (made, with its directory, when missing),
/// held until the returned file is dropped (closed): for work that writes one shared
/// file of the target or a build directory, which a second test process at once (a
/// run beside a rerun) would write or remove under this one's feet. `what` names
/// the work in the panic when the lock cannot be had.
pub fn one_process_at_a_time(lock: &Path, what: &str) -> std::fs::File {
    if let Some(dir) = lock.parent() {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    let file = std::fs::File::create(lock).unwrap_or_else(|e| panic!("{}: {e}", lock.display()));
    file.lock()
        .unwrap_or_else(|e| panic!("lock {} for {what}: {e}", lock.display()));
    file
}

/// Whether this executable sits in a `release` profile directory
/// (`target/release/<bin>` or `target/release/deps/<test>`).
fn built_in_release() -> bool {
    let Ok(exe) = std::env::current_exe() else {
        return false;
    };
    let mut dir = exe.parent();
    if dir.is_some_and(|d| d.ends_with("deps")) {
        dir = dir.and_then(Path::parent);
    }
    dir.is_some_and(|d| d.ends_with("release"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn executables_are_read_from_cargo_messages() {
        let messages = r#"{"reason":"compiler-artifact","target":{"name":"mur"},"executable":"/t/debug/mur"}
{"reason":"compiler-artifact","target":{"name":"mur_lockfile"},"executable":null}
{"reason":"build-finished","success":true}
not json"#;
        let found = executables(messages);
        assert_eq!(found.len(), 1);
        assert_eq!(found["mur"], Path::new("/t/debug/mur"));
    }
}
