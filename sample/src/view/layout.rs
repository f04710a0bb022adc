//! The metrics every page is laid out with: the UI font's glyph size and text widths.

/// Glyph size on screen: font8x8 scaled 2x.
pub const GLYPH: i32 = 16;

/// Width on screen of `text` in the UI font.
pub fn text_width(text: &str) -> i32 {
    text.chars().count() as i32 * GLYPH
}
