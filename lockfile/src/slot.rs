//! A project's slot: an advisory lock on `<hash>.lock` beside `<hash>.json`.
//!
//! A session holds its slot's lock from before it looks at the lockfile until
//! after it has removed it, so two sessions starting at the same instant
//! cannot both win, and a reader that removes a stale lockfile does so under
//! the same lock, so it can never delete the file of a session that started
//! in between. The kernel drops the lock when its holder dies, however it dies:
//! a lock file left behind means nothing and is never a reason to refuse.
//!
//! A lock file is removed only under its own lock (`session clean` removes those
//! of ended sessions). Unlinked while another process had it open, it would let
//! that process lock the old file while a third locks a fresh one of the same
//! name: so a lock counts only while its file is still the one at the path, and
//! a process that locked a file since removed lets it go and takes the one there.
//!
//! A session that reloads hands its lock to its successor ([`SlotLock::hand_to`],
//! [`SlotLock::inherited`]): the slot stays locked from the one's last moment to
//! the other's first, so a reader that finds no lockfile but a held slot knows a
//! session is on its way ([`is_held`]) and waits for it instead of saying none runs.

use std::{
    fs::{self, File, TryLockError},
    io,
    path::{Path, PathBuf},
};

#[cfg(unix)]
use crate::handed;
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
        // Each retry means the file was removed between this open and its lock: a
        // `session clean` of an ended session, which does so once.
        for _ in 0..RETRIES {
            match take(open_lock_file(&path)?, &path)? {
                Taken::Held(file) => return Ok(Some(Self { _file: file, path })),
                Taken::Busy => return Ok(None),
                Taken::Removed => {}
            }
        }
        Err(io::Error::other(format!(
            "slot lock `{}` was removed {RETRIES} times while it was being taken",
            path.display()
        )))
    }

    /// [`SlotLock::try_acquire`], for `session clean`: what is at the lock file's path
    /// when it is no lock file but may go ([`BrokenSlot::removable`]: a FIFO, a symbolic
    /// link, an empty directory, planted or left there) is removed first, and the slot
    /// taken anew. No process can hold a slot there (each refuses it), nor can a session
    /// of the project start while it is there: it is no one's.
    pub fn try_acquire_clearing(lockfile: &Path) -> io::Result<Option<Self>> {
        match Self::try_acquire(lockfile) {
            Err(err) => match BrokenSlot::of(&err) {
                Some(broken) if broken.removable => {
                    broken.remove()?;
                    Self::try_acquire(lockfile)
                }
                _ => Err(err),
            },
            taken => taken,
        }
    }

    /// The lock file's path, `<hash>.lock`.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Removes the lock's file, then releases the lock: for whoever removed the slot's
    /// lockfile under it (a stale or malformed one), so nothing of the ended session is
    /// left for `session clean`. A process that opened the file meanwhile finds it gone
    /// once it has the lock, and takes a new one ([`SlotLock::try_acquire`]).
    pub fn release_removing(self) {
        let _ = std::fs::remove_file(&self.path);
    }

    /// Hands this lock to the program `command` starts (a reload's successor, the
    /// bridge a background `bridge` starts): its
    /// descriptor is left open across that program's `exec` alone ([`handed::hand`])
    /// and named in [`HANDED_FD`], so the lock is never released in between, and
    /// nothing else this process starts holds it.
    #[cfg(unix)]
    pub fn hand_to(&self, command: &mut std::process::Command) {
        use std::os::fd::AsFd as _;
        handed::hand(command, HANDED_FD, self.as_fd());
    }

    /// The lock on `lockfile`'s slot the process that started this one handed it
    /// ([`SlotLock::hand_to`]), if it did: the descriptor named in [`HANDED_FD`], taken
    /// only when it is open on this very lock file (a stale variable, or one meant
    /// for another project, names none). It is closed on `exec` again, and the variable
    /// removed, so what this process starts later neither holds the slot nor is told of it.
    #[cfg(unix)]
    pub fn inherited(lockfile: &Path) -> Option<Self> {
        use std::os::unix::fs::MetadataExt as _;
        let path = lock_path(lockfile);
        let fd = handed::take(HANDED_FD, |fd| {
            let on_disk = fs::symlink_metadata(&path).map(|meta| (meta.dev(), meta.ino()));
            on_disk.is_ok_and(|on_disk| open_file_id(fd) == Some(on_disk))
        })?;
        let file = File::from(fd);
        // The same open file: the lock is already its own, which this confirms.
        file.try_lock().ok()?;
        Some(Self { _file: file, path })
    }
}

