//! The one output path: every byte `mur` writes to stdout or stderr goes
//! through here. Results on stdout (JSON, compact or `--pretty`), notices on
//! stderr (a verb's notes among them, after its stdout, none with `-q`). A
//! closed stdout pipe becomes a quiet exit. Text on
//! stderr has its control characters escaped: a lockfile name or a server's
//! message must not be able to drive the terminal (`ESC[2J` clears it).
//!
//! A call's progress goes to stderr as a live bar when stderr is a terminal,
//! as plain lines when it is not, and not at all with `-q`; the server's log
//! messages with `-v`; the server's questions are asked on the terminal when
//! stdin and stderr are both one ([`CallReport`]). A server's progress and
//! task status messages are shown as one bounded line each ([`one_line`]):
//! a newline in one must not start a line that reads as mur's own `error:`.

use std::cell::RefCell;
use std::io::{self, BufRead as _, IsTerminal as _, Write as _};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Map, Value};

use mur_client::{Events, Field, FieldKind, LogMessage, Progress, Question, Response, TaskStatus};
use mur_core::text::{escape_controls, escaped, push_escape, unprintable};
use mur_core::{Error, Result, Settings};
use tracing::Subscriber;
use tracing_subscriber::{
    Layer, layer::SubscriberExt as _, registry::LookupSpan, util::SubscriberInitExt as _,
};

/// Prints one JSON value and a newline on stdout.
pub fn json(value: &Value, pretty: bool) -> Result<()> {
    stdout(render_json(value, pretty)?.as_bytes())
}

/// A tool's result as a verb prints it: JSON, except that with `--pretty` (for people)
/// [`prose`] is printed as its text, its lines as lines, not one JSON string of `\n`
/// escapes; control characters are escaped as in [`text`].
fn result(value: &Value, pretty: bool) -> Result<()> {
    match prose(value) {
        Some(text) if pretty => self::text(&format!("{}\n", text.trim_end_matches('\n'))),
        _ => json(value, pretty),
    }
}

/// What a derived or data verb prints of a tool's result: `value` on stdout as
/// [`result`] prints it, then `notes` on stderr as [`notes`] prints them.
pub fn shown(value: &Value, notes: &[String], settings: &Settings) -> Result<()> {
    result(value, settings.pretty)?;
    self::notes(notes, settings.quiet);
    Ok(())
}

/// The text of a result that is prose: a string, or a string wrapped as the SDKs wrap
/// one in structured content — `{"result": "…"}` (the Python SDK's, for a returned
/// string), `{"content": "…"}` (the reference servers', `read_text_file`'s).
fn prose(value: &Value) -> Option<&str> {
    match value {
        Value::String(text) => Some(text),
        Value::Object(wrapped) if wrapped.len() == 1 => ["result", "content"]
            .iter()
            .find_map(|key| wrapped.get(*key))
            .and_then(Value::as_str),
        _ => None,
    }
}

/// One JSON value and a newline, compact or `--pretty`, as [`json`] prints it.
pub fn render_json(value: &Value, pretty: bool) -> Result<String> {
    let mut text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    }
    .map_err(|e| Error::internal(format!("cannot print the result: {e}")))?;
    text.push('\n');
    Ok(text)
}

/// Writes text for people to stdout (a help, a verb's details), its control
/// characters but the newline escaped: a verb's or a server's words (a tool's
/// description, a summary) never write on the terminal as commands.
pub fn text(text: &str) -> Result<()> {
    stdout(for_people(text).as_bytes())
}

/// `text` as [`text`] prints it. A tab lays text out and a CRLF ends a line as
/// an LF does (a .NET server's descriptions): neither is a command to the
/// terminal; every other [`unprintable`] character is escaped.
fn for_people(text: &str) -> String {
    let text = text.replace("\r\n", "\n");
    escaped(&text, |c| unprintable(c) && c != '\n' && c != '\t').into_owned()
}

/// Whether stdout is a terminal: where bytes that are no text (an image, a page of
/// HTML) must not go unasked.
pub fn stdout_is_terminal() -> bool {
    io::stdout().is_terminal()
}

