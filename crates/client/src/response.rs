//! Reading a POST's answer, plain JSON or an SSE stream, message by message
//! ([`Incoming`]), each told apart ([`Message`]): the one JSON-RPC response
//! that carries our id, notifications (the caller reports progress and log
//! messages), requests from the server (the caller answers them and reads
//! on), and responses to other ids (skipped, the first one's id kept to say
//! what came instead).
//!
//! Our response must be one MCP allows: `"jsonrpc": "2.0"`, a `result` object
//! or an `error` object, never both (MCP's base protocol, JSON-RPC 2.0; a null
//! one beside the other, JSON-RPC 1.0's way, is taken as absent); any
//! other is a malformed answer ([`Message::Malformed`]), not a success. A JSON
//! body is one message: a batch (a JSON array) answering mur's one request is
//! refused as such — MCP has no batches since 2025-06-18, and 2025-03-26 let a
//! server batch only the messages of an event stream, which mur still reads.
//! A body the parser refuses is named with the parser's words and position and
//! what it starts with (a web page at the endpoint shows in it), or as nesting
//! past serde_json's 128 levels. A UTF-8 byte order mark before a JSON body is
//! skipped, as the event stream's parser skips one before a stream ([`BOM`]).
//!
//! Every body is read chunk by chunk and counted as it arrives, and reading
//! stops with a transport error once it passes the response limit
//! (`--max-response`, 64 MiB by default): a server cannot make mur buffer
//! more than that, whether the body is one endless JSON document or an
//! endless event stream. An event stream that stays under the limit but never
//! ends is bounded by the call's timeout. Neither is read past the answer: an
//! event stream is left once the response to our request is in, a JSON body
//! at the closing bracket of its object or array, whatever follows ([`ValueEnd`]).
//!
//! A reader of `tools/list` pages ([`Reader::listing`]) reads each message so but for
//! the `tools` array of its `result`, whose entries it keeps as texts
//! (module `listing`): a page built whole as a `Value` cost 25–30 times its size.

use std::collections::VecDeque;
use std::fmt;

use futures_util::{FutureExt as _, StreamExt as _};
use serde_json::Value;
use sse_stream::SseStream;

use mur_core::settings::human_bytes;
use mur_core::{Error, Result};

use crate::budget::{BYTES_A_VALUE, most_values, too_many_values};
use crate::listing::{Messages, Read, ToolEntry, messages_of};
use crate::value_end::{BOM, ValueEnd};

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
    pub params: Value,
}

/// One JSON-RPC message of a response body, as it concerns our request.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// The response with our id.
    Reply(Reply),
    /// A request from the server.
    Request(ServerRequest),
    /// A notification (`notifications/progress`, `notifications/message`, …).
    Notification { method: String, params: Value },
    /// An error response for another (usually null) id.
    StrayError(Value),
    /// A result for another id (`None`: for none at all): that id.
    OtherReply(Option<Value>),
    /// A response with our id that MCP does not allow: why.
    Malformed(String),
    /// Anything else: garbage in a batch.
    Other,
}

