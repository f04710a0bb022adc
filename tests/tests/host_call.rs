//! `mur devtools call` and the MCP client end to end: results, tool
//! failures (exit 5), transport failures (exit 2), SSE answers and the
//! legacy session fallback.

use mur_e2e::stub::{self, Reply};
use mur_e2e::{Sandbox, Stub};
use serde_json::json;

#[test]
fn call_tools_list_prints_the_result() {
    let sb = Sandbox::new();
    let _sample = sb.start_sample(&sb.project("app"));
    let out = sb.mur(&["devtools", "call", "tools/list"]);
    out.assert_code(0);
    assert_eq!(out.stderr, "");
    assert_eq!(out.stdout.lines().count(), 1, "compact JSON on one line");
    let names: Vec<String> = out.json()["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().unwrap_or("").to_owned())
        .collect();
    for tool in ["version", "tree", "click", "waitFor", "screenshot"] {
        assert!(
            names.iter().any(|n| n == tool),
            "`{tool}` missing from {names:?}"
        );
    }
}

#[test]
fn pretty_indents_the_result() {
    let sb = Sandbox::new();
    let _sample = sb.start_sample(&sb.project("app"));
    let out = sb.mur(&["devtools", "--pretty", "call", "version"]);
    out.assert_code(0);
    assert!(out.stdout.lines().count() > 3, "{out}");
    assert!(out.stdout.contains("\n  \"content\""), "{out}");
}

#[test]
fn a_tool_call_changes_the_app() {
    let sb = Sandbox::new();
    let _sample = sb.start_sample(&sb.project("app"));
    sb.mur(&[
        "devtools",
        "call",
        "click",
        "--args",
        r##"{"selector":"#btn-inc"}"##,
    ])
    .assert_code(0);
    sb.mur(&[
        "devtools",
        "call",
        "click",
        "--args",
        r##"{"selector":"#btn-inc"}"##,
    ])
    .assert_code(0);
    let out = sb.mur(&[
        "devtools",
        "call",
        "state",
        "--args",
        r##"{"selector":"#count"}"##,
    ]);
    out.assert_code(0);
    assert!(out.stdout.contains('2'), "the counter shows 2: {out}");
}

#[test]
fn a_json_rpc_error_exits_5_with_the_error_object_on_stdout() {
    let sb = Sandbox::new();
    let _sample = sb.start_sample(&sb.project("app"));
    let out = sb.mur(&["devtools", "call", "no/such-method"]);
    out.assert_code(5);
    let error = &out.json()["error"];
    assert_eq!(error["code"], -32601, "{out}");
    assert!(
        out.stderr.starts_with("error: `no/such-method` failed: "),
        "{out}"
    );
    assert!(out.stderr.contains("(JSON-RPC error -32601)"), "{out}");
}

#[test]
fn a_tool_result_with_is_error_exits_5_with_the_result_on_stdout() {
    let sb = Sandbox::new();
    let _sample = sb.start_sample(&sb.project("app"));
    let out = sb.mur(&[
        "devtools",
        "call",
        "click",
        "--args",
        r##"{"selector":"#nope"}"##,
    ]);
    out.assert_code(5);
    let result = out.json();
    assert_eq!(result["isError"], true, "{out}");
    let text = result["content"][0]["text"].as_str().expect("text block");
    assert_eq!(out.stderr, format!("error: tool `click` failed: {text}\n"));
}

#[test]
fn bad_args_json_exits_1_saying_where() {
    let sb = Sandbox::new();
    let out = sb.mur(&["devtools", "call", "click", "--args", "{\"selector\": }"]);
    out.assert_code(1);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .starts_with("error: `--args` is not valid JSON: expected value at line 1 column 14\n"),
        "{out}"
    );
}

#[test]
fn a_server_that_never_answers_times_out_with_exit_2() {
    let sb = Sandbox::new();
    let hung = Stub::silent();
    let out = sb.mur(&[
        "devtools",
        "--endpoint",
        &hung.endpoint(),
        "--timeout",
        "300",
        "call",
        "version",
    ]);
    out.assert_code(2);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr.starts_with(&format!(
            "error: `{}` did not answer within 300 ms\n",
            hung.endpoint()
        )),
        "{out}"
    );
}

#[test]
fn a_server_that_hangs_up_mid_call_exits_2() {
    let sb = Sandbox::new();
    let gone = Stub::hang_up();
    let out = sb.mur(&[
        "devtools",
        "--endpoint",
        &gone.endpoint(),
        "call",
        "version",
    ]);
    out.assert_code(2);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .starts_with(&format!("error: `{}`: ", gone.endpoint())),
        "{out}"
    );
}

#[test]
fn a_killed_session_is_a_transport_error() {
    let sb = Sandbox::new();
    let sample = sb.start_sample(&sb.project("app"));
    let endpoint = sample.endpoint().to_owned();
    sample.kill();
    let out = sb.mur(&["devtools", "--endpoint", &endpoint, "call", "version"]);
    out.assert_code(2);
    // Without --endpoint, its lockfile is stale: no session.
    sb.mur(&["devtools", "call", "version"]).assert_code(4);
}

