//! Managing verbs with `mur devtools verbs …`: a verb built by the tests is
//! added and works without rebuilding `mur`; removing a standard verb makes it
//! unknown at once; clashes and non-components are refused with a hint. Files
//! that are not regular (a FIFO, a device) or too big are refused at once,
//! never read until mur is killed.

use std::io::Write as _;
use std::time::Duration;

use mur_e2e::plugins::{add, guest, sandbox_with, standard, try_add, verb_dir};
use mur_e2e::{Output, Sandbox, Session, each_str};

use crate::verbs_cache::{cached_ping, in_data, theirs_with};
use crate::verbs_wait_bound::wait_lowered_to_1333;

/// Starts the app in `sandbox` and reads its catalog once: its tool list cached, as any
/// use of the session leaves it.
fn start_app_its_tools_cached(sandbox: &Sandbox) -> Session {
    let app = sandbox.start_app();
    sandbox.devtools(&["catalog"]).assert_code(0);
    app
}

/// How long a run may take before it counts as hung: generous for a debug
/// build on a loaded machine, and short enough that a regression fails the
/// test instead of stalling the suite.
const HANG_LIMIT: Duration = Duration::from_secs(30);

/// An installed verb is in `mur devtools --help` with `note` beside it, and its own
/// `--help` begins with `usage`.
pub fn assert_in_help(sandbox: &Sandbox, verb: &str, note: &str, usage: &str) {
    let help = sandbox.mur(&["devtools", "--help"]);
    help.assert_code(0);
    assert!(
        help.stdout.contains(verb) && help.stdout.contains(note),
        "{help}"
    );
    let own = sandbox.mur(&["devtools", verb, "--help"]);
    own.assert_code(0).assert_stdout_starts_with(usage);
}

/// `verbs add <file>` with the watchdog (a hang fails the test); it must be refused (exit 1).
fn add_refused(sandbox: &Sandbox, file: &std::path::Path) -> Output {
    let (out, _) = sandbox.mur_timed(&["devtools", "verbs", "add", path(file)], HANG_LIMIT);
    out.assert_code(1);
    out
}

const WHAT_A_VERB_IS: &str = "hint: a verb is a WebAssembly component built against wit/verb.wit (package mur:verb@0.3.0, or 0.2.0 or 0.1.0)\n";

/// The hint for a file that is no WebAssembly at all.
const NOT_WASM: &str = "hint: a verb is a WebAssembly component built against wit/verb.wit (package mur:verb@0.3.0, or 0.2.0 or 0.1.0), or a data verb (`.json`, mur-verb/1); a project `mur devtools verbs new` made is built first, by the command its README.md gives\n";

/// The hint for a device or a FIFO, which could have been meant as either kind of verb:
/// both are named, as for a file that is no WebAssembly at all (review 307, finding 24:
/// `/dev/null` was told of components only).
const EITHER_KIND: &str = "hint: a verb is a WebAssembly component built against wit/verb.wit (package mur:verb@0.3.0, or 0.2.0 or 0.1.0), or a data verb (`.json`, mur-verb/1)\n";

/// The hint for a directory, a project's folder or not, with no component built in it.
const NOT_A_FOLDER: &str = "hint: `verbs add` takes a verb's file (a component, or a data verb's `.json`), not a folder; a project `mur devtools verbs new` made is built first, by the command its README.md gives, and the file it writes is added (its `verbs add` line names it)\n";

fn path(p: &std::path::Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn an_added_verb_is_listed_in_help_and_works_against_a_session() {
    let sandbox = Sandbox::new();
    let out = add(&sandbox, &[guest("ping")]);
    assert_eq!(out.stdout, "added verb `ping` (tool `version`)\n");

    let list = sandbox.mur(&["devtools", "verbs", "list"]);
    list.assert_code(0);
    assert!(list.stdout_line("ping ").contains("Answer pong"), "{list}");
    let json = sandbox.mur(&["devtools", "verbs", "list", "--json"]);
    let verbs = json.json();
    assert_eq!(verbs[0]["name"], "ping");
    assert_eq!(verbs[0]["tool"], "version");
    assert_eq!(verbs[0]["sha256"].as_str().map(str::len), Some(64));

    assert_in_help(&sandbox, "ping", "[plugin]", "usage: mur devtools ping");

    let project = sandbox.project("app");
    let _sample = sandbox.start_sample(&project);
    let pong = sandbox.mur(&["devtools", "ping"]);
    pong.assert_code(0);
    let value = pong.json();
    assert_eq!(value["pong"], true, "{pong}");
    assert!(value["result"].is_object(), "{pong}");
}

#[test]
fn verbs_info_shows_tool_usage_file_hash_and_size() {
    let sandbox = sandbox_with(&[guest("ping")]);
    let info = sandbox.mur(&["devtools", "verbs", "info", "ping", "--json"]);
    info.assert_code(0);
    let entry = info.json();
    let bytes = std::fs::read(guest("ping")).expect("ping.wasm");
    assert_eq!(entry["size"], bytes.len() as u64);
    assert_eq!(entry["file"], "ping.wasm");
    assert!(verb_dir(&sandbox).join("ping.wasm").exists());
    // `--pretty` indents them, as it does every JSON mur prints for people.
    for words in [&["list", "--json"][..], &["info", "ping", "--json"]] {
        let plain = sandbox.devtools(&[&["verbs"][..], words].concat());
        let pretty = sandbox.devtools(&[&["verbs"][..], words, &["--pretty"]].concat());
        let indented = serde_json::to_string_pretty(&plain.json()).expect("json") + "\n";
        assert_eq!(pretty.assert_code(0).stdout, indented, "{words:?}");
    }
    let text = sandbox.mur(&["devtools", "verbs", "info", "ping"]);
    assert!(text.stdout.contains("tool:      version\n"), "{text}");
    assert!(text.stdout.contains("usage: mur devtools ping"), "{text}");
}

#[test]
fn a_removed_verb_is_unknown_while_call_still_reaches_its_tool() {
    let sandbox = sandbox_with(&[standard("click"), standard("state")]);
    let project = sandbox.project("app");
    let _sample = sandbox.start_sample(&project);
    sandbox
        .mur(&["devtools", "click", "#btn-inc"])
        .assert_code(0);

    let removed = sandbox.mur(&["devtools", "verbs", "remove", "click"]);
    removed
        .assert_code(0)
        .assert_stdout_is("removed verb `click`\n");
    assert!(!verb_dir(&sandbox).join("click.wasm").exists());

    // With a session running, `click` is now the session's tool as a derived
    // verb (which takes the selector as a word too): no component runs (`-v` times
    // none).
    let derived = sandbox.mur(&["devtools", "-v", "click", "#btn-inc"]);
    derived.assert_code(0);
    assert!(!derived.stderr.contains("verb timings"), "{derived}");
    let help = sandbox.mur(&["devtools", "--help"]);
    assert!(
        !help
            .stdout
            .lines()
            .any(|l| l.trim_start().starts_with("click ")),
        "{help}"
    );
    sandbox
        .call_tool("click", r##"{"selector":"#btn-inc"}"##)
        .assert_code(0);
}

#[test]
fn removing_a_verb_that_is_not_installed_says_how_to_see_them() {
    let sandbox = Sandbox::new();
    let out = sandbox.mur(&["devtools", "verbs", "remove", "nope"]);
    out.assert_code(1).assert_stderr_is(
        "error: no verb named `nope` is installed\nhint: `mur devtools verbs list` shows the installed verbs\n",
    );
    // A typo of an installed one is answered with it.
    add(&sandbox, &[guest("ping")]);
    for command in ["info", "remove"] {
        let out = sandbox.mur(&["devtools", "verbs", command, "pnig"]);
        out.assert_code(1).assert_stderr_is(
            "error: no verb named `pnig` is installed\n\
             hint: did you mean `ping`? (`mur devtools verbs list` shows them all)\n",
        );
    }
}

/// Two letters swapped is one slip, not two: `tere` is taken for `tree`, `cilck` for
/// `click`, wherever a verb's name is looked up (`verbs remove`, `verbs info`, a call).
#[test]
fn a_verb_name_with_two_letters_swapped_is_answered_with_the_verb() {
    let sandbox = sandbox_with(&[standard("tree"), standard("click")]);
    for (typed, meant) in [("tere", "tree"), ("cilck", "click")] {
        for command in ["remove", "info"] {
            let out = sandbox.mur(&["devtools", "verbs", command, typed]);
            out.assert_code(1).assert_stderr_is(format!(
                "error: no verb named `{typed}` is installed\n\
                 hint: did you mean `{meant}`? (`mur devtools verbs list` shows them all)\n"
            ));
        }
        let call = sandbox.mur(&["devtools", typed, "#x"]);
        call.assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: unknown verb `{typed}`\n\
             hint: did you mean `{meant}`?\n\
             hint: `mur devtools verbs list` shows the installed verbs\n\
             hint: no devtools session is running to look for a tool of that name\n"
            ));
    }
}

#[test]
fn replacing_an_installed_verb_needs_force() {
    let sandbox = sandbox_with(&[guest("ping")]);
    let again = try_add(&sandbox, &[guest("ping")], &[]);
    again
        .assert_code(0)
        .assert_stdout_is("verb `ping` is already installed (unchanged)\n");

    let bytes = std::fs::read(guest("ping")).expect("ping.wasm");
    let changed = sandbox.file(
        "ping-v2.wasm",
        mur_e2e::plugins::with_custom_section(&bytes, "v2"),
    );
    let refused = try_add(&sandbox, std::slice::from_ref(&changed), &[]);
    // Where the installed one came from is said: another file, or this one's earlier build.
    let was = std::fs::canonicalize(guest("ping")).expect("canonical");
    refused.assert_code(1).assert_stderr_is(format!(
        "error: verb `ping` (tool `version`, Rust) is already installed, from `{}`\n\
         hint: pass `--force` to replace it\n",
        was.display()
    ));
    let replaced = try_add(&sandbox, std::slice::from_ref(&changed), &["--force"]);
    replaced.assert_code(0);
    let rebuilt = mur_e2e::plugins::with_custom_section(&bytes, "v3");
    std::fs::write(&changed, rebuilt).expect("rebuilt");
    let again = try_add(&sandbox, std::slice::from_ref(&changed), &[]);
    again
        .assert_code(1)
        .assert_stderr_starts_with(
            "error: verb `ping` (tool `version`, Rust) is already installed, from an earlier \
             build of this file (added 20",
        )
        .assert_stderr_contains(")\nhint: pass `--force` to replace it\n");
    assert_eq!(
        replaced.stdout,
        format!(
            "replaced verb `ping` (tool `version`; it was from {})\n",
            path(&was)
        )
    );
}

#[test]
fn files_that_are_not_verbs_are_refused_and_nothing_is_installed() {
    let sandbox = Sandbox::new();
    let junk = sandbox.file("junk.wasm", b"\0asm this is not a component");
    let out = try_add(&sandbox, &[guest("ping"), junk.clone()], &[]);
    out.assert_code(1);
    out.assert_stderr_starts_with(&format!("error: `{}` is not a usable verb: ", path(&junk)));
    out.assert_stderr_contains(
        "\nhint: a verb is a WebAssembly component built against wit/verb.wit",
    );
    let list = sandbox.mur(&["devtools", "verbs", "list", "--json"]);
    assert_eq!(
        list.json(),
        serde_json::json!([]),
        "a refused batch installs nothing"
    );

    let missing = try_add(&sandbox, &[sandbox.root().join("missing.wasm")], &[]);
    missing.assert_code(1);
    missing.assert_stderr_starts_with("error: could not read `");
}

#[cfg(unix)]
#[test]
fn a_device_a_fifo_or_a_directory_is_refused_at_once() {
    let sandbox = Sandbox::new();
    let fifo = sandbox.root().join("verb.wasm");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("run mkfifo");
    assert!(made.success(), "mkfifo");
    let dir = sandbox.dir("dir.wasm");

    for (file, kind, hint) in [
        (
            std::path::PathBuf::from("/dev/zero"),
            "a device",
            EITHER_KIND,
        ),
        (fifo, "a FIFO", EITHER_KIND),
        (dir, "a directory", NOT_A_FOLDER),
    ] {
        let out = add_refused(&sandbox, &file);
        assert_eq!(
            out.stderr,
            format!(
                "error: `{}` is not a usable verb: it is {kind}, not a regular file\n{hint}",
                path(&file)
            ),
            "{out}"
        );
    }
}

#[test]
fn a_huge_file_is_judged_by_its_first_bytes_and_its_size_never_read_whole() {
    let sandbox = Sandbox::new();
    // 1 GiB, sparse: zeros, so no WebAssembly header.
    let junk = sandbox.root().join("huge.wasm");
    std::fs::File::create(&junk)
        .and_then(|f| f.set_len(1 << 30))
        .expect("sparse file");
    let out = add_refused(&sandbox, &junk);
    assert_eq!(
        out.stderr,
        format!(
            "error: `{}` is not a usable verb: it is not a WebAssembly component (no WebAssembly header)\n{NOT_WASM}",
            path(&junk)
        ),
        "{out}"
    );

    // The same size behind a valid component header: refused for its size.
    let big = sandbox.root().join("big.wasm");
    let mut file = std::fs::File::create(&big).expect("create");
    file.write_all(b"\0asm\x0d\0\x01\0").expect("header");
    file.set_len(1 << 30).expect("sparse file");
    drop(file);
    let out = add_refused(&sandbox, &big);
    assert_eq!(
        out.stderr,
        format!(
            "error: `{}` is not a usable verb: it is 1073741824 bytes, over the 256 MiB limit\n{WHAT_A_VERB_IS}",
            path(&big)
        ),
        "{out}"
    );
    let list = sandbox.mur(&["devtools", "verbs", "list", "--json"]);
    assert_eq!(list.json(), serde_json::json!([]), "nothing installed");
}

