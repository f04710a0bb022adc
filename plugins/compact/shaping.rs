//! What the compact verbs share: the options `--fields` and `--full`, a node or object
//! cut down to a few fields, long strings cut with their full size shown, and a list
//! printed with the explicit note of an empty result.

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
/// `--full`: every field, no value cut.
pub const FULL: Opt = Opt::flag("full", "print every field and every value whole");

/// The spec of a verb whose only options are `--fields` and `--full`.
#[allow(dead_code)] // not every verb is a bare listing
pub const SPEC: Spec = Spec {
    positionals: &[],
    options: &[FIELDS, FULL],
    exclusive: &[],
};

/// The tool's arguments: argv's, without the options the verb keeps for itself.
pub fn arguments(args: &Args) -> Map<String, Value> {
    let mut arguments = args.arguments();
    arguments.remove("full");
    arguments
}

/// What to keep of an object: `default` fields, plus `--fields`; all with `--full` or
/// `--fields all`.
pub struct Keep {
    fields: Option<Vec<String>>,
    full: bool,
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
        cut(value)
    }
}

/// `value` with every string longer than [`LONGEST`] characters cut, its full size said.
pub fn cut(value: &Value) -> Value {
    match value {
        Value::String(text) if text.chars().count() > LONGEST => {
            let kept: String = text.chars().take(LONGEST).collect();
            Value::from(format!(
                "{kept}… [{} chars; --full for all]",
                text.chars().count()
            ))
        }
        Value::Array(items) => Value::Array(items.iter().map(cut).collect()),
        Value::Object(object) => Value::Object(
            object
                .iter()
                .map(|(key, value)| (key.clone(), cut(value)))
                .collect(),
        ),
        other => other.clone(),
    }
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

/// `out` with the list `key` printed: an empty one said so first ("no {what}; {instead}").
#[allow(dead_code)] // not every verb lists things
pub fn listed(
    mut out: Map<String, Value>,
    key: &str,
    list: Vec<Value>,
    (what, instead): (&str, &str),
    pretty: bool,
) -> Shaped {
    if list.is_empty() {
        out.insert(
            "empty".to_owned(),
            Value::from(format!("no {what}; {instead}")),
        );
    }
    out.insert(key.to_owned(), Value::Array(list));
    Shaped::json(&Value::Object(out), pretty)
}
