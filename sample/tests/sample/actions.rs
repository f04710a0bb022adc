//! The interaction tools change the sample app the way a person would see.

use crate::app::App;
use serde_json::json;

#[test]
fn click_on_the_increment_button_increments_the_count() {
    let app = App::new();
    let result = app.ok("click", json!({ "selector": "#btn-inc" }));
    assert_eq!(result["element"]["id"], "btn-inc");
    assert_eq!(result["element"]["focused"], true);
    app.ok("click", json!({ "selector": "Button[name=\"Increment\"]" }));
    assert_eq!(app.prop("#count", "text"), "2");
    assert_eq!(app.app_state()["counter"]["count"], 2);
    app.ok("invoke", json!({ "selector": "#btn-dec" }));
    assert_eq!(app.prop("#count", "text"), "1");
}

#[test]
fn decrement_is_disabled_at_zero() {
    let app = App::new();
    assert_eq!(app.prop("#btn-dec", "enabled"), false);
    assert_eq!(
        app.err("click", json!({ "selector": "#btn-dec" })),
        "`#btn-dec` is disabled"
    );
    assert_eq!(app.prop("#count", "text"), "0");
}

/// A disabled button says what enables it, where something does: `#todo-add` adds what
/// was typed, and told only "is disabled" an agent had to find out the input was empty.
#[test]
fn add_is_disabled_until_a_todo_is_typed_and_says_so() {
    let app = App::showing("todo");
    assert_eq!(
        app.err("click", json!({ "selector": "#todo-add" })),
        "`#todo-add` is disabled: `#todo-input` is empty; type the todo first (tool `type`, selector `#todo-input`)"
    );
    // Spaces alone are no todo: the button stays disabled, and is told so as it is.
    app.ok("type", json!({ "selector": "#todo-input", "text": "  " }));
    assert_eq!(
        app.err("click", json!({ "selector": "#todo-add" })),
        "`#todo-add` is disabled: `#todo-input` holds only whitespace; type the todo first (tool `type`, selector `#todo-input`)"
    );
    app.ok("type", json!({ "selector": "#todo-input", "text": "milk" }));
    app.ok("click", json!({ "selector": "#todo-add" }));
}

#[test]
fn elements_of_a_hidden_component_cannot_be_used() {
    let app = App::new();
    // A control of the component and its own panel (`#todo`) give one reason, not
    // "scrolled out of view".
    for (tool, selector) in [
        ("click", "#todo-add"),
        ("click", "#todo"),
        ("screenshot", "#todo"),
    ] {
        assert_eq!(
            app.err(tool, json!({ "selector": selector })),
            format!(
                "`{selector}` is not visible: component `todo` is not active; switch to it first (tool `switchComponent`, component `todo`)"
            ),
            "{tool} {selector}"
        );
    }
    let message = app.err("click", json!({ "selector": "#missing" }));
    assert_eq!(message, "no element matches `#missing`");
}

#[test]
fn type_appends_and_clear_replaces() {
    let app = App::showing("todo");
    app.ok("type", json!({ "selector": "#todo-input", "text": "buy" }));
    let result = app.ok(
        "type",
        json!({ "selector": "#todo-input", "text": " milk" }),
    );
    assert_eq!(result["element"]["text"], "buy milk");
    assert_eq!(result["element"]["focused"], true);
    app.ok(
        "type",
        json!({ "selector": "#todo-input", "text": "eggs", "clear": true }),
    );
    assert_eq!(app.prop("#todo-input", "value"), "eggs");
    let message = app.err("type", json!({ "selector": "#todo-add", "text": "x" }));
    assert_eq!(
        message,
        "`#todo-add` is a Button; type works on TextBox elements"
    );
}

#[test]
fn focus_moves_between_focusable_elements() {
    let app = App::new();
    app.ok("focus", json!({ "selector": "#btn-inc" }));
    assert_eq!(app.app_state()["focused"], "#btn-inc");
    app.ok("focus", json!({ "selector": "#btn-inc" }));
    let message = app.err("focus", json!({ "selector": "#count" }));
    assert_eq!(message, "`#count` is a Text and cannot take focus");
}

