//! Derived verbs: every tool the session lists is a verb, made from its
//! `inputSchema`, with no plugin installed. Against `mur-sample`, every one of
//! its tools is called through its derived verb and its effect checked.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mur_e2e::plugins::{sandbox_with, standard, standard_session};
use mur_e2e::stub::Reply;
use mur_e2e::{Output, Process, Sandbox, Stub, Successors, each_str};
use serde_json::json;

#[track_caller]
fn ok(sandbox: &Sandbox, args: &[&str]) -> serde_json::Value {
    let out = sandbox.devtools(args);
    out.assert_code(0);
    out.json()
}

/// A tool of the sample and words of its derived verb that succeed.
type Call = (&'static str, &'static [&'static str]);

/// The sample's tools, in the order they are called, by the page each needs
/// shown first (if any).
const CALLS: &[(Option<&str>, &[Call])] = &[
    (
        None,
        &[
            ("version", &["version"]),
            ("windows", &["windows"]),
            ("components", &["components"]),
            ("tree", &["tree", "--selector", "#count", "--view", "full"]),
            ("state", &["state", "--selector", "#count"]),
            ("screenshot", &["screenshot", "--window", "main"]),
            ("click", &["click", "--selector", "#btn-inc"]),
            ("focus", &["focus", "--selector", "#btn-inc"]),
            ("invoke", &["invoke", "--selector", "#btn-inc"]),
            (
                "fire",
                &[
                    "fire",
                    "--target",
                    "counter.set",
                    "--args",
                    r#"{"value": 5}"#,
                ],
            ),
            ("overview", &["overview"]),
            (
                "switchComponent",
                &["switch-component", "--component", "settings"],
            ),
        ],
    ),
    (
        Some("settings"),
        &[
            ("toggle", &["toggle", "--selector", "#dark-mode"]),
            ("expand", &["expand", "--selector", "#advanced"]),
            ("collapse", &["collapse", "--selector", "#advanced"]),
            (
                "select",
                &["select", "--selector", "#theme", "--item", "#theme-forest"],
            ),
            (
                "scroll",
                &["scroll", "--selector", "#log", "--by", r#"{"dy": 10}"#],
            ),
        ],
    ),
    (
        Some("todo"),
        &[
            (
                "type",
                &["type", "--selector", "#todo-input", "--text", "milk"],
            ),
            (
                "waitFor",
                &[
                    "wait-for",
                    "--selector",
                    "#todo-input",
                    "--text",
                    "milk",
                    "--timeout-ms",
                    "2000",
                ],
            ),
        ],
    ),
    (
        None,
        &[
            ("exportTodos", &["export-todos", "--delay-ms", "0"]),
            ("clearTodos", &["clear-todos"]),
            ("reload", &["reload", "--component", "counter"]),
        ],
    ),
];

#[test]
fn every_tool_of_the_sample_is_reachable_as_a_derived_verb() {
    let (sandbox, app) = Sandbox::with_app();
    // `reload` (the last call) restarts the app: the successor is stopped at the end.
    let successors = Successors::new(&sandbox, app.pid());
    let listed = sandbox.devtools(&["call", "tools/list"]).json();
    let tools: BTreeSet<&str> = each_str(&listed["tools"], "name").into_iter().collect();
    let called: BTreeSet<&str> = CALLS
        .iter()
        .flat_map(|(_, calls)| calls.iter().map(|(tool, _)| *tool))
        .collect();
    assert_eq!(called, tools, "every tool the sample lists, and no other");
    for (page, calls) in CALLS {
        for (tool, words) in *calls {
            if let Some(page) = page {
                ok(&sandbox, &["switch-component", "--component", page]);
            }
            let out = sandbox.devtools(words);
            assert_eq!(out.code, 0, "{tool}: {words:?}\n{out}");
        }
    }
    successors.wait();
}

/// A derived verb whose tool fails is named as typed, with its tool, as a named
/// verb's is (c2b8a97): the agent typed `wait-for`, not `waitFor`.
#[test]
fn a_derived_verbs_failure_names_the_verb_typed_and_its_tool() {
    let (sandbox, _app) = Sandbox::with_app();
    let words = ["wait-for", "--selector", "#never", "--timeout-ms", "200"];
    sandbox.devtools(&words).assert_verb_failed(
        "wait-for",
        "waitFor",
        "timed out after 200 ms waiting for `#never`",
    );
    // A data verb's too (docs/examples/count.json, of tool `state`).
    sandbox
        .devtools(&["verbs", "add", count_json().to_str().expect("utf-8")])
        .assert_code(0);
    sandbox
        .devtools(&["count", "--selector", "#never"])
        .assert_verb_failed("count", "state", "#never");
}

#[test]
fn effects_show_as_the_tools_say() {
    let (sandbox, _app) = Sandbox::with_app();
    ok(&sandbox, &["click", "--selector", "#btn-inc"]);
    ok(&sandbox, &["click", "--selector=#btn-inc"]);
    let count = ok(&sandbox, &["state", "--selector", "#count"]);
    assert_eq!(count["text"], "2");
    let fired = ok(
        &sandbox,
        &[
            "fire",
            "--target",
            "counter.set",
            "--all-args",
            r#"{"target": "x.y", "args": {"value": 5}}"#,
        ],
    );
    assert_eq!(
        fired["fired"], "counter.set",
        "an option overrides the same field of the whole object (`--all-args`: fire has its own `--args`)"
    );
    assert_eq!(
        ok(&sandbox, &["state", "--selector", "#count"])["text"],
        "5"
    );
}

#[test]
fn content_beside_the_structured_content_printed_is_named_in_a_note() {
    let (sandbox, _app) = Sandbox::with_app();
    // The prose and the picture beside `overview`'s structured content.
    let out = sandbox.devtools(&["overview"]);
    out.assert_code(0);
    assert_eq!(out.json()["window"], "main", "{out}");
    assert_eq!(
        out.stderr,
        "note: the result has 2 more content blocks (text, image) than the structured content \
         printed; `mur devtools call overview --out FILE` prints the whole result and writes its \
         media to FILE, as `--out FILE` after `overview` does\n"
    );
    // A result whose text only repeats its structured content has nothing more.
    let state = sandbox.devtools(&["state", "--selector", "#count"]);
    state.assert_quiet_success();
    // No component ran: `-v` times none.
    let verbose = sandbox.devtools(&["-v", "state", "--selector", "#count"]);
    verbose.assert_code(0);
    assert!(!verbose.stderr.contains("verb timings"), "{verbose}");
}

#[test]
fn bad_argv_is_exit_1_naming_the_option_and_nothing_is_sent() {
    let (sandbox, _app) = Sandbox::with_app();
    for (words, message) in [
        (
            &["click"][..],
            "error: click: missing argument `<selector>`\n",
        ),
        (
            &["click", "#btn-inc", "#btn-dec"],
            "error: click: unexpected argument `#btn-dec`\n",
        ),
        (
            &["click", "--selector", "#btn-inc", "--bogus"],
            "error: click: unknown option `--bogus`\n",
        ),
        // A host option mistyped is named as a named verb names it (it was "unknown
        // option `--prety`" and the usage).
        (
            &["click", "--selector", "#btn-inc", "--prety"],
            "error: click: unknown option `--prety`; did you mean `--pretty`?\n",
        ),
        (
            &["switch-component", "settings"],
            "error: switch-component: unexpected argument `settings`; did you mean `--component settings`?\n",
        ),
        // An `enum` option is named only for one of its words.
        (
            &["switch-component", "nope"],
            "error: switch-component: unexpected argument `nope`\n",
        ),
        (
            &["switch-component", "--comp", "settings"],
            "error: switch-component: unknown option `--comp`; did you mean `--component`?\n",
        ),
        (
            &["switch-component", "--component", "nope"],
            "error: switch-component: `--component` must be `counter`, `todo` or `settings`, got `nope`\n",
        ),
        // A choice's typo, or its word in another case, names the choice meant.
        (
            &["switch-component", "--component", "setings"],
            "error: switch-component: `--component` must be `counter`, `todo` or `settings`, got `setings`; did you mean `settings`?\n",
        ),
        (
            &["switch-component", "--component", "TODO"],
            "error: switch-component: `--component` must be `counter`, `todo` or `settings`, got `TODO`; did you mean `todo`?\n",
        ),
        (
            &["export-todos", "--delay-ms", "soon"],
            "error: export-todos: `--delay-ms` needs an integer, got `soon`\n",
        ),
        // Past what JSON's integers hold: the schema's range still (it said JSON's, from
        // -9223372036854775808 to 18446744073709551615, beside the 0 to 2000 below).
        (
            &["export-todos", "--delay-ms", "99999999999999999999"],
            "error: export-todos: `--delay-ms` is out of range: an integer from 0 to 2000, got \
             `99999999999999999999`\n",
        ),
        // The schema's `minimum`/`maximum` (0 and 2000), in the same words.
        (
            &["export-todos", "--delay-ms", "-5"],
            "error: export-todos: `--delay-ms` is out of range: an integer from 0 to 2000, got `-5`\n",
        ),
        (
            &["export-todos", "--delay-ms", "5000"],
            "error: export-todos: `--delay-ms` is out of range: an integer from 0 to 2000, got `5000`\n",
        ),
        // A selector's `minLength: 1`.
        (
            &["click", "--selector", ""],
            "error: click: `--selector` must not be empty\n",
        ),
        // What `--args` gives is held to the schema alike, naming the property there.
        (
            &["click", "--args", r#"{"selector": ""}"#],
            "error: click: `selector` in `--args` must not be empty\n",
        ),
        (
            &["export-todos", "--args", r#"{"delayMs": 5000}"#],
            "error: export-todos: `delayMs` in `--args` is out of range: an integer from 0 to 2000, got `5000`\n",
        ),
        (
            &["switch-component", "--args", r#"{"component": "setings"}"#],
            "error: switch-component: `component` in `--args` must be `counter`, `todo` or `settings`, got `setings`; did you mean `settings`?\n",
        ),
    ] {
        let out = sandbox.devtools(words);
        out.assert_code(1);
        assert!(out.stderr.starts_with(message), "{words:?}\n{out}");
        // The usage follows, unless the message names the fix itself: then a hint
        // names `--help` (the usage would only cost an agent's context).
        if message.contains("did you mean") {
            out.assert_stderr_is(format!(
                "{message}hint: `mur devtools {} --help` shows its usage\n",
                words[0]
            ));
        } else {
            assert!(out.stderr.contains("\nUsage: mur devtools "), "{out}");
        }
        assert_eq!(out.stdout, "");
    }
    // The usage that follows is the verb's, as after an option's value refused.
    let typed = sandbox.devtools(&["export-todos", "--delay-ms", "5000"]);
    let given = sandbox.devtools(&["export-todos", "--args", r#"{"delayMs": 5000}"#]);
    given.assert_code(1).assert_stdout_is("");
    given.assert_stderr_is(
        typed
            .stderr
            .replacen("`--delay-ms` is", "`delayMs` in `--args` is", 1),
    );
    let count = ok(&sandbox, &["state", "--selector", "#count"]);
    assert_eq!(count["text"], "0", "no click was sent");
    // The one required text option as a word, as the named `click` takes it (it was
    // refused with "did you mean `--selector '#btn-inc'`?").
    ok(&sandbox, &["click", "#btn-inc"]);
    let count = ok(&sandbox, &["state", "#count"]);
    assert_eq!(count["text"], "1", "the click was sent");
}

/// The bounds a tool's schema sets (`exportTodos`'s `delayMs`: `minimum` 0, `maximum`
/// 2000) show in its derived verb's help and in the catalog, which names them as the
/// schema does.
#[test]
fn the_schemas_bounds_show_in_the_help_and_the_catalog() {
    let (sandbox, _app) = Sandbox::with_app();
    sandbox
        .devtools(&["export-todos", "--help"])
        .assert_code(0)
        .assert_stdout_contains(
            "\n  --delay-ms N  time each todo takes to export, in ms (0–2000, default 100)\n",
        );
    let catalog = sandbox.devtools(&["catalog", "--json"]);
    let options = catalog_verb(&catalog, "export-todos")["options"].clone();
    assert_eq!(
        (
            &options[0]["name"],
            &options[0]["minimum"],
            &options[0]["maximum"]
        ),
        (&json!("delay-ms"), &json!(0), &json!(2000)),
        "{options}"
    );
    assert_eq!(options[1]["name"], "args");
    assert_eq!(
        options[1].get("minimum"),
        None,
        "set only where the schema sets it"
    );
    let click = catalog_verb(&catalog, "click")["options"][0].clone();
    assert_eq!(
        (&click["name"], &click["minLength"], &click["help"]),
        (
            &json!("selector"),
            &json!(1),
            &json!("the element to act on (not empty, required)")
        ),
        "{click}"
    );
    // Within them the call is made.
    ok(&sandbox, &["export-todos", "--delay-ms", "0"]);
}

/// What the help of a derived or data verb with a text option says of `@FILE`.
/// How a question the tool asks is answered, in a derived or data verb's help.
const ANSWER: &str =
    "If the tool asks a question, `--answer KEY=VALUE` answers it (exit 5 names KEY).\n";

/// What `--out FILE` does, in a derived verb's help: said as what happens if the result
/// holds media (no tool list says whether it will).
const OUT: &str = "If the result holds images, audio or blobs, `--out FILE` writes them to files\n\
     (`shot.png`, then `shot-2.png`…) and adds each file's `path` and `bytes` to what\n\
     is printed (for several files, to the whole result, as `call --out` does).\n";

const FILE_VALUES: &str = "A TEXT or JSON option's value `@FILE` is that file's contents, as they are\n\
     (`@-`: stdin's); a value that begins with `@` is written `@@…`. What is read\n\
     comes to 4 MiB at most in all, what a session takes in one request.\n";

#[test]
fn help_shows_the_tool_its_hints_and_every_option() {
    let (sandbox, _app) = Sandbox::with_app();
    // The help, and a usage error's list (the help but its prose), wrapped alike.
    let usage = "Usage: mur devtools reload [<component>] [--args JSON]\n\n";
    let list = "Arguments:\n  \
         [<component>]  the same as `--component TEXT`\n\n\
         Options:\n  \
         --component TEXT  component being reloaded (informational: the whole app\n                    \
         restarts)\n  \
         --args JSON       the whole arguments object, as JSON (`@FILE`, `-`: read from\n                    \
         FILE, stdin; 4 MiB at most, what a session takes in one\n                    \
         request); options given beside it override its fields\n  \
         -h, --help        print this help\n";
    // What every derived verb's help ends with (but `--out`'s, where its tool has an `out`).
    let notes = format!(
        "{ANSWER}\n{OUT}\nHost options go after the verb's name too; `mur devtools --help` lists them.\n"
    );
    let out = sandbox.devtools(&["reload", "--help"]);
    out.assert_code(0).assert_stdout_is(format!(
        "{usage}Restart the app: answers first, then the app starts again (the same port, a new\n\
         lockfile; a new pid, unless it runs in the foreground of a terminal)\n\
         \n\
         All state is lost.\n\
         \n\
         Tool `reload`: destructive.\n\
         \n\
         {list}\
         \n\
         {FILE_VALUES}\
         \n\
         {notes}",
    ));
    // A tool that asks its user a question: how to answer it, and `--out` said as what
    // it does if the result holds media (it said "Needs a client that can ask its user",
    // the tool's words, and not how; and `--out` as if the result had media).
    let clear = sandbox.devtools(&["clear-todos", "--help"]);
    clear.assert_code(0).assert_stdout_is(format!(
        "Usage: mur devtools clear-todos [--args JSON]\n\
         \n\
         Remove every todo, after the user confirms (the client is asked:\n\
         `elicitation/create`, or an input-required result on 2026-07-28)\n\
         \n\
         Needs a client that can ask its user.\n\
         \n\
         Tool `clearTodos`: destructive, idempotent.\n\
         \n\
         Options:\n  \
         --args JSON  the whole arguments object, as JSON (`@FILE`, `-`: read from\n               \
         FILE, stdin; 4 MiB at most, what a session takes in one request);\n               \
         options given beside it override its fields\n  \
         -h, --help   print this help\n\
         \n\
         {notes}",
    ));
    let bad = sandbox.devtools(&["reload", "--bogus"]);
    bad.assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: reload: unknown option `--bogus`\n\n{usage}{list}\n"
        ));
}

#[test]
fn the_tool_list_is_read_once_per_session_and_again_with_refresh() {
    let (sandbox, _app) = Sandbox::with_app();
    // Cold, warm, then refreshed: only the warm call reads the cache.
    for (args, cached) in [
        (&["-v", "version"][..], false),
        (&["-v", "version"], true),
        (&["-v", "--refresh", "version"], false),
    ] {
        let out = sandbox.devtools(args);
        out.assert_code(0);
        assert_eq!(
            out.stderr.contains("tool list from the cache"),
            cached,
            "{args:?}: {out}"
        );
    }
}

/// A server restarted on new code behind the same endpoint keeps its identity (an
/// `--endpoint` session has none; a bridge keeps its own across its child's restarts), so
/// its cached tool list is of the code before. What shows the list reads it fresh: the
/// catalog lists the tools as they are now and a derived verb's `--help` is of a tool the
/// server has, without `--refresh`; and `call tools/list` keeps the list it printed, which
/// a derived verb's call then parses against. Before, `--help` printed a tool the server
/// no longer had, the catalog listed it, and the call read the list again.
#[test]
fn a_server_restarted_behind_its_endpoint_with_other_tools_is_shown_as_it_is_now() {
    let sandbox = Sandbox::new();
    // The conformance fixtures' tools, the list cached by a derived verb's call; on a
    // port the first session took itself (a port found free could be taken before it).
    let (before, port) =
        sandbox.start_sample_on_a_free_port(&sandbox.project("a"), &["--conformance-fixtures"]);
    let endpoint = format!("http://127.0.0.1:{port}/mcp");
    let devtools = |args: &[&str]| sandbox.devtools(&[&["--endpoint", &endpoint], args].concat());
    let fixture = |out: &Output| out.stdout.contains("test_simple_text");
    devtools(&["test-simple-text"]).assert_code(0);
    before.kill();
    let port = port.to_string();
    let again = |project: &str, extra: &[&str]| {
        let args = [&["--port", port.as_str()][..], extra].concat();
        sandbox.start_sample_with(&sandbox.project(project), &args)
    };
    let after = again("b", &[]);
    devtools(&["test-simple-text", "--help"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: unknown verb `test-simple-text`\n\
             hint: `mur devtools --endpoint {endpoint} catalog` lists every verb: the installed \
             ones, mur's own, and one per tool of the session\n"
        ));
    // The catalog's tools are the server's now, every one and no other.
    let catalog = devtools(&["catalog", "--json"]);
    catalog.assert_code(0);
    let catalog = catalog.json();
    let derived = (catalog["verbs"].as_array().expect("verbs").iter())
        .filter(|verb| verb["kind"] == "derived")
        .map(|verb| &verb["tool"]);
    let call_only = catalog["callOnly"].as_array().into_iter().flatten();
    let shown: BTreeSet<&str> = derived
        .chain(call_only)
        .filter_map(|t| t.as_str())
        .collect();
    let listed = devtools(&["call", "tools/list"]);
    listed.assert_code(0);
    assert!(
        !fixture(&listed),
        "the tools of the server before: {listed}"
    );
    let listed = listed.json();
    let now: BTreeSet<&str> = (listed["tools"].as_array().expect("tools").iter())
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert_eq!(shown, now);
    after.kill();
    // Back with the fixtures: the list `call tools/list` printed is the one the call reads.
    let _again = again("c", &["--conformance-fixtures"]);
    let listed = devtools(&["call", "tools/list"]);
    listed.assert_code(0);
    assert!(fixture(&listed), "{listed}");
    devtools(&["-v", "test-simple-text"])
        .assert_code(0)
        .assert_stderr_contains("tool list from the cache");
}

#[test]
fn a_named_verb_shadows_the_derived_one() {
    let sandbox = sandbox_with(&[standard("click")]);
    let _app = sandbox.start_app();
    // Both take the selector either way; the plugin is what runs (a component, timed
    // with `-v`), never the derived verb.
    ok(&sandbox, &["click", "#btn-inc"]);
    ok(&sandbox, &["click", "--selector", "#btn-inc"]);
    let named = sandbox.devtools(&["-v", "click", "#btn-inc"]);
    named.assert_code(0).assert_stderr_contains("verb timings");
}

/// A word near no installed verb may be a tool of the app that is not running: that
/// is no session (exit 4, "start the app"), as for a named verb or `call`. Before, it
/// was exit 1 "unknown verb", and a script (or an agent) took the app's own tool,
/// `get-sum`, for one that does not exist.
#[test]
fn a_name_without_a_session_is_no_session_unless_it_is_a_typo() {
    let sandbox = Sandbox::new();
    let out = sandbox.mur(&["devtools", "get-sum", "--a", "1"]);
    out.assert_code(4);
    // Recorded as a word not known to be a verb, not as a derived verb that failed.
    let log = std::fs::read_to_string(sandbox.usage_log()).expect("usage log");
    let record: serde_json::Value =
        serde_json::from_str(log.lines().last().unwrap_or_default()).expect("a record");
    assert_eq!(
        (
            record["verb"].as_str(),
            record["kind"].as_str(),
            record["outcome"].as_str()
        ),
        (Some("get-sum"), Some("unknown"), Some("session-error")),
        "{record}"
    );
    assert!(
        out.stderr.starts_with(
            "error: no running devtools session found\n\
             hint: `get-sum` is not an installed verb; a tool's verb is looked up in the session once one runs\n\
             hint: start the app with its devtools session enabled"
        ),
        "{out}"
    );
}

#[test]
fn a_mistyped_verb_is_answered_with_the_word_it_is_nearest() {
    // Without a session: the installed verbs and the host's commands.
    let sandbox = sandbox_with(&[standard("click")]);
    let clik = sandbox.devtools(&["clik", "#btn-inc"]);
    clik.assert_code(1).assert_stderr_is(
        "error: unknown verb `clik`\n\
         hint: did you mean `click`?\n\
         hint: `mur devtools verbs list` shows the installed verbs\n\
         hint: no devtools session is running to look for a tool of that name\n",
    );
    sandbox
        .devtools(&["sesion", "list"])
        .assert_code(1)
        .assert_stderr_contains("\nhint: did you mean `session`?\n");
    // With one: its tools too, by their verb names; nothing sent.
    let _app = sandbox.start_app();
    let typo = sandbox.devtools(&["clear-todo"]);
    typo.assert_code(1).assert_stderr_is(
        "error: unknown verb `clear-todo`\n\
         hint: did you mean `clear-todos`?\n",
    );
    // A word the typo is near is said alone: the catalog line (~105 B) followed it, which
    // would only list it among the rest (user audit AU8 15). With none near, the catalog.
    // A guess that is no slip keeps the catalog after it (user audit AU9 4): `clear`
    // was likely `type --clear`, and `clear-todos` empties the list.
    sandbox
        .devtools(&["clear", "#todo-input"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(
            "error: unknown verb `clear`\n\
             hint: did you mean `clear-todos`?\n\
             hint: `mur devtools catalog` lists every verb: the installed ones, mur's own, and one per tool of the session\n",
        );
    let far = sandbox.devtools(&["frobnicate"]);
    far.assert_code(1).assert_stderr_is(
        "error: unknown verb `frobnicate`\n\
         hint: `mur devtools catalog` lists every verb: the installed ones, mur's own, and one per tool of the session\n",
    );
    sandbox
        .devtools(&["tools"])
        .assert_code(1)
        .assert_stderr_is(
            "error: unknown verb `tools`\n\
         hint: an MCP method is made with `call`: `mur devtools call tools/list`\n",
        );
}

#[test]
fn the_catalog_lists_host_plugin_and_derived_verbs_with_hints() {
    let sandbox = sandbox_with(&[standard("click")]);
    let offline = sandbox.devtools(&["catalog", "--json"]);
    offline.assert_code(0);
    // What is missing is said: the list is not all there is.
    assert_eq!(
        offline.stderr,
        "warning: derived verbs are not listed: no running devtools session found\n"
    );
    let offline = offline.json();
    assert_eq!(offline["schema"], "mur-catalog/1");
    assert_eq!(offline["session"], serde_json::Value::Null);
    let kinds = |catalog: &serde_json::Value| -> BTreeSet<String> {
        catalog["verbs"]
            .as_array()
            .expect("verbs")
            .iter()
            .map(|v| v["kind"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    assert_eq!(
        kinds(&offline),
        BTreeSet::from(["host".to_owned(), "plugin".to_owned()])
    );

    let _app = sandbox.start_app();
    let online = ok(&sandbox, &["catalog", "--json"]);
    assert!(
        online["session"]
            .as_str()
            .is_some_and(|s| s.starts_with("http://127.0.0.1:"))
    );
    let verb = |name: &str| {
        online["verbs"]
            .as_array()
            .expect("verbs")
            .iter()
            .find(|v| v["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no `{name}` in {online}"))
    };
    let click = verb("click");
    assert_eq!(
        (click["kind"].as_str(), click["tool"].as_str()),
        (Some("plugin"), Some("click"))
    );
    assert_eq!(click["annotations"]["readOnly"], false, "{click}");
    // Each param once, with the ways it is given (review 508, 12: `click`'s `<selector>`
    // and its `--selector S` were two params named `selector`); the lone word of a
    // derived verb's option is positional, as its usage line shows it.
    let params = |verb: &serde_json::Value| -> Vec<(String, bool, bool, bool)> {
        verb["options"]
            .as_array()
            .expect("options")
            .iter()
            .map(|o| {
                let flag = |key: &str| o[key].as_bool().expect("a bool");
                let name = o["name"].as_str().expect("a name").to_owned();
                (name, flag("positional"), flag("option"), flag("required"))
            })
            .collect()
    };
    let named = |name: &str| name.to_owned();
    assert_eq!(
        params(&click),
        [
            (named("selector"), true, true, true),
            (named("timeout"), false, true, false),
            (named("args"), false, true, false)
        ],
        "{click}"
    );
    assert_eq!(click["options"][0]["help"], "the element to click");
    let wait_for = verb("wait-for");
    assert_eq!(wait_for["kind"], "derived");
    assert_eq!(wait_for["annotations"]["readOnly"], true);
    assert_eq!(
        params(&wait_for)[..1],
        [(named("selector"), true, true, true)],
        "{wait_for}"
    );
    // A selector, as the named verbs' `--selector S` is, not text.
    let selector = &wait_for["options"][0];
    assert_eq!(
        (
            selector["name"].as_str(),
            selector["required"].as_bool(),
            selector["type"].as_str()
        ),
        (Some("selector"), Some(true), Some("selector"))
    );
    assert_eq!(verb("reload")["annotations"]["destructive"], true);
    // Every usage is a command line as typed, the host's too.
    let usages = ["click", "call", "session"].map(|name| verb(name)["usage"].clone());
    assert_eq!(
        usages,
        [
            "mur devtools click <selector>",
            "mur devtools call [OPTIONS] [NAME]",
            "mur devtools session [OPTIONS] <COMMAND>",
        ]
    );
    assert_eq!(
        online["verbs"]
            .as_array()
            .expect("verbs")
            .iter()
            .filter(|v| v["name"] == "click")
            .count(),
        1,
        "the plugin shadows the derived `click`"
    );
    assert!(
        online["exitCodes"]["5"]
            .as_str()
            .is_some_and(|m| m.starts_with("the tool failed"))
    );
    let table = sandbox.devtools(&["catalog"]);
    table.assert_code(0).assert_stdout_starts_with("NAME ");
    assert!(
        table.stdout.lines().any(|l| l.starts_with("wait-for ")
            && l.contains("derived")
            && l.contains("read-only")),
        "{table}"
    );
}

#[test]
fn parity_names_the_tools_without_a_named_verb() {
    let (sandbox, _app) = standard_session();
    let out = sandbox.devtools(&["parity", "--json"]);
    out.assert_code(1).assert_stderr_is(
        "note: 3 of 22 tools have no named verb: exportTodos, clearTodos, overview\n\
         hint: each is still reachable as a derived verb; `mur devtools verbs new` makes a named one\n",
    );
    let rows = out.json();
    let row = |tool: &str| {
        rows.as_array()
            .expect("rows")
            .iter()
            .find(|r| r["tool"] == tool)
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(
        row("waitFor"),
        serde_json::json!({"tool": "waitFor", "verb": "wait", "verbs": ["wait"], "kind": "named"})
    );
    assert_eq!(
        row("exportTodos"),
        serde_json::json!({"tool": "exportTodos", "verb": "export-todos", "verbs": ["export-todos"], "kind": "derived"})
    );
    // A tool two installed verbs reach lists both, each a word of its own (`verb` says
    // them as the table does).
    let count = mur_e2e::plugins::repo_root().join("docs/examples/count.json");
    sandbox
        .devtools(&["verbs", "add", count.to_str().expect("utf-8")])
        .assert_code(0);
    let rows = sandbox.devtools(&["parity", "--json"]).json();
    let state = rows
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["tool"] == "state")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        state,
        serde_json::json!({"tool": "state", "verb": "count, state", "verbs": ["count", "state"], "kind": "named"})
    );
}

/// The options and examples of `docs/examples/count.json`'s help, as `mur` prints them.
const COUNT_HELP: &str = "Arguments:\n  \
         [<selector>]  the same as `--selector S`\n\n\
         Options:\n  \
         --selector S  read another element's text (default: #count)\n  \
         --args JSON   the whole arguments object, as JSON (`@FILE`, `-`: read from\n                \
         FILE, stdin; 4 MiB at most, what a session takes in one\n                \
         request); options given beside it override its fields\n  \
         -h, --help    print this help\n\
         \n\
         Examples:\n  \
         mur devtools count\n  \
         mur devtools count --selector '#todo-input'\n";

/// The hint that the shell may have read an unquoted `#…` selector as a comment is
/// given where argv ends at the missing selector (`count --selector`, from `count
/// --selector #x`), not where words follow the option that wanted it: the shell drops
/// the `#` word and all after it, so nothing was dropped there (audit 271).
#[test]
fn a_selector_the_shell_may_have_dropped_is_hinted_only_where_argv_ends() {
    let sandbox = Sandbox::new();
    sandbox
        .devtools(&["verbs", "add", count_json().to_str().expect("utf-8")])
        .assert_code(0);
    let usage = format!("Usage: mur devtools count [<selector>] [--args JSON]\n\n{COUNT_HELP}");
    sandbox
        .devtools(&["count", "--selector"])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: count: `--selector <S>` needs a value\n\n{usage}\n\
             hint: quote a selector that starts with `#` ('#btn-inc'): unquoted, the shell \
             reads it and the rest of the line as a comment\n"
        ));
    sandbox
        .devtools(&["count", "--selector", "--args", "{}"])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: count: `--selector <S>` needs a value, and `--args` is an option (a value \
             that begins with `--` is written `--selector=VALUE`)\n\n{usage}\n"
        ));
}

/// A derived verb takes its one selector as a lone word (`wait-for '#x'`); typed unquoted
/// (`wait-for #x`), the shell reads `#x` as a comment, and the verb was refused as missing
/// `--selector` with no word of quoting: the hint a kit's verb gives for its positional
/// is given here too.
#[test]
fn a_lone_selector_the_shell_read_as_a_comment_is_hinted() {
    let sb = Sandbox::new();
    let schema = json!({ "type": "object", "required": ["selector"],
        "properties": { "selector": { "type": "string" }, "text": { "type": "string" } } });
    let tools = json!([{ "name": "waitFor", "description": "Waits", "inputSchema": schema }]);
    let server = Stub::echoing_params(tools);
    let line = format!("mur devtools --endpoint {} wait-for #x", server.endpoint());
    let out = mur_e2e::run(&mut sb.shell_command(&line));
    out.assert_code(1);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(
        (lines.first(), lines.last()),
        (
            Some(&"error: wait-for: missing argument `<selector>`"),
            Some(
                &"hint: quote a selector that starts with `#` ('#btn-inc'): unquoted, the shell \
                  reads it and the rest of the line as a comment"
            )
        ),
        "{out}"
    );
}

/// docs/examples/count.json, the data verb the docs show.
fn count_json() -> std::path::PathBuf {
    mur_e2e::plugins::repo_root().join("docs/examples/count.json")
}

/// A data verb whose `output` is not in its tool's result fails after the call as a
/// named verb whose `shape` fails does: exit 6, saying the call ran, and the result as
/// it is on stdout. It printed nothing and offered a `call` that runs the tool again.
#[test]
fn a_data_verb_whose_output_is_missing_prints_the_result_the_call_returned() {
    let sandbox = Sandbox::new();
    let peek = sandbox.root().join("peek.json");
    let data = json!({ "schema": "mur-verb/1", "name": "peek", "tool": "state",
        "summary": "Peeks", "arguments": { "selector": "#count" }, "output": "/nowhere" });
    std::fs::write(&peek, data.to_string()).expect("write the data verb");
    sandbox
        .devtools(&["verbs", "add", peek.to_str().expect("utf-8")])
        .assert_code(0);
    let _app = sandbox.start_app();
    let whole = sandbox.devtools(&["call", "state", "--args", r##"{"selector":"#count"}"##]);
    whole.assert_code(0);
    sandbox
        .devtools(&["peek"])
        .assert_code(6)
        .assert_stdout_is(&whole.stdout)
        .assert_stderr_is(
            "error: verb `peek`: the `state` result has nothing at `/nowhere`\n\
             hint: the `state` call itself already ran; its result is printed as it is\n",
        );
}

#[test]
fn a_data_verb_is_added_and_runs_like_any_verb() {
    let sandbox = Sandbox::new();
    let added = sandbox.devtools(&["verbs", "add", count_json().to_str().expect("utf-8")]);
    assert_eq!(
        (added.code, added.stdout.as_str()),
        (0, "added verb `count` (tool `state`)\n")
    );
    let _app = sandbox.start_app();
    assert_eq!(sandbox.devtools(&["count"]).stdout, "\"0\"\n");
    ok(&sandbox, &["click", "--selector", "#btn-inc"]);
    assert_eq!(sandbox.devtools(&["count"]).stdout, "\"1\"\n");
    let other = sandbox.devtools(&["count", "--selector", "#btn-inc"]);
    assert_eq!(
        other.stdout, "\"+\"\n",
        "an option overrides the fixed argument"
    );
    // `mur devtools --help` lists it by its kind.
    let listing = sandbox.devtools(&["--help"]);
    assert!(
        listing
            .stdout
            .contains("Installed verbs (`mur devtools <verb> --help` for each):\n  count  Print the counter's value [data]\n"),
        "{listing}"
    );
    // The help, and a usage error's list (the help but its prose), wrapped alike.
    let usage = "Usage: mur devtools count [<selector>] [--args JSON]\n\n";
    // `verbs add --help` shows this verb by that usage (reviewer RV1 F7c: it left out
    // `[--args JSON]`).
    let shown = usage.trim_end().trim_start_matches("Usage: ");
    let add_help = sandbox.devtools(&["verbs", "add", "--help"]).stdout;
    assert!(
        add_help.contains(&format!("counter, `{shown}`:\n")),
        "{add_help}"
    );
    let list = COUNT_HELP;
    // Its tool's hints, learned from the tool list `click` read, as a component verb's
    // help says them (it said only ``Tool `state`.``).
    let help = sandbox.devtools(&["count", "--help"]);
    assert_eq!(
        help.stdout,
        format!(
            "{usage}Print the counter's value\n\
             \n\
             Tool `state`: read-only, idempotent.\n\
             \n\
             {list}\
             \n\
             Host options go after the verb's name too; `mur devtools --help` lists them.\n"
        )
    );
    let bad = sandbox.devtools(&["count", "--bogus"]);
    bad.assert_code(1).assert_stderr_is(format!(
        "error: count: unknown option `--bogus`; a field no option gives is sent in `--args \
         '{{\"FIELD\": …}}'`, under the tool's own name for it\n\n{usage}{list}\n"
    ));
    let info = sandbox.devtools(&["verbs", "info", "count"]).stdout;
    assert!(info.contains("interface: data (mur-verb/1)\n"), "{info}");
    // Under its facts, `verbs info` shows the help `--help` prints, whole (audit 271: it
    // said neither what `@FILE` is nor where the host options go).
    assert_eq!(
        info.split_once("\n\n").map(|(_, shown)| shown),
        Some(help.stdout.as_str()),
        "{info}"
    );
    let catalog = ok(&sandbox, &["catalog", "--json"]);
    let count = catalog["verbs"]
        .as_array()
        .expect("verbs")
        .iter()
        .find(|v| v["name"] == "count")
        .cloned();
    assert_eq!(
        count.map(|c| c["kind"].clone()),
        Some(serde_json::json!("data"))
    );
    let all = sandbox.devtools(&["verbs", "list", "--all"]);
    all.assert_code(0);
    assert!(all.stdout_line("count ").contains(" data "), "{all}");
    assert!(all.stdout_line("wait-for ").contains(" derived "), "{all}");
}

#[test]
fn a_bad_data_verb_is_refused_saying_what_is_wrong() {
    let sandbox = Sandbox::new();
    let file = sandbox.file(
        "bad.json",
        r#"{"schema": "mur-verb/1", "name": "bad", "tool": "state", "summary": "s", "run": "sh"}"#,
    );
    let out = sandbox.devtools(&["verbs", "add", file.to_str().expect("utf-8")]);
    out.assert_code(1).assert_stderr_is(format!(
            "error: `{}` is not a data verb: unknown field `run`, expected one of `schema`, `name`, `tool`, `summary`, `details`, `arguments`, `options`, `output`, `examples` at line 1 column 78\n\
             hint: a data verb is a JSON object of schema `mur-verb/1`: `schema`, `name`, `tool` and `summary`, and optionally `details`, `arguments`, `options`, `output` and `examples`\n",
            file.display()
        ));
    assert!(sandbox.devtools(&["verbs", "list", "--json"]).json() == serde_json::json!([]));
}

#[test]
fn the_conformance_fixtures_json_schema_2020_12_tool_is_a_derived_verb() {
    let sandbox = Sandbox::new();
    let _app = sandbox.start_sample_with(&sandbox.project("app"), &["--conformance-fixtures"]);
    let help = sandbox.devtools(&["json-schema-2020-12-tool", "--help"]);
    help.assert_code(0);
    assert!(
        help.stdout.starts_with(
            "Usage: mur devtools json-schema-2020-12-tool [--name TEXT] [--address JSON] \
             [--contact-method phone|email] [--phone TEXT] [--email TEXT] [--args JSON]\n"
        ),
        "{help}"
    );
    let out = sandbox.devtools(&[
        "json-schema-2020-12-tool",
        "--name",
        "Ada",
        "--contact-method",
        "email",
        "--email",
        "ada@example.org",
        "--address",
        r#"{"street": "1 Loop", "city": "Localhost"}"#,
    ]);
    out.assert_code(0);
    let bad = sandbox.devtools(&["json-schema-2020-12-tool", "--contact-method", "fax"]);
    bad.assert_code(1).assert_stderr_starts_with("error: json-schema-2020-12-tool: `--contact-method` must be `phone` or `email`, got `fax`\n");
}

#[test]
fn a_named_verbs_help_says_what_a_session_said_of_its_tool() {
    let sandbox = sandbox_with(&[standard("reload"), standard("state")]);
    let before = sandbox.devtools(&["reload", "--help"]).stdout;
    assert!(!before.contains("destructive"), "{before}");
    let _app = sandbox.start_app();
    // Any read of the tool list (here the catalog) teaches the index the hints.
    ok(&sandbox, &["catalog", "--json"]);
    for (verb, hints) in [
        ("reload", "destructive"),
        ("state", "read-only, idempotent"),
    ] {
        let help = sandbox.devtools(&[verb, "--help"]).stdout;
        let said = format!("\nTool `{verb}`: {hints}.\n");
        assert!(help.contains(&said), "{verb}: {help}");
    }
}

#[test]
fn derived_verbs_and_their_options_complete_while_a_session_runs() {
    let sandbox = Sandbox::new();
    let complete = |words: &[&str]| sandbox.complete("fish", words);
    assert_eq!(
        complete(&["devtools", "wait-"]).stdout,
        "",
        "no session, no derived verbs"
    );
    let _app = sandbox.start_app();
    let verbs = complete(&["devtools", "wait-"]);
    assert!(verbs.stdout.starts_with("wait-for\t"), "{verbs}");
    let options = complete(&["devtools", "switch-component", "--component", ""]);
    assert_eq!(options.stdout, "counter\ntodo\nsettings\n", "{options}");
    // A named verb of the same tool hides the derived one, as in `catalog`.
    mur_e2e::plugins::install_standard(&sandbox);
    let verbs = complete(&["devtools", "wait"]);
    assert!(verbs.stdout.starts_with("wait\t"), "{verbs}");
    assert!(!verbs.stdout.contains("wait-for"), "{verbs}");
}

/// A <Tab> reads of the cached list each tool's name and summary, and builds no schema
/// (every entry built, a list of 50,000 tools cost a <Tab> 1.9 s and 218 MB, a debug
/// build): shown by a schema holding a number no JSON value holds (`1e999`), which a
/// <Tab> building the list refused, dropping the cached list, and offered nothing while
/// the server was slow to list it again. The verb the line names is built, its options
/// completed, from the same list.
#[test]
fn completion_reads_names_and_summaries_of_the_cached_list_not_its_schemas() {
    let sandbox = Sandbox::new();
    let tools = Arc::new(Mutex::new(json!([
        { "name": "echo_text", "description": "Echoes. Back", "inputSchema": { "type": "object",
            "properties": { "mode": { "enum": ["loud", "soft"] } } } },
        { "name": "huge", "inputSchema": { "type": "object", "maximum": 0 } },
    ])));
    let silent = Arc::new(AtomicBool::new(false));
    let server = slow_to_list(tools, silent.clone());
    let endpoint = server.endpoint();
    sandbox
        .devtools_at(&endpoint, &["catalog", "--json"])
        .assert_code(0);
    silent.store(true, Ordering::SeqCst);
    let dir = sandbox.root().join("cache/mur/tools");
    let [list] = mur_e2e::names_in(&dir).try_into().expect("one cached list");
    let path = dir.join(list);
    let cached = std::fs::read_to_string(&path).expect("the cached list");
    let unbuilt = cached.replace(r#""maximum":0"#, r#""maximum":1e999"#);
    assert_ne!(cached, unbuilt);
    std::fs::write(&path, unbuilt).expect("the cached list");
    let complete = |words: &[&str]| completions(&sandbox, &endpoint, words);
    assert_eq!(complete(&["echo-"]), "echo-text\tEchoes\n");
    assert_eq!(complete(&["echo-text", "--mode", ""]), "loud\nsoft\n");
    assert_eq!(complete(&["call", "hu"]), "huge\n");
}

/// With several sessions, completion asks the one the command line chooses already
/// (`--project`, `--endpoint`), as the verb's run will: before, it asked discovery with
/// no options, which found several sessions and offered no derived verb at all.
#[test]
fn completion_offers_the_derived_verbs_of_the_session_the_line_chooses() {
    let (sandbox, [a, _b]) = Sandbox::with_apps(["a", "b"]);
    let complete = |words: &[&str]| sandbox.complete("fish", words).stdout;
    assert_eq!(
        complete(&["devtools", "wait-"]),
        "",
        "which session is not said"
    );
    for chosen in [
        &["--project", a.lock.project.as_str()][..],
        &["--endpoint", a.endpoint()],
        &[&format!("--project={}", a.lock.project)],
    ] {
        let verbs = complete(&[&["devtools"], chosen, &["wait-"]].concat());
        assert!(verbs.starts_with("wait-for\t"), "{chosen:?}: {verbs}");
        let options = complete(
            &[
                &["devtools"],
                chosen,
                &["switch-component", "--component", ""],
            ]
            .concat(),
        );
        assert_eq!(options, "counter\ntodo\nsettings\n", "{chosen:?}");
    }
    // After the verb's name too, where the verb's run takes it.
    let after = complete(&[
        "devtools",
        "switch-component",
        "--project",
        &a.lock.project,
        "--component",
        "",
    ]);
    assert_eq!(after, "counter\ntodo\nsettings\n");
}

/// A derived verb's usage error names its `--help` with the options that chose the
/// session, and pasted, the hint shows the verb's usage (review 508, 7: it named plain
/// `mur devtools switch-component --help`, which among several sessions reached none,
/// and after `--endpoint URL` asked another session than that one).
#[test]
fn a_derived_verbs_help_hint_keeps_the_options_that_chose_the_session() {
    let (sandbox, [a, _b]) = Sandbox::with_apps(["a", "b"]);
    let project = a.lock.project.as_str();
    let help = sandbox.devtools(&["--project", project, "switch-component", "--help"]);
    help.assert_code(0);
    for chosen in [["--project", project], ["--endpoint", a.endpoint()]] {
        let typed = [&chosen[..], &["switch-component", "--componet", "todo"]].concat();
        let pasted = [&["devtools"], &chosen[..], &["switch-component", "--help"]].concat();
        sandbox
            .devtools(&typed)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: switch-component: unknown option `--componet`; did you mean \
                 `--component`?\n\
                 hint: `mur {}` shows its usage\n",
                pasted.join(" ")
            ));
        sandbox
            .mur(&pasted)
            .assert_code(0)
            .assert_stdout_is(&help.stdout);
    }
}

/// Completion and the hints that name a session's tool read its cached list: a server
/// slow to list (a bridged npx server, a stdio server busy with a long call) is asked
/// nothing at a Tab, and what it offers is there at once. Before, each read the list
/// fresh within its short wait, and a server that did not answer in time lost
/// completion and the hint entirely (every Tab a request to the app). `--refresh` on
/// the line reads it afresh.
#[test]
fn completion_and_hints_read_the_cached_list_of_a_server_slow_to_list() {
    let sandbox = Sandbox::new();
    let schema = json!({ "type": "object" });
    let tools = Arc::new(Mutex::new(json!([
        { "name": "session", "inputSchema": schema },
        { "name": "echo_text", "inputSchema": schema },
    ])));
    let silent = Arc::new(AtomicBool::new(false));
    let server = slow_to_list(tools.clone(), silent.clone());
    let endpoint = server.endpoint();
    let complete = |words: &[&str]| completions(&sandbox, &endpoint, words);
    let lists = || server.sent("tools/list").len();
    sandbox
        .devtools_at(&endpoint, &["catalog", "--json"])
        .assert_code(0);
    // From now on `tools/list` is never answered.
    silent.store(true, Ordering::SeqCst);
    let asked = lists();
    assert_eq!(complete(&["echo-"]), "echo-text\techo_text\n");
    let devtools = format!("mur devtools --endpoint {endpoint}");
    sandbox
        .devtools_at(&endpoint, &["session", "--x", "4"])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: unknown option `--x`\n\
             hint: `session` is mur's command; the session's tool `session` is reached with \
             `{devtools} call session --args '{{…}}'`\n\
             hint: usage: mur devtools session [OPTIONS] <COMMAND> (`--help` shows more)\n"
        ));
    assert_eq!(lists(), asked, "completion and the hint asked for the list");
    // Answering again with another list: the cache until `--refresh` reads it.
    *tools.lock().expect("tool list") = json!([{ "name": "echo_other", "inputSchema": schema }]);
    silent.store(false, Ordering::SeqCst);
    assert_eq!(complete(&["echo-"]), "echo-text\techo_text\n");
    assert_eq!(
        complete(&["--refresh", "echo-"]),
        "echo-other\techo_other\n"
    );
}

/// A server with `tools` (as [`Stub::with_tool_list`]) that leaves `tools/list`
/// unanswered while `silent` is set.
fn slow_to_list(tools: Arc<Mutex<serde_json::Value>>, silent: Arc<AtomicBool>) -> Stub {
    Stub::serve(move |req| {
        let body = req.json();
        let result = match body["method"].as_str() {
            _ if req.method != "POST" => return Reply::empty(405),
            Some("tools/list") if silent.load(Ordering::SeqCst) => {
                return Reply::Silence;
            }
            Some("tools/list") => json!({ "tools": *tools.lock().expect("tool list") }),
            _ => json!({}),
        };
        let answer = json!({ "jsonrpc": "2.0", "id": body["id"], "result": result });
        Reply::json(200, &answer)
    })
}

/// Without a session the catalog is what is installed (exit 0, said on stderr); a
/// session named that cannot be reached is an error, as for any command.
#[test]
fn a_catalog_of_a_named_session_that_cannot_be_reached_is_an_error() {
    let sandbox = Sandbox::new();
    let none = sandbox.devtools(&["catalog", "--json"]);
    none.assert_code(0);
    assert_eq!(none.json()["session"], serde_json::Value::Null);
    none.assert_stderr_starts_with(
        "warning: derived verbs are not listed: no running devtools session found",
    );
    let dead = mur_e2e::Stub::hang_up();
    let endpoint = dead.endpoint();
    let named = sandbox.devtools_at(&endpoint, &["catalog", "--json"]);
    named.assert_code(2).assert_stdout_is("");
    let project = sandbox.project("gone");
    let project = project.to_str().expect("utf-8");
    let absent = sandbox.devtools(&["--project", project, "catalog"]);
    absent.assert_code(4).assert_stdout_is("");
}

/// With several live sessions and none named, the catalog is as with none: what needs
/// no session (exit 0, `"session": null`), and stderr says why the derived verbs are not
/// listed, the sessions, and the command again with `--project` of one. Before, it was
/// exit 1 with nothing listed, not even mur's own commands.
#[test]
fn a_catalog_with_several_sessions_lists_what_needs_none_and_says_how_to_choose() {
    let (sandbox, [a, b]) = Sandbox::with_apps(["a", "b"]);
    let none = Sandbox::new().devtools(&["catalog", "--json"]).json();
    for words in [&["catalog", "--json"][..], &["verbs", "list", "--all"]] {
        let out = sandbox.devtools(words);
        out.assert_code(0);
        let choose = mur_e2e::several_sessions_error(&[&a, &b], &words.join(" "));
        let choose = choose.split_once('\n').expect("the error's line").1;
        out.assert_stderr_is(format!(
            "warning: derived verbs are not listed: they are the tools of one session, and 2 \
             sessions run\n{choose}"
        ));
    }
    let catalog = sandbox.devtools(&["catalog", "--json"]).json();
    assert_eq!(catalog, none);
    let chosen = sandbox.devtools(&["--project", &a.lock.project, "catalog", "--json"]);
    chosen.assert_quiet_success();
    assert_eq!(chosen.json()["session"], a.endpoint(), "{chosen}");
}

#[test]
fn a_catalog_over_a_broken_verb_index_is_mur_failing_not_an_empty_list() {
    let sandbox = Sandbox::new();
    let dir = mur_e2e::plugins::verb_dir(&sandbox);
    std::fs::create_dir_all(&dir).expect("verb dir");
    std::fs::write(dir.join("index.json"), "not json").expect("scribble");
    let out = sandbox.devtools(&["catalog", "--json"]);
    out.assert_code(7)
        .assert_stderr_starts_with("error: the verb index `");
    assert_eq!(out.stdout, "");
}

/// A server restarted on new code behind the same endpoint: words the cached schema
/// refuses are read again against the server's list as it is now, once.
#[test]
fn a_tool_changed_behind_a_cached_list_is_read_afresh_when_its_words_are_refused() {
    let sb = Sandbox::new();
    let (server, _) = ids_changed_behind_the_cache(&sb, json!({ "values": { "type": "string" } }));
    let devtools = devtools_at(&sb, &server);
    let changed = devtools(&["ids", "--values", "1", "--sep", "x"]);
    changed.assert_code(0);
    assert_eq!(
        changed.json(),
        json!({ "values": "1", "sep": "x" }),
        "{changed}"
    );
    // A mistake is still one, said once, against the list as it is.
    let typo = devtools(&["ids", "--sepp", "x"]);
    typo.assert_code(1);
    typo.assert_stderr_starts_with("error: ids: unknown option `--sepp`; did you mean `--sep`?\n");
}

/// The tool list of one tool, `ids`, whose input has these `properties`.
fn ids(properties: serde_json::Value) -> serde_json::Value {
    json!([{ "name": "ids", "description": "Joins ids",
             "inputSchema": { "type": "object", "properties": properties } }])
}

/// A server of `ids` (answering each call with its arguments) whose list changed
/// behind mur's cache: called once with `ids --values 1` while its input had these
/// `properties`, so that mur cached that list, then given `values` and `sep`. The
/// list, for the test to change again.
fn ids_changed_behind_the_cache(
    sb: &Sandbox,
    properties: serde_json::Value,
) -> (Stub, Arc<Mutex<serde_json::Value>>) {
    let tools = Arc::new(Mutex::new(ids(properties)));
    let server = Stub::echoing_arguments_of(tools.clone());
    sb.devtools_at(&server.endpoint(), &["ids", "--values", "1"])
        .assert_code(0);
    *tools.lock().expect("tool list") =
        ids(json!({ "values": { "type": "string" }, "sep": { "type": "string" } }));
    (server, tools)
}

/// A server whose tool names, and one tool's property names, are the same in kebab
/// case, or the host's options, or carry a control character: every tool and every
/// property is still reachable, each under a name one can type, and `--timeout` is
/// still mur's.
#[test]
fn tools_and_options_that_would_share_a_name_keep_their_own() {
    let sb = Sandbox::new();
    let tools = json!([
        { "name": "get_sum", "description": "Adds", "inputSchema": { "type": "object",
          "properties": {
            "fooBar": { "type": "string" },
            "foo_bar": { "type": "integer" },
            "level": { "type": "number", "enum": [1, 2, 2.5] },
            "timeout": { "type": "integer", "description": "how long the sum may take" },
            "help": { "type": "boolean" } } } },
        { "name": "getSum", "description": "Adds too", "inputSchema": { "type": "object" } },
        { "name": "ring\u{7}bell", "description": "Rings", "inputSchema": { "type": "object" } }
    ]);
    let server = Stub::echoing_params(tools);
    let endpoint = server.endpoint();
    let devtools = devtools_at(&sb, &server);
    let catalog = devtools(&["catalog", "--json"]);
    catalog.assert_code(0);
    let derived: Vec<(String, String)> = catalog.json()["verbs"]
        .as_array()
        .expect("verbs")
        .iter()
        .filter(|v| v["kind"] == "derived")
        .map(|v| (v["name"].to_string(), v["tool"].to_string()))
        .collect();
    assert_eq!(
        derived,
        [
            (r#""get_sum""#.to_owned(), r#""get_sum""#.to_owned()),
            (r#""getSum""#.to_owned(), r#""getSum""#.to_owned()),
            (
                r#""ring-bell""#.to_owned(),
                r#""ring\u0007bell""#.to_owned()
            )
        ]
    );
    // The verbs it may mean are said alone, as a typo's verb is.
    let shared = devtools(&["get-sum"]);
    shared.assert_code(1).assert_stderr_is(
        "error: unknown verb `get-sum`\n\
         hint: `get-sum` would stand for 2 tools, so each is a verb under its own name: `get_sum`, `getSum`\n",
    );
    // A word near none: the catalog of the session chosen, so that the hint pasted reaches it.
    devtools(&["frobnicate"]).assert_code(1).assert_stderr_is(format!(
        "error: unknown verb `frobnicate`\n\
         hint: `mur devtools --endpoint {endpoint} catalog` lists every verb: the installed ones, mur's own, and one per tool of the session\n",
    ));
    let called = devtools(&["get_sum", "--foo_bar", "3", "--fooBar", "x", "--level", "1"]);
    called.assert_code(0);
    // The server's text is JSON, so the verb prints it as it is: the params it got.
    let sent = |out: &Output| {
        let params = out.json();
        (params["name"].clone(), params["arguments"].clone())
    };
    assert_eq!(
        sent(&called),
        (
            json!("get_sum"),
            json!({ "foo_bar": 3, "fooBar": "x", "level": 1 })
        )
    );
    let other = devtools(&["getSum"]);
    other.assert_code(0);
    assert_eq!(sent(&other), (json!("getSum"), json!({})));
    let rung = devtools(&["ring-bell"]);
    rung.assert_code(0);
    assert_eq!(sent(&rung), (json!("ring\u{7}bell"), json!({})));
    // `timeout` and `help` are the host's and the parser's words: the properties are
    // `--arg-timeout` and `--arg-help`, and `--timeout` still limits the call.
    let help = devtools(&["get_sum", "--help"]);
    help.assert_code(0);
    let options = help.stdout_lines("  --arg-");
    assert_eq!(
        options,
        [
            "  --arg-timeout N  how long the sum may take (property `timeout`)",
            "  --arg-help       (property `help`)"
        ]
    );
    let timed = devtools(&[
        "get_sum",
        "--arg-timeout",
        "5",
        "--arg-help",
        "--timeout",
        "3000",
    ]);
    timed.assert_code(0);
    assert_eq!(
        sent(&timed),
        (json!("get_sum"), json!({ "timeout": 5, "help": true }))
    );
    let zero = devtools(&["get_sum", "--timeout", "0"]);
    zero.assert_code(1)
        .assert_stderr_starts_with("error: invalid value `0` for `--timeout <MS>`: ");
}

/// A server with one tool, `note`, of a text option and a JSON one, that answers each
/// call with the arguments it got, as JSON text.
fn noting() -> Stub {
    let tools = json!([{ "name": "note", "description": "Keeps a note",
        "inputSchema": { "type": "object", "required": ["text"], "properties": {
            "text": { "type": "string" }, "meta": { "type": "object" } } } }]);
    Stub::echoing_arguments(tools)
}

/// A value longer than a command line takes (Linux: 128 KiB a word) is `--text @FILE`
/// or `--text @-`; the whole object is `--args @FILE` or `--args -`, with the options
/// over it. `@@` is a value's own `@`; stdin is one option's only; a file that cannot
/// be read is exit 1 naming the option, nothing sent.
#[test]
fn a_derived_verbs_values_are_read_from_files_and_stdin() {
    let sb = Sandbox::new();
    let server = noting();
    let endpoint = server.endpoint();
    let devtools = devtools_at(&sb, &server);
    let shell = |line: &str| {
        mur_e2e::run(&mut sb.shell_command(&format!("mur devtools --endpoint {endpoint} {line}")))
    };
    let text = "a".repeat(200_000);
    let big = sb.file("big.txt", &text);
    let big = big.to_str().expect("utf-8");
    let meta = sb.file("meta.json", r#"{"tags": ["x"]}"#);
    let meta = meta.to_str().expect("utf-8");
    let whole = sb.file("args.json", r#"{"text": "from the file", "meta": {}}"#);
    let whole = whole.to_str().expect("utf-8");
    let from_file = devtools(&[
        "note",
        "--text",
        &format!("@{big}"),
        "--meta",
        &format!("@{meta}"),
    ]);
    from_file.assert_code(0);
    assert_eq!(
        from_file.json(),
        json!({ "text": text, "meta": { "tags": ["x"] } })
    );
    let piped = shell(&format!("note --text @- < {big}"));
    piped.assert_code(0);
    assert_eq!(piped.json(), json!({ "text": text }));
    let over = shell(&format!("note --args - --text over < {whole}"));
    over.assert_code(0);
    assert_eq!(over.json(), json!({ "text": "over", "meta": {} }));
    let at = devtools(&["note", "--args", &format!("@{whole}"), "--text", "@@home"]);
    at.assert_code(0);
    assert_eq!(at.json(), json!({ "text": "@home", "meta": {} }));
    let calls = || server.tool_calls();
    let sent = calls();
    let twice = shell(&format!("note --args - --text @- < {whole}"));
    twice.assert_code(1).assert_stdout_is("");
    twice.assert_stderr_starts_with(
        "error: note: `--text` reads stdin, which `--args` reads already: stdin can be read once \
         (give one of them `@FILE`)\n",
    );
    let missing = devtools(&["note", "--text", "@bob"]);
    missing.assert_code(1).assert_stdout_is("");
    missing.assert_stderr_starts_with(
        "error: note: `--text`: `bob` cannot be read: no such file \
         (`@FILE` reads a file; `--text @@bob` sends the text `@bob`)\n",
    );
    assert_eq!(calls(), sent, "no call was made");
    let help = devtools(&["note", "--help"]);
    help.assert_code(0);
    assert!(
        help.stdout.contains(
            "\nA TEXT or JSON option's value `@FILE` is that file's contents, as they are\n\
             (`@-`: stdin's); a value that begins with `@` is written `@@…`. What is read\n\
             comes to 4 MiB at most in all, what a session takes in one request.\n"
        ),
        "{help}"
    );
}

/// `--help` wins before a value is read: `note --args - --help` at a terminal waited
/// on stdin for the help, and `--args @FIFO --help` on the FIFO's writer. Here stdin
/// is a pipe the test holds open and the FIFO has no writer, with a `--timeout` (the
/// bound on reading them) past the kit's patience: the help is printed, nothing read.
/// As an option's value, `--help` is that value.
#[test]
fn help_is_printed_before_any_value_is_read() {
    let sb = Sandbox::new();
    let server = noting();
    let endpoint = server.endpoint();
    let devtools = devtools_at(&sb, &server);
    let help = devtools(&["note", "--help"]);
    help.assert_code(0).assert_stderr_is("");
    let mut held = sb.mur_command(&[
        "devtools",
        "--timeout",
        "600000",
        "--endpoint",
        &endpoint,
        "note",
        "--args",
        "-",
        "--text",
        "@-",
        "--help",
    ]);
    held.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let (mur, writer) = mur_e2e::Process::spawn_with_stdin(&mut held);
    let out = mur.wait_output();
    drop(writer);
    out.assert_code(0)
        .assert_stderr_is("")
        .assert_stdout_is(&help.stdout);
    let fifo = sb.root().join("unwritten");
    mur_e2e::mkfifo(&fifo);
    let at_fifo = format!("@{}", fifo.display());
    let out = devtools(&["note", "-h", "--timeout", "600000", "--args", &at_fifo]);
    out.assert_code(0)
        .assert_stderr_is("")
        .assert_stdout_is(&help.stdout);
    let valued = devtools(&["note", "--text", "--help"]);
    valued.assert_code(0).assert_stderr_is("");
    assert_eq!(valued.json(), json!({ "text": "--help" }));
}

/// The case that was impossible: a third-party stdio server behind `bridge`
/// (server-everything's `echo`, on the pinned Node) sent a 200 KB message, past what
/// Linux takes as one word of a command line, from a file through its derived verb.
#[test]
fn a_bridged_servers_tool_takes_a_value_longer_than_a_command_line_from_a_file() {
    let sb = Sandbox::new();
    let project = sb.project("everything");
    let project = project.to_str().expect("utf-8");
    let tools = crate::node::tools();
    let mut bridge = sb.mur_command(&["devtools", "bridge", "--project", project, "--"]);
    bridge
        .arg(&tools.node)
        .arg(&tools.everything_server)
        .arg("stdio");
    mur_e2e::run(&mut bridge).assert_code(0);
    // Stopped however the test ends: it runs detached, past this process.
    struct Stop<'a>(&'a Sandbox, &'a str);
    impl Drop for Stop<'_> {
        fn drop(&mut self) {
            self.0.devtools(&["--project", self.1, "bridge", "stop"]);
        }
    }
    let _stop = Stop(&sb, project);
    let message = "m".repeat(200_000);
    let file = sb.file("message.txt", &message);
    let at = format!("@{}", file.display());
    let echoed = sb.devtools(&["--project", project, "echo", "--message", &at]);
    echoed.assert_code(0);
    assert_eq!(echoed.json(), json!(format!("Echo: {message}")));
}

/// `--` ends a derived verb's options, as a standard verb's: a word after it is the lone
/// word of the one text option, as before `--` (server-everything's `echo -- hello` was
/// refused, `unexpected argument `hello``). One that reads as an option — `--help` and
/// `--timeout` too, which are no help or host option there — is refused, as before `--`
/// and as the kits refuse it, with a suggestion that works when pasted (`echo --
/// --message` said `did you mean `--message --message`?`, itself refused: "`--message`
/// is an option"). A verb that takes no lone word says how a value that begins with `-`
/// is given. Nothing is sent for a refusal.
#[test]
fn after_double_dash_a_word_is_the_lone_word_or_told_how_to_give_it() {
    let sb = Sandbox::new();
    let tools = json!([
        { "name": "echo", "inputSchema": { "type": "object", "required": ["message"],
            "properties": { "message": { "type": "string" } } } },
        { "name": "type", "inputSchema": { "type": "object", "required": ["selector", "text"],
            "properties": { "selector": { "type": "string" }, "text": { "type": "string" } } } }
    ]);
    let server = Stub::echoing_arguments(tools);
    let devtools = devtools_at(&sb, &server);
    let endpoint = server.endpoint();
    let hint = format!("hint: `mur devtools --endpoint {endpoint} echo --help` shows its usage\n");
    for (words, refusal, pasted, sent) in [
        (
            &["echo", "--", "--message"][..],
            "unexpected argument `--message`; did you mean `--message=--message`?",
            &["echo", "--message=--message"][..],
            json!({ "message": "--message" }),
        ),
        (
            &["echo", "--", "-x"],
            "unexpected argument `-x`; did you mean `--message -x`?",
            &["echo", "--message", "-x"],
            json!({ "message": "-x" }),
        ),
        (
            &["echo", "--", "--help"],
            "unexpected argument `--help`; did you mean `--message=--help`?",
            &["echo", "--message=--help"],
            json!({ "message": "--help" }),
        ),
        // A host option's word, after `--`, is no host option either.
        (
            &["echo", "--", "--timeout"],
            "unexpected argument `--timeout`; did you mean `--message=--timeout`?",
            &["echo", "--message=--timeout"],
            json!({ "message": "--timeout" }),
        ),
    ] {
        let calls = server.tool_calls();
        devtools(words)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!("error: echo: {refusal}\n{hint}"));
        assert_eq!(server.tool_calls(), calls, "nothing sent for {words:?}");
        let out = devtools(pasted);
        out.assert_quiet_success();
        assert_eq!(out.json(), sent, "{words:?}");
    }
    for (words, sent) in [
        (&["echo", "--", "hello"][..], json!({ "message": "hello" })),
        (
            &["--timeout", "5000", "echo", "--", "x"],
            json!({ "message": "x" }),
        ),
    ] {
        let out = devtools(words);
        out.assert_quiet_success();
        assert_eq!(out.json(), sent, "{words:?}");
    }
    // No lone word after the first, nor where the verb takes none: the usage follows.
    let calls = server.tool_calls();
    let args = |pad: &str| {
        format!(
            "  --args JSON {pad}  the whole arguments object, as JSON (`@FILE`, `-`: read from\n\
             {pad}                FILE, stdin; 4 MiB at most, what a session takes in one\n\
             {pad}                request); options given beside it override its fields\n\
             \x20 -h, --help  {pad}  print this help\n\n"
        )
    };
    devtools(&["echo", "--", "hello", "world"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: echo: unexpected argument `world`\n\n\
             Usage: mur devtools echo <message> [--args JSON]\n\n\
             Arguments:\n\
             \x20 <message>  (required)\n\n\
             Options:\n\
             \x20 --message TEXT  the same as `<message>`\n{}",
            args("  ")
        ));
    devtools(&["type", "--selector", "#x", "--", "-5"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: type: unexpected argument `-5`: every value is an option's, after `--` too \
             (a value that begins with `-` is written `--OPTION=VALUE`)\n\n\
             Usage: mur devtools type --selector S --text TEXT [--args JSON]\n\n\
             Options:\n\
             \x20 --selector S  (required)\n\
             \x20 --text TEXT   (required)\n{}",
            args("")
        ));
    assert_eq!(server.tool_calls(), calls, "nothing sent for a refusal");
    let sent = devtools(&["type", "--selector", "#x", "--text=-5"]);
    sent.assert_quiet_success();
    assert_eq!(sent.json(), json!({ "selector": "#x", "text": "-5" }));
}

/// server-everything's `get-annotated-message` and `get-resource-links`, as an agent
/// drives them: `--include-image false` (two words, as agents write any option) was
/// "unexpected argument `false`" and the whole usage, with no word of the form meant; a
/// required flag's help said only `(required)`, not how to send false; and a bound the
/// description states was said again beside it (`(1-10) (1–10) (default: 3)`).
#[test]
fn a_flags_value_is_told_to_go_inline_and_the_help_says_each_thing_once() {
    let sb = Sandbox::new();
    let tools = json!([
        { "name": "get-annotated-message", "inputSchema": { "type": "object",
            "required": ["messageType", "urgent"], "properties": {
                "messageType": { "type": "string", "enum": ["error", "success", "debug"] },
                "includeImage": { "type": "boolean", "default": false },
                "urgent": { "type": "boolean" } } } },
        { "name": "get-resource-links", "inputSchema": { "type": "object", "properties": {
            "count": { "type": "number", "minimum": 1, "maximum": 10, "default": 3,
                "description": "Number of resource links to return (1-10)" } } } }
    ]);
    let server = Stub::echoing_arguments(tools);
    let devtools = devtools_at(&sb, &server);
    let verb = [
        "get-annotated-message",
        "--message-type",
        "error",
        "--urgent",
    ];
    let out = devtools(&[&verb[..], &["--include-image", "false"]].concat());
    out.assert_code(1).assert_stdout_is("");
    out.assert_stderr_starts_with(
        "error: get-annotated-message: unexpected argument `false`; did you mean \
         `--include-image=false`?\n",
    );
    let sent = devtools(&[
        "get-annotated-message",
        "--message-type",
        "error",
        "--urgent=false",
        "--include-image=false",
    ]);
    sent.assert_code(0);
    assert_eq!(
        sent.json(),
        json!({ "messageType": "error", "urgent": false, "includeImage": false })
    );
    let help = devtools(&["get-annotated-message", "--help"]);
    help.assert_code(0);
    let urgent = help.stdout_lines("  --urgent ");
    assert!(
        urgent.len() == 1 && urgent[0].ends_with(" (required: `--urgent` or `--urgent=false`)"),
        "{help}"
    );
    let help = devtools(&["get-resource-links", "--help"]);
    assert_eq!(
        help.stdout_lines("  --count"),
        ["  --count NUMBER  Number of resource links to return (1-10) (default 3)"],
        "{help}"
    );
    // The catalog's data is the schema's, whatever the help says of it.
    let count =
        catalog_verb(&devtools(&["catalog", "--json"]), "get-resource-links")["options"][0].clone();
    assert_eq!(
        (&count["default"], &count["minimum"], &count["maximum"]),
        (&json!(3), &json!(1), &json!(10)),
        "{count}"
    );
}

/// The schema the Python SDK (pydantic) writes for `draw(shape: Shape, key: Union[int,
/// str] = 0, points: list[Point] = [], tags: list[Literal["a", "b"]] = [], maybe:
/// Optional[str] = None)`: the help shows each model's fields, a plain word is text for
/// the union, the list's choices are shown and checked, and `null` is null where the
/// schema admits it (before: `--shape JSON  (required)`, `--key abc` refused as no
/// JSON, `--tags c` sent, `--maybe null` the text "null").
#[test]
fn a_pydantic_schemas_options_show_their_fields_and_take_plain_words() {
    let sb = Sandbox::new();
    let tools = json!([{ "name": "draw", "description": "Draws a shape",
        "inputSchema": { "type": "object", "required": ["shape"],
            "$defs": {
                "Point": { "type": "object", "required": ["x", "y"], "properties": {
                    "x": { "type": "integer" }, "y": { "type": "integer" },
                    "label": { "anyOf": [{ "type": "string" }, { "type": "null" }], "default": null } } },
                "Color": { "enum": ["red", "green"], "type": "string" },
                "Shape": { "type": "object", "required": ["name"], "properties": {
                    "name": { "type": "string" },
                    "points": { "type": "array", "items": { "$ref": "#/$defs/Point" } },
                    "color": { "$ref": "#/$defs/Color" } } } },
            "properties": {
                "shape": { "$ref": "#/$defs/Shape" },
                "key": { "anyOf": [{ "type": "integer" }, { "type": "string" }], "default": 0 },
                "points": { "type": "array", "items": { "$ref": "#/$defs/Point" }, "default": [] },
                "tags": { "type": "array", "items": { "enum": ["a", "b"], "type": "string" }, "default": [] },
                "maybe": { "anyOf": [{ "type": "string" }, { "type": "null" }], "default": null } } } }]);
    let server = Stub::echoing_arguments(tools);
    let devtools = devtools_at(&sb, &server);
    let help = devtools(&["draw", "--help"]);
    help.assert_code(0);
    // A list's option is marked repeatable on the usage line too.
    assert_eq!(
        help.stdout.lines().next(),
        Some(
            "Usage: mur devtools draw --shape JSON [--key N|TEXT] [--points JSON]... \
             [--tags a|b]... [--maybe TEXT] [--args JSON]"
        ),
        "{help}"
    );
    assert_eq!(
        help.stdout_lines("  ")[..10],
        [
            "  --shape JSON   {name: TEXT, points?: [{x: N, y: N, label?: TEXT}], color?:",
            "                 red|green} (required)",
            "  --key N|TEXT   (default 0)",
            "  --points JSON  {x: N, y: N, label?: TEXT} (default [], repeatable)",
            "  --tags a|b     (default [], repeatable)",
            "  --maybe TEXT",
            "  --args JSON    the whole arguments object, as JSON (`@FILE`, `-`: read from",
            "                 FILE, stdin; 4 MiB at most, what a session takes in one",
            "                 request); options given beside it override its fields",
            "  -h, --help     print this help",
        ],
        "{help}"
    );
    assert!(
        help.stdout.contains(
            "\n`null` is JSON null for `--maybe` (its schema admits it), and a word elsewhere.\n"
        ),
        "{help}"
    );
    let shape = r#"{"name":"tri"}"#;
    let drawn = devtools(&[
        "draw",
        "--shape",
        shape,
        "--key",
        "abc",
        "--maybe",
        "null",
        "--tags",
        "b",
        "--points",
        r#"{"x":1,"y":2}"#,
    ]);
    drawn.assert_code(0);
    assert_eq!(
        drawn.json(),
        json!({ "shape": { "name": "tri" }, "key": "abc", "maybe": null, "tags": ["b"],
                "points": [{ "x": 1, "y": 2 }] })
    );
    let number = devtools(&["draw", "--shape", shape, "--key", "7"]);
    assert_eq!(
        number.json(),
        json!({ "shape": { "name": "tri" }, "key": 7 })
    );
    for (words, error) in [
        (&["--tags", "c"][..], "`--tags` must be `a` or `b`, got `c`"),
        (
            &["--points", "1"],
            "`--points` needs a JSON object, got `1`",
        ),
    ] {
        let out = devtools(&[&["draw", "--shape", shape], words].concat());
        out.assert_code(1).assert_stdout_is("");
        out.assert_stderr_starts_with(&format!("error: draw: {error}\n"));
    }
    // The catalog an agent reads says the same.
    let draw = catalog_verb(&devtools(&["catalog", "--json"]), "draw");
    let shape_help = draw["options"][0]["help"].clone();
    assert_eq!(
        shape_help,
        "{name: TEXT, points?: [{x: N, y: N, label?: TEXT}], color?: red|green} (required)"
    );
    // Each option as the verb takes it: `--key` a bare word (it said `json`, and an agent
    // reading it quoted `'"abc"'`), with the schema's default and whether `null` is null.
    let option = |name: &str| {
        let options = draw["options"].as_array().expect("options");
        let option = options.iter().find(|o| o["name"] == name).expect(name);
        let fact = |key: &str| option.get(key).cloned();
        (fact("type"), fact("nullable"), fact("default"))
    };
    assert_eq!(
        option("key"),
        (Some(json!("text")), Some(json!(false)), Some(json!(0)))
    );
    assert_eq!(
        option("maybe"),
        (Some(json!("text")), Some(json!(true)), Some(json!(null)))
    );
    assert_eq!(
        option("shape"),
        (Some(json!("json")), Some(json!(false)), None)
    );
    assert_eq!(
        option("args"),
        (Some(json!("json")), Some(json!(false)), None)
    );
}

/// A property named `""` would be the option `--`, which ends the options and so can
/// never be typed: it has no option, its verb's help says `--args` gives it, a missing
/// required one says how, and `call` reaches it as any other.
#[test]
fn a_property_named_empty_is_given_in_args_not_an_untypable_option() {
    let sb = Sandbox::new();
    let tools = json!([{ "name": "odd", "inputSchema": { "type": "object", "required": [""],
        "properties": { "": { "type": "string" }, "a": { "type": "string" } } } }]);
    let server = Stub::echoing_arguments(tools);
    let devtools = devtools_at(&sb, &server);
    let help = devtools(&["odd", "--help"]);
    help.assert_code(0);
    help.assert_stdout_starts_with("Usage: mur devtools odd [<a>] [--args JSON]\n");
    assert_eq!(
        help.stdout_lines("  ")[..7],
        [
            "  [<a>]  the same as `--a TEXT`",
            "  --a TEXT",
            "  --args JSON  the whole arguments object, as JSON (`@FILE`, `-`: read from",
            "               FILE, stdin; 4 MiB at most, what a session takes in one request);",
            "               options given beside it override its fields; the property `\"\"` (a",
            "               name no option can have) is given only here",
            "  -h, --help   print this help",
        ],
        "{help}"
    );
    let missing = devtools(&["odd", "--a", "x"]);
    missing.assert_code(1).assert_stderr_starts_with(
        "error: odd: missing the property `\"\"`, which no option can give: `--args \'{\"\": …}\'` does\n",
    );
    let given = devtools(&["odd", "--args", r#"{"": "v"}"#, "--a", "x"]);
    given.assert_code(0);
    assert_eq!(given.json(), json!({ "": "v", "a": "x" }));
    let called = devtools(&["call", "odd", "--args", r#"{"": "v"}"#]);
    assert_eq!(called.tool_text(0), r#"{"":"v"}"#);
}

#[test]
fn a_tool_that_failed_keeps_the_tool_list_and_one_the_server_lacks_drops_it() {
    let sb = Sandbox::new();
    // One tool, `lookup`: it fails saying a key was "not found", and for the key `gone`
    // the server answers as one that no longer has the tool.
    let tools = json!([{
        "name": "lookup",
        "description": "Looks a key up",
        "inputSchema": { "type": "object", "properties": { "key": { "type": "string" } } }
    }]);
    let server = Stub::with_tools(tools, |params| {
        if params["arguments"]["key"] == "gone" {
            return Err(json!({ "code": -32602, "message": "Unknown tool: lookup" }));
        }
        Ok(json!({
            "content": [{ "type": "text", "text": "key `x` not found" }],
            "isError": true
        }))
    });
    let endpoint = server.endpoint();
    let lookup = |key: &str| {
        let out = sb.mur(&[
            "devtools",
            "-v",
            "--endpoint",
            &endpoint,
            "lookup",
            "--key",
            key,
        ]);
        out.assert_code(5);
        out
    };
    let from_cache = |out: &Output| out.stderr.contains("tool list from the cache");
    let first = lookup("x");
    assert!(!from_cache(&first), "{first}");
    // A tool that ran and failed says nothing of the list, whatever its words.
    let again = lookup("x");
    assert!(from_cache(&again), "{again}");
    // The server has no such tool any more: the list is read afresh then, to tell
    // whether the session lacks it (it lists it still), and the next call goes by it.
    let gone = lookup("gone");
    assert!(from_cache(&gone), "{gone}");
    let listed = |out: &Output| out.stderr.contains("/mcp tools/list (");
    assert!(listed(&gone), "{gone}");
    let after = lookup("x");
    assert!(from_cache(&after) && !listed(&after), "{after}");
}

/// A tool whose verb name is a host command's (`session`, `help`) or an installed
/// verb's of another tool (`switch` runs `switchComponent`) has no verb: parity says it
/// is reached only as `call NAME`, and the catalog says so, instead of listing a
/// derived verb that runs something else. An installed verb of a tool the session
/// does not offer is marked so in the catalog, and its table names those in a line
/// after the verbs. Before, parity called all three "derived", the catalog left
/// `session` and `switch` out without a word and listed `help`, and `click` looked
/// callable; then each had a row "not offered by this session", which buried a
/// third-party server's own verbs under the 19 standard ones (review 508, 12).
#[test]
fn tools_whose_verb_names_are_taken_are_said_to_be_reached_only_by_call() {
    let sb = sandbox_with(&[standard("switch"), standard("click"), standard("tree")]);
    let schema = json!({ "type": "object" });
    let tools = json!([
        { "name": "session", "inputSchema": schema },
        { "name": "help", "inputSchema": schema },
        { "name": "switch", "inputSchema": schema },
        { "name": "switchComponent", "inputSchema": schema },
        { "name": "getSum", "inputSchema": schema },
    ]);
    let server = Stub::with_tools(tools, |_| Ok(json!({ "content": [] })));
    let endpoint = server.endpoint();
    let parity = sb.devtools_at(&endpoint, &["parity"]);
    parity.assert_code(1).assert_stdout_is(
        "TOOL             VERB     KIND\n\
         session          –        call-only\n\
         help             –        call-only\n\
         switch           –        call-only\n\
         switchComponent  switch   named\n\
         getSum           get-sum  derived\n",
    );
    assert_eq!(
        parity.stderr,
        "note: 4 of 5 tools have no named verb: session, help, switch, getSum\n\
         hint: session, help, switch only as `mur devtools call NAME`, their verb names being taken; \
         the other as a derived verb; `mur devtools verbs new` makes a named one\n"
    );
    let catalog = sb.devtools_at(&endpoint, &["catalog", "--json"]);
    catalog.assert_code(0).assert_stderr_is(
        "warning: tools reachable only as `mur devtools call NAME` (their verb names are taken): \
         session, help, switch\n",
    );
    let catalog = catalog.json();
    assert_eq!(catalog["callOnly"], json!(["session", "help", "switch"]));
    let kinds: Vec<(String, String, serde_json::Value)> = catalog["verbs"]
        .as_array()
        .expect("verbs")
        .iter()
        .filter(|v| v["kind"] != "host")
        .map(|v| {
            (
                v["name"].to_string(),
                v["kind"].to_string(),
                v["offered"].clone(),
            )
        })
        .collect();
    // What the session offers first, mur's own commands next, what it lacks last (user
    // audit AU3 9: the 19 standard verbs a third-party server offers none of came first).
    assert_eq!(
        kinds,
        [
            (
                r#""switch""#.to_owned(),
                r#""plugin""#.to_owned(),
                json!(true)
            ),
            (
                r#""get-sum""#.to_owned(),
                r#""derived""#.to_owned(),
                json!(true)
            ),
            (
                r#""click""#.to_owned(),
                r#""plugin""#.to_owned(),
                json!(false)
            ),
            (
                r#""tree""#.to_owned(),
                r#""plugin""#.to_owned(),
                json!(false)
            ),
        ]
    );
    let order: Vec<&str> = catalog["verbs"]
        .as_array()
        .expect("verbs")
        .iter()
        .map(|v| v["name"].as_str().unwrap_or_default())
        .collect();
    let host = order.iter().position(|name| *name == "session");
    assert_eq!(
        (order.first(), host, order.last()),
        (Some(&"switch"), Some(2), Some(&"tree")),
        "{order:?}"
    );
    // The table, in the same order, but mur's own commands, which an agent driving an app
    // rarely runs, are named in a line after it (they were 9 rows, ~1.1 KB, of every
    // catalog: user audit AU8 13), and so are the verbs the session cannot run.
    let table = sb.devtools_at(&endpoint, &["catalog"]);
    table.assert_code(0).assert_stdout_is(format!(
        "NAME     KIND     TOOL             HINTS  SUMMARY\n\
         switch   plugin   switchComponent         Show another component in the running app\n\
         get-sum  derived  getSum                  getSum\n\
         \n\
         mur's own commands (`mur devtools --endpoint {endpoint} COMMAND --help` says what each \
         does): session, call, verbs, guide, catalog, parity, usage, bridge, proxy\n\
         2 installed verbs call tools this session does not offer (`mur devtools --endpoint \
         {endpoint} catalog --json` lists them): click, tree\n"
    ));
}

/// A tool named `""` has no verb and no `call NAME` (which refuses an empty name):
/// `catalog` and `parity` named it as a blank (`hint:  only as …`), and now as `""`
/// with the `call tools/call` line that reaches it. A tool `--help` whose kebab-case
/// name is another's (`help`) kept its own name, a verb no one can type (`mur devtools
/// --help` is mur's help), which `catalog` listed with that usage: it is reached only
/// by call too, named with its line (`call --help` is call's help). Entries of the list
/// that are no named tool (`1`, a number for a name) are left out of `parity`'s count
/// too: it said "2 of 5 tools" of a list of three.
#[test]
fn a_tool_without_a_name_one_can_type_is_named_with_the_line_that_calls_it() {
    let sb = Sandbox::new();
    let schema = json!({ "type": "object" });
    let tools = json!([1, { "name": 5 }, { "name": "", "inputSchema": schema },
        { "name": "--help", "inputSchema": schema }, { "name": "help", "inputSchema": schema }]);
    let server = Stub::with_tools(tools, |_| Ok(json!({ "content": [] })));
    let endpoint = server.endpoint();
    let called = r#"`""` (`mur devtools call tools/call --args '{"name":""}'`), `--help` (`mur devtools call tools/call --args '{"name":"--help"}'`), help"#;
    let parity = sb.devtools_at(&endpoint, &["parity"]);
    parity.assert_code(1).assert_stderr_is(format!(
        "note: 3 of 3 tools have no named verb: {called}\n\
         hint: {called} only as `mur devtools call NAME`, their verb names being taken; \
         `mur devtools verbs new` makes a named one\n"
    ));
    let catalog = sb.devtools_at(&endpoint, &["catalog", "--json"]);
    catalog.assert_code(0).assert_stderr_is(format!(
        "warning: tools reachable only as `mur devtools call NAME` (their verb names are taken): \
         {called}\n"
    ));
    let catalog = catalog.json();
    assert_eq!(catalog["callOnly"], json!(["", "--help", "help"]));
    let derived = catalog["verbs"].as_array().expect("verbs").iter();
    let derived: Vec<&serde_json::Value> = derived.filter(|v| v["kind"] == "derived").collect();
    assert!(derived.is_empty(), "{derived:?}");
    for name in ["", "--help"] {
        let args = json!({ "name": name }).to_string();
        sb.devtools_at(&endpoint, &["call", "tools/call", "--args", &args])
            .assert_code(0);
    }
}

/// A server that lists a tool twice lists one tool: `catalog` listed two identical rows,
/// two verbs `clickElement` (the kebab-case name shared, each kept its own) of which only
/// the first could be called. Now it is one verb, `click-element`, of the first entry
/// (the one its name reaches), `catalog` says so in a warning, and neither `parity` nor
/// completion counts it twice.
#[test]
fn a_tool_listed_twice_is_one_verb_of_its_first_entry() {
    let sb = Sandbox::new();
    let tool = |description: &str| {
        json!({ "name": "clickElement", "description": description,
                "inputSchema": { "type": "object", "properties": { "selector": { "type": "string" } } } })
    };
    let echo =
        json!({ "name": "echo", "description": "Echoes", "inputSchema": { "type": "object" } });
    let tools = json!([tool("Clicks"), echo, tool("Clicks again"), tool("Clicks")]);
    let server = Stub::echoing_params(tools);
    let endpoint = server.endpoint();
    let devtools = devtools_at(&sb, &server);
    let catalog = devtools(&["catalog"]);
    catalog
        .assert_code(0)
        .assert_stdout_is(format!(
            "NAME           KIND     TOOL          HINTS  SUMMARY\n\
             click-element  derived  clickElement         Clicks\n\
             echo           derived  echo                 Echoes\n\
             \n{}",
            own_commands(&endpoint)
        ))
        .assert_stderr_is(
            "warning: tools listed more than once by the session (each is one verb, of its \
             first entry): clickElement\n",
        );
    let json = devtools(&["catalog", "--json"]);
    json.assert_code(0);
    let derived: Vec<String> = json.json()["verbs"]
        .as_array()
        .expect("verbs")
        .iter()
        .filter(|v| v["kind"] == "derived")
        .map(|v| format!("{} {}", v["name"], v["summary"]))
        .collect();
    assert_eq!(
        derived,
        [r#""click-element" "Clicks""#, r#""echo" "Echoes""#]
    );
    assert_eq!(json.json()["callOnly"], json!([]));
    // The JSON names them too, as the warning does.
    assert_eq!(json.json()["listedAgain"], json!(["clickElement"]));
    let parity = devtools(&["parity"]);
    parity
        .assert_code(1)
        .assert_stdout_is(
            "TOOL          VERB           KIND\n\
             clickElement  click-element  derived\n\
             echo          echo           derived\n",
        )
        .assert_stderr_is(
            "note: 2 of 2 tools have no named verb: clickElement, echo\n\
             hint: each is still reachable as a derived verb; `mur devtools verbs new` makes a named one\n",
        );
    let called = devtools(&["click-element", "--selector", "#b"]);
    called.assert_code(0);
    let sent = called.json();
    assert_eq!(
        (&sent["name"], &sent["arguments"]),
        (&json!("clickElement"), &json!({ "selector": "#b" }))
    );
    assert_eq!(
        completions(&sb, &endpoint, &["cl"]),
        "click-element\tClicks\n"
    );
    assert_eq!(
        completions(&sb, &endpoint, &["call", "cl"]),
        "clickElement\n"
    );
}

/// A tool whose name is a zero-width space, a byte-order mark and a joiner, or a bell
/// (each a character one cannot see: a format character, Unicode's Cf, or a control)
/// was a verb of that name: a row of `catalog` with no name to read (or `\x07`, which
/// typed is no bell), and a candidate showing as nothing. As a verb name beginning with
/// `-` is, it is no verb: `catalog`'s warning and `parity` name it as the JSON string of
/// the `call tools/call` line that reaches it, and completion leaves it out. A name
/// holding one beside letters is a verb under its kebab-case name, its tool written so.
#[test]
fn a_tool_named_with_characters_one_cannot_see_is_named_so_and_reached_by_call() {
    let schema = json!({ "type": "object" });
    let tools = json!([
        { "name": "\u{200b}", "description": "Zero", "inputSchema": schema },
        { "name": "\u{feff}\u{200d}", "description": "Marks", "inputSchema": schema },
        { "name": "\u{7}", "description": "Bell", "inputSchema": schema },
        { "name": "zero\u{200b}width", "description": "Wide", "inputSchema": schema },
    ]);
    unreadable_names_are_call_only(
        &Sandbox::new(),
        &Unreadable {
            tools,
            call_only: &["\u{200b}", "\u{feff}\u{200d}", "\u{7}"],
            written: &[r#""\u200b""#, r#""\ufeff\u200d""#, r#""\u0007""#],
            catalog: "NAME        KIND     TOOL               HINTS  SUMMARY\n\
                      zero-width  derived  \"zero\\u200bwidth\"         Wide\n",
            parity: r#"TOOL               VERB        KIND
"\u200b"           –           call-only
"\ufeff\u200d"     –           call-only
"\u0007"           –           call-only
"zero\u200bwidth"  zero-width  derived
"#,
            parity_note: "`\"zero\\u200bwidth\"` (`mur devtools call tools/call --args \
                          '{\"name\":\"zero\\u200bwidth\"}'`)",
            parity_hint: "the other as a derived verb",
            verbs: &["zero-width\tWide"],
            call: &["ping", "tools/list"],
        },
    );
}

/// A tool whose name shows nothing, spaces alone or blanks (U+3164, U+2800, U+3000), was a
/// verb of that name: a catalog row with a gap for a name, a candidate showing as nothing.
/// Like a name holding a zero-width space, it is no verb but reached by `call tools/call`,
/// named as its JSON string. `call` completes no name it would send as a method (`ui/click`,
/// reached by its derived verb `ui-click` or by `call tools/call`), nor one it would not
/// reach: a Tab offered `ui/click`, and `call ui/click` sent the method `ui/click`.
#[test]
fn a_tool_named_with_blanks_alone_is_named_so_and_call_completes_names_it_reaches() {
    let schema = json!({ "type": "object" });
    let tools = json!([
        { "name": " ", "description": "Space", "inputSchema": schema },
        { "name": "\u{3164}", "description": "Filler", "inputSchema": schema },
        { "name": "\u{2800}\u{3000}", "description": "Braille", "inputSchema": schema },
        { "name": "ui/click", "description": "Clicks", "inputSchema": schema },
        { "name": "echo", "description": "Echoes", "inputSchema": schema },
    ]);
    let sb = Sandbox::new();
    let server = unreadable_names_are_call_only(
        &sb,
        &Unreadable {
            tools,
            call_only: &[" ", "\u{3164}", "\u{2800}\u{3000}"],
            written: &[r#"" ""#, r#""\u3164""#, r#""\u2800\u3000""#],
            catalog: "NAME      KIND     TOOL      HINTS  SUMMARY\n\
                      ui-click  derived  ui/click         Clicks\n\
                      echo      derived  echo             Echoes\n",
            parity: r#"TOOL            VERB      KIND
" "             –         call-only
"\u3164"        –         call-only
"\u2800\u3000"  –         call-only
ui/click        ui-click  derived
echo            echo      derived
"#,
            parity_note: "`ui/click` (`mur devtools call tools/call --args \
                          '{\"name\":\"ui/click\"}'`), echo",
            parity_hint: "the others as derived verbs",
            verbs: &["ui-click\tClicks", "echo\tEchoes"],
            call: &["echo", "ping", "tools/list"],
        },
    );
    assert_eq!(completions(&sb, &server.endpoint(), &["call", "ui"]), "");
}

/// A session's tools of which some have names no one can read or type, and what mur
/// shows of them ([`unreadable_names_are_call_only`]).
struct Unreadable {
    /// The session's tools, each with a `description` of one word.
    tools: serde_json::Value,
    /// The names of those that are no verb, in the order listed.
    call_only: &'static [&'static str],
    /// Each as mur writes it: its JSON string.
    written: &'static [&'static str],
    /// `catalog`'s table of verbs.
    catalog: &'static str,
    /// `parity`'s table.
    parity: &'static str,
    /// How `parity`'s note names the tools that are verbs, and its hint says how they
    /// are reached.
    parity_note: &'static str,
    parity_hint: &'static str,
    /// The verbs completion offers, each with its summary.
    verbs: &'static [&'static str],
    /// The names `call` completes.
    call: &'static [&'static str],
}

/// Served `names.tools`, the tools whose names no one can read or type are no verbs:
/// `catalog` warns of them and `parity` notes them, each named as its JSON string with the
/// `call tools/call` line that reaches it, pasted, reaches it; `catalog --json` lists them
/// as call-only; typed, such a name is no verb (exit 1), and completion offers only the
/// verbs one can read. In `sb`; the session, for more.
fn unreadable_names_are_call_only(sb: &Sandbox, names: &Unreadable) -> Stub {
    let server = Stub::echoing_params(names.tools.clone());
    let endpoint = server.endpoint();
    let devtools = devtools_at(sb, &server);
    let lines: Vec<String> = (names.written.iter())
        .map(|name| format!(r#"{{"name":{name}}}"#))
        .collect();
    let named = (names.written.iter().zip(&lines))
        .map(|(name, line)| format!("`{name}` (`mur devtools call tools/call --args '{line}'`)"))
        .collect::<Vec<_>>()
        .join(", ");
    devtools(&["catalog"])
        .assert_code(0)
        .assert_stdout_is(format!("{}\n{}", names.catalog, own_commands(&endpoint)))
        .assert_stderr_is(format!(
            "warning: tools reachable only as `mur devtools call NAME` (their verb names are \
             taken): {named}\n"
        ));
    let json = devtools(&["catalog", "--json"]);
    assert_eq!(json.json()["callOnly"], json!(names.call_only));
    let tools = names.tools.as_array().map_or(0, Vec::len);
    devtools(&["parity"])
        .assert_code(1)
        .assert_stdout_is(names.parity)
        .assert_stderr_is(format!(
            "note: {tools} of {tools} tools have no named verb: {named}, {}\n\
             hint: {named} only as `mur devtools call NAME`, their verb names being taken; \
             {}; `mur devtools verbs new` makes a named one\n",
            names.parity_note, names.parity_hint
        ));
    // Each line given, pasted, reaches its tool.
    for line in &lines {
        sb.tools_call_at(&endpoint, line).assert_code(0);
    }
    let called = server.sent("tools/call");
    let called: Vec<&str> = (called.iter())
        .map(|body| body["params"]["name"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(called, names.call_only);
    // No verb, no candidate: the word is unknown, and completion offers only the verbs
    // one can read.
    devtools(&[names.call_only[0]]).assert_code(1);
    let summaries: Vec<String> = (names.tools.as_array().into_iter().flatten())
        .map(|tool| format!("\t{}", tool["description"].as_str().unwrap_or_default()))
        .collect();
    let verbs = completions(sb, &endpoint, &[""]);
    let derived = verbs
        .lines()
        .filter(|l| summaries.iter().any(|s| l.ends_with(s.as_str())));
    assert_eq!(derived.collect::<Vec<_>>(), names.verbs);
    let tools = completions(sb, &endpoint, &["call", ""]);
    let tools = tools.lines().filter(|l| !l.starts_with('-'));
    assert_eq!(tools.collect::<Vec<_>>(), names.call);
    server
}

/// What fish's completion offers for `mur devtools --endpoint ENDPOINT WORDS…` (which
/// succeeds).
fn completions(sb: &Sandbox, endpoint: &str, words: &[&str]) -> String {
    let words = [&["devtools", "--endpoint", endpoint][..], words].concat();
    let out = sb.complete("fish", &words);
    out.assert_code(0);
    out.stdout
}

/// A description holding characters a terminal shows as nothing (a zero-width space, a
/// byte-order mark, tags, which spell ASCII no one sees but an agent reads) showed them
/// raw in the catalog's table, a derived verb's `--help` and a candidate's help: each is
/// written as an escape there, and `catalog --json` keeps the description as sent.
#[test]
fn format_characters_of_a_description_are_written_out_where_a_person_reads() {
    let sb = Sandbox::new();
    let description = "Clicks\u{200b} it\u{e0049}\u{e0047}. Then\u{feff} waits";
    let schema = json!({ "type": "object", "properties": {
        "mode": { "type": "string", "description": "How\u{2060} to" } } });
    let tools = json!([{ "name": "clicker", "description": description, "inputSchema": schema }]);
    let server = Stub::echoing_params(tools);
    let endpoint = server.endpoint();
    let devtools = devtools_at(&sb, &server);
    let summary = r"Clicks\u{200b} it\u{e0049}\u{e0047}";
    devtools(&["catalog"])
        .assert_code(0)
        .assert_stdout_is(format!(
            "NAME     KIND     TOOL     HINTS  SUMMARY\n\
         clicker  derived  clicker         {summary}\n\
         \n{}",
            own_commands(&endpoint)
        ));
    let json = devtools(&["catalog", "--json"]).json();
    let verb = &json["verbs"][0];
    assert_eq!(
        (&verb["summary"], &verb["options"][0]["help"]),
        (
            &json!("Clicks\u{200b} it\u{e0049}\u{e0047}"),
            &json!("How\u{2060} to")
        )
    );
    let help = devtools(&["clicker", "--help"]).stdout;
    assert!(
        help.starts_with(&format!(
            "Usage: mur devtools clicker [<mode>] [--args JSON]\n\n{summary}\n"
        )),
        "{help}"
    );
    for shown in [r"Then\u{feff} waits", r"How\u{2060} to"] {
        assert!(help.contains(shown), "{shown}: {help}");
    }
    let candidates = sb.complete("fish", &["devtools", "--endpoint", &endpoint, "cl"]);
    assert_eq!(candidates.stdout, format!("clicker\t{summary}\n"));
    // `verbs list` (`--all` too) and `mur devtools --help`'s list of installed verbs
    // alike: they showed them raw.
    let peek = sb.root().join("peek.json");
    let data = json!({ "schema": "mur-verb/1", "name": "peek", "tool": "clicker",
        "summary": "Peeks\u{200b} at\u{e0049} it" });
    std::fs::write(&peek, data.to_string()).expect("write the data verb");
    sb.devtools(&["verbs", "add", peek.to_str().expect("utf-8")])
        .assert_code(0);
    let peeks = r"Peeks\u{200b} at\u{e0049} it";
    devtools(&["verbs", "list", "--all"])
        .assert_code(0)
        .assert_stdout_is(format!(
            "NAME  KIND  TOOL     SUMMARY\n\
             peek  data  clicker  {peeks}\n"
        ));
    sb.devtools(&["verbs", "list"])
        .assert_code(0)
        .assert_stdout_is(format!(
            "NAME  TOOL     SUMMARY\n\
             peek  clicker  {peeks}\n"
        ));
    let help = sb.devtools(&["--help"]).stdout;
    assert!(
        help.contains(&format!(
            "Installed verbs (`mur devtools <verb> --help` for each):\n  peek  {peeks} [data]\n"
        )),
        "{help}"
    );
}

/// A blank but the space among the letters of a tool's name (a Hangul filler, which the
/// kebab rule took for a letter) made a verb whose name shows as another's
/// (`get\u{3164}sum`, read as `get sum`) and that no one could type: like a name of
/// blanks alone it is no verb, reached by `call tools/call`, named as its JSON string. A
/// blank kebab case separates at (U+3000) leaves a verb one can type, its tool named as
/// its JSON string too.
#[test]
fn a_tool_named_with_a_blank_among_its_letters_is_call_only() {
    let sb = Sandbox::new();
    let schema = json!({ "type": "object" });
    let tools = json!([
        { "name": "get\u{3164}sum", "description": "Sums", "inputSchema": schema },
        { "name": "get\u{3000}it", "description": "Gets", "inputSchema": schema },
    ]);
    let server = Stub::echoing_params(tools);
    let endpoint = server.endpoint();
    let devtools = devtools_at(&sb, &server);
    let line = r#"mur devtools call tools/call --args '{"name":"get\u3164sum"}'"#;
    devtools(&["catalog"])
        .assert_code(0)
        .assert_stdout_is(format!(
            "NAME    KIND     TOOL           HINTS  SUMMARY\n\
             get-it  derived  \"get\\u3000it\"         Gets\n\
             \n{}",
            own_commands(&endpoint)
        ))
        .assert_stderr_is(format!(
            "warning: tools reachable only as `mur devtools call NAME` (their verb names are \
             taken): `\"get\\u3164sum\"` (`{line}`)\n"
        ));
    let json = devtools(&["catalog", "--json"]);
    assert_eq!(json.json()["callOnly"], json!(["get\u{3164}sum"]));
    sb.tools_call_at(&endpoint, r#"{"name":"get\u3164sum"}"#)
        .assert_code(0);
}

/// The line under the verbs of a catalog of the session at `endpoint`: mur's own commands.
fn own_commands(endpoint: &str) -> String {
    format!(
        "mur's own commands (`mur devtools --endpoint {endpoint} COMMAND --help` says what each \
         does): session, call, verbs, guide, catalog, parity, usage, bridge, proxy\n"
    )
}

/// A derived verb is recorded under its verb name — the kebab-case name `catalog`
/// lists — however it was typed: `exportTodos` (the tool's own name) and `export-todos`
/// are one verb, one row of the report, by mur and as the session served it; `waitFor`,
/// refused as `wait-for`, is recorded as `wait-for`. Before, each spelling was a verb
/// of its own. A word that names no tool keeps the word typed: it is a verb asked for.
#[test]
fn a_derived_verb_is_recorded_under_its_verb_name_however_it_was_typed() {
    let sandbox = Sandbox::new();
    let served = sandbox.root().join("served.jsonl");
    let _app = sandbox.start_sample_with(
        &sandbox.project("app"),
        &["--usage-log", &served.display().to_string()],
    );
    ok(&sandbox, &["export-todos", "--delay-ms", "0"]);
    ok(&sandbox, &["exportTodos", "--delay-ms", "0"]);
    sandbox
        .devtools(&["waitFor", "--args", "{}"])
        .assert_code(1)
        .assert_stderr_contains("error: wait-for: missing argument `<selector>`\n");
    sandbox.devtools(&["exportTodoz"]).assert_code(1);
    let lines = |path: &std::path::Path| -> Vec<serde_json::Value> {
        std::fs::read_to_string(path)
            .expect("a usage log")
            .lines()
            .map(|line| serde_json::from_str(line).expect("a record"))
            .collect()
    };
    let told = |r: &serde_json::Value| {
        format!(
            "{} ({}) {} {}",
            r["verb"].as_str().unwrap_or("-"),
            r["kind"].as_str().unwrap_or("-"),
            r["tool"].as_str().unwrap_or("-"),
            r["outcome"].as_str().unwrap_or("-")
        )
    };
    let mine: Vec<String> = lines(&sandbox.usage_log()).iter().map(told).collect();
    assert_eq!(
        mine,
        [
            "export-todos (derived) exportTodos ok",
            "export-todos (derived) exportTodos ok",
            "wait-for (derived) waitFor usage-error",
            "exportTodoz (unknown) - usage-error",
        ]
    );
    // The session was told the same name in `_meta`.
    let theirs: Vec<String> = lines(&served).iter().map(told).collect();
    assert_eq!(
        theirs,
        [
            "export-todos (derived) exportTodos ok",
            "export-todos (derived) exportTodos ok",
        ]
    );
    let report = sandbox.devtools(&["usage", "report", "--json"]);
    report.assert_code(0);
    let report = report.json();
    let rows: Vec<String> = report["verbs"]
        .as_array()
        .expect("verbs")
        .iter()
        .map(|r| format!("{} ({}) {}", r["name"], r["kind"], r["calls"]))
        .collect();
    assert_eq!(
        rows,
        [
            r#""export-todos" ("derived") 2"#,
            r#""wait-for" ("derived") 1"#
        ]
    );
    assert_eq!(report["unknownVerbs"][0]["verb"], "exportTodoz", "{report}");
}

/// `--out FILE` after a derived verb writes the result's media, in the one call, and
/// prints what the verb prints without it with the file's `path` and `bytes` added: the
/// screenshot's PNG to the file, its structured content with where it went (review R1
/// L6: it printed the whole result, so `overview --out x.png | jq .active` was null where
/// `overview | jq .active` was not); a directory that does not exist is refused before
/// anything is sent.
#[test]
fn a_derived_verb_writes_its_results_media_with_out() {
    let (sandbox, _app) = Sandbox::with_app();
    let help = sandbox.devtools(&["screenshot", "--help"]);
    assert!(
        help.assert_code(0).stdout.contains(&format!("\n{OUT}")),
        "{help}"
    );
    let shot = sandbox.root().join("shot.png");
    let path = shot.display().to_string();
    let out = sandbox.devtools(&["screenshot", "--window", "main", "--out", &path]);
    let png = std::fs::read(&shot).expect("the screenshot written");
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    // Nothing was left out: the text block repeats the structured content, the image
    // is in the file.
    out.assert_quiet_success().assert_stdout_is(format!(
        "{{\"width\":640,\"height\":480,\"window\":\"main\",\"selector\":null,\"chrome\":false,\
         \"mimeType\":\"image/png\",\"path\":\"{path}\",\"bytes\":{}}}\n",
        png.len()
    ));
    // `overview`'s text block is left out as it is without `--out`, and said so; its
    // image is not: it is in the file.
    let view = sandbox.root().join("view.png");
    let path = view.display().to_string();
    let without = sandbox.devtools(&["overview"]);
    let with = sandbox.devtools(&["overview", "--out", &path]);
    let png = std::fs::read(&view).expect("the overview's image written");
    let mut expected = without.assert_code(0).json();
    expected["path"] = json!(path);
    expected["bytes"] = json!(png.len());
    with.assert_code(0)
        .assert_stdout_is(format!("{expected}\n"))
        .assert_stderr_is(format!(
            "note: the result has 1 more content block (text) than the structured content \
             printed; `mur devtools call overview --out {path}` prints the whole result\n",
        ));
    // The command the note names prints the text left out, not the image's base64 (10 KB
    // of it without `--out`, user audit AU8 6).
    let whole = sandbox.devtools(&["call", "overview", "--out", &path]);
    whole.assert_quiet_success();
    let result = whole.json();
    assert!(
        result["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("The main window shows"))
            && result["content"][1]["path"] == json!(path)
            && !whole.stdout.contains("iVBOR"),
        "{whole}"
    );
    let nowhere = sandbox.root().join("no/such/dir/shot.png");
    sandbox
        .devtools(&["screenshot", "--out", &nowhere.display().to_string()])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: cannot write `{}`: the directory `{}` does not exist (nothing was sent)\n\
             hint: name a file that can be written, in a directory that exists\n",
            nowhere.display(),
            nowhere.parent().expect("dir").display()
        ));
    sandbox
        .devtools(&["screenshot", "--out"])
        .assert_code(1)
        .assert_stderr_starts_with("error: screenshot: `--out <FILE>` needs a value\n");
}

/// A derived verb's `--out=` (empty) is refused before the call, as `call --out ''`
/// is; a tool with an `out` of its own keeps `--out`, so the note names `call`'s.
#[test]
fn an_empty_out_is_refused_before_the_call_and_a_tools_own_out_is_its_own() {
    let sb = Sandbox::new();
    let tools = json!([
        { "name": "shot", "inputSchema": { "type": "object",
          "properties": { "window": { "type": "string" } } } },
        { "name": "export", "inputSchema": { "type": "object",
          "properties": { "out": { "type": "string" } } } }
    ]);
    let image = json!({ "type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo=" });
    let server = Stub::with_tools(tools, move |params| {
        let got = json!({ "got": params["arguments"] });
        Ok(json!({ "content": [image.clone()], "structuredContent": got }))
    });
    let endpoint = server.endpoint();
    let devtools = devtools_at(&sb, &server);
    let calls = || server.tool_calls();
    for empty in [&["shot", "--out="][..], &["shot", "--out", ""]] {
        devtools(empty).assert_code(1).assert_stderr_starts_with(
            "error: shot: `--out <FILE>` needs a value (it was given empty)\n",
        );
    }
    assert_eq!(calls(), 0, "nothing was sent");

    let own = devtools(&["export", "--out", "x.csv"]);
    own.assert_code(0);
    assert_eq!(own.json()["got"], json!({ "out": "x.csv" }), "{own}");
    assert_eq!(
        own.stderr,
        format!(
            "note: the result has 1 more content block (image) than the structured content \
             printed; `mur devtools --endpoint {endpoint} call export --args '{{\"out\":\"x.csv\"}}' \
             --out FILE` prints the whole result and writes its media to FILE\n"
        )
    );
    assert!(
        !sb.root().join("x.csv").exists(),
        "the tool's argument, no file of mur's"
    );
}

/// `--out` writes the media, and stdout does not carry its bytes a second time: a copy
/// of the image in `structuredContent` — server-filesystem's `read_media_file` returns
/// it both as a content block and there — is replaced by its `path` and `bytes` as the
/// block is, after a derived verb and `call` alike. Before, the whole base64 was printed.
/// The derived verb prints what it prints without `--out`, the structured content, and
/// `call` the whole result.
#[test]
fn out_leaves_no_copy_of_the_media_in_the_structured_content() {
    let sb = Sandbox::new();
    let tools = json!([
        { "name": "read_media_file", "inputSchema": { "type": "object",
          "properties": { "path": { "type": "string" } }, "required": ["path"] } }
    ]);
    let server = Stub::with_tools(tools, |_| {
        let image = json!({ "type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png" });
        Ok(json!({ "content": [image], "structuredContent": { "content": [image] } }))
    });
    let endpoint = server.endpoint();
    let got = sb.root().join("got.png");
    let got = got.display().to_string();
    let block = format!(r#"{{"type":"image","mimeType":"image/png","path":"{got}","bytes":8}}"#);
    let printed = format!(r#"{{"content":[{block}],"structuredContent":{{"content":[{block}]}}}}"#);
    let derived = ["read-media-file", "--path", "/srv/img.png", "--out", &got];
    let call = [
        "call",
        "read_media_file",
        "--args",
        r#"{"path":"/srv/img.png"}"#,
        "--out",
        &got,
    ];
    let structured = format!(r#"{{"content":[{block}]}}"#);
    for (words, printed) in [(&derived[..], &structured), (&call[..], &printed)] {
        let out = sb.devtools_at(&endpoint, words);
        out.assert_quiet_success()
            .assert_stdout_is(format!("{printed}\n"));
        assert_eq!(
            std::fs::read(&got).expect("the image written"),
            b"\x89PNG\r\n\x1a\n",
            "{out}"
        );
    }
    // Without `--out` the structured content printed holds the image: no note says one
    // was left out (it said "1 more content block (image)").
    let out = sb.devtools_at(&endpoint, &["read-media-file", "--path", "/srv/img.png"]);
    out.assert_quiet_success().assert_stdout_is(
        r#"{"content":[{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}"#.to_owned()
            + "\n",
    );
}

/// A derived verb's `--out` prints a lone resource block as `call --out` does, the file's
/// `path` and `bytes` in the block (review 508, 10: server-everything's
/// `gzip-file-as-resource` had them beside `content`, `call --out`'s in the block).
#[test]
fn out_says_where_a_lone_resource_went_as_call_out_does() {
    let sb = Sandbox::new();
    let tools = json!([
        { "name": "gzip-file-as-resource", "inputSchema": { "type": "object",
          "properties": { "name": { "type": "string" } } } }
    ]);
    let server = Stub::with_tools(tools, |_| {
        Ok(json!({ "content": [{ "type": "resource", "resource": {
            "uri": "demo://resource/a.gz", "mimeType": "application/gzip", "blob": "H4sI" } }] }))
    });
    let endpoint = server.endpoint();
    let (derived, called) = (sb.root().join("d.gz"), sb.root().join("c.gz"));
    let (derived, called) = (derived.display().to_string(), called.display().to_string());
    let printed = |path: &str| {
        format!(
            "{{\"content\":[{{\"type\":\"resource\",\"resource\":{{\"uri\":\"demo://resource/a.gz\",\
             \"mimeType\":\"application/gzip\",\"path\":\"{path}\",\"bytes\":3}}}}]}}\n"
        )
    };
    let words = ["gzip-file-as-resource", "--name", "a", "--out", &derived];
    sb.devtools_at(&endpoint, &words)
        .assert_quiet_success()
        .assert_stdout_is(printed(&derived));
    let call = [
        "call",
        "gzip-file-as-resource",
        "--args",
        r#"{"name":"a"}"#,
        "--out",
        &called,
    ];
    sb.devtools_at(&endpoint, &call)
        .assert_quiet_success()
        .assert_stdout_is(printed(&called));
    for file in [&derived, &called] {
        assert_eq!(
            std::fs::read(file).expect("written"),
            b"\x1f\x8b\x08",
            "{file}"
        );
    }
}

/// A lone word that begins with `@` is what its option makes of it (review 604, 1):
/// `echo @@alice` sends `@alice`, as `--message @@alice` does, and a selector, which
/// reads no file, keeps its `@`. A word its option would read a file for (`echo @alice`)
/// is refused naming both the file and the text: a lone word is never read, as it may be
/// either (review 508, 2: `echo '@alice hi'` was told `--message '@alice hi'`, which
/// read file `alice hi` and failed). An `@FILE` that names no file says how its text is
/// sent as it is.
#[test]
fn a_lone_word_that_begins_with_at_is_what_its_option_makes_of_it() {
    let sb = Sandbox::new();
    let tools = json!([
        { "name": "echo", "inputSchema": { "type": "object", "required": ["message"],
            "properties": { "message": { "type": "string" } } } },
        { "name": "find", "inputSchema": { "type": "object", "required": ["selector"],
            "properties": { "selector": { "type": "string" } } } }
    ]);
    let server = Stub::echoing_arguments(tools);
    let devtools = devtools_at(&sb, &server);
    let endpoint = server.endpoint();
    let hint = |verb: &str| {
        format!("hint: `mur devtools --endpoint {endpoint} {verb} --help` shows its usage\n")
    };
    let calls = server.tool_calls();
    // A file of that name is there: the lone word still reads none of it.
    let file = sb.root().join("alice hi");
    std::fs::write(&file, "the file").expect("write");
    let file = file.display().to_string();
    let at = format!("@{file}");
    devtools(&["echo", &at])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: echo: unexpected argument `{at}`: a lone word reads no file; did you mean \
             `--message '{at}'` (reads file `{file}`) or `--message '@{at}'` (the text \
             `{at}`)?\n{}",
            hint("echo")
        ));
    assert_eq!(server.tool_calls(), calls, "nothing sent for a refusal");
    // Each command the refusal names sends what it says.
    let text = format!("@{at}");
    for (words, sent) in [
        (&["echo", "--message", &at][..], "the file"),
        (&["echo", "--message", &text], at.as_str()),
    ] {
        let named = devtools(words);
        named.assert_quiet_success();
        assert_eq!(named.json(), json!({ "message": sent }), "{words:?}");
    }
    // A lone word sends what its option sends.
    for (lone, option) in [("@@alice", "@@alice"), ("@@-", "@@-")] {
        for words in [&["echo", lone][..], &["echo", "--message", option]] {
            let out = devtools(words);
            out.assert_quiet_success();
            assert_eq!(out.json(), json!({ "message": &lone[1..] }), "{words:?}");
        }
    }
    for words in [&["find", "@x"][..], &["find", "--selector", "@x"]] {
        let out = devtools(words);
        out.assert_quiet_success();
        assert_eq!(out.json(), json!({ "selector": "@x" }), "{words:?}");
    }
    let calls = server.tool_calls();
    let missing = devtools(&["echo", "--message", "@types/node"]);
    missing.assert_code(1);
    assert_eq!(
        missing.stderr.lines().next(),
        Some(
            "error: echo: `--message`: `types/node` cannot be read: no such file (`@FILE` reads \
             a file; `--message @@types/node` sends the text `@types/node`)"
        ),
        "{missing}"
    );
    assert_eq!(server.tool_calls(), calls, "nothing sent for a refusal");
}

/// `mur devtools --endpoint ENDPOINT WORDS…` in `sb`.
/// With `--pretty` (for people), a derived verb's prose result — a text that is no JSON,
/// or the `{"result": "…"}` the Python SDK wraps a returned string in — prints as its
/// lines, its control characters escaped; without it, as the JSON string it is. It was
/// one JSON string of `\n` escapes either way.
#[test]
fn a_prose_result_reads_as_text_with_pretty_and_as_json_without() {
    let sb = Sandbox::new();
    let tools = serde_json::json!([
        { "name": "poem", "inputSchema": { "type": "object" } },
        { "name": "wrapped", "inputSchema": { "type": "object" } },
    ]);
    let server = Stub::with_tools(tools, |params| {
        let text = "line \"one\"\nline two \u{1b}[31m\n";
        Ok(match params["name"].as_str() {
            Some("poem") => serde_json::json!({ "content": [{ "type": "text", "text": text }] }),
            _ => serde_json::json!({
                "content": [{ "type": "text", "text": text }],
                "structuredContent": { "result": text },
            }),
        })
    });
    let endpoint = server.endpoint();
    for verb in ["poem", "wrapped"] {
        sb.devtools_at(&endpoint, &["--pretty", verb])
            .assert_code(0)
            .assert_stdout_is("line \"one\"\nline two \\x1b[31m\n");
    }
    sb.devtools_at(&endpoint, &["poem"])
        .assert_code(0)
        .assert_stdout_is("\"line \\\"one\\\"\\nline two \\u001b[31m\\n\"\n");
    sb.devtools_at(&endpoint, &["wrapped"])
        .assert_code(0)
        .assert_stdout_is("{\"result\":\"line \\\"one\\\"\\nline two \\u001b[31m\\n\"}\n");
}

/// [`Sandbox::devtools_at`] of `server`, as a function of the words.
fn devtools_at<'a>(sb: &'a Sandbox, server: &Stub) -> impl Fn(&[&str]) -> Output + 'a {
    let endpoint = server.endpoint();
    move |words| sb.devtools_at(&endpoint, words)
}

/// The verb `name` that a `catalog --json` output lists (panics, showing the output,
/// when it lists none).
fn catalog_verb(catalog: &Output, name: &str) -> serde_json::Value {
    catalog.json()["verbs"]
        .as_array()
        .and_then(|verbs| verbs.iter().find(|v| v["name"] == name).cloned())
        .unwrap_or_else(|| panic!("no verb `{name}` in the catalog\n{catalog}"))
}

/// A schema that is a graph, not a tree, served for real: an `anyOf` of ten `$ref`s to
/// itself, each hop branched ten ways (`--help`, `catalog` and every <Tab> of its
/// session took minutes, exponential in the hops). It costs at most what its size
/// does: this test ends, and the verb still takes JSON.
#[test]
fn a_union_of_references_to_itself_costs_no_more_than_its_size() {
    let sb = Sandbox::new();
    let blow: Vec<serde_json::Value> = (0..10).map(|_| json!({ "$ref": "#/$defs/A" })).collect();
    let tools = json!([
        { "name": "blow", "inputSchema": { "type": "object",
            "$defs": { "A": { "anyOf": blow } }, "properties": { "a": { "$ref": "#/$defs/A" } } } },
        { "name": "plain", "inputSchema": { "type": "object",
            "properties": { "s": { "type": "string" } } } }
    ]);
    let server = Stub::echoing_arguments(tools);
    let endpoint = server.endpoint();
    let devtools = devtools_at(&sb, &server);
    let help = devtools(&["blow", "--help"]);
    help.assert_code(0);
    assert_eq!(help.stdout_lines("  --a "), ["  --a JSON"]);
    let catalog = devtools(&["catalog", "--json"]);
    catalog.assert_code(0);
    let derived = catalog.json()["verbs"]
        .as_array()
        .expect("verbs")
        .iter()
        .filter(|v| v["kind"] == "derived")
        .count();
    assert_eq!(derived, 2);
    devtools(&["catalog"]).assert_code(0);
    let called = devtools(&["blow", "--a", "[1]"]);
    called.assert_code(0);
    assert_eq!(called.json(), json!({ "a": [1] }));
    // Completion builds every verb of the session, at every <Tab>.
    let options = sb.complete(
        "fish",
        &["devtools", "--endpoint", &endpoint, "plain", "--"],
    );
    assert!(options.stdout.contains("--s\t"), "{options}");
}

/// 2,000 properties each `{"$ref": "#"}` (a recursive schema), served for real: the
/// root was copied at every hop of every property's walks, quadratic in the
/// properties (300 took `catalog` two minutes). Now each costs at most what its size
/// does: this test ends, and the first options still show their shape.
#[test]
fn properties_that_refer_to_the_root_cost_no_more_than_their_size() {
    let sb = Sandbox::new();
    let roots: serde_json::Map<String, serde_json::Value> = (0..2000)
        .map(|i| (format!("p{i}"), json!({ "$ref": "#" })))
        .collect();
    let tools =
        json!([{ "name": "rootref", "inputSchema": { "type": "object", "properties": roots } }]);
    let server = Stub::echoing_arguments(tools);
    let devtools = devtools_at(&sb, &server);
    let help = devtools(&["rootref", "--help"]);
    help.assert_code(0);
    let p0 = help.stdout_lines("  --p0 ");
    assert!(
        p0.len() == 1 && p0[0].contains(" {p0?: {p0?: {"),
        "the shape of the root, as deep as shapes go: {p0:?}"
    );
    devtools(&["catalog", "--json"]).assert_code(0);
    let called = devtools(&["rootref", "--p7", r#"{"p1":{}}"#]);
    called.assert_code(0);
    assert_eq!(called.json(), json!({ "p7": { "p1": {} } }));
}

/// A schema's words are data, not a layout: an `enum` of 100,000 choices (a list's
/// items' too) and a property named with 100,000 characters once panicked the help's
/// padding (exit 101), taking `--help` and `catalog` away from every tool of the
/// session, and put every choice on the usage line. Now the help names a few choices
/// and how many there are, cuts a long label, and `catalog --json` lists them all.
#[test]
fn a_tool_of_100000_choices_or_a_100000_character_name_has_a_bounded_help() {
    let sb = Sandbox::new();
    let choices: Vec<String> = (0..100_000).map(|i| format!("v{i}")).collect();
    let long = "n".repeat(100_000);
    let tools = json!([
        { "name": "big", "inputSchema": { "type": "object", "properties": {
            "e": { "enum": choices },
            "le": { "type": "array", "items": { "enum": (0..100_000).collect::<Vec<u32>>() } },
            long.clone(): { "type": "string" } } } },
        { "name": "plain", "inputSchema": { "type": "object",
            "properties": { "s": { "type": "string" } } } }
    ]);
    let server = Stub::echoing_arguments(tools);
    let devtools = devtools_at(&sb, &server);
    let help = devtools(&["big", "--help"]);
    help.assert_code(0);
    assert!(help.stdout.len() < 4_000, "{}", help.stdout.len());
    assert_eq!(
        help.stdout.lines().next(),
        Some(
            format!(
                "Usage: mur devtools big [<{}…>] [--e CHOICE] [--le CHOICE]... [--args JSON]",
                &long[..80]
            )
            .as_str()
        )
    );
    assert_eq!(
        help.stdout_lines("  --e "),
        ["  --e CHOICE   (one of: v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, …"]
    );
    assert!(
        help.stdout
            .contains("v11, …\n               100000 choices; `catalog --json` lists them)\n"),
        "{help}"
    );
    let catalog = devtools(&["catalog", "--json"]);
    catalog.assert_code(0);
    let big = catalog_verb(&catalog, "big");
    assert_eq!(
        big["options"][0]["choices"].as_array().map(Vec::len),
        Some(100_000)
    );
    assert!(
        big["usage"].as_str().is_some_and(|u| u.len() < 200),
        "{}",
        big["usage"]
    );
    devtools(&["catalog"]).assert_code(0);
    // The list's choices are numbers (no `type` says so): `7` is the choice 7.
    let called = devtools(&["big", "--e", "v99999", "--le", "7"]);
    called.assert_code(0);
    assert_eq!(called.json(), json!({ "e": "v99999", "le": [7] }));
}

/// A value from a pipe (`@-`, or a person typing at it) is read before the session is
/// asked anything: while mur waits on its stdin, the server has had no request. Read once
/// the tool list was in, the pooled connection idled while the pipe was slow, past the
/// 10 s a session keeps one, and the call failed as a transport error (exit 2).
#[test]
fn a_pipe_is_read_before_the_session_is_asked() {
    let sb = Sandbox::new();
    let server = Stub::echoing_arguments(ids(json!({ "values": { "type": "string" } })));
    let mut command = sb.mur_command(&[
        "devtools",
        "--endpoint",
        &server.endpoint(),
        "ids",
        "--values",
        "@-",
        "--timeout",
        "60000",
    ]);
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let (mut mur, mut stdin) = Process::spawn_with_stdin(&mut command);
    let pid = mur.pid();
    mur.wait_ready(
        "mur",
        "waiting on its stdin",
        Duration::from_secs(60),
        || waits_on_its_pipe(pid).then_some(()),
        String::new,
    );
    assert_eq!(
        server.requests().len(),
        0,
        "mur asked the session before it read its pipe"
    );
    stdin.write_all(b"hello").expect("write");
    drop(stdin);
    let out = mur.wait_output();
    out.assert_code(0);
    assert_eq!(out.json(), json!({ "values": "hello" }));
}

/// Whether the main thread of `pid` waits in the `poll` mur reads a pipe with
/// (mur_verbs' bounded read: one descriptor, a timeout; `/proc/PID/syscall`: `7 fds 0x1
/// timeout …`), not the one Rust makes at its start (three descriptors, no timeout).
/// Where the system does not say (no such file, no access), it is taken as waiting:
/// the test then checks whatever mur asked so far, which a mur that reads first passes.
fn waits_on_its_pipe(pid: u32) -> bool {
    let Ok(syscall) = std::fs::read_to_string(format!("/proc/{pid}/syscall")) else {
        return true;
    };
    let words: Vec<&str> = syscall.split_whitespace().collect();
    matches!(words.as_slice(), ["7", _, "0x1", timeout, ..] if *timeout != "0x0")
}

/// A pipe is read once: a cached schema that refuses the words has them parsed again
/// against the list as it is now, which sent `""` for a pipe read the first time. And
/// the values of one command read from files and stdin come to 4 MiB at most in all,
/// what a session takes in one request: a list option naming a file again and again,
/// or one file larger, is refused in one line, with nothing sent.
#[test]
fn values_read_from_files_are_read_once_and_bounded_in_all() {
    let sb = Sandbox::new();
    let (server, tools) = ids_changed_behind_the_cache(
        &sb,
        json!({
            "values": { "type": "string" },
            "items": { "type": "array", "items": { "type": "object" } } }),
    );
    let endpoint = server.endpoint();
    let devtools = devtools_at(&sb, &server);
    let changed = mur_e2e::run(&mut sb.shell_command(&format!(
        "mur devtools --endpoint {endpoint} ids --values @<(printf hello) --sep y"
    )));
    changed.assert_code(0);
    assert_eq!(changed.json(), json!({ "values": "hello", "sep": "y" }));
    *tools.lock().expect("tool list") = ids(json!({
        "values": { "type": "string" },
        "items": { "type": "array", "items": { "type": "object" } } }));
    devtools(&["ids", "--refresh", "--values", "1"]).assert_code(0);
    let calls = || server.tool_calls();
    let sent = calls();
    let item = sb.file("item.json", json!({ "k": "x".repeat(1 << 20) }).to_string());
    let item = format!("@{}", item.display());
    let mut words = vec!["ids"];
    for _ in 0..5 {
        words.extend(["--items", &item]);
    }
    devtools(&words).assert_code(1).assert_stderr_starts_with(
        "error: ids: `--items`: the values read from files and stdin come to more than \
         4 MiB, what a session takes in one request\n",
    );
    let big = sb.file("big.txt", "x".repeat((4 << 20) + 1));
    devtools(&["ids", "--values", &format!("@{}", big.display())])
        .assert_code(1)
        .assert_stderr_starts_with(&format!(
            "error: ids: `--values`: `{}` holds more than 4 MiB, what a session takes in one \
             request\n",
            big.display()
        ));
    assert_eq!(calls(), sent, "nothing was sent");
    // Three of them are no more than a session takes.
    let three = devtools(&words[..7]);
    three.assert_code(0);
    assert_eq!(three.json()["items"].as_array().map(Vec::len), Some(3));
}

/// A value under the 4 MiB mur reads may still make a request larger than a session
/// takes once escaped as JSON (each `"` is sent as two bytes): the session refuses it
/// (413, or it closes the connection while the body is sent, "Broken pipe"), and the
/// error says why rather than reading as a transport fault alone.
#[test]
fn a_request_larger_than_a_session_takes_says_so() {
    let (sb, app) = Sandbox::with_app();
    let quotes = sb.file("quotes.txt", "\"".repeat(3 << 20));
    // A text option's value from a file (a selector reads none): the session refuses the
    // request whole, so nothing is typed.
    let out = sb.devtools(&[
        "type",
        "--selector",
        "#count",
        "--text",
        &format!("@{}", quotes.display()),
    ]);
    // Refused with a 413: the caller's input (exit 1), its size said; the request is
    // the params and the JSON-RPC envelope around them.
    let endpoint = &app.lock.endpoint;
    let said = format!("error: `{endpoint}` refused the request of ");
    let sent: usize = (out.stderr.strip_prefix(&said))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(sent > 6291500, "{out}");
    out.assert_code(1).assert_stderr_is(format!(
        "{said}{sent} bytes as larger than it takes (HTTP 413; a session of mur's takes at \
         most 4 MiB, 4194304 bytes, in one)\n"
    ));
    // A server that closes the connection instead (not mur's): the hint says why, for a
    // named or data verb as for a derived one (RV3 4: only derived verbs and `call` did).
    let sb = mur_e2e::plugins::standard_sandbox();
    let count = mur_e2e::plugins::repo_root().join("docs/examples/count.json");
    sb.devtools(&["verbs", "add", count.to_str().expect("utf-8")])
        .assert_code(0);
    // Just under the 4 MiB mur reads from a file, the request is over what a session takes.
    let value = "x".repeat((4 << 20) - 20);
    let big = sb.file("big.json", json!({ "v": value }).to_string());
    let big = format!("@{}", big.display());
    let server = Stub::hang_up();
    let endpoint = server.endpoint();
    let fire = ["fire", "counter.set", "--args", &big];
    // A data verb's: its `--selector` reads no file, its `--args` does.
    let count = ["count", "--args", &big];
    for (argv, what, bytes) in [
        (&fire[..], "tool `fire`", 4194352),
        (&count, "`count` (tool `state`)", 4194341),
    ] {
        let out = sb.devtools(&[&["--endpoint", &endpoint][..], argv].concat());
        out.assert_code(2).assert_stderr_is(format!(
            "error: the session closed the connection during the call to {what}, before \
             answering\nhint: the request's params were {bytes} bytes as JSON, and a session \
             takes at most 4 MiB (4194304 bytes) in one request\nhint: the session was at \
             `{endpoint}`\n"
        ));
    }
}

/// A tool named in 5,000 characters (a hostile server's) no longer pads every row of a
/// table for people to its width (review R3 F12): its cell is printed whole (to the
/// 1,000 characters a cell holds) and the rest of its row goes on the next line, under
/// its columns; the other rows are as wide as their own cells. `--json` keeps it whole.
#[test]
fn a_very_long_tool_name_widens_no_column_of_a_table() {
    let sb = Sandbox::new();
    let long = "a".repeat(5_000);
    let schema = json!({ "type": "object" });
    let tools = json!([
        { "name": long, "description": "the long one", "inputSchema": schema },
        { "name": "getSum", "description": "adds", "inputSchema": schema },
    ]);
    let server = Stub::with_tools(tools, |_| Ok(json!({ "content": [] })));
    let endpoint = server.endpoint();
    let cut = format!("{}…", "a".repeat(1_000));
    let parity = sb.devtools_at(&endpoint, &["parity"]);
    parity.assert_code(1).assert_stdout_is(format!(
        "TOOL    VERB     KIND\n\
         {cut}\n        {cut}\n                 derived\n\
         getSum  get-sum  derived\n"
    ));
    let listed = sb.devtools_at(&endpoint, &["verbs", "list", "--all"]);
    listed.assert_code(0).assert_stdout_is(format!(
        "NAME     KIND     TOOL    SUMMARY\n\
         {cut}\n         derived  {cut}\n                          the long one\n\
         get-sum  derived  getSum  adds\n"
    ));
    // The catalog's rows (the host's commands among them) are as wide as before.
    let catalog = sb.devtools_at(&endpoint, &["catalog"]);
    catalog.assert_code(0);
    let wide: Vec<&str> = catalog
        .stdout
        .lines()
        .filter(|line| line.chars().count() > 200)
        .collect();
    let trimmed: Vec<&str> = wide.iter().map(|line| line.trim_start()).collect();
    assert_eq!(trimmed, [cut.clone(), format!("derived  {cut}")]);
    // The JSON has the whole name.
    let json = sb.devtools_at(&endpoint, &["catalog", "--json"]);
    let verbs = json.assert_code(0).json()["verbs"].clone();
    let tools: Vec<&str> = verbs
        .as_array()
        .expect("verbs")
        .iter()
        .filter_map(|v| v["tool"].as_str())
        .collect();
    assert!(tools.contains(&long.as_str()), "{tools:?}");
}

/// The word a derived verb takes for its one text option is shown where the option is,
/// in the standard verbs' notation (review 307, finding 12: `wait-for '#count'` ran, and
/// its usage said only `--selector S`): required, the word first (`<selector>`, as
/// `click <selector>`) and the option `the same as` it; optional, the option with its
/// help and the word `the same as` it (as `state [<selector>]`). Both forms are sent
/// alike; a selector's `@` is no file (finding 13), a text option's is.
#[test]
fn the_lone_word_of_a_derived_verb_is_in_its_usage_and_a_selector_reads_no_file() {
    let sb = Sandbox::new();
    let tools = json!([
        { "name": "find", "inputSchema": { "type": "object", "required": ["selector"],
            "properties": { "selector": { "type": "string", "description": "the element" },
                "depth": { "type": "integer" } } } },
        { "name": "note", "inputSchema": { "type": "object",
            "properties": { "body": { "type": "string", "description": "what to note" } } } }
    ]);
    let server = Stub::echoing_arguments(tools);
    let devtools = devtools_at(&sb, &server);
    devtools(&["find", "--depth", "x"])
        .assert_code(1)
        .assert_stderr_is(
            "error: find: `--depth` needs an integer, got `x`\n\n\
             Usage: mur devtools find <selector> [--depth N] [--args JSON]\n\n\
             Arguments:\n\
             \x20 <selector>  the element (required)\n\n\
             Options:\n\
             \x20 --selector S  the same as `<selector>`\n\
             \x20 --depth N\n\
             \x20 --args JSON   the whole arguments object, as JSON (`@FILE`, `-`: read from\n\
             \x20               FILE, stdin; 4 MiB at most, what a session takes in one\n\
             \x20               request); options given beside it override its fields\n\
             \x20 -h, --help    print this help\n\n",
        );
    devtools(&["note", "--bogus"])
        .assert_code(1)
        .assert_stderr_is(
            "error: note: unknown option `--bogus`; a field no option gives is sent in \
             `--args '{\"FIELD\": …}'`, under the tool's own name for it\n\n\
             Usage: mur devtools note [<body>] [--args JSON]\n\n\
             Arguments:\n\
             \x20 [<body>]  the same as `--body TEXT`\n\n\
             Options:\n\
             \x20 --body TEXT  what to note\n\
             \x20 --args JSON  the whole arguments object, as JSON (`@FILE`, `-`: read from\n\
             \x20              FILE, stdin; 4 MiB at most, what a session takes in one request);\n\
             \x20              options given beside it override its fields\n\
             \x20 -h, --help   print this help\n\n",
        );
    let file = sb.file("value.txt", "#count\n");
    let at = format!("@{}", file.display());
    for argv in [&["find", "#x"][..], &["find", "--selector", "#x"]] {
        assert_eq!(
            devtools(argv).json(),
            json!({ "selector": "#x" }),
            "{argv:?}"
        );
    }
    assert_eq!(
        devtools(&["find", "--selector", &at]).json(),
        json!({ "selector": at })
    );
    // A text option's file is read as it is (docs/verbs.md: no line end dropped).
    assert_eq!(
        devtools(&["note", "--body", &at]).json(),
        json!({ "body": "#count\n" })
    );
}

/// A data verb's required option that is also its lone word is named, when missing, as
/// its usage line shows it (`<selector>`), as a named verb's kit names it (`click:
/// missing argument `<selector>``); it said "missing option `--selector`" under a
/// usage line that shows no such option (review 314, 9).
#[test]
fn a_missing_lone_word_is_named_as_the_usage_line_shows_it() {
    let sandbox = Sandbox::new();
    let file = sandbox.root().join("w.json");
    let data = json!({ "schema": "mur-verb/1", "name": "w", "tool": "waitFor",
        "summary": "Waits", "options": [{ "field": "selector", "help": "the element",
        "required": true }] });
    std::fs::write(&file, data.to_string()).expect("write the data verb");
    sandbox
        .devtools(&["verbs", "add", file.to_str().expect("utf-8")])
        .assert_code(0);
    let _app = sandbox.start_app();
    let out = sandbox.devtools(&["w"]);
    out.assert_code(1);
    let lines: Vec<&str> = out.stderr.lines().take(3).collect();
    assert_eq!(
        lines,
        [
            "error: w: missing argument `<selector>`",
            "",
            "Usage: mur devtools w <selector> [--args JSON]"
        ],
        "{out}"
    );
}

/// A data verb whose file names a tool the session does not offer says it is the file's
/// `tool`, naming the file it was installed from and the line that installs it again,
/// or another session (review 604, 2); it said "did you mean `mur devtools call
/// state`?", which left the verb as broken as it was. Nothing but the failed call and
/// the list read to say so is sent.
#[test]
fn a_data_verb_naming_a_tool_the_session_lacks_names_its_file() {
    let sb = Sandbox::new();
    let tools = json!([
        { "name": "state", "inputSchema": { "type": "object",
            "properties": { "selector": { "type": "string" } } } }
    ]);
    let server = Stub::with_tools(tools, |params| {
        let name = params["name"].as_str().unwrap_or_default();
        match name {
            "state" => Ok(json!({ "content": [{ "type": "text", "text": "{}" }] })),
            _ => Err(json!({ "code": -32602, "message": format!("Tool {name} not found") })),
        }
    });
    let endpoint = server.endpoint();
    let add = |name: &str, tool: &str| {
        let file = sb.root().join(format!("{name} file.json"));
        let spec = json!({ "schema": "mur-verb/1", "name": name, "tool": tool, "summary": "x" });
        std::fs::write(&file, spec.to_string()).expect("write the verb");
        let file = file.display().to_string();
        sb.devtools(&["verbs", "add", &file]).assert_code(0);
        file
    };
    let catalog = format!(
        "hint: `mur devtools --endpoint {endpoint} catalog` lists the tools this session has, \
         each as a verb\n"
    );
    let elsewhere = "hint: or the verb is for another session: `mur devtools session list` \
                     lists them (`--project PATH` picks one)\n";
    let typo = add("typo", "stat");
    let refused = sb.devtools_at(&endpoint, &["typo"]);
    refused.assert_code(5).assert_stderr_is(format!(
        "error: data verb `typo`'s file names tool `stat`, which this session does not offer\n\
         hint: fix the `tool` in `{typo}` (did you mean `state`?) and install it again: \
         `mur devtools verbs add --force '{typo}'`\n\
         {elsewhere}{catalog}"
    ));
    // Nothing near: no tool is named.
    let far = add("far", "somethingElse");
    sb.devtools_at(&endpoint, &["far"])
        .assert_code(5)
        .assert_stderr_is(format!(
            "error: data verb `far`'s file names tool `somethingElse`, which this session does \
             not offer\n\
             hint: fix the `tool` in `{far}` and install it again: `mur devtools verbs add \
             --force '{far}'`\n\
             {elsewhere}{catalog}"
        ));
    // The file fixed as the hint says, the line it names installs a verb that works.
    let fixed = json!({ "schema": "mur-verb/1", "name": "typo", "tool": "state", "summary": "x" });
    std::fs::write(&typo, fixed.to_string()).expect("fix the verb");
    sb.devtools(&["verbs", "add", "--force", &typo])
        .assert_code(0);
    sb.devtools_at(&endpoint, &["typo"]).assert_quiet_success();
}

/// A choice too long for a help line is counted, not named, and a long list of choices
/// is cut after the first few (review 604, 4): one choice of 150 characters ran its
/// option's line to 170 columns, as no line break cuts a word. Every line of the help
/// is 100 columns at most, the usage line aside (a command, copied whole).
#[test]
fn a_derived_verbs_help_keeps_long_choices_within_its_column() {
    let sb = Sandbox::new();
    let many: Vec<String> = (0..30).map(|i| format!("choice-number-{i}")).collect();
    let long = "x".repeat(150);
    let server = Stub::echoing_arguments(json!([
        { "name": "pick", "description": "Pick one", "inputSchema": { "type": "object",
            "required": ["kind"], "properties": {
                "kind": { "type": "string", "enum": many,
                          "description": "the kind to pick from the list of kinds" },
                "mode": { "type": "string", "enum": [long, "short"] },
                "only": { "type": "string", "enum": [long] },
                "flavour": { "type": "string", "enum": ["a", "b"] } } } }
    ]));
    let help = devtools_at(&sb, &server)(&["pick", "--help"]);
    help.assert_code(0);
    assert_eq!(
        help.stdout,
        "Usage: mur devtools pick --kind CHOICE [--mode CHOICE] [--only CHOICE] [--flavour a|b] \
         [--args JSON]\n\
         \n\
         Pick one\n\
         \n\
         Tool `pick`.\n\
         \n\
         Options:\n\
         \x20 --kind CHOICE  the kind to pick from the list of kinds (required, one of:\n\
         \x20                choice-number-0, choice-number-1, choice-number-2,\n\
         \x20                choice-number-3, choice-number-4, choice-number-5,\n\
         \x20                choice-number-6, choice-number-7, choice-number-8,\n\
         \x20                choice-number-9, choice-number-10, … 30 choices; `catalog\n\
         \x20                --json` lists them)\n\
         \x20 --mode CHOICE  (one of: short, … 2 choices; `catalog --json` lists them)\n\
         \x20 --only CHOICE  (1 choice; `catalog --json` lists it)\n\
         \x20 --flavour a|b\n\
         \x20 --args JSON    the whole arguments object, as JSON (`@FILE`, `-`: read from\n\
         \x20                FILE, stdin; 4 MiB at most, what a session takes in one\n\
         \x20                request); options given beside it override its fields\n\
         \x20 -h, --help     print this help\n\
         \n\
         If the tool asks a question, `--answer KEY=VALUE` answers it (exit 5 names KEY).\n\
         \n\
         If the result holds images, audio or blobs, `--out FILE` writes them to files\n\
         (`shot.png`, then `shot-2.png`…) and adds each file's `path` and `bytes` to what\n\
         is printed (for several files, to the whole result, as `call --out` does).\n\
         \n\
         Host options go after the verb's name too; `mur devtools --help` lists them.\n"
    );
    for line in help.stdout.lines().skip(1) {
        assert!(line.chars().count() <= 100, "{line}");
    }
}
