//! What an agent reported about itself, as every adapter fills it in.

use serde::{Deserialize, Serialize};

use crate::trace::Step;

/// What the agent reported. A figure the stream does not carry stays `None`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentReport {
    pub format: String,
    /// The agent's turns (Claude Code: `num_turns`; Codex: completed or failed turns).
    pub turns: Option<u64>,
    /// Every input token the model read, cached ones included.
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    /// Input tokens served from the provider's prompt cache.
    pub cached_tokens: Option<u64>,
    pub cost_usd: Option<f64>,
    /// The format was given but the agent's stdout held no event of it (Claude Code run
    /// without `--output-format stream-json --verbose`, say): every figure above is
    /// `None` because nothing was read, not because the agent reported nothing. Absent
    /// when false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_events: bool,
    /// The text of each tool result the agent received, in order (not serialized: the
    /// study measures it).
    #[serde(skip)]
    pub tool_results: Vec<String>,
    /// The text of each MCP tool result among them, in order: what the stream adds to a
    /// run whose `mur` output is counted from the capture (condition `both`).
    #[serde(skip)]
    pub mcp_results: Vec<String>,
    /// What it did and said, in order, for its trace (not serialized: `trace.md` shows it).
    #[serde(skip)]
    pub steps: Vec<Step>,
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// The text of a tool result given as a string, an array of content blocks (their
/// `text`, or the block itself as JSON), or any other JSON value (as JSON).
pub(super) fn result_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Array(blocks) => blocks
            .iter()
            .map(|block| match block["text"].as_str() {
                Some(text) => text.to_owned(),
                None => block.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    }
}
