//! `mur devtools verbs list|add|remove|info|new|prune`: the verb store, printed, and the
//! verbs the usage logs judge losers removed.

use std::path::Path;

use mur_core::{Error, Result, Settings};
use mur_verbs::manage::{self, Added, Replaced};
use mur_verbs::{VerbDirs, VerbHost, scaffold};

use crate::call_line::{Arguments, call_line};
use crate::cli::{self, VerbsCommand};
use crate::verb_help::with_host_options;
use crate::{judging, output, verb_list};

/// How long `verbs info` and `verbs add` look for a session to speak of: longer than
/// completion's half second (a typed command can wait, and a loaded machine would
/// miss a live session and say less), short of the 10 s a call waits, as nothing the
/// user asked for depends on it.
const SESSION_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Runs one `verbs` subcommand and prints what it found or did. `verbs new` always asks
/// the session for its tools (up to [`SESSION_WAIT`]), `-q` or not: the new verb is made
/// to call the tool of its name.
pub fn run(cmd: &VerbsCommand, settings: &Settings) -> Result<()> {
    if let VerbsCommand::New { name, dir, lang } = cmd {
        // The session's tool of that name, which the new verb is made to call.
        let tools = crate::session_tools::quietly(settings, SESSION_WAIT);
        let tool = crate::tools::pick(&tools, name).and_then(|(_, tool)| scaffold::Tool::of(&tool));
        let reserved = cli::host_verbs();
        let created = scaffold::new_verb(
            name,
            (*lang).into(),
            dir.as_deref(),
            &reserved,
            tool.as_ref(),
        )?;
        output::stdout(format!("{}\n", created.root.display()).as_bytes())?;
        output::diagnostic(&created.next_steps);
        let installed = VerbDirs::from_env().and_then(|dirs| manage::list(&dirs));
        let installed = installed.unwrap_or_default();
        if let Some(note) = near_installed(name, &installed).filter(|_| !settings.quiet) {
            output::diagnostic(&note);
        }
        // A verb installed by that name took the word already (the warning above says
        // the next steps replace it).
        if !settings.quiet
            && !verb_list::taken(name, &installed)
            && let Some(note) = word_taken(name, None, &tools, settings)
        {
            output::diagnostic(&note);
        }
        return Ok(());
    }
    let dirs = VerbDirs::from_env()?;
    match cmd {
        VerbsCommand::List { all: true, .. } => crate::invoke::block_on(list_all(settings))?,
        VerbsCommand::List { json, .. } => list(&dirs, *json, settings.pretty),
        VerbsCommand::Add { files, force } => {
            let quiet = settings.quiet;
            let say = |file: &Path, bytes: usize| crate::compiling::say(file, bytes, quiet);
            let host_verbs = cli::host_verbs();
            let added = manage::add_observed(&dirs, files, *force, &host_verbs, &say)?;
            output::text(&added_lines(&added))?;
            if quiet {
                for warning in quiet_warnings(&dirs, &added, settings) {
                    output::diagnostic(&warning);
                }
                return Ok(());
            }
            let tools = session_tools(&added, settings);
            let verbs = with_hints_learned(&dirs, &tools);
            let notes = session_notes(&dirs, &added, &host_verbs, &tools, verbs.as_ref(), settings);
            for note in renamed(&added).into_iter().chain(notes) {
                output::diagnostic(&note);
            }
            Ok(())
        }
        VerbsCommand::Remove { names } => {
            let removed = manage::remove_all(&dirs, names)?;
            let lines: String = removed
                .iter()
                .map(|name| format!("removed verb `{name}`\n"))
                .collect();
            output::stdout(lines.as_bytes())
        }
        VerbsCommand::Info { name, json } => info(&dirs, name, *json, settings),
        VerbsCommand::Prune(args) => prune(args, settings.quiet),
        VerbsCommand::New { .. } => Ok(()),
    }
}

/// The note that new verb `name` is one slip of the keyboard from an installed verb, the
/// one an unknown verb's "did you mean" would name as sure ([`mur_core::caseless_slip`],
/// its rule): once it is added, a slip runs one for the other, where it was refused with
/// the right word. `None` when `name` is installed itself (the scaffold's warning says
/// that the next steps replace it) or is no slip from any.
fn near_installed(name: &str, installed: &[mur_verbs::Entry]) -> Option<String> {
    if installed.iter().any(|e| e.name == name) {
        return None;
    }
    let near = mur_core::caseless_slip(name, installed.iter().map(|e| e.name.as_str()))?;
    Some(format!(
        "note: `{name}` is one slip from the installed verb `{near}`: once this verb is \
         added, a slip of the keyboard runs one for the other (a name further from \
         `{near}` keeps them apart)"
    ))
}

