//! `mur-sample`: the sample app served as a devtools session.
//!
//! `mur-sample [--project <path>] [--port <n>] [--stdio]`. The default project is this
//! crate's own manifest, so a bare `mur-sample` always lands in the same lockfile slot.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use mur_server::{SessionOptions, sample};

#[derive(Parser)]
#[command(
    name = "mur-sample",
    version,
    about = "A headless sample app exposing the devtools tools over MCP"
)]
struct Args {
    /// Project file the session is for (names the lockfile)
    #[arg(long, value_name = "PATH", default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))]
    project: PathBuf,
    /// Port to listen on at 127.0.0.1 (default: a free one)
    #[arg(long, value_name = "N")]
    port: Option<u16>,
    /// Speak MCP over stdin/stdout instead of HTTP
    #[arg(long, conflicts_with = "port")]
    stdio: bool,
    /// Test only: also expose the MCP conformance suite's fixture tools
    #[arg(long, hide = true)]
    conformance_fixtures: bool,
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(error) => return usage_error(error),
    };
    let options = if args.stdio {
        SessionOptions::stdio(&args.project)
    } else {
        SessionOptions::http(&args.project)
    };
    let options = options
        .with_port(args.port)
        .with_server_info("mur-sample", env!("CARGO_PKG_VERSION"));
    let mut tools = sample::tool_set();
    if args.conformance_fixtures {
        mur_server::fixtures::add_conformance_fixtures(&mut tools);
    }
    mur_server::run(options, tools)
}

/// Help and version go to stdout with 0; a usage error exits 1, since 2 means transport here.
fn usage_error(error: clap::Error) -> ExitCode {
    let _ = error.print();
    if error.use_stderr() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
