//! `mur-sample`: the sample app served as a devtools session.
//!
//! `mur-sample [--project <path>] [--port <n>] [--stdio]`. The default project is this
//! crate's own manifest, so a bare `mur-sample` always lands in the same lockfile slot.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use mur_server::{HttpLimits, SessionOptions, UsageLogging};

#[derive(Parser)]
#[command(
    name = "mur-sample",
    version,
    about = "A headless sample app exposing the devtools tools over MCP"
)]
struct Args {
    /// Project file the session is for (names the lockfile; default: the Cargo.toml of the
    /// source tree mur-sample was built from)
    // Its default not shown: an absolute path of the machine that built it, different on
    // each (and the help's snapshot with it).
    #[arg(long, value_name = "PATH", hide_default_value = true,
          default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))]
    project: PathBuf,
    /// Port to listen on at 127.0.0.1 (default: a free one)
    #[arg(long, value_name = "N")]
    port: Option<u16>,
    /// Speak MCP over stdin/stdout instead of HTTP
    #[arg(long, conflicts_with = "port")]
    stdio: bool,
    /// Record every tool call served, from any client, beside mur's own usage log
    /// (`$XDG_STATE_HOME/mur/usage/sessions/<project hash>.jsonl`)
    #[arg(long)]
    usage: bool,
    /// Record every tool call served to this file instead
    #[arg(long, value_name = "PATH", conflicts_with = "usage")]
    usage_log: Option<PathBuf>,
    /// Test only: also expose the MCP conformance suite's fixture tools
    #[arg(long, hide = true)]
    conformance_fixtures: bool,
    /// Test only: the HTTP header-read (and keep-alive idle) timeout, in ms (default 10000)
    #[arg(long, hide = true, value_name = "MS")]
    http_header_timeout_ms: Option<u64>,
    /// Test only: the HTTP request-body timeout, in ms (default 10000)
    #[arg(long, hide = true, value_name = "MS")]
    http_body_timeout_ms: Option<u64>,
    /// Test only: the most HTTP connections held open (default 256)
    #[arg(long, hide = true, value_name = "N")]
    http_max_connections: Option<usize>,
    /// Test only: the most calls running as tasks (default 64)
    #[arg(long, hide = true, value_name = "N")]
    max_tasks: Option<usize>,
    /// Test only: the most tasks kept, running or ended (default 256)
    #[arg(long, hide = true, value_name = "N")]
    max_kept_tasks: Option<usize>,
}

impl Args {
    fn usage_logging(&self) -> UsageLogging {
        match (&self.usage_log, self.usage) {
            (Some(path), _) => UsageLogging::At(path.clone()),
            (None, true) => UsageLogging::BesideLockfile,
            (None, false) => UsageLogging::Off,
        }
    }

    /// The default limits, with the test-only overrides applied.
    fn http_limits(&self) -> HttpLimits {
        let defaults = HttpLimits::default();
        let ms = |value: Option<u64>, default| value.map_or(default, Duration::from_millis);
        HttpLimits {
            header_read_timeout: ms(self.http_header_timeout_ms, defaults.header_read_timeout),
            body_read_timeout: ms(self.http_body_timeout_ms, defaults.body_read_timeout),
            max_connections: self
                .http_max_connections
                .unwrap_or(defaults.max_connections),
            max_tasks: self.max_tasks.unwrap_or(defaults.max_tasks),
            max_kept_tasks: self.max_kept_tasks.unwrap_or(defaults.max_kept_tasks),
        }
    }
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
        .with_http_limits(args.http_limits())
        .with_server_info("mur-sample", env!("CARGO_PKG_VERSION"))
        .with_usage(args.usage_logging());
    let mut tools = mur_sample::tool_set();
    if args.conformance_fixtures {
        mur_sample::fixtures::add_conformance_fixtures(&mut tools);
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
