//! The words mur's messages suggest: the one "did you mean" rule for what a mistyped
//! word was likely meant to be, a word written so a shell reads it back, and what is
//! said of an option typed with an empty value.

/// The rule itself, one file for the host and the Rust verb kit, which cannot depend on
/// mur-core (its src/ is vendored into verb crates that build from crates.io alone).
#[path = "../../../plugins/kit/src/nearest.rs"]
mod kit_rule;

/// [`caseless_meant`], the rule case aside (`CLICK` and `--Selector` are `click` and
/// `--selector`), lives in the kit's file too, so that a verb's option hint and the
/// host's word hints go by one rule; [`option_meant`], an unknown option's, weighs a
/// verb's own options against the host's as the kit does.
pub use kit_rule::{caseless_meant, choice_meant, option_meant};

/// The word of `words` most like `typed`, when one is close enough by the one rule
/// ([`kit_rule::likeliest`], which says it): `bmup` → `bump`, `--comp` → `--component`,
/// not `call` → `scroll`.
pub fn nearest<S: AsRef<str>>(typed: &str, words: impl IntoIterator<Item = S>) -> Option<S> {
    kit_rule::likeliest(typed, words).map(|(_, word)| word)
}

/// Whether `typed` is one slip of the keyboard from `word` (a letter left out, added,
/// changed, or two swapped): enough to take a word for a typo of a known one rather
/// than for a name of its own ([`nearest`] suggests from further away).
pub fn is_typo_of(typed: &str, word: &str) -> bool {
    strsim::osa_distance(typed, word) <= 1
}

/// Whether `typed` is one slip of the keyboard from `word`, case aside (caps lock is no
/// other word: `CLIK` is a slip from `click`): [`is_typo_of`] of the two in lower case.
pub fn is_slip(typed: &str, word: &str) -> bool {
    is_typo_of(&typed.to_lowercase(), &word.to_lowercase())
}

/// The word of `words` that `typed` is a slip from ([`is_slip`]): the one
/// [`caseless_meant`] names, when it is one slip away. What a "did you mean" says as
/// sure, and what a new name too near an existing one is warned of: the rule every such
/// message follows, so that one is said where the other would be. The word itself, when
/// `words` has it, is given back: a caller that has the word says so first.
pub fn caseless_slip<S: AsRef<str>>(typed: &str, words: impl IntoIterator<Item = S>) -> Option<S> {
    caseless_meant(typed, words).filter(|word| is_slip(typed, word.as_ref()))
}

/// `argv` before its first `--`, and the rest from it on: after `--` no word is an
/// option, however it begins, so whoever takes options out of argv passes those on.
pub fn until_end_of_options(argv: &[String]) -> (&[String], &[String]) {
    let end = argv.iter().position(|w| w == "--").unwrap_or(argv.len());
    argv.split_at(end)
}

/// What is said of option `named` (`` `--timeout <MS>` ``, as help names it) typed with
/// an empty value (`--timeout=`, `--out ''`): `` `--timeout <MS>` needs a value (it was
/// given empty)``. The one wording of it for the host, the derived verbs and mur-eval
/// (the Rust verb kit, which cannot depend on mur-core, keeps its own copy in
/// plugins/kit/src/argv.rs): a script that passed `"$UNSET"` passed the word, and is
/// told the value it held was empty, not that it was missing.
pub fn given_empty(named: &str) -> String {
    given_empty_of(named, &[])
}

/// [`given_empty`] of an option that takes one of `values` (`--lang <LANG>`: `rust`,
/// `python`, `js`), named inside its parentheses: `` `--lang <LANG>` needs a value (it
/// was given empty; possible values: rust, python, js)``.
pub fn given_empty_of(named: &str, values: &[String]) -> String {
    let mut said = format!("`{named}` needs a value (it was given empty");
    if !values.is_empty() {
        said.push_str(&format!("; possible values: {}", values.join(", ")));
    }
    said.push(')');
    said
}

