//! Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal closed; not under `nohup`:
//! [`signals::stopping`]) while a call is in flight: the server is told to stop what it
//! was asked (a task's `tasks/cancel`, a legacy session's `notifications/cancelled` and
//! `DELETE`: what the `--timeout` sends, through [`mur_client::Client::cancelled_by`]),
//! then mur exits 130, 143 or 129 with one line saying so. Ended at once, as a signal's
//! default action did, a task went on running and a legacy session was left open. The
//! handlers are installed for the call only: before it (discovery, a verb's `parse`) and
//! after it (printing, a verb's shaping) nothing was sent that needs stopping, and a
//! signal ends a recorded invocation with a line and its record as here
//! ([`crate::signals`]). A second signal ends mur at once, the server's farewell unsent.
//! Through signal-hook, not tokio's `signal` feature (the runtime of every call would
//! then build a signal driver: invoke.rs's test
//! `the_runtime_a_call_starts_has_no_signal_driver`).

use std::os::raw::c_int;
use std::os::unix::net::UnixStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use signal_hook::SigId;
use signal_hook::low_level;

use crate::signals;

/// SIGINT, SIGTERM and SIGHUP caught for the call in flight; when this is dropped the
/// handlers go and a signal ends mur again, as by its default action.
pub struct Interrupts {
    /// Readable once a signal came (signal-hook writes a byte to its other end).
    read: tokio::net::UnixStream,
    /// The signal that came first, 0 before one did.
    which: Arc<AtomicUsize>,
    /// Set once the call was told to stop: its client ends it as at its timeout.
    cancel: tokio::sync::watch::Sender<bool>,
    /// The signal that stopped the call, if one did before its answer.
    stopped: Option<c_int>,
    ids: Vec<SigId>,
}

impl Interrupts {
    /// Catches SIGINT, SIGTERM and SIGHUP (inside the runtime); `None` if a handler cannot
    /// be installed, and the call runs as before, a signal ending it at once.
    pub fn install() -> Option<Self> {
        if !signals::ready() {
            return None;
        }
        let (read, write) = UnixStream::pair().ok()?;
        read.set_nonblocking(true).ok()?;
        let read = tokio::net::UnixStream::from_std(read).ok()?;
        let (cancel, _) = tokio::sync::watch::channel(false);
        let mut interrupts = Self {
            read,
            which: Arc::new(AtomicUsize::new(0)),
            cancel,
            stopped: None,
            ids: Vec::new(),
        };
        let came = Arc::new(AtomicBool::new(false));
        for &signal in signals::stopping() {
            let write = write.try_clone().ok()?;
            // In this order: the second signal finds `came` set by the first and exits
            // at once, with the code a shell reports for a command it ended.
            let ids = [
                signal_hook::flag::register_conditional_shutdown(
                    signal,
                    mur_procs::signal_exit_code(signal),
                    came.clone(),
                ),
                signal_hook::flag::register(signal, came.clone()),
                signal_hook::flag::register_usize(
                    signal,
                    interrupts.which.clone(),
                    usize::try_from(signal).unwrap_or(usize::MAX),
                ),
                low_level::pipe::register(signal, write),
            ];
            // Each installed goes with `interrupts` (dropped), also when one failed.
            let asked = ids.len();
            let installed: Vec<SigId> = ids.into_iter().flatten().collect();
            let whole = installed.len() == asked;
            interrupts.ids.extend(installed);
            if !whole {
                return None;
            }
        }
        // A signal that came before these were in place ends mur here, nothing sent.
        signals::caught_by_call(true);
        Some(interrupts)
    }

    /// What the call's client watches: `true` once it is to stop.
    pub fn cancelled(&self) -> tokio::sync::watch::Receiver<bool> {
        self.cancel.subscribe()
    }

    /// `call` to its end; a signal before then tells its client to stop it, and the
    /// call ends once the server was told (within the client's farewell allowance of
    /// 500 ms: loopback needs milliseconds, and a user who pressed Ctrl-C waits no
    /// longer than that for mur to end).
    pub async fn during<T>(&mut self, call: impl Future<Output = T>) -> T {
        let mut call = std::pin::pin!(call);
        tokio::select! {
            biased;
            out = &mut call => return out,
            () = arrived(&mut self.read) => {}
        }
        self.stopped = c_int::try_from(self.which.load(Ordering::SeqCst)).ok();
        let _ = self.cancel.send(true);
        call.await
    }

