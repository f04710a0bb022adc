//! Screenshots: a window (or one element's area of it) rendered to PNG.

mod canvas;
mod paint;

use canvas::Canvas;
use paint::Palette;

use super::element::Rect;
use super::state::AppState;
use super::tree::{NodeId, Tree};
use super::view;

/// Height of the title bar `includeChrome` adds.
pub const TITLE_BAR_HEIGHT: i32 = 28;

/// An encoded screenshot.
pub struct Shot {
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// Render `window`, cropped to `area` when given, with a title bar when `chrome` is set.
pub fn screenshot(
    tree: &Tree,
    state: &AppState,
    window: NodeId,
    area: Option<Rect>,
    chrome: bool,
) -> Result<Shot, String> {
    let palette = Palette::new(state.dark_mode, state.theme);
    let bounds = tree.element(window).bounds;
    let mut canvas = Canvas::new(bounds.width, bounds.height, palette.background);
    paint::paint_window(&mut canvas, tree, window, &palette);
    if let Some(area) = area {
        canvas = canvas.crop(area);
    }
    if canvas.width() == 0 || canvas.height() == 0 {
        return Err("the element has no area on screen to capture".into());
    }
    if chrome {
        let title = view::window_title(&tree.element(window).id);
        canvas = canvas.below_band(TITLE_BAR_HEIGHT, palette.accent, |band| {
            band.text(8, 6, title, palette.on_accent)
        });
    }
    let png = canvas.encode_png()?;
    Ok(Shot {
        png,
        width: canvas.width() as u32,
        height: canvas.height() as u32,
    })
}
