//! The session's tool list as last cached, by endpoint and identity: the one reader
//! (and writer) of `mur_verbs`' tool cache on the host. Below the call path, which
//! reads it after a failure ([`crate::invoke`]: whether a tool is read-only, or runs
//! only as a task), and below the tool list the commands read ([`crate::tools`]).

use mur_verbs::VerbDirs;
use mur_verbs::tools::{Glance, Listed, ToolCache, ToolTexts};
use serde_json::Value;

/// One session's entry in the cache; none to read or write without mur's directories.
pub struct CachedTools {
    cache: Option<ToolCache>,
    key: String,
}

impl CachedTools {
    /// The entry of the session at `endpoint` whose identity (pid, start time, build
    /// tag) is `identity`: another process at the same endpoint has another.
    pub fn of(endpoint: &str, identity: Option<&str>) -> Self {
        let cache = VerbDirs::from_env().ok().map(|dirs| ToolCache::open(&dirs));
        let key = ToolCache::key(endpoint, identity);
        Self { cache, key }
    }

    /// The list as cached, if it is: every entry built.
    pub fn load(&self) -> Option<Vec<Value>> {
        self.cache.as_ref()?.load(&self.key)
    }

    /// The list as cached, if it is, for one tool: only its names read ([`Listed`]).
    pub fn listed(&self) -> Option<Listed> {
        self.cache.as_ref()?.listed(&self.key)
    }

    /// The list as cached, if it is, for a glance: each entry's name and summary read
    /// ([`Glance`]).
    pub fn glance(&self) -> Option<Glance> {
        self.cache.as_ref()?.glance(&self.key)
    }

    /// Keeps `tools`, a list just read, for the next command.
    pub fn store(&self, tools: &ToolTexts) {
        if let Some(cache) = &self.cache {
            cache.store(&self.key, tools);
        }
    }

    /// Drops the entry: the list may be stale.
    pub fn forget(&self) {
        if let Some(cache) = &self.cache {
            cache.forget(&self.key);
        }
    }
}
