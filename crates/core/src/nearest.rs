//! "Did you mean": the one rule for the word a mistyped one was likely meant to be.

/// The word of `words` most like `typed`, when one is close enough: clap's
/// measure (Jaro similarity) and bound, as for its "a similar subcommand exists".
pub fn nearest<S: AsRef<str>>(typed: &str, words: impl IntoIterator<Item = S>) -> Option<S> {
    words
        .into_iter()
        .map(|word| (strsim::jaro(typed, word.as_ref()), word))
        .filter(|(likeness, word)| *likeness > 0.7 && word.as_ref() != typed)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, word)| word)
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn the_closest_word_above_the_bound_and_never_the_word_itself() {
        let words = ["selector", "window", "view"];
        assert_eq!(nearest("slector", words), Some("selector"));
        assert_eq!(nearest("windw", words), Some("window"));
        assert_eq!(nearest("colour", words), None);
        assert_eq!(nearest("view", ["view"]), None);
    }
}
