//! From argv to a finished command: parse ([`crate::refusal`], which says a refusal in
//! mur's words), pick the command, start its usage record, make its settings once
//! ([`crate::options::started`]; a plugin verb's, once it took the host options typed
//! after its name), run it.

mod bridge;
mod call;
mod catalog;
mod completions;
mod derived;
mod guide;
mod parity;
mod proxy;
mod session;
mod shown;
pub(crate) mod unknown_verb;
mod usage;
mod verb;
mod verbs;

use std::ffi::OsString;

use crate::cli::{CallArgs, Cli, Command, Devtools, Lazy, SessionCommand, Verb};
use mur_core::{Error, Result};

use crate::invoke;
use crate::options::started;

/// Runs `mur` with these arguments.
pub fn run(argv: Vec<OsString>) -> Result<()> {
    if let Some(answered) = completions::answer(&argv) {
        return answered;
    }
    // Read once, here: discovery names it again among several sessions.
    let line = command_line(&argv);
    // A host command's own flags refused are recorded as a plugin verb's are: a usage error.
    let Cli { mut host, command } =
        crate::refusal::parse(argv).inspect_err(|e| begin_refused(&line, e))?;
    host.command_line = line;
    let verb = match command {
        Command::Devtools(Devtools { verb }) => verb,
        Command::Completions { shell } => return completions::run(shell),
        Command::Help { words } => return help(&[], &words),
    };
    begin_record(&verb);
    // A signal from here on ends a recorded invocation as one in a call does.
    if crate::usage::recording() {
        crate::signals::watch(crate::interrupt::end);
    }
    // Each command's settings, made once, the `-v` log started with them: before the
    // command runs, so that `-v` also says why a recorded command's record was not
    // written. A plugin verb's are made by the verb: host options typed after its name
    // are known only once its own options are (they shadow the host's).
    let settings = || started(&host);
    match verb {
        Verb::Usage(cmd) => usage::run(&cmd, &settings()),
        Verb::Guide { all } => {
            settings();
            guide::run(all)
        }
        Verb::Catalog { json } => {
            let settings = settings();
            on_runtime(|| catalog::catalog(&settings, json))
        }
        Verb::Parity { json } => {
            let settings = settings();
            on_runtime(|| parity::run(&settings, json))
        }
        Verb::Session(cmd) => {
            let settings = settings();
            on_runtime(|| session::run(&cmd, &settings))
        }
        Verb::Call(args) => {
            let settings = settings();
            on_runtime(|| call::run(&args, &settings))
        }
        Verb::Bridge(args) => bridge::run(&args, &settings()),
        Verb::Proxy(args) => proxy::run(&args, &settings()),
        Verb::Verbs(cmd) => verbs::run(&cmd, &settings()),
        Verb::Plugin(argv) => {
            let (name, rest) = argv
                .split_first()
                .ok_or_else(|| Error::usage("a verb name is required"))?;
            if name == "help" {
                return help(&["devtools"], rest);
            }
            verb::run(name, rest, host)
        }
    }
}

/// The words after `mur devtools` in `argv`, the host options typed before `devtools`
/// (`mur --pretty devtools …`) moved after it, where they are taken too
/// ([`mur_core::Settings::command_line`]); none when there is no `devtools` or a word is
/// not UTF-8, and none for `proxy` (the first of mur's commands among the words), whose
/// errors go to the agent host that runs it, not to a shell.
fn command_line(argv: &[OsString]) -> Vec<String> {
    let words: Option<Vec<String>> = argv
        .iter()
        .skip(1)
        .map(|word| word.to_str().map(str::to_owned))
        .collect();
    let words = words.unwrap_or_default();
    let Some(at) = words.iter().position(|word| word == "devtools") else {
        return Vec::new();
    };
    let words = [&words[..at], &words[at + 1..]].concat();
    // The fast path's list: no command tree is built for a hint.
    match words.iter().find(|word| crate::cli::is_host_command(word)) {
        Some(command) if command == "proxy" => Vec::new(),
        _ => words,
    }
}

/// A command's future run on the call's runtime, made in this function's frame, not in
/// `run`'s: a future passed by value takes a slot its size in each frame it goes
/// through, and every page of a frame is touched on entry (stack probes), so `catalog`'s
/// ~10 KB future made `run`'s frame 14 KB and every named verb, which goes through `run`,
/// paid three page faults for it (helper PF, session 45: 14,040 -> 1,096 B).
#[inline(never)]
fn on_runtime<F: Future<Output = Result<()>>>(make: impl FnOnce() -> F) -> Result<()> {
    invoke::block_on(make())?
}