#[cfg(unix)]
#[test]
fn a_symlink_the_user_names_is_followed() {
    let sandbox = Sandbox::new();
    let link = sandbox.root().join("ping.wasm");
    std::os::unix::fs::symlink(guest("ping"), &link).expect("symlink");
    let out = add(&sandbox, &[link]);
    assert_eq!(out.stdout, "added verb `ping` (tool `version`)\n");
    let installed =
        std::fs::symlink_metadata(verb_dir(&sandbox).join("ping.wasm")).expect("installed ping");
    assert!(installed.is_file(), "the verb directory holds a copy");
}

#[cfg(unix)]
#[test]
fn a_fifo_as_the_verb_index_fails_at_once_with_exit_7() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(verb_dir(&sandbox)).expect("verb dir");
    let index = verb_dir(&sandbox).join("index.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&index)
        .status()
        .expect("run mkfifo");
    assert!(made.success(), "mkfifo");

    for args in [
        &["devtools", "verbs", "list"][..],
        &["devtools", "verbs", "add", path(&guest("ping"))],
        &["devtools", "ping"],
    ] {
        let (out, _) = sandbox.mur_timed(args, HANG_LIMIT);
        out.assert_code(7).assert_stderr_is(format!(
                "error: the verb index `{0}` is a FIFO, not a regular file\n\
                 hint: remove `{0}`, then reinstall the verbs with `mur devtools verbs add --force <file.wasm>...`\n",
                path(&index)
            ));
    }
}

/// Writes a data verb `name` for the tool `state` with these `options` into the
/// sandbox; its path.
fn data_verb(sandbox: &Sandbox, file: &str, name: &str, options: &str) -> std::path::PathBuf {
    sandbox.file(
        file,
        format!(
            r#"{{"schema": "mur-verb/1", "name": "{name}", "tool": "state", "summary": "s", "options": {options}}}"#
        ),
    )
}

/// Options no command line could use are refused at `verbs add`, each with one
/// line naming the file and the option, and a hint; nothing is installed. Each
/// was once added (`added verb … (tool `state`)`): two options for one field
/// merged silently, an empty field was an option `--`, and a choice `1` of a
/// string option refused `--mode 1` with "must be `1` or `2`, got `1`".
#[test]
fn a_data_verb_with_options_argv_could_not_use_is_refused() {
    let sandbox = Sandbox::new();
    for (options, error, hint) in [
        (
            r#"[{"field": "selector"}, {"field": "selector"}]"#,
            "has two options for field `selector`",
            "give each argument field one option (an `array` option may be given many times)",
        ),
        (
            r#"[{"field": ""}]"#,
            "has an option with an empty `field`",
            r#"set `field` to the argument the option fills, as in `{"field": "selector"}`"#,
        ),
        (
            r#"[{"field": "mode", "choices": [1, 2]}]"#,
            "gives option `mode` the choice `1`, which is not a string (the option's `type` is `string`)",
            r#"write every choice as a string, or give the option the type of its choices (`"type": "integer"`)"#,
        ),
    ] {
        let file = data_verb(&sandbox, "broken.json", "broken", options);
        let out = try_add(&sandbox, std::slice::from_ref(&file), &[]);
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.clone()),
            (
                1,
                "",
                format!("error: `{}` {error}\nhint: {hint}\n", path(&file))
            ),
            "{options}"
        );
    }
    let list = sandbox.mur(&["devtools", "verbs", "list", "--json"]);
    assert_eq!(list.json(), serde_json::json!([]), "nothing installed");
}

/// A data verb's field named like a host option is `--arg-NAME`, as a derived
/// verb's property is (docs/verbs.md), so `--timeout` after its name is still the
/// host's; it once was the field's own.
#[test]
fn a_data_verb_field_named_like_a_host_option_is_behind_arg() {
    let sandbox = Sandbox::new();
    let file = data_verb(
        &sandbox,
        "slow.json",
        "slow",
        r#"[{"field": "timeout", "type": "integer", "help": "the tool's own timeout"}]"#,
    );
    add(&sandbox, &[file]);
    let help = sandbox.devtools(&["slow", "--help"]);
    help.assert_code(0)
        .assert_stdout_starts_with("Usage: mur devtools slow [--arg-timeout N] [--args JSON]\n");
    assert!(
        help.stdout.contains("\n  --arg-timeout N ") && !help.stdout.contains("verb's own"),
        "{help}"
    );
}

/// `verbs info` of a verb added by a relative path shows where its source is from
/// anywhere: the canonical path, not the words typed (`build/ping.wasm` meant
/// nothing from another directory). Checked whole, as a user reads it.
#[test]
fn verbs_info_shows_the_source_as_a_canonical_path() {
    let sandbox = Sandbox::new();
    let build = sandbox.dir("build");
    std::fs::copy(guest("ping"), build.join("ping.wasm")).expect("copy ping");
    // `mur` runs in the sandbox's root: the path is relative to it, with a detour.
    let added = sandbox.devtools(&["verbs", "add", "build/../build/ping.wasm"]);
    added.assert_code(0);
    let source = std::fs::canonicalize(build.join("ping.wasm")).expect("canonical");
    let json = sandbox
        .devtools(&["verbs", "info", "ping", "--json"])
        .json();
    assert_eq!(json["source"], path(&source), "{json}");
    let info = sandbox.devtools(&["verbs", "info", "ping"]);
    info.assert_code(0);
    let text = |key: &str| {
        json[key]
            .as_str()
            .map_or_else(|| json[key].to_string(), str::to_owned)
    };
    assert_eq!(
        info.stdout,
        format!(
            "name:      ping\n\
             tool:      version\n\
             summary:   {summary}\n\
             interface: mur:verb@0.1.0\n\
             language:  Rust\n\
             source:    {source}\n\
             file:      {file}\n\
             sha256:    {sha256}\n\
             size:      {size} bytes\n\
             compiled:  {compiled} bytes (cached native code)\n\
             added:     {added}\n\
             \n\
             {help}",
            summary = text("summary"),
            source = path(&source),
            file = path(&verb_dir(&sandbox).join("ping.wasm")),
            sha256 = text("sha256"),
            size = text("size"),
            compiled = text("compiledBytes"),
            added = text("addedAt"),
            // The help `ping --help` prints, a 0.1 verb's own usage text and the host
            // options' line.
            help = sandbox.devtools(&["ping", "--help"]).stdout,
        )
    );

    // A data verb added by a relative path, the same.
    std::fs::write(
        build.join("count.json"),
        r##"{"schema": "mur-verb/1", "name": "count", "tool": "state", "summary": "Print the counter", "arguments": {"selector": "#count"}, "output": "/text"}"##,
    )
    .expect("write count.json");
    sandbox
        .devtools(&["verbs", "add", "build/count.json"])
        .assert_code(0);
    let count = sandbox
        .devtools(&["verbs", "info", "count", "--json"])
        .json();
    let source = std::fs::canonicalize(build.join("count.json")).expect("canonical");
    assert_eq!(count["source"], path(&source), "{count}");
    // A data verb is read, not compiled: no native code to speak of.
    assert_eq!(count.get("compiledBytes"), None, "{count}");
    let info = sandbox.devtools(&["verbs", "info", "count"]);
    assert!(!info.stdout.contains("compiled:"), "{info}");
}

/// A name a verb file carries is printed in help, listings and messages: a control
/// character in its tool's name is refused at `verbs add` (it wrote an escape on
/// the terminal), as one in its summary is (host_cli), and one in its details (lines
/// of prose) is printed escaped.
#[test]
fn a_verb_files_words_never_write_on_the_terminal() {
    let sandbox = Sandbox::new();
    let file = sandbox.file(
        "count.json",
        r##"{"schema": "mur-verb/1", "name": "count", "tool": "st\u001b[2Jate\nerror: x", "summary": "s"}"##,
    );
    let refused = add_refused(&sandbox, &file);
    assert_eq!(
        refused.stderr,
        format!(
            "error: verb `count` in `{}` names a tool with a control character: \"st\\u{{1b}}[2Jate\\nerror: x\"\n",
            path(&file)
        )
    );
    std::fs::write(
        &file,
        r##"{"schema": "mur-verb/1", "name": "count", "tool": "state", "summary": "s", "details": "Print\u001b[2J the count"}"##,
    )
    .expect("write");
    sandbox
        .devtools(&["verbs", "add", path(&file)])
        .assert_code(0);
    for args in [&["count", "--help"][..], &["verbs", "info", "count"]] {
        let out = sandbox.devtools(args);
        out.assert_code(0);
        assert!(
            out.stdout.contains("Print\\x1b[2J the count"),
            "{args:?}: {out}"
        );
        assert!(!out.stdout.contains('\u{1b}'), "{args:?}: {out}");
    }
}

/// `verbs add` tells a component from a data verb by its content, not its name:
/// a data verb without `.json` was refused as "not a WebAssembly component (no
/// WebAssembly header)", and a component named `.json` as "expected value at line
/// 1 column 1". Each is installed under the ending of what it is.
#[test]
fn a_file_is_added_as_what_its_content_is_whatever_its_name() {
    let sandbox = Sandbox::new();
    let count = data_verb(&sandbox, "count", "count", "[]");
    let shout = data_verb(&sandbox, "shout.wasm", "shout", "[]");
    let ping = sandbox.root().join("ping.json");
    std::fs::copy(guest("ping"), &ping).expect("copy ping");
    let out = add(&sandbox, &[count, shout, ping]);
    assert_eq!(
        out.stdout,
        "added verb `count` (tool `state`)\n\
         added verb `shout` (tool `state`)\n\
         added verb `ping` (tool `version`)\n"
    );
    for file in ["count.json", "shout.json", "ping.wasm"] {
        assert!(verb_dir(&sandbox).join(file).is_file(), "{file}");
    }
    let info = sandbox
        .devtools(&["verbs", "info", "shout", "--json"])
        .json();
    assert_eq!(info["interface"], "data", "{info}");
}

/// A batch with one bad file installs nothing, and says so: the error named only
/// the bad file.
#[test]
fn a_refused_batch_says_that_nothing_was_added() {
    let sandbox = Sandbox::new();
    let junk = sandbox.file("junk.wasm", "not a verb");
    let out = try_add(&sandbox, &[guest("ping"), junk.clone()], &[]);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.clone()),
        (
            1,
            "",
            format!(
                "error: `{}` is not a usable verb: it is not a WebAssembly component (no WebAssembly header); \
                 none of the 2 files given was added\n{NOT_WASM}",
                path(&junk)
            )
        )
    );
    let list = sandbox.mur(&["devtools", "verbs", "list", "--json"]);
    assert_eq!(list.json(), serde_json::json!([]), "nothing installed");
}

/// A batch with several bad files names every one, each refusal as it reads alone,
/// and each hint after the file it is for where they differ: only the first was named,
/// and the next run refused the next. Nothing is installed, exit 1, as before.
#[test]
fn a_batch_with_several_bad_files_names_every_one() {
    let sandbox = Sandbox::new();
    let junk = sandbox.file("junk.wasm", "not a verb");
    let empty = sandbox.file("empty.wasm", "");
    let out = try_add(&sandbox, &[junk.clone(), guest("ping"), empty.clone()], &[]);
    let not_a_verb = |file: &std::path::Path, why: &str| {
        format!("`{}` is not a usable verb: it {why}", path(file))
    };
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.clone()),
        (
            1,
            "",
            format!(
                "error: 2 of the files given are refused: {}; {}; none of the 3 files given \
                 was added\n{NOT_WASM}",
                not_a_verb(
                    &junk,
                    "is not a WebAssembly component (no WebAssembly header)"
                ),
                not_a_verb(
                    &empty,
                    "is not a WebAssembly component (no WebAssembly header)"
                ),
            )
        )
    );
    // Hints that differ, each for its file.
    let data = sandbox.file("bad.json", "{}");
    let out = try_add(&sandbox, &[junk.clone(), data.clone()], &[]);
    let what = NOT_WASM.trim_start_matches("hint: ").trim_end();
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.clone()),
        (
            1,
            "",
            format!(
                "error: 2 of the files given are refused: {}; `{}` is not a data verb: missing \
                 field `schema` at line 1 column 2; none of the 2 files given was added\n\
                 hint: for `{}`: {what}; for `{}`: a data verb is a JSON object of schema \
                 `mur-verb/1`: `schema`, `name`, `tool` and `summary`, and optionally \
                 `details`, `arguments`, `options`, `output` and `examples`\n",
                not_a_verb(
                    &junk,
                    "is not a WebAssembly component (no WebAssembly header)"
                ),
                path(&data),
                path(&junk),
                path(&data),
            )
        )
    );
    let list = sandbox.mur(&["devtools", "verbs", "list", "--json"]);
    assert_eq!(list.json(), serde_json::json!([]), "nothing installed");
}

