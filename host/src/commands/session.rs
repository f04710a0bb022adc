//! `mur devtools session list` and `session clean`: the lockfile directory
//! as the user sees it. Neither ever stops a process.

use std::path::PathBuf;

use mur_core::settings::{Settings, Source};
use mur_core::{Error, Result};
use mur_discovery::{self as discovery, Candidate, Found, ProjectFilter, Survey};
use mur_lockfile::{LOCKFILE_SCHEMA, Lockfile};

use crate::cli::SessionCommand;
use crate::output::{self, Notices};

pub async fn run(cmd: &SessionCommand, settings: &Settings) -> Result<()> {
    if let Source::Endpoint(_) = settings.source {
        return Err(Error::usage(
            "`session` commands read the lockfile directory; `--endpoint` does not apply",
        )
        .with_hint("`mur devtools --endpoint URL call ping` checks one endpoint"));
    }
    match cmd {
        SessionCommand::List => list(settings).await,
        SessionCommand::Clean { dry_run } => clean(*dry_run, settings).await,
    }
}

/// One JSON line of lockfile fields per live session (a table with
/// `--pretty`); exit 4 when there is none, 2 when the only sessions there
/// are did not answer. Stale lockfiles are skipped silently and removed on
/// the way. `--auto` adds sessions found by a loopback port scan. With
/// `--project`, only that project's sessions count, for the listing and the
/// exit code alike: `session list --project P` is how a script asks whether
/// P's session (a bridge that may have stopped when idle) is still up.
async fn list(settings: &Settings) -> Result<()> {
    let http = mur_http::Http::new();
    let registry = discovery::registry();
    let project = settings
        .project
        .as_deref()
        .map(ProjectFilter::new)
        .transpose()?;
    let meant = |c: &Candidate| project.as_ref().is_none_or(|p| p.matches(c));
    // One `--timeout` for the survey and the scan together.
    let (survey, others, sessions) =
        discovery::within(settings.timeout, "reading the sessions", async {
            let mut survey = discovery::survey(&registry, &http, &mut Notices).await?;
            // Every live session is probed, not only the project's: when the project
            // has none, the error lists the others (`--project` may name the wrong file).
            let (live, others): (Vec<Found>, Vec<Found>) = std::mem::take(&mut survey.live)
                .into_iter()
                .partition(|f| meant(&Candidate::from_lockfile(f)));
            survey.live = live;
            survey
                .unresponsive
                .retain(|(f, _)| meant(&Candidate::from_lockfile(f)));
            let mut sessions: Vec<Lockfile> = survey.live.iter().map(|f| f.lock.clone()).collect();
            // By project, as every list of sessions is: the directory's order (of hashes)
            // means nothing to a reader.
            sessions.sort_by(|a, b| a.project.cmp(&b.project));
            if let Source::Auto(range) = settings.source {
                let scanned = discovery::scan(&http, range, &Notices).await;
                let scanned = scanned.into_iter().filter(|c| meant(c)).collect();
                sessions.extend(unlisted(scanned, &sessions));
            }
            Ok((survey, others, sessions))
        })
        .await?;
    survey.collect_garbage(&registry, &mut Notices);
    if settings.verbose {
        survey.report_impostors(&mut Notices);
    }
    if sessions.is_empty() {
        // The error names the sessions that did not answer: no warning says it first.
        let error = nothing_live(&survey, &registry);
        return Err(match &project {
            Some(project) if survey.unresponsive.is_empty() => {
                none_of_project(project, &others, &registry)
            }
            _ => error,
        });
    }
    survey.report_unresponsive(&mut Notices);
    let logs: Vec<Option<String>> = sessions.iter().map(|l| bridge_log(&survey, l)).collect();
    if settings.pretty {
        output::stdout(table(&sessions, &logs).as_bytes())
    } else {
        let mut text = String::new();
        for lock in &sessions {
            text.push_str(&line(&survey, lock));
            text.push('\n');
        }
        output::stdout(text.as_bytes())
    }
}

/// A session's line: its lockfile's fields, and a bridge's `log`.
fn line(survey: &Survey, lock: &Lockfile) -> String {
    match survey.live.iter().find(|f| f.lock == *lock) {
        Some(found) => mur_bridge::session_line(&found.path, lock),
        None => serde_json::to_string(lock).unwrap_or_default(),
    }
}

/// The log of a session that is a bridge (`mur devtools bridge`).
fn bridge_log(survey: &Survey, lock: &Lockfile) -> Option<String> {
    let found = survey.live.iter().find(|f| f.lock == *lock)?;
    let bridge = mur_bridge::bridge_of(&found.path, lock)?;
    Some(bridge.log.to_string_lossy().into_owned())
}

/// Sessions the port scan found that no lockfile names, in the lockfile's
/// shape: the probe carries the same identity facts.
fn unlisted(scanned: Vec<Candidate>, listed: &[Lockfile]) -> Vec<Lockfile> {
    scanned
        .into_iter()
        .filter(|c| !listed.iter().any(|l| l.endpoint == c.endpoint))
        .map(|c| Lockfile {
            schema: LOCKFILE_SCHEMA.to_owned(),
            port: port_of(&c.endpoint),
            endpoint: c.endpoint,
            transport: c.transport,
            pid: c.pid,
            build_tag: c.build_tag,
            project: c.project,
            started_at: c.started_at,
        })
        .collect()
}

