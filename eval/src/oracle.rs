//! Judging the app's state: whether a value meets a task's expectation, and whether a
//! screenshot file shows what the app shows. Pure functions over what the checker read,
//! so every rule is tested without a session.

use serde_json::Value;

use crate::task::Expect;

/// `Ok` when `value` (the tool result at the check's pointer; `None` when the pointer
/// found nothing) meets `expect`, else what was seen instead.
pub fn judge(expect: &Expect, value: Option<&Value>) -> Result<(), String> {
    let Some(value) = value else {
        return Err("nothing at that pointer".to_owned());
    };
    let holds = match expect {
        Expect::Equals(want) => want == value,
        Expect::Contains(want) => contains(value, want),
        Expect::Matches(pattern) => value.as_str().is_some_and(|text| pattern.is_match(text)),
    };
    if holds {
        Ok(())
    } else {
        Err(format!("saw {}", seen(value)))
    }
}

/// `have` contains `want`: a substring of a string, a field-wise subset of an object, an
/// element of an array that contains `want`; anything else must be equal.
pub fn contains(have: &Value, want: &Value) -> bool {
    match (have, want) {
        (Value::String(have), Value::String(want)) => have.contains(want.as_str()),
        (Value::Array(items), want) if !want.is_array() => {
            items.iter().any(|item| contains(item, want))
        }
        (Value::Object(have), Value::Object(want)) => want
            .iter()
            .all(|(key, want)| have.get(key).is_some_and(|have| subset(have, want))),
        _ => have == want,
    }
}

/// Inside an object, strings must be equal (a field `text = "milk"` is not met by
/// `"oat milk"`); objects and arrays nest as in [`contains`].
fn subset(have: &Value, want: &Value) -> bool {
    match (have, want) {
        (Value::String(_), Value::String(_)) => have == want,
        _ => contains(have, want),
    }
}

/// A value for a report line: compact JSON, long values cut.
pub fn seen(value: &Value) -> String {
    const MAX: usize = 200;
    let text = value.to_string();
    if text.chars().count() <= MAX {
        return text;
    }
    let cut: String = text.chars().take(MAX).collect();
    format!("{cut}… ({} bytes)", text.len())
}

/// A decoded image: width, height and its pixels as RGBA.
#[derive(Debug, PartialEq, Eq)]
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// Decodes a PNG into RGBA pixels, so two encodings of the same picture compare equal.
pub fn decode_png(bytes: &[u8]) -> Result<Pixels, String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|e| format!("not a PNG: {e}"))?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| "the PNG is too large".to_owned())?;
    let mut buffer = vec![0; size];
    let info = reader
        .next_frame(&mut buffer)
        .map_err(|e| format!("not a PNG: {e}"))?;
    buffer.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buffer,
        png::ColorType::Rgb => buffer
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::Grayscale => buffer.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::GrayscaleAlpha => buffer
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Indexed => return Err("an indexed PNG was not expanded".to_owned()),
    };
    Ok(Pixels {
        width: info.width,
        height: info.height,
        rgba,
    })
}

/// `Ok` when the file's picture is the app's, else how they differ.
pub fn same_picture(file: &Pixels, app: &Pixels) -> Result<(), String> {
    if (file.width, file.height) != (app.width, app.height) {
        return Err(format!(
            "the file is {}x{}, the app's screenshot {}x{}",
            file.width, file.height, app.width, app.height
        ));
    }
    let differing = file
        .rgba
        .chunks_exact(4)
        .zip(app.rgba.chunks_exact(4))
        .filter(|(a, b)| a != b)
        .count();
    if differing == 0 {
        Ok(())
    } else {
        Err(format!(
            "{differing} of {} pixels differ from the app's screenshot now",
            file.width * file.height
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;
    use serde_json::json;

    #[test]
    fn equals_compares_json_and_says_what_it_saw() {
        assert_eq!(judge(&Expect::Equals(json!(3)), Some(&json!(3))), Ok(()));
        assert_eq!(
            judge(&Expect::Equals(json!(3)), Some(&json!("3"))),
            Err("saw \"3\"".to_owned())
        );
        assert_eq!(
            judge(&Expect::Equals(json!(3)), None),
            Err("nothing at that pointer".to_owned())
        );
    }

    #[test]
    fn contains_finds_a_partial_item_in_a_list() {
        let items = json!([
            { "id": 1, "text": "oat milk", "done": false },
            { "id": 2, "text": "milk", "done": true },
        ]);
        assert!(contains(&items, &json!({ "text": "milk", "done": true })));
        assert!(!contains(&items, &json!({ "text": "milk", "done": false })));
        assert!(!contains(&items, &json!({ "text": "bread" })));
        assert!(contains(&json!("About mur-sample"), &json!("mur-sample")));
        assert!(contains(
            &json!({ "a": { "b": 1, "c": 2 } }),
            &json!({ "a": { "b": 1 } })
        ));
        assert!(!contains(&json!([]), &json!({ "text": "milk" })));
    }

    #[test]
    fn matches_applies_to_strings_only() {
        let expect = Expect::Matches(Regex::new("^v?[0-9]+").expect("regex"));
        assert_eq!(judge(&expect, Some(&json!("12 items"))), Ok(()));
        assert!(judge(&expect, Some(&json!(12))).is_err());
    }

    #[test]
    fn long_values_are_cut_in_reports() {
        let long = json!("x".repeat(500));
        let text = seen(&long);
        assert!(text.ends_with("… (502 bytes)"), "{text}");
    }

    fn png(width: u32, height: u32, rgb: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("header");
        writer.write_image_data(rgb).expect("data");
        writer.finish().expect("finish");
        bytes
    }

    #[test]
    fn pictures_compare_by_pixels() {
        let red = decode_png(&png(2, 1, &[255, 0, 0, 255, 0, 0])).expect("png");
        let mixed = decode_png(&png(2, 1, &[255, 0, 0, 0, 0, 255])).expect("png");
        let tall = decode_png(&png(1, 2, &[255, 0, 0, 255, 0, 0])).expect("png");
        assert_eq!(red.rgba, [255, 0, 0, 255, 255, 0, 0, 255]);
        assert_eq!(same_picture(&red, &red), Ok(()));
        assert_eq!(
            same_picture(&red, &mixed),
            Err("1 of 2 pixels differ from the app's screenshot now".to_owned())
        );
        assert_eq!(
            same_picture(&red, &tall),
            Err("the file is 2x1, the app's screenshot 1x2".to_owned())
        );
        assert!(decode_png(b"not a png").is_err());
    }
}
