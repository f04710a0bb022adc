//! The rest of MCP over real HTTP against the example session: progress and log
//! messages from a running tool, questions (input-required results with sealed
//! state), mixed content, resources and templates, prompts, and what
//! `server/discover` declares; bad input gets a JSON-RPC error, never a crash.
#![cfg(unix)]

use crate::support::{World, assert_invalid_params_saying, mcp};
use serde_json::{Value, json};

#[test]
fn a_tool_reports_progress_to_a_caller_that_sent_a_token() {
    let (world, _session) = World::started();
    let messages = mcp::tool_exchange(
        &world.endpoint(),
        "steps",
        json!({}),
        json!({ "progressToken": "p-1" }),
    );
    let progress = mcp::notifications(&messages, "notifications/progress");
    let values: Vec<f64> = progress
        .iter()
        .map(|n| {
            assert_eq!(n["params"]["progressToken"], "p-1");
            assert_eq!(n["params"]["total"], 3.0);
            n["params"]["progress"].as_f64().expect("progress")
        })
        .collect();
    assert_eq!(values, [1.0, 2.0, 3.0], "{messages:?}");
    assert_eq!(progress[0]["params"]["message"], "step 1");
    assert_eq!(
        mcp::response(&messages)["result"]["structuredContent"]["steps"],
        3
    );

    // No token, no progress: the answer is plain JSON.
    let quiet = mcp::tool_exchange(&world.endpoint(), "steps", json!({}), json!({}));
    assert_eq!(quiet.len(), 1, "{quiet:?}");
}

#[test]
fn log_messages_reach_a_caller_at_its_log_level_and_no_one_else() {
    let (world, _session) = World::started();
    let endpoint = world.endpoint();
    let debug = mcp::tool_exchange(
        &endpoint,
        "steps",
        json!({}),
        json!({ "io.modelcontextprotocol/logLevel": "debug" }),
    );
    let logs = mcp::notifications(&debug, "notifications/message");
    assert_eq!(logs.len(), 6, "{debug:?}");
    assert_eq!(logs[0]["params"]["level"], "info");
    assert_eq!(logs[0]["params"]["data"], "step 1");
    assert_eq!(logs[0]["params"]["logger"], "minimal-session");
    assert_eq!(logs[1]["params"]["data"], json!({ "detail": 1 }));

    let info = mcp::tool_exchange(
        &endpoint,
        "steps",
        json!({}),
        json!({ "io.modelcontextprotocol/logLevel": "info" }),
    );
    let levels: Vec<&Value> = mcp::notifications(&info, "notifications/message")
        .iter()
        .map(|n| &n["params"]["level"])
        .collect();
    assert_eq!(levels, ["info", "info", "info"]);

    let silent = mcp::tool_exchange(&endpoint, "steps", json!({}), json!({}));
    assert!(
        mcp::notifications(&silent, "notifications/message").is_empty(),
        "{silent:?}"
    );
}

#[test]
fn a_question_is_an_input_required_result_answered_in_the_next_call() {
    let (world, _session) = World::started();
    let endpoint = world.endpoint();
    let caps = json!({ "io.modelcontextprotocol/clientCapabilities": { "elicitation": {} } });

    let first = mcp::tool_exchange(&endpoint, "confirm", json!({}), caps.clone());
    let asked = &mcp::response(&first)["result"];
    assert_eq!(asked["resultType"], "input_required", "{asked}");
    assert_eq!(asked["inputRequests"]["go"]["method"], "elicitation/create");
    assert_eq!(
        asked["inputRequests"]["go"]["params"]["message"],
        "Go ahead?"
    );
    let state = asked["requestState"]
        .as_str()
        .expect("sealed state")
        .to_owned();
    assert!(
        !state.contains("asked"),
        "the state is sealed, not plain: {state}"
    );

    let yes = json!({ "action": "accept", "content": { "ok": true } });
    let second = mcp::tool_exchange(
        &endpoint,
        "confirm",
        json!({ "inputResponses": { "go": yes }, "requestState": state }),
        caps.clone(),
    );
    let done = &mcp::response(&second)["result"];
    assert_eq!(done["resultType"], "complete", "{done}");
    assert_eq!(done["structuredContent"], json!({ "confirmed": true }));

    // A malformed answer is asked again.
    let again = mcp::tool_exchange(
        &endpoint,
        "confirm",
        json!({ "inputResponses": { "go": 7 } }),
        caps.clone(),
    );
    assert_eq!(
        mcp::response(&again)["result"]["resultType"],
        "input_required"
    );

    // A state that was changed on the way is refused before the tool runs.
    let mut tampered = state.clone();
    let last = tampered.pop().expect("state");
    tampered.push(if last == 'x' { 'y' } else { 'x' });
    let refused = mcp::tool_exchange(
        &endpoint,
        "confirm",
        json!({ "requestState": tampered }),
        caps,
    );
    mcp::error_message(mcp::response(&refused), -32602);
}

