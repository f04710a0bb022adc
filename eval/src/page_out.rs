//! Where `--html` sends a study's report page, checked once as the command line is read
//! ([`crate::cli`]): stdout, or a file the page can be written at that is none of the
//! study's record. What writes the page takes the checked [`PageOut`], never the name.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

use mur_core::{Error, Result};
use mur_usage::{PageOnTerminal, PageTarget};

use crate::study;

/// `--html` as named, before the study's directory is known: stdout, or a file not
/// checked yet ([`Named::checked`]).
pub struct Named(Option<PathBuf>);

/// Where the report's page goes, checked: stdout, or a file.
#[derive(Debug)]
pub struct PageOut {
    /// `None`: stdout.
    file: Option<PathBuf>,
}

/// When the page is checked against the study's directory.
#[derive(Clone, Copy, PartialEq)]
pub enum Dir {
    /// The directory holds a study now (`mur-eval report`).
    Made,
    /// The study makes the directory: a page inside it is checked once it is made, by
    /// its write (`mur-eval study`).
    Later,
}

impl Named {
    /// `--html FILE`: `-` or another name for stdout (`/dev/stdout`, the file stdout
    /// goes to) is stdout — the page printed in place of the markdown report, which
    /// `report.md` still holds (written to that name, page and report overwrote each
    /// other). A usage error when stdout is a terminal, as mur says it for `usage report
    /// --html -`.
    pub fn read(html: PathBuf) -> Result<Named> {
        match mur_usage::page_target(html) {
            PageTarget::File(file) => Ok(Named(Some(file))),
            PageTarget::Stdout => {
                PageOnTerminal::refuse_if(std::io::stdout().is_terminal())
                    .map_err(|e| Error::usage(e.to_string()).with_hint(e.hint("report.html")))?;
                Ok(Named(None))
            }
        }
    }

    /// The file named (`None`: stdout).
    pub fn file(&self) -> Option<&Path> {
        self.0.as_deref()
    }

    /// The page checked against the study in `dir`: a file that could not be written is
    /// said now, before any run, in the user's terms (exit 1) — not after the whole
    /// study, in the OS's; one that is the study's record is refused ([`not_the_record`]).
    pub fn checked(self, dir: &Path, made: Dir) -> Result<PageOut> {
        let Some(file) = self.0 else {
            return Ok(PageOut { file: None });
        };
        if made == Dir::Made || !inside(&file, dir) {
            mur_lockfile::check_named(&file)
                .map_err(|e| Error::usage(format!("`--html {}`: {e}", file.display())))?;
        }
        not_the_record(&file, dir)?;
        Ok(PageOut { file: Some(file) })
    }
}

impl PageOut {
    /// The file the page is written to; `None` when it is printed on stdout.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Whether the page is printed on stdout, in place of the markdown report.
    pub fn on_stdout(&self) -> bool {
        self.file.is_none()
    }
}

/// A usage error when the page `html` would overwrite a file the study in `dir` wrote:
/// its record (`results.jsonl`, `study.json`, also through another name for the same
/// file), its reports, or anything under `runs/` (a run's `record.json`, the oracle's
/// verdict) — one slip of tab completion and what a published study rests on was gone.
/// A page of its own beside them (`report.html`) is the study's to hold.
fn not_the_record(html: &Path, dir: &Path) -> Result<()> {
    let refused = |name: &str| {
        Error::usage(format!(
            "`--html {}` is the study's `{name}`, which the page would overwrite",
            html.display()
        ))
        .with_hint("name another file for the page, such as `report.html`")
    };
    for name in [study::RESULTS, study::META] {
        if same_file(html, &dir.join(name)) {
            return Err(refused(name));
        }
    }
    let (page, dir) = (study::resolved(html), study::resolved(dir));
    if let Ok(within) = page.strip_prefix(&dir)
        && let Some(first) = within.components().next()
        && study::OWN.contains(&first.as_os_str().to_string_lossy().as_ref())
    {
        return Err(refused(&within.to_string_lossy()));
    }
    Ok(())
}

/// Whether `a` and `b` name one file: the same file on disk when both exist, else the
/// same path made absolute. (By metadata: std has no file identity, and the `same-file`
/// crate opens both files, which a FIFO named by `--html` would hold.)
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => match (std::path::absolute(a), std::path::absolute(b)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        },
    }
}

/// Whether `path` lies in `dir` (as named, both made absolute).
fn inside(path: &Path, dir: &Path) -> bool {
    match (std::path::absolute(path), std::path::absolute(dir)) {
        (Ok(path), Ok(dir)) => path.starts_with(dir),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(html: &Path, dir: &Path, made: Dir) -> Result<PageOut> {
        Named::read(html.to_owned())?.checked(dir, made)
    }

    /// A page in a directory that does not exist is refused as the command line is
    /// read; one inside a study's directory not made yet is left for the study to make.
    #[test]
    fn a_page_that_cannot_be_written_is_refused_before_anything_runs() {
        let root = tempfile::tempdir().expect("tempdir");
        let out = root.path().join("study");
        let page = out.join("report.html");
        let refused = checked(&page, root.path(), Dir::Made).expect_err("no directory");
        assert_eq!(refused.exit_code(), 1);
        assert_eq!(
            refused.message(),
            format!(
                "`--html {}`: the directory `{}` does not exist",
                page.display(),
                out.display()
            )
        );
        let later = checked(&page, &out, Dir::Later).expect("made with the study");
        assert_eq!(later.file(), Some(page.as_path()));
        assert!(!later.on_stdout());
    }

    #[test]
    fn a_page_over_the_studys_record_is_refused() {
        let out = tempfile::tempdir().expect("tempdir");
        for name in [study::RESULTS, "runs/a/1/record.json"] {
            let refused = checked(&out.path().join(name), out.path(), Dir::Later).expect_err(name);
            assert_eq!(refused.exit_code(), 1);
            assert!(
                refused.message().ends_with(&format!(
                    "is the study's `{name}`, which the page would overwrite"
                )),
                "{}",
                refused.message()
            );
        }
    }
}
