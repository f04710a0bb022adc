//! Whether a request reached the server's socket: each connection counts the
//! bytes it writes, and a request marked with a [`Delivery`] tells it when it is
//! handed to one, so that a caller who gave up on the exchange (a timeout) can say
//! whether the server may have acted on it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The bytes a connection wrote to its socket so far.
pub(crate) type Written = Arc<AtomicU64>;

/// How far the requests tracked by one [`Delivery`] went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// None was handed to a connection: the server has none of them.
    No,
    /// One was handed to a connection and none of its bytes were written when
    /// asked: the connection may still write it (or it may have been dropped).
    Maybe,
    /// Bytes of one were written to the socket: the server may have it all.
    Yes,
}

/// Learns whether the requests tracked by it ([`crate::Request::tracked`]) reached a
/// connection's socket: a caller whose exchange was cut off (a timeout dropped
/// it) says from it whether the server may have acted on them. Clones share it.
#[derive(Debug, Clone, Default)]
pub struct Delivery(Arc<Mutex<Handed>>);

#[derive(Debug, Default)]
struct Handed {
    /// Bytes of an earlier tracked request were written.
    written: bool,
    /// The server closed the connection before answering a tracked request.
    closed: bool,
    /// The last tracked request handed to a connection: that connection's
    /// count of bytes written, and the count when the request was handed to it.
    last: Option<(Written, u64)>,
}

impl Delivery {
    /// How far the tracked requests went, the furthest of them: once one was
    /// written it stays [`Sent::Yes`].
    pub fn sent(&self) -> Sent {
        let Ok(handed) = self.0.lock() else {
            return Sent::Maybe;
        };
        match &handed.last {
            _ if handed.written => Sent::Yes,
            Some((written, at)) if written.load(Ordering::Relaxed) > *at => Sent::Yes,
            Some(_) => Sent::Maybe,
            None => Sent::No,
        }
    }

    /// The last tracked request handed to a connection was refused with an HTTP
    /// error before the server ran anything (a session-based server's 400 or 404 to
    /// a modern request, a revision it does not speak): it no longer counts, so
    /// a call cut off before its next request is written is told "not sent".
    /// Earlier ones stand ([`Delivery::handed`] has counted one written).
    pub fn refused(&self) {
        if let Ok(mut handed) = self.0.lock() {
            handed.last = None;
        }
    }

    /// Whether the server closed the connection before answering a tracked request
    /// ([`crate::SendError::is_closed`]): a session that stopped during the call.
    pub fn was_closed(&self) -> bool {
        self.0.lock().is_ok_and(|handed| handed.closed)
    }

    /// The server closed the connection before answering a tracked request.
    pub(crate) fn closed(&self) {
        if let Ok(mut handed) = self.0.lock() {
            handed.closed = true;
        }
    }

    /// A tracked request is handed to the connection that has written `written`.
    pub(crate) fn handed(&self, written: &Written) {
        if let Ok(mut handed) = self.0.lock() {
            // A connection writes one request at a time: what it wrote since an
            // earlier request was handed to it was that request.
            if let Some((before, at)) = &handed.last
                && before.load(Ordering::Relaxed) > *at
            {
                handed.written = true;
            }
            handed.last = Some((Arc::clone(written), written.load(Ordering::Relaxed)));
        }
    }
}
