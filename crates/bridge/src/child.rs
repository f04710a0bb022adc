//! The stdio MCP server: started with its stderr in the log (through a pipe,
//! clipped and bounded: [`crate::log`]), spoken to in
//! newline-delimited JSON-RPC over its stdin and stdout (which is all stdio
//! MCP is), and initialized once per start. Clients' requests reach a start
//! only once it has answered `initialize` (MCP's order: nothing before the
//! handshake), so those that arrive while the server restarts wait for it.
//! A server whose stdout ends can answer nothing more: unless it exits then,
//! it is stopped, and started again as after a crash.

use std::{
    ffi::OsString,
    process::{Command, ExitStatus, Stdio},
    sync::Arc,
    time::Duration,
};

use mur_core::{Error, Result};
use mur_lockfile::jsonrpc::{self, INTERNAL_ERROR, PARSE_ERROR};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncWriteExt, BufReader},
    net::unix::pipe,
    sync::mpsc,
};

use crate::lines::{Line, read_line};
use crate::log::{Log, Tail, pump};
use crate::process::Process;
use crate::relay::{Relay, Writer};

/// The revision the bridge offers in `initialize`; a server answers with the
/// one it speaks, older or equal.
const OFFERED_VERSION: &str = mur_client::LEGACY_VERSION;
/// Longest a server may take to answer `initialize` (an `npx` that fetches its
/// package first takes seconds).
pub const INITIALIZE_LIMIT: Duration = Duration::from_secs(60);
/// How long a server gets to exit on its own after its stdin closes.
const EXIT_GRACE: Duration = Duration::from_secs(2);
/// How long a server's processes get to exit after SIGTERM before SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(2);
/// How long a start that failed waits for the last of its server's stderr
/// (the server is ended by then, so the pipe closes at once unless a process
/// it left, in a group of its own, holds it).
const STDERR_WAIT: Duration = Duration::from_secs(1);
/// The largest message (one line of its stdout) the bridge reads from the
/// server by default (`bridge --max-message BYTES` sets another): what a `mur`
/// call reads of one answer by default (`--max-response`, 64 MiB — a 4K
/// screenshot in Base64 is well under 40). A message past it could not reach
/// such a client anyway, and reading it would cost the bridge memory in
/// proportion (a server that writes without a newline, forever): past it the
/// bridge stops reading, fails the requests in flight and starts the server
/// again, as when it dies mid-call.
pub const MAX_MESSAGE_BYTES: u64 = mur_core::settings::ByteSize::DEFAULT_MAX_RESPONSE.0;
/// How long a server that has written to its stdout what is not JSON-RPC gets to
/// answer `initialize` before the bridge says so (once): a banner then the answer is
/// a server like any, one that never answers (an HTTP server bridged by mistake) was
/// told from a slow one only by the [`INITIALIZE_LIMIT`].
const UNANSWERED_NOTE_AFTER: Duration = Duration::from_secs(2);
/// How that note begins: a background start finds it in the bridge's log by it.
pub(crate) const UNANSWERED_NOTE: &str =
    "the server has not answered `initialize` yet and wrote to its stdout what is not JSON-RPC";

/// One start of the server.
pub(crate) struct Server {
    process: Process,
    /// Why the server's output can no longer be read, from its reader.
    broken: mpsc::Receiver<Unreadable>,
    /// What its `initialize` answered: protocol version, capabilities, server info.
    pub(crate) initialized: Value,
}

/// Why the server's output can no longer be read, as in "the server {why}".
enum Unreadable {
    /// A message past the bridge's limit ([`MAX_MESSAGE_BYTES`] by default).
    TooLong(String),
    /// Its stdout ended (or failed): as it exits, or closed by a server that
    /// runs on, which can answer nothing more.
    Closed(String),
    /// Before it answered, it wrote back the bridge's own `initialize` request (a
    /// program that echoes its input, as `cat` does): no MCP server sends that.
    Echoed,
}

