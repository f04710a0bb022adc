//! `mur devtools proxy`: a stdio MCP server for hosts that can only launch
//! stdio servers, forwarding every request to a devtools session.
//!
//! It reads newline-delimited JSON-RPC on stdin and writes it on stdout.
//! `initialize` is answered here, with the capabilities, server info and
//! instructions the session gives for `server/discover`; `ping` and
//! `logging/setLevel` are answered here too (the level asks the session for
//! its log messages from then on). Every other request is sent to the
//! session by the [`Upstream`] — a `mur` call, so in either revision the
//! session speaks, found afresh each time as every command finds it (among
//! the sessions of the project the first request found) — on a thread of its
//! own, so slow calls do not hold up the others (a session-based server's one
//! MCP session, which the upstream keeps for the proxy's life, shared by them).
//! What the session reports meanwhile is relayed: progress (under the
//! client's own progress token), log messages, and questions, which are asked
//! of the client as `elicitation/create` when it declared it can answer them.
//! `initialize` is answered in the revision the client asks for when the proxy speaks
//! it through `initialize`, else (2026-07-28 too, which has none) in 2025-11-25 (the
//! client decides), and so are the session's results: mur's client speaks 2026-07-28
//! to a session that can, so what that revision adds to a result (`resultType`,
//! `ttlMs`, …) is taken off for a client of an older one, and a task (`tasks/get`,
//! `tasks/list`) is given in 2025-11-25's form (`in_older_revision`). What the tasks
//! extension of 2026-07-28 does otherwise, `tasks/result` (it has none: the outcome is
//! in `tasks/get`) and `tasks/cancel` (acknowledged with `{}`), is answered as
//! 2025-11-25 asks, from `tasks/get` read until the task ended, for as long as the
//! client's request stands; the questions a task waits on meanwhile are asked of the
//! client there, as that revision asks them (a bounded number: a task that keeps asking
//! is cancelled), and its answers sent on with `tasks/update`. That code is in `tasks`
//! (`proxy/tasks.rs`); what it shares with the rest, the [`Upstream`] a request goes to
//! and how one is asked of it, in `upstream`.
//!
//! Whatever comes on stdin is answered, never the end of the proxy: a line
//! that is no JSON (or no UTF-8) gets a parse error, a message that is no
//! JSON-RPC 2.0 request (another `jsonrpc`, or none) an Invalid Request, a line longer than
//! [`MAX_LINE_BYTES`] gets one too and is skipped to its newline (never held
//! whole), and when stdin ends — or fails — the requests in flight are
//! answered before the proxy returns, for [`INPUT_END_GRACE`] at most: after
//! that each is given up (its call cancelled, an error written for it). Once
//! nobody can read the answers — stdout closed by its reader, seen when a
//! write fails or as a hangup on stdout ([`ClientOutput::hung_up`], looked for
//! every 50 ms while requests are in flight, stdin open or not) — the
//! requests in flight are given up at once: an agent host killed mid-call, or
//! one that closed only its read end, leaves no proxy behind waiting on a call
//! that may never end. Either stops the proxy at once, its input read no further
//! (stdin is read on a thread of its own, so a proxy blocked reading it is not
//! held): [`serve`] returns the write's error, or a closed pipe's
//! ([`Stopped::Output`]), for the binary to tell a closed pipe (quiet) from an
//! output it cannot write (a full disk: said, exit 7).
//!
//! A request the client cancels (`notifications/cancelled`) is given up: its
//! call to the session ends as at a timeout (the HTTP request dropped, which
//! the session — a bridge too — takes as its cancel; a task cancelled, a
//! `notifications/cancelled` in a legacy session), a question it asked waits no
//! longer, and nothing more is written for it, its answer neither, as MCP asks.
//! So a cancelled request does not hold the proxy open after stdin ends either.
//!
//! SIGTERM (how an agent host ends its stdio server), SIGINT or SIGHUP ends the
//! proxy as its input's end does, without waiting for answers: each request in
//! flight is given up, what the upstream keeps for them is ended
//! ([`Upstream::end`]: a session-based server's session, else left to its idle
//! timeout), then [`serve`] returns [`Stopped::Signal`] and the binary ends the
//! process by the signal — also when its input had ended already and the requests
//! were being waited for, or a write to a client that reads nothing holds the serving
//! (it goes on a thread of its own). A second signal ends it at once.
//!
//! With usage recording on (`proxy --usage`, [`recorder`]), each `tools/call` is
//! recorded as a session records the calls it serves (side `server`, surface `mcp`,
//! through `mur-server`'s [`Recorder`], as a bridge records them), so the MCP side of a
//! server that records nothing itself is measured: in the name of the `clientInfo` the
//! client gave in `initialize` (none when it gave none), once its answer is written —
//! how it ended read from the answer as a bridge reads it — or when it is given up:
//! past [`INPUT_END_GRACE`] (`rpc-error`, as a bridge records a call past its own
//! bound), or because its client stopped it — cancelled it, went away, or ended the
//! proxy by a signal (`interrupted`, as a session and a bridge record a call whose
//! client dropped its request). An input-required round is a step of a call, not one.

use std::{
    collections::HashMap,
    io::{BufRead, Write},
    os::raw::c_int,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering},
        mpsc,
    },
    time::{Duration, Instant},
};

use mur_client::tool_result::without_protocol_fields;
use mur_client::{Events, LogMessage, Progress, Question, Reply, Response};
use mur_core::Result;
use mur_lockfile::jsonrpc::{
    self, INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, error, notification, result,
};
use mur_server::{Recorder, Served, UsageLogging, client_label};
use mur_usage::Outcome;

use crate::capabilities::without_notifications;
use crate::http::{CLIENT_INFO, answer_outcome};
use crate::lines::{Line, read_line_blocking, skip_line};
use serde_json::{Value, json};

mod tasks;
mod upstream;

pub use upstream::{Request, Upstream};

use tasks::{about_task_of_older, task_of_2025};
use upstream::{Asking, LOOK_EVERY, Relay};

/// The longest line read from stdin: what a session takes as one request
/// body (4 MiB), so a longer request could not be sent on anyway. Past it
/// the line is answered with a parse error and skipped to its newline.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// How long the requests in flight may still be answered once stdin has ended
/// while stdout is still read. MCP's stdio shutdown is the client closing the
/// server's stdin, then waiting "a reasonable time" before SIGTERM: a host that
/// does so reads no more answers, but a script that pipes its requests in and
/// reads the answers does. A minute covers what such a script waits for (a
/// tool of a few seconds, a sample's long `waitFor`) and bounds a proxy whose
/// host left its stdout open (a terminal, a file, a pipe another process
/// holds); a host that is gone with its stdout closed ends the proxy at once.
pub const INPUT_END_GRACE: Duration = Duration::from_secs(60);
/// How long requests given up may take to end (a session's task cancelled,
/// a legacy session ended) before the proxy returns anyway.
const GIVE_UP_GRACE: Duration = Duration::from_secs(5);

/// How long the proxy waits for its requests in flight: [`INPUT_END_GRACE`] and
/// [`GIVE_UP_GRACE`] where it serves a client; shorter in tests, which would
/// otherwise wait each out in full for a request made never to end.
#[derive(Debug, Clone, Copy)]
struct Graces {
    /// After the input ended, for the answers.
    input_end: Duration,
    /// After the requests were given up, for them to end.
    give_up: Duration,
}

impl Graces {
    const SERVING: Self = Self {
        input_end: INPUT_END_GRACE,
        give_up: GIVE_UP_GRACE,
    };
}

/// Where the proxy writes for its client: an output, and whether anyone can
/// still read it.
pub trait ClientOutput: Write + Send + 'static {
    /// Whether what is written can no longer be read: the read end of a pipe
    /// closed, a socket hung up. `false` when it cannot be told.
    fn hung_up(&self) -> bool {
        false
    }
}

impl ClientOutput for std::io::Stdout {
    fn hung_up(&self) -> bool {
        use std::os::fd::AsFd as _;
        hung_up(self.as_fd())
    }
}

/// Whether `fd` reports an error or hangup when polled (no waiting): what a
/// pipe whose reader closed it reports (`POLLERR`), or a socket shut down (`POLLHUP`).
fn hung_up(fd: std::os::fd::BorrowedFd<'_>) -> bool {
    use rustix::event::{PollFd, PollFlags, poll};
    let mut fds = [PollFd::new(&fd, PollFlags::OUT)];
    let zero = rustix::event::Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    matches!(poll(&mut fds, Some(&zero)), Ok(n) if n > 0)
        && fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP)
}

/// The name of the log `proxy --usage` keeps beside mur's own
/// (`$XDG_STATE_HOME/mur/usage/sessions/mur-proxy.jsonl`): one for every proxy, whatever
/// it forwards to (records of several at once never interleave), apart from the
/// sessions' own `<project hash>.jsonl`, which `usage report` reads with it.
pub const USAGE_LOG_NAME: &str = "mur-proxy";

/// The recorder of the tool calls a proxy forwards (`--usage`: [`USAGE_LOG_NAME`] in
/// the sessions' usage directory; `--usage-log PATH`: that file), its log made at once;
/// `None` when `logging` is off. A log that cannot be written ends the proxy before it
/// serves anything, as it ends a bridge: whoever asked for the records wants them.
pub fn recorder(logging: &UsageLogging) -> Result<Option<Recorder>> {
    // The name of the log in the sessions' directory is the stem of this "lockfile";
    // the records name the project of the session each call went to, not it
    // ([`Recorder::finish_forwarded`]), nor a build.
    let name = std::path::PathBuf::from(format!("{USAGE_LOG_NAME}.json"));
    let Some(recorder) = Recorder::new(logging, &name, "") else {
        return Ok(None);
    };
    recorder
        .ready()
        .map_err(|why| crate::options::usage_log_unwritable(logging, recorder.path(), why))?;
    Ok(Some(recorder))
}

/// A forwarded `tools/call`'s record, until it is written: by whichever sees the call
/// end first (its answer written, or the proxy giving it up, or the client cancelling
/// it); empty for any other request, or with recording off.
type Unrecorded = Arc<Mutex<Option<Served>>>;

