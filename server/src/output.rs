//! What a handler gives back: content blocks, a tool's output or its failure, and the
//! questions a call returns to ask the client for input.

use std::collections::BTreeMap;

use rmcp::model::InputRequest;
use serde_json::{Value, json};

/// One block of a tool result or a prompt message.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// A `text` block.
    Text(String),
    /// An `image` block: raw bytes (sent base64-encoded) and their MIME type, e.g. `image/png`.
    Image {
        /// The image file's bytes, not encoded.
        data: Vec<u8>,
        /// Its MIME type (`mimeType`).
        mime_type: String,
    },
    /// An `audio` block: raw bytes (sent base64-encoded) and their MIME type, e.g. `audio/wav`.
    Audio {
        /// The audio file's bytes, not encoded.
        data: Vec<u8>,
        /// Its MIME type (`mimeType`).
        mime_type: String,
    },
    /// An embedded resource: its contents travel inside the result.
    Resource(ResourceContents),
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(text.into())
    }

    /// An image block of PNG bytes (`image/png`).
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
    /// Text contents (`text`).
    Text {
        /// The URI of the resource they are of.
        uri: String,
        /// Their MIME type (`mimeType`); `None` sends none.
        mime_type: Option<String>,
        /// The text.
        text: String,
    },
    /// Binary contents (`blob`).
    Blob {
        /// The URI of the resource they are of.
        uri: String,
        /// Their MIME type (`mimeType`); `None` sends none.
        mime_type: Option<String>,
        /// The bytes, not encoded (the server sends them base64-encoded).
        data: Vec<u8>,
    },
}

impl ResourceContents {
    /// Text contents of the resource at `uri`, of type `mime_type`.
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

    /// Binary contents of the resource at `uri`, of type `mime_type`.
    pub fn blob(uri: impl Into<String>, mime_type: impl Into<String>, data: Vec<u8>) -> Self {
        Self::Blob {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            data,
        }
    }

    /// The URI of the resource these are the contents of.
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
        /// The PNG file's bytes, not encoded (the server sends them base64-encoded).
        png: Vec<u8>,
        /// Width in pixels; added to `details` as `width` unless it has one.
        width: u32,
        /// Height in pixels; added to `details` as `height` unless it has one.
        height: u32,
        /// What else to say about the image (an object; anything else is dropped).
        details: Value,
    },
    /// Any mix of blocks, in order; `structured` (an object) also goes to
    /// `structuredContent`.
    Content {
        /// The blocks of `content`, in order.
        blocks: Vec<Content>,
        /// `structuredContent`, if any.
        structured: Option<Value>,
    },
    /// The tool needs answers from the client first (2026-07-28: an
    /// `InputRequiredResult`; the client calls again with the answers).
    /// Built by [`SessionControl::ask`](crate::SessionControl::ask) or by hand for several questions.
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
    /// One line a person can act on; the text of the result or the JSON-RPC error.
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
    /// The work failed: from a tool, a result with `isError: true` and this
    /// message as its text; from a prompt or resource handler, a JSON-RPC
    /// internal error (-32603). `?` on a `String` or `&str` error makes one.
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

/// What a tool handler returns: its output, or a failure the client is told about.
pub type ToolResult = Result<ToolOutput, ToolError>;

/// A question for the client: one `inputRequests` entry (2026-07-28) or one
/// request sent to the client mid-call (2025-11-25).
#[derive(Debug, Clone, PartialEq)]
pub enum Question {
    /// `elicitation/create` (form mode): ask the user to fill in `schema`
    /// (an object schema of primitive properties). The answer is
    /// `{"action": "accept"|"decline"|"cancel", "content": {…}}`.
    Elicit {
        /// What the user is asked, in words.
        message: String,
        /// The object schema of the answer's `content` (`requestedSchema`).
        schema: Value,
    },
    /// `sampling/createMessage` with these params (`messages`, `maxTokens`, …).
    Sample(Value),
    /// `roots/list`: the client's roots.
    Roots,
}

impl Question {
    /// Ask the user to fill in `schema`, saying `message`.
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
/// back with [`SessionControl::state`](crate::SessionControl::state), and a tampered one never reaches it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InputRequired {
    /// The questions, each under the key its answer comes back with (`inputRequests`).
    pub questions: BTreeMap<String, Question>,
    /// What the handler needs again in the next round (`requestState`), sealed by the server.
    pub state: Option<Value>,
}

impl InputRequired {
    /// No questions and no state yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// One more question, whose answer comes back under `key`.
    pub fn ask(mut self, key: impl Into<String>, question: Question) -> Self {
        self.questions.insert(key.into(), question);
        self
    }

    /// State to get back with the answers (see [`SessionControl::state`](crate::SessionControl::state)).
    pub fn with_state(mut self, state: Value) -> Self {
        self.state = Some(state);
        self
    }
}

/// The outcome of [`SessionControl::ask`](crate::SessionControl::ask).
#[derive(Debug, Clone, PartialEq)]
pub enum Asked {
    /// The client's answer.
    Answered(Value),
    /// Return this (as `ToolOutput::InputRequired` or
    /// `PromptOutput::InputRequired`) and the client calls again with the answer.
    Pending(InputRequired),
}
