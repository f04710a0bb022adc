//! What a call shows besides its result, against the real `mur-sample` (a
//! 2026-07-28 server): `exportTodos` reports progress (plain lines on a pipe,
//! a bar on a terminal, nothing with `-q`) and log messages (shown with
//! `-v`); `clearTodos` asks for confirmation in an input-required result,
//! answered with `--answer`, at a prompt on a terminal, or not at all (exit 5
//! naming the question). Terminals are real ones: `script` runs mur on a pty.

use std::io::{Read as _, Write as _};
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use mur_e2e::{Output, Sandbox, Session, wait_until};
use serde_json::json;

fn with_todos(texts: &[&str]) -> (Sandbox, Session) {
    let (sb, app) = Sandbox::with_app();
    for text in texts {
        let args = json!({ "target": "todo.add", "args": { "text": text } }).to_string();
        sb.call_tool("fire", &args).assert_code(0);
    }
    (sb, app)
}

const EXPORT: &[&str] = &[
    "devtools",
    "call",
    "exportTodos",
    "--args",
    r#"{"delayMs":0}"#,
];

#[test]
fn progress_is_plain_lines_on_a_pipe_and_nothing_with_quiet() {
    let (sb, _app) = with_todos(&["milk", "eggs"]);
    let out = sb.mur(EXPORT);
    out.assert_code(0);
    assert_eq!(out.json()["structuredContent"], json!({ "exported": 2 }));
    assert_eq!(
        out.stderr,
        "progress: 0/2 starting the export\n\
         progress: 1/2 exported 1 of 2\n\
         progress: 2/2 exported 2 of 2\n"
    );
    let quiet = sb.mur(&[&["-q"], EXPORT].concat());
    quiet.assert_quiet_success();
    assert_eq!(quiet.stdout, out.stdout);
}

#[test]
fn the_servers_log_messages_show_with_verbose() {
    let (sb, _app) = with_todos(&["milk"]);
    let out = sb.mur(&[&["-v"], EXPORT].concat());
    out.assert_code(0);
    let shown: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("server log ") || l.starts_with("progress: "))
        .collect();
    assert_eq!(
        shown,
        [
            "server log (info mur-sample): exporting 1 todo(s)",
            "progress: 0/1 starting the export",
            "progress: 1/1 exported 1 of 1",
            "server log (info mur-sample): exported 1 todo(s)",
        ],
        "{out}"
    );
    let plain = sb.mur(EXPORT);
    assert!(!plain.stderr.contains("server log"), "{plain}");
}

/// `clearTodos`, with these extra arguments.
fn clear(sb: &Sandbox, extra: &[&str]) -> Output {
    sb.mur(&[&["devtools", "call", "clearTodos"], extra].concat())
}

#[test]
fn a_question_is_answered_with_answer_options() {
    let (sb, _app) = with_todos(&["milk", "eggs"]);
    let kept = clear(&sb, &["--answer", "confirm=no"]);
    kept.assert_code(0);
    assert_eq!(
        kept.json()["structuredContent"],
        json!({ "cleared": 0, "remaining": 2, "reason": "not confirmed" })
    );
    let cleared = clear(&sb, &["--answer", "confirm=yes"]);
    cleared.assert_code(0);
    assert_eq!(
        cleared.json()["structuredContent"],
        json!({ "cleared": 2, "remaining": 0 })
    );
}

