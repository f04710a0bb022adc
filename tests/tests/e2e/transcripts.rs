//! What a user sees, checked whole, and every example a user is shown, run.
//!
//! **Transcripts.** Every `--help` a user can ask for (found by walking the
//! `Commands:` and `Installed verbs` sections of the real help, from `mur --help`
//! down, with the 19 standard verbs installed; plus `mur devtools --help`
//! before any verb is) and each row of the README's exit-code table (0–7) is
//! rendered as a transcript — `$ command`, `--- exit N`, the whole stdout, the
//! whole stderr — and compared with its snapshot in `tests/snapshots/transcripts/`
//! by `insta`. Before comparing, the sandbox path becomes `[SANDBOX]`, session
//! and stub ports `[PORT]`, session pids `[PID]`, RFC 3339 times `[TIMESTAMP]`;
//! `COLUMNS=100` and `NO_COLOR=1` fix clap's layout.
//!
//! Re-bless after an intended change (help text, message, new command):
//!
//! ```text
//! INSTA_UPDATE=always cargo test -p mur-e2e --test e2e transcripts::   # rewrites the .snap files
//! git diff tests/snapshots/                                             # review, then commit them
//! ```
//!
//! or, with `cargo-insta` installed, `cargo insta test -p mur-e2e --test e2e
//! --review -- transcripts::`. Plain `cargo test` needs no `cargo-insta`: a mismatch
//! fails and leaves `<name>.snap.new` beside the snapshot (under `CI=true` it
//! writes nothing and fails, also for a missing snapshot). A help snapshot that
//! no command produces any more fails too: delete it.
//!
//! **Examples.** Every example in every `--help` (the host's `Examples:`
//! sections, each verb's `Example:` line — read from the real help output, so a
//! new one is picked up) runs with `bash -eo pipefail -c`, `mur` first on PATH,
//! in a fresh sandbox with the standard verbs and a fresh `mur-sample` session
//! whose project is the current directory, and must exit 0 (or the code a
//! trailing `# exit N` names). [`HELP_SETUP`] lists the examples that need a
//! state first, and why. Every ```sh block of `README.md` and of `docs/*.md`
//! (but `docs/agents.md`, which `guide_examples.rs` runs) runs the same way, in
//! order, one session per file; a block that is not meant to run against the
//! sample is marked by `<!-- not run: reason -->` on the line before its fence,
//! and shell-like fences other than ```sh are refused rather than skipped.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use mur_e2e::plugins::{self, repo_root};
use mur_e2e::{Output, Sample, Sandbox, Stub, refusing_port};

// ---------------------------------------------------------------------------
// Running and rendering
// ---------------------------------------------------------------------------

/// `mur` with these arguments in the sandbox, with a fixed layout.
fn mur(sb: &Sandbox, args: &[&str]) -> Output {
    let mut cmd = sb.mur_command(args);
    cmd.env("COLUMNS", "100").env("NO_COLOR", "1");
    output(cmd)
}

fn output(mut cmd: Command) -> Output {
    mur_e2e::run(&mut cmd)
}

/// One command and what it did, as a transcript section.
fn section(program: &str, args: &[&str], out: &Output) -> String {
    let mut text = format!("$ {program}");
    for arg in args {
        text.push(' ');
        text.push_str(&mur_core::shell_word(arg));
    }
    text.push_str(&format!("\n--- exit {}\n", out.code));
    for (name, stream) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        text.push_str(&format!("--- {name}\n{stream}"));
        if !stream.is_empty() && !stream.ends_with('\n') {
            text.push_str("\n[no newline at end]\n");
        }
    }
    text
}

/// A transcript of several commands, built up as they run.
#[derive(Default)]
struct Transcript {
    sections: Vec<String>,
}

impl Transcript {
    /// Runs `mur args…`, records it and returns its output.
    fn mur(&mut self, sb: &Sandbox, args: &[&str]) -> Output {
        let out = mur(sb, args);
        self.record("mur", args, &out);
        out
    }

    fn record(&mut self, program: &str, args: &[&str], out: &Output) {
        self.sections.push(section(program, args, out));
    }

    fn text(&self) -> String {
        self.sections.join("\n")
    }

    /// Compares the whole transcript, redacted, with the snapshot `name`.
    #[track_caller]
    fn assert_matches(&self, name: &str, redactions: &Redactions) {
        assert_transcript(name, &self.text(), redactions);
    }
}

