//! Why a session could not start or keep running.

use std::{io, net::SocketAddr, path::PathBuf};

/// An error from [`serve`](crate::serve). Messages are one lowercase line.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Another live session holds this project's lockfile; the app should exit with code 3.
    #[error("another session for this project is active at {endpoint} (pid {pid}); stop it first.")]
    AlreadyActive {
        /// Where the other session listens (`stdio` for a stdio session).
        endpoint: String,
        /// The other session's process id.
        pid: u32,
    },
    /// Another process has held this project's slot lock for seconds without
    /// announcing a session (stopped while starting?); exit code 3.
    #[error(
        "another session for this project is starting (it holds `{}`) and has not announced itself; stop it first.",
        lock.display()
    )]
    SlotBusy {
        /// The slot lock it holds (`<hash>.lock` beside the lockfile).
        lock: PathBuf,
    },
    /// The project path could not be resolved to a canonical path.
    #[error("cannot use project `{}`: {source}", path.display())]
    Project {
        /// The project path as the app gave it.
        path: PathBuf,
        /// Why it could not be resolved.
        source: io::Error,
    },
    /// The lockfile directory exists but is not safe to use.
    #[error("cannot use the lockfile directory: {0}")]
    Registry(String),
    /// The loopback port could not be bound (taken, or not allowed).
    #[error("cannot listen on `{addr}`: {source}")]
    Bind {
        /// The address asked for, `127.0.0.1:<port>`.
        addr: SocketAddr,
        /// Why it could not be bound.
        source: io::Error,
    },
    /// The usage log at the path the app was given cannot be written (its directory
    /// does not exist, or is not writable): the session does not start.
    #[error("{0}")]
    UsageLog(String),
    /// The MCP service over stdio failed.
    #[error("mcp service failed: {0}")]
    Mcp(String),
    /// Any other I/O failure; the message says what was being done.
    #[error("{0}")]
    Io(#[from] io::Error),
}

impl ServeError {
    pub(crate) fn io(context: impl Into<String>) -> impl FnOnce(io::Error) -> Self {
        let context = context.into();
        move |source| {
            Self::Io(io::Error::new(
                source.kind(),
                format!("{context}: {source}"),
            ))
        }
    }

    /// Advice for a person, printed on its own `hint:` line.
    pub fn hint(&self) -> Option<&'static str> {
        match self {
            Self::Bind { .. } => {
                Some("choose another port, or leave it unset to use any free port")
            }
            Self::UsageLog(_) => Some(
                "record usage to a file in a directory that exists and you can write, or leave it off",
            ),
            Self::Registry(_) => Some(
                "the lockfile directory must belong to you and be writable only by you (mode 0700)",
            ),
            _ => None,
        }
    }

    /// The process exit code seed 000 assigns: 3 for a busy slot, 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::AlreadyActive { .. } | Self::SlotBusy { .. } => 3,
            _ => 1,
        }
    }
}
