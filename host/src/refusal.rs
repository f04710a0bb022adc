//! Turning what clap or the host's pre-check refuses into mur's one-line errors and
//! hints: argv parsed ([`parse`]), and each refusal said in mur's words, with the usage,
//! the option or command meant, or the `call` that reaches a tool. A refusal said alike
//! after a verb's name, where the host takes its options out of the verb's words, keeps
//! its one wording in [`crate::options`] (`value_required`, `takes_no_value`), which this
//! module calls.

use std::ffi::OsString;
use std::time::Duration;

use clap::FromArgMatches as _;

use crate::call_line::{Arguments, call_line};
use crate::cli::{self, Cli};
use crate::commands::unknown_verb::Installed;
use crate::options::{is_short_flags, short_flags_given, takes_no_value};
use mur_core::{Error, Result};

/// Parses argv; clap errors keep clap's rendering but use mur's exit codes.
/// Help is rendered with the installed plugin verbs listed.
pub fn parse(argv: Vec<OsString>) -> Result<Cli> {
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
            if let Some(refused) = flag_given_a_value(&e, &argv) {
                return Err(refused);
            }
            if let Some((option, typed_empty)) = given_empty(&e, &argv) {
                let values = valid_values(&e);
                let usage = usage_typed(&argv);
                return Err(match typed_empty {
                    true => crate::options::value_given_empty(&option, &values, usage),
                    false => crate::options::value_required_of(&option, &values, usage),
                });
            }
            let e = named_as_typed(e, &argv);
            let unexpected = unexpected_to_clap(&e);
            let tool = tool_under_a_commands_name(&argv, &e);
            let usage = usage_to_give(&argv, &e);
            let meant = synonym_meant(&argv, &e);
            let data = data_verb_meant(&argv, &e);
            let error = with_meant(with_usage(without_devtools(&argv, e), usage), meant);
            let error = match &unexpected {
                Some(unexpected) => said_as_a_verb_says(error, unexpected, &argv),
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
/// by [`option_meant`]):
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
        || option_meant(argv, option).is_some()
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
    let tools = crate::session_tools::quietly(&crate::options::settings(host), TOOL_LOOKUP_WAIT);
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

/// The usage hint to give with clap's refusal `e` of `argv` where clap's own misleads:
/// the usage of the command typed. An option clap found one like had clap's usage with
/// that one in it (`mur devtools --project <PATH> <COMMAND>` for `--projct`), which read
/// as if it were required. (An option without its value, which clap gives no usage,
/// is said by [`given_empty`]'s caller with the command's.)
fn usage_to_give(argv: &[OsString], e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ErrorKind};
    let suggested =
        e.kind() == ErrorKind::UnknownArgument && e.get(ContextKind::SuggestedArg).is_some();
    if suggested { usage_typed(argv) } else { None }
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

/// The option clap refused `argv` for as given no value, said in mur's one wording of
/// a missing value ([`crate::options::value_required`]), which a verb's own options are
/// said in too: clap said "a value is required for `--project <PATH>` but none was
/// supplied" of one typed last (`mur devtools --project`), a verb "`--selector <S>`
/// needs a value". So is an option a value parser of mur's refused an empty value of
/// (`--answer=`, `--timeout=`): clap said it as `invalid value '' for …: `` is not
/// KEY=VALUE`, its quotes left on nothing, where an empty path (`--project=`) was "a
/// value is required". So is `--` typed after an option that takes any word
/// (`--max-response --`): clap gives it as the value, where after a verb's name it ends
/// the options, the value missing (`argv` tells it from `--max-response=--`, a value
/// either way). With it, whether the value was typed empty (`--timeout ''`,
/// `--only-verbs=`): said so ([`crate::options::value_given_empty`]), where a script that
/// passed `"$UNSET"` was told the value was missing, a word it had passed.
fn given_empty(e: &clap::Error, argv: &[OsString]) -> Option<(String, bool)> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::ValueValidation && e.kind() != ErrorKind::InvalidValue {
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
    if !value.is_empty() && !ended() {
        return None;
    }
    Some((option.clone(), value.is_empty() && typed_empty(long, argv)))
}

/// Whether `argv` gives option `long` (`--timeout`), or its short name, an empty value:
/// `--timeout=`, or `--timeout` followed by an empty word. clap says a value typed last
/// without one (`mur devtools --timeout`) as it says an empty one.
fn typed_empty(long: &str, argv: &[OsString]) -> bool {
    let short = cli::HostOption::named(long)
        .and_then(|option| option.short)
        .map(|short| format!("-{short}"));
    let named = |word: &OsString| word == long || short.as_deref().is_some_and(|s| word == s);
    let inline = |word: &OsString| {
        word.to_str()
            .and_then(|word| word.strip_suffix('='))
            .is_some_and(|flag| flag == long || short.as_deref() == Some(flag))
    };
    argv.iter().any(inline) || argv.windows(2).any(|w| named(&w[0]) && w[1].is_empty())
}

/// The values clap names for the option it refused (`--lang`'s `rust`, `python`, `js`).
fn valid_values(e: &clap::Error) -> Vec<String> {
    use clap::error::{ContextKind, ContextValue};
    match e.get(ContextKind::ValidValue) {
        Some(ContextValue::Strings(values)) => values.clone(),
        _ => Vec::new(),
    }
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
    let typed = unknown_to_clap(&e).unwrap_or_default();
    unknown_option(&typed, None).with_hint(
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
/// '#x'`), gets the command as it goes when it is a verb or command of `devtools` (or
/// near one), and none when it is not: `mur devtools nope` would only be refused in turn.
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
    let installed = mur_verbs::VerbHost::installed();
    let Some(meant) = devtools_word(&word, &installed) else {
        return e.into();
    };
    // `mur help click` is `mur click --help` ([`crate::commands`]): help was asked for,
    // and `mur devtools click` alone would click.
    let help = if asks_help(argv) { " --help" } else { "" };
    let asked = format!(
        "did you mean `mur devtools {}{help}`?",
        mur_core::shell_word(&meant)
    );
    let asked = crate::commands::unknown_verb::if_broken(asked, &meant, &installed.1);
    Error::from(e).with_first_hint(asked)
}

/// The word of `devtools` that `word` is, or is likely meant as ([`mur_core::caseless_meant`]):
/// of mur's commands and the verbs `installed` (their index entry broken or not), which
/// are known without a session. A tool's verb is not: its session is not asked for a
/// word clap refused.
fn devtools_word(word: &str, installed: &Installed) -> Option<String> {
    let installed = crate::commands::unknown_verb::installed_names(installed);
    mur_core::caseless_meant(word, cli::host_verbs().into_iter().chain(installed))
}

/// Whether `argv` asks for help (`--help` or `-h` before any `--`).
fn asks_help(argv: &[OsString]) -> bool {
    argv.iter()
        .skip(1)
        .take_while(|word| *word != "--")
        .any(|word| word == "--help" || word == "-h")
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

/// A flag typed with a value before a verb's name or among the words of mur's own
/// commands (`--pretty=false`, `catalog --json=1`, `-v=false`), which clap refused,
/// refused in the words said of it after a verb's name ([`takes_no_value`]): clap said
/// "unexpected value `1` for `--json` found; no more were expected" (its usage naming
/// `--json` as if required), and of a short flag "unexpected argument `-=` found".
pub fn flag_given_a_value(e: &clap::Error, argv: &[OsString]) -> Option<Error> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    match (e.kind(), e.get(ContextKind::InvalidValue)) {
        // A flag is named bare, an option with its value's name (`--out <PATH>`).
        (ErrorKind::TooManyValues, Some(ContextValue::String(value))) if !arg.contains(' ') => {
            Some(takes_no_value(arg, value))
        }
        (ErrorKind::UnknownArgument, _) if arg == "-=" => short_flag_given_a_value(argv),
        _ => None,
    }
}

/// The first of `argv`'s words that is the host's short flags typed with a value
/// ([`short_flags_given`]).
fn short_flag_given_a_value(argv: &[OsString]) -> Option<Error> {
    argv.iter()
        .skip(1)
        .map(|word| word.to_string_lossy())
        .take_while(|word| word != "--")
        .find_map(|word| short_flags_given(&word))
}

/// Option `typed`, which the command it was typed to does not take, refused in a
/// verb's words: `unknown option `--jsn``, with the option `meant` where one is near
/// ([`option_meant`]).
pub fn unknown_option(typed: &str, meant: Option<&str>) -> Error {
    let told = format!("unknown option `{typed}`");
    Error::usage(match meant {
        Some(meant) => format!("{told}; did you mean `{meant}`?"),
        None => told,
    })
}

/// Of the options of the command `argv` reaches ([`crate::command_tree::reached`]), the
/// one long option `typed` (`--jsn`) was likely meant as (`--json`), by the rule a
/// verb's refusal goes by ([`mur_core::nearest`]).
pub fn option_meant(argv: &[OsString], typed: &str) -> Option<String> {
    let name = typed.strip_prefix("--")?;
    mur_core::nearest(name, longs_reached(argv)?).map(|long| format!("--{long}"))
}

/// The long options the command `argv` reaches takes ([`crate::command_tree::reached`]),
/// but those its help hides.
fn longs_reached(argv: &[OsString]) -> Option<Vec<String>> {
    let command = crate::command_tree::reached(argv)?;
    let longs = command
        .get_arguments()
        .filter(|arg| !arg.is_hide_set())
        .filter_map(clap::Arg::get_long);
    Some(longs.map(str::to_owned).collect())
}

/// Of the options of the command `argv` reaches, the one plain `word` (`json`) was likely
/// meant as (`--json`): the one it names, or is one slip from ([`mur_core::is_typo_of`]).
fn word_meant(argv: &[OsString], word: &str) -> Option<String> {
    let longs = longs_reached(argv)?;
    let named = longs.iter().find(|long| *long == word).cloned();
    let slipped =
        || mur_core::nearest(word, &longs).filter(|long| mur_core::is_typo_of(word, long));
    named
        .or_else(|| slipped().cloned())
        .map(|long| format!("--{long}"))
}

/// `word`, typed where it may be an argument of another's (a tool's, after `call
/// NAME`), refused as an unknown option of the command `argv` reaches where it is one
/// slip from one of its options ([`mur_core::is_typo_of`]): `call version --prety` was
/// taken for the tool's argument `prety`, where `catalog --prety` is said to be `--pretty`
/// mistyped.
pub fn slipped_option(argv: &[OsString], word: &str) -> Option<Error> {
    let typed = word.split_once('=').map_or(word, |(typed, _)| typed);
    let meant = option_meant(argv, typed).filter(|meant| mur_core::is_typo_of(typed, meant))?;
    Some(unknown_option(typed, Some(&meant)))
}

/// An argument clap refused as one its command does not take, which mur says in a verb's
/// words ([`said_as_a_verb_says`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unexpected {
    /// Typed as an option (`--jsn`, `-x`).
    Option(String),
    /// A plain word (`catalog json`), or `-` alone.
    Word(String),
}

/// What clap refused `argv` for, where it was an argument its command does not take.
pub fn unexpected_to_clap(e: &clap::Error) -> Option<Unexpected> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) if e.kind() == ErrorKind::UnknownArgument => {
            Some(if arg.starts_with('-') && arg != "-" {
                Unexpected::Option(arg.clone())
            } else {
                Unexpected::Word(arg.clone())
            })
        }
        _ => None,
    }
}

