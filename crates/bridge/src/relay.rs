//! Who is waiting for what: the bridge's requests in flight to the stdio
//! server, the server's questions in flight to HTTP clients, and the routing
//! of everything the server writes between them.
//!
//! Every request sent to the server gets an id of the bridge's own (clients'
//! ids collide: every `mur` call is id 1) and, when it carries a progress
//! token, a token of the bridge's own (every `mur` call's token is `mur`);
//! the server's answers and progress are mapped back before they go out. A
//! request the server sends (a question) goes to the stream of the oldest
//! client request in flight — over stdio nothing in it says which request it
//! is for, and on a bridge that one is almost always the only one — under an
//! id of the bridge's own, mapped back when the client answers. When other
//! requests are in flight the question says so (`_meta` [`SHARED_QUESTION`]:
//! it may be another's), and a client that refuses it (answers with an
//! error, having no answer) does not end it: it goes to the next request in
//! flight not asked yet, and only when none is left does the server get the
//! refusal. A client that goes away, or does not read, passes it on the same
//! way. A shared question a client answers is logged, and the answers of the
//! requests it may concern say so in their `_meta`: the answering one's
//! ([`ANSWERED_SHARED`]) and those of the others in flight when it was asked
//! ([`ANSWERED_ELSEWHERE`]), which may go on with an answer their clients never
//! gave; mur turns both into a note. That id is
//! unguessable (128 random bits): the bridge cannot tell its HTTP clients
//! apart (it hands out no sessions, and a client answers on a request of
//! its own), so knowing the id is what makes an answer the asked client's.
//! For the same reason a client's `notifications/cancelled` is not passed
//! on — it names the client's id, which every `mur` call shares, and could
//! cancel another client's request; a request is cancelled when its client
//! closes the response instead ([`Relay::abandon`]).
//!
//! What the server writes that matches no request — an answer to an id the
//! bridge never sent, one with no id, a line that is no JSON — is logged and
//! told to the clients of the requests in flight ([`Relay::unmatched`]): one
//! may have been meant, and would otherwise wait out its time with no word of
//! why. A batch is taken as its messages, each routed as if written alone.
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

use mur_lockfile::jsonrpc::{self, INTERNAL_ERROR, METHOD_NOT_FOUND};
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

use crate::log::clipped;

pub(crate) use mur_client::{ANSWERED_ELSEWHERE, ANSWERED_SHARED, BRIDGE_LOGGER, SHARED_QUESTION};

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
    /// Questions its client answered that other requests in flight may have
    /// asked: its answer says so ([`ANSWERED_SHARED`]).
    answered_shared: u64,
    /// Questions asked while it was in flight that another request's client
    /// answered, which it may have asked: its answer says so ([`ANSWERED_ELSEWHERE`]).
    answered_elsewhere: u64,
    /// Lines the server wrote while it was in flight that the bridge could
    /// not match to a request ([`Relay::unmatched`]): one may have been its answer.
    unmatched: u64,
}

/// A question of the server, relayed to a client.
struct Asked {
    /// The request in whose stream it was asked.
    during: u64,
    /// Whether it was asked as one that may be another request's ([`SHARED_QUESTION`]).
    shared: bool,
    question: Question,
}

/// A question of the server on its way to a client that answers it.
struct Question {
    /// The id the server gave it.
    server_id: Value,
    /// What the server wrote (its id replaced for each client asked).
    message: Value,
    bytes: usize,
    /// The requests asked already (each refused it, or went away).
    tried: Vec<u64>,
    /// The client requests in flight when the server asked it: one of them asked.
    among: Vec<u64>,
}

#[derive(Default)]
struct State {
    next: u64,
    /// Keyed by the bridge's id, so the first is the oldest.
    pending: BTreeMap<u64, Pending>,
    asked: HashMap<String, Asked>,
    /// Client requests the bridge is handling, an [`Arrival`] each, sent to the server
    /// or not: also those waiting for a server being restarted, and those the bridge
    /// answers itself, never [`State::pending`].
    arrived: usize,
    last_activity: Option<Instant>,
}

