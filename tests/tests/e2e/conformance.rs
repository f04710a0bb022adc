//! The official MCP conformance suite's server scenarios against a real `mur-sample`.
//!
//! Starts `mur-sample --conformance-fixtures` in a private sandbox, runs
//! `@modelcontextprotocol/conformance server --requirements <revision>` (pinned in
//! `tests/conformance/package.json`, run with the local Node 22) for each revision in
//! `tests/conformance/expected.json`, and asserts that every scenario's verdict is the one
//! listed there — passing ones pass, failing ones (each with its written reason) still fail,
//! and no scenario is unlisted. The README table is generated from the same file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use mur_e2e::Sandbox;
use serde_json::Value;

use crate::node;

const BEGIN_MARKER: &str = "<!-- conformance:begin -->";
const END_MARKER: &str = "<!-- conformance:end -->";
/// Set to rewrite the generated README sections instead of checking them.
const BLESS_ENV: &str = "MUR_BLESS_CONFORMANCE_README";

/// `tests/conformance/expected.json`.
struct Expected {
    suite: String,
    revisions: Vec<Revision>,
}

struct Revision {
    /// The spec revision passed to `--requirements`.
    requirements: String,
    /// What that revision's wire looks like, for the README.
    wire: String,
    /// Scenario → note, for scenarios that must pass.
    pass: BTreeMap<String, String>,
    /// Scenario → the reason it fails.
    fail: BTreeMap<String, String>,
}

impl Expected {
    fn load() -> Self {
        let path = node::package_dir().join("expected.json");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        let json: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        let string = |value: &Value, key: &str| -> String {
            value[key]
                .as_str()
                .unwrap_or_else(|| panic!("expected.json: `{key}` must be a string"))
                .to_owned()
        };
        let notes = |value: &Value, key: &str| -> BTreeMap<String, String> {
            let Some(object) = value[key].as_object() else {
                panic!("expected.json: `{key}` must be an object")
            };
            object
                .iter()
                .map(|(name, note)| (name.clone(), note.as_str().unwrap_or_default().to_owned()))
                .collect()
        };
        let revisions = json["revisions"]
            .as_array()
            .expect("expected.json: `revisions` must be an array")
            .iter()
            .map(|revision| Revision {
                requirements: string(revision, "requirements"),
                wire: string(revision, "wire"),
                pass: notes(revision, "pass"),
                fail: notes(revision, "fail"),
            })
            .collect();
        Self {
            suite: string(&json, "suite"),
            revisions,
        }
    }
}

/// One scenario's outcome: the checks that failed (empty: it passed).
type Verdicts = BTreeMap<String, Vec<String>>;

/// Runs the suite's scenarios for one revision and reads each scenario's `checks.json`.
fn run_suite(endpoint: &str, requirements: &str, results: &Path) -> Verdicts {
    let tools = node::tools();
    let output = Command::new(&tools.node)
        .arg(&tools.conformance_cli)
        .args([
            "server",
            "--url",
            endpoint,
            "--requirements",
            requirements,
            "--output-dir",
        ])
        .arg(results)
        .stdin(Stdio::null())
        .output()
        .expect("run the conformance CLI");
    // Its exit status only says whether any required scenario failed; the
    // verdicts that matter are compared scenario by scenario below.
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let entries = std::fs::read_dir(results).unwrap_or_else(|e| {
        panic!("the conformance CLI wrote no results ({e}); its output:\n{log}")
    });
    let mut verdicts = Verdicts::new();
    for entry in entries {
        let dir = entry.expect("results entry").path();
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        let scenario =
            scenario_of(&name).unwrap_or_else(|| panic!("unexpected results directory `{name}`"));
        let checks = std::fs::read(dir.join("checks.json"))
            .unwrap_or_else(|e| panic!("{name}/checks.json: {e}"));
        let checks: Vec<Value> =
            serde_json::from_slice(&checks).unwrap_or_else(|e| panic!("{name}/checks.json: {e}"));
        let failures = checks
            .iter()
            .filter(|check| check["status"] == "FAILURE")
            .map(|check| {
                format!(
                    "{}: {}",
                    check["id"].as_str().unwrap_or("?"),
                    check["errorMessage"].as_str().unwrap_or("")
                )
            })
            .collect();
        assert!(
            verdicts.insert(scenario.to_owned(), failures).is_none(),
            "scenario `{scenario}` ran twice"
        );
    }
    assert!(
        !verdicts.is_empty(),
        "the conformance CLI ran no scenario; its output:\n{log}"
    );
    verdicts
}

