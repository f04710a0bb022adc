//! The compile cache, observed through `mur -v`'s debug lines: a warm call
//! loads compiled code instead of compiling; a changed `.wasm` is recompiled
//! and its new behaviour is what runs; a corrupt entry (truncated, scribbled
//! header) is rebuilt, not trusted.
//!
//! Whatever sits at an entry's path that is not a regular file of sane size (a
//! FIFO, a link, a huge file) is a miss and is replaced, never waited on.
//!
//! `ping --bogus` is a usage error raised by the verb itself, so these runs
//! instantiate the verb without needing a session.

use std::path::PathBuf;
use std::time::Duration;

use mur_e2e::plugins::{
    add, cache_entries, guest, js_verb, sandbox_with, verb_dir, with_custom_section,
};
use mur_e2e::{Output, Process, RUN_LIMIT, Sandbox, mkfifo};

const LOADED: &str = "loaded verb `ping` from cache";
const COMPILING: &str = "compiling verb `ping`";

/// How long a run may take before it counts as hung: generous for a debug
/// build on a loaded machine, and short enough that a regression fails the
/// test instead of stalling the suite.
const HANG_LIMIT: Duration = Duration::from_secs(30);

fn ping(sandbox: &Sandbox) -> Output {
    let out = sandbox.mur_within(&["devtools", "-v", "ping", "--bogus"], HANG_LIMIT);
    out.assert_code(1);
    out.assert_stderr_contains("error: ping: unexpected argument `--bogus`");
    out
}

/// [`ping`], asserting its code was loaded from the cache, not compiled.
#[track_caller]
fn ping_loaded_from_cache(sandbox: &Sandbox) {
    let out = ping(sandbox);
    out.assert_stderr_contains(LOADED);
    assert!(!out.stderr.contains(COMPILING), "{out}");
}

fn installed_ping(sandbox: &Sandbox) -> PathBuf {
    verb_dir(sandbox).join("ping.wasm")
}

/// A sandbox with `ping` installed, and the one cache entry that compiled it.
pub(crate) fn cached_ping() -> (Sandbox, PathBuf) {
    let sandbox = sandbox_with(&[guest("ping")]);
    let [entry] = cache_entries(&sandbox).try_into().expect("one cache entry");
    (sandbox, entry)
}

#[test]
fn a_warm_call_loads_from_cache_without_compiling() {
    let sandbox = sandbox_with(&[guest("ping")]);
    assert_eq!(
        cache_entries(&sandbox).len(),
        1,
        "verbs add compiles and caches"
    );
    for _ in 0..2 {
        ping_loaded_from_cache(&sandbox);
    }
}

/// `verbs info` of a verb whose compiled code is not cached says it is compiled on
/// the next call (it said `0 bytes (cached native code)`), and the sizes once it is.
#[test]
fn verbs_info_says_when_a_verb_is_not_compiled_yet() {
    let (sandbox, entry) = cached_ping();
    let compiled = |sandbox: &Sandbox| {
        let info = sandbox.devtools(&["verbs", "info", "ping"]);
        info.assert_code(0);
        let line = info.stdout.lines().find(|l| l.starts_with("compiled:"));
        line.unwrap_or_else(|| panic!("no compiled line: {info}"))
            .to_owned()
    };
    let size = std::fs::metadata(&entry).expect("entry").len();
    assert_eq!(
        compiled(&sandbox),
        format!("compiled:  {size} bytes (cached native code)")
    );
    std::fs::remove_file(&entry).expect("clear the cache");
    assert_eq!(
        compiled(&sandbox),
        "compiled:  not yet (compiled on the next call)"
    );
    ping(&sandbox).assert_stderr_contains(COMPILING);
    assert!(compiled(&sandbox).ends_with(" bytes (cached native code)"));
}

