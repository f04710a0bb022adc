//! The MCP client: one POST in the modern stateless form; a retry when the
//! server names the versions it supports (`-32022`), with the newest of them mur
//! speaks (none, or refused again: no revision agreed, exit 2); the legacy
//! `initialize` session dance for servers that want one, in a revision mur
//! speaks. The whole call is bounded by the caller's timeout (the time a user
//! takes to answer a question excepted), every response body by the response
//! limit (`--max-response`), and a legacy session is ended in every outcome.
//!
//! Every request carries a progress token; progress and the server's log
//! messages go to the caller's [`Events`]. A question from the server (an
//! `elicitation/create` in a 2025-11-25 response stream, or in a 2026-07-28
//! input-required result, followed round after round to the end) is answered
//! from `--answer KEY=VALUE`, else by asking through [`Events`], else the
//! call ends (exit 5) naming the question and the `--answer` options that
//! would answer it ([`Client::unused_answers`] then names the answers no question
//! asked for); however they come, one call answers at most 1,000
//! questions in at most 100 rounds, past which it ends (exit 5). Sampling,
//! roots and any other request from the server are declined at once with a
//! JSON-RPC error.
//!
//! One kind of question is not the call's for sure: one a bridge (`mur
//! devtools bridge`) relays while other requests are in flight, marked
//! [`SHARED_QUESTION`] — over stdio nothing says which request asks, and the
//! bridge offers it to each in turn. Such a question mur cannot answer is
//! refused (a JSON-RPC error, as for any question) and the call waits on for
//! its own result: the bridge passes the question to the next request. That
//! result stands as it came, a failure too (the question may have been
//! another's, answered there): [`Client::refused_question`] then names the
//! refused question, for a hint under the call's own failure.
//!
//! A call the server makes a task of is followed to its outcome, its status
//! going to [`Events`] (module [`task`]): on 2026-07-28 any call (mur declares
//! the tasks extension), on 2025-11-25 a tool whose `tools/list` entry the
//! caller gave ([`Client::with_tool`]) and which runs only as a task.
//!
//! The client never follows a redirect (a 3xx is a transport error naming the
//! `Location`) and never looks up a host name.
//!
//! A server that answers 401 gets the OAuth flow (module `auth`), and every
//! request then carries the token — an endpoint given as is ([`Access::OAuth`]),
//! unless its 401 is a bridge's ([`BRIDGE_REALM`]): a bridge does no OAuth, and
//! the call ends with a transport error saying so. A devtools session found by
//! its lockfile asks for no authorization (seed 000), but a bridge for its
//! secret ([`Access::Session`]): mur sends it, does no OAuth there, and a 401
//! ends the call with a transport error.

mod answers;
mod auth;
mod budget;
mod events;
mod legacy;
mod listing;
mod request;
mod response;
mod reuse;
mod session;
mod shared;
mod surrogates;
pub mod task;
pub mod tool_result;
mod value_end;

use std::sync::Mutex;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::header::{HeaderMap, LOCATION};
use serde_json::{Map, Value, json};

use mur_http::{Http, Request};
use mur_lockfile::jsonrpc::{self, INTERNAL_ERROR, METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION};

pub use answers::Unused;
pub use events::{
    Choice, Events, Field, FieldKind, LogMessage, Progress, Question, Response, Silent, TaskStatus,
};
pub use listing::{ToolEntry, ToolPage};
pub use request::{LEGACY_VERSION, MODERN_VERSION, REVISIONS};
pub use response::{BRIDGE_REALM, Reply, describe, kind as value_in_words, past_the_limit};
pub use shared::SharedSession;

use mur_core::Settings;
use mur_core::{Error, Result};
use request::CallMeta;
use response::{Message, Reader, ServerRequest};

/// The id of the first request a modern call sends; each input-required
/// retry takes the next.
const CALL_ID: u64 = 1;
/// The `_meta` key (`true`) of a question a bridge relays while other
/// requests are in flight: it may be another request's, and a client that
/// refuses it has it passed to the next ([`Client`] then waits on for its
/// own result).
pub const SHARED_QUESTION: &str = "mur/shared";
/// The `_meta` key of a bridge's answer (a count): questions this request's client
/// answered that other requests in flight may have asked ([`SHARED_QUESTION`]), so
/// that another call may have gone on with this call's answers ([`question_notes`]).
pub const ANSWERED_SHARED: &str = "mur/answeredShared";
/// The `_meta` key of a bridge's answer (a count): questions asked while this request
/// was in flight that another request's client answered, which this request may have
/// asked: its result may carry another call's answers ([`question_notes`]).
pub const ANSWERED_ELSEWHERE: &str = "mur/answeredElsewhere";
/// `bound` in milliseconds as a message says it: whole (`300`), or with its fraction
/// (`451.5`), which a verb's own `--timeout 301` gives (half as long again): its whole
/// milliseconds said "within 451 ms" above a hint naming 301 and half as long again.
fn milliseconds(bound: Duration) -> String {
    let micros = bound.as_micros();
    match micros % 1000 {
        0 => format!("{}", micros / 1000),
        part => {
            let fraction = format!("{part:03}");
            format!("{}.{}", micros / 1000, fraction.trim_end_matches('0'))
        }
    }
}

/// The `data` key (`true`) of a bridge's error standing in for an answer its stdio
/// server wrote that the bridge cannot read (not UTF-8, nested too deep): a malformed
/// answer, said as one read over HTTP is (exit 2), not the tool's failure.
pub const UNREADABLE_ANSWER: &str = "mur/unreadableAnswer";

/// The logger of the log messages a bridge (`mur devtools bridge`) sends of its
/// own: a warning of one says what the bridge saw go wrong during the call (a line
/// of the server's it could match to no request), quoted under a call out of time.
pub const BRIDGE_LOGGER: &str = "mur-bridge";
/// The header of mur's requests to a bridge (`mur devtools bridge`, which mur sends
/// its secret): how many milliseconds the call still waits for the answer. A request
/// the bridge holds while it starts its server again is answered before then, saying
/// it was not sent; cut off by the call's own timeout, mur said the request "was
/// sent", so the tool may have run.
pub const WAIT_HEADER: &str = "mur-wait-ms";
/// The most characters of a bridge's warning quoted in a hint: one line.
const BRIDGE_SAID_CHARS: usize = 300;
/// The progress token of every request mur sends.
pub const PROGRESS_TOKEN: &str = "mur";
/// The most rounds of questions one call follows (input-required results, a
/// task waiting on its questions), and the most questions it answers, whichever
/// way they come (those, and an `elicitation/create` in a response stream): a
/// server that keeps asking must not hold mur, or its memory, without end. Past
/// either the call ends (exit 5).
const MAX_ROUNDS: u64 = 100;
const MAX_QUESTIONS: usize = 1_000;

/// The rounds and questions a call answered so far, against [`MAX_ROUNDS`] and
/// [`MAX_QUESTIONS`]; the proxy counts what it asks of its client for one task by the
/// same bounds.
#[derive(Debug, Default)]
pub struct Asked {
    rounds: u64,
    questions: usize,
}

impl Asked {
    /// Counts `rounds` more rounds (0 or 1) of `questions` more questions; `Err`
    /// names the bound they would pass, and counts nothing.
    pub fn admit(&mut self, rounds: u64, questions: usize) -> std::result::Result<(), String> {
        if self.rounds + rounds > MAX_ROUNDS {
            return Err(format!("{MAX_ROUNDS} rounds"));
        }
        if self.questions.saturating_add(questions) > MAX_QUESTIONS {
            return Err(format!("{MAX_QUESTIONS} questions"));
        }
        self.rounds += rounds;
        self.questions += questions;
        Ok(())
    }
}
/// The log level mur asks the server for with `-v`.
const LOG_LEVEL: &str = "info";
/// Bound on what a call sends on the way out (a task's `tasks/cancel`, a legacy
/// session's `notifications/cancelled` and `DELETE`), together: it goes to
/// loopback and needs milliseconds; it must not hold up an exit.
const FAREWELL_LIMIT: Duration = Duration::from_millis(500);

/// How the client is let in at its endpoint.
#[derive(Clone, Copy)]
pub enum Access<'a> {
    /// An endpoint given as is, any MCP server: one that answers 401 gets the
    /// OAuth flow, and mur's token for it is sent once it holds one — but a
    /// bridge's 401 ([`BRIDGE_REALM`]) ends the call (exit 2), with `bridge`
    /// as its hint: mur holds no secret for it.
    OAuth { bridge: &'a str },
    /// A devtools session found by its lockfile: it is sent `secret` (a bridge's,
    /// from its sidecar) as a Bearer token, or nothing. No OAuth: a 401 ends the
    /// call (exit 2), with `refused` — what mur knows of the secret — as its hint.
    Session {
        secret: Option<&'a str>,
        refused: &'a str,
    },
}

impl Default for Access<'_> {
    fn default() -> Self {
        Self::OAuth { bridge: "" }
    }
}

