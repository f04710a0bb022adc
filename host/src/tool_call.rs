//! A tool called by name, its failure said in the words the user typed: for a named,
//! data or derived verb (`wait`, which calls `waitFor`) or for `call NAME` (the tool
//! itself). A tool the server says it lacks, and the session's tool list (read afresh)
//! lacks too, is "the session has no tool `waitFor`, which `wait` calls"; any other
//! failure of the tool "`wait` (tool `waitFor`) failed: …" ([`invoke::as_typed`]). Part
//! of the call path, below the commands: it calls through [`crate::invoke`] and reads the
//! list through [`crate::tools`], which neither can do for the other.

use mur_client::Reply;
use mur_client::tool_result::{missing_tool, tools_own};
use mur_core::{Error, Result, Settings};
use mur_verbs::tools::{Entries as _, ToolTexts};
use serde_json::Value;

use crate::call_line::{Arguments, call_line, sent_as_method};
use crate::invoke::{self, Said, Session};
use crate::tools::ToolList;

/// Resolves the session and calls tool `params["name"]` for verb `verb`: its result, or
/// its failure said as typed ([`settled`]).
pub async fn call(settings: &Settings, params: &Value, verb: &str) -> Result<Value> {
    let session = Session::resolve(settings).await?;
    // One await holds the session: a local held across two cannot share its room in
    // the future with what the first await held, and the call's future grew by its size.
    call_on(&session, settings, params, verb).await
}

/// [`call`] once the session is found.
async fn call_on(
    session: &Session,
    settings: &Settings,
    params: &Value,
    verb: &str,
) -> Result<Value> {
    let reply = session
        .call_unlisted(settings, "tools/call", Some(params), Some(verb))
        .await
        // A question refused for want of an answer fails the call here, settled.
        .map_err(|e| invoke::as_typed(e, verb, params["name"].as_str().unwrap_or_default()))
        .map_err(|e| too_large(e, Some(params)))?;
    settled(
        // What the verb is handed (and prints, when its result is printed as it is) is
        // the tool's result, whatever the server's revision.
        tools_result(reply),
        session,
        settings,
        "tools/call",
        Some(params),
        Some(verb),
        Reach::ThroughCall,
    )
    .await
}

/// How the user can call a tool the verb typed does not: by its name where a tool's
/// name is what is typed (a derived verb, its tool's name or derived from it; `call
/// NAME`, but for a NAME `call` sends as a method); through `call` alone where a named
/// or data verb names its tool itself (`wait` calls `waitFor` whatever is typed).
#[derive(Clone, Copy)]
pub enum Reach {
    /// A derived verb: the tool's name is a verb to type.
    Typed,
    /// `call`: the tool's name after `call`, or, for a name `call` sends as a method
    /// (`inventory/list`, `ping`), the `call tools/call` that reaches it with the
    /// arguments typed ([`call_line`]): `call inventory/list` is exit 5, no such method.
    Call,
    /// A named or data verb: the `call` of the tool, whole.
    ThroughCall,
}

/// `reply` to `method` with `params` ([`invoke::settle`]), a failed tool said as verb
/// `verb` calls it (none: `call`'s NAME, the tool itself; or a method), and the tool
/// likely meant as `reach` calls it. A tool the server says it lacks costs one
/// `tools/list`, read only on this failure: where the list lacks it too, the error says
/// so, not "tool `waitFor` failed: …", which read as if it ran.
pub async fn settled(
    reply: Reply,
    session: &Session,
    settings: &Settings,
    method: &str,
    params: Option<&Value>,
    verb: Option<&str>,
    reach: Reach,
) -> Result<Value> {
    let missing = missing_tool(&reply, method, params).map(str::to_owned);
    let error = match invoke::settle(reply, settings, method, params) {
        Ok(result) => return Ok(result),
        Err(error) => error,
    };
    let tool = params.and_then(|p| p["name"].as_str());
    // A failure that is not a tool lacking, or one the list cannot confirm (unread, or
    // still listing it): the tool's error, said as the verb typed calls it.
    let as_typed = |error| match (verb, tool) {
        (Some(verb), Some(tool)) => invoke::as_typed(error, verb, tool),
        _ => error,
    };
    let Some(tool) = missing else {
        return Err(as_typed(error));
    };
    let Ok(tools) = ToolList::open(session).fresh(session, settings).await else {
        return Err(as_typed(error));
    };
    // Where the list lacks it too: "the session has no tool `waitFor`, which `wait`
    // calls", or "… no tool `state`" where the verb is named as its tool; with the tool
    // likely meant, for every verb kind as for `call` (a data verb's `"tool": "stat"`);
    // marked as the tool lacking, which a data verb then says as its file's mistake.
    let error = match tools.position(&tool).is_some() {
        true => as_typed(error),
        false => {
            let named = invoke::tool_as_typed(verb.unwrap_or(&tool), &tool, Said::Lacking);
            let error = invoke::reworded(error, format!("the session has no {named}"));
            nearest_tool(error, &tool, &tools, reach, settings, params).lacking_tool(&tool)
        }
    };
    Err(error)
}

