//! The lockfile directories: the one sessions write to (atomically, [`crate::atomic`]),
//! and every one a reader searches — tolerant reads, scans and removal.

use std::{
    fs, io,
    path::{Path, PathBuf},
    time::Instant,
};

use crate::atomic::write_atomic;
use crate::schema::{LOCKFILE_SCHEMA, Lockfile};
use crate::{batch, open, paths, slot::SlotLock, trust};

/// No lockfile is anywhere near this size; a bigger file is not one.
const MAX_LOCKFILE_BYTES: u64 = 64 * 1024;

/// What reading one lockfile found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadOutcome {
    /// A lockfile of the schema this crate understands.
    Valid(Lockfile),
    /// Not JSON, or missing fields; the reason says which.
    Malformed(String),
    /// Well-formed JSON with a `schema` this crate does not know.
    UnknownSchema(String),
    /// Owned by another user or writable by others (Unix), or a directory with
    /// something in it: nothing to read, nor to remove. The text is the line to say.
    Untrusted(String),
    /// No file at that path: it never was, or it went between being listed and
    /// being read (another reader removed it as stale, or its session ended).
    /// [`Registry::scan`] leaves such files out.
    Gone,
}

/// A lockfile found by [`Registry::scan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub path: PathBuf,
    pub outcome: ReadOutcome,
}

/// A lockfile directory, and the others a reader searches beside it.
#[derive(Debug, Clone)]
pub struct Registry {
    /// Where lockfiles are written, and looked for first.
    dir: PathBuf,
    /// Where else lockfiles are looked for: where other writers of the contract may
    /// have announced their sessions ([`paths::lockfile_dirs`]).
    also: Vec<PathBuf>,
    /// Why directories where sessions may have announced themselves are not searched
    /// ([`paths::Searched::refused`]).
    refused: Vec<String>,
}

/// A lockfile directory that could not be listed, and why.
#[derive(Debug)]
pub struct Unlisted {
    pub dir: PathBuf,
    pub error: io::Error,
}

impl Registry {
    /// The one directory `dir`.
    pub fn at(dir: PathBuf) -> Self {
        Self::searching(vec![dir])
    }

    /// The directories `dirs`, searched in this order; the first is where lockfiles are
    /// written (none: [`Registry::default_location`]'s).
    pub fn searching(dirs: Vec<PathBuf>) -> Self {
        let mut dirs = dirs.into_iter();
        match dirs.next() {
            Some(dir) => Self {
                dir,
                also: dirs.collect(),
                refused: Vec::new(),
            },
            None => Self::default_location(),
        }
    }

    /// The directory sessions of this user on this OS write to (see
    /// [`paths::lockfile_dir`]): a writer's registry.
    pub fn default_location() -> Self {
        Self::at(paths::lockfile_dir())
    }

    /// [`Registry::default_location`] and every other directory a reader searches for
    /// the sessions of this user ([`paths::lockfile_dirs`]): a reader's registry.
    pub fn for_readers() -> Self {
        let paths::Searched { dirs, refused } = paths::lockfile_dirs();
        Self {
            refused,
            ..Self::searching(dirs)
        }
    }

    /// One line each: a directory where a session of this user may have announced
    /// itself that is not searched (another user's, or open to others' writes), and
    /// why; for the reader to say, as sessions announced there are not found.
    pub fn refused(&self) -> &[String] {
        &self.refused
    }

    /// Where lockfiles are written (the first directory searched).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Every directory searched, the one written to first.
    pub fn dirs(&self) -> impl Iterator<Item = &Path> {
        std::iter::once(self.dir.as_path()).chain(self.also.iter().map(PathBuf::as_path))
    }

    /// The directories searched as a message names them: `` `A` `` or `` `A` or `B` ``.
    pub fn searched(&self) -> String {
        let dirs: Vec<String> = self
            .dirs()
            .map(|dir| format!("`{}`", dir.display()))
            .collect();
        dirs.join(" or ")
    }

    /// The lockfile path for a canonical project path, where it is written.
    pub fn path_for(&self, canonical_project: &str) -> PathBuf {
        self.dir.join(paths::lockfile_name(canonical_project))
    }

