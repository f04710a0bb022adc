//! Where `mur-bench` writes: the tables on stdout, progress and errors on stderr.
//!
//! Every write's failure is dropped: `println!` panicked when stdout was a pipe its reader had
//! closed (`mur-bench | head`), and the panic skipped the drops that stop the bench's
//! `mur-sample`. The measurements go on to the end; only what nobody reads is lost.

use std::io::Write as _;

/// Text for stdout, as it is (a table ends its own lines).
pub fn out(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// One line on stderr: progress, or what went wrong.
pub fn note(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}
