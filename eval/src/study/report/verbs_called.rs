//! "Verbs called, by condition": the verbs installed for each condition's runs, those
//! its runs invoked and those none did, and how to prune them; a table of `report.md` and
//! of the page.

use std::collections::BTreeMap;

use super::cells::Section;
use super::rows::{Row, Rows};
use crate::study::result::RunResult;
use crate::words::plural;

/// A condition's column of "Verbs called, by condition".
#[derive(Debug, Clone, PartialEq)]
pub struct VerbColumn {
    pub condition: String,
    /// Its runs made that recorded the verbs installed for them.
    pub with_verbs: u32,
    /// Of those, the runs that also recorded which verbs their agent invoked: the cells
    /// are over these (an older `mur-eval` recorded none).
    pub known: u32,
    /// The verbs its runs reached as derived verbs, not as a named verb installed for
    /// them (one `verbs prune` removed, answered by the session's tool of its name), name
    /// → invocations; and its runs' `call` invocations.
    pub derived: BTreeMap<String, u64>,
    pub through_call: u64,
}

/// A verb under a condition: `None` not installed for its runs, else the runs that
/// invoked it and its invocations.
pub type VerbCell = Option<(u32, u64)>;

/// "Verbs called, by condition": per verb installed for a condition's runs, the runs
/// that invoked it and its invocations (each run's `verbsCalled`, from mur's records of
/// the agent's invocations) — and the installed verbs no run called, which is what an
/// operator prunes: verbs, not the tools [`ToolsUsed`](super::tools_used::ToolsUsed) names
/// (`wait` calls `waitFor`, several verbs may call one tool, and a verb never called calls
/// none).
#[derive(Debug, Clone, PartialEq)]
pub struct VerbsCalled {
    /// The conditions whose runs recorded their installed verbs, in the report's order,
    /// those with no run that recorded what it called among them.
    pub conditions: Vec<VerbColumn>,
    /// `(verb, [cell] in the order of the conditions whose calls are known)`, most
    /// invocations first, then by name.
    pub verbs: Vec<(String, Vec<VerbCell>)>,
    /// How long a window `verbs prune --until last` needs to cover the runs: whole
    /// hours from the first run's start to the last one's end (`None` when the runs
    /// say no start, as an older `mur-eval`'s).
    pub window_hours: Option<u64>,
}

impl VerbsCalled {
    /// `None` when no condition's runs recorded the verbs installed for them (no cli
    /// condition, or results of an older `mur-eval`).
    pub(super) fn of(rows: &Rows<'_>) -> Option<Self> {
        let made = |condition: &str| -> Vec<&RunResult> {
            rows.made(condition)
                .filter(|r| r.verbs.as_ref().is_some_and(|v| !v.is_empty()))
                .collect()
        };
        let with_verbs: Vec<(Vec<&RunResult>, &Row)> = rows
            .conditions
            .iter()
            .map(|row| (made(&row.condition), row))
            .filter(|(runs, _)| !runs.is_empty())
            .collect();
        let conditions: Vec<(VerbColumn, Vec<&RunResult>)> = with_verbs
            .iter()
            .map(|(runs, row)| {
                let known: Vec<&RunResult> = runs
                    .iter()
                    .copied()
                    .filter(|r| r.verbs_called.is_some())
                    .collect();
                let mut derived: BTreeMap<String, u64> = BTreeMap::new();
                for (verb, times) in runs
                    .iter()
                    .filter_map(|r| r.derived_called.as_ref())
                    .flatten()
                {
                    let n = derived.entry(verb.clone()).or_default();
                    *n = n.saturating_add(u64::from(*times));
                }
                derived.retain(|_, n| *n > 0);
                let column = VerbColumn {
                    condition: row.condition.clone(),
                    with_verbs: runs.len() as u32,
                    known: known.len() as u32,
                    derived,
                    through_call: runs
                        .iter()
                        .filter_map(|r| r.call_invocations)
                        .map(u64::from)
                        .fold(0, u64::saturating_add),
                };
                (column, known)
            })
            .collect();
        if conditions.is_empty() {
            return None;
        }
        let tabled: Vec<&Vec<&RunResult>> = conditions
            .iter()
            .filter(|(column, _)| column.known > 0)
            .map(|(_, known)| known)
            .collect();
        let mut by_verb: BTreeMap<String, Vec<VerbCell>> = BTreeMap::new();
        for (index, known) in tabled.iter().enumerate() {
            let installed = known.iter().flat_map(|r| r.verbs.iter().flatten());
            for (verb, _) in installed {
                let cells = by_verb
                    .entry(verb.clone())
                    .or_insert_with(|| vec![None; tabled.len()]);
                cells[index] = Some((0, 0));
            }
            for called in known.iter().filter_map(|r| r.verbs_called.as_ref()) {
                for (verb, times) in called {
                    // A verb the agent added itself was not installed for the run.
                    let cell = by_verb
                        .get_mut(verb)
                        .and_then(|cells| cells[index].as_mut());
                    if let Some((runs, calls)) = cell
                        && *times > 0
                    {
                        *runs += 1;
                        *calls = calls.saturating_add(u64::from(*times));
                    }
                }
            }
        }
        let total = |cells: &[VerbCell]| -> u64 {
            cells
                .iter()
                .flatten()
                .map(|c| c.1)
                .fold(0, u64::saturating_add)
        };
        let mut verbs: Vec<(String, Vec<VerbCell>)> = by_verb.into_iter().collect();
        // Stable: equal totals stay in the verbs' names' order.
        verbs.sort_by_key(|(_, cells)| std::cmp::Reverse(total(cells)));
        let runs = with_verbs.iter().flat_map(|(runs, _)| runs);
        Some(Self {
            conditions: conditions.into_iter().map(|(c, _)| c).collect(),
            verbs,
            window_hours: window_hours(runs.copied()),
        })
    }

