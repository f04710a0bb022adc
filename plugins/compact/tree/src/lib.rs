//! `mur devtools tree` shaped for agents (condition `cli-compact`): each node as its
//! `type`, `id` and `text` only (`--fields` adds others, `--full` keeps everything),
//! long texts cut with their length said, and an explicit note when nothing matched.
//! On stderr: the likely next command (acting on the first element that can be acted
//! on), what to try when nothing matched, and what was cut.

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
        options: &[
            Opt::selector("only the subtree the selector S matches"),
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
        let next = next(&payload);
        let nodes = ("nodes", nodes);
        let empty = ("node matches", instead);
        Ok(shaping::listed(
            &keep,
            Map::new(),
            nodes,
            empty,
            next,
            pretty,
        ))
    }
}

/// The likely next command: act on the first node that can be acted on (depth
/// first), else look at the first node that has an id.
fn next(payload: &Value) -> Option<String> {
    let objects = || shaping::items(payload, "nodes").flat_map(depth_first);
    objects().find_map(shaping::action).or_else(|| {
        let id = objects().find_map(|node| node.get("id").and_then(Value::as_str))?;
        let selector = shaping::quoted(&format!("#{id}"));
        Some(shaping::command(&format!("state --selector {selector}")))
    })
}

/// `node` and every node under it, parents first.
fn depth_first(node: &Value) -> Vec<&Map<String, Value>> {
    let Some(object) = node.as_object() else {
        return Vec::new();
    };
    let children = object.get("children").and_then(Value::as_array);
    std::iter::once(object)
        .chain(children.into_iter().flatten().flat_map(depth_first))
        .collect()
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
    ],
    usage_errors: [
        (&["--view", "full"], "unknown option `--view`"),
        (
            &["#root"],
            "unexpected argument `#root`; did you mean `--selector '#root'`?",
        ),
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
            testing::notes::<Tree>(&[], &result()),
            [
                "cut: 1 value over 80 characters; --full prints it whole",
                "next: mur devtools state --selector '#counter'",
            ],
            "btn-dec is disabled: nothing to act on"
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
    fn the_next_command_acts_on_the_first_element_that_can_be_acted_on() {
        let result = json!({"structuredContent": {"nodes": [{"type": "Panel", "id": "p", "children": [
            {"type": "Text", "id": "count", "text": "0"},
            {"type": "Panel", "id": "q", "children": [{"type": "Button", "id": "btn-inc", "text": "+"}]},
            {"type": "TextBox", "id": "draft"}
        ]}]}});
        assert_eq!(
            testing::notes::<Tree>(&[], &result),
            ["next: mur devtools click '#btn-inc'"]
        );
        let text_box = json!({"structuredContent": {"nodes": [{"type": "TextBox", "id": "it's"}]}});
        assert_eq!(
            testing::notes::<Tree>(&["--full"], &text_box),
            ["next: mur devtools type '#it'\\''s' 'TEXT'"]
        );
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
