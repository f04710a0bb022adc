//! Seed 000 §6: at most one devtools session per project.
//!
//! The slot is claimed atomically with an advisory lock ([`SlotLock`]) held
//! for the session's whole life, so of two sessions started at the same
//! instant exactly one wins. Only the holder looks at the lockfile left in the
//! slot: a live owner — or one whose process runs but does not answer (a
//! breakpoint) — refuses us with exit 3; a stale, broken or foreign file is
//! cleared.

use std::{path::Path, time::Duration};

use mur_lockfile::{
    Lockfile, ReadOutcome, Registry, SlotLock,
    liveness::{self, Liveness},
};

use crate::error::ServeError;

/// How long a start waits for a slot another process holds without having
/// announced a session yet (it is starting, or a reader is removing a stale
/// file): far longer than either takes.
pub const SLOT_WAIT: Duration = Duration::from_secs(5);
const SLOT_POLL: Duration = Duration::from_millis(20);

/// A claimed slot: its lock, and whether the process that started this one handed
/// it over ([`SlotLock::inherited`]) instead of this one taking it.
pub(crate) struct Slot {
    pub(crate) lock: SlotLock,
    /// Handed over: this process is a reload's successor, and may take what else its
    /// predecessor handed it (the listening socket), or a bridge its background
    /// command started ([`Claimed::hand_to`](crate::endpoint::Claimed::hand_to)).
    pub(crate) handed: bool,
}

/// Claims the slot at `path`: `Err(AlreadyActive)` if a session holds it,
/// otherwise the lock, with whatever stale file was there removed.
pub(crate) async fn claim_slot(registry: &Registry, path: &Path) -> Result<Slot, ServeError> {
    // Handed over (a reload's successor, a background bridge): held throughout.
    if let Some(lock) = SlotLock::inherited(path) {
        judge_leftover(registry, path).await?;
        return Ok(Slot { lock, handed: true });
    }
    let deadline = tokio::time::Instant::now() + SLOT_WAIT;
    loop {
        let slot = SlotLock::try_acquire(path).map_err(ServeError::io(format!(
            "cannot lock the project's slot `{}`",
            mur_lockfile::lock_path(path).display()
        )))?;
        match slot {
            Some(lock) => {
                judge_leftover(registry, path).await?;
                return Ok(Slot {
                    lock,
                    handed: false,
                });
            }
            None => {
                // Held: by a session, or for an instant by a starting one or a reader.
                if let ReadOutcome::Valid(lock) = registry.read(path)
                    && holds_slot(&lock).await
                {
                    return Err(already_active(lock));
                }
            }
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(ServeError::SlotBusy {
                lock: mur_lockfile::lock_path(path),
            });
        }
        tokio::time::sleep(SLOT_POLL).await;
    }
}

/// We hold the lock; a lockfile still in the slot was left by a session that
/// is gone, or written by a process that does not take the lock.
async fn judge_leftover(registry: &Registry, path: &Path) -> Result<(), ServeError> {
    match registry.read(path) {
        ReadOutcome::Gone => Ok(()),
        ReadOutcome::Valid(lock) if lock.pid == std::process::id() => {
            // Our own pid in the file can only be a leftover (pids are reused).
            clear(registry, path, "written by an earlier process with our pid")
        }
        ReadOutcome::Valid(lock) => match check(&lock).await {
            Liveness::Live | Liveness::Unresponsive(_) => Err(already_active(lock)),
            Liveness::Stale(why) | Liveness::NotDevtools(why) => clear(registry, path, &why),
        },
        ReadOutcome::Malformed(reason) => clear(registry, path, &reason),
        ReadOutcome::UnknownSchema(schema) => {
            clear(registry, path, &format!("unknown schema `{schema}`"))
        }
        ReadOutcome::Untrusted(reason) => Err(ServeError::Registry(reason)),
    }
}

/// A session holds the slot when its process is the lockfile's and runs,
/// whether or not it answers right now: a session stopped at a breakpoint
/// is still the project's session, and taking its slot over would leave two.
async fn holds_slot(lock: &Lockfile) -> bool {
    lock.pid != std::process::id()
        && matches!(
            check(lock).await,
            Liveness::Live | Liveness::Unresponsive(_)
        )
}

async fn check(lock: &Lockfile) -> Liveness {
    liveness::check(&mur_http::Http::new(), lock).await
}

fn already_active(lock: Lockfile) -> ServeError {
    ServeError::AlreadyActive {
        endpoint: lock.endpoint,
        pid: lock.pid,
    }
}

fn clear(registry: &Registry, path: &Path, why: &str) -> Result<(), ServeError> {
    tracing::info!("removing stale lockfile `{}` ({why})", path.display());
    registry.remove(path).map_err(ServeError::io(format!(
        "cannot remove stale lockfile `{}`",
        path.display()
    )))
}