/// What the snapshots must not depend on: regular expression → placeholder.
struct Redactions(Vec<(String, String)>);

impl Redactions {
    fn new(sb: &Sandbox) -> Self {
        let mut this = Self(Vec::new());
        // The canonical path first: it may be longer (macOS's /private/var).
        let root = sb.root().to_owned();
        if let Ok(canonical) = root.canonicalize() {
            this.literal(&canonical.to_string_lossy(), "[SANDBOX]");
        }
        this.literal(&root.to_string_lossy(), "[SANDBOX]");
        this.0.push((
            r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})".into(),
            "[TIMESTAMP]".into(),
        ));
        this
    }

    fn literal(&mut self, text: &str, placeholder: &str) {
        let escaped: String = text
            .chars()
            .flat_map(|c| {
                let meta = r"\.+*?()|[]{}^$#&-~".contains(c);
                meta.then_some('\\').into_iter().chain([c])
            })
            .collect();
        self.0.push((escaped, placeholder.into()));
    }

    fn number(mut self, n: impl std::fmt::Display, placeholder: &str) -> Self {
        self.0.push((format!(r"\b{n}\b"), placeholder.into()));
        self
    }

    /// A session's port and pid, where they are named as such (`:PORT/`,
    /// `"port":PORT`, `pid PID`, `"pid":PID`): a bare number may be anything
    /// (a pid of 320 turned `"width":320` into `"width":[PID]`).
    fn session(mut self, sample: &Sample) -> Self {
        let (port, pid) = (sample.lock.port, sample.pid());
        for (regex, placeholder) in [
            (format!(r#"(:|"port":){port}\b"#), "${1}[PORT]"),
            (format!(r#"(pid |"pid":){pid}\b"#), "${1}[PID]"),
        ] {
            self.0.push((regex, placeholder.into()));
        }
        self
    }
}

fn snapshot_settings(redactions: &Redactions) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    // An absolute path, so the snapshots stay put when this file moves.
    settings.set_snapshot_path(snapshot_dir());
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    for (regex, placeholder) in &redactions.0 {
        settings.add_filter(regex, placeholder.as_str());
    }
    settings
}

fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots/transcripts")
}

/// Compares `text`, redacted, with the snapshot `name`.
#[track_caller]
fn assert_transcript(name: &str, text: &str, redactions: &Redactions) {
    snapshot_settings(redactions).bind(|| insta::assert_snapshot!(name, text));
}

// ---------------------------------------------------------------------------
// The help tree
// ---------------------------------------------------------------------------

/// The lines of the section that starts with a line starting with `title`:
/// the indented lines after it, up to a blank or unindented line.
fn section_lines(help: &str, title: impl Fn(&str) -> bool) -> Vec<&str> {
    let mut found = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if inside {
            match line.strip_prefix("  ") {
                Some(rest) if !rest.trim().is_empty() => {
                    found.push(rest.trim());
                    continue;
                }
                _ => inside = false,
            }
        }
        if title(line) {
            inside = true;
        }
    }
    found
}

/// The subcommands a help text lists: clap's `Commands:` and mur's `Installed verbs`.
fn subcommands(help: &str) -> Vec<String> {
    section_lines(help, |l| {
        l == "Commands:" || l.starts_with("Installed verbs")
    })
    .into_iter()
    .filter_map(|l| l.split_whitespace().next())
    .map(str::to_owned)
    .collect()
}

/// The examples a help text shows (`Examples:` of the host, `Example:` of a verb).
fn help_examples(help: &str) -> Vec<String> {
    section_lines(help, |l| l == "Examples:" || l == "Example:")
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// Every command path a user can ask `--help` of (`[]` is `mur` itself), with
/// that help's output, found from `mur --help` down.
fn help_tree(sb: &Sandbox) -> Vec<(Vec<String>, Output)> {
    let mut tree = Vec::new();
    let mut todo = vec![Vec::<String>::new()];
    while let Some(path) = todo.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let out = mur(sb, &args);
        for child in subcommands(&out.stdout).into_iter().rev() {
            let mut child_path = path.clone();
            child_path.push(child);
            todo.push(child_path);
        }
        tree.push((path, out));
    }
    tree.sort_by(|a, b| a.0.cmp(&b.0));
    tree
}

fn help_name(path: &[String]) -> String {
    let mut name = String::from("help__mur");
    for word in path {
        name.push('_');
        name.push_str(word);
    }
    name
}

