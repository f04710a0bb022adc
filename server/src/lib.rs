//! Embeddable devtools session server.
//!
//! An app registers its tools in a [`ToolSet`] and calls [`run`] (or [`serve`]
//! inside its own runtime). The library then enforces one session per project
//! (seed 000 §6), serves MCP on a loopback HTTP endpoint (or stdio), answers the
//! liveness probe, and keeps the project's lockfile in step with the process.
//! A tool registered with [`TaskSupport`] may run as a task for a client that
//! follows tasks (the 2026-07-28 extension; module `task`).
//! The sample app built on it is its own crate, `mur-sample` (`sample/`).

mod announce;
mod call;
mod catalog;
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
pub mod tools;
mod usage;

pub use entry::run;
pub use error::ServeError;
pub use http::{HttpLimits, is_json};
pub use options::{SessionOptions, SessionTransport};
pub use session::serve;
pub use tools::*;
pub use usage::{UsageLogging, VERB_META};
