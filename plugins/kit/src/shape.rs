//! Output: what a verb prints for a tool result, and the files it asks the host to write.

use serde_json::Value;

/// A file the host writes, only at a path the user typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileWrite {
    pub path: String,
    pub contents: Vec<u8>,
}

/// Bytes for stdout, files to write first, and notes for stderr.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Shaped {
    pub stdout: Vec<u8>,
    pub files: Vec<FileWrite>,
    /// Lines the host prints on stderr after stdout, for whoever reads the transcript
    /// (a person, the agent): the likely next command, what was cut. Never part of the
    /// result — scripts must not parse them; `-q` hides them. None by default.
    pub notes: Vec<String>,
}

impl Shaped {
    /// Print `value` as one line of JSON (indented when `pretty`).
    pub fn json(value: &Value, pretty: bool) -> Self {
        Shaped {
            stdout: json_line(value, pretty),
            ..Shaped::default()
        }
    }

    /// The same output with one more note for stderr (one line:
    /// `next: mur devtools click '#btn-inc'`).
    #[must_use]
    pub fn note(mut self, line: impl Into<String>) -> Self {
        self.notes.push(line.into());
        self
    }
}

/// What a tool result means to a script: its `structuredContent` when present, else its
/// first text content read as JSON (or as a JSON string when it is not JSON), else the
/// result itself, so nothing the server said is ever dropped.
pub fn payload(result: &Value) -> Value {
    if let Some(structured) = result.get("structuredContent") {
        return structured.clone();
    }
    match first_text(result) {
        Some(text) => serde_json::from_str(text).unwrap_or_else(|_| Value::from(text)),
        None => result.clone(),
    }
}

/// The text of the first `{"type":"text"}` block of the result's `content`.
pub fn first_text(result: &Value) -> Option<&str> {
    content_blocks(result)
        .find(|block| block.get("type").and_then(Value::as_str) == Some("text"))
        .and_then(|block| block.get("text"))
        .and_then(Value::as_str)
}

/// The blocks of the result's `content` array (none when it has no such array).
pub fn content_blocks(result: &Value) -> impl Iterator<Item = &Value> {
    result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// `value` as JSON, compact or indented, ending in a newline.
pub fn json_line(value: &Value, pretty: bool) -> Vec<u8> {
    let text = if pretty {
        format!("{value:#}")
    } else {
        value.to_string()
    };
    (text + "\n").into_bytes()
}
