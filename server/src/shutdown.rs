//! When a session ends: Ctrl+C, SIGTERM, or a tool asking for a reload.

use crate::error::ServeError;
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

/// Signal handlers, installed before the lockfile is written: a signal that
/// arrives after a reader can see the lockfile must reach our cleanup, not
/// the default action that would kill us and leave the file behind.
///
/// On Unix through signal-hook's self-pipe, not `tokio::signal`: tokio's
/// `signal` feature builds a signal driver into every runtime of a binary that
/// has it, and `mur` embeds this crate (the bridge serves through it), so each
/// `mur devtools …` call paid ~24 µs for a driver it never used. As with
/// tokio, a caught signal stays caught after these handlers are gone.
pub(crate) struct StopSignals {
    #[cfg(unix)]
    interrupt: unix::Wake,
    #[cfg(unix)]
    terminate: unix::Wake,
    /// Held, never awaited: with a handler installed, a write to a closed
    /// stdout/stderr (the terminal that started us is gone, or a reload
    /// successor whose inherited pipes were closed) fails with `EPIPE` instead
    /// of killing the process before it can remove its lockfile.
    #[cfg(unix)]
    _broken_pipe: unix::Wake,
}

impl StopSignals {
    #[cfg(unix)]
    pub(crate) fn install() -> Result<Self, ServeError> {
        use signal_hook::consts::{SIGINT, SIGPIPE, SIGTERM};
        let install = |signal| {
            unix::Wake::on(signal).map_err(ServeError::io("cannot install signal handlers"))
        };
        Ok(Self {
            interrupt: install(SIGINT)?,
            terminate: install(SIGTERM)?,
            _broken_pipe: install(SIGPIPE)?,
        })
    }

    #[cfg(not(unix))]
    pub(crate) fn install() -> Result<Self, ServeError> {
        Ok(Self {})
    }

    /// Resolves on the first of Ctrl+C, SIGTERM or a reload request; again, for a
    /// session that serves on after a reload that failed.
    pub(crate) async fn stop_requested(&mut self, control: SessionControl) -> StopReason {
        tokio::select! {
            () = self.termination() => StopReason::Signal,
            () = control.reload_wanted() => StopReason::Reload,
        }
    }

    /// Resolves on Ctrl+C or SIGTERM.
    #[cfg(unix)]
    pub(crate) async fn termination(&mut self) {
        tokio::select! {
            () = self.interrupt.arrived() => tracing::info!("interrupted; shutting down"),
            () = self.terminate.arrived() => tracing::info!("terminated; shutting down"),
        }
    }

    #[cfg(not(unix))]
    pub(crate) async fn termination(&mut self) {
        if tokio::signal::ctrl_c().await.is_err() {
            // No handler means the default action (exit) still applies.
            std::future::pending::<()>().await;
        }
        tracing::info!("interrupted; shutting down");
    }
}

#[cfg(unix)]
mod unix {
    use std::io;
    use std::os::raw::c_int;
    use std::os::unix::net::UnixStream;

    use signal_hook::SigId;

    /// One signal's handler: it writes a byte to a socket whose other end
    /// this holds; the handler goes when this is dropped.
    pub(super) struct Wake {
        read: tokio::net::UnixStream,
        id: SigId,
    }

    impl Wake {
        /// Installs the handler for `signal` (inside the runtime).
        pub(super) fn on(signal: c_int) -> io::Result<Self> {
            let (read, write) = UnixStream::pair()?;
            read.set_nonblocking(true)?;
            let read = tokio::net::UnixStream::from_std(read)?;
            let id = signal_hook::low_level::pipe::register(signal, write)?;
            Ok(Self { read, id })
        }

        /// Resolves when the signal has arrived (at once if it came before this
        /// was awaited). Cancel-safe.
        pub(super) async fn arrived(&mut self) {
            use tokio::io::AsyncReadExt as _;
            let mut byte = [0u8; 1];
            match self.read.read(&mut byte).await {
                Ok(1..) => {}
                // Nothing can come through any more, and nothing came: never
                // claim a signal that did not arrive.
                other => {
                    tracing::warn!("stopped listening for a signal: {other:?}");
                    std::future::pending::<()>().await;
                }
            }
        }
    }

    impl Drop for Wake {
        fn drop(&mut self) {
            signal_hook::low_level::unregister(self.id);
        }
    }
}
