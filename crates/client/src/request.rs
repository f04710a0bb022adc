//! JSON-RPC request bodies and the HTTP headers that must match them, in the
//! modern (2026-07-28, stateless) and legacy (2025-11-25, session) forms.

use base64::Engine as _;
use mur_http::Request;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use serde_json::{Map, Value, json};

/// The revision `mur` speaks first.
pub const MODERN_VERSION: &str = "2026-07-28";
/// The revision offered to servers that need `initialize` and a session.
pub const LEGACY_VERSION: &str = "2025-11-25";
/// Every revision mur speaks, newest first: the modern form, then the session form
/// (`initialize`) of each earlier one.
pub const REVISIONS: &[&str] = &[
    MODERN_VERSION,
    LEGACY_VERSION,
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
];

pub const HEADER_PROTOCOL_VERSION: &str = "mcp-protocol-version";
pub const HEADER_METHOD: &str = "mcp-method";
pub const HEADER_NAME: &str = "mcp-name";
pub const HEADER_SESSION_ID: &str = "mcp-session-id";

/// Methods whose `Mcp-Name` header comes from `params.name` / `params.uri` / `params.taskId`.
const NAME_KEYS: &[(&str, &str)] = &[
    ("tools/call", "name"),
    ("prompts/get", "name"),
    ("resources/read", "uri"),
    ("resources/subscribe", "uri"),
    ("resources/unsubscribe", "uri"),
    ("tasks/get", "taskId"),
    ("tasks/update", "taskId"),
    ("tasks/cancel", "taskId"),
];

/// `{name, version}` of this client.
pub fn client_info() -> Value {
    json!({ "name": "mur", "version": env!("CARGO_PKG_VERSION") })
}

/// What mur can do for a server: answer questions (form-mode elicitation).
/// No sampling, no roots: requests for those are declined.
pub fn client_capabilities() -> Value {
    json!({ "elicitation": {} })
}

/// The extension of the 2026-07-28 revision under which a server may answer
/// a call with a task to follow (SEP-2663).
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// What mur declares in a modern request: what it declares to a session, and
/// that it follows tasks (`tasks/get`, `tasks/update`, `tasks/cancel`).
pub fn modern_capabilities() -> Value {
    let mut capabilities = client_capabilities();
    capabilities["extensions"] = json!({ TASKS_EXTENSION: {} });
    capabilities
}

/// The `_meta` keys a request of this call carries besides the client's
/// context: the progress token, and (2026-07-28) the log level asked for;
/// and the client it is made for when that is not mur ([`client_info`]'s).
#[derive(Debug, Clone, Default)]
pub struct CallMeta {
    pub progress_token: Option<String>,
    pub log_level: Option<&'static str>,
    pub client_info: Option<Value>,
}

/// A request in the modern form: client context travels in `params._meta`.
pub fn modern_body(
    id: u64,
    method: &str,
    params: Option<&Value>,
    version: &str,
    extra: &CallMeta,
) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": extra.client_info.clone().unwrap_or_else(client_info),
        "io.modelcontextprotocol/clientCapabilities": modern_capabilities(),
    });
    if let Some(token) = &extra.progress_token {
        meta["progressToken"] = token.clone().into();
    }
    if let Some(level) = extra.log_level {
        meta["io.modelcontextprotocol/logLevel"] = level.into();
    }
    body(id, method, with_meta(params, meta))
}

/// A request in the session form: only the progress token in `params._meta`.
pub fn session_body(id: u64, method: &str, params: Option<&Value>, extra: &CallMeta) -> Value {
    match &extra.progress_token {
        Some(token) => body(
            id,
            method,
            with_meta(params, json!({ "progressToken": token })),
        ),
        None => body(id, method, params.cloned()),
    }
}

/// `params` with our `_meta` keys merged in (keys the caller set are kept);
/// positional params cannot carry `_meta` and are sent untouched. The one
/// copy of the caller's params a request makes: [`body`] takes it as it is.
fn with_meta(params: Option<&Value>, meta: Value) -> Option<Value> {
    match params {
        None | Some(Value::Null) => Some(json!({ "_meta": meta })),
        Some(Value::Object(map)) => Some(Value::Object(merged(map, meta))),
        Some(other) => Some(other.clone()),
    }
}

