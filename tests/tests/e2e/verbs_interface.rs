//! What the host does with what a verb declares, through the `forger` test
//! guest — a `mur:verb@0.2.0` verb, which the host still loads — (it clicks
//! `#btn-inc`, so the counter tells whether a call was sent), that a 0.1.0 verb
//! (`ping`) still runs beside it, and that a 0.3.0 verb's notes (a `cli-compact`
//! verb's hint of the next command) go to stderr, after stdout, and `-q` hides them.

use mur_e2e::plugins::{
    STANDARD_TARGET, add, guest, repo_root, sandbox_with, standard_sandbox, try_add,
};
use mur_e2e::{Sandbox, Session};

/// A sandbox with `forger`, `ping` and the standard verbs, and a sample app.
fn session() -> (Sandbox, Session) {
    let sandbox = standard_sandbox();
    add(&sandbox, &[guest("forger"), guest("ping")]).assert_code(0);
    let app = sandbox.start_app();
    (sandbox, app)
}

/// The sample's counter, read with the standard `state` verb.
fn count(sandbox: &Sandbox) -> String {
    let out = sandbox.devtools(&["state", "--selector", "#count"]);
    out.assert_code(0);
    out.json()["text"].as_str().unwrap_or_default().to_owned()
}

#[test]
fn a_declared_path_the_user_never_typed_is_refused_and_nothing_is_sent() {
    let (sandbox, _app) = session();
    let out = sandbox.devtools(&["forger", "--forge", "x.png"]);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            6,
            "",
            "error: verb `forger` asked to write `x.png.forged`, a path not on its command line; \
             refused before the call (nothing was sent)\n"
        )
    );
    assert_eq!(count(&sandbox), "0", "the click was not sent");
    assert!(!sandbox.root().join("x.png.forged").exists());
    // Typed, but as text (a word to type, a selector): not a file the verb may write.
    let victim = sandbox.file("config.json", "precious");
    let typed = victim.to_str().expect("utf-8 path");
    let out = sandbox.devtools(&["forger", "--plant", typed]);
    out.assert_code(6).assert_stdout_is("").assert_stderr_is(format!(
        "error: verb `forger` asked to write `{typed}`, which its command line does not give as \
         an output path (the value of a param it declares `output-path`); refused before the \
         call (nothing was sent)\n"
    ));
    assert_eq!(count(&sandbox), "0", "the click was not sent");
    assert_eq!(std::fs::read_to_string(&victim).expect("kept"), "precious");
}

/// A declared path no file can be written at (its directory missing) is refused before
/// the call, exit 1, as docs/verbs.md's table of failures says: its row was missing there,
/// which had only the exit-7 case found after a call (audit 271).
#[test]
fn a_declared_path_in_no_directory_is_refused_before_the_call_as_the_docs_say() {
    let (sandbox, _app) = session();
    let dir = sandbox.root().join("no/such/dir");
    let target = dir.join("z.txt");
    let (typed, dir) = (
        target.to_str().expect("utf-8 path"),
        dir.to_str().expect("utf-8 path"),
    );
    let out = sandbox.devtools(&["forger", "--out", typed]);
    out.assert_code(1).assert_stdout_is("").assert_stderr_is(format!(
        "error: cannot write `{typed}`: the directory `{dir}` does not exist (nothing was sent)\n\
         hint: name a file that can be written, in a directory that exists\n"
    ));
    assert_eq!(count(&sandbox), "0", "the click was not sent");
    // The table's row says both lines, with the exit code, in the table's own quoting.
    let docs = std::fs::read_to_string(repo_root().join("docs/verbs.md")).expect("docs");
    let said: Vec<String> = out
        .stderr
        .lines()
        .map(|line| {
            let line = line.replace(typed, "PATH").replace(dir, "DIR");
            format!("`{}`", line.replace('`', "\\`"))
        })
        .collect();
    let row = docs
        .lines()
        .find(|row| row.starts_with('|') && said.iter().all(|line| row.contains(line.as_str())));
    assert!(
        row.is_some_and(|row| row.contains("found before the call | 1 |")),
        "docs/verbs.md has no row of exit 1 saying {said:?}"
    );
}