/// `word` as a shell reads it back, for a command a message suggests: bare when it
/// is plain, else in single quotes (`'#count'`, `'it'\''s'`).
pub fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_.,/:=@%+-".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// A file name as a shell reads it back, naming the same file: [`shell_word`] when it
/// is text with no [`unprintable`](crate::text::unprintable) character (so a name with
/// a space is quoted: pasted bare it is two words), else bash's `$'…'` with `\xHH`
/// escapes (never lossy, never raw control bytes on a terminal).
pub fn shell_name(name: &std::ffi::OsStr) -> String {
    match name.to_str() {
        Some(text) if !text.chars().any(crate::text::unprintable) => shell_word(text),
        _ => crate::text::ansi_c_quoted(name.as_encoded_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::{
        given_empty, given_empty_of, nearest, shell_name, shell_word, until_end_of_options,
    };

    #[test]
    fn a_typo_is_one_slip_away() {
        use super::is_typo_of;
        for (typed, word) in [
            ("sesion", "session"),
            ("verison", "version"),
            ("clik", "click"),
        ] {
            assert!(is_typo_of(typed, word), "{typed}");
        }
        for (typed, word) in [("version", "session"), ("state", "usage"), ("cl", "click")] {
            assert!(!is_typo_of(typed, word), "{typed}");
        }
    }

    /// A slip is judged case aside, from the word [`super::caseless_meant`] names, and
    /// never from a word further off.
    #[test]
    fn a_slip_is_the_meant_word_one_slip_away_case_aside() {
        use super::{caseless_slip, is_slip};
        assert!(is_slip("CLIK", "click"));
        assert!(is_slip("Clikc", "click"));
        assert!(!is_slip("version", "session"));
        let words = ["click", "clear-todos", "scroll"];
        assert_eq!(caseless_slip("clik", words), Some("click"));
        assert_eq!(caseless_slip("CLICK", words), Some("click"));
        // The word itself is its own (a caller that has it says so first).
        assert_eq!(caseless_slip("click", words), Some("click"));
        assert_eq!(caseless_slip("clack-it", words), None);
        assert_eq!(caseless_slip("clik", Vec::<&str>::new()), None);
    }

    #[test]
    fn a_word_is_quoted_only_when_a_shell_would_misread_it() {
        assert_eq!(shell_word("settings"), "settings");
        assert_eq!(shell_word("#count"), "'#count'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word(r#"{"a": 1}"#), r#"'{"a": 1}'"#);
    }

    /// A file name is bare when a shell reads it back as it is, single-quoted when it
    /// holds what a shell splits or expands (a space), and `$'…'` when it is no text or
    /// holds what a terminal would act on.
    #[cfg(unix)]
    #[test]
    fn a_file_name_is_quoted_as_a_shell_reads_it_back() {
        use std::os::unix::ffi::OsStrExt;
        let name = |bytes: &[u8]| shell_name(std::ffi::OsStr::from_bytes(bytes));
        assert_eq!(name(b"/tmp/r/ab.json"), "/tmp/r/ab.json");
        assert_eq!(name(b"/tmp/my runs/ab.json"), "'/tmp/my runs/ab.json'");
        assert_eq!(
            name(b"/tmp/r/\xff\x1b'.json"),
            "$'/tmp/r/\\xff\\x1b\\'.json'"
        );
        assert_eq!(
            name("/tmp/r/a\u{202e}b".as_bytes()),
            "$'/tmp/r/a\\xe2\\x80\\xaeb'"
        );
    }

    include!("../../../tests/shared/nearest_cases.rs");

    #[test]
    fn the_closest_word_above_the_bound_and_never_the_word_itself() {
        for (typed, words, meant) in NEAREST_CASES {
            assert_eq!(nearest(typed, words.iter().copied()), meant, "{typed}");
        }
        assert_eq!(nearest("view", ["view"]), None);
    }

    #[test]
    fn after_a_double_dash_no_word_is_an_option() {
        let argv: Vec<String> = ["--out", "a", "--", "--out", "b"]
            .map(String::from)
            .to_vec();
        let (options, end) = until_end_of_options(&argv);
        assert_eq!((options.len(), end), (2, &argv[2..]));
        let none: Vec<String> = vec!["x".into()];
        assert_eq!(until_end_of_options(&none), (&none[..], &[][..]));
    }

    /// An option typed empty is said to need a value, as given empty, with the values
    /// it takes where it takes one of a few.
    #[test]
    fn an_option_given_empty_is_said_so() {
        assert_eq!(
            given_empty("--timeout <MS>"),
            "`--timeout <MS>` needs a value (it was given empty)"
        );
        let langs = ["rust", "python", "js"].map(String::from);
        assert_eq!(
            given_empty_of("--lang <LANG>", &langs),
            "`--lang <LANG>` needs a value (it was given empty; possible values: rust, python, js)"
        );
    }
}
