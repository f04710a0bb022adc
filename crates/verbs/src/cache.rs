//! The compile cache: verbs are compiled once (at `verbs add`, or the first call
//! after a change) and later calls deserialize the native code instead.
//!
//! Layout: `<cache dir>/<sha256 of the .wasm>-<engine compatibility hash>.cwasm`.
//! The file hash is the one recorded in the index at install, so a changed verb
//! gets a new key and is never served stale; the engine part changes with the
//! wasmtime version and compilation settings (fuel, target), so a new `mur`
//! never loads code compiled by an old one. Each entry is
//! `MAGIC || crc32(payload) || len(payload) || payload` (little-endian u32, u64),
//! where the payload is wasmtime's serialized component. A mismatch (a truncated
//! or scribbled entry) means the entry is deleted and rebuilt, never trusted.
//!
//! The checksum guards against accident, not attack: CRC-32 runs at memory speed,
//! which matters because it is paid on every call (a JavaScript verb's entry is
//! ~40 MB; sha256 of that costs ~25 ms, more than the rest of a warm call).
//! Attack is kept out by the directory itself: private to this user, or unused.
//!
//! An entry is read only when it is a regular file (not a link, FIFO or
//! device) of at most [`MAX_ENTRY_BYTES`]; anything else is a miss, removed and
//! rebuilt, and a warning says so when it cannot be removed.

use std::hash::Hasher;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::Component;

use super::bounded::{self, Links, MAX_COMPONENT_BYTES, Refusal};
use super::index::write_atomic;
use super::timings::{self, Phase};

const MAGIC: &[u8; 8] = b"murverb2";
const HEADER_LEN: usize = MAGIC.len() + 4 + 8;

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
    /// could write to is not used at all: deserializing code from it would let
    /// them run arbitrary native code as this user.
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

    /// Cache key for a verb file with this sha256, compiled by this engine.
    pub fn key(engine: &Engine, sha256: &str) -> String {
        let mut hasher = ShaHasher(Sha256::new());
        std::hash::Hash::hash(&engine.precompile_compatibility_hash(), &mut hasher);
        let engine_hash = hex(&hasher.0.finalize()[..8]);
        format!("{sha256}-{engine_hash}")
    }

    /// The cached component for `key`, if a sound entry exists. Anything else
    /// at its path is a miss: removed, so that the rebuilt entry can take its
    /// place.
    pub fn load(&self, engine: &Engine, key: &str) -> Option<Component> {
        let path = self.dir.as_ref()?.join(format!("{key}.cwasm"));
        let read = timings::measure(Phase::CacheLookup, || {
            bounded::read_capped(&path, Links::Refuse, MAX_ENTRY_BYTES)
        });
        let bytes = match read {
            Ok(bytes) => bytes,
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
        let Some(payload) = timings::measure(Phase::CacheLookup, || verified_payload(&bytes))
        else {
            discard(&path, "is corrupt");
            return None;
        };
        match timings::measure(Phase::Deserialize, || deserialize(engine, payload)) {
            Ok(component) => Some(component),
            Err(e) => {
                discard(&path, &format!("is unusable ({e})"));
                None
            }
        }
    }

    /// Save a compiled component; failures only cost a recompile later.
    pub fn store(&self, key: &str, component: &Component) {
        let Some(dir) = &self.dir else { return };
        let Ok(payload) = component.serialize() else {
            return;
        };
        let mut bytes = Vec::with_capacity(HEADER_LEN + payload.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&payload);
        if bytes.len() as u64 > MAX_ENTRY_BYTES {
            // It would be refused when read: compiling each time is the same cost.
            tracing::debug!("not caching a compiled verb of {} bytes", bytes.len());
            return;
        }
        if let Err(e) = write_atomic(&dir.join(format!("{key}.cwasm")), &bytes) {
            tracing::debug!("could not cache a compiled verb: {e}");
        }
    }

    /// Drop every entry whose verb file is not one of `installed` (sha256s):
    /// what a refused `verbs add` compiled, what a replaced or removed verb
    /// left. Returns how many were removed.
    pub fn retain_only(&self, installed: &[&str]) -> usize {
        let Some(dir) = &self.dir else { return 0 };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return 0;
        };
        let mut removed = 0;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".cwasm") else {
                continue;
            };
            let sha = stem.split('-').next().unwrap_or_default();
            if !installed.contains(&sha) && std::fs::remove_file(entry.path()).is_ok() {
                removed += 1;
            }
        }
        removed
    }

    /// Drop every entry compiled from a file with this sha256 (any engine).
    pub fn forget(&self, sha256: &str) {
        let Some(dir) = &self.dir else { return };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            if entry
                .file_name()
                .to_string_lossy()
                .starts_with(&format!("{sha256}-"))
            {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
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

/// The payload of an entry whose magic, length and checksum are intact.
fn verified_payload(bytes: &[u8]) -> Option<&[u8]> {
    let (header, payload) = bytes.split_at_checked(HEADER_LEN)?;
    let (magic, rest) = header.split_at(MAGIC.len());
    let (crc, len) = rest.split_at(4);
    let crc = u32::from_le_bytes(crc.try_into().ok()?);
    let len = u64::from_le_bytes(len.try_into().ok()?);
    let intact = magic == MAGIC && len == payload.len() as u64 && crc32fast::hash(payload) == crc;
    intact.then_some(payload)
}

/// Load native code that this process's user compiled and cached earlier.
#[allow(unsafe_code)]
fn deserialize(engine: &Engine, payload: &[u8]) -> wasmtime::Result<Component> {
    // SAFETY: `Component::deserialize` trusts its input to be wasmtime output,
    // because it maps it as executable code. That holds here: the bytes come from
    // a directory only this user can write (checked in `private_dir`), we wrote
    // them ourselves with `Component::serialize`, the length and CRC in the
    // header show they are intact, and wasmtime itself rejects output of another
    // version or configuration from its own header.
    unsafe { Component::deserialize(engine, payload) }
}

/// Create `dir` mode 0700, or check that an existing one is ours and private
/// (the project's one rule: [`mur_lockfile::ensure_private_dir`]). Entries
/// planted while others could write here must not be trusted, so such a
/// directory is refused rather than repaired.
fn private_dir(dir: &Path) -> Result<(), String> {
    mur_lockfile::ensure_private_dir(dir, "compile cache")
}

/// Feeds `Hash` output into sha256, so the engine hash is stable across builds
/// of `mur` with different Rust versions (std's `DefaultHasher` is not).
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
    fn finish(&self) -> u64 {
        0 // unused: the digest is read directly
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
