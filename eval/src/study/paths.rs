//! Paths as a study's record names them: resolved as far as they exist, and a page
//! relative to the study's directory when it lies there.

use std::path::{Path, PathBuf};

/// `path` absolute, resolved (links, `..`) as far as it exists, so that
/// `study/runs/../report.md` is known for the study's `report.md`, and a page in a
/// `--out` not made yet is known to lie in it.
pub fn resolved(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    // The deepest part that exists, resolved, and the rest as named.
    for existing in absolute.ancestors() {
        if let Ok(whole) = std::fs::canonicalize(existing) {
            let rest = absolute.strip_prefix(existing).unwrap_or(Path::new(""));
            return if rest.as_os_str().is_empty() {
                whole
            } else {
                whole.join(rest)
            };
        }
    }
    absolute
}

/// `page` as a study's record names it: relative to the study's directory `out` when it
/// lies there, so that a copy of the directory names its own page; else absolute.
pub fn page_in(page: &Path, out: &Path) -> PathBuf {
    let page = resolved(page);
    match page.strip_prefix(resolved(out)) {
        Ok(within) if !within.as_os_str().is_empty() => within.to_owned(),
        _ => page,
    }
}
