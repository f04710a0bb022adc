//! The one rule for verb names, shared by `verbs add` and `verbs new`.

/// The rule every verb name follows, in words.
pub const VERB_NAME_RULE: &str = "a verb name is lowercase letters, digits and inner dashes, starting with a letter, at most 64 characters";

/// A verb name is a word typed after `mur devtools` and a file name:
/// `[a-z][a-z0-9-]*`, no dash at the end or twice in a row, at most 64 bytes.
/// The one rule for `verbs add` and `verbs new` alike.
pub fn valid_verb_name(name: &str) -> bool {
    name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && !name.ends_with('-')
        && !name.contains("--")
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}
