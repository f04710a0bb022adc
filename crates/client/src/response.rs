//! Reading a POST's answer, plain JSON or an SSE stream, down to the one
//! JSON-RPC response that carries our id; notifications and other ids are
//! skipped (progress is reported on stderr with `-v`). A request from the
//! server (a message with both `id` and `method`) ends the reading: the
//! caller refuses it.
//!
//! Every body is read chunk by chunk and counted as it arrives, and reading
//! stops with a transport error once it passes the response limit
//! (`--max-response`, 64 MiB by default): a server cannot make mur buffer
//! more than that, whether the body is one endless JSON document or an
//! endless event stream. An event stream that stays under the limit but never
//! ends is bounded by the call's timeout.

use std::fmt;

use futures_util::StreamExt as _;
use serde_json::Value;
use sse_stream::SseStream;

use mur_core::settings::human_bytes;
use mur_core::{Error, Result};

/// The server's answer to our request.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// `result` of a successful response.
    Result(Value),
    /// `error` object of a JSON-RPC error response.
    Error(Value),
}

/// A JSON-RPC request the server sent to mur in the middle of a response
/// (`elicitation/create`, `sampling/createMessage`, `roots/list`, …).
#[derive(Debug, Clone, PartialEq)]
pub struct ServerRequest {
    pub id: Value,
    pub method: String,
}

/// What one HTTP response held.
#[derive(Debug)]
pub enum Answer {
    /// The response with our id.
    Reply(Reply),
    /// A request from the server, met before our response.
    Request(ServerRequest),
    /// No response with our id; `error` is a JSON-RPC error with another
    /// (usually null) id, if there was one, and `text` is a snippet of the body.
    Other { error: Option<Value>, text: String },
}

/// How to read the responses of one endpoint.
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    pub endpoint: &'a str,
    /// The most bytes one response body may have.
    pub limit: u64,
    pub verbose: bool,
}

impl Reader<'_> {
    /// Reads the body of `response` as JSON or SSE, looking for `id`.
    pub async fn read(&self, response: reqwest::Response, id: u64) -> Result<Answer> {
        if response
            .content_length()
            .is_some_and(|len| len > self.limit)
        {
            return Err(self.too_large());
        }
        let is_sse = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("text/event-stream"));
        if is_sse {
            self.read_sse(response, id).await
        } else {
            let bytes = self.read_body(response).await?;
            Ok(read_json(&bytes, id, self.verbose))
        }
    }

    /// The whole body, counted chunk by chunk against the limit.
    async fn read_body(&self, mut response: reqwest::Response) -> Result<Vec<u8>> {
        let expected = response.content_length().unwrap_or(0).min(self.limit);
        let mut body = Vec::with_capacity(usize::try_from(expected).unwrap_or(0));
        while let Some(chunk) = response.chunk().await.map_err(|e| self.broken(&e))? {
            if (body.len() + chunk.len()) as u64 > self.limit {
                return Err(self.too_large());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }

    async fn read_sse(&self, response: reqwest::Response, id: u64) -> Result<Answer> {
        let mut events =
            std::pin::pin!(SseStream::from_bytes_stream(counted(response, self.limit)));
        let mut stray_error = None;
        while let Some(event) = events.next().await {
            let event = event.map_err(|e| self.stream_error(e))?;
            let Some(data) = event.data.filter(|d| !d.trim().is_empty()) else {
                continue;
            };
            let value: Value = serde_json::from_str(&data).map_err(|e| {
                Error::transport(format!(
                    "`{}` sent a malformed event in the response stream: {e}",
                    self.endpoint
                ))
            })?;
            for msg in messages(value) {
                if let Some(answer) = take(&msg, id, self.verbose, &mut stray_error) {
                    return Ok(answer);
                }
            }
        }
        if stray_error.is_some() {
            return Ok(Answer::Other {
                error: stray_error,
                text: String::new(),
            });
        }
        Err(Error::transport(format!(
            "`{}` ended the event stream without answering",
            self.endpoint
        )))
    }

    fn stream_error(&self, e: sse_stream::Error) -> Error {
        match e {
            sse_stream::Error::Body(inner) => match inner.downcast::<BodyError>() {
                Ok(body) => match *body {
                    BodyError::TooLarge => self.too_large(),
                    BodyError::Broken(e) => self.broken(&e),
                },
                Err(other) => Error::transport(format!(
                    "`{}`: reading the event stream failed: {other}",
                    self.endpoint
                )),
            },
            other => Error::transport(format!(
                "`{}` sent a malformed event stream: {other}",
                self.endpoint
            )),
        }
    }

    /// The body passed the limit: stop, and say how to raise it.
    fn too_large(&self) -> Error {
        Error::transport(format!(
            "`{}` sent a response larger than {}, mur's response limit; it was not read further",
            self.endpoint,
            human_bytes(self.limit)
        ))
        .with_hint(
            "if an answer this large is expected, raise the limit with `--max-response BYTES` \
             (e.g. `--max-response 256M`)",
        )
    }

    /// The connection ended (or failed) in the middle of the body.
    fn broken(&self, e: &reqwest::Error) -> Error {
        let cause = root_cause(e).map(|c| format!(" ({c})")).unwrap_or_default();
        Error::transport(format!(
            "`{}` closed the connection before the answer was complete{cause}",
            self.endpoint
        ))
    }
}

/// Why reading an event stream's bytes stopped.
#[derive(Debug)]
enum BodyError {
    TooLarge,
    Broken(reqwest::Error),
}

impl fmt::Display for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge => f.write_str("the response passed the size limit"),
            Self::Broken(e) => write!(f, "{}", describe(e)),
        }
    }
}