#[test]
fn a_file_modified_behind_the_index_is_recompiled() {
    let sandbox = sandbox_with(&[guest("ping")]);
    let bytes = std::fs::read(installed_ping(&sandbox)).expect("installed ping");
    std::fs::write(
        installed_ping(&sandbox),
        with_custom_section(&bytes, "edited"),
    )
    .expect("modify");

    let first = ping(&sandbox);
    first.assert_stderr_contains(COMPILING);
    assert!(!first.stderr.contains(LOADED), "{first}");
    let second = ping(&sandbox);
    assert!(
        second.stderr.contains(LOADED),
        "recompiled code is cached again: {second}"
    );
    assert_eq!(
        cache_entries(&sandbox).len(),
        1,
        "the stale entry is dropped"
    );
}

/// Another verb's file copied over ping's is neither served from ping's cached code
/// nor taken as ping: it is refused (exit 7) and the index keeps ping, which `verbs
/// add` of ping's file then repairs (e2e verbs_manage). It ran liar's code as ping
/// (exit 6), and the index took liar's summary and tool.
#[test]
fn a_file_replaced_behind_the_index_is_never_served_stale() {
    let sandbox = sandbox_with(&[guest("ping")]);
    ping(&sandbox);
    std::fs::copy(guest("liar"), installed_ping(&sandbox)).expect("replace ping with liar");

    sandbox
        .mur(&["devtools", "ping", "text"])
        .assert_code(7)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: verb `ping` is installed but its file `{}` holds verb `liar`\n\
             hint: reinstall it with `mur devtools verbs add --force {}`, or remove it with \
             `mur devtools verbs remove ping`\n",
            installed_ping(&sandbox).display(),
            std::fs::canonicalize(guest("ping"))
                .expect("ping")
                .display()
        ));
    let info = sandbox
        .mur(&["devtools", "verbs", "info", "ping", "--json"])
        .json();
    assert_eq!(
        info["summary"], "Answer pong with the session's version (test verb)",
        "the index keeps ping"
    );
}

