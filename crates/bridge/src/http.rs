//! The POST of the bridge's `/mcp`: each JSON-RPC message of an HTTP client
//! goes to the stdio server, and what the server writes for it comes back —
//! as one JSON answer, or, once the server reports progress, logs or asks a
//! question before answering, as an SSE stream of those messages ending with
//! the answer. The client answers a question with a POST of its own.
//!
//! The server was initialized once, by the bridge: `initialize` and
//! `server/discover` are answered from what it said then, and requests of
//! either revision (the 2026-07-28 form carries its context in `_meta`,
//! which is taken off here) go to the server as they are.

use std::{
    convert::Infallible,
    sync::{Arc, RwLock},
    time::Duration,
};

use axum::{
    body::Bytes,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response, Sse, sse::Event},
    routing::{MethodRouter, post},
};
use futures_util::{Stream, StreamExt, stream};
use serde_json::{Map, Value, json};
use tokio::sync::Mutex;

use crate::relay::{INTERNAL_ERROR, Relay, Sent};

/// JSON-RPC codes of a message that cannot be read.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
/// How long a request waits for a server that is being restarted.
const RESTART_WAIT: Duration = Duration::from_secs(30);
/// How long the bridge waits for the server to take a new log level.
const SET_LEVEL_LIMIT: Duration = Duration::from_secs(5);
/// The `_meta` keys of the 2026-07-28 form (protocol version, client info
/// and capabilities, log level): the bridge's, not the server's, to read.
const MODERN_META_PREFIX: &str = "io.modelcontextprotocol/";

/// The bridge as its HTTP handlers see it.
pub(crate) struct Bridge {
    relay: Relay,
    /// What the running server answered to `initialize`.
    initialized: RwLock<Value>,
    /// The log level last set on the server (set again after a restart).
    log_level: Mutex<Option<String>>,
}

impl Bridge {
    pub(crate) fn new(relay: Relay, initialized: Value) -> Arc<Self> {
        Arc::new(Self {
            relay,
            initialized: RwLock::new(initialized),
            log_level: Mutex::new(None),
        })
    }

    /// A restarted server: its own `initialize` answer, no log level set yet.
    pub(crate) async fn restarted(&self, initialized: Value) {
        if let Ok(mut current) = self.initialized.write() {
            *current = initialized;
        }
        *self.log_level.lock().await = None;
    }

    fn initialized(&self) -> Value {
        self.initialized
            .read()
            .map(|v| v.clone())
            .unwrap_or_default()
    }
}

/// POST answers messages; DELETE (ending a session) is refused, as the
/// bridge hands out no sessions.
pub(crate) fn routes(bridge: Arc<Bridge>) -> MethodRouter {
    post(move |headers: HeaderMap, body: Bytes| {
        let bridge = bridge.clone();
        async move { handle(&bridge, &headers, &body).await }
    })
    .delete(|| async { StatusCode::METHOD_NOT_ALLOWED })
}

async fn handle(bridge: &Arc<Bridge>, headers: &HeaderMap, body: &[u8]) -> Response {
    if !mur_server::is_json(headers) {
        return (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type must be application/json",
        )
            .into_response();
    }
    let Ok(message) = serde_json::from_slice::<Value>(body) else {
        return rpc_error(
            StatusCode::BAD_REQUEST,
            Value::Null,
            PARSE_ERROR,
            "Parse error",
        );
    };
    let method = message.get("method").and_then(Value::as_str);
    match (method, message.get("id")) {
        (Some(method), Some(id)) => {
            let params = message.get("params").cloned();
            request(bridge, method, id.clone(), params).await
        }
        (Some(method), None) => {
            notification(bridge, method, &message);
            StatusCode::ACCEPTED.into_response()
        }
        (None, Some(_)) if message.get("result").is_some() || message.get("error").is_some() => {
            if !bridge.relay.answer(message) {
                tracing::debug!("an answer to no open question of the server");
            }
            StatusCode::ACCEPTED.into_response()
        }
        _ => rpc_error(
            StatusCode::BAD_REQUEST,
            Value::Null,
            INVALID_REQUEST,
            "Invalid Request",
        ),
    }
}

/// A client's notification: `initialized` was the bridge's to send (once);
/// a cancellation is not passed on, as the bridge cannot tell which client
/// sent it and every `mur` call's request is id 1 (one client could cancel
/// another's call) — a client cancels by closing its response, which the
/// server hears of; the rest pass.
fn notification(bridge: &Bridge, method: &str, message: &Value) {
    bridge.relay.touch();
    match method {
        "notifications/initialized" => {}
        "notifications/cancelled" => tracing::debug!(
            "a client's cancellation of its request {}: not passed on (the bridge cannot tell whose it is)",
            crate::log::clipped(&message["params"]["requestId"].to_string())
        ),
        _ => bridge.relay.send(message),
    }
}

async fn request(bridge: &Arc<Bridge>, method: &str, id: Value, params: Option<Value>) -> Response {
    match method {
        "initialize" => return rpc_result(id, bridge.initialized()),
        "server/discover" => return rpc_result(id, discover(&bridge.initialized())),
        _ => {}
    }
    let mut params = params;
    let level = take_modern_meta(&mut params);
    if bridge.relay.writer_within(RESTART_WAIT).await.is_none() {
        return rpc_error(
            StatusCode::OK,
            id,
            INTERNAL_ERROR,
            "the stdio server is not running (it is being restarted, or gave up)",
        );
    }
    if let Some(level) = level {
        set_level(bridge, &level).await;
    }
    let (message, sent) = bridge.relay.register(id, method, params, false);
    bridge.relay.send(&message);
    respond(bridge.relay.clone(), sent).await
}