/// A plain JSON-RPC request (legacy form, or a notification when `id` is `None`),
/// `params` moved in, not copied.
pub fn body(id: impl Into<Option<u64>>, method: &str, params: Option<Value>) -> Value {
    let mut msg = Map::new();
    msg.insert("jsonrpc".into(), "2.0".into());
    if let Some(id) = id.into() {
        msg.insert("id".into(), id.into());
    }
    msg.insert("method".into(), method.into());
    if let Some(p) = params.filter(|p| !p.is_null()) {
        msg.insert("params".into(), p);
    }
    Value::Object(msg)
}

/// Merges our `_meta` keys into the caller's params, keeping keys they set.
fn merged(params: &Map<String, Value>, meta: Value) -> Map<String, Value> {
    let mut out = params.clone();
    let slot = out.entry("_meta").or_insert_with(|| json!({}));
    if let (Value::Object(slot), Value::Object(ours)) = (slot, meta) {
        for (k, v) in ours {
            slot.entry(k).or_insert(v);
        }
    }
    out
}

/// Headers every POST carries.
pub fn base_headers() -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(
        ACCEPT,
        HeaderValue::from_static("application/json, text/event-stream"),
    );
    h.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    h
}

/// The modern headers that mirror the body: version, method and name.
pub fn modern_headers(method: &str, params: Option<&Value>, version: &str) -> HeaderMap {
    let mut h = base_headers();
    insert(&mut h, HEADER_PROTOCOL_VERSION, version);
    insert(&mut h, HEADER_METHOD, method);
    if let Some(name) = mcp_name(method, params) {
        insert(&mut h, HEADER_NAME, &name);
    }
    h
}

/// Why `method` cannot be sent, `None` when it can: its `Mcp-Method` header mirrors it
/// as it is, so it must be a plain header value (visible ASCII and inner spaces).
/// SEP-2243's `=?base64?…?=` form is for `Mcp-Name` and `Mcp-Param-*` alone: a server
/// compares `Mcp-Method` with the body's method as sent, so a wrapped one (`tools/lïst`,
/// a typo) was answered with a header mismatch (-32020, exit 5), which read as a
/// protocol fault of mur's or the server's (review 609 #8). No MCP method is such a
/// name; the caller refuses it before anything is sent, as a usage error, in a request
/// of `version` (a modern one: a legacy session's carries the method in its body alone).
pub fn unsendable_method(method: &str, version: &str) -> Option<String> {
    (encoded(method) != method).then(|| {
        format!(
            "`{method}` cannot be a method of protocol {version}: its `Mcp-Method` \
             header carries the method as it is, which takes plain ASCII with no control \
             character and no space at either end, as MCP's methods are (`tools/list`); \
             nothing was sent (`--protocol {LEGACY_VERSION}` sends it in the body alone)"
        )
    })
}

/// The `Mcp-Name` value for a request, when its method has one.
pub fn mcp_name(method: &str, params: Option<&Value>) -> Option<String> {
    let key = NAME_KEYS.iter().find(|(m, _)| *m == method)?.1;
    params?.get(key)?.as_str().map(str::to_owned)
}

/// The largest of a `method` request's `headers`, in words, for a server that refuses
/// them as larger than it takes (HTTP 431): the header, what of the request it carries
/// (a 100 KB tool name goes in `Mcp-Name`) and its size.
pub fn largest_header(method: &str, headers: &HeaderMap) -> Option<String> {
    let (name, value) = headers.iter().max_by_key(|(_, value)| value.len())?;
    let carries = match name.as_str() {
        HEADER_NAME => match method.split('/').next() {
            Some("tools") => " (the tool's name)",
            Some("prompts") => " (the prompt's name)",
            Some("resources") => " (the resource's URI)",
            _ => " (the task's id)",
        },
        header if header.starts_with("mcp-param-") => " (an argument the tool mirrors)",
        _ => "",
    };
    Some(format!(
        "its `{name}` header{carries} alone was {} bytes",
        value.len()
    ))
}

