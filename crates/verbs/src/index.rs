//! The verb index: one file per installed verb, `index/<name>.json` in the verb
//! directory. Help and dispatch read it instead of instantiating every component;
//! a call reads only its own verb's file.
//!
//! Each entry records the file's sha256 (the compile-cache key, computed once at
//! install), and its size and modification time, so a `.wasm` replaced behind
//! the index's back is noticed with one `stat` instead of a rehash per call.
//!
//! Before, the index was one file, `index.json`, holding every entry: each named
//! or data verb call read and scanned all of it (27 KB for the standard verbs,
//! ~0.06 ms of a 1.7 ms call), and two `verbs add` at once could lose one
//! another's entry. An `index.json` left by an older `mur` is still read, and
//! moved into entry files the first time the index is loaded whole.
//!
//! An entry file mur cannot use is that verb's failure alone: the whole index is
//! loaded without it ([`Index::broken`] names it), so `verbs list` and `catalog` skip
//! it with a warning, `verbs remove` removes it and `verbs add --force` replaces it; a
//! call of that verb still fails (exit 7) with the way out.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

use super::bounded::{self, Links};
use super::error::{VerbError, io_error};
use super::names::{INDEX_NAME, valid_verb_name};
use super::spec::{VerbSpec, with_tool_line};

/// The directory of entry files, inside the verb directory.
const ENTRY_DIR: &str = INDEX_NAME;
const SCHEMA: &str = "mur-verbs/2";
/// The one-file index of older `mur`s, and its schema.
const LEGACY_FILE: &str = "index.json";
const LEGACY_SCHEMA: &str = "mur-verbs/1";

/// The largest legacy index `mur` reads: a thousand of the largest entries.
const MAX_INDEX_BYTES: u64 = 64 << 20;
/// The largest entry file `mur` reads. An entry is about a kilobyte, and at
/// most ~130 KiB: its usage text and its spec's texts are each capped at 64 KiB
/// at install (`manage::oversized`), its summary at 1 KiB.
pub(crate) const MAX_ENTRY_BYTES: u64 = 1 << 20;

/// One installed verb.
// Each `None` is left out of the entry file, not written `null`.
#[skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub name: String,
    pub tool: String,
    pub summary: String,
    /// The `--help` text as rendered at install (a 0.1 verb's own text).
    pub usage: String,
    /// The verb interface it implements, `0.3.0`, `0.2.0` or `0.1.0` (entries written
    /// before 0.2 existed have no such field, and are 0.1).
    #[serde(default = "interface_0_1")]
    pub interface: String,
    /// What a 0.2-or-later verb declares: help, completion and the host-option rule
    /// are read from it.
    pub spec: Option<VerbSpec>,
    /// The file it was installed from, as `verbs add` was given it.
    pub source: Option<String>,
    /// The language it was written in, from its producers section.
    pub language: Option<String>,
    /// Its tool's hints (`read-only`, `destructive`, …) as a session last
    /// listed them; learned whenever `mur` reads a tool list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<String>,
    /// File name inside the verb directory.
    pub file: String,
    pub sha256: String,
    pub size: u64,
    /// Modification time of `file` in nanoseconds since the Unix epoch.
    pub mtime_ns: u128,
    pub added_at: String,
}

fn interface_0_1() -> String {
    "0.1.0".to_owned()
}

impl Entry {
    /// Its `--help` text: rendered afresh from its spec (so a newer `mur`
    /// renders every verb alike), its details ending with the line naming its tool
    /// and the hints a session listed for it (``Tool `click`.``), as a data or derived
    /// verb's do; else (a 0.1 verb, which declares nothing) the text kept at install.
    pub fn usage_text(&self) -> String {
        match &self.spec {
            Some(spec) => VerbSpec {
                details: with_tool_line(
                    without_tool_line(&spec.details, &self.tool),
                    &self.tool,
                    &self.hints,
                ),
                ..spec.clone()
            }
            .render(&self.name, &self.summary),
            None => self.usage.clone(),
        }
    }
}

/// `details` without the tool line (``Tool `state`.``) a data verb's spec ends with
/// when a `mur` before the hints were learned installed it: the line with the hints
/// takes its place, not a second one after it in `verbs info`.
fn without_tool_line<'a>(details: &'a str, tool: &str) -> &'a str {
    let line = with_tool_line("", tool, &[]);
    details.trim_end().strip_suffix(&line).unwrap_or(details)
}

/// An entry file: `{"schema": "mur-verbs/2", "verb": {…}}`.
#[derive(Debug, Serialize, Deserialize)]
struct EntryFile {
    schema: String,
    verb: Entry,
}

/// The legacy one-file index.
#[derive(Debug, Deserialize)]
struct LegacyFile {
    schema: String,
    verbs: Vec<Entry>,
}

