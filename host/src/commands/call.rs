//! `mur devtools call <tool|method> [--args JSON]` (or `call --method M`):
//! no verb involved, the arguments sent as typed; a tool's result printed whole, as the
//! tool gave it (a derived or data verb prints only the part it picks:
//! [`super::shown::Printed`]), a method's as the server sent it.

use mur_client::Reply;
use mur_core::{Error, Result, Settings};
use mur_lockfile::jsonrpc::METHOD_NOT_FOUND;
use mur_verbs::derived::{Derived, Source};
use mur_verbs::tools::ToolTexts;
use serde_json::{Value, json};

use super::shown::{self, Printed};
use crate::call_line::{Arguments, call_line, sent_as_method};
use crate::cli::CallArgs;
use crate::invoke::{Session, settle};
use crate::media;
use crate::tool_call::{self, Bound, Reach};
use crate::tools::ToolList;

pub async fn run(args: &CallArgs, settings: &Settings) -> Result<()> {
    // Taken by clap as any value is, and refused here: clap's own wording named the
    // positional as optional (`a value is required for `[NAME]``) and not that it was empty.
    if args.name.as_deref() == Some("") {
        return Err(Error::usage("the tool name is empty")
            .with_hint("`mur devtools call tools/list` lists the session's tools"));
    }
    if !args.stray.is_empty() {
        let name = args.name.as_deref().unwrap_or("NAME");
        return Err(stray_words(name, &args.stray, &settings.devtools_command()));
    }
    let params = args
        .args
        .as_deref()
        .map(|word| read_args(word, args_example(args), settings.timeout))
        .transpose()?;
    let request = request(args, params)?;
    let target = match (&args.out, &request) {
        (None, _) => None,
        (Some(out), Request::Tool(params)) => Some(media::tool_target(params, out)?),
        (Some(out), Request::Method(method, params)) => {
            Some(media::target(method, params.as_ref(), out)?)
        }
        (Some(out), Request::Ping(_)) => Some(media::target("ping", None, out)?),
    };
    // A NAME with a `/` is sent as a method: when the server refuses it, it may be a tool.
    let sent = match args.method {
        Some(_) => Sent::Method,
        None => Sent::Named,
    };
    let result = match request {
        Request::Ping(params) => ping(settings, params.as_ref()).await,
        Request::Tool(params) => method_call(settings, TOOLS_CALL, Some(&params), Sent::Tool).await,
        Request::Method(method, params) => {
            method_call(settings, &method, params.as_ref(), sent).await
        }
    };
    let result = result.map_err(|e| tool_call::lengthen(e, Bound::Call))?;
    shown::print(result, target.as_ref(), Printed::Whole, settings)
}

/// How `call` was typed, which decides what it prints and how a refusal is told.
#[derive(Clone, Copy, PartialEq)]
enum Sent {
    /// `call NAME`, a tool: its result as the tool gave it, the protocol's fields
    /// (`resultType`, `_meta`'s reserved keys) taken out as every verb's are.
    Tool,
    /// `call NAME` of a NAME with a `/`, sent as a method: when the server refuses it,
    /// it may be a tool ([`slashed_tool`]).
    Named,
    /// `call --method M`.
    Method,
}

/// The method a tool is called by.
const TOOLS_CALL: &str = "tools/call";

/// `method` with `params`, settled (a tool the server says it does not have gets the
/// one likely meant as a hint: [`tool_call::settled`]); a method refused that was typed
/// as `call NAME` (NAME has a `/`) and is a tool's name, how to call that tool
/// ([`slashed_tool`]). A method's result is printed as the server sent it, `tools/call`'s
/// too (`call tools/call`, `--method tools/call`): they are the protocol as it is, a
/// task's creation included (`"task": {}` in the params); `call NAME` prints the tool's.
async fn method_call(
    settings: &Settings,
    method: &str,
    params: Option<&Value>,
    sent: Sent,
) -> Result<Value> {
    let session = Session::resolve(settings).await?;
    let reply = session
        .call_unlisted(settings, method, params, None)
        .await
        .map_err(|e| tool_call::too_large(e, params))?;
    let reply = match sent {
        Sent::Tool => tool_call::tools_result(reply),
        Sent::Named | Sent::Method => reply,
    };
    let refused = sent == Sent::Named && method != TOOLS_CALL && matches!(reply, Reply::Error(_));
    match tool_call::settled(reply, &session, settings, method, params, None, Reach::Call).await {
        Ok(result) => {
            keep_listed(&session, method, params, &result);
            Ok(result)
        }
        Err(error) if refused => Err(slashed_tool(error, method, params, &session, settings).await),
        Err(error) => Err(error),
    }
}

