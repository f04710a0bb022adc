//! [`run`]: the two-line way for an app's `main` to become a devtools session.

use std::{io::IsTerminal, process::ExitCode, time::Duration};

use crate::{ServeError, SessionOptions, serve, tools::ToolSet};

/// How long runtime shutdown waits for blocking work (a stdin read never ends on its own).
const RUNTIME_SHUTDOWN: Duration = Duration::from_millis(500);

/// Our own progress at info; rmcp logs every tool error a client caused as a
/// warning, which is the client's business, so only its errors are shown.
const DEFAULT_LOG_FILTER: &str = "warn,rmcp=error,mur_server=info";

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

/// One line on stderr (plus a `hint:` line when there is advice), then the documented exit code.
fn report(error: &ServeError) -> ExitCode {
    match error {
        // Seed 000 §6 fixes this line word for word; scripts may match it.
        ServeError::AlreadyActive { .. } | ServeError::SlotBusy { .. } => eprintln!("[devtools] {error}"),
        _ => eprintln!("[devtools] error: {error}"),
    }
    if let Some(hint) = error.hint() {
        eprintln!("hint: {hint}");
    }
    ExitCode::from(error.exit_code())
}

/// Installs a stderr subscriber unless the app already set one.
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(DEFAULT_LOG_FILTER));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| LossyStderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
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
