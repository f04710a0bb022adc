//! The loopback HTTP surface: the probe, the Host/Origin guard on every route,
//! and no event stream on GET.
#![cfg(unix)]

use crate::support::{World, mcp};
use serde_json::{Value, json};

#[test]
fn probe_answers_the_session_identity() {
    let (world, session) = World::started();
    let lock = world.read_lockfile().expect("lockfile");

    let response = mcp::client().get(&lock.endpoint).send().expect("GET /mcp");
    assert_eq!(response.status(), 200);
    let probe: Value = response.json().expect("probe json");
    assert_eq!(probe["schema"], "reactor-devtools-mcp/1");
    assert_eq!(probe["pid"], session.pid());
    assert_eq!(probe["project"], lock.project);
    assert_eq!(probe["buildTag"], lock.build_tag);
    assert_eq!(probe["startedAt"], lock.started_at);
}

#[test]
fn every_loopback_host_spelling_is_accepted_on_probe_and_mcp() {
    let (world, _session) = World::started();
    let lock = world.read_lockfile().expect("lockfile");
    for host in [
        "127.0.0.1",
        &format!("127.0.0.1:{}", lock.port),
        "localhost",
        "LocalHost:1",
        "[::1]:80",
    ] {
        assert_probe_and_mcp_answer(&lock.endpoint, "Host", host, 200);
    }
}

#[test]
fn forged_host_is_refused_on_probe_and_mcp() {
    let (world, _session) = World::started();
    let endpoint = world.endpoint();
    for host in ["evil.example", "evil.example:80", "127.0.0.1.nip.io"] {
        assert_probe_and_mcp_answer(&endpoint, "Host", host, 403);
    }
    let elsewhere = endpoint.replace("/mcp", "/anything");
    let other_route = mcp::client()
        .get(&elsewhere)
        .header("Host", "evil.example")
        .send()
        .expect("GET");
    assert_eq!(other_route.status(), 403, "unknown routes are guarded too");
}

#[test]
fn forged_origin_is_refused_on_probe_and_mcp() {
    let (world, _session) = World::started();
    let endpoint = world.endpoint();
    for origin in [
        "http://evil.example",
        "null",
        "https://localhost.evil.example",
    ] {
        assert_probe_and_mcp_answer(&endpoint, "Origin", origin, 403);
    }
}

#[test]
fn loopback_origin_is_accepted() {
    let (world, _session) = World::started();
    let endpoint = world.endpoint();
    let response = mcp::modern_request(&endpoint, "tools/list", json!({}))
        .header("Origin", "http://localhost:5173")
        .send()
        .expect("POST");
    assert_eq!(response.status(), 200);
}

#[test]
fn get_asking_for_an_event_stream_is_405() {
    let (world, _session) = World::started();
    let endpoint = world.endpoint();
    let response = mcp::client()
        .get(&endpoint)
        .header("Accept", "text/event-stream")
        .send()
        .expect("GET");
    assert_eq!(response.status(), 405);
    let mixed = mcp::client()
        .get(&endpoint)
        .header("Accept", "application/json, text/event-stream;q=0.5")
        .send();
    assert_eq!(mixed.expect("GET").status(), 405);
}

/// Both the probe (GET) and an MCP request (POST) carrying `header: value` are
/// answered with `status` (200 accepted, 403 refused).
fn assert_probe_and_mcp_answer(endpoint: &str, header: &str, value: &str, status: u16) {
    let get = mcp::client()
        .get(endpoint)
        .header(header, value)
        .send()
        .expect("GET");
    assert_eq!(get.status(), status, "GET with {header}: {value}");
    let post = mcp::modern_request(endpoint, "tools/list", json!({}))
        .header(header, value)
        .send()
        .expect("POST");
    assert_eq!(post.status(), status, "POST with {header}: {value}");
}
