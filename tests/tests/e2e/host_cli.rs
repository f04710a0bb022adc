//! The command line itself: help, version, usage errors (exit 1, never
//! clap's 2), unknown verbs, and the server's own exit 3.

use mur_e2e::{Sandbox, Stub, another_session_line};

#[test]
fn devtools_help_lists_the_host_verbs_and_exits_0() {
    let sb = Sandbox::new();
    let out = sb.mur(&["devtools", "--help"]);
    out.assert_quiet_success();
    for verb in ["session", "call", "verbs"] {
        assert!(
            out.stdout.contains(&format!("\n  {verb} ")),
            "`{verb}` missing:\n{out}"
        );
    }
    for option in [
        "--endpoint <URL>",
        "--project <PATH>",
        "--auto",
        "--timeout <MS>",
        "--pretty",
    ] {
        assert!(out.stdout.contains(option), "`{option}` missing:\n{out}");
    }
}

#[test]
fn version_exits_0() {
    let out = Sandbox::new().mur(&["--version"]);
    out.assert_code(0)
        .assert_stdout_is(format!("mur {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn an_unknown_flag_is_a_usage_error_exit_1() {
    let out = Sandbox::new().mur(&["devtools", "call", "version", "--bogus"]);
    out.assert_code(1).assert_stdout_is("");
    out.assert_stderr_contains("--bogus");
}

/// `mur devtools` alone (or with an option alone) is refused as a group without its
/// command is: one line naming the commands, and where every verb is listed. It printed
/// its whole help (~60 lines) on stderr, while `mur devtools verbs` got one line.
#[test]
fn devtools_alone_is_refused_in_one_line_as_a_group_without_its_command() {
    let sb = Sandbox::new();
    for argv in [&["devtools"][..], &["devtools", "--pretty"]] {
        sb.mur(argv)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(
                "error: `mur devtools` needs a verb or a command: session, call, verbs, guide, \
                 catalog, parity, usage, bridge or proxy\n\
                 hint: `mur devtools catalog` lists every verb\n\
                 hint: usage: mur devtools [OPTIONS] <COMMAND> (`--help` shows more)\n",
            );
    }
}

/// `mur` alone is refused as `mur devtools` alone is, naming its commands in its help's
/// order: it printed its whole help (~40 lines) on stderr. `mur --help` prints it on stdout.
#[test]
fn mur_alone_is_refused_in_one_line_as_a_group_without_its_command() {
    let sb = Sandbox::new();
    for argv in [&[][..], &["--pretty"]] {
        sb.mur(argv)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(
                "error: `mur` needs a command: devtools, completions or help\n\
                 hint: `mur devtools catalog` lists every verb\n\
                 hint: usage: mur [OPTIONS] <COMMAND> (`--help` shows more)\n",
            );
    }
    let help = sb.mur(&["--help"]);
    help.assert_quiet_success();
    assert!(help.stdout.starts_with("Drive running apps"), "{help}");
}

/// A group typed without its command (`session`, `verbs`, `usage`; with an option or
/// none) is refused in one line naming its commands, exit 1, as any usage error: its
/// whole help on stderr was 30 lines to read for the one word missing.
#[test]
fn a_group_without_its_command_is_refused_in_one_line() {
    let sb = Sandbox::new();
    for (argv, commands) in [
        (&["devtools", "session"][..], "list or clean"),
        (&["devtools", "session", "--pretty"], "list or clean"),
        (
            &["devtools", "verbs"],
            "list, add, remove, info, prune or new",
        ),
        (&["devtools", "usage"], "report, on, off or path"),
    ] {
        let group = argv[..2].join(" ");
        sb.mur(argv)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: `mur {group}` needs a command: {commands}\n\
                 hint: usage: mur {group} [OPTIONS] <COMMAND> (`--help` shows more)\n"
            ));
    }
}

/// An option typed without its value (`call state --args`) is refused with the usage of
/// the command it was given to, as clap's other refusals are (it had none); a mistyped
/// option is said as a verb says it (see
/// `a_mistyped_option_of_murs_own_commands_is_refused_in_a_verbs_words`). A host option
/// typed after a verb without its value is refused as before it (it had clap's first
/// words alone, and no usage), with the verb's usage as hint (it had `mur devtools`'s)
/// where the verb is installed (`standard_sandbox`); a word no installed verb has keeps
/// `mur devtools`'s, the session's tools not read yet (RV2 F2: `clcik --project` was
/// shown `usage: mur devtools clcik [OPTIONS]`, as if it existed).
#[test]
fn a_missing_value_is_refused_with_the_commands_usage() {
    let sb = Sandbox::new();
    let devtools = "mur devtools [OPTIONS] <COMMAND>";
    let list = "mur devtools session list [OPTIONS]";
    let standard = mur_e2e::plugins::standard_sandbox();
    // After a verb, the verb's usage, as its `--help` starts: an installed verb's
    // declared line. It was `mur devtools`'s, as it still is for any other word.
    let click = |sb: &Sandbox| match std::ptr::eq(sb, &standard) {
        true => "mur devtools click <selector>",
        false => devtools,
    };
    let after_a_verb = [
        (
            &["devtools", "click", "--answer"][..],
            "--answer <KEY=VALUE>",
        ),
        (&["devtools", "click", "--project"], "--project <PATH>"),
        (&["devtools", "get-text", "--endpoint"], "--endpoint <URL>"),
        (&["devtools", "clcik", "--project"], "--project <PATH>"),
        (&["devtools", "Bad Name!", "--timeout"], "--timeout <MS>"),
    ];
    let before_or_to_a_command = [
        (
            &["devtools", "call", "state", "--args"][..],
            "--args <JSON>",
            "mur devtools call [OPTIONS] [NAME]",
        ),
        (
            &["devtools", "session", "list", "--timeout"],
            "--timeout <MS>",
            list,
        ),
        (&["devtools", "--endpoint"], "--endpoint <URL>", devtools),
        // Empty: a value parser's refusal, said as the missing value it is, given empty
        // (helper 424). A tool or
        // method named `''` was sent to the server as such (`call ''` is said to be
        // an empty name: `an_empty_tool_name_is_said_to_be_empty`).
        (
            &["devtools", "call", "--method="],
            "--method <METHOD>",
            "mur devtools call [OPTIONS] [NAME]",
        ),
        (
            &["devtools", "session", "list", "--timeout="],
            "--timeout <MS>",
            list,
        ),
    ];
    let missing = [&sb, &standard]
        .into_iter()
        .flat_map(|sb| {
            after_a_verb.map(|(argv, option)| {
                let usage = match argv[1] {
                    "click" => click(sb),
                    _ => devtools,
                };
                (sb, argv, option, usage)
            })
        })
        .chain(before_or_to_a_command.map(|(argv, option, usage)| (&sb, argv, option, usage)));
    for (sb, argv, option, usage) in missing {
        let given = match argv.last().is_some_and(|word| word.ends_with('=')) {
            true => " (it was given empty)",
            false => "",
        };
        sb.mur(argv)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: `{option}` needs a value{given}\n\
                 hint: usage: {usage} (`--help` shows more)\n"
            ));
    }
    // Before the verb or after it, one refusal (review RV2 3, 4): after it, an option
    // was taken as the value (`--project --pretty`: the session of project `./--pretty`,
    // exit 4), an empty value was refused later in other words (`--project=`: "cannot
    // resolve project path ``", `--endpoint=`: "`--endpoint ` is not a URL"), and
    // clap's quotes were left on an empty one (`--answer=`: "invalid value '' for").
    let required = |option: &'static str| {
        move |usage: &str| {
            format!(
                "error: `{option}` needs a value\n\
                 hint: usage: {usage} (`--help` shows more)\n"
            )
        }
    };
    // An empty value says it was given, where it read as left out (helper 424).
    let given_empty = |option: &'static str| {
        move |usage: &str| {
            format!(
                "error: `{option}` needs a value (it was given empty)\n\
                 hint: usage: {usage} (`--help` shows more)\n"
            )
        }
    };
    let not_key_value = |_: &str| {
        "error: invalid value `x` for `--answer <KEY=VALUE>`: `x` is not KEY=VALUE\n".to_owned()
    };
    // What is typed, and the stderr expected given the usage line of the command typed.
    type Case<'a> = (&'a [&'a str], &'a dyn Fn(&str) -> String);
    let cases: [Case; 8] = [
        (&["--project", "--pretty"], &required("--project <PATH>")),
        (&["--answer", "--pretty"], &required("--answer <KEY=VALUE>")),
        (&["--endpoint", "-v"], &required("--endpoint <URL>")),
        (&["--project="], &given_empty("--project <PATH>")),
        (&["--answer="], &given_empty("--answer <KEY=VALUE>")),
        (&["--endpoint="], &given_empty("--endpoint <URL>")),
        (&["--answer=x"], &not_key_value),
        (&["--answer", "x"], &not_key_value),
    ];
    for (typed, stderr) in cases {
        let verb = ["click", "#btn-inc"];
        let before = [&["devtools"][..], typed, &verb].concat();
        let after = [&["devtools"][..], &verb, typed].concat();
        for (sb, argv, usage) in [
            (&sb, &before, devtools),
            (&sb, &after, click(&sb)),
            (&standard, &after, click(&standard)),
        ] {
            sb.mur(argv)
                .assert_code(1)
                .assert_stdout_is("")
                .assert_stderr_is(stderr(usage));
        }
    }
}

