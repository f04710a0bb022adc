//! `mur devtools call` and the MCP client end to end: results, tool
//! failures (exit 5), transport failures (exit 2), SSE answers and the
//! legacy session fallback; redirects refused, the response limit, requests
//! from the server refused, legacy sessions always ended, `call ping` and
//! `--method`, a connection cut mid-body, a failed `--out` write (exit 7), and
//! `call --out` writing a tool's images.

use std::process::Stdio;
use std::time::Duration;

use mur_e2e::stub::{self, Reply};
use mur_e2e::{Output, Sandbox, Session, Stub, each_str, mcp};
use serde_json::json;

#[test]
fn call_tools_list_prints_the_result() {
    let (sb, _sample) = Sandbox::with_app();
    let out = sb.mur(&["devtools", "call", "tools/list"]);
    out.assert_quiet_success();
    assert_eq!(out.stdout.lines().count(), 1, "compact JSON on one line");
    let answer = out.json();
    let names = each_str(&answer["tools"], "name");
    for tool in ["version", "tree", "click", "waitFor", "screenshot"] {
        assert!(names.contains(&tool), "`{tool}` missing from {names:?}");
    }
}

#[test]
fn pretty_indents_the_result() {
    let (sb, _sample) = Sandbox::with_app();
    let out = sb.mur(&["devtools", "--pretty", "call", "version"]);
    out.assert_code(0);
    assert!(out.stdout.lines().count() > 3, "{out}");
    assert!(out.stdout.contains("\n  \"content\""), "{out}");
}

