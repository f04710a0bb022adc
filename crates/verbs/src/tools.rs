//! The session's tool list (`tools/list`), cached per session identity (pid,
//! start time, build tag — or the endpoint alone for `--endpoint`), so a warm
//! derived verb costs no round trip beyond its call. A new session is a new
//! identity, hence a new entry; the host refreshes an entry when the server
//! answers "unknown tool" and on `--refresh`.
//!
//! Entries live in `<cache>/../tools/<key>.json` (`~/.cache/mur/tools`), in a
//! directory private to the user like the compile cache; a bad entry is a
//! miss, never trusted.
//!
//! A call needs one tool of the list: [`ToolCache::listed`] reads each entry's name
//! and builds only the entry asked for ([`Listed`]). Parsed whole into `Value`s, a
//! list costs 25–30 times its size (a map per schema object): 165 MB for
//! 10,000 tools of 20 properties (6.2 MB), on every derived verb's call. Completion
//! needs each tool's name and summary, and one tool whole: [`ToolCache::glance`]
//! ([`Glance`]).

use std::fmt;
use std::path::PathBuf;

use mur_core::sha256_hex;
use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde_json::Value;

use super::bounded::{self, Links};
use super::derived::Derived;
use super::dirs::VerbDirs;

/// What an entry holds, part of its key: a list kept as the server ordered each object's
/// keys. Entries written before (keyed without it) hold them sorted — a derived verb showed
/// its options alphabetically until `--refresh` — and are no longer found; the sweep
/// removes them with the other old lists.
const FORMAT: &str = "tools/2 server-order";

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

    /// The key of a session: its endpoint and identity, under the entries' format
    /// ([`FORMAT`]), so that an entry of another format is never found.
    pub fn key(endpoint: &str, identity: Option<&str>) -> String {
        sha256_hex(format!("{FORMAT}\n{endpoint}\n{}", identity.unwrap_or("")).as_bytes())
    }

    /// The cached `tools` array for `key`, if a sound entry exists: every entry built,
    /// for what shows them all; one tool is read with [`Self::listed`].
    pub fn load(&self, key: &str) -> Option<Vec<Value>> {
        let (path, bytes) = self.read(key)?;
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Array(tools)) => Some(tools),
            _ => {
                let _ = std::fs::remove_file(&path);
                None
            }
        }
    }

    /// The cached list for `key` with each entry's name read and no entry built, if a
    /// sound entry exists.
    pub fn listed(&self, key: &str) -> Option<Listed> {
        let (path, bytes) = self.read(key)?;
        match serde_json::from_slice::<Vec<EntryName>>(&bytes) {
            Ok(names) => Some(Listed {
                names: names.into_iter().map(|name| name.0).collect(),
                bytes,
            }),
            Err(_) => {
                let _ = std::fs::remove_file(&path);
                None
            }
        }
    }

    /// The cached list for `key` read for a glance ([`Glance`]: each entry's name and
    /// summary), if a sound entry exists.
    pub fn glance(&self, key: &str) -> Option<Glance> {
        let (path, bytes) = self.read(key)?;
        let glance = Glance::of_json(bytes);
        if glance.is_none() {
            let _ = std::fs::remove_file(&path);
        }
        glance
    }

    fn read(&self, key: &str) -> Option<(PathBuf, Vec<u8>)> {
        let path = self.dir.as_ref()?.join(format!("{key}.json"));
        let bytes = bounded::read_capped(&path, Links::Refuse, MAX_ENTRY_BYTES).ok()?;
        Some((path, bytes))
    }

    /// Keep `tools` for `key`; a failure only costs a `tools/list` next time.
    pub fn store(&self, key: &str, tools: &ToolTexts) {
        let Some(dir) = &self.dir else { return };
        let bytes = tools.json();
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

/// A cached tool list as read for one tool: its bytes and the name of each entry (`None`
/// for one without a string `name`), an entry built only when asked for.
pub struct Listed {
    bytes: Vec<u8>,
    names: Vec<Option<String>>,
}

/// A tool list whose entries are built one at a time, when asked for: the names are read,
/// the rest is kept as JSON text ([`Listed`], [`ToolTexts`]).
pub trait Entries {
    /// Each entry's name (`None` for one without a string `name`), in order.
    fn names(&self) -> Vec<Option<&str>>;

    /// The entry at `at`, built alone.
    fn entry(&self, at: usize) -> Option<Value>;

    /// Where the tool named `name` is.
    fn position(&self, name: &str) -> Option<usize> {
        self.names().iter().position(|n| *n == Some(name))
    }

    /// The entry of the tool named `name`.
    fn named(&self, name: &str) -> Option<Value> {
        self.entry(self.position(name)?)
    }

    /// The verb a word names ([`Derived::pick`]) and its tool's entry, only that entry built.
    fn pick(&self, word: &str) -> Option<(Derived, Value)> {
        let (at, verb) = Derived::pick_at(&self.names(), word)?;
        let tool = self.entry(at)?;
        Some((Derived::of_entry(&tool, verb)?, tool))
    }
}

impl Entries for Listed {
    fn names(&self) -> Vec<Option<&str>> {
        self.names.iter().map(Option::as_deref).collect()
    }

    /// The others are skipped unbuilt.
    fn entry(&self, at: usize) -> Option<Value> {
        nth(&self.bytes, at)
    }
}

/// A tool list read for a glance, as completion reads it at each <Tab>: each entry's
/// name and its verb's summary ([`Glanced`]), read off the members they are made of; an
/// entry whole is built when asked for (the verb a line names, to complete its options).
/// The cached list of 50,000 tools (13 MB) built whole cost a <Tab> 1.9 s and 218 MB (a
/// debug build); read so, 0.5–0.8 s and 48 MB.
#[derive(Default)]
pub struct Glance {
    bytes: Vec<u8>,
    glanced: Vec<Glanced>,
}

/// An entry of a list read for a glance: its string `name`, and the summary of its verb
/// ([`derived::summary_of`]), read without building the rest of the entry.
///
/// [`derived::summary_of`]: crate::derived::summary_of
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glanced {
    pub name: Option<String>,
    pub summary: String,
}

impl Glance {
    /// The list `bytes` (a JSON array), read for a glance; `None` when it is none.
    pub fn of_json(bytes: Vec<u8>) -> Option<Self> {
        let glanced = serde_json::from_slice(&bytes).ok()?;
        Some(Self { bytes, glanced })
    }

    /// A list just read, each entry kept as its text ([`ToolTexts`]), read for a glance.
    pub fn of_texts(tools: &ToolTexts) -> Self {
        Self::of_json(tools.json()).unwrap_or_default()
    }

    /// Each entry's name and summary, in order.
    pub fn tools(&self) -> &[Glanced] {
        &self.glanced
    }
}

impl Entries for Glance {
    fn names(&self) -> Vec<Option<&str>> {
        self.glanced
            .iter()
            .map(|tool| tool.name.as_deref())
            .collect()
    }

    /// The others are skipped unbuilt.
    fn entry(&self, at: usize) -> Option<Value> {
        nth(&self.bytes, at)
    }
}

/// The entry at `at` of the list `bytes`, built alone.
fn nth(bytes: &[u8], at: usize) -> Option<Value> {
    let mut read = serde_json::Deserializer::from_slice(bytes);
    read.deserialize_seq(Nth(at)).ok().flatten()
}

/// A tool list as a session sent it, each entry kept as its compact JSON text and its
/// name: what a fresh `tools/list` is read into, page by page, the client keeping each
/// entry's text as it parses the page (no page is built whole). Built, a list costs
/// 25–30 times its size; kept so, about its size, and what needs one tool (a derived
/// verb, `catalog` walking them) builds it alone.
#[derive(Default)]
pub struct ToolTexts {
    texts: Vec<Box<str>>,
    names: Vec<Option<String>>,
}

impl ToolTexts {
    /// `tools`, entries built already (`call tools/list`'s result), kept as texts.
    pub fn of(tools: &[Value]) -> Self {
        let mut texts = Self::default();
        for tool in tools {
            texts.push(tool);
        }
        texts
    }

    /// Keeps `tool`, the next entry; how many bytes its text is.
    pub fn push(&mut self, tool: &Value) -> u64 {
        let name = tool.get("name").and_then(Value::as_str).map(str::to_owned);
        self.push_text(tool.to_string().into_boxed_str(), name)
    }

    /// Keeps the next entry as its compact JSON `text` (as a `Value` of it writes it,
    /// so it is built back the same) and its string `name`, as read by the client from
    /// a page whose entries it never built together; how many bytes the text is.
    pub fn push_text(&mut self, text: Box<str>, name: Option<String>) -> u64 {
        let bytes = text.len() as u64;
        self.names.push(name);
        self.texts.push(text);
        bytes
    }

    pub fn len(&self) -> usize {
        self.texts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// Every entry built: for what needs them all at once.
    pub fn values(&self) -> Vec<Value> {
        (0..self.len()).filter_map(|at| self.entry(at)).collect()
    }

    /// The list as one JSON array, as the cache keeps it.
    pub fn json(&self) -> Vec<u8> {
        let bytes = self.texts.iter().map(|t| t.len() + 1).sum::<usize>() + 1;
        let mut json = Vec::with_capacity(bytes);
        json.push(b'[');
        for (at, text) in self.texts.iter().enumerate() {
            if at > 0 {
                json.push(b',');
            }
            json.extend_from_slice(text.as_bytes());
        }
        json.push(b']');
        json
    }
}

impl Entries for ToolTexts {
    fn names(&self) -> Vec<Option<&str>> {
        self.names.iter().map(Option::as_deref).collect()
    }

    fn entry(&self, at: usize) -> Option<Value> {
        serde_json::from_str(self.texts.get(at)?).ok()
    }
}

/// What a visitor of an entry makes of one that is no object: `$none`, anything in it
/// skipped unbuilt.
macro_rules! no_object {
    ($none:expr) => {
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok($none)
        }

        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($none)
        }

        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($none)
        }

        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($none)
        }

        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($none)
        }

        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok($none)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($none)
        }
    };
}