fn list(dirs: &VerbDirs, json: bool, pretty: bool) -> Result<()> {
    let (verbs, broken) = manage::listing(dirs)?;
    // One verb whose index entry is broken is skipped, said, with its repair: the
    // others are listed (review 408: the whole list failed, exit 7).
    skipped(&broken);
    if json {
        let host = VerbHost::open_in(dirs.clone()).ok();
        let listed = verbs
            .iter()
            .map(|entry| entry_json(entry, host.as_ref()))
            .collect::<Result<Vec<_>>>()?;
        return output::json(&serde_json::Value::Array(listed), pretty);
    }
    if verbs.is_empty() {
        output::diagnostic(&format!(
            "no verbs are installed in `{}`",
            dirs.verbs.display()
        ));
        output::diagnostic(
            "hint: install some with `mur devtools verbs add FILE…` (components or data verbs)",
        );
        return Ok(());
    }
    // The summary as the catalog's table writes it (`list_all` too).
    let rows: Vec<Vec<String>> = verbs
        .iter()
        .map(|e| {
            let summary = mur_core::text::escape_format(&e.summary).into_owned();
            vec![e.name.clone(), e.tool.clone(), summary]
        })
        .collect();
    output::stdout(output::table(&["NAME", "TOOL", "SUMMARY"], &rows).as_bytes())
}

/// `mur devtools verbs list --all`: installed verbs and the session's derived
/// ones (when a session answers), with their kinds.
async fn list_all(settings: &Settings) -> Result<()> {
    let (installed, broken) = manage::listing(&VerbDirs::from_env()?)?;
    skipped(&broken);
    let offered = verb_list::offered(settings, false).await?;
    let rows: Vec<Vec<String>> = verb_list::items(&installed, offered.as_ref())
        .into_iter()
        .filter(|i| i.kind != "host")
        .map(|i| {
            vec![
                i.name,
                i.kind.to_owned(),
                i.tool
                    .as_deref()
                    .map(verb_list::written)
                    .unwrap_or_default()
                    .into_owned(),
                // As the catalog's table writes it: what a terminal shows as nothing (a
                // zero-width space, a tag) written out.
                mur_core::text::escape_format(&i.summary).into_owned(),
            ]
        })
        .collect();
    output::stdout(output::table(&["NAME", "KIND", "TOOL", "SUMMARY"], &rows).as_bytes())
}

/// A warning for each verb a listing skips, its index entry broken, with its repair.
fn skipped(broken: &[manage::Broken]) {
    for verb in broken {
        output::notice(&verb.warning());
    }
}

/// `verbs prune`: the losers of `usage report` given the same judging flags (`--unused-for`,
/// `--until`, the rates, `--agent`, the logs `--server-log` names and `--only-named`: the
/// same criteria, so the same list), removed with `--yes`, else listed as the commands
/// that would remove them. While recording is off, calls made since are in no record: no
/// verb is judged unused (stderr says why, as for any window a time recording was off
/// overlaps), and `--yes` is refused unless `--while-off` insists — unless mur's own log
/// is not read (`--only-named`). Its notes are left out under `quiet` (`-q`), as every
/// command's are; its warnings stay.
fn prune(args: &cli::PruneArgs, quiet: bool) -> Result<()> {
    let (judged_by, yes) = (&args.judging, args.yes);
    let note = |why: &str| {
        if !quiet {
            output::diagnostic(&format!("note: {why}"));
        }
    };
    let dir = judging::usage_dir()?;
    if !dir.enabled() && yes && !args.while_off && !judged_by.only_named {
        return Err(Error::usage(
            "usage recording is off: the calls since it went off are in no record, so nothing is removed",
        )
        .with_hint(
            "`mur devtools usage on` turns it on (prune once calls are recorded again), \
             or `--while-off` removes them all the same",
        ));
    }
    // The verb index, read once: the verbs judged, and where each came from.
    let verbs = VerbHost::open()?;
    let entries = verbs.entries();
    // One read serves both the report and whether the log reaches back past
    // the window: only then can a verb be called unused over all of it. The
    // sessions' logs too, as the report reads them: their records of mur's calls
    // name the verb, and save it.
    // And the logs named (`--server-log`), as the report takes them: the same
    // records, so the same losers.
    let (records, skipped, read) = judging::read(&dir, judged_by)?;
    judging::only_verbs_notice(judged_by, entries);
    let criteria = judging::criteria(judged_by, None, &dir, &records, &read, entries);
    let report = mur_usage::report(&records, skipped, &criteria);
    judging::skipped_notice(&report, &read.skipped_in);
    judging::not_covered_notice(&report, criteria.agent.as_deref(), true, false, quiet);
    // The window lengthened for a time recording was off in it, as the report says under
    // its losers: these are judged over it too.
    if let Some(why) = report.recording_was_off() {
        note(&why);
    }
    // The verbs too recent to be judged unused, as the report says under its losers.
    // Information, no warning: a `note:`, as docs/usage.md says prune gives it.
    if let (true, Some(why)) = (report.window_covered, report.unused_not_judged()) {
        note(&why);
    }
    // `--only-verbs`: the installed verbs it left unjudged, as the report says them.
    if let Some(why) = report.others_not_judged() {
        note(&why);
    }
    let losers = &report.losers;
    if losers.is_empty() {
        note("no verb to prune");
        return Ok(());
    }
    let dirs = VerbDirs::from_env()?;
    let mut out = String::new();
    // Where each came from, as `verbs add` was given it: the file that brings it back.
    let sources: std::collections::HashMap<&str, &str> = entries
        .iter()
        .filter_map(|e| Some((e.name.as_str(), e.source.as_deref()?)))
        .collect();
    if yes {
        let names: Vec<String> = losers.iter().map(|l| l.verb.clone()).collect();
        manage::remove_all(&dirs, &names)?;
    }
    // The dry run's `#` reasons in one column, as a reader scans them.
    let width = losers.iter().map(|l| l.command.chars().count()).max();
    for loser in losers {
        if yes {
            let from = sources
                .get(loser.verb.as_str())
                .map(|source| format!("; it was from {}", output::line(source)))
                .unwrap_or_default();
            out.push_str(&format!(
                "removed verb `{}` ({}{from})\n",
                loser.verb, loser.reason
            ));
        } else {
            let pad = width.unwrap_or(0) - loser.command.chars().count();
            let pad = " ".repeat(pad);
            out.push_str(&format!("{}{pad}    # {}\n", loser.command, loser.reason));
        }
    }
    output::stdout(out.as_bytes())?;
    // What the listing above is, no warning: left out under `-q` as the notes are.
    if !yes && !quiet {
        output::diagnostic(
            "a dry run: nothing was removed (`--yes` removes them; `verbs add` brings one back)",
        );
    }
    Ok(())
}