#[test]
fn a_tool_call_changes_the_app() {
    let (sb, _sample) = Sandbox::with_app();
    sb.call_tool("click", r##"{"selector":"#btn-inc"}"##)
        .assert_code(0);
    sb.call_tool("click", r##"{"selector":"#btn-inc"}"##)
        .assert_code(0);
    let out = sb.call_tool("state", r##"{"selector":"#count"}"##);
    out.assert_code(0);
    assert!(out.stdout.contains('2'), "the counter shows 2: {out}");
}

#[test]
fn a_json_rpc_error_exits_5_with_the_error_object_on_stdout() {
    let (sb, _sample) = Sandbox::with_app();
    let out = sb.mur(&["devtools", "call", "no/such-method"]);
    out.assert_code(5);
    let error = &out.json()["error"];
    assert_eq!(error["code"], -32601, "{out}");
    assert_eq!(
        out.stderr,
        "error: `no/such-method` failed: no/such-method (JSON-RPC error -32601: method not found)\n\
         hint: the session serves no such method; `call NAME` without a `/` calls the tool NAME, \
         and `mur devtools catalog` lists the tools\n"
    );
}

#[test]
fn a_tool_result_with_is_error_exits_5_with_the_result_on_stdout() {
    let (sb, _sample) = Sandbox::with_app();
    let out = sb.call_tool("click", r##"{"selector":"#nope"}"##);
    out.assert_code(5);
    let result = out.json();
    assert_eq!(result["isError"], true, "{out}");
    let text = result["content"][0]["text"].as_str().expect("text block");
    assert_eq!(out.stderr, format!("error: tool `click` failed: {text}\n"));
}

#[test]
fn bad_args_json_exits_1_saying_where() {
    let sb = Sandbox::new();
    let out = sb.call_tool("click", "{\"selector\": }");
    out.assert_code(1).assert_stdout_is("").assert_stderr_is(
        "error: `--args` is not valid JSON: expected value at line 1 column 14\n\
         hint: pass one JSON value, e.g. `--args '{\"name\":\"value\"}'`\n",
    );
    // A method's example is a method's params, not a tool's arguments.
    let out = sb.mur(&["devtools", "call", "resources/read", "--args", "{uri: 1}"]);
    out.assert_code(1).assert_stderr_is(
        "error: `--args` is not valid JSON: key must be a string at line 1 column 2\n\
         hint: pass one JSON value, e.g. `--args '{\"uri\":\"app://log\"}'`\n",
    );
}

/// A server whose one tool, `echo`, answers each call with its arguments as JSON text.
fn echoing() -> Stub {
    let tools = json!([{ "name": "echo", "description": "Says it back",
        "inputSchema": { "type": "object", "properties": { "text": { "type": "string" } } } }]);
    Stub::echoing_arguments(tools)
}

/// Arguments longer than Linux takes as one word of a command line (128 KiB, past
/// which `exec` fails with "Argument list too long"): `--args @FILE` and `--args -`
/// read them; a file that cannot be read, or that is no JSON, is exit 1 in one line,
/// with nothing sent.
#[test]
fn call_args_are_read_from_a_file_or_stdin_past_a_command_lines_limit() {
    let sb = Sandbox::new();
    let server = echoing();
    let endpoint = server.endpoint();
    let text = "a".repeat(200_000);
    let file = sb.file("args.json", json!({ "text": text }).to_string());
    let file = file.to_str().expect("utf-8");
    let echo = |args: &str| sb.devtools_at(&endpoint, &["call", "echo", "--args", args]);
    let echoed = |out: &Output| -> serde_json::Value {
        serde_json::from_str(&out.tool_text(0)).expect("the arguments, as JSON")
    };
    let from_file = echo(&format!("@{file}"));
    assert_eq!(echoed(&from_file), json!({ "text": text }));
    for dash in ["-", "@-"] {
        let piped = mur_e2e::run(&mut sb.shell_command(&format!(
            "mur devtools --endpoint {endpoint} call echo --args {dash} < {file}"
        )));
        assert_eq!(echoed(&piped), json!({ "text": text }), "--args {dash}");
    }
    let sent = server.requests().len();
    let missing = sb.root().join("missing.json");
    let missing = missing.to_str().expect("utf-8");
    for (args, stderr) in [
        (
            format!("@{missing}"),
            format!(
                "error: `--args`: `{missing}` cannot be read: no such file \
                     (`@FILE` reads a file; a value that begins with `@` is written `@@…`)\n"
            ),
        ),
        (
            "@/dev/zero".to_owned(),
            "error: `--args`: `/dev/zero` is a device, not a regular file\n".to_owned(),
        ),
        (
            format!("@{}", sb.root().display()),
            format!(
                "error: `--args`: `{}` is a directory, not a regular file\n",
                sb.root().display()
            ),
        ),
    ] {
        let out = echo(&args);
        out.assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(stderr);
    }
    let prose = sb.file("prose.txt", "not json");
    let out = echo(&format!("@{}", prose.display()));
    out.assert_code(1).assert_stderr_is(format!(
        "error: `--args @{}` is not valid JSON: expected ident at line 1 column 2\n\
         hint: pass one JSON value, e.g. `--args '{{\"name\":\"value\"}}'`\n",
        prose.display()
    ));
    // JSON that is no object names the file it came from, as a bad one does.
    let array = sb.file("arr.json", "[1, 2]");
    let out = echo(&format!("@{}", array.display()));
    out.assert_code(1).assert_stderr_starts_with(&format!(
        "error: `--args @{}` must be a JSON object of the tool's arguments by name, not an array\n",
        array.display()
    ));
    // Stdin is read to a bound, not to the end of an endless stream.
    let endless = mur_e2e::run(&mut sb.shell_command(&format!(
        "mur devtools --endpoint {endpoint} call echo --args - < /dev/zero"
    )));
    endless.assert_code(1).assert_stderr_is(
        "error: `--args`: stdin holds more than 4 MiB, what a session takes in one request\n",
    );
    // A pipe its writer keeps open (an agent's harness that never closes mur's stdin)
    // is read within the command's `--timeout`, not waited on for ever.
    let mut held = sb.mur_command(&[
        "devtools",
        "--timeout",
        "500",
        "--endpoint",
        &endpoint,
        "call",
        "echo",
        "--args",
        "-",
    ]);
    held.stdout(Stdio::piped()).stderr(Stdio::piped());
    let (mur, writer) = mur_e2e::Process::spawn_with_stdin(&mut held);
    let out = mur.wait_output();
    drop(writer);
    out.assert_code(1).assert_stderr_is(
        "error: `--args`: stdin was not closed by its writer within 500 ms (the bound `--timeout` sets)\n",
    );
    assert_eq!(server.requests().len(), sent, "nothing was sent");
}

/// A tool whose name has a `/` (MCP allows it): `call NAME` sends such a NAME as a
/// method, as `call tools/list` must; when the server refuses it, the hint says how to
/// call the session's tool of that name (its derived verb, or `call tools/call`), in the
/// place of the one about methods. A method the session has no tool of keeps that one.
#[test]
fn a_refused_method_that_is_a_tools_name_says_how_to_call_the_tool() {
    let sandbox = Sandbox::new();
    let server = Stub::serve(|req| {
        let body = req.json();
        let answer = match body["method"].as_str().unwrap_or_default() {
            "tools/list" => json!({ "result": { "tools": [{ "name": "fs/read",
                "inputSchema": { "type": "object", "properties": { "path": { "type": "string" } } } }] } }),
            "tools/call" => {
                json!({ "result": { "content": [{ "type": "text", "text": "read" }] } })
            }
            _ => json!({ "error": { "code": -32601, "message": "Method not found" } }),
        };
        let mut answer = answer;
        answer["jsonrpc"] = json!("2.0");
        answer["id"] = body["id"].clone();
        Reply::json(200, &answer)
    });
    let endpoint = server.endpoint();
    let call =
        |name: &str| sandbox.devtools_at(&endpoint, &["call", name, "--args", r#"{"path":"/x"}"#]);
    let out = call("fs/read");
    out.assert_code(5);
    assert_eq!(
        out.json(),
        json!({ "error": { "code": -32601, "message": "Method not found" } })
    );
    assert_eq!(
        out.stderr,
        format!(
            "error: `fs/read` failed: Method not found (JSON-RPC error -32601: method not found)\n\
             hint: `fs/read` is a tool of the session: `mur devtools --endpoint {endpoint} \
             fs-read …` (its derived verb) or `mur devtools --endpoint {endpoint} call tools/call \
             --args '{{\"name\":\"fs/read\",\"arguments\":{{\"path\":\"/x\"}}}}'`\n"
        )
    );
    // Both commands the hint names call the tool.
    let derived = sandbox.devtools_at(&endpoint, &["fs-read", "--path", "/x"]);
    assert_eq!(derived.json(), json!("read"), "{derived}");
    let args = r#"{"arguments":{"path":"/x"},"name":"fs/read"}"#;
    let whole = sandbox.tools_call_at(&endpoint, args);
    assert_eq!(whole.tool_text(0), "read", "{whole}");

    // A method the session has no tool of: the hint about methods, as before.
    let out = call("fs/write");
    out.assert_code(5).assert_stderr_is(format!(
        "error: `fs/write` failed: Method not found (JSON-RPC error -32601: method not found)\n\
         hint: the session serves no such method; `call NAME` without a `/` calls the tool NAME, \
         and `mur devtools --endpoint {endpoint} catalog` lists the tools\n"
    ));
}

/// A tool's result prints the same whichever revision the session is spoken in: a
/// verb's and `call NAME`'s carried the 2026-07-28 revision's `resultType` (and would its
/// `_meta` reserved keys), which the 2025-11-25 session form lacks. Against mur-sample's
/// fixtures: `call NAME`, its whole result with `--out`, and a tool that fails (exit 5,
/// its result on stdout) called by a derived verb and by `call`.
#[test]
fn a_tools_result_prints_the_same_in_either_revision() {
    let sb = Sandbox::new();
    let _app = sb.start_sample_with(&sb.project("app"), &["--conformance-fixtures"]);
    let both = |argv: &[&str], code: i32| {
        let modern = sb.devtools(argv);
        let legacy = sb.devtools(&[&["--protocol", "2025-11-25"][..], argv].concat());
        modern.assert_code(code);
        legacy.assert_code(code);
        assert_eq!(modern.stdout, legacy.stdout, "{modern}\n{legacy}");
        modern.json()
    };
    let said = "This is a simple text response for testing.";
    let text = json!({ "type": "text", "text": json!({ "text": said }).to_string() });
    assert_eq!(
        both(&["call", "test_simple_text"], 0),
        json!({ "content": [text], "structuredContent": { "text": said }, "isError": false })
    );
    // The whole result, its image written to a file (`--out`); a failed tool's result,
    // on stdout with exit 5, by a derived verb and by `call`.
    let keys = |result: serde_json::Value| {
        let fields = result.as_object().into_iter().flatten();
        let mut keys: Vec<String> = fields.map(|(key, _)| key.clone()).collect();
        keys.sort();
        keys
    };
    let shot = sb.root().join("shot.png").display().to_string();
    let image = both(&["call", "test_image_content", "--out", &shot], 0);
    assert_eq!(keys(image), ["content", "isError", "structuredContent"]);
    for failing in [
        &["test-error-handling"][..],
        &["call", "test_error_handling"],
    ] {
        assert_eq!(keys(both(failing, 5)), ["content", "isError"]);
    }
}

/// `call TOOL '{…}'`, the arguments as a word: refused (nothing is sent) with the
/// command that passes them, or where the verb's own words are.
#[test]
fn a_tool_the_session_does_not_have_is_answered_with_the_one_likely_meant() {
    let (sb, _app) = Sandbox::with_app();
    let unknown = |name: &str| {
        let out = sb.mur(&[
            "devtools",
            "call",
            name,
            "--args",
            r##"{"selector":"#btn-inc"}"##,
        ]);
        out.assert_code(5);
        // The server's answer on stdout, as for any failed call.
        assert_eq!(out.json()["error"]["code"], -32602, "{out}");
        out.stderr
    };
    let said = |name: &str, meant: Option<&str>| {
        let meant = meant.map(|m| format!("hint: did you mean `{m}`?\n"));
        // The session's word, not "tool `NAME` failed", which read as if it had run.
        format!(
            "error: the session has no tool `{name}`\n\
             {}hint: `mur devtools catalog` lists the tools this session has, each as a verb\n",
            meant.unwrap_or_default()
        )
    };
    // A typo: the nearest tool name.
    assert_eq!(unknown("clik"), said("clik", Some("click")));
    // A verb's name: `call` takes the tool's own.
    assert_eq!(
        unknown("switch-component"),
        said("switch-component", Some("switchComponent"))
    );
    // Nothing near it: the server's word, and where the session's tools are listed.
    assert_eq!(unknown("frobnicate"), said("frobnicate", None));
}

/// A verb whose tool the session lacks is told as `call nosuchtool` is, naming the verb
/// typed and its tool: a named verb (the standard `state` and `wait` against a server of
/// other tools) and a derived verb made from a cached list the server no longer matches;
/// a data verb (docs/examples/count.json, of `state`) names its file, where it is fixed. It read ``tool `state` failed:
/// Tool state not found``, as if the tool had run (data and derived verbs until the call
/// path said it for every verb: `` `count` (tool `state`) failed: … ``). A verb named as
/// its tool is not named twice (it read "… `state`, which `state` calls").
#[test]
fn a_verb_whose_tool_the_session_lacks_is_told_as_call_tells_it() {
    let sb = mur_e2e::plugins::standard_sandbox();
    let count = mur_e2e::plugins::repo_root().join("docs/examples/count.json");
    sb.devtools(&["verbs", "add", count.to_str().expect("utf-8")])
        .assert_code(0);
    let listed = |name: &str| json!([{ "name": name, "inputSchema": { "type": "object" } }]);
    let tools = std::sync::Arc::new(std::sync::Mutex::new(listed("sayHello")));
    let now = tools.clone();
    let server = Stub::with_tool_list(tools.clone(), move |params| {
        let name = params["name"].as_str().unwrap_or_default();
        let list = now.lock().expect("tool list").clone();
        match list[0]["name"] == name {
            true => Ok(json!({ "content": [{ "type": "text", "text": "hello" }] })),
            false => Err(json!({ "code": -32602, "message": format!("Tool {name} not found") })),
        }
    });
    let endpoint = server.endpoint();
    // `say-hello` is derived from the list as it was, and cached; then the server has
    // another tool, which the cached list does not know.
    sb.devtools_at(&endpoint, &["say-hello"]).assert_code(0);
    *tools.lock().expect("tool list") = listed("echo");
    let catalog = format!(
        "hint: `mur devtools --endpoint {endpoint} catalog` lists the tools this session has, \
         each as a verb\n"
    );
    // Typed as its tool's name, the verb is named as typed (RV2 F8: "… `sayHello`, which
    // `say-hello` calls", a word never typed); then `say-hello` is cached again.
    sb.devtools_at(&endpoint, &["sayHello"])
        .assert_code(5)
        .assert_stderr_is(format!(
            "error: the session has no tool `sayHello`\n{catalog}"
        ));
    *tools.lock().expect("tool list") = listed("sayHello");
    sb.devtools_at(&endpoint, &["--refresh", "say-hello"])
        .assert_code(0);
    *tools.lock().expect("tool list") = listed("echo");
    // `say-hello` first: each lacking tool reads the list afresh, into the cache.
    for (argv, said) in [
        (
            &["say-hello"][..],
            "the session has no tool `sayHello`, which `say-hello` calls",
        ),
        (&["state"], "the session has no tool `state`"),
        (
            &["wait", "#x"],
            "the session has no tool `waitFor`, which `wait` calls",
        ),
    ] {
        let out = sb.devtools(&[&["--endpoint", &endpoint][..], argv].concat());
        out.assert_code(5)
            .assert_stderr_is(format!("error: {said}\n{catalog}"));
        // The server's answer on stdout, as for any failed call.
        assert_eq!(out.json()["error"]["code"], -32602, "{out}");
    }
    // A data verb's tool is named by its file: the fix is there, or in the session
    // chosen (it was told as `call state` is, with no word of the file).
    let data_verb = |verb: &str, tool: &str, file: &std::path::Path, meant: &str| {
        let file = file.to_str().expect("utf-8");
        format!(
            "error: data verb `{verb}`'s file names tool `{tool}`, which this session does \
             not offer\n\
             hint: fix the `tool` in `{file}`{meant} and install it again: `mur devtools \
             verbs add --force {file}`\n\
             hint: or the verb is for another session: `mur devtools session list` lists \
             them (`--project PATH` picks one)\n{catalog}"
        )
    };
    let out = sb.devtools_at(&endpoint, &["count"]);
    out.assert_code(5)
        .assert_stderr_is(data_verb("count", "state", &count, ""));
    assert_eq!(out.json()["error"]["code"], -32602, "{out}");
    // A tool one slip from the session's is the one meant, for a data verb as for
    // `call` (it said only that the session has no tool `stat`).
    *tools.lock().expect("tool list") = listed("state");
    let typo = sb.root().join("typo.json");
    let spec = json!({ "schema": "mur-verb/1", "name": "typo", "tool": "stat", "summary": "x" });
    std::fs::write(&typo, spec.to_string()).expect("write typo.json");
    sb.devtools(&["verbs", "add", typo.to_str().expect("utf-8")])
        .assert_code(0);
    // A named or data verb calls the tool its spec names, whatever is typed: the tool
    // meant is said as the command that calls it (RV4 7: "did you mean `state`?" read
    // as a word to type into `typo`).
    let meant = |tool: &str| format!("`mur devtools --endpoint {endpoint} call {tool}`");
    sb.devtools_at(&endpoint, &["typo"])
        .assert_code(5)
        .assert_stderr_is(data_verb("typo", "stat", &typo, " (did you mean `state`?)"));
    sb.devtools_at(&endpoint, &["call", "stat"])
        .assert_code(5)
        .assert_stderr_is(format!(
            "error: the session has no tool `stat`\nhint: did you mean `state`?\n{catalog}"
        ));
    *tools.lock().expect("tool list") = listed("waitfor");
    sb.devtools_at(&endpoint, &["wait", "#x"])
        .assert_code(5)
        .assert_stderr_is(format!(
            "error: the session has no tool `waitFor`, which `wait` calls\n\
             hint: did you mean {}?\n{catalog}",
            meant("waitfor")
        ));
    // A tool whose name `call` sends as a method (a `/` in it) is meant through
    // `tools/call`: `call inventory/list` is JSON-RPC method `inventory/list`, which the
    // server refuses (the hint said that). The line pasted calls the tool.
    *tools.lock().expect("tool list") = listed("inventory/list");
    let slashed = sb.root().join("slashed.json");
    let spec = json!({ "schema": "mur-verb/1", "name": "slashed", "tool": "inventory/lst",
                       "summary": "x" });
    std::fs::write(&slashed, spec.to_string()).expect("write slashed.json");
    sb.devtools(&["verbs", "add", slashed.to_str().expect("utf-8")])
        .assert_code(0);
    let params = r#"{"name":"inventory/list"}"#;
    sb.devtools_at(&endpoint, &["slashed"])
        .assert_code(5)
        .assert_stderr_is(data_verb(
            "slashed",
            "inventory/lst",
            &slashed,
            " (did you mean `inventory/list`?)",
        ));
    // `call` meant such a tool too: said as the call that reaches it, the arguments
    // typed kept (it said "did you mean `inventory/list`?", which `call` sends as a
    // method: exit 5). The line pasted calls the tool.
    let meant = |args: &str| {
        format!(
            "error: the session has no tool `inventory-lst`\n\
             hint: did you mean `mur devtools --endpoint {endpoint} call tools/call --args \
             '{args}'`?\n{catalog}"
        )
    };
    sb.devtools_at(&endpoint, &["call", "inventory-lst"])
        .assert_code(5)
        .assert_stderr_is(meant(params));
    let typed = ["--endpoint", &endpoint, "call", "inventory-lst", "--args"];
    let with_args = r#"{"name":"inventory/list","arguments":{"n":1}}"#;
    sb.devtools(&[&typed[..], &[r#"{"n":1}"#]].concat())
        .assert_code(5)
        .assert_stderr_is(meant(with_args));
    let pasted = sb.tools_call_at(&endpoint, with_args);
    assert_eq!(pasted.assert_code(0).json()["content"][0]["text"], "hello");
}

/// A server that says "Unknown tool" of a tool it still lists (or whose list cannot be
/// read) keeps its own error, said as the verb typed calls the tool (RV2 F4: it said
/// "tool `waitFor` failed" of `wait`, the verb typed lost).
#[test]
fn a_tool_the_server_calls_unknown_but_lists_is_said_as_the_verb_typed_calls_it() {
    let sb = mur_e2e::plugins::standard_sandbox();
    let unknown = |params: &serde_json::Value| {
        let name = params["name"].as_str().unwrap_or_default();
        json!({ "code": -32602, "message": format!("Unknown tool: {name}") })
    };
    let listed = json!([{ "name": "waitFor", "inputSchema": { "type": "object" } }]);
    let lists = Stub::with_tools(listed, move |params| Err(unknown(params)));
    // Its list refused: nothing confirms the tool is gone.
    let unlisted = Stub::serve(move |req| {
        let body = req.json();
        let answer = match body["method"].as_str() {
            Some("tools/call") => unknown(&body["params"]),
            _ => json!({ "code": -32603, "message": "no list today" }),
        };
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": body["id"], "error": answer }),
        )
    });
    for server in [&lists, &unlisted] {
        let endpoint = server.endpoint();
        sb.devtools_at(&endpoint, &["wait", "#x"])
            .assert_code(5)
            .assert_stderr_is(format!(
                "error: `wait` (tool `waitFor`) failed: Unknown tool: waitFor (JSON-RPC error \
                 -32602)\nhint: `mur devtools --endpoint {endpoint} catalog` lists the tools \
                 this session has, each as a verb\n"
            ));
    }
}

#[test]
fn arguments_written_after_the_tool_name_are_refused_with_the_way_to_pass_them() {
    let (sb, _app) = Sandbox::with_app();
    let json = sb.mur(&["devtools", "call", "click", r##"{"selector": "#btn-inc"}"##]);
    json.assert_code(1).assert_stdout_is("");
    assert_eq!(
        json.stderr,
        concat!(
            "error: unexpected argument `{\"selector\": \"#btn-inc\"}`: `call` takes the arguments in `--args`, as JSON\n",
            "hint: mur devtools call click --args '{\"selector\": \"#btn-inc\"}'\n",
        )
    );
    let word = sb.mur(&["devtools", "call", "click", "#btn-inc"]);
    word.assert_code(1).assert_stderr_is(concat!(
        "error: unexpected argument `#btn-inc`: `call` takes the arguments in `--args`, as JSON\n",
        "hint: the verb takes words: mur devtools click '#btn-inc' (`--help` shows which)\n",
    ));
    // A verb's options after the tool's name: the same arguments as `--args`.
    let options = sb.mur(&["devtools", "call", "click", "--selector", "#btn-inc"]);
    options.assert_code(1).assert_stderr_is(concat!(
        "error: unexpected argument `--selector`: `call` takes the arguments in `--args`, as JSON\n",
        "hint: mur devtools call click --args '{\"selector\":\"#btn-inc\"}'\n",
    ));
    // A method's params the same way; no verb to point at.
    let method = sb.mur(&["devtools", "call", "tools/list", "all"]);
    method.assert_code(1).assert_stderr_is(
        "error: unexpected argument `all`: `call` takes the arguments in `--args`, as JSON\n",
    );
    // A tool takes its arguments by name: a list is refused here, not sent.
    let list = sb.mur(&["devtools", "call", "click", "--args", r##"["#btn-inc"]"##]);
    list.assert_code(1).assert_stdout_is("");
    assert_eq!(
        list.stderr,
        concat!(
            "error: `--args` must be a JSON object of the tool's arguments by name, not an array\n",
            "hint: e.g. `--args '{\"name\":\"value\"}'`\n",
        )
    );
    // A method's params are named too, as MCP has them: a string is refused.
    let string = sb.mur(&[
        "devtools",
        "call",
        "resources/read",
        "--args",
        r#""app://log""#,
    ]);
    string.assert_code(1).assert_stderr_is(concat!(
        "error: `--args` must be a JSON object of the method's params by name, not a string\n",
        "hint: e.g. `--args '{\"uri\":\"app://log\"}'`\n",
    ));
    assert_eq!(counter(&sb), "0", "no click was sent");
    // The words' hint, pasted, makes the call.
    sb.mur(&["devtools", "click", "#btn-inc"]).assert_code(0);
    assert_eq!(counter(&sb), "1");
}

/// Among several sessions, `call`'s hint carries the options that chose one: pasted,
/// it makes the call there (it asked which session).
#[test]
fn a_calls_hint_reaches_the_session_the_typed_options_chose() {
    let (sb, [_a, _b]) = Sandbox::with_apps(["a", "b"]);
    let project = sb.project("b").display().to_string();
    let typed = sb.mur(&[
        "devtools",
        "--project",
        &project,
        "call",
        "click",
        "--selector",
        "#btn-inc",
    ]);
    typed.assert_code(1);
    let hint = typed.stderr_after("hint: ");
    assert_eq!(
        hint,
        format!(
            r##"mur devtools --project {project} call click --args '{{"selector":"#btn-inc"}}'"##
        )
    );
    let pasted = mur_e2e::run(&mut sb.shell_command(hint));
    pasted.assert_code(0);
    let count = |name: &str| {
        let project = sb.project(name).display().to_string();
        let state = sb.mur(&["devtools", "--project", &project, "call", "state"]);
        state.assert_code(0).json()["structuredContent"]["counter"]["count"].clone()
    };
    assert_eq!((count("a"), count("b")), (json!(0), json!(1)));
}

#[test]
fn a_server_that_never_answers_times_out_with_exit_2() {
    let sb = Sandbox::new();
    let hung = Stub::silent();
    let out = call_fails(
        &sb,
        &hung.endpoint(),
        &["--timeout", "300"],
        2,
        " did not answer within 300 ms\n",
    );
    assert_eq!(out.stdout, "");
}

/// A verb's own `--timeout MS` (after its name) sets the bound, shorter than the host's
/// default too, unless the host was given one: a call out of it says so, where the
/// hint said to lengthen the host's `--timeout` before the verb's name, which that one
/// overrode.
#[test]
fn a_verbs_own_timeout_is_the_bound_its_hint_names() {
    let sb = Sandbox::new();
    mur_e2e::plugins::install_standard(&sb);
    let hung = Stub::silent();
    let endpoint = hung.endpoint();
    let at = |words: &[&str]| sb.mur(&[&["devtools", "--endpoint", &endpoint][..], words].concat());
    // The server read the request and never answered (no tool list cached).
    let sent_to = |tool: &str| {
        format!(
            "hint: the request was sent, so tool `{tool}` may have run: check the app's state \
             before running it again (the session is not known to mark it read-only or \
             idempotent)\n"
        )
    };
    let sent = sent_to("state");
    // The call has half as long again (2 s at most) for the answer to come back: the
    // error says the bound applied, half a millisecond too (`--timeout 301` said "within
    // 451 ms", which neither 301 nor half as long again is); a verb without a wait of its
    // own (`state`) and one with (`wait`, whose `--timeout` is its tool's wait too).
    for (words, ms, tool) in [
        (&["state", "--timeout", "300"][..], "450", "state"),
        (&["state", "--timeout", "301"], "451.5", "state"),
        (&["wait", "#x", "--timeout", "301"], "451.5", "waitFor"),
    ] {
        let own = words[words.len() - 1];
        at(words).assert_code(2).assert_stderr_is(format!(
            "error: `{endpoint}` did not answer within {ms} ms\n{}\
             hint: the bound was the verb's own `--timeout {own}` (after its name) and half as \
             long again (at most 2 s more) for the answer to arrive: a slow tool may need a \
             longer one\n",
            sent_to(tool)
        ));
    }
    // A bound before the name only lengthened by the verb's: the host's stood.
    at(&["--timeout", "1000", "state", "--timeout", "300"])
        .assert_code(2)
        .assert_stderr_is(format!(
            "error: `{endpoint}` did not answer within 1000 ms\n{sent}\
         hint: a slow tool may need a longer `--timeout MS` before the verb name\n"
        ));
    at(&["--timeout", "300", "state"])
        .assert_code(2)
        .assert_stderr_is(format!(
            "error: `{endpoint}` did not answer within 300 ms\n{sent}\
         hint: a slow tool may need a longer `--timeout MS` before the verb name\n"
        ));
}

/// A call out of time whose request the server read may have acted (a script that
/// retried every exit 2, as the guide said, clicked twice): the hint says the request
/// was sent and whether running it again is safe, by the session's tool list as cached
/// — a tool marked read-only or idempotent is; any other, or one mur knows nothing of,
/// gets its app's state checked first. Before, nothing said the request had gone out.
#[test]
fn a_call_out_of_time_says_the_request_was_sent_and_whether_running_it_again_is_safe() {
    let sb = Sandbox::new();
    let hung = never_answering_a_call(json!([
        { "name": "increment", "inputSchema": { "type": "object" },
          "annotations": { "readOnlyHint": false, "idempotentHint": false } },
        { "name": "peek", "inputSchema": { "type": "object" },
          "annotations": { "readOnlyHint": true } },
        { "name": "reset", "inputSchema": { "type": "object" },
          "annotations": { "idempotentHint": true } },
    ]));
    let endpoint = hung.endpoint();
    let call = |tool: &str| {
        let out = sb.devtools_at(&endpoint, &["--timeout", "300", "call", tool]);
        out.assert_code(2).assert_stdout_is("");
        out
    };
    let hinted = |tool: &str, hint: &str| {
        call(tool).assert_stderr_is(format!(
            "error: `{endpoint}` did not answer within 300 ms\n\
             hint: the request was sent, so tool `{tool}` may have run{hint}\n\
             hint: a slow tool may need a longer `--timeout MS` before `call`\n"
        ));
    };
    // No tool list cached: nothing says it is safe.
    hinted(
        "peek",
        ": check the app's state before running it again (the session is not known to mark \
         it read-only or idempotent)",
    );
    sb.devtools_at(&endpoint, &["catalog"]).assert_code(0);
    hinted(
        "increment",
        ": check the app's state before running it again (the session does not mark it \
         read-only or idempotent)",
    );
    hinted(
        "peek",
        "; the session marks it read-only: running it again is safe",
    );
    hinted(
        "reset",
        "; the session marks it idempotent: running it again is safe",
    );
    assert_eq!(hung.tool_calls(), 4);
}

/// A server with `tools` that opens the event stream of every `tools/call` and never
/// answers it (for a minute); any other method gets `{}`.
fn never_answering_a_call(tools: serde_json::Value) -> Stub {
    Stub::serve(move |req| {
        let body = req.json();
        let result = match body["method"].as_str() {
            Some("tools/call") => return Reply::sse_open(&[], Duration::from_secs(60)),
            Some("tools/list") => json!({ "tools": tools }),
            _ => json!({}),
        };
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": body["id"], "result": result }),
        )
    })
}

/// An endpoint nothing listens at says so plainly, as discovery words a lockfile's
/// endpoint that refused the connection, with the one step that finds the app: for
/// `--endpoint`, whether its server runs, as `session list` never shows a server reached
/// that way (it has no lockfile; the hint sent there, review 508 finding 12); `-v`
/// names the tool a `tools/call` calls (never its arguments).
#[test]
fn a_refused_connection_says_nothing_listens_there_and_v_names_the_tool_called() {
    let sb = Sandbox::new();
    let (_closed_socket, port) = mur_e2e::refusing_port();
    let endpoint = format!("http://127.0.0.1:{port}/mcp");
    sb.call_version_at(&endpoint, &[])
        .assert_code(2)
        .assert_stderr_is(format!(
            "error: `{endpoint}`: could not connect: nothing listens on 127.0.0.1:{port} \
             (connection refused)\n\
             hint: is the server at that address running? `--endpoint` names it directly; \
             `mur devtools session list` shows only the sessions of lockfiles\n"
        ));
    let server = Stub::answering(json!({ "content": [] }));
    let endpoint = server.endpoint();
    let secret = "hunter2-not-logged";
    let args = json!({ "password": secret }).to_string();
    let out = sb.mur(&[
        "-v",
        "devtools",
        "--endpoint",
        &endpoint,
        "call",
        "login",
        "--args",
        &args,
    ]);
    out.assert_code(0);
    out.assert_stderr_contains(&format!(
        "DEBUG POST {endpoint} tools/call `login` (protocol "
    ));
    assert!(!out.stderr.contains(secret), "{out}");
}

/// A wait mur lowers to end within the call's bound is said in a hint under the tool's
/// answer when it runs out (the answer names a wait nobody typed: `timed out after 666
/// ms`), and nowhere when it ends well or was not lowered: a note on every such call,
/// successful ones too, was noise in a transcript.
#[test]
fn a_wait_mur_lowers_to_fit_the_bound_is_said_only_when_it_runs_out() {
    let (sb, _sample) = mur_e2e::plugins::standard_session();
    let timed_out = "timed out after 666 ms waiting for `#never` to exist; last seen: no element \
                     matched `#never`";
    sb.devtools(&["--timeout", "1000", "wait", "#never"])
        .assert_code(5)
        .assert_stderr_is(format!(
            "error: `wait` (tool `waitFor`) failed: {timed_out}\n\
             hint: `wait`'s timeout was lowered from 5000 ms to 666 ms, to end within the \
             call's `--timeout` of 1000 ms; `--timeout MS` after `wait` waits that long\n"
        ));
    // Lowered, and met at once: nothing said.
    sb.devtools(&["--timeout", "1000", "wait", "#count"])
        .assert_code(0)
        .assert_stderr_is("");
    // Not lowered (the wait typed ends within its bound): the answer alone.
    sb.devtools(&["--timeout", "1000", "wait", "#never", "--timeout", "300"])
        .assert_code(5)
        .assert_stderr_is(
            "error: `wait` (tool `waitFor`) failed: timed out after 300 ms waiting for \
             `#never` to exist; last seen: no element matched `#never`\n",
        );
}

/// A call that ran out of time while the server was sending progress was running, not
/// unanswered: it says so (before, "did not answer within …" though lines of progress
/// were on the screen).
#[test]
fn a_call_out_of_time_after_progress_says_it_was_still_running() {
    let sb = Sandbox::new();
    let busy = Stub::serve(|_| {
        let progress = serde_json::json!({ "jsonrpc": "2.0", "method": "notifications/progress",
            "params": { "progressToken": "mur", "progress": 1, "total": 3 } });
        Reply::sse_open(&[progress], std::time::Duration::from_secs(5))
    });
    let endpoint = busy.endpoint();
    let out = sb.devtools_at(&endpoint, &["--timeout", "800", "call", "slow"]);
    out.assert_code(2);
    assert_eq!(
        out.stderr.lines().find(|l| l.starts_with("error: ")),
        Some(
            format!(
                "error: the call to `{endpoint}` was still running after 800 ms: the server had sent progress or log messages, not yet the answer"
            )
            .as_str()
        ),
        "{out}"
    );
}

#[test]
fn a_server_that_hangs_up_mid_call_exits_2() {
    let sb = Sandbox::new();
    let gone = Stub::hang_up();
    let endpoint = gone.endpoint();
    // Said of the call, as an interrupt's line says it; the endpoint in a hint.
    sb.call_version_at(&endpoint, &[])
        .assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: the session closed the connection during the call to tool `version`, \
             before answering\nhint: the session was at `{endpoint}`\n"
        ));
}

#[test]
fn a_killed_session_is_a_transport_error() {
    let (sb, sample) = Sandbox::with_app();
    let endpoint = sample.endpoint().to_owned();
    sample.kill();
    let out = sb.call_version_at(&endpoint, &[]);
    out.assert_code(2);
    // Without --endpoint, its lockfile is stale: no session.
    sb.mur(&["devtools", "call", "version"]).assert_code(4);
}

#[test]
fn a_non_mcp_answer_is_a_transport_error() {
    let sb = Sandbox::new();
    let web = Stub::plain_http();
    let out = sb.call_version_at(&web.endpoint(), &[]);
    out.assert_code(2);
    out.assert_stderr_contains("answered without a JSON-RPC response");
}

#[test]
fn the_modern_request_carries_its_context_in_meta_and_headers() {
    let sb = Sandbox::new();
    let server = Stub::answering(json!({ "ok": true }));
    let out = sb.devtools_at(
        &server.endpoint(),
        &["call", "tree", "--args", r#"{"view":"full"}"#],
    );
    out.assert_code(0).assert_stdout_is("{\"ok\":true}\n");
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
    let out = sb.call_version_at(&server.endpoint(), &[]);
    out.assert_quiet_success();
    assert_eq!(out.stdout, "{\"ours\":true}\n");
}

/// The retry takes the newest revision named that mur speaks (a server naming only
/// others ends the call: hostile_server.rs).
#[test]
fn unsupported_version_is_retried_once_with_a_supported_modern_one() {
    let sb = Sandbox::new();
    let refused = std::sync::atomic::AtomicBool::new(false);
    let server = Stub::serve(move |req| {
        let body = req.json();
        let version = body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"].clone();
        if !refused.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return Reply::json(
                400,
                &json!({ "jsonrpc": "2.0", "id": body["id"], "error": {
                "code": -32022, "message": "Unsupported protocol version",
                "data": { "requested": version, "supported": ["2026-09-30", "2026-07-28"] } } }),
            );
        }
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": body["id"], "result": { "version": version } }),
        )
    });
    let out = sb.call_version_at(&server.endpoint(), &[]);
    out.assert_code(0)
        .assert_stdout_is("{\"version\":\"2026-07-28\"}\n");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(
        requests[1].header("mcp-protocol-version"),
        Some("2026-07-28")
    );
}

#[test]
fn a_session_based_server_is_reached_through_the_legacy_fallback() {
    let (sb, sample) = Sandbox::with_app();
    let proxy = stub::legacy_proxy(sample.endpoint());
    let out = sb.devtools_at(&proxy.endpoint(), &["call", "tools/list"]);
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
            "GET",
            "POST tools/list",
            "DELETE"
        ],
        "modern attempt, then initialize → initialized → the session's stream → call → DELETE"
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

/// Runs `call version` at `endpoint` and asserts it exits `code` with an error that
/// names the endpoint first and goes on with `after`; returns the output.
fn call_fails(sb: &Sandbox, endpoint: &str, options: &[&str], code: i32, after: &str) -> Output {
    let out = sb.call_version_at(endpoint, options);
    out.assert_code(code);
    out.assert_stderr_starts_with(&format!("error: `{endpoint}`{after}"));
    out
}

/// The session id [`legacy_server`] hands out.
const SESSION: &str = "stub-session-1";

/// A session-based server of the 2025-11-25 revision, played by a stub: the
/// modern request is refused (400 with a null-id error, as such servers do),
/// `initialize` opens session [`SESSION`], notifications and the client's
/// own responses are accepted (202), `DELETE` ends the session (200), and
/// the call itself is answered by `on_call`.
fn legacy_server(on_call: impl Fn(&stub::Request) -> Reply + Send + Sync + 'static) -> Stub {
    let initialized = json!({ "protocolVersion": "2025-11-25", "capabilities": { "tools": {} },
                              "serverInfo": { "name": "stub", "version": "0" } });
    Stub::legacy(SESSION, initialized, on_call)
}

/// `(method, JSON-RPC method)` of each request a stub saw, e.g. `POST initialize`.
fn seen(stub: &Stub) -> Vec<String> {
    stub.requests()
        .iter()
        .map(|r| {
            let body = r.json();
            let what = body["method"].as_str().map(str::to_owned).or_else(|| {
                body.get("error")
                    .map(|_| format!("error for {}", body["id"]))
            });
            format!("{} {}", r.method, what.unwrap_or_default())
                .trim()
                .to_owned()
        })
        .collect()
}

/// What [`seen`] shows of a `tools/call` that falls back to a session: the modern
/// attempt, `initialize`, `notifications/initialized`, the session's own event
/// stream (`GET`, open while the call runs), the call again, then `rest`.
fn through_a_session(rest: &[&str]) -> Vec<String> {
    [
        "POST tools/call",
        "POST initialize",
        "POST notifications/initialized",
        "GET",
        "POST tools/call",
    ]
    .iter()
    .chain(rest)
    .map(|s| (*s).to_owned())
    .collect()
}

/// An SSE answer whose stream stays open after these messages.
fn open_sse(messages: &[serde_json::Value]) -> Reply {
    Reply::sse_open(messages, Duration::from_secs(30))
}

/// `--protocol` takes the revisions mur speaks, a typo with the one meant, and holds a
/// session server to the one asked: it took any date, sent it, and went on in whatever
/// revision the server answered.
#[test]
fn protocol_is_a_revision_mur_speaks_and_the_only_one_spoken() {
    let sb = Sandbox::new();
    let server = legacy_server(|req| {
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": req.json()["id"], "result": {} }),
        )
    });
    let endpoint = server.endpoint();
    let at = |protocol: &str| sb.devtools_at(&endpoint, &["--protocol", protocol, "call", "ping"]);
    at("2025-11-25").assert_code(0).assert_stdout_is("{}\n");
    at("2025-06-18").assert_code(2).assert_stderr_is(format!(
        "error: `{endpoint}` answered `initialize` in revision 2025-11-25, not the 2025-06-18 \
         `--protocol` asks for\n"
    ));
    // The revisions listed, none named as meant: the nearest spelling of a date is no
    // nearer a revision (`2020-01-01` was "did you mean `2024-11-05`?").
    for typo in ["2025-11-52", "2020-01-01"] {
        at(typo).assert_code(1).assert_stderr_is(format!(
            "error: invalid value `{typo}` for `--protocol <REVISION>`: no MCP revision mur \
             speaks (2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)\n"
        ));
    }
}

#[test]
fn a_redirect_is_an_error_naming_the_location_and_is_never_followed() {
    let sb = Sandbox::new();
    let elsewhere = Stub::answering(json!({ "followed": true }));
    let target = elsewhere.endpoint();
    let location = target.clone();
    let redirecting = Stub::serve(move |_| Reply::Respond {
        status: 307,
        headers: vec![("location".into(), location.clone())],
        body: Vec::new(),
    });
    let out = call_fails(
        &sb,
        &redirecting.endpoint(),
        &[],
        2,
        &format!(
            " answered HTTP 307 Temporary Redirect, a redirect to `{target}`; \
             mur never follows redirects\n"
        ),
    );
    assert_eq!(out.stdout, "");
    assert!(
        elsewhere.requests().is_empty(),
        "the JSON-RPC body went to the Location"
    );
}

#[test]
fn a_localhost_endpoint_is_reached() {
    let sb = Sandbox::new();
    let server = Stub::answering(json!({ "ok": true }));
    let endpoint = format!("http://localhost:{}/mcp", server.port());
    let out = sb.call_version_at(&endpoint, &[]);
    out.assert_code(0).assert_stdout_is("{\"ok\":true}\n");
}

#[test]
fn an_endless_json_body_ends_at_the_default_response_limit() {
    let sb = Sandbox::new();
    let endless = Stub::serve(|_| Reply::Endless {
        headers: vec![("content-type".into(), "application/json".into())],
        prefix: br#"{"jsonrpc":"2.0","id":1,"result":{"pad":""#.to_vec(),
        chunk: vec![b'x'; 64 * 1024],
    });
    let out = sb.call_version_at(&endless.endpoint(), &["--timeout", "30000"]);
    out.assert_code(2).assert_stdout_is("");
    assert_eq!(
        out.stderr,
        format!(
            "error: `{}` sent a response larger than 64 MiB, mur's response limit; \
             it was not read further\n\
             hint: if an answer this large is expected, raise the limit with \
             `--max-response BYTES` (e.g. `--max-response 256M`)\n",
            endless.endpoint()
        )
    );
}

/// A server that answers and then keeps its body open, sending more (white space after
/// a JSON answer, notifications after an event stream's): the answer is taken as it
/// comes and nothing after it is read, so the call ends at the answer, within a
/// response limit far below what the server would send (1 GiB). A JSON body was read
/// on to the limit, and the call failed there (exit 2) in place of the answer.
#[test]
fn what_a_server_sends_after_its_answer_is_not_read() {
    let sb = Sandbox::new();
    let answer = |request: &stub::Request| {
        json!({ "jsonrpc": "2.0", "id": request.json()["id"],
                "result": { "content": [{ "type": "text", "text": "in" }] } })
    };
    let notification = format!(
        "event: message\ndata: {}\n\n",
        json!({ "jsonrpc": "2.0", "method": "notifications/message",
                "params": { "level": "info", "data": "after the answer" } })
    );
    let json_then_blanks = Stub::serve(move |request| Reply::Endless {
        headers: vec![("content-type".into(), "application/json".into())],
        prefix: answer(request).to_string().into_bytes(),
        chunk: vec![b' '; 64 * 1024],
    });
    let events_then_more = Stub::serve(move |request| Reply::Endless {
        headers: vec![("content-type".into(), "text/event-stream".into())],
        prefix: format!("event: message\ndata: {}\n\n", answer(request)).into_bytes(),
        chunk: notification.repeat(64).into_bytes(),
    });
    for server in [json_then_blanks, events_then_more] {
        sb.call_version_at(&server.endpoint(), &["--max-response", "1M"])
            .assert_code(0)
            .assert_stdout_is("{\"content\":[{\"type\":\"text\",\"text\":\"in\"}]}\n")
            .assert_stderr_is("");
    }
}

/// What a server writes after its JSON answer, in the very write that carries the
/// answer, is not judged either: the answer ends at its closing bracket whatever
/// follows, with a `Content-Length` body or a chunked one. Junk there was exit 2
/// ("trailing characters") when it came in the answer's chunk, exit 0 when it came
/// in the next: which one hung on how the server's writes fell into chunks.
#[test]
fn what_a_server_sends_with_its_answer_after_it_is_not_judged() {
    let sb = Sandbox::new();
    let with_tail = |request: &stub::Request, tail: &str| {
        let answer = json!({ "jsonrpc": "2.0", "id": request.json()["id"],
                             "result": { "v": 1 } });
        format!("{answer}{tail}")
    };
    for tail in ["  x", "\n{}", "]"] {
        let sized = Stub::serve(move |request| Reply::Respond {
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            body: with_tail(request, tail).into_bytes(),
        });
        let chunked = Stub::serve(move |request| {
            let body = with_tail(request, tail);
            Reply::Raw(
                format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                     transfer-encoding: chunked\r\nconnection: close\r\n\r\n\
                     {:x}\r\n{body}\r\n0\r\n\r\n",
                    body.len()
                )
                .into_bytes(),
            )
        });
        for server in [sized, chunked] {
            sb.call_version_at(&server.endpoint(), &[])
                .assert_code(0)
                .assert_stdout_is("{\"v\":1}\n")
                .assert_stderr_is("");
        }
    }
}

#[test]
fn an_endless_event_stream_ends_at_the_limit_max_response_sets() {
    let sb = Sandbox::new();
    let event = format!(
        "event: message\ndata: {}\n\n",
        json!({ "jsonrpc": "2.0", "method": "notifications/progress",
                "params": { "progressToken": 1, "progress": 1 } })
    );
    let endless = Stub::serve(move |_| Reply::Endless {
        headers: vec![("content-type".into(), "text/event-stream".into())],
        prefix: Vec::new(),
        chunk: event.repeat(256).into_bytes(),
    });
    let out = sb.devtools_at(
        &endless.endpoint(),
        &[
            "--timeout",
            "8000",
            "call",
            "version",
            "--max-response",
            "1M",
        ],
    );
    out.assert_code(2);
    out.assert_stderr_starts_with(&format!(
        "error: `{}` sent a response larger than 1 MiB, mur's response limit",
        endless.endpoint()
    ));
}

/// A limit of one byte is said in the singular ("larger than 1 bytes" it was).
#[test]
fn a_limit_of_one_byte_is_said_so() {
    let sb = Sandbox::new();
    let server = Stub::answering(json!({ "content": [] }));
    let endpoint = server.endpoint();
    sb.devtools_at(&endpoint, &["--max-response", "1", "call", "version"])
        .assert_code(2)
        .assert_stderr_is(format!(
            "error: `{endpoint}` sent a response larger than 1 byte, mur's response limit; \
             it was not read further\n\
             hint: if an answer this large is expected, raise the limit with \
             `--max-response BYTES` (e.g. `--max-response 256M`)\n"
        ));
}

#[test]
fn max_response_raises_the_limit_and_a_declared_length_past_it_is_refused_unread() {
    let sb = Sandbox::new();
    let pad = "x".repeat(3 << 20);
    let server = Stub::serve(move |req| {
        let id = req.json()["id"].clone();
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": id, "result": { "pad": pad } }),
        )
    });
    let endpoint = server.endpoint();
    let out = sb.call_version_at(&endpoint, &["--max-response", "2M"]);
    out.assert_code(2);
    out.assert_stderr_contains("sent a response larger than 2 MiB");
    let out = sb.call_version_at(&endpoint, &["--max-response", "4M"]);
    out.assert_code(0);
    assert_eq!(out.json()["pad"].as_str().map(str::len), Some(3 << 20));
    // Under the default limit, without the flag.
    sb.call_version_at(&endpoint, &[]).assert_code(0);
    let out = sb.mur(&["devtools", "--max-response", "0", "call", "version"]);
    out.assert_code(1);
    out.assert_stderr_contains("--max-response");
}

/// A tool list's pages together are bounded as one response is: a server paging pages
/// each under `--max-response` made mur hold up to a hundred times it. Past the bound the
/// list is not read further (no fourth page asked for); within it, every page is read.
#[test]
fn a_tool_lists_pages_together_are_bounded_by_max_response() {
    let sb = Sandbox::new();
    let server = Stub::serve(|req| {
        let body = req.json();
        let result = match body["method"].as_str() {
            Some("tools/list") => {
                let page = body["params"]["cursor"]
                    .as_str()
                    .map_or(1, |c| c.parse::<u32>().expect("a cursor the stub gave"));
                let next = if page < 5 {
                    json!(page + 1)
                } else {
                    json!(null)
                };
                json!({ "tools": [{ "name": format!("tool-{page}"), "description": "x".repeat(300),
                    "inputSchema": { "type": "object" } }], "nextCursor": next.as_u64().map(|n| n.to_string()) })
            }
            _ => json!({}),
        };
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": body["id"], "result": result }),
        )
    });
    let endpoint = server.endpoint();
    let catalog =
        |limit: &str| sb.devtools_at(&endpoint, &["--max-response", limit, "catalog", "--json"]);
    let lists = || server.sent("tools/list").len();
    let out = catalog("1K");
    out.assert_code(2);
    out.assert_stderr_is(format!(
        "error: `{endpoint}` sent a tool list (`tools/list`, 3 pages) larger than 1 KiB, mur's \
         response limit; it was not read further\n\
         hint: if an answer this large is expected, raise the limit with `--max-response BYTES` \
         (e.g. `--max-response 256M`)\n"
    ));
    assert_eq!(
        lists(),
        3,
        "the list is not read past the page that passed the bound"
    );
    let out = catalog("4K");
    out.assert_code(0);
    let catalog = out.json();
    let verbs = catalog["verbs"].as_array().expect("verbs");
    let listed: Vec<&str> = verbs
        .iter()
        .filter_map(|verb| verb["tool"].as_str().filter(|t| t.starts_with("tool-")))
        .collect();
    assert_eq!(listed, ["tool-1", "tool-2", "tool-3", "tool-4", "tool-5"]);
}

/// A tool list the server got wrong is its fault, as any malformed answer (exit 2, naming
/// it): `tools` that is no array (the catalog listed no derived verb and said nothing, as
/// for a session without tools), or a `nextCursor` that never ends, read for 100 pages
/// (exit 5, as if a tool had failed).
#[test]
fn a_malformed_tool_list_is_the_servers_fault() {
    let sb = Sandbox::new();
    for (page, why) in [
        (
            json!({ "tools": "none" }),
            "answered `tools/list` with `tools` the string \"none\", not an array",
        ),
        (
            json!({ "tools": [], "nextCursor": "again" }),
            "was still paging its tool list (`tools/list`) after 100 pages, the most mur reads: \
             a `nextCursor` that never ends",
        ),
    ] {
        let server = Stub::serve(move |req| {
            let body = req.json();
            let result = match body["method"].as_str() {
                Some("tools/list") => page.clone(),
                _ => json!({}),
            };
            Reply::json(
                200,
                &json!({ "jsonrpc": "2.0", "id": body["id"], "result": result }),
            )
        });
        let endpoint = server.endpoint();
        sb.devtools_at(&endpoint, &["catalog", "--json"])
            .assert_code(2)
            .assert_stdout_is("")
            .assert_stderr_is(format!("error: `{endpoint}` {why}\n"));
    }
}

/// A question in the response stream: `{"message":…, "requestedSchema":…}`
/// asking for a boolean `confirm`.
fn question(id: serde_json::Value) -> serde_json::Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "elicitation/create",
            "params": { "message": "Clear all 2 todo(s)?", "requestedSchema": { "type": "object",
                "properties": { "confirm": { "type": "boolean" } }, "required": ["confirm"] } } })
}

/// A modern server that answers each request (its JSON body) with `reply`, and accepts
/// mur's answers to its own requests with 202.
fn asking_server(reply: impl Fn(&serde_json::Value) -> Reply + Send + Sync + 'static) -> Stub {
    Stub::serve(move |req| {
        let body = req.json();
        if body.get("method").is_none() {
            return Reply::empty(202);
        }
        reply(&body)
    })
}

#[test]
fn a_question_nobody_can_answer_ends_the_call_at_once_with_exit_5_naming_it() {
    let sb = Sandbox::new();
    let server = asking_server(|_| {
        open_sse(&[
            json!({ "jsonrpc": "2.0", "method": "notifications/progress", "params": { "progressToken": 1, "progress": 1 } }),
            question(json!("srv-1")),
        ])
    });
    // The stream stays open 30 s: a mur that waited on it would end at its 10 s
    // `--timeout` (exit 2), not with the question's exit 5 (no timing asserted).
    let out = sb.call_version_at(&server.endpoint(), &[]);
    let hint = out.unanswered_hint(&server.endpoint(), "Clear all 2 todo(s)?");
    assert_eq!(hint, "`--answer confirm=true` (or `false`)\n");
    assert_eq!(
        seen(&server),
        ["POST tools/call", "POST error for \"srv-1\""]
    );
    let refusal = &server.requests()[1];
    assert_eq!(refusal.header("mcp-protocol-version"), Some("2026-07-28"));
    let body = refusal.json();
    assert_eq!(body["jsonrpc"], "2.0");
    let message = mcp::error_message(&body, -32603);
    assert!(message.starts_with("mur has no answer: "), "{body}");
}

#[test]
fn a_question_in_the_stream_is_answered_from_answer_options_and_the_reply_read_on() {
    let sb = Sandbox::new();
    let server = asking_server(|body| {
        Reply::sse(&[
            question(json!(41)),
            json!({ "jsonrpc": "2.0", "id": body["id"], "result": { "cleared": 2 } }),
        ])
    });
    let out = sb.call_version_at(&server.endpoint(), &["--answer", "confirm=yes"]);
    out.assert_code(0).assert_stdout_is("{\"cleared\":2}\n");
    assert_eq!(seen(&server), ["POST tools/call", "POST"]);
    assert_eq!(
        server.requests()[1].json(),
        json!({ "jsonrpc": "2.0", "id": 41, "result": { "action": "accept", "content": { "confirm": true } } })
    );
    // An answer that does not fit its field is a usage error, told to the server too.
    let out = sb.call_version_at(&server.endpoint(), &["--answer", "confirm=perhaps"]);
    out.assert_code(1);
    out.assert_stderr_starts_with(
        "error: `--answer confirm=perhaps`: `perhaps` is not true or false (yes or no)\n",
    );
}

/// An `--answer` whose value does not fit its field (`count=3.5` for an integer) ends
/// the call (exit 1) after the tool has begun and asked: the question is refused to the
/// server before mur exits, so the tool is not left waiting, and the error says so in
/// one line naming the field, the value and the type wanted (review 508, finding 12).
#[test]
fn an_answer_of_the_wrong_type_refuses_the_question_and_says_the_tool_waits_on_nothing() {
    let sb = Sandbox::new();
    let server = asking_server(|_| {
        open_sse(&[
            json!({ "jsonrpc": "2.0", "id": "srv-1", "method": "elicitation/create",
            "params": { "message": "How many?", "requestedSchema": { "type": "object",
                "properties": { "count": { "type": "integer" } }, "required": ["count"] } } }),
        ])
    });
    // The stream stays open 30 s: mur ends at once, not at its `--timeout` (exit 2).
    sb.call_version_at(&server.endpoint(), &["--answer", "count=3.5"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(
            "error: `--answer count=3.5`: `3.5` is not an integer\n\
             hint: the server asks: How many?\n\
             hint: mur refused the question and ended the call: the tool does not wait on an \
             answer\n",
        );
    assert_eq!(
        seen(&server),
        ["POST tools/call", "POST error for \"srv-1\""]
    );
    let refusal = server.requests()[1].json();
    assert_eq!(
        mcp::error_message(&refusal, -32603),
        "mur has no answer: `--answer count=3.5`: `3.5` is not an integer"
    );
}

/// A server failing while it runs the tool (-32603: a handler that panicked, a bridged
/// server that exited mid-call) is exit 5, as a tool refusing its arguments is; the
/// hint, and the guide's row for 5, tell the two apart, as other arguments do not fix
/// it (review 508, finding 11).
#[test]
fn a_server_failing_mid_call_is_told_apart_from_a_tool_refusing_its_arguments() {
    let sb = Sandbox::new();
    let failing = |code: i64| {
        Stub::serve(move |request| {
            let error = json!({ "code": code, "message": "boom" });
            Reply::json(
                200,
                &json!({ "jsonrpc": "2.0", "id": request.json()["id"], "error": error }),
            )
        })
    };
    let server = failing(-32603);
    let out = sb.call_version_at(&server.endpoint(), &[]);
    out.assert_code(5).assert_stderr_is(
        "error: tool `version` failed: boom (JSON-RPC error -32603)\n\
         hint: JSON-RPC -32603 (internal error) is the server failing, not the tool refusing \
         its arguments: check the app's log and state, then retry once\n",
    );
    assert_eq!(out.json()["error"]["code"], -32603, "{out}");
    // Invalid arguments: the tool refused them, and no such hint.
    let server = failing(-32602);
    sb.call_version_at(&server.endpoint(), &[])
        .assert_code(5)
        .assert_stderr_is("error: tool `version` failed: boom (JSON-RPC error -32602)\n");
    // The guide's advice for exit 5 covers both.
    let guide = sb.mur(&["devtools", "guide"]);
    guide.assert_code(0);
    let row = guide
        .stdout
        .lines()
        .find(|line| line.starts_with("| 5 |"))
        .expect("the guide's row for exit 5");
    assert!(
        row.contains("for `-32603`") && row.contains("the arguments are not at fault"),
        "{row}"
    );
}

#[test]
fn sampling_asked_by_a_session_server_is_declined_in_the_session_and_the_reply_read_on() {
    let sb = Sandbox::new();
    let server = legacy_server(|req| {
        let id = req.json()["id"].clone();
        Reply::sse(&[
            json!({ "jsonrpc": "2.0", "id": 7, "method": "sampling/createMessage", "params": {} }),
            json!({ "jsonrpc": "2.0", "id": 8, "method": "roots/list" }),
            json!({ "jsonrpc": "2.0", "id": id, "result": { "sampled": false } }),
        ])
    });
    let out = sb.call_version_at(&server.endpoint(), &[]);
    out.assert_code(0).assert_stdout_is("{\"sampled\":false}\n");
    assert_eq!(
        seen(&server),
        through_a_session(&["POST error for 7", "POST error for 8", "DELETE"])
    );
    for req in &server.requests()[2..] {
        assert_eq!(req.header("mcp-session-id"), Some(SESSION), "{req:?}");
        assert_eq!(
            req.header("mcp-protocol-version"),
            Some("2025-11-25"),
            "{req:?}"
        );
    }
    let declined = server.requests()[5].json();
    let message = mcp::error_message(&declined, -32601);
    assert!(
        message.starts_with("mur does not offer `sampling/createMessage`"),
        "{declined}"
    );
}

#[test]
fn a_legacy_session_is_ended_when_the_call_times_out() {
    let sb = Sandbox::new();
    let server = legacy_server(|_| Reply::Silence);
    call_fails(
        &sb,
        &server.endpoint(),
        &["--timeout", "500"],
        2,
        " did not answer within 500 ms\n",
    );
    // The call given up is cancelled first (a_legacy_call_out_of_time_is_cancelled_…).
    assert_eq!(
        seen(&server),
        through_a_session(&["POST notifications/cancelled", "DELETE"])
    );
    let delete = server.requests().pop().expect("DELETE");
    assert_eq!(delete.header("mcp-session-id"), Some(SESSION));
}

#[test]
fn a_legacy_session_is_ended_when_the_call_fails() {
    let sb = Sandbox::new();
    // The call itself breaks off.
    let server = legacy_server(|_| Reply::HangUp);
    let out = sb.call_version_at(&server.endpoint(), &[]);
    out.assert_code(2);
    assert_eq!(
        seen(&server).last().map(String::as_str),
        Some("DELETE"),
        "{out}"
    );
    // `initialize` names a session, then its answer breaks off: the session is
    // still the server's to hold, so it is ended too.
    let server = Stub::serve(|req| {
        if req.method == "DELETE" {
            return Reply::empty(200);
        }
        if req.json()["method"] == "initialize" {
            return Reply::Raw(
                format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\
                     mcp-session-id: {SESSION}\r\ncontent-length: 500\r\nconnection: close\r\n\r\n\
                     : stream start\n\n"
                )
                .into_bytes(),
            );
        }
        Reply::json(
            400,
            &json!({ "jsonrpc": "2.0", "id": null, "error": { "code": -32000, "message": "no session" } }),
        )
    });
    let out = sb.call_version_at(&server.endpoint(), &[]);
    out.assert_code(2);
    assert_eq!(
        seen(&server),
        ["POST tools/call", "POST initialize", "DELETE"],
        "{out}"
    );
    out.assert_stderr_contains("closed the connection before the answer was complete");
    let delete = server.requests().pop().expect("DELETE");
    assert_eq!(delete.header("mcp-session-id"), Some(SESSION));
}

/// A media type is the same in any case and with any parameters (RFC 9110): an answer
/// in an event stream named `TEXT/Event-Stream; charset=utf-8` is read as one. A prefix
/// test took it for JSON and failed the call (exit 2, "no JSON mur can read").
#[test]
fn an_event_stream_is_one_whatever_the_case_of_its_content_type() {
    let sb = Sandbox::new();
    let server = Stub::serve(|request| Reply::Respond {
        status: 200,
        headers: vec![(
            "content-type".into(),
            "TEXT/Event-Stream; charset=utf-8".into(),
        )],
        body: format!(
            "event: message\ndata: {}\n\n",
            json!({ "jsonrpc": "2.0", "id": request.json()["id"], "result": { "v": 1 } })
        )
        .into_bytes(),
    });
    sb.call_version_at(&server.endpoint(), &[])
        .assert_code(0)
        .assert_stdout_is("{\"v\":1}\n")
        .assert_stderr_is("");
}

#[test]
fn a_connection_closed_mid_body_names_the_endpoint() {
    let sb = Sandbox::new();
    for content_type in ["application/json", "text/event-stream"] {
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ncontent-length: 1000\r\n\
             connection: close\r\n\r\n"
        );
        let cut = Stub::serve(move |_| {
            Reply::Raw(format!("{head}event: message\ndata: {{\"jsonrpc\":\"2.0\",").into_bytes())
        });
        let out = sb.call_version_at(&cut.endpoint(), &[]);
        out.assert_code(2);
        assert!(
            out.stderr.starts_with(&format!(
                "error: `{}` closed the connection before the answer was complete",
                cut.endpoint()
            )),
            "{content_type}: {out}"
        );
    }
    // A chunk whose size line is no number: the connection was open, the framing broken.
    let broken = Stub::serve(|_| {
        Reply::Raw(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: \
              chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
                .to_vec(),
        )
    });
    sb.call_version_at(&broken.endpoint(), &[])
        .assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` sent an answer whose HTTP framing is broken (Invalid chunk size line: \
             missing size digit)\n",
            broken.endpoint()
        ));
}

/// `call ping` prints `{}` when the session answers, whatever the server's result holds
/// beside it: its own fields were printed, and an `isError` was a tool's failure (exit 5).
#[test]
fn call_ping_prints_nothing_of_the_servers_result() {
    let sb = Sandbox::new();
    let server = Stub::serve(|request| {
        let result = json!({ "foo": "bar", "isError": true, "_meta": { "x": 1 } });
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": request.json()["id"], "result": result }),
        )
    });
    sb.devtools_at(&server.endpoint(), &["call", "ping"])
        .assert_code(0)
        .assert_stdout_is("{}\n")
        .assert_stderr_is("");
}

#[test]
fn call_ping_checks_the_session_and_method_sends_any_method_as_it_is() {
    let (sb, sample) = Sandbox::with_app();
    // mur-sample speaks 2026-07-28, which has no `ping`: `server/discover` answers.
    let out = sb.mur(&["devtools", "call", "ping"]);
    out.assert_quiet_success();
    assert_eq!(out.stdout, "{}\n");
    // A session-based server answers `ping` itself, in a session.
    let proxy = stub::legacy_proxy(sample.endpoint());
    let out = sb.devtools_at(&proxy.endpoint(), &["call", "ping"]);
    out.assert_code(0).assert_stdout_is("{}\n");
    assert!(
        proxy
            .requests()
            .iter()
            .any(|r| r.json()["method"] == "ping" && r.header("mcp-session-id").is_some()),
        "ping went in the session"
    );
    // `--method` sends the method as it is, and nothing else.
    let out = sb.mur(&["devtools", "call", "--method", "ping"]);
    out.assert_code(5);
    assert_eq!(out.json()["error"]["code"], -32601, "{out}");
    let out = sb.mur(&["devtools", "call", "--method", "tools/list"]);
    out.assert_code(0);
    assert!(out.json()["tools"].is_array(), "{out}");
    let out = sb.mur(&["devtools", "call", "--method", "server/discover"]);
    out.assert_code(0);
    assert!(out.json()["supportedVersions"].is_array(), "{out}");
    // A method its `Mcp-Method` header cannot carry as it is is refused, nothing sent:
    // wrapped in Base64 there, the server answered a header mismatch (review 609 #8).
    sb.mur(&["devtools", "call", "--method", "tools/l\u{ef}st"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(
            "error: `tools/l\u{ef}st` cannot be a method of protocol 2026-07-28: its \
             `Mcp-Method` header carries the method as it is, which takes plain ASCII with no \
             control character and no space at either end, as MCP's methods are \
             (`tools/list`); nothing was sent (`--protocol 2025-11-25` sends it in the body \
             alone)\n",
        );
    // A 2025-11-25 session takes it in the body alone: sent, the server's answer is exit 5.
    let out = sb.mur(&[
        "devtools",
        "--protocol",
        "2025-11-25",
        "--endpoint",
        &proxy.endpoint(),
        "call",
        "--method",
        "tools/l\u{ef}st",
    ]);
    out.assert_code(5);
    assert_eq!(out.json()["error"]["code"], -32601, "{out}");
    // One of NAME and --method.
    sb.mur(&["devtools", "call"]).assert_code(1);
    sb.mur(&["devtools", "call", "ping", "--method", "ping"])
        .assert_code(1);
    let help = sb.mur(&["devtools", "call", "--help"]);
    help.assert_code(0);
    let help = help.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains(
            "`call ping` asks whether the session answers: it sends `ping`, and when the server \
             has no such method (the 2026-07-28 revision dropped it) `server/discover` instead"
        ),
        "{help}"
    );
}

/// A sandbox with the standard `screenshot` verb added (alone) and `mur-sample` running.
fn with_the_screenshot_verb() -> (Sandbox, Session) {
    let sb = mur_e2e::plugins::sandbox_with(&[mur_e2e::plugins::standard("screenshot")]);
    let sample = sb.start_app();
    (sb, sample)
}

/// A screenshot that cannot be written once taken (a full device) is mur's own failure,
/// exit 7, saying the call ran; a file that may not be written, or a directory that is
/// not there, is known before the call, the user's to fix (exit 1), and nothing is sent.
#[test]
fn a_failed_screenshot_write_is_mur_s_own_failure_exit_7() {
    use std::os::unix::fs::PermissionsExt as _;
    let (sb, _sample) = with_the_screenshot_verb();
    let out = sb.mur(&["devtools", "screenshot", "--out", "/dev/full"]);
    out.assert_code(7).assert_stdout_is("");
    out.assert_stderr_starts_with(
        "error: could not write `/dev/full`: No space left on device (os error 28); the \
         `screenshot` call itself already ran\n",
    );

    let kept = sb.root().join("kept.png");
    std::fs::write(&kept, "old").expect("kept");
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let missing = sb.root().join("no-such-dir/shot.png");
    for (path, why) in [
        (&kept, "it is read-only".to_owned()),
        (
            &missing,
            format!(
                "the directory `{}` does not exist",
                sb.root().join("no-such-dir").display()
            ),
        ),
    ] {
        let path = path.to_str().expect("utf-8 path");
        let out = sb.mur(&["devtools", "screenshot", "--out", path]);
        out.assert_code(1).assert_stdout_is("");
        out.assert_stderr_starts_with(&format!(
            "error: cannot write `{path}`: {why} (nothing was sent)\n"
        ));
    }
    assert_eq!(std::fs::read(&kept).expect("kept"), b"old");
    assert!(!missing.exists());
}

/// A FIFO whose reader opened it and stopped reading does not hold mur for ever: the
/// write fails once it has taken nothing for `--timeout`, exit 7, for a verb's file and
/// `call --out` alike (a blocking write waited past every bound).
#[test]
fn a_fifo_whose_reader_stopped_fails_the_write_after_the_timeout() {
    let (sb, _sample) = with_the_screenshot_verb();
    let fifo = sb.root().join("shot.png");
    mur_e2e::mkfifo(&fifo);
    // A reader that holds the FIFO open (read and write: its open does not wait), fills
    // it until it takes no more, and reads nothing.
    let mut stalled = mur_e2e::process::Process::spawn(&mut sb.shell_command(
        "exec 3<>shot.png; dd if=/dev/zero bs=4096 count=4096 oflag=nonblock >&3 2>/dev/null \
         || true; touch full; exec sleep 600",
    ));
    mur_e2e::process::wait_until("the FIFO is full", || {
        sb.root().join("full").exists().then_some(())
    });
    let path = fifo.to_str().expect("utf-8 path");
    // One button's area, not the window: the call itself must end within the bound the
    // stalled write is held to, and a whole window took up to 2.5 s to render under load
    // (an element's 0.4 s; the bound cut the call, exit 2, 2 runs in 16).
    let verb = sb.mur(&[
        "devtools",
        "screenshot",
        "#btn-inc",
        "--out",
        path,
        "--timeout",
        "1500",
    ]);
    verb.assert_code(7).assert_stdout_is("");
    // The verb's own `--timeout`, with the grace mur gives a verb's bound; nothing of
    // the image fitted.
    verb.assert_stderr_starts_with(&format!(
        "error: could not write `{path}`: its reader took nothing for 2250 ms, after 0 of "
    ))
    .assert_stderr_contains(
        " bytes; the `screenshot` call itself already ran\n\
         hint: a pipe or a device takes only what its reader reads: check that one reads it\n",
    );
    let call = sb.mur(&[
        "devtools",
        "call",
        "screenshot",
        "--args",
        r##"{"selector":"#btn-inc"}"##,
        "--out",
        path,
        "--timeout",
        "1500",
    ]);
    call.assert_code(7)
        .assert_stderr_starts_with(&format!(
            "error: could not write `{path}`: its reader took nothing for 1500 ms, after 0 of "
        ))
        .assert_stderr_contains(" bytes; the call itself already ran\n");
    assert!(
        call.stdout.contains("\"mimeType\":\"image/png\""),
        "printed as it came: {call}"
    );
    stalled.kill();
}

#[test]
fn a_verb_that_asks_for_longer_than_the_host_timeout_gets_it() {
    // `wait --timeout 800` outlasts the host's `--timeout 300`: the call is
    // allowed the verb's bound (and a grace), so the server's own expiry
    // answers (exit 5), not the host giving up at 300 ms (exit 2).
    let (sb, _sample) = Sandbox::with_app();
    mur_e2e::plugins::install_standard(&sb);
    let out = sb.mur(&[
        "devtools",
        "--timeout",
        "300",
        "wait",
        "#never-there",
        "--timeout",
        "800",
    ]);
    out.assert_verb_failed("wait", "waitFor", "timed out after 800 ms");
}

#[test]
fn call_out_writes_a_tools_image_and_prints_where_it_went() {
    let (sb, _sample) = Sandbox::with_app();
    let shot = sb.root().join("shot.png");
    let path = shot.to_str().expect("utf-8 path");
    let out = sb.mur(&["devtools", "call", "screenshot", "--out", path]);
    out.assert_quiet_success();
    let bytes = std::fs::read(&shot).expect("the image was written");
    assert!(
        bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "a PNG: {:?}",
        &bytes[..8]
    );
    // Made as any new file of the user's is (the umask's), not private as mur's state.
    let reference = sb.root().join("reference");
    std::fs::write(&reference, "").expect("reference file");
    let mode = |p: &std::path::Path| {
        let permissions = std::fs::metadata(p).expect("metadata").permissions();
        std::os::unix::fs::PermissionsExt::mode(&permissions)
    };
    assert_eq!(mode(&shot), mode(&reference), "{:o}", mode(&shot));
    assert_eq!(
        out.json()["content"][0],
        json!({ "type": "image", "mimeType": "image/png", "path": path, "bytes": bytes.len() }),
        "the image block says where its data went"
    );

    // Its path is the value of `--out`, not a word of the call's own (the usage record).
    let log = std::fs::read_to_string(sb.usage_log()).expect("usage log");
    let record: serde_json::Value =
        serde_json::from_str(log.lines().last().expect("a record")).expect("json");
    assert_eq!(
        record["argv"],
        json!({ "options": ["--out"], "positionals": 1 })
    );

    // `-`: the image's bytes are stdout, and nothing else is.
    let raw = sb.mur(&["devtools", "call", "screenshot", "--out", "-"]);
    raw.assert_code(0);
    assert!(
        raw.stdout.starts_with("\u{FFFD}PNG\r\n") && !raw.stdout.contains("\"content\""),
        "{:?}",
        &raw.stdout[..20]
    );

    // A derived verb prints the structured content and names the way to the image.
    let derived = sb.mur(&["devtools", "screenshot"]);
    derived.assert_code(0);
    derived.assert_stderr_contains(
        "`mur devtools call screenshot --out FILE` prints the whole result and writes its media \
         to FILE, as `--out FILE` after `screenshot` does",
    );
}

#[test]
fn call_out_without_media_is_exit_5_and_with_a_method_exit_1() {
    let (sb, _sample) = Sandbox::with_app();
    let target = sb.root().join("state.png");
    let path = target.to_str().expect("utf-8 path");
    let none = sb.mur(&["devtools", "call", "state", "--out", path]);
    none.assert_code(5);
    assert!(
        none.json()["structuredContent"].is_object(),
        "the result as it came: {none}"
    );
    assert_eq!(
        none.stderr,
        format!(
            "error: tool `state` returned no image, audio or blob to write to `{path}`\n\
             hint: its result is printed as it came\n"
        )
    );
    let method = sb.mur(&["devtools", "call", "tools/list", "--out", path]);
    method.assert_code(1).assert_stdout_is("");
    assert_eq!(
        method.stderr,
        "error: `--out` writes a tool's images, audio and blobs: it goes with `call NAME` \
         (or `resources/read`), not another method\n"
    );
    assert!(!target.exists(), "nothing was written");
    // A directory that is not there is said before the call, which is not made.
    let nowhere = sb.root().join("no-such-dir/n.png");
    let nowhere = nowhere.to_str().expect("utf-8 path");
    let args = r##"{"selector": "#btn-inc"}"##;
    let before = sb.mur(&[
        "devtools", "call", "click", "--args", args, "--out", nowhere,
    ]);
    before.assert_code(1).assert_stdout_is("");
    before.assert_stderr_starts_with(&format!(
        "error: cannot write `{nowhere}`: the directory `{}` does not exist (nothing was sent)\n",
        sb.root().join("no-such-dir").display()
    ));
    assert_eq!(counter(&sb), "0", "no click was sent");
    // A directory is no file to write: said before the call too.
    let root = sb.root().to_str().expect("utf-8 path");
    let dir = sb.mur(&["devtools", "call", "click", "--args", args, "--out", root]);
    dir.assert_code(1).assert_stdout_is("");
    dir.assert_stderr_starts_with(&format!(
        "error: cannot write `{root}`: it is a directory, not a file to write"
    ));
    assert_eq!(counter(&sb), "0", "no click was sent");
}

#[test]
fn call_out_writes_a_resources_blob_and_not_into_a_terminal() {
    let sb = Sandbox::new();
    let _sample = sb.start_sample_with(&sb.project("app"), &["--conformance-fixtures"]);
    let png = sb.root().join("pixel.png");
    let path = png.to_str().expect("utf-8 path");
    let args = r#"{"uri": "test://static-binary"}"#;
    let out = sb.mur(&[
        "devtools",
        "call",
        "resources/read",
        "--args",
        args,
        "--out",
        path,
    ]);
    out.assert_quiet_success();
    let bytes = std::fs::read(&png).expect("the blob was written");
    assert!(bytes.starts_with(b"\x89PNG"), "{:?}", &bytes[..4]);
    assert_eq!(out.json()["contents"][0]["path"], path, "{out}");
    // Raw bytes are not written on a terminal (`script` gives mur one).
    let line = format!("mur devtools call resources/read --args '{args}' --out -");
    let typed = mur_e2e::process::run(&mut sb.on_a_terminal(&line));
    typed.assert_code(1).assert_stdout_starts_with(
        "error: `--out -` writes the bytes of an image or a sound to stdout, which is a terminal\r\n",
    );
}

/// A plugin verb's output path given `-` on a terminal is refused as `call --out -` is,
/// before the call: the standard `screenshot` wrote a PNG's bytes onto the terminal
/// (exit 0), where `call screenshot --out -` refused them.
#[test]
fn a_verbs_output_path_as_stdout_on_a_terminal_is_refused_before_the_call() {
    let (sb, _session) = mur_e2e::plugins::standard_session();
    for line in [
        "mur devtools screenshot --out -",
        "mur devtools screenshot --window about --out=-",
    ] {
        let typed = mur_e2e::process::run(&mut sb.on_a_terminal(line));
        typed.assert_code(1).assert_stdout_is(
            "error: `--out -` writes the bytes of an image or a sound to stdout, which is a terminal\r\n\
             hint: pipe it (`| display`, `> shot.png`) or write a file: `--out FILE`\r\n",
        );
    }
    // Not on a terminal, the bytes go where they are sent.
    let piped = mur_e2e::run(&mut sb.shell_command("mur devtools screenshot --out - | head -c 4"));
    piped.assert_code(0);
    // (The kit keeps output as text: `\x89` reads as U+FFFD.)
    assert!(piped.stdout.ends_with("PNG"), "{piped}");
}

/// A call that stays in flight until the session answers it or goes: a wait for an
/// element that never comes, bounded well past the test.
const WAIT_IN_FLIGHT: [&str; 4] = [
    "call",
    "waitFor",
    "--args",
    r##"{"selector": "#never", "timeoutMs": 20000}"##,
];

/// A call cut off because the session's process stopped (a debugger, SIGSTOP) or exited
/// (a reload, a crash) says so, naming the pid, beside the transport error (exit 2).
#[test]
fn a_call_cut_off_by_the_session_stopping_or_exiting_says_what_became_of_it() {
    let sb = Sandbox::new();
    let sample = sb.start_sample(&sb.project("app"));
    let pid = sample.pid();
    let (mur, stderr) = in_flight(
        &sb,
        "stopped",
        &[&["--timeout", "3000"][..], &WAIT_IN_FLIGHT].concat(),
    );
    sample.signal("STOP");
    let status = mur.wait_status();
    sample.signal("CONT");
    let said = std::fs::read_to_string(&stderr).expect("stderr");
    assert_eq!(status.code(), Some(2), "{said}");
    assert!(
        said.contains(&format!(
            "\nhint: the session's process (pid {pid}) is stopped (a debugger, SIGSTOP): \
             `kill -CONT {pid}` resumes it\n"
        )),
        "{said}"
    );

    // Killed during a verb's call: the call as typed, as an interrupt's line names it
    // (it was "`http://…/mcp`: request failed: connection closed before message
    // completed", the HTTP stack's words, no verb); the endpoint in the last hint.
    mur_e2e::plugins::install_standard(&sb);
    let (mur, stderr) = in_flight(&sb, "killed", &["wait", "#never", "--timeout", "20000"]);
    let endpoint = sample.endpoint().to_owned();
    sample.kill();
    let status = mur.wait_status();
    let said = unverbose(&std::fs::read_to_string(&stderr).expect("stderr"));
    assert_eq!(status.code(), Some(2), "{said}");
    assert_eq!(
        said,
        format!(
            "error: the session closed the connection during the call to `wait` (tool \
             `waitFor`), before answering\n\
             hint: the session's process (pid {pid}) is gone: it exited or restarted during \
             the call (a reload, a crash); `mur devtools session list` shows the sessions now\n\
             hint: the session was at `{endpoint}`\n"
        )
    );
}

/// `-v`'s stderr without its own lines (`DEBUG …`, `server log …`).
fn unverbose(said: &str) -> String {
    said.lines()
        .filter(|line| !line.starts_with("DEBUG ") && !line.starts_with("server log "))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// `mur -v devtools WORDS…` waiting for an element that never comes, once `-v` has
/// said it sent the call (the session is stopped, killed or reloaded after that); and
/// the file its stderr goes to.
fn in_flight(sb: &Sandbox, name: &str, words: &[&str]) -> (mur_e2e::Process, std::path::PathBuf) {
    let stderr = sb.root().join(format!("{name}.err"));
    let mut command = sb.mur_command(&[&["-v", "devtools"][..], words].concat());
    command.stderr(std::fs::File::create(&stderr).expect("stderr file"));
    let mut mur = mur_e2e::Process::spawn(&mut command);
    mur.wait_for_stderr(
        &stderr,
        "DEBUG POST",
        "sending its call",
        Duration::from_secs(30),
    );
    (mur, stderr)
}

/// What the sample's counter shows (`#count`'s text), read with `call state`.
fn counter(sb: &Sandbox) -> serde_json::Value {
    let out = sb.mur(&[
        "devtools",
        "call",
        "state",
        "--args",
        r##"{"selector": "#count"}"##,
    ]);
    out.assert_code(0);
    out.json()["structuredContent"]["text"].clone()
}

/// A server answering every call with `count` PNG images (each the 8 bytes of a PNG's
/// signature, [`PNG`]).
fn images(count: usize) -> Stub {
    let image = json!({ "type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo=" });
    Stub::answering(json!({ "content": vec![image; count] }))
}

/// What [`images`] encodes.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";

/// `mur devtools --endpoint ENDPOINT call shot --out PATH`.
fn call_out(sb: &Sandbox, server: &Stub, out: &std::path::Path) -> Output {
    let path = out.to_str().expect("utf-8 path");
    sb.devtools_at(&server.endpoint(), &["call", "shot", "--out", path])
}

/// `--out` naming a link writes the file it points to and keeps the link; a FIFO or a
/// device is written through, not replaced by a file (which left a FIFO's reader with
/// nothing, and the link a copy).
#[test]
fn call_out_writes_through_a_link_a_fifo_and_a_device_keeping_them() {
    use std::os::unix::fs::{FileTypeExt as _, symlink};
    let sb = Sandbox::new();
    let server = images(1);
    let kind = |p: &std::path::Path| std::fs::symlink_metadata(p).expect("there").file_type();

    let real = sb.root().join("real.png");
    std::fs::write(&real, "original").expect("real");
    let link = sb.root().join("link.png");
    symlink("real.png", &link).expect("link");
    call_out(&sb, &server, &link).assert_code(0);
    assert!(kind(&link).is_symlink(), "the link is kept");
    assert_eq!(
        std::fs::read(&real).expect("real"),
        PNG,
        "its target written"
    );

    let fifo = sb.root().join("pipe.png");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.expect("mkfifo").success());
    // No one reads it: refused at once, before the call (it ran, and the write after it
    // failed, exit 7), not waited on past every `--timeout`.
    let calls = server.requests().len();
    call_out(&sb, &server, &fifo)
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: cannot write `{}`: it is a FIFO no one is reading (nothing was sent)\n\
             hint: name a file that can be written, in a directory that exists\n",
            fifo.display()
        ));
    assert_eq!(server.requests().len(), calls, "no call was made");
    // Opened to read and write, it has a reader before mur runs (a reader's open
    // alone would wait for a writer).
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&fifo)
        .expect("open the FIFO");
    // Two media: the FIFO takes the first, and no `pipe-2.png` is made beside it.
    let two = call_out(&sb, &images(2), &fifo);
    two.assert_code(0).assert_stderr_is(format!(
        "note: 1 more media blocks not written: `{}` takes one; `--out FILE` writes each\n",
        fifo.display()
    ));
    assert!(
        !sb.root().join("pipe-2.png").exists(),
        "nothing beside the FIFO"
    );
    let (sent, read) = std::sync::mpsc::channel();
    // A thread, not a join: a FIFO replaced by a file would leave it waiting for ever.
    std::thread::spawn(move || {
        let mut got = [0; PNG.len()];
        let _ = sent.send(std::io::Read::read_exact(&mut reader, &mut got).map(|()| got));
    });
    let got = read
        .recv_timeout(Duration::from_secs(30))
        .expect("read in time");
    assert_eq!(
        got.ok().as_ref().map(|g| &g[..]),
        Some(PNG),
        "the FIFO's reader got the image"
    );
    assert!(kind(&fifo).is_fifo(), "the FIFO is kept");

    let null = sb.root().join("null.png");
    symlink("/dev/null", &null).expect("link");
    call_out(&sb, &server, &null).assert_code(0);
    assert!(kind(&null).is_symlink(), "the link to /dev/null is kept");
}

