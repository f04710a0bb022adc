//! `mur devtools proxy`: a stdio MCP server forwarding to the session
//! (crate `mur-bridge`). The first request that finds a session pins the
//! proxy to that session's project: every later request goes to that
//! project's session, found afresh as every command finds it (an app that
//! restarts moves to a new port and pid, one that reloads to a new pid or none), and never to another
//! project's — the agent host was told one server's capabilities and tools.
//! When that project has no session the request fails saying so; when its
//! session was a bridge (which stops after its idle time), saying when and why the
//! bridge stopped, and the command that starts it again, as its log ends.
//!
//! A session-based server (2025-11-25 and before, `Mcp-Session-Id`) gets one MCP
//! session for the proxy's life, not one a request: what it keeps per session (a task
//! the agent host asked for, a resource a tool made) is there for the next request.
//! It is opened again when the server forgets it (a restart) or the project's session
//! moves to another endpoint, and ended when the proxy's stdin ends (module `shared`
//! of mur-client), or when a signal ends the proxy (SIGTERM, as agent hosts end it;
//! SIGINT, SIGHUP: [`Upstream::end`]), not left to the server's idle timeout.
//!
//! A request has no bound of mur's own unless `--timeout` is given: the
//! agent host has its own timeouts and cancels what it gives up on, and the
//! 10 s a command line waits by default cut off tools an agent host waits for.
//!
//! `--usage` and `--usage-log PATH` mean what they mean for `bridge`, and are checked
//! by the same code before the proxy reads a line: each tool call forwarded is recorded
//! (module `proxy` of mur-bridge), naming the project of the session it went to.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mur_bridge::proxy::{Request, Stopped, Upstream};
use mur_client::{Events, Reply, SharedSession};
use mur_core::{Error, Kind, Result, Settings};

use crate::cli::ProxyArgs;
use crate::invoke::{self, Session};
use crate::output;

/// A request's bound when `--timeout` is not given: none of mur's own, in effect
/// (a bound is a time: a day is longer than any agent host waits).
const UNBOUNDED: Duration = Duration::from_secs(24 * 60 * 60);

/// A `--timeout` typed ([`Settings::timeout_given`]) bounds each request; else none is.
pub fn run(args: &ProxyArgs, settings: &Settings) -> Result<()> {
    // A log that cannot be written is refused before anything is served (exit 1 for a
    // mistyped directory, as the bridge refuses it).
    let usage = crate::usage::usage_logging(args.usage, args.usage_log.as_deref())?;
    let usage = mur_bridge::proxy::recorder(&usage)?;
    let mut settings = settings.clone();
    if !settings.timeout_given {
        settings.timeout = UNBOUNDED;
    }
    let upstream = Arc::new(Discovered {
        settings,
        pinned: Mutex::default(),
        shared: SharedSession::new(),
    });
    // Not `stdin().lock()`: the proxy reads it on a thread of its own.
    let stdin = std::io::BufReader::new(std::io::stdin());
    match mur_bridge::proxy::serve(upstream, stdin, output::protocol_stdout(), usage) {
        Ok(()) => Ok(()),
        Err(Stopped::Input(e)) => Err(Error::internal(format!("cannot read stdin: {e}"))),
        // A closed pipe is quiet (the agent host is gone); a full disk is said, exit 7.
        Err(Stopped::Output(e)) => Err(output::stdout_error(e)),
        // Its requests given up and its session ended: the proxy ends by the signal, as
        // it would have without the handlers (an agent host ends it with SIGTERM; it is
        // no recorded invocation: no line is said).
        Err(Stopped::Signal(signal)) => mur_procs::end_by_signal(signal),
    }
}

/// The session, found again for each request (an app that reloads moves),
/// of the project the first one found.
struct Discovered {
    settings: Settings,
    /// The project of the first session found; `None` until then, and for
    /// `--endpoint` (one server, used as given).
    pinned: Mutex<Option<Pinned>>,
    /// The session with a session-based server, kept across requests.
    shared: SharedSession,
}

/// The project the proxy forwards to, and what its session was when last found.
#[derive(Clone)]
struct Pinned {
    /// Its canonical path.
    project: String,
    /// The bridge that was its session, if it was one: its sidecar (which goes with
    /// it: how it was started is known only while it runs).
    bridge: Option<mur_bridge::Sidecar>,
}

impl Upstream for Discovered {
    fn call(&self, request: Request<'_>, events: &dyn Events) -> Result<Reply> {
        let mut settings = self.settings.clone();
        settings.verbose |= request.verbose;
        invoke::block_on(async {
            let session = self.session(&mut settings).await?;
            session
                .call_relayed(&settings, &request, events, &self.shared)
                .await
        })?
    }

