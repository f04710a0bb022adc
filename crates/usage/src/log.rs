//! The append-only log: one record per line, one `write` per record, so
//! concurrent writers never interleave; rotated by size under a lock, so no
//! line is lost when two writers cross the limit at once.
//!
//! | platform | directory |
//! |---|---|
//! | any, when set | `$XDG_STATE_HOME/mur/usage` |
//! | Linux, other Unix | `~/.local/state/mur/usage` |
//! | macOS | `~/Library/Application Support/mur/usage` |
//! | Windows | `%LOCALAPPDATA%\mur\usage` |

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use crate::record::Record;
use crate::report::OffPeriod;

/// Why a usage log could not be used, and whose that failure is: its [`Class`] decides
/// how a program reports it (for `mur`, the exit code). mur-usage, which a session
/// embeds, does not depend on mur-core (its `Error`, with clap): the host maps the
/// class to mur's kind in one place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    class: Class,
    message: String,
    /// What to do about it, when the message alone does not say.
    hint: Option<String>,
    /// An append's failure that came after its record was written (the log could not
    /// be rotated): the record is kept, only the log's size is not.
    written: bool,
}

/// Whose failure an [`Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// A log the caller named cannot be used: a `--server-log` that is no file or
    /// cannot be read, a `--usage-log` in a directory that does not exist (mur: exit 1).
    Usage,
    /// mur's own log or directory cannot be written or read (mur: exit 7).
    Internal,
}

impl Error {
    fn new(class: Class, message: impl Into<String>) -> Self {
        Self {
            class,
            message: message.into(),
            hint: None,
            written: false,
        }
    }

    pub fn class(&self) -> Class {
        self.class
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    pub fn hint(&self) -> Option<&str> {
        self.hint.as_deref()
    }

    /// Whether the record an [`UsageLog::append`] failed on was written all the same:
    /// only rotating the log failed, so the record is not lost.
    pub fn record_written(&self) -> bool {
        self.written
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Where the sessions record the tool calls they serve by default (a bridge's
/// `--usage`, an app's `UsageLogging::BesideLockfile`): `sessions/` in mur's own
/// usage directory, one `<hash>.jsonl` per project. Beside mur's own log, and kept
/// as long: the lockfile directory (`$XDG_RUNTIME_DIR`, a tmpfs emptied at logout
/// and reboot) would lose the MCP side of a two-week experiment at its first reboot
/// while mur's side stayed. Without a home (no state directory), the older place,
/// [`lockfile_sessions_dir`].
pub fn sessions_dir() -> PathBuf {
    UsageDir::from_env().map_or_else(lockfile_sessions_dir, |own| own.path().join("sessions"))
}

/// Where sessions of an older mur recorded by default, and where they still do
/// without a home: `usage/` in the lockfile directory they write to. The report reads
/// `usage/` in every lockfile directory a reader searches
/// ([`mur_lockfile::Registry::for_readers`]: a session started without
/// `XDG_RUNTIME_DIR` writes to another), so logs written there are not lost.
pub fn lockfile_sessions_dir() -> PathBuf {
    mur_lockfile::paths::lockfile_dir().join("usage")
}

/// The logs in `dir` ([`sessions_dir`]) of the tool calls sessions served: each
/// `<hash>.jsonl`, with its rotated files. A log is read only when each of its files
/// is a regular file (never a link, a FIFO or a device) the user may trust as their
/// own, in a directory they may trust so (mur made it so): the rule every file in
/// the lockfile directory is held to ([`mur_lockfile::check_own`]: theirs, and no
/// one else's to write). The others are returned apart, each with why it is not
/// read. A directory that is not there holds none.
pub fn session_logs(dir: &Path) -> (Vec<UsageLog>, Vec<String>) {
    let mut logs = Vec::new();
    let mut refused = Vec::new();
    let Ok(listing) = std::fs::read_dir(dir) else {
        return (logs, refused);
    };
    if let Err(why) = private_dir(dir) {
        return (logs, vec![why]);
    }
    for path in mur_lockfile::files_with_extension(listing, "jsonl") {
        let log = UsageLog::at(path);
        let mut files = log.files();
        // A live file that is no file at all (a dangling link) is not among `files()`.
        files.push(log.path.clone());
        match files.iter().find_map(|file| foreign(file)) {
            Some(why) => refused.push(why),
            None => logs.push(log),
        }
    }
    (logs, refused)
}

/// Why `dir` is not read: no directory (a link to one neither), or not one the
/// user may trust as their own.
fn private_dir(dir: &Path) -> Result<(), String> {
    let meta = std::fs::symlink_metadata(dir)
        .map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!("`{}` is not a directory", dir.display()));
    }
    mur_lockfile::check_own(&meta, mur_lockfile::Keep::Writes)
        .map_err(|why| format!("{}: its logs are not read", why.of(dir)))
}

/// Why the file at `path` is not read as a session's log: not a regular file, or
/// not one the user may trust as their own. `None` when it is fine, or gone.
fn foreign(path: &Path) -> Option<String> {
    let meta = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return None,
        Err(e) => return Some(format!("cannot read `{}`: {e}", path.display())),
        Ok(meta) => meta,
    };
    if !meta.is_file() {
        let what = mur_lockfile::describe_file_type(&meta);
        return Some(format!(
            "`{}` is {what}, not a regular file",
            path.display()
        ));
    }
    let trusted = mur_lockfile::check_own(&meta, mur_lockfile::Keep::Writes);
    trusted.err().map(|why| why.of(path))
}

/// Whether nothing is at `dir` (a link to nothing neither): something there that is
/// no directory is for the open to refuse, saying what it is.
fn missing(dir: &Path) -> bool {
    std::fs::metadata(dir).is_err_and(|e| e.kind() == io::ErrorKind::NotFound)
}

/// Whether `dir` is one of mur's own usage directories (the CLI's, the sessions'),
/// which a log makes when it is missing; any other directory must exist already,
/// as for every file the user names: a mistyped path is refused, not made.
fn is_own_dir(dir: &Path) -> bool {
    dir == sessions_dir() || UsageDir::from_env().is_some_and(|own| own.path() == dir)
}

/// Whether a log at `path` can be made where it is named: its directory is there, or
/// is one of mur's own usage directories (made private with the log). Asked before
/// anything starts that records to it (`--usage-log PATH`).
pub fn check_log_path(path: &Path) -> Result<(), Error> {
    match path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        Some(dir) if missing(dir) && !is_own_dir(dir) => Err(Error::new(
            Class::Usage,
            format!("the directory `{}` does not exist", dir.display()),
        )),
        _ => Ok(()),
    }
}

