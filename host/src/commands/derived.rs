//! `mur devtools <name> [--option value…]` for a tool the session lists that
//! no installed verb covers: the verb is derived from the tool's
//! `inputSchema` (`mur_verbs::derived`); and data verbs (`mur_verbs::data`),
//! whose arguments are checked the same way and whose result is printed as they pick it.
//! The session's tool list comes from
//! the tool-list cache when warm (one probe and one POST, like a named verb),
//! else from `tools/list`, and is read again when the session changed, when
//! the server says the tool is unknown, and with `--refresh`. What a derived or data
//! verb's result prints is [`shown`]'s; what a word that names no verb is told,
//! [`unknown_verb()`]'s.

use std::path::Path;

use mur_client::tool_result;
use mur_core::{Error, Kind, Result, Settings};
use mur_verbs::data::DataVerb;
use mur_verbs::derived::{Derived, Request};
use mur_verbs::tools::Entries as _;
use mur_verbs::{VerbError, VerbSpec};
use serde_json::{Map, Value, json};

use super::shown::{self, Printed, Save};
use super::unknown_verb::{self, Unknown, unknown_verb};
use crate::invoke::{self, Session, block_on};
use crate::media;
use crate::output;
use crate::tool_call::{self, Bound, Reach};
use crate::tools::ToolList;
use crate::usage::{self, Phase};
use crate::verb_help::with_host_options;

/// Runs derived verb `name` (not an installed verb) with `argv`, the host options
/// typed among it taken out ([`super::verb`]).
pub fn run(name: &str, argv: &[String], settings: &Settings) -> Result<()> {
    // Every `@FILE` and stdin is read now, before the session is asked anything: read
    // once the tool list was in, a slow pipe (or a person typing at `@-`) left the
    // pooled connection idle past what a session waits, and the call failed as a
    // transport error; a second parse (a stale cached list) reuses what was read.
    // `--timeout` bounds reading values from pipes too.
    mur_verbs::derived::prefetch(argv, settings.timeout);
    // `--help` shows the tool as the session lists it now (one more loopback round trip):
    // a cached list is of the session before it restarted on new code behind the same
    // endpoint, its help missing a new option. A call parses against the cached list.
    let refresh = settings.refresh || mur_verbs::derived::asks_for_help(argv);
    block_on(run_async(name, argv, settings, refresh))?
}

/// Runs installed data verb `verb`, installed from file `source`, with `argv`, the host
/// options typed among it taken out ([`super::verb`]).
pub fn run_data(
    verb: &DataVerb,
    source: Option<&str>,
    argv: &[String],
    settings: &Settings,
) -> Result<()> {
    usage::value_options(&verb.spec, None);
    let Some(arguments) = arguments(
        &verb.name,
        argv,
        &verb.spec,
        || verb.help(),
        &verb.spec,
        settings,
        || verb.parse(argv, settings.timeout),
    )?
    else {
        return Ok(());
    };
    let params = json!({ "name": verb.tool, "arguments": arguments });
    let result = block_on(tool_call::call(settings, &params, &verb.name))?
        .map_err(|e| file_names_no_tool(e, verb, source, settings))?;
    shown::print(result, None, Printed::Picked(verb), settings)
}

/// `e`, data verb `verb`'s call, said as its file's mistake where the session offers no
/// tool of the name the file gives (review 604, 2): the fix is the file's `tool`,
/// installed again from `source`, or another session; the hint was the `call` of the
/// tool likely meant, which left the verb as broken as it was. The tool likely meant
/// is looked for in the session's list, which the failed call read afresh.
fn file_names_no_tool(
    e: Error,
    verb: &DataVerb,
    source: Option<&str>,
    settings: &Settings,
) -> Error {
    if e.tool_lacked() != Some(verb.tool.as_str()) {
        return e;
    }
    // Found again in silence: its notices were said once, by the call.
    let found = block_on(async {
        let session = Session::resolve_reporting(settings, &mut mur_discovery::Silent)
            .await
            .ok()?;
        let tools = ToolList::open(&session).all(&session, settings).await.ok();
        Some((session.project, tools))
    });
    let (project, tools) = found.ok().flatten().unwrap_or_default();
    let meant = tools.as_deref().and_then(|tools| {
        let by_verb = crate::tools::pick(tools, &verb.tool).map(|(v, _)| v.tool);
        let names = tools.iter().filter_map(|t| t["name"].as_str());
        by_verb
            .or_else(|| mur_core::nearest(&verb.tool, names).map(str::to_owned))
            .filter(|meant| *meant != verb.tool)
    });
    let meant = meant.map_or(String::new(), |meant| format!(" (did you mean `{meant}`?)"));
    let fix = match source {
        Some(file) => format!(
            "fix the `tool` in `{file}`{meant} and install it again: `mur devtools verbs add \
             --force {}`",
            mur_core::shell_word(file)
        ),
        None => format!(
            "install it again from a file whose `tool` the session offers{meant}: `mur devtools \
             verbs add --force <{}.json>`",
            verb.name
        ),
    };
    let which = match project {
        Some(project) => format!(" than `{project}`'s"),
        None => String::new(),
    };
    let mut hints = vec![
        fix,
        format!(
            "or the verb is for another session{which}: `mur devtools session list` lists them \
             (`--project PATH` picks one)"
        ),
    ];
    // The `call` of the tool likely meant gives way to the fix; the catalog stays.
    hints.extend(
        e.hints()
            .iter()
            .filter(|hint| !hint.starts_with("did you mean `"))
            .cloned(),
    );
    let message = format!(
        "data verb `{}`'s file names tool `{}`, which this session does not offer",
        verb.name, verb.tool
    );
    invoke::rebuilt(&e, message, hints)
}

