//! The one rule for verb names, shared by `verbs add` and `verbs new`.

/// The rule every verb name follows, in words.
pub const VERB_NAME_RULE: &str = "a verb name is lowercase letters, digits and inner dashes (never two in a row), starting with a letter, at most 64 characters";

/// A verb name is a word typed after `mur devtools` and a file name:
/// `[a-z][a-z0-9-]*`, no dash at the end or twice in a row, at most 64 bytes.
/// The one rule for `verbs add` and `verbs new` alike. Written in mur-usage
/// ([`mur_usage::verb_name_shaped`]), where usage records — mur's and a session's,
/// whose mur-server cannot depend on this crate — keep a word as typed when a verb
/// could be named so: one rule, not two that could drift apart.
pub fn valid_verb_name(name: &str) -> bool {
    mur_usage::verb_name_shaped(name)
}

/// How long `name` is where that alone breaks [`VERB_NAME_RULE`] (more than 64
/// characters, each of them allowed): the one fault the eye cannot see in a name
/// (`Bad_Name`, `9lives` and `x--y` show theirs), so a refusal says it.
pub fn too_long(name: &str) -> Option<usize> {
    let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
    (name.len() > 64 && name.chars().all(allowed)).then_some(name.len())
}

/// Why a verb cannot have a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unusable {
    /// Not a word of [`VERB_NAME_RULE`].
    Malformed,
    /// A word `mur devtools` answers itself (`call`, `verbs`, `session`, …):
    /// the host's command takes the word first, so such a verb could never be
    /// called.
    Reserved,
    /// `index`: the verb directory's index is named so (`index/`, and an older
    /// `mur`'s `index.json`), and a verb's file `index.json` would be read as
    /// that index.
    Index,
}

/// The name the verb index takes in the verb directory.
pub const INDEX_NAME: &str = "index";

/// Whether a verb may be called `name`, where `reserved` are the words the
/// host answers itself after `mur devtools`: the one check of `verbs new` and
/// `verbs add` (which judges it before compiling when the component declares
/// its name, see [`crate::name_section`]).
pub fn judge(name: &str, reserved: &[String]) -> Result<(), Unusable> {
    if !valid_verb_name(name) {
        return Err(Unusable::Malformed);
    }
    if reserved.iter().any(|word| word == name) {
        return Err(Unusable::Reserved);
    }
    if name == INDEX_NAME {
        return Err(Unusable::Index);
    }
    Ok(())
}

/// The name `name` was likely meant to be, when it is malformed only in its case or
/// its separators (`Click`, `Bad_Name`, `x--y`): lowercased, each run of other
/// characters one dash, none at either end; `None` when that is no usable name either,
/// or when a letter would be lost (`café` is not `caf`).
pub fn suggestion(name: &str, reserved: &[String]) -> Option<String> {
    if name.chars().any(|c| c.is_alphanumeric() && !c.is_ascii()) {
        return None;
    }
    let mut fixed = String::new();
    for c in name.chars().map(|c| c.to_ascii_lowercase()) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            fixed.push(c);
        } else if !fixed.is_empty() && !fixed.ends_with('-') {
            fixed.push('-');
        }
    }
    let fixed = fixed.trim_end_matches('-').to_owned();
    (fixed != name && judge(&fixed, reserved).is_ok()).then_some(fixed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_off_only_in_case_or_dashes_suggests_the_usable_one() {
        let reserved = ["call".to_owned()];
        for (typed, meant) in [
            ("Click", Some("click")),
            ("Bad_Name", Some("bad-name")),
            ("x--y", Some("x-y")),
            ("x-", Some("x")),
            ("CALL", None),
            ("9lives", None),
            ("café", None),
            ("Größe", None),
            ("", None),
            ("bump", None),
        ] {
            assert_eq!(suggestion(typed, &reserved).as_deref(), meant, "{typed:?}");
        }
    }

    #[test]
    fn only_a_name_too_long_and_otherwise_usable_is_said_too_long() {
        let longest = "a".repeat(64);
        assert_eq!(too_long(&longest), None);
        assert_eq!(too_long(&format!("{longest}b")), Some(65));
        assert_eq!(too_long(&format!("{longest}B")), None, "its `B` is shown");
    }

    #[test]
    fn a_name_is_a_word_the_host_does_not_answer_itself() {
        let reserved = ["call".to_owned(), "verbs".to_owned()];
        assert_eq!(judge("bump", &reserved), Ok(()));
        assert_eq!(judge("my-call", &reserved), Ok(()));
        assert_eq!(judge("call", &reserved), Err(Unusable::Reserved));
        assert_eq!(judge("index", &reserved), Err(Unusable::Index));
        assert_eq!(judge("index-of", &reserved), Ok(()));
        for bad in ["", "Call", "x-", "a--b", "two words", "../up"] {
            assert_eq!(judge(bad, &reserved), Err(Unusable::Malformed), "{bad:?}");
        }
    }
}