#[test]
fn every_help_matches_its_snapshot_whole() {
    let sb = plugins::standard_sandbox();
    let tree = help_tree(&sb);
    let paths: BTreeSet<String> = tree.iter().map(|(p, _)| p.join(" ")).collect();
    let verbs = plugins::STANDARD_VERBS;
    let host = [
        "",
        "devtools",
        "devtools session",
        "devtools session list",
        "devtools session clean",
        "devtools call",
        "devtools verbs",
        "devtools verbs list",
        "devtools verbs add",
        "devtools verbs remove",
        "devtools verbs info",
        "devtools verbs new",
        "devtools guide",
        "completions",
        "help",
    ];
    let expected: Vec<String> = host
        .iter()
        .map(|p| (*p).to_owned())
        .chain(verbs.iter().map(|v| format!("devtools {v}")))
        .collect();
    let missing: Vec<&String> = expected.iter().filter(|p| !paths.contains(*p)).collect();
    assert!(
        missing.is_empty(),
        "the help walk did not reach {missing:?}; it found {paths:?}"
    );

    let redactions = Redactions::new(&sb);
    let mut checks: Vec<(String, String)> = tree
        .iter()
        .map(|(path, out)| {
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.push("--help");
            (help_name(path), section("mur", &args, out))
        })
        .collect();
    // What a user sees before installing any verb.
    let bare = Sandbox::new();
    let bare_out = mur(&bare, &["devtools", "--help"]);
    checks.push((
        "help__mur_devtools__no_verbs".into(),
        section("mur", &["devtools", "--help"], &bare_out),
    ));
    // The sample app's own: what a tour reader or a test author starts it with.
    let mut sample = bare.command(&bare.artifacts().sample);
    sample
        .arg("--help")
        .env("COLUMNS", "100")
        .env("NO_COLOR", "1");
    checks.push((
        "help__mur_sample".into(),
        section("mur-sample", &["--help"], &output(sample)),
    ));

    // Every snapshot is compared (and a `.snap.new` written for each
    // mismatch) before the test fails, so one run shows every change.
    let mut failed = Vec::new();
    for (name, text) in &checks {
        if catch_unwind(AssertUnwindSafe(|| {
            assert_transcript(name, text, &redactions)
        }))
        .is_err()
        {
            failed.push(name.clone());
        }
    }
    let names: BTreeSet<&str> = checks.iter().map(|(n, _)| n.as_str()).collect();
    let orphans: Vec<String> = std::fs::read_dir(snapshot_dir())
        .map(|dir| {
            dir.flatten()
                .filter_map(|e| e.file_name().to_str().map(str::to_owned))
                .filter_map(|f| f.strip_suffix(".snap").map(str::to_owned))
                .filter(|n| n.starts_with("help__") && !names.contains(n.as_str()))
                .collect()
        })
        .unwrap_or_default();
    assert!(
        failed.is_empty(),
        "{} help transcript(s) differ from their snapshots: {failed:?}",
        failed.len()
    );
    assert!(
        orphans.is_empty(),
        "snapshots of help no command prints any more (delete them): {orphans:?}"
    );
}

// ---------------------------------------------------------------------------
// One transcript per row of the README's exit-code table
// ---------------------------------------------------------------------------

/// Standard verbs and one session, for `<sandbox>/app/App.csproj`.
fn with_session() -> (Sandbox, Sample) {
    let sb = plugins::standard_sandbox();
    let sample = sb.start_app();
    (sb, sample)
}

#[test]
fn exit_0_success() {
    let (sb, sample) = with_session();
    let mut t = Transcript::default();
    t.mur(&sb, &["devtools", "click", "#btn-inc"])
        .assert_code(0);
    t.mur(&sb, &["devtools", "state", "--selector", "#count"])
        .assert_code(0);
    t.mur(&sb, &["devtools", "call", "ping"]).assert_code(0);
    t.mur(&sb, &["devtools", "session", "list"]).assert_code(0);
    t.mur(&sb, &["--version"]).assert_code(0);
    t.assert_matches("exit_0_success", &Redactions::new(&sb).session(&sample));
}

