//! The MCP client: one POST in the modern stateless form; a retry when the
//! server names the versions it supports (`-32022`); the legacy `initialize`
//! session dance for servers that want one. The whole call is bounded by the
//! caller's timeout, every response body by the response limit
//! (`--max-response`), and a legacy session is ended in every outcome.
//!
//! The client never follows a redirect (a 3xx is a transport error naming the
//! `Location`), never looks up a host name, and refuses every request a server
//! sends back to it (`elicitation/create`, `sampling/createMessage`,
//! `roots/list`, …) at once, ending the call with exit 5.

mod legacy;
mod request;
mod response;

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Mutex;
use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{HeaderMap, LOCATION};
use serde_json::{Value, json};

pub use request::{LEGACY_VERSION, MODERN_VERSION};
pub use response::{Reply, describe};

use mur_core::Settings;
use mur_core::{Error, Result};
use response::{Answer, Reader, ServerRequest};

/// JSON-RPC error code of an unsupported protocol version.
const UNSUPPORTED_VERSION: i64 = -32022;
/// JSON-RPC "method not found": how mur answers a request from the server.
const METHOD_NOT_FOUND: i64 = -32601;
/// The id of the one request a modern call sends.
const CALL_ID: u64 = 1;
/// Bound on each courtesy request sent on the way out: the `DELETE` that
/// ends a legacy session and the refusal of a server's request. Both go to
/// loopback and need milliseconds; they must not hold up an exit.
const FAREWELL_LIMIT: Duration = Duration::from_millis(500);

/// Builds the HTTP client once per process: no proxy lookup, no TLS, loopback
/// only, no redirects, no DNS.
pub fn http_client() -> Result<reqwest::Client> {
    client_builder(NoLookups)
        .build()
        .map_err(|e| Error::transport(format!("cannot set up the HTTP client: {}", describe(&e))))
}

/// Every client mur builds, with `resolver` asked for names other than
/// `localhost` (in production, [`NoLookups`]).
fn client_builder(resolver: impl reqwest::dns::Resolve + 'static) -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .no_proxy()
        // A redirect would re-send the JSON-RPC body to wherever `Location`
        // points, another host included; a 3xx is an error instead (`send`).
        .redirect(reqwest::redirect::Policy::none())
        // `localhost` is 127.0.0.1 without asking a resolver: no DNS lookup,
        // so no query leaves the machine and no resolver can point it elsewhere.
        // (A port of 0 here means "the URL's port".)
        .resolve("localhost", SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .dns_resolver(resolver)
}

/// The resolver for every name but `localhost`: refuses. Endpoints are
/// loopback addresses; a host name in one is never looked up.
struct NoLookups;

impl reqwest::dns::Resolve for NoLookups {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let message = format!(
            "mur looks up no host names (`{}`): devtools endpoints are loopback addresses \
             (127.0.0.1, [::1]) or localhost",
            name.as_str()
        );
        Box::pin(async move { Err(message.into()) })
    }
}

/// A client for one endpoint.
pub struct Client<'a> {
    http: &'a reqwest::Client,
    endpoint: &'a str,
    verbose: bool,
    /// The most bytes one response body may have (`--max-response`).
    limit: u64,
    /// The user's `--timeout`, named when a call runs out of it (the bound
    /// of one call may be less: discovery spent part of it).
    budget: Duration,
    /// The legacy session this call opened and has not ended yet. It lives
    /// here, outside the call's future, so that the timeout, which drops that
    /// future wherever it is, cannot take the session with it: [`Client::call`]
    /// ends it afterwards in every outcome.
    session: Mutex<Option<legacy::Session>>,
}

impl<'a> Client<'a> {
    pub fn new(http: &'a reqwest::Client, endpoint: &'a str, settings: &Settings) -> Self {
        Self {
            http,
            endpoint,
            verbose: settings.verbose,
            limit: settings.max_response,
            budget: settings.timeout,
            session: Mutex::new(None),
        }
    }

