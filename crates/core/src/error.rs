//! The one error type of `mur`: every failure carries its kind, and
//! [`Error::exit_code`] is the single place that maps kinds to exit codes.

use std::fmt;

/// What class of failure happened; decides the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The command line is wrong, or ambiguous (several sessions): exit 1.
    Usage,
    /// The endpoint could not be reached, timed out or answered garbage: exit 2.
    Transport,
    /// Another session already holds the project (a second `bridge`), with
    /// the one line seed 000 §6 prescribes as its message: exit 3.
    SessionActive,
    /// No live devtools session was found: exit 4.
    NoSession,
    /// The tool answered with a JSON-RPC error or `isError: true`: exit 5.
    ToolFailed,
    /// A verb plugin trapped, ran out of time or memory, or returned bad data: exit 6.
    Plugin,
    /// mur itself could not do its part: a file it was asked to write, its
    /// own directories, the runtime, the engine: exit 7.
    Internal,
    /// stdout was closed by the reader (`mur … | head`): exit quietly.
    BrokenPipe,
}

/// Every exit code `mur` uses and what it means, for the catalog and docs.
pub const EXIT_CODES: &[(u8, &str)] = &[
    (0, "success (also --help and a closed stdout pipe)"),
    (
        1,
        "usage: bad flags or --args, unknown verb, a verb's usage error, several live sessions; parity: a tool without a named verb",
    ),
    (
        2,
        "transport: unreachable, timed out, malformed or non-MCP answer",
    ),
    (
        3,
        "(a session or bridge starting) another session is active for the project",
    ),
    (4, "no live session"),
    (
        5,
        "the tool failed: JSON-RPC error or isError (the answer is on stdout)",
    ),
    (
        6,
        "a verb plugin failed: trap, time or memory limit, bad output",
    ),
    (
        7,
        "mur itself failed: a file it was asked to write, its own directories, the runtime",
    ),
];

/// A failure on its way to `main`, which alone prints it.
#[derive(Debug)]
pub struct Error {
    kind: Kind,
    message: String,
    detail: Option<String>,
    hints: Vec<String>,
    stdout: Option<Vec<u8>>,
    clap: Option<clap::Error>,
    about_session: bool,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: Kind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            detail: None,
            hints: Vec::new(),
            stdout: None,
            clap: None,
            about_session: false,
        }
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Self::new(Kind::Usage, message)
    }

    pub fn transport(message: impl Into<String>) -> Self {
        Self::new(Kind::Transport, message)
    }

    pub fn no_session(message: impl Into<String>) -> Self {
        Self::new(Kind::NoSession, message)
    }

    pub fn tool_failed(message: impl Into<String>) -> Self {
        Self::new(Kind::ToolFailed, message)
    }

    pub fn plugin(message: impl Into<String>) -> Self {
        Self::new(Kind::Plugin, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(Kind::Internal, message)
    }

    pub fn broken_pipe() -> Self {
        Self::new(Kind::BrokenPipe, "")
    }

    /// Adds text printed after the message, such as a verb's usage.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// Adds advice printed on its own `hint:` line.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hints.push(hint.into());
        self
    }

    /// Adds advice printed before every other `hint:` line (the likeliest fix).
    pub fn with_first_hint(mut self, hint: impl Into<String>) -> Self {
        self.hints.insert(0, hint.into());
        self
    }

    /// Adds what stdout still carries for this failure (seed 000 §9: a failed
    /// tool's `{"error":{…}}` object or its result), printed before the message.
    pub fn with_stdout(mut self, bytes: Vec<u8>) -> Self {
        self.stdout = Some(bytes);
        self
    }

    /// Marks a usage error as one about which session to reach (several are
    /// running, a bad `--endpoint`), not about what was typed for the verb: a
    /// usage record then does not count it against the verb.
    pub fn about_session(mut self) -> Self {
        self.about_session = true;
        self
    }

    pub fn is_about_session(&self) -> bool {
        self.about_session
    }

    pub fn stdout(&self) -> Option<&[u8]> {
        self.stdout.as_deref()
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    pub fn detail(&self) -> Option<&str> {
        self.detail.as_deref()
    }

    pub fn hints(&self) -> &[String] {
        &self.hints
    }

    /// The clap error to render as clap does (help, version, usage errors).
    pub fn clap_error(&self) -> Option<&clap::Error> {
        self.clap.as_ref()
    }

    /// The process exit code; the only mapping from failures to codes.
    pub fn exit_code(&self) -> u8 {
        if let Some(e) = &self.clap {
            return if e.use_stderr() { 1 } else { 0 };
        }
        match self.kind {
            Kind::BrokenPipe => 0,
            Kind::Usage => 1,
            Kind::Transport => 2,
            Kind::SessionActive => 3,
            Kind::NoSession => 4,
            Kind::ToolFailed => 5,
            Kind::Plugin => 6,
            Kind::Internal => 7,
        }
    }
}

impl From<clap::Error> for Error {
    fn from(e: clap::Error) -> Self {
        Self {
            kind: Kind::Usage,
            message: String::new(),
            detail: None,
            hints: Vec::new(),
            stdout: None,
            clap: Some(e),
            about_session: false,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_documented_code() {
        let codes: Vec<u8> = [
            Kind::Usage,
            Kind::Transport,
            Kind::SessionActive,
            Kind::NoSession,
            Kind::ToolFailed,
            Kind::Plugin,
            Kind::Internal,
            Kind::BrokenPipe,
        ]
        .into_iter()
        .map(|k| Error::new(k, "x").exit_code())
        .collect();
        assert_eq!(codes, [1, 2, 3, 4, 5, 6, 7, 0]);
    }
}
