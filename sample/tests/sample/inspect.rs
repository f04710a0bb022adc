//! The read-only tools and the published tool list of the sample app.

use crate::app::App;
use mur_testkit::each_str;
use serde_json::{Value, json};

/// The sample's tools, in the order of their names.
const TOOLS: [&str; 22] = [
    "clearTodos",
    "click",
    "collapse",
    "components",
    "expand",
    "exportTodos",
    "fire",
    "focus",
    "invoke",
    "overview",
    "reload",
    "screenshot",
    "scroll",
    "select",
    "state",
    "switchComponent",
    "toggle",
    "tree",
    "type",
    "version",
    "waitFor",
    "windows",
];

#[test]
fn every_tool_is_registered_with_a_strict_schema() {
    let app = App::new();
    let mut names: Vec<&str> = app.tools().specs().map(|spec| spec.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, TOOLS);
    for spec in app.tools().specs() {
        let schema = &spec.input_schema;
        assert_eq!(schema["type"], "object", "{}", spec.name);
        assert_eq!(schema["additionalProperties"], false, "{}", spec.name);
        assert!(schema["required"].is_array(), "{}", spec.name);
        assert!(!spec.description.is_empty());
    }
}

#[test]
fn schemas_name_the_arguments_of_the_design_table() {
    let app = App::new();
    let schema = |name: &str| app.spec(name).input_schema.clone();
    let properties = |name: &str| {
        let mut keys: Vec<String> = schema(name)["properties"]
            .as_object()
            .expect("properties")
            .keys()
            .cloned()
            .collect();
        keys.sort_unstable();
        keys
    };
    assert_eq!(
        properties("tree"),
        ["includeReactorSource", "selector", "view", "window"]
    );
    assert_eq!(
        schema("tree")["properties"]["view"]["enum"],
        json!(["summary", "full"])
    );
    assert_eq!(
        properties("screenshot"),
        ["includeChrome", "selector", "waitIdle", "window"]
    );
    assert_eq!(
        properties("waitFor"),
        [
            "count",
            "selector",
            "text",
            "textMatches",
            "timeoutMs",
            "visible"
        ]
    );
    assert_eq!(properties("scroll"), ["by", "selector", "to"]);
    assert_eq!(properties("select"), ["item", "selector"]);
    assert_eq!(properties("type"), ["clear", "selector", "text"]);
    assert_eq!(properties("fire"), ["args", "target"]);
    assert_eq!(schema("type")["required"], json!(["selector", "text"]));
    assert_eq!(schema("switchComponent")["required"], json!(["component"]));
}

#[test]
fn hints_mark_read_only_action_and_destructive_tools() {
    let app = App::new();
    let hints = |name: &str| app.spec(name).hints;
    for name in [
        "version",
        "windows",
        "components",
        "tree",
        "screenshot",
        "state",
        "waitFor",
    ] {
        assert!(hints(name).read_only, "{name}");
    }
    for name in [
        "click",
        "type",
        "toggle",
        "fire",
        "switchComponent",
        "reload",
    ] {
        assert!(!hints(name).read_only, "{name}");
    }
    assert!(hints("reload").destructive);
    assert!(!hints("click").destructive);
}

#[test]
fn version_windows_and_components_describe_the_app() {
    let app = App::new();
    let version = app.ok("version", json!({}));
    assert_eq!(version["name"], "mur-sample");
    assert_eq!(version["version"], env!("CARGO_PKG_VERSION"));
    let windows = app.ok("windows", Value::Null);
    assert_eq!(each_str(&windows["windows"], "id"), ["main", "about"]);
    assert_eq!(
        windows["windows"][0]["bounds"],
        json!({ "x": 0, "y": 0, "width": 640, "height": 480 })
    );
    let components = app.ok("components", json!({}));
    assert_eq!(components["active"], "counter");
    assert_eq!(components["components"][1]["name"], "todo");
    assert_eq!(
        components["components"][0]["events"],
        json!(["counter.increment", "counter.reset", "counter.set"])
    );
    assert!(
        app.err("version", json!({ "x": 1 }))
            .starts_with("bad arguments for `version`: unknown field `x`")
    );
}

