//! Managing verbs with `mur devtools verbs …`: a verb built by the tests is
//! added and works without rebuilding `mur`; removing a standard verb makes it
//! unknown at once; clashes and non-components are refused with a hint.

use mur_e2e::Sandbox;
use mur_e2e::plugins::{add, guest, standard, try_add, verb_dir};

fn path(p: &std::path::Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn an_added_verb_is_listed_in_help_and_works_against_a_session() {
    let sandbox = Sandbox::new();
    let out = add(&sandbox, &[guest("ping")]);
    assert_eq!(out.stdout, "added verb `ping` (tool `version`)\n");

    let list = sandbox.mur(&["devtools", "verbs", "list"]);
    list.assert_code(0);
    assert!(
        list.stdout
            .lines()
            .any(|l| l.starts_with("ping ") && l.contains("Answer pong")),
        "{list}"
    );
    let json = sandbox.mur(&["devtools", "verbs", "list", "--json"]);
    let verbs = json.json();
    assert_eq!(verbs[0]["name"], "ping");
    assert_eq!(verbs[0]["tool"], "version");
    assert_eq!(verbs[0]["sha256"].as_str().map(str::len), Some(64));

    let help = sandbox.mur(&["devtools", "--help"]);
    help.assert_code(0);
    assert!(
        help.stdout.contains("ping") && help.stdout.contains("[plugin]"),
        "{help}"
    );
    let usage = sandbox.mur(&["devtools", "ping", "--help"]);
    usage.assert_code(0);
    assert!(
        usage.stdout.starts_with("usage: mur devtools ping"),
        "{usage}"
    );

    let project = sandbox.project("app");
    let _sample = sandbox.start_sample(&project);
    let pong = sandbox.mur(&["devtools", "ping"]);
    pong.assert_code(0);
    let value = pong.json();
    assert_eq!(value["pong"], true, "{pong}");
    assert!(value["result"].is_object(), "{pong}");
}

#[test]
fn verbs_info_shows_tool_usage_file_hash_and_size() {
    let sandbox = Sandbox::new();
    add(&sandbox, &[guest("ping")]);
    let info = sandbox.mur(&["devtools", "verbs", "info", "ping", "--json"]);
    info.assert_code(0);
    let entry = info.json();
    let bytes = std::fs::read(guest("ping")).expect("ping.wasm");
    assert_eq!(entry["size"], bytes.len() as u64);
    assert_eq!(entry["file"], "ping.wasm");
    assert!(verb_dir(&sandbox).join("ping.wasm").exists());
    let text = sandbox.mur(&["devtools", "verbs", "info", "ping"]);
    assert!(text.stdout.contains("tool:    version"), "{text}");
    assert!(text.stdout.contains("usage: mur devtools ping"), "{text}");
}

#[test]
fn a_removed_verb_is_unknown_while_call_still_reaches_its_tool() {
    let sandbox = Sandbox::new();
    add(&sandbox, &[standard("click"), standard("state")]);
    let project = sandbox.project("app");
    let _sample = sandbox.start_sample(&project);
    sandbox
        .mur(&["devtools", "click", "#btn-inc"])
        .assert_code(0);

    let removed = sandbox.mur(&["devtools", "verbs", "remove", "click"]);
    removed.assert_code(0);
    assert_eq!(removed.stdout, "removed verb `click`\n");
    assert!(!verb_dir(&sandbox).join("click.wasm").exists());

    let unknown = sandbox.mur(&["devtools", "click", "#btn-inc"]);
    unknown.assert_code(1);
    assert!(
        unknown.stderr.starts_with("error: unknown verb `click`"),
        "{unknown}"
    );
    let help = sandbox.mur(&["devtools", "--help"]);
    assert!(
        !help
            .stdout
            .lines()
            .any(|l| l.trim_start().starts_with("click ")),
        "{help}"
    );
    sandbox
        .mur(&[
            "devtools",
            "call",
            "click",
            "--args",
            r##"{"selector":"#btn-inc"}"##,
        ])
        .assert_code(0);
}

#[test]
fn removing_a_verb_that_is_not_installed_says_how_to_see_them() {
    let sandbox = Sandbox::new();
    let out = sandbox.mur(&["devtools", "verbs", "remove", "nope"]);
    out.assert_code(1);
    assert_eq!(
        out.stderr,
        "error: no verb named `nope` is installed\nhint: `mur devtools verbs list` shows the installed verbs\n"
    );
}

#[test]
fn replacing_an_installed_verb_needs_force() {
    let sandbox = Sandbox::new();
    add(&sandbox, &[guest("ping")]);
    let again = try_add(&sandbox, &[guest("ping")], &[]);
    again.assert_code(0);
    assert_eq!(
        again.stdout,
        "verb `ping` is already installed (unchanged)\n"
    );

    let changed = sandbox.root().join("ping-v2.wasm");
    let bytes = std::fs::read(guest("ping")).expect("ping.wasm");
    std::fs::write(
        &changed,
        mur_e2e::plugins::with_custom_section(&bytes, "v2"),
    )
    .expect("write v2");
    let refused = try_add(&sandbox, &[changed.clone()], &[]);
    refused.assert_code(1);
    assert_eq!(
        refused.stderr,
        "error: verb `ping` is already installed from a different file\nhint: pass `--force` to replace it\n"
    );
    try_add(&sandbox, &[changed], &["--force"]).assert_code(0);
}

#[test]
fn files_that_are_not_verbs_are_refused_and_nothing_is_installed() {
    let sandbox = Sandbox::new();
    let junk = sandbox.root().join("junk.wasm");
    std::fs::write(&junk, b"\0asm this is not a component").expect("write junk");
    let out = try_add(&sandbox, &[guest("ping"), junk.clone()], &[]);
    out.assert_code(1);
    assert!(
        out.stderr
            .starts_with(&format!("error: `{}` is not a usable verb: ", path(&junk))),
        "{out}"
    );
    assert!(
        out.stderr
            .contains("\nhint: a verb is a WebAssembly component built against wit/verb.wit"),
        "{out}"
    );
    let list = sandbox.mur(&["devtools", "verbs", "list", "--json"]);
    assert_eq!(
        list.json(),
        serde_json::json!([]),
        "a refused batch installs nothing"
    );

    let missing = try_add(&sandbox, &[sandbox.root().join("missing.wasm")], &[]);
    missing.assert_code(1);
    assert!(
        missing.stderr.starts_with("error: could not read `"),
        "{missing}"
    );
}

#[test]
fn a_verb_named_like_a_host_verb_needs_force() {
    let sandbox = Sandbox::new();
    let refused = try_add(&sandbox, &[guest("impostor")], &[]);
    refused.assert_code(1);
    assert_eq!(
        refused.stderr,
        "error: verb `session` would hide the host's own `mur devtools session`\nhint: pass `--force` to install it anyway\n"
    );
    try_add(&sandbox, &[guest("impostor")], &["--force"]).assert_code(0);
}
