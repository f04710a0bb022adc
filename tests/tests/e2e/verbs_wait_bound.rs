//! A verb whose tool waits on a bound of its own (`wait`: `waitFor`'s `timeoutMs`, 5 s
//! when not sent) gives up within the host's `--timeout`: the host lowers the tool's
//! wait to end first, so the user reads the tool's own answer (exit 5, what it last
//! saw) rather than a call cut off (exit 2). A verb that declares nothing is called as
//! before. Real `mur`, real `mur-sample`, the real standard `wait`.

use mur_e2e::plugins::{self, standard, standard_session};
use mur_e2e::{Output, Sandbox};

/// `mur devtools --timeout 2000 wait '#never'`: the host's 2 s end before `waitFor`'s
/// own 5 s, so the wait is sent as 1333 ms (the bound less the grace a verb's own
/// `--timeout` gets) and the tool answers that it timed out, saying what it last saw.
#[test]
fn a_host_timeout_shorter_than_the_tools_wait_ends_with_the_tools_answer() {
    let (sandbox, _sample) = standard_session();
    wait_lowered_to_1333(&sandbox);

    // A wait the user gave that ends within the bound is sent as it is.
    sandbox
        .devtools(&["--timeout", "2000", "wait", "#never", "--timeout", "400"])
        .assert_verb_failed(
            "wait",
            "waitFor",
            "timed out after 400 ms waiting for `#never`",
        );
}

/// `verbs add --force` of the standard `wait` with every `from` in its bytes made `to`
/// (of one length), as run.
fn add_wait_with(sandbox: &Sandbox, from: &[u8], to: &[u8]) -> Output {
    let mut bytes = std::fs::read(standard("wait")).expect("the standard wait");
    let mut replaced = 0;
    while let Some(at) = bytes.windows(from.len()).position(|w| w == from) {
        bytes[at..at + to.len()].copy_from_slice(to);
        replaced += 1;
    }
    assert!(replaced > 0, "the standard wait holds {from:?}");
    let file = sandbox.root().join("mur_verb_wait.wasm");
    std::fs::write(&file, bytes).expect("write");
    plugins::try_add(sandbox, &[file], &["--force"])
}

/// The same `wait` with its declaration hidden (its `mur:verb-waits` section renamed,
/// as a verb built before the declaration has none): the host's `--timeout` cuts the
/// call off as before (exit 2), and is not lengthened to the tool's wait.
#[test]
fn a_verb_that_declares_nothing_is_called_as_before() {
    let (sandbox, _sample) = standard_session();
    add_wait_with(&sandbox, b"mur:verb-waits", b"mur-test-waits").assert_code(0);

    sandbox
        .devtools(&["--timeout", "2000", "wait", "#never"])
        .assert_code(2)
        .assert_stderr_contains("did not answer within 2000 ms");
}

/// A declaration that is not `ARGUMENT=MS` is refused when the verb is added, saying
/// what it should be: the host would not know what to lower.
#[test]
fn a_declaration_that_says_no_argument_and_wait_is_refused_at_add() {
    let sandbox = plugins::standard_sandbox();
    add_wait_with(&sandbox, b"timeoutMs=5000", b"timeoutMs~5000")
        .assert_code(1)
        .assert_stderr_contains(
            "is not a usable verb: its `mur:verb-waits` section is not `ARGUMENT=MS` (a tool \
             argument's name, then a whole number of milliseconds): \"timeoutMs~5000\"",
        );
}

/// `wait '#never'` within `--timeout 2000`: mur lowers the wait `wait` declares (the
/// tool's 5 s default), and the tool answers within the bound that it timed out, saying
/// what it last saw; a hint under it says the wait was lowered (the answer names a wait
/// nobody typed). Without the declared wait, the call would end out of time (exit 2).
pub(crate) fn wait_lowered_to_1333(sandbox: &Sandbox) {
    let timed_out = "timed out after 1333 ms waiting for `#never` to exist; last seen: no element matched `#never`";
    sandbox
        .devtools(&["--timeout", "2000", "wait", "#never"])
        .assert_verb_failed("wait", "waitFor", timed_out)
        .assert_stderr_is(format!(
            "error: `wait` (tool `waitFor`) failed: {timed_out}\n{}",
            plugins::lowered_wait_hint("wait", 1333, 2000)
        ));
}
