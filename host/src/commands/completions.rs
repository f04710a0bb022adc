//! Shell completion that never goes stale. `mur completions <shell>` prints a
//! small script that, at each <Tab>, asks `mur` itself (`COMPLETE=<shell> mur
//! -- <words>`) for candidates; [`answer`] replies from the command tree with
//! every installed verb and each verb's own options, read from the verb index
//! then and there — so a verb added after the script was installed completes
//! at once. The protocol is clap_complete's (`unstable-dynamic`).

use std::ffi::OsString;

use clap_complete::env::Shells;

use crate::cli;
use crate::output;
use mur_core::{Error, Result};
use std::time::Duration;

use mur_core::Settings;
use mur_verbs::derived::Derived;
use mur_verbs::{ValueKind, VerbHost, VerbSpec, usable_name};

use super::derived::ToolList;
use crate::invoke::Session;

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
    let tools = session_tools();
    verbs.extend(derived(&tools, &verbs));
    let cmd = with_installed_names(built(with_verbs(cli::command(), &verbs)), &names);
    let mut cmd = with_tool_names(cmd, &tools);
    let cwd = std::env::current_dir().ok();
    let mut candidates = Vec::new();
    completer
        .write_complete(&mut cmd, words, cwd.as_deref(), &mut candidates)
        .map_err(|e| Error::internal(format!("cannot complete: {e}")))?;
    output::stdout(&candidates)
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
struct Completable {
    name: String,
    summary: String,
    spec: Option<VerbSpec>,
    /// The tool it calls: an installed verb's hides its tool's derived verb.
    tool: String,
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
        })
        .collect()
}

/// The tools of the session found by discovery (quietly, briefly), from its
/// cached tool list when warm; none without a session.
fn session_tools() -> Vec<serde_json::Value> {
    let settings = Settings {
        timeout: SESSION_WAIT,
        ..crate::options::settings(&crate::cli::HostArgs::default())
    };
    let tools = crate::invoke::block_on(async {
        let session = Session::resolve_reporting(&settings, &mut mur_discovery::Silent).await?;
        ToolList::open(&session).all(&session, &settings).await
    });
    match tools {
        Ok(Ok(tools)) => tools,
        _ => Vec::new(),
    }
}

/// The verbs derived from the session's `tools` that no installed verb hides, by
/// its name or by calling the same tool (`wait` hides `wait-for`): the verbs
/// `catalog` lists.
fn derived(tools: &[serde_json::Value], installed: &[Completable]) -> Vec<Completable> {
    Derived::all(tools)
        .into_iter()
        .map(|(verb, _)| verb)
        .filter(|verb| {
            !installed
                .iter()
                .any(|i| i.name == verb.name || i.tool == verb.tool)
        })
        .map(|verb| Completable {
            name: verb.name,
            summary: verb.summary,
            spec: Some(verb.spec),
            tool: verb.tool,
        })
        .collect()
}

/// The command tree with each verb under `devtools`, with its declared
/// positionals and options.
fn with_verbs(cmd: clap::Command, verbs: &[Completable]) -> clap::Command {
    cmd.mut_subcommand("devtools", |mut devtools| {
        for verb in verbs {
            if devtools.find_subcommand(&verb.name).is_none() {
                devtools = devtools.subcommand(verb_command(verb));
            }
        }
        devtools
    })
}

/// `cmd` built: every subcommand defined (some are defined only when built).
fn built(mut cmd: clap::Command) -> clap::Command {
    cmd.build();
    cmd
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
fn with_tool_names(cmd: clap::Command, tools: &[serde_json::Value]) -> clap::Command {
    if tools.is_empty() {
        return cmd;
    }
    let names: Vec<&'static str> = tools
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .chain(["ping", "tools/list"])
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
    // A verb takes `--help`, never `--version` (the tree's own, propagated).
    let summary = mur_core::text::escaped(&verb.summary, mur_core::text::unprintable);
    let cmd = clap::Command::new(leak(&verb.name))
        .about(summary.into_owned())
        .disable_version_flag(true);
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
            if o.takes_value() {
                with_values(arg.num_args(1), o.kind, &o.choices)
            } else {
                arg.num_args(0).action(clap::ArgAction::SetTrue)
            }
        });
    cmd.args(positionals).args(options)
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
        }
    }

    fn candidates(verbs: &[Completable], words: &[&str]) -> Vec<String> {
        let names: Vec<String> = verbs.iter().map(|v| v.name.clone()).collect();
        let cmd = with_installed_names(built(with_verbs(cli::command(), verbs)), &names);
        completed(cmd, words)
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
        let cmd = built(with_verbs(cli::command(), &verbs));
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

    #[test]
    fn call_completes_the_session_tool_names() {
        let tools = [
            serde_json::json!({ "name": "clickElement", "inputSchema": { "type": "object" } }),
            serde_json::json!({ "name": "clear-todos", "inputSchema": { "type": "object" } }),
        ];
        let cmd = with_tool_names(built(cli::command()), &tools);
        let names = completed(cmd, &["mur", "devtools", "call", "cl"]);
        assert_eq!(names, ["clickElement", "clear-todos"]);
    }

    #[test]
    fn a_verb_named_like_a_host_verb_is_not_added_twice() {
        with_verbs(cli::command(), &[entry("call", None)]).debug_assert();
    }
}
