//! What a derived verb prints of a third party's tool, and what its notes and hints
//! tell: `tests/interop/inventory_server.py` (FastMCP, the Python MCP SDK's 1.x line)
//! behind `mur devtools bridge`, beside `tests/interop/stdio_server.py` as a second
//! session. Its list is printed as its structured content with no note (FastMCP sends
//! each record again as a text block); a note on a block the structured content lacks
//! names a `call` that works for a tool whose name has a `/` (which `call NAME` sends as
//! a method); and with two sessions, the command repeated for one names the session
//! whose tool list has the verb.
//!
//! The SDK comes from `target/interop-venv` ([`interop_python::python_or_skip`]): without
//! it the tests are skipped with the reason, except under CI.

use std::ffi::OsString;
use std::path::Path;

use mur_e2e::Sandbox;

use crate::bridge_stdio::Bridge;
use crate::interop_python;

/// `tests/interop/<script>` on the SDK's 1.x line; `None` (after saying why) without it.
fn python_server(script: &str) -> Option<Vec<OsString>> {
    let python = interop_python::python_or_skip("interop-venv", "1", "requirements.txt")?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("interop")
        .join(script);
    Some(vec![python.into(), "-B".into(), script.into()])
}

/// The inventory server bridged as the project `<sandbox>/edge/App.csproj`.
fn inventory(sb: &Sandbox) -> Option<Bridge<'_>> {
    let server = python_server("inventory_server.py")?;
    Some(Bridge::start(sb, "edge", &[], &server))
}

/// `command`, as a person pastes it from a hint, in the sandbox (this `mur` on `PATH`).
fn pasted(sb: &Sandbox, command: &str) -> mur_e2e::Output {
    mur_e2e::run(&mut sb.shell_command(command))
}

/// FastMCP returns a list as one text block per record beside `{"result": [records]}`:
/// the records are printed once, as the structured content, and no note says that two
/// blocks were left out (they were printed there).
#[test]
fn a_fastmcp_list_prints_its_structured_content_without_a_note() {
    let sb = Sandbox::new();
    let Some(bridge) = inventory(&sb) else {
        return;
    };
    bridge
        .mur(&["inventory-list"])
        .assert_code(0)
        .assert_stdout_is(
            "{\"result\":[{\"sku\":\"A1\",\"count\":3},{\"sku\":\"B2\",\"count\":0}]}\n",
        )
        .assert_stderr_is("");
    bridge.stop();
}

/// A block the structured content lacks (the advice beside the record) is noted, with
/// the command that prints the whole result. The tool is `inventory/check`, which
/// `call inventory/check` would send as a method (exit 5): the command calls it through
/// `tools/call`, and pasted it prints the whole result.
#[test]
fn the_note_under_a_slashed_tool_names_a_call_that_prints_the_whole_result() {
    let sb = Sandbox::new();
    let Some(bridge) = inventory(&sb) else {
        return;
    };
    let project = sb.canonical_project(&bridge.project);
    let call = format!(
        "mur devtools --project {project} call tools/call --args \
         '{{\"name\":\"inventory/check\",\"arguments\":{{\"sku\":\"B2\"}}}}'"
    );
    bridge
        .mur(&["inventory-check", "--sku", "B2"])
        .assert_code(0)
        .assert_stdout_is("{\"sku\":\"B2\",\"count\":0}\n")
        .assert_stderr_is(format!(
            "note: the result has 1 more content block (text) than the structured content \
             printed; `{call}` prints the whole result\n"
        ));
    let whole = pasted(&sb, &call);
    whole.assert_code(0).assert_stderr_is("");
    assert_eq!(
        whole.json()["content"][1]["text"],
        "B2 is out of stock; reorder 5",
        "{whole}"
    );
    bridge.stop();
}

/// Two sessions, none chosen: the command repeated to paste names the session whose
/// tool list (as last read) has the verb, and says so, where "for the first" named a
/// session without it and the command pasted failed "unknown verb". A word no tool
/// list has keeps discovery's own hint.
#[test]
fn among_two_sessions_the_command_repeated_names_the_one_with_the_tool() {
    let sb = Sandbox::new();
    let (Some(edge), Some(counter)) = (inventory(&sb), python_server("stdio_server.py")) else {
        return;
    };
    // `counter` sorts first: discovery's "for the first" names it.
    let counter = Bridge::start(&sb, "counter", &[], &counter);
    // Each session's tool list is read (and cached) by a verb of its own.
    edge.mur(&["inventory-list"]).assert_code(0);
    counter.mur(&["count"]).assert_code(0);

    let (first, second) = (
        sb.canonical_project(&counter.project),
        sb.canonical_project(&edge.project),
    );
    let rows = format!(
        "  {first}  {}  (pid {})\n  {second:width$}  {}  (pid {})\n",
        counter.endpoint(),
        counter.line["pid"],
        edge.endpoint(),
        edge.line["pid"],
        width = first.len(),
    );
    let error = |word: &str, hint: &str| {
        format!(
            "error: 2 live devtools sessions found; which one is meant?\n{rows}\
             hint: `{word}` is not an installed verb; a tool's verb is looked up in the \
             session chosen\n\
             hint: choose one with `--project PATH` or `--endpoint URL`; {hint}\n"
        )
    };
    let again = format!("mur devtools --project {second} stocktake");
    sb.mur(&["devtools", "stocktake"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(error(
            "stocktake",
            &format!(
                "`stocktake` is a tool of `{second}`'s session, by its tool list as last \
                 read: `{again}`"
            ),
        ));
    pasted(&sb, &again)
        .assert_code(0)
        .assert_stdout_is("{\"result\":\"counted 2 records\"}\n");

    sb.mur(&["devtools", "restock"])
        .assert_code(1)
        .assert_stderr_is(error(
            "restock",
            &format!("for the first: `mur devtools --project {first} restock`"),
        ));
    edge.stop();
    counter.stop();
}
