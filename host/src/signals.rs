//! SIGINT and SIGTERM outside a call: their default action (mur ends by it), also once
//! a call has caught them ([`crate::interrupt`]) and while a prompt reads the terminal.

use std::os::raw::c_int;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGINT, SIGTERM};

/// The signals a call is stopped for.
pub const STOPPING: [c_int; 2] = [SIGINT, SIGTERM];

/// Set while no call is in flight (or a prompt reads the terminal): a signal then takes
/// its default action (mur ends by it) through an action registered for the process's
/// life. signal-hook cannot give a signal its default action back once it has handled
/// it: unregistering the call's handlers leaves SIGINT and SIGTERM ignored, so mur blocked
/// printing into a full pipe, or a prompt, could no longer be stopped (review RV2 1).
/// `None` when the actions cannot be registered: no call's handlers are installed either.
pub fn uncaught() -> Option<&'static AtomicBool> {
    static UNCAUGHT: OnceLock<Option<Arc<AtomicBool>>> = OnceLock::new();
    let flag = UNCAUGHT.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(true));
        for signal in STOPPING {
            signal_hook::flag::register_conditional_default(signal, flag.clone()).ok()?;
        }
        Some(flag)
    });
    flag.as_deref()
}

/// Runs `read` (a prompt's blocking read of the terminal) with a signal taking its
/// default action: the runtime's thread is blocked in it, so the call's handler could
/// not stop the call until a line came, and Ctrl-C at a prompt did nothing.
pub fn default_while<T>(read: impl FnOnce() -> T) -> T {
    let Some(uncaught) = uncaught() else {
        return read();
    };
    let before = uncaught.swap(true, Ordering::SeqCst);
    let value = read();
    uncaught.store(before, Ordering::SeqCst);
    value
}