/// How a start of the server ended.
pub(crate) enum Ended {
    /// It exited for a reload a tool asked for, with
    /// [`STDIO_RELOAD_EXIT`](mur_server::STDIO_RELOAD_EXIT): it wants to be started
    /// again, which is no crash.
    Reloaded,
    /// It exited, with this status.
    Exited(String),
    /// It wrote what the bridge cannot read (and was killed): why, as in
    /// "the server {why}".
    Broken(String),
}

impl Server {
    /// Starts `command`, its stderr appended to `log`, initializes it and
    /// attaches it to `relay` (requests waiting for a server go to it then).
    /// Once `stopped` resolves (the bridge is stopped meanwhile), the start
    /// is given up and the server ended.
    /// Starts `command` and initializes it; a message of it past `max_message`
    /// bytes breaks it.
    pub(crate) async fn start(
        command: &[OsString],
        max_message: u64,
        log: &Arc<Log>,
        relay: &Relay,
        stopped: impl Future<Output = ()>,
    ) -> Result<Self> {
        let (mut child, marker) = spawn(command)?;
        let tail = child.stderr.take().map(|stderr| pump(stderr, log.clone()));
        let log = log.path();
        let (mut process, stdin, stdout) = Process::adopt(child, marker)
            .map_err(|e| Error::internal(format!("cannot attach to the server: {e}")))?;
        let (writer, lines) = mpsc::unbounded_channel();
        let (broke, mut broken) = mpsc::channel(1);
        // What it writes to its stdout that is not JSON-RPC, for a start that is slow or
        // fails: the cause, when the command is no MCP stdio server (an HTTP server's
        // "listening", a JSON logger's lines).
        let not_rpc = Arc::new(Tail::new());
        tokio::spawn(write_lines(stdin, lines));
        // Until it has answered `initialize`: a request `initialize` it writes is the
        // bridge's own echoed back.
        let answering = Arc::new(std::sync::atomic::AtomicBool::new(true));
        tokio::spawn({
            let (relay, not_rpc) = (relay.clone(), not_rpc.clone());
            let answering = answering.clone();
            async move {
                read_messages(stdout, relay, broke, max_message, &not_rpc, &answering).await;
                not_rpc.end();
            }
        });
        // Stopped by the bridge's user: not the server's failure to explain.
        let mut stopped_first = false;
        let initialized = tokio::select! {
            answer = noting(initialize(relay, &writer), &not_rpc) => answer,
            status = process.wait() => Err(exited_early(status)),
            Some(unreadable) = broken.recv() => match unreadable {
                Unreadable::Echoed => Err(echoed(command)),
                unreadable => match exit_or_why(&mut process, unreadable).await {
                    Ok(status) => Err(exited_early(status)),
                    Err(why) => Err(Error::transport(format!(
                        "the server {why} before it answered `initialize`"
                    ))),
                },
            },
            () = stopped => {
                stopped_first = true;
                Err(Error::transport(
                    "the bridge was stopped before the server answered `initialize`",
                ))
            }
        };
        answering.store(false, std::sync::atomic::Ordering::SeqCst);
        match initialized {
            Ok(initialized) => {
                relay.attach(Some(writer));
                Ok(Self {
                    process,
                    broken,
                    initialized,
                })
            }
            Err(e) if stopped_first => {
                let _ = process.end(TERM_GRACE).await;
                Err(e)
            }
            Err(e) => {
                // Ended first, so its output closes and its last words are in.
                let _ = process.end(TERM_GRACE).await;
                let stderr = async {
                    match &tail {
                        Some(tail) => tail.lines(STDERR_WAIT).await,
                        None => Vec::new(),
                    }
                };
                let (wrote, said) = tokio::join!(not_rpc.lines(STDERR_WAIT), stderr);
                let e = with_last_words(e, &wrote, &said);
                Err(e.with_hint(format!("its stderr is in `{}`", log.display())))
            }
        }
    }

    /// Its pid, for the log's line that it started (the process `ps` shows).
    pub(crate) fn pid(&self) -> i32 {
        self.process.pid()
    }