fn info(dirs: &VerbDirs, name: &str, json: bool, settings: &Settings) -> Result<()> {
    let (entry, file, compiled) = match manage::info(dirs, name)? {
        Ok(found) => found,
        Err(missing) => {
            return Err(derived_instead(dirs, name, settings).unwrap_or_else(|| missing.into()));
        }
    };
    // A data verb is read, not compiled: it has no native code.
    let is_data = entry.interface == mur_verbs::data::INTERFACE;
    let verbs = VerbHost::open_in(dirs.clone()).ok();
    if json {
        let mut value = entry_json(&entry, verbs.as_ref())?;
        if !is_data {
            value["compiledBytes"] = compiled.into();
        }
        return output::json(&value, settings.pretty);
    }
    let unknown = || "unknown".to_owned();
    let mut rows = vec![
        ("name", entry.name.clone()),
        ("tool", entry.tool.clone()),
        ("summary", entry.summary.clone()),
        ("interface", interface(&entry.interface)),
        ("language", entry.language.clone().unwrap_or_else(unknown)),
        ("source", entry.source.clone().unwrap_or_else(unknown)),
        ("file", file.display().to_string()),
        ("sha256", entry.sha256.clone()),
        ("size", format!("{} bytes", entry.size)),
        ("compiled", compiled_text(compiled)),
        ("added", entry.added_at.clone()),
    ];
    if is_data {
        rows.retain(|(label, _)| *label != "compiled");
    }
    // The declared wait shapes every call (the host lowers it to the `--timeout`):
    // shown after the tool, where an author looks when a call goes wrong.
    if let Some(waits) = entry.spec.as_ref().and_then(|spec| spec.waits.as_ref()) {
        rows.insert(2, ("waits", waits_text(waits)));
    }
    let mut text: String = rows
        .iter()
        // One line each, whatever a summary holds (`key: value` stays readable).
        .map(|(label, value)| format!("{:<10} {}\n", format!("{label}:"), output::line(value)))
        .collect();
    text += &format!("\n{}", help_now(&entry, verbs.as_ref()));
    if !text.ends_with('\n') {
        text.push('\n');
    }
    output::text(&text)
}

/// `verbs info NAME` of no installed verb, where NAME is a tool of the session found
/// (quietly and briefly, by the discovery `mur devtools` does, through the cached tool
/// list), or its derived verb: said, with the command that shows that verb, where "not
/// installed" alone sent the user looking for a verb to install. `None` without such a
/// session: the refusal stays as it was.
fn derived_instead(dirs: &VerbDirs, name: &str, settings: &Settings) -> Option<Error> {
    let tools = crate::session_tools::quietly(settings, SESSION_WAIT);
    let (verb, _) = crate::tools::pick(&tools, name)?;
    let installed = manage::list(dirs).unwrap_or_default();
    // A word a host command or another tool's installed verb answers runs that instead.
    let taken = |word: &str| verb_list::taken(word, &installed);
    let tool = &verb.tool;
    let reached = match [verb.name.as_str(), name].into_iter().find(|w| !taken(w)) {
        Some(word) => format!("is reached by its derived verb: `mur devtools {word} --help`"),
        None => {
            let devtools = settings.devtools_command();
            let call = call_line(&devtools, tool, Arguments::None);
            format!("is reached only as `{call}` (its verb name is taken)")
        }
    };
    let error = Error::usage(format!(
        "`{name}` is not an installed verb; the session's tool `{tool}` {reached}"
    ));
    // The verbs installed for the tool are what the catalog lists for it.
    let named: Vec<String> = installed
        .iter()
        .filter(|e| e.tool == *tool)
        .map(|e| format!("`{}`", e.name))
        .collect();
    Some(match named.as_slice() {
        [] => error,
        [one] => error.with_hint(format!("the installed verb {one} calls it too")),
        several => error.with_hint(format!(
            "the installed verbs {} call it too",
            several.join(", ")
        )),
    })
}

