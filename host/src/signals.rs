//! SIGINT, SIGTERM and SIGHUP outside a call: an invocation that is recorded ends with
//! one line saying so, recorded as interrupted (exit 130, 143, 129), wherever it was
//! (loading or parsing a verb, shaping, printing, a prompt); any other command ends by
//! the signal's default action, also once a call has caught them ([`crate::interrupt`]).

use std::io::Read as _;
use std::os::raw::c_int;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::low_level;

/// The signals a call is stopped for: Ctrl-C, SIGTERM (how agent hosts end a command)
/// and SIGHUP (the terminal or SSH connection closed: it killed mur, the server told
/// nothing and no record kept, review 609 #4), as the bridge, the proxy and mur-eval
/// stop for them. Less SIGHUP when mur started with it ignored (`nohup`, `trap '' HUP`):
/// a handler would undo that, and a call meant to outlive its terminal would end with it.
/// Read before any handler of mur's is in place (they change what the kernel says).
pub fn stopping() -> &'static [c_int] {
    static STOPPING: OnceLock<Vec<c_int>> = OnceLock::new();
    STOPPING.get_or_init(|| {
        [SIGINT, SIGTERM, SIGHUP]
            .into_iter()
            .filter(|&signal| signal != SIGHUP || !ignored_at_start(signal))
            .collect()
    })
}

/// Whether `signal` is ignored in this process (inherited so: mur ignores none itself),
/// by `SigIgn` of /proc/self/status (without `unsafe` code, which `sigaction` would
/// need); `false` where that cannot be read (not Linux).
fn ignored_at_start(signal: c_int) -> bool {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return false;
    };
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .zip(u32::try_from(signal - 1).ok())
        .is_some_and(|(mask, bit)| mask.checked_shr(bit).is_some_and(|m| m & 1 == 1))
}

/// Where a signal goes, process-wide.
struct Handlers {
    /// Set while a signal is to take its default action (mur ends by it): no call's
    /// handlers are in place and no recorded invocation watches. Through an action
    /// registered for the process's life: signal-hook cannot give a signal its default
    /// action back once it has handled it, and unregistering every handler leaves it
    /// ignored, so mur blocked printing into a full pipe, or a prompt, could no longer
    /// be stopped (review RV2 1).
    default: Arc<AtomicBool>,
    /// Set while no call's handlers are in place (or a prompt reads the terminal).
    outside: AtomicBool,
    /// The invocation's watch, once one is recorded ([`watch`]).
    watch: OnceLock<Option<Watch>>,
}

/// A recorded invocation's signals outside a call: noted by their handlers, acted on by
/// a thread of its own ([`end`]), as the main thread may be anywhere (in a verb's
/// `parse`, blocked writing to a full pipe). A second signal ends mur at once.
struct Watch {
    /// The signal that came first, 0 before one did.
    which: Arc<AtomicUsize>,
    /// How the invocation ends for it ([`crate::interrupt::end`]): given by the caller,
    /// so this module, below the output and the usage record, imports neither.
    end: fn(c_int) -> !,
}

fn handlers() -> Option<&'static Handlers> {
    static HANDLERS: OnceLock<Option<Handlers>> = OnceLock::new();
    let handlers = HANDLERS.get_or_init(|| {
        let stopping = stopping();
        let default = Arc::new(AtomicBool::new(true));
        for &signal in stopping {
            signal_hook::flag::register_conditional_default(signal, default.clone()).ok()?;
        }
        Some(Handlers {
            default,
            outside: AtomicBool::new(true),
            watch: OnceLock::new(),
        })
    });
    handlers.as_ref()
}

impl Handlers {
    fn watched(&self) -> Option<&Watch> {
        self.watch.get().and_then(Option::as_ref)
    }

    /// A signal takes its default action only outside a call, where nothing watches.
    fn settle(&self) {
        let outside = self.outside.load(Ordering::SeqCst);
        let default = outside && self.watched().is_none();
        self.default.store(default, Ordering::SeqCst);
    }
}

