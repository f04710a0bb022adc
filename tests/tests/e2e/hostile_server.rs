//! An MCP server that misbehaves, behind `mur devtools --endpoint` (review R3's
//! servers, played by stubs on loopback): a response MCP does not allow is a
//! malformed answer (exit 2) saying what is wrong, never a success; an answer that
//! is no response to mur's request says what came instead; a server that keeps
//! asking questions over its event stream is cut off at the call's bound on
//! questions (exit 5); revisions mur does not speak are neither taken nor offered,
//! and a negotiation that fails is a transport error, not the tool's (the tool
//! never ran); a 401 pointing off loopback for its metadata ends the call naming
//! the URL, with nothing sent there.

use mur_e2e::stub::{Reply, Request};
use mur_e2e::{Output, Sandbox, Stub};
use serde_json::{Value, json};

/// What mur prints for `call echo` against a server that answers every POST with
/// `answer` of the request's body (status 200).
fn answered_with(answer: impl Fn(&Value) -> Vec<u8> + Send + Sync + 'static) -> (Stub, Output) {
    answered_as("application/json", &[], answer)
}

/// [`answered_with`] in a body of `content_type`, with mur's options `options` before
/// `call echo`.
fn answered_as(
    content_type: &'static str,
    options: &[&str],
    answer: impl Fn(&Value) -> Vec<u8> + Send + Sync + 'static,
) -> (Stub, Output) {
    let server = Stub::serve(move |req| Reply::Respond {
        status: 200,
        headers: vec![("content-type".into(), content_type.into())],
        body: answer(&req.json()),
    });
    let endpoint = server.endpoint();
    let mut line = vec!["--endpoint", &endpoint];
    line.extend(options);
    line.extend(["call", "echo"]);
    let out = Sandbox::new().devtools(&line);
    (server, out)
}

/// A tool's text that a JavaScript server cut inside an emoji (`"👍".slice(0, 1)`,
/// which `JSON.stringify` writes as a lone surrogate escape) is read as U+FFFD, the
/// rest of the answer kept, in a JSON body and in an event: the whole answer was
/// refused as no JSON mur can read (exit 2).
#[test]
fn a_lone_surrogate_in_an_answer_is_read_as_the_replacement_character() {
    let response = |body: &Value| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{{"content":[{{"type":"text","text":"cut \ud83d, kept \ud83d\udc4d"}}]}}}}"#,
            body["id"]
        )
    };
    for (content_type, framed) in [
        (
            "application/json",
            (|text: String| text) as fn(String) -> String,
        ),
        ("text/event-stream", |text| {
            format!("event: message\ndata: {text}\n\n")
        }),
    ] {
        let (_server, out) = answered_as(content_type, &[], move |body| {
            framed(response(body)).into_bytes()
        });
        out.assert_code(0).assert_stderr_is("");
        assert_eq!(
            out.json()["content"][0]["text"],
            "cut \u{fffd}, kept \u{1f44d}"
        );
    }
}

/// A result of a kind (`resultType`) no revision mur speaks defines is shown as the
/// tool's result (the protocol's `resultType` taken out, as ever), with a warning: it was
/// taken for the call's outcome unsaid. The warning says it may not be the outcome and
/// that `resultType` is left out (it said "shown as it came", of a result shown without
/// it). The kinds mur knows, and none, say nothing.
#[test]
fn a_result_of_a_kind_mur_does_not_know_is_shown_with_a_warning() {
    for (kind, warned) in [
        (json!("bogus"), Some("\"bogus\"")),
        (json!(7), Some("7")),
        (json!("complete"), None),
        (Value::Null, None),
    ] {
        let tools = json!({ "content": [{ "type": "text", "text": "done" }] });
        let mut shown = tools.clone();
        if !kind.is_null() {
            shown["resultType"] = kind.clone();
        }
        let (_server, out) = answered_with(move |body| {
            json!({ "jsonrpc": "2.0", "id": body["id"], "result": shown })
                .to_string()
                .into_bytes()
        });
        out.assert_code(0);
        assert_eq!(out.json(), tools);
        out.assert_stderr_is(warned.map_or_else(String::new, |kind| {
            format!(
                "warning: the server's result is of kind {kind} (`resultType`), which no MCP \
                 revision mur speaks defines: it may not be the call's outcome; it is shown \
                 without its `resultType` (`call tools/call` shows it whole)\n"
            )
        }));
    }
}

