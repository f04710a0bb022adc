//! In-process checks of the runtime against the real test guests in
//! tests/guests (built by the test kit, as for the end-to-end tests in
//! tests/tests/e2e/verbs_*.rs, which cover the same ground through `mur`).

use std::path::PathBuf;

use super::*;
use crate::derived::WITHIN;

/// A test guest, built once per test process by the test kit (the same build the
/// end-to-end tests use).
fn guest(name: &str) -> PathBuf {
    mur_testkit::plugins::guest(name)
}

/// Fresh, empty verb and cache directories, laid out as on a real machine
/// (`data/verbs`, `cache/verbs`) in a temporary directory.
pub(crate) fn temp_dirs() -> (tempfile::TempDir, VerbDirs) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dirs = VerbDirs {
        verbs: tmp.path().join("data/verbs"),
        cache: tmp.path().join("cache/verbs"),
    };
    (tmp, dirs)
}

/// A verb host over fresh directories with these guests installed.
fn host_with(names: &[&str]) -> (tempfile::TempDir, VerbHost) {
    let (tmp, dirs) = temp_dirs();
    let files: Vec<PathBuf> = names.iter().map(|n| guest(n)).collect();
    manage::add(&dirs, &files, false, &[]).expect("verbs add");
    let host = VerbHost::open_in(dirs).expect("open");
    (tmp, host)
}

/// What guest `name`, alone in a fresh host, fails with given `words`.
fn refused_alone(name: &str, words: &[&str]) -> VerbError {
    let (_tmp, mut host) = host_with(&[name]);
    refused(&mut host, name, words)
}

/// The plugin failure guest `name`, alone in a fresh host, ends in when parsed
/// without arguments.
fn stopped(name: &str) -> String {
    plugin_message(refused_alone(name, &[]))
}

/// What verb `verb` of `host` fails with given `words`, which it must not take.
fn refused(host: &mut VerbHost, verb: &str, words: &[&str]) -> VerbError {
    let argv: Vec<String> = words.iter().map(|word| (*word).to_owned()).collect();
    match host.parse(verb, &argv, WITHIN) {
        Err(err) => err,
        Ok(outcome) => panic!("`{verb}` took {words:?}: {outcome:?}"),
    }
}

fn plugin_message(err: VerbError) -> String {
    assert!(
        matches!(err, VerbError::Plugin { .. }),
        "not a plugin failure: {err}"
    );
    err.to_string()
}

/// What `parse` planned for a call, checking the arguments are `{}`.
fn plan(host: &mut VerbHost, verb: &str, argv: &[String]) -> CallPlan {
    match host.parse(verb, argv, WITHIN).expect("parse") {
        ParseOutcome::Call {
            arguments, plan, ..
        } => {
            assert_eq!(arguments, serde_json::json!({}));
            plan
        }
        other => panic!("not a call: {other:?}"),
    }
}

#[test]
fn a_new_verb_parses_and_shapes() {
    let (_tmp, mut host) = host_with(&["ping"]);
    assert_eq!(host.entries()[0].tool, "version");
    let plan = plan(&mut host, "ping", &[]);
    assert_eq!(plan.timeout_ms, None);
    assert_eq!(plan.writes, None, "a 0.1 verb declares no writes");
    let shaped = host
        .shape("ping", &plan, &serde_json::json!({"v": 1}), false)
        .expect("shape");
    assert_eq!(
        String::from_utf8_lossy(&shaped.stdout),
        "{\"pong\":true,\"result\":{\"v\":1}\n}\n"
    );
}

#[test]
fn an_endless_loop_runs_out_of_time() {
    assert_eq!(
        stopped("spin"),
        "verb `spin` ran out of its time budget in `parse` (5 billion instructions, about half a second of computation; `--timeout` bounds only the tool call)"
    );
}

#[test]
fn a_memory_bomb_hits_the_memory_limit() {
    assert_eq!(
        stopped("hog"),
        "verb `hog` exceeded its 64 MiB memory limit"
    );
}

/// A verb refused memory that returns its own error rather than trapping (a JavaScript
/// verb: SpiderMonkey throws "out of memory", which the kit returns as the verb's
/// message) hit the memory limit all the same: exit 6, not its usage error (exit 1).
#[test]
fn a_verb_that_says_it_ran_out_of_memory_hit_the_memory_limit() {
    assert_eq!(
        plugin_message(refused_alone("hog", &["--catch"])),
        "verb `hog` exceeded its 64 MiB memory limit"
    );
}

