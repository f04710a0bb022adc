//! A verb's notes (`shaped.notes`, `mur:verb@0.3.0`), bounded for printing: the host
//! shows them on stderr one line each, so each is one line — line breaks and tabs
//! become spaces — of at most [`MAX_NOTE_CHARS`] characters, and at most [`MAX_NOTES`]
//! of them, however much the verb returned. Other control characters are left to the
//! binary's output path, which escapes them in every line it writes on stderr.

/// The most notes shown; past it, one last line says how many more there were.
pub const MAX_NOTES: usize = 10;

/// The longest note shown, in characters; a longer one is cut and ends in `…`.
pub const MAX_NOTE_CHARS: usize = 300;

/// `notes` as the host prints them: blank ones dropped, each made one line of text and
/// cut to [`MAX_NOTE_CHARS`], the first [`MAX_NOTES`] kept and the rest counted.
pub fn bounded(notes: &[String]) -> Vec<String> {
    let mut shown = Vec::new();
    let mut more = 0usize;
    for note in notes.iter().filter(|n| !n.trim().is_empty()) {
        if shown.len() == MAX_NOTES {
            more += 1;
        } else {
            shown.push(line(note));
        }
    }
    if more > 0 {
        shown.push(format!(
            "… {more} more note{} not shown",
            if more == 1 { "" } else { "s" }
        ));
    }
    shown
}

/// One note as one line: whitespace controls as spaces, cut.
fn line(note: &str) -> String {
    let mut out = String::new();
    for (count, c) in note.trim().chars().enumerate() {
        if count == MAX_NOTE_CHARS {
            out.push('…');
            break;
        }
        out.push(match c {
            '\n' | '\r' | '\t' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}' => ' ',
            c => c,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_one_line() {
        let notes = vec!["next:\tmur\x1b[2J devtools\r\nclick\u{2028}'#x'".to_owned()];
        assert_eq!(bounded(&notes), ["next: mur\x1b[2J devtools  click '#x'"]);
    }

    #[test]
    fn a_long_note_is_cut_and_many_are_counted() {
        let long = "x".repeat(1 << 20);
        let shown = bounded(&[long]);
        assert_eq!(shown[0].chars().count(), MAX_NOTE_CHARS + 1);
        assert!(shown[0].ends_with('…'));

        let many: Vec<String> = (0..100_000).map(|i| format!("note {i}")).collect();
        let shown = bounded(&many);
        assert_eq!(shown.len(), MAX_NOTES + 1);
        assert_eq!(shown[MAX_NOTES - 1], "note 9");
        assert_eq!(shown[MAX_NOTES], "… 99990 more notes not shown");
    }

    #[test]
    fn blank_notes_are_dropped() {
        let notes = vec![" ".to_owned(), String::new(), "  next: x  ".to_owned()];
        assert_eq!(bounded(&notes), ["next: x"]);
    }
}
