//! The lockfile as a guard: written once the session is reachable, removed when
//! the guard is released or dropped (clean exit, signal, reload, even a panic).

use std::path::PathBuf;

use mur_lockfile::{Lockfile, ReadOutcome, Registry};

use crate::ServeError;

/// Owns this session's lockfile for as long as it lives.
pub(crate) struct Announcement {
    registry: Registry,
    path: PathBuf,
    pid: u32,
    released: bool,
}

impl Announcement {
    /// Atomically writes `lock`; readers that see the file can connect at once.
    pub(crate) fn publish(registry: Registry, lock: &Lockfile) -> Result<Self, ServeError> {
        let path = registry
            .write(lock)
            .map_err(ServeError::io("cannot write the session lockfile"))?;
        tracing::info!(
            "session for `{}` announced at {} ({})",
            lock.project,
            lock.endpoint,
            path.display()
        );
        Ok(Self {
            registry,
            path,
            pid: lock.pid,
            released: false,
        })
    }

    /// Removes the lockfile now.
    pub(crate) fn withdraw(mut self) {
        self.remove_if_ours();
    }

    fn remove_if_ours(&mut self) {
        if std::mem::replace(&mut self.released, true) {
            return;
        }
        // Only remove a file that still names us: after a long stall another
        // session may have judged us stale and taken the slot.
        let still_ours = matches!(self.registry.read(&self.path), ReadOutcome::Valid(lock) if lock.pid == self.pid);
        if still_ours && let Err(error) = self.registry.remove(&self.path) {
            tracing::warn!("cannot remove lockfile `{}`: {error}", self.path.display());
        }
    }
}

impl Drop for Announcement {
    fn drop(&mut self) {
        self.remove_if_ours();
    }
}
