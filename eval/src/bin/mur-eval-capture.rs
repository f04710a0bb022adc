//! `mur-eval-capture MUR ARGS…`: runs `MUR ARGS…` as if it were `mur` itself (stdin,
//! stdout, stderr and the exit code passed through, output forwarded as it comes) and
//! appends one line to the file `MUR_EVAL_CAPTURE` names: the argv, when it started,
//! everything `mur` printed and its exit code (schema `mur-eval-capture/1`; output that
//! is not UTF-8, such as a PNG, by its size alone: `stdoutBinary`, `stderrBinary`). The study's cli conditions put it on the
//! agent's PATH as `mur`, so the context an agent received is measured for any agent.

use std::io::{Read, Write};
use std::process::{Command, ExitCode, Stdio};
use std::thread;

/// Copies `from` to `to` as it comes, keeping a copy.
fn tee(mut from: impl Read, mut to: impl Write) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        match from.read(&mut buffer) {
            Ok(0) | Err(_) => return kept,
            Ok(n) => {
                kept.extend_from_slice(&buffer[..n]);
                // The reader may have gone (a closed pipe): keep reading for the record.
                let _ = to.write_all(&buffer[..n]).and_then(|()| to.flush());
            }
        }
    }
}

/// A line on stderr, dropped if stderr is gone: `eprintln!` panics on a closed pipe, and
/// this stands between an agent and `mur`, whose exit code it must pass on.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(mur) = args.next() else {
        say!("error: usage: mur-eval-capture MUR [ARGS…]");
        return ExitCode::from(1);
    };
    let argv: Vec<_> = args.collect();
    // When it started, for the trace's order beside the agent's MCP calls.
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    let child = Command::new(&mur)
        .args(&argv)
        .stdin(Stdio::inherit())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => {
            say!("error: cannot run `{}`: {e}", mur.to_string_lossy());
            return ExitCode::from(7);
        }
    };
    let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        say!("error: no pipes to `{}`", mur.to_string_lossy());
        return ExitCode::from(7);
    };
    let err = thread::spawn(move || tee(stderr, std::io::stderr()));
    let out = tee(stdout, std::io::stdout());
    let err = err.join().unwrap_or_default();
    let code = child.wait().ok().and_then(|s| s.code()).unwrap_or(7);
    if let Some(path) = std::env::var_os("MUR_EVAL_CAPTURE") {
        let mut line = serde_json::json!({
            "schema": "mur-eval-capture/1",
            "argv": argv.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>(),
            "exit": code,
            "time": started,
        });
        // Text as it is; binary output (a PNG the agent sent to a file) by its size
        // alone: decoded, its bytes would count as thousands of replacement characters.
        for (name, bytes) in [("stdout", &out), ("stderr", &err)] {
            match std::str::from_utf8(bytes) {
                Ok(text) => line[name] = text.into(),
                Err(_) => {
                    line[name] = "".into();
                    line[format!("{name}Binary")] = bytes.len().into();
                }
            }
        }
        // One write per line, appended: concurrent invocations do not interleave lines.
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut file| file.write_all(format!("{line}\n").as_bytes()));
        if let Err(e) = written {
            say!(
                "mur-eval-capture: cannot record in `{}`: {e}",
                path.to_string_lossy()
            );
        }
    }
    ExitCode::from(u8::try_from(code).unwrap_or(7))
}