    /// The project's lockfile path in every directory searched.
    pub fn paths_for(&self, canonical_project: &str) -> Vec<PathBuf> {
        let name = paths::lockfile_name(canonical_project);
        self.dirs().map(|dir| dir.join(&name)).collect()
    }

    /// Create the directory (0700 on Unix) if needed, and refuse one that
    /// another user could have planted or can write to.
    pub fn ensure_dir(&self) -> io::Result<()> {
        trust::ensure_private_dir(&self.dir, "lockfile directory")
            .map_err(|reason| io::Error::new(io::ErrorKind::PermissionDenied, reason))
    }

    /// Refuse a directory owned by another user or writable by group/others.
    pub fn check_dir_trusted(&self) -> Result<(), String> {
        trust::check_trusted(&self.dir, "lockfile directory")
    }

    /// [`Registry::check_dir_trusted`] of every directory searched that is there.
    pub fn check_searched_trusted(&self) -> Result<(), String> {
        self.dirs()
            .filter(|dir| dir.exists())
            .try_for_each(|dir| trust::check_trusted(dir, "lockfile directory"))
    }

    /// Write `lock` for its project atomically: a reader sees the old file,
    /// the new file or no file, never a partial one (see [`write_atomic`]).
    /// The caller should hold the project's [`SlotLock`].
    pub fn write(&self, lock: &Lockfile) -> io::Result<PathBuf> {
        self.ensure_dir()?;
        let path = self.path_for(&lock.project);
        let mut bytes = serde_json::to_vec_pretty(lock).map_err(io::Error::other)?;
        bytes.push(b'\n');
        write_atomic(&path, &bytes)?;
        Ok(path)
    }

    /// Read one lockfile, classifying anything that is not a valid lockfile.
    ///
    /// The file is opened once — never through a symlink, never blocking (a
    /// FIFO under a lockfile's name must not hang a reader) — and judged by
    /// the metadata of that open handle, so what is checked is what is read.
    pub fn read(&self, path: &Path) -> ReadOutcome {
        let mut options = fs::OpenOptions::new();
        options.read(true);
        let file = match open::guarded(&mut options, path) {
            Ok(file) => file,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return ReadOutcome::Gone,
            Err(err) if open::is_symlink_refusal(&err) => {
                return ReadOutcome::Untrusted(format!(
                    "refusing lockfile `{}`: it is a symbolic link",
                    path.display()
                ));
            }
            Err(err) => {
                return match trust::check_trusted(path, "lockfile") {
                    Err(reason) => ReadOutcome::Untrusted(reason),
                    Ok(()) => ReadOutcome::Malformed(format!("cannot read: {err}")),
                };
            }
        };
        let meta = match file.metadata() {
            Ok(meta) => meta,
            Err(err) => {
                let reason = format!("cannot inspect lockfile `{}`: {err}", path.display());
                return ReadOutcome::Untrusted(reason);
            }
        };
        // A directory is no session's lockfile, but what is in one may be someone's:
        // only an empty one is malformed, and removed as one.
        if meta.is_dir() && !open::is_empty_dir(path) {
            return ReadOutcome::Untrusted(format!(
                "refusing `{}`: a directory with files in it, not a lockfile (mur removes \
                 no directory that is not empty)",
                path.display()
            ));
        }
        if !meta.is_file() {
            return ReadOutcome::Malformed(format!("{}, not a file", open::describe_type(&meta)));
        }
        if let Err(reason) = trust::check_metadata(&meta, path, "lockfile") {
            return ReadOutcome::Untrusted(reason);
        }
        match open::read_capped(&file, meta.len(), MAX_LOCKFILE_BYTES) {
            Ok(bytes) => classify(&bytes),
            Err(err) => ReadOutcome::Malformed(format!("cannot read: {err}")),
        }
    }

    /// Every `*.json` lockfile in the directories searched, each directory's sorted by
    /// path. A missing directory has no lockfiles. Temporary `.json.tmp` files are not
    /// lockfiles, and a file removed between the listing and its read is not there.
    pub fn scan(&self) -> io::Result<Vec<Entry>> {
        self.scan_naming().map_err(|unlisted| unlisted.error)
    }

