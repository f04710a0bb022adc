//! Hostile verb components (built from tests/guests) are contained: each is
//! stopped with one clear line naming the verb, exit 6, and `mur` itself exits
//! cleanly. Nothing they try to read is visible to them. Their notes on stderr
//! are bounded and never drive the terminal.

use mur_e2e::plugins::{add, bare_guest, guest, sandbox_with, standard};
use mur_e2e::{Output, RUN_LIMIT, Sandbox, mcp};

/// A sandbox with these test guests installed.
fn with_guests(names: &[&str]) -> Sandbox {
    let sandbox = Sandbox::new();
    add(
        &sandbox,
        &names.iter().map(|n| guest(n)).collect::<Vec<_>>(),
    );
    sandbox
}

/// Runs test guest `name` alone in a fresh sandbox and asserts that it was stopped
/// (exit 6).
fn stopped(name: &str) -> Output {
    let out = with_guests(&[name]).mur(&["devtools", name]);
    out.assert_code(6);
    out
}

#[test]
fn an_endless_loop_is_stopped_by_its_time_budget() {
    let out = stopped("spin");
    assert_eq!(
        out.stderr,
        "error: verb `spin` ran out of its time budget in `parse` (5 billion instructions, about half a second of computation; `--timeout` bounds only the tool call)\n",
        "{out}"
    );
    assert_eq!(out.stdout, "");
}

/// Writing costs the host time its fuel does not count: a verb writing without end,
/// short debug lines or long ones, to stderr or to stdout, is stopped by its budget in
/// about a second (it ran minutes, or did not end), and `-v` still shows what it wrote
/// last, after the `…` of what was dropped.
#[test]
fn a_verb_writing_without_end_is_stopped_by_its_budget() {
    let sandbox = with_guests(&["chatter"]);
    let budget = |wrote: &str| {
        format!(
            "error: verb `chatter` ran out of its time budget in `parse`: it {wrote} \
             (`--timeout` bounds only the tool call)\n"
        )
    };
    let short = sandbox.mur(&["devtools", "-v", "chatter"]);
    short.assert_code(6).assert_stdout_is("");
    let told = budget("wrote to stderr 100000 times, the most one call may");
    assert!(short.stderr.ends_with(&told), "{short}");
    // Its first line, the `…` of what was dropped, and the last lines it wrote (three
    // writes a line: the 33,333rd line was its last whole one).
    assert!(
        short
            .stderr
            .contains("wrote on stderr: debug: parsing step 1 of the argv, nothing wrong yet\n"),
        "{short}"
    );
    let (_, tail) = short
        .stderr
        .split_once("\n\u{2026}\n")
        .expect("the middle dropped");
    assert!(
        tail.contains("debug: parsing step 33333 of the argv, nothing wrong yet\n"),
        "{short}"
    );
    for (mode, wrote) in [
        (
            "--big",
            "wrote more than 16 MiB to stderr, the most one call may write",
        ),
        (
            "--stdout",
            "wrote more than 16 MiB to stdout, the most one call may write",
        ),
    ] {
        let long = sandbox.mur(&["devtools", "chatter", mode]);
        long.assert_code(6)
            .assert_stdout_is("")
            .assert_stderr_is(budget(wrote));
    }
}

/// A host call costs the host time its fuel does not count, as a write does: a verb
/// looping on a cheap one (the frozen clock, here) is stopped by the count of its
/// calls, and one taking random bytes by their count. Before, each ran minutes on its
/// half second of fuel.
#[test]
fn a_verb_calling_its_host_without_end_is_stopped_by_its_budget() {
    let sandbox = with_guests(&["pester"]);
    for (mode, asked) in [
        (
            "--clock",
            "called its host 1000000 times, the most one call may",
        ),
        (
            "--random-bytes",
            "asked its host for more than 16 MiB of random bytes, the most one call may",
        ),
    ] {
        sandbox
            .mur(&["devtools", "pester", mode])
            .assert_code(6)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: verb `pester` ran out of its time budget in `parse`: it {asked} \
                 (`--timeout` bounds only the tool call)\n"
            ));
    }
}

#[test]
fn a_memory_bomb_is_stopped_at_the_memory_limit() {
    let out = stopped("hog");
    assert_eq!(
        out.stderr, "error: verb `hog` exceeded its 64 MiB memory limit\n",
        "{out}"
    );
}

