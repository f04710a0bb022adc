//! What a call keeps outside its future, so that the timeout cannot take it along: a
//! legacy session's state (what `initialize` agreed and the id the server named), held
//! from the moment the server names it until the `DELETE` that ends it
//! ([`crate::legacy`]); and the task the call waits for, until its outcome is in or it
//! is cancelled ([`crate::task`]).

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
