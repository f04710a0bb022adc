//! The output directory of `mur-eval run`: a new or empty directory, or one an earlier
//! run that never finished (killed, stopped: no `report.json`) wrote. One holding a
//! finished run is refused, as a study's holding another's files is: a run cannot add
//! to it (a study can, and resumes), and replacing it would lose the operator that run.
//! An unfinished run's is cleared, before anything is written, of what that run
//! wrote there — the entries its `mur-eval-run.json` lists (each task's directory, with
//! what its agent left in `work/`, `report.json`) — so a run's figures come from that
//! run alone; anything else in the directory is left as it was, the verbs installed and
//! compiled for the runs (`compiled-verbs`) among it.
//! A directory that holds anything but no earlier run is refused: mur-eval never
//! deletes what it did not write.
//!
//! An earlier run killed mid-task (kill -9, a crash) left its agent and session
//! running, with that task's directory as their home: they are stopped first, through
//! the process groups the directory records (as a resumed study does), or the orphaned
//! agent would go on driving the new run's session there. And a run holds
//! `mur-eval-run.lock` while it runs: a second run into the same directory is refused
//! instead of removing the first one's live tasks.

use std::path::Path;

use mur_core::{Error, Result};
use serde::{Deserialize, Serialize};

use crate::task::Task;

/// The record of what a run wrote, in its output directory.
pub const FILE: &str = "mur-eval-run.json";

/// The lock file a running run holds in its output directory.
pub const LOCK: &str = "mur-eval-run.lock";

/// Its `schema`.
const SCHEMA: &str = "mur-eval-run-out/1";

/// What a run writes at the top of its output directory besides its tasks' directories
/// and this record: the agent's `mur` (`bin`) and the report. Not the verbs installed
/// for the agent (`compiled-verbs`, [`crate::compiled`]): kept for the next run into the
/// directory, which then compiles nothing again.
const SHARED: [&str; 2] = ["bin", REPORT];

/// The report a run writes once every task has run: a directory holding it holds a
/// finished run, which a run refuses to replace.
pub const REPORT: &str = "report.json";

/// The record: the entries of the output directory the run wrote (each one name).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Wrote {
    schema: String,
    wrote: Vec<String>,
}

/// Makes `out` ready for a run of `tasks`: created when missing; when an earlier run
/// wrote it, its agents and sessions stopped (`sample` is the `mur-sample` they run) and
/// it cleared of what that run wrote; refused (a usage error) when it holds anything
/// else and no earlier run, or when another run holds it. Then records what this run
/// will write, before it writes anything, so that a run cut short is cleared all the
/// same. The lock returned is held until the run ends; `progress` hears, in one line,
/// what an earlier run that never finished left that was stopped and removed, when
/// anything was: the operator learns that it died.
pub fn claim(
    out: &Path,
    tasks: &[Task],
    sample: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<std::fs::File> {
    // Checked before anything is written: a directory no run wrote is left untouched.
    earlier(out)?;
    crate::tree::create_dir(out)?;
    let lock = lock(out)?;
    // Again under the lock: another run may have written it in the meantime.
    if let Some(wrote) = earlier(out)? {
        let (mut stopped, mut removed) = (0, Vec::new());
        for name in wrote.iter().filter(|name| is_one_name(name)) {
            let path = out.join(name);
            if path.is_dir() {
                stopped += usize::from(stop_left_running(&path, sample));
            }
            if remove(&path)? {
                removed.push(format!("`{name}`"));
            }
        }
        let removed =
            (!removed.is_empty()).then(|| format!("removed what it wrote: {}", removed.join(", ")));
        if let Some(line) = earlier_line(UNFINISHED, stopped, "task", removed) {
            progress(&line);
        }
    }
    let wrote = Wrote {
        schema: SCHEMA.to_owned(),
        wrote: SHARED
            .iter()
            .map(|s| (*s).to_owned())
            .chain(tasks.iter().map(|t| t.id.clone()))
            .collect(),
    };
    let text = serde_json::to_string_pretty(&wrote)
        .map_err(|e| Error::internal(format!("cannot serialize `{FILE}`: {e}")))?;
    let path = out.join(FILE);
    crate::write::record(&path, (text + "\n").as_bytes())?;
    Ok(lock)
}

/// How [`claim`]'s line ([`earlier_line`]) opens: an earlier run into `--out` that
/// never finished.
const UNFINISHED: &str =
    "an earlier run into this directory never finished (killed, stopped or failed)";

/// What a run or a study says of the earlier one into its directory that did not end:
/// `earlier` (that it did not, a run's words or a study's), then in how many of its
/// `unit`s (`task`, `run`) it stopped what that one left running, and `removed` (what
/// it removed, in the caller's words); `None` when it did neither.
pub fn earlier_line(
    earlier: &str,
    stopped: usize,
    unit: &str,
    removed: Option<String>,
) -> Option<String> {
    let mut did = Vec::new();
    if stopped > 0 {
        did.push(format!(
            "stopped what it left running in {} (agents, sessions)",
            crate::words::plural(stopped, unit)
        ));
    }
    did.extend(removed);
    (!did.is_empty()).then(|| format!("{earlier}: {}", did.join("; ")))
}

/// Stops what a run killed mid-task left running in the task's directory `dir`: its
/// agent's process group and its session (a resumed study's runs too). Only the groups
/// the directory records, while their leaders are those recorded (or gone). Whether
/// anything was left running to stop.
pub fn stop_left_running(dir: &Path, sample: &Path) -> bool {
    let agent = crate::group::Group::stop_recorded(&dir.join(crate::group::FILE));
    crate::session::stop_leftovers(sample, dir) || agent
}

/// The run's lock file ([`LOCK`]), locked; a usage error when another run holds it.
fn lock(out: &Path) -> Result<std::fs::File> {
    hold(
        out,
        LOCK,
        "another run",
        "wait for it to end, or name another directory with `--out`",
    )
}

/// The lock file `name` in `out`, locked for as long as the file is kept; a usage error
/// naming `holder` (`another run`) and `hint` when another process holds it. A run and
/// a study each hold their own (`mur-eval-run.lock`, `study.lock`).
pub fn hold(out: &Path, name: &str, holder: &str, hint: &str) -> Result<std::fs::File> {
    let path = out.join(name);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| Error::internal(format!("cannot open `{}`: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(Error::usage(format!(
            "`{}` is in use by {holder} (it holds `{name}`)",
            out.display()
        ))
        .with_hint(hint)),
        Err(std::fs::TryLockError::Error(e)) => Err(Error::internal(format!(
            "cannot lock `{}`: {e}",
            path.display()
        ))),
    }
}