    /// Resolves when the server exits, or has written what the bridge cannot
    /// read (it is ended then). Either way nothing of it is left running: what
    /// it started (a wrapper's real server) is ended with it.
    pub(crate) async fn ended(&mut self) -> Ended {
        let status = tokio::select! {
            status = self.process.wait() => status,
            Some(unreadable) = self.broken.recv() => match exit_or_why(&mut self.process, unreadable).await {
                Ok(status) => status,
                Err(why) => {
                    let _ = self.process.end(TERM_GRACE).await;
                    return Ended::Broken(why);
                }
            },
        };
        let _ = self.process.end(TERM_GRACE).await;
        match status {
            Ok(status) if status.code() == Some(mur_server::STDIO_RELOAD_EXIT) => Ended::Reloaded,
            Ok(status) => Ended::Exited(status.to_string()),
            Err(e) => Ended::Exited(e.to_string()),
        }
    }

    /// Closes its stdin (a stdio server exits when its input ends), waits a
    /// little for its processes to go, then ends them (SIGTERM, then SIGKILL),
    /// and what it left outside its group.
    pub(crate) async fn stop(mut self, relay: &Relay) {
        relay.attach(None);
        if !self.process.group_gone_within(EXIT_GRACE).await {
            tracing::info!("the server did not exit when its input closed; ending it");
        }
        let _ = self.process.end(TERM_GRACE).await;
    }
}

/// Starts `command` in a process group of its own, marked ([`crate::process::marked`]):
/// the child and the marker. Through [`mur_procs::spawn`]: listed as its `Child`'s until
/// reaped, so the bridge's reaping of what it adopted never takes the server's status.
fn spawn(command: &[OsString]) -> Result<(mur_procs::Spawned, String)> {
    let Some((program, args)) = command.split_first() else {
        return Err(Error::usage("no server command given after `--`"));
    };
    let mut command = Command::new(program);
    let marker = crate::process::marked(&mut command);
    crate::process::in_own_group(&mut command)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = mur_procs::spawn(&mut command).map_err(|e| not_started(program, &e))?;
    Ok((child, marker))
}

/// Why the server command did not start: the command line's fault (not there, not
/// runnable, not a program: exit 1), or this machine's (out of processes, descriptors or
/// memory: exit 7).
fn not_started(program: &OsString, e: &std::io::Error) -> Error {
    use rustix::io::Errno;
    let message = format!("cannot start `{}`: {e}", program.to_string_lossy());
    let machine = [Errno::AGAIN, Errno::NOMEM, Errno::MFILE, Errno::NFILE];
    match Errno::from_io_error(e) {
        Some(errno) if machine.contains(&errno) => Error::internal(message),
        _ => Error::usage(message),
    }
}

/// What `unreadable` comes to: the server's exit status when its stdout ended
/// as it exited (within [`EXIT_GRACE`]: its exit says more than its output's
/// end), else why its output can be read no more (the server still runs then).
async fn exit_or_why(
    process: &mut Process,
    unreadable: Unreadable,
) -> std::result::Result<std::io::Result<ExitStatus>, String> {
    match unreadable {
        Unreadable::TooLong(why) => Err(why),
        Unreadable::Echoed => Err("wrote back the bridge's own `initialize` request".to_owned()),
        Unreadable::Closed(why) => match tokio::time::timeout(EXIT_GRACE, process.wait()).await {
            Ok(status) => Ok(status),
            Err(_) => Err(why),
        },
    }
}

