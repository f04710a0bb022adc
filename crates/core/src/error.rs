//! The one error type of `mur`: every failure carries its kind, and
//! [`Error::exit_code`] is the single place that maps kinds to exit codes.

use std::borrow::Cow;
use std::fmt;

use crate::text::escape_value;

/// What class of failure happened; decides the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The command line is wrong, or ambiguous (several sessions): exit 1.
    Usage,
    /// The endpoint could not be reached, timed out or answered garbage: exit 2.
    Transport,
    /// Another session already holds the project (a second `bridge`): exit 3.
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
    /// Help or the version was asked for (`--help`, `-V`): clap's text on stdout, exit 0.
    Help,
}

impl Kind {
    /// The kind whose exit code is `code`, for a `mur` child's exit status (a bridge
    /// starting in the background): [`Error::exit_code`] read backwards. 0 is no failure.
    pub fn from_exit_code(code: i32) -> Option<Self> {
        Some(match code {
            1 => Kind::Usage,
            2 => Kind::Transport,
            3 => Kind::SessionActive,
            4 => Kind::NoSession,
            5 => Kind::ToolFailed,
            6 => Kind::Plugin,
            7 => Kind::Internal,
            _ => return None,
        })
    }
}

/// Every exit code `mur` uses and what it means, for the catalog and docs.
pub const EXIT_CODES: &[(u8, &str)] = &[
    (
        0,
        "success (also --help, and a closed stdout pipe when the command had nothing else to say)",
    ),
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
        "the tool failed: JSON-RPC error or isError (the answer is on stdout); or the \
         server asked a question no `--answer` answered (stdout empty)",
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
    hints: Vec<String>,
    about_session: bool,
    out_of_bound: bool,
    /// What few errors carry, boxed: an `Error` is the `Err` of every
    /// `Result` on a call's path, and small is cheap to move.
    more: Option<Box<More>>,
}

/// The parts of an [`Error`] that few errors have.
#[derive(Debug, Default)]
struct More {
    list: Vec<String>,
    detail: Option<String>,
    stdout: Option<Vec<u8>>,
    clap: Option<clap::Error>,
    choice: Option<SessionChoice>,
    lacking_tool: Option<String>,
}

/// The sessions an error asks to choose among (several run, none chosen) and the command
/// to run again with one of them, as data beside the hint that says it: a caller that
/// knows which one is meant (the one whose tool list has the word typed) names it again
/// by discovery's own rule, not by reading the hint back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionChoice {
    /// How to choose, said before the command again ("choose one with `--project PATH`…").
    pub choose: String,
    /// In the order listed under the error.
    pub sessions: Vec<ListedSession>,
    /// The words after `mur devtools` to run again with the session chosen; none when
    /// they are not known.
    pub command: Vec<String>,
}

/// A session listed to choose from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedSession {
    pub project: String,
    pub endpoint: String,
    /// What tells it from any other session that had its endpoint (pid, start time,
    /// build tag), as a session resolved carries it.
    pub identity: String,
    /// Whether it answered discovery's probe (one that did not runs, maybe stopped).
    pub answering: bool,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `Error::usage(message)` for `Error::new(Kind::Usage, message)`: one
/// constructor for each kind an error is made of with a message.
macro_rules! kind_constructors {
    ($($name:ident => $kind:ident),* $(,)?) => {
        $(
            #[doc = concat!("An error of [`Kind::", stringify!($kind), "`].")]
            pub fn $name(message: impl Into<String>) -> Self {
                Self::new(Kind::$kind, message)
            }
        )*
    };
}