/// Shows whether a secret is held, never the secret: a client may be logged.
impl std::fmt::Debug for Access<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::OAuth { bridge } => f.debug_struct("OAuth").field("bridge", bridge).finish(),
            Self::Session { secret, refused } => f
                .debug_struct("Session")
                .field("secret", &secret.map(|_| "…"))
                .field("refused", refused)
                .finish(),
        }
    }
}

/// Resolves once `cancel` holds `true`; never without one, or once its sender is
/// gone without cancelling.
async fn cancelled(cancel: Option<tokio::sync::watch::Receiver<bool>>) {
    if let Some(mut cancel) = cancel
        && cancel.wait_for(|cancelled| *cancelled).await.is_ok()
    {
        return;
    }
    std::future::pending().await
}

/// A client for one endpoint.
pub struct Client<'a> {
    http: &'a Http,
    endpoint: &'a str,
    /// `-v`: ask the server for its log messages.
    verbose: bool,
    /// `--pretty`: how the stdout of an error mur words itself is rendered.
    pretty: bool,
    /// `--answer KEY=VALUE`.
    answers: &'a [(String, String)],
    /// `--protocol REVISION`.
    protocol: Option<&'a str>,
    /// The called tool as the server lists it, when the caller knows it:
    /// its `x-mcp-header` arguments are mirrored into `Mcp-Param-*` headers.
    tool: Option<&'a Value>,
    /// Where progress, log messages and questions go.
    events: &'a dyn Events,
    /// The most bytes one response body may have (`--max-response`).
    limit: u64,
    /// The user's `--timeout`, named when a call runs out of it (the bound
    /// of one call may be less: discovery spent part of it).
    budget: Duration,
    /// Time spent waiting for the user to answer a question, not yet added
    /// to the call's bound: a person's thinking is not the server's slowness.
    asking: Mutex<Duration>,
    /// When the call's bound runs out, but for the time asking not yet added to it
    /// ([`Client::bounded`]): what is left is told to a bridge ([`WAIT_HEADER`]).
    until: Mutex<Option<tokio::time::Instant>>,
    /// The server's questions this call answered, and in how many rounds.
    asked: Mutex<Asked>,
    /// The fields those questions asked, against the `--answer` keys given
    /// ([`Client::unused_answers`]).
    fields: Mutex<answers::Fields>,
    /// Whether the server sent this call anything (progress, a log message):
    /// then a call out of time was running, not unanswered.
    heard: std::sync::atomic::AtomicBool,
    /// The first warning a bridge sent of its own ([`BRIDGE_LOGGER`]), as one
    /// clipped line: a call out of time quotes it, as it may say why.
    bridge_said: Mutex<Option<String>>,
    /// The legacy session this call opened and has not ended yet. It lives
    /// here, outside the call's future, so that the timeout, which drops that
    /// future wherever it is, cannot take the session with it: [`Client::call`]
    /// ends it afterwards in every outcome.
    session: Mutex<Option<session::Session>>,
    /// The task this call waits for, in its session, until its outcome is in:
    /// like the session, held outside the call's future so that a call that
    /// ends first cancels it ([`Client::call`]).
    task: Mutex<Option<session::Pending>>,
    /// The modern revision the server last answered in.
    spoken: Mutex<Option<String>>,
    /// Whether the call's requests (a legacy session's set-up excepted) reached
    /// the server's socket: a call out of time says from it whether the tool
    /// may have run.
    delivery: mur_http::Delivery,
    /// The call ran out of time unanswered ([`Client::cut_off`]).
    out_of_time: std::sync::atomic::AtomicBool,
    /// The task a call out of time left running, and asked the server to cancel
    /// ([`Client::outlasted_task`]).
    outlasted: Mutex<Option<String>>,
    /// An answer (not an event stream) is coming in: its status and headers came, its
    /// body has not ended. A call out of time then "did not finish its answer".
    answering: std::sync::atomic::AtomicBool,
    /// A question marked [`SHARED_QUESTION`] that mur refused, having no
    /// answer, as a hint ([`Client::refused_question`]).
    refused: Mutex<Option<String>>,
    /// `server/discover` that a legacy session's server does not have is answered
    /// from its `initialize` ([`Client::discovering_from_initialize`]).
    discover_from_initialize: bool,
    /// The `clientInfo` of the client whose requests this one relays (the proxy's),
    /// sent in place of mur's ([`Client::relaying_for`]).
    relayed_for: Option<&'a Value>,
    /// Becomes `true` when whoever the call is made for gives up on it (the
    /// proxy's client cancels its request): the call ends as at its timeout
    /// ([`Client::cancelled_by`]).
    cancel: Option<tokio::sync::watch::Receiver<bool>>,
    /// The legacy session kept across calls, when the caller keeps one ([`Client::sharing`]).
    shared: Option<&'a SharedSession>,
    /// Where the `tools` entries of a `tools/list` reply go, kept as texts, when the
    /// caller reads pages so ([`Client::listing_into`]).
    tool_page: Option<&'a ToolPage>,
    /// The endpoint's OAuth token, and the flow that gets one on a 401.
    auth: auth::Auth,
    /// How the endpoint lets mur in: OAuth, or a session's own terms.
    access: Access<'a>,
}

/// What one HTTP response held, once the server's requests were answered
/// and its notifications reported.
#[derive(Debug)]
enum Answer {
    /// The response with our id.
    Reply(Reply),
    /// No response with our id; `error` is a JSON-RPC error with another
    /// (usually null) id, if there was one, and `text` is a snippet of a
    /// JSON body (empty for an event stream, `stream` then true).
    Other {
        error: Option<Value>,
        text: String,
        stream: bool,
        /// The last event id of a stream that ended, and its `retry`.
        resume: Option<(String, Option<u64>)>,
        /// What came in its place, as "answered …": a response to another id,
        /// a batch, a body that is not JSON mur reads.
        instead: Option<String>,
    },
}

impl<'a> Client<'a> {
    pub fn new(http: &'a Http, endpoint: &'a str, settings: &'a Settings) -> Self {
        Self {
            http,
            endpoint,
            verbose: settings.verbose,
            pretty: settings.pretty,
            answers: &settings.answers,
            protocol: settings.protocol.as_deref(),
            tool: None,
            events: &Silent,
            limit: settings.max_response,
            budget: settings.timeout,
            asking: Mutex::new(Duration::ZERO),
            until: Mutex::new(None),
            asked: Mutex::new(Asked::default()),
            fields: Mutex::new(answers::Fields::default()),
            heard: std::sync::atomic::AtomicBool::new(false),
            bridge_said: Mutex::new(None),
            session: Mutex::new(None),
            task: Mutex::new(None),
            spoken: Mutex::new(None),
            delivery: mur_http::Delivery::default(),
            out_of_time: std::sync::atomic::AtomicBool::new(false),
            outlasted: Mutex::new(None),
            answering: std::sync::atomic::AtomicBool::new(false),
            refused: Mutex::new(None),
            discover_from_initialize: false,
            relayed_for: None,
            cancel: None,
            shared: None,
            tool_page: None,
            auth: auth::Auth::new(endpoint, settings.max_response),
            access: Access::default(),
        }
    }

    /// Lets the client in at its endpoint as `access` says (by default, OAuth).
    pub fn with_access(mut self, access: Access<'a>) -> Self {
        self.access = access;
        self
    }

    /// Reports progress and log messages to `events`, and asks questions there.
    pub fn with_events(mut self, events: &'a dyn Events) -> Self {
        self.events = events;
        self
    }

    /// For a client that relays another's requests (the proxy): a `server/discover`
    /// that a server of the 2025-11-25 revision does not have is answered from what
    /// its `initialize` said (marked `mur/fromInitialize`), so the relayed client
    /// learns what the server offers. mur's own `call` gets the server's answer as it is.
    pub fn discovering_from_initialize(mut self) -> Self {
        self.discover_from_initialize = true;
        self
    }

    /// For a client that relays another's requests (the proxy): they are made in
    /// that client's name, its `clientInfo` (`None`: it gave none) in place of
    /// mur's, so that the server — and its usage records — know who calls.
    pub fn relaying_for(mut self, client_info: Option<&'a Value>) -> Self {
        self.relayed_for = client_info;
        self
    }

    /// The name this client's requests are made in: mur's own, or the relayed client's.
    fn client_info(&self) -> Value {
        self.relayed_for
            .cloned()
            .unwrap_or_else(request::client_info)
    }

    /// Ends the call once `cancel` holds `true`, as its timeout does: the request
    /// in flight is dropped (a server hears of that as its client closing the
    /// response), a task still running is cancelled and a legacy session ended.
    pub fn cancelled_by(mut self, cancel: tokio::sync::watch::Receiver<bool>) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// For a caller that lives on (the proxy): a legacy session is taken from
    /// `shared`, opened there by the first call that needs it and kept for the
    /// next, not ended with the call (module `shared`).
    pub fn sharing(mut self, shared: &'a SharedSession) -> Self {
        self.shared = Some(shared);
        self
    }