/// Where the bound of a call was given, which the hint of a call out of it names
/// ([`lengthen`]): the client that ran out marks its error ([`Error::out_of_bound`])
/// and says nothing of where, which only the command knows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// mur's `--timeout` before the verb's name: any command without a bound of its own.
    BeforeVerb,
    /// A named verb's own `--timeout MS` after its name, which set the bound ([`Bound::named`]).
    VerbOwn(u32),
    /// A derived verb's: mur's `--timeout` of this long, typed before or after its name
    /// (a derived verb has none of its own).
    Derived(std::time::Duration),
    /// `call`'s, before `call` (no verb: "before the verb name" sent one looking for a
    /// verb's name).
    Call,
}

impl Bound {
    /// The bound of a named verb's call under `settings` (its own `--timeout` applied):
    /// its own `--timeout own` (after its name) when that set it, else mur's before the
    /// name, which a verb's own only lengthens when it is shorter.
    pub fn named(own: Option<u32>, settings: &Settings) -> Self {
        let Some(ms) = own else {
            return Self::BeforeVerb;
        };
        // The bound the verb's own sets alone, as though no `--timeout` came before it.
        let mut alone = settings.clone();
        alone.timeout_given = false;
        alone.verb_timeout(Some(ms));
        match alone.timeout == settings.timeout {
            true => Self::VerbOwn(ms),
            false => Self::BeforeVerb,
        }
    }

    /// How to lengthen this bound, as a hint says it.
    fn hint(self) -> String {
        match self {
            Self::BeforeVerb => {
                "a slow tool may need a longer `--timeout MS` before the verb name".to_owned()
            }
            Self::VerbOwn(ms) => format!(
                "the bound was the verb's own `--timeout {ms}` (after its name) and half as long \
                 again (at most 2 s more) for the answer to arrive: a slow tool may need a longer one"
            ),
            Self::Derived(bound) => format!(
                "a slow tool may need a longer `--timeout MS` than {} (mur's bound, before or \
                 after a derived verb's name)",
                bound.as_millis()
            ),
            Self::Call => "a slow tool may need a longer `--timeout MS` before `call`".to_owned(),
        }
    }
}

/// A `tools/call` reply as the tool gave it ([`tools_own`]), said first to be of a kind
/// (`resultType`) mur does not know when it is ([`unknown_result_type`]): the protocol's
/// field is taken out with the rest.
pub(crate) fn tools_result(reply: Reply) -> Reply {
    if let Reply::Result(result) = &reply {
        unknown_result_type(result);
    }
    tools_own(reply)
}

/// The kinds of result (`resultType`) the revisions mur speaks define: 2026-07-28's; an
/// earlier revision's result has none, which reads as `complete`.
const RESULT_TYPES: [&str; 3] = ["complete", "input_required", "task"];

/// Warns of a result whose `resultType` no revision mur speaks defines: it is shown as a
/// tool's result is (a later revision may add a kind), `resultType` left out with the
/// protocol's other fields, but no longer taken for the call's outcome unsaid. The
/// warning says so, and how to see the result whole.
fn unknown_result_type(result: &Value) {
    if let Some(kind) = result.get("resultType")
        && !kind
            .as_str()
            .is_some_and(|kind| RESULT_TYPES.contains(&kind))
    {
        crate::output::notice(&format!(
            "the server's result is of kind {kind} (`resultType`), which no MCP revision mur \
             speaks defines: it may not be the call's outcome; it is shown without its `resultType` \
             (`call tools/call` shows it whole)"
        ));
    }
}

/// `e`, a call out of its bound, with the hint saying how to lengthen it as `bound` was
/// given: the first caller that knows says it, last among the hints; any other error,
/// or one told already, as it is.
pub fn lengthen(e: Error, bound: Bound) -> Error {
    e.with_bound_hint(|| bound.hint())
}

/// What a session takes in one request: mur's sessions refuse a larger body.
const SESSION_BODY_BYTES: usize = mur_lockfile::endpoint::MAX_REQUEST_BYTES;