/// stdout for a command that speaks a protocol on it for its whole life (the proxy's
/// MCP messages, one a line): the one writer of it then, which ends when its reader
/// closes the pipe.
pub fn protocol_stdout() -> io::Stdout {
    io::stdout()
}

/// Writes bytes to stdout as they are.
pub fn stdout(bytes: &[u8]) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(stdout_error)
}

/// Writing to stdout failed: a closed pipe is a quiet exit, anything else (a full disk)
/// mur's own failure (exit 7).
pub fn stdout_error(e: io::Error) -> Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Error::broken_pipe()
    } else {
        Error::internal(format!("cannot write to stdout: {e}"))
    }
}

/// Help (on stdout) or a command's help typed without its subcommand (on stderr), as clap
/// renders them, in its colors. Help that cannot be written to stdout fails as any
/// result does ([`stdout`]); a closed stderr is ignored, as everywhere.
pub fn clap(error: &clap::Error) -> Result<()> {
    if error.use_stderr() {
        let _ = error.print();
        return Ok(());
    }
    error
        .print()
        .and_then(|()| io::stdout().lock().flush())
        .map_err(stdout_error)
}

/// `-v`: mur's and its libraries' debug log on stderr, through [`LogLine`]
/// (control characters escaped, a closed stderr ignored). A directive's target is a
/// prefix: `mur` covers every `mur_*` library too — the bridge's messages and its server's
/// stderr in a foreground bridge, whose log this is once set (its log file gets
/// [`bridge_log`] as without `-v`).
pub fn start_verbose_log(color: bool) {
    let ansi = color && io::stderr().is_terminal();
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(move || LogLine { escape: !ansi })
                .with_ansi(ansi)
                .with_target(false)
                .without_time()
                .with_filter(tracing_subscriber::EnvFilter::new("mur=debug")),
        )
        .with(bridge_log())
        // Started once per command; a second start (same settings) keeps the first
        // rather than panicking, as `init` would.
        .try_init()
        .ok();
}

/// The log of a long-running `mur` (the stdio bridge): its own and the
/// session library's messages, timed, on stderr — the bridge's log file when
/// it runs in the background — and in its log file in the foreground
/// ([`bridge_log`]). (With `-v` the verbose log is already set.)
pub fn start_service_log() {
    let _ = tracing_subscriber::registry()
        .with(service_layer(|| LogLine { escape: true }).with_filter(service_filter()))
        .with(bridge_log())
        .try_init();
}

/// A foreground bridge's log file: the service log's lines, as a background bridge's
/// log (its stderr) holds them, whatever stderr shows. It writes nothing unless a
/// bridge runs in this process with a stderr that is not its log.
fn bridge_log<S: Subscriber + for<'a> LookupSpan<'a>>() -> impl Layer<S> {
    service_layer(mur_bridge::LogFile).with_filter(service_filter())
}

/// The service log's layout: time, level, message (no target, no colors).
fn service_layer<S, W>(writer: W) -> impl Layer<S>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    W: for<'w> tracing_subscriber::fmt::MakeWriter<'w> + 'static,
{
    tracing_subscriber::fmt::layer()
        .with_writer(writer)
        .with_ansi(false)
        .with_target(false)
}

/// What the service log keeps: the bridge's and the session library's messages, and
/// everyone's warnings.
fn service_filter() -> tracing_subscriber::EnvFilter {
    tracing_subscriber::EnvFilter::new("mur_bridge=info,mur_server=info,warn")
}

/// One log event's bytes on their way to stderr. Without colors, control
/// characters (from a path, a server's text) are escaped as everywhere; with
/// colors on, the log's own escape sequences must pass, and stderr is a
/// terminal the user is watching.
struct LogLine {
    escape: bool,
}