/// `--out` naming mur's own stdout (`/dev/stdout`) is `--out -`: the media alone, whole,
/// where the result printed after it overwrote the image's start (stdout a file) or
/// followed it (a pipe); a name no file can be written at — a link into a directory
/// that does not exist, a loop of links — is refused before the call, not after it.
#[test]
fn call_out_to_its_own_stdout_is_out_dash_and_an_unwritable_name_sends_nothing() {
    use std::os::unix::fs::symlink;
    let sb = Sandbox::new();
    let server = images(2);
    let endpoint = server.endpoint();
    let mut piped = sb.shell_command(&format!(
        "mur devtools --endpoint {endpoint} call shot --out /dev/stdout > got.png"
    ));
    let piped = mur_e2e::run(piped.current_dir(sb.root()));
    piped.assert_code(0);
    assert_eq!(std::fs::read(sb.root().join("got.png")).expect("got"), PNG);
    assert!(
        piped.stderr.contains("1 more media blocks not written"),
        "{piped}"
    );
    let calls = server.requests().len();

    symlink("nodir/x.png", sb.root().join("nowhere.png")).expect("link");
    symlink("loop2.png", sb.root().join("loop1.png")).expect("link");
    symlink("loop1.png", sb.root().join("loop2.png")).expect("link");
    for (name, why) in [
        (
            "nowhere.png",
            format!(
                "the directory `{}/nodir` does not exist",
                sb.root().display()
            ),
        ),
        (
            "loop1.png",
            "Too many levels of symbolic links (os error 40)".to_owned(),
        ),
        // Without a controlling terminal, as in an agent's or CI's run, it was let
        // through, and the write after the call failed "No such device or address".
        ("/dev/tty", dev_tty_refused().to_owned()),
    ] {
        let path = sb.root().join(name);
        call_out(&sb, &server, &path)
            .assert_code(1)
            .assert_stderr_is(format!(
                "error: cannot write `{}`: {why} (nothing was sent)\n\
                 hint: name a file that can be written, in a directory that exists\n",
                path.display()
            ));
    }
    assert_eq!(server.requests().len(), calls, "no call was made");
}