#[test]
fn a_question_for_a_client_that_cannot_answer_is_a_missing_capability_error() {
    let (world, _session) = World::started();
    let messages = mcp::tool_exchange(&world.endpoint(), "confirm", json!({}), json!({}));
    let error = &mcp::response(&messages)["error"];
    assert_eq!(error["code"], -32021, "{messages:?}");
    assert!(
        error["data"]["requiredCapabilities"]["elicitation"].is_object(),
        "{error}"
    );
}

#[test]
fn one_result_can_mix_text_image_audio_and_an_embedded_resource() {
    let (world, _session) = World::started();
    let answer = mcp::call_tool(&world.endpoint(), "mixed", json!({}));
    let content = answer["result"]["content"].as_array().expect("content");
    let kinds: Vec<&Value> = content.iter().map(|block| &block["type"]).collect();
    assert_eq!(kinds, ["text", "image", "audio", "resource"], "{answer}");
    assert_eq!(content[2]["mimeType"], "audio/wav");
    assert_eq!(content[2]["data"], "UklGRi4uLi5XQVZF"); // base64 of RIFF....WAVE
    assert_eq!(content[3]["resource"]["uri"], "example://readme");
    assert_eq!(content[3]["resource"]["mimeType"], "text/plain");
    assert_eq!(
        answer["result"]["structuredContent"],
        json!({ "blocks": 4 })
    );
}

#[test]
fn resources_and_templates_are_listed_and_read() {
    let (world, _session) = World::started();
    let endpoint = world.endpoint();
    // Whole entries: the address under its own key, the shared fields, and a title
    // only where the app gave one (the template's, through its `with_title`).
    for (method, key, entries) in [
        (
            "resources/list",
            "resources",
            json!([{
                "uri": "example://readme",
                "name": "readme",
                "description": "What this session is",
                "mimeType": "text/plain"
            }]),
        ),
        (
            "resources/templates/list",
            "resourceTemplates",
            json!([{
                "uriTemplate": "example://items/{id}",
                "name": "item",
                "title": "Item by number",
                "description": "Item number `id`",
                "mimeType": "application/json"
            }]),
        ),
    ] {
        let listed = mcp::modern(&endpoint, method, json!({}));
        assert_eq!(listed["result"][key], entries, "{method}: {listed}");
    }

    let read = |uri: &str| mcp::read_resource(&endpoint, uri);
    let contents = |uri: &str| mcp::resource_contents(&endpoint, uri);
    assert_eq!(
        contents("example://readme")["text"],
        "The minimal session serves four tools and this text."
    );
    let item = contents("example://items/7");
    assert_eq!(mcp::text_as_json(&item), json!({ "id": 7, "square": 49 }));
    assert_eq!(item["uri"], "example://items/7");

    let unknown = read("example://nothing");
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert_eq!(unknown["error"]["data"]["uri"], "example://nothing");
    let bad_id = read("example://items/seven");
    assert_invalid_params_saying(&bad_id, "`seven`");
}

#[test]
fn prompts_are_listed_and_got_with_their_arguments_checked() {
    let (world, _session) = World::started();
    let endpoint = world.endpoint();
    let listed = mcp::modern(&endpoint, "prompts/list", json!({}));
    let greet = &listed["result"]["prompts"][0];
    assert_eq!(greet["name"], "greet", "{listed}");
    assert_eq!(
        greet["arguments"][0],
        json!({ "name": "name", "description": "who to greet", "required": true })
    );
    assert_eq!(greet["arguments"][1]["required"], false);

    let get = |arguments: Value| {
        let messages = mcp::exchange(
            &endpoint,
            "prompts/get",
            json!({ "name": "greet", "arguments": arguments }),
            json!({}),
        );
        mcp::response(&messages).clone()
    };
    let warm = get(json!({ "name": "Ada", "style": "warm" }));
    assert_eq!(warm["result"]["messages"][0]["role"], "user", "{warm}");
    assert_eq!(
        warm["result"]["messages"][0]["content"]["text"],
        "A very warm welcome, Ada!"
    );

    for (arguments, says) in [
        (json!({}), "`name`"),
        (json!({ "name": "Ada", "mood": "x" }), "`mood`"),
        (json!({ "name": 3 }), "must be a string"),
    ] {
        let refused = get(arguments.clone());
        // One check of code and message, so that either failing names the arguments.
        let message = refused["error"]["message"].as_str().unwrap_or_default();
        assert!(
            refused["error"]["code"] == -32602 && message.contains(says),
            "{arguments}: not an invalid-params error saying {says}: {refused}"
        );
    }
    let unknown = mcp::exchange(
        &endpoint,
        "prompts/get",
        json!({ "name": "nope" }),
        json!({}),
    );
    mcp::error_message(mcp::response(&unknown), -32602);
}