impl<'de> Deserialize<'de> for Glanced {
    fn deserialize<D: Deserializer<'de>>(from: D) -> Result<Self, D::Error> {
        from.deserialize_any(GlanceOf)
    }
}

/// Reads an entry's `name`, `description`, `title` and `annotations.title`, each the last
/// where one is given twice (as a `Value` of the entry keeps it), the rest unbuilt.
struct GlanceOf;

impl<'de> Visitor<'de> for GlanceOf {
    type Value = Glanced;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a tool")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Glanced, A::Error> {
        let (mut name, mut description, mut title, mut annotated) = (None, None, None, None);
        while let Some(key) = map.next_key::<Key>()? {
            match key.0 {
                Some("name") => name = map.next_value::<Value>()?.as_str().map(str::to_owned),
                Some("description") => description = Some(map.next_value::<Value>()?),
                Some("title") => title = Some(map.next_value::<Value>()?),
                Some("annotations") => annotated = map.next_value_seed(Member("title"))?,
                _ => drop(map.next_value::<IgnoredAny>()?),
            }
        }
        let title = annotated.as_ref().or(title.as_ref());
        let named = name.as_deref().unwrap_or("");
        let summary = crate::derived::described_by(description.as_ref(), title, named).0;
        Ok(Glanced { name, summary })
    }

    no_object!(Glanced {
        name: None,
        summary: String::new(),
    });
}