    /// [`Registry::scan`], a failure naming the directory that could not be listed.
    pub fn scan_naming(&self) -> Result<Vec<Entry>, Unlisted> {
        let scanned = self.scan_until(None)?;
        Ok(scanned.unwrap_or_default())
    }

    /// [`Registry::scan_naming`] by `deadline` (a reader's `--timeout`): `None` when it
    /// came first, the directories not listed or their files not read by then. A
    /// directory of ten thousand files takes a reader more than half a second, and the
    /// work is not async: a bound kept only around it (`tokio::time::timeout`) fired
    /// once it was all done.
    pub fn scan_until(&self, deadline: Option<Instant>) -> Result<Option<Vec<Entry>>, Unlisted> {
        let Some(paths) = self.listing_until("json", deadline)? else {
            return Ok(None);
        };
        let outcomes = batch::map_until(&paths, deadline, |path| self.read(path));
        let mut entries = Vec::with_capacity(paths.len());
        for (path, outcome) in paths.into_iter().zip(outcomes) {
            match outcome {
                None => return Ok(None),
                Some(ReadOutcome::Gone) => {}
                Some(outcome) => entries.push(Entry { path, outcome }),
            }
        }
        Ok(Some(entries))
    }

    /// The files named `*.<extension>` in the directories searched (a bridge's
    /// sidecars, slot locks), each directory's sorted; those of a directory that cannot
    /// be listed are left out.
    pub fn files(&self, extension: &str) -> Vec<PathBuf> {
        self.dirs()
            .flat_map(|dir| listed_until(dir, extension, None).ok().flatten())
            .flatten()
            .collect()
    }

    /// The files named `*.<extension>` in the directories searched, each directory's
    /// sorted; `None` once `deadline` has come.
    fn listing_until(
        &self,
        extension: &str,
        deadline: Option<Instant>,
    ) -> Result<Option<Vec<PathBuf>>, Unlisted> {
        let mut paths = Vec::new();
        for dir in self.dirs() {
            let listed = listed_until(dir, extension, deadline).map_err(|error| Unlisted {
                dir: dir.to_owned(),
                error,
            })?;
            match listed {
                Some(found) => paths.extend(found),
                None => return Ok(None),
            }
        }
        Ok(Some(paths))
    }

    /// Remove a lockfile; one that is already gone is fine (another reader
    /// may have cleaned it first). Only for a holder of the slot's lock; a
    /// reader removes stale files with [`Registry::remove_if_unchanged`].
    /// An empty directory under a lockfile's name (read as malformed) goes too.
    pub fn remove(&self, path: &Path) -> io::Result<()> {
        let removed = match fs::remove_file(path) {
            Err(_) if fs::symlink_metadata(path).is_ok_and(|meta| meta.is_dir()) => {
                fs::remove_dir(path)
            }
            removed => removed,
        };
        match removed {
            Err(err) if err.kind() != io::ErrorKind::NotFound => Err(err),
            _ => Ok(()),
        }
    }

    /// Removes the lockfile at `path` if it still is `judged` (same pid and
    /// `startedAt`) — the file a reader found stale. It takes the slot's lock
    /// first, so no session can be writing a fresh file meanwhile, and reads
    /// the file again under it. Returns whether it removed the file; `false`
    /// when the slot is held (a session is starting or running) or the file
    /// changed. The slot's lock file goes with it: the session it was is over.
    pub fn remove_if_unchanged(&self, path: &Path, judged: &Lockfile) -> io::Result<bool> {
        self.remove_if_unchanged_by(path, judged, SlotLock::try_acquire)
    }