/// A log grows to this size before it is rotated (`MUR_USAGE_MAX_BYTES` overrides).
const DEFAULT_MAX_BYTES: u64 = 16 << 20;
/// Rotated logs kept beside the live one: `usage.jsonl.1` (newest) … `.4`.
const KEPT: u32 = 4;

/// The CLI's usage directory and its switches.
#[derive(Debug, Clone)]
pub struct UsageDir {
    dir: PathBuf,
}

impl UsageDir {
    /// The directory for this platform and environment; `None` without a home.
    pub fn from_env() -> Option<Self> {
        Some(Self::at(mur_lockfile::paths::state_dir()?.join("usage")))
    }

    pub fn at(dir: PathBuf) -> Self {
        Self { dir }
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The live log file.
    pub fn log(&self) -> UsageLog {
        UsageLog::at(self.dir.join("usage.jsonl"))
    }

    /// Why this directory cannot be, when a part of its path is a file where a directory
    /// must be (`XDG_STATE_HOME` set to a file): said as such, where `usage report`
    /// read no log and said "0 records", `usage path` printed a path under the file,
    /// and `usage off` said "Not a directory" of a directory it cannot make. `None`
    /// when no part of it is a file. A look at each part: for the commands that read or
    /// switch the log (`usage …`, `verbs prune`), never on a call's path.
    pub fn file_in_the_way(&self) -> Option<Error> {
        let file = self
            .dir
            .ancestors()
            .find(|part| std::fs::metadata(part).is_ok_and(|m| !m.is_dir()))?;
        let shown = file.display();
        let state_home = std::env::var_os("XDG_STATE_HOME").map(PathBuf::from);
        let (message, hint) = if state_home.as_deref() == Some(file) {
            (
                format!(
                    "`XDG_STATE_HOME` is `{shown}`, a file: mur keeps its usage log in a \
                     directory under it (`$XDG_STATE_HOME/mur/usage`)"
                ),
                "set `XDG_STATE_HOME` to a directory, or unset it".to_owned(),
            )
        } else {
            (
                format!("the usage directory cannot be used: `{shown}` is a file, not a directory"),
                format!("move `{shown}` out of the way"),
            )
        };
        Some(Error {
            hint: Some(hint),
            ..Error::new(Class::Internal, message)
        })
    }

    /// Recording is on unless `usage off` left its marker (one `stat`).
    pub fn enabled(&self) -> bool {
        !self.dir.join("off").exists()
    }

    /// Argument values are recorded only after `usage on --with-values`.
    pub fn with_values(&self) -> bool {
        self.dir.join("values").exists()
    }

    /// `usage on [--with-values]` / `usage off`. The time recording went off is kept
    /// in the `off` marker, and each whole period, once `usage on` ends it, as a line
    /// `FROM TO` of `off-periods`: a verb used meanwhile is in no record, so a window
    /// that overlaps one is not one a verb can be judged unused over
    /// ([`UsageDir::off_periods`]).
    pub fn switch(&self, on: bool, with_values: bool) -> Result<(), Error> {
        mur_lockfile::ensure_private_dir(&self.dir, "the usage directory")
            .map_err(|why| Error::new(Class::Internal, why))?;
        let off = self.dir.join("off");
        match (on, self.went_off()) {
            (true, Some(from)) => {
                let line = format!("{from} {}\n", crate::clock::now_millis());
                let mut options = OpenOptions::new();
                options.append(true).create(true);
                #[cfg(unix)]
                std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
                let path = self.dir.join("off-periods");
                mur_lockfile::open_regular(&mut options, &path)
                    .and_then(|mut file| file.write_all(line.as_bytes()))
                    .map_err(|e| {
                        Error::new(
                            Class::Internal,
                            format!("cannot update `{}`: {e}", path.display()),
                        )
                    })?;
                set_marker(&off, false)?;
            }
            // Off already: it went off then, not now.
            (false, Some(_)) => {}
            (false, None) => std::fs::write(&off, crate::clock::now_millis()).map_err(|e| {
                Error::new(
                    Class::Internal,
                    format!("cannot update `{}`: {e}", off.display()),
                )
            })?,
            (true, None) => {}
        }
        set_marker(&self.dir.join("values"), on && with_values)
    }

    /// When recording went off, while it is: the time the `off` marker holds (an
    /// older mur's empty marker: the time it was made).
    fn went_off(&self) -> Option<String> {
        let off = self.dir.join("off");
        let meta = std::fs::metadata(&off).ok()?;
        let text = std::fs::read_to_string(&off).unwrap_or_default();
        let text = text.trim();
        if let Some(time) = crate::clock::record_time(text) {
            return Some(time);
        }
        let made = meta.modified().unwrap_or(std::time::SystemTime::UNIX_EPOCH);
        Some(mur_lockfile::rfc3339_millis(made.into()))
    }

    /// The periods recording was off (`usage off` to `usage on`), oldest first; the
    /// last one has no end while it still is, each time in mur's form (as a record's).
    /// A line that is not two record times is passed over.
    pub fn off_periods(&self) -> Vec<OffPeriod> {
        let text = std::fs::read_to_string(self.dir.join("off-periods")).unwrap_or_default();
        let mut periods: Vec<OffPeriod> = text
            .lines()
            .filter_map(|line| {
                let (from, to) = line.split_once(' ')?;
                Some(OffPeriod {
                    from: crate::clock::record_time(from)?,
                    to: Some(crate::clock::record_time(to)?),
                })
            })
            .collect();
        periods.extend(self.went_off().map(|from| OffPeriod { from, to: None }));
        periods
    }
}

fn set_marker(path: &Path, present: bool) -> Result<(), Error> {
    let outcome = if present {
        File::create(path).map(drop)
    } else {
        match std::fs::remove_file(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            other => other,
        }
    };
    outcome.map_err(|e| {
        Error::new(
            Class::Internal,
            format!("cannot update `{}`: {e}", path.display()),
        )
    })
}

/// One log file (and its rotated predecessors beside it).
#[derive(Debug, Clone)]
pub struct UsageLog {
    path: PathBuf,
    max_bytes: u64,
    /// Whose a failure to read it is: the caller's, for a log it named.
    reading: Class,
}

impl UsageLog {
    /// A log of mur's own (the CLI's, a session's): a failure to read it is mur's.
    pub fn at(path: PathBuf) -> Self {
        let max_bytes = std::env::var("MUR_USAGE_MAX_BYTES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(DEFAULT_MAX_BYTES);
        Self {
            path,
            max_bytes,
            reading: Class::Internal,
        }
    }

    /// A log the caller named to be read (`--server-log PATH`): one that is not
    /// there, is no file or cannot be read is a [`Class::Usage`] error.
    pub fn named(path: PathBuf) -> Self {
        Self {
            reading: Class::Usage,
            ..Self::at(path)
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `record` as one line with one `write` on an `O_APPEND` file:
    /// the kernel places each write at the end as a whole, so records of
    /// concurrent processes never interleave. The directory is created
    /// private on first use.
    pub fn append(&self, record: &Record) -> Result<(), Error> {
        let mut file = self.opened()?;
        // A file that does not end in a newline ends in a torn line (a writer that
        // crashed mid-write, another program's text): a record appended to it would
        // be on that line, and skipped with it. It starts a line of its own. The check
        // races another process's append (it may see that one before its last byte is
        // in): then a newline lands after a whole line, and the log has a blank line,
        // which its reader passes over (`read_file`); no record is lost or joined.
        let (len, whole) = last_line(&file);
        let mut line = if whole { Vec::new() } else { vec![b'\n'] };
        serde_json::to_writer(&mut line, record).map_err(|e| self.describe(e))?;
        line.push(b'\n');
        file.write_all(&line).map_err(|e| self.describe(e))?;
        // The size it has now, as far as this writer knows (another's record since is
        // counted by the next append): no second `fstat` on every call's path.
        if len + line.len() as u64 > self.max_bytes {
            self.rotate().map_err(|e| self.not_rotated(e))?;
        }
        Ok(())
    }

    /// Makes the log (the file 0600, nothing written; mur's own usage directory made
    /// private if missing), so that one who records to it learns at once that it
    /// cannot be written, and a reader finds it before the first record: a path that
    /// cannot be one fails here, and so does one in a directory that does not exist
    /// but mur's own ([`check_log_path`]): a mistyped path is not made.
    pub fn ready(&self) -> Result<(), Error> {
        self.opened().map(drop)
    }

    /// The file opened for appending; mur's own usage directory made private first
    /// if missing, no other.
    fn opened(&self) -> Result<File, Error> {
        match self.open() {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                check_log_path(&self.path).map_err(|e| Error {
                    message: self.describe(&e).message,
                    ..e
                })?;
                if let Some(dir) = self.path.parent() {
                    mur_lockfile::ensure_private_dir(dir, "the usage directory")
                        .map_err(|why| Error::new(Class::Internal, why))?;
                }
                self.open()
            }
            other => other,
        }
        .map_err(|e| self.describe(e))
    }

    fn open(&self) -> io::Result<File> {
        let mut options = OpenOptions::new();
        // Read too: whether the file ends in a whole line is read from it.
        options.read(true).append(true).create(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        mur_lockfile::open_regular(&mut options, &self.path)
    }

    /// `usage.jsonl` → `.1` → … → `.4` (the oldest dropped), under an
    /// exclusive lock; the size is checked again under it, so of two writers
    /// that crossed the limit together only one rotates. A writer still
    /// holding the old file appends to `.1`: its line is kept.
    fn rotate(&self) -> io::Result<()> {
        let mut options = OpenOptions::new();
        options.write(true).create(true).truncate(false);
        // Private as every file of the usage directory (docs/usage.md: 0600), though empty.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let lock = mur_lockfile::open_regular(&mut options, &self.path.with_extension("lock"))?;
        lock.lock()?;
        let size = std::fs::metadata(&self.path).map(|m| m.len()).unwrap_or(0);
        if size > self.max_bytes {
            for n in (1..KEPT).rev() {
                let from = self.rotated(n);
                if from.exists() {
                    std::fs::rename(&from, self.rotated(n + 1))?;
                }
            }
            std::fs::rename(&self.path, self.rotated(1))?;
        }
        Ok(())
    }

    /// Rotates whatever the size (a test's rotation at a chosen moment).
    #[cfg(test)]
    fn rotate_now(&self) {
        let forced = Self {
            max_bytes: 0,
            ..self.clone()
        };
        forced.rotate().unwrap_or_else(|e| panic!("{e}"));
    }

    fn rotated(&self, n: u32) -> PathBuf {
        let mut name = self.path.as_os_str().to_owned();
        name.push(format!(".{n}"));
        PathBuf::from(name)
    }

    /// The files of this log, each opened, oldest first. They are opened newest
    /// first — the live one, then `.1` … `.4`, the way a rotation moves them — so a
    /// rotation while they are opened moves no file past the walk: the live file
    /// renamed `.1` is met again there (the same file, taken once), and a live file
    /// gone for the instant of the rename is found as `.1`. Read from these handles,
    /// not the names, a rotation while they are read moves nothing out of reach.
    fn opened_files(&self) -> Result<Vec<(PathBuf, File)>, Error> {
        let names = std::iter::once(self.path.clone()).chain((1..=KEPT).map(|n| self.rotated(n)));
        let mut opened: Vec<(PathBuf, File)> = Vec::new();
        let mut seen: Vec<FileId> = Vec::new();
        for path in names {
            match mur_lockfile::open_regular(OpenOptions::new().read(true), &path) {
                Ok(file) => {
                    let id = FileId::of(&path, &file);
                    if !seen.contains(&id) {
                        seen.push(id);
                        opened.push((path, file));
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => {
                    let message = format!("cannot read `{}`: {e}", path.display());
                    return Err(Error::new(self.reading, message));
                }
            }
        }
        opened.reverse();
        Ok(opened)
    }

    /// The files of this log, oldest first: rotated ones, then the live one.
    pub fn files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = (1..=KEPT).rev().map(|n| self.rotated(n)).collect();
        files.push(self.path.clone());
        files.into_iter().filter(|p| p.exists()).collect()
    }

    /// A failure to write this log: mur's own, whoever named the log (an operator
    /// asked for it, and it cannot be kept).
    fn describe(&self, e: impl std::fmt::Display) -> Error {
        let message = format!("cannot write the usage log `{}`: {e}", self.path.display());
        Error::new(Class::Internal, message)
    }

    /// A failure to rotate this log, once a record was written to it: the record is
    /// kept, the log grows past its limit.
    fn not_rotated(&self, e: impl std::fmt::Display) -> Error {
        let message = format!(
            "cannot rotate the usage log `{}`: {e}; it grows past its limit",
            self.path.display()
        );
        Error {
            written: true,
            ..Error::new(Class::Internal, message)
        }
    }
}

/// The length of `file`, and whether it is empty or ends in a newline: a record
/// appended to it starts a line. (A file that cannot be asked is taken to: the record
/// is written as before.)
fn last_line(file: &File) -> (u64, bool) {
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len == 0 {
        return (0, true);
    }
    #[cfg(unix)]
    {
        let mut last = [0u8; 1];
        use std::os::unix::fs::FileExt as _;
        let whole = file
            .read_at(&mut last, len - 1)
            .map_or(true, |n| n == 0 || last[0] == b'\n');
        (len, whole)
    }
    #[cfg(not(unix))]
    {
        (len, true)
    }
}

/// The longest line read as a record: a record is under a kilobyte (a few with
/// `--with-values`); a longer line is no record of mur's, and is skipped
/// without being held.
const MAX_LINE: usize = 1 << 20;

/// Every record of these log files (each with its rotated files), and how
/// many lines were not records (a torn last line after a crash, another
/// program's text, a line past [`MAX_LINE`], a record whose time or duration
/// no call has: [`Record::is_sound`]): those are skipped, never fatal.
/// Only regular files are read: a FIFO or a device is refused, not waited on.
/// A file met twice (a log named twice) is read once. The tests' way to read
/// logs whole; a reader of many logs keeps a [`LogReader`].
#[cfg(test)]
fn read_logs(logs: &[UsageLog]) -> Result<(Vec<Record>, usize), Error> {
    let mut reader = LogReader::default();
    reader.read(logs)?;
    Ok((reader.records, reader.skipped))
}

/// Records read from logs, each file once: a file met again — the same log
/// named twice, or mur's own log given as a session's — adds nothing, so no
/// record is counted twice. Files are told apart by what they are (device and
/// inode on Unix, the canonical path elsewhere), not by the path they were named by.
#[derive(Debug, Default)]
pub struct LogReader {
    pub records: Vec<Record>,
    /// Lines that were not records.
    pub skipped: usize,
    /// Where they were, file by file, so that a reader of many logs can find them.
    pub skipped_in: Vec<Skipped>,
    /// Each file met again: the path it was met by, and the one it was read by.
    pub repeated: Vec<(PathBuf, PathBuf)>,
    /// Every file read.
    pub read: ReadFiles,
}

/// The lines of one file a [`LogReader`] skipped: the file, as it was read by, how many,
/// and the first one's number (from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub path: PathBuf,
    pub lines: usize,
    pub first_line: usize,
}

/// The files a [`LogReader`] read, each by the path it was read by.
#[derive(Debug, Default)]
pub struct ReadFiles(HashMap<FileId, PathBuf>);

impl ReadFiles {
    /// How many files were read: one more after a read means the log read was new.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The path the file at `path` was read by, when it is one of them (the same file,
    /// whatever name): a file the reader's caller must not write over, as a report's
    /// page would replace the records it was made of.
    pub fn read_as(&self, path: &Path) -> Option<&Path> {
        self.0.get(&FileId::at(path)?).map(PathBuf::as_path)
    }
}

/// What a file is, whatever path names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    Path(PathBuf),
}

impl FileId {
    /// What the file at `path` is (a link followed), `None` when there is none.
    fn at(path: &Path) -> Option<Self> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = std::fs::metadata(path).ok()?;
            Some(Self::Inode(meta.dev(), meta.ino()))
        }
        #[cfg(not(unix))]
        {
            std::fs::canonicalize(path).ok().map(Self::Path)
        }
    }