/// The bounds stop runaways, not honest results: a verb handed a result mur accepted
/// (here a state of 30 MiB of text, under `--max-response`'s 64 MiB) can shape it, its memory and
/// time bounds grown with it. With a fixed 64 MiB, `state` failed (exit 6) on a
/// result the derived verb printed.
#[test]
fn a_large_result_mur_accepted_is_the_verbs_to_shape() {
    let sandbox = sandbox_with(&[standard("state")]);
    let project = sandbox.project("app");
    let sample = sandbox.start_sample(&project);
    sandbox
        .devtools(&["switch-component", "--component", "todo"])
        .assert_code(0);
    // A session takes 4 MiB a request: the text is typed 3 MiB at a time. Each answer
    // holds the whole text so far (165 MiB in the ten): typed straight over HTTP, not by
    // `mur call`, whose debug build read, parsed and printed it all again (a third of the
    // test's CPU); this test is about the verb's bounds, not the call's.
    let chunk = "x".repeat(3 << 20);
    let typed = serde_json::json!({
        "name": "type",
        "arguments": { "selector": "#todo-input", "text": chunk },
    });
    for _ in 0..10 {
        let answer = mcp::modern_request(sample.endpoint(), "tools/call", typed.clone())
            .timeout(RUN_LIMIT)
            .send()
            .expect("POST /mcp");
        assert_eq!(answer.status(), 200);
        let answer: serde_json::Value = answer.json().expect("JSON body");
        assert_eq!(answer["result"]["isError"], false, "{}", answer["error"]);
    }
    let text = chunk.repeat(10);

    let out = sandbox.devtools(&["--timeout", "60000", "state"]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""), "exit and stderr");
    assert!(out.stdout.len() > 30 << 20, "{} bytes", out.stdout.len());
    assert!(out.stdout.contains(&text), "the typed text is in the state");
}

#[test]
fn a_panic_is_reported_with_the_verbs_own_message() {
    let out = stopped("crash");
    out.assert_stderr_starts_with("error: verb `crash` crashed: panicked at");
    out.assert_stderr_contains("boom: this verb panics on purpose");
    assert_eq!(out.stderr.lines().count(), 1, "one line: {out}");
}

/// `-v` shows what a panicking verb wrote, less std's "run with `RUST_BACKTRACE=1`"
/// advice, which a verb cannot follow (it has no environment); its backtrace is shown.
#[test]
fn a_panic_under_v_shows_no_advice_a_verb_cannot_follow() {
    let out = with_guests(&["crash"]).mur(&["devtools", "-v", "crash"]);
    out.assert_code(6);
    out.assert_stderr_contains("wrote on stderr: ");
    out.assert_stderr_contains("boom: this verb panics on purpose\n");
    assert!(!out.stderr.contains("RUST_BACKTRACE"), "{out}");
}

/// Built without WASI (as the standard verbs are), a Rust verb has no stderr for
/// its panic message: the crash still says it was a panic, not a bare trap.
#[test]
fn a_panic_without_wasi_is_told_as_a_panic() {
    let sandbox = sandbox_with(&[bare_guest("crash")]);
    let out = sandbox.mur(&["devtools", "crash"]);
    out.assert_code(6).assert_stderr_is(
        "error: verb `crash` crashed: it panicked; built without WASI it has no stderr to say why (`-v` shows where)\n",
    );
    let verbose = sandbox.mur(&["devtools", "-v", "crash"]);
    verbose.assert_stderr_contains("rust_begin_unwind");
}

#[test]
fn files_environment_arguments_and_clock_are_invisible() {
    let sandbox = with_guests(&["snoop"]);
    let secret = sandbox.file("secret.txt", "top secret");
    // snoop reports what it saw as a usage error, so no session is needed.
    let out = sandbox.mur(&["devtools", "snoop", secret.to_str().expect("utf-8 path")]);
    out.assert_code(1);
    out.assert_stderr_contains("saw file=no dir=no env=0 args=0 clock=0");
    assert!(!out.stderr.contains("top secret"), "{out}");
}

#[test]
fn arguments_that_are_not_a_json_object_are_refused() {
    let sandbox = with_guests(&["liar"]);
    let text = sandbox.mur(&["devtools", "liar", "text"]);
    text.assert_code(6);
    text.assert_stderr_starts_with(
        "error: verb `liar` returned tool arguments that are not valid JSON",
    );
    let array = sandbox.mur(&["devtools", "liar", "array"]);
    array.assert_code(6).assert_stderr_is(
        "error: verb `liar` returned tool arguments that are not a JSON object\n",
    );
}

