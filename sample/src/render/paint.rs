//! How each kind of element looks: colours from the theme, boxes, text and control styling.

use crate::element::{Element, Kind, Rect};
use crate::tree::{NodeId, Tree};

use super::canvas::{Canvas, Color};

/// Colours for one combination of dark mode and theme.
pub struct Palette {
    pub background: Color,
    pub surface: Color,
    pub text: Color,
    pub muted: Color,
    pub border: Color,
    pub accent: Color,
    pub on_accent: Color,
    pub highlight: Color,
}

impl Palette {
    pub fn new(dark: bool, theme: usize) -> Self {
        let accent = match theme {
            1 => [46, 125, 50],
            2 => [230, 100, 40],
            _ => [25, 105, 210],
        };
        if dark {
            Self {
                background: [30, 30, 34],
                surface: [45, 45, 52],
                text: [235, 235, 235],
                muted: [120, 120, 128],
                border: [90, 90, 100],
                accent,
                on_accent: [255, 255, 255],
                highlight: [60, 70, 95],
            }
        } else {
            Self {
                background: [246, 246, 248],
                surface: [255, 255, 255],
                text: [25, 25, 30],
                muted: [160, 160, 168],
                border: [180, 180, 190],
                accent,
                on_accent: [255, 255, 255],
                highlight: [214, 228, 250],
            }
        }
    }
}

/// Paint every visible element of `window`, clipped to its scrolling ancestors.
pub fn paint_window(canvas: &mut Canvas, tree: &Tree, window: NodeId, palette: &Palette) {
    for id in tree.subtree(window) {
        let element = tree.element(id);
        if !element.visible {
            continue;
        }
        canvas.set_clip(clip_of(tree, id));
        paint_element(canvas, element, palette);
    }
}

fn clip_of(tree: &Tree, id: NodeId) -> Rect {
    let mut clip = tree.element(tree.window_of(id)).bounds;
    let mut current = tree.node(id).parent;
    while let Some(ancestor) = current {
        let element = tree.element(ancestor);
        if element.kind.clips_children() {
            clip = clip.intersection(&element.bounds);
        }
        current = tree.node(ancestor).parent;
    }
    clip
}

fn paint_element(canvas: &mut Canvas, element: &Element, palette: &Palette) {
    let b = element.bounds;
    match element.kind {
        Kind::Window => canvas.fill(b, palette.background),
        Kind::Panel => {}
        Kind::Text => canvas.text(b.x, b.y, &element.text, palette.text),
        Kind::Button => paint_button(canvas, element, palette),
        Kind::TextBox => paint_text_box(canvas, element, palette),
        Kind::List | Kind::ScrollViewer => paint_container(canvas, element, palette),
        Kind::ListItem => paint_list_item(canvas, element, palette),
        Kind::Toggle => paint_toggle(canvas, element, palette),
        Kind::CheckBox => paint_check_row(canvas, element, palette),
        Kind::Expander => paint_expander(canvas, element, palette),
    }
    if element.focused {
        canvas.outline(
            Rect::new(b.x - 2, b.y - 2, b.width + 4, b.height + 4),
            palette.accent,
        );
    }
}

fn centered_text_y(bounds: Rect) -> i32 {
    bounds.y + (bounds.height - 16) / 2
}

fn paint_button(canvas: &mut Canvas, element: &Element, palette: &Palette) {
    let b = element.bounds;
    let (fill, ink) = if element.enabled {
        (palette.accent, palette.on_accent)
    } else {
        (palette.surface, palette.muted)
    };
    canvas.fill(b, fill);
    canvas.outline(
        b,
        if element.enabled {
            palette.accent
        } else {
            palette.border
        },
    );
    let text_x = b.x + (b.width - crate::view::text_width(&element.text)) / 2;
    canvas.text(text_x, centered_text_y(b), &element.text, ink);
}

fn paint_text_box(canvas: &mut Canvas, element: &Element, palette: &Palette) {
    let b = element.bounds;
    canvas.fill(b, palette.surface);
    canvas.outline(
        b,
        if element.focused {
            palette.accent
        } else {
            palette.border
        },
    );
    canvas.text(b.x + 8, centered_text_y(b), &element.text, palette.text);
    if element.focused {
        let caret_x = b.x + 8 + crate::view::text_width(&element.text) + 1;
        canvas.fill(Rect::new(caret_x, b.y + 6, 2, b.height - 12), palette.text);
    }
}

fn paint_container(canvas: &mut Canvas, element: &Element, palette: &Palette) {
    let b = element.bounds;
    canvas.fill(b, palette.surface);
    canvas.outline(b, palette.border);
    let Some(scroll) = element.scroll.filter(|scroll| scroll.max_y > 0) else {
        return;
    };
    // A scrollbar thumb whose position follows the offset, so scrolling shows in screenshots.
    let track = b.height - 4;
    let thumb = (track * b.height / (b.height + scroll.max_y)).max(12);
    let thumb_y = b.y + 2 + (track - thumb) * scroll.y / scroll.max_y;
    canvas.fill(Rect::new(b.right() - 8, thumb_y, 6, thumb), palette.muted);
}

fn paint_list_item(canvas: &mut Canvas, element: &Element, palette: &Palette) {
    let b = element.bounds;
    if element.selected == Some(true) {
        canvas.fill(b, palette.highlight);
    }
    match element.checked {
        Some(_) => paint_check_row(canvas, element, palette),
        None => canvas.text(b.x + 8, centered_text_y(b), &element.text, palette.text),
    }
}

/// A check box square followed by the element's text.
fn paint_check_row(canvas: &mut Canvas, element: &Element, palette: &Palette) {
    let b = element.bounds;
    let square = Rect::new(b.x + 4, b.y + (b.height - 20) / 2, 20, 20);
    canvas.fill(square, palette.surface);
    canvas.outline(square, palette.border);
    if element.checked == Some(true) {
        canvas.fill(
            Rect::new(square.x + 4, square.y + 4, 12, 12),
            palette.accent,
        );
    }
    canvas.text(
        b.x + 32,
        centered_text_y(Rect {
            height: 28.min(b.height),
            ..b
        }),
        &element.text,
        palette.text,
    );
}

fn paint_toggle(canvas: &mut Canvas, element: &Element, palette: &Palette) {
    let b = element.bounds;
    let on = element.checked == Some(true);
    let track = Rect::new(b.x, b.y + (b.height - 24) / 2, 48, 24);
    canvas.fill(track, if on { palette.accent } else { palette.muted });
    let knob_x = if on { track.right() - 22 } else { track.x + 2 };
    canvas.fill(Rect::new(knob_x, track.y + 2, 20, 20), palette.on_accent);
    canvas.text(b.x + 60, centered_text_y(b), &element.text, palette.text);
}

fn paint_expander(canvas: &mut Canvas, element: &Element, palette: &Palette) {
    let header = Rect {
        height: 28,
        ..element.bounds
    };
    canvas.fill(
        Rect::new(header.x, header.bottom() - 1, header.width, 1),
        palette.border,
    );
    let marker = if element.expanded == Some(true) {
        "v"
    } else {
        ">"
    };
    canvas.text(
        header.x + 4,
        centered_text_y(header),
        marker,
        palette.accent,
    );
    canvas.text(
        header.x + 28,
        centered_text_y(header),
        &element.text,
        palette.text,
    );
}
