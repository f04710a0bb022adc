//! The bridge's log (`<hash>.bridge.log`), bounded two ways. What goes into
//! it is clipped, so no message of a server — a line of its stdout or stderr,
//! a message nobody waits for — puts megabytes into one line. And the file
//! itself is kept under [`LOG_CAP`]: the server's stderr is not the log's
//! file descriptor but a pipe the bridge reads ([`pump`]), line by line, and
//! once the file passes the cap its oldest part goes, the newest
//! [`LOG_KEEP`] bytes kept behind a line saying so (checked after every
//! line written here, and every second for the bridge's own messages in the
//! background, which reach the file through its stderr). The newest lines are
//! what explains a failure; a log that only grows fills the disk of a bridge
//! left running for days.
//!
//! The bridge's own messages are `tracing` events, as `mur-server`'s are: the
//! binary's log on stderr shows them — the log itself in the background, a terminal
//! in the foreground — and, in the foreground, its log layer writes them to the log
//! too, in the same layout, through [`LogFile`]. The server's stderr is in that
//! layout too, each line as a foreground bridge shows it (`TIME  INFO server: …`,
//! its control characters escaped: [`server_line`]): as the server wrote it, its ESC
//! bytes reached the terminal of whoever `tail`s the log, and a line of it reading
//! `error: …` was taken for the bridge's own last word.

use std::{
    fs::File,
    io::{BufReader, Write},
    os::unix::fs::FileExt as _,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
};

use crate::lines::{Line, read_line_blocking, skip_line};

/// The most characters of a server's text one log line carries.
pub(crate) const LINE_CHARS: usize = 2_000;
/// The log's size past which its oldest part goes.
pub(crate) const LOG_CAP: u64 = 4 << 20;
/// What is kept of the log when it passes [`LOG_CAP`]: its newest bytes.
pub(crate) const LOG_KEEP: u64 = 1 << 20;
/// The most bytes of one line of the server's stderr read (it is clipped to
/// [`LINE_CHARS`] anyway; four bytes a character at most).
const STDERR_LINE_BYTES: usize = LINE_CHARS * 4;

/// `text` as a log line shows it: at most [`LINE_CHARS`] characters, and
/// when it was longer, how long it was.
pub(crate) fn clipped(text: &str) -> String {
    clipped_of(text, text.len())
}

/// [`clipped`] for the start of a text of `total` bytes.
fn clipped_of(text: &str, total: usize) -> String {
    match text.char_indices().nth(LINE_CHARS) {
        None if total <= text.len() => text.to_owned(),
        None => format!("{text}… ({total} bytes in all)"),
        Some((end, _)) => format!("{}… ({total} bytes in all)", &text[..end]),
    }
}

/// The log file, appended to, kept under [`LOG_CAP`].
pub(crate) struct Log {
    path: PathBuf,
    file: Mutex<File>,
    /// Whether the server's stderr is shown among the bridge's own messages
    /// too: when those are not the log (`--foreground`, in a terminal), so
    /// someone watching a server that will not start sees why there.
    echo: bool,
}

impl Log {
    /// Opens the log at `path` (already made, private, by the bridge).
    pub(crate) fn open(path: &Path) -> std::io::Result<Arc<Self>> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)?;
        Ok(Arc::new(Self {
            path: path.to_owned(),
            echo: !stderr_is(&file),
            file: Mutex::new(file),
        }))
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `line` (and a newline) in one write, then keeps the log bounded.
    fn write_line(&self, line: &str) {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.write(&bytes);
    }

    /// Appends `bytes` (whole lines) in one write, then keeps the log bounded.
    fn write(&self, bytes: &[u8]) {
        if let Ok(mut file) = self.file.lock() {
            let _ = file.write_all(bytes);
            let _ = keep_bounded(&mut file);
        }
    }

    /// A log made empty at `path`, for a test.
    #[cfg(test)]
    pub(crate) fn empty(path: &Path) -> Arc<Self> {
        std::fs::write(path, "").expect("log");
        Self::open(path).expect("open")
    }

    /// Drops the log's oldest part if it has passed [`LOG_CAP`].
    pub(crate) fn keep_bounded(&self) {
        if let Ok(mut file) = self.file.lock() {
            let _ = keep_bounded(&mut file);
        }
    }
}

