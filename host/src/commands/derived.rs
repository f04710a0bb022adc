//! `mur devtools <name> [--option value…]` for a tool the session lists that
//! no installed verb covers: the verb is derived from the tool's
//! `inputSchema` (`mur_verbs::derived`); and data verbs (`mur_verbs::data`),
//! which are checked and printed the same way. The session's tool list comes from
//! the tool-list cache when warm (one probe and one POST, like a named verb),
//! else from `tools/list`, and is read again when the session changed, when
//! the server says the tool is unknown, and with `--refresh`.

use std::path::Path;

use mur_client::tool_result::{self, left_out, payload};
use mur_core::{Error, Kind, ListedSession, Result, Settings};
use mur_verbs::data::DataVerb;
use mur_verbs::derived::{Derived, Request};
use mur_verbs::tools::Entries as _;
use mur_verbs::{VerbError, VerbHost, VerbSpec};
use serde_json::{Map, Value, json};

use crate::cli::HostArgs;
use crate::invoke::{Session, block_on};
use crate::media;
use crate::options::{extract_host_options, started, with_host_options};
use crate::output;
use crate::tool_cache::CachedTools;
use crate::tool_call::{self, Bound, Reach};
use crate::tools::{ToolList, pick};
use crate::usage::{self, Phase};

/// Runs derived verb `name` (not an installed verb) with `argv`.
pub fn run(name: &str, argv: &[String], mut host: HostArgs) -> Result<()> {
    // Host options are taken wherever they appear: the verb's own options
    // are known only once the tool list is read, after discovery needed them. One
    // refused (`--project` without its value) gets `mur devtools`'s usage: no verb of
    // this name is known before that list (`clcik` would be shown a usage of its own,
    // as if it existed).
    let argv = extract_host_options(argv, &mut host, Some(&VerbSpec::default()), None)?;
    let settings = started(&host);
    // Every `@FILE` and stdin is read now, before the session is asked anything: read
    // once the tool list was in, a slow pipe (or a person typing at `@-`) left the
    // pooled connection idle past what a session waits, and the call failed as a
    // transport error; a second parse (a stale cached list) reuses what was read.
    // `--timeout` bounds reading values from pipes too.
    mur_verbs::derived::prefetch(&argv, settings.timeout);
    // `--help` shows the tool as the session lists it now (one more loopback round trip):
    // a cached list is of the session before it restarted on new code behind the same
    // endpoint, its help missing a new option. A call parses against the cached list.
    let refresh = host.refresh || mur_verbs::derived::asks_for_help(&argv);
    block_on(run_async(name, &argv, &settings, refresh))?
}

/// Runs installed data verb `verb` with `argv`.
pub fn run_data(verb: &DataVerb, argv: &[String], mut host: HostArgs) -> Result<()> {
    let argv = extract_host_options(argv, &mut host, Some(&verb.spec), Some(&verb.name))?;
    usage::value_options(&verb.spec, None);
    let settings = started(&host);
    let Some(arguments) = arguments(
        &verb.name,
        &argv,
        &verb.spec,
        || verb.help(),
        &verb.spec,
        || verb.parse(&argv, settings.timeout),
    )?
    else {
        return Ok(());
    };
    let params = json!({ "name": verb.tool, "arguments": arguments });
    let result = block_on(tool_call::call(&settings, &params, &verb.name))??;
    let picked = verb.pick(&payload(&result)).map_err(|message| {
        Error::new(Kind::Plugin, format!("verb `{}`: {message}", verb.name)).with_hint(format!(
            "the `{}` call itself already ran; `{}` shows its whole result",
            verb.tool,
            call_command(&settings, &verb.tool, &arguments)
        ))
    })?;
    output::result(&picked, settings.pretty)
}

/// The tool's arguments from `argv` (parsed by `parse`), or `None` once `--help` has
/// printed verb `name`'s `help` (and the host options not shadowed by `shadowing`'s).
fn arguments(
    name: &str,
    argv: &[String],
    spec: &VerbSpec,
    help: impl FnOnce() -> String,
    shadowing: &VerbSpec,
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
        Err(message) => Err(usage_error(name, message, spec, argv)),
    }
}

/// Verb `verb`'s refusal of `argv` (as it was given, which tells whether the shell
/// can have dropped a selector: [`VerbError::usage`]).
fn usage_error(verb: &str, message: String, spec: &VerbSpec, argv: &[String]) -> Error {
    VerbError::usage(verb, message, spec.render_brief(verb), Some(spec), argv).into()
}