/// `server-<scenario>-<ISO timestamp with - for : and .>` → `<scenario>`.
fn scenario_of(dir_name: &str) -> Option<&str> {
    const STAMP: usize = "-2026-01-01T00-00-00-000Z".len();
    let rest = dir_name.strip_prefix("server-")?;
    let split = rest.len().checked_sub(STAMP)?;
    let (scenario, stamp) = rest.split_at(split);
    let stamp = stamp.as_bytes();
    (stamp[0] == b'-' && stamp[11] == b'T' && stamp[STAMP - 1] == b'Z' && !scenario.is_empty())
        .then_some(scenario)
}

/// Every way the run differs from the expected list, one line each.
fn differences(revision: &Revision, verdicts: &Verdicts) -> Vec<String> {
    let label = &revision.requirements;
    let mut problems = Vec::new();
    for (scenario, failures) in verdicts {
        let expected_pass = revision.pass.contains_key(scenario);
        let expected_fail = revision.fail.contains_key(scenario);
        match (failures.is_empty(), expected_pass, expected_fail) {
            (_, false, false) => problems.push(format!(
                "[{label}] `{scenario}` ran but is not listed in expected.json (it {})",
                if failures.is_empty() { "passed".to_owned() } else { format!("failed: {}", failures.join("; ")) }
            )),
            (true, true, _) | (false, _, true) => {}
            (false, true, _) => {
                problems.push(format!("[{label}] `{scenario}` should pass but failed: {}", failures.join("; ")))
            }
            (true, false, true) => problems.push(format!(
                "[{label}] `{scenario}` is listed as failing (\"{}\") but passed: move it to `pass`",
                revision.fail[scenario]
            )),
        }
    }
    for scenario in revision.pass.keys().chain(revision.fail.keys()) {
        if !verdicts.contains_key(scenario) {
            problems.push(format!(
                "[{label}] `{scenario}` is listed in expected.json but the suite did not run it"
            ));
        }
    }
    for scenario in revision
        .pass
        .keys()
        .filter(|s| revision.fail.contains_key(*s))
    {
        problems.push(format!(
            "[{label}] `{scenario}` is listed both as passing and as failing"
        ));
    }
    problems
}

#[test]
fn server_scenarios_have_the_expected_verdicts() {
    let expected = Expected::load();
    let sandbox = Sandbox::new();
    let project = sandbox.project("conformance");
    let sample = sandbox.start_sample_with(&project, &["--conformance-fixtures"]);
    assert!(
        sample.endpoint().starts_with("http://127.0.0.1:"),
        "not a loopback endpoint: {}",
        sample.endpoint()
    );

    let mut problems = Vec::new();
    for revision in &expected.revisions {
        let results = sandbox
            .root()
            .join(format!("conformance-{}", revision.requirements));
        let verdicts = run_suite(sample.endpoint(), &revision.requirements, &results);
        problems.extend(differences(revision, &verdicts));
    }
    assert!(
        problems.is_empty(),
        "conformance verdicts differ from tests/conformance/expected.json:\n{}\n--- mur-sample log\n{}",
        problems.join("\n"),
        sample.log()
    );
}

