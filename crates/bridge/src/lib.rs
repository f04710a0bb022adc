//! `mur-bridge`: stdio MCP servers as devtools sessions, and a stdio face for
//! devtools sessions.
//!
//! - [`run`] (`mur devtools bridge --foreground`): one stdio server kept warm
//!   behind a loopback endpoint that announces itself exactly as `mur-server`
//!   does (lockfile, probe, single instance), so every verb works against it;
//!   it takes requests only with the secret in its private sidecar
//!   ([`Sidecar::secret`], which `mur` sends), as the server trusts its parent alone.
//! - [`start`]: the same in the background, returning once it is announced.
//! - [`stop`] (`bridge stop`): SIGTERM to a bridge, and wait for its lockfile to go.
//! - [`session_line`]: a session as `session list` prints it, a bridge's log included.
//! - [`proxy`] (`mur devtools proxy`): a stdio MCP server forwarding to a session.
//!
//! Everything returns data and [`mur_core::Error`]s; the bridge's own
//! messages go to `tracing` (its log).

mod background;
mod capabilities;
mod child;
mod files;
mod http;
mod lines;
mod log;
mod process;
pub mod proxy;
mod relay;
mod serve;
mod signals;
mod stop;

use std::time::Duration;

pub use background::{SLOW_START, Started, start};
pub use child::{INITIALIZE_LIMIT, MAX_MESSAGE_BYTES};
pub use files::{BridgeFiles, SIDECAR_SCHEMA, Sidecar, bridge_of, session_line};
/// Where a bridge records the tool calls it serves ([`Options::usage`]), as a session does.
pub use mur_server::UsageLogging;
pub use serve::{MAX_RESTARTS, Options, RESTART_WINDOW, run};
pub use stop::{Stopped, stop};

/// How long a bridge waits without a request before it stops, by default.
pub const DEFAULT_IDLE: &str = "10m";

/// The longest idle time a bridge waits: a longer one (`--idle 100y`, what
/// someone writes for "never") is taken as this, a year — in effect never —
/// rather than refused. Bounded so that the bridge started in the background
/// reads its `--idle <ms>ms` back as any duration mur takes.
pub const MAX_IDLE: Duration = Duration::from_secs(365 * 86_400);

/// `--idle DURATION`, in the syntax of every duration mur takes
/// ([`mur_core::parse_duration`]), or `never` ([`MAX_IDLE`]: an agent host's proxy
/// in front of the bridge must not find it gone); never zero, at most [`MAX_IDLE`].
pub fn parse_idle(text: &str) -> Result<Duration, String> {
    if text.trim().eq_ignore_ascii_case("never") {
        return Ok(MAX_IDLE);
    }
    match mur_core::parse_duration(text)? {
        d if d.is_zero() => Err(
            "the idle time must be more than zero (`never` keeps the bridge until `bridge stop`)"
                .to_owned(),
        ),
        d => Ok(d.min(MAX_IDLE)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_times_read_as_people_write_them() {
        assert_eq!(parse_idle("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_idle("1h 30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_idle("500ms"), Ok(Duration::from_millis(500)));
        assert!(parse_idle("0s").is_err_and(|e| e.contains("`never` keeps the bridge")));
        assert_eq!(parse_idle("never"), Ok(MAX_IDLE));
        assert_eq!(parse_idle("Never"), Ok(MAX_IDLE));
        assert!(parse_idle("soon").is_err_and(|e| e.contains("`soon` is not a duration")));
        // "Never", as people write it: a year, which the background bridge reads back.
        assert_eq!(parse_idle("999999999h"), Ok(MAX_IDLE));
        assert_eq!(parse_idle("100y"), Ok(MAX_IDLE));
        assert_eq!(
            parse_idle(&format!("{}ms", MAX_IDLE.as_millis())),
            Ok(MAX_IDLE)
        );
    }
}
