//! Where the one JSON value of a response body ends, found as the body's bytes
//! arrive: a server that answers and then keeps the body open (sends spaces past
//! the answer, or declares a `Content-Length` far beyond it) had mur read on to the
//! response limit (a transport error in place of the answer) or to the `--timeout`,
//! and parse all it read. Reading stops once the value is in.
//!
//! Only an object or an array ends before the body does (its closing bracket at
//! depth 0); a body that starts with anything else is read to its end, as before.
//! The value is not checked here: the parser reads it once the body is in.

/// The state of a body's first value, fed chunk by chunk.
#[derive(Debug, Default)]
pub(crate) struct ValueEnd {
    state: State,
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
    /// Not known before the body's end: the value is no object or array, or more
    /// than white space follows its end (the parser says what).
    Unknown,
    /// Ended (said once).
    Ended,
}

/// JSON's white space (RFC 8259): what may follow a value in a body.
fn blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

impl ValueEnd {
    /// Takes the body's next `chunk`: whether its value has ended in it, with only
    /// white space after.
    pub(crate) fn ended_in(&mut self, chunk: &[u8]) -> bool {
        let mut at = 0;
        if self.state == State::Before {
            let Some(first) = chunk.iter().position(|&byte| !blank(byte)) else {
                return false;
            };
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
            return false;
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
                        let only_blank = chunk[at + 1..].iter().all(|&byte| blank(byte));
                        self.state = match only_blank {
                            true => State::Ended,
                            false => State::Unknown,
                        };
                        return only_blank;
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
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where `chunks`, fed in turn, say the value ended (the chunk's index).
    fn ends(chunks: &[&str]) -> Option<usize> {
        let mut end = ValueEnd::default();
        chunks
            .iter()
            .position(|chunk| end.ended_in(chunk.as_bytes()))
    }

    #[test]
    fn an_object_or_array_ends_at_its_closing_bracket_wherever_the_chunks_break() {
        let answer =
            r#" {"jsonrpc":"2.0","id":1,"result":{"text":"a } ] \" \\","list":[{}, [1, "]"]]}}"#;
        assert_eq!(ends(&[answer]), Some(0));
        assert_eq!(ends(&[&format!("{answer} \r\n\t ")]), Some(0));
        // Broken at every byte: in a string, after a `\`, between brackets.
        let one_by_one: Vec<String> = answer.chars().map(String::from).collect();
        let chunks: Vec<&str> = one_by_one.iter().map(String::as_str).collect();
        assert_eq!(ends(&chunks), Some(chunks.len() - 1));
        assert_eq!(ends(&["[1,", "[2]", "]", "   "]), Some(2));
        // Not yet: inside the string, or a bracket still open.
        assert_eq!(ends(&[r#"{"a":"}"#, r#"]"#]), None);
        assert_eq!(ends(&[r#"{"a":[1]"#]), None);
    }

    #[test]
    fn what_else_a_body_holds_is_known_only_at_its_end() {
        // More than white space after the value: for the parser to name.
        assert_eq!(ends(&[r#"{"a":1} x"#, " "]), None);
        assert_eq!(ends(&[r#"{"a":1}{"#, "}"]), None);
        // No object or array: a string, a number, a page.
        for body in [r#""{}""#, "42", "<!doctype html>{}", "}"] {
            assert_eq!(ends(&[body, "{}"]), None, "{body}");
        }
        assert_eq!(ends(&["", "  ", "\n"]), None);
    }
}
