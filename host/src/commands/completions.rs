//! Shell completion that never goes stale. `mur completions <shell>` prints a
//! small script that, at each <Tab>, asks `mur` itself (`COMPLETE=<shell> mur
//! -- <words>`) for candidates; [`answer`] replies from the command tree with
//! every installed verb and each verb's own options, read from the verb index
//! then and there — so a verb added after the script was installed completes
//! at once. The protocol is clap_complete's (`unstable-dynamic`). An option the
//! command line already gives is left out unless it may be given again ([`given_once`]).

use std::collections::HashSet;
use std::ffi::OsString;

use clap_complete::engine::{CompletionCandidate, SubcommandCandidates};
use clap_complete::env::Shells;

use crate::call_line::called_by_name;
use crate::output;
use crate::{cli, command_tree};
use mur_core::{Error, Result};
use std::time::Duration;

use mur_verbs::derived::{self, Derived};
use mur_verbs::tools::{Entries as _, Glance};
use mur_verbs::{ValueKind, VerbHost, VerbSpec, usable_name};

/// The environment variable the completion script sets when it asks.
const VAR: &str = "COMPLETE";

/// Prints the registration script for `shell` on stdout.
pub fn run(shell: clap_complete::Shell) -> Result<()> {
    let name = shell.to_string();
    let shells = Shells::builtins();
    run_registration(shells.completer(&name).ok_or_else(|| unknown(&name))?)
}

fn unknown(shell: &str) -> Error {
    Error::usage(format!("no completion for the shell `{shell}`"))
}

/// When the completion script is asking (`COMPLETE=<shell>` set), prints the
/// candidates for the words after `--` and returns `Some`; else `None`, and
/// `mur` runs as usual.
pub fn answer(argv: &[OsString]) -> Option<Result<()>> {
    let shell = std::env::var(VAR)
        .ok()
        .filter(|s| !s.is_empty() && s != "0")?;
    Some(complete(&shell, argv))
}

fn complete(shell: &str, argv: &[OsString]) -> Result<()> {
    let shells = Shells::builtins();
    let completer = shells.completer(shell).ok_or_else(|| unknown(shell))?;
    let words: Vec<OsString> = match argv.iter().position(|a| a == "--") {
        Some(at) => argv[at + 1..].to_vec(),
        None => Vec::new(),
    };
    if words.is_empty() {
        return run_registration(completer);
    }
    let mut verbs = installed();
    let names: Vec<String> = verbs.iter().map(|v| v.name.clone()).collect();
    let current = current_word(shell, &words);
    let settings = crate::options::settings(&host_args(&words, current));
    let tools = crate::session_tools::glance(&settings, SESSION_WAIT);
    verbs.extend(derived(&tools, &verbs, wanted(&words, current)));
    // `call`'s tool names complete a line that gives `call`: made values of its NAME at
    // every <Tab>, 50,000 of them took a tenth of it.
    let called = match words.iter().any(|word| word == "call") {
        true => tools.names(),
        false => Vec::new(),
    };
    let mut cmd = tree(&verbs, &names, &called);
    let drop = given_once(&cmd, &words, current);
    let cwd = std::env::current_dir().ok();
    let mut candidates = Vec::new();
    completer
        .write_complete(&mut cmd, words, cwd.as_deref(), &mut candidates)
        .map_err(|e| Error::internal(format!("cannot complete: {e}")))?;
    output::stdout(&without(shell, &candidates, &drop))
}

fn run_registration(completer: &dyn clap_complete::env::EnvCompleter) -> Result<()> {
    let mut script = Vec::new();
    completer
        .write_registration(VAR, "mur", "mur", "mur", &mut script)
        .map_err(|e| Error::internal(format!("cannot write the completion script: {e}")))?;
    output::stdout(&script)
}

/// A verb as completion sees it: a 0.2, data or derived verb declares its
/// params (`spec`); a 0.1 verb declares none.
#[derive(Clone)]
struct Completable {
    name: String,
    summary: String,
    spec: Option<VerbSpec>,
    /// The tool it calls: an installed verb's hides its tool's derived verb.
    tool: String,
    /// A derived verb the line does not name, not built ([`Need::Name`]): a candidate
    /// for the word completed, its name and summary, and no command of the tree.
    unbuilt: bool,
}

/// How long completion waits for a session to list its tools: a <Tab> must
/// answer at once, and without a session only derived verbs are missing.
const SESSION_WAIT: Duration = Duration::from_millis(500);

/// The installed verbs (none when the index cannot be read: completion must
/// never fail loudly).
fn installed() -> Vec<Completable> {
    let entries = VerbHost::open()
        .map(|host| host.entries().to_vec())
        .unwrap_or_default();
    entries
        .into_iter()
        .map(|e| Completable {
            name: e.name,
            summary: e.summary,
            spec: e.spec,
            tool: e.tool,
            unbuilt: false,
        })
        .collect()
}

