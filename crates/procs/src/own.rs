//! The children of this process whose exit status a `Child` is owed ([`spawn`],
//! [`Spawned`]): listed from before their `fork` until their `Child` has reaped them, and
//! never waited for by mur-procs, which reaps what it adopted as a subreaper
//! ([`crate::reap_adopted`]) without taking a status a `Child` waits for.
//!
//! Why a list: the kernel does not tell a zombie child this process spawned from one it
//! adopted (a process whose parent exited, reparented to this subreaper) — `/proc` gives
//! a process's parent, this process either way, never its first one. So a child whose
//! status is a `Child`'s is named here. Why one lock, held across a spawn and its entry
//! and across each reaping's look at `/proc` and its `waitpid`s ([`lock`]): a child that
//! exits at once (`true`) is never seen unlisted between its `fork` and its entry, and a
//! pid read as no `Child`'s cannot become one's (reaped elsewhere, given to a new child)
//! before it is waited for. A pid is listed once per spawn (a multiset): a `Child` that
//! has reaped its process but not yet said so may share the pid with a child spawned
//! since, and its removal takes one entry, not the newer child's.
//!
//! A child that is not listed is still left alone when it is in this process's own
//! process group ([`crate::reap_adopted`]): every `Command` spawned as std makes it, whose
//! `output()` or `status()` no caller can list. So only a spawn that puts its child in a
//! group or session of its own (`process_group`, `setsid`) needs [`spawn`].

use std::io;
use std::ops::{Deref, DerefMut};
use std::process::{Child, Command, ExitStatus};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The pids listed, one entry per spawn not yet reaped by its `Child`.
static OWNED: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// The list, held: while it is, nothing is spawned through [`spawn`] and no other
/// reaping of mur-procs runs. Never poisoned for good: nothing panics under it, and a
/// list is valid whatever it holds.
pub(crate) fn lock() -> MutexGuard<'static, Vec<i32>> {
    OWNED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Spawns `command` with its pid listed, under the lock, as a child whose status its
/// `Child` is owed: mur-procs never waits for it until the [`Spawned`] has reaped it (or
/// is dropped). For a child put in a group or session of its own; one left in this
/// process's group needs no listing.
pub fn spawn(command: &mut Command) -> io::Result<Spawned> {
    let mut owned = lock();
    let child = command.spawn()?;
    // A pid always fits: the kernel's are positive `pid_t`s.
    let listed = i32::try_from(child.id()).ok();
    if let Some(pid) = listed {
        owned.push(pid);
    }
    Ok(Spawned { child, listed })
}

/// A `Child` spawned through [`spawn`], listed until it is reaped through this type's own
/// [`Spawned::wait`] or [`Spawned::try_wait`] (which shadow `Child`'s; its pipes, pid and
/// `kill` are `Child`'s), or dropped: a child dropped unreaped is no `Child`'s any more, and
/// its zombie is reaped as adopted ([`crate::reap_adopted`]).
#[derive(Debug)]
pub struct Spawned {
    child: Child,
    /// Its pid while listed.
    listed: Option<i32>,
}

impl Spawned {
    /// `Child::try_wait`, the pid taken off the list once it has been reaped.
    pub fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        let status = self.child.try_wait()?;
        if status.is_some() {
            self.unlist();
        }
        Ok(status)
    }

    /// `Child::wait`, the pid taken off the list once it has been reaped. Not under the
    /// lock: the wait may be long, and the lock is for looks at `/proc` and spawns.
    pub fn wait(&mut self) -> io::Result<ExitStatus> {
        let status = self.child.wait()?;
        self.unlist();
        Ok(status)
    }

    /// Takes one entry of its pid off the list (once).
    fn unlist(&mut self) {
        if let Some(pid) = self.listed.take() {
            let mut owned = lock();
            if let Some(at) = owned.iter().position(|&p| p == pid) {
                owned.swap_remove(at);
            }
        }
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        self.unlist();
    }
}

impl Deref for Spawned {
    type Target = Child;

    fn deref(&self) -> &Child {
        &self.child
    }
}

impl DerefMut for Spawned {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.child
    }
}

/// Whether `pid` is listed now (for tests).
#[cfg(test)]
pub(crate) fn listed(pid: i32) -> bool {
    lock().contains(&pid)
}
