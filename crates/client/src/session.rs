//! What a call keeps outside its future, so that the timeout cannot take it along: a
//! legacy session's state (what `initialize` agreed and the id the server named), held
//! from the moment the server names it until the `DELETE` that ends it
//! ([`crate::legacy`]); and the task the call waits for, until its outcome is in or it
//! is cancelled ([`crate::task`]). A session kept across calls ([`crate::SharedSession`],
//! the proxy's) is marked so in each call's copy ([`Shared`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};

use reqwest::StatusCode;
use reqwest::header::HeaderMap;

use crate::request::{self, HEADER_PROTOCOL_VERSION, HEADER_SESSION_ID};

/// A session opened by `initialize`.
#[derive(Debug, Clone)]
pub(crate) struct Session {
    pub id: Option<String>,
    pub version: String,
    /// Whether the server declared `logging`.
    pub logs: bool,
    /// What its `initialize` answered (null until it has).
    pub initialized: serde_json::Value,
    /// The id of the call's request while the server has not answered it: a
    /// call that ends without its answer tells the server to stop
    /// (`notifications/cancelled`) before the session is ended.
    pub unanswered: Option<u64>,
    /// Set when the session outlives the call ([`crate::SharedSession`]): the call
    /// then does not end it, and numbers its requests apart from the other calls'.
    pub shared: Option<Shared>,
}

/// A call's part in a session kept across calls.
#[derive(Debug, Clone)]
pub(crate) struct Shared {
    /// Added to each request id of the call: calls in flight at once share the
    /// session, and a server matches its answers (and a `notifications/cancelled`)
    /// to requests by id alone, so no two may send the same one.
    pub base: u64,
    /// The call found the session open (another call opened it), rather than
    /// opening it itself.
    pub reused: bool,
    /// The server no longer knows the session (one flag for every copy): the
    /// next call opens another. Any call's 404 sets it, so it says nothing of
    /// whether another call's request, in flight then, was run.
    pub expired: Arc<AtomicBool>,
    /// The HTTP status (404 or 400) the server refused this call's own request
    /// with, 0 if it did not: only such a request, which the server did not
    /// process, may be sent again in a new session ([`crate::Client::lost`]).
    pub refused: Arc<AtomicU16>,
}

impl Session {
    /// The headers of every request in the session: its revision and its id.
    pub fn headers(&self) -> HeaderMap {
        let mut h = request::base_headers();
        request::insert(&mut h, HEADER_PROTOCOL_VERSION, &self.version);
        if let Some(id) = &self.id {
            request::insert(&mut h, HEADER_SESSION_ID, id);
        }
        h
    }

    /// Request `id` of this call as sent in the session: as it is in a session of
    /// the call's own, moved to the call's own range in a shared one.
    pub fn wire(&self, id: u64) -> u64 {
        self.shared.as_ref().map_or(id, |shared| shared.base + id)
    }

    /// Notes the HTTP `status` a request in the session was answered with, `own`
    /// when it is the call's own (not a task's poll): in a shared session, a 404
    /// (what MCP says a server answers for a session it ended or never had: it
    /// restarted) marks it expired; a 404 or 400 to the call's own request marks
    /// that request refused — a 400 too because the TypeScript SDK's sample
    /// servers answer an unknown session so ("No valid session ID provided"),
    /// though rmcp answers a request it finds invalid so too.
    pub fn answered_with(&self, status: StatusCode, own: bool) {
        let Some(shared) = &self.shared else {
            return;
        };
        if status == StatusCode::NOT_FOUND {
            shared.expired.store(true, Ordering::SeqCst);
        }
        if own && matches!(status, StatusCode::NOT_FOUND | StatusCode::BAD_REQUEST) {
            shared.refused.store(status.as_u16(), Ordering::SeqCst);
        }
    }
}

/// How the call reached the server, and so how to ask after its task.
#[derive(Debug, Clone)]
pub(crate) enum Route {
    /// In the legacy session the call was made in.
    Session(Session),
    /// Stateless, in this modern revision.
    Modern(String),
}

/// The task a call waits for, until its outcome is in.
#[derive(Debug, Clone)]
pub(crate) struct Pending {
    pub route: Route,
    pub id: String,
    /// The `lastUpdatedAt` of the last status shown: a poll answered after a
    /// newer notification must not show the task going back.
    pub shown: String,
    /// The last status shown, named if the call runs out of time.
    pub status: String,
}
