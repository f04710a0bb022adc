//! The losers of a usage report: the installed named verbs it says to remove,
//! unused over the window losers are judged over or refused or failing too often
//! in it, each with its verdict (the rule it broke, which says itself as the
//! report's sentence).

use std::fmt;

use serde::{Serialize, Serializer};

use crate::clock::Since;
use crate::record::{Kind, Outcome, Record, Side, Surface, of_agent};

/// An installed verb, as the report needs to know it (and judges it).
#[derive(Debug, Clone)]
pub struct Installed {
    pub name: String,
    pub kind: Kind,
    pub tool: String,
    /// SHA-256 of the file installed: the version whose usage errors count toward
    /// its loser rate (one fixed and added again starts afresh). `None`: every
    /// version's.
    pub sha256: Option<String>,
    /// When it was added (RFC 3339, UTC): one added after the unused window began
    /// was not there for all of it, so is not judged unused. `None`: long ago.
    pub added_at: Option<String>,
}

/// What makes a verb refused or failing too often a loser: the rates are the options
/// of `usage report` and `verbs prune`, the least number of calls is mur's own; said
/// again in the report.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoserRule {
    /// A verb whose share of usage errors is above this is a loser.
    pub max_usage_error_rate: f64,
    /// A verb whose share of failures of its own (exit 6: it crashed, ran out of its
    /// time or memory, wrote where it had not declared) is above this is a loser: its
    /// tool ran, and the verb lost the result.
    pub max_plugin_failure_rate: f64,
    /// ... once it has at least this many calls (one bad call says little).
    pub min_calls: u64,
}

impl Default for LoserRule {
    fn default() -> Self {
        Self {
            max_usage_error_rate: 0.5,
            // Lower: a usage error may be the caller's slip, a failure of the verb's
            // own is always the verb's, and its tool had run.
            max_plugin_failure_rate: 0.2,
            min_calls: 3,
        }
    }
}

/// A verb the report says to remove, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Loser {
    pub verb: String,
    pub kind: Kind,
    /// Why: the rule it broke ([`Verdict`]); in the JSON, the sentence that says it.
    pub reason: Verdict,
    /// Its calls in the window losers are judged over (`unused_since`): for a
    /// verb refused or failing too often, those of the version installed, which
    /// the rates are of; none for an unused one.
    pub calls: u64,
    pub usage_error_rate: f64,
    /// The share of those calls the verb itself failed (exit 6).
    pub plugin_failure_rate: f64,
    /// The exact command that removes it.
    pub command: String,
}

/// Why a verb is a loser: the rule it broke, with the figures its sentence says
/// (`Display`). A consumer that needs the rule matches on it; the renderings and
/// the JSON's `reason` say the sentence, so a rule added is a sentence added, not
/// a field of the schema.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// No call over the window: since `since`, or in the whole log (`None`), of
    /// `agent`'s when the report is one agent's; `last_used`, its last call before the
    /// window, when the logs read hold one (none: never used in them).
    Unused {
        agent: Option<String>,
        since: Option<String>,
        last_used: Option<String>,
    },
    /// No call in the logs named with `--only-named` (of `agent`'s), which begin
    /// inside the window: judged over their span, `first` to `last` record.
    NeverInNamed {
        agent: Option<String>,
        first: String,
        last: String,
    },
    /// Its share of usage errors, `rate`, is above the rule's `max`, over `judged`
    /// invocations; `installed_only`: those of the version installed, as it has
    /// calls of others.
    UsageErrors {
        rate: f64,
        max: f64,
        judged: u64,
        installed_only: bool,
    },
    /// Its share of failures of its own (exit 6) is above the rule's, likewise.
    VerbFailures {
        rate: f64,
        max: f64,
        judged: u64,
        installed_only: bool,
    },
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let by = |agent: &Option<String>| {
            (agent.as_ref())
                .map(|a| format!(" by `{a}`"))
                .unwrap_or_default()
        };
        match self {
            // When it was last used, not the window's start as if it were (review 608
            // #8); "never used in …" as over the logs named.
            Self::Unused {
                agent,
                since,
                last_used,
            } => {
                let by = by(agent);
                match (since, last_used) {
                    (Some(since), Some(last)) => {
                        write!(
                            f,
                            "last used{by} {last}, none in the window (since {since})"
                        )
                    }
                    (Some(since), None) => {
                        write!(f, "never used{by} in the window (since {since})")
                    }
                    (None, _) => write!(f, "never used{by} in the log"),
                }
            }
            Self::NeverInNamed { agent, first, last } => {
                let by = by(agent);
                write!(f, "never used{by} in the logs named ({first} to {last})")
            }
            Self::UsageErrors {
                rate,
                max,
                judged,
                installed_only,
            }
            | Self::VerbFailures {
                rate,
                max,
                judged,
                installed_only,
            } => {
                let (rate, max) = percents(*rate, *max);
                let version = match installed_only {
                    true => " (the version installed)",
                    false => "",
                };
                // Invocations, not calls: a usage error is argv mur refused before any call.
                let (counted, broke) = match self {
                    Self::UsageErrors { .. } => ("invocations", "were usage errors"),
                    _ => ("calls", "failed in the verb itself, exit 6"),
                };
                write!(
                    f,
                    "{rate}% of its {judged} {counted}{version} {broke} (above {max}%)"
                )
            }
        }
    }
}

