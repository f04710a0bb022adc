//! "Task categories": per condition, the successful runs of each category of task, and
//! the categories a condition never completed.

use std::collections::BTreeSet;

use super::per_run::{failed_at_once, timed_out_at_once};
use crate::study::result::RunResult;
use crate::words::plural;

/// Per condition, per task category: successful runs and runs (seed 000 §13: a surface
/// that cannot complete a category of task is immediate evidence against it).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Categories {
    /// Every category seen, sorted.
    pub names: Vec<String>,
    /// `(condition, [(successes, runs)] in the order of names)`, in the conditions' order.
    pub by_condition: Vec<(String, Vec<(u32, u32)>)>,
    /// Of each cell's runs, the ids of those left out of the evidence: the agent exited
    /// nonzero at once ([`failed_at_once`]) and so did the same task and repeat under
    /// every condition, in the same order.
    pub at_once: Vec<Vec<BTreeSet<String>>>,
    /// Of each cell's runs, the ids of those whose agent exited nonzero and which are
    /// counted all the same, in the same order.
    pub exited: Vec<Vec<BTreeSet<String>>>,
    /// Of each cell's runs, the ids of those the time limit ended before the agent did
    /// anything ([`timed_out_at_once`]): left out of the evidence, in the same order.
    pub timed_out: Vec<Vec<BTreeSet<String>>>,
}

impl Categories {
    pub(super) fn of(results: &[RunResult], conditions: &[String]) -> Self {
        let mut names: Vec<String> = results
            .iter()
            .flat_map(|r| r.categories.iter().cloned())
            .collect();
        names.sort();
        names.dedup();
        let made = || results.iter().filter(|r| r.error.is_none());
        let tally = |condition: &String, name: &String| {
            made()
                .filter(|r| &r.condition == condition && r.categories.contains(name))
                .fold((0, 0), |(ok, all), r| (ok + u32::from(r.success), all + 1))
        };
        let by_condition: Vec<(String, Vec<(u32, u32)>)> = conditions
            .iter()
            .map(|c| (c.clone(), names.iter().map(|n| tally(c, n)).collect()))
            .filter(|(_, cells): &(String, Vec<(u32, u32)>)| cells.iter().any(|c| c.1 > 0))
            .collect();
        // The agent failed on its own only where it failed so whatever the surface: the
        // same task and repeat exited at once under every condition.
        let everywhere = |r: &RunResult| {
            by_condition.iter().all(|(condition, _)| {
                made().any(|o| {
                    &o.condition == condition
                        && o.task == r.task
                        && o.repeat == r.repeat
                        && failed_at_once(o)
                })
            })
        };
        let cells = |keep: &dyn Fn(&RunResult) -> bool| -> Vec<Vec<BTreeSet<String>>> {
            by_condition
                .iter()
                .map(|(condition, _)| {
                    let of = |name: &String| {
                        made()
                            .filter(|r| &r.condition == condition && r.categories.contains(name))
                            .filter(|r| r.agent_exit.is_some_and(|exit| exit != 0) && keep(r))
                            .map(|r| r.id.clone())
                            .collect()
                    };
                    names.iter().map(of).collect()
                })
                .collect()
        };
        let at_once = cells(&|r| failed_at_once(r) && everywhere(r));
        let exited = cells(&|r| !(failed_at_once(r) && everywhere(r)));
        let timed_out = by_condition
            .iter()
            .map(|(condition, _)| {
                let of = |name: &String| {
                    made()
                        .filter(|r| &r.condition == condition && r.categories.contains(name))
                        .filter(|r| timed_out_at_once(r))
                        .map(|r| r.id.clone())
                        .collect()
                };
                names.iter().map(of).collect()
            })
            .collect();
        Self {
            names,
            by_condition,
            at_once,
            exited,
            timed_out,
        }
    }

    /// The table's header and one row of `successes/runs` cells per condition (`None`
    /// when no result names a category: results written before they were recorded).
    pub(super) fn table(&self) -> Option<(Vec<String>, Vec<Vec<String>>)> {
        // No run made (every run an error): a header with nothing under it says nothing.
        let made = self
            .by_condition
            .iter()
            .flat_map(|(_, cells)| cells)
            .any(|(_, all)| *all > 0);
        if self.names.is_empty() || !made {
            return None;
        }
        let header = std::iter::once("condition".to_owned())
            .chain(self.names.iter().cloned())
            .collect();
        let rows = self
            .by_condition
            .iter()
            .map(|(condition, cells)| {
                let cells = cells.iter().map(|(ok, all)| match all {
                    0 => "–".to_owned(),
                    all => format!("{ok}/{all}"),
                });
                std::iter::once(condition.clone()).chain(cells).collect()
            })
            .collect();
        Some((header, rows))
    }

