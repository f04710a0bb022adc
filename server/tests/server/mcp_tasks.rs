//! The tasks extension (2026-07-28) over real HTTP, against `mur-sample` with its
//! conformance fixtures: `tasks/*` with malformed params are -32602 saying what was
//! wrong.
#![cfg(unix)]

use serde_json::{Value, json};

use crate::support::{Session, World, mcp};

/// `mur-sample` with its fixture tools and `extra` arguments.
fn start_fixtures(extra: &[&str]) -> (World, Session) {
    let world = World::new();
    let mut args = vec!["--conformance-fixtures"];
    args.extend_from_slice(extra);
    let session = world.sandbox.start_sample_with(&world.project, &args);
    (world, session)
}

/// A 2026-07-28 request from a client that answers questions and, when
/// `follows_tasks`, declares the tasks extension, written out by hand (the
/// `Mcp-Name` header names the tool or task): its HTTP status and JSON-RPC answer.
fn post(endpoint: &str, method: &str, mut params: Value, follows_tasks: bool) -> (u16, Value) {
    let mut meta = mcp::modern_meta();
    let mut capabilities = json!({ "elicitation": {} });
    if follows_tasks {
        capabilities["extensions"] = json!({ "io.modelcontextprotocol/tasks": {} });
    }
    meta["io.modelcontextprotocol/clientCapabilities"] = capabilities;
    params["_meta"] = meta;
    let mut request = mcp::post(endpoint)
        .header("MCP-Protocol-Version", mcp::MODERN)
        .header("Mcp-Method", method);
    if let Some(name) = params["name"].as_str().or(params["taskId"].as_str()) {
        request = request.header("Mcp-Name", name);
    }
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    let response = request.json(&body).send().expect("POST /mcp");
    let status = response.status().as_u16();
    (status, mcp::message_with_id(response, 1))
}

#[test]
fn malformed_params_of_the_tasks_methods_are_invalid_params_saying_what_is_wrong() {
    let (_world, session) = start_fixtures(&[]);
    let endpoint = &session.lock.endpoint;
    for (method, params, fault) in [
        ("tasks/get", json!({}), "missing field `taskId`"),
        (
            "tasks/get",
            json!({ "taskId": 5 }),
            "invalid type: integer `5`, expected a string",
        ),
        (
            "tasks/update",
            json!({ "taskId": "t" }),
            "missing field `inputResponses`",
        ),
        (
            "tasks/update",
            json!({ "taskId": "t", "inputResponses": [1, 2] }),
            "invalid type: sequence, expected a map",
        ),
        ("tasks/cancel", json!({}), "missing field `taskId`"),
        (
            "tasks/cancel",
            json!({ "taskId": ["t"] }),
            "invalid type: sequence, expected a string",
        ),
    ] {
        let (status, answer) = post(endpoint, method, params.clone(), true);
        let message = mcp::error_message(&answer, -32602);
        assert_eq!(
            message,
            format!("invalid params for `{method}`: {fault}"),
            "{params}"
        );
        assert_eq!(status, 200, "{method} {params}: {answer}");
    }
    // As for well-formed params, a request that did not declare the extension
    // is told it must (-32021) before anything else.
    let (_, answer) = post(endpoint, "tasks/get", json!({ "taskId": 5 }), false);
    mcp::error_message(&answer, -32021);
}
