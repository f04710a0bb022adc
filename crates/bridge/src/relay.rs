//! Who is waiting for what: the bridge's requests in flight to the stdio
//! server, the server's questions in flight to HTTP clients, and the routing
//! of everything the server writes between them.
//!
//! Every request sent to the server gets an id of the bridge's own (clients'
//! ids collide: every `mur` call is id 1) and, when it carries a progress
//! token, a token of the bridge's own (every `mur` call's token is `mur`);
//! the server's answers and progress are mapped back before they go out. A
//! request the server sends (a question) goes to the stream of the oldest
//! client request in flight — the server does not say which request it is
//! for, and on a bridge that one is almost always the only one — under an id
//! of the bridge's own, mapped back when the client answers.

use std::{
    collections::{BTreeMap, HashMap},
    sync::{Arc, Mutex, MutexGuard},
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

use crate::log::clipped;

/// JSON-RPC "method not found".
pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC "internal error": the server went away mid-request.
pub(crate) const INTERNAL_ERROR: i64 = -32603;

/// Lines to the running server's stdin; `None` while there is no server.
pub(crate) type Writer = mpsc::UnboundedSender<String>;

/// One request the server has not answered yet.
struct Pending {
    /// The id the client gave it (sent back with the answer).
    client_id: Value,
    /// The client's progress token, sent back in its progress notifications.
    progress_token: Option<Value>,
    /// Where its messages go: notifications and questions, then the answer.
    stream: mpsc::UnboundedSender<Value>,
    /// A request of the bridge itself (`initialize`), not of a client.
    internal: bool,
}

/// A question of the server, relayed to a client.
struct Asked {
    /// The id the server gave it.
    server_id: Value,
    /// The request in whose stream it was asked.
    during: u64,
}

#[derive(Default)]
struct State {
    next: u64,
    /// Keyed by the bridge's id, so the first is the oldest.
    pending: BTreeMap<u64, Pending>,
    asked: HashMap<String, Asked>,
    last_activity: Option<Instant>,
}

/// The routing table, shared by the HTTP handlers and the server's reader.
#[derive(Clone)]
pub(crate) struct Relay {
    state: Arc<Mutex<State>>,
    writer: watch::Sender<Option<Writer>>,
}

/// A request on its way: its bridge id, and the messages for its client.
pub(crate) struct Sent {
    pub(crate) id: u64,
    pub(crate) messages: mpsc::UnboundedReceiver<Value>,
}

impl Relay {
    pub(crate) fn new() -> Self {
        Self {
            state: Arc::default(),
            writer: watch::Sender::new(None),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves plain maps behind: keep going.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The server now reading `writer` (or none, while it restarts).
    pub(crate) fn attach(&self, writer: Option<Writer>) {
        self.writer.send_replace(writer);
    }

    /// The attached server's writer, waiting up to `limit` for one (a
    /// server being restarted).
    pub(crate) async fn writer_within(&self, limit: Duration) -> Option<Writer> {
        let mut watching = self.writer.subscribe();
        let attached = tokio::time::timeout(limit, watching.wait_for(Option::is_some));
        attached.await.ok()?.ok()?.clone()
    }

    /// Writes one message to the server, if one is attached.
    fn write(&self, message: &Value) {
        if let Some(writer) = self.writer.borrow().as_ref() {
            let _ = writer.send(message.to_string());
        }
    }

    /// Something happened on the client side: the idle clock starts again.
    pub(crate) fn touch(&self) {
        self.state().last_activity = Some(Instant::now());
    }

    /// Whether a client request is in flight, and when the last activity was.
    pub(crate) fn activity(&self) -> (bool, Option<Instant>) {
        let state = self.state();
        let busy = state.pending.values().any(|p| !p.internal);
        (busy, state.last_activity)
    }

    /// Registers `method` and returns the request to write (with the
    /// bridge's id and progress token) and where its messages will arrive.
    pub(crate) fn register(
        &self,
        client_id: Value,
        method: &str,
        mut params: Option<Value>,
        internal: bool,
    ) -> (Value, Sent) {
        let (stream, messages) = mpsc::unbounded_channel();
        let mut state = self.state();
        state.next += 1;
        let id = state.next;
        let progress_token = params
            .as_mut()
            .and_then(|p| p.get_mut("_meta"))
            .and_then(|meta| meta.get_mut("progressToken"))
            .map(|token| std::mem::replace(token, json!(format!("bridge-{id}"))));
        state.pending.insert(
            id,
            Pending {
                client_id,
                progress_token,
                stream,
                internal,
            },
        );
        if !internal {
            state.last_activity = Some(Instant::now());
        }
        let mut request = json!({ "jsonrpc": "2.0", "id": id, "method": method });
        if let Some(params) = params {
            request["params"] = params;
        }
        (request, Sent { id, messages })
    }

    /// Sends a registered request to the server.
    pub(crate) fn send(&self, request: &Value) {
        self.write(request);
    }

    /// The client went away before the answer: forget the request and tell
    /// the server, which may stop working on it.
    pub(crate) fn abandon(&self, id: u64) {
        let unanswered: Vec<Value> = {
            let mut state = self.state();
            let keys: Vec<String> = state
                .asked
                .iter()
                .filter(|(_, asked)| asked.during == id)
                .map(|(key, _)| key.clone())
                .collect();
            keys.iter()
                .filter_map(|key| state.asked.remove(key))
                .map(|asked| asked.server_id)
                .collect()
        };
        for server_id in unanswered {
            // Nobody is left to answer: the server hears so now, not at its own timeout.
            self.write(&json!({
                "jsonrpc": "2.0", "id": server_id,
                "error": { "code": INTERNAL_ERROR, "message": "the client went away before it answered" },
            }));
        }
        if self.state().pending.remove(&id).is_some() {
            tracing::debug!("request {id} abandoned by its client; cancelling it");
            self.write(&json!({
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": { "requestId": id, "reason": "the client went away" },
            }));
        }
        self.touch();
    }

    /// A `notifications/cancelled` from a client, for the server under our id.
    pub(crate) fn cancel(&self, client_id: &Value, reason: Option<&Value>) {
        let id = {
            let state = self.state();
            state
                .pending
                .iter()
                .find(|(_, p)| !p.internal && p.client_id == *client_id)
                .map(|(id, _)| *id)
        };
        if let Some(id) = id {
            let mut params = json!({ "requestId": id });
            if let Some(reason) = reason {
                params["reason"] = reason.clone();
            }
            self.write(
                &json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": params }),
            );
        }
    }

    /// A client's answer to a relayed question, for the server under its id.
    /// `false` when no such question is open.
    pub(crate) fn answer(&self, mut message: Value) -> bool {
        let key = id_key(&message["id"]);
        let Some(asked) = self.state().asked.remove(&key) else {
            return false;
        };
        message["id"] = asked.server_id;
        self.write(&message);
        self.touch();
        true
    }

    /// Routes one message the server wrote to whoever waits for it.
    pub(crate) fn route(&self, message: Value) {
        let method = message.get("method").and_then(Value::as_str);
        match (method, message.get("id")) {
            (None, Some(_)) => self.server_answered(message),
            (Some(method), Some(id)) => {
                let (method, id) = (method.to_owned(), id.clone());
                self.server_asks(&method, id, message);
            }
            (Some(method), None) => {
                let method = method.to_owned();
                self.server_notifies(&method, message);
            }
            (None, None) => tracing::warn!(
                "the server wrote a message that is no JSON-RPC: {}",
                clipped(&message.to_string())
            ),
        }
    }

    fn server_answered(&self, mut message: Value) {
        let Some(id) = message["id"].as_u64() else {
            tracing::warn!(
                "the server answered a request the bridge never sent: {}",
                clipped(&message.to_string())
            );
            return;
        };
        let pending = {
            let mut state = self.state();
            let Some(pending) = state.pending.remove(&id) else {
                return; // abandoned by its client meanwhile
            };
            if !pending.internal {
                // The idle time counts from the end of the last request.
                state.last_activity = Some(Instant::now());
            }
            pending
        };
        message["id"] = pending.client_id;
        let _ = pending.stream.send(message);
    }

    fn server_asks(&self, method: &str, server_id: Value, mut message: Value) {
        if method == "ping" {
            self.write(&json!({ "jsonrpc": "2.0", "id": server_id, "result": {} }));
            return;
        }
        let mut state = self.state();
        state.next += 1;
        let key = format!("bridge-q{}", state.next);
        let target = state
            .pending
            .iter()
            .find(|(_, p)| !p.internal)
            .map(|(id, p)| (*id, p.stream.clone()));
        let Some((during, stream)) = target else {
            drop(state);
            tracing::info!(
                "the server asked `{method}` with no client request in flight: declined"
            );
            self.write(&json!({
                "jsonrpc": "2.0", "id": server_id,
                "error": { "code": METHOD_NOT_FOUND, "message": format!("no client is waiting to answer `{method}`") },
            }));
            return;
        };
        state.asked.insert(key.clone(), Asked { server_id, during });
        drop(state);
        message["id"] = json!(key);
        if stream.send(message).is_err() {
            // Its client is going: the question goes unanswered at once.
            self.abandon(during);
        }
    }

    fn server_notifies(&self, method: &str, mut message: Value) {
        let state = self.state();
        let target = if method == "notifications/progress" {
            let token = &message["params"]["progressToken"];
            let id = token
                .as_str()
                .and_then(|t| t.strip_prefix("bridge-"))
                .and_then(|n| n.parse::<u64>().ok());
            id.and_then(|id| state.pending.get(&id)).map(|p| {
                let original = p.progress_token.clone().unwrap_or(Value::Null);
                (p.stream.clone(), Some(original))
            })
        } else {
            state
                .pending
                .values()
                .find(|p| !p.internal)
                .map(|p| (p.stream.clone(), None))
        };
        drop(state);
        match target {
            Some((stream, token)) => {
                if let Some(token) = token {
                    message["params"]["progressToken"] = token;
                }
                let _ = stream.send(message);
            }
            None if method == "notifications/message" => {
                tracing::info!("server log: {}", clipped(&message["params"].to_string()));
            }
            None => tracing::debug!("no client for the server's `{method}`"),
        }
    }

    /// The server is gone: every request in flight is answered with an error.
    pub(crate) fn fail_all(&self, why: &str) {
        let pending = std::mem::take(&mut self.state().pending);
        self.state().asked.clear();
        for (_, p) in pending {
            let _ = p.stream.send(json!({
                "jsonrpc": "2.0", "id": p.client_id,
                "error": { "code": INTERNAL_ERROR, "message": why },
            }));
        }
    }
}

/// A JSON-RPC id as a map key (ids are strings or numbers).
fn id_key(id: &Value) -> String {
    match id {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_progress_go_back_under_the_clients_own_id_and_token() {
        let relay = Relay::new();
        let params = json!({ "name": "echo", "_meta": { "progressToken": "mur" } });
        let (request, mut sent) = relay.register(json!(1), "tools/call", Some(params), false);
        assert_eq!(
            request["params"]["_meta"]["progressToken"],
            format!("bridge-{}", sent.id)
        );
        relay.route(json!({
            "jsonrpc": "2.0", "method": "notifications/progress",
            "params": { "progressToken": format!("bridge-{}", sent.id), "progress": 1 },
        }));
        relay.route(json!({ "jsonrpc": "2.0", "id": sent.id, "result": {} }));
        let progress = sent.messages.try_recv().expect("progress");
        assert_eq!(progress["params"]["progressToken"], "mur");
        let answer = sent.messages.try_recv().expect("answer");
        assert_eq!(answer["id"], 1);
        assert!(!relay.activity().0, "nothing in flight");
    }

    #[test]
    fn a_question_goes_to_the_oldest_client_request_and_its_answer_back() {
        let relay = Relay::new();
        let (to_server, mut server) = mpsc::unbounded_channel();
        relay.attach(Some(to_server));
        let (_, mut first) = relay.register(json!(1), "tools/call", None, false);
        let (_, _second) = relay.register(json!(1), "tools/call", None, false);
        relay.route(
            json!({ "jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": {} }),
        );
        let question = first.messages.try_recv().expect("question");
        assert!(
            question["id"]
                .as_str()
                .is_some_and(|id| id.starts_with("bridge-q"))
        );
        assert!(relay.answer(
            json!({ "jsonrpc": "2.0", "id": question["id"], "result": { "action": "decline" } })
        ));
        let written: Value =
            serde_json::from_str(&server.try_recv().expect("answer")).expect("json");
        assert_eq!(written["id"], 7);
    }

    #[test]
    fn a_question_with_no_client_waiting_is_declined() {
        let relay = Relay::new();
        let (to_server, mut server) = mpsc::unbounded_channel();
        relay.attach(Some(to_server));
        relay.route(json!({ "jsonrpc": "2.0", "id": 3, "method": "roots/list" }));
        let written: Value =
            serde_json::from_str(&server.try_recv().expect("error")).expect("json");
        assert_eq!(written["error"]["code"], METHOD_NOT_FOUND);
    }
}
