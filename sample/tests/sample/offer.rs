//! The real `mur-sample` over loopback HTTP, using the rest of MCP: `exportTodos`
//! reports progress and logs, `clearTodos` asks for a confirmation first, `overview`
//! mixes text and a screenshot, the app's log and todos are resources, and a prompt
//! walks through a component.

use mur_testkit::{Sandbox, mcp};
use serde_json::{Value, json};

fn add_todos(endpoint: &str, texts: &[&str]) {
    for text in texts {
        let added = mcp::call_tool(
            endpoint,
            "fire",
            json!({ "target": "todo.add", "args": { "text": text } }),
        );
        assert_eq!(added["result"]["isError"], false, "{added}");
    }
}

#[test]
fn export_todos_reports_progress_per_todo_and_embeds_the_json() {
    let (_sandbox, session) = Sandbox::with_app();
    let endpoint = &session.lock.endpoint;
    add_todos(endpoint, &["milk", "eggs", "bread"]);
    let messages = mcp::tool_exchange(
        endpoint,
        "exportTodos",
        json!({ "arguments": { "delayMs": 0 } }),
        json!({ "progressToken": 42, "io.modelcontextprotocol/logLevel": "info" }),
    );
    let progress: Vec<f64> = mcp::notifications(&messages, "notifications/progress")
        .into_iter()
        .map(|m| {
            assert_eq!(m["params"]["progressToken"], 42);
            assert_eq!(m["params"]["total"], 3.0);
            m["params"]["progress"].as_f64().expect("progress")
        })
        .collect();
    assert_eq!(progress, [0.0, 1.0, 2.0, 3.0], "{messages:?}");
    let logs: Vec<&Value> = mcp::notifications(&messages, "notifications/message")
        .into_iter()
        .map(|m| &m["params"]["data"])
        .collect();
    assert_eq!(logs, ["exporting 3 todo(s)", "exported 3 todo(s)"]);

    let result = &mcp::response(&messages)["result"];
    assert_eq!(
        result["content"][0]["text"],
        "- [ ] milk\n- [ ] eggs\n- [ ] bread"
    );
    let embedded = &result["content"][1]["resource"];
    assert_eq!(embedded["uri"], "app://todos/export.json");
    assert_eq!(
        mcp::text_as_json(embedded)["todos"][2],
        json!({ "id": 3, "text": "bread", "done": false })
    );
    assert_eq!(result["structuredContent"], json!({ "exported": 3 }));
}

#[test]
fn clear_todos_asks_first_and_clears_only_when_confirmed() {
    let (_sandbox, session) = Sandbox::with_app();
    let endpoint = &session.lock.endpoint;
    add_todos(endpoint, &["milk", "eggs"]);
    let caps = json!({ "io.modelcontextprotocol/clientCapabilities": { "elicitation": {} } });

    let asked = mcp::tool_exchange(endpoint, "clearTodos", json!({}), caps.clone());
    let asked = &mcp::response(&asked)["result"];
    assert_eq!(asked["resultType"], "input_required", "{asked}");
    let question = &asked["inputRequests"]["confirm"];
    assert_eq!(question["method"], "elicitation/create");
    assert_eq!(
        question["params"]["message"],
        "Clear all 2 todo(s)? This cannot be undone."
    );
    let state = asked["requestState"].clone();

    let answer = |confirm: bool| {
        let params = json!({
            "inputResponses": { "confirm": { "action": "accept", "content": { "confirm": confirm } } },
            "requestState": state
        });
        let messages = mcp::tool_exchange(endpoint, "clearTodos", params, caps.clone());
        mcp::response(&messages)["result"]["structuredContent"].clone()
    };
    assert_eq!(
        answer(false),
        json!({ "cleared": 0, "remaining": 2, "reason": "not confirmed" })
    );
    let exported = mcp::call_tool(endpoint, "exportTodos", json!({ "delayMs": 0 }));
    assert_eq!(
        exported["result"]["structuredContent"]["exported"], 2,
        "declining kept them"
    );
    assert_eq!(answer(true), json!({ "cleared": 2, "remaining": 0 }));
    let exported = mcp::call_tool(endpoint, "exportTodos", json!({ "delayMs": 0 }));
    assert_eq!(exported["result"]["structuredContent"]["exported"], 0);

    // A client that cannot ask its user cannot clear: the call names the capability.
    add_todos(endpoint, &["tea"]);
    let refused = mcp::tool_exchange(endpoint, "clearTodos", json!({}), json!({}));
    assert_eq!(
        mcp::response(&refused)["error"]["code"],
        -32021,
        "{refused:?}"
    );
}

