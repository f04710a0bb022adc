//! The official MCP conformance suite's client scenarios against `mur`.
//!
//! For each revision in `tests/conformance/expected-client.json`, runs
//! `@modelcontextprotocol/conformance client --command "bash tests/conformance/client.sh"
//! --requirements <revision>` (pinned in `tests/conformance/package.json`, on the local Node 22):
//! the suite starts each scenario's server on loopback and runs the command with its URL, and
//! `client.sh` makes the calls a person would make with the real `mur` (`$MUR`). A scenario
//! passes when none of its checks is a failure or a warning and `client.sh` saw every `mur`
//! call end as it should. Every verdict must be the listed one — passing ones pass, failing
//! ones (each with its reason) still fail, none unlisted — and the README tables are generated
//! from the same file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use mur_e2e::Sandbox;
use serde_json::Value;

use crate::node;

const BEGIN_MARKER: &str = "<!-- conformance-client:begin -->";
const END_MARKER: &str = "<!-- conformance-client:end -->";
/// Set to rewrite the generated README sections instead of checking them.
const BLESS_ENV: &str = "MUR_BLESS_CONFORMANCE_README";
/// What `client.sh` writes on stderr when a `mur` call did not end as it should.
const UNEXPECTED: &str = "client.sh: unexpected";

struct Expected {
    suite: String,
    revisions: Vec<Revision>,
}

struct Revision {
    requirements: String,
    wire: String,
    pass: BTreeMap<String, String>,
    fail: BTreeMap<String, String>,
}