/// An answer of more JSON values than the response limit allows (one for every 16
/// bytes: 65,536 under `--max-response 1M`) is refused unparsed, exit 2, saying how to
/// raise the limit: parsed, an answer of `[0,0,…]` filling the default 64 MiB took
/// 2.3 GB. As many values as allowed are read.
#[test]
fn an_answer_of_more_values_than_the_limit_allows_is_refused_unparsed() {
    let answer = |zeros: usize| {
        move |body: &Value| {
            let zeros = vec!["0"; zeros].join(",");
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"result":{{"content":[],"structuredContent":{{"z":[{zeros}]}}}}}}"#,
                body["id"]
            )
            .into_bytes()
        }
    };
    let (server, out) = answered_as(
        "application/json",
        &["--max-response", "1M"],
        answer(70_000),
    );
    out.assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` sent a response of more than 65536 JSON values, more than mur parses \
         under its response limit of 1 MiB (a value for every 16 bytes); it was not parsed\n\
         hint: if an answer this large is expected, raise the limit with `--max-response \
         BYTES` (e.g. `--max-response 256M`)\n",
            server.endpoint()
        ));
    let (_server, out) = answered_as(
        "application/json",
        &["--max-response", "1M"],
        answer(60_000),
    );
    out.assert_code(0).assert_stderr_is("");
    assert_eq!(
        out.json()["structuredContent"]["z"]
            .as_array()
            .map(Vec::len),
        Some(60_000)
    );
}

/// A response the server makes of the request's id.
type Respond = fn(&Value) -> Value;

#[test]
fn a_response_mcp_does_not_allow_is_a_malformed_answer_saying_what_is_wrong() {
    let cases: [(Respond, &str); 3] = [
        (
            |id| json!({ "jsonrpc": "2.0", "id": id, "result": {}, "error": { "code": 1 } }),
            "it has both a `result` and an `error`",
        ),
        (
            |id| json!({ "jsonrpc": "2.0", "id": id, "result": 42 }),
            "its `result` is 42, not an object",
        ),
        (
            |id| json!({ "id": id, "result": { "content": [] } }),
            "it has no `\"jsonrpc\": \"2.0\"`",
        ),
    ];
    for (response, why) in cases {
        let (server, out) =
            answered_with(move |body| response(&body["id"]).to_string().into_bytes());
        out.assert_code(2)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: `{}` answered request 1 with a malformed JSON-RPC response: {why}\n",
                server.endpoint()
            ));
    }
    let (server, out) = answered_with(|body| {
        json!([{ "jsonrpc": "2.0", "id": body["id"], "result": { "content": [] } }])
            .to_string()
            .into_bytes()
    });
    out.assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` answered with a batch (a JSON array), where one request takes one \
         response object\n",
            server.endpoint()
        ));
}

#[test]
fn an_answer_that_is_no_response_to_the_request_says_what_came_instead() {
    let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
    // The body's first 120 characters follow the parser's words.
    let start = r#"{"jsonrpc":"2.0","id":1,"result":{"n":1e999999999,"a":"#;
    let out_of_range = format!(
        "answered with no JSON mur can read: number out of range at line 1 column 49: {start}{}…",
        "[".repeat(120 - start.len())
    );
    for (answer, why) in [
        (
            r#"{"jsonrpc":"2.0","id":987654,"result":{"content":[]}}"#.to_owned(),
            "answered a response to id 987654, not to the request's 1",
        ),
        (
            r#"{"jsonrpc":"2.0","id":"1","result":{"content":[]}}"#.to_owned(),
            "answered a response to id \"1\", not to the request's 1",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{"#.to_owned(),
            "answered with no JSON mur can read: EOF while parsing an object at line 1 column 34: \
             {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{",
        ),
        (
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"n":1e999999999,"a":{deep}}}}}"#),
            &out_of_range,
        ),
        (
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"a":{deep}}}}}"#),
            "answered with JSON nested deeper than 128 levels, which mur does not read \
             (recursion limit exceeded at line 1 column 164)",
        ),
    ] {
        let (server, out) = answered_with(move |_| answer.clone().into_bytes());
        out.assert_code(2)
            .assert_stdout_is("")
            .assert_stderr_is(format!("error: `{}` {why}\n", server.endpoint()));
    }
}

#[test]
fn a_web_page_at_the_endpoint_is_told_by_what_it_starts_with() {
    // A dev server's page fallback answers any path 200 text/html.
    let page =
        "<!doctype html>\n<html><head><title>\u{1b}[31mApp</title></head>\n<body></body></html>\n";
    let server = Stub::serve(move |_| Reply::Respond {
        status: 200,
        headers: vec![("content-type".into(), "text/html".into())],
        body: page.as_bytes().to_vec(),
    });
    let out = Sandbox::new().devtools_at(&server.endpoint(), &["call", "echo"]);
    out.assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` answered with no JSON mur can read: expected value at line 1 column 1: \
             <!doctype html> <html><head><title>\\x1b[31mApp</title></head> <body></body></html>\n",
            server.endpoint()
        ));
}