#[test]
fn toggle_flips_toggles_checkboxes_and_todo_items() {
    let app = App::showing("settings");
    let result = app.ok("toggle", json!({ "selector": "#dark-mode" }));
    assert_eq!(result["element"]["checked"], true);
    assert_eq!(app.app_state()["settings"]["darkMode"], true);
    app.ok("click", json!({ "selector": "Toggle" }));
    assert_eq!(app.prop("#dark-mode", "checked"), false);
    app.ok("toggle", json!({ "selector": "#check-updates" }));
    assert_eq!(app.prop("#check-updates", "checked"), false);

    app.add_todos(&["milk"]);
    app.ok("switchComponent", json!({ "component": "todo" }));
    app.ok(
        "toggle",
        json!({ "selector": "#todo-list > ListItem:nth(0)" }),
    );
    assert_eq!(app.app_state()["todo"]["items"][0]["done"], true);
    assert_eq!(app.prop("#todo-status", "text"), "1 items, 1 done");
    let message = app.err("toggle", json!({ "selector": "#todo-input" }));
    assert!(
        message.starts_with("`#todo-input` is a TextBox; toggle works on"),
        "{message}"
    );
}

#[test]
fn expand_and_collapse_change_what_is_visible() {
    let app = App::showing("settings");
    assert_eq!(app.prop("#verbose", "visible"), false);
    assert!(
        app.err("toggle", json!({ "selector": "#verbose" }))
            .contains("is not visible")
    );
    let result = app.ok("expand", json!({ "selector": "#advanced" }));
    assert_eq!(result["element"]["expanded"], true);
    assert_eq!(app.prop("#verbose", "visible"), true);
    assert_eq!(app.prop("#cache-size", "visible"), true);
    app.ok("toggle", json!({ "selector": "#verbose" }));
    assert_eq!(app.app_state()["settings"]["verbose"], true);
    app.ok("collapse", json!({ "selector": "#advanced" }));
    assert_eq!(app.prop("#verbose", "visible"), false);
    assert_eq!(
        app.err("expand", json!({ "selector": "#dark-mode" })),
        "`#dark-mode` is a Toggle; expand works on Expander elements"
    );
}

#[test]
fn select_changes_the_selected_item() {
    let app = App::showing("settings");
    assert_eq!(app.prop("#theme", "value"), "Ocean");
    let result = app.ok(
        "select",
        json!({ "selector": "#theme", "item": "#theme-forest" }),
    );
    assert_eq!(result["element"]["value"], "Forest");
    assert_eq!(app.prop("#theme-forest", "selected"), true);
    assert_eq!(app.prop("#theme-ocean", "selected"), false);
    app.ok("select", json!({ "selector": "#theme", "item": ":nth(2)" }));
    assert_eq!(app.app_state()["settings"]["theme"], "Sunset");
    let message = app.err("select", json!({ "selector": "#theme", "item": "#todo-1" }));
    assert_eq!(message, "no element inside `#theme` matches `#todo-1`");
    let message = app.err("select", json!({ "selector": "#dark-mode", "item": "*" }));
    assert!(
        message.contains("no element inside `#dark-mode`")
            || message.contains("select works on List"),
        "{message}"
    );
}

#[test]
fn selecting_a_todo_by_click_or_select() {
    let app = App::new();
    app.add_todos(&["milk", "bread"]);
    app.ok("switchComponent", json!({ "component": "todo" }));
    app.ok("click", json!({ "selector": "ListItem:text(\"bread\")" }));
    assert_eq!(app.prop("#todo-list", "value"), "bread");
    app.ok(
        "select",
        json!({ "selector": "#todo-list", "item": "[text=\"milk\"]" }),
    );
    assert_eq!(app.prop("#todo-1", "selected"), true);
    assert_eq!(app.prop("#todo-2", "selected"), false);
}

