//! The loopback HTTP surface: the probe, the Host/Origin guard on every route,
//! and no event stream on GET.
#![cfg(unix)]

use crate::support::{World, mcp};
use serde_json::{Value, json};

#[test]
fn probe_answers_the_session_identity() {
    let world = World::new();
    let session = world.start();
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
    let world = World::new();
    let _session = world.start();
    let lock = world.read_lockfile().expect("lockfile");
    for host in [
        "127.0.0.1",
        &format!("127.0.0.1:{}", lock.port),
        "localhost",
        "LocalHost:1",
        "[::1]:80",
    ] {
        let get = mcp::client()
            .get(&lock.endpoint)
            .header("Host", host)
            .send()
            .expect("GET");
        assert_eq!(get.status(), 200, "GET with Host: {host}");
        let post = mcp::modern_request(&lock.endpoint, "tools/list", json!({}))
            .header("Host", host)
            .send();
        assert_eq!(post.expect("POST").status(), 200, "POST with Host: {host}");
    }
}

#[test]
fn forged_host_is_refused_on_probe_and_mcp() {
    let world = World::new();
    let _session = world.start();
    let endpoint = world.read_lockfile().expect("lockfile").endpoint;
    for host in ["evil.example", "evil.example:80", "127.0.0.1.nip.io"] {
        let get = mcp::client()
            .get(&endpoint)
            .header("Host", host)
            .send()
            .expect("GET");
        assert_eq!(get.status(), 403, "GET with Host: {host}");
        let post = mcp::modern_request(&endpoint, "tools/list", json!({}))
            .header("Host", host)
            .send()
            .expect("POST");
        assert_eq!(post.status(), 403, "POST with Host: {host}");
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
    let world = World::new();
    let _session = world.start();
    let endpoint = world.read_lockfile().expect("lockfile").endpoint;
    for origin in [
        "http://evil.example",
        "null",
        "https://localhost.evil.example",
    ] {
        let get = mcp::client()
            .get(&endpoint)
            .header("Origin", origin)
            .send()
            .expect("GET");
        assert_eq!(get.status(), 403, "GET with Origin: {origin}");
        let post = mcp::modern_request(&endpoint, "tools/list", json!({}))
            .header("Origin", origin)
            .send()
            .expect("POST");
        assert_eq!(post.status(), 403, "POST with Origin: {origin}");
    }
}

#[test]
fn loopback_origin_is_accepted() {
    let world = World::new();
    let _session = world.start();
    let endpoint = world.read_lockfile().expect("lockfile").endpoint;
    let response = mcp::modern_request(&endpoint, "tools/list", json!({}))
        .header("Origin", "http://localhost:5173")
        .send()
        .expect("POST");
    assert_eq!(response.status(), 200);
}

#[test]
fn get_asking_for_an_event_stream_is_405() {
    let world = World::new();
    let _session = world.start();
    let endpoint = world.read_lockfile().expect("lockfile").endpoint;
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
