//! The compile cache, observed through `mur -v`'s debug lines: a warm call
//! loads compiled code instead of compiling; a changed `.wasm` is recompiled
//! and its new behaviour is what runs; a corrupt entry is rebuilt, not trusted.
//!
//! `ping --bogus` is a usage error raised by the verb itself, so these runs
//! instantiate the verb without needing a session.

use mur_e2e::plugins::{add, cache_entries, guest, verb_dir, with_custom_section};
use mur_e2e::{Output, Sandbox};

const LOADED: &str = "loaded verb `ping` from cache";
const COMPILING: &str = "compiling verb `ping`";

fn ping(sandbox: &Sandbox) -> Output {
    let out = sandbox.mur(&["devtools", "-v", "ping", "--bogus"]);
    out.assert_code(1);
    assert!(
        out.stderr
            .contains("error: ping: unexpected argument `--bogus`"),
        "{out}"
    );
    out
}

fn installed_ping(sandbox: &Sandbox) -> std::path::PathBuf {
    verb_dir(sandbox).join("ping.wasm")
}

#[test]
fn a_warm_call_loads_from_cache_without_compiling() {
    let sandbox = Sandbox::new();
    add(&sandbox, &[guest("ping")]);
    assert_eq!(
        cache_entries(&sandbox).len(),
        1,
        "verbs add compiles and caches"
    );
    for _ in 0..2 {
        let out = ping(&sandbox);
        assert!(out.stderr.contains(LOADED), "{out}");
        assert!(!out.stderr.contains(COMPILING), "{out}");
    }
}

#[test]
fn a_file_modified_behind_the_index_is_recompiled() {
    let sandbox = Sandbox::new();
    add(&sandbox, &[guest("ping")]);
    let bytes = std::fs::read(installed_ping(&sandbox)).expect("installed ping");
    std::fs::write(
        installed_ping(&sandbox),
        with_custom_section(&bytes, "edited"),
    )
    .expect("modify");

    let first = ping(&sandbox);
    assert!(first.stderr.contains(COMPILING), "{first}");
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

#[test]
fn a_file_replaced_behind_the_index_is_never_served_stale() {
    let sandbox = Sandbox::new();
    add(&sandbox, &[guest("ping")]);
    ping(&sandbox);
    std::fs::copy(guest("liar"), installed_ping(&sandbox)).expect("replace ping with liar");

    let out = sandbox.mur(&["devtools", "ping", "text"]);
    out.assert_code(6);
    assert!(
        out.stderr
            .starts_with("error: verb `ping` returned tool arguments that are not valid JSON"),
        "{out}"
    );
    let info = sandbox
        .mur(&["devtools", "verbs", "info", "ping", "--json"])
        .json();
    assert_eq!(
        info["summary"], "Return malformed arguments (test guest)",
        "the index follows the new file"
    );
}

#[test]
fn a_corrupt_cache_entry_is_rebuilt() {
    let sandbox = Sandbox::new();
    add(&sandbox, &[guest("ping")]);
    let [entry] = cache_entries(&sandbox).try_into().expect("one cache entry");
    let good = std::fs::read(&entry).expect("cache entry");

    // Truncated, then the same length with one byte flipped deep in the code.
    let mut flipped = good.clone();
    let at = flipped.len() / 2;
    flipped[at] ^= 0xff;
    for broken in [good[..good.len() / 3].to_vec(), flipped] {
        std::fs::write(&entry, &broken).expect("corrupt the entry");
        let out = ping(&sandbox);
        assert!(out.stderr.contains("is corrupt; rebuilding it"), "{out}");
        assert!(out.stderr.contains(COMPILING), "{out}");
        assert_eq!(
            std::fs::read(&entry).expect("rebuilt entry"),
            good,
            "the entry is rebuilt"
        );
        assert!(ping(&sandbox).stderr.contains(LOADED));
    }
}