#[test]
fn a_panic_is_reported_with_its_message() {
    let message = stopped("crash");
    assert!(
        message.starts_with("verb `crash` crashed: panicked at"),
        "{message}"
    );
    assert!(
        message.contains("boom: this verb panics on purpose"),
        "{message}"
    );
}

#[test]
fn the_sandbox_shows_no_files_env_or_clock() {
    // snoop reports what it saw as a usage error.
    assert_eq!(
        refused_alone("snoop", &["/etc/passwd"]).to_string(),
        "snoop: saw file=no dir=no env=0 args=0 clock=0"
    );
}

#[test]
fn malformed_arguments_are_refused() {
    let (_tmp, mut host) = host_with(&["liar"]);
    // The plugin failure `parse` of `liar WORD` ends in (WORD picks the bad answer).
    let mut failure = |word: &str| plugin_message(refused(&mut host, "liar", &[word]));
    let text = failure("text");
    assert!(
        text.starts_with("verb `liar` returned tool arguments that are not valid JSON"),
        "{text}"
    );
    assert_eq!(
        failure("array"),
        "verb `liar` returned tool arguments that are not a JSON object"
    );
    // A bound of 0 ms is the verb's bad answer, not a call to give up on at once.
    assert_eq!(
        failure("zero"),
        "verb `liar` asked for a call of 0 ms from `parse`; a bound is at least 1 ms"
    );
    // A refusal without a message says so, instead of `error: liar: ` and nothing.
    assert_eq!(
        refused(&mut host, "liar", &["mute"]).to_string(),
        "liar: refused these arguments without saying why (the verb gave no message)"
    );
}

#[test]
fn files_are_written_only_at_paths_in_argv() {
    let (tmp, mut host) = host_with(&["scribble"]);
    let inside = tmp.path().join("out.txt").to_string_lossy().into_owned();
    let argv = vec![inside.clone(), "--sneak".to_owned()];
    let planned = plan(&mut host, "scribble", &argv);
    let shaped = host
        .shape("scribble", &planned, &serde_json::json!({}), false)
        .expect("shape");
    let message = plugin_message(
        shaped
            .write_files(&argv, None, std::time::Duration::from_secs(10))
            .expect_err("sneak refused"),
    );
    assert!(
        message.contains("`sneaked.txt`, a path not on its command line"),
        "{message}"
    );
    assert!(
        !PathBuf::from(&inside).exists(),
        "nothing is written when any path is refused"
    );
    let argv = vec![inside.clone()];
    let planned = plan(&mut host, "scribble", &argv);
    let shaped = host
        .shape(
            "scribble",
            &planned,
            &serde_json::json!({"ok": true}),
            false,
        )
        .expect("shape");
    shaped
        .write_files(&argv, None, std::time::Duration::from_secs(10))
        .expect("write");
    assert_eq!(
        std::fs::read_to_string(&inside).expect("written"),
        "{\"ok\":true}"
    );
}

/// No compiled entries, as [`cache_entries`] lists them.
const NONE: [std::path::PathBuf; 0] = [];

/// The compiled entries in the cache directory, sorted (none where it is not).
pub(crate) fn cache_entries(dirs: &VerbDirs) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(&dirs.cache)
        .map(|listing| mur_lockfile::files_with_extension(listing, "cwasm"))
        .unwrap_or_default()
}

#[test]
fn a_refused_add_and_a_removed_verb_leave_no_compiled_code_behind() {
    let (_tmp, dirs) = temp_dirs();
    // `impostor` names itself `session`: refused after it was compiled.
    let reserved = ["session".to_owned()];
    let refused = manage::add(&dirs, &[guest("impostor")], false, &reserved);
    assert!(refused.is_err());
    assert_eq!(cache_entries(&dirs), NONE, "refused, yet cached");

    manage::add(&dirs, &[guest("ping")], false, &reserved).expect("add");
    assert_eq!(
        cache_entries(&dirs).len(),
        1,
        "the installed verb's code is cached"
    );
    manage::remove(&dirs, "ping").expect("remove");
    assert_eq!(cache_entries(&dirs), NONE, "removed, yet cached");
}

