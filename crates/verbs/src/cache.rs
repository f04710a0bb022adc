//! The compile cache: verbs are compiled once (at `verbs add`, or the first call
//! after a change) and later calls map the native code instead.
//!
//! Layout: `<cache dir>/<sha256 of the .wasm>-<FNV-1a of the format and engine>.cwasm`.
//! The file hash is the one recorded in the index at install, so a changed verb
//! gets a new key and is never served stale; the second part changes with this
//! file's [`FORMAT`], the wasmtime version, the settings that shape code (fuel)
//! and the architecture, so a new `mur` never loads code written by an old one.
//! Each entry is exactly wasmtime's serialized component (an ELF image), so that
//! a call maps it ([`Component::deserialize_file`]) rather than reading it: the pages
//! a call touches come from the page cache, and the memory images of a big
//! verb (the interpreter heap of a JavaScript or Python verb, tens of MB) are
//! mapped copy-on-write from the file instead of being copied.
//!
//! What is checked, and when:
//! - on write ([`CodeCache::store`]): the entry is written whole or not at all
//!   (a temporary file, fsynced, renamed into place) and then mapped back once
//!   through the same path a call takes; an entry that does not load is
//!   removed. The write also removes what no `mur` of this version reads of
//!   this verb file: entries in the format before this one (`murverb2`: a
//!   header and a CRC-32 around the same bytes), entries under the keys
//!   before this one (a SHA-256 or a CRC-32 engine part); and of every verb,
//!   entries under another engine's key unmapped for a month (what an upgrade
//!   leaves) and temporary files a killed `mur` left;
//! - on every call ([`CodeCache::load`]): the entry must be a regular file, not
//!   a link, FIFO or device, of at most [`MAX_ENTRY_BYTES`]; then wasmtime
//!   checks its ELF structure, version and settings. A truncated entry fails
//!   that check (its section table is gone), and so does a scribbled header or
//!   an entry of another format. Anything refused is a miss: removed and
//!   rebuilt, with a warning when it cannot be removed. An entry that cannot be
//!   mapped (a cache on a file system mounted `noexec`) but whose bytes wasmtime
//!   takes is read and copied instead, and kept ([`code`]).
//!
//! Who uses it: several verb directories may share one cache, each named in
//! [`USERS`]. Code goes when no named directory uses it, every named one can be
//! read, and no directory the cache does not know of is seen at work
//! ([`CodeCache::sweep`]), or when nothing mapped it for a month: a named
//! directory that cannot be read (a broken entry) holds back all code at once,
//! but not the month rule, which keeps what it maps. The month rule is applied
//! by a `verbs add` or `verbs remove` that succeeds and by a call that takes a
//! rebuilt file ([`CodeCache::release`]), never by a warm call. A named path
//! that holds no directory any more (deleted; a file, FIFO, socket or device in
//! its place) is forgotten; a link to a directory there is followed
//! ([`CodeCache::other_users`]).
//!
//! There is no per-call checksum any more: it meant reading the whole entry
//! (~40 MB for a JavaScript verb, 20–40 ms with the CRC) on every call, more
//! than everything else a warm call does. A byte scribbled inside the code
//! itself is therefore not noticed. What keeps that out is the directory:
//! private to this user or not used at all ([`mur_lockfile::ensure_private_dir`]),
//! and only ever written by [`CodeCache::store`] — anyone who can scribble
//! there can already run code as this user.

use std::fs::File;
use std::hash::Hasher;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use wasmtime::Engine;
use wasmtime::component::Component;

use mur_core::sha256_hex;

use super::bounded::{Links, MAX_COMPONENT_BYTES, Refusal, Regular, read_capped};
use super::index::{installed_sha256s, write_atomic};
use super::timings::{self, Phase};

/// The layout of an entry, part of its key: changed whenever the bytes of an
/// entry mean something else, so entries of another layout are never opened.
/// (1: wasmtime's serialized component, whole, mapped.)
const FORMAT: &str = "mur-cwasm-1";

/// The first bytes of an entry in the layout before [`FORMAT`] 1 (`murverb2`,
/// a CRC-32 and a length ahead of wasmtime's bytes): such entries are removed
/// when their verb is compiled again.
const OLD_MAGIC: &[u8; 8] = b"murverb2";

/// The largest entry read or written. Native code runs a few times the size of
/// the component it came from (a 40 MB Python verb compiles to about twice
/// that), so four times the largest component mur accepts; a bigger entry is
/// not one mur wrote, and is rebuilt rather than read.
pub const MAX_ENTRY_BYTES: u64 = 4 * MAX_COMPONENT_BYTES;

/// The on-disk cache of compiled verbs; disabled when its directory is unsafe.
pub struct CodeCache {
    dir: Option<PathBuf>,
}

impl CodeCache {
    /// Open (creating, mode 0700) the cache directory. A directory that others
    /// could write to is not used at all: mapping code from it would let them
    /// run arbitrary native code as this user.
    pub fn open(dir: &Path) -> Self {
        match private_dir(dir) {
            Ok(()) => Self {
                dir: Some(dir.to_owned()),
            },
            Err(why) => {
                tracing::warn!("not caching compiled verbs in `{}`: {why}", dir.display());
                Self { dir: None }
            }
        }
    }

    /// Cache key for a verb file with this sha256, compiled by this engine into
    /// entries of this [`FORMAT`].
    ///
    /// The second part is a 64-bit FNV-1a of the format and the engine's
    /// settings: it tells apart the few engines that share a cache directory,
    /// and wasmtime checks an entry's settings again when mapping it, so a
    /// collision costs a recompile, never wrong code. FNV because it is stable
    /// across Rust versions (std's `DefaultHasher` is not) and plain code: a
    /// SHA-256 here cost a warm call ~40 µs (its CPU probe, two `cpuid`s, each
    /// a VM exit on a guest), and crc32fast's SIMD choice ran std's whole CPU
    /// probe (~9 `cpuid`s, ~80 µs).
    pub fn key(engine: &Engine, sha256: &str) -> String {
        let mut hasher = fnv::FnvHasher::default();
        hasher.write(FORMAT.as_bytes());
        // The engine that runs verbs has no compiler, so its hash leaves out the
        // target and the compiler's flags: the target is the architecture and OS
        // (this build's own flags come with them), and wasmtime checks an entry's
        // flags against the CPU when it maps it.
        hasher.write(std::env::consts::ARCH.as_bytes());
        hasher.write(std::env::consts::OS.as_bytes());
        std::hash::Hash::hash(&engine.precompile_compatibility_hash(), &mut hasher);
        format!("{sha256}-{:016x}", hasher.finish())
    }

