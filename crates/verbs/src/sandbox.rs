//! What a verb may touch while it runs: a locked-down WASI, a memory bound and a
//! time bound. One [`Sandbox`] per store, so one per verb invocation.
//!
//! Why link WASI at all: a std Rust guest for `wasm32-wasip2` imports
//! `wasi:cli/{environment,exit,stdin,stdout,stderr,terminal-*}` and
//! `wasi:io/{error,poll,streams}` even when it never does I/O (std's panic and
//! print paths), and `wasi:filesystem`/`wasi:clocks` as soon as it mentions
//! them; Python components import WASI broadly. Refusing those imports would
//! refuse ordinary verbs, so the host links wasmtime-wasi's p2 interfaces with
//! an empty context instead:
//!
//! - no preopened directories: every path lookup fails, nothing is readable;
//! - no environment variables and no arguments; stdin is empty and closed;
//! - stdout is discarded (a verb's output is what `shape` returns), and only the
//!   first 4 KiB of stderr are kept, to explain a crash (a Rust panic message);
//!   writes are never refused, so a chatty verb is not mistaken for a broken one;
//! - no sockets: wasmtime-wasi denies every address and name lookup by default;
//! - clocks read a frozen time (the Unix epoch; monotonic 0) and sleeping traps,
//!   because a verb is a pure function and a sleep would escape the fuel bound;
//! - randomness is a fixed-seed generator, so a verb's output is reproducible.

use wasmtime::component::{Linker, ResourceTable};
use wasmtime::{Engine, ResourceLimiter};
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtx, WasiCtxView, WasiView};

use super::capture::Capture;

/// Linear memory a verb may hold in total, across all its memories: 64 MiB is
/// several times what the largest standard verb needs (`screenshot` decoding a
/// full-window PNG) yet small enough that a runaway verb cannot hurt the machine.
pub const MEMORY_LIMIT_BYTES: usize = 64 << 20;

/// Table elements a verb may hold; far above what real components use.
const TABLE_ELEMENTS_LIMIT: usize = 1 << 20;

/// Fuel for one export call (`info`, `parse` or `shape`). One unit is roughly one
/// wasm instruction, so this is a deterministic time bound with no timer thread.
/// `loop {}` burns 2e9 in about 0.2 s here, so 5e9 stops it within about half a
/// second, while real verbs use a tiny fraction (`mur -v` logs each call's use).
pub const FUEL_PER_CALL: u64 = 5_000_000_000;

/// Bytes of guest stderr kept to explain a crash; the rest is dropped.
const STDERR_CAPTURE_BYTES: usize = 4096;

/// The per-store state: WASI context, resources, limits and captured stderr.
pub struct Sandbox {
    wasi: WasiCtx,
    table: ResourceTable,
    pub limits: MemoryBudget,
    stderr: Capture,
}

impl Sandbox {
    pub fn new() -> Self {
        let stderr = Capture::new(STDERR_CAPTURE_BYTES);
        let wasi = WasiCtx::builder()
            .stdout(Capture::new(0))
            .stderr(stderr.clone())
            .wall_clock(FrozenClock)
            .monotonic_clock(FrozenClock)
            .secure_random(fixed_rng())
            .insecure_random(fixed_rng())
            .insecure_random_seed(0)
            .build();
        Self {
            wasi,
            table: ResourceTable::new(),
            limits: MemoryBudget::default(),
            stderr,
        }
    }

    /// What the guest wrote to stderr, lossily decoded.
    pub fn stderr(&self) -> String {
        self.stderr.text()
    }
}

impl WasiView for Sandbox {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// The linker every verb is instantiated with: locked-down WASI, nothing else.
pub fn linker(engine: &Engine) -> wasmtime::Result<Linker<Sandbox>> {
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    deny_sleep(&mut linker)?;
    Ok(linker)
}

/// Replace `wasi:clocks/monotonic-clock` with a frozen clock whose timers
/// trap: a pollable that waits on real time would block the host without
/// consuming fuel. (The whole instance is redefined: the linker cannot shadow
/// single functions of an instance added under a semver-compatible name.)
fn deny_sleep(linker: &mut Linker<Sandbox>) -> wasmtime::Result<()> {
    use wasmtime::component::Resource;
    use wasmtime_wasi::p2::DynPollable;
    type Timer = wasmtime::Result<(Resource<DynPollable>,)>;
    fn no_timer() -> Timer {
        Err(wasmtime::format_err!(
            "the verb tried to sleep, and verbs get no clock"
        ))
    }
    linker.allow_shadowing(true);
    let mut clock = linker.instance("wasi:clocks/monotonic-clock@0.2.6")?;
    clock.func_wrap("now", |_, (): ()| {
        Ok((HostMonotonicClock::now(&FrozenClock),))
    })?;
    clock.func_wrap("resolution", |_, (): ()| {
        Ok((HostMonotonicClock::resolution(&FrozenClock),))
    })?;
    clock.func_wrap("subscribe-instant", |_, (_,): (u64,)| -> Timer {
        no_timer()
    })?;
    clock.func_wrap("subscribe-duration", |_, (_,): (u64,)| -> Timer {
        no_timer()
    })?;
    linker.allow_shadowing(false);
    Ok(())
}

/// A clock stopped at the Unix epoch (wall) and at zero (monotonic).
struct FrozenClock;

impl HostWallClock for FrozenClock {
    fn resolution(&self) -> std::time::Duration {
        std::time::Duration::from_secs(1)
    }
    fn now(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }
}

impl HostMonotonicClock for FrozenClock {
    fn resolution(&self) -> u64 {
        1_000_000_000
    }
    fn now(&self) -> u64 {
        0
    }
}

fn fixed_rng() -> wasmtime_wasi::Deterministic {
    wasmtime_wasi::Deterministic::new(
        (0u8..=255)
            .map(|b| b.wrapping_mul(167).wrapping_add(13))
            .collect(),
    )
}

/// Counts linear memory across the store and refuses growth past the limit,
/// remembering that it did so: the guest then usually aborts, and the host
/// reports the limit rather than the abort.
#[derive(Default)]
pub struct MemoryBudget {
    used: usize,
    pub exceeded: bool,
}

impl ResourceLimiter for MemoryBudget {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let after = self.used.saturating_add(desired.saturating_sub(current));
        if after > MEMORY_LIMIT_BYTES {
            self.exceeded = true;
            return Ok(false);
        }
        self.used = after;
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= TABLE_ELEMENTS_LIMIT)
    }
}
