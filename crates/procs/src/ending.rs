//! How a process a signal stopped ends, once it has tidied up (stopped what it started,
//! removed its files, said why): the one place for it, so that whatever caught the signal
//! to tidy up first, its caller (a shell, a script's loop, an agent host) sees what it
//! would have seen had the process not caught it.

use std::os::raw::c_int;

/// The exit code a shell reports for a command `signal` ended: 128 + its number (130 for
/// SIGINT, 143 for SIGTERM, 129 for SIGHUP).
pub fn signal_exit_code(signal: c_int) -> i32 {
    128 + signal
}

/// Ends this process as `signal`'s default action does, whatever handlers are registered
/// for it or threads have it blocked: its parent sees it killed by the signal, as before
/// it was caught. Only if that did not end it (a signal whose default is to be ignored,
/// or one the process cannot give its default action back), exits with
/// [`signal_exit_code`]. For what stops as if it had not caught the signal (the stdio
/// bridge and proxy, `mur` outside a recorded invocation).
pub fn end_by_signal(signal: c_int) -> ! {
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    exit_for_signal(signal)
}

/// The name of `signal` as a line of mur's, the bridge's or mur-eval's says it: SIGINT
/// (Ctrl+C), SIGTERM or SIGHUP (the terminal closed), those they stop for; any other is
/// "a signal" (it was named "SIGINT", or "SIGTERM").
pub fn signal_name(signal: c_int) -> &'static str {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

/// Exits with [`signal_exit_code`], not killed by the signal: for a process that says
/// itself how it ended and documents that exit code for it (mur-eval: 130, 143, 129).
pub fn exit_for_signal(signal: c_int) -> ! {
    std::process::exit(signal_exit_code(signal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt as _;
    use std::process::Command;

    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

    /// Set in the environment of this test binary run again: the signal `ends` is to end
    /// it by, and how.
    const ENDS_BY: &str = "MUR_PROCS_TEST_ENDS_BY";

    /// This test binary again, running [`ends`] alone, which ends it as `how` says by
    /// `signal`; its exit status.
    fn ended(how: &str, signal: c_int) -> std::process::ExitStatus {
        let exe = std::env::current_exe().expect("the test binary");
        Command::new(exe)
            .args(["--exact", "ending::tests::ends", "--test-threads=1"])
            .env(ENDS_BY, format!("{how} {signal}"))
            .output()
            .expect("the test binary runs")
            .status
    }

    /// Run by [`ended`] only (passes at once otherwise): catches `signal`, as a process
    /// that tidies up first does, then ends by it.
    #[test]
    fn ends() {
        let Ok(asked) = std::env::var(ENDS_BY) else {
            return;
        };
        let (how, signal) = asked.split_once(' ').expect("how and the signal");
        let signal: c_int = signal.parse().expect("a signal");
        // Caught, and by a handler that would otherwise leave the process running.
        let caught = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        signal_hook::flag::register(signal, caught).expect("a handler");
        match how {
            "end" => end_by_signal(signal),
            _ => exit_for_signal(signal),
        }
    }

    /// Its parent sees it killed by the signal, though it was caught: a caller that
    /// tells a signal's death from an exit (an agent host, `wait`) is not misled.
    #[test]
    fn a_caught_signal_still_ends_the_process_by_it() {
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let status = ended("end", signal);
            assert_eq!(
                (status.signal(), status.code()),
                (Some(signal), None),
                "{status}"
            );
        }
    }

    /// Each signal a process stops for is named as itself: SIGHUP (the terminal closed
    /// while a bridge started) was "SIGINT", as was any other; no other is taken for
    /// SIGTERM.
    #[test]
    fn each_signal_is_named_as_itself() {
        use signal_hook::consts::SIGQUIT;
        assert_eq!(
            [SIGINT, SIGTERM, SIGHUP, SIGQUIT].map(signal_name),
            ["SIGINT", "SIGTERM", "SIGHUP", "a signal"]
        );
    }

    #[test]
    fn an_exit_for_a_signal_is_the_shells_code_for_it() {
        for (signal, code) in [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)] {
            let status = ended("exit", signal);
            assert_eq!(
                (status.code(), status.signal()),
                (Some(code), None),
                "{status}"
            );
        }
    }
}
