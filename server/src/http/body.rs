//! In front of rmcp: a JSON POST body is read within a deadline and a size cap and
//! checked to be one JSON-RPC message, so a client gets a JSON-RPC error with the
//! right code (rmcp answers 415 to both malformed JSON and batches). Also marks
//! each request in flight on its connection until its response is written.

use std::{
    pin::Pin,
    task::{Context, Poll},
    time::Duration,
};

use axum::{
    body::{Body, Bytes, HttpBody},
    extract::{Request, State},
    http::{HeaderMap, HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use futures_util::StreamExt;
use mur_lockfile::jsonrpc::{self, INVALID_REQUEST, PARSE_ERROR};
use rmcp::model::ClientJsonRpcMessage;

use super::connections::{Busy, Connection};

#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyLimits {
    pub(crate) read_timeout: Duration,
    pub(crate) max_bytes: usize,
}

/// Axum middleware on every route, behind the Host/Origin guard.
pub(crate) async fn check_post_body(
    State(limits): State<BodyLimits>,
    request: Request,
    next: Next,
) -> Response {
    // Only a JSON POST is read by rmcp; anything else gets its answer (probe, 415, …)
    // without its body being read, so it passes through untouched.
    if request.method() != Method::POST || !is_json(request.headers()) {
        let busy = mark_busy(&request);
        return hold_until_written(next.run(request).await, busy);
    }
    let (parts, body) = request.into_parts();
    let bytes = match read_body(&parts.headers, body, limits).await {
        Ok(bytes) => bytes,
        Err(refusal) => return refusal,
    };
    if let Some((code, message, detail)) = problem(&bytes) {
        return json_rpc_error(StatusCode::BAD_REQUEST, code, message, &detail);
    }
    let request = Request::from_parts(parts, Body::from(bytes));
    let busy = mark_busy(&request);
    hold_until_written(next.run(request).await, busy)
}

/// The content-type test rmcp applies before it reads a body (the bridge applies it too).
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| mur_http::media_type_is(value, "application/json"))
}

fn declared_length(headers: &HeaderMap) -> Option<usize> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse::<u64>()
        .ok()
        .map(|length| usize::try_from(length).unwrap_or(usize::MAX))
}

/// How many times the cap a body refused as too large may be, and still be read to
/// its end (and thrown away) before it is answered: a client answered while it
/// still writes its body finds the connection closed under it (its write fails,
/// "Broken pipe", and the refusal is never read). A request mur sends past the cap
/// is at most a few times it (a value read from a 4 MiB file, escaped as JSON); a
/// larger one is refused unread, its connection closed.
const DRAINED_CAPS: usize = 4;

/// The whole body within the deadline and the cap, or the answer refusing it. A body
/// past the cap is read on to its end ([`DRAINED_CAPS`], within the same deadline)
/// before it is refused, so that its client reads why: 413, the request too large.
async fn read_body(headers: &HeaderMap, body: Body, limits: BodyLimits) -> Result<Bytes, Response> {
    let deadline = tokio::time::Instant::now() + limits.read_timeout;
    let declared = declared_length(headers);
    let mut stream = body.into_data_stream();
    let read = async {
        if declared.is_some_and(|length| length > limits.max_bytes) {
            return Err(BodyError::TooLarge);
        }
        read_bounded(&mut stream, limits.max_bytes).await
    };
    match tokio::time::timeout_at(deadline, read).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(BodyError::TooLarge)) => {
            let drained = limits.max_bytes.saturating_mul(DRAINED_CAPS);
            // A body of no declared length was read up to the cap already.
            let left = match declared {
                Some(_) => drained,
                None => drained.saturating_sub(limits.max_bytes),
            };
            if declared.is_none_or(|length| length <= drained) {
                let _ = tokio::time::timeout_at(deadline, drain(&mut stream, left)).await;
            }
            Err(too_large(limits.max_bytes))
        }
        Ok(Err(BodyError::Read(error))) => {
            let detail = format!("cannot read the request body: {error}");
            Err(json_rpc_error(
                StatusCode::BAD_REQUEST,
                PARSE_ERROR,
                "Parse error",
                &detail,
            ))
        }
        Err(_) => {
            let seconds = limits.read_timeout.as_secs_f64();
            let detail = format!("the request body did not arrive within {seconds} s");
            Err(json_rpc_error(
                StatusCode::REQUEST_TIMEOUT,
                INVALID_REQUEST,
                "Invalid Request",
                &detail,
            ))
        }
    }
}

enum BodyError {
    TooLarge,
    Read(axum::Error),
}

/// The body's data, one chunk at a time.
type DataStream = axum::body::BodyDataStream;

