//! The bridge process itself (`bridge --foreground`): claim the project's
//! slot as any session does, make the secret every request to it must carry
//! (kept in its sidecar, for its user's `mur` alone to read), start and
//! initialize the stdio server, announce the endpoint, and keep the server
//! running — restarted when it dies, at most 5 times a minute — until the
//! bridge is stopped or idle.

use std::{
    ffi::OsString,
    path::{Path, PathBuf},
    sync::Arc,
    time::{Duration, Instant},
};

use mur_core::{Error, Result};
use mur_lockfile::Lockfile;
use mur_server::{
    HttpLimits, Recorder, ServeError,
    endpoint::{Announced, Claimed},
};
use tokio_util::sync::CancellationToken;

use crate::{
    child::{Ended, Server},
    files::{BridgeFiles, SIDECAR_SCHEMA, Sidecar},
    http::{self, Bridge},
    log::{Log, OwnLines},
    options::{Idle, Options, shell_line, usage_log_unwritable, words},
    relay::Relay,
    signals::StopSignal,
    slot::{Waiting, claim, serve_error},
};

/// How many times a server that dies is started again within
/// [`RESTART_WINDOW`] before the bridge gives up: a rate, not a lifetime's
/// budget, so crashes spread over hours (a tool that dies on one bad input)
/// never end a bridge, while a server that cannot stay up is not restarted
/// forever. Restarts that fail to start it count too.
pub const MAX_RESTARTS: usize = 5;
/// The window [`MAX_RESTARTS`] counts restarts in.
pub const RESTART_WINDOW: Duration = Duration::from_secs(60);
/// Pause before a restart, times the restarts in the window: a server that
/// dies at once does not spin.
const RESTART_PAUSE: Duration = Duration::from_millis(250);
/// How many times a server that exits for a reload (a tool asked for one:
/// [`mur_server::STDIO_RELOAD_EXIT`]) is started again within
/// [`RESTART_WINDOW`] without counting as a crash: far more than anyone
/// reloads, so only a server that exits with that status on its own, over and
/// over, is counted as crashing past it.
const MAX_RELOADS: usize = 60;

/// How a bridge run in the foreground ended (its failures are errors).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ran {
    /// It served, and was stopped (SIGTERM, Ctrl+C), went idle or gave up on its server.
    Stopped,
    /// Ctrl+C or SIGTERM (this signal) came while its server was starting: the server
    /// was stopped with it, and nothing was announced. The command is to end as
    /// interrupted, as a background start a signal stops does ([`crate::Start::Interrupted`]).
    /// Not for the bridge a background start runs: there the signal is `bridge stop`'s
    /// or the waiting command's, and that command says what became of the start.
    Interrupted(std::os::raw::c_int),
}

