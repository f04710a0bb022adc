//! The files of one kind in a directory (tasks, conditions, verbs), sorted; a directory
//! without any is a usage error.

use std::path::{Path, PathBuf};

use mur_core::{Error, Result};

/// The files in `dir` whose extension is one of `extensions`, sorted. The errors name
/// the directory by `what` ("task") and the files by `kind` ("tasks (`*.toml`)").
pub fn files(dir: &Path, what: &str, kind: &str, extensions: &[&str]) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Error::usage(format!(
            "cannot read the {what} directory `{}`: {e}",
            dir.display()
        ))
    })?;
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| extensions.iter().any(|wanted| ext == *wanted))
        })
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(Error::usage(format!("no {kind} in `{}`", dir.display())));
    }
    Ok(paths)
}