    /// For a caller reading `tools/list` pages: the entries of a reply's `result.tools`
    /// are kept in `page` as texts, never built as one `Value` ([`ToolEntry`]; a page so
    /// built cost 25–30 times its size), and the reply's `result` holds `"tools": null` in
    /// their place — but for a failed one (`isError`), which is shown whole. What else
    /// the reply holds, and every other message, is read as it would be.
    pub fn listing_into(mut self, page: &'a ToolPage) -> Self {
        self.tool_page = Some(page);
        self
    }

    /// The tool a `tools/call` calls, as `tools/list` described it.
    pub fn with_tool(mut self, tool: &'a Value) -> Self {
        self.tool = Some(tool);
        self
    }

    /// Sends `method` with `params` and returns the server's reply; never
    /// takes longer than `timeout` (what is left of the `--timeout`) plus the
    /// time the user took to answer questions, plus `FAREWELL_LIMIT` (500 ms),
    /// shared by the `tasks/cancel` of a task still running, and the
    /// `notifications/cancelled` of a request unanswered and the `DELETE`
    /// that end a legacy session.
    pub async fn call(
        &self,
        method: &str,
        params: Option<&Value>,
        timeout: Duration,
    ) -> Result<Reply> {
        // Pinned here, once: `bounded` taking the future by value held it
        // twice in this future's state (as its argument and pinned).
        let call = std::pin::pin!(self.call_unbounded(method, params));
        let outcome = self.bounded(call, timeout).await;
        // An answer, a failure, or the timeout having dropped the call in the
        // middle of a request: a task still running is cancelled, and a session
        // opened on the way is ended now, both within one allowance.
        let farewell = tokio::time::Instant::now() + FAREWELL_LIMIT;
        let unfinished = self.pending_task();
        let cancelled = self.cancel.as_ref().is_some_and(|c| *c.borrow());
        // Said to a server whose answer the call no longer waits for.
        let reason = match &outcome {
            None if cancelled => "the client cancelled the request",
            None => "the client's timeout passed",
            Some(_) => "the client ended the call before its answer",
        };
        self.cancel_task(farewell).await;
        self.end_session(farewell, reason).await;
        self.events.finish();
        match outcome {
            Some(outcome) => outcome,
            None if cancelled => Err(Error::transport(format!(
                "the call to `{}` was cancelled by its client",
                self.endpoint
            ))),
            None => {
                let unheard = unfinished.is_none() && !self.heard();
                self.out_of_time
                    .store(unheard, std::sync::atomic::Ordering::Relaxed);
                if let (Some((id, _)), Ok(mut outlasted)) = (&unfinished, self.outlasted.lock()) {
                    *outlasted = Some(response::snippet(id.as_bytes()));
                }
                Err(self.timed_out(unfinished))
            }
        }
    }

    /// For a call that ran out of time while its task still ran: the task's id
    /// (clipped, as its error names it). The tool ran, and the call asked the server
    /// to cancel the task on its way out (`tasks/cancel`): the caller says both, as
    /// the task's error alone said neither.
    pub fn outlasted_task(&self) -> Option<String> {
        self.outlasted.lock().ok()?.clone()
    }

    /// For a call that ran out of time without a word from the server (its error
    /// says it "did not answer", which leaves open whether the tool ran), how far
    /// its request went, asked after the call (a connection may write what was
    /// handed to it late): whether the server may have acted on it, which decides
    /// whether running it again is safe. `None` for any other call (one whose
    /// server sent progress, or ran it as a task, says it was running).
    pub fn cut_off(&self) -> Option<mur_http::Sent> {
        self.out_of_time
            .load(std::sync::atomic::Ordering::Relaxed)
            .then(|| self.delivery.sent())
    }

    /// Whether the call failed because the server closed the connection before its
    /// answer began (its process stopped or reloaded): the caller, who knows what was
    /// called as the user typed it, says so in those words, not the HTTP stack's.
    pub fn closed(&self) -> bool {
        self.delivery.was_closed()
    }

    /// How far the call's request went (a caller that stopped the call says whether
    /// the server had it).
    pub fn sent(&self) -> mur_http::Sent {
        self.delivery.sent()
    }

    /// A question marked [`SHARED_QUESTION`] that this client refused during
    /// the call, having no answer, worded as a hint: for the caller to add
    /// under the call's own failure. The call's reply is never replaced by it:
    /// the question may have been another request's (and answered there).
    pub fn refused_question(&self) -> Option<String> {
        self.refused.lock().ok()?.clone()
    }

    /// The `--answer` keys no question of this call had a field for, each with the
    /// asked field it is likely meant as: dropped unsaid, the question answered with
    /// its default or at the prompt. None when the call asked no question (a tool may
    /// ask only sometimes, and be given its answer beforehand).
    pub fn unused_answers(&self) -> Vec<Unused> {
        match self.fields.lock() {
            Ok(fields) => fields.unused(self.answers),
            Err(_) => Vec::new(),
        }
    }

    /// The error of a call out of time: a task the server still runs says
    /// so (the server answered every poll; the tool is what was slow), and
    /// what a bridge warned of comes first among the hints (its answer may
    /// have gone astray, which no longer timeout mends).
    fn timed_out(&self, unfinished: Option<(String, String)>) -> Error {
        let ms = milliseconds(self.budget);
        let message = match unfinished {
            Some((id, status)) => format!(
                "task {} at `{}` was still `{}` after {ms} ms",
                response::snippet(id.as_bytes()),
                self.endpoint,
                response::snippet(status.as_bytes()),
            ),
            None if self.heard() => format!(
                "the call to `{}` was still running after {ms} ms: the server had sent progress or log messages, not yet the answer",
                self.endpoint
            ),
            // Its headers came, and its body was still arriving (a large one, or one
            // that never ends): it answered, and did not finish.
            None if self.answering.load(std::sync::atomic::Ordering::Relaxed) => format!(
                "`{}` did not finish its answer within {ms} ms",
                self.endpoint
            ),
            None => format!("`{}` did not answer within {ms} ms", self.endpoint),
        };
        // How to lengthen the bound is the caller's to say: it knows where it was given.
        let error = Error::transport(message).out_of_bound();
        match self.bridge_said.lock().ok().and_then(|said| said.clone()) {
            Some(said) => error.with_first_hint(format!("the bridge said: {said}")),
            None => error,
        }
    }