/// A value left out reads alike for a host option and a verb's own, which a user meets
/// in one session: `` `--timeout <MS>` needs a value`` (clap's "a value is required for
/// `--timeout <MS>` but none was supplied") and `` `--selector <S>` needs a value`` (the
/// verb kit's "`--selector` needs a value (S)"), each option named as every other
/// refusal of it names it ("the argument `--timeout <MS>` cannot be used multiple
/// times"). An option of a few values names them, as clap does for one it refuses.
#[test]
fn a_missing_value_reads_alike_for_a_host_option_and_a_verbs_own() {
    let standard = mur_e2e::plugins::standard_sandbox();
    let first_line = |argv: &[&str]| {
        let out = standard.mur(argv);
        out.assert_code(1).assert_stdout_is("");
        out.stderr.lines().next().unwrap_or_default().to_owned()
    };
    for (argv, said) in [
        (
            &["devtools", "--timeout"][..],
            "`--timeout <MS>` needs a value",
        ),
        (
            &["devtools", "tree", "--timeout"],
            "tree: `--timeout <MS>` needs a value",
        ),
        (
            &["devtools", "tree", "--selector"],
            "tree: `--selector <S>` needs a value",
        ),
        (
            &["devtools", "screenshot", "--out"],
            "screenshot: `--out <path|->` needs a value",
        ),
        (
            &["devtools", "verbs", "new", "tally", "--lang"],
            "`--lang <LANG>` needs a value (possible values: rust, python, js)",
        ),
    ] {
        assert_eq!(first_line(argv), format!("error: {said}"), "{argv:?}");
    }
}

/// A negative number given to a numeric host option is its value, refused as no bound
/// and no byte count, in the same words before the verb and after it (a derived `tree`,
/// and the installed one, which has a `--timeout` of its own): `--max-response -5` said
/// "unexpected argument `-5` found" before the verb and "a value is required for
/// `--max-response <BYTES>`" after it.
#[test]
fn a_negative_number_for_a_numeric_host_option_is_refused_alike_before_and_after_the_verb() {
    let sb = Sandbox::new();
    let standard = mur_e2e::plugins::standard_sandbox();
    let max_response = "invalid value `-5` for `--max-response <BYTES>`: expected a number \
                        of bytes, optionally with a K, M or G suffix (e.g. `128M`)";
    let timeout = "invalid value `-5` for `--timeout <MS>`: `-5` is not a whole number of \
                   milliseconds (e.g. `5000`)";
    // `-5` was "unexpected argument `-5` found" before the verb, "a value is required"
    // after it, and taken as the range's value "`` is no port".
    let auto_range = "invalid value `-5` for `--auto-range <LO-HI>`: expected `LO-HI`, two \
                      ports from 1 to 65535 (e.g. `40000-41000`)";
    let before = |option| vec!["devtools", option, "-5", "tree"];
    let after = |option| vec!["devtools", "tree", option, "-5"];
    for (sb, argv, said) in [
        (&sb, before("--max-response"), max_response),
        (&sb, after("--max-response"), max_response),
        (&standard, before("--max-response"), max_response),
        (&standard, after("--max-response"), max_response),
        (&sb, before("--timeout"), timeout),
        (&sb, after("--timeout"), timeout),
        (&standard, before("--timeout"), timeout),
        (&sb, before("--auto-range"), auto_range),
        (&sb, after("--auto-range"), auto_range),
        (&standard, before("--auto-range"), auto_range),
        (&standard, after("--auto-range"), auto_range),
    ] {
        refused_saying(sb, &argv, said);
    }
}

/// `--` after `--max-response`, `--timeout` or `--auto-range`, which take any other word
/// as their value, is a missing value in one line wherever it is typed: before the verb
/// clap took it as the value ("invalid value `--` for `--max-response <BYTES>`: expected
/// a number of bytes, …"), where after the verb's name it ends the options ("a value is
/// required …"). Typed as one word (`--max-response=--`) it is a value, refused alike.
#[test]
fn a_double_dash_after_a_numeric_host_option_is_a_missing_value_wherever_it_is_typed() {
    let sb = Sandbox::new();
    for (long, option) in [
        ("--max-response", "--max-response <BYTES>"),
        ("--timeout", "--timeout <MS>"),
        ("--auto-range", "--auto-range <LO-HI>"),
    ] {
        for argv in [
            [long, "--", "devtools", "tree"],
            ["devtools", long, "--", "tree"],
            ["devtools", "tree", long, "--"],
        ] {
            sb.mur(&argv)
                .assert_code(1)
                .assert_stdout_is("")
                .assert_stderr_is(format!(
                    "error: `{option}` needs a value\n\
                     hint: usage: mur devtools [OPTIONS] <COMMAND> (`--help` shows more)\n"
                ));
        }
    }
    let inline = "error: invalid value `--` for `--max-response <BYTES>`: expected a number of \
                  bytes, optionally with a K, M or G suffix (e.g. `128M`)\n";
    for argv in [
        ["devtools", "--max-response=--", "tree"],
        ["devtools", "tree", "--max-response=--"],
    ] {
        sb.mur(&argv)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(inline);
    }
}

/// Any word after `--max-response`, `--timeout` or `--auto-range` is its value, refused
/// in the same line before the verb and after it (RV2 F5): `-5K`, the form the error
/// suggests with a minus typed, was "unexpected argument `-5` found" before the verb
/// (the word cut short) and "a value is required" after it; `-inf`, a number to Rust and
/// no number to clap, was "unexpected argument `-i`" before and "invalid value `-inf`"
/// (`--max-response`) or "a value is required" (`--auto-range`) after.
#[test]
fn any_dashed_word_after_a_numeric_host_option_is_its_value_before_and_after_the_verb() {
    let sb = Sandbox::new();
    let standard = mur_e2e::plugins::standard_sandbox();
    let bytes = |typed: &str| {
        format!(
            "error: invalid value `{typed}` for `--max-response <BYTES>`: expected a number of \
             bytes, optionally with a K, M or G suffix (e.g. `128M`)\n"
        )
    };
    let ms = |typed: &str| {
        format!(
            "error: invalid value `{typed}` for `--timeout <MS>`: `{typed}` is not a whole \
             number of milliseconds (e.g. `5000`)\n"
        )
    };
    let cases = [
        ("--max-response", "-5K", bytes("-5K")),
        ("--max-response", "-inf", bytes("-inf")),
        ("--timeout", "-5s", ms("-5s")),
        ("--timeout", "--pretty", ms("--pretty")),
        (
            "--auto-range",
            "-inf",
            "error: invalid value `-inf` for `--auto-range <LO-HI>`: expected `LO-HI`, two \
             ports from 1 to 65535 (e.g. `40000-41000`)\n"
                .to_owned(),
        ),
    ];
    for (option, typed, said) in &cases {
        // A derived `tree`, and the installed one, whose own `--timeout` takes the word
        // after its name.
        for sb in [&sb, &standard] {
            let after = !(std::ptr::eq(sb, &standard) && *option == "--timeout");
            let argvs = [
                Some(["devtools", option, typed, "tree"]),
                after.then_some(["devtools", "tree", option, typed]),
            ];
            for argv in argvs.into_iter().flatten() {
                sb.mur(&argv)
                    .assert_code(1)
                    .assert_stdout_is("")
                    .assert_stderr_is(said);
            }
        }
    }
}

/// `-V` is `mur`'s alone, as `cargo -V`'s and `git --version`'s are: listed in every
/// command's help it read as that command's version (`mur devtools version` is the
/// app's). After a command it is refused, saying where each version is.
#[test]
fn only_mur_itself_takes_version() {
    let sb = Sandbox::new();
    sb.mur(&["-V"])
        .assert_code(0)
        .assert_stdout_is(format!("mur {}\n", env!("CARGO_PKG_VERSION")));
    for argv in [
        &["devtools", "-V"][..],
        &["devtools", "--version"],
        &["devtools", "session", "list", "--version"],
        &["completions", "-V"],
    ] {
        let typed = argv.last().copied().unwrap_or_default();
        sb.mur(argv)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: unknown option `{typed}`\n\
                 hint: `mur --version` prints mur's version; `mur devtools version`, the \
                 running app's devtools server's\n"
            ));
    }
    assert!(sb.mur(&["--help"]).stdout.contains("-V, --version"));
    for argv in [
        &["devtools", "--help"][..],
        &["devtools", "session", "list", "--help"],
        &["devtools", "usage", "--help"],
    ] {
        let help = sb.mur(argv);
        help.assert_code(0);
        assert!(!help.stdout.contains("--version"), "{argv:?}:\n{help}");
    }
}

/// `parity`'s exit 1 (a tool without a named verb: every tool, with none installed) is its
/// answer, said as a `note:` and its `hint:`, never an `error:`; `-q` hides the note as it
/// hides every note, and the exit code still says it.
#[test]
fn parity_says_its_answer_as_a_note_that_quiet_hides() {
    let (sb, _app) = Sandbox::with_app();
    let out = sb.devtools(&["parity", "--json"]);
    out.assert_code(1);
    assert_eq!(
        (
            out.stderr_lines("note: 22 of 22 tools have no named verb: ")
                .len(),
            out.stderr.lines().count()
        ),
        (1, 2),
        "{out}"
    );
    assert!(out.stderr_lines("error:").is_empty(), "{out}");
    sb.devtools(&["-q", "parity", "--json"])
        .assert_code(1)
        .assert_stdout_is(&out.stdout)
        .assert_stderr_is("");
    // Read through `head` (stdout closed early), the answer stays: exit 1 and its note,
    // in either form (it was a quiet exit 0, as if every tool had a named verb).
    for argv in [
        &["devtools", "parity", "--json"][..],
        &["devtools", "parity"],
    ] {
        assert_eq!(
            with_stdout_closed(&sb, argv),
            (Some(1), out.stderr.clone()),
            "{argv:?}"
        );
    }
}

