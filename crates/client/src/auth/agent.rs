//! The authorization step, which needs a user agent: mur listens on
//! 127.0.0.1 (an ephemeral port, RFC 8252's loopback redirect) for the
//! authorization server to send the browser back with the code. On a terminal
//! the person is shown the page to open ([`Events::authorize`]); without one,
//! mur fetches the page itself and accepts an immediate redirect to its
//! listener (an authorization server that approves without a person);
//! anything else ends the call naming what to do.
//!
//! The listener answers one request: a hand-written reply, because all it
//! needs is the request line, and an HTTP server stack for one line would be
//! most of this file's weight.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use reqwest::header::LOCATION;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpListener;

use super::http::off_loopback;
use crate::events::Events;
use crate::response::describe;
use mur_core::{Error, Result};

/// Who approves an authorization on a terminal, and the time they have.
pub(crate) struct Person<'a> {
    /// Shows them the authorization page ([`Events::authorize`]).
    pub events: &'a dyn Events,
    /// The `--timeout`, the most a person is waited for.
    pub budget: Duration,
    /// Where the time spent waiting for them is added, so that the call's
    /// own bound moves out by as much (as for a question).
    pub waited: &'a Mutex<Duration>,
}

/// The path the authorization server sends the browser back to.
const CALLBACK: &str = "/callback";
/// The most bytes of a browser's request the listener reads.
const REQUEST_LIMIT: usize = 16 * 1024;

/// Where the authorization server redirects to.
pub(super) struct Redirect {
    listener: TcpListener,
    uri: String,
}

impl Redirect {
    pub(super) async fn open() -> Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await.map_err(|e| {
            Error::internal(format!(
                "cannot listen on 127.0.0.1 for the authorization redirect: {e}"
            ))
        })?;
        let port = listener
            .local_addr()
            .map_err(|e| Error::internal(format!("the redirect listener has no address: {e}")))?
            .port();
        Ok(Self {
            listener,
            uri: format!("http://127.0.0.1:{port}{CALLBACK}"),
        })
    }

    /// The `redirect_uri` of the flow.
    pub(super) fn uri(&self) -> &str {
        &self.uri
    }

    /// The URL the authorization server redirected to, code and state in its
    /// query: from the person's browser on a terminal, else straight from the
    /// authorization endpoint.
    pub(super) async fn follow(
        &self,
        http: &reqwest::Client,
        person: &Person<'_>,
        authorization_url: &str,
    ) -> Result<String> {
        if let Err(why) = mur_lockfile::endpoint::check_loopback(authorization_url) {
            return Err(off_loopback(authorization_url, &why));
        }
        if person.events.authorize(authorization_url) {
            return self.wait_for(person).await;
        }
        self.fetch(http, authorization_url).await
    }

    /// Without a person: the authorization endpoint must redirect at once.
    async fn fetch(&self, http: &reqwest::Client, url: &str) -> Result<String> {
        let response = http
            .get(url)
            .send()
            .await
            .map_err(|e| Error::transport(format!("`{}`: {}", origin(url), describe(&e))))?;
        let status = response.status();
        let location = response
            .headers()
            .get(LOCATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        match location {
            Some(location) if self.is_ours(&location) => Ok(location),
            _ => Err(Error::transport(format!(
                "the authorization server at `{}` wants a person to approve mur (its \
                 authorization page answered HTTP {status}{}), and stdin and stderr are not both \
                 a terminal to show the page on",
                origin(url),
                location
                    .map(|l| format!(
                        ", redirecting to `{}`",
                        crate::response::snippet(l.as_bytes())
                    ))
                    .unwrap_or_default()
            ))
            .with_hint(
                "run the command once on a terminal: mur shows the page to open, and later \
                 calls reuse the token it gets",
            )),
        }
    }

    /// Whether `location` leads back to this listener.
    fn is_ours(&self, location: &str) -> bool {
        location
            .strip_prefix(&self.uri)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('?'))
    }

    /// On a terminal: the person has a `--timeout` of their own, which does
    /// not count against the call. The call's bound only moves when it
    /// fires, so the whole window is reserved first (the call's bound may
    /// move out by all of it) and what was not used is given back if the
    /// bound has not taken it yet.
    async fn wait_for(&self, person: &Person<'_>) -> Result<String> {
        let budget = person.budget;
        if let Ok(mut waited) = person.waited.lock() {
            *waited += budget;
        }
        let started = Instant::now();
        let back = tokio::time::timeout(budget, self.wait()).await;
        let unused = budget.saturating_sub(started.elapsed());
        if let Ok(mut waited) = person.waited.lock() {
            *waited = waited.saturating_sub(unused);
        }
        back.unwrap_or_else(|_| {
            Err(Error::transport(format!(
                "the authorization page was not approved within {} ms (`--timeout`)",
                budget.as_millis()
            ))
            .with_hint("give yourself longer with `--timeout MS` before the verb name"))
        })
    }

    /// The browser's request to the listener.
    async fn wait(&self) -> Result<String> {
        loop {
            let (mut stream, _) = self.listener.accept().await.map_err(|e| {
                Error::internal(format!("the authorization redirect listener failed: {e}"))
            })?;
            let target = read_target(&mut stream).await;
            let ours = target
                .as_deref()
                .is_some_and(|t| t == CALLBACK || t.starts_with(&format!("{CALLBACK}?")));
            let (status, text) = if ours {
                ("200 OK", "mur is authorized. You can close this page.")
            } else {
                ("404 Not Found", "Not the authorization redirect.")
            };
            let reply = format!(
                "HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\n\
                 content-length: {}\r\nconnection: close\r\n\r\n{text}",
                text.len()
            );
            let _ = stream.write_all(reply.as_bytes()).await;
            let _ = stream.shutdown().await;
            if let Some(target) = target.filter(|_| ours) {
                let port = self.uri.trim_start_matches("http://");
                let host = port.split('/').next().unwrap_or_default();
                return Ok(format!("http://{host}{target}"));
            }
        }
    }
}

/// The request target of the request line (`GET /callback?code=… HTTP/1.1`).
async fn read_target(stream: &mut tokio::net::TcpStream) -> Option<String> {
    let mut buffer = Vec::new();
    let mut chunk = [0; 1024];
    while !buffer.windows(2).any(|w| w == b"\r\n") && buffer.len() < REQUEST_LIMIT {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
    let line = String::from_utf8_lossy(&buffer);
    let mut words = line.lines().next()?.split(' ');
    (words.next()? == "GET").then_some(())?;
    words.next().map(str::to_owned)
}

/// `scheme://host:port` of `url`, for messages (never the query: it holds
/// the state and the challenge).
fn origin(url: &str) -> String {
    reqwest::Url::parse(url)
        .map(|u| u.origin().ascii_serialization())
        .unwrap_or_else(|_| "(unparsable URL)".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn only_a_redirect_to_the_listener_is_accepted() {
        let redirect = Redirect::open().await.expect("listen");
        let uri = redirect.uri().to_owned();
        assert!(uri.starts_with("http://127.0.0.1:") && uri.ends_with("/callback"));
        assert!(redirect.is_ours(&format!("{uri}?code=c&state=s")));
        assert!(redirect.is_ours(&uri));
        assert!(!redirect.is_ours(&format!("{uri}x?code=c")));
        assert!(!redirect.is_ours("http://127.0.0.1:1/callback?code=c"));
    }

    #[test]
    fn messages_name_the_origin_only() {
        assert_eq!(
            origin("http://localhost:3000/authorize?state=secret"),
            "http://localhost:3000"
        );
    }
}
