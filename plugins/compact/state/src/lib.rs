//! `mur devtools state` shaped for agents (condition `cli-compact`): the app's state with
//! long values cut, or one element as its `type`, `id`, `text` and the flags that differ
//! from the default (`--fields` adds others, `--full` keeps everything). On stderr: the
//! likely next command (`tree`, a read: never an action on the element, which the task
//! may not want) and what was cut.

use mur_verb_kit::{About, Args, Opt, Shaped, Spec, Value, Verb, shape};

#[path = "../../shaping.rs"]
mod shaping;
use shaping::Keep;

pub struct State;

const DEFAULT: &[&str] = &["type", "id", "text"];

impl Verb for State {
    const ABOUT: About = About {
        name: "state",
        tool: "state",
        summary: "Print the app's state, or an element's type, id, text and notable flags",
        synopsis: "",
        details: "Values longer than 80 characters are cut, their length said; --full \
                  prints every field whole.",
        examples: &[
            "mur devtools state --selector '#count'",
            "mur devtools state --selector '#btn-inc' --fields bounds",
        ],
    };
    const SPEC: Spec = Spec {
        options: &[
            Opt::selector("only the element the selector S matches").or_word(),
            shaping::FIELDS,
            shaping::FULL,
        ],
        ..Spec::NONE
    };

    fn shape(args: &Args, result: &Value, pretty: bool) -> Result<Shaped, String> {
        let keep = Keep::of(args, DEFAULT);
        let payload = shape::payload(result);
        let shaped = match (args.value("selector"), payload.as_object()) {
            (Some(_), Some(element)) => {
                let mut kept = keep.object(element);
                for (key, value) in shaping::notable(element) {
                    kept.entry(key).or_insert(value);
                }
                Value::Object(kept)
            }
            _ => keep.value(&payload),
        };
        let next = shaping::command("tree");
        Ok(keep.noted(Shaped::json(&shaped, pretty), Some(next)))
    }
}

mur_verb_kit::export_verb!(State);

mur_verb_kit::verb_tables!(State {
    arguments: [
        (&[], json!({})),
        (
            &["--selector", "#count", "--full"],
            json!({"selector": "#count"})
        ),
        // The selector alone, as the standard verbs take it (the guide says so).
        (&["#theme"], json!({"selector": "#theme"})),
    ],
    usage_errors: [(
        &["#count", "--selector", "#btn-inc"],
        "`<selector>` given twice: as `#count` and as `--selector '#btn-inc'`",
    )],
});

#[cfg(test)]
mod tests {
    use super::State;
    use mur_verb_kit::{json, testing};

    #[test]
    fn an_element_is_its_type_id_text_and_notable_flags() {
        let element = json!({"structuredContent": {"bounds": {"x": 1}, "enabled": true, "focused": false,
            "id": "count", "matchCount": 1, "name": "Count", "text": "5", "type": "Text", "visible": false}});
        assert_eq!(
            testing::stdout::<State>(&["--selector", "#count"], &element, false),
            "{\"id\":\"count\",\"text\":\"5\",\"type\":\"Text\",\"visible\":false}\n"
        );
        let more = testing::stdout::<State>(
            &["--selector", "#count", "--fields", "bounds"],
            &element,
            false,
        );
        assert!(more.contains("\"bounds\":{\"x\":1}"), "{more}");
    }

    #[test]
    fn the_next_command_reads_never_acts_on_the_element() {
        let button =
            json!({"structuredContent": {"id": "btn-inc", "type": "Button", "enabled": true}});
        assert_eq!(
            testing::notes::<State>(&["--selector", "#btn-inc"], &button),
            ["next: mur devtools tree"]
        );
        let text = json!({"structuredContent": {"id": "count", "type": "Text", "text": "5"}});
        assert_eq!(
            testing::notes::<State>(&["--selector", "#count"], &text),
            ["next: mur devtools tree"]
        );
    }

    #[test]
    fn the_app_state_keeps_every_field_with_long_values_cut() {
        let state = json!({"structuredContent": {"counter": {"count": 3}, "note": "y".repeat(90)}});
        let text = testing::stdout::<State>(&[], &state, false);
        assert!(text.contains("\"counter\":{\"count\":3}"), "{text}");
        assert!(text.contains("… [90 chars; --full for all]"), "{text}");
        assert_eq!(
            testing::notes::<State>(&[], &state),
            [
                "cut: 1 value over 80 characters; --full prints it whole",
                "next: mur devtools tree"
            ]
        );
        assert_eq!(
            testing::notes::<State>(&["--full"], &state),
            ["next: mur devtools tree"]
        );
    }
}