/// The sentence, as `usage report --json` has always said a loser's `reason`.
impl Serialize for Verdict {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Loser {
    fn new(verb: &Installed, reason: Verdict, counts: &Counts) -> Self {
        // The calls the rates are of: for an unused verb none, for one refused or
        // failing too often those of the version installed.
        let (calls, rate, failure_rate) = match reason {
            Verdict::Unused { .. } | Verdict::NeverInNamed { .. } => (0, 0.0, 0.0),
            _ => (
                counts.judged,
                counts.share(counts.errors),
                counts.share(counts.failures),
            ),
        };
        Self {
            verb: verb.name.clone(),
            kind: verb.kind,
            reason,
            calls,
            usage_error_rate: (rate * 1000.0).round() / 1000.0,
            plugin_failure_rate: (failure_rate * 1000.0).round() / 1000.0,
            command: format!("mur devtools verbs remove {}", verb.name),
        }
    }
}

/// The losers, and the verbs too recent to be judged unused.
pub(crate) struct Judged {
    pub(crate) losers: Vec<Loser>,
    pub(crate) added_in_window: Vec<String>,
}

/// The `installed` named verbs with no call in the `window` (when the log covered
/// it and the verb was installed before it began), or refused or failing too
/// often in it by `rule`:
/// both verdicts over the one window, whatever window the report's tables show,
/// so `usage report` and `verbs prune` name the same losers. A verb's calls are
/// those of its name and kind, any version; its usage errors, those of the
/// version installed.
pub(crate) fn losers(window: &Window, installed: &[Installed], rule: &LoserRule) -> Judged {
    let mut judged = Judged {
        losers: Vec::new(),
        added_in_window: Vec::new(),
    };
    for verb in installed.iter().filter(|v| v.kind.is_named()) {
        let counts = Counts::of(verb, window);
        if !counts.used && window.covered && window.added_late(verb) {
            judged.added_in_window.push(verb.name.clone());
        }
        if let Some(verdict) = judge(verb, &counts, window, rule) {
            judged.losers.push(Loser::new(verb, verdict, &counts));
        }
    }
    judged
}

/// The window losers are judged over (`--unused-for`, else the report's `--since`),
/// and which records are in it. Without `since`, it is the whole log (of `--agent`),
/// begun at its first record of mur's.
pub(crate) struct Window<'a> {
    records: &'a [Record],
    agent: Option<&'a str>,
    since: Option<&'a Since>,
    /// Where it began: `since`, else the first record of mur's in it.
    began: Option<&'a str>,
    /// Whether the log reaches back over all of it, and recording is not off since a
    /// time in it (a time it was off and on again only lengthened it).
    covered: bool,
    /// Whether the logs read are those named alone (`--only-named`): the whole record
    /// the caller judges by, so every installed verb is judged, whenever it was added
    /// to this verb directory (the logs were written elsewhere: a study's sandboxes).
    only_named: bool,
    /// The first and last record of the logs named, when the window is theirs: it
    /// began before their first, so is judged from it ([`Window::of_logs_named`]).
    named_span: Option<(String, String)>,
}

impl<'a> Window<'a> {
    pub(crate) fn new(
        records: &'a [Record],
        agent: Option<&'a str>,
        since: Option<&'a Since>,
        covered: bool,
    ) -> Self {
        let mut window = Self {
            records,
            agent,
            since,
            began: since.map(|s| s.0.as_str()),
            covered,
            only_named: false,
            named_span: None,
        };
        if since.is_none() {
            window.began = window.mur_calls().map(|r| r.time.as_str()).min();
        }
        window
    }

