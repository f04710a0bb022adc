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
pub fn modern_request(endpoint: &str, method: &str, params: Value) -> RequestBuilder {
    request_with_meta(endpoint, method, params, modern_meta())
}

/// A 2026-07-28 POST carrying `meta` as its `_meta`, with the `Mcp-Method` header and,
/// for a request about one tool, prompt or resource, the `Mcp-Name` header.
fn request_with_meta(
    endpoint: &str,
    method: &str,
    mut params: Value,
    meta: Value,
) -> RequestBuilder {
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
    sse_messages(&text)
        .find(|message| message["id"] == id)
        .unwrap_or_else(|| panic!("no message with id {id} in {text}"))
}

/// The JSON messages of an SSE stream's `data:` lines, in order.
fn sse_messages(text: &str) -> impl Iterator<Item = Value> + '_ {
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
}

/// A modern request whose `_meta` also carries `extra_meta` (a `progressToken`, a
/// `logLevel`, the client's capabilities, …), and every message of its answer in
/// order, whether plain JSON or an SSE stream: notifications, then the response (id 1).
pub fn exchange(endpoint: &str, method: &str, params: Value, extra_meta: Value) -> Vec<Value> {
    let mut meta = modern_meta();
    if let (Some(meta), Some(extra)) = (meta.as_object_mut(), extra_meta.as_object()) {
        meta.extend(extra.clone());
    }
    let response = request_with_meta(endpoint, method, params, meta)
        .send()
        .expect("POST /mcp");
    if content_type(&response) == "application/json" {
        return vec![response.json().expect("JSON body")];
    }
    sse_messages(&response.text().expect("SSE body")).collect()
}

/// An [`exchange`] calling the tool `name`, with `extra` (`arguments`, `inputResponses`,
/// `requestState`, …) merged into its params.
pub fn tool_exchange(endpoint: &str, name: &str, extra: Value, extra_meta: Value) -> Vec<Value> {
    let mut params = json!({ "name": name, "arguments": {} });
    if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
        params.extend(extra.clone());
    }
    exchange(endpoint, "tools/call", params, extra_meta)
}

/// The notifications with `method` among the messages of an [`exchange`].
pub fn notifications<'a>(messages: &'a [Value], method: &str) -> Vec<&'a Value> {
    messages
        .iter()
        .filter(|message| message["method"] == method)
        .collect()
}

/// The response (id 1) among the messages of an [`exchange`].
pub fn response(messages: &[Value]) -> &Value {
    messages
        .iter()
        .find(|message| message["id"] == 1)
        .unwrap_or_else(|| panic!("no response in {messages:?}"))
}

/// The response to a `resources/read` of `uri`.
pub fn read_resource(endpoint: &str, uri: &str) -> Value {
    let messages = exchange(endpoint, "resources/read", json!({ "uri": uri }), json!({}));
    response(&messages).clone()
}

/// What `resources/read` of `uri` holds: its first contents, after checking the
/// answer is a result.
#[track_caller]
pub fn resource_contents(endpoint: &str, uri: &str) -> Value {
    let read = read_resource(endpoint, uri);
    let contents = &read["result"]["contents"][0];
    assert!(contents.is_object(), "no contents for {uri}: {read}");
    contents.clone()
}

/// The `text` of a content block or resource contents, parsed as JSON.
pub fn text_as_json(block: &Value) -> Value {
    let text = block["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {block}"));
    serde_json::from_str(text).unwrap_or_else(|e| panic!("text is not JSON ({e}): {text}"))
}

/// The message of a JSON-RPC error answer, after checking its code.
#[track_caller]
pub fn error_message(answer: &Value, code: i64) -> &str {
    assert_eq!(answer["error"]["code"], code, "{answer}");
    answer["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {answer}"))
}
