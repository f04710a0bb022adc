//! A study's report read back from its directory alone (`mur-eval report DIR`); its files
//! written anew there, and the README's baseline table written from it between its
//! marker lines, each when asked.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use mur_core::{Error, Result};

use super::files::RESULTS;
use super::journal::{self, Journal, Meta};
use super::paths::resolved;
use super::publish::{TITLE, title, write_reports};
use super::report;
use super::result::RunResult;
use crate::write::page as write_page;

/// A study's report from what it recorded: read back from its directory alone
/// (`mur-eval report DIR`), or at the study's end from what it just read.
pub struct Reread {
    title: String,
    results: Vec<RunResult>,
    /// The study's conditions, in its order, and their agent commands (`study.json`).
    conditions: Vec<String>,
    agents: Vec<(String, Vec<String>)>,
    /// The study's commands as `study.json` records them.
    commands: Vec<String>,
    /// The pages its commands named with `--html`.
    pages: Vec<std::path::PathBuf>,
    /// Every run its commands asked for: the report says those not recorded.
    asked: Vec<journal::Matrix>,
    /// Only the last command's matrix is known of the earlier ones (`study.json` of
    /// schema 1): whether runs are missing cannot be told.
    asked_in_part: bool,
    seed: u64,
    /// What reading `results.jsonl` left out, for stderr.
    pub warnings: Vec<String>,
}

/// Whether `file` begins as [`report::page`] writes a study's page.
pub fn is_study_page(file: &std::fs::File) -> bool {
    let mut head = Vec::new();
    let _ = file.take(512).read_to_end(&mut head);
    String::from_utf8_lossy(&head).contains(&format!("<title>{TITLE}"))
}

/// The lines around the generated table in a README.
const BEGIN: &str = "<!-- study-baseline -->";
const END: &str = "<!-- /study-baseline -->";

impl Reread {
    /// The report of the study in `dir`, read from what it recorded; nothing is written.
    pub fn from(dir: &Path) -> Result<Self> {
        let meta_path = dir.join("study.json");
        // Said plainly: a directory that is no study is the common mistake, not a broken
        // record.
        if std::fs::symlink_metadata(&meta_path)
            .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
        {
            let why = if dir.exists() {
                "it holds no `study.json`"
            } else {
                "it does not exist"
            };
            return Err(
                Error::usage(format!("no study in `{}`: {why}", dir.display()))
                    .with_hint("name the directory a `mur-eval study` wrote (its `--out`)"),
            );
        }
        let meta = Meta::read(&meta_path).map_err(|why| {
            Error::usage(format!("`{}` is not a study: {why}", meta_path.display()))
        })?;
        let recorded = journal::read(&dir.join(RESULTS), &meta)?;
        if recorded.results.is_empty()
            && let Some(first) = recorded.unreadable.first()
        {
            // Not "no run yet": what is there is no record at all (a page or another
            // file written over it), and running the study again would not read it.
            let lines = &recorded.unreadable;
            let which = if lines.len() == 1 {
                format!("its line {first} is no run's record")
            } else {
                format!(
                    "none of its {} lines is a run's record (line {first} is the first)",
                    lines.len()
                )
            };
            return Err(Error::usage(format!(
                "`{}` holds no run's record: {which}",
                dir.join(RESULTS).display()
            ))
            .with_hint(
                "a study writes one JSON record a line: put back a copy of the file, or move \
                 it away and run the study's command again with the same `--out` to make the \
                 runs anew",
            ));
        }
        if recorded.results.is_empty() {
            // A study stopped (Ctrl-C, a kill) before its first run ended recorded none.
            return Err(Error::usage(format!(
                "`{}` records no run yet",
                dir.join(RESULTS).display()
            ))
            .with_hint(
                "a study records each run as it ends: run its command again with the same \
                 `--out` to make them (study.json's commands name it)",
            ));
        }
        Ok(Self::of(meta, recorded))
    }

    /// The report of the study `meta` records, over the runs `recorded` read from its
    /// `results.jsonl`.
    pub fn of(meta: Meta, recorded: Journal) -> Self {
        Self {
            title: title(recorded.results.len(), meta.seed),
            results: recorded.results,
            agents: meta.agents(),
            commands: meta.commands(),
            pages: meta.pages(),
            asked: meta.matrices,
            asked_in_part: meta.earlier_commands_unrecorded,
            conditions: meta.conditions,
            seed: meta.seed,
            warnings: recorded.warnings,
        }
    }

    /// How many runs it reports.
    pub fn runs(&self) -> usize {
        self.results.len()
    }

