//! JSON-RPC request bodies and the HTTP headers that must match them, in the
//! modern (2026-07-28, stateless) and legacy (2025-11-25, session) forms.

use base64::Engine as _;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use serde_json::{Map, Value, json};

/// The revision `mur` speaks first.
pub const MODERN_VERSION: &str = "2026-07-28";
/// The revision offered to servers that need `initialize` and a session.
pub const LEGACY_VERSION: &str = "2025-11-25";

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

/// The `_meta` keys a request of this call carries besides the client's
/// context: the progress token, and (2026-07-28) the log level asked for.
#[derive(Debug, Clone, Default)]
pub struct CallMeta {
    pub progress_token: Option<String>,
    pub log_level: Option<&'static str>,
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
        "io.modelcontextprotocol/clientInfo": client_info(),
        "io.modelcontextprotocol/clientCapabilities": client_capabilities(),
    });
    if let Some(token) = &extra.progress_token {
        meta["progressToken"] = token.clone().into();
    }
    if let Some(level) = extra.log_level {
        meta["io.modelcontextprotocol/logLevel"] = level.into();
    }
    body(id, method, with_meta(params, meta).as_ref())
}

/// A request in the session form: only the progress token in `params._meta`.
pub fn session_body(id: u64, method: &str, params: Option<&Value>, extra: &CallMeta) -> Value {
    match &extra.progress_token {
        Some(token) => body(
            id,
            method,
            with_meta(params, json!({ "progressToken": token })).as_ref(),
        ),
        None => body(id, method, params),
    }
}

/// `params` with our `_meta` keys merged in (keys the caller set are kept);
/// positional params cannot carry `_meta` and are sent untouched.
fn with_meta(params: Option<&Value>, meta: Value) -> Option<Value> {
    match params {
        None | Some(Value::Null) => Some(json!({ "_meta": meta })),
        Some(Value::Object(map)) => Some(Value::Object(merged(map, meta))),
        Some(other) => Some(other.clone()),
    }
}

/// A plain JSON-RPC request (legacy form, or a notification when `id` is `None`).
pub fn body(id: impl Into<Option<u64>>, method: &str, params: Option<&Value>) -> Value {
    let mut msg = Map::new();
    msg.insert("jsonrpc".into(), "2.0".into());
    if let Some(id) = id.into() {
        msg.insert("id".into(), id.into());
    }
    msg.insert("method".into(), method.into());
    if let Some(p) = params.filter(|p| !p.is_null()) {
        msg.insert("params".into(), p.clone());
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

/// The `Mcp-Name` value for a request, when its method has one.
pub fn mcp_name(method: &str, params: Option<&Value>) -> Option<String> {
    let key = NAME_KEYS.iter().find(|(m, _)| *m == method)?.1;
    params?.get(key)?.as_str().map(str::to_owned)
}

/// Inserts a header, Base64-wrapping values that are not plain visible ASCII
/// (the SEP-2243 `=?base64?…?=` form).
pub fn insert(h: &mut HeaderMap, name: &'static str, value: &str) {
    let sentinel = value.starts_with("=?base64?") && value.ends_with("?=");
    let plain = !value.starts_with(' ')
        && !value.ends_with(' ')
        && value.bytes().all(|b| (0x20..0x7f).contains(&b))
        && !sentinel;
    let text = if plain {
        value.to_owned()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(value)
        )
    };
    if let Ok(v) = HeaderValue::from_str(&text) {
        h.insert(HeaderName::from_static(name), v);
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
            json!({ "elicitation": {} })
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

    #[test]
    fn odd_header_values_are_base64_wrapped() {
        let mut h = HeaderMap::new();
        insert(&mut h, HEADER_NAME, "größe");
        assert_eq!(h["mcp-name"], "=?base64?Z3LDtsOfZQ==?=");
    }

    #[test]
    fn notifications_have_no_id() {
        let n = body(None, "notifications/initialized", None);
        assert!(n.get("id").is_none());
    }
}
