//! The lines under the per-condition table — who ran it, what was left out or cut short,
//! how the conditions compare, the usage errors — the line saying how the study was made,
//! and the legend: the same sentences in `report.md`, on the page and in the README's
//! block.

use std::collections::{BTreeMap, BTreeSet};

use super::cells::percent;
use super::rows::{Row, Rows, row};
use super::stats::newcombe;
use crate::study::journal::Matrix;
use crate::study::result::RunResult;
use crate::tokens::ENCODING;
use crate::words::{listed, plural};

/// What follows the per-condition table, in order: who ran it, what was left out or cut
/// short, how the conditions compare, and the usage errors — the same lines in the
/// report, on the page and in the README's block (which once lacked the usage errors,
/// so its attempts exceeded its calls with no word why).
pub(super) fn table_lines(rows: &Rows<'_>) -> Vec<String> {
    [
        missing_line(rows),
        scripted_line(rows),
        agents_line(rows),
        verb_sets_line(rows),
        task_versions_line(rows),
        condition_versions_line(rows),
        errors_line(rows),
        not_started_line(rows),
        agent_exits_line(rows),
        no_events_line(rows),
        timed_out_line(rows),
        reported_line(rows),
        unseen_line(rows),
        captured_line(rows),
        images_line(rows),
        unequal_line(rows),
        rows.reference()
            .and_then(|reference| against(rows, reference)),
        rows.categories.never_completed(),
        refused_line(rows),
        failed_line(rows),
        preference_line(rows),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// How many of the runs the study's commands asked for (`study.json`'s matrices) are
/// recorded, and per condition which are missing (`None` when every one is, or when the
/// matrices are not known). A study stopped before its end (a kill, a machine gone down)
/// is reported from the runs it recorded: its rows sum fewer runs than were asked for,
/// equally short conditions compare as if whole, and a condition with no run recorded
/// has no row at all — a published table would leave them out without a word.
/// A study begun by an older `mur-eval` (`study.json` of schema 1, which kept only its
/// last command's matrix) cannot tell which runs its earlier commands asked for: said so,
/// not counted against the last command's alone.
fn missing_line(rows: &Rows<'_>) -> Option<String> {
    if rows.asked_in_part {
        return Some(ASKED_IN_PART.to_owned());
    }
    let (mut all, mut all_recorded) = (0u64, 0u64);
    let mut clauses = Vec::new();
    for (condition, tasks) in asked_runs(rows.asked) {
        let lacking = lacking(condition, &tasks, rows.results);
        all += lacking.asked;
        all_recorded += lacking.asked - lacking.missing;
        if lacking.missing == 0 {
            continue;
        }
        // A condition none of whose runs was recorded lacks them all: named, no list.
        let which = if lacking.missing == lacking.asked {
            String::new()
        } else {
            format!(" (missing {})", lacking.tasks.join("; "))
        };
        clauses.push(format!(
            "`{condition}` {} of {} recorded{which}",
            lacking.asked - lacking.missing,
            plural(lacking.asked as usize, "run")
        ));
    }
    (!clauses.is_empty()).then(|| {
        format!(
            "Warning: the study is not complete — {all_recorded} of the {} its commands asked \
             for (`study.json`) are recorded, and every figure is over those alone: {}. The \
             same `mur-eval study` command again (the same `--out`) makes the rest; the runs \
             recorded are skipped.",
            plural(all as usize, "run"),
            clauses.join("; ")
        )
    })
}

/// What the report says of a study whose earlier commands went unrecorded.
const ASKED_IN_PART: &str = "Note: whether the study lacks runs cannot be told: an older \
     mur-eval began its `study.json`, which kept only the last command's conditions × tasks \
     × repeats, not what the commands before it asked for. Every figure is over the runs \
     recorded.";

/// The warning a command that reports an incomplete study also says on stderr, in one
/// line: the report's own line ([`missing_line`]) is in `report.md` and on stdout, which
/// a script that publishes the report reads without a word on stderr, exit 0. `None`
/// when every run asked for is recorded, or the runs asked for are not all known.
pub fn incomplete(rows: &Rows<'_>) -> Option<String> {
    if rows.asked_in_part {
        return None;
    }
    let (mut all, mut missing) = (0u64, 0u64);
    for (condition, tasks) in asked_runs(rows.asked) {
        let lacking = lacking(condition, &tasks, rows.results);
        all += lacking.asked;
        missing += lacking.missing;
    }
    (missing > 0).then(|| {
        format!(
            "the study is not complete: {} of {} recorded; run the same `mur-eval study` \
             command again (the same `--out`) to finish",
            all - missing,
            plural(all as usize, "run")
        )
    })
}

/// Each condition the `matrices` name with its tasks and the repeats asked for (1 to the
/// most any command asked: a run two commands asked for is one run), conditions and tasks
/// in the order first asked.
fn asked_runs(matrices: &[Matrix]) -> Vec<(&str, Vec<(&str, u32)>)> {
    let mut asked: Vec<(&str, Vec<(&str, u32)>)> = Vec::new();
    for matrix in matrices {
        for condition in &matrix.conditions {
            let at = asked.iter().position(|(c, _)| c == condition);
            let at = at.unwrap_or_else(|| {
                asked.push((condition, Vec::new()));
                asked.len() - 1
            });
            let tasks = &mut asked[at].1;
            for task in &matrix.tasks {
                match tasks.iter_mut().find(|(t, _)| t == task) {
                    Some((_, repeats)) => *repeats = (*repeats).max(matrix.repeats),
                    None => tasks.push((task, matrix.repeats)),
                }
            }
        }
    }
    asked
}

/// What one condition's recorded runs lack of those asked for.
struct Lacking {
    /// The runs asked for.
    asked: u64,
    /// Of those, the runs not recorded.
    missing: u64,
    /// Each task lacking some, with which (`` `a` runs 2–3 ``).
    tasks: Vec<String>,
}

/// What `condition`'s runs in `results` lack of the `tasks` asked for, each with its
/// repeats.
fn lacking(condition: &str, tasks: &[(&str, u32)], results: &[RunResult]) -> Lacking {
    let mut lacking = Lacking {
        asked: 0,
        missing: 0,
        tasks: Vec::new(),
    };
    for &(task, repeats) in tasks {
        // Counted, never listed one by one: a hand-edited study.json may ask for
        // billions of repeats.
        let have: BTreeSet<u32> = results
            .iter()
            .filter(|r| r.condition == condition && r.task == task)
            .map(|r| r.repeat)
            .filter(|repeat| (1..=repeats).contains(repeat))
            .collect();
        lacking.asked += u64::from(repeats);
        let lacks = u64::from(repeats) - have.len() as u64;
        if lacks > 0 {
            lacking.missing += lacks;
            lacking.tasks.push(format!(
                "`{task}` {}",
                repeats_named(&gaps(&have, repeats), lacks)
            ));
        }
    }
    lacking
}

/// The spans of 1 to `repeats` that `have` lacks, first and last of each.
fn gaps(have: &BTreeSet<u32>, repeats: u32) -> Vec<(u32, u32)> {
    let mut spans = Vec::new();
    // Wide: the repeat after u32::MAX is no u32.
    let mut next = 1u64;
    for &repeat in have {
        if u64::from(repeat) > next {
            spans.push((next as u32, repeat - 1));
        }
        next = u64::from(repeat) + 1;
    }
    if next <= u64::from(repeats) {
        spans.push((next as u32, repeats));
    }
    spans
}

/// `repeat 2`, `repeats 1, 2`, `repeats 1–3, 5` (`count` repeats in `spans`): three or
/// more in a row as a range.
fn repeats_named(spans: &[(u32, u32)], count: u64) -> String {
    let named: Vec<String> = spans
        .iter()
        .map(|&(first, last)| match last - first {
            0 => first.to_string(),
            1 => format!("{first}, {last}"),
            _ => format!("{first}–{last}"),
        })
        .collect();
    let word = if count == 1 { "repeat" } else { "repeats" };
    format!("{word} {}", named.join(", "))
}

/// The agents that made `row`'s runs: those its runs recorded, and for runs recorded
/// without one, those the study's commands named for its condition.
fn agents_of<'a>(row: &'a Row, rows: &'a Rows<'_>) -> Vec<&'a str> {
    let mut agents: Vec<&str> = row.agents.iter().map(String::as_str).collect();
    if row.agent_unrecorded {
        let named = rows.agents.iter().filter(|(c, _)| c == &row.condition);
        for agent in named.flat_map(|(_, agents)| agents) {
            if !agents.contains(&agent.as_str()) {
                agents.push(agent);
            }
        }
    }
    agents
}

/// The shipped reference agents' script, as an agent command names it.
const SCRIPTED: &str = "agents/scripted.sh";