#[test]
fn a_declared_path_is_written_after_the_call_and_an_undeclared_one_is_refused() {
    let (sandbox, _app) = session();
    let out_path = sandbox.root().join("note.txt");
    let typed = out_path.to_str().expect("utf-8 path");
    let out = sandbox.devtools(&["forger", "--out", typed]);
    out.assert_code(0)
        .assert_stdout_is(format!("out={typed}\n"));
    assert_eq!(std::fs::read(&out_path).expect("written"), b"forged");

    let sneaked = sandbox.root().join("sneaked.txt");
    let sneaked_typed = sneaked.to_str().expect("utf-8 path");
    let out = sandbox.devtools(&["forger", "--sneak", sneaked_typed]);
    // Refused after the call, as a failed `shape` is: the result printed as it is.
    out.assert_code(6).assert_stderr_is(format!(
        "error: verb `forger` asked to write `{sneaked_typed}`, a path its `parse` did not declare; refused\n\
         hint: the `click` call itself already ran; its result is printed as it is\n"
    ));
    assert!(out.json().get("content").is_some(), "the raw result: {out}");
    assert!(!sneaked.exists());
    assert_eq!(count(&sandbox), "2", "both calls were sent");
}

#[test]
fn host_options_never_take_a_verbs_own_option_or_its_value() {
    let (sandbox, _app) = session();
    // `--project` is forger's: were it the host's, no session would be found (exit 4).
    let out = sandbox.devtools(&["forger", "--project", "mine", "--pretty"]);
    out.assert_code(0).assert_stdout_is("project=mine\n");
    // forger declares no `--timeout`: after its name it is still the host's.
    sandbox
        .devtools(&["forger", "--timeout", "5000"])
        .assert_code(0);
    // A 0.1 verb keeps `--timeout` as its own (ping refuses it as unexpected).
    let out = sandbox.devtools(&["ping", "--timeout", "5000"]);
    out.assert_code(1)
        .assert_stderr_starts_with("error: ping: unexpected argument `--timeout`");
}

#[test]
fn a_failed_shape_says_the_call_ran_and_prints_its_result() {
    let (sandbox, _app) = session();
    let out = sandbox.devtools(&["forger", "--fail-shape"]);
    out.assert_code(6).assert_stderr_is(
        "error: verb `forger` could not shape the result: refusing to shape, as told\n\
         hint: the `click` call itself already ran; its result is printed as it is\n",
    );
    assert!(out.json().get("content").is_some(), "the raw result: {out}");
    assert_eq!(count(&sandbox), "1");
}

#[test]
fn help_is_rendered_from_what_the_verb_declares() {
    let sandbox = sandbox_with(&[guest("forger")]);
    let out = sandbox.devtools(&["forger", "--help"]);
    out.assert_code(0).assert_stdout_is(
        "Usage: mur devtools forger [--project NAME] [--out PATH] [--forge PATH] [--plant PATH] [--sneak PATH] [--fail-shape]\n\
         \n\
         Click #btn-inc, declaring writes as told (test verb)\n\
         \n\
         A test verb of mur:verb@0.2.0.\n\
         \n\
         Tool `click`.\n\
         \n\
         Options:\n  \
         --project NAME  a project of its own\n  \
         --out PATH      write `forged` to PATH\n  \
         --forge PATH    declare PATH.forged\n  \
         --plant PATH    declare PATH, typed as text\n  \
         --sneak PATH    write PATH undeclared\n  \
         --fail-shape    fail in shape\n  \
         -h, --help      print this help\n\
         \n\
         Examples:\n  \
         mur devtools forger --out note.txt\n\
         \n\
         Host options go after the verb's name too; `mur devtools --help` lists them.\n\
         --project is the verb's own here; the host's goes before it: mur devtools --project PATH forger\n",
    );
}

