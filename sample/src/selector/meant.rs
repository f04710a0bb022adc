//! What a word that names no element was likely meant to name: the "did you mean" of a
//! selector that matched nothing (`#add`) and of a bare word taken for a type (`Add`),
//! so that the hint names an element that exists rather than a form that fails again.

use crate::tree::{NodeId, Tree};

/// An element of the tree a word likely names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Meant {
    /// An element with this id (the word in another case, one or more of the id's
    /// dash-separated parts, or mur's "did you mean" for it), never one for another
    /// number.
    Id(String),
    /// The element with this id has the word as its text (`Add` is `#todo-add`'s).
    TextOf(String),
}

/// The element of `scope` that `word` likely names, when one is close: an id equal but
/// for case, else the one id that has `word` (three letters or more) as whole
/// dash-separated parts (`add` → `todo-add`, but none for `btn`, part of `btn-inc` and
/// `btn-dec`), else the id [`mur_core::nearest`] finds (`btn-icn` → `btn-inc`), else the
/// first element whose text is the word (three letters or more), ignoring case, or has
/// it as a whole word (`warn` → `#log-7`, "007 warn …").
pub fn meant(tree: &Tree, scope: &[NodeId], word: &str) -> Option<Meant> {
    let lower = word.to_lowercase();
    let ids: Vec<&str> = scope
        .iter()
        .map(|&id| tree.element(id).id.as_str())
        .filter(|id| !id.is_empty())
        .collect();
    if let Some(id) = by_id(&lower, &ids) {
        return Some(Meant::Id(id.to_owned()));
    }
    by_text(tree, scope, &lower).map(|id| Meant::TextOf(tree.element(id).id.clone()))
}

/// An id of `ids` close to `lower`. A number in an id says which one of many it is
/// (`todo-3`, `log-250`): an id for another number, or for none (`todo` for `todo-4`),
/// is another element, however few edits away, and an agent that follows the hint acts
/// on the wrong one (a todo typed before it appears would be told `#todo-1`). Nor is
/// an id that is the word's leading parts (`todo` for `todo-x`): it holds the element
/// meant, or names another.
fn by_id<'a>(lower: &str, ids: &[&'a str]) -> Option<&'a str> {
    if let Some(id) = ids.iter().find(|id| id.to_lowercase() == lower) {
        return Some(id);
    }
    let numbers = numbers(lower);
    let candidates: Vec<Lowered> = ids
        .iter()
        .map(|&id| Lowered {
            lower: id.to_lowercase(),
            id,
        })
        .filter(|id| numbers == self::numbers(&id.lower) && !leads(&id.lower, lower))
        .collect();
    if lower.chars().count() >= 3 {
        let part = format!("-{lower}-");
        let holding: Vec<&Lowered> = candidates
            .iter()
            .filter(|id| format!("-{}-", id.lower).contains(&part))
            .collect();
        match holding[..] {
            [one] => return Some(one.id),
            [] => {}
            // Part of several ids: naming one would be a guess.
            _ => return None,
        }
    }
    mur_core::nearest(lower, candidates).map(|id| id.id)
}

/// An id lowered for [`mur_core::nearest`], which compares words as they are.
struct Lowered<'a> {
    lower: String,
    id: &'a str,
}

impl AsRef<str> for Lowered<'_> {
    fn as_ref(&self) -> &str {
        &self.lower
    }
}

/// The numbers in `word`, as numbers (`log-007` has log-7's).
fn numbers(word: &str) -> Vec<&str> {
    word.split(|c: char| !c.is_ascii_digit())
        .filter(|run| !run.is_empty())
        .map(|run| match run.trim_start_matches('0') {
            "" => "0",
            number => number,
        })
        .collect()
}

/// Whether `id` is `word`'s leading dash- or underscore-separated parts (`todo` of
/// `todo-4`).
fn leads(id: &str, word: &str) -> bool {
    word.strip_prefix(id)
        .is_some_and(|rest| rest.starts_with(['-', '_']))
}

