//! The study's journal: `study.json` (what was asked — every command's conditions × tasks
//! × repeats with its agent — and the seed that orders the runs) and
//! `results.jsonl`, one line per finished run, appended as each run ends. A study run
//! again with the same `--out` reads both and skips every run already recorded, so an
//! interrupted study resumes where it stopped; a line cut short by a kill is ignored
//! (that run is made again).

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::Path;

use mur_core::{Error, Result};
use serde::{Deserialize, Serialize};

use super::provenance::Provenance;
use super::result::RunResult;
use crate::adapters::Format;

/// The `schema` of `study.json`.
pub const META_SCHEMA: &str = "mur-eval-study/2";

/// The schema of a `study.json` written before it kept every command's matrix: one
/// matrix, the last command's, at the top level.
const META_SCHEMA_1: &str = "mur-eval-study/1";

/// What a study was asked to do, over every command that ran it: the seed, the union of
/// the conditions and of the tasks, and each command's matrix with its agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    pub schema: String,
    pub seed: u64,
    /// Every condition any command asked for, in the order first asked.
    pub conditions: Vec<String>,
    /// Every task any command asked for, in the order first asked.
    pub tasks: Vec<String>,
    /// The encoding context tokens are counted with.
    pub tokenizer: String,
    /// Each command's conditions × tasks × repeats with its agent, once each, in the
    /// order first run: their union is every run the study was asked for, but for
    /// `earlier_commands_unrecorded`.
    pub matrices: Vec<Matrix>,
    /// The study was begun by an older `mur-eval` (schema 1), which kept only its last
    /// command's matrix: what the commands before it asked for is not known, so a run
    /// outside the matrices may be one of theirs, and whether runs are missing cannot be
    /// told. Kept once the study is written in schema 2; absent when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub earlier_commands_unrecorded: bool,
}

/// One command's conditions × tasks × repeats, and the agent it ran them with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Matrix {
    pub conditions: Vec<String>,
    pub tasks: Vec<String>,
    pub repeats: u32,
    pub agent: String,
    /// `--agent-format`, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_format: Option<Format>,
    /// `--time-limit`, when given (else each task's own, or 120 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_secs: Option<u64>,
    /// How the command ran (its command line, versions, machine, `--jobs`, where its
    /// tasks and conditions came from): absent in a study an older `mur-eval` recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Provenance>,
}

/// `study.json` as either schema wrote it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Recorded {
    schema: String,
    seed: u64,
    #[serde(default)]
    conditions: Vec<String>,
    #[serde(default)]
    tasks: Vec<String>,
    tokenizer: String,
    #[serde(default)]
    matrices: Vec<Matrix>,
    #[serde(default)]
    earlier_commands_unrecorded: bool,
    /// Schema 1: the last command's repeats and agent.
    repeats: Option<u32>,
    agent: Option<String>,
}

impl Meta {
    /// The study recorded at `path` (`study.json`, either schema).
    pub fn read(path: &Path) -> std::result::Result<Meta, String> {
        // Opened without waiting: a FIFO by its name is no study, said at once.
        let text = crate::bounded::text(path, META_CAP)?;
        let recorded: Recorded = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let (matrices, earlier_commands_unrecorded) = match recorded.schema.as_str() {
            META_SCHEMA => (recorded.matrices, recorded.earlier_commands_unrecorded),
            META_SCHEMA_1 => (
                vec![Matrix {
                    conditions: recorded.conditions.clone(),
                    tasks: recorded.tasks.clone(),
                    repeats: recorded.repeats.unwrap_or_default(),
                    agent: recorded.agent.unwrap_or_default(),
                    agent_format: None,
                    time_limit_secs: None,
                    provenance: None,
                }],
                true,
            ),
            other => return Err(format!("unknown schema `{other}`")),
        };
        Ok(Meta {
            schema: META_SCHEMA.to_owned(),
            seed: recorded.seed,
            conditions: recorded.conditions,
            tasks: recorded.tasks,
            tokenizer: recorded.tokenizer,
            matrices,
            earlier_commands_unrecorded,
        })
    }