/// The proxy's state shared by the reader and the request threads.
struct Proxy<W> {
    out: Mutex<W>,
    upstream: Arc<dyn Upstream>,
    /// Where the tool calls forwarded are recorded; `None`: recording is off.
    usage: Option<Recorder>,
    /// Who the usage records say calls: the `clientInfo` of the client's `initialize`
    /// ([`client_label`]), none when it gave none.
    recorded_client: Mutex<Option<String>>,
    /// The client declared `elicitation`: questions can be asked of it.
    can_answer: AtomicBool,
    /// The client set a log level: ask the session for its log messages.
    verbose: AtomicBool,
    /// Who the session is told calls, once the client's `initialize` came ([`relayed_client`]).
    client: Mutex<Option<Value>>,
    /// The revision the client's `initialize` was answered with ([`negotiated_version`]);
    /// `None` before it, as for a 2026-07-28 client, which sends none.
    negotiated: Mutex<Option<String>>,
    /// Questions asked of the client, by the id we gave them, with the id of
    /// the request that asks; `None` once the input ended, when no answer can
    /// come (a question asked then gets none).
    asked: Mutex<Option<HashMap<String, Asked>>>,
    next_question: AtomicU64,
    /// Requests in flight, each on its thread.
    running: Mutex<Vec<Running>>,
    /// A write to the client failed, or its output hung up with requests in flight:
    /// nobody reads the answers any more.
    gone: AtomicBool,
    /// The signal ending the proxy (its number), 0 until one comes.
    ending: AtomicI32,
    /// The first write's failure, which [`serve`] returns.
    failed: Mutex<Option<std::io::Error>>,
    /// Wakes the serving loop when a write fails, to stop reading at once.
    wake: mpsc::SyncSender<Input>,
    /// How long the requests in flight may go on after the input ended, and after
    /// they were given up ([`Graces::SERVING`]).
    graces: Graces,
}

/// A question asked of the client: the id of the request that asks, and
/// where its answer goes.
type Asked = (Value, mpsc::Sender<Value>);

/// What the serving loop is handed: by the thread that reads the input, a line,
/// a line too long (skipped to its newline) or the input's end (its failure);
/// when the client is gone (a write failed, the output hung up), nothing but a
/// nudge to look at [`Proxy::gone`].
enum Input {
    Line(Vec<u8>),
    TooLong,
    End(std::io::Result<()>),
    ClientGone,
}

/// Why [`serve`] stopped short of its input's end, or found it failed.
#[derive(Debug)]
pub enum Stopped {
    /// Reading the input failed; the requests in flight were answered first.
    Input(std::io::Error),
    /// A write to the client failed (`BrokenPipe`: its reader closed it): the
    /// input was read no further, the requests in flight given up.
    Output(std::io::Error),
    /// A signal (SIGTERM, SIGINT, SIGHUP) ended the proxy: its requests in flight were
    /// given up and the upstream ended. The caller ends the process by it at once
    /// ([`mur_procs::end_by_signal`]), as it would have ended had the proxy not caught
    /// it; another signal meanwhile ends it by its default action.
    Signal(c_int),
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Input(e) => write!(f, "cannot read stdin: {e}"),
            Self::Output(e) => write!(f, "cannot write to stdout: {e}"),
            Self::Signal(signal) => write!(f, "ended by {}", crate::signals::name(*signal)),
        }
    }
}

/// A request in flight: the client's id, how to cancel it, its thread, and
/// whether its answer is written (or being written): by its thread, or by the
/// proxy that gave it up — never both; and its usage record, until written.
struct Running {
    id: Value,
    cancel: tokio::sync::watch::Sender<bool>,
    thread: std::thread::JoinHandle<()>,
    answered: Arc<AtomicBool>,
    unrecorded: Unrecorded,
}

/// Serves `input` until it ends, writing to `output`; the requests in flight
/// are answered before it returns, or given up ([`INPUT_END_GRACE`] after
/// `input` ended, or once the client is gone), also when reading `input`
/// fails ([`Stopped::Input`] then); a write that fails, or the output hanging up
/// while requests are in flight, stops it at once, the requests in flight given up
/// ([`Stopped::Output`]); then the upstream is ended
/// ([`Upstream::end`]). A signal (SIGTERM, SIGINT, SIGHUP) meanwhile gives the
/// requests up and ends the upstream, also when it came after the input ended:
/// [`Stopped::Signal`], for the caller to end the process by it. One after it
/// returned ends the process by its default action. Each `tools/call` is recorded
/// to `usage`, if given ([`recorder`]).
pub fn serve<W: ClientOutput>(
    upstream: Arc<dyn Upstream>,
    input: impl BufRead + Send + 'static,
    output: W,
    usage: Option<Recorder>,
) -> std::result::Result<(), Stopped> {
    serve_within(upstream, input, output, usage, Graces::SERVING)
}

