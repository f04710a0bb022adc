//! The session form for servers of the 2025-11-25 revision: `initialize`,
//! take `Mcp-Session-Id`, `notifications/initialized`, the call, then `DELETE`
//! the session so the server can drop it at once.

use reqwest::header::HeaderMap;
use serde_json::{Value, json};

use super::request::{self, HEADER_PROTOCOL_VERSION, HEADER_SESSION_ID};
use super::response::{self, Answer, Reply};
use super::{Client, describe};
use crate::error::{Error, Result};

const INIT_ID: u64 = 1;
const CALL_ID: u64 = 2;

/// A session opened by `initialize`.
struct Session {
    id: Option<String>,
    version: String,
}

impl Client<'_> {
    /// Runs `method` inside a short-lived legacy session offering `version`.
    pub(super) async fn legacy(
        &self,
        method: &str,
        params: Option<&Value>,
        version: &str,
    ) -> Result<Reply> {
        let session = self.initialize(version).await?;
        let outcome = self.in_session(&session, method, params).await;
        self.close(&session).await;
        outcome
    }

    async fn initialize(&self, version: &str) -> Result<Session> {
        let params = json!({
            "protocolVersion": version,
            "capabilities": {},
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
        let status = response.status();
        match response::read(response, INIT_ID, self.verbose).await? {
            Answer::Reply(Reply::Result(result)) => {
                let version = result["protocolVersion"]
                    .as_str()
                    .unwrap_or(version)
                    .to_owned();
                tracing::debug!("legacy session {id:?}, protocol {version}");
                Ok(Session { id, version })
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
        let body = request::body(CALL_ID, method, params);
        let response = self
            .send(
                self.http
                    .post(self.endpoint)
                    .headers(session.headers())
                    .json(&body),
            )
            .await?;
        let status = response.status();
        match response::read(response, CALL_ID, self.verbose).await? {
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

    /// Ends the session; a server that cannot (405) or a failure is fine.
    async fn close(&self, session: &Session) {
        if session.id.is_none() {
            return;
        }
        if let Err(e) = self
            .http
            .delete(self.endpoint)
            .headers(session.headers())
            .send()
            .await
        {
            tracing::debug!("closing the session failed: {}", describe(&e));
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