#[test]
fn scroll_moves_the_viewport_and_line_visibility_follows() {
    let app = App::showing("settings");
    assert_eq!(app.prop("#log-1", "visible"), true);
    assert_eq!(app.prop("#log-100", "visible"), false);
    let result = app.ok("scroll", json!({ "selector": "#log", "by": { "dy": 180 } }));
    assert_eq!(result["element"]["scroll"]["y"], 180);
    assert_eq!(result["firstVisible"], "#log-10");
    assert_eq!(app.prop("#log-1", "visible"), false);

    let result = app.ok("scroll", json!({ "selector": "#log", "to": "#log-150" }));
    assert_eq!(app.prop("#log-150", "visible"), true);
    assert_eq!(result["lastVisible"], "#log-150");
    let result = app.ok("scroll", json!({ "selector": "#log", "to": "#log-3" }));
    assert_eq!(result["firstVisible"], "#log-3");
    // Neither `by` nor `to`: the viewer around the element brings it into view.
    let result = app.ok("scroll", json!({ "selector": "#log-120" }));
    assert_eq!(
        (
            result["element"]["id"].as_str(),
            result["lastVisible"].as_str()
        ),
        (Some("log"), Some("#log-120"))
    );
    assert_eq!(app.prop("#log-120", "visible"), true);

    let result = app.ok(
        "scroll",
        json!({ "selector": "#log", "by": { "dy": 100000, "dx": 40 } }),
    );
    assert_eq!(
        result["element"]["scroll"]["y"],
        result["element"]["scroll"]["maxY"]
    );
    assert_eq!(result["element"]["scroll"]["x"], 40);
    assert_eq!(result["lastVisible"], "#log-200");
    assert_eq!(app.app_state()["settings"]["logScroll"]["x"], 40);
}

#[test]
fn scroll_rejects_bad_requests() {
    let app = App::showing("settings");
    let message = app.err("scroll", json!({ "selector": "#log" }));
    // `#log` is the ScrollViewer: with neither argument there is nothing around it to
    // scroll.
    assert_eq!(
        message,
        "`#log` is not inside a ScrollViewer, it is one: scrolling it needs `by` (an offset) or `to` (an element inside it)"
    );
    assert_eq!(
        app.err("scroll", json!({ "selector": "#dark-mode" })),
        "`#dark-mode` is not inside a ScrollViewer, so nothing scrolls it into view"
    );
    let message = app.err(
        "scroll",
        json!({ "selector": "#log", "by": { "dy": 5 }, "to": "#log-9" }),
    );
    assert!(message.starts_with("give at most one of `by`"), "{message}");
    let message = app.err(
        "scroll",
        json!({ "selector": "#dark-mode", "by": { "dy": 5 } }),
    );
    assert_eq!(
        message,
        "`#dark-mode` is a Toggle; scroll works on ScrollViewer elements"
    );
    let message = app.err("scroll", json!({ "selector": "#log", "to": "#btn-inc" }));
    assert_eq!(message, "no element inside `#log` matches `#btn-inc`");
}

#[test]
fn bad_selectors_and_arguments_are_explained() {
    let app = App::new();
    assert_eq!(
        app.err("click", json!({ "selector": "#" })),
        "bad selector `#`: expected an id after `#` at character 2"
    );
    let message = app.err("click", json!({}));
    assert_eq!(
        message,
        "bad arguments for `click`: missing field `selector`"
    );
    // A type mistyped is told the type; a word that is nothing near, both forms and the
    // types. Where the hint names what the word is, the list of types is left out.
    assert_eq!(
        app.err("click", json!({ "selector": "Buton" })),
        "bad selector `Buton`: unknown element type `Buton` at character 1; did you mean the type `Button`?"
    );
    assert_eq!(
        app.err(
            "state",
            json!({ "selector": "#todo-list listitem:nth(0) > Txt" })
        ),
        "bad selector `#todo-list listitem:nth(0) > Txt`: unknown element type `Txt` at character 30; did you mean the type `Text`?"
    );
    assert_eq!(
        app.err("click", json!({ "selector": "zzz" })),
        "bad selector `zzz`: unknown element type `zzz` (known: Window, Panel, Text, Button, TextBox, List, ListItem, Toggle, CheckBox, Expander, ScrollViewer) at character 1; an id is written `#zzz`, an element by its text `:text(\"zzz\")`"
    );
    let message = app.err("click", json!({ "selector": "#btn-inc", "force": true }));
    assert!(
        message.starts_with("bad arguments for `click`: unknown field `force`"),
        "{message}"
    );
    let message = app.err("type", json!({ "selector": "#todo-input", "text": 5 }));
    assert!(
        message
            .starts_with("bad arguments for `type`: invalid type: integer `5`, expected a string"),
        "{message}"
    );
}