/// Where the bridge's own messages are written as log lines ([`LogFile`]), besides
/// its stderr. One for the process: a process runs one bridge, and the messages come
/// from every part of it and from `mur-server`.
enum Own {
    /// No bridge runs here, or its stderr is its log already (in the background).
    Nowhere,
    /// A bridge starting, its log not made yet (it is made only once the bridge holds
    /// the project's slot: one refused writes nothing into the log of the one there):
    /// up to [`HELD_LINES`] lines, for the log once it is there.
    Held(Vec<String>),
    /// The log of a bridge whose stderr is not it (`--foreground`).
    To(Arc<Log>),
}

static OWN: Mutex<Own> = Mutex::new(Own::Nowhere);

/// The most lines held for a log not made yet: what a start says before then
/// (a stale lockfile removed) is a line or two.
const HELD_LINES: usize = 64;

/// While held, the bridge's own messages go to its log too ([`OwnLines::to`]);
/// dropped, no more.
pub(crate) struct OwnLines(());

impl OwnLines {
    /// From now on the bridge's own messages are held for its log, which it makes
    /// once it holds the project's slot ([`OwnLines::to`]).
    pub(crate) fn hold() -> Self {
        set_own(Own::Held(Vec::new()));
        Self(())
    }

    /// The bridge's own messages, those held until now first, go to `log` too from
    /// now on when the bridge's stderr is not the log (`--foreground`), as they reach
    /// it through its stderr in the background.
    pub(crate) fn to(&self, log: &Arc<Log>) {
        let Ok(mut own) = OWN.lock() else {
            return;
        };
        let held = std::mem::replace(&mut *own, Own::Nowhere);
        if log.echo {
            if let Own::Held(lines) = held {
                log.write(lines.concat().as_bytes());
            }
            *own = Own::To(log.clone());
        }
    }
}

impl Drop for OwnLines {
    fn drop(&mut self) {
        set_own(Own::Nowhere);
    }
}

fn set_own(to: Own) {
    if let Ok(mut own) = OWN.lock() {
        *own = to;
    }
}

/// The `tracing` target of the server's stderr shown among the bridge's messages
/// ([`Log::echo`]): not the bridge's own, and in the log already ([`server_line`]).
const SERVER_STDERR: &str = "mur_bridge::server";

/// What a line of the server's stderr begins with among the bridge's messages.
const SERVER_SAID: &str = "server: ";

/// A line of the server's stderr (clipped) as the log holds it: as a foreground bridge
/// shows it among its messages, in the binary's service layout (time as `tracing`
/// writes it, level, message) — `TIME  INFO server: LINE` — with every control
/// character escaped (`\x1b`), as every message of the bridge is.
fn server_line(line: &str) -> String {
    use tracing_subscriber::fmt::{format::Writer, time::FormatTime as _};
    let mut time = String::new();
    let _ = tracing_subscriber::fmt::time::SystemTime.format_time(&mut Writer::new(&mut time));
    let line = mur_core::text::escape_value(line);
    format!("{time}  INFO {SERVER_SAID}{line}")
}

/// Whether `line` of the log is one of the server's stderr ([`server_line`]), which says
/// nothing for the bridge (its stop, its error), whatever it reads.
pub(crate) fn of_the_server(line: &str) -> bool {
    line.split_once(' ')
        .and_then(|(_, rest)| rest.trim_start().strip_prefix("INFO "))
        .is_some_and(|message| message.starts_with(SERVER_SAID))
}