    fn of(path: &Path, file: &File) -> Self {
        #[cfg(unix)]
        if let Ok(meta) = file.metadata() {
            use std::os::unix::fs::MetadataExt;
            return Self::Inode(meta.dev(), meta.ino());
        }
        let _ = file;
        Self::Path(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned()))
    }
}

impl LogReader {
    /// Reads the records of `logs` (each with its rotated files) not read yet.
    /// A log with no file at all is an error; so is one that cannot be read.
    pub fn read(&mut self, logs: &[UsageLog]) -> Result<(), Error> {
        self.read_checked(logs, |_, _| Ok(()))
    }

    /// [`LogReader::read`], each file first asked of by `check` (its path, and what the
    /// handle about to be read is: a log in another's reach may have any size): its
    /// `Err` is the log's error, in the reader's class. Asked of the open file, not of
    /// the name, which could be another file by the time it was read.
    pub fn read_checked(
        &mut self,
        logs: &[UsageLog],
        check: impl Fn(&Path, &std::fs::Metadata) -> Result<(), String>,
    ) -> Result<(), Error> {
        for log in logs {
            // Every file opened before any is read: a writer rotating the log
            // meanwhile moves no record out of reach ([`UsageLog::opened_files`]).
            let opened = log.opened_files()?;
            if opened.is_empty() {
                let message = format!("no usage log at `{}`", log.path.display());
                return Err(Error::new(log.reading, message));
            }
            for (path, file) in opened {
                let meta = file.metadata().map_err(|e| {
                    Error::new(
                        log.reading,
                        format!("cannot read `{}`: {e}", path.display()),
                    )
                })?;
                check(&path, &meta).map_err(|why| Error::new(log.reading, why))?;
                self.read_file(&path, file, log.reading)?;
            }
        }
        Ok(())
    }