    /// Whether the server sent this call anything (progress, a log message).
    fn heard(&self) -> bool {
        self.heard.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// `future`, or `None` once `timeout` has passed or the call is cancelled;
    /// time spent asking the user moves the bound out by as much.
    async fn bounded<T>(
        &self,
        mut future: std::pin::Pin<&mut impl Future<Output = T>>,
        timeout: Duration,
    ) -> Option<T> {
        let mut sleep = std::pin::pin!(tokio::time::sleep(timeout));
        let mut cancelled = std::pin::pin!(cancelled(self.cancel.clone()));
        loop {
            if let Ok(mut until) = self.until.lock() {
                *until = Some(sleep.deadline());
            }
            tokio::select! {
                out = &mut future => return Some(out),
                () = &mut cancelled => return None,
                () = &mut sleep => {
                    let asked = self
                        .asking
                        .lock()
                        .map(|mut a| std::mem::take(&mut *a))
                        .unwrap_or_default();
                    if asked.is_zero() {
                        return None;
                    }
                    let later = sleep.deadline() + asked;
                    sleep.as_mut().reset(later);
                }
            }
        }
    }

    /// The call, and when the server made a task of it, the task followed to
    /// its outcome (module `task`): a tool that runs only as a task
    /// (2025-11-25, which mur then calls as one), or any task of the
    /// 2026-07-28 extension, which mur declares.
    async fn call_unbounded(&self, method: &str, params: Option<&Value>) -> Result<Reply> {
        let augmented = self.as_task(method, params);
        let reply = self
            .negotiated(method, augmented.as_ref().or(params))
            .await?;
        self.follow(reply, augmented.is_some()).await
    }

    /// The call in the revision the server speaks: modern, after a `-32022`
    /// naming another, or in a legacy session.
    async fn negotiated(&self, method: &str, params: Option<&Value>) -> Result<Reply> {
        self.param_headers(method, params)?;
        if let Some(version) = self.protocol {
            tracing::debug!("speaking protocol {version} only (--protocol)");
            let reply = if version >= MODERN_VERSION {
                match self.modern(method, params, version).await? {
                    // Refused, yet named as supported: asked once more.
                    Step::Done(reply) if matches!(supported_instead(&reply), Some(Supported { newest: Some(named), .. }) if named == version) => {
                        match self.modern(method, params, version).await? {
                            Step::Done(reply) => reply,
                            Step::Legacy => return Err(self.not_speaking(version)),
                        }
                    }
                    Step::Done(reply) => reply,
                    Step::Legacy => return Err(self.not_speaking(version)),
                }
            } else {
                self.legacy(method, params, version).await?
            };
            return self.agreed(reply, version);
        }
        let first = self.modern(method, params, MODERN_VERSION).await?;
        let (reply, tried) = match first {
            Step::Done(reply) => match supported_instead(&reply) {
                Some(Supported {
                    newest: Some(version),
                    ..
                }) => (self.with_version(method, params, version).await?, version),
                Some(Supported { named, .. }) => {
                    return Err(self.unagreed(&reply, &named, MODERN_VERSION));
                }
                None => (reply, MODERN_VERSION),
            },
            Step::Legacy => (
                self.legacy(method, params, LEGACY_VERSION).await?,
                LEGACY_VERSION,
            ),
        };
        self.agreed(reply, tried)
    }

    /// `reply`, unless it is still a `-32022` naming the revisions the server
    /// supports (the one retry spent, or `--protocol`'s refused): then no
    /// revision was agreed and nothing ran, a transport error (exit 2), not the
    /// tool's failure. `tried` is the revision last offered.
    fn agreed(&self, reply: Reply, tried: &str) -> Result<Reply> {
        match supported_instead(&reply) {
            Some(Supported { named, .. }) => Err(self.unagreed(&reply, &named, tried)),
            None => Ok(reply),
        }
    }

    /// The error for a `-32022` naming the revisions the server supports (to
    /// revision `tried`, unless it says which it refused) that leaves none to
    /// speak: none of them mur's, or the one retry spent. `named`: the
    /// revisions it names.
    fn unagreed(&self, reply: &Reply, named: &[&str], tried: &str) -> Error {
        let (Reply::Error(error) | Reply::Result(error)) = reply;
        let requested = error["data"]["requested"].as_str().unwrap_or(tried);
        Error::transport(format!(
            "`{}` refused protocol revision {} (JSON-RPC error {UNSUPPORTED_PROTOCOL_VERSION}: {}); it \
             names as supported {}",
            self.endpoint,
            response::snippet(requested.as_bytes()),
            response::snippet(error["message"].as_str().unwrap_or_default().as_bytes()),
            revisions(named)
        ))
        .with_hint(format!("mur speaks {}", REVISIONS.join(", ")))
    }

    /// The one retry after `-32022`: modern form if the server supports a
    /// modern revision, otherwise the session form with its newest one.
    async fn with_version(
        &self,
        method: &str,
        params: Option<&Value>,
        version: &'static str,
    ) -> Result<Reply> {
        tracing::debug!("retrying with protocol version {version}");
        if version >= MODERN_VERSION {
            match self.modern(method, params, version).await? {
                Step::Done(reply) => Ok(reply),
                Step::Legacy => self.legacy(method, params, LEGACY_VERSION).await,
            }
        } else {
            self.legacy(method, params, version).await
        }
    }

    /// The error for a server that does not answer the `--protocol` revision.
    fn not_speaking(&self, version: &str) -> Error {
        Error::transport(format!(
            "`{}` does not answer the {version} revision (`--protocol`)",
            self.endpoint
        ))
    }

    /// The `Mcp-Param-*` headers of a `tools/call` of a known tool; a tool
    /// whose `x-mcp-header` declarations are invalid is not called.
    fn param_headers(&self, method: &str, params: Option<&Value>) -> Result<HeaderMap> {
        let Some(tool) = self.tool.filter(|_| method == "tools/call") else {
            return Ok(HeaderMap::new());
        };
        request::param_headers(tool, params.and_then(|p| p.get("arguments"))).map_err(|why| {
            Error::tool_failed(format!(
                "`{}` lists tool `{}` with an invalid x-mcp-header ({why}); mur does not call it",
                self.endpoint,
                tool["name"].as_str().unwrap_or_default()
            ))
        })
    }

    /// The `_meta` keys of this call's requests.
    fn meta(&self) -> CallMeta {
        CallMeta {
            progress_token: Some(PROGRESS_TOKEN.to_owned()),
            log_level: self.verbose.then_some(LOG_LEVEL),
            client_info: self.relayed_for.cloned(),
        }
    }

    /// A modern POST, and one more for each input-required result, with the
    /// answers to its questions and its request state, until the server
    /// completes the request.
    async fn modern(&self, method: &str, params: Option<&Value>, version: &str) -> Result<Step> {
        // A legacy session's request carries its method in the body alone.
        if let Some(why) = request::unsendable_method(method, version) {
            return Err(Error::usage(why));
        }
        // The caller's params, until a retry's answers replace them.
        let mut sent = params.map(std::borrow::Cow::Borrowed);
        let mut id = CALL_ID;
        loop {
            let body = request::modern_body(id, method, sent.as_deref(), version, &self.meta());
            let mut headers = request::modern_headers(method, sent.as_deref(), version);
            headers.extend(self.param_headers(method, sent.as_deref())?);
            tracing::debug!(
                "POST {} {} (protocol {version}, id {id})",
                self.endpoint,
                named(method, sent.as_deref())
            );
            let body = body.to_string();
            let size = Sent {
                body: body.len(),
                largest_header: request::largest_header(method, &headers),
            };
            let post = Request::post(self.endpoint)
                .headers(headers)
                .body(body)
                .tracked(&self.delivery);
            let response = self.send(request::marked(post, method)).await?;
            let status = response.status();
            let mut answer_headers = request::base_headers();
            request::insert(
                &mut answer_headers,
                request::HEADER_PROTOCOL_VERSION,
                version,
            );
            let answer = self.read(response, id, &answer_headers).await?;
            match classify(status, answer, self.endpoint, size)? {
                Step::Done(Reply::Result(asked)) if asked["resultType"] == "input_required" => {
                    let questions = asked["inputRequests"].as_object().map_or(0, Map::len);
                    self.admit(1, questions, || format!("`{method}`"))?;
                    sent = Some(std::borrow::Cow::Owned(self.answered(params, asked)?));
                    // A retry is a new request: a new id.
                    id += 1;
                }
                step => {
                    if matches!(&step, Step::Legacy)
                        || matches!(&step, Step::Done(reply) if supported_instead(reply).is_some())
                    {
                        // Refused before anything ran (no session, or not this
                        // revision): the tool call is the request sent next.
                        self.delivery.refused();
                    }
                    if let (Step::Done(_), Ok(mut spoken)) = (&step, self.spoken.lock()) {
                        *spoken = Some(version.to_owned());
                    }
                    return Ok(step);
                }
            }
        }
    }

    /// The original `params` again, with the answers to the input requests
    /// of `asked` (`inputResponses`) and its `requestState`, echoed exactly
    /// (moved out of `asked`, not copied).
    fn answered(&self, params: Option<&Value>, mut asked: Value) -> Result<Value> {
        let mut retry = match params {
            Some(Value::Object(map)) => map.clone(),
            _ => Map::new(),
        };
        if let Some(requests) = asked["inputRequests"].as_object() {
            retry.insert(
                "inputResponses".into(),
                Value::Object(self.responses(requests)?),
            );
        }
        if let Some(state) = asked
            .as_object_mut()
            .and_then(|asked| asked.remove("requestState"))
            .filter(|s| !s.is_null())
        {
            retry.insert("requestState".into(), state);
        }
        Ok(Value::Object(retry))
    }

    /// Counts `rounds` rounds (0 or 1) of `questions` questions more of this
    /// call, or ends it (exit 5) past [`MAX_ROUNDS`] or [`MAX_QUESTIONS`]; `of`
    /// names what asks.
    fn admit(&self, rounds: u64, questions: usize, of: impl FnOnce() -> String) -> Result<()> {
        let admitted = match self.asked.lock() {
            Ok(mut asked) => asked.admit(rounds, questions),
            Err(_) => Err(format!("{MAX_QUESTIONS} questions")),
        };
        admitted.map_err(|bound| {
            Error::tool_failed(format!(
                "`{}` was still asking for input after {bound} of {}",
                self.endpoint,
                of()
            ))
        })
    }

    /// The answers to `inputRequests` (an input-required result's, or a
    /// task's), by key: form questions only.
    fn responses<'v>(
        &self,
        requests: impl IntoIterator<Item = (&'v String, &'v Value)>,
    ) -> Result<Map<String, Value>> {
        let mut responses = Map::new();
        for (key, input) in requests {
            let method = input["method"].as_str().unwrap_or("(no method)");
            if method != "elicitation/create" {
                return Err(self.not_offered(method));
            }
            let response = self.answer(&input["params"])?;
            responses.insert(key.clone(), response.to_json());
        }
        Ok(responses)
    }

    /// The error for an input request of a kind mur does not offer (it
    /// declares no sampling and no roots, so a server should not ask).
    fn not_offered(&self, method: &str) -> Error {
        Error::tool_failed(format!(
            "`{}` asked mur for `{method}`, which mur does not offer (it declares no sampling \
             and no roots); the call was abandoned",
            self.endpoint
        ))
    }