/// What a verb's `mur:verb-waits` section declares, in words.
fn waits_text(waits: &mur_verbs::spec::ToolWait) -> String {
    format!(
        "the tool waits on `{}` ({} ms when not sent), lowered to end within the call's `--timeout`",
        waits.argument, waits.default_ms
    )
}

/// The size of a verb's cached native code; none is cached before its first
/// call, or once the cache was cleared (it said `0 bytes (cached native code)`).
fn compiled_text(bytes: u64) -> String {
    if bytes == 0 {
        "not yet (compiled on the next call)".to_owned()
    } else {
        format!("{bytes} bytes (cached native code)")
    }
}

/// `mur:verb@0.3.0` (or the older version a verb implements), or `data (mur-verb/1)` for a data verb.
fn interface(interface: &str) -> String {
    if interface == mur_verbs::data::INTERFACE {
        format!("data ({})", mur_verbs::data::SCHEMA)
    } else {
        format!("mur:verb@{interface}")
    }
}

fn added_lines(added: &[Added]) -> String {
    added
        .iter()
        .map(|a| match a {
            Added::Installed {
                name,
                tool,
                replaced: None,
                ..
            } => format!("added verb `{name}` (tool `{tool}`)\n"),
            // Another tool: the verb a teammate calls by this name now does something else.
            Added::Installed {
                name,
                tool,
                replaced: Some(replaced),
                was_tool,
                ..
            } => {
                let was = was_tool
                    .as_ref()
                    .map_or_else(String::new, |was| format!(", was `{was}`"));
                let what = match replaced {
                    Replaced::From(source) => format!("it was from {source}"),
                    Replaced::Unknown => "it was from unknown".to_owned(),
                    Replaced::Unreadable => "its index entry was unreadable".to_owned(),
                };
                format!("replaced verb `{name}` (tool `{tool}`{was}; {what})\n")
            }
            Added::Unchanged { name } => {
                format!("verb `{name}` is already installed (unchanged)\n")
            }
            Added::Repaired { name, why } => {
                format!("repaired verb `{name}`: its installed file {why}\n")
            }
        })
        .collect()
}

/// A file installed before under another name (its verb renamed in source, rebuilt)
/// leaves that verb installed and callable: said, so that it is not forgotten, and
/// kept, as the user may want both; and so are the examples that still call the verb
/// by that name, which are the author's text, shown as written. `-q` hides them.
fn renamed(added: &[Added]) -> Vec<String> {
    added
        .iter()
        .flat_map(|a| match a {
            Added::Installed {
                name,
                earlier_names,
                stale_examples,
                ..
            } => {
                let kept = earlier_names.iter().map(|old| {
                    format!(
                        "note: `{old}` is still installed, from an earlier build of this file, \
                         which is now `{name}` (`mur devtools verbs remove {old}` removes it)"
                    )
                });
                let examples = stale_examples.iter().map(|old| {
                    format!(
                        "note: the examples in `{name}`'s help still call it `{old}`, as its \
                         file declares them: change them where its name was changed"
                    )
                });
                kept.chain(examples).collect()
            }
            Added::Unchanged { .. } | Added::Repaired { .. } => Vec::new(),
        })
        .collect()
}

/// The tools of the session a `verbs add` speaks of: looked for only when a verb was
/// installed (new, or replaced with `--force`), quietly and briefly (as `verbs info`
/// looks; no lockfile naming a live one, nothing is asked), once for all of them; none
/// else, or without a session.
fn session_tools(added: &[Added], settings: &Settings) -> Vec<serde_json::Value> {
    if !added.iter().any(|a| matches!(a, Added::Installed { .. })) {
        return Vec::new();
    }
    crate::session_tools::quietly(settings, SESSION_WAIT)
}

/// The verb store, its verbs taught their tools' hints from the session's `tools` (and
/// the index written so): a list read from the cache taught no verb its hints (only a
/// fresh one does, `ToolList::keep`), so the verbs just added would say none in their
/// help until a command read the list anew. `None` without a session (nothing to learn),
/// or when the store cannot be opened.
fn with_hints_learned(dirs: &VerbDirs, tools: &[serde_json::Value]) -> Option<VerbHost> {
    if tools.is_empty() {
        return None;
    }
    let mut verbs = VerbHost::open_in(dirs.clone()).ok()?;
    verbs.learn_hints(tools);
    Some(verbs)
}