    fn read_file(&mut self, path: &Path, file: File, class: Class) -> Result<(), Error> {
        let cannot =
            |e: io::Error| Error::new(class, format!("cannot read `{}`: {e}", path.display()));
        let id = FileId::of(path, &file);
        if let Some(first) = self.read.0.get(&id) {
            self.repeated.push((path.to_owned(), first.clone()));
            return Ok(());
        }
        self.read.0.insert(id, path.to_owned());
        let mut reader = BufReader::new(file);
        let mut line = Vec::new();
        let mut skipped = Skipped {
            path: path.to_owned(),
            lines: 0,
            first_line: 0,
        };
        let mut number = 0;
        while let Some(whole) = next_line(&mut reader, &mut line, MAX_LINE).map_err(cannot)? {
            number += 1;
            // Each record's time in mur's own form, which sorts as time does.
            let record = serde_json::from_slice::<Record>(&line)
                .ok()
                .filter(|r| whole && r.schema == crate::record::SCHEMA)
                .and_then(Record::sound);
            match record {
                Some(record) => self.records.push(record),
                None if whole && line.iter().all(u8::is_ascii_whitespace) => {}
                None => {
                    self.skipped += 1;
                    skipped.lines += 1;
                    if skipped.first_line == 0 {
                        skipped.first_line = number;
                    }
                }
            }
        }
        if skipped.lines > 0 {
            self.skipped_in.push(skipped);
        }
        Ok(())
    }
}