/// What an earlier run wrote in `out` (`None`: `out` is missing or empty, nothing to
/// clear); a usage error when `out` holds something but no earlier run.
fn earlier(out: &Path) -> Result<Option<Vec<String>>> {
    let entries = match std::fs::read_dir(out) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Error::usage(format!(
                "cannot read the output directory `{}`: {e}",
                out.display()
            )));
        }
    };
    // The lock alone is what a run left that died before it recorded anything.
    if entries.flatten().all(|entry| entry.file_name() == LOCK) {
        return Ok(None);
    }
    // Opened without waiting: a FIFO by the record's name is no record, said at once.
    if let Some(record) = crate::bounded::text(&out.join(FILE), crate::bounded::FILE_CAP)
        .ok()
        .and_then(|text| serde_json::from_str::<Wrote>(&text).ok())
        .filter(|record| record.schema == SCHEMA)
    {
        // A run that finished wrote its report: its figures are no one's to lose. (One
        // killed or stopped mid-way wrote none, and left what it started running there.)
        if std::fs::symlink_metadata(out.join(REPORT)).is_ok() {
            return Err(Error::usage(format!(
                "`{}` holds an earlier run's report (`{REPORT}`): a run writes into a new or empty directory, or one whose run never finished",
                out.display()
            ))
            .with_hint(
                "name a new directory with `--out`, or remove this one to run into it again; nothing in it was touched",
            ));
        }
        return Ok(Some(record.wrote));
    }
    // An output written before runs kept their record is refused like any other
    // directory: a `report.json` alone does not prove that `bin/` or `data/` beside
    // it are a run's to remove.
    Err(Error::usage(format!(
        "`{}` is not empty and no earlier `mur-eval run` wrote it: a run writes into a new or empty directory, or an earlier run's",
        out.display()
    ))
    .with_hint("name a new directory with `--out`; nothing in this one was touched"))
}

/// One plain name — no separator, not `.` or `..` — so a record can name nothing
/// outside its directory.
fn is_one_name(name: &str) -> bool {
    let mut parts = Path::new(name).components();
    matches!(
        (parts.next(), parts.next()),
        (Some(std::path::Component::Normal(_)), None)
    )
}

