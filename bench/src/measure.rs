//! Running one child process: timed (wall-clock duration) or watched for its
//! peak resident memory, never both in the same run.
//!
//! Why two kinds of run: the kernel's account of a child's peak RSS (`wait4`'s
//! `ru_maxrss`) keeps the largest of every memory image the process had, and
//! until its `exec` the child's image is the parent's — so every child of
//! `mur-bench` was reported at no less than `mur-bench`'s own 3–6 MiB (a
//! `mur-floor` that peaks at 0.4 MiB read 3.1 MiB). The peak of the program
//! itself is `VmHWM` of its own image, which exists only while it runs: a
//! memory run stops the child at its exit (ptrace's exit event) and reads it
//! there. The stops cost a run tens of microseconds, so a memory run is never
//! a timed one; the tables measure memory in their warm-up runs.

use std::{
    process::{Command, Stdio},
    time::Instant,
};

use crate::runs::Run;

/// Run `command` to completion with stdout/stderr discarded, timing it.
pub fn run(command: &mut Command) -> std::io::Result<Run> {
    quiet(command);
    let started = Instant::now();
    let status = command.spawn()?.wait()?;
    Ok(Run {
        elapsed: started.elapsed(),
        peak_rss_kib: None,
        exit_code: status.code().unwrap_or(-1),
    })
}

/// Run `command` and fail unless it exits with `expected`.
pub fn run_expect(command: &mut Command, expected: i32) -> std::io::Result<Run> {
    expect(run(command)?, command, expected)
}

/// Run `command` to completion, watching its own peak memory (see the module's
/// comment); its `elapsed` includes the watching and is not a sample.
pub fn run_for_memory(command: &mut Command) -> std::io::Result<Run> {
    // Elsewhere there is no way to read a child's own peak: a memory run is a plain run.
    #[cfg(not(target_os = "linux"))]
    return run(command);
    #[cfg(target_os = "linux")]
    {
        quiet(command);
        watched::run(command)
    }
}

/// [`run_for_memory`], failing unless it exits with `expected`.
pub fn run_for_memory_expect(command: &mut Command, expected: i32) -> std::io::Result<Run> {
    expect(run_for_memory(command)?, command, expected)
}

fn quiet(command: &mut Command) {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
}

fn expect(outcome: Run, command: &Command, expected: i32) -> std::io::Result<Run> {
    if outcome.exit_code != expected {
        return Err(std::io::Error::other(format!(
            "{command:?} exited {} (expected {expected})",
            outcome.exit_code
        )));
    }
    Ok(outcome)
}

#[cfg(target_os = "linux")]
mod watched {
    //! The child asks to be traced (`PTRACE_TRACEME`) and stops after its
    //! `exec`; the parent then asks for a stop at its exit (`PTRACE_O_TRACEEXIT`),
    //! where the child's image still exists, and reads its `VmHWM`. The processes
    //! the child started are in `wait4`'s account, which is kept where it is
    //! above anything of ours. Written by hand: no maintained crate reads a
    //! child's own peak at exit.
    #![allow(unsafe_code)]

    use std::{os::unix::process::CommandExt, process::Command, ptr, time::Instant};

    use crate::runs::Run;