/// The lock's descriptor: for a process that hands it on by hand, and closes it on
/// `exec` again after an `exec` that failed ([`handed::keep`]).
#[cfg(unix)]
impl std::os::fd::AsFd for SlotLock {
    fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self._file.as_fd()
    }
}

/// How many times a lock file removed under [`SlotLock::try_acquire`] is opened again.
const RETRIES: u32 = 8;

/// What locking one open lock file came to.
#[derive(Debug)]
enum Taken {
    /// Locked, and still the file at the path: the slot is this process's.
    Held(File),
    /// Another process holds it.
    Busy,
    /// Locked, but removed (or replaced) since it was opened: the lock guards nothing.
    Removed,
}

/// Locks `file`, opened at `path`, if no one holds it, and checks that it is still
/// the file there.
fn take(file: File, path: &Path) -> io::Result<Taken> {
    match file.try_lock() {
        Ok(()) if still_at(&file, path)? => Ok(Taken::Held(file)),
        Ok(()) => Ok(Taken::Removed),
        Err(TryLockError::WouldBlock) => Ok(Taken::Busy),
        Err(TryLockError::Error(err)) => Err(err),
    }
}

/// Whether `path` names the very file `file` is open on.
#[cfg(unix)]
fn still_at(file: &File, path: &Path) -> io::Result<bool> {
    use std::os::unix::fs::MetadataExt as _;
    let open = file.metadata()?;
    match fs::symlink_metadata(path) {
        Ok(there) => Ok((open.dev(), open.ino()) == (there.dev(), there.ino())),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(err) => Err(err),
    }
}

/// Windows removes no file another process has open: the one locked is the one there.
#[cfg(not(unix))]
fn still_at(_file: &File, _path: &Path) -> io::Result<bool> {
    Ok(true)
}

/// The environment variable that names the descriptor of a handed slot lock.
const HANDED_FD: &str = "MUR_SLOT_FD";

/// Whether this process was started with a slot lock handed to it (a bridge its
/// background start spawned), as the environment says before the claim takes the
/// variable away.
pub fn is_handed() -> bool {
    std::env::var_os(HANDED_FD).is_some()
}

/// Whether another process holds the slot of `lockfile` right now: a session, one
/// starting, or a reloading session's successor not yet announced. Taking the
/// lock to find out holds it for an instant only (a session starting then waits
/// and retries, as it does for a reader clearing a stale file); a slot with no
/// lock file was never taken, and none is made to ask.
pub fn is_held(lockfile: &Path) -> bool {
    lock_path(lockfile).exists() && matches!(SlotLock::try_acquire(lockfile), Ok(None))
}

/// The device and inode `fd` is open on, if it is open.
#[cfg(unix)]
fn open_file_id(fd: std::os::fd::RawFd) -> Option<(u64, u64)> {
    let mut stat = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: fstat writes one `stat` into the buffer given; a number that is not an
    // open descriptor fails with EBADF and writes nothing.
    #[allow(unsafe_code)]
    let stat = unsafe {
        if libc::fstat(fd, stat.as_mut_ptr()) != 0 {
            return None;
        }
        stat.assume_init()
    };
    // As std's `MetadataExt::dev` does: `dev_t` is u64 on Linux, i32 on macOS (a
    // device number, compared for equality only, never negative in practice).
    #[allow(clippy::unnecessary_cast)]
    Some((stat.st_dev as u64, stat.st_ino as u64))
}

/// `<hash>.lock` for `<hash>.json`.
pub fn lock_path(lockfile: &Path) -> PathBuf {
    lockfile.with_extension("lock")
}

