//! Where a study makes its runs while they run, and what names it: the temporary
//! directory `<out>/live-root` names, and each run begun and not yet recorded (its
//! directory in `out`, holding its `live` marker until its files are moved in). All of
//! it is removed when the study ends, and when a signal stops it (SIGINT, SIGTERM,
//! SIGHUP; [`crate::stop`]): an `--out` copied or published after a Ctrl-C names no
//! directory that is gone, and nothing is left under `$TMPDIR`. What finished and was
//! recorded is left as it is.
//!
//! A stop cleans up between the study's changes to these files, never during one: each
//! is made under [`Live::changing`], which refuses once a signal came, so that nothing is
//! made again after the cleanup and no run the stop cut short is recorded.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use mur_core::{Error, Result};

use super::files::LIVE_ROOT;

/// How the temporary directory a study makes its runs in is named.
pub const LIVE_ROOT_PREFIX: &str = "mur-eval-study-";

/// How many times a directory is removed while something may still be writing in it (a
/// session stopping, a run's thread not yet told): each try removes what was there.
const REMOVE_TRIES: usize = 5;

/// The study's temporary directory and the runs begun in `out` and not yet recorded.
pub struct Live {
    out: PathBuf,
    root: PathBuf,
    /// What a stop says to run to resume the study.
    resume: String,
    /// Each run's directory in `out`, from when it is made until its result is recorded.
    /// Its lock is held by whatever makes the study's files, and by a stop's cleanup.
    begun: Mutex<BTreeSet<PathBuf>>,
}

/// The study's [`Live`], cleaned up when dropped or when a signal stops the study.
pub struct Held(Arc<Live>);

impl Live {
    /// Makes the study's temporary directory, named in `<out>/live-root` when `named` (a
    /// study with runs to make), and registers its cleanup with [`crate::stop`], which
    /// says `resume` once done.
    pub fn make(out: &Path, named: bool, resume: String) -> Result<Held> {
        let root = tempfile::Builder::new()
            .prefix(LIVE_ROOT_PREFIX)
            .tempdir()
            .map_err(|e| Error::internal(format!("cannot make a temporary directory: {e}")))?
            .keep();
        let live = Arc::new(Self {
            out: out.to_owned(),
            root,
            resume,
            begun: Mutex::new(BTreeSet::new()),
        });
        // Held from here: a failure below removes the directory.
        let held = Held(Arc::clone(&live));
        if named {
            crate::write::record(&out.join(LIVE_ROOT), live.root.to_string_lossy().as_bytes())?;
        }
        crate::stop::on_stop(Some(Box::new(move || live.stopped())));
        Ok(held)
    }

    /// The temporary directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The right to change the study's files, with the runs begun; `None` once a signal
    /// is stopping the study, whose cleanup then has them (or had them already).
    pub fn changing(&self) -> Option<MutexGuard<'_, BTreeSet<PathBuf>>> {
        let begun = self.begun.lock().unwrap_or_else(PoisonError::into_inner);
        (!crate::stop::signalled()).then_some(begun)
    }

    /// The cleanup a signal does, once the agents and sessions are stopped; what it adds
    /// to the line said on stderr.
    fn stopped(&self) -> String {
        self.clean();
        format!("; {}", mur_core::text::escape_controls(&self.resume))
    }

    /// Removes the directories of the runs begun and not recorded (and the directories
    /// above them left empty, up to `out`), then the temporary directory and, once it is
    /// gone, `live-root`: kept while it is not, it lets the next command remove it.
    fn clean(&self) {
        let mut begun = self.begun.lock().unwrap_or_else(PoisonError::into_inner);
        for dir in std::mem::take(&mut *begun) {
            remove_all(&dir);
            for parent in dir.ancestors().skip(1) {
                if parent == self.out || std::fs::remove_dir(parent).is_err() {
                    break;
                }
            }
        }
        if remove_all(&self.root) {
            let _ = std::fs::remove_file(self.out.join(LIVE_ROOT));
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        // Cleaned up before the signals' cleanup is dropped: one that comes meanwhile
        // still finishes it.
        self.0.clean();
        crate::stop::on_stop(None);
    }
}

impl std::ops::Deref for Held {
    type Target = Live;
    fn deref(&self) -> &Live {
        &self.0
    }
}

/// Removes `dir` and all it holds; whether it is gone.
fn remove_all(dir: &Path) -> bool {
    (0..REMOVE_TRIES).any(|_| match std::fs::remove_dir_all(dir) {
        Ok(()) => true,
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    })
}

/// Once a signal is stopping the study, waits for the signal's thread to end mur-eval
/// (it exits 128 + the signal), so that nothing more is written or said: a study
/// stopped while it was preparing, or whose runs all returned, reports nothing.
pub fn wait_if_stopped() {
    while crate::stop::signalled() {
        std::thread::park();
    }
}