#[test]
fn a_bad_timeout_is_a_usage_error() {
    let sb = Sandbox::new();
    sb.mur(&["devtools", "--timeout", "soon", "call", "version"])
        .assert_code(1);
    // Zero and negative bounds are the command's mistake, before `devtools` or after
    // a verb that leaves `--timeout` to the host; nothing is looked for or sent.
    for (argv, value) in [
        (&["devtools", "--timeout", "0", "call", "version"][..], "0"),
        (
            &["--timeout", "-1", "devtools", "call", "version"][..],
            "-1",
        ),
        // A newline in the value, escaped where it is quoted: clap's refusal was cut
        // there, and what followed read as a line of mur's own.
        (
            &[
                "devtools",
                "--timeout",
                "5\nerror: forged",
                "call",
                "version",
            ][..],
            "5\\x0aerror: forged",
        ),
        // Past the most a verb's own `--timeout` can be, as after a named verb's name
        // ("`--timeout` is at most 4294967295 ms"): it was taken before the verb.
        (
            &["devtools", "--timeout", "99999999999", "call", "version"][..],
            "99999999999",
        ),
    ] {
        let out = sb.mur(argv);
        out.assert_code(1);
        let line = match value {
            "0" => "the bound must be at least 1 ms".to_owned(),
            "99999999999" => "the bound is at most 4294967295 ms (about 49 days)".to_owned(),
            _ => format!("`{value}` is not a whole number of milliseconds (e.g. `5000`)"),
        };
        assert_eq!(
            out.stderr,
            format!("error: invalid value `{value}` for `--timeout <MS>`: {line}\n")
        );
    }
    let _app = sb.start_app();
    // After a verb as before it (review RV2 4: "invalid value for `--timeout`: …").
    let derived = sb.mur(&["devtools", "export-todos", "--timeout", "0"]);
    derived.assert_code(1).assert_stderr_is(
        "error: invalid value `0` for `--timeout <MS>`: the bound must be at least 1 ms\n",
    );
    sb.mur(&["devtools", "export-todos", "--timeout", "4294967296"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(
            "error: invalid value `4294967296` for `--timeout <MS>`: the bound is at most \
             4294967295 ms (about 49 days)\n",
        );
    sb.mur(&["devtools", "--timeout", "4294967295", "call", "version"])
        .assert_code(0);
}

/// One mistake with `--timeout`, a bad value or the option typed twice, is refused in one
/// error line wherever it is typed (README: "in one wording wherever it is typed"): before
/// the verb, after a named verb's name (its own `--timeout`, which the verb kit reads) and
/// after a derived verb's (the host's). The kit said `` `--timeout` needs a positive
/// number of milliseconds, got `abc` `` and "`--timeout` given more than once" where the
/// host said ``invalid value `abc` for `--timeout <MS>`: …`` and "the argument `--timeout
/// <MS>` cannot be used multiple times". A named verb's line names the verb, and its usage
/// follows by design (verbs_standard_usage.rs); a derived verb's own option typed twice is
/// said in the same words.
#[test]
fn a_bad_or_repeated_timeout_is_refused_in_one_line_before_and_after_a_verb() {
    let sb = mur_e2e::plugins::standard_sandbox();
    let _app = sb.start_app();
    let invalid =
        |value: &str, why: &str| format!("invalid value `{value}` for `--timeout <MS>`: {why}");
    let not_whole = "`abc` is not a whole number of milliseconds (e.g. `5000`)";
    for (mistake, said) in [
        (&["--timeout", "abc"][..], invalid("abc", not_whole)),
        (&["--timeout=abc"], invalid("abc", not_whole)),
        (
            &["--timeout", "0"],
            invalid("0", "the bound must be at least 1 ms"),
        ),
        (
            &["--timeout", "99999999999"],
            invalid(
                "99999999999",
                "the bound is at most 4294967295 ms (about 49 days)",
            ),
        ),
        (
            &["--timeout", "1", "--timeout", "2"],
            "the argument `--timeout <MS>` cannot be used multiple times".to_owned(),
        ),
        (&["--timeout="], "`--timeout <MS>` needs a value".to_owned()),
    ] {
        let before = |verb: &[&'static str]| [&["devtools"][..], mistake, verb].concat();
        let after = |verb: &[&'static str]| [&["devtools"][..], verb, mistake].concat();
        for (line, named) in [
            (before(&["version"]), ""),
            (after(&["version"]), "version: "),
            (before(&["wait-for", "#a"]), ""),
            (after(&["wait-for", "#a"]), ""),
        ] {
            let out = sb.mur(&line);
            out.assert_code(1).assert_stdout_is("");
            let (first, rest) = out.stderr.split_once('\n').expect("a line");
            // An empty value is said to be given empty, by the host and by the verb
            // kit, whose `--timeout` this is after `version`.
            let said = match mistake {
                ["--timeout="] => format!("{said} (it was given empty)"),
                _ => said.clone(),
            };
            assert_eq!(first, format!("error: {named}{said}"), "{line:?}\n{out}");
            // The named verb's brief usage under its line, as after any of its mistakes.
            if !named.is_empty() {
                assert!(rest.starts_with("\nUsage: mur devtools version\n"), "{out}");
            }
        }
    }
    let out = sb.mur(&["devtools", "wait-for", "#a", "--count", "1", "--count", "2"]);
    out.assert_code(1).assert_stdout_is("");
    assert!(
        out.stderr.starts_with(
            "error: wait-for: the argument `--count <N>` cannot be used multiple times\n"
        ),
        "{out}"
    );
}

#[test]
fn a_mistyped_verb_exits_1_pointing_at_verbs_list() {
    let out = Sandbox::new().mur(&["devtools", "sesion", "#x"]);
    out.assert_code(1).assert_stdout_is("");
    out.assert_stderr_starts_with("error: unknown verb `sesion`\nhint: did you mean `session`?\n");
    out.assert_stderr_contains("`mur devtools verbs list`");
    // The word need not be a tool's name, and with no session `call` could not run.
    assert!(!out.stderr.contains("devtools call"), "{out}");
}

/// With no home directory to place its own directories in, mur says so as its own
/// failure (exit 7), for the verb directory as for the usage log (it was exit 1, a
/// usage error, for the verbs).
#[test]
fn no_home_directory_is_murs_own_failure_for_verbs_and_usage_alike() {
    let sb = Sandbox::new();
    for (args, said) in [
        (
            &["devtools", "version"][..],
            "error: cannot find a home directory for the verb directory\n\
             hint: set `XDG_DATA_HOME` and `XDG_CACHE_HOME` (or `HOME`)\n",
        ),
        (
            &["devtools", "usage", "path"][..],
            "error: cannot find a home directory for the usage log\n\
             hint: set `XDG_STATE_HOME` (or `HOME`)\n",
        ),
    ] {
        let mut homeless = sb.mur_command(args);
        for var in ["HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"] {
            homeless.env_remove(var);
        }
        mur_e2e::run(&mut homeless)
            .assert_code(7)
            .assert_stderr_is(said);
    }
    // One of the two placed by its variable: the other is named, with its variable
    // (both were named as "the verb directory").
    for (set, said) in [
        (
            "XDG_DATA_HOME",
            "error: cannot find a home directory for the verbs' compiled-code cache\n\
             hint: set `XDG_CACHE_HOME` (or `HOME`)\n",
        ),
        (
            "XDG_CACHE_HOME",
            "error: cannot find a home directory for the verb directory\n\
             hint: set `XDG_DATA_HOME` (or `HOME`)\n",
        ),
    ] {
        let mut homeless = sb.mur_command(&["devtools", "version"]);
        for var in ["HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"] {
            homeless.env_remove(var);
        }
        homeless.env(set, sb.root());
        mur_e2e::run(&mut homeless)
            .assert_code(7)
            .assert_stderr_is(said);
    }
}

/// An argument that is no UTF-8 text is named, as a shell reads it back (clap said
/// only "invalid UTF-8 was detected in one or more arguments").
#[test]
fn an_argument_that_is_no_text_is_named() {
    use std::os::unix::ffi::OsStrExt as _;
    let sb = Sandbox::new();
    let mut command = sb.mur_command(&["devtools", "type", "#todo-input"]);
    command.arg(std::ffi::OsStr::from_bytes(b"\xc3\x28"));
    mur_e2e::run(&mut command).assert_code(1).assert_stderr_is(
        "error: `$'\\xc3('` is not UTF-8 text: mur takes its arguments as text\n",
    );
}

/// An `error:` or `hint:` line quoting a huge word (a value typed in the verb's place)
/// is cut to 2,000 characters: it was printed whole, 120 KB on one line.
#[test]
fn an_error_line_is_cut_whatever_it_quotes() {
    let word = "a".repeat(120_000);
    let out = Sandbox::new().mur(&["devtools", &word]);
    out.assert_code(4);
    let quoting: Vec<&str> = out.stderr.lines().filter(|l| l.contains("aaaa")).collect();
    assert!(!quoting.is_empty(), "{out}");
    for line in quoting {
        assert!(
            line.starts_with("error: ") || line.starts_with("hint: "),
            "{line}"
        );
        assert!(line.chars().count() <= "error: ".len() + 2_001, "{line}");
        assert!(line.ends_with('…'), "{line}");
    }
}

/// Without a session, a word one slip from a command of mur's is a typo (exit 1); one
/// further off may be a tool of the app (`version`, two letters from `session`): no
/// session (exit 4), the command named second.
#[test]
fn a_word_one_slip_from_a_command_is_a_typo_and_one_further_perhaps_a_tool() {
    let sb = Sandbox::new();
    let tool = sb.mur(&["devtools", "version"]);
    tool.assert_code(4)
        .assert_stderr_starts_with("error: no running devtools session found\n");
    assert_eq!(
        tool.stderr_lines("hint:")[..2],
        [
            "hint: `version` is not an installed verb; a tool's verb is looked up in the session once one runs",
            "hint: or did you mean `session`?",
        ],
        "{tool}"
    );
    sb.mur(&["devtools", "sesion", "list"])
        .assert_code(1)
        .assert_stderr_starts_with("error: unknown verb `sesion`\nhint: did you mean `session`?\n");
}

/// A word other tools use for one of mur's commands (`verbs install`) is pointed at
/// that command: clap's nearest spelling was another one (`install`: `list`). A
/// misspelling still gets clap's.
#[test]
fn another_tools_word_for_a_command_is_pointed_at_it() {
    let sb = Sandbox::new();
    for (argv, meant, group) in [
        (&["verbs", "install", "v.wasm"][..], "add", "verbs"),
        (&["verbs", "uninstall", "v"], "remove", "verbs"),
        (&["verbs", "show", "v"], "info", "verbs"),
        (&["--pretty", "verbs", "init", "v"], "new", "verbs"),
        (&["session", "ls"], "list", "session"),
        (&["verbs", "lst"], "list", "verbs"),
    ] {
        let mut line = vec!["devtools"];
        line.extend(argv);
        let typed = argv[argv.iter().position(|w| *w == group).expect("group") + 1];
        sb.mur(&line)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: unrecognized subcommand `{typed}`\n\
             hint: did you mean `{meant}`?\n\
             hint: usage: mur devtools {group} [OPTIONS] <COMMAND> (`--help` shows more)\n"
            ));
    }
}

/// A verb typed without `devtools` gets the command as it goes (an installed verb or a
/// command of mur's, known without a session, or the one it is likely meant as, case
/// aside); help asked of one, the command that shows it (`mur devtools click` clicked);
/// a word that is neither, none (`mur devtools nope` is refused in turn). A near miss
/// of `devtools` itself gets clap's suggestion alone.
#[test]
fn a_verb_without_devtools_is_pointed_at_it() {
    let sb = mur_e2e::plugins::standard_sandbox();
    let usage = "hint: usage: mur [OPTIONS] <COMMAND> (`--help` shows more)\n";
    for (argv, typed, meant) in [
        (
            &["--pretty", "click", "#btn-inc"][..],
            "click",
            Some("click"),
        ),
        (&["CLIK", "#btn-inc"], "CLIK", Some("click")),
        (&["sesion", "list"], "sesion", Some("session")),
        (&["help", "click"], "click", Some("click --help")),
        (&["click", "--help"], "click", Some("click --help")),
        (&["help", "session"], "session", Some("session --help")),
        (&["nope"], "nope", None),
        (&["help", "xyzzy"], "xyzzy", None),
    ] {
        let hint = meant
            .map(|meant| format!("hint: did you mean `mur devtools {meant}`?\n"))
            .unwrap_or_default();
        sb.mur(argv).assert_code(1).assert_stderr_is(format!(
            "error: unrecognized subcommand `{typed}`\n{hint}{usage}"
        ));
    }
    let near = sb.mur(&["devtool", "click"]);
    near.assert_code(1);
    assert_eq!(
        near.stderr_lines("hint:"),
        [
            "hint: did you mean `devtools`?",
            "hint: usage: mur [OPTIONS] <COMMAND> (`--help` shows more)"
        ],
        "{near}"
    );
}

/// A verb typed in capitals is no other word: `CLICK` gets `click`, as `Click` did, and
/// is a typo of it (exit 1, not "start the app", exit 4, as it was), with a session or
/// without.
#[test]
fn a_verb_typed_in_capitals_is_meant_as_the_verb() {
    let sb = mur_e2e::plugins::standard_sandbox();
    for typed in ["Click", "CLICK", "CLIK"] {
        sb.mur(&["devtools", typed, "#btn-inc"])
            .assert_code(1)
            .assert_stderr_is(format!(
                "error: unknown verb `{typed}`\n\
                 hint: did you mean `click`?\n\
                 hint: `mur devtools verbs list` shows the installed verbs\n\
                 hint: no devtools session is running to look for a tool of that name\n"
            ));
    }
    // With a session, whose tool `click` is a verb of the installed verb's name too.
    let (sb, _app) = mur_e2e::plugins::standard_session();
    for typed in ["Click", "CLICK"] {
        sb.mur(&["devtools", typed, "#btn-inc"])
            .assert_code(1)
            .assert_stderr_is(format!(
                "error: unknown verb `{typed}`\nhint: did you mean `click`?\n"
            ));
    }
}

#[test]
fn a_second_session_for_the_same_project_exits_3() {
    let (sb, first) = Sandbox::with_app();
    let out = sb.run_sample(&["--project", first.project.to_str().expect("utf-8")]);
    out.assert_code(3)
        .assert_stderr_contains(&another_session_line(first.endpoint(), first.pid()));
    // The first session is untouched and still answers.
    sb.mur(&["devtools", "call", "version"]).assert_code(0);
}

#[test]
fn a_closed_stdout_pipe_is_a_quiet_exit() {
    let (sb, _sample) = Sandbox::with_app();
    let (code, stderr) = with_stdout_closed(&sb, &["devtools", "--pretty", "call", "tools/list"]);
    assert_eq!(stderr, "", "nothing on stderr for a closed pipe");
    assert_eq!(code, Some(0));
}

/// `mur ARGV…` whose reader closed its stdout before it wrote: its exit code and stderr.
fn with_stdout_closed(sb: &Sandbox, argv: &[&str]) -> (Option<i32>, String) {
    use std::io::Read as _;
    use std::process::Stdio;
    let mut child = sb
        .mur_command(argv)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mur");
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read stderr");
    (child.wait().expect("wait").code(), stderr)
}

#[test]
fn help_as_a_verb_is_the_same_help() {
    let sb = Sandbox::new();
    let word = sb.mur(&["devtools", "help"]);
    word.assert_code(0)
        .assert_stdout_is(sb.mur(&["devtools", "--help"]).stdout);
    let session = sb.mur(&["devtools", "help", "session"]);
    session.assert_code(0);
    assert!(session.stdout.contains("clean"), "{session}");
}

#[test]
fn help_as_a_command_is_the_commands_help() {
    // Before, `mur help devtools` was "unrecognized subcommand 'help'" (exit 1).
    let sb = Sandbox::new();
    for (words, same_as) in [
        (&["help"][..], &["--help"][..]),
        (&["help", "devtools"], &["devtools", "--help"]),
        (
            &["help", "devtools", "session", "list"],
            &["devtools", "session", "list", "--help"],
        ),
        (&["help", "completions"], &["completions", "--help"]),
    ] {
        let by_word = sb.mur(words);
        by_word.assert_code(0);
        assert_eq!(by_word.stdout, sb.mur(same_as).stdout, "{words:?}");
        assert_eq!(by_word.stderr, "", "{words:?}");
    }
    let unknown = sb.mur(&["help", "nope"]);
    unknown
        .assert_code(1)
        .assert_stderr_starts_with("error: unrecognized subcommand `nope`\n");
}

/// `mur help devtools WORD` is `mur devtools WORD --help` for a word no installed verb
/// answers, refusal and exit code alike, as the README's table of exit codes has them: a
/// slip from an installed verb is a typo (exit 1, "did you mean"); any other word may be
/// a tool of the app not running, whose help the session gives (exit 4, "start the app"),
/// not a usage error: with a session it is refused as unknown (exit 1).
#[test]
fn help_of_a_word_no_verb_answers_is_its_help_flags_refusal() {
    let sb = Sandbox::new();
    mur_e2e::plugins::add(&sb, &[mur_e2e::plugins::standard("click")]);
    let same = |word: &str, code: i32| {
        let by_help = sb.mur(&["help", "devtools", word]);
        by_help.assert_code(code).assert_stdout_is("");
        let by_flag = sb.mur(&["devtools", word, "--help"]);
        by_flag.assert_code(code).assert_stderr_is(&by_help.stderr);
        by_help
    };
    same("clik", 1).assert_stderr_is(
        "error: unknown verb `clik`\n\
         hint: did you mean `click`?\n\
         hint: `mur devtools verbs list` shows the installed verbs\n\
         hint: no devtools session is running to look for a tool of that name\n",
    );
    same("xyzzy", 4).assert_stderr_starts_with(
        "error: no running devtools session found\n\
         hint: `xyzzy` is not an installed verb; a tool's verb is looked up in the session once \
         one runs\n",
    );
    let _app = sb.start_app();
    same("xyzzy", 1).assert_stderr_starts_with("error: unknown verb `xyzzy`\n");
}

#[test]
fn host_options_work_before_devtools_too() {
    let (sb, sample) = Sandbox::with_app();
    // Before, clap refused `--endpoint` and `-v` ahead of `devtools` (exit 1).
    let out = sb.mur(&[
        "--endpoint",
        sample.endpoint(),
        "-v",
        "devtools",
        "call",
        "version",
    ]);
    // `-v` before `devtools` is verbose.
    out.assert_answered_by(sample.pid())
        .assert_stderr_contains("POST");
    let after = sb.call_version_at(sample.endpoint(), &[]);
    assert_eq!(after.stdout, out.stdout, "the same command either way");
}

#[test]
fn a_word_quoted_in_an_error_cannot_forge_a_line_of_murs() {
    let sb = Sandbox::new();
    let out = sb.devtools(&["x\nerror: forged\u{1b}[2J"]);
    out.assert_code(4);
    let second = out.stderr.lines().nth(1).unwrap_or_default();
    assert!(
        second.starts_with("hint: `x\\x0aerror: forged\\x1b[2J` is not an installed verb"),
        "{out}"
    );
    assert_eq!(out.stderr_lines("error:").len(), 1, "{out}");
}

/// At a <Tab>, an option the command line already gives is not offered again unless it
/// may be given again: after `call ping --args '{}' --answer a=b --pretty`, `--args`
/// and `--pretty` are gone, `--answer` (repeatable) and the rest are offered.
#[test]
fn completion_leaves_out_the_options_already_given_once() {
    let sb = Sandbox::new();
    let words = [
        "devtools", "call", "ping", "--args", "{}", "--answer", "a=b", "--pretty", "--",
    ];
    sb.complete("bash", &words).assert_code(0).assert_stdout_is(
        "--endpoint\n--project\n--auto\n--auto-full\n--auto-range\n--timeout\n\
         --max-response\n--verbose\n--quiet\n--answer\n--protocol\n--refresh\n--method\n\
         --out\n--help",
    );
    let fish = sb.complete(
        "fish",
        &["devtools", "call", "ping", "--out", "a.png", "--o"],
    );
    fish.assert_code(0).assert_stdout_is("");
}

/// `-v` shows a foreground bridge's own messages and its server's stderr, as the bridge
/// shows them without `-v` (the verbose log, set first, is the bridge's log then).
#[test]
fn verbose_shows_a_foreground_bridges_server_stderr() {
    let sb = Sandbox::new();
    let project = sb.project("verbose-bridge");
    let server = format!(
        "echo hello-from-the-server >&2; exec '{}' --stdio --project '{}'",
        sb.artifacts().sample.display(),
        sb.project("served").display()
    );
    let mut command = sb.mur_command(&["-v", "devtools", "bridge", "--foreground", "--project"]);
    command.arg(&project).args(["--", "sh", "-c", &server]);
    let session = sb.start(command, &project);
    mur_e2e::wait_until("the server's stderr in the -v log", || {
        session
            .log()
            .contains("server: hello-from-the-server")
            .then_some(())
    });
    session.signal("TERM");
    assert!(session.wait_status().success());
}

/// A tool whose name `call` sends as a JSON-RPC method (`/session`: a `/` in it), whose
/// verb name is mur's command `session`, is named with the `call tools/call` that reaches
/// it, where a hint said `call /session`, which calls method `/session`: under the
/// command's refused options, and by `verbs info` (which wrote `mur devtools call
/// /session`, without the `--endpoint` that found the tool). The line pasted calls it.
#[test]
fn a_tool_named_like_a_method_is_named_with_the_tools_call_that_reaches_it() {
    let sb = Sandbox::new();
    let server = mur_e2e::Stub::with_tools(
        serde_json::json!([{ "name": "/session", "inputSchema": { "type": "object" } }]),
        |params| match params["name"] == "/session" {
            true => Ok(serde_json::json!({ "content": [{ "type": "text", "text": "reached" }] })),
            false => Err(serde_json::json!({ "code": -32602, "message": "no such tool" })),
        },
    );
    let endpoint = server.endpoint();
    let devtools = format!("mur devtools --endpoint {endpoint}");
    let usage = "hint: usage: mur devtools session [OPTIONS] <COMMAND> (`--help` shows more)\n";
    sb.devtools_at(&endpoint, &["session", "--x", "4"])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: unknown option `--x`\n\
             hint: `session` is mur's command; the session's tool `/session` is reached with \
             `{devtools} call tools/call --args '{{\"name\":\"/session\",\"arguments\":{{…}}}}'`\n\
             {usage}"
        ));
    sb.devtools_at(&endpoint, &["verbs", "info", "session"])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: `session` is not an installed verb; the session's tool `/session` is \
             reached only as `{devtools} call tools/call --args '{{\"name\":\"/session\"}}'` \
             (its verb name is taken)\n"
        ));
    let params = r#"{"name":"/session"}"#;
    let pasted = sb.tools_call_at(&endpoint, params);
    assert_eq!(
        pasted.assert_code(0).json()["content"][0]["text"],
        "reached"
    );
}

