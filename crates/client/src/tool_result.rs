//! What a `tools/call` result says to a script: its first text, and its payload as
//! the standard verbs print it (the verb kit keeps the same rule on the guest side);
//! whether it failed, and how: a tool the server does not have, arguments it refused;
//! and what of a result is the tool's own, the protocol's fields taken out.

use mur_lockfile::jsonrpc::INVALID_PARAMS;
use serde_json::Value;

use crate::response::Reply;

/// A `tools/call` reply as the tool gave it: a result without the protocol's own
/// fields ([`without_protocol_fields`]); a JSON-RPC error as it is.
pub fn tools_own(reply: Reply) -> Reply {
    match reply {
        Reply::Result(mut result) => {
            without_protocol_fields(&mut result);
            Reply::Result(result)
        }
        error => error,
    }
}

/// Takes out of a tool's result what the protocol put there, which is not the tool's:
/// `resultType` (2026-07-28's word that the request is complete, not a question or a
/// task) and, in `_meta`, the keys MCP reserves ([`reserved_meta_key`]: a 2026-07-28
/// server's `io.modelcontextprotocol/serverInfo` on every result), `_meta` itself when
/// nothing else is left. A 1.x server's result of the same tool has neither, so the same
/// tool reads the same whatever the server's revision. The tool's own `_meta` keys stay,
/// and the other fields keep their order.
pub fn without_protocol_fields(result: &mut Value) {
    let Some(fields) = result.as_object_mut() else {
        return;
    };
    if let Some(Value::Object(meta)) = fields.get_mut("_meta") {
        meta.retain(|key, _| !reserved_meta_key(key));
    }
    fields.retain(|key, value| match key.as_str() {
        "resultType" => false,
        "_meta" => value.as_object().is_none_or(|meta| !meta.is_empty()),
        _ => true,
    });
}

/// Whether a `_meta` key is the protocol's: its prefix (up to the `/`) has
/// `modelcontextprotocol` or `mcp` for its second label (`io.modelcontextprotocol/`,
/// `dev.mcp/`), which MCP reserves; `com.example.mcp/` and unprefixed keys are anyone's.
pub fn reserved_meta_key(key: &str) -> bool {
    key.split_once('/').is_some_and(|(prefix, _)| {
        matches!(
            prefix.split('.').nth(1),
            Some("modelcontextprotocol" | "mcp")
        )
    })
}

/// Whether a `tools/call` result says the tool failed.
pub fn is_error(result: &Value) -> bool {
    result["isError"] == true
}

/// What a failed reply says: a JSON-RPC error's message, or a failed result's text;
/// `None` for a successful reply.
fn failure_text(reply: &Reply) -> Option<String> {
    match reply {
        Reply::Error(error) => Some(error["message"].as_str().unwrap_or_default().to_owned()),
        Reply::Result(result) if is_error(result) => Some(result_text(result)),
        Reply::Result(_) => None,
    }
}

/// The tool a `tools/call` reply says the server does not have: a JSON-RPC error (MCP's
/// own example: `Unknown tool: NAME`), or, from the TypeScript SDK, a result with
/// `isError` reading `MCP error -32602: Tool NAME not found`. A tool that ran and failed,
/// or refused its arguments (also -32602 there), is not that: its text names no missing
/// tool.
pub fn missing_tool<'a>(reply: &Reply, method: &str, params: Option<&'a Value>) -> Option<&'a str> {
    let name = params
        .and_then(|p| p["name"].as_str())
        .filter(|_| method == "tools/call")?;
    says_missing(&failure_text(reply)?, name).then_some(name)
}

/// Whether a failure's `text` says the tool `name` does not exist ([`missing_tool`]), in
/// the words the SDKs use: "unknown tool", or "not found" with the name as a word of
/// its own right after "tool" (`Tool NAME not found`, `tool 'NAME' not found`) or after
/// "tool not found" (`Tool not found: NAME`). A tool that ran and failed with its own
/// "not found" is not missing, even when its name is a word of the text: `read` failing
/// `File not found: readme.md`, or `file` failing the same.
pub fn says_missing(text: &str, name: &str) -> bool {
    let text = text.to_lowercase();
    let name = name.to_lowercase();
    if text.contains("unknown tool") {
        return true;
    }
    if !text.contains("not found") {
        return false;
    }
    let after_not_found = text
        .find("tool not found")
        .is_some_and(|at| word_at(&text[at..], &name).next().is_some());
    // `tool NAME not found` whole: the Python SDK says `Error executing tool NAME: …` of
    // every tool that ran and failed, whatever its own words (`File not found`).
    let quote =
        |c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '`' | '‘' | '’' | '“' | '”');
    after_not_found
        || word_at(&text, &name).any(|at| {
            let before = text[..at].trim_end_matches(quote);
            let after = text[at + name.len()..].trim_start_matches(quote);
            before.ends_with("tool") && after.starts_with("not found")
        })
}

