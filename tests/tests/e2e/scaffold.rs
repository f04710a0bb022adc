//! `mur devtools verbs new`: a scaffolded Rust verb (the vendored kit, crates.io
//! only) passes its own native tests, builds offline outside this repository,
//! installs with `verbs add`, and works against a real `mur-sample`. The helpers
//! here serve the Python and JavaScript scaffold tests too.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use mur_e2e::plugins::{self, repo_root};
pub use mur_e2e::{BUILD_LIMIT, run_ok};
use mur_e2e::{Output, Sandbox, Session, run_within};

use crate::transcripts::fenced_blocks;

/// Where built scaffolds are kept between runs, keyed by their content.
pub fn cache_dir() -> PathBuf {
    repo_root().join("target/scaffolded-verbs")
}

/// `mur devtools [BEFORE…] verbs new NAME --lang LANG --dir DIR`: the one argv of a
/// `verbs new` the tests run.
pub fn verbs_new(sb: &Sandbox, before: &[&str], name: &str, lang: &str, dir: &Path) -> Output {
    let dir = dir.to_str().expect("utf-8 path");
    let after = ["verbs", "new", name, "--lang", lang, "--dir", dir];
    let argv: Vec<&str> = std::iter::once("devtools")
        .chain(before.iter().copied())
        .chain(after)
        .collect();
    sb.mur(&argv)
}

/// `mur devtools verbs new NAME --lang LANG` into the sandbox; the project's root.
pub fn new_project(sb: &Sandbox, name: &str, lang: &str) -> PathBuf {
    let src = sb.root().join("src");
    let new = verbs_new(sb, &[], name, lang, &src);
    new.assert_code(0);
    let dir = PathBuf::from(new.stdout.trim());
    assert_eq!(
        dir,
        std::fs::canonicalize(src.join(name)).expect("project dir")
    );
    new.assert_stderr_contains("mur devtools verbs add ");
    dir
}

/// A new Rust verb project NAME in a new sandbox, with what its offline build needs: the
/// crate cache (filled by building the standard verbs) and the guest target.
fn new_rust_project(name: &str) -> (Sandbox, PathBuf) {
    plugins::standard_dir();
    plugins::add_guest_target();
    let sb = Sandbox::new();
    let dir = new_project(&sb, name, "rust");
    (sb, dir)
}

/// The component `build` makes of the project at `dir` (it is given the path to
/// write), built only when no component of exactly these project files was built
/// before: a rerun, or another test of the same project, reuses it.
pub fn component(dir: &Path, build: impl FnOnce(&Path)) -> PathBuf {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for (path, bytes) in project_files(dir, dir) {
        path.hash(&mut hasher);
        bytes.hash(&mut hasher);
    }
    let name = dir.file_name().expect("named").to_string_lossy();
    let cached = cache_dir().join(format!("{name}-{:016x}.wasm", hasher.finish()));
    if !cached.exists() {
        std::fs::create_dir_all(cache_dir()).expect("cache dir");
        let fresh = cache_dir().join(format!("{name}-{}.wasm.part", std::process::id()));
        build(&fresh);
        std::fs::rename(&fresh, &cached).expect("keep the built component");
        // Components of earlier versions of this project are not needed again.
        for entry in std::fs::read_dir(cache_dir()).expect("cache dir").flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let stale = file
                .strip_prefix(&format!("{name}-"))
                .is_some_and(|rest| rest.len() == 16 + ".wasm".len() && rest.ends_with(".wasm"));
            if stale && entry.path() != cached {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    cached
}

/// Every source file under `dir`, sorted, without what builds and installs add.
fn project_files(root: &Path, dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("project dir").flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if ["node_modules", "target", ".venv", "__pycache__"].contains(&name.as_str())
            || name.ends_with(".wasm")
            || name == "package-lock.json"
            || name == "Cargo.lock"
        {
            continue;
        }
        if path.is_dir() {
            files.extend(project_files(root, &path));
        } else {
            let relative = path.strip_prefix(root).expect("inside").to_string_lossy();
            files.push((relative.into_owned(), std::fs::read(&path).expect("read")));
        }
    }
    files.sort();
    files
}

/// `verbs add` of a component, allowed as long as compiling a big one takes.
pub fn add(sb: &Sandbox, wasm: &Path) -> Output {
    let out = sb.mur_within(
        &["devtools", "verbs", "add", wasm.to_str().expect("utf-8")],
        BUILD_LIMIT,
    );
    out.assert_code(0);
    out
}

/// The kit named verb `name` in its component (section `mur:verb-name`), so
/// adding the same file again is seen to be installed already, with nothing
/// compiled (`-v` would say `compiling verb`).
pub fn added_again_without_compiling(sb: &Sandbox, wasm: &Path, name: &str) {
    let again = sb.mur(&[
        "devtools",
        "-v",
        "verbs",
        "add",
        wasm.to_str().expect("utf-8"),
    ]);
    again
        .assert_code(0)
        .assert_stdout_is(format!("verb `{name}` is already installed (unchanged)\n"));
    assert!(!again.stderr.contains("compiling verb"), "{again}");
}

/// The text of `#count` in the running sample app.
pub fn count(sb: &Sandbox) -> String {
    let out = sb.call_tool("state", r##"{"selector": "#count"}"##);
    out.assert_code(0);
    let state = out.json();
    let text = state["structuredContent"]["text"]
        .as_str()
        .or_else(|| state["text"].as_str());
    text.unwrap_or_else(|| panic!("no count text in {state}"))
        .to_owned()
}

/// What every scaffolded verb does once added: it clicks what a selector
/// matches, prints the tool's structured result, refuses bad argv with its
/// usage (exit 1), and reports a failed tool (exit 5).
pub fn clicks_like_the_template(sb: &Sandbox, verb: &str) {
    let sample = sb.start_app();
    assert_eq!(count(sb), "0");
    let click = sb.mur(&["devtools", verb, "#btn-inc"]);
    click.assert_code(0);
    assert!(click.json().is_object(), "{click}");
    sb.mur(&["devtools", verb, "#btn-inc", "--pretty"])
        .assert_code(0);
    assert_eq!(count(sb), "2");
    // The selector as an option too, as the standard verbs take theirs.
    sb.mur(&["devtools", verb, "--selector", "#btn-inc"])
        .assert_code(0);
    assert_eq!(count(sb), "3");
    // A misspelt option is told the one likely meant, in the Rust kit's words.
    sb.mur(&["devtools", verb, "--selectr", "#btn-inc"])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: {verb}: unknown option `--selectr`; did you mean `--selector`?\n\
             hint: `mur devtools {verb} --help` shows its usage\n"
        ));

    let help = sb.mur(&["devtools", verb, "--help"]);
    help.assert_code(0);
    // Its usage line is the standard `click`'s shape, composed by its kit: it was mur's
    // `{verb} <selector> [--selector S] [--timeout MS]`, from every option declared.
    assert!(
        help.stdout
            .starts_with(&format!("Usage: mur devtools {verb} <selector>\n"))
            && help.stdout.contains("the element to click")
            && help
                .stdout
                .contains("\n  --selector S  the same as `<selector>`\n"),
        "{help}"
    );
    let extra = sb.mur(&["devtools", verb, "#a", "#b"]);
    extra.assert_code(1);
    extra.assert_stderr_contains("unexpected argument `#b`");
    let missing = sb.mur(&["devtools", verb]);
    missing.assert_code(1);
    missing.assert_stderr_contains("missing argument `<selector>`");
    sb.mur(&["devtools", verb, "#missing"]).assert_code(5);
    drop(sample);
}

