//! How much a verb may ask of its host in one export call (`parse`, `shape`):
//! calls into the host, counted by wasmtime's call hook, which runs on every entry
//! into the host, and random bytes, counted where they are made.
//!
//! Why a bound on host calls, beside fuel: fuel counts the guest's instructions,
//! not the host's work on a call, and a cheap call (a read of the frozen clock, a
//! random number, the empty environment, a stream made and dropped) is 2 to 54
//! units of fuel and 0.1 to 0.3 µs of host work (release build), so a verb
//! looping on one ran 20 to 30 s on its half second of fuel, one making and
//! dropping a stream some eight minutes (5e9 fuel at 2 a call). Charging fuel per
//! call would make one bound of the two, but its error would name instructions
//! the verb never ran; a count says what the verb did, as the write budget does
//! ([`super::capture`]), and costs a counter a host call: next to nothing to a
//! verb that imports nothing (the standard verbs), whose hook runs only as an
//! export begins and ends and when its memory grows. Random bytes are counted
//! besides: one call could ask for 64 MiB.

use wasmtime::CallHook;

/// The host calls a verb may make in one export call: a scaffolded Python verb
/// makes a dozen in its `parse`, a JavaScript or a standard verb none or one, and
/// a verb's writes are some each (the write budget's 100,000 stay within it). A
/// million of the cheapest take 0.1 to 0.35 s (release build; 3 to 15 s in a
/// debug build).
pub const HOST_CALL_LIMIT: u64 = 1_000_000;

/// The random bytes a verb may ask for in one export call: a seed is some bytes,
/// Python's `random` takes 2.5 KiB; 16 MiB take the host some milliseconds.
pub const RANDOM_LIMIT_BYTES: u64 = 16 << 20;

/// What the export call running now asked of the host.
#[derive(Default)]
pub struct HostCalls {
    made: u64,
    random: u64,
    /// Which bound the verb ran past in this call, once it did.
    over: Option<Over>,
}

#[derive(Clone, Copy)]
enum Over {
    Calls,
    Random,
}

impl HostCalls {
    /// A call of an export begins: what it asks is counted from nothing.
    pub fn restart(&mut self) {
        *self = Self::default();
    }

    /// The host calls made since the export call began.
    pub fn made(&self) -> u64 {
        self.made
    }

    /// The call hook's step: one more call into the host (a WASI function, a
    /// memory's growth), refused past the bound. Returning from the host, or
    /// entering and leaving the verb, costs nothing.
    pub fn on(&mut self, hook: CallHook) -> wasmtime::Result<()> {
        if !matches!(hook, CallHook::CallingHost) {
            return Ok(());
        }
        self.made += 1;
        if self.made > HOST_CALL_LIMIT {
            return self.refuse(Over::Calls);
        }
        Ok(())
    }

    /// The verb asks for `len` random bytes: counted, refused past the bound.
    pub fn random(&mut self, len: u64) -> wasmtime::Result<()> {
        self.random = self.random.saturating_add(len);
        if self.random > RANDOM_LIMIT_BYTES {
            return self.refuse(Over::Random);
        }
        Ok(())
    }

    /// A trap, not an error the guest could read and ask again after.
    fn refuse(&mut self, over: Over) -> wasmtime::Result<()> {
        self.over = Some(over);
        Err(wasmtime::format_err!(
            "the verb asked its host past its bound"
        ))
    }

    /// What the verb did past a bound in this call, as an error says it.
    pub fn overrun(&self) -> Option<String> {
        Some(match self.over? {
            Over::Calls => {
                format!("called its host {HOST_CALL_LIMIT} times, the most one call may")
            }
            Over::Random => format!(
                "asked its host for more than {} MiB of random bytes, the most one call may",
                RANDOM_LIMIT_BYTES >> 20
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only calls into the host count; past either bound a call is refused and the
    /// overrun said, and the next export call counts afresh.
    #[test]
    fn host_calls_and_random_bytes_are_bounded_per_call() {
        let mut calls = HostCalls::default();
        for _ in 0..HOST_CALL_LIMIT {
            for hook in [
                CallHook::CallingWasm,
                CallHook::CallingHost,
                CallHook::ReturningFromHost,
                CallHook::ReturningFromWasm,
            ] {
                calls.on(hook).expect("within the bound");
            }
        }
        assert_eq!((calls.made(), calls.overrun()), (HOST_CALL_LIMIT, None));
        calls.on(CallHook::CallingHost).expect_err("past the bound");
        assert_eq!(
            calls.overrun().as_deref(),
            Some("called its host 1000000 times, the most one call may")
        );

        calls.restart();
        assert_eq!((calls.made(), calls.overrun()), (0, None));
        calls.on(CallHook::CallingHost).expect("counted afresh");
        calls.random(RANDOM_LIMIT_BYTES).expect("within the bound");
        calls.random(1).expect_err("past the bound");
        assert_eq!(
            calls.overrun().as_deref(),
            Some("asked its host for more than 16 MiB of random bytes, the most one call may")
        );
    }
}
