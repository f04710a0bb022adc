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
