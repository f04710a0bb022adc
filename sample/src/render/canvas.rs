//! A pixel buffer with clipped drawing primitives, text in font8x8 at 2x, and PNG encoding.

use font8x8::{BASIC_FONTS, UnicodeFonts};

use crate::element::Rect;

pub type Color = [u8; 3];

/// Scale applied to the 8x8 font so text is legible.
const FONT_SCALE: i32 = 2;

pub struct Canvas {
    width: i32,
    height: i32,
    pixels: Vec<Color>,
    /// Drawing outside this rectangle is discarded (a scroll viewer's viewport, say).
    clip: Rect,
}

impl Canvas {
    pub fn new(width: i32, height: i32, background: Color) -> Self {
        let size = (width.max(0) * height.max(0)) as usize;
        Self {
            width,
            height,
            pixels: vec![background; size],
            clip: Rect::new(0, 0, width, height),
        }
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    pub fn set_clip(&mut self, clip: Rect) {
        self.clip = clip.intersection(&Rect::new(0, 0, self.width, self.height));
    }

    pub fn fill(&mut self, rect: Rect, color: Color) {
        let area = rect.intersection(&self.clip);
        for y in area.y..area.bottom() {
            let row = (y * self.width) as usize;
            self.pixels[row + area.x as usize..row + area.right() as usize].fill(color);
        }
    }

    /// A one-pixel outline.
    pub fn outline(&mut self, rect: Rect, color: Color) {
        self.fill(Rect::new(rect.x, rect.y, rect.width, 1), color);
        self.fill(Rect::new(rect.x, rect.bottom() - 1, rect.width, 1), color);
        self.fill(Rect::new(rect.x, rect.y, 1, rect.height), color);
        self.fill(Rect::new(rect.right() - 1, rect.y, 1, rect.height), color);
    }

    /// Draw `text` with its top-left corner at (x, y); characters without a glyph show as `?`.
    pub fn text(&mut self, x: i32, y: i32, text: &str, color: Color) {
        let advance = 8 * FONT_SCALE;
        for (index, c) in text.chars().enumerate() {
            let glyph = BASIC_FONTS
                .get(c)
                .or_else(|| BASIC_FONTS.get('?'))
                .unwrap_or([0; 8]);
            self.glyph(x + index as i32 * advance, y, glyph, color);
        }
    }

    fn glyph(&mut self, x: i32, y: i32, glyph: [u8; 8], color: Color) {
        for (row, bits) in glyph.iter().enumerate() {
            for column in 0..8 {
                // font8x8 stores the leftmost pixel in the lowest bit.
                if bits & (1 << column) != 0 {
                    let pixel = Rect::new(
                        x + column * FONT_SCALE,
                        y + row as i32 * FONT_SCALE,
                        FONT_SCALE,
                        FONT_SCALE,
                    );
                    self.fill(pixel, color);
                }
            }
        }
    }

    /// A copy of the area `rect` (clipped to the canvas).
    pub fn crop(&self, rect: Rect) -> Canvas {
        let area = rect.intersection(&Rect::new(0, 0, self.width, self.height));
        let mut out = Canvas::new(area.width, area.height, [0, 0, 0]);
        for y in 0..area.height {
            let from = ((area.y + y) * self.width + area.x) as usize;
            let to = (y * area.width) as usize;
            out.pixels[to..to + area.width as usize]
                .copy_from_slice(&self.pixels[from..from + area.width as usize]);
        }
        out
    }

    /// This canvas drawn below a band of `band_height` pixels painted by `paint_band`.
    pub fn below_band(
        &self,
        band_height: i32,
        background: Color,
        paint_band: impl FnOnce(&mut Canvas),
    ) -> Canvas {
        let mut out = Canvas::new(self.width, self.height + band_height, background);
        paint_band(&mut out);
        let offset = (band_height * self.width) as usize;
        out.pixels[offset..].copy_from_slice(&self.pixels);
        out
    }

    pub fn encode_png(&self) -> Result<Vec<u8>, String> {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, self.width as u32, self.height as u32);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let data: Vec<u8> = self.pixels.iter().flatten().copied().collect();
        let mut writer = encoder
            .write_header()
            .map_err(|err| format!("could not encode the screenshot: {err}"))?;
        writer
            .write_image_data(&data)
            .map_err(|err| format!("could not encode the screenshot: {err}"))?;
        writer
            .finish()
            .map_err(|err| format!("could not encode the screenshot: {err}"))?;
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawing_is_clipped_to_the_canvas_and_clip_rect() {
        let mut canvas = Canvas::new(10, 10, [0, 0, 0]);
        canvas.fill(Rect::new(-5, -5, 100, 100), [9, 9, 9]);
        canvas.set_clip(Rect::new(0, 0, 2, 2));
        canvas.fill(Rect::new(0, 0, 10, 10), [1, 1, 1]);
        assert_eq!(canvas.pixels[0], [1, 1, 1]);
        assert_eq!(canvas.pixels[2], [9, 9, 9]);
    }

    #[test]
    fn text_sets_pixels() {
        let mut canvas = Canvas::new(16, 16, [0, 0, 0]);
        canvas.text(0, 0, "A", [255, 255, 255]);
        assert!(canvas.pixels.contains(&[255, 255, 255]));
    }
}