/// `answered` (the server's answer to `initialize`), saying once in the log, when
/// [`UNANSWERED_NOTE_AFTER`] has passed without it and the server has written to its
/// stdout what is not JSON-RPC (`wrote`), the first such line: the likely cause, said
/// while the bridge still waits, as it does up to [`INITIALIZE_LIMIT`].
async fn noting<T>(answered: impl Future<Output = T>, wrote: &Tail) -> T {
    let mut answered = std::pin::pin!(answered);
    let note = async {
        tokio::time::sleep(UNANSWERED_NOTE_AFTER).await;
        let first = wrote.first().await;
        tracing::warn!(
            "{UNANSWERED_NOTE}, where an MCP stdio server writes only its JSON-RPC messages (is \
             the command one?); the first such line: {}",
            mur_core::text::escaped(&first, mur_core::text::unprintable)
        );
    };
    tokio::select! {
        answer = &mut answered => return answer,
        () = note => {}
    }
    answered.await
}

/// `e`, a start that failed, with what the server wrote that says why: the lines of
/// its stdout that are not JSON-RPC first (`wrote`: no MCP stdio server writes them, so
/// they name the cause, where the bridge waited for an answer), then the last lines
/// of its stderr (`said`), each escaped.
fn with_last_words(e: Error, wrote: &[String], said: &[String]) -> Error {
    let line = |stream: &str, line: &String| {
        let line = mur_core::text::escaped(line, mur_core::text::unprintable);
        format!("{stream}: {line}")
    };
    let e = match wrote {
        [] => e,
        _ => e.with_hint(
            "it wrote to its stdout what is not JSON-RPC, where an MCP stdio server writes only \
             its JSON-RPC messages: is the command one?",
        ),
    };
    let e = wrote
        .iter()
        .fold(e, |e, wrote| e.with_hint(line("stdout", wrote)));
    said.iter()
        .fold(e, |e, said| e.with_hint(line("stderr", said)))
}

/// The message for a server that wrote the bridge's `initialize` request back (`cat`)
/// where it was to answer it: no MCP server does, so the start fails at once, naming
/// the program, rather than after the [`INITIALIZE_LIMIT`] as "did not answer".
fn echoed(command: &[OsString]) -> Error {
    let program = command
        .first()
        .map(|program| program.to_string_lossy())
        .unwrap_or_default();
    let program = mur_core::text::escaped(&program, mur_core::text::unprintable);
    Error::transport(format!(
        "the server echoed the bridge's `initialize` request back instead of answering it: \
         is `{program}` an MCP stdio server?"
    ))
}

/// The message for a server that exited before it answered `initialize`.
fn exited_early(status: std::io::Result<ExitStatus>) -> Error {
    let status = status.map_or_else(|e| e.to_string(), |s| s.to_string());
    Error::transport(format!(
        "the server exited ({status}) before it answered `initialize`"
    ))
}

/// `initialize`, then `notifications/initialized`: the one session the
/// bridge holds for all its clients. Written to this start's `writer`
/// alone: the relay has no server attached until it is done.
async fn initialize(relay: &Relay, writer: &Writer) -> Result<Value> {
    let params = json!({
        "protocolVersion": OFFERED_VERSION,
        // Questions are relayed to the client of the request that asks them.
        "capabilities": { "elicitation": { "form": {} } },
        "clientInfo": { "name": mur_usage::BRIDGE_CLIENT, "version": env!("CARGO_PKG_VERSION") },
    });
    let (request, mut sent) = relay.register(Value::Null, "initialize", Some(params), true);
    let _ = writer.send(request.to_string());
    let answer = tokio::time::timeout(INITIALIZE_LIMIT, sent.messages.recv())
        .await
        .map_err(|_| {
            Error::transport(format!(
                "the server did not answer `initialize` within {} s",
                INITIALIZE_LIMIT.as_secs()
            ))
        })?
        .ok_or_else(|| Error::transport("the server closed its output during `initialize`"))?;
    let result = initialize_result(&answer)?;
    let note = jsonrpc::notification("notifications/initialized", None);
    let _ = writer.send(note.to_string());
    Ok(result)
}