/// What the verbs a `verbs add` installed do to the verbs of a session, its `tools`
/// ([`session_tools`]): the catalog lists one in place of its tool's derived verb
/// ([`stands_for`]); one took the word of another tool's derived verb ([`word_taken`]);
/// a data verb sends a field its tool's input schema does not list ([`unlisted_fields`],
/// read from `verbs`, the store, when a session answered). Nothing when no verb was
/// installed.
fn session_notes(
    dirs: &VerbDirs,
    added: &[Added],
    host_verbs: &[String],
    tools: &[serde_json::Value],
    verbs: Option<&VerbHost>,
    settings: &Settings,
) -> Vec<String> {
    let hiding = hiding(dirs, added, host_verbs);
    let new_words: Vec<(&str, &str)> = added
        .iter()
        .filter_map(|a| match a {
            Added::Installed {
                name,
                tool,
                replaced: None,
                ..
            } => Some((name.as_str(), tool.as_str())),
            _ => None,
        })
        .collect();
    let installed = installed_names(added);
    if installed.is_empty() {
        return Vec::new();
    }
    let mut notes = stands_for(&hiding, tools);
    notes.extend(
        new_words
            .into_iter()
            .filter_map(|(name, tool)| word_taken(name, Some(tool), tools, settings)),
    );
    if let Some(verbs) = verbs {
        notes.extend(unlisted_fields(verbs, &installed, tools));
        notes.extend(
            verbs
                .entries()
                .iter()
                .filter(|entry| installed.contains(&entry.name.as_str()))
                .filter_map(|entry| {
                    let tool = tools.iter().find(|t| t["name"] == entry.tool.as_str())?;
                    sends_nothing_listed(entry, tool)
                }),
        );
    }
    notes
}

