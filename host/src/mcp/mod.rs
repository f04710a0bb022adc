//! The MCP client: one POST in the modern stateless form; a retry when the
//! server names the versions it supports (`-32022`); the legacy `initialize`
//! session dance for servers that want one. The whole call is bounded by the
//! caller's timeout.

mod legacy;
mod request;
mod response;

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::Value;

pub use request::{LEGACY_VERSION, MODERN_VERSION};
pub use response::{Reply, describe};

use crate::error::{Error, Result};
use response::Answer;

/// JSON-RPC error code of an unsupported protocol version.
const UNSUPPORTED_VERSION: i64 = -32022;
/// The id of the one request a modern call sends.
const CALL_ID: u64 = 1;

/// Builds the HTTP client once per process: no proxy lookup, no TLS, loopback only.
pub fn http_client() -> Result<reqwest::Client> {
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .map_err(|e| Error::transport(format!("cannot set up the HTTP client: {}", describe(&e))))
}

/// A client for one endpoint.
pub struct Client<'a> {
    http: &'a reqwest::Client,
    endpoint: &'a str,
    verbose: bool,
}

impl<'a> Client<'a> {
    pub fn new(http: &'a reqwest::Client, endpoint: &'a str, verbose: bool) -> Self {
        Self {
            http,
            endpoint,
            verbose,
        }
    }

    /// Sends `method` with `params` and returns the server's reply; never
    /// takes longer than `timeout`.
    pub async fn call(
        &self,
        method: &str,
        params: Option<&Value>,
        timeout: Duration,
    ) -> Result<Reply> {
        tokio::time::timeout(timeout, self.call_unbounded(method, params))
            .await
            .unwrap_or_else(|_| {
                Err(Error::transport(format!(
                    "`{}` did not answer within {} ms",
                    self.endpoint,
                    timeout.as_millis()
                ))
                .with_hint("a slow tool may need a longer `--timeout MS` before the verb name"))
            })
    }

    async fn call_unbounded(&self, method: &str, params: Option<&Value>) -> Result<Reply> {
        let first = self.modern(method, params, MODERN_VERSION).await?;
        match first {
            Step::Done(reply) => match supported_instead(&reply) {
                Some(version) => self.with_version(method, params, &version).await,
                None => Ok(reply),
            },
            Step::Legacy => self.legacy(method, params, LEGACY_VERSION).await,
        }
    }

    /// The one retry after `-32022`: modern form if the server supports a
    /// modern revision, otherwise the session form with its newest one.
    async fn with_version(
        &self,
        method: &str,
        params: Option<&Value>,
        version: &str,
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

    /// One modern POST.
    async fn modern(&self, method: &str, params: Option<&Value>, version: &str) -> Result<Step> {
        let body = request::modern_body(CALL_ID, method, params, version);
        let headers = request::modern_headers(method, params, version);
        tracing::debug!("POST {} {method} (protocol {version})", self.endpoint);
        let response = self
            .send(self.http.post(self.endpoint).headers(headers).json(&body))
            .await?;
        let status = response.status();
        let answer = response::read(response, CALL_ID, self.verbose).await?;
        classify(status, answer, self.endpoint)
    }

    async fn send(&self, builder: reqwest::RequestBuilder) -> Result<reqwest::Response> {
        builder
            .send()
            .await
            .map_err(|e| Error::transport(format!("`{}`: {}", self.endpoint, describe(&e))))
    }
}

/// Where a modern POST leaves us.
enum Step {
    Done(Reply),
    Legacy,
}

/// Decides what a modern POST's answer means: our reply (even on 4xx, as
/// modern servers send errors with 400/404); a legacy server (400 or 404
/// without a reply to us); or a malformed answer (exit 2).
fn classify(status: StatusCode, answer: Answer, endpoint: &str) -> Result<Step> {
    match answer {
        Answer::Reply(reply) => Ok(Step::Done(reply)),
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

/// The version to retry with, when `reply` is a `-32022` naming supported ones.
fn supported_instead(reply: &Reply) -> Option<String> {
    let Reply::Error(error) = reply else {
        return None;
    };
    if error["code"].as_i64() != Some(UNSUPPORTED_VERSION) {
        return None;
    }
    error["data"]["supported"]
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .filter(|v| *v != MODERN_VERSION)
        .max()
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_newest_other_supported_version_is_chosen() {
        let reply = Reply::Error(json!({
            "code": -32022, "message": "Unsupported protocol version",
            "data": { "requested": "2026-07-28", "supported": ["2025-06-18", "2025-11-25"] }
        }));
        assert_eq!(supported_instead(&reply).as_deref(), Some("2025-11-25"));
        assert_eq!(
            supported_instead(&Reply::Error(json!({ "code": -32601 }))),
            None
        );
    }

    #[test]
    fn a_modern_error_on_404_is_the_reply_not_a_legacy_hint() {
        let reply = Reply::Error(json!({ "code": -32601, "message": "Method not found" }));
        let step =
            classify(StatusCode::NOT_FOUND, Answer::Reply(reply.clone()), "e").expect("reply");
        assert!(matches!(step, Step::Done(r) if r == reply));
    }

    #[test]
    fn a_400_without_our_reply_means_legacy() {
        let other = Answer::Other {
            error: Some(json!({ "code": -32000 })),
            text: String::new(),
        };
        assert!(matches!(
            classify(StatusCode::BAD_REQUEST, other, "e"),
            Ok(Step::Legacy)
        ));
    }

    #[test]
    fn a_500_is_a_transport_error() {
        let other = Answer::Other {
            error: None,
            text: "boom".into(),
        };
        let err = classify(StatusCode::INTERNAL_SERVER_ERROR, other, "e")
            .err()
            .expect("error");
        assert_eq!(err.exit_code(), 2);
        assert!(err.message().contains("HTTP 500"));
    }
}
