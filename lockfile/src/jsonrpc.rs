//! JSON-RPC 2.0 as a session speaks it, defined once: the error codes mur and its
//! sessions answer with and tell replies apart by, and the messages built by hand (the
//! stdio bridge and the proxy relay and refuse messages, `mur-server` refuses a body
//! rmcp cannot take, `mur` answers a server's question). Here, in the contract crate,
//! because it is the one crate under all of them: `mur-server` depends on neither
//! `mur-core` nor `mur-client`, and `mur-http` below it reads no JSON.
//!
//! Each message's keys come in the order a reader sees them written (serde_json keeps
//! insertion order here): `jsonrpc`, `id`, then `method` and `params`, `result` or
//! `error` — `code`, `message`, `data`.

use serde_json::{Value, json};

/// The text is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON, but not a request.
pub const INVALID_REQUEST: i64 = -32600;
/// The method is not served.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// The method's params are wrong (MCP: also an unknown tool).
pub const INVALID_PARAMS: i64 = -32602;
/// The request was read and failed.
pub const INTERNAL_ERROR: i64 = -32603;
/// MCP 2026-07-28: the request's protocol version is not one the server speaks;
/// `data.supported` names those it does.
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// A request: `{"jsonrpc":"2.0","id":…,"method":…}`, with `params` when given.
pub fn request(id: impl Into<Value>, method: &str, params: Option<Value>) -> Value {
    let mut message = json!({ "jsonrpc": "2.0", "id": id.into(), "method": method });
    if let Some(params) = params {
        message["params"] = params;
    }
    message
}

/// A notification: `{"jsonrpc":"2.0","method":…}`, with `params` when given.
pub fn notification(method: &str, params: Option<Value>) -> Value {
    let mut message = json!({ "jsonrpc": "2.0", "method": method });
    if let Some(params) = params {
        message["params"] = params;
    }
    message
}

/// An answer: `{"jsonrpc":"2.0","id":…,"result":…}`.
pub fn result(id: impl Into<Value>, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id.into(), "result": result })
}

/// An error answer: `{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}`.
pub fn error(id: impl Into<Value>, code: i64, message: &str) -> Value {
    error_reply(id, error_object(code, message))
}

/// An error answer whose error carries `data`: `{"code":…,"message":…,"data":…}`.
pub fn error_with_data(id: impl Into<Value>, code: i64, message: &str, data: Value) -> Value {
    error_reply(
        id,
        json!({ "code": code, "message": message, "data": data }),
    )
}

/// An error answer carrying `error` as it is: one passed on from elsewhere, or built
/// by [`error_object`].
pub fn error_reply(id: impl Into<Value>, error: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id.into(), "error": error })
}

/// An error object alone: `{"code":…,"message":…}`.
pub fn error_object(code: i64, message: &str) -> Value {
    json!({ "code": code, "message": message })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text each message is written as, keys in order: what a client or a
    /// server reads, and what tests elsewhere compare whole.
    #[test]
    fn each_message_is_written_as_json_rpc_2_0_in_its_key_order() {
        let written = [
            request(1, "tools/call", None),
            request("q1", "elicitation/create", Some(json!({ "message": "?" }))),
            notification("notifications/initialized", None),
            notification("notifications/progress", Some(json!({ "progress": 1 }))),
            result(json!(7), json!({})),
            error(Value::Null, PARSE_ERROR, "Parse error"),
            error_with_data(3, INTERNAL_ERROR, "m", json!({ "x": true })),
            error_reply("k".to_owned(), json!({ "code": 5, "message": "as told" })),
        ]
        .map(|message| message.to_string());
        assert_eq!(
            written,
            [
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
                r#"{"jsonrpc":"2.0","id":"q1","method":"elicitation/create","params":{"message":"?"}}"#,
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}"#,
                r#"{"jsonrpc":"2.0","id":7,"result":{}}"#,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
                r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"m","data":{"x":true}}}"#,
                r#"{"jsonrpc":"2.0","id":"k","error":{"code":5,"message":"as told"}}"#,
            ]
        );
    }

    /// The codes as JSON-RPC 2.0 and MCP number them.
    #[test]
    fn the_codes_are_the_specifications() {
        assert_eq!(
            [
                PARSE_ERROR,
                INVALID_REQUEST,
                METHOD_NOT_FOUND,
                INVALID_PARAMS,
                INTERNAL_ERROR,
                UNSUPPORTED_PROTOCOL_VERSION,
            ],
            [-32700, -32600, -32601, -32602, -32603, -32022]
        );
    }
}
