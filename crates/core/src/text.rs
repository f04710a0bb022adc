//! Others' text (a server's message, a tool's name, a log's line) made safe to
//! show a person: what could drive the terminal or reorder a line is written as
//! an escape, so a transcript reads as what happened.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` may change how a terminal shows what follows it, and so is
/// written as an escape: a control character (a command to the terminal), or a
/// bidirectional formatting character, which reorders the text around it so
/// that a line reads other than it is ("Trojan Source", CVE-2021-42574): a
/// tool's name or a server's message must not make a hint or a report lie.
/// Right-to-left text itself is words, and kept.
pub fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// Whether `c` shows nothing of itself where a name is read: a control character, or a
/// format character (Unicode's category Cf: the zero-width space and joiners, the
/// byte-order mark, the soft hyphen, the bidirectional controls [`unprintable`] escapes,
/// tags). A name holding one is no word a reader can see whole or type (a tool named
/// U+200B was a verb whose row showed no name): such a name is not made a verb, a
/// candidate, or a `call NAME`.
pub fn invisible(c: char) -> bool {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory as _};
    // ASCII has no format character: a name of it is settled without the table's search,
    // run for each character of every tool's name at a <Tab>.
    match c.is_ascii() {
        true => c.is_ascii_control(),
        false => c.is_control() || c.general_category() == GeneralCategory::Format,
    }
}

/// Whether `c` draws no mark of its own: whitespace (U+0020, U+3000), an [`invisible`]
/// character, one Unicode keeps out of display though it is no format character (its
/// Default_Ignorable_Code_Point: the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0,
/// the combining grapheme joiner, the Khmer inherent vowels, the variation selectors),
/// or the blank Braille pattern U+2800, drawn as an empty cell.
pub fn blank(c: char) -> bool {
    c.is_whitespace()
        || invisible(c)
        || matches!(
            c,
            '\u{34f}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{17b4}'
                | '\u{17b5}'
                | '\u{180b}'..='\u{180f}'
                | '\u{2800}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{ffa0}'
                | '\u{e0100}'..='\u{e01ef}'
        )
}

/// Whether a name cannot be read as what it is wherever it is shown: it holds a
/// [`blank`] character other than the space (an [`invisible`] one, U+3164 between
/// letters: `get\u{3164}sum` read as `get sum`, or as `getsum`, and neither typed calls
/// it), or none but blanks (empty, spaces): a verb, a candidate or a `call NAME` of it
/// showed as nothing, as a gap, or as another name. Such a name is not made a verb, a
/// candidate, or a `call NAME`, and is written as its JSON string, whose escapes show
/// those blanks (`call_line::quoted` in the host). A space reads as itself.
pub fn unseen(name: &str) -> bool {
    name.chars().all(blank) || name.chars().any(|c| c != ' ' && blank(c))
}

/// `text` with every [`unprintable`] character but the newline written as an
/// escape (`\x1b`, `\u{9b}`, `\u{202e}`): it prints as text, never as a
/// terminal command, and keeps its lines.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    escaped(text, |c| unprintable(c) && c != '\n')
}

/// `text` a person reads (a tool's description in the catalog's table or a verb's help)
/// with every format character (Unicode's Cf: a zero-width space or joiner, a byte-order
/// mark, a tag) written as an escape (`\u{200b}`): a terminal shows none of them, and
/// tags spell ASCII no one sees but an agent reading the text reads. Controls are left to
/// what prints the text ([`escape_controls`], a table's cell), which keeps its lines.
pub fn escape_format(text: &str) -> Cow<'_, str> {
    escaped(text, |c| invisible(c) && !c.is_control())
}

/// A value read from a file, the disk or a server (a file's name, a lockfile's field)
/// as it goes into a one-line message: every [`unprintable`] character written as an
/// escape, the newline too (`\x0a`). A message may span lines, and stderr keeps its
/// newlines ([`escape_controls`]): a newline in a value would start a line of its own,
/// one that reads as mur's `error:`.
pub fn escape_value(text: &str) -> Cow<'_, str> {
    escaped(text, unprintable)
}