/// The option clap refused `argv` for as one its command does not take (`--jsn`, `-x`)
/// ([`Unexpected::Option`]).
pub fn unknown_to_clap(e: &clap::Error) -> Option<String> {
    match unexpected_to_clap(e)? {
        Unexpected::Option(typed) => Some(typed),
        Unexpected::Word(_) => None,
    }
}

/// `refused`, clap's refusal of `argv` for `unexpected` ([`unexpected_to_clap`]), said
/// in a verb's words: an option as [`option_said_as_a_verb_says`], a word as
/// [`word_said_as_a_verb_says`].
pub fn said_as_a_verb_says(refused: Error, unexpected: &Unexpected, argv: &[OsString]) -> Error {
    match unexpected {
        Unexpected::Option(typed) => option_said_as_a_verb_says(refused, typed, argv),
        Unexpected::Word(word) => word_said_as_a_verb_says(refused, word, argv),
    }
}

/// `refused`, clap's refusal of `argv` for option `typed` ([`Unexpected::Option`]) in
/// mur's shape, said in a verb's words ([`unknown_option`]): "unexpected argument
/// `--jsn` found", a did-you-mean of clap's rule and the usage under it became the one
/// line a verb says (its usage left out, as a verb leaves it out when it names the
/// fix). Where no option is near, its other hints stay: the usage, clap's tip to
/// pass a dashed word as a value (`-- --x`). A letter typed after the host's short
/// flags is named with its word (`-x` in `-vx`), as a verb's kit names it: clap named
/// the letter alone, as if typed apart.
fn option_said_as_a_verb_says(refused: Error, typed: &str, argv: &[OsString]) -> Error {
    let meant = option_meant(argv, typed);
    if meant.is_some() {
        return unknown_option(typed, meant.as_deref());
    }
    let told = match after_short_flags(argv, typed) {
        Some(told) => Error::usage(told),
        None => unknown_option(typed, None),
    };
    with_clap_s_hints(told, &refused)
}

