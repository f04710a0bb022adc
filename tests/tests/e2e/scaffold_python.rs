//! `mur devtools verbs new --lang python`: the scaffolded project passes its own
//! tests (`python3 -m unittest`), builds with the componentize-py it pins, and
//! the verb installs and clicks in a real `mur-sample`; a Python verb's crash
//! shows its exception (exit 6), and the kit's pitfalls are reported, not silent;
//! a tool's wait it declares gives up within the host's `--timeout` (exit 5).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use mur_e2e::plugins::repo_root;

// The choice typos every kind of verb answers alike (one table for three builds).
include!("../../shared/choice_cases.rs");

use crate::scaffold::{
    a_refused_declaration_fails_the_build_in_one_line, choices_refused, component,
    each_change_fails_the_build_so, fail, failing_verb_session, fails_like_every_verb,
    made_one_s_own, never_sent_refused, no_choices_refused, run_ok, scaffolded_verb_clicks,
    wait_refused,
};

/// componentize-py, from target/verbs-venv (which .ci/run makes), installed
/// there from the scaffold's own requirements.txt when missing.
fn componentize_py_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let venv = repo_root().join("target/verbs-venv");
        let bin = venv.join("bin");
        if !bin.join("componentize-py").exists() {
            let root = repo_root();
            run_ok(
                &root,
                Command::new("python3").args(["-m", "venv"]).arg(&venv),
            );
            let requirements = root.join("crates/verbs/src/scaffold/python/requirements.txt");
            run_ok(
                &root,
                Command::new(bin.join("pip"))
                    .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
                    .arg(requirements),
            );
        }
        bin
    })
}

/// The project's own tests pass, and its `build.sh` makes the component (cached
/// by the project's content). Run from elsewhere without OUT, it writes NAME.wasm
/// beside app.py, where the README's `verbs add` reads it, as build.mjs does: it was
/// written where it ran, and `verbs add` in the project took an older build.
fn test_and_build(dir: &Path) -> PathBuf {
    let tested = run_ok(dir, Command::new("python3").args(["-m", "unittest", "-v"]));
    assert!(tested.stderr.contains("\nOK"), "{tested}");
    component(dir, |out| {
        let file = format!("{}.wasm", dir.file_name().expect("named").to_string_lossy());
        let elsewhere = dir.parent().expect("has a parent");
        run_ok(
            elsewhere,
            &mut with_componentize_py(Command::new(dir.join("build.sh"))),
        );
        assert!(
            !elsewhere.join(&file).exists(),
            "{file} written where build.sh ran"
        );
        std::fs::rename(dir.join(&file), out).expect("NAME.wasm beside app.py");
    })
}

/// `./build.sh OUT` in the project `dir`, with componentize-py on PATH.
pub fn build_sh(dir: &Path, out: &Path) -> Command {
    let mut command = with_componentize_py(Command::new("./build.sh"));
    command.arg(out).current_dir(dir);
    command
}

