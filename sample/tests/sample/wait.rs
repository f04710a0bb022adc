//! waitFor, the asynchronous todo add, fire, switchComponent and reload.

use crate::app::App;
use serde_json::json;

fn app_with_typed_todo(text: &str) -> App {
    let app = App::showing("todo");
    app.ok("type", json!({ "selector": "#todo-input", "text": text }));
    app
}

#[test]
fn a_todo_added_by_click_appears_later_and_wait_for_sees_it() {
    let app = app_with_typed_todo("buy milk");
    let result = app.ok("click", json!({ "selector": "#todo-add" }));
    assert!(result["note"].as_str().expect("note").contains("buy milk"));
    assert_eq!(app.prop("#todo-input", "text"), "");
    let seen = app.ok(
        "waitFor",
        json!({ "selector": "#todo-list > ListItem", "text": "buy milk", "timeoutMs": 5000 }),
    );
    assert_eq!(seen["matched"], true);
    assert_eq!(seen["element"]["text"], "buy milk");
    assert_eq!(app.app_state()["todo"]["items"][0]["text"], "buy milk");
    assert_eq!(app.app_state()["todo"]["pending"], 0);
}

#[test]
fn wait_for_count_regex_and_visibility() {
    let app = app_with_typed_todo("first");
    app.ok("invoke", json!({ "selector": "#todo-add" }));
    app.ok(
        "type",
        json!({ "selector": "#todo-input", "text": "second" }),
    );
    app.ok("invoke", json!({ "selector": "#todo-add" }));
    let seen = app.ok(
        "waitFor",
        json!({ "selector": "ListItem[id*=\"todo-\"]", "count": 2 }),
    );
    assert_eq!(seen["count"], 2);
    app.ok(
        "waitFor",
        json!({ "selector": "#todo-status", "textMatches": "^2 items" }),
    );
    app.ok(
        "waitFor",
        json!({ "selector": "#btn-inc", "visible": false, "timeoutMs": 0 }),
    );
    app.ok("fire", json!({ "target": "todo.clear" }));
    let gone = app.ok(
        "waitFor",
        json!({ "selector": "#todo-list > ListItem", "count": 0 }),
    );
    assert_eq!(gone["element"], serde_json::Value::Null);
}

/// Each wait says of what it last saw what its condition looked at: a text wait the
/// first element's text, a visibility wait whether it is shown (and, waited for to show,
/// what hides it), a count wait how many matched and met the rest, against the count.
#[test]
fn wait_for_times_out_saying_what_it_last_saw() {
    let app = App::new();
    app.ok("click", json!({ "selector": "#btn-inc" }));
    app.add_todos(&["buy milk", "walk dog"]);
    for (args, message) in [
        (
            json!({ "selector": "#count", "text": "5", "timeoutMs": 100 }),
            "timed out after 100 ms waiting for `#count` to have text `5`; last seen: 1 element matched; the first, `#count`, has text `1`",
        ),
        (
            json!({ "selector": "#nothing", "timeoutMs": 50 }),
            "timed out after 50 ms waiting for `#nothing` to exist; last seen: no element matched `#nothing`",
        ),
        // Waited for to show, an element hidden is told what hides it and what shows it:
        // nothing will, unless the agent switches.
        (
            json!({ "selector": "#todo-input", "visible": true, "timeoutMs": 0 }),
            "timed out after 0 ms waiting for `#todo-input` to be visible; last seen: 1 element matched; the first, `#todo-input`, is hidden: component `todo` is not active; switch to it first (tool `switchComponent`, component `todo`)",
        ),
        (
            json!({ "selector": "#todo-input", "text": "x", "visible": true, "timeoutMs": 0 }),
            "timed out after 0 ms waiting for `#todo-input` to have text `x` and be visible; last seen: 1 element matched; the first, `#todo-input`, has text `` and is hidden: component `todo` is not active; switch to it first (tool `switchComponent`, component `todo`)",
        ),
        (
            json!({ "selector": "#btn-inc", "visible": false, "timeoutMs": 0 }),
            "timed out after 0 ms waiting for `#btn-inc` to be hidden; last seen: 1 element matched; the first, `#btn-inc`, is visible",
        ),
        // Waited for text, whether it is shown is not what the wait looked at.
        (
            json!({ "selector": "#todo-input", "text": "x", "timeoutMs": 0 }),
            "timed out after 0 ms waiting for `#todo-input` to have text `x`; last seen: 1 element matched; the first, `#todo-input`, has text ``",
        ),
        // Waited for a count, how many matched (and met the rest) is: hidden todos count.
        (
            json!({ "selector": "#todo-list > ListItem", "count": 5, "timeoutMs": 0 }),
            "timed out after 0 ms waiting for `#todo-list > ListItem` to match exactly 5 element(s); last seen: 2 elements matched, not 5",
        ),
        (
            json!({ "selector": "#todo-list > ListItem", "text": "buy milk", "count": 2, "timeoutMs": 0 }),
            "timed out after 0 ms waiting for `#todo-list > ListItem` to have text `buy milk` and match exactly 2 element(s); last seen: 2 elements matched, 1 of them with text `buy milk`, not 2",
        ),
        (
            json!({ "selector": "#todo-list > ListItem", "textMatches": "^w", "count": 0, "timeoutMs": 0 }),
            "timed out after 0 ms waiting for `#todo-list > ListItem` to have text matching `^w` and match exactly 0 element(s); last seen: 2 elements matched, 1 of them with text matching `^w`, not 0",
        ),
        // Waited for a count of shown elements, the first hidden one is told what shows it.
        (
            json!({ "selector": "#todo-list > ListItem", "visible": true, "count": 2, "timeoutMs": 0 }),
            "timed out after 0 ms waiting for `#todo-list > ListItem` to be visible and match exactly 2 element(s); last seen: 2 elements matched, 0 of them visible, not 2; `#todo-1` is hidden: component `todo` is not active; switch to it first (tool `switchComponent`, component `todo`)",
        ),
        // Only those that would count are looked at: the one todo with that text.
        (
            json!({ "selector": "ListItem", "text": "buy milk", "visible": true, "count": 1, "timeoutMs": 0 }),
            "timed out after 0 ms waiting for `ListItem` to have text `buy milk` and be visible and match exactly 1 element(s); last seen: 5 elements matched, 0 of them with text `buy milk` and visible, not 1; `#todo-1` is hidden: component `todo` is not active; switch to it first (tool `switchComponent`, component `todo`)",
        ),
        // Hidden in two components, no one switch shows them: none is named.
        (
            json!({ "selector": "ListItem", "visible": true, "count": 2, "timeoutMs": 0 }),
            "timed out after 0 ms waiting for `ListItem` to be visible and match exactly 2 element(s); last seen: 5 elements matched, 0 of them visible, not 2",
        ),
    ] {
        assert_eq!(app.err("waitFor", args), message);
    }
}