/// The tool's arguments from `argv` (parsed by `parse`), or `None` once `--help` has
/// printed verb `name`'s `help` (and the host options not shadowed by `shadowing`'s).
/// A refusal's hint names the command as `settings` chose the session ([`usage_error`]).
fn arguments(
    name: &str,
    argv: &[String],
    spec: &VerbSpec,
    help: impl FnOnce() -> String,
    shadowing: &VerbSpec,
    settings: &Settings,
    parse: impl FnOnce() -> std::result::Result<Request, String>,
) -> Result<Option<serde_json::Map<String, Value>>> {
    match usage::measure(Phase::Parse, parse) {
        Ok(Request::Help) => {
            usage::forget();
            let help = with_host_options(&help(), name, Some(shadowing));
            output::text(&help)?;
            Ok(None)
        }
        Ok(Request::Call(arguments)) => Ok(Some(arguments)),
        Err(message) => Err(usage_error(name, message, spec, argv, settings)),
    }
}

/// Verb `verb`'s refusal of `argv` (as it was given, which tells whether the shell
/// can have dropped a selector: [`VerbError::usage`]). A hint to run its `--help` names
/// the options that chose the session (`--project P`, `--endpoint URL`): a derived
/// verb's help is read from the session, and plain `mur devtools` reached no session
/// among several, or another than the endpoint's (review 508, 7).
fn usage_error(
    verb: &str,
    message: String,
    spec: &VerbSpec,
    argv: &[String],
    settings: &Settings,
) -> Error {
    VerbError::usage(verb, message, spec.render_brief(verb), Some(spec), argv)
        .typed_after(&settings.devtools_command())
        .into()
}

/// Derived verb `name`: its tool looked up, `argv` parsed against it, the tool called
/// and its result printed.
async fn run_async(name: &str, argv: &[String], settings: &Settings, refresh: bool) -> Result<()> {
    let mut found = match lookup(name, settings, refresh).await? {
        Ok(found) => found,
        Err(unknown) => {
            // The usage record keeps it as a verb asked for, not a derived verb.
            usage::kind(mur_usage::Kind::Unknown);
            return Err(unknown_verb(name, &unknown, &settings.devtools_command()));
        }
    };
    usage::tool(&found.verb.tool);
    usage::value_options(&found.verb.spec, found.verb.takes_out());
    let parsed = parse_afresh_if_stale(name, argv, settings, &mut found).await;
    // Recorded under its verb name (`wait-for`), however it was typed (`waitFor`),
    // refused or not; the tool is recorded apart.
    usage::verb_name(&found.verb.name);
    let Some(Typed { arguments, out }) = parsed? else {
        return Ok(());
    };
    let params = json!({ "name": found.verb.tool, "arguments": arguments });
    let target = out
        .as_deref()
        .map(|out| media::tool_target(&params, Path::new(out)));
    let target = target.transpose()?;
    let result = call(name, &found, &params, settings).await?;
    let verb = &found.verb;
    let save = match (&out, verb.takes_out()) {
        // Printed as without `--out`, saying where the media went.
        (Some(out), _) => Save::Written(out),
        (None, Some(_)) => Save::Verb(&verb.name),
        (None, None) => Save::Call,
    };
    let shown = Printed::Shown {
        save,
        tool: &verb.tool,
        arguments: &arguments,
    };
    shown::print(result, target.as_ref(), shown, settings)
}

/// A derived verb's call as typed: the tool's arguments, and `--out FILE`, the verb's own
/// beside them ([`Derived::take_out`]).
struct Typed {
    arguments: Map<String, Value>,
    out: Option<String>,
}

