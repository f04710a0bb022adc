//! How a study's command was run, recorded in `study.json` beside its matrix so that a
//! published study can be made again and its figures read for what they are: the
//! command line, the programs and their versions (a debug build's times are not a
//! release build's), the machine (wall times on 2 loaded cores are not on 16), `--jobs`,
//! the files the tasks and conditions were read from, and the names passed to the agent.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// How one command of a study ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Provenance {
    /// The command line, each word as given (`mur-eval study --agent …`).
    pub command: Vec<String>,
    /// `mur-eval`'s version, and whether it was a debug or a release build.
    pub mur_eval: String,
    pub build: String,
    /// What `mur --version` and `mur-sample --version` printed, or `unknown (why)` (`null`
    /// in records of an older `mur-eval` when they printed nothing).
    pub mur_version: Option<String>,
    pub sample_version: Option<String>,
    /// The programs run, as found.
    pub mur: PathBuf,
    pub sample: PathBuf,
    /// The directories the tasks, the conditions and the standard verbs were read from.
    pub task_dir: PathBuf,
    pub condition_dir: PathBuf,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verbs: Option<PathBuf>,
    /// The names `--pass-env` passed on (never their values).
    #[serde(default)]
    pub pass_env: Vec<String>,
    pub jobs: usize,
    /// The page `--html` named: relative to the study's `--out` when it lies there (a
    /// later command into the study, a resume or an extension, without `--html` writes it
    /// anew, so that it does not go on showing fewer runs than `report.md`; a copy of the
    /// directory writes its own), else absolute (never written anew: another study may
    /// have written it since).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<PathBuf>,
    /// `std::env::consts::OS` and `ARCH`, and the CPUs the process may use.
    pub os: String,
    pub arch: String,
    pub cpus: usize,
}

/// What the command being run can say of itself, besides its programs and directories.
pub struct Given<'a> {
    pub mur: &'a Path,
    pub sample: &'a Path,
    pub task_dir: &'a Path,
    pub condition_dir: &'a Path,
    pub verbs: Option<&'a Path>,
    pub pass_env: &'a [String],
    pub jobs: usize,
    pub html: Option<&'a Path>,
    /// The study's `--out`, which `html` is recorded relative to when it lies there.
    pub out: &'a Path,
}