/// The same file given twice is added once and reported once, a data verb as a
/// component (a `.json` twice was reported twice, a `.wasm` twice refused); two
/// different files of one verb are refused.
#[test]
fn the_same_file_twice_is_added_once_and_two_files_of_one_verb_are_refused() {
    let sandbox = Sandbox::new();
    let count = data_verb(&sandbox, "count.json", "count", "[]");
    let files = [count.clone(), guest("ping"), count.clone(), guest("ping")];
    let out = add(&sandbox, &files);
    assert_eq!(
        out.stdout,
        "added verb `count` (tool `state`)\nadded verb `ping` (tool `version`)\n"
    );
    let again = add(&sandbox, &files);
    assert_eq!(
        again.stdout,
        "verb `count` is already installed (unchanged)\n\
         verb `ping` is already installed (unchanged)\n"
    );
    let other = data_verb(
        &sandbox,
        "count-v2.json",
        "count",
        r#"[{"field": "selector"}]"#,
    );
    let refused = try_add(&sandbox, &[count.clone(), other.clone()], &["--force"]);
    assert_eq!(
        (
            refused.code,
            refused.stdout.as_str(),
            refused.stderr.as_str()
        ),
        (
            1,
            "",
            format!(
                "error: two of the files given are verb `count`: `{}` and `{}`; none of the 2 \
                 files given was added\n",
                count.display(),
                other.display()
            )
            .as_str()
        )
    );
}

/// A refused file given twice, by one path or another, is named once, as a file added
/// twice is (review 307, finding 5: "3 of the files given are refused", the same file's
/// refusal and hint said twice).
#[test]
fn a_refused_file_given_twice_is_named_once() {
    let sandbox = Sandbox::new();
    let odd = sandbox.file(
        "a1.json",
        r#"{"schema":"mur-verb/1","name":"a1","tool":"state","summary":"x","extra":1}"#,
    );
    let call = data_verb(&sandbox, "call.json", "call", "[]");
    let again = sandbox.root().join(".").join("a1.json");
    let out = try_add(
        &sandbox,
        &[odd.clone(), again, odd.clone(), call.clone()],
        &[],
    );
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.clone()),
        (
            1,
            "",
            format!(
                "error: 2 of the files given are refused: `{odd}` is not a data verb: unknown \
                 field `extra`, expected one of `schema`, `name`, `tool`, `summary`, `details`, \
                 `arguments`, `options`, `output`, `examples` at line 1 column 71; `{call}` \
                 names itself `call`, a word `mur devtools` answers itself: a verb by that name \
                 could not be called; none of the 4 files given was added\n\
                 hint: for `{odd}`: a data verb is a JSON object of schema `mur-verb/1`: \
                 `schema`, `name`, `tool` and `summary`, and optionally `details`, `arguments`, \
                 `options`, `output` and `examples`; for `{call}`: give the verb another `name` \
                 in the file (e.g. `my-call`)\n",
                odd = path(&odd),
                call = path(&call),
            )
        )
    );
}

/// An installed verb's summary reaches `mur devtools --help` and completion as every
/// text of others' does: a terminal command or a right-to-left override in it is
/// shown as its escape, on a pipe and on a terminal alike (clap printed it raw).
#[test]
fn a_verbs_summary_in_the_help_list_is_escaped() {
    // Since 6b61988 a summary with control characters is refused at `verbs add`, so
    // the help list never shows one: the verb is not installed.
    let sandbox = Sandbox::new();
    let summary = "red \u{1b}[31mtext\u{7} and \u{202e}txt.exe";
    let verb = serde_json::json!({
        "schema": "mur-verb/1", "name": "evil", "tool": "version", "summary": summary,
    });
    let file = sandbox.file("evil.json", verb.to_string());
    sandbox
        .devtools(&["verbs", "add", path(&file)])
        .assert_code(1)
        .assert_stderr_contains("has a control character in `summary`");
    let help = sandbox.devtools(&["--help"]);
    help.assert_code(0);
    assert!(!help.stdout.contains("evil"), "{help}");
    assert!(!help.stdout.contains('\u{1b}'), "{help}");
}

/// A refused batch names every clash, so one look tells whether `--force` is safe
/// for all of it: it named the first alone, and `--force` then replaced the others
/// unseen.
#[test]
fn a_batch_that_clashes_twice_names_both_verbs() {
    let sandbox = sandbox_with(&[guest("ping"), guest("scribble")]);
    let changed = |name: &str| {
        let bytes = std::fs::read(guest(name)).expect("guest");
        let bytes = mur_e2e::plugins::with_custom_section(&bytes, "v2");
        let declared = mur_e2e::plugins::with_verb_name(&bytes, name);
        sandbox.file(&format!("{name}-v2.wasm"), declared)
    };
    let files = [changed("ping"), changed("scribble")];
    let out = try_add(&sandbox, &files, &[]);
    let from = |name: &str| std::fs::canonicalize(guest(name)).expect("canonical");
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.clone()),
        (
            1,
            "",
            format!(
                "error: 2 verbs are already installed: `ping` (tool `version`, Rust), from `{}`; \
                 `scribble` (tool `version`, Rust), from `{}`; none of the 2 files given was \
                 added\nhint: pass `--force` to replace them\n",
                from("ping").display(),
                from("scribble").display()
            )
        )
    );
}

/// `verbs remove` takes several names, as `verbs add` takes several files: all are
/// removed, or, one not installed, none.
#[test]
fn verbs_remove_takes_several_names_all_or_none() {
    let sandbox = sandbox_with(&[guest("ping"), guest("scribble"), guest("crash")]);
    let refused = sandbox.devtools(&["verbs", "remove", "ping", "nope"]);
    refused.assert_code(1).assert_stderr_is(
        "error: no verb named `nope` is installed; none of the 2 verbs given was removed\n\
         hint: `mur devtools verbs list` shows the installed verbs\n",
    );
    // Every name not installed is named, each near miss answered with its verb.
    let refused = sandbox.devtools(&["verbs", "remove", "nope1", "nope2"]);
    refused.assert_code(1).assert_stderr_is(
        "error: 2 verbs are not installed: `nope1`, `nope2`; none of the 2 verbs given was \
         removed\nhint: `mur devtools verbs list` shows the installed verbs\n",
    );
    let refused = sandbox.devtools(&["verbs", "remove", "pnig", "crash", "nope", "scribel"]);
    refused.assert_code(1).assert_stderr_is(
        "error: 3 verbs are not installed: `pnig`, `nope`, `scribel`; none of the 4 verbs \
         given was removed\nhint: did you mean `ping` for `pnig`, `scribble` for `scribel`? \
         (`mur devtools verbs list` shows them all)\n",
    );
    let removed = sandbox.devtools(&["verbs", "remove", "ping", "scribble", "ping"]);
    removed
        .assert_code(0)
        .assert_stdout_is("removed verb `ping`\nremoved verb `scribble`\n");
    let left = sandbox.devtools(&["verbs", "list", "--json"]).json();
    assert_eq!(each_str(&left, "name"), ["crash"]);
}

/// Help wins wherever it appears before `--`, as the kits' rule is: a JSON option's
/// `@FILE` or `-` is not read first (a file not there was the answer, exit 1, and a
/// terminal's stdin was waited on). After `--` it is a word like any other.
#[test]
fn a_json_option_s_file_or_stdin_is_read_after_help_and_by_the_one_rule() {
    let sandbox = sandbox_with(&[standard("fire")]);
    let help = sandbox.devtools(&["fire", "--help"]);
    help.assert_code(0);
    for argv in [
        &["fire", "x", "--args", "@missing.json", "--help"][..],
        &["fire", "--args=@missing.json", "-h", "x"],
        &["fire", "x", "--args", "-", "--help"],
    ] {
        let asked = sandbox.devtools(argv);
        asked
            .assert_code(0)
            .assert_stderr_is("")
            .assert_stdout_is(&help.stdout);
    }
    // Stdin is one option's value, once, by the rule a derived verb's options keep.
    let file = sandbox.file("v.json", "{}");
    let twice = mur_e2e::run(&mut sandbox.shell_command(&format!(
        "mur devtools fire x.y --args - --args=@- < {}",
        file.display()
    )));
    twice
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_starts_with(
            "error: fire: `--args` reads stdin, which `--args` reads already: stdin can be \
             read once (give one of them `@FILE`)\n\nUsage: mur devtools fire ",
        );
    let ended = sandbox.devtools(&["fire", "--args", "@missing.json", "--", "--help"]);
    ended
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_starts_with(
            "error: fire: `--args`: `missing.json` cannot be read: no such file (`@FILE` reads \
             a file; a value that begins with `@` is written `@@…`)\n\nUsage: mur devtools fire ",
        );
}

/// A verb replaced by one for another tool says so: its tool's derived verb, and
/// the new tool's, change with it.
#[test]
fn replacing_a_verb_with_one_for_another_tool_says_the_tool_changed() {
    let sandbox = sandbox_with(&[guest("ping")]);
    let data = data_verb(&sandbox, "ping.json", "ping", "[]");
    let replaced = try_add(&sandbox, std::slice::from_ref(&data), &["--force"]);
    let was = std::fs::canonicalize(guest("ping")).expect("canonical");
    replaced.assert_code(0).assert_stdout_is(format!(
        "replaced verb `ping` (tool `state`, was `version`; it was from {})\n",
        was.display()
    ));
}

/// A file installed before under another name (its verb renamed in source, then
/// rebuilt) leaves the old verb installed: `verbs add` keeps it (the user may want
/// both) and says so in one note, naming it and how to remove it. It said nothing,
/// and `verbs list --json` showed both from the same source.
#[test]
fn a_file_added_again_under_a_new_name_says_the_old_one_is_still_installed() {
    let sandbox = Sandbox::new();
    let file = data_verb(&sandbox, "bx.json", "bx1", "[]");
    add(&sandbox, std::slice::from_ref(&file));
    data_verb(&sandbox, "bx.json", "bx2", "[]");
    let renamed = try_add(&sandbox, std::slice::from_ref(&file), &["--force"]);
    renamed
        .assert_code(0)
        .assert_stdout_is("added verb `bx2` (tool `state`)\n")
        .assert_stderr_is(
            "note: `bx1` is still installed, from an earlier build of this file, which is now \
             `bx2` (`mur devtools verbs remove bx1` removes it)\n",
        );
    assert_eq!(installed(&sandbox), ["bx1", "bx2"], "both kept");
    let again = try_add(&sandbox, std::slice::from_ref(&file), &[]);
    again.assert_code(0).assert_stderr_is("");
}

/// The index is `verbs remove`'s transaction: a failure to change it (here its
/// directory made read-only, immutable for root) removes none of the verbs given,
/// which stay listed and callable, and says so in one line, exit 7 (mur's own
/// failure). Once the index is changed, a verb's file that cannot be deleted (here a
/// directory in its place) does not fail the removal: the verb is gone all the same.
#[test]
fn verbs_remove_is_all_or_none_when_the_index_cannot_be_changed() {
    let sandbox = sandbox_with(&[guest("ping"), guest("scribble")]);
    let index = verb_dir(&sandbox).join("index");
    let locked = ReadOnly::new(&index);
    let first = index.join("ping.json");
    // What the system says to mur's removal, said to one of our own.
    let why = std::fs::remove_file(&first).expect_err("a read-only directory");
    let refused = sandbox.devtools(&["verbs", "remove", "ping", "scribble"]);
    drop(locked);
    // Whole: ping's entry was never changed, so nothing says it could not be put back.
    refused
        .assert_code(7)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: could not remove `{}`: {why}; none of the 2 verbs given was removed\n",
            path(&first)
        ));
    assert_eq!(installed(&sandbox), ["ping", "scribble"]);
    let _sample = sandbox.start_sample(&sandbox.project("app"));
    let pong = sandbox.devtools(&["ping"]);
    pong.assert_code(0);
    assert_eq!(pong.json()["pong"], true, "{pong}");

    let in_the_way = verb_dir(&sandbox).join("ping.wasm");
    std::fs::remove_file(&in_the_way).expect("ping.wasm");
    std::fs::create_dir_all(in_the_way.join("kept")).expect("a directory in its place");
    let removed = sandbox.devtools(&["verbs", "remove", "ping", "scribble"]);
    removed
        .assert_code(0)
        .assert_stdout_is("removed verb `ping`\nremoved verb `scribble`\n");
    assert_eq!(installed(&sandbox), Vec::<String>::new());
    assert!(!verb_dir(&sandbox).join("scribble.wasm").exists());
}

/// An `index.json` an older `mur` left is moved into entry files, and its removal is
/// no part of that move: in a verb directory `mur` may not change (its `index/` it
/// may), the entries are written and kept, and only the old file stays, to be removed
/// later. The move was undone, entries and all, at every command that read the index.
#[test]
fn a_legacy_index_that_cannot_be_removed_is_moved_all_the_same() {
    let sandbox = sandbox_with(&[guest("ping")]);
    let dir = verb_dir(&sandbox);
    let entry = dir.join("index").join("ping.json");
    let verb = serde_json::from_str::<serde_json::Value>(
        &std::fs::read_to_string(&entry).expect("ping's entry"),
    )
    .expect("an entry")["verb"]
        .clone();
    let legacy = dir.join("index.json");
    let old = serde_json::json!({"schema": "mur-verbs/1", "verbs": [verb]});
    std::fs::write(&legacy, old.to_string()).expect("legacy index");
    std::fs::remove_file(&entry).expect("ping's entry");

    let locked = ReadOnly::new(&dir);
    assert_eq!(installed(&sandbox), ["ping"]);
    let moved = std::fs::read_to_string(&entry);
    assert!(legacy.exists(), "the directory may not change");
    drop(locked);
    let moved: serde_json::Value =
        serde_json::from_str(&moved.expect("ping's entry kept")).expect("an entry");
    assert_eq!(moved["verb"], verb);
    assert_eq!(installed(&sandbox), ["ping"]);
    assert!(!legacy.exists(), "removed once the directory may change");
}

