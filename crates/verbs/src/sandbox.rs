//! What a verb may touch while it runs: a locked-down WASI, a memory bound and a
//! time bound — fuel for its own instructions, and bounds on the host's work it
//! asks for (what it writes, [`super::capture`]; how often it calls the host and
//! the random bytes it takes, [`super::host_calls`]). One [`Sandbox`] per store, so
//! one per verb invocation.
//!
//! Why link WASI at all: the standard verbs import nothing (they are built for
//! `wasm32-unknown-unknown`) and get an empty linker, but a std Rust guest for
//! `wasm32-wasip2` imports `wasi:cli/{environment,exit,stdin,stdout,stderr,terminal-*}`
//! and `wasi:io/{error,poll,streams}` even when it never does I/O (std's panic
//! and print paths), and `wasi:filesystem`/`wasi:clocks` as soon as it mentions
//! them; Python and JavaScript components import WASI broadly. Refusing those
//! imports would refuse ordinary verbs, so the host links the wasmtime-wasi p2
//! interfaces a verb imports, with an empty context:
//!
//! - no preopened directories: every path lookup fails, nothing is readable;
//! - no environment variables and no arguments; stdin is empty and closed;
//! - stdout is discarded (a verb's output is what `shape` returns), and only the
//!   first and last 2 KiB of stderr are kept, to explain a crash (a Rust panic
//!   message); writes are refused only past a bound far above what a verb that
//!   explains itself writes ([`super::capture`]): writing costs the host time that
//!   fuel does not count, and a verb that writes without end is stopped by it;
//! - no sockets: wasmtime-wasi denies every address and name lookup by default;
//! - clocks read a frozen time (the Unix epoch; monotonic 0) and sleeping traps,
//!   because a verb is a pure function and a sleep would escape the fuel bound;
//! - randomness is a fixed-seed generator, so a verb's output is reproducible;
//! - each call into the host counts: a verb looping on a cheap one (the clock, a
//!   random number) is stopped by the count, as one looping on a write is.

use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime::{Engine, ResourceLimiter};
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtx, WasiCtxView, WasiView};

use super::capture::Capture;
use super::host_calls::HostCalls;

/// Linear memory a verb may hold in total, across all its memories, before it
/// is handed a result: 64 MiB is several times what the largest standard verb
/// needs (`screenshot` decoding a full-window PNG) yet small enough that a
/// runaway verb cannot hurt the machine.
pub const MEMORY_LIMIT_BYTES: usize = 64 << 20;

/// What the bound grows by for each byte of the result handed to `shape`: the
/// verb holds the result's text, its parse (a Python `str` and objects, a
/// `serde_json::Value`), and the output it builds, each as large again, in
/// allocations that double as they grow. A result `mur` accepted (up to
/// `--max-response`) is the verb's to shape: with a fixed 64 MiB, Python verbs
/// failed on results of 18 MB and Rust ones on 24 MB. A runaway is still
/// stopped, at a bound set by what it was given.
pub const MEMORY_PER_RESULT_BYTE: usize = 8;

/// Table elements a verb may hold; far above what real components use.
const TABLE_ELEMENTS_LIMIT: usize = 1 << 20;

/// Fuel for one export call (`info`, `parse` or `shape`). One unit is roughly one
/// wasm instruction, so this is a deterministic time bound with no timer thread.
/// `loop {}` burns 2e9 in about 0.2 s here, so 5e9 stops it within about half a
/// second, while real verbs use a tiny fraction (`mur -v` logs each call's use).
pub const FUEL_PER_CALL: u64 = 5_000_000_000;

/// What the time bound of `shape` grows by for each byte of the result it is
/// handed: parsing a result is work in proportion to it (a Python verb spends
/// about 160 instructions a byte, and ran out of 5e9 on a 33 MB result). With
/// three times that, a 64 MB result (`--max-response`'s default) gets about
/// three seconds more, and a runaway is still stopped.
pub const FUEL_PER_RESULT_BYTE: u64 = 500;

/// Bytes of guest stderr kept to explain a crash; the rest is dropped.
const STDERR_CAPTURE_BYTES: usize = 4096;

/// Where [`Capture::text`] says it dropped the middle.
const DROPPED: &str = "\n\u{2026}\n";

