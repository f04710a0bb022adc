//! What a bridge runs and how (`Options`), its idle time's syntax, and the command
//! line that starts it so: the background bridge's own, and the one a stopped
//! bridge's log offers to start it again with, from the directory it ran in.

use std::{
    ffi::OsString,
    fmt,
    path::{Path, PathBuf},
    time::Duration,
};

use mur_core::Error;
use mur_server::UsageLogging;

use crate::child::MAX_MESSAGE_BYTES;

/// How long a bridge waits without a request before it stops, by default.
pub const DEFAULT_IDLE: &str = "10m";

/// The longest idle time a bridge waits: a longer one (`--idle 100y`, what
/// someone writes for "never") is taken as this, a year — in effect never —
/// rather than refused. Bounded so that the bridge started in the background
/// reads its `--idle` back as any duration mur takes.
pub const MAX_IDLE: Duration = Duration::from_secs(365 * 86_400);

/// The shortest idle time a bridge takes: one shorter stops it as soon as it has
/// announced itself, before a client (or the command that started it, looking for
/// its lockfile) can reach it — which said "the bridge exited (code 0) before it
/// announced itself" (exit 7), as if mur had failed.
const MIN_IDLE: Duration = Duration::from_secs(1);

/// What a bridge runs, for which project, and when it gives up idling.
#[derive(Debug, Clone)]
pub struct Options {
    pub project: PathBuf,
    pub idle: Idle,
    /// The server's program and arguments.
    pub command: Vec<OsString>,
    /// Where the tool calls it serves are recorded (`--usage`, `--usage-log PATH`).
    pub usage: UsageLogging,
    /// The largest message of the server it reads, in bytes (`--max-message`;
    /// [`MAX_MESSAGE_BYTES`] by default).
    pub max_message: u64,
}

impl Options {
    /// The command line (after `mur`) that starts a bridge with these options in
    /// the background: every option that is not the default, then `--` and the
    /// server's command.
    pub fn command_line(&self) -> Vec<OsString> {
        let mut argv: Vec<OsString> = ["devtools", "bridge", "--project"]
            .map(OsString::from)
            .to_vec();
        argv.push(self.project.clone().into());
        if !self.idle.is_default() {
            argv.extend(["--idle".into(), self.idle.written.clone().into()]);
        }
        if self.max_message != MAX_MESSAGE_BYTES {
            argv.extend(["--max-message".into(), self.max_message.to_string().into()]);
        }
        match &self.usage {
            UsageLogging::Off => {}
            UsageLogging::BesideLockfile => argv.push("--usage".into()),
            UsageLogging::At(path) => argv.extend(["--usage-log".into(), path.clone().into()]),
        }
        argv.push("--".into());
        argv.extend(self.command.iter().cloned());
        argv
    }

    /// [`Options::command_line`] as a shell reads it back, `mur` first, after a `cd`
    /// to `dir`, the directory the bridge ran in (and so its server), when it is
    /// known: the command that starts the bridge again as it was started, pasted
    /// anywhere — a server named by a relative path (`python server.py`, `node
    /// dist/index.js`) is found only from there. A stopped bridge's log ends with
    /// it and its sidecar keeps it.
    ///
    /// One line whatever the words hold ([`shell_line`]): a server argument with a
    /// newline split the log's last line, and its hint lost the command.
    pub fn again(&self, dir: Option<&Path>) -> String {
        again_from(&self.command_line(), dir)
    }

    /// [`Options::again`] with `--foreground`: the command of a bridge its user ran
    /// in the foreground, for its log to offer back as that user ran it. Not for a
    /// hint that reaches an agent, whose command a foreground bridge would block.
    pub fn again_in_foreground(&self, dir: Option<&Path>) -> String {
        let mut argv = self.command_line();
        // After `devtools bridge`, as the background start runs its own.
        argv.insert(2, "--foreground".into());
        again_from(&argv, dir)
    }
}

/// `mur` and `argv` as a shell reads them back, after a `cd` to `dir` when it is known.
fn again_from(argv: &[OsString], dir: Option<&Path>) -> String {
    let mur = format!("mur {}", shell_line(argv));
    match dir {
        Some(dir) => format!("cd {} && {mur}", mur_core::shell_name(dir.as_os_str())),
        None => mur,
    }
}