/// `verbs new NAME --lang LANG` makes a project holding `files`, which
/// `test_and_build` tests and builds to a component; added, it is verb `NAME` for
/// the tool `click` and clicks like the template.
pub fn scaffolded_verb_clicks(
    name: &str,
    lang: &str,
    files: &[&str],
    test_and_build: fn(&Path) -> PathBuf,
) {
    let sb = Sandbox::new();
    let dir = new_project(&sb, name, lang);
    for file in files {
        assert!(dir.join(file).is_file(), "no {file}");
    }
    let wasm = test_and_build(&dir);
    let added = add(&sb, &wasm);
    assert_eq!(
        added.stdout,
        format!("added verb `{name}` (tool `click`)\n")
    );
    // componentize-py names itself in no producers section: a Python verb was `Rust`.
    let language = match lang {
        "python" => "Python",
        "js" => "JavaScript",
        other => panic!("no language for `{other}`"),
    };
    let info = sb.devtools(&["verbs", "info", name]);
    info.assert_code(0);
    assert!(
        info.stdout.contains(&format!("\nlanguage:  {language}\n")),
        "{info}"
    );
    added_again_without_compiling(&sb, &wasm, name);
    clicks_like_the_template(&sb, name);
}

/// A project `verbs new NAME --lang LANG` made in a new sandbox, its verb (`source`) then
/// made one's own as docs/verbs.md says: each `(from, to)` of `edits` replaced once. Its
/// native tests are the caller's to run: no build.
pub fn made_one_s_own(
    (name, lang): (&str, &str),
    source: &str,
    edits: &[(&str, &str)],
) -> (Sandbox, PathBuf) {
    let sb = Sandbox::new();
    let dir = new_project(&sb, name, lang);
    let path = dir.join(source);
    let mut code = std::fs::read_to_string(&path).expect(source);
    for (from, to) in edits {
        assert!(code.contains(from), "{source} has no {from:?}:\n{code}");
        code = code.replacen(from, to, 1);
    }
    std::fs::write(&path, code).expect(source);
    (sb, dir)
}

/// A new sandbox with the verb `name` that fails on purpose, and `mur-sample`
/// running for it to call: a project `verbs new NAME --lang LANG` made, its
/// `source` file replaced by `code` and the template's tests (`tests`) removed,
/// tested and built by `test_and_build`, and added.
pub fn failing_verb_session(
    (name, lang): (&str, &str),
    (source, code): (&str, &str),
    tests: &str,
    test_and_build: fn(&Path) -> PathBuf,
) -> (Sandbox, Session) {
    let sb = Sandbox::new();
    let dir = new_project(&sb, name, lang);
    std::fs::write(dir.join(source), code).expect(source);
    std::fs::remove_file(dir.join(tests)).expect("the template's tests go");
    let wasm = test_and_build(&dir);
    add(&sb, &wasm);
    let sample = sb.start_app();
    (sb, sample)
}

/// What every kit says of a wait `verbs add` would refuse, after "verb `NAME` declares
/// ": `verbs add`'s sentence (mur's crates/verbs/src/spec.rs) and whose rule it is. The
/// wait is on `argument`, the key param `named` (as `option `--text``) of `kind` is sent
/// under.
pub fn wait_refused(argument: &str, named: &str, kind: &str) -> String {
    host_refuses(format!(
        "a wait (`mur:verb-waits`) on `{argument}`, the argument its {named} of kind `{kind}` \
         is sent as: the host sets a wait's argument to a number of milliseconds, so it must be \
         a key no param of the verb declares, or an `integer` param's"
    ))
}

/// What every kit says of a wait on `argument`, the key `named` (`option `--delay``,
/// shown as `--delay`) of kind `milliseconds` would be sent under, as [`wait_refused`]:
/// a milliseconds value is never sent, so the user's was dropped.
pub fn never_sent_refused(argument: &str, named: &str, shown: &str) -> String {
    host_refuses(format!(
        "a wait (`mur:verb-waits`) on `{argument}`, the key its {named} of kind `milliseconds` \
         would be sent under, but a milliseconds value is never sent: the wait's value is the \
         verb's own `--timeout MS`; drop `{shown}`, or give it kind `integer`"
    ))
}

/// What every kit says of choices on `named` (`option `--times``), of `kind`, as
/// [`wait_refused`].
pub fn choices_refused(named: &str, kind: &str) -> String {
    host_refuses(format!(
        "choices for {named}, of kind `{kind}`: only a `choice` param is held to its choices; \
         make it kind `choice`, or leave out its choices"
    ))
}

/// What every kit says of `named`, a `choice` with no choices, as [`wait_refused`].
pub fn no_choices_refused(named: &str) -> String {
    host_refuses(format!(
        "{named} of kind `choice` with no choices, which would refuse every value: give it its \
         choices, or another kind"
    ))
}

fn host_refuses(why: String) -> String {
    format!("{why}; `mur devtools verbs add` would refuse it")
}

