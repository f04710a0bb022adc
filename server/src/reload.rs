//! Reload: start this same program again, with the same arguments, and let it take over.

use std::process::{Command, Stdio};

use mur_lockfile::SlotLock;

use crate::error::ServeError;

/// Starts `current_exe` with this process's arguments and inherited stdio; returns its pid.
///
/// Called after the lockfile is gone and the listener is closed, so the new
/// process can even reuse a fixed port; it is handed `slot`, the project's slot
/// lock, which it takes over instead of claiming the slot anew: the slot is never
/// free in between, so discovery waits for the successor instead of saying no
/// session runs. The child stays in our process group on purpose: Ctrl+C in the
/// terminal that started the app must still reach the app after a reload.
pub(crate) fn respawn_self(slot: Option<&SlotLock>) -> Result<u32, ServeError> {
    let exe =
        std::env::current_exe().map_err(ServeError::io("cannot locate the running executable"))?;
    let mut command = Command::new(&exe);
    if let Some(slot) = slot {
        slot.hand_to(&mut command).map_err(ServeError::io(
            "cannot hand the slot's lock to the new process",
        ))?;
    }
    let child = command
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
