//! The standard verbs end to end, part one: the read-only verbs, the counter,
//! `switch`, `fire`, `screenshot` and output formatting, each through the real
//! `mur` and its installed WebAssembly verb against a real `mur-sample`, the
//! effect checked with `state` or `tree`. Interaction with the todo and
//! settings components and `reload` are in `verbs_standard_interact.rs`,
//! usage errors and help in `verbs_standard_usage.rs`.

use mur_e2e::plugins::{
    STANDARD_VERBS, standard_add_output, standard_sandbox, standard_session as session,
};
use mur_e2e::{Output, Process, Sandbox, each_str};
use serde_json::{Value, json};

/// Runs `mur devtools <args>`, which must succeed quietly, and returns its JSON.
#[track_caller]
fn ok(sandbox: &Sandbox, args: &[&str]) -> Value {
    sandbox.devtools(args).assert_quiet_success().json()
}

/// Runs `mur devtools <args>` (its verb first), whose tool `tool` must fail saying `message`.
#[track_caller]
fn tool_failure(sandbox: &Sandbox, args: &[&str], tool: &str, message: &str) -> Output {
    let out = sandbox.devtools(args);
    out.assert_verb_failed(args[0], tool, message);
    out
}

fn count(sandbox: &Sandbox) -> Value {
    ok(sandbox, &["state"])["counter"]["count"].clone()
}

fn ids(nodes: &Value) -> Vec<&str> {
    each_str(nodes, "id")
}

/// The standard verbs are built without WASI (plugins/.cargo/config.toml): each
/// imports only its own interface's types, so `mur` links no host function for
/// it. `-v` names what a verb imports when it is compiled (under the name of
/// its file, before its `info` names it).
#[test]
fn every_standard_verb_imports_nothing_but_its_interface_types() {
    // The kit's one `-v verbs add` of the set into a fresh sandbox, which every
    // standard sandbox copies (compiling the 19 again took this test's time).
    let out = standard_add_output();
    out.assert_code(0);
    for verb in STANDARD_VERBS {
        let said = format!("DEBUG verb `mur_verb_{verb}` imports ");
        let imports = out
            .stderr
            .lines()
            .find_map(|l| l.strip_prefix(said.as_str()));
        assert_eq!(imports, Some("mur:verb/types@0.3.0"), "{verb}: {out}");
    }
}

#[test]
fn version_windows_and_components_describe_the_running_app() {
    let (sandbox, sample) = session();
    let version = ok(&sandbox, &["version"]);
    assert_eq!(version["name"], "mur-sample");
    assert_eq!(version["pid"], sample.pid());
    assert!(
        version["version"].as_str().is_some_and(|v| !v.is_empty()),
        "{version}"
    );

    let windows = ok(&sandbox, &["windows"]);
    assert_eq!(ids(&windows["windows"]), ["main", "about"], "{windows}");
    assert_eq!(windows["windows"][0]["title"], "mur sample");
    assert_eq!(
        windows["windows"][1]["bounds"],
        json!({"x": 0, "y": 0, "width": 400, "height": 160})
    );

    let components = ok(&sandbox, &["components"]);
    assert_eq!(components["active"], "counter");
    assert_eq!(
        each_str(&components["components"], "name"),
        ["counter", "todo", "settings"]
    );
    assert_eq!(
        components["components"][0]["events"],
        json!(["counter.increment", "counter.reset", "counter.set"])
    );
}

#[test]
fn switch_shows_another_component_and_refuses_an_unknown_one() {
    let (sandbox, _sample) = session();
    assert_eq!(
        ok(&sandbox, &["switch", "settings"]),
        json!({"active": "settings", "previous": "counter"})
    );
    assert_eq!(ok(&sandbox, &["state"])["activeComponent"], "settings");
    assert_eq!(ok(&sandbox, &["components"])["active"], "settings");
    // The summary tree shows visible elements only: the counter is gone, the settings are there.
    let main = ok(&sandbox, &["tree", "--window", "main"]);
    let panels = ids(&main["nodes"][0]["children"]);
    assert!(
        panels.contains(&"settings") && !panels.contains(&"counter"),
        "{main}"
    );

    tool_failure(
        &sandbox,
        &["switch", "nope"],
        "switchComponent",
        "no component `nope` (components: counter, todo, settings)",
    );
    assert_eq!(
        ok(&sandbox, &["state"])["activeComponent"],
        "settings",
        "a failed switch changes nothing"
    );
}