/// Element ids in a tree result, depth first.
fn tree_ids(node: &Value, out: &mut Vec<String>) {
    out.push(node["id"].as_str().expect("id").to_owned());
    for child in node["children"].as_array().into_iter().flatten() {
        tree_ids(child, out);
    }
}

#[test]
fn summary_tree_shows_visible_elements_and_full_tree_shows_everything() {
    let app = App::new();
    let summary = app.ok("tree", json!({ "window": "main" }));
    assert_eq!(summary["view"], "summary");
    let mut ids = Vec::new();
    tree_ids(&summary["nodes"][0], &mut ids);
    assert!(ids.contains(&"btn-inc".to_owned()));
    assert!(
        !ids.contains(&"todo-input".to_owned()),
        "hidden component listed: {ids:?}"
    );
    assert!(summary["nodes"][0]["children"][0].get("bounds").is_none());

    let full = app.ok("tree", json!({ "window": "main", "view": "full" }));
    let mut ids = Vec::new();
    tree_ids(&full["nodes"][0], &mut ids);
    assert!(ids.contains(&"todo-input".to_owned()));
    assert!(ids.contains(&"log-200".to_owned()));
    assert_eq!(full["nodes"][0]["bounds"]["width"], 640);

    let everything = app.ok("tree", json!({}));
    assert_eq!(everything["nodes"].as_array().expect("nodes").len(), 2);
    assert_eq!(
        app.err("tree", json!({ "window": "popup" })),
        "no window `popup` (windows: main, about)"
    );
    assert!(
        app.err("tree", json!({ "view": "tiny" }))
            .contains("unknown variant `tiny`")
    );
}

#[test]
fn tree_with_a_selector_shows_the_matching_subtrees() {
    let app = App::new();
    let result = app.ok(
        "tree",
        json!({ "selector": "#counter", "includeReactorSource": true }),
    );
    let node = &result["nodes"][0];
    assert_eq!(node["id"], "counter");
    assert_eq!(node["children"].as_array().expect("children").len(), 4);
    assert!(
        node["source"]
            .as_str()
            .expect("source")
            .ends_with("sample/src/view/counter.rs")
    );
    let buttons = app.ok("tree", json!({ "selector": "Button", "window": "main" }));
    assert_eq!(buttons["nodes"].as_array().expect("nodes").len(), 3);
    assert_eq!(buttons["nodes"][0]["id"], "btn-dec");
    assert_eq!(buttons["nodes"][0]["enabled"], false);
    assert_eq!(
        app.err("tree", json!({ "selector": "#missing" })),
        "no element matches `#missing`"
    );
    assert_eq!(
        app.err(
            "tree",
            json!({ "selector": "#about-name", "window": "main" })
        ),
        "no element matches `#about-name`"
    );
}

#[test]
fn state_reports_the_app_or_one_element() {
    let app = App::new();
    let state = app.app_state();
    assert_eq!(state["activeComponent"], "counter");
    assert_eq!(state["counter"]["count"], 0);
    assert_eq!(state["todo"]["items"], json!([]));
    assert_eq!(state["settings"]["theme"], "Ocean");
    let element = app.ok("state", json!({ "selector": "#btn-inc" }));
    assert_eq!(element["type"], "Button");
    assert_eq!(element["name"], "Increment");
    assert_eq!(element["text"], "+");
    assert_eq!(element["window"], "main");
    assert_eq!(element["matchCount"], 1);
    assert_eq!(
        element["bounds"],
        json!({ "x": 96, "y": 100, "width": 64, "height": 32 })
    );
    for key in ["visible", "enabled", "focused"] {
        assert!(element[key].is_boolean(), "{key}");
    }
    let log = app.ok("state", json!({ "selector": "#log" }));
    assert_eq!(log["scroll"]["y"], 0);
    assert!(log["scroll"]["maxY"].as_i64().expect("maxY") > 0);
    assert_eq!(
        app.ok("state", json!({ "selector": "Window" }))["matchCount"],
        2
    );
}