#[test]
fn a_verb_may_write_only_where_the_user_said() {
    let sandbox = with_guests(&["scribble"]);
    let project = sandbox.project("app");
    let _sample = sandbox.start_sample(&project);
    let sneaked = sandbox.root().join("sneaked.txt");

    let refused = sandbox.mur(&["devtools", "scribble", "out.txt", "--sneak"]);
    refused.assert_code(6);
    refused
        .assert_stderr_contains(
            "verb `scribble` asked to write `sneaked.txt`, a path not on its command line",
        )
        .assert_stderr_contains("hint: the `version` call itself already ran");
    assert!(refused.json().is_object(), "the raw result: {refused}");
    assert!(!sneaked.exists(), "the path outside argv was written");
    assert!(
        !sandbox.root().join("out.txt").exists(),
        "a refused request must write nothing"
    );

    let allowed = sandbox.mur(&["devtools", "scribble", "out.txt"]);
    allowed
        .assert_code(0)
        .assert_stdout_is("{\"written\":true}\n");
    let written = std::fs::read_to_string(sandbox.root().join("out.txt")).expect("out.txt written");
    assert!(
        written.starts_with('{'),
        "the tool result was written: {written}"
    );
}

/// Two files for one path: which the user meant is not mur's to guess (the last one
/// won, silently), so the verb's failure (exit 6), nothing written. A path that cannot
/// be written once the call ran (a 0.1 verb's are known only then) is mur's own failure
/// to finish (exit 7, as a failed write is), not a usage error: the call did happen.
#[test]
fn a_path_written_twice_is_the_verbs_failure_and_an_unwritable_one_after_the_call_mur_s() {
    let sandbox = with_guests(&["scribble"]);
    let project = sandbox.project("app");
    let _sample = sandbox.start_sample(&project);
    let twice = sandbox.mur(&["devtools", "scribble", "o.txt", "o.txt"]);
    twice.assert_code(6);
    twice.assert_stderr_starts_with(
        "error: verb `scribble` asked to write `o.txt` twice; refused\n\
         hint: the `version` call itself already ran; its result is printed as it is\n",
    );
    assert!(twice.json().is_object(), "the raw result: {twice}");
    assert!(!sandbox.root().join("o.txt").exists());

    let nowhere = sandbox.mur(&["devtools", "scribble", "nodir/o.txt"]);
    nowhere.assert_code(7).assert_stderr_is(
        "error: cannot write `nodir/o.txt`: the directory `nodir` does not exist; the \
         `scribble` call itself already ran\n\
         hint: name a file that can be written, in a directory that exists\n",
    );
}

#[test]
fn sleeping_traps_instead_of_blocking_the_host() {
    let out = stopped("nap");
    assert_eq!(
        out.stderr, "error: verb `nap` crashed: the verb tried to sleep, and verbs get no clock\n",
        "{out}"
    );
}

#[test]
fn hostile_notes_are_bounded_and_never_drive_the_terminal() {
    let sandbox = with_guests(&["noisy"]);
    let _app = sandbox.start_app();
    let noisy = |mode: &[&str]| {
        let out = sandbox.devtools(&[&["noisy"], mode].concat());
        out.assert_code(0);
        assert_eq!(out.stdout, "{\"noisy\":true}\n", "notes never reach stdout");
        out.stderr
    };
    assert_eq!(noisy(&[]), "next: mur devtools noisy --many\n");

    // ESC[2J, CSI, BEL and a newline inside one note: one line, nothing for the terminal
    // (escaped as in every diagnostic).
    assert_eq!(
        noisy(&["--controls"]),
        "a\\x1b[2Jb next: c \\u{9b}31md\\x07\n"
    );

    // A 1 MiB note: one line, cut.
    let huge = noisy(&["--huge"]);
    assert_eq!(huge, format!("{}…\n", "x".repeat(300)));

    // 100,000 notes: the first ten, and how many more there were.
    let many = noisy(&["--many"]);
    let lines: Vec<&str> = many.lines().collect();
    assert_eq!(lines.len(), 11, "{many}");
    assert_eq!(
        (lines[0], lines[9], lines[10]),
        ("note 0", "note 9", "… 99990 more notes not shown")
    );

    // -q: no notes at all.
    let quiet = sandbox.devtools(&["-q", "noisy", "--many"]);
    quiet.assert_code(0);
    assert_eq!(
        (quiet.stdout.as_str(), quiet.stderr.as_str()),
        ("{\"noisy\":true}\n", "")
    );

    // A verb whose shape fails prints no notes: the error and its hint alone.
    let failed = sandbox.devtools(&["noisy", "--fail"]);
    failed.assert_code(6);
    assert!(
        failed.stderr.starts_with(
            "error: verb `noisy` could not shape the result: refusing to shape, as told\n"
        ) && !failed.stderr.contains("next:"),
        "{failed}"
    );
}
