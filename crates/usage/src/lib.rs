//! Usage records of both surfaces of the experiment: one JSON line per `mur`
//! invocation (side `cli`) and, when the app turns it on, one per `tools/call`
//! a `mur-server` session serves (side `server`, surface `cli` or `mcp`); the
//! append-only log that keeps them; and the report that says which verbs an
//! operator should remove. Schema `mur-usage/1`, documented in docs/usage.md.

mod clock;
pub mod html;
mod log;
mod reached;
mod record;
mod report;

pub use clock::{Since, Until, now_millis};
pub use log::{
    Class, Error, LogReader, ReadFiles, Skipped, UsageDir, UsageLog, check_log_path,
    lockfile_sessions_dir, read_logs, session_logs, sessions_dir,
};
pub use reached::{Reached, reached};
pub use record::{
    ArgvShape, BRIDGE_CLIENT, Kind, NAME_CHARS, NOT_A_NAME, Outcome, Phases, Record, SCHEMA, Side,
    Surface, VERB_META, argv_shape, cut_name, kebab, name_shaped, recorded_name, tool_like,
    verb_name_shaped,
};
pub use report::{
    Criteria, Installed, LogsRead, Loser, LoserRule, NO_KNOWN_TOOL, NO_KNOWN_TOOL_EXPLAINED,
    NO_TOOL_RAN, NoToolRan, OffPeriod, REPORT_SCHEMA, Refused, Report, Row, refused, report,
    round2,
};