/// A caveat when a condition's runs were made by the shipped scripted agent
/// (`eval/agents/scripted.sh`, `None` otherwise): it checks the harness; its time,
/// context and `both` choice are the script's (it reads no guide, its MCP agent's time is
/// mostly Python importing the SDK, it picks a surface by the repeat's parity), which a
/// page published as it comes out would report as the surfaces'.
pub(super) fn scripted_line(rows: &Rows<'_>) -> Option<String> {
    let scripted: Vec<String> = rows
        .conditions
        .iter()
        .filter(|row| agents_of(row, rows).iter().any(|a| a.contains(SCRIPTED)))
        .map(|row| format!("`{}`", row.condition))
        .collect();
    (!scripted.is_empty()).then(|| {
        format!(
            "Agent: the scripted reference agent (`eval/agents/{}`) made the runs of {}. \
             Their success and calls check the harness; their time, context and `both` \
             choice are properties of the script, not of a surface (it reads no guide or \
             `--help`, its MCP agent's time is mostly Python loading the SDK, and under \
             `both` it picks the surface by the repeat's parity).",
            SCRIPTED.trim_start_matches("agents/"),
            scripted.join(", ")
        )
    })
}

/// Which agent made the runs in the table: one line naming it when every condition's
/// runs had the same; else a warning naming each condition's — a row whose runs were
/// made by more than one agent mixes them, and rows made by different agents compare
/// the agents as much as the surfaces (`None` when not known).
fn agents_line(rows: &Rows<'_>) -> Option<String> {
    let shown: Vec<(&str, Vec<&str>)> = rows
        .conditions
        .iter()
        .filter(|r| r.runs > 0)
        .map(|r| (r.condition.as_str(), agents_of(r, rows)))
        .filter(|(_, agents)| !agents.is_empty())
        .collect();
    let first = shown.first()?;
    let named = |agents: &[&str]| {
        agents
            .iter()
            .map(|a| format!("`{a}`"))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    let mixed = shown.iter().any(|(_, agents)| agents.len() > 1);
    if !mixed && shown.iter().all(|(_, agents)| agents == &first.1) {
        return Some(format!("Agent: {}.", named(&first.1)));
    }
    let clauses: Vec<String> = shown
        .iter()
        .map(|(c, agents)| format!("`{c}` by {}", named(agents)))
        .collect();
    let why = if mixed {
        "a condition's runs were made by different agents, so its row mixes them"
    } else {
        "the conditions were run by different agents, so their rows compare the agents as \
         much as the surfaces"
    };
    Some(format!("Warning: {why} — {}.", clauses.join("; ")))
}

/// A warning for the conditions whose runs had different verb sets installed (`None`
/// when none did): `verbs prune` or a rebuild between two commands into one study, whose
/// row then mixes them. Each set is said against the row's most common one.
fn verb_sets_line(rows: &Rows<'_>) -> Option<String> {
    per_condition(rows, |r| {
        (r.verb_sets.len() > 1).then(|| {
            let common = &r.verb_sets[0].0;
            let sets: Vec<String> = r
                .verb_sets
                .iter()
                .map(|(set, runs)| {
                    let names = |f: &dyn Fn(&String) -> bool, of: &BTreeMap<String, String>| {
                        of.keys()
                            .filter(|n| f(n))
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                    };
                    let mut how = Vec::new();
                    let without = names(&|n| !set.contains_key(n), common);
                    if !without.is_empty() {
                        how.push(format!("without {}", without.join(", ")));
                    }
                    let with = names(&|n| !common.contains_key(n), set);
                    if !with.is_empty() {
                        how.push(format!("with {}", with.join(", ")));
                    }
                    let other = names(
                        &|n| common.get(n).is_some_and(|sha| Some(sha) != set.get(n)),
                        set,
                    );
                    if !other.is_empty() {
                        how.push(format!("another build of {}", other.join(", ")));
                    }
                    let how = listed(" (", &how, "; ", ")");
                    format!(
                        "{}{how} in {}",
                        plural(set.len(), "verb"),
                        plural(*runs as usize, "run")
                    )
                })
                .collect();
            format!("`{}` {}", r.condition, sets.join(", "))
        })
    })
    .map(|clauses| {
        format!(
            "Warning: a condition's runs had different verbs installed (`verbs prune` or a \
             rebuild between two commands into this study), so its row mixes them — {clauses}."
        )
    })
}

/// The runs the harness could not make, per condition with the first one's error
/// (`None` when it made every run): they are in no figure of the tables.
fn errors_line(rows: &Rows<'_>) -> Option<String> {
    per_condition(rows, |r| {
        (r.errors > 0).then(|| {
            let why = r
                .first_error
                .as_deref()
                .map(|e| format!(" (first: {})", cut(e, 200)))
                .unwrap_or_default();
            format!("`{}` {}{why}", r.condition, r.errors)
        })
    })
    .map(|clauses| {
        format!(
            "Errors: runs the harness could not make (the agent never ran), left out of \
             every figure above: {clauses}. The same command again (the same `--out`) makes \
             them."
        )
    })
}

/// The clauses `clause` gives the conditions that have one, in order and joined by `; `
/// (`None` when none has): what each line after the per-condition table lists.
fn per_condition(rows: &Rows<'_>, clause: impl Fn(&Row) -> Option<String>) -> Option<String> {
    let clauses: Vec<String> = rows.conditions.iter().filter_map(clause).collect();
    (!clauses.is_empty()).then(|| clauses.join("; "))
}

/// "`cli-derived` 2 of 4 runs" for each condition with runs that `count` counts, as
/// [`per_condition`] joins them.
fn runs_of_each_condition(rows: &Rows<'_>, count: fn(&Row) -> u32) -> Option<String> {
    per_condition(rows, |r| {
        (count(r) > 0).then(|| {
            format!(
                "`{}` {} of {}",
                r.condition,
                count(r),
                plural(r.runs as usize, "run")
            )
        })
    })
}

/// The runs whose agent never started (`sh` exited 127 or 126), per condition (`None`
/// when every agent started): their failures say nothing of a surface.
fn not_started_line(rows: &Rows<'_>) -> Option<String> {
    runs_of_each_condition(rows, |r| r.not_started).map(|clauses| {
        format!(
            "The agent never started (its command exited 127, not found, or 126, not \
             runnable) in {clauses}: each run's `agent.stderr` says why."
        )
    })
}

/// The runs whose agent exited nonzero (but for 126 and 127, which [`not_started_line`]
/// says), per condition with the exit codes (`None` when none did): an agent that
/// failed — a refused API key, a crash — fails its runs whatever the surface, which the
/// success column alone would put on the surface. How many of them exited before trying
/// the surface at all is said too.
fn agent_exits_line(rows: &Rows<'_>) -> Option<String> {
    let clauses = per_condition(rows, |r| {
        (!r.agent_exits.is_empty()).then(|| {
            let exited: u64 = r.agent_exits.values().map(|&n| u64::from(n)).sum();
            let codes: Vec<String> = r
                .agent_exits
                .iter()
                .map(|(code, n)| format!("exit {code} ×{n}"))
                .collect();
            format!(
                "`{}` {exited} of {} ({})",
                r.condition,
                plural(r.runs as usize, "run"),
                codes.join(", ")
            )
        })
    });
    let at_once: u64 = rows
        .conditions
        .iter()
        .map(|r| u64::from(r.failed_at_once))
        .sum();
    let at_once = match at_once {
        0 => String::new(),
        n => format!(
            "; {} before any call, `mur` command or transcript line (126 and 127 too)",
            plural(n as usize, "run")
        ),
    };
    clauses.map(|clauses| {
        format!(
            "The agent exited nonzero in {clauses}{at_once}: each run's `agent.stderr` says why."
        )
    })
}

/// The runs whose stdout held no event of the `--agent-format` given, per condition
/// (`None` when none): their turns, tokens and cost are `–` because nothing was read —
/// most often an agent not told to write its stream — not because it reported none.
fn no_events_line(rows: &Rows<'_>) -> Option<String> {
    runs_of_each_condition(rows, |r| r.no_events).map(|clauses| {
        format!(
            "Warning: `--agent-format` was given, but the agent's stdout held no event of it \
             in {clauses}: their turns, tokens and cost are unknown, and their context was counted \
             as if no stream were read; {}.",
            crate::adapters::NO_EVENTS_HINT
        )
    })
}

/// A warning for the tasks whose runs were judged by different versions of their file
/// (`None` when none were): a task edited, or `eval/tasks` pulled, between two commands
/// into one study mixes two oracles in its rows. Runs an older `mur-eval` recorded,
/// without the file's sha256, are no version of their own.
fn task_versions_line(rows: &Rows<'_>) -> Option<String> {
    versions_line(rows, |r| (&r.task, r.task_sha256.as_deref())).map(|clauses| {
        format!(
            "Warning: a task's file changed between commands into this study, so its runs \
             were judged by different oracles (by the sha256 of the file) — {clauses}."
        )
    })
}

/// A warning for the conditions whose runs had different versions of their files, the
/// condition's toml and its instructions (`None` when none did): the instructions are
/// the treatment, so a condition edited between two commands into one study mixes two
/// treatments in its row. Runs an older `mur-eval` recorded are no version of their own.
fn condition_versions_line(rows: &Rows<'_>) -> Option<String> {
    versions_line(rows, |r| (&r.condition, r.condition_sha256.as_deref())).map(|clauses| {
        format!(
            "Warning: a condition's files changed between commands into this study, so its \
             runs had different instructions or settings (by the sha256 of its file and its \
             instructions) — {clauses}."
        )
    })
}

/// Of what `of` names each made run by (a task, a condition) and the version it had,
/// the names with more than one version, each with its versions and their runs
/// (`` `count` aaaaaaaaaaaa in 2 runs, bbbbbbbbbbbb in 1 run``); `None` when none.
fn versions_line(
    rows: &Rows<'_>,
    of: impl Fn(&RunResult) -> (&String, Option<&str>),
) -> Option<String> {
    let mut versions: BTreeMap<&str, Vec<(&str, u32)>> = BTreeMap::new();
    for r in rows.results.iter().filter(|r| r.error.is_none()) {
        let (name, Some(sha)) = of(r) else {
            continue;
        };
        let seen = versions.entry(name.as_str()).or_default();
        match seen.iter_mut().find(|(s, _)| *s == sha) {
            Some((_, n)) => *n += 1,
            None => seen.push((sha, 1)),
        }
    }
    let clauses: Vec<String> = versions
        .iter()
        .filter(|(_, seen)| seen.len() > 1)
        .map(|(name, seen)| {
            let each: Vec<String> = seen
                .iter()
                .map(|(sha, n)| {
                    // As results.jsonl holds it: a hand-edited value may be no hex.
                    let short = sha.get(..12).unwrap_or(sha);
                    format!("{short} in {}", plural(*n as usize, "run"))
                })
                .collect();
            format!("`{name}` {}", each.join(", "))
        })
        .collect();
    (!clauses.is_empty()).then(|| clauses.join("; "))
}

/// The runs the time limit ended, per condition (`None` when none): their time is the
/// limit, so a median time over them is a lower bound, and their other figures partial.
fn timed_out_line(rows: &Rows<'_>) -> Option<String> {
    let line = runs_of_each_condition(rows, |r| r.timed_out).map(|clauses| {
        format!(
            "Timed out (the time limit ended the agent; its time is the limit, so the medians \
             are lower bounds): {clauses}."
        )
    })?;
    // Every run of a condition ended before its agent's first call: a limit shorter than
    // the agent takes to start, not the surface.
    let at_once: Vec<String> = rows
        .conditions
        .iter()
        .filter(|r| r.runs > 0 && r.timed_out_at_once == r.runs)
        .map(|r| format!("`{}`", r.condition))
        .collect();
    if at_once.is_empty() {
        return Some(line);
    }
    let limits: BTreeSet<u64> = rows
        .asked
        .iter()
        .filter_map(|m| m.time_limit_secs)
        .collect();
    let limit = match limits.iter().collect::<Vec<_>>().as_slice() {
        [one] => format!(" ({one} s)"),
        _ => String::new(),
    };
    Some(format!(
        "{line} Warning: every run of {} timed out before its first call, `mur` command or \
         transcript line: the time limit{limit} may be shorter than the agent takes to start \
         (raise `--time-limit`); those runs are no evidence against the surface.",
        at_once.join(", ")
    ))
}

/// What the agents reported beside turns and input tokens (`None` when none did): the
/// median output tokens and cost per condition, which the table has no column for.
fn reported_line(rows: &Rows<'_>) -> Option<String> {
    let clauses = per_condition(rows, |r| {
        let mut parts = Vec::new();
        if let Some(output) = r.output_tokens {
            parts.push(format!(
                "{} output tokens",
                super::cells::number(Some(output))
            ));
        }
        if let Some(cost) = r.cost_usd {
            parts.push(format!("${cost:.4}"));
        }
        (!parts.is_empty()).then(|| format!("`{}` {}", r.condition, parts.join(", ")))
    })?;
    Some(format!(
        "Reported by the agents (median per run, over the runs that reported it; report.csv \
         has the cached share of the input): {clauses}."
    ))
}

/// The runs whose MCP results nothing counted, per condition (`None` when none): an
/// agent that logs no transcript and has no event stream mur-eval reads, whose context
/// then holds the tool schemas but none of the results it received.
fn unseen_line(rows: &Rows<'_>) -> Option<String> {
    runs_of_each_condition(rows, |r| r.mcp_unseen).map(|clauses| {
        format!(
            "Warning: context under-counted (`≥`): the agent made MCP calls but neither logged \
             their results (`MUR_EVAL_TRANSCRIPT`) nor gave an event stream that carries them \
             (`--agent-format`), so its context leaves them out, in {clauses}."
        )
    })
}

/// How the images the agents received were counted, per condition (`None` when no run
/// received one): as images, never as their base64 text, which would put a screenshot at
/// tens of thousands of tokens; and how many were left out of the tokens.
fn images_line(rows: &Rows<'_>) -> Option<String> {
    let clauses = per_condition(rows, |r| {
        (r.images > 0).then(|| {
            let unsized_ = match r.images_unsized {
                0 => String::new(),
                n => format!(" ({n} of unknown pixel size: bytes only)"),
            };
            format!(
                "`{}` {}{unsized_}",
                r.condition,
                plural(r.images as usize, "image")
            )
        })
    })?;
    Some(format!(
        "Images in tool results counted as images, not as their base64 text: {IMAGES_COUNTED}, \
         in {clauses}."
    ))
}

/// How an image is counted, as the report says it ([`crate::images`]).
const IMAGES_COUNTED: &str = "tokens ≈ width × height / 750 (Anthropic's estimate, after scaling \
     to at most 1568 px on the long edge and ~1600 tokens), bytes its own size; one whose \
     pixel size is not in a PNG or JPEG header counts its bytes and no tokens";

/// The runs whose CLI results were counted from what `mur` printed, per condition
/// (`None` when none): no event stream said what the agent received, so output it piped
/// away (`| jq`, `> file`) is counted whole and the figures are upper bounds.
fn captured_line(rows: &Rows<'_>) -> Option<String> {
    runs_of_each_condition(rows, |r| r.captured).map(|clauses| {
        format!(
            "CLI context counted from everything `mur` printed, as no event stream \
             (`--agent-format`) said what the agent received: output it piped away or sent \
             to a file is counted whole, so these figures are upper bounds, in {clauses}."
        )
    })
}

/// `text`, at most `max` characters (`…` when cut).
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// One line when the conditions did not run the same tasks the same number of times
/// (`None` when they did, or for one condition): each condition's tasks and repeats, and
/// the tasks it lacks. Its row then sums another set of runs than the others', so the
/// rows do not compare like for like — as when commands with different `--tasks` or
/// `--repeats` wrote into one study, or a study was stopped before its end.
fn unequal_line(rows: &Rows<'_>) -> Option<String> {
    let ran: Vec<(&str, BTreeMap<&str, u32>)> = rows
        .conditions
        .iter()
        .map(|c| {
            let tasks = rows
                .tasks
                .iter()
                .filter(|r| r.condition == c.condition)
                .filter_map(|r| Some((r.task.as_deref()?, r.runs)))
                .collect();
            (c.condition.as_str(), tasks)
        })
        .collect();
    if ran.windows(2).all(|pair| pair[0].1 == pair[1].1) {
        return None;
    }
    let every: BTreeSet<&str> = ran.iter().flat_map(|(_, t)| t.keys().copied()).collect();
    let clauses: Vec<String> = ran
        .iter()
        .map(|(condition, tasks)| {
            let fewest = tasks.values().min().copied().unwrap_or(0);
            let most = tasks.values().max().copied().unwrap_or(0);
            let repeats = if fewest == most {
                plural(most as usize, "repeat")
            } else {
                format!("{fewest}–{most} repeats")
            };
            let lacking: Vec<String> = every
                .iter()
                .filter(|t| !tasks.contains_key(*t))
                .map(|t| format!("`{t}`"))
                .collect();
            let without = listed(", without ", &lacking, ", ", "");
            format!(
                "`{condition}` {} × {repeats}{without}",
                plural(tasks.len(), "task")
            )
        })
        .collect();
    Some(format!(
        "Warning: the conditions ran different tasks or numbers of repeats, so their rows \
         are not like for like — {}. Compare them task by task, on the tasks they share.",
        clauses.join("; ")
    ))
}

/// Each other condition's success and median context tokens against `reference`'s, as
/// one line (`None` without the reference or another condition). The difference in
/// success carries its 95% interval ([`newcombe`]); the change in context tokens is
/// between two medians and carries none (see [`legend`]).
pub(super) fn against(rows: &Rows<'_>, reference: &str) -> Option<String> {
    rows.conditions.iter().find(|r| r.condition == reference)?;
    if started(rows, reference).is_empty() {
        return None;
    }
    let others: Vec<String> = rows
        .conditions
        .iter()
        .filter(|r| r.condition != reference)
        .filter_map(|r| compared(rows, reference, &r.condition))
        .collect();
    (!others.is_empty()).then(|| format!("Against `{reference}`: {}.", others.join("; ")))
}

/// The runs of `condition` the harness made and whose agent started: one that never did
/// (127, 126) measured nothing of the surface, and a comparison built from it would
/// compare the instructions' tokens alone.
fn started<'a>(rows: &Rows<'a>, condition: &str) -> Vec<&'a RunResult> {
    rows.made(condition)
        .filter(|r| crate::agent::could_not_start(r.agent_exit).is_none())
        .collect()
}

