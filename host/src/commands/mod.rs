//! From argv to a finished command: parse (a refusal said in mur's words, with the
//! usage or the `call` meant), pick the command, start its usage record, run it.

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
mod unknown_verb;
mod usage;
mod verb;
mod verbs;

use std::ffi::OsString;
use std::time::Duration;

use clap::FromArgMatches as _;

use crate::cli::{self, CallArgs, Cli, Command, Devtools, Lazy, SessionCommand, Verb};
use mur_core::{Error, Result};

use crate::call_line::{Arguments, call_line};
use crate::invoke;
use crate::options::started;

/// Runs `mur` with these arguments.
pub fn run(argv: Vec<OsString>) -> Result<()> {
    if let Some(answered) = completions::answer(&argv) {
        return answered;
    }
    // Read once, here: discovery names it again among several sessions.
    let line = command_line(&argv);
    let Cli { mut host, command } = parse(argv)?;
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
    match verb {
        Verb::Usage(cmd) => {
            started(&host);
            usage::run(&cmd, host.pretty, Duration::from_millis(host.timeout))
        }
        Verb::Guide { all } => {
            // Recorded as the others are: `-v` says why its record was not written.
            started(&host);
            guide::run(all)
        }
        Verb::Catalog { json } => {
            let settings = started(&host);
            on_runtime(|| catalog::catalog(&settings, json))
        }
        Verb::Parity { json } => {
            let settings = started(&host);
            on_runtime(|| parity::run(&settings, json))
        }
        Verb::Session(cmd) => {
            let settings = started(&host);
            on_runtime(|| session::run(&cmd, &settings))
        }
        Verb::Call(args) => {
            let settings = started(&host);
            on_runtime(|| call::run(&args, &settings))
        }
        Verb::Bridge(args) => bridge::run(&args, &started(&host)),
        Verb::Proxy(args) => proxy::run(&args, &started(&host), host.timeout_given),
        Verb::Verbs(cmd) => {
            started(&host);
            verbs::run(&cmd, &host)
        }
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

/// Parses argv; clap errors keep clap's rendering but use mur's exit codes.
/// Help is rendered with the installed plugin verbs listed.
fn parse(argv: Vec<OsString>) -> Result<Cli> {
    if let Some(cli) = cli::plain_verb_call(&argv) {
        return Ok(cli);
    }
    not_text(&argv)?;
    let mut tree = cli::command();
    match tree.try_get_matches_from_mut(argv.clone()) {
        Ok(matches) => {
            let mut cli = Cli::from_arg_matches(&matches)?;
            cli.host.note_typed(&matches);
            crate::options::check_typed(&mut cli.host, tree, &argv)?;
            // Refused as an unknown option is: a host option the command does not read.
            if let Some(unread) = cli.unread_option(&matches) {
                let usage = usage_typed(&argv);
                return Err(usage
                    .into_iter()
                    .fold(Error::usage(unread), Error::with_hint));
            }
            Ok(cli)
        }
        Err(e) if wants_help(&e) => Err(with_plugin_verbs()
            .try_get_matches_from(argv)
            .err()
            .unwrap_or(e)
            .into()),
        Err(e) if e.kind() == clap::error::ErrorKind::MissingSubcommand => {
            let tool = tool_under_a_groups_name(&argv, &e);
            Err(tool.into_iter().fold(no_command(e), Error::with_first_hint))
        }
        Err(e) if asks_version(&e) => Err(version_of_mur(e)),
        Err(e) => {
            if let Some(refused) = crate::options::flag_given_a_value(&e, &argv) {
                return Err(refused);
            }
            if let Some(option) = given_empty(&e, &argv) {
                return Err(crate::options::value_required(&option, usage_typed(&argv)));
            }
            let e = named_as_typed(e, &argv);
            let unexpected = crate::options::unexpected_to_clap(&e);
            let tool = tool_under_a_commands_name(&argv, &e);
            let usage = usage_to_give(&argv, &e);
            let meant = synonym_meant(&argv, &e);
            let data = data_verb_meant(&argv, &e);
            let error = with_meant(with_usage(without_devtools(&argv, e), usage), meant);
            let error = match &unexpected {
                Some(unexpected) => crate::options::said_as_a_verb_says(error, unexpected, &argv),
                None => error,
            };
            let error = data.into_iter().fold(error, Error::with_hint);
            Err(tool.into_iter().fold(error, Error::with_first_hint))
        }
    }
}

/// How long a host command's refusal waits to find the session whose tool it may have
/// been meant for: as long as `verbs info` does, which a loaded machine needs.
const TOOL_LOOKUP_WAIT: Duration = Duration::from_secs(3);

/// The hint for a host command whose arguments clap refused where they read as a
/// tool's (`mur devtools session --x 4`: an option the command has not, none like it
/// by [`crate::options::option_meant`]):
/// a tool whose verb name is a command of mur's is reached only with `call`, which
/// clap's error and the command's usage never said. The session the host options
/// choose is asked quietly, from its cached tool list: where it has such a tool, the
/// hint names it; where none answers, it says what to type if a tool was meant; where
/// one answers without such a tool, there is nothing to hint.
fn tool_under_a_commands_name(argv: &[OsString], e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let Some(ContextValue::String(option)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    if e.kind() != ErrorKind::UnknownArgument
        || !option.starts_with("--")
        || crate::options::option_meant(argv, option).is_some()
    {
        return None;
    }
    let (host, rest) = host_options_and_the_rest(argv)?;
    // The option right after the command: `session list --x` meant mur's `session list`.
    let ["devtools", command, next, ..] = rest.iter().map(String::as_str).collect::<Vec<_>>()[..]
    else {
        return None;
    };
    if !next.starts_with("--") {
        return None;
    }
    // `call` is how a tool is reached already: `call --foo` meant call's own options.
    if command == "call" {
        return None;
    }
    match sessions_tool_named(&host, command) {
        Some(hint) => hint,
        None => Some(format!(
            "if you meant a tool of the session named `{command}`, it is `{}`",
            call_of(&host, command)
        )),
    }
}

/// The hint for a group typed without its command (`mur devtools session`) where the
/// session the host options choose has a tool of the group's name: as for its refused
/// options ([`tool_under_a_commands_name`]), the tool is reached only with `call`. Where
/// no session answers, none: a group alone is most likely its command forgotten, which
/// the refusal names.
fn tool_under_a_groups_name(argv: &[OsString], e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    let Some(ContextValue::String(group)) = e.get(ContextKind::InvalidSubcommand) else {
        return None;
    };
    let command = group.strip_prefix("mur devtools ")?;
    let (host, _) = host_options_and_the_rest(argv)?;
    sessions_tool_named(&host, command).flatten()
}

/// The host options of argv (after `mur`), and the words left.
fn host_options_and_the_rest(argv: &[OsString]) -> Option<(cli::HostArgs, Vec<String>)> {
    let words: Vec<String> = argv
        .iter()
        .skip(1)
        .map(|word| word.to_string_lossy().into_owned())
        .collect();
    let mut host = cli::HostArgs::default();
    let rest = crate::options::extract_host_options(
        &words,
        &mut host,
        Some(&mur_verbs::VerbSpec::default()),
        None,
    )
    .ok()?;
    Some((host, rest))
}

/// Of mur's command `command`, the session's tool of that name, or one whose verb name
/// (kebab case) it is (`Session`), named in a hint with the `call` that reaches it. The
/// session the host options choose is asked quietly, from its cached tool list: `None`
/// where none answers, `Some(None)` where one answers without such a tool.
fn sessions_tool_named(host: &cli::HostArgs, command: &str) -> Option<Option<String>> {
    if !cli::host_verbs().iter().any(|verb| verb == command) {
        return Some(None);
    }
    let tools = crate::session_tools::quietly(host, TOOL_LOOKUP_WAIT);
    if tools.is_empty() {
        return None;
    }
    let tool = tools
        .iter()
        .filter_map(|t| t["name"].as_str())
        .find(|name| *name == command || mur_verbs::derived::kebab(name) == command);
    Some(tool.map(|tool| {
        format!(
            "`{command}` is mur's command; the session's tool `{tool}` is reached with `{}`",
            call_of(host, tool)
        )
    }))
}

/// `mur devtools … call TOOL --args '{…}'` ([`call_line`]), with the session chosen as
/// the line chose it, so that the command pasted reaches the same one.
fn call_of(host: &cli::HostArgs, tool: &str) -> String {
    let devtools = crate::options::settings(host).devtools_command();
    call_line(&devtools, tool, Arguments::Elided)
}

/// The usage hint to give with clap's refusal `e` of `argv` where clap's own is missing
/// or misleads: the usage of the command typed. An option without its value (`call state
/// --args`) has none, where every other refusal ends with one; an option clap found one
/// like had clap's usage with that one in it (`mur devtools --project <PATH> <COMMAND>`
/// for `--projct`), which read as if it were required.
fn usage_to_give(argv: &[OsString], e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let missing = e.kind() == ErrorKind::InvalidValue
        && matches!(e.get(ContextKind::InvalidValue),
            Some(ContextValue::String(value)) if value.is_empty());
    let suggested =
        e.kind() == ErrorKind::UnknownArgument && e.get(ContextKind::SuggestedArg).is_some();
    if missing || suggested {
        usage_typed(argv)
    } else {
        None
    }
}

/// `error` with `usage` in the place of its usage hint, or after its hints.
fn with_usage(error: Error, usage: Option<String>) -> Error {
    match usage {
        Some(usage) => in_place_of(error, "usage: ", usage, Error::with_hint),
        None => error,
    }
}

/// `error` with `hint` in the place of clap's hint that starts with `prefix`, or added
/// by `otherwise` where clap gave none.
fn in_place_of(
    error: Error,
    prefix: &str,
    hint: String,
    otherwise: fn(Error, String) -> Error,
) -> Error {
    match error.hints().iter().find(|h| h.starts_with(prefix)) {
        Some(clap_s) => {
            let clap_s = clap_s.clone();
            error.replacing_hint(&clap_s, hint)
        }
        None => otherwise(error, hint),
    }
}

/// clap's refusal of a host flag typed twice (`-vv`), naming it as typed again
/// ([`crate::options::again_by_short_name`]): clap names it by its long name
/// (`--verbose`), which the user may never have typed; after a verb's name it is named
/// as typed too.
fn named_as_typed(mut e: clap::Error, argv: &[OsString]) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let (Some(ContextValue::String(flag)), Some(ContextValue::String(prior))) =
        (e.get(ContextKind::InvalidArg), e.get(ContextKind::PriorArg))
    else {
        return e;
    };
    let again = cli::HostOption::named(flag)
        .filter(|option| flag == prior && crate::options::again_by_short_name(option, argv))
        .and_then(|option| option.short);
    if let (ErrorKind::ArgumentConflict, Some(short)) = (e.kind(), again) {
        for kind in [ContextKind::InvalidArg, ContextKind::PriorArg] {
            e.insert(kind, ContextValue::String(format!("-{short}")));
        }
    }
    e
}

/// The option a value parser of mur's refused an empty value of (`--answer=`,
/// `--timeout=`): clap said it as `invalid value '' for …: `` is not KEY=VALUE`, its
/// quotes left on nothing, where an empty path (`--project=`) is "a value is required":
/// now each is. So is `--` typed after an option that takes any word (`--max-response
/// --`): clap gives it as the value, where after a verb's name it ends the options, the
/// value missing (`argv` tells it from `--max-response=--`, a value either way).
fn given_empty(e: &clap::Error, argv: &[OsString]) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let (Some(ContextValue::String(option)), Some(ContextValue::String(value))) = (
        e.get(ContextKind::InvalidArg),
        e.get(ContextKind::InvalidValue),
    ) else {
        return None;
    };
    let long = option.split(' ').next().unwrap_or_default();
    let ended = || value == "--" && argv.windows(2).any(|w| w[0] == long && w[1] == "--");
    (value.is_empty() || ended()).then(|| option.clone())
}

/// The usage hint of the command `argv` reaches (`usage: mur devtools call [OPTIONS]
/// [NAME] (`--help` shows more)`), as clap renders it with nothing typed.
fn usage_typed(argv: &[OsString]) -> Option<String> {
    crate::command_tree::reached(argv).map(|mut command| cli::usage_hint(&mut command))
}

/// Words other tools use for a command of mur's group (`verbs install`, as npm and cargo
/// say it), each with the command meant: clap's nearest spelling was another command
/// (`install` → `list`, `ls` → `new`), which did something else when typed.
const SYNONYMS: &[(&str, &str, &str)] = &[
    ("verbs", "install", "add"),
    ("verbs", "uninstall", "remove"),
    ("verbs", "rm", "remove"),
    ("verbs", "delete", "remove"),
    ("verbs", "ls", "list"),
    ("verbs", "show", "info"),
    ("verbs", "create", "new"),
    ("verbs", "init", "new"),
    ("session", "ls", "list"),
    ("session", "prune", "clean"),
];

/// The command of [`SYNONYMS`] meant by the unknown subcommand clap refused, typed
/// after its group's name.
fn synonym_meant(argv: &[OsString], e: &clap::Error) -> Option<&'static str> {
    use clap::error::{ContextKind, ContextValue};
    let Some(ContextValue::String(word)) = e.get(ContextKind::InvalidSubcommand) else {
        return None;
    };
    let words: Vec<&str> = argv.iter().filter_map(|w| w.to_str()).collect();
    let at = words.iter().position(|w| w == word)?;
    let group = words[..at].iter().rev().find(|w| !w.starts_with('-'))?;
    SYNONYMS
        .iter()
        .find(|(g, synonym, _)| g == group && synonym == word)
        .map(|(_, _, meant)| *meant)
}