    /// The cached component for `key`, if a sound entry exists. Anything else
    /// at its path is a miss: removed, so that the rebuilt entry can take its
    /// place.
    pub fn load(&self, engine: &Engine, key: &str) -> Option<Component> {
        self.load_by(engine, key, map)
    }

    /// [`CodeCache::load`], mapping an entry with `map`.
    fn load_by(&self, engine: &Engine, key: &str, map: Mapper) -> Option<Component> {
        let path = self.entry_path(key)?;
        let opened = timings::measure(Phase::CacheLookup, || open_entry(&path));
        let file = match opened {
            Ok(file) => file,
            Err(refusal) if refusal.is_not_found() => return None,
            Err(Refusal::Io(e)) => {
                // Unreadable (permissions): storing the rebuilt entry renames over it.
                tracing::debug!("cannot read cache entry `{}`: {e}", path.display());
                return None;
            }
            Err(refusal) => {
                discard(&path, &refusal.to_string());
                return None;
            }
        };
        match timings::measure(Phase::Deserialize, || code(engine, &path, &file, map)) {
            Ok(component) => Some(component),
            Err(why) => {
                discard(&path, &format!("is unusable ({why})"));
                None
            }
        }
    }

    /// Save a compiled component's image (what `Component::serialize` made), then
    /// map it back through `engine` as every later call will, which is the check
    /// that it loads: an entry that does not is removed.
    /// Returns the mapped component, or `None` when nothing was cached
    /// (failures only cost a recompile later). Then what no `mur` of this
    /// version reads is collected ([`CodeCache::collect`]).
    pub fn store(&self, engine: &Engine, key: &str, image: &[u8]) -> Option<Component> {
        self.store_by(engine, key, image, map)
    }

    /// [`CodeCache::store`], mapping the entry back with `map`.
    fn store_by(&self, engine: &Engine, key: &str, image: &[u8], map: Mapper) -> Option<Component> {
        let path = self.entry_path(key)?;
        if image.len() as u64 > MAX_ENTRY_BYTES {
            // It would be refused when read: compiling each time is the same cost.
            tracing::debug!("not caching a compiled verb of {} bytes", image.len());
            return None;
        }
        if let Err(e) = write_atomic(&path, image) {
            tracing::debug!("could not cache a compiled verb: {e}");
            return None;
        }
        let loaded = open_entry(&path)
            .map_err(|refusal| refusal.to_string())
            .and_then(|file| code(engine, &path, &file, map));
        self.collect(key);
        match loaded {
            Ok(mapped) => Some(mapped),
            Err(why) => {
                discard(&path, &format!("does not load back ({why})"));
                None
            }
        }
    }

    fn entry_path(&self, key: &str) -> Option<PathBuf> {
        Some(self.dir.as_ref()?.join(format!("{key}.cwasm")))
    }

