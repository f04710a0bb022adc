//! `mur devtools verbs new --lang js`: the scaffolded project passes its own
//! tests (`node --test`), installs the componentize-js it pins with npm, builds
//! with its build.mjs from another directory, and the verb installs and clicks
//! in a real `mur-sample`; a thrown `Error` shows its message (exit 6), and a
//! `shape` whose stdout is not bytes is never a silent exit 0.

use std::path::{Path, PathBuf};
use std::process::Command;

use mur_e2e::Sandbox;

use crate::scaffold::{add, clicks_like_the_template, component, new_project, run_ok};

/// The project's own tests pass, and `npm install` plus its build.mjs (run from
/// elsewhere: every path in it is its own) make the component, cached by the
/// project's content.
fn test_and_build(dir: &Path) -> PathBuf {
    let tested = run_ok(dir, Command::new("node").arg("--test"));
    assert!(tested.stdout.contains("# fail 0"), "{tested}");
    component(dir, |out| {
        run_ok(
            dir,
            Command::new("npm").args(["install", "--no-audit", "--no-fund", "--prefer-offline"]),
        );
        let elsewhere = dir.parent().expect("has a parent");
        run_ok(
            elsewhere,
            Command::new("node").arg(dir.join("build.mjs")).arg(out),
        );
    })
}

#[test]
fn a_scaffolded_javascript_verb_tests_builds_installs_and_clicks() {
    let sb = Sandbox::new();
    let dir = new_project(&sb, "jsclick", "js");
    for file in [
        "verb.js",
        "kit.js",
        "verb.test.js",
        "build.mjs",
        "package.json",
        "wit/verb.wit",
    ] {
        assert!(dir.join(file).is_file(), "no {file}");
    }
    let wasm = test_and_build(&dir);
    let added = add(&sb, &wasm);
    assert_eq!(added.stdout, "added verb `jsclick` (tool `click`)\n");
    clicks_like_the_template(&sb, "jsclick");
}

/// A verb that fails on purpose, as `--fail HOW` says.
const FAILING_VERB: &str = r#"import { Verb, VerbError, option } from "./kit.js";

export const verb = new Verb({
  name: "jsfail",
  tool: "version",
  summary: "Fail on purpose",
  options: [option("fail", "HOW", "how to fail", { kind: "choice", choices: ["parse", "shape", "refuse", "number", "text"] })],
  arguments(args) {
    if (args.get("fail") === "parse") throw new Error("boom");
    return {};
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

#[test]
fn a_javascript_verb_s_throw_shows_its_message_and_pitfalls_are_not_silent() {
    let sb = Sandbox::new();
    let dir = new_project(&sb, "jsfail", "js");
    std::fs::write(dir.join("verb.js"), FAILING_VERB).expect("verb.js");
    std::fs::remove_file(dir.join("verb.test.js")).expect("the template's tests go");
    let wasm = test_and_build(&dir);
    add(&sb, &wasm);
    let _sample = sb.start_app();

    // `throw new Error("boom")`: its message and where it was thrown.
    let parse = sb.mur(&["devtools", "jsfail", "--fail", "parse"]);
    parse.assert_code(6);
    parse.assert_stderr_contains("Error: boom");
    parse.assert_stderr_contains("verb.js:");
    assert!(!parse.stderr.contains("unreachable"), "{parse}");

    let shape = sb.mur(&["devtools", "jsfail", "--fail", "shape"]);
    shape.assert_code(6);
    shape.assert_stderr_contains("TypeError: boom in shape");

    let refused = sb.mur(&["devtools", "jsfail", "--fail", "refuse"]);
    refused.assert_code(6);
    refused.assert_stderr_contains("the result has no version");
    let usage = sb.mur(&["devtools", "jsfail", "--fail", "later"]);
    usage.assert_code(1);
    usage.assert_stderr_contains(
        "`--fail` must be `parse`, `shape`, `refuse`, `number` or `text`, got `later`",
    );

    // stdout that is not a Uint8Array: a string is printed, anything else fails naming it.
    let number = sb.mur(&["devtools", "jsfail", "--fail", "number"]);
    number.assert_code(6);
    number.assert_stderr_contains(
        "`shape` returned number for stdout; return a string or a Uint8Array",
    );
    let text = sb.mur(&["devtools", "jsfail", "--fail", "text"]);
    text.assert_code(0);
    assert_eq!(text.stdout, "shaped as text\n", "{text}");
}
