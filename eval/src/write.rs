//! How mur-eval writes a file: a page the user names (`--html`, `--readme`) as mur
//! writes one, and its own records and reports (`study.json`, a run's `record.json`,
//! `report.md`) and the files it keeps in the agent's reach (`agent.group`) whole or not
//! at all — all through mur-lockfile's writers, the project's one place for them.

use std::path::Path;
use std::time::Duration;

use mur_core::{Error, Result};

/// How long a page waits for a FIFO's reader that opened it and takes nothing: mur's
/// own `--timeout` default, which bounds `mur devtools usage report --html` the same way.
const PAGE_PATIENCE: Duration = Duration::from_secs(10);

/// Writes the page a user named with `--html` as mur writes one: whole or not at all
/// for a file, a FIFO no one reads refused at once (a plain write waited for a reader
/// for ever), a terminal refused ([`mur_lockfile::write_named`]).
pub fn page(path: &Path, text: &str) -> Result<()> {
    mur_lockfile::write_named(path, text.as_bytes(), PAGE_PATIENCE).map_err(|e| unwritten(path, &e))
}

/// Writes a record of mur-eval's own (`study.json`, a run's `record.json`) or a report
/// (`report.md`, `report.csv`, `transcripts.md`, a run's `trace.md`) so that a reader
/// finds the old one or the new, never a part: rewritten on every resume, a truncating
/// write on a full disk lost the study's seed and matrix, and a study killed mid-write
/// left a torn report. Not through
/// `write_atomic`, whose files are private (0600) as mur's state is: a study is made to
/// be published, so a new record gets the user's umask and a rewritten one keeps its bits.
pub fn record(path: &Path, bytes: &[u8]) -> Result<()> {
    mur_lockfile::write_named(path, bytes, PAGE_PATIENCE).map_err(|e| unwritten(path, &e))
}

/// Writes a file of mur-eval's own in a directory the agent can reach (a task's
/// `agent.group`, `session.group`) whole or not at all, put in place by a rename over
/// whatever the name holds: a link or a FIFO an agent left there is replaced, never
/// written through (a plain write truncated the link's target, and waited for ever on
/// a FIFO no one read). Private (0600, [`mur_lockfile::write_atomic`]): only mur-eval
/// reads it, to stop what a killed study left running.
pub fn own(path: &Path, bytes: &[u8]) -> Result<()> {
    mur_lockfile::write_atomic(path, bytes).map_err(|e| unwritten(path, &e))
}

/// The error of a file that could not be written, naming it (mur's words).
pub fn unwritten(path: &Path, e: &std::io::Error) -> Error {
    Error::internal(format!("cannot write `{}`: {e}", path.display()))
}