/// A verb its kit cannot take as declared (`code`, written over `source` of a new
/// project `verbs new NAME --lang LANG` made) fails that project's build (`build`:
/// the command building the project at the first path into the second) in one line,
/// `said`, naming the file and line and what is wrong: exit 1, nothing written.
/// componentize-py and componentize-js fail on it too, with that line deep in a
/// trace of their own; the build says it before it runs them, so this builds nothing.
pub fn a_refused_declaration_fails_the_build_in_one_line(
    (name, lang): (&str, &str),
    (source, code): (&str, &str),
    build: fn(&Path, &Path) -> std::process::Command,
    said: &str,
) {
    let sb = Sandbox::new();
    let dir = new_project(&sb, name, lang);
    std::fs::write(dir.join(source), code).expect(source);
    let out = dir.join(format!("{name}.wasm"));
    let mut command = build(&dir, &out);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let (built, _) = run_within(&mut command, BUILD_LIMIT);
    built.assert_code(1).assert_stderr_is(format!("{said}\n"));
    assert!(!out.exists(), "a refused build wrote {}", out.display());
}

/// The failing verb `code` (of `verb`, `(name, lang)`, its source file `source`) with
/// each `(from, to, said)`'s first `from` made `to` fails its build (`build`, the
/// project's script `script`) with the one line `SCRIPT: said`.
pub fn each_change_fails_the_build_so(
    verb: (&str, &str),
    (source, code): (&str, &str),
    (script, build): (&str, fn(&Path, &Path) -> std::process::Command),
    rows: &[(&str, &str, String)],
) {
    for (from, to, said) in rows {
        assert!(code.contains(from), "{from}");
        a_refused_declaration_fails_the_build_in_one_line(
            verb,
            (source, &code.replacen(from, to, 1)),
            build,
            &format!("{script}: {said}"),
        );
    }
}

/// `mur devtools VERB --fail HOW` for a test verb that fails on request, after checking
/// its exit code.
pub fn fail(sb: &Sandbox, verb: &str, how: &str, code: i32) -> Output {
    let out = sb.mur(&["devtools", verb, "--fail", how]);
    out.assert_code(code);
    out
}

/// What every language's failing test verb does the same way: an error the verb raises
/// from `shape` is its own message (exit 6), a bad `--fail` is the kit's usage error
/// (exit 1) in the standard verbs' words, "did you mean" included, and a string
/// returned for stdout is printed.
pub fn fails_like_every_verb(sb: &Sandbox, verb: &str) {
    fail(sb, verb, "refuse", 6).assert_stderr_contains("the result has no version");
    fail(sb, verb, "later", 1).assert_stderr_contains(
        "`--fail` must be `parse`, `shape`, `refuse`, `number` or `text`, got `later`",
    );
    for (argv, message) in [
        (
            &["shape"][..],
            "unexpected argument `shape`; did you mean `--fail shape`?",
        ),
        (
            &["--fial", "text"],
            "unknown option `--fial`; did you mean `--fail`?",
        ),
        // A choice's nearest word, as the Rust kit names it.
        (
            &["--fail", "shap"],
            "`--fail` must be `parse`, `shape`, `refuse`, `number` or `text`, got `shap`; did you mean `shape`?",
        ),
        // The one option that is no choice, only for a word it takes.
        (&["3"], "unexpected argument `3`; did you mean `--times 3`?"),
        (&["many"], "unexpected argument `many`"),
        (
            &["--timeout", "0"],
            "invalid value `0` for `--timeout <MS>`: the bound must be at least 1 ms",
        ),
        (
            &["--timeout", "99999999999"],
            "invalid value `99999999999` for `--timeout <MS>`: the bound is at most \
             4294967295 ms (about 49 days)",
        ),
        // A digit, to Python's str.isdigit(), but no number to int().
        (
            &["--timeout", "²"],
            "invalid value `²` for `--timeout <MS>`: `²` is not a whole number of \
             milliseconds (e.g. `5000`)",
        ),
    ] {
        let out = sb.devtools(&[&[verb][..], argv].concat());
        out.assert_code(1)
            .assert_stderr_starts_with(&format!("error: {verb}: {message}\n"));
    }
    let text = fail(sb, verb, "text", 0);
    assert_eq!(text.stdout, "shaped as text\n", "{text}");
}

/// `verbs new NAME --lang rust` for the tool `NAME` of a session started (with `extra`)
/// for the making alone: the verb's directory, its `src/lib.rs` and that file's text.
fn rust_verb_made_for_a_session_tool(
    sb: &Sandbox,
    extra: &[&str],
    name: &str,
) -> (PathBuf, PathBuf, String) {
    let project = sb.project("app");
    let session = sb.start_sample_with(&project, extra);
    let src = sb.dir("src");
    let project_arg = project.to_str().expect("utf-8");
    verbs_new(sb, &["--project", project_arg], name, "rust", &src).assert_code(0);
    drop(session);
    let dir = src.join(name);
    let lib = dir.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).expect("lib.rs");
    (dir, lib, text)
}

/// Writes `text` as the verb's `lib` (its source with a test module added) and runs
/// that module's one test, `test`, natively, as the verb's author would: it passes.
#[track_caller]
fn passes_its_own_test(sb: &Sandbox, dir: &Path, lib: &Path, text: String, test: &str) {
    std::fs::write(lib, text).expect("lib.rs");
    assert_one_test_passed(&run_as_user(sb, dir, &format!("cargo test {test}\n")));
}

/// Asserts a `cargo test` of a verb's own exited 0, its one test passed.
#[track_caller]
fn assert_one_test_passed(tested: &Output) {
    assert_eq!(tested.code, 0, "{tested}");
    assert!(
        tested.stdout.contains("test result: ok. 1 passed"),
        "{tested}"
    );
}

/// The ```sh blocks of a project's README.md, in order, as one script.
pub fn readme_script(dir: &Path) -> String {
    let readme = std::fs::read_to_string(dir.join("README.md")).expect("README.md");
    let script: String = fenced_blocks(&readme)
        .into_iter()
        .filter(|block| block.lang == "sh")
        .map(|block| block.script)
        .collect();
    assert!(!script.is_empty(), "README.md has no ```sh block");
    script
}

