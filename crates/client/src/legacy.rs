//! The session form for servers of the 2025-11-25 revision: `initialize`
//! (declaring that mur answers questions), take `Mcp-Session-Id`,
//! `notifications/initialized`, with `-v` `logging/setLevel` (when the server
//! logs), the call (with a progress token), then `DELETE` the session so the
//! server can drop it at once. Questions the server asks in the call's
//! response stream are answered in the session as they come.
//!
//! The session is put in the client's slot as soon as the server names it
//! (the `initialize` response's headers), and [`Client::end_session`] sends
//! the `DELETE` from there, after the call's future has finished or been
//! dropped by the timeout: a server never holds a session of ours for its
//! idle timeout (often 30 minutes) because a call failed or timed out. A
//! call that ends before its answer (out of time, cancelled by the proxy's
//! client, failed mid-stream) first tells the server so, as the 2025-11-25
//! revision asks of a client that gives up a request: a
//! `notifications/cancelled` naming the request, so that the tool stops
//! working for nobody (the 2026-07-28 revision takes the closed response
//! stream as the cancel).

use std::time::Duration;

use reqwest::header::{ACCEPT, HeaderValue};
use serde_json::{Value, json};

use super::request::{self, HEADER_SESSION_ID, REVISIONS};
use super::response::{Message, Reply};
use super::session::Session;
use super::{Answer, Client, FAREWELL_LIMIT, LOG_LEVEL};
use mur_core::{Error, Result};
use mur_http::Request;

/// The 2026-07-28 method that asks what `initialize` told before.
const DISCOVER: &str = "server/discover";
const INIT_ID: u64 = 1;
const CALL_ID: u64 = 2;
const LEVEL_ID: u64 = 3;
/// The most times one call's event stream is resumed.
const MAX_RESUMES: usize = 10;
/// How long to wait before resuming a stream that named no `retry`.
const DEFAULT_RETRY_MS: u64 = 1000;
/// How long the session's own stream may take to open (its response head);
/// loopback servers need milliseconds.
const STREAM_LIMIT: Duration = Duration::from_secs(1);
/// The header that resumes an event stream.
const HEADER_LAST_EVENT_ID: &str = "last-event-id";