/// A tool whose verb name is a command of mur's (`session`) is reached only with
/// `call`; typed as a verb, its options (`session --x 4`) are refused by the command,
/// and the refusal said nothing of the tool (user audit AU3 10). Now, where the words
/// read as a tool's (an option right after the command, none like the command's own),
/// a hint names the tool when the session has it, says what to type if one was meant
/// when no session answers, and is not given when the session answering lacks it. The
/// command typed alone names the tool too.
#[test]
fn a_commands_refused_options_name_the_sessions_tool_of_that_name() {
    let sb = Sandbox::new();
    let schema = serde_json::json!({ "type": "object" });
    let with = mur_e2e::Stub::with_tools(
        serde_json::json!([{ "name": "session", "inputSchema": schema }]),
        |_| Ok(serde_json::json!({ "content": [] })),
    );
    let without = mur_e2e::Stub::with_tools(
        serde_json::json!([{ "name": "echo", "inputSchema": schema }]),
        |_| Ok(serde_json::json!({ "content": [] })),
    );
    let usage = "hint: usage: mur devtools session [OPTIONS] <COMMAND> (`--help` shows more)\n";
    let endpoint = with.endpoint();
    sb.devtools_at(&endpoint, &["session", "--x", "4"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: unknown option `--x`\n\
             hint: `session` is mur's command; the session's tool `session` is reached with \
             `mur devtools --endpoint {endpoint} call session --args '{{…}}'`\n{usage}"
        ));
    sb.mur(&["devtools", "session", "--x", "4"])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: unknown option `--x`\n\
             hint: if you meant a tool of the session named `session`, it is \
             `mur devtools call session --args '{{…}}'`\n{usage}"
        ));
    let lacking = sb.devtools_at(&without.endpoint(), &["session", "--x", "4"]);
    lacking
        .assert_code(1)
        .assert_stderr_is(format!("error: unknown option `--x`\n{usage}"));
    // The command typed alone (a group without its own): the tool named too (user audit
    // AU6 3), nothing where the session lacks it (or none answers: the group's one line).
    let alone = "error: `mur devtools session` needs a command: list or clean\n";
    sb.devtools_at(&endpoint, &["session"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "{alone}hint: `session` is mur's command; the session's tool `session` is reached \
             with `mur devtools --endpoint {endpoint} call session --args '{{…}}'`\n{usage}"
        ));
    sb.devtools_at(&without.endpoint(), &["session"])
        .assert_code(1)
        .assert_stderr_is(format!("{alone}{usage}"));
    // mur's own command meant: a subcommand typed, or an option like one of its own.
    for argv in [
        &[
            "devtools",
            "--endpoint",
            &endpoint,
            "session",
            "list",
            "--x",
        ][..],
        &["devtools", "--endpoint", &endpoint, "catalog", "--jsn"],
        // `call` is the way to a tool already: its options were meant.
        &["devtools", "call", "--foo", "x"],
    ] {
        let out = sb.mur(argv);
        out.assert_code(1);
        assert!(!out.stderr.contains("--args '{…}'"), "{argv:?}:\n{out}");
    }
}

