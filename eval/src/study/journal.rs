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
    /// order first run: their union is every run the study was asked for.
    pub matrices: Vec<Matrix>,
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
    /// Schema 1: the last command's repeats and agent.
    repeats: Option<u32>,
    agent: Option<String>,
}

impl Meta {
    /// The study recorded at `path` (`study.json`, either schema).
    pub fn read(path: &Path) -> std::result::Result<Meta, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let recorded: Recorded = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let matrices = match recorded.schema.as_str() {
            META_SCHEMA => recorded.matrices,
            META_SCHEMA_1 => vec![Matrix {
                conditions: recorded.conditions.clone(),
                tasks: recorded.tasks.clone(),
                repeats: recorded.repeats.unwrap_or_default(),
                agent: recorded.agent.unwrap_or_default(),
                agent_format: None,
            }],
            other => return Err(format!("unknown schema `{other}`")),
        };
        Ok(Meta {
            schema: META_SCHEMA.to_owned(),
            seed: recorded.seed,
            conditions: recorded.conditions,
            tasks: recorded.tasks,
            tokenizer: recorded.tokenizer,
            matrices,
        })
    }

    /// The study in `out` with the matrix `asked` added: the one recorded there (its
    /// seed kept, unless `seed` names another; `asked` added unless recorded already),
    /// else a new one. Written back at once.
    pub fn open(out: &Path, asked: Matrix, tokenizer: &str, seed: Option<u64>) -> Result<Meta> {
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
            }
        };
        meta.add(asked);
        let text = serde_json::to_string_pretty(&meta)
            .map_err(|e| Error::internal(format!("cannot serialize the study: {e}")))?;
        std::fs::write(&path, text + "\n")
            .map_err(|e| Error::internal(format!("cannot write `{}`: {e}", path.display())))?;
        Ok(meta)
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
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// Every whole run recorded in `path` (none when it does not exist).
pub fn read(path: &Path) -> Result<Vec<RunResult>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(Error::usage(format!(
                "cannot read `{}`: {e}",
                path.display()
            )));
        }
    };
    Ok(text
        .lines()
        .filter_map(|line| serde_json::from_str::<RunResult>(line).ok())
        .collect())
}

/// The ids of the runs recorded in `path`.
pub fn done(path: &Path) -> Result<BTreeSet<String>> {
    Ok(read(path)?.into_iter().map(|r| r.id).collect())
}

/// Appends `result` as one line, in one write, flushed: a kill leaves at most a partial
/// last line, which [`read`] skips.
pub fn append(path: &Path, result: &RunResult) -> Result<()> {
    let mut line = serde_json::to_string(result)
        .map_err(|e| Error::internal(format!("cannot serialize a result: {e}")))?;
    line.push('\n');
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::internal(format!("cannot open `{}`: {e}", path.display())))?;
    // A partial line left by a kill would glue onto this one: start on a line of its own.
    let len = file.metadata().map_or(0, |m| m.len());
    if len > 0 && !ends_with_newline(path) {
        line.insert(0, '\n');
    }
    file.write_all(line.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| Error::internal(format!("cannot write `{}`: {e}", path.display())))
}

fn ends_with_newline(path: &Path) -> bool {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let Ok(mut file) = std::fs::File::open(path) else {
        return true;
    };
    let mut last = [0u8; 1];
    file.seek(SeekFrom::End(-1))
        .and_then(|_| file.read_exact(&mut last))
        .map_or(true, |()| last[0] == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(conditions: &[&str], tasks: &[&str], repeats: u32, agent: &str) -> Matrix {
        Matrix {
            conditions: conditions.iter().map(|s| (*s).to_owned()).collect(),
            tasks: tasks.iter().map(|s| (*s).to_owned()).collect(),
            repeats,
            agent: agent.to_owned(),
            agent_format: None,
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

    #[test]
    fn a_study_json_of_schema_1_is_one_matrix() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("study.json");
        let old = r#"{"schema":"mur-eval-study/1","seed":3,"conditions":["mcp"],"tasks":["a"],"repeats":2,"agent":"x","tokenizer":"o200k_base"}"#;
        std::fs::write(&path, old).expect("write");
        let meta = Meta::read(&path).expect("read");
        assert_eq!(meta.schema, META_SCHEMA);
        assert_eq!(meta.matrices, [matrix(&["mcp"], &["a"], 2, "x")]);
        let added = Meta::open(
            dir.path(),
            matrix(&["mcp"], &["b"], 1, "y"),
            "o200k_base",
            None,
        )
        .expect("added");
        assert_eq!(added.tasks, ["a", "b"]);
        assert_eq!(added.matrices.len(), 2);
    }
}