    /// Remove, after storing the entry `key`, what no `mur` of this version
    /// reads: of the same verb file, entries in the layout before [`FORMAT`] 1
    /// and entries under the keys of earlier `mur`s (a SHA-256 or CRC-32 engine
    /// part: [`superseded_key`]); of any verb, entries under another engine's
    /// key unused for [`UNUSED_OTHER_ENGINE`], and temporary files a `mur` killed
    /// mid-write left ([`stale_temporary`]). A JavaScript or Python verb's entry
    /// is tens of MB, and a call never looks at another key's, so nothing else
    /// would ever remove them.
    fn collect(&self, key: &str) {
        let Some((sha256, engine)) = key.split_once('-') else {
            return;
        };
        let Some(entries) = self
            .dir
            .as_ref()
            .and_then(|dir| std::fs::read_dir(dir).ok())
        else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            let gone = match name.strip_suffix(".cwasm") {
                Some(stem) => {
                    let (sha, other) = stem.split_once('-').unwrap_or((stem, ""));
                    (sha == sha256 && (superseded_key(stem) || starts_with_old_magic(&path)))
                        || (other != engine && unused_for(&entry, UNUSED_OTHER_ENGINE))
                }
                None => stale_temporary(&name, &entry),
            };
            if gone {
                let _ = std::fs::remove_file(path);
            }
        }
    }

    /// Drop the entries no verb directory sharing this cache uses, as `verbs add`,
    /// `verbs remove` and [`CodeCache::release`] judge it: of a file with none of
    /// the sha256s `used`, an entry is removed when its sha256 is one of `dropped`
    /// (what the command itself replaced, removed or compiled without installing,
    /// or what a rebuild taken by a call replaced) or, given `idle`, when it went
    /// unmapped that long (what a verb directory since deleted, or one that never
    /// said it uses the cache, left). Stale temporary files go too.
    ///
    /// `dropped` goes at once only while no verb directory the cache does not know
    /// of is seen at work ([`stranger_at_work`]): one only an older `mur` used
    /// (before verb directories were named in the cache) may use the same file,
    /// and would compile it again inside a call (36 s for a Python verb). Then
    /// `dropped` waits for `idle` as the rest does. Returns how many were removed.
    pub fn sweep(
        &self,
        used: &[&str],
        dropped: &[&str],
        idle: Option<std::time::Duration>,
    ) -> usize {
        let Some(dir) = &self.dir else { return 0 };
        let Ok(listing) = std::fs::read_dir(dir) else {
            return 0;
        };
        let entries: Vec<std::fs::DirEntry> = listing.flatten().collect();
        let dropped = match stranger_at_work(&entries, used, dropped) {
            Some(name) => {
                tracing::debug!(
                    "`{name}` is in use by a verb directory the cache does not know of: \
                     what was dropped stays until unused for a month"
                );
                &[][..]
            }
            None => dropped,
        };
        let mut removed = 0;
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            let unused = match name.strip_suffix(".cwasm") {
                Some(stem) => {
                    let sha256 = sha256_of(stem);
                    !used.contains(&sha256)
                        && (dropped.contains(&sha256)
                            || idle.is_some_and(|age| unused_for(&entry, age)))
                }
                None => stale_temporary(&name, &entry),
            };
            if unused && std::fs::remove_file(entry.path()).is_ok() {
                removed += 1;
            }
        }
        removed
    }

    /// Remove at once the compiled code of the file with this sha256, which the
    /// verb directory `verbs` stopped using (a verb's file rebuilt in place, or a
    /// file refused after its compile), where no verb directory sharing the cache
    /// uses it: `here` are the sha256s `verbs` still uses, and the others' are read
    /// from theirs ([`CodeCache::other_users`]). As [`CodeCache::sweep`] judges it,
    /// under the lock `verbs add` holds while its work is not installed
    /// ([`SWEEP_LOCK`]): nothing goes while one is at work (it may have compiled this
    /// very file), nor while another verb directory cannot be read.
    ///
    /// What stays goes once unused for [`UNUSED_OTHER_ENGINE`], and a release applies
    /// that month rule too, as the sweep of `verbs add` and `verbs remove` does: in
    /// the edit-build loop (each rebuild copied over the installed file and taken by
    /// a call, which compiles it, and calls this) no command may run for months, and
    /// while another verb directory cannot be read every rebuild's code stayed, tens
    /// of MB each for a JavaScript or Python verb, until one did. A release runs only
    /// when a call takes a changed file, never on a warm call.
    pub(crate) fn release(&self, verbs: &Path, here: &[String], sha256: &str) {
        let Some(lock) = self.dir.as_deref().and_then(open_lock) else {
            return;
        };
        if lock.try_lock().is_err() {
            tracing::debug!("a `verbs add` is at work: compiled code stays for its sweep");
            return;
        }
        let theirs = self.other_users(verbs);
        let dropped: &[&str] = match theirs {
            Some(_) => &[sha256],
            None => &[],
        };
        let used: Vec<&str> = here
            .iter()
            .chain(theirs.iter().flatten())
            .map(String::as_str)
            .collect();
        self.sweep(&used, dropped, Some(UNUSED_OTHER_ENGINE));
    }

    /// Name the verb directory `verbs` among the users of the cache ([`USERS`]), so
    /// that the sweeps of the others keep the code it uses: after `verbs add` and
    /// `verbs remove`, and by a call that compiles (in a directory only called in
    /// since an older `mur` installed its verbs). Best effort: a directory not named
    /// keeps its code while it maps it, but may lose a file it shares with a named
    /// one (one compile).
    pub(crate) fn record_user(&self, verbs: &Path) {
        let Some(dir) = &self.dir else { return };
        let Some(path) = canonical(verbs).to_str().map(str::to_owned) else {
            return;
        };
        let users = dir.join(USERS);
        let record = users.join(format!("{}.path", &sha256_hex(path.as_bytes())[..32]));
        if record.exists() {
            return;
        }
        let recorded = std::fs::create_dir_all(&users)
            .map_err(|e| e.to_string())
            .and_then(|()| write_atomic(&record, path.as_bytes()).map_err(|e| e.to_string()));
        if let Err(e) = recorded {
            tracing::debug!("cannot name the verb directory in the compile cache: {e}");
        }
    }

    /// The sha256s of the verbs installed in every verb directory named in the
    /// cache ([`CodeCache::record_user`]) but `verbs`. One whose path now names
    /// no directory holds no verbs, and is forgotten: deleted, under a folder that
    /// became a file, replaced by a file, a FIFO, a socket or a device, or by a link
    /// to nothing or to any of those. A link to a directory in its place is that
    /// directory: its verbs are read through the link, as they always were (a
    /// named path is canonical, so a link there was put in since). `None` when one
    /// of them cannot be read (a broken entry, a folder it may not search): what it
    /// uses is not known, so nothing goes at once, and it stays named. Its code is
    /// kept from the month rule only by being mapped, as a stranger's is.
    pub(crate) fn other_users(&self, verbs: &Path) -> Option<Vec<String>> {
        let ours = canonical(verbs);
        let records = self
            .dir
            .as_ref()
            .map(|dir| std::fs::read_dir(dir.join(USERS)));
        let Some(Ok(records)) = records else {
            return Some(Vec::new());
        };
        let mut used = Vec::new();
        for record in records.flatten() {
            let Ok(path) = read_capped(&record.path(), Links::Refuse, 4096) else {
                continue;
            };
            let Ok(path) = String::from_utf8(path).map(PathBuf::from) else {
                continue;
            };
            if path == ours || !path.is_absolute() {
                continue;
            }
            // Judged by `stat`, a link followed and nothing opened (a FIFO would block).
            match std::fs::metadata(&path) {
                Err(e) if no_directory_there(&e) => {
                    tracing::debug!("the verb directory `{}` is gone", path.display());
                    let _ = std::fs::remove_file(record.path());
                }
                Ok(meta) if !meta.is_dir() => {
                    let kind = match meta.is_file() {
                        true => "a file",
                        false => mur_lockfile::describe_file_type(&meta),
                    };
                    tracing::debug!("the verb directory `{}` is now {kind}", path.display());
                    let _ = std::fs::remove_file(record.path());
                }
                _ => used.extend(installed_sha256s(&path)?),
            }
        }
        Some(used)
    }

    /// The bytes of compiled code kept for the file with this sha256 (all
    /// engines), for `verbs info`.
    pub fn compiled_bytes(&self, sha256: &str) -> u64 {
        self.entries_of(sha256)
            .filter_map(|entry| entry.metadata().ok())
            .map(|meta| meta.len())
            .sum()
    }

    /// The entries compiled from the file with this sha256.
    fn entries_of(&self, sha256: &str) -> impl Iterator<Item = std::fs::DirEntry> {
        let prefix = format!("{sha256}-");
        self.dir
            .as_ref()
            .and_then(|dir| std::fs::read_dir(dir).ok())
            .into_iter()
            .flatten()
            .flatten()
            .filter(move |entry| entry.file_name().to_string_lossy().starts_with(&prefix))
    }
}

/// The entry at `path` opened without following a link and without blocking,
/// if it is a regular file of at most [`MAX_ENTRY_BYTES`] — judged on the
/// open handle, which is the one mapped.
fn open_entry(path: &Path) -> Result<File, Refusal> {
    let regular = Regular::open(path, Links::Refuse)?;
    let size = regular.metadata().len();
    if size > MAX_ENTRY_BYTES {
        return Err(Refusal::TooBig {
            size,
            cap: MAX_ENTRY_BYTES,
        });
    }
    Ok(regular.into_file())
}