#[test]
fn tree_and_state_read_the_ui() {
    let (sandbox, _sample) = session();
    let all = ok(&sandbox, &["tree"]);
    assert_eq!(all["view"], "summary");
    assert_eq!(ids(&all["nodes"]), ["main", "about"]);

    let counter = ok(&sandbox, &["tree", "--selector", "#counter"]);
    assert_eq!(ids(&counter["nodes"]), ["counter"]);
    let children = &counter["nodes"][0]["children"];
    assert_eq!(
        ids(children),
        ["count-label", "count", "btn-dec", "btn-inc"],
        "{counter}"
    );
    assert_eq!(children[1]["text"], "0");
    assert_eq!(
        children[2]["enabled"], false,
        "the decrement button is disabled at 0: {counter}"
    );
    assert!(
        children[1].get("bounds").is_none(),
        "the summary view leaves out bounds: {counter}"
    );

    let full = ok(
        &sandbox,
        &["tree", "--selector", "#count", "--view", "full"],
    );
    assert_eq!(full["view"], "full");
    let node = &full["nodes"][0];
    assert_eq!(
        (
            node["id"].clone(),
            node["visible"].clone(),
            node["enabled"].clone()
        ),
        (json!("count"), json!(true), json!(true))
    );
    assert!(
        node["bounds"]["width"].as_i64().is_some_and(|w| w > 0),
        "{full}"
    );

    let about = ok(&sandbox, &["tree", "--window", "about"]);
    assert_eq!(ids(&about["nodes"]), ["about"]);
    assert!(
        ids(&about["nodes"][0]["children"]).contains(&"check-updates"),
        "{about}"
    );

    let state = ok(&sandbox, &["state", "--selector", "#count"]);
    assert_eq!(
        (
            state["id"].clone(),
            state["type"].clone(),
            state["text"].clone()
        ),
        (json!("count"), json!("Text"), json!("0"))
    );
    assert_eq!(
        (state["window"].clone(), state["matchCount"].clone()),
        (json!("main"), json!(1))
    );
    let app = ok(&sandbox, &["state"]);
    assert_eq!(
        (app["activeComponent"].clone(), app["counter"].clone()),
        (json!("counter"), json!({"count": 0}))
    );
}

#[test]
fn click_counts_and_a_disabled_button_fails_with_the_result_on_stdout() {
    let (sandbox, _sample) = session();
    let out = tool_failure(
        &sandbox,
        &["click", "#btn-dec"],
        "click",
        "`#btn-dec` is disabled",
    );
    assert_eq!(
        out.stderr,
        "error: tool `click` failed: `#btn-dec` is disabled\n"
    );
    assert_eq!(count(&sandbox), 0);

    for _ in 0..3 {
        let clicked = ok(&sandbox, &["click", "#btn-inc"]);
        assert_eq!(
            clicked["element"]["id"], "btn-inc",
            "the result is the element afterwards: {clicked}"
        );
    }
    assert_eq!(count(&sandbox), 3);
    assert_eq!(
        ok(&sandbox, &["state", "--selector", "#count"])["text"],
        "3"
    );
    assert_eq!(
        ok(&sandbox, &["state", "--selector", "#btn-dec"])["enabled"],
        true
    );
    ok(&sandbox, &["click", "#btn-dec"]);
    assert_eq!(count(&sandbox), 2);
}

/// Every standard verb takes its selector in either form, as a word or as `--selector
/// S`: an agent that learnt one form from one verb is right with every other. Each
/// slip was refused (exit 1) and counted as a usage error, until `verbs prune`
/// proposed removing the standard `click`.
#[test]
fn the_selector_is_taken_as_a_word_or_as_an_option_by_every_verb() {
    let (sandbox, _sample) = session();
    ok(&sandbox, &["click", "--selector", "#btn-inc"]);
    ok(&sandbox, &["click", "--selector=#btn-inc"]);
    assert_eq!(count(&sandbox), 2);
    assert_eq!(ok(&sandbox, &["state", "#count"])["text"], "2");
    assert_eq!(
        ok(&sandbox, &["tree", "#count"]),
        ok(&sandbox, &["tree", "--selector", "#count"])
    );
    let shot = |args: &[&str]| sandbox.devtools(args).assert_code(0).json();
    assert_eq!(
        shot(&["screenshot", "#count"]),
        shot(&["screenshot", "--selector", "#count"])
    );
    assert_eq!(
        ok(&sandbox, &["wait", "--selector", "#count", "--text", "2"])["matched"],
        true
    );
    // Given both ways, it is refused before anything is sent.
    sandbox
        .devtools(&["click", "#btn-inc", "--selector", "#btn-inc"])
        .assert_code(1)
        .assert_stderr_starts_with(
            "error: click: `<selector>` given twice: as `#btn-inc` and as `--selector '#btn-inc'`\n",
        );
    assert_eq!(count(&sandbox), 2);
}