/// A file in the verb directory that no installed verb uses (one `verbs remove`
/// could not delete, the other kind's file a replacement left) is removed by the
/// next sweep (`verbs add`, `verbs remove`); nothing not named as a verb's file is.
#[test]
fn files_no_installed_verb_uses_are_swept() {
    let sandbox = sandbox_with(&[guest("ping"), guest("scribble")]);
    let dir = verb_dir(&sandbox);
    let planted = ["gone.wasm", "ping.json", "old.json"];
    let kept = ["notes.txt", "Gone.wasm", "gone-.json", "gone.wasm.bak"];
    for file in planted.iter().chain(&kept) {
        std::fs::write(dir.join(file), "left").expect("plant");
    }
    std::os::unix::fs::symlink(guest("crash"), dir.join("link.wasm")).expect("link");
    sandbox
        .devtools(&["verbs", "remove", "scribble"])
        .assert_code(0);
    let left = mur_e2e::names_in(&dir);
    let mut expected: Vec<&str> = kept.to_vec();
    expected.extend(["index", "link.wasm", "ping.wasm"]);
    expected.sort_unstable();
    assert_eq!(left, expected);

    // Without the compiled-code cache (disposable, and gone) all the same.
    std::fs::remove_dir_all(mur_e2e::plugins::cache_dir(&sandbox)).expect("the cache");
    std::fs::write(dir.join("gone.wasm"), "left").expect("plant");
    sandbox
        .devtools(&["verbs", "remove", "ping"])
        .assert_code(0);
    assert!(!dir.join("gone.wasm").exists(), "swept");
    assert!(dir.join("notes.txt").exists(), "kept");
}

/// The names the table of `verbs list` gives (its first column), in order.
pub fn listed(list: &Output) -> Vec<&str> {
    list.stdout
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect()
}

/// The names `verbs list --json` gives, in order.
fn installed(sandbox: &Sandbox) -> Vec<String> {
    let list = sandbox.devtools(&["verbs", "list", "--json"]).json();
    list.as_array()
        .expect("a list")
        .iter()
        .filter_map(|e| e["name"].as_str().map(str::to_owned))
        .collect()
}

/// A directory no one may change while this lives: read-only, and immutable too
/// when the test runs as root (whom permissions do not stop).
struct ReadOnly(std::path::PathBuf);

impl ReadOnly {
    fn new(dir: &std::path::Path) -> Self {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).expect("chmod");
        let locked = Self(dir.to_owned());
        if std::fs::write(dir.join("probe"), "").is_ok() {
            std::fs::remove_file(dir.join("probe")).expect("probe");
            let chattr = std::process::Command::new("chattr")
                .arg("+i")
                .arg(dir)
                .status();
            assert!(
                chattr.is_ok_and(|s| s.success()),
                "cannot make `{}` read-only: root, and no `chattr +i`",
                dir.display()
            );
        }
        locked
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt as _;
        let _ = std::process::Command::new("chattr")
            .arg("-i")
            .arg(&self.0)
            .stderr(std::process::Stdio::null())
            .status();
        let _ = std::fs::set_permissions(&self.0, std::fs::Permissions::from_mode(0o755));
    }
}

/// A verb added for a tool whose derived verb has another name says, once, that
/// the catalog now lists it for that tool in place of the derived verb: a team's
/// `count` for `state` hides `state`'s general form from agents reading the
/// catalog. Not for a verb unchanged or rebuilt for the same tool, nor where the
/// derived verb was not listed anyway (a verb named `state` is installed), nor with
/// `-q`; nor for a verb named as its tool's derived verb (`version` for `version`).
#[test]
fn a_verb_that_hides_a_derived_verb_from_the_catalog_says_so_once() {
    let sandbox = Sandbox::new();
    let count = data_verb(&sandbox, "count.json", "count", "[]");
    let said = "note: in a session that has tool `state`, the catalog lists `count` for it, in \
                place of the derived verb `state`, which still answers there (`mur devtools \
                catalog` lists a session's tools)\n";
    let added = try_add(&sandbox, std::slice::from_ref(&count), &[]);
    added.assert_code(0).assert_stderr_is(said);
    let again = try_add(&sandbox, std::slice::from_ref(&count), &["--force"]);
    again.assert_code(0).assert_stderr_is("");
    let rebuilt = data_verb(&sandbox, "count2.json", "count", r#"[{"field": "x"}]"#);
    let replaced = try_add(&sandbox, std::slice::from_ref(&rebuilt), &["--force"]);
    replaced.assert_code(0).assert_stderr_is("");

    sandbox
        .devtools(&["verbs", "remove", "count"])
        .assert_code(0);
    let quiet = sandbox.mur(&["-q", "devtools", "verbs", "add", path(&count)]);
    quiet.assert_code(0).assert_stderr_is("");
    sandbox
        .devtools(&["verbs", "remove", "count"])
        .assert_code(0);
    let state = data_verb(&sandbox, "state.json", "state", "[]");
    add(&sandbox, &[state]).assert_stderr_is("");
    try_add(&sandbox, &[count], &[])
        .assert_code(0)
        .assert_stderr_is("");

    let version = sandbox.file(
        "version.json",
        r#"{"schema": "mur-verb/1", "name": "version", "tool": "version", "summary": "s"}"#,
    );
    add(&sandbox, &[version]).assert_stderr_is("");

    // No session runs: a tool misspelt (`clik`) is spoken of as one a session may have,
    // never as a derived verb that "still answers", and the command named works here
    // (`mur devtools clik --help`, named before, is exit 1 where no session has `clik`).
    let typo = sandbox.file(
        "bx.json",
        r#"{"schema": "mur-verb/1", "name": "bx", "tool": "clik", "summary": "s"}"#,
    );
    add(&sandbox, &[typo]).assert_stderr_is(
        "note: in a session that has tool `clik`, the catalog lists `bx` for it, in place of \
         the derived verb `clik`, which still answers there (`mur devtools catalog` lists a \
         session's tools)\n",
    );
    sandbox.devtools(&["catalog"]).assert_code(0);
}

/// With a session running, the note after `verbs add` says what that session has: a
/// tool it lacks (misspelt, `clik`) plainly, pointing at `catalog`; a tool it has,
/// with its derived verb's help. Each command it names works there.
#[test]
fn the_note_of_a_verb_hiding_a_derived_verb_says_what_the_running_session_has() {
    let sandbox = Sandbox::new();
    // `verbs add` looks only briefly.
    let _sample = start_app_its_tools_cached(&sandbox);
    let typo = sandbox.file(
        "bx.json",
        r#"{"schema": "mur-verb/1", "name": "bx", "tool": "clik", "summary": "s"}"#,
    );
    add(&sandbox, &[typo]).assert_stderr_is(
        "note: the session running has no tool `clik`, which verb `bx` calls (`mur devtools \
         catalog` lists a session's tools)\n",
    );
    sandbox.devtools(&["catalog"]).assert_code(0);

    let waits = sandbox.file(
        "until.json",
        r#"{"schema": "mur-verb/1", "name": "until", "tool": "waitFor", "summary": "s"}"#,
    );
    add(&sandbox, &[waits]).assert_stderr_is(
        "note: the session running has tool `waitFor`: the catalog lists `until` for it, in \
         place of the derived verb `wait-for`, which still answers (`mur devtools wait-for \
         --help`)\n",
    );
    sandbox
        .devtools(&["wait-for", "--help"])
        .assert_code(0)
        .assert_stdout_starts_with("Usage: mur devtools wait-for ");
}

/// A data verb that sends a field its tool's input schema does not list (an option's,
/// or a fixed argument's) says so once added, with a session running: every call with
/// it sends a field the tool ignores or refuses (`tree` refuses `depth`), which was
/// added silently. `tree`'s schema is closed (`additionalProperties: false`): a
/// warning that it refuses them, which `-q` keeps (a `note:` that "does not list",
/// which `-q` hid, undersold a verb that fails every call). Its help says its tool's hints at once, though the session's tool
/// list came from the cache (only a fresh list taught a verb its hints: `deep --help`
/// said a bare ``Tool `tree`.`` until a command read the list anew).
#[test]
fn a_data_verb_sending_a_field_its_tool_does_not_list_says_so_once_added() {
    let sandbox = Sandbox::new();
    let _sample = start_app_its_tools_cached(&sandbox);
    let deep = sandbox.file(
        "deep.json",
        r#"{"schema": "mur-verb/1", "name": "deep", "tool": "tree", "summary": "s",
            "arguments": {"maxDepth": 3, "view": "full"},
            "options": [{"field": "selector"}, {"field": "depth", "type": "integer"}]}"#,
    );
    let warnings = [
        "warning: `deep --depth` sets `depth`, which `tree`'s input schema does not list, \
         so `tree` refuses every call that sends it",
        "warning: `deep` always sends `maxDepth` (its `arguments`), which `tree`'s input \
         schema does not list, so `tree` refuses every call of `deep`",
    ];
    let added = add(&sandbox, &[deep]);
    let notes: Vec<&str> = added
        .stderr
        .lines()
        .filter(|l| l.contains("input schema"))
        .collect();
    assert_eq!(notes, warnings, "{added}");
    sandbox
        .devtools(&["deep", "--help"])
        .assert_code(0)
        .assert_stdout_contains("Tool `tree`: read-only");
    // The tool refuses what the warning said.
    let refused = sandbox.devtools(&["deep", "--depth", "2"]);
    assert_ne!(refused.code, 0, "{refused}");
    // `-q` keeps them: the verb fails, which is no note. (Other bytes, the same verb:
    // the same file again is installed already, unchanged, and nothing is said.)
    let again = sandbox.file(
        "deep-again.json",
        r#"{"schema": "mur-verb/1", "name": "deep", "tool": "tree", "summary": "again",
            "arguments": {"maxDepth": 3, "view": "full"},
            "options": [{"field": "selector"}, {"field": "depth", "type": "integer"}]}"#,
    );
    let quiet = sandbox.devtools(&["-q", "verbs", "add", "--force", path(&again)]);
    quiet
        .assert_code(0)
        .assert_stderr_is(format!("{}\n{}\n", warnings[0], warnings[1]));

    // Every field listed: nothing said of them.
    let shallow = sandbox.file(
        "shallow.json",
        r#"{"schema": "mur-verb/1", "name": "shallow", "tool": "tree", "summary": "s",
            "arguments": {"view": "summary"}, "options": [{"field": "selector"}]}"#,
    );
    let added = add(&sandbox, &[shallow]);
    assert!(!added.stderr.contains("input schema"), "{added}");
}

/// `verbs info` of a name no verb is installed as, which a running session's tool is
/// reached by (its name, or its derived verb's), says so and names the command that
/// shows it, where "not installed" alone sent the user looking for a verb to install;
/// the installed verbs of that tool are named too. Without a session, or for a name
/// no tool has, the refusal is as it was. Exit 1 either way.
#[test]
fn verbs_info_of_a_sessions_tool_names_its_derived_verb() {
    let sandbox = Sandbox::new();
    let not_installed = |name: &str| {
        format!(
            "error: no verb named `{name}` is installed\n\
             hint: `mur devtools verbs list` shows the installed verbs\n"
        )
    };
    let info = |name: &str| sandbox.devtools(&["verbs", "info", name]);
    info("wait-for")
        .assert_code(1)
        .assert_stderr_is(not_installed("wait-for"));

    let _sample = sandbox.start_app();
    // Its tool list cached, as any use of the session leaves it: `verbs info` looks
    // only briefly.
    sandbox.devtools(&["catalog"]).assert_code(0);
    for name in ["waitFor", "wait-for"] {
        info(name)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: `{name}` is not an installed verb; the session's tool `waitFor` is reached \
             by its derived verb: `mur devtools wait-for --help`\n"
            ));
    }
    info("nope")
        .assert_code(1)
        .assert_stderr_is(not_installed("nope"));

    // `wait-for` installed for another tool takes the word: the tool's own name
    // still reaches its derived verb.
    let taken = sandbox.file(
        "wait-for.json",
        r#"{"schema": "mur-verb/1", "name": "wait-for", "tool": "version", "summary": "s"}"#,
    );
    let until = sandbox.file(
        "until.json",
        r#"{"schema": "mur-verb/1", "name": "until", "tool": "waitFor", "summary": "s"}"#,
    );
    add(&sandbox, &[taken, until]);
    info("waitFor").assert_code(1).assert_stderr_is(
        "error: `waitFor` is not an installed verb; the session's tool `waitFor` is reached by \
         its derived verb: `mur devtools waitFor --help`\n\
         hint: the installed verb `until` calls it too\n",
    );
    sandbox
        .devtools(&["waitFor", "--help"])
        .assert_code(0)
        .assert_stdout_starts_with("Usage: mur devtools wait-for ");
}

/// An entry an older `mur` wrote, which did not read the `mur:verb-waits` section,
/// learns what it declares when the same file is added again: `wait` then ends
/// within the host's `--timeout` with the tool's own answer (exit 5). It stayed
/// "unchanged" and cut off (exit 2), `--force` or not, until removed and added.
#[test]
fn a_verb_added_again_learns_the_wait_its_entry_lacks() {
    let (sandbox, _sample) = mur_e2e::plugins::standard_session();
    let entry = verb_dir(&sandbox).join("index").join("wait.json");
    let mut older: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&entry).expect("wait's entry"))
            .expect("an entry");
    let spec = older["verb"]["spec"].as_object_mut().expect("a spec");
    assert!(spec.remove("waits").is_some(), "{older}");
    std::fs::write(&entry, older.to_string()).expect("an older mur's entry");
    sandbox
        .devtools(&["--timeout", "2000", "wait", "#never"])
        .assert_code(2);

    add(&sandbox, &[standard("wait")])
        .assert_stdout_is("verb `wait` is already installed (unchanged)\n");
    wait_lowered_to_1333(&sandbox);
}