impl Client<'_> {
    /// Runs `method` inside a short-lived legacy session offering `version`, or
    /// the one the client shares ([`Client::session_for`]). The session is left
    /// in the slot; [`Client::call`] ends one of its own.
    pub(super) async fn legacy(
        &self,
        method: &str,
        params: Option<&Value>,
        version: &str,
    ) -> Result<Reply> {
        let mut session = self.session_for(version).await?;
        let mut reply = self.exchange(&session, method, params).await;
        if self.lost(&session).await {
            // The server no longer knows the shared session (it restarted) and
            // said so to this very request with an HTTP error before running
            // anything: it was not processed, so sending it again in a new
            // session is safe (and its delivery is the new one's).
            tracing::debug!("session {:?} is gone: opening another", session.id);
            self.delivery.refused();
            session = self.session_for(version).await?;
            reply = self.exchange(&session, method, params).await;
        }
        Ok(match reply? {
            // The 2026-07-28 question "what do you offer?", which a server of
            // an older revision answered in `initialize`, just now. Any error, not
            // only "method not found": such a server may refuse the method on other
            // grounds (rmcp's sessions answer -32602, the request lacking the modern
            // `_meta`), and what it said in `initialize` answers it all the same.
            Reply::Error(error) if self.discover_from_initialize && method == DISCOVER => {
                tracing::debug!(
                    "`{DISCOVER}` answered from the session's `initialize` (the server's error {})",
                    error["code"]
                );
                Reply::Result(discovered(&session))
            }
            reply => reply,
        })
    }

    /// Opens a legacy session offering `version`: `initialize`, then
    /// `notifications/initialized`.
    pub(super) async fn open(&self, version: &str) -> Result<Session> {
        let session = self.initialize(version).await?;
        let note = request::body(None, "notifications/initialized", None);
        let ack = self.post_in_session(&session, &note).await?;
        if !ack.status().is_success() {
            return Err(Error::transport(format!(
                "`{}` answered HTTP {} to `notifications/initialized`",
                self.endpoint,
                ack.status()
            )));
        }
        Ok(session)
    }

    /// The call in `session`, with its log level (`-v`) and the session's own
    /// stream listened to while it runs.
    async fn exchange(
        &self,
        session: &Session,
        method: &str,
        params: Option<&Value>,
    ) -> Result<Reply> {
        if self.verbose && session.logs {
            self.set_level(session).await;
        }
        // The server may also ask (or report) on the session's own stream:
        // open it before the call (a server drops what it has no stream
        // for), and listen there while the call runs.
        let stream = self.open_stream(session).await;
        self.mark_unanswered(Some(session.wire(CALL_ID)));
        let call = std::pin::pin!(self.in_session(session, CALL_ID, method, params));
        let listen = std::pin::pin!(self.listen(session, stream));
        let reply = match futures_util::future::select(call, listen).await {
            futures_util::future::Either::Left((reply, _)) => reply,
            futures_util::future::Either::Right((Ok(()), call)) => call.await,
            futures_util::future::Either::Right((Err(e), _)) => Err(e),
        }?;
        self.mark_unanswered(None);
        Ok(reply)
    }

    async fn initialize(&self, version: &str) -> Result<Session> {
        let params = json!({
            "protocolVersion": version,
            "capabilities": request::client_capabilities(),
            "clientInfo": self.client_info(),
        });
        let body = request::body(INIT_ID, "initialize", Some(params));
        tracing::debug!("POST {} initialize (protocol {version})", self.endpoint);
        let response = self
            .send(request::marked(
                Request::post(self.endpoint)
                    .headers(request::base_headers())
                    .body(body.to_string()),
                "initialize",
            ))
            .await?;
        let id = self.session_id(&response)?;
        // From here on the server holds a session: make sure it is ended,
        // even if its answer never arrives.
        let offered = Session {
            id: id.clone(),
            version: version.to_owned(),
            logs: false,
            initialized: Value::Null,
            unanswered: None,
            shared: None,
        };
        self.keep_session(offered.clone());
        let status = response.status();
        match self.read(response, INIT_ID, &offered.headers()).await? {
            Answer::Reply(Reply::Result(result)) => {
                // MCP requires the revision in the answer: without one (or with one that is
                // no string) no revision was agreed, and the one offered was used unsaid.
                let Some(version) = result["protocolVersion"].as_str().map(str::to_owned) else {
                    return Err(Error::transport(format!(
                        "`{}` answered `initialize` without a protocol revision \
                         (`protocolVersion` {})",
                        self.endpoint,
                        match &result["protocolVersion"] {
                            Value::Null => "missing".to_owned(),
                            other => format!(
                                "is {}",
                                super::response::snippet(other.to_string().as_bytes())
                            ),
                        }
                    ))
                    .with_hint(format!("mur speaks {}", REVISIONS.join(", "))));
                };
                tracing::debug!("legacy session {id:?}, protocol {version}");
                // A revision mur does not know it cannot speak (MCP: the client
                // should disconnect), nor go on naming it in every request.
                if !REVISIONS.contains(&version.as_str()) {
                    return Err(Error::transport(format!(
                        "`{}` answered `initialize` in protocol revision {}, which mur does not \
                         speak",
                        self.endpoint,
                        super::response::snippet(version.as_bytes())
                    ))
                    .with_hint(format!("mur speaks {}", REVISIONS.join(", "))));
                }
                // `--protocol` asks for this revision only: one the server put in its
                // place is not it (a server may answer any it prefers).
                if self.protocol.is_some_and(|only| only != version) {
                    return Err(Error::transport(format!(
                        "`{}` answered `initialize` in revision {version}, not the {} \
                         `--protocol` asks for",
                        self.endpoint,
                        self.protocol.unwrap_or_default()
                    )));
                }
                let logs = result["capabilities"]["logging"].is_object();
                let session = Session {
                    id,
                    version,
                    logs,
                    initialized: result,
                    unanswered: None,
                    shared: None,
                };
                self.keep_session(session.clone());
                Ok(session)
            }
            Answer::Reply(Reply::Error(e)) => Err(Error::transport(format!(
                "`{}` refused `initialize`: {}",
                self.endpoint,
                e["message"].as_str().unwrap_or("(no message)")
            ))),
            Answer::Other {
                instead: Some(instead),
                ..
            } if status.is_success() => Err(Error::transport(format!(
                "`{}` {instead} (to `initialize`)",
                self.endpoint
            ))),
            Answer::Other { text, .. } => {
                let error = Error::transport(format!(
                    "`{}` answered HTTP {status} and no MCP response: {}",
                    self.endpoint,
                    if text.is_empty() {
                        "(empty body)"
                    } else {
                        &text
                    }
                ));
                // Neither the modern POST nor `initialize` found anything there: most
                // likely the URL's path (`--endpoint http://127.0.0.1:PORT`).
                Err(if status == reqwest::StatusCode::NOT_FOUND {
                    error.with_hint(
                        "nothing is served at that path: a devtools session serves MCP at \
                         `/mcp` (`http://127.0.0.1:PORT/mcp`, as `session list` shows it)",
                    )
                } else {
                    error
                })
            }
        }
    }

    /// The session's own event stream (`GET`), if the server has one (a
    /// server without one answers 405).
    async fn open_stream(&self, session: &Session) -> Option<reqwest::Response> {
        let mut headers = session.headers();
        headers.insert(ACCEPT, HeaderValue::from_static("text/event-stream"));
        let get = self
            .http
            .send(self.authorize(Request::get(self.endpoint).headers(headers)));
        match tokio::time::timeout(STREAM_LIMIT, get).await {
            Ok(Ok(response)) if response.status().is_success() => Some(response),
            Ok(Ok(response)) => {
                tracing::debug!("no session stream: HTTP {}", response.status());
                None
            }
            Ok(Err(e)) => {
                tracing::debug!("no session stream: {e}");
                None
            }
            Err(_) => {
                tracing::debug!("the session stream did not open in time; going on without it");
                None
            }
        }
    }

    /// Reads the session's own stream until it ends: requests from the
    /// server answered, notifications reported. A question nobody can
    /// answer ends the call.
    async fn listen(&self, session: &Session, stream: Option<reqwest::Response>) -> Result<()> {
        let Some(response) = stream else {
            return Ok(());
        };
        let Ok(mut incoming) = self.reader().open(response).await else {
            return Ok(());
        };
        while let Ok(Some(message)) = incoming.next().await {
            match Message::of(message, u64::MAX) {
                Message::Request(request) => self.serve(&request, &session.headers()).await?,
                Message::Notification { method, params } => self.notified(&method, &params),
                _ => {}
            }
        }
        Ok(())
    }

    /// One request in the session, read to its reply: a stream that ends
    /// before it is resumed (at most [`MAX_RESUMES`] times).
    pub(super) async fn in_session(
        &self,
        session: &Session,
        id: u64,
        method: &str,
        params: Option<&Value>,
    ) -> Result<Reply> {
        let tracked = id == CALL_ID;
        let id = session.wire(id);
        let body = request::session_body(id, method, params, &self.meta());
        tracing::debug!(
            "POST {} {} (in session, id {id})",
            self.endpoint,
            super::named(method, params)
        );
        let body = body.to_string();
        let sent = body.len();
        let mut post = request::marked(
            Request::post(self.endpoint)
                .headers(session.headers())
                .body(body),
            method,
        );
        // The call itself, not a task's polls after it was answered.
        if tracked {
            post = post.tracked(&self.delivery);
        }
        let response = self.send(post).await?;
        let status = response.status();
        session.answered_with(status, tracked);
        let mut answer = self.read(response, id, &session.headers()).await?;
        for _ in 0..MAX_RESUMES {
            let Answer::Other {
                error: None,
                stream: true,
                resume: Some((last_id, retry)),
                ..
            } = &answer
            else {
                break;
            };
            answer = self.resume(session, id, last_id, *retry).await?;
        }
        match answer {
            Answer::Reply(reply) => Ok(reply),
            Answer::Other {
                instead: Some(instead),
                ..
            } if status.is_success() => Err(Error::transport(format!(
                "`{}` {instead} (to `{method}`)",
                self.endpoint
            ))),
            Answer::Other { .. } if status == reqwest::StatusCode::PAYLOAD_TOO_LARGE => {
                Err(super::refused_as_too_large(self.endpoint, sent))
            }
            Answer::Other { text, .. } => Err(Error::transport(format!(
                "`{}` answered HTTP {status} and no response to `{method}`{}",
                self.endpoint,
                if text.is_empty() {
                    String::new()
                } else {
                    format!(": {text}")
                }
            ))),
        }
    }

    /// The call's event stream ended before its answer (SEP-1699: the server
    /// may close it and send the rest later): after the `retry` the server
    /// asked for, `GET` the session's stream from `last_id` on and read it.
    async fn resume(
        &self,
        session: &Session,
        id: u64,
        last_id: &str,
        retry: Option<u64>,
    ) -> Result<Answer> {
        let wait = Duration::from_millis(retry.unwrap_or(DEFAULT_RETRY_MS));
        tracing::debug!(
            "the event stream ended before the answer: resuming after event `{last_id}` in {} ms",
            wait.as_millis()
        );
        tokio::time::sleep(wait).await;
        let mut headers = session.headers();
        headers.insert(ACCEPT, HeaderValue::from_static("text/event-stream"));
        request::insert(&mut headers, HEADER_LAST_EVENT_ID, last_id);
        let response = self
            .send(Request::get(self.endpoint).headers(headers))
            .await?;
        if !response.status().is_success() {
            return Err(Error::transport(format!(
                "`{}` ended the event stream before answering, and resuming it answered HTTP {}",
                self.endpoint,
                response.status()
            )));
        }
        self.read(response, id, &session.headers()).await
    }

    /// POSTs `body` in the session.
    pub(super) async fn post_in_session(
        &self,
        session: &Session,
        body: &Value,
    ) -> Result<reqwest::Response> {
        let post = Request::post(self.endpoint)
            .headers(session.headers())
            .body(body.to_string());
        self.send(request::marked(
            post,
            body["method"].as_str().unwrap_or_default(),
        ))
        .await
    }

    /// `-v`: asks the server for its log messages from [`LOG_LEVEL`] up. A
    /// server that refuses is no reason to fail the call.
    async fn set_level(&self, session: &Session) {
        let params = json!({ "level": LOG_LEVEL });
        let id = session.wire(LEVEL_ID);
        let body = request::body(id, "logging/setLevel", Some(params));
        let outcome = match self.post_in_session(session, &body).await {
            Ok(response) => self.read(response, id, &session.headers()).await,
            Err(e) => Err(e),
        };
        match outcome {
            Ok(Answer::Reply(Reply::Result(_))) => {}
            Ok(other) => tracing::debug!("`logging/setLevel` was not accepted: {other:?}"),
            Err(e) => tracing::debug!("`logging/setLevel` failed: {}", e.message()),
        }
    }

    /// The session id `initialize`'s answer gives, if any. One that is no visible ASCII
    /// (MCP's rule for it) cannot be sent back as a header: it was dropped unsaid, and
    /// the next request, without it, was refused by the server in its own words.
    fn session_id(&self, response: &reqwest::Response) -> Result<Option<String>> {
        let Some(id) = response.headers().get(HEADER_SESSION_ID) else {
            return Ok(None);
        };
        match id.to_str() {
            Ok(id) => Ok(Some(id.to_owned())),
            Err(_) => Err(Error::transport(format!(
                "`{}` answered `initialize` with a session id (`Mcp-Session-Id: {}`) that is \
                 not visible ASCII, which MCP requires and mur cannot send back",
                self.endpoint,
                String::from_utf8_lossy(id.as_bytes())
            ))),
        }
    }

    fn keep_session(&self, session: Session) {
        if let Ok(mut slot) = self.session.lock() {
            *slot = Some(session);
        }
    }

    /// Notes in the session's slot the request the server has yet to answer.
    fn mark_unanswered(&self, id: Option<u64>) {
        if let Ok(mut slot) = self.session.lock()
            && let Some(session) = slot.as_mut()
        {
            session.unanswered = id;
        }
    }

    /// Ends the session this call opened, if any, by `deadline` (what is left
    /// of the call's farewell allowance after a task's `tasks/cancel`); a
    /// server that cannot (405), a failure or no answer in time is fine. A
    /// request it has not answered is first cancelled, for `reason`, within
    /// the same allowance.
    pub(super) async fn end_session(&self, deadline: tokio::time::Instant, reason: &str) {
        let session = self.session.lock().ok().and_then(|mut slot| slot.take());
        let Some(session) = session else {
            return;
        };
        if let Some(id) = session.unanswered {
            self.cancel_request(&session, id, reason, deadline).await;
        }
        // A shared session outlives the call ([`crate::SharedSession::end`] ends it).
        if session.id.is_none() || session.shared.is_some() {
            return;
        }
        tracing::debug!("DELETE {} (ending session {:?})", self.endpoint, session.id);
        let delete = self
            .http
            .send(self.authorize(Request::delete(self.endpoint).headers(session.headers())));
        match tokio::time::timeout_at(deadline, delete).await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => tracing::debug!("ending the session failed: {e}"),
            Err(_) => tracing::debug!(
                "ending the session took past the call's {} ms to end; left to the server",
                FAREWELL_LIMIT.as_millis()
            ),
        }
    }

    /// Tells the server, by `deadline`, that mur gave up request `id` of
    /// `session` (`notifications/cancelled`, 2025-11-25), so that it stops
    /// working on it; a server that ignores it, or takes too long, is fine.
    async fn cancel_request(
        &self,
        session: &Session,
        id: u64,
        reason: &str,
        deadline: tokio::time::Instant,
    ) {
        tracing::debug!(
            "POST {} notifications/cancelled (request {id}: {reason})",
            self.endpoint
        );
        let params = json!({ "requestId": id, "reason": reason });
        let note = request::body(None, "notifications/cancelled", Some(params));
        let post = self.http.send(
            self.authorize(
                Request::post(self.endpoint)
                    .headers(session.headers())
                    .body(note.to_string()),
            ),
        );
        match tokio::time::timeout_at(deadline, post).await {
            Ok(Ok(response)) => {
                tracing::debug!("`notifications/cancelled` got HTTP {}", response.status())
            }
            Ok(Err(e)) => tracing::debug!("cancelling request {id} failed: {e}"),
            Err(_) => tracing::debug!(
                "cancelling request {id} took past the call's {} ms to end; left to the server",
                FAREWELL_LIMIT.as_millis()
            ),
        }
    }
}