/// The README section: one table per revision, generated from expected.json.
fn render(expected: &Expected) -> String {
    let mut out = format!(
        "{BEGIN_MARKER}\n<!-- generated from tests/conformance/expected.json; `{BLESS_ENV}=1 cargo test -p mur-e2e --test e2e conformance::` rewrites it -->\n\
         Server scenarios of `{}` against `mur-sample --conformance-fixtures`, one run per spec revision \
         (`conformance server --requirements <revision>`). A scenario passes when none of its checks fails.\n",
        expected.suite
    );
    for revision in &expected.revisions {
        out += &format!(
            "\n**{}** ({}): {} pass, {} fail.\n\n| scenario | result | why |\n|---|---|---|\n",
            revision.requirements,
            revision.wire,
            revision.pass.len(),
            revision.fail.len()
        );
        let rows = revision
            .pass
            .iter()
            .map(|(s, n)| (s, "pass", n))
            .chain(revision.fail.iter().map(|(s, n)| (s, "fail", n)));
        for (scenario, result, note) in rows {
            out += &format!(
                "| `{scenario}` | {result} | {} |\n",
                note.replace('|', "\\|")
            );
        }
    }
    out + END_MARKER
}

/// The generated section inside `text`, if it has the markers.
fn section(text: &str) -> Option<std::ops::Range<usize>> {
    let start = text.find(BEGIN_MARKER)?;
    let end = text[start..].find(END_MARKER)? + start + END_MARKER.len();
    Some(start..end)
}

#[test]
fn readme_tables_are_generated_from_expected_json() {
    let rendered = render(&Expected::load());
    let root_readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    // tests/conformance/README.md always carries the table; the project README may include it too.
    let readmes: Vec<PathBuf> = [node::package_dir().join("README.md"), root_readme]
        .into_iter()
        .filter(|path| {
            path.ends_with("conformance/README.md")
                || std::fs::read_to_string(path).is_ok_and(|t| t.contains(BEGIN_MARKER))
        })
        .collect();
    for readme in readmes {
        let text = std::fs::read_to_string(&readme)
            .unwrap_or_else(|e| panic!("read {}: {e}", readme.display()));
        let range = section(&text).unwrap_or_else(|| {
            panic!(
                "{} has no `{BEGIN_MARKER}` … `{END_MARKER}` section",
                readme.display()
            )
        });
        if text[range.clone()] == rendered {
            continue;
        }
        if std::env::var_os(BLESS_ENV).is_some() {
            let mut updated = text.clone();
            updated.replace_range(range, &rendered);
            std::fs::write(&readme, updated)
                .unwrap_or_else(|e| panic!("write {}: {e}", readme.display()));
        } else {
            panic!(
                "the conformance table in {} is out of date with tests/conformance/expected.json; \
                 rerun with {BLESS_ENV}=1 to regenerate it. Expected:\n{rendered}",
                readme.display()
            );
        }
    }
}

#[test]
fn results_directories_name_their_scenario() {
    assert_eq!(
        scenario_of("server-tools-list-2026-11-21T05-47-51-323Z"),
        Some("tools-list")
    );
    assert_eq!(
        scenario_of("server-server-stateless-2026-11-21T05-47-51-323Z"),
        Some("server-stateless")
    );
    assert_eq!(scenario_of("server-2026-11-21T05-47-51-323Z"), None);
    assert_eq!(
        scenario_of("client-tools-list-2026-11-21T05-47-51-323Z"),
        None
    );
}

#[test]
fn a_listed_failure_that_passes_is_reported() {
    let revision = Revision {
        requirements: "r".into(),
        wire: String::new(),
        pass: BTreeMap::from([("a".into(), String::new())]),
        fail: BTreeMap::from([("b".into(), "no b".into())]),
    };
    let all_as_listed =
        Verdicts::from([("a".into(), vec![]), ("b".into(), vec!["x: broken".into()])]);
    assert!(differences(&revision, &all_as_listed).is_empty());
    let fixed = Verdicts::from([("a".into(), vec![]), ("b".into(), vec![])]);
    assert_eq!(differences(&revision, &fixed).len(), 1);
    let regressed_and_new = Verdicts::from([
        ("a".into(), vec!["x: broken".into()]),
        ("b".into(), vec!["x: broken".into()]),
        ("c".into(), vec![]),
    ]);
    assert_eq!(differences(&revision, &regressed_and_new).len(), 2);
}
