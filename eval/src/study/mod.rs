//! `mur-eval study`: conditions × tasks × repeats, in an order shuffled by a recorded
//! seed, each run in a fresh sandbox with a fresh `mur-sample` (the same task run as
//! `mur-eval run` makes), `--jobs` at a time. Each finished run is appended to
//! `results.jsonl` with its metrics, so a study run again with the same `--out` skips
//! what is recorded and resumes; then `report.md`, `report.csv`, `transcripts.md` (what
//! the agents did, per task and condition, for people to read) and, with `--html`, the
//! page.

pub mod context;
mod files;
mod gate;
pub mod journal;
mod live;
mod one;
mod paths;
mod plan;
mod prepare;
mod progress;
pub mod provenance;
mod publish;
pub mod report;
mod reread;
pub mod result;
mod traces;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Mutex;

use mur_core::{Error, Result};

use crate::checker::Checker;
use crate::profile;
use crate::tokens::ENCODING;
use files::LOCK;
pub use files::{META, OWN, RESULTS};
use gate::{Admitted, Gate};
use journal::{Matrix, Meta};
pub use paths::resolved;
use plan::{Planned, id, order, run_dir};
pub use plan::{Study, check_size};
use progress::Bar;
pub use reread::{Readme, Reread};

/// What a finished study recorded, for its reports.
pub struct Outcome {
    pub out: PathBuf,
    /// Runs made now (the rest were recorded already).
    pub ran: usize,
    /// Every run recorded, now and before: the report's to write.
    pub report: Reread,
}

/// Runs the study; `progress` hears warnings and, off a terminal, each run as it ends.
/// A study a signal stops never returns: the signal's thread ends mur-eval once the
/// study's files are cleaned up ([`live`]).
pub fn run(study: &Study, progress: &(dyn Fn(&str) + Sync)) -> Result<Outcome> {
    let outcome = run_study(study, progress);
    live::wait_if_stopped();
    outcome
}