/// A host option clap takes once is refused typed again after the verb's name, as it is
/// before it, whether the first was typed before the verb or after it: `--project a tree
/// --project b` was the session of `b` (exit 4), `a` silently dropped. An installed
/// verb, a data verb and a word no verb has alike; each kind of option (a value, a value
/// typed as its default, a flag, a short flag); `--answer` repeats anywhere. `--max-response
/// 64M`, its default, typed before the verb was not told from none, and a second taken.
#[test]
fn a_host_option_typed_twice_around_a_verb_is_refused_as_before_it() {
    let standard = mur_e2e::plugins::standard_sandbox();
    for line in [
        &["devtools", "--project", "a", "--project", "b", "tree"][..],
        &["devtools", "--project", "a", "tree", "--project", "b"],
        &["devtools", "tree", "--project=a", "--project", "b"],
        &["devtools", "--project", "a", "clcik", "--project", "b"],
    ] {
        standard
            .mur(line)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(
                "error: the argument `--project <PATH>` cannot be used multiple times\n",
            );
    }
    for (line, name) in [
        (
            &["devtools", "--endpoint", "x", "state", "--endpoint", "y"][..],
            "--endpoint <URL>",
        ),
        (
            &[
                "devtools",
                "--max-response",
                "1K",
                "state",
                "--max-response",
                "2K",
            ],
            "--max-response <BYTES>",
        ),
        (
            &[
                "devtools",
                "--max-response",
                "64M",
                "state",
                "--max-response",
                "1K",
            ],
            "--max-response <BYTES>",
        ),
        (
            // `state` declares a `--timeout` of its own: a word no verb has does not.
            &["devtools", "--timeout", "10000", "clcik", "--timeout", "5"],
            "--timeout <MS>",
        ),
        (&["devtools", "-v", "tree", "--verbose"], "--verbose"),
        (&["devtools", "tree", "--pretty", "--pretty"], "--pretty"),
        // A flag named as typed again: clap named `-vv` `--verbose`, and `-q` after the
        // verb `--quiet`.
        (&["devtools", "-vv", "tree"], "-v"),
        (&["devtools", "-q", "tree", "-q"], "-q"),
    ] {
        standard
            .mur(line)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: the argument `{name}` cannot be used multiple times\n"
            ));
    }
    standard
        .mur(&["devtools", "--answer", "a=1", "tree", "--answer", "b=2"])
        .assert_code(4)
        .assert_stderr_starts_with("error: no running devtools session found\n");
}