/// The `Mcp-Param-{Name}` headers of a `tools/call` (SEP-2243): each
/// argument whose property in the tool's `inputSchema` carries
/// `x-mcp-header: Name`, mirrored (strings Base64-wrapped where needed,
/// integers and booleans as JSON writes them; null or absent ones left out).
/// A tool whose `x-mcp-header`s are invalid (empty, not a token, on a type
/// other than string, integer or boolean, or named twice ignoring case) is
/// refused: `Err` says why, and mur does not call it.
pub fn param_headers(tool: &Value, arguments: Option<&Value>) -> Result<HeaderMap, String> {
    let mut headers = HeaderMap::new();
    let Some(properties) = tool["inputSchema"]["properties"].as_object() else {
        return Ok(headers);
    };
    let mut seen: Vec<String> = Vec::new();
    for (property, spec) in properties {
        let Some(declared) = spec.get("x-mcp-header") else {
            continue;
        };
        let name = declared.as_str().filter(|n| !n.is_empty()).ok_or_else(|| {
            format!("property `{property}` has an empty or non-string x-mcp-header")
        })?;
        if !name.bytes().all(|b| b.is_ascii_graphic() && b != b':') {
            return Err(format!(
                "property `{property}` has x-mcp-header `{name}`, which is not a header name token"
            ));
        }
        let kind = spec["type"].as_str().unwrap_or_default();
        if !matches!(kind, "string" | "integer" | "boolean") {
            return Err(format!(
                "property `{property}` of type `{kind}` has x-mcp-header `{name}`: only strings, \
                 integers and booleans may be mirrored"
            ));
        }
        if seen.iter().any(|s| s.eq_ignore_ascii_case(name)) {
            return Err(format!("x-mcp-header `{name}` is declared twice"));
        }
        seen.push(name.to_owned());
        let text = match arguments.and_then(|a| a.get(property)) {
            None | Some(Value::Null) => continue,
            Some(Value::String(text)) => text.clone(),
            Some(other @ (Value::Number(_) | Value::Bool(_))) => other.to_string(),
            Some(_) => continue,
        };
        let header = format!("mcp-param-{}", name.to_ascii_lowercase());
        if let (Ok(header), Ok(value)) = (
            HeaderName::from_bytes(header.as_bytes()),
            HeaderValue::from_str(&encoded(&text)),
        ) {
            headers.insert(header, value);
        }
    }
    Ok(headers)
}

/// Inserts a header, Base64-wrapping values that are not plain visible ASCII
/// (the SEP-2243 `=?base64?…?=` form).
pub fn insert(h: &mut HeaderMap, name: &'static str, value: &str) {
    if let Ok(v) = HeaderValue::from_str(&encoded(value)) {
        h.insert(HeaderName::from_static(name), v);
    }
}

/// A header value as sent: as it is when it is plain visible ASCII without
/// leading or trailing spaces, else the SEP-2243 `=?base64?…?=` form.
fn encoded(value: &str) -> String {
    let sentinel = value.starts_with("=?base64?") && value.ends_with("?=");
    let plain = !value.starts_with(' ')
        && !value.ends_with(' ')
        && value.bytes().all(|b| (0x20..0x7f).contains(&b))
        && !sentinel;
    if plain {
        value.to_owned()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(value)
        )
    }
}

