//! The agent's calls, as the session recorded them: the server-side usage log
//! (`mur-sample --usage-log`, schema `mur-usage/1`, one line per `tools/call` served,
//! with the surface it came through), cut to the lines written while the agent ran —
//! the harness's own setup and checks come before and after — and counted by surface.

use std::collections::BTreeMap;
use std::path::Path;

use mur_usage::{LogReader, Outcome, Record, Refused, Surface, UsageLog};
use serde::{Deserialize, Serialize};

/// The records of the log at `path` (and its rotated files) in the order served (none
/// when it does not exist: nothing was called yet).
pub fn read(path: &Path) -> Result<Vec<Record>, String> {
    let log = UsageLog::at(path.to_owned());
    if log.files().is_empty() {
        return Ok(Vec::new());
    }
    // The logs are in the agent's reach: anything but a regular file (a FIFO, `/dev/zero`
    // behind a link) is refused, never waited on, and one past the cap is not read — each
    // asked of the file opened, which is the one read.
    let mut reader = LogReader::default();
    reader
        .read_checked(&[log], |file, meta| {
            if meta.len() > LOG_CAP {
                return Err(format!(
                    "`{}` is larger than {}",
                    file.display(),
                    mur_core::settings::human_bytes(LOG_CAP)
                ));
            }
            Ok(())
        })
        .map_err(|e| e.to_string())?;
    Ok(reader.records)
}

/// The largest usage log read.
const LOG_CAP: u64 = 256 << 20;

/// What the agent called, by surface.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Calls {
    /// Every `tools/call` the session served for the agent.
    pub total: u32,
    /// Through mur (its verbs name themselves in the request).
    pub cli: u32,
    /// Through any other MCP client.
    pub mcp: u32,
    /// Calls that did not end `ok` (a tool error or a JSON-RPC error).
    pub failed: u32,
    /// Calls per tool.
    pub tools: BTreeMap<String, u32>,
}

impl Calls {
    /// Counts `records`.
    pub fn of(records: &[Record]) -> Self {
        let mut calls = Self::default();
        for record in records {
            calls.total += 1;
            match record.surface {
                Surface::Cli => calls.cli += 1,
                Surface::Mcp => calls.mcp += 1,
            }
            if record.outcome != Outcome::Ok {
                calls.failed += 1;
            }
            let tool = record.tool.clone().unwrap_or_else(|| "?".to_owned());
            *calls.tools.entry(tool).or_default() += 1;
        }
        calls
    }

    /// Calls made through the surface the profile keeps out of the agent's reach.
    pub fn on_other_surface(&self, profile: crate::profile::Profile) -> u32 {
        match profile {
            crate::profile::Profile::Cli => self.mcp,
            crate::profile::Profile::Mcp => self.cli,
            crate::profile::Profile::Both => 0,
        }
    }
}

/// What `mur` itself recorded of the agent's invocations (its own usage log, side `cli`):
/// also those that never reached the session, such as argv a verb refused.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Invocations {
    pub total: u32,
    /// Invocations that did not end `ok`, by outcome (`usage-error`, `session-error`, …).
    pub failed: BTreeMap<String, u32>,
    /// The usage errors by verb and argv shape (`state WORD`), as `usage report` shows them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<Refused>,
}

impl Invocations {
    pub fn of(records: &[Record]) -> Self {
        let mut invocations = Self::default();
        for record in records {
            invocations.total += 1;
            if record.outcome != Outcome::Ok {
                let outcome = serde_json::to_value(record.outcome)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                *invocations.failed.entry(outcome).or_default() += 1;
            }
        }
        invocations.refused = mur_usage::refused(records.iter());
        invocations
    }
}

/// The named verbs (plugin and data: those an operator can remove with `verbs prune`)
/// the agent invoked, name → invocations: mur's `own` records of its invocations (a
/// refused one too: `usage report` counts any as a use), or the session's records of the
/// calls `mur` made, `served`, which name the verb and its kind as well — whichever holds
/// more of a verb, so a verb is not taken for unused because the agent turned mur's
/// recording off (`usage off`) or its own log was not read.
pub fn verbs_called(own: &[Record], served: &[Record]) -> BTreeMap<String, u32> {
    called_of_kind(own, served, mur_usage::Kind::is_named)
}

/// The verbs the agent reached through mur other than as named verbs, under a condition
/// that installs them: derived verbs by name (a verb `verbs prune` removed, answered by
/// the session's tool of its name) and `call`, counted as [`verbs_called`] counts.
pub fn reached_otherwise(own: &[Record], served: &[Record]) -> (BTreeMap<String, u32>, u32) {
    let derived = called_of_kind(own, served, |k| k == mur_usage::Kind::Derived);
    let call = called_of_kind(own, served, |k| k == mur_usage::Kind::Call)
        .into_values()
        .fold(0, u32::saturating_add);
    (derived, call)
}