/// The routing table, shared by the HTTP handlers and the server's reader.
#[derive(Clone)]
pub(crate) struct Relay {
    state: Arc<Mutex<State>>,
    writer: watch::Sender<Option<Writer>>,
    /// How starts of the server failed: requests waiting for a restart fail with it.
    failed_starts: watch::Sender<Failed>,
}

/// How many starts of the server failed and why the last did; or that no server will
/// be started again (the bridge gave up on it, or is stopping), and why.
#[derive(Default)]
struct Failed {
    count: u64,
    why: String,
    for_good: bool,
}

/// What a request waiting for the server got.
pub(crate) enum Waited {
    /// A server is attached (the request may be sent).
    Attached,
    /// The restart it waited for failed: why.
    Failed(String),
    TimedOut,
}

/// A client request the bridge holds ([`Relay::arrived`]); once dropped, the idle
/// time counts from then, unless the request is in flight to the server.
pub(crate) struct Arrival(Relay);

impl Drop for Arrival {
    fn drop(&mut self) {
        let mut state = self.0.state();
        state.arrived -= 1;
        state.last_activity = Some(Instant::now());
    }
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
            failed_starts: watch::Sender::new(Failed::default()),
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

    /// A start of the server failed (`why`): the requests waiting for it fail.
    pub(crate) fn start_failed(&self, why: &str) {
        self.failed_starts.send_modify(|failed| {
            failed.count += 1;
            failed.why = why.to_owned();
        });
    }

    /// No server will be started again (`why`): the requests waiting for one fail, and
    /// those that come later at once, with the first such `why`. They waited until the
    /// endpoint's drain ended (3 s) and were cut off unanswered.
    pub(crate) fn no_more_starts(&self, why: &str) {
        self.failed_starts.send_if_modified(|failed| {
            let first = !failed.for_good;
            if first {
                (failed.for_good, failed.why) = (true, why.to_owned());
            }
            first
        });
    }

    /// The bridge is stopping: the requests in flight fail, and those waiting for a
    /// server being started again at once, as do any that come before the endpoint
    /// closes (a server running still takes those).
    pub(crate) fn stopping(&self) {
        self.fail_all("the bridge was stopped before the stdio server answered");
        self.no_more_starts(
            "the bridge was stopped while it started the stdio server again; the request was \
             not sent to it",
        );
    }

    /// Whether a server is attached, waiting up to `limit` for one (a server
    /// being restarted) — unless that restart fails first, or none will come.
    pub(crate) async fn writer_within(&self, limit: Duration) -> Waited {
        let mut failures = self.failed_starts.subscribe();
        let before = failures.borrow_and_update().count;
        let mut watching = self.writer.subscribe();
        let waited = tokio::time::timeout(limit, async {
            tokio::select! {
                // A server still attached takes the request, stopping or not.
                biased;
                attached = watching.wait_for(Option::is_some) => match attached {
                    Ok(_) => Waited::Attached,
                    Err(_) => Waited::TimedOut,
                },
                failed = failures.wait_for(|f| f.for_good || f.count > before) => match failed {
                    Ok(failed) => Waited::Failed(failed.why.clone()),
                    Err(_) => Waited::TimedOut,
                },
            }
        });
        waited.await.unwrap_or(Waited::TimedOut)
    }

    /// Writes one message to the server, if one is attached (none is before it has
    /// answered `initialize`, when MCP has it ask nothing that needs an answer).
    pub(crate) fn write(&self, message: &Value) {
        if let Some(writer) = self.writer.borrow().as_ref() {
            let _ = writer.send(message.to_string());
        }
    }

    /// Something happened on the client side: the idle clock starts again.
    pub(crate) fn touch(&self) {
        self.state().last_activity = Some(Instant::now());
    }

    /// A client request reached the bridge: from now until the [`Arrival`] is dropped
    /// it is in flight for the idle clock, sent to the server or not. One that never
    /// reaches the server — failed while it waited for a restart, answered by the
    /// bridge itself — is a request all the same: a bridge whose server does not come
    /// back, called on meanwhile, was said to have had "no request for 10m".
    pub(crate) fn arrived(&self) -> Arrival {
        let mut state = self.state();
        state.arrived += 1;
        state.last_activity = Some(Instant::now());
        Arrival(self.clone())
    }