/// Reads the next line of `reader` into `line` (without its newline): `None`
/// at the end, `Some(false)` for a line longer than `max` bytes, which is
/// passed over without being kept (`line` is then empty).
fn next_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<bool>> {
    line.clear();
    let mut read_any = false;
    let mut too_long = false;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(read_any.then_some(!too_long));
        }
        read_any = true;
        let end = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..end.unwrap_or(available.len())];
        if !too_long && line.len() + chunk.len() > max {
            too_long = true;
            line.clear();
        }
        if !too_long {
            line.extend_from_slice(chunk);
        }
        let used = chunk.len() + usize::from(end.is_some());
        reader.consume(used);
        if end.is_some() {
            return Ok(Some(!too_long));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Outcome, Side, Surface};

    fn record(n: u32) -> Record {
        let mut r = Record::new(Side::Cli, Surface::Cli, Outcome::Ok, 1.0);
        r.verb = Some(format!("verb-{n}"));
        r
    }

    #[test]
    fn rotation_keeps_every_line_and_at_most_four_old_files() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut log = UsageLog::at(dir.path().join("usage.jsonl"));
        log.max_bytes = 600;
        for n in 0..12 {
            log.append(&record(n)).unwrap_or_else(|e| panic!("{e}"));
        }
        let (records, skipped) = read_logs(std::slice::from_ref(&log)).unwrap_or_default();
        assert_eq!(skipped, 0);
        let names: Vec<_> = records.iter().filter_map(|r| r.verb.clone()).collect();
        assert!(log.files().len() > 1, "rotated: {:?}", log.files());
        // Oldest first, nothing lost until more than four old files exist.
        assert_eq!(names.last().map(String::as_str), Some("verb-11"));
        assert!(
            names
                .windows(2)
                .all(|w| w[0] < w[1] || w[0].len() < w[1].len()),
            "{names:?}"
        );
    }

    /// The rotation's lock is private as every file of the usage directory (0600, as
    /// docs/usage.md says), whatever the umask (review 407 #6).
    #[test]
    fn the_rotations_lock_is_private() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let log = UsageLog::at(dir.path().join("usage.jsonl"));
        log.append(&record(0)).unwrap_or_else(|e| panic!("{e}"));
        log.rotate_now();
        let lock = std::fs::metadata(dir.path().join("usage.lock")).map(|m| m.permissions().mode());
        assert_eq!(lock.map(|mode| mode & 0o777).ok(), Some(0o600));
    }

    /// An append fails in two ways a caller says apart: its record lost (the log's
    /// place is a directory), or written and only the rotation after it failed (its
    /// lock's place is a directory): "this call is not recorded" would be false.
    #[test]
    fn an_append_says_whether_its_record_was_written() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let lost = UsageLog::at(dir.path().join("lost.jsonl"));
        std::fs::create_dir(lost.path()).unwrap_or_else(|e| panic!("{e}"));
        let e = lost.append(&record(0)).err();
        assert_eq!(e.map(|e| e.record_written()), Some(false));
        let mut kept = UsageLog::at(dir.path().join("kept.jsonl"));
        kept.max_bytes = 0;
        std::fs::create_dir(kept.path().with_extension("lock")).unwrap_or_else(|e| panic!("{e}"));
        let e = kept.append(&record(1)).err();
        assert_eq!(
            e.map(|e| (e.record_written(), e.message().starts_with("cannot rotate"))),
            Some((true, true))
        );
        let (records, _) = read_logs(&[kept]).unwrap_or_default();
        assert_eq!(records.len(), 1);
    }

    #[test]
    fn a_line_too_long_to_be_a_record_is_skipped_without_being_held() {
        let text = format!("a\n{}\n\nb", "x".repeat(50));
        let mut reader = BufReader::with_capacity(8, text.as_bytes());
        let mut line = Vec::new();
        let mut seen = Vec::new();
        while let Some(whole) = next_line(&mut reader, &mut line, 10).unwrap_or_default() {
            seen.push((whole, String::from_utf8_lossy(&line).into_owned()));
            assert!(line.capacity() <= 16, "held {}", line.capacity());
        }
        let expected = [(true, "a"), (false, ""), (true, ""), (true, "b")];
        assert_eq!(seen, expected.map(|(w, l)| (w, l.to_owned())));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_a_logs_place_is_refused_not_waited_on() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("usage.jsonl");
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let log = UsageLog::at(path);
        // No reader: the open fails at once (ENXIO) instead of waiting for one.
        let written = log.append(&record(1));
        assert!(written.is_err(), "{written:?}");
        let read = read_logs(&[log]);
        assert!(
            read.as_ref()
                .is_err_and(|e| e.message().ends_with("it is a FIFO, not a regular file")),
            "{read:?}"
        );
    }

    /// A log of one record, then `torn`: a last line a writer cut off (its directory
    /// is kept while the log is used).
    fn torn_log(torn: &[u8]) -> (tempfile::TempDir, UsageLog) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let log = UsageLog::at(dir.path().join("usage.jsonl"));
        log.append(&record(1)).unwrap_or_else(|e| panic!("{e}"));
        let mut file = log.open().unwrap_or_else(|e| panic!("{e}"));
        file.write_all(torn).unwrap_or_else(|e| panic!("{e}"));
        (dir, log)
    }

    #[test]
    fn a_torn_line_is_skipped_and_counted() {
        let (_dir, log) = torn_log(b"{\"schema\":\"mur-usage/1\",\"ti");
        let (records, skipped) = read_logs(std::slice::from_ref(&log)).unwrap_or_default();
        assert_eq!((records.len(), skipped), (1, 1));
        // And where: the file and the line, so that one of many logs can be found.
        let mut reader = LogReader::default();
        reader
            .read(std::slice::from_ref(&log))
            .unwrap_or_else(|e| panic!("{e}"));
        let skipped = Skipped {
            path: log.path().to_owned(),
            lines: 1,
            first_line: 2,
        };
        assert_eq!(reader.skipped_in, [skipped]);
    }

    /// A record appended after a torn last line starts a line of its own: only the
    /// torn line is skipped, not the record after it.
    #[test]
    fn a_record_after_a_torn_line_is_kept() {
        let (_dir, log) = torn_log(b"{\"schema\":\"mur-usage/1\",\"time\":\"2026-11-29T11:1");
        log.append(&record(2)).unwrap_or_else(|e| panic!("{e}"));
        log.append(&record(3)).unwrap_or_else(|e| panic!("{e}"));
        let (records, skipped) = read_logs(&[log]).unwrap_or_default();
        let names: Vec<_> = records.iter().filter_map(|r| r.verb.clone()).collect();
        assert_eq!(
            (names, skipped),
            (
                vec![
                    "verb-1".to_owned(),
                    "verb-2".to_owned(),
                    "verb-3".to_owned()
                ],
                1
            )
        );
    }

    /// A rotation between opening a log's files and reading them (a writer crossing
    /// the limit while a report reads) moves no record out of reach: the files are
    /// read from the handles opened, wherever the rotation moved them. Read by name
    /// after the rotation, the records of the live file, renamed `.1`, would be read
    /// where `.1`'s were, and `.1`'s (now `.2`) never.
    #[test]
    fn a_rotation_while_a_log_is_read_loses_no_record() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut log = UsageLog::at(dir.path().join("usage.jsonl"));
        log.max_bytes = 250;
        // A rotated file and a live one, with records in each.
        let mut n = 0;
        while !log.path.exists() || log.files().len() < 2 {
            log.append(&record(n)).unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
        let written: Vec<String> = (0..n).map(|n| format!("verb-{n}")).collect();
        let opened = log.opened_files().unwrap_or_else(|e| panic!("{e}"));
        // A writer rotates now: the live file becomes `.1`, `.1` becomes `.2`.
        log.rotate_now();
        let mut reader = LogReader::default();
        for (path, file) in opened {
            reader
                .read_file(&path, file, Class::Internal)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let names: Vec<String> = reader
            .records
            .iter()
            .filter_map(|r| r.verb.clone())
            .collect();
        assert_eq!(names, written);
        assert!(reader.repeated.is_empty(), "{:?}", reader.repeated);
        // Opened after the rotation, the same records, once each.
        let (records, _) = read_logs(std::slice::from_ref(&log)).unwrap_or_default();
        let names: Vec<String> = records.iter().filter_map(|r| r.verb.clone()).collect();
        assert_eq!(names, written);
    }

    #[test]
    fn a_record_of_no_real_time_or_duration_is_skipped_and_counted() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let log = UsageLog::at(dir.path().join("usage.jsonl"));
        log.append(&record(1)).unwrap_or_else(|e| panic!("{e}"));
        let real = "2026-01-01T10:00:00.000Z";
        let bad_ones = [
            ("zzzz", 1.0),
            ("9999-99-99", 1.0),
            ("", 1.0),
            (real, 1e308),
            (real, -1.0),
            // A clock not yet set: the log would seem to reach back past every window.
            ("1970-01-01T00:00:05.000Z", 1.0),
            ("0000-01-01T00:00:00Z", 1.0),
        ];
        for (time, ms) in bad_ones {
            let mut bad = record(2);
            bad.time = time.to_owned();
            bad.ms = ms;
            log.append(&bad).unwrap_or_else(|e| panic!("{e}"));
        }
        let (records, skipped) = read_logs(&[log]).unwrap_or_default();
        let names: Vec<_> = records.iter().filter_map(|r| r.verb.clone()).collect();
        assert_eq!((names, skipped), (vec!["verb-1".to_owned()], 7));
    }

    /// A time of another fraction (none, or microseconds) is read in mur's form, so
    /// the records of a log sort by time as strings: `…:00Z` is before `…:00.500Z`.
    #[test]
    fn a_records_time_is_read_in_murs_form() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let log = UsageLog::at(dir.path().join("usage.jsonl"));
        for time in [
            "2026-01-01T10:00:00Z",
            "2026-01-01T10:00:00.5Z",
            "2026-01-01T10:00:00.250999Z",
        ] {
            let mut r = record(1);
            r.time = time.to_owned();
            log.append(&r).unwrap_or_else(|e| panic!("{e}"));
        }
        let (records, skipped) = read_logs(&[log]).unwrap_or_default();
        let times: Vec<&str> = records.iter().map(|r| r.time.as_str()).collect();
        assert_eq!(
            (times, skipped),
            (
                vec![
                    "2026-01-01T10:00:00.000Z",
                    "2026-01-01T10:00:00.500Z",
                    "2026-01-01T10:00:00.250Z"
                ],
                0
            )
        );
    }

    #[test]
    fn a_file_named_twice_or_by_another_path_is_read_once() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("usage.jsonl");
        let log = UsageLog::at(path.clone());
        log.append(&record(1)).unwrap_or_else(|e| panic!("{e}"));
        let other = UsageLog::at(dir.path().join(".").join("usage.jsonl"));
        let mut reader = LogReader::default();
        reader
            .read(std::slice::from_ref(&log))
            .unwrap_or_else(|e| panic!("{e}"));
        reader
            .read(&[log.clone(), other])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(reader.records.len(), 1);
        let firsts: Vec<&PathBuf> = reader.repeated.iter().map(|(_, first)| first).collect();
        assert_eq!(firsts, [&path, &path]);
        let (records, _) = read_logs(&[log.clone(), log]).unwrap_or_default();
        assert_eq!(records.len(), 1);
    }

    #[test]
    fn a_log_in_a_directory_that_does_not_exist_is_refused_not_made() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let missing = dir.path().join("no").join("such");
        let log = UsageLog::at(missing.join("served.jsonl"));
        let refused = log.ready().expect_err("refused");
        assert_eq!(refused.class(), Class::Usage);
        assert_eq!(
            refused.message(),
            format!(
                "cannot write the usage log `{}`: the directory `{}` does not exist",
                log.path().display(),
                missing.display()
            )
        );
        assert!(!dir.path().join("no").exists(), "made");
        assert_eq!(
            check_log_path(log.path()).map_err(|e| e.class()),
            Err(Class::Usage)
        );
        // In a directory that exists: made, as it always was.
        let log = UsageLog::at(dir.path().join("served.jsonl"));
        log.ready().unwrap_or_else(|e| panic!("{e}"));
        assert!(log.path().is_file());
    }

    #[test]
    fn a_read_failure_is_the_callers_for_a_named_log_and_murs_for_its_own() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("none.jsonl");
        let class = |log: UsageLog| read_logs(&[log]).map(drop).map_err(|e| e.class());
        assert_eq!(class(UsageLog::named(path.clone())), Err(Class::Usage));
        assert_eq!(class(UsageLog::at(path)), Err(Class::Internal));
        // A directory in a marker's place: the switch cannot be made, mur's own failure.
        let usage = UsageDir::at(dir.path().join("usage"));
        std::fs::create_dir_all(usage.path().join("off")).unwrap_or_else(|e| panic!("{e}"));
        let switched = usage.switch(true, false).map_err(|e| e.class());
        assert_eq!(switched, Err(Class::Internal));
    }

    #[cfg(unix)]
    #[test]
    fn a_sessions_log_that_is_no_regular_file_is_set_apart_with_why() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let usage = dir.path().join("usage");
        std::fs::create_dir(&usage).unwrap_or_else(|e| panic!("{e}"));
        let fine = UsageLog::at(usage.join("0123456789abcdef.jsonl"));
        fine.append(&record(1)).unwrap_or_else(|e| panic!("{e}"));
        let made = std::process::Command::new("mkfifo")
            .arg(usage.join("fedcba9876543210.jsonl"))
            .status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        std::os::unix::fs::symlink(fine.path(), usage.join("1111111111111111.jsonl"))
            .unwrap_or_else(|e| panic!("{e}"));
        let (logs, refused) = session_logs(&usage);
        let paths: Vec<&Path> = logs.iter().map(UsageLog::path).collect();
        assert_eq!(paths, [fine.path()]);
        assert_eq!(refused.len(), 2, "{refused:?}");
        assert!(
            refused[0].ends_with("is a symbolic link, not a regular file"),
            "{refused:?}"
        );
        assert!(
            refused[1].ends_with("is a FIFO, not a regular file"),
            "{refused:?}"
        );
        // A directory others may write to is not read at all.
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&usage, std::fs::Permissions::from_mode(0o777))
            .unwrap_or_else(|e| panic!("{e}"));
        let (logs, refused) = session_logs(&usage);
        assert!(logs.is_empty() && refused.len() == 1, "{refused:?}");
    }

    /// A session's log is held to the rule of every file in the lockfile directory
    /// (mur_lockfile::check_own): the user's own, and no one else's to write. One
    /// others may write to was read before, and a directory and logs all of another
    /// user's (the directory's owner was what the logs were compared with).
    #[cfg(unix)]
    #[test]
    fn a_sessions_log_others_may_write_or_another_users_is_set_apart_with_why() {
        use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let usage = dir.path().join("usage");
        mur_lockfile::ensure_private_dir(&usage, "usage").unwrap_or_else(|e| panic!("{e}"));
        let fine = UsageLog::at(usage.join("0123456789abcdef.jsonl"));
        let open = UsageLog::at(usage.join("fedcba9876543210.jsonl"));
        for log in [&fine, &open] {
            log.append(&record(1)).unwrap_or_else(|e| panic!("{e}"));
        }
        let mode = |path: &Path, mode| {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
                .unwrap_or_else(|e| panic!("{e}"));
        };
        mode(open.path(), 0o666);
        let (logs, refused) = session_logs(&usage);
        let paths: Vec<&Path> = logs.iter().map(UsageLog::path).collect();
        assert_eq!(paths, [fine.path()]);
        let open_shown = open.path().display();
        assert_eq!(
            refused,
            [format!(
                "`{open_shown}` is writable by group or others (mode 666)"
            )]
        );
        // Another user's: only root can give a file away to make one.
        let you = std::fs::metadata(&usage).map_or(1, |m| m.uid());
        if you != 0 {
            return;
        }
        mode(open.path(), 0o600);
        let nobody = Some(65534);
        std::os::unix::fs::chown(open.path(), nobody, None).unwrap_or_else(|e| panic!("{e}"));
        let (_, refused) = session_logs(&usage);
        assert_eq!(
            refused,
            [format!(
                "`{open_shown}` is owned by uid 65534, not by you (uid 0)"
            )]
        );
        for path in [&usage, fine.path()] {
            std::os::unix::fs::chown(path, nobody, None).unwrap_or_else(|e| panic!("{e}"));
        }
        let (logs, refused) = session_logs(&usage);
        assert!(logs.is_empty(), "{logs:?}");
        assert_eq!(
            refused,
            [format!(
                "`{}` is owned by uid 65534, not by you (uid 0): its logs are not read",
                usage.display()
            )]
        );
    }
}