/// An entry file the whole index was loaded without: mur cannot use it (not JSON,
/// another schema, another verb's, not a regular file, unreadable).
#[derive(Debug)]
pub struct Broken {
    /// The verb it is named for.
    pub name: String,
    /// Why it is unusable, with the way out: what a call of the verb fails with.
    pub error: VerbError,
}

impl Broken {
    /// The one line a listing skips it with (the binary says it as a warning).
    pub fn warning(&self) -> String {
        format!(
            "skipping verb `{}`: {}; {}",
            self.name,
            self.error,
            self.repair()
        )
    }

    /// What a word meant as this verb is told (a did-you-mean's): that it is installed
    /// but broken, why, and the ways out, as [`Self::warning`] says them.
    pub fn meant(&self) -> String {
        format!(
            "verb `{}` is installed, but its index entry is broken: {}; {}",
            self.name,
            self.error,
            self.repair()
        )
    }

    /// The ways out: the commands that remove it or install it again (the catalog's
    /// `broken[].repair` too).
    pub fn repair(&self) -> String {
        repair(&self.name)
    }
}

/// The ways out of verb `name`'s broken entry, in the one sentence every place says
/// them in: the hint of a call of it, a listing's warning, the catalog's `repair`.
fn repair(name: &str) -> String {
    format!(
        "remove it with `mur devtools verbs remove {name}`, or install it again with \
         `mur devtools verbs add --force <{name}.wasm>`"
    )
}

/// Why JSON that serde could not read as `what` is unusable, in plain words: the place
/// of a syntax error (serde's "key must be a string at line 1 column 2" was said as it
/// is), else that it does not hold `what`.
fn unreadable_json(e: &serde_json::Error, what: &str) -> String {
    use serde_json::error::Category;
    let (line, column) = (e.line(), e.column());
    match e.classify() {
        Category::Syntax | Category::Eof => {
            format!("is not valid JSON at line {line} column {column}")
        }
        Category::Data => format!("does not hold {what} (line {line} column {column})"),
        Category::Io => format!("is unreadable: {e}"),
    }
}

/// The index as loaded from (and saved to) one verb directory.
#[derive(Debug)]
pub struct Index {
    dir: PathBuf,
    pub verbs: Vec<Entry>,
    /// The entry files [`Index::load`] could not use, by name: no entry of
    /// [`Index::verbs`], and never written or removed by [`Index::save`] unless
    /// [`Index::remove_broken`] took one out (an entry put by its name replaces it).
    broken: Vec<Broken>,
    /// The broken entries taken out, whose files the next save removes.
    discarded: Vec<String>,
    /// The entries as they stand on disk, by name: [`Index::save`] writes the
    /// ones that differ and removes the files of the ones taken out. An index
    /// loaded for one verb holds only that one, so it never touches the others.
    stored: BTreeMap<String, Entry>,
    /// A legacy `index.json` was read: removed once its entries are all saved.
    legacy: bool,
}

impl Index {
    /// Load every entry; a missing directory is an empty index. Anything but a
    /// regular file of at most its cap (a FIFO, a link, a device) is refused at
    /// once, never waited on. One entry file mur cannot use is left out and kept in
    /// [`Index::broken`]: one verb's failure, not the whole index's (a legacy index or
    /// an entry directory that cannot be read still fails it). A legacy `index.json` is
    /// moved into entry files (best effort: a read-only directory keeps it, and it is
    /// read again).
    pub fn load(dir: &Path) -> Result<Self, VerbError> {
        let legacy = read_legacy(dir)?;
        let (entries, broken) = read_entries(dir)?;
        let stored = by_name(entries);
        let had_legacy = legacy.is_some();
        // An entry file wins over the legacy index: it can only be newer, broken too.
        let mut all = by_name(legacy.unwrap_or_default());
        all.retain(|name, _| !broken.iter().any(|b| b.name == *name));
        all.extend(stored.clone());
        let mut index = Self {
            dir: dir.to_owned(),
            verbs: all.into_values().collect(),
            broken,
            discarded: Vec::new(),
            stored,
            legacy: had_legacy,
        };
        if index.legacy
            && let Err(e) = index.save()
        {
            tracing::debug!("the legacy verb index stays: {e}");
        }
        Ok(index)
    }