    /// Whether a client request is in flight, and when the last activity was.
    pub(crate) fn activity(&self) -> (bool, Option<Instant>) {
        let state = self.state();
        let busy = state.arrived > 0 || state.pending.values().any(|p| !p.internal);
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
                answered_shared: 0,
                answered_elsewhere: 0,
                unmatched: 0,
            },
        );
        if !internal {
            state.last_activity = Some(Instant::now());
        }
        let request = jsonrpc::request(id, method, params);
        (request, Sent { id, messages })
    }

    /// Sends a registered request to the server.
    pub(crate) fn send(&self, request: &Value) {
        self.write(request);
    }

    /// The client went away before the answer: forget the request and tell
    /// the server, which may stop working on it.
    pub(crate) fn abandon(&self, id: u64) {
        // Gone first, so that its questions go to another client, or (nobody
        // left) back to the server now, not at its own timeout.
        let removed = self.state().pending.remove(&id).is_some();
        let unanswered: Vec<Asked> = {
            let mut state = self.state();
            let keys: Vec<String> = state
                .asked
                .iter()
                .filter(|(_, asked)| asked.during == id)
                .map(|(key, _)| key.clone())
                .collect();
            keys.iter()
                .filter_map(|key| state.asked.remove(key))
                .collect()
        };
        for asked in unanswered {
            self.pass_on(
                asked,
                jsonrpc::error_object(INTERNAL_ERROR, "the client went away before it answered"),
            );
        }
        if removed {
            tracing::debug!("request {id} abandoned by its client; cancelling it");
            self.write(&jsonrpc::notification(
                "notifications/cancelled",
                Some(json!({ "requestId": id, "reason": "the client went away" })),
            ));
        }
        self.touch();
    }

    /// A client's answer to a relayed question, for the server under its id.
    /// `false` when no such question is open.
    /// An error (the client has no answer) does not reach the server while
    /// another request in flight has not been asked: the question goes there.
    pub(crate) fn answer(&self, mut message: Value) -> bool {
        let key = id_key(&message["id"]);
        let Some(asked) = self.state().asked.remove(&key) else {
            return false;
        };
        self.touch();
        if let Some(error) = message.get("error").cloned() {
            self.pass_on(asked, error);
            return true;
        }
        if asked.shared {
            self.answered_shared(&asked);
        }
        message["id"] = asked.question.server_id;
        self.write(&message);
        true
    }

    /// `asked`, which may have been another request's, was answered by its
    /// client: the log says so, and so do the answers of its request and of the
    /// others in flight that may have asked it — one of them may go on with an
    /// answer its own client never gave (another's `--answer`). None when none
    /// of those is in flight any more: the one that asked waits for the answer,
    /// so it was the answering request's own.
    fn answered_shared(&self, asked: &Asked) {
        let mut state = self.state();
        let others: Vec<u64> = asked
            .question
            .among
            .iter()
            .copied()
            .filter(|id| *id != asked.during && state.pending.contains_key(id))
            .collect();
        if others.is_empty() {
            return;
        }
        for id in &others {
            if let Some(pending) = state.pending.get_mut(id) {
                pending.answered_elsewhere += 1;
            }
        }
        if let Some(pending) = state.pending.get_mut(&asked.during) {
            pending.answered_shared += 1;
        }
        drop(state);
        let others: Vec<String> = others.iter().map(u64::to_string).collect();
        tracing::info!(
            "request {}: its client answered a question the server asked while request(s) {} \
             were in flight too; stdio does not say which asked it, so one of those may go on with this answer",
            asked.during,
            others.join(", ")
        );
    }

    /// A question its client did not answer (`error` says why): to the next
    /// request in flight not asked yet, else the error to the server.
    fn pass_on(&self, asked: Asked, error: Value) {
        let mut question = asked.question;
        question.tried.push(asked.during);
        tracing::info!(
            "request {}: its client did not answer the server's question; passing it on",
            asked.during
        );
        self.ask(question, Some(error));
    }

    /// Routes one message the server wrote to whoever waits for it; `bytes`
    /// is what it counts against its client's backlog ([`QUEUED_BYTES`]): its
    /// line's length, or its share of a batch's line.
    pub(crate) fn route(&self, mut message: Value, bytes: usize) {
        // What the bridge relays is JSON-RPC 2.0, as MCP clients (mur among
        // them) require, whether or not the server said so: some stdio servers
        // leave `"jsonrpc"` out, and their clients took it before.
        if let Some(object) = message.as_object_mut() {
            object.insert("jsonrpc".to_owned(), json!("2.0"));
        }
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
            // A batch (JSON-RPC 2.0, MCP 2025-03-26): each of its messages as if
            // written alone.
            (None, None) if message.is_array() => {
                let Value::Array(messages) = message else {
                    return;
                };
                tracing::debug!("the server wrote a batch of {} message(s)", messages.len());
                if messages.is_empty() {
                    self.unmatched("an empty batch", "[]");
                }
                // Each counts its share of the line against its client's backlog
                // (re-serialising each to measure it would copy them all).
                let share = bytes.div_ceil(messages.len().max(1));
                for message in messages {
                    self.route(message, share);
                }
            }
            (None, None) => self.unmatched(
                "a message that is no JSON-RPC (neither a method nor an id)",
                &message.to_string(),
            ),
        }
    }

    /// The server wrote `line` (`what` it is), which the bridge can match to
    /// no request: it goes to the log, and the clients of the requests in
    /// flight are told in a log message of the bridge's (one of them may have
    /// been meant, and would otherwise wait out its time with no word of why),
    /// as is the bridge's own error of a request out of time.
    pub(crate) fn unmatched(&self, what: &str, line: &str) {
        tracing::warn!(
            "the server wrote {what}, which the bridge cannot match to a request: {}",
            clipped(line)
        );
        let streams: Vec<Outbox> = {
            let mut state = self.state();
            let pending = state.pending.values_mut().filter(|p| !p.internal);
            pending
                .map(|p| {
                    p.unmatched += 1;
                    p.stream.clone()
                })
                .collect()
        };
        let data = format!(
            "the stdio server wrote {what}, which the bridge cannot match to a request (the \
             bridge's log has it); if it was this request's answer, no other will come"
        );
        for stream in streams {
            let note = jsonrpc::notification(
                "notifications/message",
                Some(json!({ "level": "warning", "logger": BRIDGE_LOGGER, "data": data })),
            );
            let _ = stream.offer(note, data.len());
        }
    }

    /// How many lines the server wrote that the bridge could not match to a
    /// request while request `id` was in flight.
    pub(crate) fn unmatched_during(&self, id: u64) -> u64 {
        self.state().pending.get(&id).map_or(0, |p| p.unmatched)
    }

    fn server_answered(&self, mut message: Value) {
        let Some(id) = message["id"].as_u64() else {
            let what = format!(
                "an answer to id {}, an id the bridge never sent",
                message["id"]
            );
            self.unmatched(&what, &message.to_string());
            return;
        };
        let pending = {
            let mut state = self.state();
            let Some(pending) = state.pending.remove(&id) else {
                let sent = (1..=state.next).contains(&id);
                drop(state);
                if sent {
                    // Abandoned by its client meanwhile, or failed by the bridge.
                    tracing::info!(
                        "the server answered request {id}, which nobody waits for any more"
                    );
                } else {
                    let what = format!("an answer to id {id}, an id the bridge never sent");
                    self.unmatched(&what, &message.to_string());
                }
                return;
            };
            if !pending.internal {
                // The idle time counts from the end of the last request.
                state.last_activity = Some(Instant::now());
            }
            pending
        };
        message["id"] = pending.client_id;
        for (key, count) in [
            (ANSWERED_SHARED, pending.answered_shared),
            (ANSWERED_ELSEWHERE, pending.answered_elsewhere),
        ] {
            if count > 0
                && let Some(result) = message.get_mut("result").and_then(Value::as_object_mut)
            {
                let meta = result.entry("_meta").or_insert_with(|| json!({}));
                if let Some(meta) = meta.as_object_mut() {
                    meta.insert(key.to_owned(), json!(count));
                }
            }
        }
        pending.stream.answer(message);
    }

    fn server_asks(&self, method: &str, server_id: Value, message: Value, bytes: usize) {
        if method == "ping" {
            self.write(&jsonrpc::result(server_id, json!({})));
            return;
        }
        let among = self
            .state()
            .pending
            .iter()
            .filter(|(_, p)| !p.internal)
            .map(|(id, _)| *id)
            .collect();
        let question = Question {
            server_id,
            message,
            bytes,
            tried: Vec::new(),
            among,
        };
        self.ask(question, None);
    }

    /// Asks `question` of the oldest client request in flight not asked it
    /// yet; with none left, the server gets `refused` (the last client's
    /// error), or, when nobody was asked, a decline.
    fn ask(&self, mut question: Question, mut refused: Option<Value>) {
        loop {
            let mut state = self.state();
            let clients: Vec<(u64, Outbox)> = state
                .pending
                .iter()
                .filter(|(_, p)| !p.internal)
                .map(|(id, p)| (*id, p.stream.clone()))
                .collect();
            let target = clients
                .iter()
                .find(|(id, _)| !question.tried.contains(id))
                .cloned();
            let Some((during, stream)) = target else {
                drop(state);
                let error = refused.unwrap_or_else(|| {
                    let method = question.message["method"].as_str().unwrap_or_default();
                    tracing::info!(
                        "the server asked `{method}` with no client request in flight: declined"
                    );
                    jsonrpc::error_object(
                        METHOD_NOT_FOUND,
                        &format!("no client is waiting to answer `{method}`"),
                    )
                });
                self.write(&jsonrpc::error_reply(question.server_id, error));
                return;
            };
            let key = format!("bridge-q{}", unguessable());
            let mut message = question.message.clone();
            message["id"] = json!(key);
            let shared = clients.len() > 1;
            if shared {
                // Another request may be the one asking: this client, if it
                // has no answer, refuses it and waits on for its own result.
                if !message["params"].is_object() {
                    message["params"] = json!({});
                }
                if !message["params"]["_meta"].is_object() {
                    message["params"]["_meta"] = json!({});
                }
                message["params"]["_meta"][SHARED_QUESTION] = json!(true);
            }
            let bytes = question.bytes;
            state.asked.insert(
                key.clone(),
                Asked {
                    during,
                    shared,
                    question,
                },
            );
            drop(state);
            let (offered, why) = match stream.offer(message, bytes) {
                Offered::Queued => return,
                Offered::Gone => (Offered::Gone, "the client went away before it answered"),
                Offered::Dropped => (
                    Offered::Dropped,
                    "the client is not reading what it was sent",
                ),
            };
            // Taken back, unless its client's going took it meanwhile (and passed it on).
            let Some(asked) = self.state().asked.remove(&key) else {
                return;
            };
            question = asked.question;
            question.tried.push(during);
            refused = Some(jsonrpc::error_object(INTERNAL_ERROR, why));
            if offered == Offered::Gone {
                self.abandon(during);
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
            p.stream
                .answer(jsonrpc::error(p.client_id, INTERNAL_ERROR, why));
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
        return mur_core::hex(&bytes);
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

    /// [`attached`], with one call in flight.
    fn one_call() -> (Relay, mpsc::UnboundedReceiver<String>, Sent) {
        let (relay, server) = attached();
        let (_, sent) = relay.register(json!(1), "tools/call", None, false);
        (relay, server, sent)
    }

    /// A log message of the server's saying `data`.
    fn log_message(data: &str) -> Value {
        json!({ "jsonrpc": "2.0", "method": "notifications/message",
                "params": { "level": "info", "data": data } })
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

    /// What the server was sent, as JSON.
    fn written(server: &mut mpsc::UnboundedReceiver<String>) -> Vec<Value> {
        std::iter::from_fn(|| server.try_recv().ok())
            .map(|line| serde_json::from_str(&line).expect("json"))
            .collect()
    }

    fn refusal(id: &Value, message: &str) -> Value {
        json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": message } })
    }

    #[test]
    fn a_question_refused_by_the_client_asked_goes_to_the_next_request_in_flight() {
        let (relay, mut server) = attached();
        let (_, mut first) = relay.register(json!(1), "tools/call", None, false);
        let (_, mut second) = relay.register(json!(1), "tools/call", None, false);
        let (_, mut third) = relay.register(json!(1), "tools/call", None, false);
        relay.route(
            json!({ "jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
                    "params": { "message": "Sure?" } }),
            70,
        );
        let asked = first.messages.try_recv().expect("question");
        assert_eq!(asked["params"]["_meta"][SHARED_QUESTION], true, "{asked}");
        assert_eq!(asked["params"]["message"], "Sure?");
        // The first has no answer: the second is asked, under another id.
        assert!(relay.answer(refusal(&asked["id"], "mur has no answer: first")));
        assert!(
            written(&mut server).is_empty(),
            "nothing for the server yet"
        );
        let again = second.messages.try_recv().expect("asked again");
        assert_ne!(again["id"], asked["id"]);
        assert_eq!(again["params"]["_meta"][SHARED_QUESTION], true);
        // The first's id answers nothing any more.
        assert!(!relay.answer(
            json!({ "jsonrpc": "2.0", "id": asked["id"], "result": { "action": "accept" } })
        ));
        // The second goes away: the third is asked, and answers.
        relay.abandon(second.id);
        let cancelled = written(&mut server);
        assert_eq!(cancelled.len(), 1, "{cancelled:?}");
        assert_eq!(cancelled[0]["method"], "notifications/cancelled");
        let last = third.messages.try_recv().expect("asked the third");
        assert!(relay.answer(json!({ "jsonrpc": "2.0", "id": last["id"],
                                     "result": { "action": "accept", "content": { "ok": true } } })));
        let answered = written(&mut server);
        assert_eq!(
            answered,
            [
                json!({ "jsonrpc": "2.0", "id": 7, "result": { "action": "accept", "content": { "ok": true } } })
            ]
        );
        assert!(first.messages.try_recv().is_none());
    }

    #[test]
    fn a_question_every_client_refuses_is_refused_to_the_server_once_all_were_asked() {
        let (relay, mut server) = attached();
        // Alone: not marked, and its refusal goes to the server at once.
        let (_, mut only) = relay.register(json!(1), "tools/call", None, false);
        relay.route(
            json!({ "jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": {} }),
            50,
        );
        let asked = only.messages.try_recv().expect("question");
        assert!(asked["params"].get("_meta").is_none(), "{asked}");
        assert!(relay.answer(refusal(&asked["id"], "mur has no answer: alone")));
        let refused = written(&mut server);
        assert_eq!(refused, [refusal(&json!(1), "mur has no answer: alone")]);

        // Two: each asked once, the last refusal goes to the server.
        let (_, mut other) = relay.register(json!(1), "tools/call", None, false);
        relay.route(
            json!({ "jsonrpc": "2.0", "id": 2, "method": "elicitation/create", "params": {} }),
            50,
        );
        let asked = only.messages.try_recv().expect("question");
        assert!(relay.answer(refusal(&asked["id"], "mur has no answer: a")));
        let asked = other.messages.try_recv().expect("question");
        assert!(relay.answer(refusal(&asked["id"], "mur has no answer: b")));
        assert_eq!(
            written(&mut server),
            [refusal(&json!(2), "mur has no answer: b")]
        );
        assert!(only.messages.try_recv().is_none() && other.messages.try_recv().is_none());
    }

    /// A shared question one client answers may have been another request's: the
    /// answers of both say so, for mur to note (a call without `--answer` went on,
    /// exit 0, with what another caller typed, and neither call was told).
    #[test]
    fn the_answers_of_the_requests_a_shared_question_may_concern_say_it_was_answered() {
        let (relay, mut server) = attached();
        let (_, mut first) = relay.register(json!(1), "tools/call", None, false);
        let (_, mut second) = relay.register(json!(1), "tools/call", None, false);
        let question =
            json!({ "jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": {} });
        relay.route(question.clone(), 70);
        // Came after the question: not the one that asked it.
        let (_, mut later) = relay.register(json!(1), "tools/call", None, false);
        let asked = first.messages.try_recv().expect("question");
        assert!(relay.answer(refusal(&asked["id"], "mur has no answer")));
        let asked = second.messages.try_recv().expect("asked the second");
        assert!(relay.answer(json!({ "jsonrpc": "2.0", "id": asked["id"],
                                     "result": { "action": "accept", "content": { "name": "Ann" } } })));
        assert_eq!(written(&mut server).len(), 1, "the answer");
        let answer = |relay: &Relay, sent: &mut Sent| {
            relay.route(
                json!({ "jsonrpc": "2.0", "id": sent.id, "result": { "content": [] } }),
                40,
            );
            sent.messages.try_recv().expect("its answer")["result"]["_meta"].clone()
        };
        assert_eq!(answer(&relay, &mut first), json!({ ANSWERED_ELSEWHERE: 1 }));
        assert_eq!(answer(&relay, &mut second), json!({ ANSWERED_SHARED: 1 }));
        assert_eq!(answer(&relay, &mut later), Value::Null);

        // Answered once the other request has its answer: it was the answerer's own.
        let (_, mut first) = relay.register(json!(1), "tools/call", None, false);
        let (_, mut second) = relay.register(json!(1), "tools/call", None, false);
        relay.route(question, 70);
        let asked = first.messages.try_recv().expect("question");
        assert_eq!(asked["params"]["_meta"][SHARED_QUESTION], true);
        assert_eq!(answer(&relay, &mut second), Value::Null);
        assert!(relay.answer(json!({ "jsonrpc": "2.0", "id": asked["id"],
                                     "result": { "action": "decline" } })));
        assert_eq!(answer(&relay, &mut first), Value::Null);
    }

    #[tokio::test]
    async fn a_request_waiting_for_a_restart_fails_when_the_restart_fails() {
        let relay = Relay::new();
        let waiting = tokio::spawn({
            let relay = relay.clone();
            async move { relay.writer_within(Duration::from_secs(30)).await }
        });
        tokio::task::yield_now().await;
        tokio::time::sleep(Duration::from_millis(20)).await;
        relay.start_failed("the stdio server exited (exit status: 3), and …");
        match waiting.await.expect("joined") {
            Waited::Failed(why) => assert!(why.starts_with("the stdio server exited"), "{why}"),
            _ => panic!("not failed"),
        }
        // A request that comes later waits for the next start.
        let (to_server, _server) = mpsc::unbounded_channel();
        let later = tokio::spawn({
            let relay = relay.clone();
            async move { relay.writer_within(Duration::from_secs(30)).await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        relay.attach(Some(to_server));
        assert!(matches!(later.await.expect("joined"), Waited::Attached));
    }

    /// A bridge stopped while it starts its server again fails the requests waiting for
    /// that start at once, and those that come before its endpoint closes, saying they
    /// were not sent; they waited until the endpoint's drain (3 s) cut them off
    /// unanswered. A server still running takes what comes.
    #[tokio::test]
    async fn a_bridge_stopping_fails_what_waits_for_a_restart_at_once() {
        let relay = Relay::new();
        let waiting = relay.writer_within(Duration::from_secs(600));
        tokio::pin!(waiting);
        assert!(futures_util::poll!(&mut waiting).is_pending());
        relay.stopping();
        let later = relay.writer_within(Duration::from_secs(600));
        tokio::pin!(later);
        let now = [
            futures_util::poll!(&mut waiting),
            futures_util::poll!(&mut later),
        ];
        for waited in now {
            match waited {
                std::task::Poll::Ready(Waited::Failed(why)) => assert_eq!(
                    why,
                    "the bridge was stopped while it started the stdio server again; the \
                     request was not sent to it"
                ),
                _ => panic!("it waited on"),
            }
        }
        let (running, _server) = attached();
        running.stopping();
        assert!(matches!(
            running.writer_within(Duration::ZERO).await,
            Waited::Attached
        ));
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
        let (relay, mut server, mut sent) = one_call();
        let log = log_message("x");
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
    fn a_batch_counts_its_line_against_the_backlog_bound() {
        let (relay, _server, mut sent) = one_call();
        let log = log_message("x");
        // 64 messages in a line twice the bound, none read: each counts 1/32 of
        // the bound, so 32 wait and the rest are dropped (before, a batch's
        // messages counted nothing, and all 64 waited).
        relay.route(Value::Array(vec![log; 64]), 2 * QUEUED_BYTES);
        let mut held = 0;
        while sent.messages.try_recv().is_some() {
            held += 1;
        }
        assert_eq!(held, 32);
    }

    #[test]
    fn a_message_larger_than_the_backlog_bound_goes_to_a_client_that_reads() {
        let (relay, _server, mut sent) = one_call();
        let log = log_message("big");
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
