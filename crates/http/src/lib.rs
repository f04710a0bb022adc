//! mur's loopback HTTP: the connections a session's requests travel on.
//!
//! Requests to a session (the liveness probe, the MCP client's POSTs, GETs and
//! DELETEs) go over HTTP/1.1 connections this crate opens and keeps itself,
//! on hyper's client connection with nothing above it. A connection whose
//! answer was read to its end waits for the next request to the same
//! endpoint, so a call's probe and its POST share one, as the contract
//! floor's two requests do; a connection still busy (an event stream being
//! read) is left alone and another is opened. An endpoint whose server closed
//! a kept connection gets a new one for each request from then on, and a
//! request written on a kept connection that closed unanswered is sent again
//! only when that does nothing more (`send`'s `//!` says which: never a
//! `tools/call`). The one thing built on reqwest is [`Http::client`], made the
//! first time something asks for it: the OAuth flow's requests, through rmcp's
//! and oauth2's reqwest-shaped interfaces.
//!
//! Why not reqwest for everything: measured in `mur-bench`'s stack floors
//! (docs/performance.md, "What the HTTP stack costs"), the same probe and POST cost
//! ~0.1 ms more a call through the reqwest client than through hyper's
//! connection alone (building the client, its connector, pool and
//! middleware layers), on a path whose floor is ~1 ms.
//!
//! Nothing leaves the machine by a name: `localhost` is 127.0.0.1 without
//! asking a resolver and every other host name is refused, here and in the
//! reqwest client. Redirects are answers like any other, never followed; no
//! proxy is consulted; there is no TLS (sessions listen on loopback).

mod client;
mod delivery;
mod request;
mod send;

use std::sync::{Arc, Mutex, OnceLock};

use client::{NoLookups, client_builder};

pub use delivery::{Delivery, Sent};
pub use request::Request;
pub use send::{SendError, innermost, read_url};

/// The HTTP of one `mur` process: kept connections, and the reqwest client
/// once something needs it. Cheap to make: nothing is built or opened
/// before the first request.
#[derive(Default)]
pub struct Http {
    /// Connections whose last answer was read to its end, and the endpoints
    /// that close them.
    kept: Arc<Mutex<send::Kept>>,
    client: OnceLock<Result<reqwest::Client, String>>,
}

impl Http {
    pub fn new() -> Self {
        Self::default()
    }

    /// Sends `request` on a kept connection to its endpoint, or a new one;
    /// the answer's body is read through the returned response (its end
    /// frees the connection for the next request). Not bounded in time:
    /// callers bound the whole exchange.
    pub async fn send(&self, request: Request) -> Result<reqwest::Response, SendError> {
        let delivery = request.delivery.clone();
        let sent = send::send(&self.kept, request).await;
        if let (Err(e), Some(delivery)) = (&sent, delivery)
            && e.is_closed()
        {
            delivery.closed();
        }
        sent
    }

    /// The reqwest client, for what needs one (the OAuth flow): built on the
    /// first call, with no proxy, no redirects and no name lookups.
    pub fn client(&self) -> Result<&reqwest::Client, String> {
        self.client
            .get_or_init(|| {
                client_builder(NoLookups)
                    .build()
                    .map_err(|e| format!("cannot set up the HTTP client: {e}"))
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// Whether a `Content-Type` (or one media range of an `Accept`) is of the media type
/// `essence` (`text/event-stream`): its parameters aside, case folded, as RFC 9110
/// reads it. A prefix test took `TEXT/EVENT-STREAM` for JSON, and
/// `text/event-streamed` for an event stream.
pub fn media_type_is(value: &str, essence: &str) -> bool {
    let given = value.split_once(';').map_or(value, |(given, _)| given);
    given.trim().eq_ignore_ascii_case(essence)
}

#[cfg(test)]
mod tests;