    /// The answer to a question (`elicitation/create` params): from
    /// `--answer`, else from the user, else the error that ends the call.
    fn answer(&self, params: &Value) -> Result<Response> {
        if let Some(mode) = params["mode"].as_str().filter(|m| *m != "form") {
            return Err(Error::tool_failed(format!(
                "`{}` asks a `{mode}`-mode question (\"{}\"), which mur cannot answer: it \
                 answers form questions only",
                self.endpoint,
                params["message"].as_str().unwrap_or_default()
            )));
        }
        let question = Question::from_params(params);
        if let Ok(mut fields) = self.fields.lock() {
            fields.saw(&question, self.answers);
        }
        // A value that does not fit its field ends the call (exit 1), after the tool has
        // begun; what becomes of the question is said, as the user cannot see it: the
        // server is sent an error in its place (a question in a response stream), a
        // task waiting on it is cancelled, and a stateless server holds nothing for it.
        let answered = question.answer_from(self.answers).map_err(|e| {
            e.with_hint(
                "mur refused the question and ended the call: the tool does not wait on an \
                 answer",
            )
        })?;
        if let Some(response) = answered {
            tracing::debug!("answered from --answer: {}", response.to_json());
            return Ok(response);
        }
        let started = Instant::now();
        let asked = self.events.ask(&question);
        if let Ok(mut asking) = self.asking.lock() {
            *asking += started.elapsed();
        }
        asked.ok_or_else(|| {
            if self.relayed_for.is_some() {
                // `--answer` and a terminal are nothing to the client behind the proxy.
                return Error::tool_failed(format!(
                    "`{}` asks \"{}\" and the client could not be asked: it declared no \
                     `elicitation` capability (or its input ended)",
                    self.endpoint, question.message
                ));
            }
            let error = Error::tool_failed(format!(
                "`{}` asks \"{}\" and mur has no answer: no `--answer` answers it, and stdin \
                 and stderr are not both a terminal to ask on",
                self.endpoint, question.message
            ))
            .with_hint(format!("answer it with {}", question.answer_options()));
            // First, in the order given: the likely cause.
            question
                .unknown_keys(self.answers)
                .into_iter()
                .rev()
                .fold(error, Error::with_first_hint)
        })
    }

    fn reader(&self) -> Reader<'a> {
        Reader {
            endpoint: self.endpoint,
            limit: self.limit,
            listing: self.tool_page.is_some(),
        }
    }

    /// Reads `response` down to the reply with `id`: notifications are
    /// reported, requests from the server answered (with `headers`) as they
    /// come.
    async fn read(
        &self,
        response: reqwest::Response,
        id: u64,
        headers: &HeaderMap,
    ) -> Result<Answer> {
        // An answer's body, not a stream of events (where the answer is one event of
        // many, and a stream open is no answer begun): in until it is read.
        let answering = !response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| mur_http::media_type_is(ct, "text/event-stream"));
        let flag = std::sync::atomic::Ordering::Relaxed;
        self.answering.store(answering, flag);
        // Left set only when the timeout drops this future while the body comes in.
        let opened = self.reader().open(response).await;
        self.answering.store(false, flag);
        let mut incoming = opened?;
        let mut stray = None;
        let mut other = None;
        while let Some(message) = incoming.next().await? {
            match Message::of(message, id) {
                Message::Reply(Reply::Error(e)) if e["data"][UNREADABLE_ANSWER] == true => {
                    // An `error:` line is cut at 2,000 characters where it is printed.
                    let said = e["message"].as_str().unwrap_or("(no message)");
                    return Err(Error::transport(format!("`{}`: {said}", self.endpoint)));
                }
                Message::Reply(reply) => {
                    let reply = self.listed(reply, incoming.take_tools());
                    return Ok(Answer::Reply(reply));
                }
                Message::Malformed(why) => {
                    return Err(Error::transport(format!(
                        "`{}` answered request {id} with a malformed JSON-RPC response: {why}",
                        self.endpoint
                    )));
                }
                Message::OtherReply(to) => {
                    other.get_or_insert(to);
                }
                // Boxed, as the server's questions are rare: the call's
                // future stays small without them.
                Message::Request(request) => Box::pin(self.serve(&request, headers)).await?,
                Message::Notification { method, params } => self.notified(&method, &params),
                Message::StrayError(error) => {
                    stray.get_or_insert(error);
                }
                Message::Other => {}
            }
        }
        let instead = incoming
            .unreadable()
            .map(str::to_owned)
            .or_else(|| other.map(|to: Option<Value>| response::other_reply(to.as_ref(), id)));
        Ok(Answer::Other {
            error: stray,
            text: incoming.text().to_owned(),
            stream: incoming.was_stream(),
            resume: incoming.resume_point(),
            instead,
        })
    }

    /// `reply`, the `tools` entries of its `result` kept apart as texts (`entries`) put in
    /// the caller's page ([`Client::listing_into`]), each reply read replacing the last's:
    /// the call's outcome is the last. A failed result (`isError`) gets its array back,
    /// to be shown whole as any failure is.
    fn listed(&self, reply: Reply, entries: Option<Vec<ToolEntry>>) -> Reply {
        let Some(page) = self.tool_page else {
            return reply;
        };
        match (reply, entries) {
            (Reply::Result(mut result), Some(entries)) if tool_result::is_error(&result) => {
                let tools = entries
                    .iter()
                    .filter_map(|entry| serde_json::from_str(&entry.text).ok())
                    .collect();
                result["tools"] = Value::Array(tools);
                page.keep(None);
                Reply::Result(result)
            }
            (reply, entries) => {
                page.keep(entries);
                reply
            }
        }
    }

    /// Reports a notification: our progress, a log message; skips the rest.
    fn notified(&self, method: &str, params: &Value) {
        // A bridge's own warning is no word of the server's: the call was not heard.
        if !(method == "notifications/message" && self.bridge_warned(params)) {
            self.heard.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        match method {
            "notifications/progress" if params["progressToken"] == PROGRESS_TOKEN => {
                if let Some(progress) = Progress::from_params(params) {
                    self.events.progress(&progress);
                }
            }
            "notifications/message" => self.events.log(&LogMessage::from_params(params)),
            "notifications/tasks/status" => self.notified_task(params),
            _ => tracing::debug!("skipped notification `{method}`"),
        }
    }

    /// Whether the log message `params` is a bridge's own warning
    /// ([`BRIDGE_LOGGER`]); the first is kept, one clipped line, escaped, for
    /// the error of a call out of time.
    fn bridge_warned(&self, params: &Value) -> bool {
        let warning = matches!(
            params["level"].as_str(),
            Some("warning" | "error" | "critical" | "alert" | "emergency")
        );
        if params["logger"] != BRIDGE_LOGGER || !warning {
            return false;
        }
        if let Ok(mut said) = self.bridge_said.lock() {
            said.get_or_insert_with(|| {
                let text = LogMessage::from_params(params).text();
                let line = response::clip(text.as_bytes(), BRIDGE_SAID_CHARS);
                mur_core::text::escape_controls(&line).into_owned()
            });
        }
        true
    }

    /// Answers a request from the server: a question with its answer (or,
    /// when there is none, an error, and the call ends — unless the question
    /// may be another request's, [`SHARED_QUESTION`]: then the call waits on
    /// for its own result), `ping` with `{}`, anything else (sampling, roots,
    /// …) declined with "method not found".
    async fn serve(&self, request: &ServerRequest, headers: &HeaderMap) -> Result<()> {
        let method = request.method.as_str();
        tracing::debug!("the server asks `{method}` ({})", request.id);
        let (answer, outcome) = match method {
            // Past the call's bound, refused and the call ends, shared or not.
            "elicitation/create" => match self.admit(0, 1, || "the call".to_owned()) {
                Err(e) => (
                    Err((
                        // "Internal error": how mur answers a question it could not ask.
                        INTERNAL_ERROR,
                        format!("mur answers no more: {}", e.message()),
                    )),
                    Err(e),
                ),
                Ok(()) => self.answered_question(request),
            },
            "ping" => (Ok(json!({})), Ok(())),
            other => (
                Err((
                    // "Method not found": how mur declines a request it does not offer.
                    METHOD_NOT_FOUND,
                    format!(
                        "mur does not offer `{other}`: it is a command-line client with no model \
                         to sample and no roots to list"
                    ),
                )),
                Ok(()),
            ),
        };
        let body = match answer {
            Ok(result) => jsonrpc::result(request.id.clone(), result),
            Err((code, message)) => jsonrpc::error(request.id.clone(), code, &message),
        };
        let post = Request::post(self.endpoint)
            .headers(headers.clone())
            .body(body.to_string());
        match self.http.send(self.authorize(post)).await {
            Ok(r) => tracing::debug!("the answer to `{method}` got HTTP {}", r.status()),
            Err(e) => tracing::debug!("sending the answer to `{method}` failed: {e}"),
        }
        outcome
    }

    /// A question's answer for the server, and what becomes of the call: an
    /// answer goes back and the call goes on; without one the question is refused
    /// and the call ends — unless it may be another request's ([`SHARED_QUESTION`]):
    /// then the call waits on for its own result.
    fn answered_question(&self, request: &ServerRequest) -> Served {
        match self.answer(&request.params) {
            Ok(response) => (Ok(response.to_json()), Ok(())),
            Err(e) => {
                // "Internal error", as for a question past the call's bound ([`Self::serve`]).
                let refusal = (
                    INTERNAL_ERROR,
                    format!("mur has no answer: {}", e.message()),
                );
                let shared = request.params["_meta"][SHARED_QUESTION] == true;
                if shared && e.kind() == mur_core::Kind::ToolFailed {
                    tracing::debug!(
                        "a question that may be another request's, and no answer: refused; waiting on"
                    );
                    if let Ok(mut refused) = self.refused.lock() {
                        refused.get_or_insert_with(|| self.refusal_hint(&request.params, &e));
                    }
                    (Err(refusal), Ok(()))
                } else {
                    (Err(refusal), Err(e))
                }
            }
        }
    }

    /// The hint naming a shared question refused for want of an answer
    /// (`error`, with its own hints: the `--answer` that would answer it).
    fn refusal_hint(&self, params: &Value, error: &Error) -> String {
        let question = params["message"].as_str().unwrap_or_default();
        let mut hint = format!(
            "`{}` asked \"{}\" during this call, and mur, with no answer, refused it as a \
             question that may be another call's",
            self.endpoint,
            response::snippet(question.as_bytes())
        );
        if !error.hints().is_empty() {
            hint.push_str(&format!(
                " (if it was this call's: {})",
                error.hints().join("; ")
            ));
        }
        hint
    }

    /// `request` with what lets it in: the session's secret, or the OAuth token.
    fn authorize(&self, request: Request) -> Request {
        match self.access {
            Access::OAuth { .. } => self.auth.authorize(request),
            Access::Session {
                secret: Some(secret),
                ..
            } => self.telling_the_wait(request.bearer(secret)),
            Access::Session { secret: None, .. } => request,
        }
    }

    /// `request` to a bridge, saying how long the call still waits ([`WAIT_HEADER`]).
    fn telling_the_wait(&self, request: Request) -> Request {
        let Some(until) = self.until.lock().ok().and_then(|until| *until) else {
            return request;
        };
        let asked = self.asking.lock().map(|a| *a).unwrap_or_default();
        let left = (until + asked).saturating_duration_since(tokio::time::Instant::now());
        request.header(
            reqwest::header::HeaderName::from_static(WAIT_HEADER),
            u64::try_from(left.as_millis()).unwrap_or(u64::MAX).into(),
        )
    }

    /// Sends a request (with the OAuth token, authorizing on a 401; or with the
    /// session's secret); a redirect is an error, never followed.
    async fn send(&self, request: Request) -> Result<reqwest::Response> {
        let response = match self.access {
            Access::OAuth { bridge } => {
                let person = auth::Person {
                    events: self.events,
                    budget: self.budget,
                    waited: &self.asking,
                };
                let response = self.auth.send(self.http, &person, request).await?;
                if response::refused_by_a_bridge(&response) {
                    return Err(Error::transport(format!(
                        "`{}` refused mur's request (HTTP 401): it is a bridge (`mur devtools \
                         bridge`), which takes requests only with its secret, and mur has none \
                         for it",
                        self.endpoint
                    ))
                    .with_hint(bridge));
                }
                response
            }
            Access::Session { secret, refused } => {
                let response = self
                    .http
                    .send(self.authorize(request))
                    .await
                    .map_err(|e| response::unreached(self.endpoint, &e, false))?;
                if response.status() == StatusCode::UNAUTHORIZED {
                    let what = match secret {
                        // Not sent at all (`Request::bearer` leaves it out).
                        Some(secret)
                            if reqwest::header::HeaderValue::from_str(&format!(
                                "Bearer {secret}"
                            ))
                            .is_err() =>
                        {
                            "the secret mur has for it holds bytes no HTTP header can carry, so \
                             mur sent none"
                        }
                        Some(_) => "the bridge did not take the secret mur sent",
                        // Only a bridge's 401 says it wants a secret: another is a
                        // refusal, said as such (the hint says what mur knows).
                        None if response::refused_by_a_bridge(&response) => {
                            "it is a bridge (`mur devtools bridge`), which takes requests only \
                             with its secret, and mur has none for it"
                        }
                        None => "mur has no secret for it, and sent none",
                    };
                    return Err(Error::transport(format!(
                        "`{}` refused mur's request (HTTP 401): {what}",
                        self.endpoint
                    ))
                    .with_hint(refused));
                }
                response
            }
        };
        let status = response.status();
        if status.is_redirection() {
            let location = response
                .headers()
                .get(LOCATION)
                .map(|v| match v.to_str() {
                    Ok(text) => format!("to `{}`", response::snippet(text.as_bytes())),
                    Err(_) => "to an unreadable `Location`".to_owned(),
                })
                .unwrap_or_else(|| "without a `Location`".to_owned());
            return Err(Error::transport(format!(
                "`{}` answered HTTP {status}, a redirect {location}; mur never follows redirects",
                self.endpoint
            ))
            .with_hint(
                "point mur at the session's own endpoint (`mur devtools session list` shows it)",
            ));
        }
        Ok(response)
    }
}

