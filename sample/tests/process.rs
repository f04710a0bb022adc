//! The real `mur-sample` binary: it announces itself with a lockfile and answers a
//! `tools/call` over loopback HTTP with the sample app's tools.

#[path = "support/mod.rs"]
mod support;

use std::process::Command;

use serde_json::json;
use support::{Adopted, Session, World, mcp, run_to_end};

const SAMPLE: &str = env!("CARGO_BIN_EXE_mur-sample");

/// `mur-sample` for the world's project, with its private lockfile directory.
fn sample_command(world: &World, extra: &[&str]) -> Command {
    world.command_for(std::path::Path::new(SAMPLE), extra)
}

#[test]
fn mur_sample_serves_its_tools_over_http() {
    let world = World::new();
    let session = Session::adopt(
        sample_command(&world, &[])
            .spawn()
            .expect("spawn mur-sample"),
    );
    let lock = world.wait_for_lockfile(|lock| lock.pid == session.pid());
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
        19
    );
}

#[test]
fn reload_restarts_the_app_with_fresh_state_in_a_new_process() {
    let world = World::new();
    let session = Session::adopt(
        sample_command(&world, &[])
            .spawn()
            .expect("spawn mur-sample"),
    );
    let before = world.wait_for_lockfile(|lock| lock.pid == session.pid());
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
        session.wait_output().status.code(),
        Some(0),
        "the old process exits cleanly"
    );

    let after = world.wait_for_lockfile(|lock| lock.pid != old_pid);
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
    let world = World::new();
    let output = run_to_end(sample_command(&world, &["--port", "notaport"]));
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("invalid value 'notaport' for '--port <N>'"),
        "{stderr}"
    );
}