/// The per-store state: WASI context, resources, limits and captured stderr.
pub struct Sandbox {
    /// Built on the first WASI call: most verbs make none (a std Rust verb
    /// imports WASI for its panic and print paths), and building it seeds a
    /// random generator, which costs more than a whole `parse`.
    wasi: Option<WasiCtx>,
    table: ResourceTable,
    pub limits: MemoryBudget,
    stdout: Capture,
    stderr: Capture,
    /// The host calls and random bytes of the export call running now.
    pub host_calls: HostCalls,
    /// Where each of the two random generators is in its fixed sequence.
    random: [FixedRandom; 2],
    /// What of `stderr` was reported already ([`Sandbox::stderr_told`]): `parse`
    /// and `shape` share a store, and each is told what it wrote itself.
    told: String,
}

impl Sandbox {
    pub fn new() -> Self {
        Self {
            wasi: None,
            table: ResourceTable::new(),
            limits: MemoryBudget::default(),
            stdout: Capture::new("stdout", 0),
            stderr: Capture::new("stderr", STDERR_CAPTURE_BYTES),
            host_calls: HostCalls::default(),
            random: Default::default(),
            told: String::new(),
        }
    }

    /// The WASI context described at the top of this file.
    fn wasi_ctx(stdout: &Capture, stderr: &Capture) -> WasiCtx {
        WasiCtx::builder()
            .stdout(stdout.clone())
            .stderr(stderr.clone())
            .wall_clock(FrozenClock)
            .monotonic_clock(FrozenClock)
            .build()
    }

    /// What the guest wrote to stderr since [`Sandbox::stderr_told`] was last
    /// called, lossily decoded. Once the capture has dropped its middle, what
    /// follows the cut is the newest, though it may begin with bytes told before.
    pub fn stderr(&self) -> String {
        let text = self.stderr.text();
        if let Some(new) = text.strip_prefix(self.told.as_str()) {
            return new.to_owned();
        }
        match text.rsplit_once(DROPPED) {
            Some((_, newest)) => format!("\u{2026}\n{newest}"),
            None => text,
        }
    }

    /// A result of `bytes` is about to be handed to the verb: its memory and time
    /// bounds grow with it ([`MEMORY_PER_RESULT_BYTE`], [`FUEL_PER_RESULT_BYTE`]),
    /// so a verb can shape any result `mur` accepted.
    pub fn hand(&mut self, bytes: usize) {
        self.limits.allow_for(bytes);
    }

    /// The fuel each export call starts with: [`FUEL_PER_CALL`], grown for the
    /// result `shape` is handed ([`Sandbox::hand`]).
    pub fn fuel(&self) -> u64 {
        let grown = FUEL_PER_RESULT_BYTE.saturating_mul(self.limits.result as u64);
        FUEL_PER_CALL.saturating_add(grown)
    }

    /// The time bound as an error says it: computation, which `--timeout` (the
    /// tool call's bound) does not raise; `loop {}` burns 1e10 in about a second.
    pub fn time_budget(&self) -> String {
        // A result under a MiB grows the bound by a tenth at most: the base is said.
        if !self.limits.grown_worth_saying() {
            return format!(
                "{} billion instructions, about half a second of computation; `--timeout` \
                 bounds only the tool call",
                FUEL_PER_CALL / 1_000_000_000
            );
        }
        format!(
            "{:.0} billion instructions, about {:.1} s of computation, grown for the {} \
             result it was handed; `--timeout` bounds only the tool call",
            self.fuel() as f64 / 1e9,
            self.fuel() as f64 / 1e10,
            mib(self.limits.result)
        )
    }

    /// A call of an export begins: its writing and host calls are counted from
    /// nothing, as its fuel is full again.
    pub fn restart(&mut self) {
        self.stdout.restart();
        self.stderr.restart();
        self.host_calls.restart();
        // Whether this call is refused memory: one that was before, and went on, is
        // not what ends this one.
        self.limits.exceeded = false;
    }

    /// What the verb did past a bound of [`super::capture`] or
    /// [`super::host_calls`] in this call, if it did.
    pub fn overrun(&self) -> Option<String> {
        let wrote = || self.stderr.overrun().or_else(|| self.stdout.overrun());
        wrote().or_else(|| self.host_calls.overrun())
    }

    /// Everything written to stderr so far has been reported: the next call's
    /// [`Sandbox::stderr`] starts after it.
    pub fn stderr_told(&mut self) {
        self.told = self.stderr.text();
    }
}