/// `method` as `-v` names a request: a `tools/call` with its tool's name (never
/// its arguments, which may hold secrets), one line.
fn named(method: &str, params: Option<&Value>) -> String {
    match params.and_then(|p| p["name"].as_str()) {
        Some(tool) if method == "tools/call" => {
            format!("{method} `{}`", mur_core::text::escape_controls(tool))
        }
        _ => method.to_owned(),
    }
}

/// What goes back to a request of the server's (a result, or an error's code and
/// message), and what becomes of the call.
type Served = (std::result::Result<Value, (i64, String)>, Result<()>);

/// Where a modern POST leaves us.
enum Step {
    Done(Reply),
    Legacy,
}

/// A session's cap on a request's body (4 MiB), said as such, on either protocol's
/// path: its own words ("Invalid Request") read as a fault of mur's. The request of
/// `sent` bytes is the caller's input, too large as mur itself refuses a value read
/// past 4 MiB (exit 1): as a transport fault (exit 2) a script retried it unchanged.
fn refused_as_too_large(endpoint: &str, sent: usize) -> Error {
    Error::usage(format!(
        "`{endpoint}` refused the request of {sent} bytes as larger than it takes \
         (HTTP 413; a session of mur's takes at most 4 MiB, {MAX} bytes, in one)",
        MAX = mur_lockfile::endpoint::MAX_REQUEST_BYTES
    ))
}

/// A modern POST as sent, for a server that refuses it as too large.
#[derive(Debug, Default)]
struct Sent {
    /// The body's size in bytes.
    body: usize,
    /// The largest header, in words ([`request::largest_header`]).
    largest_header: Option<String>,
}

/// A session's cap on a request's headers (64 KiB for mur's), said as its cap on a body
/// is ([`refused_as_too_large`]): what overflows them is the caller's input (a tool's
/// name, an argument mirrored in a header), a usage error (exit 1), not a transport fault.
fn refused_headers_as_too_large(endpoint: &str, largest: Option<String>) -> Error {
    Error::usage(format!(
        "`{endpoint}` refused the request's headers as larger than it takes (HTTP 431){}",
        largest.map(|l| format!(": {l}")).unwrap_or_default()
    ))
}

/// Decides what a modern POST's answer means: our reply (even on 4xx, as
/// modern servers send errors with 400/404); a legacy server (400 or 404
/// without a reply to us); or a malformed answer (exit 2).
fn classify(status: StatusCode, answer: Answer, endpoint: &str, sent: Sent) -> Result<Step> {
    match answer {
        Answer::Reply(reply) => Ok(Step::Done(reply)),
        Answer::Other { .. } if status == StatusCode::PAYLOAD_TOO_LARGE => {
            Err(refused_as_too_large(endpoint, sent.body))
        }
        Answer::Other { .. } if status == StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => {
            Err(refused_headers_as_too_large(endpoint, sent.largest_header))
        }
        Answer::Other { .. }
            if matches!(status, StatusCode::BAD_REQUEST | StatusCode::NOT_FOUND) =>
        {
            tracing::debug!("HTTP {status} without a modern reply: trying a legacy session");
            Ok(Step::Legacy)
        }
        Answer::Other {
            error: Some(error), ..
        } => Err(Error::transport(format!(
            "`{endpoint}` answered HTTP {status} with an error for no request of ours: {}",
            error["message"].as_str().unwrap_or("(no message)")
        ))),
        Answer::Other {
            instead: Some(instead),
            ..
        } if status.is_success() => Err(Error::transport(format!("`{endpoint}` {instead}"))),
        Answer::Other { stream: true, .. } => Err(Error::transport(format!(
            "`{endpoint}` ended the event stream without answering"
        ))),
        Answer::Other { text, .. } if status.is_success() => Err(Error::transport(format!(
            "`{endpoint}` answered without a JSON-RPC response: {}",
            if text.is_empty() {
                "(empty body)"
            } else {
                &text
            }
        ))),
        Answer::Other { text, .. } => Err(Error::transport(format!(
            "`{endpoint}` answered HTTP {status}{}",
            if text.is_empty() {
                String::new()
            } else {
                format!(": {text}")
            }
        ))),
    }
}