/// A usage error that names the fix is that one line and a hint naming `--help`, not
/// the verb's whole usage again (12–16 lines an agent's context paid per slip): words
/// of a text to quote, a text to put after `--`, a path for `--out`, a short option, a
/// choice's typo, `--name` for `<name>` (R1 F8, F11). Refused before any session is
/// looked for.
#[test]
fn a_usage_error_that_names_the_fix_is_one_line_and_a_hint() {
    let sandbox = standard_sandbox();
    let cases: [(&str, &[&str], &str); 6] = [
        (
            "type",
            &["#todo-input", "buy", "milk"],
            "unexpected argument `milk`; quote the words of `<text>` as one: did you mean \
             `mur devtools type '#todo-input' 'buy milk'`?",
        ),
        (
            "type",
            &["#x", "-5"],
            "unknown option `-5`; to give it as `<text>`, put it after `--`: did you mean \
             `mur devtools type '#x' -- -5`?",
        ),
        (
            "screenshot",
            &["shot.png"],
            "unexpected argument `shot.png`; did you mean `--out shot.png`?",
        ),
        (
            "tree",
            &["-s", "#count"],
            "unknown option `-s`; did you mean `--selector`?",
        ),
        (
            "tree",
            &["--view", "fll"],
            "`--view` must be `summary` or `full`, got `fll`; did you mean `full`?",
        ),
        (
            "switch",
            &["--component", "todo"],
            "unknown option `--component`; write `<component>` without `--component`: did \
             you mean `mur devtools switch todo`?",
        ),
    ];
    for (verb, args, message) in cases {
        let mut argv = vec!["devtools", verb];
        argv.extend(args);
        sandbox
            .mur(&argv)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: {verb}: {message}\nhint: `mur devtools {verb} --help` shows its usage\n"
            ));
    }
}

/// Every standard verb's help writes its placeholders one way (R1 F24): a positional
/// in lowercase within angle brackets (`<selector>`, `<component>.<event>`), an option's
/// value as a bare capital (`--selector S`, `--to S`), as the examples type them; and
/// its usage line names its arguments as the arguments section does.
#[test]
fn every_standard_verb_writes_its_placeholders_one_way() {
    let sandbox = standard_sandbox();
    for verb in STANDARD_VERBS {
        let help = sandbox.mur(&["devtools", verb, "--help"]);
        help.assert_code(0);
        let (usage, _) = help
            .stdout
            .split_once("\n\nHost options")
            .expect("help names host options");
        for line in usage.lines() {
            let label = line.trim_start().split("  ").next().unwrap_or_default();
            let positional = label.starts_with('<') || label.starts_with("[<");
            let option = label.starts_with("--");
            let capital_positional = positional && label.chars().any(char::is_uppercase);
            let bracketed_value = option && label.contains('<');
            assert!(
                !capital_positional && !bracketed_value,
                "`{verb} --help`: {line:?}\n{help}"
            );
        }
        let synopsis = usage.lines().next().expect("a usage line");
        assert!(
            !synopsis.contains("<C") && !synopsis.contains(" <selector>]"),
            "`{verb} --help`: {synopsis:?}"
        );
        // The usage line shows each argument the arguments section lists, in its word
        // form (`state [<selector>]`, as `click <selector>`), not only as the option it
        // also is.
        let arguments = usage.split_once("\nArguments:\n").map_or("", |(_, rest)| {
            rest.split("\n\n").next().unwrap_or_default()
        });
        for row in arguments.lines() {
            let label = row.trim_start().split("  ").next().unwrap_or_default();
            assert!(
                synopsis.split(' ').any(|word| word == label),
                "`{verb} --help` lists {label} but its usage line does not: {synopsis:?}"
            );
        }
    }
}