/// Runs the bridge until it is stopped (SIGTERM, Ctrl+C), has had no request
/// for `idle`, or its server died more than [`MAX_RESTARTS`] times in [`RESTART_WINDOW`].
/// A signal before its server has answered `initialize` is [`Ran::Interrupted`].
/// `announced` gets the lockfile once clients can connect. A live session
/// for the project is [`mur_core::Kind::SessionActive`] (exit 3), before anything starts;
/// one still starting is waited for, and `waiting` told so once
/// ([`Waiting::SlotHeld`], the only [`Waiting`] it is told), as a background
/// start's caller is.
pub async fn run(
    options: &Options,
    mut waiting: impl FnMut(Waiting<'_>),
    announced: impl FnOnce(&Lockfile),
) -> Result<Ran> {
    // Started by a background start (`bridge` without `--foreground`), which hands it
    // the project's slot (read before the claim takes it): that command, not this
    // bridge, ends as interrupted.
    let in_background = mur_lockfile::slot_is_handed();
    // From the first moment: a signal while the server starts stops it too
    // (`mur-server`'s handlers come only once the endpoint is served); which one it was,
    // for the command to end as interrupted by it.
    let mut signals = StopSignal::install()
        .map_err(|e| Error::internal(format!("cannot install signal handlers: {e}")))?;
    // Its own messages (and `mur-server`'s) from the start, held until its log is
    // made: in the foreground they go there too, as through its stderr in the background.
    // Held to the end: the last line says why it stopped.
    let own_lines = OwnLines::hold();
    let build_tag = mur_lockfile::now_rfc3339();
    let claimed = claim(&options.project, build_tag.as_str(), &mut waiting)
        .await
        .map_err(|e| serve_error(e, &options.project))?;
    let usage = usage_recorder(options, claimed.lockfile_path(), &build_tag)?;
    let files = BridgeFiles::beside(claimed.lockfile_path());
    let log = open_log(&files, &own_lines)?;
    // The command as a shell reads it back: `newest_stop` gives it to whoever finds
    // the bridge gone, to start it again.
    tracing::info!(
        "{STARTING_FOR}{}{STARTING_WITH}{}`",
        claimed.project(),
        shell_line(&options.command)
    );
    let secret = new_secret()?;
    let claimed = claimed.admitting_only(&secret);
    // The guards below are declared after the slot (`claimed`): on an early return
    // they clean up while it is still held, before another bridge of the project
    // can start and write its own sidecar and log.
    let keeper = Keeper::spawn(&log);
    let relay = Relay::new();
    // As the project is named in its lockfile, from where the server runs (this
    // process's directory, which it inherits); the same words end its log (its last
    // line) and are in its sidecar (for a proxy that finds it gone without that line).
    let ran = Options {
        project: claimed.project().into(),
        ..options.clone()
    };
    let dir = std::env::current_dir().ok();
    let again = ran.again(dir.as_deref());
    // Before the server starts: while it does, the sidecar (with the held
    // slot) is how `bridge stop` finds a bridge that has no lockfile yet.
    let sidecar = write_sidecar(
        &files.sidecar,
        Sidecar {
            schema: SIDECAR_SCHEMA.to_owned(),
            pid: claimed.pid(),
            started_at: claimed.started_at().to_owned(),
            log: files.log.clone(),
            command: words(&options.command),
            usage_log: usage.as_ref().map(|recorder| recorder.path().to_owned()),
            project: Some(claimed.project().to_owned()),
            secret: Some(secret),
            again: Some(again.clone()),
        },
    )?;
    let server = match start_server(options, &log, &relay, &mut signals).await {
        Ok(server) => server,
        Err(e) => {
            return match signals.which() {
                // Only a bridge its user ran in the foreground: its log offers back the
                // command as that user ran it, `--foreground` and all. The last line of
                // a bridge that served (below) keeps `again`, without it: later
                // commands quote that line to agents as a hint, and a foreground
                // bridge would block an agent's command.
                Some(signal) if !in_background => {
                    let again = ran.again_in_foreground(dir.as_deref());
                    tracing::info!(
                        "{STOPPED}interrupted by {} while its server started{AGAIN}{again}`",
                        crate::signals::name(signal)
                    );
                    Ok(Ran::Interrupted(signal))
                }
                _ => Err(e),
            };
        }
    };
    let bridge = Bridge::new(relay.clone(), server.initialized.clone(), usage, &files.log);
    let how = Supervised {
        command: options.command.clone(),
        max_message: options.max_message,
        log,
        relay,
        bridge,
    };
    let (served, why) = serve_until_stopped(
        claimed,
        server,
        how,
        options.idle.clone(),
        signals,
        &sidecar,
        announced,
    )
    .await;
    // The server is gone. The sidecar was withdrawn when the bridge stopped serving;
    // not when serving failed: it goes now, before the slot is let go (`served`)
    // and the last line is written.
    drop(keeper);
    drop(sidecar);
    let served = served
        .map(Announced::withdraw)
        .map_err(|e| serve_error(e, &options.project));
    let why = match &served {
        Ok(()) => why.as_deref().unwrap_or(STOPPED_ON_SIGNAL),
        Err(e) => e.message(),
    };
    // Without `--foreground` even for a bridge run in the foreground: later calls quote
    // this line to agents as a hint ([`crate::newest_stop`]), and a foreground bridge
    // would block the agent's command that starts it.
    tracing::info!("{STOPPED}{why}{AGAIN}{again}`");
    served.map(|()| Ran::Stopped)
}

/// The recorder of the tool calls the bridge serves, when its operator asked for
/// one (`--usage`, `--usage-log`), its log made.
fn usage_recorder(options: &Options, lockfile: &Path, build_tag: &str) -> Result<Option<Recorder>> {
    let usage = Recorder::new(&options.usage, lockfile, build_tag);
    // Asked for by its operator: a log that cannot be written ends the bridge here
    // (exit 7), before a whole experiment goes unrecorded with a warning per call.
    if let Some(recorder) = &usage {
        recorder
            .ready()
            .map_err(|why| usage_log_unwritable(&options.usage, recorder.path(), why))?;
    }
    Ok(usage)
}

/// Starts this bridge's part of the log ([`start_log`]) and opens it, the
/// bridge's own messages held until now (`own_lines`) written to it.
fn open_log(files: &BridgeFiles, own_lines: &OwnLines) -> Result<Arc<Log>> {
    start_log(files)?;
    let log = Log::open(&files.log).map_err(|e| {
        Error::internal(format!(
            "cannot write the log `{}`: {e}",
            files.log.display()
        ))
    })?;
    // Its last line most of all, which says why it stopped to whoever finds its
    // session gone (`newest_stop`).
    own_lines.to(&log);
    Ok(log)
}

/// The task that keeps the bridge's log bounded, until this is dropped.
struct Keeper(tokio::task::JoinHandle<()>);

impl Keeper {
    /// In the background the bridge's own messages reach the log through its
    /// stderr, not through `log`: the log is kept bounded for them too.
    fn spawn(log: &Arc<Log>) -> Self {
        let log = log.clone();
        Self(tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(1));
            loop {
                every.tick().await;
                log.keep_bounded();
            }
        }))
    }
}

