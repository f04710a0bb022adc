//! What a bridge runs and how (`Options`), its idle time's syntax, and the command
//! line that starts it so: the background bridge's own, and the one a stopped
//! bridge's log offers to start it again with, from the directory it ran in.

use std::{
    ffi::OsString,
    path::{Path, PathBuf},
    time::Duration,
};

use mur_server::UsageLogging;

use crate::child::MAX_MESSAGE_BYTES;

/// How long a bridge waits without a request before it stops, by default.
pub const DEFAULT_IDLE: &str = "10m";

/// The longest idle time a bridge waits: a longer one (`--idle 100y`, what
/// someone writes for "never") is taken as this, a year — in effect never —
/// rather than refused. Bounded so that the bridge started in the background
/// reads its `--idle` back as any duration mur takes.
pub const MAX_IDLE: Duration = Duration::from_secs(365 * 86_400);

/// What a bridge runs, for which project, and when it gives up idling.
#[derive(Debug, Clone)]
pub struct Options {
    pub project: PathBuf,
    pub idle: Duration,
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
        if parse_idle(DEFAULT_IDLE) != Ok(self.idle) {
            argv.extend(["--idle".into(), idle_word(self.idle).into()]);
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
    pub fn again(&self, dir: Option<&Path>) -> String {
        let mur = format!("mur {}", shell_line(&words(&self.command_line())));
        match dir {
            Some(dir) => format!(
                "cd {} && {mur}",
                mur_core::shell_word(&dir.to_string_lossy())
            ),
            None => mur,
        }
    }
}

/// `words` as one line a shell reads back as them.
pub(crate) fn shell_line(words: &[String]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| mur_core::shell_word(w)).collect();
    quoted.join(" ")
}

/// A command's words as text (what is no UTF-8 replaced).
pub(crate) fn words(command: &[OsString]) -> Vec<String> {
    command
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect()
}

/// `--idle DURATION`, in the syntax of every duration mur takes
/// ([`mur_core::parse_duration`]), or `never` ([`MAX_IDLE`]: an agent host's proxy
/// in front of the bridge must not find it gone); never zero, at most [`MAX_IDLE`].
pub fn parse_idle(text: &str) -> Result<Duration, String> {
    if text.trim().eq_ignore_ascii_case("never") {
        return Ok(MAX_IDLE);
    }
    match mur_core::parse_duration(text)? {
        d if d.is_zero() => Err(
            "the idle time must be more than zero (`never` keeps the bridge until `bridge stop`)"
                .to_owned(),
        ),
        d => Ok(d.min(MAX_IDLE)),
    }
}

/// `idle` as `--idle` takes it back: `never`, else in the largest whole unit.
fn idle_word(idle: Duration) -> String {
    let ms = idle.as_millis();
    match ms {
        _ if idle >= MAX_IDLE => "never".to_owned(),
        _ if ms.is_multiple_of(3_600_000) => format!("{}h", ms / 3_600_000),
        _ if ms.is_multiple_of(60_000) => format!("{}m", ms / 60_000),
        _ if ms.is_multiple_of(1_000) => format!("{}s", ms / 1_000),
        _ => format!("{ms}ms"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_times_read_as_people_write_them() {
        assert_eq!(parse_idle("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_idle("1h 30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_idle("500ms"), Ok(Duration::from_millis(500)));
        assert!(parse_idle("0s").is_err_and(|e| e.contains("`never` keeps the bridge")));
        assert_eq!(parse_idle("never"), Ok(MAX_IDLE));
        assert_eq!(parse_idle("Never"), Ok(MAX_IDLE));
        assert!(parse_idle("soon").is_err_and(|e| e.contains("`soon` is not a duration")));
        // "Never", as people write it: a year, which the background bridge reads back.
        assert_eq!(parse_idle("999999999h"), Ok(MAX_IDLE));
        assert_eq!(parse_idle("100y"), Ok(MAX_IDLE));
        assert_eq!(
            parse_idle(&format!("{}ms", MAX_IDLE.as_millis())),
            Ok(MAX_IDLE)
        );
    }

    #[test]
    fn the_command_that_starts_a_bridge_again_goes_where_it_ran_first() {
        let options = Options {
            project: "/p/App.csproj".into(),
            idle: parse_idle(DEFAULT_IDLE).expect("the default"),
            command: vec!["python".into(), "my server.py".into()],
            usage: UsageLogging::Off,
            max_message: MAX_MESSAGE_BYTES,
        };
        let mur = "mur devtools bridge --project /p/App.csproj -- python 'my server.py'";
        assert_eq!(
            options.again(Some(Path::new("/home/u/my tools"))),
            format!("cd '/home/u/my tools' && {mur}")
        );
        assert_eq!(options.again(None), mur);
    }

    #[test]
    fn an_idle_time_but_the_default_is_given_in_its_largest_whole_unit() {
        let line = |idle: Duration| -> Vec<String> {
            let options = Options {
                project: "/p/App.csproj".into(),
                idle,
                command: vec!["npx".into(), "server".into()],
                usage: UsageLogging::Off,
                max_message: MAX_MESSAGE_BYTES,
            };
            options
                .command_line()
                .into_iter()
                .map(|w| w.to_string_lossy().into_owned())
                .collect()
        };
        let start = ["devtools", "bridge", "--project", "/p/App.csproj"];
        let server = ["--", "npx", "server"];
        assert_eq!(
            line(Duration::from_secs(600)),
            [&start[..], &server].concat()
        );
        for (idle, word) in [
            (Duration::from_secs(2), "2s"),
            (Duration::from_millis(1500), "1500ms"),
            (Duration::from_secs(7200), "2h"),
            (MAX_IDLE, "never"),
        ] {
            assert_eq!(
                line(idle),
                [&start[..], &["--idle", word], &server].concat()
            );
            assert_eq!(parse_idle(word), Ok(idle));
        }
    }
}
