//! How a study's command was run, recorded in `study.json` beside its matrix so that a
//! published study can be made again and its figures read for what they are: the
//! command line, the programs and their versions (a debug build's times are not a
//! release build's), the machine (wall times on 2 loaded cores are not on 16), `--jobs`,
//! the files the tasks and conditions were read from, and the names passed to the agent.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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
    /// What `mur --version` and `mur-sample --version` printed (`null` when they
    /// printed nothing).
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
            mur_version: version_of(given.mur),
            sample_version: version_of(given.sample),
            mur: absolute(given.mur),
            sample: absolute(given.sample),
            task_dir: absolute(given.task_dir),
            condition_dir: absolute(given.condition_dir),
            verbs: given.verbs.map(absolute),
            pass_env: given.pass_env.to_vec(),
            jobs: given.jobs,
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
        let version = |v: &Option<String>, name: &str| {
            v.clone()
                .unwrap_or_else(|| format!("{name} (version unknown)"))
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

/// The first line `program --version` printed, when it printed one (a few bytes, never
/// waited on for more: `--version` of mur and mur-sample prints and exits).
fn version_of(program: &Path) -> Option<String> {
    let output = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .next()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(|line| line.chars().take(200).collect())
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
        assert_eq!(provenance.mur_version, None);
        assert!(
            provenance
                .sentence()
                .contains("mur (version unknown), mur-sample (version unknown);"),
            "{}",
            provenance.sentence()
        );
        assert!(provenance.sentence().ends_with("; --jobs 2"));
    }
}
