//! Ctrl-C, SIGTERM and SIGHUP (the terminal or SSH connection closed — the usual end of
//! a long study): what mur-eval started is stopped before it exits. The agents run in
//! process groups of their own and the sessions in process sessions of their own, so
//! the terminal's SIGINT or SIGHUP reaches neither; each is registered here while it
//! runs, and a thread that waits for those signals (blocked in every other thread) kills
//! the agents' groups, stops the sessions' (SIGTERM, so each removes its lockfile), then
//! exits 130, 143 or 129 as the signal would have. A command with files of its own to
//! clean up (a study's temporary directory and `live` markers) registers that
//! ([`on_stop`]); it is done once the children are stopped, and a second signal
//! meanwhile ends mur-eval at once.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use nix::sys::signal::{SigSet, Signal, killpg};
use nix::unistd::Pid;

/// The process groups running now, each with the signal that stops it.
static RUNNING: Mutex<Vec<(i32, Signal)>> = Mutex::new(Vec::new());

/// Set when a signal came, before anything is stopped: a run whose agent the stop ends
/// is then not recorded ([`signalled`]).
static SIGNALLED: AtomicBool = AtomicBool::new(false);

/// What the command running now cleans up as it stops ([`on_stop`]).
static ON_STOP: Mutex<Option<Cleanup>> = Mutex::new(None);

/// What the command running now says of its stop after `stopped by SIGTERM` ([`says`]).
static SAYS: Mutex<&str> = Mutex::new("");

/// What `run` and `study`, which start agents and sessions, say as a signal stops them.
pub const RUNS_STOPPED: &str =
    ": the agents and sessions it started were stopped too; runs not finished were not recorded";

/// What `report`, which starts nothing, says as a signal stops it.
pub const REPORT_STOPPED: &str =
    ": it runs no agents; the study's results.jsonl and study.json were left as they were";

/// The command running now says `what` (`: …`) after `stopped by SIGTERM`: said of a
/// command that ran nothing, the runs' line told of runs there were none of.
pub fn says(what: &'static str) {
    if let Ok(mut says) = SAYS.lock() {
        *says = what;
    }
}

/// A cleanup done when a signal stops mur-eval; what it returns is added to the line
/// said (`; …`, or nothing).
pub type Cleanup = Box<dyn FnOnce() -> String + Send>;

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
        SIGNALLED.store(true, Ordering::SeqCst);
        // A cleanup may take a while (or hang on a file system): a second signal does not
        // wait for it.
        std::thread::spawn(move || {
            if let Ok(again) = set.wait() {
                stop_all();
                crate::output::line(&format!(
                    "mur-eval: stopped by {} again: exited at once, leaving its cleanup to \
                     the next command",
                    again.as_str()
                ));
                mur_procs::exit_for_signal(again as i32);
            }
        });
        stop_all();
        let cleanup = ON_STOP.lock().ok().and_then(|mut c| c.take());
        let said = cleanup.map(|cleanup| cleanup()).unwrap_or_default();
        // Said, not silent: an operator back at the terminal (or reading a log) learns
        // why it ended. Dropped when stderr is gone with the terminal.
        let what = SAYS.lock().map_or("", |s| *s);
        crate::output::line(&format!(
            "mur-eval: stopped by {}{what}{said}",
            signal.as_str()
        ));
        // Exited with 130, 143 or 129, not killed by the signal: the code docs/eval.md
        // gives, said with the line above.
        mur_procs::exit_for_signal(signal as i32);
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
        // Started as mur-eval stops, after `stop_all` read the list: stopped now.
        if signalled() {
            let _ = killpg(Pid::from_raw(group), signal);
        }
    }
}

/// Whether a signal is stopping mur-eval.
pub fn signalled() -> bool {
    SIGNALLED.load(Ordering::SeqCst)
}

/// `cleanup` is done when a signal stops mur-eval, once what it started is stopped
/// (replacing any registered before); `None`: nothing is.
pub fn on_stop(cleanup: Option<Cleanup>) {
    if let Ok(mut registered) = ON_STOP.lock() {
        *registered = cleanup;
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
    // And what the agents left outside their groups (`setsid`), which would outlive
    // mur-eval.
    crate::orphans::kill_all();
}