/// A key of an entry's object, as a glance reads it: one of those it keeps, else `None`,
/// no key copied (a <Tab> read three keys of each of 50,000 tools).
struct Key(Option<&'static str>);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(from: D) -> Result<Self, D::Error> {
        from.deserialize_str(KeyOf)
    }
}

struct KeyOf;

impl<'de> Visitor<'de> for KeyOf {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
        let kept = ["name", "description", "title", "annotations"];
        Ok(Key(kept.into_iter().find(|k| *k == key)))
    }
}

/// The value of one member of an object (the last where it is given twice, as a `Value`
/// keeps it), the others skipped unbuilt: `None` where it is no object or gives none.
/// The `title` of an entry's `annotations`; an entry's `name`.
struct Member(&'static str);

impl<'de> DeserializeSeed<'de> for Member {
    type Value = Option<Value>;

    fn deserialize<D: Deserializer<'de>>(self, from: D) -> Result<Option<Value>, D::Error> {
        from.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Member {
    type Value = Option<Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an object with a `{}`", self.0)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<Value>, A::Error> {
        let mut member = None;
        while let Some(key) = map.next_key::<Key>()? {
            match key.0 == Some(self.0) {
                true => member = Some(map.next_value::<Value>()?),
                false => drop(map.next_value::<IgnoredAny>()?),
            }
        }
        Ok(member)
    }

    no_object!(None);
}

/// An entry of a list read for its name alone: a string `name` of an object, the rest
/// skipped unbuilt (the last `name` where one is given twice, as a `Value` keeps it).
struct EntryName(Option<String>);

impl<'de> Deserialize<'de> for EntryName {
    fn deserialize<D: Deserializer<'de>>(from: D) -> Result<Self, D::Error> {
        let name = Member("name").deserialize(from)?;
        Ok(EntryName(
            name.as_ref().and_then(Value::as_str).map(str::to_owned),
        ))
    }
}

