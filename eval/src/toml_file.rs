//! A task's or a condition's TOML file: a parse error said in one line, with its place.

/// A TOML error as one line: where it is in `text` (line and column, from the error's
/// span, both counted from 1, the column in characters) and what is wrong there — the
/// `toml` crate's own rendering takes several lines, its message alone says no place.
pub fn located(text: &str, error: &toml::de::Error) -> String {
    let message = error
        .message()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let Some(start) = error.span().map(|span| span.start.min(text.len())) else {
        return message;
    };
    // A span never starts inside a character; should one, the place is the character's.
    let before = text
        .char_indices()
        .take_while(|(at, _)| *at < start)
        .map(|(_, c)| c);
    let (mut line, mut column) = (1, 1);
    for c in before {
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    format!("line {line}, column {column}: {message}")
}