/// Removes `path` (a directory with everything in it, or a file or link), if there;
/// whether it was.
fn remove(path: &Path) -> Result<bool> {
    let removed = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => Err(e),
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
    };
    removed.map(|()| true).map_err(|e| {
        Error::internal(format!(
            "cannot remove the earlier run's `{}`: {e}",
            path.display()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No session of these tests runs it.
    const SAMPLE: &str = "/nonexistent/mur-sample";

    fn task(id: &str) -> Task {
        let text = "title = \"t\"\ncategories = [\"interact\"]\nprompt = \"p\"\n\
                    [[check]]\nwhat = \"w\"\npointer = \"/a\"\nequals = 1\n";
        crate::task::parse(id, text).expect("a task")
    }

    #[test]
    fn an_earlier_runs_entries_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("out");
        claim(&out, &[task("a"), task("b")], SAMPLE.as_ref(), &mut |_| {})
            .expect("a new directory");
        for d in ["a/work", "b", "bin", crate::compiled::STORE] {
            std::fs::create_dir_all(out.join(d)).expect("dir");
        }
        std::fs::write(out.join("a/work/left.txt"), "x").expect("write");
        std::fs::write(out.join("notes.txt"), "mine").expect("write");
        std::fs::create_dir(out.join("mine")).expect("dir");

        let mut said = Vec::new();
        claim(&out, &[task("a")], SAMPLE.as_ref(), &mut |line| {
            said.push(line.to_owned());
        })
        .expect("an earlier run's directory");
        // What it removed is said, once; nothing was left running.
        assert_eq!(
            said,
            [
                "an earlier run into this directory never finished (killed, stopped or failed): \
                 removed what it wrote: `bin`, `a`, `b`"
            ]
        );
        let mut left: Vec<String> = std::fs::read_dir(&out)
            .expect("read")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        // The verbs installed for the runs are kept for this one: compiled once.
        assert_eq!(
            left,
            [
                crate::compiled::STORE,
                "mine",
                "mur-eval-run.json",
                LOCK,
                "notes.txt"
            ]
        );
        let record: Wrote =
            serde_json::from_str(&std::fs::read_to_string(out.join(FILE)).expect("record"))
                .expect("json");
        assert_eq!(record.wrote.last().map(String::as_str), Some("a"));
    }

    /// A run that finished (its `report.json` written) is not replaced: the operator
    /// would lose it. Nothing in its directory is touched.
    #[test]
    fn a_finished_runs_directory_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("out");
        drop(claim(&out, &[task("a")], SAMPLE.as_ref(), &mut |_| {}).expect("a new directory"));
        std::fs::create_dir_all(out.join("a")).expect("dir");
        std::fs::write(out.join(REPORT), "{}").expect("write");
        let error = claim(&out, &[task("a")], SAMPLE.as_ref(), &mut |_| {}).expect_err("refused");
        assert_eq!(error.exit_code(), 1);
        assert_eq!(
            error.message(),
            format!(
                "`{}` holds an earlier run's report (`report.json`): a run writes into a new \
                 or empty directory, or one whose run never finished",
                out.display()
            )
        );
        assert_eq!(
            error.hints(),
            [
                "name a new directory with `--out`, or remove this one to run into it again; \
                 nothing in it was touched"
            ]
        );
        assert!(out.join("a").is_dir() && out.join(REPORT).is_file());
    }

    /// An earlier run that left nothing to stop or remove (it died right after
    /// recording what it would write) is not said.
    #[test]
    fn an_earlier_run_that_left_nothing_is_not_said() {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("out");
        drop(claim(&out, &[task("a")], SAMPLE.as_ref(), &mut |_| {}).expect("new"));
        let mut said = Vec::new();
        claim(&out, &[task("a")], SAMPLE.as_ref(), &mut |line| {
            said.push(line.to_owned());
        })
        .expect("an earlier run's directory");
        assert_eq!(said, Vec::<String>::new());
        assert_eq!(
            earlier_line(
                UNFINISHED,
                2,
                "task",
                Some("removed what it wrote: `bin`".to_owned())
            )
            .as_deref(),
            Some(
                "an earlier run into this directory never finished (killed, stopped or failed): \
                 stopped what it left running in 2 tasks (agents, sessions); removed what \
                 it wrote: `bin`"
            )
        );
    }

    #[test]
    fn a_directory_no_run_wrote_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("notes.txt"), "mine").expect("write");
        let error =
            claim(dir.path(), &[task("a")], SAMPLE.as_ref(), &mut |_| {}).expect_err("refused");
        assert_eq!(error.exit_code(), 1);
        assert!(!dir.path().join(FILE).exists());
        // An empty one is taken.
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).expect("dir");
        claim(&empty, &[task("a")], SAMPLE.as_ref(), &mut |_| {}).expect("an empty directory");
    }

    #[test]
    fn a_directory_another_run_holds_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("out");
        let held =
            claim(&out, &[task("a")], SAMPLE.as_ref(), &mut |_| {}).expect("a new directory");
        let error = claim(&out, &[task("a")], SAMPLE.as_ref(), &mut |_| {}).expect_err("in use");
        assert_eq!(error.exit_code(), 1);
        assert_eq!(
            error.message(),
            format!(
                "`{}` is in use by another run (it holds `{LOCK}`)",
                out.display()
            )
        );
        drop(held);
        claim(&out, &[task("a")], SAMPLE.as_ref(), &mut |_| {}).expect("free again");
    }

    #[test]
    fn a_record_names_nothing_outside_its_directory() {
        for name in ["../x", "/etc", "a/b", ".", ".."] {
            assert!(!is_one_name(name), "{name}");
        }
        assert!(is_one_name("count-to-three"));
    }
}
