//! `mur devtools tree` shaped for agents (condition `cli-compact`): each node as its
//! `type`, `id` and `text` only (`--fields` adds others, `--full` keeps everything),
//! long texts cut with their length said, and an explicit note when nothing matched.
//! On stderr: what to try when nothing matched, and what was cut. No next command
//! otherwise: what follows a look at the tree is the task's, and the first thing the
//! tree shows that could be acted on (a `toggle '#dark-mode'`) would change the app.

use mur_verb_kit::{About, Args, Map, Opt, Shaped, Spec, Value, Verb, shape};

#[path = "../../shaping.rs"]
mod shaping;
use shaping::Keep;

pub struct Tree;

/// The fields a node keeps by default: enough to pick a selector (`#id`, a type, its text).
const DEFAULT: &[&str] = &["type", "id", "text", "children"];

impl Verb for Tree {
    const ABOUT: About = About {
        name: "tree",
        tool: "tree",
        summary: "Print the UI tree, each node as its type, id and text (--fields for more)",
        synopsis: "",
        details: "Flags that differ from the default (disabled, hidden, focused, checked, \
                  selected, expanded) are kept too. Texts longer than 80 characters are cut, \
                  their length said; --full prints every field whole.",
        examples: &[
            "mur devtools tree --selector '#counter'",
            "mur devtools tree --fields name",
        ],
    };
    const SPEC: Spec = Spec {
        options: &[
            Opt::selector("only the subtree the selector S matches").or_word(),
            Opt::window("only this window (default: every window)"),
            shaping::FIELDS,
            shaping::FULL,
        ],
        ..Spec::NONE
    };

    fn arguments(args: &Args) -> Result<Map<String, Value>, String> {
        let mut arguments = args.arguments();
        if args.flag("full") {
            arguments.insert("view".to_owned(), Value::from("full"));
        }
        Ok(arguments)
    }

    fn shape(args: &Args, result: &Value, pretty: bool) -> Result<Shaped, String> {
        let keep = Keep::of(args, DEFAULT);
        let payload = shape::payload(result);
        let nodes = shaping::items(&payload, "nodes")
            .map(|node| compact(&keep, node))
            .collect();
        let instead = match args.value("selector") {
            Some(_) => format!(
                "{} (every node), or {}",
                shaping::command("tree"),
                shaping::command("windows")
            ),
            None => shaping::command("windows"),
        };
        let nodes = ("nodes", nodes);
        let empty = ("node matches", instead);
        Ok(shaping::listed(
            &keep,
            Map::new(),
            nodes,
            empty,
            None,
            pretty,
        ))
    }
}

/// One node and its children, cut down.
fn compact(keep: &Keep, node: &Value) -> Value {
    let Some(object) = node.as_object() else {
        return keep.value(node);
    };
    // The children are compacted on their own (each long text cut, and counted, once).
    let mut fields = object.clone();
    let children = fields.remove("children");
    let mut kept = keep.object(&fields);
    if let Some(Value::Array(children)) = &children {
        let children = children.iter().map(|child| compact(keep, child)).collect();
        kept.insert("children".to_owned(), Value::Array(children));
    }
    for (key, value) in shaping::notable(object) {
        kept.entry(key).or_insert(value);
    }
    Value::Object(kept)
}

mur_verb_kit::export_verb!(Tree);

mur_verb_kit::verb_tables!(Tree {
    arguments: [
        (&[], json!({})),
        (
            &["--selector", "#btn-inc", "--fields", "name"],
            json!({"selector": "#btn-inc"})
        ),
        (&["--full"], json!({"view": "full"})),
        // The selector alone, as the standard verbs take it (the guide says so).
        (&["#advanced"], json!({"selector": "#advanced"})),
        (
            &["#advanced", "--fields", "name"],
            json!({"selector": "#advanced"})
        ),
    ],
    usage_errors: [(&["--view", "full"], "unknown option `--view`")],
});

#[cfg(test)]
mod tests {
    use super::Tree;
    use mur_verb_kit::{json, testing};

    fn result() -> mur_verb_kit::Value {
        json!({"structuredContent": {"view": "summary", "nodes": [{"type": "Panel", "id": "counter", "name": "Counter", "children": [
            {"type": "Button", "id": "btn-dec", "name": "Decrement", "text": "-", "enabled": false},
            {"type": "Text", "id": "blurb", "name": "Blurb", "text": "x".repeat(100)}
        ]}]}})
    }

    #[test]
    fn keeps_type_id_text_and_notable_flags() {
        let cut = format!("{}… [100 chars; --full for all]", "x".repeat(80));
        assert_eq!(
            testing::notes::<Tree>(&[], &result()),
            ["cut: 1 value over 80 characters; --full prints it whole",],
        );
        assert_eq!(
            testing::stdout::<Tree>(&[], &result(), false),
            format!(
                "{}\n",
                json!({"nodes": [{"type": "Panel", "id": "counter", "children": [
                    {"type": "Button", "id": "btn-dec", "text": "-", "enabled": false},
                    {"type": "Text", "id": "blurb", "text": cut}
                ]}]})
            )
        );
    }

    #[test]
    fn fields_adds_and_full_keeps_everything() {
        let with_name = testing::stdout::<Tree>(&["--fields", "name"], &result(), false);
        assert!(with_name.contains("\"name\":\"Decrement\""), "{with_name}");
        let full = testing::stdout::<Tree>(&["--full"], &result(), false);
        assert!(full.contains(&"x".repeat(100)), "{full}");
    }

    #[test]
    fn no_next_command_follows_a_tree_that_lists_nodes() {
        // The settings page's first control is a toggle: a `toggle '#dark-mode'` would
        // change the app, whatever the task.
        let result = json!({"structuredContent": {"nodes": [{"type": "Panel", "id": "settings", "children": [
            {"type": "Toggle", "id": "dark-mode", "text": "Dark mode"},
            {"type": "Button", "id": "btn-inc", "text": "+"}
        ]}]}});
        assert!(testing::notes::<Tree>(&[], &result).is_empty());
        assert!(testing::notes::<Tree>(&["#settings", "--full"], &result).is_empty());
    }

    #[test]
    fn nothing_matched_is_said_and_what_to_try_is_a_note() {
        let none = json!({"structuredContent": {"nodes": []}});
        let shaped =
            testing::shaped::<Tree>(&["--selector", "#nope"], &none, false).expect("shaped");
        assert_eq!(
            shaped.stdout,
            b"{\"empty\":\"no node matches\",\"nodes\":[]}\n"
        );
        assert_eq!(
            shaped.notes,
            ["next: mur devtools tree (every node), or mur devtools windows"]
        );
        assert_eq!(
            testing::notes::<Tree>(&[], &none),
            ["next: mur devtools windows"]
        );
    }
}
