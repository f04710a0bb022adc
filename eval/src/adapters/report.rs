//! What an agent reported about itself, as every adapter fills it in.

use serde::{Deserialize, Serialize};

use serde_json::Value;

use super::format::Format;
use crate::images::Image;
use crate::trace::{Received, Step};

/// What the agent reported. A figure the stream does not carry stays `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentReport {
    pub format: Format,
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
    /// Each MCP tool result among them, in order: what the stream adds to a run whose
    /// `mur` output is counted from the capture (condition `both`).
    #[serde(skip)]
    pub mcp_results: Vec<Received>,
    /// What it did and said, in order, for its trace (not serialized: `trace.md` shows it).
    #[serde(skip)]
    pub steps: Vec<Step>,
    /// What the run's notes say of the stream's figures (a sum that overflowed); not
    /// serialized here: the study adds them to the run's `notes`.
    #[serde(skip)]
    pub notes: Vec<String>,
}

impl AgentReport {
    /// What an agent reading `format` reported before any event: nothing.
    pub fn new(format: Format) -> Self {
        Self {
            format,
            turns: None,
            input_tokens: None,
            output_tokens: None,
            cached_tokens: None,
            cost_usd: None,
            no_events: false,
            tool_results: Vec::new(),
            mcp_results: Vec::new(),
            steps: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// One token figure over a stream's events: unreported until an event carries it, and
/// overflowed for good once its sum passes `u64::MAX` (the stream is the agent's
/// output, which may say anything).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) enum Tokens {
    #[default]
    Unreported,
    Counted(u64),
    Overflowed,
}

impl Tokens {
    /// `self` and `other` added: unreported only when both are.
    pub fn plus(self, other: Tokens) -> Tokens {
        use Tokens::{Counted, Overflowed, Unreported};
        match (self, other) {
            (Overflowed, _) | (_, Overflowed) => Overflowed,
            (Unreported, tokens) | (tokens, Unreported) => tokens,
            (Counted(a), Counted(b)) => a.checked_add(b).map_or(Overflowed, Counted),
        }
    }

    /// The figure reported as `name` (its field in results.jsonl): `None` when no event
    /// carried it, or when it overflowed, which `notes` then says.
    fn reported(self, name: &str, notes: &mut Vec<String>) -> Option<u64> {
        match self {
            Tokens::Counted(n) => Some(n),
            Tokens::Unreported => None,
            Tokens::Overflowed => {
                notes.push(format!(
                    "`{name}` overflowed: the stream's token counts sum past {}; not reported",
                    u64::MAX
                ));
                None
            }
        }
    }
}

/// The token figures of one `usage` object, or of several summed.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Usage {
    /// Every input token, cached ones included.
    pub input: Tokens,
    pub cached: Tokens,
    pub output: Tokens,
}

impl Usage {
    pub fn plus(self, other: Usage) -> Usage {
        Usage {
            input: self.input.plus(other.input),
            cached: self.cached.plus(other.cached),
            output: self.output.plus(other.output),
        }
    }

    /// Sets `report`'s token figures, with a note for each that overflowed.
    pub fn report(self, report: &mut AgentReport) {
        report.input_tokens = self.input.reported("inputTokens", &mut report.notes);
        report.cached_tokens = self.cached.reported("cachedTokens", &mut report.notes);
        report.output_tokens = self.output.reported("outputTokens", &mut report.notes);
    }
}

/// The fields of `usage` named, each a number or 0, when at least one is a number; `None`
/// for a `usage` that is absent, `null` or without one (a figure the stream did not
/// carry is not reported as 0).
pub(super) fn fields<const N: usize>(usage: &Value, names: [&str; N]) -> Option<[u64; N]> {
    let values = names.map(|name| usage[name].as_u64());
    values
        .iter()
        .any(Option::is_some)
        .then(|| values.map(|value| value.unwrap_or(0)))
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// What a tool result gave, given as a string, an array of content blocks (a text
/// block's `text`; an image block as an image, [`Image::of_block`], never its base64 as
/// text; any other block as JSON), or any other JSON value (as JSON).
pub(super) fn received(value: &serde_json::Value) -> Received {
    match value {
        serde_json::Value::String(text) => text.as_str().into(),
        serde_json::Value::Array(blocks) => {
            let mut texts = Vec::new();
            let mut images = Vec::new();
            for block in blocks {
                match (block["text"].as_str(), Image::of_block(block)) {
                    (Some(text), _) => texts.push(text.to_owned()),
                    (None, Some(image)) => images.push(image),
                    (None, None) => texts.push(block.to_string()),
                }
            }
            Received {
                text: texts.join("\n"),
                images,
            }
        }
        serde_json::Value::Null => Received::default(),
        other => other.to_string().as_str().into(),
    }
}