/// `argv` parsed by `verb`, or `None` once its `--help` has printed.
fn parse(verb: &Derived, argv: &[String], settings: &Settings) -> Result<Option<Typed>> {
    let mut out = None;
    let arguments = arguments(
        &verb.name,
        argv,
        &verb.spec,
        || verb.help(),
        // Host options were taken before the tool list was read: none is the verb's.
        &VerbSpec::default(),
        settings,
        || {
            let (rest, given) = verb.take_out(argv)?;
            out = given;
            verb.parse(&rest, settings.timeout)
        },
    )?;
    Ok(arguments.map(|arguments| Typed { arguments, out }))
}

/// [`parse`] against `found`'s tool; refused by a cached schema, against the tool as the
/// session lists it now, `found` then holding it: the server may have changed since
/// (restarted on new code behind the same endpoint). Its list is read afresh once, and a
/// changed tool is the one the words are read against.
async fn parse_afresh_if_stale(
    name: &str,
    argv: &[String],
    settings: &Settings,
    found: &mut Found,
) -> Result<Option<Typed>> {
    match parse(&found.verb, argv, settings) {
        Err(e) if found.cached && e.kind() == Kind::Usage => {
            match found
                .tools
                .fresh(&found.session, settings)
                .await
                .map(|fresh| fresh.pick(name))
            {
                Ok(Some((verb, tool))) if tool != found.tool => {
                    tracing::debug!(
                        "`{}` changed since the cached list: read again",
                        found.verb.tool
                    );
                    (found.verb, found.tool) = (verb, tool);
                    parse(&found.verb, argv, settings)
                }
                _ => Err(e),
            }
        }
        parsed => parsed,
    }
}

/// Calls `found`'s tool (typed as `name`) with `params`, and the tool's result once
/// settled ([`tool_call::settled`]); a reply saying the tool is gone or its arguments
/// refused has the cached tool list forgotten.
async fn call(name: &str, found: &Found, params: &Value, settings: &Settings) -> Result<Value> {
    let Found {
        session,
        tools,
        verb,
        tool,
        ..
    } = found;
    let reply = session
        .call_tool(settings, params, tool, &verb.name)
        .await
        .map_err(|e| tool_call::lengthen(e, Bound::Derived(settings.timeout)))
        .map_err(|e| tool_call::too_large(e, Some(params)))?;
    // The tool's result whatever the server's revision: a result printed whole (an
    // image alone, `--out`'s) carried a 2026-07-28 server's `resultType` and `_meta`.
    let reply = tool_call::tools_result(reply);
    let stale = tool_result::missing_tool(&reply, "tools/call", Some(params)).is_some()
        || tool_result::arguments_refused(&reply);
    if stale {
        // The list may be stale (the tool gone, or its schema changed): the next call
        // reads it afresh.
        tools.forget();
    }
    tool_call::settled(
        reply,
        session,
        settings,
        "tools/call",
        Some(params),
        // Typed as its tool's name (`sayHello`), it is said so: the user never typed
        // the name derived from it (`say-hello`).
        Some(if name == verb.tool { name } else { &verb.name }),
        Reach::Typed,
    )
    .await
}

/// A tool of the session that answers to the word typed, and what was read to find it.
struct Found {
    session: Session,
    tools: ToolList,
    verb: Derived,
    tool: Value,
    /// The tool list was the cached one.
    cached: bool,
}

/// The tool `name` answers to, or why there is none; an error only when the session
/// failed in a way that says nothing about the word.
async fn lookup(
    name: &str,
    settings: &Settings,
    refresh: bool,
) -> Result<std::result::Result<Found, Unknown>> {
    let session = match Session::resolve(settings).await {
        Ok(session) => session,
        // No session to look the word up in: a slip from a verb of mur's, or the session
        // is what to fix ([`unknown_verb::unresolved`]).
        Err(e) if matches!(e.kind(), Kind::NoSession | Kind::Usage) => {
            return match unknown_verb::unresolved(name, e) {
                Ok(unknown) => Ok(Err(unknown)),
                Err(e) => {
                    // Not known to be a verb: the record counts it on `cli/unknown`, not
                    // as a derived verb's failure.
                    usage::kind(mur_usage::Kind::Unknown);
                    Err(e)
                }
            };
        }
        Err(e) => return Err(e),
    };
    let tools = ToolList::open(&session);
    let found = usage::measure_async(Phase::Parse, tools.find(&session, settings, name, refresh));
    Ok(match found.await? {
        Ok((verb, tool, cached)) => Ok(Found {
            session,
            tools,
            verb,
            tool,
            cached,
        }),
        Err(listed) => Err(Unknown::Listed(listed)),
    })
}
