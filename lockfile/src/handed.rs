//! A descriptor handed to the program a process starts, named in an environment
//! variable: how a reloading session hands its successor the project's slot lock
//! ([`SlotLock::hand_to`](crate::SlotLock::hand_to)) and its listening socket, and a
//! background `bridge` the bridge it starts the slot it claimed, so neither is let go
//! in between. std closes every descriptor it opens on `exec` and
//! has no way to pass one: this leaves one open across the started program's `exec`
//! alone, and the program takes it back ([`take`]).

use std::os::fd::{AsRawFd as _, BorrowedFd, FromRawFd as _, OwnedFd, RawFd};
use std::os::unix::process::CommandExt as _;
use std::process::Command;

/// Leaves `fd` open across the `exec` of the program `command` starts, and names it
/// there in the variable `var`. Only the started program's copy is: the flag is
/// cleared in the forked child, between `fork` and `exec`, so this process's stays
/// closed on `exec`, and nothing else it starts (meanwhile, or after this start
/// failed) is handed it. `CommandExt::exec` runs that step in this very process:
/// after an `exec` that failed, [`keep`] each descriptor handed.
pub fn hand(command: &mut Command, var: &str, fd: BorrowedFd<'_>) {
    let fd = fd.as_raw_fd();
    command.env(var, fd.to_string());
    // SAFETY: runs between `fork` and `exec`, where only async-signal-safe calls are
    // allowed: `set_close_on_exec` makes two `fcntl`s and allocates nothing.
    #[allow(unsafe_code)]
    unsafe {
        command.pre_exec(move || set_close_on_exec(fd, false));
    }
}

/// The descriptor the process that started this one named in `var` ([`hand`]), if
/// it named one and `is_it` finds it is what the caller expects (open on this very
/// file, a listening socket): this process's own from now on, closed on `exec` again.
/// The variable is removed in any case, so what this process starts later is neither
/// handed the descriptor nor told of it. `is_it` is given a number that may not be
/// open: it must only ask about it (`fstat`, `getsockopt`), which fails then.
pub fn take(var: &str, is_it: impl FnOnce(RawFd) -> bool) -> Option<OwnedFd> {
    let named = std::env::var_os(var)?;
    // SAFETY: std's own reads and writes of the environment take its lock; what this
    // may race with is a read through libc on another thread. A process takes what it
    // was handed once, as it starts: before it serves a request or starts a process.
    #[allow(unsafe_code)]
    unsafe {
        std::env::remove_var(var);
    }
    let fd: RawFd = named.to_str()?.parse().ok()?;
    if fd < 0 || !is_it(fd) {
        return None;
    }
    set_close_on_exec(fd, true).ok()?;
    // SAFETY: `fd` is open on what the caller expects (`is_it` checked it) and was left
    // open for this process alone to take: nothing else here owns it.
    #[allow(unsafe_code)]
    Some(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Closes `fd` on `exec` again after a `CommandExt::exec` that failed: [`hand`]'s step
/// ran in this process then, and what it starts next must not be handed `fd`.
pub fn keep(fd: BorrowedFd<'_>) -> std::io::Result<()> {
    set_close_on_exec(fd.as_raw_fd(), true)
}

/// Sets or clears `FD_CLOEXEC` on `fd`. Async-signal-safe (two `fcntl`s and `errno`;
/// nothing allocated): [`hand`] calls it between `fork` and `exec`.
fn set_close_on_exec(fd: RawFd, on: bool) -> std::io::Result<()> {
    // SAFETY: F_GETFD and F_SETFD read and set the descriptor flags of `fd` only.
    #[allow(unsafe_code)]
    let done = unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFD);
        let flags = if on {
            flags | libc::FD_CLOEXEC
        } else {
            flags & !libc::FD_CLOEXEC
        };
        flags >= 0 && libc::fcntl(fd, libc::F_SETFD, flags) >= 0
    };
    if done {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}