impl WasiView for Sandbox {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        let (stdout, stderr) = (&self.stdout, &self.stderr);
        WasiCtxView {
            ctx: self
                .wasi
                .get_or_insert_with(|| Self::wasi_ctx(stdout, stderr)),
            table: &mut self.table,
        }
    }
}

/// The linker for `component`: the locked-down WASI interfaces it imports
/// and nothing else. An import-free verb gets an empty linker, and a std Rust
/// verb (`wasi:cli`, `wasi:io`, a seed) none of the filesystem and sockets
/// interfaces; linking all of WASI was most of the cost of starting a verb.
/// An import no entry of [`WASI`] provides is left for `instantiate_pre`, which
/// names it.
pub fn linker_for(engine: &Engine, component: &Component) -> wasmtime::Result<Linker<Sandbox>> {
    let mut linker = Linker::new(engine);
    let ty = component.component_type();
    let mut linked: Vec<&str> = Vec::new();
    for (import, _) in ty.imports(engine) {
        let interface = import.split('@').next().unwrap_or(import);
        if linked.contains(&interface) {
            continue;
        }
        if let Some((_, add)) = WASI.iter().find(|(name, _)| *name == interface) {
            add(&mut linker)?;
            linked.push(interface);
        }
    }
    if linked.contains(&"wasi:clocks/monotonic-clock") {
        deny_sleep(&mut linker)?;
    }
    Ok(linker)
}

type Add = fn(&mut Linker<Sandbox>) -> wasmtime::Result<()>;

/// Each WASI 0.2 interface (by name, without its version: the linker matches
/// any 0.2 version a component imports) and how it is linked, the blocking
/// ones in their synchronous form — the pieces of
/// `wasmtime_wasi::p2::add_to_linker_sync`.
const WASI: [(&str, Add); 27] = {
    use wasmtime_wasi::cli::{WasiCli, WasiCliView as _};
    use wasmtime_wasi::clocks::{WasiClocks, WasiClocksView as _};
    use wasmtime_wasi::filesystem::{WasiFilesystem, WasiFilesystemView as _};
    use wasmtime_wasi::p2::bindings::{cli, clocks, filesystem, sockets, sync};
    use wasmtime_wasi::sockets::{WasiSockets, WasiSocketsView as _};
    type S = Sandbox;
    [
        ("wasi:io/error", |l| {
            wasmtime_wasi_io::bindings::wasi::io::error::add_to_linker::<S, Io>(l, table)
        }),
        ("wasi:io/poll", |l| {
            sync::io::poll::add_to_linker::<S, Io>(l, table)
        }),
        ("wasi:io/streams", |l| {
            sync::io::streams::add_to_linker::<S, Io>(l, table)
        }),
        ("wasi:clocks/wall-clock", |l| {
            clocks::wall_clock::add_to_linker::<S, WasiClocks>(l, S::clocks)
        }),
        ("wasi:clocks/monotonic-clock", |l| {
            clocks::monotonic_clock::add_to_linker::<S, WasiClocks>(l, S::clocks)
        }),
        ("wasi:filesystem/preopens", |l| {
            filesystem::preopens::add_to_linker::<S, WasiFilesystem>(l, S::filesystem)
        }),
        ("wasi:filesystem/types", |l| {
            sync::filesystem::types::add_to_linker::<S, WasiFilesystem>(l, S::filesystem)
        }),
        ("wasi:random/random", |l| {
            link_random(l, "wasi:random/random", "", 0)
        }),
        ("wasi:random/insecure", |l| {
            link_random(l, "wasi:random/insecure", "insecure-", 1)
        }),
        // The fixed seed the sandbox promises, answered here: through
        // wasmtime-wasi it would build the whole WASI context for it, and a
        // std Rust verb asks for it on every call (its HashMap's keys).
        ("wasi:random/insecure-seed", |l| {
            l.instance(&versioned("wasi:random/insecure-seed"))?
                .func_wrap("insecure-seed", |_, (): ()| Ok(((0u64, 0u64),)))
        }),
        ("wasi:cli/exit", |l| {
            cli::exit::add_to_linker::<S, WasiCli>(l, S::cli)
        }),
        ("wasi:cli/environment", |l| {
            cli::environment::add_to_linker::<S, WasiCli>(l, S::cli)
        }),
        ("wasi:cli/stdin", |l| {
            cli::stdin::add_to_linker::<S, WasiCli>(l, S::cli)
        }),
        ("wasi:cli/stdout", |l| {
            cli::stdout::add_to_linker::<S, WasiCli>(l, S::cli)
        }),
        ("wasi:cli/stderr", |l| {
            cli::stderr::add_to_linker::<S, WasiCli>(l, S::cli)
        }),
        ("wasi:cli/terminal-input", |l| {
            cli::terminal_input::add_to_linker::<S, WasiCli>(l, S::cli)
        }),
        ("wasi:cli/terminal-output", |l| {
            cli::terminal_output::add_to_linker::<S, WasiCli>(l, S::cli)
        }),
        ("wasi:cli/terminal-stdin", |l| {
            cli::terminal_stdin::add_to_linker::<S, WasiCli>(l, S::cli)
        }),
        ("wasi:cli/terminal-stdout", |l| {
            cli::terminal_stdout::add_to_linker::<S, WasiCli>(l, S::cli)
        }),
        ("wasi:cli/terminal-stderr", |l| {
            cli::terminal_stderr::add_to_linker::<S, WasiCli>(l, S::cli)
        }),
        ("wasi:sockets/tcp-create-socket", |l| {
            sockets::tcp_create_socket::add_to_linker::<S, WasiSockets>(l, S::sockets)
        }),
        ("wasi:sockets/instance-network", |l| {
            sockets::instance_network::add_to_linker::<S, WasiSockets>(l, S::sockets)
        }),
        ("wasi:sockets/network", |l| {
            let options = sockets::network::LinkOptions::default();
            sockets::network::add_to_linker::<S, WasiSockets>(l, &options, S::sockets)
        }),
        ("wasi:sockets/ip-name-lookup", |l| {
            sockets::ip_name_lookup::add_to_linker::<S, WasiSockets>(l, S::sockets)
        }),
        ("wasi:sockets/tcp", |l| {
            sync::sockets::tcp::add_to_linker::<S, WasiSockets>(l, S::sockets)
        }),
        ("wasi:sockets/udp", |l| {
            sync::sockets::udp::add_to_linker::<S, WasiSockets>(l, S::sockets)
        }),
        ("wasi:sockets/udp-create-socket", |l| {
            sync::sockets::udp_create_socket::add_to_linker::<S, WasiSockets>(l, S::sockets)
        }),
    ]
};