#[test]
fn a_hidden_element_is_told_what_hides_it_and_which_tool_shows_it() {
    let app = App::showing("settings");
    // Collapsed: the expander is named, and expanding it (as told) makes the focus work.
    assert_eq!(
        app.err("focus", json!({ "selector": "#cache-size" })),
        "`#cache-size` is not visible: it is inside `#advanced`, which is collapsed; expand it first (tool `expand`, selector `#advanced`)"
    );
    app.ok("expand", json!({ "selector": "#advanced" }));
    app.ok("focus", json!({ "selector": "#cache-size" }));
    // Scrolled out: the viewer is named, and the scroll told brings the line into view.
    assert_eq!(
        app.err("click", json!({ "selector": "#log-150" })),
        "`#log-150` is not visible: it is scrolled out of view in `#log`; scroll it into view first (tool `scroll`, selector `#log-150`)"
    );
    app.ok("scroll", json!({ "selector": "#log-150" }));
    app.ok("click", json!({ "selector": "#log-150" }));
}

/// A hint that names an element an action cannot use yet says, in the same message, what
/// shows it: an agent that follows it acts in one step, rather than being told "switch to
/// it first" by the next call. A read (`state`, `tree`) takes a hidden element as it is,
/// so its hint says nothing more: switching would change the app for nothing.
#[test]
fn a_hint_naming_a_hidden_element_says_what_shows_it() {
    let app = App::new();
    app.add_todos(&["bravo"]);
    let todo = "It is not visible: component `todo` is not active; switch to it first (tool `switchComponent`, component `todo`)";
    let settings = "It is not visible: component `settings` is not active; switch to it first (tool `switchComponent`, component `settings`)";
    for (tool, args, message) in [
        (
            "click",
            json!({ "selector": "#add" }),
            format!("no element matches `#add`; did you mean `#todo-add`? {todo}"),
        ),
        (
            "screenshot",
            json!({ "selector": "#add" }),
            format!("no element matches `#add`; did you mean `#todo-add`? {todo}"),
        ),
        (
            "click",
            json!({ "selector": "Add" }),
            format!(
                "bad selector `Add`: unknown element type `Add` at character 1; did you mean the id `#todo-add`? {todo}"
            ),
        ),
        (
            "type",
            json!({ "selector": "todo-input", "text": "x" }),
            format!(
                "bad selector `todo-input`: unknown element type `todo-input` at character 1; an id is written `#todo-input`. {todo}"
            ),
        ),
        (
            "toggle",
            json!({ "selector": "#bravo" }),
            format!("no element matches `#bravo`; `#todo-1` has the text \"bravo\". {todo}"),
        ),
        (
            "select",
            json!({ "selector": "#todo-list", "item": "#bravo" }),
            // The item need not be visible; the list must, and it is the one told.
            "no element inside `#todo-list` matches `#bravo`; `#todo-1` has the text \"bravo\". `#todo-list` is not visible: component `todo` is not active; switch to it first (tool `switchComponent`, component `todo`)".to_owned(),
        ),
        (
            "expand",
            json!({ "selector": "#advance" }),
            format!("no element matches `#advance`; did you mean `#advanced`? {settings}"),
        ),
    ] {
        assert_eq!(app.err(tool, args.clone()), message, "{tool} {args}");
    }
    // A read is told the element alone.
    for tool in ["state", "tree"] {
        assert_eq!(
            app.err(tool, json!({ "selector": "#add" })),
            "no element matches `#add`; did you mean `#todo-add`?"
        );
    }
    // Followed, the hint is all it takes.
    app.ok("switchComponent", json!({ "component": "todo" }));
    app.ok("toggle", json!({ "selector": "#todo-1" }));
    // The element's other component is named from wherever the agent is; and where the
    // component shows but the element is hidden in it, the hint says what hides it there.
    assert_eq!(
        app.err("click", json!({ "selector": "increment" })),
        format!(
            "bad selector `increment`: unknown element type `increment` at character 1; an element by its name is written `[name=\"Increment\"]` (`#btn-inc` has it). It is not visible: component `counter` is not active; switch to it first (tool `switchComponent`, component `counter`)"
        )
    );
    app.ok("switchComponent", json!({ "component": "settings" }));
    assert_eq!(
        app.err("focus", json!({ "selector": "#cache-sze" })),
        "no element matches `#cache-sze`; did you mean `#cache-size`? It is not visible: it is inside `#advanced`, which is collapsed; expand it first (tool `expand`, selector `#advanced`)"
    );
    assert_eq!(
        app.err("click", json!({ "selector": "#log-0150" })),
        "no element matches `#log-0150`; did you mean `#log-150`? It is not visible: it is scrolled out of view in `#log`; scroll it into view first (tool `scroll`, selector `#log-150`)"
    );
}