/// `command` with componentize-py on its PATH.
fn with_componentize_py(mut command: Command) -> Command {
    let path = std::env::join_paths(std::iter::once(componentize_py_bin().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("PATH");
    command.env("PATH", path);
    command
}

#[test]
fn a_scaffolded_python_verb_tests_builds_installs_and_clicks() {
    let files = [
        "app.py",
        "kit.py",
        "test_app.py",
        "test_kit.py",
        "build.sh",
        "requirements.txt",
        "wit/verb.wit",
    ];
    scaffolded_verb_clicks("pyclick", "python", &files, test_and_build);
}

/// The project's own tests pass once its verb is made one's own as docs/verbs.md says: a
/// tool that waits on a bound of its own (`tool = "waitFor"`, `waits = kit.Waits(…)`) and
/// a `shape` of its own, which prints no pretty form. Four failed, one of them the kit's
/// (`kit.stamp` of the project's verb expected no `mur:verb-waits`), the others
/// hard-coding the tool `click`, the arguments without the wait's and the pretty output:
/// the verb's tests read what it declares, the kit's use verbs of their own. No build.
#[test]
fn a_python_verb_made_one_s_own_as_the_guide_says_passes_its_own_tests() {
    let (_sb, dir) = made_one_s_own(
        ("pyclick", "python"),
        "app.py",
        &[
            (
                "    tool = \"click\"\n",
                "    tool = \"waitFor\"\n    waits = kit.Waits(\"timeoutMs\", 5000)\n",
            ),
            (
                "    positionals = [kit.selector(\"the element to click\")]\n",
                "    positionals = [kit.selector(\"the element to wait for\")]\n\n    \
                 def shape(self, result, args, pretty):\n        \
                 return kit.json_line(kit.payload(result))\n",
            ),
        ],
    );
    let tested = run_ok(&dir, Command::new("python3").args(["-m", "unittest", "-v"]));
    assert!(tested.stderr.contains("\nOK"), "{tested}");
    // The verb's tests and the kit's.
    for ran in ["test_app.VerbTest", "test_kit.KitTest"] {
        assert!(tested.stderr.contains(ran), "{ran}: {tested}");
    }
}

/// A verb that fails on purpose, as `--fail HOW` says; its tool, `waitFor` (of
/// `#count` unless a selector is given), waits on a bound it declares (`waits`).
const FAILING_APP: &str = r#"import kit


class Verb(kit.Verb):
    name = "pyfail"
    tool = "waitFor"
    summary = "Fail on purpose"
    waits = kit.Waits("timeoutMs", 5000)
    options = [kit.option("selector", "S", "the element to wait for", kind="selector", send=False),
               kit.option("fail", "HOW", "how to fail", kind="choice",
                          choices=["parse", "shape", "refuse", "number", "text"]),
               kit.option("times", "N", "how often (unused)", kind="integer"),
               # Unused: for `choices_are_meant_as_the_host_means_them`.
               kit.option("view", "V", "how much", kind="choice", choices=["summary", "full"]),
               kit.option("status", "S", "how it went", kind="choice",
                          choices=["success", "error"]),
               kit.option("component", "C", "which", kind="choice",
                          choices=["counter", "todo"])]

    def arguments(self, args):
        if args["fail"] == "parse":
            raise ValueError("no selector given")
        return {"selector": args["selector"] or '#count'}

    def shape(self, result, args, pretty):
        how = args["fail"]
        if how == "shape":
            raise RuntimeError("boom in shape")
        if how == "refuse":
            raise kit.Error("the result has no version")
        if how == "number":
            return 42
        return "shaped as text\n"


WitWorld = kit.export(Verb)
"#;

/// A wait on a tool argument no tool can have (a space in its name) is refused when
/// the verb is built, in one line saying where and why; componentize-py, run on it,
/// ended in its own traceback (with a Rust backtrace under `RUST_BACKTRACE`), the
/// reason some 60 lines up. What the verb writes to its stdout as it loads (a print,
/// and fd 1 itself, as a C extension writes) is not taken for that line: build.sh read
/// it from all of stdout, so a valid verb that wrote there failed its build with
/// "build.sh: warming up" (checked on a refused verb, whose build ends at that step: a
/// valid one would need a componentize-py build of its own).
#[test]
fn a_python_verb_the_kit_cannot_take_fails_its_build_in_one_line() {
    let refused = FAILING_APP.replace("\"timeoutMs\"", "\"timeout ms\"");
    let noisy = refused.replacen(
        "import kit\n",
        "import kit, os; os.write(1, b\"warming up\\n\"); print(\"loaded\")\n",
        1,
    );
    for app in [refused, noisy] {
        a_refused_declaration_fails_the_build_in_one_line(
            ("pyfail", "python"),
            ("app.py", &app),
            build_sh,
            "build.sh: app.py:8: verb `pyfail` declares a wait on the argument 'timeout ms', \
             which no tool argument is named: the argument's name is 1 to 128 bytes, without \
             spaces, control characters or `=`",
        );
    }
}

/// What `verbs add` would refuse of a verb's choices and its wait is refused when the
/// verb is built, in `verbs add`'s words, at the line of the option or the `Waits` at
/// fault: a wait on the key one of its own params is sent under (`--selector`'s, or a
/// milliseconds one's, whose value is never sent), choices on an `integer`, a `choice`
/// with none. Each was built (componentize-py, a minute) and refused only by `verbs add`
/// (the milliseconds one was taken). Choices given as a string, which were its letters.
#[test]
fn a_python_verb_declaring_what_verbs_add_refuses_fails_its_build_in_one_line() {
    let verb = ("app.py", FAILING_APP);
    each_change_fails_the_build_so(
        ("pyfail", "python"),
        verb,
        ("build.sh", build_sh),
        &[
            (
                "kit.Waits(\"timeoutMs\"",
                "kit.Waits(\"selector\"",
                format!(
                    "app.py:8: verb `pyfail` declares {}",
                    wait_refused("selector", "option `--selector`", "selector")
                ),
            ),
            (
                "kit.option(\"times\", \"N\", \"how often (unused)\", kind=\"integer\")",
                "kit.option(\"timeout-ms\", \"N\", \"how often (unused)\", kind=\"milliseconds\")",
                format!(
                    "app.py:8: verb `pyfail` declares {}",
                    never_sent_refused("timeoutMs", "option `--timeout-ms`", "--timeout-ms")
                ),
            ),
            (
                "choices=[\"summary\", \"full\"]",
                "choices=\"full\"",
                "app.py:14: choices given as the string \"full\", which would be one choice a \
             letter: give a list, `choices=[\"full\"]`"
                    .to_owned(),
            ),
            (
                "kind=\"integer\")",
                "kind=\"integer\", choices=[\"1\", \"2\"])",
                format!(
                    "app.py:12: verb `pyfail` declares {}",
                    choices_refused("option `--times`", "integer")
                ),
            ),
            (
                "choices=[\"summary\", \"full\"]",
                "choices=[]",
                format!(
                    "app.py:14: verb `pyfail` declares {}",
                    no_choices_refused("option `--view`")
                ),
            ),
        ],
    );
}

#[test]
fn a_python_verb_s_exception_shows_its_message_and_pitfalls_are_not_silent() {
    let (sb, _sample) = failing_verb_session(
        ("pyfail", "python"),
        ("app.py", FAILING_APP),
        "test_app.py",
        test_and_build,
    );

    // An exception in `parse`: its type and message, and where it was raised, the file
    // as the project names it (it was componentize-py's `/0/app.py`).
    fail(&sb, "pyfail", "parse", 6)
        .assert_stderr_contains("ValueError: no selector given (File \"app.py\", line ")
        .assert_stderr_contains("in arguments");
    fail(&sb, "pyfail", "shape", 6).assert_stderr_contains("RuntimeError: boom in shape");
    // stdout that is not bytes (nor a str, which is printed) fails naming it.
    fail(&sb, "pyfail", "number", 6)
        .assert_stderr_contains("`shape` returned int for stdout; return str or bytes");
    // kit.Error from `shape` is the verb's own message; a usage error from the kit.
    fails_like_every_verb(&sb, "pyfail");
    choices_are_meant_as_the_host_means_them(&sb, "pyfail");
    gives_up_within_the_host_s_timeout(&sb, "pyfail");
}

/// A verb made with the Python or JavaScript kit whose tool is `waitFor` (of its
/// `--selector S`) and which declares its wait (`timeoutMs`, 5000 ms): within the
/// host's shorter `--timeout`, the host lowers the wait so the tool answers that it
/// timed out (exit 5), as the Rust kit's `wait` does (verbs_wait_bound.rs), and the
/// call is not cut off (exit 2, what a verb that declares nothing gets).
pub fn gives_up_within_the_host_s_timeout(sb: &mur_e2e::Sandbox, verb: &str) {
    // The tool's default lowered is said under its answer, in a hint, as for `wait`.
    let hint = mur_e2e::plugins::lowered_wait_hint(verb, 1000, 1500);
    let timed_out = "timed out after 1000 ms waiting for `#never` to exist; last seen: no \
                     element matched `#never`";
    sb.devtools(&["--timeout", "1500", verb, "--selector", "#never"])
        .assert_verb_failed(verb, "waitFor", timed_out)
        .assert_stderr_is(format!(
            "error: `{verb}` (tool `waitFor`) failed: {timed_out}\n{hint}"
        ));
    // The verb's own `--timeout`, sent as the tool's wait.
    sb.devtools(&[
        "--timeout",
        "1500",
        verb,
        "--selector",
        "#never",
        "--timeout",
        "400",
    ])
    .assert_verb_failed(
        verb,
        "waitFor",
        "timed out after 400 ms waiting for `#never`",
    );
}

/// A choice's "did you mean" in a verb made with the Python or JavaScript kit
/// (`verb`, with the options `--view summary|full`, `--status success|error` and
/// `--component counter|todo`) is the host's, as a derived verb's and the Rust
/// kit's are: the cases crates/verbs/src/derived.rs and plugins/kit/tests/choices.rs pin.
pub fn choices_are_meant_as_the_host_means_them(sb: &mur_e2e::Sandbox, verb: &str) {
    for (option, word, meant) in CHOICE_CASES {
        let said = choice_refusal(option, word, meant);
        sb.devtools(&[verb, &format!("--{option}"), word])
            .assert_code(1)
            .assert_stderr_starts_with(&format!("error: {verb}: {said}\n"));
    }
    // An option's too: `--vi` is no typo of `--view` by it, though Jaro alone likes it.
    for (word, said) in [
        ("--vi", "unknown option `--vi`"),
        (
            "--sttus",
            "unknown option `--sttus`; did you mean `--status`?",
        ),
    ] {
        sb.devtools(&[verb, word])
            .assert_code(1)
            .assert_stderr_starts_with(&format!("error: {verb}: {said}\n"));
    }
}

/// `./build.sh` before the venv step of the next steps says in one line what to run
/// first (exit 1): it was the shell's `./build.sh: 24: componentize-py: not found`
/// (exit 127), which named no fix.
#[test]
fn a_python_build_without_componentize_py_says_to_install_it_first() {
    let sb = mur_e2e::Sandbox::new();
    let dir = crate::scaffold::new_project(&sb, "pynone", "python");
    // PATH without any componentize-py, python3 kept (it checks the declarations first).
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::split_paths(&path).filter(|dir| !dir.join("componentize-py").exists());
    let path = std::env::join_paths(path).expect("PATH");
    let out = dir.join("pynone.wasm");
    let built = mur_e2e::run(
        Command::new("./build.sh")
            .arg(&out)
            .env("PATH", path)
            .current_dir(&dir),
    );
    built.assert_code(1).assert_stderr_is(
        "build.sh: componentize-py is not installed: run `python3 -m venv .venv && \
         .venv/bin/pip install -r requirements.txt` first\n",
    );
    assert!(!out.exists());
}

/// The three kits refuse a verb's name as `verbs add` does, in its words (review 314, 7),
/// from copies of the host's rule and of the words `mur devtools` answers itself: held
/// here to the host's, as a kit's copy could drift from it. `verbs new` refuses each word
/// a kit keeps and says the rule as the kit does, and each command `mur devtools --help`
/// lists (and `help`) is one the kits keep.
#[test]
fn the_kits_hold_a_verbs_name_to_the_hosts_rule() {
    let sb = mur_e2e::Sandbox::new();
    let scaffold = repo_root().join("crates/verbs/src/scaffold");
    let python = "import json, kit; print(json.dumps([kit.VERB_NAME_RULE, list(kit.HOST_VERBS)]))";
    let python = run_ok(
        &scaffold.join("python"),
        Command::new("python3").args(["-c", python]),
    );
    let js = "import { VERB_NAME_RULE, HOST_VERBS } from './kit.js'; \
              console.log(JSON.stringify([VERB_NAME_RULE, HOST_VERBS]))";
    let js = run_ok(
        &scaffold.join("js"),
        Command::new("node").args(["--input-type=module", "-e", js]),
    );
    let mut kits: Vec<(String, Vec<String>)> = [python, js]
        .iter()
        .map(|out| serde_json::from_str(&out.stdout).expect("the kit's copies"))
        .collect();
    kits.push(rust_kits_copies());
    let listed = sb.devtools(&["--help"]);
    let commands = listed.stdout.split("Commands:\n").nth(1).expect("commands");
    let mut host: Vec<String> = commands
        .lines()
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
        .chain(["help".to_owned()])
        .collect();
    host.sort();
    let said = sb.devtools(&["verbs", "new", "Bad_Name"]);
    said.assert_code(1);
    for (rule, words) in &kits {
        assert!(said.stderr.contains(rule.as_str()), "{rule}\n{said}");
        assert_eq!(words, &host, "a kit's words `mur devtools` answers itself");
    }
    for word in &host {
        sb.devtools(&["verbs", "new", word])
            .assert_code(1)
            .assert_stderr_starts_with(&format!(
                "error: `{word}` is a word `mur devtools` answers itself;"
            ));
    }
}

/// The Rust kit's copies of `VERB_NAME_RULE` and `HOST_VERBS`, read from its source
/// (plugins/kit/src/info.rs), which this crate does not build.
fn rust_kits_copies() -> (String, Vec<String>) {
    let path = repo_root().join("plugins/kit/src/info.rs");
    let text = std::fs::read_to_string(&path).expect("info.rs");
    let quoted = |from: &str, to: &str| -> Vec<String> {
        let start = text.find(from).expect(from) + from.len();
        let end = start + text[start..].find(to).expect(to);
        let inside = &text[start..end];
        inside
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect()
    };
    let rule = quoted("pub const VERB_NAME_RULE: &str = ", ";\n").concat();
    (rule, quoted("pub const HOST_VERBS", "];"))
}
