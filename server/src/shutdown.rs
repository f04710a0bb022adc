//! When a session ends: Ctrl+C, SIGTERM, or a tool asking for a reload.

use crate::tools::SessionControl;

/// Why the session is stopping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopReason {
    /// Ctrl+C or SIGTERM: remove the lockfile and exit.
    Signal,
    /// A tool called [`SessionControl::request_reload`]: hand over to a fresh process.
    Reload,
    /// The transport ended on its own (stdin closed, server error).
    Finished,
}

/// Resolves on the first of Ctrl+C, SIGTERM or a reload request.
pub(crate) async fn stop_requested(control: SessionControl) -> StopReason {
    tokio::select! {
        () = termination_signal() => StopReason::Signal,
        () = control.reload_wanted() => StopReason::Reload,
    }
}

#[cfg(unix)]
async fn termination_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    // If a handler cannot be installed the default action (exit) still applies,
    // so waiting forever on that signal is the honest fallback.
    let mut interrupt = signal(SignalKind::interrupt()).ok();
    let mut terminate = signal(SignalKind::terminate()).ok();
    tokio::select! {
        _ = recv_or_pending(interrupt.as_mut()) => tracing::info!("interrupted; shutting down"),
        _ = recv_or_pending(terminate.as_mut()) => tracing::info!("terminated; shutting down"),
    }
}

#[cfg(unix)]
async fn recv_or_pending(signal: Option<&mut tokio::signal::unix::Signal>) {
    match signal {
        Some(signal) => {
            signal.recv().await;
        }
        None => std::future::pending().await,
    }
}

#[cfg(not(unix))]
async fn termination_signal() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
    tracing::info!("interrupted; shutting down");
}