/// The result of the server's `answer` to `initialize`, when it is one: an object
/// naming the protocol version the server speaks. Anything else fails the start,
/// naming what it answered: taken, it was passed to every client as the bridge's own
/// `initialize` result, whose calls then failed blaming the bridge's endpoint.
fn initialize_result(answer: &Value) -> Result<Value> {
    let Some(result) = answer.get("result") else {
        return Err(Error::transport(format!(
            "the server refused `initialize`: {}",
            answer["error"]["message"]
                .as_str()
                .unwrap_or("(no message)")
        )));
    };
    let words = mur_client::value_in_words;
    let wrong = match result.get("protocolVersion") {
        _ if !result.is_object() => format!("a `result` that is {}, not an object", words(result)),
        Some(Value::String(_)) => return Ok(result.clone()),
        Some(other) => format!("a `protocolVersion` that is {}, not a string", words(other)),
        None => "a `result` without its `protocolVersion`".to_owned(),
    };
    Err(Error::transport(format!(
        "the server answered `initialize` with {wrong}"
    )))
}

/// Writes each message as one line; ends when the relay lets go of the
/// writer, which closes the server's stdin.
async fn write_lines(mut stdin: pipe::Sender, mut lines: mpsc::UnboundedReceiver<String>) {
    while let Some(mut line) = lines.recv().await {
        line.push('\n');
        if stdin.write_all(line.as_bytes()).await.is_err() || stdin.flush().await.is_err() {
            break;
        }
    }
}

/// Hands every line of the server's stdout to the relay; a line that is not
/// JSON (a banner printed to stdout by mistake) goes to the log, clipped, and to
/// `not_rpc`, and so does JSON that is no JSON-RPC message (a JSON logger's line). A
/// line past `max_message` bytes ends the reading: `broken` says why, naming
/// the limit as the bridge's and how to raise it (mur's own `--max-response`
/// bounds what a call reads of an answer, not what the bridge reads). So
/// does the end of its stdout: a server that exits, or one that closed its
/// stdout and runs on, which the bridge then stops and starts again as a crash.
async fn read_messages(
    stdout: pipe::Receiver,
    relay: Relay,
    broken: mpsc::Sender<Unreadable>,
    max_message: u64,
    not_rpc: &Tail,
    answering: &std::sync::atomic::AtomicBool,
) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    let limit = usize::try_from(max_message).unwrap_or(usize::MAX);
    loop {
        line.clear();
        match read_line(&mut reader, &mut line, limit).await {
            Ok(Line::Read) => {}
            Ok(Line::TooLong) => {
                let why = format!(
                    "wrote a message larger than {}, the bridge's message limit (a bridge started \
                     with `--max-message BYTES` reads larger ones)",
                    mur_core::settings::human_bytes(max_message)
                );
                tracing::warn!("the server {why}; stopping it");
                let _ = broken.send(Unreadable::TooLong(why)).await;
                return;
            }
            // A server whose stdout ended answers nothing more, whether it exits
            // or runs on: every request would wait out its time for nothing.
            Ok(Line::End) => {
                let why = "closed its stdout but kept running, so it could answer nothing more";
                let _ = broken.send(Unreadable::Closed(why.to_owned())).await;
                return;
            }
            Err(e) => {
                let why = format!("has a stdout the bridge cannot read ({e}) and kept running");
                let _ = broken.send(Unreadable::Closed(why)).await;
                return;
            }
        }
        let bytes = line.trim_ascii();
        if !bytes.is_empty() {
            // Parsed as bytes: a string that is not UTF-8 is refused, not mended into
            // U+FFFD and relayed as if the server had written that.
            match serde_json::from_slice::<Value>(bytes) {
                Ok(message) => {
                    if answering.load(std::sync::atomic::Ordering::SeqCst)
                        && message.get("method").and_then(Value::as_str) == Some("initialize")
                    {
                        // A server never asks a client `initialize`: this is the bridge's
                        // own request, echoed. Server-to-client requests and notifications
                        // before the answer (logging, progress) are relayed as ever.
                        tracing::warn!(
                            "the server wrote back the bridge's own `initialize` request: {}",
                            mur_core::text::escaped(
                                &String::from_utf8_lossy(bytes),
                                mur_core::text::unprintable
                            )
                        );
                        let _ = broken.send(Unreadable::Echoed).await;
                        return;
                    }
                    if !is_json_rpc(&message) {
                        not_rpc.push(&String::from_utf8_lossy(bytes));
                    }
                    if message["result"]["_meta"][mur_server::RELOADING_META] == true {
                        // A mur-server stdio session answered a call that asked for a
                        // reload, and exits once its answers are out: the requests from
                        // now on (the next call after the reload's answer) wait for the
                        // process started next instead of reaching this one.
                        relay.attach(None);
                    }
                    relay.route(message, line.len());
                }
                Err(error) => refused(bytes, &error, &relay, not_rpc),
            }
        }
        if line.capacity() > SMALL_LINE {
            // A big message read: its buffer goes back.
            line = Vec::new();
        }
    }
}