/// Whether the stub's request is mur's answer to one of the server's questions,
/// and if so whether it answered (`true`) or refused it.
fn answered(request: &Request) -> Option<bool> {
    let body = request.json();
    if body.get("method").is_some() {
        return None;
    }
    Some(body.get("result").is_some())
}

#[test]
fn questions_over_the_event_stream_stop_at_the_calls_bound() {
    let question = json!({ "jsonrpc": "2.0", "id": "e", "method": "elicitation/create",
        "params": { "message": "ok?", "requestedSchema": { "type": "object",
            "properties": { "ok": { "type": "boolean" } } } } });
    let event = format!("event: message\ndata: {question}\n\n").into_bytes();
    let server = Stub::serve(move |req| match req.json()["method"].as_str() {
        // An endless stream of the same question, never the answer.
        Some("tools/call") => Reply::Endless {
            headers: vec![("content-type".into(), "text/event-stream".into())],
            prefix: Vec::new(),
            chunk: event.clone(),
        },
        _ => Reply::empty(202),
    });
    let endpoint = server.endpoint();
    let out = Sandbox::new().devtools_at(
        &endpoint,
        &["--timeout", "120000", "--answer", "ok=true", "call", "echo"],
    );
    out.assert_code(5)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{endpoint}` was still asking for input after 1000 questions of the call\n"
        ));
    let answers: Vec<bool> = server.requests().iter().filter_map(answered).collect();
    assert_eq!(answers.len(), 1001, "1000 answered, the next refused");
    assert!(answers[..1000].iter().all(|a| *a));
    assert!(!answers[1000]);
}

/// A session id that is no visible ASCII (MCP's rule for it) cannot be sent back: it
/// is refused, naming it, exit 2. It was dropped unsaid, and the server refused the call
/// that came without it in its own words ("No valid session ID provided").
#[test]
fn a_session_id_mur_cannot_send_back_is_refused_naming_it() {
    let initialized = json!({ "protocolVersion": "2025-11-25", "capabilities": { "tools": {} },
                              "serverInfo": { "name": "stub", "version": "0" } });
    let server = Stub::legacy("s\u{ff}1", initialized, |req| {
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": req.json()["id"], "result": { "content": [] } }),
        )
    });
    let out = Sandbox::new().devtools_at(&server.endpoint(), &["call", "echo"]);
    out.assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` answered `initialize` with a session id (`Mcp-Session-Id: s\u{ff}1`) \
             that is not visible ASCII, which MCP requires and mur cannot send back\n",
            server.endpoint()
        ));
}

/// The hint under a negotiation that failed.
const SPEAKS: &str =
    "hint: mur speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05\n";

