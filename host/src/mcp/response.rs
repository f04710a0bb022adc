//! Reading a POST's answer, plain JSON or an SSE stream, down to the one
//! JSON-RPC response that carries our id; notifications and other ids are
//! skipped (progress is reported on stderr with `-v`).

use futures_util::StreamExt as _;
use serde_json::Value;
use sse_stream::SseStream;

use crate::error::{Error, Result};

/// The server's answer to our request.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// `result` of a successful response.
    Result(Value),
    /// `error` object of a JSON-RPC error response.
    Error(Value),
}

/// What one HTTP response held.
#[derive(Debug)]
pub enum Answer {
    /// The response with our id.
    Reply(Reply),
    /// No response with our id; `error` is a JSON-RPC error with another
    /// (usually null) id, if there was one, and `text` is a snippet of the body.
    Other { error: Option<Value>, text: String },
}

/// Reads the body of `response` as JSON or SSE, looking for `id`.
pub async fn read(response: reqwest::Response, id: u64, verbose: bool) -> Result<Answer> {
    let is_sse = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("text/event-stream"));
    if is_sse {
        read_sse(response, id, verbose).await
    } else {
        let bytes = response
            .bytes()
            .await
            .map_err(|e| Error::transport(describe(&e)))?;
        Ok(read_json(&bytes, id, verbose))
    }
}

/// Finds our response in a plain JSON body (one message or a batch).
pub fn read_json(bytes: &[u8], id: u64, verbose: bool) -> Answer {
    let Ok(value) = serde_json::from_slice::<Value>(bytes) else {
        return Answer::Other {
            error: None,
            text: snippet(bytes),
        };
    };
    let mut stray_error = None;
    for msg in messages(value) {
        if let Some(reply) = take(&msg, id, verbose, &mut stray_error) {
            return Answer::Reply(reply);
        }
    }
    Answer::Other {
        error: stray_error,
        text: snippet(bytes),
    }
}

async fn read_sse(response: reqwest::Response, id: u64, verbose: bool) -> Result<Answer> {
    let mut events = SseStream::from_bytes_stream(response.bytes_stream());
    let mut stray_error = None;
    while let Some(event) = events.next().await {
        let event =
            event.map_err(|e| Error::transport(format!("reading the event stream failed: {e}")))?;
        let Some(data) = event.data.filter(|d| !d.trim().is_empty()) else {
            continue;
        };
        let value: Value = serde_json::from_str(&data).map_err(|e| {
            Error::transport(format!("malformed event in the response stream: {e}"))
        })?;
        for msg in messages(value) {
            if let Some(reply) = take(&msg, id, verbose, &mut stray_error) {
                return Ok(Answer::Reply(reply));
            }
        }
    }
    if stray_error.is_some() {
        return Ok(Answer::Other {
            error: stray_error,
            text: String::new(),
        });
    }
    Err(Error::transport(
        "the server ended the event stream without answering",
    ))
}

fn messages(value: Value) -> Vec<Value> {
    match value {
        Value::Array(batch) => batch,
        one => vec![one],
    }
}

/// Our reply, if `msg` is it; reports notifications and keeps stray errors.
fn take(msg: &Value, id: u64, verbose: bool, stray_error: &mut Option<Value>) -> Option<Reply> {
    if msg.get("method").is_some() {
        if verbose {
            report_notification(msg);
        }
        return None;
    }
    let ours = msg.get("id").and_then(Value::as_u64) == Some(id);
    match (msg.get("result"), msg.get("error")) {
        (Some(result), _) if ours => Some(Reply::Result(result.clone())),
        (_, Some(error)) if ours => Some(Reply::Error(error.clone())),
        (_, Some(error)) => {
            stray_error.get_or_insert_with(|| error.clone());
            None
        }
        _ => None,
    }
}

/// Shows a progress notification on stderr (only with `-v`).
fn report_notification(msg: &Value) {
    let method = msg["method"].as_str().unwrap_or_default();
    if method != "notifications/progress" {
        tracing::debug!("skipped notification `{method}`");
        return;
    }
    let p = &msg["params"];
    let total = p["total"]
        .as_f64()
        .map(|t| format!("/{t}"))
        .unwrap_or_default();
    let text = p["message"]
        .as_str()
        .map(|m| format!(" {m}"))
        .unwrap_or_default();
    eprintln!("progress: {}{total}{text}", p["progress"]);
}

/// A short, single-line excerpt of a body, for error messages.
pub fn snippet(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > 120 {
        format!("{}…", line.chars().take(120).collect::<String>())
    } else {
        line
    }
}

/// A reqwest error in one line, without the URL noise reqwest adds.
pub fn describe(e: &reqwest::Error) -> String {
    use std::error::Error as _;
    let mut text = if e.is_connect() {
        "could not connect".to_owned()
    } else if e.is_timeout() {
        "timed out".to_owned()
    } else if e.is_body() || e.is_decode() {
        "the response body broke off".to_owned()
    } else {
        "request failed".to_owned()
    };
    let mut source = e.source();
    let mut last = None;
    while let Some(s) = source {
        last = Some(s.to_string());
        source = s.source();
    }
    if let Some(root) = last {
        text.push_str(": ");
        text.push_str(&root);
    }
    text
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_response_with_our_id_is_kept() {
        let body = json!([
            { "jsonrpc": "2.0", "method": "notifications/progress", "params": { "progress": 1 } },
            { "jsonrpc": "2.0", "id": 9, "result": { "other": true } },
            { "jsonrpc": "2.0", "id": 1, "result": { "ok": true } },
        ]);
        let answer = read_json(body.to_string().as_bytes(), 1, false);
        assert!(matches!(answer, Answer::Reply(Reply::Result(r)) if r == json!({ "ok": true })));
    }

    #[test]
    fn an_error_with_a_null_id_is_not_our_reply() {
        let body = json!({ "jsonrpc": "2.0", "id": null, "error": { "code": -32000, "message": "no session" } });
        let answer = read_json(body.to_string().as_bytes(), 1, false);
        assert!(matches!(answer, Answer::Other { error: Some(e), .. } if e["code"] == -32000));
    }

    #[test]
    fn garbage_is_reported_as_a_snippet() {
        let answer = read_json(b"<html>\n nope </html>", 1, false);
        assert!(
            matches!(answer, Answer::Other { error: None, text } if text == "<html> nope </html>")
        );
    }
}
