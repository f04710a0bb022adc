//! The operator's report over usage records: per verb, per tool and per
//! surface, what was called, how it ended and how long it took; the shapes of
//! argv the verbs refused; the verbs asked for that do not exist; the tools no
//! named verb reached; and the losers, each with the command that removes it.
//!
//! Each call is counted once per side: records of side `cli` are the calls as
//! mur saw them, records of side `server` the calls as the session served
//! them (surface `cli` when the client was mur, else `mcp`). A mur call seen
//! by both is one call in each view, never two in one.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::clock::Since;
use crate::losers::{Installed, Judged, Loser, LoserRule, Window, losers};
use crate::reached::Reached;
use crate::record::{Kind, NOT_A_NAME, Outcome, Record, Side, Surface, of_agent};
use crate::refused::{Refused, cell, refused};

/// The `schema` field of `usage report --json`.
const REPORT_SCHEMA: &str = "mur-usage-report/1";

/// What to report on and what makes a loser.
#[derive(Debug, Clone, Default)]
pub struct Criteria {
    /// Only records at or after this time (`--since`); the window.
    pub since: Option<Since>,
    /// The window the losers are judged over (`--unused-for`): a verb with no call
    /// at or after this time is unused, when the log reaches back past it and the
    /// verb was installed before it; a verb's usage-error rate is that of its calls
    /// in it. `None`: the window (`since`), else the whole log. `usage report` and
    /// `verbs prune` judge by the same one (30 days by default), so they name the
    /// same losers. Over the logs named alone (`logs_read.only_named`), those logs are
    /// the record: a window begun before their first record is judged from it, one that
    /// ends after their last (`until`, else now) is not judged, and every installed verb
    /// is judged, whenever it was added here. (mur's CLI ends such a window at their last
    /// record unless `--until` is given: `until` is then that record's time.)
    pub unused_since: Option<Since>,
    /// Only records of this agent (`--agent`).
    pub agent: Option<String>,
    /// What makes a verb refused or failing too often a loser.
    pub rule: LoserRule,
    /// The verbs installed now (losers are among them).
    pub installed: Vec<Installed>,
    /// When recording was off (`usage off` to `usage on`; no end while it still is):
    /// the calls then are in no record, so a window that overlaps one is not one a
    /// verb can be judged unused over ([`crate::UsageDir::off_periods`]).
    pub off_periods: Vec<OffPeriod>,
    /// Where the window ends (`--until`, in mur's form), when not now: a study's logs
    /// read days later are judged over their own span, not over days of no record. The
    /// records after it are left out; `since` and `unused_since` count back from it.
    pub until: Option<String>,
    /// The words that are verbs now beside the installed ones (mur's own commands): a
    /// verb asked for that is one of these, or installed since, is a wish granted, no
    /// longer among the verbs that do not exist ([`Report::unknown_verbs`]).
    pub known_words: Vec<String>,
    /// Which logs the records were read from, as the report says ([`Report::logs_read`]).
    pub logs_read: LogsRead,
    /// Only these installed verbs are judged (`--only-verbs`; `None`: every one): a
    /// study's, whose logs say nothing of a verb its runs never had installed (one added
    /// here since would be "never used in the logs named").
    pub only_verbs: Option<Vec<String>>,
}

/// A period recording was off, as a report names it: from `usage off` to `usage on`
/// (`to`: none while it still is).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OffPeriod {
    pub from: String,
    pub to: Option<String>,
}

/// Counts and latencies of one verb, tool or surface.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<Kind>,
    pub calls: u64,
    pub ok: u64,
    pub usage_errors: u64,
    pub tool_failures: u64,
    /// The server answered a JSON-RPC error instead of a result: most often it has no
    /// such tool. No tool ran, so no tool failed.
    pub rpc_errors: u64,
    pub plugin_failures: u64,
    /// No session, or it could not be reached; mur's own failures.
    pub other_failures: u64,
    /// Calls the user stopped (Ctrl-C, SIGTERM): no failure, and no latency.
    pub interrupted: u64,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub last_used: String,
    #[serde(skip)]
    durations: Vec<f64>,
}

impl Row {
    /// Its figures as a table's cells, in the tables' order: calls, ok, usage errors,
    /// tool failures, rpc errors, plugin and other failures, interrupted, p50 and p90
    /// ms (`–` when no call of its reached the tool and ended: a `0` read as a verb
    /// that answers at once), last used.
    pub fn figures(&self) -> [String; 11] {
        let latency = |ms: f64| match self.timed() {
            true => ms.to_string(),
            false => "–".to_owned(),
        };
        [
            self.calls.to_string(),
            self.ok.to_string(),
            self.usage_errors.to_string(),
            self.tool_failures.to_string(),
            self.rpc_errors.to_string(),
            self.plugin_failures.to_string(),
            self.other_failures.to_string(),
            self.interrupted.to_string(),
            latency(self.p50_ms),
            latency(self.p90_ms),
            self.last_used.clone(),
        ]
    }

    /// Whether any call of its reached the tool and ended: its latency is theirs
    /// (`p50_ms` and `p90_ms` are 0 without one).
    pub fn timed(&self) -> bool {
        !self.durations.is_empty()
    }

    fn named(name: &str, kind: Option<Kind>) -> Self {
        Self {
            name: name.to_owned(),
            kind,
            ..Self::default()
        }
    }

    fn add(&mut self, record: &Record) {
        self.calls += 1;
        match record.outcome {
            Outcome::Ok => self.ok += 1,
            Outcome::UsageError => self.usage_errors += 1,
            Outcome::ToolError => self.tool_failures += 1,
            // As the record says it: a name the session does not have is no tool of
            // its that failed.
            Outcome::RpcError => self.rpc_errors += 1,
            Outcome::PluginError => self.plugin_failures += 1,
            Outcome::SessionError | Outcome::InternalError => self.other_failures += 1,
            Outcome::Interrupted => self.interrupted += 1,
        }
        // A refused argv, no session: a few milliseconds that say nothing of the
        // verb's calls; a call stopped, how long the user waited. Latency is of the
        // calls that reached the tool and ended.
        if reached(record) && record.outcome != Outcome::Interrupted {
            self.durations.push(record.ms);
        }
        if record.time > self.last_used {
            self.last_used.clone_from(&record.time);
        }
    }

    fn finish(mut self) -> Self {
        self.durations.sort_by(f64::total_cmp);
        self.p50_ms = percentile(&self.durations, 50);
        self.p90_ms = percentile(&self.durations, 90);
        self
    }
}

/// `value` rounded to hundredths: how every figure of a report (and of the evaluation
/// suite's) is written.
/// A value too large to scale (past `f64::MAX / 100`) is already whole: it is kept,
/// never turned into infinity.
pub fn round2(value: f64) -> f64 {
    let scaled = value * 100.0;
    if scaled.is_finite() {
        scaled.round() / 100.0
    } else {
        value
    }
}

/// Nearest-rank percentile, rounded to 0.01 ms; 0 for no samples.
fn percentile(sorted: &[f64], p: usize) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p * sorted.len()).div_ceil(100).max(1);
    round2(sorted[rank - 1])
}

/// An installed named verb whose every call in the window that the session answered,
/// it answered with a JSON-RPC error (`rpc-error`): no tool ran for it, most often as
/// the sessions it was called on have no tool of its name — a verb for another app, or
/// a tool its app renamed. Never a loser (`verbs prune` would remove a verb meant for
/// another app's session): the report names it, so it is not left unseen among the
/// verbs' rows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NoToolRan {
    pub verb: String,
    pub kind: Kind,
    /// The tool its calls asked for (the tools, comma-separated, when its versions
    /// asked for several).
    pub tool: String,
    /// Its calls the sessions answered: every one a JSON-RPC error.
    pub calls: u64,
    /// How many sessions (projects) answered them so.
    pub sessions: u64,
    pub last: String,
}

impl NoToolRan {
    /// Its cells in the report's tables: the verb and kind, the tool, calls, sessions,
    /// the last call.
    pub fn cells(&self) -> Vec<String> {
        vec![
            format!("{} ({})", self.verb, self.kind.as_str()),
            cell(self.tool.clone()),
            self.calls.to_string(),
            self.sessions.to_string(),
            self.last.clone(),
        ]
    }
}

/// What `server/cli` against `server/mcp` compares, said under every rendering's
/// surfaces ([`Report::sides_explained`]): how often each surface was used, a
/// preference only where the same agents were offered both.
const SURFACES_COMPARED: &str = "`server/cli` against `server/mcp` is how often each was \
     used: a preference only where the same agents were offered both, not across a study's \
     CLI-only and MCP-only runs";

/// The headings of the two groups every rendering shows the surfaces in
/// ([`Report::surface_groups`]): the sessions' (one row per surface, the comparison), then
/// mur's (by verb kind, the same calls again where both sides were read).
pub const SURFACE_GROUPS: [&str; 2] = [
    "as the sessions served them (one row per surface)",
    "as mur ran them (by verb kind)",
];

/// What every rendering says of the named verbs no tool ran for ([`NoToolRan`]), under
/// its heading: what the rows are, and why none is a loser.
pub const NO_TOOL_RAN: &str = "every call of theirs the session answered was a JSON-RPC \
     error: no tool ran, most often as the session has no tool of that name (a verb for \
     another app, or a tool renamed; `mur devtools catalog` on the session lists its tools); \
     not losers";

/// The name of the one row of each tools table that counts the calls of a name no tool
/// of the session has and none could be named (a value typed or sent where a tool's name
/// goes), which their records keep as `WORD` ([`NOT_A_NAME`]): a row named `WORD` read as
/// a tool of that name.
const NO_KNOWN_TOOL: &str = "(not a known tool)";

/// What every rendering says of the [`NO_KNOWN_TOOL`] row, beside the tools tables.
const NO_KNOWN_TOOL_EXPLAINED: &str = "`(not a known tool)` counts the calls of names \
     no tool of the session has and none could be named (a value typed or sent where a \
     tool's name goes), which a record never keeps; a name shaped like a tool's is a row of \
     its own even when no tool has it";

/// Which logs a report was made of, each file once, by the path it was read by
/// (absolute, as every rendering names it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LogsRead {
    /// mur's own log: its live file's path, when there is one (none for the moment
    /// after a rotation, before the next record).
    pub mur: Option<String>,
    /// The rotated files of mur's own log read beside it (`usage.jsonl.1` …), oldest
    /// first: records came from them too, and a report names every file it read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mur_rotated: Vec<String>,
    /// The sessions' own logs, found without being named.
    pub sessions: Vec<String>,
    /// The logs named with `--server-log`.
    pub server_logs: Vec<String>,
    /// Whether those were all it read (`--only-named`): mur's own log and the sessions'
    /// found beside it were not (`mur` null then says not read, not "no file yet").
    pub only_named: bool,
}

