//! What the compact verbs share: the options `--fields` and `--full`, a node or object
//! cut down to a few fields, long strings cut with their full size shown, a list
//! printed with the explicit note of an empty result, and the notes on stderr (the
//! likely next command, what was cut and how to see it whole).

use std::cell::Cell;

use mur_verb_kit::{Args, Kind, Map, Opt, Shaped, Spec, Value};

/// The longest string kept whole unless `--full`.
pub const LONGEST: usize = 80;

/// `--fields a,b`: more fields than the default set.
pub const FIELDS: Opt = Opt::value(
    "fields",
    "F,…",
    Kind::Local,
    "also print these fields (comma-separated), or `all`",
);
/// `--full`: every field, no value cut; the verb's own (never sent), so a listing needs
/// no `arguments` of its own.
pub const FULL: Opt = Opt::local_flag("full", "print every field and every value whole");

/// The spec of a verb whose only options are `--fields` and `--full`.
#[allow(dead_code)] // not every verb is a bare listing
pub const SPEC: Spec = Spec {
    options: &[FIELDS, FULL],
    ..Spec::NONE
};

/// What to keep of an object: `default` fields, plus `--fields`; all with `--full` or
/// `--fields all`.
pub struct Keep {
    fields: Option<Vec<String>>,
    full: bool,
    /// How many strings were cut so far, for the note that says so.
    cuts: Cell<usize>,
}

impl Keep {
    pub fn of(args: &Args, default: &[&str]) -> Self {
        let full = args.flag("full");
        let extra = args.value("fields").unwrap_or_default();
        let all = full || extra.split(',').any(|f| f.trim() == "all");
        let mut fields: Vec<String> = default.iter().map(|f| (*f).to_owned()).collect();
        fields.extend(
            extra
                .split(',')
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .map(str::to_owned),
        );
        Keep {
            fields: (!all).then_some(fields),
            full,
            cuts: Cell::new(0),
        }
    }

    /// `object` with only the kept fields (in its own order), values cut unless `--full`.
    pub fn object(&self, object: &Map<String, Value>) -> Map<String, Value> {
        object
            .iter()
            .filter(|(key, _)| {
                self.fields
                    .as_ref()
                    .is_none_or(|fields| fields.iter().any(|f| f == *key))
            })
            .map(|(key, value)| (key.clone(), self.value(value)))
            .collect()
    }

    /// `value` with its long strings cut (unless `--full`).
    pub fn value(&self, value: &Value) -> Value {
        if self.full {
            return value.clone();
        }
        self.cut(value)
    }

    /// `value` with every string longer than [`LONGEST`] characters cut, its full size
    /// said, each cut counted.
    fn cut(&self, value: &Value) -> Value {
        match value {
            Value::String(text) if text.chars().count() > LONGEST => {
                self.cuts.set(self.cuts.get() + 1);
                let kept: String = text.chars().take(LONGEST).collect();
                Value::from(format!(
                    "{kept}… [{} chars; --full for all]",
                    text.chars().count()
                ))
            }
            Value::Array(items) => Value::Array(items.iter().map(|v| self.cut(v)).collect()),
            Value::Object(object) => Value::Object(
                object
                    .iter()
                    .map(|(key, value)| (key.clone(), self.cut(value)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// `shaped` with its notes: what was cut and how to see it whole (when something
    /// was), then `next`, the likely next command (when there is one).
    pub fn noted(&self, mut shaped: Shaped, next: Option<String>) -> Shaped {
        let cuts = self.cuts.get();
        if cuts > 0 {
            shaped = shaped.note(format!(
                "cut: {cuts} value{} over {LONGEST} characters; --full prints {} whole",
                if cuts == 1 { "" } else { "s" },
                if cuts == 1 { "it" } else { "them" }
            ));
        }
        match next {
            Some(next) => shaped.note(format!("next: {next}")),
            None => shaped,
        }
    }
}

/// A `mur devtools …` command line, words as given.
pub fn command(words: &str) -> String {
    format!("mur devtools {words}")
}

/// `text` quoted for a POSIX shell: `'#btn-inc'`.
#[allow(dead_code)] // not every verb names an element
pub fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// Keeps only the non-default flags of an element: `enabled`/`visible` when false,
/// `focused`/`checked`/`selected`/`expanded` when present and true or a value.
#[allow(dead_code)] // not every verb has elements with flags
pub fn notable(object: &Map<String, Value>) -> Map<String, Value> {
    let mut kept = Map::new();
    for (key, value) in object {
        let keep = match key.as_str() {
            "enabled" | "visible" => value == &Value::Bool(false),
            "focused" => value == &Value::Bool(true),
            "checked" | "selected" | "expanded" | "value" => !value.is_null(),
            _ => false,
        };
        if keep {
            kept.insert(key.clone(), value.clone());
        }
    }
    kept
}

/// The items of the list `key` of `payload` (none when it is missing or not a list).
#[allow(dead_code)] // not every verb lists things
pub fn items<'a>(payload: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    payload
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// `out` with the list `key` printed, an empty one said so first (`"empty": "no {what}"`),
/// and its notes: what was cut, then `next` — `instead` when the list is empty.
#[allow(dead_code)] // not every verb lists things
pub fn listed(
    keep: &Keep,
    mut out: Map<String, Value>,
    (key, list): (&str, Vec<Value>),
    (what, instead): (&str, String),
    next: Option<String>,
    pretty: bool,
) -> Shaped {
    let empty = list.is_empty();
    if empty {
        out.insert("empty".to_owned(), Value::from(format!("no {what}")));
    }
    out.insert(key.to_owned(), Value::Array(list));
    let shaped = Shaped::json(&Value::Object(out), pretty);
    keep.noted(shaped, if empty { Some(instead) } else { next })
}