/// Runs `script` with `bash -eo pipefail` in `dir` as a user of the sandbox
/// would, the way the docs' examples run (transcripts.rs): the built `mur` first
/// on PATH, the Rust toolchain of this run, offline (the standard verbs' build
/// filled the crate cache), the verb builds' shared intermediate directory (the
/// project's own `target/` stays where its README says).
pub fn run_as_user(sb: &Sandbox, dir: &Path, script: &str) -> Output {
    let bin_dir = mur_e2e::mur_bin().parent().expect("bin dir").to_owned();
    let rest = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(&rest)))
        .expect("PATH");
    let mut bash = sb.command(Path::new("bash"));
    bash.args(["-eo", "pipefail", "-c", script])
        .env("PATH", path)
        .env("CARGO_BUILD_BUILD_DIR", plugins::verb_build_dir())
        .env("CARGO_NET_OFFLINE", "true")
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let home = std::env::var_os("HOME").map(PathBuf::from);
    for (name, default) in [("CARGO_HOME", ".cargo"), ("RUSTUP_HOME", ".rustup")] {
        let value =
            std::env::var_os(name).or_else(|| home.as_ref().map(|h| h.join(default).into()));
        if let Some(value) = value {
            bash.env(name, value);
        }
    }
    if let Some(toolchain) = std::env::var_os("RUSTUP_TOOLCHAIN") {
        bash.env("RUSTUP_TOOLCHAIN", toolchain);
    }
    run_within(&mut bash, BUILD_LIMIT).0
}

/// The scaffolded crate's README is followed word for word: its native tests pass,
/// it builds for wasm32-wasip2, `verbs add` installs the component at the path the
/// README gives (it once gave `target/…/release/target/…/release/…`), and the
/// verb's help and a click work against a running `mur-sample`.
#[test]
fn a_scaffolded_rust_verb_tests_builds_installs_and_clicks() {
    let (sb, dir) = new_rust_project("bump");
    assert!(dir.join("vendor/mur-verb-kit/src/lib.rs").is_file());
    let lib = std::fs::read_to_string(dir.join("src/lib.rs")).expect("lib.rs");
    assert!(lib.contains("selector_verb!") && lib.contains("#[cfg(test)]"));

    let sample = sb.start_app();
    let script = readme_script(&dir);
    let followed = run_as_user(&sb, &dir, &script);
    assert_eq!(
        followed.code, 0,
        "the README's commands failed:\n{script}\n{followed}"
    );
    // Its own native tests pass: the template's and the kit's selector checks.
    assert!(
        followed.stdout.contains("test result: ok. 2 passed"),
        "{followed}"
    );
    assert!(
        followed
            .stdout
            .contains("added verb `bump` (tool `click`)\n")
            && followed
                .stdout
                .contains("Usage: mur devtools bump <selector>"),
        "{followed}"
    );
    assert_eq!(count(&sb), "1", "the README's click");
    drop(sample);

    // Built as the template says, it keeps its producers section: `verbs info` names
    // the language, as it does for the standard verbs.
    let info = sb.devtools(&["verbs", "info", "bump"]);
    info.assert_code(0);
    assert!(info.stdout.contains("\nlanguage:  Rust\n"), "{info}");
    let wasm = dir.join("target/wasm32-wasip2/release/mur_verb_bump.wasm");
    sizes_said_are_the_size_built(&dir, &wasm);
    added_again_without_compiling(&sb, &wasm, "bump");
    clicks_like_the_template(&sb, "bump");
}

/// The size the project's README.md tells a teammate the file is, and docs/verbs.md a
/// Rust verb, is that of the component the README's build wrote, to the 0.01 MB they
/// round to and a little over (audit 271: both said 0.15 MB of a 0.25 MB component).
fn sizes_said_are_the_size_built(dir: &Path, wasm: &Path) {
    let built = std::fs::metadata(wasm).expect("the component built").len() as f64 / 1e6;
    let said = |file: &Path, before: &str| -> f64 {
        let text = std::fs::read_to_string(file).expect("readable");
        text.split_once(before)
            .and_then(|(_, rest)| rest.split_once(" MB"))
            .and_then(|(size, _)| size.parse().ok())
            .unwrap_or_else(|| panic!("{} says no `{before}N MB`", file.display()))
    };
    for (file, before) in [
        (dir.join("README.md"), "(about "),
        (repo_root().join("docs/verbs.md"), "Rust verb is about "),
    ] {
        let size = said(&file, before);
        assert!(
            (size - built).abs() <= 0.03,
            "{} says {size} MB; the component built is {built:.3} MB",
            file.display()
        );
    }
}

/// A Rust verb (the template's crate) that writes on stderr in `parse` and again in
/// `shape`, then panics there. Its type is `Component`, the name `export_verb!` once
/// gave its own struct: the verb was shadowed by it and did not build (as `verbs new
/// component` did not).
const PROBE: &str = r#"use mur_verb_kit::{About, Args, Map, Shaped, Spec, Value, Verb};

pub struct Component;

impl Verb for Component {
    const ABOUT: About = About {
        name: "probe",
        tool: "version",
        summary: "Panic in shape after writing on stderr",
        synopsis: "probe",
        details: "",
        examples: &[],
    };
    const SPEC: Spec = Spec::NONE;

    fn arguments(_: &Args) -> Result<Map<String, Value>, String> {
        eprintln!("probe: checking the selector");
        Ok(Map::new())
    }

    fn shape(_: &Args, _: &Value, _: bool) -> Result<Shaped, String> {
        eprintln!("probe: shaping the result");
        panic!("probe panicked on purpose")
    }
}

mur_verb_kit::export_verb!(Component);
"#;

/// The component of the Rust verb project `dir` (crate `mur_verb_<name>`), built as its
/// user builds it (`cargo build --release --target wasm32-wasip2`), which must succeed.
pub fn built_by_the_user(sb: &Sandbox, dir: &Path, name: &str) -> PathBuf {
    component(dir, |out| {
        let script = format!(
            "cargo build --release --target wasm32-wasip2\n\
             cp target/wasm32-wasip2/release/mur_verb_{name}.wasm '{}'\n",
            out.display()
        );
        let built = run_as_user(sb, dir, &script);
        assert_eq!(built.code, 0, "{built}");
    })
}

/// A crash is told by the panic, not by what the verb wrote before it (that was
/// the reason, and the panic's message was shown nowhere); `-v` shows the verb's
/// stderr on a crash too, each line once, though `parse` and `shape` share a store.
#[test]
fn a_rust_verb_s_panic_is_told_by_its_message_whatever_it_wrote_before() {
    let (sb, dir) = new_rust_project("probe");
    std::fs::write(dir.join("src/lib.rs"), PROBE).expect("lib.rs");
    let wasm = built_by_the_user(&sb, &dir, "probe");
    add(&sb, &wasm);
    let _sample = sb.start_app();

    let out = sb.mur(&["devtools", "probe"]);
    out.assert_code(6).assert_stderr_is(
        "error: verb `probe` crashed: panicked at src/lib.rs:23:9: probe panicked on purpose\n\
         hint: the `version` call itself already ran; its result is printed as it is\n",
    );

    let verbose = sb.mur(&["devtools", "-v", "probe"]);
    verbose.assert_code(6);
    assert_eq!(
        verbose
            .stderr
            .matches("probe: checking the selector")
            .count(),
        1,
        "{verbose}"
    );
    assert!(
        verbose.stderr.contains("probe: shaping the result")
            && verbose.stderr.matches("probe panicked on purpose").count() == 2,
        "the whole stderr, then the error: {verbose}"
    );
}

