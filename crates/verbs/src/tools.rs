//! The session's tool list (`tools/list`), cached per session identity (pid,
//! start time, build tag — or the endpoint alone for `--endpoint`), so a warm
//! derived verb costs no round trip beyond its call. A new session is a new
//! identity, hence a new entry; the host refreshes an entry when the server
//! answers "unknown tool" and on `--refresh`.
//!
//! Entries live in `<cache>/../tools/<key>.json` (`~/.cache/mur/tools`), in a
//! directory private to the user like the compile cache; a bad entry is a
//! miss, never trusted.

use std::path::PathBuf;

use serde_json::Value;

use super::bounded::{self, Links};
use super::dirs::VerbDirs;
use super::runtime::sha256_hex;

/// The largest tool list kept: far beyond any real server's.
const MAX_ENTRY_BYTES: u64 = 16 << 20;

/// How many lists are kept: a list serves one session (an app's run, a reload, a
/// bridge), so older ones are of sessions long gone; each new one sweeps past this.
/// Without a sweep the directory grew by a list per session for ever (100–200 KB
/// each for a large server, reloaded many times a day).
const KEEP_ENTRIES: usize = 64;
/// Lists not written for this long are swept too, however few.
const KEEP_FOR: std::time::Duration = std::time::Duration::from_secs(7 * 86_400);

/// The on-disk tool lists; disabled when its directory is unsafe.
pub struct ToolCache {
    dir: Option<PathBuf>,
}

impl ToolCache {
    pub fn open(dirs: &VerbDirs) -> Self {
        let dir = dirs.cache.with_file_name("tools");
        match mur_lockfile::ensure_private_dir(&dir, "tool-list cache") {
            Ok(()) => Self { dir: Some(dir) },
            Err(why) => {
                tracing::warn!("not caching tool lists in `{}`: {why}", dir.display());
                Self { dir: None }
            }
        }
    }

    /// The key of a session: its endpoint and identity.
    pub fn key(endpoint: &str, identity: Option<&str>) -> String {
        sha256_hex(format!("{endpoint}\n{}", identity.unwrap_or("")).as_bytes())
    }

    /// The cached `tools` array for `key`, if a sound entry exists.
    pub fn load(&self, key: &str) -> Option<Vec<Value>> {
        let path = self.dir.as_ref()?.join(format!("{key}.json"));
        let bytes = bounded::read_capped(&path, Links::Refuse, MAX_ENTRY_BYTES).ok()?;
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Array(tools)) => Some(tools),
            _ => {
                let _ = std::fs::remove_file(&path);
                None
            }
        }
    }

    /// Keep `tools` for `key`; a failure only costs a `tools/list` next time.
    pub fn store(&self, key: &str, tools: &[Value]) {
        let Some(dir) = &self.dir else { return };
        let Ok(bytes) = serde_json::to_vec(tools) else {
            return;
        };
        if let Err(e) = mur_lockfile::write_atomic(&dir.join(format!("{key}.json")), &bytes) {
            tracing::debug!("could not cache the tool list: {e}");
        }
        sweep(dir, KEEP_ENTRIES, KEEP_FOR);
    }

    /// Drop the entry for `key` (the server said a tool is unknown).
    pub fn forget(&self, key: &str) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_file(dir.join(format!("{key}.json")));
        }
    }
}

/// Removes the lists in `dir` past the newest `keep`, and any not written for `age`:
/// only files that are lists (`<key>.json`, regular), newest by modification time.
fn sweep(dir: &std::path::Path, keep: usize, age: std::time::Duration) {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return;
    };
    let mut lists: Vec<(std::time::SystemTime, PathBuf)> = listing
        .flatten()
        .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "json"))
        .filter_map(|entry| {
            let meta = entry.metadata().ok().filter(std::fs::Metadata::is_file)?;
            Some((meta.modified().ok()?, entry.path()))
        })
        .collect();
    lists.sort_by_key(|(written, _)| std::cmp::Reverse(*written));
    let now = std::time::SystemTime::now();
    for (at, (written, path)) in lists.iter().enumerate() {
        let old = now.duration_since(*written).is_ok_and(|since| since > age);
        if at >= keep || old {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_kept_per_session_and_a_bad_entry_is_a_miss() {
        let (tmp, dirs) = crate::tests::temp_dirs();
        let cache = ToolCache::open(&dirs);
        let one = ToolCache::key("http://127.0.0.1:1/mcp", Some("7 t b"));
        let other = ToolCache::key("http://127.0.0.1:1/mcp", Some("8 t b"));
        assert_eq!(cache.load(&one), None);
        cache.store(&one, &[serde_json::json!({"name": "tree"})]);
        assert_eq!(cache.load(&one).map(|t| t.len()), Some(1));
        assert_eq!(cache.load(&other), None, "another session, another list");
        let path = tmp.path().join(format!("cache/tools/{one}.json"));
        std::fs::write(&path, "{broken").expect("scribble");
        assert_eq!(cache.load(&one), None);
        assert!(!path.exists(), "a bad entry is removed");
        cache.store(&one, &[]);
        cache.forget(&one);
        assert_eq!(cache.load(&one), None);
    }

    #[test]
    fn lists_past_the_newest_kept_or_not_written_for_a_week_are_swept() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let at = |name: &str, days_ago: u64| {
            let path = tmp.path().join(name);
            std::fs::write(&path, "[]").expect("list");
            let written = std::time::SystemTime::now()
                - std::time::Duration::from_secs(days_ago * 86_400 + 60);
            std::fs::File::options()
                .write(true)
                .open(&path)
                .and_then(|file| file.set_modified(written))
                .expect("mtime");
        };
        for (name, days_ago) in [("a.json", 0), ("b.json", 1), ("c.json", 2), ("d.json", 8)] {
            at(name, days_ago);
        }
        at("notes.txt", 30);
        sweep(tmp.path(), 2, KEEP_FOR);
        let mut left: Vec<String> = std::fs::read_dir(tmp.path())
            .expect("dir")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["a.json", "b.json", "notes.txt"]);
    }
}
