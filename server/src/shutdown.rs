//! When a session ends: Ctrl+C, SIGTERM, or a tool asking for a reload.

use crate::{ServeError, tools::SessionControl};

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

/// Signal handlers, installed before the lockfile is written: a signal that
/// arrives after a reader can see the lockfile must reach our cleanup, not
/// the default action that would kill us and leave the file behind.
pub(crate) struct StopSignals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
    /// Held, never awaited: with a handler installed, a write to a closed
    /// stdout/stderr (the terminal that started us is gone, or a reload
    /// successor whose inherited pipes were closed) fails with `EPIPE` instead
    /// of killing the process before it can remove its lockfile.
    #[cfg(unix)]
    _broken_pipe: tokio::signal::unix::Signal,
}

impl StopSignals {
    #[cfg(unix)]
    pub(crate) fn install() -> Result<Self, ServeError> {
        use tokio::signal::unix::{SignalKind, signal};
        let install = |kind| signal(kind).map_err(ServeError::io("cannot install signal handlers"));
        Ok(Self {
            interrupt: install(SignalKind::interrupt())?,
            terminate: install(SignalKind::terminate())?,
            _broken_pipe: install(SignalKind::pipe())?,
        })
    }

    #[cfg(not(unix))]
    pub(crate) fn install() -> Result<Self, ServeError> {
        Ok(Self {})
    }

    /// Resolves on the first of Ctrl+C, SIGTERM or a reload request.
    pub(crate) async fn stop_requested(mut self, control: SessionControl) -> StopReason {
        tokio::select! {
            () = self.termination() => StopReason::Signal,
            () = control.reload_wanted() => StopReason::Reload,
        }
    }

    #[cfg(unix)]
    async fn termination(&mut self) {
        tokio::select! {
            _ = self.interrupt.recv() => tracing::info!("interrupted; shutting down"),
            _ = self.terminate.recv() => tracing::info!("terminated; shutting down"),
        }
    }

    #[cfg(not(unix))]
    async fn termination(&mut self) {
        if tokio::signal::ctrl_c().await.is_err() {
            // No handler means the default action (exit) still applies.
            std::future::pending::<()>().await;
        }
        tracing::info!("interrupted; shutting down");
    }
}
