//! The real `mur-sample` binary: it announces itself with a lockfile and answers a
//! `tools/call` over loopback HTTP with the sample app's tools.

use mur_testkit::{Adopted, Sandbox, mcp};
use serde_json::json;

#[test]
fn mur_sample_serves_its_tools_over_http() {
    let sandbox = Sandbox::new();
    let session = sandbox.start_sample(&sandbox.project("app"));
    let lock = &session.lock;
    assert_eq!(lock.transport.as_str(), "http");

    let clicked = mcp::call_tool(&lock.endpoint, "click", json!({ "selector": "#btn-inc" }));
    assert_eq!(clicked["result"]["isError"], false, "{clicked}");
    assert_eq!(
        clicked["result"]["structuredContent"]["element"]["id"],
        "btn-inc"
    );
    let count = mcp::call_tool(&lock.endpoint, "state", json!({ "selector": "#count" }));
    assert_eq!(count["result"]["structuredContent"]["text"], "1");

    let failed = mcp::call_tool(
        &lock.endpoint,
        "click",
        json!({ "selector": "#btn-missing" }),
    );
    assert_eq!(failed["result"]["isError"], true);
    assert_eq!(
        failed["result"]["content"][0]["text"],
        "no element matches `#btn-missing`"
    );

    let shot = mcp::call_tool(
        &lock.endpoint,
        "screenshot",
        json!({ "selector": "#btn-inc" }),
    );
    let image = shot["result"]["content"]
        .as_array()
        .expect("content")
        .iter()
        .find(|block| block["type"] == "image")
        .cloned();
    assert_eq!(image.expect("an image block")["mimeType"], "image/png");
    assert_eq!(shot["result"]["structuredContent"]["width"], 64);

    let listed = mcp::modern(&lock.endpoint, "tools/list", json!({}));
    assert_eq!(
        listed["result"]["tools"].as_array().expect("tools").len(),
        22
    );
}

#[test]
fn reload_restarts_the_app_with_fresh_state_in_a_new_process() {
    let sandbox = Sandbox::new();
    let project = sandbox.project("app");
    let session = sandbox.start_sample(&project);
    let before = session.lock.clone();
    mcp::call_tool(
        &before.endpoint,
        "fire",
        json!({ "target": "counter.set", "args": { "value": 9 } }),
    );

    let answer = mcp::call_tool(
        &before.endpoint,
        "reload",
        json!({ "component": "counter" }),
    );
    assert_eq!(
        answer["result"]["structuredContent"]["reloading"], true,
        "{answer}"
    );
    let old_pid = session.pid();
    assert_eq!(
        session.wait_status().code(),
        Some(0),
        "the old process exits cleanly"
    );

    let after = sandbox.wait_for_lockfile(&project, |lock| lock.pid != old_pid);
    let _successor = Adopted(after.pid);
    let state = mcp::call_tool(&after.endpoint, "state", json!({}));
    assert_eq!(
        state["result"]["structuredContent"]["counter"]["count"], 0,
        "{state}"
    );
    let version = mcp::call_tool(&after.endpoint, "version", json!({}));
    assert_eq!(version["result"]["structuredContent"]["pid"], after.pid);
}

#[test]
fn usage_errors_exit_1_with_a_message() {
    let output = Sandbox::new().run_sample(&["--port", "notaport"]);
    assert_eq!(output.code, 1, "{output}");
    let stderr = &output.stderr;
    assert!(
        stderr.contains("invalid value 'notaport' for '--port <N>'"),
        "{stderr}"
    );
}

/// A second session for a project that has one exits 3 even when its stderr is a pipe
/// nobody reads any more (an agent host that closed it): the line is dropped, not a
/// panic's exit 101.
#[test]
fn a_second_session_exits_3_when_its_stderr_reader_is_gone() {
    let sandbox = Sandbox::new();
    let project = sandbox.project("app");
    let _first = sandbox.start_sample(&project);
    let mut second = sandbox.command(&sandbox.artifacts().sample);
    second.arg("--project").arg(&project);
    let status = mur_testkit::exit_with_stderr_gone(&mut second);
    assert_eq!(status.code(), Some(3), "{status:?}");
}