/// `scroll`'s `to` and `select`'s item are looked for inside the element the tool acts
/// on, and need not be visible themselves (a scroll brings its target into view): a hint
/// naming one says nothing of its visibility, only, where it is hidden, what shows the
/// container the tool needs.
#[test]
fn a_hint_inside_a_container_says_what_shows_the_container_not_the_element() {
    let app = App::showing("settings");
    for to in ["#log-0150", "log-150"] {
        let message = app.err("scroll", json!({ "selector": "#log", "to": to }));
        let expected = if to.starts_with('#') {
            format!("no element inside `#log` matches `{to}`; did you mean `#log-150`?")
        } else {
            format!(
                "bad selector `{to}`: unknown element type `{to}` at character 1; an id is written `#{to}`"
            )
        };
        assert_eq!(message, expected, "to {to}");
    }
    // Followed, the hint is all it takes: the scroll brings the hidden line into view.
    assert_eq!(app.prop("#log-150", "visible"), false);
    app.ok("scroll", json!({ "selector": "#log", "to": "#log-150" }));
    assert_eq!(app.prop("#log-150", "visible"), true);
    // With the viewer's component not shown, the viewer is what the scroll would refuse.
    app.ok("switchComponent", json!({ "component": "counter" }));
    assert_eq!(
        app.err("scroll", json!({ "selector": "#log", "to": "#log-0180" })),
        "no element inside `#log` matches `#log-0180`; did you mean `#log-180`? `#log` is not visible: component `settings` is not active; switch to it first (tool `switchComponent`, component `settings`)"
    );
}

