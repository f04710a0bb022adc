//! How a call takes its legacy session from the [`crate::SharedSession`] its client
//! shares ([`Client::sharing`]), and tells when the server has forgotten it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use mur_core::Result;
use mur_http::Request;

use crate::Client;
use crate::session::{Session, Shared};
use crate::shared::{Kept, farewell};

/// The id of a call's `ping` asking whether the server still knows its session,
/// after the call's own requests (`initialize` 1, the call 2, `logging/setLevel` 3).
const PING_ID: u64 = 4;

impl Client<'_> {
    /// The legacy session a call runs in, offering `version` if it opens one: its
    /// own, or the one this client shares ([`Client::sharing`]) — reused while the
    /// server knows it at this endpoint, else opened anew and kept. Either way the
    /// call's copy is in its slot (for a `notifications/cancelled` on its way out,
    /// and a task's route); a shared one is not ended with the call.
    pub(crate) async fn session_for(&self, version: &str) -> Result<Session> {
        let Some(holder) = self.shared else {
            return self.open(version).await;
        };
        let mut kept = holder.kept.lock().await;
        let reusable = kept.as_ref().filter(|kept| {
            let expired = kept.session.shared.as_ref().map(|s| &s.expired);
            kept.endpoint == self.endpoint && !expired.is_some_and(|e| e.load(Ordering::SeqCst))
        });
        let (session, reused) = match reusable {
            Some(kept) => (kept.session.clone(), true),
            None => {
                if let Some(old) = kept.take() {
                    // The endpoint moved (the app restarted elsewhere): the old
                    // session is ended where it was, if anything answers there.
                    farewell(self.http, old).await;
                }
                let mut session = self.open(version).await?;
                if session.id.is_none() {
                    // No id, no session to keep: every call is as good as another.
                    return Ok(session);
                }
                session.shared = Some(Shared {
                    base: 0,
                    reused: false,
                    expired: Arc::new(AtomicBool::new(false)),
                    refused: Arc::default(),
                });
                tracing::debug!("keeping session {:?} for later calls", session.id);
                *kept = Some(Kept {
                    endpoint: self.endpoint.to_owned(),
                    farewell: self
                        .authorize(Request::delete(self.endpoint).headers(session.headers())),
                    session: session.clone(),
                });
                (session, false)
            }
        };
        let mut session = session;
        if let Some(shared) = session.shared.as_mut() {
            shared.base = holder.next_base();
            shared.reused = reused;
            shared.refused = Arc::default();
        }
        if let Ok(mut slot) = self.session.lock() {
            *slot = Some(session.clone());
        }
        Ok(session)
    }

    /// Whether the server no longer knows `session`, a shared one the call found
    /// open, as it refused this call's own request with an HTTP error before any
    /// method ran: that request may then be sent again in a new session. A
    /// request answered otherwise never is, whatever another call learnt of the
    /// session meanwhile ([`Shared::expired`]): it may have run. A 404 says the
    /// session is gone; after a 400, which a server may also answer a request it
    /// finds bad, a `ping` in the session asks: one refused too (400 or 404)
    /// means the session is gone.
    pub(crate) async fn lost(&self, session: &Session) -> bool {
        let Some(shared) = session.shared.as_ref().filter(|shared| shared.reused) else {
            return false;
        };
        match shared.refused.load(Ordering::SeqCst) {
            404 => return true,
            400 => {}
            _ => return false,
        }
        tracing::debug!(
            "POST {} ping (asking whether session {:?} is still known, after an HTTP 400)",
            self.endpoint,
            session.id
        );
        let ping = crate::request::body(session.wire(PING_ID), "ping", None);
        let gone = match self.post_in_session(session, &ping).await {
            Ok(answer) => matches!(
                answer.status(),
                reqwest::StatusCode::NOT_FOUND | reqwest::StatusCode::BAD_REQUEST
            ),
            Err(e) => {
                tracing::debug!(
                    "the `ping` asking after the session failed: {}",
                    e.message()
                );
                false
            }
        };
        if gone {
            shared.expired.store(true, Ordering::SeqCst);
        }
        gone
    }
}
