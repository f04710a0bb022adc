//! Host options turned into validated [`Settings`] once, and host options
//! pulled out of a plugin verb's argv, so the rest of `mur` never sees raw flags.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use mur_core::settings::{PortRange, Settings, Source};
use mur_core::{Error, Result};

use mur_verbs::{Param, ValueKind, VerbSpec};

use crate::cli::{HOST_OPTIONS, HostArgs, HostOption};

/// [`settings`], with `-v` diagnostics turned on first when asked for: what
/// every command starts from, made once for it: by the dispatch (`commands::run`), or
/// for a plugin verb once the host options typed after its name are taken out
/// (`commands::verb`). Its `timeout` bounds the whole command: what reads a value from
/// a pipe is given it too.
pub fn started(args: &HostArgs) -> Settings {
    let settings = settings(args);
    if settings.verbose {
        crate::output::start_verbose_log(!crate::cli::color_disabled());
    }
    settings
}

/// The validated settings of these host options.
pub fn settings(args: &HostArgs) -> Settings {
    let source = if let Some(url) = &args.endpoint {
        Source::Endpoint(url.clone())
    } else if let Some(range) = args.auto_range {
        Source::Auto(range)
    } else if args.auto_full {
        Source::Auto(PortRange::FULL)
    } else if args.auto {
        Source::Auto(PortRange::ephemeral())
    } else {
        Source::Lockfiles
    };
    Settings {
        source,
        project: args.project.clone(),
        timeout: Duration::from_millis(args.timeout),
        timeout_given: args.timeout_given,
        max_response: args.max_response.0,
        pretty: args.pretty,
        verbose: args.verbose,
        quiet: args.quiet,
        answers: args.answer.clone(),
        protocol: args.protocol.clone(),
        refresh: args.refresh,
        command_line: args.command_line.clone(),
    }
}

/// Whether `word`, after host option `option`, is its value rather than another option:
/// as clap takes it before the verb.
fn takes(option: &HostOption, word: &str) -> bool {
    !word.starts_with('-') || word == "-" || option.any_value
}

/// The host's flags with a short name (`-v`, `-q`), alone or several in one word
/// (`-vq`), as clap takes them before the verb. One typed twice (`-vv`) is among them, to
/// be refused as clap refuses it ([`set_once`]): left to the verb, it was told to write
/// `-v -v`, which the host then refused.
fn short_flags(word: &str) -> Option<Vec<&'static HostOption>> {
    let shorts = word.strip_prefix('-').filter(|s| !s.is_empty())?;
    shorts
        .chars()
        .map(|c| {
            HOST_OPTIONS
                .iter()
                .find(|o| o.short == Some(c) && o.value.is_none())
        })
        .collect()
}

/// Whether host flag `option`, named twice among `words` (a command line, the program's
/// name first), was typed by its short name the second time (`-vv`, `-v call version
/// -qv`, not `-v call version --verbose`), the time it is refused: clap names it by its
/// long name (`--verbose`) however it was typed.
pub fn again_by_short_name(option: &HostOption, words: &[OsString]) -> bool {
    let (Some(short), None) = (option.short, option.value) else {
        return false;
    };
    let long = format!("--{}", option.long);
    // Each time it is named, whether by its short name.
    let mut named = words
        .iter()
        .skip(1)
        .map(|word| word.to_string_lossy())
        .take_while(|word| word != "--")
        .flat_map(|word| match short_flags(&word) {
            Some(flags) => flags
                .iter()
                .filter(|flag| flag.short == Some(short))
                .map(|_| true)
                .collect(),
            None if *word == long => vec![false],
            None => Vec::new(),
        });
    named.nth(1) == Some(true)
}

/// Whether `word` is the host's short flags (`-v`, `-vq`), as clap takes them.
pub fn is_short_flags(word: &str) -> bool {
    short_flags(word).is_some()
}

/// Sets host option `option` on `host`, given `text` (nothing for a flag), with the
/// value parser clap uses for it before the verb. The one place outside `HostArgs` that
/// names its fields; `tests::every_host_option_is_taken_after_a_verb_as_before_it`
/// holds it to clap's parse.
fn set(host: &mut HostArgs, option: &HostOption, text: &str) -> std::result::Result<(), String> {
    let text = text.to_owned();
    match option.long {
        "endpoint" => host.endpoint = Some(crate::cli::endpoint(&text)?),
        "project" => host.project = Some(PathBuf::from(text)),
        "auto" => host.auto = true,
        "auto-full" => host.auto_full = true,
        "auto-range" => host.auto_range = Some(text.parse()?),
        "timeout" => {
            host.timeout = mur_core::settings::timeout_ms(&text)?;
            host.timeout_given = true;
        }
        "max-response" => {
            host.max_response = text.parse()?;
            host.max_response_given = true;
        }
        "pretty" => host.pretty = true,
        "verbose" => host.verbose = true,
        "quiet" => host.quiet = true,
        "answer" => add_answer(&mut host.answer, crate::cli::answer(&text)?)?,
        "protocol" => host.protocol = Some(crate::cli::revision(&text)?),
        "refresh" => host.refresh = true,
        long => return Err(format!("host option `--{long}` is not known here")),
    }
    Ok(())
}

/// `answer` (`--answer KEY=VALUE`) added to `answers`, unless its field has another
/// answer already: `--answer confirm=false clear-todos --answer confirm=true` cleared the
/// todos, the last answer taken and the first dropped unsaid. The same answer again is
/// taken (as one): it contradicts nothing, and a script that adds its own
/// `--answer confirm=true` to a line that has it means what it says.
fn add_answer(
    answers: &mut Vec<(String, String)>,
    (key, value): (String, String),
) -> std::result::Result<(), String> {
    match answers.iter().find(|(given, _)| *given == key) {
        Some((_, first)) if *first == value => Ok(()),
        Some((_, first)) => Err(format!(
            "`{key}` is answered already (`--answer {key}={first}`); give each field one answer"
        )),
        None => {
            answers.push((key, value));
            Ok(())
        }
    }
}

