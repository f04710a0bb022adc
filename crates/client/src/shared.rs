//! One MCP session with a session-based server (2025-11-25 and before), kept across
//! the calls of a caller that lives on (the stdio proxy): what the server keeps per
//! session — a task it was asked for, a resource a tool made — is there for the
//! next request, as it is for any MCP client. A one-shot command makes no
//! [`SharedSession`]: its call opens a session of its own and ends it.
//!
//! The first call that needs a session opens it (`initialize`), under a lock that
//! later calls wait on; later calls reuse it, in flight at once as MCP allows, each
//! numbering its requests apart ([`crate::session::Shared::base`]). A new session
//! is opened when the server no longer knows the old one (it restarted: HTTP 404,
//! or the TypeScript SDK's 400) — the request it refused is sent again there — or
//! when the caller's endpoint moved (an app restarted on another port: the old
//! session is ended there, if anything still answers). [`SharedSession::end`] ends
//! it when the caller is done. How a call takes its session from here: module
//! `reuse`. The modern revision (2026-07-28) has no sessions:
//! a [`SharedSession`] changes nothing there.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mur_http::{Http, Request};

use crate::session::Session;

/// How far apart the request ids of two calls in a shared session are: more
/// than one call sends (its `initialize` excepted, which the session's first call
/// sends at 1: the first call's range starts one step up). A task's polls count
/// up from the call's ids, one a poll; a million of them is days of polling.
const IDS_PER_CALL: u64 = 1_000_000;
/// Bound on a kept session's `DELETE`: one request to loopback, which needs
/// milliseconds, at the caller's exit (or as its endpoint moved), which it must
/// not hold up.
const END_LIMIT: Duration = Duration::from_secs(1);

/// The session a long-lived caller keeps; give it to each of its clients with
/// [`Client::sharing`], and [`SharedSession::end`] it when done.
#[derive(Debug, Default)]
pub struct SharedSession {
    pub(crate) kept: tokio::sync::Mutex<Option<Kept>>,
    /// Calls made in the kept sessions so far: each takes the next id range.
    calls: AtomicU64,
}

/// The session kept, where, and the request that ends it.
#[derive(Debug)]
pub(crate) struct Kept {
    pub endpoint: String,
    pub session: Session,
    /// Its `DELETE`, with what lets mur in at the endpoint (a bridge's secret, an
    /// OAuth token) as the call that opened it had it.
    pub farewell: Request,
}

impl SharedSession {
    pub fn new() -> Self {
        Self::default()
    }

    /// Ends the session kept, if any (its `DELETE`, within [`END_LIMIT`]), so
    /// that the server can drop it at once; a server that cannot (405), a
    /// failure or no answer in time is fine. A call still opening one is not
    /// waited for past that either.
    pub async fn end(&self) {
        let Ok(mut kept) = tokio::time::timeout(END_LIMIT, self.kept.lock()).await else {
            tracing::debug!("a call still held the shared session; left to the server");
            return;
        };
        if let Some(kept) = kept.take() {
            farewell(&Http::new(), kept).await;
        }
    }

    /// The id range of the next call.
    pub(crate) fn next_base(&self) -> u64 {
        (self.calls.fetch_add(1, Ordering::Relaxed) + 1) * IDS_PER_CALL
    }
}

/// Sends `kept`'s `DELETE` (unless the server no longer knows it), within
/// [`END_LIMIT`].
pub(crate) async fn farewell(http: &Http, kept: Kept) {
    let expired = kept
        .session
        .shared
        .as_ref()
        .is_some_and(|shared| shared.expired.load(Ordering::SeqCst));
    if expired {
        return;
    }
    tracing::debug!(
        "DELETE {} (ending the shared session {:?})",
        kept.endpoint,
        kept.session.id
    );
    match tokio::time::timeout(END_LIMIT, http.send(kept.farewell)).await {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => tracing::debug!("ending the shared session failed: {e}"),
        Err(_) => tracing::debug!(
            "ending the shared session took past {} ms; left to the server",
            END_LIMIT.as_millis()
        ),
    }
}
