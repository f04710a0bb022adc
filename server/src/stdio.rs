//! MCP over stdin/stdout. The session still takes the project's lockfile slot
//! (`transport: "stdio"`, `endpoint: "stdio"`) so a second launch is refused.

use std::time::Duration;

use mur_lockfile::{Lockfile, Registry, SlotLock};
use tokio_util::sync::CancellationToken;

use crate::error::ServeError;
use crate::{
    announce::Announcement,
    identity::SessionIdentity,
    mcp::DevtoolsHandler,
    shutdown::{StopReason, StopSignals},
    tools::SessionControl,
};

/// Time for a reload answer to reach stdout before the service is cancelled;
/// the stdio transport gives no completion signal to wait on.
const REPLY_FLUSH: Duration = Duration::from_millis(250);

pub(crate) async fn serve_stdio(
    registry: Registry,
    slot: SlotLock,
    identity: &SessionIdentity,
    handler: DevtoolsHandler,
    control: SessionControl,
) -> Result<(StopReason, Announcement), ServeError> {
    let mut lock = Lockfile::stdio(
        identity.pid,
        identity.project.clone(),
        identity.build_tag.clone(),
    );
    lock.started_at.clone_from(&identity.started_at);
    let mut signals = StopSignals::install()?;
    // stdin/stdout exist from the start, so the session is reachable right away.
    let announcement = Announcement::publish(registry, slot, &lock)?;
    let cancel = CancellationToken::new();
    // A task of its own, so the service keeps running (and can flush a reply)
    // after the stop request wins the race below.
    let mut service = tokio::spawn(run_service(handler, cancel.clone()));
    let asked = control.clone();
    let reason = tokio::select! {
        joined = &mut service => {
            joined.map_err(|error| ServeError::Mcp(error.to_string()))??;
            // A client may close stdin as soon as it has read a reload's answer (the
            // bridge does): the service can end before this loop sees the request,
            // and a reload answered is still a reload, not a plain end (exit 0,
            // which the bridge takes for a crash).
            return Ok((finished(&asked), announcement));
        }
        reason = signals.stop_requested(control) => reason,
    };
    if reason == StopReason::Reload {
        tokio::time::sleep(REPLY_FLUSH).await;
    }
    cancel.cancel();
    let _ = tokio::time::timeout(REPLY_FLUSH, service).await;
    Ok((reason, announcement))
}

/// Why a session whose service ended on its own stops: a reload a tool asked
/// for before it ended, else its client is done.
fn finished(control: &SessionControl) -> StopReason {
    if control.reload_requested() {
        StopReason::Reload
    } else {
        StopReason::Finished
    }
}

/// Serves until the client closes stdin or `cancel` fires.
async fn run_service(
    handler: DevtoolsHandler,
    cancel: CancellationToken,
) -> Result<(), ServeError> {
    let transport = rmcp::transport::stdio();
    let running = rmcp::service::serve_server_with_ct(handler, transport, cancel).await;
    match running {
        Ok(service) => {
            let quit = service.waiting().await;
            tracing::info!("stdio session ended: {quit:?}");
            Ok(())
        }
        // A client that closes stdin before initializing is a normal end.
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => Ok(()),
        Err(error) => Err(ServeError::Mcp(error.to_string())),
    }
}
