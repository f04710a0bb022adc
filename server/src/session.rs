//! [`serve`]: one devtools session from single-instance check to lockfile removal.

use std::sync::Arc;

use mur_lockfile::{Lockfile, ReadOutcome, Registry, SlotLock, paths};

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
/// When a tool calls [`SessionControl::request_reload`], the answer is sent and
/// the lockfile removed. An HTTP session then starts the same program again (the
/// file at the path it was started from: after a rebuild, the new build) with the
/// same arguments, hands it the project's slot and its listening socket, and this
/// process **exits with code 0** — this function does not return in that case, so
/// no caller can keep a second session alive by accident. When the new process
/// cannot be started the reload fails: the error is logged, the lockfile written
/// again, and this session serves on. A stdio session is not started again by
/// itself (its client holds its stdin and stdout, and a new process would expect
/// the client's `initialize`): once the answer is written it exits with
/// [`STDIO_RELOAD_EXIT`](crate::STDIO_RELOAD_EXIT), for its client to start it
/// again, as the stdio bridge does.
pub async fn serve(options: SessionOptions, tools: ToolSet) -> Result<(), ServeError> {
    crate::tools::warn_about_tool_names(&tools);
    reload::remember_program();
    // A folder with one project file in it is that project's (as discovery finds it),
    // not a second slot beside the file's.
    let project =
        paths::canonical_project(&paths::project_file(&options.project)).map_err(|source| {
            ServeError::Project {
                path: options.project.clone(),
                source,
            }
        })?;
    let registry = Registry::default_location();
    prepare_registry(&registry)?;
    let lock_path = registry.path_for(&project);
    // A reload's successor takes over the slot its predecessor handed it, and only
    // then the listening socket.
    let slot = crate::single_instance::claim_slot(&registry, &lock_path).await?;

    let identity = Arc::new(SessionIdentity::new(project, options.build_tag.clone()));
    let control = SessionControl::default();
    let handler = DevtoolsHandler::new(
        Arc::new(tools),
        control.clone(),
        &options.server_name,
        &options.server_version,
    )
    .with_usage(recorder(&options.usage, &lock_path, &options.build_tag)?);
    match options.transport {
        SessionTransport::Http => {
            let listener = inherited_listener(options.port, slot.handed);
            serve_http(
                &options, registry, slot.lock, listener, identity, handler, control,
            )
            .await
        }
        SessionTransport::Stdio => {
            let handler = handler.marking_reloads();
            let (reason, announcement) =
                stdio::serve_stdio(registry, slot.lock, &identity, handler, control).await?;
            // The lockfile goes and the slot is released: the client that starts
            // this program again claims it anew.
            announcement.withdraw();
            if reason == StopReason::Reload {
                tracing::info!(
                    "reloading: exiting with status {} for the client to start this program again",
                    reload::STDIO_RELOAD_EXIT
                );
                std::process::exit(reload::STDIO_RELOAD_EXIT);
            }
            Ok(())
        }
    }
}

fn prepare_registry(registry: &Registry) -> Result<(), ServeError> {
    // Creates the directory 0700 and refuses one another user could tamper with.
    registry
        .ensure_dir()
        .map_err(|error| ServeError::registry_dir(registry.dir(), &error))
}

async fn serve_http(
    options: &SessionOptions,
    registry: Registry,
    slot: SlotLock,
    inherited: Option<std::net::TcpListener>,
    identity: Arc<SessionIdentity>,
    handler: DevtoolsHandler,
    control: SessionControl,
) -> Result<(), ServeError> {
    let mut listener = match inherited {
        Some(listener) => http::adopt(listener)?,
        None => http::bind(options.port.unwrap_or(0)).await?,
    };
    let port = listener
        .local_addr()
        .map_err(ServeError::io("cannot read the bound address"))?
        .port();
    let mut signals = StopSignals::install()?;
    let lockfile = http_lockfile(port, &identity);
    let lock_path = registry.path_for(&identity.project);
    let limits = options.http_limits;
    let handler = handler.with_task_limits(limits.max_tasks, limits.max_kept_tasks);
    let (app, mcp_cancel) = http::session_app(handler, identity, limits);
    let app = app.layer(axum::middleware::map_response(closing_once_reloading(
        control.clone(),
    )));
    let _end_mcp = mcp_cancel.drop_guard();
    let mut slot = slot;
    loop {
        let announcement = Announcement::publish(registry.clone(), slot, &lockfile)?;
        let mut stopped = None;
        let stop = async {
            let reason = signals.stop_requested(control.clone()).await;
            // Removed while the accept loop still holds the listener (it stops
            // accepting once this resolves, then gives the responses in flight up
            // to 3 s): a lockfile naming a port let go would send mur to whoever
            // binds it next. The slot is kept, for the rest of the stop or a
            // reload's successor.
            stopped = Some((reason, announcement.withdraw_for_reload()));
        };
        listener = http::serve_app_until(listener, app.clone(), limits, stop).await;
        let (reason, held) = stopped.unwrap_or((StopReason::Finished, None));
        if reason != StopReason::Reload {
            // The port is let go, then the slot.
            drop(listener);
            return Ok(());
        }
        let successor = Successor {
            registry: &registry,
            lock_path: &lock_path,
        };
        match hand_over(held.as_ref(), listener, successor, &mut signals).await {
            Ok(never) => match never {},
            Err((error, kept)) => {
                tracing::error!(
                    "the reload failed, this process serves on: {}",
                    error_line(&error)
                );
                control.reload_failed();
                listener = kept.ok_or(error)?;
                slot =
                    held.ok_or_else(|| ServeError::Registry("the slot's lock was lost".into()))?;
            }
        }
    }
}

