//! `mur devtools scroll <selector>`: scroll an element by an offset, or until another
//! element is in view (MCP tool `scroll`).

use mur_verb_kit::{About, Args, Kind, Map, Opt, Pos, Spec, Value, Verb, json};

pub struct Scroll;

impl Verb for Scroll {
    const ABOUT: About = About {
        name: "scroll",
        tool: "scroll",
        summary: "Scroll an element by an offset, or until another element is in view",
        synopsis: "",
        details: "With neither option, the element itself is scrolled into view.",
        examples: &["mur devtools scroll '#log' --by 0,-120"],
    };
    const SPEC: Spec = Spec {
        positionals: &[Pos::selector("the element to scroll").or_option("S")],
        options: &[
            Opt::value(
                "by",
                "DX,DY",
                Kind::Local,
                "scroll by DX,DY pixels (integers; negative is left/up)",
            ),
            Opt::value(
                "to",
                "S",
                Kind::Selector,
                "scroll until the element the selector S matches is in view",
            ),
        ],
        exclusive: &[&["by", "to"]],
    };

    fn arguments(args: &Args) -> Result<Map<String, Value>, String> {
        let mut arguments = args.arguments();
        if let Some(by) = args.value("by") {
            arguments.insert("by".to_owned(), offset(by)?);
        }
        Ok(arguments)
    }
}

/// `DX,DY` → `{"dx": DX, "dy": DY}`.
fn offset(text: &str) -> Result<Value, String> {
    let pair = text.split_once(',').and_then(|(dx, dy)| {
        Some((
            dx.trim().parse::<i64>().ok()?,
            dy.trim().parse::<i64>().ok()?,
        ))
    });
    match pair {
        Some((dx, dy)) => Ok(json!({"dx": dx, "dy": dy})),
        None => Err(format!("`--by` needs two integers as DX,DY, got `{text}`")),
    }
}

mur_verb_kit::export_verb!(Scroll);

mur_verb_kit::verb_tables!(Scroll {
    arguments: [
        (
            &["#log", "--to", "#last"],
            json!({"selector": "#log", "to": "#last"}),
        ),
        (&["#log"], json!({"selector": "#log"})),
        (
            &["--selector", "#log", "--to", "#last"],
            json!({"selector": "#log", "to": "#last"}),
        ),
        // An offset is sent as integers.
        (
            &["#log", "--by", "0,-120"],
            json!({"selector": "#log", "by": {"dx": 0, "dy": -120}}),
        ),
        (
            &["#log", "--by=5, 7"],
            json!({"selector": "#log", "by": {"dx": 5, "dy": 7}}),
        ),
    ],
    usage_errors: [
        (
            &["#log", "--by", "1,2", "--to", "#x"],
            "`--by` and `--to` cannot be used together",
        ),
        (&["--by", "1,2"], "missing argument `<selector>`"),
    ],
});

#[cfg(test)]
mod tests {
    use super::Scroll;
    use mur_verb_kit::testing;

    #[test]
    fn rejects_bad_offsets() {
        for bad in ["1", "1,2,3", "a,b", "1.5,2", ","] {
            let expected = format!("`--by` needs two integers as DX,DY, got `{bad}`");
            assert_eq!(
                testing::usage_error::<Scroll>(&["#log", "--by", bad]),
                expected
            );
        }
    }
}
