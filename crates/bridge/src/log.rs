//! The bridge's log (`<hash>.bridge.log`): what goes into it is clipped, so
//! no message of a server — a line of its stdout that is no JSON-RPC, a
//! message nobody waits for — puts megabytes into one line.

/// The most characters of a server's text one log line carries.
pub(crate) const LINE_CHARS: usize = 2_000;

/// `text` as a log line shows it: at most [`LINE_CHARS`] characters, and
/// when it was longer, how long it was.
pub(crate) fn clipped(text: &str) -> String {
    match text.char_indices().nth(LINE_CHARS) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}… ({} bytes in all)", &text[..end], text.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_clipped_and_says_how_long_it_was() {
        assert_eq!(clipped("short"), "short");
        let long = "é".repeat(LINE_CHARS + 5);
        let line = clipped(&long);
        assert!(line.starts_with(&"é".repeat(LINE_CHARS)), "{line}");
        assert!(
            line.ends_with(&format!("… ({} bytes in all)", long.len())),
            "{line}"
        );
        assert_eq!(clipped(&"x".repeat(LINE_CHARS)), "x".repeat(LINE_CHARS));
    }
}
