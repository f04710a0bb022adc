//! The POST of the bridge's `/mcp` (reached only with the bridge's secret:
//! `mur-server`'s endpoint refuses any other request first): each JSON-RPC
//! message of an HTTP client goes to the stdio server, and what the server
//! writes for it comes back — as one JSON answer, or, once the server reports
//! progress, logs or asks a question before answering, as an SSE stream of
//! those messages ending with the answer. The client answers a question with
//! a POST of its own.
//!
//! The server was initialized once, by the bridge: `initialize` and
//! `server/discover` are answered from what it said then, and requests of
//! either revision (the 2026-07-28 form carries its context in `_meta`,
//! which is taken off here) go to the server as they are.
//!
//! With usage recording on (`bridge --usage`), each `tools/call` is recorded
//! once its answer goes out (side `server`, as a session records the calls it
//! serves): mur's, which name their verb in `_meta`, as surface `cli`, any other
//! client's (`mur devtools proxy`'s) as `mcp`.
//!
//! A request the server never answers is not held forever: after
//! [`REQUEST_LIMIT`] its client gets a JSON-RPC error and the server is told
//! to cancel it. And no more than [`MAX_IN_FLIGHT`] requests wait for the
//! server at once — past that a request is refused at once — so hung
//! requests never hold every connection the endpoint takes (256): the probe
//! (GET) and answers to the server's questions still get through. A request
//! waiting for a server being started again is answered before its caller
//! stops waiting (`mur` says when: [`WAIT_HEADER`]), saying it was not sent.

use std::{
    convert::Infallible,
    path::{Path, PathBuf},
    sync::{Arc, RwLock},
    time::Duration,
};

use tokio::time::Instant;

use axum::{
    body::Bytes,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response, Sse, sse::Event},
    routing::{MethodRouter, post},
};
use futures_util::{Stream, StreamExt, stream};
use serde_json::{Map, Value, json};
use tokio::sync::Mutex;

use mur_client::{WAIT_HEADER, tool_result};
use mur_lockfile::jsonrpc::{self, INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR};
use mur_server::{Recorder, Served, client_label};
use mur_usage::Outcome;

use crate::capabilities::without_notifications;
use crate::child::INITIALIZE_LIMIT;
use crate::relay::{Relay, Sent, Waited};

/// How long a request waits for a server that is being restarted: half the
/// [`INITIALIZE_LIMIT`] the start itself gets, so that a client hears why its call
/// waits — a restart slower than this fails it, saying the bridge is still starting
/// the server — while the start goes on.
const RESTART_WAIT: Duration = Duration::from_secs(30);
/// How long before its caller stops waiting ([`WAIT_HEADER`]) a request held for a
/// restart is answered, for the answer to reach the caller first: a `mur` call cut
/// off by its own timeout says the request "was sent", so the tool may have run.
const ANSWER_MARGIN: Duration = Duration::from_millis(500);
/// How long the bridge waits for the server to take a new log level.
const SET_LEVEL_LIMIT: Duration = Duration::from_secs(5);
/// The longest the bridge waits for the server to answer one request, from
/// when it is sent to its answer (progress and questions included). `mur`
/// bounds its own calls (`--timeout`, 10 s by default, as long as the caller
/// likes); this is the bridge's bound for a server that never answers, so
/// generous that no call a person waits for reaches it: the bridge's own
/// default idle time, 10 minutes.
pub(crate) const REQUEST_LIMIT: Duration = Duration::from_secs(600);
/// Requests waiting for the server at most: half the connections the
/// endpoint takes (256), so that requests the server leaves hanging never
/// take them all — the probe, a client's answer to a question and any other
/// short request still get a connection (the endpoint closes the longest
/// idle one to make room).
pub(crate) const MAX_IN_FLIGHT: usize = 128;
/// The `_meta` keys of the 2026-07-28 form (protocol version, client info
/// and capabilities, log level): the bridge's, not the server's, to read.
const MODERN_META_PREFIX: &str = "io.modelcontextprotocol/";
/// The modern request's `clientInfo` (`name`, `version`), who the usage record says called.
pub(crate) const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";