#[test]
fn exit_1_usage() {
    let sb = plugins::standard_sandbox();
    let a = sb.start_sample(&sb.project("a"));
    let b = sb.start_sample(&sb.project("b"));
    let mut t = Transcript::default();
    for args in [
        &["devtools", "click"][..],
        &["devtools", "click", "#btn-inc", "--bogus"],
        &["devtools", "nosuchverb"],
        &["devtools", "--bogus", "call", "ping"],
        &["devtools", "call", "state", "--args", "{"],
        &[
            "devtools",
            "--endpoint",
            "http://example.com/mcp",
            "call",
            "ping",
        ],
        &[],
    ] {
        t.mur(&sb, args).assert_code(1);
    }
    // Several live sessions: the candidates come in the order of their
    // lockfiles' names (hashes of the sandbox paths), which is no contract:
    // sort them by project.
    let mut several = mur(&sb, &["devtools", "state", "--selector", "#count"]);
    several.assert_code(1);
    let (mut listed, rest): (Vec<&str>, Vec<&str>) =
        several.stderr.lines().partition(|l| l.starts_with("  "));
    listed.sort_unstable();
    let mut lines = rest.clone();
    lines.splice(1..1, listed);
    several.stderr = lines.join("\n") + "\n";
    t.record(
        "mur",
        &["devtools", "state", "--selector", "#count"],
        &several,
    );
    t.assert_matches(
        "exit_1_usage",
        &Redactions::new(&sb).session(&a).session(&b),
    );
}

#[test]
fn exit_2_transport() {
    let sb = Sandbox::new();
    // Held for the whole test: a port only freed was once handed to the hang-up stub.
    let (_closed_socket, closed) = refusing_port();
    let web = Stub::plain_http();
    let hang_up = Stub::hang_up();
    let mut t = Transcript::default();
    for endpoint in [
        format!("http://127.0.0.1:{closed}/mcp"),
        web.endpoint(),
        hang_up.endpoint(),
    ] {
        t.mur(&sb, &["devtools", "--endpoint", &endpoint, "call", "ping"])
            .assert_code(2);
    }
    let redactions = Redactions::new(&sb)
        .number(closed, "[PORT]")
        .number(web.port(), "[PORT]")
        .number(hang_up.port(), "[PORT]");
    t.assert_matches("exit_2_transport", &redactions);
}

#[test]
fn exit_3_second_session() {
    let (sb, first) = Sandbox::with_app();
    let args = ["--project", first.project.to_str().expect("utf-8 path")];
    let out = sb.run_sample(&args);
    out.assert_code(3);
    let mut t = Transcript::default();
    t.record("mur-sample", &args, &out);
    t.assert_matches(
        "exit_3_second_session",
        &Redactions::new(&sb).session(&first),
    );
}

#[test]
fn exit_4_no_session() {
    let sb = plugins::standard_sandbox();
    let mut t = Transcript::default();
    t.mur(&sb, &["devtools", "state"]).assert_code(4);
    t.mur(&sb, &["devtools", "session", "list"]).assert_code(4);
    t.assert_matches("exit_4_no_session", &Redactions::new(&sb));
}

#[test]
fn exit_5_tool_failed() {
    let (sb, sample) = with_session();
    let mut t = Transcript::default();
    t.mur(&sb, &["devtools", "click", "#nope"]).assert_code(5);
    t.mur(&sb, &["devtools", "focus", "#todo-input"])
        .assert_code(5);
    t.mur(&sb, &["devtools", "call", "nosuchtool"])
        .assert_code(5);
    t.assert_matches("exit_5_tool_failed", &Redactions::new(&sb).session(&sample));
}

#[test]
fn exit_6_verb_plugin_failed() {
    let sb = Sandbox::new();
    let guests: Vec<PathBuf> = ["crash", "spin", "hog", "liar"]
        .iter()
        .map(|g| plugins::guest(g))
        .collect();
    plugins::add(&sb, &guests);
    let mut t = Transcript::default();
    for args in [
        &["devtools", "crash"][..],
        &["devtools", "spin"],
        &["devtools", "hog"],
        &["devtools", "liar", "text"],
    ] {
        t.mur(&sb, args).assert_code(6);
    }
    t.assert_matches("exit_6_verb_plugin_failed", &Redactions::new(&sb));
}

#[test]
fn exit_7_mur_itself_failed() {
    let (sb, sample) = with_session();
    // A full device: the write fails once the screenshot is taken (a directory that is
    // not there, or a file that may not be written, is known before the call, exit 1).
    let mut t = Transcript::default();
    t.mur(&sb, &["devtools", "screenshot", "--out", "/dev/full"])
        .assert_code(7);
    t.assert_matches(
        "exit_7_mur_itself_failed",
        &Redactions::new(&sb).session(&sample),
    );
}