/// A whole tool list `call tools/list` read (no cursor sent, none returned) is kept as
/// the session's, as [`ToolList::fresh`] keeps its own read: a derived verb's next call
/// parses against what was just printed, not a list cached before the session restarted.
fn keep_listed(session: &Session, method: &str, params: Option<&Value>, result: &Value) {
    let paged = params.is_some_and(|p| p.get("cursor").is_some())
        || result["nextCursor"].as_str().is_some_and(|c| !c.is_empty());
    if method != "tools/list" || paged {
        return;
    }
    if let Some(tools) = result["tools"].as_array() {
        ToolList::open(session).keep(&ToolTexts::of(tools));
    }
}

/// `e`, the server's refusal of method `name` (`call fs/read`), with how to call the
/// session's tool of that name, when it has one: MCP allows a `/` in a tool's name, and
/// `call` sends a NAME with one as a method. The tool list is the cached one, else one
/// `tools/list`: asked only on this path, after a refusal (an agent's first `call` has
/// no cached list to go by, and a success costs nothing more); a list that cannot be
/// read leaves the error as it was.
async fn slashed_tool(
    e: Error,
    name: &str,
    params: Option<&Value>,
    session: &Session,
    settings: &Settings,
) -> Error {
    let Ok(tools) = ToolList::open(session).all(session, settings).await else {
        return e;
    };
    let Some((verb, _)) = Derived::pick(&tools, name).filter(|(_, tool)| tool["name"] == name)
    else {
        return e;
    };
    let devtools = settings.devtools_command();
    let none = json!({});
    let call = call_line(&devtools, name, Arguments::Given(params.unwrap_or(&none)));
    let hint = format!(
        "`{name}` is a tool of the session: `{devtools} {} …` (its derived verb) or `{call}`",
        verb.name,
    );
    // In the place of "no such method; `call NAME` without a `/` calls the tool NAME",
    // no help for this NAME.
    let unserved = crate::invoke::no_such_method_hint(settings);
    let hints = std::iter::once(hint)
        .chain(e.hints().iter().filter(|h| **h != unserved).cloned())
        .collect();
    crate::invoke::rebuilt(&e, e.message().to_owned(), hints)
}

/// MCP's liveness check up to the 2025-11-25 revision.
const PING: &str = "ping";
/// What a 2026-07-28 server answers instead: it dropped `ping`.
const DISCOVER: &str = "server/discover";

/// Words after the name: `call` takes the arguments (a tool's, a method's params)
/// only in `--args`. `--args` misspelt gets the command with it spelt; the first word
/// one slip from another option `call` takes (`--prety`) is that option mistyped. When
/// they are the JSON object meant, or options a verb would take (`--selector
/// '#count'`), the hint is the command with them as `--args`; otherwise, for a tool,
/// where its verb's own words are.
fn stray_words(name: &str, words: &[String], devtools: &str) -> Error {
    let word = words.first().map_or("", String::as_str);
    let error = Error::usage(format!(
        "unexpected argument `{word}`: `call` takes the arguments in `--args`, as JSON"
    ));
    let is_method = sent_as_method(name);
    let object = match words {
        [only] => serde_json::from_str::<Value>(only)
            .ok()
            .filter(Value::is_object)
            .map(|_| only.clone()),
        _ => None,
    };
    if let Some(fixed) = args_misspelt(words) {
        let fixed: Vec<String> = fixed.iter().map(|w| mur_core::shell_word(w)).collect();
        return error.with_hint(format!(
            "did you mean `--args`? {devtools} call {} {}",
            mur_core::shell_word(name),
            fixed.join(" ")
        ));
    }
    let call = ["mur", "devtools", "call"].map(std::ffi::OsString::from);
    if let Some(slipped) = crate::refusal::slipped_option(&call, word) {
        return slipped;
    }
    match object.or_else(|| as_options(words)) {
        Some(json) => error.with_hint(format!(
            "{devtools} call {} --args {}",
            mur_core::shell_word(name),
            mur_core::shell_word(&json)
        )),
        _ if is_method => error,
        // The tool's verb takes words (`click '#btn-inc'`): the same line without `call`.
        _ => {
            let typed: Vec<String> = words.iter().map(|w| mur_core::shell_word(w)).collect();
            error.with_hint(format!(
                "the verb takes words: {devtools} {} {} (`--help` shows which)",
                mur_core::shell_word(name),
                typed.join(" ")
            ))
        }
    }
}