#[test]
fn fire_raises_component_events() {
    let (sandbox, _sample) = session();
    let fired = ok(
        &sandbox,
        &["fire", "counter.set", "--args", r#"{"value":7}"#],
    );
    assert_eq!(
        fired,
        json!({"fired": "counter.set", "state": {"count": 7}})
    );
    assert_eq!(count(&sandbox), 7);
    assert_eq!(
        ok(&sandbox, &["state", "--selector", "#count"])["text"],
        "7"
    );
    ok(&sandbox, &["fire", "Counter.Increment"]);
    assert_eq!(count(&sandbox), 8, "component and event names ignore case");
    ok(
        &sandbox,
        &["fire", "todo.add", "--args", r#"{"text":"bread"}"#],
    );
    assert_eq!(
        ok(&sandbox, &["state", "--selector", "#todo-1"])["text"],
        "bread"
    );

    let out = tool_failure(
        &sandbox,
        &["fire", "counter.nope"],
        "fire",
        "unknown event `counter.nope`; known events: ",
    );
    for event in [
        "counter.increment",
        "counter.reset",
        "counter.set",
        "todo.add",
        "todo.clear",
        "settings.reset",
    ] {
        assert!(
            out.stderr.contains(event),
            "the known events are listed: {out}"
        );
    }

    let bad = sandbox.mur(&["devtools", "fire", "counter.set", "--args", "{bad"]);
    bad.assert_code(1);
    assert!(bad.stdout.is_empty(), "{bad}");
    bad.assert_stderr_starts_with("error: fire: `--args` is not valid JSON: ");
    assert_eq!(count(&sandbox), 8, "a usage error never reaches the app");
}

/// A PNG's width and height, decoding the whole image.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("a PNG header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut pixels).expect("PNG image data");
    (info.width, info.height)
}

/// The names of the PNG files in `dir`, sorted.
fn pngs_in(dir: &std::path::Path) -> Vec<String> {
    let mut names = mur_e2e::names_in(dir);
    names.retain(|name| name.ends_with(".png"));
    names
}

#[test]
fn screenshot_writes_the_png_where_asked_and_nowhere_else() {
    let (sandbox, _sample) = session();
    // Without --out only the metadata is printed, and no file appears; a note says
    // the picture was not kept, and how to keep it.
    let shot = sandbox.devtools(&["screenshot"]);
    shot.assert_code(0).assert_stderr_is(
        "note: the image was not saved: `--out shot.png` writes it to a file, `--out -` its PNG \
         bytes to stdout\n",
    );
    let meta = shot.json();
    assert_eq!(
        (
            meta["width"].clone(),
            meta["height"].clone(),
            meta["window"].clone()
        ),
        (json!(640), json!(480), json!("main"))
    );
    assert!(
        pngs_in(sandbox.root()).is_empty(),
        "no path was typed, so nothing is written"
    );

    let file = sandbox.root().join("shots/s.png");
    std::fs::create_dir(file.parent().expect("parent")).expect("shots dir");
    let path = file.to_str().expect("utf-8 path");
    let printed = ok(&sandbox, &["screenshot", "--out", path]);
    let bytes = std::fs::read(&file).expect("the PNG was written");
    // What it prints without --out, with where the picture went: the same fields
    // (`jq .window` reads the same either way), and `path` and `bytes`.
    let mut described = meta.clone();
    described["path"] = json!(path);
    described["bytes"] = json!(bytes.len());
    assert_eq!(printed, described);
    assert_eq!(
        (&printed["width"], &printed["height"]),
        (&json!(640), &json!(480))
    );
    assert_eq!(png_size(&bytes), (640, 480));

    // A relative path is relative to the working directory (the sandbox root here),
    // and `--out=PATH` names the path as well as `--out PATH`.
    let counter = ok(&sandbox, &["state", "--selector", "#counter"])["bounds"].clone();
    let printed = ok(
        &sandbox,
        &["screenshot", "--selector", "#counter", "--out=counter.png"],
    );
    let bytes = std::fs::read(sandbox.root().join("counter.png")).expect("counter.png was written");
    assert_eq!(
        (printed["width"].clone(), printed["height"].clone()),
        (counter["width"].clone(), counter["height"].clone())
    );
    assert_eq!(printed["bytes"], bytes.len());
    let size = png_size(&bytes);
    assert_eq!(
        (json!(size.0), json!(size.1)),
        (counter["width"].clone(), counter["height"].clone())
    );

    // stdout's bytes as they are, in a file beside the sandbox's root (the kit keeps
    // output as text).
    let captured = sandbox.dir("captured").join("stdout.bin");
    let mut raw =
        sandbox.mur_command(&["devtools", "screenshot", "--window", "about", "--out", "-"]);
    raw.stdout(std::fs::File::create(&captured).expect("capture file"));
    let status = Process::spawn(&mut raw).wait_status();
    assert_eq!(status.code(), Some(0), "{status:?}");
    let raw = std::fs::read(&captured).expect("captured stdout");
    assert!(
        raw.starts_with(b"\x89PNG\r\n\x1a\n"),
        "stdout is the PNG itself"
    );
    assert_eq!(png_size(&raw), (400, 160));
    assert_eq!(
        pngs_in(sandbox.root()),
        ["counter.png"],
        "`-` is stdout, never a file"
    );

    // mur's own stdout by another name, and a link into no directory, are refused
    // before the call: the file and the verb's output would overwrite each other, and
    // the second could not be written once the call had run.
    std::os::unix::fs::symlink("nodir/x.png", sandbox.root().join("nowhere.png")).expect("link");
    for (path, said) in [
        (
            "/dev/stdout",
            "error: `/dev/stdout` is mur's own stdout, where the verb's output goes \
             (nothing was sent)\nhint: give `-` for the file's bytes on stdout, or name a file\n"
                .to_owned(),
        ),
        (
            "nowhere.png",
            "error: cannot write `nowhere.png`: the directory `nodir` does not exist \
             (nothing was sent)\nhint: name a file that can be written, in a directory that exists\n"
                .to_owned(),
        ),
    ] {
        let out = sandbox.mur(&["devtools", "screenshot", "--out", path]);
        out.assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(&said);
    }
    // `/dev/null` is no one's own stdout, even when stdout is `/dev/null` too.
    let mut discarded =
        sandbox.shell_command("mur devtools screenshot --out /dev/null > /dev/null");
    mur_e2e::run(&mut discarded).assert_code(0);
}

#[test]
fn pretty_output_is_indented_and_compact_output_is_one_line() {
    let (sandbox, _sample) = session();
    for args in [
        &["devtools", "state"][..],
        &["devtools", "windows"],
        &["devtools", "tree", "--selector", "#counter"],
    ] {
        let compact = sandbox.mur(args);
        compact.assert_code(0);
        assert_eq!(compact.stdout.lines().count(), 1, "{compact}");
        assert!(compact.stdout.ends_with("}\n"), "{compact}");

        for pretty in [
            [&args[..1], &["--pretty"], &args[1..]].concat(),
            [args, &["--pretty"]].concat(),
        ] {
            let out = sandbox.mur(&pretty);
            out.assert_code(0);
            assert!(out.stdout.lines().count() > 3, "{out}");
            assert!(
                out.stdout.starts_with("{\n  \""),
                "indented by two spaces: {out}"
            );
            assert_eq!(out.json(), compact.json(), "the same value either way");
        }
    }
}

/// `-` (stdout) is found where the verb finds it, reading argv as the kits do: the
/// word after an option that takes a value is that value, unless it is one of the
/// verb's options or mur's. So `--window -- --out -` is window `--` and the PNG to
/// stdout, refused on a terminal before the call; `--window --out -` is a window left
/// out, which the verb refuses (no `--out -` that mur would refuse first). mur read it
/// otherwise: cut at the first `--`, and `--out -` anywhere, so it let the first
/// through to the terminal and refused the second.
#[test]
fn stdout_on_a_terminal_is_found_as_the_verb_reads_its_argv() {
    let (sandbox, _sample) = session();
    let on_a_terminal = |line: &str| mur_e2e::process::run(&mut sandbox.on_a_terminal(line));
    let refused = on_a_terminal("mur devtools screenshot --window -- --out -");
    refused.assert_code(1).assert_stdout_is(
        "error: `--out -` writes the bytes of an image or a sound to stdout, which is a terminal\r\n\
         hint: pipe it (`| display`, `> shot.png`) or write a file: `--out FILE`\r\n",
    );
    let judged = on_a_terminal("mur devtools screenshot --window --out -");
    judged.assert_code(1).assert_stdout_starts_with(
        "error: screenshot: `--window <W>` needs a value, and `--out` is an option (a value \
             that begins with `--` is written `--window=VALUE`)\r\n",
    );
}
