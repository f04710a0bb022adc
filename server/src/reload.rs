//! Reload: start this same program again, with the same arguments, and let it take over.

use std::process::{Command, Stdio};

use crate::error::ServeError;

/// Starts `current_exe` with this process's arguments and inherited stdio; returns its pid.
///
/// Called after the lockfile is gone and the listener is closed, so the new
/// process passes the single-instance check and can even reuse a fixed port.
/// The child stays in our process group on purpose: Ctrl+C in the terminal
/// that started the app must still reach the app after a reload.
pub(crate) fn respawn_self() -> Result<u32, ServeError> {
    let exe =
        std::env::current_exe().map_err(ServeError::io("cannot locate the running executable"))?;
    let child = Command::new(&exe)
        .args(std::env::args_os().skip(1))
        .stdin(Stdio::inherit())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(ServeError::io(format!(
            "cannot restart `{}`",
            exe.display()
        )))?;
    // The child is deliberately not waited for: it outlives us and is reparented.
    Ok(child.id())
}