/// The verbs of a kind `of_kind` takes the agent invoked, name → invocations: from mur's
/// `own` records or the session's `served` ones, whichever holds more of a verb.
fn called_of_kind(
    own: &[Record],
    served: &[Record],
    of_kind: impl Fn(mur_usage::Kind) -> bool,
) -> BTreeMap<String, u32> {
    let count = |records: &[Record], side: mur_usage::Side| {
        let mut by_verb: BTreeMap<String, u32> = BTreeMap::new();
        let named = records.iter().filter(|r| {
            r.side == side && r.surface == Surface::Cli && r.kind.is_some_and(&of_kind)
        });
        for verb in named.filter_map(|r| r.verb.as_ref()) {
            let n = by_verb.entry(verb.clone()).or_default();
            *n = n.saturating_add(1);
        }
        by_verb
    };
    let mut called = count(own, mur_usage::Side::Cli);
    for (verb, n) in count(served, mur_usage::Side::Server) {
        let own = called.entry(verb).or_default();
        *own = (*own).max(n);
    }
    called
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines as the session writes them (the contract of `mur-sample --usage-log`).
    const LOG: &str = r#"{"schema":"mur-usage/1","time":"2026-11-22T21:00:00.001Z","side":"server","surface":"cli","client":"mur 0.1.0","verb":"click","kind":"plugin","tool":"click","outcome":"ok","ms":1.5,"project":"ab12","buildTag":"dev"}
{"schema":"mur-usage/1","time":"2026-11-22T21:00:00.002Z","side":"server","surface":"mcp","client":"agent 1.0","verb":null,"kind":null,"tool":"state","outcome":"ok","ms":0.7,"project":"ab12","buildTag":"dev"}
not a record
{"schema":"mur-usage/1","time":"2026-11-22T21:00:00.003Z","side":"server","surface":"cli","client":"mur 0.1.0","verb":"click","kind":"plugin","tool":"click","outcome":"tool-error","ms":0.9,"project":"ab12","buildTag":"dev"}
"#;

    #[test]
    fn calls_are_counted_by_surface_tool_and_outcome() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("usage.jsonl");
        std::fs::write(&path, LOG).expect("write");
        let records = read(&path).expect("readable");
        assert_eq!(records.len(), 3, "the line that is no record is skipped");
        let calls = Calls::of(&records);
        assert_eq!(
            (calls.total, calls.cli, calls.mcp, calls.failed),
            (3, 2, 1, 1)
        );
        assert_eq!(calls.tools["click"], 2);
        assert_eq!(calls.on_other_surface(crate::profile::Profile::Cli), 1);
    }

    /// A verb is called when mur recorded an invocation of it, refused or not, or the
    /// session served a call `mur` made for it; a derived verb, `call` and a word that
    /// named nothing are no named verb, and an MCP client's call names none.
    #[test]
    fn the_named_verbs_called_are_counted_from_either_log() {
        let record = |side: &str, surface: &str, verb: &str, kind: &str, outcome: &str| {
            let line = serde_json::json!({ "schema": "mur-usage/1", "time": "t",
                "side": side, "surface": surface, "verb": verb, "kind": kind,
                "outcome": outcome, "ms": 1.0 });
            serde_json::from_value::<Record>(line).expect("a record")
        };
        let own = [
            record("cli", "cli", "click", "plugin", "ok"),
            record("cli", "cli", "click", "plugin", "usage-error"),
            record("cli", "cli", "todo", "data", "ok"),
            record("cli", "cli", "waitFor", "derived", "ok"),
            record("cli", "cli", "call", "call", "ok"),
            record("cli", "cli", "frobnicate", "unknown", "usage-error"),
        ];
        // The session served three clicks and a `tree` mur's own log does not hold
        // (recording was turned off for it), and an MCP client's call.
        let served = [
            record("server", "cli", "click", "plugin", "ok"),
            record("server", "cli", "tree", "plugin", "ok"),
            record("server", "mcp", "collapse", "plugin", "ok"),
        ];
        let called = verbs_called(&own, &served);
        let expected: BTreeMap<String, u32> = [("click", 2), ("todo", 1), ("tree", 1)]
            .map(|(v, n)| (v.to_owned(), n))
            .into();
        assert_eq!(called, expected);
        assert_eq!(verbs_called(&[], &[]), BTreeMap::new());
        // The derived verb and `call` are what it reached otherwise.
        let (derived, call) = reached_otherwise(&own, &served);
        assert_eq!(derived, BTreeMap::from([("waitFor".to_owned(), 1)]));
        assert_eq!(call, 1);
    }

    #[test]
    fn invocations_count_failures_by_outcome() {
        let line = |outcome: &str| {
            format!(
                r#"{{"schema":"mur-usage/1","time":"t","side":"cli","surface":"cli","outcome":"{outcome}","ms":1.0}}"#
            )
        };
        let records: Vec<Record> = ["ok", "usage-error", "usage-error", "session-error"]
            .map(|o| serde_json::from_str(&line(o)).expect("a record"))
            .into();
        let invocations = Invocations::of(&records);
        assert_eq!(invocations.total, 4);
        assert_eq!(invocations.failed["usage-error"], 2);
        assert_eq!(invocations.failed["session-error"], 1);
    }

    /// Every file of the log is asked of as it is read: a rotated one past the cap (the
    /// live file's size alone was asked, by its name, then every file read by name) is
    /// refused, not read whole; so is one that is no regular file.
    #[test]
    fn each_file_of_a_log_is_refused_past_the_cap_or_when_not_regular() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("usage.jsonl");
        std::fs::write(&path, LOG).expect("write");
        let rotated = dir.path().join("usage.jsonl.1");
        let big = std::fs::File::create(&rotated).expect("create");
        // Sparse: no disk is used for it.
        big.set_len(LOG_CAP + 1).expect("set_len");
        assert_eq!(
            read(&path).map(|records| records.len()),
            Err(format!("`{}` is larger than 256 MiB", rotated.display()))
        );
        std::fs::remove_file(&rotated).expect("remove");
        mur_testkit::mkfifo(&rotated);
        assert_eq!(
            read(&path).map(|records| records.len()),
            Err(format!(
                "cannot read `{}`: it is a FIFO, not a regular file",
                rotated.display()
            ))
        );
    }

    #[test]
    fn no_log_yet_is_no_calls() {
        let dir = tempfile::tempdir().expect("tempdir");
        let records = read(&dir.path().join("usage.jsonl")).expect("no file is fine");
        assert_eq!(Calls::of(&records), Calls::default());
    }
}
