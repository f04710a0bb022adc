//! `mur-bridge`: stdio MCP servers as devtools sessions, and a stdio face for
//! devtools sessions.
//!
//! - [`run`] (`mur devtools bridge --foreground`): one stdio server kept warm
//!   behind a loopback endpoint that announces itself exactly as `mur-server`
//!   does (lockfile, probe, single instance), so every verb works against it;
//!   it takes requests only with the secret in its private sidecar
//!   ([`Sidecar::secret`], which `mur` sends), as the server trusts its parent alone.
//! - [`start`]: the same in the background, returning once it is announced, or
//!   once a signal stopped it ([`Start::Interrupted`]: the caller ends by it).
//! - [`stop`] (`bridge stop`): SIGTERM to a bridge, and wait for its lockfile to go.
//! - [`session_line`]: a session as `session list` prints it, a bridge's log included.
//! - [`newest_stop`]: why a project's bridge stopped and its command, from its log,
//!   for the error that finds no session there ([`last_stop_hint`]); [`stop_since`],
//!   only a stop not older than a given bridge (the proxy's, killed without a word).
//! - [`proxy`] (`mur devtools proxy`): a stdio MCP server forwarding to a session.
//!
//! Everything returns data and [`mur_core::Error`]s; a signal that stopped a start or
//! the proxy is returned too ([`Start::Interrupted`], [`proxy::Stopped::Signal`]), once
//! what it stopped is tidied up, for the binary to end the process by it
//! ([`mur_procs::end_by_signal`]). The bridge's own messages go to `tracing` (its
//! log), and a foreground bridge's log takes them from the binary's log layer through
//! [`LogFile`].

mod background;
mod capabilities;
mod child;
mod ended;
mod files;
mod http;
mod lines;
mod log;
mod options;
mod process;
pub mod proxy;
mod relay;
mod serve;
mod signals;
mod slot;
mod stop;

pub use background::{Start, Started, start};
pub use child::{INITIALIZE_LIMIT, MAX_MESSAGE_BYTES};
pub use ended::{LastStop, last_stop_hint, newest_stop, stop_since};
pub use files::{BridgeFiles, SIDECAR_SCHEMA, Sidecar, bridge_of, session_line};
pub use log::LogFile;
/// Where a bridge records the tool calls it serves ([`Options::usage`]), as a session does.
pub use mur_server::UsageLogging;
pub use options::{DEFAULT_IDLE, Idle, MAX_IDLE, Options, parse_idle};
pub use serve::{MAX_RESTARTS, RESTART_WINDOW, Ran, run};
pub use slot::{SLOW_START, Waiting};
pub use stop::{Stopped, stop};