/// The element at an index of an array, built; every other one skipped unbuilt.
struct Nth(usize);

impl<'de> Visitor<'de> for Nth {
    type Value = Option<Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a tool list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<Value>, A::Error> {
        let mut found = None;
        let mut at = 0;
        loop {
            if at == self.0 {
                found = seq.next_element::<Value>()?;
            } else if seq.next_element::<IgnoredAny>()?.is_none() {
                return Ok(found);
            }
            at += 1;
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
        cache.store(&one, &ToolTexts::of(&[serde_json::json!({"name": "tree"})]));
        assert_eq!(cache.load(&one).map(|t| t.len()), Some(1));
        assert_eq!(cache.load(&other), None, "another session, another list");
        let path = tmp.path().join(format!("cache/tools/{one}.json"));
        std::fs::write(&path, "{broken").expect("scribble");
        assert_eq!(cache.load(&one), None);
        assert!(!path.exists(), "a bad entry is removed");
        cache.store(&one, &ToolTexts::default());
        cache.forget(&one);
        assert_eq!(cache.load(&one), None);
    }

    /// A derived verb's call builds only its own tool's entry from the cached list: the
    /// other entries are skipped unbuilt. Shown by another tool's schema holding a number
    /// no `Value` can (`1e999`, which serde_json refuses to build but skips): the list
    /// built whole is a miss, the tool asked for is found all the same; names only
    /// decide which verb a word is, as [`Derived::pick`] does on the whole list.
    #[test]
    fn one_tool_is_read_from_a_cached_list_without_building_the_others() {
        let (tmp, dirs) = crate::tests::temp_dirs();
        let cache = ToolCache::open(&dirs);
        let key = ToolCache::key("http://127.0.0.1:1/mcp", None);
        let wanted = serde_json::json!({"name": "waitFor", "inputSchema": {"type": "object",
            "properties": {"selector": {"type": "string"}}}});
        let list = format!(
            r#"[{{"name":"get_sum","inputSchema":{{"type":"object","properties":{{"a":{{"maximum":1e999}}}}}}}},
                7, {{"name":"getSum"}}, {{"inputSchema":{{}}}}, {wanted}, {{"name":"last","name":"late"}}]"#
        );
        let path = tmp.path().join(format!("cache/tools/{key}.json"));
        std::fs::write(&path, &list).expect("list");
        let listed = cache.listed(&key).expect("a sound list");
        assert_eq!(
            listed.names(),
            [
                Some("get_sum"),
                None,
                Some("getSum"),
                None,
                Some("waitFor"),
                Some("late")
            ]
        );
        let (verb, tool) = listed.pick("wait-for").expect("by its verb name");
        assert_eq!((verb.name.as_str(), &tool), ("wait-for", &wanted));
        assert_eq!(
            listed.pick("waitFor").map(|(_, tool)| tool),
            Some(wanted.clone())
        );
        // `get_sum` and `getSum` share `get-sum`: each is a verb by its own name only.
        assert!(listed.pick("get-sum").is_none());
        assert_eq!(
            listed.named("getSum"),
            Some(serde_json::json!({"name": "getSum"}))
        );
        assert_eq!(listed.named("nothing"), None);
        // Built whole, the list is refused (and dropped as a bad entry).
        assert_eq!(cache.load(&key), None);
        std::fs::write(&path, "[{\"name\": \"a\"}").expect("cut short");
        assert!(cache.listed(&key).is_none(), "a list cut short is a miss");
        assert!(!path.exists(), "and is removed");
    }

