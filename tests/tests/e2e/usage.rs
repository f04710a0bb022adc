//! Usage records on both surfaces: every `mur` invocation appends one line,
//! concurrent ones never interleave; a session started with `--usage-log`
//! records every call it serves, from mur or any MCP client; `usage report`
//! counts them once per side and names the losers; `verbs prune` removes
//! exactly those.

use std::path::{Path, PathBuf};

use mur_e2e::mcp;
use mur_e2e::plugins::{add, standard};
use mur_e2e::{Process, Sandbox, Session, Stub};
use serde_json::{Value, json};

/// The legend every `usage report` prints under its head: what each column's word means.
macro_rules! legend {
    () => {
        "\
(USAGE: usage errors; TOOL: the tool failed; RPC: a JSON-RPC error, no tool ran; PLUGIN: the verb
failed itself, exit 6; OTHER: no session, or mur's own failure; INTR: interrupted; P50MS, P90MS:
latency)
"
    };
}

/// The head of `usage report` over `$records` records of every agent, its times made
/// `TIME` ([`untimed`]), and its legend.
macro_rules! untimed_head {
    ($records:literal) => {
        concat!(
            $records,
            " records, TIME to TIME (every agent; usage errors above 50%
or failures of the verb's own above 20% of at least 3 calls make a loser)
",
            legend!(),
        )
    };
}

/// Days back to 2025-07-01, whatever today is: a window over the known log that reaches
/// past its first record (2025-01-01) and holds the rest (January 2026). A fixed
/// `400d` stopped doing so in February 2027.
fn days_to_mid_2025() -> u64 {
    const MID_2025: u64 = 1_751_328_000;
    (now_secs() - MID_2025) / 86_400
}

/// Now, in whole seconds since the epoch.
fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs()
}

/// That window, `NNNd`.
static WINDOW: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("{}d", days_to_mid_2025()));

/// The same window in weeks and days (`57w 1d`).
static WEEKS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let days = days_to_mid_2025();
    format!("{}w {}d", days / 7, days % 7)
});

// The one reader of a usage log the tests share, under the names this module's tests
// and others' (`crate::usage::records`) use.
pub(crate) use mur_e2e::{fields, usage_records as records};

/// The `client` of each record of the usage log at `path` (`null` where it has none).
pub(crate) fn clients(path: &Path) -> Vec<String> {
    fields(&records(path), ["client"])
        .into_iter()
        .map(|[client]| client)
        .collect()
}

/// The entries of a JSON array of the report (none when it is not one).
fn items(list: &Value) -> impl Iterator<Item = &Value> {
    list.as_array().into_iter().flatten()
}

/// The row named `name` of a report's table (`verbs`, `surfaces`, `toolsServed`…):
/// `null` when it has none.
fn row<'a>(table: &'a Value, name: &str) -> &'a Value {
    items(table)
        .find(|r| r["name"] == name)
        .unwrap_or(&Value::Null)
}

/// The `name` of each entry: the rows of a report's table, the verbs `verbs list` lists.
fn names(list: &Value) -> Vec<&str> {
    items(list).filter_map(|v| v["name"].as_str()).collect()
}

/// Every record of the sandbox's CLI log, rotated files first.
fn all_cli_records(sandbox: &Sandbox) -> Vec<Value> {
    let live = sandbox.usage_log();
    let mut all = Vec::new();
    for n in (1..=4).rev() {
        all.extend(records(&live.with_extension(format!("jsonl.{n}"))));
    }
    all.extend(records(&live));
    all
}

