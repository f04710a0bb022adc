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
//! of the bridge's own, mapped back when the client answers. That id is
//! unguessable (128 random bits): the bridge cannot tell its HTTP clients
//! apart (it hands out no sessions, and a client answers on a request of
//! its own), so knowing the id is what makes an answer the asked client's.
//! For the same reason a client's `notifications/cancelled` is not passed
//! on — it names the client's id, which every `mur` call shares, and could
//! cancel another client's request; a request is cancelled when its client
//! closes the response instead ([`Relay::abandon`]).
//!
//! What waits for a client to read it is bounded per request
//! ([`QUEUED_BYTES`], [`QUEUED_MESSAGES`]): a client that stops reading its
//! stream while the server goes on sending would otherwise grow the bridge
//! without end. Past the bound the server's notifications for that request
//! are dropped (and the drop logged) — progress and log messages are worth
//! less than the answer, which always goes, so a client that is merely slow
//! still gets its result; a question past the bound is refused to the server
//! at once, as one nobody is left to answer.

use std::{
    collections::{BTreeMap, HashMap},
    sync::{
        Arc, Mutex, MutexGuard,
        atomic::{AtomicUsize, Ordering},
    },
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

/// The most bytes of the server's messages (as it wrote them) that wait for
/// one request's client to read them. A client reading its stream keeps this
/// near zero; 4 MiB is thousands of progress and log messages behind.
pub(crate) const QUEUED_BYTES: usize = 4 << 20;
/// The most messages that wait for one request's client: small messages cost
/// more held than written.
pub(crate) const QUEUED_MESSAGES: usize = 1_000;

/// What waits for a request's client: bytes and messages, and how many
/// notifications were dropped.
#[derive(Default)]
struct Queued {
    bytes: AtomicUsize,
    messages: AtomicUsize,
    dropped: AtomicUsize,
}

/// Where a request's messages go, bounded by what its client has not read.
#[derive(Clone)]
struct Outbox {
    /// The bridge's id of the request (for the log).
    id: u64,
    tx: mpsc::UnboundedSender<(Value, usize)>,
    queued: Arc<Queued>,
}

/// What [`Outbox::offer`] did with a message.
#[derive(Debug, PartialEq, Eq)]
enum Offered {
    Queued,
    /// Over the bound: dropped.
    Dropped,
    /// The client is gone.
    Gone,
}

impl Outbox {
    /// A notification or question of `bytes`: queued while the client's
    /// backlog is within bounds, else dropped.
    fn offer(&self, message: Value, bytes: usize) -> Offered {
        let q = &self.queued;
        // A message goes to a client that has read all before it, however large
        // (the server's messages are bounded when read): the bounds are on a backlog.
        let waiting = q.messages.load(Ordering::SeqCst);
        if waiting > 0
            && (q.bytes.load(Ordering::SeqCst) + bytes > QUEUED_BYTES || waiting >= QUEUED_MESSAGES)
        {
            if q.dropped.fetch_add(1, Ordering::SeqCst) == 0 {
                tracing::warn!(
                    "request {}: its client has not read {} message(s) of the server; \
                     the server's notifications for it are dropped until it reads (its answer will still go)",
                    self.id,
                    q.messages.load(Ordering::SeqCst)
                );
            }
            return Offered::Dropped;
        }
        if self.deliver(message, bytes) {
            Offered::Queued
        } else {
            Offered::Gone
        }
    }

    /// A message that always goes (the answer); `false` when the client is gone.
    fn deliver(&self, message: Value, bytes: usize) -> bool {
        self.queued.bytes.fetch_add(bytes, Ordering::SeqCst);
        self.queued.messages.fetch_add(1, Ordering::SeqCst);
        self.tx.send((message, bytes)).is_ok()
    }

    /// The answer: logs how many notifications were dropped, if any.
    fn answer(&self, message: Value) {
        let dropped = self.queued.dropped.load(Ordering::SeqCst);
        if dropped > 0 {
            tracing::warn!(
                "request {}: {dropped} notification(s) of the server were dropped, its client not reading them",
                self.id
            );
        }
        let _ = self.deliver(message, 0);
    }
}

/// The messages for a request's client, read in order.
pub(crate) struct Inbox {
    rx: mpsc::UnboundedReceiver<(Value, usize)>,
    queued: Arc<Queued>,
}

impl Inbox {
    /// The next message; `None` once the request is forgotten.
    pub(crate) async fn recv(&mut self) -> Option<Value> {
        let (message, bytes) = self.rx.recv().await?;
        Some(self.taken(message, bytes))
    }

    #[cfg(test)]
    fn try_recv(&mut self) -> Option<Value> {
        let (message, bytes) = self.rx.try_recv().ok()?;
        Some(self.taken(message, bytes))
    }

    fn taken(&self, message: Value, bytes: usize) -> Value {
        self.queued.bytes.fetch_sub(bytes, Ordering::SeqCst);
        self.queued.messages.fetch_sub(1, Ordering::SeqCst);
        message
    }
}

/// One request the server has not answered yet.
struct Pending {
    /// The id the client gave it (sent back with the answer).
    client_id: Value,
    /// The client's progress token, sent back in its progress notifications.
    progress_token: Option<Value>,
    /// Where its messages go: notifications and questions, then the answer.
    stream: Outbox,
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
    pub(crate) messages: Inbox,
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

    /// How many client requests are in flight (the tests' view; the bridge
    /// bounds them with its own permits, taken before a request waits).
    #[cfg(test)]
    pub(crate) fn in_flight(&self) -> usize {
        self.state()
            .pending
            .values()
            .filter(|p| !p.internal)
            .count()
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
        let (tx, rx) = mpsc::unbounded_channel();
        let queued = Arc::<Queued>::default();
        let messages = Inbox {
            rx,
            queued: queued.clone(),
        };
        let mut state = self.state();
        state.next += 1;
        let id = state.next;
        let stream = Outbox { id, tx, queued };
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

    /// Routes one message the server wrote (`bytes` long) to whoever waits for it.
    pub(crate) fn route(&self, message: Value, bytes: usize) {
        let method = message.get("method").and_then(Value::as_str);
        match (method, message.get("id")) {
            (None, Some(_)) => self.server_answered(message),
            (Some(method), Some(id)) => {
                let (method, id) = (method.to_owned(), id.clone());
                self.server_asks(&method, id, message, bytes);
            }
            (Some(method), None) => {
                let method = method.to_owned();
                self.server_notifies(&method, message, bytes);
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
        pending.stream.answer(message);
    }

    fn server_asks(&self, method: &str, server_id: Value, mut message: Value, bytes: usize) {
        if method == "ping" {
            self.write(&json!({ "jsonrpc": "2.0", "id": server_id, "result": {} }));
            return;
        }
        let mut state = self.state();
        let key = format!("bridge-q{}", unguessable());
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
        state.asked.insert(
            key.clone(),
            Asked {
                server_id: server_id.clone(),
                during,
            },
        );
        drop(state);
        message["id"] = json!(key);
        match stream.offer(message, bytes) {
            Offered::Queued => {}
            // Its client is going: the question goes unanswered at once.
            Offered::Gone => self.abandon(during),
            // Its client does not read: it would not see the question.
            Offered::Dropped => {
                self.state().asked.remove(&key);
                self.write(&json!({
                    "jsonrpc": "2.0", "id": server_id,
                    "error": { "code": INTERNAL_ERROR, "message": "the client is not reading what it was sent" },
                }));
            }
        }
    }

    fn server_notifies(&self, method: &str, mut message: Value, bytes: usize) {
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
                let _ = stream.offer(message, bytes);
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
            p.stream.answer(json!({
                "jsonrpc": "2.0", "id": p.client_id,
                "error": { "code": INTERNAL_ERROR, "message": why },
            }));
        }
    }
}

/// 128 random bits in hex: the kernel's, else (no `/dev/urandom`) the
/// process's randomly keyed SipHash of a counter and the time.
fn unguessable() -> String {
    use std::io::Read as _;
    let mut bytes = [0u8; 16];
    if std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_ok()
    {
        return bytes.iter().map(|b| format!("{b:02x}")).collect();
    }
    use std::hash::{BuildHasher as _, RandomState};
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNT.fetch_add(1, Ordering::SeqCst);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    let state = RandomState::new();
    let (a, b) = (state.hash_one((n, now, 0u8)), state.hash_one((n, now, 1u8)));
    format!("{a:016x}{b:016x}")
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

    /// A relay attached to a server, and what the server is sent.
    fn attached() -> (Relay, mpsc::UnboundedReceiver<String>) {
        let relay = Relay::new();
        let (to_server, server) = mpsc::unbounded_channel();
        relay.attach(Some(to_server));
        (relay, server)
    }

    #[test]
    fn answers_and_progress_go_back_under_the_clients_own_id_and_token() {
        let relay = Relay::new();
        let params = json!({ "name": "echo", "_meta": { "progressToken": "mur" } });
        let (request, mut sent) = relay.register(json!(1), "tools/call", Some(params), false);
        assert_eq!(
            request["params"]["_meta"]["progressToken"],
            format!("bridge-{}", sent.id)
        );
        relay.route(
            json!({
                "jsonrpc": "2.0", "method": "notifications/progress",
                "params": { "progressToken": format!("bridge-{}", sent.id), "progress": 1 },
            }),
            100,
        );
        relay.route(json!({ "jsonrpc": "2.0", "id": sent.id, "result": {} }), 40);
        let progress = sent.messages.try_recv().expect("progress");
        assert_eq!(progress["params"]["progressToken"], "mur");
        let answer = sent.messages.try_recv().expect("answer");
        assert_eq!(answer["id"], 1);
        assert!(!relay.activity().0, "nothing in flight");
    }

    #[test]
    fn a_question_goes_to_the_oldest_client_request_and_its_answer_back() {
        let (relay, mut server) = attached();
        let (_, mut first) = relay.register(json!(1), "tools/call", None, false);
        let (_, _second) = relay.register(json!(1), "tools/call", None, false);
        relay.route(
            json!({ "jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": {} }),
            70,
        );
        let question = first.messages.try_recv().expect("question");
        let id = question["id"].as_str().unwrap_or_default();
        assert!(
            id.starts_with("bridge-q") && id.len() == "bridge-q".len() + 32,
            "{id}"
        );
        // Guessing is no answer.
        for n in 0..100 {
            assert!(
                !relay.answer(
                    json!({ "jsonrpc": "2.0", "id": format!("bridge-q{n}"), "result": {} })
                )
            );
        }
        assert!(relay.answer(
            json!({ "jsonrpc": "2.0", "id": question["id"], "result": { "action": "decline" } })
        ));
        let written: Value =
            serde_json::from_str(&server.try_recv().expect("answer")).expect("json");
        assert_eq!(written["id"], 7);
    }

    #[test]
    fn a_question_with_no_client_waiting_is_declined() {
        let (relay, mut server) = attached();
        relay.route(
            json!({ "jsonrpc": "2.0", "id": 3, "method": "roots/list" }),
            50,
        );
        let written: Value =
            serde_json::from_str(&server.try_recv().expect("error")).expect("json");
        assert_eq!(written["error"]["code"], METHOD_NOT_FOUND);
    }

    #[test]
    fn a_client_that_does_not_read_loses_notifications_past_the_bound_but_not_its_answer() {
        let (relay, mut server) = attached();
        let (_, mut sent) = relay.register(json!(1), "tools/call", None, false);
        let log = json!({ "jsonrpc": "2.0", "method": "notifications/message",
                          "params": { "level": "info", "data": "x" } });
        // Far more than the bound, in bytes and in messages, none read.
        for _ in 0..QUEUED_MESSAGES * 3 {
            relay.route(log.clone(), 10_000);
        }
        let question =
            json!({ "jsonrpc": "2.0", "id": 9, "method": "elicitation/create", "params": {} });
        relay.route(question, 10_000);
        let refused: Value =
            serde_json::from_str(&server.try_recv().expect("refused")).expect("json");
        assert_eq!(
            (refused["id"].clone(), refused["error"]["code"].clone()),
            (json!(9), json!(INTERNAL_ERROR))
        );
        relay.route(json!({ "jsonrpc": "2.0", "id": sent.id, "result": {} }), 40);
        let mut held = Vec::new();
        while let Some(message) = sent.messages.try_recv() {
            held.push(message);
        }
        assert_eq!(
            held.len(),
            QUEUED_BYTES / 10_000 + 1,
            "the bound, then the answer"
        );
        assert_eq!(held.last().map(|m| m["id"].clone()), Some(json!(1)));
        // Once read, the client's stream takes messages again.
        let (_, mut next) = relay.register(json!(2), "tools/call", None, false);
        relay.route(log, 10_000);
        assert!(next.messages.try_recv().is_some());
    }

    #[test]
    fn a_message_larger_than_the_backlog_bound_goes_to_a_client_that_reads() {
        let (relay, _server) = attached();
        let (_, mut sent) = relay.register(json!(1), "tools/call", None, false);
        let log = json!({ "jsonrpc": "2.0", "method": "notifications/message",
                          "params": { "level": "info", "data": "big" } });
        // Before, anything over the bound was dropped, though nothing waited.
        relay.route(log.clone(), QUEUED_BYTES + 1);
        assert!(sent.messages.try_recv().is_some(), "the large message went");
        relay.route(log, QUEUED_BYTES + 1);
        assert!(
            sent.messages.try_recv().is_some(),
            "and the next, once read"
        );
    }
}
