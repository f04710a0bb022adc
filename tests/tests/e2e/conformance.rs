//! The official MCP conformance suite's server scenarios against a real `mur-sample`.
//!
//! Starts `mur-sample --conformance-fixtures` in a private sandbox, runs
//! `@modelcontextprotocol/conformance server --requirements <revision>` (pinned in
//! `tests/conformance/package.json`, run with the local Node 22) for each revision in
//! `tests/conformance/expected.json`, and asserts that every scenario's verdict is the one
//! listed there — passing ones pass, failing ones (each with its written reason) still fail,
//! and no scenario is unlisted. The README table is generated from the same file.

use std::path::{Path, PathBuf};
use std::process::Command;

use mur_e2e::Sandbox;
use serde_json::Value;

use crate::conformance_expected::{Listing, Verdicts, run_cli, without_timestamp};
use crate::node;

/// `tests/conformance/expected.json` and its README section.
const LISTING: Listing = Listing {
    file: "expected.json",
    section: "conformance",
    module: "conformance::",
    table: "conformance table",
};

/// Runs the suite's scenarios for one revision and reads each scenario's `checks.json`.
fn run_suite(endpoint: &str, requirements: &str, results: &Path) -> Verdicts {
    let tools = node::tools();
    let log = run_cli(
        Command::new(&tools.node)
            .arg(&tools.conformance_cli)
            .args([
                "server",
                "--url",
                endpoint,
                "--requirements",
                requirements,
                "--output-dir",
            ])
            .arg(results),
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
    without_timestamp(dir_name.strip_prefix("server-")?)
}

#[test]
fn server_scenarios_have_the_expected_verdicts() {
    let expected = LISTING.load();
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
        problems.extend(LISTING.differences(revision, &verdicts));
    }
    assert!(
        problems.is_empty(),
        "conformance verdicts differ from tests/conformance/expected.json:\n{}\n--- mur-sample log\n{}",
        problems.join("\n"),
        sample.log()
    );
}

#[test]
fn readme_tables_are_generated_from_expected_json() {
    let expected = LISTING.load();
    let intro = format!(
        "Server scenarios of `{}` against `mur-sample --conformance-fixtures`, one run per spec revision \
         (`conformance server --requirements <revision>`). A scenario passes when none of its checks fails.",
        expected.suite
    );
    let rendered = LISTING.render(&expected, &intro);
    let root_readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    // tests/conformance/README.md always carries the table; the project README may include it too.
    let readmes: Vec<PathBuf> = [node::package_dir().join("README.md"), root_readme]
        .into_iter()
        .filter(|path| {
            path.ends_with("conformance/README.md")
                || std::fs::read_to_string(path).is_ok_and(|t| t.contains(&LISTING.begin()))
        })
        .collect();
    for readme in readmes {
        LISTING.check_readme(&readme, &rendered);
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
