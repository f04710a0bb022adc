//! `mur devtools click <selector>` shaped for agents (condition `cli-compact`): what was
//! clicked as its `type`, `id` and `text`, not the element's every field; `--full` for
//! the tool's whole answer. On stderr: the likely next command, `state` (what the click
//! changed), and what was cut.

use mur_verb_kit::{About, Args, Map, Pos, Shaped, Spec, Value, Verb, shape};

#[path = "../../shaping.rs"]
mod shaping;
use shaping::Keep;

pub struct Click;

impl Verb for Click {
    const ABOUT: About = About {
        name: "click",
        tool: "click",
        summary: "Click the element a selector matches; print its type, id and text",
        synopsis: "",
        details: "",
        examples: &["mur devtools click '#btn-inc'"],
    };
    const SPEC: Spec = Spec {
        positionals: &[Pos::selector("the element to click").or_option("S")],
        options: &[shaping::FIELDS, shaping::FULL],
        ..Spec::NONE
    };

    fn shape(args: &Args, result: &Value, pretty: bool) -> Result<Shaped, String> {
        let keep = Keep::of(args, &["type", "id", "text"]);
        let payload = shape::payload(result);
        let next = Some(shaping::command("state"));
        if args.flag("full") {
            return Ok(keep.noted(Shaped::json(&payload, pretty), next));
        }
        let element = payload.get("element").and_then(Value::as_object);
        let clicked = element.map_or(Value::Null, |e| Value::Object(keep.object(e)));
        let mut out = Map::new();
        out.insert("clicked".to_owned(), clicked);
        Ok(keep.noted(Shaped::json(&Value::Object(out), pretty), next))
    }
}

mur_verb_kit::export_verb!(Click);

mur_verb_kit::verb_tables!(Click {
    arguments: [
        (&["#btn-inc"], json!({"selector": "#btn-inc"})),
        (&["#btn-inc", "--full"], json!({"selector": "#btn-inc"})),
        // The selector as an option, as the standard verbs take it (the guide says so).
        (&["--selector", "#btn-inc"], json!({"selector": "#btn-inc"})),
    ],
    usage_errors: [(&[], "missing argument `<selector>`")],
});

#[cfg(test)]
mod tests {
    use super::Click;
    use mur_verb_kit::{json, testing};

    #[test]
    fn what_was_clicked_is_its_type_id_and_text() {
        let result = json!({"structuredContent": {"element": {"bounds": {"x": 96}, "enabled": true,
            "id": "btn-inc", "name": "Increment", "text": "+", "type": "Button"}}});
        assert_eq!(
            testing::stdout::<Click>(&["#btn-inc"], &result, false),
            "{\"clicked\":{\"id\":\"btn-inc\",\"text\":\"+\",\"type\":\"Button\"}}\n"
        );
        let full = testing::stdout::<Click>(&["#btn-inc", "--full"], &result, false);
        assert!(full.contains("bounds"), "{full}");
    }

    #[test]
    fn the_next_command_shows_what_the_click_changed_and_a_cut_is_said() {
        let long = json!({"structuredContent": {"element": {"id": "b", "text": "y".repeat(81), "type": "Button"}}});
        assert_eq!(
            testing::notes::<Click>(&["#b"], &long),
            [
                "cut: 1 value over 80 characters; --full prints it whole",
                "next: mur devtools state"
            ]
        );
        assert_eq!(
            testing::notes::<Click>(&["#b", "--full"], &long),
            ["next: mur devtools state"]
        );
    }
}
