//! `mur devtools tree` shaped for agents (condition `cli-compact`): each node as its
//! `type`, `id` and `text` only (`--fields` adds others, `--full` keeps everything),
//! long texts cut with their length said, and an explicit note when nothing matched.

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
        synopsis: "tree [--selector S] [--window W] [--fields F,…] [--full]",
        details: "Flags that differ from the default (disabled, hidden, focused, checked, \
                  selected, expanded) are kept too. Texts longer than 80 characters are cut, \
                  their length said; --full prints every field whole.",
        examples: &[
            "mur devtools tree --selector '#counter'",
            "mur devtools tree --fields name",
        ],
    };
    const SPEC: Spec = Spec {
        positionals: &[],
        options: &[
            Opt::selector("only the subtree the selector S matches"),
            Opt::window("only this window (default: every window)"),
            shaping::FIELDS,
            shaping::FULL,
        ],
        exclusive: &[],
    };

    fn arguments(args: &Args) -> Result<Map<String, Value>, String> {
        let mut arguments = shaping::arguments(args);
        if args.flag("full") {
            arguments.insert("view".to_owned(), Value::from("full"));
        }
        Ok(arguments)
    }

    fn shape(args: &Args, result: &Value, pretty: bool) -> Result<Shaped, String> {
        let keep = Keep::of(args, DEFAULT);
        let nodes = shaping::items(&shape::payload(result), "nodes")
            .map(|node| compact(&keep, node))
            .collect();
        let empty = (
            "node matches",
            "try without --selector, or `mur devtools windows`",
        );
        Ok(shaping::listed(Map::new(), "nodes", nodes, empty, pretty))
    }
}

/// One node and its children, cut down.
fn compact(keep: &Keep, node: &Value) -> Value {
    let Some(object) = node.as_object() else {
        return keep.value(node);
    };
    let mut kept = keep.object(object);
    for (key, value) in shaping::notable(object) {
        kept.entry(key).or_insert(value);
    }
    if let Some(children) = object.get("children").and_then(Value::as_array) {
        let children = children.iter().map(|child| compact(keep, child)).collect();
        kept.insert("children".to_owned(), Value::Array(children));
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
    ],
    usage_errors: [
        (&["--view", "full"], "unknown option `--view`"),
        (&["#root"], "unexpected argument `#root`"),
    ],
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
    fn nothing_matched_is_said() {
        let none = json!({"structuredContent": {"nodes": []}});
        assert_eq!(
            testing::stdout::<Tree>(&["--selector", "#nope"], &none, false),
            "{\"empty\":\"no node matches; try without --selector, or `mur devtools windows`\",\"nodes\":[]}\n"
        );
    }
}
