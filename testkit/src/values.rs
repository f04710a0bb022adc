//! Reading the JSON and text that tools and `mur` print, and the files they leave, for
//! assertions.

use std::path::Path;

use serde_json::Value;

/// The names of the entries of the directory `dir`, sorted, to compare with the files a
/// run should have left there (panics when it cannot be listed).
pub fn names_in(dir: &Path) -> Vec<String> {
    let listing = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("list {dir:?}: {e}"));
    let mut names: Vec<String> = listing
        .map(|entry| {
            let entry = entry.unwrap_or_else(|e| panic!("list {dir:?}: {e}"));
            entry.file_name().to_string_lossy().into_owned()
        })
        .collect();
    names.sort();
    names
}

/// The records of the usage log at `path` (`mur-usage/1`, one JSON line each; none when
/// there is no log). A blank line is passed over, as the report's reader passes it
/// (crates/usage/src/log.rs): when two appends race, one's check for a torn last line can
/// see the other's before its last byte is in, and its record then starts with a newline,
/// leaving one blank line. Any other line must be a record (panics, naming it).
pub fn usage_records(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// The fields `keys` of each record, as text (a string as it is, `1` for a number, `null`
/// where it has none).
pub fn fields<const N: usize>(records: &[Value], keys: [&str; N]) -> Vec<[String; N]> {
    let text = |value: &Value| {
        value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_owned)
    };
    records
        .iter()
        .map(|r| keys.map(|key| text(&r[key])))
        .collect()
}

/// The string `key` of each object in the JSON array `array`, in order (panics, showing
/// the value, when it is not an array of objects that each have one).
pub fn each_str<'a>(array: &'a Value, key: &str) -> Vec<&'a str> {
    array
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {array}"))
        .iter()
        .map(|item| {
            item[key]
                .as_str()
                .unwrap_or_else(|| panic!("no string `{key}` in {item}"))
        })
        .collect()
}

/// Bytes written on one thread (a proxy's stdout, a log subscriber's writer) and read
/// back on the test's: a `Write` whose clones share one buffer.
#[derive(Clone, Default)]
pub struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Captured {
    /// Everything written so far, as text (panics on bytes that are not UTF-8).
    pub fn text(&self) -> String {
        let bytes = self.0.lock().expect("captured bytes").clone();
        String::from_utf8(bytes).expect("utf-8 output")
    }
}

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .expect("captured bytes")
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The `x` of each SVG `<text x="…" …>` element of `svg` whose text is `text`
/// (whole), in order: where a chart placed that label.
pub fn text_x(svg: &str, text: &str) -> Vec<f64> {
    let closing = format!(">{text}</text>");
    svg.match_indices(&closing)
        .map(|(at, _)| {
            svg[..at]
                .rsplit("<text x=\"")
                .next()
                .and_then(|t| t.split('"').next())
                .and_then(|x| x.parse().ok())
                .unwrap_or_else(|| panic!("no x of the text `{text}` in {svg}"))
        })
        .collect()
}

/// What `text` says after `prefix` and the time a bridge stopped, as mur's hints and the
/// proxy's errors give it: `PREFIX2026-11-29T11:23:38Z: SAID` gives `SAID` (panics, showing
/// `text`, when it does not begin so).
#[track_caller]
pub fn after_stop_time<'a>(text: &'a str, prefix: &str) -> &'a str {
    let (at, said) = text
        .strip_prefix(prefix)
        .and_then(|rest| rest.split_once("Z: "))
        .unwrap_or_else(|| panic!("no {prefix:?} and a time then `Z: ` in:\n{text}"));
    let shape = |c: u8| match c {
        b'0'..=b'9' => '0',
        other => other as char,
    };
    let shaped: String = at.bytes().map(shape).collect();
    assert_eq!(shaped, "0000-00-00T00:00:00", "the time in:\n{text}");
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_follows_a_stop_time_is_read() {
        let text = "stopped at 2026-11-29T11:23:38Z: no request for 2s\nhint: …";
        assert_eq!(
            after_stop_time(text, "stopped at "),
            "no request for 2s\nhint: …"
        );
    }

    #[test]
    #[should_panic(expected = "the time in")]
    fn a_stop_time_of_another_shape_fails() {
        after_stop_time("stopped at 11:23Z: idle", "stopped at ");
    }
}
