//! Tests of the helper through a sample verb, the way verb crates use it.

use crate::argv::{Kind, Opt, Pos, Spec};
use crate::info::ValueKind;
use crate::serde_json::json;
use crate::shape::Shaped;
use crate::{About, Call, Parsed, Verb, info, parse, shape};

/// `--view summary|full`: the sample's choice option.
const VIEW: Opt = Opt::value(
    "view",
    "summary|full",
    Kind::Choice(&["summary", "full"]),
    "how much",
);

struct Sample;

impl Verb for Sample {
    const ABOUT: About = About {
        name: "sample",
        tool: "sampleTool",
        summary: "Do a sample thing",
        synopsis: "sample <selector> <text> [--view summary|full] [--count N] [--a | --b]",
        details: "",
        examples: &["mur devtools sample '#x' hello"],
    };
    const SPEC: Spec = Spec {
        positionals: &[
            Pos::new("selector", "selector", Kind::Selector, "the element"),
            Pos::new("text", "text", Kind::Text, "the text"),
        ],
        options: &[
            Opt::value("window", "W", Kind::Text, "the window"),
            VIEW,
            Opt::value("count", "N", Kind::Count, "how many"),
            Opt::value("out", "PATH", Kind::OutPath, "where"),
            Opt::value("args", "JSON", Kind::Json, "extra"),
            Opt::flag("include-reactor-source", "with sources"),
            Opt::flag("a", "a"),
            Opt::flag("b", "b"),
        ],
        exclusive: &[&["a", "b"]],
    };
}

fn argv(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| (*word).to_owned()).collect()
}

fn call(words: &[&str]) -> Call {
    call_of::<Sample>(words)
}

/// The call verb `V` makes of `words`, which it must take.
fn call_of<V: Verb>(words: &[&str]) -> Call {
    match parse::<V>(&argv(words)) {
        Ok(Parsed::Call(call)) => call,
        other => panic!("expected a call for {words:?}, got {other:?}"),
    }
}

/// The arguments object verb `V` sends given `words`, which it must take.
fn sent_by<V: Verb>(words: &[&str]) -> serde_json::Value {
    sent(&call_of::<V>(words))
}

/// Declares `$verb`, a verb of [`Sample`]'s `About` but for its name, `$name`, whose
/// spec is `$spec`: what a test of one kind of argument parses with (a verb's `About`
/// and `Spec` are consts of its own type).
macro_rules! sample_verb {
    ($verb:ident, $name:literal, $spec:expr) => {
        struct $verb;
        impl Verb for $verb {
            const ABOUT: About = About {
                name: $name,
                ..Sample::ABOUT
            };
            const SPEC: Spec = $spec;
        }
    };
}

/// The arguments object `call` sends.
fn sent(call: &Call) -> serde_json::Value {
    serde_json::from_str(&call.arguments).expect("the arguments are JSON")
}

fn error(words: &[&str]) -> String {
    refused_by::<Sample>(words)
}

/// The message verb `V` refuses `words` with; the test fails if they were taken.
fn refused_by<V: Verb>(words: &[&str]) -> String {
    refusal(parse::<V>(&argv(words)), words)
}

/// The message `parsed`, the parse of `words`, refused them with; the test fails if
/// they were taken.
fn refusal<T: std::fmt::Debug>(parsed: Result<T, String>, words: &[&str]) -> String {
    match parsed {
        Err(message) => message,
        Ok(taken) => panic!("expected an error for {words:?}, got {taken:?}"),
    }
}

#[test]
fn positionals_and_options_become_the_arguments_object() {
    let call = call(&[
        "#x",
        "hi",
        "--window",
        "main",
        "--view=full",
        "--count",
        "3",
        "--include-reactor-source",
    ]);
    let expected = json!({"selector": "#x", "text": "hi", "window": "main", "view": "full", "count": 3,
        "includeReactorSource": true});
    assert_eq!(sent(&call), expected);
    assert_eq!(call.timeout_ms, None);
}

#[test]
fn local_options_are_not_sent_and_text_may_be_empty() {
    let call = call(&["#x", "", "--out", "shot.png"]);
    assert_eq!(sent(&call), json!({"selector": "#x", "text": ""}));
}

#[test]
fn words_after_double_dash_are_positionals() {
    let call = call(&["--", "--weird", "-h"]);
    assert_eq!(sent(&call), json!({"selector": "--weird", "text": "-h"}));
}

#[test]
fn timeout_is_accepted_by_every_verb_as_a_hint() {
    assert_eq!(
        call(&["#x", "t", "--timeout", "2500"]).timeout_ms,
        Some(2500)
    );
    assert_eq!(call(&["#x", "t", "--timeout=10"]).timeout_ms, Some(10));
}

/// A milliseconds value and its verdict (the number, `refused` or `past u32`), as mur
/// reads its own `--timeout MS` (`mur_core::settings::timeout_ms`: the text trimmed,
/// then a `u64`'s `from_str`, at least 1) and as `wit/verb.wit` carries it (a `u32`): one
/// table, which this test, the Python kit's `test_kit.py` and the JavaScript kit's
/// `kit.test.js` all run, held identical, and to `mur --timeout`, by the scaffold e2e
/// test (tests/tests/e2e/scaffold.rs).
// milliseconds: begin (the same rows in the Python and JavaScript kits' tests)
const MILLISECONDS: [(&str, &str); 28] = [
    ("900", "900"),
    ("+900", "900"),
    ("0900", "900"),
    (" 900\t", "900"),
    ("\u{3000}+900\n", "900"),
    ("\u{0085}900\u{00a0}", "900"),
    ("4294967295", "4294967295"),
    ("abc", "refused"),
    ("-5", "refused"),
    ("0", "refused"),
    ("+0", "refused"),
    ("-0", "refused"),
    ("", "refused"),
    (" ", "refused"),
    ("+", "refused"),
    ("++9", "refused"),
    ("9 00", "refused"),
    ("1.5", "refused"),
    ("5s", "refused"),
    ("0x10", "refused"),
    ("1e3", "refused"),
    ("1_000", "refused"),
    ("²", "refused"),
    ("١٢", "refused"),
    ("\u{feff}900", "refused"),
    ("\u{001c}900", "refused"),
    ("4294967296", "past u32"),
    ("+99999999999", "past u32"),
];
// milliseconds: end

/// A milliseconds value, `--timeout`'s or a verb's own option's, is read by the one
/// table above, and refused in one set of words, the host's for its own `--timeout`
/// before the verb's name (`mur_core::settings::timeout_ms`): the kit took `+900` for
/// `--timeout` only, no white space around it, and any text at all for another
/// milliseconds option; it said a bad `--timeout` after the verb's name in words of its
/// own.
#[test]
fn a_milliseconds_value_is_read_as_mur_reads_its_timeout() {
    sample_verb!(
        Pause,
        "pause",
        Spec {
            options: &[Opt::value("pause", "MS", Kind::Millis, "how long to pause")],
            ..Spec::NONE
        }
    );
    let long = "9".repeat(5000);
    let rows = MILLISECONDS
        .into_iter()
        .chain([(long.as_str(), "past u32")]);
    for (word, verdict) in rows {
        for name in ["timeout", "pause"] {
            let option = format!("--{name}");
            let parsed = parse::<Pause>(&argv(&[&option, word]));
            let invalid = format!("invalid value `{word}` for `{option} <MS>`");
            let zero = word.trim().trim_start_matches('+') == "0";
            let said = match verdict {
                "refused" if word.is_empty() => {
                    format!("`{option} <MS>` needs a value (it was given empty)")
                }
                "refused" if zero => format!("{invalid}: the bound must be at least 1 ms"),
                "refused" => format!(
                    "{invalid}: `{word}` is not a whole number of milliseconds (e.g. `5000`)"
                ),
                "past u32" => {
                    format!("{invalid}: the bound is at most 4294967295 ms (about 49 days)")
                }
                ms => {
                    let Ok(Parsed::Call(call)) = parsed else {
                        panic!("`{option} {word:?}` refused: {parsed:?}");
                    };
                    let timeout = (name == "timeout").then(|| ms.parse().expect("a number"));
                    assert_eq!(call.timeout_ms, timeout, "{word:?}");
                    continue;
                }
            };
            assert_eq!(refusal(parsed, &[&option, word]), said);
        }
    }
}