/// A warm call maps the cached code into an engine that has no compiler; only the
/// cold path (here: the cached entry gone) builds one.
#[test]
fn only_the_cold_path_builds_a_compiler() {
    let (_tmp, mut host) = host_with(&["ping"]);
    plan(&mut host, "ping", &[]);
    let runtime = host.runtime.as_ref().expect("a runtime");
    assert!(
        runtime.compiler.get().is_none(),
        "a warm call built a compiler"
    );
    let wasm = std::fs::read(guest("ping")).expect("guest");
    assert!(
        wasmtime::component::Component::new(&runtime.engine, &wasm).is_err(),
        "the engine that runs verbs can compile"
    );

    let dirs = host.dirs.clone();
    let mut host = VerbHost::open_in(dirs.clone()).expect("open");
    for entry in cache_entries(&dirs) {
        std::fs::remove_file(entry).expect("remove the entry");
    }
    plan(&mut host, "ping", &[]);
    let runtime = host.runtime.as_ref().expect("a runtime");
    assert!(
        runtime.compiler.get().is_some(),
        "compiled without a compiler?"
    );
    assert_eq!(cache_entries(&dirs).len(), 1, "the rebuilt entry is cached");
}

/// With no usable cache directory the freshly compiled code runs from memory.
#[cfg(unix)]
#[test]
fn a_verb_runs_when_its_code_cannot_be_cached() {
    use std::os::unix::fs::PermissionsExt as _;
    let (_tmp, dirs) = temp_dirs();
    std::fs::create_dir_all(&dirs.cache).expect("cache dir");
    // Others may write there: mur maps no code from it (`CodeCache::open`).
    std::fs::set_permissions(&dirs.cache, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    manage::add(&dirs, &[guest("ping")], false, &[]).expect("verbs add");
    let mut host = VerbHost::open_in(dirs.clone()).expect("open");
    let plan = plan(&mut host, "ping", &[]);
    let shaped = host
        .shape("ping", &plan, &serde_json::json!({"v": 1}), false)
        .expect("shape");
    assert!(String::from_utf8_lossy(&shaped.stdout).contains("\"pong\":true"));
    assert_eq!(cache_entries(&dirs), NONE);
}

/// A component replaced by a data verb of its name (or back) leaves no file of the
/// other kind behind, and `verbs remove` takes every file of the verb.
#[test]
fn a_verb_replaced_by_one_of_another_kind_leaves_no_file_behind() {
    let (tmp, dirs) = temp_dirs();
    manage::add(&dirs, &[guest("ping")], false, &[]).expect("component");
    let data = tmp.path().join("ping.json");
    let verb = serde_json::json!({
        "schema": "mur-verb/1", "name": "ping", "tool": "version", "summary": "Ask the version",
    });
    std::fs::write(&data, verb.to_string()).expect("data verb");
    manage::add(&dirs, std::slice::from_ref(&data), true, &[]).expect("replaced by data");
    let files = || {
        let mut names = mur_testkit::names_in(&dirs.verbs);
        names.retain(|name| name.starts_with("ping."));
        names
    };
    assert_eq!(files(), ["ping.json"]);
    manage::add(&dirs, &[guest("ping")], true, &[]).expect("replaced by a component");
    assert_eq!(files(), ["ping.wasm"]);
    // One an earlier mur left beside it goes with `remove`.
    std::fs::write(dirs.verbs.join("ping.json"), "{}").expect("left behind");
    manage::remove(&dirs, "ping").expect("remove");
    assert!(files().is_empty(), "{:?}", files());
}

/// A component built against a newer `mur:verb` is refused before compiling,
/// naming its version, instead of being installed as an older one whose shapes
/// it happens to match (or failing a type check that names no version).
#[test]
fn a_verb_built_against_a_newer_interface_is_refused_naming_it() {
    let (tmp, dirs) = temp_dirs();
    let bytes = std::fs::read(guest("noisy")).expect("noisy");
    let (from, to) = (b"mur:verb/types@0.3.0", b"mur:verb/types@0.4.0");
    let mut newer = bytes.clone();
    let at = newer
        .windows(from.len())
        .position(|w| w == from)
        .expect("noisy imports mur:verb/types@0.3.0");
    newer[at..at + to.len()].copy_from_slice(to);
    let file = tmp.path().join("newer.wasm");
    std::fs::write(&file, &newer).expect("newer");
    let refused = manage::add(&dirs, std::slice::from_ref(&file), false, &[]).expect_err("newer");
    assert_eq!(
        refused.to_string(),
        format!(
            "`{}` was built against mur:verb@0.4.0; this mur loads mur:verb@0.3.0, 0.2.0 and 0.1.0",
            file.display()
        )
    );
    assert!(!dirs.cache.exists(), "nothing was compiled");
}
