//! Ctrl+C and SIGTERM while a bridge starts: for the bridge itself, from its
//! first moment (before `mur-server` installs its own handlers, when it
//! serves), so a server still being started is stopped with it; and for the
//! command waiting on a bridge it started in the background, which stops that
//! bridge before it returns, to end as interrupted; and for the stdio proxy, which
//! ends its requests and its session before it ends by the signal ([`StopWatch`]).
//! Through signal-hook, not tokio's `signal` feature (src/process.rs says why).

use std::{
    io::{self, Read as _, Write as _},
    os::{raw::c_int, unix::net::UnixStream},
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
};

use signal_hook::{
    SigId,
    consts::{SIGHUP, SIGINT, SIGTERM},
    low_level,
};

/// SIGINT or SIGTERM, to await (cancel-safe), and which one came; the handlers go
/// when this is dropped. While it is held the default action (exit) does not apply.
pub(crate) struct StopSignal {
    read: tokio::net::UnixStream,
    /// The signal that came (its number; the last, if both did), 0 until one does.
    which: Arc<AtomicUsize>,
    ids: Vec<SigId>,
}

impl StopSignal {
    /// Installs the handlers (inside the runtime).
    pub(crate) fn install() -> io::Result<Self> {
        let (read, write) = UnixStream::pair()?;
        read.set_nonblocking(true)?;
        let read = tokio::net::UnixStream::from_std(read)?;
        let which = Arc::new(AtomicUsize::new(0));
        let mut stop = Self {
            read,
            which: which.clone(),
            ids: Vec::new(),
        };
        for signal in [SIGINT, SIGTERM] {
            // Noted before the pipe is written: once `arrived` has resolved, `which`
            // names the signal.
            stop.ids.push(signal_hook::flag::register_usize(
                signal,
                which.clone(),
                signal as usize,
            )?);
            stop.ids
                .push(low_level::pipe::register(signal, write.try_clone()?)?);
        }
        Ok(stop)
    }

    /// Resolves once one has arrived (at once if one came before).
    pub(crate) async fn arrived(&mut self) {
        use tokio::io::AsyncReadExt as _;
        let mut byte = [0u8; 1];
        if !matches!(self.read.read(&mut byte).await, Ok(1..)) {
            // Nothing can come through any more: never claim a signal that
            // did not arrive.
            std::future::pending::<()>().await;
        }
    }

    /// The signal that arrived (the last, if both did), if one did.
    pub(crate) fn which(&self) -> Option<c_int> {
        match self.which.load(Ordering::SeqCst) {
            0 => None,
            signal => c_int::try_from(signal).ok(),
        }
    }
}

impl Drop for StopSignal {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            low_level::unregister(id);
        }
    }
}

/// Ctrl+C, SIGTERM or SIGHUP (the terminal closed) for a command waiting on
/// the bridge it started: noted only, so the command can stop that bridge
/// first, then end as the signal would have ([`crate::Start::Interrupted`]). The
/// handlers go when this is dropped.
pub(crate) struct Interrupts {
    arrived: Arc<AtomicUsize>,
    ids: Vec<SigId>,
}

impl Interrupts {
    pub(crate) fn install() -> io::Result<Self> {
        let arrived = Arc::new(AtomicUsize::new(0));
        let mut interrupts = Self {
            arrived: arrived.clone(),
            ids: Vec::new(),
        };
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let id = signal_hook::flag::register_usize(signal, arrived.clone(), signal as usize)?;
            interrupts.ids.push(id);
        }
        Ok(interrupts)
    }

    /// The signal that arrived, if one did.
    pub(crate) fn arrived(&self) -> Option<c_int> {
        match self.arrived.load(Ordering::SeqCst) {
            0 => None,
            signal => c_int::try_from(signal).ok(),
        }
    }
}

/// The name of a signal a [`StopWatch`] or [`StopSignal`] watches, for a message.
pub(crate) use mur_procs::signal_name as name;