/// [`serve`], the requests in flight waited for as long as `graces` say.
fn serve_within<W: ClientOutput>(
    upstream: Arc<dyn Upstream>,
    input: impl BufRead + Send + 'static,
    output: W,
    usage: Option<Recorder>,
    graces: Graces,
) -> std::result::Result<(), Stopped> {
    // One line ahead at most: what the input holds waits there, not in memory.
    let (wake, inputs) = mpsc::sync_channel(1);
    let reading = wake.clone();
    // Not joined: once the proxy stops on a failed write, it may be blocked on stdin
    // for good, and the process ends without it.
    std::thread::spawn(move || read_input(input, &reading));
    let proxy = Arc::new(Proxy {
        out: Mutex::new(output),
        upstream,
        usage,
        recorded_client: Mutex::default(),
        can_answer: AtomicBool::new(false),
        verbose: AtomicBool::new(false),
        client: Mutex::default(),
        negotiated: Mutex::default(),
        asked: Mutex::new(Some(HashMap::new())),
        next_question: AtomicU64::new(0),
        running: Mutex::default(),
        gone: AtomicBool::new(false),
        ending: AtomicI32::new(0),
        failed: Mutex::default(),
        wake,
        graces,
    });
    // Whichever comes first: the serving's end (`None`), or a signal's (its requests
    // given up on the watch's thread). The serving goes on a thread of its own, not
    // joined after a signal: it may be blocked for good on a write its client never
    // reads, and the caller ends the process without it.
    let (ended, end) = mpsc::channel::<Option<c_int>>();
    let stopping = proxy.clone();
    let by_signal = ended.clone();
    let watch = crate::signals::StopWatch::install(move |signal| {
        stopping.stopped_by(signal);
        let _ = by_signal.send(Some(signal));
    });
    if let Err(e) = &watch {
        tracing::debug!("no signal handlers ({e}): a signal ends the proxy at once");
    }
    let serving = std::thread::spawn(move || {
        let _done = Done(ended);
        serve_to_end(&proxy, &inputs)
    });
    let by = end.recv().ok().flatten();
    // A signal that came while the input's end was served ends the proxy all the
    // same, as it would have a moment before: the process is not to end as if none
    // came (the watch's thread may be giving its requests up still: the upstream
    // waits for its first end, so it is ended once). From now on a signal ends the
    // process by its default action.
    let came = watch.ok().and_then(crate::signals::StopWatch::settle);
    if let Some(signal) = by.or(came) {
        tracing::debug!("{}: the proxy ends by it", crate::signals::name(signal));
        return Err(Stopped::Signal(signal));
    }
    serving
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Says the serving ended when dropped: also when it panicked, for [`serve_within`]
/// not to wait on for a signal.
struct Done(mpsc::Sender<Option<c_int>>);

impl Drop for Done {
    fn drop(&mut self) {
        let _ = self.0.send(None);
    }
}

/// Serves the input until it ends or the client is gone, then the requests in flight
/// ([`Proxy::finish`]), then ends the upstream.
fn serve_to_end<W: ClientOutput>(
    proxy: &Arc<Proxy<W>>,
    inputs: &mpsc::Receiver<Input>,
) -> std::result::Result<(), Stopped> {
    let (still_reading, read_done) = mpsc::channel::<()>();
    let watching = std::thread::spawn({
        let proxy = proxy.clone();
        move || proxy.watch_output(&read_done)
    });
    let read = serve_inputs(proxy, inputs);
    drop(still_reading);
    let _ = watching.join();
    proxy.finish();
    proxy.upstream.end();
    read
}

/// Reads `input` line by line into `lines` until it ends, fails, or nobody takes them.
fn read_input(mut input: impl BufRead, lines: &mpsc::SyncSender<Input>) {
    loop {
        let mut line = Vec::new();
        let read = match read_line_blocking(&mut input, &mut line, MAX_LINE_BYTES) {
            Ok(Line::Read) => Input::Line(line),
            Ok(Line::TooLong) => match skip_line(&mut input, &mut 0) {
                Ok(_) => Input::TooLong,
                Err(e) => Input::End(Err(e)),
            },
            Ok(Line::End) => Input::End(Ok(())),
            Err(e) => Input::End(Err(e)),
        };
        let end = matches!(read, Input::End(_));
        if lines.send(read).is_err() || end {
            return;
        }
    }
}

/// Hands each line read to the proxy until the input ends, or a write fails.
fn serve_inputs<W: ClientOutput>(
    proxy: &Arc<Proxy<W>>,
    inputs: &mpsc::Receiver<Input>,
) -> std::result::Result<(), Stopped> {
    loop {
        // The sender is the proxy's too: never disconnected while it lives.
        let Ok(input) = inputs.recv() else {
            return Ok(());
        };
        if let Some(failed) = proxy.write_failure() {
            return Err(Stopped::Output(failed));
        }
        let line = match input {
            Input::End(read) => return read.map_err(Stopped::Input),
            Input::ClientGone => continue,
            Input::Line(line) => line,
            Input::TooLong => {
                proxy.write(&error(
                    Value::Null,
                    PARSE_ERROR,
                    &format!(
                        "Parse error: a line of more than {} MiB, the most a session takes as one request; skipped",
                        MAX_LINE_BYTES >> 20
                    ),
                ));
                continue;
            }
        };
        if line.trim_ascii().is_empty() {
            continue;
        }
        match serde_json::from_slice::<Value>(&line) {
            Ok(message) => proxy.receive(message),
            Err(e) => proxy.write(&error(
                Value::Null,
                PARSE_ERROR,
                &format!("Parse error: {e}"),
            )),
        }
    }
}

impl<W: ClientOutput> Proxy<W> {
    /// One message from the client.
    fn receive(self: &Arc<Self>, message: Value) {
        if let Some(why) = not_a_request(&message) {
            // Answered under its id when that can be one, for the client to match.
            let id = message.get("id").filter(|id| usable_id(id)).cloned();
            let why = format!("Invalid Request: {why}");
            self.write(&error(id.unwrap_or(Value::Null), INVALID_REQUEST, &why));
            return;
        }
        let method = message.get("method").and_then(Value::as_str);
        match (method, message.get("id")) {
            (Some(method), Some(id)) => self.request(method, id.clone(), message.get("params")),
            (Some("notifications/cancelled"), None) => {
                self.cancel(&message["params"]["requestId"]);
            }
            (Some(method), None) => {
                // `initialized`, list changes: nothing for a stateless session
                // to act on.
                tracing::debug!("notification `{method}` from the client: not forwarded");
            }
            // The client's answer to a question of the proxy's (`elicitation/create`).
            (None, Some(id))
                if message.get("result").is_some() || message.get("error").is_some() =>
            {
                let key = id.as_str().unwrap_or_default().to_owned();
                self.answered(&key, message);
            }
            // Neither a request nor an answer: one its client waits on (review 609 #7,
            // it was dropped as an answer nobody asked for, the client waiting for ever).
            (None, Some(id)) => {
                let id = Some(id).filter(|id| usable_id(id)).cloned();
                let why = "Invalid Request: neither `method` nor `result` nor `error`";
                self.write(&error(id.unwrap_or(Value::Null), INVALID_REQUEST, why));
            }
            (None, None) => self.write(&error(Value::Null, INVALID_REQUEST, "Invalid Request")),
        }
    }

    fn request(self: &Arc<Self>, method: &str, id: Value, params: Option<&Value>) {
        match method {
            "ping" => self.write(&result(id, json!({}))),
            "logging/setLevel" => {
                self.verbose.store(true, Ordering::SeqCst);
                self.write(&result(id, json!({})));
            }
            _ => {
                if method == "initialize" {
                    let asks = params.is_some_and(|p| p["capabilities"]["elicitation"].is_object());
                    self.can_answer.store(asks, Ordering::SeqCst);
                    let given = params.and_then(|p| p.get("clientInfo"));
                    let info = relayed_client(given);
                    if let Ok(mut client) = self.client.lock() {
                        *client = Some(info);
                    }
                    if let Ok(mut client) = self.recorded_client.lock() {
                        *client = given.and_then(recorded_client);
                    }
                    if let Ok(mut negotiated) = self.negotiated.lock() {
                        *negotiated = Some(negotiated_version(params).to_owned());
                    }
                }
                let unrecorded = Arc::new(Mutex::new(self.served(method, params)));
                let proxy = self.clone();
                let method = method.to_owned();
                let params = params.cloned();
                let (cancel, cancelled) = tokio::sync::watch::channel(false);
                let key = id.clone();
                let answered = Arc::new(AtomicBool::new(false));
                let answering = answered.clone();
                let recording = unrecorded.clone();
                // The request is in `running` before its thread does anything: the
                // thread is started under the lock a giving up takes, so one that comes
                // as it starts (a signal its call brought about) finds it there. Pushed
                // after the start, the request was missed by a giving up in between:
                // neither cancelled nor recorded, and the proxy returned without it.
                let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
                running.retain(|r| !r.thread.is_finished());
                let thread = std::thread::spawn(move || {
                    let request = Forwarded {
                        method: &method,
                        id: &id,
                        params: params.as_ref(),
                        cancelled: &cancelled,
                        answered: &answering,
                        unrecorded: &recording,
                    };
                    proxy.forward(&request);
                });
                running.push(Running {
                    id: key,
                    cancel,
                    thread,
                    answered,
                    unrecorded,
                });
                drop(running);
                if self.gone.load(Ordering::SeqCst) {
                    self.give_up_all(
                        "its client is gone (a write to stdout failed)",
                        Outcome::Interrupted,
                    );
                }
                // A request read after a signal gave the others up is given up too.
                if let Some(signal) = self.ending_by() {
                    let name = crate::signals::name(signal);
                    self.give_up_all(
                        &format!("the proxy was ended by {name}"),
                        Outcome::Interrupted,
                    );
                }
            }
        }
    }

    /// A `tools/call` with these params starting now, when recording is on: its
    /// client is the one its own `_meta` names (the 2026-07-28 form), else the one
    /// `initialize` named.
    fn served(&self, method: &str, params: Option<&Value>) -> Option<Served> {
        let recorder = self.usage.as_ref().filter(|_| method == "tools/call")?;
        let params = params?;
        let tool = params["name"].as_str()?;
        let client = match params["_meta"].get(CLIENT_INFO) {
            Some(info) => recorded_client(info),
            None => self.recorded_client.lock().ok()?.clone(),
        };
        Some(recorder.forwarded(tool, client))
    }

    /// Writes the record of a call that ended with `outcome` (or with its answer,
    /// `outcome` read from it), unless it was written already, or the call is not
    /// recorded. An input-required round ends no call: its record waits.
    fn record(&self, unrecorded: &Unrecorded, outcome: impl FnOnce(&Served) -> Option<Outcome>) {
        let Some(recorder) = &self.usage else {
            return;
        };
        let Ok(mut unrecorded) = unrecorded.lock() else {
            return;
        };
        let Some(outcome) = unrecorded.as_ref().and_then(outcome) else {
            return;
        };
        if let Some(served) = unrecorded.take() {
            recorder.finish_forwarded(served, outcome, self.upstream.project());
        }
    }

    /// The client cancelled its request `id`: its call ends, its questions
    /// wait no more (the client will not answer them), and nothing more is
    /// written for it. An id of no request in flight (one answered already)
    /// is nothing to cancel.
    fn cancel(&self, id: &Value) {
        let mut found = false;
        if let Ok(running) = self.running.lock() {
            for request in running.iter().filter(|r| r.id == *id) {
                found = true;
                // Nor is an error written for it if it is given up later; one whose
                // answer is being written is recorded by it.
                if !request.answered.swap(true, Ordering::SeqCst) {
                    self.record(&request.unrecorded, |_| Some(Outcome::Interrupted));
                }
                request.cancel.send_replace(true);
            }
        }
        if !found {
            tracing::debug!("the client cancelled request {id}, which is not in flight");
            return;
        }
        tracing::debug!("the client cancelled request {id}: ending its call");
        if let Ok(mut asked) = self.asked.lock()
            && let Some(asked) = asked.as_mut()
        {
            // Dropping a question's sender ends its wait, unanswered.
            asked.retain(|_, (asking, _)| asking != id);
        }
    }

    /// The input ended: questions can no longer be answered (those waiting
    /// get none), and the requests in flight are answered before we go (a
    /// cancelled one ends at once) — within the grace, and only while the
    /// client can read them: past the grace, or once the client is gone, they
    /// are given up, and the proxy returns once they end ([`GIVE_UP_GRACE`]
    /// at most: the process ends with it, and their connections with it).
    fn finish(&self) {
        if let Ok(mut asked) = self.asked.lock() {
            *asked = None;
        }
        let until = Instant::now() + self.graces.input_end;
        while !self.all_ended() {
            if let Some(gone) = self.client_gone() {
                self.give_up_all(gone, Outcome::Interrupted);
                break;
            }
            // The proxy's own bound, as a bridge's on its server: a failure its client
            // is told (while it reads), not the client stopping the call.
            if Instant::now() >= until {
                let why = format!(
                    "the proxy's input ended and {} passed without its answer",
                    humantime::format_duration(self.graces.input_end)
                );
                self.give_up_all(&why, Outcome::RpcError);
                break;
            }
            std::thread::sleep(LOOK_EVERY);
        }
        let until = Instant::now() + self.graces.give_up;
        while !self.all_ended() && Instant::now() < until {
            std::thread::sleep(LOOK_EVERY);
        }
        let running = self.running.lock().map(|mut r| std::mem::take(&mut *r));
        for request in running.unwrap_or_default() {
            if request.thread.is_finished() {
                let _ = request.thread.join();
            } else {
                tracing::warn!(
                    "request {} did not end when given up; the proxy returns without it",
                    request.id
                );
            }
        }
    }

    /// A signal ends the proxy (SIGTERM from an agent host, Ctrl+C, a terminal
    /// closed): its requests in flight are given up at once, not waited for as after
    /// the input's end; once they end ([`GIVE_UP_GRACE`] at most), the upstream is
    /// ended (a session-based server's session `DELETE`d, not left to its idle
    /// timeout); then [`serve`] returns [`Stopped::Signal`].
    fn stopped_by(&self, signal: c_int) {
        let name = crate::signals::name(signal);
        tracing::debug!("{name}: ending the proxy");
        // Set before the giving up looks at `running`: a request pushed after it
        // looked sees it ([`Self::request`]).
        self.ending.store(signal, Ordering::SeqCst);
        // Its client ended it, as a client's cancel ends a call.
        self.give_up_all(
            &format!("the proxy was ended by {name}"),
            Outcome::Interrupted,
        );
        let until = Instant::now() + self.graces.give_up;
        while !self.all_ended() && Instant::now() < until {
            std::thread::sleep(LOOK_EVERY);
        }
        self.upstream.end();
    }

    /// The signal ending the proxy, once one came ([`Self::stopped_by`]).
    fn ending_by(&self) -> Option<c_int> {
        match self.ending.load(Ordering::SeqCst) {
            0 => None,
            signal => Some(signal),
        }
    }

    /// Whether every request in flight has ended.
    fn all_ended(&self) -> bool {
        self.running
            .lock()
            .map_or(true, |r| r.iter().all(|r| r.thread.is_finished()))
    }

    /// Looks every [`LOOK_EVERY`], until the input is read no further (`done` dropped),
    /// whether the client closed the proxy's output with requests in flight: then it is
    /// gone, as when a write fails. Left to the next write, a hangup went unseen while
    /// the client kept stdin open and a call ran on (a host that closed only its read
    /// end), for as long as the call took — forever, for one that never ends.
    fn watch_output(&self, done: &mpsc::Receiver<()>) {
        while let Err(mpsc::RecvTimeoutError::Timeout) = done.recv_timeout(LOOK_EVERY) {
            if !self.all_ended() && self.client_gone().is_some() {
                self.lost_client(std::io::ErrorKind::BrokenPipe.into(), "stdout closed");
                return;
            }
        }
    }

    /// Why nobody can read the answers any more, if so.
    fn client_gone(&self) -> Option<&'static str> {
        if self.gone.load(Ordering::SeqCst) {
            return Some("its client is gone (a write to stdout failed)");
        }
        // Not waiting for a write under way: one stuck on a client that reads
        // nothing must not hold the proxy too.
        let hung_up = self.out.try_lock().is_ok_and(|out| out.hung_up());
        hung_up.then_some("its client is gone (stdout closed)")
    }

    /// Gives up every request in flight (`why`): its call is cancelled, its
    /// questions wait no more, and — while the client can still read — it is
    /// answered with an error saying why, unless its own answer came first; a tool
    /// call is recorded as ended with `outcome`: `interrupted` when its client stopped
    /// it (gone, or ending the proxy by a signal), as a session and a bridge record a
    /// request their client dropped; `rpc-error` when the proxy's own bound did.
    fn give_up_all(&self, why: &str, outcome: Outcome) {
        let gone = self.client_gone().is_some();
        let mut given_up = Vec::new();
        if let Ok(running) = self.running.lock() {
            for request in running.iter().filter(|r| !r.thread.is_finished()) {
                if !request.answered.swap(true, Ordering::SeqCst) {
                    given_up.push(request.id.clone());
                    self.record(&request.unrecorded, |_| Some(outcome));
                }
                request.cancel.send_replace(true);
            }
        }
        if let Ok(mut asked) = self.asked.lock()
            && let Some(asked) = asked.as_mut()
        {
            asked.retain(|_, (asking, _)| !given_up.contains(asking));
        }
        // One write stuck on a client that reads nothing would hold each of
        // the others a second too: the first stops them all.
        let mut writing = !gone;
        for id in &given_up {
            tracing::info!("request {id} given up: {why}");
            if writing {
                let message = format!("the request was given up, its call cancelled: {why}");
                writing = self.write_unless_stuck(&error(id.clone(), INTERNAL_ERROR, &message));
            }
        }
    }

    /// Runs one request against the session and writes its answer, unless the
    /// client cancelled it (`cancelled` then holds `true`), then its usage record.
    fn forward(self: &Arc<Self>, request: &Forwarded<'_>) {
        let Forwarded {
            method,
            id,
            params,
            cancelled,
            answered,
            unrecorded,
        } = *request;
        // mur's client sends its own token and reports what comes for it;
        // the client's token goes back on the relayed notifications. A verb's
        // label is mur's alone to give: the client's call is MCP, however labelled.
        let mut params = params.cloned();
        let meta = params
            .as_mut()
            .and_then(|p| p.get_mut("_meta"))
            .and_then(Value::as_object_mut);
        let token = meta.and_then(|meta| {
            meta.remove(mur_usage::VERB_META);
            meta.remove("progressToken")
        });
        let params = params.as_ref();
        let events = Relayed {
            proxy: self.clone(),
            token,
            id: id.clone(),
            cancelled: cancelled.clone(),
        };
        let verbose = self.verbose.load(Ordering::SeqCst);
        // A client that has not initialized is still not mur: the session is told
        // the call came through mur's proxy.
        let client = self.client.lock().ok().and_then(|client| client.clone());
        let client = client.unwrap_or_else(proxy_info);
        let asking = Asking {
            upstream: &*self.upstream,
            verbose,
            client: Some(&client),
            cancel: cancelled,
            events: &events,
        };
        let answer = if method == "initialize" {
            asking
                .call("server/discover", None)
                .map(|reply| Reply::Result(initialize_result(params, &reply)))
        } else if self.older_client() && matches!(method, "tasks/result" | "tasks/cancel") {
            about_task_of_older(method, params, &asking)
        } else {
            asking.call(method, params)
        };
        if *cancelled.borrow() || answered.swap(true, Ordering::SeqCst) {
            tracing::debug!("request {id} was cancelled: its outcome is not written");
            return;
        }
        let message = match answer {
            Ok(Reply::Result(found)) if method == "server/discover" => {
                result(id.clone(), discovered_as_told(found))
            }
            Ok(Reply::Result(value)) => result(id.clone(), self.as_negotiated(method, value)),
            Ok(Reply::Error(value)) => jsonrpc::error_reply(id.clone(), value),
            Err(e) => error(id.clone(), INTERNAL_ERROR, &with_hints(&e)),
        };
        self.write(&message);
        self.record(unrecorded, |served| answer_outcome(&message, served.tool()));
    }

    /// A result of `method` in the shape of the revision the client negotiated: one
    /// older than 2026-07-28 gets no field of that revision's, and a task in its own
    /// revision's form ([`in_older_revision`]), which the session, spoken to in
    /// 2026-07-28 by mur's client, answers in.
    fn as_negotiated(&self, method: &str, mut found: Value) -> Value {
        if self.older_client() {
            in_older_revision(method, &mut found);
        }
        found
    }

    /// Whether the client negotiated a revision older than 2026-07-28 in `initialize`.
    fn older_client(&self) -> bool {
        let negotiated = self.negotiated.lock().ok().and_then(|n| n.clone());
        negotiated.is_some_and(|version| version.as_str() < mur_client::MODERN_VERSION)
    }

    /// The client's answer to a question we asked.
    fn answered(&self, key: &str, message: Value) {
        let waiting = self
            .asked
            .lock()
            .ok()
            .and_then(|mut a| a.as_mut()?.remove(key));
        if let Some((_, waiting)) = waiting {
            let _ = waiting.send(message);
        }
    }

    /// Asks the client `question` for its request `id` and waits for its answer.
    fn ask(&self, id: &Value, question: &Question) -> Option<Response> {
        let params = json!({ "message": question.message, "requestedSchema": question.schema });
        self.elicit(id, params)
    }

    /// Asks the client `elicitation/create` with `params` for its request `id` and
    /// waits for its answer: none when it cannot answer (it declared no
    /// `elicitation`), its input ended, or it answered with an error.
    fn elicit(&self, id: &Value, params: Value) -> Option<Response> {
        if !self.can_answer.load(Ordering::SeqCst) {
            return None;
        }
        let n = self.next_question.fetch_add(1, Ordering::SeqCst) + 1;
        let key = format!("mur-proxy-q{n}");
        let (tx, rx) = mpsc::channel();
        // After the input ended, nobody can answer: none, rather than a wait
        // that would hold the proxy open for ever.
        self.asked
            .lock()
            .ok()?
            .as_mut()?
            .insert(key.clone(), (id.clone(), tx));
        self.write(&jsonrpc::request(key, "elicitation/create", Some(params)));
        let answer = rx.recv().ok()?;
        let result = answer.get("result")?;
        match result["action"].as_str()? {
            "accept" => Some(Response::Accept(
                result["content"].as_object().cloned().unwrap_or_default(),
            )),
            "decline" => Some(Response::Decline),
            _ => Some(Response::Cancel),
        }
    }

    /// [`Self::write`], unless another write holds the output for a second:
    /// one stuck on a client that reads nothing, which this one would join;
    /// whether it was written.
    fn write_unless_stuck(&self, message: &Value) -> bool {
        let until = Instant::now() + Duration::from_secs(1);
        loop {
            match self.out.try_lock() {
                Ok(mut out) => {
                    return writeln!(out, "{message}")
                        .and_then(|()| out.flush())
                        .is_ok();
                }
                Err(std::sync::TryLockError::WouldBlock) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(_) => return false,
            }
        }
    }

    /// One message, one line, flushed at once. A write that fails means the
    /// client is gone: nobody reads the answers of the requests in flight,
    /// which are given up then, and the input is read no further.
    fn write(&self, message: &Value) {
        let failed = match self.out.lock() {
            Ok(mut out) => writeln!(out, "{message}").and_then(|()| out.flush()).err(),
            Err(_) => None,
        };
        if let Some(failed) = failed {
            self.lost_client(failed, "a write to stdout failed");
        }
    }

    /// The client is gone (`how`: a write failed with `failed`, or the output hung up):
    /// the requests in flight are given up and the input read no further, [`serve`]
    /// returning `failed` ([`Self::write_failure`]). Only the first time.
    fn lost_client(&self, failed: std::io::Error, how: &str) {
        {
            // Kept before `gone` is set, under the lock [`Self::write_failure`] takes.
            let Ok(mut first) = self.failed.lock() else {
                return;
            };
            if self.gone.load(Ordering::SeqCst) {
                return;
            }
            tracing::debug!("{how} ({failed}): the proxy's client is gone");
            *first = Some(failed);
            self.gone.store(true, Ordering::SeqCst);
        }
        self.give_up_all(&format!("its client is gone ({how})"), Outcome::Interrupted);
        // Full: a line waits there, and the loop looks at `gone` once it takes it.
        let _ = self.wake.try_send(Input::ClientGone);
    }

    /// The error of the write that failed, once one has.
    fn write_failure(&self) -> Option<std::io::Error> {
        if !self.gone.load(Ordering::SeqCst) {
            return None;
        }
        let failed = self.failed.lock().ok().and_then(|mut f| f.take());
        Some(failed.unwrap_or_else(|| std::io::ErrorKind::BrokenPipe.into()))
    }
}

