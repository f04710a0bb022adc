//! Where a verb invocation's time goes inside `mur`, reported on `-v` as one
//! `verb timings:` line (the benchmark reads it for the in-process split).

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

/// The phases of running a verb, in the order they happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Building the wasmtime engine.
    Engine,
    /// Checking the verb file and opening its cache entry (no read: it is mapped).
    CacheLookup,
    /// Mapping cached machine code as a component (wasmtime checks its image
    /// and decodes its metadata; the code pages load as they are touched).
    Deserialize,
    /// Compiling a component whose code was not cached.
    Compile,
    /// Linking the WASI the verb imports, and instantiating it.
    Instantiate,
    Parse,
    Shape,
}

const PHASES: [(Phase, &str); 7] = [
    (Phase::Engine, "engine"),
    (Phase::CacheLookup, "cache lookup"),
    (Phase::Deserialize, "deserialize"),
    (Phase::Compile, "compile"),
    (Phase::Instantiate, "instantiate"),
    (Phase::Parse, "parse"),
    (Phase::Shape, "shape"),
];

/// Process-wide, like the log it feeds: one invocation runs one verb.
static SPENT: Mutex<[Duration; 7]> = Mutex::new([Duration::ZERO; 7]);

/// Run `f`, adding its duration to `phase`.
pub fn measure<R>(phase: Phase, f: impl FnOnce() -> R) -> R {
    let started = Instant::now();
    let result = f();
    let elapsed = started.elapsed();
    if let Ok(mut spent) = SPENT.lock()
        && let Some(slot) = PHASES.iter().position(|(p, _)| *p == phase)
    {
        spent[slot] += elapsed;
    }
    result
}

/// `engine 0.00 ms, cache lookup 0.03 ms, …, total 0.41 ms` for the phases that ran;
/// `None` when none did (a derived or data verb).
pub fn summary() -> Option<String> {
    let spent = SPENT.lock().map(|spent| *spent).unwrap_or_default();
    if spent.iter().all(Duration::is_zero) {
        return None;
    }
    let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1000.0);
    let mut parts: Vec<String> = PHASES
        .iter()
        .zip(spent)
        .filter(|(_, d)| !d.is_zero())
        .map(|((_, name), d)| format!("{name} {}", ms(d)))
        .collect();
    parts.push(format!("total {}", ms(spent.iter().sum())));
    Some(parts.join(", "))
}