impl Message {
    /// What `msg` is to a request with id `id`. `msg` is taken apart, not
    /// copied: a result may be most of a 64 MiB body, and as a `Value` many
    /// times that.
    pub fn of(msg: Value, id: u64) -> Self {
        let Value::Object(mut msg) = msg else {
            return Self::Other;
        };
        if let Some(method) = msg.remove("method") {
            let method = method.as_str().unwrap_or("(not a string)").to_owned();
            let params = msg.remove("params").unwrap_or(Value::Null);
            return match msg.remove("id").filter(|i| !i.is_null()) {
                Some(request_id) => Self::Request(ServerRequest {
                    id: request_id,
                    method,
                    params,
                }),
                None => Self::Notification { method, params },
            };
        }
        let ours = msg.get("id").and_then(Value::as_u64) == Some(id);
        let (mut result, mut error) = (msg.remove("result"), msg.remove("error"));
        // The member not used, present as null beside the other (JSON-RPC 1.0's
        // way, which some libraries keep), is as absent.
        match (&result, &error) {
            (Some(r), Some(Value::Null)) if !r.is_null() => error = None,
            (Some(Value::Null), Some(e)) if !e.is_null() => result = None,
            _ => {}
        }
        if !ours {
            return match (result, error) {
                (_, Some(error)) => Self::StrayError(error),
                (Some(_), None) => Self::OtherReply(msg.remove("id")),
                (None, None) => Self::Other,
            };
        }
        let version = msg.get("jsonrpc");
        if version.and_then(Value::as_str) != Some("2.0") {
            return Self::Malformed(match version {
                None => "it has no `\"jsonrpc\": \"2.0\"`".to_owned(),
                Some(other) => format!("its `jsonrpc` is {}, not \"2.0\"", kind(other)),
            });
        }
        match (result, error) {
            (Some(result @ Value::Object(_)), None) => Self::Reply(Reply::Result(result)),
            (None, Some(error @ Value::Object(_))) => match unsound_error(&error) {
                Some(why) => Self::Malformed(why),
                None => Self::Reply(Reply::Error(error)),
            },
            (Some(_), Some(_)) => Self::Malformed("it has both a `result` and an `error`".into()),
            (None, None) => Self::Malformed("it has neither a `result` nor an `error`".into()),
            (Some(other), None) => {
                Self::Malformed(format!("its `result` is {}, not an object", kind(&other)))
            }
            (None, Some(other)) => {
                Self::Malformed(format!("its `error` is {}, not an object", kind(&other)))
            }
        }
    }
}

/// Why an `error` object is none JSON-RPC 2.0 allows: its `code` must be an integer
/// (what mur tells errors apart by: `-32022`, `-32601`) and its `message`, which mur
/// prints, a string. Taken as the tool's failure, `"code": "boom"` was exit 5; a
/// message left out is read as none.
fn unsound_error(error: &Value) -> Option<String> {
    let code = &error["code"];
    if code.as_i64().is_none() {
        return Some(match code {
            Value::Null => "its `error` has no `code`".to_owned(),
            other => format!("its `error`'s `code` is {}, not an integer", kind(other)),
        });
    }
    match &error["message"] {
        Value::Null | Value::String(_) => None,
        other => Some(format!(
            "its `error`'s `message` is {}, not a string",
            kind(other)
        )),
    }
}

/// A value of the server's in an error message, in a few words: a scalar as
/// it is (a string cut short), a container by its kind (it may be 64 MiB).
pub fn kind(value: &Value) -> String {
    match value {
        Value::String(text) => format!("the string \"{}\"", snippet(text.as_bytes())),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
        scalar => scalar.to_string(),
    }
}

/// What came instead of the response to request `ours`: a response to `other`.
pub fn other_reply(other: Option<&Value>, ours: u64) -> String {
    match other {
        None => format!("answered with a response without an `id`, not one to request {ours}"),
        // A container is named by its kind: it may be most of a 64 MiB body.
        Some(id @ (Value::Array(_) | Value::Object(_))) => format!(
            "answered a response to an id that is {}, not to the request's {ours}",
            kind(id)
        ),
        Some(Value::String(id)) => format!(
            "answered a response to id \"{}\", not to the request's {ours}",
            snippet(id.as_bytes())
        ),
        Some(id) => format!("answered a response to id {id}, not to the request's {ours}"),
    }
}

/// Why the parser refused a body or an event, for "answered with …": the
/// nesting past serde_json's 128 levels said as such (it names it only in its
/// message), anything else in the parser's words, with the position.
fn unreadable(e: &serde_json::Error) -> String {
    const DEPTH: usize = 128;
    let said = e.to_string();
    if too_deep(e) {
        format!("JSON nested deeper than {DEPTH} levels, which mur does not read ({said})")
    } else {
        format!("no JSON mur can read: {said}")
    }
}