#[test]
fn a_selector_that_names_nothing_is_told_the_element_likely_meant() {
    let app = App::new();
    // A numbered id is never told as the id of another number, nor as the element
    // that holds them: with no todo, `#todo-4` is not `#todo` (the panel).
    assert_eq!(
        app.err("toggle", json!({ "selector": "#todo-4" })),
        "no element matches `#todo-4`"
    );
    app.add_todos(&["bravo", "charlie"]);
    app.ok("switchComponent", json!({ "component": "todo" }));
    let rows = [
        // A bare word that is an element's text, not a type: the id it likely is.
        (
            "click",
            json!({ "selector": "Add" }),
            " at character 1; did you mean the id `#todo-add`?",
        ),
        // … or, where it is no id, the `:text` form (which then matches).
        (
            "select",
            json!({ "selector": "#todo-list", "item": "bravo" }),
            " at character 1; an element by its text is written `:text(\"bravo\")` (`#todo-1` has it)",
        ),
        // A word that is an id elsewhere.
        (
            "state",
            json!({ "selector": "btn-inc" }),
            " at character 1; an id is written `#btn-inc`",
        ),
        // A word that is nothing near: both forms.
        (
            "state",
            json!({ "selector": "zzz" }),
            " at character 1; an id is written `#zzz`, an element by its text `:text(\"zzz\")`",
        ),
        // A word that is an element's name, not its id nor its text: the name form,
        // as the element writes it (`#Increment` and `:text("Increment")` both fail).
        (
            "state",
            json!({ "selector": "increment" }),
            " at character 1; an element by its name is written `[name=\"Increment\"]` (`#btn-inc` has it)",
        ),
    ];
    for (tool, args, end) in rows {
        let message = app.err(tool, args.clone());
        assert!(
            message.starts_with("bad selector `") && message.ends_with(end),
            "{tool} {args}: {message}"
        );
    }
    app.ok(
        "select",
        json!({ "selector": "#todo-list", "item": ":text(\"bravo\")" }),
    );
    app.ok("state", json!({ "selector": "[name=\"Increment\"]" }));
    for (selector, message) in [
        (
            "#add",
            "no element matches `#add`; did you mean `#todo-add`?",
        ),
        (
            "#Add",
            "no element matches `#Add`; did you mean `#todo-add`?",
        ),
        (
            "#btn-icn",
            "no element matches `#btn-icn`; did you mean `#btn-inc`?",
        ),
        (
            "#bravo",
            "no element matches `#bravo`; `#todo-1` has the text \"bravo\"",
        ),
        ("#nope", "no element matches `#nope`"),
        // A todo not there yet (one appears a moment after it is added) is no other
        // todo: an agent that followed `#todo-1` would mark the wrong one done.
        ("#todo-3", "no element matches `#todo-3`"),
        ("#log-250", "no element matches `#log-250`"),
        ("#log-1000", "no element matches `#log-1000`"),
        // A word in one element's text names it; `#main` is two letters off `#warn` but
        // nothing like it.
        (
            "#session-7",
            "no element matches `#session-7`; `#log-7` has the text \"007 warn  cache miss for key session-7, refetching from origin\"",
        ),
        // A word in many texts names none of them: `warn` is in every seventh line of
        // the log, `served` in the others.
        ("#warn", "no element matches `#warn`"),
        ("#served", "no element matches `#served`"),
        // A part replaced is another element, however much of the id is the same: an
        // agent told `#btn-dec` for `#btn-add` would decrement the counter.
        ("#btn-minus", "no element matches `#btn-minus`"),
        ("#btn-add", "no element matches `#btn-add`"),
        ("#about-title", "no element matches `#about-title`"),
        ("#theme-list", "no element matches `#theme-list`"),
        ("#todo-alpha", "no element matches `#todo-alpha`"),
        ("#todo-new", "no element matches `#todo-new`"),
        ("#todo-items", "no element matches `#todo-items`"),
        ("#count-value", "no element matches `#count-value`"),
        ("#tod-3", "no element matches `#tod-3`"),
        // … while a slip in a part is that element, and a number written otherwise.
        (
            "#todo-imput",
            "no element matches `#todo-imput`; did you mean `#todo-input`?",
        ),
        (
            "#tod-1",
            "no element matches `#tod-1`; did you mean `#todo-1`?",
        ),
        (
            "#log-007",
            "no element matches `#log-007`; did you mean `#log-7`?",
        ),
        (
            "#Increment",
            "no element matches `#Increment`; `#btn-inc` is named \"Increment\"",
        ),
        // Too short to be told by text: `mur sample` has an `a`, `#verbose` an `in`.
        ("#a", "no element matches `#a`"),
        ("#in", "no element matches `#in`"),
    ] {
        assert_eq!(app.err("state", json!({ "selector": selector })), message);
    }
    assert_eq!(
        app.err("toggle", json!({ "selector": "#todo-3" })),
        "no element matches `#todo-3`"
    );
    assert_eq!(
        app.err(
            "select",
            json!({ "selector": "#todo-list", "item": "#todo-9" })
        ),
        "no element inside `#todo-list` matches `#todo-9`"
    );
    assert_eq!(
        app.err(
            "select",
            json!({ "selector": "#todo-list", "item": "#bravo" })
        ),
        "no element inside `#todo-list` matches `#bravo`; `#todo-1` has the text \"bravo\""
    );
}
