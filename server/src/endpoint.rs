//! A devtools endpoint around an MCP handler of the caller's own (the stdio
//! bridge): the same single-instance claim, loopback listener, Host/Origin
//! guard, body limits, probe and lockfile as [`serve`](crate::serve), so a
//! reader cannot tell it from any other session — and, for the bridge, a
//! secret every request but the probe must carry ([`Claimed::admitting_only`]).

use std::{path::Path, sync::Arc};

use axum::routing::MethodRouter;
use mur_lockfile::{Lockfile, Registry, SlotLock, paths};

use crate::error::ServeError;
use crate::http::HttpLimits;
/// How long [`claim`] waits for a slot another process holds without having announced
/// a session yet, before [`ServeError::SlotBusy`].
pub use crate::single_instance::SLOT_WAIT;
use crate::{
    announce::Announcement, http, identity::SessionIdentity, shutdown::StopSignals,
    tools::SessionControl,
};

/// A project's slot, claimed: no other session can start for it until this
/// is dropped or has served and withdrawn its lockfile.
pub struct Claimed {
    registry: Registry,
    lock_path: std::path::PathBuf,
    slot: SlotLock,
    identity: Arc<SessionIdentity>,
    /// The secret every request but the probe must carry ([`Claimed::admitting_only`]).
    secret: Option<Arc<str>>,
}

/// Claims the slot of `project` as [`serve`](crate::serve) does (seed 000 §6):
/// [`ServeError::AlreadyActive`] (exit 3) when a session holds it, a stale
/// lockfile removed. Nothing is announced yet.
pub async fn claim(project: &Path, build_tag: impl Into<String>) -> Result<Claimed, ServeError> {
    let canonical = paths::canonical_project(project).map_err(|source| ServeError::Project {
        path: project.to_owned(),
        source,
    })?;
    let registry = Registry::default_location();
    registry
        .ensure_dir()
        .map_err(|error| ServeError::registry_dir(registry.dir(), &error))?;
    let lock_path = registry.path_for(&canonical);
    let slot = crate::single_instance::claim_slot(&registry, &lock_path)
        .await?
        .lock;
    Ok(Claimed {
        registry,
        lock_path,
        slot,
        identity: Arc::new(SessionIdentity::new(canonical, build_tag.into())),
        secret: None,
    })
}

impl Claimed {
    /// Hands the slot to the program `command` starts, which claims it in turn
    /// ([`claim`]) without waiting: the slot is never free in between, and this
    /// process may let go of its claim once that program runs. A background bridge
    /// claims the slot before it opens the log its bridge writes, and hands it over.
    #[cfg(unix)]
    pub fn hand_to(&self, command: &mut std::process::Command) {
        self.slot.hand_to(command);
    }

    /// Where the lockfile will be written.
    pub fn lockfile_path(&self) -> &Path {
        &self.lock_path
    }

    /// The lockfile's `pid` (this process).
    pub fn pid(&self) -> u32 {
        self.identity.pid
    }

    /// The lockfile's `startedAt`.
    pub fn started_at(&self) -> &str {
        &self.identity.started_at
    }

    /// Serves only requests that carry `Authorization: Bearer <secret>` (any
    /// other is answered 401 before its body is read), the probe excepted: the
    /// stdio bridge's endpoint, whose server trusts its parent alone. The
    /// lockfile is the seed's as ever; the secret is the caller's to keep.
    pub fn admitting_only(mut self, secret: &str) -> Self {
        self.secret = Some(Arc::from(secret));
        self
    }

    /// The canonical project path, the lockfile's `project`.
    pub fn project(&self) -> &str {
        &self.identity.project
    }

    /// Binds 127.0.0.1 on a free port, announces the session (then tells
    /// `announced` its lockfile), and serves `post` (the POST and DELETE of
    /// `/mcp`) beside the probe until `stop` resolves or Ctrl+C / SIGTERM
    /// arrives. Then, while the listener still holds the port, the lockfile
    /// is removed and `stopping` is called (it can answer the responses in
    /// flight, and withdraw what else names the port), before those responses
    /// are given their last moments to finish and the port is let go: a
    /// lockfile naming a port this process no longer holds would send its
    /// readers (and the bridge's secret) to whoever binds it next. The slot
    /// stays held until the returned [`Announced`] is withdrawn or dropped,
    /// so the caller can stop what it serves before another session of the
    /// project can start.
    pub async fn serve(
        self,
        post: MethodRouter,
        limits: HttpLimits,
        announced: impl FnOnce(&Lockfile),
        stop: impl Future<Output = ()> + Send + 'static,
        stopping: impl FnOnce() + Send + 'static,
    ) -> Result<Announced, ServeError> {
        let listener = http::bind(0).await?;
        let port = listener
            .local_addr()
            .map_err(ServeError::io("cannot read the bound address"))?
            .port();
        let mut signals = StopSignals::install()?;
        let mut lock = Lockfile::http(
            port,
            self.identity.pid,
            self.identity.project.clone(),
            self.identity.build_tag.clone(),
        );
        lock.started_at.clone_from(&self.identity.started_at);
        let announcement = Announcement::publish(self.registry, self.slot, &lock)?;
        announced(&lock);
        let mut slot = None;
        let stopped = async {
            tokio::select! {
                _ = signals.stop_requested(SessionControl::default()) => {}
                () = stop => {}
            }
            // The accept loop still holds the listener (it closes it once this
            // resolves): the lockfile goes first, the slot is kept.
            slot = announcement.withdraw_for_reload();
            stopping();
        };
        let app = http::endpoint_router(self.identity, limits, post, self.secret);
        // The port is let go here, its sidecar and lockfile gone.
        drop(http::serve_app_until(listener, app, limits, stopped).await);
        Ok(Announced(slot))
    }
}

/// A served session's slot, its lockfile already removed, until withdrawn or
/// dropped.
pub struct Announced(Option<SlotLock>);

impl Announced {
    /// Releases the slot: another session of the project can start.
    pub fn withdraw(self) {
        drop(self.0);
    }
}
