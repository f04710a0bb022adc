//! The files of a study's output directory: the results file's name, and each file
//! written whole.

use std::path::Path;

use mur_core::{Error, Result};

/// The results file of a study's output directory.
pub const RESULTS: &str = "results.jsonl";

/// Writes `text` to `path`; an internal error naming the file when it cannot.
pub fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text)
        .map_err(|e| Error::internal(format!("cannot write `{}`: {e}", path.display())))
}