/// What clap's parse of `argv` cannot check of the host options typed before a verb or
/// among the words of mur's own commands, checked by the rule that takes them after a
/// verb's name ([`set_once`]), in its words. A host option is global: every level of a
/// command (`mur`, `devtools`, `call`; `session`, `list`) takes it, and clap refuses one
/// typed twice at one level only. Typed at two, clap took the lower level's and dropped
/// the other unsaid: `--project a call version --project b` called `b`'s session where
/// `--project a tree --project b` is refused, and `--answer k=1 call T --answer j=2` sent
/// `j=2` alone. So where some host option is named twice ([`named_twice`]), `argv` is
/// parsed again by `tree`, the tree clap parsed it with, each level keeping its own
/// ([`each_level_its_own`]), and the levels' host options are set in the order typed:
/// each option once, each `--answer` field once ([`add_answer`]; the same answer twice is
/// one). `host` keeps clap's values, which are those for an option typed once, and gets
/// every level's answers.
pub fn check_typed(host: &mut HostArgs, tree: clap::Command, argv: &[OsString]) -> Result<()> {
    if !named_twice(argv) {
        return Ok(());
    }
    let mut tree = each_level_its_own(tree);
    let matches = tree.try_get_matches_from_mut(argv)?;
    let mut typed = HostArgs::unset();
    let mut level = Some(&matches);
    while let Some(matches) = level {
        let mut here: Vec<(usize, &HostOption)> = HOST_OPTIONS
            .iter()
            .filter(|option| {
                let id = option.id();
                matches.ids().any(|present| present == id.as_str())
                    && matches.value_source(&id) == Some(clap::parser::ValueSource::CommandLine)
            })
            .map(|option| (matches.index_of(&option.id()).unwrap_or_default(), option))
            .collect();
        // In the order typed: the first option typed again is the one refused.
        here.sort_by_key(|(at, _)| *at);
        for (_, option) in here {
            if option.value.is_none() {
                set_once(&mut typed, option, "", again_by_short_name(option, argv))?;
                continue;
            }
            for text in matches.get_raw(&option.id()).into_iter().flatten() {
                set_once(&mut typed, option, &text.to_string_lossy(), false)?;
            }
        }
        level = matches.subcommand().map(|(_, matches)| matches);
    }
    host.answer = typed.answer;
    Ok(())
}

/// `tree` with each command's host options its own, not global: clap then keeps at each
/// level the ones typed there, where it sets a global one at every level to the lowest
/// level's. Built (parsed once), each level of the path taken has a copy of them, which
/// this turns local in place (`mut_args` keeps the arguments' order, which the built
/// lookups go by); nothing else changes.
fn each_level_its_own(tree: clap::Command) -> clap::Command {
    tree.mut_args(|arg| {
        let host = HOST_OPTIONS
            .iter()
            .any(|option| *arg.get_id() == option.id().as_str());
        if host { arg.global(false) } else { arg }
    })
    .mut_subcommands(each_level_its_own)
}

/// Whether some host option is named in two of `argv`'s words (`--project`, `--project=…`,
/// `-v` alone or among short flags: `-vq`), each word read as a verb's words are
/// ([`short_flags`], [`HostOption::named`]): what one typed at two levels of the command
/// takes, so that a command line that names each once, as nearly every one does, is
/// parsed once ([`check_typed`]). A word that names one and is none (a value, a word after
/// `--`) costs a second parse, which finds it is none.
fn named_twice(argv: &[OsString]) -> bool {
    let mut named: Vec<&HostOption> = Vec::new();
    for word in argv.iter().skip(1) {
        let word = word.to_string_lossy();
        let long = word.split_once('=').map_or(&*word, |(long, _)| long);
        let options =
            short_flags(&word).unwrap_or_else(|| HostOption::named(long).into_iter().collect());
        for option in options {
            if named.contains(&option) {
                return true;
            }
            named.push(option);
        }
    }
    false
}

/// Whether host option `option` is set on `host` already: typed before the verb's name,
/// or earlier after it, whatever its value (`--timeout` and `--max-response` typed as
/// their defaults too: `HostArgs` records that they were typed).
fn given(host: &HostArgs, option: &HostOption) -> bool {
    match option.long {
        "endpoint" => host.endpoint.is_some(),
        "project" => host.project.is_some(),
        "auto" => host.auto,
        "auto-full" => host.auto_full,
        "auto-range" => host.auto_range.is_some(),
        "timeout" => host.timeout_given,
        "max-response" => host.max_response_given,
        "pretty" => host.pretty,
        "verbose" => host.verbose,
        "quiet" => host.quiet,
        "protocol" => host.protocol.is_some(),
        "refresh" => host.refresh,
        _ => false,
    }
}

/// [`set`], refusing a host option given already that clap takes once, in clap's words
/// before the verb: `--project a tree --project b` was the session of `b`, `a` dropped,
/// where `--project a --project b tree` is refused. `short`: whether it was typed by its
/// short name, which the refusal names then: `-vv` is refused as `-v`, not as the
/// `--verbose` never typed.
fn set_once(host: &mut HostArgs, option: &HostOption, text: &str, short: bool) -> Result<()> {
    if !option.repeatable && given(host, option) {
        let name = match option.short {
            Some(letter) if short => format!("-{letter}"),
            _ => option.usage(),
        };
        return Err(Error::usage(format!(
            "the argument `{name}` cannot be used multiple times"
        )));
    }
    set(host, option, text).map_err(|why| {
        if option.value.is_none() {
            Error::internal(why)
        } else {
            invalid(&option.usage(), text, why)
        }
    })
}

