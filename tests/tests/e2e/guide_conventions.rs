//! Conventions a newcomer expects: completion scripts that ask `mur` for the
//! installed verbs, `NO_COLOR`, an example in every `--help`, one-line errors with hints.

use mur_e2e::plugins::{sandbox_with, standard};
use mur_e2e::{Output, Sandbox, run};

fn mur_with_env(sb: &Sandbox, args: &[&str], env: &[(&str, &str)]) -> Output {
    run(sb.mur_command(args).envs(env.iter().copied()))
}

/// The scripts ask `mur` at each <Tab> (tests/tests/e2e/verbs_interface.rs
/// shows a verb added later completing with its options), so they name no verb.
#[test]
fn completion_scripts_ask_mur_itself() {
    let sb = sandbox_with(&[standard("click")]);
    for shell in ["bash", "zsh", "fish"] {
        let script = sb.mur(&["completions", shell]);
        script.assert_code(0);
        assert!(
            script.stdout.contains("COMPLETE=")
                && script.stdout.contains(shell)
                && !script.stdout.contains("click"),
            "{shell}\n{script}"
        );
    }
    // What bash's script runs at `mur devtools cli<Tab>`: the word at index 2.
    let click = sb.complete("bash", &["devtools", "cli"]);
    assert!(click.stdout.contains("click"), "{click}");
    sb.mur(&["completions", "tcsh"]).assert_code(1);
}

#[test]
fn no_color_turns_color_off_even_when_forced() {
    let sb = Sandbox::new();
    let forced = mur_with_env(&sb, &["--help"], &[("CLICOLOR_FORCE", "1")]);
    assert!(
        forced.stdout.contains('\u{1b}'),
        "the check needs colored help when forced\n{forced}"
    );
    let plain = mur_with_env(
        &sb,
        &["--help"],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
    );
    plain.assert_code(0);
    assert!(!plain.stdout.contains('\u{1b}'), "{plain}");
    let usage = mur_with_env(
        &sb,
        &["devtools", "--bogus"],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
    );
    usage.assert_code(1);
    assert!(!usage.stderr.contains('\u{1b}'), "{usage}");
}

#[test]
fn help_shows_examples_and_errors_carry_hints() {
    let sb = Sandbox::new();
    for args in [
        &["--help"][..],
        &["devtools", "--help"],
        &["devtools", "session", "list", "--help"],
        &["devtools", "guide", "--help"],
    ] {
        let out = sb.mur(args);
        out.assert_code(0);
        assert!(out.stdout.contains("Examples:\n  mur "), "{args:?}\n{out}");
    }
    let none = sb.mur(&["devtools", "tree"]);
    none.assert_code(4); // no verbs installed, no session: it may be a tool of the app
    let lines: Vec<&str> = none.stderr.lines().collect();
    assert!(
        lines[0].starts_with("error: ") && lines[1..].iter().all(|l| l.starts_with("hint: ")),
        "{none}"
    );
}

/// Every word mur starts a line of stderr with, as a run shows them (a warning, a
/// tool's progress, an error and its hint), is one the guide explains: R1 L8 found
/// `warning:` and `progress:` on stderr and not in its list.
#[test]
fn the_guide_names_every_prefix_a_run_puts_on_stderr() {
    let sb = Sandbox::new();
    // No session: the catalog warns that it lists no derived verb.
    let mut stderr = sb.mur(&["devtools", "catalog"]).stderr;
    let _app = sb.start_sample(&sb.project("app"));
    // The export reports its progress, even of an empty list.
    let export = sb.mur(&["devtools", "call", "exportTodos"]);
    export.assert_code(0);
    stderr.push_str(&export.stderr);
    stderr.push_str(
        &sb.mur(&["devtools", "call", "state", "--selector", "#x"])
            .stderr,
    );
    let prefix = |line: &str| {
        let (word, _) = line.split_once(": ")?;
        word.chars()
            .all(|c| c.is_ascii_lowercase())
            .then(|| format!("`{word}:"))
    };
    let mut prefixes: Vec<String> = stderr.lines().filter_map(prefix).collect();
    prefixes.sort();
    prefixes.dedup();
    assert_eq!(
        prefixes,
        ["`error:", "`hint:", "`progress:", "`warning:"],
        "{stderr}"
    );
    let guide = sb.mur(&["devtools", "guide"]).stdout;
    let told = guide
        .split("\n\n")
        .nth(1)
        .expect("the guide's first paragraph");
    for prefix in &prefixes {
        assert!(
            told.contains(prefix.as_str()),
            "{prefix} is not in:\n{told}"
        );
    }
}