/// The note that a component verb just installed declares params of which none is a
/// property of its `tool`'s input schema (a template's `<selector>` for a tool taking
/// `target`): most likely every call sends what the tool does not take. A param is the
/// property of its name, or of the derived verb's option of that name (`timeout-ms` for
/// `timeoutMs`); one never sent (`--timeout MS`, an output path) is none. Not for a data
/// verb ([`unlisted_fields`] says which of its fields) nor a tool of no input schema.
fn sends_nothing_listed(entry: &mur_verbs::Entry, tool: &serde_json::Value) -> Option<String> {
    use mur_verbs::ValueKind;
    if entry.interface == mur_verbs::data::INTERFACE {
        return None;
    }
    let schema = tool.get("inputSchema")?.as_object()?;
    let spec = entry.spec.as_ref()?;
    // A positional taken as an option too (`--selector S`) is declared as both: once.
    let mut params: Vec<&str> = Vec::new();
    for param in spec.positionals.iter().chain(&spec.options) {
        // The kits' own `--args JSON` (`all-args` where the verb has an `args`) is the
        // whole arguments object, not a property named `args`.
        let whole = scaffold::is_kit_whole(param);
        let sent = !whole && !matches!(param.kind, ValueKind::Milliseconds | ValueKind::OutputPath);
        if sent && !params.contains(&param.name.as_str()) {
            params.push(&param.name);
        }
    }
    let empty = serde_json::Map::new();
    let properties = schema
        .get("properties")
        .and_then(|p| p.as_object())
        .unwrap_or(&empty);
    let derived = mur_verbs::derived::Derived::from_tool(tool);
    let listed = |param: &str| {
        properties.keys().any(|property| {
            property == param
                || derived
                    .as_ref()
                    .and_then(|d| d.option_for(property))
                    .is_some_and(|option| option == param)
        })
    };
    if params.is_empty() || params.iter().any(|param| listed(param)) {
        return None;
    }
    let quoted = |names: &mut dyn Iterator<Item = &str>| -> String {
        names
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let theirs = verb_list::written(&entry.tool);
    let lists = match properties.is_empty() {
        true => "lists none".to_owned(),
        false => format!(
            "lists {}",
            quoted(&mut properties.keys().map(String::as_str))
        ),
    };
    Some(format!(
        "note: none of `{}`'s params ({}) is a property of `{theirs}`'s input schema, which \
         {lists}: the tool most likely refuses or ignores what it sends",
        entry.name,
        quoted(&mut params.into_iter())
    ))
}

/// The names of the verbs an add installed (new, or replaced with `--force`), not those it
/// found installed already.
fn installed_names(added: &[Added]) -> Vec<&str> {
    added
        .iter()
        .filter_map(|a| match a {
            Added::Installed { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect()
}

/// What `verbs add -q` says: no note, but the warnings that a data verb just installed
/// sends a field its tool's closed schema refuses ([`unlisted_fields`]), as the verb
/// fails. The session is looked for only when a data verb was installed (no other
/// verb draws a warning), and no verb is taught its tool's hints (`-q` leaves the store
/// as it was, [`with_hints_learned`]).
fn quiet_warnings(dirs: &VerbDirs, added: &[Added], settings: &Settings) -> Vec<String> {
    let installed = installed_names(added);
    let Ok(verbs) = VerbHost::open_in(dirs.clone()) else {
        return Vec::new();
    };
    if !installed
        .iter()
        .any(|name| matches!(verbs.data_verb(name), Ok(Some(_))))
    {
        return Vec::new();
    }
    let tools = session_tools(added, settings);
    let lines = unlisted_fields(&verbs, &installed, &tools);
    lines
        .into_iter()
        .filter(|line| line.starts_with("warning:"))
        .collect()
}

/// The lines that say a data verb just installed sends a field its tool's input schema,
/// in the session's `tools`, does not list: every call with that option (or always, for
/// a fixed argument) sends a field the tool refuses, where the schema admits no other
/// (`additionalProperties: false`: a `warning:`, which `-q` keeps), or else most likely
/// ignores (a `note:`) ([`mur_verbs::data::DataVerb::fields_not_in`] says which schemas
/// are judged).
/// Not for a tool the session lacks ([`stands_for`] says that).
fn unlisted_fields(
    verbs: &VerbHost,
    installed: &[&str],
    tools: &[serde_json::Value],
) -> Vec<String> {
    let mut notes = Vec::new();
    for name in installed {
        let Ok(Some(verb)) = verbs.data_verb(name) else {
            continue;
        };
        let Some(tool) = tools.iter().find(|t| t["name"] == verb.tool.as_str()) else {
            continue;
        };
        let theirs = verb_list::written(&verb.tool);
        for unlisted in verb.fields_not_in(&tool["inputSchema"]) {
            let field = verb_list::written(&unlisted.field);
            // A closed schema (`additionalProperties: false`) admits no other field:
            // the tool refuses each call that sends it, which a fixed argument makes
            // every call of the verb. A warning, as `-q` keeps: the verb fails. One
            // that does not close its fields does not say the tool refuses the field;
            // most tools then drop it, so the option does nothing: a note.
            let (level, so) = match (unlisted.closed, &unlisted.option) {
                (true, Some(_)) => (
                    "warning",
                    format!(", so `{theirs}` refuses every call that sends it"),
                ),
                (true, None) => (
                    "warning",
                    format!(", so `{theirs}` refuses every call of `{name}`"),
                ),
                (false, _) => ("note", ", so the tool most likely ignores it".to_owned()),
            };
            notes.push(match unlisted.option {
                Some(option) => format!(
                    "{level}: `{name} --{option}` sets `{field}`, which `{theirs}`'s input \
                     schema does not list{so}"
                ),
                None => format!(
                    "{level}: `{name}` always sends `{field}` (its `arguments`), which \
                     `{theirs}`'s input schema does not list{so}"
                ),
            });
        }
    }
    notes
}

/// The note that verb `name` took the word of the derived verb of another of the
/// session's `tools`: `mur devtools NAME` runs it, and that tool is reached only by
/// `call` (as `parity` says) until the verb is removed; only `parity` and `catalog`
/// said so. `tool` is the verb's tool (a verb of the same tool is its named verb), or
/// `None` for a project `verbs new` just made, which takes the word once added.
fn word_taken(
    name: &str,
    tool: Option<&str>,
    tools: &[serde_json::Value],
    settings: &Settings,
) -> Option<String> {
    let (verb, _) = crate::tools::pick(tools, name)?;
    if tool == Some(verb.tool.as_str()) {
        return None;
    }
    let theirs = verb_list::written(&verb.tool);
    let back = format!("`mur devtools verbs remove {name}` gives the word back");
    Some(match tool {
        Some(_) => {
            let devtools = settings.devtools_command();
            let call = call_line(&devtools, &verb.tool, Arguments::None);
            format!(
                "note: verb `{name}` now stands in for the derived verb of the session's tool \
                 `{theirs}`, which is reached only as `{call}` ({back})"
            )
        }
        // Run after the next steps' `cd`: a `--project` typed relative is made absolute.
        // The derived verb's `--out FILE`, which the new verb lacks, is said only where it
        // has one (not where the tool's own property is `--out`), and as what it does if
        // a result holds media: no tool list says whether a tool returns any (`waitFor`'s
        // was said to write "an image the tool returns").
        None => format!(
            "note: `{name}` is the derived verb of the session's tool `{theirs}`: the new verb \
             calls it with the same params (`{} {name} --help` lists them){}, and once added \
             stands in for it ({back})",
            Settings {
                project: settings
                    .project
                    .as_deref()
                    .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.to_owned())),
                ..settings.clone()
            }
            .devtools_command(),
            match verb.takes_out() {
                Some(out) => format!(
                    " except `{out} FILE`, with which the derived verb writes the images, audio \
                     or blobs a result holds to files (a verb declares its own output path, as \
                     the standard `screenshot` does)"
                ),
                None => String::new(),
            }
        ),
    })
}

/// A verb newly installed for a tool whose derived verb has another name: its name, its
/// tool, and that derived verb's name.
type Hiding<'a> = (&'a str, &'a str, String);

/// The verbs newly installed for a tool whose derived verb has another name, which the
/// catalog (and `verbs list --all`) then lists for the tool, and no longer the derived
/// one (which still answers). Said once, when it becomes so: not for a verb unchanged
/// or replaced by a build for the same tool; nor when the names are the same (the named
/// verb plainly takes the word); nor when the derived verb was not listed anyway (its
/// word is mur's, or an installed verb's; another installed verb calls the tool).
fn hiding<'a>(dirs: &VerbDirs, added: &'a [Added], host_verbs: &[String]) -> Vec<Hiding<'a>> {
    let news: Vec<Hiding> = added
        .iter()
        .filter_map(|a| match a {
            Added::Installed {
                name,
                tool,
                replaced,
                was_tool,
                ..
            } if replaced.is_none() || was_tool.is_some() => {
                let derived = mur_verbs::derived::kebab(tool);
                let listed =
                    !derived.is_empty() && derived != *name && !host_verbs.contains(&derived);
                listed.then_some((name.as_str(), tool.as_str(), derived))
            }
            _ => None,
        })
        .collect();
    if news.is_empty() {
        return news;
    }
    // Read again only when there is something to say: a note is no reason to fail.
    let installed = manage::list(dirs).unwrap_or_default();
    news.into_iter()
        .filter(|(name, tool, derived)| {
            !installed
                .iter()
                .any(|e| e.name == *derived || (e.name != *name && e.tool == *tool))
        })
        .collect()
}

