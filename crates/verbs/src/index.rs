//! The verb index: `index.json` in the verb directory, one entry per installed
//! verb. Help and dispatch read it instead of instantiating every component.
//!
//! Each entry records the file's sha256 (the compile-cache key, computed once at
//! install), and its size and modification time, so a `.wasm` replaced behind
//! the index's back is noticed with one `stat` instead of a rehash per call.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

use super::bounded::{self, Links};
use super::error::{VerbError, io_error};
use super::spec::{VerbSpec, with_tool_line};

const INDEX_FILE: &str = "index.json";
const SCHEMA: &str = "mur-verbs/1";

/// The largest index `mur` reads. An entry is about a kilobyte, and at most
/// ~66 KiB (a verb's usage and summary are capped at install, see
/// `manage::check_info`), so this holds a thousand verbs even at the worst.
pub const MAX_INDEX_BYTES: u64 = 64 << 20;

/// One installed verb.
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<VerbSpec>,
    /// The file it was installed from, as `verbs add` was given it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The language it was written in, from its producers section.
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
    /// renders every verb alike), else the text kept at install.
    pub fn usage_text(&self) -> String {
        match &self.spec {
            Some(spec) if !self.hints.is_empty() => VerbSpec {
                details: with_tool_line(&spec.details, &self.tool, &self.hints),
                ..spec.clone()
            }
            .render(&self.name, &self.summary),
            Some(spec) => spec.render(&self.name, &self.summary),
            None => self.usage.clone(),
        }
    }
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
    /// Loaded by [`Index::load_only`]: `verbs` holds at most the one entry
    /// asked for, so [`Index::save`] merges it into the file instead.
    partial: bool,
}

impl Index {
    /// Load the index; a missing directory or file is an empty index. Anything
    /// but a regular file of at most [`MAX_INDEX_BYTES`] (a FIFO, a link, a
    /// device) is refused at once, never waited on.
    pub fn load(dir: &Path) -> Result<Self, VerbError> {
        let path = dir.join(INDEX_FILE);
        let verbs = match bounded::read_capped(&path, Links::Refuse, MAX_INDEX_BYTES) {
            Ok(bytes) => parse(&path, &bytes)?,
            Err(refusal) if refusal.is_not_found() => Vec::new(),
            Err(refusal) => return Err(broken(&path, refusal.to_string())),
        };
        Ok(Self {
            dir: dir.to_owned(),
            verbs,
            partial: false,
        })
    }

    /// The index with only the entry of verb `name` (if installed): what a
    /// call needs. The other entries are skipped as they are read, not built,
    /// which is most of the cost of loading the index of twenty verbs.
    pub fn load_only(dir: &Path, name: &str) -> Result<Self, VerbError> {
        let path = dir.join(INDEX_FILE);
        let verbs = match bounded::read_capped(&path, Links::Refuse, MAX_INDEX_BYTES) {
            Ok(bytes) => only::parse(&bytes, name)
                .map_err(|e| broken(&path, format!("is unreadable: {e}")))
                .and_then(|file| checked(&path, file))?,
            Err(refusal) if refusal.is_not_found() => Vec::new(),
            Err(refusal) => return Err(broken(&path, refusal.to_string())),
        };
        Ok(Self {
            dir: dir.to_owned(),
            verbs,
            partial: true,
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
        if self.partial {
            let mut full = Self::load(&self.dir)?;
            for entry in &self.verbs {
                full.put(entry.clone());
            }
            return full.save();
        }
        let file = IndexFile {
            schema: SCHEMA.into(),
            verbs: self.verbs.clone(),
        };
        // Compact: every named or data verb call reads and scans this file (a
        // pretty one was 37 KB for the 19 standard verbs, compact 27 KB), and
        // only `mur` reads it; `verbs list --json` is the view for people.
        let mut bytes =
            serde_json::to_vec(&file).map_err(|e| VerbError::internal(e.to_string()))?;
        bytes.push(b'\n');
        write_atomic(&self.dir.join(INDEX_FILE), &bytes)
    }
}

fn parse(path: &Path, bytes: &[u8]) -> Result<Vec<Entry>, VerbError> {
    let file: IndexFile =
        serde_json::from_slice(bytes).map_err(|e| broken(path, format!("is unreadable: {e}")))?;
    checked(path, file)
}

/// The entries of an index of the known schema.
fn checked(path: &Path, file: IndexFile) -> Result<Vec<Entry>, VerbError> {
    if file.schema != SCHEMA {
        return Err(broken(
            path,
            format!("is unreadable: unknown schema `{}`", file.schema),
        ));
    }
    Ok(file.verbs)
}

/// An index mur cannot use is mur's own failure (exit 7). Every `verbs`
/// command loads the index first, so the way out starts with removing it.
fn broken(path: &Path, why: String) -> VerbError {
    VerbError::internal_with_hint(
        format!("the verb index `{}` {why}", path.display()),
        format!(
            "remove `{}`, then reinstall the verbs with `mur devtools verbs add --force <file.wasm>...`",
            path.display()
        ),
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

/// Reading the index for one verb: every other entry is skipped by the
/// parser (checked as JSON, never built), as soon as its `name` says it is
/// not the one (mur writes `name` first).
mod only {
    use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use serde_json::{Map, Value};

    use super::{Entry, IndexFile};

    pub fn parse(bytes: &[u8], name: &str) -> serde_json::Result<IndexFile> {
        let mut deserializer = serde_json::Deserializer::from_slice(bytes);
        let file = File(name).deserialize(&mut deserializer)?;
        deserializer.end()?;
        Ok(file)
    }

    /// The whole file: `schema`, and `verbs` through [`Verbs`].
    struct File<'a>(&'a str);

    impl<'de> DeserializeSeed<'de> for File<'_> {
        type Value = IndexFile;
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<IndexFile, D::Error> {
            d.deserialize_map(self)
        }
    }

    impl<'de> Visitor<'de> for File<'_> {
        type Value = IndexFile;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a verb index")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<IndexFile, A::Error> {
            let (mut schema, mut verbs) = (None, Vec::new());
            while let Some(key) = map.next_key::<String>()? {
                match key.as_str() {
                    "schema" => schema = Some(map.next_value::<String>()?),
                    "verbs" => verbs = map.next_value_seed(Verbs(self.0))?,
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            let schema = schema.ok_or_else(|| de::Error::missing_field("schema"))?;
            Ok(IndexFile { schema, verbs })
        }
    }

    /// The `verbs` array, keeping only the entry named `.0`.
    struct Verbs<'a>(&'a str);

    impl<'de> DeserializeSeed<'de> for Verbs<'_> {
        type Value = Vec<Entry>;
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Vec<Entry>, D::Error> {
            d.deserialize_seq(self)
        }
    }