    /// The index with only the entry of verb `name` (if installed): what a
    /// call needs, one small file.
    pub fn load_only(dir: &Path, name: &str) -> Result<Self, VerbError> {
        // A name no verb could have has no entry file (and is never a path).
        let entry = match valid_verb_name(name) {
            true => read_entry(dir, name)?,
            false => None,
        };
        let verbs = match entry {
            Some(entry) => vec![entry],
            // Not in the entry files: in a legacy index still to be moved?
            None if legacy_exists(dir)? => {
                let mut whole = Self::load(dir)?;
                whole.verbs.retain(|e| e.name == name);
                whole.verbs
            }
            None => Vec::new(),
        };
        Ok(Self {
            dir: dir.to_owned(),
            stored: by_name(verbs.clone()),
            verbs,
            broken: Vec::new(),
            discarded: Vec::new(),
            legacy: false,
        })
    }

    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.verbs.iter().find(|e| e.name == name)
    }

    /// The entry files [`Index::load`] left out, unusable, by name.
    pub fn broken(&self) -> &[Broken] {
        &self.broken
    }

    /// Take out the broken entry of verb `name`, if it has one: the next save
    /// removes its file. Never put back if the save fails after it: it held nothing
    /// mur could use.
    pub fn remove_broken(&mut self, name: &str) -> Option<Broken> {
        let at = self.broken.iter().position(|b| b.name == name)?;
        self.discarded.push(name.to_owned());
        Some(self.broken.remove(at))
    }

    /// The installed verb other than `name` whose bytes hash to `sha256`, from every
    /// entry in the directory: an index loaded for one verb ([`Index::load_only`])
    /// holds no other. `Ok(None)` where there is none (a broken entry file holds no
    /// verb mur knows the bytes of); an error where the index cannot be read.
    pub fn other_with(&self, name: &str, sha256: &str) -> Result<Option<String>, VerbError> {
        let whole = Self::load(&self.dir)?;
        let other = whole
            .verbs
            .into_iter()
            .find(|e| e.sha256 == sha256 && e.name != name);
        Ok(other.map(|entry| entry.name))
    }

    /// Add or replace the entry with this name, keeping the list sorted; a broken
    /// entry file of that name is replaced by the save.
    pub fn put(&mut self, entry: Entry) {
        self.broken.retain(|b| b.name != entry.name);
        self.discarded.retain(|name| *name != entry.name);
        self.verbs.retain(|e| e.name != entry.name);
        self.verbs.push(entry);
        self.verbs.sort_by(|a, b| a.name.cmp(&b.name));
    }

    pub fn remove(&mut self, name: &str) -> Option<Entry> {
        let at = self.verbs.iter().position(|e| e.name == name)?;
        Some(self.verbs.remove(at))
    }

    pub fn file_path(&self, entry: &Entry) -> PathBuf {
        self.dir.join(&entry.file)
    }

    /// Write what changed since the index was read: each changed entry's file
    /// atomically (a concurrent reader sees old or new, never half), and the
    /// files of entries taken out removed. Two `verbs add` of different verbs
    /// at once each write their own file, so neither loses the other's.
    ///
    /// All or nothing: the index is the one record of what is installed, so a
    /// change of several entries (`verbs remove a b`) that fails part way puts
    /// back the entries it had written or removed, and the index on disk is as
    /// it was (best effort: what cannot be put back is logged).
    pub fn save(&mut self) -> Result<(), VerbError> {
        let entries = self.dir.join(ENTRY_DIR);
        // A name that is no verb name now (an older `mur` allowed a trailing
        // dash) cannot name a file: it stays in the legacy index.
        let changed: Vec<Entry> = self
            .verbs
            .iter()
            .filter(|e| self.stored.get(&e.name) != Some(*e) && valid_verb_name(&e.name))
            .cloned()
            .collect();
        let gone: Vec<String> = self
            .stored
            .keys()
            .filter(|name| self.get(name).is_none() && valid_verb_name(name))
            .cloned()
            .collect();
        // Each entry file as it stood before this save, for each one changed so far:
        // pushed once its step succeeded, so a step that failed (and changed nothing)
        // is never put back, nor said to be lost when putting it back fails too.
        let mut touched: Vec<(&str, Option<&Entry>)> = Vec::new();
        let legacy = self.legacy && self.verbs.iter().all(|e| valid_verb_name(&e.name));
        let mut apply = || {
            if !changed.is_empty() {
                std::fs::create_dir_all(&entries).map_err(|e| io_error("create", &entries, e))?;
            }
            for entry in &changed {
                write_entry(&self.dir, entry)?;
                touched.push((&entry.name, self.stored.get(&entry.name)));
            }
            for name in &gone {
                remove_if_there(&entry_path(&self.dir, name))?;
                touched.push((name, self.stored.get(name)));
            }
            // Last: a broken entry's file cannot be put back, so none is removed
            // before every other step succeeded.
            for name in &self.discarded {
                remove_if_there(&entry_path(&self.dir, name))?;
            }
            Ok(())
        };
        let outcome = apply();
        if let Err(e) = outcome {
            let mut stuck = Vec::new();
            for (name, before) in touched.into_iter().rev() {
                let undone = match before {
                    Some(entry) => write_entry(&self.dir, entry),
                    None => remove_if_there(&entry_path(&self.dir, name)),
                };
                if let Err(undo) = undone {
                    stuck.push(format!("`{name}` ({undo})"));
                }
            }
            // Said, never hidden: the index is then part changed.
            return Err(match stuck.is_empty() {
                true => e,
                false => appended(
                    e,
                    &format!(
                        "; nor could the index entry of {} be put back",
                        stuck.join(", ")
                    ),
                ),
            });
        }
        for entry in changed {
            self.stored.insert(entry.name.clone(), entry);
        }
        for name in gone {
            self.stored.remove(&name);
        }
        self.discarded.clear();
        // No part of the change, so never undone: its entries are all in their files
        // now, which win over it, and an `index.json` that cannot be removed (a verb
        // directory mur may not change) is read again and its removal retried.
        if legacy {
            match remove_if_there(&self.dir.join(LEGACY_FILE)) {
                Ok(()) => self.legacy = false,
                Err(e) => tracing::debug!("the legacy verb index stays: {e}"),
            }
        }
        Ok(())
    }
}

