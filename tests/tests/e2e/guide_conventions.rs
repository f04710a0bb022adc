//! Conventions a newcomer expects: completion scripts that know the installed
//! verbs, `NO_COLOR`, an example in every `--help`, one-line errors with hints.

use mur_e2e::plugins::{add, standard};
use mur_e2e::{Output, Sandbox, run};

fn mur_with_env(sb: &Sandbox, args: &[&str], env: &[(&str, &str)]) -> Output {
    run(sb.mur_command(args).envs(env.iter().copied()))
}

#[test]
fn completions_include_the_installed_verbs() {
    let sb = Sandbox::new();
    for shell in ["bash", "zsh", "fish"] {
        let before = sb.mur(&["completions", shell]);
        before.assert_code(0);
        assert!(
            before.stdout.contains("session") && !before.stdout.contains("click"),
            "{shell}\n{before}"
        );
    }
    add(&sb, &[standard("click")]);
    for shell in ["bash", "zsh", "fish"] {
        let after = sb.mur(&["completions", shell]);
        after.assert_code(0);
        assert!(
            after.stdout.contains("click"),
            "{shell}: no `click`\n{after}"
        );
    }
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
    none.assert_code(1); // no verbs installed: unknown verb
    let lines: Vec<&str> = none.stderr.lines().collect();
    assert!(
        lines[0].starts_with("error: ") && lines[1..].iter().all(|l| l.starts_with("hint: ")),
        "{none}"
    );
}