/// Whether `message` is JSON-RPC as the relay routes it: an object with a method or
/// an id, or a batch. Any other JSON the relay logs as matching no request.
fn is_json_rpc(message: &Value) -> bool {
    message.is_array() || message.get("method").is_some() || message.get("id").is_some()
}

/// A line of the server's the parser refused (`error`), answered where its id can be
/// read ([`in_place_of`]): an answer, to its call at once by the bridge's error in its
/// place; a request, to the server by a parse error, so that it does not wait out its
/// own time for an answer. Anything else goes to the log and the clients' warning
/// ([`Relay::unmatched`]), and to `not_rpc`, for a start that is slow or fails: a
/// notification has no answer, and a line whose id cannot be read (itself a string
/// that is not UTF-8, or no JSON at all) none it could be matched by — JSON-RPC answers
/// one with a null id, which MCP does not allow and which no request of the server's
/// has, so the server's own timeout ends its wait, as it would without the bridge.
fn refused(bytes: &[u8], error: &serde_json::Error, relay: &Relay, not_rpc: &Tail) {
    let what = unreadable_line(bytes, error);
    match in_place_of(bytes, &what) {
        Some(InPlace::Answer(answer)) => {
            tracing::warn!("the server answered with {what}");
            relay.route(answer, bytes.len());
        }
        Some(InPlace::Request(refusal)) => {
            tracing::warn!("the server asked with {what}; answered it with a parse error");
            relay.write(&refusal);
        }
        None => {
            let text = String::from_utf8_lossy(bytes);
            not_rpc.push(&text);
            relay.unmatched(&what, &text);
        }
    }
}

/// What the bridge writes in place of a line it cannot read.
#[derive(Debug, PartialEq)]
enum InPlace {
    /// An answer's: the error its call ends with.
    Answer(Value),
    /// A request's: the parse error the server is answered with.
    Request(Value),
}

/// What answers in place of a line the bridge cannot read (`what` it is: bytes that
/// are not UTF-8, JSON nested past serde_json's 128 levels): its id read alone, the
/// rest skipped — serde_json skips an ignored value without recursing, or reading its
/// strings as UTF-8. An answer's is an error marked [`mur_client::UNREADABLE_ANSWER`],
/// so the call it answers fails at once rather than waiting out its time, as the
/// malformed answer it is, which mur says as it says one read over HTTP (exit 2), not
/// the tool's failure; a request's, a parse error for the server. `None` for a line
/// with no id (a notification), or none that can be read.
fn in_place_of(bytes: &[u8], what: &str) -> Option<InPlace> {
    #[derive(serde::Deserialize)]
    struct Envelope {
        #[serde(default)]
        id: Option<Value>,
        #[serde(default)]
        method: Option<serde::de::IgnoredAny>,
    }
    let envelope: Envelope = serde_json::from_slice(bytes).ok()?;
    let id = envelope.id?;
    if envelope.method.is_some() {
        // JSON-RPC "parse error": a request the bridge cannot read, said to the server.
        return Some(InPlace::Request(jsonrpc::error(
            id,
            PARSE_ERROR,
            &format!("the bridge cannot read this request: it is {what}"),
        )));
    }
    Some(InPlace::Answer(jsonrpc::error_with_data(
        id,
        INTERNAL_ERROR,
        &format!("the stdio server answered with {what}"),
        json!({ (mur_client::UNREADABLE_ANSWER): true }),
    )))
}

