//! Reload: start this same program again, with the same arguments, and let it take over.
//!
//! The program started is the one at the path this one was started from, as it is
//! now: after a rebuild, the new build. It is a new process, or — for an app in the
//! foreground of a terminal, so that Ctrl+C there still stops it — this process
//! replaced in place (the same pid). An HTTP session hands its successor the
//! project's slot lock and its listening socket, so the slot is never free and the
//! port never closed in between: a client's request that arrives meanwhile waits in
//! the socket's queue for the successor instead of being refused. A stdio session
//! is not started again by itself: its client, which holds its stdin and stdout, is
//! the only one that can start it (and a new process would expect the client's
//! `initialize` first), so it exits with [`STDIO_RELOAD_EXIT`].

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use mur_lockfile::SlotLock;

use crate::error::ServeError;

/// The exit status of a stdio session that ends because a tool asked for a reload
/// (sysexits' `EX_TEMPFAIL`, "try again"): its client should start it again at once.
/// The stdio bridge (`mur devtools bridge`) does, without counting it as a crash.
pub const STDIO_RELOAD_EXIT: i32 = 75;

/// The `_meta` key, `true` in the answer of a stdio session's call that asked for a
/// reload (and any given after it): the process that answers is about to exit with
/// [`STDIO_RELOAD_EXIT`], so the stdio bridge holds the requests that follow for
/// the one it starts next.
pub const RELOADING_META: &str = "mur/reloading";

/// The environment variable that names the descriptor of the listening socket a
/// reloading HTTP session hands its successor.
const HANDED_LISTENER: &str = "MUR_LISTEN_FD";

/// The path the running program was started from, noted as the first session
/// started ([`remember_program`]), before a rebuild can replace the file.
static PROGRAM: OnceLock<Option<PathBuf>> = OnceLock::new();

/// Notes the path of the running program while it is still the one at that path:
/// once a rebuild has replaced the file, Linux names the running one
/// `PATH (deleted)` (and a file moved aside, by its new name).
pub(crate) fn remember_program() {
    PROGRAM.get_or_init(|| std::env::current_exe().ok());
}

/// The program to start again: the file at the path this one was started from.
fn program() -> Result<PathBuf, ServeError> {
    let remembered = PROGRAM.get_or_init(|| std::env::current_exe().ok()).clone();
    let path = match remembered {
        Some(path) => path,
        None => std::env::current_exe()
            .map_err(ServeError::io("cannot locate the running executable"))?,
    };
    Ok(undeleted(path))
}

/// `path` without the ` (deleted)` Linux appends to the path of a running program
/// whose file was replaced or removed (noted too late, by a session that started
/// after the rebuild): the file there now is the one to start.
fn undeleted(path: PathBuf) -> PathBuf {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt as _;
        const DELETED: &[u8] = b" (deleted)";
        let bytes = path.as_os_str().as_bytes();
        if !path.exists()
            && let Some(stem) = bytes.strip_suffix(DELETED)
        {
            return PathBuf::from(std::ffi::OsStr::from_bytes(stem));
        }
    }
    path
}

/// The program started again ([`program`]) with this process's arguments and
/// inherited stdio, handed `slot` (the project's slot lock, which it takes over
/// instead of claiming the slot anew) and `listener` (the HTTP session's socket,
/// which it serves instead of binding one); and the program's path.
fn successor(
    slot: Option<&SlotLock>,
    listener: Option<&tokio::net::TcpListener>,
) -> Result<(Command, PathBuf), ServeError> {
    let exe = program()?;
    let mut command = Command::new(&exe);
    #[cfg(unix)]
    {
        use std::os::fd::AsFd as _;
        if let Some(slot) = slot {
            slot.hand_to(&mut command);
        }
        if let Some(listener) = listener {
            mur_lockfile::handed::hand(&mut command, HANDED_LISTENER, listener.as_fd());
        }
    }
    #[cfg(not(unix))]
    let _ = (slot, listener);
    command
        .args(std::env::args_os().skip(1))
        .stdin(Stdio::inherit())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit());
    Ok((command, exe))
}

/// Starts the [`successor`] as a new process, in our process group, and returns
/// it. When it cannot be started nothing is handed and this process may go on
/// serving.
pub(crate) fn respawn_self(
    slot: Option<&SlotLock>,
    listener: Option<&tokio::net::TcpListener>,
) -> Result<std::process::Child, ServeError> {
    let (mut command, exe) = successor(slot, listener)?;
    command.spawn().map_err(ServeError::io(format!(
        "cannot restart `{}`",
        exe.display()
    )))
}