/// A `server/discover` result from what a session's `initialize` answered:
/// its revision, capabilities, instructions and server info (marked
/// `mur/fromInitialize`: mur wrote it, the server has no such method).
fn discovered(session: &Session) -> Value {
    let initialized = &session.initialized;
    let mut result = json!({
        "supportedVersions": [session.version],
        "capabilities": initialized["capabilities"],
        "_meta": {
            "io.modelcontextprotocol/serverInfo": initialized["serverInfo"],
            "mur/fromInitialize": true,
        },
    });
    if let Some(instructions) = initialized.get("instructions").filter(|i| !i.is_null()) {
        result["instructions"] = instructions.clone();
    }
    result
}

#[cfg(test)]
mod tests {
    use std::io::{BufReader, Write as _};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use mur_core::Settings;
    use mur_http::Http;
    use serde_json::{Value, json};

    use crate::request::LEGACY_VERSION;
    use crate::tests::call_tool;
    use crate::{Client, Reply};

    /// The next request on a connection: its HTTP method and its body's
    /// JSON-RPC method (for a POST), read whole; `None` once the client closed it.
    fn read_request(reader: &mut BufReader<std::net::TcpStream>) -> Option<(String, Value)> {
        let request = mur_testkit::stub::read_request(reader)?;
        Some((request.method.to_ascii_uppercase(), request.json()))
    }