    impl<'de> Visitor<'de> for Verbs<'_> {
        type Value = Vec<Entry>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of verbs")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Entry>, A::Error> {
            let mut kept = Vec::new();
            while let Some(entry) = seq.next_element_seed(One(self.0))? {
                kept.extend(entry);
            }
            Ok(kept)
        }
    }

    /// One entry: built if its name is `.0`, else skipped.
    struct One<'a>(&'a str);

    impl<'de> DeserializeSeed<'de> for One<'_> {
        type Value = Option<Entry>;
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Option<Entry>, D::Error> {
            d.deserialize_map(self)
        }
    }

    impl<'de> Visitor<'de> for One<'_> {
        type Value = Option<Entry>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a verb entry")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<Entry>, A::Error> {
            let mut fields = Map::new();
            while let Some(key) = map.next_key::<String>()? {
                let value = map.next_value::<Value>()?;
                if key == "name" && value.as_str() != Some(self.0) {
                    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                    return Ok(None);
                }
                fields.insert(key, value);
            }
            serde_json::from_value(Value::Object(fields))
                .map(Some)
                .map_err(de::Error::custom)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_only_keeps_the_one_entry_and_saving_it_keeps_the_others() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let entry = |name: &str| Entry {
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
        };
        let mut full = Index::load(tmp.path()).expect("empty");
        for name in ["a", "b", "c"] {
            full.put(entry(name));
        }
        full.save().expect("save");
        let text = std::fs::read_to_string(tmp.path().join(INDEX_FILE)).expect("index");
        assert_eq!(text.lines().count(), 1, "written compact: {text}");

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
        let names: Vec<&str> = again.verbs.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(again.get("b").map(|e| e.size), Some(9));

        std::fs::write(
            tmp.path().join(INDEX_FILE),
            "{\"schema\": \"mur-verbs/9\", \"verbs\": []}",
        )
        .expect("write");
        let err = Index::load_only(tmp.path(), "b").expect_err("unknown schema");
        assert!(err.to_string().contains("unknown schema"), "{err}");
    }

    #[test]
    fn an_index_mur_cannot_use_is_its_own_failure_with_the_way_out() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let path = tmp.path().join(INDEX_FILE);
        std::fs::write(&path, "not json").expect("write");
        let err = Index::load(tmp.path()).expect_err("corrupt index");
        assert!(matches!(err, VerbError::Internal { .. }), "{err:?}");
        assert!(
            err.to_string().starts_with(&format!(
                "the verb index `{}` is unreadable: ",
                path.display()
            )),
            "{err}"
        );
        assert!(err.hint().is_some_and(|h| h.starts_with("remove `")));

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
