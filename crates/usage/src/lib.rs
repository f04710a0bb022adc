//! Usage records of both surfaces of the experiment: one JSON line per `mur`
//! invocation (side `cli`) and, when the app turns it on, one per `tools/call`
//! a `mur-server` session serves (side `server`, surface `cli` or `mcp`); the
//! append-only log that keeps them; and the report that says which verbs an
//! operator should remove. Schema `mur-usage/1`, documented in docs/usage.md. The
//! report's page ([`html`]) and where `--html` sends it ([`page_target`]), for `mur` and
//! mur-eval's studies alike.

mod clock;
pub mod html;
mod log;
mod losers;
mod page;
mod reached;
mod record;
mod refused;
mod report;

pub use clock::{Since, Until};
pub use log::{
    Class, Error, LogReader, ReadFiles, Skipped, UsageDir, UsageLog, check_log_path,
    lockfile_sessions_dir, session_logs, sessions_dir,
};
pub use losers::{Installed, Loser, LoserRule, Verdict};
pub use page::{PageOnTerminal, PageTarget, page_target};
pub use reached::Reached;
pub use record::{
    ArgvShape, BRIDGE_CLIENT, Kind, NAME_CHARS, NOT_A_NAME, Outcome, Phases, Record, Side, Surface,
    VERB_META, argv_shape, cut_name, kebab, name_shaped, recorded_name, verb_name_shaped,
};
pub use refused::{Refused, refused};
pub use report::{
    Criteria, LogsRead, NO_TOOL_RAN, NoToolRan, OffPeriod, Report, Row, SURFACE_GROUPS, report,
    round2,
};