async fn run_async(name: &str, argv: &[String], settings: &Settings, refresh: bool) -> Result<()> {
    let Found {
        session,
        tools,
        mut verb,
        mut tool,
        cached,
    } = match lookup(name, settings, refresh).await? {
        Ok(found) => found,
        Err(unknown) => {
            // The usage record keeps it as a verb asked for, not a derived verb.
            usage::kind(mur_usage::Kind::Unknown);
            return Err(unknown_verb(name, &unknown, &settings.devtools_command()));
        }
    };
    usage::tool(&verb.tool);
    usage::value_options(&verb.spec, verb.takes_out());
    // Host options were taken before the tool list was read: none is the verb's.
    let shadowing = VerbSpec::default();
    // `--out FILE`, the verb's own beside the tool's arguments ([`Derived::take_out`]).
    let out = std::cell::RefCell::new(None);
    let parse = |verb: &Derived| {
        arguments(
            &verb.name,
            argv,
            &verb.spec,
            || verb.help(),
            &shadowing,
            || {
                let (rest, given) = verb.take_out(argv)?;
                *out.borrow_mut() = given;
                verb.parse(&rest, settings.timeout)
            },
        )
    };
    let parsed = match parse(&verb) {
        // Refused by a cached schema: the server may have changed since (restarted on
        // new code behind the same endpoint). Its list is read afresh once, and a
        // changed tool is the one the words are read against.
        Err(e) if cached && e.kind() == Kind::Usage => {
            match tools
                .fresh(&session, settings)
                .await
                .map(|fresh| fresh.pick(name))
            {
                Ok(Some((fresh, entry))) if entry != tool => {
                    tracing::debug!("`{}` changed since the cached list: read again", verb.tool);
                    (verb, tool) = (fresh, entry);
                    parse(&verb)
                }
                _ => Err(e),
            }
        }
        parsed => parsed,
    };
    // Recorded under its verb name (`wait-for`), however it was typed (`waitFor`),
    // refused or not; the tool is recorded apart.
    usage::verb_name(&verb.name);
    let Some(arguments) = parsed? else {
        return Ok(());
    };
    let params = json!({ "name": verb.tool, "arguments": arguments });
    let out = out.take();
    let target = out
        .as_deref()
        .map(|out| media::target("tools/call", Some(&params), Path::new(out)));
    let target = target.transpose()?;
    let reply = session
        .call_tool(settings, &params, &tool, &verb.name)
        .await
        .map_err(|e| tool_call::lengthen(e, Bound::Derived(settings.timeout)))
        .map_err(|e| tool_call::too_large(e, Some(&params)))?;
    // The tool's result whatever the server's revision: a result printed whole (an
    // image alone, `--out`'s) carried a 2026-07-28 server's `resultType` and `_meta`.
    let reply = tool_call::tools_result(reply);
    let stale = tool_result::missing_tool(&reply, "tools/call", Some(&params)).is_some()
        || tool_result::arguments_refused(&reply);
    if stale {
        // The list may be stale (the tool gone, or its schema changed): the next call
        // reads it afresh.
        tools.forget();
    }
    let result = tool_call::settled(
        reply,
        &session,
        settings,
        "tools/call",
        Some(&params),
        // Typed as its tool's name (`sayHello`), it is said so: the user never typed
        // the name derived from it (`say-hello`).
        Some(if name == verb.tool { name } else { &verb.name }),
        Reach::Typed,
    )
    .await?;
    if let Some(target) = target {
        // Printed as without `--out`, saying where the media went.
        let written = Save::Written(out.as_deref().unwrap_or_default());
        let show = |result: &Value| {
            let shown = Shown::of(result);
            let notes = unprinted(result, &shown, settings, &verb.tool, &arguments, written);
            (shown.value, notes)
        };
        return media::save_shown(result, &target, settings, &show);
    }
    let shown = Shown::of(&result);
    output::result(&shown.value, settings.pretty)?;
    output::notes(
        &unprinted(
            &result,
            &shown,
            settings,
            &verb.tool,
            &arguments,
            match verb.takes_out() {
                Some(_) => Save::Verb(&verb.name),
                None => Save::Call,
            },
        ),
        settings.quiet,
    );
    Ok(())
}

/// What a derived verb prints of a tool's result, and what it leaves out.
///
/// `structuredContent` when there is one (the tool's own data), else the content: one
/// text block is printed as it reads (JSON when it is JSON, else the string), as a named
/// verb's is; several blocks — a caption and the resource links it introduces, prose
/// around an embedded resource, a question's answer in a few lines — are printed as an
/// array of them in order, each text as its one block would be and any other block
/// (`resource_link`, an embedded text `resource`) as it came, so the data is printed,
/// not only the line introducing it. Media (images, audio, blobs) are never printed:
/// their base64 is no reading, and the note names them with `--out`.
struct Shown {
    value: Value,
    /// The kinds of the content blocks not printed (`image`), for the note.
    left_out: Vec<String>,
    /// What was printed, for the note: "the structured content", "the text", "the 2
    /// blocks".
    printed: String,
    /// The whole result was printed, its media's base64 taken out (a result with no
    /// text: an image alone, a blob): the note says whose base64 it was.
    elided: bool,
}

