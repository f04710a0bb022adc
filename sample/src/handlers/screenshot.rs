//! The screenshot tool: a window or one element rendered to PNG.

use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::json;

use mur_server::{ToolHints, ToolOutput, ToolResult, ToolSet, ToolSpec};

use super::registration::{SELECTOR_HELP, object_schema, register, selector_property};
use crate::actions::ensure_usable;
use crate::app::{SampleApp, find_some, window_node};
use crate::render;
use crate::selector::Purpose;
use crate::view;

/// The longest `waitIdle` waits for background work before capturing anyway.
const IDLE_LIMIT: Duration = Duration::from_secs(5);
const POLL: Duration = Duration::from_millis(20);

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ScreenshotArgs {
    selector: Option<String>,
    window: Option<String>,
    #[serde(default)]
    wait_idle: bool,
    #[serde(default)]
    include_chrome: bool,
}

pub fn register_tool(tools: &mut ToolSet, app: &SampleApp) {
    let schema = object_schema(
        json!({
            "selector": selector_property("capture only this element's area"),
            "window": { "type": "string", "description": "window id (`main`, `about`); default: the selected element's window, else `main`" },
            "waitIdle": { "type": "boolean", "default": false, "description": "first wait (up to 5 s) until no todo is still being added" },
            "includeChrome": { "type": "boolean", "default": false, "description": "add a title bar with the window title above the image" },
        }),
        &[],
    );
    let description =
        format!("Render a window, or the area of one element, to a PNG image. {SELECTOR_HELP}");
    let spec = ToolSpec::new("screenshot", description, schema, ToolHints::READ_ONLY);
    register(tools, app, spec, |app, args, _| screenshot(app, args));
}

/// `screenshot`: the capture, after the background work if `waitIdle` asks to wait.
async fn screenshot(app: SampleApp, args: ScreenshotArgs) -> ToolResult {
    if args.wait_idle {
        wait_idle(&app).await;
    }
    capture(&app, &args)
}

async fn wait_idle(app: &SampleApp) {
    let start = Instant::now();
    while app.lock().pending_todos > 0 && start.elapsed() < IDLE_LIMIT {
        tokio::time::sleep(POLL).await;
    }
}

fn capture(app: &SampleApp, args: &ScreenshotArgs) -> ToolResult {
    let state = app.lock();
    let tree = view::build(&state);
    let (window, area) = match &args.selector {
        Some(selector) => {
            let id = find_some(&tree, selector, args.window.as_deref(), Purpose::Act)?[0];
            if !tree.element(id).visible {
                ensure_usable(&tree, id)?;
            }
            (tree.window_of(id), Some(tree.element(id).bounds))
        }
        None => (
            window_node(&tree, args.window.as_deref().unwrap_or("main"))?,
            None,
        ),
    };
    let shot = render::screenshot(&tree, &state, window, area, args.include_chrome)?;
    let details = json!({
        "width": shot.width,
        "height": shot.height,
        "window": tree.element(window).id,
        "selector": args.selector,
        "chrome": args.include_chrome,
    });
    Ok(ToolOutput::Image {
        png: shot.png,
        width: shot.width,
        height: shot.height,
        details,
    })
}
