//! How a study's command was run, recorded in `study.json` beside its matrix so that a
//! published study can be made again and its figures read for what they are: the
//! command line, the programs and their versions (a debug build's times are not a
//! release build's) and the sha256 of each (every build of one version prints the same
//! version), the directory it ran in (what its relative paths are relative to), the
//! machine (wall times on 2 loaded cores are not on 16), `--jobs`, the files the tasks and
//! conditions were read from, and the names passed to the agent.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::words::listed;

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
    /// The sha256 of each program the command ran, by name (`mur-eval`, `mur`,
    /// `mur-sample` and, for cli conditions, `mur-eval-capture`), or `unknown (why)`:
    /// their versions tell no two builds apart. Empty in records of an older `mur-eval`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sha256: BTreeMap<String, String>,
    /// The directory the command ran in, which its relative paths (`--out`, `--verbs`,
    /// `--html`) are relative to (absent in records of an older `mur-eval`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<PathBuf>,
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
    /// `mur-eval-capture`, when a cli condition runs it.
    pub capture: Option<&'a Path>,
    pub task_dir: &'a Path,
    pub condition_dir: &'a Path,
    pub verbs: Option<&'a Path>,
    pub pass_env: &'a [String],
    pub jobs: usize,
    pub html: Option<&'a Path>,
    /// The study's `--out`, which `html` is recorded relative to when it lies there.
    pub out: &'a Path,
}