/// `condition` against `reference`, over the (task, repeat) cells both made — like for
/// like even where their commands ran other tasks or repeats (the medians over all runs
/// would compare two task mixes) — saying so when that leaves some runs out. `None`
/// when the reference's context tokens are none to compare with.
fn compared(rows: &Rows<'_>, reference: &str, condition: &str) -> Option<String> {
    let (base_runs, other_runs) = (started(rows, reference), started(rows, condition));
    if other_runs.is_empty() && rows.made(condition).next().is_some() {
        return Some(format!(
            "`{condition}` not compared: its agent never started"
        ));
    }
    let cell = |r: &&RunResult| (r.task.clone(), r.repeat);
    let base_cells: BTreeSet<(String, u32)> = base_runs.iter().map(cell).collect();
    let other_cells: BTreeSet<(String, u32)> = other_runs.iter().map(cell).collect();
    let shared: BTreeSet<&(String, u32)> = base_cells.intersection(&other_cells).collect();
    if shared.is_empty() && !(base_runs.is_empty() && other_runs.is_empty()) {
        return Some(format!(
            "`{condition}` made no run of a task and repeat `{reference}` made"
        ));
    }
    let in_shared = |r: &&&RunResult| shared.contains(&(r.task.clone(), r.repeat));
    let base_kept: Vec<&RunResult> = base_runs.iter().filter(in_shared).copied().collect();
    let other_kept: Vec<&RunResult> = other_runs.iter().filter(in_shared).copied().collect();
    let (base, other) = (
        row(reference, None, &base_kept),
        row(condition, None, &other_kept),
    );
    let base_tokens = base.context_tokens.filter(|t| *t > 0.0)?;
    let change = other.context_tokens.map_or_else(
        || "–".to_owned(),
        |t| format!("{:+.0}%", (t / base_tokens - 1.0) * 100.0),
    );
    // Without runs on one side there is no difference of success.
    let success = match (other.rate(), base.rate()) {
        (Some(rate), Some(base_rate)) => {
            let points = (rate - base_rate) * 100.0;
            let (low, high) = newcombe((other.successes, other.runs), (base.successes, base.runs));
            format!(
                "{points:+.0} points of success ({} to {})",
                signed_points(low),
                signed_points(high)
            )
        }
        _ => "no runs to compare success by".to_owned(),
    };
    let over = if base_cells == other_cells {
        String::new()
    } else {
        format!(
            ", over the {} of the same task and repeat both made",
            plural(shared.len(), "run")
        )
    };
    Some(format!(
        "`{condition}` {change} context tokens, {success}{over}"
    ))
}