// ---------------------------------------------------------------------------
// Every example runs
// ---------------------------------------------------------------------------

/// What an example needs before (or after) it runs.
enum Need {
    /// These commands first, in the example's directory; each must exit 0.
    First(&'static [&'static str]),
    /// Runs from the repository root (after `plugins/build.sh`), in a sandbox
    /// with no verb installed yet.
    CheckoutWithoutVerbs,
    /// Runs inside a scaffolded `bump` crate after its `cargo build`.
    InBuiltBumpCrate,
    /// The `bump` verb is installed.
    BumpInstalled,
    /// These commands afterwards, in the example's directory, whatever the
    /// example did (it leaves something running, such as a bridge).
    Then(&'static [&'static str]),
}

/// Help examples that do not run as they are against a fresh `mur-sample`
/// (which shows its `counter` page): the examples that need one thing, what
/// they need and why.
const HELP_SETUP: &[(&[&str], Need, &str)] = &[
    (
        &[
            "mur devtools type '#todo-input' 'buy milk' --clear",
            "mur devtools focus '#todo-input'",
        ],
        Need::First(&["mur devtools switch todo"]),
        "the todo input is on the `todo` page",
    ),
    (
        &["mur devtools invoke '#todo-add'"],
        Need::First(&[
            "mur devtools switch todo",
            "mur devtools type '#todo-input' 'buy milk'",
        ]),
        "the add button is on the `todo` page, enabled once there is text to add",
    ),
    (
        &["mur devtools wait '#todo-list > ListItem' --text 'buy milk' --timeout 5000"],
        Need::First(&[
            "mur devtools switch todo",
            "mur devtools type '#todo-input' 'buy milk'",
            "mur devtools invoke '#todo-add'",
        ]),
        "it waits for the item that adding a todo shows ~200 ms later (the guide's recipe)",
    ),
    (
        &[
            "mur devtools toggle '#dark-mode'",
            "mur devtools expand '#advanced'",
            "mur devtools collapse '#advanced'",
            "mur devtools select '#theme' '#theme-forest'",
            "mur devtools scroll '#log' --by 0,-120",
        ],
        Need::First(&["mur devtools switch settings"]),
        "the switch, the expander, the theme list and the log are on the `settings` page",
    ),
    (
        &["mur devtools verbs add plugins/target/wasm32-unknown-unknown/release/mur_verb_*.wasm"],
        Need::CheckoutWithoutVerbs,
        "the path is relative to a checkout of mur where plugins/build.sh has run",
    ),
    (
        &["mur devtools verbs add target/wasm32-wasip2/release/mur_verb_bump.wasm"],
        Need::InBuiltBumpCrate,
        "the next step `verbs new bump` prints, run in the crate after its `cargo build`",
    ),
    (
        &["mur devtools verbs remove bump"],
        Need::BumpInstalled,
        "removes the verb `verbs new bump` scaffolds, so that one is installed first",
    ),
    (
        &[
            START_BRIDGE,
            "mur devtools --project ./Tools.csproj call tools/list",
        ],
        Need::Then(&[STOP_BRIDGE]),
        "the bridge runs in the background until it is stopped",
    ),
    (
        &[
            "mur devtools --project ./Tools.csproj call tools/list",
            STOP_BRIDGE,
        ],
        Need::First(&[START_BRIDGE]),
        "they call or stop the bridge started first",
    ),
];

/// A bridge to the sample's own stdio mode, as `mur devtools bridge --help` shows it.
const START_BRIDGE: &str =
    "mur devtools bridge --project ./Tools.csproj -- mur-sample --stdio --project ./Stdio.csproj";
const STOP_BRIDGE: &str = "mur devtools bridge stop --project ./Tools.csproj";

/// The exit code a trailing `# exit N` comment names (else 0).
fn expected_exit(script: &str) -> i32 {
    script
        .lines()
        .filter_map(|l| l.split_once("# exit ").map(|(_, code)| code))
        .map(|code| {
            let digits: String = code.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().expect("`# exit N` names a number")
        })
        .next_back()
        .unwrap_or(0)
}