impl Expected {
    fn load() -> Self {
        let path = node::package_dir().join("expected-client.json");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        let json: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        let string = |value: &Value, key: &str| -> String {
            value[key]
                .as_str()
                .unwrap_or_else(|| panic!("expected-client.json: `{key}` must be a string"))
                .to_owned()
        };
        let notes = |value: &Value, key: &str| -> BTreeMap<String, String> {
            value[key]
                .as_object()
                .unwrap_or_else(|| panic!("expected-client.json: `{key}` must be an object"))
                .iter()
                .map(|(name, note)| (name.clone(), note.as_str().unwrap_or_default().to_owned()))
                .collect()
        };
        let revisions = json["revisions"]
            .as_array()
            .expect("expected-client.json: `revisions` must be an array")
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

/// Scenario → what went wrong (empty: it passed).
type Verdicts = BTreeMap<String, Vec<String>>;

/// Runs the client scenarios of one revision against `mur` and reads each one's results.
fn run_suite(sandbox: &Sandbox, requirements: &str, results: &Path) -> Verdicts {
    let tools = node::tools();
    let script = node::package_dir().join("client.sh");
    let output = sandbox
        .command(&tools.node)
        .arg(&tools.conformance_cli)
        .args(["client", "--command"])
        .arg(format!("bash {}", script.display()))
        .args(["--requirements", requirements, "--output-dir"])
        .arg(results)
        .env("MUR", &sandbox.artifacts().mur)
        .stdin(Stdio::null())
        .output()
        .expect("run the conformance CLI");
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let mut verdicts = Verdicts::new();
    collect(results, results, &mut verdicts);
    assert!(
        !verdicts.is_empty(),
        "the conformance CLI ran no scenario; its output:\n{log}"
    );
    verdicts
}

/// Every `<scenario>-<timestamp>/checks.json` under `dir` (`auth/…` scenarios nest).
fn collect(root: &Path, dir: &Path, verdicts: &mut Verdicts) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("no results in {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("results entry").path();
        if !path.join("checks.json").is_file() {
            collect(root, &path, verdicts);
            continue;
        }
        let relative = path
            .strip_prefix(root)
            .expect("under the results")
            .to_string_lossy()
            .into_owned();
        let scenario = scenario_of(&relative)
            .unwrap_or_else(|| panic!("unexpected results directory `{relative}`"));
        let checks = std::fs::read(path.join("checks.json"))
            .unwrap_or_else(|e| panic!("{relative}/checks.json: {e}"));
        let checks: Vec<Value> = serde_json::from_slice(&checks)
            .unwrap_or_else(|e| panic!("{relative}/checks.json: {e}"));
        let mut problems: Vec<String> = checks
            .iter()
            .filter(|check| matches!(check["status"].as_str(), Some("FAILURE" | "WARNING")))
            .map(|check| {
                format!(
                    "{} {}: {}",
                    check["status"].as_str().unwrap_or("?"),
                    check["id"].as_str().unwrap_or("?"),
                    check["errorMessage"].as_str().unwrap_or("")
                )
            })
            .collect();
        let stderr = std::fs::read_to_string(path.join("stderr.txt")).unwrap_or_default();
        problems.extend(
            stderr
                .lines()
                .filter(|l| l.starts_with(UNEXPECTED))
                .map(str::to_owned),
        );
        assert!(
            verdicts.insert(scenario.to_owned(), problems).is_none(),
            "scenario `{scenario}` ran twice"
        );
    }
}

/// `<scenario>-<ISO timestamp with - for : and .>` → `<scenario>`.
fn scenario_of(dir_name: &str) -> Option<&str> {
    const STAMP: usize = "-2026-01-01T00-00-00-000Z".len();
    let split = dir_name.len().checked_sub(STAMP)?;
    let (scenario, stamp) = dir_name.split_at(split);
    let stamp = stamp.as_bytes();
    (stamp[0] == b'-' && stamp[11] == b'T' && stamp[STAMP - 1] == b'Z' && !scenario.is_empty())
        .then_some(scenario)
}

/// Every way the run differs from the expected list, one line each.
fn differences(revision: &Revision, verdicts: &Verdicts) -> Vec<String> {
    let label = &revision.requirements;
    let mut problems = Vec::new();
    for (scenario, failures) in verdicts {
        let passed = failures.is_empty();
        if revision.pass.contains_key(scenario) && !passed {
            problems.push(format!(
                "[{label}] `{scenario}` should pass but failed: {}",
                failures.join("; ")
            ));
        } else if revision.fail.contains_key(scenario) && passed {
            problems.push(format!(
                "[{label}] `{scenario}` is listed as failing (\"{}\") but passed: move it to `pass`",
                revision.fail[scenario]
            ));
        } else if !revision.pass.contains_key(scenario) && !revision.fail.contains_key(scenario) {
            problems.push(format!(
                "[{label}] `{scenario}` ran but is not listed in expected-client.json (it {})",
                if passed {
                    "passed".to_owned()
                } else {
                    format!("failed: {}", failures.join("; "))
                }
            ));
        }
    }
    for scenario in revision.pass.keys().chain(revision.fail.keys()) {
        if !verdicts.contains_key(scenario) {
            problems.push(format!(
                "[{label}] `{scenario}` is listed in expected-client.json but the suite did not run it"
            ));
        }
    }
    problems
}

#[test]
fn client_scenarios_have_the_expected_verdicts() {
    let expected = Expected::load();
    let sandbox = Sandbox::new();
    let mut problems = Vec::new();
    for revision in &expected.revisions {
        let results = sandbox
            .root()
            .join(format!("conformance-client-{}", revision.requirements));
        let verdicts = run_suite(&sandbox, &revision.requirements, &results);
        problems.extend(differences(revision, &verdicts));
    }
    assert!(
        problems.is_empty(),
        "client conformance verdicts differ from tests/conformance/expected-client.json:\n{}",
        problems.join("\n")
    );
}

/// The README section: one table per revision, generated from expected-client.json.
fn render(expected: &Expected) -> String {
    let mut out = format!(
        "{BEGIN_MARKER}\n<!-- generated from tests/conformance/expected-client.json; `{BLESS_ENV}=1 cargo test -p mur-e2e --test e2e conformance_client::` rewrites it -->\n\
         Client scenarios of `{}` against `mur`, one run per spec revision \
         (`conformance client --command \"bash tests/conformance/client.sh\" --requirements <revision>`). \
         A scenario passes when none of its checks fails or warns and every `mur` call of `client.sh` ends as it should.\n",
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

fn section(text: &str) -> Option<std::ops::Range<usize>> {
    let start = text.find(BEGIN_MARKER)?;
    let end = text[start..].find(END_MARKER)? + start + END_MARKER.len();
    Some(start..end)
}

#[test]
fn readme_tables_are_generated_from_expected_client_json() {
    let rendered = render(&Expected::load());
    let root_readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    let readmes: Vec<PathBuf> = vec![node::package_dir().join("README.md"), root_readme];
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
                "the client conformance table in {} is out of date with \
                 tests/conformance/expected-client.json; rerun with {BLESS_ENV}=1 to regenerate \
                 it. Expected:\n{rendered}",
                readme.display()
            );
        }
    }
}

#[test]
fn results_directories_name_their_scenario() {
    assert_eq!(
        scenario_of("tools_call-2026-11-21T05-47-51-323Z"),
        Some("tools_call")
    );
    assert_eq!(
        scenario_of("auth/metadata-default-2026-11-21T05-47-51-323Z"),
        Some("auth/metadata-default")
    );
    assert_eq!(scenario_of("2026-11-21T05-47-51-323Z"), None);
}