/// The host options the command line gives already (`--project PATH`, `--endpoint
/// URL`, …), as a verb's run would take them, the word being completed (`current`)
/// aside: the session they choose is the one whose tools complete, so that with several
/// sessions running, `mur devtools --project P <Tab>` offers P's. None where they do not
/// read (a `--project` whose value is the word being completed).
fn host_args(words: &[OsString], current: usize) -> crate::cli::HostArgs {
    let typed: Vec<String> = words
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(at, _)| *at != current)
        .filter_map(|(_, word)| word.to_str().map(str::to_owned))
        .collect();
    let mut host = crate::cli::HostArgs::default();
    match crate::options::extract_host_options(&typed, &mut host, Some(&VerbSpec::default()), None)
    {
        Ok(_) => host,
        Err(_) => crate::cli::HostArgs::default(),
    }
}

/// The verbs derived from the session's `tools` that no installed verb hides, by
/// its name or, but where the line names it, by calling the same tool (`wait` hides
/// `wait-for`): the verbs
/// `catalog` lists (one whose name no one can type or see, a control character or a
/// zero-width space in it, or blanks alone, is none: [`derived::verb_names`]). Each as much as `need` says: the one
/// the line names is built, its options to complete; one the word being completed
/// begins is a candidate, its name and summary read off what the list was read for
/// ([`Glance`]: building each verb's options for a candidate list took 297 s and 900 MB a
/// <Tab> for 50,000 tools); others are left out.
fn derived(
    tools: &Glance,
    installed: &[Completable],
    need: impl Fn(&str) -> Need,
) -> Vec<Completable> {
    // An installed verb of its name runs instead of it. One that calls its tool leaves
    // it out of the candidates, as the catalog lists it, but the line that names it runs
    // it (`wait-for`, though `wait` calls `waitFor`): its options complete.
    let hidden = |name: &str, tool: &str, need: Need| {
        installed
            .iter()
            .any(|i| i.name == name || (i.tool == tool && !matches!(need, Need::Options)))
    };
    let verbs = derived::verb_names_of(&tools.names());
    tools
        .tools()
        .iter()
        .zip(verbs)
        .enumerate()
        .filter_map(|(at, (tool, name))| {
            let name = name?;
            let tool_name = tool.name.as_deref()?;
            let need = need(&name);
            if hidden(&name, tool_name, need) {
                return None;
            }
            match need {
                Need::Nothing => None,
                Need::Name => Some(Completable {
                    summary: tool.summary.clone(),
                    name,
                    spec: None,
                    tool: tool_name.to_owned(),
                    unbuilt: true,
                }),
                Need::Options => {
                    Derived::of_entry(&tools.entry(at)?, name).map(|verb| Completable {
                        name: verb.name,
                        summary: verb.summary,
                        spec: Some(verb.spec),
                        tool: verb.tool,
                        unbuilt: false,
                    })
                }
            }
        })
        .collect()
}

/// How much of a derived verb completing a line needs ([`derived`]).
#[derive(Clone, Copy)]
enum Need {
    Nothing,
    /// A candidate for the word being completed: its name and summary.
    Name,
    /// The verb the line names: its options, to complete what follows it.
    Options,
}

/// How much of each derived verb completing `words` needs ([`derived`]): the options of
/// one the line gives (all but the word being completed, `current`), the name of one
/// the word being completed begins.
fn wanted(words: &[OsString], current: usize) -> impl Fn(&str) -> Need + use<> {
    let typed: HashSet<String> = words
        .iter()
        .enumerate()
        .filter(|(at, _)| *at != current)
        .map(|(_, word)| word.to_string_lossy().into_owned())
        .collect();
    let prefix = words.get(current).map(|w| w.to_string_lossy().into_owned());
    move |name: &str| {
        if typed.contains(name) {
            Need::Options
        } else if prefix
            .as_ref()
            .is_some_and(|p| name.starts_with(p.as_str()))
        {
            Need::Name
        } else {
            Need::Nothing
        }
    }
}

/// The command tree with each verb under `devtools`, with its declared positionals and
/// options; an [`unbuilt`](Completable::unbuilt) verb is a candidate of `devtools`'
/// commands alone (clap_complete's [`SubcommandCandidates`]), offered as the command it
/// stands for would be, in its place: a command of clap's tree for each of 50,000 tools,
/// every host option copied into it when the tree is built, took 18 s and 870 MB a <Tab>.
fn with_verbs(cmd: clap::Command, verbs: &[Completable]) -> clap::Command {
    cmd.mut_subcommand("devtools", |devtools| {
        // The words taken, in a set: each verb searching the commands added before it
        // took minutes for 50,000 tools.
        let mut taken: HashSet<String> = devtools
            .get_subcommands()
            .flat_map(|c| std::iter::once(c.get_name()).chain(c.get_all_aliases()))
            .map(str::to_owned)
            .collect();
        let verbs = verbs.iter().filter(|verb| taken.insert(verb.name.clone()));
        // The place clap gives the next command, each verb's after it as if each were one.
        let first = devtools
            .clone()
            .subcommand(clap::Command::new("-"))
            .find_subcommand("-")
            .map_or(0, clap::Command::get_display_order);
        let heading = devtools
            .get_subcommand_help_heading()
            .unwrap_or("Commands")
            .to_owned();
        let mut commands = Vec::new();
        let mut candidates = Vec::new();
        for (at, verb) in verbs.enumerate() {
            if !verb.unbuilt {
                commands.push(verb_command(verb).display_order(first + at));
                continue;
            }
            candidates.push((verb.name.clone(), summary(verb), first + at));
        }
        let devtools = devtools.subcommands(commands);
        if candidates.is_empty() {
            return devtools;
        }
        // As clap_complete offers a command (its `populate_command_candidate`).
        let offered = move || {
            let offer = |(name, help, order): &(String, String, usize)| {
                CompletionCandidate::new(name)
                    .help(Some(help.clone().into()))
                    .id(Some(format!("command::{name}")))
                    .tag(Some(heading.clone().into()))
                    .display_order(Some(*order))
            };
            candidates.iter().map(offer).collect()
        };
        devtools.add(SubcommandCandidates::new(offered))
    })
}