/// Where a sandboxed shell finds the Rust toolchain (its HOME is the
/// sandbox's), and the verb builds' intermediate directory (as scaffold.rs
/// builds with), so the template's dependencies are the ones the standard verbs
/// already compiled while its own `target/` stays where the docs say it is;
/// offline, as scaffold.rs builds: the crates are in the local cache by then.
fn toolchain_env() -> Vec<(&'static str, OsString)> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut env = Vec::new();
    for (name, default) in [("CARGO_HOME", ".cargo"), ("RUSTUP_HOME", ".rustup")] {
        let value =
            std::env::var_os(name).or_else(|| home.as_ref().map(|h| h.join(default).into()));
        env.extend(value.map(|v| (name, v)));
    }
    env.extend(std::env::var_os("RUSTUP_TOOLCHAIN").map(|v| ("RUSTUP_TOOLCHAIN", v)));
    env.push(("CARGO_BUILD_BUILD_DIR", plugins::verb_build_dir().into()));
    env.push(("CARGO_NET_OFFLINE", "true".into()));
    env
}

/// Runs `script` with `bash -eo pipefail` in `dir`, as a user of the sandbox.
fn bash(sb: &Sandbox, dir: &Path, script: &str) -> Output {
    let mut cmd = sb.shell_command(script);
    cmd.envs(toolchain_env()).current_dir(dir);
    output(cmd)
}

/// The tools the examples compose with.
fn require_tools() {
    for tool in ["jq", "curl", "less"] {
        let found = Command::new(tool)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        assert!(
            found.is_ok_and(|s| s.success()),
            "the examples use `{tool}`: install it (apt-get install {tool})"
        );
    }
}

/// Directories the completion examples write into; every user who has the
/// shell has them, a fresh sandbox's HOME does not.
fn completion_dirs(sb: &Sandbox) {
    for dir in [
        ".local/share/bash-completion/completions",
        ".zfunc",
        ".config/fish/completions",
    ] {
        std::fs::create_dir_all(sb.root().join("home").join(dir)).expect("completion dir");
    }
}

/// A `bump` crate scaffolded by `verbs new` into `sb` and built; its directory.
/// In the sandbox, not a fixed directory of the checkout: two test processes
/// at once (two checkouts' runs, a rerun beside a run) each build their own
/// (the shared intermediate directory keeps that to the crate itself).
fn bump_crate(sb: &Sandbox) -> PathBuf {
    // The standard verbs' build fills the crate cache the offline build reads.
    plugins::standard_dir();
    plugins::add_guest_target();
    let parent = sb.dir("src");
    let parent_arg = parent.to_str().expect("utf-8 path");
    mur(
        sb,
        &["devtools", "verbs", "new", "bump", "--dir", parent_arg],
    )
    .assert_code(0);
    let dir = parent.join("bump");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .args(["build", "--release", "--target", "wasm32-wasip2"])
        .env_remove("CARGO_TARGET_DIR")
        .envs(toolchain_env());
    // As the scaffold tests build theirs: within their bound, failing with the output.
    mur_e2e::run_ok(&dir, &mut build);
    dir
}

/// The component [`bump_crate`] built in `dir`.
fn bump_component(dir: &Path) -> PathBuf {
    dir.join("target/wasm32-wasip2/release/mur_verb_bump.wasm")
}

/// Runs one help example as its setup says; `Err` describes a failure.
fn run_help_example(example: &str, needs: &[&Need], bump: &Path) -> Result<(), String> {
    let checkout = needs
        .iter()
        .any(|n| matches!(n, Need::CheckoutWithoutVerbs));
    let sb = if checkout {
        Sandbox::new()
    } else {
        plugins::standard_sandbox()
    };
    completion_dirs(&sb);
    let project = sb.project("app");
    let _sample = sb.start_sample(&project);
    let mut dir = project.parent().expect("project dir").to_owned();
    for need in needs {
        match need {
            Need::First(commands) => {
                for command in *commands {
                    let out = bash(&sb, &dir, command);
                    if out.code != 0 {
                        return Err(format!("setup `{command}` failed\n{out}"));
                    }
                }
            }
            Need::CheckoutWithoutVerbs => dir = repo_root(),
            Need::InBuiltBumpCrate => dir = bump.to_owned(),
            Need::BumpInstalled => {
                plugins::add(&sb, &[bump_component(bump)]);
            }
            Need::Then(_) => {}
        }
    }
    let out = bash(&sb, &dir, example);
    for need in needs {
        if let Need::Then(commands) = need {
            for command in *commands {
                let after = bash(&sb, &dir, command);
                if after.code != 0 {
                    return Err(format!("`{command}` after the example failed\n{after}"));
                }
            }
        }
    }
    let expected = expected_exit(example);
    if out.code == expected {
        Ok(())
    } else {
        Err(format!("expected exit {expected}\n{out}"))
    }
}

