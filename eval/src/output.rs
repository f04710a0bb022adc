//! Where `mur-eval` writes: results on stdout, progress, warnings and errors on stderr, a
//! line at a time. A closed pipe ends quietly: a failed write to stderr is dropped
//! (`eprintln!` panicked on a stderr pipe whose reader had gone, exit 101 instead of the
//! command's own), and stdout closed by its reader (`mur-eval report DIR | head`) ends the
//! output without an error. Callers escape others' text (agents', servers', files') before
//! it gets here. The study's progress bar draws on stderr through indicatif
//! (`study/progress.rs`), which drops a failed write itself.

use std::io::Write as _;

use mur_core::text::escape_controls;
use mur_core::{Error, Result};

/// Results on stdout; a closed pipe ends quietly.
pub fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Error::internal(format!("cannot write to stdout: {e}")))
        }
        _ => Ok(()),
    }
}

/// One line on stderr, as it is.
pub fn line(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Warnings, one line each.
pub fn warn(warnings: &[String]) {
    for warning in warnings {
        line(&format!("warning: {}", escape_controls(warning)));
    }
}

/// What clap refused or was asked for, and the exit code it means: a usage error said as
/// `mur` says one (one `error:` line in backticks, then `hint:` lines, the usage last),
/// by mur-core's reading of clap's error, the one `mur` uses; help and the version as
/// clap renders them.
pub fn clap(error: clap::Error) -> u8 {
    let error = Error::from(error);
    match error.clap_error() {
        Some(clap) => {
            let _ = clap.print();
        }
        None => report(&error),
    }
    error.exit_code()
}

/// The only place an error is printed: one line, its list and detail, then its hints.
pub fn report(error: &Error) {
    line(&format!("error: {}", escape_controls(error.message())));
    for row in error.list() {
        line(&format!("  {}", escape_controls(row)));
    }
    if let Some(detail) = error.detail() {
        line(&format!("\n{}\n", escape_controls(detail.trim_end())));
    }
    for hint in error.hints() {
        line(&format!("hint: {}", escape_controls(hint)));
    }
}
