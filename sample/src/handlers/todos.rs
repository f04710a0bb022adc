//! Todo tools that talk to the client while they run: `exportTodos` reports its
//! progress and logs, `clearTodos` asks for a confirmation before it destroys anything.

use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use mur_server::{
    Asked, Content, InputRequired, LogLevel, Question, ResourceContents, SessionControl, ToolHints,
    ToolOutput, ToolResult, ToolSet, ToolSpec,
};

use super::registration::{NoArgs, object_schema, register};
use crate::app::SampleApp;

/// URI of the JSON document an export embeds.
pub const EXPORT_URI: &str = "app://todos/export.json";

pub fn register_tools(tools: &mut ToolSet, app: &SampleApp) {
    register_export(tools, app);
    register_clear(tools, app);
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ExportArgs {
    /// Pause per todo, as a slow export to a file or a server would take.
    #[serde(default = "default_delay")]
    delay_ms: u64,
}

fn default_delay() -> u64 {
    100
}

fn register_export(tools: &mut ToolSet, app: &SampleApp) {
    let schema = object_schema(
        json!({ "delayMs": { "type": "integer", "minimum": 0, "maximum": 2000, "default": 100,
            "description": "time each todo takes to export, in ms" } }),
        &[],
    );
    let description = "Export the todo list, one todo at a time: reports progress (send a `progressToken`) \
and logs as it goes; returns a Markdown list and the same todos as an embedded JSON document.";
    let spec = ToolSpec::new("exportTodos", description, schema, ToolHints::READ_ONLY);
    register(tools, app, spec, export);
}

/// `exportTodos`: the todos one at a time, each reported as progress and in the log.
async fn export(app: SampleApp, args: ExportArgs, control: SessionControl) -> ToolResult {
    if args.delay_ms > 2000 {
        return Err(format!("delayMs {} is above the 2000 ms limit", args.delay_ms).into());
    }
    let todos = app.lock().todos.clone();
    let total = todos.len();
    control
        .log(LogLevel::Info, format!("exporting {total} todo(s)"))
        .await;
    control
        .progress(0.0, Some(total as f64), Some("starting the export"))
        .await;
    let mut lines = Vec::with_capacity(total);
    for (done, todo) in todos.iter().enumerate() {
        tokio::time::sleep(Duration::from_millis(args.delay_ms)).await;
        lines.push(format!(
            "- [{}] {}",
            if todo.done { "x" } else { " " },
            todo.text
        ));
        let message = format!("exported {} of {total}", done + 1);
        control
            .progress((done + 1) as f64, Some(total as f64), Some(&message))
            .await;
        control.log(LogLevel::Debug, message).await;
    }
    let items: Vec<Value> = todos
        .iter()
        .map(|todo| json!({ "id": todo.id, "text": todo.text, "done": todo.done }))
        .collect();
    let document = json!({ "todos": items }).to_string();
    let markdown = if lines.is_empty() {
        "The todo list is empty.".to_owned()
    } else {
        lines.join("\n")
    };
    control
        .log(LogLevel::Info, format!("exported {total} todo(s)"))
        .await;
    Ok(ToolOutput::Content {
        blocks: vec![
            Content::text(markdown),
            Content::Resource(ResourceContents::text(
                EXPORT_URI,
                "application/json",
                document,
            )),
        ],
        structured: Some(json!({ "exported": total })),
    })
}

fn register_clear(tools: &mut ToolSet, app: &SampleApp) {
    let description = "Remove every todo, after the user confirms (the client is asked: \
`elicitation/create`, or an input-required result on 2026-07-28). Needs a client that can ask its user.";
    let hints = ToolHints {
        read_only: false,
        destructive: true,
        idempotent: true,
    };
    let spec = ToolSpec::new(
        "clearTodos",
        description,
        object_schema(json!({}), &[]),
        hints,
    );
    register(tools, app, spec, |app, _: NoArgs, control| async move {
        let count = app.lock().todos.len();
        if count == 0 {
            return Ok(ToolOutput::Json(json!({ "cleared": 0, "remaining": 0 })));
        }
        let question = Question::elicit(
            format!("Clear all {count} todo(s)? This cannot be undone."),
            json!({
                "type": "object",
                "properties": { "confirm": { "type": "boolean", "title": "Clear them", "default": false } },
                "required": ["confirm"]
            }),
        );
        // 2026-07-28: the count asked about travels (sealed) with the question; if
        // the list changed before the answer came, ask again about the new count.
        let asked_about = control.state().and_then(|state| state["count"].as_u64());
        let answer = match asked_about {
            Some(asked) if asked != count as u64 => None,
            _ => match control.ask("confirm", question.clone()).await? {
                Asked::Answered(answer) => Some(answer),
                Asked::Pending(input) => {
                    return Ok(ToolOutput::InputRequired(
                        input.with_state(json!({ "count": count })),
                    ));
                }
            },
        };
        let Some(answer) = answer else {
            return Ok(ToolOutput::InputRequired(
                InputRequired::new()
                    .ask("confirm", question)
                    .with_state(json!({ "count": count })),
            ));
        };
        let confirmed = answer["action"] == "accept" && answer["content"]["confirm"] == true;
        if !confirmed {
            return Ok(ToolOutput::Json(
                json!({ "cleared": 0, "remaining": count, "reason": "not confirmed" }),
            ));
        }
        app.lock().clear_todos();
        control
            .log(LogLevel::Notice, format!("cleared {count} todo(s)"))
            .await;
        Ok(ToolOutput::Json(
            json!({ "cleared": count, "remaining": 0 }),
        ))
    });
}