    /// A fresh list is kept as each entry's text: stored, it is the list as sent (each
    /// object's keys in the server's order), and one entry is built alone, by name or
    /// by verb, as from the cache.
    #[test]
    fn a_list_kept_as_texts_is_cached_as_sent_and_built_one_entry_at_a_time() {
        let (tmp, dirs) = crate::tests::temp_dirs();
        let cache = ToolCache::open(&dirs);
        let key = ToolCache::key("http://127.0.0.1:1/mcp", None);
        let sent: Vec<Value> = serde_json::from_str(
            r#"[{"name":"waitFor","inputSchema":{"type":"object","properties":{"z":{},"a":{}}}},
                7, {"description":"no name"}, {"name":"tree"}]"#,
        )
        .expect("a list");
        let mut texts = ToolTexts::default();
        let bytes: u64 = sent.iter().map(|tool| texts.push(tool)).sum();
        assert_eq!(
            bytes as usize + 5,
            texts.json().len(),
            "the texts, a comma each, [ ]"
        );
        assert_eq!(texts.names(), [Some("waitFor"), None, None, Some("tree")]);
        // Kept from the texts the client read (a page never built whole): the same list.
        let mut read = ToolTexts::default();
        for tool in &sent {
            let name = tool.get("name").and_then(Value::as_str).map(str::to_owned);
            let text = tool.to_string();
            assert_eq!(read.push_text(text.clone().into(), name), text.len() as u64);
        }
        assert_eq!((read.json(), read.names()), (texts.json(), texts.names()));
        assert_eq!(
            texts.named("tree"),
            Some(serde_json::json!({"name": "tree"}))
        );
        let (verb, tool) = texts.pick("wait-for").expect("by its verb name");
        assert_eq!((verb.name.as_str(), &tool), ("wait-for", &sent[0]));
        assert_eq!(texts.values(), sent);
        cache.store(&key, &texts);
        let stored = std::fs::read_to_string(tmp.path().join(format!("cache/tools/{key}.json")))
            .expect("the entry");
        assert!(
            stored.contains(r#""properties":{"z":{},"a":{}}"#),
            "{stored}"
        );
        assert_eq!(cache.load(&key), Some(sent.clone()));
        let listed = cache.listed(&key).expect("stored");
        assert_eq!(listed.names(), texts.names());
        assert_eq!(listed.entry(0), Some(sent[0].clone()));
    }