/// Map the entry `file` (opened from `path` by [`open_entry`]) as this engine's code.
#[allow(unsafe_code)]
fn map(engine: &Engine, path: &Path, file: &File) -> wasmtime::Result<Component> {
    let mapped = same_file(path, file);
    // SAFETY: `deserialize_file` maps the file and runs what it finds as native
    // code, so it must be wasmtime output for this engine, and must not change
    // while it is mapped (a write would change the code under a running verb; a
    // truncation would fault on the next touch of the lost pages). Both hold:
    // - the file is one this user's `mur` wrote: the directory is private to
    //   this user or not used at all (`private_dir`), and `mapped` is the very
    //   file judged by `open_entry` (a regular file in it, not a link);
    // - `store` only ever writes an entry whole under a temporary name and
    //   renames it into place, so a mapped entry is never written or truncated:
    //   a rebuilt one is a new file, and a removed one lives on while mapped;
    // - it was mapped back once right after it was written (`store`), and
    //   wasmtime checks here that it is an intact ELF image of its own
    //   version and of this engine's settings, and refuses anything else.
    unsafe { Component::deserialize_file(engine, mapped) }
}

/// How an entry is mapped: [`map`], but for tests.
type Mapper = fn(&Engine, &Path, &File) -> wasmtime::Result<Component>;

/// The entry `file` (opened from `path` by [`open_entry`]) as this engine's code:
/// mapped by `map`, or, where that fails but wasmtime takes the entry's bytes, read
/// and copied; else why wasmtime refused it. A map can fail for reasons outside the
/// entry: a cache on a file system mounted `noexec` (code mapped from it cannot be
/// made executable), an address-space limit. The entry was then removed as
/// unusable, and the verb compiled again on every call (36 s for a Python verb);
/// reading it costs a copy of its bytes (~40 MB for a JavaScript verb) instead.
fn code(engine: &Engine, path: &Path, file: &File, map: Mapper) -> Result<Component, String> {
    let unmapped = match map(engine, path, file) {
        Ok(component) => return Ok(component),
        Err(e) => reason(&e),
    };
    match read(engine, file) {
        Ok(component) => {
            let shown = path.display();
            tracing::debug!("cache entry `{shown}` cannot be mapped ({unmapped}): read instead");
            Ok(component)
        }
        Err(_) => Err(unmapped),
    }
}

/// The entry `file` (judged by [`open_entry`]: at most [`MAX_ENTRY_BYTES`]) read
/// whole and copied in as this engine's code.
#[allow(unsafe_code)]
fn read(engine: &Engine, file: &File) -> wasmtime::Result<Component> {
    use std::io::Seek as _;
    let mut file = file;
    file.seek(std::io::SeekFrom::Start(0))?;
    let mut bytes = Vec::new();
    file.take(MAX_ENTRY_BYTES).read_to_end(&mut bytes)?;
    // SAFETY: as for `map`, these are the bytes of an entry this user's `mur`
    // wrote in its private directory, and wasmtime checks that they are an intact
    // image of its own version and this engine's settings. They are a copy: the
    // file changing afterwards changes nothing.
    unsafe { Component::deserialize(engine, &bytes) }
}

/// A freshly compiled image as this engine's code, copied rather than mapped:
/// for when there is no entry to map (no usable cache directory, an image over
/// [`MAX_ENTRY_BYTES`], a failed write).
#[allow(unsafe_code)]
pub fn from_image(engine: &Engine, image: &[u8]) -> wasmtime::Result<Component> {
    // SAFETY: `image` is what this process's wasmtime serialized a moment ago
    // (`Runtime::compile`), with this engine's settings, and it is not shared
    // with anyone; wasmtime checks its structure and settings again.
    unsafe { Component::deserialize(engine, image) }
}

/// The path wasmtime opens to map `file`: on Linux the handle itself
/// (`/proc/self/fd/N` opens the very file behind it, so nothing can be swapped
/// in between the checks and the map); elsewhere its path in the private
/// directory.
fn same_file(path: &Path, file: &File) -> PathBuf {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let by_handle = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
        if by_handle.exists() {
            return by_handle;
        }
    }
    let _ = file;
    path.to_owned()
}

/// The folder of the compile cache where each verb directory that uses it is
/// named: a file per verb directory (`<hash of its path>.path`), holding its
/// path. Several verb directories (a test's or a CI job's `XDG_DATA_HOME`) may
/// share one cache, and a verb file installed in two of them is compiled once.
pub(crate) const USERS: &str = "verb-dirs";

/// The file in the cache directory whose lock orders `verbs add` and the removal
/// of compiled code: a `verbs add` holds it shared from its first compile until
/// its verbs are in the index, and what removes code takes it exclusively,
/// never waiting.
pub(crate) const SWEEP_LOCK: &str = "sweep.lock";

/// The lock file [`SWEEP_LOCK`] in the cache directory `dir`; `None` when it
/// cannot be opened (then nothing is removed: unused code costs only disk).
pub(crate) fn open_lock(dir: &Path) -> Option<File> {
    let path = dir.join(SWEEP_LOCK);
    File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| tracing::debug!("cannot open `{}`: {e}", path.display()))
        .ok()
}

/// The path a verb directory is named by in the cache, and where a file the user
/// named is, from any directory (`verbs info` shows it as the verb's source): its
/// canonical path (links and `..` resolved), else at least an absolute one.
pub(crate) fn canonical(dir: &Path) -> PathBuf {
    std::fs::canonicalize(dir)
        .or_else(|_| std::path::absolute(dir))
        .unwrap_or_else(|_| dir.to_owned())
}

/// Whether looking up a recorded verb directory failed because no directory is
/// there: nothing at its path (or a link to nothing), a folder above it that is a
/// file (`not a directory`), a loop of links. Anything else (a folder it may not
/// search) says nothing of what is there.
fn no_directory_there(e: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ELOOP) {
        return true;
    }
    matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory)
}

/// The sha256 part of an entry's name without `.cwasm` (`<sha256>-<engine>`).
fn sha256_of(stem: &str) -> &str {
    stem.split('-').next().unwrap_or_default()
}

/// The name of an entry that tells a verb directory the cache does not know of
/// is at work, when a sweep would drop code at once: an entry of a file none of
/// the known ones uses (`used`) and the command did not drop, yet mapped (or
/// written) within [`UNUSED_OTHER_ENGINE`]. Such a directory may use what was
/// dropped too. Entries unmapped longer are a deleted directory's: they tell
/// nothing.
fn stranger_at_work(
    entries: &[std::fs::DirEntry],
    used: &[&str],
    dropped: &[&str],
) -> Option<String> {
    if dropped.is_empty() {
        return None;
    }
    entries.iter().find_map(|entry| {
        let name = entry.file_name();
        let stem = name.to_str()?.strip_suffix(".cwasm")?;
        let sha256 = sha256_of(stem);
        let strange = !used.contains(&sha256)
            && !dropped.contains(&sha256)
            && !unused_for(entry, UNUSED_OTHER_ENGINE);
        strange.then(|| stem.to_owned())
    })
}