/// A wait declared on one of the verb's own words is refused at `verbs add`, in one
/// line naming the param and its kind, nothing installed: `wait`'s section made to say
/// `text=…` (its `--text` is text) had every call refused by the tool ("expected a
/// string", a number nobody typed), `selector=…` (its positional) left the wait as it
/// was. `verbs info` shows the wait a verb declares (only `list --json` had it).
#[test]
fn a_wait_on_one_of_the_verbs_own_words_is_refused_and_info_shows_a_wait() {
    let sandbox = Sandbox::new();
    for (declared, argument, param) in [
        ("text=500000000", "text", "option `--text` of kind `text`"),
        (
            "selector=50000",
            "selector",
            "positional `<selector>` of kind `selector`",
        ),
    ] {
        let file = wait_declaring(&sandbox, declared);
        try_add(&sandbox, std::slice::from_ref(&file), &[])
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(wait_on_words(&file, argument, param, ""));
    }
    assert!(!verb_dir(&sandbox).join("wait.wasm").exists());

    // The standard `wait`, and one waiting on the key of the verb's own `--timeout`,
    // which is of kind `milliseconds` and never sent: its value is the wait's, so a wait
    // on it is fine (another milliseconds param's is not).
    for (file, argument, ms) in [
        (standard("wait"), "timeoutMs", 5000),
        (
            wait_declaring(&sandbox, "timeout=500000"),
            "timeout",
            500000,
        ),
    ] {
        let sandbox = Sandbox::new();
        add(&sandbox, &[file]);
        sandbox
            .devtools(&["verbs", "info", "wait"])
            .assert_stdout_starts_with(&format!(
                "name:      wait\n\
                 tool:      waitFor\n\
                 waits:     the tool waits on `{argument}` ({ms} ms when not sent), lowered to \
                 end within the call's `--timeout`\n\
                 summary:   "
            ));
    }
}

/// The standard `wait` with its `mur:verb-waits` section made to say `declared`
/// (`text=500000000`, as long as the shipped `timeoutMs=5000`), in a file of the sandbox.
fn wait_declaring(sandbox: &Sandbox, declared: &str) -> std::path::PathBuf {
    let wait = std::fs::read(standard("wait")).expect("the standard wait");
    let shipped = b"timeoutMs=5000";
    let declared = declared.as_bytes();
    assert_eq!(
        declared.len(),
        shipped.len(),
        "{declared:?} as long as the shipped"
    );
    // Every copy of it (the kit keeps one in the section, one beside it).
    let mut bytes = wait.clone();
    while let Some(at) = bytes.windows(shipped.len()).position(|w| w == shipped) {
        bytes[at..at + declared.len()].copy_from_slice(declared);
    }
    assert_ne!(bytes, wait, "`wait` declares timeoutMs=5000");
    let argument = String::from_utf8_lossy(declared);
    let argument = argument.split('=').next().unwrap_or_default();
    sandbox.file(&format!("wait-{argument}.wasm"), bytes)
}

/// What `verbs add` says of `file`, a `wait` declaring a wait on `argument`, the key
/// its `param` is sent under, with `batch` after (`; none of the 2 files…`).
fn wait_on_words(file: &std::path::Path, argument: &str, param: &str, batch: &str) -> String {
    format!(
        "error: verb `wait` in `{}` declares a wait (`mur:verb-waits`) on `{argument}`, \
         the argument its {param} is sent as: the host sets a wait's argument to a \
         number of milliseconds, so it must be a key no param of the verb declares, or an \
         `integer` param's{batch}\n",
        file.display()
    )
}

/// A refusal is said before a clash: a verb that clashes with an installed one and
/// that `verbs add` refuses for what it declares gets the refusal, whose fix is to
/// build it again, not "pass `--force`", after which the refusal came all the same.
/// So too in a batch, for a file after one that clashes (it was not even compiled).
#[test]
fn a_verb_refused_for_what_it_declares_is_told_so_before_any_clash() {
    let sandbox = sandbox_with(&[standard("wait"), guest("ping")]);
    let file = wait_declaring(&sandbox, "text=500000000");
    let param = "option `--text` of kind `text`";
    try_add(&sandbox, std::slice::from_ref(&file), &[])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(wait_on_words(&file, "text", param, ""));

    let ping = std::fs::read(guest("ping")).expect("ping.wasm");
    let clashing = sandbox.file(
        "ping-v2.wasm",
        mur_e2e::plugins::with_custom_section(&ping, "v2"),
    );
    let batch = "; none of the 2 files given was added";
    try_add(&sandbox, &[clashing, file.clone()], &[])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(wait_on_words(&file, "text", param, batch));
}

/// A verb's file replaced behind the index (a rebuild copied over it) keeps what its
/// `mur:verb-waits` section declares: the call that notices the change reads the
/// section again with the new `info`, so `wait` still ends within the host's
/// `--timeout` with the tool's own answer (exit 5), not a call cut off (exit 2).
#[test]
fn a_verb_replaced_behind_the_index_keeps_its_declared_wait() {
    let (sandbox, _sample) = mur_e2e::plugins::standard_session();
    let wait = std::fs::read(standard("wait")).expect("the standard wait");
    let rebuilt = mur_e2e::plugins::with_custom_section(&wait, "rebuilt");
    std::fs::write(verb_dir(&sandbox).join("wait.wasm"), rebuilt).expect("replace wait");

    for _ in 0..2 {
        wait_lowered_to_1333(&sandbox);
    }
}

/// An installed verb whose file is gone or is other bytes fails every call (exit 7),
/// the hint saying to add it again; `verbs add` of its file, `--force` or not, copies it
/// in again and says so. It said "already installed (unchanged)" and repaired nothing
/// (the index's hash matched the file given; the installed one was never looked at),
/// so only a remove and an add mended it. A data verb (`.json`) alike.
#[test]
fn adding_a_verb_again_repairs_its_missing_or_damaged_file() {
    let sandbox = sandbox_with(&[guest("ping")]);
    let label = sandbox.file(
        "label.json",
        r#"{"schema": "mur-verb/1", "name": "label", "tool": "state", "summary": "s"}"#,
    );
    add(&sandbox, std::slice::from_ref(&label));
    let dir = verb_dir(&sandbox);
    let missing = "cannot be read: No such file or directory (os error 2)";
    for (verb, source, file, what, damaged, hint) in [
        (
            "ping",
            guest("ping"),
            "ping.wasm",
            "verb",
            "is not a WebAssembly component (no WebAssembly header)",
            format!(
                "reinstall it with `mur devtools verbs add --force {}`, or remove it with \
                 `mur devtools verbs remove ping`",
                std::fs::canonicalize(guest("ping"))
                    .expect("ping")
                    .display()
            ),
        ),
        (
            "label",
            label.clone(),
            "label.json",
            "data verb",
            "is not a data verb: expected value at line 1 column 1",
            "reinstall it with `mur devtools verbs add --force <label.json>`".to_owned(),
        ),
    ] {
        let installed = dir.join(file);
        let link = "is a symbolic link, which mur does not follow here";
        for (damage, fault, why, force) in [
            (Damage::Removed, missing, "was missing", &[][..]),
            (
                Damage::Garbage,
                damaged,
                "held other bytes than were installed",
                &["--force"][..],
            ),
            // Said once repaired: it was a link ("is a symbolic link" read as if
            // it still were).
            (
                Damage::Linked,
                link,
                "was a symbolic link, which mur does not follow here",
                &[][..],
            ),
        ] {
            match damage {
                Damage::Removed => {
                    std::fs::remove_file(&installed).expect("remove the installed file")
                }
                Damage::Garbage => std::fs::write(&installed, "garbage").expect("damage it"),
                Damage::Linked => {
                    std::fs::remove_file(&installed).expect("remove the installed file");
                    std::os::unix::fs::symlink(&source, &installed).expect("link it");
                }
            }
            sandbox
                .devtools(&[verb])
                .assert_code(7)
                .assert_stdout_is("")
                .assert_stderr_is(format!(
                    "error: {what} `{verb}` is installed but its file `{}` {fault}\nhint: {hint}\n",
                    path(&installed)
                ));
            try_add(&sandbox, std::slice::from_ref(&source), force)
                .assert_code(0)
                .assert_stderr_is("")
                .assert_stdout_is(format!(
                    "repaired verb `{verb}`: its installed file {why}\n"
                ));
            assert_eq!(
                std::fs::read(&installed).expect("the installed file"),
                std::fs::read(&source).expect("the file added"),
            );
            // Callable again: it gets as far as looking for a session (exit 4).
            sandbox
                .devtools(&[verb])
                .assert_code(4)
                .assert_stderr_starts_with("error: no running devtools session found\n");
            try_add(&sandbox, std::slice::from_ref(&source), &[])
                .assert_code(0)
                .assert_stdout_is(format!("verb `{verb}` is already installed (unchanged)\n"));
        }
    }
}

/// How [`adding_a_verb_again_repairs_its_missing_or_damaged_file`] spoils a verb's file.
enum Damage {
    Removed,
    Garbage,
    Linked,
}

/// Another verb's file copied over an installed one is not taken as that verb: each
/// call fails (exit 7) naming the verb it holds, the hint saying to add it again, and
/// `verbs add` of the verb's own file repairs it. `click` ran tree's code, the index
/// then said tool `tree` (the next `click` printed a tree), and `verbs add` of click
/// called it "an earlier build of this file" and repaired nothing. A rebuild of the
/// same verb copied over it (the edit-build loop) is still taken. Data verbs alike. A
/// component is refused by the name its section declares, before a compile (each
/// refused `click` compiled tree's bytes, then deleted tree's cached code).
#[test]
fn another_verbs_file_copied_over_an_installed_one_is_refused_until_repaired() {
    let sandbox = sandbox_with(&[standard("click"), standard("tree")]);
    let label = data_verb(&sandbox, "label.json", "label", "[]");
    let other = data_verb(&sandbox, "other.json", "other", "[]");
    add(&sandbox, &[label.clone(), other.clone()]);
    let dir = verb_dir(&sandbox);
    for (what, verb, args, own, stranger, file, holds, hint) in [
        (
            "verb",
            "click",
            &["#btn-inc"][..],
            standard("click"),
            standard("tree"),
            "click.wasm",
            "verb `tree`",
            format!(
                "reinstall it with `mur devtools verbs add --force {}`, or remove it with \
                 `mur devtools verbs remove click`",
                std::fs::canonicalize(standard("click"))
                    .expect("click")
                    .display()
            ),
        ),
        (
            "data verb",
            "label",
            &[][..],
            label.clone(),
            other.clone(),
            "label.json",
            "data verb `other`",
            "reinstall it with `mur devtools verbs add --force <label.json>`".to_owned(),
        ),
    ] {
        let installed = dir.join(file);
        let call = [&[verb][..], args].concat();
        std::fs::copy(&stranger, &installed).expect("copy another verb over it");
        // Twice: the first call left the index as it was.
        for _ in 0..2 {
            sandbox
                .devtools(&call)
                .assert_code(7)
                .assert_stdout_is("")
                .assert_stderr_is(format!(
                    "error: {what} `{verb}` is installed but its file `{}` holds {holds}\nhint: {hint}\n",
                    path(&installed)
                ));
        }
        if what == "verb" {
            // Refused by its section, before a compile; and the stranger's bytes are
            // tree's, whose compiled code stays.
            refused_uncompiled_and_holder_cached(&sandbox, &["click", "#btn-inc"], "tree");
        }
        try_add(&sandbox, std::slice::from_ref(&own), &[])
            .assert_code(0)
            .assert_stderr_is("")
            .assert_stdout_is(format!(
                "repaired verb `{verb}`: its installed file held other bytes than were installed\n"
            ));
        sandbox
            .devtools(&call)
            .assert_code(4)
            .assert_stderr_starts_with("error: no running devtools session found\n");
    }
    // A rebuild of click copied over it is click: taken, as before.
    let click = std::fs::read(standard("click")).expect("the standard click");
    let rebuilt = mur_e2e::plugins::with_custom_section(&click, "rebuilt");
    std::fs::write(dir.join("click.wasm"), rebuilt).expect("replace click");
    for _ in 0..2 {
        sandbox
            .devtools(&["click", "#btn-inc"])
            .assert_code(4)
            .assert_stderr_starts_with("error: no running devtools session found\n");
    }
}

