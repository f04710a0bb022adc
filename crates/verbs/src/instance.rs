//! One instantiated verb: a fresh store (sandbox, limits, fuel) and its exports
//! in whichever verb world it implements — `mur:verb@0.3.0`, or `0.2.0` and
//! `0.1.0` adapted to the same calls (neither has notes) — and the translation
//! of whatever goes wrong inside it into a [`VerbError`] that names the verb
//! and says why.

use wasmtime::component::Component;
use wasmtime::{Engine, Store, Trap, WasmBacktrace};

use super::bindings::{v1, v2, v3};
use super::error::VerbError;
use super::sandbox::{Sandbox, linker_for};
use super::spec::VerbSpec;

/// A verb's `info`, in either world.
#[derive(Debug, Clone, PartialEq)]
pub struct Described {
    pub name: String,
    pub tool: String,
    pub summary: String,
    /// 0.1: the verb's own usage text; 0.2 and later: rendered from `spec`.
    pub usage: String,
    /// Only 0.2 and later verbs declare their params.
    pub spec: Option<VerbSpec>,
    pub interface: &'static str,
}

/// What `parse` made of argv, in either world.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed {
    Call(CallPlan),
    Help,
}

/// A call a verb asked for, and what its `shape` will need.
#[derive(Debug, Clone, PartialEq)]
pub struct CallPlan {
    /// The tool's arguments, as JSON text (checked by the caller).
    pub arguments: String,
    pub timeout_ms: Option<u32>,
    /// 0.2 and later: the files the verb declared it writes; 0.1 declares nothing.
    pub writes: Option<Vec<String>>,
    pub state: ShapeState,
}

/// What is handed back to `shape`: the opaque state (0.2 and later), or 0.1's argv.
#[derive(Debug, Clone, PartialEq)]
pub enum ShapeState {
    State(String),
    Argv(Vec<String>),
}

/// What `shape` produced: bytes for stdout, `(path, contents)` files, and the
/// notes for stderr as the verb gave them (a 0.2 or 0.1 verb gives none).
pub struct ShapedOutput {
    pub stdout: Vec<u8>,
    pub files: Vec<(String, Vec<u8>)>,
    pub notes: Vec<String>,
}

enum Exports {
    V3(v3::Verb),
    V2(v2::Verb),
    V1(v1::Verb),
}

/// `info` of a 0.3 or 0.2 verb (the same record, in types of each world's own).
macro_rules! described {
    ($world:ident, $info:expr) => {{
        let info = $info;
        let spec = VerbSpec::from(&info);
        Described {
            usage: spec.render(&info.name, &info.summary),
            name: info.name,
            tool: info.tool,
            summary: info.summary,
            spec: Some(spec),
            interface: $world::VERSION,
        }
    }};
}

/// The files of a `shaped` record of any interface version, as `(path, contents)`.
macro_rules! files {
    ($shaped:ident) => {
        $shaped.files.into_iter().map(|f| (f.path, f.contents))
    };
}

/// `parse`'s answer of a 0.3 or 0.2 verb.
macro_rules! parsed {
    ($world:ident, $answer:expr) => {
        $answer.map(|parsed| match parsed {
            $world::Parsed::Help => Parsed::Help,
            $world::Parsed::Call(call) => Parsed::Call(CallPlan {
                arguments: call.arguments,
                timeout_ms: call.timeout_ms,
                writes: Some(call.writes),
                state: ShapeState::State(call.state),
            }),
        })
    };
}

/// A verb ready to be called; parse and shape of one invocation share it.
pub struct Instance {
    pub verb: String,
    store: Store<Sandbox>,
    exports: Exports,
}