/// Where `word` stands in `text` with no character of a tool name (letters, digits, `_`,
/// `-`, `.`, `/`) right before or after it; a `.` that ends a sentence is no part of a
/// name.
fn word_at<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    text.match_indices(word)
        .filter(move |_| !word.is_empty())
        .filter(move |(at, _)| {
            let before = text[..*at].chars().next_back();
            let after = &text[at + word.len()..];
            let sentence_end = after
                .strip_prefix('.')
                .is_some_and(|rest| !rest.chars().next().is_some_and(in_tool_name));
            !before.is_some_and(in_tool_name)
                && (sentence_end || !after.chars().next().is_some_and(in_tool_name))
        })
        .map(|(at, _)| at)
}

/// A character a tool name may hold (MCP: letters, digits, `_`, `-`, `.`; some servers
/// use `/` too).
fn in_tool_name(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')
}

/// Whether the server refused a call's arguments (JSON-RPC "invalid params", as an
/// error or, from the TypeScript SDK, in a failed result's text): against a tool list
/// read before, the tool's schema may have changed since.
pub fn arguments_refused(reply: &Reply) -> bool {
    match reply {
        Reply::Error(error) => error["code"].as_i64() == Some(INVALID_PARAMS),
        Reply::Result(result) => {
            is_error(result) && result_text(result).contains(&INVALID_PARAMS.to_string())
        }
    }
}

/// The text blocks of a tool result, joined on one line.
pub fn result_text(result: &Value) -> String {
    let text: Vec<&str> = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|block| block["text"].as_str())
        .collect();
    text.join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The text of the first `{"type":"text"}` block of the result's `content`.
pub fn first_text(result: &Value) -> Option<&str> {
    result["content"]
        .as_array()?
        .iter()
        .find(|block| block["type"] == "text")?["text"]
        .as_str()
}

/// The result's `structuredContent`, else its first text read as JSON (or as a string),
/// else the result itself, so nothing the server said is dropped.
pub fn payload(result: &Value) -> Value {
    if let Some(structured) = result.get("structuredContent") {
        return structured.clone();
    }
    let text = first_text(result);
    text.map_or_else(
        || result.clone(),
        |text| serde_json::from_str(text).unwrap_or_else(|_| Value::from(text)),
    )
}

/// The kinds of the `content` blocks [`payload`] leaves out (`["image", "text"]`):
/// beside `structuredContent`, every block but the text ones that only repeat it
/// ([`repeats`]; a caption or an image is news); else every block
/// but the first text one, when that text is what is printed. None when the whole
/// result is printed.
pub fn left_out(result: &Value) -> Vec<&str> {
    let blocks = result["content"].as_array().map_or(&[][..], Vec::as_slice);
    if let Some(structured) = result.get("structuredContent") {
        return blocks
            .iter()
            .filter(|block| !repeats(block, structured))
            .map(kind)
            .collect();
    }
    if first_text(result).is_none() {
        return Vec::new();
    }
    let printed = blocks.iter().position(|block| block["type"] == "text");
    blocks
        .iter()
        .enumerate()
        .filter(|(at, _)| Some(*at) != printed)
        .map(|(_, block)| kind(block))
        .collect()
}

fn kind(block: &Value) -> &str {
    block["type"].as_str().unwrap_or("unknown")
}

/// Whether `block` is a text block that only repeats `structured`: its JSON (the
/// spec's advice), or, where an SDK wrapped a plain return value as
/// `{"result": value}` (the Python SDK does), that value as text (`"2 steps"`, `3`).
fn repeats(block: &Value, structured: &Value) -> bool {
    let Some(text) = block["text"].as_str().filter(|_| block["type"] == "text") else {
        return false;
    };
    // Parsed once (prose fails at its first word): the whole, or the wrapped value.
    let parsed = serde_json::from_str::<Value>(text).ok();
    if parsed.as_ref() == Some(structured) {
        return true;
    }
    let wrapped = structured.as_object().filter(|object| object.len() == 1);
    wrapped
        .and_then(|object| object.values().next())
        .is_some_and(|value| value.as_str() == Some(text) || parsed.as_ref() == Some(value))
}

/// A binary part of a result: an `image` or `audio` block's `data`, or an embedded
/// `resource` block's `blob` (base64, as MCP sends them).
#[derive(Debug, Clone, PartialEq)]
pub struct Media {
    /// The JSON pointer of the object holding the data (`/content/1`,
    /// `/content/2/resource`), and the data's field there (`data`, `blob`).
    pub at: String,
    pub field: &'static str,
    /// `image`, `audio` or `resource`.
    pub kind: String,
    pub mime_type: Option<String>,
    pub bytes: Vec<u8>,
}