/// `error` with `more` after its message (`; none of the 2 verbs given was removed`).
pub(crate) fn appended(error: VerbError, more: &str) -> VerbError {
    match error {
        VerbError::Registry(message) => VerbError::Registry(message + more),
        VerbError::Refused { message, hint } => VerbError::Refused {
            message: message + more,
            hint,
        },
        VerbError::Internal { message, hint } => VerbError::Internal {
            message: message + more,
            hint,
        },
        other => other,
    }
}

/// Write `entry`'s file atomically.
fn write_entry(dir: &Path, entry: &Entry) -> Result<(), VerbError> {
    let file = EntryFile {
        schema: SCHEMA.into(),
        verb: entry.clone(),
    };
    let mut bytes = serde_json::to_vec(&file).map_err(|e| VerbError::internal(e.to_string()))?;
    bytes.push(b'\n');
    write_atomic(&entry_path(dir, &entry.name), &bytes)
}

/// Entries by name (sorted, as [`Index::verbs`] is kept).
fn by_name(entries: Vec<Entry>) -> BTreeMap<String, Entry> {
    entries.into_iter().map(|e| (e.name.clone(), e)).collect()
}

fn entry_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(ENTRY_DIR).join(format!("{name}.json"))
}

/// The entry of verb `name` (a valid verb name), `None` when it has no file.
fn read_entry(dir: &Path, name: &str) -> Result<Option<Entry>, VerbError> {
    let path = entry_path(dir, name);
    let bytes = match bounded::read_capped(&path, Links::Refuse, MAX_ENTRY_BYTES) {
        Ok(bytes) => bytes,
        Err(refusal) if refusal.is_not_found() => return Ok(None),
        Err(refusal) => return Err(broken_entry(&path, name, refusal.to_string())),
    };
    let file: EntryFile = serde_json::from_slice(&bytes)
        .map_err(|e| broken_entry(&path, name, unreadable_json(&e, "a verb")))?;
    if file.schema != SCHEMA {
        let why = format!("is unreadable: unknown schema `{}`", file.schema);
        return Err(broken_entry(&path, name, why));
    }
    if file.verb.name != name {
        let why = format!("is unreadable: it holds verb `{}`", file.verb.name);
        return Err(broken_entry(&path, name, why));
    }
    Ok(Some(file.verb))
}

/// Every entry file's entry, by name, and the entry files mur cannot use. Other
/// names in the directory (a writer's temporary files) are not entries.
fn read_entries(dir: &Path) -> Result<(Vec<Entry>, Vec<Broken>), VerbError> {
    let entries = dir.join(ENTRY_DIR);
    let listing = match std::fs::read_dir(&entries) {
        Ok(listing) => listing,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((Vec::new(), Vec::new()));
        }
        Err(e) => return Err(broken(&entries, format!("cannot be listed: {e}"))),
    };
    let mut names = Vec::new();
    for item in listing {
        let item = item.map_err(|e| broken(&entries, format!("cannot be listed: {e}")))?;
        let file_name = item.file_name();
        let stem = file_name.to_str().and_then(|n| n.strip_suffix(".json"));
        if let Some(name) = stem.filter(|n| valid_verb_name(n)) {
            names.push(name.to_owned());
        }
    }
    names.sort();
    let mut verbs = Vec::with_capacity(names.len());
    let mut broken = Vec::new();
    for name in names {
        match read_entry(dir, &name) {
            Ok(entry) => verbs.extend(entry),
            Err(error) => broken.push(Broken { name, error }),
        }
    }
    Ok((verbs, broken))
}

/// The sha256 of every verb installed in the verb directory `dir`, read without
/// changing anything there (a legacy index is not moved): what the compile-cache
/// sweep of another verb directory sharing the cache keeps. `None` when an entry
/// (or the legacy index) cannot be read: then which code it uses is not known.
pub(crate) fn installed_sha256s(dir: &Path) -> Option<Vec<String>> {
    let legacy = read_legacy(dir).ok()?;
    let (entries, broken) = read_entries(dir).ok()?;
    if !broken.is_empty() {
        return None;
    }
    let all = legacy.unwrap_or_default().into_iter().chain(entries);
    Some(all.map(|entry| entry.sha256).collect())
}