/// Whether a call can catch the signals itself: the process-wide actions are in place.
pub fn ready() -> bool {
    handlers().is_some()
}

/// A call's handlers are in place (`true`) or gone (`false`). When they come, a signal
/// that came before them, which the watch's thread is acting on, ends mur now: the
/// call is not started.
pub fn caught_by_call(caught: bool) {
    let Some(handlers) = handlers() else {
        return;
    };
    // Default first when they go, so no signal falls between (both act: the default
    // ends mur); last when they come, once the call's handlers catch it.
    handlers.outside.store(!caught, Ordering::SeqCst);
    handlers.settle();
    if caught
        && let Some(watch) = handlers.watched()
        && let Some(signal) = watch.came()
    {
        (watch.end)(signal);
    }
}

/// Runs `read` (a prompt's blocking read of the terminal) with a signal ending mur: the
/// runtime's thread is blocked in it, so the call's handler could not stop the call
/// until a line came, and Ctrl-C at a prompt did nothing.
pub fn default_while<T>(read: impl FnOnce() -> T) -> T {
    let Some(handlers) = handlers() else {
        return read();
    };
    let before = handlers.outside.swap(true, Ordering::SeqCst);
    handlers.settle();
    let value = read();
    handlers.outside.store(before, Ordering::SeqCst);
    handlers.settle();
    value
}

/// From now on a signal outside a call ends this invocation by `end`, as one in a call
/// ends (a line on stderr, recorded as interrupted, exit 130, 143 or 129): it took its
/// default action, no line and no record, though docs/usage.md says one is kept. For a
/// recorded invocation only (the caller checks): a bridge or a proxy stops by handlers
/// of its own.
pub fn watch(end: fn(c_int) -> !) {
    let Some(handlers) = handlers() else {
        return;
    };
    handlers.watch.get_or_init(|| Watch::install(end));
    handlers.settle();
}

impl Watch {
    /// Its handlers, for the process's life, and its thread; `None` if either cannot
    /// be had (a signal then takes its default action, as before).
    fn install(end: fn(c_int) -> !) -> Option<Self> {
        let (mut read, write) = UnixStream::pair().ok()?;
        let which = Arc::new(AtomicUsize::new(0));
        let came = Arc::new(AtomicBool::new(false));
        for &signal in stopping() {
            // In this order: the second signal finds `came` set by the first and exits
            // at once, with the code a shell reports for a command it ended.
            let code = mur_procs::signal_exit_code(signal);
            signal_hook::flag::register_conditional_shutdown(signal, code, came.clone()).ok()?;
            signal_hook::flag::register(signal, came.clone()).ok()?;
            let number = usize::try_from(signal).unwrap_or(usize::MAX);
            signal_hook::flag::register_usize(signal, which.clone(), number).ok()?;
            low_level::pipe::register(signal, write.try_clone().ok()?).ok()?;
        }
        let watch = Self { which, end };
        let which = watch.which.clone();
        std::thread::Builder::new()
            .name("mur-signals".to_owned())
            .spawn(move || {
                let mut byte = [0u8; 1];
                loop {
                    match read.read(&mut byte) {
                        Ok(1..) => {}
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        _ => return,
                    }
                    let outside = handlers().is_some_and(|h| h.outside.load(Ordering::SeqCst));
                    // In a call, the call's handlers have it (module `interrupt`).
                    if outside && let Ok(signal) = c_int::try_from(which.load(Ordering::SeqCst)) {
                        end(signal);
                    }
                }
            })
            .ok()?;
        Some(watch)
    }

    fn came(&self) -> Option<c_int> {
        match self.which.load(Ordering::SeqCst) {
            0 => None,
            signal => c_int::try_from(signal).ok(),
        }
    }
}

/// The signal's name, as a line of mur's says it: of those a call, a recorded
/// invocation or a bridge's start (`commands::bridge`) is stopped for ([`stopping`]).
pub use mur_procs::signal_name as name;
