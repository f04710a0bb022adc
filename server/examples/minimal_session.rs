//! The smallest devtools session: an `echo` tool (JSON), a `pixel` tool (a PNG
//! image), a `fail` tool (a tool error) and a `reload` tool; `steps` (progress and
//! log messages), `confirm` (asks the user), `mixed` (text, image, audio and an
//! embedded resource in one result); a resource, a resource template and a prompt.
//!
//! `cargo run -p mur-server --example minimal_session -- --project <path> [--port N] [--stdio]`

use std::process::ExitCode;

use clap::Parser;
use mur_server::{
    Asked, Content, LogLevel, PromptArgument, PromptMessage, PromptOutput, PromptSpec, Question,
    ResourceContents, ResourceSpec, ResourceTemplateSpec, SessionControl, SessionOptions,
    SessionTransport, ToolError, ToolHints, ToolOutput, ToolSet, ToolSpec,
};
use serde_json::{Value, json};

#[derive(Parser)]
struct Args {
    /// The project file this session is for.
    #[arg(long)]
    project: std::path::PathBuf,
    /// Port on 127.0.0.1 (default: any free port).
    #[arg(long)]
    port: Option<u16>,
    /// Serve MCP over stdin/stdout instead of HTTP.
    #[arg(long)]
    stdio: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut options = SessionOptions::http(args.project).with_port(args.port);
    if args.stdio {
        options.transport = SessionTransport::Stdio;
    }
    mur_server::run(
        options.with_server_info("minimal-session", "0.0.1"),
        tools(),
    )
}

fn tools() -> ToolSet {
    let mut tools = ToolSet::new();
    let echo_schema = json!({"type": "object", "properties": {"text": {"type": "string"}}});
    tools.add(
        ToolSpec::new(
            "echo",
            "Echo `text` back",
            echo_schema,
            ToolHints::READ_ONLY,
        ),
        |args: Value, _| async move {
            Ok(ToolOutput::Json(
                json!({ "echo": args.get("text").cloned().unwrap_or(Value::Null) }),
            ))
        },
    );
    tools.add(
        without_arguments("pixel", "A 1x1 PNG", ToolHints::READ_ONLY),
        |_, _| async {
            Ok(ToolOutput::Image {
                png: one_pixel_png(),
                width: 1,
                height: 1,
                details: json!({ "window": "main" }),
            })
        },
    );
    tools.add(
        without_arguments("fail", "Always fails", ToolHints::READ_ONLY),
        |_, _| async { Err("no element matches `#missing`".into()) },
    );
    let destructive = ToolHints {
        destructive: true,
        ..ToolHints::ACTION
    };
    tools.add(
        without_arguments("reload", "Restart the app", destructive),
        |_, session| async move {
            session.request_reload();
            Ok(ToolOutput::Json(json!({ "reloading": true })))
        },
    );
    add_talking_tools(&mut tools);
    add_resources_and_prompts(&mut tools);
    tools
}

/// Tools that talk to the client while they run.
fn add_talking_tools(tools: &mut ToolSet) {
    tools.add(
        without_arguments(
            "steps",
            "Three steps, each reported as progress and logged",
            ToolHints::READ_ONLY,
        ),
        |_, control: SessionControl| async move {
            for step in 1..=3 {
                control
                    .progress(f64::from(step), Some(3.0), Some(&format!("step {step}")))
                    .await;
                control.log(LogLevel::Info, format!("step {step}")).await;
                control
                    .log(LogLevel::Debug, json!({ "detail": step }))
                    .await;
            }
            Ok(ToolOutput::Json(json!({ "steps": 3 })))
        },
    );
    tools.add(
        without_arguments("confirm", "Asks the user to confirm", ToolHints::ACTION),
        |_, control: SessionControl| async move {
            let question = Question::elicit(
                "Go ahead?",
                json!({ "type": "object", "properties": { "ok": { "type": "boolean" } }, "required": ["ok"] }),
            );
            Ok(match control.ask("go", question).await? {
                Asked::Answered(answer) => ToolOutput::Json(json!({
                    "confirmed": answer["action"] == "accept" && answer["content"]["ok"] == true
                })),
                Asked::Pending(input) => ToolOutput::InputRequired(input.with_state(json!({ "asked": "go" }))),
            })
        },
    );
    tools.add(
        without_arguments(
            "mixed",
            "Text, an image, a sound and an embedded resource",
            ToolHints::READ_ONLY,
        ),
        |_, _| async {
            Ok(ToolOutput::Content {
                blocks: vec![
                    Content::text("four blocks"),
                    Content::png(one_pixel_png()),
                    Content::Audio {
                        data: b"RIFF....WAVE".to_vec(),
                        mime_type: "audio/wav".into(),
                    },
                    Content::Resource(ResourceContents::text(
                        "example://readme",
                        "text/plain",
                        README,
                    )),
                ],
                structured: Some(json!({ "blocks": 4 })),
            })
        },
    );
}

/// The spec of a tool that takes no arguments.
fn without_arguments(name: &str, description: &str, hints: ToolHints) -> ToolSpec {
    ToolSpec::new(name, description, json!({"type": "object"}), hints)
}

const README: &str = "The minimal session serves four tools and this text.";

fn add_resources_and_prompts(tools: &mut ToolSet) {
    tools.add_resource(
        ResourceSpec::new(
            "example://readme",
            "readme",
            "What this session is",
            "text/plain",
        ),
        |uri, _| async move { Ok(vec![ResourceContents::text(uri, "text/plain", README)]) },
    );
    tools.add_resource_template(
        ResourceTemplateSpec::new(
            "example://items/{id}",
            "item",
            "Item number `id`",
            "application/json",
        )
        .with_title("Item by number"),
        |uri, vars, _| async move {
            let id: u32 = vars["id"].parse().map_err(|_| {
                ToolError::invalid(format!("item ids are numbers, not `{}`", vars["id"]))
            })?;
            let text = json!({ "id": id, "square": id * id }).to_string();
            Ok(vec![ResourceContents::text(uri, "application/json", text)])
        },
    );
    tools.add_prompt(
        PromptSpec::new("greet", "Greets someone")
            .with_argument(PromptArgument::required("name", "who to greet"))
            .with_argument(PromptArgument::optional("style", "`warm` or `plain`")),
        |args, _| async move {
            let greeting = match args.get("style").map(String::as_str) {
                Some("warm") => "A very warm welcome",
                _ => "Hello",
            };
            Ok(PromptOutput::messages([PromptMessage::user(
                Content::text(format!("{greeting}, {}!", args["name"])),
            )]))
        },
    );
}

fn one_pixel_png() -> Vec<u8> {
    ONE_RED_PIXEL.to_vec()
}

/// A 1x1 opaque red RGBA PNG (IHDR, one zlib-compressed IDAT row, IEND), spelled out so
/// the example needs no image encoder.
const ONE_RED_PIXEL: &[u8] = &[
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0,
    0, 0, 31, 21, 196, 137, 0, 0, 0, 13, 73, 68, 65, 84, 120, 156, 99, 248, 207, 192, 240, 31, 0,
    5, 0, 1, 255, 137, 153, 61, 29, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];