/// `told`, with `refused`'s hints but its did-you-mean (clap's rule, not the verbs').
fn with_clap_s_hints(told: Error, refused: &Error) -> Error {
    refused
        .hints()
        .iter()
        .filter(|hint| !hint.starts_with("did you mean "))
        .cloned()
        .fold(told, Error::with_hint)
}

/// Short option `typed` (`-x`) refused as a verb's kit refuses it where it follows the
/// host's short flags in the first of `argv`'s words (before `--`) that has it there:
/// `-x` in `-vx`, `-qvx=1`; a number named whole (`-15` in `-v15`: clap named `-1`);
/// after a dash, the word (`-v-`: clap named `--`).
fn after_short_flags(argv: &[OsString], typed: &str) -> Option<String> {
    let letter = typed.strip_prefix('-').filter(|l| l.chars().count() == 1)?;
    let flag = |c: char| is_short_flags(&format!("-{c}"));
    argv.iter()
        .skip(1)
        .map(|word| word.to_string_lossy())
        .take_while(|word| word != "--")
        .find_map(|word| {
            let letters = word.strip_prefix('-')?;
            let rest = letters.trim_start_matches(flag);
            if rest.len() == letters.len() || !rest.starts_with(letter) {
                return None;
            }
            Some(match rest.chars().next() {
                Some('-') => format!("unknown option `{word}`"),
                Some('0'..='9') => format!("unknown option `-{rest}` in `{word}`"),
                _ => format!("unknown option `{typed}` in `{word}`"),
            })
        })
}

