//! MCP over real HTTP, written out by hand so the tests pin the wire format:
//! stateless 2026-07-28 requests, plain-JSON and SSE answers.

use reqwest::blocking::{Client, RequestBuilder, Response};
use serde_json::{Value, json};

pub const MODERN: &str = "2026-07-28";
pub const LEGACY: &str = "2025-11-25";

pub fn client() -> Client {
    Client::builder().no_proxy().build().expect("http client")
}

/// The `_meta` a 2026-07-28 request carries in place of a handshake.
pub fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": { "name": "mur-server-tests", "version": "0" },
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// A stateless 2026-07-28 POST: protocol version in `_meta` and headers that match the body.
pub fn modern_request(endpoint: &str, method: &str, mut params: Value) -> RequestBuilder {
    params["_meta"] = modern_meta();
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    let mut request = post(endpoint)
        .header("MCP-Protocol-Version", MODERN)
        .header("Mcp-Method", method);
    if let Some(name) = name {
        request = request.header("Mcp-Name", name);
    }
    request.json(&body)
}

/// Sends a modern request and returns the JSON-RPC response object.
pub fn modern(endpoint: &str, method: &str, params: Value) -> Value {
    let response = modern_request(endpoint, method, params)
        .send()
        .expect("POST /mcp");
    assert_eq!(response.status(), 200, "status of {method}");
    assert_eq!(
        content_type(&response),
        "application/json",
        "modern answers are plain JSON"
    );
    response.json().expect("JSON body")
}

pub fn call_tool(endpoint: &str, name: &str, arguments: Value) -> Value {
    modern(
        endpoint,
        "tools/call",
        json!({ "name": name, "arguments": arguments }),
    )
}

pub fn post(endpoint: &str) -> RequestBuilder {
    client()
        .post(endpoint)
        .header("Accept", "application/json, text/event-stream")
}

pub fn content_type(response: &Response) -> String {
    let value = response
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    value.split(';').next().unwrap_or("").trim().to_owned()
}

/// The JSON-RPC message with `id` in a response that is plain JSON or an SSE stream.
pub fn message_with_id(response: Response, id: u64) -> Value {
    if content_type(&response) == "application/json" {
        return response.json().expect("JSON body");
    }
    let text = response.text().expect("SSE body");
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(|message| message["id"] == id)
        .unwrap_or_else(|| panic!("no message with id {id} in {text}"))
}

/// A modern request whose `_meta` also carries `extra_meta` (a `progressToken`, a
/// `logLevel`, the client's capabilities, …), and every message of its answer in
/// order, whether plain JSON or an SSE stream: notifications, then the response (id 1).
pub fn exchange(endpoint: &str, method: &str, mut params: Value, extra_meta: Value) -> Vec<Value> {
    let mut meta = modern_meta();
    if let (Some(meta), Some(extra)) = (meta.as_object_mut(), extra_meta.as_object()) {
        meta.extend(extra.clone());
    }
    let name = params
        .get("name")
        .or_else(|| params.get("uri"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    params["_meta"] = meta;
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    let mut request = post(endpoint)
        .header("MCP-Protocol-Version", MODERN)
        .header("Mcp-Method", method);
    if let Some(name) = name {
        request = request.header("Mcp-Name", name);
    }
    let response = request.json(&body).send().expect("POST /mcp");
    if content_type(&response) == "application/json" {
        return vec![response.json().expect("JSON body")];
    }
    let text = response.text().expect("SSE body");
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .collect()
}
