//! The settings component: a dark-mode toggle, a theme choice list, an "Advanced" expander
//! whose children are hidden until expanded, and a scrollable log of 200 lines.

use crate::element::{Binding, Element, Field, Flag, Kind, ListKind, Rect, Scroll};
use crate::state::{AppState, LOG_LINES, THEMES, log_line};
use crate::tree::{NodeId, Tree};

use super::layout::{GLYPH, text_width};

const EXPANDER_HEADER: Rect = Rect::new(16, 196, 608, 28);
const LOG_BOTTOM: i32 = 468;
const LOG_LINE_HEIGHT: i32 = 18;
const LOG_PADDING: i32 = 4;

pub fn build(tree: &mut Tree, panel: NodeId, state: &AppState) -> &'static str {
    let dark = Element::for_flag(
        Kind::Toggle,
        "dark-mode",
        "Dark mode",
        Flag::DarkMode,
        state.dark_mode,
    );
    tree.add(panel, dark.at(Rect::new(16, 56, 240, 28)));
    build_theme_list(tree, panel, state);
    let expander_bottom = build_advanced(tree, panel, state);
    let label = Element::new(Kind::Text, "log-label", "Log label", "Log").at(Rect::new(
        16,
        expander_bottom + 8,
        96,
        GLYPH,
    ));
    tree.add(panel, label);
    build_log(tree, panel, state, expander_bottom + 32);
    file!()
}

fn build_theme_list(tree: &mut Tree, panel: NodeId, state: &AppState) {
    let mut list = Element::new(Kind::List, "theme", "Theme", "")
        .at(Rect::new(16, 92, 240, 96))
        .bound(Binding::List(ListKind::Theme));
    list.value = Some(THEMES[state.theme].to_owned());
    let list = tree.add(panel, list);
    for (index, theme) in THEMES.iter().enumerate() {
        let bounds = Rect::new(20, 96 + index as i32 * 30, 232, 28);
        let mut item = Element::new(
            Kind::ListItem,
            format!("theme-{}", theme.to_lowercase()),
            *theme,
            *theme,
        )
        .at(bounds)
        .bound(Binding::Item(ListKind::Theme, index as u64));
        item.selected = Some(state.theme == index);
        tree.add(list, item);
    }
}

/// Builds the expander and its children; returns the y where the next element may start.
fn build_advanced(tree: &mut Tree, panel: NodeId, state: &AppState) -> i32 {
    let open = state.advanced_open;
    let height = if open { 100 } else { EXPANDER_HEADER.height };
    let mut expander = Element::new(Kind::Expander, "advanced", "Advanced", "Advanced")
        .at(Rect {
            height,
            ..EXPANDER_HEADER
        })
        .bound(Binding::Advanced);
    expander.expanded = Some(open);
    let expander = tree.add(panel, expander);
    let mut verbose = Element::for_flag(
        Kind::CheckBox,
        "verbose",
        "Verbose logging",
        Flag::Verbose,
        state.verbose,
    )
    .at(Rect::new(32, 228, 320, 28));
    verbose.visible = open;
    tree.add(expander, verbose);
    let mut cache = Element::for_field(
        "cache-size",
        "Cache size (MB)",
        Field::CacheSize,
        &state.cache_size,
    )
    .at(Rect::new(32, 260, 200, 32));
    cache.visible = open;
    tree.add(expander, cache);
    EXPANDER_HEADER.y + height
}

fn build_log(tree: &mut Tree, panel: NodeId, state: &AppState, top: i32) {
    let viewport = Rect::new(16, top, 608, LOG_BOTTOM - top);
    let (max_x, max_y) = log_scroll_range(viewport);
    let (x, y) = (
        state.log_scroll.0.clamp(0, max_x),
        state.log_scroll.1.clamp(0, max_y),
    );
    let mut log = Element::new(Kind::ScrollViewer, "log", "Log", "")
        .at(viewport)
        .bound(Binding::Log);
    log.scroll = Some(Scroll { x, y, max_x, max_y });
    let log = tree.add(panel, log);
    for index in 0..LOG_LINES {
        let text = log_line(index);
        let line_y = viewport.y + LOG_PADDING + index as i32 * LOG_LINE_HEIGHT - y;
        let bounds = Rect::new(
            viewport.x + LOG_PADDING - x,
            line_y,
            text_width(&text),
            GLYPH,
        );
        tree.add(
            log,
            Element::new(
                Kind::Text,
                format!("log-{}", index + 1),
                format!("Log line {}", index + 1),
                text,
            )
            .at(bounds),
        );
    }
}

/// How far the log can scroll each way, given its viewport.
pub fn log_scroll_range(viewport: Rect) -> (i32, i32) {
    let widest = (0..LOG_LINES)
        .map(|index| text_width(&log_line(index)))
        .max()
        .unwrap_or(0);
    let content_width = widest + 2 * LOG_PADDING;
    let content_height = LOG_LINES as i32 * LOG_LINE_HEIGHT + 2 * LOG_PADDING;
    (
        (content_width - viewport.width).max(0),
        (content_height - viewport.height).max(0),
    )
}