/// A positional is held to its kind and sent by it, as its option form's value is and as
/// the Python and JavaScript kits hold and send one: the kit took any word for a choice,
/// a count or milliseconds, and sent each as a string (milliseconds too, never sent).
#[test]
fn a_positional_is_held_to_its_kind_and_sent_by_it() {
    sample_verb!(
        Kinds,
        "kinds",
        Spec {
            positionals: &[
                Pos::new("mode", "mode", Kind::Choice(&["fast", "slow"]), "how").or_option("M"),
                Pos::new("n", "n", Kind::Count, "how many"),
                Pos::new("pause", "pause", Kind::Millis, "how long"),
                Pos::new("data", "data", Kind::Json, "what"),
            ],
            ..Spec::NONE
        }
    );
    let parse = |words: &[&str]| parse::<Kinds>(&argv(words));
    let Ok(Parsed::Call(call)) = parse(&["fast", "3", "+900", r#" {"a": [1]} "#]) else {
        panic!("refused");
    };
    // Read by a verb's own code as the number it is sent as, as the Python and
    // JavaScript kits give it; `None` for another kind or a count not given.
    let args = crate::argv::Args::from_state(&Kinds::SPEC, &call.state).expect("state");
    assert_eq!((args.count("n"), args.count("mode")), (Some(3), None));
    let with = |words: &[&str]| match crate::argv::Args::parse(&Sample::SPEC, &argv(words)) {
        Ok(crate::argv::Request::Run(args)) => args,
        other => panic!("{other:?}"),
    };
    assert_eq!(with(&["#x", "t", "--count", "+7"]).count("count"), Some(7));
    assert_eq!(with(&["#x", "t"]).count("count"), None);
    assert_eq!(with(&["#x", "t", "--window", "7"]).count("window"), None);
    assert_eq!(
        sent(&call),
        json!({"mode": "fast", "n": 3, "data": {"a": [1]}})
    );
    for (words, said) in [
        (
            &["fats", "3", "900", "1"][..],
            "`<mode>` must be `fast` or `slow`, got `fats`; did you mean `fast`?",
        ),
        (
            &["3", "900", "1", "--mode", "quick"],
            "`--mode` must be `fast` or `slow`, got `quick`",
        ),
        (
            &["fast", "many", "900", "1"],
            "`<n>` needs a non-negative integer, got `many`",
        ),
        // A number the count refuses is told why, not to give it after `--`, where it
        // would be refused all the same (Python's and JavaScript's `integer` take `-1`,
        // and hint `--` for it).
        (
            &["fast", "-1", "900", "1"],
            "`<n>` is out of range: an integer at least 0, got `-1`",
        ),
        (
            &["fast", "--", "-1", "900", "1"],
            "`<n>` is out of range: an integer at least 0, got `-1`",
        ),
        (
            &["fast", "18446744073709551616", "900", "1"],
            "`<n>` is out of range: an integer from 0 to 18446744073709551615, got \
             `18446744073709551616`",
        ),
        (&["fast", "-x", "900", "1"], "unknown option `-x`"),
        (
            &["fast", "3", "0", "1"],
            "invalid value `0` for `<pause>`: the bound must be at least 1 ms",
        ),
        (
            &["fast", "3", "4294967296", "1"],
            "invalid value `4294967296` for `<pause>`: the bound is at most 4294967295 ms \
             (about 49 days)",
        ),
    ] {
        assert_eq!(refusal(parse(words), words), said, "{words:?}");
    }
    let words = ["fast", "3", "900", "{"];
    let said = refusal(parse(&words), &words);
    assert!(said.starts_with("`<data>` is not valid JSON: "), "{said}");
}

/// An integer ([`Kind::Integer`]) is read as mur reads one (a derived verb's `integer`
/// option; the Python and JavaScript kits' kind `integer`), any JSON holds exactly
/// (-2^63 to 2^64-1), and sent as a JSON number, exactly: it was `Kind::Json`, so
/// `--offset abc` was told "not valid JSON" and `--offset '"1"'` sent a string.
#[test]
fn an_integer_is_read_as_mur_reads_one_and_sent_exactly() {
    sample_verb!(
        Offset,
        "offset",
        Spec {
            positionals: &[Pos::new("by", "by", Kind::Integer, "how far").or_option("N")],
            options: &[Opt::value("offset", "N", Kind::Integer, "the offset")],
            exclusive: &[],
        }
    );
    let sent_by = sent_by::<Offset>;
    let refused = refused_by::<Offset>;
    for (word, integer) in [
        ("2", json!(2)),
        ("+2", json!(2)),
        ("-0", json!(0)),
        ("-12", json!(-12)),
        ("007", json!(7)),
        ("-007", json!(-7)),
        ("18446744073709551615", json!(18446744073709551615_u64)),
        ("+18446744073709551615", json!(18446744073709551615_u64)),
        ("-9223372036854775808", json!(-9223372036854775808_i64)),
        ("9007199254740993", json!(9007199254740993_u64)),
    ] {
        let sent = sent_by(&["--offset", word, "--", word]);
        assert_eq!(sent, json!({"by": integer, "offset": integer}), "{word}");
        // Exactly: as the integer types write it, never through a float.
        let digits = integer.to_string();
        assert_eq!(
            sent.to_string(),
            format!(r#"{{"by":{digits},"offset":{digits}}}"#)
        );
        assert!(integer.is_i64() || integer.is_u64(), "{word}");
    }
    // `--args` gives the positional a number as it gives a count one.
    assert_eq!(
        sent_by(&["--args", r#"{"by": -3, "k": 1}"#]),
        json!({"by": -3, "k": 1})
    );
    assert_eq!(sent_by(&["--args", r#"{"by": "-3"}"#]), json!({"by": -3}));
    // Read by a verb's own code as the number it is sent as.
    let args = |words: &[&str]| match crate::argv::Args::parse(&Offset::SPEC, &argv(words)) {
        Ok(crate::argv::Request::Run(args)) => args,
        other => panic!("{other:?}"),
    };
    let given = args(&["--offset", "18446744073709551615", "--", "-2"]);
    assert_eq!(
        (given.integer("by"), given.integer("offset")),
        (Some(-2), Some(18446744073709551615))
    );
    assert_eq!(
        args(&["--", "-9223372036854775808"]).integer("by"),
        Some(-9223372036854775808)
    );
    assert_eq!(args(&["2"]).integer("offset"), None);
    assert_eq!(args(&["2"]).count("by"), None);
    assert_eq!(args(&["2"]).number("by"), None);
    assert_eq!(with_count().integer("count"), None);
    // The Python and JavaScript kits' words (kit.py, kit.js: `needs an integer`, and
    // `is out of range` for digits past what JSON holds exactly).
    for word in [
        "abc", "", " 1", "1 ", "1_000", "0x10", "1e3", "1.0", "1.", ".5", "NaN", "inf", "+-1",
        "--1", "-", "+", "\"1\"", "١٢",
    ] {
        let said = refused(&["1", "--offset", word]);
        assert_eq!(said, format!("`--offset` needs an integer, got `{word}`"));
        let said = refused(&["--", word]);
        assert_eq!(said, format!("`<by>` needs an integer, got `{word}`"));
    }
    let range = "an integer from -9223372036854775808 to 18446744073709551615";
    for word in [
        "18446744073709551616",
        "-9223372036854775809",
        "99999999999999999999999999999",
    ] {
        let said = refused(&["1", "--offset", word]);
        assert_eq!(
            said,
            format!("`--offset` is out of range: {range}, got `{word}`")
        );
        let said = refused(&["--", word]);
        assert_eq!(
            said,
            format!("`<by>` is out of range: {range}, got `{word}`")
        );
    }
    let said = refused(&["--args", r#"{"by": 1.0}"#]);
    assert_eq!(said, "`by` in `--args` needs an integer, got `1.0`");
    let said = refused(&["--args", r#"{"by": true}"#]);
    assert_eq!(said, "`by` in `--args` must be a string, got `true`");
    // A negative integer for it is told to follow `--`, as a number's is; one past the
    // range why it is refused, as after `--`; one no integer is, the unknown option.
    let said = refused(&["-3"]);
    assert_eq!(
        said,
        "unknown option `-3`; to give it as `<by>`, put it after `--`: did you mean \
         `mur devtools offset -- -3`?"
    );
    let said = refused(&["-9223372036854775809"]);
    assert_eq!(
        said,
        format!("`<by>` is out of range: {range}, got `-9223372036854775809`")
    );
    let said = refused(&["-1.5"]);
    assert!(said.starts_with("unknown option `-1"), "{said}");
    assert!(!said.contains("after `--`"), "{said}");
    // Declared to the host as an `integer`, which a wait's argument may be.
    let info = info::<Offset>();
    assert_eq!(info.positionals[0].kind, ValueKind::Integer);
    assert_eq!(info.options[0].kind, ValueKind::Integer);
    let waits = crate::Waits {
        argument: "offset",
        default_ms: 5000,
    };
    assert_eq!(
        info::refused(&Offset::ABOUT, &Offset::SPEC, Some(waits)).concat(),
        ""
    );
}

/// A number ([`Kind::Number`]) is read as mur reads one (a derived verb's `number`
/// option; the Python and JavaScript kits' kind `number`) and sent as a JSON number,
/// an integer as typed: it was `Kind::Json`, so `--ratio abc` was told "not valid
/// JSON", `--ratio '"1"'` sent a string, and `+1`, `.5` or `1.` were refused.
#[test]
fn a_number_is_read_as_mur_reads_one_and_sent_as_a_json_number() {
    sample_verb!(
        Scaled,
        "scaled",
        Spec {
            positionals: &[Pos::new("by", "by", Kind::Number, "how much").or_option("NUMBER")],
            options: &[Opt::value("ratio", "NUMBER", Kind::Number, "the ratio")],
            exclusive: &[],
        }
    );
    let sent_by = sent_by::<Scaled>;
    let refused = refused_by::<Scaled>;
    for (word, number) in [
        ("2", json!(2)),
        ("+2", json!(2)),
        ("-0", json!(0)),
        ("-12", json!(-12)),
        ("18446744073709551615", json!(18446744073709551615_u64)),
        ("-9223372036854775808", json!(-9223372036854775808_i64)),
        ("1.5", json!(1.5)),
        ("2.0", json!(2.0)),
        ("2.", json!(2.0)),
        (".5", json!(0.5)),
        ("-1.5e3", json!(-1500.0)),
        ("1e3", json!(1000)),
        ("2E-1", json!(0.2)),
        ("1.e2", json!(100.0)),
        ("1e-400", json!(0)),
        ("007.5", json!(7.5)),
        ("-00e1", json!(0)),
        ("007", json!(7)),
        ("18446744073709551616", json!(18446744073709551616.0)),
    ] {
        assert_eq!(
            sent_by(&["--ratio", word, "--", word]),
            json!({"by": number, "ratio": number}),
            "{word}"
        );
    }
    // `--args` gives the positional a number as it gives a count one.
    assert_eq!(
        sent_by(&["--args", r#"{"by": 1.25, "k": 1}"#]),
        json!({"by": 1.25, "k": 1})
    );
    // Read by a verb's own code as the number it is sent as.
    let args = |words: &[&str]| match crate::argv::Args::parse(&Scaled::SPEC, &argv(words)) {
        Ok(crate::argv::Request::Run(args)) => args,
        other => panic!("{other:?}"),
    };
    let given = args(&["2", "--ratio", "-1.5e1"]);
    assert_eq!(
        (given.number("by"), given.number("ratio")),
        (Some(2.0), Some(-15.0))
    );
    assert_eq!(args(&["2"]).number("ratio"), None);
    assert_eq!(with_count().count("count"), Some(7));
    assert_eq!(with_count().number("count"), None);
    // The Python and JavaScript kits' words (kit.py, kit.js: `needs a number`).
    for word in [
        "abc", "", " 1", "1 ", "1_000", "0x10", "NaN", "nan", "inf", "-inf", "infinity", "1e400",
        "-1e400", "1e", "e5", ".", "+-1", "--1", "1.5.2", "\"1\"", "١٢",
    ] {
        let said = refused(&["1", "--ratio", word]);
        assert_eq!(said, format!("`--ratio` needs a number, got `{word}`"));
        let said = refused(&["--", word]);
        assert_eq!(said, format!("`<by>` needs a number, got `{word}`"));
    }
    // A string in `--args` is its word, as a count's is in every kit.
    assert_eq!(sent_by(&["--args", r#"{"by": "1e1"}"#]), json!({"by": 10}));
    let said = refused(&["--args", r#"{"by": "x"}"#]);
    assert_eq!(said, "`by` in `--args` needs a number, got `x`");
    let said = refused(&["--args", r#"{"by": true}"#]);
    assert_eq!(said, "`by` in `--args` must be a string, got `true`");
    // A negative number for it is told to follow `--`, as a text's word is.
    let said = refused(&["-1.5"]);
    assert_eq!(
        said,
        "unknown option `-1.5`; to give it as `<by>`, put it after `--`: did you mean \
         `mur devtools scaled -- -1.5`?"
    );
    // Declared to the host as a `number`.
    let info = info::<Scaled>();
    assert_eq!(info.positionals[0].kind, ValueKind::Number);
    assert_eq!(info.options[0].kind, ValueKind::Number);
}

/// A choice positional takes a JSON boolean in `--args` as the word it is written as,
/// held to its choices as a word typed is: a required boolean, a choice of `true` and
/// `false`, is taken from `{"on": true}`, which was refused ("must be a string"). Other
/// values than strings and booleans are refused as before, their text being no kit's
/// word alike (`1.0`).
#[test]
fn a_choice_positional_takes_a_boolean_of_args_as_its_word() {
    sample_verb!(
        Switch,
        "switch",
        Spec {
            positionals: &[
                Pos::new("on", "on", Kind::Choice(&["true", "false"]), "(required)")
                    .or_option("true|false"),
                Pos::new("mode", "mode", Kind::Choice(&["a", "b"]), "which"),
            ],
            ..Spec::NONE
        }
    );
    let sent_by = sent_by::<Switch>;
    assert_eq!(
        sent_by(&["--args", r#"{"on": false, "mode": "b"}"#]),
        json!({"on": "false", "mode": "b"})
    );
    assert_eq!(sent_by(&["true", "a"]), json!({"on": "true", "mode": "a"}));
    for (args, said) in [
        (
            r#"{"on": true, "mode": true}"#,
            "`mode` in `--args` must be `a` or `b`, got `true`",
        ),
        (
            r#"{"on": 1, "mode": "a"}"#,
            "`on` in `--args` must be a string, got `1`",
        ),
        (
            r#"{"on": null, "mode": "a"}"#,
            "`on` in `--args` must be a string, got `null`",
        ),
    ] {
        let words = ["--args", args];
        assert_eq!(refused_by::<Switch>(&words), said);
    }
}

fn with_count() -> crate::argv::Args {
    match crate::argv::Args::parse(&Sample::SPEC, &argv(&["#x", "t", "--count", "7"])) {
        Ok(crate::argv::Request::Run(args)) => args,
        other => panic!("{other:?}"),
    }
}

/// A verb whose tool waits on `timeoutMs`: its `--timeout` is sent as that argument
/// too (as a verb's own value of it wins), and the sample, which does not wait, sends
/// none.
#[test]
fn a_tool_that_waits_gets_timeout_as_its_declared_argument() {
    struct Waiting;
    impl Verb for Waiting {
        const ABOUT: About = About {
            name: "waiting",
            tool: "waitFor",
            ..Sample::ABOUT
        };
        const SPEC: Spec = crate::selector_spec!("the element");
        const WAITS: Option<crate::Waits> = Some(crate::Waits {
            argument: "timeoutMs",
            default_ms: 5000,
        });
    }
    let call = sent_by::<Waiting>;
    assert_eq!(
        call(&["#s", "--timeout", "900"]),
        json!({"selector": "#s", "timeoutMs": 900})
    );
    assert_eq!(call(&["#s"]), json!({"selector": "#s"}));
    assert!(!call_has_key(&["#x", "t", "--timeout", "900"], "timeoutMs"));
    // Its help says `--timeout` bounds the wait too, and how long the tool waits without it.
    let timeout_help = |info: crate::Info| {
        let timeout = info.options.into_iter().find(|o| o.name == "timeout");
        timeout.map(|o| o.help).unwrap_or_default()
    };
    assert_eq!(
        timeout_help(crate::info::<Waiting>()),
        "let the wait (default: 5000) and the call take up to MS milliseconds"
    );
    assert_eq!(
        timeout_help(crate::info::<Sample>()),
        "let the call take up to MS milliseconds"
    );
}

fn call_has_key(words: &[&str], key: &str) -> bool {
    sent(&call(words)).get(key).is_some()
}

/// The section `verbs add` reads: `ARGUMENT=MS`, nothing for a tool that does not wait.
#[test]
fn the_waits_section_is_argument_equals_milliseconds() {
    use crate::wit::{waits_len, waits_section};
    let waits = |argument, default_ms| {
        Some(crate::Waits {
            argument,
            default_ms,
        })
    };
    const FIVE: Option<crate::Waits> = Some(crate::Waits {
        argument: "timeoutMs",
        default_ms: 5000,
    });
    assert_eq!(waits_len(FIVE), 14);
    assert_eq!(&waits_section::<14>(FIVE), b"timeoutMs=5000");
    assert_eq!(&waits_section::<3>(waits("t", 0)), b"t=0");
    assert_eq!(&waits_section::<12>(waits("t", u32::MAX)), b"t=4294967295");
    assert_eq!(waits_len(waits("t", u32::MAX)), 12);
    assert_eq!(waits_len(None), 0);
    assert_eq!(waits_section::<0>(None), [0u8; 0]);
}

#[test]
fn help_wins_wherever_it_appears() {
    for words in [
        &["--help"][..],
        &["-h"],
        &["#x", "--bogus", "--help"],
        &["--view", "bad", "-h"],
    ] {
        assert_eq!(parse::<Sample>(&argv(words)), Ok(Parsed::Help), "{words:?}");
    }
}

#[test]
fn only_h_alone_asks_for_help_not_a_word_starting_with_it() {
    // lexopt reads `-hello` as the letters `-h -e -l …`; none of them is help.
    for word in ["-hello", "-hx", "-hi there", "-h=1"] {
        assert_eq!(
            error(&["#x", "t", word]),
            format!("unknown option `{word}`"),
            "{word:?}"
        );
        assert_eq!(
            crate::argv::Args::parse(&Spec::NONE, &argv(&[word])),
            Err(format!("unknown option `{word}`")),
            "{word:?}"
        );
    }
    // A cluster whose first letter is not `h` names that letter, as before.
    assert_eq!(error(&["#x", "t", "-xh"]), "unknown option `-x`");
    // `-h` or `--help` anywhere before `--` still asks for help.
    assert_eq!(
        parse::<Sample>(&argv(&["#x", "-hello", "-h"])),
        Ok(Parsed::Help)
    );
}

/// A number (`-1`, `-15`) is never read as the short form of an option whose name starts
/// with its digit (`--1st`), as a derived verb never reads one as an option: it stays
/// the unknown option it is, as in the Python and JavaScript kits (which said "did you
/// mean `--1st`?").
#[test]
fn a_number_is_never_an_options_short_form() {
    struct Ranked;
    impl Verb for Ranked {
        const ABOUT: About = Sample::ABOUT;
        const SPEC: Spec = Spec {
            positionals: &[Pos::selector("the element")],
            options: &[Opt::value("1st", "N", Kind::Count, "the first")],
            ..Spec::NONE
        };
    }
    crate::testing::assert_usage_errors::<Ranked>(&[
        (&["#x", "-1"], "unknown option `-1`"),
        (&["-1", "#x"], "unknown option `-1`"),
        (&["#x", "-15"], "unknown option `-15`"),
    ]);
}

#[test]
fn a_text_that_starts_with_a_dash_is_told_to_follow_double_dashes() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["#x", "-5"],
            "unknown option `-5`; to give it as `<text>`, put it after `--`: did you mean `mur devtools sample '#x' -- -5`?",
        ),
        (
            &["#x", "-hi there"],
            "unknown option `-hi there`; to give it as `<text>`, put it after `--`: did you mean `mur devtools sample '#x' -- '-hi there'`?",
        ),
        // A number is named whole (`-1` was named for `-15`).
        (
            &["#x", "-15"],
            "unknown option `-15`; to give it as `<text>`, put it after `--`: did you mean `mur devtools sample '#x' -- -15`?",
        ),
        // The options around it are kept, before `--`.
        (
            &["--a", "#x", "-5", "--count", "3"],
            "unknown option `-5`; to give it as `<text>`, put it after `--`: did you mean `mur devtools sample '#x' --a --count 3 -- -5`?",
        ),
        // An unknown long option near none of the verb's.
        (
            &["#x", "--zebra"],
            "unknown option `--zebra`; to give it as `<text>`, put it after `--`: did you mean `mur devtools sample '#x' -- --zebra`?",
        ),
        // No command where the rest of argv is wrong too.
        (
            &["#x", "-5", "--count", "many"],
            "unknown option `-5`; to give it as `<text>`, put it after `--`",
        ),
        // A likely misspelt option is named instead.
        (
            &["#x", "--windw", "w"],
            "unknown option `--windw`; did you mean `--window`?",
        ),
        // Not where the positional still to fill is no text, or none is.
        (&["-5", "#x"], "unknown option `-5`"),
        (&["#x", "t", "-5"], "unknown option `-5`"),
    ];
    crate::testing::assert_usage_errors::<Sample>(cases);
    // Without the verb's name (`Args::parse`), the hint names no command.
    assert_eq!(
        crate::argv::Args::parse(&Sample::SPEC, &argv(&["#x", "-5"])),
        Err("unknown option `-5`; to give it as `<text>`, put it after `--`".to_owned())
    );
}

/// A misspelt option is named case aside, by the rule mur's host names its own
/// commands and verbs by (`mur_core::caseless_meant`, which is
/// `crate::nearest::caseless_meant`: crates/core takes nearest.rs in): caps lock makes
/// no other option. `--WINDW` was "unknown option" alone, `--Window` only as a typo.
#[test]
fn a_misspelt_option_is_named_case_aside() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["#x", "t", "--Window", "w"],
            "unknown option `--Window`; did you mean `--window`?",
        ),
        (
            &["#x", "t", "--WINDOW", "w"],
            "unknown option `--WINDOW`; did you mean `--window`?",
        ),
        (
            &["#x", "t", "--WINDW", "w"],
            "unknown option `--WINDW`; did you mean `--window`?",
        ),
        // A host option, after the verb's name.
        (
            &["#x", "t", "--PRETY"],
            "unknown option `--PRETY`; did you mean `--pretty`?",
        ),
        // A positional written as an option, named as declared.
        (
            &["--SELECTOR", "#x", "t"],
            "unknown option `--SELECTOR`; write `<selector>` without `--SELECTOR`: did you \
             mean `mur devtools sample '#x' t`?",
        ),
    ];
    crate::testing::assert_usage_errors::<Sample>(cases);
}

/// The rule itself, as mur-core's tests of `caseless_meant` would hold it: the word
/// that differs only in case however far, else the likeliest in lower case, and
/// never a word typed where two differ from it only in case.
#[test]
fn caseless_meant_is_case_blind() {
    use crate::nearest::caseless_meant;
    let words = ["click", "clear", "scroll"];
    assert_eq!(caseless_meant("CLICK", words), Some("click"));
    assert_eq!(caseless_meant("CLIK", words), Some("click"));
    assert_eq!(caseless_meant("Scrol", words), Some("scroll"));
    assert_eq!(caseless_meant("ZEBRA", words), None);
    // Given twice, one word.
    assert_eq!(caseless_meant("CLICK", ["click", "click"]), Some("click"));
    assert_eq!(caseless_meant("CLICK", ["Click", "click"]), None);
}

#[test]
fn a_misspelt_host_option_is_named_after_the_verb_too() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["#x", "t", "--projct", "App.csproj"],
            "unknown option `--projct`; did you mean `--project`?",
        ),
        (
            &["#x", "t", "--prety"],
            "unknown option `--prety`; did you mean `--pretty`?",
        ),
        (
            &["#x", "t", "--max-respons", "1M"],
            "unknown option `--max-respons`; did you mean `--max-response`?",
        ),
        // Only a likely typo of a host option, by the host's rule: not `--auto-full`.
        (&["#x", "t", "--to", "B"], "unknown option `--to`"),
        // The verb's own option where it is as near.
        (
            &["#x", "t", "--timout", "5"],
            "unknown option `--timout`; did you mean `--timeout`?",
        ),
        // A host flag with a value, which the host leaves to the verb: no value, not
        // "did you mean `--pretty`?" of `--pretty` itself.
        (
            &["#x", "t", "--pretty=false"],
            "`--pretty` takes no value, got `false`",
        ),
        (
            &["#x", "t", "--quiet=1"],
            "`--quiet` takes no value, got `1`",
        ),
        (&["#x", "t", "--pretty"], "unknown option `--pretty`"),
        // A host option that takes a value, given one: it is mur's, never "takes no
        // value" (the host takes it after the verb's name; the kit sees it natively).
        (
            &["#x", "t", "--project=/a/App.csproj"],
            "`--project` is mur's: give it before the verb's name",
        ),
        (
            &["#x", "t", "--answer=k=v"],
            "`--answer` is mur's: give it before the verb's name",
        ),
        // `-v` and `-q` together, which reach a verb natively or from an older `mur`
        // (which took them after a verb's name only apart; this one takes `-vq`).
        (
            &["#x", "t", "-vq"],
            "unknown option `-vq`; write mur's `-v` and `-q` apart: `-v -q`",
        ),
        (
            &["#x", "-qv", "t"],
            "unknown option `-qv`; write mur's `-v` and `-q` apart: `-q -v`",
        ),
        // `-v` repeated: mur refuses `-v -v` as well, so it is not what to type.
        (
            &["#x", "t", "-vv"],
            "unknown option `-vv`; mur takes `-v` and `-q` once each",
        ),
        // mur's `-v`, then a letter of no flag of mur's: that letter is the unknown one,
        // not `-v`; `-h` is help written apart, and one option's letter is that option.
        (&["#x", "t", "-vx"], "unknown option `-x` in `-vx`"),
        (
            &["#x", "t", "-vh"],
            "unknown option `-vh`; write mur's `-v` apart: `-v -h`",
        ),
        (
            &["#x", "t", "-qvw"],
            "unknown option `-w` in `-qvw`; did you mean `--window`?",
        ),
    ];
    crate::testing::assert_usage_errors::<Sample>(cases);
}

/// mur's `-v` or `-q`, then anything but a letter `-vx` names (a digit, `=`, `-`, a
/// letter outside ASCII, `h` and more): what is wrong is named, never the valid `-v`,
/// which every one of them was told was unknown; and `-vvh` is told what works (it was
/// told `-vv -h`, which mur refuses as it refuses `-vv`). The same words as the Python
/// and JavaScript kits.
#[test]
fn what_follows_murs_short_flags_is_named_not_the_flags() {
    let hint = "to give it as `<text>`, put it after `--`";
    let cases: &[(&[&str], &str)] = &[
        // Help, with mur's flags once each (the host takes `-qv` after the verb's name).
        (
            &["#x", "t", "-vvh"],
            "unknown option `-vvh`; mur takes `-v` and `-q` once each: `-v -h`",
        ),
        (
            &["#x", "t", "-qvqh"],
            "unknown option `-qvqh`; mur takes `-v` and `-q` once each: `-qv -h`",
        ),
        // A number, named whole as `-15` is.
        (&["#x", "t", "-v1"], "unknown option `-1` in `-v1`"),
        (&["#x", "t", "-vv15"], "unknown option `-15` in `-vv15`"),
        (
            &["#x", "-v1"],
            &format!(
                "unknown option `-1` in `-v1`; {hint}: did you mean `mur devtools sample '#x' -- -v1`?"
            ),
        ),
        // A value, which mur's flags take none of, as `--quiet=1`.
        (&["#x", "t", "-v=x"], "`-v` takes no value, got `x`"),
        (&["#x", "t", "-vq="], "`-q` takes no value, got ``"),
        (
            &["#x", "-v=x"],
            &format!(
                "`-v` takes no value, got `x`; {hint}: did you mean `mur devtools sample '#x' -- -v=x`?"
            ),
        ),
        // A dash, which no option's letter is: the word, whole.
        (&["#x", "t", "-v-"], "unknown option `-v-`"),
        (&["#x", "t", "-v-x"], "unknown option `-v-x`"),
        // A letter outside ASCII, or none, as `-é` alone is named.
        (&["#x", "t", "-vé"], "unknown option `-é` in `-vé`"),
        (&["#x", "t", "-v😀"], "unknown option `-😀` in `-v😀`"),
        // `h` and more, named whole as `-hx` is (`-h` is help, valid).
        (&["#x", "t", "-vhx"], "unknown option `-hx` in `-vhx`"),
        // A letter then digits: the letter, as `-x5` alone names `-x` (`-x` with a value).
        (&["#x", "t", "-x5"], "unknown option `-x`"),
        (&["#x", "t", "-vx5"], "unknown option `-x` in `-vx5`"),
    ];
    crate::testing::assert_usage_errors::<Sample>(cases);
    // What `-vvh` is told to type is help here (the host takes its `-v`).
    assert_eq!(
        parse::<Sample>(&argv(&["#x", "t", "-v", "-h"])),
        Ok(Parsed::Help)
    );
}

#[test]
fn several_words_of_text_are_told_to_be_quoted_as_one() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["#x", "buy", "milk", "now"],
            "unexpected argument `milk`; quote the words of `<text>` as one: did you mean `mur devtools sample '#x' 'buy milk now'`?",
        ),
        (
            &["#x", "buy", "--count", "2", "milk"],
            "unexpected argument `milk`; quote the words of `<text>` as one: did you mean `mur devtools sample '#x' 'buy milk' --count 2`?",
        ),
        (
            &["#x", "--a", "--", "-5", "more"],
            "unexpected argument `more`; quote the words of `<text>` as one: did you mean `mur devtools sample '#x' --a -- '-5 more'`?",
        ),
    ];
    crate::testing::assert_usage_errors::<Sample>(cases);
}

#[test]
fn a_help_word_taken_as_a_value_is_just_a_value() {
    let call = call(&["#x", "t", "--window", "-h"]);
    assert_eq!(sent(&call)["window"], "-h");
}

#[test]
fn an_option_written_inline_as_a_value_is_just_a_value() {
    let inline = call(&["#x", "t", "--window=--pretty"]);
    assert_eq!(sent(&inline)["window"], "--pretty");
    // A word that begins with `--` and names no option is a value still.
    let other = call(&["#x", "t", "--window", "--main"]);
    assert_eq!(sent(&other)["window"], "--main");
}

#[test]
fn bad_argv_gets_a_one_line_message_naming_the_culprit() {
    let cases: &[(&[&str], &str)] = &[
        (&["#x", "t", "--zebra"], "unknown option `--zebra`"),
        (
            &["#x", "t", "--windw", "w"],
            "unknown option `--windw`; did you mean `--window`?",
        ),
        (
            &["#x", "t", "--timout", "5"],
            "unknown option `--timout`; did you mean `--timeout`?",
        ),
        (
            &["--selector", "#x", "t"],
            "unknown option `--selector`; write `<selector>` without `--selector`: did you \
             mean `mur devtools sample '#x' t`?",
        ),
        (&["#x", "t", "-q"], "unknown option `-q`"),
        (&[], "missing argument `<selector>`"),
        (&["#x"], "missing argument `<text>`"),
        (
            &["#x", "t", "extra"],
            "unexpected argument `extra`; quote the words of `<text>` as one: did you mean `mur devtools sample '#x' 't extra'`?",
        ),
        (&["", "t"], "`<selector>` must not be empty"),
        (&["#x", "t", "--window"], "`--window <W>` needs a value"),
        // The next word one of the verb's options or mur's: the value was left out.
        (
            &["#x", "t", "--window", "--view", "full"],
            "`--window <W>` needs a value, and `--view` is an option (a value that begins with \
             `--` is written `--window=VALUE`)",
        ),
        (
            &["#x", "t", "--window", "--count=2"],
            "`--window <W>` needs a value, and `--count` is an option (a value that begins with \
             `--` is written `--window=VALUE`)",
        ),
        (
            &["#x", "t", "--window", "--pretty"],
            "`--window <W>` needs a value, and `--pretty` is an option (a value that begins with \
             `--` is written `--window=VALUE`)",
        ),
        (
            &["#x", "t", "--window", "--project=App.csproj"],
            "`--window <W>` needs a value, and `--project` is an option (a value that begins \
             with `--` is written `--window=VALUE`)",
        ),
        (&["#x", "t", "--a=yes"], "`--a` takes no value, got `yes`"),
        (
            &["#x", "t", "--window", "1", "--window", "2"],
            "the argument `--window <W>` cannot be used multiple times",
        ),
        (
            &["#x", "t", "--view", "tiny"],
            "`--view` must be `summary` or `full`, got `tiny`",
        ),
        (
            &["#x", "t", "--view=fll"],
            "`--view` must be `summary` or `full`, got `fll`; did you mean `full`?",
        ),
        (
            &["#x", "t", "--count", "-1"],
            "`--count` is out of range: an integer at least 0, got `-1`",
        ),
        (
            &["#x", "t", "--count", "many"],
            "`--count` needs a non-negative integer, got `many`",
        ),
        (
            &["#x", "t", "--b", "--a"],
            "`--a` and `--b` cannot be used together",
        ),
        (
            &["#x", "t", "--timeout", "0"],
            "invalid value `0` for `--timeout <MS>`: the bound must be at least 1 ms",
        ),
        (
            &["#x", "t", "--timeout", "soon"],
            "invalid value `soon` for `--timeout <MS>`: `soon` is not a whole number of \
             milliseconds (e.g. `5000`)",
        ),
        (
            &["#x", "t", "--timeout", "4294967296"],
            "invalid value `4294967296` for `--timeout <MS>`: the bound is at most 4294967295 \
             ms (about 49 days)",
        ),
        // Typed empty, said so, as the host says it of its own `--timeout=`.
        (
            &["#x", "t", "--timeout="],
            "`--timeout <MS>` needs a value (it was given empty)",
        ),
        (
            &["#x", "t", "--timeout", ""],
            "`--timeout <MS>` needs a value (it was given empty)",
        ),
    ];
    crate::testing::assert_usage_errors::<Sample>(cases);
}

/// A verb that writes no usage line gets the kit's, in the standard verbs' shape (each
/// of them leaves its own empty): each argument once, in its first form, an exclusive
/// group as alternatives, and no `--timeout MS`, which every verb takes. A scaffolded
/// `bump` read `bump <selector> [--selector S] [--timeout MS]` (mur's, from every
/// option declared) beside the standard `click <selector>`.
#[test]
fn an_empty_synopsis_is_composed_as_the_standard_verbs_usage() {
    use crate::info::usage;
    const SELECTOR: &[Pos] = &[Pos::selector("the element").or_option("S")];
    const BUMP: Spec = Spec {
        positionals: SELECTOR,
        ..Spec::NONE
    };
    assert_eq!(usage("bump", &BUMP), "bump <selector>");
    assert_eq!(usage("version", &Spec::NONE), "version");
    const TREE: Spec = Spec {
        options: &[
            Opt::selector("only S").or_word(),
            Opt::window("only W"),
            VIEW,
            Opt::flag("include-reactor-source", "with sources"),
        ],
        ..Spec::NONE
    };
    assert_eq!(
        usage("tree", &TREE),
        "tree [<selector>] [--window W] [--view summary|full] [--include-reactor-source]"
    );
    const WAIT: Spec = Spec {
        positionals: SELECTOR,
        options: &[
            Opt::value("text", "X", Kind::Text, "its text"),
            Opt::flag("visible", "visible"),
            Opt::value("count", "N", Kind::Count, "how many"),
            Opt::flag("quick", "a flag in no group"),
        ],
        exclusive: &[&["text", "visible", "count"]],
    };
    assert_eq!(
        usage("wait", &WAIT),
        "wait <selector> [--text X | --visible | --count N] [--quick]"
    );
    // A choice's placeholder that does not list its choices gives way to them, as in
    // mur's options list; no placeholder is `VALUE`.
    const ODD: Spec = Spec {
        options: &[
            Opt::value("mode", "M", Kind::Choice(&["fast", "New York"]), "which"),
            Opt::value("note", "", Kind::Text, "a note"),
        ],
        ..Spec::NONE
    };
    assert_eq!(
        usage("odd", &ODD),
        "odd [--mode fast|'New York'] [--note VALUE]"
    );
    // `info` gives it where the synopsis is empty, and a synopsis given as it is.
    assert_eq!(
        info::<Sample>().usage,
        "sample <selector> <text> [--view summary|full] [--count N] [--a | --b]"
    );
    struct Composed;
    impl Verb for Composed {
        const ABOUT: About = About {
            synopsis: " ",
            ..Sample::ABOUT
        };
        const SPEC: Spec = Sample::SPEC;
    }
    assert_eq!(
        info::<Composed>().usage,
        "sample <selector> <text> [--window W] [--view summary|full] [--count N] \
         [--out PATH] [--args JSON] [--include-reactor-source] [--a | --b]"
    );
}

#[test]
fn info_declares_every_argument_and_option_and_the_examples() {
    let info = info::<Sample>();
    assert_eq!(
        (info.name.as_str(), info.tool.as_str(), info.usage.as_str()),
        (
            "sample",
            "sampleTool",
            "sample <selector> <text> [--view summary|full] [--count N] [--a | --b]"
        )
    );
    assert_eq!(info.examples, ["mur devtools sample '#x' hello"]);
    let positionals: Vec<(&str, ValueKind, bool)> = info
        .positionals
        .iter()
        .map(|p| (p.name.as_str(), p.kind, p.required))
        .collect();
    assert_eq!(
        positionals,
        [
            ("selector", ValueKind::Selector, true),
            ("text", ValueKind::Text, true)
        ]
    );
    let options: Vec<(&str, &str, ValueKind)> = info
        .options
        .iter()
        .map(|o| (o.name.as_str(), o.value_name.as_str(), o.kind))
        .collect();
    assert_eq!(
        options,
        [
            ("window", "W", ValueKind::Text),
            ("view", "summary|full", ValueKind::Choice),
            ("count", "N", ValueKind::Integer),
            ("out", "PATH", ValueKind::OutputPath),
            ("args", "JSON", ValueKind::Json),
            ("include-reactor-source", "", ValueKind::Flag),
            ("a", "", ValueKind::Flag),
            ("b", "", ValueKind::Flag),
            ("timeout", "MS", ValueKind::Milliseconds),
            // Its own `--args` is taken: the whole object's is `--all-args`.
            ("all-args", "JSON", ValueKind::Json),
        ]
    );
    assert_eq!(info.options[1].choices, ["summary", "full"]);
}

#[test]
fn out_paths_are_declared_as_writes_and_json_is_sent() {
    let call = call(&["#x", "t", "--out", "shot.png", "--args", "{\"a\": [1]}"]);
    assert_eq!(call.writes, ["shot.png"]);
    assert_eq!(sent(&call)["args"], json!({"a": [1]}));
    assert!(self::call(&["#x", "t", "--out", "-"]).writes.is_empty());
    assert_eq!(
        error(&["#x", "t", "--args", "{"]),
        "`--args` is not valid JSON: EOF while parsing an object at line 1 column 1"
    );
    assert_eq!(
        error(&["#x", "t", "--out="]),
        "`--out` needs a file path, or `-` for stdout"
    );
}

/// A JSON option is refused where the host's `Value` parse of the verb's arguments
/// would fail (exit 1 naming the option, not exit 6 blaming the verb), with the
/// message that parse gives: a lone surrogate, a number past `f64`, nesting past its limit.
#[test]
fn a_json_option_is_refused_where_a_value_parse_fails() {
    for (json, told) in [
        (
            r#"{"value": "\ud800"}"#,
            "unexpected end of hex escape at line 1 column 18",
        ),
        (
            r#"{"\udc00": 1}"#,
            "lone leading surrogate in hex escape at line 1 column 8",
        ),
        ("[1e400]", "number out of range at line 1 column 6"),
    ] {
        let value = serde_json::from_str::<serde_json::Value>(json).expect_err(json);
        assert_eq!(value.to_string(), told, "a Value parse of {json}");
        assert_eq!(
            error(&["#x", "t", "--args", json]),
            format!("`--args` is not valid JSON: {told}")
        );
    }
    // Nested in the arguments object, the option has one level less than its own
    // parse would allow: refused at its 127th `[`, the host's 128th level.
    let deep = |levels| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
    assert_eq!(
        sent(&call(&["#x", "t", "--args", &deep(126)]))["args"].to_string(),
        deep(126)
    );
    for (levels, column) in [(127, 128), (200, 127)] {
        assert_eq!(
            error(&["#x", "t", "--args", &deep(levels)]),
            format!(
                "`--args` is not valid JSON: recursion limit exceeded at line 1 column {column}"
            )
        );
    }
}

/// A JSON option's text goes into the arguments as typed (inner spaces kept), never
/// parsed into a `Value` tree (16 times its bytes: a 4 MiB value would outgrow the
/// verb's 64 MiB); a key the verb's `arguments` sets itself wins.
#[test]
fn a_json_option_is_sent_as_typed_unless_the_verb_sets_its_key() {
    assert_eq!(
        call(&["#x", "t", "--args", " [1,  2] ", "--window", "w"]).arguments,
        r##"{"selector":"#x","text":"t","window":"w","args":[1,  2]}"##
    );
    struct Own;
    impl Verb for Own {
        const ABOUT: About = Sample::ABOUT;
        const SPEC: Spec = Spec {
            positionals: &[],
            options: &[
                Opt::value("args", "JSON", Kind::Json, "extra"),
                Opt::value("more", "JSON", Kind::Json, "more"),
            ],
            exclusive: &[],
        };
        fn arguments(args: &crate::argv::Args) -> Result<crate::Map<String, crate::Value>, String> {
            let mut arguments = args.arguments();
            if let Some(more) = args.value("more") {
                arguments.insert("args".into(), json!({"wrapped": more}));
            }
            Ok(arguments)
        }
    }
    let sent = |words: &[&str]| call_of::<Own>(words).arguments;
    assert_eq!(sent(&["--args", "{}"]), r#"{"args":{}}"#);
    assert_eq!(sent(&[]), "{}");
    assert_eq!(
        sent(&["--args", "[1]", "--more", "2"]),
        r#"{"args":{"wrapped":"2"},"more":2}"#
    );
}

#[test]
fn shape_sees_the_argv_parse_checked_through_the_state() {
    struct Echo;
    impl Verb for Echo {
        const ABOUT: About = Sample::ABOUT;
        const SPEC: Spec = Sample::SPEC;
        fn shape(
            args: &crate::argv::Args,
            _: &serde_json::Value,
            _: bool,
        ) -> Result<crate::shape::Shaped, String> {
            let seen = json!([
                args.positional("text"),
                args.value("out"),
                args.flag("a"),
                args.timeout_ms()
            ]);
            Ok(crate::shape::Shaped::json(&seen, false))
        }
    }
    let words = ["#x", "hello", "--out", "a.png", "--a", "--timeout", "90"];
    assert_eq!(
        crate::testing::stdout::<Echo>(&words, &json!({}), false),
        "[\"hello\",\"a.png\",true,90]\n"
    );
    assert_eq!(
        shape::<Echo>("{}", "not a state", false),
        Err("the output state is not what `parse` wrote".to_owned())
    );
}

fn state() -> String {
    call(&["#x", "t"]).state
}

fn shaped(result: &str, pretty: bool) -> String {
    let shaped = shape::<Sample>(result, &state(), pretty).expect("shapes");
    assert!(shaped.files.is_empty());
    String::from_utf8(shaped.stdout).expect("utf-8")
}

#[test]
fn structured_content_is_printed_compact_by_default() {
    let result =
        r#"{"content":[{"type":"text","text":"ignored"}],"structuredContent":{"a":1,"b":[true]}}"#;
    assert_eq!(shaped(result, false), "{\"a\":1,\"b\":[true]}\n");
}

#[test]
fn pretty_indents() {
    let result = r#"{"structuredContent":{"a":1}}"#;
    assert_eq!(shaped(result, true), "{\n  \"a\": 1\n}\n");
}

#[test]
fn text_content_is_read_as_json_else_printed_as_a_string() {
    let json_text =
        r#"{"content":[{"type":"image","data":""},{"type":"text","text":"{\"n\": 2}"}]}"#;
    assert_eq!(shaped(json_text, false), "{\"n\":2}\n");
    let plain = r#"{"content":[{"type":"text","text":"reloading"}]}"#;
    assert_eq!(shaped(plain, false), "\"reloading\"\n");
}

#[test]
fn a_result_without_content_is_printed_whole() {
    assert_eq!(shaped(r#"{"ok":true}"#, false), "{\"ok\":true}\n");
}

#[test]
fn a_result_that_is_not_json_is_an_error_not_a_panic() {
    let error = shape::<Sample>("{nope", &state(), false).expect_err("not JSON");
    assert!(
        error.starts_with("the tool result is not JSON: "),
        "{error}"
    );
}

#[test]
fn camel_case_joins_dashed_words() {
    assert_eq!(
        crate::argv::camel_case("include-reactor-source"),
        "includeReactorSource"
    );
    assert_eq!(crate::argv::camel_case("selector"), "selector");
}

/// Every argv of up to three words from a set of awkward ones gets an answer (a call,
/// help, or a one-line error) and never a panic, which the host would report as a
/// broken plugin.
#[test]
fn no_argv_makes_parse_panic() {
    let words = [
        "",
        "-",
        "--",
        "--=",
        "-h",
        "-xh",
        "--help=no",
        "--window",
        "--window=",
        "--a",
        "--a=1",
        "-xyz",
        "#x",
        "--count",
        "-1",
        "--timeout",
        "0",
        "é",
        "--view=full",
        "--b",
    ];
    for first in words {
        for second in words {
            for third in words {
                let argv = argv(&[first, second, third]);
                if let Err(message) = parse::<Sample>(&argv) {
                    assert!(
                        !message.is_empty() && !message.contains('\n'),
                        "{argv:?}: {message:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn odd_results_are_printed_not_panicked_on() {
    let results = [
        r#"{"content":"not a list"}"#,
        r#"{"content":[{"type":"text","text":5}]}"#,
        r#"{"content":[null,{"type":"text"}]}"#,
        r#"{"structuredContent":null}"#,
        "[]",
        "null",
        "\"text\"",
    ];
    for result in results {
        assert!(shape::<Sample>(result, &state(), false).is_ok(), "{result}");
    }
}

/// A verb whose shape adds notes for stderr, as the compact verbs do.
struct Noted;

impl Verb for Noted {
    const ABOUT: About = About {
        name: "noted",
        tool: "tree",
        summary: "Print the tree with a hint",
        synopsis: "",
        details: "",
        examples: &[],
    };
    const SPEC: Spec = Spec::NONE;

    fn shape(
        _args: &crate::argv::Args,
        result: &crate::serde_json::Value,
        pretty: bool,
    ) -> Result<Shaped, String> {
        Ok(Shaped::json(&shape::payload(result), pretty)
            .note("next: mur devtools click '#btn-inc'")
            .note("cut: 2 nodes"))
    }
}

#[test]
fn notes_are_none_by_default_and_added_in_order_beside_stdout() {
    let result = json!({"structuredContent": {"nodes": []}});
    let plain = crate::testing::shaped::<Sample>(&["#x", "t"], &result, false).expect("shaped");
    assert!(plain.notes.is_empty(), "{:?}", plain.notes);
    let noted = crate::testing::shaped::<Noted>(&[], &result, false).expect("shaped");
    assert_eq!(noted.stdout, b"{\"nodes\":[]}\n");
    assert_eq!(
        noted.notes,
        ["next: mur devtools click '#btn-inc'", "cut: 2 nodes"]
    );
}

/// What a verb without positionals says of a stray word: the option it was likely
/// meant for, written as a shell reads it back.
#[test]
fn a_stray_word_is_answered_with_the_option_it_was_likely_meant_for() {
    const LISTING: Spec = Spec {
        options: &[
            Opt::selector("only what S matches"),
            Opt::window("only this window"),
            VIEW,
            Opt::flag("a", "a"),
        ],
        ..Spec::NONE
    };
    const ONE: Spec = Spec {
        options: &[Opt::value("component", "N", Kind::Name, "which one")],
        ..Spec::NONE
    };
    const COUNT: Spec = Spec {
        options: &[Opt::value("count", "N", Kind::Count, "how many")],
        ..Spec::NONE
    };
    const CHOICE: Spec = Spec {
        options: &[VIEW],
        ..Spec::NONE
    };
    const EVENT: Spec = Spec {
        positionals: &[Pos::new("event", "event", Kind::Name, "which")],
        options: &[
            Opt::value("args", "JSON", Kind::Json, "its arguments"),
            Opt::value("note", "X", Kind::Text, "a note"),
        ],
        ..Spec::NONE
    };
    let error =
        |spec: &Spec, words: &[&str]| refusal(crate::argv::Args::parse(spec, &argv(words)), words);
    let cases: &[(&Spec, &[&str], &str)] = &[
        (
            &LISTING,
            &["#count"],
            "unexpected argument `#count`; did you mean `--selector '#count'`?",
        ),
        (
            &LISTING,
            &["full"],
            "unexpected argument `full`; did you mean `--view full`?",
        ),
        // Nothing says which of two options a plain word is for: both are named.
        (
            &LISTING,
            &["main"],
            "unexpected argument `main`; did you mean `--selector main` or `--window main`?",
        ),
        // Not an option given already.
        (
            &LISTING,
            &["--selector", "#a", "#b"],
            "unexpected argument `#b`",
        ),
        (
            &ONE,
            &["Counter"],
            "unexpected argument `Counter`; did you mean `--component Counter`?",
        ),
        (
            &ONE,
            &["it's"],
            r#"unexpected argument `it's`; did you mean `--component 'it'\''s'`?"#,
        ),
        (&Spec::NONE, &["x"], "unexpected argument `x`"),
        // Never an option that would refuse the word.
        (
            &COUNT,
            &["5"],
            "unexpected argument `5`; did you mean `--count 5`?",
        ),
        (&COUNT, &["many"], "unexpected argument `many`"),
        // A choice is named only for one of its words.
        (&CHOICE, &["wide"], "unexpected argument `wide`"),
        // A JSON object past the positionals, for the verb's JSON option.
        (
            &EVENT,
            &["a.b", r#"{"value": 10}"#],
            r#"unexpected argument `{"value": 10}`; did you mean `--args '{"value": 10}'`?"#,
        ),
        // Only an object, only when `--args` is not given already.
        (&EVENT, &["a.b", "[1]"], "unexpected argument `[1]`"),
        (&EVENT, &["a.b", "{"], "unexpected argument `{`"),
        (
            &EVENT,
            &["a.b", "--args", "{}", r#"{"a":1}"#],
            r#"unexpected argument `{"a":1}`"#,
        ),
        // A verb without a JSON option.
        (&Spec::NONE, &["{}"], "unexpected argument `{}`"),
    ];
    for (spec, words, expected) in cases {
        assert_eq!(error(spec, words), *expected, "{words:?}");
    }
}

/// What `mur devtools verbs add` refuses a verb for (an option `--clear` with its
/// dashes: help printed `----clear` and completion panicked) is named by the kit, so
/// `cargo test` says so before the verb is built and added; what only the kit refuses
/// says so, never that `verbs add` would (it takes `<the text>` and `<-x>`).
#[test]
fn a_spec_no_command_line_could_use_is_named() {
    const fn options(options: &'static [Opt]) -> Spec {
        Spec {
            options,
            ..Spec::NONE
        }
    }
    const SPECS: [Spec; 12] = [
        options(&[Opt::flag("--clear", "")]),
        options(&[Opt::flag("", "")]),
        options(&[Opt::value("a b", "X", Kind::Text, "")]),
        options(&[Opt::flag("x=1", "")]),
        Spec {
            positionals: &[Pos::new(" ", "text", Kind::Text, "")],
            ..Spec::NONE
        },
        Spec {
            positionals: &[Pos::new("the text", "text", Kind::Text, "")],
            ..Spec::NONE
        },
        Spec {
            positionals: &[Pos::new("-x", "x", Kind::Text, "")],
            ..Spec::NONE
        },
        options(&[Opt::flag("clear", ""), Opt::flag("clear", "")]),
        Spec {
            positionals: &[Pos::selector(""), Pos::selector("")],
            ..Spec::NONE
        },
        options(&[Opt::flag("help", "")]),
        options(&[Opt::value("timeout", "S", Kind::Count, "")]),
        Spec {
            options: &[Opt::flag("a", "")],
            exclusive: &[&["a", "b"]],
            ..Spec::NONE
        },
    ];
    let rule = "which no command line can give: an option's name starts with a letter or a digit and \
                holds only letters, digits, `-`, `_` and `.`";
    let host = "; `mur devtools verbs add` would refuse it";
    let kits = |name: &str| {
        format!(
            "positional named `{name}`, which the kit refuses (`mur devtools verbs add` would \
             not): shown as `<{name}>`, it reads as an option or as two words in a usage line; \
             a positional's name does not start with `-` and holds no space"
        )
    };
    let expected = [
        format!("option named `--clear`, {rule}{host}"),
        format!("option with an empty name, {rule}{host}"),
        format!("option named `a b`, {rule}{host}"),
        format!("option named `x=1`, {rule}{host}"),
        format!("a positional with no name for its usage to show{host}"),
        kits("the text"),
        kits("-x"),
        format!("two options named `clear`{host}"),
        format!("two positionals named `selector`{host}"),
        format!("option `help`, which is the host's own `-h, --help`{host}"),
        "option `timeout`, which the kit declares for every verb (`--timeout MS`)".to_owned(),
        "an exclusive group naming `--b`, which is not one of its options".to_owned(),
    ];
    for (spec, why) in SPECS.iter().zip(expected) {
        assert_eq!(spec.unusable(), Some(why));
    }
    // What the sample and the standard verbs declare is fine; a positional and an
    // option may share a name.
    const FINE: Spec = Spec {
        positionals: &[
            Pos::selector(""),
            Pos::new("ünï", "u", Kind::Text, ""),
            Pos::new("component>.<event", "target", Kind::Name, ""),
        ],
        options: &[Opt::selector(""), Opt::flag("dx_2.5", "")],
        exclusive: &[&["selector", "dx_2.5"]],
    };
    assert_eq!(Sample::SPEC.unusable(), None);
    assert_eq!(FINE.unusable(), None);
}

/// mur's verdict on option names (`mur_verbs::usable_name`, which `verbs add` holds a
/// verb's options to: Rust's `char::is_alphanumeric` first, then that or `-`, `_`,
/// `.`): one table, which this test, the Python kit's `test_kit.py` and the JavaScript
/// kit's `kit.test.js` all run, held identical by the scaffold e2e test
/// (tests/tests/e2e/scaffold.rs).
// names: begin (the same rows in the Python and JavaScript kits' tests)
const OPTION_NAMES: [(&str, bool); 28] = [
    ("clear", true),
    ("dx_2.5", true),
    ("item-selector", true),
    ("2x", true),
    ("a.b", true),
    ("é", true),
    ("café", true),
    ("Ünï", true),
    ("хост", true),
    ("日本", true),
    ("हिंदी", true),
    ("٣", true),
    ("Ⅻ", true),
    ("", false),
    ("--clear", false),
    ("-x", false),
    (".a", false),
    ("_a", false),
    ("a b", false),
    ("x=1", false),
    ("a/b", false),
    ("a→b", false),
    ("✓", false),
    ("x\u{202e}y", false),
    ("a\u{200b}b", false),
    ("a\u{0085}b", false),
    ("e\u{0301}", false),
    ("a\u{00a0}b", false),
];
// names: end

/// The Rust kit judges an option's name as the host does, and says `verbs add` would
/// refuse what it refuses.
#[test]
fn option_names_are_judged_as_the_host_judges_them() {
    for (name, host) in OPTION_NAMES {
        assert_eq!(crate::argv::usable_name(name), host, "{name:?}");
        let spec = Spec {
            options: Vec::leak(vec![Opt::flag(name, "")]),
            ..Spec::NONE
        };
        match spec.unusable() {
            None => assert!(host, "{name:?} taken"),
            Some(why) => {
                assert!(!host, "{name:?} refused: {why}");
                assert!(
                    why.ends_with("; `mur devtools verbs add` would refuse it"),
                    "{why}"
                );
            }
        }
    }
}

/// The host's flags, which alone are told they take no value, are host options.
#[test]
fn the_host_flags_are_host_options() {
    for flag in crate::argv::HOST_FLAGS {
        assert!(crate::argv::host_options().any(|o| o == flag), "{flag}");
    }
}

/// A verb declaring `--clear` with its dashes, as an author may write it.
struct Dashed;

impl Verb for Dashed {
    const ABOUT: About = About {
        name: "jot",
        tool: "type",
        summary: "Type",
        synopsis: "",
        details: "",
        examples: &[],
    };
    const SPEC: Spec = Spec {
        options: &[Opt::flag("--clear", "clear the field first")],
        ..Spec::NONE
    };
}

/// The kit's test helpers, which a verb's `cargo test` (and `verb_tables!`) runs,
/// fail on such a verb naming what is wrong, whatever the argv tried.
#[test]
#[should_panic(
    expected = "verb `jot` declares option named `--clear`, which no command line \
                           can give"
)]
fn the_test_helpers_refuse_a_verb_mur_would_refuse() {
    crate::testing::assert_arguments::<Dashed>(&[(&["--clear"], json!({"clear": true}))]);
}

/// What `verbs add` refuses of a verb's choices and its wait is said in its sentence
/// (mur's crates/verbs/src/spec.rs: the kit's copy must match it), and a verb declaring
/// it does not build: `export_verb!` joins the sentence in a constant whose evaluation
/// fails (the `compile_fail` examples of `info::refused`). A `choice` with no choices,
/// wherever `info` declares it (an option also taken as a word is a positional first, as
/// `verbs add` reads it); a wait on the key a param of another kind than a count is sent
/// under by `verbs add`'s rule, compared exactly: a milliseconds param's (but the kit's
/// own `--timeout`'s) in a sentence of its own, as its value is never sent.
#[test]
fn a_choice_without_choices_and_a_wait_on_a_word_are_refused_in_the_hosts_words() {
    const NONE: Kind = Kind::Choice(&[]);
    const WORDS: Spec = Spec {
        positionals: &[
            Pos::new("path", "file", Kind::Text, ""),
            Pos::new("item-selector", "s", Kind::Selector, "").or_option("S"),
        ],
        options: &[
            Opt::value("text-matches", "RE", Kind::Text, ""),
            Opt::local_flag("brief", ""),
            Opt::value("timeout-ms", "N", Kind::Count, ""),
            Opt::value("delay", "MS", Kind::Millis, ""),
            Opt::value("limit-ms", "N", Kind::Local, ""),
        ],
        exclusive: &[],
    };
    let host = "; `mur devtools verbs add` would refuse it";
    let none = |named: &str| {
        format!(
            "verb `sample` declares {named} of kind `choice` with no choices, which would \
             refuse every value: give it its choices, or another kind{host}"
        )
    };
    let wait = |argument: &str, named: &str, kind: &str| {
        format!(
            "verb `sample` declares a wait (`mur:verb-waits`) on `{argument}`, the argument its \
             {named} of kind `{kind}` is sent as: the host sets a wait's argument to a number \
             of milliseconds, so it must be a key no param of the verb declares, or an \
             `integer` param's{host}"
        )
    };
    let never_sent = |argument: &str, named: &str, shown: &str| {
        format!(
            "verb `sample` declares a wait (`mur:verb-waits`) on `{argument}`, the key its \
             {named} of kind `milliseconds` would be sent under, but a milliseconds value is \
             never sent: the wait's value is the verb's own `--timeout MS`; drop `{shown}`, or \
             give it kind `integer`{host}"
        )
    };
    let refused = |spec: &Spec, argument: Option<&'static str>| {
        let waits = argument.map(|argument| crate::Waits {
            argument,
            default_ms: 5000,
        });
        info::refused(&Sample::ABOUT, spec, waits).concat()
    };
    const MODE: Pos = Pos::new("mode", "m", NONE, "");
    const MODE_OPTION: Opt = Opt::value("mode", "M", NONE, "");
    const MODE_WORD: Opt = MODE_OPTION.or_word();
    const MODE_OR_OPTION: Pos = MODE.or_option("M");
    for (spec, why) in [
        (
            Spec {
                positionals: &[MODE],
                ..Spec::NONE
            },
            none("positional `<mode>`"),
        ),
        (
            Spec {
                options: &[MODE_OPTION],
                ..Spec::NONE
            },
            none("option `--mode`"),
        ),
        (
            Spec {
                options: &[MODE_WORD],
                ..Spec::NONE
            },
            none("positional `<mode>`"),
        ),
        (
            Spec {
                positionals: &[MODE_OR_OPTION],
                ..Spec::NONE
            },
            none("positional `<mode>`"),
        ),
    ] {
        assert_eq!(refused(&spec, None), why);
    }
    for (argument, why) in [
        (
            "textMatches",
            wait("textMatches", "option `--text-matches`", "text"),
        ),
        ("brief", wait("brief", "option `--brief`", "flag")),
        // By its name, not by the key the kit sends it under: `verbs add` cannot know it.
        ("path", wait("path", "positional `<path>`", "text")),
        // Its option form is an option, sent in camelCase.
        (
            "itemSelector",
            wait("itemSelector", "option `--item-selector`", "selector"),
        ),
        // Declared as `text`: `verbs add` cannot know the kit never sends it.
        ("limitMs", wait("limitMs", "option `--limit-ms`", "text")),
        // Never sent: the user's `--delay 1000` was dropped.
        ("delay", never_sent("delay", "option `--delay`", "--delay")),
    ] {
        assert_eq!(refused(&WORDS, Some(argument)), why);
    }
    // A wait on a key no param is sent under, however near its name, or on a count's
    // or the kit's own `--timeout`'s (the value the wait is given), is fine.
    for argument in [
        "text_matches",
        "TextMatches",
        "text-matches",
        "file",
        "timeoutMs",
        "timeout",
    ] {
        assert_eq!(refused(&WORDS, Some(argument)), "", "{argument}");
    }
    assert_eq!(refused(&Sample::SPEC, Some("count")), "");
    const PAUSE: Spec = Spec {
        positionals: &[Pos::new("pause", "ms", Kind::Millis, "")],
        ..Spec::NONE
    };
    assert_eq!(
        refused(&PAUSE, Some("pause")),
        never_sent("pause", "positional `<pause>`", "<pause>")
    );
    // The bytes the build fails with are that sentence.
    const PIECES: [&str; info::REFUSAL_PIECES] = info::refused(
        &Sample::ABOUT,
        &WORDS,
        Some(crate::Waits {
            argument: "brief",
            default_ms: 0,
        }),
    );
    const SAID: [u8; crate::wit::joined_len(&PIECES)] = crate::wit::joined(&PIECES);
    assert_eq!(SAID, wait("brief", "option `--brief`", "flag").as_bytes());
}

/// A verb whose `--brief` only changes what it prints: a strict tool refused the
/// `brief: true` a plain flag sends (`unknown field `brief``).
struct Brief;

impl Verb for Brief {
    const ABOUT: About = About {
        name: "brief",
        tool: "state",
        summary: "Print the state, briefly if asked",
        synopsis: "",
        details: "",
        examples: &[],
    };
    const SPEC: Spec = Spec {
        options: &[
            Opt::selector("the element"),
            Opt::local_flag("brief", "print only the text"),
        ],
        ..Spec::NONE
    };

    fn shape(
        args: &crate::argv::Args,
        result: &crate::serde_json::Value,
        pretty: bool,
    ) -> Result<Shaped, String> {
        let payload = shape::payload(result);
        match args.flag("brief") {
            true => Ok(Shaped::json(&payload["text"], pretty)),
            false => Ok(Shaped::json(&payload, pretty)),
        }
    }
}

#[test]
fn a_local_flag_is_declared_as_a_flag_read_by_the_verb_and_never_sent() {
    use crate::testing::{arguments, stdout, usage_error};
    assert_eq!(
        arguments::<Brief>(&["--selector", "#count", "--brief"]),
        json!({"selector": "#count"})
    );
    let result = json!({"structuredContent": {"text": "2", "tag": "span"}});
    assert_eq!(stdout::<Brief>(&["--brief"], &result, false), "\"2\"\n");
    assert_eq!(
        stdout::<Brief>(&[], &result, false),
        "{\"text\":\"2\",\"tag\":\"span\"}\n"
    );
    assert_eq!(
        usage_error::<Brief>(&["--brief=yes"]),
        "`--brief` takes no value, got `yes`"
    );
    assert_eq!(
        usage_error::<Brief>(&["--brief", "--brief"]),
        "the argument `--brief` cannot be used multiple times"
    );
    let brief = info::<Brief>().options.remove(1);
    assert_eq!(
        (brief.name.as_str(), brief.kind, brief.value_name.as_str()),
        ("brief", ValueKind::Flag, "")
    );
}

/// A positional also taken as an option ([`Pos::or_option`]) and an option also taken
/// as a lone word ([`Opt::or_word`]): the other form is read as the same argument (what
/// a usage error named as the fix before), given both ways is refused, and both forms
/// are declared to the host, so help and completion show them.
#[test]
fn a_second_form_of_an_argument_is_read_as_it_and_declared() {
    struct Act;
    impl Verb for Act {
        const ABOUT: About = About {
            name: "act",
            tool: "act",
            summary: "",
            synopsis: "",
            details: "",
            examples: &[],
        };
        const SPEC: Spec = Spec {
            positionals: &[
                Pos::selector("the element").or_option("S"),
                Pos::new("text", "text", Kind::Text, "the text"),
            ],
            options: &[Opt::flag("clear", "first")],
            exclusive: &[],
        };
    }
    struct Query;
    impl Verb for Query {
        const ABOUT: About = Act::ABOUT;
        const SPEC: Spec = Spec {
            options: &[Opt::selector("only S").or_word(), VIEW],
            ..Spec::NONE
        };
    }
    struct Listing;
    impl Verb for Listing {
        const ABOUT: About = Act::ABOUT;
        const SPEC: Spec = Spec {
            options: &[Opt::selector("only S").or_word(), Opt::window("only W")],
            ..Spec::NONE
        };
    }
    use crate::testing::{assert_arguments, assert_usage_errors};
    assert_arguments::<Act>(&[
        (&["#x", "hi"], json!({"selector": "#x", "text": "hi"})),
        (
            &["--selector", "#x", "hi"],
            json!({"selector": "#x", "text": "hi"}),
        ),
        (
            &["hi", "--clear", "--selector=#x"],
            json!({"selector": "#x", "text": "hi", "clear": true}),
        ),
        (
            &["--selector", "#x", "--", "-5"],
            json!({"selector": "#x", "text": "-5"}),
        ),
    ]);
    assert_usage_errors::<Act>(&[
        (
            &["#x", "--selector", "#y", "hi"],
            "`<selector>` given twice: as `#x` and as `--selector '#y'`",
        ),
        (
            &["--selector", "#x", "--selector", "#y", "hi"],
            "the argument `--selector <S>` cannot be used multiple times",
        ),
        (&["--selector", "", "hi"], "`--selector` must not be empty"),
        (&["--selector", "#x"], "missing argument `<text>`"),
        (&["--selector"], "`--selector <S>` needs a value"),
        // The option form is one of the options "did you mean" looks through.
        (
            &["--selectr", "#x", "hi"],
            "unknown option `--selectr`; did you mean `--selector`?",
        ),
    ]);
    assert_arguments::<Query>(&[
        (&[], json!({})),
        (&["#x"], json!({"selector": "#x"})),
        (
            &["Button", "--view", "full"],
            json!({"selector": "Button", "view": "full"}),
        ),
    ]);
    assert_usage_errors::<Query>(&[
        // A choice's word is the choice's.
        (
            &["full"],
            "unexpected argument `full`; did you mean `--view full`?",
        ),
        // The word it would have taken, beside the option given: the argument given
        // twice, in either order, as a positional beside its option form is told.
        (
            &["#x", "--selector", "#y"],
            "`<selector>` given twice: as `#x` and as `--selector '#y'`",
        ),
        (
            &["--selector=#y", "Button"],
            "`<selector>` given twice: as `Button` and as `--selector '#y'`",
        ),
        // A choice's word, which the selector would not have taken, is the choice's.
        (
            &["--selector", "#y", "full"],
            "unexpected argument `full`; did you mean `--view full`?",
        ),
        // The cases a derived verb's lone word agrees on (mur-verbs' derived.rs,
        // `a_lone_word_is_taken_as_the_kit_takes_it`): a second word is one too
        // many, and a word that reads as an option or stdin is never the option's.
        (&["#x", "#y"], "unexpected argument `#y`"),
        (
            &["#x", "full"],
            "unexpected argument `full`; did you mean `--view full`?",
        ),
        (
            &["-"],
            "unexpected argument `-`; did you mean `--selector -`?",
        ),
        (
            &["--", "-x"],
            "unexpected argument `-x`; did you mean `--selector -x`?",
        ),
        // An empty word (`state "$sel"`, the variable unset) is refused as an empty
        // positional is (`click ''`), in the same words.
        (&[""], "`<selector>` must not be empty"),
        (&[" ", "--view", "full"], "`<selector>` must not be empty"),
        (&["#x", ""], "unexpected argument ``"),
    ]);
    assert_arguments::<Listing>(&[(&["[a=b]"], json!({"selector": "[a=b]"}))]);
    // A plain word may be meant for `--window` as well: both are named; beside
    // `--selector`, it is not the selector given twice: it is `--window main`. A
    // word that starts like a selector is the selector's.
    assert_usage_errors::<Listing>(&[
        (
            &["main"],
            "unexpected argument `main`; did you mean `--selector main` or `--window main`?",
        ),
        (
            &["--selector", "#a", "main"],
            "unexpected argument `main`; did you mean `--window main`?",
        ),
        (
            &["[b]", "--selector", "#a"],
            "`<selector>` given twice: as `[b]` and as `--selector '#a'`",
        ),
    ]);

    let described = |info: crate::Info| {
        let params = |params: &[crate::Param]| -> Vec<(String, String, bool, String)> {
            params
                .iter()
                .map(|p| {
                    (
                        p.name.clone(),
                        p.value_name.clone(),
                        p.required,
                        p.help.clone(),
                    )
                })
                .collect()
        };
        (params(&info.positionals), params(&info.options))
    };
    let param = |name: &str, value: &str, required: bool, help: &str| {
        (name.to_owned(), value.to_owned(), required, help.to_owned())
    };
    let timeout = param(
        "timeout",
        "MS",
        false,
        "let the call take up to MS milliseconds",
    );
    let whole = param("args", "JSON", false, crate::argv::WHOLE_HELP);
    assert_eq!(
        described(info::<Act>()),
        (
            vec![
                param("selector", "", true, "the element"),
                param("text", "", true, "the text"),
            ],
            vec![
                param("clear", "", false, "first"),
                param("selector", "S", false, "the same as `<selector>`"),
                timeout.clone(),
                whole.clone(),
            ]
        )
    );
    assert_eq!(
        described(info::<Query>()).0,
        [param("selector", "", false, "the same as `--selector S`")]
    );
    assert_eq!(
        described(info::<Listing>()).0,
        [param(
            "selector",
            "",
            false,
            "the same as `--selector S`, where S starts with `#` or `[`"
        )]
    );
}

/// A stray word where a verb takes a selector and a window (`tree`, `screenshot`) is
/// told the option it fits: a word that holds a selector's marks (`:text("x")`, `A >
/// B`) is no window's name, so the hint names `--selector` alone (it named `--window`
/// beside it); a plain word beside `--selector` given is `--window`'s (it was told only
/// "unexpected argument"). A word no option fits, or only one given, stays unexpected.
#[test]
fn a_stray_word_is_told_the_one_option_it_fits() {
    struct Listing;
    impl Verb for Listing {
        const ABOUT: About = About {
            name: "listing",
            tool: "listing",
            summary: "",
            synopsis: "",
            details: "",
            examples: &[],
        };
        const SPEC: Spec = Spec {
            options: &[
                Opt::selector("only S").or_word(),
                Opt::window("only W"),
                VIEW,
            ],
            ..Spec::NONE
        };
    }
    crate::testing::assert_usage_errors::<Listing>(&[
        (
            &[":text(\"x\")"],
            "unexpected argument `:text(\"x\")`; did you mean `--selector ':text(\"x\")'`?",
        ),
        (
            &["ListItem:nth(2)", "--view", "full"],
            "unexpected argument `ListItem:nth(2)`; did you mean `--selector 'ListItem:nth(2)'`?",
        ),
        (
            &["--selector", "#a", "main"],
            "unexpected argument `main`; did you mean `--window main`?",
        ),
        (
            &["main", "--selector", "#a"],
            "unexpected argument `main`; did you mean `--window main`?",
        ),
        (
            &["--selector", "#a", ":text(\"x\")"],
            "unexpected argument `:text(\"x\")`",
        ),
        (
            &["--window", "main", "--selector", "#a", "about"],
            "unexpected argument `about`",
        ),
    ]);
}

/// A second form that could not work is named, as the kit's own rule.
#[test]
fn a_second_form_that_cannot_work_is_named() {
    const CASES: [(Spec, &str); 4] = [
        (
            Spec {
                positionals: &[Pos::selector("").or_option("S")],
                options: &[Opt::selector("")],
                exclusive: &[],
            },
            "positional `<selector>` also given as `--selector`, an option of its own besides",
        ),
        (
            Spec {
                positionals: &[Pos::new("timeout", "t", Kind::Text, "").or_option("T")],
                ..Spec::NONE
            },
            "positional `<timeout>` also given as `--timeout`, an option no verb can take",
        ),
        (
            Spec {
                options: &[Opt::flag("all", "").or_word()],
                ..Spec::NONE
            },
            "flag `--all` also given as a word, which a flag has no value for",
        ),
        (
            Spec {
                positionals: &[Pos::selector("")],
                options: &[Opt::window("").or_word()],
                exclusive: &[],
            },
            "option `--window` also given as a word beside positionals, which the word would fill",
        ),
    ];
    for (spec, why) in CASES {
        assert_eq!(
            spec.unusable(),
            Some(format!("{why}, which the kit refuses"))
        );
    }
}

/// A usage error that can name the fix does, as "did you mean …?", which the host
/// prints without the verb's usage (R1 F8, F11): a word that looks like a path for the
/// verb's output path, a short option for the one option that starts with its letter,
/// a choice's nearest word, and `--name VALUE` for `<name>` as the command to type.
#[test]
fn a_usage_error_names_the_fix_where_it_can() {
    const SHOT: Spec = Spec {
        options: &[
            Opt::selector("only S"),
            Opt::window("only W"),
            Opt::value("out", "path|-", Kind::OutPath, "where"),
        ],
        ..Spec::NONE
    };
    const SWITCH: Spec = Spec {
        positionals: &[Pos::new("component", "name", Kind::Name, "which")],
        options: &[Opt::flag("force", "f")],
        ..Spec::NONE
    };
    let error = |spec: &Spec, words: &[&str]| {
        refusal(crate::argv::Args::parse_as("v", spec, &argv(words)), words)
    };
    let cases: &[(&Spec, &[&str], &str)] = &[
        (
            &SHOT,
            &["shot.png"],
            "unexpected argument `shot.png`; did you mean `--out shot.png`?",
        ),
        (
            &SHOT,
            &["out/shot"],
            "unexpected argument `out/shot`; did you mean `--out out/shot`?",
        ),
        // Not a selector (`.done`, `#a.b`), a name without an extension, or once given.
        (
            &SHOT,
            &["main"],
            "unexpected argument `main`; did you mean `--selector main` or `--window main`?",
        ),
        (
            &SHOT,
            &[".done"],
            "unexpected argument `.done`; did you mean `--selector .done` or `--window .done`?",
        ),
        (
            &SHOT,
            &["#a.png"],
            "unexpected argument `#a.png`; did you mean `--selector '#a.png'`?",
        ),
        (
            &SHOT,
            &["--out", "a.png", "b.png"],
            "unexpected argument `b.png`",
        ),
        (
            &SHOT,
            &["-s", "#x"],
            "unknown option `-s`; did you mean `--selector`?",
        ),
        (
            &SHOT,
            &["-o", "a.png"],
            "unknown option `-o`; did you mean `--out`?",
        ),
        (
            &SHOT,
            &["-t", "5"],
            "unknown option `-t`; did you mean `--timeout`?",
        ),
        // Not `-v` or `-q` (mur's), not a letter no option or several start with.
        (&SHOT, &["-v"], "unknown option `-v`"),
        (&SHOT, &["-z"], "unknown option `-z`"),
        (&Spec::NONE, &["-s"], "unknown option `-s`"),
        (
            &SWITCH,
            &["--component", "todo"],
            "unknown option `--component`; write `<component>` without `--component`: did \
             you mean `mur devtools v todo`?",
        ),
        (
            &SWITCH,
            &["--force", "--component=todo"],
            "unknown option `--component`; write `<component>` without `--component`: did \
             you mean `mur devtools v todo --force`?",
        ),
        // No command where the rest of argv is wrong too.
        (
            &SWITCH,
            &["--component", "todo", "more"],
            "unknown option `--component`; write `<component>` without `--component`",
        ),
    ];
    for (spec, words, expected) in cases {
        assert_eq!(error(spec, words), *expected, "{words:?}");
    }
    // A short option of a positional's option form; `-s` to a text still to fill is
    // told to follow `--` instead.
    assert_eq!(
        error(&Sample::SPEC, &["#x", "t", "-c", "1"]),
        "unknown option `-c`; did you mean `--count`?"
    );
}

// A verb named as `verbs add` would refuse (`Bump`), whose `cargo test` passed: the
// mistake showed only after a release build, at `verbs add` (review 314, 7).
sample_verb!(Capital, "Bump", Sample::SPEC);

/// A verb's name `verbs add` refuses fails its build, as `build.sh` and `build.mjs` refuse
/// it (review 507, 7: `session` built and was refused only at `verbs add`): `export_verb!`
/// panics in a constant with [`info::refused`]'s sentence, which says the name first (the
/// `compile_fail` examples of `info::refused`).
#[test]
fn a_name_mur_would_refuse_fails_the_build_in_the_hosts_words() {
    let host = "; `mur devtools verbs add` would refuse it";
    let named = |name: &'static str| {
        let about = About {
            name,
            ..Sample::ABOUT
        };
        info::refused(&about, &Sample::SPEC, None).concat()
    };
    assert_eq!(
        named("Export_Todos"),
        format!(
            "the verb names itself `Export_Todos`; {}{host}",
            crate::testing::VERB_NAME_RULE
        )
    );
    assert_eq!(
        named("session"),
        format!(
            "the verb names itself `session`, a word `mur devtools` answers itself: a verb by \
             that name could not be called{host}"
        )
    );
    assert!(named("index").contains("own index"));
    assert_eq!(named("export-todos"), "");
    assert_eq!(named("sample"), "");
    // Said before anything a param declares wrong.
    let about = About {
        name: "call",
        ..Sample::ABOUT
    };
    const SPEC: Spec = Spec {
        options: &[Opt::value("mode", "M", Kind::Choice(&[]), "which")],
        ..Spec::NONE
    };
    let said = info::refused(&about, &SPEC, None).concat();
    assert!(said.starts_with("the verb names itself `call`"), "{said}");
}

/// The test helpers refuse a verb's name as `verbs add` does, in its words.
#[test]
#[should_panic(
    expected = "the verb names itself `Bump`; a verb name is lowercase letters, digits and \
                inner dashes (never two in a row), starting with a letter, at most 64 \
                characters; `mur devtools verbs add` would refuse it"
)]
fn the_test_helpers_refuse_a_name_mur_would_refuse() {
    crate::testing::assert_arguments::<Capital>(&[(&["#x", "t"], json!({}))]);
}

/// Each of `verbs add`'s reasons to refuse a name (mur's crates/verbs/src/names.rs):
/// its shape, a word of the host's, the index's name; a name near them is taken.
#[test]
fn a_verb_name_is_judged_by_the_hosts_rule() {
    use crate::testing::unusable_name;
    let long = "a".repeat(65);
    for bad in [
        "Bump",
        "py_click",
        "9lives",
        "x--y",
        "x-",
        "",
        long.as_str(),
    ] {
        let why = unusable_name(bad).unwrap_or_else(|| panic!("{bad:?} taken"));
        assert!(why.contains(crate::testing::VERB_NAME_RULE), "{why}");
    }
    assert_eq!(
        unusable_name("call").as_deref(),
        Some(
            "the verb names itself `call`, a word `mur devtools` answers itself: a verb by \
             that name could not be called; `mur devtools verbs add` would refuse it"
        )
    );
    assert!(unusable_name("index").is_some_and(|why| why.contains("own index")));
    for good in [
        "bump",
        "py-click",
        "my-call",
        "index-of",
        "a1",
        &"a".repeat(64),
    ] {
        assert_eq!(unusable_name(good), None, "{good}");
    }
}

/// `--args JSON` gives the tool's whole arguments object on every verb, as on a derived
/// verb: its fields are sent as typed, the options given beside it override them, and
/// anything but an object is refused in a derived verb's words. A verb with an option
/// `args` of its own takes the whole object as `--all-args`, as a derived verb whose
/// tool has a property `args` does.
#[test]
fn args_gives_the_whole_arguments_object_as_a_derived_verb_takes_it() {
    struct Act;
    impl Verb for Act {
        const ABOUT: About = About {
            name: "act",
            tool: "act",
            summary: "Act",
            synopsis: "",
            details: "",
            examples: &[],
        };
        const SPEC: Spec = Spec {
            positionals: &[Pos::selector("the element").or_option("S")],
            options: &[Opt::value("count", "N", Kind::Count, "how many")],
            exclusive: &[],
        };
    }
    let sent_by = sent_by::<Act>;
    assert_eq!(
        sent_by(&[
            "#x",
            "--args",
            r#"{"delayMs": 5, "nested": {"a": [1, ","]}, "s": "}{"}"#
        ]),
        json!({"selector": "#x", "delayMs": 5, "nested": {"a": [1, ","]}, "s": "}{"})
    );
    // The options given beside it override its fields.
    assert_eq!(
        sent_by(&[
            "#x",
            "--count",
            "2",
            "--args",
            r##"{"count": 9, "selector": "#y", "k": null}"##
        ]),
        json!({"selector": "#x", "count": 2, "k": null})
    );
    assert_eq!(sent_by(&["#x", "--args= {} "]), json!({"selector": "#x"}));
    // A positional no word is typed for is taken from it, as a derived verb takes a
    // required property; a word typed for it overrides it.
    assert_eq!(
        sent_by(&["--args", r##"{"selector": "#y", "k": 1}"##]),
        json!({"k": 1, "selector": "#y"})
    );
    assert_eq!(
        sent_by(&["#x", "--args", r##"{"selector": "#y"}"##]),
        json!({"selector": "#x"})
    );
    let refused = refused_by::<Act>;
    assert_eq!(
        refused(&["#x", "--args", "[]"]),
        "`--args` must be a JSON object"
    );
    assert!(refused(&["#x", "--args", "{"]).starts_with("`--args` is not valid JSON: "));
    assert_eq!(refused(&["--args", "{}"]), "missing argument `<selector>`");
    assert_eq!(
        refused(&["--args", r#"{"selector": 5}"#]),
        "`selector` in `--args` must be a string, got `5`"
    );
    assert_eq!(
        refused(&["--args", r#"{"selector": " "}"#]),
        "`selector` in `--args` must not be empty"
    );
    // Sample's words fill its positionals in order; `--all-args` fills the one left.
    assert_eq!(
        sent(&call(&["hi", "--all-args", r##"{"selector": "#s"}"##])),
        json!({"selector": "#s", "text": "hi"})
    );
    // Sample's own `--args` is sent under `args`; the whole object is `--all-args`.
    let both = call(&[
        "#x",
        "hi",
        "--args",
        "[1]",
        "--all-args",
        r#"{"view": "full", "more": 1}"#,
    ]);
    assert_eq!(
        sent(&both),
        json!({"view": "full", "more": 1, "selector": "#x", "text": "hi", "args": [1]})
    );
    assert_eq!(
        sent(&call(&[
            "#x",
            "hi",
            "--view",
            "summary",
            "--all-args",
            r#"{"view": "full"}"#
        ])),
        json!({"selector": "#x", "text": "hi", "view": "summary"})
    );
}

/// A key `--args JSON` gives twice is sent once, with its last value, where it came
/// first, as serde_json, JavaScript's `JSON.parse` and Python's `json` read it (the
/// host's derived verbs and the other kits): sent twice, the tool read whichever its
/// parser keeps. The entries are still sent as typed (a big integer exactly).
#[test]
fn a_key_given_twice_in_args_is_sent_once_with_its_last_value() {
    let whole = r#"{"a": 1, "n": 12345678901234567890, "a": {"b": [2, ","]}, "k": 0, "k": null}"#;
    assert_eq!(
        call(&["#x", "hi", "--all-args", whole]).arguments,
        r##"{"a": {"b": [2, ","]},"n": 12345678901234567890,"k": null,"selector":"#x","text":"hi"}"##
    );
    // A positional taken from it takes the last value; an option beside it overrides both.
    assert_eq!(
        call(&[
            "hi",
            "--view",
            "summary",
            "--all-args",
            r##"{"selector": "#y", "view": "full", "selector": "#z", "view": "full"}"##
        ])
        .arguments,
        r##"{"selector":"#z","text":"hi","view":"summary"}"##
    );
}

/// An integer, count or number held to [`Bounds`](crate::Bounds) (a tool's `minimum`,
/// `maximum`, `exclusiveMinimum`, `exclusiveMaximum`) refuses a value past them before
/// any call, typed or in `--args`, in the very words a derived verb of that schema says
/// (crates/verbs/src/derived.rs); a value within them is sent as typed.
#[test]
fn a_value_past_its_bounds_is_refused_in_a_derived_verbs_words() {
    use crate::Bounds;
    sample_verb!(
        Bounded,
        "bounded",
        Spec {
            positionals: &[Pos::new("limit", "limit", Kind::Integer, "how many")
                .or_option("N")
                .within(Bounds::NONE.at_least("1").at_most("100"))],
            options: &[
                Opt::value("delay", "MS", Kind::Integer, "ms")
                    .within(Bounds::NONE.at_least("0").at_most("2000")),
                Opt::value("ratio", "R", Kind::Number, "r")
                    .within(Bounds::NONE.above("0").at_most("1")),
                Opt::value("both", "N", Kind::Integer, "n").within(Bounds::NONE.above("5")),
                Opt::value("under", "X", Kind::Number, "x").within(Bounds::NONE.below("0.5")),
                Opt::value("big", "N", Kind::Integer, "n")
                    .within(Bounds::NONE.at_most("18446744073709551614")),
                Opt::value("exact", "N", Kind::Integer, "n")
                    .within(Bounds::NONE.at_least("2").at_most("2")),
                Opt::value("pages", "N", Kind::Count, "n").within(Bounds::NONE.at_most("10")),
            ],
            exclusive: &[],
        }
    );
    let refused = refused_by::<Bounded>;
    let huge = "99999999999999999999999";
    for (words, said) in [
        (
            &["0"][..],
            "`<limit>` is out of range: an integer from 1 to 100, got `0`",
        ),
        (
            &["--limit", "500"],
            "`--limit` is out of range: an integer from 1 to 100, got `500`",
        ),
        (
            &["1", "--delay", "-5"],
            "`--delay` is out of range: an integer from 0 to 2000, got `-5`",
        ),
        (
            &["1", "--delay", "2001"],
            "`--delay` is out of range: an integer from 0 to 2000, got `2001`",
        ),
        (
            &["1", "--ratio", "0"],
            "`--ratio` is out of range: a number above 0 and at most 1, got `0`",
        ),
        (
            &["1", "--ratio", "1.5"],
            "`--ratio` is out of range: a number above 0 and at most 1, got `1.5`",
        ),
        (
            &["1", "--both", "5"],
            "`--both` is out of range: an integer above 5, got `5`",
        ),
        (
            &["1", "--under", "0.5"],
            "`--under` is out of range: a number below 0.5, got `0.5`",
        ),
        (
            &["1", "--big", "18446744073709551615"],
            "`--big` is out of range: an integer at most 18446744073709551614, \
             got `18446744073709551615`",
        ),
        (
            &["1", "--exact", "3"],
            "`--exact` is out of range: an integer exactly 2, got `3`",
        ),
        // A count's own 0 is its low end: `-1` is told the whole range.
        (
            &["1", "--pages", "-1"],
            "`--pages` is out of range: an integer from 0 to 10, got `-1`",
        ),
        (
            &["1", "--pages", "11"],
            "`--pages` is out of range: an integer from 0 to 10, got `11`",
        ),
        // Past what JSON holds: the range JSON holds, within the bounds.
        (
            &["1", "--both", huge],
            "`--both` is out of range: an integer above 5 and at most 18446744073709551615, \
             got `99999999999999999999999`",
        ),
        // `--args` is held to them as an option's value is, naming the field.
        (
            &["--args", r#"{"limit": 0}"#],
            "`limit` in `--args` is out of range: an integer from 1 to 100, got `0`",
        ),
        (
            &["1", "--args", r#"{"delay": 2001}"#],
            "`delay` in `--args` is out of range: an integer from 0 to 2000, got `2001`",
        ),
        (
            &["1", "--args", r#"{"ratio": 0}"#],
            "`ratio` in `--args` is out of range: a number above 0 and at most 1, got `0`",
        ),
        // Not a number at all: the kind's own words, as before.
        (
            &["1", "--delay", "x"],
            "`--delay` needs an integer, got `x`",
        ),
    ] {
        assert_eq!(refused(words), said, "{words:?}");
    }
    assert_eq!(
        sent_by::<Bounded>(&[
            "100",
            "--delay",
            "0",
            "--ratio",
            "1",
            "--both",
            "6",
            "--under",
            "0.25",
            "--big",
            "18446744073709551614",
            "--exact",
            "2",
            "--pages",
            "10"
        ]),
        json!({"limit": 100, "delay": 0, "ratio": 1, "both": 6, "under": 0.25,
            "big": 18446744073709551614_u64, "exact": 2, "pages": 10})
    );
    // An option given beside `--args` replaces its field, which is not sent nor checked.
    assert_eq!(
        sent_by::<Bounded>(&["1", "--delay", "5", "--args", r#"{"delay": 9999}"#]),
        json!({"limit": 1, "delay": 5})
    );
    // An end that is no number is the spec's slip, said before any parse.
    sample_verb!(
        Slip,
        "slip",
        Spec {
            options: &[
                Opt::value("n", "N", Kind::Integer, "n").within(Bounds::NONE.at_most("1_000"))
            ],
            ..Spec::NONE
        }
    );
    assert_eq!(
        Slip::SPEC.unusable().as_deref(),
        Some("a bound `1_000` of `n`, which is no number, which the kit refuses")
    );
}