/// Whether the parser refused JSON only for its nesting (serde_json says so
/// only in its message).
fn too_deep(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("recursion limit exceeded")
}

/// How to read the responses of one endpoint.
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    pub endpoint: &'a str,
    /// The most bytes one response body may have.
    pub limit: u64,
    /// Whether each message's `result.tools` entries are kept as texts, not built
    /// (module `listing`): a reader of `tools/list` pages.
    pub listing: bool,
}

/// The messages of one response body, one at a time: all of a JSON body at
/// once, or an event stream's as they arrive.
pub struct Incoming<'a> {
    reader: Reader<'a>,
    /// Messages read and not yet taken (a JSON body, a batch in one event).
    pending: VecDeque<Read>,
    /// The `result.tools` entries of the message last taken, kept apart from it
    /// ([`Reader::listing`]).
    tools: Option<Vec<ToolEntry>>,
    /// The event stream still to read, if the body is one.
    events: Option<EventStream>,
    /// A snippet of a JSON body, for errors.
    text: String,
    /// Why a JSON body held no message (a batch, not JSON), for errors.
    unreadable: Option<String>,
    /// Whether the body is an event stream.
    stream: bool,
    /// The id of the stream's last event that had one, and the `retry` the
    /// stream last asked for: where and when to resume it.
    last_id: Option<String>,
    retry: Option<u64>,
}

type EventStream = std::pin::Pin<
    Box<dyn futures_util::Stream<Item = Result<sse_stream::Sse, sse_stream::Error>> + Send>,
>;