    /// The window over the logs named alone (`--only-named`), `span` their first and
    /// last record when the window asked for began before the first (`since` is then
    /// that first record): their span is what a verb went unused over.
    pub(crate) fn of_logs_named(mut self, span: Option<(String, String)>) -> Self {
        self.only_named = true;
        self.named_span = span;
        self
    }

    fn admits(&self, record: &Record) -> bool {
        self.since.is_none_or(|s| s.admits(&record.time))
    }

    /// mur's records in it, of the agent's.
    fn mur_calls(&self) -> impl Iterator<Item = &'a Record> {
        (self.records.iter())
            .filter(move |r| r.side == Side::Cli && of_agent(r, self.agent) && self.admits(r))
    }

    /// A session's records in it of mur's calls (side `server`, surface `cli`): they
    /// name the verb and its kind too, a use whichever log holds it (mur's own may
    /// be elsewhere: another home, a container, a run of mur-eval). They name no
    /// agent, so count only for every agent's report; the rates stay mur's
    /// records', which alone see a refused argv.
    fn served_calls(&self) -> impl Iterator<Item = &'a Record> {
        self.records.iter().filter(move |r| {
            r.side == Side::Server
                && r.surface == Surface::Cli
                && self.agent.is_none()
                && self.admits(r)
        })
    }

    /// The records before it of a verb's use: mur's, of the agent's, and for every
    /// agent's report a session's of mur's calls ([`Window::served_calls`]).
    fn uses_before(&self) -> impl Iterator<Item = &'a Record> {
        self.records.iter().filter(move |r| {
            !self.admits(r)
                && match r.side {
                    Side::Cli => of_agent(r, self.agent),
                    Side::Server => r.surface == Surface::Cli && self.agent.is_none(),
                }
        })
    }

    /// Whether `verb` was added after the window began: not there for all of it.
    /// (`addedAt` is to the second, `…:05Z`, which sorts after every `…:05.mmmZ`: a
    /// verb added in the second the window began counts as added after it.)
    fn added_late(&self, verb: &Installed) -> bool {
        if self.only_named {
            return false;
        }
        match (self.began, &verb.added_at) {
            (Some(began), Some(added)) => added.as_str() > began,
            _ => false,
        }
    }
}

/// A verb's calls over the window.
#[derive(Default)]
struct Counts {
    /// mur's records of it, any version.
    calls: u64,
    /// Whether it was used: a record of mur's, or a session's of mur's call.
    used: bool,
    /// mur's records of the version installed, which the rates are of.
    judged: u64,
    /// Of those, the usage errors and the verb's own failures (exit 6).
    errors: u64,
    failures: u64,
    /// Its last use before the window, in the records read (mur's, of the agent's; a
    /// session's of mur's call too for every agent's report).
    last_before: Option<String>,
}

impl Counts {
    fn of(verb: &Installed, window: &Window) -> Self {
        let is_verb =
            |r: &Record| r.verb.as_deref() == Some(verb.name.as_str()) && r.kind == Some(verb.kind);
        // A record that names no version (an older mur's) may be of this one.
        let this_version = |r: &Record| match (&verb.sha256, &r.verb_hash) {
            (Some(installed), Some(ran)) => installed == ran,
            _ => true,
        };
        let mut counts = Self::default();
        for record in window.mur_calls().filter(|r| is_verb(r)) {
            counts.calls += 1;
            if this_version(record) {
                counts.judged += 1;
                counts.errors += u64::from(record.outcome == Outcome::UsageError);
                counts.failures += u64::from(record.outcome == Outcome::PluginError);
            }
        }
        counts.used = counts.calls > 0 || window.served_calls().any(is_verb);
        counts.last_before = (window.uses_before().filter(|r| is_verb(r)))
            .map(|r| r.time.clone())
            .max();
        counts
    }

    /// `count`'s share of the calls judged.
    fn share(&self, count: u64) -> f64 {
        match self.judged {
            0 => 0.0,
            judged => count as f64 / judged as f64,
        }
    }
}

