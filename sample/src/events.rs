//! Named component events raised by the `fire` tool (`counter.reset`, `todo.clear`, …).

use serde_json::{Value, json};

use super::state::AppState;

/// An event's one argument: its key and its type (`("value", "integer")`).
pub type Arg = (&'static str, &'static str);

/// Every event: target, the one argument it takes (name and type) if any, and what it does.
/// An event refuses any other argument, as every tool refuses fields its schema does not
/// list: an ignored `{"by": 3}` would look like it worked.
pub const EVENTS: [(&str, Option<Arg>, &str); 6] = [
    ("counter.increment", None, "add one to the count"),
    ("counter.reset", None, "set the count to 0"),
    (
        "counter.set",
        Some(("value", "integer")),
        "set the count to a value",
    ),
    (
        "todo.add",
        Some(("text", "string")),
        "add a todo right away",
    ),
    ("todo.clear", None, "remove every todo"),
    ("settings.reset", None, "restore the default settings"),
];

/// The args an event takes, as written to a user: `{"value": <integer>}`.
fn args_text(arg: Arg) -> String {
    let (key, kind) = arg;
    format!("{{\"{key}\": <{kind}>}}")
}

/// The list shown when a target is unknown: `counter.set {"value": <integer>}, …`.
pub fn known_events() -> String {
    let names: Vec<String> = EVENTS
        .iter()
        .map(|&(name, arg, _)| match arg {
            Some(arg) => format!("{name} {}", args_text(arg)),
            None => name.to_owned(),
        })
        .collect();
    names.join(", ")
}

/// Raise `target` with `args`; returns the event's name and the component state after it.
pub fn fire(state: &mut AppState, target: &str, args: &Value) -> Result<Value, String> {
    let Some((component, event)) = target.split_once('.') else {
        return Err(format!(
            "target must look like `Component.event` (e.g. `counter.reset`), got `{target}`"
        ));
    };
    let name = format!("{}.{}", component.to_lowercase(), event.to_lowercase());
    let unknown = || format!("unknown event `{target}`; known events: {}", known_events());
    let Some(&(_, arg, _)) = EVENTS.iter().find(|(known, _, _)| *known == name) else {
        return Err(unknown());
    };
    refuse_other_args(&name, arg, args)?;
    match name.as_str() {
        "counter.increment" => state.count = state.count.saturating_add(1),
        "counter.reset" => state.count = 0,
        "counter.set" => state.count = integer_arg(args, "counter.set", "value")?,
        "todo.add" => {
            state.add_todo(&string_arg(args, "todo.add", "text")?);
        }
        "todo.clear" => state.clear_todos(),
        "settings.reset" => reset_settings(state),
        // Each name in EVENTS has its arm above.
        _ => return Err(unknown()),
    }
    let component_state = state.to_json()[component.to_lowercase()].clone();
    Ok(json!({ "fired": name, "state": component_state }))
}

/// Refuse args that are not an object, or that hold a key the event does not take.
fn refuse_other_args(event: &str, arg: Option<Arg>, args: &Value) -> Result<(), String> {
    let takes = match arg {
        Some(arg) => format!("`{event}` takes args {}", args_text(arg)),
        None => format!("`{event}` takes no args"),
    };
    let keys = match args {
        Value::Null => return Ok(()),
        Value::Object(keys) => keys,
        other => return Err(format!("args must be an object, got `{other}`: {takes}")),
    };
    let unknown: Vec<String> = keys
        .keys()
        .filter(|key| arg.is_none_or(|(taken, _)| key.as_str() != taken))
        .map(|key| format!("`{key}`"))
        .collect();
    match unknown.len() {
        0 => Ok(()),
        1 => Err(format!("unknown arg {}: {takes}", unknown[0])),
        _ => Err(format!("unknown args {}: {takes}", unknown.join(", "))),
    }
}

fn reset_settings(state: &mut AppState) {
    let defaults = AppState::default();
    state.dark_mode = defaults.dark_mode;
    state.theme = defaults.theme;
    state.advanced_open = defaults.advanced_open;
    state.verbose = defaults.verbose;
    state.cache_size = defaults.cache_size;
    state.log_scroll = defaults.log_scroll;
}

fn integer_arg(args: &Value, event: &str, key: &str) -> Result<i64, String> {
    args.get(key)
        .and_then(Value::as_i64)
        .ok_or_else(|| format!("`{event}` needs args {{\"{key}\": <integer>}}"))
}

fn string_arg(args: &Value, event: &str, key: &str) -> Result<String, String> {
    let text = args
        .get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .unwrap_or_default();
    if text.is_empty() {
        return Err(format!(
            "`{event}` needs args {{\"{key}\": <non-empty string>}}"
        ));
    }
    Ok(text.to_owned())
}