#[test]
fn every_help_example_runs_against_the_sample() {
    require_tools();
    let sb = plugins::standard_sandbox();
    let bump = bump_crate(&sb);
    // Each distinct example once, with the first help that shows it.
    let mut examples: BTreeMap<String, String> = BTreeMap::new();
    for (path, out) in help_tree(&sb) {
        for example in help_examples(&out.stdout) {
            examples
                .entry(example)
                .or_insert_with(|| format!("mur {} --help", path.join(" ")).replace("  ", " "));
        }
    }
    assert!(
        examples.len() >= 40,
        "only {} examples: {examples:?}",
        examples.len()
    );

    let mut used = BTreeSet::new();
    let mut failures = Vec::new();
    for (example, source) in &examples {
        assert!(
            example.starts_with("mur "),
            "{source}: `{example}` is not a mur command"
        );
        let needs: Vec<&Need> = HELP_SETUP
            .iter()
            .filter_map(|(examples, need, _)| {
                let listed = examples.iter().find(|e| **e == example.as_str())?;
                used.insert(*listed);
                Some(need)
            })
            .collect();
        eprintln!("{source}: {example}");
        if let Err(failure) = run_help_example(example, &needs, &bump) {
            failures.push(format!("{source}: `{example}`: {failure}"));
        }
    }
    let stale: Vec<&str> = HELP_SETUP
        .iter()
        .flat_map(|(examples, _, _)| examples.iter().copied())
        .filter(|e| !used.contains(e))
        .collect();
    assert!(
        failures.is_empty(),
        "{} example(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        stale.is_empty(),
        "HELP_SETUP names examples no help shows: {stale:?}"
    );
}

// ---------------------------------------------------------------------------
// Every example in the docs runs
// ---------------------------------------------------------------------------

/// One fenced block of a markdown file.
#[derive(Debug)]
pub(crate) struct Block {
    /// 1-based line of the opening fence.
    line: usize,
    /// The info string: `sh`, `rust`, …
    pub(crate) lang: String,
    pub(crate) script: String,
    /// The reason of a `<!-- not run: reason -->` just before the fence.
    not_run: Option<String>,
}

/// Every fenced block (fences may be indented, as inside a list item).
pub(crate) fn fenced_blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<(Block, usize)> = None;
    let mut previous = "";
    for (index, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match open.take() {
            None => {
                if let Some(lang) = trimmed.strip_prefix("```") {
                    let not_run = previous
                        .trim()
                        .strip_prefix("<!-- not run:")
                        .and_then(|r| r.strip_suffix("-->"))
                        .map(|r| r.trim().to_owned());
                    let block = Block {
                        line: index + 1,
                        lang: lang.trim().to_owned(),
                        script: String::new(),
                        not_run,
                    };
                    open = Some((block, indent));
                }
            }
            Some((block, _)) if trimmed.trim_end() == "```" => blocks.push(block),
            Some((mut block, fence_indent)) => {
                let cut = line.len() - line.trim_start().len();
                block.script.push_str(&line[cut.min(fence_indent)..]);
                block.script.push('\n');
                open = Some((block, fence_indent));
            }
        }
        if !line.trim().is_empty() {
            previous = line;
        }
    }
    assert!(open.is_none(), "an unclosed fence");
    blocks
}

/// Doc blocks that need a state first: (file, a line of the block, commands, why).
/// `{repo}` in a command stands for this checkout of mur.
const DOC_SETUP: &[(&str, &str, &[&str], &str)] = &[
    (
        "docs/verbs.md",
        "mur devtools verbs add --force bump.wasm",
        &["cp ~/src/bump/target/wasm32-wasip2/release/mur_verb_bump.wasm bump.wasm"],
        "`bump.wasm` is the verb built from the template earlier on the page (in ~/src/bump)",
    ),
    (
        "docs/verbs.md",
        "mur devtools verbs add docs/examples/count.json",
        &["mkdir -p docs/examples && cp {repo}/docs/examples/count.json docs/examples/"],
        "the path is relative to a checkout of mur",
    ),
    (
        "docs/usage.md",
        "--server-log ~/.cache/myapp/usage.jsonl",
        &["mkdir -p ~/.cache/myapp && : > ~/.cache/myapp/usage.jsonl"],
        "the session's log is wherever its app keeps it; an empty one reads as no calls",
    ),
];