/// What `usage report` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub schema: &'static str,
    /// The window's start (`--since`), if any; the first and last record in it.
    pub since: Option<String>,
    /// The window's end (`--until`), when it is not now: the records after it are left
    /// out, and `since` and `unused_since` count back from it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// How the report was made, beside the window: the agent it is of (`--agent`;
    /// `None`: every agent), and what makes a verb refused or failing too often —
    /// its [`LoserRule`], whose fields stand at the report's top level — so a saved
    /// report of one agent never reads as all agents'.
    pub agent: Option<String>,
    #[serde(flatten)]
    pub rule: LoserRule,
    pub first: Option<String>,
    pub last: Option<String>,
    pub records: u64,
    /// Lines of the logs that were not records (a torn last line, other text).
    pub skipped_lines: u64,
    /// The logs the records were read from, as the reader of the logs names them
    /// ([`Criteria::logs_read`]), so a page or a saved table can be traced to its inputs.
    pub logs_read: LogsRead,
    /// Per verb (side `cli`): named, data, derived, `call` and host commands.
    pub verbs: Vec<Row>,
    /// Per tool, side `cli`: the calls mur made (those of a name its record did not
    /// keep, `WORD`, in one row: `NO_KNOWN_TOOL`).
    pub tools_cli: Vec<Row>,
    /// Per tool, side `server`: the calls the session served, any client (as
    /// `tools_cli`, those of a name its record did not keep in one row).
    pub tools_served: Vec<Row>,
    /// Per client, side `server`: the calls the sessions served each MCP client
    /// (its `clientInfo`, `name version`; `(unnamed)` when none was given), mur's
    /// among them: which agent hosts used which surface.
    pub clients_served: Vec<Row>,
    /// Per surface: `cli/plugin`, `cli/data`, `cli/derived`, `cli/call`,
    /// `cli/host`, `cli/unknown` (as mur saw them); `server/cli`, `server/mcp` (as served).
    pub surfaces: Vec<Row>,
    /// Per verb and shape of argv: the usage errors, most frequent first.
    pub refused: Vec<Refused>,
    /// Words typed in a verb's place that named no verb, command or tool, with the
    /// argv they were typed with: the verbs callers expected, most frequent first; but
    /// for those that are verbs now ([`Criteria::known_words`]).
    pub unknown_verbs: Vec<Refused>,
    /// Tools called on some surface, or behind an installed verb, that no
    /// named verb reached in the window.
    pub tools_without_named_calls: Vec<String>,
    /// Whether any named (plugin or data) verb is installed: without one, every tool
    /// is one no named verb reached ([`Report::tools_no_named_verb_reached`]).
    #[serde(skip)]
    pub named_installed: bool,
    /// Installed named verbs whose every call the sessions answered in the window was
    /// a JSON-RPC error: no tool ran for them.
    pub verbs_no_tool_ran: Vec<NoToolRan>,
    /// The start of the window a verb must go without a call to be unused
    /// (`--unused-for`, else `--since`), if any; with `--only-named`, no earlier than
    /// the first record of the logs named, which are the whole record judged by.
    pub unused_since: Option<String>,
    /// With `--only-named`, when the window began before the logs named did: their
    /// first and last record, which the window is judged over (`unused_since` is the
    /// first), so every rendering says "in the logs named", as a loser's verdict does.
    #[serde(skip)]
    pub unused_in_named: Option<(String, String)>,
    /// With `--only-named`, when the window ends after the last record of the logs named
    /// (an `--until` past them; without one, now, after it): that record's time.
    /// None of them recorded through the window, so no verb is judged unused over it
    /// (`window_covered` is false).
    #[serde(skip)]
    pub named_ended: Option<String>,
    /// With `--only-named`, whether the window ends at the last record of the logs named
    /// (`until` is its time): where it ends without `--until` (and with `--until last`),
    /// which every rendering says ([`Report::ends_at_named_last`]).
    #[serde(skip)]
    pub named_last_ends: bool,
    /// When the window ends after now and after the newest record read (`--until` some
    /// hours ahead, inside the day of slack a record may bear): the later of the two, the
    /// last time a log can have recorded. No log recorded through the window, so no verb
    /// is judged unused over it (`window_covered` is false).
    #[serde(skip)]
    pub window_ahead_of: Option<String>,
    /// Whether the log (of `--agent`, if given) reaches back past `unused_since`
    /// (without one: holds any record): only then is a verb with no call since
    /// unused, and a loser for it.
    pub window_covered: bool,
    /// Whether the log (of `--agent`, if given) reaches back past `unused_since`,
    /// whatever time recording was off: with no such time, `window_covered`. What
    /// else than `recording_off` keeps verbs from being judged unused.
    #[serde(skip)]
    pub reaches_back: bool,
    /// The latest period recording was off (`usage off`) that overlaps the window a
    /// verb goes unused in: the calls then are in no record. While it still is (no
    /// `to`), no verb is judged unused (`window_covered` is false); once ended, the
    /// window was lengthened back by the time recording was off in it
    /// (`unused_since` is that much earlier), so a verb goes unused for as long as
    /// asked of recorded time: a moment's `usage off` no longer keeps every verb
    /// from being judged for the whole window.
    pub recording_off: Option<OffPeriod>,
    /// Installed named verbs with no call in the unused window that were added
    /// after it began: too recent to be judged unused, so no losers for it.
    pub added_in_window: Vec<String>,
    /// The verbs judged, when not every installed one was (`--only-verbs`: the names
    /// given, as given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub only_verbs: Option<Vec<String>>,
    /// With `--only-verbs`, the installed named verbs it left unjudged, by name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_judged: Vec<String>,
    /// With `--agent`: the sessions' records in the window, left out because a
    /// session's record names no agent (0 without `--agent`).
    pub server_records_left_out: u64,
    /// When a bridge's own records were read (`bridge --usage`): the records its stdio
    /// server kept of the calls the bridge forwarded (client `mur-bridge …`), left out
    /// of every figure, as the bridge's records count those calls (0 otherwise).
    pub forwarded_left_out: u64,
    /// Every agent that drove mur in the logs, at any time: the names `--agent` takes.
    pub agents: Vec<String>,
    pub losers: Vec<Loser>,
    /// The verbs of the sessions' tools the records show were there, whatever the
    /// window and agent: what a word asked for is near ([`Refused::nearest`]).
    #[serde(skip)]
    pub reached: Reached,
}

impl Report {
    /// How many records the report counts, as every rendering says it: `1 record`,
    /// `2 records`, `0 records`.
    pub fn records_counted(&self) -> String {
        match self.records {
            1 => "1 record".to_owned(),
            n => format!("{n} records"),
        }
    }

    /// That no record was counted, said plainly by every rendering (`None` when some
    /// were): the logs read hold none (of `--agent`, since `--since`), so no table has
    /// a row and no tool is listed as one no named verb reached — with no call read,
    /// every installed verb's tool would be.
    pub fn no_record(&self) -> Option<String> {
        if self.records > 0 {
            return None;
        }
        let whose = match &self.agent {
            Some(agent) => format!(" of agent `{agent}`"),
            None => String::new(),
        };
        let since = match &self.since {
            Some(since) => format!(" since {since}"),
            None => String::new(),
        };
        Some(format!(
            "no record to report: the logs read hold none{whose}{since}"
        ))
    }

    /// The tools no named verb reached, as every rendering lists them (the table, the
    /// page): `None` when there are none, or when no named verb is installed (someone
    /// who only bridges stdio servers), for then it would be every tool, which says
    /// nothing. The JSON keeps `toolsWithoutNamedCalls` whole.
    pub fn tools_no_named_verb_reached(&self) -> Option<&[String]> {
        let listed = self.named_installed && !self.tools_without_named_calls.is_empty();
        listed.then_some(self.tools_without_named_calls.as_slice())
    }

