//! MCP calls over real HTTP: modern stateless requests get plain JSON, legacy
//! clients still initialize and use a session; results carry the documented shapes.
#![cfg(unix)]

use crate::support::{World, assert_invalid_params_saying, mcp, run_to_end};
use base64::Engine as _;
use serde_json::{Value, json};

#[test]
fn modern_tools_call_returns_structured_content_and_the_same_json_as_text() {
    let (world, _session) = World::started();
    let answer = mcp::call_tool(&world.endpoint(), "echo", json!({ "text": "hi" }));

    let result = &answer["result"];
    assert_eq!(answer["id"], 1);
    assert_eq!(result["structuredContent"], json!({ "echo": "hi" }));
    assert_eq!(result["isError"], false);
    assert_eq!(
        mcp::text_as_json(&result["content"][0]),
        json!({ "echo": "hi" })
    );
}

#[test]
fn image_tool_returns_a_png_block_with_size_details() {
    let (world, _session) = World::started();
    let answer = mcp::call_tool(&world.endpoint(), "pixel", json!({}));
    let result = &answer["result"];

    let image = &result["content"][0];
    assert_eq!(image["type"], "image");
    assert_eq!(image["mimeType"], "image/png");
    let png = base64::engine::general_purpose::STANDARD
        .decode(image["data"].as_str().expect("data"))
        .expect("base64");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(result["structuredContent"]["width"], 1);
    assert_eq!(result["structuredContent"]["height"], 1);
    assert_eq!(result["structuredContent"]["window"], "main");
    assert_eq!(
        mcp::text_as_json(&result["content"][1]),
        result["structuredContent"]
    );
}

#[test]
fn tool_failure_is_a_result_with_is_error_and_the_message() {
    let (world, _session) = World::started();
    let answer = mcp::call_tool(&world.endpoint(), "fail", json!({}));
    assert_eq!(answer["result"]["isError"], true);
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "no element matches `#missing`"
    );
}

#[test]
fn unknown_tool_is_an_invalid_params_error_naming_it() {
    let (world, _session) = World::started();
    let answer = mcp::call_tool(&world.endpoint(), "nosuchtool", json!({}));
    assert_invalid_params_saying(&answer, "`nosuchtool`");
}

#[test]
fn malformed_params_of_a_known_method_are_invalid_params_saying_what_is_wrong() {
    let (world, _session) = World::started();
    let endpoint = world.endpoint();
    for (method, params, message) in [
        (
            "tools/call",
            json!({ "name": "echo", "arguments": ["hi"] }),
            "invalid params for `tools/call`: `arguments` must be an object of the tool's arguments by name (invalid type: sequence, expected a map)",
        ),
        (
            "tools/call",
            json!({ "arguments": {} }),
            "invalid params for `tools/call`: missing field `name`",
        ),
        (
            "resources/read",
            json!({ "uri": 7 }),
            "invalid params for `resources/read`: invalid type: integer `7`, expected a string",
        ),
    ] {
        let answer = mcp::modern(&endpoint, method, params);
        assert_eq!(mcp::error_message(&answer, -32602), message, "{answer}");
    }
}

#[test]
fn tools_list_publishes_schemas_titles_and_hints() {
    let (world, _session) = World::started();
    let answer = mcp::modern(&world.endpoint(), "tools/list", json!({}));
    let tools = answer["result"]["tools"].as_array().expect("tools");
    let names: Vec<&str> = tools
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "echo", "pixel", "fail", "reload", "steps", "confirm", "mixed"
        ]
    );

    let echo = &tools[0];
    assert_eq!(echo["inputSchema"]["properties"]["text"]["type"], "string");
    assert_eq!(echo["title"], "Echo");
    assert_eq!(echo["annotations"]["readOnlyHint"], true);
    assert_eq!(echo["annotations"]["idempotentHint"], true);
    let reload = &tools[3];
    assert_eq!(reload["annotations"]["readOnlyHint"], false);
    assert_eq!(reload["annotations"]["destructiveHint"], true);
}

#[test]
fn server_info_comes_from_the_options() {
    let (world, _session) = World::started();
    let answer = mcp::modern(&world.endpoint(), "server/discover", json!({}));
    let result = &answer["result"];
    // 2026-07-28 carries the server's identity in `_meta` of every result.
    let info = &result["_meta"]["io.modelcontextprotocol/serverInfo"];
    assert_eq!(info["name"], "minimal-session", "{answer}");
    assert_eq!(info["version"], "0.0.1", "{answer}");
    assert!(result["capabilities"]["tools"].is_object(), "{answer}");
}

#[test]
fn legacy_client_initializes_gets_a_session_and_calls_a_tool() {
    let (world, _session) = World::started();
    let endpoint = world.endpoint();

    let init = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": mcp::LEGACY, "capabilities": {}, "clientInfo": { "name": "legacy", "version": "0" } } });
    let response = mcp::post(&endpoint).json(&init).send().expect("initialize");
    assert_eq!(response.status(), 200);
    let session_id = response
        .headers()
        .get("mcp-session-id")
        .expect("Mcp-Session-Id")
        .to_str()
        .expect("ascii")
        .to_owned();
    let initialized = mcp::message_with_id(response, 1);
    assert_eq!(
        initialized["result"]["serverInfo"]["name"],
        "minimal-session"
    );

    let legacy_post = |body: Value| {
        mcp::post(&endpoint)
            .header("Mcp-Session-Id", &session_id)
            .header("MCP-Protocol-Version", mcp::LEGACY)
            .json(&body)
    };
    let note = legacy_post(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
        .send()
        .expect("notify");
    assert_eq!(note.status(), 202);
    let call = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": "old" } } });
    let answer = mcp::message_with_id(legacy_post(call).send().expect("tools/call"), 2);
    assert_eq!(
        answer["result"]["structuredContent"],
        json!({ "echo": "old" })
    );

    let closed = mcp::client()
        .delete(&endpoint)
        .header("Mcp-Session-Id", &session_id)
        .send()
        .expect("DELETE");
    assert!(
        closed.status().is_success(),
        "DELETE answered {}",
        closed.status()
    );
}

/// A usage log at the path the app was given that cannot be written (its directory does
/// not exist) refuses the start: one line saying why and how to fix it, exit 1, no
/// session and no directory made. It warned and ran on, recording nothing of the calls
/// it was started to record.
#[test]
fn a_usage_log_that_cannot_be_written_refuses_the_start() {
    let world = World::new();
    let missing = world.sandbox.root().join("no-such-dir");
    let log = missing.join("served.jsonl");
    let arg = log.to_str().expect("utf-8 path");
    // On stdio with no input: a session that ran on would end at once, exit 0.
    let mut command =
        world.command_for(mur_testkit::sample_bin(), &["--stdio", "--usage-log", arg]);
    command.stdin(std::process::Stdio::null());
    let output = run_to_end(command);
    assert_eq!(output.code, 1, "{}", output.stderr);
    assert_eq!(
        output.stderr,
        format!(
            "[devtools] error: cannot write the usage log `{arg}`: the directory `{}` does not exist\n\
             hint: record usage to a file in a directory that exists and you can write, or leave it off\n",
            missing.display()
        )
    );
    assert!(!missing.exists(), "a directory was made");
    assert_eq!(world.read_lockfile(), None, "no session");
}
