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
//! idle timeout (often 30 minutes) because a call failed or timed out.

use reqwest::header::HeaderMap;
use serde_json::{Value, json};

use super::request::{self, HEADER_PROTOCOL_VERSION, HEADER_SESSION_ID};
use super::response::Reply;
use super::{Answer, Client, FAREWELL_LIMIT, LOG_LEVEL, describe};
use mur_core::{Error, Result};

const INIT_ID: u64 = 1;
const CALL_ID: u64 = 2;
const LEVEL_ID: u64 = 3;

/// A session opened by `initialize`.
#[derive(Debug, Clone)]
pub(super) struct Session {
    id: Option<String>,
    version: String,
    /// Whether the server declared `logging`.
    logs: bool,
}

impl Client<'_> {
    /// Runs `method` inside a short-lived legacy session offering `version`.
    /// The session is left in the slot; [`Client::call`] ends it.
    pub(super) async fn legacy(
        &self,
        method: &str,
        params: Option<&Value>,
        version: &str,
    ) -> Result<Reply> {
        let session = self.initialize(version).await?;
        self.in_session(&session, method, params).await
    }

    async fn initialize(&self, version: &str) -> Result<Session> {
        let params = json!({
            "protocolVersion": version,
            "capabilities": request::client_capabilities(),
            "clientInfo": request::client_info(),
        });
        let body = request::body(INIT_ID, "initialize", Some(&params));
        tracing::debug!("POST {} initialize (protocol {version})", self.endpoint);
        let response = self
            .send(
                self.http
                    .post(self.endpoint)
                    .headers(request::base_headers())
                    .json(&body),
            )
            .await?;
        let id = response
            .headers()
            .get(HEADER_SESSION_ID)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        // From here on the server holds a session: make sure it is ended,
        // even if its answer never arrives.
        let offered = Session {
            id: id.clone(),
            version: version.to_owned(),
            logs: false,
        };
        self.keep_session(offered.clone());
        let status = response.status();
        match self.read(response, INIT_ID, &offered.headers()).await? {
            Answer::Reply(Reply::Result(result)) => {
                let version = result["protocolVersion"]
                    .as_str()
                    .unwrap_or(version)
                    .to_owned();
                tracing::debug!("legacy session {id:?}, protocol {version}");
                let logs = result["capabilities"]["logging"].is_object();
                let session = Session { id, version, logs };
                self.keep_session(session.clone());
                Ok(session)
            }
            Answer::Reply(Reply::Error(e)) => Err(Error::transport(format!(
                "`{}` refused `initialize`: {}",
                self.endpoint,
                e["message"].as_str().unwrap_or("(no message)")
            ))),
            Answer::Other { text, .. } => Err(Error::transport(format!(
                "`{}` answered HTTP {status} and no MCP response: {}",
                self.endpoint,
                if text.is_empty() {
                    "(empty body)"
                } else {
                    &text
                }
            ))),
        }
    }

    async fn in_session(
        &self,
        session: &Session,
        method: &str,
        params: Option<&Value>,
    ) -> Result<Reply> {
        let note = request::body(None, "notifications/initialized", None);
        let ack = self
            .send(
                self.http
                    .post(self.endpoint)
                    .headers(session.headers())
                    .json(&note),
            )
            .await?;
        if !ack.status().is_success() {
            return Err(Error::transport(format!(
                "`{}` answered HTTP {} to `notifications/initialized`",
                self.endpoint,
                ack.status()
            )));
        }
        if self.verbose && session.logs {
            self.set_level(session).await;
        }
        let body = request::session_body(CALL_ID, method, params, &self.meta());
        let response = self
            .send(
                self.http
                    .post(self.endpoint)
                    .headers(session.headers())
                    .json(&body),
            )
            .await?;
        let status = response.status();
        match self.read(response, CALL_ID, &session.headers()).await? {
            Answer::Reply(reply) => Ok(reply),
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

    /// `-v`: asks the server for its log messages from [`LOG_LEVEL`] up. A
    /// server that refuses is no reason to fail the call.
    async fn set_level(&self, session: &Session) {
        let params = json!({ "level": LOG_LEVEL });
        let body = request::body(LEVEL_ID, "logging/setLevel", Some(&params));
        let post = self
            .http
            .post(self.endpoint)
            .headers(session.headers())
            .json(&body);
        let outcome = match self.send(post).await {
            Ok(response) => self.read(response, LEVEL_ID, &session.headers()).await,
            Err(e) => Err(e),
        };
        match outcome {
            Ok(Answer::Reply(Reply::Result(_))) => {}
            Ok(other) => tracing::debug!("`logging/setLevel` was not accepted: {other:?}"),
            Err(e) => tracing::debug!("`logging/setLevel` failed: {}", e.message()),
        }
    }

    fn keep_session(&self, session: Session) {
        if let Ok(mut slot) = self.session.lock() {
            *slot = Some(session);
        }
    }

    /// Ends the session this call opened, if any, with its own short bound;
    /// a server that cannot (405), a failure or no answer in time is fine.
    pub(super) async fn end_session(&self) {
        let session = self.session.lock().ok().and_then(|mut slot| slot.take());
        let Some(session) = session.filter(|s| s.id.is_some()) else {
            return;
        };
        tracing::debug!("DELETE {} (ending session {:?})", self.endpoint, session.id);
        let delete = self
            .http
            .delete(self.endpoint)
            .headers(session.headers())
            .send();
        match tokio::time::timeout(FAREWELL_LIMIT, delete).await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => tracing::debug!("ending the session failed: {}", describe(&e)),
            Err(_) => tracing::debug!(
                "ending the session took longer than {} ms; left to the server",
                FAREWELL_LIMIT.as_millis()
            ),
        }
    }
}

impl Session {
    fn headers(&self) -> HeaderMap {
        let mut h = request::base_headers();
        request::insert(&mut h, HEADER_PROTOCOL_VERSION, &self.version);
        if let Some(id) = &self.id {
            request::insert(&mut h, HEADER_SESSION_ID, id);
        }
        h
    }
}