/// Why `--out /dev/tty` is refused: it is a terminal, or mur (as this test) has none.
fn dev_tty_refused() -> &'static str {
    match std::fs::OpenOptions::new().write(true).open("/dev/tty") {
        Ok(_) => "it is a terminal, which raw bytes would garble",
        Err(_) => "it is the controlling terminal, and there is none",
    }
}

/// A result with more media than `--out` writes (100) is printed as it came, exit 5,
/// and no file is written; a numbered file already there is replaced (see
/// [`call_out_replaces_a_numbered_name_it_made_up_never_writing_through_it`]), so that a
/// command can be run again.
#[test]
fn call_out_writes_no_more_than_100_media_and_replaces_numbered_files() {
    let sb = Sandbox::new();
    let dir = sb.dir("many");
    let flood = images(101);
    let out = call_out(&sb, &flood, &dir.join("m.png"));
    out.assert_code(5).assert_stderr_is(
        "error: tool `shot` returned 101 media blocks, more than the 100 `--out` writes; \
         nothing was written\nhint: its result is printed as it came\n",
    );
    let content = out.json()["content"].as_array().cloned().expect("content");
    assert_eq!(content.len(), 101, "{out}");
    assert!(content.iter().all(|b| b["data"].is_string()), "as it came");
    let written: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
    assert!(written.is_empty(), "nothing written: {written:?}");

    std::fs::write(dir.join("m-2.png"), "from the last run").expect("old");
    call_out(&sb, &images(2), &dir.join("m.png")).assert_code(0);
    assert_eq!(std::fs::read(dir.join("m-2.png")).expect("m-2"), PNG);
    assert!(!dir.join("m-3.png").exists(), "no next number");
}

