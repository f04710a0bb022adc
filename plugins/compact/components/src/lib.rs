//! `mur devtools components` shaped for agents (condition `cli-compact`): the active
//! component and each component's `name` and `title`; `--fields events,window` for more.

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
        synopsis: "components [--fields F,…] [--full]",
        details: "",
        examples: &[
            "mur devtools components",
            "mur devtools components --fields events",
        ],
    };
    const SPEC: Spec = shaping::SPEC;

    fn arguments(args: &Args) -> Result<Map<String, Value>, String> {
        Ok(shaping::arguments(args))
    }

    fn shape(args: &Args, result: &Value, pretty: bool) -> Result<Shaped, String> {
        let keep = Keep::of(args, &["name", "title"]);
        let payload = shape::payload(result);
        let components = shaping::items(&payload, "components")
            .filter_map(Value::as_object)
            .map(|c| Value::Object(keep.object(c)))
            .collect();
        let mut out = Map::new();
        let active = payload.get("active").cloned().unwrap_or(Value::Null);
        out.insert("active".to_owned(), active);
        let empty = ("component", "the app offers none");
        Ok(shaping::listed(
            out,
            "components",
            components,
            empty,
            pretty,
        ))
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
}
