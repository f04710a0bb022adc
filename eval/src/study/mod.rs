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
mod workers;

use std::collections::{BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use mur_core::{Error, Result};

use crate::tokens::ENCODING;
use files::LOCK;
pub use files::{META, OWN, RESULTS};
use journal::{Matrix, Meta};
pub use paths::resolved;
use plan::{Planned, id, order, run_dir};
pub use plan::{Study, check_size};
#[cfg(test)]
pub use publish::TITLE;
pub use reread::{Readme, Reread, is_study_page};
use workers::Workers;

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

/// [`run`]'s steps, in the order their effects are seen: the command checked, `--out`
/// claimed, what came before there said, the conditions prepared, the runs made, then
/// everything recorded read back for the report.
fn run_study(study: &Study, progress: &(dyn Fn(&str) + Sync)) -> Result<Outcome> {
    warn_of_the_agent(study, progress)?;
    let recorded = check_before_out(study)?;
    let out = make_out(&study.out)?;
    // Held until the study ends: a second study into this directory is refused.
    let _in_use = claim(&out)?;
    let Recorded {
        meta,
        made,
        pending,
        ..
    } = recorded.under_the_lock(study, &out)?;
    let results = out.join(RESULTS);
    say_what_came_before(study, &out, &made, &pending, progress);
    // Where the runs are made, outside `out` (`one::run_one`), and the conditions' `mur`
    // and verbs, which the agents' environment names: no path an agent is given leads
    // to another run's files. Removed when the study ends, or a signal stops it.
    let live = live::Live::make(&out, !pending.is_empty(), resume_line(study, &out))?;
    let ran = pending.len();
    progress(&starting_line(study, meta.seed, ran, made.len()));
    let ready = prepare(study, &out, &live, &pending, &meta, progress)?;
    let workers = Workers {
        study,
        ready: &ready,
        out: &out,
        live: &live,
        made_by: made_by(study, &meta),
        results: &results,
        progress,
    };
    let failure = workers.make(pending);
    // The study ends here, its temporary directory with it.
    drop(live);
    if let Some(error) = failure {
        return Err(error);
    }
    let recorded = recorded_runs(&results, &meta, progress)?;
    Ok(Outcome {
        out,
        ran,
        report: Reread::of(meta, recorded),
    })
}

/// What the study says before it starts of what came before it in `out`: runs recorded
/// there by another agent, and what a study killed there left (stopped and removed
/// first, [`stop_the_killed_study`]).
fn say_what_came_before(
    study: &Study,
    out: &Path,
    made: &[result::RunResult],
    pending: &VecDeque<Planned>,
    progress: &(dyn Fn(&str) + Sync),
) {
    if let Some(warning) = other_agents(study, made, pending) {
        progress(&format!("warning: {warning}"));
    }
    if let Some(line) = stop_the_killed_study(study, out, pending) {
        progress(&line);
    }
}

/// Which of `study.json`'s matrices is this command's: each run says which command made
/// it, so a resume or an extension is its own.
fn made_by(study: &Study, meta: &Meta) -> Option<usize> {
    let asked = asked(study);
    meta.matrices.iter().position(|m| *m == asked)
}

/// Every run `results.jsonl` records once the study's runs are made, now and before:
/// the report's to write. What it left out is said as warnings ([`journal::read`]).
fn recorded_runs(
    results: &Path,
    meta: &Meta,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<journal::Journal> {
    let recorded = journal::read(results, meta)?;
    for warning in &recorded.warnings {
        progress(&format!("warning: {warning}"));
    }
    Ok(recorded)
}

/// Refuses an agent command that cannot start in any run; says what may go wrong with
/// it, and with a condition it runs under.
fn warn_of_the_agent(study: &Study, progress: &(dyn Fn(&str) + Sync)) -> Result<()> {
    let placeholders = &crate::agent::STUDY_PLACEHOLDERS;
    for warning in study.runner.check_agent(&study.agent, placeholders)? {
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
    Ok(())
}

/// A warning when runs recorded in the study were made by another agent than the one
/// this command makes its `pending` runs with (a resume with another `--agent`): the
/// report mixes or compares the two, which report.md says only once the runs are made.
fn other_agents(
    study: &Study,
    made: &[result::RunResult],
    pending: &VecDeque<Planned>,
) -> Option<String> {
    let running: BTreeSet<&str> = pending
        .iter()
        .map(|p| study.conditions[p.condition].name.as_str())
        .collect();
    let mut others: Vec<&str> = Vec::new();
    let mut mixed = false;
    for run in made {
        let Some(agent) = run.agent_command.as_deref().filter(|a| *a != study.agent) else {
            continue;
        };
        mixed |= running.contains(run.condition.as_str());
        if !others.contains(&agent) {
            others.push(agent);
        }
    }
    if others.is_empty() || pending.is_empty() {
        return None;
    }
    let named: Vec<String> = others.iter().map(|a| format!("`{a}`")).collect();
    let so = if mixed {
        "a condition's row will mix the agents' runs"
    } else {
        "the conditions' rows will compare the agents as much as the surfaces"
    };
    let agents = if named.len() == 1 { "agent" } else { "agents" };
    Some(format!(
        "runs recorded in the study were made by the {agents} {}, and this command's by `{}`: {so}",
        named.join(" and "),
        study.agent
    ))
}

/// What a study's `--out` records, read before the study holds it: `study.json` with
/// this command's matrix added, the runs made, and those still to make.
struct Recorded {
    meta: Meta,
    made: Vec<result::RunResult>,
    pending: VecDeque<Planned>,
    /// `study.json` and `results.jsonl` as they were read ([`seen`]).
    seen: [Option<(u64, std::time::SystemTime)>; 2],
}

impl Recorded {
    /// What `out` records for `study`; nothing is written.
    fn read(study: &Study, out: &Path) -> Result<Recorded> {
        let seen = seen(out);
        let meta = Meta::load(out, asked(study), ENCODING, study.seed)?;
        let made = journal::done(&out.join(RESULTS), &meta)?;
        let done: BTreeSet<String> = made.iter().map(|r| r.id.clone()).collect();
        let pending = pending(study, meta.seed, &done);
        Ok(Recorded {
            meta,
            made,
            pending,
            seen,
        })
    }

    /// What was read, once the study holds `out` (its lock): read again only when
    /// another study wrote there since (it ended between the read and the lock).
    fn under_the_lock(self, study: &Study, out: &Path) -> Result<Recorded> {
        if seen(out) == self.seen {
            return Ok(self);
        }
        let again = Recorded::read(study, out)?;
        again.check_verbs(study)?;
        Ok(again)
    }

    /// [`prepare::check_verbs`] of the conditions the runs still to make need.
    fn check_verbs(&self, study: &Study) -> Result<()> {
        let needed = study
            .conditions
            .iter()
            .enumerate()
            .filter(|(index, _)| self.pending.iter().any(|p| p.condition == *index))
            .map(|(_, condition)| condition);
        prepare::check_verbs(&study.verbs, needed)
    }
}

/// The size and the time of the last change of `study.json` and `results.jsonl` in `out`
/// (`None`: not there): what a study that wrote there would change.
fn seen(out: &Path) -> [Option<(u64, std::time::SystemTime)>; 2] {
    [META, RESULTS].map(|name| {
        let metadata = std::fs::metadata(out.join(name)).ok()?;
        Some((metadata.len(), metadata.modified().ok()?))
    })
}

/// Refuses, before the study's `--out` is made or claimed (its lock) and before its plan
/// is said, what a study can tell is wrong without running anything: an `--out` holding
/// someone's files, a study recorded there with another `--seed`, the record that cannot
/// be read, a verb directory a condition of the runs still to make installs that is
/// missing or empty ([`prepare::check_verbs`]). What is recorded is read, never written,
/// and kept for the study ([`Recorded::under_the_lock`]).
fn check_before_out(study: &Study) -> Result<Recorded> {
    files::check_out(&study.out)?;
    let recorded = Recorded::read(study, &study.out)?;
    recorded.check_verbs(study)?;
    Ok(recorded)
}

/// The study's directory `out`, made, as an absolute path. A directory with someone's
/// files in it was refused before ([`check_before_out`]).
fn make_out(out: &Path) -> Result<PathBuf> {
    crate::tree::create_dir(out)?;
    std::path::absolute(out)
        .map_err(|e| Error::internal(format!("cannot resolve `{}`: {e}", out.display())))
}

/// This command's matrix, as `study.json` records it.
fn asked(study: &Study) -> Matrix {
    Matrix {
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
    }
}

/// The study's runs not `done` (recorded already), in the order `seed` shuffles them.
fn pending(study: &Study, seed: u64, done: &BTreeSet<String>) -> VecDeque<Planned> {
    order(study, seed)
        .into_iter()
        .filter(|p| !done.contains(&id(study, p)))
        .collect()
}

/// What a study killed in `out` left: the agents (their process groups) and sessions
/// of the runs it had in flight, stopped, and where it made them, removed. First, even
/// if preparing a condition fails after. The line that says what was stopped and
/// removed, when anything was: the operator learns that an earlier study died.
fn stop_the_killed_study(study: &Study, out: &Path, pending: &VecDeque<Planned>) -> Option<String> {
    let mut killed_roots = BTreeSet::new();
    let mut stopped = 0;
    for planned in pending {
        let dir = run_dir(study, out, planned);
        let (any, root) = one::stop_left_running(&dir, &study.runner.sample);
        stopped += usize::from(any);
        killed_roots.extend(root);
    }
    // Where the killed study made its runs, once nothing runs there any more: named by
    // its runs in flight, and by the study itself (killed between runs, none is).
    killed_roots.extend(one::recorded_live_root(out));
    let removed: Vec<String> = killed_roots
        .into_iter()
        .filter(|root| root.exists() && std::fs::remove_dir_all(root).is_ok())
        .map(|root| format!("`{}`", root.display()))
        .collect();
    crate::outdir::earlier_line(KILLED, stopped, "run", removed_temporary(&removed))
}

/// How [`stop_the_killed_study`]'s line ([`crate::outdir::earlier_line`]) opens.
const KILLED: &str = "study: an earlier study into this directory was killed before it ended";

/// What [`stop_the_killed_study`] says of the temporary directories it removed, when
/// it removed any.
fn removed_temporary(removed: &[String]) -> Option<String> {
    let those = match removed.len() {
        0 => return None,
        1 => "its temporary directory",
        _ => "its temporary directories",
    };
    Some(format!("removed {those} {}", removed.join(", ")))
}

/// The line a study starts with: its matrix, its seed, and how many runs it makes.
fn starting_line(study: &Study, seed: u64, pending: usize, done: usize) -> String {
    format!(
        "study: {} × {} × {}, seed {seed}; {pending} to run, {done} recorded",
        crate::words::plural(study.conditions.len(), "condition"),
        crate::words::plural(study.tasks.len(), "task"),
        crate::words::plural(study.repeats as usize, "repeat"),
    )
}

/// Each condition the `pending` runs need, prepared in `live`'s directory, then `meta`
/// saved: the study can start.
fn prepare(
    study: &Study,
    out: &Path,
    live: &live::Live,
    pending: &VecDeque<Planned>,
    meta: &Meta,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Vec<Option<prepare::Ready>>> {
    // Made whole before a stop cleans up, or not at all. (Its error is never said:
    // `run` waits for the signal's thread to end mur-eval.)
    let Some(_changing) = live.changing() else {
        return Err(Error::internal("stopped by a signal"));
    };
    // Recorded before the conditions are prepared (verbs compiled, tools listed, which
    // take a while): a stop meanwhile says to resume the study, and the resume then
    // finds it, with its seed. A study that failed there (no verbs installed) has its
    // record put back as it was: it pins no seed, and the corrected command may name
    // its own.
    let path = out.join(META);
    let before = std::fs::read(&path).ok();
    meta.save(out)?;
    let ready = prepare::prepare_conditions(study, out, live.root(), pending, progress);
    if ready.is_err() && !crate::stop::signalled() {
        let _ = match &before {
            Some(text) => crate::write::record(&path, text),
            None => std::fs::remove_file(&path).map_err(|e| Error::internal(e.to_string())),
        };
    }
    ready
}

/// How a stop tells the user to resume the study in `out`: the same command again, when
/// it named its `--out`; else that command with `--out` added, which the same command
/// without it (a new directory, named by the time, and a fresh seed) would not do. No
/// `--seed`: the study's is kept in `study.json`, written before the line can be said
/// (before the conditions are prepared, [`prepare`]), so the resume finds the study.
fn resume_line(study: &Study, out: &Path) -> String {
    let dir = out.to_string_lossy();
    if study.made_out.is_none() {
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
fn claim(out: &Path) -> Result<std::fs::File> {
    crate::outdir::hold(
        out,
        LOCK,
        "another study",
        "wait for it to end, then run this command again to add what it lacks",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the next command says of a killed study's leftovers: one line, or nothing
    /// when there were none.
    #[test]
    fn what_a_killed_study_left_is_said_in_one_line() {
        let killed_line = |stopped, removed: &[String]| {
            crate::outdir::earlier_line(KILLED, stopped, "run", removed_temporary(removed))
        };
        assert_eq!(killed_line(0, &[]), None);
        let one = ["`/tmp/mur-eval-study-x`".to_owned()];
        assert_eq!(
            killed_line(0, &one).as_deref(),
            Some(
                "study: an earlier study into this directory was killed before it ended: \
                 removed its temporary directory `/tmp/mur-eval-study-x`"
            )
        );
        let two = [one[0].clone(), "`/tmp/mur-eval-study-y`".to_owned()];
        assert_eq!(
            killed_line(2, &two).as_deref(),
            Some(
                "study: an earlier study into this directory was killed before it ended: \
                 stopped what it left running in 2 runs (agents, sessions); removed its \
                 temporary directories `/tmp/mur-eval-study-x`, `/tmp/mur-eval-study-y`"
            )
        );
    }

    /// What `--out` records is read once, before the study holds it, and read again
    /// under its lock only when a study wrote there since: a run it recorded meanwhile
    /// is not made again.
    #[test]
    fn what_a_study_recorded_is_read_again_only_when_it_changed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut study = plan::testing::study(&["count-to-three"]);
        study.out = dir.path().to_owned();
        study.seed = Some(5);
        let results = dir.path().join(RESULTS);
        let run = |repeat: u32| {
            let made = result::RunResult::unmade(
                format!("both/count-to-three/{repeat}"),
                "both".to_owned(),
                crate::profile::Profile::Both,
                "count-to-three".to_owned(),
                repeat,
                "t".into(),
            );
            serde_json::to_string(&made).expect("json") + "\n"
        };
        // As a file stands after a write at `when`.
        let write = |text: &str| {
            std::fs::write(&results, text).expect("write");
            let when = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(9);
            let file = std::fs::File::options()
                .write(true)
                .open(&results)
                .expect("open");
            file.set_modified(when).expect("mtime");
        };
        let ids = |recorded: &Recorded| -> Vec<String> {
            recorded.made.iter().map(|r| r.id.clone()).collect()
        };
        write(&run(1));
        let recorded = Recorded::read(&study, dir.path()).expect("read");
        assert_eq!(ids(&recorded), ["both/count-to-three/1"]);
        assert_eq!(recorded.pending.len(), 2);
        // What nothing changed is not read again (this text, the same size and time,
        // would be read otherwise).
        write(&run(2));
        let recorded = recorded
            .under_the_lock(&study, dir.path())
            .expect("unchanged");
        assert_eq!(ids(&recorded), ["both/count-to-three/1"]);
        // A study that recorded its runs since: read again (nothing is left to make, so
        // no verbs are looked for).
        write(&(run(2) + &run(3) + &run(1)));
        let recorded = recorded
            .under_the_lock(&study, dir.path())
            .expect("changed");
        assert_eq!(
            ids(&recorded),
            [
                "both/count-to-three/2",
                "both/count-to-three/3",
                "both/count-to-three/1"
            ]
        );
        assert!(recorded.pending.is_empty());
    }
}