/// The binary parts of a result, in order, decoded: of a tool's `content` (images,
/// audio, embedded resources' blobs), then of a `resources/read` result's `contents`
/// (their blobs); an error names the first whose data is not base64.
pub fn media(result: &Value) -> Result<Vec<Media>, String> {
    use base64::Engine as _;
    let list = |key: &str| result[key].as_array().map_or(&[][..], Vec::as_slice);
    let mut found = Vec::new();
    let blocks = list("content")
        .iter()
        .enumerate()
        .filter_map(|(i, block)| match kind(block) {
            "image" | "audio" => Some((format!("/content/{i}"), block, "data", kind(block))),
            "resource" => Some((
                format!("/content/{i}/resource"),
                &block["resource"],
                "blob",
                "resource",
            )),
            _ => None,
        });
    let contents = list("contents")
        .iter()
        .enumerate()
        .map(|(i, contents)| (format!("/contents/{i}"), contents, "blob", "resource"));
    for (at, holder, field, kind) in blocks.chain(contents) {
        let Some(data) = holder[field].as_str() else {
            continue;
        };
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data.trim())
            .map_err(|e| format!("{kind} data at `{at}` that is not base64: {e}"))?;
        found.push(Media {
            at,
            field,
            kind: kind.to_owned(),
            mime_type: holder["mimeType"].as_str().map(str::to_owned),
            bytes,
        });
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_missing_tool_is_told_by_the_sdks_words_not_by_its_name_inside_another() {
        // The TypeScript SDK, MCP's own example, mur's sessions.
        assert!(says_missing(
            "MCP error -32602: Tool echo not found",
            "echo"
        ));
        assert!(says_missing("Unknown tool: lookup", "lookup"));
        assert!(says_missing(
            "unknown tool `state`; `tools/list` shows the available tools",
            "state"
        ));
        assert!(says_missing("Tool 'get-sum' not found.", "get-sum"));
        assert!(says_missing("tool \"Read\" not found", "read"));
        // Tools that ran and failed, their own "not found" naming something else.
        assert!(!says_missing("File not found: readme.md", "read"));
        assert!(!says_missing("not found: read.txt", "read"));
        assert!(!says_missing("key `x` not found", "lookup"));
        assert!(!says_missing("Tool echo2 not found", "echo"));
        assert!(says_missing("Tool not found: lookup", "lookup"));
        assert!(!says_missing("File not found: readme.md", "file"));
        assert!(!says_missing("user not found", "user"));
        // The Python SDK's words for any tool that ran and failed.
        assert!(!says_missing(
            "Error executing tool read: File not found: readme.md",
            "read"
        ));
        assert!(!says_missing(
            "Error executing tool click: Element not found",
            "click"
        ));
        assert!(!says_missing("the text is empty", "echo"));
    }

    #[test]
    fn the_protocols_fields_are_taken_out_of_a_tools_result_and_the_tools_own_kept() {
        let served = |result: Value| {
            let mut result = result;
            without_protocol_fields(&mut result);
            result.to_string()
        };
        // A 2026-07-28 server's result reads as a 1.x server's of the same tool.
        let modern = json!({
            "_meta": { "io.modelcontextprotocol/serverInfo": { "name": "s", "version": "1" } },
            "content": [{ "type": "text", "text": "hi" }],
            "isError": false,
            "resultType": "complete",
            "structuredContent": { "result": "hi" }
        });
        assert_eq!(
            served(modern),
            r#"{"content":[{"type":"text","text":"hi"}],"isError":false,"structuredContent":{"result":"hi"}}"#
        );
        // The tool's own keys stay, in their order; every reserved prefix goes.
        let own = json!({
            "structuredContent": 1,
            "_meta": { "com.example/trace": "t1", "dev.mcp/x": 1,
                       "io.modelcontextprotocol/related-task": { "taskId": "a" },
                       "com.example.mcp/kept": 2, "plain": 3 },
            "content": []
        });
        assert_eq!(
            served(own),
            r#"{"structuredContent":1,"_meta":{"com.example/trace":"t1","com.example.mcp/kept":2,"plain":3},"content":[]}"#
        );
        // An empty `_meta` says nothing and goes too; one that is no object is left as sent.
        assert_eq!(served(json!({ "_meta": {} })), "{}");
        assert_eq!(served(json!({ "_meta": null })), r#"{"_meta":null}"#);
        assert_eq!(served(json!("text")), r#""text""#);
        assert!(!reserved_meta_key("modelcontextprotocol/x"));
        assert!(reserved_meta_key("org.modelcontextprotocol.api/x"));
        // An error is the server's, as it is.
        let error = json!({ "code": -32601, "message": "m", "resultType": "x" });
        assert_eq!(tools_own(Reply::Error(error.clone())), Reply::Error(error));
    }

    #[test]
    fn structured_content_wins_then_the_first_text_as_json_or_a_string() {
        let both = json!({"structuredContent": {"a": 2}, "content": [{"type": "text", "text": "{\"a\":1}"}]});
        assert_eq!(payload(&both), json!({ "a": 2 }));
        let text = json!({"content": [{"type": "image"}, {"type": "text", "text": "{\"a\":1}"}]});
        assert_eq!(payload(&text), json!({ "a": 1 }));
        let plain = json!({"content": [{"type": "text", "text": "hello"}]});
        assert_eq!(payload(&plain), json!("hello"));
        let neither = json!({"content": []});
        assert_eq!(payload(&neither), neither);
        assert_eq!(first_text(&neither), None);
    }

    #[test]
    fn what_the_payload_leaves_out_is_every_block_but_the_text_it_prints() {
        let image = json!({"content": [
            {"type": "text", "text": "Here it is:"},
            {"type": "image", "data": "iVBO", "mimeType": "image/png"},
            {"type": "text", "text": "a caption"}
        ]});
        assert_eq!(left_out(&image), ["image", "text"]);
        let first_is_image = json!({"content": [{"type": "image"}, {"type": "text", "text": "t"}]});
        assert_eq!(left_out(&first_is_image), ["image"]);
        let one = json!({"content": [{"type": "text", "text": "hello"}]});
        assert!(left_out(&one).is_empty());
        let repeated = json!({"structuredContent": {"a": 1}, "content": [
            {"type": "text", "text": "{\n  \"a\": 1\n}"}
        ]});
        assert!(
            left_out(&repeated).is_empty(),
            "the text only repeats the structured content printed"
        );
        let more = json!({"structuredContent": {"a": 1}, "content": [
            {"type": "text", "text": "{\"a\":1}"},
            {"type": "text", "text": "The counter is at 1."},
            {"type": "image"},
            {"type": "text", "text": "{\"a\":2}"}
        ]});
        assert_eq!(left_out(&more), ["text", "image", "text"]);
        // A plain return value an SDK wrapped: its text repeats it.
        let wrapped = json!({"structuredContent": {"result": "2 steps"}, "content": [
            {"type": "text", "text": "2 steps"}
        ]});
        assert!(left_out(&wrapped).is_empty());
        let number = json!({"structuredContent": {"result": 3}, "content": [
            {"type": "text", "text": "3"}, {"type": "text", "text": "three"}
        ]});
        assert_eq!(left_out(&number), ["text"]);
        let no_text = json!({"content": [{"type": "image"}]});
        assert!(left_out(&no_text).is_empty(), "the whole result is printed");
    }

    #[test]
    fn media_are_the_image_audio_and_blob_blocks_decoded() {
        let result = json!({"content": [
            {"type": "text", "text": "Here:"},
            {"type": "image", "data": "iVBORw==", "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "app://a", "blob": "AAE=", "mimeType": "application/octet-stream"}},
            {"type": "resource", "resource": {"uri": "app://t", "text": "plain"}},
            {"type": "audio", "data": "UklGRg=="}
        ]});
        let found = media(&result).expect("base64");
        let summary: Vec<(&str, &str, &str, Vec<u8>)> = found
            .iter()
            .map(|m| (m.at.as_str(), m.field, m.kind.as_str(), m.bytes.clone()))
            .collect();
        assert_eq!(
            summary,
            [
                ("/content/1", "data", "image", vec![0x89, b'P', b'N', b'G']),
                ("/content/2/resource", "blob", "resource", vec![0, 1]),
                ("/content/4", "data", "audio", b"RIFF".to_vec()),
            ]
        );
        assert_eq!(found[0].mime_type.as_deref(), Some("image/png"));
        let read = json!({"contents": [
            {"uri": "app://t", "text": "plain"},
            {"uri": "app://b", "blob": "AAE=", "mimeType": "application/gzip"}
        ]});
        let blob = media(&read).expect("base64");
        assert_eq!(blob.len(), 1, "{blob:?}");
        assert_eq!(
            (blob[0].at.as_str(), blob[0].field, blob[0].bytes.as_slice()),
            ("/contents/1", "blob", &[0u8, 1][..])
        );
        let bad = json!({"content": [{"type": "image", "data": "not base64!"}]});
        let error = media(&bad).expect_err("not base64");
        assert!(
            error.starts_with("image data at `/content/0` that is not base64"),
            "{error}"
        );
    }
}
