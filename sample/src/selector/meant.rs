//! What a word that names no element was likely meant to name: the "did you mean" of a
//! selector that matched nothing (`#add`) and of a bare word taken for a type (`Add`),
//! so that the hint names an element that exists rather than a form that fails again.

use super::among::{Among, Purpose};
use crate::actions::not_visible;
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
    /// The element with this id has the word as its name, written `name` (`increment`
    /// is `#btn-inc`'s, named `Increment`).
    NameOf { id: String, name: String },
}

impl Meant {
    /// The id of the element meant.
    pub fn id(&self) -> &str {
        match self {
            Meant::Id(id) | Meant::TextOf(id) | Meant::NameOf { id, .. } => id,
        }
    }
}

/// The element of `scope` that `word` likely names, when one is close: an id equal but
/// for case, else the one element whose name is the word, ignoring case (`increment` →
/// `#btn-inc`, named `Increment`), else the one id that has `word` (three letters or
/// more) as whole dash-separated parts (`add` → `todo-add`, but none for `btn`, part of
/// `btn-inc` and `btn-dec`), else the one id the word is a slip of ([`slip_of`]:
/// `btn-icn` → `btn-inc`), else the one element whose text is the word (three letters
/// or more), ignoring case, or has it as a whole word (`session-7` → `#log-7`, "007
/// warn … session-7, …"). Where several fit, none is named: an agent that follows a
/// hint acts on the element it names, so a guess is worse than no hint.
pub fn meant(tree: &Tree, scope: &[NodeId], word: &str) -> Option<Meant> {
    let lower = word.to_lowercase();
    let with_id: Vec<NodeId> = scope
        .iter()
        .copied()
        .filter(|&id| !tree.element(id).id.is_empty())
        .collect();
    let ids: Vec<&str> = with_id
        .iter()
        .map(|&id| tree.element(id).id.as_str())
        .collect();
    if let Some(id) = ids.iter().find(|id| id.to_lowercase() == lower) {
        return Some(Meant::Id((*id).to_owned()));
    }
    let named = only(
        with_id
            .iter()
            .map(|&id| tree.element(id))
            .filter(|element| element.name.to_lowercase() == lower),
    );
    if let Some(element) = named {
        return Some(Meant::NameOf {
            id: element.id.clone(),
            name: element.name.clone(),
        });
    }
    if let Some(id) = by_id(&lower, &ids) {
        return Some(Meant::Id(id.to_owned()));
    }
    by_text(tree, &with_id, &lower).map(|id| Meant::TextOf(tree.element(id).id.clone()))
}

/// An id of `ids` close to `lower`. A number in an id says which one of many it is
/// (`todo-3`, `log-250`): an id for another number, or for none (`todo` for `todo-4`),
/// is another element, however few edits away, and an agent that follows the hint acts
/// on the wrong one (a todo typed before it appears would be told `#todo-1`).
fn by_id<'a>(lower: &str, ids: &[&'a str]) -> Option<&'a str> {
    let numbers = numbers(lower);
    let candidates: Vec<(String, &str)> = ids
        .iter()
        .map(|&id| (id.to_lowercase(), id))
        .filter(|(id, _)| numbers == self::numbers(id))
        .collect();
    if lower.chars().count() >= 3 {
        let part = format!("-{lower}-");
        let holding: Vec<&str> = candidates
            .iter()
            .filter(|(id, _)| format!("-{id}-").contains(&part))
            .map(|(_, id)| *id)
            .collect();
        match holding[..] {
            [one] => return Some(one),
            [] => {}
            // Part of several ids: naming one would be a guess.
            _ => return None,
        }
    }
    only(
        candidates
            .iter()
            .filter(|(id, _)| slip_of(lower, id))
            .map(|(_, id)| *id),
    )
}

/// Whether `typed` is `id` with a slip in it, part by part: the same dash- or
/// underscore-separated parts, each the same, the same number (`007` for `7`) or a
/// [`slip`] of it; or the same with a dash left out (`todoadd`). Not a typo's edits over
/// the whole id, as [`mur_core::nearest`] allows: the parts an id shares with its
/// neighbours (`btn-`) would use up the likeness, and the part that tells them apart
/// could be replaced whole (`btn-add` was told `#btn-dec`, `tod-3` `#log-3`).
fn slip_of(typed: &str, id: &str) -> bool {
    let parts = |word: &str| -> Vec<String> { word.split(['-', '_']).map(str::to_owned).collect() };
    let (typed, id) = (parts(typed), parts(id));
    if typed.concat() == id.concat() {
        return true;
    }
    typed.len() == id.len()
        && typed.iter().zip(&id).all(|(typed, part)| {
            typed == part
                || match (number(typed), number(part)) {
                    (Some(typed), Some(part)) => typed == part,
                    (None, None) => slip(typed, part),
                    _ => false,
                }
        })
}

/// Whether the word `typed` is `word` with one slip ([`mur_core::is_typo_of`]) that
/// leaves it recognisable: a letter left out, added or two swapped in a word of three
/// letters or more (`tod`, `icn`), a letter changed only in one of five or more. One
/// letter changed in a short word is as often another word (`last` and `list`, `add`
/// and `and`), which names another element.
fn slip(typed: &str, word: &str) -> bool {
    let sorted = |word: &str| {
        let mut letters: Vec<char> = word.chars().collect();
        letters.sort_unstable();
        letters
    };
    let length = typed.chars().count();
    let changed = length == word.chars().count() && sorted(typed) != sorted(word);
    length >= 3 && mur_core::is_typo_of(typed, word) && (!changed || length >= 5)
}