impl Instance {
    /// Type-check `component` against the worlds (newest first) and instantiate it
    /// in a new store, linked with the WASI it imports (and nothing else).
    pub fn new(engine: &Engine, component: &Component, verb: &str) -> Result<Self, VerbError> {
        let linker = linker_for(engine, component).map_err(|e| {
            VerbError::internal(format!("cannot link the verb sandbox: {}", chain(&e)))
        })?;
        let pre = linker.instantiate_pre(component).map_err(|e| {
            VerbError::plugin(
                verb,
                format!("does not implement `{}`: {}", v3::WORLD, chain(&e)),
            )
        })?;
        let mut store = Store::new(engine, Sandbox::new());
        store.limiter(|sandbox| &mut sandbox.limits);
        store.call_hook(|mut cx, hook| cx.data_mut().host_calls.on(hook));
        refuel(&mut store);
        let exports = if let Ok(pre) = v3::VerbPre::new(pre.clone()) {
            pre.instantiate(&mut store).map(Exports::V3)
        } else if let Ok(pre) = v2::VerbPre::new(pre.clone()) {
            pre.instantiate(&mut store).map(Exports::V2)
        } else {
            match v1::VerbPre::new(pre.clone()) {
                Ok(pre) => pre.instantiate(&mut store).map(Exports::V1),
                Err(_) => {
                    // Why it is not the newest world says most about what to fix.
                    let why = v3::VerbPre::new(pre)
                        .err()
                        .map_or_else(String::new, |e| chain(&e));
                    return Err(VerbError::plugin(
                        verb,
                        format!("does not implement `{}`: {why}", v3::WORLD),
                    ));
                }
            }
        }
        .map_err(|e| {
            let stderr = store.data().stderr();
            log_stderr(verb, &stderr);
            classify(verb, "while starting", &stderr, &store, &e)
        })?;
        Ok(Self {
            verb: verb.to_owned(),
            store,
            exports,
        })
    }

    pub fn info(&mut self) -> Result<Described, VerbError> {
        refuel(&mut self.store);
        let described = match &self.exports {
            Exports::V3(verb) => verb
                .call_info(&mut self.store)
                .map(|info| described!(v3, info)),
            Exports::V2(verb) => verb
                .call_info(&mut self.store)
                .map(|info| described!(v2, info)),
            Exports::V1(verb) => verb.call_info(&mut self.store).map(|info| Described {
                name: info.name,
                tool: info.tool,
                summary: info.summary,
                usage: info.usage,
                spec: None,
                interface: "0.1.0",
            }),
        };
        self.finish("info", described)
    }

    /// The verb's own answer (`Err` is its usage message), or how it failed.
    pub fn parse(&mut self, argv: &[String]) -> Result<Result<Parsed, String>, VerbError> {
        refuel(&mut self.store);
        let parsed = match &self.exports {
            Exports::V3(verb) => verb
                .call_parse(&mut self.store, argv)
                .map(|answer| parsed!(v3, answer)),
            Exports::V2(verb) => verb
                .call_parse(&mut self.store, argv)
                .map(|answer| parsed!(v2, answer)),
            Exports::V1(verb) => verb.call_parse(&mut self.store, argv).map(|answer| {
                answer.map(|parsed| match parsed {
                    v1::Parsed::Help => Parsed::Help,
                    v1::Parsed::Call(call) => Parsed::Call(CallPlan {
                        arguments: call.arguments,
                        timeout_ms: call.timeout_ms,
                        writes: None,
                        state: ShapeState::Argv(argv.to_vec()),
                    }),
                })
            }),
        };
        let answer = self.finish("parse", parsed)?;
        self.unless_refused_memory("parse", answer)
    }

    pub fn shape(
        &mut self,
        state: &ShapeState,
        result: &str,
        pretty: bool,
    ) -> Result<Result<ShapedOutput, String>, VerbError> {
        // The result is the verb's to shape, however large mur accepted it.
        self.store.data_mut().hand(result.len());
        refuel(&mut self.store);
        let shaped = match (&self.exports, state) {
            (Exports::V3(verb), ShapeState::State(state)) => verb
                .call_shape(&mut self.store, result, state, v3::OutputOptions { pretty })
                .map(|answer| answer.map(|s| output(s.stdout, files!(s), s.notes))),
            (Exports::V2(verb), ShapeState::State(state)) => verb
                .call_shape(&mut self.store, result, state, v2::OutputOptions { pretty })
                .map(|answer| answer.map(|s| output(s.stdout, files!(s), Vec::new()))),
            (Exports::V1(verb), ShapeState::Argv(argv)) => verb
                .call_shape(&mut self.store, argv, result, v1::OutputOptions { pretty })
                .map(|answer| answer.map(|s| output(s.stdout, files!(s), Vec::new()))),
            _ => {
                return Err(VerbError::internal(format!(
                    "verb `{}` was handed the output state of another interface version",
                    self.verb
                )));
            }
        };
        let answer = self.finish("shape", shaped)?;
        self.unless_refused_memory("shape", answer)
    }