/// A difference of proportions (-1 to 1) in points, signed, rounded (never `-0`).
fn signed_points(value: f64) -> String {
    let points = (value * 100.0).round();
    if points == 0.0 {
        "+0".to_owned()
    } else {
        format!("{points:+.0}")
    }
}

/// How the study was made (`None` when not known): its commands that made runs in the
/// results, each with the versions and machine it ran on and how many, and when its runs
/// started — wall times on a loaded 2-core machine with a debug build are not those of
/// another, and a study is made again from these. A command that made none (a resume
/// with nothing left, run with another `--jobs`) is not named; where some run does not
/// say which command made it (an older `mur-eval`), every command is, without counts.
pub fn made_line(rows: &Rows<'_>) -> Option<String> {
    let attributed = rows.results.iter().all(|r| r.made_by.is_some());
    let commands: Vec<String> = rows
        .commands
        .iter()
        .enumerate()
        .filter_map(|(i, command)| {
            if !attributed {
                return Some(command.clone());
            }
            let made = rows.results.iter().filter(|r| r.made_by == Some(i)).count();
            (made > 0).then(|| format!("{command}, {}", plural(made, "run")))
        })
        .collect();
    if commands.is_empty() {
        return None;
    }
    let started: Vec<&str> = rows
        .results
        .iter()
        .filter_map(|r| r.started_at.as_deref())
        .collect();
    let when = match (started.iter().min(), started.iter().max()) {
        (Some(first), Some(last)) => format!(" Its runs started from {first} to {last}."),
        _ => String::new(),
    };
    Some(format!("Made by {}.{when}", commands.join("; then ")))
}

/// The invocations mur refused, per condition with their argv shapes, most frequent
/// first (`None` when there were none): the argv agents reached for that a verb did
/// not take, which cost turns but never reached the session.
fn refused_line(rows: &Rows<'_>) -> Option<String> {
    per_condition(rows, |r| {
        (r.refused_total() > 0).then(|| {
            let mut shapes: Vec<(&String, &u64)> = r.refused.iter().collect();
            shapes.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
            let shapes: Vec<String> = shapes
                .iter()
                .map(|(argv, times)| format!("`{argv}` ×{times}"))
                .collect();
            format!(
                "`{}` {} ({})",
                r.condition,
                r.refused_total(),
                shapes.join(", ")
            )
        })
    })
    .map(|clauses| {
        format!(
            "Invocations mur refused (argv a verb did not take; WORD is any other word): {clauses}."
        )
    })
}

/// The failed calls, per condition with the runs that had one (`None` when no call
/// failed): the column's median can be 0 while a few runs failed calls, and which
/// surface leads an agent into failing calls is what a study compares.
fn failed_line(rows: &Rows<'_>) -> Option<String> {
    per_condition(rows, |r| {
        (r.failed_total > 0).then(|| {
            format!(
                "`{}` {} in {} of {}",
                r.condition,
                r.failed_total,
                r.failed_runs,
                plural(r.runs as usize, "run")
            )
        })
    })
    .map(|clauses| format!("Failed calls (the session answered with an error): {clauses}."))
}

/// Where the conditions that offered both surfaces saw the agent reach, one clause per
/// condition (`None` when no condition offered both): the run's first call, then every
/// call.
fn preference_line(rows: &Rows<'_>) -> Option<String> {
    per_condition(rows, |r| {
        (r.reach.offered_both > 0).then(|| {
            let reach = &r.reach;
            let share = reach
                .cli_share()
                .map_or_else(|| "no calls".to_owned(), |s| format!("{} of calls via the CLI", percent(s)));
            let listed = match reach.order_varied {
                0 => String::new(),
                varied => format!(
                    "; the surface its instructions named first was reached first in {} of {varied}",
                    reach.first_as_listed
                ),
            };
            format!(
                "{} first reached for the CLI in {} of {}, for MCP in {}{listed}; {share} ({} CLI, {} MCP)",
                r.condition, reach.first_cli, plural(r.runs as usize, "run"), reach.first_mcp, reach.cli_calls, reach.mcp_calls
            )
        })
    })
    .map(|clauses| format!("Where both surfaces were offered, the agent's own choice: {clauses}."))
}