#[test]
fn a_non_mcp_answer_is_a_transport_error() {
    let sb = Sandbox::new();
    let web = Stub::plain_http();
    let out = sb.mur(&["devtools", "--endpoint", &web.endpoint(), "call", "version"]);
    out.assert_code(2);
    assert!(
        out.stderr.contains("answered without a JSON-RPC response"),
        "{out}"
    );
}

#[test]
fn the_modern_request_carries_its_context_in_meta_and_headers() {
    let sb = Sandbox::new();
    let server = Stub::serve(|req| {
        let id = req.json()["id"].clone();
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": id, "result": { "ok": true } }),
        )
    });
    let out = sb.mur(&[
        "devtools",
        "--endpoint",
        &server.endpoint(),
        "call",
        "tree",
        "--args",
        r#"{"view":"full"}"#,
    ]);
    out.assert_code(0);
    assert_eq!(out.stdout, "{\"ok\":true}\n");
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "one POST per call");
    let req = &requests[0];
    assert_eq!(req.header("mcp-protocol-version"), Some("2026-07-28"));
    assert_eq!(req.header("mcp-method"), Some("tools/call"));
    assert_eq!(req.header("mcp-name"), Some("tree"));
    assert_eq!(
        req.header("accept"),
        Some("application/json, text/event-stream")
    );
    let body = req.json();
    assert_eq!(body["params"]["arguments"], json!({ "view": "full" }));
    let meta = &body["params"]["_meta"];
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert_eq!(meta["io.modelcontextprotocol/clientInfo"]["name"], "mur");
}

#[test]
fn an_sse_answer_is_read_past_notifications_and_other_ids() {
    let sb = Sandbox::new();
    let server = Stub::serve(|req| {
        let id = req.json()["id"].clone();
        Reply::sse(&[
            json!({ "jsonrpc": "2.0", "method": "notifications/progress", "params": { "progressToken": 1, "progress": 1, "total": 2 } }),
            json!({ "jsonrpc": "2.0", "id": 999, "result": { "not": "ours" } }),
            json!({ "jsonrpc": "2.0", "id": id, "result": { "ours": true } }),
        ])
    });
    let out = sb.mur(&[
        "devtools",
        "--endpoint",
        &server.endpoint(),
        "call",
        "version",
    ]);
    out.assert_code(0);
    assert_eq!(out.stdout, "{\"ours\":true}\n");
    assert_eq!(out.stderr, "");
}

#[test]
fn unsupported_version_is_retried_once_with_a_supported_modern_one() {
    let sb = Sandbox::new();
    let server = Stub::serve(|req| {
        let body = req.json();
        let version = body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"].clone();
        if version == "2026-07-28" {
            return Reply::json(
                400,
                &json!({ "jsonrpc": "2.0", "id": body["id"], "error": {
                "code": -32022, "message": "Unsupported protocol version",
                "data": { "requested": version, "supported": ["2026-09-30"] } } }),
            );
        }
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": body["id"], "result": { "version": version } }),
        )
    });
    let out = sb.mur(&[
        "devtools",
        "--endpoint",
        &server.endpoint(),
        "call",
        "version",
    ]);
    out.assert_code(0);
    assert_eq!(out.stdout, "{\"version\":\"2026-09-30\"}\n");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(
        requests[1].header("mcp-protocol-version"),
        Some("2026-09-30")
    );
}

#[test]
fn a_session_based_server_is_reached_through_the_legacy_fallback() {
    let sb = Sandbox::new();
    let sample = sb.start_sample(&sb.project("app"));
    let proxy = stub::legacy_proxy(sample.endpoint());
    let out = sb.mur(&[
        "devtools",
        "--endpoint",
        &proxy.endpoint(),
        "call",
        "tools/list",
    ]);
    out.assert_code(0);
    assert!(
        out.json()["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty()),
        "{out}"
    );
    let seen: Vec<String> = proxy
        .requests()
        .iter()
        .map(|r| {
            format!("{} {}", r.method, r.json()["method"].as_str().unwrap_or(""))
                .trim()
                .to_owned()
        })
        .collect();
    assert_eq!(
        seen,
        [
            "POST tools/list",
            "POST initialize",
            "POST notifications/initialized",
            "POST tools/list",
            "DELETE"
        ],
        "modern attempt, then initialize → initialized → call → DELETE"
    );
    let requests = proxy.requests();
    let session = requests[1..]
        .iter()
        .skip(1)
        .map(|r| r.header("mcp-session-id"))
        .collect::<Vec<_>>();
    assert!(
        session.iter().all(|s| s.is_some() && *s == session[0]),
        "every request after initialize carries the session id: {session:?}"
    );
}