/// `words` with the one that is `--args` misspelt (`--agrs`, `--arg`, `--arsg=…`:
/// [`mur_core::nearest`]'s rule) written `--args`, when what it is given is what
/// `--args` takes whole: a JSON object, `@FILE` or `-`. Folded into the arguments as
/// a field of its own name ([`as_options`]), the hint sent `{"agrs":{…}}`, which the
/// tool refused (or, allowing other fields, took without a word).
fn args_misspelt(words: &[String]) -> Option<Vec<String>> {
    let takes = |value: &str| {
        value == "-"
            || value.starts_with('@')
            || serde_json::from_str::<Value>(value).is_ok_and(|v| v.is_object())
    };
    let at = (0..words.len()).find(|&at| {
        let (option, value) = match words[at].split_once('=') {
            Some((option, value)) => (option, Some(value)),
            None => (words[at].as_str(), words.get(at + 1).map(String::as_str)),
        };
        option.starts_with("--")
            && option != "--args"
            && mur_core::nearest(option, ["--args"]).is_some()
            && value.is_some_and(takes)
    })?;
    let mut fixed = words.to_vec();
    fixed[at] = match words[at].split_once('=') {
        Some((_, value)) => format!("--args={value}"),
        None => "--args".to_owned(),
    };
    Some(fixed)
}

/// `--selector '#count' --all` as the JSON object `{"selector":"#count","all":true}`:
/// each `--name value` (or `--name=value`) a field, a value read as JSON when it is a
/// number, `true`, `false` or `null`, else as a string; a `--name` followed by another
/// option or nothing, `true`. `None` unless every word is such an option or its value.
fn as_options(words: &[String]) -> Option<String> {
    let mut object = serde_json::Map::new();
    // `call`'s own `--args`, typed after the stray words (so taken with them): its
    // object is what the options are added to; `--out`'s path is no argument.
    let mut base = serde_json::Map::new();
    let mut words = words.iter().peekable();
    while let Some(word) = words.next() {
        let option = word.strip_prefix("--").filter(|o| !o.is_empty())?;
        let (name, value) = match option.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (option, words.next_if(|w| !w.starts_with("--")).cloned()),
        };
        match (name, &value) {
            ("args", Some(text)) => {
                base = serde_json::from_str::<Value>(text)
                    .ok()?
                    .as_object()?
                    .clone();
                continue;
            }
            ("out", Some(_)) => continue,
            _ => {}
        }
        let value = value.map_or(Value::Bool(true), |text| {
            serde_json::from_str::<Value>(&text)
                .ok()
                .filter(|v| !v.is_object() && !v.is_array() && !v.is_string())
                .unwrap_or(Value::String(text))
        });
        object.insert(name.to_owned(), value);
    }
    base.extend(object);
    Some(Value::Object(base).to_string())
}

/// What `call` sends.
#[derive(Debug, PartialEq)]
enum Request {
    /// A tool by its name (`call NAME`): the params of its `tools/call`.
    Tool(Value),
    /// A method and its params.
    Method(String, Option<Value>),
    /// `call ping`: the liveness check, see [`ping`].
    Ping(Option<Value>),
}

