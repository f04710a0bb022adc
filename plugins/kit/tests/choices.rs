//! A choice's "did you mean" is the host's (`mur_core::nearest` and a choice that
//! differs only in case), so a verb made with the kit hints as a derived verb does.
//! The cases are the ones crates/verbs/src/derived.rs and the Python and JavaScript
//! kits' tests run (tests/shared/choice_cases.rs). A test of its own, outside src/:
//! src/ is vendored whole into the crates `mur devtools verbs new` makes, where that
//! file is not.

use mur_verb_kit::{Args, Kind, Opt, Spec};

include!("../../../tests/shared/choice_cases.rs");
include!("../../../tests/shared/nearest_cases.rs");

/// A verb whose options are the choices of [`CHOICE_OPTIONS`].
fn choices() -> Spec {
    static OPTIONS: [(&str, [&str; 2]); 3] = CHOICE_OPTIONS;
    let options: Vec<Opt> = OPTIONS
        .iter()
        .map(|(name, choices)| Opt::value(name, "C", Kind::Choice(choices), "which"))
        .collect();
    Spec {
        options: options.leak(),
        ..Spec::NONE
    }
}

/// The one-line message the kit refuses `words` with.
fn refused(words: &[&str]) -> String {
    let argv: Vec<String> = words.iter().map(|word| (*word).to_owned()).collect();
    match Args::parse(&choices(), &argv) {
        Err(message) => message,
        Ok(taken) => panic!("expected an error for {words:?}, got {taken:?}"),
    }
}

#[test]
fn a_choice_is_meant_by_the_hosts_rule() {
    for (option, word, meant) in CHOICE_CASES {
        assert_eq!(
            refused(&[&format!("--{option}"), word]),
            choice_refusal(option, word, meant)
        );
    }
    // An option's too: `--vi` is no typo of `--view` by it, though Jaro alone likes it.
    assert_eq!(refused(&["--vi"]), "unknown option `--vi`");
    assert_eq!(
        refused(&["--sttus"]),
        "unknown option `--sttus`; did you mean `--status`?"
    );
}

/// The host's rule itself, through a choice (a word that is none of its choices, nor one
/// of them in another case, is refused naming the [`NEAREST_CASES`] guess): the kit
/// names what the host's `mur_core::nearest` names (one file, src/nearest.rs, for both).
#[test]
fn a_word_is_meant_as_the_hosts_rule_means_it() {
    for (typed, words, meant) in NEAREST_CASES {
        let spec = Spec {
            options: vec![Opt::value("pick", "W", Kind::Choice(words), "which")].leak(),
            ..Spec::NONE
        };
        let quoted: Vec<String> = words.iter().map(|word| format!("`{word}`")).collect();
        let listed = match quoted.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => quoted.concat(),
        };
        let told = format!("`--pick` must be {listed}, got `{typed}`");
        let said = match meant {
            Some(meant) => format!("{told}; did you mean `{meant}`?"),
            None => told,
        };
        let argv = [format!("--pick={typed}")];
        assert_eq!(Args::parse(&spec, &argv).err(), Some(said), "{typed}");
    }
}