impl io::Write for LogLine {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let text = String::from_utf8_lossy(bytes);
        let text = if self.escape {
            escape_controls(&text)
        } else {
            text
        };
        let _ = io::stderr().lock().write_all(text.as_bytes());
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A one-line warning on stderr that does not stop the command: one line whatever
/// it quotes (a newline in a file's name or a server's words is escaped, as on an
/// `error:` line, so it cannot start a line that reads as mur's own), and bounded.
pub fn notice(message: &str) {
    diagnostic(&format!("warning: {}", line(message)));
}

/// What discovery has to say along the way, shown on stderr: notices as
/// warnings, notes as notes (discovery leaves them out under `-q`), each one line
/// whatever it quotes, `--auto` progress as a counter when stderr is a terminal.
pub struct Notices;

impl mur_discovery::Report for Notices {
    fn notice(&mut self, message: String) {
        notice(&message);
    }

    fn note(&mut self, message: String) {
        diagnostic(&format!("note: {}", line(&message)));
    }

    fn scan_progress(&self, done: usize, total: usize) {
        if io::stderr().is_terminal() && (done.is_multiple_of(1024) || done == total) {
            let _ = write!(
                io::stderr().lock(),
                "\rscanning 127.0.0.1 ports: {done}/{total}"
            );
        }
    }

    fn scan_finished(&self) {
        if io::stderr().is_terminal() {
            let _ = write!(io::stderr().lock(), "\r\x1b[2K");
        }
    }
}

/// What a call shows while it runs: its progress, the server's log
/// messages, and the questions the server asks.
pub struct CallReport {
    show: Show,
    verbose: bool,
    /// The bar on the terminal, from the first progress to the call's end.
    bar: RefCell<Option<ProgressBar>>,
    /// The last plain progress line, not repeated.
    last: RefCell<String>,
    /// The last task status message shown: a task that ends says its status
    /// alone when the server left the message of its work in place.
    task_said: RefCell<Option<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Show {
    Nothing,
    Lines,
    Bar,
}

impl CallReport {
    pub fn new(settings: &Settings) -> Self {
        let show = if settings.quiet {
            Show::Nothing
        } else if io::stderr().is_terminal() && !ProgressDrawTarget::stderr().is_hidden() {
            // A terminal that can draw a bar (`TERM` is set and not `dumb`).
            Show::Bar
        } else {
            Show::Lines
        };
        Self {
            show,
            verbose: settings.verbose,
            bar: RefCell::new(None),
            last: RefCell::new(String::new()),
            task_said: RefCell::new(None),
        }
    }

    /// A line on stderr that does not tear the bar.
    fn line(&self, text: &str) {
        match self.bar.borrow().as_ref() {
            Some(bar) => bar.suspend(|| diagnostic(text)),
            None => diagnostic(text),
        }
    }

    fn bar(&self, progress: &Progress) {
        let mut slot = self.bar.borrow_mut();
        let bar = slot.get_or_insert_with(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {prefix} {wide_msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        });
        let message = progress.message.as_deref().unwrap_or_default();
        bar.set_message(one_line(message));
        match progress.total.filter(|t| *t > 0.0) {
            Some(total) => {
                if bar.length().is_none() {
                    bar.set_style(
                        ProgressStyle::with_template("[{bar:30}] {prefix} {wide_msg}")
                            .unwrap_or_else(|_| ProgressStyle::default_bar())
                            .progress_chars("=> "),
                    );
                    bar.set_length(1000);
                }
                bar.set_prefix(format!("{}/{}", number(progress.progress), number(total)));
                let done = (progress.progress / total).clamp(0.0, 1.0);
                bar.set_position((done * 1000.0) as u64);
            }
            None => {
                bar.set_prefix(number(progress.progress));
                bar.tick();
            }
        }
    }
}

impl Events for CallReport {
    fn progress(&self, progress: &Progress) {
        match self.show {
            Show::Nothing => {}
            Show::Bar => self.bar(progress),
            Show::Lines => {
                let line = progress_line(progress);
                if *self.last.borrow() != line {
                    diagnostic(&line);
                    *self.last.borrow_mut() = line;
                }
            }
        }
    }

