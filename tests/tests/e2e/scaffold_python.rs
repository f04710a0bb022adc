//! `mur devtools verbs new --lang python`: the scaffolded project passes its own
//! tests (`python3 -m unittest`), builds with the componentize-py it pins, and
//! the verb installs and clicks in a real `mur-sample`; a Python verb's crash
//! shows its exception (exit 6), and the kit's pitfalls are reported, not silent.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use mur_e2e::Sandbox;
use mur_e2e::plugins::repo_root;

use crate::scaffold::{add, clicks_like_the_template, component, new_project, run_ok};

/// componentize-py, from target/verbs-venv (which .ci/run makes), installed
/// there from the scaffold's own requirements.txt when missing.
fn componentize_py_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let venv = repo_root().join("target/verbs-venv");
        let bin = venv.join("bin");
        if !bin.join("componentize-py").exists() {
            let root = repo_root();
            run_ok(
                &root,
                Command::new("python3").args(["-m", "venv"]).arg(&venv),
            );
            let requirements = root.join("crates/verbs/src/scaffold/python/requirements.txt");
            run_ok(
                &root,
                Command::new(bin.join("pip"))
                    .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
                    .arg(requirements),
            );
        }
        bin
    })
}

/// The project's own tests pass, and its `build.sh` makes the component (cached
/// by the project's content).
fn test_and_build(dir: &Path) -> PathBuf {
    let tested = run_ok(dir, Command::new("python3").args(["-m", "unittest", "-v"]));
    assert!(tested.stderr.contains("\nOK"), "{tested}");
    component(dir, |out| {
        let path =
            std::env::join_paths(std::iter::once(componentize_py_bin().to_path_buf()).chain(
                std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
            ))
            .expect("PATH");
        run_ok(dir, Command::new("./build.sh").arg(out).env("PATH", path));
    })
}

#[test]
fn a_scaffolded_python_verb_tests_builds_installs_and_clicks() {
    let sb = Sandbox::new();
    let dir = new_project(&sb, "pyclick", "python");
    for file in [
        "app.py",
        "kit.py",
        "test_app.py",
        "build.sh",
        "requirements.txt",
        "wit/verb.wit",
    ] {
        assert!(dir.join(file).is_file(), "no {file}");
    }
    let wasm = test_and_build(&dir);
    let added = add(&sb, &wasm);
    assert_eq!(added.stdout, "added verb `pyclick` (tool `click`)\n");
    clicks_like_the_template(&sb, "pyclick");
}

/// A verb that fails on purpose, as `--fail HOW` says.
const FAILING_APP: &str = r#"import kit


class Verb(kit.Verb):
    name = "pyfail"
    tool = "version"
    summary = "Fail on purpose"
    options = [kit.option("fail", "HOW", "how to fail", kind="choice",
                          choices=["parse", "shape", "refuse", "number", "text"])]

    def arguments(self, args):
        if args["fail"] == "parse":
            raise ValueError("no selector given")
        return {}

    def shape(self, result, args, pretty):
        how = args["fail"]
        if how == "shape":
            raise RuntimeError("boom in shape")
        if how == "refuse":
            raise kit.Error("the result has no version")
        if how == "number":
            return 42
        return "shaped as text\n"


WitWorld = kit.export(Verb)
"#;

#[test]
fn a_python_verb_s_exception_shows_its_message_and_pitfalls_are_not_silent() {
    let sb = Sandbox::new();
    let dir = new_project(&sb, "pyfail", "python");
    std::fs::write(dir.join("app.py"), FAILING_APP).expect("app.py");
    std::fs::remove_file(dir.join("test_app.py")).expect("the template's tests go");
    let wasm = test_and_build(&dir);
    add(&sb, &wasm);
    let _sample = sb.start_app();

    // An exception in `parse`: its type and message, and where it was raised.
    let parse = sb.mur(&["devtools", "pyfail", "--fail", "parse"]);
    parse.assert_code(6);
    parse.assert_stderr_contains("ValueError: no selector given");
    parse.assert_stderr_contains("in arguments");

    let shape = sb.mur(&["devtools", "pyfail", "--fail", "shape"]);
    shape.assert_code(6);
    shape.assert_stderr_contains("RuntimeError: boom in shape");

    // kit.Error from `shape` is the verb's own message; a usage error from the kit.
    let refused = sb.mur(&["devtools", "pyfail", "--fail", "refuse"]);
    refused.assert_code(6);
    refused.assert_stderr_contains("the result has no version");
    let usage = sb.mur(&["devtools", "pyfail", "--fail", "later"]);
    usage.assert_code(1);
    usage.assert_stderr_contains(
        "`--fail` must be `parse`, `shape`, `refuse`, `number` or `text`, got `later`",
    );

    // stdout that is not bytes: a str is printed, anything else fails naming it.
    let number = sb.mur(&["devtools", "pyfail", "--fail", "number"]);
    number.assert_code(6);
    number.assert_stderr_contains("`shape` returned int for stdout; return str or bytes");
    let text = sb.mur(&["devtools", "pyfail", "--fail", "text"]);
    text.assert_code(0);
    assert_eq!(text.stdout, "shaped as text\n", "{text}");
}