/// The hint under a method the session does not serve names the catalog of the
/// session called, so that pasted among several sessions it reaches this one.
#[test]
fn a_method_not_found_hint_names_the_catalog_of_the_session_called() {
    let sb = Sandbox::new();
    let server = Stub::serve(|req| {
        let id = req.json()["id"].clone();
        let error = json!({ "code": -32601, "message": "Method not found" });
        Reply::json(200, &json!({ "jsonrpc": "2.0", "id": id, "error": error }))
    });
    let endpoint = server.endpoint();
    let out = sb.devtools_at(&endpoint, &["call", "no/such"]);
    out.assert_code(5);
    out.assert_stderr_contains(&format!(
        "`mur devtools --endpoint {endpoint} catalog` lists the tools"
    ));
}

/// A named verb's file is written whole or not at all: a write cut short (here by
/// the file size limit) leaves the file that was there as it was.
#[test]
fn a_screenshot_write_cut_short_leaves_the_old_file_whole() {
    let (sb, _sample) = with_the_screenshot_verb();
    // Once without the limit: the verb is compiled and cached, the image is big enough.
    sb.mur(&["devtools", "screenshot", "--out", "first.png"])
        .assert_code(0);
    let size = std::fs::metadata(sb.root().join("first.png"))
        .expect("first")
        .len();
    assert!(size > 1024, "the image outgrows the limit: {size} bytes");
    let shot = sb.root().join("shot.png");
    std::fs::write(&shot, "original").expect("old file");
    // `ulimit -f 1`: no file may grow past 1024 bytes; SIGXFSZ ignored, the write fails.
    let cut = mur_e2e::run(
        &mut sb.shell_command("trap '' XFSZ; ulimit -f 1; mur devtools screenshot --out shot.png"),
    );
    cut.assert_code(7);
    cut.assert_stderr_starts_with("error: could not write `shot.png`: File too large");
    assert_eq!(std::fs::read(&shot).expect("shot"), b"original");
    let left: Vec<_> = std::fs::read_dir(sb.root())
        .expect("root")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(left.is_empty(), "no temporary file left: {left:?}");
}