/// The hint for `verbs new NAME --lang data` (or `json`): a data verb is no project
/// `verbs new` makes, and clap's refusal named only the languages it makes one in. It
/// says what the file holds, under the name typed (`NAME` where none usable was), and
/// how it is added: an installed mur has no docs/examples/count.json to point to.
fn data_verb_meant(argv: &[OsString], e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let (Some(ContextValue::String(option)), Some(ContextValue::String(value))) = (
        e.get(ContextKind::InvalidArg),
        e.get(ContextKind::InvalidValue),
    ) else {
        return None;
    };
    let data = ["data", "json"].contains(&value.to_ascii_lowercase().as_str());
    if e.kind() != ErrorKind::InvalidValue || !option.starts_with("--lang ") || !data {
        return None;
    }
    let words: Vec<String> = argv
        .iter()
        .map(|word| word.to_string_lossy().into_owned())
        .collect();
    // The first word after `new` that is neither an option nor the value of one.
    let typed = words.iter().position(|w| w == "new").and_then(|at| {
        let mut rest = words[at + 1..].iter();
        while let Some(word) = rest.next() {
            match word.as_str() {
                "--dir" | "--lang" => {
                    rest.next();
                }
                _ if word.starts_with('-') => {}
                _ => return Some(word.clone()),
            }
        }
        None
    });
    let name = typed
        .filter(|name| mur_verbs::valid_verb_name(name))
        .unwrap_or_else(|| "NAME".to_owned());
    Some(format!(
        "a data verb is one JSON file, not a project: write `{name}.json` holding \
         `{{\"schema\": \"mur-verb/1\", \"name\": \"{name}\", \"tool\": \"TOOL\", \"summary\": \"…\"}}` \
         (`arguments`, `options`, `output`, `details` and `examples` optional), then \
         `mur devtools verbs add {name}.json`"
    ))
}