    /// The pinned project's hash (`None` before the first session is found, and for
    /// `--endpoint`), as mur's own records name a session's.
    fn project(&self) -> Option<String> {
        let project = self.pinned()?.project;
        let name = mur_lockfile::paths::lockfile_name(&project);
        Some(name.trim_end_matches(".json").to_owned())
    }

    /// The requests are answered or given up: the session kept for them ends too,
    /// whatever ended the proxy (its input, a signal).
    fn end(&self) {
        if let Err(e) = invoke::block_on(self.shared.end()) {
            tracing::debug!("the proxy's session was not ended: {e}");
        }
    }
}

impl Discovered {
    /// The pinned project's session, or — before any was found — the session
    /// discovery picks, whose project is then pinned. Two first requests racing
    /// may find different sessions (one went, another came): the first to pin
    /// wins and the other looks again, for the pinned project's.
    async fn session(&self, settings: &mut Settings) -> Result<Session> {
        if let Some(pinned) = self.pinned() {
            return self.pinned_session(settings, &pinned).await;
        }
        let session = Session::resolve(settings).await?;
        let Some(found) = session.project.clone() else {
            return Ok(session);
        };
        let pinned = {
            let mut pinned = self.pinned.lock().unwrap_or_else(|e| e.into_inner());
            pinned
                .get_or_insert_with(|| Pinned {
                    project: found.clone(),
                    bridge: bridge_of(&session),
                })
                .clone()
        };
        if pinned.project == found {
            tracing::debug!("the proxy forwards to the sessions of `{found}` from now on");
            return Ok(session);
        }
        self.pinned_session(settings, &pinned).await
    }

    fn pinned(&self) -> Option<Pinned> {
        self.pinned
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The session of the project the proxy is pinned to; when it has none, an
    /// error naming it (and not the sessions of other projects: the proxy does
    /// not go to them), or the bridge it was.
    async fn pinned_session(&self, settings: &mut Settings, pinned: &Pinned) -> Result<Session> {
        settings.project = Some(pinned.project.clone().into());
        let session =
            Session::resolve(settings)
                .await
                .map_err(|e| match (e.kind(), &pinned.bridge) {
                    (Kind::NoSession, Some(bridge)) => bridge_gone(&pinned.project, bridge),
                    (Kind::NoSession, None) => pinned_gone(&pinned.project),
                    _ => e,
                })?;
        // The project's session now may be a bridge where an app was, or the
        // other way round: what it is now is what a later failure names.
        let bridge = bridge_of(&session);
        if let Ok(mut pinned) = self.pinned.lock()
            && let Some(pinned) = pinned.as_mut()
        {
            pinned.bridge = bridge;
        }
        Ok(session)
    }
}

/// The bridge that is `session`, if it is one (its lockfile has a sidecar
/// naming its process): its sidecar.
fn bridge_of(session: &Session) -> Option<mur_bridge::Sidecar> {
    let path = session.lockfile.as_deref()?;
    match mur_discovery::registry().read(path) {
        mur_lockfile::ReadOutcome::Valid(lock) => mur_bridge::bridge_of(path, &lock),
        _ => None,
    }
}

/// The pinned `project`'s session was a bridge, and it runs no more: when, why and
/// the command that starts it again (its options too), as the last stop among its
/// logs says (in every directory discovery searches, as for any command that finds no
/// session) if it is not older than that bridge; else, killed without a word, the
/// command it was started with, as its sidecar kept it.
fn bridge_gone(project: &str, bridge: &mur_bridge::Sidecar) -> Error {
    let forwards =
        format!("the bridge of project `{project}`, whose server this proxy forwards to");
    let lockfiles = mur_discovery::registry().paths_for(project);
    if let Some(stop) = mur_bridge::stop_since(&lockfiles, &bridge.started_at) {
        return Error::no_session(format!("{forwards}, stopped at {}: {}", stop.at, stop.why))
            .with_hint(format!(
                "{}; the proxy forwards to it once it runs",
                stop.again()
            ));
    }
    let again = match &bridge.again {
        Some(again) => format!("start it again as it was started: `{again}`"),
        // A bridge of an older mur kept only its server's command.
        None => format!(
            "start it again with the options it had: `mur devtools bridge --project {} … -- COMMAND…`, \
             its server's command as its log names it",
            mur_core::shell_word(project)
        ),
    };
    Error::no_session(format!(
        "{forwards}, has stopped without a word in its log (it was killed, or its log is \
         gone): `{}`",
        bridge.log.display()
    ))
    .with_hint(format!("{again}; the proxy forwards to it once it runs"))
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