/// What a line the parser refused (`error`) is, for the log and the clients'
/// warning: JSON the bridge cannot hold as a value (nested past 128 levels, a
/// number past f64) is said as such, not as "not JSON" — skipped as ignored,
/// which neither recurses nor converts numbers, it reads — and so is JSON whose
/// bytes are not UTF-8, which JSON text must be.
fn unreadable_line(bytes: &[u8], error: &serde_json::Error) -> String {
    if serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_err() {
        format!("a line that is not JSON ({error})")
    } else if let Err(e) = std::str::from_utf8(bytes) {
        format!("a line that is not UTF-8, as JSON must be ({e})")
    } else {
        format!("JSON the bridge cannot read ({error})")
    }
}

/// A line buffer kept between lines up to this capacity.
const SMALL_LINE: usize = 1 << 20;

#[cfg(test)]
mod tests {
    use super::*;
    use mur_core::Kind;

    /// What the bridge makes of a line `bytes` the parser refuses.
    fn what(bytes: &[u8]) -> String {
        let error = serde_json::from_slice::<Value>(bytes).expect_err("refused");
        unreadable_line(bytes, &error)
    }

    /// The answer that stands for `bytes`'s, which the bridge cannot read.
    fn answer_in_place_of(bytes: &[u8], what: &str) -> Value {
        match in_place_of(bytes, what) {
            Some(InPlace::Answer(answer)) => answer,
            other => panic!("no answer: {other:?}"),
        }
    }

    /// An `initialize` answer that is no initialize result fails the start, naming
    /// what the server answered; one that is, is taken whole.
    #[test]
    fn an_initialize_answer_that_is_no_initialize_result_fails_the_start() {
        let refused = |result: Value| {
            let answer = json!({ "jsonrpc": "2.0", "id": 0, "result": result });
            let e = initialize_result(&answer).expect_err("refused");
            assert_eq!(e.kind(), Kind::Transport);
            e.message().to_owned()
        };
        assert_eq!(
            refused(json!("nope")),
            "the server answered `initialize` with a `result` that is the string \"nope\", \
             not an object"
        );
        assert_eq!(
            refused(json!([{ "protocolVersion": "2025-06-18" }])),
            "the server answered `initialize` with a `result` that is an array, not an object"
        );
        assert_eq!(
            refused(json!({ "capabilities": {} })),
            "the server answered `initialize` with a `result` without its `protocolVersion`"
        );
        assert_eq!(
            refused(json!({ "protocolVersion": 2025 })),
            "the server answered `initialize` with a `protocolVersion` that is 2025, not a string"
        );
        let result = json!({ "protocolVersion": "2025-06-18", "capabilities": {} });
        let answer = json!({ "jsonrpc": "2.0", "id": 0, "result": result });
        assert_eq!(initialize_result(&answer).expect("taken"), result);
        let error = json!({ "jsonrpc": "2.0", "id": 0, "error": { "code": 1, "message": "no" } });
        assert_eq!(
            initialize_result(&error).expect_err("refused").message(),
            "the server refused `initialize`: no"
        );
    }