/// Replaces this process by the [`successor`], in place: the same pid, so the
/// same job of the terminal it runs in the foreground of, which Ctrl+C there
/// still stops (a new process would be left in the terminal's background once
/// this one exits: [`in_a_terminals_foreground`]). Returns only when the program
/// cannot be run; what was left open for it is then closed on exec again, and
/// this process may go on serving.
#[cfg(unix)]
pub(crate) fn exec_self(slot: Option<&SlotLock>, listener: &tokio::net::TcpListener) -> ServeError {
    use std::os::fd::AsFd as _;
    use std::os::unix::process::CommandExt as _;
    let (mut command, exe) = match successor(slot, Some(listener)) {
        Ok(successor) => successor,
        Err(error) => return error,
    };
    let error = command.exec();
    // `exec` ran the hand-over's step in this very process (no fork), then failed:
    // what it left open for the program is closed on `exec` again.
    let kept = slot.map(|slot| slot.as_fd()).into_iter();
    for fd in kept.chain([listener.as_fd()]) {
        let _ = mur_lockfile::handed::keep(fd);
    }
    ServeError::io(format!("cannot restart `{}`", exe.display()))(error)
}

/// Whether this process runs in the foreground of a terminal (the app started
/// from a person's shell): were it to exit after a reload, a job-control shell
/// would take the terminal back, and Ctrl+C there would no longer reach a
/// successor started as a new process; so it restarts in place ([`exec_self`]).
#[cfg(unix)]
pub(crate) fn in_a_terminals_foreground() -> bool {
    [libc::STDIN_FILENO, libc::STDOUT_FILENO, libc::STDERR_FILENO]
        .into_iter()
        .any(|fd| {
            // SAFETY: tcgetpgrp and getpgrp only read: the foreground process group of
            // the terminal `fd` is open on (-1 when it is none), and our own.
            #[allow(unsafe_code)]
            unsafe {
                let foreground = libc::tcgetpgrp(fd);
                foreground > 0 && foreground == libc::getpgrp()
            }
        })
}

/// The listening socket a reloading predecessor handed this process, if it did
/// (`successor`: it handed this process the project's slot too, so the socket is
/// this project's, not one a process of another project passed down) and it is
/// one: a TCP socket listening on loopback (on `port`, when one was asked for).
/// It is closed on `exec` again, and the variable removed in any case, so what
/// the app starts later is neither handed it nor told of it.
#[cfg(unix)]
pub(crate) fn inherited_listener(
    port: Option<u16>,
    successor: bool,
) -> Option<std::net::TcpListener> {
    let fd =
        mur_lockfile::handed::take(HANDED_LISTENER, |fd| successor && is_listening_socket(fd))?;
    let listener = std::net::TcpListener::from(fd);
    let addr = listener.local_addr().ok()?;
    let wanted_port = port.is_none_or(|port| port == 0 || port == addr.port());
    if !addr.ip().is_loopback() || !wanted_port {
        return None;
    }
    listener.set_nonblocking(true).ok()?;
    Some(listener)
}

/// Whether `fd` is an open socket that listens for connections.
#[cfg(unix)]
fn is_listening_socket(fd: std::os::fd::RawFd) -> bool {
    let mut listening: libc::c_int = 0;
    let mut size = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    // SAFETY: getsockopt writes at most `size` bytes into `listening`; a number that is
    // not an open socket fails (EBADF, ENOTSOCK) and writes nothing.
    #[allow(unsafe_code)]
    let read = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_ACCEPTCONN,
            (&raw mut listening).cast(),
            &raw mut size,
        )
    };
    read == 0 && listening != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn a_replaced_program_is_started_from_its_path() {
        let dir = std::env::temp_dir();
        let gone = dir.join("mur-reload-test-no-such-program (deleted)");
        assert_eq!(undeleted(gone), dir.join("mur-reload-test-no-such-program"));
        // A file really named so is taken as it is.
        let named = tempfile_named("program (deleted)");
        assert_eq!(undeleted(named.clone()), named);
        let _ = std::fs::remove_file(named);
    }

    #[cfg(target_os = "linux")]
    fn tempfile_named(name: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("mur-reload-{}-{name}", std::process::id()));
        std::fs::write(&path, b"").expect("temp file");
        path
    }
}