impl Error {
    pub fn new(kind: Kind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            hints: Vec::new(),
            about_session: false,
            out_of_bound: false,
            more: None,
        }
    }

    fn more(&mut self) -> &mut More {
        self.more.get_or_insert_with(Box::default)
    }

    kind_constructors! {
        usage => Usage,
        transport => Transport,
        no_session => NoSession,
        tool_failed => ToolFailed,
        plugin => Plugin,
        internal => Internal,
    }

    pub fn broken_pipe() -> Self {
        Self::new(Kind::BrokenPipe, "")
    }

    /// Adds rows printed under the message, one indented line each (the sessions
    /// to choose from): data, kept apart from the message so that each prints
    /// as one line whatever it holds.
    pub fn with_list(mut self, rows: Vec<String>) -> Self {
        self.more().list = rows;
        self
    }

    /// Adds text printed after the message, such as a verb's usage.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.more().detail = Some(detail.into());
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

    /// Puts `new` in the place of the hint `old`, if the error has it.
    pub fn replacing_hint(mut self, old: &str, new: impl Into<String>) -> Self {
        if let Some(hint) = self.hints.iter_mut().find(|hint| *hint == old) {
            *hint = new.into();
        }
        self
    }

    /// Adds the sessions to choose from and the command to run again, as data
    /// ([`SessionChoice`]); the hint that says it is added apart.
    pub fn with_session_choice(mut self, choice: SessionChoice) -> Self {
        self.more().choice = Some(choice);
        self
    }

    /// The sessions to choose from, when the error asks which one is meant.
    pub fn session_choice(&self) -> Option<&SessionChoice> {
        self.more.as_ref()?.choice.as_ref()
    }

    /// Marks a failed call as one of a tool the session does not have (the server said
    /// it lacks `tool`, and the session's tool list lacks it too), as data beside the
    /// message that says it: a caller that says it in its own words (a data verb's file
    /// names the tool) knows it by this, not by reading the message back.
    pub fn lacking_tool(mut self, tool: impl Into<String>) -> Self {
        self.more().lacking_tool = Some(tool.into());
        self
    }

    /// The tool the session does not have, when the call failed for want of it
    /// ([`Error::lacking_tool`]).
    pub fn tool_lacked(&self) -> Option<&str> {
        self.more.as_ref()?.lacking_tool.as_deref()
    }

    /// Adds what stdout still carries for this failure (seed 000 §9: a failed
    /// tool's `{"error":{…}}` object or its result), printed before the message.
    pub fn with_stdout(mut self, bytes: Vec<u8>) -> Self {
        self.more().stdout = Some(bytes);
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

    /// Marks a call that ran out of its bound (`--timeout`), with no hint yet of how to
    /// lengthen it: where the bound was given, and so what to lengthen, only the caller
    /// knows (before a verb's name, after it, the proxy's own option), and it says so
    /// in its own words ([`Error::with_bound_hint`]). The library that ran out says none.
    pub fn out_of_bound(mut self) -> Self {
        self.out_of_bound = true;
        self
    }

    /// Whether a call ran out of its bound and no hint says yet how to lengthen it.
    pub fn is_out_of_bound(&self) -> bool {
        self.out_of_bound
    }

    /// A call out of its bound ([`Error::out_of_bound`]) with `hint`, how to lengthen
    /// it, as its last `hint:` line, said once: the first caller that knows where the
    /// bound was given words it, and the error is no longer marked. Any other error is
    /// returned as it is.
    pub fn with_bound_hint(mut self, hint: impl FnOnce() -> String) -> Self {
        if self.out_of_bound {
            self.out_of_bound = false;
            self.hints.push(hint());
        }
        self
    }

    pub fn stdout(&self) -> Option<&[u8]> {
        self.more.as_ref()?.stdout.as_deref()
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    pub fn list(&self) -> &[String] {
        self.more.as_ref().map_or(&[], |m| &m.list)
    }

    pub fn detail(&self) -> Option<&str> {
        self.more.as_ref()?.detail.as_deref()
    }

    pub fn hints(&self) -> &[String] {
        &self.hints
    }

    /// The clap error to render as clap does (help, version, usage errors).
    pub fn clap_error(&self) -> Option<&clap::Error> {
        self.more.as_ref()?.clap.as_ref()
    }

    /// The process exit code; the only mapping from failures to codes.
    pub fn exit_code(&self) -> u8 {
        match self.kind {
            Kind::BrokenPipe | Kind::Help => 0,
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
        // A usage error is said as every other error is: one `error:` line and
        // `hint:` lines. Help and version stay clap's to print: on stdout, or the
        // help of a command typed without its subcommand on stderr.
        let help = e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand;
        if e.use_stderr() && !help {
            return usage_from_clap(&e);
        }
        // What is left is clap's to print: help or the version (exit 0), or the help of a
        // command typed without its subcommand, on stderr (exit 1).
        let kind = if e.use_stderr() {
            Kind::Usage
        } else {
            Kind::Help
        };
        let mut error = Self::new(kind, "");
        error.more().clap = Some(e);
        error
    }
}

/// clap's rendering of a usage error in mur's shape and quoting. clap's own:
///
/// ```text
/// error: unrecognized subcommand 'lst'
///
///   tip: a similar subcommand exists: 'list'
///
/// Usage: mur devtools verbs [OPTIONS] <COMMAND>
///
/// For more information, try '--help'.
/// ```
///
/// becomes ``error: unrecognized subcommand `lst` ``, then ``hint: did you mean `list`?``
/// and ``hint: usage: mur devtools verbs [OPTIONS] <COMMAND> (`--help` shows more)``:
/// every token quoted in backticks and a suggestion said as mur says its own, not
/// clap's '…' beside mur's `…` on one line (a value parser's words are mur's). Lines
/// indented under the first (the arguments not provided, the other of two conflicting)
/// join it. Read off the rendered text: clap's structured context holds not all of it
/// (the usage line is rendered only with the message); the context names what clap quoted.
fn usage_from_clap(e: &clap::Error) -> Error {
    let rendered = one_line_values(e, e.render().to_string());
    let quoted = clap_quoted(e);
    let mut lines = rendered.lines().map(str::trim_end);
    let first = lines.next().unwrap_or_default();
    let mut message = backticked(first.strip_prefix("error: ").unwrap_or(first), &quoted);
    let mut under = Vec::new();
    let mut hints = Vec::new();
    let mut suggestions = suggested(e).into_iter();
    let mut usage = None;
    for line in lines {
        if let Some(tip) = line.trim_start().strip_prefix("tip: ") {
            let similar = tip.starts_with("a similar ") || tip.starts_with("some similar ");
            match suggestions.next().filter(|_| similar) {
                Some(names) => hints.push(format!("did you mean {}?", either(&names))),
                None => hints.push(backticked(tip, &quoted)),
            }
        } else if let Some(line) = line.strip_prefix("Usage: ") {
            usage = Some(line.to_owned());
        } else if line.starts_with("  ") && usage.is_none() && hints.is_empty() {
            under.push(line.trim().to_owned());
        }
    }
    if e.kind() == clap::error::ErrorKind::MissingRequiredArgument && !under.is_empty() {
        // As a verb says it: "missing argument `<selector>`".
        let (one, many) = ("missing argument", "missing arguments");
        let names: Vec<String> = under.iter().map(|name| format!("`{name}`")).collect();
        message = format!(
            "{} {}",
            if names.len() == 1 { one } else { many },
            both(&names)
        );
    } else {
        for line in under {
            // `[possible values: a, b]` is a list of words, said in parentheses after the
            // argument; the rest are an argument each.
            if let Some(values) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                message.push_str(&format!(" ({values})"));
                continue;
            }
            let joiner = if message.ends_with(':') { " " } else { ", " };
            message.push_str(joiner);
            message.push_str(&format!("`{line}`"));
        }
    }
    if message.ends_with(':') {
        message.pop();
    }
    // A conflict's "usage" is the two arguments typed, not the command's usage.
    let conflict = e.kind() == clap::error::ErrorKind::ArgumentConflict;
    hints.extend(
        usage
            .filter(|_| !conflict)
            .map(|usage| format!("usage: {usage} (`--help` shows more)")),
    );
    Error {
        hints,
        ..Error::usage(message)
    }
}

/// The words of clap's context: what its message quotes.
fn context_words(e: &clap::Error) -> impl Iterator<Item = &String> {
    use clap::error::ContextValue;
    e.context().flat_map(|(_, value)| match value {
        ContextValue::String(word) => std::slice::from_ref(word),
        ContextValue::Strings(words) => words.as_slice(),
        _ => &[],
    })
}

/// clap's `rendered` error with each word of its context that holds a newline (or any
/// character [`escape_value`] escapes) escaped where it stands quoted, as '…' by clap or
/// as `…` by one of mur's value parsers: read line by line, a value typed with a newline
/// (`--timeout $'5\nerror: x'`) cut the message there, and the rest read as lines of
/// their own. The word is found as clap renders it: its rendering drops some control
/// characters (DEL), so a value quoted with one was not the value typed.
fn one_line_values(e: &clap::Error, rendered: String) -> String {
    context_words(e)
        .filter(|word| matches!(escape_value(word), Cow::Owned(_)))
        .fold(rendered, |text, word| {
            let escaped = escape_value(word);
            let shown = clap::builder::StyledStr::from(word.clone()).to_string();
            ["'", "`"].iter().fold(text, |text, quote| {
                text.replace(
                    &format!("{quote}{shown}{quote}"),
                    &format!("{quote}{escaped}{quote}"),
                )
            })
        })
}

/// The words clap's message quotes ('…'): the values of its context, as
/// [`one_line_values`] leaves them.
fn clap_quoted(e: &clap::Error) -> Vec<String> {
    let mut words: Vec<String> = context_words(e)
        .filter(|word| !word.is_empty())
        .map(|word| escape_value(word).into_owned())
        .collect();
    // The longest first, so that `'-- --x'` is not read as `'--x'` inside it; `'-- --x'`
    // itself is what clap's tip on a value that looks like an option proposes.
    let after_dashes: Vec<String> = words.iter().map(|word| format!("-- {word}")).collect();
    words.extend(after_dashes);
    words.push("--".to_owned());
    words.sort_by_key(|word| std::cmp::Reverse(word.len()));
    words
}

/// `text` with each of `words` that clap quoted as '…' quoted as `…`.
fn backticked(text: &str, words: &[String]) -> String {
    words.iter().fold(text.to_owned(), |text, word| {
        text.replace(&format!("'{word}'"), &format!("`{word}`"))
    })
}

/// The names of each "a similar … exists" tip of clap's, in the order clap renders them.
fn suggested(e: &clap::Error) -> Vec<Vec<String>> {
    use clap::error::{ContextKind, ContextValue};
    [
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedArg,
        ContextKind::SuggestedValue,
    ]
    .into_iter()
    .filter_map(|kind| match e.get(kind)? {
        ContextValue::String(name) => Some(vec![name.clone()]),
        ContextValue::Strings(names) if !names.is_empty() => Some(names.clone()),
        _ => None,
    })
    .collect()
}

/// `a`, `` `a` or `b` ``, `` `a`, `b` or `c` ``.
fn either(names: &[String]) -> String {
    listed(names.iter().map(|name| format!("`{name}`")).collect(), "or")
}

/// `a`, `a and b`, `a, b and c`.
fn both(names: &[String]) -> String {
    listed(names.to_vec(), "and")
}

fn listed(mut words: Vec<String>, last_joiner: &str) -> String {
    match words.pop() {
        Some(last) if !words.is_empty() => format!("{} {last_joiner} {last}", words.join(", ")),
        Some(last) => last,
        None => String::new(),
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

    fn refused(argv: &[&str]) -> Error {
        let cmd = clap::Command::new("mur").subcommand(
            clap::Command::new("verbs")
                .subcommand(
                    clap::Command::new("list").arg(
                        clap::Arg::new("all")
                            .long("all")
                            .action(clap::ArgAction::SetTrue),
                    ),
                )
                .subcommand(
                    clap::Command::new("info")
                        .arg(clap::Arg::new("NAME").required(true))
                        .arg(clap::Arg::new("MORE").required(true)),
                )
                .subcommand(
                    clap::Command::new("new")
                        .arg(
                            clap::Arg::new("dir")
                                .long("dir")
                                .value_parser(clap::value_parser!(u8)),
                        )
                        .arg(
                            clap::Arg::new("lang")
                                .long("lang")
                                .value_parser(["rust", "python"]),
                        )
                        .arg(
                            clap::Arg::new("here")
                                .long("here")
                                .action(clap::ArgAction::SetTrue)
                                .conflicts_with("dir"),
                        )
                        .arg(clap::Arg::new("NAME")),
                ),
        );
        cmd.try_get_matches_from(argv)
            .map(|_| ())
            .expect_err("refused")
            .into()
    }

    /// What clap refuses is said in mur's words: every token in backticks, as mur quotes
    /// everywhere, never clap's '…' beside a value parser's `…`; a suggestion as `hint: did
    /// you mean …?`; a missing argument as a verb says it.
    #[test]
    fn a_usage_error_of_clap_is_one_error_line_and_hints_in_murs_words() {
        let said = |argv: &[&str]| {
            let e = refused(argv);
            assert_eq!(e.exit_code(), 1, "{argv:?}");
            assert!(e.clap_error().is_none(), "printed as mur's: {argv:?}");
            (e.message().to_owned(), e.hints().to_vec())
        };
        let usage = "usage: mur verbs [COMMAND] (`--help` shows more)";
        assert_eq!(
            said(&["mur", "verbs", "lst"]),
            (
                "unrecognized subcommand `lst`".to_owned(),
                vec!["did you mean `list`?".to_owned(), usage.to_owned()]
            )
        );
        assert_eq!(
            said(&["mur", "verbs", "info", "x"]),
            (
                "missing argument `<MORE>`".to_owned(),
                vec!["usage: mur verbs info <NAME> <MORE> (`--help` shows more)".to_owned()]
            )
        );
        assert_eq!(
            said(&["mur", "verbs", "info"]).0,
            "missing arguments `<NAME>` and `<MORE>`"
        );
        let new = "usage: mur verbs new [OPTIONS] [NAME] (`--help` shows more)";
        assert_eq!(
            said(&["mur", "verbs", "list", "--al"]),
            (
                "unexpected argument `--al` found".to_owned(),
                vec![
                    "did you mean `--all`?".to_owned(),
                    "usage: mur verbs list --all (`--help` shows more)".to_owned()
                ]
            )
        );
        assert_eq!(
            said(&["mur", "verbs", "new", "--dir", "it's"]).0,
            "invalid value `it's` for `--dir <dir>`: invalid digit found in string"
        );
        assert_eq!(
            said(&["mur", "verbs", "new", "--lang", "rus"]),
            (
                "invalid value `rus` for `--lang <lang>` (possible values: rust, python)"
                    .to_owned(),
                vec!["did you mean `rust`?".to_owned()]
            )
        );
        assert_eq!(
            said(&["mur", "verbs", "new", "--dir", "1", "--here"]),
            (
                "the argument `--dir <dir>` cannot be used with `--here`".to_owned(),
                Vec::new()
            )
        );
        assert_eq!(
            said(&["mur", "verbs", "new", "--x"]),
            (
                "unexpected argument `--x` found".to_owned(),
                vec![
                    "to pass `--x` as a value, use `-- --x`".to_owned(),
                    new.to_owned()
                ]
            )
        );
        // Help is clap's to print.
        let help = refused(&["mur", "--help"]);
        assert!(help.clap_error().is_some());
        assert_eq!((help.kind(), help.exit_code()), (Kind::Help, 0));
    }

    /// The hint of a call out of its bound is said once, by the first caller that knows
    /// where the bound was given, after the hints already there; no other error gets it.
    #[test]
    fn a_call_out_of_its_bound_is_told_how_to_lengthen_it_once() {
        let e = Error::transport("`x` did not answer within 300 ms")
            .with_hint("the bridge said: …")
            .out_of_bound()
            .with_first_hint("the request was sent");
        assert!(e.is_out_of_bound());
        let e = e
            .with_bound_hint(|| "a longer `--timeout MS` before `call`".to_owned())
            .with_bound_hint(|| "a longer `--timeout MS` before the verb name".to_owned());
        assert!(!e.is_out_of_bound());
        assert_eq!(
            e.hints(),
            [
                "the request was sent",
                "the bridge said: …",
                "a longer `--timeout MS` before `call`"
            ]
        );
        let other = Error::transport("refused").with_bound_hint(|| "never".to_owned());
        assert!(other.hints().is_empty());
    }

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
            Kind::Help,
        ]
        .into_iter()
        .map(|k| Error::new(k, "x").exit_code())
        .collect();
        assert_eq!(codes, [1, 2, 3, 4, 5, 6, 7, 0, 0]);
    }

    #[test]
    fn a_failures_exit_code_reads_back_as_its_kind() {
        for code in 1..=7 {
            let kind = Kind::from_exit_code(code).expect("a failure's code");
            assert_eq!(i32::from(Error::new(kind, "x").exit_code()), code);
        }
        assert_eq!(Kind::from_exit_code(0), None);
        assert_eq!(Kind::from_exit_code(101), None);
    }

    /// The phrase every description of code N opens its class with, in the order of the codes.
    const CLASSES: [&str; 8] = [
        "success",
        "usage",
        "transport",
        "another session is",
        "no live session",
        "the tool failed",
        "a verb plugin failed",
        "mur itself failed",
    ];

    /// The rows `| N | meaning |` of the first table under `## Exit codes` or
    /// `### Exit codes` in a document of the repository.
    fn documented(path: &str) -> Vec<(u8, String)> {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(path);
        let text = std::fs::read_to_string(&file).expect("the document");
        let section = text
            .split_once("# Exit codes\n")
            .unwrap_or_else(|| panic!("{path} has an `Exit codes` section"))
            .1;
        section
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .filter_map(|row| {
                let mut cells = row.split('|').skip(1);
                let code = cells.next()?.trim().parse().ok()?;
                Some((code, cells.next()?.trim().to_owned()))
            })
            .collect()
    }

    /// README, host/README and the agents' guide each keep a table of the exit codes
    /// for their readers, and `catalog` serves `EXIT_CODES`: worded apart, they must
    /// name the same codes in the same order, each of the same class.
    #[test]
    fn every_exit_code_table_names_the_same_codes_and_classes() {
        let tables = [
            (
                "EXIT_CODES",
                EXIT_CODES
                    .iter()
                    .map(|(c, m)| (*c, m.to_string()))
                    .collect(),
            ),
            ("README.md", documented("README.md")),
            ("host/README.md", documented("host/README.md")),
            ("docs/agents.md", documented("docs/agents.md")),
        ];
        for (name, rows) in tables {
            let codes: Vec<u8> = rows.iter().map(|(code, _)| *code).collect();
            assert_eq!(codes, [0, 1, 2, 3, 4, 5, 6, 7], "the codes of {name}");
            for ((code, meaning), class) in rows.iter().zip(CLASSES) {
                assert!(
                    meaning.contains(class),
                    "{name}: code {code} is `{class}`, but its row says `{meaning}`"
                );
            }
        }
    }
}
