//! The session's tool list, through the per-session cache ([`crate::tool_cache`]): what
//! a derived verb is made from, what `call`, `catalog` and completion list. Part of the
//! call path, below the commands that use it.
//!
//! Who reads which: a derived verb's call parses its words against the cached list (one
//! probe and one POST when warm), and reads it again when the server refuses the call or
//! the cached schema refuses the words; what shows the list to a reader (`catalog`,
//! `parity`, `verbs list --all`, a derived verb's `--help`) reads it fresh
//! ([`ToolList::fresh`]) and stores it: a session restarted on new code behind the same
//! endpoint (`--endpoint`, or a bridge's child) keeps its identity, and a cached list
//! would show the old tools. What only glances at it (completion, the hints that name a
//! session's tool: [`crate::session_tools`]) reads the cache, fresh only without one or
//! with `--refresh`: a Tab must not wait on a server slow to list.

use mur_core::{Result, Settings};
use mur_verbs::VerbHost;
use mur_verbs::derived::Derived;
use mur_verbs::tools::{Entries as _, Glance, ToolTexts};
use serde_json::Value;

use crate::invoke::Session;
use crate::tool_cache::CachedTools;

/// The session's tool list, through the cache.
pub struct ToolList {
    cached: CachedTools,
}

impl ToolList {
    pub fn open(session: &Session) -> Self {
        Self {
            cached: session.cached_tools(),
        }
    }

    /// The verb derived from the tool named `name` (or whose kebab-case name
    /// is `name`), and whether the list it came from was the cached one: from the
    /// cached list, else — or when it has no such tool, or with `refresh` — from a
    /// fresh `tools/list`; or, when no tool is called that, the names of the fresh list
    /// it was looked for in (as entries holding only their `name`).
    pub async fn find(
        &self,
        session: &Session,
        settings: &Settings,
        name: &str,
        refresh: bool,
    ) -> Result<std::result::Result<(Derived, Value, bool), Vec<Value>>> {
        // Only the tool named is built, from the cached list or a fresh one (a large list
        // built whole cost 25–30 times its size on every call).
        let cached = (!refresh).then(|| self.cached.listed()).flatten();
        if let Some((verb, tool)) = cached.and_then(|listed| listed.pick(name)) {
            tracing::debug!("tool list from the cache");
            return Ok(Ok((verb, tool, true)));
        }
        let tools = self.fresh(session, settings).await?;
        Ok(match tools.pick(name) {
            Some((verb, tool)) => Ok((verb, tool, false)),
            // What the word may have meant is looked for among the names alone: each
            // an entry of its name only (every entry built cost 25–30 times the list).
            None => Err(tools
                .names()
                .into_iter()
                .flatten()
                .map(|name| serde_json::json!({ "name": name }))
                .collect()),
        })
    }

    /// Every tool: the cached list, else a fresh one (then cached). For completion and
    /// a hint; what shows the list reads it [`fresh`](Self::fresh).
    pub async fn all(&self, session: &Session, settings: &Settings) -> Result<Vec<Value>> {
        if let Some(tools) = self.cached.load() {
            return Ok(tools);
        }
        Ok(self.fresh(session, settings).await?.values())
    }

    /// Each tool's name and summary ([`Glance`]): from the cached list, else a fresh one
    /// (then cached). For completion, which builds one tool whole at most.
    pub async fn glance(&self, session: &Session, settings: &Settings) -> Result<Glance> {
        if let Some(glance) = self.cached.glance() {
            return Ok(glance);
        }
        Ok(Glance::of_texts(&self.fresh(session, settings).await?))
    }

    /// A fresh list, each tool kept as its text: cached, and the installed verbs'
    /// hints learned from it.
    pub async fn fresh(&self, session: &Session, settings: &Settings) -> Result<ToolTexts> {
        let tools = session.list_tools(settings).await?;
        self.keep(&tools);
        Ok(tools)
    }

    /// Keeps `tools`, the whole list just read (by [`fresh`](Self::fresh), or by
    /// `call tools/list`), and teaches the installed verbs their tools' hints from it:
    /// only their tools' entries built.
    pub fn keep(&self, tools: &ToolTexts) {
        self.cached.store(tools);
        if let Ok(mut verbs) = VerbHost::open() {
            let theirs: Vec<Value> = verbs
                .entries()
                .iter()
                .filter_map(|verb| tools.named(&verb.tool))
                .collect();
            verbs.learn_hints(&theirs);
        }
    }

    pub fn forget(&self) {
        self.cached.forget();
    }
}

/// The verb derived from the tool named `name` (or whose verb is called
/// `name`), and that tool's `tools/list` entry.
pub fn pick(tools: &[Value], name: &str) -> Option<(Derived, Value)> {
    Derived::pick(tools, name).map(|(verb, tool)| (verb, tool.clone()))
}