/// Two different answers for one field are refused before anything is sent, wherever
/// they are typed: `--answer confirm=false clear-todos --answer confirm=true` took the last
/// and cleared the todos (exit 0). The same answer twice is one answer.
#[test]
fn two_answers_for_one_field_are_refused_and_nothing_is_cleared() {
    let (sb, _app) = with_todos(&["milk"]);
    let refused = "error: invalid value `confirm=true` for `--answer <KEY=VALUE>`: `confirm` \
                   is answered already (`--answer confirm=false`); give each field one answer\n";
    for argv in [
        &[
            "devtools",
            "--answer",
            "confirm=false",
            "clear-todos",
            "--answer",
            "confirm=true",
        ][..],
        &[
            "devtools",
            "--answer",
            "confirm=false",
            "--answer",
            "confirm=true",
            "clear-todos",
        ],
        &[
            "devtools",
            "call",
            "clearTodos",
            "--answer",
            "confirm=false",
            "--answer",
            "confirm=true",
        ],
        // Before mur's own command and after it: the first was dropped, the todos cleared.
        &[
            "devtools",
            "--answer",
            "confirm=false",
            "call",
            "clearTodos",
            "--answer",
            "confirm=true",
        ],
    ] {
        sb.mur(argv)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(refused);
    }
    let kept = clear(&sb, &["--answer", "confirm=no", "--answer", "confirm=no"]);
    kept.assert_code(0);
    assert_eq!(
        kept.json()["structuredContent"],
        json!({ "cleared": 0, "remaining": 1, "reason": "not confirmed" })
    );
    // An answer before the command is kept beside one to another field after it (it was
    // dropped: the question unanswered, exit 5).
    let argv = [
        "devtools",
        "--answer",
        "confirm=no",
        "call",
        "clearTodos",
        "--answer",
        "other=x",
    ];
    let kept = sb.mur(&argv);
    kept.assert_code(0);
    assert_eq!(
        kept.json()["structuredContent"],
        json!({ "cleared": 0, "remaining": 1, "reason": "not confirmed" })
    );
}

/// An `--answer` no question of the call asked for is said in a warning, with the
/// field it likely meant: `--answer comfirm=yes` beside the answer to `confirm` was
/// dropped unsaid, and a question of optional fields would have been answered with
/// their defaults. A call that asked nothing says nothing of its answers: a tool that
/// asks only sometimes (`clearTodos`, with nothing to clear) may be given one ahead.
#[test]
fn an_answer_no_question_asked_for_is_said_with_the_field_meant() {
    let (sb, _app) = with_todos(&["milk"]);
    let out = clear(
        &sb,
        &[
            "--answer",
            "confirm=no",
            "--answer",
            "comfirm=yes",
            "--answer",
            "zzz=1",
        ],
    );
    out.assert_code(0);
    assert_eq!(
        out.json()["structuredContent"],
        json!({ "cleared": 0, "remaining": 1, "reason": "not confirmed" })
    );
    assert_eq!(
        out.stderr,
        "warning: `--answer comfirm=…` was not used: no question the server asked has that \
         field; did you mean `confirm`?\n\
         warning: `--answer zzz=…` was not used: no question the server asked has that field\n"
    );
    // Every answer used: nothing said.
    clear(&sb, &["--answer", "confirm=yes"])
        .assert_code(0)
        .assert_stderr_is("");
    // Nothing left to clear, no question asked: nothing said of the answers.
    clear(&sb, &["--answer", "confirm=yes", "--answer", "zzz=1"])
        .assert_code(0)
        .assert_stderr_is("");
}

#[test]
fn a_question_nobody_can_answer_fails_at_once_naming_it_and_its_answer_options() {
    let (sb, app) = with_todos(&["milk", "eggs"]);
    // Neither no answer nor one to a key the question does not have (not answered
    // with the field's default, and said to be the likely typo).
    for (extra, typo) in [
        (&[][..], ""),
        (
            &["--answer", "confirmed=true"],
            "hint: `--answer confirmed=…` names no field of this question; did you mean \
             `confirm`?\n",
        ),
    ] {
        let out = clear(&sb, extra);
        out.assert_code(5).assert_stdout_is("");
        assert_eq!(
            out.stderr,
            format!(
                "error: `{}` asks \"Clear all 2 todo(s)? This cannot be undone.\" and mur has no \
                 answer: no `--answer` answers it, and stdin and stderr are not both a terminal to \
                 ask on\n{typo}hint: answer it with `--answer confirm=true` (or `false`)\n",
                app.endpoint()
            )
        );
    }
    // Nothing was cleared.
    let left = sb.mur(EXPORT);
    assert_eq!(left.json()["structuredContent"]["exported"], 2, "{left}");
}

