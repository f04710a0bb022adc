//! What ended sessions leave beside their lockfiles, and when it may go: the
//! policy of `session clean`. A session's files are named after its lockfile
//! `<hash>.json` — its slot lock `<hash>.lock`, and whatever its kind writes beside
//! it (a bridge's sidecar and log, named by mur-bridge, which passes them in). They
//! go only when no session is the lockfile's: none is there, and the slot is taken
//! here, the way every session and reader takes it, so that one starting (which
//! holds the slot before it writes anything) or running keeps its files, whatever
//! their age. A temporary file a session's write left (`.<hash>.json.<pid>.<n>.tmp`, its
//! writer killed between writing it and renaming it) goes once its writer's pid is gone,
//! whatever session runs: the pid in its name is the only process that writes it.

use std::{
    collections::BTreeMap,
    fs, io,
    path::{Path, PathBuf},
};

use crate::{atomic, liveness, registry::Registry, slot};

/// The files ended sessions may have left in a lockfile directory, as one listing
/// found them ([`Registry::leftovers`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Leftovers {
    sessions: Vec<Session>,
    /// Temporary files of a session's writes, and the pid writing each.
    temps: Vec<(PathBuf, u32)>,
}

/// The files of the sessions of one lockfile.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Session {
    /// `<hash>.json`, which need not exist.
    lockfile: PathBuf,
    /// The files a session of it may leave that the listing found (regular files, and
    /// a slot lock that is none but may go), in the order they are removed in: the slot
    /// lock last, under its own lock.
    found: Vec<PathBuf>,
}

/// What [`Leftovers::clear`] did.
#[derive(Debug, Default)]
pub struct Cleared {
    /// The files found that it removed.
    pub removed: Vec<PathBuf>,
    /// What it could not do.
    pub failed: Vec<Unremoved>,
}

/// A failure to clear a session's files; its `Display` is the line to show.
#[derive(Debug)]
pub enum Unremoved {
    /// The slot of `lockfile` could not be taken (nor then asked whether it is held).
    Slot { lockfile: PathBuf, error: io::Error },
    /// The file at `path` could not be removed.
    File { path: PathBuf, error: io::Error },
}

impl std::fmt::Display for Unremoved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Slot { lockfile, error } => write!(
                f,
                "cannot take the slot of `{}` to clear its files: {error}",
                lockfile.display()
            ),
            Self::File { path, error } => write!(f, "cannot remove `{}`: {error}", path.display()),
        }
    }
}

impl Registry {
    /// The files ended sessions may have left in the directories searched, by lockfile: its
    /// slot lock, and what `beside` names for a lockfile (a bridge's sidecar and log).
    /// A file named otherwise is no session's, and left alone; so is what is not a
    /// regular file, but a slot lock that is none and may go ([`slot::BrokenSlot`]), which
    /// [`Leftovers::clear`] removes (only then can a session of the project start). Found before anything in the directory is judged: the slot locks
    /// a reader takes to remove stale lockfiles are its own, none a session left.
    pub fn leftovers(&self, beside: impl Fn(&Path) -> Vec<PathBuf>) -> Leftovers {
        let names = |lockfile: &Path| {
            let mut names = beside(lockfile);
            names.push(slot::lock_path(lockfile));
            names
        };
        let mut found: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
        let mut temps = Vec::new();
        // Each directory searched: an ended session's files are beside its lockfile.
        let entries = self.dirs().flat_map(|dir| {
            let listing = fs::read_dir(dir).into_iter().flatten().flatten();
            listing.map(move |entry| (dir, entry))
        });
        for (dir, entry) in entries {
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                continue;
            };
            if !entry.file_type().is_ok_and(|t| t.is_file()) {
                // A slot lock that is none (a FIFO, a link, an empty directory) blocks
                // the project's sessions: the ended session's to clear, when it may go.
                if let Some(lockfile) = lockfile_of_broken_slot(dir, name) {
                    found.entry(lockfile).or_default().push(dir.join(name));
                }
                continue;
            }
            let (target, writer) = match atomic::temp_writer(name) {
                Some((target, pid)) => (target, Some(pid)),
                None => (name, None),
            };
            let Some(hash) = hash_of(target) else {
                continue;
            };
            let lockfile = dir.join(format!("{hash}.json"));
            let path = dir.join(target);
            match writer {
                // The temporary file of a write of the lockfile or of a session's file.
                Some(pid) if path == lockfile || names(&lockfile).contains(&path) => {
                    temps.push((entry.path(), pid));
                }
                Some(_) => {}
                None if names(&lockfile).contains(&path) => {
                    found.entry(lockfile).or_default().push(path);
                }
                None => {}
            }
        }
        let sessions = found
            .into_iter()
            .map(|(lockfile, mut found)| {
                let names = names(&lockfile);
                // In the order they are removed in, not the listing's.
                found.sort_by_key(|path| names.iter().position(|name| name == path));
                Session { lockfile, found }
            })
            .collect();
        // In name order, as a listing shows them, not the directory's.
        temps.sort();
        Leftovers { sessions, temps }
    }
}

