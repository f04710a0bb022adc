//! The study's journal: `study.json` (what was asked, the seed that orders the runs) and
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

/// The `schema` of `study.json`.
pub const META_SCHEMA: &str = "mur-eval-study/1";

/// What a study was asked to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    pub schema: String,
    pub seed: u64,
    pub conditions: Vec<String>,
    pub tasks: Vec<String>,
    pub repeats: u32,
    pub agent: String,
    /// The encoding context tokens are counted with.
    pub tokenizer: String,
}

impl Meta {
    /// The study in `out`: the one recorded there (its seed kept, unless `seed` names
    /// another), else a new one.
    pub fn open(out: &Path, mut wanted: Meta, seed: Option<u64>) -> Result<Meta> {
        let path = out.join("study.json");
        if let Ok(text) = std::fs::read_to_string(&path) {
            let recorded: Meta = serde_json::from_str(&text).map_err(|e| {
                Error::usage(format!("`{}` is not a study's record: {e}", path.display()))
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
            wanted.seed = recorded.seed;
        } else {
            wanted.seed = seed.unwrap_or_else(fresh_seed);
        }
        let text = serde_json::to_string_pretty(&wanted)
            .map_err(|e| Error::internal(format!("cannot serialize the study: {e}")))?;
        std::fs::write(&path, text + "\n")
            .map_err(|e| Error::internal(format!("cannot write `{}`: {e}", path.display())))?;
        Ok(wanted)
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