impl Drop for Keeper {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The bridge's sidecar, written: withdrawn (if it is still this bridge's) when
/// this is dropped, however `run` ends once it tried to write it. Left behind, it
/// would lead its reader (with the secret) to a port someone else may take.
struct WrittenSidecar {
    path: PathBuf,
    pid: u32,
}

impl Drop for WrittenSidecar {
    fn drop(&mut self) {
        crate::files::withdraw(&self.path, self.pid);
    }
}

/// Writes `sidecar` to `path`, to be withdrawn when what this returns is dropped.
fn write_sidecar(path: &Path, sidecar: Sidecar) -> Result<WrittenSidecar> {
    let written = WrittenSidecar {
        path: path.to_owned(),
        pid: sidecar.pid,
    };
    sidecar
        .write(path)
        .map_err(|e| Error::internal(format!("cannot write `{}`: {e}", path.display())))?;
    Ok(written)
}

/// Starts the server (given up when a signal comes meanwhile), attached to
/// `relay`, its stderr to `log`.
async fn start_server(
    options: &Options,
    log: &Arc<Log>,
    relay: &Relay,
    signals: &mut StopSignal,
) -> Result<Server> {
    // Once, for the bridge's life: what its server starts that leaves the
    // server's process group is reparented to the bridge when its parent
    // exits (not to init), where it is found by its marker and killed with
    // the server (crate::process).
    if let Err(e) = mur_procs::become_subreaper() {
        tracing::debug!(
            "cannot become the subreaper of the server's processes: {e}; what leaves \
             its process group and outlives its parent is not found"
        );
    }
    let stopped = signals.arrived();
    let server = Server::start(&options.command, options.max_message, log, relay, stopped).await?;
    tracing::info!("the server started (pid {})", server.pid());
    Ok(server)
}

/// Serves the endpoint, the server supervised, until the bridge stops
/// ([`stop_when`]), then stops the server: how serving ended, and why the
/// bridge stopped (`None`: a signal `mur-server`'s handlers took).
async fn serve_until_stopped(
    claimed: Claimed,
    server: Server,
    how: Supervised,
    idle: Idle,
    signals: StopSignal,
    sidecar: &WrittenSidecar,
    announced: impl FnOnce(&Lockfile),
) -> (std::result::Result<Announced, ServeError>, Option<String>) {
    let relay = how.relay.clone();
    let routes = http::routes(how.bridge.clone());
    let shutdown = CancellationToken::new();
    let gave_up = CancellationToken::new();
    let supervisor = tokio::spawn(supervise(server, how, shutdown.clone(), gave_up.clone()));
    // Why it stopped, for its last line (`bridge stopped: …`), which tells whoever
    // later finds no session why and how to start it again ([`crate::newest_stop`]).
    let why = Arc::new(std::sync::OnceLock::<String>::new());
    let stop = stop_when(relay.clone(), idle, gave_up, signals, why.clone());
    // Stopped (SIGTERM, Ctrl+C, idle, gave up): the endpoint has removed the
    // lockfile and still holds the port. The sidecar goes too, now, while no one
    // else can bind the port it leads to: a reader that found it would send the
    // secret and the call to whoever took the port next. The requests in flight
    // are answered with an error before the endpoint closes their connections.
    let stopping = {
        let (path, pid) = (sidecar.path.clone(), sidecar.pid);
        move || {
            crate::files::withdraw(&path, pid);
            relay.stopping();
        }
    };
    let served = claimed
        .serve(routes, HttpLimits::default(), announced, stop, stopping)
        .await;
    // The lockfile and sidecar are gone; the slot is held until the server is
    // gone too (`bridge stop` waits for this process to end): no bridge of the
    // project starts beside a server still stopping.
    shutdown.cancel();
    let _ = supervisor.await;
    (served, why.get().cloned())
}

