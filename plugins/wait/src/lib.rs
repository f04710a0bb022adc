//! `mur devtools wait <selector>`: wait until an element matches a condition (MCP tool
//! `waitFor`). `--timeout MS` bounds the wait on the server (`timeoutMs`) and extends
//! the host's own call timeout to match; the verb declares that `waitFor` waits (5 s
//! when `timeoutMs` is not sent), so a shorter `--timeout` before the verb's name
//! lowers the wait to end within the call, and the tool answers what it last saw.

use mur_verb_kit::{About, Kind, Opt, Pos, Spec, Verb, Waits};

pub struct Wait;

impl Verb for Wait {
    const ABOUT: About = About {
        name: "wait",
        tool: "waitFor",
        summary: "Wait until an element matches a condition",
        synopsis: "",
        details: "With no condition, waits until the selector matches an element; gives up\n\
                  after 5 s, saying what it last saw (exit 5). `--timeout MS` bounds the wait\n\
                  and the call alike; a shorter `--timeout` before `wait` shortens the wait to\n\
                  end within it.",
        examples: &["mur devtools wait '#todo-list > ListItem' --text 'buy milk' --timeout 5000"],
    };
    const SPEC: Spec = Spec {
        positionals: &[Pos::selector("the element to wait for").or_option("S")],
        options: &[
            Opt::value("text", "X", Kind::Text, "until its text is exactly X"),
            Opt::value(
                "text-matches",
                "RE",
                Kind::Text,
                "until its text matches the regular expression RE",
            ),
            Opt::flag("visible", "until it is visible"),
            Opt::value("count", "N", Kind::Count, "until exactly N elements match"),
        ],
        exclusive: &[&["text", "text-matches", "visible", "count"]],
    };

    // `waitFor` polls until `timeoutMs` passes (5 s when not sent), then fails with
    // what it last saw: `--timeout MS` is sent as `timeoutMs`.
    const WAITS: Option<Waits> = Some(Waits {
        argument: "timeoutMs",
        default_ms: 5000,
    });
}

mur_verb_kit::export_verb!(Wait);

mur_verb_kit::verb_tables!(Wait {
    arguments: [
        (&["#s"], json!({"selector": "#s"})),
        (
            &["--selector", "#s", "--visible"],
            json!({"selector": "#s", "visible": true}),
        ),
        (
            &["#s", "--text", "Saved"],
            json!({"selector": "#s", "text": "Saved"}),
        ),
        (
            &["#s", "--text-matches", "^Sav"],
            json!({"selector": "#s", "textMatches": "^Sav"}),
        ),
        (
            &["#s", "--visible"],
            json!({"selector": "#s", "visible": true}),
        ),
        (
            &["#s", "--count", "3"],
            json!({"selector": "#s", "count": 3}),
        ),
    ],
    usage_errors: [
        (
            &["#s", "--text", "a", "--visible"],
            "`--text` and `--visible` cannot be used together",
        ),
        (
            &["#s", "--count", "2", "--text-matches", "x"],
            "`--text-matches` and `--count` cannot be used together",
        ),
        (
            &["#s", "--count", "two"],
            "`--count` needs a non-negative integer, got `two`",
        ),
        (
            &["#s", "--count", "-1"],
            "`--count` is out of range: an integer at least 0, got `-1`",
        ),
        (
            &["#s", "--timeout", "-5"],
            "invalid value `-5` for `--timeout <MS>`: `-5` is not a whole number of \
             milliseconds (e.g. `5000`)",
        ),
        (&["--visible"], "missing argument `<selector>`"),
    ],
});

#[cfg(test)]
mod tests {
    use super::Wait;
    use mur_verb_kit::{json, testing};

    /// Its usage line is composed as every standard verb's: `--timeout MS`, which every
    /// verb takes, is in its options list (saying it bounds the wait), not in the line,
    /// where `wait` alone showed it.
    #[test]
    fn its_usage_line_names_its_conditions_not_the_timeout_every_verb_takes() {
        assert_eq!(
            mur_verb_kit::info::<Wait>().usage,
            "wait <selector> [--text X | --text-matches RE | --visible | --count N]"
        );
    }

    #[test]
    fn timeout_goes_to_the_server_and_the_host() {
        let argv = ["#s", "--visible", "--timeout", "5000"];
        assert_eq!(
            testing::arguments::<Wait>(&argv),
            json!({"selector": "#s", "visible": true, "timeoutMs": 5000})
        );
        assert_eq!(testing::timeout_ms::<Wait>(&argv), Some(5000));
    }
}