/// The bridge as its HTTP handlers see it.
pub(crate) struct Bridge {
    relay: Relay,
    /// What the running server answered to `initialize` ([`as_told`]).
    initialized: RwLock<Value>,
    /// The log level last set on the server (set again after a restart).
    log_level: Mutex<Option<String>>,
    /// How long a request may wait for the server ([`REQUEST_LIMIT`]).
    request_limit: Duration,
    /// How long a request may wait for a server being restarted ([`RESTART_WAIT`]).
    restart_wait: Duration,
    /// The bridge's log, where the server's stderr is: named to a request the
    /// server was not there to take.
    log: PathBuf,
    /// One permit a request, taken before it waits for anything (a restart, the
    /// log level): [`MAX_IN_FLIGHT`] bounds every request the bridge holds.
    slots: Arc<tokio::sync::Semaphore>,
    /// Where the tool calls served are recorded; `None`: recording is off.
    usage: Option<Arc<Recorder>>,
}

impl Bridge {
    pub(crate) fn new(
        relay: Relay,
        initialized: Value,
        usage: Option<Recorder>,
        log: &Path,
    ) -> Arc<Self> {
        Arc::new(Self {
            relay,
            initialized: RwLock::new(as_told(initialized)),
            log_level: Mutex::new(None),
            request_limit: REQUEST_LIMIT,
            restart_wait: RESTART_WAIT,
            log: log.to_owned(),
            slots: Arc::new(tokio::sync::Semaphore::new(MAX_IN_FLIGHT)),
            usage: usage.map(Arc::new),
        })
    }

    /// A `tools/call` with these params starting now, when recording is on.
    fn served(&self, method: &str, params: Option<&Value>) -> Option<(Arc<Recorder>, Served)> {
        let recorder = self.usage.as_ref().filter(|_| method == "tools/call")?;
        let params = params?;
        let tool = params["name"].as_str()?;
        let meta = &params["_meta"];
        let info = &meta[CLIENT_INFO];
        let client = info["name"]
            .as_str()
            .and_then(|name| client_label(name, info["version"].as_str()));
        Some((recorder.clone(), recorder.call(tool, client, meta)))
    }

