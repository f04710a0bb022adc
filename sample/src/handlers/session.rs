//! Tools that act on the app as a whole: switchComponent, fire and reload.

use serde::Deserialize;
use serde_json::{Value, json};

use mur_server::{ToolHints, ToolOutput, ToolResult, ToolSet, ToolSpec};

use super::registration::{object_schema, register_sync};
use crate::app::SampleApp;
use crate::events;
use crate::state::Component;

pub fn register(tools: &mut ToolSet, app: &SampleApp) {
    register_switch(tools, app);
    register_fire(tools, app);
    register_reload(tools, app);
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SwitchArgs {
    component: String,
}

fn register_switch(tools: &mut ToolSet, app: &SampleApp) {
    let names: Vec<&str> = Component::ALL.map(Component::name).to_vec();
    let schema = object_schema(
        json!({ "component": { "type": "string", "enum": names, "description": "component to show in the main window" } }),
        &["component"],
    );
    let description = "Show another component in the main window (counter, todo or settings); the others are hidden.";
    let spec = ToolSpec::new("switchComponent", description, schema, ToolHints::ACTION);
    register_sync(tools, app, spec, |app, args: SwitchArgs, _| {
        let component = Component::named(&args.component)?;
        let mut state = app.lock();
        let previous = state.active;
        state.switch_to(component);
        Ok(ToolOutput::Json(
            json!({ "active": component.name(), "previous": previous.name() }),
        ))
    });
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FireArgs {
    target: String,
    #[serde(default)]
    args: Value,
}

fn register_fire(tools: &mut ToolSet, app: &SampleApp) {
    let schema = object_schema(
        json!({
            "target": { "type": "string", "pattern": "^[A-Za-z]+\\.[A-Za-z]+$", "description": "`Component.event`, e.g. `counter.reset`" },
            "args": { "type": "object", "description": "event arguments, e.g. {\"value\": 5} for counter.set; an event refuses arguments it does not take" },
        }),
        &["target"],
    );
    let description = format!(
        "Raise a named component event. Events: {}.",
        events::known_events()
    );
    let spec = ToolSpec::new("fire", description, schema, ToolHints::ACTION);
    register_sync(tools, app, spec, |app, args: FireArgs, _| {
        let result = events::fire(&mut app.lock(), &args.target, &args.args)?;
        Ok(ToolOutput::Json(result))
    });
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReloadArgs {
    component: Option<String>,
}

fn register_reload(tools: &mut ToolSet, app: &SampleApp) {
    let schema = object_schema(
        json!({ "component": { "type": "string", "description": "component being reloaded (informational: the whole app restarts)" } }),
        &[],
    );
    let description = "Restart the app: answers first, then the app starts again (the same port, a new lockfile; a new pid, unless it runs in the foreground of a terminal). All state is lost.";
    let hints = ToolHints {
        destructive: true,
        ..ToolHints::ACTION
    };
    let spec = ToolSpec::new("reload", description, schema, hints);
    register_sync(
        tools,
        app,
        spec,
        |_, args: ReloadArgs, control| -> ToolResult {
            let component = args
                .component
                .as_deref()
                .map(Component::named)
                .transpose()?;
            control.request_reload();
            Ok(ToolOutput::Json(
                json!({ "reloading": true, "component": component.map(Component::name), "pid": std::process::id() }),
            ))
        },
    );
}