/// A host option typed at two levels of mur's own command (before `devtools`, before the
/// command, after it) is refused as after a verb's name, in the same words, exit 1: clap,
/// which refuses one typed twice at one level, took the later level's and dropped the
/// first unsaid, so `--project a call version --project APP` called APP's session (exit
/// 0), and `--timeout 100 call version --timeout 200` bounded it at 200 ms.
#[test]
fn a_host_option_typed_twice_around_a_command_of_murs_is_refused_as_around_a_verb() {
    let (sb, app) = Sandbox::with_app();
    let project = app.project.to_str().expect("utf-8");
    let other = sb.project("other");
    let other = other.to_str().expect("utf-8");
    let joined = format!("--project={project}");
    for (line, name) in [
        (
            &[
                "devtools",
                "--project",
                other,
                "call",
                "version",
                "--project",
                project,
            ][..],
            "--project <PATH>",
        ),
        (
            &[
                "devtools",
                "--project",
                project,
                "call",
                "version",
                "--project",
                other,
            ],
            "--project <PATH>",
        ),
        (
            &[
                "devtools",
                "--project",
                other,
                "session",
                "list",
                "--project",
                project,
            ],
            "--project <PATH>",
        ),
        (
            &[
                "--project",
                other,
                "devtools",
                "catalog",
                "--project",
                project,
            ],
            "--project <PATH>",
        ),
        (
            &["devtools", "--project", other, "parity", &joined],
            "--project <PATH>",
        ),
        (
            &[
                "devtools",
                "--timeout",
                "100",
                "call",
                "version",
                "--timeout",
                "200",
            ],
            "--timeout <MS>",
        ),
        (
            &["devtools", "session", "--pretty", "list", "--pretty"],
            "--pretty",
        ),
        // A flag named as typed again: clap named `-v` `--verbose`.
        (&["devtools", "-v", "call", "version", "-v"], "-v"),
        (&["devtools", "-qv", "session", "list", "-q"], "-q"),
        (&["devtools", "-v", "catalog", "--verbose"], "--verbose"),
    ] {
        sb.mur(line)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: the argument `{name}` cannot be used multiple times\n"
            ));
    }
    // Once at each level is no repeat.
    sb.mur(&[
        "--pretty",
        "devtools",
        "--project",
        project,
        "call",
        "version",
        "-q",
    ])
    .assert_code(0);
}

/// A host flag typed with a value is refused in one wording wherever it is typed: before
/// the verb clap said "unexpected value `false` for `--pretty` found; no more were
/// expected" under the usage `mur devtools --pretty <COMMAND>`, after it "`--pretty` takes
/// no value, got `false`".
#[test]
fn a_host_flag_given_a_value_is_refused_alike_before_the_verb_and_after_it() {
    let standard = mur_e2e::plugins::standard_sandbox();
    for (line, flag, value) in [
        (
            &["devtools", "--pretty=false", "tree"][..],
            "--pretty",
            "false",
        ),
        (&["devtools", "tree", "--pretty=false"], "--pretty", "false"),
        (
            &["devtools", "--pretty=false", "call", "version"],
            "--pretty",
            "false",
        ),
        (&["--quiet=", "devtools", "session", "list"], "--quiet", ""),
        (&["devtools", "catalog", "--refresh=1"], "--refresh", "1"),
        // A short one after a named verb's name, in the same words: the verb's kit said it
        // with the verb's usage under it.
        (&["devtools", "tree", "-v=false"], "-v", "false"),
        (&["devtools", "click", "#b", "-q=1"], "-q", "1"),
    ] {
        refused_as_taking_no_value(&standard, line, flag, value);
    }
}

/// `mur LINE` in `sb` refused, exit 1, in the one line said of `flag` typed with `value`.
fn refused_as_taking_no_value(sb: &Sandbox, line: &[&str], flag: &str, value: &str) {
    refused_saying(sb, line, &format!("`{flag}` takes no value, got `{value}`"));
}

/// `mur LINE` in `sb` refused, exit 1, in the one line `error: SAID`, nothing on stdout.
fn refused_saying(sb: &Sandbox, line: &[&str], said: &str) {
    sb.mur(line)
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!("error: {said}\n"));
}

/// A mistyped option of one of mur's own commands (or a host option before a verb's
/// name) is refused in the words a verb refuses one in, on one line where an option is
/// near: `session list --jsn` said clap's "unexpected argument `--jsn` found", a
/// did-you-mean hint and the usage, where `tree --jsn` says "unknown option `--jsn`". With
/// none near, the command's usage follows. `call version --prety` took `--prety` for the
/// tool's argument (`--args '{"prety":true}'`): one slip from `--pretty`, it is that.
#[test]
fn a_mistyped_option_of_murs_own_commands_is_refused_in_a_verbs_words() {
    let sb = Sandbox::new();
    for (argv, typed, meant) in [
        (
            &["devtools", "session", "list", "--jsn"][..],
            "--jsn",
            "--json",
        ),
        (&["devtools", "catalog", "--jsn"], "--jsn", "--json"),
        (&["devtools", "parity", "--prety"], "--prety", "--pretty"),
        (
            &["devtools", "call", "version", "--prety"],
            "--prety",
            "--pretty",
        ),
        (&["devtools", "verbs", "list", "--jsn=1"], "--jsn", "--json"),
        (
            &["devtools", "usage", "report", "--snce", "1d"],
            "--snce",
            "--since",
        ),
        (
            &["devtools", "--projct", "x", "tree"],
            "--projct",
            "--project",
        ),
        (&["devtools", "--pretti", "tree"], "--pretti", "--pretty"),
    ] {
        sb.mur(argv)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: unknown option `{typed}`; did you mean `{meant}`?\n"
            ));
    }
    for (argv, typed, usage) in [
        (
            &["devtools", "usage", "report", "--typo"][..],
            "--typo",
            "mur devtools usage report [OPTIONS]",
        ),
        (
            &["devtools", "catalog", "-x"],
            "-x",
            "mur devtools catalog [OPTIONS]",
        ),
    ] {
        sb.mur(argv)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: unknown option `{typed}`\n\
                 hint: usage: {usage} (`--help` shows more)\n"
            ));
    }
    // A verb's own refusal of the same option, in the same words after its name.
    let standard = mur_e2e::plugins::standard_sandbox();
    standard
        .mur(&["devtools", "tree", "--projct", "x"])
        .assert_code(1)
        .assert_stderr_starts_with(
            "error: tree: unknown option `--projct`; did you mean `--project`?\n",
        );
}

/// A flag typed with a value is refused in one wording wherever it is typed, mur's own
/// commands' flags and the host's short flags too: `catalog --json=1` said clap's
/// "unexpected value `1` for `--json` found; no more were expected" with `--json` in the
/// usage as if required, and `-v=false` before a verb "unexpected argument `-=` found",
/// where after a verb's name `-v=false` is "`-v` takes no value, got `false`".
#[test]
fn a_flag_of_murs_own_commands_or_a_short_one_given_a_value_is_refused_as_after_a_verb() {
    let sb = Sandbox::new();
    for (line, flag, value) in [
        (&["devtools", "catalog", "--json=1"][..], "--json", "1"),
        (
            &["devtools", "session", "list", "--json=true"],
            "--json",
            "true",
        ),
        (&["devtools", "verbs", "list", "--all="], "--all", ""),
        (&["devtools", "-v=false", "tree"], "-v", "false"),
        (&["-v=false", "devtools", "tree"], "-v", "false"),
        (&["devtools", "-vq=1", "catalog"], "-q", "1"),
        // After a derived verb's name (no verb is installed here): it was taken for a
        // stray word, "unexpected argument `-v=false`; did you mean `--selector
        // -v=false`?".
        (&["devtools", "click", "-v=false"], "-v", "false"),
        (&["devtools", "click", "#b", "-q=1"], "-q", "1"),
    ] {
        refused_as_taking_no_value(&sb, line, flag, value);
    }
}

/// A letter after mur's short flags that is none of mur's is named with the word it was
/// typed in, before a verb's name as after it (the kit's words): clap named the letter
/// alone, `-vx` "unknown option `-x`", as if `-x` had been typed.
#[test]
fn a_letter_after_murs_short_flags_is_named_in_its_word_as_after_a_verb() {
    let sb = mur_e2e::plugins::standard_sandbox();
    for (line, said, usage) in [
        (
            &["devtools", "-vx", "tree"][..],
            "unknown option `-x` in `-vx`",
            "mur devtools [OPTIONS] <COMMAND>",
        ),
        (
            &["devtools", "catalog", "-qvx=1"],
            "unknown option `-x` in `-qvx=1`",
            "mur devtools catalog [OPTIONS]",
        ),
    ] {
        sb.mur(line)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: {said}\nhint: usage: {usage} (`--help` shows more)\n"
            ));
    }
    sb.mur(&["devtools", "tree", "-vx"])
        .assert_code(1)
        .assert_stderr_starts_with("error: tree: unknown option `-x` in `-vx`\n");
}