/// Removes host options from a plugin verb's argv, applying them to `host`.
///
/// The rule: after a verb's name, a host option is taken only where the verb
/// does not declare an option of that name, never as the value of one of the
/// verb's options, and never after `--`. `spec` is what the verb declared; a
/// `mur:verb@0.1.0` verb declares nothing, and then every host option but
/// `--timeout` (which every such verb took as its own) is taken. `verb`, the verb's
/// name when it is known, gives a host option typed without its value the verb's usage
/// as hint ([`verb_usage`]), else `mur devtools`'s.
pub fn extract_host_options(
    argv: &[String],
    host: &mut HostArgs,
    spec: Option<&VerbSpec>,
    verb: Option<&str>,
) -> Result<Vec<String>> {
    let mut rest = Vec::with_capacity(argv.len());
    let (options, end) = mur_core::until_end_of_options(argv);
    let mut words = options.iter();
    while let Some(word) = words.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (word.as_str(), None),
        };
        if let Some(declared) = flag.strip_prefix("--").and_then(|n| declared(spec, n)) {
            rest.push(word.clone());
            if declared.takes_value() && inline.is_none() {
                rest.extend(words.next().cloned());
            }
            continue;
        }
        if inline.is_none()
            && let Some(flags) = short_flags(flag)
        {
            for flag in flags {
                set_once(host, flag, "", true)?;
            }
            continue;
        }
        // `-v=false` in the words before the verb's name says so: a named verb's kit
        // said it with its usage under it, a derived verb took it for a stray word
        // ("did you mean `--selector -v=false`?"), where `--pretty=false` is this line.
        if let Some(refused) = short_flags_given(word) {
            return Err(refused);
        }
        let Some(option) = HostOption::named(flag) else {
            rest.push(word.clone());
            continue;
        };
        let name = option.usage();
        if option.value.is_none() {
            if let Some(value) = inline {
                return Err(takes_no_value(flag, &value));
            }
            set_once(host, option, "", false)?;
            continue;
        }
        // The value typed with the option (`--answer=x`), else the next word where clap
        // takes it as one ([`takes`]): `click '#b' --project --pretty` was the
        // session of project `./--pretty` (exit 4), where before the verb clap says the
        // value is missing. An empty one (`--project=`) is refused as before the verb too.
        let text = match inline {
            Some(text) => Some(text),
            None => words
                .as_slice()
                .first()
                .filter(|next| takes(option, next))
                .and_then(|_| words.next().cloned()),
        };
        let text = match text {
            Some(text) if !text.is_empty() => text,
            given => {
                let usage = verb_usage_or_devtools(verb.map(|verb| verb_usage(verb, spec)));
                return Err(match given {
                    Some(_) => value_given_empty(&name, &[], usage),
                    None => value_required(&name, usage),
                });
            }
        };
        set_once(host, option, &text, false)?;
    }
    rest.extend_from_slice(end);
    Ok(rest)
}

/// Host flag `flag` (`--pretty`) typed with a value (`--pretty=false`): refused so after a
/// verb's name and before it alike, where clap said "unexpected value `false` for
/// `--pretty` found; no more were expected", with `mur devtools --pretty <COMMAND>` as
/// the usage to follow.
pub fn takes_no_value(flag: &str, value: &str) -> Error {
    Error::usage(format!("`{flag}` takes no value, got `{value}`"))
}

/// `word` refused where it is the host's short flags typed with a value (`-v=false`,
/// `-vq=1`): as its last flag's, as a verb's kit refuses it, before a verb's name and
/// after it alike.
pub fn short_flags_given(word: &str) -> Option<Error> {
    let (flags, value) = word.split_once('=')?;
    let last = short_flags(flags)?.last()?.short?;
    Some(takes_no_value(&format!("-{last}"), value))
}

/// The usage hint under a host option typed after a verb's name without its value, or
/// with an empty one, refused as clap refuses it before the verb (`mur devtools
/// --answer`): the verb's `usage`, as its `--help` starts (a mistyped option of the
/// verb shows the same line), or where the verb is not known here `mur devtools`'s.
fn verb_usage_or_devtools(usage: Option<String>) -> Option<String> {
    usage.or_else(|| {
        let mut mur = crate::cli::command();
        mur.build();
        mur.find_subcommand_mut("devtools")
            .map(crate::cli::usage_hint)
    })
}

/// The usage hint of verb `verb` (``usage: mur devtools tree [<selector>] … (`--help`
/// shows more)``): the usage line its `--help` starts with, from what it declared;
/// `mur devtools VERB [OPTIONS]` where it declared nothing to read (a derived verb,
/// whose tool is not read yet; a `mur:verb@0.1.0` verb).
fn verb_usage(verb: &str, spec: Option<&VerbSpec>) -> String {
    let declared = spec
        .filter(|spec| **spec != VerbSpec::default())
        .map(|spec| spec.render_brief(verb))
        .and_then(|brief| Some(brief.lines().next()?.strip_prefix("Usage: ")?.to_owned()));
    let usage = declared.unwrap_or_else(|| format!("mur devtools {verb} [OPTIONS]"));
    format!("usage: {usage} (`--help` shows more)")
}

