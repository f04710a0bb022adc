//! The output directory mur-eval names when no `--out` is given
//! (`mur-eval-out/<name>-<UTC time>` in the current directory): made as it is named, so
//! that a command begun in the same second as another gets one of its own, never the
//! other's; and removed again, with the `mur-eval-out` made for it, when the command
//! ends leaving it empty — whichever refusal ended it, with no refusal having to
//! remember to.

use std::path::{Path, PathBuf};

use mur_core::{Error, Result};

/// The directory a command not given `--out` made as it named it; removed as it is
/// dropped while it is empty (nothing is lost), and then `mur-eval-out` too when this
/// command made it and it is empty. A command that wrote there (its lock, its record)
/// leaves it as it is.
#[derive(Debug)]
pub struct DefaultOut {
    dir: PathBuf,
    /// `mur-eval-out`, when this command made it.
    parent: Option<PathBuf>,
}

/// `given` (`--out`), else a [`DefaultOut`] made now for `name` (the profile, or
/// `study`), with its path; the guard is to be held for as long as the command runs.
pub fn given_or_made(given: Option<PathBuf>, name: &str) -> Result<(PathBuf, Option<DefaultOut>)> {
    match given {
        Some(out) => Ok((out, None)),
        None => {
            let made = DefaultOut::make(name)?;
            Ok((made.dir.clone(), Some(made)))
        }
    }
}

impl DefaultOut {
    /// `mur-eval-out/<name>-<UTC time>` in the current directory, made here.
    fn make(name: &str) -> Result<Self> {
        let format =
            time::macros::format_description!("[year][month][day]T[hour][minute][second]Z");
        let stamp = time::OffsetDateTime::now_utc()
            .format(&format)
            .unwrap_or_else(|_| "now".to_owned());
        fresh_dir(Path::new("mur-eval-out"), &format!("{name}-{stamp}"))
    }
}

impl Drop for DefaultOut {
    fn drop(&mut self) {
        // `remove_dir` removes only an empty directory: what a command wrote stays.
        if std::fs::remove_dir(&self.dir).is_ok()
            && let Some(parent) = &self.parent
        {
            let _ = std::fs::remove_dir(parent);
        }
    }
}

/// `parent/base`, else `parent/base-2`, `base-3`…: the first that did not exist, made.
fn fresh_dir(parent: &Path, base: &str) -> Result<DefaultOut> {
    let made_parent = !parent.exists();
    crate::tree::create_dir(parent)?;
    for n in 1..=MAX_SAME_SECOND {
        let dir = match n {
            1 => parent.join(base),
            n => parent.join(format!("{base}-{n}")),
        };
        match std::fs::create_dir(&dir) {
            Ok(()) => {
                return Ok(DefaultOut {
                    dir,
                    parent: made_parent.then(|| parent.to_owned()),
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(Error::internal(format!(
                    "cannot create `{}`: {e}",
                    dir.display()
                )));
            }
        }
    }
    Err(Error::usage(format!(
        "{MAX_SAME_SECOND} output directories named `{base}` already exist in `{}`",
        parent.display()
    ))
    .with_hint("name one with `--out DIR`"))
}

/// How many default output directories one second holds.
const MAX_SAME_SECOND: u32 = 1000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_begun_in_the_same_second_get_directories_of_their_own() {
        let parent = tempfile::tempdir().expect("tempdir");
        let first = fresh_dir(parent.path(), "cli-20261128T175500Z").expect("first");
        let second = fresh_dir(parent.path(), "cli-20261128T175500Z").expect("second");
        assert_eq!(first.dir, parent.path().join("cli-20261128T175500Z"));
        assert_eq!(second.dir, parent.path().join("cli-20261128T175500Z-2"));
        assert!(first.dir.is_dir() && second.dir.is_dir());
    }

    /// Dropped while empty, the directory goes, and the parent made for it once it is
    /// empty too; one a command wrote in stays, as does a parent that was there before.
    #[test]
    fn an_empty_default_out_goes_with_the_parent_made_for_it() {
        let root = tempfile::tempdir().expect("tempdir");
        let parent = root.path().join("mur-eval-out");
        let (first, second) = (
            fresh_dir(&parent, "study-x").expect("first"),
            fresh_dir(&parent, "study-x").expect("second"),
        );
        assert!(first.parent.is_some() && second.parent.is_none());
        let written = second.dir.clone();
        std::fs::write(written.join("study.lock"), "").expect("lock");
        drop(first);
        drop(second);
        assert!(!parent.join("study-x").exists(), "the empty one goes");
        assert!(written.join("study.lock").exists(), "a written one stays");
        std::fs::remove_file(written.join("study.lock")).expect("unlock");
        drop(fresh_dir(&parent, "study-y").expect("made in the parent there"));
        assert!(written.is_dir() && parent.is_dir(), "the parent was there");
        std::fs::remove_dir(&written).expect("empty");
        drop(fresh_dir(&parent, "study-z").expect("again"));
        assert!(parent.is_dir(), "not this command's to remove");
        let made = fresh_dir(&root.path().join("fresh"), "run").expect("with its parent");
        drop(made);
        assert!(
            !root.path().join("fresh").exists(),
            "made for it, and empty"
        );
    }
}