/// Creates or opens the lock file: never through a symlink, never blocking,
/// owner-only, and refused unless it is a regular file of ours. What is there and is
/// no regular file is said as a [`BrokenSlot`] (the error's inner error).
fn open_lock_file(path: &Path) -> io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    let broken = |err: io::Error| BrokenSlot::at(path).map_or(err, io::Error::other);
    let file = open::guarded(&mut options, path).map_err(broken)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(broken(io::Error::other(format!(
            "slot lock `{}` is not a regular file",
            path.display()
        ))));
    }
    trust::check_metadata(&meta, path, "slot lock").map_err(io::Error::other)?;
    Ok(file)
}

/// A slot lock that is none: what is at `<hash>.lock` is no regular file (a FIFO, a
/// directory, a symbolic link, dangling or not), so no process can take the slot there
/// — neither a session of the project, which cannot start, nor a reader, which cannot
/// remove the lockfile beside it. Its `Display` is the line that names the file and
/// what it is: the lockfile was blamed ("cannot remove `<hash>.json`: Is a directory").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenSlot {
    path: PathBuf,
    /// What it is ("a FIFO"), as the line says it.
    what: String,
    /// Whether it is a directory.
    dir: bool,
    /// Whether it may go: anything but a directory with something in it.
    removable: bool,
}

impl BrokenSlot {
    /// What is at `lockfile`'s slot lock path, when that is there and no regular file.
    pub fn of_lockfile(lockfile: &Path) -> Option<Self> {
        Self::at(&lock_path(lockfile))
    }

    /// The broken slot an error of taking a slot ([`SlotLock::try_acquire`]) is of.
    pub fn of(err: &io::Error) -> Option<&Self> {
        err.get_ref()?.downcast_ref()
    }

    fn at(path: &Path) -> Option<Self> {
        let meta = fs::symlink_metadata(path).ok()?;
        if meta.is_file() {
            return None;
        }
        let (what, removable) = if meta.file_type().is_symlink() {
            let target = fs::read_link(path).unwrap_or_default();
            let target = target.display();
            match fs::metadata(path) {
                Ok(_) => (format!("a symbolic link (to `{target}`)"), true),
                Err(_) => (
                    format!("a symbolic link (to `{target}`, which is not there)"),
                    true,
                ),
            }
        } else if meta.is_dir() {
            match open::is_empty_dir(path) {
                true => ("an empty directory".to_owned(), true),
                false => ("a directory with files in it".to_owned(), false),
            }
        } else {
            (open::describe_type(&meta).to_owned(), true)
        };
        Some(Self {
            path: path.to_owned(),
            what,
            dir: meta.is_dir(),
            removable,
        })
    }

    /// The lock file's path, `<hash>.lock`.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether `session clean` may remove it ([`SlotLock::try_acquire_clearing`]):
    /// anything but a directory with something in it, which mur never removes.
    pub fn removable(&self) -> bool {
        self.removable
    }

    /// Removes it (a link itself, never what it names; a directory only when empty).
    /// Only what is no lock file is removed: a regular file there since (a session
    /// took the slot meanwhile) is left.
    fn remove(&self) -> io::Result<()> {
        let removed = match Self::at(&self.path) {
            None => return Ok(()),
            Some(now) if now.dir => fs::remove_dir(&self.path),
            Some(_) => fs::remove_file(&self.path),
        };
        match removed {
            Err(err) if err.kind() != io::ErrorKind::NotFound => Err(io::Error::other(format!(
                "{self}, and cannot be removed: {err}"
            ))),
            _ => Ok(()),
        }
    }
}

impl std::fmt::Display for BrokenSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "slot lock `{}` is {}, not a regular file",
            self.path.display(),
            self.what
        )
    }
}