/// `error` with its did-you-mean naming `meant`, when there is one.
fn with_meant(error: Error, meant: Option<&str>) -> Error {
    match meant {
        Some(meant) => in_place_of(
            error,
            "did you mean ",
            format!("did you mean `{meant}`?"),
            Error::with_first_hint,
        ),
        None => error,
    }
}

/// `-V` or `--version` typed after a command: only `mur -V` takes it.
fn asks_version(e: &clap::Error) -> bool {
    use clap::error::{ContextKind, ContextValue};
    e.kind() == clap::error::ErrorKind::UnknownArgument
        && matches!(e.get(ContextKind::InvalidArg),
            Some(ContextValue::String(arg)) if arg == "-V" || arg == "--version")
}

/// [`asks_version`]'s error, in a verb's words for an option it does not take, saying
/// where each version is: clap offered `--verbose` for `--version`, and `mur devtools
/// version` is the app's, not mur's.
fn version_of_mur(e: clap::Error) -> Error {
    let typed = crate::options::unknown_to_clap(&e).unwrap_or_default();
    crate::options::unknown_option(&typed, None).with_hint(
        "`mur --version` prints mur's version; `mur devtools version`, the running app's \
         devtools server's",
    )
}

/// A group typed without its command (`mur`, `mur devtools session`, `verbs --pretty`): one line
/// naming the group's commands, then clap's usage hint. clap said "'mur devtools session'
/// requires a subcommand but one was not provided, [subcommands: list, clean]".
fn no_command(e: clap::Error) -> Error {
    use clap::error::{ContextKind, ContextValue};
    let group = match e.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(group)) => group.clone(),
        _ => return e.into(),
    };
    let commands = match e.get(ContextKind::ValidSubcommand) {
        Some(ContextValue::Strings(names)) => names.clone(),
        _ => Vec::new(),
    };
    let clap_said = Error::from(e);
    // `mur devtools` takes a verb too, and its verbs are no subcommands of clap's; `mur`
    // alone is most likely someone looking for them.
    let catalog = Some("`mur devtools catalog` lists every verb");
    let (needs, also) = match group.as_str() {
        "mur devtools" => ("a verb or a command", catalog),
        "mur" => ("a command", catalog),
        _ => ("a command", None),
    };
    let message = match commands.split_last() {
        Some((last, [])) => format!("`{group}` needs {needs}: {last}"),
        Some((last, rest)) => format!("`{group}` needs {needs}: {} or {last}", rest.join(", ")),
        None => format!("`{group}` needs {needs}"),
    };
    let error = also
        .into_iter()
        .fold(Error::usage(message), Error::with_hint);
    clap_said
        .hints()
        .iter()
        .fold(error, |error, hint| error.with_hint(hint))
}