    /// The columns of the conditions whose calls are known.
    fn tabled(&self) -> impl Iterator<Item = &VerbColumn> {
        self.conditions.iter().filter(|c| c.known > 0)
    }

    /// The table's header and rows: `2/3 · 7` is 2 of the condition's 3 runs invoked the
    /// verb, 7 times in all; `–` it was installed and none did.
    fn table(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let header = std::iter::once("verb".to_owned())
            .chain(self.tabled().map(|c| c.condition.clone()))
            .collect();
        let rows = self
            .verbs
            .iter()
            .map(|(verb, cells)| {
                let cells = cells
                    .iter()
                    .zip(self.tabled())
                    .map(|(cell, column)| match cell {
                        None => "not installed".to_owned(),
                        Some((0, _)) => "–".to_owned(),
                        Some((runs, calls)) => format!("{runs}/{} · {calls}", column.known),
                    });
                std::iter::once(verb.clone()).chain(cells).collect()
            })
            .collect();
        (header, rows)
    }

    /// Per condition whose calls are known, the verbs installed for it that no run
    /// invoked, and those installed for it, each in their names' order.
    fn unused(&self) -> Vec<(&VerbColumn, Vec<&str>, Vec<&str>)> {
        self.tabled()
            .enumerate()
            .map(|(index, column)| {
                let installed = self
                    .verbs
                    .iter()
                    .filter(|(_, cells)| cells[index].is_some());
                let mut unused: Vec<&str> = installed
                    .clone()
                    .filter(|(_, cells)| cells[index].is_some_and(|(runs, _)| runs == 0))
                    .map(|(verb, _)| verb.as_str())
                    .collect();
                unused.sort_unstable();
                let mut installed: Vec<&str> = installed.map(|(verb, _)| verb.as_str()).collect();
                installed.sort_unstable();
                (column, unused, installed)
            })
            .collect()
    }

