//! The verb runtime under hostile conditions: an installed verb's file damaged
//! behind mur's back is a fault in mur's own directory (exit 7) with the way to
//! repair it, and verbs run where the system limits the address space.

use mur_e2e::plugins::{guest, sandbox_with, standard, try_add, verb_dir};

/// An installed verb whose file was cut short (it still starts as WebAssembly, so
/// only the compile sees it): a bad file in mur's own directory, exit 7, with the
/// hint a missing file gets. It was "verb `ping` is not a valid component", exit 6
/// (the verb's own failure) with no way out.
#[test]
fn a_truncated_installed_verb_is_murs_fault_with_the_repair_hint() {
    let sandbox = sandbox_with(&[guest("ping")]);
    let installed = verb_dir(&sandbox).join("ping.wasm");
    let bytes = std::fs::read(&installed).expect("the installed verb");
    std::fs::write(&installed, &bytes[..1000]).expect("truncate it");

    let out = sandbox.mur(&["devtools", "ping"]);
    out.assert_code(7).assert_stdout_is("");
    let said = format!(
        "error: verb `ping` is installed but its file `{}` is not a valid component: ",
        installed.display()
    );
    assert!(out.stderr.starts_with(&said), "{out}");
    // The file it was installed from, to paste: `<ping.wasm>` was a redirection.
    let source = std::fs::canonicalize(guest("ping")).expect("ping");
    let source = source.display();
    assert!(
        out.stderr.ends_with(&format!(
            "\nhint: reinstall it with `mur devtools verbs add --force {source}`, or remove it \
             with `mur devtools verbs remove ping`\n"
        )),
        "{out}"
    );
    assert_eq!(out.stderr.lines().count(), 2, "{out}");
}

/// `verbs add` of a file cut short is the user's input refused (exit 1), in one
/// sentence: "`F` is not a usable verb: does not compile as a component: …", not
/// "… usable verb: is not a valid component".
#[test]
fn adding_a_truncated_verb_is_refused_in_one_sentence() {
    let sandbox = mur_e2e::Sandbox::new();
    let bytes = std::fs::read(guest("ping")).expect("the guest");
    let file = sandbox.root().join("cut.wasm");
    std::fs::write(&file, &bytes[..1000]).expect("a truncated copy");

    let out = try_add(&sandbox, std::slice::from_ref(&file), &[]);
    out.assert_code(1).assert_stdout_is("");
    let said = format!(
        "error: `{}` is not a usable verb: does not compile as a component: ",
        file.display()
    );
    assert!(out.stderr.starts_with(&said), "{out}");
    assert!(!out.stderr.contains(": is "), "{out}");
}

/// A standard verb runs under an address-space limit of 2 GB (`ulimit -v`, common in
/// CI and containers): wasmtime reserved 4 GiB and 64 MiB of guards for each verb
/// memory, and every named verb failed to start (exit 7) while `call` worked.
#[test]
fn a_verb_runs_under_an_address_space_limit() {
    let sandbox = sandbox_with(&[standard("state")]);
    let _app = sandbox.start_app();
    let limited =
        || mur_e2e::run(&mut sandbox.shell_command("ulimit -v 2000000; exec mur devtools state"));
    // Compiled under the limit, then mapped from the cache.
    for _ in 0..2 {
        let out = limited();
        assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{out}");
        assert!(out.stdout.contains("todo"), "{out}");
    }
}