/// Option `option` (`--answer <KEY=VALUE>`, as clap names it) typed without a value, or
/// an empty one: `` `--answer <KEY=VALUE>` needs a value``, with the `usage` hint of the
/// command it was typed to. Before a verb and after it alike, so that where a host
/// option is typed does not change what is said; and in the words the verb kits
/// (plugins/kit/src/argv.rs, `needs_value`) and the derived verbs say it of a verb's
/// own option, so that a session's two kinds of option read alike (clap's own "a value
/// is required for … but none was supplied" is said so by [`crate::refusal`]).
pub fn value_required(option: &str, usage: Option<String>) -> Error {
    value_required_of(option, &[], usage)
}

/// [`value_required`] of an option that takes one of `values` (`--lang <LANG>`: `rust`,
/// `python`, `js`), which are named after it as clap names them for a value it refused.
pub fn value_required_of(option: &str, values: &[String], usage: Option<String>) -> Error {
    let mut said = format!("`{option}` needs a value");
    if !values.is_empty() {
        said.push_str(&format!(" (possible values: {})", values.join(", ")));
    }
    usage.into_iter().fold(Error::usage(said), Error::with_hint)
}

/// [`value_required_of`] of an option typed with an empty value (`--timeout ''`,
/// `--only-verbs=`), in mur's one wording of it ([`mur_core::given_empty_of`]):
/// `` `--timeout <MS>` needs a value (it was given empty)``. A script
/// that passed `"$UNSET"` passed the word, and was told the value was missing, which
/// sent it looking for a word it had typed. Still "needs a value", not the verbs' "must
/// not be empty" of a text option: that is the one wording of this mistake the kits
/// (plugins/kit/src/argv.rs, `millis_word`) and the derived verbs give of an empty
/// `--timeout` after a verb's name, and scripts may match it.
pub fn value_given_empty(option: &str, values: &[String], usage: Option<String>) -> Error {
    let said = mur_core::given_empty_of(option, values);
    usage.into_iter().fold(Error::usage(said), Error::with_hint)
}

/// Host option `name` given `text`, which its parser refused `why`: in clap's words
/// before the verb (``invalid value `x` for `--answer <KEY=VALUE>`: …``), so that
/// where the option is typed does not change what is said.
fn invalid(name: &str, text: &str, why: impl std::fmt::Display) -> Error {
    Error::usage(format!("invalid value `{text}` for `{name}`: {why}"))
}