/// Resolves when the bridge is to stop: no request for `idle`, the supervisor
/// gave up on its server, or a signal; says why in `why`.
async fn stop_when(
    relay: Relay,
    idle: Idle,
    gave_up: CancellationToken,
    mut signals: StopSignal,
    why: Arc<std::sync::OnceLock<String>>,
) {
    let reason = tokio::select! {
        () = idle_for(&relay, idle.duration()) => {
            tracing::info!("no request for {idle}; stopping");
            format!("no request for {idle}")
        }
        () = gave_up.cancelled() => format!(
            "its server kept exiting (restarted {MAX_RESTARTS} times within a minute)"
        ),
        // `mur-server`'s handlers see it too once it serves (and log
        // it); this is for one that came before they were installed.
        () = signals.arrived() => STOPPED_ON_SIGNAL.to_owned(),
    };
    let _ = why.set(reason);
}

/// What a bridge's last line of its log begins with, then why it stopped:
/// [`crate::newest_stop`] reads the line back by it.
pub(crate) const STOPPED: &str = "bridge stopped: ";

/// How the log's line that names the project a bridge starts for begins
/// (`bridge for `PROJECT` starting `COMMAND``), and what follows the project in it:
/// read back by `ended` to tell a folder's bridges apart.
pub(crate) const STARTING_FOR: &str = "bridge for `";
pub(crate) const STARTING_WITH: &str = "` starting `";

/// Between why a bridge stopped and the command that starts it again, on its last
/// line: [`crate::newest_stop`] reads the line back by it.
pub(crate) const AGAIN: &str = "; to start it again: `";

/// Why a bridge stopped when nothing of its own ended it: a signal, which
/// `mur-server`'s handlers took once it served.
const STOPPED_ON_SIGNAL: &str = "stopped by a signal (`bridge stop`, Ctrl+C)";

/// What the supervisor needs to start the server again.
struct Supervised {
    command: Vec<OsString>,
    max_message: u64,
    log: Arc<Log>,
    relay: Relay,
    bridge: Arc<Bridge>,
}

/// The restarts of the last [`RESTART_WINDOW`].
#[derive(Default)]
struct Restarts(std::collections::VecDeque<Instant>);

impl Restarts {
    /// Counts a restart at `now` and returns how many the window holds with
    /// it — or `None`, counting nothing, when it already holds [`MAX_RESTARTS`].
    fn allow(&mut self, now: Instant) -> Option<usize> {
        self.allow_up_to(now, MAX_RESTARTS)
    }

    /// [`Restarts::allow`], `max` in the window.
    fn allow_up_to(&mut self, now: Instant, max: usize) -> Option<usize> {
        while self
            .0
            .front()
            .is_some_and(|at| now.duration_since(*at) >= RESTART_WINDOW)
        {
            self.0.pop_front();
        }
        (self.0.len() < max).then(|| {
            self.0.push_back(now);
            self.0.len()
        })
    }
}

/// Waits for the server to exit and starts it again, at most [`MAX_RESTARTS`]
/// times in [`RESTART_WINDOW`]; stops it when the bridge shuts down. What a
/// client is told of a crash names the log: the server's own words on why
/// are there, and the bridge that gives up leaves no session line to find it by.
/// A server that exits for a reload a tool asked for is started again at once,
/// and that is no crash ([`MAX_RELOADS`]).
async fn supervise(
    mut server: Server,
    how: Supervised,
    shutdown: CancellationToken,
    gave_up: CancellationToken,
) {
    let mut restarts = Restarts::default();
    let mut reloads = Restarts::default();
    let log = format!("its stderr is in `{}`", how.log.path().display());
    loop {
        let ended = tokio::select! {
            () = shutdown.cancelled() => {
                server.stop(&how.relay).await;
                return;
            }
            ended = server.ended() => ended,
        };
        how.relay.attach(None);
        // As in "the server {what}", and what the requests in flight are told.
        let (what, failed) = match ended {
            Ended::Reloaded if reloads.allow_up_to(Instant::now(), MAX_RELOADS).is_some() => {
                tracing::info!("the server exited for a reload; starting it again");
                how.relay.fail_all(
                    "the stdio server exited for a reload (a tool asked for one) before it answered; \
                     the bridge is starting it again",
                );
                match restart(&how, &shutdown, "exited for a reload", &log).await {
                    None => return,
                    Some(Ok(started)) => {
                        server = started;
                        continue;
                    }
                    Some(Err(why)) => {
                        let what = format!("exited for a reload and did not start again ({why})");
                        let failed = format!("the stdio server {what}");
                        (what, failed)
                    }
                }
            }
            ended => crashed(ended),
        };
        let restarted = restart_after(
            &what,
            &failed,
            &log,
            &how,
            &mut restarts,
            &shutdown,
            &gave_up,
        )
        .await;
        match restarted {
            Some(started) => server = started,
            None => return,
        }
    }
}

