//! One lockfile directory: atomic writes, tolerant reads, scans and removal.

use std::{
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
};

use crate::{LOCKFILE_SCHEMA, Lockfile, paths, trust};

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
    /// Owned by another user or writable by others (Unix).
    Untrusted(String),
}

/// A lockfile found by [`Registry::scan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub path: PathBuf,
    pub outcome: ReadOutcome,
}

/// A lockfile directory.
#[derive(Debug, Clone)]
pub struct Registry {
    dir: PathBuf,
}

impl Registry {
    pub fn at(dir: PathBuf) -> Self {
        Self { dir }
    }

    /// The directory for this user on this OS (see [`paths::lockfile_dir`]).
    pub fn default_location() -> Self {
        Self::at(paths::lockfile_dir())
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The lockfile path for a canonical project path.
    pub fn path_for(&self, canonical_project: &str) -> PathBuf {
        self.dir.join(paths::lockfile_name(canonical_project))
    }

    /// Create the directory (0700 on Unix) if needed, and refuse one that
    /// another user could have planted or can write to.
    pub fn ensure_dir(&self) -> io::Result<()> {
        create_private_dir(&self.dir)?;
        self.check_dir_trusted()
            .map_err(|reason| io::Error::new(io::ErrorKind::PermissionDenied, reason))
    }

    /// Refuse a directory owned by another user or writable by group/others.
    pub fn check_dir_trusted(&self) -> Result<(), String> {
        trust::check_trusted(&self.dir, "lockfile directory")
    }

    /// Write `lock` for its project atomically: a reader sees the old file,
    /// the new file or no file, never a partial one. The bytes go to
    /// `<hash>.json.tmp` (0600), are fsynced, renamed over `<hash>.json`, and
    /// the directory is fsynced so the rename survives a crash.
    pub fn write(&self, lock: &Lockfile) -> io::Result<PathBuf> {
        self.ensure_dir()?;
        let path = self.path_for(&lock.project);
        let tmp = path.with_extension("json.tmp");
        let mut bytes = serde_json::to_vec_pretty(lock).map_err(io::Error::other)?;
        bytes.push(b'\n');
        write_synced(&tmp, &bytes)?;
        if let Err(err) = fs::rename(&tmp, &path) {
            let _ = fs::remove_file(&tmp);
            return Err(err);
        }
        sync_dir(&self.dir);
        Ok(path)
    }

    /// Read one lockfile, classifying anything that is not a valid lockfile.
    ///
    /// The file is opened once (never through a symlink) and judged by the
    /// metadata of that open handle, so what is checked is what is read.
    pub fn read(&self, path: &Path) -> ReadOutcome {
        let mut file = match open_no_follow(path) {
            Ok(file) => file,
            Err(err) => {
                return match trust::check_trusted(path, "lockfile") {
                    // A symlink (refused by the open) or a file not ours.
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
        if let Err(reason) = trust::check_metadata(&meta, path, "lockfile") {
            return ReadOutcome::Untrusted(reason);
        }
        // Sized from the metadata in hand (File's own read_to_end would stat
        // again), and bounded: a lockfile is a few hundred bytes.
        let mut bytes = Vec::with_capacity(meta.len().min(MAX_LOCKFILE_BYTES) as usize);
        let mut bounded = io::Read::take(&mut file, MAX_LOCKFILE_BYTES + 1);
        match io::Read::read_to_end(&mut bounded, &mut bytes) {
            Ok(_) if bytes.len() as u64 > MAX_LOCKFILE_BYTES => {
                ReadOutcome::Malformed(format!("larger than {MAX_LOCKFILE_BYTES} bytes"))
            }
            Ok(_) => classify(&bytes),
            Err(err) => ReadOutcome::Malformed(format!("cannot read: {err}")),
        }
    }

    /// Every `*.json` lockfile in the directory, sorted by path. A missing
    /// directory has no lockfiles. Temporary `.json.tmp` files are not lockfiles.
    pub fn scan(&self) -> io::Result<Vec<Entry>> {
        let listing = match fs::read_dir(&self.dir) {
            Ok(listing) => listing,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(err) => return Err(err),
        };
        let mut paths: Vec<PathBuf> = listing
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
            .collect();
        paths.sort();
        Ok(paths
            .into_iter()
            .map(|path| Entry {
                outcome: self.read(&path),
                path,
            })
            .collect())
    }

    /// Remove a lockfile; one that is already gone is fine (another reader
    /// may have cleaned it first).
    pub fn remove(&self, path: &Path) -> io::Result<()> {
        match fs::remove_file(path) {
            Err(err) if err.kind() != io::ErrorKind::NotFound => Err(err),
            _ => Ok(()),
        }
    }
}

fn open_no_follow(path: &Path) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
    options.open(path)
}

fn classify(bytes: &[u8]) -> ReadOutcome {
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

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    match fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
    {
        Err(err) if err.kind() != io::ErrorKind::AlreadyExists => Err(err),
        _ => Ok(()),
    }
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)
}

fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Best effort: not every platform lets a directory be opened for syncing.
fn sync_dir(dir: &Path) {
    if let Ok(handle) = fs::File::open(dir) {
        let _ = handle.sync_all();
    }
}
