//! `mur devtools fire <Component>.<event>`: fire an event on a component, with optional
//! JSON arguments (MCP tool `fire`).

use mur_verb_kit::{About, Args, Kind, Map, Opt, Pos, Spec, Value, Verb};

pub struct Fire;

/// The positional's name; usage and errors show it in angle brackets, which spells the
/// form `<Component>.<event>` the target must have.
const TARGET: &str = "Component>.<event";

impl Verb for Fire {
    const ABOUT: About = About {
        name: "fire",
        tool: "fire",
        summary: "Fire an event on a component, with optional JSON arguments",
        synopsis: "fire <Component>.<event> [--args JSON]",
        details: "",
        examples: &[r#"mur devtools fire counter.set --args '{"value": 5}'"#],
    };
    const SPEC: Spec = Spec {
        positionals: &[Pos::new(
            TARGET,
            "target",
            Kind::Name,
            "the component and its event",
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
            "the target must be `<Component>.<event>`, got `{target}`"
        )),
    }
}

mur_verb_kit::export_verb!(Fire);

#[cfg(test)]
mod tests {
    use super::Fire;
    use mur_verb_kit::{json, testing};

    #[test]
    fn sends_the_target_and_parsed_args() {
        testing::assert_arguments::<Fire>(&[
            (&["Counter.reset"], json!({"target": "Counter.reset"})),
            (
                &["Counter.incremented", "--args", r#"{"by": 2}"#],
                json!({"target": "Counter.incremented", "args": {"by": 2}}),
            ),
        ]);
        assert_eq!(
            testing::arguments::<Fire>(&["App.Main.closed", "--args=[1]"])["args"],
            json!([1])
        );
    }

    #[test]
    fn rejects_a_target_without_a_dot() {
        for bad in ["Counter", "Counter.", ".reset"] {
            let expected = format!("the target must be `<Component>.<event>`, got `{bad}`");
            assert_eq!(testing::usage_error::<Fire>(&[bad]), expected);
        }
        assert_eq!(
            testing::usage_error::<Fire>(&[]),
            "missing argument `<Component>.<event>`"
        );
    }

    #[test]
    fn bad_json_names_where_it_went_wrong() {
        testing::assert_usage_errors::<Fire>(&[
            (
                &["Counter.set", "--args", r#"{"by": }"#],
                "`--args` is not valid JSON: expected value at line 1 column 8",
            ),
            (
                &["Counter.set", "--args", "{\"a\":1,\n\"b\" 2}"],
                "`--args` is not valid JSON: expected `:` at line 2 column 5",
            ),
        ]);
    }
}
