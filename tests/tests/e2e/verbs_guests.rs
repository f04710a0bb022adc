//! Guard: every test guest in tests/guests is used by some verbs test, so a
//! hostile behaviour cannot be added without the test that proves it contained.

use mur_e2e::plugins::repo_root;

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
