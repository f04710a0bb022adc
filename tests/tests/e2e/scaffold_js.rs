//! `mur devtools verbs new --lang js`: the scaffolded project passes its own
//! tests (`node --test`), installs the componentize-js it pins with npm, builds
//! with its build.mjs from another directory, and the verb installs and clicks
//! in a real `mur-sample`; a thrown `Error` shows its message (exit 6), a
//! `shape` whose stdout is not bytes is never a silent exit 0, and a tool's wait
//! it declares gives up within the host's `--timeout` (exit 5).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::scaffold::{
    choices_refused, component, each_change_fails_the_build_so, fail, failing_verb_session,
    fails_like_every_verb, made_one_s_own, never_sent_refused, no_choices_refused, run_ok,
    scaffolded_verb_clicks, wait_refused,
};

/// The project's own tests pass, and `npm install` plus its build.mjs (run from
/// elsewhere without OUT: every path in it is its own) make the component beside
/// verb.js, as build.sh of a Python verb does; cached by the project's content.
fn test_and_build(dir: &Path) -> PathBuf {
    let tested = run_ok(dir, Command::new("node").arg("--test"));
    assert!(tested.stdout.contains("# fail 0"), "{tested}");
    component(dir, |out| {
        run_ok(
            dir,
            Command::new("npm").args(["install", "--no-audit", "--no-fund", "--prefer-offline"]),
        );
        let file = format!("{}.wasm", dir.file_name().expect("named").to_string_lossy());
        let elsewhere = dir.parent().expect("has a parent");
        run_ok(elsewhere, Command::new("node").arg(dir.join("build.mjs")));
        assert!(
            !elsewhere.join(&file).exists(),
            "{file} written where build.mjs ran"
        );
        std::fs::rename(dir.join(&file), out).expect("NAME.wasm beside verb.js");
    })
}

/// `node build.mjs OUT` of the project `dir`, run from its parent directory.
fn build_mjs(dir: &Path, out: &Path) -> Command {
    let mut command = Command::new("node");
    command
        .arg(dir.join("build.mjs"))
        .arg(out)
        .current_dir(dir.parent().expect("has a parent"));
    command
}

#[test]
fn a_scaffolded_javascript_verb_tests_builds_installs_and_clicks() {
    let files = [
        "verb.js",
        "kit.js",
        "verb.test.js",
        "kit.test.js",
        "build.mjs",
        "package.json",
        "wit/verb.wit",
    ];
    scaffolded_verb_clicks("jsclick", "js", &files, test_and_build);
}

/// The project's own tests pass once its verb is made one's own as docs/verbs.md says: a
/// tool that waits on a bound of its own (`tool: "waitFor"`, `waits: { … }`) and a `shape`
/// of its own, which prints no pretty form. Three failed, hard-coding the tool `click`,
/// the arguments without the wait's and the pretty output: the verb's tests read what it
/// declares, the kit's use verbs of their own. No build.
#[test]
fn a_javascript_verb_made_one_s_own_as_the_guide_says_passes_its_own_tests() {
    let (_sb, dir) = made_one_s_own(
        ("jsclick", "js"),
        "verb.js",
        &[
            (
                "import { Verb, selector }",
                "import { Verb, jsonLine, selector }",
            ),
            (
                "  tool: \"click\",\n",
                "  tool: \"waitFor\",\n  waits: { argument: \"timeoutMs\", defaultMs: 5000 },\n",
            ),
            (
                "  positionals: [selector(\"the element to click\")],\n",
                "  positionals: [selector(\"the element to wait for\")],\n  \
                 shape: (result) => jsonLine(result.structuredContent),\n",
            ),
        ],
    );
    let tested = run_ok(&dir, Command::new("node").arg("--test"));
    assert!(tested.stdout.contains("# fail 0"), "{tested}");
    // The verb's tests and the kit's.
    for ran in [
        " - the component exports this verb\n",
        " - a kind the kit has not is refused, naming the kind likely meant\n",
    ] {
        assert!(tested.stdout.contains(ran), "{ran}: {tested}");
    }
}

/// A verb that fails on purpose, as `--fail HOW` says; its tool, `waitFor` (of
/// `#count` unless a selector is given), waits on a bound it declares (`waits`).
const FAILING_VERB: &str = r#"import { Verb, VerbError, option } from "./kit.js";

