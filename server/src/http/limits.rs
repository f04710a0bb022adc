//! How long the endpoint waits for a client, and how many clients and tasks it
//! holds.

use std::time::Duration;

/// From the moment a connection waits for a request — right after it is accepted,
/// and again right after each response — until that request's whole head (request
/// line and headers) has arrived. A local client writes its head in one go, in
/// microseconds; 10 s leaves room for a loaded machine while a silent or trickling
/// ("slowloris") connection is gone soon. hyper restarts this timer as soon as a
/// response is written, so it is also the keep-alive idle timeout: a connection with
/// no request in flight is closed after 10 s. (Node's own HTTP server closes idle
/// keep-alive connections after 5 s; a client opens a new one, which on loopback
/// costs well under a millisecond.) A request in flight is never cut by it.
pub(crate) const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// From the end of a request's head until its whole body has arrived (the total,
/// not a gap between bytes, so a body trickled a byte at a time cannot hold the
/// connection either). Bodies here are small JSON-RPC messages sent in one write.
pub(crate) const BODY_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Open connections at most. A devtools session serves one agent or person making
/// a few calls at a time (the benchmark drives 64 keep-alive clients); 256 is far
/// above that and far below the common soft limit of 1024 open files, which leaves
/// room for the app's own files and sockets. At the cap, the connection that has
/// been idle (no request in flight) the longest is closed to make room for the new
/// one, so a flood of idle connections can never lock a real client out; only when
/// every connection has a request in flight does a new one wait for a slot.
pub(crate) const MAX_CONNECTIONS: usize = 256;

/// Largest request head (request line and headers), in bytes; past it hyper answers
/// 431. A real head here is well under 2 KiB; this bounds what a connection that
/// streams header bytes can make us buffer (hyper's own bound is about 400 KiB).
pub(crate) const MAX_HEADER_BYTES: usize = 64 * 1024;

/// Largest request body read, in bytes: the sessions' one bound
/// ([`mur_lockfile::endpoint::MAX_REQUEST_BYTES`]), which mur reads too.
pub(crate) const MAX_BODY_BYTES: usize = mur_lockfile::endpoint::MAX_REQUEST_BYTES;

/// The HTTP endpoint's timeouts and connection cap. The defaults suit any app;
/// tests shorten them to see them act.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpLimits {
    /// Longest wait for a request's head, counted from the moment the connection
    /// waits for a request (after accept, and after each response), so it is also
    /// the keep-alive idle timeout. Default 10 s. Never cuts a request in flight.
    pub header_read_timeout: Duration,
    /// Longest wait for a request's whole body once its head is in. Default 10 s.
    pub body_read_timeout: Duration,
    /// Open connections at most (0 is taken as 1); at the cap the longest-idle
    /// connection is closed to admit a new one. Default 256.
    pub max_connections: usize,
    /// Calls running as tasks at most; at the cap, a call is served within its
    /// request. Default 64.
    pub max_tasks: usize,
    /// Tasks kept at most, running or ended: an ended task is kept, with its
    /// result, for an hour after it ends so that the client can read it. At the
    /// cap, a call is served within its request. Default 256.
    pub max_kept_tasks: usize,
}

impl Default for HttpLimits {
    fn default() -> Self {
        Self {
            header_read_timeout: HEADER_READ_TIMEOUT,
            body_read_timeout: BODY_READ_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
            max_tasks: crate::task::MAX_TASKS,
            max_kept_tasks: crate::task::MAX_KEPT_TASKS,
        }
    }
}