    /// The categories a condition ran and never completed, one clause per condition
    /// (`None` when every condition completed some run of each).
    ///
    /// A run whose agent exited nonzero at once (no call, no `mur` command, no line of
    /// its transcript: a refused API key, a program not found) is left out of this
    /// evidence only when the same task and repeat failed so under every condition of
    /// the study: then the agent failed whatever the surface. Anywhere else it counts —
    /// an MCP client that read the tool schemas and gave up, or an agent that read
    /// `mur --help` (which mur does not record), failed on the surface. The line says how
    /// many it left out and how many runs whose agent exited nonzero it counted, so a
    /// study whose agent failed throughout does not read as one with nothing against any
    /// surface, nor as one whose surfaces failed.
    pub(super) fn never_completed(&self) -> Option<String> {
        let mut left_out = BTreeSet::new();
        let mut counted = BTreeSet::new();
        let mut timed_out = BTreeSet::new();
        let clauses: Vec<String> = self
            .by_condition
            .iter()
            .zip(self.at_once.iter().zip(&self.exited))
            .zip(&self.timed_out)
            .filter_map(|(((condition, cells), (at_once, exited)), early)| {
                let mut failed = Vec::new();
                let each = self
                    .names
                    .iter()
                    .zip(cells)
                    .zip(at_once.iter().zip(exited))
                    .zip(early);
                for (((name, (ok, all)), (at_once, exited)), early) in each {
                    let tried = all.saturating_sub((at_once.len() + early.len()) as u32);
                    if *ok == 0 && *all > 0 {
                        left_out.extend(at_once);
                        counted.extend(exited.iter().filter(|id| !early.contains(*id)));
                        timed_out.extend(early);
                        if tried > 0 {
                            failed.push(format!("`{name}` (0 of {tried})"));
                        }
                    }
                }
                (!failed.is_empty()).then(|| format!("`{condition}` {}", failed.join(", ")))
            })
            .collect();
        let left_out = [
            (!left_out.is_empty()).then(|| {
                format!(
                    "{} left out: the agent exited nonzero at once (no call, `mur` command or \
                     transcript line) in the same task and repeat under every condition, so \
                     it failed on its own",
                    plural(left_out.len(), "run")
                )
            }),
            (!timed_out.is_empty()).then(|| {
                format!(
                    "{} left out: the time limit ended it before the agent's first call, \
                     `mur` command or transcript line, so it says nothing of the surface",
                    plural(timed_out.len(), "run")
                )
            }),
            (!counted.is_empty()).then(|| {
                format!(
                    "{} counted whose agent exited nonzero",
                    plural(counted.len(), "run")
                )
            }),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>();
        let left_out = (!left_out.is_empty()).then(|| left_out.join("; "));
        match (clauses.is_empty(), left_out) {
            (true, None) => None,
            (true, Some(left_out)) => Some(format!(
                "Task categories a condition never completed: none counted as evidence \
                 against a surface ({left_out})."
            )),
            (false, left_out) => Some(format!(
                "Task categories a condition never completed (evidence against it): {}{}.",
                clauses.join("; "),
                left_out.map_or_else(String::new, |l| format!(" ({l})"))
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::report::{condition_table, markdown, page, rows, testing::*};

    #[test]
    fn no_categories_table_is_printed_when_no_run_was_made() {
        let mut unmade = result("cli-named", "a", false, 0, 0);
        unmade.categories = vec!["interact".to_owned()];
        unmade.error = Some("the session did not start".to_owned());
        let results = [unmade];
        assert!(!markdown(&rows(&results, &[]), "t").contains("## Task categories"));
    }

    #[test]
    fn a_category_a_condition_never_completed_is_evidence_against_it() {
        let run = |condition: &str, task: &str, categories: &[&str], success: bool| {
            let mut run = result(condition, task, success, 2, 100);
            run.categories = categories.iter().map(|c| (*c).to_owned()).collect();
            run
        };
        let results = vec![
            run("cli-named", "count", &["interact"], true),
            run("cli-named", "shot", &["interact", "screenshot"], true),
            run("cli-derived", "count", &["interact"], true),
            run("cli-derived", "shot", &["interact", "screenshot"], false),
            run("cli-derived", "shot", &["interact", "screenshot"], false),
        ];
        let names = ["cli-named", "cli-derived"].map(str::to_owned);
        let rows = rows(&results, &names);
        let line = "Task categories a condition never completed (evidence against it): \
            `cli-derived` `screenshot` (0 of 2).";
        assert_eq!(rows.categories.never_completed().as_deref(), Some(line));
        let md = markdown(&rows, "study");
        assert!(
            md.contains(
                "## Task categories\n\nSuccessful runs of the tasks in each category.\n\n\
                 | condition | interact | screenshot |\n|---|---|---|\n\
                 | cli-named | 2/2 | 1/1 |\n| cli-derived | 1/3 | 0/2 |\n"
            ),
            "{md}"
        );
        // With the per-condition table, as the README's baseline shows it.
        assert!(condition_table(&rows).contains(line));
        assert!(page(&rows, "study").contains("<th>screenshot</th>"));
        // Results recorded before categories were: no table, no line.
        let old: Vec<RunResult> = results
            .into_iter()
            .map(|mut r| {
                r.categories.clear();
                r
            })
            .collect();
        let rows = super::super::rows(&old, &names);
        assert!(!markdown(&rows, "study").contains("## Task categories"));
        assert_eq!(rows.categories.never_completed(), None);
    }
}
