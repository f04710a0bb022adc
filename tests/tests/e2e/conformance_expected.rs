//! What the conformance tests share: the expected-verdicts file (`tests/conformance/expected.json`
//! for the server scenarios, `expected-client.json` for the client ones), the verdicts of a run
//! compared with it, and the README tables generated from it.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::node;

/// Set to rewrite the generated README sections instead of checking them.
pub const BLESS_ENV: &str = "MUR_BLESS_CONFORMANCE_README";

/// One scenario's outcome: what went wrong (empty: it passed).
pub type Verdicts = BTreeMap<String, Vec<String>>;

/// One expected-verdicts file under `tests/conformance/` and the README section made from it.
pub struct Listing {
    /// The file's name, e.g. `expected.json`.
    pub file: &'static str,
    /// The generated README section lies between `<!-- {section}:begin -->` and
    /// `<!-- {section}:end -->`.
    pub section: &'static str,
    /// The test module whose run with [`BLESS_ENV`] rewrites the section, e.g. `conformance::`.
    pub module: &'static str,
    /// What the out-of-date message calls the table, e.g. `conformance table`.
    pub table: &'static str,
}

/// The contents of an expected-verdicts file.
pub struct Expected {
    pub suite: String,
    pub revisions: Vec<Revision>,
}

pub struct Revision {
    /// The spec revision passed to `--requirements`.
    pub requirements: String,
    /// What that revision's wire looks like, for the README.
    pub wire: String,
    /// Scenario → note, for scenarios that must pass.
    pub pass: BTreeMap<String, String>,
    /// Scenario → the reason it fails.
    pub fail: BTreeMap<String, String>,
}

impl Listing {
    /// The marker that opens the generated README section.
    pub fn begin(&self) -> String {
        format!("<!-- {}:begin -->", self.section)
    }

    fn end(&self) -> String {
        format!("<!-- {}:end -->", self.section)
    }

