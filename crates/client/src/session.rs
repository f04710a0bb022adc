//! A legacy session's state: what `initialize` agreed and the id the server named. The
//! client holds it in its slot from the moment the server names it until the `DELETE`
//! that ends it ([`crate::legacy`]).

use reqwest::header::HeaderMap;

use crate::request::{self, HEADER_PROTOCOL_VERSION, HEADER_SESSION_ID};

/// A session opened by `initialize`.
#[derive(Debug, Clone)]
pub(crate) struct Session {
    pub id: Option<String>,
    pub version: String,
    /// Whether the server declared `logging`.
    pub logs: bool,
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