/// A session refuses a request body past its cap (4 MiB) with HTTP 413 and its own
/// words, a JSON-RPC "Invalid Request" under no id: said as a request too large, not as
/// an error "for no request of ours", and for every path through the client (the
/// proxy's too, which has no hint of a command's own).
#[test]
fn a_request_refused_as_too_large_is_said_so() {
    let sb = Sandbox::new();
    fn refused(_: &stub::Request) -> Reply {
        Reply::json(
            413,
            &json!({ "jsonrpc": "2.0", "id": null,
                     "error": { "code": -32600, "message": "Invalid Request" } }),
        )
    }
    let server = Stub::serve(refused);
    let endpoint = server.endpoint();
    let out = sb.devtools_at(&endpoint, &["call", "ping"]);
    // The caller's input, too large: exit 1, as mur itself refuses a value past 4 MiB
    // (RV3 3: exit 2, a transport fault a script retries unchanged), with its size.
    let sent = server.requests().last().expect("a request").body.len();
    out.assert_code(1).assert_stderr_is(format!(
        "error: `{endpoint}` refused the request of {sent} bytes as larger than it takes \
         (HTTP 413; a session of mur's takes at most 4 MiB, 4194304 bytes, in one)\n"
    ));
    // The same in a 2025-11-25 session (RV4 2: "answered HTTP 413 Payload Too Large and
    // no response to `ping`: {…}", exit 2), sized as the call sent in the session.
    let server = legacy_server(refused);
    let endpoint = server.endpoint();
    let out = sb.devtools_at(&endpoint, &["--protocol", "2025-11-25", "call", "ping"]);
    let requests = server.requests();
    let call = requests
        .iter()
        .find(|r| r.json()["method"] == "ping")
        .expect("the call in the session");
    out.assert_code(1).assert_stderr_is(format!(
        "error: `{endpoint}` refused the request of {} bytes as larger than it takes \
         (HTTP 413; a session of mur's takes at most 4 MiB, 4194304 bytes, in one)\n",
        call.body.len()
    ));
}

