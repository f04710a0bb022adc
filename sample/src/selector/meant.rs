//! What a word that names no element was likely meant to name: the "did you mean" of a
//! selector that matched nothing (`#add`) and of a bare word taken for a type (`Add`),
//! so that the hint names an element that exists rather than a form that fails again.

use crate::tree::{NodeId, Tree};

/// An element of the tree a word likely names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Meant {
    /// An element with this id (the word in another case, one or more of the id's
    /// dash-separated parts, or a typo's edits away).
    Id(String),
    /// The element with this id has the word as its text (`Add` is `#todo-add`'s).
    TextOf(String),
}

/// The element of `scope` that `word` likely names, when one is close: an id equal but
/// for case, else the one id that has `word` (three letters or more) as whole
/// dash-separated parts (`add` → `todo-add`, but not `btn` for `btn-inc` and `btn-dec`),
/// else the id fewest edits away within a third of the word's letters (`btn-icn` →
/// `btn-inc`), else the first element whose text is the word, ignoring case, or has it.
pub fn meant(tree: &Tree, scope: &[NodeId], word: &str) -> Option<Meant> {
    let lower = word.to_lowercase();
    let ids: Vec<&str> = scope
        .iter()
        .map(|&id| tree.element(id).id.as_str())
        .filter(|id| !id.is_empty())
        .collect();
    let by_id = || -> Option<&str> {
        if let Some(id) = ids.iter().find(|id| id.to_lowercase() == lower) {
            return Some(id);
        }
        if lower.chars().count() >= 3 {
            let part = format!("-{lower}-");
            let holding: Vec<&&str> = ids
                .iter()
                .filter(|id| format!("-{}-", id.to_lowercase()).contains(&part))
                .collect();
            if let [one] = holding[..] {
                return Some(one);
            }
        }
        let edits = lower.chars().count().div_ceil(3).max(1);
        ids.iter()
            .map(|id| (strsim::osa_distance(&lower, &id.to_lowercase()), *id))
            .filter(|(distance, _)| *distance <= edits)
            .min_by_key(|(distance, _)| *distance)
            .map(|(_, id)| id)
    };
    if let Some(id) = by_id() {
        return Some(Meant::Id(id.to_owned()));
    }
    let text = |id: &NodeId| tree.element(*id).text.trim().to_lowercase();
    let with_text = |id: &&NodeId| !tree.element(**id).id.is_empty();
    scope
        .iter()
        .filter(with_text)
        .find(|id| text(id) == lower)
        .or_else(|| {
            scope
                .iter()
                .filter(with_text)
                .find(|id| !lower.is_empty() && text(id).contains(&lower))
        })
        .map(|&id| Meant::TextOf(tree.element(id).id.clone()))
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
        state.add_todo("bravo");
        let tree = view::build(&state);
        let scope: Vec<_> = tree.ids().collect();
        let id = |id: &str| Some(Meant::Id(id.into()));
        for (word, expected) in [
            ("BTN-INC", id("btn-inc")),
            ("add", id("todo-add")),
            ("size", id("cache-size")),
            ("btn-icn", id("btn-inc")),
            ("Add", id("todo-add")),
            ("btn", None),
            ("nope", None),
            ("missing", None),
            ("btn-missing", None),
            ("bravo", Some(Meant::TextOf("todo-1".into()))),
        ] {
            assert_eq!(meant(&tree, &scope, word), expected, "{word}");
        }
    }
}