impl<'a> Reader<'a> {
    /// Starts reading the body of `response` as JSON or SSE.
    pub async fn open(&self, response: reqwest::Response) -> Result<Incoming<'a>> {
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
            .is_some_and(|ct| mur_http::media_type_is(ct, "text/event-stream"));
        if is_sse {
            let events: EventStream =
                Box::pin(SseStream::from_bytes_stream(counted(response, self.limit)));
            return Ok(Incoming {
                reader: *self,
                pending: VecDeque::new(),
                tools: None,
                events: Some(events),
                text: String::new(),
                unreadable: None,
                stream: true,
                last_id: None,
                retry: None,
            });
        }
        let body = self.read_body(response).await?;
        self.within_values(&body)?;
        let listing = self.listing;
        let (body, parsed) = parsed(body, move |body| {
            messages_of(body.strip_prefix(BOM).unwrap_or(body), listing)
        })
        .await;
        let bytes = body.strip_prefix(BOM).unwrap_or(&body);
        let (pending, unreadable) = match parsed {
            Ok(Messages::Batch(_)) => (
                VecDeque::new(),
                Some(
                    "answered with a batch (a JSON array), where one request takes one \
                     response object"
                        .to_owned(),
                ),
            ),
            Ok(Messages::One(one)) => (VecDeque::from([one]), None),
            // Said as "(empty body)".
            Err(_) if bytes.trim_ascii().is_empty() => (VecDeque::new(), None),
            // What the body starts with, too: what a web page at the endpoint
            // is (a dev server's page answers any path 200 text/html) shows in it.
            Err(e) if !too_deep(&e) => (
                VecDeque::new(),
                Some(format!(
                    "answered with {}: {}",
                    unreadable(&e),
                    snippet(bytes)
                )),
            ),
            Err(e) => (
                VecDeque::new(),
                Some(format!("answered with {}", unreadable(&e))),
            ),
        };
        Ok(Incoming {
            reader: *self,
            pending,
            tools: None,
            events: None,
            text: snippet(bytes),
            unreadable,
            stream: false,
            last_id: None,
            retry: None,
        })
    }

    /// The body, counted chunk by chunk against the limit, up to the closing
    /// bracket of its object or array ([`ValueEnd`]): what a server sends after its
    /// answer is not read, nor parsed when it came in the same chunk, so the answer
    /// is the same however the server's writes fall into chunks. The body's end,
    /// when it is already there, gives the connection back for the next request;
    /// else the connection is closed with the body.
    async fn read_body(&self, mut response: reqwest::Response) -> Result<Vec<u8>> {
        let expected = response.content_length().unwrap_or(0).min(self.limit);
        let mut body = Vec::with_capacity(usize::try_from(expected).unwrap_or(0));
        let mut end = ValueEnd::default();
        while let Some(chunk) = response.chunk().await.map_err(|e| self.broken(&e))? {
            let ended = end.end_in(&chunk);
            let taken = &chunk[..ended.unwrap_or(chunk.len())];
            if (body.len() + taken.len()) as u64 > self.limit {
                return Err(self.too_large());
            }
            body.extend_from_slice(taken);
            if ended.is_some() {
                let _ = response.chunk().now_or_never();
                break;
            }
        }
        Ok(body)
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
        past_the_limit(self.endpoint, "a response", self.limit)
    }

    /// `json` (a body, an event's data) refused unparsed where it holds more values
    /// than the limit allows ([`crate::budget`]), saying how to raise it.
    fn within_values(&self, json: &[u8]) -> Result<()> {
        if !too_many_values(json, self.limit) {
            return Ok(());
        }
        Err(Error::transport(format!(
            "`{}` sent a response of more than {} JSON values, more than mur parses under its \
             response limit of {} (a value for every {BYTES_A_VALUE} bytes); it was not parsed",
            self.endpoint,
            most_values(self.limit),
            human_bytes(self.limit)
        ))
        .with_hint(RAISE_THE_LIMIT))
    }

    /// The connection ended (or failed) in the middle of the body, or the body's HTTP
    /// framing was broken (a chunk's size line no number: the connection was open, and
    /// "closed the connection" misled).
    fn broken(&self, e: &reqwest::Error) -> Error {
        let cause = root_cause(e).map(|c| format!(" ({c})")).unwrap_or_default();
        let what = match malformed_framing(e) {
            true => "sent an answer whose HTTP framing is broken",
            false => "closed the connection before the answer was complete",
        };
        Error::transport(format!("`{}` {what}{cause}", self.endpoint))
    }
}

/// `endpoint` sent `what` (a response; a tool list's pages together) past `limit`,
/// mur's response limit (`--max-response`): what is said, and how to raise it.
pub fn past_the_limit(endpoint: &str, what: &str, limit: u64) -> Error {
    Error::transport(format!(
        "`{endpoint}` sent {what} larger than {}, mur's response limit; it was not read further",
        human_bytes(limit)
    ))
    .with_hint(RAISE_THE_LIMIT)
}

/// How to read an answer past the response limit, or one of more values than it allows.
const RAISE_THE_LIMIT: &str = "if an answer this large is expected, raise the limit with \
     `--max-response BYTES` (e.g. `--max-response 256M`)";

