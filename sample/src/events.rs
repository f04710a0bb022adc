//! Named component events raised by the `fire` tool (`counter.reset`, `todo.clear`, …).

use serde_json::{Value, json};

use super::state::AppState;

/// Every event: target, the arguments it takes, and what it does.
pub const EVENTS: [(&str, &str, &str); 6] = [
    ("counter.increment", "", "add one to the count"),
    ("counter.reset", "", "set the count to 0"),
    (
        "counter.set",
        "{\"value\": <integer>}",
        "set the count to a value",
    ),
    ("todo.add", "{\"text\": <string>}", "add a todo right away"),
    ("todo.clear", "", "remove every todo"),
    ("settings.reset", "", "restore the default settings"),
];

/// The list shown when a target is unknown: `counter.set {"value": <integer>}, …`.
pub fn known_events() -> String {
    let names: Vec<String> = EVENTS
        .iter()
        .map(|(name, args, _)| {
            if args.is_empty() {
                (*name).to_owned()
            } else {
                format!("{name} {args}")
            }
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
    match name.as_str() {
        "counter.increment" => state.count = state.count.saturating_add(1),
        "counter.reset" => state.count = 0,
        "counter.set" => state.count = integer_arg(args, "counter.set", "value")?,
        "todo.add" => {
            state.add_todo(&string_arg(args, "todo.add", "text")?);
        }
        "todo.clear" => state.clear_todos(),
        "settings.reset" => reset_settings(state),
        _ => {
            return Err(format!(
                "unknown event `{target}`; known events: {}",
                known_events()
            ));
        }
    }
    let component_state = state.to_json()[component.to_lowercase()].clone();
    Ok(json!({ "fired": name, "state": component_state }))
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