/// `error`, with a hint saying why when the request it failed was larger than a session
/// takes: a session refuses it (HTTP 413, or it closes the connection while the body is
/// still being sent: a server not mur's, whose sessions read it whole first), which
/// alone reads as a transport fault. Values read from files are bounded at 4 MiB, but escaped as JSON (a `"` is two bytes, a control
/// character six) the request may still outgrow it.
pub(crate) fn too_large(error: Error, params: Option<&Value>) -> Error {
    let bytes = params.map_or(0, |params| params.to_string().len());
    // A session's 413 is a usage error that says the request's size and the cap itself.
    if bytes <= SESSION_BODY_BYTES || error.kind() == mur_core::Kind::Usage {
        return error;
    }
    // First: the endpoint a closed connection names goes last.
    error.with_first_hint(format!(
        "the request's params were {bytes} bytes as JSON, and a session takes at most 4 MiB \
         ({SESSION_BODY_BYTES} bytes) in one request"
    ))
}

/// `e`, the server's word that it has no tool `name`, with the tool most likely meant
/// when the session's `tools` (read afresh) have one close to it: the one whose verb is
/// called `name` (`call switch-component`: `switchComponent`), else the nearest name.
/// Said as `reach` calls it: the tool's name alone read to a named verb as a word to
/// type into it (`wait`: "did you mean `waitfor`?"), which only `call` acts on, and to
/// `call` as a method when it has a `/`. `params` are the call's, whose arguments
/// `call`'s line repeats.
fn nearest_tool(
    e: Error,
    name: &str,
    tools: &ToolTexts,
    reach: Reach,
    settings: &Settings,
    params: Option<&Value>,
) -> Error {
    let answers = tools.pick(name);
    let names = tools.names().into_iter().flatten();
    let meant = match &answers {
        Some((verb, _)) => Some(verb.tool.as_str()),
        None => mur_core::nearest(name, names),
    };
    let Some(tool) = meant.filter(|tool| *tool != name) else {
        return e;
    };
    let line = |arguments| call_line(&settings.devtools_command(), tool, arguments);
    e.with_first_hint(match reach {
        Reach::Call if sent_as_method(tool) => {
            let typed = params
                .map(|p| &p["arguments"])
                .filter(|a| a.as_object().is_some_and(|a| !a.is_empty()));
            let arguments = typed.map_or(Arguments::None, Arguments::Given);
            format!("did you mean `{}`?", line(arguments))
        }
        Reach::Typed | Reach::Call => format!("did you mean `{tool}`?"),
        Reach::ThroughCall => format!("did you mean `{}`?", line(Arguments::None)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A named verb's own `--timeout` is the bound its hint names only when it set it:
    /// a longer one typed before the name stood.
    #[test]
    fn a_named_verbs_own_timeout_is_its_bound_only_when_it_set_it() {
        let host = |ms: u64, given: bool| {
            let mut settings = crate::options::settings(&crate::cli::HostArgs::unset());
            settings.timeout = std::time::Duration::from_millis(ms);
            settings.timeout_given = given;
            settings.verb_timeout(Some(300));
            settings
        };
        assert_eq!(
            Bound::named(Some(300), &host(10_000, false)),
            Bound::VerbOwn(300)
        );
        assert_eq!(
            Bound::named(Some(300), &host(200, true)),
            Bound::VerbOwn(300)
        );
        assert_eq!(
            Bound::named(Some(300), &host(1000, true)),
            Bound::BeforeVerb
        );
        assert_eq!(Bound::named(None, &host(1000, true)), Bound::BeforeVerb);
    }

    /// A call out of its bound is told once, by the first caller that knows where the
    /// bound was given; the default that every command ends with then adds nothing.
    #[test]
    fn a_call_out_of_its_bound_is_told_once_how_to_lengthen_it() {
        let out = || Error::transport("`x` did not answer within 300 ms").out_of_bound();
        let told = lengthen(lengthen(out(), Bound::Call), Bound::BeforeVerb);
        assert_eq!(
            told.hints(),
            ["a slow tool may need a longer `--timeout MS` before `call`"]
        );
        let derived = Bound::Derived(std::time::Duration::from_millis(300));
        assert_eq!(
            lengthen(out(), derived).hints(),
            [
                "a slow tool may need a longer `--timeout MS` than 300 (mur's bound, before or \
              after a derived verb's name)"
            ]
        );
        let refused = lengthen(Error::transport("refused"), Bound::Call);
        assert!(refused.hints().is_empty());
    }

    /// A future's whole size is held wherever it goes (each frame it passes
    /// through, page by page), however little of it a call uses: the HTTP
    /// call's state lives in a box of its own, not inside the call's future.
    #[test]
    fn a_calls_future_holds_the_http_call_boxed() {
        let settings = crate::options::settings(&crate::cli::HostArgs::unset());
        let params = serde_json::json!({ "name": "state", "arguments": {} });
        let future = call(&settings, &params, "state");
        let size = std::mem::size_of_val(&future);
        // 4.2 KB since serde_json's `preserve_order` (a map is an `IndexMap`, each
        // `Value` held larger); the HTTP call inline added 13 KB.
        assert!(size < 5120, "the call's future is {size} bytes");
    }
}