/// A Rust verb (the template's crate) whose tool waits on its `--text`, or whose
/// `--text` is a choice of none, per `pick`.
fn picking(pick: &str) -> String {
    let (kind, waits) = match pick {
        "text" => (
            "Kind::Text",
            "Some(Waits { argument: \"text\", default_ms: 5000 })",
        ),
        "millis" => (
            "Kind::Millis",
            "Some(Waits { argument: \"text\", default_ms: 5000 })",
        ),
        _ => ("Kind::Choice(&[])", "None"),
    };
    format!(
        r#"use mur_verb_kit::{{About, Kind, Opt, Spec, Verb, Waits}};

pub struct Pick;

impl Verb for Pick {{
    const ABOUT: About = About {{
        name: "pick",
        tool: "waitFor",
        summary: "Wait for a text",
        synopsis: "",
        details: "",
        examples: &[],
    }};
    const SPEC: Spec = Spec {{
        options: &[Opt::value("text", "X", {kind}, "until its text is X")],
        ..Spec::NONE
    }};
    const WAITS: Option<Waits> = {waits};
}}

mur_verb_kit::export_verb!(Pick);
"#
    )
}

/// What `verbs add` would refuse of a Rust verb's choices and its wait fails its build, in
/// `verbs add`'s words, at the line that exports it: a wait on the key one of its own
/// params is sent under (a milliseconds one's too: its value is never sent), a `choice`
/// with no choices (choices on another kind cannot be declared in Rust). Each built and
/// was refused only by `verbs add` (the milliseconds one was taken).
#[test]
fn a_rust_verb_declaring_what_verbs_add_refuses_does_not_build() {
    let (sb, dir) = new_rust_project("pick");
    for (pick, said) in [
        ("text", wait_refused("text", "option `--text`", "text")),
        (
            "millis",
            never_sent_refused("text", "option `--text`", "--text"),
        ),
        ("none", no_choices_refused("option `--text`")),
    ] {
        std::fs::write(dir.join("src/lib.rs"), picking(pick)).expect("lib.rs");
        let built = run_as_user(&sb, &dir, "cargo build --release --target wasm32-wasip2\n");
        assert_ne!(built.code, 0, "{built}");
        let said = format!(
            "error[E0080]: evaluation panicked: verb `pick` declares {said}\n  --> src/lib.rs:21:1\n"
        );
        assert!(built.stderr.contains(&said), "{said}\n{built}");
        assert!(
            !dir.join("target/wasm32-wasip2/release/mur_verb_pick.wasm")
                .exists()
        );
    }
}

#[test]
fn verbs_new_refuses_bad_names_and_existing_directories() {
    let sb = Sandbox::new();
    let root = sb.root().to_str().expect("utf-8 path").to_owned();
    let bad = sb.mur(&["devtools", "verbs", "new", "Bad_Name", "--dir", &root]);
    bad.assert_code(1);
    bad.assert_stderr_starts_with("error: `Bad_Name` is not a verb name\nhint: ");
    std::fs::create_dir(sb.root().join("taken")).expect("dir");
    for lang in ["rust", "python", "js"] {
        let taken = sb.mur(&[
            "devtools", "verbs", "new", "taken", "--lang", lang, "--dir", &root,
        ]);
        taken.assert_code(1);
        assert!(
            taken.stderr.contains("already exists") && taken.stderr.contains("hint: "),
            "{taken}"
        );
        let reserved = sb.mur(&[
            "devtools", "verbs", "new", "call", "--lang", lang, "--dir", &root,
        ]);
        reserved.assert_code(1);
        reserved.assert_stderr_contains("answers itself");
    }
    assert!(!sb.root().join("call").exists());

    // `--dir` naming a file: the user's to fix (exit 1), with the fix, not "mur itself
    // failed" (exit 7).
    let afile = sb.root().join("afile");
    std::fs::write(&afile, "").expect("a file");
    let into_a_file = sb.mur(&[
        "devtools",
        "verbs",
        "new",
        "foo",
        "--dir",
        afile.to_str().expect("utf-8 path"),
    ]);
    into_a_file.assert_code(1).assert_stderr_is(format!(
        "error: `--dir` `{}` cannot hold the new verb: it is not a directory\n\
         hint: name a directory with `--dir PATH`: one that exists, or a new one inside one that exists\n",
        afile.display()
    ));
}

/// A project whose writing fails half-way (here at the file size limit) is not left
/// half-written: nothing is there afterwards, and the same command then makes it.
#[test]
fn verbs_new_cut_short_leaves_nothing_and_can_be_run_again() {
    let sb = Sandbox::new();
    let half = sb.dir("half");
    // `ulimit -f 4`: no file may grow past 4 KiB (`wit/verb.wit` does); SIGXFSZ ignored.
    let cut = mur_e2e::run(
        &mut sb.shell_command("trap '' XFSZ; ulimit -f 4; mur devtools verbs new bump --dir half"),
    );
    cut.assert_code(7);
    cut.assert_stderr_starts_with(
        "error: could not write `half/bump/wit/verb.wit`: File too large",
    );
    let left: Vec<_> = std::fs::read_dir(&half).expect("half").collect();
    assert!(left.is_empty(), "nothing left: {left:?}");
    let again = sb.mur(&["devtools", "verbs", "new", "bump", "--dir", "half"]);
    again.assert_code(0);
    assert!(half.join("bump/wit/verb.wit").is_file(), "{again}");
}

/// `--lang` takes each language's short and long name alike: `py` as `javascript` is
/// (`py` was refused with "did you mean `python`?" while `javascript` was taken).
#[test]
fn verbs_new_takes_py_for_python_as_it_takes_javascript_for_js() {
    let sb = Sandbox::new();
    for (name, lang, file) in [("pyv", "py", "app.py"), ("jsv", "javascript", "verb.js")] {
        let dir = new_project(&sb, name, lang);
        assert!(dir.join(file).is_file(), "{lang}: no {file}");
    }
}