/// Ctrl+C, SIGTERM or SIGHUP for a process that tidies up before it ends by the
/// first one (the stdio proxy: an agent host ends its server with SIGTERM):
/// `stop` runs with the signal on a thread of its own (what serves may be blocked on
/// a write), and tidies up for the process to end by it
/// ([`mur_procs::end_by_signal`], once [`StopWatch::settle`] has answered). A second
/// signal ends it at once, the tidying unfinished. When this is dropped the handlers
/// go and `stop` is not run; [`StopWatch::settle`] instead, once the process tidied
/// up (of itself, or by `stop`), says whether a signal came meanwhile.
pub(crate) struct StopWatch {
    ids: Vec<SigId>,
    /// The default action's handlers, which [`StopWatch::settle`] leaves in place.
    defaults: Vec<SigId>,
    /// Wakes the watching thread when this is dropped, to end without `stop`.
    wake: UnixStream,
    dropped: Arc<AtomicBool>,
    /// The signal that came (its number), 0 until one does.
    which: Arc<AtomicUsize>,
    /// Set by [`StopWatch::settle`]: a signal from then on takes its default action.
    settled: Arc<AtomicBool>,
}

impl StopWatch {
    pub(crate) fn install(stop: impl FnOnce(c_int) + Send + 'static) -> io::Result<Self> {
        let (mut read, write) = UnixStream::pair()?;
        let which = Arc::new(AtomicUsize::new(0));
        let came = Arc::new(AtomicBool::new(false));
        let dropped = Arc::new(AtomicBool::new(false));
        let settled = Arc::new(AtomicBool::new(false));
        let mut watch = Self {
            ids: Vec::new(),
            defaults: Vec::new(),
            wake: write.try_clone()?,
            dropped: dropped.clone(),
            which: which.clone(),
            settled: settled.clone(),
        };
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            // In this order: once settled, a signal ends the process by its default
            // action before anything else; the second signal finds `came` set by the
            // first and ends the process at once, with the code a shell reports for
            // it. Each pushed as soon as installed: all go with `watch` if one fails.
            let shutdown = mur_procs::signal_exit_code(signal);
            watch
                .defaults
                .push(signal_hook::flag::register_conditional_default(
                    signal,
                    settled.clone(),
                )?);
            let ids = &mut watch.ids;
            ids.push(signal_hook::flag::register_conditional_shutdown(
                signal,
                shutdown,
                came.clone(),
            )?);
            ids.push(signal_hook::flag::register(signal, came.clone())?);
            ids.push(signal_hook::flag::register_usize(
                signal,
                which.clone(),
                signal as usize,
            )?);
            ids.push(low_level::pipe::register(signal, write.try_clone()?)?);
        }
        std::thread::Builder::new()
            .name("mur-stop-watch".to_owned())
            .spawn(move || {
                let mut byte = [0u8; 1];
                while let Err(e) = read.read(&mut byte) {
                    if e.kind() != io::ErrorKind::Interrupted {
                        return;
                    }
                }
                let signal = c_int::try_from(which.load(Ordering::SeqCst)).unwrap_or(0);
                if signal != 0 && !dropped.load(Ordering::SeqCst) {
                    stop(signal);
                }
            })?;
        Ok(watch)
    }

    /// The process tidied up and is about to end: the signal that came meanwhile, if
    /// one did, which is then to end it ([`mur_procs::end_by_signal`]: `stop` may
    /// still be tidying up for it). Either way a signal from now on ends the process by its
    /// default action at once, as it does a process without handlers: it may come
    /// after this answered and before the process ends, and is not to be lost then
    /// (nor is a signal's handler left with nothing to do: that would ignore it).
    pub(crate) fn settle(mut self) -> Option<c_int> {
        self.settled.store(true, Ordering::SeqCst);
        // The default action's handlers stay for the process's life. Unregistering the
        // others waits for every handler already running (on any thread) to return, so
        // a signal that came before `settled` is in `which` below.
        self.defaults.clear();
        for id in self.ids.drain(..) {
            low_level::unregister(id);
        }
        match self.which.load(Ordering::SeqCst) {
            0 => None,
            signal => c_int::try_from(signal).ok(),
        }
    }
}

impl Drop for StopWatch {
    fn drop(&mut self) {
        self.dropped.store(true, Ordering::SeqCst);
        for id in self.ids.drain(..).chain(self.defaults.drain(..)) {
            low_level::unregister(id);
        }
        let _ = self.wake.write(&[0]);
    }
}

impl Drop for Interrupts {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            low_level::unregister(id);
        }
    }
}