/// The first argument that is no UTF-8 text, named as a shell reads it back (`$'\xc3('`):
/// clap said only "invalid UTF-8 was detected in one or more arguments", which left the
/// word to be found by hand in a long command line.
fn not_text(argv: &[OsString]) -> Result<()> {
    match argv.iter().skip(1).find(|word| word.to_str().is_none()) {
        Some(word) => Err(Error::usage(format!(
            "`{}` is not UTF-8 text: mur takes its arguments as text",
            mur_core::shell_name(word)
        ))),
        None => Ok(()),
    }
}

/// clap's error as mur's; a word clap knows nothing like, typed first (`mur click
/// '#x'`), gets the command as it goes: verbs and mur's commands are words of `devtools`.
fn without_devtools(argv: &[OsString], e: clap::Error) -> Error {
    use clap::error::{ContextKind, ContextValue};
    let word = match e.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(word)) if e.get(ContextKind::SuggestedSubcommand).is_none() => {
            word.clone()
        }
        _ => return e.into(),
    };
    let first = argv
        .iter()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with('-'));
    if first.is_none_or(|first| *first != *word) {
        return e.into();
    }
    Error::from(e).with_first_hint(format!(
        "did you mean `mur devtools {}`?",
        mur_core::shell_word(&word)
    ))
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
    cli::command_listing(&mur_verbs::VerbHost::listing())
}

#[cfg(test)]
mod tests {
    use super::*;

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