impl Incoming<'_> {
    /// The next JSON-RPC message of the body; `None` at its end.
    pub async fn next(&mut self) -> Result<Option<Value>> {
        loop {
            if let Some(read) = self.pending.pop_front() {
                self.tools = read.tools;
                return Ok(Some(read.message));
            }
            let Some(events) = &mut self.events else {
                return Ok(None);
            };
            let Some(event) = events.next().await else {
                self.events = None;
                return Ok(None);
            };
            let event = event.map_err(|e| self.reader.stream_error(e))?;
            if let Some(id) = event.id.clone().filter(|id| !id.is_empty()) {
                self.last_id = Some(id);
            }
            if event.retry.is_some() {
                self.retry = event.retry;
            }
            let Some(data) = event.data.filter(|d| !d.trim().is_empty()) else {
                continue;
            };
            self.reader.within_values(data.as_bytes())?;
            let listing = self.reader.listing;
            let (_, value) = parsed(data, move |data| messages_of(data.as_bytes(), listing)).await;
            let value = value.map_err(|e| {
                Error::transport(format!(
                    "`{}` sent an event in the response stream with {}",
                    self.reader.endpoint,
                    unreadable(&e)
                ))
            })?;
            self.pending = messages(value);
        }
    }

    /// The `result.tools` entries of the message [`Self::next`] last gave, when this
    /// reader keeps them apart ([`Reader::listing`]) and it had such an array: taken.
    pub fn take_tools(&mut self) -> Option<Vec<ToolEntry>> {
        self.tools.take()
    }

    /// A short excerpt of a JSON body (empty for an event stream).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Why a JSON body held no message, as "answered with …" (a batch, not JSON).
    pub fn unreadable(&self) -> Option<&str> {
        self.unreadable.as_deref()
    }

    /// Whether the body was an event stream.
    pub fn was_stream(&self) -> bool {
        self.stream
    }

    /// Where a stream that ended could be resumed (`Last-Event-ID`), and
    /// after how many milliseconds the server asked for (`retry`).
    pub fn resume_point(&self) -> Option<(String, Option<u64>)> {
        self.last_id.clone().map(|id| (id, self.retry))
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

/// From this size on, a body or an event is parsed on a thread of its own ([`parsed`]).
const PARSED_APART: usize = 256 << 10;

/// `text` (a body, an event's data) and what `parse` makes of it: a large one parsed on
/// a thread of its own, so that the call's `--timeout`, which bounds the future reading
/// the answer, can pass while it is parsed; parsed in place it held the call past its
/// bound (a 6 MB tool list takes ~2 s to parse in a debug build, up to the 64 MiB limit
/// ten times that). A small one is parsed at once: a thread costs more than its parse.
/// Not the runtime's blocking pool: dropping the runtime waits for those, so the process
/// would still wait for a parse its call gave up on.
async fn parsed<T, R>(text: T, parse: impl FnOnce(&T) -> R + Send + 'static) -> (T, R)
where
    T: AsRef<[u8]> + Send + 'static,
    R: Send + 'static,
{
    if text.as_ref().len() < PARSED_APART {
        let parsed = parse(&text);
        return (text, parsed);
    }
    let (done, parsed) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        let parsed = parse(&text);
        let _ = done.send((text, parsed));
    });
    // The thread sends unless the parse panicked, which it then said.
    parsed
        .await
        .expect("the parse of the answer ended without a result")
}

fn messages(value: Messages) -> VecDeque<Read> {
    match value {
        Messages::Batch(batch) => batch.into(),
        Messages::One(one) => VecDeque::from([one]),
    }
}

/// The most characters of a [`snippet`].
const SNIPPET_CHARS: usize = 120;

/// A short, single-line excerpt of a body, for error messages: its first
/// [`SNIPPET_CHARS`] characters, each run of white space one space, bytes that
/// are not UTF-8 `�`. Read only as far as the excerpt goes: every JSON body
/// gets one, up to 64 MiB of it.
pub fn snippet(bytes: &[u8]) -> String {
    clip(bytes, SNIPPET_CHARS)
}

/// A [`snippet`] of at most `max` characters.
pub(crate) fn clip(bytes: &[u8], max: usize) -> String {
    let mut line = String::new();
    let mut count = 0;
    let mut space = false;
    let chars = bytes.utf8_chunks().flat_map(|chunk| {
        let bad = (!chunk.invalid().is_empty()).then_some(char::REPLACEMENT_CHARACTER);
        chunk.valid().chars().chain(bad)
    });
    for c in chars {
        if c.is_whitespace() {
            space = count > 0;
            continue;
        }
        for c in [' ', c]
            .into_iter()
            .skip(usize::from(!std::mem::take(&mut space)))
        {
            if count == max {
                line.push('…');
                return line;
            }
            line.push(c);
            count += 1;
        }
    }
    line
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
    std::error::Error::source(e).map(mur_http::innermost)
}