    /// The verb's own refusal (`answer`'s `Err`), unless the memory limit refused it
    /// memory during the call: then that limit, as when it traps for it. A JavaScript
    /// verb does not trap: SpiderMonkey throws "out of memory", which the kit returns as
    /// the verb's message, and it read as a usage error (exit 1) or a result it could
    /// not shape where the Rust and Python kits hit the limit (exit 6).
    fn unless_refused_memory<T>(
        &self,
        export: &str,
        answer: Result<T, String>,
    ) -> Result<Result<T, String>, VerbError> {
        let limits = &self.store.data().limits;
        match answer {
            Err(said) if limits.exceeded => {
                tracing::debug!("verb `{}` said in `{export}`: {said}", self.verb);
                Err(VerbError::plugin(
                    &self.verb,
                    format!("exceeded its {}", limits.told()),
                ))
            }
            answer => Ok(answer),
        }
    }

    /// Log the fuel and host calls a call used (to size the bounds) and what the verb wrote
    /// on stderr during it (shown with `-v`, whether or not it failed), and
    /// translate its failure. What is logged is told: the next call of this
    /// instance neither logs it again nor takes its crash's reason from it.
    fn finish<T>(&mut self, export: &str, result: wasmtime::Result<T>) -> Result<T, VerbError> {
        let fuel = self.store.data().fuel();
        let used = fuel.saturating_sub(self.store.get_fuel().unwrap_or(0));
        let calls = self.store.data().host_calls.made();
        tracing::debug!(
            "verb `{}` {export} used {used} fuel and {calls} host calls",
            self.verb
        );
        let stderr = self.store.data().stderr();
        self.store.data_mut().stderr_told();
        log_stderr(&self.verb, &stderr);
        let during = format!("in `{export}`");
        result.map_err(|e| classify(&self.verb, &during, &stderr, &self.store, &e))
    }
}

/// What a verb wrote on stderr, for `-v` ([`shown_stderr`]).
fn log_stderr(verb: &str, stderr: &str) {
    let stderr = shown_stderr(stderr);
    if !stderr.trim().is_empty() {
        tracing::debug!("verb `{verb}` wrote on stderr: {}", stderr.trim_end());
    }
}

/// Rust std's advice after a panic message, which a verb cannot follow: it has no
/// environment to set it in, and `-v` shows the call's backtrace anyway.
const RUST_BACKTRACE_NOTE: &str = "note: run with `RUST_BACKTRACE=1` environment variable";

/// What a verb wrote on stderr as `-v` shows it: all of it but [`RUST_BACKTRACE_NOTE`].
fn shown_stderr(stderr: &str) -> String {
    stderr
        .split_inclusive('\n')
        .filter(|line| !line.trim_start().starts_with(RUST_BACKTRACE_NOTE))
        .collect()
}

fn output(
    stdout: Vec<u8>,
    files: impl Iterator<Item = (String, Vec<u8>)>,
    notes: Vec<String>,
) -> ShapedOutput {
    ShapedOutput {
        stdout,
        files: files.collect(),
        notes,
    }
}

/// Every export call starts with a full budget, so the bound is per call: its
/// fuel, what it may write ([`super::capture`]) and ask of the host
/// ([`super::host_calls`]).
fn refuel(store: &mut Store<Sandbox>) {
    // Fuel is enabled on the engine (runtime.rs), so this cannot fail.
    let fuel = store.data().fuel();
    let _ = store.set_fuel(fuel);
    store.data_mut().restart();
}