/// The log of the bridge this process runs, as a writer of `tracing` events (every
/// one the layer given it lets through: the bridge's and `mur-server`'s), for the
/// binary's log layer beside the one on stderr. Its lines are escaped as every
/// message of the bridge is, and go to the log while a bridge runs in the
/// foreground (module `log`'s `OwnLines`): its start, its restarts and its last line (why it
/// stopped, how to start it again) are what [`crate::newest_stop`] reads back for
/// whoever later finds no session there. Nowhere otherwise: no bridge runs, or its
/// stderr is the log already.
#[derive(Debug, Clone, Copy, Default)]
pub struct LogFile;

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for LogFile {
    type Writer = OwnLine;

    fn make_writer(&'a self) -> OwnLine {
        OwnLine {
            keep: true,
            bytes: Vec::new(),
        }
    }

    fn make_writer_for(&'a self, meta: &tracing::Metadata<'_>) -> OwnLine {
        OwnLine {
            keep: meta.target() != SERVER_STDERR,
            bytes: Vec::new(),
        }
    }
}

/// One event's line(s), gathered, and written to the log in one write when dropped.
#[derive(Debug)]
pub struct OwnLine {
    keep: bool,
    bytes: Vec<u8>,
}

impl Write for OwnLine {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.keep {
            self.bytes.extend_from_slice(bytes);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for OwnLine {
    fn drop(&mut self) {
        if self.bytes.is_empty() {
            return;
        }
        let text = String::from_utf8_lossy(&self.bytes);
        let text = mur_core::text::escape_controls(&text);
        let log = match OWN.lock().as_deref_mut() {
            Ok(Own::To(log)) => log.clone(),
            Ok(Own::Held(lines)) if lines.len() < HELD_LINES => {
                lines.push(text.into_owned());
                return;
            }
            _ => return,
        };
        log.write(text.as_bytes());
    }
}

/// Whether this process's stderr is `file`: a bridge started in the
/// background writes its own messages to its log. When that cannot be told,
/// taken as so (a line shown twice in the log is worse than one not shown
/// on a terminal).
fn stderr_is(file: &File) -> bool {
    use std::os::{fd::AsFd as _, unix::fs::MetadataExt as _};
    let stderr = std::io::stderr()
        .as_fd()
        .try_clone_to_owned()
        .and_then(|fd| File::from(fd).metadata());
    match (stderr, file.metadata()) {
        (Ok(stderr), Ok(log)) => stderr.dev() == log.dev() && stderr.ino() == log.ino(),
        _ => true,
    }
}

fn keep_bounded(file: &mut File) -> std::io::Result<()> {
    let len = file.metadata()?.len();
    if len <= LOG_CAP {
        return Ok(());
    }
    let from = len - LOG_KEEP;
    let mut tail = vec![0; LOG_KEEP as usize];
    let mut read = 0;
    while read < tail.len() {
        match file.read_at(&mut tail[read..], from + read as u64)? {
            0 => break,
            n => read += n,
        }
    }
    tail.truncate(read);
    // From the first whole line on.
    let start = tail.iter().position(|&b| b == b'\n').map_or(0, |at| at + 1);
    file.set_len(0)?;
    let note = format!(
        "[the log passed {} MiB: its older lines were dropped, the newest kept]\n",
        LOG_CAP >> 20
    );
    file.write_all(note.as_bytes())?;
    file.write_all(&tail[start..])
}

/// How many of the last lines of a server's stderr [`Tail`] keeps: enough for
/// npm's account of a package it cannot find (its "404 Not Found" is the sixth
/// line from the end) or the end of a Python traceback.
const TAIL_LINES: usize = 8;
/// The most characters of one line [`Tail`] keeps.
const TAIL_CHARS: usize = 300;

/// The last lines of one start's stderr (blank ones skipped, each clipped),
/// for the message of a start that fails: what the server said on its way
/// out (npm's 404 for a mistyped package) without opening the log. Also what
/// it wrote to its stdout that is not JSON-RPC (`crate::child`): a server that
/// is no MCP stdio server (an HTTP server) says so there.
pub(crate) struct Tail {
    lines: Mutex<std::collections::VecDeque<String>>,
    /// The first line, kept past the last [`TAIL_LINES`]: the one a start still
    /// waiting for the server quotes.
    first: tokio::sync::watch::Sender<Option<String>>,
    /// Set once the server's stderr is closed: every line of it is in.
    ended: tokio::sync::watch::Sender<bool>,
}

impl Tail {
    pub(crate) fn new() -> Self {
        Self {
            lines: Mutex::new(std::collections::VecDeque::new()),
            first: tokio::sync::watch::Sender::new(None),
            ended: tokio::sync::watch::Sender::new(false),
        }
    }

