//! `mur`: parse argv, run the command, print the error, return the exit code.

mod cli;
mod commands;
mod discovery;
mod error;
mod mcp;
mod options;
mod output;
mod scaffold;
mod verbs;

use std::process::ExitCode;

use error::{Error, Kind};

fn main() -> ExitCode {
    match commands::run(std::env::args_os().collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            report(&e);
            ExitCode::from(e.exit_code())
        }
    }
}

/// The only place an error is printed.
fn report(e: &Error) {
    if let Some(clap_error) = e.clap_error() {
        // Help and version go to stdout, usage errors to stderr, as clap renders them.
        let _ = clap_error.print();
        return;
    }
    if e.kind() == Kind::BrokenPipe {
        return;
    }
    output::diagnostic(&format!("error: {}", e.message()));
    if let Some(detail) = e.detail() {
        output::diagnostic(&format!("\n{}\n", detail.trim_end()));
    }
    for hint in e.hints() {
        output::diagnostic(&format!("hint: {hint}"));
    }
}