impl Shown {
    fn of(result: &Value) -> Self {
        let blocks = result["content"].as_array().map_or(&[][..], Vec::as_slice);
        if let Some(structured) = result.get("structuredContent") {
            // Each block as `left_out` judges it beside the structured content (a text
            // that repeats it is no news), but a medium the structured content holds
            // too (server-filesystem's `read_media_file` returns its image both ways)
            // was printed there, and so was a text that is one of its items.
            let left_out = blocks
                .iter()
                .filter(|block| {
                    let alone = json!({ "content": [block], "structuredContent": structured });
                    !left_out(&alone).is_empty()
                        && !media_data(block).is_some_and(|data| holds(structured, data))
                        && !is_part_of(block, structured)
                })
                .map(kind)
                .collect();
            return Self {
                value: structured.clone(),
                left_out,
                printed: "the structured content".to_owned(),
                elided: false,
            };
        }
        let (media, shown): (Vec<&Value>, Vec<&Value>) =
            blocks.iter().partition(|b| media_data(b).is_some());
        if shown.len() < 2 && tool_result::first_text(result).is_some() {
            return Self {
                value: payload(result),
                left_out: left_out(result).into_iter().map(str::to_owned).collect(),
                printed: "the text".to_owned(),
                elided: false,
            };
        }
        if shown.len() < 2 {
            // No text to print in its place: the result as it came, but for its media's
            // base64 (an image alone put 100 KB of it on stdout, into an agent's context).
            let mut value = result.clone();
            if let Some(blocks) = value["content"].as_array_mut() {
                blocks.iter_mut().for_each(without_base64);
            }
            return Self {
                value,
                left_out: media.into_iter().map(kind).collect(),
                printed: "the result".to_owned(),
                elided: true,
            };
        }
        let value = shown
            .iter()
            .map(|block| match block["text"].as_str() {
                Some(text) if block["type"] == "text" => {
                    serde_json::from_str(text).unwrap_or_else(|_| Value::from(text))
                }
                _ => (*block).clone(),
            })
            .collect();
        Self {
            value,
            left_out: media.into_iter().map(kind).collect(),
            printed: format!("the {} blocks", shown.len()),
            elided: false,
        }
    }
}

/// A content block without its base64: an `image`'s or `audio`'s `data`, an embedded
/// resource's `blob` (its type, MIME type and URI stay).
fn without_base64(block: &mut Value) {
    if media_data(block).is_none() {
        return;
    }
    let Some(fields) = block.as_object_mut() else {
        return;
    };
    // `shift_remove`: the rest of the block stays in the server's order (`remove`
    // moves the last key into the gap).
    fields.shift_remove("data");
    if let Some(resource) = fields.get_mut("resource").and_then(Value::as_object_mut) {
        resource.shift_remove("blob");
    }
}

fn kind(block: &Value) -> String {
    block["type"].as_str().unwrap_or("unknown").to_owned()
}

/// The base64 of a medium: an `image` or `audio` block's `data`, an embedded
/// resource's `blob`.
fn media_data(block: &Value) -> Option<&str> {
    match block["type"].as_str()? {
        "image" | "audio" => block["data"].as_str(),
        "resource" => block["resource"]["blob"].as_str(),
        _ => None,
    }
}

/// Whether `value` holds the string `text` anywhere.
fn holds(value: &Value, text: &str) -> bool {
    match value {
        Value::String(s) => s == text,
        Value::Array(items) => items.iter().any(|v| holds(v, text)),
        Value::Object(object) => object.values().any(|v| holds(v, text)),
        _ => false,
    }
}

/// Whether text block `block` is an item or a value of `structured`, or of the one
/// value it wraps (the Python SDK's `{"result": …}`): its JSON, or its text as a string.
/// FastMCP 1.x returns a list as one text block per item beside `{"result": [items]}`;
/// each one was printed there, and a note on every list said otherwise.
fn is_part_of(block: &Value, structured: &Value) -> bool {
    let Some(text) = block["text"].as_str().filter(|_| block["type"] == "text") else {
        return false;
    };
    let parsed = serde_json::from_str::<Value>(text).ok();
    let wrapped = structured
        .as_object()
        .filter(|object| object.len() == 1)
        .and_then(|object| object.values().next());
    parts(structured)
        .into_iter()
        .chain(wrapped.map(parts).unwrap_or_default())
        .any(|part| part.as_str() == Some(text) || parsed.as_ref() == Some(part))
}

/// The items of an array, the values of an object; nothing of a scalar.
fn parts(value: &Value) -> Vec<&Value> {
    match value {
        Value::Array(items) => items.iter().collect(),
        Value::Object(object) => object.values().collect(),
        _ => Vec::new(),
    }
}