#[test]
fn a_corrupt_cache_entry_is_rebuilt() {
    let (sandbox, entry) = cached_ping();
    let good = std::fs::read(&entry).expect("cache entry");
    assert!(
        good.starts_with(b"\x7fELF"),
        "an entry is wasmtime's own image"
    );

    // Truncated (its section table gone), empty, and scribbled where wasmtime
    // looks on every load: the ELF magic and the section table's offset. (A
    // byte scribbled inside the code itself is not looked for on each call:
    // the entry is checked when it is written, in a directory only this user
    // can write; see crates/verbs/src/cache.rs.)
    let mut magic = good.clone();
    magic[1] ^= 0xff;
    let mut table = good.clone();
    table[41] ^= 0xff;
    for broken in [good[..good.len() / 3].to_vec(), Vec::new(), magic, table] {
        std::fs::write(&entry, &broken).expect("corrupt the entry");
        let out = ping(&sandbox);
        out.assert_stderr_contains("is unusable (");
        out.assert_stderr_contains("; rebuilding it");
        out.assert_stderr_contains(COMPILING);
        assert_eq!(
            std::fs::read(&entry).expect("rebuilt entry"),
            good,
            "the entry is rebuilt"
        );
        assert!(ping(&sandbox).stderr.contains(LOADED));
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_as_a_cache_entry_is_a_miss_and_is_replaced() {
    let (sandbox, entry) = cached_ping();
    std::fs::remove_file(&entry).expect("remove the entry");
    mkfifo(&entry);

    let out = ping(&sandbox);
    out.assert_stderr_contains("is a FIFO, not a regular file; rebuilding it");
    out.assert_stderr_contains(COMPILING);
    assert!(entry.metadata().expect("entry").is_file(), "replaced");
    assert!(ping(&sandbox).stderr.contains(LOADED));
}

#[cfg(unix)]
#[test]
fn a_symlink_as_a_cache_entry_is_not_followed() {
    let (sandbox, entry) = cached_ping();
    // A sound entry, but elsewhere: mur trusts only what is in its own directory.
    let elsewhere = sandbox.root().join("elsewhere.cwasm");
    std::fs::rename(&entry, &elsewhere).expect("move the entry");
    std::os::unix::fs::symlink(&elsewhere, &entry).expect("symlink");

    let out = ping(&sandbox);
    out.assert_stderr_contains("is a symbolic link");
    assert!(!out.stderr.contains(LOADED), "{out}");
    let meta = std::fs::symlink_metadata(&entry).expect("entry");
    assert!(meta.is_file(), "the link is replaced by a real entry");
    assert!(elsewhere.exists(), "the link's target is left alone");
}

#[test]
fn an_oversized_cache_entry_is_rebuilt_without_being_read() {
    let (sandbox, entry) = cached_ping();
    // 1 GiB + 1 byte, sparse: past the cap, so refused by its size alone.
    std::fs::File::options()
        .write(true)
        .open(&entry)
        .and_then(|f| f.set_len((1 << 30) + 1))
        .expect("grow the entry");

    let out = ping(&sandbox);
    out.assert_stderr_contains("is 1073741825 bytes, over the 1 GiB limit; rebuilding it");
    out.assert_stderr_contains(COMPILING);
    assert!(ping(&sandbox).stderr.contains(LOADED));
}

#[test]
fn a_cache_entry_that_cannot_be_replaced_is_reported_and_the_verb_still_runs() {
    let (sandbox, entry) = cached_ping();
    std::fs::remove_file(&entry).expect("remove the entry");
    std::fs::create_dir(&entry).expect("a directory in its place");
    std::fs::write(entry.join("keep"), b"x").expect("not empty");

    for _ in 0..2 {
        let out = ping(&sandbox);
        assert!(
            out.stderr.contains("warning: the compile-cache entry `")
                && out
                    .stderr
                    .contains("` is a directory, not a regular file, and cannot be removed"),
            "{out}"
        );
        out.assert_stderr_contains(COMPILING);
    }
    // Without -v the warning is the only line besides the verb's own error.
    let quiet = sandbox.mur_within(&["devtools", "ping", "--bogus"], HANG_LIMIT);
    quiet.assert_code(1);
    quiet.assert_stderr_starts_with("warning: the compile-cache entry");
}

#[cfg(unix)]
#[test]
fn an_installed_verb_whose_file_became_a_fifo_fails_at_once_with_exit_7() {
    let sandbox = sandbox_with(&[guest("ping")]);
    let file = installed_ping(&sandbox);
    std::fs::remove_file(&file).expect("remove ping.wasm");
    mkfifo(&file);

    let out = sandbox.mur_within(&["devtools", "ping", "--bogus"], HANG_LIMIT);
    out.assert_code(7);
    assert_eq!(
        out.stderr.lines().next(),
        Some(
            format!(
                "error: verb `ping` is installed but its file `{}` is a FIFO, not a regular file",
                file.display()
            )
            .as_str()
        ),
        "{out}"
    );
    // The file it was installed from, pasted as it is.
    out.assert_stderr_contains(&format!(
        "hint: reinstall it with `mur devtools verbs add --force {}`",
        std::fs::canonicalize(guest("ping"))
            .expect("ping")
            .display()
    ));
}

/// Two `verbs add` at once, of different verbs: the one that ends last swept the
/// compiled code of the other (installed while it compiled) by the index it read
/// before it compiled, and that verb's next call compiled again, silently, for
/// tens of seconds. Now neither loses its code; and a call that must compile a
/// big verb says so, as `verbs add` does, outside `--timeout`.
#[test]
fn concurrent_adds_keep_each_others_code_and_a_call_that_compiles_says_so() {
    use std::io::{BufRead as _, Read as _};
    let sandbox = Sandbox::new();
    let shout = js_verb().display().to_string();
    let mut slow = sandbox.mur_command(&["devtools", "verbs", "add", &shout]);
    slow.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut slow = Process::spawn(&mut slow);
    let mut said = std::io::BufReader::new(slow.child_mut().stderr.take().expect("stderr"));
    let mut first = String::new();
    said.read_line(&mut first).expect("the compile note");
    assert!(first.starts_with("note: compiling `"), "{first}");

    // While `shout` compiles (tens of seconds), `ping` is added whole.
    add(&sandbox, &[guest("ping")]);
    assert!(slow.try_wait().is_none(), "`shout` still compiling");
    let (out, _) = slow.wait_output_within(RUN_LIMIT);
    let mut rest = String::new();
    said.read_to_string(&mut rest).expect("stderr");
    assert_eq!(
        (out.code, out.stdout.as_str(), rest.as_str()),
        (0, "added verb `shout` (tool `version`)\n", "")
    );

    assert_eq!(cache_entries(&sandbox).len(), 2, "both verbs' code is kept");
    for verb in ["ping", "shout"] {
        let call = sandbox.mur(&["devtools", "-v", verb, "--bogus"]);
        call.assert_code(1);
        call.assert_stderr_contains(&format!("loaded verb `{verb}` from cache"));
        assert!(
            !call.stderr.contains(&format!("compiling verb `{verb}`")),
            "{call}"
        );
    }

    // Its code gone (a new mur compiles every verb again): the call says it compiles.
    for entry in cache_entries(&sandbox) {
        std::fs::remove_file(entry).expect("clear the cache");
    }
    let call = sandbox.mur(&["devtools", "shout", "--bogus"]);
    call.assert_code(1);
    let note = call.stderr.lines().next().unwrap_or_default();
    assert!(
        note.starts_with("note: compiling verb `shout` (")
            && note.ends_with(
                " MiB) for this machine, once: this takes tens of seconds (before its call: \
                 `--timeout` bounds the call alone)"
            ),
        "{call}"
    );
}

/// `mur devtools <args>` in the sandbox, with its verb directory under `data`
/// (`XDG_DATA_HOME`) and the sandbox's compile cache: a second verb directory
/// sharing the cache (a test's, a CI job's).
pub(crate) fn in_data(sandbox: &Sandbox, data: &std::path::Path, args: &[&str]) -> Output {
    let mut cmd = sandbox.mur_command(&[&["devtools"], args].concat());
    cmd.env("XDG_DATA_HOME", data);
    mur_e2e::run(&mut cmd)
}

/// A second verb directory (`data2`, see [`in_data`]) with the test guest `name`
/// added: another user of the sandbox's compile cache.
pub(crate) fn theirs_with(sandbox: &Sandbox, name: &str) -> PathBuf {
    let theirs = sandbox.dir("data2");
    in_data(sandbox, &theirs, &["verbs", "add", path(&guest(name))]).assert_code(0);
    theirs
}

/// The verb directories named in the sandbox's cache forgotten: as if only a
/// `mur` from before they were named had used them.
fn unnamed(sandbox: &Sandbox) {
    let users = mur_e2e::plugins::cache_dir(sandbox).join("verb-dirs");
    std::fs::remove_dir_all(&users).expect("the named verb directories");
}

fn path(file: &std::path::Path) -> &str {
    file.to_str().expect("a UTF-8 path")
}

/// The sha256 of the `ping` installed in the verb directory under `data`
/// (`XDG_DATA_HOME`), as its index records it: the key of its cache entry.
fn ping_sha256(sandbox: &Sandbox, data: &std::path::Path) -> String {
    let info = in_data(sandbox, data, &["verbs", "info", "ping", "--json"]);
    info.assert_code(0);
    let json = info.json();
    let sha256 = json["sha256"].as_str();
    sha256
        .unwrap_or_else(|| panic!("no sha256: {json}"))
        .to_owned()
}

/// The sha256s of the files the cache holds code of, sorted: what starts each
/// entry's name (`<sha256>-<engine>.cwasm`).
fn cached_sha256s(sandbox: &Sandbox) -> Vec<String> {
    let entries = cache_entries(sandbox);
    let name = |entry: &PathBuf| {
        let name = entry.file_name().and_then(|n| n.to_str());
        let sha256 = name
            .and_then(|n| n.split_once('-'))
            .map(|(sha256, _)| sha256);
        sha256.expect("<sha256>-<engine>.cwasm").to_owned()
    };
    sorted(entries.iter().map(name))
}

fn sorted<S: ToString>(items: impl IntoIterator<Item = S>) -> Vec<String> {
    let mut items: Vec<String> = items.into_iter().map(|s| s.to_string()).collect();
    items.sort();
    items
}

/// Two verb directories with the same `ping`; in one, a rebuild of it is copied over
/// the installed file (the edit-build loop). The call there takes the new build and
/// drops the old one's code — but the other directory still uses that code, and its
/// next call loads it. The rebuild's call deleted it, and the other's next call
/// compiled again (36 s for a Python verb). Where no other directory has the old
/// build, its code goes at once, as before.
#[test]
fn a_rebuild_taken_in_one_verb_directory_keeps_the_old_code_another_uses() {
    let (sandbox, old) = cached_ping();
    let theirs = theirs_with(&sandbox, "ping");
    let bytes = std::fs::read(guest("ping")).expect("ping");
    let installed = theirs.join("mur/verbs/ping.wasm");
    std::fs::write(&installed, with_custom_section(&bytes, "rebuilt")).expect("rebuild");

    let rebuilt = in_data(&sandbox, &theirs, &["-v", "ping", "--bogus"]);
    rebuilt.assert_code(1);
    rebuilt.assert_stderr_contains(COMPILING);
    assert!(
        old.exists(),
        "the rebuild took the code another directory uses"
    );
    ping_loaded_from_cache(&sandbox);
    let original = ping_sha256(&sandbox, &sandbox.root().join("data"));
    let first = ping_sha256(&sandbox, &theirs);
    assert_ne!(first, original, "the rebuild is a new file");
    assert_eq!(cached_sha256s(&sandbox), sorted([&original, &first]));

    // Rebuilt once more there: the first rebuild's code, used nowhere else, goes;
    // the second's stays beside the original's.
    std::fs::write(&installed, with_custom_section(&bytes, "again")).expect("rebuild");
    in_data(&sandbox, &theirs, &["ping", "--bogus"]).assert_code(1);
    let second = ping_sha256(&sandbox, &theirs);
    assert_ne!(second, first, "the second rebuild is a new file");
    assert_eq!(
        cached_sha256s(&sandbox),
        sorted([&original, &second]),
        "the cache keeps the first rebuild's code ({first}) or lost the second's"
    );
    assert!(old.exists());
}

/// A verb directory only an older `mur` used is named nowhere in the cache; it maps
/// code no named directory uses (its `crash`). Another directory's `verbs remove` of
/// the `ping` both have then keeps ping's code (until unused for a month): the
/// unnamed directory may use it, and does. The sweep took it, judging by the named
/// directories alone.
#[test]
fn a_remove_keeps_what_a_verb_directory_named_nowhere_may_use() {
    let sandbox = sandbox_with(&[guest("ping"), guest("crash")]);
    unnamed(&sandbox);
    let theirs = theirs_with(&sandbox, "ping");
    in_data(&sandbox, &theirs, &["verbs", "remove", "ping"]).assert_code(0);
    assert_eq!(
        cache_entries(&sandbox).len(),
        2,
        "the remove took ping's code"
    );
    ping_loaded_from_cache(&sandbox);
}

/// A verb directory whose verbs an older `mur` installed is named in the cache by the
/// first call that compiles there: a new `mur` that only calls its verbs is a user
/// the sweeps of the others know. Here its one verb is also another directory's, so
/// no unknown code shows it at work: named, its code stays when the other removes
/// the verb.
#[test]
fn a_call_that_compiles_names_its_verb_directory_in_the_cache() {
    let (sandbox, entry) = cached_ping();
    unnamed(&sandbox);
    std::fs::remove_file(&entry).expect("clear the cache");
    ping(&sandbox).assert_stderr_contains(COMPILING);
    let theirs = theirs_with(&sandbox, "ping");
    in_data(&sandbox, &theirs, &["verbs", "remove", "ping"]).assert_code(0);
    assert!(
        entry.exists(),
        "the remove took the code of the unnamed directory"
    );
    ping(&sandbox).assert_stderr_contains(LOADED);
}

/// An installed verb's file whose stamp moved but not its bytes (a `touch`, the same
/// build copied in again): its code is loaded from the cache, not compiled again. The
/// call compiled it (36 s for a Python verb) though its entry was there, and, where
/// the index could not take the new stamp (a read-only verb directory), on every call.
#[test]
fn a_touched_verb_file_is_loaded_from_the_cache() {
    let sandbox = sandbox_with(&[guest("ping")]);
    let file = std::fs::File::options()
        .write(true)
        .open(installed_ping(&sandbox))
        .expect("ping.wasm");
    let later = std::time::SystemTime::now() + Duration::from_secs(3600);
    file.set_modified(later).expect("touch");
    ping_loaded_from_cache(&sandbox);
    assert!(ping(&sandbox).stderr.contains(LOADED));
}

/// A verb file rebuilt and copied over the installed one (the edit-build loop).
fn rebuild_ping(sandbox: &Sandbox, note: &str) {
    let bytes = std::fs::read(guest("ping")).expect("ping");
    std::fs::write(installed_ping(sandbox), with_custom_section(&bytes, note)).expect("rebuild");
}

/// The edit-build loop beside a verb directory that cannot be read (a broken entry):
/// which code that directory uses is not known, so the code of each build a rebuild
/// replaced stays when a call takes the rebuild. No command runs in that loop, and
/// only the sweep of a `verbs add` or `verbs remove` that succeeds took what went
/// unmapped for a month: every rebuild's code (tens of MB for a JavaScript verb)
/// piled up. Now the call that takes a rebuild applies the month rule too.
#[test]
fn a_rebuild_taken_by_a_call_drops_code_unmapped_for_a_month() {
    let (sandbox, original) = cached_ping();
    let theirs = theirs_with(&sandbox, "crash");
    let broken = theirs.join("mur/verbs/index/crash.json");
    assert!(broken.is_file(), "crash's entry is at {}", broken.display());
    std::fs::write(&broken, "{").expect("a broken entry");

    rebuild_ping(&sandbox, "first");
    ping(&sandbox).assert_stderr_contains(COMPILING);
    assert!(
        original.exists(),
        "dropped while a directory cannot be read"
    );
    assert_eq!(
        cache_entries(&sandbox).len(),
        3,
        "crash, ping and its rebuild"
    );

    // A month on, nothing has mapped the original build: the next rebuild's call
    // takes its code; the first rebuild's, a moment old, stays.
    let month_ago = std::time::SystemTime::now() - Duration::from_secs(40 * 24 * 3600);
    let times = std::fs::FileTimes::new()
        .set_accessed(month_ago)
        .set_modified(month_ago);
    std::fs::File::options()
        .write(true)
        .open(&original)
        .and_then(|entry| entry.set_times(times))
        .expect("age the original build's code");
    rebuild_ping(&sandbox, "second");
    ping(&sandbox).assert_stderr_contains(COMPILING);
    assert!(
        !original.exists(),
        "code unmapped for a month stays until a command runs"
    );
    assert_eq!(cache_entries(&sandbox).len(), 3, "crash and two rebuilds");
}

/// A verb directory named in the cache whose path now holds a FIFO holds no verbs:
/// it is forgotten, and a rebuild taken in another directory drops the code of the
/// build it replaced at once, without opening the FIFO (which would block). It was
/// held unreadable, and every rebuild's code stayed until the month rule.
#[cfg(unix)]
#[test]
fn a_verb_directory_replaced_by_a_fifo_holds_back_nothing() {
    let (sandbox, original) = cached_ping();
    let theirs = theirs_with(&sandbox, "ping");
    let verbs = theirs.join("mur/verbs");
    std::fs::remove_dir_all(&verbs).expect("their verbs go");
    mkfifo(&verbs);

    rebuild_ping(&sandbox, "rebuilt");
    ping(&sandbox).assert_stderr_contains(COMPILING);
    assert!(!original.exists(), "held back by a FIFO");
    assert_eq!(cache_entries(&sandbox).len(), 1, "the rebuild's code");
    let fifo = std::fs::symlink_metadata(&verbs).expect("the FIFO");
    assert!(
        std::os::unix::fs::FileTypeExt::is_fifo(&fifo.file_type()),
        "left alone"
    );
}