#[test]
fn fifty_concurrent_invocations_leave_fifty_whole_records() {
    let (sandbox, _app) = Sandbox::with_app();
    let children: Vec<_> = (0..50)
        .map(|_| {
            let mut cmd = sandbox.mur_command(&[
                "devtools",
                "call",
                "click",
                "--args",
                r##"{"selector":"#btn-inc"}"##,
            ]);
            // Small files, so the log also rotates while they write.
            cmd.env("MUR_USAGE_MAX_BYTES", "8000")
                .stdout(std::process::Stdio::null());
            Process::spawn(&mut cmd)
        })
        .collect();
    for child in children {
        assert!(child.wait_status().success());
    }
    let records = all_cli_records(&sandbox);
    assert_eq!(records.len(), 50, "one record per invocation");
    for r in &records {
        assert_eq!(r["schema"], "mur-usage/1");
        assert_eq!(
            (r["verb"].as_str(), r["kind"].as_str(), r["tool"].as_str()),
            (Some("call"), Some("call"), Some("click"))
        );
        assert_eq!(
            (r["exit"].as_u64(), r["outcome"].as_str()),
            (Some(0), Some("ok"))
        );
        assert!(r["ms"].as_f64().is_some_and(|ms| ms > 0.0), "{r}");
        assert!(
            r["phases"]["discovery"].is_f64() && r["phases"]["call"].is_f64(),
            "{r}"
        );
        assert_eq!(
            r["argv"],
            json!({ "options": ["--args"], "positionals": 1 }),
            "the shape, never the value"
        );
    }
    assert!(
        sandbox.usage_log().with_extension("jsonl.1").exists(),
        "the log rotated"
    );
    let count = sandbox.devtools(&["call", "state", "--args", r##"{"selector":"#count"}"##]);
    assert!(
        count.tool_text(0).contains("\"50\""),
        "all 50 clicks ran: {}",
        count.tool_text(0)
    );
}

#[test]
fn a_record_names_the_session_the_failure_class_and_never_a_value() {
    let (sandbox, app) = Sandbox::with_app();
    sandbox
        .devtools(&["state", "--selector", "#secret-selector"])
        .assert_code(5);
    sandbox.devtools(&["wait-for", "--bogus"]).assert_code(1);
    sandbox.devtools(&["wait-for", "--help"]).assert_code(0);
    let records = records(&sandbox.usage_log());
    assert_eq!(records.len(), 2, "help is not a call: {records:?}");
    let (state, refused) = (&records[0], &records[1]);
    let hash = app
        .lockfile
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned());
    assert_eq!(state["project"].as_str(), hash.as_deref());
    assert_eq!(
        state["buildTag"].as_str(),
        Some(app.lock.build_tag.as_str())
    );
    assert_eq!(
        (state["kind"].as_str(), state["tool"].as_str()),
        (Some("derived"), Some("state"))
    );
    assert_eq!(
        (
            state["exit"].as_u64(),
            state["class"].as_str(),
            state["outcome"].as_str()
        ),
        (Some(5), Some("tool-failed"), Some("tool-error"))
    );
    assert_eq!(
        (
            refused["exit"].as_u64(),
            refused["class"].as_str(),
            refused["outcome"].as_str()
        ),
        (Some(1), Some("usage"), Some("usage-error"))
    );
    let text = std::fs::read_to_string(sandbox.usage_log()).unwrap_or_default();
    assert!(
        !text.contains("secret"),
        "argument values stay out of the log: {text}"
    );
    assert_eq!(
        state["argv"],
        json!({ "options": ["--selector"], "positionals": 0 })
    );
}

#[test]
fn not_saying_which_session_is_meant_is_a_session_error_not_the_verbs() {
    let (sandbox, _apps) = Sandbox::with_apps(["a", "b"]);
    sandbox
        .devtools(&["state", "--selector", "#count"])
        .assert_code(1);
    sandbox
        .devtools(&["--endpoint", "http://example.com/mcp", "call", "ping"])
        .assert_code(1);
    // Chosen, the session's tool refuses the argv: that is the verb's.
    let a = sandbox.project("a");
    let a = a.to_str().expect("utf-8");
    sandbox
        .devtools(&["--project", a, "state", "--bogus"])
        .assert_code(1);
    let records = records(&sandbox.usage_log());
    assert_eq!(
        fields(&records, ["verb", "exit", "outcome"]),
        [
            ["state", "1", "session-error"],
            ["call", "1", "session-error"],
            ["state", "1", "usage-error"],
        ]
    );
}

#[test]
fn parity_naming_a_tool_without_a_named_verb_is_its_answer_not_a_usage_error() {
    let (sandbox, _app) = Sandbox::with_app();
    // No verb installed: every tool lacks a named one, which exit 1 says.
    sandbox.devtools(&["parity"]).assert_code(1);
    let records = records(&sandbox.usage_log());
    assert_eq!(
        fields(&records, ["verb", "kind", "exit", "class", "outcome"]),
        [["parity", "host", "1", "usage", "ok"]]
    );
    let report = sandbox.devtools(&["usage", "report", "--json"]).json();
    let parity: Vec<[&Value; 3]> = items(&report["verbs"])
        .filter(|r| r["name"] == "parity")
        .map(|r| [&r["calls"], &r["ok"], &r["usageErrors"]])
        .collect();
    assert_eq!(parity, [[&json!(1), &json!(1), &json!(0)]]);
}

#[test]
fn a_verb_that_does_not_exist_is_recorded_as_asked_for_and_an_unknown_tool_as_refused() {
    let (sandbox, _app) = Sandbox::with_app();
    let asked = sandbox.devtools(&["get-text", "--selector", "#count"]);
    asked.assert_code(1);
    // The session's tools were read: no `call get-text` hint, it would be refused too.
    assert_eq!(
        asked.stderr,
        "error: unknown verb `get-text`\n\
         hint: `mur devtools catalog` lists every verb: the installed ones, mur's own, and one per tool of the session\n"
    );
    sandbox.devtools(&["call", "get-text"]).assert_code(5);
    let records = records(&sandbox.usage_log());
    assert_eq!(
        fields(&records, ["verb", "kind", "outcome"]),
        [
            ["get-text", "unknown", "usage-error"],
            ["call", "call", "rpc-error"],
        ]
    );
    let report = sandbox.devtools(&["usage", "report", "--json"]).json();
    assert_eq!(
        report["unknownVerbs"],
        json!([{ "verb": "get-text", "kind": "unknown", "options": ["--selector"],
                 "positionals": 0, "times": 1, "last": records[0]["time"] }])
    );
    assert_eq!(report["refused"], json!([]));
    assert_eq!(
        names(&report["verbs"]),
        ["call"],
        "a verb that does not exist never ran"
    );
    assert_eq!(report["toolsWithoutNamedCalls"], json!([]));
}

/// A call that found no session never read its verb's options (a derived verb's come
/// from the session's tool list): the word after an option is recorded as its value,
/// not as a positional (`#x` was one), and a host flag's next word still as one.
#[test]
fn an_option_of_a_call_that_found_no_session_keeps_its_value() {
    let sandbox = Sandbox::new();
    sandbox
        .devtools(&["click", "--selector", "#x"])
        .assert_code(4);
    sandbox
        .devtools(&["click", "--pretty", "#x", "--depth", "3", "--", "#y"])
        .assert_code(4);
    let records = records(&sandbox.usage_log());
    let argv: Vec<&Value> = records.iter().map(|r| &r["argv"]).collect();
    assert_eq!(
        argv,
        [
            &json!({ "options": ["--selector"], "positionals": 0 }),
            &json!({ "options": ["--pretty", "--depth"], "positionals": 2 }),
        ]
    );
}

/// A word in the verb's place that no verb could be named — a value typed where the
/// verb goes — is recorded as `WORD`, never as typed, nor printed by the report;
/// with `usage on --with-values`, as typed.
#[test]
fn a_value_typed_in_the_verbs_place_is_never_recorded() {
    let (sandbox, _app) = Sandbox::with_app();
    for word in ["sk-live-SECRET123", "#email", "hello world typed text"] {
        sandbox.devtools(&[word]).assert_code(1);
    }
    let log = std::fs::read_to_string(sandbox.usage_log()).expect("the log");
    for word in ["SECRET", "email", "hello"] {
        assert!(!log.contains(word), "{word} recorded: {log}");
    }
    let recorded = records(&sandbox.usage_log());
    assert_eq!(
        fields(&recorded, ["verb", "kind"]),
        [
            ["WORD", "unknown"],
            ["WORD", "unknown"],
            ["WORD", "unknown"]
        ]
    );
    let report = sandbox.devtools(&["usage", "report"]);
    report.assert_code(0);
    assert!(!report.stdout.contains("SECRET"), "{report}");
    sandbox
        .devtools(&["usage", "on", "--with-values"])
        .assert_code(0);
    sandbox.devtools(&["#email"]).assert_code(1);
    let last = records(&sandbox.usage_log()).pop();
    assert_eq!(last.map(|r| r["verb"].clone()), Some(json!("#email")));
}

/// A name typed to `call` is recorded by the rule of the word typed in the verb's place:
/// as typed when a tool could be named so (`get-text`: a tool an agent reached for that
/// does not exist, listed as the session side lists `getText`), else `WORD` (audit 56 #1:
/// a JSON object of a password, and a name of 120,000 characters, were recorded whole and
/// printed by the report). The report counts the `WORD` calls in one row named for what
/// they are (it was a row `WORD`). A name the session's HTTP refused (431: too long for
/// its `Mcp-Name` header) reached no tool, so it is none a named verb is owed (audit 56
/// #2: it was listed). Kept `--with-values`, each word is cut as a name is.
#[test]
fn a_name_typed_to_call_is_recorded_only_as_a_tool_could_be_named() {
    let (sandbox, _app) = Sandbox::with_app();
    // A named verb installed: the report lists the tools none reached.
    add_data_verb(&sandbox, "greet", "zzz");
    for name in [r#"{"password":"hunter2"}"#, "get-text"] {
        sandbox.devtools(&["call", name]).assert_code(5);
    }
    let long = "b".repeat(120_000);
    sandbox.devtools(&["call", &long]).assert_code(1);
    sandbox.devtools(&["call", "state"]).assert_code(0);
    let log = std::fs::read_to_string(sandbox.usage_log()).expect("the log");
    assert!(
        !log.contains("hunter2") && !log.contains("bbb") && log.len() < 3000,
        "{log}"
    );
    let mut recorded = records(&sandbox.usage_log());
    assert_eq!(
        fields(&recorded, ["verb", "tool", "outcome", "exit"]),
        [
            ["call", "WORD", "rpc-error", "5"],
            ["call", "get-text", "rpc-error", "5"],
            ["call", "WORD", "usage-error", "1"],
            ["call", "state", "ok", "0"],
        ]
    );
    // The durations made known, the report is what an operator reads.
    for record in &mut recorded {
        record["ms"] = json!(2.0);
    }
    write_log(&sandbox, &recorded);
    let out = quiet_report(&sandbox);
    let row = |figures: &str| format!("{figures}  TIME");
    assert_eq!(
        untimed(&out.stdout),
        format!(
            concat!(
                untimed_head!(4),
                "
verbs (as mur ran them):
VERB         CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
call (call)  {}

surfaces, as mur ran them (by verb kind):
SURFACE   CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
cli/call  {}

tools called by mur:
TOOL                CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
(not a known tool)  {}
get-text            {}
state               {}
(`(not a known tool)` counts the calls of names no tool of the session has and none could be named
(a value typed or sent where a tool's name goes), which a record never keeps; a name shaped like a
tool's is a row of its own even when no tool has it)

argv the verbs refused (usage errors by shape; WORD: a word not an option):
ARGV       TIMES  LAST
call WORD  1      TIME

tools no named verb reached: state, zzz

losers: none
  (no verb was judged unused: the records read do not go back to TIME)
"
            ),
            row("4      1   1      0     2    0       0      0     2      2    "),
            row("4      1   1      0     2    0       0      0     2      2    "),
            row("1      0   0      0     1    0       0      0     2      2    "),
            row("1      0   0      0     1    0       0      0     2      2    "),
            row("1      1   0      0     0    0       0      0     2      2    "),
        ),
        "{out}"
    );
    let json = sandbox.devtools(&["usage", "report", "--json"]).json();
    assert_eq!(json["toolsWithoutNamedCalls"], json!(["state", "zzz"]));
    // Kept `--with-values`: as typed, cut to 200 characters as a session cuts a name,
    // and so is each word of the argv.
    sandbox
        .devtools(&["usage", "on", "--with-values"])
        .assert_code(0);
    sandbox.devtools(&["call", &long]).assert_code(1);
    let last = records(&sandbox.usage_log()).pop().unwrap_or_default();
    let cut = json!(format!("{}…", "b".repeat(200)));
    assert_eq!(
        (&last["tool"], &last["argv"]["words"]),
        (&cut, &json!([cut]))
    );
}

/// A tool of the session's list is recorded as itself, whatever its shape: when the
/// session answered the call as the tool's, or its tool list as cached names it; not a
/// name the session answered with an error before any list was read.
#[test]
fn a_tool_the_session_has_is_recorded_as_itself_whatever_its_shape() {
    let sandbox = Sandbox::new();
    let tools = json!([{ "name": "fs.read_v2", "inputSchema": { "type": "object" } }]);
    let server = Stub::with_tools(tools, |params| {
        if params["arguments"]["path"].is_string() {
            Ok(json!({ "content": [{ "type": "text", "text": "read" }] }))
        } else {
            Err(json!({ "code": -32602, "message": "invalid arguments: `path` is required" }))
        }
    });
    let endpoint = server.endpoint();
    let devtools = |words: &[&str]| sandbox.devtools_at(&endpoint, words);
    devtools(&["call", "fs.read_v2", "--args", r#"{"path":"a"}"#]).assert_code(0);
    devtools(&["call", "fs.read_v2"]).assert_code(5);
    // The tool list read (and cached): the name is the session's tool's.
    devtools(&["catalog"]).assert_code(0);
    devtools(&["call", "fs.read_v2"]).assert_code(5);
    let calls: Vec<Value> = records(&sandbox.usage_log())
        .into_iter()
        .filter(|r| r["verb"] == "call")
        .collect();
    assert_eq!(
        fields(&calls, ["tool", "outcome"]),
        [
            ["fs.read_v2", "ok"],
            ["WORD", "rpc-error"],
            ["fs.read_v2", "rpc-error"],
        ]
    );
}

#[test]
fn usage_off_records_nothing_and_a_log_that_cannot_be_written_changes_nothing() {
    let (sandbox, _app) = Sandbox::with_app();
    // It says what it turns off: mur's records, not a session's (audit 57 #11: "nothing
    // is recorded", while a session that records went on recording mur's calls).
    sandbox
        .devtools(&["usage", "off"])
        .assert_code(0)
        .assert_stderr_is(
            "usage recording is off: mur records no call until `usage on`; a session that \
         records usage still records the calls it serves, mur's among them\n",
        );
    sandbox.devtools(&["call", "version"]).assert_code(0);
    assert!(!sandbox.usage_log().exists(), "nothing recorded while off");
    let path = sandbox.devtools(&["usage", "path"]);
    path.assert_code(0)
        .assert_stderr_contains("usage recording is off");
    assert_eq!(
        path.stdout.trim_end(),
        sandbox.usage_log().display().to_string()
    );
    sandbox.devtools(&["usage", "on"]).assert_code(0);
    let recorded = sandbox.devtools(&["call", "version"]);
    recorded.assert_quiet_success();
    // The log's place is taken by a directory: appending fails, the call does not. It
    // is said at once, `-q` or not (audit 307 #26: only `-v` said it, and the operator
    // learnt it at `usage report`, exit 7): one line, naming the log and why; stdout and
    // the exit code are the call's.
    let log = sandbox.usage_log();
    std::fs::remove_file(&log).expect("rm");
    std::fs::create_dir(&log).expect("mkdir");
    let lost = format!(
        "warning: cannot write the usage log `{}`: Is a directory (os error 21); this call \
         is not recorded\n",
        log.display()
    );
    for args in [&["call", "version"][..], &["-q", "call", "version"]] {
        let out = sandbox.devtools(args);
        out.assert_code(0)
            .assert_stdout_is(&recorded.stdout)
            .assert_stderr_is(&lost);
    }
    // A call that fails keeps its exit code and says its own error first.
    let failed = sandbox.devtools(&["call", "nope"]);
    failed.assert_code(5);
    assert!(
        failed.stderr.starts_with("error: ") && failed.stderr.ends_with(&lost),
        "{failed}"
    );
    assert_eq!(failed.stderr.matches("warning:").count(), 1, "{failed}");
}

/// A record written to a log that then cannot be rotated is not lost, and is not said
/// to be: the warning says the log grows past its limit.
#[test]
fn a_log_that_cannot_be_rotated_keeps_the_record_and_says_it_grows() {
    let sandbox = Sandbox::new();
    let log = sandbox.usage_log();
    std::fs::create_dir_all(log.with_extension("lock")).expect("mkdir");
    let mut clean = sandbox.mur_command(&["devtools", "session", "clean"]);
    clean.env("MUR_USAGE_MAX_BYTES", "1");
    mur_e2e::run(&mut clean)
        .assert_code(0)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "removed 0 stale entries\nwarning: cannot rotate the usage log `{}`: Is a \
             directory (os error 21); it grows past its limit\n",
            log.display()
        ));
    assert_eq!(records(&log).len(), 1);
}

/// `XDG_STATE_HOME` set to a file (audit 47 #8): every command that reads the usage log
/// (`usage …`, `verbs prune`) says so, as `verbs` commands say it of `XDG_DATA_HOME`;
/// `usage report` read no log and said "0 records", exit 0, and `usage path` printed a
/// path under the file.
#[test]
fn a_state_home_that_is_a_file_is_said_to_be_one() {
    // `verbs prune` reads the usage log as `usage report` does: it read nothing and
    // said "note: no verb to prune", exit 0.
    Sandbox::new().assert_home_file_refused(
        "XDG_STATE_HOME",
        "usage log",
        "mur/usage",
        &[
            &["usage", "report"],
            &["usage", "path"],
            &["usage", "off"],
            &["usage", "on"],
            &["verbs", "prune"],
            &["verbs", "prune", "--yes"],
        ],
    );
}

/// A rebuild copied over an installed verb's file (the edit-build loop) is recorded under
/// the hash of the bytes that ran from its first call on (audit 47 #5: the first call
/// named the old file's, which the index still had when the record was told).
#[test]
fn a_verb_rebuilt_behind_the_index_is_recorded_under_the_bytes_that_ran() {
    let sandbox = Sandbox::new();
    let ping = mur_e2e::plugins::guest("ping");
    add(&sandbox, std::slice::from_ref(&ping));
    let refused = |sandbox: &Sandbox| {
        let out = sandbox.devtools(&["ping", "--bogus"]);
        out.assert_code(1);
        let records = records(&sandbox.usage_log());
        records
            .last()
            .map(|r| r["verbHash"].clone())
            .unwrap_or_default()
    };
    let old = refused(&sandbox);
    let bytes = std::fs::read(&ping).expect("ping.wasm");
    let rebuilt = mur_e2e::plugins::with_custom_section(&bytes, "rebuilt");
    std::fs::write(
        mur_e2e::plugins::verb_dir(&sandbox).join("ping.wasm"),
        rebuilt,
    )
    .expect("rebuilt over the installed file");
    let first = refused(&sandbox);
    let info = sandbox
        .devtools(&["verbs", "info", "ping", "--json"])
        .json();
    assert_ne!(first, old, "the rebuild's first call");
    assert_eq!(first, info["sha256"], "the hash the index took: {info}");
    assert_eq!(refused(&sandbox), first, "and every call after it");
}

/// The CPU time `pid` has used, in clock ticks (`/proc/PID/stat`: utime + stime).
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's name, which may hold spaces, in parentheses.
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// SIGTERM or Ctrl-C while a verb loops in its `parse` (audit 47 #2): one line, the
/// invocation recorded as interrupted, exit 143 or 130, as when a call is stopped; it
/// took the signal's default action: nothing on stderr, no record. The report counts it
/// as no call of the verb's tool.
#[test]
fn a_signal_while_a_verb_parses_is_said_and_recorded_as_interrupted() {
    let sandbox = Sandbox::new();
    add(&sandbox, &[mur_e2e::plugins::guest("spin")]);
    // Runs that missed the parse: a poller starved past spin's half second of fuel
    // signals after it (exit 6), or a load taking 50 ms of CPU before it; each is
    // recorded too, and run again.
    let mut missed = 0;
    for (signal, name, code) in [("TERM", "SIGTERM", 143), ("INT", "SIGINT", 130)] {
        let (out, record) = loop {
            let (out, record) = spin_signalled(&sandbox, signal);
            let parsed = record["phases"]["parse"].is_number();
            if (out.code == 6 || (out.code == code && !parsed)) && missed < 5 {
                missed += 1;
                continue;
            }
            break (out, record);
        };
        out.assert_code(code)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: interrupted by {name} before the request was sent: `spin` (tool \
                 `version`) did not run\n"
            ));
        assert_eq!(
            (&record["verb"], &record["outcome"], &record["exit"]),
            (&json!("spin"), &json!("interrupted"), &json!(code)),
            "{record}"
        );
        let phases = &record["phases"];
        assert!(
            phases["parse"].is_number() && phases.get("call").is_none(),
            "{record}"
        );
    }
    let report = sandbox.devtools(&["usage", "report", "--json"]).json();
    let spin = row(&report["verbs"], "spin");
    assert_eq!(
        (&spin["calls"], &spin["interrupted"], &spin["p90Ms"]),
        (&json!(2 + missed), &json!(2), &json!(0.0)),
        "{report}"
    );
    assert_eq!(report["toolsCli"], json!([]), "{report}");
}

/// `mur devtools spin` signalled with `signal` once it has used 50 ms of CPU (past
/// its load, into its parse's loop): what it printed and the record it left.
fn spin_signalled(sandbox: &Sandbox, signal: &str) -> (mur_e2e::Output, Value) {
    let mut command = sandbox.mur_command(&["devtools", "spin"]);
    command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mur = Process::spawn(&mut command);
    // Its loop: everything before `parse` takes a few milliseconds of CPU, the loop
    // about half a second before its fuel runs out.
    mur_e2e::process::wait_until("spin to loop in its parse", || {
        cpu_ticks(mur.pid()).filter(|&ticks| ticks >= 5)
    });
    mur.signal(signal);
    let out = mur.wait_output();
    let record = records(&sandbox.usage_log())
        .last()
        .cloned()
        .unwrap_or_default();
    (out, record)
}

/// A verb that failed in its `parse` (spin's fuel runs out, exit 6) called nothing: no
/// call of its tool, nor its latency, and the tool is one no named verb reached (audit
/// 47 #3: counted as a call of `version`, its 500 ms as the tool's P90).
#[test]
fn a_verb_that_failed_in_its_parse_did_not_call_its_tool() {
    let sandbox = Sandbox::new();
    add(&sandbox, &[mur_e2e::plugins::guest("spin")]);
    sandbox.devtools(&["spin"]).assert_code(6);
    let report = sandbox.devtools(&["usage", "report", "--json"]).json();
    let spin = row(&report["verbs"], "spin");
    assert_eq!(
        (&spin["calls"], &spin["pluginFailures"], &spin["p90Ms"]),
        (&json!(1), &json!(1), &json!(0.0)),
        "{report}"
    );
    assert_eq!(report["toolsCli"], json!([]), "{report}");
    assert_eq!(
        report["toolsWithoutNamedCalls"],
        json!(["version"]),
        "{report}"
    );
}

/// `usage report` in `sandbox`, asserted to succeed with nothing on stderr.
#[track_caller]
fn quiet_report(sandbox: &Sandbox) -> mur_e2e::Output {
    let out = sandbox.devtools(&["usage", "report"]);
    out.assert_code(0).assert_stderr_is("");
    out
}

/// A session started with `--usage-log` in `sandbox`: it, the log it records what it
/// serves in, and that log's path as `--server-log` takes it.
fn app_recording_served(sandbox: &Sandbox) -> (Session, PathBuf, String) {
    let served = sandbox.root().join("served.jsonl");
    let served_arg = served.display().to_string();
    let app = sandbox.start_sample_with(&sandbox.project("app"), &["--usage-log", &served_arg]);
    (app, served, served_arg)
}

#[test]
fn a_mur_call_recorded_on_both_sides_is_counted_once_per_side() {
    let sandbox = Sandbox::new();
    let (app, served, served_arg) = app_recording_served(&sandbox);
    // As docs/usage.md drives it: the standard `click` installed.
    add(&sandbox, &[standard("click")]).assert_code(0);
    sandbox.devtools(&["click", "#btn-inc"]).assert_code(0);
    // The same tool from another MCP client.
    mcp::call_tool(
        &app.lock.endpoint,
        "click",
        json!({ "selector": "#btn-inc" }),
    );
    let served_records = records(&served);
    assert_eq!(served_records.len(), 2);
    assert_eq!(served_records[0]["surface"], "cli");
    assert_eq!(served_records[0]["verb"], "click");
    assert_eq!(served_records[0]["kind"], "plugin");
    assert_eq!(served_records[1]["surface"], "mcp");
    assert_eq!(served_records[1]["side"], "server");
    let report = sandbox.devtools(&["usage", "report", "--json", "--server-log", &served_arg]);
    report.assert_code(0);
    let report = report.json();
    let surfaces: Vec<(String, u64)> = items(&report["surfaces"])
        .map(|s| {
            (
                s["name"].as_str().unwrap_or_default().to_owned(),
                s["calls"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    let expected = [("cli/plugin", 1), ("server/cli", 1), ("server/mcp", 1)];
    assert_eq!(surfaces, expected.map(|(n, c)| (n.to_owned(), c)));
    assert_eq!(report["toolsCli"][0]["calls"], 1);
    assert_eq!(report["toolsServed"][0]["calls"], 2);
}

/// A call mur gives up on at its `--timeout` (as at Ctrl-C or SIGTERM: it drops the HTTP
/// request, which the session takes as its cancel) stops in the session too, and the
/// session records it as interrupted, after about as long as mur waited (audit 54 #2: the
/// tool ran on to the end of its own wait, and was recorded as a tool failure of that
/// whole duration, 20 s here).
#[test]
fn a_call_mur_gave_up_on_is_recorded_interrupted_by_the_session_which_stopped_it() {
    let sandbox = Sandbox::new();
    let (_app, served, served_arg) = app_recording_served(&sandbox);
    let started = std::time::Instant::now();
    let args = r##"{"selector":"#never","timeoutMs":20000}"##;
    sandbox
        .devtools(&["--timeout", "1500", "call", "waitFor", "--args", args])
        .assert_code(2);
    let record = mur_e2e::process::wait_until("the session's record of the call", || {
        records(&served).pop()
    });
    let seen = started.elapsed();
    assert_eq!(
        (&record["verb"], &record["tool"], &record["outcome"]),
        (&json!("call"), &json!("waitFor"), &json!("interrupted")),
        "{record}"
    );
    // About mur's 1.5 s; the tool's own wait would have been 20 s.
    let ms = record["ms"].as_f64().unwrap_or_default();
    assert!((1000.0..8000.0).contains(&ms), "{record}");
    assert!(
        seen < std::time::Duration::from_secs(12),
        "recorded after {seen:?}"
    );
    let report = sandbox.devtools(&["usage", "report", "--json", "--server-log", &served_arg]);
    let served_row = row(&report.json()["toolsServed"], "waitFor").clone();
    let keys = ["calls", "toolFailures", "interrupted", "p50Ms"];
    assert_eq!(
        keys.map(|k| served_row[k].clone()),
        [json!(1), json!(0), json!(1), json!(0.0)],
        "{served_row}"
    );
}

/// A log with known records: times fixed in the past and known durations.
fn known_log(sandbox: &Sandbox) {
    let rec = |day: u32, verb: &str, kind: &str, tool: &str, outcome: &str, ms: f64| {
        let time = match day {
            0 => "2025-01-01T10:00:00.000Z".to_owned(),
            day => format!("2026-01-{day:02}T10:00:00.000Z"),
        };
        json!({
            "schema": "mur-usage/1", "time": time,
            "side": "cli", "surface": "cli", "agent": "claude", "verb": verb, "kind": kind,
            "tool": tool, "outcome": outcome, "ms": ms,
        })
    };
    let refused = |day: u32, options: &[&str], positionals: u32| {
        let mut record = rec(day, "bump", "data", "click", "usage-error", 1.0);
        record["argv"] = json!({ "options": options, "positionals": positionals });
        record
    };
    // A verb that does not exist, typed as `get-text --selector WORD`.
    let asked = |day: u32, verb: &str| {
        let mut record = rec(day, verb, "unknown", "", "usage-error", 9.0);
        record.as_object_mut().map(|r| r.remove("tool"));
        record["argv"] = json!({ "options": ["--selector"], "positionals": 1 });
        record
    };
    let interrupted = |day: u32, verb: &str, tool: &str| {
        let mut record = rec(day, verb, "data", tool, "interrupted", 900.0);
        record["exit"] = json!(130);
        // Stopped in its call, which reached the tool (one stopped before has no `call`).
        record["phases"] = json!({ "call": 899.0 });
        record
    };
    let lines = [
        // Long before the rest: a verb removed since.
        rec(0, "retired", "data", "windows", "ok", 7.0),
        rec(1, "count", "data", "state", "ok", 4.0),
        // No session answered: neither the verb's failure nor the tool's.
        rec(2, "count", "data", "state", "session-error", 2.0),
        rec(3, "count", "data", "state", "tool-error", 10.0),
        rec(4, "count", "data", "state", "ok", 3.0),
        refused(5, &["--selector"], 1),
        refused(6, &[], 2),
        rec(7, "bump", "data", "click", "ok", 5.0),
        refused(8, &["--selector"], 1),
        asked(9, "get-text"),
        asked(10, "get-text"),
        // A tool the session does not have: called, refused, owed no verb.
        rec(11, "call", "call", "nosuchtool", "rpc-error", 2.0),
        // A typo of an installed verb: its nearest is named.
        asked(12, "bmup"),
        // Ctrl-C: the user stopped it, nobody failed; how long they waited is no latency.
        interrupted(13, "count", "state"),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let log = sandbox.usage_log();
    std::fs::create_dir_all(log.parent().expect("dir")).expect("mkdir");
    std::fs::write(&log, text + "not a record\n").expect("write log");
}

/// What stderr says of the line of [`known_log`] that is not a record: where it is.
fn known_log_skipped(sandbox: &Sandbox) -> String {
    format!(
        "warning: 1 line(s) of the usage logs are not records and were skipped: 1 in `{}` \
         (line 15)\n",
        sandbox.usage_log().display()
    )
}

/// `usage report` over [`known_log`], as a person reads it.
const KNOWN_REPORT: &str = concat!("\
14 records, 2025-01-01T10:00:00.000Z to 2026-01-13T10:00:00.000Z (every agent; usage errors above
50% or failures of the verb's own above 20% of at least 3 calls make a loser)
",
legend!(),
"
verbs (as mur ran them):
VERB            CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
count (data)    5      2   0      1     0    0       1      1     4      10     2026-01-13T10:00:00.000Z
bump (data)     4      1   3      0     0    0       0      0     5      5      2026-01-08T10:00:00.000Z
call (call)     1      0   0      0     1    0       0      0     2      2      2026-01-11T10:00:00.000Z
retired (data)  1      1   0      0     0    0       0      0     7      7      2025-01-01T10:00:00.000Z

surfaces, as mur ran them (by verb kind):
SURFACE      CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
cli/data     10     4   3      1     0    0       1      1     5      10     2026-01-13T10:00:00.000Z
cli/unknown  3      0   3      0     0    0       0      0     –      –      2026-01-12T10:00:00.000Z
cli/call     1      0   0      0     1    0       0      0     2      2      2026-01-11T10:00:00.000Z

tools called by mur:
TOOL        CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
state       4      2   0      1     0    0       0      1     4      10     2026-01-13T10:00:00.000Z
click       1      1   0      0     0    0       0      0     5      5      2026-01-07T10:00:00.000Z
nosuchtool  1      0   0      0     1    0       0      0     2      2      2026-01-11T10:00:00.000Z
windows     1      1   0      0     0    0       0      0     7      7      2025-01-01T10:00:00.000Z

argv the verbs refused (usage errors by shape; WORD: a word not an option):
ARGV                  TIMES  LAST
bump --selector WORD  2      2026-01-08T10:00:00.000Z
bump WORD WORD        1      2026-01-06T10:00:00.000Z

verbs asked for that do not exist (as typed; WORD: a word not an option; NEAREST: a likely typo):
ARGV                      TIMES  LAST                      NEAREST
get-text --selector WORD  2      2026-01-10T10:00:00.000Z  –
bmup --selector WORD      1      2026-01-12T10:00:00.000Z  bump

tools no named verb reached: scroll

losers:
  bump: 75% of its 4 invocations were usage errors (above 50%)
    mur devtools verbs remove bump
  idle: never used in the window (since TIME)
    mur devtools verbs remove idle
");

/// `text` with the time after each `since ` as `TIME`: the start of a window that
/// ends now.
fn timeless(text: &str) -> String {
    text.split("since ")
        .enumerate()
        .map(|(n, part)| match n {
            0 => part.to_owned(),
            _ => format!("since TIME{}", part.get(24..).unwrap_or_default()),
        })
        .collect()
}

/// A sandbox with three data verbs installed (`count` → state, `bump` →
/// click, `idle` → scroll) and the known log.
/// The verbs are installed since before the log begins, so each can be judged
/// unused over any window it covers.
fn with_known_verbs_and_log() -> Sandbox {
    let sandbox = Sandbox::new();
    for (name, tool) in [("count", "state"), ("bump", "click"), ("idle", "scroll")] {
        add_data_verb(&sandbox, name, tool);
        added_on(&sandbox, name, "2024-06-01T00:00:00Z");
    }
    known_log(&sandbox);
    sandbox
}

/// Makes verb `name` installed since `at` (its index entry's `addedAt`), as if
/// added then: a verb added after the unused window began is not judged unused.
fn added_on(sandbox: &Sandbox, name: &str, at: &str) {
    let path = mur_e2e::plugins::verb_dir(sandbox)
        .join("index")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}: {path:?}"));
    let mut entry: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    entry["verb"]["addedAt"] = at.into();
    std::fs::write(&path, entry.to_string()).expect("write the entry");
}

/// `text` with the time after its first `since ` (a window's start, as the report's first
/// line says it) written `SINCE`: a time mur takes from its own clock.
fn since_masked(text: &str) -> String {
    // A space or the line's end after it: the first line is wrapped at 100 columns.
    let at = ["since ", "since\n"]
        .iter()
        .filter_map(|s| text.find(s))
        .min();
    match at {
        Some(at) => {
            let (before, after) = text.split_at(at + "since ".len());
            let end = after.find([';', ',']).unwrap_or(after.len());
            format!("{before}SINCE{}", &after[end..])
        }
        None => text.to_owned(),
    }
}

/// The time `days` days before now (whole seconds), as records write it.
fn days_ago(days: u64) -> String {
    time_at(now_secs() - days * 86_400)
}

/// `secs` since 1970 as records write a time (whole seconds, UTC).
fn time_at(secs: u64) -> String {
    // Days since 1970-01-01 to a civil date (Howard Hinnant's `civil_from_days`).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let t = secs % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.000Z",
        t / 3600,
        t % 3600 / 60,
        t % 60
    )
}

/// Installs a data verb `name` calling `tool`.
fn add_data_verb(sandbox: &Sandbox, name: &str, tool: &str) {
    let verb = json!({ "schema": "mur-verb/1", "name": name, "tool": tool, "summary": format!("{name} test verb"), "arguments": {"selector": "#count"} });
    let file = sandbox.file(&format!("{name}.json"), verb.to_string());
    sandbox
        .devtools(&["verbs", "add", &file.display().to_string()])
        .assert_code(0);
}

#[test]
fn a_report_over_a_known_log_gives_the_known_numbers() {
    let sandbox = with_known_verbs_and_log();
    // Over the window back to mid-2025, which the log reaches back past.
    fn report_args<'a>(more: &[&'a str]) -> Vec<&'a str> {
        [&["usage", "report", "--unused-for", WINDOW.as_str()], more].concat()
    }
    let out = sandbox.devtools(&report_args(&["--json"]));
    out.assert_code(0)
        .assert_stderr_contains("1 line(s) of the usage logs are not records");
    // One line, as all JSON mur prints; indented with `--pretty`.
    assert_eq!(out.stdout.lines().count(), 1, "{out}");
    let pretty = sandbox.devtools(&[&["--pretty"][..], &report_args(&["--json"])].concat());
    let json_timeless = |out: &mur_e2e::Output| {
        let mut report = out.json();
        report.as_object_mut().map(|r| r.remove("unusedSince"));
        timeless(&report.to_string())
    };
    assert_eq!(json_timeless(&pretty), json_timeless(&out));
    assert!(pretty.stdout.lines().count() > 100, "{pretty}");
    let report = out.json();
    let count = row(&report["verbs"], "count");
    // Its call stopped by Ctrl-C: counted apart, no failure, no latency.
    assert_eq!(
        [
            &count["calls"],
            &count["ok"],
            &count["toolFailures"],
            &count["otherFailures"],
            &count["interrupted"],
            &count["p50Ms"],
            &count["p90Ms"],
            &count["lastUsed"]
        ],
        [
            &json!(5),
            &json!(2),
            &json!(1),
            &json!(1),
            &json!(1),
            &json!(4.0),
            &json!(10.0),
            &json!("2026-01-13T10:00:00.000Z")
        ]
    );
    let bump = row(&report["verbs"], "bump");
    assert_eq!(
        [&bump["calls"], &bump["usageErrors"], &bump["p50Ms"]],
        // Latency of its one call that reached the tool: a refusal's says nothing.
        [&json!(4), &json!(3), &json!(5.0)]
    );
    let losers: Vec<(&str, &str)> = items(&report["losers"])
        .map(|l| {
            (
                l["verb"].as_str().unwrap_or_default(),
                l["command"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        losers,
        [
            ("bump", "mur devtools verbs remove bump"),
            ("idle", "mur devtools verbs remove idle")
        ]
    );
    assert_eq!(report["toolsWithoutNamedCalls"], json!(["scroll"]));
    assert_eq!(
        report["refused"],
        json!([
            { "verb": "bump", "kind": "data", "options": ["--selector"], "positionals": 1,
              "times": 2, "last": "2026-01-08T10:00:00.000Z" },
            { "verb": "bump", "kind": "data", "options": [], "positionals": 2,
              "times": 1, "last": "2026-01-06T10:00:00.000Z" },
        ])
    );
    assert_eq!(
        (report["records"].as_u64(), report["skippedLines"].as_u64()),
        (Some(14), Some(1))
    );
    // The same report for people, whole.
    let text = sandbox.devtools(&report_args(&[]));
    text.assert_code(0);
    assert_eq!(timeless(&text.stdout), KNOWN_REPORT);
    // --agent filters; an agent that never ran has no records.
    let none = sandbox
        .devtools(&["usage", "report", "--json", "--agent", "codex"])
        .json();
    assert_eq!(none["records"], 0);
    // The page: self-contained, one chart per view, every verb named.
    let html = sandbox.root().join("usage.html");
    sandbox
        .devtools(&["usage", "report", "--html", &html.display().to_string()])
        .assert_code(0);
    let page = std::fs::read_to_string(&html).expect("page written");
    assert!(page.starts_with("<!DOCTYPE html>") && page.trim_end().ends_with("</html>"));
    assert!(page.matches("<svg").count() >= 3, "charts: {page}");
    for verb in ["count", "bump"] {
        assert!(page.contains(&format!(">{verb}<")), "{verb} in the page");
    }
    assert!(
        page.contains("<td>bump --selector WORD</td><td>2</td>"),
        "the refused argv in the page"
    );
    assert!(
        page.contains("<th>other failures</th><th>interrupted</th>")
            && page.contains("<title>interrupted: 1</title>"),
        "the call stopped, its own column and segment in the page"
    );
    assert!(
        page.contains("<td>get-text --selector WORD</td><td>2</td>")
            && page.contains("<td>bmup --selector WORD</td><td>1</td><td>2026-01-12T10:00:00.000Z</td><td>bump</td>"),
        "the verbs asked for in the page, a typo with its nearest verb"
    );
    assert_eq!(report["unknownVerbs"][1]["nearest"], "bump");
    assert_eq!(report["unknownVerbs"][0].get("nearest"), None);
    for fetch in ["<script", "src=", "href=", "url("] {
        assert!(
            !page.contains(fetch),
            "nothing fetched: `{fetch}` in the page"
        );
    }
    opened_in_a_browser(&sandbox, &html);
}

/// The page as a real headless browser renders it, when one is installed
/// (`.ci/run` installs Debian's `chromium-headless-shell`): its DOM has the
/// charts and the verbs, and it paints a screenshot. Without one, the checks
/// above on the file are what there is.
fn opened_in_a_browser(sandbox: &Sandbox, html: &Path) {
    let Some(browser) = ["chromium-headless-shell", "chromium"]
        .into_iter()
        .find(|b| which(b))
    else {
        eprintln!("no headless browser installed: the page was checked as a file only");
        return;
    };
    let shot = sandbox.root().join("usage.png");
    let profile = sandbox.root().join("browser-profile");
    let url = format!("file://{}", html.display());
    let flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
    ];
    let mut dump = sandbox.command(Path::new(browser));
    dump.args(flags)
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--dump-dom", &url]);
    let dom = mur_e2e::process::run(&mut dump);
    assert_eq!(dom.code, 0, "{browser} --dump-dom: {}", dom.stderr);
    assert!(
        dom.stdout.matches("<svg").count() >= 3,
        "the browser's DOM has the charts"
    );
    assert!(dom.stdout.contains("Calls per verb, by outcome") && dom.stdout.contains(">bump<"));
    let mut paint = sandbox.command(Path::new(browser));
    paint
        .args(flags)
        .arg(format!("--user-data-dir={}", profile.display()))
        .args([
            format!("--screenshot={}", shot.display()),
            "--window-size=900,1200".to_owned(),
            url,
        ]);
    let painted = mur_e2e::process::run(&mut paint);
    assert_eq!(
        painted.code, 0,
        "{browser} --screenshot: {}",
        painted.stderr
    );
    let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
    assert!(
        size > 10_000,
        "a painted page, not a blank one ({size} bytes)"
    );
    // What a reader sees of the tables, measured by the browser in a copy of the page
    // with a script: no name of a table's first column is broken over lines, and the
    // page is no wider than its window, a wide table scrolling in a box of its own
    // (audit 57 #4: the names were squeezed to a letter or two a line).
    let measured = sandbox.root().join("measured.html");
    let page = std::fs::read_to_string(html).expect("the page");
    let script = "<script>const cells=[...document.querySelectorAll('td:first-child')];\
        const broken=cells.filter(c=>{const r=document.createRange();r.selectNodeContents(c);\
        return r.getClientRects().length>1}).map(c=>c.textContent);\
        const wider=document.documentElement.scrollWidth>innerWidth;\
        document.body.setAttribute('data-measured',cells.length+' cells; broken: '\
        +broken.join(', ')+'; wider than the window: '+wider)</script>";
    std::fs::write(
        &measured,
        page.replace("</body>", &format!("{script}</body>")),
    )
    .expect("the copy");
    let mut measure = sandbox.command(Path::new(browser));
    measure
        .args(flags)
        .arg(format!("--user-data-dir={}", profile.display()))
        .args([
            "--window-size=900,1200".to_owned(),
            "--dump-dom".to_owned(),
            format!("file://{}", measured.display()),
        ]);
    let dom = mur_e2e::process::run(&mut measure);
    let said = dom
        .stdout
        .split("data-measured=\"")
        .nth(1)
        .unwrap_or_default();
    let said = said.split('"').next().unwrap_or_default();
    assert!(
        said.ends_with(" cells; broken: ; wider than the window: false") && !said.starts_with("0 "),
        "{said}"
    );
}

fn which(program: &str) -> bool {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .any(|dir| dir.join(program).is_file())
}

/// The names of the verbs installed in `sandbox` (`verbs list --json`).
fn installed(sandbox: &Sandbox) -> Vec<String> {
    let list = sandbox.devtools(&["verbs", "list", "--json"]).json();
    names(&list).into_iter().map(str::to_owned).collect()
}

#[test]
fn prune_removes_exactly_the_losers_and_only_with_yes() {
    let sandbox = with_known_verbs_and_log();
    // A window the log covers (its first record is older): back to mid-2025,
    // `idle` is unused and `bump` is refused 3 times in 4.
    let dry = sandbox.devtools(&["verbs", "prune", "--unused-for", WINDOW.as_str()]);
    dry.assert_code(0)
        .assert_stderr_contains("a dry run: nothing was removed");
    // `-q` leaves that line out as it does the notes: it is no warning.
    let args = ["-q", "verbs", "prune", "--unused-for", WINDOW.as_str()];
    let quiet = sandbox.devtools(&args);
    // (Its warning of the log's line that is no record stays.)
    quiet.assert_code(0);
    assert!(
        quiet.stderr.lines().all(|l| l.starts_with("warning: ")),
        "{quiet}"
    );
    // The same commands (the times are now minus the window, read anew).
    let commands = |out: &str| -> Vec<String> {
        out.lines()
            .map(|l| {
                l.split_once("    #")
                    .map_or(l, |(c, _)| c.trim_end())
                    .to_owned()
            })
            .collect()
    };
    assert_eq!(commands(&quiet.stdout), commands(&dry.stdout), "{quiet}");
    let lines: Vec<&str> = dry.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", dry.stdout);
    assert!(lines[0].starts_with(
        "mur devtools verbs remove bump    # 75% of its 4 invocations were usage errors"
    ));
    assert!(
        lines[1].starts_with("mur devtools verbs remove idle    # never used in the window (since")
    );
    assert_eq!(installed(&sandbox), ["bump", "count", "idle"]);
    // Every duration option reads one syntax (`bridge --idle` too): weeks and days.
    let weeks = sandbox.devtools(&["verbs", "prune", "--unused-for", WEEKS.as_str()]);
    // (The same to the day: the window's start is now minus the window.)
    let to_the_day = |out: &str| -> Vec<String> {
        out.lines()
            .map(|l| match l.split_once("since ") {
                Some((head, time)) => format!("{head}since {}", &time[..10]),
                None => l.to_owned(),
            })
            .collect()
    };
    assert_eq!(to_the_day(&weeks.stdout), to_the_day(&dry.stdout));
    // A window longer than the log: unused verbs cannot be judged, `bump` still can.
    let long = sandbox.devtools(&["verbs", "prune", "--unused-for", "3000d"]);
    long.assert_code(0)
        .assert_stderr_contains("\nnote: the usage log does not go back to");
    assert_eq!(long.stdout.lines().count(), 1, "{}", long.stdout);
    // The report judges by the same rule: and an agent with no records in the log
    // left no verb unused.
    // A log too young says so in the report only (`windowCovered`), an agent with no
    // record on stderr too.
    for (args, said) in [
        (&["--since", "3000d"][..], false),
        (&["--since", WINDOW.as_str(), "--agent", "nobody"], true),
    ] {
        let report = sandbox.devtools(&[&["usage", "report", "--json"][..], args].concat());
        report.assert_code(0);
        assert_eq!(
            report
                .stderr
                .contains("no verb is judged unused over that window"),
            said,
            "{report}"
        );
        let report = report.json();
        assert_eq!(report["windowCovered"], false, "{args:?}");
        let unused = items(&report["losers"]).filter(|l| l["calls"] == 0).count();
        assert_eq!(unused, 0, "{args:?}: {}", report["losers"]);
    }
    let covered = sandbox.devtools(&["usage", "report", "--json", "--since", WINDOW.as_str()]);
    assert_eq!(covered.json()["windowCovered"], true, "{covered}");
    let pruned = sandbox.devtools(&["verbs", "prune", "--unused-for", WINDOW.as_str(), "--yes"]);
    pruned.assert_code(0);
    assert_eq!(installed(&sandbox), ["count"]);
    // Each removal names the file that brings the verb back (`verbs add FILE`).
    let from: Vec<String> = pruned
        .stdout
        .lines()
        .map(|l| {
            l.rsplit_once("; it was from ")
                .map_or("", |(_, f)| f)
                .to_owned()
        })
        .collect();
    let file = |name: &str| format!("{})", sandbox.root().join(format!("{name}.json")).display());
    assert_eq!(from, [file("bump"), file("idle")], "{pruned}");
    // A bad rate is a usage error.
    sandbox
        .devtools(&["verbs", "prune", "--max-usage-error-rate", "2"])
        .assert_code(1);
    sandbox
        .devtools(&["usage", "report", "--since", "a while"])
        .assert_code(1)
        .assert_stderr_contains("`a while` is not a duration such as 30s, 15m, 12h, 7d or 1h 30m");
}

#[test]
fn the_report_calls_a_verb_unused_only_where_prune_would_remove_it() {
    // A short agent run, just now: a log that says nothing of the last 30 days.
    let sandbox = Sandbox::new();
    for (name, tool) in [("count", "state"), ("idle", "scroll")] {
        add_data_verb(&sandbox, name, tool);
    }
    let mut guide = sandbox.mur_command(&["devtools", "guide"]);
    guide.env("MUR_AGENT", "claude");
    assert_eq!(mur_e2e::process::run(&mut guide).code, 0);
    for args in [&[][..], &["--agent", "claude"], &["--since", "1h"]] {
        let report = sandbox.devtools(&[&["usage", "report"][..], args].concat());
        // Said once, in the report: every new user's state for a month, no warning.
        report.assert_code(0).assert_stderr_is("");
        let (_, losers) = report.stdout.split_once("\nlosers:").unwrap_or_default();
        assert!(
            losers.starts_with(
                " none\n  (no verb was judged unused: the records read do not go back to 20"
            ),
            "{args:?}: {report}"
        );
    }
    // A page, which outlives stderr, says so too.
    let page = sandbox.devtools(&["usage", "report", "--html", "-"]);
    assert!(
        page.stdout
            .contains("<p>no verb was judged unused: the records read do not go back to 20"),
        "{page}"
    );
    let report = sandbox.devtools(&["usage", "report", "--json"]).json();
    assert_eq!(
        (&report["windowCovered"], &report["losers"]),
        (&json!(false), &json!([]))
    );
    let prune = sandbox.devtools(&["verbs", "prune", "--agent", "claude"]);
    prune.assert_code(0).assert_stdout_is("");
    // Over a log that reaches back past it, both judge the last 30 days alike.
    let sandbox = with_known_verbs_and_log();
    let report = sandbox.devtools(&["usage", "report", "--json"]).json();
    // Each loser's command, its `#` reason in one column past the longest command.
    let command = |l: &Value| l["command"].as_str().unwrap_or_default().to_owned();
    let width = items(&report["losers"]).map(|l| command(l).len()).max();
    let said: String = items(&report["losers"])
        .map(|l| {
            format!(
                "{:<width$}    # {}\n",
                command(l),
                l["reason"].as_str().unwrap_or_default(),
                width = width.unwrap_or(0)
            )
        })
        .collect();
    assert_eq!(items(&report["losers"]).count(), 3, "{said}");
    let prune = sandbox.devtools(&["verbs", "prune"]);
    prune.assert_code(0);
    assert_eq!(timeless(&prune.stdout), timeless(&said));
    // `--since` is the window a verb goes unused in: no second one beside it.
    sandbox
        .devtools(&["usage", "report", "--since", "7d", "--unused-for", "30d"])
        .assert_code(1)
        .assert_stderr_is(
            "error: the argument `--since <DURATION>` cannot be used with `--unused-for \
             <DURATION>`\n",
        );
}

#[test]
fn an_operator_is_told_plainly_what_a_window_an_agent_or_a_page_holds() {
    let sandbox = with_known_verbs_and_log();
    // A window of nothing holds no call: every verb would be unused in it.
    for args in [
        &["verbs", "prune", "--unused-for", "0s", "--yes"][..],
        &["usage", "report", "--since", "0d"],
    ] {
        let out = sandbox.devtools(args);
        out.assert_code(1);
        let zero = args[3];
        assert!(
            out.stderr
                .starts_with(&format!("error: invalid value `{zero}` for `--"))
                && out
                    .stderr
                    .contains(&format!("`{zero}` is an empty window: no call falls in it")),
            "{out}"
        );
    }
    // A bare number names no unit: refused, with the units it may mean.
    for (args, option) in [
        (&["usage", "report", "--since", "90"][..], "--since"),
        (&["verbs", "prune", "--unused-for", "90"], "--unused-for"),
    ] {
        sandbox
            .devtools(args)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: invalid value `90` for `{option} <DURATION>`: `90` has no unit: \
                 did you mean 90s, 90m, 90h or 90d?\n"
            ));
    }
    // An agent with no record is named, with the agents there are.
    let nobody = sandbox.devtools(&["usage", "report", "--agent", "nobody"]);
    nobody.assert_code(0).assert_stderr_is(format!(
        "{}\
         warning: the usage log holds no record of agent `nobody` (its agents: claude): \
         no verb is judged unused over that window\n",
        known_log_skipped(&sandbox)
    ));
    // `prune` judges one agent's calls, and takes `--dry-run` as `session clean` does.
    let by_claude = sandbox.devtools(&[
        "verbs",
        "prune",
        "--unused-for",
        WINDOW.as_str(),
        "--agent",
        "claude",
        "--dry-run",
    ]);
    by_claude.assert_code(0);
    assert_eq!(by_claude.stdout.lines().count(), 2, "{by_claude}");
    by_claude.assert_stdout_contains("# never used by `claude` in the window (since");
    let by_nobody = sandbox.devtools(&[
        "verbs",
        "prune",
        "--unused-for",
        WINDOW.as_str(),
        "--agent",
        "nobody",
    ]);
    // Said as the report says it, with the agents there are, and the same exit code.
    by_nobody.assert_code(nobody.code).assert_stdout_is("");
    let said = nobody.stderr.lines().last().unwrap_or_default();
    assert!(said.contains("(its agents: claude)"), "{nobody}");
    by_nobody.assert_stderr_contains(&format!("{said}\n"));
    assert!(
        by_nobody.stderr.ends_with("\nnote: no verb to prune\n"),
        "{by_nobody}"
    );
    sandbox
        .devtools(&["verbs", "prune", "--dry-run", "--yes"])
        .assert_code(1)
        .assert_stderr_contains("`--dry-run` cannot be used with `--yes`");
    // `--html -` prints the page, as `screenshot --out -` prints the image.
    let page = sandbox.devtools(&["usage", "report", "--html", "-"]);
    page.assert_code(0)
        .assert_stdout_starts_with("<!DOCTYPE html>");
    assert!(!sandbox.root().join("-").exists());
    // A page that could not be written is said before the logs are read (exit 1), in
    // the words and with the hint of `call --out` and a verb's `--out`.
    sandbox
        .devtools(&["usage", "report", "--html", "nodir/page.html"])
        .assert_code(1)
        .assert_stderr_is(
            "error: cannot write `nodir/page.html`: the directory `nodir` does not exist\n\
             hint: name a file that can be written, in a directory that exists\n",
        );
    // mur's own stdout by another name is `-` (its page and the JSON mixed, before).
    for page in ["-", "/dev/stdout"] {
        let both = sandbox.devtools(&["usage", "report", "--html", page, "--json"]);
        both.assert_code(1).assert_stderr_is(
            "error: `--json` and `--html -` both print on stdout\n\
             hint: write the page to a file (`--html report.html`), or drop one\n",
        );
    }
    // A verb asked for and added since is no longer one that does not exist.
    add_data_verb(&sandbox, "get-text", "state");
    let report = sandbox.devtools(&["usage", "report", "--json"]).json();
    let asked: Vec<&Value> = items(&report["unknownVerbs"]).map(|u| &u["verb"]).collect();
    assert_eq!(asked, [&json!("bmup")]);
}

/// A record of mur's `days` ago, by agent `claude`.
fn cli_record(days: u64, verb: &str, kind: &str, outcome: &str) -> Value {
    json!({
        "schema": "mur-usage/1", "time": days_ago(days),
        "side": "cli", "surface": "cli", "agent": "claude", "verb": verb, "kind": kind,
        "tool": verb, "outcome": outcome, "ms": 1.0,
    })
}

/// A sandbox with the data verbs `verbs` (name, tool) installed long ago, and mur's log
/// reaching back 60 days with one call of none of them, then `lines`.
fn long_installed(verbs: &[(&str, &str)], lines: impl IntoIterator<Item = Value>) -> Sandbox {
    let sandbox = Sandbox::new();
    for (name, tool) in verbs {
        add_data_verb(&sandbox, name, tool);
        added_on(&sandbox, name, "2020-01-01T00:00:00Z");
    }
    let mut log = vec![cli_record(60, "guide", "host", "ok")];
    log.extend(lines);
    write_log(&sandbox, &log);
    sandbox
}

fn write_log(sandbox: &Sandbox, lines: &[Value]) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let log = sandbox.usage_log();
    std::fs::create_dir_all(log.parent().expect("dir")).expect("mkdir");
    std::fs::write(&log, text).expect("write log");
}

/// The `verb` and `reason` of each loser of a report in JSON.
fn losers_of(report: &Value) -> Vec<(String, String)> {
    items(&report["losers"])
        .map(|l| {
            let text = |key: &str| l[key].as_str().unwrap_or_default().to_owned();
            (text("verb"), text("reason"))
        })
        .collect()
}

#[test]
fn prune_and_the_report_rate_usage_errors_over_the_one_window() {
    // `type` refused three times 40 days ago, and one failed call just now, in a
    // log reaching back 60 days.
    let refused = (0..3).map(|_| cli_record(40, "type", "data", "usage-error"));
    let failed = cli_record(0, "type", "data", "tool-error");
    let sandbox = long_installed(&[("type", "type")], refused.chain([failed]));
    // Over the last 30 days (the default of both): one call, no loser; the report's
    // table is still of the whole log.
    let report = sandbox.devtools(&["usage", "report", "--json"]);
    let report = report.assert_code(0).json();
    assert_eq!(losers_of(&report), [], "{report}");
    let row = items(&report["verbs"]).find(|r| r["name"] == "type");
    assert_eq!(row.map(|r| &r["calls"]), Some(&json!(4)), "{report}");
    let text = sandbox.devtools(&["usage", "report"]);
    assert!(text.stdout.contains("\nlosers: none\n"), "{text}");
    let prune = sandbox.devtools(&["verbs", "prune"]);
    prune.assert_code(0).assert_stdout_is("");
    assert_eq!(prune.stderr, "note: no verb to prune\n", "{prune}");
    // Over a window holding the refusals, both name it, for the same reason.
    let report = sandbox
        .devtools(&["usage", "report", "--json", "--unused-for", "50d"])
        .json();
    let reason = "75% of its 4 invocations were usage errors (above 50%)";
    assert_eq!(losers_of(&report), [("type".to_owned(), reason.to_owned())]);
    let prune = sandbox.devtools(&["verbs", "prune", "--unused-for", "50d"]);
    prune
        .assert_code(0)
        .assert_stdout_is(format!("mur devtools verbs remove type    # {reason}\n"));
}

/// A verb that fails on its own (exit 6) in more than a fifth of its calls is a loser
/// for the report and for `prune`, at the rate `--max-plugin-failure-rate` sets: a verb
/// crashing on half its calls was pruned by no rule.
#[test]
fn a_verb_that_fails_itself_too_often_is_a_loser_for_both() {
    let failed = (0..2).map(|_| cli_record(1, "hog", "data", "plugin-error"));
    let ok = (0..2).map(|_| cli_record(1, "hog", "data", "ok"));
    let sandbox = long_installed(&[("hog", "state")], failed.chain(ok));
    let reason = "50% of its 4 calls failed in the verb itself, exit 6 (above 20%)";
    let report = sandbox.devtools(&["usage", "report", "--json"]).json();
    assert_eq!(losers_of(&report), [("hog".to_owned(), reason.to_owned())]);
    assert_eq!(report["maxPluginFailureRate"], json!(0.2), "{report}");
    sandbox
        .devtools(&["verbs", "prune"])
        .assert_code(0)
        .assert_stdout_is(format!("mur devtools verbs remove hog    # {reason}\n"));
    // Half its calls lost is within a limit of one half.
    let limit = ["--max-plugin-failure-rate", "0.5"];
    let report = sandbox
        .devtools(&[&["usage", "report", "--json"][..], &limit].concat())
        .json();
    assert_eq!(losers_of(&report), [], "{report}");
    sandbox
        .devtools(&[&["verbs", "prune"][..], &limit].concat())
        .assert_code(0)
        .assert_stdout_is("");
}

#[test]
fn a_verb_added_after_the_unused_window_began_is_not_judged_unused() {
    let sandbox = with_known_verbs_and_log();
    // Added seconds ago: never called, but not there for the window either.
    add_data_verb(&sandbox, "fresh", "scroll");
    let args = ["usage", "report", "--unused-for", WINDOW.as_str()];
    let text = sandbox.devtools(&args);
    text.assert_code(0);
    let (_, losers) = text.stdout.split_once("\nlosers:").unwrap_or_default();
    assert_eq!(
        timeless(losers),
        "\n  bump: 75% of its 4 invocations were usage errors (above 50%)\n    \
         mur devtools verbs remove bump\n  idle: never used in the window (since TIME)\n    \
         mur devtools verbs remove idle\n  \
         (not judged unused, added since TIME (after the window began): fresh)\n",
        "{text}"
    );
    let report = sandbox.devtools(&[&args[..], &["--json"]].concat()).json();
    assert_eq!(report["addedInWindow"], json!(["fresh"]));
    let prune = sandbox.devtools(&["verbs", "prune", "--unused-for", WINDOW.as_str()]);
    prune.assert_code(0);
    let removed: Vec<&str> = prune.stdout.lines().map(|l| &l[..30]).collect();
    assert_eq!(
        removed,
        [
            "mur devtools verbs remove bump",
            "mur devtools verbs remove idle"
        ]
    );
    // Information, as a `note:` (audit 47 #6: the line had no prefix).
    assert_eq!(
        timeless(&prune.stderr),
        format!(
            "{}\
             note: not judged unused, added since TIME (after the window began): fresh\n\
             a dry run: nothing was removed (`--yes` removes them; `verbs add` brings one \
             back)\n",
            known_log_skipped(&sandbox)
        ),
        "{prune}"
    );
    // Added before the window began, it is judged as any verb.
    added_on(&sandbox, "fresh", &days_ago(2));
    let day = sandbox.devtools(&["verbs", "prune", "--unused-for", "1d"]);
    assert!(
        day.stdout
            .contains("mur devtools verbs remove fresh    # never used in the window (since"),
        "{day}"
    );
}

#[test]
fn prune_while_recording_is_off_says_so_and_removes_only_when_told_to_all_the_same() {
    let sandbox = with_known_verbs_and_log();
    sandbox.devtools(&["usage", "off"]).assert_code(0);
    let dry = sandbox.devtools(&["verbs", "prune", "--unused-for", WINDOW.as_str()]);
    dry.assert_code(0);
    assert!(
        untimed(&dry.stderr).contains(
            "\nwarning: no verb was judged unused: recording is off (`usage off`) since TIME: \
             the calls since are in no record\n\
             hint: `mur devtools usage on` turns it on\n"
        ),
        "{dry}"
    );
    // `idle` is not judged unused: only `bump`, refused too often, is a loser.
    assert_eq!(dry.stdout.lines().count(), 1, "{dry}");
    let refused = sandbox.devtools(&["verbs", "prune", "--unused-for", WINDOW.as_str(), "--yes"]);
    refused.assert_code(1).assert_stderr_is(
        "error: usage recording is off: the calls since it went off are in no record, so nothing is removed\n\
         hint: `mur devtools usage on` turns it on (prune once calls are recorded again), \
         or `--while-off` removes them all the same\n",
    );
    assert_eq!(installed(&sandbox), ["bump", "count", "idle"]);
    let anyway = sandbox.devtools(&[
        "verbs",
        "prune",
        "--unused-for",
        WINDOW.as_str(),
        "--yes",
        "--while-off",
    ]);
    anyway.assert_code(0);
    assert_eq!(installed(&sandbox), ["count", "idle"]);
    // It insists on a removal: with no `--yes`, it is a usage error.
    sandbox
        .devtools(&["verbs", "prune", "--while-off"])
        .assert_code(1);
}

/// A sandbox with the data verbs `bump` (tool `click`) and `idle` (`scroll`), installed
/// long ago, and mur's log reaching back 60 days with one call of neither.
fn bump_and_idle_long_installed() -> Sandbox {
    long_installed(&[("bump", "click"), ("idle", "scroll")], [])
}

/// The sandbox's directory of the sessions' own usage logs, made as a session makes it.
fn private_sessions_dir(sandbox: &Sandbox) -> std::path::PathBuf {
    let sessions = sandbox
        .state_dir()
        .join("mur")
        .join("usage")
        .join("sessions");
    mur_lockfile::ensure_private_dir(&sessions, "sessions").expect("mkdir");
    sessions
}

/// A verb is used when any log read holds a call of it: a session's record of mur's
/// call names the verb and its kind (side `server`, surface `cli`), and saves it
/// though mur's own record is elsewhere (another home: a container, a run of
/// mur-eval). A window that overlaps a time recording was off (`usage off` …
/// `usage on`) holds calls no record has: it begins as much earlier, so a verb goes
/// unused for as long as asked of recorded time.
#[test]
fn a_verb_a_sessions_log_holds_is_not_unused_and_an_off_time_lengthens_the_window() {
    let sandbox = bump_and_idle_long_installed();
    let sessions = private_sessions_dir(&sandbox);
    let served = json!({
        "schema": "mur-usage/1", "time": days_ago(1), "side": "server", "surface": "cli",
        "client": "mur 0.1.0", "verb": "bump", "kind": "data", "tool": "click",
        "outcome": "ok", "ms": 1.0,
    });
    std::fs::write(
        sessions.join("0123456789abcdef.jsonl"),
        format!("{served}\n"),
    )
    .expect("write");
    let report = sandbox.devtools(&["usage", "report", "--json"]);
    let losers: Vec<String> = losers_of(&report.assert_code(0).json())
        .into_iter()
        .map(|(verb, _)| verb)
        .collect();
    assert_eq!(losers, ["idle"], "{report}");
    let prune = sandbox.devtools(&["verbs", "prune"]);
    prune.assert_code(0);
    assert_eq!(
        prune.stdout.lines().map(|l| &l[..30]).collect::<Vec<_>>(),
        ["mur devtools verbs remove idle"],
        "{prune}"
    );
    // Off, then on again: the moment recording was off is in no record, so the window
    // begins as much earlier, and `idle` goes unused for as long as asked of recorded
    // time. It is judged so, and said to be (a moment's `usage off` kept every verb from
    // being judged unused for the whole window).
    sandbox.devtools(&["usage", "off"]).assert_code(0);
    sandbox.devtools(&["usage", "on"]).assert_code(0);
    let text = sandbox.devtools(&["usage", "report"]);
    let (_, losers) = text.stdout.split_once("\nlosers:").unwrap_or_default();
    assert_eq!(
        untimed(losers),
        "\n  idle: never used in the window (since TIME)\n    mur devtools verbs remove idle\n  \
         (recording was off (`usage off`) in the window, latest from TIME to\n   TIME: the calls \
         then are in no record, so the window begins as much earlier,\n   at TIME)\n",
        "{text}"
    );
    // `verbs prune` judges over the same lengthened window, and says so as the report
    // does under its losers, in a note (it said nothing of it: audit 307).
    let off = "note: recording was off (`usage off`) in the window, latest from TIME to TIME: \
               the calls then are in no record, so the window begins as much earlier, at TIME\n";
    let dry = sandbox.devtools(&["verbs", "prune"]);
    dry.assert_code(0);
    assert_eq!(
        untimed(&dry.stderr),
        format!(
            "{off}a dry run: nothing was removed (`--yes` removes them; `verbs add` brings one \
             back)\n"
        ),
        "{dry}"
    );
    let prune = sandbox.devtools(&["verbs", "prune", "--yes"]);
    prune.assert_code(0);
    assert_eq!(untimed(&prune.stderr), off, "{prune}");
    assert_eq!(installed(&sandbox), ["bump"], "{prune}");
}

/// A misspelled `--agent` is said, and so is a log too young, whatever else keeps verbs
/// from being judged unused: recording off since a time in the window hid both (user audit
/// AU7 4: `--agent nobody` printed "0 records" and "no verb to prune", nothing more).
/// The report over no record says so, and lists no tool as one no named verb reached,
/// in the table, the JSON and the page alike (audit 56 #3: every installed verb's tool
/// was listed, as if each went unused).
#[test]
fn a_misspelled_agent_is_said_though_recording_is_off() {
    let sandbox = bump_and_idle_long_installed();
    sandbox.devtools(&["usage", "off"]).assert_code(0);
    let off = "no verb was judged unused: recording is off (`usage off`) since TIME: the calls \
               since are in no record";
    let hint = "hint: `mur devtools usage on` turns it on\n";
    let nobody = "warning: the usage log holds no record of agent `nobody` (its agents: claude): \
                  no verb is judged unused over that window\n";
    let report = sandbox.devtools(&["usage", "report", "--agent", "nobody"]);
    report.assert_code(0);
    assert_eq!(
        (untimed(&report.stdout), untimed(&report.stderr)),
        (
            "0 records (agent `nobody`; usage errors above 50% or failures of the verb's own \
             above 20% of at\nleast 3 calls make a loser)\n\n\
             no record to report: the logs read hold none of agent `nobody`\n\n\
             losers: none\n  (no verb was judged unused: recording is off (`usage off`) \
             since TIME: the\n   calls since are in no record)\n"
                .to_owned(),
            format!(
                "warning: usage recording is off: this report covers what was recorded \
                 before\nwarning: {off}\n{hint}{nobody}"
            )
        ),
        "{report}"
    );
    let json = sandbox.devtools(&["usage", "report", "--agent", "nobody", "--json"]);
    let json = json.assert_code(0).json();
    assert_eq!(
        (&json["records"], &json["toolsWithoutNamedCalls"]),
        (&json!(0), &json!([]))
    );
    let page = sandbox.devtools(&["usage", "report", "--agent", "nobody", "--html", "-"]);
    let page = &page.assert_code(0).stdout;
    assert!(
        page.contains(
            "<p>No record to report: the logs read hold none of agent <code>nobody</code>.</p>"
        ) && !page.contains("no named verb reached"),
        "{page}"
    );
    let prune = sandbox.devtools(&["verbs", "prune", "--agent", "nobody"]);
    prune.assert_code(0).assert_stdout_is("");
    assert_eq!(
        untimed(&prune.stderr),
        format!("warning: {off}\n{hint}{nobody}note: no verb to prune\n"),
        "{prune}"
    );
    // A window the log (60 days) does not reach back past: said too, as while recording
    // is on.
    let young = sandbox.devtools(&["verbs", "prune", "--unused-for", "90d"]);
    young.assert_code(0).assert_stdout_is("");
    assert_eq!(
        untimed(&young.stderr),
        format!(
            "warning: {off}\n{hint}note: the usage log does not go back to TIME: \
             no verb is judged unused over that window\nnote: no verb to prune\n"
        ),
        "{young}"
    );
}

/// `verbs prune --server-log PATH…` reads those logs too, as `usage report --server-log`
/// does: a verb another home's mur log shows used (a study's run) is no loser of
/// either.
#[test]
fn prune_reads_the_logs_the_report_is_given() {
    let sandbox = bump_and_idle_long_installed();
    let elsewhere = sandbox.file(
        "run-state-usage.jsonl",
        format!("{}\n", cli_record(1, "bump", "data", "ok")),
    );
    let elsewhere = elsewhere.to_str().expect("utf-8");
    let removed = |out: mur_e2e::Output| -> Vec<String> {
        out.assert_code(0);
        out.stdout.lines().map(|l| l[..30].to_owned()).collect()
    };
    assert_eq!(
        removed(sandbox.devtools(&["verbs", "prune"])),
        [
            "mur devtools verbs remove bump",
            "mur devtools verbs remove idle"
        ]
    );
    let report = sandbox.devtools(&["usage", "report", "--json", "--server-log", elsewhere]);
    let named: Vec<String> = losers_of(&report.json())
        .into_iter()
        .map(|(v, _)| v)
        .collect();
    assert_eq!(named, ["idle"]);
    assert_eq!(
        removed(sandbox.devtools(&["verbs", "prune", "--server-log", elsewhere])),
        ["mur devtools verbs remove idle"]
    );
    // Several logs after one flag, as a glob gives them: idle is used in the second.
    let other = sandbox.file(
        "other-run-usage.jsonl",
        format!("{}\n", cli_record(1, "idle", "data", "ok")),
    );
    let other = other.to_str().expect("utf-8");
    let both = ["verbs", "prune", "--server-log", elsewhere, other];
    assert_eq!(removed(sandbox.devtools(&both)), Vec::<String>::new());
}

/// A sandbox with the data verbs `count`, `bump` and `idle` installed long ago, mur's own
/// log reaching back to 2025-06-01 then the operator's own call of the data verb `mine`
/// today, and a study's log (`calls.jsonl`, its path returned) of mur's calls its session
/// served, each at a time, of a verb.
fn with_a_study(mine: &str, served: &[(&str, &str)]) -> (Sandbox, String) {
    let sandbox = Sandbox::new();
    for (name, tool) in [("count", "state"), ("bump", "click"), ("idle", "scroll")] {
        add_data_verb(&sandbox, name, tool);
        added_on(&sandbox, name, "2020-01-01T00:00:00Z");
    }
    let mut first = cli_record(0, "guide", "host", "ok");
    first["time"] = json!("2025-06-01T00:00:00.000Z");
    write_log(&sandbox, &[first, cli_record(0, mine, "data", "ok")]);
    let study: String = (served.iter())
        .map(|(time, verb)| {
            let record = json!({ "schema": "mur-usage/1", "time": time, "side": "server",
                "surface": "cli", "verb": verb, "kind": "data", "tool": verb, "outcome": "ok",
                "ms": 1.0 });
            format!("{record}\n")
        })
        .collect();
    let study = sandbox.file("calls.jsonl", study);
    (sandbox, study.display().to_string())
}

/// A study's logs read weeks later (audit 57 #1): counted back from now, every verb
/// the study used is judged unused (and a window longer than the study's age judges
/// none). `--until last` ends the window at the newest record of the logs named, not at
/// the operator's own call of today, and `--until TIME` at that time: the study is
/// judged over its own span, by prune and the report alike.
#[test]
fn a_window_ending_at_a_study_logs_last_record_judges_its_span() {
    // The operator's own call of `idle` today; the study's log one minute long.
    let (sandbox, study) = with_a_study(
        "idle",
        &[
            ("2026-01-20T10:00:00.000Z", "count"),
            ("2026-01-20T10:00:30.000Z", "bump"),
            ("2026-01-20T10:01:00.000Z", "count"),
        ],
    );
    let study = study.as_str();
    let prune = |until: &[&str]| -> String {
        let mut args = vec![
            "verbs",
            "prune",
            "--unused-for",
            "1h",
            "--server-log",
            study,
        ];
        args.extend(until);
        let out = sandbox.devtools(&args);
        out.assert_code(0);
        out.stdout.clone()
    };
    let from_now = prune(&[]);
    assert!(
        from_now.contains("remove bump ") && from_now.contains("remove count "),
        "{from_now}"
    );
    let idle = "mur devtools verbs remove idle    # never used in the window (since 2026-01-20T09:01:00.000Z)\n";
    assert_eq!(prune(&["--until", "last"]), idle);
    assert_eq!(prune(&["--until", "2026-01-20T10:01:00Z"]), idle);
    let args = ["usage", "report", "--unused-for", "1h", "--until", "last"];
    let report = sandbox.devtools(&[&args[..], &["--json", "--server-log", study]].concat());
    let report = report.assert_code(0).json();
    assert_eq!(
        (&report["until"], &report["unusedSince"], &report["records"]),
        (
            &json!("2026-01-20T10:01:00.000Z"),
            &json!("2026-01-20T09:01:00.000Z"),
            &json!(4)
        )
    );
    let losers: Vec<String> = losers_of(&report).into_iter().map(|(v, _)| v).collect();
    assert_eq!(losers, ["idle"]);
    let text = sandbox.devtools(&[&args[..], &["--server-log", study]].concat());
    assert!(
        text.stdout.starts_with(
            "4 records, 2025-06-01T00:00:00.000Z to 2026-01-20T10:01:00.000Z (every agent, \
             up to\n2026-01-20T10:01:00.000Z; "
        ),
        "{}",
        text.stdout
    );
    sandbox
        .devtools(&["verbs", "prune", "--until", "yesterday"])
        .assert_code(1)
        .assert_stderr_contains(
            "`yesterday` is no time: give a UTC RFC 3339 one (`2026-12-02T06:42:22Z`) or \
             `last` (the newest record read)",
        );
}

/// A window that ends where nothing is recorded (review 407 #1): an `--until` past a day
/// from now is refused by the report and prune alike, nothing removed; with
/// `--only-named`, a window begun after the logs named end judges no verb unused, and
/// says why. `--only-verbs` judges the verbs named alone (review 407 #3), the others
/// said not judged.
#[test]
fn a_window_past_every_record_judges_no_verb_and_only_the_verbs_named_are_judged() {
    let (sandbox, study) = with_a_study(
        "bump",
        &[
            ("2026-01-20T10:00:00.000Z", "count"),
            ("2026-01-20T10:01:00.000Z", "bump"),
        ],
    );
    let study = study.as_str();
    let everyone = || {
        let mut names = installed(&sandbox);
        names.sort();
        names
    };
    let all = everyone();
    for command in [&["usage", "report"][..], &["verbs", "prune", "--yes"][..]] {
        let args = [command, &["--until", "2999-01-01T00:00:00Z"][..]].concat();
        let refused = sandbox.devtools(&args);
        refused.assert_code(1).assert_stdout_is("");
        assert_eq!(
            untimed(&refused.stderr),
            "error: invalid value `2999-01-01T00:00:00Z` for `--until <TIME|last>`: \
             `2999-01-01T00:00:00Z` is in the future, where no call is recorded yet: give a \
             time no later than TIME (now, and a day for the clocks of other machines) or \
             `last`\n",
            "{args:?}"
        );
    }
    assert_eq!(everyone(), all);
    let named = ["--only-named", "--server-log", study, "--unused-for", "10m"];
    let after = ["--until", "2026-01-20T11:00:00Z"];
    let pruned = sandbox.devtools(&[&["verbs", "prune", "--yes"][..], &named, &after].concat());
    pruned.assert_code(0).assert_stdout_is("");
    assert_eq!(
        pruned.stderr,
        "note: no verb was judged unused: the logs named end at 2026-01-20T10:01:00.000Z, \
         before the window begins at 2026-01-20T10:50:00.000Z, so none of them recorded a \
         call in it (without `--until`, or with `--until last`, the window ends at their last \
         record)\n\
         note: no verb to prune\n"
    );
    assert_eq!(everyone(), all);
    let report = sandbox.devtools(&[&["usage", "report"][..], &named, &after].concat());
    assert!(
        report.assert_code(0).stdout.ends_with(
            "\nlosers: none\n  (no verb was judged unused: the logs named end at \
             2026-01-20T10:01:00.000Z, before the window\n   begins at 2026-01-20T10:50:00.000Z, \
             so none of them recorded a call in it (without `--until`, or\n   with `--until last`, \
             the window ends at their last record))\n"
        ),
        "{report}"
    );
    // Over their span, the verbs named alone: `idle`, which no run had, is not judged.
    let last = ["--until", "last", "--only-verbs", "count,bump"];
    let dry = sandbox.devtools(&[&["verbs", "prune"][..], &named, &last].concat());
    dry.assert_code(0).assert_stdout_is("");
    assert_eq!(
        dry.stderr,
        "note: only the verbs `--only-verbs` named were judged; not judged: idle\n\
         note: no verb to prune\n"
    );
    let json = sandbox.devtools(&[&["usage", "report", "--json"][..], &named, &last].concat());
    let json = json.assert_code(0).json();
    assert_eq!(
        (&json["onlyVerbs"], &json["notJudged"], &json["losers"]),
        (&json!(["count", "bump"]), &json!(["idle"]), &json!([]))
    );
}

/// After a rotation, the report names the rotated files its records came from, and no
/// live file that is not there (review 407 #6).
#[test]
fn the_report_names_mur_s_rotated_files_and_no_file_that_is_not_there() {
    let sandbox = Sandbox::new();
    write_log(&sandbox, &[cli_record(0, "guide", "host", "ok")]);
    let live = sandbox.usage_log();
    let rotated = live.with_file_name("usage.jsonl.1");
    std::fs::rename(&live, &rotated).expect("rotated");
    let logs = |sandbox: &Sandbox| {
        let report = sandbox.devtools(&["usage", "report", "--json"]);
        let report = report.assert_code(0).json();
        (
            report["records"].clone(),
            report["logsRead"]["mur"].clone(),
            report["logsRead"]["murRotated"].clone(),
        )
    };
    let rotated = rotated.to_str().expect("utf-8");
    assert_eq!(logs(&sandbox), (json!(1), Value::Null, json!([rotated])));
    write_log(&sandbox, &[cli_record(0, "guide", "host", "ok")]);
    let live = live.to_str().expect("utf-8");
    assert_eq!(logs(&sandbox), (json!(2), json!(live), json!([rotated])));
}

/// `--html FILE` naming a log the report reads (mur's own, a `--server-log`, a
/// session's) is refused, exit 1, the log untouched: the page would replace it.
#[test]
fn a_page_is_never_written_over_a_log_the_report_reads() {
    let sandbox = with_known_verbs_and_log();
    let own = sandbox.usage_log();
    let before = std::fs::read(&own).expect("the log");
    let served = sandbox.file("served.jsonl", format!("{}\n", served_record("state")));
    let served_arg = served.to_str().expect("utf-8");
    // mur's own log, also by another name; a `--server-log`; a session's own log.
    let dotted = own.parent().expect("dir").join(".").join("usage.jsonl");
    let sessions = own.parent().expect("dir").join("sessions");
    mur_lockfile::ensure_private_dir(&sessions, "sessions").expect("mkdir");
    let session = sessions.join("0123456789abcdef.jsonl");
    std::fs::write(&session, format!("{}\n", served_record("state"))).expect("write");
    let pages = [
        (&own, None),
        (&dotted, None),
        (&served, Some(served_arg)),
        (&session, None),
    ];
    for (page, extra) in pages {
        let page_arg = page.to_str().expect("utf-8");
        let mut args = vec!["usage", "report", "--html", page_arg];
        if let Some(log) = extra {
            args.extend(["--server-log", log]);
        }
        let refused = sandbox.devtools(&args);
        refused.assert_code(1).assert_stdout_is("");
        assert!(
            refused.stderr.starts_with(&format!(
                "error: `--html {page_arg}`: that is the usage log `"
            )),
            "{refused}"
        );
        assert!(
            refused.stderr.ends_with(
                "`, which this report reads; the page would replace its records\n\
                 hint: write the page to another file (`--html usage.html`)\n"
            ),
            "{refused}"
        );
    }
    assert_eq!(std::fs::read(&own).expect("the log"), before);
    assert_eq!(records(&served).len(), 1);
    assert_eq!(records(&session).len(), 1);
    // Another file is written as ever.
    let page = sandbox.root().join("usage.html");
    sandbox
        .devtools(&["usage", "report", "--html", page.to_str().expect("utf-8")])
        .assert_code(0);
    assert!(page.is_file());
}

/// `text` with each time as records write it (`2026-11-29T11:12:47.789Z`) as `TIME`.
fn untimed(text: &str) -> String {
    const SHAPE: &[u8] = b"0000-00-00T00:00:00.000Z";
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut at = 0;
    while at < bytes.len() {
        let here = bytes.get(at..at + SHAPE.len()).is_some_and(|b| {
            b.iter().zip(SHAPE).all(|(c, s)| match s {
                b'0' => c.is_ascii_digit(),
                _ => c == s,
            })
        });
        if here {
            out.push_str("TIME");
            at += SHAPE.len();
        } else {
            let c = text[at..].chars().next().unwrap_or_default();
            out.push(c);
            at += c.len_utf8();
        }
    }
    out
}

/// A team with no named verb, driving a third-party server through mur's derived verbs,
/// is told what a word asked for was near, as mur told the caller when it was typed:
/// the derived verbs mur ran (`echo`, `get-sum`) and a tool that answered a `call`, by
/// its verb name (`take_screenshot` is `take-screenshot`). A word near none of them keeps
/// `–`. (Only the installed verbs and mur's commands were compared: `–` for every one.)
#[test]
fn a_verb_asked_for_is_near_the_session_verbs_the_log_shows() {
    let sandbox = Sandbox::new();
    let tool = |name: &str| json!({ "name": name, "inputSchema": { "type": "object" } });
    let tools = json!([tool("echo"), tool("get-sum"), tool("take_screenshot")]);
    let server = Stub::with_tools(tools, |_| {
        Ok(json!({ "content": [{ "type": "text", "text": "ok" }] }))
    });
    let endpoint = server.endpoint();
    let devtools = |words: &[&str]| sandbox.devtools_at(&endpoint, words);
    devtools(&["echo"]).assert_code(0);
    devtools(&["get-sum"]).assert_code(0);
    devtools(&["call", "take_screenshot"]).assert_code(0);
    for (typed, near) in [
        ("ech", "echo"),
        ("getSum", "get-sum"),
        ("get_sum", "get-sum"),
        ("take-screenshoot", "take-screenshot"),
    ] {
        let out = devtools(&[typed]);
        out.assert_code(1);
        assert!(
            out.stderr
                .contains(&format!("hint: did you mean `{near}`?\n")),
            "{out}"
        );
    }
    devtools(&["get-text", "--selector", "#count"]).assert_code(1);
    let report = quiet_report(&sandbox);
    let asked = report
        .stdout
        .split("\n\n")
        .find(|part| part.starts_with("verbs asked for that do not exist"))
        .unwrap_or_default();
    assert_eq!(
        untimed(asked),
        "\
verbs asked for that do not exist (as typed; WORD: a word not an option; NEAREST: a likely typo):
ARGV                 TIMES  LAST                      NEAREST
ech                  1      TIME  echo
get-text --selector  1      TIME  –
getSum               1      TIME  get-sum
get_sum              1      TIME  get-sum
take-screenshoot     1      TIME  take-screenshot",
        "{report}"
    );
}

#[test]
fn each_log_is_read_once_and_an_agent_says_what_it_leaves_out() {
    let sandbox = with_known_verbs_and_log();
    let served = json!({
        "schema": "mur-usage/1", "time": "2026-01-05T10:00:00.000Z", "side": "server",
        "surface": "mcp", "tool": "state", "outcome": "ok", "ms": 2.0,
    });
    let served = sandbox.file("served.jsonl", format!("{served}\n"));
    let served = served.display().to_string();
    let own = sandbox.usage_log().display().to_string();
    let counts = |more: &[&str]| {
        let out = sandbox.devtools(&[&["usage", "report", "--json"][..], more].concat());
        out.assert_code(0);
        let report = out.json();
        let calls = |surface: &str| row(&report["surfaces"], surface)["calls"].clone();
        let counted = (
            report["records"].clone(),
            calls("cli/data"),
            calls("server/mcp"),
        );
        (counted, out.stderr)
    };
    let (once, _) = counts(&["--server-log", &served]);
    assert_eq!(once, (json!(15), json!(10), json!(1)));
    // Named twice, by another path, or mur's own log given as a session's: once.
    let dotted = format!("{}/./served.jsonl", sandbox.root().display());
    let (again, said) = counts(&[
        "--server-log",
        &served,
        "--server-log",
        &dotted,
        "--server-log",
        &served,
        "--server-log",
        &own,
    ]);
    assert_eq!(again, once);
    for line in [
        format!("warning: `{dotted}` is `{served}`, read already: its records are counted once\n"),
        format!("warning: `{served}` is given more than once: its records are counted once\n"),
        format!(
            "warning: `{own}` is mur's own usage log, read already: its records are counted once\n"
        ),
    ] {
        assert!(said.contains(&line), "{line}in {said}");
    }
    // A session's record names no agent: `--agent` leaves it out, and says so.
    let agent = sandbox.devtools(&[
        "usage",
        "report",
        "--json",
        "--agent",
        "claude",
        "--server-log",
        &served,
    ]);
    agent.assert_code(0).assert_stderr_contains(
        "warning: `--agent` leaves out the sessions' 1 record(s): a session's record names no agent\n",
    );
    let report = agent.json();
    assert_eq!(
        (&report["records"], &report["serverRecordsLeftOut"]),
        (&json!(14), &json!(1))
    );
}

/// A study's session logs, `runs/*/*/*/calls.jsonl`, follow one `--server-log` as a
/// shell's glob gives them (docs/usage.md says to pass them so): each is read, as with
/// the flag repeated.
#[test]
fn the_logs_a_glob_gives_follow_one_server_log() {
    let sandbox = Sandbox::new();
    for (run, tool) in [
        ("cli/a/1", "click"),
        ("mcp/a/1", "state"),
        ("mcp/a/2", "state"),
    ] {
        let record = format!("{}\n", served_record(tool));
        sandbox.file(&format!("study/runs/{run}/calls.jsonl"), record);
    }
    let globbed = mur_e2e::run(
        sandbox
            .shell_command(
                "mur devtools usage report --json --server-log study/runs/*/*/*/calls.jsonl",
            )
            .current_dir(sandbox.root()),
    );
    globbed.assert_code(0);
    let report = globbed.json();
    let calls = |name: &str| &row(&report["toolsServed"], name)["calls"];
    assert_eq!(
        (&report["records"], calls("click"), calls("state")),
        (&json!(3), &json!(1), &json!(2)),
        "{globbed}"
    );
    // The flag given once per file reads the same.
    let root = sandbox.root().display().to_string();
    let repeated: Vec<String> = ["cli/a/1", "mcp/a/1", "mcp/a/2"]
        .iter()
        .flat_map(|run| {
            [
                "--server-log".to_owned(),
                format!("{root}/study/runs/{run}/calls.jsonl"),
            ]
        })
        .collect();
    let repeated: Vec<&str> = repeated.iter().map(String::as_str).collect();
    let again = sandbox.devtools(&[&["usage", "report", "--json"][..], &repeated].concat());
    again.assert_code(0);
    assert_eq!(again.json()["records"], json!(3), "{again}");
}

/// A report names every log it read, so a saved table, JSON or page can be traced to
/// its inputs (user audit AU7 6: `--server-log runs/*/*/*/calls.jsonl` read 9 logs, and
/// the report named one directory): mur's own, the sessions' found, and each given with
/// `--server-log`, absolute; the table spells out a few, and says where many are.
#[test]
fn a_report_names_every_log_it_read() {
    let sandbox = Sandbox::new();
    write_log(&sandbox, &[cli_record(1, "guide", "host", "ok")]);
    let sessions = private_sessions_dir(&sandbox);
    let found = sessions.join("0123456789abcdef.jsonl");
    std::fs::write(&found, format!("{}\n", served_record("click"))).expect("write");
    let (sessions, found) = (sessions.display(), found.display().to_string());
    let runs = ["cli/a/1", "cli/a/2", "mcp/a/1", "mcp/a/2"];
    for run in runs {
        let record = format!("{}\n", served_record("state"));
        sandbox.file(&format!("study/runs/{run}/calls.jsonl"), record);
    }
    let root = sandbox.root().display().to_string();
    let run_logs: Vec<String> = runs
        .iter()
        .map(|run| format!("{root}/study/runs/{run}/calls.jsonl"))
        .collect();
    // As a glob gives them, relative to the study's directory.
    let globbed = |how: &str| {
        let line =
            format!("mur devtools usage report {how} --server-log study/runs/*/*/*/calls.jsonl");
        let out = mur_e2e::run(sandbox.shell_command(&line).current_dir(sandbox.root()));
        out.assert_code(0).assert_stderr_is("");
        out
    };
    // The line under the first (wrapped at 100 columns) that names the logs read.
    let second_line = |out: &mur_e2e::Output| {
        (out.stdout.lines())
            .find(|line| line.starts_with("(with ") || line.starts_with("(only "))
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(
        second_line(&globbed("")),
        format!(
            "(with the tool calls the sessions served, as 1 log in `{sessions}` and 4 given \
             with `--server-log` under `{root}/study/runs` record them; `--json` and `--html` \
             name each)"
        )
    );
    assert_eq!(
        globbed("--json").json()["logsRead"],
        json!({
            "mur": sandbox.usage_log().display().to_string(),
            "sessions": [found],
            "serverLogs": run_logs,
            "onlyNamed": false,
        })
    );
    let page = globbed("--html -").stdout;
    let each: Vec<String> = run_logs
        .iter()
        .map(|l| format!("<code>{l}</code>"))
        .collect();
    for said in [
        format!(
            "<li>mur's usage log: <code>{}</code>.</li>",
            sandbox.usage_log().display()
        ),
        format!("<li>The sessions' usage logs found (1): <code>{found}</code>.</li>"),
        format!(
            "<li>The logs given with <code>--server-log</code> (4): {}.</li>",
            each.join(", ")
        ),
    ] {
        assert!(page.contains(&said), "{said}\n{page}");
    }
    // A few are spelled out; a session's log named too is named once, as given.
    let given = sandbox.devtools(&[
        "usage",
        "report",
        "--server-log",
        &run_logs[0],
        &found,
        &run_logs[0],
    ]);
    given.assert_code(0);
    assert_eq!(
        second_line(&given),
        format!(
            "(with the tool calls the sessions served, as 2 logs given with `--server-log` \
             (`{}`, `{found}`) record them)",
            run_logs[0]
        ),
        "{given}"
    );
}

/// A study's logs, as mur-eval keeps them: a CLI run's `calls.jsonl` (mur's calls as its
/// session served them) and `state/mur/usage/usage.jsonl` (mur's own records, side
/// `cli`), an MCP run's `calls.jsonl`. Returns their paths (absolute) in that order.
fn study_logs(sandbox: &Sandbox) -> [String; 3] {
    let served_cli = json!({ "schema": "mur-usage/1", "time": "2026-01-20T10:00:00.500Z",
        "side": "server", "surface": "cli", "client": "mur 0.1.0", "verb": "bump",
        "kind": "data", "tool": "click", "outcome": "ok", "ms": 3.0 });
    let mur = json!({ "schema": "mur-usage/1", "time": "2026-01-20T10:00:00.000Z",
        "side": "cli", "surface": "cli", "agent": "claude", "verb": "bump", "kind": "data",
        "tool": "click", "outcome": "ok", "ms": 5.0 });
    let served_mcp = json!({ "schema": "mur-usage/1", "time": "2026-01-20T10:01:00.000Z",
        "side": "server", "surface": "mcp", "client": "agent 1", "tool": "click",
        "outcome": "ok", "ms": 2.0 });
    [
        ("st1/runs/cli/t/1/calls.jsonl", served_cli),
        ("st1/runs/cli/t/1/state/mur/usage/usage.jsonl", mur),
        ("st1/runs/mcp/t/1/calls.jsonl", served_mcp),
    ]
    .map(|(path, record)| {
        let path = sandbox.file(path, format!("{record}\n"));
        path.display().to_string()
    })
}

/// A report over a study's logs (operator audit 279): `--only-named` reads them alone,
/// not the operator's own log nor the sessions' found beside it (a record planted in
/// each is not counted, as it was); the line under the first says what each log named
/// held — a run's mur log given with `--server-log` holds mur's calls, counted as mur's,
/// not "the tool calls the sessions served"; and under the surfaces, `server/cli`
/// against `server/mcp` is said to be how often each was used, not which agents prefer.
#[test]
fn only_the_logs_named_are_read_and_said_for_what_they_hold() {
    let sandbox = Sandbox::new();
    // The operator's own call, made by hand, and a session's log found beside it.
    write_log(&sandbox, &[cli_record(0, "idle", "data", "ok")]);
    let found = private_sessions_dir(&sandbox).join("0123456789abcdef.jsonl");
    std::fs::write(&found, format!("{}\n", served_record("scroll"))).expect("write");
    let [a, b, c] = study_logs(&sandbox);
    let named = ["--server-log", &a, &b, &c];
    let report = |more: &[&str]| {
        let out = sandbox.devtools(&[&["usage", "report"][..], more].concat());
        out.assert_code(0).assert_stderr_is("");
        out
    };
    let only = report(&[&["--only-named"][..], &named].concat());
    // The window (30 days) ends at their last record, which the report says, not now.
    assert_eq!(
        only.stdout,
        format!(
            concat!("\
3 records, 2026-01-20T10:00:00.000Z to 2026-01-20T10:01:00.000Z (every agent, up to
2026-01-20T10:01:00.000Z; usage errors above 50% or failures of the verb's own above 20% of at least
3 calls make a loser)
(only the logs named (`--only-named`): the tool calls the sessions served, as 2 logs given with `--server-log` (`{a}`, `{c}`) record them, and mur's calls, as 1 log given with `--server-log` (`{b}`) records them)
(the logs named end at 2026-01-20T10:01:00.000Z: the window ends there; `--until` sets another end)
",
legend!(),
"
verbs (as mur ran them):
VERB         {h}
bump (data)  1      1   0      0     0    0       0      0     5      5      2026-01-20T10:00:00.000Z

surfaces, as the sessions served them (one row per surface):
SURFACE     {h}
server/cli  1      1   0      0     0    0       0      0     3      3      2026-01-20T10:00:00.500Z
server/mcp  1      1   0      0     0    0       0      0     2      2      2026-01-20T10:01:00.000Z

surfaces, as mur ran them (by verb kind):
SURFACE   {h}
cli/data  1      1   0      0     0    0       0      0     5      5      2026-01-20T10:00:00.000Z
(a call of mur's to a session that records usage is in both groups; `server/cli` against
`server/mcp` is how often each was used: a preference only where the same agents were offered both,
not across a study's CLI-only and MCP-only runs)

tools called by mur:
TOOL   {h}
click  1      1   0      0     0    0       0      0     5      5      2026-01-20T10:00:00.000Z

tools served by the session:
TOOL   {h}
click  2      2   0      0     0    0       0      0     2      3      2026-01-20T10:01:00.000Z

clients the sessions served:
CLIENT     {h}
agent 1    1      1   0      0     0    0       0      0     2      2      2026-01-20T10:01:00.000Z
mur 0.1.0  1      1   0      0     0    0       0      0     3      3      2026-01-20T10:00:00.500Z

losers: none
"),
            h = "CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED",
            a = a,
            b = b,
            c = c,
        ),
        "{only}"
    );
    let json = report(&[&["--only-named", "--json"][..], &named].concat()).json();
    assert_eq!(
        (&json["records"], &json["logsRead"]),
        (
            &json!(3),
            &json!({ "mur": null, "sessions": [], "serverLogs": [a, b, c], "onlyNamed": true })
        )
    );
    let page = report(&[&["--only-named", "--html", "-"][..], &named].concat()).stdout;
    for said in [
        "<li>Only the logs given with <code>--server-log</code> were read \
         (<code>--only-named</code>): not mur's own usage log, nor the sessions' found beside \
         it.</li>",
        "<p>A call of mur's to a session that records usage is in both groups; \
         <code>server/cli</code> against <code>server/mcp</code> is how often each was used: a \
         preference only where the same agents were offered both, not across a study's \
         CLI-only and MCP-only runs.</p>",
    ] {
        assert!(page.contains(said), "{said}\n{page}");
    }
    // Without it, the operator's own call and the session's found are counted too; a log
    // named that holds no record is said to hold none.
    let empty = sandbox.file("st1/runs/mcp/t/2/calls.jsonl", "");
    let empty = empty.display().to_string();
    let mixed = report(&[&named[..], &[&empty]].concat());
    let sessions = found.parent().expect("dir").display();
    let mixed = untimed(&mixed.stdout);
    assert_eq!(
        mixed.lines().take(3).collect::<Vec<_>>(),
        [
            "5 records, TIME to TIME (every agent; usage errors above 50%".to_owned(),
            "or failures of the verb's own above 20% of at least 3 calls make a loser)".to_owned(),
            format!(
                "(with the tool calls the sessions served, as 1 log in `{sessions}` and 2 given \
                 with `--server-log` (`{a}`, `{c}`) record them, mur's calls, as 1 log given \
                 with `--server-log` (`{b}`) records them, and 1 log given with `--server-log` \
                 (`{empty}`) holds no record)"
            ),
        ],
        "{mixed}"
    );
    // Nothing named, nothing to read: refused.
    sandbox
        .devtools(&["usage", "report", "--only-named"])
        .assert_code(1)
        .assert_stderr_is(
            "error: missing argument `--server-log <PATH>...`\n\
             hint: usage: mur devtools usage report --server-log <PATH>... --only-named \
             (`--help` shows more)\n",
        );
}

/// `verbs prune --only-named` judges by the logs named alone, as the report does: a verb
/// the operator called by hand is unused in the study's logs, and the operator's own
/// recording being off (`usage off`) holds nothing of them back. The window ends at their
/// last record without `--until`, as with `--until last`, and the report says so (review
/// 516 #5: it ended now, after that record, so plain `--only-named` judged no verb); an
/// `--until` past that record judges none, and the note says why.
#[test]
fn prune_judges_by_the_logs_named_alone_with_only_named() {
    let sandbox = long_installed(&[("idle", "scroll")], [cli_record(0, "idle", "data", "ok")]);
    // A study's mur log, reaching back past the window and ended a day ago: `idle` never
    // called.
    let study = sandbox.file(
        "st2/runs/cli/t/1/state/mur/usage/usage.jsonl",
        format!(
            "{}\n{}\n",
            cli_record(60, "guide", "host", "ok"),
            cli_record(1, "guide", "host", "ok")
        ),
    );
    let study = study.display().to_string();
    let prune = |more: &[&str]| {
        let out =
            sandbox.devtools(&[&["verbs", "prune", "--server-log", &study][..], more].concat());
        out.assert_code(0);
        out
    };
    prune(&[]).assert_stdout_is("");
    let removed = prune(&["--only-named"]);
    assert_eq!(
        untimed(&removed.stdout),
        "mur devtools verbs remove idle    # never used in the window (since TIME)\n",
        "{removed}"
    );
    let last = prune(&["--only-named", "--until", "last"]);
    assert_eq!(last.stdout, removed.stdout, "{last}");
    // Ended after their last record (now): none of them recorded through the window.
    let now = days_ago(0);
    let past = prune(&["--only-named", "--until", &now]);
    past.assert_stdout_is("");
    assert_eq!(
        untimed(&past.stderr),
        "note: no verb was judged unused: the logs named end at TIME, before the window ends \
         at TIME, so none of them recorded a call in all of it (without `--until`, or with \
         `--until last`, the window ends at their last record)\nnote: no verb to prune\n"
    );
    sandbox.devtools(&["usage", "off"]).assert_code(0);
    let after = prune(&["--only-named"]);
    assert_eq!(after.stdout, removed.stdout, "{after}");
    // Nor does the report say your recording is off: it read none of your log. It says
    // where the window ends.
    let report = ["usage", "report", "--server-log", &study, "--only-named"];
    let report = sandbox.devtools(&report);
    report.assert_code(0).assert_stderr_is("");
    // Its first line, and under the logs read, where the window ends.
    // (The first wrapped at 100 columns, the logs read on its fourth.)
    let lines: Vec<&str> = report.stdout.lines().collect();
    assert_eq!(
        untimed(&[&lines[..3], &lines[4..5]].concat().join("\n")),
        "2 records, TIME to TIME (every agent, up to\nTIME; usage errors above 50% or \
         failures of the verb's own above 20% of at least\n3 calls make a loser)\n\
         (the logs named end at TIME: the window ends there; `--until` sets another end)",
        "{report}"
    );
    prune(&["--only-named", "--yes"])
        .assert_stdout_contains("removed verb `idle` (never used in the window (since ");
    assert_eq!(installed(&sandbox), Vec::<String>::new());
}

/// A study's logs, read alone (`--only-named`), are the whole record judged by: they
/// begin inside any window that covers the study (here, a few minutes in an hour), so the
/// window is judged over their span, first record to last, and the verdict says so; the
/// verbs are judged whenever they were added to your verb directory (today, after the
/// study). A verb called in the study's mur log or served in its `calls.jsonl` is used;
/// your own call of `idle` counts for nothing. (Before, the logs named did not reach
/// back past the window: no verb was judged unused, and prune proposed none.)
#[test]
fn prune_judges_a_studys_verbs_over_the_span_of_its_logs_with_only_named() {
    let sandbox = Sandbox::new();
    for (name, tool) in [("press", "click"), ("tap", "click"), ("idle", "scroll")] {
        add_data_verb(&sandbox, name, tool);
    }
    let mut first = cli_record(0, "guide", "host", "ok");
    first["time"] = json!("2025-06-01T00:00:00.000Z");
    write_log(&sandbox, &[first, cli_record(0, "idle", "data", "ok")]);
    let at = |mut record: Value, time: &str| {
        record["time"] = json!(time);
        record
    };
    let mur_log = [
        at(
            cli_record(0, "guide", "host", "ok"),
            "2026-11-20T10:00:00.000Z",
        ),
        at(
            cli_record(0, "press", "data", "ok"),
            "2026-11-20T10:02:00.000Z",
        ),
    ];
    let served = json!({ "schema": "mur-usage/1", "time": "2026-11-20T10:04:00.000Z",
        "side": "server", "surface": "cli", "client": "mur 0.1.0", "verb": "tap",
        "kind": "data", "tool": "click", "outcome": "ok", "ms": 1.0 });
    let lines =
        |records: &[Value]| -> String { records.iter().map(|r| format!("{r}\n")).collect() };
    let usage = sandbox.file(
        "st/runs/cli/t/1/state/mur/usage/usage.jsonl",
        lines(&mur_log),
    );
    let calls = sandbox.file("st/runs/cli/t/1/calls.jsonl", lines(&[served]));
    let (usage, calls) = (usage.display().to_string(), calls.display().to_string());
    let judging = |command: &[&str], more: &[&str]| {
        let window = [
            "--until",
            "last",
            "--unused-for",
            "1h",
            "--server-log",
            &calls,
            &usage,
        ];
        let out = sandbox.devtools(&[command, &window[..], more].concat());
        out.assert_code(0);
        out
    };
    let never = "never used in the logs named (2026-11-20T10:00:00.000Z to \
                 2026-11-20T10:04:00.000Z)";
    judging(&["verbs", "prune", "--only-named"], &[])
        .assert_stdout_is(format!("mur devtools verbs remove idle    # {never}\n"))
        .assert_stderr_contains("a dry run: nothing was removed");
    // Without it, as before: your own log reaches back, but the verbs were added since.
    judging(&["verbs", "prune"], &[]).assert_stdout_is("");
    let report = judging(&["usage", "report", "--only-named"], &["--json"]).json();
    assert_eq!(losers_of(&report), [("idle".to_owned(), never.to_owned())]);
    assert_eq!(
        (
            &report["unusedSince"],
            &report["windowCovered"],
            &report["addedInWindow"]
        ),
        (&json!("2026-11-20T10:00:00.000Z"), &json!(true), &json!([]))
    );
    let text = judging(&["usage", "report", "--only-named"], &[]);
    assert!(text.stdout.contains(never), "{text}");
    // The page says it as the text does: over the logs named, not "no call since" their
    // first record, which read as a window up to now (the calls after their last were
    // never read).
    let page = judging(&["usage", "report", "--only-named"], &["--html", "-"]).stdout;
    for said in [
        "<li>Losers: installed named verbs with no call in the logs named \
         (2026-11-20T10:00:00.000Z to 2026-11-20T10:04:00.000Z), or",
        never,
    ] {
        assert!(page.contains(said), "{said}\n{page}");
    }
    assert!(!page.contains("no call since"), "{page}");
    judging(&["verbs", "prune", "--only-named"], &["--yes"])
        .assert_stdout_contains(&format!("removed verb `idle` ({never}"));
    assert_eq!(installed(&sandbox), ["press", "tap"]);
}

/// `guide` is recorded as the other commands are, so a record of it that cannot be
/// written is said as theirs is (it said nothing: `guide` never started the verbose
/// log); once, `-v` or not (it was a `-v` DEBUG line alone: audit 307 #26).
#[test]
fn a_guides_record_that_cannot_be_written_is_said_as_any_commands() {
    let sandbox = Sandbox::new();
    let log = sandbox.usage_log();
    std::fs::create_dir_all(log.parent().expect("dir")).expect("mkdir");
    mur_e2e::mkfifo(&log);
    let why = format!(
        "warning: cannot write the usage log `{}`: it is a FIFO, not a regular file; this \
         call is not recorded\n",
        log.display()
    );
    let guide = sandbox.devtools(&["guide"]);
    guide.assert_code(0).assert_stderr_is(&why);
    let clean = sandbox.devtools(&["-v", "session", "clean"]);
    clean
        .assert_code(0)
        .assert_stderr_is(format!("removed 0 stale entries\n{why}"));
}

#[test]
fn a_log_that_is_no_file_or_holds_hostile_lines_is_refused_or_read_never_hung_on() {
    let sandbox = Sandbox::new();
    let log = sandbox.usage_log();
    std::fs::create_dir_all(log.parent().expect("dir")).expect("mkdir");
    let made = std::process::Command::new("mkfifo").arg(&log).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    // Before, every call hung on opening the FIFO to append its record.
    sandbox.devtools(&["session", "list"]).assert_code(4);
    let report = sandbox.devtools(&["usage", "report"]);
    report.assert_code(7).assert_stderr_is(format!(
        "error: cannot read `{}`: it is a FIFO, not a regular file\n",
        log.display()
    ));
    // A log the caller names is the caller's word: exit 1.
    std::fs::remove_file(&log).expect("rm fifo");
    let fifo = sandbox.root().join("served.jsonl");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let theirs = sandbox.devtools(&[
        "usage",
        "report",
        "--server-log",
        &fifo.display().to_string(),
    ]);
    theirs
        .assert_code(1)
        .assert_stderr_contains("it is a FIFO, not a regular file");
    // A verb name of 70,000 characters, a count of words read as four billion (the
    // report spelled out every `WORD`, and a table cell that wide panicked), and a
    // line of 2 MiB: read, cut, counted.
    let refused = |verb: &str, positionals: u32| {
        json!({
            "schema": "mur-usage/1", "time": "2026-01-01T10:00:00.000Z", "side": "cli",
            "surface": "cli", "verb": verb, "kind": "derived", "tool": "t",
            "outcome": "usage-error", "ms": 1.0,
            "argv": { "options": [], "positionals": positionals },
        })
    };
    let text = format!(
        "{}\n{}\n{}\n",
        refused(&"v".repeat(70_000), 1),
        refused("wait-for", u32::MAX),
        "x".repeat(2 << 20)
    );
    std::fs::write(&log, text).expect("write log");
    let out = sandbox.devtools(&["usage", "report"]);
    out.assert_code(0);
    assert!(out.stdout.contains(" WORD ×4294967295"), "{out}");
    assert!(
        out.stdout.lines().all(|l| l.chars().count() < 2_200),
        "a line of the report is too long"
    );
    assert!(
        out.stderr
            .contains("1 line(s) of the usage logs are not records"),
        "{out}"
    );
}

/// A session's record (side `server`, surface `mcp`) of `tool`, on 2026-01-01.
fn served_record(tool: &str) -> Value {
    json!({
        "schema": "mur-usage/1", "time": "2026-01-01T10:00:00.000Z", "side": "server",
        "surface": "mcp", "client": "agent 1", "tool": tool, "outcome": "ok", "ms": 2.0,
    })
}

#[test]
fn record_text_reaches_the_terminal_escaped_and_the_page_not_at_all() {
    // A hostile server's tool name, as a session (or a bridge) recorded it: terminal
    // commands, a line of its own, and a right-to-left override that would show the
    // rest of the line reversed.
    let sandbox = Sandbox::new();
    // A named verb installed: the report lists the tools none reached, the hostile
    // one among them.
    add_data_verb(&sandbox, "greet", "zzz");
    let evil = "evil\u{202e}\x1b[31mname\r\0\nerror: forged";
    let log = sandbox.file("served.jsonl", format!("{}\n", served_record(evil)));
    let log = log.display().to_string();
    let out = sandbox.devtools(&["usage", "report", "--server-log", &log]);
    out.assert_code(0);
    // Its own lines and columns kept; every control character the record held escaped,
    // in the table and in the list alike.
    let (shown, _) = out
        .stdout
        .split_once("  (no verb was judged unused")
        .unwrap_or_default();
    assert_eq!(
        shown.replace(&log, "LOG"),
        concat!("\
1 record, 2026-01-01T10:00:00.000Z to 2026-01-01T10:00:00.000Z (every agent; usage errors above 50%
or failures of the verb's own above 20% of at least 3 calls make a loser)
(with the tool calls the sessions served, as 1 log given with `--server-log` (`LOG`) records them)
",
legend!(),
"
surfaces, as the sessions served them (one row per surface):
SURFACE     CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
server/mcp  1      1   0      0     0    0       0      0     2      2      2026-01-01T10:00:00.000Z

tools served by the session:
TOOL                                               CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
evil\\u{202e}\\x1b[31mname\\x0d\\x00\\x0aerror: forged  1      1   0      0     0    0       0      0     2      2      2026-01-01T10:00:00.000Z

clients the sessions served:
CLIENT   CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
agent 1  1      1   0      0     0    0       0      0     2      2      2026-01-01T10:00:00.000Z

tools no named verb reached: evil\\u{202e}\\x1b[31mname\\x0d\\x00\\x0aerror: forged, zzz

losers: none
"),
        "{out}"
    );
    // `--html -` on a terminal is refused as `call --out -` is (`script` gives mur one).
    let line = format!("mur devtools usage report --server-log {log} --html -");
    mur_e2e::process::run(&mut sandbox.on_a_terminal(&line))
        .assert_code(1)
        .assert_stdout_is(
            "error: `--html -` writes the report's page (HTML) to stdout, which is a terminal\r\n\
             hint: pipe it (`| w3m -T text/html`, `> usage.html`) or write a file: `--html FILE`\r\n",
        );
}

/// A call of a tool the session does not have (outcome `rpc-error`: nothing ran) is
/// counted as its record says, in a column of its own as on mur's side, not as a tool of
/// the session's that failed (user audit AU7 9: `getText … TOOL-FAIL 1`).
#[test]
fn a_call_of_a_tool_the_session_lacks_is_an_rpc_error_not_a_tool_failure() {
    let sandbox = Sandbox::new();
    let with = |tool: &str, outcome: &str| {
        let mut record = served_record(tool);
        record["outcome"] = outcome.into();
        format!("{record}\n")
    };
    let log = sandbox.file(
        "served.jsonl",
        [
            with("state", "ok"),
            with("state", "tool-error"),
            with("getText", "rpc-error"),
        ]
        .concat(),
    );
    let log = log.display().to_string();
    let out = sandbox.devtools(&["usage", "report", "--server-log", &log]);
    out.assert_code(0).assert_stderr_is("");
    assert_eq!(
        untimed(&out.stdout),
        format!(
            concat!(
                "\
3 records, TIME to TIME (every agent; usage errors above 50%
or failures of the verb's own above 20% of at least 3 calls make a loser)
(with the tool calls the sessions served, as 1 log given with `--server-log` (`{log}`) records them)
",
                legend!(),
                "
surfaces, as the sessions served them (one row per surface):
SURFACE     CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
server/mcp  3      1   0      1     1    0       0      0     2      2      TIME

tools served by the session:
TOOL     CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
state    2      1   0      1     0    0       0      0     2      2      TIME
getText  1      0   0      0     1    0       0      0     2      2      TIME

clients the sessions served:
CLIENT   CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
agent 1  3      1   0      1     1    0       0      0     2      2      TIME

losers: none
  (no verb was judged unused: the records read do not go back to TIME)
"
            ),
            log = log
        ),
        "{out}"
    );
    let report = sandbox
        .devtools(&["usage", "report", "--server-log", &log, "--json"])
        .json();
    let figures = |table: &str, name: &str| {
        let row = row(&report[table], name);
        [&row["calls"], &row["toolFailures"], &row["rpcErrors"]].map(Value::clone)
    };
    assert_eq!(
        figures("toolsServed", "getText"),
        [json!(1), json!(0), json!(1)]
    );
    assert_eq!(
        figures("toolsServed", "state"),
        [json!(2), json!(1), json!(0)]
    );
    assert_eq!(
        figures("surfaces", "server/mcp"),
        [json!(3), json!(1), json!(1)]
    );
    let page = sandbox.devtools(&["usage", "report", "--server-log", &log, "--html", "-"]);
    let page = page.assert_code(0).stdout.clone();
    assert!(
        page.contains("<td>getText</td><td>1</td><td>0</td><td>0</td><td>0</td><td>1</td>"),
        "{page}"
    );
}

#[test]
fn an_agents_name_in_a_warning_is_one_line() {
    let sandbox = Sandbox::new();
    let mut forger = cli_record(1, "guide", "host", "ok");
    forger["agent"] = "ag\x1b[31mX\nerror: fake".into();
    write_log(&sandbox, &[forger, cli_record(2, "guide", "host", "ok")]);
    let out = sandbox.devtools(&["usage", "report", "--agent", "nobody"]);
    out.assert_code(0).assert_stderr_is(
        "warning: the usage log holds no record of agent `nobody` \
         (its agents: ag\\x1b[31mX\\x0aerror: fake, claude): \
         no verb is judged unused over that window\n",
    );
}

#[test]
fn a_record_of_no_real_time_or_duration_is_a_skipped_line_not_a_figure() {
    let sandbox = Sandbox::new();
    let with = |time: Option<&str>, ms: f64| {
        let mut record = cli_record(0, "click", "plugin", "usage-error");
        if let Some(time) = time {
            record["time"] = time.into();
        }
        record["ms"] = ms.into();
        record
    };
    let good = cli_record(0, "click", "plugin", "ok");
    let now = good["time"].as_str().unwrap_or_default().to_owned();
    write_log(
        &sandbox,
        &[
            good,
            // Each was inside every window (`zzzz` sorts after them all)…
            with(Some("zzzz"), 1.0),
            with(Some(""), 1.0),
            with(Some("9999-99-99"), 1.0),
            with(Some("2026-01-01T10:00:00.000+02:00"), 1.0),
            // … or made the latencies `inf` (`null` in JSON, `NaN` on the page).
            with(None, 1e308),
            with(None, 1.7e308),
            with(None, -1.0),
        ],
    );
    let out = sandbox.devtools(&["usage", "report", "--since", "1h"]);
    // Where they are, too: of a study's 51 logs, which one (audit 57 #14).
    out.assert_code(0).assert_stderr_starts_with(&format!(
        "warning: 7 line(s) of the usage logs are not records and were skipped: 7 in `{}` \
         (the first at line 2)\n",
        sandbox.usage_log().display()
    ));
    let (shown, _) = out
        .stdout
        .split_once("  (no verb was judged unused")
        .unwrap_or_default();
    // The window's start, an hour before mur's own now, is said and not known here.
    let shown = since_masked(shown);
    let row = format!("1      1   0      0     0    0       0      0     1      1      {now}");
    assert_eq!(
        shown,
        format!(
            concat!(
                "\
1 record, {now} to {now} (every agent, since
SINCE; usage errors above 50% or failures of the verb's own above 20% of at least
3 calls make a loser)
",
                legend!(),
                "
verbs (as mur ran them):
VERB            CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
click (plugin)  {row}

surfaces, as mur ran them (by verb kind):
SURFACE     CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
cli/plugin  {row}

tools called by mur:
TOOL   CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
click  {row}

losers: none
"
            ),
            now = now,
            row = row
        ),
        "{out}"
    );
    let json = sandbox.devtools(&["usage", "report", "--json"]).json();
    let figures = |key: &str| json[key].clone();
    let click = &json["verbs"][0];
    assert_eq!(
        [
            figures("records"),
            figures("skippedLines"),
            click["p50Ms"].clone(),
            click["p90Ms"].clone()
        ],
        [json!(1), json!(7), json!(1.0), json!(1.0)],
        "{json}"
    );
    let page = sandbox.root().join("page.html");
    sandbox
        .devtools(&["usage", "report", "--html", &page.display().to_string()])
        .assert_code(0);
    let page = std::fs::read_to_string(&page).expect("the page");
    for figure in ["NaN", "inf"] {
        assert!(!page.contains(figure), "{figure} in {page}");
    }
}

/// What `bridge --usage` records, `usage report` reads where the bridge wrote it
/// (`$XDG_STATE_HOME/mur/usage/sessions/<hash>.jsonl`, beside mur's own log and as
/// lasting: the lockfile directory is emptied at logout and reboot), with no
/// `--server-log`, and what an older mur's session wrote in the lockfile directory
/// too; a file there that is not the user's regular file is skipped with a warning;
/// for someone who runs only bridged servers (no named verb installed), the report
/// says nothing of verbs it could never judge.
#[test]
fn the_report_reads_what_bridges_record_where_they_record_it() {
    let sandbox = Sandbox::new();
    let project = sandbox.project("bridged");
    let (line, _pid) = crate::host_session::mini_bridge(&sandbox, &project, &["--usage"], &[]);
    let served = Path::new(line["usageLog"].as_str().expect("usageLog")).to_owned();
    let dir = served.parent().expect("the usage directory");
    let sessions = sandbox
        .state_dir()
        .join("mur")
        .join("usage")
        .join("sessions");
    assert_eq!(dir, sessions);
    assert!(!sandbox.lockfile_dir().join("usage").exists());
    let project_arg = project.to_str().expect("utf-8");
    for _ in 0..2 {
        sandbox
            .devtools(&["--project", project_arg, "hello"])
            .assert_code(0);
    }
    let report = quiet_report(&sandbox);
    let header = format!(
        "(with the tool calls the sessions served, as 1 log in `{}` records them)\n",
        dir.display()
    );
    assert!(
        // Under the first line, above what the columns' headers stand for.
        report.stdout.contains(&format!(")\n{header}(USAGE: ")),
        "{report}"
    );
    assert!(
        report.stdout.contains("\ntools served by the session:\n"),
        "{report}"
    );
    assert!(!report.stdout.contains("no named verb reached"), "{report}");
    let served_calls = |report: &Value| {
        items(&report["toolsServed"])
            .map(|row| (row["name"].clone(), row["calls"].clone()))
            .collect::<Vec<_>>()
    };
    let json = sandbox.devtools(&["usage", "report", "--json"]);
    assert_eq!(
        served_calls(&json.assert_code(0).json()),
        [(json!("hello"), json!(2))]
    );
    // An older mur's session recorded in the lockfile directory: still read.
    let older = sandbox.lockfile_dir().join("usage");
    mur_lockfile::ensure_private_dir(&older, "usage").expect("the older directory");
    let old_log = older.join("2222222222222222.jsonl");
    std::fs::copy(&served, &old_log).expect("copy");
    let both = quiet_report(&sandbox);
    let header_both = format!(
        "(with the tool calls the sessions served, as 1 log in `{}` and 1 in `{}` record them)\n",
        dir.display(),
        older.display()
    );
    assert!(both.stdout.contains(&header_both), "{both}");
    let json = sandbox.devtools(&["usage", "report", "--json"]);
    assert_eq!(
        served_calls(&json.assert_code(0).json()),
        [(json!("hello"), json!(4))]
    );
    std::fs::remove_file(&old_log).expect("rm");
    // Named with `--server-log` too: read once, without a word about it.
    let served_arg = served.to_str().expect("utf-8");
    let named = sandbox.devtools(&["usage", "report", "--json", "--server-log", served_arg]);
    named.assert_code(0).assert_stderr_is("");
    assert_eq!(served_calls(&named.json()), [(json!("hello"), json!(2))]);
    // A FIFO, and a link to another file, in a log's place: skipped, each said once, on
    // one line whatever its name holds (a newline in it started a line of its own).
    let fifo = dir.join("0000000000000000.jsonl");
    mur_e2e::mkfifo(&fifo);
    let elsewhere = sandbox.file("elsewhere.jsonl", "");
    let link = dir.join("1111111111111111\nerror: forged.jsonl");
    std::os::unix::fs::symlink(&elsewhere, &link).expect("symlink");
    let skipped = sandbox.devtools(&["usage", "report", "--json"]);
    skipped.assert_code(0).assert_stderr_is(format!(
        "warning: a session's usage log is skipped: `{}` is a FIFO, not a regular file\n\
         warning: a session's usage log is skipped: `{}/1111111111111111\\x0aerror: forged.jsonl` \
         is a symbolic link, not a regular file\n",
        fifo.display(),
        dir.display()
    ));
    assert_eq!(served_calls(&skipped.json()), [(json!("hello"), json!(2))]);
    // With a named verb installed, the report judges verbs again, and says what it
    // cannot judge.
    add_data_verb(&sandbox, "greet", "hello");
    std::fs::remove_file(&fifo).expect("rm");
    std::fs::remove_file(&link).expect("rm");
    let judging = quiet_report(&sandbox);
    assert!(
        judging
            .stdout
            .contains("(no verb was judged unused: the records read do not go back to "),
        "{judging}"
    );
    assert!(
        judging
            .stdout
            .contains("\ntools no named verb reached: hello\n"),
        "{judging}"
    );
}

/// A bridge that records (`--usage`) in front of a stdio server that records too
/// (`mur-sample --stdio --usage`): each call is in both logs, the server's with
/// client `mur-bridge …`; the report counts it once, as the bridge's, and says what
/// it left out.
#[test]
fn a_call_through_a_bridge_to_a_server_that_records_too_is_counted_once() {
    let sandbox = Sandbox::new();
    let project = sandbox.project("bridged");
    let inner = sandbox.project("inner");
    let command: Vec<String> = [
        mur_e2e::sample_bin().to_str().expect("utf-8"),
        "--stdio",
        "--usage",
        "--project",
        inner.to_str().expect("utf-8"),
    ]
    .map(str::to_owned)
    .to_vec();
    let started = crate::host_session::bridge(&sandbox, &project, &["--usage"], &command);
    let line = started.assert_code(0).json();
    let _pid = mur_e2e::Adopted(line["pid"].as_u64().expect("pid") as u32);
    let project_arg = project.to_str().expect("utf-8");
    sandbox
        .devtools(&["--project", project_arg, "call", "version"])
        .assert_code(0);
    let report = sandbox.devtools(&["usage", "report", "--json"]);
    report.assert_code(0).assert_stderr_is(
        "note: 1 record(s) a bridged server kept of calls its bridge forwarded (client \
         `mur-bridge`) are left out: the bridge's own records count those calls\n",
    );
    let json = report.json();
    let served: Vec<(Value, Value)> = items(&json["clientsServed"])
        .map(|row| (row["name"].clone(), row["calls"].clone()))
        .collect();
    let mur = format!("mur {}", env!("CARGO_PKG_VERSION"));
    assert_eq!(served, [(json!(mur), json!(1))], "{json}");
    assert_eq!(json["forwardedLeftOut"], json!(1));
    let server_cli = items(&json["surfaces"]).find(|row| row["name"] == "server/cli");
    assert_eq!(
        server_cli.map(|row| &row["calls"]),
        Some(&json!(1)),
        "{json}"
    );
}

/// `--usage-log` in a directory that does not exist is refused as `--out` is: exit 1,
/// one line, nothing started and no directory made; in mur's own usage directory
/// it is made, as `--usage` makes it. A session (`mur-sample --usage-log`) makes no
/// directory either: it refuses to start, saying why.
#[test]
fn a_usage_log_in_a_directory_that_does_not_exist_is_refused_not_made() {
    let sandbox = Sandbox::new();
    let project = sandbox.project("bridged");
    let missing = sandbox.root().join("no").join("such");
    let log = missing.join("served.jsonl");
    let log_arg = log.to_str().expect("utf-8");
    let command = crate::host_session::mini_server(&sandbox, &[]);
    let refused =
        crate::host_session::bridge(&sandbox, &project, &["--usage-log", log_arg], &command);
    refused
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `--usage-log`: the directory `{}` does not exist (nothing was started)\n",
            missing.display()
        ));
    assert!(!sandbox.root().join("no").exists(), "a directory was made");
    assert!(sandbox.read_lockfile(&project).is_none());
    assert!(
        !sandbox.lockfile_dir().join("usage").exists()
            && !sandbox
                .lockfile_path(&project)
                .with_extension("bridge.log")
                .exists(),
        "something was started"
    );
    // mur's own usage directory, not there yet: made.
    let own = sandbox
        .state_dir()
        .join("mur")
        .join("usage")
        .join("sessions")
        .join("mine.jsonl");
    let own_arg = own.to_str().expect("utf-8");
    let (line, _pid) =
        crate::host_session::mini_bridge(&sandbox, &project, &["--usage-log", own_arg], &[]);
    assert_eq!(line["usageLog"], own_arg);
    assert!(own.is_file());
    // A session's own `--usage-log`: no directory made, and the app refuses to start
    // (it ran on unrecorded, the log asked for never written).
    let app = sandbox.project("app");
    let app = app.to_str().expect("utf-8");
    sandbox
        .run_sample(&["--project", app, "--port", "0", "--usage-log", log_arg])
        .assert_code(1)
        .assert_stderr_starts_with(&format!(
            "[devtools] error: cannot write the usage log `{}`: the directory `{}` does not exist\n",
            log.display(),
            missing.display()
        ));
    assert!(!sandbox.root().join("no").exists(), "a directory was made");
}

/// The page is written as `call --out` writes its file (`mur_lockfile::write_named`): a
/// new one gets the mode any new file of the user's gets (0666 less the umask, as `usage
/// report > page.html` would), and one there already keeps its own, so a page the
/// operator made private (0600, as the logs are) stays private when written again.
#[cfg(unix)]
#[test]
fn the_page_is_written_with_the_mode_a_file_at_a_users_path_gets() {
    use std::os::unix::fs::PermissionsExt as _;
    let sandbox = Sandbox::new();
    let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
    let write = |page: &Path| {
        let page = page.to_str().expect("utf-8");
        sandbox
            .devtools(&["usage", "report", "--html", page])
            .assert_code(0);
    };
    let new = sandbox.root().join("new.html");
    write(&new);
    let made_so = sandbox.file("made-here", "");
    assert_eq!(mode(&new), mode(&made_so));
    let private = sandbox.file("private.html", "old");
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    write(&private);
    let page = std::fs::read_to_string(&private).expect("the page");
    assert_eq!(
        (mode(&private), page.starts_with("<!DOCTYPE html>")),
        (0o600, true)
    );
}

/// An empty `--agent` names no agent a record can hold (an empty `MUR_AGENT` is recorded
/// as unset: the parent process's name, as docs/usage.md says): refused as an empty
/// `--since` is, by the report and `verbs prune` alike (audit 307 #24: the report read
/// every log for no record, exit 0).
#[test]
fn an_empty_agent_is_refused_as_an_empty_value_is() {
    let sandbox = Sandbox::new();
    for command in [&["usage", "report"][..], &["verbs", "prune"]] {
        let args = [command, &["--agent", ""]].concat();
        sandbox
            .devtools(&args)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: `--agent <NAME>` needs a value (it was given empty)\n\
                 hint: usage: mur devtools {} [OPTIONS] (`--help` shows more)\n",
                command.join(" ")
            ));
    }
    let mut clean = sandbox.mur_command(&["devtools", "session", "clean"]);
    clean.env("MUR_AGENT", "");
    mur_e2e::run(&mut clean).assert_code(0);
    let agents: Vec<Value> = records(&sandbox.usage_log())
        .into_iter()
        .map(|r| r["agent"].clone())
        .collect();
    assert!(
        matches!(agents.as_slice(), [Value::String(agent)] if !agent.is_empty()),
        "{agents:?}"
    );
}

// Helper 415: a window begun after now, `--only-verbs` names not installed, notes under
// `-q`.

/// The time `hours` hours from now (whole seconds), as records write it.
fn hours_ahead(hours: u64) -> String {
    time_at(now_secs() + hours * 3600)
}

/// A window that begins after now, inside the day of slack `--until` takes (`--until` 20
/// hours ahead with `--unused-for 1h`), is one no log recorded through: `verbs prune
/// --yes` removed every verb as unused in it. Now no verb is judged unused, prune and the
/// report say why, and `-q` leaves prune's notes out.
#[test]
fn a_window_that_begins_after_now_judges_no_verb_unused_and_q_leaves_the_note_out() {
    let sandbox = bump_and_idle_long_installed();
    let all = installed(&sandbox);
    let until = hours_ahead(20);
    let window = ["--until", until.as_str(), "--unused-for", "1h"];
    let why = "no verb was judged unused: the window begins at TIME, after TIME (now, or the \
               newest record read if later), so no log has recorded a call in it yet \
               (`--until last` ends the window at the newest record)";
    let pruned = sandbox.devtools(&[&["verbs", "prune", "--yes"][..], &window].concat());
    pruned.assert_code(0).assert_stdout_is("");
    assert_eq!(
        untimed(&pruned.stderr),
        format!("note: {why}\nnote: no verb to prune\n")
    );
    assert_eq!(installed(&sandbox), all);
    let quiet = sandbox.devtools(&[&["-q", "verbs", "prune", "--yes"][..], &window].concat());
    quiet
        .assert_code(0)
        .assert_stdout_is("")
        .assert_stderr_is("");
    assert_eq!(installed(&sandbox), all);
    let report = sandbox.devtools(&[&["usage", "report"][..], &window].concat());
    // Its note wrapped at 100 columns, read as one line.
    let text = untimed(&report.assert_code(0).stdout).replace("\n   ", " ");
    assert!(
        text.ends_with(&format!("\nlosers: none\n  ({why})\n")),
        "{text}"
    );
}

/// `--only-verbs` names that are not installed are said, each in a warning with the
/// installed verb a slip was likely meant as, by the report and prune alike (they were
/// silently ignored: `bmup` left `bump` unjudged unseen); the installed ones named are
/// judged. `-q` keeps the warnings.
#[test]
fn only_verbs_names_not_installed_are_warned_of_and_the_others_judged() {
    let sandbox = bump_and_idle_long_installed();
    let only = ["--only-verbs", "bmup,idle,nope"];
    let warned = "warning: `--only-verbs`: `bmup` is not an installed verb, so it is not judged \
                  (did you mean `bump`?)\n\
                  warning: `--only-verbs`: `nope` is not an installed verb, so it is not judged\n";
    let report = sandbox.devtools(&[&["-q", "usage", "report", "--json"][..], &only].concat());
    report.assert_code(0).assert_stderr_is(warned);
    let report = report.json();
    let losers: Vec<String> = losers_of(&report).into_iter().map(|l| l.0).collect();
    assert_eq!(losers, ["idle"], "{report}");
    assert_eq!(report["notJudged"], json!(["bump"]));
    let prune = sandbox.devtools(&[&["verbs", "prune"][..], &only].concat());
    prune.assert_code(0);
    assert_eq!(
        untimed(&prune.stdout),
        "mur devtools verbs remove idle    # never used in the window (since TIME)\n"
    );
    assert_eq!(
        prune.stderr,
        format!(
            "{warned}note: only the verbs `--only-verbs` named were judged; not judged: bump\n\
             a dry run: nothing was removed (`--yes` removes them; `verbs add` brings one back)\n"
        )
    );
}

/// The report's note of the records a bridged server kept of calls its bridge forwarded
/// is left out under `-q`, as every note is (it was printed all the same).
#[test]
fn the_reports_note_of_forwarded_calls_is_left_out_under_q() {
    let sandbox = Sandbox::new();
    let served = |client: &str, bridge: bool| {
        json!({ "schema": "mur-usage/1", "time": days_ago(0), "side": "server",
            "surface": "mcp", "client": client, "tool": "version", "outcome": "ok",
            "ms": 1.0, "bridge": bridge })
    };
    let log = [
        served("claude 1.0", true),
        served("mur-bridge 0.1.0", false),
    ];
    let log: String = log.iter().map(|r| format!("{r}\n")).collect();
    let log = sandbox.file("served.jsonl", log);
    let log = log.to_str().expect("utf-8");
    let said = "note: 1 record(s) a bridged server kept of calls its bridge forwarded (client \
                `mur-bridge`) are left out: the bridge's own records count those calls\n";
    let args = ["usage", "report", "--json", "--server-log", log];
    let report = sandbox.devtools(&args);
    report.assert_code(0).assert_stderr_contains(said);
    assert_eq!(report.json()["forwardedLeftOut"], json!(1));
    let quiet = sandbox.devtools(&[&["-q"][..], &args].concat());
    quiet.assert_code(0);
    assert!(!quiet.stderr.contains("note:"), "{}", quiet.stderr);
    assert_eq!(quiet.json()["forwardedLeftOut"], json!(1));
}

/// `parity`'s table of the sample's session with no verb installed: every tool reached
/// by its derived verb.
const SAMPLE_PARITY: &str = "\
TOOL             VERB              KIND
version          version           derived
windows          windows           derived
components       components        derived
tree             tree              derived
state            state             derived
screenshot       screenshot        derived
click            click             derived
focus            focus             derived
invoke           invoke            derived
toggle           toggle            derived
expand           expand            derived
collapse         collapse          derived
type             type              derived
select           select            derived
scroll           scroll            derived
waitFor          wait-for          derived
switchComponent  switch-component  derived
fire             fire              derived
reload           reload            derived
exportTodos      export-todos      derived
clearTodos       clear-todos       derived
overview         overview          derived
";

/// `parity` exits 1 with three meanings, which share the code on purpose (README, "Exit
/// codes"): its answer that some tool has no named verb, and the two refusals every
/// command exits 1 with, an argv refused and several sessions with none chosen. No other
/// code of the table is true of the answer (0 says every tool has a named verb; 2–7 are
/// failures), and the refusals are the usage class every command gives them. A script
/// tells them apart by stdout: the answer prints the table (with `-q` too, which hides
/// only its `note:`), a refusal nothing, its `error:` on stderr even with `-q`; and the
/// usage log records the answer as `ok`, several sessions as `session-error`.
#[test]
fn parity_exit_1_is_its_answer_or_a_refusal_told_apart_by_stdout() {
    let (sandbox, _app) = Sandbox::with_app();
    let note = "note: 22 of 22 tools have no named verb: version, windows, components, tree, \
                state, screenshot, click, focus, invoke, toggle, expand, collapse, type, \
                select, scroll, waitFor, switchComponent, fire, reload, exportTodos, \
                clearTodos, overview\n\
                hint: each is still reachable as a derived verb; `mur devtools verbs new` \
                makes a named one\n";
    // The answer: the table on stdout, the note on stderr (hidden by `-q`).
    for (args, stderr) in [(&["parity"][..], note), (&["-q", "parity"], "")] {
        sandbox
            .devtools(args)
            .assert_code(1)
            .assert_stdout_is(SAMPLE_PARITY)
            .assert_stderr_is(stderr);
    }
    // An argv refused: nothing on stdout, the error said with `-q` too.
    for args in [&["parity", "--bogus"][..], &["-q", "parity", "--bogus"]] {
        sandbox
            .devtools(args)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(
                "error: unknown option `--bogus`\n\
                 hint: usage: mur devtools parity [OPTIONS] (`--help` shows more)\n",
            );
    }
    // The answer is recorded as the command's outcome (`ok`); the argv refused, as a
    // usage error (as a plugin verb's argv refused is).
    assert_eq!(
        fields(&records(&sandbox.usage_log()), ["exit", "outcome"]),
        [
            ["1", "ok"],
            ["1", "ok"],
            ["1", "usage-error"],
            ["1", "usage-error"]
        ]
    );
    // Several sessions, none chosen: nothing on stdout, which one is meant on stderr.
    let (sandbox, [a, b]) = Sandbox::with_apps(["a", "b"]);
    let (pa, pb) = (&a.lock.project, &b.lock.project);
    sandbox
        .devtools(&["-q", "parity"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: 2 live devtools sessions found; which one is meant?\n\
             \x20 {pa}  {}  (pid {})\n\
             \x20 {pb}  {}  (pid {})\n\
             hint: choose one with `--project PATH` or `--endpoint URL`; for the first: \
             `mur devtools --project {pa} -q parity`\n",
            a.endpoint(),
            a.pid(),
            b.endpoint(),
            b.pid(),
        ));
    assert_eq!(
        fields(&records(&sandbox.usage_log()), ["exit", "outcome"]),
        [["1", "session-error"]]
    );
}

/// A host command whose own flags mur refuses before it begins (`parity --bogus`) is
/// recorded as a verb whose argv is refused (`state --bogus`): a usage error of
/// its name, with the argv's shape, so the report counts and lists it. Its argv is the
/// words after its name, a host option typed there too (`parity --timeout abc`), as a
/// verb's (`tree --timeout abc`); a host option refused before the name (`--bogus
/// catalog`, `--timeout abc parity`) is none of the command's, as none before a verb's
/// name is the verb's (`--timeout abc tree`): nothing is recorded.
#[test]
fn a_host_command_s_flags_refused_are_recorded_as_a_verb_s_are() {
    let (sandbox, _app) = Sandbox::with_app();
    for args in [
        &["state", "--bogus"][..],
        &["parity", "--bogus"],
        &["--pretty", "catalog", "--bogus"],
        &["session", "list", "--bogus"],
        &["tree", "--timeout", "abc"],
        &["parity", "--timeout", "abc"],
        &["--bogus", "catalog"],
        &["--timeout", "abc", "parity"],
        &["--timeout", "abc", "tree"],
    ] {
        sandbox.devtools(args).assert_code(1);
    }
    // Help is no refusal, nor a command that records no call (`verbs`).
    sandbox.devtools(&["parity", "--help"]).assert_code(0);
    sandbox
        .devtools(&["verbs", "list", "--bogus"])
        .assert_code(1);
    let records = records(&sandbox.usage_log());
    assert_eq!(
        fields(&records, ["verb", "kind", "exit", "outcome"]),
        [
            ["state", "derived", "1", "usage-error"],
            ["parity", "host", "1", "usage-error"],
            ["catalog", "host", "1", "usage-error"],
            ["session list", "host", "1", "usage-error"],
            ["tree", "derived", "1", "usage-error"],
            ["parity", "host", "1", "usage-error"],
        ]
    );
    let argv: Vec<&Value> = records.iter().map(|r| &r["argv"]).collect();
    let bogus = json!({"options": ["--bogus"], "positionals": 0});
    let timeout = json!({"options": ["--timeout"], "positionals": 0});
    assert_eq!(argv, [&bogus, &bogus, &bogus, &bogus, &timeout, &timeout]);
    // The report counts each under its name, and lists each argv refused.
    let out = quiet_report(&sandbox);
    assert_eq!(
        untimed(&out.stdout),
        concat!(
            untimed_head!(6),
            "
verbs (as mur ran them):
VERB                 CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
parity (host)        2      0   2      0     0    0       0      0     –      –      TIME
catalog (host)       1      0   1      0     0    0       0      0     –      –      TIME
session list (host)  1      0   1      0     0    0       0      0     –      –      TIME
state (derived)      1      0   1      0     0    0       0      0     –      –      TIME
tree (derived)       1      0   1      0     0    0       0      0     –      –      TIME

surfaces, as mur ran them (by verb kind):
SURFACE      CALLS  OK  USAGE  TOOL  RPC  PLUGIN  OTHER  INTR  P50MS  P90MS  LAST-USED
cli/host     4      0   4      0     0    0       0      0     –      –      TIME
cli/derived  2      0   2      0     0    0       0      0     –      –      TIME

argv the verbs refused (usage errors by shape; WORD: a word not an option):
ARGV                  TIMES  LAST
catalog --bogus       1      TIME
parity --bogus        1      TIME
parity --timeout      1      TIME
session list --bogus  1      TIME
state --bogus         1      TIME
tree --timeout        1      TIME

losers: none
  (no verb was judged unused: the records read do not go back to TIME)
"
        ),
        "{out}"
    );
}
