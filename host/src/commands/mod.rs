//! From argv to a finished command: parse, pick the command, run it.

mod call;
mod completions;
mod guide;
mod session;
mod verb;
mod verbs;

use std::ffi::OsString;

use clap::FromArgMatches as _;

use crate::cli::{self, Cli, Command, Devtools, Verb};
use mur_core::Settings;
use mur_core::{Error, Result};

use crate::invoke;
use crate::options::{extract_host_options, settings};

/// Runs `mur` with these arguments.
pub fn run(argv: Vec<OsString>) -> Result<()> {
    let Cli { mut host, command } = parse(argv)?;
    let verb = match command {
        Command::Devtools(Devtools { verb }) => verb,
        Command::Completions { shell } => return completions::run(shell, &verb::installed()),
    };
    match verb {
        Verb::Guide => guide::run(),
        Verb::Session(cmd) => {
            let settings = start(settings(&host));
            invoke::block_on(session::run(&cmd, &settings))?
        }
        Verb::Call(args) => invoke::block_on(call::run(&args, &start(settings(&host))))?,
        Verb::Verbs(cmd) => {
            start(settings(&host));
            verbs::run(&cmd)
        }
        Verb::Plugin(argv) => {
            let (name, rest) = argv
                .split_first()
                .ok_or_else(|| Error::usage("a verb name is required"))?;
            if name == "help" {
                return help(rest);
            }
            let rest = extract_host_options(rest, &mut host)?;
            verb::run(name, &rest, start(settings(&host)))
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

/// Turns on `-v` diagnostics before anything else happens.
fn start(settings: Settings) -> Settings {
    if settings.verbose {
        crate::output::start_verbose_log(!cli::color_disabled());
    }
    settings
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

/// The command tree with a "Plugin verbs" section under `mur devtools --help`.
fn with_plugin_verbs() -> clap::Command {
    let verbs = verb::installed();
    if verbs.is_empty() {
        return cli::command();
    }
    let width = verbs.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut text = String::from("Plugin verbs (`mur devtools <verb> --help` for each):\n");
    for (name, summary) in &verbs {
        text.push_str(&format!("  {name:<width$}  {summary} [plugin]\n"));
    }
    cli::command().mut_subcommand("devtools", |c| {
        let examples = c
            .get_after_help()
            .map(|h| h.to_string())
            .unwrap_or_default();
        let examples = examples
            .split_once("Examples:")
            .map(|(_, e)| format!("\nExamples:{e}"))
            .unwrap_or_default();
        c.after_help(text + &examples)
    })
}
