//! Verb components — the standard set from plugins/ and the test guests from
//! tests/guests/, each built once per process with cargo (never skipped for a
//! missing artifact) — and helpers to install them into a [`Sandbox`] and to
//! look at its verb directory and compile cache.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

use crate::{BUILD_LIMIT, Output, Sandbox, Session, run_within};

/// The repository root.
pub fn repo_root() -> PathBuf {
    crate::artifacts::workspace_root()
}

/// Runs a build step (`what` names it) to completion within [`BUILD_LIMIT`]; fails the
/// test, showing its output, unless it succeeds.
fn build_step(mut cmd: Command, what: &str) {
    // Each workspace builds into its own target dir, never one inherited from the run.
    cmd.env_remove("CARGO_TARGET_DIR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let (out, _) = run_within(&mut cmd, BUILD_LIMIT);
    assert!(out.code == 0, "{what} failed\n{out}");
}

/// The verb builds' shared intermediate directory (`CARGO_BUILD_BUILD_DIR`), as
/// plugins/build.sh, plugins/compact/build.sh and scripts/test.sh name it: the
/// dependencies every verb workspace has (wit-bindgen, serde_json, lexopt) are built
/// once, for the standard verbs, the test guests and the verbs the tests scaffold alike.
pub fn verb_build_dir() -> PathBuf {
    repo_root().join("target/verb-builds")
}

/// The Rust target of the standard verbs (plugins/build.sh), built without WASI.
pub const STANDARD_TARGET: &str = "wasm32-unknown-unknown";

/// The Rust target of the test guests and of the verbs the tests scaffold.
pub const GUEST_TARGET: &str = "wasm32-wasip2";

/// Adds [`GUEST_TARGET`] with rustup when it is missing, once per test process, as
/// plugins/build.sh does for [`STANDARD_TARGET`].
pub fn add_guest_target() {
    add_target(GUEST_TARGET);
}

/// Adds the Rust `target` with rustup when it is missing, once per test process.
fn add_target(target: &'static str) {
    static ADDED: Mutex<Vec<&str>> = Mutex::new(Vec::new());
    let mut added = ADDED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if added.contains(&target) {
        return;
    }
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|out| {
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .any(|l| l == target)
        })
        .unwrap_or(false);
    if !installed {
        let mut cmd = Command::new("rustup");
        cmd.args(["target", "add", target]);
        build_step(cmd, &format!("rustup target add {target}"));
    }
    added.push(target);
}

/// `cargo build --release --target TARGET` of the test guests' workspace, sharing
/// the verb builds' intermediate directory; where the components land.
fn guests_build(target: &str) -> (Command, PathBuf) {
    let root = repo_root().join("tests/guests");
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.args(["build", "--release", "--target", target, "--manifest-path"])
        .arg(root.join("Cargo.toml"))
        .env("CARGO_BUILD_BUILD_DIR", verb_build_dir());
    (cmd, root.join("target").join(target).join("release"))
}

/// Build the test guests (tests/guests) once per test process.
pub fn guests_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        add_guest_target();
        let (cmd, dir) = guests_build(GUEST_TARGET);
        build_step(cmd, "building tests/guests");
        dir
    })
}

/// Test guest `name` built as the standard verbs are, for [`STANDARD_TARGET`]: no
/// WASI, so it imports nothing and has no stderr. Built on first use, e.g.
/// `bare_guest("crash")`.
pub fn bare_guest(name: &str) -> PathBuf {
    add_target(STANDARD_TARGET);
    let (mut cmd, dir) = guests_build(STANDARD_TARGET);
    cmd.args(["-p", &format!("mur-test-verb-{name}")])
        // Cargo reads plugins/.cargo/config.toml from there: the component
        // linker, named in that one place.
        .current_dir(repo_root().join("plugins"));
    build_step(cmd, "building a test guest for wasm32-unknown-unknown");
    dir.join(format!("mur_test_verb_{}.wasm", name.replace('-', "_")))
}

/// A test guest component, e.g. `guest("spin")`.
pub fn guest(name: &str) -> PathBuf {
    guests_dir().join(format!("mur_test_verb_{name}.wasm"))
}

/// Build the standard verbs with plugins/build.sh once per test process.
pub fn standard_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let mut cmd = Command::new("bash");
        cmd.arg(repo_root().join("plugins/build.sh"))
            .stdout(Stdio::null());
        build_step(cmd, "plugins/build.sh");
        repo_root()
            .join("plugins/target")
            .join(STANDARD_TARGET)
            .join("release")
    })
}

/// Build the `cli-compact` condition's reshaped verbs with plugins/compact/build.sh once per
/// test process; where they are.
pub fn compact_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let mut cmd = Command::new("bash");
        cmd.arg(repo_root().join("plugins/compact/build.sh"));
        build_step(cmd, "plugins/compact/build.sh");
        repo_root()
            .join("plugins/compact/target")
            .join(STANDARD_TARGET)
            .join("release")
    })
}