    /// Sends `method` with `params` and returns the server's reply; never
    /// takes longer than `timeout` (what is left of the `--timeout`), plus
    /// [`FAREWELL_LIMIT`] to end a legacy session.
    pub async fn call(
        &self,
        method: &str,
        params: Option<&Value>,
        timeout: Duration,
    ) -> Result<Reply> {
        let outcome = tokio::time::timeout(timeout, self.call_unbounded(method, params)).await;
        // An answer, a failure, or the timeout having dropped the call in the
        // middle of a request: a session opened on the way is ended now.
        self.end_session().await;
        outcome.unwrap_or_else(|_| {
            Err(Error::transport(format!(
                "`{}` did not answer within {} ms",
                self.endpoint,
                self.budget.as_millis()
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
        let answer = self.reader().read(response, CALL_ID).await?;
        if let Answer::Request(request) = answer {
            let mut headers = request::base_headers();
            request::insert(&mut headers, request::HEADER_PROTOCOL_VERSION, version);
            return Err(self.refuse(&request, headers).await);
        }
        classify(status, answer, self.endpoint)
    }

    fn reader(&self) -> Reader<'_> {
        Reader {
            endpoint: self.endpoint,
            limit: self.limit,
            verbose: self.verbose,
        }
    }

    /// Sends a request; a redirect is an error, never followed.
    async fn send(&self, builder: reqwest::RequestBuilder) -> Result<reqwest::Response> {
        let response = builder
            .send()
            .await
            .map_err(|e| Error::transport(format!("`{}`: {}", self.endpoint, describe(&e))))?;
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

    /// Answers a request from the server with a JSON-RPC error at once, and
    /// returns the error that ends the call (exit 5): mur is one call from a
    /// shell, with no user to ask, no model to sample and no roots to list.
    /// Answering (rather than ignoring) lets the server's tool fail now
    /// instead of waiting for an answer that would never come.
    async fn refuse(&self, request: &ServerRequest, headers: HeaderMap) -> Error {
        let method = &request.method;
        tracing::debug!("refusing the server's request `{method}` ({})", request.id);
        let body = json!({
            "jsonrpc": "2.0",
            "id": request.id,
            "error": {
                "code": METHOD_NOT_FOUND,
                "message": format!(
                    "mur cannot answer `{method}`: it makes one call from a shell and has no \
                     user, model or roots to ask"
                ),
            },
        });
        let post = self.http.post(self.endpoint).headers(headers).json(&body);
        match tokio::time::timeout(FAREWELL_LIMIT, post.send()).await {
            Ok(Ok(r)) => tracing::debug!("the refusal was answered with HTTP {}", r.status()),
            Ok(Err(e)) => tracing::debug!("sending the refusal failed: {}", describe(&e)),
            Err(_) => tracing::debug!("sending the refusal timed out"),
        }
        Error::tool_failed(format!(
            "`{}` asked mur for `{method}` during the call, which mur cannot answer; \
             mur refused it (JSON-RPC error {METHOD_NOT_FOUND}) and abandoned the call",
            self.endpoint
        ))
        .with_hint(
            "mur answers no requests from the server yet (elicitation, sampling, roots): \
             call a tool that does not ask the client for input",
        )
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
        // Refused by the caller before it gets here; never a reply.
        Answer::Request(request) => Err(Error::transport(format!(
            "`{endpoint}` sent a request (`{}`) instead of an answer",
            request.method
        ))),
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

    /// A resolver that counts what it is asked and resolves nothing.
    #[derive(Clone, Default)]
    struct Counting(std::sync::Arc<std::sync::atomic::AtomicUsize>);

    impl reqwest::dns::Resolve for Counting {
        fn resolve(&self, _: reqwest::dns::Name) -> reqwest::dns::Resolving {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Box::pin(async { Err("no lookups in this test".into()) })
        }
    }

    #[test]
    fn localhost_is_reached_without_asking_a_resolver() {
        use std::io::{Read as _, Write as _};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let server = std::thread::spawn(move || {
            let (mut conn, _) = listener.accept().expect("accept");
            let mut buf = [0; 1024];
            let _ = conn.read(&mut buf).expect("read");
            conn.write_all(b"HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n")
                .expect("write");
        });
        let resolver = Counting::default();
        let http = client_builder(resolver.clone()).build().expect("client");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let status = runtime
            .block_on(http.get(format!("http://LocalHost:{port}/")).send())
            .expect("localhost answers")
            .status();
        assert_eq!(status, StatusCode::NO_CONTENT);
        server.join().expect("server");
        assert_eq!(resolver.0.load(std::sync::atomic::Ordering::SeqCst), 0);
        // Any other name goes to the resolver, which in mur refuses it.
        let err = runtime
            .block_on(http.get("http://devtools.invalid:9/").send())
            .expect_err("not resolved");
        assert_eq!(resolver.0.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert!(err.is_connect(), "{err:?}");
    }

    #[test]
    fn the_production_resolver_refuses_every_name() {
        let http = http_client().expect("client");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let err = runtime
            .block_on(http.get("http://example.com/").send())
            .expect_err("refused");
        assert!(
            describe(&err).contains("mur looks up no host names (`example.com`)"),
            "{}",
            describe(&err)
        );
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
