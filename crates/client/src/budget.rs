//! How many JSON values an answer may hold, checked before it is parsed. The response
//! limit bounds the bytes read, not what they become: parsed, each value is a `Value`
//! of 32 bytes in a vector that doubles as it grows, so an answer of `[0,0,0,…]` that
//! fills the 64 MiB limit took 2.3 GB. A server's answer holds at most one value for
//! every [`BYTES_A_VALUE`] bytes of the limit (4 Mi values at 64 MiB, a few hundred MB
//! parsed); `--max-response` raises both together.
//!
//! Counted by hand: serde_json has no limit on a value's size, only on its nesting, and a
//! count while parsing would mean a `Value` visitor of mur's own beside the listing's.
//! This scan skips through strings with `memchr` (where a large answer's bytes are: an
//! image's base64), so it costs a fraction of the parse it guards.

/// Bytes of the response limit a value is allowed: a body of the limit's size holds
/// at most one value for this many of its bytes.
pub(crate) const BYTES_A_VALUE: u64 = 16;

/// The most values an answer under `limit` may hold.
pub(crate) fn most_values(limit: u64) -> u64 {
    (limit / BYTES_A_VALUE).max(1)
}

/// Whether `json` holds more values than `limit` allows ([`most_values`]). Each value but
/// the first follows a comma or opens an array or object (a member's name is no value),
/// so those are counted outside strings. A body too short to hold that many (a value
/// takes two bytes at least with its comma) is not read.
pub(crate) fn too_many_values(json: &[u8], limit: u64) -> bool {
    let most = most_values(limit);
    if (json.len() as u64) / 2 < most {
        return false;
    }
    let mut values: u64 = 1;
    let mut at = 0;
    while at < json.len() {
        match json[at] {
            b'"' => match string_end(json, at + 1) {
                Some(end) => at = end,
                // Cut inside a string: the parser says so.
                None => return false,
            },
            b',' | b'[' | b'{' => values += 1,
            _ => {}
        }
        if values > most {
            return true;
        }
        at += 1;
    }
    false
}

/// Where the string whose text starts at `at` ends: at its closing quote.
fn string_end(json: &[u8], mut at: usize) -> Option<usize> {
    loop {
        at += memchr::memchr2(b'"', b'\\', &json[at..])?;
        if json[at] == b'"' {
            return Some(at);
        }
        at += 2;
        if at > json.len() {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_counted_outside_strings_only() {
        // 16 bytes a value: a limit of 160 allows 10.
        let limit = 160;
        let zeros = |n: usize| format!("[{}]", vec!["0"; n].join(","));
        assert!(!too_many_values(zeros(9).as_bytes(), limit));
        assert!(too_many_values(zeros(10).as_bytes(), limit));
        assert!(too_many_values(
            format!("{}{}", "[".repeat(11), "]".repeat(11)).as_bytes(),
            limit
        ));
        // Commas and brackets inside strings, escaped quotes among them, are text.
        let text = format!(r#"["{}\",[{{", 1]"#, ",[{".repeat(20));
        assert!(!too_many_values(text.as_bytes(), limit));
        let members = r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9}"#;
        assert!(!too_many_values(members.as_bytes(), limit));
        assert!(too_many_values(format!("[{members}]").as_bytes(), 16 * 9));
        // Cut inside a string, or past an escape at the end: left to the parser.
        assert!(!too_many_values(
            format!("{}\"{}", zeros(9), ",".repeat(40)).as_bytes(),
            limit
        ));
        assert!(!too_many_values(
            format!("[\"{}\\", " ".repeat(40)).as_bytes(),
            limit
        ));
    }

    #[test]
    fn the_default_limit_allows_four_mi_values() {
        assert_eq!(most_values(64 << 20), 4 << 20);
        assert_eq!(most_values(1), 1);
    }
}
