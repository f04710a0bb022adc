//! `mur devtools type <selector> <text>`: type text into the element a selector matches
//! (MCP tool `type`).

use mur_verb_kit::{About, Kind, Opt, Pos, Spec, Verb};

pub struct Type;

impl Verb for Type {
    const ABOUT: About = About {
        name: "type",
        tool: "type",
        summary: "Append text to the element a selector matches (`--clear` replaces)",
        synopsis: "",
        details: "The text goes after what the element holds: `type '#cache-size' 128` on a box\n\
                  holding 64 leaves 64128; with `--clear` it leaves 128.",
        examples: &["mur devtools type '#todo-input' 'buy milk' --clear"],
    };
    const SPEC: Spec = Spec {
        positionals: &[
            Pos::selector("the element to type into").or_option("S"),
            Pos::new(
                "text",
                "text",
                Kind::Text,
                "the text to append (may be empty)",
            ),
        ],
        options: &[Opt::flag(
            "clear",
            "empty the element first, so the text replaces what it holds",
        )],
        exclusive: &[],
    };
}

mur_verb_kit::export_verb!(Type);

mur_verb_kit::verb_tables!(Type {
    arguments: [
        (
            &["#name", "Ada"],
            json!({"selector": "#name", "text": "Ada"}),
        ),
        (
            &["--clear", "#name", ""],
            json!({"selector": "#name", "text": "", "clear": true}),
        ),
        // The selector as an option, as the query verbs take theirs.
        (
            &["--selector", "#name", "Ada"],
            json!({"selector": "#name", "text": "Ada"}),
        ),
        (
            &["Ada", "--selector=#name"],
            json!({"selector": "#name", "text": "Ada"}),
        ),
        // Text starting with a dash follows `--`.
        (&["#n", "--", "-5"], json!({"selector": "#n", "text": "-5"})),
    ],
    usage_errors: [
        (&["#name"], "missing argument `<text>`"),
        (&["--selector", "#name"], "missing argument `<text>`"),
        (
            &["#a", "--selector", "#b", "x"],
            "`<selector>` given twice: as `#a` and as `--selector '#b'`",
        ),
        (
            &["--selector", "#todo-input", "buy", "milk"],
            "unexpected argument `milk`; quote the words of `<text>` as one: \
             did you mean `mur devtools type '#todo-input' 'buy milk'`?",
        ),
        (
            &["#todo-input", "buy", "milk"],
            "unexpected argument `milk`; quote the words of `<text>` as one: \
             did you mean `mur devtools type '#todo-input' 'buy milk'`?",
        ),
        (
            &["#n", "-5"],
            "unknown option `-5`; to give it as `<text>`, put it after `--`: \
             did you mean `mur devtools type '#n' -- -5`?",
        ),
        (
            &["#todo-input", "-hello"],
            "unknown option `-hello`; to give it as `<text>`, put it after `--`: \
             did you mean `mur devtools type '#todo-input' -- -hello`?",
        ),
        (
            &["#n", "-hi there", "--clear"],
            "unknown option `-hi there`; to give it as `<text>`, put it after `--`: \
             did you mean `mur devtools type '#n' --clear -- '-hi there'`?",
        ),
        (&["#n", "x", "-hx"], "unknown option `-hx`"),
        (
            &["#name", "a", "--clear=no"],
            "`--clear` takes no value, got `no`",
        ),
    ],
});
