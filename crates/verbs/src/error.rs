//! The one error type of the verb runtime and registry, each variant with its [`mur_core::Kind`]
//! (mur-core maps kinds to exit codes).

use std::fmt;

use mur_core::{Error, Kind};

use crate::spec::{Param, ValueKind, VerbSpec};

/// Everything that can go wrong while finding, managing or running a verb.
///
/// Each variant has its [`Kind`] (`Plugin`: the verb's own failure; `Internal`:
/// mur's own; the rest: usage), so the exit code comes from the one mapping
/// in `mur-core`.
///
/// `Display` is the one message line (lowercase, names in backticks); a fix,
/// when there is one, comes from [`VerbError::hint`] for its own `hint:` line.
#[derive(Debug)]
pub enum VerbError {
    /// No installed verb has this name (exit 1).
    UnknownVerb(String),
    /// The verb rejected its argv; print the message, then its usage (exit 1).
    Usage {
        verb: String,
        message: String,
        usage: String,
        /// A selector it needs is missing: it may have been typed unquoted, and
        /// the shell read it as a comment ([`VerbError::usage`]).
        unquoted: bool,
        /// `mur devtools` with the options that chose the session, as a hint's command
        /// must be typed to reach it ([`VerbError::typed_after`]).
        devtools: String,
    },
    /// The verb itself failed: trap, time or memory limit, malformed output (exit 6);
    /// with what the user can do about it, when there is something.
    Plugin {
        verb: String,
        message: String,
        hint: Option<String>,
    },
    /// A `verbs` request that cannot be done as asked (exit 1).
    Registry(String),
    /// A management request was refused, with the way to get past it (exit 1).
    Refused { message: String, hint: String },
    /// mur's own part failed: its verb directory, index or cache, or the verb
    /// runtime — nothing the user typed was wrong (exit 7).
    Internal {
        message: String,
        hint: Option<String>,
    },
}

impl VerbError {
    /// A verb's `parse` refused its argv with `message`, to be followed by `usage`
    /// (its brief usage); `spec` is what it declared, which tells whether the missing
    /// value was a selector. An empty message is said to be one (`error: jot: ` with
    /// nothing after it told the user nothing). A message that names the fix (`did
    /// you mean `--selector`?`) goes without the usage, which would only repeat what
    /// the user must type into every agent's context (hundreds of bytes a slip): a
    /// hint names `--help` instead. `argv` is what the verb was given, which tells
    /// whether the shell can have read the selector as a comment ([`missing_selector`]).
    pub fn usage(
        verb: &str,
        message: String,
        usage: String,
        spec: Option<&VerbSpec>,
        argv: &[String],
    ) -> Self {
        let unquoted = spec.is_some_and(|spec| missing_selector(&message, spec, argv));
        let message = match message.trim() {
            "" => {
                "refused these arguments without saying why (the verb gave no message)".to_owned()
            }
            _ => message,
        };
        let usage = if message.contains("did you mean") {
            String::new()
        } else {
            usage
        };
        Self::Usage {
            verb: verb.to_owned(),
            message,
            usage,
            unquoted,
            devtools: "mur devtools".to_owned(),
        }
    }

    /// This error of a verb run by `devtools` (`mur devtools --project P`, as
    /// `Settings::devtools_command` writes it): the `--help` its hint names is typed
    /// with the options that chose the session. A derived verb's `--help` reads the
    /// session's tool list, and plain `mur devtools` reached no session among several,
    /// or another than `--endpoint URL`'s (review 508, 7).
    #[must_use]
    pub fn typed_after(mut self, devtools: &str) -> Self {
        if let Self::Usage { devtools: own, .. } = &mut self {
            devtools.clone_into(own);
        }
        self
    }

    pub(crate) fn plugin(verb: &str, message: impl Into<String>) -> Self {
        Self::Plugin {
            verb: verb.to_owned(),
            message: message.into(),
            hint: None,
        }
    }

    pub(crate) fn plugin_with_hint(
        verb: &str,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) -> Self {
        Self::Plugin {
            verb: verb.to_owned(),
            message: message.into(),
            hint: Some(hint.into()),
        }
    }

    pub(crate) fn refused(message: impl Into<String>, hint: impl Into<String>) -> Self {
        Self::Refused {
            message: message.into(),
            hint: hint.into(),
        }
    }