    /// The requests a test server read: each one's connection (from 0) and method.
    type Read = Arc<Mutex<Vec<(usize, String)>>>;

    /// A 2025-11-25 server that closes its connections without `Connection:
    /// close`: each answers its first request, then reads the next whole and
    /// closes without answering it. It notes each request it read: its
    /// connection (from 0) and its method (the JSON-RPC one for a POST).
    fn closing_server() -> (String, Read) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let endpoint = format!("http://{}/mcp", listener.local_addr().expect("address"));
        let read = Arc::new(Mutex::new(Vec::new()));
        let noted = Arc::clone(&read);
        std::thread::spawn(move || {
            for (n, conn) in listener.incoming().flatten().enumerate() {
                let noted = Arc::clone(&noted);
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(conn.try_clone().expect("clone"));
                    let mut writer = conn;
                    for answered in [true, false] {
                        let Some((verb, body)) = read_request(&mut reader) else {
                            return;
                        };
                        let method = body["method"].as_str().unwrap_or(&verb).to_owned();
                        noted.lock().expect("noted").push((n, method.clone()));
                        if !answered {
                            return;
                        }
                        let result = |result: Value| {
                            let reply =
                                json!({ "jsonrpc": "2.0", "id": body["id"], "result": result });
                            format!(
                                "200 OK\r\ncontent-type: application/json\r\nmcp-session-id: s1\r\n\
                                 content-length: {}\r\n\r\n{reply}",
                                reply.to_string().len()
                            )
                        };
                        let answer = match method.as_str() {
                            "initialize" => result(json!({
                                "protocolVersion": LEGACY_VERSION,
                                "capabilities": { "tools": {} },
                                "serverInfo": { "name": "closer", "version": "0" },
                            })),
                            "tools/call" => {
                                result(json!({ "content": [{ "type": "text", "text": "done" }] }))
                            }
                            "GET" => "405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n".into(),
                            _ => "202 Accepted\r\ncontent-length: 0\r\n\r\n".into(),
                        };
                        let _ = write!(writer, "HTTP/1.1 {answer}");
                    }
                });
            }
        });
        (endpoint, read)
    }

    /// Against a server that closes connections unsaid, the legacy session's
    /// `notifications/initialized`, written on `initialize`'s kept connection and
    /// met by its close, is sent again on a new one (it does nothing more when
    /// sent twice); the server then known to close them, the call goes on a
    /// connection of its own, not one the server is about to close: a
    /// `tools/call` is never sent twice, so it must not meet a close.
    #[test]
    fn a_legacy_session_opens_and_calls_on_a_server_that_closes_connections_unsaid() {
        let (endpoint, read) = closing_server();
        let mut settings = Settings::quiet_call(&endpoint, Duration::from_secs(20), 1 << 20);
        settings.protocol = Some(LEGACY_VERSION.to_owned());
        let http = Http::new();
        let client = Client::new(&http, &endpoint, &settings);
        let params = json!({ "name": "t", "arguments": {} });
        let reply = call_tool(&client, &params, settings.timeout);
        let read = read.lock().expect("read").clone();
        assert_eq!(
            reply.unwrap_or_else(|e| panic!("{}; the server read {read:?}", e.message())),
            Reply::Result(json!({ "content": [{ "type": "text", "text": "done" }] }))
        );
        let on = |method: &str| {
            read.iter()
                .filter(|(_, m)| m == method)
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
        };
        assert_eq!(on("initialize"), [0], "{read:?}");
        assert_eq!(on("notifications/initialized"), [0, 1], "{read:?}");
        let call = on("tools/call");
        assert_eq!(call.len(), 1, "{read:?}");
        assert_eq!(
            read.iter()
                .find(|(n, _)| *n == call[0])
                .map(|(_, m)| m.as_str()),
            Some("tools/call"),
            "the call is its connection's first request: {read:?}"
        );
    }
}
