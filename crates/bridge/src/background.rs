//! `bridge` without `--foreground`: the bridge is `mur` itself, started
//! again (`--foreground`) in a process group of its own with its stdin
//! closed and its output in the log, so it outlives the command and the
//! terminal; the command returns once the bridge's lockfile is written, or
//! with the bridge's own error (and exit code) if it stops first. Ctrl+C
//! while it waits stops the bridge (and so its server), then returns
//! [`Start::Interrupted`] for the command to end as interrupted: nothing comes up
//! later, detached.

use std::{
    ffi::OsString,
    os::raw::c_int,
    path::Path,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use mur_core::{Error, Kind, Result};
use mur_lockfile::{Lockfile, ReadOutcome, Registry};
use mur_server::endpoint::Claimed;

use crate::{
    child::{INITIALIZE_LIMIT, UNANSWERED_NOTE},
    files::BridgeFiles,
    options::Options,
    signals::Interrupts,
    slot::{SLOW_START, Waiting, claim, serve_error},
};

/// How often the lockfile is looked for.
const POLL: Duration = Duration::from_millis(20);
/// Beyond the server's own `initialize` bound: the bridge's start and claim.
const START_SLACK: Duration = Duration::from_secs(10);
/// How long a bridge gets to stop (its server first: up to 2 s for its input
/// to end, 2 s after SIGTERM) before it is killed.
const END_LIMIT: Duration = Duration::from_secs(10);
/// A bridge that has announced itself.
#[derive(Debug)]
pub struct Started {
    pub lockfile: Lockfile,
    /// Where its lockfile is (the session line is read from it).
    pub path: std::path::PathBuf,
}

/// How [`start`] ended, when it did not fail.
#[derive(Debug)]
pub enum Start {
    /// The bridge announced itself.
    Announced(Started),
    /// Ctrl+C, SIGTERM or SIGHUP (this signal) came while it waited: the bridge (and so
    /// its server) was stopped and reaped. The command is to end as the signal would
    /// have ended it, at once ([`mur_procs::end_by_signal`]): its caller (a shell, a
    /// script's loop) sees a command interrupted, as before the command caught it.
    Interrupted(c_int),
}

/// Starts `exe` (this `mur`) as a detached bridge for `options` and waits
/// for its lockfile. The project's slot is claimed here first, as the bridge
/// would claim it (a session there, live or starting, is refused with the line
/// the bridge itself would print), and handed to the bridge: only then is its
/// log opened, so a bridge refused writes nothing into the log of the one
/// already there (`waiting` told if that takes long: [`Waiting::SlotHeld`]).
/// `waiting` is told once, with the bridge's log, when the
/// bridge has not announced itself after [`SLOW_START`], and after that once more
/// when the bridge notes that its server wrote what is not JSON-RPC ([`Waiting`]).
/// A signal while it waits stops the bridge: [`Start::Interrupted`].
pub async fn start(
    exe: &Path,
    options: &Options,
    mut waiting: impl FnMut(Waiting<'_>),
) -> Result<Start> {
    let claimed = claim(&options.project, mur_lockfile::now_rfc3339(), &mut waiting)
        .await
        .map_err(|e| serve_error(e, &options.project))?;
    let path = claimed.lockfile_path().to_owned();
    let registry = Registry::default_location();
    let log = BridgeFiles::beside(&path).log;
    // What the log already holds (the last bridge's lines, kept): not this
    // bridge's word on why it stopped.
    let before = std::fs::metadata(&log).map_or(0, |m| m.len());
    // Before the bridge exists: Ctrl+C from now on stops it rather than
    // leaving it to come up detached, out of the terminal's reach.
    let interrupts = Interrupts::install()
        .map_err(|e| Error::internal(format!("cannot install signal handlers: {e}")))?;
    let mut child = spawn(exe, options, &log, &claimed)?;
    // The bridge holds the slot now (or, not started, no one does).
    drop(claimed);
    let began = Instant::now();
    let deadline = began + INITIALIZE_LIMIT + START_SLACK;
    let mut slow = false;
    // Where the log is read from for the bridge's note, until it is found.
    let mut note_from = Some(before);
    loop {
        if let Some(signal) = interrupts.arrived() {
            end(&mut child).await;
            return Ok(Start::Interrupted(signal));
        }
        if let ReadOutcome::Valid(lock) = registry.read(&path)
            && lock.pid == child.id()
        {
            return Ok(Start::Announced(Started {
                lockfile: lock,
                path,
            }));
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(failed(status.code(), &log, before));
        }
        if !slow && began.elapsed() >= SLOW_START {
            slow = true;
            waiting(Waiting::Slow(&log));
        }
        if slow
            && let Some(from) = note_from.as_mut()
            && let Some(note) = note_in(&log, from)
        {
            note_from = None;
            waiting(Waiting::NotJsonRpc(&note));
        }
        if Instant::now() >= deadline {
            end(&mut child).await;
            return Err(Error::transport(format!(
                "the bridge did not announce itself within {} s; stopped it",
                (INITIALIZE_LIMIT + START_SLACK).as_secs()
            ))
            .with_hint(format!("its log is `{}`", log.display())));
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Stops the bridge `child` as `bridge stop` does — SIGTERM, so that it stops
/// its server (a group of its own, which a SIGKILL of the bridge would leave
/// running) — and reaps it; SIGKILL only if it has not exited within
/// [`END_LIMIT`].
async fn end(child: &mut Child) {
    if let Ok(None) = child.try_wait() {
        let pid = rustix::process::Pid::from_child(child);
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
        let until = Instant::now() + END_LIMIT;
        while matches!(child.try_wait(), Ok(None)) && Instant::now() < until {
            tokio::time::sleep(POLL).await;
        }
    }
    if let Ok(None) = child.try_wait() {
        let _ = child.kill();
    }
    let _ = child.wait();
}

/// `mur devtools bridge --project P --idle D [--usage…] --foreground -- COMMAND…` in a
/// process group of its own (Ctrl+C in the terminal does not reach it), handed the
/// slot `claimed` and writing its stderr to the log (appended to: the last bridge's
/// lines are kept above this one's). Not its stdout: that is the session line a
/// foreground bridge prints, which this command prints itself. In the log it was a
/// bare line of JSON among the bridge's lines and the server's stderr, as if the server
/// had written it (one of its JSON-RPC messages astray).
fn spawn(exe: &Path, options: &Options, log: &Path, claimed: &Claimed) -> Result<Child> {
    let mut open = std::fs::OpenOptions::new();
    open.append(true).create(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut open, 0o600);
    let err = open
        .open(log)
        .map_err(|e| Error::internal(format!("cannot open the log `{}`: {e}", log.display())))?;
    let mut command = Command::new(exe);
    command
        .args(argv(options))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    #[cfg(unix)]
    claimed.hand_to(&mut command);
    command
        .spawn()
        .map_err(|e| Error::internal(format!("cannot start `{}`: {e}", exe.display())))
}

/// The bridge stopped before announcing itself: its own last word (its last
/// `error:` line and the `hint:` lines after it, in what it wrote to the log
/// past its first `before` bytes — the last bridge's lines are kept above), with
/// its exit code.
fn failed(code: Option<i32>, log: &Path, before: u64) -> Error {
    let text = written_since(log, before);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().rposition(|l| l.starts_with("error: "));
    let last = at.map(|at| lines[at]);
    let hints: Vec<&str> = at
        .map(|at| &lines[at + 1..])
        .unwrap_or_default()
        .iter()
        .map_while(|l| l.strip_prefix("hint: "))
        .collect();
    // The background bridge is `mur` too: its exit code names the kind, except a
    // signal's or a panic's, which are mur's own failure.
    let kind = code
        .and_then(Kind::from_exit_code)
        .unwrap_or(Kind::Internal);
    let message = match (kind, last) {
        (_, Some(line)) => line.trim_start_matches("error: ").to_owned(),
        (_, None) => format!(
            "the bridge exited (code {}) before it announced itself",
            code.map_or_else(|| "none".to_owned(), |c| c.to_string())
        ),
    };
    // Its hints too (how to stop the session there, what the server wrote on
    // its way out); the log named once, whoever names it.
    let named = hints
        .iter()
        .any(|hint| hint.contains(&log.display().to_string()));
    let error = hints
        .into_iter()
        .fold(Error::new(kind, message), |e, hint| e.with_hint(hint));
    if kind == Kind::SessionActive || named {
        error
    } else {
        error.with_hint(format!("its log is `{}`", log.display()))
    }
}

/// The bridge's note that its server has not answered and wrote what is not JSON-RPC
/// (`child::UNANSWERED_NOTE` on), if the lines of `log` past its first `from` bytes
/// have it; `from` moves past the whole lines read, so each poll reads only what is new
/// (a server's stderr at its start may be much). A log shorter than `from` (its oldest
/// part dropped to keep it bounded) is read from its start.
fn note_in(log: &Path, from: &mut u64) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(log).ok()?;
    if file.metadata().ok()?.len() < *from {
        *from = 0;
    }
    file.seek(SeekFrom::Start(*from)).ok()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    let whole = bytes.iter().rposition(|&b| b == b'\n')? + 1;
    *from += whole as u64;
    let text = String::from_utf8_lossy(&bytes[..whole]);
    // The bridge's own line, not one of the server's stderr that quotes it.
    text.lines()
        .filter(|line| !crate::log::of_the_server(line))
        .find_map(|line| line.find(UNANSWERED_NOTE).map(|at| line[at..].to_owned()))
}

/// The text of `log` past its first `before` bytes: what was written since. All
/// of it if it is shorter now (its oldest part dropped to keep it bounded).
fn written_since(log: &Path, before: u64) -> String {
    let bytes = std::fs::read(log).unwrap_or_default();
    let from = usize::try_from(before)
        .ok()
        .filter(|&from| from <= bytes.len())
        .unwrap_or(0);
    String::from_utf8_lossy(&bytes[from..]).into_owned()
}

/// The bridge's own command line (after `mur`): [`Options::command_line`], in the foreground.
fn argv(options: &Options) -> Vec<OsString> {
    let mut argv = options.command_line();
    argv.insert(2, "--foreground".into());
    argv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::child::MAX_MESSAGE_BYTES;
    use mur_server::UsageLogging;

    #[test]
    fn the_last_error_line_of_the_log_is_the_bridges_word() {
        let dir = tempfile::tempdir().expect("tempdir");
        let log = dir.path().join("x.bridge.log");
        std::fs::write(
            &log,
            "INFO starting\nerror: another session for this project is active at http://127.0.0.1:9/mcp (pid 7)\n\
             hint: stop it first with `mur devtools bridge stop --project /p/App.csproj`\n",
        )
        .expect("log");
        let e = failed(Some(3), &log, 0);
        assert_eq!(e.exit_code(), 3);
        assert_eq!(
            (e.message(), e.hints()),
            (
                "another session for this project is active at http://127.0.0.1:9/mcp (pid 7)",
                &[
                    "stop it first with `mur devtools bridge stop --project /p/App.csproj`"
                        .to_owned()
                ][..]
            )
        );
        std::fs::write(&log, "error: cannot start `nope`: No such file\n").expect("log");
        let e = failed(Some(1), &log, 0);
        assert_eq!(
            (e.exit_code(), e.message()),
            (1, "cannot start `nope`: No such file")
        );
        // The last bridge's word, kept above, is not this one's: it died saying nothing.
        let before = std::fs::metadata(&log).expect("log").len();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&log)
            .and_then(|mut f| std::io::Write::write_all(&mut f, b"INFO starting\n"))
            .expect("append");
        let e = failed(None, &log, before);
        assert_eq!(
            (e.exit_code(), e.message()),
            (
                7,
                "the bridge exited (code none) before it announced itself"
            )
        );
    }

    /// Set in the environment of this test binary run again ([`interrupted_start`]): the
    /// directory of its files.
    const INTERRUPTED_IN: &str = "MUR_BRIDGE_TEST_INTERRUPTED_IN";

    /// Run by [`a_signal_while_a_bridge_starts_stops_it_and_is_returned`] only, in a
    /// process of its own (passes at once otherwise): a "bridge" that never announces
    /// itself (`bridge.sh`) is started, SIGINT comes, and `start` returns it, the bridge
    /// stopped by SIGTERM and reaped. It used to end the process there.
    #[test]
    fn interrupted_start() {
        use signal_hook::consts::SIGINT;
        let Some(dir) = std::env::var_os(INTERRUPTED_IN).map(std::path::PathBuf::from) else {
            return;
        };
        let options = Options {
            project: dir.join("App.csproj"),
            idle: crate::parse_idle("10m").expect("an idle time"),
            command: vec!["server".into()],
            usage: UsageLogging::Off,
            max_message: MAX_MESSAGE_BYTES,
        };
        let started = dir.join("started");
        std::thread::spawn(move || {
            while !started.exists() {
                std::thread::sleep(POLL);
            }
            let _ = rustix::process::kill_process(
                rustix::process::getpid(),
                rustix::process::Signal::INT,
            );
        });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let start = runtime.block_on(start(&dir.join("bridge.sh"), &options, |_| {}));
        assert!(matches!(start, Ok(Start::Interrupted(SIGINT))), "{start:?}");
        // Stopped as `bridge stop` stops a bridge, and waited for.
        assert_eq!(
            std::fs::read_to_string(dir.join("stopped")).expect("stopped"),
            "SIGTERM\n"
        );
    }

    /// A signal while a bridge starts is `start`'s to return, once the bridge is stopped:
    /// the command (`mur`) ends by it, and `start` can be seen doing its part in a test.
    #[test]
    fn a_signal_while_a_bridge_starts_stops_it_and_is_returned() {
        let dir = tempfile::tempdir().expect("a directory");
        let root = dir.path();
        std::fs::write(root.join("App.csproj"), "").expect("project");
        let run = root.join("run");
        std::fs::create_dir(&run).expect("run");
        let script = root.join("bridge.sh");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\n\
                 trap 'echo SIGTERM > \"{root}/stopped\"; exit 0' TERM\n\
                 : > \"{root}/started\"\n\
                 while :; do sleep 0.05; done\n",
                root = root.display()
            ),
        )
        .expect("script");
        let mode = |mode| std::os::unix::fs::PermissionsExt::from_mode(mode);
        std::fs::set_permissions(&script, mode(0o755)).expect("executable");
        // A login's runtime directory is the user's alone.
        std::fs::set_permissions(&run, mode(0o700)).expect("private");
        let output = std::process::Command::new(std::env::current_exe().expect("the tests"))
            .args([
                "--exact",
                "background::tests::interrupted_start",
                "--test-threads=1",
            ])
            .env(INTERRUPTED_IN, root)
            .env("XDG_RUNTIME_DIR", &run)
            .output()
            .expect("the tests run");
        let said = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && said.contains("1 passed"),
            "{}\n{said}{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(root.join("stopped").is_file(), "the bridge was not stopped");
    }

    #[test]
    fn the_bridge_runs_in_the_foreground_with_the_same_options() {
        let with_limit = |usage: UsageLogging, max_message: u64| -> Vec<String> {
            let options = Options {
                project: "/p/App.csproj".into(),
                idle: crate::parse_idle("10m").expect("an idle time"),
                command: vec!["npx".into(), "server".into()],
                usage,
                max_message,
            };
            argv(&options)
                .into_iter()
                .map(|w| w.to_string_lossy().into_owned())
                .collect()
        };
        let with = |usage| with_limit(usage, MAX_MESSAGE_BYTES);
        let start = [
            "devtools",
            "bridge",
            "--foreground",
            "--project",
            "/p/App.csproj",
        ];
        let server = ["--", "npx", "server"];
        assert_eq!(with(UsageLogging::Off), [&start[..], &server].concat());
        assert_eq!(
            with(UsageLogging::BesideLockfile),
            [&start[..], &["--usage"], &server].concat()
        );
        assert_eq!(
            with(UsageLogging::At("/u/served.jsonl".into())),
            [&start[..], &["--usage-log", "/u/served.jsonl"], &server].concat()
        );
        assert_eq!(
            with_limit(UsageLogging::Off, 256 << 20),
            [&start[..], &["--max-message", "268435456"], &server].concat()
        );
    }
}