    /// A restarted server: its own `initialize` answer, no log level set yet.
    pub(crate) async fn restarted(&self, initialized: Value) {
        if let Ok(mut current) = self.initialized.write() {
            *current = as_told(initialized);
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

/// The server's `initialize` answer as the bridge tells it to its clients: its
/// capabilities less the notifications the bridge does not pass on.
fn as_told(mut initialized: Value) -> Value {
    if let Some(capabilities) = initialized.get_mut("capabilities") {
        *capabilities = without_notifications(capabilities.take());
    }
    initialized
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
            let waits = caller_waits(headers);
            request(bridge, method, id.clone(), params, waits).await
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

/// How long the caller waits for its answer, as `mur` says ([`WAIT_HEADER`]).
fn caller_waits(headers: &HeaderMap) -> Option<Duration> {
    let ms = headers.get(WAIT_HEADER)?.to_str().ok()?.parse().ok()?;
    Some(Duration::from_millis(ms))
}

/// `request`, waiting for a server being restarted at most as long as the bridge
/// lets a request wait, or less when its caller (`waits`) would be gone by then.
async fn request(
    bridge: &Arc<Bridge>,
    method: &str,
    id: Value,
    params: Option<Value>,
    waits: Option<Duration>,
) -> Response {
    // Every request counts for the idle time, whatever becomes of it: answered here,
    // refused, failed while it waited for a restart. Held until this returns; one sent
    // to the server is in flight until its answer as well.
    let _arrival = bridge.relay.arrived();
    match method {
        "initialize" => return rpc_result(id, bridge.initialized()),
        "server/discover" => return rpc_result(id, discover(&bridge.initialized())),
        _ => {}
    }
    let Ok(slot) = bridge.slots.clone().try_acquire_owned() else {
        return rpc_error(
            StatusCode::OK,
            id,
            INTERNAL_ERROR,
            &format!(
                "the stdio server has {MAX_IN_FLIGHT} requests in flight, the most the bridge holds; try again once one has ended"
            ),
        );
    };
    let deadline = Instant::now() + bridge.request_limit;
    let mut served = Unrecorded(bridge.served(method, params.as_ref()));
    let mut params = params;
    let level = take_modern_meta(&mut params);
    let caller_first = waits
        .map(|waits| waits.saturating_sub(ANSWER_MARGIN))
        .filter(|held| *held < bridge.restart_wait);
    let held = caller_first.unwrap_or(bridge.restart_wait);
    let why = match bridge.relay.writer_within(held).await {
        Waited::Attached => None,
        Waited::Failed(why) => Some(why),
        // Only a restart leaves no server attached while the endpoint serves (a bridge
        // that gave up stops serving): it is still under way, and may yet succeed.
        Waited::TimedOut => {
            let within = match caller_first {
                Some(_) => "before this call's timeout".to_owned(),
                None => format!(
                    "within {}, the longest a request waits for it",
                    humantime::format_duration(held)
                ),
            };
            let why = format!(
                "the stdio server is being started again and has not answered `initialize` \
                 {within}; the request was not sent to it, and the bridge gives the start up \
                 to {}, so try again shortly; its stderr is in `{}`",
                humantime::format_duration(INITIALIZE_LIMIT),
                bridge.log.display()
            );
            tracing::warn!("a request failed, never sent: {why}");
            Some(why)
        }
    };
    if let Some(why) = why {
        // No server took it: the bridge's side failed it, as its client is told.
        served.finish(Outcome::RpcError);
        return rpc_error(StatusCode::OK, id, INTERNAL_ERROR, &why);
    }
    if let Some(level) = level {
        set_level(bridge, &level).await;
    }
    let (message, sent) = bridge.relay.register(id.clone(), method, params, false);
    bridge.relay.send(&message);
    let watched = Watched {
        _slot: slot,
        relay: bridge.relay.clone(),
        sent,
        done: false,
        client_id: id,
        deadline,
        limit: bridge.request_limit,
        served,
    };
    respond(watched).await
}

/// The answer alone as JSON; anything before it turns the response into an
/// event stream, which ends with the answer.
async fn respond(mut watched: Watched) -> Response {
    let first = match watched.next().await {
        Next::Message(first) => first,
        Next::TimedOut(answer) => {
            watched.record(&answer);
            return (StatusCode::OK, axum::Json(answer)).into_response();
        }
        Next::Lost => {
            watched.lost();
            return rpc_error(
                StatusCode::OK,
                Value::Null,
                INTERNAL_ERROR,
                "the bridge lost the request",
            );
        }
    };
    if is_answer(&first) {
        watched.done = true;
        watched.record(&first);
        return axum::Json(first).into_response();
    }
    Sse::new(event_stream(first, watched)).into_response()
}

/// `first`, then every message of the request up to and including its
/// answer (or, past the bridge's bound, an error answer of its own).
fn event_stream(
    first: Value,
    watched: Watched,
) -> impl Stream<Item = Result<Event, Infallible>> + Send {
    let rest = stream::unfold(Some(watched), |state| async move {
        let mut watched = state?;
        let message = match watched.next().await {
            Next::Message(message) => message,
            // Dropped now, not done: the server is told to cancel.
            Next::TimedOut(answer) => {
                watched.record(&answer);
                return Some((answer, None));
            }
            Next::Lost => {
                watched.lost();
                return None;
            }
        };
        if is_answer(&message) {
            watched.done = true;
            watched.record(&message);
            return Some((message, None));
        }
        Some((message, Some(watched)))
    });
    stream::once(async move { first })
        .chain(rest)
        .map(|message| Ok(Event::default().data(message.to_string())))
}

/// A request in flight on behalf of a client: if the client goes away
/// before the answer (the response is dropped), or the bridge gives up on
/// it, the server is told.
struct Watched {
    /// The request's place among those in flight, given back when it ends.
    _slot: tokio::sync::OwnedSemaphorePermit,
    relay: Relay,
    sent: Sent,
    done: bool,
    /// The client's id of the request, for an answer of the bridge's own.
    client_id: Value,
    /// When the bridge stops waiting for the server ([`REQUEST_LIMIT`]).
    deadline: Instant,
    limit: Duration,
    /// The call's usage record to write once it ends (recording on, `tools/call`).
    served: Unrecorded,
}

/// What came next for a request.
enum Next {
    Message(Value),
    /// The server did not answer in time: the error answer for the client.
    TimedOut(Value),
    /// The request was forgotten (cannot happen while it is watched).
    Lost,
}

impl Watched {
    /// Records the call (if it is to be) as `answer`, the answer its client gets, says
    /// it ended; an input-required round is a step of a call, not one.
    fn record(&mut self, answer: &Value) {
        self.served.answered(answer);
    }

    /// The relay forgot the request (cannot happen while it is watched): nothing is
    /// left to cancel, and no answer of the server's reached its client.
    fn lost(&mut self) {
        self.done = true;
        self.served.finish(Outcome::RpcError);
    }

    async fn next(&mut self) -> Next {
        match tokio::time::timeout_at(self.deadline, self.sent.messages.recv()).await {
            Ok(Some(message)) => Next::Message(message),
            Ok(None) => Next::Lost,
            Err(_) => {
                let mut why = format!(
                    "the stdio server did not answer within {}, the longest the bridge waits; it was told to cancel the request",
                    humantime::format_duration(self.limit)
                );
                let unmatched = self.relay.unmatched_during(self.sent.id);
                if unmatched > 0 {
                    why.push_str(&format!(
                        "; meanwhile it wrote {unmatched} line(s) the bridge could not match to a \
                         request (its log has them), one of which may have been the answer"
                    ));
                }
                tracing::warn!("request {}: {why}", self.sent.id);
                Next::TimedOut(jsonrpc::error(self.client_id.clone(), INTERNAL_ERROR, &why))
            }
        }
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        // Its client went away before the answer, or the bridge gave up on it: the
        // server is told to cancel. Its record, if still unwritten, goes with `served`.
        if !self.done {
            self.relay.abandon(self.sent.id);
        }
    }
}

/// A `tools/call`'s usage record until it is written (recording on): as the answer its
/// client gets says it ended ([`Unrecorded::answered`]), or as the bridge failed it
/// ([`Unrecorded::finish`]); else, once dropped, as its client stopped it (`Drop`).
struct Unrecorded(Option<(Arc<Recorder>, Served)>);

impl Unrecorded {
    /// Records the call as ended with `outcome`, unless it was recorded already.
    fn finish(&mut self, outcome: Outcome) {
        if let Some((recorder, served)) = self.0.take() {
            recorder.finish(served, outcome);
        }
    }

    /// Records the call as `answer`, the answer its client gets, says it ended; an
    /// input-required round is a step of a call, not one: it is never recorded.
    fn answered(&mut self, answer: &Value) {
        if let Some((recorder, served)) = self.0.take()
            && let Some(outcome) = answer_outcome(answer, served.tool())
        {
            recorder.finish(served, outcome);
        }
    }
}

impl Drop for Unrecorded {
    /// Neither answered nor failed by the bridge: the request was dropped, its client
    /// gone before an answer — its `--timeout`, Ctrl-C, a proxy whose client cancelled
    /// the call (each drops the HTTP request). The client stopped the call: `interrupted`,
    /// as a session records a request its client dropped and a proxy a call its client
    /// cancelled (it was `rpc-error`, a failure no one had). What the bridge's side cut
    /// short — no server to send it to, the bridge stopped (`bridge stop`, its signal:
    /// the server's side, not the caller's), its [`REQUEST_LIMIT`] — is answered with an
    /// error and recorded `rpc-error` there, as the client's own record of it says.
    fn drop(&mut self) {
        self.finish(Outcome::Interrupted);
    }
}

/// How a call of `tool` ended, by its JSON-RPC answer as a client reads it: a
/// JSON-RPC error, or a tool the server says it does not have (as mur's own record
/// of it says: no tool ran, so no verb is owed its name), is `rpc-error`; the
/// tool's own failure (`isError`) `tool-error`; else `ok`. `None` for an
/// input-required round (`resultType: "input_required"`), one step of a call and
/// not a call.
pub(crate) fn answer_outcome(answer: &Value, tool: &str) -> Option<Outcome> {
    if answer.get("error").is_some() {
        return Some(Outcome::RpcError);
    }
    let result = &answer["result"];
    if result["resultType"] == "input_required" {
        return None;
    }
    if !tool_result::is_error(result) {
        return Some(Outcome::Ok);
    }
    let missing = tool_result::says_missing(&tool_result::result_text(result), tool);
    Some(if missing {
        Outcome::RpcError
    } else {
        Outcome::ToolError
    })
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
    axum::Json(jsonrpc::result(id, result)).into_response()
}

fn rpc_error(status: StatusCode, id: Value, code: i64, message: &str) -> Response {
    (status, axum::Json(jsonrpc::error(id, code, message))).into_response()
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

    /// A bridge on `relay` whose server's `initialize` told no capabilities, recording
    /// its calls with `usage`, the server's stderr in `log`.
    fn bridge_of(relay: &Relay, usage: Option<Recorder>, log: &str) -> Arc<Bridge> {
        Bridge::new(
            relay.clone(),
            json!({ "capabilities": {} }),
            usage,
            Path::new(log),
        )
    }

    /// A bridge whose server takes requests and answers none, waiting `limit`
    /// for each; and what the server was sent.
    fn unanswering(limit: Duration) -> (Arc<Bridge>, tokio::sync::mpsc::UnboundedReceiver<String>) {
        let relay = Relay::new();
        let (to_server, server) = tokio::sync::mpsc::unbounded_channel();
        relay.attach(Some(to_server));
        let mut bridge = bridge_of(&relay, None, "b.log");
        Arc::get_mut(&mut bridge).expect("one owner").request_limit = limit;
        (bridge, server)
    }

    async fn body_of(response: Response) -> String {
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a body");
        String::from_utf8(bytes.to_vec()).expect("utf-8")
    }

    fn sent(server: &mut tokio::sync::mpsc::UnboundedReceiver<String>) -> Vec<Value> {
        std::iter::from_fn(|| server.try_recv().ok())
            .map(|line| serde_json::from_str(&line).expect("json"))
            .collect()
    }

    #[tokio::test]
    async fn a_request_the_server_never_answers_ends_with_an_error_and_a_cancel() {
        let (bridge, mut server) = unanswering(Duration::from_millis(50));
        let response = request(&bridge, "tools/call", json!(7), None, None).await;
        let answer: Value = serde_json::from_str(&body_of(response).await).expect("json");
        assert_eq!(answer["id"], 7);
        assert_eq!(
            answer["error"]["message"],
            "the stdio server did not answer within 50ms, the longest the bridge waits; it was told to cancel the request"
        );
        let sent = sent(&mut server);
        assert_eq!(sent[0]["method"], "tools/call");
        assert_eq!(sent[1]["method"], "notifications/cancelled");
        assert_eq!(sent[1]["params"]["requestId"], sent[0]["id"]);
        assert_eq!(bridge.relay.in_flight(), 0);

        // Once it streams (a log message came first), the stream ends with the error.
        // A bridge of its own, whose limit leaves the message ample time to come first.
        let (bridge, _server) = unanswering(Duration::from_secs(2));
        let pending = tokio::spawn({
            let bridge = bridge.clone();
            async move { body_of(request(&bridge, "tools/call", json!(8), None, None).await).await }
        });
        while bridge.relay.in_flight() == 0 {
            tokio::task::yield_now().await;
        }
        bridge.relay.route(
            json!({ "jsonrpc": "2.0", "method": "notifications/message", "params": { "level": "info", "data": "x" } }),
            10,
        );
        let body = pending.await.expect("the request");
        let last = body
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .next_back();
        let last: Value = serde_json::from_str(last.expect("events")).expect("json");
        assert_eq!(
            (last["id"].clone(), last["error"]["code"].clone()),
            (json!(8), json!(INTERNAL_ERROR))
        );
    }

    /// A call that came while the server was being started again, and the start took
    /// longer than the call waits for it: its client is told so — that the start goes
    /// on, how long it may take, and where the server's stderr is. It was told "the
    /// stdio server is not running (it is being restarted, or gave up)", though a bridge
    /// that gave up serves no request, and nothing of the start still under way.
    ///
    /// A caller that says it waits less than that ([`WAIT_HEADER`], as `mur` does) is
    /// answered so [`ANSWER_MARGIN`] before it would stop waiting: cut off by its own
    /// timeout, `mur` said the request "was sent, so the tool may have run".
    #[tokio::test]
    async fn a_call_that_outwaits_a_slow_restart_is_told_the_restart_goes_on() {
        // No server attached: one is being started again, and none will be here.
        let mut bridge = bridge_of(&Relay::new(), None, "/run/b.bridge.log");
        Arc::get_mut(&mut bridge).expect("one owner").restart_wait = Duration::from_millis(50);
        let said = |within: &str| {
            format!(
                "the stdio server is being started again and has not answered `initialize` \
                 {within}; the request was not sent to it, and the bridge gives the start up \
                 to 1m, so try again shortly; its stderr is in `/run/b.bridge.log`"
            )
        };
        let longest = said("within 50ms, the longest a request waits for it");
        for (waits, message) in [
            (None, &longest),
            // Past the bridge's own bound: that bound.
            (Some(ANSWER_MARGIN + Duration::from_millis(50)), &longest),
            (
                Some(ANSWER_MARGIN + Duration::from_millis(20)),
                &said("before this call's timeout"),
            ),
        ] {
            let response = request(&bridge, "tools/call", json!(3), None, waits).await;
            let answer: Value = serde_json::from_str(&body_of(response).await).expect("json");
            assert_eq!(
                answer,
                json!({ "jsonrpc": "2.0", "id": 3, "error": { "code": INTERNAL_ERROR, "message": message } }),
                "{waits:?}"
            );
        }
    }

    /// Every request that reaches the bridge counts for its idle time: one waiting for
    /// a restart is in flight while it waits, and one that fails (the restart failed)
    /// or that the bridge answers itself (`initialize`) is activity. Such requests, never
    /// sent to the server, counted for nothing: a bridge whose server did not come back
    /// stopped after `--idle` saying "no request for 10m" while calls kept arriving.
    #[tokio::test]
    async fn every_request_counts_for_the_idle_time_sent_to_the_server_or_not() {
        // No server attached: one is being started again.
        let relay = Relay::new();
        let bridge = bridge_of(&relay, None, "b.log");
        assert_eq!(relay.activity(), (false, None));
        let answered = request(&bridge, "initialize", json!(1), None, None).await;
        assert_eq!(answered.status(), StatusCode::OK);
        let (busy, after_initialize) = relay.activity();
        assert!(!busy, "nothing in flight");
        let after_initialize =
            after_initialize.expect("`initialize`, answered by the bridge, counts");
        let waiting = request(&bridge, "tools/call", json!(2), None, None);
        tokio::pin!(waiting);
        assert!(futures_util::poll!(&mut waiting).is_pending());
        assert!(
            relay.activity().0,
            "a request waiting for a restart is in flight"
        );
        relay.start_failed("the stdio server exited (exit status: 3)");
        let answer: Value = serde_json::from_str(&body_of(waiting.await).await).expect("json");
        assert_eq!(
            answer["error"]["message"],
            "the stdio server exited (exit status: 3)"
        );
        let (busy, last) = relay.activity();
        assert!(!busy, "nothing in flight once it failed");
        assert!(
            last.is_some_and(|last| last >= after_initialize),
            "the failed request counts from its end"
        );
    }

    /// A bridge recording its calls to `served.jsonl` in `dir`, with no server attached
    /// (one is being started again); its relay, and the log.
    fn recording(dir: &Path) -> (Arc<Bridge>, Relay, PathBuf) {
        let log = dir.join("served.jsonl");
        let logging = mur_server::UsageLogging::At(log.clone());
        let recorder = Recorder::new(&logging, &dir.join("0123.json"), "tag");
        let relay = Relay::new();
        let bridge = bridge_of(&relay, recorder, "b.log");
        (bridge, relay, log)
    }

    /// A call that came while the server was restarting, and the restart failed: its
    /// client gets an error, and the bridge's usage log records it (it was dropped).
    #[tokio::test]
    async fn a_call_the_server_was_not_there_to_take_is_recorded_rpc_error() {
        let dir = tempfile::tempdir().expect("a directory");
        let (bridge, relay, log) = recording(dir.path());
        let params = json!({ "name": "echo", "arguments": {} });
        let pending = tokio::spawn({
            let bridge = bridge.clone();
            async move {
                body_of(request(&bridge, "tools/call", json!(1), Some(params), None).await).await
            }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        relay.start_failed("the stdio server exited (exit status: 3)");
        let answer: Value = serde_json::from_str(&pending.await.expect("answered")).expect("json");
        assert_eq!(
            answer["error"]["message"],
            "the stdio server exited (exit status: 3)"
        );
        let records = mur_testkit::usage_records(&log);
        assert_eq!(
            mur_testkit::fields(&records, ["tool", "outcome"]),
            [["echo", "rpc-error"]]
        );
    }

    /// A call whose client went away before its answer — `mur`'s `--timeout` or Ctrl-C,
    /// a proxy whose client cancelled it: each drops the HTTP request — is recorded
    /// `interrupted`, as a session and a proxy record a call their client stopped, not
    /// `rpc-error`, a failure of the server's: sent to the server (which is told to
    /// cancel it) or still waiting for one being started again.
    #[tokio::test]
    async fn a_call_its_client_gave_up_is_recorded_interrupted() {
        let dir = tempfile::tempdir().expect("a directory");
        let (bridge, relay, log) = recording(dir.path());
        let call = |name: &str| {
            let (bridge, params) = (bridge.clone(), json!({ "name": name, "arguments": {} }));
            tokio::spawn(async move {
                request(&bridge, "tools/call", json!(1), Some(params), None).await
            })
        };
        let waiting = call("waiting");
        while !relay.activity().0 {
            tokio::task::yield_now().await;
        }
        waiting.abort();
        assert!(waiting.await.is_err(), "given up by its client");
        let (to_server, mut server) = tokio::sync::mpsc::unbounded_channel();
        relay.attach(Some(to_server));
        let sent = call("sent");
        server.recv().await.expect("the call");
        sent.abort();
        assert!(sent.await.is_err(), "given up by its client");
        let cancel: Value =
            serde_json::from_str(&server.recv().await.expect("a cancel")).expect("json");
        assert_eq!(cancel["method"], "notifications/cancelled");
        let records = mur_testkit::usage_records(&log);
        assert_eq!(
            mur_testkit::fields(&records, ["tool", "outcome"]),
            [["waiting", "interrupted"], ["sent", "interrupted"]]
        );
    }

    /// A name a client sent is recorded as sent when its server answered the call as its
    /// tool's (a result, or the tool's own failure: the bridge keeps no tool list of its
    /// server's, so the answer says which) or when it is shaped like a name; else as
    /// `WORD`, the verb's name in `_meta` alike: `{"password":"hunter2"}` sent as a tool's
    /// name, or as a verb's, is never recorded (it was, cut to 200 characters).
    #[tokio::test]
    async fn a_value_sent_as_a_name_is_recorded_as_word() {
        let dir = tempfile::tempdir().expect("a directory");
        let (bridge, relay, log) = recording(dir.path());
        let (to_server, mut server) = tokio::sync::mpsc::unbounded_channel();
        relay.attach(Some(to_server));
        let password = r#"{"password":"hunter2"}"#;
        let verb = |name: &str| json!({ "dev.mur/verb": { "name": name, "kind": "derived" } });
        let text = |text: &str, failed: bool| json!({ "result": { "content": [{ "type": "text", "text": text }], "isError": failed } });
        let unknown = json!({ "error": { "code": -32602, "message": "Unknown tool" } });
        let calls = [
            (password, json!({}), unknown.clone()),
            ("fs.read_v2", json!({}), unknown),
            (
                "fs.read_v2",
                json!({}),
                text("MCP error -32602: Tool fs.read_v2 not found", true),
            ),
            ("fs.read_v2", json!({}), text("read", false)),
            ("fs.write_v2", json!({}), text("the disk is full", true)),
            ("get-text", json!({}), text("Tool get-text not found", true)),
            ("greet", verb(password), text("hi", false)),
            ("2faCheck", verb("2fa-check"), text("checked", false)),
        ];
        for (id, (name, meta, answer)) in calls.into_iter().enumerate() {
            let params = json!({ "name": name, "arguments": {}, "_meta": meta });
            let pending = tokio::spawn({
                let bridge = bridge.clone();
                async move { request(&bridge, "tools/call", json!(id), Some(params), None).await }
            });
            let sent: Value =
                serde_json::from_str(&server.recv().await.expect("the call")).expect("json");
            let mut answer = answer;
            answer["id"] = sent["id"].clone();
            relay.route(answer, 0);
            pending.await.expect("answered");
        }
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        assert!(!text.contains("hunter2"), "{text}");
        let records = mur_testkit::usage_records(&log);
        assert_eq!(
            mur_testkit::fields(&records, ["tool", "verb", "outcome"]),
            [
                ["WORD", "null", "rpc-error"],
                ["WORD", "null", "rpc-error"],
                ["WORD", "null", "rpc-error"],
                ["fs.read_v2", "null", "ok"],
                ["fs.write_v2", "null", "tool-error"],
                ["get-text", "null", "rpc-error"],
                ["greet", "WORD", "ok"],
                ["2faCheck", "2fa-check", "ok"],
            ]
        );
    }

    #[tokio::test]
    async fn past_the_cap_on_requests_in_flight_a_request_is_refused_at_once() {
        let (bridge, _server) = unanswering(REQUEST_LIMIT);
        // Every place taken (by requests still waiting for a restarting server, say).
        let held = bridge
            .slots
            .clone()
            .try_acquire_many_owned(MAX_IN_FLIGHT as u32)
            .expect("the places");
        let response = request(&bridge, "tools/call", json!("one more"), None, None).await;
        let answer: Value = serde_json::from_str(&body_of(response).await).expect("json");
        assert_eq!(answer["id"], "one more");
        assert_eq!(
            answer["error"]["message"],
            "the stdio server has 128 requests in flight, the most the bridge holds; try again once one has ended"
        );
        drop(held);
    }

    #[test]
    fn an_answer_says_how_the_call_ended_and_an_input_round_is_no_call() {
        let outcome = |answer: Value| answer_outcome(&answer, "echo");
        let text = |text: &str, failed: bool| json!({ "result": { "content": [{ "type": "text", "text": text }], "isError": failed } });
        assert_eq!(outcome(text("hi", false)), Some(Outcome::Ok));
        assert_eq!(
            outcome(text("the message is empty", true)),
            Some(Outcome::ToolError)
        );
        // A tool it does not have, in the TypeScript SDK's words: no tool ran.
        assert_eq!(
            outcome(text("MCP error -32602: Tool echo not found", true)),
            Some(Outcome::RpcError)
        );
        // A tool that ran and failed, its own "not found" naming a file: its failure.
        assert_eq!(
            answer_outcome(&text("File not found: readme.md", true), "read"),
            Some(Outcome::ToolError)
        );
        assert_eq!(
            outcome(json!({ "error": { "code": -32602, "message": "no" } })),
            Some(Outcome::RpcError)
        );
        assert_eq!(
            outcome(json!({ "result": { "resultType": "input_required" } })),
            None
        );
        // A task created: the call was taken; its end is not the bridge's to see.
        assert_eq!(
            outcome(json!({ "result": { "task": { "taskId": "t1", "status": "working" } } })),
            Some(Outcome::Ok)
        );
    }
}
