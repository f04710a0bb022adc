//! `mur devtools verbs new`: a scaffolded verb builds outside this repository,
//! installs with `verbs add`, and works against a real `mur-sample`.

use std::path::{Path, PathBuf};
use std::process::Command;

use mur_e2e::Sandbox;
use mur_e2e::plugins::{self, repo_root};

/// Builds the crate at `dir` for wasm32-wasip2 and returns the component.
/// The target dir is shared under target/ so reruns are incremental.
fn build(dir: &Path, name: &str) -> PathBuf {
    plugins::standard_dir(); // installs the wasm32-wasip2 target when missing
    let target = repo_root().join("target/scaffolded-verbs");
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["build", "--release", "--target", "wasm32-wasip2"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .expect("run cargo build");
    assert!(
        status.success(),
        "the scaffolded crate does not build: {status}"
    );
    target.join(format!("wasm32-wasip2/release/mur_verb_{name}.wasm"))
}

fn count(sb: &Sandbox) -> String {
    let out = sb.call_tool("state", r##"{"selector": "#count"}"##);
    out.assert_code(0);
    let state = out.json();
    let text = state["structuredContent"]["text"]
        .as_str()
        .or_else(|| state["text"].as_str());
    text.unwrap_or_else(|| panic!("no count text in {state}"))
        .to_owned()
}

#[test]
fn a_scaffolded_verb_builds_installs_and_clicks() {
    let sb = Sandbox::new();
    let src = sb.root().join("src");
    let new = sb.mur(&[
        "devtools",
        "verbs",
        "new",
        "bump",
        "--dir",
        src.to_str().expect("utf-8 path"),
    ]);
    new.assert_code(0);
    let dir = PathBuf::from(new.stdout.trim());
    assert_eq!(
        dir,
        std::fs::canonicalize(src.join("bump")).expect("crate dir")
    );
    new.assert_stderr_contains("cargo build --release --target wasm32-wasip2");
    let lib = std::fs::read_to_string(dir.join("src/lib.rs")).expect("lib.rs");
    assert!(
        lib.lines().count() < 50,
        "lib.rs has {} lines",
        lib.lines().count()
    );

    let wasm = build(&dir, "bump");
    plugins::add(&sb, &[wasm]);
    let sample = sb.start_app();
    assert_eq!(count(&sb), "0");
    sb.mur(&["devtools", "bump"]).assert_code(0);
    sb.mur(&["devtools", "bump", "#btn-inc"]).assert_code(0);
    assert_eq!(count(&sb), "2");

    let usage = sb.mur(&["devtools", "bump", "#a", "#b"]);
    usage.assert_code(1);
    usage.assert_stderr_contains("unexpected argument `#b`");
    let failed = sb.mur(&["devtools", "bump", "#missing"]);
    failed.assert_code(5);
    drop(sample);
}

#[test]
fn verbs_new_refuses_bad_names_and_existing_directories() {
    let sb = Sandbox::new();
    let root = sb.root().to_str().expect("utf-8 path").to_owned();
    let bad = sb.mur(&["devtools", "verbs", "new", "Bad_Name", "--dir", &root]);
    bad.assert_code(1);
    bad.assert_stderr_starts_with("error: `Bad_Name` is not a verb name\nhint: ");
    std::fs::create_dir(sb.root().join("taken")).expect("dir");
    let taken = sb.mur(&["devtools", "verbs", "new", "taken", "--dir", &root]);
    taken.assert_code(1);
    assert!(
        taken.stderr.contains("already exists") && taken.stderr.contains("hint: "),
        "{taken}"
    );
}