/// A server that ended other than for a reload the window allows: as in "the
/// server {what}", and what the requests in flight are told.
fn crashed(ended: Ended) -> (String, String) {
    match ended {
        Ended::Reloaded => (
            format!(
                "exited for a reload (status {}) {MAX_RELOADS} times within a minute",
                mur_server::STDIO_RELOAD_EXIT
            ),
            "the stdio server exited for a reload before it answered".to_owned(),
        ),
        Ended::Exited(status) => (
            format!("exited ({status})"),
            format!("the stdio server exited ({status}) before it answered"),
        ),
        Ended::Broken(why) => (
            why.clone(),
            format!("the stdio server {why}; the bridge stopped it before it answered"),
        ),
    }
}

/// Starts the server again after it `what` (as in "the server {what}"; the
/// requests in flight are told `failed` and where its stderr is, `log`), each
/// attempt counted in `restarts` and paused for: the server started, or `None`
/// when the bridge was stopped meanwhile or gave up (past [`MAX_RESTARTS`]:
/// `gave_up` is cancelled, and what waits for a start, or comes before the
/// endpoint closes, is failed).
async fn restart_after(
    what: &str,
    failed: &str,
    log: &str,
    how: &Supervised,
    restarts: &mut Restarts,
    shutdown: &CancellationToken,
    gave_up: &CancellationToken,
) -> Option<Server> {
    // Why the server is not running, for the log: what ended it, then why the last
    // start failed (a retry's line repeated the crash that came before it).
    let mut down = what.to_owned();
    loop {
        let Some(count) = restarts.allow(Instant::now()) else {
            tracing::error!(
                "the server {down}; it was restarted {MAX_RESTARTS} times within a minute, so the bridge gives up"
            );
            let gave_up_on = format!(
                "it was restarted {MAX_RESTARTS} times within a minute, so the bridge gave up and stopped"
            );
            how.relay
                .fail_all(&format!("{failed}; {gave_up_on}; {log}"));
            // The requests waiting for a restart, and any that come before the
            // endpoint closes, were sent nothing.
            how.relay.no_more_starts(&format!(
                "the stdio server {down}; {gave_up_on}; the request was not sent to it; {log}"
            ));
            gave_up.cancel();
            return None;
        };
        how.relay.fail_all(&format!(
            "{failed}; the bridge is starting it again ({count} of at most {MAX_RESTARTS} restarts a minute); {log}"
        ));
        tracing::warn!(
            "the server {down}; restarting it ({count} of {MAX_RESTARTS} within a minute)"
        );
        tokio::select! {
            () = shutdown.cancelled() => return None,
            () = tokio::time::sleep(RESTART_PAUSE * count as u32) => {}
        }
        match restart(how, shutdown, what, log).await {
            None => return None,
            Some(Ok(started)) => return Some(started),
            Some(Err(why)) => down = format!("did not start again ({why})"),
        }
    }
}

/// Starts the server again after it `what` (as in "the server {what}"): after a
/// crash, or at once after it exited for a reload. When the start fails, whatever
/// waits for it fails now — the requests in flight and those waiting for a server
/// — saying why and where its stderr is (`log`), and is not held for the next
/// attempt. `None`: the bridge was stopped meanwhile; an error: why the start
/// failed, for the supervisor to count as a crash.
async fn restart(
    how: &Supervised,
    shutdown: &CancellationToken,
    what: &str,
    log: &str,
) -> Option<Result<Server, String>> {
    let stopped = shutdown.cancelled();
    let started = Server::start(&how.command, how.max_message, &how.log, &how.relay, stopped).await;
    if shutdown.is_cancelled() {
        return None;
    }
    Some(match started {
        Ok(started) => {
            // It has answered `initialize`: the requests waiting for it go to it now.
            tracing::info!("the server started again (pid {})", started.pid());
            how.bridge.restarted(started.initialized.clone()).await;
            Ok(started)
        }
        Err(e) => {
            tracing::error!("the server did not start again: {}", e.message());
            let why = format!(
                "the stdio server {what}, and the bridge could not start it again: {}; {log}",
                e.message()
            );
            how.relay.fail_all(&why);
            how.relay.start_failed(&why);
            Err(e.message().to_owned())
        }
    })
}