    /// Under the table: the verbs no run called, per condition; the runs whose calls are
    /// unknown; and how to prune the verbs no run called.
    fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let unused = self.unused();
        if !unused.is_empty() {
            let clauses: Vec<String> = unused
                .iter()
                .map(|(column, verbs, installed)| {
                    let named: Vec<String> = verbs.iter().map(|v| format!("`{v}`")).collect();
                    match verbs.len() {
                        0 => format!("`{}` none of {}", column.condition, installed.len()),
                        n => format!(
                            "`{}` {n} of {} ({})",
                            column.condition,
                            installed.len(),
                            named.join(", ")
                        ),
                    }
                })
                .collect();
            lines.push(format!(
                "Installed and called by no run: {}.",
                clauses.join("; ")
            ));
        }
        let otherwise: Vec<String> = self
            .conditions
            .iter()
            .filter(|c| !c.derived.is_empty() || c.through_call > 0)
            .map(|c| {
                let mut parts = Vec::new();
                if !c.derived.is_empty() {
                    let total = c.derived.values().fold(0, |a: u64, n| a.saturating_add(*n));
                    let verbs: Vec<String> = c
                        .derived
                        .iter()
                        .map(|(v, n)| format!("`{v}` {n}"))
                        .collect();
                    parts.push(format!(
                        "{} of derived verbs ({}: no named verb installed by that name)",
                        plural(total as usize, "invocation"),
                        verbs.join(", ")
                    ));
                }
                if c.through_call > 0 {
                    parts.push(format!(
                        "{} through `call`",
                        plural(c.through_call as usize, "invocation")
                    ));
                }
                format!("`{}` {}", c.condition, parts.join(" and "))
            })
            .collect();
        if !otherwise.is_empty() {
            lines.push(format!(
                "Reached otherwise than through the named verbs installed (not in the table; a \
                 verb pruned since is still used this way, unnamed): {}.",
                otherwise.join("; ")
            ));
        }
        let unknown: Vec<String> = self
            .conditions
            .iter()
            .filter(|c| c.known < c.with_verbs)
            .map(|c| {
                let what = if c.known == 0 {
                    "not tabled"
                } else {
                    "a verb said called by no run may have been called in them"
                };
                format!(
                    "`{}` {} of {} ({what})",
                    c.condition,
                    c.with_verbs - c.known,
                    plural(c.with_verbs as usize, "run")
                )
            })
            .collect();
        if !unknown.is_empty() {
            lines.push(format!(
                "Which verbs were called is unknown for runs an older `mur-eval` recorded, \
                 which kept no verb names: {}; `mur devtools usage report --server-log \
                 runs/<condition>/*/*/state/mur/usage/usage.jsonl` reads them from the runs' \
                 own logs.",
                unknown.join("; ")
            ));
        }
        if let Some((column, _, installed)) = unused.iter().find(|(_, verbs, _)| !verbs.is_empty())
        {
            let window = self
                .window_hours
                .map_or_else(|| "DURATION".to_owned(), |hours| format!("{hours}h"));
            let covers = match self.window_hours {
                Some(_) => format!("`{window}` covers the study's runs"),
                None => "`DURATION` as long as the study's runs took".to_owned(),
            };
            let runs = format!("runs/{}/*/*", column.condition);
            // The verbs its runs had, alone: the logs say nothing of a verb installed
            // since, which would be "never used in the logs named" (review 407 #3).
            let had = installed.join(",");
            lines.push(format!(
                "To remove them from your installed verbs, judged on the runs' own logs alone, \
                 one condition at a time: from the study's directory, `mur devtools verbs prune \
                 --only-named --only-verbs {had} --until last --unused-for {window} \
                 --server-log {runs}/calls.jsonl {runs}/state/mur/usage/usage.jsonl` \
                 ({covers}; `--only-verbs` names the verbs its runs had installed, so a verb \
                 you added since is not judged) prints what it would remove and `--yes` \
                 removes it (docs/usage.md, \"Removing the losers\"; a next study measures \
                 the rest only without `--verbs`: docs/eval.md, \"Pruning verbs between \
                 studies\")."
            ));
        }
        lines
    }

    /// The section, as `report.md` and the page show it ([`Section::markdown`],
    /// [`Section::html`]).
    pub(super) fn section(&self) -> Section {
        let (header, rows) = self.table();
        Section {
            title: VERBS_CALLED,
            says: VERBS_CALLED_SAYS,
            table: (header.len() > 1).then_some((header, rows)),
            lines: self.lines(),
        }
    }
}

const VERBS_CALLED: &str = "Verbs called, by condition";
const VERBS_CALLED_SAYS: &str = "Per verb installed for a condition's runs (the conditions \
    that install verbs), of its runs the ones that invoked it — any invocation mur \
    recorded, a refused one too, as `usage report` counts a use — then the invocations \
    (`2/3 · 7`; `–` none), most invocations first.";

/// The whole hours from the first of `runs`' starts to the last one's end (at least 1):
/// a `verbs prune --only-named --until last --unused-for` window over the runs' logs that
/// begins before their first call, so is judged over their span (every run's calls).
/// `None` when no run says when it started.
fn window_hours<'a>(runs: impl Iterator<Item = &'a RunResult>) -> Option<u64> {
    let spans: Vec<(i128, i128)> = runs
        .filter_map(|r| {
            let start = started_millis(r.started_at.as_deref()?)?;
            Some((start, start + r.wall_ms.max(0.0) as i128))
        })
        .collect();
    let first = spans.iter().map(|s| s.0).min()?;
    let last = spans.iter().map(|s| s.1).max()?;
    const HOUR: i128 = 3_600_000;
    Some(((last - first + HOUR - 1) / HOUR).max(1) as u64)
}