/// Why a message with a `method` is no JSON-RPC 2.0 request or notification, which a
/// server answers with Invalid Request (-32600) rather than serve: one of another
/// version, or none, may mean something else by its fields. `None` for a request or
/// notification, and for a message without `method` (an answer, or nothing: looked at
/// by [`Proxy::receive`]).
fn not_a_request(message: &Value) -> Option<&'static str> {
    let method = message.get("method")?;
    if message["jsonrpc"] != "2.0" {
        return Some("`jsonrpc` must be the string `2.0`");
    }
    if !method.is_string() {
        return Some("`method` must be a string");
    }
    // JSON-RPC and MCP ids are strings or numbers; anything else could not be told
    // apart from another request's when its answer comes.
    match message.get("id") {
        Some(id) if !usable_id(id) => Some("`id` must be a string or a number"),
        _ => None,
    }
}

/// Whether `id` is one a request may have: a string or a number.
fn usable_id(id: &Value) -> bool {
    id.is_string() || id.is_number()
}

/// One request a thread forwards ([`Proxy::forward`]): the client's method, id and
/// params; whether it was cancelled; whether its answer is written; its usage record.
#[derive(Clone, Copy)]
struct Forwarded<'a> {
    method: &'a str,
    id: &'a Value,
    params: Option<&'a Value>,
    cancelled: &'a tokio::sync::watch::Receiver<bool>,
    answered: &'a AtomicBool,
    unrecorded: &'a Unrecorded,
}