/// Starts this invocation's usage record, for the commands that run a verb
/// or talk to a session (not `verbs`, `usage` or help).
fn begin_record(verb: &Verb) {
    use mur_usage::Kind;
    let agent = std::env::var("MUR_AGENT").ok().filter(|a| !a.is_empty());
    let agent = agent.as_deref();
    match verb {
        Verb::Plugin(words) => match words.split_first() {
            Some((name, rest)) if name != "help" => {
                crate::usage::begin(name, Kind::Plugin, rest, agent);
            }
            _ => {}
        },
        Verb::Call(args) => {
            crate::usage::begin("call", Kind::Call, &call_argv(args), agent);
            crate::usage::command_value_options(&["--out"]);
        }
        Verb::Session(Lazy(SessionCommand::List { .. })) => {
            crate::usage::begin("session list", Kind::Host, &[], agent)
        }
        Verb::Session(Lazy(SessionCommand::Clean { .. })) => {
            crate::usage::begin("session clean", Kind::Host, &[], agent);
        }
        Verb::Catalog { .. } => crate::usage::begin("catalog", Kind::Host, &[], agent),
        Verb::Parity { .. } => crate::usage::begin("parity", Kind::Host, &[], agent),
        Verb::Guide { .. } => crate::usage::begin("guide", Kind::Host, &[], agent),
        // Long-running: a bridge or a proxy is no one call.
        Verb::Verbs(_) | Verb::Usage(_) | Verb::Bridge(_) | Verb::Proxy(_) => {}
    }
}

/// Starts the usage record of a command `begin_record` records whose own argv mur
/// refused before it began (`parity --bogus`): a usage error, as a plugin verb's argv
/// refused is, its argv the words after the command's name, a host option typed there
/// too, as after a verb's name ([`refused_command`]). A refusal in the words before the
/// name (`--bogus catalog`, `--timeout abc parity`) is none of the command's, as one
/// before a verb's name is none of the verb's: nothing is recorded. Help and the version
/// are no refusal; a word that is no such command (a verb's, `verbs`, `usage`) none either.
fn begin_refused(line: &[String], refused: &Error) {
    if refused.kind() != mur_core::Kind::Usage {
        return;
    }
    let Some((name, kind, argv)) = refused_command(line) else {
        return;
    };
    let agent = std::env::var("MUR_AGENT").ok().filter(|a| !a.is_empty());
    crate::usage::begin(&name, kind, argv, agent.as_deref());
    if kind == mur_usage::Kind::Call {
        crate::usage::command_value_options(&["--out"]);
    }
}

/// In `line`, the words after `devtools` ([`command_line`]), the command `begin_record`
/// records whose name mur takes with every word before it: its name, its kind and its
/// argv (the words after the name). The first of mur's commands in `line` that is
/// taken as the command there ([`taken_as_typed`]; `--project catalog parity`: `parity`,
/// `catalog` being a value); none where the words up to each one's name are refused.
fn refused_command(line: &[String]) -> Option<(String, mur_usage::Kind, &[String])> {
    use mur_usage::Kind;
    line.iter().enumerate().find_map(|(at, word)| {
        let (name, kind, words) = match (word.as_str(), line.get(at + 1)) {
            ("catalog" | "parity" | "guide", _) => (word.clone(), Kind::Host, 1),
            ("call", _) => (word.clone(), Kind::Call, 1),
            ("session", Some(sub)) if sub == "list" || sub == "clean" => {
                (format!("session {sub}"), Kind::Host, 2)
            }
            _ => return None,
        };
        let (typed, argv) = line.split_at(at + words);
        taken_as_typed(typed, &name).then_some((name, kind, argv))
    })
}