/// The entries of a legacy `index.json`, `None` when there is none.
fn read_legacy(dir: &Path) -> Result<Option<Vec<Entry>>, VerbError> {
    let path = dir.join(LEGACY_FILE);
    let bytes = match bounded::read_capped(&path, Links::Refuse, MAX_INDEX_BYTES) {
        Ok(bytes) => bytes,
        Err(refusal) if refusal.is_not_found() => return Ok(None),
        Err(refusal) => return Err(broken(&path, refusal.to_string())),
    };
    let file: LegacyFile = serde_json::from_slice(&bytes)
        .map_err(|e| broken(&path, unreadable_json(&e, "a verb list")))?;
    if file.schema != LEGACY_SCHEMA {
        let why = format!("is unreadable: unknown schema `{}`", file.schema);
        return Err(broken(&path, why));
    }
    Ok(Some(file.verbs))
}

/// Whether a legacy `index.json` is there (whatever it is: reading it judges).
fn legacy_exists(dir: &Path) -> Result<bool, VerbError> {
    let path = dir.join(LEGACY_FILE);
    match std::fs::symlink_metadata(&path) {
        Ok(_) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(broken(&path, format!("cannot be read: {e}"))),
    }
}

fn remove_if_there(path: &Path) -> Result<(), VerbError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_error("remove", path, e)),
        _ => Ok(()),
    }
}

/// An index mur cannot use is mur's own failure (exit 7). Every `verbs`
/// command loads the index first, so the way out starts with removing it.
fn broken(path: &Path, why: String) -> VerbError {
    unusable(
        path,
        "the verb index",
        why,
        "the verbs with `mur devtools verbs add --force <file.wasm>...`",
    )
}

/// One verb's entry file mur cannot use: the way out is that verb's alone, and
/// mur's own commands take it (the file need not be removed by hand first).
fn broken_entry(path: &Path, name: &str, why: String) -> VerbError {
    if let Some(e) = crate::dirs::file_in_the_way(path) {
        return e;
    }
    VerbError::internal_with_hint(
        format!("the verb index entry `{}` {why}", path.display()),
        repair(name),
    )
}

/// `what` at `path`, which mur cannot use for `why`: a file in the way of its
/// directory where that is the cause, else mur's own failure, whose way out is to
/// remove it and reinstall `reinstall`.
fn unusable(path: &Path, what: &str, why: String, reinstall: &str) -> VerbError {
    if let Some(e) = crate::dirs::file_in_the_way(path) {
        return e;
    }
    VerbError::internal_with_hint(
        format!("{what} `{}` {why}", path.display()),
        format!("remove `{}`, then reinstall {reinstall}", path.display()),
    )
}

/// Size and modification time of a file, as recorded in an [`Entry`]; a
/// symbolic link is stamped as itself, never followed (see [`bounded`]).
pub fn stamp(path: &Path) -> std::io::Result<(u64, u128)> {
    Ok(stamp_of(&std::fs::symlink_metadata(path)?))
}

/// [`stamp`] from metadata already in hand (of an open handle).
pub fn stamp_of(meta: &std::fs::Metadata) -> (u64, u128) {
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    (meta.len(), mtime)
}