/// With some shown, showing a hidden one is no step toward a count of shown ones: the
/// hidden theme items were named, and switching to them left the shown todos.
#[test]
fn a_count_wait_with_some_shown_names_no_hidden_one() {
    let app = App::showing("todo");
    app.add_todos(&["buy milk", "walk dog"]);
    for count in [1, 3] {
        assert_eq!(
            app.err(
                "waitFor",
                json!({ "selector": "ListItem", "visible": true, "count": count, "timeoutMs": 0 }),
            ),
            format!(
                "timed out after 0 ms waiting for `ListItem` to be visible and match exactly {count} element(s); last seen: 5 elements matched, 2 of them visible, not {count}"
            )
        );
    }
}

/// A bare word is told what it names, as the same word is in any other tool: a wait
/// parses its selector before its first look, and did so without the elements, so
/// `todo-list` was told both forms (`#todo-list` and `:text("todo-list")`), one failing.
/// A wait that runs out having matched nothing names the element likely meant.
#[test]
fn wait_for_tells_a_word_and_a_slip_what_they_likely_name() {
    let app = App::showing("todo");
    for (word, hint) in [
        ("todo-list", "an id is written `#todo-list`"),
        ("Add", "did you mean the id `#todo-add`?"),
    ] {
        let message = app.err("waitFor", json!({ "selector": word, "timeoutMs": 0 }));
        assert_eq!(
            message,
            format!("bad selector `{word}`: unknown element type `{word}` at character 1; {hint}")
        );
        assert_eq!(app.err("click", json!({ "selector": word })), message);
    }
    assert_eq!(
        app.err(
            "waitFor",
            json!({ "selector": "#todo-imput", "timeoutMs": 0 })
        ),
        "timed out after 0 ms waiting for `#todo-imput` to exist; last seen: no element matched `#todo-imput`; did you mean `#todo-input`?"
    );
}

#[test]
fn wait_for_rejects_bad_input_at_once() {
    let app = App::new();
    let message = app.err(
        "waitFor",
        json!({ "selector": "#count", "textMatches": "(", "timeoutMs": 600000 }),
    );
    assert!(
        message.starts_with("bad regex `(` in `textMatches`: "),
        "{message}"
    );
    assert!(message.contains("unclosed group"), "{message}");
    let message = app.err(
        "waitFor",
        json!({ "selector": "#count[", "timeoutMs": 600000 }),
    );
    assert!(message.starts_with("bad selector `#count[`"), "{message}");
    let message = app.err(
        "waitFor",
        json!({ "selector": "#count", "timeoutMs": 600001 }),
    );
    assert_eq!(
        message,
        "`timeoutMs` is at most 600000 (10 minutes), got 600001"
    );
}