export const verb = new Verb({
  name: "jsfail",
  tool: "waitFor",
  summary: "Fail on purpose",
  waits: { argument: "timeoutMs", defaultMs: 5000 },
  options: [
    option("selector", "S", "the element to wait for", { kind: "selector", send: false }),
    option("fail", "HOW", "how to fail", { kind: "choice", choices: ["parse", "shape", "refuse", "number", "text"] }),
    option("times", "N", "how often (unused)", { kind: "integer" }),
    // Unused: for `choices_are_meant_as_the_host_means_them`.
    option("view", "V", "how much", { kind: "choice", choices: ["summary", "full"] }),
    option("status", "S", "how it went", { kind: "choice", choices: ["success", "error"] }),
    option("component", "C", "which", { kind: "choice", choices: ["counter", "todo"] }),
  ],
  arguments(args) {
    if (args.get("fail") === "parse") throw new Error("boom");
    return { selector: args.get("selector") ?? '#count' };
  },
  shape(result, args, pretty) {
    switch (args.get("fail")) {
      case "shape": throw new TypeError("boom in shape");
      case "refuse": throw new VerbError("the result has no version");
      case "number": return { stdout: 42 };
      default: return "shaped as text\n";
    }
  },
});

export const { info, parse, shape } = verb.exports();
"#;

/// The failing verb with each `(from, to, said)`'s first `from` made `to` fails its build
/// with the one line `build.mjs: said`.
fn fails_its_build_so(rows: &[(&str, &str, String)]) {
    let verb = ("verb.js", FAILING_VERB);
    each_change_fails_the_build_so(("jsfail", "js"), verb, ("build.mjs", build_mjs), rows);
}

/// A wait on a tool argument no tool can have (a space in its name) is refused when
/// the verb is built, in one line saying where and why, before componentize-js is
/// loaded (so without `npm install`, as here); componentize-js, run on it, ended in a
/// trace of wizer's and its own, the reason inside. A kind the kit has not is named
/// with the one likely meant, as the Python kit names it (`int`: it named none).
#[test]
fn a_javascript_verb_the_kit_cannot_take_fails_its_build_in_one_line() {
    let kinds = "flag, text, selector, name, choice, integer, count, number, json, \
                 output-path, milliseconds";
    fails_its_build_so(&[
        (
            "\"timeoutMs\"",
            "\"timeout ms\"",
            "verb.js:3: verb `jsfail` declares a wait on the argument \"timeout ms\", which no \
             tool argument is named: the argument's name is 1 to 128 bytes, without spaces, \
             control characters or `=`"
                .to_owned(),
        ),
        (
            "{ kind: \"integer\" }",
            "{ kind: \"int\" }",
            format!("verb.js:11: kind `int` is not one of {kinds}; did you mean `integer`?"),
        ),
    ]);
}

/// What `verbs add` would refuse of a verb's choices and its wait is refused when the
/// verb is built, in `verbs add`'s words, at the line of the param at fault (the `new
/// Verb(` line was named for each): a wait on the key one of its own params is sent
/// under (`--selector`'s, or a milliseconds one's, whose value is never sent), choices on
/// an `integer`, a `choice` with none. Each was built (componentize-js) and refused only by
/// `verbs add` (the milliseconds one was taken). Choices given as a string, which were its
/// letters, are refused at the line that gives them.
#[test]
fn a_javascript_verb_declaring_what_verbs_add_refuses_fails_its_build_in_one_line() {
    let declares = |line: u32, why: String| format!("verb.js:{line}: verb `jsfail` declares {why}");
    fails_its_build_so(&[
        (
            "argument: \"timeoutMs\"",
            "argument: \"selector\"",
            declares(
                9,
                wait_refused("selector", "option `--selector`", "selector"),
            ),
        ),
        (
            "option(\"times\", \"N\", \"how often (unused)\", { kind: \"integer\" })",
            "option(\"timeout-ms\", \"N\", \"how often (unused)\", { kind: \"milliseconds\" })",
            declares(
                11,
                never_sent_refused("timeoutMs", "option `--timeout-ms`", "--timeout-ms"),
            ),
        ),
        (
            "{ kind: \"integer\" }",
            "{ kind: \"integer\", choices: [\"1\", \"2\"] }",
            declares(11, choices_refused("option `--times`", "integer")),
        ),
        (
            "choices: [\"summary\", \"full\"]",
            "choices: []",
            declares(13, no_choices_refused("option `--view`")),
        ),
        // Two options of one name: the second's line.
        (
            "option(\"status\", \"S\"",
            "option(\"view\", \"S\"",
            declares(
                14,
                "two options named `view`; `mur devtools verbs add` would refuse it".to_owned(),
            ),
        ),
        (
            "choices: [\"summary\", \"full\"]",
            "choices: \"full\"",
            "verb.js:13: choices given as the string \"full\", which would be one choice a \
             letter: give a list, `choices: [\"full\"]`"
                .to_owned(),
        ),
    ]);
}

