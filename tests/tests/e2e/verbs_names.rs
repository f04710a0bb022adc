//! The names `verbs add` refuses — malformed, or a word `mur devtools` answers
//! itself (`call`, `verbs`, `session`, …), `--force` or not — and what a refusal
//! leaves behind: nothing. A component that declares its name in a
//! `mur:verb-name` section (every kit writes one) is judged before it is
//! compiled, so a refusal costs no compile and writes no cache entry; one
//! without the section (a 0.1 verb) is judged by its `info` after compiling, and
//! the compiled code goes with the refusal. `-v` shows whether a run compiled.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use mur_e2e::plugins::{
    add, cache_dir, cache_entries, guest, sandbox_with, standard, verb_dir, with_custom_section,
    with_verb_name,
};
use mur_e2e::{Output, Sandbox};

/// What `-v` prints when `verbs add` compiles a component.
const COMPILING: &str = "DEBUG compiling verb";

/// Each file in `dir` with its size and modification time, sorted.
fn listing(dir: &Path) -> Vec<(String, u64, SystemTime)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|entry| {
                    let meta = entry.metadata().expect("metadata");
                    let modified = meta.modified().expect("mtime");
                    (
                        entry.file_name().to_string_lossy().into_owned(),
                        meta.len(),
                        modified,
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The verb directory and the compile cache, as `listing`s. The cache's
/// `sweep.lock` is no cached code: the lock `verbs add` holds while it compiles, an
/// empty file made with the cache directory.
fn store(sandbox: &Sandbox) -> [Vec<(String, u64, SystemTime)>; 2] {
    let mut cache = listing(&cache_dir(sandbox));
    cache.retain(|(name, ..)| name != "sweep.lock");
    [listing(&verb_dir(sandbox)), cache]
}

/// A sandbox with `ping` installed: a verb directory and a cache with one entry.
fn with_ping() -> Sandbox {
    let sandbox = sandbox_with(&[guest("ping")]);
    assert_eq!(cache_entries(&sandbox).len(), 1);
    sandbox
}

/// `bytes` written to `name` in the sandbox.
fn component(sandbox: &Sandbox, name: &str, bytes: &[u8]) -> PathBuf {
    sandbox.file(name, bytes)
}

/// `mur devtools -v verbs add FILE [extra]`, refused (exit 1) with nothing
/// installed, replaced or cached; its stderr.
fn refused(sandbox: &Sandbox, file: &Path, extra: &[&str]) -> Output {
    let before = store(sandbox);
    let mut args = vec![
        "devtools",
        "-v",
        "verbs",
        "add",
        file.to_str().expect("utf-8"),
    ];
    args.extend(extra);
    let out = sandbox.mur(&args);
    out.assert_code(1).assert_stdout_is("");
    assert_eq!(
        store(sandbox),
        before,
        "a refused add changed the store\n{out}"
    );
    out
}

fn reserved_error(file: &Path, name: &str) -> String {
    format!(
        "error: `{}` names itself `{name}`, a word `mur devtools` answers itself: a verb by that name could not be called\n\
         hint: give the verb another name (e.g. `my-{name}`) and build it again\n",
        file.display()
    )
}

#[test]
fn a_reserved_or_malformed_declared_name_is_refused_before_compiling_and_leaves_nothing() {
    let sandbox = with_ping();
    let ping = std::fs::read(guest("ping")).expect("ping.wasm");
    for name in ["call", "verbs", "session", "help"] {
        let file = component(
            &sandbox,
            &format!("{name}.wasm"),
            &with_verb_name(&ping, name),
        );
        for extra in [&[][..], &["--force"]] {
            let out = refused(&sandbox, &file, extra);
            // The whole stderr of a `-v` run: no compile, nothing else done.
            assert_eq!(out.stderr, reserved_error(&file, name), "{extra:?}");
        }
    }
    let file = component(&sandbox, "bad.wasm", &with_verb_name(&ping, "Bad_Name"));
    let out = refused(&sandbox, &file, &[]);
    assert_eq!(
        out.stderr,
        format!(
            "error: `{}` names itself `Bad_Name`; a verb name is lowercase letters, digits and inner dashes (never two in a row), starting with a letter, at most 64 characters\n\
             hint: did you mean `bad-name`?\n",
            file.display()
        )
    );
    // One that no change of case or separators makes a name gets no guess.
    let file = component(&sandbox, "9.wasm", &with_verb_name(&ping, "9lives"));
    let out = refused(&sandbox, &file, &[]);
    assert_eq!(
        out.stderr,
        format!(
            "error: `{}` names itself `9lives`; a verb name is lowercase letters, digits and inner dashes (never two in a row), starting with a letter, at most 64 characters\n",
            file.display()
        )
    );
}

/// A verb named `index` would be taken for the verb directory's own index
/// (a data verb's file `index.json` was written over by the index itself).
#[test]
fn a_verb_named_index_is_refused_and_leaves_the_index_as_it_was() {
    let sandbox = with_ping();
    let count = mur_e2e::plugins::repo_root().join("docs/examples/count.json");
    let mut data: serde_json::Value =
        serde_json::from_slice(&std::fs::read(count).expect("count.json")).expect("json");
    data["name"] = "index".into();
    let file = component(&sandbox, "index.json", data.to_string().as_bytes());
    let out = refused(&sandbox, &file, &["--force"]);
    assert_eq!(
        out.stderr,
        format!(
            "error: `{}` names itself `index`, the name of the verb directory's own index: a verb by that name would be taken for it\n\
             hint: give the verb another `name` in the file (e.g. `my-index`)\n",
            file.display()
        )
    );
    let list = sandbox.devtools(&["verbs", "list"]);
    list.assert_code(0);
    assert_eq!(crate::verbs_manage::listed(&list), ["ping"], "{list}");
}

#[test]
fn a_verb_without_the_section_is_judged_after_compiling_and_its_code_goes_with_it() {
    let sandbox = with_ping();
    // `impostor` is a 0.1 verb (no section) whose `info` names it `session`.
    let file = guest("impostor");
    for extra in [&[][..], &["--force"]] {
        let out = refused(&sandbox, &file, extra);
        out.assert_stderr_contains(COMPILING);
        assert!(
            out.stderr.ends_with(&reserved_error(&file, "session")),
            "{out}"
        );
    }
    // Into a store that had no cache yet: the cache it made stays empty.
    let fresh = Sandbox::new();
    refused(&fresh, &file, &[]);
    assert_eq!(cache_entries(&fresh), Vec::<PathBuf>::new());
    assert!(!verb_dir(&fresh).exists(), "nothing installed");
}

#[test]
fn a_section_that_disagrees_with_info_is_refused_after_compiling() {
    let sandbox = with_ping();
    let ping = std::fs::read(guest("ping")).expect("ping.wasm");
    let file = component(&sandbox, "pong.wasm", &with_verb_name(&ping, "pong"));
    let out = refused(&sandbox, &file, &["--force"]);
    out.assert_stderr_contains(COMPILING);
    assert!(
        out.stderr.ends_with(&format!(
            "error: `{}` names itself `ping`, but its `mur:verb-name` section says `pong`\n\
             hint: build it again with its kit, which writes the section from the verb's own name\n",
            file.display()
        )),
        "{out}"
    );
}

#[test]
fn a_kit_built_verb_is_judged_by_its_declared_name_without_compiling_again() {
    let sandbox = Sandbox::new();
    let click = standard("click");
    add(&sandbox, std::slice::from_ref(&click));
    let [entry] = cache_entries(&sandbox).try_into().expect("one cache entry");

    // The Rust kit named it `click`: the same bytes again are seen to be
    // installed already, with nothing compiled.
    crate::scaffold::added_again_without_compiling(&sandbox, &click, "click");

    // Other bytes under the same declared name clash, once compiled: what its `info`
    // declares may refuse it, which is said before a clash (see verbs_manage.rs).
    // Its compiled code goes with the refusal.
    let bytes = std::fs::read(&click).expect("click.wasm");
    let changed = component(
        &sandbox,
        "click-v2.wasm",
        &with_custom_section(&bytes, "v2"),
    );
    let out = refused(&sandbox, &changed, &[]);
    out.assert_stderr_contains(COMPILING);
    assert!(
        out.stderr.ends_with(&format!(
            "error: verb `click` (tool `click`, Rust) is already installed, from `{}`\n\
             hint: pass `--force` to replace it\n",
            std::fs::canonicalize(&click).expect("canonical").display()
        )),
        "{out}"
    );
    assert_eq!(cache_entries(&sandbox), [entry]);
}

/// A refused `verbs remove` sweeps nothing: the cache may be another verb
/// directory's too (`XDG_DATA_HOME`), and an entry no index here names may be its.
#[test]
fn removing_a_verb_that_is_not_installed_sweeps_nothing() {
    let sandbox = with_ping();
    let [entry] = cache_entries(&sandbox).try_into().expect("one cache entry");
    // What an interrupted `verbs add` of `call` would leave: an entry of a file
    // no installed verb has.
    let engine = entry
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.split_once('-'))
        .map(|(_, engine)| engine.to_owned())
        .expect("<sha256>-<engine>.cwasm");
    let orphan = cache_dir(&sandbox).join(format!("{}-{engine}", "a".repeat(64)));
    std::fs::copy(&entry, &orphan).expect("plant an orphan");

    let out = sandbox.mur(&["devtools", "verbs", "remove", "call"]);
    out.assert_code(1).assert_stderr_is(
        "error: no verb named `call` is installed\nhint: `mur devtools verbs list` shows the installed verbs\n",
    );
    let mut both = vec![entry, orphan];
    both.sort();
    let mut left = cache_entries(&sandbox);
    left.sort();
    assert_eq!(left, both, "a refused remove swept the cache");
}

/// A data verb with a name `mur` cannot use is refused with a hint for a file of
/// data: its `name` is to change, and there is nothing to build (the hint said
/// "… and build it again").
#[test]
fn a_data_verb_with_a_reserved_name_is_told_to_change_its_name() {
    let sandbox = with_ping();
    for (name, error) in [
        (
            "session",
            "a word `mur devtools` answers itself: a verb by that name could not be called",
        ),
        (
            "index",
            "the name of the verb directory's own index: a verb by that name would be taken for it",
        ),
    ] {
        let file = component(
            &sandbox,
            &format!("{name}.json"),
            format!(
                r#"{{"schema": "mur-verb/1", "name": "{name}", "tool": "state", "summary": "s"}}"#
            )
            .as_bytes(),
        );
        for extra in [&[][..], &["--force"]] {
            let out = refused(&sandbox, &file, extra);
            assert_eq!(
                out.stderr,
                format!(
                    "error: `{}` names itself `{name}`, {error}\n\
                     hint: give the verb another `name` in the file (e.g. `my-{name}`)\n",
                    file.display()
                ),
                "{extra:?}"
            );
        }
    }
}

/// A name refused only for its length says how long it is, at `verbs new` as at `verbs
/// add`: the one fault of a name no one sees at a glance (review 307, finding 24: `verbs
/// new` of 65 letters said only "is not a verb name").
#[test]
fn a_name_too_long_says_its_length() {
    let sandbox = Sandbox::new();
    let long = "a".repeat(65);
    let root = sandbox.root().to_str().expect("utf-8 path").to_owned();
    let new = sandbox.mur(&["devtools", "verbs", "new", &long, "--dir", &root]);
    new.assert_code(1).assert_stderr_is(format!(
        "error: `{long}` is not a verb name: it is 65 characters long\n\
         hint: a verb name is lowercase letters, digits and inner dashes (never two in a row), \
         starting with a letter, at most 64 characters (e.g. `bump`)\n"
    ));
    let file = sandbox.file(
        "long.json",
        format!(r#"{{"schema": "mur-verb/1", "name": "{long}", "tool": "state", "summary": "s"}}"#),
    );
    let add = sandbox.mur(&[
        "devtools",
        "verbs",
        "add",
        file.to_str().expect("utf-8 path"),
    ]);
    add.assert_code(1).assert_stderr_is(format!(
        "error: `{}` names itself `{long}` (65 characters); a verb name is lowercase letters, \
         digits and inner dashes (never two in a row), starting with a letter, at most 64 \
         characters\n",
        file.display()
    ));
}

/// A malformed name is not fixed into one installed already: following "did you mean
/// `ping`?" (and the clash's `--force`) would replace an unrelated verb (review 314,
/// finding 8: `Count.json` was told "did you mean `count`?" with `count` installed).
#[test]
fn a_malformed_name_is_not_told_to_take_an_installed_verb_s_name() {
    let sandbox = with_ping();
    let file = component(
        &sandbox,
        "Ping.json",
        br#"{"schema": "mur-verb/1", "name": "Ping", "tool": "state", "summary": "s"}"#,
    );
    let out = refused(&sandbox, &file, &[]);
    assert_eq!(
        out.stderr,
        format!(
            "error: `{}` names itself `Ping`; a verb name is lowercase letters, digits and \
             inner dashes (never two in a row), starting with a letter, at most 64 characters\n\
             hint: `ping` is taken: a verb `ping` is installed already (tool `version`); pick \
             another name (e.g. `my-ping`)\n",
            file.display()
        )
    );
}
