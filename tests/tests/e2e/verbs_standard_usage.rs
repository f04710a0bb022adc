//! The standard verbs' command lines: `--help` for each prints its usage on
//! stdout (exit 0), and bad argv for each — a missing or extra positional, an
//! unknown or repeated option, a bad value, options that exclude each other —
//! is a usage error: exit 1, nothing on stdout, and on stderr one line saying
//! what is wrong, the verb's usage and a hint. No session runs here: argv is
//! checked before any session is looked for.

use mur_e2e::Sandbox;
use mur_e2e::plugins::{STANDARD_VERBS, standard_sandbox as sandbox};

/// `mur devtools <verb> --help`, which must succeed; returns the usage.
fn help(sandbox: &Sandbox, verb: &str) -> String {
    let out = sandbox.mur(&["devtools", verb, "--help"]);
    out.assert_code(0);
    assert!(out.stderr.is_empty(), "help goes to stdout only\n{out}");
    out.stdout
}

#[test]
fn every_standard_verb_prints_its_usage_on_stdout_with_help() {
    let sandbox = sandbox();
    for verb in STANDARD_VERBS {
        let usage = help(&sandbox, verb);
        assert!(
            usage.starts_with(&format!("Usage: mur devtools {verb}")),
            "{verb}:\n{usage}"
        );
        assert!(
            usage.contains("\nOptions:\n") && usage.contains("--timeout MS"),
            "{verb}:\n{usage}"
        );
        assert!(
            usage.contains(&format!("\nExamples:\n  mur devtools {verb}")),
            "{verb}:\n{usage}"
        );
        assert!(usage.ends_with('\n'), "{verb}:\n{usage}");

        let short = sandbox.mur(&["devtools", verb, "-h"]);
        short.assert_code(0);
        assert_eq!(short.stdout, usage, "-h is --help for `{verb}`");
        let via_help = sandbox.mur(&["devtools", "help", verb]);
        via_help.assert_code(0);
        assert_eq!(
            via_help.stdout, usage,
            "`mur devtools help {verb}` shows the same usage"
        );
    }
    // --help wins over anything else on the line, even arguments that are wrong.
    let out = sandbox.mur(&["devtools", "scroll", "#log", "--by", "1", "--help"]);
    out.assert_code(0)
        .assert_stdout_is(help(&sandbox, "scroll"));
}

