//! What one run's record says beyond its fields, as the rows count it: its attempts, the
//! turns and input tokens its agent reported, whether its MCP results went uncounted and
//! whether its agent failed at once.

use crate::profile::Profile;
use crate::study::result::RunResult;

/// Whether the run made MCP calls whose results no transcript or event stream gave the
/// context count, so its context figures leave them out. A record written before runs
/// said so is judged by what it has: an mcp run with calls and no result counted.
pub(super) fn mcp_results_unseen(r: &RunResult) -> bool {
    r.context.mcp_results_unseen
        || (r.surface == Profile::Mcp && r.calls.mcp > 0 && r.context.result_count == 0)
}

/// A run's calls the session served and invocations mur refused before any call.
pub(super) fn attempts(r: &RunResult) -> u64 {
    // Saturating: a hand-edited record's `times` may be anything up to u64::MAX.
    r.invocations
        .iter()
        .flat_map(|i| &i.refused)
        .fold(u64::from(r.calls.total), |sum, shape| {
            sum.saturating_add(shape.times)
        })
}

/// Whether the run's agent exited nonzero before it did anything the study can see: no
/// call the session served, no `mur` command mur recorded (not even a refused one), no
/// line in the capture or its transcript. That alone does not make it the agent's own
/// failure: an MCP client can read the tool schemas and give up, and mur records no
/// `--help` ([`Categories`](super::categories::Categories) weighs it against the other
/// conditions).
pub fn failed_at_once(r: &RunResult) -> bool {
    r.agent_exit.is_some_and(|exit| exit != 0)
        && !r.timed_out
        && attempts(r) == 0
        && r.invocations.as_ref().is_none_or(|i| i.total == 0)
        && r.agent_lines.unwrap_or(0) == 0
}

/// Whether the time limit ended the run before its agent did anything the study can
/// see (no call, no `mur` command, no line of its capture or transcript): a limit
/// shorter than the agent takes to start (an MCP client importing its SDK), which says
/// nothing of the surface.
pub fn timed_out_at_once(r: &RunResult) -> bool {
    r.timed_out
        && attempts(r) == 0
        && r.invocations.as_ref().is_none_or(|i| i.total == 0)
        && r.agent_lines.unwrap_or(0) == 0
}

/// The turns a run's agent reported.
pub(super) fn turns(r: &RunResult) -> Option<f64> {
    r.agent.as_ref()?.turns.map(|t| t as f64)
}

/// The input tokens a run's agent reported.
pub(super) fn input_tokens(r: &RunResult) -> Option<f64> {
    r.agent.as_ref()?.input_tokens.map(|t| t as f64)
}