    pub(crate) fn internal(message: impl Into<String>) -> Self {
        Self::Internal {
            message: message.into(),
            hint: None,
        }
    }

    pub(crate) fn internal_with_hint(message: impl Into<String>, hint: impl Into<String>) -> Self {
        Self::Internal {
            message: message.into(),
            hint: Some(hint.into()),
        }
    }

    /// Advice for a `hint:` line, where there is a fix.
    pub fn hint(&self) -> Option<String> {
        match self {
            Self::UnknownVerb(_) => {
                Some("`mur devtools --help` lists the verbs; `mur devtools verbs list` the installed ones".into())
            }
            // The brief usage printed under the message (the usage line, arguments,
            // options, examples: `--help` without its summary, details and the host
            // options) says what to type; only a verb with none to print points at
            // `--help`.
            Self::Usage {
                verb,
                usage,
                devtools,
                ..
            } if usage.trim().is_empty() => {
                Some(format!("`{devtools} {verb} --help` shows its usage"))
            }
            Self::Usage { .. } => None,
            Self::Refused { hint, .. } => Some(hint.clone()),
            Self::Internal { hint, .. } | Self::Plugin { hint, .. } => hint.clone(),
            Self::Registry(_) => None,
        }
    }
}

impl fmt::Display for VerbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownVerb(name) => write!(f, "unknown verb `{name}`"),
            Self::Usage { verb, message, .. } => write!(f, "{verb}: {message}"),
            Self::Plugin { verb, message, .. } => write!(f, "verb `{verb}` {message}"),
            Self::Registry(message)
            | Self::Refused { message, .. }
            | Self::Internal { message, .. } => f.write_str(message),
        }
    }
}

impl std::error::Error for VerbError {}

impl VerbError {
    /// The class of this failure, which alone decides the exit code.
    pub fn kind(&self) -> Kind {
        match self {
            Self::UnknownVerb(_)
            | Self::Usage { .. }
            | Self::Registry(_)
            | Self::Refused { .. } => Kind::Usage,
            Self::Plugin { .. } => Kind::Plugin,
            Self::Internal { .. } => Kind::Internal,
        }
    }
}

impl From<VerbError> for Error {
    fn from(e: VerbError) -> Self {
        let mut error = Error::new(e.kind(), e.to_string());
        match &e {
            // No `call NAME` hint: the word need not be a tool's name (`export-todos`
            // stands for `exportTodos`), and `catalog` names them all.
            VerbError::UnknownVerb(_) => {
                return error.with_hint("`mur devtools verbs list` shows the installed verbs");
            }
            VerbError::Usage {
                usage, unquoted, ..
            } => {
                if !usage.trim().is_empty() {
                    error = error.with_detail(usage.clone());
                }
                if *unquoted {
                    error = error.with_hint(UNQUOTED);
                }
            }
            _ => {}
        }
        match e.hint() {
            Some(hint) => error.with_hint(hint),
            None => error,
        }
    }
}

/// Why a selector typed on the command line can be missing from argv.
const UNQUOTED: &str = "quote a selector that starts with `#` ('#btn-inc'): unquoted, the shell reads it and the rest of the line as a comment";

/// Whether `message` says a selector is missing where the shell can have taken it
/// for a comment: a positional of kind selector (`missing argument `<selector>``) or
/// an option named or typed so (`` `--selector <S>` needs a value``), in the words every
/// verb kit and the derived parser use. The shell drops an unquoted `#…` word and
/// every word after it, so argv ends where the selector was dropped: an option's value
/// was dropped only when the option is argv's last word (`state --selector` from
/// `state --selector #count`), not when words follow it (`wait-for --selector --text
/// x`) or it was given `=` (`--selector=`). A missing positional is always at the end
/// of what was given (`bump`, `bump --timeout 900` may each have been followed by
/// `#btn-inc`): argv cannot tell those from a selector left out. So is the option a
/// lone word gives ([`VerbSpec::lone`]: `missing argument `<selector>`` from `wait-for #x`).
fn missing_selector(message: &str, spec: &VerbSpec, argv: &[String]) -> bool {
    let selector = |p: &&Param| p.kind == ValueKind::Selector || p.name == "selector";
    let positional = spec
        .positionals
        .iter()
        .filter(selector)
        .any(|p| message == format!("missing argument `<{}>`", p.name));
    let lone = spec.lone.as_deref().and_then(|lone| spec.option(lone));
    let lone = lone
        .filter(selector)
        .is_some_and(|p| message == format!("missing argument `<{}>`", p.name));
    let last = argv.last().map(String::as_str);
    let option = spec.options.iter().filter(selector).any(|p| {
        let option = format!("--{}", p.name);
        // Named with its value's name (`` `--to <S>` ``), or bare where it has none.
        let named = message
            .strip_prefix(&format!("`{option}"))
            .and_then(|rest| rest.split_once("` needs a value"))
            .is_some_and(|(value, _)| value.is_empty() || value.starts_with(" <"));
        named && last == Some(option.as_str())
    });
    positional || lone || option
}

