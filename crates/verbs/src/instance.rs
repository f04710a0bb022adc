//! One instantiated verb: a fresh store (sandbox, limits, fuel) and its exports,
//! and the translation of whatever goes wrong inside it into a [`VerbError`]
//! that names the verb and says why.

use wasmtime::component::{Component, Linker};
use wasmtime::{Engine, Store, Trap};

use super::bindings::{OutputOptions, Parsed, Verb, VerbInfo, VerbPre, WORLD, WitShaped};
use super::error::VerbError;
use super::sandbox::{FUEL_PER_CALL, MEMORY_LIMIT_BYTES, Sandbox};

/// A verb ready to be called; parse and shape of one invocation share it.
pub struct Instance {
    pub verb: String,
    store: Store<Sandbox>,
    exports: Verb,
}

impl Instance {
    /// Type-check `component` against the world and instantiate it in a new store.
    pub fn new(
        engine: &Engine,
        linker: &Linker<Sandbox>,
        component: &Component,
        verb: &str,
    ) -> Result<Self, VerbError> {
        let pre = linker
            .instantiate_pre(component)
            .and_then(VerbPre::new)
            .map_err(|e| {
                VerbError::plugin(verb, format!("does not implement `{WORLD}`: {}", chain(&e)))
            })?;
        let mut store = Store::new(engine, Sandbox::new());
        store.limiter(|sandbox| &mut sandbox.limits);
        refuel(&mut store);
        let exports = pre
            .instantiate(&mut store)
            .map_err(|e| classify(verb, &store, &e))?;
        Ok(Self {
            verb: verb.to_owned(),
            store,
            exports,
        })
    }

    pub fn info(&mut self) -> Result<VerbInfo, VerbError> {
        refuel(&mut self.store);
        let result = self.exports.call_info(&mut self.store);
        self.finish("info", result)
    }

    /// The verb's own answer (`Err` is its usage message), or how it failed.
    pub fn parse(&mut self, argv: &[String]) -> Result<Result<Parsed, String>, VerbError> {
        refuel(&mut self.store);
        let result = self.exports.call_parse(&mut self.store, argv);
        self.finish("parse", result)
    }

    pub fn shape(
        &mut self,
        argv: &[String],
        result: &str,
        pretty: bool,
    ) -> Result<Result<WitShaped, String>, VerbError> {
        refuel(&mut self.store);
        let options = OutputOptions { pretty };
        let shaped = self
            .exports
            .call_shape(&mut self.store, argv, result, options);
        self.finish("shape", shaped)
    }

    /// Log the fuel a call used (to size the budget) and translate its failure.
    fn finish<T>(&self, export: &str, result: wasmtime::Result<T>) -> Result<T, VerbError> {
        let used = FUEL_PER_CALL.saturating_sub(self.store.get_fuel().unwrap_or(0));
        tracing::debug!("verb `{}` {export} used {used} fuel", self.verb);
        result.map_err(|e| classify(&self.verb, &self.store, &e))
    }
}

/// Every export call starts with a full budget, so the bound is per call.
fn refuel(store: &mut Store<Sandbox>) {
    // Fuel is enabled on the engine (runtime.rs), so this cannot fail.
    let _ = store.set_fuel(FUEL_PER_CALL);
}

/// Name the limit a failed call hit, or describe its crash.
fn classify(verb: &str, store: &Store<Sandbox>, err: &wasmtime::Error) -> VerbError {
    let trap = err.downcast_ref::<Trap>();
    let message = if trap == Some(&Trap::OutOfFuel) {
        "ran out of its time budget".to_owned()
    } else if store.data().limits.exceeded {
        format!("exceeded its {} MiB memory limit", MEMORY_LIMIT_BYTES >> 20)
    } else {
        format!(
            "crashed: {}",
            crash_reason(&store.data().stderr(), trap, err)
        )
    };
    tracing::debug!("verb `{verb}` failed: {err:?}");
    VerbError::plugin(verb, message)
}

/// The guest's own last words (a Rust panic message) if it left any on stderr,
/// else the trap or host error, first line only.
fn crash_reason(stderr: &str, trap: Option<&Trap>, err: &wasmtime::Error) -> String {
    if let Some(exception) = python_exception(stderr) {
        return exception;
    }
    let said: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("note:"))
        .take(2)
        .collect();
    if let Some(first) = said.first() {
        // Rust prints `thread '<unnamed>' (1) panicked at …`; the thread is noise.
        let first = first.find("panicked at").map_or(*first, |at| &first[at..]);
        return [first]
            .into_iter()
            .chain(said.get(1).copied())
            .collect::<Vec<_>>()
            .join(" ");
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
    let tail = &lines[start..];
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
        assert_eq!(
            python_exception(
                "Traceback (most recent call last):\n  File \"/0/app.py\", line 1, in parse\n"
            ),
            None,
            "a traceback cut before its exception line says nothing better"
        );
    }
}