/// What a bridge's answer says of the questions shared between its requests in
/// flight ([`ANSWERED_SHARED`], [`ANSWERED_ELSEWHERE`]), as `note:` lines for the
/// caller's stderr: over stdio nothing says which request a question is for, so a
/// call may have answered another's question with its `--answer`, or gone on with
/// an answer another call gave — which its result alone does not show.
pub fn question_notes(reply: &Reply) -> Vec<String> {
    let Reply::Result(result) = reply else {
        return Vec::new();
    };
    let count = |key: &str| result["_meta"][key].as_u64().filter(|n| *n > 0);
    let questions = |n: u64| match n {
        1 => "a question".to_owned(),
        n => format!("{n} questions"),
    };
    let mut notes = Vec::new();
    if let Some(n) = count(ANSWERED_SHARED) {
        notes.push(format!(
            "note: this call answered {} of the server that another call in flight on its \
             bridge may have asked (stdio does not say which call asks); if so, that call \
             went on with this call's answers",
            questions(n)
        ));
    }
    if let Some(n) = count(ANSWERED_ELSEWHERE) {
        notes.push(format!(
            "note: another call on this bridge answered {} of the server asked while this \
             call was in flight (stdio does not say which call asks); if this call asked, \
             its result carries that call's answers",
            questions(n)
        ));
    }
    notes
}

/// What a `-32022` names as supported.
#[derive(Debug, Clone, PartialEq)]
struct Supported<'a> {
    /// The newest revision it names that mur speaks, to retry with.
    newest: Option<&'static str>,
    /// All it names (strings only), for the error when none is left to speak.
    named: Vec<&'a str>,
}

/// What `reply` names as supported, when it is a `-32022` (naming some or none): the
/// version to retry with is the newest of them mur speaks ([`REVISIONS`]; the
/// one just refused too, if the server names it: the retry happens once, so
/// a server that refuses it again gets no loop). A string a server names is
/// never sent back unless it is one of mur's own.
fn supported_instead(reply: &Reply) -> Option<Supported<'_>> {
    let Reply::Error(error) = reply else {
        return None;
    };
    if error["code"].as_i64() != Some(UNSUPPORTED_PROTOCOL_VERSION) {
        return None;
    }
    // A refusal that lists none (no `data`, or `supported` no list) names none: no
    // revision was agreed and nothing ran, as with an empty list — not the tool's
    // failure (it was taken for one, exit 5).
    let named: Vec<&str> = error["data"]["supported"]
        .as_array()
        .map(|listed| listed.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let newest = REVISIONS
        .iter()
        .copied()
        .find(|known| named.contains(known));
    Some(Supported { newest, named })
}