/// A temporary file of [`mur_lockfile::write_atomic`] older than this was left
/// by a `mur` that died mid-write: writing even a 160 MB entry takes seconds.
const STALE_TEMPORARY: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// How long an entry under another engine's key may go unmapped before a store
/// collects it ([`CodeCache::collect`]): what an upgrade of `mur` (or of its
/// wasmtime) leaves behind. Mapping an entry updates its access time (at most
/// daily under `relatime`); where the file system keeps none (`noatime`) its
/// write time stands in, and another `mur` still using the entry compiles it
/// again, once a month at most.
pub(crate) const UNUSED_OTHER_ENGINE: std::time::Duration =
    std::time::Duration::from_secs(30 * 24 * 3600);

/// Whether `entry` was neither read (mapped) nor written for `age`.
fn unused_for(entry: &std::fs::DirEntry, age: std::time::Duration) -> bool {
    let Ok(meta) = entry.metadata() else {
        return false;
    };
    let last = match (meta.accessed(), meta.modified()) {
        (Ok(read), Ok(written)) => read.max(written),
        (Err(_), Ok(at)) | (Ok(at), Err(_)) => at,
        (Err(_), Err(_)) => return false,
    };
    last.elapsed().is_ok_and(|idle| idle > age)
}

/// Whether `stem` (an entry's name without `.cwasm`) is a key of an earlier
/// `mur`: `<sha256>-<engine>` with a SHA-256 (64 hex digits) or a CRC-32 (8)
/// where this one writes 16.
fn superseded_key(stem: &str) -> bool {
    stem.split_once('-').is_some_and(|(_, engine)| {
        matches!(engine.len(), 64 | 8) && engine.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

/// Whether `name` is an entry's temporary file (`<key>.cwasm.<pid>.<n>.tmp`)
/// untouched for [`STALE_TEMPORARY`].
fn stale_temporary(name: &str, entry: &std::fs::DirEntry) -> bool {
    name.contains(".cwasm.")
        && name.ends_with(".tmp")
        && entry
            .metadata()
            .and_then(|meta| meta.modified())
            .is_ok_and(|at| at.elapsed().is_ok_and(|age| age > STALE_TEMPORARY))
}

/// Whether the file at `path` (not followed if a link) begins with [`OLD_MAGIC`].
fn starts_with_old_magic(path: &Path) -> bool {
    let Ok(regular) = Regular::open(path, Links::Refuse) else {
        return false;
    };
    let mut head = [0u8; OLD_MAGIC.len()];
    regular.into_file().read_exact(&mut head).is_ok() && &head == OLD_MAGIC
}

/// Remove a bad entry so it is rebuilt. One that cannot be removed (a
/// directory in its place) would cost a compile on every call, so that is
/// worth a warning.
fn discard(path: &Path, why: &str) {
    tracing::debug!("cache entry `{}` {why}; rebuilding it", path.display());
    let removed = std::fs::remove_file(path).or_else(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Ok(()),
        _ => std::fs::remove_dir(path).map_err(|_| e),
    });
    if let Err(e) = removed {
        crate::warnings::push(format!(
            "the compile-cache entry `{}` {why}, and cannot be removed ({e}); \
             the verb is compiled afresh on every call until it is",
            path.display()
        ));
    }
}

/// wasmtime's reasons on one line, without the context that names the
/// `/proc/self/fd` path it was given (the caller names the entry).
fn reason(err: &wasmtime::Error) -> String {
    err.chain()
        .map(|cause| cause.to_string())
        .filter(|cause| !cause.starts_with("failed to load code for"))
        .collect::<Vec<_>>()
        .join(": ")
}

/// Create `dir` mode 0700, or check that an existing one is ours and private
/// (the project's one rule: [`mur_lockfile::ensure_private_dir`]). Entries
/// planted while others could write here must not be trusted, so such a
/// directory is refused rather than repaired.
fn private_dir(dir: &Path) -> Result<(), String> {
    mur_lockfile::ensure_private_dir(dir, "compile cache")
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// The smallest component there is: a header and nothing else.
    const EMPTY_COMPONENT: &[u8] = b"\0asm\x0d\0\x01\0";

    const SHA: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    struct Cached {
        _tmp: tempfile::TempDir,
        engine: Engine,
        cache: CodeCache,
        key: String,
        entry: PathBuf,
        good: Vec<u8>,
    }

    /// A private cache directory holding one sound entry.
    fn cached() -> Cached {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("cache");
        let cache = CodeCache::open(&dir);
        let engine = Engine::new(&crate::runtime::config()).expect("engine");
        let component = Component::new(&engine, EMPTY_COMPONENT).expect("compile");
        let key = CodeCache::key(&engine, SHA);
        let image = component.serialize().expect("image");
        assert!(cache.store(&engine, &key, &image).is_some(), "stored");
        let entry = dir.join(format!("{key}.cwasm"));
        let good = std::fs::read(&entry).expect("entry");
        Cached {
            _tmp: tmp,
            engine,
            cache,
            key,
            entry,
            good,
        }
    }

    const HOUR: Duration = Duration::from_secs(3600);
    const DAY: Duration = Duration::from_secs(24 * 3600);

    impl Cached {
        fn load(&self) -> Option<Component> {
            self.cache.load(&self.engine, &self.key)
        }

        /// The image of the entry's component, compiled again as a store is given it.
        fn image(&self) -> Vec<u8> {
            let component = Component::new(&self.engine, EMPTY_COMPONENT).expect("compile");
            component.serialize().expect("image")
        }

        /// The cache directory.
        fn dir(&self) -> &Path {
            self.entry.parent().expect("dir")
        }

        /// Where this engine keeps the code of the verb of SHA-256 `sha`.
        fn entry_of(&self, sha: &str) -> PathBuf {
            let (_, engine) = self.key.split_once('-').expect("a key");
            self.dir().join(format!("{sha}-{engine}.cwasm"))
        }

        /// A verb directory `name` beside the cache, made and recorded as a user of it.
        fn user(&self, name: &str) -> PathBuf {
            let verbs = self._tmp.path().join(name);
            std::fs::create_dir_all(&verbs).expect("a verb directory");
            self.cache.record_user(&verbs);
            verbs
        }

        /// How many verb directories the cache names.
        fn users_named(&self) -> usize {
            std::fs::read_dir(self.dir().join(USERS))
                .expect("records")
                .count()
        }
    }

    #[test]
    fn an_entry_is_wasmtimes_own_image_and_loads_from_the_map() {
        let c = cached();
        assert!(c.good.starts_with(b"\x7fELF"), "no header of mur's own");
        assert!(c.load().is_some());
        assert!(c.load().is_some(), "a load leaves the entry in place");
        assert!(c.key.starts_with(&format!("{SHA}-")));
    }

    #[test]
    fn a_truncated_entry_is_a_miss_and_is_removed() {
        let c = cached();
        for len in [0, 16, 64, c.good.len() / 3, c.good.len() - 1] {
            std::fs::write(&c.entry, &c.good[..len]).expect("truncate");
            assert!(c.load().is_none(), "loaded an entry cut to {len} bytes");
            assert!(!c.entry.exists(), "an entry cut to {len} bytes is kept");
        }
    }

    #[test]
    fn a_scribbled_header_or_section_table_is_a_miss() {
        let c = cached();
        // The ELF magic, where the section table is (e_shoff), and the flags
        // that say it is a component (e_flags).
        for at in [1, 41, 48] {
            let mut scribbled = c.good.clone();
            scribbled[at] ^= 0xff;
            std::fs::write(&c.entry, &scribbled).expect("scribble");
            assert!(c.load().is_none(), "loaded an entry scribbled at {at}");
            assert!(!c.entry.exists(), "kept an entry scribbled at {at}");
        }
    }

    #[test]
    fn an_entry_in_the_old_format_is_a_clean_miss_and_is_cleared_by_a_store() {
        let c = cached();
        let mut old = OLD_MAGIC.to_vec();
        old.extend_from_slice(&crc32fast::hash(&c.good).to_le_bytes());
        old.extend_from_slice(&(c.good.len() as u64).to_le_bytes());
        old.extend_from_slice(&c.good);
        // Even under the new key, an old entry is refused by wasmtime's check.
        std::fs::write(&c.entry, &old).expect("old entry");
        assert!(c.load().is_none());
        assert!(!c.entry.exists());

        // Under its own (old) key it is never opened, and a new store removes it;
        // an entry of another engine that is not in the old format stays.
        let stale = c.dir().join(format!("{SHA}-00000000deadbeef.cwasm"));
        let other_engine = c.dir().join(format!("{SHA}-00000000cafef00d.cwasm"));
        std::fs::write(&stale, &old).expect("old entry");
        std::fs::write(&other_engine, &c.good).expect("other engine");
        assert!(c.cache.store(&c.engine, &c.key, &c.image()).is_some());
        assert!(!stale.exists(), "the old-format entry is removed");
        assert!(other_engine.exists());
        assert!(c.load().is_some());
    }

    /// A file in the cache directory, last read and written `age` ago.
    fn aged(path: &Path, bytes: &[u8], age: Duration) {
        std::fs::write(path, bytes).expect("write");
        let file = File::options().write(true).open(path).expect("open");
        let at = std::time::SystemTime::now() - age;
        let times = std::fs::FileTimes::new().set_accessed(at).set_modified(at);
        file.set_times(times).expect("set times");
    }

    #[test]
    fn a_store_collects_other_engines_entries_unused_for_a_month() {
        let c = cached();
        let other_verb = "fe".repeat(32);
        let left_by_an_upgrade = c.dir().join(format!("{other_verb}-00000000cafef00d.cwasm"));
        let in_use = c.dir().join(format!("{other_verb}-00000000deadf00d.cwasm"));
        let ours = c.entry_of(&other_verb);
        aged(&left_by_an_upgrade, &c.good, 40 * DAY);
        aged(&in_use, &c.good, 2 * DAY);
        aged(&ours, &c.good, 40 * DAY);
        assert!(c.cache.store(&c.engine, &c.key, &c.image()).is_some());
        assert!(
            !left_by_an_upgrade.exists(),
            "another engine's unused entry stays"
        );
        assert!(in_use.exists(), "another engine's entry in use is removed");
        assert!(
            ours.exists(),
            "this engine's entries are `verbs add`'s to collect"
        );
    }

    #[test]
    fn a_store_clears_the_old_keys_and_what_a_killed_mur_left_but_not_a_write_in_progress() {
        let c = cached();
        let dir = c.dir();
        let old_key = dir.join(format!("{SHA}-{}.cwasm", "ab".repeat(32)));
        let crc_key = dir.join(format!("{SHA}-cafef00d.cwasm"));
        let killed = dir.join(format!("{}.cwasm.4242.0.tmp", c.key));
        let writing = dir.join(format!("{}.cwasm.4243.0.tmp", c.key));
        let other_engine = dir.join(format!("{SHA}-cafef00dcafef00d.cwasm"));
        aged(&old_key, &c.good, HOUR);
        aged(&crc_key, &c.good, HOUR);
        aged(&killed, &c.good[..100], HOUR);
        aged(&writing, &c.good[..100], Duration::ZERO);
        aged(&other_engine, &c.good, HOUR);
        assert!(c.cache.store(&c.engine, &c.key, &c.image()).is_some());
        assert!(!old_key.exists(), "the entry under the SHA-256 key stays");
        assert!(!crc_key.exists(), "the entry under the CRC-32 key stays");
        assert!(!killed.exists(), "a killed mur's temporary file stays");
        assert!(writing.exists(), "a write in progress was removed");
        assert!(other_engine.exists(), "another engine's entry was removed");
        assert!(c.load().is_some());
    }

    #[test]
    fn a_sweep_clears_stale_temporaries_of_any_verb() {
        let c = cached();
        let other = "f".repeat(64);
        let killed = c
            .dir()
            .join(format!("{other}-cafef00dcafef00d.cwasm.99.1.tmp"));
        let writing = c
            .dir()
            .join(format!("{other}-cafef00dcafef00d.cwasm.98.1.tmp"));
        aged(&killed, b"partial", HOUR);
        aged(&writing, b"partial", Duration::ZERO);
        assert_eq!(c.cache.sweep(&[SHA], &[], None), 1);
        assert!(!killed.exists());
        assert!(writing.exists());
        assert!(c.entry.exists());
    }

    /// The sweep of `verbs add` and `verbs remove`: what a verb directory sharing the
    /// cache uses stays, whatever its age; of the rest, what the command dropped goes
    /// at once, and what went unmapped for a month goes when the command asks.
    #[test]
    fn a_sweep_keeps_what_any_verb_directory_uses_and_takes_the_dropped_and_the_idle() {
        let c = cached();
        let [used, dropped, idle, recent] = ["a", "b", "c", "d"].map(|digit| digit.repeat(64));
        let entry = |sha: &str| c.entry_of(sha);
        aged(&entry(&used), &c.good, 40 * DAY);
        aged(&entry(&dropped), &c.good, Duration::ZERO);
        aged(&entry(&idle), &c.good, 40 * DAY);
        let kept = [SHA, used.as_str()];
        assert_eq!(c.cache.sweep(&kept, &[&dropped, &used], None), 1);
        assert!(!entry(&dropped).exists());
        assert!(entry(&idle).exists(), "went for its age unasked");
        aged(&entry(&recent), &c.good, 2 * DAY);
        assert_eq!(
            c.cache.sweep(&kept, &[], Some(UNUSED_OTHER_ENGINE)),
            1,
            "only the idle entry goes"
        );
        assert!(!entry(&idle).exists());
        assert!(entry(&used).exists() && entry(&recent).exists() && c.entry.exists());
    }

    /// A verb directory the cache does not know of (only an older `mur` used it, so
    /// it is named nowhere) is at work while an entry no known directory uses is
    /// mapped: what a command dropped may be its code too, and stays until unused
    /// for a month, as the rest. Once that entry went unmapped a month (its
    /// directory deleted), what is dropped goes at once again.
    #[test]
    fn a_sweep_drops_nothing_at_once_while_an_unknown_verb_directory_is_at_work() {
        let c = cached();
        let [dropped, theirs] = ["b", "e"].map(|digit| digit.repeat(64));
        let entry = |sha: &str| c.entry_of(sha);
        aged(&entry(&dropped), &c.good, Duration::ZERO);
        aged(&entry(&theirs), &c.good, 2 * DAY);
        let idle = Some(UNUSED_OTHER_ENGINE);
        assert_eq!(c.cache.sweep(&[SHA], &[&dropped], idle), 0);
        assert!(entry(&dropped).exists(), "dropped under a stranger's feet");
        assert!(entry(&theirs).exists());
        aged(&entry(&theirs), &c.good, 40 * DAY);
        assert_eq!(c.cache.sweep(&[SHA], &[&dropped], idle), 2);
        assert!(!entry(&dropped).exists() && !entry(&theirs).exists());
        assert!(c.entry.exists());
    }

    /// Another verb directory named in the cache whose verbs cannot be read (here a
    /// broken entry; permissions do the same) may use any code: a release keeps the
    /// code it would drop, and keeps the directory named. Only the month rule of a
    /// command's sweep takes it, once unmapped that long (what the directory maps
    /// stays); and once the directory reads again, a release takes at once.
    #[test]
    fn a_verb_directory_that_cannot_be_read_holds_back_a_release_until_the_month_rule() {
        let c = cached();
        let [ours, theirs] = ["ours", "theirs"].map(|name| c.user(name));
        let broken = theirs.join(crate::names::INDEX_NAME).join("crash.json");
        std::fs::create_dir_all(broken.parent().expect("entries")).expect("theirs");
        std::fs::write(&broken, "{").expect("a broken entry");
        let here = [SHA.to_owned()];
        let dropped = "b".repeat(64);
        let entry = c.entry_of(&dropped);
        aged(&entry, &c.good, Duration::ZERO);

        assert!(c.cache.other_users(&ours).is_none(), "theirs read");
        c.cache.release(&ours, &here, &dropped);
        assert!(
            entry.exists(),
            "released what an unreadable directory may use"
        );
        assert_eq!(c.users_named(), 2, "an unreadable directory was forgotten");

        // A month unmapped: the sweep of `verbs add` and `verbs remove` takes it,
        // without `dropped`.
        aged(&entry, &c.good, 40 * DAY);
        assert_eq!(c.cache.sweep(&[SHA], &[], Some(UNUSED_OTHER_ENGINE)), 1);
        assert!(!entry.exists(), "kept for ever");
        assert!(c.entry.exists());

        // And so does a release, though no command runs (the edit-build loop: each
        // rebuild taken by a call): an earlier rebuild's code unmapped for a month
        // goes; what theirs mapped lately, and what was just dropped, stay. A release
        // kept them all, and every rebuild's code piled up until a command ran.
        let [earlier, mapped] = ["c", "d"].map(|digit| c.entry_of(&digit.repeat(64)));
        aged(&earlier, &c.good, 40 * DAY);
        aged(&mapped, &c.good, 2 * DAY);
        aged(&entry, &c.good, Duration::ZERO);
        c.cache.release(&ours, &here, &dropped);
        assert!(
            !earlier.exists(),
            "a release kept code unmapped for a month"
        );
        assert!(mapped.exists() && entry.exists() && c.entry.exists());
        std::fs::remove_file(&mapped).expect("mapped");

        // Readable again (the entry repaired), their directory no longer holds back.
        aged(&entry, &c.good, Duration::ZERO);
        std::fs::remove_file(&broken).expect("repair");
        c.cache.release(&ours, &here, &dropped);
        assert!(!entry.exists(), "held back by a directory that reads");
        assert!(c.entry.exists());
    }

    /// A verb directory named in the cache whose path is now a regular file holds
    /// no verbs: it is forgotten, as a deleted one is, and holds back no release.
    /// It counted as unreadable, so nothing a release dropped went at once.
    #[test]
    fn a_verb_directory_replaced_by_a_file_is_forgotten() {
        let c = cached();
        let [ours, theirs] = ["ours", "theirs"].map(|name| c.user(name));
        std::fs::remove_dir(&theirs).expect("their directory goes");
        std::fs::write(&theirs, "not a directory").expect("a file in its place");
        let here = [SHA.to_owned()];
        let dropped = "b".repeat(64);
        let entry = c.entry_of(&dropped);
        aged(&entry, &c.good, Duration::ZERO);

        assert_eq!(c.cache.other_users(&ours), Some(Vec::new()));
        let named: Vec<_> = std::fs::read_dir(c.dir().join(USERS))
            .expect("records")
            .map(|record| std::fs::read_to_string(record.expect("record").path()).expect("path"))
            .collect();
        assert_eq!(named, [canonical(&ours).to_str().expect("utf-8")]);
        c.cache.release(&ours, &here, &dropped);
        assert!(!entry.exists(), "held back by a file");
        assert!(c.entry.exists());
        assert_eq!(
            std::fs::read(&theirs).expect("left alone"),
            b"not a directory"
        );
    }

    /// A folder above a recorded verb directory replaced by a file: the directory is gone
    /// as surely (its lookup fails "not a directory", not "not found"), and is forgotten;
    /// it was held unreadable, and held back every release for good (review 634 #2).
    #[test]
    fn a_verb_directory_under_a_file_is_forgotten() {
        let c = cached();
        let ours = c.user("ours");
        c.user("data2/verbs");
        let above = c._tmp.path().join("data2");
        std::fs::remove_dir_all(&above).expect("the folder above goes");
        std::fs::write(&above, "not a directory").expect("a file in its place");
        let dropped = "b".repeat(64);
        let entry = c.entry_of(&dropped);
        aged(&entry, &c.good, Duration::ZERO);

        assert_eq!(c.cache.other_users(&ours), Some(Vec::new()));
        c.cache.release(&ours, &[SHA.to_owned()], &dropped);
        assert!(!entry.exists(), "held back by a directory under a file");
        assert!(c.entry.exists());
    }

    /// A named verb directory whose path now holds a FIFO, a socket, or a link to a
    /// device, to nothing or to itself holds no verbs either: it is forgotten, as a
    /// file in its place is, and holds back no release. It was held unreadable (its
    /// index could not be looked up in it) and held back every release until the
    /// month rule. The FIFO is judged by its type, never opened (that would block).
    #[cfg(unix)]
    #[test]
    fn a_verb_directory_replaced_by_a_fifo_a_socket_or_a_link_to_no_directory_is_forgotten() {
        use std::os::unix::fs::symlink;
        let c = cached();
        let ours = c.user("ours");
        let dropped = "b".repeat(64);
        let entry = c.entry_of(&dropped);
        /// Makes what takes the place of their directory.
        type Make = fn(&Path);
        let kinds: [(&str, Make); 5] = [
            ("a FIFO", mur_testkit::mkfifo),
            ("a socket", |at| {
                std::os::unix::net::UnixListener::bind(at).expect("socket");
            }),
            ("a link to a device", |at| {
                symlink("/dev/null", at).expect("link")
            }),
            ("a link to nothing", |at| {
                symlink(at.with_extension("gone"), at).expect("link")
            }),
            ("a link to itself", |at| symlink(at, at).expect("link")),
        ];
        for (kind, make) in kinds {
            let theirs = c.user("theirs");
            std::fs::remove_dir(&theirs).expect("their directory goes");
            make(&theirs);
            aged(&entry, &c.good, Duration::ZERO);

            c.cache.release(&ours, &[SHA.to_owned()], &dropped);
            assert!(!entry.exists(), "held back by {kind}");
            assert_eq!(c.users_named(), 1, "{kind} stays named");
            assert!(c.entry.exists());
            std::fs::remove_file(&theirs).expect("left alone");
        }
    }

    /// A link to a directory in place of a named verb directory is that directory, as
    /// it always was: its verbs are read through the link (here a broken entry, which
    /// holds back a release), and it stays named.
    #[cfg(unix)]
    #[test]
    fn a_link_to_a_directory_in_place_of_a_verb_directory_is_followed() {
        let c = cached();
        let [ours, theirs] = ["ours", "theirs"].map(|name| c.user(name));
        let elsewhere = c._tmp.path().join("elsewhere");
        let broken = elsewhere.join(crate::names::INDEX_NAME).join("crash.json");
        std::fs::create_dir_all(broken.parent().expect("entries")).expect("elsewhere");
        std::fs::write(&broken, "{").expect("a broken entry");
        std::fs::remove_dir(&theirs).expect("their directory goes");
        std::os::unix::fs::symlink(&elsewhere, &theirs).expect("a link in its place");

        assert!(
            c.cache.other_users(&ours).is_none(),
            "not read through the link"
        );
        std::fs::remove_file(&broken).expect("repair");
        assert_eq!(c.cache.other_users(&ours), Some(Vec::new()));
        assert_eq!(c.users_named(), 2, "a link to a directory was forgotten");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_place_of_an_entry_is_refused_and_its_target_left_alone() {
        let c = cached();
        let elsewhere = c._tmp.path().join("elsewhere.cwasm");
        std::fs::rename(&c.entry, &elsewhere).expect("move the entry");
        std::os::unix::fs::symlink(&elsewhere, &c.entry).expect("symlink");
        assert!(c.load().is_none(), "a sound entry, but through a link");
        assert!(std::fs::symlink_metadata(&c.entry).is_err(), "link removed");
        assert_eq!(std::fs::read(&elsewhere).expect("target"), c.good);
    }

    /// A map that fails as on a cache mounted `noexec`.
    fn unmappable(_: &Engine, _: &Path, _: &File) -> wasmtime::Result<Component> {
        Err(wasmtime::Error::msg(
            "unable to make memory executable: Permission denied (os error 13)",
        ))
    }

    /// An entry that cannot be mapped (a cache on a file system mounted `noexec`) is
    /// read instead, and kept: it was removed as unusable and the verb compiled
    /// again on every call. One whose bytes are refused too still goes.
    #[test]
    fn an_entry_that_cannot_be_mapped_is_read_and_kept_unless_its_bytes_are_bad() {
        let c = cached();
        let loaded = c.cache.load_by(&c.engine, &c.key, unmappable);
        assert!(loaded.is_some(), "a sound entry that cannot be mapped");
        assert_eq!(std::fs::read(&c.entry).expect("entry kept"), c.good);

        std::fs::remove_file(&c.entry).expect("remove");
        let stored = c.cache.store_by(&c.engine, &c.key, &c.image(), unmappable);
        assert!(stored.is_some(), "stored, read back");
        assert_eq!(std::fs::read(&c.entry).expect("entry kept"), c.good);

        std::fs::write(&c.entry, &c.good[..c.good.len() / 2]).expect("truncate");
        assert!(c.cache.load_by(&c.engine, &c.key, unmappable).is_none());
        assert!(!c.entry.exists(), "a truncated entry is kept");
    }

    #[test]
    fn an_oversized_entry_is_refused_by_its_size() {
        let c = cached();
        std::fs::File::options()
            .write(true)
            .open(&c.entry)
            .and_then(|f| f.set_len(MAX_ENTRY_BYTES + 1))
            .expect("grow the entry (sparse)");
        assert!(c.load().is_none());
        assert!(!c.entry.exists());
    }

    #[test]
    fn a_store_that_does_not_load_back_leaves_nothing() {
        let c = cached();
        // Another engine's settings: wasmtime refuses this engine's entry.
        let mut config = crate::runtime::config();
        config.consume_fuel(false);
        let other = Engine::new(&config).expect("engine");
        std::fs::remove_file(&c.entry).expect("remove");
        // Stored through the other engine: written, mapped back, refused, removed.
        assert!(c.cache.store(&other, &c.key, &c.image()).is_none());
        assert!(!c.entry.exists());
    }
}