#[test]
fn a_javascript_verb_s_throw_shows_its_message_and_pitfalls_are_not_silent() {
    let (sb, _sample) = failing_verb_session(
        ("jsfail", "js"),
        ("verb.js", FAILING_VERB),
        "verb.test.js",
        test_and_build,
    );

    // `throw new Error("boom")`: its message and where it was thrown, `verb.js:LINE:COL`
    // as the project names it wherever it was built (built from the directory above,
    // it was `jsfail/verb.js:…`).
    let parse = fail(&sb, "jsfail", "parse", 6);
    parse
        .assert_stderr_contains("Error: boom")
        .assert_stderr_contains(" (verb.js:");
    assert!(!parse.stderr.contains("unreachable"), "{parse}");
    fail(&sb, "jsfail", "shape", 6).assert_stderr_contains("TypeError: boom in shape");
    // stdout that is not a Uint8Array (nor a string, which is printed) fails naming it.
    fail(&sb, "jsfail", "number", 6).assert_stderr_contains(
        "`shape` returned number for stdout; return a string or a Uint8Array",
    );
    fails_like_every_verb(&sb, "jsfail");
    crate::scaffold_python::choices_are_meant_as_the_host_means_them(&sb, "jsfail");
    crate::scaffold_python::gives_up_within_the_host_s_timeout(&sb, "jsfail");
}

/// `node build.mjs` before `npm install` says in one line what to run first (exit 1): it
/// was Node's 15-line stack trace of `ERR_MODULE_NOT_FOUND`, which named no fix.
#[test]
fn a_javascript_build_before_npm_install_says_to_run_it_first() {
    let sb = mur_e2e::Sandbox::new();
    let dir = crate::scaffold::new_project(&sb, "jsnone", "js");
    let out = dir.join("jsnone.wasm");
    let built = mur_e2e::run(&mut build_mjs(&dir, &out));
    built
        .assert_code(1)
        .assert_stderr_is("build.mjs: componentize-js is not installed: run `npm install` first\n");
    assert!(!out.exists());
}

/// `verbs new NAME` for a tool of the session makes a verb calling that tool, in every
/// language, its summary the tool's description and one param per property of the
/// tool's input schema (`state`'s `selector`, `--property`…). It made a verb calling
/// `click`, then one taking a placeholder `<selector>` whatever the tool took.
#[test]
fn a_verb_made_for_a_tool_of_the_session_calls_that_tool_in_every_language() {
    let (sb, session) = mur_e2e::Sandbox::with_app();
    let project = &session.project;
    let project_path = project.to_str().expect("utf-8");
    // Typed relative to the working directory (the sandbox's root), as a user types it.
    let project_arg = "app/App.csproj";
    assert_eq!(&sb.root().join(project_arg), project);
    let dir = sb.dir("gen");
    for (lang, file, tool, param) in [
        (
            "js",
            "verb.js",
            "tool: \"fire\",",
            "positional(\"target\", \"`Component.event`, e.g. `counter.reset` (required)\", \
             { kind: \"text\", key: \"target\", option: \"TEXT\" }),",
        ),
        (
            "python",
            "app.py",
            "tool = \"fire\"",
            "kit.option(\"args\", \"JSON\", \"event arguments",
        ),
        (
            "rust",
            "src/lib.rs",
            "tool: \"fire\",",
            "Pos::new(\"target\", \"target\", Kind::Text, ",
        ),
    ] {
        let name = "fire";
        let out = crate::scaffold::verbs_new(&sb, &["--project", project_arg], name, lang, &dir);
        out.assert_code(0);
        let made = dir.join(name);
        let text = std::fs::read_to_string(made.join(file)).expect(file);
        assert!(text.contains(tool), "{lang}: {text}");
        assert!(text.contains(param), "{lang}: {text}");
        assert!(text.contains("\"mur devtools fire x\""), "{lang}: {text}");
        // Nothing in it describes a click, nor takes a selector the tool does not.
        for click in ["selector(", "\"selector\"", "placeholder", "#btn-inc'"] {
            assert!(!text.contains(click), "{lang}: {click}: {text}");
        }
        // The note names the project by its absolute path, so that its command works
        // after the next steps' `cd` (it repeated `--project app/App.csproj`).
        let command = format!("mur devtools --project {project_path} fire --help");
        assert!(
            out.stderr.contains(&format!(
                "note: `fire` is the derived verb of the session's tool `fire`: the new verb \
                 calls it with the same params (`{command}` lists them) except `--out FILE`, \
                 with which the derived verb writes the images, audio or blobs a result holds \
                 to files (a verb declares its own output path, as the standard `screenshot` \
                 does), and once added stands in for it (`mur devtools verbs remove fire` gives \
                 the word back)\n"
            )),
            "{out}"
        );
        let cd = format!("cd {}", made.display());
        let ran = mur_e2e::run(&mut sb.shell_command(&format!("{cd} && {command}")));
        ran.assert_code(0);
        assert!(ran.stdout.contains("fire"), "{ran}");
        std::fs::remove_dir_all(&made).expect("removed");
    }
}

