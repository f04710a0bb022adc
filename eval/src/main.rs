//! `mur-eval`: the agent evaluation suite. `mur-eval run --profile cli|mcp|both --agent
//! 'COMMAND'` runs an agent on every task (eval/tasks/*.toml) against a fresh
//! `mur-sample`, with only its profile's surfaces in reach, checks the app's state
//! afterwards, counts the agent's calls from the session's own usage log, and reports
//! completion, calls per task and wall time, keeping each transcript (docs/eval.md).
//!
//! `mur-eval study` runs conditions (eval/conditions/*.toml) × tasks × repeats, resumable,
//! and measures each run's calls (and the surface of its first), context bytes and
//! tokens; it reports success per condition, task and task category, and writes what each
//! agent did for people to read (`trace.md`, `transcripts.md`); `mur-eval report` prints
//! a study's report from its results.jsonl and writes its files anew.
//!
//! Exit codes: 0 every task completed (a study: every run made and recorded); 1 usage (bad flags, a bad task file, an unknown
//! task); 2 not every task was completed; 7 the harness itself failed (for a task, whose
//! record then says why, or for the whole run; a study, and the report of one: some run
//! could not be made); 130, 143 or 129 stopped by SIGINT, SIGTERM or SIGHUP (`stop`).

mod adapters;
mod agent;
mod bounded;
mod checker;
mod cli;
mod compiled;
mod condition;
mod counterbalance;
mod group;
mod images;
mod listing;
mod oracle;
mod orphans;
mod outdir;
mod output;
mod profile;
mod programs;
mod record;
mod run;
mod session;
mod stop;
mod study;
mod task;
mod tokens;
mod toml_file;
mod trace;
mod tree;
mod usage;
mod words;
mod write;

use std::process::ExitCode;

use clap::Parser as _;
use mur_core::text::escape_controls;
use mur_core::{Error, Result};
use serde_json::json;

use cli::{Cli, Command};

/// Exit code of a run in which some task was not completed.
const NOT_COMPLETED: u8 = 2;
/// Exit code of a run in which the harness could not run some task (its record says why).
const HARNESS_FAILED: u8 = 7;

fn main() -> ExitCode {
    stop::on_signals();
    // Before any child is started: what an agent leaves behind stays mur-eval's to kill.
    let _ = mur_procs::become_subreaper();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return ExitCode::from(output::clap(&error)),
    };
    match execute(cli) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            output::report(&error);
            ExitCode::from(error.exit_code())
        }
    }
}

fn execute(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Run(args) => {
            stop::says(stop::RUNS_STOPPED);
            output::warn(&args.runner.unset_pass_env());
            let json = args.json;
            let plan = args.plan()?;
            let report = run::run(&plan, &mut |line| output::line(&escape_controls(line)))?;
            if json {
                output::print(&pretty(&report)?)?;
            } else {
                output::print(&record::render(&report))?;
            }
            Ok(if report.summary.errors > 0 {
                HARNESS_FAILED
            } else if report.all_completed() {
                0
            } else {
                NOT_COMPLETED
            })
        }
        Command::Study(mut args) => {
            stop::says(stop::RUNS_STOPPED);
            output::warn(&args.runner.unset_pass_env());
            // A page on stdout is printed, not recorded as one to write again.
            let on_stdout = page_on_stdout(args.html.as_deref())?;
            if on_stdout {
                args.html = None;
            }
            let html = args.html.clone();
            let args_against = args.against.clone();
            let study = args.study()?;
            // Named before any run: a condition the command does not run is refused now.
            if let Some(named) = &args_against
                && !study.conditions.iter().any(|c| &c.name == named)
            {
                return Err(mur_core::Error::usage(format!(
                    "`--against {named}`: not a condition of this study (`--conditions`)"
                )));
            }
            // A page inside the study's directory is written once the study made it.
            check_html(html.as_deref().filter(|page| !inside(page, &study.out)))?;
            if let Some(html) = &html {
                not_the_record(html, &study.out)?;
            }
            let outcome = study::run(&study, &|line| output::line(&escape_controls(line)))?;
            // The rows made once, for the study's files and the page alike.
            let report = &outcome.report;
            let mut rows = report.rows();
            rows.against = args_against;
            rows.check_against()?;
            let markdown = report.write_reports(&rows, &outcome.out)?;
            if let Some(path) = &html {
                write::page(path, &report.page(&rows))?;
            }
            for line in report.write_earlier_pages(&rows, html.as_deref(), &outcome.out) {
                output::line(&escape_controls(&line));
            }
            output::line(&format!(
                "study: {} made now, {} recorded in all: {}",
                crate::words::plural(outcome.ran, "run"),
                report.runs(),
                escape_controls(&outcome.out.join(study::RESULTS).display().to_string())
            ));
            made("study", report, &rows, markdown, on_stdout)
        }
        Command::Conditions(args) => {
            let mut text = String::new();
            for c in condition::load_dir(&cli::condition_dir(args.condition_dir)?)? {
                let verbs = c.verbs.as_ref().map_or("-".to_owned(), |v| v.describe());
                text.push_str(&format!(
                    "{:14} {:4} {:10} {}\n",
                    c.name,
                    c.surface.name(),
                    verbs,
                    c.description
                ));
            }
            output::print(&text)?;
            Ok(0)
        }
        Command::Report(args) => {
            stop::says(stop::REPORT_STOPPED);
            let on_stdout = page_on_stdout(args.html.as_deref())?;
            let html = args.html.as_deref().filter(|_| !on_stdout);
            check_html(html)?;
            if let Some(html) = html {
                not_the_record(html, &args.dir)?;
            }
            // Read first: a README that cannot take the table is said before anything
            // is written, and a FIFO is refused at once, never waited on.
            let readme = args
                .readme
                .as_deref()
                .map(study::Readme::read)
                .transpose()?;
            let report = study::Reread::from(&args.dir)?;
            let mut rows = report.rows();
            rows.against = args.against.clone();
            rows.check_against()?;
            output::warn(&report.warnings);
            let markdown = report.write_reports(&rows, &args.dir)?;
            if let Some(path) = html {
                write::page(path, &report.page(&rows))?;
            }
            if let Some(readme) = &readme {
                report.write_readme(&rows, readme, &args.dir)?;
            }
            made("report", &report, &rows, markdown, on_stdout)
        }
        Command::Tasks(args) => {
            let tasks = task::load_dir(&cli::task_dir(args.task_dir)?)?;
            let mut text = String::new();
            for task in &tasks {
                if args.json {
                    let line = json!({ "id": task.id, "title": task.title, "categories": task.categories, "checks": task.checks.len() });
                    text.push_str(&format!("{line}\n"));
                } else {
                    text.push_str(&format!(
                        "{:22} {:28} {}\n",
                        task.id,
                        task.categories.join(","),
                        task.title
                    ));
                }
            }
            output::print(&text)?;
            Ok(0)
        }
    }
}

