//! The smallest devtools session: an `echo` tool (JSON), a `pixel` tool (a PNG
//! image), a `fail` tool (a tool error) and a `reload` tool.
//!
//! `cargo run -p mur-server --example minimal_session -- --project <path> [--port N] [--stdio]`

use std::process::ExitCode;

use clap::Parser;
use mur_server::{SessionOptions, SessionTransport, ToolHints, ToolOutput, ToolSet, ToolSpec};
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
        ToolSpec::new(
            "pixel",
            "A 1x1 PNG",
            json!({"type": "object"}),
            ToolHints::READ_ONLY,
        ),
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
        ToolSpec::new(
            "fail",
            "Always fails",
            json!({"type": "object"}),
            ToolHints::READ_ONLY,
        ),
        |_, _| async { Err("no element matches `#missing`".into()) },
    );
    let destructive = ToolHints {
        destructive: true,
        ..ToolHints::ACTION
    };
    tools.add(
        ToolSpec::new(
            "reload",
            "Restart the app",
            json!({"type": "object"}),
            destructive,
        ),
        |_, session| async move {
            session.request_reload();
            Ok(ToolOutput::Json(json!({ "reloading": true })))
        },
    );
    tools
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