/// The completion-only tree: every verb with its params, `verbs remove` and `info`
/// taking the `installed` names, `call` the session's tools.
fn tree(verbs: &[Completable], installed: &[String], tools: &[Option<&str>]) -> clap::Command {
    let cmd = with_installed_names(
        command_tree::built(with_verbs(cli::command(), verbs)),
        installed,
    );
    with_tool_names(cmd, tools)
}

/// Which of `words` is being completed: the one bash's, zsh's and elvish's scripts
/// name (`_CLAP_COMPLETE_INDEX`, as clap_complete reads it), else the last (fish's and
/// PowerShell's complete the last).
fn current_word(shell: &str, words: &[OsString]) -> usize {
    let last = words.len().saturating_sub(1);
    let named = std::env::var("_CLAP_COMPLETE_INDEX").ok();
    match named.and_then(|i| i.parse::<usize>().ok()) {
        Some(at) if !matches!(shell, "fish" | "powershell") => at.min(last),
        _ => last,
    }
}

/// `candidates` as the shell's script reads them (each a value, then for fish and
/// PowerShell a tab and its help; separated by `_CLAP_IFS` where the script sets it,
/// else by newlines) without those whose value is in `drop`.
fn without(shell: &str, candidates: &[u8], drop: &HashSet<String>) -> Vec<u8> {
    if drop.is_empty() {
        return candidates.to_vec();
    }
    let text = String::from_utf8_lossy(candidates);
    let ifs = std::env::var("_CLAP_IFS").ok();
    let separator = match ifs.as_deref() {
        Some(ifs) if !ifs.is_empty() && !matches!(shell, "fish" | "powershell") => ifs,
        _ => "\n",
    };
    let value = |entry: &str| entry.split('\t').next().unwrap_or_default().to_owned();
    // fish's and PowerShell's end each entry with a newline: the last piece is empty,
    // and kept, so what is left ends as it did.
    let kept: Vec<&str> = text
        .split(separator)
        .filter(|entry| entry.is_empty() || !drop.contains(&value(entry)))
        .collect();
    kept.join(separator).into_bytes()
}