/// The answer alone as JSON; anything before it turns the response into an
/// event stream, which ends with the answer.
async fn respond(relay: Relay, sent: Sent) -> Response {
    let mut watched = Watched {
        relay,
        sent,
        done: false,
    };
    let Some(first) = watched.sent.messages.recv().await else {
        watched.done = true;
        return rpc_error(
            StatusCode::OK,
            Value::Null,
            INTERNAL_ERROR,
            "the bridge lost the request",
        );
    };
    if is_answer(&first) {
        watched.done = true;
        return axum::Json(first).into_response();
    }
    Sse::new(event_stream(first, watched)).into_response()
}

/// `first`, then every message of the request up to and including its answer.
fn event_stream(
    first: Value,
    watched: Watched,
) -> impl Stream<Item = Result<Event, Infallible>> + Send {
    let rest = stream::unfold(Some(watched), |state| async move {
        let mut watched = state?;
        let message = watched.sent.messages.recv().await?;
        if is_answer(&message) {
            watched.done = true;
            return Some((message, None));
        }
        Some((message, Some(watched)))
    });
    stream::once(async move { first })
        .chain(rest)
        .map(|message| Ok(Event::default().data(message.to_string())))
}

/// A request in flight on behalf of a client: if the client goes away
/// before the answer (the response is dropped), the server is told.
struct Watched {
    relay: Relay,
    sent: Sent,
    done: bool,
}

impl Drop for Watched {
    fn drop(&mut self) {
        if !self.done {
            self.relay.abandon(self.sent.id);
        }
    }
}

/// An answer has no `method`; notifications and questions have one.
fn is_answer(message: &Value) -> bool {
    message.get("method").is_none()
}

/// Takes the 2026-07-28 `_meta` keys off `params` (an older server may
/// refuse them) and returns the log level the client asks for, if any.
fn take_modern_meta(params: &mut Option<Value>) -> Option<String> {
    let meta = params.as_mut()?.get_mut("_meta")?.as_object_mut()?;
    let level = meta
        .get("io.modelcontextprotocol/logLevel")
        .and_then(Value::as_str)
        .map(str::to_owned);
    meta.retain(|key, _| !key.starts_with(MODERN_META_PREFIX));
    if meta.is_empty()
        && let Some(Value::Object(map)) = params.as_mut()
    {
        map.remove("_meta");
    }
    level
}

/// Sets the server's log level with `logging/setLevel` when it logs and the
/// level is not already set: a 2026-07-28 client asks per request.
async fn set_level(bridge: &Bridge, level: &str) {
    if !bridge.initialized()["capabilities"]["logging"].is_object() {
        return;
    }
    let mut current = bridge.log_level.lock().await;
    if current.as_deref() == Some(level) {
        return;
    }
    let params = json!({ "level": level });
    let (message, mut sent) =
        bridge
            .relay
            .register(Value::Null, "logging/setLevel", Some(params), true);
    bridge.relay.send(&message);
    match tokio::time::timeout(SET_LEVEL_LIMIT, sent.messages.recv()).await {
        Ok(Some(answer)) if answer.get("result").is_some() => *current = Some(level.to_owned()),
        _ => tracing::info!("the server did not take log level `{level}`"),
    }
}

/// A `server/discover` result from the server's `initialize` answer: the
/// bridge accepts both the server's revision and the 2026-07-28 form.
fn discover(initialized: &Value) -> Value {
    let mut versions = vec![initialized["protocolVersion"].clone()];
    versions.push(json!(mur_client::MODERN_VERSION));
    let mut result = Map::new();
    result.insert("resultType".into(), json!("complete"));
    result.insert("supportedVersions".into(), Value::Array(versions));
    result.insert("capabilities".into(), initialized["capabilities"].clone());
    if let Some(instructions) = initialized.get("instructions") {
        result.insert("instructions".into(), instructions.clone());
    }
    result.insert("ttlMs".into(), json!(0));
    result.insert("cacheScope".into(), json!("private"));
    result.insert(
        "_meta".into(),
        json!({ "io.modelcontextprotocol/serverInfo": initialized["serverInfo"] }),
    );
    Value::Object(result)
}

fn rpc_result(id: Value, result: Value) -> Response {
    axum::Json(json!({ "jsonrpc": "2.0", "id": id, "result": result })).into_response()
}

fn rpc_error(status: StatusCode, id: Value, code: i64, message: &str) -> Response {
    let body = json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } });
    (status, axum::Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_modern_meta_is_taken_off_and_its_log_level_read() {
        let mut params = Some(json!({
            "name": "echo",
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/logLevel": "info",
                "progressToken": "mur",
            },
        }));
        assert_eq!(take_modern_meta(&mut params).as_deref(), Some("info"));
        assert_eq!(
            params,
            Some(json!({ "name": "echo", "_meta": { "progressToken": "mur" } }))
        );
        let mut bare = Some(json!({ "_meta": { "io.modelcontextprotocol/protocolVersion": "x" } }));
        assert_eq!(take_modern_meta(&mut bare), None);
        assert_eq!(bare, Some(json!({})));
    }

    #[test]
    fn discover_describes_the_server_it_initialized() {
        let found = discover(&json!({
            "protocolVersion": "2025-06-18",
            "capabilities": { "tools": {} },
            "serverInfo": { "name": "everything", "version": "1" },
        }));
        assert_eq!(
            found["supportedVersions"],
            json!(["2025-06-18", "2026-07-28"])
        );
        assert_eq!(found["capabilities"], json!({ "tools": {} }));
        assert_eq!(
            found["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
            "everything"
        );
    }
}