    /// The first line, once there is one (clipped as the others).
    pub(crate) async fn first(&self) -> String {
        let mut first = self.first.subscribe();
        let line = match first.wait_for(Option::is_some).await {
            Ok(line) => line.clone(),
            // The sender is this Tail's own: never dropped while it is borrowed.
            Err(_) => None,
        };
        match line {
            Some(line) => line,
            None => std::future::pending().await,
        }
    }

    pub(crate) fn push(&self, line: &str) {
        if line.trim().is_empty() {
            return;
        }
        let line = match line.char_indices().nth(TAIL_CHARS) {
            Some((end, _)) => format!("{}…", &line[..end]),
            None => line.to_owned(),
        };
        self.first.send_if_modified(|first| {
            let none = first.is_none();
            if none {
                *first = Some(line.clone());
            }
            none
        });
        if let Ok(mut lines) = self.lines.lock() {
            if lines.len() == TAIL_LINES {
                lines.pop_front();
            }
            lines.push_back(line);
        }
    }

    /// Every line is in: its stream is closed.
    pub(crate) fn end(&self) {
        self.ended.send_replace(true);
    }

    /// The lines, once the stderr is closed or `limit` has passed (whoever
    /// holds it open — a process of the server's that outlived it — has
    /// had its chance), as they were written: escape them to print them.
    pub(crate) async fn lines(&self, limit: std::time::Duration) -> Vec<String> {
        let mut ended = self.ended.subscribe();
        let _ = tokio::time::timeout(limit, ended.wait_for(|ended| *ended)).await;
        self.lines
            .lock()
            .map(|lines| lines.iter().cloned().collect())
            .unwrap_or_default()
    }
}

/// Writes each line of the server's stderr to `log`, clipped and as a foreground bridge
/// shows it ([`server_line`]), on a thread of its own, until the server closes its
/// stderr; the last lines are kept (as written) in the [`Tail`] it returns.
pub(crate) fn pump(stderr: std::process::ChildStderr, log: Arc<Log>) -> Arc<Tail> {
    let tail = Arc::new(Tail::new());
    let kept = tail.clone();
    let run = move || {
        let mut reader = BufReader::with_capacity(64 * 1024, stderr);
        let mut line = Vec::new();
        loop {
            line.clear();
            let (text, total) = match read_line_blocking(&mut reader, &mut line, STDERR_LINE_BYTES)
            {
                Ok(Line::Read) => {
                    let text = String::from_utf8_lossy(&line);
                    let text = text.trim_end_matches(['\n', '\r']).to_owned();
                    let total = text.len();
                    (text, total)
                }
                Ok(Line::TooLong) => {
                    let mut skipped = 0;
                    if skip_line(&mut reader, &mut skipped).is_err() {
                        break;
                    }
                    let total = line.len() + skipped;
                    (String::from_utf8_lossy(&line).into_owned(), total)
                }
                Ok(Line::End) | Err(_) => break,
            };
            let line = clipped_of(&text, total);
            if log.echo {
                // Escaped where it is printed, as every message of the bridge.
                tracing::info!(target: SERVER_STDERR, "{SERVER_SAID}{line}");
            }
            log.write_line(&server_line(&line));
            kept.push(&text);
        }
        kept.end();
    };
    if let Err(e) = std::thread::Builder::new()
        .name("server-stderr".into())
        .spawn(run)
    {
        tracing::warn!("cannot read the server's stderr: {e}");
        tail.ended.send_replace(true);
    }
    tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_clipped_and_says_how_long_it_was() {
        assert_eq!(clipped("short"), "short");
        let long = "é".repeat(LINE_CHARS + 5);
        let line = clipped(&long);
        assert!(line.starts_with(&"é".repeat(LINE_CHARS)), "{line}");
        assert!(
            line.ends_with(&format!("… ({} bytes in all)", long.len())),
            "{line}"
        );
        assert_eq!(clipped(&"x".repeat(LINE_CHARS)), "x".repeat(LINE_CHARS));
        assert_eq!(clipped_of("abc", 10), "abc… (10 bytes in all)");
    }

    /// Events reach the log only while a bridge whose stderr is not the log runs: those
    /// from before its log was made first, escaped; not the server's stderr shown among
    /// them, which the log holds already ([`server_line`]).
    #[test]
    fn own_lines_are_held_until_the_log_is_made_then_written_to_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("x.bridge.log");
        let log = Log::empty(&path);
        let subscriber = tracing_subscriber::fmt()
            .with_writer(LogFile)
            .with_ansi(false)
            .with_target(false)
            .without_time()
            .finish();
        let logging = mur_testkit::log_on_this_thread(subscriber);
        tracing::info!("before the bridge");
        let own = OwnLines::hold();
        tracing::info!("held \x1b[31m");
        tracing::info!(target: SERVER_STDERR, "server: shown");
        own.to(&log);
        tracing::warn!("written");
        drop(own);
        tracing::info!("after the bridge");
        drop(logging);
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            " INFO held \\x1b[31m\n WARN written\n"
        );
    }