/// The call's events, relayed to the client as notifications and questions.
struct Relayed<W: ClientOutput> {
    proxy: Arc<Proxy<W>>,
    /// The client's progress token for this request, if it gave one.
    token: Option<Value>,
    /// The client's id of the request, and whether it cancelled it: then
    /// nothing more is written for it.
    id: Value,
    cancelled: tokio::sync::watch::Receiver<bool>,
}

impl<W: ClientOutput> Relayed<W> {
    fn cancelled(&self) -> bool {
        *self.cancelled.borrow()
    }
}

impl<W: ClientOutput> Events for Relayed<W> {
    fn progress(&self, progress: &Progress) {
        let Some(token) = self.token.as_ref().filter(|_| !self.cancelled()) else {
            return;
        };
        let mut params = json!({ "progressToken": token, "progress": progress.progress });
        if let Some(total) = progress.total {
            params["total"] = json!(total);
        }
        if let Some(message) = &progress.message {
            params["message"] = json!(message);
        }
        self.proxy
            .write(&notification("notifications/progress", Some(params)));
    }

    fn log(&self, message: &LogMessage) {
        if self.cancelled() {
            return;
        }
        let mut params = json!({ "level": message.level, "data": message.data });
        if let Some(logger) = &message.logger {
            params["logger"] = json!(logger);
        }
        self.proxy
            .write(&notification("notifications/message", Some(params)));
    }

    fn ask(&self, question: &Question) -> Option<Response> {
        if self.cancelled() {
            return None;
        }
        self.proxy.ask(&self.id, question)
    }

    fn finish(&self) {}
}

impl<W: ClientOutput> Relay for Relayed<W> {
    fn can_answer(&self) -> bool {
        self.proxy.can_answer.load(Ordering::SeqCst)
    }

    fn elicit(&self, params: Value) -> Option<Response> {
        if self.cancelled() {
            return None;
        }
        self.proxy.elicit(&self.id, params)
    }
}

/// The revision `initialize` with these params is answered with: the client's own when
/// the proxy speaks it through `initialize` (one of [`mur_client::REVISIONS`] before
/// 2026-07-28: 2025-11-25 and the revisions before it, whose shape it gives the
/// results); else — 2026-07-28, which has no `initialize` (its clients send none, and
/// get the results as they come), one mur does not know ("1999-01-01", "banana", a later
/// one), or none — the newest revision whose handshake `initialize` is,
/// [`mur_client::LEGACY_VERSION`]. MCP's lifecycle asks so of a server that does not
/// support the version requested: it answers one it does, and the client decides
/// whether it speaks that or disconnects; a session answers `initialize` asking for
/// 2026-07-28 so too. Echoed, an unknown revision left the client believing the proxy
/// spoke it, and decided the results' shape ([`Proxy::as_negotiated`]) by comparing
/// it, a word perhaps, with a date; 2026-07-28 echoed agreed to a handshake that
/// revision does not have.
fn negotiated_version(params: Option<&Value>) -> &'static str {
    let asked = params.and_then(|p| p["protocolVersion"].as_str());
    mur_client::REVISIONS
        .iter()
        .copied()
        .filter(|revision| *revision < mur_client::MODERN_VERSION)
        .find(|revision| Some(*revision) == asked)
        .unwrap_or(mur_client::LEGACY_VERSION)
}

/// What 2026-07-28 adds to a complete result, taken off for a client of an older
/// revision, where strict clients refuse fields they do not know: `resultType`, the
/// protocol's `_meta` keys (its `serverInfo` on every result) — as mur's own `call`
/// takes them off ([`without_protocol_fields`]) — and a list's or read's `ttlMs` and
/// `cacheScope`. A task is given in 2025-11-25's form, the only older revision with
/// tasks ([`task_of_2025`]): a task created (`resultType: "task"`, flat) as
/// `{"task": {…}}`, and `tasks/get`'s answer as the task alone. Any other result without
/// `resultType: "complete"` is left whole: a session of an older revision sent it so
/// (its `_meta` may hold that revision's own keys, a task's `related-task`; its tasks are
/// in that form already), or its `resultType` says what it is.
fn in_older_revision(method: &str, result: &mut Value) {
    match result["resultType"].as_str() {
        Some("task") => {
            *result = json!({ "task": task_of_2025(result) });
            return;
        }
        Some("complete") => {}
        _ => return,
    }
    if method == "tasks/get" && result.get("taskId").is_some() {
        let mut task = task_of_2025(result);
        if let Some(meta) = result.get("_meta") {
            task["_meta"] = meta.clone();
        }
        *result = task;
    }
    if method == "tasks/list"
        && let Some(Value::Array(tasks)) = result.get_mut("tasks")
    {
        for task in tasks.iter_mut() {
            *task = task_of_2025(task);
        }
    }
    without_protocol_fields(result);
    if let Some(fields) = result.as_object_mut() {
        fields.retain(|key, _| !matches!(key.as_str(), "ttlMs" | "cacheScope"));
    }
}

/// `initialize` answered from the session's `server/discover`; a session
/// that does not offer it (an older server) is taken to offer tools.
fn initialize_result(params: Option<&Value>, discovered: &Reply) -> Value {
    let version = negotiated_version(params);
    let (capabilities, info, instructions) = match discovered {
        Reply::Result(found) => (
            found["capabilities"].clone(),
            found["_meta"]["io.modelcontextprotocol/serverInfo"].clone(),
            found.get("instructions").cloned(),
        ),
        Reply::Error(_) => (json!({ "tools": {} }), Value::Null, None),
    };
    let info = if info.is_object() { info } else { proxy_info() };
    let capabilities = if capabilities.is_object() {
        without_notifications(capabilities)
    } else {
        json!({ "tools": {} })
    };
    let mut answer = json!({
        "protocolVersion": version,
        "capabilities": capabilities,
        "serverInfo": info,
    });
    if let Some(instructions) = instructions {
        answer["instructions"] = instructions;
    }
    answer
}

/// A client's own `server/discover` answered as its `initialize` is: without the
/// notifications that never reach it ([`without_notifications`]).
fn discovered_as_told(mut found: Value) -> Value {
    if let Some(capabilities) = found.get_mut("capabilities") {
        *capabilities = without_notifications(capabilities.take());
    }
    found
}

/// Who the session is told calls: the client's `clientInfo` — its name and version
/// alone, each cut as a usage record cuts them ([`mur_usage::cut_name`]), a
/// missing version made empty (a session of the 2025-11-25 revision refuses a
/// `clientInfo` without one, and so every request) — or, when it gave no name, or a
/// name or version that is no string, the proxy's own ([`proxy_info`]).
fn relayed_client(info: Option<&Value>) -> Value {
    let usable = |info: &Value| {
        let name = mur_usage::cut_name(info["name"].as_str()?);
        let version = match &info["version"] {
            Value::Null => String::new(),
            version => mur_usage::cut_name(version.as_str()?),
        };
        (!name.is_empty()).then(|| json!({ "name": name, "version": version }))
    };
    info.and_then(usable).unwrap_or_else(proxy_info)
}

/// Who a usage record says called, of a `clientInfo` the client gave: `name version`
/// ([`client_label`], as a session's records say); `None` for one with no name, or a
/// name or version that is no string — no client named, `(unnamed)` in a report.
fn recorded_client(info: &Value) -> Option<String> {
    let version = match &info["version"] {
        Value::Null => None,
        version => Some(version.as_str()?),
    };
    client_label(info["name"].as_str()?, version)
}

/// The proxy's own name and version: who calls, for a client that said nothing usable
/// of itself, and who answers, for a session that did not say.
fn proxy_info() -> Value {
    json!({ "name": "mur-proxy", "version": env!("CARGO_PKG_VERSION") })
}

/// The hint under a request out of time: the bound is the proxy's option, given
/// where the agent host's configuration starts the proxy, not before a verb.
const SLOW_TOOL_HINT: &str = "a slow tool may need a longer bound: start the proxy with a longer \
     `--timeout MS` (`mur devtools proxy --timeout MS`), or with none, to leave the bound to the \
     agent host";