/// What the verbs [`hiding`] found did, by the `tools` of the session found: a command
/// a note names works where the user runs it. Without a session (or among several) it
/// is said of one that has the tool, pointing at `catalog`, which lists a session's
/// tools wherever it runs (`mur devtools clik --help` failed where no session has
/// `clik`); with one that has the tool, the derived verb's help; with one that lacks
/// it (a tool misspelt), that, plainly, of each verb. The verbs of tools a session has
/// (or may have) are said in one note: the standard set's `switch` and `wait` said two
/// on every install, expected of it.
fn stands_for(hiding: &[Hiding], tools: &[serde_json::Value]) -> Vec<String> {
    let catalog = "`mur devtools catalog` lists a session's tools";
    // The derived verb's name in the running session, or `None` where it lacks the tool.
    let running = |tool: &str| {
        crate::tools::pick(tools, tool)
            .filter(|(_, found)| found["name"] == tool)
            .map(|(verb, _)| verb.name)
    };
    let mut notes = Vec::new();
    let mut shown: Vec<(&str, &str, String)> = Vec::new();
    for (name, tool, derived) in hiding {
        match (tools.is_empty(), running(tool)) {
            (true, _) => shown.push((name, tool, derived.clone())),
            (false, Some(verb)) => shown.push((name, tool, verb)),
            (false, None) => notes.push(format!(
                "note: the session running has no tool `{tool}`, which verb `{name}` calls \
                 ({catalog})"
            )),
        }
    }
    let here = !tools.is_empty();
    let note = match shown.as_slice() {
        [] => return notes,
        [(name, tool, derived)] => {
            let lists = format!("the catalog lists `{name}` for it, in place of the derived verb");
            match here {
                false => format!(
                    "note: in a session that has tool `{tool}`, {lists} `{derived}`, which \
                     still answers there ({catalog})"
                ),
                true => format!(
                    "note: the session running has tool `{tool}`: {lists} `{derived}`, which \
                     still answers (`mur devtools {derived} --help`)"
                ),
            }
        }
        several => {
            let each = |(name, tool, derived): &(&str, &str, String)| match here {
                false => format!("`{name}` for `{tool}` (`{derived}`)"),
                true => format!("`{name}` for `{tool}` (`mur devtools {derived} --help`)"),
            };
            let list = several.iter().map(each).collect::<Vec<_>>().join(", ");
            let lists = "the catalog lists these verbs in place of the derived verbs, which \
                         still answer";
            match here {
                false => format!(
                    "note: in a session that has their tools, {lists} there: {list} ({catalog})"
                ),
                true => format!("note: the session running has their tools: {lists}: {list}"),
            }
        }
    };
    notes.insert(0, note);
    notes
}

/// Verb `entry`'s help as `mur devtools NAME --help` prints it now, one text: a data
/// verb's too (which said neither what `@FILE` is nor where the host options go),
/// rendered from the index by `verbs`, the installed verbs.
fn help_now(entry: &mur_verbs::Entry, verbs: Option<&VerbHost>) -> String {
    let help = verbs
        .and_then(|verbs| verbs.help(&entry.name))
        .unwrap_or_else(|| entry.usage_text());
    with_host_options(&help, &entry.name, entry.spec.as_ref())
}

/// Verb `entry` as `verbs list --json` and `verbs info --json` print it: its `usage`
/// the help it prints now ([`help_now`]), not the text kept at install, which a `mur`
/// that renders help anew (the tool's line and hints, the host options' line) left
/// behind what `NAME --help` and `verbs info NAME` print.
fn entry_json(entry: &mur_verbs::Entry, verbs: Option<&VerbHost>) -> Result<serde_json::Value> {
    let mut value = to_json(entry)?;
    value["usage"] = help_now(entry, verbs).into();
    Ok(value)
}