/// `refused`, clap's refusal of `argv` for the stray `word` ([`Unexpected::Word`]), in a
/// verb's words: "unexpected argument `json`" (clap's "… found"), with the option it
/// names or is one slip from ([`word_meant`]) as the one line a verb says
/// (`catalog json`: "did you mean `--json`?"), else with clap's hints (the usage).
fn word_said_as_a_verb_says(refused: Error, word: &str, argv: &[OsString]) -> Error {
    let told = format!("unexpected argument `{word}`");
    match word_meant(argv, word) {
        Some(meant) => Error::usage(format!("{told}; did you mean `{meant}`?")),
        None => with_clap_s_hints(Error::usage(told), &refused),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word after `call NAME` is taken for an option of `call`'s mistyped only one slip
    /// from one: a tool's own argument near one (`--timeoutMs`, two from `--timeout`) is
    /// still the tool's, told how to pass it in `--args`.
    #[test]
    fn only_a_word_one_slip_from_an_option_of_call_is_that_option_mistyped() {
        let call = ["mur", "devtools", "call"].map(OsString::from);
        let slipped = |word: &str| slipped_option(&call, word).map(|e| e.message().to_owned());
        for (word, said) in [
            (
                "--prety",
                "unknown option `--prety`; did you mean `--pretty`?",
            ),
            (
                "--outt=x.png",
                "unknown option `--outt`; did you mean `--out`?",
            ),
            (
                "--metod",
                "unknown option `--metod`; did you mean `--method`?",
            ),
        ] {
            assert_eq!(slipped(word).as_deref(), Some(said), "{word}");
        }
        for word in [
            "--timeoutMs",
            "--selector",
            "--text",
            "#x",
            "--pretty",
            "--",
        ] {
            assert_eq!(slipped(word), None, "{word}");
        }
    }

    /// clap's refusal of `mur devtools LINE`, and its words.
    fn refused_by_clap(line: &str) -> (clap::Error, Vec<OsString>) {
        let argv: Vec<OsString> = ["mur", "devtools"]
            .into_iter()
            .chain(line.split_whitespace())
            .map(OsString::from)
            .collect();
        let refused = crate::cli::command()
            .try_get_matches_from(&argv)
            .map(drop)
            .expect_err(line);
        (refused, argv)
    }

    /// What clap refused as no argument of the command is said as a verb says it. A
    /// letter after the host's short flags that is no host option is named with the word
    /// it was typed in, as a verb's kit names it after the verb's name: clap named the
    /// letter alone (`-vx` was "unknown option `-x`"). A word mur's command takes none of
    /// is said with the option it names or is one slip from: clap said "unexpected
    /// argument `json` found".
    #[test]
    fn an_unexpected_option_or_word_is_said_as_a_verb_says_it() {
        for (line, said) in [
            ("-vx tree", "unknown option `-x` in `-vx`"),
            ("-qvx=1 tree", "unknown option `-x` in `-qvx=1`"),
            ("catalog -v15", "unknown option `-15` in `-v15`"),
            ("-v- tree", "unknown option `-v-`"),
            ("-xv tree", "unknown option `-x`"),
            (
                "catalog json",
                "unexpected argument `json`; did you mean `--json`?",
            ),
            (
                "catalog jsn",
                "unexpected argument `jsn`; did you mean `--json`?",
            ),
            (
                "session list json",
                "unexpected argument `json`; did you mean `--json`?",
            ),
            ("catalog everything", "unexpected argument `everything`"),
        ] {
            let (clap, argv) = refused_by_clap(line);
            let unexpected = unexpected_to_clap(&clap).expect(line);
            let refused = said_as_a_verb_says(Error::from(clap), &unexpected, &argv);
            assert_eq!(refused.message(), said, "{line}");
        }
    }
}
