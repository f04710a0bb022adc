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
mod default_out;
mod group;
mod images;
mod listing;
mod oracle;
mod orphans;
mod outdir;
mod output;
mod page_out;
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
use page_out::PageOut;

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
        Err(error) => match cli::given_empty(&error) {
            Some(empty) => {
                output::report(&empty);
                return ExitCode::from(empty.exit_code());
            }
            None => return ExitCode::from(output::clap(error)),
        },
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
        Command::Study(args) => {
            stop::says(stop::RUNS_STOPPED);
            output::warn(&args.runner.unset_pass_env());
            let cli::StudyCommand {
                study,
                page,
                against,
            } = args.command()?;
            let outcome = study::run(&study, &|line| output::line(&escape_controls(line)))?;
            // The rows made once, for the study's files and the page alike.
            let report = &outcome.report;
            let mut rows = report.rows();
            rows.against = against;
            rows.check_against()?;
            let markdown = report.write_reports(&rows, &outcome.out)?;
            let file = page.as_ref().and_then(PageOut::file);
            if let Some(path) = file {
                write::page(path, &report.page(&rows))?;
            }
            for line in report.write_earlier_pages(&rows, file, &outcome.out) {
                output::line(&escape_controls(&line));
            }
            output::line(&format!(
                "study: {} made now, {} recorded in all: {}",
                crate::words::plural(outcome.ran, "run"),
                report.runs(),
                escape_controls(&outcome.out.join(study::RESULTS).display().to_string())
            ));
            made("study", report, &rows, markdown, page.as_ref())
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
            let page = args.page()?;
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
            if let Some(path) = page.as_ref().and_then(PageOut::file) {
                write::page(path, &report.page(&rows))?;
            }
            if let Some(readme) = &readme {
                report.write_readme(&rows, readme, &args.dir)?;
            }
            made("report", &report, &rows, markdown, page.as_ref())
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

/// What `study` and `report` end with: the runs the harness could not make said, a
/// study not complete warned of ([`study::report::incomplete`]), the page
/// printed where `--html` named stdout, else the markdown report, and the exit code. A
/// report missing such runs is printed and written, but `report && publish` stops there.
fn made(
    command: &str,
    report: &study::Reread,
    rows: &study::report::Rows<'_>,
    markdown: String,
    page: Option<&PageOut>,
) -> Result<u8> {
    let errors = report.errors();
    if errors > 0 {
        output::line(&format!(
            "{command}: {} the harness could not make (the report counts them apart; each result's `error` says why)",
            crate::words::plural(errors, "run")
        ));
    }
    // The report says it too, but a script that publishes it reads only the exit code
    // (0: the runs recorded are reported) and stderr.
    output::warn(&Vec::from_iter(study::report::incomplete(rows)));
    output::print(&if page.is_some_and(PageOut::on_stdout) {
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