/// The first element of `scope` with an id whose text is `lower`, else has it as a
/// whole word: a word of three letters or more, as shorter ones are in many texts
/// (`in`, `a`).
fn by_text(tree: &Tree, scope: &[NodeId], lower: &str) -> Option<NodeId> {
    if lower.chars().count() < 3 {
        return None;
    }
    let text = |id: &NodeId| tree.element(*id).text.trim().to_lowercase();
    let with_id = || {
        scope
            .iter()
            .copied()
            .filter(|id| !tree.element(*id).id.is_empty())
    };
    with_id()
        .find(|id| text(id) == lower)
        .or_else(|| with_id().find(|id| has_word(&text(id), lower)))
}

/// Whether `word` is in `text` with no letter or digit either side of it.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// `no element matches …` and, when one is close, the element likely meant; `where_`
/// says where it was looked for (`""`, ` inside `#todo-list``).
pub fn no_match(tree: &Tree, scope: &[NodeId], selector: &str, where_: &str) -> String {
    let found = format!("no element{where_} matches `{selector}`");
    let Some(id) = selector
        .trim()
        .strip_prefix('#')
        .filter(|id| is_plain_id(id))
    else {
        return found;
    };
    match meant(tree, scope, id) {
        Some(Meant::Id(meant)) => format!("{found}; did you mean `#{meant}`?"),
        Some(Meant::TextOf(meant)) => {
            let text = &tree.element(tree.find_id(&meant).unwrap_or_default()).text;
            format!("{found}; `#{meant}` has the text \"{text}\"")
        }
        None => found,
    }
}

/// Whether `id` is all of an id selector (`#todo-add`), not the start of a longer one.
fn is_plain_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::{Meant, meant};
    use crate::state::AppState;
    use crate::view;

    #[test]
    fn a_word_names_the_element_it_is_close_to_or_none() {
        let mut state = AppState::default();
        state.add_todo("alpha");
        state.add_todo("bravo");
        let tree = view::build(&state);
        let scope: Vec<_> = tree.ids().collect();
        let id = |id: &str| Some(Meant::Id(id.into()));
        let text_of = |id: &str| Some(Meant::TextOf(id.into()));
        for (word, expected) in [
            ("BTN-INC", id("btn-inc")),
            ("add", id("todo-add")),
            ("size", id("cache-size")),
            ("btn-icn", id("btn-inc")),
            ("Add", id("todo-add")),
            // The same number, in another form.
            ("tod-1", id("todo-1")),
            ("log-007", id("log-7")),
            ("btn", None),
            ("nope", None),
            ("missing", None),
            ("btn-missing", None),
            ("bravo", text_of("todo-2")),
            // Another number is another element: a todo not shown yet is not `#todo-1`.
            ("todo-3", None),
            ("log-250", None),
            ("log-1000", None),
            // Nor the element holding it.
            ("todo-x", None),
            // `#main` is two letters off, yet nothing alike; a line of the log says it.
            ("warn", text_of("log-7")),
            // Words too short to tell: in many texts.
            ("a", None),
            ("e", None),
            ("in", None),
            ("on", None),
            // A word inside a longer one is not the word.
            ("war", None),
        ] {
            assert_eq!(meant(&tree, &scope, word), expected, "{word}");
        }
    }

    #[test]
    fn a_numbered_id_is_never_told_as_another_number_or_none() {
        let tree = view::build(&AppState::default());
        let scope: Vec<_> = tree.ids().collect();
        assert_eq!(meant(&tree, &scope, "todo-4"), None);
        let mut state = AppState::default();
        state.add_todo("alpha");
        state.add_todo("bravo");
        let tree = view::build(&state);
        let list = tree.find_id("todo-list").expect("the todo list");
        let inside: Vec<_> = tree.subtree(list).into_iter().skip(1).collect();
        assert_eq!(meant(&tree, &inside, "todo-9"), None);
        assert_eq!(
            meant(&tree, &inside, "todo-2"),
            Some(Meant::Id("todo-2".into()))
        );
    }
}