/// Whether reading a body failed on its framing (hyper's chunked decoder says so as an
/// I/O error of kind `InvalidInput` or `InvalidData`), not on the connection.
fn malformed_framing(e: &reqwest::Error) -> bool {
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            return matches!(
                io.kind(),
                std::io::ErrorKind::InvalidInput | std::io::ErrorKind::InvalidData
            );
        }
        source = cause.source();
    }
    false
}

/// A request that got no answer from `endpoint`, as a transport error: one whose
/// connection was refused (nothing listens there) gets the step that finds out why —
/// for a session found by its lockfile, `session list`; for an endpoint `given` as is
/// (`--endpoint URL` of no bridge mur knows), which has no lockfile and which `session
/// list` therefore never shows, whether its server runs.
pub(crate) fn unreached(endpoint: &str, e: &mur_http::SendError, given: bool) -> Error {
    let error = Error::transport(format!("`{endpoint}`: {e}"));
    match (e.is_refused(), given) {
        (false, _) => error,
        (true, true) => error.with_hint(
            "is the server at that address running? `--endpoint` names it directly; \
             `mur devtools session list` shows only the sessions of lockfiles",
        ),
        (true, false) => error.with_hint(
            "is the app running? `mur devtools session list` shows the sessions mur finds",
        ),
    }
}

/// The realm of the `WWW-Authenticate: Bearer` challenge with which a bridge
/// (`mur devtools bridge`) refuses a request without its secret: no OAuth
/// server stands behind it.
pub const BRIDGE_REALM: &str = "mur-bridge";

