//! The one "did you mean" rule of mur and of its verbs, in one file: the kit's module
//! `nearest`, and mur-core's too (crates/core/src/words.rs takes this file in with
//! `#[path]`), so that a verb's hints, a derived verb's and the host's cannot drift.
//! The host reaches into the kit rather than the kit into mur-core: the kit's src/ is
//! vendored into the crates `mur devtools verbs new` makes, which build from crates.io
//! alone. Nothing here but std and strsim, which both sides have.

/// The word of `words` most like `typed`, and how alike (Jaro), when one is close
/// enough: clap's measure and bound (above 0.7), as for its "a similar subcommand
/// exists", and either no more than a typo's edits away (a third of the word's letters,
/// at least one: `bmup` → `bump`), or, three letters or more, the start of it (`--comp`
/// → `--component`) or, dashes aside, its end (`--timeout` → `--arg-timeout`, a field
/// renamed past a host option). Jaro alone finds short words alike that share a few
/// letters: `call` was "did you mean `scroll`?", `fl` `full`. Never `typed` itself;
/// the last of equals.
pub fn likeliest<S: AsRef<str>>(
    typed: &str,
    words: impl IntoIterator<Item = S>,
) -> Option<(f64, S)> {
    let edits = typed.chars().count().div_ceil(3).max(1);
    let core = typed.trim_start_matches('-');
    let long_enough = core.chars().count() >= 3;
    let near = |word: &str| {
        (long_enough && (word.starts_with(typed) || word.trim_start_matches('-').ends_with(core)))
            || strsim::osa_distance(typed, word) <= edits
    };
    words
        .into_iter()
        .filter(|word| word.as_ref() != typed && near(word.as_ref()))
        .map(|word| (strsim::jaro(typed, word.as_ref()), word))
        .filter(|(likeness, _)| *likeness > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// The choice of `choices` a refused `typed` was likely meant as: the one that differs
/// from it only in case, however far by [`likeliest`] (`ERROR` for `error`), else the
/// [`likeliest`] (`sucess` for `success`).
pub fn choice_meant<S: AsRef<str>>(
    typed: &str,
    choices: impl IntoIterator<Item = S> + Clone,
) -> Option<S> {
    let lower = typed.to_lowercase();
    let mut alike = choices
        .clone()
        .into_iter()
        .filter(|choice| choice.as_ref().to_lowercase() == lower);
    match (alike.next(), alike.next()) {
        (Some(only), None) => Some(only),
        _ => likeliest(typed, choices).map(|(_, choice)| choice),
    }
}

/// The word of `words` that `typed` is but for case, or is likely meant as by the one
/// rule ([`choice_meant`]), case aside: caps lock makes no other word (`CLICK`, `CLIK`
/// and `Click` are all `click`; `--Selector` is `--selector`). A word given twice (an
/// installed verb and a tool's of one name) is one: two alike leave the choice to the
/// rule, which never gives the word typed. The host's (mur-core's `caseless_meant`,
/// which is this function) and the kit's option hints alike.
// mur-core's: the kit weighs its two lists with `caseless_likeliest`, and tests this.
#[allow(dead_code)]
pub fn caseless_meant<S: AsRef<str>>(typed: &str, words: impl IntoIterator<Item = S>) -> Option<S> {
    let mut words: Vec<S> = words.into_iter().collect();
    words.sort_unstable_by(|a, b| a.as_ref().cmp(b.as_ref()));
    words.dedup_by(|a, b| a.as_ref() == b.as_ref());
    caseless_likeliest(typed, words).map(|(_, word)| word)
}

/// The option `--typed` was likely meant as (names without their dashes), case aside
/// (`--Selector` is `--selector`): of a verb's `own` options, else of the `host`'s,
/// which the host takes after a verb's name too (`--prety`); the verb's own unless a
/// host option is nearer. Never the host option `typed` is, which is no typo of
/// itself. The kit's option hints (`argv::option_meant`) and a derived verb's
/// (mur-core's `option_meant`, which is this function) alike.
pub fn option_meant<'w>(
    typed: &str,
    own: impl IntoIterator<Item = &'w str>,
    host: impl IntoIterator<Item = &'w str>,
) -> Option<&'w str> {
    let host = host.into_iter().filter(|option| *option != typed);
    match (
        caseless_likeliest(typed, own),
        caseless_likeliest(typed, host),
    ) {
        (Some(own), Some(host)) if host.0 > own.0 => Some(host.1),
        (Some(own), _) => Some(own.1),
        (None, host) => host.map(|(_, option)| option),
    }
}

/// [`caseless_meant`] with how alike (Jaro of the two in lower case, 1 for the word
/// that is `typed` but for case), for a caller that weighs two lists against each
/// other (the kit's verb options and host options, `argv::option_meant`); the last of
/// equals, as [`likeliest`].
pub fn caseless_likeliest<S: AsRef<str>>(
    typed: &str,
    words: impl IntoIterator<Item = S>,
) -> Option<(f64, S)> {
    let lower = typed.to_lowercase();
    let folded: Vec<Folded<S>> = words
        .into_iter()
        .map(|word| Folded {
            lower: word.as_ref().to_lowercase(),
            word,
        })
        .collect();
    let alike = folded.iter().filter(|word| word.lower == lower).count();
    match alike {
        1 => folded
            .into_iter()
            .find(|word| word.lower == lower)
            .map(|word| (1.0, word.word)),
        _ => likeliest(&lower, folded).map(|(likeness, word)| (likeness, word.word)),
    }
}

/// A word, compared in lower case ([`caseless_likeliest`]).
struct Folded<S> {
    lower: String,
    word: S,
}

impl<S> AsRef<str> for Folded<S> {
    fn as_ref(&self) -> &str {
        &self.lower
    }
}