/// The verdict on `verb` if it is a loser by `rule`: unused over the window, else
/// refused too often, else failing too often (each once it has the least calls).
fn judge(verb: &Installed, counts: &Counts, window: &Window, rule: &LoserRule) -> Option<Verdict> {
    if !counts.used && window.covered && !window.added_late(verb) {
        let agent = window.agent.map(str::to_owned);
        return Some(match &window.named_span {
            Some((first, last)) => Verdict::NeverInNamed {
                agent,
                first: first.clone(),
                last: last.clone(),
            },
            None => Verdict::Unused {
                agent,
                since: window.since.map(|s| s.0.clone()),
                last_used: counts.last_before.clone(),
            },
        });
    }
    let (judged, installed_only) = (counts.judged, counts.judged < counts.calls);
    if judged < rule.min_calls {
        return None;
    }
    let (rate, max) = (counts.share(counts.errors), rule.max_usage_error_rate);
    if rate > max {
        return Some(Verdict::UsageErrors {
            rate,
            max,
            judged,
            installed_only,
        });
    }
    let (rate, max) = (counts.share(counts.failures), rule.max_plugin_failure_rate);
    (rate > max).then_some(Verdict::VerbFailures {
        rate,
        max,
        judged,
        installed_only,
    })
}

/// `rate` and `max` (`rate` above it) as percentages, whole unless rounding would
/// make the one no larger than the other (`50% … (above 50%)` for 50.5%).
pub(crate) fn percents(rate: f64, max: f64) -> (String, String) {
    let (rate, max) = (rate * 100.0, max * 100.0);
    let at = |digits: usize| (format!("{rate:.digits$}"), format!("{max:.digits$}"));
    (0..4)
        .map(at)
        .find(|(r, m)| r.parse::<f64>().ok() > m.parse::<f64>().ok())
        .unwrap_or_else(|| at(4))
}

