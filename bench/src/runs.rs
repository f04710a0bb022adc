//! What one run of a command measured, and a command's runs.

use std::time::Duration;

/// What one run of a command cost.
#[derive(Debug, Clone, Copy)]
pub struct Run {
    /// Wall time from spawn to exit; meaningful for timed runs only.
    pub elapsed: Duration,
    /// The program's own peak resident set, in KiB: from memory runs only, and
    /// where the system lets a parent watch its child (Linux, ptrace allowed).
    pub peak_rss_kib: Option<u64>,
    pub exit_code: i32,
}

/// One command's runs in a table: the timed ones, and the warm-ups that
/// measured its memory ([`crate::measure::run_for_memory`]).
#[derive(Debug, Clone, Default)]
pub struct Runs {
    pub timed: Vec<Run>,
    pub memory: Vec<Run>,
}