    #[test]
    fn an_answer_too_deep_to_hold_is_answered_by_an_error_of_its_id() {
        let deep = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}1{}}}",
            "[".repeat(200),
            "]".repeat(200)
        );
        let answer = answer_in_place_of(deep.as_bytes(), &what(deep.as_bytes()));
        assert_eq!(answer["id"], 7);
        assert_eq!(answer["error"]["code"], -32603);
        assert_eq!(answer["error"]["data"][mur_client::UNREADABLE_ANSWER], true);
        // A notification that deep has no answer; nor has a line with no id to read.
        let tells = deep.replace("\"id\":7,\"result\"", "\"method\":\"x\",\"params\"");
        assert_eq!(in_place_of(tells.as_bytes(), "deep"), None);
        assert_eq!(in_place_of(b"not json", "not json"), None);
    }

    /// A request of the server's that the bridge cannot read is answered to the server
    /// at once, with a parse error of its id: it was logged and dropped, and the server
    /// waited out its own time for an answer. One whose id cannot be read is not (an
    /// answer with a null id, JSON-RPC's for it, is no MCP message).
    #[test]
    fn a_request_that_is_not_utf8_is_answered_to_the_server_with_a_parse_error() {
        let line = b"{\"jsonrpc\":\"2.0\",\"id\":\"q1\",\"method\":\"elicitation/create\",\"params\":{\"message\":\"\xff\"}}";
        let what = what(line);
        assert_eq!(
            in_place_of(line, &what),
            Some(InPlace::Request(
                json!({ "jsonrpc": "2.0", "id": "q1", "error": {
                    "code": -32700,
                    "message": format!("the bridge cannot read this request: it is {what}"),
                }})
            ))
        );
        let no_id = b"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"roots/list\"}";
        assert_eq!(in_place_of(no_id, &what), None);
    }

    /// An answer whose text is not UTF-8 is no answer to relay as if the server had
    /// written U+FFFD: its call is answered by the bridge's error, marked unreadable.
    /// Before, the bridge read the line lossily and relayed `"\u{fffd}\u{fffd}"`.
    #[test]
    fn an_answer_that_is_not_utf8_is_answered_by_an_error_of_its_id() {
        let line = b"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"\xff\xfe\"}]}}";
        let what = what(line);
        assert_eq!(
            what,
            "a line that is not UTF-8, as JSON must be (invalid utf-8 sequence of 1 bytes from \
             index 68)"
        );
        let answer = answer_in_place_of(line, &what);
        assert_eq!(
            answer,
            json!({ "jsonrpc": "2.0", "id": 3, "error": {
                "code": -32603,
                "message": format!("the stdio server answered with {what}"),
                "data": { (mur_client::UNREADABLE_ANSWER): true },
            }})
        );
    }

    /// A valid JSON line the parser refuses is not called "not JSON".
    #[test]
    fn a_line_too_deep_to_hold_is_json_the_bridge_cannot_read() {
        let deep = format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{}1{}}}",
            "[".repeat(200),
            "]".repeat(200)
        );
        let said = what(deep.as_bytes());
        assert!(
            said.starts_with("JSON the bridge cannot read (recursion limit exceeded"),
            "{said}"
        );
        assert!(
            what(br#"{"jsonrpc":"2.0","method":"x","params":{"n":1e999999999}}"#)
                .starts_with("JSON the bridge cannot read (number out of range"),
        );
        assert_eq!(
            what(br#"{"jsonrpc": "2.0", "id": 1, "resu"#),
            "a line that is not JSON (EOF while parsing a string at line 1 column 33)"
        );
        // Not UTF-8 outside a string: no JSON at all.
        assert!(what(b"\xff{}").starts_with("a line that is not JSON (expected value"));
    }

    #[test]
    fn a_server_that_cannot_start_is_the_command_lines_fault_unless_the_machine_ran_out() {
        let program = OsString::from("srv");
        let kind = |errno: rustix::io::Errno| {
            not_started(
                &program,
                &std::io::Error::from_raw_os_error(errno.raw_os_error()),
            )
            .kind()
        };
        use rustix::io::Errno;
        assert_eq!(kind(Errno::NOENT), Kind::Usage);
        assert_eq!(kind(Errno::ACCESS), Kind::Usage);
        assert_eq!(kind(Errno::NOEXEC), Kind::Usage);
        assert_eq!(kind(Errno::MFILE), Kind::Internal);
        assert_eq!(kind(Errno::AGAIN), Kind::Internal);
        assert_eq!(kind(Errno::NOMEM), Kind::Internal);
    }
}
