//! Words the messages and the report share: a count with its noun, a list said in a
//! clause.

/// `n thing` or `n things`.
pub fn plural(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// `items` joined by `separator` between `before` and `after` (`; sha256 a, b`, ` (x; y)`),
/// or nothing at all when there are none: a clause that is said only when it lists
/// something.
pub fn listed(before: &str, items: &[String], separator: &str, after: &str) -> String {
    if items.is_empty() {
        String::new()
    } else {
        format!("{before}{}{after}", items.join(separator))
    }
}