/// An error's message, its list (the sessions to choose from) and its `hint:`
/// lines, as mur prints them: the agent behind the proxy reads the fix too
/// (`choose one with `--project PATH``); a request out of its bound is told the
/// proxy's ([`SLOW_TOOL_HINT`]), last.
fn with_hints(e: &mur_core::Error) -> String {
    let bound = e.is_out_of_bound().then_some(SLOW_TOOL_HINT);
    std::iter::once(e.message().to_owned())
        .chain(e.list().iter().map(|row| format!("  {row}")))
        .chain(
            e.hints()
                .iter()
                .map(String::as_str)
                .chain(bound)
                .map(|h| format!("hint: {h}")),
        )
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use mur_testkit::Captured;

    /// Graces for a test: `input_end` after the input, and half a second for the
    /// requests given up to end (whether they end in it changes nothing written:
    /// once given up, a request is answered by the proxy, not by its own thread).
    pub(super) fn graces(input_end: Duration) -> Graces {
        Graces {
            input_end,
            give_up: Duration::from_millis(500),
        }
    }

    impl ClientOutput for Captured {}

    /// A request out of its bound is told the proxy's bound, after what the bridge said;
    /// no other error is.
    #[test]
    fn a_request_out_of_its_bound_is_told_the_proxys_bound_last() {
        let out = mur_core::Error::transport("`x` did not answer within 300 ms")
            .out_of_bound()
            .with_first_hint("the bridge said: an answer to id 9");
        assert_eq!(
            with_hints(&out),
            format!(
                "`x` did not answer within 300 ms\nhint: the bridge said: an answer to id 9\n\
                 hint: {SLOW_TOOL_HINT}"
            )
        );
        let refused = mur_core::Error::transport("refused").with_hint("start it");
        assert_eq!(with_hints(&refused), "refused\nhint: start it");
    }

    #[test]
    fn initialize_takes_the_sessions_capabilities_and_the_clients_version() {
        let discovered = Reply::Result(json!({
            "capabilities": { "tools": { "listChanged": false }, "logging": {} },
            "instructions": "drive the app",
            "_meta": { "io.modelcontextprotocol/serverInfo": { "name": "mur-sample", "version": "1" } },
        }));
        let params = json!({ "protocolVersion": "2025-06-18" });
        let answer = initialize_result(Some(&params), &discovered);
        assert_eq!(answer["protocolVersion"], "2025-06-18");
        assert_eq!(answer["capabilities"]["logging"], json!({}));
        assert_eq!(answer["serverInfo"]["name"], "mur-sample");
        assert_eq!(answer["instructions"], "drive the app");
        let older = initialize_result(None, &Reply::Error(json!({ "code": -32601 })));
        assert_eq!(older["capabilities"], json!({ "tools": {} }));
    }

    /// `initialize` names a revision the proxy speaks through it: the client's own when it
    /// is one of them, else the newest one whose handshake `initialize` is (2025-11-25),
    /// as MCP's lifecycle asks: the client decides. Before, any was echoed, "banana" too,
    /// and 2026-07-28, which has no `initialize`, until helper 502.
    #[test]
    fn initialize_answers_an_unsupported_revision_with_the_newest_it_speaks() {
        let discovered = Reply::Result(json!({ "capabilities": { "tools": {} } }));
        let answered = |asked: Value| {
            let params = json!({ "protocolVersion": asked, "capabilities": {} });
            initialize_result(Some(&params), &discovered)["protocolVersion"].clone()
        };
        let handshakes = mur_client::REVISIONS.iter();
        for supported in handshakes.filter(|r| **r != mur_client::MODERN_VERSION) {
            assert_eq!(answered(json!(supported)), *supported);
        }
        for unsupported in [
            // 2026-07-28 has no `initialize`: agreed to, the client was told the proxy
            // spoke a handshake that revision does not have (a session answers
            // 2025-11-25 too).
            json!("2026-07-28"),
            json!("1999-01-01"),
            json!("banana"),
            json!("2099-01-01"),
            json!(""),
            json!(20250618),
            Value::Null,
        ] {
            assert_eq!(answered(unsupported.clone()), "2025-11-25", "{unsupported}");
        }
        assert_eq!(
            initialize_result(None, &discovered)["protocolVersion"],
            "2025-11-25"
        );
    }

    /// An upstream that answers each request after 200 ms with its method.
    struct Slow;

    impl Upstream for Slow {
        fn call(&self, request: Request<'_>, _events: &dyn Events) -> Result<Reply> {
            std::thread::sleep(std::time::Duration::from_millis(200));
            Ok(Reply::Result(json!({ "method": request.method })))
        }
    }

    pub(super) fn lines_of(out: &Captured) -> Vec<Value> {
        let text = out.text();
        text.lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect()
    }

    /// What the proxy wrote, serving `upstream` the lines of `input` to their end.
    pub(super) fn served_lines(upstream: Arc<dyn Upstream>, input: String) -> Vec<Value> {
        let out = Captured::default();
        serve(upstream, std::io::Cursor::new(input), out.clone(), None).expect("served");
        lines_of(&out)
    }

    /// The `result` of the answer to request `id` among `lines`, for each of `ids`.
    pub(super) fn results_of<const N: usize>(lines: &[Value], ids: [u64; N]) -> [Value; N] {
        ids.map(|id| {
            let answer = lines.iter().find(|l| l["id"] == id).expect("answered");
            answer["result"].clone()
        })
    }

    /// What the proxy wrote for `input`, and what `serve` returned.
    fn serve_bytes(
        input: impl BufRead + Send + 'static,
    ) -> (Vec<Value>, std::result::Result<(), Stopped>) {
        let out = Captured::default();
        let served = serve(Arc::new(Slow), input, out.clone(), None);
        (lines_of(&out), served)
    }

    const SLOW: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}\n";

    #[test]
    fn a_line_that_is_no_utf8_is_a_parse_error_and_the_request_in_flight_is_answered() {
        let input = [
            SLOW,
            b"\xff\xfe{\n",
            b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n",
        ]
        .concat();
        let (lines, served) = serve_bytes(std::io::Cursor::new(input));
        served.expect("served to the end");
        // Three answers, in whatever order they were ready.
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(
            lines.iter().any(|l| l["error"]["code"] == PARSE_ERROR),
            "{lines:?}"
        );
        assert!(
            lines.contains(&json!({ "jsonrpc": "2.0", "id": 2, "result": {} })),
            "{lines:?}"
        );
        assert!(
            lines.iter().any(|l| l["result"]["method"] == "tools/call"),
            "{lines:?}"
        );
    }

    #[test]
    fn a_line_past_the_limit_is_answered_and_skipped_to_its_newline() {
        let long = vec![b'a'; MAX_LINE_BYTES * 2];
        let input = [
            SLOW,
            &long,
            b"\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n",
            &long,
        ]
        .concat();
        // A small buffer: the line is never held whole.
        let (lines, served) = serve_bytes(std::io::BufReader::with_capacity(
            4096,
            std::io::Cursor::new(input),
        ));
        served.expect("served to the end");
        let message = format!(
            "Parse error: a line of more than {} MiB, the most a session takes as one request; skipped",
            MAX_LINE_BYTES >> 20
        );
        let skipped = lines
            .iter()
            .filter(|l| l["error"]["message"] == message.as_str())
            .count();
        // The last line too, with no newline before the end.
        assert_eq!(skipped, 2, "{lines:?}");
        assert!(lines.iter().any(|l| l["id"] == 2), "{lines:?}");
        assert!(
            lines.iter().any(|l| l["result"]["method"] == "tools/call"),
            "{lines:?}"
        );
        assert_eq!(lines.len(), 4, "{lines:?}");
    }

    /// An upstream whose `server/discover` promises notifications.
    struct Notifying;

    impl Upstream for Notifying {
        fn call(&self, _request: Request<'_>, _events: &dyn Events) -> Result<Reply> {
            Ok(Reply::Result(json!({ "capabilities": {
                "tools": { "listChanged": true },
                "resources": { "subscribe": true, "listChanged": true },
            } })))
        }
    }

    /// A client's own `server/discover` is told what `initialize` tells: no
    /// notifications, since none reaches the proxy's client.
    #[test]
    fn a_clients_own_discover_is_told_no_notifications_as_initialize_is() {
        let input = [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"server/discover"}"#,
        ]
        .join("\n");
        let lines = served_lines(Arc::new(Notifying), input);
        for (id, result) in [1, 2].into_iter().zip(results_of(&lines, [1, 2])) {
            assert_eq!(
                result["capabilities"],
                json!({ "tools": {}, "resources": {} }),
                "{id}: {lines:?}"
            );
        }
    }

    /// An upstream that answers as a 2026-07-28 session does through mur's client:
    /// results with that revision's fields; `tasks/result` as a 2025-11-25 session
    /// does, with that revision's `_meta` key.
    struct Modern;

    impl Upstream for Modern {
        fn call(&self, request: Request<'_>, _events: &dyn Events) -> Result<Reply> {
            let server = json!({ "io.modelcontextprotocol/serverInfo": { "name": "s" } });
            Ok(Reply::Result(match request.method {
                "tools/call" => json!({ "resultType": "complete", "content": [],
                    "isError": false, "_meta": server }),
                "tools/list" => json!({ "resultType": "complete", "tools": [],
                    "ttlMs": 0, "cacheScope": "private", "_meta": server }),
                "tasks/result" => json!({ "content": [],
                    "_meta": { "io.modelcontextprotocol/related-task": { "taskId": "t" } } }),
                _ => json!({}),
            }))
        }
    }

    /// The results of requests 2 (`tools/call`), 3 (`tools/list`) and 4
    /// (`tasks/result`) from [`Modern`], after `opening`.
    fn modern_results(opening: &[&str]) -> [Value; 3] {
        results_of(&modern_answers(opening), [2, 3, 4])
    }

    /// What the proxy wrote, serving [`Modern`] `opening`, then requests 2 (`tools/call`),
    /// 3 (`tools/list`) and 4 (`tasks/result`).
    fn modern_answers(opening: &[&str]) -> Vec<Value> {
        let asked = [
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tasks/result","params":{"taskId":"t"}}"#,
        ];
        let input = [opening, &asked].concat().join("\n");
        served_lines(Arc::new(Modern), input)
    }

    /// A client that negotiated a revision older than 2026-07-28 gets results in its
    /// revision's shape: none of the fields 2026-07-28 added (strict clients refuse
    /// them), its own revision's `_meta` keys kept. A client of 2026-07-28, or one
    /// that sent no `initialize` (as a 2026-07-28 client does not), gets them as they
    /// came.
    #[test]
    fn a_client_gets_results_in_the_shape_of_the_revision_it_negotiated() {
        let older = modern_results(&[
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#,
        ]);
        assert_eq!(
            older,
            [
                json!({ "content": [], "isError": false }),
                json!({ "tools": [] }),
                json!({ "content": [],
                    "_meta": { "io.modelcontextprotocol/related-task": { "taskId": "t" } } }),
            ]
        );
        let server = json!({ "io.modelcontextprotocol/serverInfo": { "name": "s" } });
        let modern = [
            json!({ "resultType": "complete", "content": [], "isError": false, "_meta": server }),
            json!({ "resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "private",
                "_meta": server }),
            json!({ "content": [],
                "_meta": { "io.modelcontextprotocol/related-task": { "taskId": "t" } } }),
        ];
        assert_eq!(modern_results(&[]), modern);
        // `initialize` asking for 2026-07-28 is answered 2025-11-25 (that revision has
        // no `initialize`), and the results come in that revision's shape.
        let asked = modern_results(&[
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2026-07-28"}}"#,
        ]);
        assert_eq!(asked, older);
    }

    /// A client that asked for a revision the proxy does not speak is answered
    /// 2025-11-25, and gets results in that revision's shape: "banana" and "2099-01-01"
    /// sort after "2026-07-28", so it got 2026-07-28's fields.
    #[test]
    fn a_client_of_an_unsupported_revision_is_answered_and_served_as_of_2025_11_25() {
        let older = [
            json!({ "content": [], "isError": false }),
            json!({ "tools": [] }),
            json!({ "content": [],
                "_meta": { "io.modelcontextprotocol/related-task": { "taskId": "t" } } }),
        ];
        for asked in ["banana", "2099-01-01", "1999-01-01"] {
            let opening = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{asked}"}}}}"#
            );
            let answers = modern_answers(&[&opening]);
            let initialized = answers.iter().find(|l| l["id"] == 1).expect("answered");
            assert_eq!(
                initialized["result"]["protocolVersion"], "2025-11-25",
                "{asked}"
            );
            assert_eq!(modern_results(&[&opening]), older, "{asked}");
        }
    }

    /// What is no JSON-RPC 2.0 request — another `jsonrpc`, none, a `method` that is
    /// no string — is refused with Invalid Request (-32600), under its id when it has
    /// one a request may have; never served.
    #[test]
    fn a_message_of_another_json_rpc_or_none_is_an_invalid_request() {
        let input = [
            r#"{"jsonrpc":"1.0","id":5,"method":"ping"}"#,
            r#"{"id":6,"method":"ping"}"#,
            r#"{"method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":"seven","method":7}"#,
            r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#,
        ]
        .join("\n");
        let (lines, served) = serve_bytes(std::io::Cursor::new(input));
        served.expect("served to the end");
        let invalid =
            |id: Value, why: &str| error(id, INVALID_REQUEST, &format!("Invalid Request: {why}"));
        let version = "`jsonrpc` must be the string `2.0`";
        assert_eq!(
            lines,
            [
                invalid(json!(5), version),
                invalid(json!(6), version),
                invalid(Value::Null, version),
                invalid(json!("seven"), "`method` must be a string"),
                result(json!(8), json!({})),
            ]
        );
    }

    /// An upstream whose call ends when it is cancelled (or after 10 s, saying it
    /// was not), counting the calls cancelled; `server/discover` (`initialize`)
    /// is answered at once.
    #[derive(Default)]
    struct Cancellable(AtomicU64);

    impl Upstream for Cancellable {
        fn call(&self, request: Request<'_>, _events: &dyn Events) -> Result<Reply> {
            if request.method == "server/discover" {
                return Ok(Reply::Result(json!({})));
            }
            let mut cancel = request.cancel.clone();
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .expect("a runtime");
            let cancelled = runtime.block_on(async {
                let wait = cancel.wait_for(|c| *c);
                tokio::time::timeout(std::time::Duration::from_secs(10), wait)
                    .await
                    .is_ok()
            });
            if cancelled {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
            Ok(Reply::Result(json!({ "cancelled": cancelled })))
        }
    }

    /// Once the input ended, a request still in flight past the grace is given
    /// up: its call cancelled, and an error written for it instead of its answer
    /// (the proxy waited for it however long it took).
    #[test]
    fn past_the_grace_after_the_input_ends_a_request_is_given_up_with_an_error() {
        let out = Captured::default();
        let upstream = Arc::new(Cancellable::default());
        let input = r#"{"jsonrpc":"2.0","id":"call","method":"tools/call"}"#;
        let grace = Duration::from_millis(200);
        serve_within(
            upstream.clone(),
            std::io::Cursor::new(input),
            out.clone(),
            None,
            graces(grace),
        )
        .expect("served");
        assert_eq!(
            lines_of(&out),
            [
                json!({ "jsonrpc": "2.0", "id": "call", "error": { "code": INTERNAL_ERROR,
                "message": "the request was given up, its call cancelled: the proxy's input ended and 200ms passed without its answer" } })
            ]
        );
        assert_eq!(upstream.0.load(Ordering::SeqCst), 1);
    }

    /// An output whose reader is gone: every write fails, and it says it hung up
    /// when `hung_up` is set.
    struct Closed {
        hung_up: bool,
    }

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl ClientOutput for Closed {
        fn hung_up(&self) -> bool {
            self.hung_up
        }
    }

    /// An output whose reader reads nothing: a write blocks (for ten minutes).
    struct Unread;

    impl Write for Unread {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            std::thread::sleep(Duration::from_secs(600));
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl ClientOutput for Unread {}

    /// An answer stuck on a client that reads nothing holds neither the proxy's end
    /// nor the giving up of its other requests (both waited for the stuck write).
    #[test]
    fn a_write_stuck_on_a_client_that_reads_nothing_does_not_hold_the_proxy() {
        let input = [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#,
        ]
        .join("\n");
        assert!(
            ends_with_nobody_reading(input),
            "the proxy is held by the stuck write"
        );
    }

    /// Whether the proxy serving `input` to an output nobody reads ends within a
    /// hang guard far past what it takes (the grace, a second for the stuck
    /// output, the give-up grace).
    fn ends_with_nobody_reading(input: String) -> bool {
        let upstream = Arc::new(Cancellable::default());
        ends_within_a_minute(upstream, input, Unread, Duration::from_millis(200))
    }

    /// Whether the proxy serving `upstream` the lines of `input`, writing to `output`
    /// with `graces(input_end)`, ends within a minute: a hang guard far past what any
    /// of these tests takes. Once it has ended, it served without error.
    pub(super) fn ends_within_a_minute(
        upstream: Arc<dyn Upstream>,
        input: String,
        output: impl ClientOutput,
        input_end: Duration,
    ) -> bool {
        let served = std::thread::spawn(move || {
            let input = std::io::Cursor::new(input);
            serve_within(upstream, input, output, None, graces(input_end))
        });
        let until = Instant::now() + Duration::from_secs(60);
        while !served.is_finished() && Instant::now() < until {
            std::thread::sleep(LOOK_EVERY);
        }
        if !served.is_finished() {
            return false;
        }
        served.join().expect("no panic").expect("served");
        true
    }

    /// Requests given up behind a write stuck on a client that reads nothing
    /// wait for it once, not a second each (100 took 100 s more to end).
    #[test]
    fn requests_given_up_behind_a_stuck_write_wait_for_it_once() {
        let mut lines = vec![r#"{"jsonrpc":"2.0","id":"init","method":"initialize"}"#.to_owned()];
        lines.extend(
            (0..100).map(|id| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call"}}"#)),
        );
        // 100 s without it: far past the hang guard.
        assert!(
            ends_with_nobody_reading(lines.join("\n")),
            "each given up request waited for the stuck write"
        );
    }

    /// An upstream whose call ends only once its channel's sender is dropped,
    /// cancelled or not.
    struct Stubborn(Mutex<std::sync::mpsc::Receiver<()>>);

    impl Upstream for Stubborn {
        fn call(&self, _request: Request<'_>, _events: &dyn Events) -> Result<Reply> {
            let _ = self.0.lock().expect("lock").recv();
            Ok(Reply::Result(json!({})))
        }
    }

    /// A request the client cancelled that is still running when the grace ends
    /// gets no error either: nothing more is written for it.
    #[test]
    fn a_cancelled_request_still_running_past_the_grace_gets_no_error() {
        let out = Captured::default();
        let (release, held) = std::sync::mpsc::channel();
        let input = [
            r#"{"jsonrpc":"2.0","id":"call","method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"call"}}"#,
        ]
        .join("\n");
        let upstream = Arc::new(Stubborn(Mutex::new(held)));
        serve_within(
            upstream,
            std::io::Cursor::new(input),
            out.clone(),
            None,
            graces(Duration::from_millis(100)),
        )
        .expect("served");
        drop(release);
        assert_eq!(lines_of(&out), Vec::<Value>::new());
    }

    /// Once nobody reads the answers — a write failed, or stdout hung up — the
    /// requests in flight are given up at once, not waited for (nor for the grace).
    #[test]
    fn with_its_client_gone_the_requests_in_flight_are_given_up() {
        let slow = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#;
        let ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
        for (hung_up, input) in [(true, slow.to_owned()), (false, format!("{slow}\n{ping}"))] {
            let upstream = Arc::new(Cancellable::default());
            let closed = Closed { hung_up };
            let served = serve(upstream.clone(), std::io::Cursor::new(input), closed, None);
            // Hung up, nothing written: the input's end (or the hangup, if seen first:
            // a closed pipe all the same). A write failed: its error.
            match served {
                Err(Stopped::Output(e)) => assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe),
                served => assert!(hung_up && served.is_ok(), "{served:?}"),
            }
            assert_eq!(upstream.0.load(Ordering::SeqCst), 1, "hung up: {hung_up}");
        }
    }

    /// An output that cannot be written (a full disk).
    struct Full;

    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("no space left"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl ClientOutput for Full {}

    /// Input of `line`, then none for as long as `more` is held: stdin left open.
    struct Open {
        line: &'static [u8],
        more: Mutex<std::sync::mpsc::Receiver<()>>,
    }

    impl std::io::Read for Open {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.line.is_empty() {
                let _ = self.more.lock().expect("lock").recv();
                return Ok(0);
            }
            let n = self.line.len().min(buf.len());
            buf[..n].copy_from_slice(&self.line[..n]);
            self.line = &self.line[n..];
            Ok(n)
        }
    }

    /// A write that fails stops the proxy at once, its input still open (it read on
    /// to the input's end, which may never come, and returned as if all were well),
    /// and the request in flight is given up: the error is the write's.
    #[test]
    fn a_write_that_fails_stops_the_proxy_with_its_input_still_open() {
        let (held, more) = std::sync::mpsc::channel();
        let input = Open {
            line: b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}\n\
                    {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n",
            more: Mutex::new(more),
        };
        let upstream = Arc::new(Cancellable::default());
        let served = serve(upstream.clone(), std::io::BufReader::new(input), Full, None);
        assert_eq!(
            served.expect_err("the write's failure").to_string(),
            "cannot write to stdout: no space left"
        );
        assert_eq!(upstream.0.load(Ordering::SeqCst), 1, "given up");
        drop(held);
    }

    /// A client that closes the proxy's output but keeps its input open (a host that
    /// closed only its read end) is gone once that is seen, not at the next write: the
    /// request in flight is given up at once, rather than run for as long as it takes,
    /// and the proxy stops as when a write fails, its input still open.
    #[test]
    fn a_client_that_closes_only_the_proxys_output_is_gone_at_once() {
        let (held, more) = std::sync::mpsc::channel();
        let input = Open {
            line: SLOW,
            more: Mutex::new(more),
        };
        let upstream = Arc::new(Cancellable::default());
        let closed = Closed { hung_up: true };
        let served = serve(
            upstream.clone(),
            std::io::BufReader::new(input),
            closed,
            None,
        );
        match served {
            Err(Stopped::Output(e)) => assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe),
            served => panic!("not stopped as by a closed pipe: {served:?}"),
        }
        // The order of events, not a time: the upstream counts its call only when it
        // is cancelled while it still holds it. A proxy that waited for the next
        // write stopped only once the upstream answered on its own (the answer's
        // write failed), its call never cancelled: none counted.
        assert_eq!(
            upstream.0.load(Ordering::SeqCst),
            1,
            "the proxy stopped only once the upstream had answered"
        );
        drop(held);
    }

    /// An upstream whose tool `quick` answers, `broken` fails (`isError`), and any other
    /// waits until cancelled (or 10 s); `server/discover` (`initialize`) is answered at once.
    struct Tools;

    impl Upstream for Tools {
        fn call(&self, request: Request<'_>, events: &dyn Events) -> Result<Reply> {
            let text = |text: &str, failed: bool| json!({ "content": [{ "type": "text", "text": text }], "isError": failed });
            match request.params.map(|p| &p["name"]) {
                _ if request.method != "tools/call" => Ok(Reply::Result(json!({}))),
                Some(name) if name == "quick" => Ok(Reply::Result(text("done", false))),
                Some(name) if name == "broken" => Ok(Reply::Result(text("it broke", true))),
                _ => Cancellable::default().call(request, events),
            }
        }

        fn project(&self) -> Option<String> {
            Some("0123abcd".to_owned())
        }
    }

    /// With recording on, each tool call forwarded is recorded once, however it ended —
    /// answered (how, read from the answer), cancelled by the client (`interrupted`),
    /// given up past the grace (`rpc-error`) — in the name of the client `initialize`
    /// named, with the project the upstream names; no other request is, and no record
    /// says a bridge wrote it (a report would leave out a bridged server's own records).
    #[test]
    fn each_tool_call_forwarded_is_recorded_once_however_it_ended() {
        let dir = tempfile::tempdir().expect("a directory");
        let log = dir.path().join("proxied.jsonl");
        let usage = recorder(&UsageLogging::At(log.clone())).expect("a recorder");
        let call = |id: u64, name: &str| {
            json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": { "name": name, "arguments": { "secret": "hunter2" } } })
        };
        let input = [
            json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize",
                    "params": { "clientInfo": { "name": "agent", "version": "1" } } }),
            call(2, "quick"),
            call(3, "broken"),
            call(4, "cancelled"),
            json!({ "jsonrpc": "2.0", "method": "notifications/cancelled",
                    "params": { "requestId": 4 } }),
            call(5, "abandoned"),
            json!({ "jsonrpc": "2.0", "id": 6, "method": "tools/list" }),
            json!({ "jsonrpc": "2.0", "id": 7, "method": "ping" }),
        ]
        .map(|line| line.to_string())
        .join("\n");
        serve_within(
            Arc::new(Tools),
            std::io::Cursor::new(input),
            Captured::default(),
            usage,
            graces(Duration::from_millis(300)),
        )
        .expect("served");
        let text = std::fs::read_to_string(&log).expect("the log");
        assert!(!text.contains("hunter2"), "{text}");
        let mut seen: Vec<Vec<Value>> = text
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).expect("a record"))
            .map(|r| {
                [
                    "side", "surface", "client", "tool", "outcome", "project", "bridge",
                ]
                .map(|key| r[key].clone())
                .to_vec()
            })
            .collect();
        seen.sort_by_key(|row| row[3].to_string());
        let row = |tool: &str, outcome: &str| {
            json!(["server", "mcp", "agent 1", tool, outcome, "0123abcd", null])
        };
        assert_eq!(
            Value::from(seen.into_iter().map(Value::from).collect::<Vec<_>>()),
            json!([
                row("abandoned", "rpc-error"),
                row("broken", "tool-error"),
                row("cancelled", "interrupted"),
                row("quick", "ok"),
            ])
        );
    }

    /// A tool call whose client went away (its output closed with the call in flight) is
    /// recorded `interrupted`, as one it cancelled is: the client stopped it, as a
    /// session and a bridge record a call whose client dropped its request. It was
    /// `rpc-error`, a failure no one had.
    #[test]
    fn a_tool_call_whose_client_went_away_is_recorded_interrupted() {
        let dir = tempfile::tempdir().expect("a directory");
        let log = dir.path().join("proxied.jsonl");
        let usage = recorder(&UsageLogging::At(log.clone())).expect("a recorder");
        let served = serve_held_call(Arc::new(Tools), Closed { hung_up: true }, usage);
        assert!(matches!(served, Err(Stopped::Output(_))), "{served:?}");
        let records = mur_testkit::usage_records(&log);
        assert_eq!(
            mur_testkit::fields(&records, ["tool", "outcome"]),
            [["held", "interrupted"]]
        );
    }

    /// What [`serve`] returns for one tool call (`held`), writing to `output`, its input
    /// then held open (a client that keeps stdin open) until it returns.
    fn serve_held_call<W: ClientOutput>(
        upstream: Arc<dyn Upstream>,
        output: W,
        usage: Option<Recorder>,
    ) -> std::result::Result<(), Stopped> {
        let (_held, more) = std::sync::mpsc::channel();
        let input = Open {
            line: b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"held\"}}\n",
            more: Mutex::new(more),
        };
        serve_within(
            upstream,
            std::io::BufReader::new(input),
            output,
            usage,
            graces(Duration::from_secs(30)),
        )
    }

    /// Set in the environment of this test binary run again: the usage log [`signalled`]
    /// records to.
    const SIGNALLED: &str = "MUR_BRIDGE_TEST_SIGNALLED";

    /// An upstream whose call raises SIGTERM, then waits until it is cancelled.
    struct Raising;

    impl Upstream for Raising {
        fn call(&self, request: Request<'_>, events: &dyn Events) -> Result<Reply> {
            signal_hook::low_level::raise(signal_hook::consts::SIGTERM).expect("raised");
            Cancellable::default().call(request, events)
        }
    }

    /// Run by [`a_signal_gives_the_requests_up_and_is_returned`] only (passes at once
    /// otherwise): a proxy whose call raises SIGTERM, its input held open, returns it.
    #[test]
    fn signalled() {
        let Ok(log) = std::env::var(SIGNALLED) else {
            return;
        };
        let usage = recorder(&UsageLogging::At(log.into())).expect("a recorder");
        let served = serve_held_call(Arc::new(Raising), Captured::default(), usage);
        assert!(
            matches!(served, Err(Stopped::Signal(signal_hook::consts::SIGTERM))),
            "{served:?}"
        );
    }

    /// A signal to the proxy gives its requests up (recorded `interrupted`) and is
    /// returned, for the binary to end the process by it: it was the one thing of the
    /// library that did not return, ending the process itself. In a process of its own
    /// ([`signalled`]): the handlers are the process's.
    #[test]
    fn a_signal_gives_the_requests_up_and_is_returned() {
        let dir = tempfile::tempdir().expect("a directory");
        let log = dir.path().join("proxied.jsonl");
        let exe = std::env::current_exe().expect("the test binary");
        let status = std::process::Command::new(exe)
            .args(["--exact", "proxy::tests::signalled", "--test-threads=1"])
            .env(SIGNALLED, &log)
            .output()
            .expect("the test binary runs")
            .status;
        assert!(status.success(), "{status}");
        let records = mur_testkit::usage_records(&log);
        assert_eq!(
            mur_testkit::fields(&records, ["tool", "outcome"]),
            [["held", "interrupted"]]
        );
    }

    /// A request the client cancels ends, and no answer is written for it.
    #[test]
    fn a_cancelled_request_ends_unanswered() {
        let input = [
            r#"{"jsonrpc":"2.0","id":"call","method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"call"}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
        ]
        .join("\n");
        assert_eq!(
            served_lines(Arc::new(Cancellable::default()), input),
            [json!({ "jsonrpc": "2.0", "id": 2, "result": {} })]
        );
    }

    /// Input that fails after its first bytes.
    struct Failing(&'static [u8]);

    impl std::io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::other("the input broke"));
            }
            let n = self.0.len().min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn when_stdin_fails_the_requests_in_flight_are_answered_first() {
        let (lines, served) = serve_bytes(std::io::BufReader::new(Failing(SLOW)));
        assert_eq!(
            served.expect_err("the failure").to_string(),
            "cannot read stdin: the input broke"
        );
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert_eq!(lines[0]["result"]["method"], "tools/call");
    }
}