/// A word one of mur's own commands takes none of is refused as a verb refuses one:
/// "unexpected argument `json`", on one line with the option meant where the word names
/// one or is one slip from one; else with the command's usage. clap said "unexpected
/// argument `json` found" and the usage.
#[test]
fn a_stray_word_to_murs_own_commands_is_refused_in_a_verbs_words() {
    let sb = Sandbox::new();
    for (line, word, meant) in [
        (&["devtools", "catalog", "json"][..], "json", "--json"),
        (&["devtools", "session", "list", "jsn"], "jsn", "--json"),
        (&["devtools", "verbs", "list", "all"], "all", "--all"),
    ] {
        sb.mur(line)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: unexpected argument `{word}`; did you mean `{meant}`?\n"
            ));
    }
    sb.mur(&["devtools", "catalog", "everything"])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(
            "error: unexpected argument `everything`\n\
             hint: usage: mur devtools catalog [OPTIONS] (`--help` shows more)\n",
        );
}

/// A path to write no file can be written at is refused before the call in one wording,
/// with its hint, whoever was to write it: `screenshot --out` (a named verb),
/// `call screenshot --out` and a derived verb's `--out` (`overview`), which said
/// "`--out`: the directory `…` does not exist" with no hint (and of a directory
/// "`--out DIR` names a directory").
#[test]
fn an_out_path_no_file_can_be_written_at_is_refused_alike_by_verbs_and_call() {
    let (sb, _app) = mur_e2e::plugins::standard_session();
    let missing = sb.root().join("no/such/dir/x.png");
    let missing = missing.to_str().expect("utf-8 path");
    let dir = sb.root().join("no/such/dir");
    let root = sb.root().to_str().expect("utf-8 path");
    let hint = "hint: name a file that can be written, in a directory that exists\n";
    for (path, why) in [
        (
            missing,
            format!("the directory `{}` does not exist", dir.display()),
        ),
        (root, "it is a directory, not a file to write".to_owned()),
    ] {
        for argv in [
            &["screenshot", "--out", path][..],
            &["call", "screenshot", "--out", path],
            &["overview", "--out", path],
        ] {
            sb.devtools(argv)
                .assert_code(1)
                .assert_stdout_is("")
                .assert_stderr_is(format!(
                    "error: cannot write `{path}`: {why} (nothing was sent)\n{hint}"
                ));
        }
    }
    assert!(!dir.exists(), "nothing was written");
}

/// A JSON option's value read from a pipe its writer keeps open is read within the
/// command's `--timeout`, whichever kind of verb reads it: an installed verb (`fire`'s
/// `--args -`) and a data verb (`--by @-`), as `call --args -` is (host_call). Each is
/// given the bound as a value where it reads, no longer a process-wide one set aside.
#[test]
fn a_pipe_held_open_is_read_within_the_timeout_by_every_kind_of_verb() {
    let sb = mur_e2e::plugins::standard_sandbox();
    let data = sb.file(
        "by.json",
        r#"{"schema": "mur-verb/1", "name": "by", "tool": "state", "summary": "s", "options": [{"field": "by", "type": "json"}]}"#,
    );
    mur_e2e::plugins::add(&sb, &[data]);
    for (verb, option) in [
        (&["fire", "c.e", "--args", "-"][..], "--args"),
        (&["by", "--by", "@-"], "--by"),
    ] {
        let argv = [&["devtools", "--timeout", "500"][..], verb].concat();
        let mut held = sb.mur_command(&argv);
        held.stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let (mur, writer) = mur_e2e::Process::spawn_with_stdin(&mut held);
        let out = mur.wait_output();
        drop(writer);
        out.assert_code(1).assert_stdout_is("").assert_stderr_starts_with(&format!(
            "error: {}: `{option}`: stdin was not closed by its writer within 500 ms (the bound \
             `--timeout` sets)\n",
            verb[0]
        ));
    }
}

/// Help and the version are a command's output like any other: on a stdout that cannot
/// take them (a full disk) mur says so and exits 7, as `completions bash` does. They
/// exited 0 with nothing said, the text lost. A closed pipe stays a quiet exit 0
/// (a_closed_stdout_pipe_is_a_quiet_exit).
#[test]
fn help_and_the_version_on_a_full_stdout_fail_as_every_output_does() {
    let sb = Sandbox::new();
    for argv in [
        &["--help"][..],
        &["devtools", "call", "--help"],
        &["help", "devtools", "call"],
        &["--version"],
        &["completions", "bash"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("open /dev/full");
        let mut mur = sb.mur_command(argv);
        mur.stdout(full).stderr(std::process::Stdio::piped());
        let (out, _) = mur_e2e::run_within(&mut mur, mur_e2e::RUN_LIMIT);
        assert_eq!(
            (out.code, out.stderr.as_str()),
            (
                7,
                "error: cannot write to stdout: No space left on device (os error 28)\n"
            ),
            "mur {argv:?}"
        );
    }
    let (reader, closed) = std::io::pipe().expect("pipe");
    drop(reader);
    let mut help = sb.mur_command(&["help", "devtools", "call"]);
    help.stdout(closed).stderr(std::process::Stdio::piped());
    let out = mur_e2e::Process::spawn(&mut help).wait_output();
    out.assert_code(0).assert_stderr_is("");
}

/// A failed tool's answer (its stdout) that cannot be written is said to be lost, beside
/// the failure, whose exit code stays the tool's (5): it was lost without a word.
#[test]
fn a_failed_tools_answer_that_stdout_cannot_take_is_said_to_be_lost() {
    use mur_e2e::stub::Reply;
    let server = Stub::serve(|request| {
        let failed =
            serde_json::json!({ "isError": true, "content": [{ "type": "text", "text": "no" }] });
        Reply::json(
            200,
            &serde_json::json!({ "jsonrpc": "2.0", "id": request.json()["id"], "result": failed }),
        )
    });
    let sb = Sandbox::new();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("open /dev/full");
    let mut mur = sb.mur_command(&[
        "devtools",
        "--endpoint",
        &server.endpoint(),
        "call",
        "version",
    ]);
    mur.stdout(full).stderr(std::process::Stdio::piped());
    let (out, _) = mur_e2e::run_within(&mut mur, mur_e2e::RUN_LIMIT);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            5,
            "warning: cannot write to stdout: No space left on device (os error 28)\n\
             error: tool `version` failed: no\n"
        )
    );
}

/// A body that starts with a UTF-8 byte order mark is read as the same body without it,
/// JSON as an event stream (whose format says to skip one): the JSON one was refused,
/// exit 2, "answered with no JSON mur can read: expected value at line 1 column 1:
/// ﻿{"jsonrpc"…", the mark invisible in the line.
#[test]
fn a_byte_order_mark_before_an_answer_is_skipped_in_json_as_in_an_event_stream() {
    use mur_e2e::stub::Reply;
    for content_type in ["application/json", "text/event-stream"] {
        let server = Stub::serve(move |req| {
            let answer = serde_json::json!({
                "jsonrpc": "2.0",
                "id": req.json()["id"],
                "result": { "content": [{ "type": "text", "text": "hi" }] },
            });
            let body = match content_type {
                "application/json" => answer.to_string(),
                _ => format!("event: message\ndata: {answer}\n\n"),
            };
            Reply::Respond {
                status: 200,
                headers: vec![("content-type".into(), content_type.into())],
                body: [&b"\xEF\xBB\xBF"[..], body.as_bytes()].concat(),
            }
        });
        Sandbox::new()
            .devtools_at(&server.endpoint(), &["call", "echo"])
            .assert_code(0)
            .assert_stderr_is("")
            .assert_stdout_is("{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}\n");
    }
}

