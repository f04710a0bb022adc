//! `mur devtools windows` shaped for agents (condition `cli-compact`): each window as
//! its `id` and `title` (and `focused` when it is); `--fields bounds` for more. On
//! stderr: the likely next command (the tree of the focused window, else the first).

use mur_verb_kit::{About, Args, Map, Shaped, Spec, Value, Verb, shape};

#[path = "../../shaping.rs"]
mod shaping;
use shaping::Keep;

pub struct Windows;

impl Verb for Windows {
    const ABOUT: About = About {
        name: "windows",
        tool: "windows",
        summary: "List the app's windows: id and title (--fields for more)",
        synopsis: "",
        details: "",
        examples: &[
            "mur devtools windows",
            "mur devtools windows --fields bounds",
        ],
    };
    const SPEC: Spec = shaping::SPEC;

    fn shape(args: &Args, result: &Value, pretty: bool) -> Result<Shaped, String> {
        let keep = Keep::of(args, &["id", "title"]);
        let payload = shape::payload(result);
        let focused = shaping::items(&payload, "windows")
            .find(|w| w.get("focused") == Some(&Value::Bool(true)));
        let next = focused
            .or_else(|| shaping::items(&payload, "windows").next())
            .and_then(|w| w.get("id").and_then(Value::as_str))
            .map(|id| shaping::command(&format!("tree --window {}", shaping::quoted(id))));
        let windows = shaping::items(&payload, "windows")
            .filter_map(Value::as_object)
            .map(|window| {
                let mut kept = keep.object(window);
                if window.get("focused") == Some(&Value::Bool(true)) {
                    kept.insert("focused".to_owned(), Value::Bool(true));
                }
                Value::Object(kept)
            })
            .collect();
        let list = ("windows", windows);
        let empty = ("window is open", shaping::command("components"));
        Ok(shaping::listed(
            &keep,
            Map::new(),
            list,
            empty,
            next,
            pretty,
        ))
    }
}

mur_verb_kit::export_verb!(Windows);

mur_verb_kit::verb_tables!(Windows {
    arguments: [(&[], json!({})), (&["--full"], json!({}))],
    usage_errors: [(&["main"], "unexpected argument `main`")],
});

#[cfg(test)]
mod tests {
    use super::Windows;
    use mur_verb_kit::{json, testing};

    #[test]
    fn each_window_is_its_id_and_title() {
        let result = json!({"structuredContent": {"windows": [
            {"bounds": {"x": 0}, "focused": false, "id": "main", "title": "mur sample"},
            {"bounds": {"x": 0}, "focused": true, "id": "about", "title": "About"}]}});
        assert_eq!(
            testing::stdout::<Windows>(&[], &result, false),
            "{\"windows\":[{\"id\":\"main\",\"title\":\"mur sample\"},{\"id\":\"about\",\"title\":\"About\",\"focused\":true}]}\n"
        );
        let full = testing::stdout::<Windows>(&["--full"], &result, false);
        assert!(full.contains("bounds"), "{full}");
    }

    #[test]
    fn the_next_command_is_the_tree_of_the_focused_window_else_the_first() {
        let focused = json!({"structuredContent": {"windows": [
            {"id": "main", "title": "mur sample"}, {"focused": true, "id": "about", "title": "About"}]}});
        assert_eq!(
            testing::notes::<Windows>(&[], &focused),
            ["next: mur devtools tree --window 'about'"]
        );
        let unfocused =
            json!({"structuredContent": {"windows": [{"id": "main", "title": "mur sample"}]}});
        assert_eq!(
            testing::notes::<Windows>(&[], &unfocused),
            ["next: mur devtools tree --window 'main'"]
        );
        let none = json!({"structuredContent": {"windows": []}});
        let shaped = testing::shaped::<Windows>(&[], &none, false).expect("shaped");
        assert_eq!(
            shaped.stdout,
            b"{\"empty\":\"no window is open\",\"windows\":[]}\n"
        );
        assert_eq!(shaped.notes, ["next: mur devtools components"]);
    }
}