    /// [`Registry::remove_if_unchanged`], the slot taken by `take`.
    fn remove_if_unchanged_by(
        &self,
        path: &Path,
        judged: &Lockfile,
        take: impl Fn(&Path) -> io::Result<Option<SlotLock>>,
    ) -> io::Result<bool> {
        let Some(slot) = take(path)? else {
            return Ok(false);
        };
        match self.read(path) {
            ReadOutcome::Valid(now)
                if now.pid == judged.pid && now.started_at == judged.started_at =>
            {
                self.remove(path)?;
                slot.release_removing();
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Removes the file at `path` if it is still malformed, under the slot's lock like
    /// [`Registry::remove_if_unchanged`]: a session writes its lockfile whole (by a
    /// rename), so a malformed one is no session's, and one that a session has since
    /// written anew is left. Returns whether it removed the file. For `session clean`,
    /// which alone removes these: a slot lock that is none but may go is removed first
    /// ([`SlotLock::try_acquire_clearing`]).
    pub fn remove_if_malformed(&self, path: &Path) -> io::Result<bool> {
        let Some(slot) = SlotLock::try_acquire_clearing(path)? else {
            return Ok(false);
        };
        match self.read(path) {
            ReadOutcome::Malformed(_) => {
                let removed = self.remove(path);
                // Removed or not, the file was no session's: its slot's lock file is
                // none's either, and is not left made.
                slot.release_removing();
                removed.map(|()| true)
            }
            _ => Ok(false),
        }
    }

    /// [`Registry::remove_if_unchanged`] for each `(path, judged)`, many of them at
    /// once on a few threads; the outcomes are in the order given. A file whose turn
    /// comes at or after `deadline` is not tried (`None`), and stays for a later reader.
    /// `clearing` (`session clean`): a slot lock that is none but may go is removed
    /// first ([`SlotLock::try_acquire_clearing`]); a reader leaves it, and the file.
    pub fn remove_all_if_unchanged(
        &self,
        files: &[(&Path, &Lockfile)],
        deadline: Option<std::time::Instant>,
        clearing: bool,
    ) -> Vec<Option<io::Result<bool>>> {
        let take = match clearing {
            true => SlotLock::try_acquire_clearing,
            false => SlotLock::try_acquire,
        };
        batch::map_until(files, deadline, |(path, judged)| {
            self.remove_if_unchanged_by(path, judged, take)
        })
    }
}

/// The files named `*.<extension>` in `dir`, sorted; none in a directory not there;
/// `None` once `deadline` has come.
fn listed_until(
    dir: &Path,
    extension: &str,
    deadline: Option<Instant>,
) -> io::Result<Option<Vec<PathBuf>>> {
    match fs::read_dir(dir) {
        Ok(listing) => Ok(files_with_extension_until(listing, extension, deadline)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(Some(Vec::new())),
        Err(err) => Err(err),
    }
}

/// The paths of `listing` named `*.<extension>`, sorted; an entry that could not be
/// read is left out. The registry's listing rule, which the usage logs' listing shares.
pub fn files_with_extension(listing: fs::ReadDir, extension: &str) -> Vec<PathBuf> {
    files_with_extension_until(listing, extension, None).unwrap_or_default()
}

/// [`files_with_extension`], `None` once `deadline` has come.
fn files_with_extension_until(
    listing: fs::ReadDir,
    extension: &str,
    deadline: Option<Instant>,
) -> Option<Vec<PathBuf>> {
    let mut paths = Vec::new();
    for (at, entry) in listing.enumerate() {
        // A look at the clock now and then: an entry costs about a microsecond.
        if at % 64 == 63 && deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return None;
        }
        let Ok(entry) = entry else {
            continue;
        };
        let path = entry.path();
        if path.extension().is_some_and(|ext| ext == extension) {
            paths.push(path);
        }
    }
    paths.sort();
    Some(paths)
}

/// The UTF-8 byte order mark, which a writer may put before the JSON.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

fn classify(bytes: &[u8]) -> ReadOutcome {
    // A .NET app writing with `Encoding.UTF8` (the seed's apps are C# projects) starts
    // its file with a BOM, which RFC 8259 lets a parser ignore: read as "not JSON", the
    // lockfile of a running session was skipped, and removed by `session clean`.
    let bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
    let value: serde_json::Value = match serde_json::from_slice(bytes) {
        Ok(value) => value,
        Err(err) => return ReadOutcome::Malformed(format!("not JSON: {err}")),
    };
    match value.get("schema").and_then(|schema| schema.as_str()) {
        None => return ReadOutcome::Malformed("no `schema` field".to_owned()),
        Some(schema) if schema != LOCKFILE_SCHEMA => {
            return ReadOutcome::UnknownSchema(schema.to_owned());
        }
        Some(_) => {}
    }
    match serde_json::from_value(value) {
        Ok(lock) => ReadOutcome::Valid(lock),
        Err(err) => ReadOutcome::Malformed(err.to_string()),
    }
}
