//! `mur devtools components` shaped for agents (condition `cli-compact`): the active
//! component and each component's `name` and `title`; `--fields events,window` for more.
//! On stderr: the likely next command (`tree`, a read: never a `switch`, which changes
//! what the app shows and the task may not want).

use mur_verb_kit::{About, Args, Map, Shaped, Spec, Value, Verb, shape};

#[path = "../../shaping.rs"]
mod shaping;
use shaping::Keep;

pub struct Components;

impl Verb for Components {
    const ABOUT: About = About {
        name: "components",
        tool: "components",
        summary: "List the app's components: the active one, each name and title",
        synopsis: "",
        details: "",
        examples: &[
            "mur devtools components",
            "mur devtools components --fields events",
        ],
    };
    const SPEC: Spec = shaping::SPEC;

    fn shape(args: &Args, result: &Value, pretty: bool) -> Result<Shaped, String> {
        let keep = Keep::of(args, &["name", "title"]);
        let payload = shape::payload(result);
        let components = shaping::items(&payload, "components")
            .filter_map(Value::as_object)
            .map(|c| Value::Object(keep.object(c)))
            .collect();
        let mut out = Map::new();
        let active = payload.get("active").cloned().unwrap_or(Value::Null);
        let next = shaping::command("tree");
        out.insert("active".to_owned(), active);
        let list = ("components", components);
        let empty = ("component", shaping::command("tree"));
        Ok(shaping::listed(&keep, out, list, empty, Some(next), pretty))
    }
}

mur_verb_kit::export_verb!(Components);

mur_verb_kit::verb_tables!(Components {
    arguments: [(&[], json!({})), (&["--fields", "events"], json!({}))],
    usage_errors: [(&["todo"], "unexpected argument `todo`")],
});

#[cfg(test)]
mod tests {
    use super::Components;
    use mur_verb_kit::{json, testing};

    #[test]
    fn the_active_one_and_each_name_and_title() {
        let result = json!({"structuredContent": {"active": "counter", "components": [
            {"active": true, "events": ["counter.set"], "name": "counter", "title": "Counter", "window": "main"}]}});
        assert_eq!(
            testing::stdout::<Components>(&[], &result, false),
            "{\"active\":\"counter\",\"components\":[{\"name\":\"counter\",\"title\":\"Counter\"}]}\n"
        );
        let events = testing::stdout::<Components>(&["--fields", "events"], &result, false);
        assert!(events.contains("\"events\":[\"counter.set\"]"), "{events}");
    }

    #[test]
    fn the_next_command_looks_at_the_tree_never_switches() {
        // A `switch` changes what the app shows: never suggested after a read.
        let two = json!({"structuredContent": {"active": "counter", "components": [
            {"name": "counter"}, {"name": "todos"}]}});
        assert_eq!(
            testing::notes::<Components>(&[], &two),
            ["next: mur devtools tree"]
        );
        let one = json!({"structuredContent": {"active": "counter", "components": [{"name": "counter"}]}});
        assert_eq!(
            testing::notes::<Components>(&[], &one),
            ["next: mur devtools tree"]
        );
        let none = json!({"structuredContent": {"active": null, "components": []}});
        let shaped = testing::shaped::<Components>(&[], &none, false).expect("shaped");
        assert_eq!(
            shaped.stdout,
            b"{\"active\":null,\"empty\":\"no component\",\"components\":[]}\n"
        );
        assert_eq!(shaped.notes, ["next: mur devtools tree"]);
    }
}