    /// As [`Meta::load`], written back at once.
    #[cfg(test)]
    pub fn open(out: &Path, asked: Matrix, tokenizer: &str, seed: Option<u64>) -> Result<Meta> {
        let meta = Meta::load(out, asked, tokenizer, seed)?;
        meta.save(out)?;
        Ok(meta)
    }

    /// The study in `out` with the matrix `asked` added: the one recorded there (its
    /// seed kept, unless `seed` names another; `asked` added unless recorded already),
    /// else a new one. Nothing written yet: a study that fails before it can start pins
    /// no seed or matrix ([`Meta::save`] writes it once it can).
    pub fn load(out: &Path, asked: Matrix, tokenizer: &str, seed: Option<u64>) -> Result<Meta> {
        let path = out.join("study.json");
        let mut meta = if path.exists() {
            let recorded = Meta::read(&path).map_err(|why| {
                Error::usage(format!(
                    "`{}` is not a study's record: {why}",
                    path.display()
                ))
            })?;
            if seed.is_some_and(|s| s != recorded.seed) {
                return Err(Error::usage(format!(
                    "`{}` holds a study with seed {}, not {}",
                    out.display(),
                    recorded.seed,
                    seed.unwrap_or_default()
                ))
                .with_hint("resume it without `--seed`, or give another `--out`"));
            }
            recorded
        } else {
            Meta {
                schema: META_SCHEMA.to_owned(),
                seed: seed.unwrap_or_else(fresh_seed),
                conditions: Vec::new(),
                tasks: Vec::new(),
                tokenizer: tokenizer.to_owned(),
                matrices: Vec::new(),
                earlier_commands_unrecorded: false,
            }
        };
        meta.add(asked);
        Ok(meta)
    }

    /// `study.json` in `out`.
    pub fn save(&self, out: &Path) -> Result<()> {
        let path = out.join("study.json");
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::internal(format!("cannot serialize the study: {e}")))?;
        crate::write::record(&path, (text + "\n").as_bytes())
    }

    /// Each condition's agent commands, as the commands that asked for it named them,
    /// each once, in the order first named.
    pub fn agents(&self) -> Vec<(String, Vec<String>)> {
        self.conditions
            .iter()
            .map(|c| {
                let mut agents: Vec<String> = Vec::new();
                for m in self.matrices.iter().filter(|m| m.conditions.contains(c)) {
                    if !agents.contains(&m.agent) {
                        agents.push(m.agent.clone());
                    }
                }
                (c.clone(), agents)
            })
            .collect()
    }

    /// The pages (`--html`) the study's commands named, each once, in the order first
    /// named: what a later command writes anew.
    pub fn pages(&self) -> Vec<std::path::PathBuf> {
        let mut pages = Vec::new();
        for page in self
            .matrices
            .iter()
            .filter_map(|m| m.provenance.as_ref()?.html.clone())
        {
            if !pages.contains(&page) {
                pages.push(page);
            }
        }
        pages
    }

    /// Each command that wrote into the study, as a line to run it again with what it
    /// ran on (`provenance`); a command an older `mur-eval` recorded without it is
    /// rebuilt from its matrix and said so.
    pub fn commands(&self) -> Vec<String> {
        self.matrices
            .iter()
            .map(|m| match &m.provenance {
                Some(p) => format!("`{}`{} ({})", p.command_line(), p.in_dir(), p.sentence()),
                None => {
                    let quoted = shlex::try_quote(&m.agent)
                        .map_or_else(|_| m.agent.clone(), |q| q.into_owned());
                    // What the matrix recorded of how its runs were made is all given
                    // again: without it the line would run another study.
                    let format = m
                        .agent_format
                        .map(|f| format!(" --agent-format {}", f.name()))
                        .unwrap_or_default();
                    let limit = m
                        .time_limit_secs
                        .map(|secs| format!(" --time-limit {secs}"))
                        .unwrap_or_default();
                    format!(
                        "`mur-eval study --conditions {} --tasks {} --repeats {} --seed {}\
                         {format}{limit} --agent {quoted}` (rebuilt from study.json: an older \
                         mur-eval recorded no command line, versions or machine)",
                        m.conditions.join(","),
                        m.tasks.join(","),
                        m.repeats,
                        self.seed
                    )
                }
            })
            .collect()
    }

    /// Whether some command asked for `result`'s run: its condition, task and repeat in
    /// one matrix, and its id theirs. In a study whose earlier commands went unrecorded,
    /// any run is one of theirs.
    pub fn asked_for(&self, result: &RunResult) -> bool {
        let in_a_matrix = |m: &Matrix| {
            m.conditions.contains(&result.condition)
                && m.tasks.contains(&result.task)
                && (1..=m.repeats).contains(&result.repeat)
        };
        result.id == format!("{}/{}/{}", result.condition, result.task, result.repeat)
            && (self.earlier_commands_unrecorded && result.repeat >= 1
                || self.matrices.iter().any(in_a_matrix))
    }

    /// `asked` added to the matrices (unless there already) and its conditions and tasks
    /// to the unions.
    fn add(&mut self, asked: Matrix) {
        for (union, names) in [
            (&mut self.conditions, &asked.conditions),
            (&mut self.tasks, &asked.tasks),
        ] {
            for name in names {
                if !union.contains(name) {
                    union.push(name.clone());
                }
            }
        }
        if !self.matrices.contains(&asked) {
            self.matrices.push(asked);
        }
    }
}