/// Runs the ```sh blocks of one markdown file in order, against one session.
fn run_doc(file: &str) -> Vec<String> {
    let markdown = std::fs::read_to_string(repo_root().join(file)).expect("read doc");
    let sb = plugins::standard_sandbox();
    completion_dirs(&sb);
    let project = sb.project("work");
    let _sample = sb.start_sample(&project);
    let dir = project.parent().expect("project dir").to_owned();
    let mut failures = Vec::new();
    for block in fenced_blocks(&markdown) {
        let at = format!("{file}:{}", block.line);
        match (block.lang.as_str(), &block.not_run) {
            ("sh", Some(reason)) => {
                assert!(!reason.is_empty(), "{at}: `not run` needs a reason");
                eprintln!("{at}: not run: {reason}");
                continue;
            }
            ("sh", None) => {}
            ("" | "bash" | "shell" | "console" | "zsh" | "shell-session", _) => {
                failures.push(format!(
                    "{at}: a ```{} block: tag shell with ```sh (it then runs, or gets \
                     `<!-- not run: reason -->`), anything else with its language or `text`",
                    block.lang
                ));
                continue;
            }
            (_, _) => continue, // rust, toml, js, text, …: not shell
        }
        for (_, _, commands, _) in DOC_SETUP
            .iter()
            .filter(|(f, line, _, _)| *f == file && block.script.lines().any(|l| l.contains(line)))
        {
            for command in *commands {
                let command = command.replace("{repo}", &repo_root().to_string_lossy());
                let out = bash(&sb, &dir, &command);
                if out.code != 0 {
                    failures.push(format!("{at}: setup `{command}` failed\n{out}"));
                }
            }
        }
        eprintln!("{at}: runs");
        let out = bash(&sb, &dir, &block.script);
        let expected = expected_exit(&block.script);
        if out.code != expected {
            failures.push(format!(
                "{at}: expected exit {expected}\n{}\n{out}",
                block.script
            ));
        }
    }
    failures
}

#[test]
fn every_sh_block_of_the_readme_runs_against_the_sample() {
    require_tools();
    let failures = run_doc("README.md");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_sh_block_of_the_docs_runs_against_the_sample() {
    require_tools();
    plugins::standard_dir(); // fills the crate cache docs/verbs.md's offline build reads
    plugins::add_guest_target(); // the target docs/verbs.md builds for
    let mut files: Vec<String> = std::fs::read_dir(repo_root().join("docs"))
        .expect("docs/")
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|n| n.ends_with(".md") && n != "agents.md") // guide_examples.rs runs agents.md
        .map(|n| format!("docs/{n}"))
        .collect();
    files.sort();
    assert!(files.len() >= 2, "docs found: {files:?}");
    for (file, line, _, _) in DOC_SETUP {
        let text = std::fs::read_to_string(repo_root().join(file)).expect("doc");
        assert!(
            text.contains(line),
            "DOC_SETUP: {file} no longer shows `{line}`"
        );
    }
    let failures: Vec<String> = files.iter().flat_map(|f| run_doc(f)).collect();
    assert!(
        failures.is_empty(),
        "{} doc example(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_readers_find_sections_and_blocks() {
    let help = "Usage: x\n\nCommands:\n  a  does a\n  help  h\n\nInstalled verbs (x):\n  \
                b  does b [plugin]\n\nExamples:\n  mur a\n  mur b --c\n\nmore\n";
    assert_eq!(subcommands(help), ["a", "help", "b"]);
    assert_eq!(help_examples(help), ["mur a", "mur b --c"]);
    let markdown = "x\n```sh\na\n# exit 5\n```\n<!-- not run: because -->\n```sh\nb\n```\n\
                    - item\n\n  ```sh\n  c\n    d\n  ```\n```rust\nfn\n```\n";
    let blocks = fenced_blocks(markdown);
    let summary: Vec<(usize, &str, &str, Option<&str>)> = blocks
        .iter()
        .map(|b| {
            (
                b.line,
                b.lang.as_str(),
                b.script.as_str(),
                b.not_run.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (2, "sh", "a\n# exit 5\n", None),
            (7, "sh", "b\n", Some("because")),
            (12, "sh", "c\n  d\n", None),
            (16, "rust", "fn\n", None),
        ]
    );
    assert_eq!(expected_exit(&blocks[0].script), 5);
    assert_eq!(expected_exit("mur x"), 0);
}
