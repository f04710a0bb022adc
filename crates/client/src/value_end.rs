//! Where the one JSON value of a response body ends, found as the body's bytes
//! arrive: a server that answers and then keeps the body open (sends spaces past
//! the answer, or declares a `Content-Length` far beyond it) had mur read on to the
//! response limit (a transport error in place of the answer) or to the `--timeout`,
//! and parse all it read. Reading stops once the value is in.
//!
//! Only an object or an array ends before the body does: at its closing bracket at
//! depth 0, whatever follows it, in the same chunk or a later one (the body is cut
//! there, so what follows is never parsed: one answer whatever the chunks). A body
//! that starts with anything else is read to its end, as before. The value is not
//! checked here: the parser reads it once the body is in.
//!
//! Written by hand, after looking for a crate that says where a value ends as its
//! bytes come: serde_json's `StreamDeserializer` (and `from_slice`) needs the whole value
//! in one slice, so each chunk would mean parsing again from the start (O(n²) on a
//! large answer), and its `from_reader` wants a blocking `io::Read`, not an async
//! body. actson, a push parser on crates.io, could say it, but it steps through the
//! body byte by byte and copies every string's bytes into a buffer of its own, all
//! to be parsed again by serde_json, where the question needs only brackets, quotes
//! and backslashes: this scan skips through strings with `memchr` (0.5–1.8 ms on a
//! release build for an 8 MiB base64 answer, against serde_json's 25–29 ms parse).

/// A UTF-8 byte order mark. A body may start with one: RFC 8259 (8.1) forbids a sender
/// to add it but lets a parser ignore it, and an event stream's format (the SSE
/// parser's) skips one at its start, so mur reads a JSON body that starts with one as
/// the same body without it, as it reads an event stream ([`crate::response`]).
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The state of a body's first value, fed chunk by chunk.
#[derive(Debug, Default)]
pub(crate) struct ValueEnd {
    state: State,
    /// How much of a [`BOM`] the body started with, while its first bytes come in:
    /// [`BOM`]'s length once a byte that is none of it came.
    bom: usize,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Nothing but white space yet.
    #[default]
    Before,
    /// Inside an object or array, `depth` brackets open; in a string, after a `\`.
    Inside {
        depth: usize,
        string: bool,
        escaped: bool,
    },
    /// Not known before the body's end: the value is no object or array.
    Unknown,
    /// Ended (said once).
    Ended,
}

/// JSON's white space (RFC 8259): what may follow a value in a body.
fn blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

impl ValueEnd {
    /// Takes the body's next `chunk`: where its value ends in it, as the length of
    /// the chunk's part up to and with the closing bracket, if it does.
    pub(crate) fn end_in(&mut self, chunk: &[u8]) -> Option<usize> {
        let mut at = 0;
        if self.state == State::Before {
            let after_bom = self.past_bom(chunk);
            let first = after_bom + chunk[after_bom..].iter().position(|&byte| !blank(byte))?;
            self.state = match chunk[first] {
                b'{' | b'[' => State::Inside {
                    depth: 1,
                    string: false,
                    escaped: false,
                },
                _ => State::Unknown,
            };
            at = first + 1;
        }
        let State::Inside {
            mut depth,
            mut string,
            mut escaped,
        } = self.state
        else {
            return None;
        };
        while at < chunk.len() {
            if escaped {
                escaped = false;
                at += 1;
            } else if string {
                // Most of a large answer is inside strings (an image's base64): on to
                // the string's next quote or escape.
                let Some(n) = memchr::memchr2(b'"', b'\\', &chunk[at..]) else {
                    break;
                };
                at += n;
                match chunk[at] {
                    b'\\' => escaped = true,
                    _ => string = false,
                }
                at += 1;
            } else {
                match chunk[at] {
                    b'"' => string = true,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' if depth == 1 => {
                        self.state = State::Ended;
                        return Some(at + 1);
                    }
                    b'}' | b']' => depth -= 1,
                    _ => {}
                }
                at += 1;
            }
        }
        self.state = State::Inside {
            depth,
            string,
            escaped,
        };
        None
    }

    /// Where `chunk` goes on past the part of a [`BOM`] at the body's start that it
    /// holds (a mark may come a byte a chunk).
    fn past_bom(&mut self, chunk: &[u8]) -> usize {
        let mut at = 0;
        while self.bom < BOM.len() && chunk.get(at) == Some(&BOM[self.bom]) {
            self.bom += 1;
            at += 1;
        }
        if at < chunk.len() {
            self.bom = BOM.len();
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where `chunks`, fed in turn, say the value ended: the chunk's index and the
    /// length of its part up to the end.
    fn ends(chunks: &[&str]) -> Option<(usize, usize)> {
        let mut end = ValueEnd::default();
        chunks
            .iter()
            .enumerate()
            .find_map(|(i, chunk)| Some((i, end.end_in(chunk.as_bytes())?)))
    }

    /// A byte order mark before the value is skipped, wherever the chunks break it: it
    /// made the body a value of unknown end, read to the body's end.
    #[test]
    fn a_byte_order_mark_before_the_value_is_skipped() {
        let answer = "\u{feff} {\"id\":1} ";
        assert_eq!(ends(&[answer]), Some((0, answer.len() - 1)));
        let bytes = answer.as_bytes();
        let mut end = ValueEnd::default();
        let one_by_one: Vec<Option<usize>> = bytes.chunks(1).map(|b| end.end_in(b)).collect();
        assert_eq!(one_by_one.iter().position(Option::is_some), Some(11));
        // Only at the body's start: after white space it is no value's start.
        assert_eq!(ends(&[" \u{feff}{}"]), None);
    }

    #[test]
    fn an_object_or_array_ends_at_its_closing_bracket_wherever_the_chunks_break() {
        let answer =
            r#" {"jsonrpc":"2.0","id":1,"result":{"text":"a } ] \" \\","list":[{}, [1, "]"]]}}"#;
        assert_eq!(ends(&[answer]), Some((0, answer.len())));
        assert_eq!(
            ends(&[&format!("{answer} \r\n\t ")]),
            Some((0, answer.len()))
        );
        // Broken at every byte: in a string, after a `\`, between brackets.
        let one_by_one: Vec<String> = answer.chars().map(String::from).collect();
        let chunks: Vec<&str> = one_by_one.iter().map(String::as_str).collect();
        assert_eq!(ends(&chunks), Some((chunks.len() - 1, 1)));
        assert_eq!(ends(&["[1,", "[2]", "]", "   "]), Some((2, 1)));
        // Not yet: inside the string, or a bracket still open.
        assert_eq!(ends(&[r#"{"a":"}"#, r#"]"#]), None);
        assert_eq!(ends(&[r#"{"a":[1]"#]), None);
    }

    #[test]
    fn what_follows_the_closing_bracket_is_no_part_of_the_value() {
        // In the same chunk or the next: the value ends at its bracket either way.
        for tail in ["  x", "\n{}", "]", "{", "}"] {
            assert_eq!(
                ends(&[&format!(r#"{{"a":1}}{tail}"#)]),
                Some((0, 7)),
                "{tail}"
            );
            assert_eq!(ends(&[r#"{"a":1}"#, tail]), Some((0, 7)), "{tail}");
        }
    }

    #[test]
    fn a_body_that_is_no_object_or_array_is_known_only_at_its_end() {
        // A string, a number, a page.
        for body in [r#""{}""#, "42", "<!doctype html>{}", "}"] {
            assert_eq!(ends(&[body, "{}"]), None, "{body}");
        }
        assert_eq!(ends(&["", "  ", "\n"]), None);
    }
}