#[test]
fn fire_raises_known_events_and_lists_them_for_unknown_ones() {
    let app = App::new();
    let result = app.ok(
        "fire",
        json!({ "target": "counter.set", "args": { "value": 7 } }),
    );
    assert_eq!(
        result,
        json!({ "fired": "counter.set", "state": { "count": 7 } })
    );
    assert_eq!(app.prop("#count", "text"), "7");
    assert_eq!(app.prop("#btn-dec", "enabled"), true);
    app.ok("fire", json!({ "target": "Counter.reset" }));
    assert_eq!(app.prop("#count", "text"), "0");
    app.ok("fire", json!({ "target": "counter.increment" }));
    assert_eq!(app.app_state()["counter"]["count"], 1);

    let message = app.err("fire", json!({ "target": "counter.explode" }));
    assert_eq!(
        message,
        "unknown event `counter.explode`; known events: counter.increment, counter.reset, counter.set {\"value\": <integer>}, todo.add {\"text\": <string>}, todo.clear, settings.reset"
    );
    assert_eq!(
        app.err("fire", json!({ "target": "counter.set" })),
        "`counter.set` needs args {\"value\": <integer>}"
    );
    // An argument the event does not take is refused before anything changes, as every
    // tool refuses a field its schema does not list.
    assert_eq!(
        app.err(
            "fire",
            json!({ "target": "counter.increment", "args": { "by": 3 } })
        ),
        "unknown arg `by`: `counter.increment` takes no args"
    );
    assert_eq!(
        app.err(
            "fire",
            json!({ "target": "counter.set", "args": { "value": 2, "by": 3, "x": 1 } })
        ),
        "unknown args `by`, `x`: `counter.set` takes args {\"value\": <integer>}"
    );
    assert_eq!(
        app.err("fire", json!({ "target": "todo.clear", "args": [1] })),
        "args must be an object, got `[1]`: `todo.clear` takes no args"
    );
    assert_eq!(app.app_state()["counter"]["count"], 1);
    app.ok("fire", json!({ "target": "counter.reset", "args": {} }));
    app.ok("fire", json!({ "target": "counter.reset", "args": null }));
    assert!(
        app.err("fire", json!({ "target": "reset" }))
            .starts_with("target must look like `Component.event`")
    );
}

#[test]
fn settings_reset_restores_defaults() {
    let app = App::showing("settings");
    app.ok("toggle", json!({ "selector": "#dark-mode" }));
    app.ok(
        "select",
        json!({ "selector": "#theme", "item": "#theme-sunset" }),
    );
    app.ok("fire", json!({ "target": "settings.reset" }));
    let settings = &app.app_state()["settings"];
    assert_eq!(settings["darkMode"], false);
    assert_eq!(settings["theme"], "Ocean");
}

#[test]
fn switch_component_changes_what_the_main_window_shows() {
    let app = App::new();
    let result = app.ok("switchComponent", json!({ "component": "settings" }));
    assert_eq!(
        result,
        json!({ "active": "settings", "previous": "counter" })
    );
    assert_eq!(app.prop("#settings", "visible"), true);
    assert_eq!(app.prop("#counter", "visible"), false);
    assert_eq!(app.prop("#title", "text"), "Settings");
    let components = app.ok("components", json!({}));
    assert_eq!(components["active"], "settings");
    let message = app.err("switchComponent", json!({ "component": "editor" }));
    assert_eq!(
        message,
        "no component `editor` (components: counter, todo, settings)"
    );
    // A slip is told the component meant, as a mistyped element type or id is; the
    // list is left out, as there.
    for (typed, meant) in [
        ("setings", "settings"),
        ("Todos", "todo"),
        ("conuter", "counter"),
    ] {
        let told = format!("no component `{typed}`; did you mean `{meant}`?");
        assert_eq!(
            app.err("switchComponent", json!({ "component": typed })),
            told
        );
        assert_eq!(app.err("reload", json!({ "component": typed })), told);
    }
    assert!(!app.control.reload_requested());
}

#[test]
fn reload_answers_then_asks_the_session_to_restart() {
    let app = App::new();
    assert!(
        app.err("reload", json!({ "component": "nope" }))
            .starts_with("no component `nope`")
    );
    assert!(!app.control.reload_requested());
    let result = app.ok("reload", json!({ "component": "counter" }));
    assert_eq!(result["reloading"], true);
    assert_eq!(result["pid"], std::process::id());
    assert!(app.control.reload_requested());
}
