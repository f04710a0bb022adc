//! The lockfile as a guard: written once the session is reachable, removed when
//! the guard is released or dropped (clean exit, signal, reload, even a panic),
//! and the project's slot lock held until then.

use std::path::PathBuf;

use mur_lockfile::{Lockfile, ReadOutcome, Registry, SlotLock};

use crate::error::ServeError;

/// Owns this session's lockfile for as long as it lives.
pub(crate) struct Announcement {
    registry: Registry,
    path: PathBuf,
    pid: u32,
    released: bool,
    /// Released after the lockfile is removed (fields drop after `drop` runs), or
    /// taken to hand to a reload's successor ([`Announcement::withdraw_for_reload`]).
    slot: Option<SlotLock>,
}

impl Announcement {
    /// Atomically writes `lock`; readers that see the file can connect at once.
    pub(crate) fn publish(
        registry: Registry,
        slot: SlotLock,
        lock: &Lockfile,
    ) -> Result<Self, ServeError> {
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
            slot: Some(slot),
        })
    }

    /// Removes the lockfile now.
    pub(crate) fn withdraw(mut self) {
        self.remove_if_ours();
    }

    /// Removes the lockfile and keeps the slot locked, for the successor to take
    /// over: the project never looks as if no session were on its way.
    pub(crate) fn withdraw_for_reload(mut self) -> Option<SlotLock> {
        self.remove_if_ours();
        self.slot.take()
    }

    fn remove_if_ours(&mut self) {
        if std::mem::replace(&mut self.released, true) {
            return;
        }
        // Only remove a file that still names us (we hold the slot, so nobody
        // else should have written it; a writer that ignores the lock might).
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