/// A run's `startedAt` (UTC RFC 3339 with milliseconds, as mur-eval writes it) in
/// milliseconds since the Unix epoch.
fn started_millis(text: &str) -> Option<i128> {
    // `2026-12-02T06:42:22.123Z`: mur-eval's own form; another is no start.
    let time = text.strip_suffix('Z').filter(|t| t.len() == 23)?;
    let field = |at: usize, len: usize| time.get(at..at + len)?.parse::<u16>().ok();
    let month = time::Month::try_from(u8::try_from(field(5, 2)?).ok()?).ok()?;
    let date = time::Date::from_calendar_date(i32::from(field(0, 4)?), month, field(8, 2)? as u8);
    let [hour, minute, second] = [field(11, 2)?, field(14, 2)?, field(17, 2)?.min(59)];
    let clock = time::Time::from_hms_milli(hour as u8, minute as u8, second as u8, field(20, 3)?);
    let at = time::PrimitiveDateTime::new(date.ok()?, clock.ok()?).assume_utc();
    Some(at.unix_timestamp_nanos() / 1_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::report::{markdown, page, rows, testing::*};

    /// A run of `condition` with `installed` verbs, which invoked `called` (`None`: an
    /// older `mur-eval`'s record, which kept no verb names), started at `started`.
    fn invoking(
        condition: &str,
        repeat: u32,
        installed: &[&str],
        called: Option<&[(&str, u32)]>,
        started: &str,
    ) -> RunResult {
        let mut run = result(condition, "count", true, 3, 100);
        run.id = format!("{condition}/count/{repeat}");
        run.repeat = repeat;
        run.verbs = Some(
            installed
                .iter()
                .map(|v| ((*v).to_owned(), format!("sha-of-{v}")))
                .collect(),
        );
        run.verbs_called =
            called.map(|called| called.iter().map(|(v, n)| ((*v).to_owned(), *n)).collect());
        run.started_at = Some(started.to_owned());
        run
    }

    #[test]
    fn the_verbs_each_condition_called_and_those_no_run_called_are_said() {
        let standard = ["click", "collapse", "state", "tree", "wait"];
        // A record as an older mur-eval wrote it: no `verbsCalled`, read back as unknown.
        let older = {
            let run = invoking("both", 2, &standard, None, "2026-12-02T10:20:00.000Z");
            let line = serde_json::to_string(&run).expect("json");
            assert!(!line.contains("verbsCalled"), "{line}");
            serde_json::from_str::<RunResult>(&line).expect("an older line")
        };
        let mut not_made = invoking(
            "cli-named",
            4,
            &standard,
            Some(&[("tree", 9)]),
            "2026-12-02T10:00:00.000Z",
        );
        not_made.error = Some("the session never started".to_owned());
        let results = [
            invoking(
                "cli-named",
                1,
                &standard,
                Some(&[("click", 4), ("state", 1)]),
                "2026-12-02T10:00:00.000Z",
            ),
            invoking(
                "cli-named",
                2,
                &standard,
                // `mine`: a verb the agent added itself, not installed for the run.
                Some(&[("click", 2), ("mine", 1)]),
                "2026-12-02T10:10:00.000Z",
            ),
            {
                // The last run ends 1 h 30 min and 1 s after the first began: 2 h.
                let mut last = invoking(
                    "cli-named",
                    3,
                    &standard,
                    Some(&[]),
                    "2026-12-02T11:30:00.000Z",
                );
                last.wall_ms = 1000.0;
                last
            },
            not_made,
            invoking(
                "both",
                1,
                &standard,
                Some(&[("wait", 1)]),
                "2026-12-02T10:30:00.000Z",
            ),
            older.clone(),
            // Every run of it recorded before the verbs called were.
            invoking(
                "cli-compact",
                1,
                &standard,
                None,
                "2026-12-02T10:40:00.000Z",
            ),
            // No verbs installed: no column.
            result("mcp", "count", true, 3, 100),
        ];
        let names = ["cli-named", "both", "cli-compact", "mcp"].map(str::to_owned);
        let rows = rows(&results, &names);
        let section = "## Verbs called, by condition\n\n\
            Per verb installed for a condition's runs (the conditions that install verbs), \
            of its runs the ones that invoked it — any invocation mur recorded, a refused one \
            too, as `usage report` counts a use — then the invocations (`2/3 · 7`; `–` none), \
            most invocations first.\n\n\
            | verb | cli-named | both |\n|---|---|---|\n\
            | click | 2/3 · 6 | – |\n\
            | state | 1/3 · 1 | – |\n\
            | wait | – | 1/1 · 1 |\n\
            | collapse | – | – |\n\
            | tree | – | – |\n\
            \n\
            Installed and called by no run: `cli-named` 3 of 5 (`collapse`, `tree`, `wait`); \
            `both` 4 of 5 (`click`, `collapse`, `state`, `tree`).\n\
            \n\
            Which verbs were called is unknown for runs an older `mur-eval` recorded, which \
            kept no verb names: `both` 1 of 2 runs (a verb said called by no run may have \
            been called in them); `cli-compact` 1 of 1 run (not tabled); `mur devtools usage \
            report --server-log runs/<condition>/*/*/state/mur/usage/usage.jsonl` reads them \
            from the runs' own logs.\n\
            \n\
            To remove them from your installed verbs, judged on the runs' own logs alone, one \
            condition at a time: from the study's directory, `mur devtools verbs prune \
            --only-named --only-verbs click,collapse,state,tree,wait --until last --unused-for \
            2h --server-log runs/cli-named/*/*/calls.jsonl \
            runs/cli-named/*/*/state/mur/usage/usage.jsonl` (`2h` covers the study's runs; \
            `--only-verbs` names the verbs its runs had installed, so a verb you added since is \
            not judged) prints what it would remove and `--yes` removes it (docs/usage.md, \
            \"Removing the losers\"; a next study measures the rest only without `--verbs`: \
            docs/eval.md, \"Pruning verbs between studies\").\n";
        let verbs = VerbsCalled::of(&rows).expect("verbs were installed");
        assert_eq!(verbs.section().markdown(), section);
        let md = markdown(&rows, "study");
        assert!(
            md.contains("\n## Tools used, by condition\n")
                && md.contains(&format!("\n{section}\n## Tasks")),
            "{md}"
        );
        let page = page(&rows, "study");
        for said in [
            "<h2>Verbs called, by condition</h2>",
            "<td>collapse</td><td>–</td><td>–</td>",
            "Installed and called by no run: cli-named 3 of 5 (collapse, tree, wait)",
        ] {
            assert!(page.contains(said), "{said:?} not in:\n{page}");
        }
        // A verb installed for one condition only; every verb called; no start recorded.
        let results = [
            RunResult {
                started_at: None,
                ..invoking("cli-named", 1, &["click"], Some(&[("click", 1)]), "")
            },
            RunResult {
                started_at: None,
                ..invoking(
                    "cli-compact",
                    1,
                    &["click", "tree"],
                    Some(&[("tree", 2)]),
                    "",
                )
            },
        ];
        let verbs = VerbsCalled::of(&super::super::rows(&results, &[])).expect("installed");
        let text = verbs.section().markdown();
        assert!(
            text.contains("| tree | not installed | 1/1 · 2 |\n| click | 1/1 · 1 | – |\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "Installed and called by no run: `cli-named` none of 1; `cli-compact` 1 of 2 \
                 (`click`).\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "--only-verbs click,tree --until last --unused-for DURATION --server-log \
                 runs/cli-compact/*/*/calls.jsonl"
            ) && text.contains("(`DURATION` as long as the study's runs took;"),
            "{text}"
        );
        // Only older records: said unknown, no table, no command.
        let text = VerbsCalled::of(&super::super::rows(&[older], &[]))
            .expect("installed")
            .section()
            .markdown();
        assert!(
            !text.contains("| verb |") && !text.contains("verbs prune"),
            "{text}"
        );
        assert!(text.contains("`both` 1 of 1 run (not tabled)"), "{text}");
        // No condition installs verbs (or results from before they were recorded): no
        // section.
        let none = [result("mcp", "a", true, 3, 100)];
        let rows = super::super::rows(&none, &[]);
        assert_eq!(VerbsCalled::of(&rows), None);
        assert!(!markdown(&rows, "study").contains("Verbs called"));
    }
}
