//! The images an agent received in tool results (an MCP `screenshot`, Claude Code's
//! `Read` of a PNG), counted as a model host gives them to the model: an image, not the
//! base64 text that carries it over the wire. Counted as text, one 40 KB screenshot was
//! ~30 000 `o200k_base` tokens, twenty times what the agent reported for its whole run.
//!
//! The estimate is Anthropic's, documented under "Calculate image costs" of
//! <https://docs.anthropic.com/en/docs/build-with-claude/vision>: tokens ≈ width × height
//! / 750, for an image first scaled down (aspect kept) until its long edge is at most
//! 1568 px and it is at most ~1600 tokens. Other hosts differ (OpenAI counts 512 px
//! tiles), so like the text counts it is an estimate; the report says which. The pixel
//! size comes from the image's own header (PNG or JPEG); an image of another format, or
//! whose header cannot be read, counts no tokens and is counted apart, said so.

use base64::Engine as _;
use serde_json::Value;

/// An image a tool result carried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// The media type the block named (`image/png`), or `""`.
    pub media_type: String,
    /// The image's own size: what its base64 decodes to (the base64 text's length when
    /// it does not decode).
    pub bytes: u64,
    /// Width and height in pixels, from its PNG or JPEG header; `None` for another
    /// format or a header that could not be read.
    pub pixels: Option<(u32, u32)>,
}

/// The longest edge, and the most tokens, of an image as Anthropic gives it to the model
/// (larger ones are scaled down first; see the module's documentation).
const LONG_EDGE: f64 = 1568.0;
const MAX_TOKENS: f64 = 1600.0;
/// Pixels per token in Anthropic's estimate.
const PIXELS_PER_TOKEN: f64 = 750.0;

impl Image {
    /// The image of a content block: MCP's `{"type":"image","data":…,"mimeType":…}` or
    /// the Anthropic API's `{"type":"image","source":{"type":"base64","data":…,
    /// "media_type":…}}` (how Claude Code's stream gives an MCP tool's image and its own
    /// `Read` of one). `None` for any other block.
    pub fn of_block(block: &Value) -> Option<Image> {
        if block["type"] != "image" {
            return None;
        }
        let source = if block["source"].is_object() {
            &block["source"]
        } else {
            block
        };
        let data = source["data"].as_str()?;
        let media_type = source["mimeType"]
            .as_str()
            .or_else(|| source["media_type"].as_str())
            .unwrap_or_default()
            .to_owned();
        Some(
            match base64::engine::general_purpose::STANDARD.decode(data) {
                Ok(bytes) => Image {
                    media_type,
                    bytes: bytes.len() as u64,
                    pixels: pixels(&bytes),
                },
                Err(_) => Image {
                    media_type,
                    bytes: data.len() as u64,
                    pixels: None,
                },
            },
        )
    }

    /// The tokens the model is given for it by Anthropic's estimate (module
    /// documentation); `None` when its pixel size is unknown.
    pub fn tokens(&self) -> Option<u64> {
        let (width, height) = self.pixels?;
        let (width, height) = (f64::from(width), f64::from(height));
        let scale = (LONG_EDGE / width.max(height)).min(1.0);
        let tokens = (width * scale) * (height * scale) / PIXELS_PER_TOKEN;
        Some(tokens.min(MAX_TOKENS).ceil() as u64)
    }

    /// The image as a trace shows it in place of its data: `[image/png 800×600 px,
    /// 31.2 KiB]`.
    pub fn shown(&self) -> String {
        let kind = if self.media_type.is_empty() {
            "image"
        } else {
            &self.media_type
        };
        let size = mur_core::settings::human_bytes(self.bytes);
        match self.pixels {
            Some((width, height)) => format!("[{kind} {width}×{height} px, {size}]"),
            None => format!("[{kind} of unknown pixel size, {size}]"),
        }
    }
}

/// Width and height from a PNG's IHDR chunk or a JPEG's start-of-frame segment.
fn pixels(bytes: &[u8]) -> Option<(u32, u32)> {
    png_pixels(bytes).or_else(|| jpeg_pixels(bytes))
}

/// A PNG: the signature, then the IHDR chunk, whose data begins with the width and the
/// height, 4 bytes each, big-endian (PNG specification, 11.2.2).
fn png_pixels(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if !bytes.starts_with(SIGNATURE) || bytes.get(12..16)? != b"IHDR" {
        return None;
    }
    let word = |at: usize| Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    Some((word(16)?, word(20)?))
}

