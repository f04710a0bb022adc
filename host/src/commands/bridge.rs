//! `mur devtools bridge [--idle D] [--foreground] -- SERVER…` and `bridge
//! stop`: a stdio MCP server as a devtools session (crate `mur-bridge`).

use mur_bridge::Waiting;
use mur_core::{Error, Result, Settings};

use crate::cli::{BridgeArgs, BridgeCommand};
use crate::output;

pub fn run(args: &BridgeArgs, settings: &Settings) -> Result<()> {
    if let Some(BridgeCommand::Stop) = args.stop {
        return crate::invoke::block_on(stop(settings))?;
    }
    let project = settings.project.clone().ok_or_else(|| {
        Error::usage("`bridge` needs `--project PATH`: the project its session is for")
            .with_hint("mur devtools bridge --project ./App.csproj -- SERVER ARGS…")
    })?;
    let usage = crate::usage::usage_logging(args.usage, args.usage_log.as_deref())?;
    let options = mur_bridge::Options {
        project,
        idle: args.idle.clone(),
        command: args.command.clone(),
        usage,
        max_message: args.max_message.0,
    };
    if args.foreground {
        return foreground(&options, settings.quiet);
    }
    let exe = std::env::current_exe()
        .map_err(|e| Error::internal(format!("cannot find mur's own executable: {e}")))?;
    let start = crate::invoke::block_on(mur_bridge::start(
        &exe,
        &options,
        say_waiting(settings.quiet),
    ))??;
    match start {
        mur_bridge::Start::Announced(started) => session_line(&started.path, &started.lockfile),
        mur_bridge::Start::Interrupted(signal) => interrupted(signal),
    }
}

/// The bridge a start was waiting for was stopped by `signal` (Ctrl+C, SIGTERM, the
/// terminal closing): one line saying so, as every call a signal stops says one (it
/// exited 130 saying nothing), in the words of the host's other interrupt lines
/// (`crate::interrupt`); then mur ends by the signal, as it would have without the
/// handlers: a shell's loop sees a command interrupted (a bridge is no recorded
/// invocation: nothing to record).
fn interrupted(signal: std::os::raw::c_int) -> ! {
    let name = crate::signals::name(signal);
    output::diagnostic(&format!(
        "error: interrupted by {name} while the bridge started: it was stopped, and its \
         server with it"
    ));
    mur_procs::end_by_signal(signal)
}

/// What a start says on stderr while it waits (not with `-q`), in the background or
/// the foreground alike: the same wait is worded the same.
fn say_waiting(quiet: bool) -> impl FnMut(Waiting<'_>) {
    move |waiting| {
        if quiet {
            return;
        }
        match waiting {
            Waiting::Slow(log) => output::diagnostic(&format!(
                "waiting for the server to answer `initialize` (at most {} s); its log is `{}`",
                mur_bridge::INITIALIZE_LIMIT.as_secs(),
                log.display()
            )),
            Waiting::NotJsonRpc(note) => output::diagnostic(&format!("note: {note}")),
            Waiting::SlotHeld { at_most } => output::diagnostic(&format!(
                "another session for this project is starting; waiting up to {} s for it to \
                 announce itself",
                at_most.as_secs()
            )),
        }
    }
}

/// The bridge itself, in this process: several clients at once, so on a
/// runtime with worker threads. While it waits for the project's slot it says
/// so as a background start does (its own lines are held for its log until then).
fn foreground(options: &mur_bridge::Options, quiet: bool) -> Result<()> {
    output::start_service_log();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::internal(format!("cannot start the async runtime: {e}")))?;
    let ran = runtime.block_on(mur_bridge::run(options, say_waiting(quiet), |lock| {
        // Announced: clients can connect now. Its line, as `session list` shows it.
        let path = mur_lockfile::Registry::default_location().path_for(&lock.project);
        let _ = session_line(&path, lock);
    }))?;
    match ran {
        mur_bridge::Ran::Stopped => Ok(()),
        // Stopped while its server started: as a background start a signal stops ends.
        mur_bridge::Ran::Interrupted(signal) => {
            drop(runtime);
            interrupted(signal)
        }
    }
}

/// The session's line, as `session list` prints it.
fn session_line(path: &std::path::Path, lock: &mur_lockfile::Lockfile) -> Result<()> {
    let mut line = mur_bridge::session_line(path, lock);
    line.push('\n');
    output::stdout(line.as_bytes())
}

async fn stop(settings: &Settings) -> Result<()> {
    let http = mur_http::Http::new();
    let stopped = mur_bridge::stop(settings.project.as_deref(), &http).await?;
    if !settings.quiet {
        output::diagnostic(&format!(
            "stopped the bridge of `{}` (pid {})",
            stopped.project, stopped.pid
        ));
    }
    Ok(())
}