/// A seed from the clock and the process id: different for each new study.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ u64::from(std::process::id()).rotate_left(32)) & SEED_MASK
}

/// A fresh seed keeps below 2^53, which every JSON reader holds exactly: `jq .seed`
/// (a double) printed a larger one rounded, which `--seed` then took as another study's.
const SEED_MASK: u64 = (1 << 53) - 1;

/// What `results.jsonl` holds for a study: one record per run, and what was left out.
pub struct Journal {
    /// One record per run id, the last recorded (a run the harness could not make is
    /// recorded again when a resumed study makes it), in the order first recorded.
    pub results: Vec<RunResult>,
    /// What was left out, one line each, for stderr.
    pub warnings: Vec<String>,
    /// The numbers of the lines that are no run's record (a file written over it, a
    /// line torn by a kill).
    pub unreadable: Vec<usize>,
}

/// The largest `study.json` read: each command adds a matrix of some KB.
const META_CAP: u64 = 16 << 20;

/// The largest `results.jsonl` read: a run's record is some KB.
const RESULTS_CAP: u64 = 256 << 20;

/// Every whole run recorded in `path` (none when it does not exist) that `meta` asked
/// for — a condition, task and repeat of one of its matrices — one per run id, the last.
/// Lines that are not a run's record, records of runs no command asked for and runs
/// recorded more than once (but for a run that could not be made, recorded again once
/// made) are each said in a warning.
pub fn read(path: &Path, meta: &Meta) -> Result<Journal> {
    // Opened without waiting (a FIFO by its name is refused at once), and read up to a
    // cap no study's records come near: a device behind the name never ends.
    let Some(read) = crate::bounded::read_or_none(path, RESULTS_CAP).map_err(Error::usage)? else {
        return Ok(Journal {
            results: Vec::new(),
            warnings: Vec::new(),
            unreadable: Vec::new(),
        });
    };
    let text = String::from_utf8_lossy(&read.bytes);
    let mut results: Vec<RunResult> = Vec::new();
    let mut unreadable = Vec::new();
    let mut outside = Vec::new();
    let mut again = BTreeSet::new();
    let mut index: std::collections::BTreeMap<String, usize> = Default::default();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let Ok(mut result) = serde_json::from_str::<RunResult>(line) else {
            unreadable.push(number + 1);
            continue;
        };
        // Stored relative to the study's directory (absolute by an older `mur-eval`).
        result.transcript = super::result::resolved_in(&result.transcript, study_dir(path));
        if !meta.asked_for(&result) {
            outside.push(result.id);
            continue;
        }
        match index.get(&result.id) {
            Some(&at) => {
                if results[at].error.is_none() {
                    again.insert(result.id.clone());
                }
                results[at] = result;
            }
            None => {
                index.insert(result.id.clone(), results.len());
                results.push(result);
            }
        }
    }
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut warnings = Vec::new();
    if read.cut {
        let cap = mur_core::settings::human_bytes(RESULTS_CAP);
        warnings.push(format!(
            "{name}: larger than {cap}: only the runs recorded in its first {cap} were read"
        ));
    }
    if !unreadable.is_empty() {
        warnings.push(format!(
            "{name}: {} not a run's record, left out (line {})",
            lines_count(unreadable.len()),
            listed(unreadable.iter().map(ToString::to_string))
        ));
    }
    if !outside.is_empty() {
        warnings.push(format!(
            "{name}: {} of runs study.json never asked for (a condition, task or repeat outside its matrices), left out: {}",
            crate::words::plural(outside.len(), "record"),
            listed(outside.into_iter())
        ));
    }
    if !again.is_empty() {
        warnings.push(format!(
            "{name}: {} recorded more than once, the last record of each kept: {}",
            crate::words::plural(again.len(), "run"),
            listed(again.into_iter())
        ));
    }
    Ok(Journal {
        results,
        warnings,
        unreadable,
    })
}