/// A boolean param of a verb made for a tool (`wait-for`'s `--visible`) takes the words
/// `true` and `false`, as the derived verb does, and sends the JSON value each names, in
/// the JavaScript and Python projects (run natively, as their own tests run): any other
/// word is refused naming the two. It was `kind: "json"`: `--visible yes` was refused in
/// a JSON parser's words and `--visible '"x"'` sent the string `"x"`. An integer the
/// tool holds to 0 or more (`--count`, `minimum: 0`) refuses `-1` as the Rust kit's
/// count and the derived verb do, in their words: it is the kits' count; their
/// `integer` sent it.
#[test]
fn a_boolean_param_of_a_verb_made_for_a_tool_takes_true_or_false_alone() {
    let (sb, session) = mur_e2e::Sandbox::with_app();
    let project = &session.project;
    let project_arg = project.to_str().expect("utf-8");
    let dir = sb.dir("gen");
    // Each line: what `parse` sent, or the message it refused with.
    let js = r#"import { verb } from "./verb.js";
for (const argv of JSON.parse(process.argv[1])) {
  try { console.log(verb.parse(argv).arguments); } catch (e) { console.log(e.message); }
}"#;
    let python = r#"import json, sys, app, kit
for argv in json.loads(sys.argv[1]):
    try:
        print(json.dumps(json.loads(app.Verb().parse(argv).arguments), separators=(",", ":")))
    except kit.Error as e:
        print(e)"#;
    let argvs = serde_json::json!([
        ["#x", "--visible", "false"],
        ["#x", "--visible", "true"],
        ["#x", "--visible", "yes"],
        ["#x", "--visible", "\"x\""],
        ["#x", "--args", "{\"visible\": false}"],
        ["#x", "--count", "0"],
        ["#x", "--count", "-1"],
        ["#x", "--count=-1"],
    ])
    .to_string();
    for (lang, mut command) in [
        ("js", {
            let mut node = Command::new("node");
            node.args(["--input-type=module", "-e", js, &argvs]);
            node
        }),
        ("python", {
            let mut python3 = Command::new("python3");
            python3.args(["-c", python, &argvs]);
            python3
        }),
    ] {
        crate::scaffold::verbs_new(&sb, &["--project", project_arg], "wait-for", lang, &dir)
            .assert_code(0);
        let made = dir.join("wait-for");
        // Its own tests pass as made (they parse a call of every required param).
        let tests = match lang {
            "js" => run_ok(&made, Command::new("node").arg("--test")),
            _ => run_ok(&made, Command::new("python3").args(["-m", "unittest"])),
        };
        assert_eq!(tests.code, 0, "{lang}: {tests}");
        let ran = run_ok(&made, &mut command);
        assert_eq!(
            ran.stdout,
            "{\"selector\":\"#x\",\"visible\":false}\n\
             {\"selector\":\"#x\",\"visible\":true}\n\
             `--visible` must be `true` or `false`, got `yes`\n\
             `--visible` must be `true` or `false`, got `\"x\"`\n\
             {\"visible\":false,\"selector\":\"#x\"}\n\
             {\"selector\":\"#x\",\"count\":0}\n\
             `--count` is out of range: an integer at least 0, got `-1`\n\
             `--count` is out of range: an integer at least 0, got `-1`\n",
            "{lang}: {ran}"
        );
        std::fs::remove_dir_all(&made).expect("removed");
    }
}

