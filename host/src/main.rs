//! `mur`: parse argv, run the command, print the error, return the exit code.

mod call_line;
mod cli;
mod command_tree;
mod commands;
mod compiling;
mod interrupt;
mod invoke;
mod judging;
mod media;
mod options;
mod output;
mod refusal;
mod session_tools;
mod signals;
mod tool_cache;
mod tool_call;
mod tools;
mod usage;
mod verb_help;
mod verb_list;

use std::process::ExitCode;

use mur_core::{Error, Kind};

/// The static musl build (README, "Install for real use") allocates through dlmalloc:
/// musl's allocator unmaps freed memory eagerly, and a call's allocations then cost
/// system calls and page faults (docs/performance.md, "A named verb against the contract floor").
/// dlmalloc starts with nothing to set up and carves blocks of every size from the same
/// pages, where mimalloc (used before) read its options at start, reserved an arena and
/// gave each size class pages of its own: −0.13 ms and 35 page faults a call (docs/performance.md,
/// "dlmalloc instead of mimalloc").
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;

fn main() -> ExitCode {
    usage::start_clock();
    let outcome = commands::run(std::env::args_os().collect())
        // A call out of its bound that no command told how to lengthen it (`catalog`, a
        // verb without a bound of its own): mur's `--timeout`, before the verb's name.
        .map_err(|e| tool_call::lengthen(e, tool_call::Bound::BeforeVerb));
    let exit = match &outcome {
        Ok(()) => 0,
        // Help or the version that cannot be written (stdout is a full disk) fails
        // as every other command's output does: exit 7, or quietly for a closed pipe.
        Err(e) => match report(e) {
            Ok(()) => e.exit_code(),
            Err(unwritten) => {
                let _ = report(&unwritten);
                unwritten.exit_code()
            }
        },
    };
    // After the output: a record that cannot be written changes neither it nor the exit.
    usage::finish(&outcome, exit);
    ExitCode::from(exit)
}

/// The only place an error is printed. Help and the version are clap's "errors" whose
/// text is the result, on stdout: the error that writing it failed with is returned.
fn report(e: &Error) -> Result<(), Error> {
    if let Some(clap_error) = e.clap_error() {
        if clap_error.kind() == clap::error::ErrorKind::DisplayVersion {
            // clap names a subcommand's version `mur-devtools-session-list`;
            // the program is `mur` at every depth.
            return output::stdout(format!("mur {}\n", env!("CARGO_PKG_VERSION")).as_bytes());
        }
        return output::clap(clap_error);
    }
    if e.kind() == Kind::BrokenPipe {
        return Ok(());
    }
    // stdout gone (a closed pipe): the message on stderr still says why. stdout that
    // cannot be written (a full disk): the answer the failure carries is lost, and said
    // to be (it was lost without a word, the exit code the tool's).
    if let Some(bytes) = e.stdout()
        && let Err(unwritten) = output::stdout(bytes)
        && unwritten.kind() != Kind::BrokenPipe
    {
        output::diagnostic(&format!("warning: {}", output::line(unwritten.message())));
    }
    // One line each, whatever a name quoted in them holds: a verb's, a tool's or a
    // server's words must not forge a line of mur's (`error: …`). The detail is
    // the one part that is many lines.
    // An empty message: the command said its outcome itself (`parity`'s exit 1).
    if !e.message().is_empty() {
        output::diagnostic(&format!("error: {}", output::line(e.message())));
    }
    for row in e.list() {
        output::diagnostic(&format!("  {}", output::line(row)));
    }
    if let Some(detail) = e.detail() {
        output::diagnostic(&format!("\n{}\n", detail.trim_end()));
    }
    for hint in e.hints() {
        output::diagnostic(&format!("hint: {}", output::line(hint)));
    }
    Ok(())
}