    /// The rows of its two tables of argv shapes, as every rendering prints them: the
    /// argv the verbs refused (argv, times, last), then the verbs asked for that do not
    /// exist (the same, and the nearest verb).
    pub fn argv_rows(&self) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
        let refused = self.refused.iter().map(Refused::cells).collect();
        let asked = self.unknown_verbs.iter().map(Refused::cells_with_nearest);
        (refused, asked.collect())
    }

    /// The rows of its table of the named verbs no tool ran for, as every rendering
    /// prints it: verb (kind), tool, calls, sessions, last ([`NoToolRan::cells`]).
    pub fn no_tool_ran_rows(&self) -> Vec<Vec<String>> {
        self.verbs_no_tool_ran
            .iter()
            .map(NoToolRan::cells)
            .collect()
    }

    /// What `--agent` left out: the sessions' records in the window, which name no
    /// agent. Said by every rendering (stderr beside the table and the JSON, the
    /// page among how the report was made), so one agent's report never reads as
    /// holding every record.
    pub fn server_records_not_counted(&self) -> Option<String> {
        (self.server_records_left_out > 0).then(|| {
            format!(
                "`--agent` leaves out the sessions' {} record(s): a session's record names no agent",
                self.server_records_left_out
            )
        })
    }

    /// What was left out as a bridged server's records of the calls its bridge
    /// forwarded, said by every rendering (`None`: nothing).
    pub fn forwarded_not_counted(&self) -> Option<String> {
        (self.forwarded_left_out > 0).then(|| {
            format!(
                "{} record(s) a bridged server kept of calls its bridge forwarded (client \
                 `mur-bridge`) are left out: the bridge's own records count those calls",
                self.forwarded_left_out
            )
        })
    }

    /// What the `NO_KNOWN_TOOL` row of a tools table is, when one has it.
    pub fn unknown_tools_explained(&self) -> Option<&'static str> {
        let mut rows = self.tools_cli.iter().chain(&self.tools_served);
        rows.any(|row| row.name == NO_KNOWN_TOOL)
            .then_some(NO_KNOWN_TOOL_EXPLAINED)
    }

    /// How to read the surfaces: when both sides are in them, a call of mur's to a
    /// session that records usage is counted once as mur made it (`cli/…`) and once
    /// as the session served it (`server/cli`), so the surfaces are compared on the
    /// session's side; and what that comparison is. Over a study's logs `server/cli`
    /// against `server/mcp` is the CLI-only runs against the MCP-only runs (operator
    /// audit 279): how often each surface was used, never on its own which one agents
    /// prefer. `None` while neither applies (one side, one surface).
    pub fn sides_explained(&self) -> Option<String> {
        let has = |name: &str| self.surfaces.iter().any(|row| row.name.starts_with(name));
        let both_sides = has("cli/") && has("server/");
        let both_surfaces = has("server/cli") && has("server/mcp");
        let mut said = Vec::new();
        // The groups' headings say which is which ([`SURFACE_GROUPS`]).
        if both_sides {
            said.push("a call of mur's to a session that records usage is in both groups");
        }
        if both_sides || both_surfaces {
            said.push(SURFACES_COMPARED);
        }
        (!said.is_empty()).then(|| said.join("; "))
    }

    /// The surfaces in the groups every rendering shows them in, each under its heading of
    /// [`SURFACE_GROUPS`]: as the sessions served them (`server/…`: `server/cli` against
    /// `server/mcp`, the comparison an operator reads them for), then as mur ran them
    /// (`cli/…`, by verb kind), which count the same calls again where both sides were
    /// read (review 608 #10: sorted by calls alone, the two interleaved). Busiest first
    /// in each; a group with no row is left out.
    pub fn surface_groups(&self) -> Vec<(&'static str, Vec<Row>)> {
        let [served, ran] = SURFACE_GROUPS;
        let of = |prefix: &str| -> Vec<Row> {
            (self.surfaces.iter())
                .filter(|row| row.name.starts_with(prefix))
                .cloned()
                .collect()
        };
        [(served, of("server/")), (ran, of("cli/"))]
            .into_iter()
            .filter(|(_, rows)| !rows.is_empty())
            .collect()
    }

    /// What every rendering says beside the losers: that the window was lengthened
    /// for a time recording was off in it ([`Report::recording_was_off`]), and why
    /// verbs were not judged unused ([`Report::unused_not_judged`]).
    pub fn beside_losers(&self) -> Vec<String> {
        [
            self.recording_was_off(),
            self.unused_not_judged(),
            self.others_not_judged(),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// That recording was off (`usage off` to `usage on`) in the window verbs go unused
    /// in, and that the window begins as much earlier for it (`None`: it was not, or
    /// still is, which [`Report::unused_not_judged`] says).
    pub fn recording_was_off(&self) -> Option<String> {
        let off = self.recording_off.as_ref()?;
        let (to, since) = (off.to.as_ref()?, self.unused_since.as_ref()?);
        // With `--since`, the tables keep the window asked for: the two starts a report
        // prints differ by the time off, and each says whose it is.
        let tables = match &self.since {
            Some(asked) if asked != since => {
                format!(" for the losers (the tables count from {asked}, the window asked for)")
            }
            _ => String::new(),
        };
        Some(format!(
            "recording was off (`usage off`) in the window, latest from {} to {to}: the \
             calls then are in no record, so the window begins as much earlier, at \
             {since}{tables}",
            off.from
        ))
    }

    /// That the installed verbs `--only-verbs` did not name were not judged, by name
    /// (`None`: it named every one, or was not given): a saved report never reads as
    /// "no other verb is a loser".
    pub fn others_not_judged(&self) -> Option<String> {
        (!self.not_judged.is_empty()).then(|| {
            format!(
                "only the verbs `--only-verbs` named were judged; not judged: {}",
                self.not_judged.join(", ")
            )
        })
    }

    /// That the window ends at the last record of the logs named (`--only-named`), as it
    /// does without `--until` ([`Report::named_last_ends`]): said beside the window by
    /// every rendering, so a window that does not end now never reads as one that does.
    pub fn ends_at_named_last(&self) -> Option<String> {
        let last = self.until.as_ref().filter(|_| self.named_last_ends)?;
        Some(format!(
            "the logs named end at {last}: the window ends there; `--until` sets another end"
        ))
    }

    /// That no verb was judged unused as the logs named (`--only-named`) end before the
    /// window ends (at `--until`, else now), or (said so) begins ([`Report::named_ended`]):
    /// said as the reason by every rendering and by `verbs prune`, with the way to judge
    /// over them.
    pub fn named_logs_ended(&self) -> Option<String> {
        let last = self.named_ended.as_ref()?;
        // mur's CLI ends their window there without `--until`; a caller of this library
        // may not.
        let (end, way) = match &self.until {
            Some(until) => (
                format!("at {until}"),
                "without `--until`, or with `--until last`, the window ends at their last record",
            ),
            None => (
                "now".to_owned(),
                "`--until last` ends the window at their last record",
            ),
        };
        if let Some(since) = self.unused_since.as_ref().filter(|since| *since > last) {
            return Some(format!(
                "no verb was judged unused: the logs named end at {last}, before the window \
                 begins at {since}, so none of them recorded a call in it ({way})"
            ));
        }
        Some(format!(
            "no verb was judged unused: the logs named end at {last}, before the window ends \
             {end}, so none of them recorded a call in all of it ({way})"
        ))
    }

    /// That no verb was judged unused as the window ends, or (said so) begins, after now
    /// and after the newest record read ([`Report::window_ahead_of`]): said as the reason
    /// by every rendering and by `verbs prune`, with the way to judge over the records read.
    pub fn window_ahead(&self) -> Option<String> {
        let (to, since) = (self.window_ahead_of.as_ref()?, self.unused_since.as_ref()?);
        if let Some(until) = self.until.as_ref().filter(|_| since <= to) {
            return Some(format!(
                "no verb was judged unused: the window ends at {until}, after {to} (now, or \
                 the newest record read if later), so no log has recorded a call in all of it \
                 yet (`--until last` ends the window at the newest record, as does an \
                 `--until` no later than now)"
            ));
        }
        Some(format!(
            "no verb was judged unused: the window begins at {since}, after {to} (now, or the \
             newest record read if later), so no log has recorded a call in it yet (`--until \
             last` ends the window at the newest record)"
        ))
    }

    /// Why verbs without a call were not judged unused: none could be when the
    /// records read (of `--agent`, if given) do not go back past `unused_since`;
    /// those added after it began (`added_in_window`) were not there for all of
    /// it. Said beside the losers by every rendering, so a page or a saved table
    /// never reads as "no verb is unused".
    pub fn unused_not_judged(&self) -> Option<String> {
        if let Some(off) = self.recording_off.as_ref().filter(|off| off.to.is_none()) {
            return Some(format!(
                "no verb was judged unused: recording is off (`usage off`) since {}: \
                 the calls since are in no record",
                off.from
            ));
        }
        if let Some(ended) = self.named_logs_ended() {
            return Some(ended);
        }
        if let Some(ahead) = self.window_ahead() {
            return Some(ahead);
        }
        if !self.window_covered {
            let reach = match &self.unused_since {
                Some(since) => format!("do not go back to {since}"),
                None => "hold no record of mur's".to_owned(),
            };
            return Some(format!(
                "no verb was judged unused: the records read {reach}"
            ));
        }
        if self.added_in_window.is_empty() {
            return None;
        }
        let began = match &self.unused_since {
            Some(since) => format!("since {since}"),
            None => "since the log began".to_owned(),
        };
        Some(format!(
            "not judged unused, added {began} (after the window began): {}",
            self.added_in_window.join(", ")
        ))
    }
}

/// The report over `records` (`skipped` lines could not be read).
pub fn report(records: &[Record], skipped: usize, criteria: &Criteria) -> Report {
    // Where the window may end, of every record read (those after `--until` too).
    let to = recorded_to(records, criteria.logs_read.only_named);
    // A window that ends before now: the report over what came before its end, as
    // if made then (a time recording went off after it hid nothing in it).
    if let Some(until) = &criteria.until {
        let before: Vec<Record> = records
            .iter()
            .filter(|r| r.time <= *until)
            .cloned()
            .collect();
        let then = Criteria {
            until: None,
            // Off past its end: off up to it.
            off_periods: (criteria.off_periods.iter())
                .filter(|period| period.from <= *until)
                .map(|period| OffPeriod {
                    from: period.from.clone(),
                    to: Some(period.to.as_ref().map_or(until, |to| to.min(until)).clone()),
                })
                .collect(),
            ..criteria.clone()
        };
        // Where the logs named end (`to`, their newest record): without `--until`, the CLI
        // ends their window there.
        let named_last_ends = criteria.logs_read.only_named && to.as_ref() == Some(until);
        return Report {
            until: Some(until.clone()),
            named_last_ends,
            ..judge(&before, skipped, &then, Some(until), to)
        };
    }
    judge(records, skipped, criteria, None, to)
}

/// The report over `records` (`skipped` lines could not be read) in a window that ends at
/// `until` (`None`: now), which a log can have recorded through up to `to`
/// ([`recorded_to`]).
fn judge(
    records: &[Record],
    skipped: usize,
    criteria: &Criteria,
    until: Option<&String>,
    to: Option<String>,
) -> Report {
    // A stdio server behind a bridge that records too keeps its own record of each
    // call the bridge forwarded (its client `mur-bridge …`): the same call as the
    // bridge's record, counted once, as the bridge's.
    let bridged = records.iter().any(|r| r.side == Side::Server && r.bridge);
    let forwarded = |r: &Record| bridged && r.forwarded_by_bridge();
    let chosen: Vec<&Record> = records
        .iter()
        .filter(|r| admitted(r, criteria) && !forwarded(r))
        .collect();
    let forwarded_left_out = records
        .iter()
        .filter(|r| admitted(r, criteria) && forwarded(r))
        .count() as u64;
    let cli = || chosen.iter().copied().filter(|r| r.side == Side::Cli);
    let served = || chosen.iter().copied().filter(|r| r.side == Side::Server);
    // An unknown verb ran nothing: it has its own list, not a row among the verbs.
    let verbs = rows(cli().filter(|r| !unknown(r)), |r| {
        r.verb.clone().map(|v| (v, r.kind))
    });
    let asked = criteria.unused_since.as_ref().or(criteria.since.as_ref());
    let agent = criteria.agent.as_deref();
    // With `--only-named`, the logs named are the whole record the caller judges by (a
    // study's, which begin inside any window that covers the study): a window begun
    // before their first record is judged over their span, covered by them.
    // Any record of theirs is one of the record: a session's too (a study's
    // `calls.jsonl`), as mur's own is not read.
    let only_named = criteria.logs_read.only_named;
    let named = only_named.then(|| span(records, agent)).flatten();
    let named_span =
        (named.clone()).filter(|(first, _)| asked.is_none_or(|since| since.admits(first)));
    let clipped = named_span.as_ref().map(|(first, _)| Since(first.clone()));
    // The time recording was off in the window is in no record: the window is lengthened
    // back by as long, so a verb goes unused for as long as asked of recorded time.
    let lengthened = clipped
        .as_ref()
        .or(asked)
        .map(|since| off_passed(since, criteria));
    let unused_since = lengthened.as_ref();
    let recording_off = off_in(&criteria.off_periods, unused_since);
    // A window is covered only up to where a log can have recorded (`to`): past it, every
    // verb would seem unused (a `--until` hours ahead, inside the day of slack a record may
    // bear, that `Until::parse` takes; a study's logs judged over a window past them). Its
    // end is `--until`; without one it is now, which mur's live log records up to, but the
    // logs named (`--only-named`) may have ended before: there, a window that ends after
    // their last record (now, without `--until`) is one none of them recorded through,
    // wherever it begins (a window begun seconds before a finished study's last record
    // was judged over those seconds alone). mur's CLI ends their window at their last
    // record unless `--until` is given, so only an `--until` past them is such a window.
    let end = match (until, only_named) {
        (Some(until), _) => Some(Since(until.clone())),
        (None, true) => Some(Since(crate::clock::now_millis())),
        (None, false) => None,
    };
    let unrecorded = to.filter(|to| end.as_ref().is_some_and(|end| !end.admits(to)));
    let (named_ended, window_ahead_of) = match only_named {
        true => (unrecorded, None),
        false => (None, unrecorded),
    };
    let reaches_back = window_ahead_of.is_none()
        && match only_named {
            true => named.is_some() && named_ended.is_none(),
            false => window_covered(records, agent, unused_since),
        };
    // Still off: the calls since are in no record, and no time after them is.
    let still_off = recording_off.as_ref().is_some_and(|off| off.to.is_none());
    let covered = !still_off && reaches_back;
    let mut window = Window::new(records, agent, unused_since, covered);
    if only_named {
        window = window.of_logs_named(named_span.clone());
    }
    // `--only-verbs`: the others are not judged, and said not to be.
    let (judged, not_judged): (Vec<Installed>, Vec<Installed>) =
        (criteria.installed.iter().cloned()).partition(|verb| {
            (criteria.only_verbs.as_ref()).is_none_or(|only| only.contains(&verb.name))
        });
    let not_judged: Vec<String> = (not_judged.into_iter())
        .filter(|verb| verb.kind.is_named())
        .map(|verb| verb.name)
        .collect();
    let Judged {
        losers,
        added_in_window,
    } = losers(&window, &judged, &criteria.rule);
    // A session's record names no agent: `--agent` leaves every one out.
    let server_records_left_out = match criteria.agent {
        Some(_) => records
            .iter()
            .filter(|r| r.side == Side::Server)
            .filter(|r| criteria.since.as_ref().is_none_or(|s| s.admits(&r.time)))
            .count() as u64,
        None => 0,
    };
    let (mut unknown_verbs, refused): (Vec<Refused>, Vec<Refused>) = refused(cli())
        .into_iter()
        .partition(|r| r.kind == Some(Kind::Unknown));
    unknown_verbs.retain(|asked| !is_verb_now(criteria, &asked.verb));
    Report {
        schema: REPORT_SCHEMA,
        since: criteria.since.as_ref().map(|s| s.0.clone()),
        until: None,
        agent: criteria.agent.clone(),
        rule: criteria.rule,
        unused_since: unused_since.map(|s| s.0.clone()),
        unused_in_named: named_span,
        named_ended,
        named_last_ends: false,
        window_ahead_of,
        first: chosen.iter().map(|r| &r.time).min().cloned(),
        last: chosen.iter().map(|r| &r.time).max().cloned(),
        records: chosen.len() as u64,
        skipped_lines: skipped as u64,
        logs_read: criteria.logs_read.clone(),
        // The tools mur called: an invocation refused before any call called none.
        tools_cli: rows(cli().filter(|r| reached(r)), tool_row),
        tools_served: rows(served(), tool_row),
        clients_served: rows(served(), |r| {
            let client = r.client.clone().unwrap_or_else(|| "(unnamed)".to_owned());
            Some((client, None))
        }),
        surfaces: rows(chosen.iter().copied(), |r| Some((surface_of(r), None))),
        refused,
        unknown_verbs,
        tools_without_named_calls: without_named_calls(&chosen, criteria),
        named_installed: !criteria.installed.is_empty(),
        verbs_no_tool_ran: no_tool_ran(&chosen, &criteria.installed),
        verbs,
        window_covered: covered,
        reaches_back,
        recording_off,
        added_in_window,
        only_verbs: criteria.only_verbs.clone(),
        not_judged,
        server_records_left_out,
        forwarded_left_out,
        agents: agents(records),
        losers,
        reached: crate::reached::reached(records),
    }
}

/// Whether `word` is a verb now: installed, or one of the [`Criteria::known_words`].
fn is_verb_now(criteria: &Criteria, word: &str) -> bool {
    criteria.installed.iter().any(|v| v.name == word)
        || criteria.known_words.iter().any(|known| known == word)
}

/// The agents of mur's records, sorted.
fn agents(records: &[Record]) -> Vec<String> {
    let mine = records.iter().filter(|r| r.side == Side::Cli);
    let names: BTreeSet<&String> = mine.filter_map(|r| r.agent.as_ref()).collect();
    names.into_iter().cloned().collect()
}

/// Whether mur's log reaches back past the window a verb must go unused: a record
/// of side `cli` (of `agent`, if given) older than `since`, or any at all without
/// one. A log begun yesterday says nothing of a month.
fn window_covered(records: &[Record], agent: Option<&str>, since: Option<&Since>) -> bool {
    let mut mine = records
        .iter()
        .filter(|r| r.side == Side::Cli && of_agent(r, agent));
    match since {
        Some(since) => mine.any(|r| !since.admits(&r.time)),
        None => mine.next().is_some(),
    }
}

/// The last time a log can have recorded by: now, or the newest of `records` when it is
/// later (a record from a clock ahead of ours, by up to the day a record may bear); with
/// `only_named`, the newest of `records` alone, as the logs named may have ended before
/// (`None`: they hold no record).
fn recorded_to(records: &[Record], only_named: bool) -> Option<String> {
    let newest = records.iter().map(|r| &r.time).max().cloned();
    if only_named {
        return newest;
    }
    let now = crate::clock::now_millis();
    Some(newest.filter(|newest| *newest > now).unwrap_or(now))
}

/// The first and last record of `records` that count for `agent`'s verbs (with
/// `agent`, mur's records of it: a session's names no agent), if any.
fn span(records: &[Record], agent: Option<&str>) -> Option<(String, String)> {
    let times = || {
        (records.iter())
            .filter(|r| agent.is_none() || r.side == Side::Cli && of_agent(r, agent))
            .map(|r| &r.time)
    };
    Some((times().min()?.clone(), times().max()?.clone()))
}

/// The window begun at `since` lengthened back by the ended periods recording was off
/// in it ([`Since::lengthened`]).
fn off_passed(since: &Since, criteria: &Criteria) -> Since {
    let ended: Vec<(&str, &str)> = (criteria.off_periods.iter())
        .filter_map(|period| Some((period.from.as_str(), period.to.as_deref()?)))
        .collect();
    since.lengthened(&ended)
}

/// The latest of the `periods` recording was off that overlaps the window begun at
/// `since` (without one, the whole log: any period).
fn off_in(periods: &[OffPeriod], since: Option<&Since>) -> Option<OffPeriod> {
    periods
        .iter()
        .filter(|period| match (since, &period.to) {
            (Some(since), Some(to)) => since.admits(to),
            _ => true,
        })
        .max_by(|a, b| a.from.cmp(&b.from))
        .cloned()
}

fn admitted(record: &Record, criteria: &Criteria) -> bool {
    criteria
        .since
        .as_ref()
        .is_none_or(|s| s.admits(&record.time))
        && of_agent(record, criteria.agent.as_deref())
}

fn unknown(record: &Record) -> bool {
    record.kind == Some(Kind::Unknown)
}

/// The row of the tools tables a record counts in: its tool's, or [`NO_KNOWN_TOOL`]
/// for a name its record did not keep.
fn tool_row(record: &Record) -> Option<(String, Option<Kind>)> {
    let tool = record.tool.as_deref()?;
    let name = if tool == NOT_A_NAME {
        NO_KNOWN_TOOL
    } else {
        tool
    };
    Some((name.to_owned(), None))
}

/// `cli/<kind>` for mur's records, `server/<surface>` for the session's.
fn surface_of(record: &Record) -> String {
    match (record.side, record.surface) {
        (Side::Cli, _) => format!("cli/{}", record.kind.unwrap_or(Kind::Host).as_str()),
        (Side::Server, Surface::Cli) => "server/cli".to_owned(),
        (Side::Server, Surface::Mcp) => "server/mcp".to_owned(),
    }
}

/// Rows keyed by `key` (records without one are left out), busiest first. A
/// name of two kinds is two rows: `click` as a plugin and, once removed, as the
/// derived verb of its tool are two verbs, each judged on its own calls.
fn rows<'a>(
    records: impl Iterator<Item = &'a Record>,
    key: impl Fn(&Record) -> Option<(String, Option<Kind>)>,
) -> Vec<Row> {
    let mut by_key: BTreeMap<(String, Option<Kind>), Row> = BTreeMap::new();
    for record in records {
        if let Some((name, kind)) = key(record) {
            by_key
                .entry((name, kind))
                .or_insert_with_key(|(name, kind)| Row::named(name, *kind))
                .add(record);
        }
    }
    let mut rows: Vec<Row> = by_key.into_values().map(Row::finish).collect();
    rows.sort_by(|a, b| b.calls.cmp(&a.calls).then_with(|| a.name.cmp(&b.name)));
    rows
}

