//! Screenshots decode as real PNGs of the stated size and show the UI.

use crate::app::App;
use mur_server::ToolOutput;
use serde_json::{Value, json};

struct Picture {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
    details: Value,
}

impl Picture {
    fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let at = ((y * self.width + x) * 3) as usize;
        [self.rgb[at], self.rgb[at + 1], self.rgb[at + 2]]
    }

    /// How many pixels differ from the top-left one (the background).
    fn non_background(&self) -> usize {
        let background = self.pixel(0, 0);
        self.rgb
            .chunks(3)
            .filter(|pixel| *pixel != background)
            .count()
    }
}

fn screenshot(app: &App, args: Value) -> Picture {
    let Ok(ToolOutput::Image {
        png,
        width,
        height,
        details,
    }) = app.call("screenshot", args.clone())
    else {
        panic!("screenshot {args} did not return an image");
    };
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("a valid PNG header");
    let mut rgb = vec![0; reader.output_buffer_size().expect("buffer size")];
    let frame = reader.next_frame(&mut rgb).expect("PNG image data");
    assert_eq!(
        (frame.width, frame.height),
        (width, height),
        "stated size differs from the PNG"
    );
    assert_eq!(frame.color_type, png::ColorType::Rgb);
    rgb.truncate(frame.buffer_size());
    Picture {
        width,
        height,
        rgb,
        details,
    }
}

#[test]
fn window_screenshot_is_a_png_of_the_window_with_content() {
    let app = App::new();
    let shot = screenshot(&app, json!({}));
    assert_eq!((shot.width, shot.height), (640, 480));
    assert_eq!(
        shot.details,
        json!({ "width": 640, "height": 480, "window": "main", "selector": null, "chrome": false })
    );
    assert!(shot.non_background() > 1000, "the window looks empty");
    let about = screenshot(&app, json!({ "window": "about" }));
    assert_eq!((about.width, about.height), (400, 160));
}

#[test]
fn chrome_adds_a_title_bar() {
    let app = App::new();
    let shot = screenshot(&app, json!({ "includeChrome": true, "waitIdle": true }));
    assert_eq!((shot.width, shot.height), (640, 508));
    let bar = shot.pixel(600, 2);
    assert_ne!(
        bar,
        shot.pixel(600, 40),
        "title bar has the window's background colour"
    );
    let title_ink = (0..28)
        .flat_map(|y| (0..200).map(move |x| (x, y)))
        .filter(|&(x, y)| shot.pixel(x, y) != bar)
        .count();
    assert!(title_ink > 50, "no title text in the bar");
}

#[test]
fn element_screenshot_has_the_element_size() {
    let app = App::new();
    let shot = screenshot(&app, json!({ "selector": "#btn-inc" }));
    assert_eq!((shot.width, shot.height), (64, 32));
    assert_eq!(shot.details["selector"], "#btn-inc");
    assert!(shot.non_background() > 20, "the `+` label is missing");
    let message = app.err("screenshot", json!({ "selector": "#todo-input" }));
    assert!(
        message.starts_with("`#todo-input` is not visible"),
        "{message}"
    );
    assert_eq!(
        app.err("screenshot", json!({ "window": "nope" })),
        "no window `nope` (windows: main, about)"
    );
}

#[test]
fn screenshots_follow_the_app_state() {
    let app = App::new();
    let before = screenshot(&app, json!({ "selector": "#count" }));
    app.ok(
        "fire",
        json!({ "target": "counter.set", "args": { "value": 88 } }),
    );
    let after = screenshot(&app, json!({ "selector": "#count" }));
    assert_ne!(before.rgb, after.rgb, "the count is not drawn");

    let light = screenshot(&app, json!({}));
    app.ok("switchComponent", json!({ "component": "settings" }));
    app.ok("toggle", json!({ "selector": "#dark-mode" }));
    let dark = screenshot(&app, json!({}));
    let luminance = |shot: &Picture| shot.rgb.iter().map(|&v| u64::from(v)).sum::<u64>();
    assert!(
        luminance(&dark) < luminance(&light),
        "dark mode is not darker"
    );
}

#[test]
fn wait_idle_captures_after_pending_todos_arrive() {
    let app = App::showing("todo");
    let empty_list = screenshot(&app, json!({ "selector": "#todo-list" }));
    app.ok(
        "type",
        json!({ "selector": "#todo-input", "text": "water plants" }),
    );
    app.ok("click", json!({ "selector": "#todo-add" }));
    let with_item = screenshot(&app, json!({ "selector": "#todo-list", "waitIdle": true }));
    assert_eq!(
        app.app_state()["todo"]["pending"],
        0,
        "waitIdle returned before the todo arrived"
    );
    assert_ne!(with_item.rgb, empty_list.rgb, "the new todo is not drawn");
}