/// `post`, a request of `method`, marked [`Request::repeatable`] when the
/// server getting it twice does nothing more: `initialize` (its first session,
/// if the server read it before it closed the connection, is left to expire),
/// `notifications/initialized`, `ping` and `tools/list`. Then, should the server
/// close a kept connection without answering it (one that closes connections
/// without `Connection: close`), it is sent again on a new one. Never a
/// `tools/call`, nor anything else that acts.
pub(crate) fn marked(post: Request, method: &str) -> Request {
    match method {
        "initialize" | "notifications/initialized" | "ping" | "tools/list" => post.repeatable(),
        _ => post,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_call_carries_context_in_meta_and_matching_headers() {
        let params = json!({ "name": "tree", "arguments": { "selector": "#x" } });
        let extra = CallMeta {
            progress_token: Some("mur".into()),
            log_level: Some("info"),
            client_info: None,
        };
        let b = modern_body(7, "tools/call", Some(&params), MODERN_VERSION, &extra);
        assert_eq!(b["id"], 7);
        assert_eq!(b["params"]["name"], "tree");
        let meta = &b["params"]["_meta"];
        assert_eq!(
            meta["io.modelcontextprotocol/protocolVersion"],
            MODERN_VERSION
        );
        assert_eq!(meta["io.modelcontextprotocol/clientInfo"]["name"], "mur");
        assert_eq!(
            meta["io.modelcontextprotocol/clientCapabilities"],
            json!({ "elicitation": {}, "extensions": { "io.modelcontextprotocol/tasks": {} } })
        );
        assert_eq!(meta["progressToken"], "mur");
        assert_eq!(meta["io.modelcontextprotocol/logLevel"], "info");
        let h = modern_headers("tools/call", Some(&params), MODERN_VERSION);
        assert_eq!(h["mcp-protocol-version"], MODERN_VERSION);
        assert_eq!(h["mcp-method"], "tools/call");
        assert_eq!(h["mcp-name"], "tree");
        assert_eq!(h["accept"], "application/json, text/event-stream");
    }

    #[test]
    fn a_method_without_params_still_gets_meta_and_no_name() {
        let b = modern_body(1, "tools/list", None, MODERN_VERSION, &CallMeta::default());
        assert!(b["params"]["_meta"].is_object());
        assert!(
            modern_headers("tools/list", None, MODERN_VERSION)
                .get("mcp-name")
                .is_none()
        );
    }

    /// A method that is no plain header value is refused, said so: wrapped in Base64 in
    /// its `Mcp-Method` header, the server answered it with a header mismatch.
    #[test]
    fn a_method_that_cannot_be_a_header_value_is_refused() {
        for method in ["tools/list", "ping", "x/a b", "notifications/cancelled"] {
            assert_eq!(unsendable_method(method, MODERN_VERSION), None, "{method}");
        }
        for method in [
            "tools/l\u{ef}st",
            "tools/list\r\nX-Injected: 1",
            " tools/list",
            "tools/list ",
            "tools/\tlist",
            "=?base64?dG9vbHMvbGlzdA==?=",
        ] {
            let why = unsendable_method(method, MODERN_VERSION).expect(method);
            assert!(
                why.starts_with(&format!(
                    "`{method}` cannot be a method of protocol 2026-07-28: "
                )),
                "{why}"
            );
            assert!(
                why.ends_with(
                    "; nothing was sent (`--protocol 2025-11-25` sends it in the body alone)"
                ),
                "{why}"
            );
        }
    }

    #[test]
    fn odd_header_values_are_base64_wrapped() {
        let mut h = HeaderMap::new();
        insert(&mut h, HEADER_NAME, "größe");
        assert_eq!(h["mcp-name"], "=?base64?Z3LDtsOfZQ==?=");
    }

    #[test]
    fn x_mcp_header_arguments_are_mirrored_and_invalid_declarations_refused() {
        let tool = json!({ "inputSchema": { "type": "object", "properties": {
            "region": { "type": "string", "x-mcp-header": "Region" },
            "priority": { "type": "integer", "x-mcp-header": "Priority" },
            "debug": { "type": "boolean", "x-mcp-header": "Debug" },
            "note": { "type": "string", "x-mcp-header": "Note" },
            "verbose": { "type": "boolean", "x-mcp-header": "Verbose" },
            "query": { "type": "string" }
        } } });
        let args = json!({ "region": "us-west1", "priority": 42, "debug": true,
                           "note": " padded ", "verbose": null, "query": "SELECT 1" });
        let h = param_headers(&tool, Some(&args)).expect("valid");
        assert_eq!(h["mcp-param-region"], "us-west1");
        assert_eq!(h["mcp-param-priority"], "42");
        assert_eq!(h["mcp-param-debug"], "true");
        assert_eq!(h["mcp-param-note"], "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(h.len(), 4);
        let bad = |spec: Value| {
            let tool = json!({ "inputSchema": { "properties": spec } });
            param_headers(&tool, None).expect_err("invalid")
        };
        bad(json!({ "v": { "type": "string", "x-mcp-header": "" } }));
        bad(json!({ "v": { "type": "number", "x-mcp-header": "Score" } }));
        bad(json!({ "v": { "type": "string", "x-mcp-header": "My Region" } }));
        bad(json!({ "a": { "type": "string", "x-mcp-header": "F" },
                    "b": { "type": "string", "x-mcp-header": "f" } }));
    }

    #[test]
    fn notifications_have_no_id() {
        let n = body(None, "notifications/initialized", None);
        assert!(n.get("id").is_none());
    }
}
