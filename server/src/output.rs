//! What a handler gives back: content blocks, a tool's output or its failure, and the
//! questions a call returns to ask the client for input.

use std::collections::BTreeMap;

use rmcp::model::InputRequest;
use serde_json::{Value, json};

/// One block of a tool result or a prompt message.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    Text(String),
    /// Raw bytes (sent base64-encoded) and their MIME type, e.g. `image/png`.
    Image {
        data: Vec<u8>,
        mime_type: String,
    },
    /// Raw bytes (sent base64-encoded) and their MIME type, e.g. `audio/wav`.
    Audio {
        data: Vec<u8>,
        mime_type: String,
    },
    /// An embedded resource: its contents travel inside the result.
    Resource(ResourceContents),
}

impl Content {
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(text.into())
    }

    pub fn png(data: Vec<u8>) -> Self {
        Self::Image {
            data,
            mime_type: "image/png".into(),
        }
    }
}

/// The contents of a resource: text, or bytes (sent base64-encoded as `blob`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceContents {
    Text {
        uri: String,
        mime_type: Option<String>,
        text: String,
    },
    Blob {
        uri: String,
        mime_type: Option<String>,
        data: Vec<u8>,
    },
}

impl ResourceContents {
    pub fn text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        Self::Text {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            text: text.into(),
        }
    }

    pub fn blob(uri: impl Into<String>, mime_type: impl Into<String>, data: Vec<u8>) -> Self {
        Self::Blob {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            data,
        }
    }

    pub fn uri(&self) -> &str {
        match self {
            Self::Text { uri, .. } | Self::Blob { uri, .. } => uri,
        }
    }
}

/// A successful tool result.
#[derive(Debug, Clone)]
pub enum ToolOutput {
    /// Sent as `structuredContent` and as the same JSON in a text block.
    Json(Value),
    /// Sent as an MCP image block (`image/png`); `details` (which should
    /// include `width` and `height`) goes to `structuredContent` and a text block.
    Image {
        png: Vec<u8>,
        width: u32,
        height: u32,
        details: Value,
    },
    /// Any mix of blocks, in order; `structured` (an object) also goes to
    /// `structuredContent`.
    Content {
        blocks: Vec<Content>,
        structured: Option<Value>,
    },
    /// The tool needs answers from the client first (2026-07-28: an
    /// `InputRequiredResult`; the client calls again with the answers).
    /// Built by [`SessionControl::ask`](crate::tools::SessionControl::ask) or by hand for several questions.
    InputRequired(InputRequired),
}

impl ToolOutput {
    /// A result of these blocks and no structured content.
    pub fn blocks(blocks: impl IntoIterator<Item = Content>) -> Self {
        Self::Content {
            blocks: blocks.into_iter().collect(),
            structured: None,
        }
    }
}

/// A failure a person can act on. From a tool it is a result with
/// `isError: true`; from a prompt or resource handler, a JSON-RPC error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    pub message: String,
    kind: ErrorKind,
}

/// What kind of failure a [`ToolError`] is, which decides how it is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ErrorKind {
    /// The work failed (tool: `isError`; prompt/resource: -32603).
    Failed,
    /// The caller's input is wrong (tool: `isError`; prompt/resource: -32602).
    Invalid,
    /// The call needs a client capability the client did not declare
    /// (JSON-RPC -32021 with `data.requiredCapabilities`, e.g. `{"sampling":{}}`).
    MissingCapability(String),
}

impl ToolError {
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            kind: ErrorKind::Failed,
        }
    }

    /// Bad input from the caller: a JSON-RPC -32602 from prompts and resources.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            kind: ErrorKind::Invalid,
        }
    }

    /// The call needs the client capability `capability` (`"sampling"`,
    /// `"elicitation"`, `"roots"`), which the client did not declare: a
    /// JSON-RPC -32021 (MissingRequiredClientCapability), whatever the handler kind.
    pub fn missing_capability(capability: impl Into<String>) -> Self {
        let capability = capability.into();
        Self {
            message: format!(
                "this call needs the client capability `{capability}`, which the client did not declare"
            ),
            kind: ErrorKind::MissingCapability(capability),
        }
    }

    pub(crate) fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