/// The lockfile `<hash>.json` of `name` in `dir` when `name` is its slot lock
/// `<hash>.lock` and what is there is no lock file but may go ([`slot::BrokenSlot`]).
fn lockfile_of_broken_slot(dir: &Path, name: &str) -> Option<PathBuf> {
    let hash = hash_of(name)?;
    if name != format!("{hash}.lock") {
        return None;
    }
    let lockfile = dir.join(format!("{hash}.json"));
    slot::BrokenSlot::of_lockfile(&lockfile)
        .filter(slot::BrokenSlot::removable)
        .map(|_| lockfile)
}

/// The hash a session's file is named after: its name's first 16 hex digits, then a dot.
fn hash_of(name: &str) -> Option<&str> {
    let hash = name.split('.').next()?;
    (hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) && name.len() > 16)
        .then_some(hash)
}

impl Leftovers {
    /// The files [`Leftovers::clear`] would remove once the lockfiles in `going` are
    /// gone (what a clean removes before it: stale and malformed ones): those of a
    /// lockfile going or not there, whose slot no one holds now. Nothing is taken or
    /// removed.
    pub fn removable(&self, going: &[&Path]) -> Vec<PathBuf> {
        self.sessions
            .iter()
            .filter(|s| {
                (going.contains(&s.lockfile.as_path()) || !exists(&s.lockfile))
                    && !slot::is_held(&s.lockfile)
                    // A slot lock the clear cannot take ([`slot::BrokenSlot::removable`]).
                    && slot::BrokenSlot::of_lockfile(&s.lockfile)
                        .is_none_or(|broken| broken.removable())
            })
            .flat_map(|s| s.found.iter().cloned())
            .chain(self.abandoned().cloned())
            .collect()
    }

    /// The temporary files whose writer is gone: none will rename or remove them.
    fn abandoned(&self) -> impl Iterator<Item = &PathBuf> {
        self.temps
            .iter()
            .filter(|(_, pid)| liveness::is_gone(*pid))
            .map(|(path, _)| path)
    }

    /// Removes what each session left, if no session is its lockfile's now: no
    /// lockfile, and the slot taken here ([`slot::SlotLock::try_acquire`]), under
    /// which the lockfile is looked for again (a session writes it only while it
    /// holds the slot) and the lock file goes last. A file that went meanwhile is
    /// no failure.
    pub fn clear(&self) -> Cleared {
        let mut cleared = Cleared::default();
        for session in &self.sessions {
            session.clear(&mut cleared);
        }
        // A pid gone stays gone: one reused since writes a temporary name of its own
        // (never one that exists, [`atomic`]'s `create_temp`).
        for path in self.abandoned() {
            match fs::remove_file(path) {
                Ok(()) => cleared.removed.push(path.clone()),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(error) => cleared.failed.push(Unremoved::File {
                    path: path.clone(),
                    error,
                }),
            }
        }
        cleared
    }
}