/// What is known of a component without compiling it is judged before the compile,
/// for a file without a `mur:verb-name` section too (the test guests have none). One
/// that exports none of a verb's functions is refused by `verbs add` in words saying so
/// (it was compiled, then "does not implement `mur:verb/verb@0.3.0`: …"), and copied
/// over an installed verb's file it is that file's fault, exit 7, leaving no compiled
/// code behind (each call compiled it and kept its code). Another installed verb's file
/// copied over one's is refused as holding that verb, uncompiled, and that verb's
/// compiled code kept (each call compiled it, then deleted it: `ping` compiled again).
#[test]
fn a_component_known_to_be_no_verb_or_another_verb_is_refused_before_a_compile() {
    const EMPTY_COMPONENT: &[u8] = b"\0asm\x0d\0\x01\0";
    let no_verb = "exports no `info`, `parse` or `shape` function, where a verb (of any \
                   mur:verb version) exports `info`, `parse` and `shape`";
    let sandbox = sandbox_with(&[guest("ping"), guest("nap")]);
    let empty = sandbox.file("empty.wasm", EMPTY_COMPONENT);
    try_add(&sandbox, std::slice::from_ref(&empty), &[])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` is not a usable verb: it {no_verb}\n{WHAT_A_VERB_IS}",
            path(&empty)
        ));
    let verbose = sandbox.mur(&["devtools", "-v", "verbs", "add", path(&empty)]);
    verbose.assert_code(1);
    assert!(!verbose.stderr.contains("compiling verb"), "{verbose}");

    let compiled = mur_e2e::plugins::cache_entries(&sandbox);
    let nap = verb_dir(&sandbox).join("nap.wasm");
    let hint = format!(
        "hint: reinstall it with `mur devtools verbs add --force {}`, or remove it with \
         `mur devtools verbs remove nap`\n",
        std::fs::canonicalize(guest("nap")).expect("nap").display()
    );
    std::fs::write(&nap, EMPTY_COMPONENT).expect("the empty component over nap");
    for _ in 0..2 {
        sandbox
            .devtools(&["nap"])
            .assert_code(7)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: verb `nap` is installed but its file `{}` {no_verb}\n{hint}",
                path(&nap)
            ));
    }
    assert_eq!(mur_e2e::plugins::cache_entries(&sandbox), compiled);

    std::fs::copy(guest("ping"), &nap).expect("ping's file over nap's");
    sandbox
        .devtools(&["nap"])
        .assert_code(7)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: verb `nap` is installed but its file `{}` holds verb `ping`\n{hint}",
            path(&nap)
        ));
    refused_uncompiled_and_holder_cached(&sandbox, &["nap"], "ping");
    assert_eq!(mur_e2e::plugins::cache_entries(&sandbox), compiled);
}

/// `call`, a verb whose installed file holds the verb `holder`, is refused (exit 7)
/// without a compile, and `holder` is loaded from its compiled code, which stays (exit 4,
/// no session): both seen with `-v`.
fn refused_uncompiled_and_holder_cached(sandbox: &Sandbox, call: &[&str], holder: &str) {
    let refused = sandbox.devtools(&[&["-v"][..], call].concat());
    refused.assert_code(7);
    assert!(!refused.stderr.contains("compiling verb"), "{refused}");
    let held = sandbox.devtools(&["-v", holder]);
    held.assert_code(4);
    held.assert_stderr_contains(&format!("loaded verb `{holder}` from cache"));
    assert!(!held.stderr.contains("compiling verb"), "{held}");
}

/// A component without a `mur:verb-name` section (the test guests have none) whose
/// bytes an installed verb was added from is that verb, known by the sha256 the index
/// records, without a compile: "unchanged" (`--force` or not), or its missing file
/// copied in again. Each such `verbs add` compiled it only to say so (`-v`: `compiling
/// verb`), tens of seconds for a Python or JavaScript verb. One file twice in a batch
/// is compiled once.
#[test]
fn a_file_without_a_name_section_is_judged_by_its_bytes_without_a_compile() {
    let sandbox = Sandbox::new();
    let ping = guest("ping");
    let add_twice = |extra: &[&str]| {
        let mut args = vec!["devtools", "-v", "verbs", "add", path(&ping), path(&ping)];
        args.extend(extra);
        sandbox.mur(&args)
    };
    let first = add_twice(&[]);
    first
        .assert_code(0)
        .assert_stdout_is("added verb `ping` (tool `version`)\n");
    assert_eq!(first.stderr.matches("compiling verb").count(), 1, "{first}");
    for force in [&[][..], &["--force"]] {
        let again = add_twice(force);
        again
            .assert_code(0)
            .assert_stdout_is("verb `ping` is already installed (unchanged)\n");
        assert!(!again.stderr.contains("compiling verb"), "{again}");
    }
    let installed = verb_dir(&sandbox).join("ping.wasm");
    std::fs::remove_file(&installed).expect("remove ping's file");
    let repaired = add_twice(&[]);
    repaired
        .assert_code(0)
        .assert_stdout_is("repaired verb `ping`: its installed file was missing\n");
    assert!(!repaired.stderr.contains("compiling verb"), "{repaired}");
    assert_eq!(
        std::fs::read(&installed).expect("the installed file"),
        std::fs::read(&ping).expect("the file added"),
    );
    sandbox
        .devtools(&["ping"])
        .assert_code(4)
        .assert_stderr_starts_with("error: no running devtools session found\n");
}

/// A verb added after the session's tool list was cached learns its tool's hints from
/// the next `catalog`, which reads the list fresh (it read the cache unless given
/// `--refresh`), or from `verbs add` itself where a session runs (the list it reads for
/// its notes, from the cache, taught none: a data verb's help said a bare ``Tool
/// `state`.`` until a command read the list anew); `-q` teaches none (it looks for a
/// session only to warn of a data verb's fields its tool refuses). A data
/// verb's help says them as a component verb's does (it said only ``Tool `state`.``).
#[test]
fn a_catalog_teaches_added_verbs_their_tools_hints_a_data_verbs_help_included() {
    let sandbox = Sandbox::new();
    let _app = start_app_its_tools_cached(&sandbox);
    let label = data_verb(&sandbox, "label.json", "label", "[]");
    try_add(&sandbox, &[standard("state"), label.clone()], &["-q"]).assert_code(0);
    let hints = "Tool `state`: read-only, idempotent.";
    let state = sandbox.devtools(&["state", "--help"]);
    assert!(!state.stdout.contains(hints), "{state}");
    sandbox.devtools(&["catalog"]).assert_code(0);
    let state = sandbox.devtools(&["state", "--help"]);
    state.assert_code(0);
    assert!(state.stdout.contains(&format!("\n\n{hints}\n")), "{state}");
    sandbox
        .devtools(&["label", "--help"])
        .assert_code(0)
        .assert_stdout_starts_with(
            format!("Usage: mur devtools label [--args JSON]\n\ns\n\n{hints}\n").as_str(),
        );

    // Added again without `-q`, the list still cached: its help says them at once.
    sandbox
        .devtools(&["verbs", "remove", "label"])
        .assert_code(0);
    add(&sandbox, &[label]);
    sandbox
        .devtools(&["label", "--help"])
        .assert_code(0)
        .assert_stdout_starts_with(
            format!("Usage: mur devtools label [--args JSON]\n\ns\n\n{hints}\n").as_str(),
        );
}

/// A file that is no WebAssembly at all (a verb's source, here) is told what `verbs
/// add` takes, data verbs too, and that a project `verbs new` made is built first: the
/// hint named only components. A data verb's type mistyped is told the type meant.
#[test]
fn a_source_file_or_a_mistyped_data_verb_type_is_told_what_was_meant() {
    let sandbox = Sandbox::new();
    let source = sandbox.file("app.py", "import kit\n");
    try_add(&sandbox, std::slice::from_ref(&source), &[])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` is not a usable verb: it is not a WebAssembly component (no WebAssembly header)\n{NOT_WASM}",
            path(&source)
        ));
    let typed = data_verb(
        &sandbox,
        "n.json",
        "n",
        r#"[{"field": "n", "type": "int"}]"#,
    );
    try_add(&sandbox, std::slice::from_ref(&typed), &[])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` gives option `n` the type `int`; one of string, integer, number, \
             boolean, array, json\nhint: did you mean `integer`?\n",
            path(&typed)
        ));
}

/// A project's folder given to `verbs add` (audit 271: "is a directory" with only
/// what a verb is) is told that the file its build writes is what is added: the one
/// component built in it, by name, else how a `verbs new` project is built first.
#[test]
fn a_projects_folder_is_told_the_file_its_build_writes() {
    let sandbox = Sandbox::new();
    let project = sandbox.dir("src/bump");
    sandbox.file("src/bump/Cargo.toml", "[package]\n");
    add_refused(&sandbox, &project)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
        "error: `{}` is not a usable verb: it is a directory, not a regular file\n{NOT_A_FOLDER}",
        path(&project)
    ));
    let built = project.join("target/wasm32-wasip2/release/mur_verb_bump.wasm");
    std::fs::create_dir_all(built.parent().expect("release dir")).expect("mkdir");
    std::fs::copy(guest("ping"), &built).expect("a built component");
    add_refused(&sandbox, &project)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` is not a usable verb: it is a directory, not a regular file\n\
             hint: `verbs add` takes a verb's file, not a project's folder: did you mean `{}`?\n",
            path(&project),
            path(&built)
        ));
}

/// A data verb's field misspelt, the file's or an option's, is told the field meant by
/// the one did-you-mean rule (audit 271: "unknown field `argumnets`" and the list of
/// fields alone); nothing is installed.
#[test]
fn a_misspelt_data_verb_field_is_told_the_field_meant() {
    let sandbox = Sandbox::new();
    let top = sandbox.file(
        "top.json",
        r#"{"schema": "mur-verb/1", "name": "top", "tool": "state", "summary": "s", "argumnets": {}}"#,
    );
    add_refused(&sandbox, &top)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` is not a data verb: unknown field `argumnets`, expected one of \
             `schema`, `name`, `tool`, `summary`, `details`, `arguments`, `options`, `output`, \
             `examples` at line 1 column 84\n\
             hint: did you mean `arguments`?\n",
            path(&top)
        ));
    let option = data_verb(&sandbox, "opt.json", "opt", r#"[{"feild": "n"}]"#);
    add_refused(&sandbox, &option)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` is not a data verb: unknown field `feild`, expected one of `field`, \
             `type`, `help`, `required`, `choices` at line 1 column 93\n\
             hint: did you mean `field`?\n",
            path(&option)
        ));
    assert_eq!(
        sandbox.devtools(&["verbs", "list", "--json"]).json(),
        serde_json::json!([])
    );
}

/// `verbs new NAME --lang data` is told what a data verb is, under the name typed, and
/// how it is added: clap's refusal named only the languages `verbs new` makes a project
/// in (audit 271).
#[test]
fn verbs_new_of_a_data_verb_is_told_a_data_verb_is_a_file() {
    let sandbox = Sandbox::new();
    for (args, name) in [
        (&["verbs", "new", "tally", "--lang", "data"][..], "tally"),
        (&["verbs", "new", "--lang", "JSON"], "NAME"),
    ] {
        let lang = args[args.len() - 1];
        sandbox
            .devtools(args)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: invalid value `{lang}` for `--lang <LANG>` (possible values: rust, \
                 python, js)\n\
                 hint: a data verb is one JSON file, not a project: write `{name}.json` \
                 holding `{{\"schema\": \"mur-verb/1\", \"name\": \"{name}\", \"tool\": \
                 \"TOOL\", \"summary\": \"…\"}}` (`arguments`, `options`, `output`, `details` \
                 and `examples` optional), then `mur devtools verbs add {name}.json`\n"
            ));
    }
    // Another language is refused as it was.
    sandbox
        .devtools(&["verbs", "new", "tally", "--lang", "go"])
        .assert_code(1)
        .assert_stderr_is(
            "error: invalid value `go` for `--lang <LANG>` (possible values: rust, python, js)\n",
        );
}

/// `verbs info` shows the help `VERB --help` prints, whole: a component verb's names its
/// tool as a data or derived verb's does (audit 271: it never did, and `verbs info`
/// left out the host options' line).
#[test]
fn verbs_info_shows_the_help_the_verb_prints_naming_its_tool() {
    let sandbox = Sandbox::new();
    add(&sandbox, &[standard("click")]);
    let help = sandbox.devtools(&["click", "--help"]);
    help.assert_code(0).assert_stdout_is(
        "Usage: mur devtools click <selector>\n\
         \n\
         Click the element a selector matches\n\
         \n\
         Tool `click`.\n\
         \n\
         Arguments:\n  \
         <selector>  the element to click\n\
         \n\
         Options:\n  \
         --selector S  the same as `<selector>`\n  \
         --timeout MS  let the call take up to MS milliseconds\n  \
         --args JSON   the whole arguments object, as JSON; options given beside it\n                \
         override its fields (`@FILE`, `-`: read from FILE, stdin)\n  \
         -h, --help    print this help\n\
         \n\
         Examples:\n  \
         mur devtools click '#btn-inc'\n\
         \n\
         Host options go after the verb's name too; `mur devtools --help` lists them.\n\
         --timeout is the verb's own here; the host's goes before it: mur devtools --timeout MS click\n",
    );
    let info = sandbox.devtools(&["verbs", "info", "click"]);
    info.assert_code(0);
    assert_eq!(
        info.stdout.split_once("\n\n").map(|(_, shown)| shown),
        Some(help.stdout.as_str()),
        "{info}"
    );
}

