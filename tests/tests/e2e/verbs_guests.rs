//! Guard: every test guest in tests/guests is used by some verbs test, so a
//! hostile behaviour cannot be added without the test that proves it contained.
//! And what a verb that writes its file at `-` (the user's `--out -`, meant for stdout)
//! gets: told what `-` is, and what to do instead.

use mur_e2e::plugins::{guest, repo_root, sandbox_with};

/// What the user and the verb's author read when a verb writes a file named `-`.
const DASH_IS_STDOUT: &str = "asked to write a file named `-`, but `-` means stdout, which a \
     verb fills with what its `shape` returns, never as a file; refused";
const NAME_A_FILE: &str = "hint: this verb does not print the file on stdout: name a file to \
     write instead of `-` (to its author: return the bytes as `shape`'s stdout when the path \
     is `-`)\n";

/// `--out -` to a verb that declares `-` a file to write: refused before the call, saying
/// `-` is stdout; one that writes `-` after its call (a 0.1 verb, or one of a kit, which
/// leaves `-` out of what it declares) is refused then, its result printed as it came.
#[test]
fn a_file_named_dash_is_refused_saying_it_means_stdout() {
    let sandbox = sandbox_with(&[guest("forger"), guest("scribble")]);
    let before = sandbox.devtools(&["forger", "--out", "-"]);
    before
        .assert_code(6)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: verb `forger` {DASH_IS_STDOUT} before the call (nothing was sent)\n{NAME_A_FILE}"
        ));
    let _app = sandbox.start_app();
    let after = sandbox.devtools(&["scribble", "-"]);
    after.assert_code(6).assert_stderr_is(format!(
        "error: verb `scribble` {DASH_IS_STDOUT}\n{NAME_A_FILE}\
         hint: the `version` call itself already ran; its result is printed as it is\n"
    ));
    assert!(after.json()["content"].is_array(), "{after}");
    assert!(!sandbox.root().join("-").exists());
}

#[test]
fn every_test_guest_has_a_test() {
    let manifest = std::fs::read_to_string(repo_root().join("tests/guests/Cargo.toml"))
        .expect("guests manifest");
    let members = manifest
        .lines()
        .find(|l| l.starts_with("members"))
        .expect("a members line");
    let names: Vec<&str> = members.split('"').skip(1).step_by(2).collect();
    assert!(names.len() >= 8, "members parsed: {names:?}");

    let mut tests = String::new();
    for entry in std::fs::read_dir(repo_root().join("tests/tests/e2e"))
        .expect("tests dir")
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("verbs_") && name != "verbs_guests.rs" {
            tests.push_str(&std::fs::read_to_string(entry.path()).expect("test source"));
        }
    }
    let untested: Vec<&&str> = names
        .iter()
        .filter(|n| !tests.contains(&format!("\"{n}\"")))
        .collect();
    assert!(
        untested.is_empty(),
        "test guests with no test: {untested:?}"
    );
}