/// Runs `mur ARGS` on a terminal (`script` gives it a pty, `TERM` says what
/// it can draw), typing each of `answers` (a line) once the screen shows
/// `prompt` one more time, as a person would: typed earlier, the terminal would
/// echo it wherever it happened to arrive. What the terminal showed, with `\r\n`
/// as `\n`.
fn on_a_terminal(sb: &Sandbox, args: &[&str], prompt: &str, answers: &[&str]) -> String {
    let command = std::iter::once(sb.artifacts().mur.display().to_string())
        .chain(args.iter().map(|a| format!("'{a}'")))
        .collect::<Vec<_>>()
        .join(" ");
    let mut script = sb.command(Path::new("script"));
    script
        .args(["-qfec", &command, "/dev/null"])
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = script.spawn().expect("run script(1)");
    let mut stdout = child.stdout.take().expect("stdout");
    let screen = Arc::new(Mutex::new(Vec::new()));
    let reader = {
        let screen = Arc::clone(&screen);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n @ 1..) = stdout.read(&mut chunk) {
                screen
                    .lock()
                    .expect("screen")
                    .extend_from_slice(&chunk[..n]);
            }
        })
    };
    let mut stdin = child.stdin.take().expect("stdin");
    for (asked, answer) in answers.iter().enumerate() {
        wait_until("the prompt", || {
            let shown = String::from_utf8_lossy(&screen.lock().expect("screen")).into_owned();
            (shown.matches(prompt).count() > asked).then_some(())
        });
        writeln!(stdin, "{answer}").expect("type");
    }
    drop(stdin);
    let status = child.wait().expect("script(1) ends");
    reader.join().expect("reader");
    let shown = String::from_utf8_lossy(&screen.lock().expect("screen")).replace("\r\n", "\n");
    assert!(status.success(), "{status}: {shown}");
    shown
}

#[test]
fn on_a_terminal_the_question_is_asked_and_a_bad_answer_asked_again() {
    let (sb, _app) = with_todos(&["milk", "eggs"]);
    let prompt = "  confirm (Clear them) [true|false, default false]: ";
    let args = ["devtools", "call", "clearTodos"];
    let screen = on_a_terminal(&sb, &args, prompt, &["maybe", "yes"]);
    assert!(
        screen.contains(&format!(
            "the server asks: Clear all 2 todo(s)? This cannot be undone.\n\
             {prompt}maybe\n  `maybe` is not true or false (yes or no)\n\
             {prompt}yes\n{{\"content\""
        )),
        "{screen}"
    );
    assert!(
        screen.contains(r#""structuredContent":{"cleared":2,"remaining":0}"#),
        "{screen}"
    );
}

#[test]
fn on_a_terminal_progress_is_a_bar_that_is_cleared_at_the_end() {
    let (sb, _app) = with_todos(&["milk", "eggs"]);
    // A pause between todos, so the bar is drawn for each step: a terminal
    // is redrawn at most 20 times a second.
    let slow = [
        "devtools",
        "call",
        "exportTodos",
        "--args",
        r#"{"delayMs":200}"#,
    ];
    let screen = on_a_terminal(&sb, &slow, "", &[]);
    assert!(screen.contains("[="), "no bar drawn:\n{screen:?}");
    assert!(!screen.contains("progress: "), "{screen:?}");
    assert!(screen.contains("] 2/2 exported 2 of 2"), "{screen:?}");
    // The bar's line is erased before the result is printed.
    assert!(
        screen.contains("\x1b[2K{\"content\""),
        "the bar was not cleared:\n{screen:?}"
    );
}

// --- helper 417: review 416 #12 ---

/// The key of an unused `--answer` is the user's text, and its warning escapes it as
/// every value from outside is ([`mur_core::text::escape_value`]): an escape in it drove
/// the terminal (`\x1b[31m` turned the rest of stderr red), kept to one line only.
#[test]
fn an_unused_answer_with_a_control_character_in_its_key_is_warned_escaped() {
    let (sb, _app) = with_todos(&["milk"]);
    let out = clear(
        &sb,
        &["--answer", "confirm=no", "--answer", "\u{1b}[31mzzz=1"],
    );
    out.assert_code(0);
    assert_eq!(
        out.stderr,
        "warning: `--answer \\x1b[31mzzz=…` was not used: no question the server asked has \
         that field\n"
    );
}