/// Name the limit a failed call hit (`during` says where: `` in `parse` ``,
/// `while starting`), or describe its crash from what the verb wrote on stderr during
/// the call (`stderr`). The time budget is named as what it is: computation,
/// which `--timeout` (the tool call's bound) does not raise.
fn classify(
    verb: &str,
    during: &str,
    stderr: &str,
    store: &Store<Sandbox>,
    err: &wasmtime::Error,
) -> VerbError {
    let trap = err.downcast_ref::<Trap>();
    let message = if trap == Some(&Trap::OutOfFuel) {
        format!(
            "ran out of its time budget {during} ({})",
            store.data().time_budget()
        )
    } else if let Some(overrun) = store.data().overrun() {
        // Writing and host calls are the host's time, which fuel does not count:
        // the same budget.
        format!(
            "ran out of its time budget {during}: it {overrun} (`--timeout` bounds only the tool call)"
        )
    } else if store.data().limits.exceeded {
        format!("exceeded its {}", store.data().limits.told())
    } else if host_failed(err) {
        tracing::debug!("verb `{verb}` failed: {err:?}");
        return VerbError::internal(format!(
            "verb `{verb}` could not run: mur's verb runtime failed {during}: {}",
            chain(err)
        ));
    } else {
        format!("crashed: {}", crash_reason(stderr, trap, err))
    };
    tracing::debug!("verb `{verb}` failed: {err:?}");
    VerbError::plugin(verb, message)
}

/// Whether `err` is the host's own failure, no doing of the verb: not a trap, and a
/// failure of the system's among its causes: an I/O error (a memory image wasmtime
/// writes to a memfd when no cached file is mapped, refused by `ulimit -f`), a system
/// call's `Errno` as wasmtime's own calls return it (the address space for a verb's
/// memory refused, `ENOMEM` under `ulimit -v`), or wasmtime's `OutOfMemory` (the host's
/// allocator refused it). mur's own failure (exit 7), not the verb's crash (exit 6): an
/// agent told a verb crashed goes to `mur devtools call`, which would not have helped.
/// What a verb does wrong is a trap, or one of the host's own refusals (a sleep, a
/// bound, a memory past its limit: `limits.exceeded`, judged before), none of these.
fn host_failed(err: &wasmtime::Error) -> bool {
    err.downcast_ref::<Trap>().is_none()
        && (err.downcast_ref::<wasmtime::OutOfMemory>().is_some()
            || err.chain().any(|cause| {
                cause.is::<std::io::Error>()
                    || cause.is::<wasmtime::OutOfMemory>()
                    || system_call_failed(cause)
            }))
}

