//! Embeddable devtools session server.
//!
//! An app registers its tools in a [`ToolSet`] and calls [`run`] (or [`serve`]
//! inside its own runtime). The library then enforces one session per project
//! (seed 000 §6), serves MCP on a loopback HTTP endpoint (or stdio), answers the
//! liveness probe, and keeps the project's lockfile in step with the process.
//! A tool registered with [`TaskSupport`] may run as a task for a client that
//! follows tasks (the 2026-07-28 extension; module `task`).
//! The sample app built on it is its own crate, `mur-sample` (`sample/`).
//!
//! Handlers run on the session's tokio runtime (the multi-threaded one [`run`]
//! builds, or the caller's under [`serve`]), several at once; a handler that
//! panics (a tool's, a resource's, a prompt's) is caught and its request answered
//! with a JSON-RPC internal error (-32603, "the tool's handler panicked: …"), and
//! the session goes on. A tool
//! may ask for a restart ([`SessionControl::request_reload`]): the session then
//! starts the same program again and exits the process from inside [`serve`]
//! (a stdio session exits with [`STDIO_RELOAD_EXIT`], for its client to start it).
//!
//! docs/server.md in the repository is the guide: the tool names and arguments
//! the standard verbs call, and the wire contract (lockfile, probe, MCP revisions).
#![warn(missing_docs)]

mod announce;
mod call;
mod catalog;
// The stdio bridge's own endpoint (crate `mur-bridge`); no part of the embedding API.
#[doc(hidden)]
pub mod endpoint;
mod entry;
mod error;
mod http;
mod identity;
mod mcp;
mod options;
mod output;
mod reload;
mod request_state;
mod session;
mod shutdown;
mod single_instance;
mod stdio;
mod task;
mod tools;
mod usage;

pub use entry::run;
pub use error::ServeError;
pub use http::HttpLimits;
// The bridge checks request bodies as a session does; no part of the embedding API.
#[doc(hidden)]
pub use http::is_json;
pub use options::{SessionOptions, SessionTransport};
pub use reload::STDIO_RELOAD_EXIT;
// The stdio bridge reads it in a stdio session's answers; no part of the embedding API.
#[doc(hidden)]
pub use reload::RELOADING_META;
pub use session::serve;
pub use tools::*;
pub use usage::UsageLogging;
// The stdio bridge records the calls it serves as a session does; no part of the
// embedding API.
#[doc(hidden)]
pub use usage::{Recorder, Served, client_label};

/// Internals stay out of the API: the registration types are reached at the
/// crate root only, not through a module of their own,
///
/// ```compile_fail,E0603
/// let _tools = mur_server::tools::ToolSet::new();
/// ```
///
/// and mur's `_meta` key for its verbs is `mur_usage::VERB_META`, not an item of
/// this crate.
///
/// ```compile_fail,E0425
/// let _key = mur_server::VERB_META;
/// ```
#[cfg(doctest)]
pub struct InternalsStayInternal;