/// Whether `--html` names stdout (`-`, `/dev/stdout`, the file stdout goes to): the page
/// is then printed in place of the markdown report, which `report.md` still holds —
/// written to that name, page and report overwrote each other. A usage error when
/// stdout is a terminal, as mur says it for `usage report --html -`.
fn page_on_stdout(html: Option<&std::path::Path>) -> Result<bool> {
    if !html.is_some_and(write::page_on_stdout) {
        return Ok(false);
    }
    if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        return Err(Error::usage(
            "`--html -` writes the report's page (HTML) to stdout, which is a terminal",
        )
        .with_hint(
            "pipe it (`| w3m -T text/html`, `> report.html`) or write a file: `--html FILE`",
        ));
    }
    Ok(true)
}

/// A page that could not be written is said now, before any run, in the user's terms
/// (exit 1) — not after the whole study, in the OS's.
fn check_html(path: Option<&std::path::Path>) -> Result<()> {
    match path {
        Some(path) => mur_lockfile::check_named(path)
            .map_err(|e| Error::usage(format!("`--html {}`: {e}", path.display()))),
        None => Ok(()),
    }
}

/// A usage error when the page `html` would overwrite a file the study in `dir` wrote:
/// its record (`results.jsonl`, `study.json`, also through another name for the same
/// file), its reports, or anything under `runs/` (a run's `record.json`, the oracle's
/// verdict) — one slip of tab completion and what a published study rests on was gone.
/// A page of its own beside them (`report.html`) is the study's to hold.
fn not_the_record(html: &std::path::Path, dir: &std::path::Path) -> Result<()> {
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
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
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
fn inside(path: &std::path::Path, dir: &std::path::Path) -> bool {
    match (std::path::absolute(path), std::path::absolute(dir)) {
        (Ok(path), Ok(dir)) => path.starts_with(dir),
        _ => false,
    }
}

/// What `study` and `report` end with: the runs the harness could not make said, the page
/// printed where `--html` named stdout, else the markdown report, and the exit code. A
/// report missing such runs is printed and written, but `report && publish` stops there.
fn made(
    command: &str,
    report: &study::Reread,
    rows: &study::report::Rows<'_>,
    markdown: String,
    on_stdout: bool,
) -> Result<u8> {
    let errors = report.errors();
    if errors > 0 {
        output::line(&format!(
            "{command}: {} the harness could not make (the report counts them apart; each result's `error` says why)",
            crate::words::plural(errors, "run")
        ));
    }
    output::print(&if on_stdout {
        report.page(rows)
    } else {
        markdown
    })?;
    Ok(if errors > 0 { HARNESS_FAILED } else { 0 })
}

fn pretty(value: &impl serde::Serialize) -> Result<String> {
    serde_json::to_string_pretty(value)
        .map(|text| text + "\n")
        .map_err(|e| Error::internal(format!("cannot print the report: {e}")))
}