/// Whether `mur devtools` and `typed`, the words up to command `name`'s name, parse as
/// that command with nothing refused, as [`crate::refusal::parse`] checks them: clap, a
/// host option typed twice, one the command does not read. Without that function's
/// hints, which may ask a session: this runs only once argv is refused. `call`, whose
/// tool name clap requires, is given one.
fn taken_as_typed(typed: &[String], name: &str) -> bool {
    use clap::FromArgMatches as _;
    let tool = (name == "call").then_some("tool");
    let argv: Vec<OsString> = ["mur", "devtools"]
        .into_iter()
        .chain(typed.iter().map(String::as_str))
        .chain(tool)
        .map(OsString::from)
        .collect();
    let mut tree = crate::cli::command();
    let Ok(matches) = tree.try_get_matches_from_mut(&argv) else {
        return false;
    };
    let mut path = Vec::new();
    let mut at = &matches;
    while let Some((word, under)) = at.subcommand() {
        path.push(word);
        at = under;
    }
    if path.join(" ") != format!("devtools {name}") {
        return false;
    }
    let Ok(mut cli) = Cli::from_arg_matches(&matches) else {
        return false;
    };
    crate::options::check_typed(&mut cli.host, tree, &argv).is_ok()
        && cli.unread_option(&matches).is_none()
}

/// `call`'s argv as typed, for the shape of its record.
fn call_argv(args: &CallArgs) -> Vec<String> {
    let mut argv: Vec<String> = args.name.iter().cloned().collect();
    if let Some(method) = &args.method {
        argv.extend(["--method".to_owned(), method.clone()]);
    }
    if let Some(json) = &args.args {
        argv.extend(["--args".to_owned(), json.clone()]);
    }
    if let Some(out) = &args.out {
        argv.extend(["--out".to_owned(), out.to_string_lossy().into_owned()]);
    }
    argv.extend(args.stray.iter().cloned());
    argv
}

/// `mur help [command…]` is `mur [command…] --help`, and `mur devtools help
/// [verb…]` is `mur devtools [verb…] --help`: `under` is the command typed
/// before `help`.
fn help(under: &[&str], words: &[String]) -> Result<()> {
    let argv = std::iter::once("mur")
        .chain(under.iter().copied())
        .map(String::from)
        .chain(words.iter().cloned())
        .chain(["--help".to_owned()]);
    run(argv.map(OsString::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The command a refused line is recorded under, with its argv: only where the
    /// words up to its name are taken as typed, so a refusal among them (a host option
    /// misspelt or given no number, typed twice, or one the command does not read) is
    /// none of the command's, as before a verb's name; after the name, it is its argv.
    #[test]
    fn a_refusal_is_the_command_s_only_after_its_name() {
        let of = |words: &[&str]| {
            let line: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
            refused_command(&line).map(|(name, kind, argv)| (name, kind.as_str(), argv.to_vec()))
        };
        let recorded = |name: &str, kind: &'static str, argv: &[&str]| {
            let argv = argv.iter().map(|w| (*w).to_owned()).collect();
            Some((name.to_owned(), kind, argv))
        };
        assert_eq!(
            of(&["parity", "--bogus"]),
            recorded("parity", "host", &["--bogus"])
        );
        assert_eq!(
            of(&["--pretty", "session", "list", "--bogus"]),
            recorded("session list", "host", &["--bogus"])
        );
        assert_eq!(
            of(&["call", "--bogus"]),
            recorded("call", "call", &["--bogus"])
        );
        assert_eq!(
            of(&["guide", "--timeout", "abc"]),
            recorded("guide", "host", &["--timeout", "abc"])
        );
        // A value that is a command's name is no command.
        assert_eq!(
            of(&["--project", "catalog", "parity", "--bogus"]),
            recorded("parity", "host", &["--bogus"])
        );
        for before in [
            &["--bogus", "catalog"][..],
            &["--timeout", "abc", "parity"],
            &["--timeout", "5", "--timeout", "6", "parity"],
            &["--project", "x", "guide"],
            &["--timeout", "abc", "call", "tree"],
            &["session", "--bogus", "list"],
            &["--timeout", "abc", "tree"],
            &["verbs", "list", "--bogus"],
        ] {
            assert_eq!(of(before), None, "{before:?}");
        }
    }

    /// The line an error among several sessions names again: the words after `devtools`,
    /// host options typed before it moved after it; none for `proxy`, or without `devtools`.
    #[test]
    fn the_command_line_named_again_is_read_from_argv() {
        let line = |words: &[&str]| {
            let argv: Vec<OsString> = words.iter().map(OsString::from).collect();
            command_line(&argv)
        };
        assert_eq!(
            line(&[
                "mur",
                "--pretty",
                "devtools",
                "state",
                "--selector",
                "#count"
            ]),
            ["--pretty", "state", "--selector", "#count"]
        );
        assert_eq!(
            line(&["mur", "devtools", "--timeout", "5", "proxy"]),
            Vec::<String>::new()
        );
        assert_eq!(line(&["mur", "completions", "bash"]), Vec::<String>::new());
    }
}