    /// A list read for a glance (completion's, at each <Tab>) gives each entry's name and
    /// its verb's summary as the entry built whole does, whatever members give them (a
    /// key given twice, escaped, annotations that are no object, a title that is no
    /// text), and builds an entry whole only when asked for: the schemas are skipped
    /// unbuilt, as a number no `Value` holds (`1e999`) shows.
    #[test]
    fn a_list_read_for_a_glance_names_and_sums_up_each_tool_as_built_whole() {
        let (tmp, dirs) = crate::tests::temp_dirs();
        let cache = ToolCache::open(&dirs);
        let key = ToolCache::key("http://127.0.0.1:1/mcp", None);
        let tools = [
            r#"{"name":"a","description":"One. Two.\nThree","inputSchema":{"type":"object"}}"#,
            r#"{"name":"b","title":"Bee","description":"  "}"#,
            r#"{"name":"c","title":"Sea","annotations":{"title":"See","readOnlyHint":true}}"#,
            r#"{"name":"d","title":"Dee","annotations":{"title":7}}"#,
            r#"{"name":"e","title":"Eh","annotations":"none"}"#,
            r#"{"name":"f","annotations":{"title":"First"},"annotations":{}}"#,
            r#"{"n\u0061me":"g","name":"late","descr\u0069ption":"Escaped. Keys"}"#,
            r#"{"name":7,"description":"Unnamed"}"#,
            r#"7"#,
            r#"["h"]"#,
            r#"{"name":"i","description":"\u200bHidden. Rest"}"#,
        ];
        let text = format!("[{}]", tools.join(","));
        let whole: Vec<Value> = serde_json::from_str(&text).expect("a list");
        let glance = Glance::of_json(text.clone().into_bytes()).expect("a list");
        let expected: Vec<Glanced> = whole
            .iter()
            .map(|tool| Glanced {
                name: tool.get("name").and_then(Value::as_str).map(str::to_owned),
                summary: crate::derived::summary_of(tool),
            })
            .collect();
        assert_eq!(glance.tools(), expected);
        assert_eq!(glance.tools()[3].summary, "d", "a title that is no text");
        assert_eq!(glance.tools()[6].summary, "Escaped");
        assert_eq!(glance.entry(2), Some(whole[2].clone()));
        assert_eq!(glance.names()[6], Some("late"));
        // The schemas are not built; a list cached so is read for a glance all the same.
        let unbuilt = r#"[{"name":"x","inputSchema":{"maximum":1e999}},{"name":"y"}]"#;
        let path = tmp.path().join(format!("cache/tools/{key}.json"));
        std::fs::write(&path, unbuilt).expect("list");
        let glanced = cache.glance(&key).expect("a sound list");
        assert_eq!(glanced.names(), [Some("x"), Some("y")]);
        assert_eq!(glanced.entry(1), Some(serde_json::json!({"name": "y"})));
        std::fs::write(&path, "[{\"name\": \"a\"}").expect("cut short");
        assert!(cache.glance(&key).is_none(), "a list cut short is a miss");
        assert!(!path.exists(), "and is removed");
    }

    /// A list cached by an older mur, keyed by endpoint and identity alone, held each
    /// schema's properties sorted: it is not found, so the session's list is read afresh
    /// and a derived verb's options come in the server's order.
    #[test]
    fn a_list_cached_in_the_former_format_is_not_trusted() {
        let (tmp, dirs) = crate::tests::temp_dirs();
        let cache = ToolCache::open(&dirs);
        let (endpoint, identity) = ("http://127.0.0.1:1/mcp", Some("7 t b"));
        let former = sha256_hex(format!("{endpoint}\n7 t b").as_bytes());
        let sorted = r#"[{"name":"tree","inputSchema":{"properties":{"a":{},"z":{}}}}]"#;
        std::fs::write(
            tmp.path().join(format!("cache/tools/{former}.json")),
            sorted,
        )
        .expect("a list of the former format");
        let key = ToolCache::key(endpoint, identity);
        assert!(cache.listed(&key).is_none());
        assert_eq!(cache.load(&key), None);
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
        assert_eq!(
            mur_testkit::names_in(tmp.path()),
            ["a.json", "b.json", "notes.txt"]
        );
    }
}