    /// The server's stderr is in the log as a foreground bridge shows it: timed, `INFO
    /// server: `, its control characters escaped. It was there as written: raw ESC bytes,
    /// and a line `error: forged` that read as the bridge's own last word.
    #[test]
    fn the_servers_stderr_is_logged_escaped_and_said_to_be_the_servers() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("x.bridge.log");
        let log = Log::empty(&path);
        let mut child = std::process::Command::new("sh")
            .args(["-c", r"printf '\033[31mRED\r\nerror: forged\n\n' >&2"])
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("sh");
        let stderr = child.stderr.take().expect("stderr");
        let tail = pump(stderr, log);
        let _ = child.wait();
        // Every line is in once the pump has read the end of the server's stderr.
        while !*tail.ended.borrow() {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let said: Vec<&str> = text
            .lines()
            .map(|line| {
                let (time, message) = line.split_once("  INFO ").expect(line);
                assert!(
                    time.len() == 27 && time.ends_with('Z') && time.as_bytes()[10] == b'T',
                    "{line}"
                );
                assert!(of_the_server(line), "{line}");
                message
            })
            .collect();
        assert_eq!(
            said,
            ["server: \\x1b[31mRED", "server: error: forged", "server: "]
        );
        assert!(!of_the_server(
            "2026-11-29T11:23:38.810867Z  INFO bridge stopped: x"
        ));
        assert!(!of_the_server("server: x"));
    }

    #[test]
    fn past_the_cap_the_log_keeps_its_newest_lines() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("x.bridge.log");
        let log = Log::empty(&path);
        let lines = (LOG_CAP / 20) * 2;
        for n in 0..lines {
            log.write_line(&format!("line {n:>13}"));
        }
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.len() as u64 <= LOG_CAP, "{} bytes", text.len());
        assert!(
            text.starts_with("[the log passed 4 MiB: its older lines were dropped"),
            "{}",
            &text[..200]
        );
        assert!(text.ends_with(&format!("line {:>13}\n", lines - 1)));
        // Whole lines only after the note.
        assert!(text.lines().skip(1).all(|l| l.len() == 18), "a cut line");
    }
}