/// A verb named as another tool's derived verb takes its word: `mur devtools
/// export-todos` runs the verb, and tool `exportTodos` is reached only by `call`.
/// `verbs add` says so where a session has such a tool (only `parity` and `catalog`
/// said it), and `verbs new` of such a name too; not for a verb of that very tool (its
/// named verb), nor with no session (nothing is asked), nor with `-q`.
#[test]
fn a_verb_taking_another_tools_derived_verb_word_says_so_at_add_and_new() {
    let sandbox = Sandbox::new();
    let verb = |name: &str, tool: &str| {
        sandbox.file(
            &format!("{name}-{tool}.json"),
            format!(
                r#"{{"schema": "mur-verb/1", "name": "{name}", "tool": "{tool}", "summary": "s"}}"#
            ),
        )
    };
    // `state`'s own note (no session: of one that may have it), and nothing more.
    let state_note = |name: &str| {
        format!(
            "note: in a session that has tool `state`, the catalog lists `{name}` for it, in \
             place of the derived verb `state`, which still answers there (`mur devtools \
             catalog` lists a session's tools)\n"
        )
    };
    add(&sandbox, &[verb("export-todos", "state")]).assert_stderr_is(state_note("export-todos"));
    sandbox
        .devtools(&["verbs", "remove", "export-todos"])
        .assert_code(0);

    let _sample = start_app_its_tools_cached(&sandbox);
    add(&sandbox, &[verb("export-todos", "state")]).assert_stderr_is(
        "note: the session running has tool `state`: the catalog lists `export-todos` for it, in \
         place of the derived verb `state`, which still answers (`mur devtools state --help`)\n\
         note: verb `export-todos` now stands in for the derived verb of the session's tool \
         `exportTodos`, which is reached only as `mur devtools call exportTodos` (`mur devtools \
         verbs remove export-todos` gives the word back)\n",
    );
    let parity = sandbox.devtools(&["parity"]);
    let reached = parity
        .stdout
        .lines()
        .find(|l| l.starts_with("exportTodos "));
    assert!(
        reached.is_some_and(|l| l.ends_with(" call-only")),
        "{parity}"
    );
    sandbox
        .devtools(&["verbs", "remove", "export-todos"])
        .assert_code(0);
    let quiet = sandbox.mur(&[
        "-q",
        "devtools",
        "verbs",
        "add",
        path(&verb("clear-todos", "state")),
    ]);
    quiet.assert_code(0).assert_stderr_is("");
    // Its own tool's named verb takes the word as named verbs do: nothing to say.
    add(&sandbox, &[verb("export-todos", "exportTodos")]).assert_stderr_is("");

    let dir = sandbox.dir("projects");
    // The derived verb's `--out FILE` is said as what it does with a result's media,
    // for `overview` (whose result holds a screenshot) as for `wait-for` (whose holds
    // none): no tool list says which tools return media, and `wait-for`'s note said it
    // wrote "an image the tool returns".
    let out = |name: &str, tool: &str| {
        format!(
            "note: `{name}` is the derived verb of the session's tool `{tool}`: the new verb \
             calls it with the same params (`mur devtools {name} --help` lists them) except \
             `--out FILE`, with which the derived verb writes the images, audio or blobs a \
             result holds to files (a verb declares its own output path, as the standard \
             `screenshot` does), and once added stands in for it (`mur devtools verbs remove \
             {name}` gives the word back)"
        )
    };
    for (name, tool) in [("overview", "overview"), ("wait-for", "waitFor")] {
        let new = sandbox.devtools(&["verbs", "new", name, "--dir", path(&dir)]);
        new.assert_code(0);
        assert_eq!(
            new.stderr.lines().last(),
            Some(out(name, tool).as_str()),
            "{new}"
        );
        assert!(!new.stderr.contains("image the tool returns"), "{new}");
    }
}

/// A verb renamed in its source and added again keeps the examples its file declares,
/// which still call it by its old name: they are the author's text, shown as written,
/// and `verbs add` names them beside the old verb it keeps. Its installed file is
/// named after the new name.
#[test]
fn a_renamed_verbs_examples_that_still_call_its_old_name_are_named() {
    let sandbox = Sandbox::new();
    let declaring = |name: &str| {
        sandbox.file(
            "bx.json",
            format!(
                r#"{{"schema": "mur-verb/1", "name": "{name}", "tool": "state", "summary": "s",
                    "examples": ["mur devtools bx1", "mur devtools bx1 --args '{{}}'"]}}"#
            ),
        )
    };
    let file = declaring("bx1");
    add(&sandbox, std::slice::from_ref(&file));
    declaring("bx2");
    try_add(&sandbox, std::slice::from_ref(&file), &["--force"])
        .assert_code(0)
        .assert_stdout_is("added verb `bx2` (tool `state`)\n")
        .assert_stderr_is(
            "note: `bx1` is still installed, from an earlier build of this file, which is now \
             `bx2` (`mur devtools verbs remove bx1` removes it)\n\
             note: the examples in `bx2`'s help still call it `bx1`, as its file declares them: \
             change them where its name was changed\n",
        );
    let info = sandbox.devtools(&["verbs", "info", "bx2", "--json"]);
    assert_eq!(info.assert_code(0).json()["file"], "bx2.json");
    assert!(verb_dir(&sandbox).join("bx2.json").is_file());
}

/// A big component (a Python or JavaScript verb: tens of seconds to compile) that
/// clashes with an installed verb is refused before it is compiled: it was compiled,
/// then refused, and compiled again with `--force`. Here a test guest padded past 4 MiB.
#[test]
fn a_big_component_that_clashes_is_refused_before_a_compile() {
    let sandbox = Sandbox::new();
    let ping = std::fs::read(guest("ping")).expect("ping.wasm");
    let big = |pad: char| {
        let named = mur_e2e::plugins::with_verb_name(&ping, "ping");
        let padded =
            mur_e2e::plugins::with_custom_section(&named, &pad.to_string().repeat(4 << 20));
        sandbox.file(&format!("ping-{pad}.wasm"), padded)
    };
    let first = big('a');
    let added = sandbox.mur(&["devtools", "-v", "verbs", "add", path(&first)]);
    added.assert_code(0);
    assert!(added.stderr.contains("compiling verb"), "{added}");

    let rebuilt = big('b');
    let refused = try_add(&sandbox, std::slice::from_ref(&rebuilt), &[]);
    refused.assert_code(1).assert_stderr_is(format!(
        "error: verb `ping` (tool `version`, Rust) is already installed, from `{}`\n\
         hint: pass `--force` to replace it\n",
        path(&first)
    ));
    let verbose = sandbox.mur(&["devtools", "-v", "verbs", "add", path(&rebuilt)]);
    verbose.assert_code(1);
    assert!(!verbose.stderr.contains("compiling verb"), "{verbose}");
    try_add(&sandbox, std::slice::from_ref(&rebuilt), &["--force"]).assert_code(0);
}

/// `verbs info NAME --json` and `verbs list --json` give as `usage` the help `NAME
/// --help` prints now, as `verbs info NAME` shows it: they gave the text kept at
/// install, which lacked what a later `mur` renders (the tool's line, the host options').
#[test]
fn verbs_info_json_usage_is_the_help_the_verb_prints_now() {
    let sandbox = Sandbox::new();
    let count = data_verb(&sandbox, "count.json", "count", "[]");
    add(&sandbox, &[standard("click"), count]);
    for verb in ["click", "count"] {
        let help = sandbox.devtools(&[verb, "--help"]);
        help.assert_code(0);
        let info = sandbox.devtools(&["verbs", "info", verb, "--json"]);
        assert_eq!(info.assert_code(0).json()["usage"], help.stdout, "{verb}");
        let list = sandbox.devtools(&["verbs", "list", "--json"]).json();
        let listed = list
            .as_array()
            .expect("a list")
            .iter()
            .find(|e| e["name"] == verb);
        assert_eq!(listed.expect("listed")["usage"], help.stdout, "{verb}");
    }
}

/// The standard verbs' `switch` and `wait` stand in for the derived verbs of their
/// tools, as every batch with several such verbs does: said in one note, not one each
/// (two on every fresh install of the standard set).
#[test]
fn verbs_standing_in_for_derived_verbs_are_said_in_one_note() {
    let sandbox = Sandbox::new();
    try_add(&sandbox, &[standard("switch"), standard("wait")], &[])
        .assert_code(0)
        .assert_stderr_is(
            "note: in a session that has their tools, the catalog lists these verbs in place of \
             the derived verbs, which still answer there: `switch` for `switchComponent` \
             (`switch-component`), `wait` for `waitFor` (`wait-for`) (`mur devtools catalog` \
             lists a session's tools)\n",
        );
    let _sample = sandbox.start_app();
    sandbox
        .devtools(&["verbs", "remove", "switch", "wait"])
        .assert_code(0);
    try_add(&sandbox, &[standard("switch"), standard("wait")], &[])
        .assert_code(0)
        .assert_stderr_is(
            "note: the session running has their tools: the catalog lists these verbs in place \
             of the derived verbs, which still answer: `switch` for `switchComponent` (`mur \
             devtools switch-component --help`), `wait` for `waitFor` (`mur devtools wait-for \
             --help`)\n",
        );
}

/// `verbs new` of a name one slip from an installed verb (`clik`, `click` installed) makes
/// the project and says so in a `note:` (none with `-q`): once added, a slip runs one for
/// the other, where `mur devtools clik` was refused with "did you mean `click`?". A name
/// refused as malformed is not offered as an installed verb's name (`Click` was offered
/// `click`, whose next steps replace the standard verb): it is said to be taken.
#[test]
fn verbs_new_near_an_installed_verb_is_noted_and_never_offered_its_name() {
    let sandbox = Sandbox::new();
    add(&sandbox, &[standard("click")]);
    let dir = sandbox.dir("projects");
    let dir = dir.to_str().expect("utf-8");
    let near = "note: `clik` is one slip from the installed verb `click`: once this verb is \
                added, a slip of the keyboard runs one for the other (a name further from \
                `click` keeps them apart)";
    let new = sandbox.devtools(&["verbs", "new", "clik", "--dir", dir]);
    new.assert_code(0);
    assert_eq!(new.stderr_lines("note:"), [near], "{new}");
    // (Elsewhere: `clik` is taken in `dir` now.)
    let other = sandbox.dir("quiet");
    let other = other.to_str().expect("utf-8");
    let quiet = sandbox.devtools(&["-q", "verbs", "new", "clik", "--dir", other]);
    quiet.assert_code(0);
    assert!(quiet.stderr_lines("note:").is_empty(), "{quiet}");
    // Further off, or installed itself (the scaffold's warning says that), no note.
    for name in ["bump", "click"] {
        let other = sandbox.dir(&format!("other-{name}"));
        let out = sandbox.devtools(&[
            "verbs",
            "new",
            name,
            "--dir",
            other.to_str().expect("utf-8"),
        ]);
        out.assert_code(0);
        assert!(out.stderr_lines("note:").is_empty(), "{out}");
    }
    // A malformed name is not offered as the installed verb's.
    let refused = sandbox.devtools(&["verbs", "new", "Click", "--dir", dir]);
    refused.assert_code(1).assert_stderr_is(
        "error: `Click` is not a verb name\n\
         hint: not `click` either: a verb `click` is installed already (tool `click`); pick \
         another name (e.g. `my-click`): a verb name is lowercase letters, digits and inner \
         dashes (never two in a row), starting with a letter, at most 64 characters\n",
    );
    sandbox
        .devtools(&["verbs", "new", "Bump", "--dir", dir])
        .assert_code(1)
        .assert_stderr_contains("hint: did you mean `bump`? ");
}

/// `verbs prune -q` says none of its notes (that recording was off in the window, that
/// there is no verb to prune), as `-q` leaves out every command's notes: it said them all.
#[test]
fn verbs_prune_says_no_note_under_q() {
    let sandbox = Sandbox::new();
    // A log reaching back past the window: it is judged over, lengthened for the time
    // recording was off.
    let log = sandbox.usage_log();
    std::fs::create_dir_all(log.parent().expect("dir")).expect("mkdir");
    let record = serde_json::json!({
        "schema": "mur-usage/1", "time": "2020-01-01T00:00:00.000Z", "side": "cli",
        "surface": "cli", "verb": "guide", "kind": "host", "tool": "guide", "outcome": "ok",
        "ms": 1.0,
    });
    std::fs::write(&log, format!("{record}\n")).expect("write the log");
    sandbox.devtools(&["usage", "off"]).assert_code(0);
    sandbox.devtools(&["usage", "on"]).assert_code(0);
    let said = sandbox.devtools(&["verbs", "prune"]);
    said.assert_code(0).assert_stdout_is("");
    let notes = said.stderr_lines("note:");
    assert!(
        notes.len() == 2 && notes[0].starts_with("note: recording was off (`usage off`)"),
        "{said}"
    );
    for quiet in [
        &["-q", "verbs", "prune"][..],
        &["verbs", "prune", "--yes", "-q"],
    ] {
        sandbox
            .devtools(quiet)
            .assert_code(0)
            .assert_stdout_is("")
            .assert_stderr_is("");
    }
}

// Helper 412 (review 408, findings 2 and 7): a broken index entry is one verb's
// failure; a host failure while starting a verb is mur's (exit 7), not the verb's.