/// Whether `cause` is a system call's failure as rustix returns it, which wasmtime's own
/// `mmap` and `mprotect` pass on as it is (not as a [`std::io::Error`]).
#[cfg(unix)]
fn system_call_failed(cause: &(dyn std::error::Error + 'static)) -> bool {
    cause.is::<rustix::io::Errno>()
}

#[cfg(not(unix))]
fn system_call_failed(_: &(dyn std::error::Error + 'static)) -> bool {
    false
}

/// The guest's own account of its crash, from what it wrote on stderr during
/// the call: a Python exception, a Rust panic, a JavaScript `Error` as the kit
/// tells it — wherever it is among the lines the verb wrote before — else its
/// first two lines; without any, the trap or host error, first line only.
fn crash_reason(stderr: &str, trap: Option<&Trap>, err: &wasmtime::Error) -> String {
    if let Some(exception) = python_exception(stderr) {
        return exception;
    }
    let said: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("note:"))
        .collect();
    if let Some(panic) = rust_panic_message(&said) {
        return panic;
    }
    if let Some(thrown) = javascript_error(&said) {
        return thrown;
    }
    if !said.is_empty() {
        // Of no form known here, its first words (a JavaScript runtime's own
        // lines, say, follow the error it reports).
        return said[..said.len().min(2)].join(" ");
    }
    if trap == Some(&Trap::UnreachableCodeReached) && rust_panic(err) {
        return "it panicked; built without WASI it has no stderr to say why \
                (`-v` shows where)"
            .to_owned();
    }
    let reason = match trap {
        Some(trap) => trap.to_string(),
        None => err.root_cause().to_string(),
    };
    reason
        .lines()
        .next()
        .unwrap_or("unknown failure")
        .to_owned()
}

/// A Rust panic's point: its `panicked at FILE:LINE:COL:` line (without the
/// thread, which is noise) and the message line after it. The last panic is
/// the one that ended the call.
fn rust_panic_message(said: &[&str]) -> Option<String> {
    let at = said.iter().rposition(|l| l.contains("panicked at"))?;
    let line = said[at];
    let panicked = &line[line.find("panicked at")?..];
    Some(match said.get(at + 1) {
        Some(message) => format!("{panicked} {message}"),
        None => panicked.to_owned(),
    })
}

/// A JavaScript `Error` as the verb kit writes it before rethrowing: its
/// `Name: message` line, then the frame it was thrown in (`at fn (file:line:col)`)
/// or, without one, `` in `export` ``.
fn javascript_error(said: &[&str]) -> Option<String> {
    let frame = |l: &&str| {
        let thrown_at = l.starts_with("at ")
            && l.ends_with(')')
            && l.trim_end_matches(')')
                .rsplit(':')
                .take(2)
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        let in_export = l.starts_with("in `") && l.ends_with('`');
        thrown_at || in_export
    };
    let at = said.iter().rposition(frame).filter(|&at| at > 0)?;
    Some(format!("{} {}", said[at - 1], said[at]))
}

/// Whether a trap is a Rust panic ending in an abort: its backtrace passes
/// through std's panic entry point (`rust_begin_unwind`, by its symbol in the
/// name section, mangled or not). A Rust verb built for `wasm32-unknown-unknown`
/// (the standard verbs) prints no panic message: std there has no stderr.
fn rust_panic(err: &wasmtime::Error) -> bool {
    err.downcast_ref::<WasmBacktrace>().is_some_and(|trace| {
        trace
            .frames()
            .iter()
            .filter_map(|frame| frame.func_name())
            .any(|name| name.contains("rust_begin_unwind"))
    })
}

/// A Python traceback's point: the exception line (its last line, e.g.
/// `ValueError: no selector`) and the innermost frame it was raised in. The
/// first lines (`Traceback (most recent call last):` and the outermost frame)
/// say nothing of what went wrong.
fn python_exception(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let start = lines
        .iter()
        .rposition(|l| l.starts_with("Traceback (most recent call last):"))?;
    // componentize-py's runtime follows the traceback with a Rust panic of
    // its own (`thread '…' panicked`, `note: run with RUST_BACKTRACE=1`):
    // the traceback ends where that begins.
    let end = lines[start..]
        .iter()
        .position(|l| l.starts_with("thread '") || l.starts_with("note:"))
        .map_or(lines.len(), |at| start + at);
    let tail = &lines[start..end];
    let exception = tail
        .iter()
        .rev()
        .find(|l| !l.starts_with("File ") && !l.starts_with('^') && !l.starts_with('~'))
        .filter(|l| !l.starts_with("Traceback"))?;
    let frame = tail.iter().rev().find(|l| l.starts_with("File "));
    Some(match frame {
        Some(frame) => format!("raised {exception} ({frame})"),
        None => format!("raised {exception}"),
    })
}

/// An error and its causes on one line.
pub fn chain(err: &wasmtime::Error) -> String {
    err.chain()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The host's I/O failure is no verb's doing; a trap, or a refusal of the host's
    /// own (a sleep), is (review 408, finding 7: "verb `state` crashed: File too large").
    #[test]
    fn only_an_io_failure_of_the_host_is_the_hosts() {
        let efbig = std::io::Error::from_raw_os_error(27);
        assert!(host_failed(&wasmtime::Error::new(efbig)));
        let wrapped = wasmtime::Error::new(std::io::Error::from_raw_os_error(12))
            .context("mmap failed to allocate 0x1000 bytes");
        assert!(host_failed(&wrapped));
        // wasmtime's own `mmap` fails with rustix's `Errno` (the address space for the
        // verb's memory refused), its allocator with `OutOfMemory`: read as a crash.
        let refused = wasmtime::Error::new(rustix::io::Errno::NOMEM);
        assert!(host_failed(&refused));
        assert!(host_failed(&refused.context("cannot allocate 1 GiB")));
        assert!(host_failed(&wasmtime::Error::from(
            wasmtime::OutOfMemory::new(64)
        )));
        assert!(!host_failed(&wasmtime::Error::new(
            Trap::UnreachableCodeReached
        )));
        assert!(!host_failed(&wasmtime::format_err!(
            "the verb tried to sleep, and verbs get no clock"
        )));
    }

    /// The crash a verb ends in, from what it wrote on stderr (`wasm trap:
    /// unreachable` when it says nothing of its own).
    fn reason(stderr: &str) -> String {
        let trap = Trap::UnreachableCodeReached;
        crash_reason(stderr, Some(&trap), &wasmtime::Error::new(trap))
    }

    /// `-v` shows a Rust panic without std's advice to set `RUST_BACKTRACE`, which a verb
    /// has no environment for; every other line as written, a verb's own `note:` too.
    #[test]
    fn stderr_under_v_drops_the_backtrace_advice_a_verb_cannot_follow() {
        let panic = "probe: found 3\nthread '<unnamed>' (1) panicked at src/lib.rs:30:75:\n\
                     probe panicked on purpose\nnote: run with `RUST_BACKTRACE=1` environment \
                     variable to display a backtrace\n";
        assert_eq!(
            shown_stderr(panic),
            "probe: found 3\nthread '<unnamed>' (1) panicked at src/lib.rs:30:75:\n\
             probe panicked on purpose\n"
        );
        let own = "note: run with care\nlast";
        assert_eq!(shown_stderr(own), own);
    }

    /// The lines a verb wrote before it crashed are not its reason: a Rust panic's are,
    /// or a JavaScript error's message and frame.
    #[test]
    fn a_crash_is_told_by_its_own_lines_whatever_the_verb_wrote_before() {
        let crashes = [
            (
                "thread '<unnamed>' (1) panicked at src/lib.rs:30:75:\nprobe panicked on purpose\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
                "panicked at src/lib.rs:30:75: probe panicked on purpose",
            ),
            (
                "Error: boom\nat arguments (jsfail/verb.js:12:45)\n",
                "Error: boom at arguments (jsfail/verb.js:12:45)",
            ),
        ];
        for (crash, told) in crashes {
            assert_eq!(reason(crash), told);
            let after_lines_of_its_own =
                format!("probe: checking the selector\nprobe: found 3\n{crash}");
            assert_eq!(reason(&after_lines_of_its_own), told);
        }
        assert_eq!(
            reason("thread 'main' panicked at src/lib.rs:1:1:\n"),
            "panicked at src/lib.rs:1:1:"
        );
        assert_eq!(
            reason("jsfail: checking\nthrew 42\nin `shape`\n"),
            "threw 42 in `shape`"
        );
    }

    /// Lines of no known form: the first two; none at all: the trap.
    #[test]
    fn an_unknown_crash_is_told_by_the_verbs_first_words_or_its_trap() {
        assert_eq!(
            reason("fatal: out of cheese\nnote: a note\nStack:\nabort\n"),
            "fatal: out of cheese Stack:"
        );
        assert_eq!(
            reason(""),
            "wasm trap: wasm `unreachable` instruction executed"
        );
    }

    #[test]
    fn a_python_traceback_is_told_by_its_exception_and_innermost_frame() {
        // What componentize-py's runtime prints for an exception in `parse`.
        let stderr = "Traceback (most recent call last):\n  File \"/0/app.py\", line 22, in parse\n    return build(argv)\n           ^^^^^^^^^^^\n  File \"/0/app.py\", line 10, in build\n    raise ValueError(\"no selector given\")\nValueError: no selector given\n";
        assert_eq!(
            python_exception(stderr).as_deref(),
            Some("raised ValueError: no selector given (File \"/0/app.py\", line 10, in build)")
        );
        assert_eq!(
            python_exception("thread panicked at src/lib.rs:1:1:\nboom"),
            None
        );
        let with_runtime_panic = format!(
            "{stderr}thread '<unnamed>' panicked at src/lib.rs:9:5:\nPython exception\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
        );
        assert_eq!(
            python_exception(&with_runtime_panic).as_deref(),
            Some("raised ValueError: no selector given (File \"/0/app.py\", line 10, in build)"),
            "the runtime's own panic after the traceback is not the exception"
        );
        assert_eq!(
            python_exception(
                "Traceback (most recent call last):\n  File \"/0/app.py\", line 1, in parse\n"
            ),
            None,
            "a traceback cut before its exception line says nothing better"
        );
    }
}
