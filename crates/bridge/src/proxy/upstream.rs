//! What the proxy asks of the session, shared by the proxy and its task code
//! ([`super::tasks`]): the [`Upstream`] requests go to, a [`Request`], the [`Relay`] a
//! request's events go to, and [`Asking`], the requests made for one of the client's.

use std::time::Duration;

use mur_client::{Events, Reply, Response};
use mur_core::Result;
use serde_json::Value;

/// How often the proxy looks whether its requests ended, or its client went, and a
/// request waiting on a task whether it was cancelled.
pub(super) const LOOK_EVERY: Duration = Duration::from_millis(50);

/// One request for the session: `method` with `params`; `verbose` asks for the
/// session's log messages; `client` is the `clientInfo` the proxy's client gave
/// in `initialize` (its name and version, vetted), which the session is told is
/// who calls (its usage records name the agent host, not mur); `cancel` becomes
/// `true` when the client cancels the request, and the call should end then.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub method: &'a str,
    pub params: Option<&'a Value>,
    pub verbose: bool,
    pub client: Option<&'a Value>,
    pub cancel: &'a tokio::sync::watch::Receiver<bool>,
}

/// Where requests go: the session.
pub trait Upstream: Send + Sync + 'static {
    /// Sends `request`; progress, log messages and questions go to `events`.
    fn call(&self, request: Request<'_>, events: &dyn Events) -> Result<Reply>;

    /// The hash of the project whose session the requests go to (its lockfile's name
    /// without `.json`), once known, which the usage records name; `None` by default.
    fn project(&self) -> Option<String> {
        None
    }

    /// The proxy is done, its requests answered or given up (its input ended, or a
    /// signal ends it): ends what was kept for them, such as a session-based server's
    /// MCP session. Nothing by default.
    fn end(&self) {}
}

/// A request's events, relayed to its client, who can also be asked a task's questions
/// as the request waits on it (`tasks/result`).
pub(super) trait Relay: Events {
    /// Whether the client declared it can answer questions (`elicitation`).
    fn can_answer(&self) -> bool;

    /// Asks the client `elicitation/create` with `params` as given; its answer, if it
    /// gave one.
    fn elicit(&self, params: Value) -> Option<Response>;
}

/// The requests the proxy makes of the session for one of its client's — that request
/// itself, or those it is answered from (`server/discover` for `initialize`, `tasks/get`
/// for `tasks/result`) — made as that request is (its log level, who calls, its cancel),
/// their events relayed as its own.
pub(super) struct Asking<'a> {
    pub(super) upstream: &'a dyn Upstream,
    pub(super) verbose: bool,
    pub(super) client: Option<&'a Value>,
    pub(super) cancel: &'a tokio::sync::watch::Receiver<bool>,
    pub(super) events: &'a dyn Relay,
}

impl Asking<'_> {
    pub(super) fn call(&self, method: &str, params: Option<&Value>) -> Result<Reply> {
        let request = Request {
            method,
            params,
            verbose: self.verbose,
            client: self.client,
            cancel: self.cancel,
        };
        self.upstream.call(request, self.events)
    }

    /// Whether the client cancelled its request (or the proxy gave it up).
    pub(super) fn cancelled(&self) -> bool {
        *self.cancel.borrow()
    }
}