#[test]
fn a_revision_mur_does_not_speak_is_neither_taken_nor_offered() {
    let sb = Sandbox::new();
    // `initialize` answered in a revision of the server's own.
    let initialized = json!({ "protocolVersion": "1999-01-01", "capabilities": { "tools": {} },
                              "serverInfo": { "name": "stub", "version": "0" } });
    let server = Stub::legacy("s1", initialized, |req| {
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": req.json()["id"], "result": {} }),
        )
    });
    let out = sb.devtools_at(&server.endpoint(), &["call", "echo"]);
    out.assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` answered `initialize` in protocol revision 1999-01-01, which mur does not \
         speak\n{SPEAKS}",
            server.endpoint()
        ));
    // Never spoken: no request named it.
    assert!(
        server
            .requests()
            .iter()
            .all(|r| r.header("mcp-protocol-version") != Some("1999-01-01"))
    );

    // Answered without a revision, or with one that is no string: none was agreed.
    for (version, said) in [(json!(20251125), "is 20251125"), (Value::Null, "missing")] {
        let mut initialized = json!({ "capabilities": { "tools": {} },
                                      "serverInfo": { "name": "stub", "version": "0" } });
        if !version.is_null() {
            initialized["protocolVersion"] = version;
        }
        let server = Stub::legacy("s1", initialized, |req| {
            Reply::json(
                200,
                &json!({ "jsonrpc": "2.0", "id": req.json()["id"], "result": {} }),
            )
        });
        sb.devtools_at(&server.endpoint(), &["call", "echo"])
            .assert_code(2)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: `{}` answered `initialize` without a protocol revision (`protocolVersion` \
                 {said})\n{SPEAKS}",
                server.endpoint()
            ));
    }

    // A -32022 naming only revisions mur does not speak, one with escapes: nothing retried.
    let refusing = |supported: Value| {
        Stub::serve(move |req| {
            Reply::json(
                400,
                &json!({ "jsonrpc": "2.0", "id": req.json()["id"], "error": {
                "code": -32022, "message": "Unsupported protocol version",
                "data": { "supported": supported } } }),
            )
        })
    };
    let server = refusing(json!(["\u{1b}[31mevil\nerror: x", "1999-01-01"]));
    let out = sb.devtools_at(&server.endpoint(), &["call", "echo"]);
    out.assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` refused protocol revision 2026-07-28 (JSON-RPC error -32022: Unsupported \
         protocol version); it names as supported `\\x1b[31mevil error: x`, `1999-01-01`\n\
         {SPEAKS}",
            server.endpoint()
        ));
    assert_eq!(server.requests().len(), 1, "nothing sent after the refusal");

    // A -32022 listing none (no `data`): no revision to retry with, and the tool never ran.
    let bare = Stub::serve(|req| {
        Reply::json(
            400,
            &json!({ "jsonrpc": "2.0", "id": req.json()["id"], "error": {
                "code": -32022, "message": "Unsupported protocol version" } }),
        )
    });
    sb.devtools_at(&bare.endpoint(), &["call", "echo"])
        .assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` refused protocol revision 2026-07-28 (JSON-RPC error -32022: Unsupported \
             protocol version); it names as supported no revision\n{SPEAKS}",
            bare.endpoint()
        ));

    // Refused again after the one retry: the tool never ran, so not exit 5.
    let server = refusing(json!(["2026-07-28"]));
    let out = sb.devtools_at(&server.endpoint(), &["call", "echo"]);
    out.assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` refused protocol revision 2026-07-28 (JSON-RPC error -32022: Unsupported \
         protocol version); it names as supported `2026-07-28`\n{SPEAKS}",
            server.endpoint()
        ));
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn a_401_naming_metadata_off_loopback_ends_the_call_naming_it() {
    let server = Stub::serve(|_| Reply::Respond {
        status: 401,
        headers: vec![(
            "www-authenticate".into(),
            r#"Bearer resource_metadata="http://10.1.2.3/.well-known/oauth-protected-resource?x=1""#
                .into(),
        )],
        body: Vec::new(),
    });
    let out = Sandbox::new().devtools_at(&server.endpoint(), &["call", "echo"]);
    out.assert_code(2).assert_stdout_is("").assert_stderr_is(
        "error: the OAuth flow leads to `http://10.1.2.3/.well-known/oauth-protected-resource`, \
         which is not a loopback address (only 127.0.0.0/8, ::1 and localhost are contacted); \
         mur reaches only loopback servers\n",
    );
    // The call's one POST: no well-known path was tried in its place.
    let seen: Vec<String> = server
        .requests()
        .iter()
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert_eq!(seen, ["POST /mcp"]);
}
