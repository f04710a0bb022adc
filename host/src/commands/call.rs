//! `mur devtools call <tool|method> [--args JSON]`, and the one code path
//! every call takes: resolve the endpoint, call, and turn a failed tool into
//! its output and exit 5.

use serde_json::{Value, json};

use crate::cli::CallArgs;
use crate::discovery;
use crate::error::{Error, Result};
use crate::mcp::{self, Reply};
use crate::options::Settings;
use crate::output;

pub async fn run(args: &CallArgs, settings: &Settings) -> Result<()> {
    let params = args.args.as_deref().map(parse_args).transpose()?;
    let (method, params) = if args.name.contains('/') {
        (args.name.as_str(), params)
    } else {
        let arguments = params.unwrap_or_else(|| json!({}));
        (
            "tools/call",
            Some(json!({ "name": args.name, "arguments": arguments })),
        )
    };
    let result = invoke(settings, method, params.as_ref()).await?;
    output::json(&result, settings.pretty)
}

/// `--args` as JSON; a mistake is reported with its line and column.
fn parse_args(text: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| {
        Error::usage(format!("`--args` is not valid JSON: {e}"))
            .with_hint(r##"pass one JSON value, e.g. `--args '{"selector":"#btn-inc"}'`"##)
    })
}

/// Calls `method` on the resolved session and returns a successful result.
/// A JSON-RPC error prints `{"error":{…}}`, a result with `isError: true`
/// prints the result; both end in exit 5 with the message on stderr.
pub async fn invoke(settings: &Settings, method: &str, params: Option<&Value>) -> Result<Value> {
    let http = mcp::http_client()?;
    let endpoint = discovery::resolve(settings, &http).await?;
    let client = mcp::Client::new(&http, &endpoint, settings.verbose);
    match client.call(method, params, settings.timeout).await? {
        Reply::Error(error) => {
            output::json(&json!({ "error": error }), settings.pretty)?;
            Err(Error::tool_failed(rpc_error_message(
                &error, method, params,
            )))
        }
        Reply::Result(result) if result["isError"] == json!(true) => {
            output::json(&result, settings.pretty)?;
            Err(Error::tool_failed(tool_error_message(
                &result, method, params,
            )))
        }
        Reply::Result(result) => Ok(result),
    }
}

fn rpc_error_message(error: &Value, method: &str, params: Option<&Value>) -> String {
    let message = error["message"].as_str().unwrap_or("(no message)");
    let what = match params.and_then(|p| p["name"].as_str()) {
        Some(tool) if method == "tools/call" => format!("tool `{tool}`"),
        _ => format!("`{method}`"),
    };
    match error["code"].as_i64() {
        Some(code) => format!("{what} failed: {message} (JSON-RPC error {code})"),
        None => format!("{what} failed: {message}"),
    }
}

/// The text blocks of a failed tool result, joined on one line.
fn tool_error_message(result: &Value, method: &str, params: Option<&Value>) -> String {
    let tool = params.and_then(|p| p["name"].as_str()).unwrap_or(method);
    let text: Vec<&str> = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|block| block["text"].as_str())
        .collect();
    let text = text
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if text.is_empty() {
        format!("tool `{tool}` failed")
    } else {
        format!("tool `{tool}` failed: {text}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_args_say_where_they_are_wrong() {
        let err = parse_args("{\"a\": 1,\n \"b\": }").expect_err("invalid");
        assert_eq!(err.exit_code(), 1);
        assert!(err.message().contains("line 2 column"), "{}", err.message());
    }

    #[test]
    fn a_failed_tool_is_described_by_its_text() {
        let result = json!({ "isError": true, "content": [{ "type": "text", "text": "no element\nmatches `#nope`" }] });
        let params = json!({ "name": "click" });
        assert_eq!(
            tool_error_message(&result, "tools/call", Some(&params)),
            "tool `click` failed: no element matches `#nope`"
        );
    }
}