#[test]
fn verbs_info_names_the_interface_language_and_source() {
    let sandbox = sandbox_with(&[guest("noisy"), guest("forger"), guest("ping")]);
    for (verb, interface) in [("noisy", "0.3.0"), ("forger", "0.2.0"), ("ping", "0.1.0")] {
        let info = sandbox.devtools(&["verbs", "info", verb, "--json"]).json();
        assert_eq!(info["interface"], interface, "{info}");
        assert_eq!(info["language"], "Rust", "{info}");
        let source = guest(verb).display().to_string();
        assert_eq!(info["source"], source.as_str(), "{info}");
        assert!(
            info["compiledBytes"].as_u64().is_some_and(|n| n > 0),
            "`verbs add` compiled and cached it: {info}"
        );
        let text = sandbox.devtools(&["verbs", "info", verb]).stdout;
        assert!(
            text.contains(&format!("interface: mur:verb@{interface}\n"))
                && text.contains("language:  Rust\n"),
            "{text}"
        );
    }
}

#[test]
fn completion_asks_mur_so_a_verb_added_later_completes_with_its_options() {
    let sandbox = Sandbox::new();
    let complete = |words: &[&str]| sandbox.complete("fish", words);
    let script = sandbox.mur(&["completions", "fish"]);
    script.assert_code(0);
    assert!(script.stdout.contains("COMPLETE=fish"), "{script}");
    let before = complete(&["devtools", "for"]);
    assert_eq!((before.code, before.stdout.as_str()), (0, ""));

    add(&sandbox, &[guest("forger")]).assert_code(0);
    let verbs = complete(&["devtools", "for"]);
    assert!(verbs.stdout.starts_with("forger\t"), "{verbs}");
    let options = complete(&["devtools", "forger", "--"]);
    for option in ["--project", "--out", "--forge", "--fail-shape"] {
        assert!(
            options
                .stdout
                .lines()
                .any(|l| l.split('\t').next() == Some(option)),
            "{option} missing from\n{options}"
        );
    }
}

#[test]
fn a_compact_verbs_hint_is_on_stderr_after_stdout_and_quiet_hides_it() {
    mur_e2e::plugins::compact_dir();
    let (sandbox, _app) = session();
    let compact = repo_root()
        .join("plugins/compact/target")
        .join(STANDARD_TARGET)
        .join("release");
    let state = compact.join("mur_verb_compact_state.wasm");
    try_add(&sandbox, &[state], &["--force"]).assert_code(0);

    // Its selector alone, as the standard `state` takes it; and after a read, a read.
    let out = sandbox.devtools(&["state", "#btn-inc"]);
    out.assert_code(0);
    assert_eq!(
        out.json()["id"],
        "btn-inc",
        "the result alone on stdout: {out}"
    );
    assert!(!out.stdout.contains("next:"), "{out}");
    assert_eq!(
        out.stderr, "next: mur devtools tree\n",
        "the likely next command, one line on stderr, never an action (`click '#btn-inc'`)"
    );

    let quiet = sandbox.devtools(&["state", "#btn-inc", "-q"]);
    quiet.assert_code(0);
    assert_eq!(
        (quiet.stdout.as_str(), quiet.stderr.as_str()),
        (out.stdout.as_str(), "")
    );

    // The 0.2.0 verb (forger) and the 0.1.0 one (ping) still run beside it.
    let forged = sandbox.devtools(&["forger"]);
    forged.assert_code(0);
    assert_eq!((forged.stdout.as_str(), forged.stderr.as_str()), ("\n", ""));
    let pong = sandbox.devtools(&["ping"]);
    pong.assert_code(0);
    assert_eq!(pong.json()["pong"], true, "{pong}");
}
