//! [`serve`]: one devtools session from single-instance check to lockfile removal.

use std::sync::Arc;

use mur_lockfile::{Lockfile, Registry, SlotLock, paths};

use crate::error::ServeError;
use crate::options::{SessionOptions, SessionTransport};
use crate::{
    announce::Announcement,
    http,
    identity::SessionIdentity,
    mcp::DevtoolsHandler,
    reload,
    shutdown::{StopReason, StopSignals},
    stdio,
    tools::{SessionControl, ToolSet},
};

/// Runs a devtools session for `options.project` exposing `tools`, until
/// Ctrl+C, SIGTERM or (stdio) the client closing stdin.
///
/// Startup follows seed 000 §6: if a live session already holds the project's
/// lockfile this returns [`ServeError::AlreadyActive`] before binding anything;
/// a stale lockfile is removed. Once the endpoint is reachable the lockfile is
/// written; it is removed again on every way out of this function.
///
/// When a tool calls [`SessionControl::request_reload`], the answer is sent,
/// the lockfile removed, the same executable started again with the same
/// arguments, and this process **exits with code 0** — this function does not
/// return in that case, so no caller can keep a second session alive by accident.
pub async fn serve(options: SessionOptions, tools: ToolSet) -> Result<(), ServeError> {
    crate::tools::warn_about_tool_names(&tools);
    let project =
        paths::canonical_project(&options.project).map_err(|source| ServeError::Project {
            path: options.project.clone(),
            source,
        })?;
    let registry = Registry::default_location();
    prepare_registry(&registry)?;
    let lock_path = registry.path_for(&project);
    let slot = crate::single_instance::claim_slot(&registry, &lock_path).await?;

    let identity = Arc::new(SessionIdentity::new(project, options.build_tag.clone()));
    let control = SessionControl::default();
    let handler = DevtoolsHandler::new(
        Arc::new(tools),
        control.clone(),
        &options.server_name,
        &options.server_version,
    )
    .with_usage(recorder(&options.usage, &lock_path, &options.build_tag));
    let (reason, slot) = match options.transport {
        SessionTransport::Http => {
            serve_http(&options, registry, slot, identity, handler, control).await?
        }
        SessionTransport::Stdio => {
            let (reason, announcement) =
                stdio::serve_stdio(registry, slot, &identity, handler, control).await?;
            match reason {
                StopReason::Reload => (reason, announcement.withdraw_for_reload()),
                _ => {
                    announcement.withdraw();
                    (reason, None)
                }
            }
        }
    };
    // The lockfile is gone; the slot is released here, or handed to the successor.
    match reason {
        StopReason::Reload => match hand_over(slot)? {},
        _ => drop(slot),
    }
    Ok(())
}

fn prepare_registry(registry: &Registry) -> Result<(), ServeError> {
    // Creates the directory 0700 and refuses one another user could tamper with.
    registry
        .ensure_dir()
        .map_err(|error| ServeError::Registry(format!("`{}`: {error}", registry.dir().display())))
}

async fn serve_http(
    options: &SessionOptions,
    registry: Registry,
    slot: SlotLock,
    identity: Arc<SessionIdentity>,
    handler: DevtoolsHandler,
    control: SessionControl,
) -> Result<(StopReason, Option<SlotLock>), ServeError> {
    let listener = http::bind(options.port.unwrap_or(0)).await?;
    let port = listener
        .local_addr()
        .map_err(ServeError::io("cannot read the bound address"))?
        .port();
    let signals = StopSignals::install()?;
    let announcement = Announcement::publish(registry, slot, &http_lockfile(port, &identity))?;

    let mut stopped = None;
    let stop = async {
        let reason = signals.stop_requested(control).await;
        // Removed while the accept loop still holds the listener (it closes it
        // once this resolves, then gives the responses in flight up to 3 s):
        // a lockfile naming a port let go would send mur to whoever binds it
        // next. The slot is kept, for the rest of the stop or a reload's successor.
        stopped = Some((reason, announcement.withdraw_for_reload()));
    };
    let limits = options.http_limits;
    let handler = handler.with_task_limits(limits.max_tasks, limits.max_kept_tasks);
    http::serve_until(listener, handler, identity, options.http_limits, stop).await?;
    Ok(stopped.unwrap_or((StopReason::Finished, None)))
}

fn http_lockfile(port: u16, identity: &SessionIdentity) -> Lockfile {
    let mut lock = Lockfile::http(
        port,
        identity.pid,
        identity.project.clone(),
        identity.build_tag.clone(),
    );
    lock.started_at.clone_from(&identity.started_at);
    lock
}

/// The lockfile is already gone and the transport closed: start the successor,
/// handing it the slot's lock, and leave. Only a failed start returns, as an
/// error, so the app exits 1.
fn hand_over(slot: Option<SlotLock>) -> Result<std::convert::Infallible, ServeError> {
    let pid = reload::respawn_self(slot.as_ref())?;
    tracing::info!("reloading: started pid {pid}");
    std::process::exit(0)
}

/// The session's usage recorder, its log made at once: a log that cannot be written
/// is said in a warning at the start, not one per call the app serves (the app runs
/// on; its usage goes unrecorded).
fn recorder(
    logging: &crate::usage::UsageLogging,
    lockfile: &std::path::Path,
    build_tag: &str,
) -> Option<crate::usage::Recorder> {
    let recorder = crate::usage::Recorder::new(logging, lockfile, build_tag)?;
    if let Err(why) = recorder.ready() {
        // No recorder then: one kept would fail, and warn, again on every call.
        tracing::warn!("usage will not be recorded: {why}");
        return None;
    }
    Some(recorder)
}
