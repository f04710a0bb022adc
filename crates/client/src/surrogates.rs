//! Lone UTF-16 surrogate escapes in a server's JSON, read as U+FFFD. JavaScript
//! writes one for text cut inside a character outside the BMP (`"👍".slice(0, 1)`
//! is `"\ud83d"` to `JSON.stringify`), and JavaScript and Python read them back;
//! serde_json refuses the whole body over it (no option to read them lossily), so a
//! tool's answer with one cut emoji was lost. What a server sends only: mur's own
//! `--args` still refuses one, as the verb kits do.

/// `json` with every lone surrogate escape (`\uD800`–`\uDFFF` not part of a
/// high-then-low pair) written `\ufffd`, or `None` when it has none. Each escape is
/// six bytes either way, so the rest stays where it was. No string state is needed:
/// outside a string a backslash is no JSON at all, and `\\` is stepped over whole,
/// so the `u` after it is never taken for an escape.
pub(crate) fn mended(json: &[u8]) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    let mut at = 0;
    while let Some(slash) = json.get(at..).and_then(|rest| memchr::memchr(b'\\', rest)) {
        let start = at + slash;
        let Some(unit) = escape_at(json, start) else {
            // `\"`, `\\`, `\n`…: the byte after the backslash is the escape's.
            at = start + 2;
            continue;
        };
        at = start + 6;
        match unit {
            0xD800..=0xDBFF if matches!(escape_at(json, at), Some(0xDC00..=0xDFFF)) => at += 6,
            0xD800..=0xDFFF => {
                let out = out.get_or_insert_with(|| json.to_vec());
                out[start..start + 6].copy_from_slice(br"\ufffd");
            }
            _ => {}
        }
    }
    out
}

/// The code unit of a `\uXXXX` escape starting at `at`, when one starts there.
fn escape_at(json: &[u8], at: usize) -> Option<u16> {
    let escape = json.get(at..at + 6)?;
    if !escape.starts_with(br"\u") {
        return None;
    }
    let hex = std::str::from_utf8(&escape[2..]).ok()?;
    u16::from_str_radix(hex, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::mended;

    fn mend(text: &str) -> Option<String> {
        mended(text.as_bytes()).map(|bytes| String::from_utf8(bytes).expect("UTF-8"))
    }

    #[test]
    fn lone_surrogates_become_the_replacement_character() {
        for (sent, read) in [
            (r#"{"text":"cut \ud83d"}"#, r#"{"text":"cut \ufffd"}"#),
            (r#"{"text":"\udc4d tail"}"#, r#"{"text":"\ufffd tail"}"#),
            (r#"["\uDBFF\u0041"]"#, r#"["\ufffd\u0041"]"#),
            (r#"["\ud83d\ud83d\udc4d"]"#, r#"["\ufffd\ud83d\udc4d"]"#),
            (r#"{"\ud800":1}"#, r#"{"\ufffd":1}"#),
        ] {
            assert_eq!(mend(sent).as_deref(), Some(read), "{sent}");
            let value: serde_json::Value = serde_json::from_str(read).expect(read);
            assert!(value.to_string().contains('\u{fffd}'), "{value}");
        }
    }

    #[test]
    fn pairs_and_other_escapes_are_left_alone() {
        for sent in [
            r#"{"text":"\ud83d\udc4d"}"#,
            r#"{"text":"\\ud83d"}"#,
            r#"{"text":"\\\"\ud7ff\ue000"}"#,
            r#"{"text":"\u00e9 \n"}"#,
            r#"{"text":"ends \"#,
            r#"{"text":"\ud8"}"#,
        ] {
            assert_eq!(mend(sent), None, "{sent}");
        }
    }
}
