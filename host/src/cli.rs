//! The command line as clap types, and nothing else.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::options::PortRange;
use crate::verbs::VerbsCommand;

/// Default bound on one whole call (discovery excluded), in milliseconds.
///
/// Ten seconds: a loopback devtools call normally answers in milliseconds, but
/// a first `tree` of a big window or a `screenshot` on a loaded machine can take
/// seconds; anything longer is a hung server, and a script deserves exit 2.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

#[derive(Debug, Parser)]
#[command(name = "mur", version, about = "Drive running apps through their devtools MCP servers")]
#[command(propagate_version = true, disable_help_subcommand = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Talk to the running app's devtools session
    Devtools(Devtools),
}

#[derive(Debug, Args)]
#[command(allow_external_subcommands = true)]
#[command(after_help = "Verbs not listed here come from installed verb plugins.")]
pub struct Devtools {
    #[command(flatten)]
    pub host: HostArgs,
    #[command(subcommand)]
    pub verb: Verb,
}

/// Options the host owns; accepted before the verb and (except `--timeout`)
/// anywhere among a plugin verb's arguments.
#[derive(Debug, Clone, Default, Args)]
pub struct HostArgs {
    /// Use this MCP endpoint as-is, without discovery
    #[arg(long, global = true, value_name = "URL")]
    pub endpoint: Option<String>,
    /// Pick the session of this project (its project file)
    #[arg(long, global = true, value_name = "PATH")]
    pub project: Option<PathBuf>,
    /// When no lockfile names a live session, scan loopback ports (the OS's ephemeral range)
    #[arg(long, global = true)]
    pub auto: bool,
    /// Like --auto, scanning every port 1024-65535
    #[arg(long, global = true)]
    pub auto_full: bool,
    /// Like --auto, scanning this port range
    #[arg(long, global = true, value_name = "LO-HI")]
    pub auto_range: Option<PortRange>,
    /// Bound on the whole call, in milliseconds
    #[arg(long, global = true, value_name = "MS", default_value_t = DEFAULT_TIMEOUT_MS)]
    pub timeout: u64,
    /// Indent JSON output; print tables for people
    #[arg(long, global = true)]
    pub pretty: bool,
    /// Print what mur does (endpoint, retries, progress) on stderr
    #[arg(short, long, global = true)]
    pub verbose: bool,
}

#[derive(Debug, Subcommand)]
pub enum Verb {
    /// List or clean devtools sessions
    #[command(subcommand)]
    Session(SessionCommand),
    /// Call any tool, or any JSON-RPC method when the name contains `/`
    Call(CallArgs),
    /// Manage installed verb plugins
    #[command(subcommand)]
    Verbs(VerbsCommand),
    /// A verb from an installed plugin
    #[command(external_subcommand)]
    Plugin(Vec<String>),
}

#[derive(Debug, Subcommand)]
pub enum SessionCommand {
    /// Print one JSON line per live session (exit 4 when there is none)
    List,
    /// Remove lockfiles of sessions whose process is gone
    Clean {
        /// Print what would be removed, remove nothing
        #[arg(long)]
        dry_run: bool,
    },
}

#[derive(Debug, Args)]
pub struct CallArgs {
    /// Tool name (`tree`), or JSON-RPC method (`tools/list`)
    pub name: String,
    /// Tool arguments, or the method's params, as a JSON value
    #[arg(long, value_name = "JSON")]
    pub args: Option<String>,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn plugin_verbs_keep_their_arguments_raw() {
        let cli = Cli::try_parse_from(["mur", "devtools", "--pretty", "wait", "#x", "--timeout", "8000"])
            .expect("parses");
        let Command::Devtools(d) = cli.command;
        assert!(d.host.pretty);
        assert_eq!(d.host.timeout, DEFAULT_TIMEOUT_MS);
        let Verb::Plugin(argv) = d.verb else { panic!("not a plugin verb") };
        assert_eq!(argv, ["wait", "#x", "--timeout", "8000"]);
    }

    #[test]
    fn host_options_follow_host_verbs() {
        let cli = Cli::try_parse_from(["mur", "devtools", "call", "ping", "--timeout", "5", "--pretty"])
            .expect("parses");
        let Command::Devtools(d) = cli.command;
        assert!(d.host.pretty);
        assert_eq!(d.host.timeout, 5);
    }
}
