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
        no_other_file(&file)?;
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

/// A usage error when the page `html` would overwrite a file that is no page a study
/// wrote: another study's `results.jsonl` or `study.json`, a run's
/// `mur-eval-run.json`, anything beside a `study.json`, or any file of the user's —
/// overwritten, the runs it recorded could not be got back. A study's page (written
/// again as a study writes it), an empty file and what is no regular file (a FIFO, a
/// terminal, refused or written as mur writes a page) are left to the write.
fn no_other_file(html: &Path) -> Result<()> {
    // Opened without waiting: a FIFO by the page's name is the write's to judge.
    let Ok(file) = mur_lockfile::open_regular(std::fs::OpenOptions::new().read(true), html) else {
        return Ok(());
    };
    if file.metadata().is_ok_and(|m| m.len() == 0) || study::is_study_page(&file) {
        return Ok(());
    }
    let name = html
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let beside_a_study = html
        .parent()
        .map(|dir| {
            if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            }
        })
        .is_some_and(|dir| dir.join(study::META).exists());
    let what = if [study::RESULTS, study::META, crate::outdir::FILE].contains(&name.as_str())
        || beside_a_study
    {
        format!("another study's or run's `{name}`")
    } else {
        "a file that is no study's page".to_owned()
    };
    Err(Error::usage(format!(
        "`--html {}` is {what}, which the page would overwrite",
        html.display()
    ))
    .with_hint("name a new file for the page (such as `report.html`), or move this one away first"))
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

    /// Another study's record, a run's, or any file that is no study's page is
    /// refused and left as it was; a study's page, an empty file and a new one are not.
    #[test]
    fn a_page_over_a_file_that_is_no_studys_page_is_refused() {
        let root = tempfile::tempdir().expect("tempdir");
        let other = root.path().join("other");
        std::fs::create_dir(&other).expect("other study");
        let out = root.path().join("study");
        let refused = [
            (
                other.join(study::RESULTS),
                "another study's or run's `results.jsonl`",
            ),
            (
                other.join(study::META),
                "another study's or run's `study.json`",
            ),
            (
                other.join("report.md"),
                "another study's or run's `report.md`",
            ),
            (
                root.path().join(crate::outdir::FILE),
                "another study's or run's `mur-eval-run.json`",
            ),
            (
                root.path().join("notes.txt"),
                "a file that is no study's page",
            ),
        ];
        for (file, _) in &refused {
            std::fs::write(file, "{\"id\":\"x\"}\n").expect("a file");
        }
        for (file, what) in &refused {
            let error = checked(file, &out, Dir::Later).expect_err(what);
            assert_eq!(error.exit_code(), 1);
            assert_eq!(
                error.message(),
                format!(
                    "`--html {}` is {what}, which the page would overwrite",
                    file.display()
                )
            );
            assert_eq!(
                std::fs::read_to_string(file).expect("kept"),
                "{\"id\":\"x\"}\n"
            );
        }
        let page = root.path().join("page.html");
        std::fs::write(
            &page,
            format!(
                "<!DOCTYPE html>\n<html><head><title>{}1 run",
                crate::study::TITLE
            ),
        )
        .expect("page");
        let empty = root.path().join("empty.html");
        std::fs::write(&empty, "").expect("empty");
        for fine in [page, empty, root.path().join("new.html")] {
            checked(&fine, &out, Dir::Later).expect("may be written");
        }
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