/// The revisions a server names, for an error: each one short line, at most 5.
fn revisions(named: &[&str]) -> String {
    const SHOWN: usize = 5;
    if named.is_empty() {
        return "no revision".to_owned();
    }
    let mut shown: Vec<String> = named
        .iter()
        .take(SHOWN)
        .map(|name| format!("`{}`", response::snippet(name.as_bytes())))
        .collect();
    if named.len() > SHOWN {
        shown.push(format!("{} more", named.len() - SHOWN));
    }
    shown.join(", ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A runtime on this thread, for a test to run a client's calls on.
    pub(crate) fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
    }

    /// `client`'s `tools/call` with `params` within `timeout`, on a runtime of its own.
    pub(crate) fn call_tool(client: &Client, params: &Value, timeout: Duration) -> Result<Reply> {
        runtime().block_on(client.call("tools/call", Some(params), timeout))
    }

    /// A bound is said as it was applied, its half millisecond too.
    #[test]
    fn a_bound_is_said_in_milliseconds_with_its_fraction() {
        for (micros, said) in [
            (300_000, "300"),
            (451_500, "451.5"),
            (1_500, "1.5"),
            (1_250, "1.25"),
        ] {
            assert_eq!(milliseconds(Duration::from_micros(micros)), said);
        }
    }

    #[test]
    fn a_bridges_word_on_shared_questions_is_a_note_each() {
        let reply = |meta: Value| Reply::Result(json!({ "content": [], "_meta": meta }));
        assert_eq!(
            question_notes(&reply(json!({ ANSWERED_SHARED: 1, ANSWERED_ELSEWHERE: 2 }))),
            [
                "note: this call answered a question of the server that another call in flight \
                 on its bridge may have asked (stdio does not say which call asks); if so, that \
                 call went on with this call's answers",
                "note: another call on this bridge answered 2 questions of the server asked while \
                 this call was in flight (stdio does not say which call asks); if this call \
                 asked, its result carries that call's answers",
            ]
        );
        for quiet in [json!({}), json!({ ANSWERED_SHARED: 0 }), json!("x")] {
            assert!(question_notes(&reply(quiet)).is_empty());
        }
        assert!(
            question_notes(&Reply::Error(json!({ "_meta": { ANSWERED_SHARED: 1 } }))).is_empty()
        );
    }

    /// One HTTP request read from `stream`: its body.
    fn read_request(stream: &mut std::net::TcpStream) -> String {
        use std::io::Read as _;
        let mut bytes = Vec::new();
        let mut byte = [0u8; 1];
        while !bytes.ends_with(b"\r\n\r\n") {
            stream.read_exact(&mut byte).expect("a request's head");
            bytes.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&bytes).to_lowercase();
        let length = head
            .lines()
            .find_map(|line| line.strip_prefix("content-length:"))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0);
        let mut body = vec![0u8; length];
        stream.read_exact(&mut body).expect("a request's body");
        String::from_utf8(body).expect("utf-8 body")
    }

    /// The settings of a test's call to `endpoint`: 20 s, 1 MiB, quiet.
    fn settings(endpoint: &str) -> Settings {
        Settings::quiet_call(endpoint, Duration::from_secs(20), 1 << 20)
    }

    /// One rule bounds a call's questions however they come: rounds (an
    /// input-required result, a task waiting) up to [`MAX_ROUNDS`], questions (those
    /// and a response stream's, round or not) up to [`MAX_QUESTIONS`].
    #[test]
    fn a_call_answers_within_its_rounds_and_questions() {
        let mut asked = Asked::default();
        for _ in 0..MAX_ROUNDS {
            assert_eq!(asked.admit(1, 1), Ok(()));
        }
        assert_eq!(asked.admit(1, 0), Err(format!("{MAX_ROUNDS} rounds")));
        assert_eq!(
            asked.admit(0, 1),
            Ok(()),
            "a question in a stream is no round"
        );
        let mut asked = Asked::default();
        assert_eq!(asked.admit(1, MAX_QUESTIONS - 1), Ok(()));
        assert_eq!(asked.admit(0, 1), Ok(()));
        assert_eq!(asked.admit(0, 1), Err(format!("{MAX_QUESTIONS} questions")));
        assert_eq!(
            asked.admit(1, usize::MAX),
            Err(format!("{MAX_QUESTIONS} questions"))
        );
    }

    /// An input-required result's `requestState` (opaque, any size) goes back
    /// in the retry as the same allocation: moved, not copied.
    #[test]
    fn an_input_required_state_is_moved_into_the_retry_not_copied() {
        let endpoint = "http://127.0.0.1:9/mcp";
        let settings = settings(endpoint);
        let http = Http::new();
        let client = Client::new(&http, endpoint, &settings);
        let asked = json!({ "resultType": "input_required", "requestState": "s".repeat(1 << 16) });
        let before = asked["requestState"].as_str().map(str::as_ptr);
        let params = json!({ "name": "t", "arguments": {} });
        let retry = client.answered(Some(&params), asked).expect("a retry");
        assert_eq!(retry["name"], "t");
        assert_eq!(retry["requestState"].as_str().map(str::as_ptr), before);
    }

    /// A client (and so its access) can be logged: its `Debug` says whether it
    /// holds a secret, never the secret.
    #[test]
    fn the_debug_of_an_access_hides_the_secret() {
        let access = Access::Session {
            secret: Some("35b9c0ffee"),
            refused: "the hint",
        };
        let shown = format!("{access:?}");
        assert!(!shown.contains("35b9c0ffee"), "{shown}");
        assert_eq!(
            shown,
            r#"Session { secret: Some("…"), refused: "the hint" }"#
        );
        let none = Access::Session {
            secret: None,
            refused: "",
        };
        assert_eq!(
            format!("{none:?}"),
            r#"Session { secret: None, refused: "" }"#
        );
    }

    /// Only a Bearer challenge of the bridge's realm is a bridge's 401: any other
    /// (an OAuth server's) still gets the OAuth flow.
    #[test]
    fn a_bridges_challenge_is_told_by_its_realm() {
        for bridge in [
            r#"Bearer realm="mur-bridge""#,
            r#"bearer realm=mur-bridge"#,
            r#"Bearer error="invalid_token", realm="mur-bridge""#,
        ] {
            assert!(response::names_the_bridge_realm(bridge), "{bridge}");
        }
        for other in [
            r#"Bearer realm="mcp""#,
            r#"Bearer resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource""#,
            r#"Basic realm="mur-bridge""#,
            "Bearer",
            r#"Bearer realm="mur-bridge-x""#,
        ] {
            assert!(!response::names_the_bridge_realm(other), "{other}");
        }
    }

    /// A call that refused a question a bridge marked shared, then got a
    /// failure of its own, keeps that failure as its reply (the question may
    /// have been another call's); the refused question is there for a hint.
    #[test]
    fn a_refused_shared_question_leaves_the_calls_own_failure_as_it_came() {
        use std::io::Write as _;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let endpoint = format!("http://{}/mcp", listener.local_addr().expect("address"));
        let server = std::thread::spawn(move || {
            let (mut call, _) = listener.accept().expect("the call");
            read_request(&mut call);
            let question = json!({
                "jsonrpc": "2.0", "id": "q1", "method": "elicitation/create",
                "params": {
                    "message": "Who is there?",
                    "requestedSchema": {
                        "type": "object",
                        "properties": { "name": { "type": "string" } },
                        "required": ["name"],
                    },
                    "_meta": { SHARED_QUESTION: true },
                },
            });
            write!(
                call,
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n\
                 data: {question}\n\n"
            )
            .expect("the question");
            call.flush().expect("flush");
            // The refusal comes first; then the call's own result, a failure.
            let (mut answer, _) = listener.accept().expect("the refusal");
            let refusal = read_request(&mut answer);
            answer
                .write_all(
                    b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                )
                .expect("202");
            let failed = json!({
                "jsonrpc": "2.0", "id": CALL_ID,
                "result": { "isError": true, "content": [{ "type": "text", "text": "own failure" }] },
            });
            write!(call, "data: {failed}\n\n").expect("the result");
            refusal
        });
        let settings = settings(&endpoint);
        let http = Http::new();
        let client = Client::new(&http, &endpoint, &settings);
        let params = json!({ "name": "slow", "arguments": {} });
        let reply = call_tool(&client, &params, settings.timeout);
        let refusal: Value =
            serde_json::from_str(&server.join().expect("server")).expect("JSON refusal");
        assert_eq!(refusal["id"], "q1");
        assert_eq!(refusal["error"]["code"], INTERNAL_ERROR);
        assert_eq!(
            reply.expect("the call's own reply"),
            Reply::Result(
                json!({ "isError": true, "content": [{ "type": "text", "text": "own failure" }] })
            )
        );
        assert_eq!(
            client.refused_question().as_deref(),
            Some(
                format!(
                    "`{endpoint}` asked \"Who is there?\" during this call, and mur, with no \
                     answer, refused it as a question that may be another call's (if it was this \
                     call's: answer it with `--answer name=TEXT`)"
                )
                .as_str()
            )
        );
    }

    #[test]
    fn the_newest_other_supported_version_mur_speaks_is_chosen() {
        let refused = |supported: Value| {
            Reply::Error(json!({
                "code": -32022, "message": "Unsupported protocol version",
                "data": { "requested": "2026-07-28", "supported": supported }
            }))
        };
        let reply = refused(json!(["2025-06-18", "2099-01-01", "2025-11-25"]));
        assert_eq!(
            supported_instead(&reply).and_then(|s| s.newest),
            Some("2025-11-25")
        );
        let reply = refused(json!(["1999-01-01", "\u{1b}[31mevil\nerror: x", 7]));
        assert_eq!(
            supported_instead(&reply),
            Some(Supported {
                newest: None,
                named: vec!["1999-01-01", "\u{1b}[31mevil\nerror: x"]
            })
        );
        assert_eq!(
            supported_instead(&Reply::Error(json!({ "code": -32601 }))),
            None
        );
        // Listing none, as an empty list does: no revision was agreed (exit 2).
        let none = Supported {
            newest: None,
            named: Vec::new(),
        };
        for listing in [json!({}), json!({ "supported": "2025-11-25" })] {
            let reply = Reply::Error(json!({ "code": -32022, "message": "no", "data": listing }));
            assert_eq!(supported_instead(&reply), Some(none.clone()), "{listing}");
        }
        let bare = Reply::Error(json!({ "code": -32022, "message": "Unsupported" }));
        assert_eq!(supported_instead(&bare), Some(none));
        assert_eq!(
            revisions(&["a", "b\nc", "d", "e", "f", "g", "h"]),
            "`a`, `b c`, `d`, `e`, `f`, 2 more"
        );
    }

    #[test]
    fn a_modern_error_on_404_is_the_reply_not_a_legacy_hint() {
        let reply = Reply::Error(json!({ "code": -32601, "message": "Method not found" }));
        let step = classify(
            StatusCode::NOT_FOUND,
            Answer::Reply(reply.clone()),
            "e",
            Sent::default(),
        )
        .expect("reply");
        assert!(matches!(step, Step::Done(r) if r == reply));
    }

    #[test]
    fn a_400_without_our_reply_means_legacy() {
        let other = Answer::Other {
            error: Some(json!({ "code": -32000 })),
            text: String::new(),
            stream: false,
            resume: None,
            instead: None,
        };
        assert!(matches!(
            classify(StatusCode::BAD_REQUEST, other, "e", Sent::default()),
            Ok(Step::Legacy)
        ));
    }

    #[test]
    fn a_500_is_a_transport_error() {
        let other = Answer::Other {
            error: None,
            text: "boom".into(),
            stream: false,
            resume: None,
            instead: None,
        };
        let err = classify(
            StatusCode::INTERNAL_SERVER_ERROR,
            other,
            "e",
            Sent::default(),
        )
        .err()
        .expect("error");
        assert_eq!(err.exit_code(), 2);
        assert!(err.message().contains("HTTP 500"));
    }

    /// A client reading `tools/list` pages (`listing_into`) over a real loopback
    /// connection: from a JSON body and from an event stream (a notification first) alike,
    /// the reply's `result` holds `"tools": null` and the page each entry as its
    /// `Value`'s text with its name (one without a name, a key given twice: the last); a
    /// failed result keeps its array, shown whole; a page past the response limit is
    /// refused as any body is, not read further.
    #[test]
    fn a_tool_lists_page_is_kept_as_texts_from_json_and_sse_and_bounded() {
        use std::io::Write as _;
        let page = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"first","inputSchema":{"type":"object","properties":{"z":{},"a":{}}}},{"description":"no name"},{"name":"x","name":"late"}],"nextCursor":"2"}}"#;
        let failed = r#"{"jsonrpc":"2.0","id":1,"result":{"isError":true,"tools":[{"name":"a"}],"content":[]}}"#;
        let huge = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{}{{"name":"last"}}]}}}}"#,
            r#"{"name":"t","description":"padding"},"#.repeat(40_000)
        );
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let endpoint = format!("http://{}/mcp", listener.local_addr().expect("address"));
        let server = std::thread::spawn(move || {
            let answers = [
                format!("Content-Type: application/json\r\n\r\n{page}"),
                format!(
                    "Content-Type: text/event-stream\r\n\r\n\
                     data: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":\"listing\"}}}}\n\n\
                     data: {page}\n\n"
                ),
                format!("Content-Type: application/json\r\n\r\n{failed}"),
                format!("Content-Type: application/json\r\n\r\n{huge}"),
            ];
            for answer in answers {
                let (mut call, _) = listener.accept().expect("a call");
                read_request(&mut call);
                // The last is cut off by the client at its limit: its write may fail.
                let _ = write!(call, "HTTP/1.1 200 OK\r\nConnection: close\r\n{answer}");
            }
        });
        let settings = settings(&endpoint);
        let http = Http::new();
        let runtime = runtime();
        let list = |page: &ToolPage| {
            let client = Client::new(&http, &endpoint, &settings).listing_into(page);
            runtime.block_on(client.call("tools/list", None, settings.timeout))
        };
        let entry = |text: &str, name: Option<&str>| ToolEntry {
            text: text.into(),
            name: name.map(str::to_owned),
        };
        let entries = vec![
            entry(
                r#"{"name":"first","inputSchema":{"type":"object","properties":{"z":{},"a":{}}}}"#,
                Some("first"),
            ),
            entry(r#"{"description":"no name"}"#, None),
            entry(r#"{"name":"late"}"#, Some("late")),
        ];
        for body in ["JSON", "SSE"] {
            let page = ToolPage::default();
            let reply = list(&page).unwrap_or_else(|e| panic!("{body}: {e}"));
            assert_eq!(
                reply,
                Reply::Result(json!({ "tools": null, "nextCursor": "2" })),
                "{body}"
            );
            assert_eq!(page.take(), Some(entries.clone()), "{body}");
        }
        let page = ToolPage::default();
        assert_eq!(
            list(&page).expect("a failed list"),
            Reply::Result(json!({ "isError": true, "tools": [{ "name": "a" }], "content": [] }))
        );
        assert_eq!(page.take(), None);
        let page = ToolPage::default();
        let refused = list(&page).expect_err("past the limit");
        assert_eq!(
            refused.message(),
            format!(
                "`{endpoint}` sent a response larger than 1 MiB, mur's response limit; it was \
                 not read further"
            )
        );
        assert_eq!(page.take(), None);
        server.join().expect("server");
    }
}