/// A JPEG: segments after the SOI marker, each `FF xx` and a 2-byte length, until a
/// start-of-frame (SOF0–SOF15 but DHT C4, JPG C8 and DAC CC), whose data is the sample
/// precision, then the height and the width, 2 bytes each, big-endian (ITU T.81, B.2.2).
fn jpeg_pixels(bytes: &[u8]) -> Option<(u32, u32)> {
    if !bytes.starts_with(&[0xFF, 0xD8]) {
        return None;
    }
    let mut at = 2;
    loop {
        let marker = *bytes.get(at + 1)?;
        if *bytes.get(at)? != 0xFF {
            return None;
        }
        let length = usize::from(u16::from_be_bytes([
            *bytes.get(at + 2)?,
            *bytes.get(at + 3)?,
        ]));
        if matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
            let half = |from: usize| -> Option<u32> {
                Some(u32::from(u16::from_be_bytes([
                    *bytes.get(from)?,
                    *bytes.get(from + 1)?,
                ])))
            };
            return Some((half(at + 7)?, half(at + 5)?));
        }
        at += 2 + length;
    }
}

/// A real PNG of `width`×`height`, as base64 (for tests).
#[cfg(test)]
pub fn png_base64(width: u32, height: u32) -> String {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Grayscale);
    let mut writer = encoder.write_header().expect("header");
    writer
        .write_image_data(&vec![0; (width * height) as usize])
        .expect("data");
    drop(writer);
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> String {
        png_base64(width, height)
    }

    #[test]
    fn an_mcp_image_block_is_its_pixels_not_its_base64() {
        let data = png(800, 600);
        let block = serde_json::json!({ "type": "image", "data": data, "mimeType": "image/png" });
        let image = Image::of_block(&block).expect("an image");
        assert_eq!(image.pixels, Some((800, 600)));
        assert_eq!(
            image.bytes as usize,
            data.len() / 4 * 3 - data.matches('=').count()
        );
        // 800 × 600 / 750.
        assert_eq!(image.tokens(), Some(640));
        assert!(
            image.shown().starts_with("[image/png 800×600 px, "),
            "{}",
            image.shown()
        );
    }

    #[test]
    fn an_anthropic_image_block_is_read_and_a_large_one_scaled_down() {
        let block = serde_json::json!({ "type": "image",
            "source": { "type": "base64", "media_type": "image/png", "data": png(3136, 100) } });
        let image = Image::of_block(&block).expect("an image");
        assert_eq!(image.pixels, Some((3136, 100)));
        // Scaled by half to a long edge of 1568: 1568 × 50 / 750 = 104.5.
        assert_eq!(image.tokens(), Some(105));
        let huge = Image {
            pixels: Some((1568, 1568)),
            ..image
        };
        assert_eq!(huge.tokens(), Some(1600));
    }

    #[test]
    fn a_jpeg_header_gives_its_size() {
        // SOI, an APP0 segment of 16 bytes, SOF0: length 17, precision 8, height 480,
        // width 640.
        let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10];
        jpeg.extend([0; 14]);
        jpeg.extend([0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80]);
        assert_eq!(pixels(&jpeg), Some((640, 480)));
        assert_eq!(pixels(&jpeg[..10]), None, "cut short");
    }

    #[test]
    fn an_image_of_unknown_size_counts_no_tokens_and_other_blocks_are_no_image() {
        let gif = base64::engine::general_purpose::STANDARD.encode(b"GIF89a\x01\x00\x01\x00");
        let block = serde_json::json!({ "type": "image", "data": gif, "mimeType": "image/gif" });
        let image = Image::of_block(&block).expect("an image");
        assert_eq!(
            (image.bytes, image.pixels, image.tokens()),
            (10, None, None)
        );
        assert_eq!(image.shown(), "[image/gif of unknown pixel size, 10 bytes]");
        let not_base64 = serde_json::json!({ "type": "image", "data": "%%%%" });
        assert_eq!(Image::of_block(&not_base64).map(|i| i.bytes), Some(4));
        assert_eq!(
            Image::of_block(&serde_json::json!({ "type": "text", "text": "x" })),
            None
        );
    }
}