/// The whole body, refused as soon as it passes `max_bytes` (also when it is chunked).
async fn read_bounded(stream: &mut DataStream, max_bytes: usize) -> Result<Bytes, BodyError> {
    let mut collected = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(BodyError::Read)?;
        if chunk.len() > max_bytes.saturating_sub(collected.len()) {
            return Err(BodyError::TooLarge);
        }
        collected.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(collected))
}

/// Reads what is left of a refused body, holding none of it, until it ends, fails,
/// or `max_bytes` more were read.
async fn drain(stream: &mut DataStream, max_bytes: usize) {
    let mut read = 0usize;
    while let Some(Ok(chunk)) = stream.next().await {
        read = read.saturating_add(chunk.len());
        if read > max_bytes {
            return;
        }
    }
}

/// What is wrong with a body that is not one JSON-RPC message rmcp can take:
/// (code, message, detail). `None` when rmcp can take it.
fn problem(body: &[u8]) -> Option<(i64, &'static str, String)> {
    let starts_array = body
        .iter()
        .find(|byte| !byte.is_ascii_whitespace())
        .is_some_and(|byte| *byte == b'[');
    if starts_array {
        // A syntax error still comes first: -32700 for a broken batch.
        return Some(match serde_json::from_slice::<serde::de::IgnoredAny>(body) {
            Ok(_) => (
                INVALID_REQUEST,
                "Invalid Request",
                "batches are not supported (MCP 2025-06-18 and later send one message per request)"
                    .to_owned(),
            ),
            Err(error) => (PARSE_ERROR, "Parse error", error.to_string()),
        });
    }
    // The same parse rmcp does next, so what passes here rmcp takes.
    match serde_json::from_slice::<ClientJsonRpcMessage>(body) {
        Ok(_) => None,
        Err(error) if error.is_data() => {
            Some((INVALID_REQUEST, "Invalid Request", error.to_string()))
        }
        Err(error) => Some((PARSE_ERROR, "Parse error", error.to_string())),
    }
}

fn too_large(max_bytes: usize) -> Response {
    let detail = format!("the request body is larger than {max_bytes} bytes");
    json_rpc_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        INVALID_REQUEST,
        "Invalid Request",
        &detail,
    )
}

/// A JSON-RPC error answer with `"id": null` (the request's id is not known).
/// When the body was not read to its end the connection is closed, since the
/// next request's start on it is unknown (hyper closes it too; the header says so).
fn json_rpc_error(status: StatusCode, code: i64, message: &str, detail: &str) -> Response {
    let body = jsonrpc::error_with_data(serde_json::Value::Null, code, message, detail.into());
    let mut response = (status, axum::Json(body)).into_response();
    if status != StatusCode::BAD_REQUEST {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

fn mark_busy(request: &Request) -> Option<Busy> {
    request
        .extensions()
        .get::<Connection>()
        .map(Connection::busy)
}

/// Keeps the request marked in flight until hyper has written (and dropped) the
/// response body: a streamed answer (a legacy session's SSE) outlives the handler.
fn hold_until_written(response: Response, busy: Option<Busy>) -> Response {
    match busy {
        Some(busy) => response.map(|inner| Body::new(HeldBody { inner, _busy: busy })),
        None => response,
    }
}

struct HeldBody {
    inner: Body,
    _busy: Busy,
}

impl HttpBody for HeldBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_json_is_a_parse_error() {
        for body in ["", "{", "not json", "{\"jsonrpc\":", "[1,"] {
            let (code, message, _) = problem(body.as_bytes()).expect(body);
            assert_eq!((code, message), (PARSE_ERROR, "Parse error"), "{body:?}");
        }
    }

    #[test]
    fn batches_and_non_messages_are_invalid_requests() {
        let request = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        for body in [
            format!("[{request}]"),
            " []".to_owned(),
            "42".to_owned(),
            "{}".to_owned(),
        ] {
            let (code, message, _) = problem(body.as_bytes()).expect(&body);
            assert_eq!(
                (code, message),
                (INVALID_REQUEST, "Invalid Request"),
                "{body:?}"
            );
        }
    }

    #[tokio::test]
    async fn a_body_is_refused_once_past_the_cap_whatever_its_headers_say() {
        let chunks = (0..3).map(|_| Ok::<_, std::io::Error>(Bytes::from(vec![b' '; 4])));
        let streamed = Body::from_stream(futures_util::stream::iter(chunks));
        assert!(matches!(
            read_bounded(&mut streamed.into_data_stream(), 10).await,
            Err(BodyError::TooLarge)
        ));
        let mut fits = Body::from(vec![b' '; 10]).into_data_stream();
        assert!(matches!(read_bounded(&mut fits, 10).await, Ok(bytes) if bytes.len() == 10));
    }

    #[test]
    fn one_message_passes() {
        assert!(problem(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).is_none());
        assert!(problem(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).is_none());
    }
}