fn to_json(value: &impl serde::Serialize) -> Result<serde_json::Value> {
    serde_json::to_value(value)
        .map_err(|e| mur_core::Error::internal(format!("cannot print the index: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An installed verb of tool `fire` declaring the positionals `params`, and the
    /// options `--selector S` (a positional's option form, `<selector>`'s) and `--timeout MS`.
    fn entry(params: serde_json::Value) -> mur_verbs::Entry {
        let options = serde_json::json!([
            {"name": "selector", "valueName": "S", "kind": "selector", "help": ""},
            {"name": "timeout", "valueName": "MS", "kind": "milliseconds", "help": ""},
        ]);
        serde_json::from_value(serde_json::json!({
            "name": "fire2", "tool": "fire", "summary": "", "usage": "",
            "interface": "mur:verb@0.3.0", "spec": {"positionals": params, "options": options},
            "file": "fire2.wasm", "sha256": "00", "size": 1, "mtimeNs": 0, "addedAt": "",
        }))
        .expect("an entry")
    }

    /// A verb whose params are none of its tool's properties (a template's `<selector>`
    /// for `fire`, which takes `target` and `timeoutMs`) is said so, in one line, each
    /// param once, `--timeout` (never sent) not among them; one sending
    /// a property (as named, or as its derived option `timeout-ms` for `timeoutMs`) is
    /// not, nor one of a tool of no schema. `verbs add` said nothing.
    #[test]
    fn a_verb_sending_no_property_of_its_tool_is_noted() {
        let fire = serde_json::json!({"name": "fire", "inputSchema": {"type": "object",
            "properties": {"target": {"type": "string"}, "timeoutMs": {"type": "integer"}}}});
        let param = |name: &str| serde_json::json!([{"name": name, "valueName": "S", "kind": "selector", "help": ""}]);
        assert_eq!(
            sends_nothing_listed(&entry(param("selector")), &fire).as_deref(),
            Some(
                "note: none of `fire2`'s params (`selector`) is a property of `fire`'s input \
                 schema, which lists `target`, `timeoutMs`: the tool most likely refuses or \
                 ignores what it sends"
            )
        );
        for sent in ["target", "timeout-ms"] {
            assert_eq!(
                sends_nothing_listed(&entry(param(sent)), &fire),
                None,
                "{sent}"
            );
        }
        let bare = serde_json::json!({"name": "fire"});
        assert_eq!(sends_nothing_listed(&entry(param("selector")), &bare), None);
    }

    /// `verbs new`'s note of a tool's derived word says the new verb lacks the derived
    /// verb's `--out FILE` only where the derived verb has one, and as what it does with
    /// a result's media, not as an image the tool returns (said of `waitFor`, which
    /// returns none); a tool whose own property is `--out` gets no such clause.
    #[test]
    fn verbs_new_says_the_derived_verb_s_out_only_where_it_has_one() {
        let settings = Settings {
            source: mur_core::settings::Source::Lockfiles,
            ..Settings::quiet_call("http://127.0.0.1:1/mcp", std::time::Duration::ZERO, 0)
        };
        let tools = [
            serde_json::json!({"name": "waitFor", "inputSchema": {"type": "object",
                "properties": {"selector": {"type": "string"}}}}),
            serde_json::json!({"name": "export", "inputSchema": {"type": "object",
                "properties": {"out": {"type": "string"}}}}),
        ];
        let back = |name: &str| {
            format!(
                ", and once added stands in for it (`mur devtools verbs remove {name}` gives the word back)"
            )
        };
        assert_eq!(
            word_taken("wait-for", None, &tools, &settings).as_deref(),
            Some(
                format!(
                    "note: `wait-for` is the derived verb of the session's tool `waitFor`: the \
                     new verb calls it with the same params (`mur devtools wait-for --help` lists \
                     them) except `--out FILE`, with which the derived verb writes the images, \
                     audio or blobs a result holds to files (a verb declares its own output path, \
                     as the standard `screenshot` does){}",
                    back("wait-for")
                )
                .as_str()
            )
        );
        assert_eq!(
            word_taken("export", None, &tools, &settings).as_deref(),
            Some(
                format!(
                    "note: `export` is the derived verb of the session's tool `export`: the new \
                     verb calls it with the same params (`mur devtools export --help` lists \
                     them){}",
                    back("export")
                )
                .as_str()
            )
        );
    }

    /// The kits' own `--args JSON` (the whole arguments object) is no param sent as a
    /// property `args`: a kit verb of a tool taking no params is not noted (the standard
    /// `version` was), and a template `<selector>` verb of a tool with a property `args`
    /// is (its `--args` was taken for that property).
    #[test]
    fn the_kits_whole_arguments_option_is_no_param() {
        let whole = |name: &str| {
            let help = scaffold::KIT_WHOLE_HELP;
            serde_json::json!({"name": name, "valueName": "JSON", "kind": "json", "help": help})
        };
        let kit_verb = |positionals: serde_json::Value, name: &str| {
            let mut entry = entry(positionals);
            let spec = entry.spec.as_mut().expect("a spec");
            let option = serde_json::from_value(whole(name)).expect("an option");
            spec.options = vec![option];
            entry
        };
        let version = serde_json::json!({"name": "fire", "inputSchema": {"type": "object",
            "properties": {}}});
        for name in ["args", "all-args"] {
            assert_eq!(
                sends_nothing_listed(&kit_verb(serde_json::json!([]), name), &version),
                None,
                "{name}"
            );
        }
        let fire = serde_json::json!({"name": "fire", "inputSchema": {"type": "object",
            "properties": {"target": {"type": "string"}, "args": {"type": "array"}}}});
        let selector = serde_json::json!([{"name": "selector", "valueName": "S", "kind": "selector", "help": ""}]);
        assert_eq!(
            sends_nothing_listed(&kit_verb(selector, "args"), &fire).as_deref(),
            Some(
                "note: none of `fire2`'s params (`selector`) is a property of `fire`'s input \
                 schema, which lists `target`, `args`: the tool most likely refuses or \
                 ignores what it sends"
            )
        );
    }
}
