//! Ctrl-C, SIGTERM and SIGHUP (the terminal or SSH connection closed — the usual end of
//! a long study): what mur-eval started is stopped before it exits. The agents run in
//! process groups of their own and the sessions in process sessions of their own, so
//! the terminal's SIGINT or SIGHUP reaches neither; each is registered here while it
//! runs, and a thread that waits for those signals (blocked in every other thread) kills
//! the agents' groups, stops the sessions' (SIGTERM, so each removes its lockfile), then
//! exits 130, 143 or 129 as the signal would have.

use std::io::Write as _;
use std::sync::Mutex;

use nix::sys::signal::{SigSet, Signal, killpg};
use nix::unistd::Pid;

/// The process groups running now, each with the signal that stops it.
static RUNNING: Mutex<Vec<(i32, Signal)>> = Mutex::new(Vec::new());

/// The signals that stop mur-eval and what it started.
const STOPPING: [Signal; 3] = [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP];

/// The set of [`STOPPING`].
fn stopping() -> SigSet {
    let mut set = SigSet::empty();
    for signal in STOPPING {
        set.add(signal);
    }
    set
}

/// Watches for [`STOPPING`]. Called first in `main`, before any thread starts, so
/// that every thread inherits the signals blocked; each child is spawned with them
/// unblocked again ([`unblocked`]).
pub fn on_signals() {
    let set = stopping();
    if set.thread_block().is_err() {
        return;
    }
    std::thread::spawn(move || {
        let Ok(signal) = set.wait() else {
            return;
        };
        stop_all();
        // Said, not silent: an operator back at the terminal (or reading a log) learns
        // why it ended. Dropped when stderr is gone with the terminal.
        let _ = writeln!(
            std::io::stderr().lock(),
            "mur-eval: stopped by {}: the agents and sessions it started were stopped too; \
             runs not finished were not recorded",
            signal.as_str()
        );
        std::process::exit(128 + signal as i32);
    });
}

/// `command`'s process starts with [`STOPPING`] unblocked: the mask
/// [`on_signals`] sets is inherited across `exec`, and a child must take them as usual.
pub fn unblocked(command: &mut std::process::Command) -> &mut std::process::Command {
    use std::os::unix::process::CommandExt as _;
    #[allow(unsafe_code)]
    // SAFETY: `pthread_sigmask` is async-signal-safe and touches no memory of ours.
    unsafe {
        command.pre_exec(|| stopping().thread_unblock().map_err(std::io::Error::from));
    }
    command
}

/// `group` runs now; `signal` stops it.
pub fn register(group: u32, signal: Signal) {
    if let (Ok(group), Ok(mut running)) = (i32::try_from(group), RUNNING.lock()) {
        running.push((group, signal));
    }
}

/// `group` was stopped or ended.
pub fn unregister(group: u32) {
    if let (Ok(group), Ok(mut running)) = (i32::try_from(group), RUNNING.lock()) {
        running.retain(|(g, _)| *g != group);
    }
}

fn stop_all() {
    let running = RUNNING.lock().map(|r| r.clone()).unwrap_or_default();
    for (group, signal) in running {
        let _ = killpg(Pid::from_raw(group), signal);
    }
}