    fn task(&self, status: &TaskStatus) {
        if self.show == Show::Nothing {
            return;
        }
        let message = status.message.as_deref().map(one_line);
        let stale = status.ended() && message.is_some() && *self.task_said.borrow() == message;
        let state = one_line(&status.status);
        let line = match &message {
            Some(message) if !stale => format!("task ({state}): {message}"),
            _ => format!("task ({state})"),
        };
        self.task_said.replace(message);
        // Polled and notified both: the same status is shown once.
        if *self.last.borrow() != line {
            self.line(&line);
            *self.last.borrow_mut() = line;
        }
    }

    fn log(&self, message: &LogMessage) {
        if self.verbose {
            // One line each, like a status: a server's log must not forge
            // mur's own lines (`error: …`), nor print a megabyte.
            let logger = message
                .logger
                .as_deref()
                .map(|l| format!(" {}", one_line(l)))
                .unwrap_or_default();
            self.line(&format!(
                "server log ({}{logger}): {}",
                one_line(&message.level),
                clipped(&message.text(), LOG_CHARS)
            ));
        }
    }

    fn ask(&self, question: &Question) -> Option<Response> {
        if !(io::stdin().is_terminal() && io::stderr().is_terminal()) {
            return None;
        }
        match self.bar.borrow().as_ref() {
            Some(bar) => bar.suspend(|| prompt(question)),
            None => prompt(question),
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.borrow_mut().take() {
            bar.finish_and_clear();
        }
    }

    fn authorize(&self, url: &str) -> bool {
        if !(io::stdin().is_terminal() && io::stderr().is_terminal()) {
            return false;
        }
        let show = || {
            diagnostic("the server asks you to authorize mur: open this page (mur waits for it)");
            diagnostic(&format!("  {url}"));
            open_browser(url);
        };
        match self.bar.borrow().as_ref() {
            Some(bar) => bar.suspend(show),
            None => show(),
        }
        true
    }
}

/// Opens `url` in the desktop's browser, where there is an opener; the URL
/// on stderr is enough where there is none.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let _ = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}

/// One progress notification as a plain line: `progress: 1/3 exporting milk`.
fn progress_line(progress: &Progress) -> String {
    let mut line = format!("progress: {}", number(progress.progress));
    if let Some(total) = progress.total {
        line.push_str(&format!("/{}", number(total)));
    }
    if let Some(message) = progress.message.as_deref().filter(|m| !m.is_empty()) {
        line.push(' ');
        line.push_str(&one_line(message));
    }
    line
}

/// A number as people write it: `3`, not `3.0`.
fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// Asks `question` on the terminal, field by field; end of input cancels.
fn prompt(question: &Question) -> Option<Response> {
    diagnostic(&format!("the server asks: {}", question.message));
    let mut content = Map::new();
    if question.fields.is_empty() {
        return match read_answer("  continue? [y/N] ")? {
            text if matches!(text.trim(), "y" | "Y" | "yes") => Some(Response::Accept(content)),
            _ => Some(Response::Decline),
        };
    }
    for field in &question.fields {
        loop {
            let Some(text) = read_answer(&field_prompt(field)) else {
                return Some(Response::Cancel);
            };
            if text.is_empty() {
                match (&field.default, field.required) {
                    (Some(default), _) => {
                        content.insert(field.name.clone(), default.clone());
                        break;
                    }
                    (None, false) => break,
                    (None, true) => {
                        diagnostic(&format!("  `{}` needs an answer", field.name));
                        continue;
                    }
                }
            }
            match field.parse(&text) {
                Ok(value) => {
                    content.insert(field.name.clone(), value);
                    break;
                }
                Err(e) => diagnostic(&format!("  {e}")),
            }
        }
    }
    Some(Response::Accept(content))
}

/// `  confirm (Clear them?) [true|false, default false]: `
fn field_prompt(field: &Field) -> String {
    let about = field
        .description
        .as_deref()
        .or(field.title.as_deref())
        .map(|d| format!(" ({d})"))
        .unwrap_or_default();
    // A choice's default is shown as its choices are, with the title the person reads.
    let choices = match &field.kind {
        FieldKind::Choice(choices) | FieldKind::Choices(choices) => choices.as_slice(),
        _ => &[],
    };
    let shown = |value: &Value| match value {
        Value::String(text) => choices
            .iter()
            .find(|c| c.value == *text)
            .map_or_else(|| text.clone(), |c| c.shown()),
        other => other.to_string(),
    };
    let default = match &field.default {
        Some(Value::Array(items)) if !choices.is_empty() => {
            let items: Vec<String> = items.iter().map(shown).collect();
            format!(", default {}", items.join(","))
        }
        Some(value) => format!(", default {}", shown(value)),
        None if !field.required => ", optional".to_owned(),
        None => String::new(),
    };
    format!(
        "  {}{about} [{}{default}]: ",
        field.name,
        field.kind.placeholder()
    )
}

/// Writes `prompt` on stderr and reads one line of stdin, without its line
/// end; `None` at the end of input.
fn read_answer(prompt: &str) -> Option<String> {
    {
        let mut err = io::stderr().lock();
        let _ = write!(err, "{}", escape_controls(prompt));
        let _ = err.flush();
    }
    let mut line = String::new();
    let read = crate::signals::default_while(|| io::stdin().lock().read_line(&mut line));
    match read {
        Ok(0) | Err(_) => {
            diagnostic("");
            None
        }
        Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_owned()),
    }
}

/// A verb's notes (already one line each and bounded by the verb runtime), on
/// stderr after its stdout; none with `-q`.
pub fn notes(lines: &[String], quiet: bool) {
    if !quiet {
        for line in lines {
            diagnostic(line);
        }
    }
}

/// A line on stderr, control characters escaped; a closed stderr is ignored.
pub fn diagnostic(message: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{}", escape_controls(message));
}

/// `text` as one line of at most [`ERROR_CHARS`]: every [`unprintable`] character
/// escaped, the newline too, the rest cut (an error's or a hint's line, whatever a
/// name quoted in it holds: a 4 MB selector or tool message was printed whole, beside
/// the same text on stdout).
pub fn line(text: &str) -> String {
    clipped(text, ERROR_CHARS)
}

/// The most characters of an `error:` or `hint:` line: room for any message and
/// command mur writes, and for the start of whatever it quotes.
const ERROR_CHARS: usize = 2_000;

/// The most characters of a server's message shown on one status line.
const LINE_CHARS: usize = 200;

/// The most characters of a server's log message shown with `-v`: more than a
/// status (a log line says more), still one line.
const LOG_CHARS: usize = 2_000;

/// A server's message (a task's status, a progress message) as one line of
/// at most [`LINE_CHARS`] characters: see [`clipped`].
pub fn one_line(text: &str) -> String {
    clipped(text, LINE_CHARS)
}

/// `text` as one line of at most `max` characters: every [`unprintable`]
/// character escaped, the newline too, and the rest cut with an ellipsis (a
/// server may say a megabyte; only the start of it is read).
fn clipped(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for c in text.chars() {
        let mark = out.len();
        if unprintable(c) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
        shown += out[mark..].chars().count();
        if shown > max {
            out.truncate(mark);
            out.push('…');
            break;
        }
    }
    out
}

/// The most characters of one cell of a table: a word typed ten thousand
/// times, or a tool named by a hostile server, is cut, not printed whole.
const CELL_CHARS: usize = 1_000;

/// The widest a column grows: a terminal's width. A longer cell (a tool named
/// in 5,000 characters) would pad every other row of the table to its width.
const COLUMN_CHARS: usize = 80;

/// Rows as a left-aligned table with a header, for `--pretty` listings;
/// each cell one line of at most [`CELL_CHARS`], its [`unprintable`]
/// characters (the newline too) escaped, as a terminal shows tables.
/// A column is as wide as its widest cell of at most [`COLUMN_CHARS`]: a wider
/// cell is printed whole all the same, and the rest of its row goes on the next
/// line, under its columns, so one long name leaves the other rows as they were.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let cell = |text: &str| {
        let text = clipped(text, CELL_CHARS);
        let chars = text.chars().count();
        (text, chars)
    };
    let header: Vec<(String, usize)> = header.iter().map(|h| cell(h)).collect();
    let rows: Vec<Vec<(String, usize)>> = rows
        .iter()
        .map(|row| row.iter().map(|c| cell(c)).collect())
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|(_, n)| *n).collect();
    for row in &rows {
        for (w, (_, n)) in widths.iter_mut().zip(row) {
            if *n <= COLUMN_CHARS {
                *w = (*w).max(*n);
            }
        }
    }
    // Where each column starts, two spaces after the one before.
    let starts: Vec<usize> = widths
        .iter()
        .scan(0, |at, w| {
            let start = *at;
            *at += w + 2;
            Some(start)
        })
        .collect();
    // Padded by hand: `format!("{c:<w$}")` panics on a width past 65,535.
    let line = |cells: &[(String, usize)]| {
        let mut out = String::new();
        // How far the line being written reaches.
        let mut at = 0;
        for ((text, n), start) in cells.iter().zip(&starts) {
            if text.is_empty() {
                continue;
            }
            // A cell before reached into this column: this one starts a new line.
            if at > 0 && at + 2 > *start {
                out.truncate(out.trim_end().len());
                out.push('\n');
                at = 0;
            }
            out.extend(std::iter::repeat_n(' ', start - at));
            out.push_str(text);
            at = start + n;
        }
        format!("{}\n", out.trim_end())
    };
    let mut out = line(&header);
    for row in &rows {
        out.push_str(&line(row));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `--pretty` prints these as text: a string, and a string the SDKs wrapped.
    #[test]
    fn prose_is_a_string_or_one_an_sdk_wrapped() {
        assert_eq!(prose(&json!("a\nb")), Some("a\nb"));
        assert_eq!(prose(&json!({ "result": "2 steps" })), Some("2 steps"));
        assert_eq!(prose(&json!({ "content": "x1\nx2\n" })), Some("x1\nx2\n"));
        assert_eq!(prose(&json!({ "content": [] })), None);
        assert_eq!(prose(&json!({ "content": "x", "isError": false })), None);
        assert_eq!(
            prose(&json!({ "selector": "#x" })),
            None,
            "a field is no prose"
        );
    }

    #[test]
    fn text_for_people_keeps_its_layout_and_loses_its_commands() {
        assert_eq!(for_people("a\tb\r\nc\x1b[2J\rd"), "a\tb\nc\\x1b[2J\\x0dd");
    }

    #[test]
    fn a_titled_choices_default_is_shown_with_its_title() {
        let question = mur_client::Question::from_params(&serde_json::json!({
            "message": "Pick",
            "requestedSchema": {"type": "object", "properties": {
                "pet": {"type": "string", "enum": ["pet-1", "pet-2"],
                        "enumNames": ["Cats", "Dogs"], "default": "pet-2"},
                "fish": {"type": "array", "default": ["fish-1"], "items": {"anyOf": [
                    {"const": "fish-1", "title": "Salmon"}, {"const": "fish-2", "title": "Tuna"}]}},
                "n": {"type": "integer", "default": 3}
            }}
        }));
        let prompts: Vec<String> = question.fields.iter().map(field_prompt).collect();
        assert_eq!(
            prompts,
            // In the requested schema's order (serde_json `preserve_order`).
            [
                "  pet [pet-1 (Cats)|pet-2 (Dogs), default pet-2 (Dogs)]: ",
                "  fish [fish-1 (Salmon)|fish-2 (Tuna)[,…], default fish-1 (Salmon)]: ",
                "  n [INTEGER, default 3]: ",
            ]
        );
    }

    #[test]
    fn tables_align_columns() {
        let t = table(&["A", "BB"], &[vec!["long".into(), "x".into()]]);
        assert_eq!(t, "A     BB\nlong  x\n");
    }

    /// A cell wider than a column grows is printed on a line of its own, the rest of
    /// its row under its columns on the next: it padded every row to its width.
    #[test]
    fn a_cell_of_any_length_is_one_line_of_at_most_a_thousand_characters_that_widens_no_column() {
        // A width past 65,535 panicked in `format!`.
        let huge = "WORD ".repeat(14_000);
        let t = table(
            &["ARGV", "N", "LAST"],
            &[
                vec![huge.clone(), "1".into(), "x".into()],
                vec!["a\nb".into(), "2".into(), "y".into()],
                vec!["c".into(), huge.clone(), "z".into()],
                vec![huge.clone(), String::new(), huge.clone()],
            ],
        );
        let cut = format!("{}…", &huge[..CELL_CHARS]);
        assert_eq!(
            t,
            format!(
                "ARGV    N  LAST\n\
                 {cut}\n        1  x\n\
                 a\\x0ab  2  y\n\
                 c       {cut}\n           z\n\
                 {cut}\n           {cut}\n"
            )
        );
    }

    #[test]
    fn a_column_grows_to_a_terminals_width() {
        let wide = "w".repeat(COLUMN_CHARS);
        let t = table(&["A", "B"], &[vec![wide.clone(), "1".into()]]);
        assert_eq!(
            t,
            format!("A{}B\n{wide}  1\n", " ".repeat(COLUMN_CHARS + 1))
        );
    }

    #[test]
    fn progress_lines_say_how_far_and_what() {
        let line = |progress, total, message: Option<&str>| {
            progress_line(&Progress {
                progress,
                total,
                message: message.map(str::to_owned),
            })
        };
        assert_eq!(
            line(1.0, Some(3.0), Some("exported milk")),
            "progress: 1/3 exported milk"
        );
        assert_eq!(line(0.5, None, None), "progress: 0.5");
    }

    #[test]
    fn a_servers_message_is_one_bounded_line() {
        assert_eq!(one_line("computing"), "computing");
        assert_eq!(
            one_line("done\nerror: fake\r\x1b[2J"),
            "done\\x0aerror: fake\\x0d\\x1b[2J"
        );
        let long = "x".repeat(20 * LINE_CHARS);
        let cut = one_line(&long);
        assert_eq!(cut, format!("{}…", "x".repeat(LINE_CHARS)));
        assert_eq!(one_line(&long[..LINE_CHARS]), long[..LINE_CHARS]);
        // An escape is counted as it shows, and never cut in half.
        let controls = one_line(&"\n".repeat(LINE_CHARS));
        assert_eq!(controls, format!("{}…", "\\x0a".repeat(LINE_CHARS / 4)));
        let progress = progress_line(&Progress {
            progress: 1.0,
            total: None,
            message: Some("a\nerror: fake".into()),
        });
        assert_eq!(progress, "progress: 1 a\\x0aerror: fake");
    }

    #[test]
    fn an_error_line_is_cut_at_its_bound_and_short_ones_kept_whole() {
        assert_eq!(
            line("no tool `x`\nerror: forged"),
            "no tool `x`\\x0aerror: forged"
        );
        let long = line(&"b".repeat(5_000));
        assert_eq!(long.chars().count(), ERROR_CHARS + 1);
        assert!(long.ends_with('…'));
    }

    /// A right-to-left override in a tool's name would show the rest of a hint, a
    /// table row or an error reversed: every way text reaches a person escapes it.
    #[test]
    fn bidirectional_overrides_are_escaped_wherever_text_reaches_a_person() {
        let name = "list\u{202e}txt.exe\u{2066}\u{200f}";
        let shown = "list\\u{202e}txt.exe\\u{2066}\\u{200f}";
        assert_eq!(line(name), shown);
        assert_eq!(escape_controls(name), shown);
        assert_eq!(for_people(name), shown);
        assert_eq!(one_line(name), shown);
        assert_eq!(
            table(&["NAME"], &[vec![name.into()]]),
            format!("NAME\n{shown}\n")
        );
        // Right-to-left text itself is words, not a command: kept.
        assert_eq!(line("שלום مرحبا"), "שלום مرحبا");
    }
}