/// Write `bytes` to `path` so readers never observe a partial file: the one
/// atomic write of the project ([`mur_lockfile::write_atomic`]: a temporary
/// file of this writer's own, created new — never through a FIFO or link
/// planted there — fsynced, renamed, and the directory fsynced). The rename
/// replaces whatever `path` was (a FIFO, a link) except a directory.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), VerbError> {
    mur_lockfile::write_atomic(path, bytes).map_err(|e| io_error("write", path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str) -> Entry {
        Entry {
            name: name.into(),
            tool: format!("{name}-tool"),
            summary: String::new(),
            usage: String::new(),
            interface: "0.2.0".into(),
            spec: None,
            source: None,
            language: None,
            hints: Vec::new(),
            file: format!("{name}.wasm"),
            sha256: "00".into(),
            size: 1,
            mtime_ns: 2,
            added_at: String::new(),
        }
    }

    /// The help of verb `name` of `tool` and `summary` whose stored spec has
    /// `synopsis` and `details`, once the tool's `hints` are learned.
    fn help_of(
        name: &str,
        tool: &str,
        summary: &str,
        synopsis: &str,
        details: &str,
        hints: &[&str],
    ) -> String {
        let spec = VerbSpec {
            synopsis: synopsis.into(),
            details: details.into(),
            ..VerbSpec::default()
        };
        let entry = Entry {
            tool: tool.into(),
            summary: summary.into(),
            spec: Some(spec),
            hints: hints.iter().map(|h| (*h).to_owned()).collect(),
            ..entry(name)
        };
        entry.usage_text()
    }

    /// An entry file as older `mur`s wrote it and this one writes it: no `null` for a
    /// verb without a spec, source or language, and read back as `None`.
    #[test]
    fn an_entry_leaves_out_what_it_does_not_have() {
        let entry = entry("tap");
        let line = serde_json::to_string(&entry).expect("json");
        assert_eq!(
            line,
            r#"{"name":"tap","tool":"tap-tool","summary":"","usage":"","interface":"0.2.0","file":"tap.wasm","sha256":"00","size":1,"mtimeNs":2,"addedAt":""}"#
        );
        assert_eq!(serde_json::from_str::<Entry>(&line).expect("back"), entry);
    }

    /// A data verb an older `mur` installed keeps ``Tool `state`.`` in its stored spec:
    /// once its tool's hints are learned, its help says the tool once, with them
    /// (reviewer RV1 F4: `verbs info count` said both lines).
    #[test]
    fn a_stored_tool_line_gives_way_to_the_one_with_the_hints() {
        let details = "Print the counter's value\n\nTool `state`.";
        let hints = &["read-only", "idempotent"];
        assert_eq!(
            help_of("count", "state", "The counter", "count", details, hints),
            "Usage: mur devtools count\n\nThe counter\n\nPrint the counter's value\n\n\
             Tool `state`: read-only, idempotent.\n\nOptions:\n  -h, --help  print this help\n"
        );
    }

    /// A component verb's help names its tool as a data or derived verb's does, before
    /// any session taught it its tool's hints (audit 271: `bump --help` never said it,
    /// where `count --help` said ``Tool `state`.``); a 0.1 verb's own text is kept.
    #[test]
    fn a_component_verbs_help_names_its_tool_before_any_hint_is_learned() {
        assert_eq!(
            help_of("bump", "click", "Click it", "bump <selector>", "", &[]),
            "Usage: mur devtools bump <selector>\n\nClick it\n\nTool `click`.\n\nOptions:\n  \
             -h, --help  print this help\n"
        );
        let old = Entry {
            usage: "bump SELECTOR\n".into(),
            ..entry("bump")
        };
        assert_eq!(old.usage_text(), "bump SELECTOR\n");
    }

    fn names(index: &Index) -> Vec<&str> {
        index.verbs.iter().map(|e| e.name.as_str()).collect()
    }

    fn entry_files(dir: &Path) -> Vec<String> {
        let mut files: Vec<String> = std::fs::read_dir(dir.join(ENTRY_DIR))
            .expect("entry dir")
            .map(|e| {
                e.expect("dirent")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        files.sort();
        files
    }

    /// A verb directory with the entries of `names` saved.
    fn saved(names: &[&str]) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut index = Index::load(tmp.path()).expect("empty");
        for name in names {
            index.put(entry(name));
        }
        index.save().expect("save");
        tmp
    }

    #[test]
    fn each_verb_has_its_own_entry_file_and_a_call_reads_only_its_own() {
        let tmp = saved(&["a", "b", "c"]);
        assert_eq!(entry_files(tmp.path()), ["a.json", "b.json", "c.json"]);
        let text = std::fs::read_to_string(entry_path(tmp.path(), "b")).expect("b");
        assert!(
            text.starts_with("{\"schema\":\"mur-verbs/2\",\"verb\":{\"name\":\"b\","),
            "{text}"
        );

        let mut one = Index::load_only(tmp.path(), "b").expect("load b");
        assert_eq!(one.verbs, vec![entry("b")]);
        assert!(
            Index::load_only(tmp.path(), "z")
                .expect("z")
                .verbs
                .is_empty()
        );
        one.put(Entry {
            size: 9,
            ..entry("b")
        });
        one.save().expect("save b");
        let again = Index::load(tmp.path()).expect("reload");
        assert_eq!(
            names(&again),
            ["a", "b", "c"],
            "saving one entry keeps the others"
        );
        assert_eq!(again.get("b").map(|e| e.size), Some(9));
    }

    #[test]
    fn two_writers_of_different_verbs_keep_both_and_a_removed_verb_loses_its_file() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let (mut first, mut second) = (
            Index::load(tmp.path()).expect("first"),
            Index::load(tmp.path()).expect("second"),
        );
        first.put(entry("a"));
        second.put(entry("b"));
        first.save().expect("save a");
        second.save().expect("save b");
        let mut both = Index::load(tmp.path()).expect("reload");
        assert_eq!(names(&both), ["a", "b"]);

        both.remove("a");
        both.save().expect("save without a");
        assert_eq!(entry_files(tmp.path()), ["b.json"]);
    }

    /// A save of several changes that fails part way puts back what it had done:
    /// the index on disk is as it was, every verb still installed. The failure is
    /// real (an entry file that became a directory, which no one may unlink, root
    /// or not) and comes after another entry's file was removed.
    #[test]
    fn a_save_that_fails_part_way_leaves_the_index_as_it_was() {
        let tmp = saved(&["a", "b", "c"]);
        let mut index = Index::load(tmp.path()).expect("load");
        let b = entry_path(tmp.path(), "b");
        std::fs::remove_file(&b).expect("b");
        std::fs::create_dir_all(b.join("in-the-way")).expect("b as a directory");
        index.remove("a");
        index.remove("b");
        index.put(Entry {
            size: 9,
            ..entry("c")
        });
        index.put(entry("d"));
        let why = std::fs::remove_file(&b).expect_err("a directory");
        let err = index.save().expect_err("b cannot be removed");
        assert!(matches!(err, VerbError::Internal { .. }), "{err:?}");
        // Whole: b was never changed, so nothing says it could not be put back.
        assert_eq!(
            err.to_string(),
            format!("could not remove `{}`: {why}", b.display())
        );
        std::fs::remove_dir_all(&b).expect("b's directory");
        assert_eq!(
            entry_files(tmp.path()),
            ["a.json", "c.json"],
            "a is back, d is not"
        );
        std::fs::write(
            &b,
            serde_json::json!({"schema": SCHEMA, "verb": entry("b")}).to_string(),
        )
        .expect("b again");
        let again = Index::load(tmp.path()).expect("reload");
        assert_eq!(names(&again), ["a", "b", "c"]);
        assert_eq!(again.get("c").map(|e| e.size), Some(1), "c as it was");
    }

    #[test]
    fn a_legacy_index_is_read_and_moved_into_entry_files() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let legacy = serde_json::json!({
            "schema": LEGACY_SCHEMA,
            "verbs": [entry("a"), entry("b")],
        });
        let legacy_path = tmp.path().join(LEGACY_FILE);
        std::fs::write(&legacy_path, legacy.to_string()).expect("legacy");

        // A call for one verb finds it there, and moves the whole index.
        let one = Index::load_only(tmp.path(), "b").expect("load b");
        assert_eq!(one.verbs, vec![entry("b")]);
        assert!(!legacy_path.exists(), "the legacy index is gone once moved");
        assert_eq!(entry_files(tmp.path()), ["a.json", "b.json"]);
        assert_eq!(names(&Index::load(tmp.path()).expect("reload")), ["a", "b"]);

        // Read again when it cannot be moved (an entry file wins over it).
        std::fs::write(&legacy_path, legacy.to_string()).expect("legacy again");
        std::fs::write(
            entry_path(tmp.path(), "a"),
            serde_json::json!({"schema": SCHEMA, "verb": Entry { size: 7, ..entry("a") }})
                .to_string(),
        )
        .expect("newer a");
        let merged = Index::load(tmp.path()).expect("merged");
        assert_eq!(merged.get("a").map(|e| e.size), Some(7));
        assert_eq!(names(&merged), ["a", "b"]);
    }

    #[test]
    fn a_legacy_entry_whose_name_is_no_verb_name_now_is_kept_where_it_is() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let legacy_path = tmp.path().join(LEGACY_FILE);
        let legacy =
            serde_json::json!({"schema": LEGACY_SCHEMA, "verbs": [entry("a"), entry("x-")]});
        std::fs::write(&legacy_path, legacy.to_string()).expect("legacy");
        let index = Index::load(tmp.path()).expect("load");
        assert_eq!(names(&index), ["a", "x-"]);
        assert_eq!(entry_files(tmp.path()), ["a.json"]);
        assert!(legacy_path.exists(), "x- lives only there");
        let one = Index::load_only(tmp.path(), "x-").expect("x-");
        assert_eq!(one.verbs, vec![entry("x-")], "still found by a call");
    }

    #[test]
    fn a_name_no_verb_could_have_is_no_verb_and_other_files_are_not_entries() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut index = Index::load(tmp.path()).expect("empty");
        index.put(entry("a"));
        index.save().expect("save");
        std::fs::write(tmp.path().join("secret.json"), "{}").expect("outside");
        for name in ["../secret", "A", "a.json", ""] {
            let one = Index::load_only(tmp.path(), name).expect("no verb");
            assert!(one.verbs.is_empty(), "{name:?}");
        }
        let dir = tmp.path().join(ENTRY_DIR);
        std::fs::write(dir.join("a.json.123.0.tmp"), "half").expect("temp");
        std::fs::write(dir.join("Notes.json"), "not json").expect("other");
        assert_eq!(names(&Index::load(tmp.path()).expect("load")), ["a"]);
    }

    #[test]
    fn an_entry_mur_cannot_use_is_its_own_failure_with_that_verb_s_way_out() {
        let tmp = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(tmp.path().join(ENTRY_DIR)).expect("entry dir");
        let path = entry_path(tmp.path(), "a");
        for (text, why) in [
            (
                "not json".to_owned(),
                "is not valid JSON at line 1 column 2",
            ),
            (
                serde_json::json!({"schema": SCHEMA}).to_string(),
                "does not hold a verb (line 1 column 24)",
            ),
            (
                serde_json::json!({"schema": "mur-verbs/9", "verb": entry("a")}).to_string(),
                "is unreadable: unknown schema `mur-verbs/9`",
            ),
            (
                serde_json::json!({"schema": SCHEMA, "verb": entry("b")}).to_string(),
                "is unreadable: it holds verb `b`",
            ),
        ] {
            std::fs::write(&path, text).expect("write");
            let whole = Index::load(tmp.path()).expect("the others load");
            assert!(whole.verbs.is_empty());
            assert_eq!(whole.broken().len(), 1);
            assert_eq!(whole.broken()[0].name, "a");
            for err in [
                Index::load_only(tmp.path(), "a").expect_err("one"),
                Index::load(tmp.path()).expect("all").broken.remove(0).error,
            ] {
                assert!(matches!(err, VerbError::Internal { .. }), "{err:?}");
                assert_eq!(
                    err.to_string(),
                    format!("the verb index entry `{}` {why}", path.display())
                );
                assert_eq!(
                    err.hint().as_deref(),
                    Some(
                        "remove it with `mur devtools verbs remove a`, or install it again with \
                         `mur devtools verbs add --force <a.wasm>`"
                    )
                );
            }
        }
    }

    /// A broken entry file is one verb's failure: the index loads without it, saving
    /// the others never touches it, an entry put by its name replaces it, and one
    /// taken out is removed, last (review 408, finding 2: `verbs list`, `catalog`,
    /// `verbs remove` and `verbs add --force` all failed on it).
    #[test]
    fn a_broken_entry_is_left_out_and_removed_or_replaced_by_name() {
        let tmp = saved(&["a", "b", "c"]);
        let b = entry_path(tmp.path(), "b");
        std::fs::write(&b, "garbage").expect("break b");
        let mut index = Index::load(tmp.path()).expect("load");
        assert_eq!(names(&index), ["a", "c"]);
        assert_eq!(
            index.broken()[0].warning(),
            format!(
                "skipping verb `b`: the verb index entry `{}` is not valid JSON at line 1 \
                 column 1; remove it with `mur devtools verbs remove b`, or install it again \
                 with `mur devtools verbs add --force <b.wasm>`",
                b.display()
            )
        );
        index.put(Entry {
            size: 9,
            ..entry("a")
        });
        index.save().expect("save a");
        assert_eq!(std::fs::read_to_string(&b).expect("b"), "garbage");

        let mut index = Index::load(tmp.path()).expect("load");
        assert_eq!(
            index.remove_broken("b").map(|b| b.name).as_deref(),
            Some("b")
        );
        assert!(index.remove_broken("a").is_none(), "a is no broken entry");
        index.save().expect("save without b");
        assert_eq!(entry_files(tmp.path()), ["a.json", "c.json"]);
        assert!(Index::load(tmp.path()).expect("load").broken().is_empty());

        std::fs::write(&b, "garbage").expect("break b again");
        let mut index = Index::load(tmp.path()).expect("load");
        index.put(entry("b"));
        index.save().expect("b replaced");
        let again = Index::load(tmp.path()).expect("reload");
        assert_eq!(names(&again), ["a", "b", "c"]);
        assert!(again.broken().is_empty());
    }

    #[test]
    fn a_legacy_index_mur_cannot_use_is_its_own_failure_with_the_way_out() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let path = tmp.path().join(LEGACY_FILE);
        std::fs::write(&path, "not json").expect("write");
        let err = Index::load(tmp.path()).expect_err("corrupt index");
        assert!(matches!(err, VerbError::Internal { .. }), "{err:?}");
        assert!(
            err.to_string().starts_with(&format!(
                "the verb index `{}` is not valid JSON at line 1 column 2",
                path.display()
            )),
            "{err}"
        );
        assert!(err.hint().is_some_and(|h| h.starts_with("remove `")));
        assert!(
            Index::load_only(tmp.path(), "a").is_err(),
            "a call sees it too"
        );

        std::fs::write(&path, "{\"schema\": \"mur-verbs/9\", \"verbs\": []}").expect("write");
        let err = Index::load_only(tmp.path(), "b").expect_err("unknown schema");
        assert!(err.to_string().contains("unknown schema"), "{err}");

        std::fs::remove_file(&path).expect("remove");
        std::fs::create_dir(&path).expect("a directory in its place");
        let err = Index::load(tmp.path()).expect_err("a directory");
        assert_eq!(
            err.to_string(),
            format!(
                "the verb index `{}` is a directory, not a regular file",
                path.display()
            )
        );
    }
}
