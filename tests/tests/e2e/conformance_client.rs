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

use std::path::Path;

use mur_e2e::Sandbox;
use serde_json::Value;

use crate::conformance_expected::{Listing, Verdicts, run_cli, without_timestamp};
use crate::node;

/// `tests/conformance/expected-client.json` and its README section.
const LISTING: Listing = Listing {
    file: "expected-client.json",
    section: "conformance-client",
    module: "conformance_client::",
    table: "client conformance table",
};
/// What `client.sh` writes on stderr when a `mur` call did not end as it should.
const UNEXPECTED: &str = "client.sh: unexpected";

/// Runs the client scenarios of one revision against `mur` and reads each one's results.
fn run_suite(sandbox: &Sandbox, requirements: &str, results: &Path) -> Verdicts {
    let tools = node::tools();
    let script = node::package_dir().join("client.sh");
    let log = run_cli(
        sandbox
            .command(&tools.node)
            .arg(&tools.conformance_cli)
            .args(["client", "--command"])
            .arg(format!("bash {}", script.display()))
            .args(["--requirements", requirements, "--output-dir"])
            .arg(results)
            .env("MUR", &sandbox.artifacts().mur),
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
        let scenario = without_timestamp(&relative)
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

#[test]
fn client_scenarios_have_the_expected_verdicts() {
    let expected = LISTING.load();
    let sandbox = Sandbox::new();
    let mut problems = Vec::new();
    for revision in &expected.revisions {
        let results = sandbox
            .root()
            .join(format!("conformance-client-{}", revision.requirements));
        let verdicts = run_suite(&sandbox, &revision.requirements, &results);
        problems.extend(LISTING.differences(revision, &verdicts));
    }
    assert!(
        problems.is_empty(),
        "client conformance verdicts differ from tests/conformance/expected-client.json:\n{}",
        problems.join("\n")
    );
}

#[test]
fn readme_tables_are_generated_from_expected_client_json() {
    let expected = LISTING.load();
    let intro = format!(
        "Client scenarios of `{}` against `mur`, one run per spec revision \
         (`conformance client --command \"bash tests/conformance/client.sh\" --requirements <revision>`). \
         A scenario passes when none of its checks fails or warns and every `mur` call of `client.sh` ends as it should.",
        expected.suite
    );
    let rendered = LISTING.render(&expected, &intro);
    let root_readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    // Both READMEs carry the client tables.
    for readme in [node::package_dir().join("README.md"), root_readme] {
        LISTING.check_readme(&readme, &rendered);
    }
}

#[test]
fn results_directories_name_their_scenario() {
    assert_eq!(
        without_timestamp("tools_call-2026-11-21T05-47-51-323Z"),
        Some("tools_call")
    );
    assert_eq!(
        without_timestamp("auth/metadata-default-2026-11-21T05-47-51-323Z"),
        Some("auth/metadata-default")
    );
    assert_eq!(without_timestamp("2026-11-21T05-47-51-323Z"), None);
}