/// Whether the call reached the tool: the server answered it (`ok`, a tool's failure,
/// a JSON-RPC error), or, for a verb that failed (exit 6) or a call the user stopped,
/// mur's record shows its call phase ran (also one stopped just before its request
/// went, rarely). A verb that failed in its `parse`, or was stopped there, called
/// nothing: its time is no latency of the tool's, nor is the tool reached by it.
/// The session's records are calls it served.
fn reached(record: &Record) -> bool {
    match record.outcome {
        Outcome::Ok | Outcome::ToolError | Outcome::RpcError => true,
        Outcome::PluginError | Outcome::Interrupted => {
            record.side == Side::Server || record.phases.as_ref().is_some_and(|p| p.call.is_some())
        }
        Outcome::UsageError | Outcome::SessionError | Outcome::InternalError => false,
    }
}

/// The installed named verbs whose calls in `records` (mur's) the sessions answered,
/// each with a JSON-RPC error ([`NoToolRan`]). A call with no answer (no session, an
/// argv refused, one stopped) says nothing either way.
fn no_tool_ran(records: &[&Record], installed: &[Installed]) -> Vec<NoToolRan> {
    let named = installed.iter().filter(|v| v.kind.is_named());
    named
        .filter_map(|verb| {
            let answered: Vec<&Record> = records
                .iter()
                .copied()
                .filter(|r| r.side == Side::Cli && r.kind == Some(verb.kind))
                .filter(|r| r.verb.as_deref() == Some(verb.name.as_str()))
                .filter(|r| reached(r) && r.outcome != Outcome::Interrupted)
                .collect();
            if answered.is_empty() || answered.iter().any(|r| r.outcome != Outcome::RpcError) {
                return None;
            }
            let tools: BTreeSet<&str> = answered.iter().filter_map(|r| r.tool.as_deref()).collect();
            let sessions: BTreeSet<Option<&str>> =
                answered.iter().map(|r| r.project.as_deref()).collect();
            Some(NoToolRan {
                verb: verb.name.clone(),
                kind: verb.kind,
                tool: tools.into_iter().collect::<Vec<_>>().join(", "),
                calls: answered.len() as u64,
                sessions: sessions.len() as u64,
                last: answered
                    .iter()
                    .map(|r| r.time.clone())
                    .max()
                    .unwrap_or_default(),
            })
        })
        .collect()
}