/// Marks every response given once a reload is asked for (the reload's own
/// answer first) `Connection: close`: the client's next request then opens a
/// new connection, which waits in the handed-over socket's queue for the
/// successor, instead of going down one this process is about to close with it
/// unanswered.
fn closing_once_reloading(
    control: SessionControl,
) -> impl Fn(axum::response::Response) -> std::future::Ready<axum::response::Response> + Clone {
    move |mut response| {
        if control.reload_requested() {
            response.headers_mut().insert(
                axum::http::header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
        }
        std::future::ready(response)
    }
}

/// The listener a reloading predecessor handed this process, if it is that
/// predecessor's `successor` (it handed it the slot too).
fn inherited_listener(port: Option<u16>, successor: bool) -> Option<std::net::TcpListener> {
    #[cfg(unix)]
    return reload::inherited_listener(port, successor);
    #[cfg(not(unix))]
    {
        let _ = (port, successor);
        None
    }
}

/// `error` on one line, with its hint.
fn error_line(error: &ServeError) -> String {
    match error.hint() {
        Some(hint) => format!("{error} ({hint})"),
        None => error.to_string(),
    }
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

/// Where the successor announces itself: the project's lockfile.
struct Successor<'a> {
    registry: &'a Registry,
    lock_path: &'a std::path::Path,
}

/// How often a reloading session looks whether its successor has announced itself.
const SUCCESSOR_POLL: std::time::Duration = std::time::Duration::from_millis(20);

/// The lockfile is already gone and the listener no longer accepts: start the
/// successor, handing it the slot's lock and the listener, wait until it has
/// announced itself, and leave (at once on Ctrl+C or SIGTERM meanwhile). Only a
/// reload that failed returns: the new process could not be started, or it
/// exited before it announced itself (a new build that fails as it starts);
/// why, and the listener to serve on with (where the successor could not be
/// handed it, it was closed for the successor to bind).
async fn hand_over(
    slot: Option<&SlotLock>,
    listener: tokio::net::TcpListener,
    successor: Successor<'_>,
    signals: &mut StopSignals,
) -> Result<std::convert::Infallible, (ServeError, Option<tokio::net::TcpListener>)> {
    #[cfg(unix)]
    if reload::in_a_terminals_foreground() {
        tracing::info!(
            "reloading: restarting in place (pid {}), this terminal's foreground job",
            std::process::id()
        );
        let error = reload::exec_self(slot, &listener);
        return Err((error, Some(listener)));
    }
    #[cfg(unix)]
    let (started, listener) = (reload::respawn_self(slot, Some(&listener)), Some(listener));
    #[cfg(not(unix))]
    let (started, listener) = {
        drop(listener);
        (reload::respawn_self(slot, None), None)
    };
    let mut child = match started {
        Ok(child) => child,
        Err(error) => return Err((error, listener)),
    };
    let pid = child.id();
    tracing::info!("reloading: started pid {pid}");
    loop {
        // Announced by the successor, or by a successor of its own: a reload asked of
        // the new process between two looks here starts another and exits, and the
        // lockfile then names that one (this process withdrew its own, and the slot
        // is handed down the line, so no other writer names this project). Looked at
        // after the exit is taken: a successor that announced itself and then exited
        // handed over all the same (taken for a failed start, this process announced
        // itself again over the newest one's lockfile, whose port it no longer served).
        let exited = child.try_wait();
        let announced = matches!(
            successor.registry.read(successor.lock_path),
            ReadOutcome::Valid(lock) if lock.pid != std::process::id()
        );
        if announced {
            break;
        }
        if let Ok(Some(status)) = exited {
            let why =
                format!("the new process (pid {pid}) exited ({status}) before it announced itself");
            return Err((ServeError::Io(std::io::Error::other(why)), listener));
        }
        tokio::select! {
            () = signals.termination() => std::process::exit(0),
            () = tokio::time::sleep(SUCCESSOR_POLL) => {}
        }
    }
    std::process::exit(0)
}

/// The session's usage recorder, its log made at once. A log at a path the app was
/// given ([`UsageLogging::At`](crate::usage::UsageLogging::At)) that cannot be written
/// ends the start there ([`ServeError::UsageLog`]): whoever named it wants the calls
/// recorded, and a session that ran on would record none of an experiment. Beside
/// mur's own log, it is said in a warning at the start, not one per call the app
/// serves (the app runs on; its usage goes unrecorded).
fn recorder(
    logging: &crate::usage::UsageLogging,
    lockfile: &std::path::Path,
    build_tag: &str,
) -> Result<Option<crate::usage::Recorder>, ServeError> {
    let Some(recorder) = crate::usage::Recorder::new(logging, lockfile, build_tag) else {
        return Ok(None);
    };
    match recorder.ready() {
        Ok(()) => Ok(Some(recorder)),
        Err(why) if matches!(logging, crate::usage::UsageLogging::At(_)) => {
            Err(ServeError::UsageLog(why))
        }
        Err(why) => {
            // No recorder then: one kept would fail, and warn, again on every call.
            tracing::warn!("usage will not be recorded: {why}");
            Ok(None)
        }
    }
}
