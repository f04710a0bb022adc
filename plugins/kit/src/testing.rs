//! Helpers for a verb's native unit tests. They panic when the outcome is not the one
//! asked for, which is what a test wants; a verb itself never calls them.

use crate::shape::Shaped;
use crate::verb::{Call, Parsed, Verb, parse, shape};
use serde_json::{Value, json};

fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| (*word).to_owned()).collect()
}

/// Asserts that verb `V` declares nothing `mur devtools verbs add` or the kit would
/// refuse ([`Spec::unusable`](crate::Spec::unusable), which says whose rule it is):
/// an option `--clear` written with its dashes, two options of one name, an option
/// `help` (`verbs add`'s rules); a positional `<the text>` with a space, an option
/// `timeout` (the kit's). Every helper here checks it first, so a verb's `cargo test`
/// says so before it is built and added. What [`info::refused`](crate::info::refused)
/// judges (a `choice` with no choices, a wait on one of its own params) fails the
/// verb's build already, where it calls `export_verb!`; checked here too, for a verb
/// tested without it.
#[track_caller]
pub fn check_declarations<V: Verb>() {
    if let Some(why) = unusable_name(V::ABOUT.name) {
        panic!("{why}");
    }
    if let Some(why) = V::SPEC.unusable() {
        panic!("verb `{}` declares {why}", V::ABOUT.name);
    }
    let refused = crate::info::refused(&V::ABOUT, &V::SPEC, V::WAITS).concat();
    assert!(refused.is_empty(), "{refused}");
}

/// Re-exported from [`info`](crate::info), which holds a verb's name to them when it
/// is built; here as the kit's tests have always named them.
pub use crate::info::{HOST_VERBS, VERB_NAME_RULE};

/// Why `mur devtools verbs add` would refuse a verb named `name`, in its words, or
/// `None`: checked first by every helper here, so `cargo test` says it before a build
/// (review 314: `Bump` passed the tests and was refused only at `verbs add`), and by
/// [`export_verb!`](crate::export_verb), which fails the build with it
/// ([`info::name_refused`](crate::info::name_refused), the rule in a constant).
pub fn unusable_name(name: &str) -> Option<String> {
    let why = crate::info::name_refused(name).concat();
    (!why.is_empty()).then_some(why)
}

/// [`parse`] of `words` by verb `V`, its declarations checked first.
#[track_caller]
fn parsed<V: Verb>(words: &[&str]) -> Result<Parsed, String> {
    check_declarations::<V>();
    parse::<V>(&owned(words))
}

/// The `arguments` object verb `V` builds from `words`.
pub fn arguments<V: Verb>(words: &[&str]) -> Value {
    let arguments = call::<V>(words).arguments;
    serde_json::from_str(&arguments)
        .unwrap_or_else(|error| panic!("the arguments are not JSON ({error}): {arguments}"))
}

/// The call-timeout hint verb `V` takes from `words`.
pub fn timeout_ms<V: Verb>(words: &[&str]) -> Option<u32> {
    call::<V>(words).timeout_ms
}

/// Whether verb `V` reads `words` as a help request.
pub fn asks_for_help<V: Verb>(words: &[&str]) -> bool {
    parsed::<V>(words) == Ok(Parsed::Help)
}

/// The usage error verb `V` gives for `words`, checked to be one line.
pub fn usage_error<V: Verb>(words: &[&str]) -> String {
    match parsed::<V>(words) {
        Err(message) if !message.contains('\n') => message,
        other => panic!("expected a one-line usage error for {words:?}, got {other:?}"),
    }
}

/// Asserts, for each `(words, arguments)` row, the `arguments` object verb `V` builds
/// from `words`.
#[track_caller]
pub fn assert_arguments<V: Verb>(rows: &[(&[&str], Value)]) {
    for (words, expected) in rows {
        assert_eq!(arguments::<V>(words), *expected, "arguments for {words:?}");
    }
}

/// Asserts, for each `(words, message)` row, the one-line usage error verb `V` gives
/// for `words`.
#[track_caller]
pub fn assert_usage_errors<V: Verb>(rows: &[(&[&str], &str)]) {
    for (words, expected) in rows {
        assert_eq!(
            usage_error::<V>(words),
            *expected,
            "usage error for {words:?}"
        );
    }
}

/// The whole call verb `V` makes of `words`.
pub fn call<V: Verb>(words: &[&str]) -> Call {
    match parsed::<V>(words) {
        Ok(Parsed::Call(call)) => call,
        other => panic!("expected a call for {words:?}, got {other:?}"),
    }
}

/// What verb `V` makes of `result` after being given `words`, the way the host
/// runs it: `parse`, then `shape` with the state `parse` returned.
pub fn shaped<V: Verb>(words: &[&str], result: &Value, pretty: bool) -> Result<Shaped, String> {
    shape::<V>(&result.to_string(), &call::<V>(words).state, pretty)
}