impl Session {
    fn clear(&self, cleared: &mut Cleared) {
        if exists(&self.lockfile) {
            return;
        }
        let slot = match slot::SlotLock::try_acquire_clearing(&self.lockfile) {
            Ok(Some(slot)) => slot,
            Ok(None) => return,
            Err(error) => {
                let lockfile = self.lockfile.clone();
                cleared.failed.push(Unremoved::Slot { lockfile, error });
                return;
            }
        };
        if exists(&self.lockfile) {
            return;
        }
        // What the listing found, and so what a dry run lists and the count counts:
        // nothing else named so (a link, a FIFO, a directory there) is touched. The
        // slot lock goes last whether found or not: taking the slot may have made it.
        let lock = slot.path().to_path_buf();
        let going = self.found.iter().filter(|path| **path != lock);
        for path in going.chain([&lock]) {
            match fs::remove_file(path) {
                Ok(()) if self.found.contains(path) => cleared.removed.push(path.clone()),
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(error) => cleared.failed.push(Unremoved::File {
                    path: path.clone(),
                    error,
                }),
            }
        }
        drop(slot);
    }
}

fn exists(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::liveness::tests::reaped_pid;
    use crate::slot::SlotLock;

    /// What a session of each lockfile leaves besides its slot lock (a bridge's
    /// sidecar, as mur-bridge names it).
    fn sidecar(lockfile: &Path) -> Vec<PathBuf> {
        vec![lockfile.with_extension("bridge")]
    }

    /// A registry in a new temporary directory (gone with the first), and a writer of
    /// `text` to a file of it, which gives back the file's path.
    fn registry_with(text: &str) -> (tempfile::TempDir, Registry, impl Fn(&str) -> PathBuf) {
        let dir = tempfile::tempdir().expect("tempdir");
        let registry = Registry::at(dir.path().to_owned());
        let (at, text) = (dir.path().to_owned(), text.to_owned());
        let touch = move |name: &str| {
            let path = at.join(name);
            fs::write(&path, &text).expect("write");
            path
        };
        (dir, registry, touch)
    }

    #[test]
    fn an_ended_sessions_files_go_and_a_running_or_starting_ones_stay() {
        let (dir, registry, touch) = registry_with("");
        // Ended: files and no lockfile. Running: a lockfile. Starting: its slot held.
        let ended = [
            touch("00000000000000aa.bridge"),
            touch("00000000000000aa.lock"),
        ];
        touch("00000000000000bb.json");
        let running = touch("00000000000000bb.bridge");
        let starting = touch("00000000000000cc.bridge");
        let slot = SlotLock::try_acquire(&dir.path().join("00000000000000cc.json"))
            .expect("lock")
            .expect("free");
        // Named otherwise, or no file: no session's.
        let others = [
            touch("00000000000000aa.txt"),
            touch("notahash00000000.bridge"),
        ];
        fs::create_dir(dir.path().join("00000000000000dd.bridge")).expect("dir");

        let leftovers = registry.leftovers(sidecar);
        assert_eq!(leftovers.removable(&[]), ended);
        // A lockfile a clean removes first (stale) leaves its session's files to go.
        let stale = dir.path().join("00000000000000bb.json");
        assert_eq!(
            leftovers.removable(&[&stale]),
            [ended.to_vec(), vec![running.clone()]].concat()
        );
        let cleared = leftovers.clear();
        assert!(cleared.failed.is_empty(), "{:?}", cleared.failed);
        assert_eq!(cleared.removed, ended);
        for path in [&running, &starting].into_iter().chain(&others) {
            assert!(path.exists(), "{path:?}");
        }
        // Once the slot is free, the start's file is an ended session's.
        drop(slot);
        let cleared = registry.leftovers(sidecar).clear();
        let lock = dir.path().join("00000000000000cc.lock");
        assert_eq!(cleared.removed, [starting.clone(), lock.clone()]);
        assert!(!starting.exists() && !lock.exists());
    }

    /// A slot lock that is none (a FIFO, a link, an empty directory: no session of the
    /// project can start while it is there) is an ended session's file, which the clean
    /// removes, and its files with it; a directory with something in it is left, and the
    /// clean says which file is what it cannot clear.
    #[cfg(unix)]
    #[test]
    fn a_slot_lock_that_is_none_goes_unless_it_is_a_directory_with_files() {
        let (dir, registry, touch) = registry_with("");
        let at = |name: &str| dir.path().join(name);
        crate::open::tests::mkfifo(&at("00000000000000aa.lock"));
        std::os::unix::fs::symlink(at("nowhere"), at("00000000000000bb.lock")).expect("link");
        let bridge = touch("00000000000000bb.bridge");
        fs::create_dir(at("00000000000000cc.lock")).expect("mkdir");
        fs::create_dir(at("00000000000000dd.lock")).expect("mkdir");
        fs::write(at("00000000000000dd.lock/kept"), "").expect("write");
        let stuck = touch("00000000000000dd.bridge");

        let leftovers = registry.leftovers(sidecar);
        let going = [
            at("00000000000000aa.lock"),
            bridge.clone(),
            at("00000000000000bb.lock"),
            at("00000000000000cc.lock"),
        ];
        assert_eq!(leftovers.removable(&[]), going);
        let cleared = leftovers.clear();
        assert_eq!(cleared.removed, going);
        let failed: Vec<String> = cleared.failed.iter().map(ToString::to_string).collect();
        assert_eq!(
            failed,
            [format!(
                "cannot take the slot of `{}` to clear its files: slot lock `{}` is a directory \
                 with files in it, not a regular file",
                at("00000000000000dd.json").display(),
                at("00000000000000dd.lock").display()
            )]
        );
        for name in [
            "00000000000000aa.lock",
            "00000000000000bb.lock",
            "00000000000000cc.lock",
        ] {
            assert!(fs::symlink_metadata(at(name)).is_err(), "{name}");
        }
        assert!(stuck.exists() && at("00000000000000dd.lock/kept").exists());
    }

    /// What is no regular file at a name a session's file would have (a link, a FIFO, a
    /// directory) is not found, so neither listed nor counted: the clear leaves it too,
    /// and does not fail on it; the regular files beside it go.
    #[cfg(unix)]
    #[test]
    fn what_is_no_regular_file_is_neither_listed_nor_removed() {
        let (dir, registry, touch) = registry_with("");
        let at = |name: &str| dir.path().join(name);
        let bridge_and_log = |lockfile: &Path| {
            let log = format!("{}.log", lockfile.with_extension("bridge").display());
            vec![lockfile.with_extension("bridge"), PathBuf::from(log)]
        };
        let target = touch("target");
        std::os::unix::fs::symlink(&target, at("00000000000000aa.bridge")).expect("link");
        crate::open::tests::mkfifo(&at("00000000000000aa.bridge.log"));
        fs::create_dir(at("00000000000000bb.bridge.log")).expect("mkdir");
        let going = [
            touch("00000000000000aa.lock"),
            touch("00000000000000bb.bridge"),
            touch("00000000000000bb.lock"),
        ];

        let leftovers = registry.leftovers(bridge_and_log);
        assert_eq!(leftovers.removable(&[]), going);
        let cleared = leftovers.clear();
        assert!(cleared.failed.is_empty(), "{:?}", cleared.failed);
        assert_eq!(cleared.removed, going);
        assert!(going.iter().all(|path| !path.exists()), "{going:?}");
        for name in [
            "00000000000000aa.bridge",
            "00000000000000aa.bridge.log",
            "00000000000000bb.bridge.log",
            "target",
        ] {
            assert!(fs::symlink_metadata(at(name)).is_ok(), "{name} was removed");
        }
    }

    #[test]
    fn a_temporary_file_goes_once_its_writer_is_gone_and_never_while_it_writes() {
        let (_dir, registry, touch) = registry_with("{");
        let (gone, ours) = (reaped_pid(), std::process::id());
        // A session killed mid-write left these; a running one (this process) is writing
        // that one, beside the lockfile of a session that runs.
        touch("00000000000000aa.json");
        let abandoned = [
            touch(&format!(".00000000000000aa.json.{gone}.0.tmp")),
            touch(&format!(".00000000000000bb.bridge.{gone}.3.tmp")),
        ];
        let kept = [
            touch(&format!(".00000000000000aa.json.{ours}.0.tmp")),
            // Not the temporary file of a session's file.
            touch(&format!(".00000000000000aa.txt.{gone}.0.tmp")),
            touch(&format!(".notahash00000000.json.{gone}.0.tmp")),
        ];

        let leftovers = registry.leftovers(sidecar);
        assert_eq!(leftovers.removable(&[]), abandoned);
        let cleared = leftovers.clear();
        assert!(cleared.failed.is_empty(), "{:?}", cleared.failed);
        assert_eq!(cleared.removed, abandoned);
        assert!(abandoned.iter().all(|path| !path.exists()));
        assert!(kept.iter().all(|path| path.exists()), "{kept:?}");
    }
}