/// What the columns mean, under every table.
pub fn legend() -> String {
    format!(
        "Success is the task's oracle on the app's state; the interval is the 95% Wilson \
         score interval. Against the reference condition, the points of success carry the \
         95% interval of a difference of two proportions (Newcombe's hybrid score interval, \
         from the two Wilson intervals); the change in context tokens is between two \
         medians and carries none. Other columns are medians per run: calls the session served for \
         the agent, attempts (those calls and the invocations mur refused before any call: \
         an MCP agent's wrong tool name is a call, a CLI agent's wrong verb or option is \
         not, so compare the surfaces by attempts), failed calls (calls the session \
         answered with an error: a tool that failed, an unknown tool), the agent's turns and input tokens (when its event stream reports \
         them, `–` otherwise; `4 (1 of 2)` when only some runs reported them: a turn is \
         Claude Code's `num_turns`, or Codex's count of `turn.completed` and `turn.failed` \
         events; input tokens include the tokens the cache wrote and read, so compare them \
         only with figures that count the cache too), context tokens (`{ENCODING}`: an estimate for models with \
         other tokenizers) of everything the agent received — the tool results its event \
         stream carries when one is read, through either surface; else what `mur` printed \
         (an upper bound: output the agent piped away is counted whole) and the MCP results \
         it logged — the part before its first call in parentheses — and its bytes, and the \
         agent's wall time. An image a result carried counts as an image, not as its base64 \
         text: {IMAGES_COUNTED}. A run the harness could not make (no agent ran) is in no \
         figure: it is counted apart (report.csv's `runs_not_made`), never as a failure. The \
         medians are over every run made, a failed one too, so an agent that gives up early \
         looks cheap: report.csv's `solved_median_*` columns are over the successful runs \
         alone (the cost per solved task).\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::journal::Matrix;
    use crate::study::report::{
        condition_table, csv, failed_at_once, markdown, page, rows, testing::*,
    };
    use crate::study::result::RunResult;
    use crate::tokens::Size;
    use mur_usage::Surface;
    use mur_usage::html;

    /// Review 608 #2–#6: derived and `call` invocations under a named condition, the
    /// scripted agent's caveat, medians over solved runs in report.csv, the agents'
    /// output tokens and cost, and runs timed out before their first call.
    #[test]
    fn the_report_says_what_the_review_found_it_hid() {
        let mut pruned = result("cli-named", "a", true, 3, 100);
        pruned.verbs = Some([("click".to_owned(), "sha".to_owned())].into());
        pruned.verbs_called = Some([("click".to_owned(), 1)].into());
        pruned.derived_called = Some([("state".to_owned(), 2), ("fire".to_owned(), 1)].into());
        pruned.call_invocations = Some(1);
        pruned.agent_command = Some("bash /x/eval/agents/scripted.sh {task}".to_owned());
        pruned.agent = serde_json::from_value(serde_json::json!({
            "format": "stream-json", "outputTokens": 160, "costUsd": 0.0421,
            "inputTokens": 10, "cachedTokens": 4, "turns": 2,
            "toolResults": [], "mcpResults": [], "steps": [], "notes": [], "noEvents": false
        }))
        .ok();
        let mut gave_up = result("cli-named", "b", false, 0, 10);
        gave_up.verbs = pruned.verbs.clone();
        let mut late = result("mcp", "a", false, 0, 4000);
        late.timed_out = true;
        late.agent_lines = Some(0);
        late.categories = vec!["navigate".to_owned()];
        let results = [pruned, gave_up, late];
        let rows = rows(&results, &[]);
        let text = markdown(&rows, "t");
        for said in [
            "`cli-named` 3 invocations of derived verbs (`fire` 1, `state` 2: no named verb \
             installed by that name) and 1 invocation through `call`.",
            "Agent: the scripted reference agent (`eval/agents/scripted.sh`) made the runs of \
             `cli-named`.",
            "`cli-named` 160 output tokens, $0.0421",
            "a turn is Claude Code's `num_turns`",
            "Warning: every run of `mcp` timed out before its first call",
        ] {
            assert!(text.contains(said), "{said:?} not in:\n{text}");
        }
        assert!(!text.contains("`mcp` `navigate`"), "{text}");
        let csv = csv(&rows);
        assert_first_row(
            &csv,
            &[
                ("derived_invocations", Some("3")),
                ("call_invocations", Some("1")),
                ("median_context_tokens", Some("55")),
                ("solved_median_context_tokens", Some("100")),
            ],
        );
        let page = page(&rows, "t");
        assert!(
            page.find("scripted reference agent") < page.find("<svg"),
            "above the charts"
        );
    }

    #[test]
    fn runs_the_harness_could_not_make_are_counted_apart_not_as_failures() {
        let errored = |task: &str| RunResult {
            error: Some(
                "mur-sample exited (exit status: 1) before announcing itself\nmore".to_owned(),
            ),
            wall_ms: 0.0,
            ..result("cli-derived", task, false, 0, 0)
        };
        let results = vec![
            result("cli-derived", "a", true, 3, 100),
            result("cli-derived", "a", true, 3, 100),
            errored("a"),
            errored("b"),
        ];
        let rows = rows(&results, &[]);
        let row = &rows.conditions[0];
        assert_eq!((row.runs, row.successes, row.errors), (2, 2, 2));
        assert_eq!((row.calls, row.context_tokens), (Some(3.0), Some(100.0)));
        let line = "Errors: runs the harness could not make (the agent never ran), left out of \
                    every figure above: `cli-derived` 2 (first: mur-sample exited (exit status: \
                    1) before announcing itself). The same command again (the same `--out`) makes them.";
        assert_eq!(errors_line(&rows).as_deref(), Some(line));
        let md = markdown(&rows, "study");
        assert!(
            md.contains("| cli-derived | 2 | 2/2 (100%) | 34%–100% | 3 |"),
            "{md}"
        );
        assert!(md.contains(&format!("\n{line}\n")), "{md}");
        // A task no run of which was made: no rate, no interval.
        assert!(
            md.contains("| b | cli-derived | 0 | 0/0 (–) | – | – |"),
            "{md}"
        );
        assert_csv_row_ends(&rows, "cli-derived", ",2,0,0,0,0,0,0,0,0,0,0,0");
        // In the CSV too: an empty rate and interval, as its medians are — not 0% in 0–0.
        let csv = csv(&rows);
        let task_b = csv
            .lines()
            .find(|l| l.starts_with("cli-derived,b,"))
            .unwrap_or_default();
        assert!(task_b.starts_with("cli-derived,b,0,0,,,,,,,,,,,"), "{csv}");
        // And on the page: no bar ending in 0 for it, but said.
        let page = page(&rows, "study");
        assert!(!page.contains(">b · cli-derived</text>"), "{page}");
        assert!(page.contains(">a · cli-derived</text>"), "{page}");
        assert!(
            page.contains("<p>No runs made (not drawn): b · cli-derived.</p>"),
            "{page}"
        );
        // Without errors, no line.
        assert_eq!(errors_line(&super::super::rows(&results[..2], &[])), None);
    }

    #[test]
    fn runs_the_time_limit_ended_are_counted() {
        let mut cut = result("cli-derived", "a", true, 3, 100);
        cut.timed_out = true;
        let results = vec![cut, result("cli-derived", "a", true, 3, 100)];
        let rows = rows(&results, &[]);
        let line = "Timed out (the time limit ended the agent; its time is the limit, so the \
                    medians are lower bounds): `cli-derived` 1 of 2 runs.";
        assert_eq!(timed_out_line(&rows).as_deref(), Some(line));
        assert!(markdown(&rows, "t").contains(&format!("\n{line}\n")));
        assert_csv_row_ends(&rows, "cli-derived", ",0,0,0,1,0,0,0,0,0,0,0,0");
        assert!(crate::study::progress::line(&results[0]).contains(": pass (timed out; 3 calls,"));
    }

    #[test]
    fn each_conditions_agent_is_named_and_a_difference_is_warned() {
        let results = vec![
            result("cli-derived", "a", true, 3, 100),
            result("cli-named", "a", false, 0, 100),
        ];
        let mut rows = rows(&results, &[]);
        rows.agents = vec![
            ("cli-derived".to_owned(), vec!["bash agent.sh".to_owned()]),
            ("cli-named".to_owned(), vec!["true".to_owned()]),
        ];
        let line = "Warning: the conditions were run by different agents, so their rows compare \
                    the agents as much as the surfaces — `cli-derived` by `bash agent.sh`; \
                    `cli-named` by `true`.";
        assert_eq!(agents_line(&rows).as_deref(), Some(line));
        assert!(condition_table(&rows).contains(&format!("\n{line}\n")));
        rows.agents[1].1 = vec!["bash agent.sh".to_owned()];
        assert_eq!(
            agents_line(&rows).as_deref(),
            Some("Agent: `bash agent.sh`.")
        );
    }

    #[test]
    fn the_agents_named_are_those_whose_runs_are_in_the_table() {
        let by = |agent: &str, task: &str| RunResult {
            agent_command: Some(agent.to_owned()),
            ..result("mcp", task, true, 3, 100)
        };
        // Resumed with another agent: `sleep 300` was named by a command and made no run.
        let made = [by("true", "a"), by("true", "b")];
        let mut rows = rows(&made, &[]);
        rows.agents = vec![(
            "mcp".to_owned(),
            vec!["sleep 300".to_owned(), "true".to_owned()],
        )];
        assert_eq!(agents_line(&rows).as_deref(), Some("Agent: `true`."));
        // One row made by two agents is said to mix them.
        let made = [by("true", "a"), by("false", "b")];
        let mut rows = super::super::rows(&made, &[]);
        rows.agents = vec![("mcp".to_owned(), vec!["true".to_owned()])];
        assert_eq!(
            agents_line(&rows).as_deref(),
            Some(
                "Warning: a condition's runs were made by different agents, so its row mixes \
                 them — `mcp` by `true` and `false`."
            )
        );
        // Records of an older mur-eval name no agent: the study's commands say whose.
        let made = [result("mcp", "a", true, 3, 100)];
        let mut old = super::super::rows(&made, &[]);
        old.agents = vec![("mcp".to_owned(), vec!["bash agent.sh".to_owned()])];
        assert_eq!(
            agents_line(&old).as_deref(),
            Some("Agent: `bash agent.sh`.")
        );
    }

    #[test]
    fn a_condition_whose_runs_had_different_verbs_is_warned() {
        let with = |verbs: &[(&str, &str)], repeat: u32| RunResult {
            verbs: Some(
                verbs
                    .iter()
                    .map(|(n, sha)| ((*n).to_owned(), (*sha).to_owned()))
                    .collect(),
            ),
            repeat,
            ..result("cli-named", "add-todo", true, 3, 100)
        };
        let all = [("click", "c1"), ("type", "t1"), ("wait", "w1")];
        let pruned = [("click", "c1"), ("type", "t1")];
        let rebuilt = [("click", "c2"), ("type", "t1"), ("wait", "w1")];
        let made = [with(&all, 1), with(&all, 2)];
        let same = rows(&made, &[]);
        assert_eq!(verb_sets_line(&same), None);
        let made = [
            with(&all, 1),
            with(&all, 2),
            with(&pruned, 3),
            with(&rebuilt, 4),
        ];
        let mixed = rows(&made, &[]);
        let line = "Warning: a condition's runs had different verbs installed (`verbs prune` or \
                    a rebuild between two commands into this study), so its row mixes them — \
                    `cli-named` 3 verbs in 2 runs, 2 verbs (without `wait`) in 1 run, 3 verbs \
                    (another build of `click`) in 1 run.";
        assert_eq!(verb_sets_line(&mixed).as_deref(), Some(line));
        assert!(markdown(&mixed, "study").contains(&format!("\n{line}\n")));
    }

    #[test]
    fn cli_context_counted_from_what_mur_printed_is_said_an_upper_bound() {
        let mut captured = result("cli-named", "a", true, 3, 100);
        captured.context.captured_output = true;
        let streamed = result("cli-named", "b", true, 3, 100);
        let made = [captured, streamed];
        let rows = rows(&made, &[]);
        let line = "CLI context counted from everything `mur` printed, as no event stream \
                    (`--agent-format`) said what the agent received: output it piped away or \
                    sent to a file is counted whole, so these figures are upper bounds, in \
                    `cli-named` 1 of 2 runs.";
        assert_eq!(captured_line(&rows).as_deref(), Some(line));
        assert!(condition_table(&rows).contains(&format!("\n{line}\n")));
    }

    #[test]
    fn images_are_said_to_be_counted_as_images_with_those_of_unknown_size() {
        let mut shot = result("mcp", "settings-screenshot", true, 3, 100);
        (shot.context.images, shot.context.images_unsized) = (2, 1);
        let made = [
            shot,
            result("cli-named", "settings-screenshot", true, 3, 100),
        ];
        let rows = rows(&made, &[]);
        let line = "Images in tool results counted as images, not as their base64 text: tokens \
                    ≈ width × height / 750 (Anthropic's estimate, after scaling to at most 1568 \
                    px on the long edge and ~1600 tokens), bytes its own size; one whose pixel \
                    size is not in a PNG or JPEG header counts its bytes and no tokens, in `mcp` \
                    2 images (1 of unknown pixel size: bytes only).";
        assert_eq!(images_line(&rows).as_deref(), Some(line));
        assert!(condition_table(&rows).contains(&format!("\n{line}\n")));
        let none = [result("mcp", "a", true, 3, 100)];
        assert_eq!(images_line(&super::super::rows(&none, &[])), None);
    }

    #[test]
    fn no_comparison_is_made_of_runs_whose_agent_never_started() {
        let never = |condition: &str| RunResult {
            agent_exit: Some(127),
            ..result(condition, "a", false, 0, 100)
        };
        let results = [never("cli-named"), never("mcp")];
        let rows = rows(&results, &[]);
        assert_eq!(against(&rows, "cli-named"), None);
        assert!(!markdown(&rows, "t").contains("\nAgainst `"));
        let results = [result("cli-named", "a", true, 2, 100), never("mcp")];
        assert_eq!(
            against(&super::super::rows(&results, &[]), "cli-named").as_deref(),
            Some("Against `cli-named`: `mcp` not compared: its agent never started.")
        );
    }

    #[test]
    fn conditions_run_over_different_tasks_or_repeats_are_said_to_be_unequal() {
        let repeat = |condition: &str, task: &str, repeat: u32| RunResult {
            repeat,
            ..result(condition, task, true, 1, 10)
        };
        let even = vec![
            repeat("cli-named", "a", 1),
            repeat("mcp", "a", 1),
            repeat("cli-named", "b", 1),
            repeat("mcp", "b", 1),
        ];
        let same = rows(&even, &[]);
        assert_eq!(unequal_line(&same), None);
        assert!(!condition_table(&same).contains("Warning"));

        let uneven = vec![
            repeat("cli-named", "a", 1),
            repeat("cli-named", "a", 2),
            repeat("cli-named", "b", 1),
            repeat("mcp", "a", 1),
            repeat("cli-derived", "a", 1),
            repeat("cli-derived", "a", 2),
            repeat("cli-derived", "b", 1),
            repeat("cli-derived", "b", 2),
        ];
        let line = "Warning: the conditions ran different tasks or numbers of repeats, so their \
                    rows are not like for like — `cli-named` 2 tasks × 1–2 repeats; `mcp` 1 task \
                    × 1 repeat, without `b`; `cli-derived` 2 tasks × 2 repeats. Compare them task \
                    by task, on the tasks they share.";
        let unequal = rows(&uneven, &["cli-named".to_owned(), "mcp".to_owned()]);
        assert_eq!(unequal_line(&unequal).as_deref(), Some(line));
        assert!(markdown(&unequal, "t").contains(&format!("\n\n{line}\n")));
        assert!(page(&unequal, "t").contains("Warning: the conditions ran different tasks"));
    }

    #[test]
    fn refused_invocations_are_summed_per_condition_by_argv_shape() {
        // (Attempts: see the_same_wrong_guesses_are_as_many_attempts_on_either_surface.)
        let results = vec![
            refusing("cli-named", &[("state", &[], 1, 2), ("call", &[], 2, 1)]),
            refusing("cli-named", &[("state", &[], 1, 1)]),
            refusing("cli-compact", &[("click", &["--selector"], 1, 1)]),
            result("mcp", "a", true, 3, 900),
        ];
        let names = ["cli-named", "cli-compact", "mcp"].map(str::to_owned);
        let rows = rows(&results, &names);
        let line = "Invocations mur refused (argv a verb did not take; WORD is any other word): \
            `cli-named` 4 (`state WORD` ×3, `call WORD WORD` ×1); \
            `cli-compact` 1 (`click --selector WORD` ×1).";
        assert_eq!(refused_line(&rows).as_deref(), Some(line));
        let md = markdown(&rows, "study");
        assert!(md.contains(&format!("\n{line}\n")), "{md}");
        let csv = csv(&rows);
        assert!(
            csv.lines()
                .next()
                .unwrap_or_default()
                .ends_with(",failed_calls,cli_calls,mcp_calls,first_via_cli,first_via_mcp,order_varied_runs,first_via_listed_first,runs_not_made,turns_runs,input_tokens_runs,timed_out,mcp_results_unseen_runs,agent_failed,agent_failed_at_once,no_events_runs,images,images_unsized,image_tokens,image_bytes")
        );
        assert!(csv.contains("\ncli-named,,2,2,1.0000,"), "{csv}");
        let named = csv_row(&rows, "cli-named");
        assert!(
            named.ends_with(",0,4,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"),
            "{named}"
        );
        // Read back from results.jsonl as written.
        let line = serde_json::to_string(&results[0]).expect("serialize");
        let back: RunResult = serde_json::from_str(&line).expect("deserialize");
        assert_eq!(back, results[0]);
    }

    #[test]
    fn where_both_surfaces_were_offered_the_first_reach_and_the_share_are_reported() {
        let results = vec![
            reaching(Surface::Cli, 3, 0),
            reaching(Surface::Cli, 2, 1),
            reaching(Surface::Mcp, 0, 2),
            result("cli-named", "a", true, 2, 100),
        ];
        let rows = rows(&results, &["cli-named".to_owned(), "both".to_owned()]);
        let line = "Where both surfaces were offered, the agent's own choice: both first reached \
            for the CLI in 2 of 3 runs, for MCP in 1; 62% of calls via the CLI \
            (5 CLI, 3 MCP).";
        assert_eq!(preference_line(&rows).as_deref(), Some(line));
        let md = markdown(&rows, "study");
        assert!(md.contains(&format!("\n{line}\n")), "{md}");
        let both = csv_row(&rows, "both");
        assert!(
            both.ends_with(",5,3,2,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0"),
            "{both}"
        );
        assert!(page(&rows, "study").contains("the agent's own choice: both first reached"));
        // A condition that offers one surface has no preference to report.
        let one = super::super::rows(&results[3..], &["cli-named".to_owned()]);
        assert_eq!(preference_line(&one), None);
        let line = serde_json::to_string(&results[0]).expect("serialize");
        assert!(line.contains(r#""firstSurface":"cli""#), "{line}");
        assert!(!line.contains("listedFirst"), "{line}");
    }

    #[test]
    fn where_the_order_of_the_surfaces_varied_the_reach_for_the_first_named_is_reported() {
        let listed = |first: Surface, listed: Surface| {
            let mut run = reaching(first, 1, 1);
            run.listed_first = Some(listed);
            run
        };
        let results = vec![
            listed(Surface::Cli, Surface::Cli),
            listed(Surface::Mcp, Surface::Mcp),
            listed(Surface::Cli, Surface::Mcp),
            listed(Surface::Mcp, Surface::Mcp),
        ];
        let rows = rows(&results, &["both".to_owned()]);
        let line = "Where both surfaces were offered, the agent's own choice: both first reached \
            for the CLI in 2 of 4 runs, for MCP in 2; the surface its instructions \
            named first was reached first in 3 of 4; 50% of calls via the CLI (4 CLI, 4 MCP).";
        assert_eq!(preference_line(&rows).as_deref(), Some(line));
        let both = csv_row(&rows, "both");
        assert!(
            both.ends_with(",4,4,2,2,4,3,0,0,0,0,0,0,0,0,0,0,0,0"),
            "{both}"
        );
        let line = serde_json::to_string(&results[2]).expect("serialize");
        assert!(line.contains(r#""listedFirst":"mcp""#), "{line}");
    }

    #[test]
    fn failed_calls_have_a_column_and_runs_not_made_are_named_so() {
        let failing = |failed: u32| {
            let mut run = result("mcp", "a", false, 2, 100);
            run.calls.failed = failed;
            run
        };
        let made = [failing(1), failing(1), failing(0)];
        let rows = rows(&made, &[]);
        assert_eq!(rows.conditions[0].failed, Some(1.0));
        assert_eq!(rows.conditions[0].failed_total, 2);
        let line = "Failed calls (the session answered with an error): `mcp` 2 in 2 of 3 runs.";
        assert_eq!(failed_line(&rows).as_deref(), Some(line));
        assert!(condition_table(&rows).contains(&format!("\n{line}\n")));
        let table = condition_table(&rows);
        assert!(
            table.contains("| mcp | 3 | 0/3 (0%) | 0%–56% | 2 | 2 | 1 | – |"),
            "{table}"
        );
        assert!(legend().contains("failed calls (calls the session answered with an error"));
        assert!(legend().contains("report.csv's `runs_not_made`"));
        let csv = csv(&rows);
        assert_first_row(
            &csv,
            &[
                ("median_failed_calls", Some("1")),
                ("failed_calls", Some("2")),
                ("runs_not_made", Some("0")),
                ("errors", None),
            ],
        );
        assert!(page(&rows, "study").contains("<th>median failed calls</th>"));
    }

    #[test]
    fn an_agent_that_exited_nonzero_is_said_and_no_evidence_against_the_surface() {
        let run = |condition: &str, repeat: u32, exit: i32, calls: u32| {
            let mut run = result(condition, "count", false, calls, 100);
            run.id = format!("{condition}/count/{repeat}");
            run.repeat = repeat;
            run.agent_exit = Some(exit);
            run.categories = vec!["interact".to_owned()];
            run
        };
        // `mcp`: the agent exited 1 at once, every run (an API key refused).
        // `cli-named`: it tried (2 calls) and failed, exiting 3, then at once exit 127.
        let results = vec![
            run("mcp", 1, 1, 0),
            run("mcp", 2, 1, 0),
            run("cli-named", 1, 3, 2),
            run("cli-named", 2, 127, 0),
        ];
        let names = ["cli-named", "mcp"].map(str::to_owned);
        let rows = rows(&results, &names);
        assert_eq!(
            agent_exits_line(&rows).as_deref(),
            Some(
                "The agent exited nonzero in `cli-named` 1 of 2 runs (exit 3 ×1); `mcp` 2 of \
                 2 runs (exit 1 ×2); 3 runs before any call, `mur` command or transcript \
                 line (126 and 127 too): each run's `agent.stderr` says why."
            )
        );
        // Repeat 2 exited at once under both conditions: the agent's own failure, left
        // out. mcp's repeat 1 exited at once where cli-named's tried the surface: it
        // counts, as cli-named's does.
        let line = "Task categories a condition never completed (evidence against it): \
                    `cli-named` `interact` (0 of 1); `mcp` `interact` (0 of 1) (2 runs left \
                    out: the agent exited nonzero at once (no call, `mur` command or \
                    transcript line) in the same task and repeat under every condition, so it \
                    failed on its own; 2 runs counted whose agent exited nonzero).";
        assert_eq!(rows.categories.never_completed().as_deref(), Some(line));
        let md = markdown(&rows, "study");
        assert!(md.contains(&format!("\n{line}\n")), "{md}");
        // Only runs the agent failed at once, under the study's one condition: no
        // evidence at all, and said so.
        let at_once = super::super::rows(&results[..2], &names);
        assert_eq!(
            at_once.categories.never_completed().as_deref(),
            Some(
                "Task categories a condition never completed: none counted as evidence \
                 against a surface (2 runs left out: the agent exited nonzero at once (no \
                 call, `mur` command or transcript line) in the same task and repeat under \
                 every condition, so it failed on its own)."
            )
        );
        // An agent that only had argv refused, or only logged a read, tried the surface:
        // under every condition its exit is evidence.
        let mut refused = run("mcp", 1, 1, 0);
        refused.invocations = refusing("mcp", &[("press", &[], 1, 1)]).invocations;
        let mut read = run("cli-named", 1, 1, 0);
        read.agent_lines = Some(1);
        let tried = [refused, read];
        assert!(!failed_at_once(&tried[0]) && !failed_at_once(&tried[1]));
        assert_eq!(
            super::super::rows(&tried, &names)
                .categories
                .never_completed()
                .as_deref(),
            Some(
                "Task categories a condition never completed (evidence against it): \
                 `cli-named` `interact` (0 of 1); `mcp` `interact` (0 of 1) (2 runs counted \
                 whose agent exited nonzero)."
            )
        );
        assert_csv_row_ends(&rows, "mcp", ",2,2,0,0,0,0,0");
        assert!(
            crate::study::progress::line(&results[0]).contains(": FAIL (agent exit 1; 0 calls,"),
            "{}",
            crate::study::progress::line(&results[0])
        );
    }

    #[test]
    fn a_task_judged_by_two_versions_of_its_file_and_a_stream_never_read_are_warned() {
        let run = |repeat: u32, sha: &str| {
            let mut run = result("cli-named", "count", true, 3, 100);
            run.id = format!("cli-named/count/{repeat}");
            run.repeat = repeat;
            run.task_sha256 = Some(sha.repeat(64));
            run
        };
        let mut unread = run(3, "a");
        unread.agent = Some(crate::adapters::AgentReport {
            no_events: true,
            ..crate::adapters::AgentReport::new(crate::adapters::Format::StreamJson)
        });
        let results = vec![run(1, "a"), run(2, "b"), unread];
        let rows = rows(&results, &[]);
        let versions = "Warning: a task's file changed between commands into this study, so \
                        its runs were judged by different oracles (by the sha256 of the file) \
                        — `count` aaaaaaaaaaaa in 2 runs, bbbbbbbbbbbb in 1 run.";
        assert_eq!(task_versions_line(&rows).as_deref(), Some(versions));
        let stream = "Warning: `--agent-format` was given, but the agent's stdout held no event \
                      of it in `cli-named` 1 of 3 runs: their turns, tokens and cost are \
                      unknown, and their context was counted as if no stream were read; check \
                      the agent's flags (Claude Code writes its stream with `--output-format \
                      stream-json --verbose`; Codex with `exec --json`).";
        assert_eq!(no_events_line(&rows).as_deref(), Some(stream));
        let table = condition_table(&rows);
        assert!(
            table.contains(versions) && table.contains(stream),
            "{table}"
        );
        // A value that is no hex (results.jsonl edited by hand) is shown, not cut
        // inside a character.
        let mut odd = [run(1, "a"), run(2, "b")];
        let cut = format!("a{}", "é".repeat(20));
        odd[1].task_sha256 = Some(cut.clone());
        assert!(
            task_versions_line(&super::super::rows(&odd, &[]))
                .expect("two versions")
                .contains(&format!("{cut} in 1 run.")),
        );
        // A condition's instructions edited between two commands: said the same way.
        let mut edited = [run(1, "a"), run(2, "a"), run(3, "a")];
        for (run, sha) in edited.iter_mut().zip(["c", "c", "d"]) {
            run.condition_sha256 = Some(sha.repeat(64));
        }
        let rows = super::super::rows(&edited, &[]);
        let conditions = "Warning: a condition's files changed between commands into this \
                          study, so its runs had different instructions or settings (by the \
                          sha256 of its file and its instructions) — `cli-named` cccccccccccc \
                          in 2 runs, dddddddddddd in 1 run.";
        assert_eq!(condition_versions_line(&rows).as_deref(), Some(conditions));
        assert!(condition_table(&rows).contains(conditions));
        assert_eq!(task_versions_line(&rows), None);
        // One version, or runs recorded before the file's sha256 was: nothing said.
        let one = [run(1, "a"), result("cli-named", "count", true, 3, 100)];
        assert_eq!(task_versions_line(&super::super::rows(&one, &[])), None);
    }

    #[test]
    fn the_readme_block_keeps_the_refused_line_and_the_page_charts_attempts() {
        let mut cli = refusing("cli-named", &[("press", &[], 1, 2)]);
        cli.calls.total = 3;
        let made = [cli];
        let rows = rows(&made, &[]);
        let line = refused_line(&rows).expect("a refused line");
        // The README's block is the condition table and what follows it.
        assert!(condition_table(&rows).contains(&line));
        // Said once in report.md.
        assert_eq!(markdown(&rows, "study").matches(&line).count(), 1);
        let page = page(&rows, "study");
        assert!(
            page.contains("Attempts per run (median): the calls, then up to the attempts"),
            "{page}"
        );
        assert!(!page.contains("Calls per run (median)"), "{page}");
        // The second segment is a difference of two medians, named so: not a count of
        // refused invocations (a median of 2.5 calls would make it half an invocation).
        assert!(
            page.contains("<title>median attempts − median calls: 2</title>"),
            "{page}"
        );
        assert!(!page.contains("refused invocations:"), "{page}");
        // The bar ends at the median attempts: 3 calls, 2 refused.
        assert!(page.contains(">5</text>"), "{page}");
    }

    /// A study stopped before its end: a condition with no run recorded is named, the
    /// runs missing of the others too, and a complete study says nothing of it.
    #[test]
    fn the_runs_asked_for_and_not_recorded_are_said_per_condition() {
        let matrix = |conditions: &[&str], tasks: &[&str], repeats: u32| Matrix {
            conditions: conditions.iter().map(|c| (*c).to_owned()).collect(),
            tasks: tasks.iter().map(|t| (*t).to_owned()).collect(),
            repeats,
            agent: "true".to_owned(),
            agent_format: None,
            time_limit_secs: None,
            provenance: None,
        };
        let run = |condition: &str, task: &str, repeat: u32| {
            let mut run = result(condition, task, true, 2, 100);
            run.id = format!("{condition}/{task}/{repeat}");
            run.repeat = repeat;
            run
        };
        let asked = [
            matrix(&["cli-named", "mcp"], &["add-todo", "count"], 3),
            // Asked again by a second command, with more repeats of one task.
            matrix(&["mcp"], &["count"], 5),
        ];
        let made = [run("mcp", "count", 2), run("mcp", "count", 4)];
        let mut rows = rows(&made, &[]);
        assert_eq!(missing_line(&rows), None, "not known: nothing said");
        rows.asked = &asked;
        let line = "Warning: the study is not complete — 2 of the 14 runs its commands asked \
                    for (`study.json`) are recorded, and every figure is over those alone: \
                    `cli-named` 0 of 6 runs recorded; `mcp` 2 of 8 runs recorded (missing \
                    `add-todo` repeats 1–3; `count` repeats 1, 3, 5). The same `mur-eval \
                    study` command again (the same `--out`) makes the rest; the runs recorded \
                    are skipped.";
        assert_eq!(missing_line(&rows).as_deref(), Some(line));
        // And in one line for stderr.
        assert_eq!(
            incomplete(&rows).as_deref(),
            Some(
                "the study is not complete: 2 of 14 runs recorded; run the same `mur-eval \
                 study` command again (the same `--out`) to finish"
            )
        );
        // Under the table, first: in report.md, the README's block and the page.
        let table = condition_table(&rows);
        assert!(table.contains(&format!("|\n\n{line}\n")), "{table}");
        assert!(markdown(&rows, "study").contains(line));
        assert!(page(&rows, "study").contains("Warning: the study is not complete — 2 of"));
        // Every run asked for recorded (an error too: the errors line says it).
        let mut whole: Vec<RunResult> = ["cli-named", "mcp"]
            .iter()
            .flat_map(|c| ["add-todo", "count"].map(|t| (c, t)))
            .flat_map(|(c, t)| (1..=3).map(move |r| run(c, t, r)))
            .collect();
        whole.extend([run("mcp", "count", 4), run("mcp", "count", 5)]);
        whole[0].error = Some("no session".to_owned());
        let mut rows = super::super::rows(&whole, &[]);
        rows.asked = &asked;
        assert_eq!(missing_line(&rows), None);
        assert_eq!(incomplete(&rows), None);
        // A study begun in schema 1 knows only its last command's matrix: the runs an
        // earlier one made are no evidence of what it lacks, nor is the last's shortfall
        // the study's.
        let last = [matrix(&["mcp"], &["count"], 5)];
        let mut rows = super::super::rows(&made, &[]);
        rows.asked = &last;
        rows.asked_in_part = true;
        assert_eq!(missing_line(&rows).as_deref(), Some(ASKED_IN_PART));
        assert_eq!(incomplete(&rows), None);
        let have = BTreeSet::from([3, 7, 8]);
        assert_eq!(gaps(&have, 10), [(1, 2), (4, 6), (9, 10)]);
        assert_eq!(
            repeats_named(&gaps(&have, 10), 7),
            "repeats 1, 2, 4–6, 9, 10"
        );
        assert_eq!(repeats_named(&gaps(&BTreeSet::from([1]), 2), 1), "repeat 2");
        // A hand-edited study.json asking for every repeat a u32 holds: counted, not
        // listed, and said in a line.
        let asked = [matrix(&["mcp"], &["count"], u32::MAX)];
        let made = [run("mcp", "count", u32::MAX)];
        let mut rows = super::super::rows(&made, &[]);
        rows.asked = &asked;
        let line = missing_line(&rows).expect("said");
        assert!(
            line.contains(
                "`mcp` 1 of 4294967295 runs recorded (missing `count` repeats 1–4294967294)"
            ),
            "{line}"
        );
    }

    #[test]
    fn the_report_says_how_the_study_was_made() {
        let mut early = result("mcp", "a", true, 3, 100);
        early.started_at = Some("2026-11-29T10:00:00.000Z".to_owned());
        let mut late = result("mcp", "b", true, 3, 100);
        late.started_at = Some("2026-11-29T11:00:00.000Z".to_owned());
        let made = [late, early];
        let mut rows = rows(&made, &[]);
        assert_eq!(made_line(&rows), None);
        rows.commands = vec!["`mur-eval study --jobs 2` (mur-eval 0.1.0 (debug build))".to_owned()];
        let line = "Made by `mur-eval study --jobs 2` (mur-eval 0.1.0 (debug build)). Its runs \
                    started from 2026-11-29T10:00:00.000Z to 2026-11-29T11:00:00.000Z.";
        assert_eq!(made_line(&rows).as_deref(), Some(line));
        assert!(
            markdown(&rows, "study").starts_with(&format!("# study\n\n{line}\n\n## Conditions"))
        );
        // The page too, before its first heading.
        let html = page(&rows, "study");
        let said = html::escape(&line.replace('`', ""));
        assert!(
            html.contains(&format!("<p>{said}</p><h2>Conditions</h2>")),
            "{html}"
        );
        // Runs that say which command made them: a command that made none (a resume
        // with nothing left, another `--jobs`) is not named, the others with their runs.
        let mut made = made.clone();
        made[0].made_by = Some(2);
        made[1].made_by = Some(0);
        let mut rows = super::super::rows(&made, &[]);
        rows.commands = [
            "`mur-eval study --jobs 2`",
            "`mur-eval study --jobs 1`",
            "`b`",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            made_line(&rows).as_deref(),
            Some(
                "Made by `mur-eval study --jobs 2`, 1 run; then `b`, 1 run. Its runs started \
                 from 2026-11-29T10:00:00.000Z to 2026-11-29T11:00:00.000Z."
            )
        );
    }

    /// report.csv's image columns are the counts report.md's line says, and the images'
    /// own tokens and bytes summed; unknown (empty) where an older record of a run with
    /// images kept no sizes.
    #[test]
    fn the_images_and_their_tokens_and_bytes_are_in_the_csv() {
        let shot = |images: u32, unsized_: u32, size: Option<(u64, u64)>| {
            let mut run = result("mcp", "settings-screenshot", true, 3, 4000);
            run.context.images = images;
            run.context.images_unsized = unsized_;
            run.context.images_size = size.map(|(bytes, tokens)| Size { bytes, tokens });
            run
        };
        let made = [
            shot(1, 0, Some((31_000, 640))),
            shot(2, 1, Some((45_000, 1600))),
            shot(0, 0, None),
            result("cli-named", "settings-screenshot", true, 3, 100),
        ];
        let rows = rows(&made, &[]);
        let csv = csv(&rows);
        assert!(
            csv.starts_with("condition,")
                && csv
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .ends_with(",no_events_runs,images,images_unsized,image_tokens,image_bytes"),
            "{csv}"
        );
        let column = |condition: &str, name: &str| {
            csv_cell(&csv, &csv_row(&rows, condition), name).map(str::to_owned)
        };
        let images = |condition: &str| {
            ["images", "images_unsized", "image_tokens", "image_bytes"]
                .map(|name| column(condition, name).unwrap_or_default())
        };
        assert_eq!(images("mcp"), ["3", "1", "2240", "76000"], "{csv}");
        assert_eq!(images("cli-named"), ["0", "0", "0", "0"], "{csv}");
        // As report.md says them.
        assert!(
            images_line(&rows).is_some_and(
                |l| l.ends_with("in `mcp` 3 images (1 of unknown pixel size: bytes only).")
            ),
            "{:?}",
            images_line(&rows)
        );
        // An older record of a run that received an image, which kept no size: the count
        // stands, the tokens and bytes are unknown.
        let older = [shot(1, 0, None), shot(1, 0, Some((31_000, 640)))];
        let older_rows = super::super::rows(&older, &[]);
        assert!(
            csv_row(&older_rows, "mcp").ends_with(",2,0,,"),
            "{}",
            super::super::csv::csv(&older_rows)
        );
    }
}