#[test]
fn discover_declares_what_is_registered() {
    let (world, _session) = World::started();
    let discovered = mcp::modern(&world.endpoint(), "server/discover", json!({}));
    let caps = &discovered["result"]["capabilities"];
    for capability in ["tools", "resources", "prompts", "logging"] {
        assert!(
            caps[capability].is_object(),
            "`{capability}` not declared: {discovered}"
        );
    }
    // No `subscriptions/listen` on 2026-07-28, so no subscription is promised.
    assert!(caps["resources"]["subscribe"].is_null(), "{discovered}");
}

/// A 2025-11-25 client: `initialize`, then every request in its session.
pub(crate) struct LegacySession {
    endpoint: String,
    /// Its `Mcp-Session-Id`.
    pub(crate) id: String,
}

impl LegacySession {
    pub(crate) fn start(endpoint: &str, capabilities: Value) -> Self {
        let init = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": mcp::LEGACY, "capabilities": capabilities,
            "clientInfo": { "name": "legacy", "version": "0" } } });
        let response = mcp::post(endpoint).json(&init).send().expect("initialize");
        let id = response.headers()["mcp-session-id"]
            .to_str()
            .expect("ascii")
            .to_owned();
        let initialized = mcp::message_with_id(response, 1);
        let session = Self {
            endpoint: endpoint.to_owned(),
            id,
        };
        let note =
            session.post(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        assert_eq!(note.status(), 202);
        assert_eq!(
            initialized["result"]["capabilities"]["resources"]["subscribe"],
            true
        );
        session
    }

    pub(crate) fn post(&self, body: &Value) -> reqwest::blocking::Response {
        mcp::post(&self.endpoint)
            .header("Mcp-Session-Id", &self.id)
            .header("MCP-Protocol-Version", mcp::LEGACY)
            .json(body)
            .send()
            .expect("POST in the session")
    }

    /// The session's own event stream (notifications not tied to one request).
    fn open_stream(&self) -> reqwest::blocking::Response {
        mcp::client()
            .get(&self.endpoint)
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", &self.id)
            .header("MCP-Protocol-Version", mcp::LEGACY)
            .send()
            .expect("GET the session stream")
    }
}

/// The next JSON message of an SSE stream, or `None` at its end.
fn next_event(stream: &mut impl std::io::BufRead) -> Option<Value> {
    let mut line = String::new();
    loop {
        line.clear();
        if stream.read_line(&mut line).expect("read the stream") == 0 {
            return None;
        }
        if let Some(data) = line.strip_prefix("data:")
            && let Ok(message) = serde_json::from_str(data.trim())
        {
            return Some(message);
        }
    }
}

#[test]
fn a_legacy_session_sets_its_log_level_and_gets_the_messages_on_its_stream() {
    let (world, _session) = World::started();
    let session = LegacySession::start(&world.endpoint(), json!({}));
    let set = session.post(&json!({ "jsonrpc": "2.0", "id": 2, "method": "logging/setLevel", "params": { "level": "debug" } }));
    assert_eq!(mcp::message_with_id(set, 2)["result"], json!({}));
    let stream = session.open_stream();
    assert_eq!(stream.status(), 200);
    assert_eq!(mcp::content_type(&stream), "text/event-stream");
    let mut stream = std::io::BufReader::new(stream);

    let call = json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": { "name": "steps", "arguments": {} } });
    let answer = mcp::message_with_id(session.post(&call), 3);
    assert_eq!(answer["result"]["structuredContent"]["steps"], 3);
    // At `debug`, the three debug details come too (the default, `info`, drops them).
    let mut levels = Vec::new();
    while levels.len() < 6 {
        let message = next_event(&mut stream).expect("the stream ended early");
        if message["method"] == "notifications/message" {
            levels.push(
                message["params"]["level"]
                    .as_str()
                    .unwrap_or("?")
                    .to_owned(),
            );
        }
    }
    assert_eq!(levels, ["info", "debug", "info", "debug", "info", "debug"]);
}

#[test]
fn a_legacy_session_is_asked_over_the_response_stream_and_answers_in_the_session() {
    let (world, _session) = World::started();
    let session = LegacySession::start(&world.endpoint(), json!({ "elicitation": {} }));
    let call = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "confirm", "arguments": {} } });
    let response = session.post(&call);
    assert_eq!(mcp::content_type(&response), "text/event-stream");
    let mut stream = std::io::BufReader::new(response);

    let question = loop {
        let message = next_event(&mut stream).expect("no question before the stream ended");
        if message["method"] == "elicitation/create" {
            break message;
        }
    };
    assert_eq!(question["params"]["message"], "Go ahead?");
    assert!(
        question["params"]["requestedSchema"]["properties"]["ok"].is_object(),
        "{question}"
    );
    let reply = json!({ "jsonrpc": "2.0", "id": question["id"],
        "result": { "action": "accept", "content": { "ok": true } } });
    assert_eq!(session.post(&reply).status(), 202);

    let answer = loop {
        let message = next_event(&mut stream).expect("no answer before the stream ended");
        if message["id"] == 2 {
            break message;
        }
    };
    assert_eq!(
        answer["result"]["structuredContent"],
        json!({ "confirmed": true }),
        "{answer}"
    );
}