/// One verb's index entry broken (`echo garbage > …/index/ping.json`) fails neither
/// `verbs list` nor `catalog`: `verbs list` skips it with one warning naming its repair,
/// the catalog says it once, on stdout (`broken`, as it lists no verb by its name; it
/// said "skipping" on stderr too), and that repair works, `verbs remove ping` as `verbs
/// add --force` does. A call of it still fails, exit 7, with both ways out, said in the
/// same sentence everywhere (two phrasings were), and the file's fault in plain words
/// (serde's "expected value at line 1 column 1" was). All four failed, exit 7, until
/// the file was removed by hand.
#[test]
fn a_broken_index_entry_is_skipped_by_listings_and_repaired_by_remove_or_add_force() {
    let sandbox = sandbox_with(&[guest("ping"), guest("scribble")]);
    let entry = verb_dir(&sandbox).join("index").join("ping.json");
    let wasm = verb_dir(&sandbox).join("ping.wasm");
    let break_it = || std::fs::write(&entry, "garbage\n").expect("break ping's entry");
    break_it();
    let why = format!(
        "the verb index entry `{}` is not valid JSON at line 1 column 1",
        path(&entry)
    );
    let repair = "remove it with `mur devtools verbs remove ping`, or install it again with \
                  `mur devtools verbs add --force <ping.wasm>`";
    let warning = format!("warning: skipping verb `ping`: {why}; {repair}\n");
    let list = sandbox.devtools(&["verbs", "list"]);
    list.assert_code(0).assert_stderr_is(&warning);
    assert_eq!(listed(&list), ["scribble"], "{list}");
    let catalog = sandbox.devtools(&["catalog", "--json"]);
    catalog.assert_code(0).assert_stderr_is(
        "warning: derived verbs are not listed: no running devtools session found\n",
    );
    let names: Vec<String> = catalog.json()["verbs"]
        .as_array()
        .expect("verbs")
        .iter()
        .filter(|v| v["kind"] != "host")
        .map(|v| v["name"].as_str().expect("name").to_owned())
        .collect();
    assert_eq!(names, ["scribble"]);
    // On stdout, with its repair: an agent that drops stderr saw `ping` vanish.
    assert_eq!(
        catalog.json()["broken"],
        serde_json::json!([{"name": "ping", "error": why, "repair": repair}]),
        "{catalog}"
    );
    let text = sandbox.devtools(&["catalog"]);
    text.assert_code(0);
    assert!(
        text.stdout.ends_with(&format!(
            "\nbroken verb `ping` (a call of it fails): {why}; {repair}\n"
        )),
        "{text}"
    );
    sandbox
        .devtools(&["ping"])
        .assert_code(7)
        .assert_stdout_is("")
        .assert_stderr_is(format!("error: {why}\nhint: {repair}\n"));

    // Not replaced without `--force`: a verb by that name is installed, broken, which
    // `--force` repairs (it was said to be "from an unknown file").
    try_add(&sandbox, &[guest("ping")], &[])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: verb `ping` is already installed, but its index entry is broken: {why}\n\
             hint: pass `--force` to replace it, which repairs it; or remove it with \
             `mur devtools verbs remove ping`\n",
        ));
    try_add(&sandbox, &[guest("ping")], &["--force"])
        .assert_code(0)
        // Said as broken, not as a verb "from unknown".
        .assert_stdout_is(
            "replaced verb `ping` (tool `version`; its index entry was unreadable)\n",
        );
    sandbox
        .devtools(&["verbs", "list"])
        .assert_code(0)
        .assert_stderr_is("");
    assert_eq!(installed(&sandbox), ["ping", "scribble"]);

    break_it();
    sandbox
        .devtools(&["verbs", "remove", "ping"])
        .assert_code(0)
        .assert_stdout_is("removed verb `ping`\n")
        .assert_stderr_is("");
    assert!(
        !entry.exists() && !wasm.exists(),
        "its entry and its file are gone"
    );
    sandbox
        .devtools(&["verbs", "list"])
        .assert_code(0)
        .assert_stderr_is("");
    assert_eq!(installed(&sandbox), ["scribble"]);
}

/// A verb whose index entry is broken is said so wherever its name is meant: a slip of
/// it (`pign`, `PING`), `mur ping` without `devtools`, a batch clashing with it, and in
/// `--help`'s list of the installed verbs, once; parity warns of it as the catalog does,
/// and offers no derived verb under its name. Each skipped it silently: `pign` was "not
/// an installed verb", and the verb was missing from `--help`.
#[test]
fn a_broken_verb_is_said_broken_where_its_name_is_meant() {
    let sandbox = sandbox_with(&[guest("ping"), guest("scribble")]);
    let index = verb_dir(&sandbox).join("index");
    std::fs::write(index.join("ping.json"), "garbage\n").expect("break ping's entry");
    let why = format!(
        "the verb index entry `{}` is not valid JSON at line 1 column 1",
        path(&index.join("ping.json"))
    );
    let repair = "remove it with `mur devtools verbs remove ping`, or install it again with \
                  `mur devtools verbs add --force <ping.wasm>`";
    let broken =
        format!("verb `ping` is installed, but its index entry is broken: {why}; {repair}");
    for typed in ["pign", "PING"] {
        sandbox
            .devtools(&[typed])
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: unknown verb `{typed}`\nhint: did you mean `ping`? {broken}\n\
                 hint: `mur devtools verbs list` shows the installed verbs\n\
                 hint: no devtools session is running to look for a tool \
                 of that name\n"
            ));
    }
    // `verbs info` and `verbs remove` of a near miss too: `verbs list`'s table, which
    // "not installed" would send the user to, leaves `ping` out. Nothing is removed.
    for (command, typed) in [("info", "pign"), ("remove", "pign"), ("remove", "PING")] {
        sandbox
            .devtools(&["verbs", command, typed])
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: no verb named `{typed}` is installed\nhint: did you mean `ping`? {broken}\n"
            ));
    }
    let several = sandbox.devtools(&["verbs", "remove", "pign", "scribbel"]);
    several.assert_code(1).assert_stderr_is(format!(
        "error: 2 verbs are not installed: `pign`, `scribbel`; none of the 2 verbs given was \
         removed\nhint: did you mean `ping` for `pign`, `scribble` for `scribbel`? (`mur \
         devtools verbs list` shows them all); {broken}\n"
    ));
    assert!(index.join("ping.json").exists());
    sandbox
        .mur(&["ping"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: unrecognized subcommand `ping`\nhint: did you mean `mur devtools ping`? \
             {broken}\nhint: usage: mur [OPTIONS] <COMMAND> (`--help` shows more)\n"
        ));
    let help = sandbox.devtools(&["--help"]);
    help.assert_code(0).assert_stderr_is("");
    assert!(
        help.stdout.contains(
            "Installed verbs (`mur devtools <verb> --help` for each):\n  \
             scribble  Write the version result to files (test guest) [plugin]\n"
        ),
        "{help}"
    );
    // The broken verb's whole line: "broken" once, in its tag (the summary said it too).
    let line = help
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("ping "));
    assert_eq!(
        line,
        Some(
            "  ping      its index entry is unusable: `mur devtools verbs list` says how to \
             repair it [broken]"
        ),
        "{help}"
    );
    assert_eq!(help.stdout.matches("ping").count(), 1, "{help}");

    // A broken verb named as a tool's derived verb would be: that name is still its own.
    let _app = sandbox.start_app();
    std::fs::write(index.join("state.json"), "garbage\n").expect("a broken `state`");
    let parity = sandbox.devtools(&["parity", "--json"]);
    parity.assert_code(1);
    let state = parity
        .json()
        .as_array()
        .expect("rows")
        .iter()
        .find(|row| row["tool"] == "state")
        .cloned();
    assert_eq!(
        state,
        Some(serde_json::json!({"tool": "state", "verb": null, "verbs": [], "kind": "call-only"})),
        "{parity}"
    );
    assert_eq!(
        parity.stderr_lines("warning: skipping verb ").len(),
        2,
        "{parity}"
    );
    assert_eq!(
        parity
            .stderr_lines("warning: skipping verb `state`: the verb index entry ")
            .len(),
        1,
        "{parity}"
    );
}

/// A verb started where the system refuses the address space for its memory (`ulimit
/// -v` of 100 MB: mur itself starts in less, and a verb's memory reserves 64 MiB and its
/// guards; `verbs_runtime` runs verbs under 2 GB): mur's runtime failing, exit 7, not
/// "verb `ping` crashed: Cannot allocate memory", exit 6. wasmtime's own `mmap` fails
/// with rustix's `Errno`, which was not taken for a failure of the system's.
#[test]
fn a_verbs_memory_the_system_refuses_is_murs_failure_not_a_crash() {
    let sandbox = sandbox_with(&[guest("ping")]);
    mur_e2e::run(&mut sandbox.shell_command("ulimit -v 100000; exec mur devtools ping"))
        .assert_code(7)
        .assert_stdout_is("")
        .assert_stderr_is(
            "error: verb `ping` could not run: mur's verb runtime failed while starting: \
             mmap failed to reserve 0x4400000 bytes: Cannot allocate memory (os error 12)\n",
        );
}

/// A verb whose compiled code is not cached, started where mur may write no file past
/// 2 KiB (`ulimit -f 2`, SIGXFSZ ignored): wasmtime cannot write the verb's memory
/// image, mur's runtime failing, not the verb. Exit 7, as the README's table says of
/// the runtime, not "verb `ping` crashed", exit 6, which tells an agent to call the
/// tool instead (review 408, finding 7).
#[test]
fn a_runtime_failure_while_starting_a_verb_is_murs_own_not_a_crash() {
    let sandbox = sandbox_with(&[guest("ping")]);
    std::fs::remove_dir_all(mur_e2e::plugins::cache_dir(&sandbox)).expect("the cache");
    let limited = mur_e2e::run(
        &mut sandbox.shell_command("ulimit -f 2; trap '' XFSZ; exec mur devtools ping"),
    );
    limited
        .assert_code(7)
        .assert_stdout_is("")
        .assert_stderr_is(
            "error: verb `ping` could not run: mur's verb runtime failed while starting: \
             File too large (os error 27)\n",
        );
}

/// Two verb directories (`XDG_DATA_HOME`: a test's, a CI job's, a teammate's tried)
/// share one compile cache (`XDG_CACHE_HOME`). Whatever `verbs add` and `verbs remove`
/// do in one, the code the other's verbs use stays: a refused remove sweeps nothing,
/// and removing a verb file both have keeps it for the one that still has it (a
/// sweep by the other's index alone deleted every entry, and each verb compiled
/// again inside a call: 36 s for a Python verb). The code of a verb directory since
/// deleted goes once unused for a month.
#[test]
fn one_verb_directorys_commands_keep_the_compiled_code_another_uses() {
    let (sandbox, ours) = cached_ping();
    let theirs = sandbox.dir("data2");
    let in_theirs = |args: &[&str]| in_data(&sandbox, &theirs, &[&["verbs"], args].concat());
    in_theirs(&["remove", "nosuch"]).assert_code(1);
    assert!(ours.exists(), "a refused remove elsewhere swept our code");
    in_theirs(&["add", path(&guest("ping"))]).assert_code(0);
    in_theirs(&["remove", "ping"]).assert_code(0);
    in_theirs(&["add", path(&guest("crash"))]).assert_code(0);
    assert!(ours.exists(), "a remove elsewhere took the code we use");
    assert_eq!(mur_e2e::plugins::cache_entries(&sandbox).len(), 2);
    let ping = sandbox.mur(&["devtools", "verbs", "info", "ping"]);
    ping.assert_code(0);
    assert!(!ping.stdout.contains("not yet"), "{ping}");

    // Unmapped for long, it stays while our directory has the verb…
    let month_ago = std::time::SystemTime::now() - Duration::from_secs(40 * 24 * 3600);
    let age = |entry: &std::path::Path| {
        let file = std::fs::File::options()
            .write(true)
            .open(entry)
            .expect("entry");
        let times = std::fs::FileTimes::new()
            .set_accessed(month_ago)
            .set_modified(month_ago);
        file.set_times(times).expect("set times");
    };
    age(&ours);
    in_theirs(&["remove", "crash"]).assert_code(0);
    assert!(ours.exists(), "code a verb directory uses went for its age");
    // …and goes once our directory is gone.
    std::fs::remove_dir_all(verb_dir(&sandbox)).expect("remove our verb directory");
    in_theirs(&["add", path(&guest("crash"))]).assert_code(0);
    assert!(
        !ours.exists(),
        "a deleted verb directory's code stays for ever"
    );
}

/// A verb file that does not exist (a build that failed, a path typed from another
/// directory) is said without Rust's "(os error 2)", and the hint names the directory
/// a relative path is read from and that the verb is built first.
#[test]
fn adding_a_file_that_does_not_exist_says_where_it_was_looked_for() {
    let sandbox = Sandbox::new();
    let file = "target/wasm32-wasip2/release/mur_verb_bump.wasm";
    let out = sandbox.mur(&["devtools", "verbs", "add", file]);
    let cwd = std::fs::canonicalize(sandbox.root()).expect("sandbox root");
    out.assert_code(1).assert_stderr_is(format!(
        "error: could not read `{file}`: no such file\n\
         hint: the path is read from `{}`; build the verb first (its README.md names the \
         file to add)\n",
        cwd.display()
    ));
}

/// Re-adding an edited data verb without `--force`: its earlier version, not its
/// "earlier build" (a JSON file is edited, not built).
#[test]
fn re_adding_an_edited_data_verb_names_its_earlier_version() {
    let sandbox = Sandbox::new();
    let verb = |tool: &str| {
        format!(r#"{{"schema": "mur-verb/1", "name": "count3", "tool": "{tool}", "summary": "s"}}"#)
    };
    let file = sandbox.file("d3.json", verb("state").as_bytes());
    add(&sandbox, std::slice::from_ref(&file));
    std::fs::write(&file, verb("stat")).expect("edit the data verb");
    let out = try_add(&sandbox, std::slice::from_ref(&file), &[]);
    out.assert_code(1).assert_stderr_starts_with(
        "error: verb `count3` (tool `state`, data) is already installed, from an earlier \
         version of this file (added ",
    );
}

/// Another verb directory sharing the cache whose verbs cannot be read (a broken
/// entry) may use any compiled code, here the very code a `verbs remove` drops: it
/// stays rather than go under that directory's feet, and goes once unmapped for a
/// month, by the sweep of the next command that succeeds — not kept for ever.
#[test]
fn an_unreadable_verb_directory_holds_back_dropped_code_until_the_month_rule() {
    let (sandbox, ping) = cached_ping();
    let theirs = theirs_with(&sandbox, "ping");
    std::fs::write(theirs.join("mur/verbs/index/ping.json"), "{").expect("break theirs");

    sandbox
        .mur(&["devtools", "verbs", "remove", "ping"])
        .assert_code(0)
        .assert_stderr_is("");
    assert!(
        ping.exists(),
        "removed code an unreadable directory may use"
    );
    let month_ago = std::time::SystemTime::now() - Duration::from_secs(40 * 24 * 3600);
    let file = std::fs::File::options()
        .write(true)
        .open(&ping)
        .expect("entry");
    let times = std::fs::FileTimes::new()
        .set_accessed(month_ago)
        .set_modified(month_ago);
    file.set_times(times).expect("set times");
    add(&sandbox, &[guest("crash")]);
    assert!(!ping.exists(), "code unmapped for a month kept for ever");
    assert_eq!(mur_e2e::plugins::cache_entries(&sandbox).len(), 1);
}