/// `wasi:io`'s host state: the resource table.
struct Io;

impl wasmtime::component::HasData for Io {
    type Data<'a> = &'a mut ResourceTable;
}

fn table(sandbox: &mut Sandbox) -> &mut ResourceTable {
    sandbox.ctx().table
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
    let mut clock = linker.instance(&versioned("wasi:clocks/monotonic-clock"))?;
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

/// The version the instances the sandbox defines itself are named with: that of
/// the WASI 0.2 wasmtime-wasi defines, which the linker matches to any 0.2 version
/// a component imports (as for the table above, whose names carry none).
const WASI_VERSION: &str = "0.2.6";

/// WASI interface `interface` (`wasi:random/random`) named with [`WASI_VERSION`].
fn versioned(interface: &str) -> String {
    format!("{interface}@{WASI_VERSION}")
}

/// `wasi:random/random` or `wasi:random/insecure` (`interface`, its functions'
/// names with `infix`), answered from generator `which` of the sandbox: through
/// wasmtime-wasi a verb could ask 64 MiB in one call, and the bytes it takes are
/// counted ([`HostCalls::random`]).
fn link_random(
    linker: &mut Linker<Sandbox>,
    interface: &str,
    infix: &str,
    which: usize,
) -> wasmtime::Result<()> {
    let mut random = linker.instance(&versioned(interface))?;
    random.func_wrap(
        &format!("get-{infix}random-bytes"),
        move |mut cx, (len,): (u64,)| {
            let sandbox: &mut Sandbox = cx.data_mut();
            sandbox.host_calls.random(len)?;
            Ok((sandbox.random[which].bytes(len),))
        },
    )?;
    random.func_wrap(&format!("get-{infix}random-u64"), move |mut cx, (): ()| {
        let sandbox: &mut Sandbox = cx.data_mut();
        sandbox.host_calls.random(8)?;
        Ok((sandbox.random[which].u64(),))
    })
}

/// A fixed sequence standing for randomness: the bytes `167 × i + 13` for `i` in
/// 0..=255, again and again. A number is four (or eight) of them, big-endian, and
/// a random byte the last of a number's four, as wasmtime-wasi's `Deterministic`
/// gave them, so a verb's output is what it was.
#[derive(Default)]
struct FixedRandom {
    at: u8,
}

impl FixedRandom {
    fn next(&mut self) -> u8 {
        let byte = self.at.wrapping_mul(167).wrapping_add(13);
        self.at = self.at.wrapping_add(1);
        byte
    }

    fn u32(&mut self) -> u32 {
        u32::from_be_bytes([self.next(), self.next(), self.next(), self.next()])
    }

    fn u64(&mut self) -> u64 {
        (u64::from(self.u32()) << 32) | u64::from(self.u32())
    }

    /// `len` bytes (within [`super::host_calls::RANDOM_LIMIT_BYTES`]). A byte takes
    /// four of the sequence, so they repeat every 64: copied, not made one by one
    /// (16 MiB took 1.4 s so in a debug build).
    fn bytes(&mut self, len: u64) -> Vec<u8> {
        // 64 numbers are the whole sequence: `at` is where it was after them.
        let period: Vec<u8> = (0..64).map(|_| self.u32() as u8).collect();
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        let mut bytes = Vec::with_capacity(len);
        while bytes.len() < len {
            let more = (len - bytes.len()).min(period.len());
            bytes.extend_from_slice(&period[..more]);
        }
        self.at = self.at.wrapping_add((len % 64) as u8 * 4);
        bytes
    }
}

/// Bytes in MiB, rounded up, as the limits' messages say them.
/// `bytes` in MiB as a message says them: `30 MiB`, `30.4 MiB`.
fn mib(bytes: usize) -> String {
    let mib = bytes as f64 / f64::from(1 << 20);
    match mib.fract() < 0.05 {
        true => format!("{mib:.0} MiB"),
        false => format!("{mib:.1} MiB"),
    }
}

/// Counts linear memory across the store and refuses growth past the limit,
/// remembering that it did so: the guest then usually aborts, and the host
/// reports the limit rather than the abort.
#[derive(Default)]
pub struct MemoryBudget {
    used: usize,
    /// The size of the result `shape` is handed ([`MemoryBudget::allow_for`]), which
    /// grows the limit ([`MemoryBudget::limit`]).
    result: usize,
    pub exceeded: bool,
}

impl MemoryBudget {
    /// Grow the bound for a result of `bytes` about to be handed to the verb
    /// ([`MEMORY_PER_RESULT_BYTE`] for each), never below the base.
    pub fn allow_for(&mut self, bytes: usize) {
        self.result = bytes;
    }

    /// [`MEMORY_LIMIT_BYTES`], grown for the result `shape` is handed.
    fn limit(&self) -> usize {
        MEMORY_LIMIT_BYTES.saturating_add(self.result.saturating_mul(MEMORY_PER_RESULT_BYTE))
    }

    /// Whether the bounds grew enough for a message to say so: for a result of a
    /// MiB or more (a smaller one adds under a tenth to either; the base is said).
    fn grown_worth_saying(&self) -> bool {
        self.result >= 1 << 20
    }

    /// The limit as an error says it: `64 MiB memory limit`, or, grown for a result,
    /// `304 MiB memory limit (64 MiB, and 8 times the 30 MiB result it was handed)`.
    pub fn told(&self) -> String {
        match self.grown_worth_saying() {
            false => format!("{} memory limit", mib(MEMORY_LIMIT_BYTES)),
            true => format!(
                "{} memory limit ({}, and {MEMORY_PER_RESULT_BYTE} times the {} result it \
                 was handed)",
                mib(self.limit()),
                mib(MEMORY_LIMIT_BYTES),
                mib(self.result)
            ),
        }
    }
}

impl ResourceLimiter for MemoryBudget {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let after = self.used.saturating_add(desired.saturating_sub(current));
        if after > self.limit() {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `parse` and `shape` share a store: each is told only what it wrote itself,
    /// past the capture's bound too (its middle cut).
    #[test]
    fn stderr_is_told_once() {
        use wasmtime_wasi::p2::OutputStream as _;
        let mut sandbox = Sandbox::new();
        let mut guest = sandbox.stderr.clone();
        let mut write = |text: &str| {
            guest
                .write(bytes::Bytes::copy_from_slice(text.as_bytes()))
                .expect("write");
        };
        write("probe: checking the selector\n");
        assert_eq!(sandbox.stderr(), "probe: checking the selector\n");
        sandbox.stderr_told();
        assert_eq!(sandbox.stderr(), "");
        write("thread '<unnamed>' (1) panicked at src/lib.rs:30:75:\n");
        assert_eq!(
            sandbox.stderr(),
            "thread '<unnamed>' (1) panicked at src/lib.rs:30:75:\n"
        );
        sandbox.stderr_told();
        write(&"x".repeat(STDERR_CAPTURE_BYTES));
        write("the end\n");
        let newest = sandbox.stderr();
        assert!(
            newest.starts_with("xxx")
                && newest.contains("x\n\u{2026}\nx")
                && newest.ends_with("xthe end\n"),
            "{newest}"
        );
    }

    /// The bounds grow with the result handed to `shape`, and the messages say
    /// them: the base alone before, what it grew by after.
    #[test]
    fn the_bounds_grow_with_the_result_and_say_so() {
        let mut sandbox = Sandbox::new();
        assert_eq!(sandbox.limits.told(), "64 MiB memory limit");
        assert_eq!(
            sandbox.time_budget(),
            "5 billion instructions, about half a second of computation; `--timeout` \
             bounds only the tool call"
        );
        sandbox.hand(30 << 20);
        assert_eq!(
            sandbox.limits.told(),
            "304 MiB memory limit (64 MiB, and 8 times the 30 MiB result it was handed)"
        );
        assert_eq!(
            sandbox.time_budget(),
            "21 billion instructions, about 2.1 s of computation, grown for the 30 MiB \
             result it was handed; `--timeout` bounds only the tool call"
        );
        // A result as most are, of a few bytes: the base is said, not "grown".
        sandbox.hand(2);
        assert_eq!(sandbox.limits.told(), "64 MiB memory limit");
        assert!(
            sandbox
                .time_budget()
                .starts_with("5 billion instructions, about half")
        );
        sandbox.hand((30 << 20) + (400 << 10));
        assert_eq!(
            sandbox.limits.told(),
            "307.1 MiB memory limit (64 MiB, and 8 times the 30.4 MiB result it was handed)"
        );
        let mut limits = MemoryBudget::default();
        limits.allow_for(30 << 20);
        let grown = MEMORY_LIMIT_BYTES + (240 << 20);
        assert!(limits.memory_growing(0, grown, None).expect("grow"));
        assert!(
            !limits
                .memory_growing(grown, grown + 1, None)
                .expect("refused")
        );
        assert!(limits.exceeded);
    }

    /// The fixed randomness is the sequence wasmtime-wasi's `Deterministic` gave: a
    /// number is the next bytes `167 × i + 13`, big-endian; a random byte the last of
    /// a number's four, however many are asked for at once.
    #[test]
    fn randomness_is_a_fixed_sequence() {
        let seq = |i: u64| (i * 167 + 13) as u8;
        let mut random = FixedRandom::default();
        let first = u64::from_be_bytes(std::array::from_fn(|i| seq(i as u64)));
        assert_eq!(random.u64(), first);
        let bytes = random.bytes(70);
        let expected: Vec<u8> = (0..70).map(|k| seq(8 + 4 * k + 3)).collect();
        assert_eq!(bytes, expected);
        let next = random.bytes(3);
        assert_eq!(
            next,
            (70..73).map(|k| seq(8 + 4 * k + 3)).collect::<Vec<_>>()
        );
        assert_eq!(random.u32() >> 24, u32::from(seq(8 + 4 * 73)));
    }

    /// Every interface of the table links (no two define the same thing), and
    /// the frozen monotonic clock then replaces the real one.
    #[test]
    fn all_of_wasi_links_and_sleeping_is_then_denied() {
        let engine = Engine::new(&crate::runtime::config()).expect("engine");
        let mut linker = Linker::new(&engine);
        for (name, add) in WASI {
            add(&mut linker).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        deny_sleep(&mut linker).expect("deny sleep");
    }

    /// An import-free component is linked with nothing.
    #[test]
    fn an_import_free_component_gets_an_empty_linker() {
        let engine = Engine::new(&crate::runtime::config()).expect("engine");
        let component = Component::new(&engine, b"\0asm\x0d\0\x01\0").expect("empty component");
        let linker = linker_for(&engine, &component).expect("linker");
        assert!(linker.instantiate_pre(&component).is_ok());
    }
}