/// An integer a tool holds to 0 or more (`wait-for`'s `--count`, `minimum: 0`) is the
/// kits' count in a Python and a JavaScript verb made for it, built and added: `-1` is
/// refused as a Rust verb's `Kind::Count` refuses it, in the same words and with the
/// same exit code (1, a usage error), as is a word no count is. The verbs checked it in
/// their own `arguments`, where the kits' `integer` took `-1`. An integer the tool holds
/// to a range (`--timeout-ms`, `minimum: 0`, `maximum: 600000`) is refused past it by
/// the verb of each language as by the tool's derived verb, in the same words and with
/// the same exit code, typed or in `--args`: the kits sent `--timeout-ms 600001` to the
/// tool. (The usage each prints after the error is its own help, which differs from the
/// derived verb's in ways of its own: `--visible true|false`, `--timeout MS`.)
#[test]
fn a_count_of_a_verb_made_for_a_tool_refuses_below_0_as_a_rust_verb_does() {
    mur_e2e::plugins::standard_dir();
    mur_e2e::plugins::add_guest_target();
    let (sb, session) = mur_e2e::Sandbox::with_app();
    let project = &session.project;
    let project_arg = project.to_str().expect("utf-8");
    let argvs: [&[&str]; 7] = [
        &["#x", "--count", "-1"],
        &["#x", "--count=-1"],
        &["#x", "--count", "many"],
        &["#x", "--count", "18446744073709551616"],
        &["#x", "--timeout-ms", "600001"],
        &["#x", "--timeout-ms=-5"],
        &["#x", "--args", r#"{"timeoutMs": 600001}"#],
    ];
    // The rows past the schema's bounds, as the derived verb tells them (no verb of
    // that name added yet): code and the error, the paragraph before the usage.
    let bounded = &argvs[4..];
    let by_verb = |argv: &[&str]| {
        let mut full = vec!["devtools", "--project", project_arg, "wait-for"];
        full.extend_from_slice(argv);
        let out = sb.mur(&full);
        let error = out.stderr.split("\n\n").next().unwrap_or_default();
        (out.code, error.to_owned())
    };
    let derived: Vec<(i32, String)> = bounded.iter().map(|argv| by_verb(argv)).collect();
    let mut told: Vec<(&str, Vec<(i32, String)>)> = Vec::new();
    for lang in ["rust", "python", "js"] {
        let parent = sb.dir(&format!("gen-{lang}"));
        crate::scaffold::verbs_new(&sb, &["--project", project_arg], "wait-for", lang, &parent)
            .assert_code(0);
        let made = parent.join("wait-for");
        let wasm = match lang {
            "rust" => crate::scaffold::built_by_the_user(&sb, &made, "wait_for"),
            _ => {
                // Named apart from the Rust project's, whose build the cache keeps by name.
                let dir = parent.join(format!("wait-for-{lang}"));
                std::fs::rename(&made, &dir).expect("renamed");
                component(&dir, |out| {
                    let mut build = match lang {
                        "python" => crate::scaffold_python::build_sh(&dir, out),
                        _ => {
                            run_ok(
                                &dir,
                                Command::new("npm").args([
                                    "install",
                                    "--no-audit",
                                    "--no-fund",
                                    "--prefer-offline",
                                ]),
                            );
                            build_mjs(&dir, out)
                        }
                    };
                    run_ok(&dir, &mut build);
                })
            }
        };
        let wasm_arg = wasm.to_str().expect("utf-8");
        sb.mur_within(
            &["devtools", "verbs", "add", "--force", wasm_arg],
            mur_e2e::BUILD_LIMIT,
        )
        .assert_code(0);
        let refusals = argvs
            .iter()
            .map(|argv| {
                let (code, stderr) = by_verb(argv);
                (code, stderr.lines().next().unwrap_or_default().to_owned())
            })
            .collect();
        told.push((lang, refusals));
        let whole: Vec<(i32, String)> = bounded.iter().map(|argv| by_verb(argv)).collect();
        assert_eq!(whole, derived, "{lang}: as the derived verb");
    }
    let (_, rust) = &told[0];
    assert_eq!(
        rust,
        &[
            (
                1,
                "error: wait-for: `--count` is out of range: an integer at least 0, got `-1`".to_owned()
            ),
            (
                1,
                "error: wait-for: `--count` is out of range: an integer at least 0, got `-1`".to_owned()
            ),
            (
                1,
                "error: wait-for: `--count` needs a non-negative integer, got `many`".to_owned()
            ),
            (
                1,
                "error: wait-for: `--count` is out of range: an integer from 0 to 18446744073709551615, \
                 got `18446744073709551616`"
                    .to_owned()
            ),
            (
                1,
                "error: wait-for: `--timeout-ms` is out of range: an integer from 0 to 600000, \
                 got `600001`"
                    .to_owned()
            ),
            (
                1,
                "error: wait-for: `--timeout-ms` is out of range: an integer from 0 to 600000, \
                 got `-5`"
                    .to_owned()
            ),
            (
                1,
                "error: wait-for: `timeoutMs` in `--args` is out of range: an integer from 0 to \
                 600000, got `600001`"
                    .to_owned()
            ),
        ],
        "{told:?}"
    );
    for (lang, refusals) in &told[1..] {
        assert_eq!(refusals, rust, "{lang}");
    }
}
