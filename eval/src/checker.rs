//! The harness's own calls to the session — a task's setup before the agent starts and
//! its checks after the agent has finished — through `mur-client`, over loopback HTTP.
//! They are recorded in the session's usage log like any call, under the harness's own
//! name (clientInfo `mur-eval <version>`, not mur's, so a session's log tells them from
//! an agent's `mur`); the run counts only the lines written while the agent ran.

use std::time::Duration;

use base64::Engine as _;
use mur_client::tool_result::first_text;
use mur_client::{Client, Reply};
use mur_core::{Error, Result, Settings};
use serde_json::{Value, json};

/// Bound on one setup or check call.
const CALL_LIMIT: Duration = Duration::from_secs(10);

/// A client for the harness's calls.
pub struct Checker {
    runtime: tokio::runtime::Runtime,
    /// The clientInfo its requests are made in.
    info: Value,
}

impl Checker {
    pub fn new() -> Result<Self> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Error::internal(format!("cannot start the async runtime: {e}")))?;
        Ok(Self {
            runtime,
            info: json!({ "name": "mur-eval", "version": env!("CARGO_PKG_VERSION") }),
        })
    }

    /// Calls `tool` with `args` at `endpoint`; the tool's result, or why there is none
    /// (a JSON-RPC error, a result with `isError: true`, no answer).
    pub fn call(
        &self,
        endpoint: &str,
        tool: &str,
        args: &Value,
    ) -> std::result::Result<Value, String> {
        let settings = settings(endpoint);
        let params = json!({ "name": tool, "arguments": args });
        // A client per call: a connection kept alive from an earlier call may lead to
        // the process a reload replaced, on the very same port.
        let reply = self
            .runtime
            .block_on(async {
                let http = mur_http::Http::new();
                let client = Client::new(&http, endpoint, &settings).relaying_for(Some(&self.info));
                client.call("tools/call", Some(&params), CALL_LIMIT).await
            })
            .map_err(|e| format!("`{tool}` could not be called: {}", e.message()))?;
        match reply {
            Reply::Error(error) => Err(format!(
                "`{tool}` answered a JSON-RPC error: {}",
                error["message"].as_str().unwrap_or("(no message)")
            )),
            Reply::Result(result) if result["isError"] == true => Err(format!(
                "`{tool}` failed: {}",
                first_text(&result).unwrap_or("(no message)")
            )),
            Reply::Result(result) => Ok(result),
        }
    }
}

impl Checker {
    /// Sends `method` with `params` to `endpoint` (the study lists the tools an MCP
    /// client loads); its result, or why there is none.
    pub fn request(
        &self,
        endpoint: &str,
        method: &str,
        params: Option<&Value>,
    ) -> std::result::Result<Value, String> {
        let settings = settings(endpoint);
        let reply = self
            .runtime
            .block_on(async {
                let http = mur_http::Http::new();
                let client = Client::new(&http, endpoint, &settings).relaying_for(Some(&self.info));
                client.call(method, params, CALL_LIMIT).await
            })
            .map_err(|e| format!("`{method}` could not be sent: {}", e.message()))?;
        match reply {
            Reply::Error(error) => Err(format!(
                "`{method}` answered a JSON-RPC error: {}",
                error["message"].as_str().unwrap_or("(no message)")
            )),
            Reply::Result(result) => Ok(result),
        }
    }
}

/// Settings for one call of the harness: this endpoint, no questions answered.
fn settings(endpoint: &str) -> Settings {
    Settings::quiet_call(endpoint, CALL_LIMIT, 64 << 20)
}

/// The bytes of the first image block of a tool result.
pub fn image_of(result: &Value) -> std::result::Result<Vec<u8>, String> {
    let data = result["content"]
        .as_array()
        .and_then(|blocks| blocks.iter().find(|block| block["type"] == "image"))
        .and_then(|block| block["data"].as_str())
        .ok_or_else(|| "the screenshot result has no image".to_owned())?;
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| format!("the screenshot's image is not base64: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_block_is_decoded() {
        let result = json!({ "content": [{ "type": "text", "text": "x" }, { "type": "image", "data": "aGk=", "mimeType": "image/png" }] });
        assert_eq!(image_of(&result), Ok(b"hi".to_vec()));
        assert!(image_of(&json!({ "content": [] })).is_err());
    }
}