/// Bad command lines for every standard verb and the message each must give.
const BAD: &[(&str, &[&str], &str)] = &[
    ("version", &["extra"], "unexpected argument `extra`"),
    ("version", &["--bogus"], "unknown option `--bogus`"),
    (
        "windows",
        &["--window", "main"],
        "unknown option `--window`; `screenshot` and `tree` take it",
    ),
    ("components", &["-x"], "unknown option `-x`"),
    ("switch", &[], "missing argument `<component>`"),
    ("switch", &[""], "`<component>` must not be empty"),
    (
        "switch",
        &["todo", "settings"],
        "unexpected argument `settings`",
    ),
    (
        "tree",
        &["--slector", "#a"],
        "unknown option `--slector`; did you mean `--selector`?",
    ),
    // Case aside, as mur names its own commands and verbs (`mur_core::caseless_meant`,
    // the kit's rule too): caps lock makes no other option.
    (
        "tree",
        &["--Selector", "x"],
        "unknown option `--Selector`; did you mean `--selector`?",
    ),
    (
        "tree",
        &["--SELECTOR", "x"],
        "unknown option `--SELECTOR`; did you mean `--selector`?",
    ),
    (
        "tree",
        &["--PRETY"],
        "unknown option `--PRETY`; did you mean `--pretty`?",
    ),
    (
        "tree",
        &["full"],
        "unexpected argument `full`; did you mean `--view full`?",
    ),
    (
        "tree",
        &["--view", "wide"],
        "`--view` must be `summary` or `full`, got `wide`",
    ),
    ("tree", &["--selector"], "`--selector <S>` needs a value"),
    // The word after it one of the verb's options or mur's: the value was left out.
    (
        "tree",
        &["--selector", "--window", "main"],
        "`--selector <S>` needs a value, and `--window` is an option (a value that begins with \
         `--` is written `--selector=VALUE`)",
    ),
    (
        "state",
        &["--selector", "--pretty"],
        "`--selector <S>` needs a value, and `--pretty` is an option (a value that begins with \
         `--` is written `--selector=VALUE`)",
    ),
    (
        "tree",
        &["--include-reactor-source=yes"],
        "`--include-reactor-source` takes no value, got `yes`",
    ),
    (
        "screenshot",
        &["--out", ""],
        "`--out` needs a file path, or `-` for stdout",
    ),
    (
        "screenshot",
        &["--wait-idle", "--wait-idle"],
        "the argument `--wait-idle` cannot be used multiple times",
    ),
    (
        "state",
        &["--selector", "#a", "--selector", "#b"],
        "the argument `--selector <S>` cannot be used multiple times",
    ),
    // `state '#count'` is `state --selector '#count'`, but not given both ways: told
    // so, in either order, as `click` is.
    (
        "state",
        &["#a", "--selector", "#b"],
        "`<selector>` given twice: as `#a` and as `--selector '#b'`",
    ),
    (
        "tree",
        &["--selector", "#b", "#a"],
        "`<selector>` given twice: as `#a` and as `--selector '#b'`",
    ),
    // One selector: a second word is one too many, as after `click '#a'`.
    ("state", &["#a", "#b"], "unexpected argument `#b`"),
    ("click", &[], "missing argument `<selector>`"),
    // The option form of `<selector>` is one "did you mean" names.
    (
        "click",
        &["--selectr", "#x"],
        "unknown option `--selectr`; did you mean `--selector`?",
    ),
    (
        "click",
        &["#btn-inc", "--twice"],
        "unknown option `--twice`",
    ),
    // `click --selector '#btn-inc'` is `click '#btn-inc'`, but not given both ways.
    (
        "click",
        &["#btn-inc", "--selector", "#btn-inc"],
        "`<selector>` given twice: as `#btn-inc` and as `--selector '#btn-inc'`",
    ),
    ("type", &["#todo-input"], "missing argument `<text>`"),
    (
        "type",
        &["#todo-input", "milk", "--clear=yes"],
        "`--clear` takes no value, got `yes`",
    ),
    ("focus", &[], "missing argument `<selector>`"),
    ("focus", &["#a", "#b"], "unexpected argument `#b`"),
    ("invoke", &[], "missing argument `<selector>`"),
    (
        "invoke",
        &["#todo-add", "--timeout", "soon"],
        "invalid value `soon` for `--timeout <MS>`: `soon` is not a whole number of \
         milliseconds (e.g. `5000`)",
    ),
    ("toggle", &[], "missing argument `<selector>`"),
    ("toggle", &["#dark-mode", "on"], "unexpected argument `on`"),
    ("expand", &[], "missing argument `<selector>`"),
    ("expand", &["#advanced", "--all"], "unknown option `--all`"),
    ("collapse", &[], "missing argument `<selector>`"),
    (
        "collapse",
        &["#advanced", "#other"],
        "unexpected argument `#other`",
    ),
    ("select", &["#theme"], "missing argument `<item-selector>`"),
    ("select", &[], "missing argument `<selector>`"),
    (
        "scroll",
        &["#log", "--by", "1"],
        "`--by` needs two integers as DX,DY, got `1`",
    ),
    (
        "scroll",
        &["#log", "--by", "0,down"],
        "`--by` needs two integers as DX,DY, got `0,down`",
    ),
    (
        "scroll",
        &["#log", "--by", "0,1", "--to", "#log-9"],
        "`--by` and `--to` cannot be used together",
    ),
    ("scroll", &["--by", "0,1"], "missing argument `<selector>`"),
    (
        "wait",
        &["#todo-1", "--count", "x"],
        "`--count` needs a non-negative integer, got `x`",
    ),
    // A negative count is told the bound it is past, not the top of a `u64`.
    (
        "wait",
        &["#todo-1", "--count", "-1"],
        "`--count` is out of range: an integer at least 0, got `-1`",
    ),
    (
        "wait",
        &["#todo-1", "--text", "milk", "--visible"],
        "`--text` and `--visible` cannot be used together",
    ),
    (
        "wait",
        &["#todo-1", "--timeout", "0"],
        "invalid value `0` for `--timeout <MS>`: the bound must be at least 1 ms",
    ),
    ("wait", &[], "missing argument `<selector>`"),
    ("fire", &[], "missing argument `<target>`"),
    (
        "fire",
        &["counter"],
        "the target must be `<component>.<event>`, got `counter`",
    ),
    (
        "fire",
        &["counter.set", "--args", "{bad"],
        "`--args` is not valid JSON: key must be a string at line 1 column 2",
    ),
    (
        "reload",
        &["--component"],
        "`--component <N>` needs a value",
    ),
    (
        "reload",
        &["now"],
        "unexpected argument `now`; did you mean `--component now`?",
    ),
    // Only `-h` alone asks for help: a word starting with `-h` is an unknown option
    // (nothing typed, exit 1), and a text starting with `-` is told to follow `--`.
    (
        "type",
        &["#todo-input", "-hello"],
        "unknown option `-hello`; to give it as `<text>`, put it after `--`: \
         did you mean `mur devtools type '#todo-input' -- -hello`?",
    ),
    (
        "type",
        &["#todo-input", "-hi there"],
        "unknown option `-hi there`; to give it as `<text>`, put it after `--`: \
         did you mean `mur devtools type '#todo-input' -- '-hi there'`?",
    ),
    (
        "type",
        &["#x", "-5"],
        "unknown option `-5`; to give it as `<text>`, put it after `--`: \
         did you mean `mur devtools type '#x' -- -5`?",
    ),
    (
        "type",
        &["#todo-input", "buy", "milk"],
        "unexpected argument `milk`; quote the words of `<text>` as one: \
         did you mean `mur devtools type '#todo-input' 'buy milk'`?",
    ),
    ("components", &["-hx"], "unknown option `-hx`"),
    (
        "version",
        &["--projct", "App.csproj"],
        "unknown option `--projct`; did you mean `--project`?",
    ),
    (
        "fire",
        &["counter.set", r#"{"value": 10}"#],
        r#"unexpected argument `{"value": 10}`; did you mean `--args '{"value": 10}'`?"#,
    ),
    // A plain word either of two options takes: both readings named.
    (
        "tree",
        &["main"],
        "unexpected argument `main`; did you mean `--selector main` or `--window main`?",
    ),
    // A word with a selector's marks is no window's name: `--selector` alone.
    (
        "tree",
        &[":text(\"milk\")"],
        "unexpected argument `:text(\"milk\")`; did you mean `--selector ':text(\"milk\")'`?",
    ),
    (
        "screenshot",
        &["ListItem:nth(2)"],
        "unexpected argument `ListItem:nth(2)`; did you mean `--selector 'ListItem:nth(2)'`?",
    ),
    // A plain word beside `--selector`: the other option it fits.
    (
        "tree",
        &["--selector", "#todo-list", "main"],
        "unexpected argument `main`; did you mean `--window main`?",
    ),
    // An empty word where the selector goes, worded as `click ''` words it.
    ("state", &[""], "`<selector>` must not be empty"),
    ("click", &[""], "`<selector>` must not be empty"),
    // An option of another installed verb: the verbs that take it are named.
    (
        "state",
        &["#count", "--view", "full"],
        "unknown option `--view`; `tree` takes it (`mur devtools tree --help`)",
    ),
    (
        "click",
        &["#btn-inc", "--text", "x"],
        "unknown option `--text`; `wait` takes it (`mur devtools wait --help`)",
    ),
    // `--args JSON`, the tool's whole arguments object, which every verb takes as a
    // derived verb does (`fire`, whose `--args` is its event's, as `--all-args`): an
    // object, and a positional taken from it held to its kind, in a derived verb's words.
    ("state", &["--args", "[]"], "`--args` must be a JSON object"),
    (
        "fire",
        &["counter.set", "--all-args", "1"],
        "`--all-args` must be a JSON object",
    ),
    (
        "switch",
        &["--args", r#"{"component": 5}"#],
        "`component` in `--args` must be a string, got `5`",
    ),
];

#[test]
fn bad_argv_is_a_usage_error_for_every_standard_verb() {
    let sandbox = sandbox();
    for verb in STANDARD_VERBS {
        assert!(
            BAD.iter().any(|(v, _, _)| *v == verb),
            "no usage error checked for `{verb}`"
        );
    }
    for (verb, args, message) in BAD {
        let mut argv = vec!["devtools", verb];
        argv.extend(*args);
        let out = sandbox.mur(&argv);
        out.assert_code(1);
        assert!(
            out.stdout.is_empty(),
            "nothing on stdout for `{argv:?}`\n{out}"
        );
        let (first, rest) = out.stderr.split_once('\n').expect("more than one line");
        assert_eq!(
            first,
            format!("error: {verb}: {message}"),
            "for {argv:?}\n{out}"
        );
        // A message that names the fix goes without the usage, which would only cost
        // an agent's context: a hint names `--help` instead.
        if message.contains("did you mean") {
            assert_eq!(
                rest,
                format!("hint: `mur devtools {verb} --help` shows its usage\n"),
                "for {argv:?}\n{out}"
            );
            continue;
        }
        // The verb's usage: its help without the prose (the summary and details,
        // which may be a tool's pages) and without the host options it ends with.
        let help = help(&sandbox, verb);
        let (usage, _) = help
            .split_once("\n\nHost options")
            .expect("help names host options");
        let (line, sections) = usage.split_once("\n\n").expect("a usage line");
        let sections = &sections[sections
            .find("Arguments:\n")
            .or_else(|| sections.find("Options:\n"))
            .expect("an options section")..];
        assert!(
            rest.starts_with(&format!("\n{line}\n\n{sections}\n"))
                && !rest.contains("Host options"),
            "the usage follows the message, for {argv:?}\n{out}"
        );
        // The brief usage just printed (`--help` without its summary, details and host
        // options) says what to type: no hint says to run `--help`.
        assert!(!out.stderr.contains("--help` shows its usage"), "{out}");
    }
}

#[test]
fn a_usage_error_never_reaches_the_app() {
    let sandbox = sandbox();
    let _sample = sandbox.start_app();
    sandbox
        .mur(&["devtools", "click", "#btn-inc", "--twice"])
        .assert_code(1);
    sandbox
        .mur(&["devtools", "fire", "counter.set", "--args", "{\"value\":"])
        .assert_code(1);
    sandbox
        .mur(&[
            "devtools", "scroll", "#log", "--by", "0,1", "--to", "#log-9",
        ])
        .assert_code(1);
    let state = sandbox.mur(&["devtools", "state"]);
    state.assert_code(0);
    let state = state.json();
    assert_eq!(state["counter"]["count"], 0, "{state}");
    assert_eq!(
        state["settings"]["logScroll"],
        serde_json::json!({"x": 0, "y": 0}),
        "{state}"
    );
}