/// A call cut off by a `reload` another command asked for (the session's old process
/// runs on, holding the port for its successor, its lockfile withdrawn) says the
/// session reloaded and to run it again, naming both pids (R1 M2: it was the bare
/// transport error, no hint, where a `kill -9` got one).
#[test]
fn a_call_cut_off_by_a_reload_says_the_session_reloaded_and_to_run_it_again() {
    let sb = Sandbox::new();
    let sample = sb.start_sample(&sb.project("app"));
    let pid = sample.pid();
    let successors = mur_e2e::Successors::new(&sb, pid);
    // Once it is sent, the reload is asked for.
    let (mur, stderr) = in_flight(
        &sb,
        "reload",
        &[&["--timeout", "30000"][..], &WAIT_IN_FLIGHT].concat(),
    );
    sb.mur(&["devtools", "call", "reload"]).assert_code(0);
    let status = mur.wait_status();
    let successor = successors.wait();
    let said = std::fs::read_to_string(&stderr).expect("stderr");
    assert_eq!(status.code(), Some(2), "{said}");
    let endpoint = sample.endpoint();
    assert_eq!(
        unverbose(&said),
        format!(
            "error: the session closed the connection during the call to tool `waitFor`, \
             before answering\n\
             hint: the session reloaded during the call (pid {pid}, now pid {successor}), which \
             cut it off: run the command again\n\
             hint: the session was at `{endpoint}`\n"
        )
    );
}

