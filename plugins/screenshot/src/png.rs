//! The PNG inside a screenshot result: finding its content block, decoding it, reading
//! its size from the IHDR header.

use base64::Engine;
use mur_verb_kit::{Value, shape};

const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The decoded PNG of the result's first `image` content block.
pub fn from_result(result: &Value) -> Result<Vec<u8>, String> {
    let block = shape::content_blocks(result)
        .find(|block| block.get("type").and_then(Value::as_str) == Some("image"))
        .ok_or("the screenshot result has no image content block")?;
    let mime = block
        .get("mimeType")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if mime != "image/png" {
        return Err(format!("the screenshot is `{mime}`, expected `image/png`"));
    }
    let data = block
        .get("data")
        .and_then(Value::as_str)
        .ok_or("the screenshot's image block has no `data`")?;
    // Some encoders wrap base64 in lines; the alphabet has no whitespace, so dropping it is safe.
    let data: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let image = base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|error| format!("the screenshot's image data is not valid base64: {error}"))?;
    if !image.starts_with(SIGNATURE) {
        return Err("the screenshot's image data is not a PNG".to_owned());
    }
    Ok(image)
}

/// Width and height from the IHDR chunk, which the PNG format puts first.
pub fn size(image: &[u8]) -> Result<(u64, u64), String> {
    let header = image.get(8..24).filter(|header| &header[4..8] == b"IHDR");
    let header = header.ok_or("the screenshot's PNG has no IHDR header")?;
    let number = |at: usize| {
        u64::from(u32::from_be_bytes([
            header[at],
            header[at + 1],
            header[at + 2],
            header[at + 3],
        ]))
    };
    Ok((number(8), number(12)))
}
