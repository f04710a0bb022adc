//! Ctrl+C and SIGTERM while a bridge starts: for the bridge itself, from its
//! first moment (before `mur-server` installs its own handlers, when it
//! serves), so a server still being started is stopped with it; and for the
//! command waiting on a bridge it started in the background, which stops that
//! bridge before it ends as interrupted. Through signal-hook, not tokio's
//! `signal` feature (src/process.rs says why).

use std::{
    io,
    os::{raw::c_int, unix::net::UnixStream},
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
};

use signal_hook::{
    SigId,
    consts::{SIGHUP, SIGINT, SIGTERM},
    low_level,
};

/// SIGINT or SIGTERM, to await (cancel-safe); the handlers go when this is
/// dropped. While it is held the default action (exit) does not apply.
pub(crate) struct StopSignal {
    read: tokio::net::UnixStream,
    ids: Vec<SigId>,
}

impl StopSignal {
    /// Installs the handlers (inside the runtime).
    pub(crate) fn install() -> io::Result<Self> {
        let (read, write) = UnixStream::pair()?;
        read.set_nonblocking(true)?;
        let read = tokio::net::UnixStream::from_std(read)?;
        let mut stop = Self {
            read,
            ids: Vec::new(),
        };
        for signal in [SIGINT, SIGTERM] {
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
/// first, then [`Interrupts::end_process`] as the signal would have. The
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

    /// Ends this process as `signal` would have without the handlers: its
    /// caller (a shell, a script's loop) sees a command interrupted, as before
    /// the command caught it to clean up.
    pub(crate) fn end_process(mut self, signal: c_int) -> ! {
        for id in self.ids.drain(..) {
            low_level::unregister(id);
        }
        let _ = low_level::emulate_default_handler(signal);
        // Only if the default action did not end the process: the shells' code
        // for a command ended by a signal.
        std::process::exit(128 + signal)
    }
}

impl Drop for Interrupts {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            low_level::unregister(id);
        }
    }
}
