//! What the records show callers could reach beside the verbs installed: the derived
//! verbs mur ran and the tools the sessions answered. A word asked for that named
//! nothing is compared with them, as mur compared it with the session's tool list
//! when it was typed, so the report names the verb mur said it was near.

use std::collections::{BTreeMap, BTreeSet};

use crate::record::{Kind, Outcome, Record};

/// The verbs of the sessions' tools that the records show were there, at any time and
/// for any agent: a verb some session had is what a typo of its name was near,
/// whoever typed it, whenever.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reached {
    /// The derived verbs, by the verb names mur ran them under (`get-sum`): records
    /// of kind `derived` that name their tool (mur found it in the session's tool
    /// list; on side `server`, mur's `_meta` said so), but for an `rpc-error` (the
    /// session said it has no such tool).
    pub derived: BTreeSet<String>,
    /// The tools each session (by its project hash; `None`: records that name none)
    /// answered a call of (outcome `ok`), on either side and whatever called it: each
    /// session's together, as a tool's verb name depends on the others' (`get_sum`
    /// and `getSum`, both listed, keep their own). A tool that failed is left out:
    /// some servers answer a tool they do not have with `isError`.
    pub tools: BTreeMap<Option<String>, BTreeSet<String>>,
}

/// What `records` show callers could reach ([`Reached`]).
pub(crate) fn reached(records: &[Record]) -> Reached {
    let mut reached = Reached::default();
    for record in records {
        let Some(tool) = &record.tool else { continue };
        if record.kind == Some(Kind::Derived)
            && record.outcome != Outcome::RpcError
            && let Some(verb) = &record.verb
        {
            reached.derived.insert(verb.clone());
        }
        if record.outcome == Outcome::Ok {
            let session = reached.tools.entry(record.project.clone()).or_default();
            session.insert(tool.clone());
        }
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Side, Surface};

    fn record(side: Side, kind: Option<Kind>, verb: &str, tool: &str, outcome: Outcome) -> Record {
        let mut r = Record::new(side, Surface::Cli, outcome, 1.0);
        r.kind = kind;
        r.verb = (!verb.is_empty()).then(|| verb.to_owned());
        r.tool = (!tool.is_empty()).then(|| tool.to_owned());
        r.project = Some("p1".to_owned());
        r
    }

    /// A derived verb is reached by the name mur ran it under; a tool that answered,
    /// by its own name in its session's set; a word that found no tool, a tool the
    /// session said it lacks, and a call that failed show nothing.
    #[test]
    fn derived_verbs_and_the_tools_that_answered_are_reached() {
        let mut other = record(Side::Server, None, "", "take_screenshot", Outcome::Ok);
        other.project = None;
        let records = [
            record(
                Side::Cli,
                Some(Kind::Derived),
                "get-sum",
                "get-sum",
                Outcome::UsageError,
            ),
            record(Side::Cli, Some(Kind::Derived), "echo", "echo", Outcome::Ok),
            // No session: the word typed, no tool found.
            record(
                Side::Cli,
                Some(Kind::Derived),
                "ech",
                "",
                Outcome::SessionError,
            ),
            record(
                Side::Cli,
                Some(Kind::Derived),
                "stale",
                "stale",
                Outcome::RpcError,
            ),
            record(
                Side::Cli,
                Some(Kind::Unknown),
                "getSum",
                "",
                Outcome::UsageError,
            ),
            record(Side::Server, None, "", "nosuch", Outcome::ToolError),
            record(
                Side::Cli,
                Some(Kind::Call),
                "call",
                "read_file",
                Outcome::Ok,
            ),
            other,
        ];
        let reached = reached(&records);
        assert_eq!(
            reached.derived.iter().collect::<Vec<_>>(),
            ["echo", "get-sum"]
        );
        let tools: Vec<(Option<&str>, Vec<&str>)> = reached
            .tools
            .iter()
            .map(|(p, t)| (p.as_deref(), t.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            tools,
            [
                (None, vec!["take_screenshot"]),
                (Some("p1"), vec!["echo", "read_file"])
            ]
        );
    }
}