impl std::error::Error for BrokenSlot {}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new directory, and the path of a lockfile in it (not made).
    fn a_lockfile() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("tempdir");
        let lockfile = dir.path().join("0123456789abcdef.json");
        (dir, lockfile)
    }

    /// The slot of `lockfile`, which must be free.
    fn acquired(lockfile: &Path) -> SlotLock {
        SlotLock::try_acquire(lockfile)
            .expect("lock")
            .expect("a free slot")
    }

    #[test]
    #[cfg(unix)]
    fn a_lock_file_removed_under_its_lock_is_never_held_by_two() {
        let (_dir, lockfile) = a_lockfile();
        let path = lock_path(&lockfile);
        // A session ended; `session clean` holds its slot, while another process has
        // just opened the lock file to take it.
        let clean = acquired(&lockfile);
        let late = open_lock_file(&path).expect("opened");
        fs::remove_file(&path).expect("removed under its lock");
        drop(clean);
        // The late one's lock is on a file no longer there: it guards nothing.
        assert!(matches!(take(late, &path), Ok(Taken::Removed)));
        // Taking the slot anew locks the file at the path, which only one can hold.
        let first = acquired(&lockfile);
        assert!(SlotLock::try_acquire(&lockfile).expect("lock").is_none());
        assert!(is_held(&lockfile));
        drop(first);
        assert!(!is_held(&lockfile));
    }

    #[test]
    fn a_held_slot_cannot_be_taken_until_released() {
        let (dir, lockfile) = a_lockfile();
        let first = acquired(&lockfile);
        assert_eq!(first.path(), dir.path().join("0123456789abcdef.lock"));
        assert!(
            SlotLock::try_acquire(&lockfile).expect("lock").is_none(),
            "a second holder"
        );
        drop(first);
        assert!(SlotLock::try_acquire(&lockfile).expect("lock").is_some());
    }

    /// The lockfile a handed lock is for, in the test process [`handed_over`] starts.
    const HANDED_TEST: &str = "MUR_SLOT_TEST_LOCKFILE";

    /// A reload's successor adopts the lock handed to it, and what it starts afterwards
    /// is not told of it: `MUR_SLOT_FD` is gone from its environment. The successor is
    /// this test binary again, running [`successor`].
    #[cfg(unix)]
    #[test]
    fn a_handed_lock_is_adopted_and_its_variable_removed() {
        let (_dir, lockfile) = a_lockfile();
        let slot = acquired(&lockfile);
        let mut successor = std::process::Command::new(std::env::current_exe().expect("exe"));
        successor
            .args([
                "--exact",
                "slot::tests::successor",
                "--ignored",
                "--nocapture",
            ])
            .args(["--test-threads", "1"])
            .env(HANDED_TEST, &lockfile);
        slot.hand_to(&mut successor);
        let out = successor.output().expect("run the successor");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{said}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            said.contains("adopted; a child sees MUR_SLOT_FD unset"),
            "{said}"
        );
    }

    /// The successor's side of [`a_handed_lock_is_adopted_and_its_variable_removed`].
    #[cfg(unix)]
    #[test]
    #[ignore = "run by a_handed_lock_is_adopted_and_its_variable_removed"]
    fn successor() {
        let lockfile = PathBuf::from(std::env::var_os(HANDED_TEST).expect("started by the test"));
        assert!(std::env::var_os(HANDED_FD).is_some(), "handed");
        let _slot = SlotLock::inherited(&lockfile).expect("adopted");
        let child = std::process::Command::new("sh")
            .args(["-c", "printf %s \"${MUR_SLOT_FD-unset}\""])
            .output()
            .expect("sh");
        println!(
            "adopted; a child sees MUR_SLOT_FD {}",
            String::from_utf8_lossy(&child.stdout)
        );
    }

    /// A lock handed to a reload's successor is held by no other program this process
    /// starts meanwhile: `hand_to` left it open across every `exec` of this process
    /// until the successor was started, so whatever the app started then (a build, a
    /// helper) held the project's slot for as long as it ran.
    #[cfg(unix)]
    #[test]
    fn a_handed_lock_is_held_by_no_other_program_started_meanwhile() {
        use std::os::fd::AsRawFd as _;
        let (_dir, lockfile) = a_lockfile();
        let slot = acquired(&lockfile);
        let fd = slot._file.as_raw_fd();
        let mut successor = std::process::Command::new("true");
        slot.hand_to(&mut successor);
        let other = std::process::Command::new("sh")
            .args([
                "-c",
                &format!("[ -e /dev/fd/{fd} ] && printf open || printf closed"),
            ])
            .output()
            .expect("sh");
        assert_eq!(String::from_utf8_lossy(&other.stdout), "closed");
    }

    /// What is at a slot lock's path and is no lock file is named, with what it is: the
    /// lockfile beside it was blamed ("Is a directory"), and a link said nothing at all
    /// ("Too many levels of symbolic links").
    #[cfg(unix)]
    #[test]
    fn a_slot_lock_that_is_none_is_named_with_what_it_is() {
        let (dir, lockfile) = a_lockfile();
        let lock = lock_path(&lockfile);
        let refused = |lockfile: &Path| {
            let err = SlotLock::try_acquire(lockfile).expect_err("no slot there");
            let broken = BrokenSlot::of(&err).expect("a broken slot").clone();
            assert_eq!(err.to_string(), broken.to_string());
            broken
        };
        let said = |what: &str| {
            format!(
                "slot lock `{}` is {what}, not a regular file",
                lock.display()
            )
        };
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &lock).expect("symlink");
        let link = refused(&lockfile);
        let nowhere = dir.path().join("nowhere");
        assert_eq!(
            link.to_string(),
            said(&format!(
                "a symbolic link (to `{}`, which is not there)",
                nowhere.display()
            ))
        );
        assert!(
            link.removable() && !nowhere.exists(),
            "nothing made through it"
        );
        fs::remove_file(&lock).expect("rm");
        fs::create_dir(&lock).expect("mkdir");
        let empty = refused(&lockfile);
        assert_eq!(empty.to_string(), said("an empty directory"));
        assert!(empty.removable());
        fs::write(lock.join("kept"), "").expect("write");
        let full = refused(&lockfile);
        assert_eq!(full.to_string(), said("a directory with files in it"));
        assert!(!full.removable());
        assert_eq!(BrokenSlot::of_lockfile(&lockfile), Some(full));
        fs::remove_dir_all(&lock).expect("rm");
        crate::open::tests::mkfifo(&lock);
        assert_eq!(refused(&lockfile).to_string(), said("a FIFO"));
    }

    /// `session clean` takes a slot whose lock file is none by removing what is there
    /// (the link itself, never what it names), but never a directory with something in it.
    #[cfg(unix)]
    #[test]
    fn clearing_takes_the_slot_in_place_of_what_may_go_and_leaves_what_may_not() {
        let (dir, lockfile) = a_lockfile();
        let lock = lock_path(&lockfile);
        let named = dir.path().join("named");
        fs::write(&named, "mine").expect("write");
        let plant: [(&str, &dyn Fn()); 3] = [
            ("fifo", &|| crate::open::tests::mkfifo(&lock)),
            ("link", &|| {
                std::os::unix::fs::symlink(&named, &lock).expect("symlink");
            }),
            ("empty directory", &|| fs::create_dir(&lock).expect("mkdir")),
        ];
        for (what, plant) in plant {
            plant();
            let slot = SlotLock::try_acquire_clearing(&lockfile)
                .unwrap_or_else(|e| panic!("{what}: {e}"))
                .unwrap_or_else(|| panic!("{what}: held"));
            assert!(
                fs::symlink_metadata(&lock).expect("there").is_file(),
                "{what}"
            );
            slot.release_removing();
        }
        assert_eq!(fs::read_to_string(&named).expect("read"), "mine");
        fs::create_dir(&lock).expect("mkdir");
        fs::write(lock.join("kept"), "").expect("write");
        let err = SlotLock::try_acquire_clearing(&lockfile).expect_err("left");
        assert!(
            BrokenSlot::of(&err).is_some_and(|b| !b.removable()),
            "{err}"
        );
        assert!(lock.join("kept").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_the_lock_file_is_refused_without_blocking() {
        let (_dir, lockfile) = a_lockfile();
        let status = std::process::Command::new("mkfifo")
            .arg(lock_path(&lockfile))
            .status()
            .expect("mkfifo");
        assert!(status.success());
        let err = SlotLock::try_acquire(&lockfile).expect_err("a fifo");
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }
}