/// The words of the 19 standard verbs, in the order `mur devtools --help` lists them.
pub const STANDARD_VERBS: [&str; 19] = [
    "version",
    "windows",
    "components",
    "switch",
    "tree",
    "screenshot",
    "state",
    "click",
    "type",
    "focus",
    "invoke",
    "toggle",
    "expand",
    "collapse",
    "select",
    "scroll",
    "wait",
    "fire",
    "reload",
];

/// A new sandbox with these verb components added (`verbs add`, which must succeed).
pub fn sandbox_with(files: &[PathBuf]) -> Sandbox {
    let sandbox = Sandbox::new();
    add(&sandbox, files);
    sandbox
}

/// A new sandbox with the standard verbs installed (and no session).
pub fn standard_sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    install_standard(&sandbox);
    sandbox
}

/// A sandbox with the standard verbs installed and `mur-sample` running.
pub fn standard_session() -> (Sandbox, Session) {
    let sandbox = standard_sandbox();
    let sample = sandbox.start_app();
    (sandbox, sample)
}

/// A standard verb component, e.g. `standard("click")`.
pub fn standard(name: &str) -> PathBuf {
    standard_dir().join(format!("mur_verb_{name}.wasm"))
}

/// Every standard verb component (the 19 `mur_verb_*.wasm`), sorted.
pub fn standard_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(standard_dir())
        .expect("standard verbs")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("mur_verb_") && n.ends_with(".wasm"))
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 19, "the standard set is 19 verbs: {files:?}");
    files
}

/// Where `mur` keeps installed verbs in this sandbox.
pub fn verb_dir(sandbox: &Sandbox) -> PathBuf {
    sandbox.root().join("data/mur/verbs")
}

/// Where `mur` caches compiled verbs in this sandbox.
pub fn cache_dir(sandbox: &Sandbox) -> PathBuf {
    sandbox.root().join("cache/mur/verbs")
}

/// The compiled-code entries in this sandbox's cache.
pub fn cache_entries(sandbox: &Sandbox) -> Vec<PathBuf> {
    std::fs::read_dir(cache_dir(sandbox))
        .map(|entries| mur_lockfile::files_with_extension(entries, "cwasm"))
        .unwrap_or_default()
}

/// `mur devtools verbs add <files>…` (plus `extra` flags), as run.
pub fn try_add(sandbox: &Sandbox, files: &[PathBuf], extra: &[&str]) -> Output {
    let files: Vec<String> = files
        .iter()
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    let mut args = vec!["devtools", "verbs", "add"];
    args.extend(files.iter().map(String::as_str));
    args.extend(extra);
    sandbox.mur(&args)
}

/// `mur devtools verbs add <files>…`, which must succeed.
pub fn add(sandbox: &Sandbox, files: &[PathBuf]) -> Output {
    let out = try_add(sandbox, files, &[]);
    out.assert_code(0);
    out
}

/// The component with a custom section appended: different bytes (so a new
/// hash), same behaviour. Custom sections are valid anywhere in a component.
pub fn with_custom_section(component: &[u8], note: &str) -> Vec<u8> {
    with_section(component, "mur-test-note", note)
}

/// The component with a `mur:verb-name` section naming verb `name` appended,
/// as the kits write it: `verbs add` judges that name before compiling.
pub fn with_verb_name(component: &[u8], name: &str) -> Vec<u8> {
    with_section(component, "mur:verb-name", name)
}

/// The component with the custom section `section` holding `data` appended.
fn with_section(component: &[u8], section: &str, data: &str) -> Vec<u8> {
    let mut body = leb128(section.len());
    body.extend_from_slice(section.as_bytes());
    body.extend_from_slice(data.as_bytes());
    let mut out = component.to_vec();
    out.push(0); // custom section id
    out.extend(leb128(body.len()));
    out.extend(body);
    out
}

fn leb128(mut n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// The JavaScript verb `shout` (tests/guests/js), componentized with
/// componentize-js once per test process. The npm packages are installed into
/// tests/guests/js/node_modules (following its lockfile) when missing.
pub fn js_verb() -> &'static Path {
    static WASM: OnceLock<PathBuf> = OnceLock::new();
    WASM.get_or_init(|| {
        let dir = repo_root().join("tests/guests/js");
        let out = repo_root().join("tests/guests/target/js/shout.wasm");
        // One test process at a time installs and builds (two at once, a run beside
        // a rerun, would install into one node_modules and write one file).
        let _build = crate::one_process_at_a_time(
            &out.with_file_name(".build.lock"),
            "the JavaScript verb's build",
        );
        if !dir
            .join("node_modules/@bytecodealliance/componentize-js")
            .exists()
        {
            // `npm install`, not `npm ci`: npm 11 writes lock entries for other
            // platforms' optional binaries that its own `npm ci` then rejects.
            let mut npm = Command::new("npm");
            npm.current_dir(&dir)
                .args(["install", "--no-audit", "--no-fund"])
                .stdout(Stdio::null());
            build_step(npm, "npm install in tests/guests/js");
        }
        let sources = [
            dir.join("shout.js"),
            dir.join("build.mjs"),
            repo_root().join("wit/verb.wit"),
        ];
        if is_stale(&out, &sources) {
            let mut node = Command::new("node");
            node.current_dir(&dir).arg("build.mjs").arg(&out);
            build_step(node, "componentizing tests/guests/js/shout.js");
        }
        out
    })
}