/// Whether `response` is a bridge refusing a request without its secret: a 401
/// whose challenge is `Bearer realm="mur-bridge"`.
pub(crate) fn refused_by_a_bridge(response: &reqwest::Response) -> bool {
    response.status() == reqwest::StatusCode::UNAUTHORIZED
        && response
            .headers()
            .get_all(reqwest::header::WWW_AUTHENTICATE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .any(names_the_bridge_realm)
}

/// Whether a `WWW-Authenticate` value is a Bearer challenge of [`BRIDGE_REALM`].
pub(crate) fn names_the_bridge_realm(challenge: &str) -> bool {
    let challenge = challenge.trim();
    let Some((scheme, params)) = challenge.split_once(' ') else {
        return false;
    };
    scheme.eq_ignore_ascii_case("bearer")
        && params.split(',').any(|param| {
            param.trim().split_once('=').is_some_and(|(name, value)| {
                name.trim().eq_ignore_ascii_case("realm")
                    && value.trim().trim_matches('"') == BRIDGE_REALM
            })
        })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn all(body: Value) -> Vec<Message> {
        messages(body.into())
            .into_iter()
            .map(|m| Message::of(m.message, 1))
            .collect()
    }

    #[test]
    fn each_message_is_told_apart() {
        let got = all(json!([
            { "jsonrpc": "2.0", "method": "notifications/progress", "params": { "progress": 1 } },
            { "jsonrpc": "2.0", "id": 9, "result": { "other": true } },
            { "jsonrpc": "2.0", "id": "e-1", "method": "elicitation/create", "params": { "message": "?" } },
            { "jsonrpc": "2.0", "id": null, "error": { "code": -32000, "message": "no session" } },
            { "jsonrpc": "2.0", "id": 1, "result": { "ok": true } },
        ]));
        assert_eq!(
            got,
            [
                Message::Notification {
                    method: "notifications/progress".into(),
                    params: json!({ "progress": 1 })
                },
                Message::OtherReply(Some(json!(9))),
                Message::Request(ServerRequest {
                    id: json!("e-1"),
                    method: "elicitation/create".into(),
                    params: json!({ "message": "?" })
                }),
                Message::StrayError(json!({ "code": -32000, "message": "no session" })),
                Message::Reply(Reply::Result(json!({ "ok": true }))),
            ]
        );
    }

    /// A response with our id is one MCP allows, or it is malformed, saying why;
    /// a result for another id is kept by that id.
    #[test]
    fn a_null_member_beside_the_other_is_as_absent() {
        // Before, each was "it has both a `result` and an `error`".
        assert_eq!(
            Message::of(
                json!({ "jsonrpc": "2.0", "id": 1, "result": {}, "error": null }),
                1
            ),
            Message::Reply(Reply::Result(json!({})))
        );
        let error = json!({ "code": -32601, "message": "no" });
        assert_eq!(
            Message::of(
                json!({ "jsonrpc": "2.0", "id": 1, "result": null, "error": error }),
                1
            ),
            Message::Reply(Reply::Error(error.clone()))
        );
        assert_eq!(
            Message::of(
                json!({ "jsonrpc": "2.0", "id": 2, "result": {}, "error": null }),
                1
            ),
            Message::OtherReply(Some(json!(2)))
        );
    }

    /// What came instead names a foreign id, a container by its kind only.
    #[test]
    fn another_id_is_named_a_container_by_its_kind() {
        assert_eq!(
            other_reply(Some(&json!([1, 2])), 1),
            "answered a response to an id that is an array, not to the request's 1"
        );
        assert_eq!(
            other_reply(Some(&json!("x".repeat(200))), 1),
            format!(
                "answered a response to id \"{}…\", not to the request's 1",
                "x".repeat(120)
            )
        );
        assert_eq!(
            other_reply(Some(&json!(7)), 1),
            "answered a response to id 7, not to the request's 1"
        );
    }

    #[test]
    fn a_malformed_response_is_refused_saying_why() {
        let why = |body: Value| match Message::of(body, 1) {
            Message::Malformed(why) => why,
            other => panic!("taken as {other:?}"),
        };
        assert_eq!(
            why(json!({ "jsonrpc": "2.0", "id": 1, "result": {}, "error": { "code": 1 } })),
            "it has both a `result` and an `error`"
        );
        assert_eq!(
            why(json!({ "jsonrpc": "2.0", "id": 1, "result": 42 })),
            "its `result` is 42, not an object"
        );
        assert_eq!(
            why(json!({ "jsonrpc": "2.0", "id": 1, "result": [1] })),
            "its `result` is an array, not an object"
        );
        assert_eq!(
            why(json!({ "jsonrpc": "2.0", "id": 1, "error": "bad" })),
            "its `error` is the string \"bad\", not an object"
        );
        assert_eq!(
            why(json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": "boom", "message": "m" } })),
            "its `error`'s `code` is the string \"boom\", not an integer"
        );
        assert_eq!(
            why(json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": 1.5, "message": "m" } })),
            "its `error`'s `code` is 1.5, not an integer"
        );
        assert_eq!(
            why(json!({ "jsonrpc": "2.0", "id": 1, "error": { "message": "m" } })),
            "its `error` has no `code`"
        );
        assert_eq!(
            why(json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": 1, "message": {} } })),
            "its `error`'s `message` is an object, not a string"
        );
        assert_eq!(
            Message::of(
                json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": -1 } }),
                1
            ),
            Message::Reply(Reply::Error(json!({ "code": -1 })))
        );
        assert_eq!(
            why(json!({ "id": 1, "result": {} })),
            "it has no `\"jsonrpc\": \"2.0\"`"
        );
        assert_eq!(
            why(json!({ "jsonrpc": 2, "id": 1, "result": {} })),
            "its `jsonrpc` is 2, not \"2.0\""
        );
        assert_eq!(
            why(json!({ "jsonrpc": "2.0", "id": 1 })),
            "it has neither a `result` nor an `error`"
        );
        assert_eq!(
            why(json!({ "jsonrpc": "2.0", "id": 1, "result": null, "error": null })),
            "it has both a `result` and an `error`"
        );
        assert_eq!(
            Message::of(json!({ "jsonrpc": "2.0", "id": "1", "result": {} }), 1),
            Message::OtherReply(Some(json!("1")))
        );
        assert_eq!(
            Message::of(json!({ "jsonrpc": "2.0", "result": {} }), 1),
            Message::OtherReply(None)
        );
        assert_eq!(
            other_reply(Some(&json!("1")), 1),
            "answered a response to id \"1\", not to the request's 1"
        );
    }

    /// Why a body is no JSON mur reads: the parser's words and position, or the
    /// nesting cap.
    #[test]
    fn an_unreadable_body_is_said_in_the_parsers_words() {
        let why =
            |text: &str| unreadable(&serde_json::from_str::<Value>(text).expect_err("refused"));
        assert_eq!(
            why(r#"{"a":"#),
            "no JSON mur can read: EOF while parsing a value at line 1 column 5"
        );
        assert_eq!(
            why(r#"{"n":1e999999999}"#),
            "no JSON mur can read: number out of range at line 1 column 16"
        );
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(
            why(&deep).starts_with("JSON nested deeper than 128 levels, which mur does not read"),
            "{}",
            why(&deep)
        );
    }

    /// A reply's result is moved out of the message, not copied: the same
    /// allocation comes out that went in (a result may be most of a 64 MiB
    /// body, many times that as a `Value`). So are a request's params.
    /// A large body is parsed off the thread that runs the call (whose `--timeout` can
    /// then pass while it is parsed), a small one in place; both parsed alike.
    #[tokio::test]
    async fn a_large_body_is_parsed_off_the_calls_thread() {
        fn thread(text: &std::sync::Arc<[u8]>) -> (Option<std::thread::ThreadId>, usize) {
            (Some(std::thread::current().id()), text.len())
        }
        let here = Some(std::thread::current().id());
        let small: std::sync::Arc<[u8]> = vec![b' '; PARSED_APART - 1].into();
        assert_eq!(parsed(small, thread).await.1, (here, PARSED_APART - 1));
        let large: std::sync::Arc<[u8]> = vec![b' '; PARSED_APART].into();
        let (text, (apart, len)) = parsed(large, thread).await;
        assert_ne!(apart, here);
        assert_eq!((text.len(), len), (PARSED_APART, PARSED_APART));
    }

    #[test]
    fn a_reply_is_taken_out_of_its_message_not_copied() {
        let big = "x".repeat(1 << 16);
        let reply = json!({ "jsonrpc": "2.0", "id": 1, "result": { "text": big } });
        let before = reply["result"]["text"].as_str().map(str::as_ptr);
        let Message::Reply(Reply::Result(result)) = Message::of(reply, 1) else {
            panic!("not our reply");
        };
        assert_eq!(result["text"].as_str().map(str::as_ptr), before);
        let asked = json!({ "jsonrpc": "2.0", "id": "q", "method": "m", "params": { "t": big } });
        let before = asked["params"]["t"].as_str().map(str::as_ptr);
        let Message::Request(request) = Message::of(asked, 1) else {
            panic!("not a request");
        };
        assert_eq!(request.params["t"].as_str().map(str::as_ptr), before);
    }

    #[test]
    fn snippets_are_one_short_line() {
        assert_eq!(snippet(b"<html>\n nope </html>"), "<html> nope </html>");
        assert_eq!(snippet("x".repeat(200).as_bytes()).chars().count(), 121);
        assert_eq!(snippet(b"  a \xff\xfe b\t\n"), "a \u{fffd}\u{fffd} b");
        assert_eq!(snippet(b""), "");
        let words = "ab ".repeat(100);
        let cut = snippet(words.as_bytes());
        assert_eq!(cut.chars().count(), 121, "{cut}");
        assert!(cut.ends_with("ab …"), "{cut}");
    }
}
