//! A tool called by name, its failure said in the words the user typed: for a named,
//! data or derived verb (`wait`, which calls `waitFor`) or for `call NAME` (the tool
//! itself). A tool the server says it lacks, and the session's tool list (read afresh)
//! lacks too, is "the session has no tool `waitFor`, which `wait` calls"; any other
//! failure of the tool "`wait` (tool `waitFor`) failed: …" ([`invoke::as_typed`]). Part
//! of the call path, below the commands: it calls through [`crate::invoke`] and reads the
//! list through [`crate::tools`], which neither can do for the other.

use mur_client::Reply;
use mur_client::tool_result::missing_tool;
use mur_core::{Error, Result, Settings};
use mur_verbs::derived::Derived;
use serde_json::Value;

use crate::invoke::{self, Said, Session};
use crate::tools::ToolList;

/// Resolves the session and calls tool `params["name"]` for verb `verb`: its result, or
/// its failure said as typed ([`settled`]).
pub async fn call(settings: &Settings, params: &Value, verb: &str) -> Result<Value> {
    let session = Session::resolve(settings).await?;
    // One await holds the session: a local held across two cannot share its room in
    // the future with discovery's (3.9 KB), and the call's future grew by its size.
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
        .call_unlisted(settings, "tools/call", Some(params))
        .await
        // A question refused for want of an answer fails the call here, settled.
        .map_err(|e| invoke::as_typed(e, verb, params["name"].as_str().unwrap_or_default()))
        .map_err(|e| too_large(e, Some(params)))?;
    settled(
        reply,
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
/// name is what is typed (`call NAME`, and a derived verb, its tool's name or derived
/// from it); through `call` alone where a named or data verb names its tool itself
/// (`wait` calls `waitFor` whatever is typed).
#[derive(Clone, Copy)]
pub enum Reach {
    Typed,
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
    // likely meant, for every verb kind as for `call` (a data verb's `"tool": "stat"`).
    let error = match tools.iter().any(|listed| listed["name"] == tool.as_str()) {
        true => as_typed(error),
        false => {
            let named = invoke::tool_as_typed(verb.unwrap_or(&tool), &tool, Said::Lacking);
            let error = invoke::reworded(error, format!("the session has no {named}"));
            nearest_tool(error, &tool, &tools, reach, settings)
        }
    };
    Err(error)
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
/// type into it (`wait`: "did you mean `waitfor`?"), which only `call` acts on.
fn nearest_tool(e: Error, name: &str, tools: &[Value], reach: Reach, settings: &Settings) -> Error {
    let answers = Derived::pick(tools, name);
    let names = tools.iter().filter_map(|tool| tool["name"].as_str());
    let meant = match &answers {
        Some((verb, _)) => Some(verb.tool.as_str()),
        None => mur_core::nearest(name, names),
    };
    match meant {
        Some(tool) if tool != name => e.with_first_hint(match reach {
            Reach::Typed => format!("did you mean `{tool}`?"),
            Reach::ThroughCall => format!(
                "did you mean `{} call {}`?",
                settings.devtools_command(),
                mur_core::shell_word(tool)
            ),
        }),
        _ => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A future's whole size is held wherever it goes (each frame it passes
    /// through, page by page), however little of it a call uses: the HTTP
    /// call's state lives in a box of its own, not inside the call's future.
    #[test]
    fn a_calls_future_holds_the_http_call_boxed() {
        let settings = crate::options::settings(&crate::cli::HostArgs::unset());
        let params = serde_json::json!({ "name": "state", "arguments": {} });
        let future = call(&settings, &params, "state");
        let size = std::mem::size_of_val(&future);
        assert!(size < 4096, "the call's future is {size} bytes");
    }
}