fn port_of(endpoint: &str) -> u16 {
    reqwest::Url::parse(endpoint)
        .ok()
        .and_then(|url| url.port())
        .unwrap_or(0)
}

fn nothing_live(survey: &Survey, registry: &mur_lockfile::Registry) -> Error {
    if let Some((found, _)) = survey.unresponsive.first() {
        return Error::transport("no session answered its probe")
            .with_list(survey.unresponsive_lines())
            .with_hint(format!(
                "is it stopped in a debugger or overloaded? `kill -CONT {}` resumes a stopped process",
                found.lock.pid
            ));
    }
    Error::no_session("no running devtools session found").with_hint(format!(
        "sessions announce themselves in `{}`",
        registry.dir().display()
    ))
}

/// `--project` named a project with no live session: exit 4, as with no session at
/// all, naming the sessions of other projects (the path may be the wrong file).
fn none_of_project(
    project: &ProjectFilter,
    others: &[Found],
    registry: &mur_lockfile::Registry,
) -> Error {
    let error = Error::no_session(format!(
        "no live devtools session for project `{}`",
        project.canonical()
    ));
    if others.is_empty() {
        return error.with_hint(format!(
            "sessions announce themselves in `{}`",
            registry.dir().display()
        ));
    }
    let mut others: Vec<Candidate> = others.iter().map(Candidate::from_lockfile).collect();
    others.sort_by(|a, b| a.project.cmp(&b.project));
    let others: Vec<&Candidate> = others.iter().collect();
    error.with_list(discovery::session_rows(&others)).with_hint(
        "these sessions are of other projects: `mur devtools session list` lists them all",
    )
}

/// The sessions for people; a LOG column when a bridge is among them.
fn table(live: &[Lockfile], logs: &[Option<String>]) -> String {
    let with_logs = logs.iter().any(Option::is_some);
    let rows: Vec<Vec<String>> = live
        .iter()
        .zip(logs)
        .map(|(lock, log)| {
            let mut row = vec![
                lock.project.clone(),
                lock.transport.as_str().to_owned(),
                lock.endpoint.clone(),
                lock.pid.to_string(),
                lock.started_at.clone(),
            ];
            if with_logs {
                row.push(log.clone().unwrap_or_default());
            }
            row
        })
        .collect();
    let header: &[&str] = if with_logs {
        &["PROJECT", "TRANSPORT", "ENDPOINT", "PID", "STARTED", "LOG"]
    } else {
        &["PROJECT", "TRANSPORT", "ENDPOINT", "PID", "STARTED"]
    };
    output::table(header, &rows)
}

/// Removes lockfiles whose process is gone, and files named like lockfiles that
/// are none (malformed). A lockfile whose process runs is never touched, even when
/// its endpoint does not answer: the session may be busy, and a wrong removal
/// would hide a live session from discovery.
/// What `session clean` says while it reads the directory: every notice but that a
/// malformed lockfile is skipped and `session clean` removes it — it is removing it,
/// and says how many in its last line.
struct Cleaning;

impl discovery::Report for Cleaning {
    fn notice(&mut self, message: String) {
        discovery::Report::notice(&mut Notices, message);
    }

    fn malformed(&mut self, _path: &std::path::Path, _why: &str) {}
}

async fn clean(dry_run: bool, settings: &Settings) -> Result<()> {
    let http = mur_http::Http::new();
    let registry = discovery::registry();
    let survey = discovery::within(
        settings.timeout,
        "reading the sessions",
        discovery::survey(&registry, &http, &mut Cleaning),
    )
    .await?;
    if dry_run {
        let mut names = Vec::new();
        let stale = survey.stale.iter().map(|found| found.path.as_path());
        for path in stale.chain(survey.malformed.iter().map(PathBuf::as_path)) {
            names.extend(output::shell_word(path.as_os_str()));
            names.push(b'\n');
        }
        output::stdout(&names)?;
        output::diagnostic(&format!(
            "would remove {} stale {}{}",
            survey.stale.len(),
            entries(survey.stale.len()),
            malformed_count(survey.malformed.len())
        ));
        return Ok(());
    }
    let removed = survey.collect_garbage(&registry, &mut Notices);
    let mut cleared = 0;
    for path in &survey.malformed {
        match registry.remove_if_malformed(path) {
            Ok(true) => cleared += 1,
            Ok(false) => {}
            Err(e) => output::notice(&format!("cannot remove `{}`: {e}", path.display())),
        }
    }
    output::diagnostic(&format!(
        "removed {removed} stale {}{}",
        entries(removed),
        malformed_count(cleared)
    ));
    Ok(())
}

/// `" and N malformed lockfile(s)"`, or nothing for none.
fn malformed_count(n: usize) -> String {
    match n {
        0 => String::new(),
        1 => " and 1 malformed lockfile".to_owned(),
        n => format!(" and {n} malformed lockfiles"),
    }
}

fn entries(n: usize) -> &'static str {
    if n == 1 { "entry" } else { "entries" }
}