/// Each loser's verb and the sentence its verdict says: what the tests of both the
/// losers and the report compare.
#[cfg(test)]
pub(crate) fn verdicts(losers: &[Loser]) -> Vec<(&str, String)> {
    losers
        .iter()
        .map(|l| (l.verb.as_str(), l.reason.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn installed(name: &str, added_at: Option<&str>) -> Installed {
        Installed {
            name: name.to_owned(),
            kind: Kind::Plugin,
            tool: name.to_owned(),
            sha256: None,
            added_at: added_at.map(str::to_owned),
        }
    }

    fn call(verb: &str, outcome: Outcome, time: &str) -> Record {
        let mut r = Record::new(Side::Cli, Surface::Cli, outcome, 1.0);
        r.verb = Some(verb.to_owned());
        r.kind = Some(Kind::Plugin);
        r.time = time.to_owned();
        r
    }

    /// Each rule says the sentence `usage report`, `verbs prune` and the page say.
    #[test]
    fn each_verdict_says_its_sentence() {
        let said = |verdict: Verdict| verdict.to_string();
        let unused =
            |agent: Option<&str>, since: Option<&str>, last: Option<&str>| Verdict::Unused {
                agent: agent.map(str::to_owned),
                since: since.map(str::to_owned),
                last_used: last.map(str::to_owned),
            };
        assert_eq!(
            said(unused(None, Some("2026-01-01T00:00:00Z"), None)),
            "never used in the window (since 2026-01-01T00:00:00Z)"
        );
        assert_eq!(
            said(unused(
                Some("beta"),
                Some("2026-01-01T00:00:00Z"),
                Some("2025-12-31T23:59:59.500Z")
            )),
            "last used by `beta` 2025-12-31T23:59:59.500Z, none in the window \
             (since 2026-01-01T00:00:00Z)"
        );
        assert_eq!(
            said(unused(Some("beta"), None, None)),
            "never used by `beta` in the log"
        );
        let named = Verdict::NeverInNamed {
            agent: None,
            first: "2026-01-01T10:00:00.000Z".to_owned(),
            last: "2026-01-01T10:04:00.000Z".to_owned(),
        };
        assert_eq!(
            said(named),
            "never used in the logs named (2026-01-01T10:00:00.000Z to 2026-01-01T10:04:00.000Z)"
        );
        let errors = Verdict::UsageErrors {
            rate: 0.75,
            max: 0.5,
            judged: 4,
            installed_only: true,
        };
        assert_eq!(
            said(errors),
            "75% of its 4 invocations (the version installed) were usage errors (above 50%)"
        );
        let failures = Verdict::VerbFailures {
            rate: 51.0 / 101.0,
            max: 0.5,
            judged: 101,
            installed_only: false,
        };
        assert_eq!(
            said(failures),
            "50.5% of its 101 calls failed in the verb itself, exit 6 (above 50.0%)"
        );
    }

    /// The JSON of a loser is what it was when the reason was a string: the sentence,
    /// no field for the rule.
    #[test]
    fn a_loser_s_json_says_the_sentence_as_its_reason() {
        let records = [(); 3].map(|()| call("tree", Outcome::UsageError, "2026-01-01T00:00:01Z"));
        let window = Window::new(&records, None, None, true);
        let judged = losers(&window, &[installed("tree", None)], &LoserRule::default());
        let [loser] = judged.losers.as_slice() else {
            panic!("one loser: {:?}", judged.losers.len());
        };
        assert!(matches!(
            loser.reason,
            Verdict::UsageErrors {
                judged: 3,
                installed_only: false,
                ..
            }
        ));
        assert_eq!(
            serde_json::to_string(loser).expect("a loser as JSON"),
            "{\"verb\":\"tree\",\"kind\":\"plugin\",\
             \"reason\":\"100% of its 3 invocations were usage errors (above 50%)\",\
             \"calls\":3,\"usageErrorRate\":1.0,\"pluginFailureRate\":0.0,\
             \"command\":\"mur devtools verbs remove tree\"}"
        );
    }

    /// A verb added after the window began is not judged unused, and is named as such.
    #[test]
    fn a_verb_added_in_the_window_is_no_unused_loser() {
        let records = [call("click", Outcome::Ok, "2026-01-01T00:00:00.500Z")];
        let installed = [
            installed("old", Some("2025-12-01T00:00:00Z")),
            installed("new", Some("2026-01-01T00:00:00Z")),
        ];
        let window = Window::new(&records, None, None, true);
        let judged = losers(&window, &installed, &LoserRule::default());
        assert_eq!(
            verdicts(&judged.losers),
            [("old", "never used in the log".to_owned())]
        );
        assert_eq!(judged.added_in_window, ["new"]);
    }

    /// Over the logs named alone, a verb added to this verb directory in the window is
    /// judged all the same: when it was added here says nothing of those logs.
    #[test]
    fn over_the_logs_named_alone_every_installed_verb_is_judged() {
        let records = [call("click", Outcome::Ok, "2026-01-01T00:00:00.500Z")];
        let installed = [installed("new", Some("2026-06-01T00:00:00Z"))];
        let span = (
            "2026-01-01T00:00:00.500Z".to_owned(),
            "2026-01-01T00:00:00.500Z".to_owned(),
        );
        let window = Window::new(&records, None, None, true).of_logs_named(Some(span));
        let judged = losers(&window, &installed, &LoserRule::default());
        let unused: Vec<String> = (judged.losers.iter())
            .map(|l| l.reason.to_string())
            .collect();
        assert_eq!(
            unused,
            ["never used in the logs named (2026-01-01T00:00:00.500Z to 2026-01-01T00:00:00.500Z)"]
        );
        assert!(judged.added_in_window.is_empty());
    }

    #[test]
    fn a_rate_said_above_its_limit_is_written_above_it() {
        let said = |rate, max| {
            let (rate, max) = percents(rate, max);
            format!("{rate} > {max}")
        };
        assert_eq!(said(0.75, 0.5), "75 > 50");
        assert_eq!(said(51.0 / 101.0, 0.5), "50.5 > 50.0");
        assert_eq!(said(1.0, 0.999), "100.0 > 99.9");
        assert_eq!(said(0.3334, 1.0 / 3.0), "33.34 > 33.33");
    }

    /// An unused verb's verdict says when it was last used, before the window, not the
    /// window's start as if that were when (review 608 #8); one never used says so.
    #[test]
    fn an_unused_verb_is_said_last_used_when_it_was() {
        let since = Since("2026-01-01T00:00:00.000Z".to_owned());
        let records = [
            call("click", Outcome::Ok, "2025-12-30T10:00:00.000Z"),
            call("click", Outcome::Ok, "2025-12-31T10:00:00.000Z"),
            call("tree", Outcome::Ok, "2026-01-01T10:00:00.000Z"),
        ];
        let installed = [
            installed("click", None),
            installed("collapse", None),
            installed("tree", None),
        ];
        let window = Window::new(&records, None, Some(&since), true);
        let judged = losers(&window, &installed, &LoserRule::default());
        assert_eq!(
            verdicts(&judged.losers),
            [
                (
                    "click",
                    "last used 2025-12-31T10:00:00.000Z, none in the window \
                     (since 2026-01-01T00:00:00.000Z)"
                        .to_owned()
                ),
                (
                    "collapse",
                    "never used in the window (since 2026-01-01T00:00:00.000Z)".to_owned()
                ),
            ]
        );
    }
}
