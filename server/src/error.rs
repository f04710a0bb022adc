//! Why a session could not start or keep running.

use std::{
    io,
    net::SocketAddr,
    path::{Path, PathBuf},
};

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
    /// A lockfile in the directory is not safe to use, or the slot's lock was lost.
    #[error("cannot use the lockfile directory: {0}")]
    Registry(String),
    /// The lockfile directory could not be made, or is not one to trust (a link, another
    /// user's, open to others). `reason` names it, in the words `mur` says it in
    /// ("refusing lockfile directory `X`: it is a symbolic link"): it was said after
    /// the path again, "…: `X`: refusing lockfile directory `X`: …".
    #[error("{reason}")]
    RegistryDir {
        /// The lockfile directory.
        dir: PathBuf,
        /// Why it cannot be used, naming it.
        reason: String,
    },
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

    /// The lockfile directory `dir` refused or not made, `error` saying why (naming it).
    pub(crate) fn registry_dir(dir: &Path, error: &io::Error) -> Self {
        Self::RegistryDir {
            dir: dir.to_owned(),
            reason: error.to_string(),
        }
    }

    /// Advice for a person, printed on its own `hint:` line.
    pub fn hint(&self) -> Option<String> {
        const PRIVATE: &str =
            "the lockfile directory must belong to you and be writable only by you (mode 0700)";
        match self {
            Self::Bind { .. } => {
                Some("choose another port, or leave it unset to use any free port".to_owned())
            }
            Self::UsageLog(_) => Some(
                "record usage to a file in a directory that exists and you can write, or leave it off"
                    .to_owned(),
            ),
            Self::Registry(_) => Some(PRIVATE.to_owned()),
            Self::RegistryDir { dir, .. } => {
                Some(untrusted_dir_fix(dir).unwrap_or_else(|| PRIVATE.to_owned()))
            }
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

/// What makes lockfile directory `dir` one to trust, when the user can do it, in the
/// words `mur` says it in (crates/discovery, `untrusted_dir_fix`): "mode 0700" was said
/// whatever was wrong, where it does nothing for a link (refused whatever it names), a
/// directory another user owns (whose mode only they can change) or a file of yours
/// (refused as "a file, not a directory" whatever its mode, so `chmod` answered
/// nothing). `None` where `dir` is none of these (it could not be made).
fn untrusted_dir_fix(dir: &Path) -> Option<String> {
    use mur_lockfile::{Keep, Untrusted, check_own};
    let meta = std::fs::symlink_metadata(dir).ok()?;
    let why = check_own(&meta, Keep::Writes).err();
    let dir = shell_word(dir);
    Some(match why {
        // A session makes it (0700) where it is not, and refuses a link as readers do.
        Some(Untrusted::Link) => format!(
            "a lockfile directory must be a directory of yours, not a link: remove the link \
             (`rm {dir}`), and the next session makes the directory"
        ),
        // Not yours: only its owner (or root) can change or remove it.
        Some(Untrusted::Owner { uid, .. }) => format!(
            "only uid {uid} or root can remove it (the next session then makes it, yours), or \
             point `XDG_RUNTIME_DIR` at a private directory of your own"
        ),
        // Yours, whatever its mode: a file (a FIFO…) is no directory however private.
        _ if !meta.is_dir() => format!(
            "it is {}: remove it (`rm {dir}`), and the next session makes the directory",
            if meta.is_file() {
                "a file, not a directory"
            } else {
                "no directory"
            }
        ),
        Some(Untrusted::Open { .. }) => {
            format!("a lockfile directory must be yours and private: `chmod 700 {dir}`")
        }
        None => return None,
    })
}

/// `path` as a POSIX shell reads it back: bare when it holds only characters no shell
/// reads specially, else single-quoted. (`mur_core::shell_name`, which the host uses,
/// would bring clap into every app that embeds this crate.)
fn shell_word(path: &Path) -> String {
    let text = path.to_string_lossy();
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%=".contains(c);
    match !text.is_empty() && text.chars().all(plain) {
        true => text.into_owned(),
        false => format!("'{}'", text.replace('\'', r"'\''")),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::ServeError;

    /// The hint for a lockfile directory refused, as a session started there says it.
    fn hint_for(dir: &std::path::Path) -> Option<String> {
        let refused = std::io::Error::other("refused");
        ServeError::registry_dir(dir, &refused).hint()
    }

    /// A file where the lockfile directory is to be is said to be one, whatever its
    /// mode: a private one (0600, 0644) was told to be `chmod 700`, which made it no
    /// directory.
    #[test]
    fn a_file_where_the_lockfile_directory_is_to_be_is_said_to_be_a_file() {
        let sandbox = mur_testkit::Sandbox::new();
        let file = sandbox.root().join("reactor-devtools");
        std::fs::write(&file, "").expect("write");
        let fix = format!(
            "it is a file, not a directory: remove it (`rm {}`), and the next session makes \
             the directory",
            file.display()
        );
        for mode in [0o600, 0o644, 0o666] {
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).expect("chmod");
            assert_eq!(
                hint_for(&file).as_deref(),
                Some(fix.as_str()),
                "mode {mode:o}"
            );
        }
        // A directory open to others is still told its mode.
        let dir = sandbox.root().join("open");
        std::fs::create_dir(&dir).expect("mkdir");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
        assert_eq!(
            hint_for(&dir),
            Some(format!(
                "a lockfile directory must be yours and private: `chmod 700 {}`",
                dir.display()
            ))
        );
    }
}