/// What `call` sends for its arguments (past any stray words: [`stray_words`]).
///
/// `--method M` is sent as it is. Otherwise NAME is a tool, except a NAME
/// with a `/` and `ping`, which are methods. `ping` is singled out because it
/// is the protocol's liveness check and the one method without a slash a
/// client sends (`initialize` is mur's own business): `call ping` reads as "is
/// the session there?", the README has always listed it, and a tool that is
/// itself named `ping` stays reachable through
/// `call tools/call --args '{"name":"ping",…}'`. The exception is fixed and
/// written in `--help`, never guessed from what the server offers.
fn request(args: &CallArgs, params: Option<Value>) -> Result<Request> {
    let named = args_named(args.args.as_deref());
    let method_params = |params| method_params(params, &named);
    match (&args.method, &args.name) {
        (Some(method), _) if method.trim().is_empty() => Err(Error::usage(
            "`--method` needs a method name, e.g. `--method ping`",
        )),
        (Some(method), _) => Ok(Request::Method(method.clone(), method_params(params)?)),
        (None, Some(name)) if name == PING => Ok(Request::Ping(method_params(params)?)),
        (None, Some(name)) if name.contains('/') => {
            Ok(Request::Method(name.clone(), method_params(params)?))
        }
        (None, Some(name)) => {
            let arguments = tool_arguments(params, &named)?;
            Ok(Request::Tool(
                json!({ "name": name, "arguments": arguments }),
            ))
        }
        (None, None) => Err(Error::usage(
            "`call` needs a tool name or `--method METHOD`",
        )),
    }
}

/// A tool's `arguments`: `--args` as given when it is a JSON object, none
/// (`{}`) when it is absent or `null`. Anything else is refused here, as MCP
/// takes arguments by name only: sent, an array reads to a server as a request
/// it cannot parse, and comes back as "method not found".
fn tool_arguments(params: Option<Value>, named: &str) -> Result<Value> {
    match params {
        None | Some(Value::Null) => Ok(json!({})),
        Some(arguments @ Value::Object(_)) => Ok(arguments),
        Some(other) => Err(Error::usage(format!(
            "{named} must be a JSON object of the tool's arguments by name, not {}",
            kind(&other)
        ))
        .with_hint(format!("e.g. `--args {TOOL_ARGS}`"))),
    }
}

/// `--args` of a tool, for a hint: an object of the tool's arguments by name, named as
/// no server's in particular (the sample's `#btn-inc` misled a team with its own server).
const TOOL_ARGS: &str = r##"'{"name":"value"}'"##;
/// `--args` of a method, for a hint: `resources/read`'s params.
const METHOD_PARAMS: &str = r##"'{"uri":"app://log"}'"##;

/// The `--args` a hint shows for what `args` calls: a tool's arguments, or a
/// method's params (a tool's example for `resources/read` misled).
fn args_example(args: &CallArgs) -> &'static str {
    let method = args.method.is_some() || args.name.as_deref().is_some_and(sent_as_method);
    if method { METHOD_PARAMS } else { TOOL_ARGS }
}

/// A method's `params`: `--args` as given when it is a JSON object (MCP's params
/// are always one, named), none when it is absent or `null`. Anything else is
/// refused here: sent, it is answered as no request the server can read (HTTP
/// 400), which reads as the server failing rather than the command.
fn method_params(params: Option<Value>, named: &str) -> Result<Option<Value>> {
    match params {
        None | Some(Value::Null) => Ok(None),
        Some(params @ Value::Object(_)) => Ok(Some(params)),
        Some(other) => Err(Error::usage(format!(
            "{named} must be a JSON object of the method's params by name, not {}",
            kind(&other)
        ))
        .with_hint(format!("e.g. `--args {METHOD_PARAMS}`"))),
    }
}

