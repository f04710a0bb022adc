//! A project's slot: an advisory lock on `<hash>.lock` beside `<hash>.json`.
//!
//! A session holds its slot's lock from before it looks at the lockfile until
//! after it has removed it, so two sessions starting at the same instant
//! cannot both win, and a reader that removes a stale lockfile does so under
//! the same lock, so it can never delete the file of a session that started
//! in between. The kernel drops the lock when its holder dies, however it dies:
//! a lock file left behind means nothing and is never a reason to refuse.
//!
//! Lock files are never removed: unlinking a lock file another process has
//! open would let a third process lock a fresh file of the same name while the
//! second still locks the old one. They are empty and one per project.

use std::{
    fs::{self, File, TryLockError},
    io,
    path::{Path, PathBuf},
};

use crate::{open, trust};

/// The lock on one project's slot, released when dropped (or when the
/// process ends).
#[derive(Debug)]
pub struct SlotLock {
    _file: File,
    path: PathBuf,
}

impl SlotLock {
    /// Takes the lock on the slot of `lockfile` if no other process holds it.
    /// `Ok(None)`: another process holds it right now.
    pub fn try_acquire(lockfile: &Path) -> io::Result<Option<Self>> {
        let path = lock_path(lockfile);
        let file = open_lock_file(&path)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(Self { _file: file, path })),
            Err(TryLockError::WouldBlock) => Ok(None),
            Err(TryLockError::Error(err)) => Err(err),
        }
    }

    /// The lock file's path, `<hash>.lock`.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// `<hash>.lock` for `<hash>.json`.
pub fn lock_path(lockfile: &Path) -> PathBuf {
    lockfile.with_extension("lock")
}

/// Creates or opens the lock file: never through a symlink, never blocking,
/// owner-only, and refused unless it is a regular file of ours.
fn open_lock_file(path: &Path) -> io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    let file = open::guarded(&mut options, path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other(format!(
            "slot lock `{}` is not a regular file",
            path.display()
        )));
    }
    trust::check_metadata(&meta, path, "slot lock").map_err(io::Error::other)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_slot_cannot_be_taken_until_released() {
        let dir = tempfile::tempdir().expect("tempdir");
        let lockfile = dir.path().join("0123456789abcdef.json");
        let first = SlotLock::try_acquire(&lockfile)
            .expect("lock")
            .expect("free slot");
        assert_eq!(first.path(), dir.path().join("0123456789abcdef.lock"));
        assert!(
            SlotLock::try_acquire(&lockfile).expect("lock").is_none(),
            "a second holder"
        );
        drop(first);
        assert!(SlotLock::try_acquire(&lockfile).expect("lock").is_some());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_the_lock_file_is_refused_without_blocking() {
        let dir = tempfile::tempdir().expect("tempdir");
        let lockfile = dir.path().join("0123456789abcdef.json");
        let status = std::process::Command::new("mkfifo")
            .arg(lock_path(&lockfile))
            .status()
            .expect("mkfifo");
        assert!(status.success());
        let err = SlotLock::try_acquire(&lockfile).expect_err("a fifo");
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }
}
