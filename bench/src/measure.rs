//! Timing one child process: wall-clock duration and peak resident memory.

use std::{
    process::{Command, Stdio},
    time::{Duration, Instant},
};

/// What one run of a command cost.
#[derive(Debug, Clone, Copy)]
pub struct Run {
    pub elapsed: Duration,
    /// Peak resident set size of the child, in KiB (0 where unknown).
    pub peak_rss_kib: u64,
    pub exit_code: i32,
}

/// Run `command` to completion with stdout/stderr discarded.
pub fn run(command: &mut Command) -> std::io::Result<Run> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let started = Instant::now();
    let child = command.spawn()?;
    let (exit_code, peak_rss_kib) = wait_with_rusage(child)?;
    Ok(Run {
        elapsed: started.elapsed(),
        peak_rss_kib,
        exit_code,
    })
}

/// Run `command` and fail unless it exits with `expected`.
pub fn run_expect(command: &mut Command, expected: i32) -> std::io::Result<Run> {
    let outcome = run(command)?;
    if outcome.exit_code != expected {
        return Err(std::io::Error::other(format!(
            "{command:?} exited {} (expected {expected})",
            outcome.exit_code
        )));
    }
    Ok(outcome)
}

/// `wait4` is the one call that reports a single child's peak RSS; std's
/// `Child::wait` throws the rusage away.
#[cfg(unix)]
fn wait_with_rusage(child: std::process::Child) -> std::io::Result<(i32, u64)> {
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    #[allow(unsafe_code)]
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own unreaped child; both pointers are valid for
    // writes for the duration of the call.
    #[allow(unsafe_code)]
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if reaped != pid {
        return Err(std::io::Error::last_os_error());
    }
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    // Linux reports ru_maxrss in KiB.
    Ok((code, usage.ru_maxrss.max(0) as u64))
}

#[cfg(not(unix))]
fn wait_with_rusage(mut child: std::process::Child) -> std::io::Result<(i32, u64)> {
    Ok((child.wait()?.code().unwrap_or(-1), 0))
}