/// Where a derived verb's result's media can be written, for the note.
#[derive(Clone, Copy)]
enum Save<'a> {
    /// Only by `call … --out`: the verb's `--out` is the tool's own argument.
    Call,
    /// By the verb's own `--out FILE` too (the verb's name), not given.
    Verb(&'a str),
    /// Written by the verb's `--out`, to this path as typed (never `-`: the media went
    /// to stdout, and nothing else is printed).
    Written(&'a str),
}

/// A note naming the content blocks the verb did not print (an image beside a
/// caption), and the command that prints them: nothing the tool returned is
/// dropped without a word. The command carries `--out` when the result has media:
/// without it `call` prints their base64, 10 KB for the sample's `overview`, into the
/// agent's context; with the path the verb's `--out` was given, that path.
fn unprinted(
    result: &Value,
    shown: &Shown,
    settings: &Settings,
    tool: &str,
    arguments: &Map<String, Value>,
    save: Save,
) -> Vec<String> {
    let kinds = &shown.left_out;
    if kinds.is_empty() {
        return Vec::new();
    }
    let blocks = if kinds.len() == 1 { "block" } else { "blocks" };
    let printed = &shown.printed;
    let call = call_command(settings, tool, arguments);
    // An image, audio, or a resource's blob; a text resource is no medium.
    let media = mur_client::tool_result::media(result).is_ok_and(|media| !media.is_empty());
    // Said once, after the command: the note is read into every agent's context.
    let whole = match (media, save) {
        // Judged on the result without the blocks written, which had media.
        (_, Save::Written(path)) => format!(
            "`{call} --out {}` prints the whole result",
            mur_core::shell_word(path)
        ),
        (false, _) => format!("`{call}` prints the whole result"),
        (true, Save::Verb(verb)) => format!(
            "`{call} --out FILE` prints the whole result and writes its media to FILE, as \
             `--out FILE` after `{verb}` does"
        ),
        (true, Save::Call) => {
            format!("`{call} --out FILE` prints the whole result and writes its media to FILE")
        }
    };
    if shown.elided {
        return vec![format!(
            "note: the result was printed without the base64 of its {} {blocks}; {whole}",
            kinds.join(", "),
        )];
    }
    vec![format!(
        "note: the result has {} more content {blocks} ({}) than {printed} printed; {whole}",
        kinds.len(),
        kinds.join(", "),
    )]
}

/// The `call` that makes the same tool call as a verb did and prints its whole result,
/// ready to paste: `mur devtools call get-sum --args '{"a":1,"b":2}'`, from the same
/// session ([`Settings::devtools_command`]), with the `--answer`s given: a tool that
/// asked a question asks it again, and without them the call would end unanswered.
/// A tool whose name `call` sends as a method (`inventory/list`, `ping`) is called
/// through `tools/call`, its name and arguments the params, as `call --help` says.
fn call_command(settings: &Settings, tool: &str, arguments: &Map<String, Value>) -> String {
    let devtools = settings.devtools_command();
    let answers: String = settings
        .answers
        .iter()
        .map(|(key, value)| {
            format!(
                " --answer {}",
                mur_core::shell_word(&format!("{key}={value}"))
            )
        })
        .collect();
    let arguments = Value::Object(arguments.clone());
    let call = crate::call_line::call_line(
        &devtools,
        tool,
        crate::call_line::Arguments::Given(&arguments),
    );
    format!("{call}{answers}")
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

/// Why a word named no tool: the session's tools were read and none answers to it, or
/// no tool list could be read (why not, as a hint), the word being near `near`.
enum Unknown {
    Listed(Vec<Value>),
    Unread { why: String, near: String },
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
        // One slip from an installed verb or a command of mur's: a typo, said first,
        // then why no tool list was read.
        Err(e) if e.kind() == Kind::NoSession => {
            let near = nearest_word(name, &[]);
            if let Some(near) = near.clone().filter(|near| mur_core::is_typo_of(name, near)) {
                return Ok(Err(Unknown::Unread {
                    why: "no devtools session is running to look for a tool of that name"
                        .to_owned(),
                    near,
                }));
            }
            // Else the word may well be a tool of the app that is not running (`version`
            // is no typo of `session`): no session (exit 4, "start the app"), as for a
            // named verb or `call`. Not known to be a verb: the record counts it on
            // `cli/unknown`, not as a derived verb's failure.
            usage::kind(mur_usage::Kind::Unknown);
            let e = match near {
                Some(near) => e.with_first_hint(format!("or did you mean `{near}`?")),
                None => e,
            };
            return Err(e.with_first_hint(format!(
                "`{name}` is not an installed verb; a tool's verb is looked up in the session once one runs"
            )));
        }
        // Which session is meant is not known. A word near a verb or command of mur's is
        // most likely a typo, said first, as with one session or none; unless the tool
        // lists as last read tell which of the sessions has a tool of that name, the one
        // then named to run the command again.
        Err(e) if e.kind() == Kind::Usage => {
            let having = having(name, &e);
            let near = nearest_word(name, &[]).filter(|near| mur_core::is_typo_of(name, near));
            if let Some(near) = near.filter(|_| having.is_empty()) {
                return Ok(Err(Unknown::Unread {
                    why: "several devtools sessions are running: a tool of that name is looked \
                          up in the one chosen with `--project` or `--endpoint`"
                        .to_owned(),
                    near,
                }));
            }
            // Else the word may well be a tool of the session meant: the session is what
            // to choose. Not known to be a verb: recorded on `cli/unknown`.
            usage::kind(mur_usage::Kind::Unknown);
            return Err(naming_one_having(e, name, &having).with_first_hint(format!(
                "`{name}` is not an installed verb; a tool's verb is looked up in the session chosen"
            )));
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

/// The sessions `e` asks to choose from (several, none chosen) that answered and whose
/// tool list as last read (cached) has a tool `name` answers to, by project.
fn having(name: &str, e: &Error) -> Vec<ListedSession> {
    let Some(choice) = e.session_choice() else {
        return Vec::new();
    };
    let mut having: Vec<ListedSession> = choice
        .sessions
        .iter()
        .filter(|c| c.answering)
        .filter(|c| {
            CachedTools::of(&c.endpoint, Some(&c.identity))
                .load()
                .is_some_and(|tools| pick(&tools, name).is_some())
        })
        .cloned()
        .collect();
    having.sort_by(|a, b| a.project.cmp(&b.project));
    having
}

/// `e`, which asks which session is meant, with discovery's hint that repeats the
/// command for the first session listed ("…; for the first: `mur devtools --project P
/// stocktake`") repeating it instead for the first of `having` (those with the tool
/// `name`), and saying so: the first listed may lack it, and the command pasted failed
/// "unknown verb". `e` as it is when none is known to have it, or it has no such hint.
fn naming_one_having(e: Error, name: &str, having: &[ListedSession]) -> Error {
    let (Some(choice), Some(chosen)) = (e.session_choice(), having.first()) else {
        return e;
    };
    let Some(again) = mur_discovery::again(choice, chosen) else {
        return e;
    };
    let which = match having.len() {
        1 => format!(
            "of `{}`'s session, by its tool list as last read",
            chosen.project
        ),
        n => format!("of {n} of them, by their tool lists as last read; for the first"),
    };
    let old = mur_discovery::with_the_first(choice);
    let new = format!("{}; `{name}` is a tool {which}: `{again}`", choice.choose);
    e.replacing_hint(&old, new)
}

/// `name` is no installed verb, host command, or tool of the session: the error says
/// so, first naming the word the user most likely meant when one is close.
fn unknown_verb(name: &str, unknown: &Unknown, devtools: &str) -> Error {
    // No other word is nearer than the method.
    let method = mcp_method(name)
        .map(|method| format!("an MCP method is made with `call`: `{devtools} call {method}`"));
    unknown_word(name, unknown, devtools, method)
}

/// The error of `name`, no verb, with `meant` (else the nearest word) when there is one.
fn unknown_word(name: &str, unknown: &Unknown, devtools: &str, meant: Option<String>) -> Error {
    let message = VerbError::UnknownVerb(name.to_owned());
    let listed = match unknown {
        Unknown::Listed(listed) => listed.as_slice(),
        Unknown::Unread { why, near } => {
            let error = Error::from(message)
                .with_hint(why.clone())
                .with_first_hint(format!("did you mean `{near}`?"));
            return match meant {
                Some(meant) => error.with_first_hint(meant),
                None => error,
            };
        }
    };
    // The session was asked: `call NAME` would only be refused in turn.
    let catalog = format!(
        "`{devtools} catalog` lists every verb: the installed ones, mur's own, and one per tool of the session",
    );
    let error = Error::usage(message.to_string());
    // What is sure of the word (the method `call` makes, the tools it would stand for)
    // is said alone: the catalog (3 KB) would only list it among the rest.
    if let Some(meant) = meant.or_else(|| sharing_tools(name, listed)) {
        return error.with_hint(meant);
    }
    match nearest_word(name, listed) {
        // A slip of the keyboard (`clik`, `clear-todo`) is said alone, as sure.
        Some(word) if mur_core::is_typo_of(name, &word) => {
            error.with_hint(format!("did you mean `{word}`?"))
        }
        // A guess further off keeps the catalog line after it (user audit AU9 4): the
        // word is likely another verb's, and the one guessed may act, even destroy
        // (`clear '#todo-input'` meant `type --clear`, and was offered `clear-todos`,
        // which empties the list; `check` was offered `click`). An agent given one
        // command follows it; given the catalog too, it has where to look first.
        Some(word) => error
            .with_hint(format!("did you mean `{word}`?"))
            .with_hint(catalog),
        None => error.with_hint(catalog),
    }
}

/// The verbs of the tools a word that names no verb would stand for, among the tools
/// `listed`: each is a verb under its own name.
fn sharing_tools(name: &str, listed: &[Value]) -> Option<String> {
    let shared = mur_verbs::derived::sharing(listed, name);
    if shared.is_empty() {
        return None;
    }
    let each = shared.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>();
    Some(format!(
        "`{name}` would stand for {} tools, so each is a verb under its own name: {}",
        shared.len(),
        each.join(", ")
    ))
}

/// The families of MCP's methods a client calls (`tools/list`, `resources/read`,
/// `completion/complete`, …): a word in one is a method, not a path (`./x.wasm`).
const METHOD_FAMILIES: [&str; 6] = [
    "tools/",
    "resources/",
    "prompts/",
    "completion/",
    "logging/",
    "tasks/",
];

/// The MCP method a word typed as a verb stands for, as `call` takes it: a method's
/// own name (`tools/list`, `resources/read`), or what a server lists (`tools`,
/// `list-tools`) — what someone who knows MCP types first.
fn mcp_method(name: &str) -> Option<String> {
    let listing = |what: &str| format!("{what}/list");
    match name.to_ascii_lowercase().replace('_', "-").as_str() {
        method if METHOD_FAMILIES.iter().any(|f| method.starts_with(f)) => {
            Some(mur_core::shell_word(name))
        }
        "tools" | "list-tools" => Some(listing("tools")),
        "resources" | "list-resources" => Some(listing("resources")),
        "prompts" | "list-prompts" => Some(listing("prompts")),
        _ => None,
    }
}

/// The installed verb, host command or verb of a tool in `listed` nearest to `name`.
fn nearest_word(name: &str, listed: &[Value]) -> Option<String> {
    let installed = VerbHost::summaries().into_iter().map(|(word, _)| word);
    let tools = mur_verbs::derived::verb_names(listed).into_iter().flatten();
    let words = installed.chain(crate::cli::host_verbs()).chain(tools);
    mur_core::nearest(name, words)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A media block written to a file keeps its other keys in the server's order:
    /// `Map::remove` moved the last key into `data`'s place.
    #[test]
    fn a_block_without_its_base64_keeps_the_servers_order() {
        let mut block = json!({
            "type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png",
            "annotations": {"audience": ["user"]}
        });
        without_base64(&mut block);
        let keys: Vec<&String> = block.as_object().expect("object").keys().collect();
        assert_eq!(keys, ["type", "mimeType", "annotations"]);
    }

    /// What an MCP user types for a listing or a method is pointed at `call`.
    #[test]
    fn a_listing_or_a_method_typed_as_a_verb_is_called() {
        let hint = |name| {
            let unknown = Unknown::Unread {
                why: "no session".to_owned(),
                near: "tree".to_owned(),
            };
            let unread = unknown_verb(name, &unknown, "mur devtools").hints()[0].clone();
            let listed = unknown_verb(name, &Unknown::Listed(Vec::new()), "mur devtools");
            assert_eq!(listed.hints()[0], unread, "with a session or without");
            unread
        };
        for (typed, method) in [
            ("tools", "tools/list"),
            ("list_tools", "tools/list"),
            ("Resources", "resources/list"),
            ("prompts", "prompts/list"),
            ("resources/read", "resources/read"),
        ] {
            assert!(
                hint(typed).contains(&format!(
                    "an MCP method is made with `call`: `mur devtools call {method}`"
                )),
                "{typed}: {}",
                hint(typed)
            );
        }
        for other in ["clikc", "./x.wasm", "plugins/foo.wasm", "verbs/add"] {
            let other = unknown_verb(other, &Unknown::Listed(Vec::new()), "mur devtools");
            assert!(!other.hints().concat().contains("MCP method"), "{other}");
        }
        assert!(
            hint("tools/call x").contains("`mur devtools call 'tools/call x'`"),
            "a word pasted as one"
        );
    }

    fn settings() -> Settings {
        crate::options::settings(&HostArgs::default())
    }

    /// The call [`call_command`] repeats for `tool` with `args` (an object), without
    /// host options.
    fn call_of(tool: &str, args: Value) -> String {
        let args = args.as_object().cloned().unwrap_or_default();
        call_command(&settings(), tool, &args)
    }

    #[test]
    fn the_call_in_a_hint_is_the_same_call_ready_to_paste() {
        assert_eq!(
            call_of("get-tiny-image", json!({})),
            "mur devtools call get-tiny-image"
        );
        assert_eq!(
            call_of("say it", json!({"text": "it's"})),
            r#"mur devtools call 'say it' --args '{"text":"it'\''s"}'"#
        );
        let long = "x".repeat(crate::call_line::MAX_HINT_ARGUMENTS);
        assert_eq!(
            call_of("echo", json!({ "message": long })),
            "mur devtools call echo --args JSON"
        );
        // The answers given go with it: the tool asks its question again.
        let answered = Settings {
            answers: vec![
                ("name".into(), "Ada Lovelace".into()),
                ("check".into(), "yes".into()),
            ],
            ..settings()
        };
        assert_eq!(
            call_command(&answered, "ask", &Map::new()),
            "mur devtools call ask --answer 'name=Ada Lovelace' --answer check=yes"
        );
    }

    /// `call inventory/list` and `call ping` send a method (`call --help`): a tool of
    /// such a name is called through `tools/call`, its name and arguments the params.
    #[test]
    fn the_call_of_a_tool_named_like_a_method_goes_through_tools_call() {
        assert_eq!(
            call_of("inventory/list", json!({})),
            r#"mur devtools call tools/call --args '{"name":"inventory/list","arguments":{}}'"#
        );
        assert_eq!(
            call_of("ping", json!({"note": "it's"})),
            r#"mur devtools call tools/call --args '{"name":"ping","arguments":{"note":"it'\''s"}}'"#
        );
        let long = "x".repeat(crate::call_line::MAX_HINT_ARGUMENTS);
        assert_eq!(
            call_of("a/b", json!({ "message": long })),
            r#"mur devtools call tools/call --args '{"name":"a/b","arguments":JSON}'"#
        );
        assert_eq!(
            call_of("pinged", json!({})),
            "mur devtools call pinged",
            "only `ping` itself is a method"
        );
    }

    /// Among several sessions, the command repeated names the first that has the tool, by
    /// project (by endpoint when another listed is of its project too), with the words
    /// typed; discovery's hint stays as it was when none has it, the command is not known,
    /// or the error lists no sessions to choose from.
    #[test]
    fn the_command_repeated_names_a_session_that_has_the_tool() {
        let session = |project: &str, port: u16| ListedSession {
            endpoint: format!("http://127.0.0.1:{port}/mcp"),
            project: project.to_owned(),
            identity: format!("{port}  "),
            answering: true,
        };
        let (a, b, b2) = (session("/a", 1), session("/my b", 2), session("/my b", 3));
        let choose = "choose one with `--project PATH` or `--endpoint URL`";
        let typed = ["take", "--n", "x y"].map(String::from).to_vec();
        // As discovery says it: the hint, and what it says as data.
        let error = |sessions: &[&ListedSession], command: &[String]| {
            let choice = mur_core::SessionChoice {
                choose: choose.to_owned(),
                sessions: sessions.iter().map(|&c| c.clone()).collect(),
                command: command.to_vec(),
            };
            Error::usage("2 live devtools sessions found")
                .with_hint(mur_discovery::with_the_first(&choice))
                .with_session_choice(choice)
        };
        let first = format!("{choose}; for the first: `mur devtools --project /a take --n 'x y'`");
        assert_eq!(
            error(&[&a, &b], &typed).hints(),
            std::slice::from_ref(&first)
        );
        assert_eq!(
            naming_one_having(error(&[&a, &b], &typed), "take", std::slice::from_ref(&b)).hints(),
            [format!(
                "{choose}; `take` is a tool of `/my b`'s session, by its tool list as last \
                 read: `mur devtools --project '/my b' take --n 'x y'`"
            )]
        );
        let shared = [&a, &b, &b2];
        let having = [b.clone(), b2.clone()];
        assert_eq!(
            naming_one_having(error(&shared, &typed), "take", &having).hints(),
            [format!(
                "{choose}; `take` is a tool of 2 of them, by their tool lists as last read; \
                 for the first: `mur devtools --endpoint http://127.0.0.1:2/mcp take --n 'x y'`"
            )]
        );
        assert_eq!(
            naming_one_having(error(&shared, &typed), "take", &[]).hints(),
            [first]
        );
        assert_eq!(
            naming_one_having(error(&shared, &[]), "take", &having).hints(),
            [choose]
        );
        let other = Error::usage("`--endpoint x` is not on loopback").with_hint("start the app");
        assert_eq!(
            naming_one_having(other, "take", &having).hints(),
            ["start the app"]
        );
    }

    /// FastMCP 1.x returns a list as one text block per item beside `{"result": […]}`:
    /// each was printed there, and no note says otherwise; a block that carries more
    /// (a warning beside the items) still gets one.
    #[test]
    fn text_blocks_that_are_the_structured_contents_items_get_no_note() {
        let text = |t: &str| json!({ "type": "text", "text": t });
        let note = |content: Value, structured: Value| {
            let result = json!({ "content": content, "structuredContent": structured });
            let shown = Shown::of(&result);
            unprinted(&result, &shown, &settings(), "t", &Map::new(), Save::Call).join("\n")
        };
        let items = json!({ "result": [{ "sku": "A1", "count": 3 }, { "sku": "B2", "count": 0 }] });
        let listed = json!([
            text("{\n  \"sku\": \"A1\",\n  \"count\": 3\n}"),
            text("{\"count\": 0, \"sku\": \"B2\"}"),
        ]);
        assert_eq!(note(listed, items.clone()), "");
        assert_eq!(
            note(
                json!([text("a"), text("b")]),
                json!({ "result": ["a", "b"] })
            ),
            ""
        );
        assert_eq!(
            note(json!([text("3")]), json!({ "sku": "A1", "count": 3 })),
            ""
        );
        assert_eq!(
            note(
                json!([
                    text("{\"sku\": \"A1\", \"count\": 3}"),
                    text("B2 is out of stock")
                ]),
                items
            ),
            "note: the result has 1 more content block (text) than the structured content \
             printed; `mur devtools call t` prints the whole result"
        );
        assert_eq!(
            note(
                json!([text("{\"sku\": \"C3\"}")]),
                json!({ "result": [{ "sku": "C3", "count": 1 }] })
            ),
            "note: the result has 1 more content block (text) than the structured content \
             printed; `mur devtools call t` prints the whole result",
            "a part of an item is no item"
        );
    }

    /// One text is printed as it reads; several blocks as an array of them (each text as
    /// it reads, a link or an embedded text resource as it came), media left out for the
    /// note; beside `structuredContent`, a medium it holds too was printed.
    #[test]
    fn a_result_of_several_blocks_prints_each_but_its_media() {
        let shown = |result: Value| {
            let shown = Shown::of(&result);
            (shown.value, shown.left_out, shown.printed)
        };
        let text = |t: &str| json!({ "type": "text", "text": t });
        let image = json!({ "type": "image", "data": "iVBORw==", "mimeType": "image/png" });
        let link = json!({ "type": "resource_link", "uri": "demo://1", "name": "One" });
        assert_eq!(
            shown(json!({ "content": [text("{\"a\":1}")] })),
            (json!({ "a": 1 }), vec![], "the text".to_owned())
        );
        assert_eq!(
            shown(json!({ "content": [text("A caption"), image.clone()] })),
            (
                json!("A caption"),
                vec!["image".to_owned()],
                "the text".to_owned()
            )
        );
        assert_eq!(
            shown(json!({ "content": [text("Here are 2 links:"), link.clone(), link.clone()] })),
            (
                json!(["Here are 2 links:", link, link]),
                vec![],
                "the 3 blocks".to_owned()
            )
        );
        assert_eq!(
            shown(json!({ "content": [text("Here:"), image.clone(), text("[1, 2]")] })),
            (
                json!(["Here:", [1, 2]]),
                vec!["image".to_owned()],
                "the 2 blocks".to_owned()
            )
        );
        let copied =
            json!({ "content": [image.clone()], "structuredContent": { "content": [image] } });
        assert_eq!(
            shown(copied.clone()),
            (
                copied["structuredContent"].clone(),
                vec![],
                "the structured content".to_owned()
            )
        );
    }

    /// A result with no text — an image alone, an embedded blob — is printed as it came
    /// but for the base64, which the note names (100 KB of it were printed).
    #[test]
    fn a_medium_without_text_is_printed_without_its_base64() {
        let image = json!({ "type": "image", "data": "iVBORw==", "mimeType": "image/png" });
        let blob = json!({ "type": "resource",
            "resource": { "uri": "file:///a.gz", "mimeType": "application/gzip", "blob": "H4sI" } });
        let result = json!({ "content": [image, blob] });
        let shown = Shown::of(&result);
        assert_eq!(
            shown.value,
            json!({ "content": [
                { "type": "image", "mimeType": "image/png" },
                { "type": "resource",
                  "resource": { "uri": "file:///a.gz", "mimeType": "application/gzip" } },
            ] })
        );
        assert_eq!(
            unprinted(
                &result,
                &shown,
                &settings(),
                "t",
                &Map::new(),
                Save::Verb("t")
            ),
            [
                "note: the result was printed without the base64 of its image, resource blocks; \
              `mur devtools call t --out FILE` prints the whole result and writes its media to \
              FILE, as `--out FILE` after `t` does"
            ]
        );
        let link = json!({ "content": [{ "type": "resource_link", "uri": "demo://1" }] });
        assert_eq!(
            Shown::of(&link).value,
            link,
            "no medium: the result as it came"
        );
        assert!(
            unprinted(
                &link,
                &Shown::of(&link),
                &settings(),
                "t",
                &Map::new(),
                Save::Verb("t")
            )
            .is_empty()
        );
    }

    /// The note under a result of these content blocks (and empty structured content)
    /// from tool `t`; `save` as `unprinted` takes it.
    fn note_on(content: Value, save: Save) -> String {
        let result = json!({ "content": content, "structuredContent": {} });
        let shown = Shown::of(&result);
        unprinted(&result, &shown, &settings(), "t", &Map::new(), save).join("\n")
    }

    /// `--out` is offered for what it writes: an image, audio or a blob, never a text
    /// resource; the `call` named carries it, since without it `call` prints the base64
    /// (10 KB of it for the sample's `overview`).
    #[test]
    fn the_note_offers_out_only_for_media_and_its_call_carries_it() {
        let note = |content: Value| note_on(content, Save::Verb("tee"));
        let text_resource = note(json!([
            { "type": "resource", "resource": { "uri": "app://t", "text": "plain" } }
        ]));
        assert_eq!(
            text_resource,
            "note: the result has 1 more content block (resource) than the structured content \
             printed; `mur devtools call t` prints the whole result"
        );
        for media in [
            json!({ "type": "image", "data": "iVBORw==", "mimeType": "image/png" }),
            json!({ "type": "resource", "resource": { "uri": "app://b", "blob": "AAE=" } }),
        ] {
            let said = note(json!([media]));
            assert!(
                said.ends_with(
                    "printed; `mur devtools call t --out FILE` prints the whole result and writes \
                     its media to FILE, as `--out FILE` after `tee` does"
                ),
                "{said}"
            );
        }
        // A tool with its own `out`: the verb's `--out` is the tool's; `call`'s writes.
        let image = json!([{ "type": "image", "data": "iVBORw==", "mimeType": "image/png" }]);
        let said = note_on(image.clone(), Save::Call);
        assert!(
            said.ends_with(
                "`mur devtools call t --out FILE` prints the whole result and writes its media \
                 to FILE"
            ),
            "{said}"
        );
        // Written by the verb's `--out` (the note is made of the result without the
        // image): the same path, quoted for the shell.
        let text = json!([{ "type": "text", "text": "a caption" }]);
        let said = note_on(text, Save::Written("my shot.png"));
        assert!(
            said.ends_with("`mur devtools call t --out 'my shot.png'` prints the whole result"),
            "{said}"
        );
    }
}
