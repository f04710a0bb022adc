//! The tasks extension (2026-07-28) over real HTTP, against `mur-sample` with its
//! conformance fixtures: `tasks/*` with malformed params are -32602 saying what was
//! wrong, and the tasks a session keeps, running or ended, are capped (the sample's
//! hidden `--max-kept-tasks` makes the cap small enough to reach).
#![cfg(unix)]

use serde_json::{Value, json};

use crate::support::{Session, World, mcp, wait_until};

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

/// `confirm_delete` from a client that follows tasks: it asks a question at
/// once, so it becomes a task whenever the session may make one.
fn confirm_delete(endpoint: &str) -> Value {
    let params = json!({ "name": "confirm_delete", "arguments": { "filename": "f" } });
    let (status, answer) = post(endpoint, "tools/call", params, true);
    assert_eq!(status, 200, "{answer}");
    answer["result"].clone()
}

fn task_status(endpoint: &str, id: &str) -> Value {
    let (_, answer) = post(endpoint, "tasks/get", json!({ "taskId": id }), true);
    answer["result"]["status"].clone()
}

/// A `confirm_delete` task, cancelled and read until it has ended: its id.
fn ended_task(endpoint: &str) -> String {
    let created = confirm_delete(endpoint);
    assert_eq!(created["resultType"], "task", "{created}");
    let id = created["taskId"].as_str().expect("taskId").to_owned();
    let (_, ack) = post(endpoint, "tasks/cancel", json!({ "taskId": id }), true);
    assert!(ack.get("result").is_some(), "{ack}");
    wait_until("the cancelled task to end", || {
        (task_status(endpoint, &id) == "cancelled").then_some(())
    });
    id
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

#[test]
fn at_its_cap_of_tasks_kept_a_session_serves_calls_within_their_requests() {
    let (_world, session) = start_fixtures(&["--max-kept-tasks", "2"]);
    let endpoint = &session.lock.endpoint;
    // Two tasks made and cancelled, as a flood of them would be: none runs.
    let ended = [ended_task(endpoint), ended_task(endpoint)];

    // Ended tasks count: the question of the next call is a round of its
    // request (input-required), not a third task.
    let third = confirm_delete(endpoint);
    assert_eq!(third["resultType"], "input_required", "{third}");
    assert!(third["inputRequests"].get("confirm").is_some(), "{third}");
    // The cap drops no result a client may still read.
    for id in &ended {
        assert_eq!(task_status(endpoint, id), "cancelled", "{id}");
    }
}