/// `text` with the characters `escape` picks written as escapes.
pub fn escaped(text: &str, escape: fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escape(c) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `c` as its escape: `\x1b` below 0x80, else `\u{9b}`, `\u{202e}`.
pub fn push_escape(out: &mut String, c: char) {
    let code = u32::from(c);
    let _ = if code < 0x80 {
        write!(out, "\\x{code:02x}")
    } else {
        write!(out, "\\u{{{code:x}}}")
    };
}

/// `bytes` quoted as bash's `$'…'`, every byte outside printable ASCII as `\xHH`
/// and `\` and `'` escaped: a word a shell reads back byte for byte (a file name that
/// is not UTF-8, a choice holding a control or a bidi override), which prints as
/// plain ASCII.
pub fn ansi_c_quoted(bytes: &[u8]) -> String {
    let mut out = String::from("$'");
    for &byte in bytes {
        match byte {
            b'\\' | b'\'' => {
                out.push('\\');
                out.push(char::from(byte));
            }
            0x20..=0x7e => out.push(char::from(byte)),
            _ => {
                let _ = write!(out, "\\x{byte:02x}");
            }
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::{
        Cow, ansi_c_quoted, escape_controls, escape_format, escape_value, invisible, unprintable,
        unseen,
    };

    #[test]
    fn ansi_c_quoting_reads_back_byte_for_byte() {
        assert_eq!(
            ansi_c_quoted(b"a\xe2\x80\xaeb'\\"),
            r"$'a\xe2\x80\xaeb\'\\'"
        );
    }

    #[test]
    fn what_drives_or_reorders_a_terminal_is_escaped_and_lines_kept() {
        assert_eq!(escape_controls("plain"), "plain");
        assert_eq!(
            escape_controls("a\x1b[2Jb\n\tc\u{9b}d\u{202e}e\u{2067}"),
            "a\\x1b[2Jb\n\\x09c\\u{9b}d\\u{202e}e\\u{2067}"
        );
        assert_eq!(escape_controls("שלום مرحبا"), "שלום مرحبا");
    }

    /// Every format character (Cf) and control counts, so a name of one is seen as
    /// holding something unseen; letters, marks and spaces do not.
    #[test]
    fn control_and_format_characters_are_invisible() {
        for c in [
            '\x07', '\u{9b}', '\u{ad}', '\u{200b}', '\u{200d}', '\u{202e}', '\u{feff}',
        ] {
            assert!(invisible(c), "{c:?}");
        }
        for c in ['\u{e0041}', '\u{1343f}', '\u{2064}'] {
            assert!(invisible(c), "{c:?}");
        }
        for c in ['a', ' ', '-', '\u{301}', '\u{5d0}', '\u{3000}'] {
            assert!(!invisible(c), "{c:?}");
        }
        // What a terminal would act on is invisible too.
        assert!(('\0'..='\u{10ffff}').all(|c| !unprintable(c) || invisible(c)));
    }

    /// A name of blanks alone (spaces, the Hangul fillers, the blank Braille pattern, an
    /// ideographic space) shows nothing, as one holding a zero-width space shows less than
    /// it is; one with a blank but the space among its letters (`get\u{3164}sum`) shows
    /// another name. Spaces among marks are read.
    #[test]
    fn a_name_of_blanks_alone_or_with_a_blank_among_its_letters_is_unseen() {
        for name in [
            "",
            " ",
            "   ",
            "\u{3164}",
            "\u{2800}",
            "\u{115f}\u{1160}",
            "\u{3000}",
            "\u{ffa0}",
            " \u{3164} ",
            "\u{a0}",
            "a\u{200b}",
            "\u{3164}x",
            "get\u{3164}sum",
            "a\u{3000}b",
            "a\u{a0}b",
            "a\u{2800}",
        ] {
            assert!(unseen(name), "{name:?}");
        }
        for name in ["a", " a ", "a b", "\u{5d0}", "\u{301}"] {
            assert!(!unseen(name), "{name:?}");
        }
    }

    /// What a terminal shows as nothing is written out; its lines, tabs and words stay.
    #[test]
    fn format_characters_in_prose_are_escaped() {
        assert_eq!(
            escape_format("Clicks\u{200b} it.\r\n\tThen\u{e0041}\u{feff} שלום \u{3164}\x1b"),
            "Clicks\\u{200b} it.\r\n\tThen\\u{e0041}\\u{feff} שלום \u{3164}\x1b"
        );
        assert!(matches!(escape_format("plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn a_value_stays_on_its_line() {
        assert_eq!(escape_value("/a/App.csproj"), "/a/App.csproj");
        assert_eq!(
            escape_value("a\nerror: forged\r\x1b[2J\u{202e}"),
            "a\\x0aerror: forged\\x0d\\x1b[2J\\u{202e}"
        );
    }
}
