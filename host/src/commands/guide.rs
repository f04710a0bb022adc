//! `mur devtools guide`: the guide for agents (docs/agents.md), built into the binary.

use crate::output;
use mur_core::Result;

/// docs/agents.md, as it was when `mur` was built.
pub const GUIDE: &str = include_str!("../../../docs/agents.md");

/// Prints the guide on stdout.
pub fn run() -> Result<()> {
    output::stdout(GUIDE.as_bytes())
}