#[test]
fn clear_todos_asks_again_when_the_list_changed_before_the_answer() {
    let (_sandbox, session) = Sandbox::with_app();
    let endpoint = &session.lock.endpoint;
    add_todos(endpoint, &["milk"]);
    let caps = json!({ "io.modelcontextprotocol/clientCapabilities": { "elicitation": {} } });
    let asked = mcp::tool_exchange(endpoint, "clearTodos", json!({}), caps.clone());
    let state = mcp::response(&asked)["result"]["requestState"].clone();
    add_todos(endpoint, &["eggs"]);
    let params = json!({
        "inputResponses": { "confirm": { "action": "accept", "content": { "confirm": true } } },
        "requestState": state
    });
    let again = mcp::tool_exchange(endpoint, "clearTodos", params, caps);
    let again = &mcp::response(&again)["result"];
    assert_eq!(again["resultType"], "input_required", "{again}");
    assert_eq!(
        again["inputRequests"]["confirm"]["params"]["message"],
        "Clear all 2 todo(s)? This cannot be undone."
    );
}

#[test]
fn overview_returns_a_description_and_a_screenshot_in_one_result() {
    let (_sandbox, session) = Sandbox::with_app();
    let endpoint = &session.lock.endpoint;
    mcp::call_tool(endpoint, "click", json!({ "selector": "#btn-inc" }));
    let answer = mcp::call_tool(endpoint, "overview", json!({}));
    let content = &answer["result"]["content"];
    let text = content[0]["text"].as_str().expect("text first");
    assert!(
        text.contains("Counter component") && text.contains("counter is at 1"),
        "{text}"
    );
    assert_eq!(content[1]["type"], "image");
    assert_eq!(content[1]["mimeType"], "image/png");
    assert_eq!(answer["result"]["structuredContent"]["active"], "counter");
}

#[test]
fn the_app_log_and_the_todos_are_resources() {
    let (_sandbox, session) = Sandbox::with_app();
    let endpoint = &session.lock.endpoint;
    mcp::call_tool(endpoint, "click", json!({ "selector": "#btn-inc" }));
    mcp::call_tool(endpoint, "click", json!({ "selector": "#nope" }));
    add_todos(endpoint, &["milk"]);

    let listed = mcp::modern(endpoint, "resources/list", json!({}));
    assert_eq!(
        listed["result"]["resources"][0]["uri"], "app://log",
        "{listed}"
    );
    let contents = |uri: &str| mcp::resource_contents(endpoint, uri);
    assert_eq!(
        contents("app://log")["text"],
        "click: ok\nclick: failed: no element matches `#nope`\nfire: ok"
    );
    assert_eq!(
        mcp::text_as_json(&contents("app://todos/1")),
        json!({ "id": 1, "text": "milk", "done": false })
    );
    for bad in ["app://todos/9", "app://todos/x", "app://nothing"] {
        let refused = mcp::read_resource(endpoint, bad);
        assert_eq!(refused["error"]["code"], -32602, "{bad}: {refused}");
    }
}

#[test]
fn the_walkthrough_prompt_names_the_controls_of_a_component() {
    let (_sandbox, session) = Sandbox::with_app();
    let endpoint = &session.lock.endpoint;
    let listed = mcp::modern(endpoint, "prompts/list", json!({}));
    assert_eq!(
        listed["result"]["prompts"][0]["name"], "walkthrough",
        "{listed}"
    );
    let get = |arguments: Value| {
        let messages = mcp::exchange(
            endpoint,
            "prompts/get",
            json!({ "name": "walkthrough", "arguments": arguments }),
            json!({}),
        );
        mcp::response(&messages).clone()
    };
    let todo = get(json!({ "component": "todo" }));
    let text = todo["result"]["messages"][0]["content"]["text"]
        .as_str()
        .expect("text");
    assert!(
        text.contains("`#todo-add`") && text.contains("`#todo-input`"),
        "{text}"
    );
    assert!(text.contains("\"component\": \"todo\""), "{text}");
    let current = get(json!({}));
    assert!(
        current["result"]["description"]
            .as_str()
            .unwrap_or("")
            .contains("Counter"),
        "{current}"
    );
    let unknown = get(json!({ "component": "garden" }));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    let slip = get(json!({ "component": "setings" }));
    assert_eq!(
        slip["error"]["message"], "no component `setings`; did you mean `settings`?",
        "{slip}"
    );
}
