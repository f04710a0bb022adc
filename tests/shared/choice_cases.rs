// The choice typos a verb of every kind answers alike — derived verbs
// (crates/verbs/src/derived.rs), the Rust kit (plugins/kit/tests/choices.rs, outside
// the src/ that `mur devtools verbs new` vendors, where this file is not), and the
// Python and JavaScript kits (tests/tests/e2e/scaffold_python.rs, scaffold_js.rs) — by
// the host's rule (`mur_core::nearest`, and a choice that differs only in case): one
// table, `include!`d by those tests, three builds.

/// A verb's choice options in these cases: `--view`, `--status`, `--component`.
const CHOICE_OPTIONS: [(&str, [&str; 2]); 3] = [
    ("view", ["summary", "full"]),
    ("status", ["success", "error"]),
    ("component", ["counter", "todo"]),
];

/// The option, the word typed, the choice the refusal names (`None`: no guess).
const CHOICE_CASES: [(&str, &str, Option<&str>); 6] = [
    ("view", "FULL", Some("full")),
    ("status", "Error", Some("error")),
    ("status", "sucess", Some("success")),
    ("view", "fl", None),
    ("component", "cntr", None),
    ("component", "zebra", None),
];

/// The refusal of `--OPTION WORD`, whole, as every kind of verb says it.
fn choice_refusal(option: &str, word: &str, meant: Option<&str>) -> String {
    let choices = CHOICE_OPTIONS
        .iter()
        .find(|(name, _)| *name == option)
        .map(|(_, [a, b])| format!("`{a}` or `{b}`"))
        .unwrap_or_default();
    let told = format!("`--{option}` must be {choices}, got `{word}`");
    match meant {
        Some(meant) => format!("{told}; did you mean `{meant}`?"),
        None => told,
    }
}
