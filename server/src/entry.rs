//! [`run`]: the two-line way for an app's `main` to become a devtools session.

use std::{io::IsTerminal, process::ExitCode, time::Duration};

use tracing::Level;
use tracing_subscriber::{
    filter::Targets, layer::SubscriberExt as _, util::SubscriberInitExt as _,
};

use crate::error::ServeError;
use crate::options::SessionOptions;
use crate::session::serve;
use crate::tools::ToolSet;

/// How long runtime shutdown waits for blocking work (a stdin read never ends on its own).
const RUNTIME_SHUTDOWN: Duration = Duration::from_millis(500);

/// Runs a session on a fresh tokio runtime and returns the exit code seed 000
/// prescribes: 0 after a clean stop, 3 when another session already holds the
/// project (with the one stderr line of §6), 1 for any other failure.
///
/// Logs go to stderr through `tracing` (`RUST_LOG` filters; default: info for
/// this crate, warnings elsewhere). stdout is left alone, so the stdio
/// transport can use it.
///
/// ```no_run
/// use mur_server::{SessionOptions, ToolHints, ToolOutput, ToolSet, ToolSpec};
///
/// fn main() -> std::process::ExitCode {
///     let mut tools = ToolSet::new();
///     let spec = ToolSpec::new("version", "Report the app version", serde_json::json!({"type": "object"}), ToolHints::READ_ONLY);
///     tools.add(spec, |_args, _session| async { Ok(ToolOutput::Json(serde_json::json!({"version": "1.0"}))) });
///
///     mur_server::run(SessionOptions::http("MyApp.csproj"), tools)
/// }
/// ```
pub fn run(options: SessionOptions, tools: ToolSet) -> ExitCode {
    init_logging();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => return report(&ServeError::io("cannot start the async runtime")(error)),
    };
    let outcome = runtime.block_on(serve(options, tools));
    runtime.shutdown_timeout(RUNTIME_SHUTDOWN);
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => report(&error),
    }
}

/// One line on stderr (plus a `hint:` line when there is advice), then the documented exit
/// code. Written as log lines are, through [`LossyStderr`]: `eprintln!` panicked when
/// stderr was a pipe its reader had closed, and the exit code became 101.
fn report(error: &ServeError) -> ExitCode {
    use std::io::Write as _;
    let line = match error {
        // Seed 000 §6 fixes this line word for word; scripts may match it.
        ServeError::AlreadyActive { .. } | ServeError::SlotBusy { .. } => {
            format!("[devtools] {error}\n")
        }
        _ => format!("[devtools] error: {error}\n"),
    };
    let hint = error.hint().map(|hint| format!("hint: {hint}\n"));
    let _ = LossyStderr.write_all(format!("{line}{}", hint.unwrap_or_default()).as_bytes());
    ExitCode::from(error.exit_code())
}

/// Installs a stderr subscriber unless the app already set one.
///
/// `RUST_LOG` takes `target=level` directives (`warn,mur_server=debug`); a value
/// that does not parse as such is ignored for the default. (`Targets`, not
/// `EnvFilter`: span and field filters would cost the regex engine.)
fn init_logging() {
    let filter = std::env::var("RUST_LOG")
        .ok()
        .filter(|value| !value.trim().is_empty())
        .and_then(|value| value.parse::<Targets>().ok())
        .unwrap_or_else(default_filter);
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(|| LossyStderr)
                .with_ansi(std::io::stderr().is_terminal()),
        )
        .with(filter)
        .try_init();
}

/// Our own progress at info; rmcp logs every tool error a client caused as a
/// warning, which is the client's business, so only its errors are shown.
fn default_filter() -> Targets {
    Targets::new()
        .with_default(Level::WARN)
        .with_target("rmcp", Level::ERROR)
        .with_target("mur_server", Level::INFO)
}

/// stderr for log lines, where a failed write is dropped. A session outlives
/// the terminal or pipe that started it (a closed terminal, a reload successor
/// whose inherited pipes were closed); tracing-subscriber reports a failed
/// write with `eprintln!`, which panics on that same closed stderr, and a
/// panic in the signal task would skip the lockfile cleanup.
struct LossyStderr;

impl std::io::Write for LossyStderr {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let _ = std::io::stderr().write_all(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