#[cfg(test)]
impl Given<'_> {
    /// A command of no programs that can run, for tests.
    fn of_nothing() -> Self {
        Given {
            mur: Path::new("/nonexistent/mur"),
            sample: Path::new("/nonexistent/mur-sample"),
            capture: None,
            task_dir: Path::new("/t"),
            condition_dir: Path::new("/c"),
            verbs: None,
            pass_env: &[],
            jobs: 1,
            html: None,
            out: Path::new("/o"),
        }
    }
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
            sha256: programs_sha256(given),
            cwd: std::env::current_dir().ok(),
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
            jobs,
            ..Given::of_nothing()
        })
    }

    /// The command line as a shell would take it again, for a reader: the program by its
    /// name (the path it was run by is this machine's).
    pub fn command_line(&self) -> String {
        let program = self
            .command
            .first()
            .and_then(|p| Path::new(p).file_name())
            .map_or_else(
                || "mur-eval".to_owned(),
                |n| n.to_string_lossy().into_owned(),
            );
        self.with_program(program)
    }

    /// The command line to paste, here or in another directory, to run the same program
    /// again: by the path it was run by (`target/debug/mur-eval`), made absolute if it was
    /// relative; by its name alone, as the shell found it on `PATH`, when it was run so.
    /// Its name alone would run another `mur-eval` on `PATH`, or none.
    pub fn command_to_run_again(&self) -> String {
        let program = match self.command.first() {
            None => "mur-eval".to_owned(),
            Some(name) if !name.contains('/') => name.clone(),
            Some(path) => match &self.cwd {
                Some(cwd) => std::path::absolute(cwd.join(path)),
                None => std::path::absolute(path),
            }
            .map_or_else(|_| path.clone(), |p| p.to_string_lossy().into_owned()),
        };
        self.with_program(quoted(&program))
    }

    /// `program`, then the command's words after its first, each quoted as a shell needs.
    fn with_program(&self, program: String) -> String {
        std::iter::once(program)
            .chain(self.command.iter().skip(1).map(|w| quoted(w)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Where the command ran, as the report says it after the command line: `` in
    /// `DIR` `` (empty for a command an older `mur-eval` recorded without it).
    pub fn in_dir(&self) -> String {
        self.cwd
            .as_ref()
            .map(|dir| format!(" in `{}`", dir.display()))
            .unwrap_or_default()
    }

    /// One sentence of what ran where: versions, build, the programs' sha256 (their first
    /// 12 digits), machine, jobs.
    pub fn sentence(&self) -> String {
        let version = |v: &Option<String>, name: &str| match v {
            Some(v) if !v.starts_with("unknown (") => v.clone(),
            Some(why) => format!("{name} version {why}"),
            None => format!("{name} (version unknown)"),
        };
        let sha256: Vec<String> = PROGRAMS
            .iter()
            .filter_map(|name| {
                // Why a sum is unknown is study.json's to say: the versions say it too.
                let sum = self.sha256.get(*name)?;
                let short = if sum.starts_with("unknown (") {
                    "unknown"
                } else {
                    sum.get(..12).unwrap_or(sum)
                };
                Some(format!("{name} {short}"))
            })
            .collect();
        let sha256 = listed("; sha256 ", &sha256, ", ", "");
        format!(
            "mur-eval {} ({} build), {}, {}{sha256}; {} {}, {}; --jobs {}",
            self.mur_eval,
            self.build,
            version(&self.mur_version, "mur"),
            version(&self.sample_version, "mur-sample"),
            self.os,
            self.arch,
            crate::words::plural(self.cpus, "CPU"),
            self.jobs
        )
    }
}

/// The programs whose sha256 a command records, in the order the report names them.
const PROGRAMS: [&str; 4] = ["mur-eval", "mur", "mur-sample", "mur-eval-capture"];

/// The sha256 of each program the command runs, by name: mur-eval itself, `mur`,
/// `mur-sample` and (cli conditions) `mur-eval-capture`. Read side by side: a debug
/// build's are tens of megabytes each.
fn programs_sha256(given: &Given<'_>) -> BTreeMap<String, String> {
    let me = std::env::current_exe();
    let programs: Vec<(&str, std::result::Result<&Path, String>)> = vec![
        (
            PROGRAMS[0],
            me.as_deref().map_err(|e| format!("cannot find it: {e}")),
        ),
        (PROGRAMS[1], Ok(given.mur)),
        (PROGRAMS[2], Ok(given.sample)),
    ]
    .into_iter()
    .chain(given.capture.map(|capture| (PROGRAMS[3], Ok(capture))))
    .collect();
    std::thread::scope(|scope| {
        let reading: Vec<_> = programs
            .into_iter()
            .map(|(name, path)| (name, scope.spawn(move || sha256_of(path?))))
            .collect();
        reading
            .into_iter()
            .map(|(name, thread)| {
                let sum = thread
                    .join()
                    .unwrap_or_else(|_| Err("its reader failed".to_owned()))
                    .unwrap_or_else(|why| format!("unknown ({why})"));
                (name.to_owned(), sum)
            })
            .collect()
    })
}

/// The sha256 of the file at `path`, hex; why not (a FIFO is refused, not waited on).
fn sha256_of(path: &Path) -> std::result::Result<String, String> {
    crate::compiled::sha256_file(path)
        .map(|sum| mur_core::hex(&sum))
        .map_err(|e| format!("cannot read it: {e}"))
}

/// `word` as a shell reads it back (as typed when it cannot be: a NUL in it).
pub fn quoted(word: &str) -> String {
    shlex::try_quote(word).map_or_else(|_| word.to_owned(), Into::into)
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

    /// A stopped study's resume line runs the program that was run: pasted in another
    /// directory too, and not another `mur-eval` on `PATH`.
    #[test]
    fn the_command_to_run_again_runs_the_program_by_the_path_it_was_run_by() {
        let run_by = |program: &str| {
            Provenance {
                command: [program, "study", "--agent", "bash a.sh {task}"]
                    .map(str::to_owned)
                    .to_vec(),
                cwd: Some(PathBuf::from("/home/me/mur")),
                ..Provenance::of_nothing(1)
            }
            .command_to_run_again()
        };
        let absolute = "/home/me/mur/target/debug/mur-eval study --agent 'bash a.sh {task}'";
        assert_eq!(run_by("target/debug/mur-eval"), absolute);
        assert_eq!(run_by("./target/debug/mur-eval"), absolute);
        assert_eq!(
            run_by("../bin/mur-eval"),
            "/home/me/mur/../bin/mur-eval study --agent 'bash a.sh {task}'"
        );
        assert_eq!(
            run_by("/opt/my tools/mur-eval"),
            "'/opt/my tools/mur-eval' study --agent 'bash a.sh {task}'"
        );
        // Found on PATH: the same PATH finds it again.
        assert_eq!(
            run_by("mur-eval"),
            "mur-eval study --agent 'bash a.sh {task}'"
        );
    }

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

    /// Every program the command runs is recorded by its sha256 (one it cannot read as
    /// `unknown (why)`), and said in the report's sentence by its first 12 digits, after
    /// the directory it ran in.
    #[test]
    fn each_program_run_is_recorded_by_its_sha256_and_the_directory_it_ran_in() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mur = dir.path().join("mur");
        std::fs::write(&mur, "abc").expect("write");
        let provenance = Provenance::now(&Given {
            mur: &mur,
            sample: Path::new("/nonexistent/mur-sample"),
            capture: Some(&mur),
            ..Given::of_nothing()
        });
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        let sums = &provenance.sha256;
        assert_eq!(
            (sums["mur"].as_str(), sums["mur-eval-capture"].as_str()),
            (abc, abc)
        );
        assert_eq!(
            sums["mur-sample"],
            "unknown (cannot read it: No such file or directory (os error 2))"
        );
        let me = &sums["mur-eval"];
        assert!(
            me.len() == 64 && me.bytes().all(|b| b.is_ascii_hexdigit()),
            "{me}"
        );
        assert!(
            provenance.sentence().contains(&format!(
                "mur-sample version unknown (not run: No such file or directory (os error 2)); \
                 sha256 mur-eval {}, mur ba7816bf8f01, mur-sample unknown, mur-eval-capture \
                 ba7816bf8f01; ",
                &me[..12]
            )),
            "{}",
            provenance.sentence()
        );
        let here = std::env::current_dir().expect("a directory");
        assert_eq!(provenance.cwd.as_deref(), Some(here.as_path()));
        assert_eq!(provenance.in_dir(), format!(" in `{}`", here.display()));
        // Recorded by an older mur-eval: neither is said.
        let older = Provenance {
            sha256: BTreeMap::new(),
            cwd: None,
            ..provenance
        };
        assert!(!older.sentence().contains("sha256"), "{}", older.sentence());
        assert_eq!(older.in_dir(), "");
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