    pub fn load(&self) -> Expected {
        let file = self.file;
        let path = node::package_dir().join(file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        let json: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        let string = |value: &Value, key: &str| -> String {
            value[key]
                .as_str()
                .unwrap_or_else(|| panic!("{file}: `{key}` must be a string"))
                .to_owned()
        };
        let notes = |value: &Value, key: &str| -> BTreeMap<String, String> {
            value[key]
                .as_object()
                .unwrap_or_else(|| panic!("{file}: `{key}` must be an object"))
                .iter()
                .map(|(name, note)| (name.clone(), note.as_str().unwrap_or_default().to_owned()))
                .collect()
        };
        let revisions = json["revisions"]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: `revisions` must be an array"))
            .iter()
            .map(|revision| Revision {
                requirements: string(revision, "requirements"),
                wire: string(revision, "wire"),
                pass: notes(revision, "pass"),
                fail: notes(revision, "fail"),
            })
            .collect();
        Expected {
            suite: string(&json, "suite"),
            revisions,
        }
    }

    /// Every way the run differs from the revision's listing, one line each.
    pub fn differences(&self, revision: &Revision, verdicts: &Verdicts) -> Vec<String> {
        let (file, label) = (self.file, &revision.requirements);
        let mut problems = Vec::new();
        for (scenario, failures) in verdicts {
            let expected_pass = revision.pass.contains_key(scenario);
            let expected_fail = revision.fail.contains_key(scenario);
            let passed = failures.is_empty();
            match (passed, expected_pass, expected_fail) {
                (_, false, false) => problems.push(format!(
                    "[{label}] `{scenario}` ran but is not listed in {file} (it {})",
                    if passed {
                        "passed".to_owned()
                    } else {
                        format!("failed: {}", failures.join("; "))
                    }
                )),
                (true, true, _) | (false, _, true) => {}
                (false, true, _) => problems.push(format!(
                    "[{label}] `{scenario}` should pass but failed: {}",
                    failures.join("; ")
                )),
                (true, false, true) => problems.push(format!(
                    "[{label}] `{scenario}` is listed as failing (\"{}\") but passed: move it to `pass`",
                    revision.fail[scenario]
                )),
            }
        }
        for scenario in revision.pass.keys().chain(revision.fail.keys()) {
            if !verdicts.contains_key(scenario) {
                problems.push(format!(
                    "[{label}] `{scenario}` is listed in {file} but the suite did not run it"
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

    /// The README section: `intro`, then one table per revision.
    pub fn render(&self, expected: &Expected, intro: &str) -> String {
        let Self { file, module, .. } = self;
        let begin = self.begin();
        let mut out = format!(
            "{begin}\n<!-- generated from tests/conformance/{file}; `{BLESS_ENV}=1 cargo test -p mur-e2e --test e2e {module}` rewrites it -->\n{intro}\n"
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
        out + &self.end()
    }

    /// The generated section inside `text`, if it has the markers.
    fn section(&self, text: &str) -> Option<Range<usize>> {
        let (begin, end) = (self.begin(), self.end());
        let start = text.find(&begin)?;
        let end = text[start..].find(&end)? + start + end.len();
        Some(start..end)
    }

    /// Checks that `readme`'s section is `rendered`; with [`BLESS_ENV`] set, rewrites it instead.
    pub fn check_readme(&self, readme: &Path, rendered: &str) {
        let text = std::fs::read_to_string(readme)
            .unwrap_or_else(|e| panic!("read {}: {e}", readme.display()));
        let range = self.section(&text).unwrap_or_else(|| {
            panic!(
                "{} has no `{}` … `{}` section",
                readme.display(),
                self.begin(),
                self.end()
            )
        });
        if text[range.clone()] == *rendered {
            return;
        }
        if std::env::var_os(BLESS_ENV).is_some() {
            let mut updated = text;
            updated.replace_range(range, rendered);
            std::fs::write(readme, updated)
                .unwrap_or_else(|e| panic!("write {}: {e}", readme.display()));
        } else {
            panic!(
                "the {} in {} is out of date with tests/conformance/{}; \
                 rerun with {BLESS_ENV}=1 to regenerate it. Expected:\n{rendered}",
                self.table,
                readme.display(),
                self.file
            );
        }
    }
}

/// Runs the conformance CLI (killed, failing the test, after ten minutes) and returns what
/// it printed. Its exit status only says whether any required scenario failed; the
/// verdicts that matter are compared scenario by scenario.
pub fn run_cli(command: &mut Command) -> String {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let (output, _) = mur_e2e::run_within(command, Duration::from_secs(600));
    format!("{}{}", output.stdout, output.stderr)
}

/// `<scenario>-<ISO timestamp with - for : and .>` → `<scenario>`.
pub fn without_timestamp(dir_name: &str) -> Option<&str> {
    const STAMP: usize = "-2026-01-01T00-00-00-000Z".len();
    let split = dir_name.len().checked_sub(STAMP)?;
    let (scenario, stamp) = dir_name.split_at(split);
    let stamp = stamp.as_bytes();
    (stamp[0] == b'-' && stamp[11] == b'T' && stamp[STAMP - 1] == b'Z' && !scenario.is_empty())
        .then_some(scenario)
}

#[test]
fn a_listed_failure_that_passes_is_reported() {
    let listing = Listing {
        file: "expected.json",
        section: "",
        module: "",
        table: "",
    };
    let revision = Revision {
        requirements: "r".into(),
        wire: String::new(),
        pass: BTreeMap::from([("a".into(), String::new())]),
        fail: BTreeMap::from([("b".into(), "no b".into())]),
    };
    let all_as_listed =
        Verdicts::from([("a".into(), vec![]), ("b".into(), vec!["x: broken".into()])]);
    assert!(listing.differences(&revision, &all_as_listed).is_empty());
    let fixed = Verdicts::from([("a".into(), vec![]), ("b".into(), vec![])]);
    assert_eq!(listing.differences(&revision, &fixed).len(), 1);
    let regressed_and_new = Verdicts::from([
        ("a".into(), vec!["x: broken".into()]),
        ("b".into(), vec!["x: broken".into()]),
        ("c".into(), vec![]),
    ]);
    assert_eq!(listing.differences(&revision, &regressed_and_new).len(), 2);
}

#[test]
fn a_timestamp_is_stripped_from_a_results_directory() {
    assert_eq!(
        without_timestamp("tools-list-2026-11-21T05-47-51-323Z"),
        Some("tools-list")
    );
    assert_eq!(without_timestamp("2026-11-21T05-47-51-323Z"), None);
    assert_eq!(without_timestamp("-2026-11-21T05-47-51-323Z"), None);
    assert_eq!(without_timestamp("tools-list"), None);
}
