//! A verb whose tool waits on a bound of its own (`wait`: `waitFor`'s `timeoutMs`, 5 s
//! when not sent) gives up within the host's `--timeout`: the host lowers the tool's
//! wait to end first, so the user reads the tool's own answer (exit 5, what it last
//! saw) rather than a call cut off (exit 2). A verb that declares nothing is called as
//! before. Real `mur`, real `mur-sample`, the real standard `wait`.

use mur_e2e::plugins::{self, standard, standard_session};

/// `mur devtools --timeout 2000 wait '#never'`: the host's 2 s end before `waitFor`'s
/// own 5 s, so the wait is sent as 1332 ms (the bound less the grace a verb's own
/// `--timeout` gets) and the tool answers that it timed out, saying what it last saw.
#[test]
fn a_host_timeout_shorter_than_the_tools_wait_ends_with_the_tools_answer() {
    let (sandbox, _sample) = standard_session();
    let out = sandbox.devtools(&["--timeout", "2000", "wait", "#never"]);
    out.assert_tool_failed(
        "waitFor",
        "timed out after 1332 ms waiting for `#never` to exist; last seen: no element matched `#never`",
    );
    // The user gave no wait of their own: nothing to say of lowering the tool's default.
    assert!(out.stderr_lines("note:").is_empty(), "{out}");

    // A wait the user gave that ends within the bound is sent as it is.
    sandbox
        .devtools(&["--timeout", "2000", "wait", "#never", "--timeout", "400"])
        .assert_tool_failed("waitFor", "timed out after 400 ms waiting for `#never`");
}

/// The same `wait` with its declaration hidden (its `mur:verb-waits` section renamed,
/// as a verb built before the declaration has none): the host's `--timeout` cuts the
/// call off as before (exit 2), and is not lengthened to the tool's wait.
#[test]
fn a_verb_that_declares_nothing_is_called_as_before() {
    let (sandbox, _sample) = standard_session();
    let declared = std::fs::read(standard("wait")).expect("the standard wait");
    let (from, to) = (b"mur:verb-waits", b"mur-test-waits");
    let mut undeclared = declared.clone();
    let mut renamed = 0;
    while let Some(at) = undeclared.windows(from.len()).position(|w| w == from) {
        undeclared[at..at + to.len()].copy_from_slice(to);
        renamed += 1;
    }
    assert!(
        renamed > 0,
        "the standard wait declares that its tool waits"
    );
    let file = sandbox.root().join("mur_verb_wait.wasm");
    std::fs::write(&file, &undeclared).expect("write");
    plugins::try_add(&sandbox, &[file], &["--force"]).assert_code(0);

    sandbox
        .devtools(&["--timeout", "2000", "wait", "#never"])
        .assert_code(2)
        .assert_stderr_contains("did not answer within 2000 ms");
}