    pub fn run(command: &mut Command) -> std::io::Result<Run> {
        // SAFETY: between fork and exec the closure makes one raw syscall, which
        // is async-signal-safe; if the kernel refuses tracing, the child runs
        // untraced and the loop below sees a plain exit.
        unsafe {
            command.pre_exec(|| {
                libc::ptrace(
                    libc::PTRACE_TRACEME,
                    0,
                    ptr::null_mut::<libc::c_void>(),
                    ptr::null_mut::<libc::c_void>(),
                );
                Ok(())
            });
        }
        let started = Instant::now();
        let pid = command.spawn()?.id() as libc::pid_t;
        let mut peak = None;
        let mut watching = false;
        let exit_code = loop {
            let mut status: libc::c_int = 0;
            // SAFETY: an all-zero rusage is a valid value of this plain C struct.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: `pid` is our own child, reaped only here; both pointers are
            // valid for writes.
            if unsafe { libc::wait4(pid, &mut status, 0, &mut usage) } != pid {
                return Err(std::io::Error::last_os_error());
            }
            let exited = libc::WIFEXITED(status) || libc::WIFSIGNALED(status);
            if exited {
                // `ru_maxrss` also covers the processes the child started and
                // waited for (a server launched per call). Of ours it can hold at
                // most our peak so far: above that, it is theirs or the child's
                // (Linux reports KiB).
                let kib = usage.ru_maxrss.max(0) as u64;
                let ours = own_peak_kib(std::process::id() as libc::pid_t).unwrap_or(u64::MAX);
                if kib > ours {
                    peak = peak.max(Some(kib));
                }
                break if libc::WIFEXITED(status) {
                    libc::WEXITSTATUS(status)
                } else {
                    -1
                };
            }
            let signal = libc::WSTOPSIG(status);
            let event = status >> 16;
            let forward = if event == libc::PTRACE_EVENT_EXIT {
                peak = peak.max(own_peak_kib(pid));
                0
            } else if signal == libc::SIGTRAP && !watching {
                // The stop after exec: from here on, stop at the exit too, and
                // never outlive mur-bench as a stopped child.
                watching = true;
                let options = libc::PTRACE_O_TRACEEXIT | libc::PTRACE_O_EXITKILL;
                // SAFETY: `pid` is our stopped tracee.
                unsafe { libc::ptrace(libc::PTRACE_SETOPTIONS, pid, NONE, word(options)) };
                0
            } else {
                signal // the child's own signals go on to it
            };
            // SAFETY: `pid` is our stopped tracee.
            unsafe { libc::ptrace(libc::PTRACE_CONT, pid, NONE, word(forward)) };
        };
        Ok(Run {
            elapsed: started.elapsed(),
            peak_rss_kib: peak,
            exit_code,
        })
    }

    /// ptrace's `addr` and `data` are pointer-sized words: passed as such, never
    /// as a narrower integer through the variadic call.
    const NONE: *mut libc::c_void = ptr::null_mut();

    fn word(value: libc::c_int) -> *mut libc::c_void {
        value as usize as *mut libc::c_void
    }

    /// `VmHWM` of `/proc/<pid>/status`: the peak resident set of the image the
    /// process runs now (in kB, as the kernel writes it).
    fn own_peak_kib(pid: libc::pid_t) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// A memory run of `command` succeeds and reads a peak within `kib`.
    fn assert_peak(command: &mut Command, kib: std::ops::Range<u64>) {
        let run = run_for_memory_expect(command, 0).expect("the command runs");
        let peak = run.peak_rss_kib.expect("the peak is read at its exit");
        assert!(kib.contains(&peak), "{command:?} peaked at {peak} KiB");
    }

    /// `dd` reading `mib` MiB at once: a buffer of that size, touched.
    fn dd(mib: u32) -> Command {
        let mut dd = Command::new("dd");
        dd.args([
            "if=/dev/zero",
            "of=/dev/null",
            &format!("bs={mib}M"),
            "count=1",
        ]);
        dd
    }

    #[test]
    fn a_small_child_of_a_large_parent_is_reported_at_its_own_peak() {
        // What `wait4` got wrong: a parent holding 64 MiB made every child read 64 MiB.
        let held = vec![1u8; 64 << 20];
        std::hint::black_box(&held);
        assert_peak(&mut Command::new("true"), 0..16 << 10);
        // And a child that does use memory is seen using it.
        assert_peak(&mut dd(32), 32 << 10..60 << 10);
    }

    #[test]
    fn what_a_child_starts_and_waits_for_counts_too() {
        // A server launched per call is the launcher's child: its memory is the call's.
        // `exit` after dd, so the shell starts dd instead of becoming it; 128 MiB,
        // more than this test process holds while the test beside it runs.
        let mut sh = Command::new("sh");
        sh.args([
            "-c",
            "dd if=/dev/zero of=/dev/null bs=128M count=1 2>/dev/null; exit 0",
        ]);
        assert_peak(&mut sh, 128 << 10..180 << 10);
    }

    #[test]
    fn a_memory_run_reports_the_exit_code_and_a_timed_run_no_memory() {
        let failed = run_for_memory(&mut Command::new("false")).expect("false runs");
        assert_eq!(failed.exit_code, 1);
        let timed = run(&mut Command::new("true")).expect("true runs");
        assert_eq!((timed.exit_code, timed.peak_rss_kib), (0, None));
    }
}