/// Resolves once no request has been in flight for `idle`.
async fn idle_for(relay: &Relay, idle: Duration) {
    let started = Instant::now();
    loop {
        let (busy, last) = relay.activity();
        let since = last.unwrap_or(started);
        let quiet = since.elapsed();
        if !busy && quiet >= idle {
            return;
        }
        // While busy, look again after a full period: a request that ends
        // starts the clock again.
        let wait = if busy { idle } else { idle - quiet };
        tokio::time::sleep(wait.max(Duration::from_millis(10))).await;
    }
}

/// Starts this bridge's part of the log (we hold the slot: no other bridge of
/// this project writes it), made private. What the last bridge of the project
/// wrote is kept above a line saying where this one starts: the log is where a
/// user reads why the last one ended (it gave up restarting its server, it was
/// stopped), which starting it again must not erase. The log stays bounded
/// as ever ([`crate::log::LOG_CAP`]), its oldest lines going first.
fn start_log(files: &BridgeFiles) -> Result<()> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let cannot = |e: std::io::Error| {
        Error::internal(format!(
            "cannot write the log `{}`: {e}",
            files.log.display()
        ))
    };
    let mut file = options.open(&files.log).map_err(cannot)?;
    if file.metadata().map_err(cannot)?.len() > 0 {
        let line = format!("{}\n", start_line(&mur_lockfile::now_rfc3339()));
        file.write_all(line.as_bytes()).map_err(cannot)?;
    }
    Ok(())
}

/// The line between the last bridge's lines of the log and those of the one
/// starting at `at`: [`crate::newest_stop`] reads the last bridge's lines from after
/// it (`ended::starts_a_bridge`, by [`START_PREFIX`] and [`STARTS`]).
pub(crate) fn start_line(at: &str) -> String {
    format!("{START_PREFIX}{at}{STARTS}")
}

/// The beginning of a [`start_line`], before its time.
pub(crate) const START_PREFIX: &str = "----- ";

/// The end of a [`start_line`], after its time.
pub(crate) const STARTS: &str =
    ": a bridge for this project starts; the lines above are the last one's -----";