/// The options the command line already gives (all but the word being completed,
/// `current`) that may not be given again, as completion would offer them (`--name`,
/// its visible aliases, `-n`): clap_complete offers every option at every <Tab>, so
/// `tree --selector '#x' --<Tab>` offered `--selector` again. A repeatable option
/// (`--answer`, a verb's own) may be given again, and is offered. An option of the
/// command being completed counts when given to it, or, global (a host option), to a
/// command above it; a verb's own option of the same name as a host option given
/// before the verb (`--timeout`) is another option, and still offered.
fn given_once(cmd: &clap::Command, words: &[OsString], current: usize) -> HashSet<String> {
    let typed: Vec<OsString> = words
        .iter()
        .enumerate()
        .filter(|(at, _)| *at != current)
        .map(|(_, word)| word.clone())
        .collect();
    let (path, given) = command_tree::given_options(cmd, &typed);
    let mut completed = cmd;
    for name in &path {
        match completed.find_subcommand(name) {
            Some(sub) => completed = sub,
            None => break,
        }
    }
    let depth = path.len();
    let once = |a: &clap::Arg| {
        !matches!(
            a.get_action(),
            clap::ArgAction::Append | clap::ArgAction::Count
        )
    };
    completed
        .get_arguments()
        .filter(|&a| once(a))
        .filter(|a| {
            given.iter().any(|(at, id, global)| {
                id == a.get_id() && (*at == depth || (*global && *at < depth && a.is_global_set()))
            })
        })
        .flat_map(|a| {
            let longs = a.get_long_and_visible_aliases().unwrap_or_default();
            let shorts = a.get_short_and_visible_aliases().unwrap_or_default();
            longs
                .into_iter()
                .map(|long| format!("--{long}"))
                .chain(shorts.into_iter().map(|short| format!("-{short}")))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The built tree with `verbs remove` and `verbs info` completing the names
/// of the installed verbs (a completion-only tree: nothing is parsed with it).
fn with_installed_names(cmd: clap::Command, names: &[String]) -> clap::Command {
    let names: Vec<&'static str> = names.iter().map(|n| leak(n)).collect();
    cmd.mut_subcommand("devtools", |devtools| {
        devtools.mut_subcommand("verbs", |verbs| {
            ["remove", "info"]
                .into_iter()
                .fold(verbs, |verbs, command| {
                    verbs.mut_subcommand(command, |c| {
                        c.mut_arg("name", |a| {
                            a.value_parser(clap::builder::PossibleValuesParser::new(names.clone()))
                        })
                    })
                })
        })
    })
}

/// The built tree with `call` completing the session's tool names, and the methods
/// `call` sends itself (`ping`, `tools/list`) when there is a session to send them to.
/// A tool `call NAME` does not reach ([`called_by_name`]) is no candidate: one named
/// `a/b` was offered, and `call a/b` sent the method `a/b`; one named `--help` printed
/// call's help; one whose name shows as nothing was a blank candidate. Each is reached
/// with `call tools/call`, as `catalog` says.
fn with_tool_names(cmd: clap::Command, tools: &[Option<&str>]) -> clap::Command {
    if tools.is_empty() {
        return cmd;
    }
    // A tool listed twice is one candidate; one named `ping` is the method's.
    let mut seen = HashSet::new();
    let names: Vec<&'static str> = tools
        .iter()
        .flatten()
        .copied()
        .filter(|name| called_by_name(name))
        .chain(["ping", "tools/list"])
        .filter(|name| seen.insert(*name))
        .map(leak)
        .collect();
    cmd.mut_subcommand("devtools", |devtools| {
        devtools.mut_subcommand("call", |call| {
            call.mut_arg("name", |a| {
                a.value_parser(clap::builder::PossibleValuesParser::new(names))
            })
        })
    })
}

/// clap names are `&'static str`; a completion run builds one tree and exits.
fn leak(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

/// A completion-only command for a verb: a 0.2 verb's declared params, or
/// free words for a 0.1 verb, which declares none.
fn verb_command(verb: &Completable) -> clap::Command {
    let cmd = clap::Command::new(leak(&verb.name)).about(summary(verb));
    let Some(spec) = &verb.spec else {
        let words = clap::Arg::new("args")
            .num_args(0..)
            .trailing_var_arg(true)
            .allow_hyphen_values(true);
        return cmd.disable_help_flag(true).arg(words);
    };
    // A name no command line could give, one given twice (or `help`, clap's own) is
    // left out: completion must never fail on what a server declared, or on a verb
    // installed before `verbs add` refused such names (clap panics on them).
    // A positional's id is its `<name>`, which no option's id (its name) or clap's own
    // (`help`) can be: `<selector>` beside `--selector` is fine. Only the last may
    // take many words, as clap requires.
    let mut seen_positional = std::collections::HashSet::new();
    let last = spec.positionals.len().saturating_sub(1);
    let positionals = spec
        .positionals
        .iter()
        .enumerate()
        .filter(move |(_, p)| !p.name.is_empty() && seen_positional.insert(p.name.as_str()))
        .map(move |(at, p)| {
            let arg = clap::Arg::new(leak(&format!("<{}>", p.name)))
                .value_name(leak(&p.name))
                .help(p.help.clone());
            let arg = if p.repeatable && at == last {
                arg.num_args(1..)
            } else {
                arg
            };
            with_values(arg, p.kind, &p.choices)
        });
    let mut seen = std::collections::HashSet::from(["help"]);
    let options = spec
        .options
        .iter()
        .filter(move |o| usable_name(&o.name) && seen.insert(o.name.as_str()))
        .map(|o| {
            let arg = clap::Arg::new(leak(&o.name))
                .long(leak(&o.name))
                .help(o.help.clone());
            // A repeatable option is offered again once given; any other is not.
            if o.takes_value() {
                let action = if o.repeatable {
                    clap::ArgAction::Append
                } else {
                    clap::ArgAction::Set
                };
                with_values(arg.num_args(1).action(action), o.kind, &o.choices)
            } else if o.repeatable {
                arg.num_args(0).action(clap::ArgAction::Count)
            } else {
                arg.num_args(0).action(clap::ArgAction::SetTrue)
            }
        });
    cmd.args(positionals).args(options)
}

/// A verb's summary as a candidate's help shows it, what would drive the terminal
/// escaped, and what it shows as nothing (a zero-width space: a server's description
/// may hold one), as a verb's help does.
fn summary(verb: &Completable) -> String {
    let shown = mur_core::text::escape_format(&verb.summary);
    mur_core::text::escaped(&shown, mur_core::text::unprintable).into_owned()
}

/// What a value completes to: its choices, or file names for a path.
fn with_values(arg: clap::Arg, kind: ValueKind, choices: &[String]) -> clap::Arg {
    match kind {
        ValueKind::Choice if !choices.is_empty() => {
            let choices: Vec<&'static str> = choices.iter().map(|c| leak(c)).collect();
            arg.value_parser(clap::builder::PossibleValuesParser::new(choices))
        }
        ValueKind::OutputPath => arg.value_hint(clap::ValueHint::FilePath),
        _ => arg,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mur_verbs::Param;

    fn entry(name: &str, spec: Option<VerbSpec>) -> Completable {
        Completable {
            name: name.to_owned(),
            summary: "s".to_owned(),
            spec,
            tool: name.to_owned(),
            unbuilt: false,
        }
    }

    /// `tools` as completion reads a session's list.
    fn glance(tools: &[serde_json::Value]) -> Glance {
        Glance::of_texts(&mur_verbs::tools::ToolTexts::of(tools))
    }

    /// The names of `tools`, as `call` completes them.
    fn names_of(tools: &[serde_json::Value]) -> Vec<Option<&str>> {
        tools.iter().map(|tool| tool["name"].as_str()).collect()
    }

    /// A derived verb whose tool an installed verb calls is no candidate, as the catalog
    /// lists none, but the line that names it runs it: its options complete.
    #[test]
    fn a_derived_verb_a_named_verb_covers_completes_where_the_line_names_it() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": { "selector": { "type": "string" } }
        });
        let tools = [serde_json::json!({ "name": "waitFor", "inputSchema": schema })];
        let wait = Completable {
            tool: "waitFor".to_owned(),
            ..entry("wait", None)
        };
        let installed = [wait];
        let line = |words: &[&str]| words.iter().map(OsString::from).collect::<Vec<_>>();
        let words = ["mur", "devtools", "wait-for", "--"];
        let built = derived(&glance(&tools), &installed, wanted(&line(&words), 3));
        let offered = candidates(&[&installed[..], &built].concat(), &words);
        assert!(offered.contains(&"--selector".to_owned()), "{offered:?}");
        let words = ["mur", "devtools", "wai"];
        let built = derived(&glance(&tools), &installed, wanted(&line(&words), 2));
        assert!(built.is_empty(), "a candidate beside `wait`");
    }

    /// What completion offers for the last of `words`, the options given once left out.
    fn candidates(verbs: &[Completable], words: &[&str]) -> Vec<String> {
        let names: Vec<String> = verbs.iter().map(|v| v.name.clone()).collect();
        let cmd = tree(verbs, &names, &[]);
        let typed: Vec<OsString> = words.iter().map(OsString::from).collect();
        let drop = given_once(&cmd, &typed, typed.len() - 1);
        let mut offered = completed(cmd, words);
        offered.retain(|o| !drop.contains(o));
        offered
    }

    /// What `cmd` completes the last of `words` to.
    fn completed(mut cmd: clap::Command, words: &[&str]) -> Vec<String> {
        let words: Vec<OsString> = words.iter().map(OsString::from).collect();
        let index = words.len() - 1;
        clap_complete::engine::complete(&mut cmd, words, index, None)
            .expect("completes")
            .iter()
            .map(|c| c.get_value().to_string_lossy().into_owned())
            .collect()
    }

    /// The session a line chooses is the one its run would reach: none where the run
    /// refuses two `--project`s before the verb (completion took the last), the one
    /// after the verb where one is there too (the run takes that).
    #[test]
    fn two_projects_before_the_verb_choose_no_session() {
        let chosen = |line: &[&str]| {
            let words: Vec<OsString> = line.iter().map(OsString::from).collect();
            host_args(&words, words.len()).project
        };
        assert_eq!(
            chosen(&["mur", "devtools", "--project", "a", "--project=b", "tree"]),
            None
        );
        assert_eq!(
            chosen(&[
                "mur",
                "devtools",
                "--timeout",
                "9",
                "--project",
                "a",
                "tree"
            ]),
            Some("a".into())
        );
        assert_eq!(
            chosen(&[
                "mur",
                "devtools",
                "--project",
                "a",
                "tree",
                "--project",
                "b"
            ]),
            None
        );
    }

    /// A verb declaring names clap refuses (installed before `verbs add` refused them,
    /// or a server's) is completed without them, and completion of anything else
    /// still works: clap's checks panicked on `--clear` as a long name.
    #[test]
    fn names_no_command_line_could_give_are_left_out_of_completion() {
        let flag = |name: &str| Param::new(name, "", ValueKind::Flag, "");
        let many = |name: &str| Param {
            repeatable: true,
            ..flag(name)
        };
        let spec = VerbSpec {
            positionals: vec![
                many("files"),
                flag("text"),
                flag("text"),
                flag("a b"),
                flag("keep"),
                flag("help"),
            ],
            options: vec![
                flag("--clear"),
                flag(""),
                flag("keep"),
                flag("keep"),
                flag("help"),
            ],
            ..VerbSpec::default()
        };
        let verbs = [entry("jot", Some(spec))];
        let cmd = command_tree::built(with_verbs(cli::command(), &verbs));
        cmd.clone().debug_assert();
        // The verb's usable option and help, then the host's options.
        let options = completed(cmd.clone(), &["mur", "devtools", "jot", "x", "--"]);
        assert_eq!(
            options[..3],
            ["--keep", "--help", "--endpoint"],
            "{options:?}"
        );
        assert_eq!(
            candidates(&verbs, &["mur", "devtools", "verbs", "remove", "j"]),
            ["jot"]
        );
    }

    #[test]
    fn verbs_remove_and_info_complete_the_installed_verbs() {
        let verbs = [entry("tree", None), entry("click", None)];
        for command in ["remove", "info"] {
            let names = candidates(&verbs, &["mur", "devtools", "verbs", command, "cl"]);
            assert_eq!(names, ["click"], "{command}");
        }
    }

    #[test]
    fn installed_verbs_and_their_own_options_complete() {
        let view = Param {
            name: "view".into(),
            value_name: "V".into(),
            kind: ValueKind::Choice,
            help: "how much".into(),
            required: false,
            repeatable: false,
            choices: vec!["summary".into(), "full".into()],
        };
        let spec = VerbSpec {
            options: vec![view],
            ..VerbSpec::default()
        };
        let verbs = [entry("tree", Some(spec)), entry("old", None)];
        let names = candidates(&verbs, &["mur", "devtools", "tr"]);
        assert_eq!(names, ["tree"]);
        let options = candidates(&verbs, &["mur", "devtools", "tree", "--"]);
        assert!(options.contains(&"--view".to_owned()), "{options:?}");
        assert!(!options.contains(&"--version".to_owned()), "{options:?}");
        let words = candidates(&verbs, &["mur", "devtools", "old", "--"]);
        assert!(!words.contains(&"--version".to_owned()), "{words:?}");
        assert_eq!(
            candidates(&verbs, &["mur", "devtools", "tree", "--view", ""]),
            ["summary", "full"]
        );
        assert!(candidates(&verbs, &["mur", "devtools", "o"]).contains(&"old".to_owned()));
    }

    /// An option the command line already gives is not offered again, wherever it was
    /// given (`--selector X`, `--selector=X`, `-v`, a host option before the verb); a
    /// repeatable one is (`--answer`, a verb's own); and what follows a given option
    /// still completes as before.
    #[test]
    fn an_option_given_once_is_not_offered_again_a_repeatable_one_is() {
        let option = |name: &str, kind| Param::new(name, "V", kind, "");
        let view = Param {
            choices: vec!["summary".into(), "full".into()],
            ..option("view", ValueKind::Choice)
        };
        let tag = Param {
            repeatable: true,
            ..option("tag", ValueKind::Text)
        };
        let spec = VerbSpec {
            options: vec![
                option("selector", ValueKind::Selector),
                view,
                tag,
                option("timeout", ValueKind::Milliseconds),
            ],
            ..VerbSpec::default()
        };
        let verbs = [entry("tree", Some(spec))];
        let offered = |words: &[&str]| {
            let words = [&["mur", "devtools", "tree"][..], words, &["--"]].concat();
            candidates(&verbs, &words)
        };
        let all = offered(&[]);
        for option in [
            "--selector",
            "--view",
            "--tag",
            "--pretty",
            "--verbose",
            "--answer",
        ] {
            assert!(all.contains(&option.to_owned()), "{option}: {all:?}");
        }
        let left_out = |words: &[&str], gone: &[&str]| {
            let now = offered(words);
            let expected: Vec<&String> =
                all.iter().filter(|o| !gone.contains(&o.as_str())).collect();
            assert_eq!(now.iter().collect::<Vec<_>>(), expected, "{words:?}");
        };
        left_out(&["--selector", "#x"], &["--selector"]);
        left_out(
            &["--selector=#x", "--view", "full"],
            &["--selector", "--view"],
        );
        left_out(
            &["-v", "--pretty", "--tag", "a"],
            &["--verbose", "--pretty"],
        );
        left_out(&["--answer", "k=v", "--tag", "a", "--tag", "b"], &[]);
        left_out(&["--timeout", "5"], &["--timeout"]);
        // A host option given before the verb is given to it too; the host's `--timeout`
        // there is not the verb's own, which is still to give.
        let before = candidates(
            &verbs,
            &[
                "mur",
                "devtools",
                "--pretty",
                "--timeout",
                "5",
                "tree",
                "--",
            ],
        );
        assert!(!before.contains(&"--pretty".to_owned()), "{before:?}");
        assert!(before.contains(&"--timeout".to_owned()), "{before:?}");
        // Not even when what is typed matches it alone; the word itself is no given one.
        let typed = |words: &[&str]| {
            candidates(&verbs, &[&["mur", "devtools", "tree"][..], words].concat())
        };
        assert_eq!(typed(&["--pretty", "--pre"]), Vec::<String>::new());
        assert_eq!(typed(&["--pre"]), ["--pretty"]);
        assert_eq!(typed(&["--pretty"]), ["--pretty"]);
        // The value of an option after a given one still completes.
        assert_eq!(
            candidates(
                &verbs,
                &["mur", "devtools", "tree", "--selector", "#x", "--view", ""]
            ),
            ["summary", "full"]
        );
        // A host command's own: `call --args` once, `--out` still to give.
        let call = candidates(
            &[],
            &["mur", "devtools", "call", "ping", "--args", "{}", "--"],
        );
        assert!(!call.contains(&"--args".to_owned()), "{call:?}");
        assert!(call.contains(&"--out".to_owned()), "{call:?}");
    }

    /// The options left out are taken out of what the shell's script reads, in its
    /// format: values alone, or with a tab and help, one a line or between `_CLAP_IFS`.
    #[test]
    fn left_out_options_are_taken_out_of_each_shells_answer() {
        let drop = HashSet::from(["--args".to_owned()]);
        assert_eq!(
            without("bash", b"--out\n--args\n--help", &drop),
            b"--out\n--help"
        );
        assert_eq!(
            without("fish", b"--args\tArguments\n--out\tWrite\n", &drop),
            b"--out\tWrite\n"
        );
        assert_eq!(without("fish", b"--args\tArguments\n", &drop), b"");
        assert_eq!(without("bash", b"--args", &drop), b"");
        assert_eq!(without("bash", b"--out", &HashSet::new()), b"--out");
    }

    #[test]
    fn call_completes_the_session_tool_names() {
        let tools = [
            serde_json::json!({ "name": "clickElement", "inputSchema": { "type": "object" } }),
            serde_json::json!({ "name": "clear-todos", "inputSchema": { "type": "object" } }),
        ];
        let cmd = with_tool_names(command_tree::built(cli::command()), &names_of(&tools));
        let names = completed(cmd, &["mur", "devtools", "call", "cl"]);
        assert_eq!(names, ["clickElement", "clear-todos"]);
    }

    /// `call NAME` sends a NAME with a `/` as a method, takes `--help` for its option and
    /// shows a name of blanks as nothing: such a tool (reached with `call tools/call`) is
    /// no candidate of `call`; a tool `ping` is the method's, offered once.
    #[test]
    fn call_offers_no_tool_name_it_would_not_reach() {
        let tools: Vec<serde_json::Value> = [
            "ui/click",
            "--help",
            " ",
            "\u{3164}",
            "ping",
            "tools/list",
            "clickElement",
        ]
        .iter()
        .map(|name| serde_json::json!({ "name": name, "inputSchema": { "type": "object" } }))
        .collect();
        let cmd = with_tool_names(command_tree::built(cli::command()), &names_of(&tools));
        let mut names = completed(cmd.clone(), &["mur", "devtools", "call", ""]);
        names.retain(|name| !name.starts_with('-'));
        assert_eq!(names, ["clickElement", "ping", "tools/list"]);
        assert!(completed(cmd, &["mur", "devtools", "call", "ui"]).is_empty());
    }

    /// A name with a newline was two candidates, one with an escape or a bell wrote it
    /// to the terminal: such verbs and tools are left out, the others still complete.
    #[test]
    fn names_with_control_characters_are_no_candidates() {
        let tools: Vec<serde_json::Value> = ["new\nline", "new line", "bell\u{7}", "bell", "-"]
            .iter()
            .map(|name| serde_json::json!({ "name": name, "inputSchema": { "type": "object" } }))
            .collect();
        let verbs = derived(&glance(&tools), &[], |_| Need::Options);
        let names: Vec<&str> = verbs.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["new line", "bell"]);
        let cmd = with_tool_names(command_tree::built(cli::command()), &names_of(&tools));
        let names = completed(cmd, &["mur", "devtools", "call", "be"]);
        assert_eq!(names, ["bell"]);
    }

    /// Completion takes the verb the line names and those the word completed begins,
    /// not one verb per tool of the session (50,000 tools: 19 s and 890 MB a <Tab>).
    #[test]
    fn only_the_derived_verbs_the_line_can_use_are_built() {
        let tools: Vec<serde_json::Value> = ["tool1", "tool12", "tool2", "other"]
            .iter()
            .map(|name| serde_json::json!({ "name": name, "inputSchema": { "type": "object" } }))
            .collect();
        let built = |words: &[&str]| {
            let words: Vec<OsString> = words.iter().map(OsString::from).collect();
            let current = words.len() - 1;
            let verbs = derived(&glance(&tools), &[], wanted(&words, current));
            verbs.into_iter().map(|v| v.name).collect::<Vec<_>>()
        };
        assert_eq!(built(&["mur", "devtools", "tool1"]), ["tool1", "tool12"]);
        assert_eq!(built(&["mur", "devtools", "tool2", "--"]), ["tool2"]);
        assert_eq!(built(&["mur", "devtools", ""]).len(), 4);
    }

    /// Where the word completed is the verb, no derived verb is built: a candidate is
    /// its name and summary, read off its tool's entry, and no command of clap's tree
    /// (every verb's options built for the list took 297 s and 900 MB a <Tab> for 50,000
    /// tools; a command each, without them, 18 s and 870 MB). The verb the line names is
    /// built, its options to complete. What the shell is offered, help, order and all, is
    /// what it was with every verb built.
    #[test]
    fn candidates_for_the_verb_are_named_without_building_their_verbs() {
        use serde_json::json;
        let schema = json!({ "type": "object",
            "properties": { "level": { "type": "integer" }, "mode": { "enum": ["a", "b"] } } });
        let tool = |name: &str, more: serde_json::Value| {
            let mut tool = json!({ "name": name, "inputSchema": schema });
            let more = more.as_object().cloned().unwrap_or_default();
            tool.as_object_mut().expect("an object").extend(more);
            tool
        };
        let tools = [
            tool("tool1", json!({ "description": "Does one. And more." })),
            tool("toolTwelve", json!({ "title": "Twelfth" })),
            tool(
                "tool2",
                json!({ "annotations": { "title": "Second" }, "description": " " }),
            ),
            tool(
                "other",
                json!({ "description": "Other\u{1b}[31m\nline two" }),
            ),
            tool("tools", json!({ "description": "Its own" })),
        ];
        let installed = [entry("tools", None), entry("tooled", None)];
        let line = |words: &[&str]| words.iter().map(OsString::from).collect::<Vec<_>>();
        // The verbs named, and those built, completing `words` at `current`.
        let derived_for = |words: &[&str], current: usize| {
            derived(&glance(&tools), &installed, wanted(&line(words), current))
        };
        let built = |words: &[&str]| {
            let verbs = derived_for(words, words.len() - 1);
            let named = verbs
                .iter()
                .map(|v| v.name.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            let built = verbs
                .iter()
                .filter(|v| v.spec.is_some())
                .map(|v| v.name.as_str());
            (named, built.collect::<Vec<_>>().join(" "))
        };
        let named = |named: &str, built: &str| (named.to_owned(), built.to_owned());
        assert_eq!(
            built(&["mur", "devtools", ""]),
            named("tool1 tool-twelve tool2 other", "")
        );
        assert_eq!(built(&["mur", "devtools", "tool1"]), named("tool1", ""));
        assert_eq!(
            built(&["mur", "devtools", "tool2", "--"]),
            named("tool2", "tool2")
        );
        // Each candidate, help and all, as the shell is offered it.
        let offered = |verbs: &[Completable], words: &[&str], current: usize| {
            let verbs = [&installed[..], verbs].concat();
            let mut cmd = tree(&verbs, &[], &names_of(&tools));
            let candidates = clap_complete::engine::complete(&mut cmd, line(words), current, None);
            candidates
                .expect("completes")
                .iter()
                .map(|c| {
                    let help = c.get_help().map(|h| h.to_string()).unwrap_or_default();
                    format!("{}\t{help}", c.get_value().to_string_lossy())
                })
                .collect::<Vec<_>>()
        };
        let whole = derived(&glance(&tools), &installed, |_| Need::Options);
        assert!(whole.iter().all(|v| v.spec.is_some()));
        for (words, current) in [
            (&["mur", "devtools", ""][..], 2),
            (&["mur", "devtools", "tool"], 2),
            (&["mur", "devtools", "o"], 2),
            // The verb the line names after the word completed is built, in its place.
            (&["mur", "devtools", "t", "tool2"], 2),
            (&["mur", "devtools", "tool2", "--mode", ""], 4),
        ] {
            let verbs = derived_for(words, current);
            assert_eq!(
                offered(&verbs, words, current),
                offered(&whole, words, current),
                "{words:?}"
            );
        }
        assert_eq!(
            offered(&whole, &["mur", "devtools", "t"], 2),
            [
                "tools\ts",
                "tooled\ts",
                "tool1\tDoes one",
                "tool-twelve\tTwelfth",
                "tool2\tSecond"
            ]
        );
    }

    /// A tool whose verb name holds a character one cannot see (a zero-width space, a
    /// byte-order mark, a joiner: Unicode's format characters, as a control character
    /// before) is no candidate, as it is no verb: one showed as another name, or as
    /// nothing. A tool listed twice is one candidate, verb and `call`'s.
    #[test]
    fn invisible_names_are_no_candidates_and_a_tool_listed_twice_is_one() {
        let tools: Vec<serde_json::Value> = [
            "\u{200b}",
            "zero\u{200b}width",
            "zero width",
            "\u{feff}bom",
            "join\u{200d}",
            "clickElement",
            "clickElement",
        ]
        .iter()
        .map(|name| serde_json::json!({ "name": name, "inputSchema": { "type": "object" } }))
        .collect();
        let verbs = derived(&glance(&tools), &[], |_| Need::Name);
        let names: Vec<&str> = verbs.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["zero width", "bom", "join", "click-element"]);
        let cmd = with_tool_names(command_tree::built(cli::command()), &names_of(&tools));
        let mut names = completed(cmd, &["mur", "devtools", "call", ""]);
        names.retain(|name| !name.starts_with('-'));
        assert_eq!(names, ["zero width", "clickElement", "ping", "tools/list"]);
    }

    #[test]
    fn a_verb_named_like_a_host_verb_is_not_added_twice() {
        with_verbs(cli::command(), &[entry("call", None)]).debug_assert();
    }
}