fn without_named_calls(records: &[&Record], criteria: &Criteria) -> Vec<String> {
    // No record read: no call to count, so none of the installed verbs' tools is one
    // no named verb reached (every one was listed, as if each went unused).
    if records.is_empty() {
        return Vec::new();
    }
    // A name the server answered only with JSON-RPC errors never ran as a tool: most
    // often one the session does not have (`call get-text`), so no verb is owed it. Nor
    // a name typed to `call` that never reached a tool at all ([`reached`]: refused by
    // the HTTP server, 431 for a name too long for a header, a usage error; no session;
    // mur's own failure; stopped before it was sent): junk was listed as a tool. A
    // verb's tool is a name the verb or the session gave, kept. A name its record did
    // not keep (`WORD`: a value, in a call stopped before any answer) is no tool's.
    let ran = records.iter().filter(|r| {
        let unreached = r.kind == Some(Kind::Call) && !reached(r);
        r.outcome != Outcome::RpcError && !unreached
    });
    let named = ran.filter_map(|r| r.tool.clone().filter(|t| t != NOT_A_NAME));
    let mut tools: BTreeSet<String> = named.collect();
    tools.extend(criteria.installed.iter().map(|v| v.tool.clone()));
    for record in records {
        let named = record.kind.is_some_and(Kind::is_named);
        if record.side == Side::Cli
            && named
            && reached(record)
            && let Some(tool) = &record.tool
        {
            tools.remove(tool);
        }
    }
    tools.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refused::ARGV_CELL_CHARS;
    use std::time::Duration;

    fn cli(verb: &str, kind: Kind, tool: &str, outcome: Outcome, ms: f64) -> Record {
        let mut r = Record::new(Side::Cli, Surface::Cli, outcome, ms);
        r.verb = Some(verb.to_owned());
        r.kind = Some(kind);
        r.tool = Some(tool.to_owned());
        r
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let ten: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!((percentile(&ten, 50), percentile(&ten, 90)), (5.0, 9.0));
        assert_eq!(percentile(&[3.0], 90), 3.0);
        assert_eq!(percentile(&[], 50), 0.0);
    }

    #[test]
    fn a_figure_too_large_to_round_is_kept_not_made_infinite() {
        assert_eq!(round2(1.234_56), 1.23);
        assert_eq!(round2(1.7e308), 1.7e308);
        assert_eq!(percentile(&[1e308], 50), 1e308);
    }

    #[test]
    fn a_verb_refused_too_often_is_a_loser_and_an_unused_one_too() {
        let mut records = vec![cli("click", Kind::Plugin, "click", Outcome::Ok, 2.0)];
        for _ in 0..3 {
            records.push(cli("tree", Kind::Plugin, "tree", Outcome::UsageError, 1.0));
        }
        let installed = ["click", "tree", "scroll"].map(|n| Installed {
            name: n.to_owned(),
            kind: Kind::Plugin,
            tool: n.to_owned(),
            sha256: None,
            added_at: None,
        });
        let criteria = Criteria {
            installed: installed.to_vec(),
            ..Criteria::default()
        };
        let report = report(&records, 0, &criteria);
        let losers: Vec<_> = report.losers.iter().map(|l| l.verb.as_str()).collect();
        assert_eq!(losers, ["tree", "scroll"]);
        assert_eq!(report.losers[1].command, "mur devtools verbs remove scroll");
        assert_eq!(report.tools_without_named_calls, ["scroll", "tree"]);
    }

    /// A study's logs read days after (audit 57 #1): the window counted back from now
    /// judged every verb unused, the study's own too, and a window longer than that
    /// none. Ended at the study's last record (`--until`), it is judged over its span:
    /// the verb it called is used, the other is not, and a call after the end (the
    /// operator's own, today) neither counts nor hides one.
    #[test]
    fn a_window_that_ends_at_the_logs_last_record_judges_the_logs_span() {
        let at = |verb: &str, time: &str| {
            let mut r = cli(verb, Kind::Plugin, verb, Outcome::Ok, 1.0);
            r.time = time.to_owned();
            r
        };
        let records = [
            at("session list", "2026-11-20T10:00:00.000Z"),
            at("click", "2026-11-20T10:00:50.000Z"),
            at("state", "2026-11-20T10:01:00.000Z"),
            at("idle", "2026-12-01T09:00:00.000Z"),
        ];
        let until = "2026-11-20T10:01:00.000Z";
        let criteria = Criteria {
            installed: vec![installed("click", None), installed("idle", None)],
            unused_since: Some(Since::before(until, Duration::from_secs(30))),
            until: Some(until.to_owned()),
            off_periods: vec![OffPeriod {
                from: "2026-11-30T00:00:00.000Z".to_owned(),
                to: Some("2026-11-30T00:00:01.000Z".to_owned()),
            }],
            ..Criteria::default()
        };
        let report = report(&records, 0, &criteria);
        let losers: Vec<&str> = report.losers.iter().map(|l| l.verb.as_str()).collect();
        assert_eq!(losers, ["idle"]);
        assert_eq!(
            (
                report.records,
                report.until.as_deref(),
                report.window_covered
            ),
            (3, Some(until), true)
        );
        assert_eq!(
            report.unused_since.as_deref(),
            Some("2026-11-20T10:00:30.000Z")
        );
        assert_eq!(
            serde_json::to_value(&report)
                .map(|json| json["until"].clone())
                .ok(),
            Some(serde_json::json!(until))
        );
    }

    /// A study's logs read alone (`--only-named`) begin inside any window that covers
    /// the study: they are the whole record, so the window is judged over their span,
    /// first record to last, and says so; a verb added to this verb directory since is
    /// judged too. Without `--only-named` they do not reach back: no verb is unused.
    #[test]
    fn the_logs_named_alone_are_judged_over_their_span() {
        let at = |verb: &str, time: &str| {
            let mut r = cli(verb, Kind::Plugin, verb, Outcome::Ok, 1.0);
            r.time = time.to_owned();
            r
        };
        let mut served = at("state", "2026-11-20T10:04:00.000Z");
        served.side = Side::Server;
        let records = [at("click", "2026-11-20T10:01:00.000Z"), served];
        let until = "2026-11-20T10:04:00.000Z";
        let criteria = |only_named: bool| Criteria {
            installed: vec![
                installed("click", None),
                installed("state", None),
                Installed {
                    added_at: Some("2026-12-01T00:00:00Z".to_owned()),
                    ..installed("idle", None)
                },
            ],
            unused_since: Some(Since::before(until, Duration::from_secs(3600))),
            until: Some(until.to_owned()),
            logs_read: LogsRead {
                only_named,
                ..LogsRead::default()
            },
            ..Criteria::default()
        };
        let named = report(&records, 0, &criteria(true));
        assert_eq!(
            crate::losers::verdicts(&named.losers),
            [(
                "idle",
                "never used in the logs named (2026-11-20T10:01:00.000Z to \
                 2026-11-20T10:04:00.000Z)"
                    .to_owned()
            )]
        );
        assert_eq!(
            (named.window_covered, named.unused_since.as_deref()),
            (true, Some("2026-11-20T10:01:00.000Z"))
        );
        assert_eq!(named.unused_not_judged(), None);
        let mine = report(&records, 0, &criteria(false));
        assert_eq!((mine.losers.len(), mine.window_covered), (0, false));
    }

    /// A window that begins after the last record of the logs named (`--only-named`; a
    /// `--until` past them) is one none of them recorded through: no verb is judged unused
    /// over it, `click` called in them least of all (review 407 #1), and the report says
    /// why. One that begins inside them and ends at their last record judges from its
    /// start.
    #[test]
    fn a_window_after_the_logs_named_end_judges_no_verb_unused() {
        let mut click = cli("click", Kind::Plugin, "click", Outcome::Ok, 1.0);
        click.time = "2026-11-20T10:01:00.000Z".to_owned();
        let mut state = cli("state", Kind::Plugin, "state", Outcome::Ok, 1.0);
        state.time = "2026-11-20T10:04:00.000Z".to_owned();
        let records = [click, state];
        let judged = |until: &str, window: u64| {
            let criteria = Criteria {
                installed: vec![installed("click", None), installed("idle", None)],
                unused_since: Some(Since::before(until, Duration::from_secs(window))),
                until: Some(until.to_owned()),
                logs_read: LogsRead {
                    only_named: true,
                    ..LogsRead::default()
                },
                ..Criteria::default()
            };
            report(&records, 0, &criteria)
        };
        let after = judged("2026-11-20T10:20:00.000Z", 10);
        assert_eq!(
            (after.losers.len(), after.window_covered, after.reaches_back),
            (0, false, false)
        );
        assert_eq!(
            after.beside_losers(),
            [
                "no verb was judged unused: the logs named end at 2026-11-20T10:04:00.000Z, \
              before the window begins at 2026-11-20T10:19:50.000Z, so none of them recorded \
              a call in it (without `--until`, or with `--until last`, the window ends at \
              their last record)"
            ]
        );
        // Begun inside them and ended at their last record: `idle` unused since its start,
        // `click` before it too.
        let inside = judged("2026-11-20T10:04:00.000Z", 2 * 60);
        let losers: Vec<&str> = inside.losers.iter().map(|l| l.verb.as_str()).collect();
        assert_eq!(
            (losers, inside.window_covered),
            (vec!["click", "idle"], true)
        );
        assert_eq!(inside.named_logs_ended(), None);
    }

    /// A window that begins after now and after the newest record read (`--until` 20 hours
    /// ahead with `--unused-for 1h`, inside the day of slack `Until::parse` takes) is one no
    /// log recorded through: no verb is judged unused over it, `click` called an hour ago
    /// least of all, and the report says why. One a record from a clock ahead of ours
    /// reaches into, or one begun before now, is judged as ever.
    #[test]
    fn a_window_that_begins_after_now_judges_no_verb_unused() {
        let at = |hours: i64| {
            let then = time::OffsetDateTime::now_utc() + time::Duration::hours(hours);
            mur_lockfile::rfc3339_millis(then)
        };
        let mut click = cli("click", Kind::Plugin, "click", Outcome::Ok, 1.0);
        click.time = at(-1);
        let old = days_ago(2, "tree", Outcome::Ok);
        let until = at(20);
        let judged = |records: &[Record], window_hours: u64| {
            let criteria = Criteria {
                installed: vec![installed("click", None), installed("idle", None)],
                unused_since: Some(Since::before(
                    &until,
                    Duration::from_secs(window_hours * 3600),
                )),
                until: Some(until.clone()),
                ..Criteria::default()
            };
            report(records, 0, &criteria)
        };
        let records = [old.clone(), click.clone()];
        let ahead = judged(&records, 1);
        assert_eq!(
            (ahead.losers.len(), ahead.window_covered, ahead.reaches_back),
            (0, false, false)
        );
        let since = ahead.unused_since.clone().unwrap_or_default();
        let to = ahead.window_ahead_of.clone().unwrap_or_default();
        assert!(to < since && to >= click.time, "{to} {since}");
        assert_eq!(
            ahead.beside_losers(),
            [format!(
                "no verb was judged unused: the window begins at {since}, after {to} (now, or \
                 the newest record read if later), so no log has recorded a call in it yet \
                 (`--until last` ends the window at the newest record)"
            )]
        );
        // Begun before now, but ending 20 hours after it: no more recorded through.
        let long = judged(&records, 30);
        assert_eq!((long.losers.len(), long.window_covered), (0, false));
        // A record from a clock ahead of ours, at the window's end: it was recorded through.
        let mut skewed = click.clone();
        skewed.time = until.clone();
        let records = [old, skewed];
        let reached = judged(&records, 1);
        let losers: Vec<&str> = reached.losers.iter().map(|l| l.verb.as_str()).collect();
        assert_eq!((losers, reached.window_covered), (vec!["idle"], true));
    }

    /// `criteria` with `click` and `idle` installed, over the `window` that ends at
    /// `until` (`None`: now).
    fn window_to(until: Option<&str>, window: Duration, only_named: bool) -> Criteria {
        Criteria {
            installed: vec![installed("click", None), installed("idle", None)],
            unused_since: Some(match until {
                Some(until) => Since::before(until, window),
                None => Since::ago(window),
            }),
            until: until.map(str::to_owned),
            logs_read: LogsRead {
                only_named,
                ..LogsRead::default()
            },
            ..Criteria::default()
        }
    }

    /// A window that begins before now but ends after it, inside the day of slack
    /// `Until::parse` takes (`--until` now+23h59m with `--unused-for 1d`: a minute of it
    /// recorded), is one no log recorded through: every verb not called in that minute
    /// was judged unused, and `verbs prune --yes` removed them all (review 420 #1). No
    /// verb is judged now, and the report says why.
    #[test]
    fn a_window_that_ends_after_now_judges_no_verb_unused() {
        let until = mur_lockfile::rfc3339_millis(
            time::OffsetDateTime::now_utc() + time::Duration::minutes(23 * 60 + 59),
        );
        let mut click = cli("click", Kind::Plugin, "click", Outcome::Ok, 1.0);
        click.time = Since::ago(Duration::from_secs(600)).0;
        let records = [days_ago(2, "tree", Outcome::Ok), click];
        let criteria = window_to(Some(&until), Duration::from_secs(86_400), false);
        let ahead = report(&records, 0, &criteria);
        assert_eq!(
            (ahead.losers.len(), ahead.window_covered, ahead.reaches_back),
            (0, false, false)
        );
        let to = ahead.window_ahead_of.clone().unwrap_or_default();
        assert!(to < until, "{to} {until}");
        assert_eq!(
            ahead.beside_losers(),
            [format!(
                "no verb was judged unused: the window ends at {until}, after {to} (now, or \
                 the newest record read if later), so no log has recorded a call in all of it \
                 yet (`--until last` ends the window at the newest record, as does an \
                 `--until` no later than now)"
            )]
        );
    }

    /// With `--only-named`, a window that begins before the last record of the logs named
    /// and ends after it (5 s of a 10 s window recorded) is one they did not record
    /// through: every verb not called in those seconds was judged unused (review 420 #1).
    /// No verb is judged now; one that ends at their last record (`--until last`) is.
    #[test]
    fn a_window_past_the_end_of_the_logs_named_judges_no_verb_unused() {
        let mut click = cli("click", Kind::Plugin, "click", Outcome::Ok, 1.0);
        click.time = "2026-11-20T10:00:00.000Z".to_owned();
        let mut state = cli("state", Kind::Plugin, "state", Outcome::Ok, 1.0);
        state.time = "2026-11-20T10:04:00.000Z".to_owned();
        let records = [click, state];
        let judged = |until: &str| {
            let criteria = window_to(Some(until), Duration::from_secs(10), true);
            report(&records, 0, &criteria)
        };
        let past = judged("2026-11-20T10:04:05.000Z");
        assert_eq!(
            (past.losers.len(), past.window_covered, past.reaches_back),
            (0, false, false)
        );
        assert_eq!(
            past.beside_losers(),
            [
                "no verb was judged unused: the logs named end at 2026-11-20T10:04:00.000Z, \
                 before the window ends at 2026-11-20T10:04:05.000Z, so none of them recorded \
                 a call in all of it (without `--until`, or with `--until last`, the window \
                 ends at their last record)"
            ]
        );
        let last = judged("2026-11-20T10:04:00.000Z");
        let losers: Vec<&str> = last.losers.iter().map(|l| l.verb.as_str()).collect();
        assert_eq!((losers, last.window_covered), (vec!["click", "idle"], true));
    }

    /// With `--only-named`, mur's CLI ends the window at the last record of the logs named
    /// unless `--until` is given (review 516 #5: ended now, after it, a window was one none
    /// of them recorded through, and plain `--only-named` judged no verb). Ended there, a
    /// window begun 10 s before is judged from its start, and the report says where it
    /// ends and that `--until` sets another end; ended past them, or now (this library's
    /// window without `until`), no verb is judged, and the report says why.
    #[test]
    fn a_window_that_ends_at_the_last_record_of_the_logs_named_says_so() {
        let ago = |secs: u64| Since::ago(Duration::from_secs(secs)).0;
        let mut click = cli("click", Kind::Plugin, "click", Outcome::Ok, 1.0);
        click.time = ago(3600 + 60);
        let mut state = cli("state", Kind::Plugin, "state", Outcome::Ok, 1.0);
        state.time = ago(3600);
        let (first, last) = (click.time.clone(), state.time.clone());
        let records = [click, state];
        let to_last = window_to(Some(&last), Duration::from_secs(10), true);
        let judged = report(&records, 0, &to_last);
        let losers: Vec<&str> = judged.losers.iter().map(|l| l.verb.as_str()).collect();
        assert_eq!(
            (losers, judged.window_covered),
            (vec!["click", "idle"], true)
        );
        assert_eq!(
            judged.ends_at_named_last(),
            Some(format!(
                "the logs named end at {last}: the window ends there; `--until` sets another end"
            ))
        );
        // Not said of a window that ends before them, nor without `--only-named`.
        let before = window_to(Some(&first), Duration::from_secs(10), true);
        assert_eq!(report(&records, 0, &before).ends_at_named_last(), None);
        let mine = window_to(Some(&last), Duration::from_secs(10), false);
        assert_eq!(report(&records, 0, &mine).ends_at_named_last(), None);
        let window = Duration::from_secs(3600 + 10);
        let now = report(&records, 0, &window_to(None, window, true));
        assert_eq!(
            (
                now.losers.len(),
                now.window_covered,
                now.ends_at_named_last()
            ),
            (0, false, None)
        );
        assert_eq!(
            now.beside_losers(),
            [format!(
                "no verb was judged unused: the logs named end at {last}, before the window \
                 ends now, so none of them recorded a call in all of it (`--until last` ends \
                 the window at their last record)"
            )]
        );
    }

    /// A window that ends now (no `--until`, or one at now) is judged as ever: mur's own
    /// log is live, so a verb with no call in it up to now is unused.
    #[test]
    fn a_window_that_ends_now_is_judged() {
        let mut click = cli("click", Kind::Plugin, "click", Outcome::Ok, 1.0);
        click.time = Since::ago(Duration::from_secs(600)).0;
        let records = [days_ago(2, "tree", Outcome::Ok), click];
        let now = crate::clock::now_millis();
        for until in [None, Some(now.as_str())] {
            let criteria = window_to(until, Duration::from_secs(86_400), false);
            let judged = report(&records, 0, &criteria);
            let losers: Vec<&str> = judged.losers.iter().map(|l| l.verb.as_str()).collect();
            assert_eq!(
                (losers, judged.window_covered),
                (vec!["idle"], true),
                "{until:?}"
            );
            assert_eq!(judged.unused_not_judged(), None);
        }
    }

    /// `--only-verbs`: only the verbs named are judged (a study's, whose logs say nothing
    /// of a verb added since); the installed others are named as not judged, never losers
    /// "never used in the logs named" (review 407 #3).
    #[test]
    fn only_the_verbs_named_are_judged_and_the_others_said_not_to_be() {
        let mut click = cli("click", Kind::Plugin, "click", Outcome::Ok, 1.0);
        click.time = "2026-11-20T10:01:00.000Z".to_owned();
        let criteria = Criteria {
            installed: ["click", "tree", "count", "zoom"]
                .map(|n| installed(n, None))
                .to_vec(),
            unused_since: Some(Since("2026-11-20T09:00:00.000Z".to_owned())),
            until: Some(click.time.clone()),
            logs_read: LogsRead {
                only_named: true,
                ..LogsRead::default()
            },
            only_verbs: Some(vec![
                "click".to_owned(),
                "tree".to_owned(),
                "gone".to_owned(),
            ]),
            ..Criteria::default()
        };
        let report = report(&[click], 0, &criteria);
        let losers: Vec<&str> = report.losers.iter().map(|l| l.verb.as_str()).collect();
        assert_eq!(losers, ["tree"]);
        assert_eq!(
            report.beside_losers(),
            ["only the verbs `--only-verbs` named were judged; not judged: count, zoom"]
        );
        let json = serde_json::to_value(&report).expect("json");
        assert_eq!(
            (&json["onlyVerbs"], &json["notJudged"]),
            (
                &serde_json::json!(["click", "tree", "gone"]),
                &serde_json::json!(["count", "zoom"])
            )
        );
    }

    fn installed(name: &str, sha256: Option<&str>) -> Installed {
        Installed {
            name: name.to_owned(),
            kind: Kind::Plugin,
            tool: name.to_owned(),
            sha256: sha256.map(str::to_owned),
            added_at: None,
        }
    }

    /// An installed named verb whose every answered call was a JSON-RPC error (its tool
    /// on no session it was called on) is named, with its tool, calls, sessions and last
    /// call, and is no loser; one answered a result once, a derived verb, and a verb no
    /// longer installed are not named. Its refused argv and a call with no session are
    /// no answers. (It was in no list: only its row's RPC-ERR said it.)
    #[test]
    fn a_named_verb_every_session_answered_with_an_rpc_error_is_named_not_a_loser() {
        let on = |mut r: Record, project: &str, time: &str| {
            r.project = Some(project.to_owned());
            r.time = time.to_owned();
            r
        };
        let rpc = |verb: &str, kind: Kind| cli(verb, kind, verb, Outcome::RpcError, 1.0);
        let records = [
            on(rpc("pick", Kind::Plugin), "aa", "2026-11-20T10:00:00.000Z"),
            on(rpc("pick", Kind::Plugin), "bb", "2026-11-20T10:00:02.000Z"),
            on(rpc("pick", Kind::Plugin), "aa", "2026-11-20T10:00:01.000Z"),
            cli("pick", Kind::Plugin, "pick", Outcome::UsageError, 1.0),
            cli("pick", Kind::Plugin, "pick", Outcome::SessionError, 1.0),
            on(rpc("get", Kind::Data), "aa", "2026-11-20T10:00:03.000Z"),
            rpc("state", Kind::Plugin),
            cli("state", Kind::Plugin, "state", Outcome::Ok, 1.0),
            rpc("fire", Kind::Derived),
            rpc("gone", Kind::Plugin),
        ];
        let data = Installed {
            kind: Kind::Data,
            tool: "getText".to_owned(),
            ..installed("get", None)
        };
        let criteria = Criteria {
            installed: vec![installed("pick", None), data, installed("state", None)],
            ..Criteria::default()
        };
        let report = report(&records, 0, &criteria);
        let row = |verb: &str, kind, calls, sessions, last: &str| NoToolRan {
            verb: verb.to_owned(),
            kind,
            tool: verb.to_owned(),
            calls,
            sessions,
            last: last.to_owned(),
        };
        assert_eq!(
            report.verbs_no_tool_ran,
            [
                row("pick", Kind::Plugin, 3, 2, "2026-11-20T10:00:02.000Z"),
                row("get", Kind::Data, 1, 1, "2026-11-20T10:00:03.000Z"),
            ]
        );
        assert_eq!(
            report.verbs_no_tool_ran[0].cells(),
            [
                "pick (plugin)",
                "pick",
                "3",
                "2",
                "2026-11-20T10:00:02.000Z"
            ]
        );
        assert!(report.losers.is_empty(), "{:?}", report.losers);
        let json = serde_json::to_value(&report).expect("json");
        assert_eq!(
            json["verbsNoToolRan"][1],
            serde_json::json!({"verb": "get", "kind": "data", "tool": "get", "calls": 1,
                "sessions": 1, "last": "2026-11-20T10:00:03.000Z"})
        );
    }

    /// A verb that fails on its own (exit 6: it crashed, ran out of time or memory)
    /// in more than a fifth of its calls is a loser, as one refused too often is: a
    /// verb failing half its calls was pruned by no rule.
    #[test]
    fn a_verb_that_fails_itself_too_often_is_a_loser() {
        let calls = |failures: usize, of: usize| -> Vec<Record> {
            (0..of)
                .map(|at| {
                    let outcome = if at < failures {
                        Outcome::PluginError
                    } else {
                        Outcome::Ok
                    };
                    cli("hog", Kind::Plugin, "hog", outcome, 1.0)
                })
                .collect()
        };
        assert_eq!(
            losers_of(&calls(13, 26), installed("hog", None)),
            ["50% of its 26 calls failed in the verb itself, exit 6 (above 20%)"]
        );
        assert!(
            losers_of(&calls(1, 5), installed("hog", None)).is_empty(),
            "20% is not above"
        );
        assert!(
            losers_of(&calls(2, 2), installed("hog", None)).is_empty(),
            "too few calls"
        );
        let criteria = Criteria {
            installed: vec![installed("hog", None)],
            ..Criteria::default()
        };
        let loser = &report(&calls(3, 4), 0, &criteria).losers[0];
        assert_eq!((loser.calls, loser.plugin_failure_rate), (4, 0.75));
    }

    fn losers_of(records: &[Record], installed: Installed) -> Vec<String> {
        let criteria = Criteria {
            installed: vec![installed],
            ..Criteria::default()
        };
        let report = report(records, 0, &criteria);
        report.losers.iter().map(|l| l.reason.to_string()).collect()
    }

    /// A session's record of mur's call (side `server`, surface `cli`) names the verb:
    /// a use, for every agent's report (it names no agent); not one of an MCP client.
    #[test]
    fn a_sessions_record_of_murs_call_is_a_use_of_the_verb() {
        let since = Since("2026-01-01T00:00:00.000Z".to_owned());
        let mut old = cli("guide", Kind::Host, "guide", Outcome::Ok, 1.0);
        old.time = "2025-12-01T00:00:00.000Z".to_owned();
        let mut served = cli("click", Kind::Plugin, "click", Outcome::Ok, 1.0);
        served.side = Side::Server;
        served.time = "2026-01-02T00:00:00.000Z".to_owned();
        let mut mcp = served.clone();
        mcp.surface = Surface::Mcp;
        mcp.verb = None;
        mcp.kind = None;
        let judged = |records: &[Record], agent: Option<&str>| {
            let criteria = Criteria {
                unused_since: Some(since.clone()),
                agent: agent.map(str::to_owned),
                installed: vec![installed("click", None)],
                ..Criteria::default()
            };
            let mut old = old.clone();
            old.agent = Some("claude".to_owned());
            let records: Vec<Record> = std::iter::once(old).chain(records.to_vec()).collect();
            let report = report(&records, 0, &criteria);
            report.losers.len()
        };
        assert_eq!(judged(&[served.clone()], None), 0);
        assert_eq!(judged(&[mcp], None), 1);
        assert_eq!(judged(&[served], Some("claude")), 1);
    }

    /// A bridge's record and its stdio server's of the one forwarded call: counted
    /// once, as the bridge's, when the bridge's records are read; the server's alone
    /// are counted.
    #[test]
    fn a_call_a_bridge_forwarded_is_counted_once_as_the_bridges() {
        let mut outer = cli("version", Kind::Call, "version", Outcome::Ok, 1.0);
        outer.side = Side::Server;
        outer.client = Some("mur 0.1.0".to_owned());
        outer.bridge = true;
        let mut inner = outer.clone();
        inner.client = Some("mur-bridge 0.1.0".to_owned());
        inner.bridge = false;
        let served = |records: &[Record]| {
            let report = report(records, 0, &Criteria::default());
            let calls: Vec<(String, u64)> = report
                .clients_served
                .iter()
                .map(|r| (r.name.clone(), r.calls))
                .collect();
            (calls, report.forwarded_left_out)
        };
        assert_eq!(
            served(&[inner.clone(), outer]),
            (vec![("mur 0.1.0".to_owned(), 1)], 1)
        );
        assert_eq!(
            served(&[inner]),
            (vec![("mur-bridge 0.1.0".to_owned(), 1)], 0)
        );
    }

    /// A time recording was off in the window, ended (`usage off`, then `usage on`),
    /// keeps no verb from being judged unused: the window begins as much earlier, so a
    /// verb goes unused for as long as asked of recorded time (it blocked every verdict
    /// for the whole window, a moment's `usage off` for 30 days), when the log reaches
    /// back that far; still off, no verb is judged unused; begun after it, as without.
    #[test]
    fn a_time_recording_was_off_lengthens_the_window_and_still_off_judges_none() {
        let mut old = cli("guide", Kind::Host, "guide", Outcome::Ok, 1.0);
        old.time = "2025-12-01T00:00:00.000Z".to_owned();
        let period = |from: &str, to: Option<&str>| OffPeriod {
            from: from.to_owned(),
            to: to.map(str::to_owned),
        };
        let off_since = |first: &Record, periods: Vec<OffPeriod>, since: &str| {
            let criteria = Criteria {
                unused_since: Some(Since(since.to_owned())),
                installed: vec![installed("click", None)],
                off_periods: periods,
                ..Criteria::default()
            };
            report(std::slice::from_ref(first), 0, &criteria)
        };
        let ended = period("2026-01-02T00:00:00.000Z", Some("2026-01-03T00:00:00.000Z"));
        let judged = off_since(&old, vec![ended.clone()], "2026-01-01T00:00:00.000Z");
        assert_eq!(
            (
                judged.losers.len(),
                judged.unused_since.as_deref(),
                judged.recording_off.as_ref()
            ),
            (1, Some("2025-12-31T00:00:00.000Z"), Some(&ended))
        );
        assert_eq!(
            judged.losers[0].reason.to_string(),
            "never used in the window (since 2025-12-31T00:00:00.000Z)"
        );
        assert_eq!(
            judged.beside_losers(),
            [
                "recording was off (`usage off`) in the window, latest from \
              2026-01-02T00:00:00.000Z to 2026-01-03T00:00:00.000Z: the calls then are in no \
              record, so the window begins as much earlier, at 2025-12-31T00:00:00.000Z"
            ]
        );
        // With `--since`, the tables keep the window asked for: the note says whose the
        // earlier start is (review 407 #5).
        let tables = Criteria {
            since: Some(Since("2026-01-01T00:00:00.000Z".to_owned())),
            installed: vec![installed("click", None)],
            off_periods: vec![ended.clone()],
            ..Criteria::default()
        };
        assert_eq!(
            report(std::slice::from_ref(&old), 0, &tables).recording_was_off(),
            Some(
                "recording was off (`usage off`) in the window, latest from \
                 2026-01-02T00:00:00.000Z to 2026-01-03T00:00:00.000Z: the calls then are in \
                 no record, so the window begins as much earlier, at 2025-12-31T00:00:00.000Z \
                 for the losers (the tables count from 2026-01-01T00:00:00.000Z, the window \
                 asked for)"
                    .to_owned()
            )
        );
        // A log that reaches back past the window asked for, not past the day it owes.
        let mut young = old.clone();
        young.time = "2025-12-31T12:00:00.000Z".to_owned();
        let short = off_since(&young, vec![ended.clone()], "2026-01-01T00:00:00.000Z");
        assert_eq!((short.losers.len(), short.window_covered), (0, false));
        let after = off_since(&old, vec![ended.clone()], "2026-01-04T00:00:00.000Z");
        assert_eq!(
            (after.losers.len(), after.recording_off, after.unused_since),
            (1, None, Some("2026-01-04T00:00:00.000Z".to_owned()))
        );
        let still = period("2026-01-05T00:00:00.000Z", None);
        let off = off_since(&old, vec![ended, still.clone()], "2026-01-04T00:00:00.000Z");
        assert_eq!(
            (off.losers.len(), off.recording_off.map(|p| p.from)),
            (0, Some(still.from.clone()))
        );
        // A window that ends (`--until`) while recording was off: off up to its end.
        let criteria = Criteria {
            unused_since: Some(Since("2026-01-04T00:00:00.000Z".to_owned())),
            until: Some("2026-01-06T00:00:00.000Z".to_owned()),
            installed: vec![installed("click", None)],
            off_periods: vec![still],
            ..Criteria::default()
        };
        let then = report(std::slice::from_ref(&old), 0, &criteria);
        assert_eq!(
            (then.losers.len(), then.unused_since.as_deref()),
            (1, Some("2026-01-03T00:00:00.000Z"))
        );
    }

    #[test]
    fn a_name_of_two_kinds_is_two_verbs_each_judged_on_its_own_calls() {
        // `click` the plugin, then, once removed, the derived verb of tool `click`.
        let mut records = vec![cli("click", Kind::Plugin, "click", Outcome::Ok, 1.0)];
        for _ in 0..3 {
            records.push(cli(
                "click",
                Kind::Derived,
                "click",
                Outcome::UsageError,
                1.0,
            ));
        }
        let report = report(&records, 0, &Criteria::default());
        let rows: Vec<(&str, Option<Kind>, u64)> = report
            .verbs
            .iter()
            .map(|r| (r.name.as_str(), r.kind, r.calls))
            .collect();
        assert_eq!(
            rows,
            [
                ("click", Some(Kind::Derived), 3),
                ("click", Some(Kind::Plugin), 1)
            ]
        );
        assert_eq!(
            losers_of(&records, installed("click", None)),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_verb_fixed_and_added_again_is_judged_on_the_version_installed() {
        let version = |sha: &str, outcome| {
            let mut r = cli("click", Kind::Plugin, "click", outcome, 1.0);
            r.verb_hash = Some(sha.to_owned());
            r
        };
        let mut records: Vec<Record> = (0..3)
            .map(|_| version("old", Outcome::UsageError))
            .collect();
        records.push(version("new", Outcome::Ok));
        assert_eq!(
            losers_of(&records, installed("click", Some("new"))),
            Vec::<String>::new()
        );
        assert_eq!(
            losers_of(&records, installed("click", None)),
            ["75% of its 4 invocations were usage errors (above 50%)"]
        );
        records.extend((0..3).map(|_| version("new", Outcome::UsageError)));
        assert_eq!(
            losers_of(&records, installed("click", Some("new"))),
            ["75% of its 4 invocations (the version installed) were usage errors (above 50%)"]
        );
        // The figures agree with the reason: 4 calls, 3 of them refused.
        let criteria = Criteria {
            installed: vec![installed("click", Some("new"))],
            ..Criteria::default()
        };
        let loser = report(&records, 0, &criteria).losers.remove(0);
        assert_eq!((loser.calls, loser.usage_error_rate), (4, 0.75));
    }

    #[test]
    fn an_unused_verb_of_one_agent_is_said_to_be_unused_by_that_agent() {
        let mut record = cli("tree", Kind::Plugin, "tree", Outcome::Ok, 1.0);
        record.agent = Some("beta".to_owned());
        let criteria = Criteria {
            agent: Some("beta".to_owned()),
            installed: vec![installed("click", None)],
            ..Criteria::default()
        };
        let report = report(&[record], 0, &criteria);
        assert_eq!(
            report.losers[0].reason.to_string(),
            "never used by `beta` in the log"
        );
    }

    #[test]
    fn a_verb_is_unused_only_over_a_window_the_log_reaches_back_past() {
        let month = Since::ago(std::time::Duration::from_secs(30 * 86_400));
        let criteria = Criteria {
            unused_since: Some(month.clone()),
            installed: ["click", "tree", "idle"]
                .map(|n| installed(n, None))
                .to_vec(),
            ..Criteria::default()
        };
        let verdicts = |records: &[Record]| {
            let report = report(records, 0, &criteria);
            let losers = report.losers.iter();
            let told = losers.map(|l| (l.verb.clone(), l.reason.to_string(), l.calls));
            (report.window_covered, told.collect::<Vec<_>>())
        };
        // A short run just now says nothing of a month: no verb is unused.
        let now = cli("click", Kind::Plugin, "click", Outcome::Ok, 1.0);
        assert_eq!(verdicts(std::slice::from_ref(&now)), (false, vec![]));
        // A log reaching back past it: a verb used only before the month is unused,
        // though the report, over the whole log, counts its call.
        let mut old = cli("tree", Kind::Plugin, "tree", Outcome::Ok, 1.0);
        old.time = "2020-01-01T00:00:00.000Z".to_owned();
        let records = [old, now];
        let unused = |verb: &str, said: &str| (verb.to_owned(), format!("{said} {})", month.0), 0);
        assert_eq!(
            verdicts(&records),
            (
                true,
                vec![
                    unused(
                        "tree",
                        "last used 2020-01-01T00:00:00.000Z, none in the window (since"
                    ),
                    unused("idle", "never used in the window (since"),
                ]
            )
        );
        let report = report(&records, 0, &criteria);
        assert_eq!(report.unused_since.as_ref(), Some(&month.0));
        assert_eq!((report.verbs.len(), report.records), (2, 2));
    }

    /// A record of `verb` (a plugin of tool `verb`) `days` ago, by `agent`.
    fn days_ago(days: u64, verb: &str, outcome: Outcome) -> Record {
        let mut r = cli(verb, Kind::Plugin, verb, outcome, 1.0);
        r.time = Since::ago(std::time::Duration::from_secs(days * 86_400)).0;
        r
    }

    #[test]
    fn usage_errors_are_rated_over_the_window_unused_verbs_are_judged_in() {
        // Refused three times 40 days ago, one failed call an hour ago.
        let mut records: Vec<Record> = (0..3)
            .map(|_| days_ago(40, "type", Outcome::UsageError))
            .collect();
        let mut recent = cli("type", Kind::Plugin, "type", Outcome::ToolError, 1.0);
        recent.time = Since::ago(std::time::Duration::from_secs(3600)).0;
        records.push(recent);
        let month = Since::ago(std::time::Duration::from_secs(30 * 86_400));
        let judged = |unused_since: Option<Since>, since: Option<Since>| {
            let criteria = Criteria {
                since,
                unused_since,
                installed: vec![installed("type", None)],
                ..Criteria::default()
            };
            let report = report(&records, 0, &criteria);
            let losers = report.losers.iter();
            let told = losers.map(|l| (l.reason.to_string(), l.calls));
            (report.records, told.collect::<Vec<_>>())
        };
        // The report over the whole log (prune's window for losers) and prune, which
        // reads no table: the same verdict, over the last 30 days: one call, no loser.
        assert_eq!(judged(Some(month.clone()), None), (4, vec![]));
        assert_eq!(judged(None, Some(month)), (1, vec![]));
        // Over a window that holds the refusals, both call it a loser.
        let two_months = Since::ago(std::time::Duration::from_secs(60 * 86_400));
        let loser = vec![(
            "75% of its 4 invocations were usage errors (above 50%)".to_owned(),
            4,
        )];
        assert_eq!(judged(Some(two_months.clone()), None), (4, loser.clone()));
        assert_eq!(judged(None, Some(two_months)), (4, loser));
    }

    #[test]
    fn a_verb_added_after_the_window_began_is_not_judged_unused() {
        let month = Since::ago(std::time::Duration::from_secs(30 * 86_400));
        let records = [days_ago(40, "click", Outcome::Ok)];
        let added = |name: &str, days: u64| Installed {
            // As the verb index writes it: to the second.
            added_at: Some(format!(
                "{}Z",
                &Since::ago(std::time::Duration::from_secs(days * 86_400)).0[..19]
            )),
            ..installed(name, None)
        };
        let criteria = Criteria {
            unused_since: Some(month.clone()),
            installed: vec![added("old", 60), added("new", 0), installed("legacy", None)],
            ..Criteria::default()
        };
        let report = report(&records, 0, &criteria);
        let losers: Vec<&str> = report.losers.iter().map(|l| l.verb.as_str()).collect();
        assert_eq!(losers, ["old", "legacy"]);
        assert_eq!(report.added_in_window, ["new"]);
        assert_eq!(
            report.unused_not_judged(),
            Some(format!(
                "not judged unused, added since {} (after the window began): new",
                month.0
            ))
        );
        // Used in the window, it needs no word.
        let mut used = records.to_vec();
        used.push(days_ago(0, "new", Outcome::Ok));
        let report = super::report(&used, 0, &criteria);
        assert_eq!(
            (report.added_in_window.len(), report.unused_not_judged()),
            (0, None)
        );
    }

    #[test]
    fn an_agent_leaves_out_the_sessions_records_and_says_how_many() {
        let mut mine = cli("click", Kind::Plugin, "click", Outcome::Ok, 1.0);
        mine.agent = Some("alpha".to_owned());
        let served = Record::new(Side::Server, Surface::Mcp, Outcome::Ok, 1.0);
        let records = [mine, served.clone(), served];
        let of = |agent: Option<&str>| {
            let criteria = Criteria {
                agent: agent.map(str::to_owned),
                ..Criteria::default()
            };
            let report = report(&records, 0, &criteria);
            (report.records, report.server_records_left_out)
        };
        assert_eq!(of(None), (3, 0));
        assert_eq!(of(Some("alpha")), (1, 2));
    }

    #[test]
    fn refused_argv_is_counted_by_verb_and_shape_most_frequent_first() {
        let refused_as = |verb: &str, argv: &[&str], time: &str| {
            let mut r = cli(verb, Kind::Plugin, verb, Outcome::UsageError, 1.0);
            let argv: Vec<String> = argv.iter().map(|w| (*w).to_owned()).collect();
            r.argv = Some(crate::record::argv_shape(&argv, |o| o == "--view", false));
            r.time = time.to_owned();
            r
        };
        let mut records = vec![
            refused_as("click", &["--selector", "#a"], "2026-01-01T00:00:01.000Z"),
            refused_as("state", &["#count"], "2026-01-01T00:00:02.000Z"),
            refused_as("state", &["#other"], "2026-01-01T00:00:03.000Z"),
            refused_as("tree", &["--view", "wide"], "2026-01-01T00:00:04.000Z"),
        ];
        // Calls that went through are no refusal, whatever their shape (a host
        // command's own verdict is recorded `ok`); a host command's argv refused is one.
        let mut ok = refused_as("state", &["#count"], "2026-01-01T00:00:05.000Z");
        ok.outcome = Outcome::Ok;
        let mut parity = refused_as("parity", &["--bogus"], "2026-01-01T00:00:06.000Z");
        parity.kind = Some(Kind::Host);
        records.extend([ok, parity]);
        let report = report(&records, 0, &Criteria::default());
        let seen: Vec<(String, u64, &str)> = report
            .refused
            .iter()
            .map(|r| (r.argv(), r.times, r.last.as_str()))
            .collect();
        assert_eq!(
            seen,
            [
                ("state WORD".to_owned(), 2, "2026-01-01T00:00:03.000Z"),
                (
                    "click --selector WORD".to_owned(),
                    1,
                    "2026-01-01T00:00:01.000Z"
                ),
                ("parity --bogus".to_owned(), 1, "2026-01-01T00:00:06.000Z"),
                ("tree --view".to_owned(), 1, "2026-01-01T00:00:04.000Z"),
            ]
        );
    }

    /// "Tools called by mur" are the calls that reached a tool, and latency is theirs:
    /// a refused argv called nothing, in a few milliseconds that say nothing of the verb.
    #[test]
    fn a_refusal_is_no_call_of_the_tool_nor_a_latency() {
        let records = [
            cli("click", Kind::Plugin, "click", Outcome::UsageError, 3.0),
            cli("click", Kind::Plugin, "click", Outcome::UsageError, 3.0),
            cli("click", Kind::Plugin, "click", Outcome::SessionError, 2.0),
            cli("click", Kind::Plugin, "click", Outcome::Ok, 10.0),
            cli("click", Kind::Plugin, "click", Outcome::ToolError, 20.0),
        ];
        let report = report(&records, 0, &Criteria::default());
        let tools: Vec<(&str, u64)> = report
            .tools_cli
            .iter()
            .map(|r| (r.name.as_str(), r.calls))
            .collect();
        assert_eq!(tools, [("click", 2)]);
        let verb = &report.verbs[0];
        assert_eq!((verb.calls, verb.usage_errors), (5, 2));
        assert_eq!((verb.p50_ms, verb.p90_ms), (10.0, 20.0));
    }

    /// `record` as mur writes one whose call phase ran.
    fn called(mut record: Record) -> Record {
        record.phases = Some(crate::record::Phases {
            call: Some(record.ms),
            ..crate::record::Phases::default()
        });
        record
    }

    /// A verb that failed in its `parse`, or was stopped there, called nothing: no call
    /// of its tool, nor a latency (audit 47 #3: a 6 s loop in `parse` was the tool's
    /// P90, and a tool reached only so left "tools no named verb reached"). One that
    /// failed in `shape`, after its call, did call it.
    #[test]
    fn a_verb_that_failed_or_was_stopped_before_its_call_did_not_reach_its_tool() {
        let state = |outcome, ms| cli("rbad", Kind::Plugin, "state", outcome, ms);
        let in_parse = |outcome, ms| {
            let mut r = state(outcome, ms);
            r.phases = Some(crate::record::Phases {
                parse: Some(ms),
                ..crate::record::Phases::default()
            });
            r
        };
        let before = [
            in_parse(Outcome::PluginError, 6000.0),
            in_parse(Outcome::PluginError, 4000.0),
            in_parse(Outcome::Interrupted, 9000.0),
        ];
        let report = report(&before, 0, &Criteria::default());
        assert!(report.tools_cli.is_empty(), "{:?}", report.tools_cli);
        let verb = &report.verbs[0];
        assert_eq!(
            (verb.calls, verb.plugin_failures, verb.interrupted),
            (3, 2, 1)
        );
        assert_eq!((verb.p50_ms, verb.p90_ms), (0.0, 0.0));
        assert_eq!(report.tools_without_named_calls, ["state"]);
        // Failed in `shape`: the call ran, 12 ms of it.
        let mut after = before.to_vec();
        after.push(called(state(Outcome::PluginError, 12.0)));
        let report = super::report(&after, 0, &Criteria::default());
        let tools: Vec<(&str, u64, f64)> = report
            .tools_cli
            .iter()
            .map(|r| (r.name.as_str(), r.calls, r.p90_ms))
            .collect();
        assert_eq!(tools, [("state", 1, 12.0)]);
        assert_eq!(report.tools_without_named_calls, Vec::<String>::new());
    }

    /// A call the user stopped (Ctrl-C, SIGTERM) is counted apart: no failure of any
    /// kind, nor a latency (its duration is how long the user waited); still a call of
    /// its tool, and a use of its verb.
    #[test]
    fn an_interrupted_call_is_counted_apart_not_as_a_failure_nor_a_latency() {
        let wait = |outcome, ms| called(cli("wait", Kind::Plugin, "waitFor", outcome, ms));
        let records = [
            wait(Outcome::Ok, 10.0),
            wait(Outcome::Interrupted, 60_000.0),
            wait(Outcome::Interrupted, 60_000.0),
        ];
        let criteria = Criteria {
            installed: vec![Installed {
                tool: "waitFor".to_owned(),
                ..installed("wait", None)
            }],
            ..Criteria::default()
        };
        let report = report(&records, 0, &criteria);
        for row in [&report.verbs[0], &report.tools_cli[0], &report.surfaces[0]] {
            let failed = row.usage_errors + row.tool_failures + row.plugin_failures;
            assert_eq!(
                (
                    row.calls,
                    row.ok,
                    row.interrupted,
                    failed + row.other_failures
                ),
                (3, 1, 2, 0),
                "{row:?}"
            );
            assert_eq!((row.p50_ms, row.p90_ms), (10.0, 10.0), "{row:?}");
        }
        assert_eq!(report.losers, []);
        assert_eq!(report.tools_without_named_calls, Vec::<String>::new());
    }

    /// A word of 120,000 characters in the verb's place (an older log's, or one kept
    /// `--with-values`) is cut in the tables' cell, whole in the JSON.
    #[test]
    fn a_long_word_is_cut_in_a_cell_not_in_the_json() {
        let word = "a".repeat(120_000);
        let mut r = cli(&word, Kind::Unknown, "x", Outcome::UsageError, 1.0);
        r.argv = Some(crate::record::argv_shape(&[], |_| false, false));
        let report = report(&[r], 0, &Criteria::default());
        let (_, asked) = report.argv_rows();
        assert_eq!(asked[0][0], format!("{}…", "a".repeat(ARGV_CELL_CHARS - 1)));
        assert_eq!(asked[0][0].chars().count(), ARGV_CELL_CHARS);
        assert_eq!(report.unknown_verbs[0].verb, word);
        // A short one is whole.
        assert_eq!(cell("get-text WORD".to_owned()), "get-text WORD");
        assert_eq!(cell("é".repeat(80)), "é".repeat(80));
    }

    #[test]
    fn many_other_words_are_counted_not_spelled_out() {
        let shape = |positionals| Refused {
            verb: "wait-for".to_owned(),
            kind: Some(Kind::Derived),
            options: vec!["--selector".to_owned()],
            positionals,
            times: 1,
            last: String::new(),
            nearest: None,
        };
        assert_eq!(shape(2).argv(), "wait-for --selector WORD WORD");
        assert_eq!(
            shape(8).argv(),
            format!("wait-for --selector{}", " WORD".repeat(8))
        );
        assert_eq!(shape(9).argv(), "wait-for --selector WORD ×9");
        assert_eq!(
            shape(u32::MAX).argv(),
            "wait-for --selector WORD ×4294967295"
        );
    }

    #[test]
    fn verbs_asked_for_that_do_not_exist_are_listed_apart_with_their_argv() {
        let asked = |verb: &str, argv: &[&str]| {
            let mut r = Record::new(Side::Cli, Surface::Cli, Outcome::UsageError, 1.0);
            r.verb = Some(verb.to_owned());
            r.kind = Some(Kind::Unknown);
            let argv: Vec<String> = argv.iter().map(|w| (*w).to_owned()).collect();
            // Which options take a value is unknown for a verb that does not exist.
            r.argv = Some(crate::record::argv_shape(&argv, |_| false, false));
            r
        };
        let mut refused_click = asked("click", &["--selector", "#a"]);
        refused_click.kind = Some(Kind::Plugin);
        let records = [
            asked("get-text", &["--selector", "#count"]),
            asked("get-text", &["--selector", "#title"]),
            asked("clik", &["#btn-inc"]),
            refused_click,
        ];
        let report = report(&records, 0, &Criteria::default());
        let unknown: Vec<(String, u64)> = report
            .unknown_verbs
            .iter()
            .map(|r| (r.argv(), r.times))
            .collect();
        assert_eq!(
            unknown,
            [
                ("get-text --selector WORD".to_owned(), 2),
                ("clik WORD".to_owned(), 1)
            ]
        );
        // Not verbs mur ran, nor argv a verb refused; still calls on the cli surface.
        let verbs: Vec<&str> = report.verbs.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(verbs, ["click"]);
        assert_eq!(report.refused.len(), 1, "{:?}", report.refused);
        let surfaces: Vec<(&str, u64)> = report
            .surfaces
            .iter()
            .map(|r| (r.name.as_str(), r.calls))
            .collect();
        assert_eq!(surfaces, [("cli/unknown", 3), ("cli/plugin", 1)]);
    }

    /// A word asked for that is a verb now (installed since it was typed, or one of
    /// mur's own commands the caller names) is a wish granted, gone from the verbs that
    /// do not exist; the report names the logs its caller read, under `--until` too.
    #[test]
    fn a_word_asked_for_that_is_a_verb_now_is_no_verb_that_does_not_exist() {
        let asked = |verb: &str| {
            let mut r = cli(verb, Kind::Unknown, "x", Outcome::UsageError, 1.0);
            r.argv = Some(crate::record::argv_shape(&[], |_| false, false));
            r
        };
        let records = [asked("pick"), asked("catalog"), asked("get-text")];
        let logs_read = LogsRead {
            mur: Some("/home/u/.local/state/mur/usage/usage.jsonl".to_owned()),
            ..LogsRead::default()
        };
        let criteria = Criteria {
            installed: vec![installed("pick", None)],
            known_words: vec!["catalog".to_owned()],
            logs_read: logs_read.clone(),
            ..Criteria::default()
        };
        for until in [None, Some("2099-01-01T00:00:00.000Z".to_owned())] {
            let criteria = Criteria {
                until,
                ..criteria.clone()
            };
            let report = report(&records, 0, &criteria);
            let unknown: Vec<&str> = report
                .unknown_verbs
                .iter()
                .map(|r| r.verb.as_str())
                .collect();
            assert_eq!(unknown, ["get-text"]);
            assert_eq!(report.logs_read, logs_read);
        }
    }

    /// A call of a tool the session does not have (an rpc error: nothing ran) is
    /// counted as the record says, in its own column, on both sides: no tool of the
    /// session's failed.
    #[test]
    fn an_rpc_error_is_no_tool_failure_on_either_side() {
        let served = |tool: &str, outcome| {
            let mut r = Record::new(Side::Server, Surface::Mcp, outcome, 1.0);
            r.tool = Some(tool.to_owned());
            r
        };
        let records = [
            served("getText", Outcome::RpcError),
            served("get_text", Outcome::ToolError),
            cli("call", Kind::Call, "getText", Outcome::RpcError, 1.0),
        ];
        let report = report(&records, 0, &Criteria::default());
        let figures = |rows: &[Row], name: &str| {
            let row = rows.iter().find(|r| r.name == name);
            row.map(|r| (r.calls, r.tool_failures, r.rpc_errors))
        };
        assert_eq!(figures(&report.tools_served, "getText"), Some((1, 0, 1)));
        assert_eq!(figures(&report.tools_served, "get_text"), Some((1, 1, 0)));
        assert_eq!(figures(&report.surfaces, "server/mcp"), Some((2, 1, 1)));
        assert_eq!(figures(&report.tools_cli, "getText"), Some((1, 0, 1)));
        assert_eq!(figures(&report.verbs, "call"), Some((1, 0, 1)));
        let json = serde_json::to_value(&report.tools_served[0]).expect("json");
        assert_eq!(
            (&json["name"], &json["toolFailures"], &json["rpcErrors"]),
            (&"getText".into(), &0.into(), &1.into())
        );
    }

    /// `server/cli` against `server/mcp` is said to be how often each surface was used,
    /// not which agents prefer (operator audit: over a study it is the CLI-only runs
    /// against the MCP-only runs), wherever both rows are — a study's `calls.jsonl`
    /// alone, one side, too; the sides are explained only where both are.
    #[test]
    fn the_surfaces_compared_are_said_to_be_how_often_each_was_used() {
        let served = |surface| {
            let mut r = Record::new(Side::Server, surface, Outcome::Ok, 1.0);
            r.tool = Some("click".to_owned());
            r
        };
        let explained =
            |records: &[Record]| report(records, 0, &Criteria::default()).sides_explained();
        let compared = "`server/cli` against `server/mcp` is how often each was used: a \
                        preference only where the same agents were offered both, not across \
                        a study's CLI-only and MCP-only runs";
        let both = [served(Surface::Cli), served(Surface::Mcp)];
        assert_eq!(explained(&both).as_deref(), Some(compared));
        assert_eq!(explained(&both[..1]), None);
        let mur = cli("click", Kind::Plugin, "click", Outcome::Ok, 1.0);
        assert_eq!(
            explained(&[mur, both[0].clone()]),
            Some(format!(
                "a call of mur's to a session that records usage is in both groups; {compared}"
            ))
        );
    }

    /// The surfaces are grouped as the sessions served them (`server/…`, the comparison)
    /// then as mur ran them (`cli/…`), not interleaved by calls (review 608 #10); a group
    /// with no row is left out.
    #[test]
    fn the_surfaces_are_grouped_the_sessions_first_then_mur_s() {
        let served = |surface| Record::new(Side::Server, surface, Outcome::Ok, 1.0);
        let mut records = vec![served(Surface::Cli), served(Surface::Mcp)];
        records.extend([(); 3].map(|()| cli("click", Kind::Plugin, "click", Outcome::Ok, 1.0)));
        records.push(cli("call", Kind::Call, "click", Outcome::Ok, 1.0));
        let groups = |records: &[Record]| -> Vec<(&str, Vec<String>)> {
            let report = report(records, 0, &Criteria::default());
            (report.surface_groups().into_iter())
                .map(|(title, rows)| (title, rows.into_iter().map(|r| r.name).collect()))
                .collect()
        };
        let [by_session, by_mur] = SURFACE_GROUPS;
        assert_eq!(
            groups(&records),
            [
                (
                    by_session,
                    vec!["server/cli".to_owned(), "server/mcp".to_owned()]
                ),
                (by_mur, vec!["cli/plugin".to_owned(), "cli/call".to_owned()]),
            ]
        );
        assert_eq!(
            groups(&records[2..])[..],
            [(by_mur, vec!["cli/plugin".to_owned(), "cli/call".to_owned()])]
        );
    }

    /// A tool the session only ever refused (a JSON-RPC error), or that no call reached
    /// (no session, mur's own failure), is owed no named verb; nor is a name typed to
    /// `call` that the session's HTTP refused (431: too long for the `Mcp-Name` header;
    /// exit 1, a usage error), which reached no tool, as one with no session did not
    /// (audit 56 #2: an older log's 120,000 `b`s, or `WORD`, were listed). A tool that
    /// ran once, and a verb's refused argv, keep theirs.
    #[test]
    fn a_tool_no_call_reached_is_owed_no_named_verb() {
        let long = "b".repeat(120_000);
        let records = [
            cli("call", Kind::Call, "nosuchtool", Outcome::RpcError, 1.0),
            cli(
                "call",
                Kind::Call,
                &"x".repeat(9000),
                Outcome::SessionError,
                1.0,
            ),
            cli("call", Kind::Call, "broke", Outcome::InternalError, 1.0),
            cli("call", Kind::Call, "fire", Outcome::RpcError, 1.0),
            cli("call", Kind::Call, "fire", Outcome::ToolError, 1.0),
            cli("wait-for", Kind::Derived, "waitFor", Outcome::Ok, 1.0),
            cli("call", Kind::Call, &long, Outcome::UsageError, 1.0),
            cli("call", Kind::Call, "WORD", Outcome::UsageError, 1.0),
            cli("call", Kind::Call, "state", Outcome::UsageError, 1.0),
            cli("call", Kind::Call, "state", Outcome::Ok, 1.0),
            cli("click", Kind::Derived, "click", Outcome::UsageError, 1.0),
        ];
        let report = report(&records, 0, &Criteria::default());
        assert_eq!(
            report.tools_without_named_calls,
            ["click", "fire", "state", "waitFor"]
        );
    }

    /// The calls of a name its record did not keep (`WORD`: no tool of the session has
    /// it, nor is it shaped like a name) are one row of each tools table, named for what it is, and said
    /// beside them; no tool a named verb is owed, also when stopped after its request went
    /// (a row `WORD` read as a tool of that name, and `WORD` was listed as one).
    #[test]
    fn the_calls_of_a_name_not_kept_are_one_row_named_for_what_it_is() {
        let mut stopped = cli("call", Kind::Call, NOT_A_NAME, Outcome::Interrupted, 1.0);
        stopped.phases = Some(crate::record::Phases {
            call: Some(1.0),
            ..Default::default()
        });
        let served = |tool: &str, outcome: Outcome| {
            let mut r = Record::new(Side::Server, Surface::Mcp, outcome, 1.0);
            r.tool = Some(tool.to_owned());
            r
        };
        let records = [
            cli("call", Kind::Call, NOT_A_NAME, Outcome::RpcError, 1.0),
            stopped,
            cli("call", Kind::Call, "state", Outcome::Ok, 1.0),
            served(NOT_A_NAME, Outcome::RpcError),
            served(NOT_A_NAME, Outcome::Interrupted),
        ];
        let report = report(&records, 0, &Criteria::default());
        let names = |rows: &[Row]| -> Vec<(String, u64)> {
            rows.iter().map(|r| (r.name.clone(), r.calls)).collect()
        };
        assert_eq!(
            names(&report.tools_cli),
            [(NO_KNOWN_TOOL.to_owned(), 2), ("state".to_owned(), 1)]
        );
        assert_eq!(names(&report.tools_served), [(NO_KNOWN_TOOL.to_owned(), 2)]);
        assert_eq!(report.tools_without_named_calls, ["state"]);
        assert_eq!(
            report.unknown_tools_explained(),
            Some(NO_KNOWN_TOOL_EXPLAINED)
        );
        let known = super::report(&records[2..3], 0, &Criteria::default());
        assert_eq!(known.unknown_tools_explained(), None);
    }

    /// No record in the selection (an `--agent` with none, a window with none) is said
    /// plainly, and no installed verb's tool is listed as one no named verb reached: with
    /// no call read, every one was (audit 56 #3: `--agent nobody` listed 19 tools).
    #[test]
    fn a_report_over_no_record_says_so_and_lists_no_tool() {
        let criteria = |agent: Option<&str>, since: Option<&str>| Criteria {
            installed: vec![installed("click", None)],
            agent: agent.map(str::to_owned),
            since: since.map(|s| Since(s.to_owned())),
            ..Criteria::default()
        };
        let someone = |mut r: Record| {
            r.agent = Some("claude".to_owned());
            r
        };
        let records = [someone(cli(
            "tree",
            Kind::Derived,
            "tree",
            Outcome::Ok,
            1.0,
        ))];
        let every = report(&records, 0, &criteria(None, None));
        assert_eq!(every.tools_without_named_calls, ["click", "tree"]);
        assert_eq!(
            (every.records_counted(), every.no_record()),
            ("1 record".to_owned(), None)
        );
        let nobody = report(&records, 0, &criteria(Some("nobody"), None));
        assert_eq!(nobody.tools_without_named_calls, Vec::<String>::new());
        assert_eq!(nobody.tools_no_named_verb_reached(), None);
        assert_eq!(
            (nobody.records_counted(), nobody.no_record().as_deref()),
            (
                "0 records".to_owned(),
                Some("no record to report: the logs read hold none of agent `nobody`")
            )
        );
        let later = report(
            &records,
            0,
            &criteria(None, Some("2099-01-01T00:00:00.000Z")),
        );
        assert_eq!(
            later.no_record().as_deref(),
            Some("no record to report: the logs read hold none since 2099-01-01T00:00:00.000Z")
        );
        assert_eq!(later.tools_without_named_calls, Vec::<String>::new());
        let none = report(&[], 0, &criteria(None, None));
        assert_eq!(
            none.no_record().as_deref(),
            Some("no record to report: the logs read hold none")
        );
    }
}