/// A usage log that cannot be written (`why`, which names it): what a bridge or a proxy
/// given `usage` ends with (exit 7), before it serves anything. The hint fits the option
/// given: for `--usage`, the directory it writes in, which must be writable (`--usage`
/// was offered as the way out to whoever had given it); for `--usage-log`, another file
/// or `--usage`.
pub(crate) fn usage_log_unwritable(usage: &UsageLogging, log: &Path, why: String) -> Error {
    let hint = match usage {
        UsageLogging::BesideLockfile => {
            let dir = log.parent().unwrap_or(log).display();
            // Without a home it is the lockfile directory's `usage/` instead.
            let named = match mur_usage::UsageDir::from_env() {
                Some(_) => format!("`$XDG_STATE_HOME/mur/usage/sessions` (`{dir}`)"),
                None => format!("`{dir}`"),
            };
            format!(
                "`--usage` keeps its log in {named}, which must be a directory mur can write; \
                 or give `--usage-log` a file in one"
            )
        }
        UsageLogging::At(_) | UsageLogging::Off => {
            "give `--usage-log` a file in a directory mur can write, or use `--usage`".to_owned()
        }
    };
    Error::internal(why).with_hint(hint)
}

/// `words` as one line a shell reads back as them, each word as
/// [`mur_core::shell_name`] writes it: bare or single-quoted, and a word holding a
/// control character (a newline, ESC) or what is no UTF-8 in bash's `$'…'` with
/// `\xHH` escapes — never a raw newline that ends the line (a log line, a hint), nor a
/// raw ESC, which the log escapes to a `\x1b` that single quotes keep as those four
/// characters. `$'…'` is read by bash, zsh and ksh (not by dash, `sh` on Debian): only
/// such a word needs it.
pub(crate) fn shell_line(words: &[OsString]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| mur_core::shell_name(w)).collect();
    quoted.join(" ")
}

/// A command's words as text (what is no UTF-8 replaced).
pub(crate) fn words(command: &[OsString]) -> Vec<String> {
    command
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect()
}

/// An idle time (`--idle`) as its user wrote it, and how long it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Idle {
    /// What was written, trimmed: shown back as written (`1d`, not `24h`), and
    /// handed as it is to the bridge started in the background, which so reads
    /// it as this one did — never refusing it in words its user never wrote.
    written: String,
    duration: Duration,
}

impl Idle {
    /// How long the bridge waits without a request.
    pub fn duration(&self) -> Duration {
        self.duration
    }

    /// Whether it is as long as the default ([`DEFAULT_IDLE`]): not worth saying.
    fn is_default(&self) -> bool {
        parse_idle(DEFAULT_IDLE).is_ok_and(|default| default.duration == self.duration)
    }
}

/// As written, as in "no request for 1d"; `never` as the year it is.
impl fmt::Display for Idle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.written.eq_ignore_ascii_case("never") {
            true => f.write_str("a year"),
            false => f.write_str(&self.written),
        }
    }
}