/// "an array", "a string", …: what a JSON value is, for an error message.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `call ping`: does the session answer? Sends `ping`; a server of the
/// 2026-07-28 revision, which dropped `ping`, answers "method not found", and
/// then `server/discover` (the cheapest request such a server answers, with
/// no effect on the app) is asked instead, within the same `--timeout`.
/// Either way the result is ping's own, `{}`. `--method ping` sends `ping`
/// alone.
async fn ping(settings: &Settings, params: Option<&Value>) -> Result<Value> {
    let session = Session::resolve(settings).await?;
    match session.call(settings, PING, params).await? {
        Reply::Error(error) if error["code"].as_i64() == Some(METHOD_NOT_FOUND) => {
            let endpoint = &session.endpoint;
            tracing::debug!("`{endpoint}` has no `{PING}`: asking `{DISCOVER}` instead");
            match session.call(settings, DISCOVER, None).await? {
                Reply::Result(_) => Ok(json!({})),
                other => settle(other, settings, DISCOVER, None),
            }
        }
        // The session answered: what the server put in ping's result beside nothing (fields
        // of its own, an `isError` a ping has no use for) is not ping's (it was printed, or
        // taken for a tool's failure, exit 5).
        Reply::Result(_) => Ok(json!({})),
        reply => settle(reply, settings, PING, params),
    }
}

/// `--args`: the JSON typed, or read from `@FILE` or stdin (`-`, `@-`), as
/// [`Source::of_whole`] says; a file that cannot be read is a one-line usage error. A
/// pipe is read `within` the command's `--timeout`.
fn read_args(word: &str, example: &str, within: std::time::Duration) -> Result<Value> {
    let text = Source::of_whole(word)
        .read("args", within)
        .map_err(Error::usage)?;
    parse_args(&args_named(Some(word)), &text, example)
}

/// `--args` as a message names it: `` `--args` `` as typed, `` `--args @a.json` `` (the
/// file or stdin it was read from) when read.
fn args_named(word: Option<&str>) -> String {
    match word {
        Some(word) if !matches!(Source::of_whole(word), Source::Typed(_)) => {
            format!("`--args {word}`")
        }
        _ => "`--args`".to_owned(),
    }
}