impl From<String> for ToolError {
    fn from(message: String) -> Self {
        Self::new(message)
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> Self {
        Self::new(message)
    }
}

pub type ToolResult = Result<ToolOutput, ToolError>;

/// A question for the client: one `inputRequests` entry (2026-07-28) or one
/// request sent to the client mid-call (2025-11-25).
#[derive(Debug, Clone, PartialEq)]
pub enum Question {
    /// `elicitation/create` (form mode): ask the user to fill in `schema`
    /// (an object schema of primitive properties). The answer is
    /// `{"action": "accept"|"decline"|"cancel", "content": {…}}`.
    Elicit { message: String, schema: Value },
    /// `sampling/createMessage` with these params (`messages`, `maxTokens`, …).
    Sample(Value),
    /// `roots/list`: the client's roots.
    Roots,
}

impl Question {
    pub fn elicit(message: impl Into<String>, schema: Value) -> Self {
        Self::Elicit {
            message: message.into(),
            schema,
        }
    }

    /// The client capability a question needs.
    pub fn capability(&self) -> &'static str {
        match self {
            Self::Elicit { .. } => "elicitation",
            Self::Sample(_) => "sampling",
            Self::Roots => "roots",
        }
    }

    /// `{"method": …, "params": …}`, as it travels.
    pub fn to_request(&self) -> Value {
        match self {
            Self::Elicit { message, schema } => json!({
                "method": "elicitation/create",
                "params": { "mode": "form", "message": message, "requestedSchema": schema }
            }),
            Self::Sample(params) => json!({ "method": "sampling/createMessage", "params": params }),
            Self::Roots => json!({ "method": "roots/list", "params": {} }),
        }
    }

    pub(crate) fn to_input_request(&self) -> Result<InputRequest, ToolError> {
        let mut request = self.to_request();
        // The legacy form has no `mode`; both parse the same.
        if let Some(params) = request["params"].as_object_mut() {
            params.remove("mode");
        }
        serde_json::from_value(request).map_err(|error| {
            ToolError::new(format!("cannot ask the client this question: {error}"))
        })
    }

    /// Whether `answer` has the shape of an answer to this question.
    pub(crate) fn fits(&self, answer: &Value) -> bool {
        match self {
            Self::Elicit { .. } => {
                matches!(
                    answer["action"].as_str(),
                    Some("accept" | "decline" | "cancel")
                ) && (answer["action"] != "accept" || answer["content"].is_object())
            }
            Self::Sample(_) => answer["content"].is_object() || answer["content"].is_array(),
            Self::Roots => answer["roots"].is_array(),
        }
    }
}

/// Questions for the client, and state to get back with the answers
/// (2026-07-28 `InputRequiredResult`). The server seals `state` (HMAC, bound to
/// the method and tool or prompt name, valid 10 minutes): a handler reads it
/// back with [`SessionControl::state`](crate::tools::SessionControl::state), and a tampered one never reaches it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InputRequired {
    pub questions: BTreeMap<String, Question>,
    pub state: Option<Value>,
}

impl InputRequired {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn ask(mut self, key: impl Into<String>, question: Question) -> Self {
        self.questions.insert(key.into(), question);
        self
    }

    pub fn with_state(mut self, state: Value) -> Self {
        self.state = Some(state);
        self
    }
}

/// The outcome of [`SessionControl::ask`](crate::tools::SessionControl::ask).
#[derive(Debug, Clone, PartialEq)]
pub enum Asked {
    /// The client's answer.
    Answered(Value),
    /// Return this (as `ToolOutput::InputRequired` or
    /// `PromptOutput::InputRequired`) and the client calls again with the answer.
    Pending(InputRequired),
}