/// A tool name too long for a session's headers (it goes in `Mcp-Name`) is refused as a
/// body too large is (HTTP 413): the caller's input, exit 1, the header and its size
/// named. It was exit 2, "answered HTTP 431 Request Header Fields Too Large", no hint:
/// a transport fault a script retries unchanged.
#[test]
fn a_request_whose_headers_a_session_refuses_as_too_large_is_a_usage_error() {
    let (sb, sample) = Sandbox::with_app();
    let name = "n".repeat(100_000);
    sb.devtools(&["call", &name])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{}` refused the request's headers as larger than it takes (HTTP 431): \
             its `mcp-name` header (the tool's name) alone was 100000 bytes\n",
            sample.endpoint()
        ));
}

/// A control character in a field help shows as one line is refused at `verbs add`,
/// the field named: a data verb whose summary was "ok\nerror: forged" was added, and
/// its `--help` then printed a line `error: forged` as if mur had failed. A component
/// verb's summary is held to the same rule where it is judged (its `info`).
#[test]
fn a_verb_whose_one_line_fields_hold_a_control_character_is_not_added() {
    let sb = Sandbox::new();
    let data = sb.file(
        "ctrl.json",
        r#"{"schema": "mur-verb/1", "name": "ctrl", "tool": "state", "summary": "ok\nerror: forged"}"#,
    );
    let ping = std::fs::read(mur_e2e::plugins::guest("ping")).expect("read ping");
    let said = b"Answer pong with the session's version (test verb)";
    let at = ping
        .windows(said.len())
        .position(|w| w == said)
        .expect("ping's summary");
    let mut forged = ping.clone();
    forged[at + said.len() - 12..at + said.len()].copy_from_slice(b"\nerror: fake");
    let component = sb.file("ping.wasm", forged);
    let data_path = data.to_str().expect("utf-8");
    sb.devtools(&["verbs", "add", data_path])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: `{data_path}` has a control character in `summary`, which is one line: \
             \"ok\\nerror: forged\"\n\
             hint: write `summary`, `output`, each example and an option's `field`, `type`, \
             `help` and choices on one line, without control characters; `details` may have \
             several lines\n"
        ));
    let component_path = component.to_str().expect("utf-8");
    sb.devtools(&["verbs", "add", component_path])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(format!(
            "error: verb `ping` in `{component_path}` has a summary with a control character: \
             \"Answer pong with the session's version\\nerror: fake\"\n"
        ));
    sb.devtools(&["verbs", "list"])
        .assert_code(0)
        .assert_stdout_is("");
}

/// `XDG_DATA_HOME` set to a file is said as such: every `verbs` command and a named
/// verb said "the verb index `…/afile/mur/verbs/index.json` cannot be read: Not a
/// directory" with a hint to remove that path, which cannot exist.
#[test]
fn a_data_home_that_is_a_file_is_said_to_be_one() {
    Sandbox::new().assert_home_file_refused(
        "XDG_DATA_HOME",
        "verbs",
        "mur/verbs",
        &[&["verbs", "list"], &["tree"]],
    );
}

/// `-v` starts mur's debug log once, whichever command it is given to: `verbs list
/// --all` started it twice and panicked (exit 101); `usage report` took `-v` and
/// ignored it. With a session or without, each ends as it does without `-v`.
#[test]
fn verbose_ends_every_command_as_it_ends_without_it() {
    let sb = Sandbox::new();
    for words in [
        &["verbs", "list", "--all"][..],
        &["verbs", "list"],
        // A fixed window: the report names its bounds.
        &["usage", "report", "--until", "2026-11-01T00:00:00Z"],
        &["usage", "path"],
        &["guide"],
        &["session", "list"],
        &["catalog"],
    ] {
        let quiet = sb.mur(&[&["devtools"][..], words].concat());
        for verbose in [
            [&["-v", "devtools"][..], words].concat(),
            [&["devtools"][..], words, &["-v"]].concat(),
        ] {
            let out = sb.mur(&verbose);
            assert_eq!(out.code, quiet.code, "{verbose:?}:\n{out}");
            assert_eq!(out.stdout, quiet.stdout, "{verbose:?}:\n{out}");
            assert!(!out.stderr.contains("panicked"), "{verbose:?}:\n{out}");
        }
    }
}

/// Every command of mur's that is no call reads only some host options, and refuses
/// another in one wording (README, "does nothing for"): `session list --endpoint` was
/// refused in words of its own, and `session clean --answer`, `guide --answer`, `usage
/// path --project` and `completions bash --pretty` ran, ignoring it. `--project` works
/// where a session is looked for, and `-v` and `-q` with every command.
#[test]
fn a_host_option_a_command_does_not_read_is_refused_in_one_wording() {
    let sb = Sandbox::new();
    let refused = |words: &[&str], said: &str, usage: &str| {
        sb.mur(words)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!(
                "error: {said} of the host options\nhint: usage: {usage} (`--help` shows more)\n"
            ));
    };
    refused(
        &[
            "devtools",
            "session",
            "list",
            "--endpoint",
            "http://127.0.0.1:1/mcp",
        ],
        "`--endpoint` does nothing for `session list`, which reads only `--project`, `--auto`, \
         `--auto-full`, `--auto-range`, `--timeout`, `--pretty`, `-v` and `-q`",
        "mur devtools session list [OPTIONS]",
    );
    refused(
        &["devtools", "session", "clean", "--answer", "a=b"],
        "`--answer` does nothing for `session clean`, which reads only `--timeout`, `-v` and `-q`",
        "mur devtools session clean [OPTIONS]",
    );
    refused(
        &["devtools", "guide", "--answer", "x=1"],
        "`--answer` does nothing for `guide`, which reads only `-v` and `-q`",
        "mur devtools guide [OPTIONS]",
    );
    refused(
        &["devtools", "--project", "/x", "usage", "path"],
        "`--project` does nothing for `usage path`, which reads only `-v` and `-q`",
        "mur devtools usage path [OPTIONS]",
    );
    refused(
        &["completions", "bash", "--pretty"],
        "`--pretty` does nothing for `completions`, which reads only `-v` and `-q`",
        "mur completions [OPTIONS] <SHELL>",
    );
    // Its help lists what it reads, and no other.
    let help = sb.mur(&["devtools", "session", "clean", "--help"]);
    let host = help
        .stdout
        .split("Host options:")
        .nth(1)
        .unwrap_or_default();
    assert!(
        host.contains("--timeout") && !host.contains("--endpoint"),
        "{help}"
    );
    // Read where a session is looked for: none runs. `-q` goes with every command.
    sb.mur(&["devtools", "--project", "/x", "verbs", "list"])
        .assert_code(0);
    sb.mur(&["devtools", "-q", "usage", "path"]).assert_code(0);
}

/// `call ''` says the name is empty: clap's "a value is required for `[NAME]`" named
/// it as optional.
#[test]
fn an_empty_tool_name_is_said_to_be_empty() {
    Sandbox::new()
        .mur(&["devtools", "call", ""])
        .assert_code(1)
        .assert_stdout_is("")
        .assert_stderr_is(
            "error: the tool name is empty\n\
             hint: `mur devtools call tools/list` lists the session's tools\n",
        );
}

// helper 424: an empty value given to a host option or a command's says it was given.

/// An empty value (`--timeout ''`, `--only-verbs=`, a script's `"$UNSET"`) says it was
/// given empty, before the verb, after it and to a command alike: it read "needs a value",
/// as if the word had been left out. One left out still reads so.
#[test]
fn an_empty_value_is_said_to_be_given_empty() {
    let sb = Sandbox::new();
    let devtools = "hint: usage: mur devtools [OPTIONS] <COMMAND> (`--help` shows more)\n";
    let prune = "hint: usage: mur devtools verbs prune [OPTIONS] (`--help` shows more)\n";
    for (argv, said, usage) in [
        (
            &["devtools", "--timeout", "", "state"][..],
            "`--timeout <MS>` needs a value (it was given empty)",
            devtools,
        ),
        (
            &["devtools", "--timeout=", "state"],
            "`--timeout <MS>` needs a value (it was given empty)",
            devtools,
        ),
        (
            &["devtools", "state", "--timeout", ""],
            "`--timeout <MS>` needs a value (it was given empty)",
            devtools,
        ),
        (
            &["devtools", "verbs", "prune", "--only-verbs="],
            "`--only-verbs <VERB,…>` needs a value (it was given empty)",
            prune,
        ),
        (
            &["devtools", "verbs", "prune", "--only-verbs", ""],
            "`--only-verbs <VERB,…>` needs a value (it was given empty)",
            prune,
        ),
        (
            &["devtools", "--timeout"],
            "`--timeout <MS>` needs a value",
            devtools,
        ),
    ] {
        sb.mur(argv)
            .assert_code(1)
            .assert_stdout_is("")
            .assert_stderr_is(format!("error: {said}\n{usage}"));
    }
}

/// A standard (kit) verb takes `--args JSON` as a derived verb does: the tool's whole
/// arguments object, its fields sent as typed, the options given beside it overriding
/// them, `@FILE` read by mur; anything but an object is a usage error (exit 1), in the
/// derived verbs' words. It was refused as an unknown option, on the kit verbs only.
#[test]
fn a_kit_verb_takes_args_as_a_derived_verb_does() {
    let (sb, _sample) = mur_e2e::plugins::standard_session();
    let whole = r##"{"selector": "#count", "view": "full"}"##;
    let called = |whole: &str| {
        let out = sb.devtools(&["call", "tree", "--args", whole]);
        out.assert_quiet_success().json()["structuredContent"].clone()
    };
    let full = called(whole);
    let by_verb = sb.devtools(&["tree", "--args", whole]);
    assert_eq!(by_verb.assert_quiet_success().json(), full);
    assert!(by_verb.stdout.contains("\"bounds\""), "{by_verb}");

    // An option given beside it overrides its field.
    let summary = called(r##"{"selector": "#count"}"##);
    let overridden = sb.devtools(&["tree", "--view", "summary", "--args", whole]);
    assert_eq!(overridden.assert_quiet_success().json(), summary);

    // `@FILE`, as a derived verb reads it.
    let file = sb.root().join("args.json");
    std::fs::write(&file, whole).expect("write args.json");
    let at = format!("@{}", file.display());
    let read = sb.devtools(&["tree", "--args", &at]);
    assert_eq!(read.assert_quiet_success().json(), full);

    // A positional no word is typed for is taken from it, as a derived verb takes a
    // required property.
    let clicked = sb.devtools(&["click", "--args", r##"{"selector": "#btn-inc"}"##]);
    clicked.assert_quiet_success();
    let count = sb.devtools(&["state", "--selector", "#count"]);
    assert_eq!(count.assert_quiet_success().json()["text"], "1", "{count}");

    let refused = sb.devtools(&["tree", "--args", "[1]"]);
    refused.assert_code(1);
    assert!(refused.stdout.is_empty(), "{refused}");
    assert!(
        refused
            .stderr
            .starts_with("error: tree: `--args` must be a JSON object\n"),
        "{refused}"
    );
}