/// `--args` as JSON (`given` names it as typed: `` `--args @a.json` ``); a mistake is
/// reported with its line and column, and an `example` of what the call takes.
fn parse_args(given: &str, text: &str, example: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| {
        Error::usage(format!("{given} is not valid JSON: {e}"))
            .with_hint(format!("pass one JSON value, e.g. `--args {example}`"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_args_say_where_they_are_wrong() {
        let err = parse_args("`--args`", "{\"a\": 1,\n \"b\": }", TOOL_ARGS).expect_err("invalid");
        assert_eq!(err.exit_code(), 1);
        assert!(err.message().contains("line 2 column"), "{}", err.message());
    }

    fn call_args(name: Option<&str>, method: Option<&str>) -> CallArgs {
        CallArgs {
            name: name.map(str::to_owned),
            method: method.map(str::to_owned),
            args: None,
            out: None,
            stray: Vec::new(),
        }
    }

    #[test]
    fn options_after_the_name_read_as_the_arguments_meant() {
        let words = |w: &[&str]| w.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            as_options(&words(&[
                "--selector",
                "#x",
                "--n",
                "3",
                "--all",
                "--t=a b",
                "--z",
                "null"
            ])),
            // In the order typed (serde_json's `preserve_order`), as the hint repeats them.
            Some(r##"{"selector":"#x","n":3,"all":true,"t":"a b","z":null}"##.to_owned())
        );
        assert_eq!(
            as_options(&words(&["--deep"])),
            Some(r#"{"deep":true}"#.to_owned())
        );
        assert_eq!(as_options(&words(&["#x"])), None);
        assert_eq!(as_options(&words(&["--selector", "#x", "stray"])), None);
        assert_eq!(as_options(&words(&["--", "x"])), None);
        // `call`'s own options typed after them: `--args` the base, `--out` no argument.
        assert_eq!(
            as_options(&words(&[
                "--selector",
                "#x",
                "--args",
                r##"{"a":1,"selector":"#y"}"##,
                "--out",
                "f"
            ])),
            Some(r##"{"a":1,"selector":"#x"}"##.to_owned())
        );
        assert_eq!(as_options(&words(&["--deep", "--args", "[1]"])), None);
    }

    #[test]
    fn args_misspelt_before_what_args_takes_is_written_args() {
        let words = |w: &[&str]| w.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        let fixed = |w: &[&str]| args_misspelt(&words(w));
        assert_eq!(
            fixed(&["--agrs", "{}", "--out", "f"]),
            Some(words(&["--args", "{}", "--out", "f"]))
        );
        assert_eq!(fixed(&["--arg=@a.json"]), Some(words(&["--args=@a.json"])));
        assert_eq!(fixed(&["--rags", "-"]), Some(words(&["--args", "-"])));
        // A value `--args` does not take, or an option not near it: an argument.
        assert_eq!(fixed(&["--arg", "5"]), None);
        assert_eq!(fixed(&["--all", "{}"]), None);
        assert_eq!(fixed(&["--agrs"]), None);
    }

    #[test]
    fn names_with_a_slash_are_methods_ping_is_ping_and_the_rest_tools() {
        let sent = |name: Option<&str>, method: Option<&str>, params: Option<Value>| {
            request(&call_args(name, method), params).expect("valid")
        };
        let method = |m: &str, params: Option<Value>| Request::Method(m.to_owned(), params);
        assert_eq!(sent(Some("ping"), None, None), Request::Ping(None));
        assert_eq!(
            sent(Some("tools/list"), None, None),
            method("tools/list", None)
        );
        assert_eq!(
            sent(None, Some("ping"), Some(json!({ "a": 1 }))),
            method("ping", Some(json!({ "a": 1 })))
        );
        assert_eq!(sent(None, Some("custom"), None), method("custom", None));
        assert_eq!(
            sent(Some("state"), None, None),
            Request::Tool(json!({ "name": "state", "arguments": {} }))
        );
        assert_eq!(
            sent(Some("tools/call"), None, None),
            method("tools/call", None)
        );
        let err = request(&call_args(None, Some(" ")), None).expect_err("empty method");
        assert_eq!(err.exit_code(), 1);
    }

    #[test]
    fn a_tool_s_arguments_and_a_method_s_params_are_json_objects_or_none() {
        let tool_call =
            |arguments: Value| Request::Tool(json!({ "name": "state", "arguments": arguments }));
        let sent = |name: &str, params: Value| request(&call_args(Some(name), None), Some(params));
        assert_eq!(sent("state", json!(null)).ok(), Some(tool_call(json!({}))));
        assert_eq!(
            sent("state", json!({ "selector": "#count" })).ok(),
            Some(tool_call(json!({ "selector": "#count" })))
        );
        for (params, kind) in [
            (json!(["#count"]), "an array"),
            (json!("#count"), "a string"),
            (json!(1), "a number"),
            (json!(true), "a boolean"),
        ] {
            let err = sent("state", params).expect_err("refused");
            assert_eq!(err.exit_code(), 1);
            assert_eq!(
                err.to_string(),
                format!(
                    "`--args` must be a JSON object of the tool's arguments by name, not {kind}"
                )
            );
        }
        assert_eq!(
            sent("custom/method", json!({ "a": 1 })).ok(),
            Some(Request::Method(
                "custom/method".to_owned(),
                Some(json!({ "a": 1 }))
            ))
        );
        assert_eq!(
            sent("tools/list", json!(null)).ok(),
            Some(Request::Method("tools/list".to_owned(), None))
        );
        let refused = |err: Error, kind: &str| {
            assert_eq!(err.exit_code(), 1);
            assert_eq!(
                err.to_string(),
                format!(
                    "`--args` must be a JSON object of the method's params by name, not {kind}"
                )
            );
        };
        refused(
            sent("resources/read", json!("app://log")).expect_err("a string"),
            "a string",
        );
        refused(
            sent("tools/list", json!([1])).expect_err("an array"),
            "an array",
        );
        refused(
            sent("ping", json!(true)).expect_err("a boolean"),
            "a boolean",
        );
        let method = request(&call_args(None, Some("x")), Some(json!(5)));
        refused(method.expect_err("a number"), "a number");
    }
}