/// `--lang` takes a language in any case (`Python` was refused, though `py` and
/// `javascript` were taken), and its help names those other names, which the possible
/// values do not (review 507, 8).
#[test]
fn verbs_new_takes_a_language_in_any_case_and_its_help_names_every_spelling() {
    let sb = Sandbox::new();
    for (name, lang, file) in [
        ("pyv", "Python", "app.py"),
        ("jsv", "JS", "verb.js"),
        ("jsw", "JavaScript", "verb.js"),
        ("rsv", "RUST", "src/lib.rs"),
    ] {
        let dir = new_project(&sb, name, lang);
        assert!(dir.join(file).is_file(), "{lang}: no {file}");
    }
    let help = sb.devtools(&["verbs", "new", "--help"]);
    help.assert_code(0).assert_stdout_contains(
        "The language the verb is written in (any case; also `py`, `javascript`)",
    );
}

/// The `[profile.release]` settings of a Cargo manifest, comments and blank lines left out.
fn release_profile(manifest: &str) -> Vec<String> {
    manifest
        .lines()
        .skip_while(|line| line.trim() != "[profile.release]")
        .skip(1)
        .take_while(|line| !line.trim_start().starts_with('['))
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// The standard verbs, the cli-compact verbs, the test guests and a scaffolded Rust verb are
/// built with one release profile: the intermediate builds they share are built once
/// (cargo keys them by profile), and each keeps the producers section `verbs info` reads
/// the language from (a scaffolded verb's said `unknown` while its template had `strip =
/// true`).
#[test]
fn the_verb_workspaces_and_the_rust_template_share_one_release_profile() {
    let read = |path: &str| std::fs::read_to_string(repo_root().join(path)).expect(path);
    let standard = release_profile(&read("plugins/Cargo.toml"));
    assert!(
        standard.iter().any(|line| line == r#"strip = "debuginfo""#),
        "{standard:?}"
    );
    for other in [
        "plugins/compact/Cargo.toml",
        "tests/guests/Cargo.toml",
        "crates/verbs/src/scaffold/rust/Cargo.toml.tmpl",
    ] {
        assert_eq!(release_profile(&read(other)), standard, "{other}");
    }
}

/// `verbs new` of a name an installed verb has warns that the next steps'
/// `verbs add` is refused and `--force` would replace it (it said nothing, and the
/// `--force` they gave replaced the standard `click` silently); a name no verb has gets
/// no warning. The next steps add without `--force`, so a verb of that name is never
/// replaced by following them (review 507, 4).
#[test]
fn verbs_new_warns_when_the_name_is_an_installed_verb() {
    let sb = plugins::sandbox_with(&[plugins::guest("ping")]);
    let src = sb.dir("src");
    let dir = src.to_str().expect("utf-8 path");
    let new = sb.devtools(&["verbs", "new", "ping", "--dir", dir]);
    new.assert_code(0);
    let root = std::fs::canonicalize(src.join("ping")).expect("project");
    let steps = |name: &str, root: &Path| {
        format!(
            "created verb `{name}`; next:\n  cd {}\n  cargo test\n  \
             rustup target add wasm32-wasip2\n  \
             cargo build --release --target wasm32-wasip2\n  \
             mur devtools verbs add target/wasm32-wasip2/release/mur_verb_{name}.wasm\n  \
             mur devtools {name} --help\n",
            root.display()
        )
    };
    assert_eq!(
        new.stderr,
        format!(
            "warning: a verb `ping` is installed already (tool `version`); the `verbs add` \
             below is refused, and `verbs add --force` would replace it: to keep it, pick \
             another name (e.g. `my-ping`)\n{}",
            steps("ping", &root)
        )
    );
    // Far from `ping` too: `pong`, one slip from it, gets a note of its own
    // (verbs_manage.rs, `verbs_new_near_an_installed_verb_is_noted…`).
    let fresh = sb.devtools(&["verbs", "new", "bump", "--dir", dir]);
    fresh.assert_code(0);
    let root = std::fs::canonicalize(src.join("bump")).expect("project");
    assert_eq!(fresh.stderr, steps("bump", &root));
}

/// The rows of the table `table` (`names`, `milliseconds`) between `TABLE: begin` and
/// `TABLE: end` in a kit's test source, each as `("value", verdict)` with the escapes
/// `\u{XXXX}` written `\uXXXX`: the same text whatever the language wrote it in.
fn table_rows(source: &str, table: &str) -> Vec<String> {
    let begin = source
        .find(&format!("{table}: begin"))
        .unwrap_or_else(|| panic!("a table of {table}"));
    let end = source.find(&format!("{table}: end")).expect("its end");
    source[begin..end]
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|line| {
            line.starts_with(['(', '[']) && (line.ends_with("),") || line.ends_with("],"))
        })
        .map(|line| {
            let row = format!("({})", &line[1..line.len() - 2]);
            let row = row.replace("True)", "true)").replace("False)", "false)");
            let mut out = String::new();
            let mut rest = row.as_str();
            while let Some(at) = rest.find("\\u{") {
                let close = rest[at..].find('}').expect("a closed escape") + at;
                out += &format!("{}\\u{:0>4}", &rest[..at], &rest[at + 3..close]);
                rest = &rest[close + 1..];
            }
            out + rest
        })
        .collect()
}

/// The rows of the table `table` in the Rust kit's tests, after checking that the Python
/// and JavaScript kits' tests hold the same rows ([`table_rows`]).
fn one_table_in_three_kits(table: &str) -> Vec<String> {
    let root = repo_root();
    let read = |path: &str| {
        std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let rust = table_rows(&read("plugins/kit/src/tests.rs"), table);
    assert!(rust.len() > 20, "{rust:?}");
    for kit in [
        "crates/verbs/src/scaffold/python/test_kit.py",
        "crates/verbs/src/scaffold/js/kit.test.js",
    ] {
        assert_eq!(table_rows(&read(kit), table), rust, "{kit}");
    }
    rust
}

/// The Rust, Python and JavaScript kits' tests run one table of option names and
/// mur's verdict on each, which the Rust kit's test holds to the host's rule: so a
/// kit cannot drift from it unseen (the JavaScript kit took `→` and U+202E).
#[test]
fn the_three_kits_test_one_table_of_option_names() {
    let rust = one_table_in_three_kits("names");
    assert!(
        rust.contains(&r#"("x\u202ey", false)"#.to_owned()),
        "{rust:?}"
    );
}

/// The three kits' tests run one table of milliseconds values (`--timeout MS` and every
/// `milliseconds` option), and mur's own `--timeout` takes each a kit takes and refuses
/// each it refuses, one past a `u32` too, as "at most 4294967295 ms" (since b9b3920a: it
/// took one, which the kits cannot carry): the Rust kit took `+900`, the Python and
/// JavaScript kits refused it, and none took white space around the digits, all of
/// which mur takes.
#[test]
fn the_three_kits_read_milliseconds_as_mur_reads_its_timeout() {
    let rust = one_table_in_three_kits("milliseconds");
    let sb = Sandbox::new();
    for row in &rust {
        // `("\u3000+900\n", "900")`: JSON but for its parentheses.
        let json = format!("[{}]", &row[1..row.len() - 1]);
        let (value, verdict): (String, String) = serde_json::from_str(&json).expect(row);
        let out = sb.devtools(&["--timeout", &value, "verbs", "list"]);
        let refused = out.code == 1 && out.stderr.contains("--timeout <MS>");
        assert_eq!(refused, verdict.parse::<u32>().is_err(), "{row}: {out}");
        assert!(refused || out.code == 0, "{row}: {out}");
        let past = out.stderr.contains("at most 4294967295 ms");
        assert_eq!(past, verdict == "past u32", "{row}: {out}");
    }
}

/// The data verb `verbs add --help` shows, saved as it is printed in any directory,
/// adds and runs as it says: the help named data verbs only by their schema, and its
/// examples were files of a mur checkout.
#[test]
fn the_data_verb_verbs_add_help_shows_adds_and_runs_as_written() {
    let sb = Sandbox::new();
    let help = sb.devtools(&["verbs", "add", "--help"]);
    help.assert_code(0);
    let json: String = help
        .stdout
        .lines()
        .skip_while(|line| !line.contains("is the sample app's counter"))
        .skip(1)
        .take_while(|line| !line.starts_with("Its fields:"))
        .map(|line| format!("{line}\n"))
        .collect();
    assert!(json.contains("\"schema\": \"mur-verb/1\""), "{help}");
    let file = sb.dir("anywhere").join("count.json");
    std::fs::write(&file, &json).expect("count.json");
    let added = sb.devtools(&["verbs", "add", file.to_str().expect("utf-8 path")]);
    added.assert_code(0);
    assert_eq!(added.stdout, "added verb `count` (tool `state`)\n");
    let _sample = sb.start_app();
    let count = sb.devtools(&["count"]);
    count.assert_code(0);
    assert_eq!(count.stdout, "\"0\"\n");
    let other = sb.devtools(&["count", "--selector", "#btn-inc"]);
    other.assert_code(0);
    assert_eq!(other.stdout, "\"+\"\n");
}

/// `verbs new fire` with the sample running makes a Rust verb taking `fire`'s params
/// (`<target>`, `--args JSON`), not a `<selector>` the tool refuses: it tests, builds,
/// adds and sets the counter without an edit.
#[test]
fn a_rust_verb_made_for_a_session_tool_takes_its_params_and_works_unedited() {
    plugins::standard_dir();
    plugins::add_guest_target();
    let sb = Sandbox::new();
    let project = sb.project("app");
    let session = sb.start_sample(&project);
    let src = sb.dir("src");
    let project_arg = project.to_str().expect("utf-8");
    verbs_new(&sb, &["--project", project_arg], "fire", "rust", &src).assert_code(0);
    let dir = src.join("fire");
    let lib = std::fs::read_to_string(dir.join("src/lib.rs")).expect("lib.rs");
    assert!(
        lib.contains("Pos::new(\"target\", \"target\", Kind::Text, ")
            && lib.contains("Opt::value(\"args\", \"JSON\", Kind::Json, ")
            && !lib.contains("selector"),
        "{lib}"
    );
    let wasm = component(&dir, |out| {
        let script = format!(
            "cargo test\ncargo build --release --target wasm32-wasip2\n\
             cp target/wasm32-wasip2/release/mur_verb_fire.wasm '{}'\n",
            out.display()
        );
        assert_one_test_passed(&run_as_user(&sb, &dir, &script));
    });
    add(&sb, &wasm);
    // `mur devtools --project APP …`, as typed outside the project.
    let in_project =
        |words: &[&str]| sb.mur(&[&["devtools", "--project", project_arg][..], words].concat());
    let set = in_project(&["fire", "counter.set", "--args", r#"{"value": 5}"#]);
    set.assert_code(0);
    let state = in_project(&["call", "state", "--args", r##"{"selector": "#count"}"##]);
    state.assert_code(0);
    assert_eq!(state.json()["structuredContent"]["text"], "5", "{state}");
    // A boolean is given `true` or `false`, as to the derived verb: it was a flag,
    // which could only send `true`, and refused `--visible false`.
    verbs_new(&sb, &["--project", project_arg], "wait-for", "rust", &src).assert_code(0);
    let dir = src.join("wait-for");
    let lib = std::fs::read_to_string(dir.join("src/lib.rs")).expect("lib.rs");
    assert!(
        lib.contains(
            "Opt::value(\"visible\", \"true|false\", Kind::Choice(&[\"true\", \"false\"]), "
        ),
        "{lib}"
    );
    let wasm = built_by_the_user(&sb, &dir, "wait_for");
    add(&sb, &wasm);
    let hidden = in_project(&[
        "wait-for",
        "#btn-inc",
        "--visible",
        "false",
        "--timeout-ms",
        "0",
    ]);
    // `#btn-inc` stays visible: the tool, told `visible: false`, waits for it to hide.
    hidden.assert_code(5);
    assert!(
        hidden
            .stderr
            .contains("waiting for `#btn-inc` to be hidden; last seen"),
        "{hidden}"
    );
    drop(session);
}

/// A number param of a Rust verb made for a tool (the fixture `slow_compute`'s
/// `seconds`) is the kit's `Kind::Number`, read as the derived verb and the Python and
/// JavaScript kits read a number and sent as a JSON number (its own `cargo test`, run
/// natively). It was `Kind::Json`: `--seconds abc` was told "not valid JSON" and
/// `--seconds '"1"'` sent the string `"1"`.
#[test]
fn a_number_param_of_a_rust_verb_made_for_a_tool_is_read_and_sent_as_a_number() {
    let sb = Sandbox::new();
    let (dir, lib, mut text) =
        rust_verb_made_for_a_session_tool(&sb, &["--conformance-fixtures"], "slow-compute");
    assert!(
        text.contains("Opt::value(\"seconds\", \"NUMBER\", Kind::Number, "),
        "{text}"
    );
    text.push_str(
        r###"
#[cfg(test)]
mod numbers {
    use super::SlowComputeVerb;
    use mur_verb_kit::testing;

    #[test]
    fn seconds_is_a_number() {
        for (words, sent) in [
            (&["--seconds", "1.5"][..], r#"{"seconds":1.5}"#),
            (&["--seconds", "2"], r#"{"seconds":2}"#),
            (&["--seconds", "+1e1"], r#"{"seconds":10}"#),
            (&["--args", r#"{"seconds": 0.25}"#], r#"{"seconds":0.25}"#),
        ] {
            assert_eq!(testing::arguments::<SlowComputeVerb>(words).to_string(), sent);
        }
        for word in ["abc", "\"1\"", "1_000", "0x10", "NaN", "inf", "1e400"] {
            let error = testing::usage_error::<SlowComputeVerb>(&["--seconds", word]);
            let refused = format!("`--seconds` needs a number, got `{word}`");
            assert!(error.starts_with(&refused), "{error}");
        }
    }
}
"###,
    );
    passes_its_own_test(&sb, &dir, &lib, text, "seconds_is_a_number");
}

/// An integer param of a Rust verb made for a tool, without `"minimum": 0` (a stub's
/// `shift`, its `by` and `offset`), is the kit's `Kind::Integer`, read as the derived
/// verb and the Python and JavaScript kits read an `integer` (ASCII digits after at most
/// one sign, -2^63 to 2^64-1) and sent as a JSON number, exactly (its own `cargo test`,
/// run natively). It was `Kind::Json`: `--offset abc` was told "not valid JSON" and
/// `--offset '"1"'` sent the string `"1"`.
#[test]
fn an_integer_param_of_a_rust_verb_made_for_a_tool_is_read_and_sent_exactly() {
    let sb = Sandbox::new();
    let tools = serde_json::json!([{
        "name": "shift",
        "description": "Shifts",
        "inputSchema": {
            "type": "object",
            "properties": {
                "by": {"type": "integer"},
                "offset": {"type": "integer"},
            },
            "required": ["by"],
        },
    }]);
    let server = mur_e2e::Stub::echoing_arguments(tools);
    let src = sb.dir("src");
    let endpoint = server.endpoint();
    verbs_new(&sb, &["--endpoint", &endpoint], "shift", "rust", &src).assert_code(0);
    drop(server);
    let dir = src.join("shift");
    let lib = dir.join("src/lib.rs");
    let mut text = std::fs::read_to_string(&lib).expect("lib.rs");
    for line in [
        "Pos::new(\"by\", \"by\", Kind::Integer, ",
        "Opt::value(\"offset\", \"N\", Kind::Integer, ",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    text.push_str(
        r###"
#[cfg(test)]
mod integers {
    use super::ShiftVerb;
    use mur_verb_kit::testing;

    #[test]
    fn by_and_offset_are_integers() {
        for (words, sent) in [
            (&["2", "--offset", "-3"][..], r#"{"by":2,"offset":-3}"#),
            (&["--", "-12"], r#"{"by":-12}"#),
            (&["+7"], r#"{"by":7}"#),
            (&["1", "--offset", "18446744073709551615"], r#"{"by":1,"offset":18446744073709551615}"#),
            (&["--", "-9223372036854775808"], r#"{"by":-9223372036854775808}"#),
            (&["--args", r#"{"by": -5}"#], r#"{"by":-5}"#),
        ] {
            assert_eq!(testing::arguments::<ShiftVerb>(words).to_string(), sent);
        }
        for word in ["abc", "\"1\"", "1_000", "0x10", "1e3", "1.0", "NaN"] {
            let error = testing::usage_error::<ShiftVerb>(&["1", "--offset", word]);
            let refused = format!("`--offset` needs an integer, got `{word}`");
            assert!(error.starts_with(&refused), "{error}");
        }
        let error = testing::usage_error::<ShiftVerb>(&["1", "--offset", "18446744073709551616"]);
        let refused = "`--offset` is out of range: an integer from -9223372036854775808 to \
                       18446744073709551615, got `18446744073709551616`";
        assert!(error.starts_with(refused), "{error}");
        let error = testing::usage_error::<ShiftVerb>(&["-3"]);
        assert!(error.contains("put it after `--`"), "{error}");
    }
}
"###,
    );
    passes_its_own_test(&sb, &dir, &lib, text, "by_and_offset_are_integers");
}

/// A boolean param of a Rust verb made for a tool (`wait-for`'s `--visible`) takes the
/// words `true` and `false`, as the derived verb does, and sends the JSON value each
/// names (its own `cargo test`, run natively): any other word is refused naming the two.
/// It was `Kind::Json`: `--visible yes` was refused as no JSON and `--visible '"x"'`
/// sent the string `"x"`.
#[test]
fn a_boolean_param_of_a_rust_verb_made_for_a_tool_takes_true_or_false_alone() {
    let sb = Sandbox::new();
    let (dir, lib, mut text) = rust_verb_made_for_a_session_tool(&sb, &[], "wait-for");
    text.push_str(
        r###"
#[cfg(test)]
mod booleans {
    use super::WaitForVerb;
    use mur_verb_kit::testing;

    #[test]
    fn visible_is_true_or_false() {
        for (words, sent) in [
            (&["#x", "--visible", "false"][..], r##"{"selector":"#x","visible":false}"##),
            (&["#x", "--visible", "true"], r##"{"selector":"#x","visible":true}"##),
            (&["#x", "--args", r#"{"visible": false}"#], r##"{"visible":false,"selector":"#x"}"##),
        ] {
            assert_eq!(testing::arguments::<WaitForVerb>(words).to_string(), sent);
        }
        for (word, refused) in [
            ("yes", "`--visible` must be `true` or `false`, got `yes`"),
            ("\"x\"", "`--visible` must be `true` or `false`, got `\"x\"`"),
        ] {
            let error = testing::usage_error::<WaitForVerb>(&["#x", "--visible", word]);
            assert!(error.starts_with(refused), "{error}");
        }
    }
}
"###,
    );
    passes_its_own_test(&sb, &dir, &lib, text, "visible_is_true_or_false");
}