impl Provenance {
    /// The running command's provenance.
    pub fn now(given: &Given<'_>) -> Self {
        let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_owned());
        Provenance {
            command: std::env::args_os()
                .map(|word| word.to_string_lossy().into_owned())
                .collect(),
            mur_eval: env!("CARGO_PKG_VERSION").to_owned(),
            build: if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            }
            .to_owned(),
            mur_version: Some(version_of(given.mur, VERSION_WAIT)),
            sample_version: Some(version_of(given.sample, VERSION_WAIT)),
            mur: absolute(given.mur),
            sample: absolute(given.sample),
            task_dir: absolute(given.task_dir),
            condition_dir: absolute(given.condition_dir),
            verbs: given.verbs.map(absolute),
            pass_env: given.pass_env.to_vec(),
            jobs: given.jobs,
            html: given
                .html
                .map(|page| super::paths::page_in(page, given.out)),
            os: std::env::consts::OS.to_owned(),
            arch: std::env::consts::ARCH.to_owned(),
            cpus: std::thread::available_parallelism().map_or(0, usize::from),
        }
    }

    /// A command of no programs that can run, for tests.
    #[cfg(test)]
    pub fn of_nothing(jobs: usize) -> Self {
        Provenance::now(&Given {
            mur: Path::new("/nonexistent/mur"),
            sample: Path::new("/nonexistent/mur-sample"),
            task_dir: Path::new("/t"),
            condition_dir: Path::new("/c"),
            verbs: None,
            pass_env: &[],
            jobs,
            html: None,
            out: Path::new("/o"),
        })
    }

    /// The command line as a shell would take it again.
    pub fn command_line(&self) -> String {
        let mut words = self.command.iter();
        // The program as its name: the path it was run by is this machine's.
        let program = words
            .next()
            .and_then(|p| Path::new(p).file_name())
            .map_or_else(
                || "mur-eval".to_owned(),
                |n| n.to_string_lossy().into_owned(),
            );
        std::iter::once(program)
            .chain(words.map(|w| shlex::try_quote(w).map_or_else(|_| w.clone(), Into::into)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// One sentence of what ran where: versions, build, machine, jobs.
    pub fn sentence(&self) -> String {
        let version = |v: &Option<String>, name: &str| match v {
            Some(v) if !v.starts_with("unknown (") => v.clone(),
            Some(why) => format!("{name} version {why}"),
            None => format!("{name} (version unknown)"),
        };
        format!(
            "mur-eval {} ({} build), {}, {}; {} {}, {}; --jobs {}",
            self.mur_eval,
            self.build,
            version(&self.mur_version, "mur"),
            version(&self.sample_version, "mur-sample"),
            self.os,
            self.arch,
            super::report::plural(self.cpus, "CPU"),
            self.jobs
        )
    }
}

/// How long `--version` may take: mur and mur-sample print and exit at once, so a
/// program still running after this is no such program (a wrapper that ignores the
/// flag and starts serving), killed rather than waited on before any run is made.
const VERSION_WAIT: Duration = Duration::from_secs(5);

/// The most of what `--version` prints that is read.
const VERSION_BYTES: u64 = 4096;

/// The first line `program --version` printed, or `unknown (why)`: the program could not
/// be run, printed nothing, or did not exit within `wait` (then it is killed). At most
/// [`VERSION_BYTES`] of its stdout are read.
fn version_of(program: &Path, wait: Duration) -> String {
    let unknown = |why: String| format!("unknown ({why})");
    let mut child = match Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => return unknown(format!("not run: {e}")),
    };
    let (sent, read) = mpsc::channel();
    if let Some(stdout) = child.stdout.take() {
        // Read apart: a program that keeps its stdout open must not hold the study.
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = stdout.take(VERSION_BYTES).read_to_end(&mut bytes);
            let _ = sent.send(bytes);
        });
    }
    let start = Instant::now();
    let exited = loop {
        match child.try_wait() {
            Ok(Some(_)) => break true,
            Ok(None) if start.elapsed() < wait => std::thread::sleep(Duration::from_millis(10)),
            _ => break false,
        }
    };
    if !exited {
        let _ = child.kill();
        let _ = child.wait();
    }
    // Whatever it printed before it exited or was killed; a child of its own still
    // holding the pipe is not waited on for long.
    let bytes = read
        .recv_timeout(Duration::from_secs(1))
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let line = text.lines().next().map(str::trim).unwrap_or_default();
    match (line.is_empty(), exited) {
        (false, _) => line.chars().take(200).collect(),
        (true, true) => unknown("`--version` printed nothing".to_owned()),
        (true, false) => unknown(format!("`--version` did not exit within {wait:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_given_again_quoted_by_the_programs_name() {
        let provenance = Provenance {
            command: [
                "/home/me/target/debug/mur-eval",
                "study",
                "--agent",
                "bash a.sh {task}",
            ]
            .map(str::to_owned)
            .to_vec(),
            ..Provenance::of_nothing(2)
        };
        assert_eq!(
            provenance.command_line(),
            "mur-eval study --agent 'bash a.sh {task}'"
        );
        // A program that cannot be run has no version, said so.
        let unknown = "unknown (not run: No such file or directory (os error 2))";
        assert_eq!(provenance.mur_version.as_deref(), Some(unknown));
        assert!(
            provenance.sentence().contains(&format!(
                "mur version {unknown}, mur-sample version {unknown};"
            )),
            "{}",
            provenance.sentence()
        );
        // Recorded by an older mur-eval, which wrote null.
        let older = Provenance {
            mur_version: None,
            ..provenance.clone()
        };
        assert!(older.sentence().contains("mur (version unknown), "));
        assert!(provenance.sentence().ends_with("; --jobs 2"));
    }

    /// A `--mur` that ignores `--version` and runs on (a wrapper that starts serving),
    /// or prints without end, holds the study no longer than the wait: it is killed, and
    /// no more than 4 KiB of it read.
    #[test]
    fn a_version_that_never_ends_is_killed_and_said_unknown() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let script = |name: &str, body: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write");
            let mode = std::os::unix::fs::PermissionsExt::from_mode(0o755);
            std::fs::set_permissions(&path, mode).expect("chmod");
            path
        };
        let wait = Duration::from_millis(300);
        for (name, body, wait, version) in [
            (
                "serving",
                "exec sleep 600",
                wait,
                "unknown (`--version` did not exit within 300ms)",
            ),
            ("endless", "exec yes 'mur 9'", wait, "mur 9"),
            (
                "silent",
                "exit 0",
                wait,
                "unknown (`--version` printed nothing)",
            ),
            ("one", "echo 'mur 1.2'", VERSION_WAIT, "mur 1.2"),
        ] {
            assert_eq!(version_of(&script(name, body), wait), version, "{name}");
        }
    }
}