fn run_study(study: &Study, progress: &(dyn Fn(&str) + Sync)) -> Result<Outcome> {
    let agent_path = profile::agent_path(std::env::var_os("PATH"), &study.runner.mur);
    for warning in crate::agent::check_program(&study.agent, &agent_path)? {
        progress(&format!("warning: {warning}"));
    }
    for condition in &study.conditions {
        if let Some(warning) = crate::agent::check_command(&study.agent, condition.surface)? {
            progress(&format!(
                "warning: condition `{}`: {warning}",
                condition.name
            ));
        }
    }
    // Before anything is made or written there: a directory with someone's files in it
    // is refused, not overwritten.
    files::check_out(&study.out)?;
    crate::tree::create_dir(&study.out)?;
    let out = std::path::absolute(&study.out)
        .map_err(|e| Error::internal(format!("cannot resolve `{}`: {e}", study.out.display())))?;
    // Held until the study ends: a second study into this directory is refused.
    let _in_use = claim(&out)?;
    let asked = Matrix {
        conditions: study.conditions.iter().map(|c| c.name.clone()).collect(),
        tasks: study.tasks.iter().map(|t| t.id.clone()).collect(),
        repeats: study.repeats,
        agent: study.agent.clone(),
        agent_format: study.agent_format,
        time_limit_secs: study
            .runner
            .time_limit_forced
            .then_some(study.runner.time_limit.as_secs()),
        provenance: Some(study.provenance.clone()),
    };
    let meta = Meta::load(&out, asked.clone(), ENCODING, study.seed)?;
    // Each run says which command made it: a resume or an extension is its own.
    let made_by = meta.matrices.iter().position(|m| *m == asked);
    let results_path = out.join(RESULTS);
    let done = journal::done(&results_path, &meta)?;
    let pending: VecDeque<Planned> = order(study, meta.seed)
        .into_iter()
        .filter(|p| !done.contains(&id(study, p)))
        .collect();
    // A study killed mid-run left those runs' agents (their process groups) and sessions
    // running: stop them first, even if preparing a condition fails below.
    let mut killed_roots = std::collections::BTreeSet::new();
    for planned in &pending {
        let dir = run_dir(study, &out, planned);
        killed_roots.extend(one::stop_left_running(&dir, &study.runner.sample));
    }
    // Where the killed study made its runs, once nothing runs there any more: named by
    // its runs in flight, and by the study itself (killed between runs, none is).
    killed_roots.extend(one::recorded_live_root(&out));
    for root in killed_roots {
        let _ = std::fs::remove_dir_all(root);
    }
    // Where the runs are made, outside `out` (`one::run_one`), and the conditions' `mur`
    // and verbs, which the agents' environment names: no path an agent is given leads
    // to another run's files. Removed when the study ends, or a signal stops it.
    let live = live::Live::make(&out, !pending.is_empty(), resume_line(study, &out))?;
    let ran = pending.len();
    progress(&format!(
        "study: {} × {} × {}, seed {}; {} to run, {} recorded",
        crate::words::plural(study.conditions.len(), "condition"),
        crate::words::plural(study.tasks.len(), "task"),
        crate::words::plural(study.repeats as usize, "repeat"),
        meta.seed,
        pending.len(),
        done.len()
    ));
    let ready = {
        // Made whole before a stop cleans up, or not at all. (Its error is never said:
        // `run` waits for the signal's thread to end mur-eval.)
        let Some(_changing) = live.changing() else {
            return Err(Error::internal("stopped by a signal"));
        };
        let ready = prepare::prepare_conditions(study, &out, live.root(), &pending, progress)?;
        // Recorded once the study can start: one that failed before (no verbs installed)
        // pins no seed, and the corrected command may name its own.
        meta.save(&out)?;
        ready
    };
    let bar = Bar::new(pending.len());
    let gate = Mutex::new(Gate::new(pending.len()));
    let queue = Mutex::new(pending);
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let no_events = std::sync::Once::new();
    std::thread::scope(|scope| {
        for _ in 0..study.jobs.max(1) {
            scope.spawn(|| {
                let checker = match Checker::new() {
                    Ok(checker) => checker,
                    Err(e) => return record_failure(&failure, e),
                };
                let making = one::Making {
                    study,
                    ready: &ready,
                    checker: &checker,
                    out: &out,
                    live: &live,
                };
                loop {
                    if failure.lock().map_or(true, |f| f.is_some()) || crate::stop::signalled() {
                        return;
                    }
                    let Some(planned) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
                        return;
                    };
                    let mut result = one::run_one(&making, &planned);
                    result.made_by = made_by;
                    // A run a stop cut short is not recorded: its agent was killed.
                    let Some(mut begun) = live.changing() else {
                        return;
                    };
                    bar.finished(&result, progress);
                    // A run held back, or one the study stopped at, stays begun: its
                    // directory is removed with the study's temporary files.
                    let admitted = gate
                        .lock()
                        .map_or(Admitted::Stop(None), |mut gate| gate.admit(result));
                    let recorded = match admitted {
                        Admitted::Record(runs) => runs,
                        Admitted::Held => continue,
                        Admitted::Stop(error) => {
                            return error.into_iter().for_each(|e| record_failure(&failure, e));
                        }
                    };
                    for result in recorded {
                        if let Err(e) = journal::append(&results_path, &result) {
                            return record_failure(&failure, e);
                        }
                        begun.remove(&result.transcript);
                        // Said at once, not only in the report at the end: a study of
                        // hundreds of runs need not finish to learn its agent's flags
                        // are wrong. Once: the report counts every such run.
                        if let Some(agent) = result.agent.as_ref().filter(|a| a.no_events) {
                            no_events.call_once(|| {
                                let note = one::no_events_note(agent.format);
                                progress(&format!("warning: {}: {note}", result.id));
                            });
                        }
                    }
                }
            });
        }
    });
    bar.done();
    // The study ends here, its temporary directory with it.
    drop(live);
    if let Some(error) = failure.into_inner().ok().flatten() {
        return Err(error);
    }
    let recorded = journal::read(&results_path, &meta)?;
    for warning in &recorded.warnings {
        progress(&format!("warning: {warning}"));
    }
    Ok(Outcome {
        out,
        ran,
        report: Reread::of(meta, recorded),
    })
}

/// How a stop tells the user to resume the study in `out`: the same command again, when
/// it named its `--out`; else that command with `--out` added, which the same command
/// without it (a new directory, named by the time, and a fresh seed) would not do. No
/// `--seed`: the study's is kept in `study.json` (once a run can be recorded; a study
/// stopped before recorded nothing, and any seed will do).
fn resume_line(study: &Study, out: &std::path::Path) -> String {
    let dir = out.to_string_lossy();
    if study.out_given {
        return format!("run the same command again to resume the study in `{dir}`");
    }
    format!(
        "resume the study in `{dir}` with the same command and that `--out`: `{} --out {}`",
        study.provenance.command_to_run_again(),
        provenance::quoted(&dir)
    )
}

/// The study's lock file (`study.lock`), locked for as long as the study runs; a usage
/// error when another study holds it: two studies into one directory would make the
/// same runs at once, in the same run directories, and record each twice.
fn claim(out: &std::path::Path) -> Result<std::fs::File> {
    crate::outdir::hold(
        out,
        LOCK,
        "another study",
        "wait for it to end, then run this command again to add what it lacks",
    )
}

fn record_failure(failure: &Mutex<Option<Error>>, error: Error) {
    if let Ok(mut slot) = failure.lock() {
        slot.get_or_insert(error);
    }
}