impl std::error::Error for BodyError {}

/// The body of `response` as a stream of chunks that ends with
/// [`BodyError::TooLarge`] as soon as more than `limit` bytes have arrived.
fn counted(
    response: reqwest::Response,
    limit: u64,
) -> impl futures_util::Stream<Item = Result<bytes::Bytes, BodyError>> {
    futures_util::stream::unfold(Some((response, 0u64)), move |state| async move {
        let (mut response, seen) = state?;
        match response.chunk().await {
            Ok(Some(chunk)) => {
                let seen = seen + chunk.len() as u64;
                if seen > limit {
                    Some((Err(BodyError::TooLarge), None))
                } else {
                    Some((Ok(chunk), Some((response, seen))))
                }
            }
            Ok(None) => None,
            Err(e) => Some((Err(BodyError::Broken(e)), None)),
        }
    })
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
        if let Some(answer) = take(&msg, id, verbose, &mut stray_error) {
            return answer;
        }
    }
    Answer::Other {
        error: stray_error,
        text: snippet(bytes),
    }
}

fn messages(value: Value) -> Vec<Value> {
    match value {
        Value::Array(batch) => batch,
        one => vec![one],
    }
}

/// Our reply, if `msg` is it, or a request from the server; reports
/// notifications and keeps stray errors.
fn take(msg: &Value, id: u64, verbose: bool, stray_error: &mut Option<Value>) -> Option<Answer> {
    if let Some(method) = msg.get("method") {
        if let Some(request_id) = msg.get("id").filter(|i| !i.is_null()) {
            return Some(Answer::Request(ServerRequest {
                id: request_id.clone(),
                method: method.as_str().unwrap_or("(not a string)").to_owned(),
            }));
        }
        if verbose {
            report_notification(msg);
        }
        return None;
    }
    let ours = msg.get("id").and_then(Value::as_u64) == Some(id);
    match (msg.get("result"), msg.get("error")) {
        (Some(result), _) if ours => Some(Answer::Reply(Reply::Result(result.clone()))),
        (_, Some(error)) if ours => Some(Answer::Reply(Reply::Error(error.clone()))),
        (_, Some(error)) => {
            stray_error.get_or_insert_with(|| error.clone());
            None
        }
        _ => None,
    }
}

/// Reports a progress notification (only with `-v`) as a log event: the
/// library never writes to stderr itself; the binary's `-v` log shows it.
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
    tracing::info!("progress: {}{total}{text}", p["progress"]);
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
    let mut text = if e.is_connect() {
        "could not connect".to_owned()
    } else if e.is_timeout() {
        "timed out".to_owned()
    } else if e.is_body() || e.is_decode() {
        "the connection closed before the answer was complete".to_owned()
    } else {
        "request failed".to_owned()
    };
    if let Some(root) = root_cause(e) {
        text.push_str(": ");
        text.push_str(&root);
    }
    text
}

/// The innermost cause of `e`, which is the one that says what happened.
fn root_cause(e: &reqwest::Error) -> Option<String> {
    use std::error::Error as _;
    let mut source = e.source();
    let mut last = None;
    while let Some(s) = source {
        last = Some(s.to_string());
        source = s.source();
    }
    last
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
    fn a_message_with_an_id_and_a_method_is_a_request_from_the_server() {
        let body = json!([
            { "jsonrpc": "2.0", "method": "notifications/message", "params": {} },
            { "jsonrpc": "2.0", "id": "e-1", "method": "elicitation/create", "params": {} },
            { "jsonrpc": "2.0", "id": 1, "result": { "ok": true } },
        ]);
        let answer = read_json(body.to_string().as_bytes(), 1, false);
        assert!(
            matches!(&answer, Answer::Request(r) if r.id == json!("e-1") && r.method == "elicitation/create"),
            "{answer:?}"
        );
    }

    #[test]
    fn garbage_is_reported_as_a_snippet() {
        let answer = read_json(b"<html>\n nope </html>", 1, false);
        assert!(
            matches!(answer, Answer::Other { error: None, text } if text == "<html> nope </html>")
        );
    }
}
