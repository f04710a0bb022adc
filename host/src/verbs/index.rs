//! The verb index: `index.json` in the verb directory, one entry per installed
//! verb. Help and dispatch read it instead of instantiating every component.
//!
//! Each entry records the file's sha256 (the compile-cache key, computed once at
//! install), and its size and modification time, so a `.wasm` replaced behind
//! the index's back is noticed with one `stat` instead of a rehash per call.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

use super::error::{VerbError, io_error};

const INDEX_FILE: &str = "index.json";
const SCHEMA: &str = "mur-verbs/1";

/// One installed verb.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub name: String,
    pub tool: String,
    pub summary: String,
    pub usage: String,
    /// File name inside the verb directory.
    pub file: String,
    pub sha256: String,
    pub size: u64,
    /// Modification time of `file` in nanoseconds since the Unix epoch.
    pub mtime_ns: u128,
    pub added_at: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct IndexFile {
    schema: String,
    verbs: Vec<Entry>,
}

/// The index as loaded from (and saved to) one verb directory.
#[derive(Debug)]
pub struct Index {
    dir: PathBuf,
    pub verbs: Vec<Entry>,
}

impl Index {
    /// Load the index; a missing directory or file is an empty index.
    pub fn load(dir: &Path) -> Result<Self, VerbError> {
        let path = dir.join(INDEX_FILE);
        let verbs = match std::fs::read(&path) {
            Ok(bytes) => parse(&path, &bytes)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io_error("read the verb index", &path, e)),
        };
        Ok(Self {
            dir: dir.to_owned(),
            verbs,
        })
    }

    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.verbs.iter().find(|e| e.name == name)
    }

    /// Add or replace the entry with this name, keeping the list sorted.
    pub fn put(&mut self, entry: Entry) {
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

    /// Write the index atomically, so a concurrent reader sees old or new, never
    /// half. Two concurrent writers (`verbs add` in two shells) are not merged:
    /// the last one wins, and a lost verb is added again with `verbs add`.
    pub fn save(&self) -> Result<(), VerbError> {
        let file = IndexFile {
            schema: SCHEMA.into(),
            verbs: self.verbs.clone(),
        };
        let mut bytes =
            serde_json::to_vec_pretty(&file).map_err(|e| VerbError::Registry(e.to_string()))?;
        bytes.push(b'\n');
        write_atomic(&self.dir.join(INDEX_FILE), &bytes)
    }
}

fn parse(path: &Path, bytes: &[u8]) -> Result<Vec<Entry>, VerbError> {
    let broken = |why: String| {
        VerbError::refused(
            format!("the verb index `{}` is unreadable: {why}", path.display()),
            "reinstall the verbs with `mur devtools verbs add --force <file.wasm>...`",
        )
    };
    let file: IndexFile = serde_json::from_slice(bytes).map_err(|e| broken(e.to_string()))?;
    if file.schema != SCHEMA {
        return Err(broken(format!("unknown schema `{}`", file.schema)));
    }
    Ok(file.verbs)
}

/// Size and modification time of a file, as recorded in an [`Entry`].
pub fn stamp(path: &Path) -> std::io::Result<(u64, u128)> {
    let meta = std::fs::metadata(path)?;
    let mtime = meta
        .modified()?
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    Ok((meta.len(), mtime))
}

/// Write `bytes` to `path` through a temporary file in the same directory and a
/// rename, so readers never observe a partial file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), VerbError> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(io_error("write", path, e));
    }
    Ok(())
}
