// The "did you mean" rule's cases, answered alike by the host (`mur_core::nearest`,
// crates/core/src/words.rs) and by the Rust verb kit, whose file of the rule
// (plugins/kit/src/nearest.rs) the host takes in. One table, `include!`d by the tests of
// both (words.rs, and plugins/kit/tests/choices.rs, outside the vendored src/).

/// The word typed, the words it may be meant as, the one the rule names (`None`: no
/// guess). None differs from its word only in case (a choice's own rule) or is it.
const NEAREST_CASES: [(&str, &[&str], Option<&str>); 9] = [
    ("slector", &["selector", "window", "view"], Some("selector")),
    ("windw", &["selector", "window", "view"], Some("window")),
    ("colour", &["selector", "window", "view"], None),
    // Alike to Jaro, but no typo of each other.
    ("call", &["scroll", "click"], None),
    ("nosuch", &["focus"], None),
    ("bmup", &["bump"], Some("bump")),
    ("exportodos", &["export-todos"], Some("export-todos")),
    // The start of a word, and its end, dashes aside.
    ("--comp", &["--component"], Some("--component")),
    ("--timeout", &["--arg-timeout"], Some("--arg-timeout")),
];