/// The secret every request to the bridge but the probe carries: 256 bits of the
/// OS's randomness, in hex. None to be had is the bridge's failure (exit 7): a
/// guessable secret would let in what it is there to keep out.
fn new_secret() -> Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| {
        Error::internal(format!(
            "no randomness for the bridge's secret from the operating system: {e}"
        ))
    })?;
    Ok(mur_core::hex(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    use mur_testkit::Captured;

    use crate::{child::MAX_MESSAGE_BYTES, relay::Waited};

    /// `sh` lines that read the bridge's `initialize`, answer it and read `initialized`.
    const ANSWERS_INITIALIZE: &str = r#"
            IFS= read -r line
            id=${line#*\"id\":}; id=${id%%[,\}]*}
            printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"sh","version":"1"}}}\n' "$id"
            IFS= read -r initialized
    "#;

    /// `sh -c script` with the arguments `args` (`$1`…).
    fn sh(script: &str, args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
        ["sh", "-c", script, "sh"]
            .into_iter()
            .map(OsString::from)
            .chain(args)
            .collect()
    }

    /// A stdio server in `sh` that counts its starts in `dir/starts` (the pid of start
    /// `n` in `dir/pid-n`): the first answers `initialize`, then exits with `status`
    /// (75: for a reload); the second exits (9) before it answers, as a new build that
    /// does not start; any later one answers and runs until its input ends.
    fn exiting_then_broken(dir: &Path, status: u8) -> Vec<OsString> {
        let script = format!(
            r#"
            n=$(( $(cat "$1/starts" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$1/starts"
            echo "$$" > "$1/pid-$n"
            if [ "$n" -eq 2 ]; then echo "a build that does not start" >&2; exit 9; fi
            {ANSWERS_INITIALIZE}
            if [ "$n" -eq 1 ]; then exit "$2"; fi
            cat > /dev/null
        "#
        );
        sh(
            &script,
            [dir.as_os_str().to_owned(), status.to_string().into()],
        )
    }

    /// The lines of `target`'s events in `captured` (no time: the layout is the log's
    /// but for it), whole.
    fn lines_of(captured: &Captured, target: &str) -> Vec<String> {
        let text = captured.text();
        text.lines()
            .filter(|line| line.contains(&format!(" {target}: ")))
            .map(str::to_owned)
            .collect()
    }

    /// What a supervisor test starts from: a new temporary directory, the bridge's log
    /// in it (its path, then the log), the relay, and the server `command_in` gives for
    /// that directory (the command, then the server started once from it).
    async fn first_start(
        command_in: impl FnOnce(&Path) -> Vec<OsString>,
    ) -> (
        tempfile::TempDir,
        PathBuf,
        Arc<Log>,
        Relay,
        Vec<OsString>,
        Server,
    ) {
        let dir = tempfile::tempdir().expect("tempdir");
        let log_path = dir.path().join("bridge.log");
        let log = Log::empty(&log_path);
        let relay = Relay::new();
        let command = command_in(dir.path());
        let never = std::future::pending::<()>();
        let server = Server::start(&command, MAX_MESSAGE_BYTES, &log, &relay, never)
            .await
            .expect("the first start");
        (dir, log_path, log, relay, command, server)
    }

    /// A supervisor of `server` (started from `command`, logging to `log` at `log_path`),
    /// spawned, and what stops it. On a current-thread runtime it runs only once the
    /// test waits.
    fn supervisor_of(
        server: Server,
        command: Vec<OsString>,
        log: Arc<Log>,
        relay: &Relay,
        log_path: &Path,
    ) -> (tokio::task::JoinHandle<()>, CancellationToken) {
        let bridge = Bridge::new(relay.clone(), server.initialized.clone(), None, log_path);
        let how = Supervised {
            command,
            max_message: MAX_MESSAGE_BYTES,
            log,
            relay: relay.clone(),
            bridge,
        };
        let shutdown = CancellationToken::new();
        let supervisor = tokio::spawn(supervise(
            server,
            how,
            shutdown.clone(),
            CancellationToken::new(),
        ));
        (supervisor, shutdown)
    }

    /// Each restart's line says why the server is down: after a start that failed, why
    /// that start failed (it repeated the crash before it); and the server started again
    /// is logged once it has answered `initialize`, with its pid (after "restarting it"
    /// the log showed only the server's own stderr, whether it came back or not, and
    /// then which process was the server's only `ps` could tell).
    #[tokio::test]
    async fn a_restart_logs_why_the_last_start_failed_and_when_the_server_is_back() {
        let captured = Captured::default();
        // On this one thread (a current-thread runtime): the supervisor's lines too.
        let _logging = mur_testkit::log_on_this_thread(
            tracing_subscriber::fmt()
                .with_writer({
                    let captured = captured.clone();
                    move || captured.clone()
                })
                .with_ansi(false)
                .without_time()
                .with_max_level(tracing::Level::INFO)
                .finish(),
        );
        let (dir, log_path, log, relay, command, server) =
            first_start(|dir| exiting_then_broken(dir, 1)).await;
        let (supervisor, shutdown) = supervisor_of(server, command, log, &relay, &log_path);
        // The first exits, the second start fails, the third answers: once it is started
        // (the first long gone), the next server attached is the third.
        let third = async {
            let starts = dir.path().join("starts");
            while std::fs::read_to_string(&starts).map_or(true, |n| n.trim() != "3") {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            relay.writer_within(crate::child::INITIALIZE_LIMIT).await
        };
        let attached = tokio::time::timeout(Duration::from_secs(120), third).await;
        assert!(
            matches!(attached, Ok(Waited::Attached)),
            "the third start was not attached: {:?}",
            lines_of(&captured, "mur_bridge::serve")
        );
        shutdown.cancel();
        supervisor.await.expect("the supervisor ends");
        let third = std::fs::read_to_string(dir.path().join("pid-3")).expect("its pid");
        let back = format!(
            " INFO mur_bridge::serve: the server started again (pid {})",
            third.trim()
        );
        assert_eq!(
            lines_of(&captured, "mur_bridge::serve"),
            [
                " WARN mur_bridge::serve: the server exited (exit status: 1); restarting it (1 of \
                 5 within a minute)",
                "ERROR mur_bridge::serve: the server did not start again: the server exited (exit \
                 status: 9) before it answered `initialize`",
                " WARN mur_bridge::serve: the server did not start again (the server exited (exit \
                 status: 9) before it answered `initialize`); restarting it (2 of 5 within a \
                 minute)",
                back.as_str(),
            ]
        );
    }

    /// A request waiting for the server a reload starts fails when that start fails,
    /// as one waiting for a crash's restart does, with why and where the server's
    /// stderr is; it was held for the next attempt, and answered by it (the reload's
    /// restart was a copy of the crash's that did not tell the waiting requests).
    #[tokio::test]
    async fn a_reload_whose_restart_fails_fails_what_waits_as_a_crashs_restart_does() {
        let (_dir, log_path, log, relay, command, server) =
            first_start(|dir| exiting_then_broken(dir, 75)).await;
        // The answer of the call that asked for the reload was read: the next request
        // waits for the process started next. On this one thread nothing else runs
        // until the request waits.
        relay.attach(None);
        let waiting = relay.writer_within(Duration::from_secs(600));
        tokio::pin!(waiting);
        assert!(futures_util::poll!(&mut waiting).is_pending());
        let (supervisor, shutdown) = supervisor_of(server, command, log, &relay, &log_path);
        let why = match waiting.await {
            Waited::Failed(why) => why,
            Waited::Attached => panic!("the request was held for the next start"),
            Waited::TimedOut => panic!("the request waited on"),
        };
        assert_eq!(
            why,
            format!(
                "the stdio server exited for a reload, and the bridge could not start it again: \
                 the server exited (exit status: 9) before it answered `initialize`; its stderr is in `{}`",
                log_path.display()
            )
        );
        shutdown.cancel();
        supervisor.await.expect("the supervisor ends");
    }

    /// Once the bridge has given up on a server that kept exiting, a request that comes
    /// before its endpoint closes is failed at once, saying so and that it was not sent.
    /// It waited for a start that none would make until the endpoint's drain (3 s) cut
    /// it off unanswered.
    #[tokio::test]
    async fn once_the_bridge_gives_up_a_request_fails_at_once_unsent() {
        let (_dir, log_path, log, relay, command, server) =
            first_start(|_| sh(&format!("{ANSWERS_INITIALIZE}exit 3"), [])).await;
        let (supervisor, _shutdown) = supervisor_of(server, command, log, &relay, &log_path);
        supervisor.await.expect("the supervisor gives up");
        let waiting = relay.writer_within(Duration::from_secs(600));
        tokio::pin!(waiting);
        let std::task::Poll::Ready(Waited::Failed(why)) = futures_util::poll!(&mut waiting) else {
            panic!("the request waited");
        };
        assert_eq!(
            why,
            format!(
                "the stdio server exited (exit status: 3); it was restarted 5 times within a \
                 minute, so the bridge gave up and stopped; the request was not sent to it; its \
                 stderr is in `{}`",
                log_path.display()
            )
        );
    }

    /// However `run` returns once it has written its sidecar (its server did not start,
    /// or any check added before it serves fails), the sidecar goes: left behind, it
    /// would lead whoever reads it, with the secret, to a port someone else may take.
    #[test]
    fn a_return_after_the_sidecar_is_written_withdraws_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("0123456789abcdef.bridge");
        let sidecar = Sidecar {
            schema: SIDECAR_SCHEMA.to_owned(),
            pid: std::process::id(),
            started_at: mur_lockfile::now_rfc3339(),
            log: dir.path().join("0123456789abcdef.bridge.log"),
            command: vec!["server".into()],
            usage_log: None,
            project: None,
            secret: Some("00ff".into()),
            again: None,
        };
        let starting = || -> Result<()> {
            let _sidecar = write_sidecar(&path, sidecar)?;
            assert!(path.exists(), "the sidecar was not written");
            Err(Error::internal("the server did not start"))
        };
        assert!(starting().is_err());
        assert!(!path.exists(), "the sidecar outlived the start");
    }

    #[test]
    fn restarts_are_a_rate_not_a_lifetimes_budget() {
        let mut restarts = Restarts::default();
        let start = Instant::now();
        let at = |secs: u64| start + Duration::from_secs(secs);
        // Five in a minute, the sixth refused (and not counted)…
        for (n, secs) in [0, 1, 2, 3, 4].into_iter().enumerate() {
            assert_eq!(restarts.allow(at(secs)), Some(n + 1));
        }
        assert_eq!(restarts.allow(at(5)), None);
        assert_eq!(restarts.allow(at(59)), None);
        // …until the first is a minute old.
        assert_eq!(restarts.allow(at(60)), Some(5));
        // A crash an hour apart is the first of its minute.
        let mut restarts = Restarts::default();
        for hour in 0..10 {
            assert_eq!(restarts.allow(at(hour * 3600)), Some(1));
        }
    }
}
