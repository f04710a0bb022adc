//! From argv to a finished command: parse, pick the command, run it.

mod call;
mod catalog;
mod completions;
mod derived;
mod guide;
mod session;
mod verb;
mod verbs;

use std::ffi::OsString;

use clap::FromArgMatches as _;

use crate::cli::{self, Cli, Command, Devtools, Verb};
use mur_core::{Error, Result};

use crate::invoke;
use crate::options::started;

/// Runs `mur` with these arguments.
pub fn run(argv: Vec<OsString>) -> Result<()> {
    if let Some(answered) = completions::answer(&argv) {
        return answered;
    }
    let Cli { host, command } = parse(argv)?;
    let verb = match command {
        Command::Devtools(Devtools { verb }) => verb,
        Command::Completions { shell } => return completions::run(shell),
    };
    match verb {
        Verb::Guide => guide::run(),
        Verb::Catalog { json } => invoke::block_on(catalog::catalog(&started(&host), json))?,
        Verb::Parity { json } => invoke::block_on(catalog::parity(&started(&host), json))?,
        Verb::Session(cmd) => {
            let settings = started(&host);
            invoke::block_on(session::run(&cmd, &settings))?
        }
        Verb::Call(args) => invoke::block_on(call::run(&args, &started(&host)))?,
        Verb::Verbs(cmd) => {
            started(&host);
            verbs::run(&cmd, &host)
        }
        Verb::Plugin(argv) => {
            let (name, rest) = argv
                .split_first()
                .ok_or_else(|| Error::usage("a verb name is required"))?;
            if name == "help" {
                return help(rest);
            }
            verb::run(name, rest, host)
        }
    }
}

/// `mur devtools help [verb…]` is `mur devtools [verb…] --help`.
fn help(words: &[String]) -> Result<()> {
    let argv = ["mur", "devtools"]
        .into_iter()
        .map(String::from)
        .chain(words.iter().cloned());
    run(argv
        .chain(["--help".to_owned()])
        .map(OsString::from)
        .collect())
}

/// Parses argv; clap errors keep clap's rendering but use mur's exit codes.
/// Help is rendered with the installed plugin verbs listed.
fn parse(argv: Vec<OsString>) -> Result<Cli> {
    match cli::command().try_get_matches_from(argv.clone()) {
        Ok(matches) => Ok(Cli::from_arg_matches(&matches)?),
        Err(e) if wants_help(&e) => Err(with_plugin_verbs()
            .try_get_matches_from(argv)
            .err()
            .unwrap_or(e)
            .into()),
        Err(e) => Err(e.into()),
    }
}

fn wants_help(e: &clap::Error) -> bool {
    use clap::error::ErrorKind::{DisplayHelp, DisplayHelpOnMissingArgumentOrSubcommand};
    matches!(
        e.kind(),
        DisplayHelp | DisplayHelpOnMissingArgumentOrSubcommand
    )
}

/// The command tree with the installed plugin verbs listed in `mur devtools --help`.
fn with_plugin_verbs() -> clap::Command {
    cli::command_listing(&verb::installed())
}