fn lines_count(n: usize) -> String {
    if n == 1 {
        "1 line is".to_owned()
    } else {
        format!("{n} lines are")
    }
}

/// The first few of `items`, comma-separated, `…` after them when there are more.
fn listed(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    let shown = items.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
    if items.len() > 5 {
        format!("{shown}, … ({} in all)", items.len())
    } else {
        shown
    }
}

/// The study's directory: where its `results.jsonl`, `path`, is.
fn study_dir(path: &Path) -> &Path {
    path.parent().unwrap_or(Path::new(""))
}

/// The runs recorded in `path` as made: a run the harness could not make is made again.
pub fn done(path: &Path, meta: &Meta) -> Result<Vec<RunResult>> {
    Ok(read(path, meta)?
        .results
        .into_iter()
        .filter(|r| r.error.is_none())
        .collect())
}

/// Appends `result` as one line, in one write, flushed: a kill leaves at most a partial
/// last line, which [`read`] skips.
/// Its `transcript` is stored relative to the study's directory, `path`'s: no path of
/// the operator's machine in what a study publishes.
pub fn append(path: &Path, result: &RunResult) -> Result<()> {
    let mut stored = result.clone();
    stored.transcript = super::result::stored_in(&result.transcript, study_dir(path));
    let mut line = serde_json::to_string(&stored)
        .map_err(|e| Error::internal(format!("cannot serialize a result: {e}")))?;
    line.push('\n');
    // Opened without waiting: a FIFO put there since the study read it is refused, not
    // waited on for a reader.
    let mut options = std::fs::OpenOptions::new();
    let mut file =
        mur_lockfile::open_regular(options.read(true).create(true).append(true), path)
            .map_err(|e| Error::internal(format!("cannot open `{}`: {e}", path.display())))?;
    // A partial line left by a kill would glue onto this one: start on a line of its own.
    if !ends_with_newline(&mut file) {
        line.insert(0, '\n');
    }
    file.write_all(line.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| Error::internal(format!("cannot write `{}`: {e}", path.display())))
}

