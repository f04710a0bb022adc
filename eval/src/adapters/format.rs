//! The event streams mur-eval reads, by the name `--agent-format` and a run's record give
//! each: its own module, so the adapters and the report they fill share it.

use serde::{Deserialize, Serialize};

/// The event streams mur-eval reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Claude Code's `--output-format stream-json` (with `--verbose`): one JSON event a line
    StreamJson,
    /// Codex's `exec --json`: one JSON event a line
    CodexJson,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::StreamJson => "stream-json",
            Format::CodexJson => "codex-json",
        }
    }
}