    /// The report's rows over the study's results (borrowed, not copied): made once,
    /// for every form of the report below.
    pub fn rows(&self) -> report::Rows<'_> {
        let mut rows = report::rows(&self.results, &self.conditions);
        rows.agents = self.agents.clone();
        rows.commands = self.commands.clone();
        rows.asked = &self.asked;
        rows.asked_in_part = self.asked_in_part;
        rows
    }

    /// `report.md`, `report.csv` and `transcripts.md` written in `dir` anew, as the
    /// study's end writes them: a study stopped before its end, or one whose runs were
    /// read by an older `mur-eval`, gets them from what it recorded. Returns `report.md`.
    pub fn write_reports(&self, rows: &report::Rows<'_>, dir: &Path) -> Result<String> {
        write_reports(dir, rows, self.seed)
    }

    /// The runs the harness could not make: the report leaves them out of every figure,
    /// so it is not the study asked for until they are made.
    pub fn errors(&self) -> usize {
        self.results.iter().filter(|r| r.error.is_some()).count()
    }

    pub fn page(&self, rows: &report::Rows<'_>) -> String {
        report::page(rows, &self.title)
    }

    /// The pages earlier commands of the study wrote in its directory `out` (`--html`,
    /// recorded in `study.json` relative to it) but the one this command writes (`now`),
    /// written anew: a resume or an extension without `--html` would leave them showing
    /// fewer runs than `report.md`, silently. A page still there is written only if it
    /// is still a study's page (a file that took its name is left alone); one removed is
    /// not made again. A page outside `out` is only named: another study may have
    /// written it since (two studies' `--html` of one file), and a copy of the directory
    /// names the original's. Returns a line to say per page, for stderr.
    pub fn write_earlier_pages(
        &self,
        rows: &report::Rows<'_>,
        now: Option<&Path>,
        out: &Path,
    ) -> Vec<String> {
        let now = now.map(resolved);
        let within = resolved(out);
        let mut said = Vec::new();
        for recorded in &self.pages {
            // An absolute page is one outside `out` (or, recorded by an older mur-eval,
            // inside it: still this directory's).
            let page = out.join(recorded);
            let whole = resolved(&page);
            if Some(&whole) == now.as_ref() {
                continue;
            }
            let earlier = format!(
                "`{}`, the page an earlier command of this study wrote (`--html`)",
                page.display()
            );
            // Opened without waiting: a FIFO by the page's name is not waited on.
            match mur_lockfile::open_regular(std::fs::OpenOptions::new().read(true), &page) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                _ if !whole.starts_with(&within) => said.push(format!(
                    "warning: {earlier}, lies outside its `--out`, and another study may have \
                     written it since: left as it is; pass `--html {}` to write it anew",
                    page.display()
                )),
                Ok(file) if !is_study_page(&file) => said.push(format!(
                    "warning: {earlier}, is no longer a study's page: left as it is"
                )),
                _ => said.push(match write_page(&page, &self.page(rows)) {
                    Ok(()) => format!("study: {earlier}, written anew"),
                    Err(e) => {
                        format!("warning: {e}: {earlier} shows fewer runs than report.md")
                    }
                }),
            }
        }
        said
    }

    /// Replaces what stands between the marker lines of `readme` by the per-condition
    /// table: the README's baseline is never typed by hand.
    pub fn write_readme(&self, rows: &report::Rows<'_>, readme: &Readme, dir: &Path) -> Result<()> {
        // The study's own command and what it ran on, not only the report's: the
        // table's times say nothing without the build and the machine.
        let made = report::made_line(rows).map_or_else(String::new, |l| format!("{l} "));
        let block = format!(
            "{BEGIN}\n{}\nGenerated by `mur-eval report {} --readme {}` from the {} of a \
             study (seed {}). {made}{}{END}",
            report::condition_table(rows),
            dir.display(),
            readme.path.display(),
            crate::words::plural(self.results.len(), "run"),
            self.seed,
            report::legend()
        );
        let text = &readme.text;
        let updated = format!(
            "{}{block}{}",
            &text[..readme.begin],
            &text[readme.end + END.len()..]
        );
        write_page(&readme.path, &updated)
    }
}

/// A README `--readme` names, read before anything is written, with where its marker
/// lines are.
pub struct Readme {
    path: PathBuf,
    text: String,
    begin: usize,
    end: usize,
}

/// The largest README read: a README is some KB; a bigger file is none.
const README_CAP: u64 = 16 << 20;

impl Readme {
    /// The README at `path` and its marker lines; a usage error when it has none, or is
    /// no regular file: opened without waiting, so that a FIFO is refused at once (its
    /// read waited for a writer for ever), as a device is, whose bytes never end.
    pub fn read(path: &Path) -> Result<Self> {
        // Refused in the words of every file mur-eval reads (`… is not a regular file`).
        let text = crate::bounded::text(path, README_CAP).map_err(|why| {
            Error::usage(why).with_hint(
                "`--readme` names a file holding `<!-- study-baseline -->` and \
                 `<!-- /study-baseline -->` lines, read to put the table between them",
            )
        })?;
        let (Some(begin), Some(end)) = (text.find(BEGIN), text.find(END)) else {
            return Err(Error::usage(format!(
                "`{}` has no `{BEGIN}` … `{END}` lines to put the table between",
                path.display()
            )));
        };
        if end < begin {
            return Err(Error::usage(format!(
                "`{}`: `{END}` comes before `{BEGIN}`",
                path.display()
            )));
        }
        Ok(Self {
            path: path.to_owned(),
            text,
            begin,
            end,
        })
    }
}
