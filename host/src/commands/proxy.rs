//! `mur devtools proxy`: a stdio MCP server forwarding to the session
//! (crate `mur-bridge`). The first request that finds a session pins the
//! proxy to that session's project: every later request goes to that
//! project's session, found afresh as every command finds it (an app that
//! reloads or restarts moves to a new port and pid), and never to another
//! project's — the agent host was told one server's capabilities and tools.
//!
//! A request has no bound of mur's own unless `--timeout` is given: the
//! agent host has its own timeouts and cancels what it gives up on, and the
//! 10 s a command line waits by default cut off tools an agent host waits for.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mur_bridge::proxy::{Request, Upstream};
use mur_client::{Events, Reply};
use mur_core::{Error, Kind, Result, Settings};

use crate::invoke::{self, Session};

/// A request's bound when `--timeout` is not given: none of mur's own, in effect
/// (a bound is a time: a day is longer than any agent host waits).
const UNBOUNDED: Duration = Duration::from_secs(24 * 60 * 60);

/// `timeout_given`: `--timeout` was typed, bounding each request; else none is.
pub fn run(settings: &Settings, timeout_given: bool) -> Result<()> {
    let mut settings = settings.clone();
    if !timeout_given {
        settings.timeout = UNBOUNDED;
    }
    let upstream = Arc::new(Discovered {
        settings,
        pinned: Mutex::default(),
    });
    mur_bridge::proxy::serve(upstream, std::io::stdin().lock(), std::io::stdout())
        .map_err(|e| Error::internal(format!("cannot read stdin: {e}")))
}

/// The session, found again for each request (an app that reloads moves),
/// of the project the first one found.
struct Discovered {
    settings: Settings,
    /// The canonical project of the first session found; `None` until then,
    /// and for `--endpoint` (one server, used as given).
    pinned: Mutex<Option<String>>,
}

impl Upstream for Discovered {
    fn call(&self, request: Request<'_>, events: &dyn Events) -> Result<Reply> {
        let mut settings = self.settings.clone();
        settings.verbose |= request.verbose;
        invoke::block_on(async {
            let session = self.session(&mut settings).await?;
            session.call_relayed(&settings, &request, events).await
        })?
    }
}

impl Discovered {
    /// The pinned project's session, or — before any was found — the session
    /// discovery picks, whose project is then pinned. Two first requests racing
    /// may find different sessions (one went, another came): the first to pin
    /// wins and the other looks again, for the pinned project's.
    async fn session(&self, settings: &mut Settings) -> Result<Session> {
        if let Some(project) = self.pinned() {
            return pinned_session(settings, &project).await;
        }
        let session = Session::resolve(settings).await?;
        let Some(found) = session.project.clone() else {
            return Ok(session);
        };
        let project = {
            let mut pinned = self.pinned.lock().unwrap_or_else(|e| e.into_inner());
            pinned.get_or_insert(found.clone()).clone()
        };
        if project == found {
            tracing::debug!("the proxy forwards to the sessions of `{project}` from now on");
            return Ok(session);
        }
        pinned_session(settings, &project).await
    }

    fn pinned(&self) -> Option<String> {
        self.pinned
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// The session of `project`, the one the proxy is pinned to; when it has none,
/// an error naming it (and not the sessions of other projects: the proxy does not
/// go to them).
async fn pinned_session(settings: &mut Settings, project: &str) -> Result<Session> {
    settings.project = Some(project.into());
    Session::resolve(settings)
        .await
        .map_err(|e| match e.kind() {
            Kind::NoSession => pinned_gone(project),
            _ => e,
        })
}

/// No session of the pinned `project` runs (now).
fn pinned_gone(project: &str) -> Error {
    let word = mur_core::shell_word(project);
    Error::no_session(format!(
        "no live devtools session for project `{project}`, the one this proxy forwards to"
    ))
    .with_hint(format!(
        "start its app again (or its bridge: `mur devtools bridge --project {word} -- COMMAND…`): \
         the proxy forwards to the project's next session, whatever its port"
    ))
    .with_hint(
        "the proxy keeps to the project of the first session it found, as the agent host \
         was told that session's tools; for another project's, configure another proxy with \
         `mur devtools --project PATH proxy`",
    )
}