/// `--idle DURATION`, in the syntax of every duration mur takes
/// ([`mur_core::parse_duration`]), or `never` ([`MAX_IDLE`]: an agent host's proxy
/// in front of the bridge must not find it gone); at least a second, at most
/// [`MAX_IDLE`].
pub fn parse_idle(text: &str) -> Result<Idle, String> {
    let written = text.trim().to_owned();
    if written.eq_ignore_ascii_case("never") {
        let duration = MAX_IDLE;
        return Ok(Idle { written, duration });
    }
    match mur_core::parse_duration(text)? {
        d if d < MIN_IDLE => Err(format!(
            "the idle time must be at least {}s, or the bridge stops before its first request \
             reaches it (`never` keeps the bridge until `bridge stop`)",
            MIN_IDLE.as_secs()
        )),
        d => Ok(Idle {
            written,
            duration: d.min(MAX_IDLE),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How long `text` reads as an idle time.
    fn idle(text: &str) -> Result<Duration, String> {
        parse_idle(text).map(|idle| idle.duration())
    }

    #[test]
    fn idle_times_read_as_people_write_them() {
        assert_eq!(idle("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(idle("1h 30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(idle("1500ms"), Ok(Duration::from_millis(1500)));
        assert_eq!(idle("1s"), Ok(MIN_IDLE));
        for short in ["0s", "999ms", "1ns"] {
            assert_eq!(
                idle(short),
                Err(
                    "the idle time must be at least 1s, or the bridge stops before its first \
                     request reaches it (`never` keeps the bridge until `bridge stop`)"
                        .to_owned()
                ),
                "{short}"
            );
        }
        assert_eq!(idle("never"), Ok(MAX_IDLE));
        assert_eq!(idle("Never"), Ok(MAX_IDLE));
        assert!(idle("soon").is_err_and(|e| e.contains("`soon` is not a duration")));
        // "Never", as people write it: a year.
        assert_eq!(idle("999999999h"), Ok(MAX_IDLE));
        assert_eq!(idle("100y"), Ok(MAX_IDLE));
        assert_eq!(idle(&format!("{}ms", MAX_IDLE.as_millis())), Ok(MAX_IDLE));
    }

    /// A bridge's options for project `/p/App.csproj`: `idle` as written, `command`.
    fn options(idle: &str, command: &[&str]) -> Options {
        Options {
            project: "/p/App.csproj".into(),
            idle: parse_idle(idle).expect("an idle time"),
            command: command.iter().map(|&word| word.into()).collect(),
            usage: UsageLogging::Off,
            max_message: MAX_MESSAGE_BYTES,
        }
    }

    #[test]
    fn the_command_that_starts_a_bridge_again_goes_where_it_ran_first() {
        let options = options(DEFAULT_IDLE, &["python", "my server.py"]);
        let mur = "mur devtools bridge --project /p/App.csproj -- python 'my server.py'";
        assert_eq!(
            options.again(Some(Path::new("/home/u/my tools"))),
            format!("cd '/home/u/my tools' && {mur}")
        );
        assert_eq!(options.again(None), mur);
    }

    /// In the foreground, `--foreground` follows `devtools bridge`, as its user ran it.
    #[test]
    fn the_command_that_starts_a_foreground_bridge_again_keeps_it_in_the_foreground() {
        let options = options("1d", &["python", "my server.py"]);
        assert_eq!(
            options.again_in_foreground(Some(Path::new("/home/u/my tools"))),
            "cd '/home/u/my tools' && mur devtools bridge --foreground --project \
             /p/App.csproj --idle 1d -- python 'my server.py'"
        );
        assert_eq!(
            options.again_in_foreground(None),
            "mur devtools bridge --foreground --project /p/App.csproj --idle 1d -- python \
             'my server.py'"
        );
    }

    /// A server argument holding a newline or a control character is written in `$'…'`,
    /// so the command stays one line (the log's last line, the hint that quotes it) and
    /// reads back as the same words. In single quotes a newline split the line, and ESC
    /// was a raw byte in it.
    #[test]
    fn the_command_that_starts_a_bridge_again_is_one_line_whatever_its_words_hold() {
        let options = options(DEFAULT_IDLE, &["python3", "\x1b[31mRED\nerror: x", "a b"]);
        assert_eq!(
            options.again(Some(Path::new("/home/u/t\tools"))),
            "cd $'/home/u/t\\x09ools' && mur devtools bridge --project /p/App.csproj -- \
             python3 $'\\x1b[31mRED\\x0aerror: x' 'a b'"
        );
    }

    /// An idle time is handed to the bridge started in the background, and shown in
    /// the command that starts it again, as its user wrote it: the background bridge
    /// reads it as the command did. Before, it was rewritten in its largest whole unit
    /// (`1d` as `24h`), and one under a millisecond (`1ns`) as `0h`, which the
    /// background bridge refused ("invalid value `0h` for `--idle`").
    #[test]
    fn an_idle_time_but_the_default_is_given_as_written() {
        let line = |written: &str| words(&options(written, &["npx", "server"]).command_line());
        let start = ["devtools", "bridge", "--project", "/p/App.csproj"];
        let server = ["--", "npx", "server"];
        for default in ["10m", "600s", " 10m "] {
            assert_eq!(line(default), [&start[..], &server].concat());
        }
        for (written, said) in [
            ("2s", "2s"),
            ("1500ms", "1500ms"),
            ("1d", "1d"),
            ("1h 30m", "1h 30m"),
            (" 90 ", "90"),
            ("never", "never"),
            ("999999999h", "999999999h"),
        ] {
            assert_eq!(
                line(written),
                [&start[..], &["--idle", said], &server].concat()
            );
            assert_eq!(idle(said), idle(written));
        }
    }

    #[test]
    fn an_idle_time_is_said_as_written_and_never_as_a_year() {
        let said = |written: &str| parse_idle(written).expect("an idle time").to_string();
        assert_eq!(said("1d"), "1d");
        assert_eq!(said(" 1h 30m "), "1h 30m");
        assert_eq!(said("Never"), "a year");
    }
}