/// `--args` misspelt (`--agrs`, `--arg`) before a JSON object is "did you mean
/// `--args`?" with the object as typed, and that command, pasted, makes the call (R1 M3:
/// the hint folded it into the arguments, `--args '{"agrs":"{…}"}'`, which the tool
/// refused, exit 5). An option of the tool's own name still reads as its argument.
#[test]
fn a_misspelt_args_is_pointed_at_args_with_its_object_as_typed() {
    let (sb, _app) = Sandbox::with_app();
    for typed in ["--agrs", "--arg"] {
        let out = sb.mur(&[
            "devtools",
            "call",
            "state",
            typed,
            r##"{"selector":"#count"}"##,
        ]);
        out.assert_code(1).assert_stdout_is("").assert_stderr_is(format!(
            "error: unexpected argument `{typed}`: `call` takes the arguments in `--args`, as JSON\n\
             hint: did you mean `--args`? mur devtools call state --args '{{\"selector\":\"#count\"}}'\n"
        ));
    }
    // The hint pasted makes the call (`counter` is that call).
    assert_eq!(counter(&sb), "0");
    let out = sb.mur(&["devtools", "call", "state", "--selector", "#count"]);
    out.assert_code(1).assert_stderr_is(concat!(
        "error: unexpected argument `--selector`: `call` takes the arguments in `--args`, as JSON\n",
        "hint: mur devtools call state --args '{\"selector\":\"#count\"}'\n",
    ));
}

/// A derived verb has no `--timeout` of its own: typed after its name it is mur's, and
/// a call out of it is told to lengthen it wherever it goes (R1 L2: "before the verb
/// name", though it had been typed and was the bound).
#[test]
fn a_derived_verbs_call_out_of_time_names_murs_bound_wherever_it_was_typed() {
    let sb = Sandbox::new();
    let slow = never_answering_a_call(json!([
        { "name": "exportAll", "inputSchema": { "type": "object" } }
    ]));
    let endpoint = slow.endpoint();
    for words in [
        &["export-all", "--timeout", "300"][..],
        &["--timeout", "300", "export-all"],
    ] {
        let out = sb.mur(&[&["devtools", "--endpoint", &endpoint][..], words].concat());
        out.assert_code(2).assert_stderr_is(format!(
            "error: `{endpoint}` did not answer within 300 ms\n\
             hint: the request was sent, so tool `exportAll` may have run: check the app's \
             state before running it again (the session does not mark it read-only or \
             idempotent)\n\
             hint: a slow tool may need a longer `--timeout MS` than 300 (mur's bound, before \
             or after a derived verb's name)\n"
        ));
    }
}

/// A server of the 2025-11-25 revision (Python, standard library only): the modern
/// request is refused (400, no session), `initialize` opens session `py-1`, the
/// session's own stream is 405, `tools/call` opens its event stream and never
/// answers (until the client goes away, a minute at most), other requests are
/// -32601 and notifications accepted (202). Every request it is sent goes to the file `argv[1]` as one
/// JSON line (`{"http": "POST", "message": …}`, `{"http": "DELETE"}`); its port goes
/// to stdout.
const LEGACY_PY: &str = r#"
import http.server, json, sys, time
record = open(sys.argv[1], "a")
def note(entry):
    record.write(json.dumps(entry) + "\n"); record.flush()
class Legacy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def reply(self, code, body=None, session=False):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if session:
            self.send_header("Mcp-Session-Id", "py-1")
        self.end_headers()
        self.wfile.write(data)
    def do_GET(self):
        self.reply(405)
    def do_DELETE(self):
        note({"http": "DELETE", "session": self.headers.get("Mcp-Session-Id")})
        self.reply(200)
    def do_POST(self):
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        note({"http": "POST", "session": self.headers.get("Mcp-Session-Id"), "message": message})
        method = message.get("method")
        if method == "initialize":
            self.reply(200, {"jsonrpc": "2.0", "id": message["id"], "result": {
                "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                "serverInfo": {"name": "legacy-py", "version": "1"}}}, session=True)
        elif self.headers.get("Mcp-Session-Id") != "py-1":
            self.reply(400, {"jsonrpc": "2.0", "id": None, "error": {
                "code": -32000, "message": "Bad Request: No valid session ID provided"}})
        elif method == "tools/call":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            try:
                for _ in range(600):
                    self.wfile.write(b": working\n\n"); self.wfile.flush()
                    time.sleep(0.1)
            except OSError:
                pass
            self.close_connection = True
        elif "id" in message:
            self.reply(200, {"jsonrpc": "2.0", "id": message["id"], "error": {
                "code": -32601, "message": "no such method"}})
        else:
            self.reply(202)
class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
server = Server(("127.0.0.1", 0), Legacy)
print(server.server_address[1], flush=True)
server.serve_forever()
"#;

/// [`LEGACY_PY`] running in `sb`: the process (killed on drop), its endpoint, and
/// the file it records every request in.
pub(crate) fn legacy_py(sb: &Sandbox) -> (mur_e2e::Process, String, std::path::PathBuf) {
    let script = sb.file("legacy.py", LEGACY_PY);
    let record = sb.root().join("legacy-requests.jsonl");
    let mut command = std::process::Command::new("python3");
    command
        .arg("-u")
        .arg(script)
        .arg(&record)
        .stdout(Stdio::piped());
    let mut server = mur_e2e::Process::spawn(&mut command);
    let stdout = server.child_mut().stdout.take().expect("stdout");
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line)
        .expect("the server's port");
    let port: u16 = line.trim().parse().expect("the server's port");
    (server, format!("http://127.0.0.1:{port}/mcp"), record)
}

/// What [`LEGACY_PY`] was sent, in order: `POST <JSON-RPC method>` (with the
/// request's id, or a notification's `requestId`, after it), `DELETE`.
pub(crate) fn legacy_py_seen(record: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(record).unwrap_or_default();
    text.lines()
        .map(|line| {
            let entry: serde_json::Value = serde_json::from_str(line).expect("a record");
            let message = &entry["message"];
            let id = message
                .get("id")
                .or_else(|| message["params"].get("requestId"))
                .map(|id| format!(" {id}"))
                .unwrap_or_default();
            format!(
                "{} {}{id}",
                entry["http"].as_str().unwrap_or(""),
                message["method"].as_str().unwrap_or("")
            )
            .trim()
            .to_owned()
        })
        .collect()
}

/// A call to a server of the 2025-11-25 revision that runs out of time is cancelled
/// there (`notifications/cancelled` naming the call's request, which that revision
/// asks of a client that gives up) before the session is ended: the server's tool
/// stops working for nobody. Before, the `DELETE` alone.
#[test]
fn a_legacy_call_out_of_time_is_cancelled_at_the_server_before_the_session_ends() {
    let sb = Sandbox::new();
    let (_server, endpoint, record) = legacy_py(&sb);
    let out = sb.devtools_at(&endpoint, &["--timeout", "1500", "call", "slow"]);
    out.assert_code(2).assert_stderr_is(format!(
        "error: `{endpoint}` did not answer within 1500 ms\n\
         hint: the request was sent, so tool `slow` may have run: check the app's state before \
         running it again (the session is not known to mark it read-only or idempotent)\n\
         hint: a slow tool may need a longer `--timeout MS` before `call`\n"
    ));
    assert_eq!(
        legacy_py_seen(&record),
        [
            "POST tools/call 1",
            "POST initialize 1",
            "POST notifications/initialized",
            "POST tools/call 2",
            "POST notifications/cancelled 2",
            "DELETE",
        ],
        "{out}"
    );
    let text = std::fs::read_to_string(&record).expect("record");
    let cancelled: serde_json::Value =
        serde_json::from_str(text.lines().nth(4).expect("the cancel")).expect("json");
    assert_eq!(cancelled["session"], "py-1");
    assert_eq!(
        cancelled["message"]["params"],
        json!({ "requestId": 2, "reason": "the client's timeout passed" })
    );
}

// Helper 414 (review 408 findings 6 and 11a), helper 422 (review 420 #2): names `--out`
// makes up, and an answer still arriving at the timeout.

/// The numbered names `--out` makes up (`shot-2.png`…) are replaced as directory
/// entries, never written through: a link planted there (`shot-2.png -> /etc/hostname`
/// had PNG bytes written into its target) becomes a regular file and its target is left
/// as it was; an earlier run's file is replaced, so running the command again leaves one
/// run's files (not `shot-3.png`, `shot-4.png`… piling up beside the first run's
/// `shot-2.png`). The printed result names each path. The name the user typed is still
/// written through its link, as `>` would; a directory at a numbered name fails the
/// write (exit 7), the result printed as it came.
#[test]
fn call_out_replaces_a_numbered_name_it_made_up_never_writing_through_it() {
    use std::os::unix::fs::symlink;
    let sb = Sandbox::new();
    let dir = sb.dir("shots");
    let at = |name: &str| dir.join(name);
    // The link's target is in this test's own directory.
    std::fs::write(at("target"), "kept").expect("target");
    symlink(at("target"), at("shot-2.png")).expect("link");
    let mine = at("mine.png");
    symlink("typed.png", &mine).expect("the typed name's link");
    let server = images(3);
    let shot = at("shot.png");
    let paths = |out: &Output| -> Vec<String> {
        let content = out.json()["content"].as_array().cloned().expect("content");
        content
            .iter()
            .map(|b| b["path"].as_str().expect("path").to_owned())
            .collect()
    };
    let names = |names: [&str; 3]| names.map(|n| at(n).display().to_string());
    let listed = || {
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let out = call_out(&sb, &server, &shot);
    out.assert_code(0).assert_stderr_is("");
    assert_eq!(paths(&out), names(["shot.png", "shot-2.png", "shot-3.png"]));
    assert_eq!(std::fs::read(at("target")).expect("target"), b"kept");
    assert!(
        std::fs::symlink_metadata(at("shot-2.png"))
            .expect("shot-2")
            .is_file(),
        "the link replaced by a file"
    );
    for name in ["shot.png", "shot-2.png", "shot-3.png"] {
        assert_eq!(std::fs::read(at(name)).expect(name), PNG, "{name}");
    }
    // Again: the earlier run's numbered files are replaced, none added.
    std::fs::write(at("shot-2.png"), "from the last run").expect("old");
    let again = call_out(&sb, &server, &shot);
    again.assert_code(0).assert_stderr_is("");
    assert_eq!(
        paths(&again),
        names(["shot.png", "shot-2.png", "shot-3.png"])
    );
    assert_eq!(std::fs::read(at("shot-2.png")).expect("shot-2"), PNG);
    assert_eq!(
        listed(),
        ["mine.png", "shot-2.png", "shot-3.png", "shot.png", "target"]
    );
    // The name the user typed: through its link, as `>` would.
    call_out(&sb, &images(1), &mine).assert_code(0);
    assert!(std::fs::symlink_metadata(&mine).expect("link").is_symlink());
    assert_eq!(std::fs::read(at("typed.png")).expect("typed"), PNG);
    // A directory at a numbered name: the write fails, after the call, as it says.
    std::fs::remove_file(at("shot-3.png")).expect("shot-3");
    std::fs::create_dir(at("shot-3.png")).expect("a directory");
    let failed = call_out(&sb, &server, &shot);
    failed.assert_code(7).assert_stderr_is(format!(
        "error: could not write `{}`: it is a directory, not a file to write; the call \
         itself already ran\nhint: its result is printed as it came (what was written \
         before is named in it)\n",
        at("shot-3.png").display()
    ));
    assert!(at("shot-3.png").is_dir());
}

/// An answer whose status and headers came, and whose body was still arriving when the
/// bound passed, "did not finish its answer" (it said "did not answer", of a server
/// that had sent 200 MiB of one); an event stream opened with no answer in it still
/// "did not answer".
#[test]
fn an_answer_still_arriving_at_the_timeout_did_not_finish() {
    let sb = Sandbox::new();
    let server = Stub::serve(|req| {
        let body = req.json();
        match body["method"].as_str() {
            Some("tools/call") => Reply::Open {
                status: 200,
                headers: vec![("content-type".into(), "application/json".into())],
                body: br#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"#
                    .to_vec(),
                hold: Duration::from_secs(60),
            },
            _ => Reply::json(
                200,
                &json!({ "jsonrpc": "2.0", "id": body["id"], "result": { "tools": [] } }),
            ),
        }
    });
    let endpoint = server.endpoint();
    sb.devtools_at(&endpoint, &["--timeout", "300", "call", "slow"])
        .assert_code(2)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{endpoint}` did not finish its answer within 300 ms\n\
             hint: the request was sent, so tool `slow` may have run: check the app's state \
             before running it again (the session is not known to mark it read-only or \
             idempotent)\n\
             hint: a slow tool may need a longer `--timeout MS` before `call`\n"
        ));
}

/// `--auto-range` over a port that takes a connection and never answers the probe (a
/// session stopped in a debugger) names that port under "no session", as discovery by
/// a lockfile says such a session "runs but did not answer the probe"; it said only
/// "no running devtools session found" (review 609 #9).
#[test]
fn auto_range_names_a_port_that_accepts_and_never_answers() {
    let sb = Sandbox::new();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    // Each connection accepted and held, never answered, until the test ends.
    std::thread::spawn(move || {
        let held: Vec<_> = listener.incoming().flatten().collect();
        drop(held);
    });
    let range = format!("{port}-{port}");
    let out = sb.mur(&["devtools", "--auto-range", &range, "call", "version"]);
    out.assert_code(4);
    out.assert_stderr_is(format!(
        "error: no running devtools session found\n\
         hint: `--auto` scanned 127.0.0.1 ports {range} for devtools sessions\n\
         hint: port {port} took a connection but did not answer the probe in its turn of the \
         1500 ms the probes have: a session stopped in a debugger or overloaded does that; \
         `--endpoint http://127.0.0.1:{port}/mcp` calls it once it answers\n"
    ));
}
