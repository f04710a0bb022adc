//! A verb written in JavaScript (tests/guests/js/shout.js, componentized with
//! componentize-js against the same wit/verb.wit) is installed and used end to
//! end like any Rust verb: its parse and shape run in the same sandbox.

use mur_e2e::Sandbox;
use mur_e2e::plugins::{add, js_verb};

use crate::verbs_manage::assert_in_help;

#[test]
fn a_javascript_verb_installs_parses_and_shapes() {
    let sandbox = Sandbox::new();
    let out = add(&sandbox, &[js_verb().to_path_buf()]);
    assert_eq!(out.stdout, "added verb `shout` (tool `version`)\n");
    // Its tens of seconds of compiling are said, not left to look like a hang.
    // And that the catalog lists it in place of the derived verb of its tool.
    let said = format!("note: compiling `{}` (", js_verb().display());
    let (compiling, rest) = out.stderr.split_once('\n').expect("two lines");
    assert!(compiling.starts_with(&said), "{out}");
    assert!(
        compiling.ends_with(" MiB) for this machine, once: this takes tens of seconds"),
        "{out}"
    );
    assert_eq!(
        rest,
        "note: in a session that has tool `version`, the catalog lists `shout` for it, in \
         place of the derived verb `version`, which still answers there (`mur devtools \
         catalog` lists a session's tools)\n",
        "{out}"
    );

    assert_in_help(
        &sandbox,
        "shout",
        "from JavaScript",
        "usage: mur devtools shout [--loud]",
    );

    // A usage error thrown by the JavaScript `parse` (a `result` err).
    let bad = sandbox.mur(&["devtools", "shout", "--bogus"]);
    bad.assert_code(1);
    bad.assert_stderr_starts_with("error: shout: unexpected argument `--bogus`\n");

    let project = sandbox.project("app");
    let _sample = sandbox.start_sample(&project);
    let loud = sandbox.mur(&["devtools", "shout", "--loud"]);
    loud.assert_code(0);
    let value = loud.json();
    assert_eq!(value["language"], "javascript", "{loud}");
    assert_eq!(value["loud"], true, "{loud}");
    assert!(value["result"].is_object(), "{loud}");

    let pretty = sandbox.mur(&["devtools", "shout", "--pretty"]);
    pretty
        .assert_code(0)
        .assert_stdout_starts_with("{\n  \"language\": \"javascript\"");
}