/// Shorthand for an I/O failure on a path in mur's own verb or cache directory
/// (exit 7); a file the user named is reported as theirs instead.
pub(crate) fn io_error(action: &str, path: &std::path::Path, err: std::io::Error) -> VerbError {
    VerbError::internal(format!("could not {action} `{}`: {err}", path.display()))
}

/// Why a file the user named could not be read, as a message says it: "no such file"
/// when it does not exist, else the system's words without Rust's `(os error N)`
/// ("Permission denied"). `verbs add`'s file and a derived verb's `@FILE` alike.
pub(crate) fn io_said(e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::NotFound {
        return "no such file".to_owned();
    }
    let why = e.to_string();
    match why.rfind(" (os error ") {
        Some(at) if why.ends_with(')') => why[..at].to_owned(),
        _ => why,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hints(message: &str, spec: &VerbSpec, argv: &[&str]) -> Vec<String> {
        let argv: Vec<String> = argv.iter().map(|w| (*w).to_owned()).collect();
        let error = Error::from(VerbError::usage(
            "v",
            message.into(),
            String::new(),
            Some(spec),
            &argv,
        ));
        error.hints().to_vec()
    }

    #[test]
    fn a_missing_selector_suggests_quoting_it_and_nothing_else_does() {
        let select = VerbSpec {
            positionals: vec![
                Param::new("selector", "", ValueKind::Selector, ""),
                Param::new("item-selector", "", ValueKind::Selector, ""),
                Param::new("text", "", ValueKind::Text, ""),
            ],
            options: vec![
                Param::new("selector", "TEXT", ValueKind::Text, ""),
                Param::new("to", "S", ValueKind::Selector, ""),
                Param::new("window", "W", ValueKind::Name, ""),
            ],
            ..VerbSpec::default()
        };
        let usage = "`mur devtools v --help` shows its usage".to_owned();
        let quote = [UNQUOTED.to_owned(), usage.clone()];
        for (message, argv) in [
            ("missing argument `<selector>`", &[][..]),
            // Each may have been followed by `#btn-inc`, dropped by the shell.
            ("missing argument `<selector>`", &["--timeout", "900"]),
            ("missing argument `<item-selector>`", &["#list"]),
            ("`--selector <TEXT>` needs a value", &["--selector"]),
            ("`--to <S>` needs a value", &["#a", "--to"]),
        ] {
            assert_eq!(hints(message, &select, argv), quote, "{message} {argv:?}");
        }
        for (message, argv) in [
            ("missing argument `<text>`", &["#a"][..]),
            ("`--window <W>` needs a value", &["--window"]),
            ("unknown option `--selector-x`", &["--selector-x"]),
            // Words came after the option, or its value was given empty: the shell
            // dropped no word there (audit 271: the hint said it had).
            (
                "`--selector <TEXT>` needs a value, and `--text` is an option (a value that begins \
                 with `--` is written `--selector=VALUE`)",
                &["--selector", "--text", "x"],
            ),
            ("`--to <S>` needs a value", &["--to="]),
        ] {
            assert_eq!(
                hints(message, &select, argv),
                std::slice::from_ref(&usage),
                "{message} {argv:?}"
            );
        }
    }

    /// The brief usage printed under the message is `--help` without its prose and
    /// the host options: what to type is there, so a hint to run `--help` is not.
    #[test]
    fn a_usage_error_that_prints_the_usage_does_not_point_at_help() {
        let error = Error::from(VerbError::usage(
            "v",
            "unknown option `--x`".into(),
            "Usage: mur devtools v".into(),
            None,
            &[],
        ));
        assert_eq!(error.hints(), [] as [String; 0]);
    }
}
