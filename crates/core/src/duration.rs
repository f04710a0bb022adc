//! How a duration is written on mur's command lines — one syntax for every
//! option that takes one (`usage report --since`, `verbs prune --unused-for`,
//! `bridge --idle`), so what works after one works after all; a window back from
//! now takes it with its unit only.

use std::time::Duration;

/// What every duration error shows as the form to use.
const LIKE: &str = "30s, 15m, 12h, 7d or 1h 30m";

/// `500ms`, `30s`, `15m`, `12h`, `7d`, `2w`, `1h 30m` (humantime's syntax), or
/// a bare number of seconds (`90`).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if let Some(text) = bare_number(text) {
        return text
            .parse()
            .map(Duration::from_secs)
            .map_err(|_| format!("`{text}` is too long a duration"));
    }
    humantime::parse_duration(text).map_err(|e| match e {
        humantime::DurationError::NumberOverflow => format!("`{text}` is too long a duration"),
        _ => format!("`{text}` is not a duration such as {LIKE}"),
    })
}

/// A window of time back from now (`usage report --since`, `verbs prune
/// --unused-for`): a duration with its unit, never zero. A window of none holds no
/// call, so every verb would be unused in it.
pub fn parse_window(text: &str) -> Result<Duration, String> {
    // A bare number names no unit: `--since 90` is as likely 90 days as 90 seconds, and
    // read as seconds it reports a window of nothing without a word.
    if let Some(bare) = bare_number(text) {
        return Err(format!(
            "`{bare}` has no unit: did you mean {bare}s, {bare}m, {bare}h or {bare}d?"
        ));
    }
    match parse_duration(text)? {
        d if d.is_zero() => Err(format!(
            "`{}` is an empty window: no call falls in it",
            text.trim()
        )),
        d => Ok(d),
    }
}

/// `text` (trimmed) when it is digits alone, a number with no unit.
fn bare_number(text: &str) -> Option<&str> {
    let text = text.trim();
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        let secs = Duration::from_secs;
        for (text, expected) in [
            ("7d", secs(7 * 86_400)),
            ("2w", secs(14 * 86_400)),
            ("12h", secs(12 * 3600)),
            ("1h 30m", secs(5400)),
            ("1h30m", secs(5400)),
            ("90", secs(90)),
            (" 15m ", secs(900)),
            ("1.5h", secs(5400)),
            ("500ms", Duration::from_millis(500)),
        ] {
            assert_eq!(parse_duration(text), Ok(expected), "{text}");
        }
    }

    #[test]
    fn anything_else_is_one_line_saying_what_to_write() {
        for text in ["", "d", "soon", "7 days ago", "-5m", "5 parsecs"] {
            assert_eq!(
                parse_duration(text),
                Err(format!(
                    "`{}` is not a duration such as {LIKE}",
                    text.trim()
                )),
                "{text:?}"
            );
        }
        for text in ["0s", "0m", "0d"] {
            assert_eq!(
                parse_window(text),
                Err(format!("`{text}` is an empty window: no call falls in it"))
            );
        }
        assert_eq!(parse_window("1s"), Ok(Duration::from_secs(1)));
        for text in ["90", " 0 "] {
            let bare = text.trim();
            assert_eq!(
                parse_window(text),
                Err(format!(
                    "`{bare}` has no unit: did you mean {bare}s, {bare}m, {bare}h or {bare}d?"
                ))
            );
        }
        for text in ["99999999999999999999", "99999999999999999999w"] {
            assert_eq!(
                parse_duration(text),
                Err(format!("`{text}` is too long a duration")),
            );
        }
    }
}