/// The notes for stderr verb `V` adds when it shapes `result` after `words`, in order.
pub fn notes<V: Verb>(words: &[&str], result: &Value) -> Vec<String> {
    shaped::<V>(words, result, false)
        .unwrap_or_else(|error| panic!("shape failed: {error}"))
        .notes
}

/// The stdout, as text, verb `V` prints for `result`, checked to write no file.
pub fn stdout<V: Verb>(words: &[&str], result: &Value, pretty: bool) -> String {
    let shaped =
        shaped::<V>(words, result, pretty).unwrap_or_else(|error| panic!("shape failed: {error}"));
    assert!(
        shaped.files.is_empty(),
        "unexpected files: {:?}",
        shaped.files
    );
    String::from_utf8(shaped.stdout).unwrap_or_else(|error| panic!("stdout is not UTF-8: {error}"))
}

/// The checks every verb without arguments must pass: an empty arguments
/// object, the `--timeout` hint, refusal of any word, help, and printing the
/// structured result.
pub fn check_no_argument_verb<V: Verb>() {
    assert_eq!(arguments::<V>(&[]), json!({}));
    assert_eq!(timeout_ms::<V>(&["--timeout", "900"]), Some(900));
    assert_eq!(usage_error::<V>(&["extra"]), "unexpected argument `extra`");
    assert_eq!(usage_error::<V>(&["--all"]), "unknown option `--all`");
    assert!(asks_for_help::<V>(&["--help"]));
    check_prints_structured_result::<V>(&[]);
}

/// The checks every `<verb> <selector>` verb must pass: the selector sent as
/// given, as a word or as `--selector S`, exactly one non-empty selector, no
/// unknown options, help, and printing the structured result.
pub fn check_selector_verb<V: Verb>() {
    check_selector_sent_as_given::<V>();
    assert_eq!(
        usage_error::<V>(&["#a", "--selector", "#b"]),
        "`<selector>` given twice: as `#a` and as `--selector '#b'`"
    );
    assert_eq!(
        usage_error::<V>(&["--selector", ""]),
        "`--selector` must not be empty"
    );
    assert_eq!(usage_error::<V>(&[]), "missing argument `<selector>`");
    assert_eq!(usage_error::<V>(&[" "]), "`<selector>` must not be empty");
    assert_eq!(usage_error::<V>(&["#a", "#b"]), "unexpected argument `#b`");
    assert_eq!(
        usage_error::<V>(&["#a", "--force"]),
        "unknown option `--force`"
    );
    assert!(asks_for_help::<V>(&["-h"]));
    check_prints_structured_result::<V>(&["#a"]);
}

/// The checks every verb whose selector is optional must pass (`tree`, `state`, …:
/// `Opt::selector(help).or_word()`): nothing sent without one; the selector sent as
/// given, as `--selector S` or as a word that starts like one; exactly one (given both
/// ways, told so, as a selector verb is), not empty; help.
pub fn check_optional_selector_verb<V: Verb>() {
    assert_eq!(arguments::<V>(&[]), json!({}));
    check_selector_sent_as_given::<V>();
    assert_usage_errors::<V>(&[
        (
            &["#a", "--selector", "#b"],
            "`<selector>` given twice: as `#a` and as `--selector '#b'`",
        ),
        (
            &["--selector", "#b", "#a"],
            "`<selector>` given twice: as `#a` and as `--selector '#b'`",
        ),
        (&["#a", "#b"], "unexpected argument `#b`"),
        (&[""], "`<selector>` must not be empty"),
        (&["--selector"], "`--selector <S>` needs a value"),
        (&["--selector", ""], "`--selector` must not be empty"),
    ]);
    assert!(asks_for_help::<V>(&["-h"]));
}

/// The selector sent as given: as a word, as `--selector S` or as `--selector=S`.
fn check_selector_sent_as_given<V: Verb>() {
    for words in [
        &["#btn-inc"][..],
        &["--selector", "#btn-inc"],
        &["--selector=#btn-inc"],
    ] {
        assert_eq!(
            arguments::<V>(words),
            json!({"selector": "#btn-inc"}),
            "{words:?}"
        );
    }
}

/// `structuredContent` wins over text content, compact by default and
/// indented when pretty, always newline-terminated.
pub fn check_prints_structured_result<V: Verb>(words: &[&str]) {
    let result =
        json!({"content": [{"type": "text", "text": "{}"}], "structuredContent": {"ok": true}});
    assert_eq!(stdout::<V>(words, &result, false), "{\"ok\":true}\n");
    assert_eq!(stdout::<V>(words, &result, true), "{\n  \"ok\": true\n}\n");
}