/// The verb's own option `name`, which the host's of that name yields to (here, and in a
/// verb's help: [`crate::verb_help`]): declared by a 0.2 verb, or `--timeout` of a
/// 0.1 verb.
pub(crate) fn declared<'a>(spec: Option<&'a VerbSpec>, name: &str) -> Option<&'a Param> {
    static TIMEOUT_0_1: std::sync::LazyLock<Param> =
        std::sync::LazyLock::new(|| Param::new("timeout", "MS", ValueKind::Milliseconds, ""));
    match spec {
        Some(spec) => spec.option(name),
        None => (name == "timeout").then(|| &*TIMEOUT_0_1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mur_core::settings::ByteSize;

    /// The words of a command line (no test word has a space in it).
    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    /// [`extract_host_options`] on the words of `line`.
    fn extract(line: &str, host: &mut HostArgs, spec: Option<&VerbSpec>) -> Result<Vec<String>> {
        extract_host_options(&words(line), host, spec, None)
    }

    /// [`HOST_OPTIONS`] is what `HostArgs` declares: each option's long and short
    /// name, its value's name, whether any word, dashed too, is its value, and whether
    /// it may be typed twice.
    #[test]
    fn the_table_is_clap_s() {
        use clap::Args as _;
        let host = HostArgs::augment_args(clap::Command::new("mur"));
        let clap: Vec<_> = host
            .get_arguments()
            .map(|arg| {
                let value = arg.get_action().takes_values().then(|| {
                    let names = arg.get_value_names().unwrap_or_default();
                    names.first().map(ToString::to_string).unwrap_or_default()
                });
                // After a verb's name a dashed word is a value where any word is: clap's
                // rule for negative numbers alone (`-5`, not `-inf`) has no twin there.
                assert!(
                    !arg.is_allow_negative_numbers_set(),
                    "{arg}: allow_hyphen_values"
                );
                let any_value = arg.is_allow_hyphen_values_set();
                let long = arg.get_long().unwrap_or_default().to_owned();
                let repeatable = matches!(
                    arg.get_action(),
                    clap::ArgAction::Append | clap::ArgAction::Count
                );
                (long, arg.get_short(), value, any_value, repeatable)
            })
            .collect();
        let table: Vec<_> = HOST_OPTIONS
            .iter()
            .map(|o| {
                (
                    o.long.to_owned(),
                    o.short,
                    o.value.map(str::to_owned),
                    o.any_value,
                    o.repeatable,
                )
            })
            .collect();
        assert_eq!(table, clap);
    }

    /// A value host option `--{long}` takes.
    fn sample(long: &str) -> &'static str {
        match long {
            "endpoint" => "http://127.0.0.1:1/mcp",
            "project" => "App.csproj",
            "auto-range" => "40000-41000",
            "timeout" => "5",
            "max-response" => "1K",
            "answer" => "k=v",
            "protocol" => mur_client::REVISIONS[0],
            other => panic!("give host option `--{other}` a value to try here"),
        }
    }

    /// The host options clap takes from `line` (after `mur devtools`, then `tree`), as
    /// a run gets them: which options with a default were typed too.
    fn parsed_before_a_verb(line: &[&str]) -> HostArgs {
        let line: Vec<&str> = line.iter().copied().chain(["tree"]).collect();
        parsed(&line).unwrap_or_else(|e| panic!("{line:?}: {e}"))
    }

    /// The host options of `mur devtools` and the words of `line`, as a run gets them
    /// ([`check_typed`] too), or their refusal.
    fn parsed(line: &[&str]) -> Result<HostArgs> {
        use clap::FromArgMatches as _;
        let argv: Vec<OsString> = ["mur", "devtools"]
            .iter()
            .chain(line)
            .map(OsString::from)
            .collect();
        let mut tree = crate::cli::command();
        let matches = tree.try_get_matches_from_mut(&argv)?;
        let mut host = crate::cli::Cli::from_arg_matches(&matches)?.host;
        host.note_typed(&matches);
        check_typed(&mut host, tree, &argv)?;
        Ok(host)
    }

    /// Each host option typed after a verb's name sets what it sets before it, as clap
    /// parses it there: one added to `HostArgs` and not to [`set`] was given to the verb.
    #[test]
    fn every_host_option_is_taken_after_a_verb_as_before_it() {
        for option in &HOST_OPTIONS {
            let long = format!("--{}", option.long);
            let mut typed = vec![long.as_str()];
            typed.extend(option.value.map(|_| sample(option.long)));
            let before = parsed_before_a_verb(&typed);
            let mut after = HostArgs::unset();
            let argv: Vec<String> = ["#x"].iter().chain(&typed).map(|w| w.to_string()).collect();
            let rest = extract_host_options(&argv, &mut after, Some(&VerbSpec::default()), None)
                .expect("taken");
            assert_eq!(rest, ["#x"], "{long}");
            assert_eq!(format!("{after:?}"), format!("{before:?}"), "{long}");
            if let Some(short) = option.short {
                let mut short_after = HostArgs::unset();
                extract(&format!("#x -{short}"), &mut short_after, None).expect("taken");
                assert_eq!(
                    format!("{short_after:?}"),
                    format!("{before:?}"),
                    "-{short}"
                );
            }
        }
    }

    /// A derived verb renames a property that is one of these (`--arg-timeout`), as
    /// the host takes them anywhere in its argv: a host option missing from the list
    /// would take a property's value.
    #[test]
    fn derived_verbs_know_every_host_option() {
        use clap::Args as _;
        let host = HostArgs::augment_args(clap::Command::new("mur"));
        let mut longs: Vec<&str> = host.get_arguments().filter_map(|a| a.get_long()).collect();
        longs.sort_unstable();
        let mut known = mur_verbs::derived::host_options().to_vec();
        known.sort_unstable();
        assert_eq!(longs, known);
    }

    /// A hint's command reaches the session the typed options chose: pasted among
    /// several sessions, it would otherwise ask which one.
    #[test]
    fn a_hints_command_carries_the_options_that_chose_the_session() {
        let command = |args: HostArgs| settings(&args).devtools_command();
        assert_eq!(command(HostArgs::default()), "mur devtools");
        assert_eq!(
            command(HostArgs {
                project: Some("my app/App.csproj".into()),
                auto: true,
                ..HostArgs::default()
            }),
            "mur devtools --auto --project 'my app/App.csproj'"
        );
        assert_eq!(
            command(HostArgs {
                endpoint: Some("http://127.0.0.1:4000/mcp".into()),
                ..HostArgs::default()
            }),
            "mur devtools --endpoint http://127.0.0.1:4000/mcp"
        );
        let range = HostArgs {
            auto_range: Some("40000-40010".parse().expect("range")),
            ..HostArgs::default()
        };
        assert_eq!(command(range), "mur devtools --auto-range 40000-40010");
    }

    #[test]
    fn host_options_are_taken_out_of_verb_arguments() {
        let mut host = HostArgs::default();
        let line = "#x --pretty --endpoint=http://127.0.0.1:9/mcp --timeout 8000 -v";
        let rest = extract(line, &mut host, None).expect("valid");
        assert_eq!(rest, ["#x", "--timeout", "8000"]);
        assert!(host.pretty && host.verbose);
        assert_eq!(host.endpoint.as_deref(), Some("http://127.0.0.1:9/mcp"));
    }

    /// After a verb's name as before it: `-vq` is `-v -q`, and a flag given a value
    /// says so (the kit answered `--pretty=false` with "did you mean `--pretty`?").
    #[test]
    fn short_flag_clusters_are_taken_and_a_flag_with_a_value_is_refused() {
        let mut host = HostArgs::default();
        let rest = extract("#x -vq", &mut host, None).expect("valid");
        assert_eq!(rest, ["#x"]);
        assert!(host.verbose && host.quiet);
        let mut host = HostArgs::default();
        // A word with a letter not the host's is the verb's, whole.
        assert_eq!(
            extract("#x -qv -vx", &mut host, None).expect("valid"),
            ["#x", "-vx"]
        );
        assert!(host.quiet && host.verbose);
        // Each once, refused as before the verb: `-vv` was left to the verb, which said
        // to write `-v -v`, refused in turn. Named as typed again (it was `--verbose`).
        for (line, flag) in [
            ("#x -vv", "-v"),
            ("#x -qvq", "-q"),
            ("#x -v -vq", "-v"),
            ("#x -v --verbose", "--verbose"),
        ] {
            let refused = extract(line, &mut HostArgs::default(), None).expect_err(line);
            assert_eq!(
                refused.message(),
                format!("the argument `{flag}` cannot be used multiple times"),
                "{line}"
            );
        }
        for (line, flag, value) in [
            ("#x --pretty=false", "--pretty", "false"),
            ("#x --quiet=", "--quiet", ""),
            ("#x --auto=yes", "--auto", "yes"),
            // A short one too, as before the verb: the kit said it with its usage, a
            // derived verb took it for a stray word.
            ("#x -v=false", "-v", "false"),
            ("#x -vq=1", "-q", "1"),
        ] {
            let refused = extract(line, &mut HostArgs::default(), None).expect_err(line);
            assert_eq!(
                refused.message(),
                format!("`{flag}` takes no value, got `{value}`")
            );
        }
        // The value of a verb's own option, and a word after `--`, are the verb's.
        let spec = VerbSpec {
            options: vec![Param::new("selector", "S", ValueKind::Text, "")],
            ..VerbSpec::default()
        };
        let line = "--selector -v=false -- -q=1";
        let rest = extract(line, &mut HostArgs::default(), Some(&spec)).expect(line);
        assert_eq!(rest, words(line));
    }

    #[test]
    fn quiet_and_answers_are_host_options_among_verb_arguments() {
        let mut host = HostArgs::default();
        let line = "#x -q --answer confirm=yes --answer=name=a=b";
        let rest = extract(line, &mut host, None).expect("valid");
        assert_eq!(rest, ["#x"]);
        assert!(host.quiet);
        let s = settings(&host);
        assert_eq!(
            s.answers,
            [
                ("confirm".to_owned(), "yes".to_owned()),
                ("name".to_owned(), "a=b".to_owned())
            ]
        );
    }

    /// What a command reads of its settings alone, typed after a verb's name as before
    /// it: that `--timeout` was typed (a verb's own then only lengthens it; `proxy`
    /// bounds each request by it) and `--refresh`.
    #[test]
    fn a_typed_timeout_and_refresh_reach_the_settings() {
        let untyped = settings(&HostArgs::unset());
        assert!(!untyped.timeout_given && !untyped.refresh);
        let mut host = HostArgs::unset();
        let no_options = VerbSpec::default();
        let line = "#x --timeout 5000 --refresh";
        let rest = extract(line, &mut host, Some(&no_options)).expect(line);
        assert_eq!(rest, ["#x"]);
        let typed = settings(&host);
        assert!(typed.timeout_given && typed.refresh);
        assert_eq!(typed.timeout, Duration::from_millis(5000));
    }

    #[test]
    fn nothing_after_double_dash_is_taken() {
        let mut host = HostArgs::default();
        let rest = extract("a -- --pretty", &mut host, None).expect("valid");
        assert_eq!(rest, ["a", "--", "--pretty"]);
        assert!(!host.pretty);
    }

    #[test]
    fn a_missing_or_malformed_value_is_a_usage_error() {
        // No value, an answer that is not KEY=VALUE, a size that is not one.
        for line in ["--project", "--answer novalue", "--max-response=lots"] {
            let err = extract(line, &mut HostArgs::default(), None).expect_err(line);
            assert_eq!(err.exit_code(), 1, "{line}");
        }
    }

    /// An option is never a host option's value (`--project --pretty`), but a lone `-`
    /// is, and a negative number where clap takes one (`--timeout -1`, `--max-response
    /// -5`), as before the verb.
    #[test]
    fn an_option_is_no_value_but_a_lone_dash_and_a_negative_bound_are() {
        for (line, name) in [
            ("#x --project --pretty", "--project <PATH>"),
            ("#x --answer -v", "--answer <KEY=VALUE>"),
        ] {
            let refused = extract(line, &mut HostArgs::default(), None).expect_err(line);
            assert_eq!(
                refused.message(),
                format!("`{name}` needs a value"),
                "{line}"
            );
        }
        let refused = extract("#x --endpoint=", &mut HostArgs::default(), None).expect_err("=");
        assert_eq!(
            refused.message(),
            "`--endpoint <URL>` needs a value (it was given empty)"
        );
        let mut host = HostArgs::default();
        assert_eq!(
            extract("#x --project -", &mut host, None).expect("valid"),
            ["#x"]
        );
        assert_eq!(host.project, Some(PathBuf::from("-")));
        // Any word is `--timeout`'s and `--max-response`'s value, as clap takes it before
        // the verb: `-5K` was "a value is required" here, "unexpected argument `-5`" there.
        for (line, name) in [
            ("--timeout -1", "--timeout <MS>"),
            ("--timeout -5s", "--timeout <MS>"),
            ("--max-response -5", "--max-response <BYTES>"),
            ("--max-response -5K", "--max-response <BYTES>"),
            ("--max-response -inf", "--max-response <BYTES>"),
            ("--auto-range -inf", "--auto-range <LO-HI>"),
        ] {
            let negative = extract(line, &mut HostArgs::default(), Some(&VerbSpec::default()))
                .expect_err("a negative number");
            let number = line.split(' ').nth(1).unwrap_or_default();
            assert!(
                negative
                    .message()
                    .starts_with(&format!("invalid value `{number}` for `{name}`: ")),
                "{negative}"
            );
        }
    }

    /// A host option clap takes once is refused typed again after the verb's name, in
    /// clap's words, whether the first was before the verb or after it; `--answer` repeats.
    #[test]
    fn a_host_option_given_twice_is_refused_as_clap_refuses_it() {
        let before = HostArgs {
            project: Some("a".into()),
            ..HostArgs::unset()
        };
        for (line, mut host, name) in [
            ("#x --project b", before, "--project <PATH>"),
            (
                "#x --endpoint u --endpoint=w",
                HostArgs::unset(),
                "--endpoint <URL>",
            ),
            (
                "#x --max-response 1K --max-response 2K",
                HostArgs::unset(),
                "--max-response <BYTES>",
            ),
            ("#x -v --verbose", HostArgs::unset(), "--verbose"),
            ("#x --pretty --pretty", HostArgs::unset(), "--pretty"),
        ] {
            let refused = extract(line, &mut host, None).expect_err(line);
            assert_eq!(
                refused.message(),
                format!("the argument `{name}` cannot be used multiple times"),
                "{line}"
            );
            assert_eq!(refused.exit_code(), 1, "{line}");
        }
        let mut host = HostArgs::unset();
        extract("#x --answer a=1 --answer b=2", &mut host, None).expect("repeatable");
        assert_eq!(host.answer.len(), 2);
    }

    /// A host option typed at two levels of mur's own command (before `devtools`, before
    /// the command, after it, after a group's command) is refused by the rule that
    /// refuses one typed again after a verb's name, in its words: clap, which refuses one
    /// typed twice at one level, took the later of two levels' and dropped the first
    /// (`--project a call version --project b` called `b`'s session). `--answer` repeats
    /// at every level, and none is dropped.
    #[test]
    fn a_host_option_typed_at_two_levels_of_a_command_is_refused_as_after_a_verb() {
        for (line, name) in [
            (
                &["--project", "a", "call", "version", "--project", "b"][..],
                "--project <PATH>",
            ),
            (
                &["--project", "a", "session", "list", "--project", "b"],
                "--project <PATH>",
            ),
            (&["session", "--pretty", "list", "--pretty"], "--pretty"),
            (
                &["--timeout", "100", "catalog", "--timeout", "200"],
                "--timeout <MS>",
            ),
            (
                &["--timeout", "100", "parity", "--timeout=100"],
                "--timeout <MS>",
            ),
            (&["-v", "call", "version", "-qv"], "-v"),
            (&["-v", "call", "version", "--verbose"], "--verbose"),
            (&["--quiet", "session", "list", "-q"], "-q"),
            // The first option typed again is the one named.
            (
                &[
                    "--refresh",
                    "--protocol",
                    "2025-11-25",
                    "catalog",
                    "--protocol",
                    "2025-11-25",
                    "--refresh",
                ],
                "--protocol <REVISION>",
            ),
        ] {
            let refused = parsed(line).expect_err(&format!("{line:?}"));
            assert_eq!(
                (refused.message(), refused.exit_code()),
                (
                    format!("the argument `{name}` cannot be used multiple times").as_str(),
                    1
                ),
                "{line:?}"
            );
        }
        // Before `devtools` and after it.
        let argv = [
            "mur",
            "--project",
            "a",
            "devtools",
            "--project",
            "b",
            "catalog",
        ];
        let mut tree = crate::cli::command();
        let matches = tree.try_get_matches_from_mut(argv).expect("parsed");
        let mut host = <crate::cli::Cli as clap::FromArgMatches>::from_arg_matches(&matches)
            .expect("a Cli")
            .host;
        let argv: Vec<OsString> = argv.iter().map(OsString::from).collect();
        let refused = check_typed(&mut host, tree, &argv).expect_err("twice");
        assert_eq!(
            refused.message(),
            "the argument `--project <PATH>` cannot be used multiple times"
        );
        // Each level's answers, all of them; the options typed once as clap took them.
        let host = parsed(&[
            "--answer",
            "a=1",
            "-v",
            "call",
            "version",
            "--answer",
            "b=2",
            "--answer=a=1",
            "--project",
            "p",
        ])
        .expect("taken");
        assert_eq!(
            host.answer,
            [("a".into(), "1".into()), ("b".into(), "2".into())]
        );
        assert!(host.verbose);
        assert_eq!(host.project, Some(PathBuf::from("p")));
        // A host option's name as a word of the server's command is no host option.
        let bridge = parsed(&["--project", "a", "bridge", "--", "server", "--project", "b"]);
        assert_eq!(bridge.expect("taken").project, Some(PathBuf::from("a")));
    }

    /// A host flag typed twice is named as typed the second time, as clap takes it and
    /// after a verb's name alike: clap named `-vv` `--verbose`.
    #[test]
    fn a_flag_typed_twice_is_named_as_typed_again() {
        let words = |line: &str| -> Vec<OsString> {
            std::iter::once("mur")
                .chain(line.split_whitespace())
                .map(OsString::from)
                .collect()
        };
        let verbose = HostOption::named("--verbose").expect("a host option");
        for (line, short) in [
            ("devtools -vv tree", true),
            ("devtools -v call x -qv", true),
            ("devtools --verbose call x -v", true),
            ("devtools -v call x --verbose", false),
            ("devtools -v -- -v", false),
            ("devtools -v", false),
        ] {
            assert_eq!(again_by_short_name(verbose, &words(line)), short, "{line}");
        }
        let pretty = HostOption::named("--pretty").expect("a host option");
        assert!(!again_by_short_name(pretty, &words("--pretty --pretty")));
    }

    /// `--answer` repeats for different fields only: a second, different answer for one
    /// field is refused, before the verb, after it or across it, in one wording
    /// (`--answer confirm=false clear-todos --answer confirm=true` cleared the todos, the
    /// last answer taken); the same answer again is taken once.
    #[test]
    fn two_answers_for_one_field_are_refused_wherever_they_are_typed() {
        let refused = "invalid value `confirm=true` for `--answer <KEY=VALUE>`: `confirm` is \
                       answered already (`--answer confirm=false`); give each field one answer";
        let before = parsed(&[
            "--answer",
            "confirm=false",
            "--answer",
            "confirm=true",
            "tree",
        ]);
        assert_eq!(before.expect_err("two answers").message(), refused);
        // Across the levels of mur's own command too.
        let across = parsed(&[
            "--answer",
            "confirm=false",
            "catalog",
            "--answer",
            "confirm=true",
        ]);
        assert_eq!(across.expect_err("two answers").message(), refused);
        for (first, again) in [
            (
                &["--answer", "confirm=false"][..],
                "#x --answer confirm=true",
            ),
            (&[], "#x --answer=confirm=false --answer confirm=true"),
        ] {
            let mut host = parsed_before_a_verb(first);
            let error = extract(again, &mut host, None).expect_err(again);
            assert_eq!(
                (error.message(), error.exit_code()),
                (refused, 1),
                "{again}"
            );
        }
        let mut host = parsed_before_a_verb(&["--answer", "a=1", "--answer", "a=1"]);
        let rest = extract("#x --answer a=1 --answer b=", &mut host, None).expect("taken");
        assert_eq!(rest, ["#x"]);
        assert_eq!(
            host.answer,
            [("a".into(), "1".into()), ("b".into(), String::new())]
        );
    }

    /// An `--endpoint` mur's HTTP cannot read is refused where it is parsed, before the
    /// verb and after it alike: `http://127.0.0.1:1/ x` passed the loopback check and was
    /// refused by the HTTP layer after discovery, exit 2 ("request failed").
    #[test]
    fn an_endpoint_the_http_layer_cannot_read_is_refused_where_it_is_parsed() {
        for url in [
            "http://127.0.0.1:1/ x",
            "http://127.0.0.1:1/\n",
            "http://127.0.0.1:1/\x7f",
        ] {
            let refused = format!(
                "invalid value `{url}` for `--endpoint <URL>`: not a URL (invalid uri \
                 character); nothing was sent"
            );
            let argv = ["#x".to_owned(), "--endpoint".to_owned(), url.to_owned()];
            let after =
                extract_host_options(&argv, &mut HostArgs::unset(), None, None).expect_err(url);
            assert_eq!(
                (after.message(), after.exit_code()),
                (refused.as_str(), 1),
                "{url}"
            );
            // clap's refusal, its value escaped in place (the other is escaped as printed).
            let before = crate::cli::command()
                .try_get_matches_from(["mur", "devtools", "--endpoint", url, "tree"])
                .map(drop)
                .map_err(Error::from)
                .expect_err(url);
            assert_eq!(
                (before.message(), before.exit_code()),
                (mur_core::text::escape_value(&refused).as_ref(), 1),
                "{url}"
            );
        }
        let mut host = HostArgs::unset();
        extract("#x --endpoint http://127.0.0.1:1/mcp?a=b", &mut host, None).expect("a URL");
        assert_eq!(host.endpoint.as_deref(), Some("http://127.0.0.1:1/mcp?a=b"));
    }

    /// Every host option but `--answer`, typed before the verb's name (as its default
    /// where it has one: `--max-response 64M`, `--timeout 10000`) and again after it,
    /// is refused whatever the values: `--max-response` typed as its default was not
    /// told from none, and a second one was taken.
    #[test]
    fn every_host_option_typed_before_the_verb_and_after_it_is_refused_but_answer() {
        use clap::Args as _;
        let clap = HostArgs::augment_args(clap::Command::new("mur"));
        for option in &HOST_OPTIONS {
            let arg = clap
                .get_arguments()
                .find(|arg| arg.get_long() == Some(option.long))
                .expect("the table is clap's");
            let default = arg.get_default_values().first().and_then(|v| v.to_str());
            let long = format!("--{}", option.long);
            let value = option.value.map(|_| default.unwrap_or(sample(option.long)));
            let first: Vec<&str> = std::iter::once(long.as_str()).chain(value).collect();
            let mut host = parsed_before_a_verb(&first);
            let again = match option.value {
                Some(_) => format!("#x {long} {}", sample(option.long)),
                None => format!("#x {long}"),
            };
            let taken = extract(&again, &mut host, Some(&VerbSpec::default()));
            match option.repeatable {
                true => assert_eq!(taken.expect(&again), ["#x"]),
                false => assert_eq!(
                    taken.expect_err(&again).message(),
                    format!(
                        "the argument `{}` cannot be used multiple times",
                        option.usage()
                    ),
                    "{first:?} then {again}"
                ),
            }
        }
    }

    #[test]
    fn max_response_is_a_host_option_among_verb_arguments() {
        let mut host = HostArgs::default();
        let rest = extract("#x --max-response 128M", &mut host, None).expect("valid");
        assert_eq!(rest, ["#x"]);
        assert_eq!(host.max_response, ByteSize(128 << 20));
    }

    #[test]
    fn a_verbs_declared_options_and_their_values_are_never_taken() {
        let option = |name: &str, kind| Param::new(name, "V", kind, "");
        let spec = VerbSpec {
            options: vec![
                option("project", ValueKind::Text),
                option("note", ValueKind::Text),
                option("pretty", ValueKind::Flag),
            ],
            ..VerbSpec::default()
        };
        let mut host = HostArgs::default();
        let line = "--project p --note --verbose --pretty --timeout 5 -v -- --auto";
        let rest = extract(line, &mut host, Some(&spec)).expect("valid");
        assert_eq!(
            rest,
            words("--project p --note --verbose --pretty -- --auto")
        );
        assert_eq!(host.project, None);
        assert!(!host.pretty && host.verbose && !host.auto);
        assert_eq!(
            host.timeout, 5,
            "a 0.2 verb that declares no --timeout leaves it to the host"
        );
    }

    #[test]
    fn a_verb_timeout_is_the_bound_unless_the_host_was_given_a_longer_one() {
        let bound = |host: u64, given: bool, verb: Option<u32>| {
            let mut s = settings(&HostArgs {
                timeout: host,
                timeout_given: given,
                ..HostArgs::default()
            });
            s.verb_timeout(verb);
            s.timeout.as_millis()
        };
        // Half as long again to hear the server's own answer, at most 2 s more.
        assert_eq!(bound(10_000, false, Some(1000)), 1500);
        assert_eq!(bound(10_000, false, Some(30_000)), 32_000);
        assert_eq!(bound(10_000, false, None), 10_000);
        // `mur devtools --timeout 10000 x --timeout 1000`: the host's word stands.
        assert_eq!(bound(10_000, true, Some(1000)), 10_000);
        assert_eq!(bound(200, true, Some(800)), 1200);
    }
}
