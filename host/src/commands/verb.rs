//! `mur devtools <verb> [args…]` for verbs that are not the host's own: the
//! verb runtime parses argv into a tool call, the host makes the call, and
//! the verb shapes a successful result. A failed tool never reaches `shape`:
//! its result is printed as it is, with exit 5.

use mur_core::{Result, Settings};
use mur_verbs::{ParseOutcome, VerbError, VerbHost};
use serde_json::json;

use crate::invoke::{self, block_on};
use crate::output;

/// `(name, summary)` of each installed plugin verb, for `--help`; reads the
/// verb index only.
pub fn installed() -> Vec<(String, String)> {
    VerbHost::open()
        .map(|host| {
            host.installed()
                .into_iter()
                .map(|v| (v.name, v.summary))
                .collect()
        })
        .unwrap_or_default()
}

/// Runs plugin verb `name` with `argv` (host options already removed).
/// `parse` and `shape` run outside the async runtime; only the call is async.
pub fn run(name: &str, argv: &[String], settings: Settings) -> Result<()> {
    let outcome = run_verb(name, argv, settings);
    tracing::debug!("verb timings: {}", mur_verbs::timings::summary());
    for warning in mur_verbs::warnings::take() {
        output::notice(&warning);
    }
    outcome
}

fn run_verb(name: &str, argv: &[String], mut settings: Settings) -> Result<()> {
    let mut host = VerbHost::open()?;
    let tool = host
        .tool(name)
        .ok_or_else(|| VerbError::UnknownVerb(name.to_owned()))?
        .to_owned();
    let (arguments, timeout_ms) = match host.parse(name, argv)? {
        ParseOutcome::Help(usage) => return output::stdout(with_newline(usage).as_bytes()),
        ParseOutcome::Call {
            arguments,
            timeout_ms,
        } => (arguments, timeout_ms),
    };
    settings.extend_timeout(timeout_ms);
    let params = json!({ "name": tool, "arguments": arguments });
    let result = block_on(invoke::invoke(&settings, "tools/call", Some(&params)))??;
    let shaped = host.shape(name, argv, &result, settings.pretty)?;
    shaped.write_files(argv)?;
    output::stdout(&shaped.stdout)
}

fn with_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}
