//! `mur devtools fire <target>`: fire an event on a component, the target written
//! `<component>.<event>`, with optional JSON arguments (MCP tool `fire`).

use mur_verb_kit::{About, Args, Kind, Map, Opt, Pos, Spec, Value, Verb};

pub struct Fire;

/// The positional's name, the tool's argument's: a name an agent reading `catalog --json`
/// can use (it was `component>.<event`, so that its `<name>` spelt the form the target
/// must have, which the help now says).
const TARGET: &str = "target";

impl Verb for Fire {
    const ABOUT: About = About {
        name: "fire",
        tool: "fire",
        summary: "Fire an event on a component, with optional JSON arguments",
        synopsis: "",
        details: "",
        examples: &[r#"mur devtools fire counter.set --args '{"value": 5}'"#],
    };
    const SPEC: Spec = Spec {
        positionals: &[Pos::new(
            TARGET,
            "target",
            Kind::Name,
            "the component and its event, as `<component>.<event>`",
        )],
        options: &[Opt::value(
            "args",
            "JSON",
            Kind::Json,
            "the event's arguments, as JSON",
        )],
        exclusive: &[],
    };

    fn arguments(args: &Args) -> Result<Map<String, Value>, String> {
        check_target(args.positional(TARGET))?;
        Ok(args.arguments())
    }
}

fn check_target(target: &str) -> Result<(), String> {
    match target.rsplit_once('.') {
        Some((component, event)) if !component.is_empty() && !event.is_empty() => Ok(()),
        _ => Err(format!(
            "the target must be `<component>.<event>`, got `{target}`"
        )),
    }
}

mur_verb_kit::export_verb!(Fire);

mur_verb_kit::verb_tables!(Fire {
    arguments: [
        (&["counter.reset"], json!({"target": "counter.reset"})),
        (
            &["counter.incremented", "--args", r#"{"by": 2}"#],
            json!({"target": "counter.incremented", "args": {"by": 2}}),
        ),
        (
            &["app.main.closed", "--args=[1]"],
            json!({"target": "app.main.closed", "args": [1]})
        ),
    ],
    usage_errors: [
        (&[], "missing argument `<target>`"),
        (
            &["counter"],
            "the target must be `<component>.<event>`, got `counter`",
        ),
        (
            &["counter."],
            "the target must be `<component>.<event>`, got `counter.`",
        ),
        (
            &[".reset"],
            "the target must be `<component>.<event>`, got `.reset`",
        ),
        (
            &["counter.set", r#"{"value": 10}"#],
            r#"unexpected argument `{"value": 10}`; did you mean `--args '{"value": 10}'`?"#,
        ),
        (
            &["counter.set", "--args", r#"{"by": }"#],
            "`--args` is not valid JSON: expected value at line 1 column 8",
        ),
        (
            &["counter.set", "--args", "{\"a\":1,\n\"b\" 2}"],
            "`--args` is not valid JSON: expected `:` at line 2 column 5",
        ),
    ],
});