    /// Ends mur if a signal stopped the call: one line saying what became of it
    /// (`what`, the tool or method called, as the verb typed names it: "`wait` (tool
    /// `waitFor`)"; told to stop, or never sent), the call recorded as interrupted (outcome
    /// `interrupted`: the user's doing, no failure), exit 130 (SIGINT), 143 (SIGTERM) or
    /// 129 (SIGHUP).
    pub fn exit_if_stopped(&self, sent: mur_http::Sent, what: &str) {
        let Some(signal) = self.stopped else {
            return;
        };
        let name = signals::name(signal);
        let message = match sent {
            mur_http::Sent::No => {
                format!("interrupted by {name} before the request was sent: {what} did not run")
            }
            mur_http::Sent::Maybe | mur_http::Sent::Yes => {
                format!(
                    "interrupted by {name} during the call to {what}: the server was told to stop it"
                )
            }
        };
        exit_interrupted(signal, &message)
    }
}

/// Resolves once a byte came through `read`; never if nothing can come any more (a
/// signal that did not arrive is never claimed).
async fn arrived(read: &mut tokio::net::UnixStream) {
    use tokio::io::AsyncReadExt as _;
    let mut byte = [0u8; 1];
    if !matches!(read.read(&mut byte).await, Ok(1..)) {
        std::future::pending::<()>().await;
    }
}

impl Drop for Interrupts {
    fn drop(&mut self) {
        // Outside first, so no signal falls between the two (both act: either ends mur).
        signals::caught_by_call(false);
        // A signal that came once the call had its answer, before this: not lost.
        let came = c_int::try_from(self.which.load(Ordering::SeqCst)).unwrap_or(0);
        if came != 0 && self.stopped.is_none() {
            end(came);
        }
        for id in self.ids.drain(..) {
            low_level::unregister(id);
        }
    }
}

/// The recorded commands that send no request of a call (as [`crate::usage::stopped`]
/// names them): they read the lockfile directory and probe the sessions it lists, so a
/// signal always finds them ahead of a call that never comes, where "before the request
/// was sent: … did not run" read as a call's line, of a command that had started.
const SEND_NO_REQUEST: [&str; 2] = ["`session list`", "`session clean`"];

/// Ends mur for `signal` outside a call: one line saying where the invocation was
/// ([`crate::usage::stopped`]), recorded as interrupted, exit 130, 143 or 129. Without an
/// invocation recorded (help, a bridge started in the background, or one recorded
/// already), by the signal's default action.
pub fn end(signal: c_int) -> ! {
    let Some(stopped) = crate::usage::stopped() else {
        mur_procs::end_by_signal(signal)
    };
    let name = signals::name(signal);
    let what = stopped.what;
    let message = match stopped.at {
        // A command that calls no tool was stopped in its work, not before a request.
        _ if SEND_NO_REQUEST.contains(&what.as_str()) => {
            format!("interrupted by {name} during {what}, which calls no tool")
        }
        crate::usage::TheCall::Ahead => {
            format!("interrupted by {name} before the request was sent: {what} did not run")
        }
        crate::usage::TheCall::Running => {
            format!("interrupted by {name} during the call to {what}")
        }
        crate::usage::TheCall::Done => {
            format!("interrupted by {name} after the call to {what}, which ran")
        }
    };
    exit_interrupted(signal, &message)
}

/// Says `message` (`error: …`), records the invocation as interrupted and exits 130
/// (SIGINT), 143 (SIGTERM) or 129 (SIGHUP): the one way an invocation a signal stopped
/// ends, in a call or outside one. Once: a thread that comes second waits for the
/// process to end.
pub fn exit_interrupted(signal: c_int, message: &str) -> ! {
    static ENDING: AtomicBool = AtomicBool::new(false);
    if ENDING.swap(true, Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
    crate::output::diagnostic(&format!("error: {}", crate::output::line(message)));
    let code = u8::try_from(mur_procs::signal_exit_code(signal)).unwrap_or(u8::MAX);
    crate::usage::interrupted();
    crate::usage::finish(&Ok(()), code);
    std::process::exit(i32::from(code));
}