/// Whether `file` is empty or ends a line (what cannot be read counts as ending one).
fn ends_with_newline(file: &mut std::fs::File) -> bool {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let mut last = [0u8; 1];
    file.seek(SeekFrom::End(-1))
        .and_then(|_| file.read_exact(&mut last))
        .map_or(true, |()| last[0] == b'\n')
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_fresh_seed_is_exact_as_a_json_number() {
        for _ in 0..100 {
            let seed = fresh_seed();
            assert!(seed < 1 << 53, "{seed}");
            assert_eq!(seed as f64 as u64, seed);
        }
    }

    use super::*;

    fn matrix(conditions: &[&str], tasks: &[&str], repeats: u32, agent: &str) -> Matrix {
        Matrix {
            conditions: conditions.iter().map(|s| (*s).to_owned()).collect(),
            tasks: tasks.iter().map(|s| (*s).to_owned()).collect(),
            repeats,
            agent: agent.to_owned(),
            agent_format: None,
            time_limit_secs: None,
            provenance: None,
        }
    }

    #[test]
    fn every_commands_matrix_is_kept_with_its_agent_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let first = matrix(&["cli-named"], &["a"], 2, "agent one");
        let second = matrix(&["mcp", "cli-named"], &["a", "b"], 1, "agent two");
        Meta::open(dir.path(), first.clone(), "o200k_base", Some(7)).expect("new");
        Meta::open(dir.path(), second.clone(), "o200k_base", None).expect("added");
        // The first command again (resumed): nothing new.
        let meta = Meta::open(dir.path(), first.clone(), "o200k_base", None).expect("same");
        assert_eq!(meta.seed, 7);
        assert_eq!(meta.conditions, ["cli-named", "mcp"]);
        assert_eq!(meta.tasks, ["a", "b"]);
        assert_eq!(meta.matrices, [first, second]);
        assert_eq!(
            Meta::read(&dir.path().join("study.json")).expect("read"),
            meta
        );
    }

    /// The study in `dir` with `asked` added, as a later command adds its matrix.
    fn added(dir: &Path, asked: Matrix) -> Meta {
        Meta::open(dir, asked, "o200k_base", None).expect("added")
    }

    #[test]
    fn each_commands_provenance_is_kept_and_an_older_matrix_is_rebuilt() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut first = matrix(&["mcp"], &["a"], 1, "bash agent.sh {task}");
        first.provenance = Some(Provenance {
            command: ["/x/mur-eval", "study", "--jobs", "2"]
                .map(str::to_owned)
                .to_vec(),
            cwd: Some("/home/me".into()),
            ..Provenance::of_nothing(2)
        });
        let meta = Meta::open(dir.path(), first.clone(), "o200k_base", Some(9)).expect("new");
        let read = Meta::read(&dir.path().join("study.json")).expect("read");
        assert_eq!(read, meta);
        assert_eq!(read.matrices[0].provenance, first.provenance);
        let text = std::fs::read_to_string(dir.path().join("study.json")).expect("text");
        for field in [
            "\"command\"",
            "\"taskDir\"",
            "\"conditionDir\"",
            "\"jobs\": 2",
            "\"cpus\"",
            "\"murEval\"",
            "\"cwd\": \"/home/me\"",
            "\"mur-eval\": \"",
        ] {
            assert!(text.contains(field), "{field}: {text}");
        }
        // A matrix an older mur-eval recorded has no provenance: rebuilt, said so.
        let older = added(dir.path(), matrix(&["mcp"], &["b"], 2, "true"));
        let commands = older.commands();
        assert!(
            commands[0].starts_with("`mur-eval study --jobs 2` in `/home/me` (mur-eval "),
            "{commands:?}"
        );
        assert_eq!(
            commands[1],
            "`mur-eval study --conditions mcp --tasks b --repeats 2 --seed 9 --agent true` \
             (rebuilt from study.json: an older mur-eval recorded no command line, versions \
             or machine)"
        );
        // With the agent's format and the time limit it recorded, as they make its runs.
        let mut timed = matrix(&["mcp"], &["c"], 1, "true");
        timed.agent_format = Some(crate::adapters::Format::StreamJson);
        timed.time_limit_secs = Some(30);
        assert_eq!(
            added(dir.path(), timed).commands()[2],
            "`mur-eval study --conditions mcp --tasks c --repeats 1 --seed 9 --agent-format \
             stream-json --time-limit 30 --agent true` (rebuilt from study.json: an older \
             mur-eval recorded no command line, versions or machine)"
        );
    }

    #[test]
    fn a_study_json_of_schema_1_is_one_matrix() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("study.json");
        let old = r#"{"schema":"mur-eval-study/1","seed":3,"conditions":["mcp"],"tasks":["a"],"repeats":2,"agent":"x","tokenizer":"o200k_base"}"#;
        std::fs::write(&path, old).expect("write");
        let meta = Meta::read(&path).expect("read");
        assert_eq!(meta.schema, META_SCHEMA);
        assert_eq!(meta.matrices, [matrix(&["mcp"], &["a"], 2, "x")]);
        assert!(meta.earlier_commands_unrecorded);
        // An earlier command's runs, which schema 1 kept no matrix of, are the study's:
        // read, not left out as never asked for.
        let results = dir.path().join("results.jsonl");
        let run = |condition: &str, task: &str, repeat: u32| {
            let mut run = unmade_run(repeat);
            run.id = format!("{condition}/{task}/{repeat}");
            (run.condition, run.task) = (condition.to_owned(), task.to_owned());
            run
        };
        for made in [
            run("mcp", "a", 1),
            run("cli-named", "a", 3),
            run("mcp", "z", 1),
        ] {
            append(&results, &made).expect("append");
        }
        let journal = read(&results, &meta).expect("journal");
        assert_eq!(journal.results.len(), 3);
        assert_eq!(journal.warnings, Vec::<String>::new());
        // Still so once a later command writes it in schema 2.
        let added = added(dir.path(), matrix(&["mcp"], &["b"], 1, "y"));
        assert_eq!(added.tasks, ["a", "b"]);
        assert_eq!(added.matrices.len(), 2);
        let text = std::fs::read_to_string(&path).expect("text");
        assert!(
            text.contains("\"earlierCommandsUnrecorded\": true"),
            "{text}"
        );
        assert!(Meta::read(&path).expect("read").earlier_commands_unrecorded);
        // A study this mur-eval began writes no such field.
        let new = tempfile::tempdir().expect("tempdir");
        cli_derived_study(new.path());
        let text = std::fs::read_to_string(new.path().join("study.json")).expect("text");
        assert!(!text.contains("earlierCommandsUnrecorded"), "{text}");
    }

    /// A new study in `dir`: condition `cli-derived` × task `a` × 2 repeats, seed 1.
    fn cli_derived_study(dir: &Path) -> Meta {
        let asked = matrix(&["cli-derived"], &["a"], 2, "agent");
        Meta::open(dir, asked, "o200k_base", Some(1)).expect("new")
    }

    /// The record of repeat `repeat` of [`cli_derived_study`]'s one task, not made.
    fn unmade_run(repeat: u32) -> RunResult {
        RunResult::unmade(
            format!("cli-derived/a/{repeat}"),
            "cli-derived".to_owned(),
            crate::profile::Profile::Cli,
            "a".to_owned(),
            repeat,
            // Absolute, outside any study, as an older `mur-eval` stored it: read as is.
            "/elsewhere/t".into(),
        )
    }

    /// A run's directory is stored relative to the study's directory, and read back
    /// absolute; an older record's absolute one is read as it is.
    #[test]
    fn a_runs_directory_is_stored_relative_to_the_study_and_read_back_whole() {
        let dir = tempfile::tempdir().expect("tempdir");
        let meta = cli_derived_study(dir.path());
        let path = dir.path().join("results.jsonl");
        let made = RunResult {
            transcript: dir.path().join("runs/cli-derived/a/1"),
            ..unmade_run(1)
        };
        append(&path, &made).expect("append");
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(
            text.contains(r#""transcript":"runs/cli-derived/a/1""#),
            "{text}"
        );
        assert!(!text.contains(&*dir.path().to_string_lossy()), "{text}");
        let older = serde_json::to_string(&unmade_run(2)).expect("json");
        assert!(older.contains(r#""transcript":"/elsewhere/t""#), "{older}");
        std::fs::write(&path, text + &older + "\n").expect("write");
        let journal = read(&path, &meta).expect("read");
        assert_eq!(journal.results, [made, unmade_run(2)]);
        assert_eq!(journal.warnings, Vec::<String>::new());
    }

    #[test]
    fn one_record_per_run_of_the_matrices_and_a_warning_for_what_is_left_out() {
        let dir = tempfile::tempdir().expect("tempdir");
        let meta = cli_derived_study(dir.path());
        let run = |repeat: u32, success: bool, error: Option<&str>| RunResult {
            success,
            error: error.map(str::to_owned),
            ..unmade_run(repeat)
        };
        let path = dir.path().join("results.jsonl");
        for result in [
            run(1, false, Some("no session")),
            run(1, true, None),
            run(2, false, None),
            run(2, true, None),
            run(11, true, None),
        ] {
            append(&path, &result).expect("append");
        }
        let mut text = std::fs::read_to_string(&path).expect("read");
        text.push_str("{\"schema\": \"cut sho\n");
        std::fs::write(&path, text).expect("write");
        let journal = read(&path, &meta).expect("read");
        // The run made after it could not be made replaces it, unsaid; the run recorded
        // twice is kept once, its last record, said; repeat 11 was never asked for.
        assert_eq!(journal.results, [run(1, true, None), run(2, true, None)]);
        assert_eq!(
            journal.warnings,
            [
                "results.jsonl: 1 line is not a run's record, left out (line 6)",
                "results.jsonl: 1 record of runs study.json never asked for (a condition, task or \
                 repeat outside its matrices), left out: cli-derived/a/11",
                "results.jsonl: 1 run recorded more than once, the last record of each kept: \
                 cli-derived/a/2",
            ]
        );
        // A run that could not be made is made again on resume.
        std::fs::write(&path, "").expect("empty");
        append(&path, &run(1, false, Some("no session"))).expect("append");
        append(&path, &run(2, false, None)).expect("append");
        assert_eq!(
            done(&path, &meta)
                .expect("done")
                .into_iter()
                .map(|r| r.id)
                .collect::<Vec<_>>(),
            ["cli-derived/a/2"]
        );
    }

    /// `surface` and `agent.format` are read as the names mur-eval has always written
    /// (`cli`, `mcp`, `both`; `stream-json`, `codex-json`): a line naming another, which no
    /// `mur-eval` wrote, is no run's record, left out with the warning a cut line gets.
    #[test]
    fn a_record_of_a_surface_or_agent_format_never_written_is_left_out_and_said() {
        let dir = tempfile::tempdir().expect("tempdir");
        let meta = cli_derived_study(dir.path());
        let run = |repeat: u32| RunResult {
            agent: Some(crate::adapters::AgentReport::new(
                crate::adapters::Format::StreamJson,
            )),
            ..unmade_run(repeat)
        };
        let line = |repeat: u32| serde_json::to_string(&run(repeat)).expect("json");
        let lines = [
            line(1),
            line(2).replace(r#""surface":"cli""#, r#""surface":"web""#),
            line(2).replace(r#""format":"stream-json""#, r#""format":"aider""#),
        ];
        // Each line was edited: the names are as this mur-eval writes them.
        assert!(!lines[1].contains(r#""surface":"cli""#) && !lines[2].contains("stream-json"));
        let path = dir.path().join("results.jsonl");
        std::fs::write(&path, lines.join("\n") + "\n").expect("write");
        let journal = read(&path, &meta).expect("read");
        assert_eq!(journal.results, [run(1)]);
        assert_eq!(
            journal.warnings,
            ["results.jsonl: 2 lines are not a run's record, left out (line 2, 3)"]
        );
    }
}