/// The one item of `found`, or none when there are none or several.
fn only<T>(mut found: impl Iterator<Item = T>) -> Option<T> {
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// The numbers in `word`, as numbers (`log-007` has log-7's).
fn numbers(word: &str) -> Vec<&str> {
    word.split(|c: char| !c.is_ascii_digit())
        .filter_map(number)
        .collect()
}

/// `part` as a number without leading zeros, if it is all digits (`007` is `7`).
fn number(part: &str) -> Option<&str> {
    if part.is_empty() || !part.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(match part.trim_start_matches('0') {
        "" => "0",
        number => number,
    })
}

/// The one element of `with_id` whose text is `lower`, else the one with it as a whole
/// word: a word of three letters or more, as shorter ones are in many texts (`in`,
/// `a`). None where several have it (`served` is in most lines of the log): which one
/// was meant, the word does not say.
fn by_text(tree: &Tree, with_id: &[NodeId], lower: &str) -> Option<NodeId> {
    if lower.chars().count() < 3 {
        return None;
    }
    let text = |id: &NodeId| tree.element(*id).text.trim().to_lowercase();
    let whole: Vec<NodeId> = with_id
        .iter()
        .copied()
        .filter(|id| text(id) == lower)
        .collect();
    if !whole.is_empty() {
        return only(whole.into_iter());
    }
    only(
        with_id
            .iter()
            .copied()
            .filter(|id| has_word(&text(id), lower)),
    )
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
pub fn no_match(among: Among, selector: &str, where_: &str) -> String {
    let found = format!("no element{where_} matches `{selector}`");
    match likely(among, selector) {
        Some(hint) => format!("{found}; {hint}"),
        None => found,
    }
}

/// The element an id selector that matches nothing likely meant (`did you mean
/// `#todo-add`?`), when one is close.
pub fn likely(among: Among, selector: &str) -> Option<String> {
    let id = selector
        .trim()
        .strip_prefix('#')
        .filter(|id| is_plain_id(id))?;
    let tree = among.tree;
    let meant = meant(tree, among.scope, id)?;
    let hint = match &meant {
        Meant::Id(meant) => format!("did you mean `#{meant}`?"),
        Meant::TextOf(meant) => {
            let text = &tree.element(tree.find_id(meant).unwrap_or_default()).text;
            format!("`#{meant}` has the text \"{text}\"")
        }
        Meant::NameOf { id, name } => format!("`#{id}` is named \"{name}\""),
    };
    Some(shown(among, &meant, hint))
}

/// `hint`, which names `meant`, followed for an action by what shows that element when
/// it is hidden (`… It is not visible: component `todo` is not active; switch to it
/// first …`): told only "did you mean `#todo-add`?", an agent acting on it would be told
/// the rest by its next call. Looked for inside a container ([`Purpose::Within`]), what
/// the next call would refuse is the container, so it is the one told.
pub fn shown(among: Among, meant: &Meant, hint: String) -> String {
    let tree = among.tree;
    let hidden = match among.purpose {
        Purpose::Act => tree
            .find_id(meant.id())
            .filter(|&id| !tree.element(id).visible)
            .map(|id| not_visible(tree, id, "It")),
        Purpose::Within(container) => {
            let element = tree.element(container);
            (!element.visible).then(|| not_visible(tree, container, &element.label()))
        }
        Purpose::Read => None,
    };
    let Some(hidden) = hidden else {
        return hint;
    };
    let end = if hint.ends_with('?') { " " } else { ". " };
    format!("{hint}{end}{hidden}")
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
        let named = |id: &str, name: &str| {
            Some(Meant::NameOf {
                id: id.into(),
                name: name.into(),
            })
        };
        for (word, expected) in [
            ("BTN-INC", id("btn-inc")),
            ("add", id("todo-add")),
            ("size", id("cache-size")),
            ("Add", id("todo-add")),
            // A slip in a part: a letter changed, left out, added or two swapped.
            ("btn-icn", id("btn-inc")),
            ("todo-imput", id("todo-input")),
            ("theme-forrest", id("theme-forest")),
            ("todo-inptu", id("todo-input")),
            ("theme-sunst", id("theme-sunset")),
            ("tood-1", id("todo-1")),
            // A dash left out.
            ("todoadd", id("todo-add")),
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
            // A part replaced is another element, however much of the id is the same:
            // the part that tells the elements apart is the one that differs.
            ("btn-minus", None),
            ("btn-add", None),
            ("btn-done", None),
            ("about-title", None),
            ("theme-list", None),
            ("theme-select", None),
            ("todo-alpha", None),
            ("todo-bravo", None),
            ("todo-new", None),
            ("todo-field", None),
            ("todo-items", None),
            ("todo-count", None),
            ("todo-clear", None),
            ("todo-first", None),
            ("todo-last", None),
            // A letter changed in a short word is as often another word.
            ("btn-ind", None),
            ("todo-lost", None),
            ("count-value", None),
            ("counter-panel", None),
            // `tod-3` has log-3's number, but `tod` is no slip of `log`.
            ("tod-3", None),
            // A word that is one element's name: the form that finds it by name.
            ("Increment", named("btn-inc", "Increment")),
            ("increment", named("btn-inc", "Increment")),
            ("todos", named("todo-list", "Todos")),
            ("plus", None),
            // A word in one element's text: that element; in many, none of them (`warn`
            // is in every seventh line of the log, `served` in the others).
            ("session-7", text_of("log-7")),
            ("warn", None),
            ("served", None),
            ("request", None),
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