/// Whether `output` is missing or older than any of `inputs`.
fn is_stale(output: &Path, inputs: &[PathBuf]) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let Some(built) = modified(output) else {
        return true;
    };
    inputs.iter().any(|i| modified(i).is_none_or(|t| t > built))
}

/// The installed standard set as files: each path relative to the sandbox root,
/// its bytes and its modification time.
type Snapshot = Vec<(PathBuf, Vec<u8>, std::time::SystemTime)>;

/// The standard set installed once per test process: what `verbs add` said, and
/// the files it left.
struct Installed {
    said: Output,
    snapshot: Snapshot,
}

/// `mur devtools -v verbs add` of the 19 standard verbs into a fresh sandbox, run
/// once per test process (it compiles every one); [`install_standard`] copies what it
/// installed, and a test reads what it said (its `-v` lines) here rather than compile
/// the set again.
fn installed() -> &'static Installed {
    static INSTALLED: OnceLock<Installed> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let scratch = Sandbox::new();
        let files = standard_files();
        let mut args = vec!["-v", "verbs", "add"];
        args.extend(files.iter().map(|f| f.to_str().expect("utf-8 path")));
        let said = scratch.devtools(&args);
        said.assert_code(0);
        let mut snapshot = Snapshot::new();
        for dir in [verb_dir(&scratch), cache_dir(&scratch)] {
            take(&scratch, &dir, &mut snapshot);
        }
        Installed { said, snapshot }
    })
}

/// What the one `mur devtools -v verbs add` of the standard set said (exit code,
/// stdout, stderr with its `DEBUG` lines), in a fresh sandbox.
pub fn standard_add_output() -> &'static Output {
    &installed().said
}

/// Installs the 19 standard verbs into `sandbox`, compiled code included.
///
/// `verbs add` compiles every component (about 10 s for the set in a debug
/// build), so that is done once per test process, in a scratch sandbox; later
/// sandboxes get a copy of its verb directory and compile cache, modification
/// times kept so that `mur` takes the copies for the files it indexed and
/// serves calls from the cache.
pub fn install_standard(sandbox: &Sandbox) {
    let snapshot = &installed().snapshot;
    for dir in [verb_dir(sandbox), cache_dir(sandbox)] {
        private_dir(&dir);
    }
    for (relative, bytes, modified) in snapshot {
        let path = sandbox.root().join(relative);
        private_dir(path.parent().expect("inside the sandbox"));
        std::fs::write(&path, bytes).expect("copy installed file");
        let file = std::fs::File::options()
            .write(true)
            .open(&path)
            .expect("open copy");
        file.set_modified(*modified)
            .expect("keep the modification time");
    }
}

/// Every file below `dir` (the verb index is a directory of its own), into
/// `snapshot`, relative to the sandbox root.
fn take(sandbox: &Sandbox, dir: &Path, snapshot: &mut Snapshot) {
    for entry in std::fs::read_dir(dir).expect("installed verbs").flatten() {
        let path = entry.path();
        let meta = entry.metadata().expect("metadata");
        if meta.is_dir() {
            take(sandbox, &path, snapshot);
            continue;
        }
        let relative = path
            .strip_prefix(sandbox.root())
            .expect("inside the sandbox")
            .to_owned();
        let bytes = std::fs::read(&path).expect("read installed file");
        snapshot.push((relative, bytes, meta.modified().expect("mtime")));
    }
}

fn private_dir(dir: &Path) {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).expect("create verb directory");
}

/// The hint under the tool's answer when mur lowered `verb`'s declared wait (`timeoutMs`,
/// 5000 ms by default) to `to_ms`, so the call ends within the host's `--timeout` of
/// `bound_ms`, and the tool then gave up: its answer names a wait nobody typed.
pub fn lowered_wait_hint(verb: &str, to_ms: u64, bound_ms: u64) -> String {
    format!(
        "hint: `{verb}`'s timeout was lowered from 5000 ms to {to_ms} ms, to end within the \
         call's `--timeout` of {bound_ms} ms; `--timeout MS` after `{verb}` waits that long\n"
    )
}
