//! Finding the devtools session, the one entry point every call goes
//! through: `--endpoint` (as-is, loopback only) > lockfile discovery (survey,
//! liveness, selection) > `--auto` loopback scan — and how mur is let in there
//! ([`Access`]: a bridge's secret, from its sidecar). Returns values and errors;
//! what it has to say along the way goes to a [`Report`], never to stderr.

mod access;
mod lockfiles;
mod report;
mod scan;
mod select;
mod sockets;

pub use access::{
    Access, SIDECAR_SCHEMA, SIDECAR_SUFFIX, Secret, read_sidecar, sidecar_of, sidecar_path,
};
pub use lockfiles::{Found, Survey, ended_notes, registry, survey, unremoved};
pub use report::{Report, Silent};
pub use scan::{Scanned, scan};
pub use select::{
    Candidate, OfProject, ProjectFilter, again, rows as session_rows, with_the_first,
};

use mur_core::settings::{Settings, Source};
use mur_core::{Error, Result};

/// The session an invocation talks to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub endpoint: String,
    /// What tells this session from any other that had the same endpoint
    /// (pid, start time, build tag); `None` for `--endpoint`, which is used
    /// as given, unprobed.
    pub identity: Option<String>,
    /// The session's canonical project path and build tag (for usage
    /// records); `None` for `--endpoint`.
    pub project: Option<String>,
    pub build_tag: Option<String>,
    /// The lockfile it was found by (its name is the project's hash), if any.
    pub lockfile: Option<std::path::PathBuf>,
    /// The session's process (pid, and its `startedAt` in seconds since the epoch),
    /// to tell what became of it when a call fails midway; `None` for `--endpoint`.
    pub process: Option<(u32, Option<i64>)>,
    /// How mur is let in: a bridge's secret, from its sidecar.
    pub access: Access,
}

/// The session for this invocation. Bounded by `--timeout`: a directory full
/// of lockfiles whose endpoints never answer cannot hold a call up for longer
/// than the user allowed. `command` is the command line to run again with
/// `--project` when several sessions run: the words after `mur devtools`, which
/// only the binary knows (none: the hint says `--project PATH` without it).
/// `stopped` says, for "no session" of `--project`, what the caller knows of how the
/// project's session ended (a bridge's log, beside its lockfile), given the directories
/// the last look searched and `--project` as calls match it (a folder: the project
/// directly in it): a hint line, which discovery puts where "start the app" would be.
pub async fn resolve(
    settings: &Settings,
    http: &mur_http::Http,
    report: &mut dyn Report,
    command: &dyn Fn() -> Vec<String>,
    stopped: &dyn Fn(&mur_lockfile::Registry, &ProjectFilter) -> Option<String>,
) -> Result<Resolved> {
    if let Source::Endpoint(url) = &settings.source {
        return checked_endpoint(url).map(|endpoint| Resolved {
            access: Access::of_endpoint(&registry(), &endpoint),
            endpoint,
            identity: None,
            project: None,
            build_tag: None,
            lockfile: None,
            process: None,
        });
    }
    // [`find`], again while it finds no session but one is on its way: right after
    // `reload` the old session has withdrawn its lockfile and the new one has not
    // announced itself yet; saying "no session, start the app" then sent agents to
    // start a second one.
    let deadline = tokio::time::Instant::now() + STARTING_WAIT;
    let mut looks = Looks {
        ended: Vec::new(),
        clear_by: std::time::Instant::now() + settings.timeout,
    };
    let report = &mut report::Once::new(report);
    let work = async {
        // `--project` resolved once, for every look.
        let project = settings
            .project
            .as_deref()
            .map(ProjectFilter::new)
            .transpose()?;
        loop {
            // One look, in the directories searched as it starts (a directory made since
            // the last look is searched in this one).
            let registry = registry();
            let meant = project.as_ref();
            let found = find(
                &registry, settings, meant, &mut looks, http, report, command,
            )
            .await;
            match found {
                Err(e) if e.kind() == mur_core::Kind::NoSession => {
                    let stopped = |e: Error| match &project {
                        Some(project) => with_bridge_stop(e, &registry, project, stopped),
                        None => e,
                    };
                    if !starting(&registry, project.as_ref()) {
                        return Err(stopped(e));
                    }
                    if tokio::time::Instant::now() >= deadline {
                        return Err(stopped(stuck_starting(&e, project.as_ref(), &looks.ended)));
                    }
                    tracing::debug!("a session is on its way (its slot is held): waiting for it");
                    tokio::time::sleep(STARTING_POLL).await;
                }
                other => return other,
            }
        }
    };
    match in_time(settings.timeout, work).await {
        Some(resolved) => resolved,
        None => Err(
            too_long(settings.timeout, "finding the session").with_hint(format!(
                "give it longer: `{} --timeout {} …`; `-v` shows what discovery was waiting for, \
             `--endpoint URL` skips it",
                settings.devtools_command(),
                longer(settings.timeout)
            )),
        ),
    }
}

/// `work` under the `--timeout` bound: past it, a transport error saying
/// that `what` ("finding the session") took longer. The one bound on every
/// read of the lockfile directory, for calls and `session` commands alike: a
/// survey that ran out of it reading the directories (by the deadline it was given,
/// [`survey`]) says so as the timer does.
pub async fn within<T>(
    timeout: std::time::Duration,
    what: &str,
    work: impl Future<Output = Result<T>>,
) -> Result<T> {
    in_time(timeout, work)
        .await
        .unwrap_or_else(|| Err(too_long(timeout, what)))
}

/// What `work` came to within `timeout`; `None` when it ran out of it: the timer fired,
/// or the work found its deadline past and said so ([`Error::out_of_bound`]).
async fn in_time<T>(
    timeout: std::time::Duration,
    work: impl Future<Output = Result<T>>,
) -> Option<Result<T>> {
    match tokio::time::timeout(timeout, work).await {
        Ok(Err(e)) if e.is_out_of_bound() => None,
        Ok(done) => Some(done),
        Err(_) => None,
    }
}

/// A bound worth trying after `timeout` ran out: ten times it, at least the
/// default 10 s (a bound of 1 ms suggests 10000, not 10).
fn longer(timeout: std::time::Duration) -> u128 {
    (timeout.as_millis() * 10).max(10_000)
}

fn too_long(timeout: std::time::Duration, what: &str) -> Error {
    Error::transport(format!(
        "{what} took longer than {} ms",
        timeout.as_millis()
    ))
}

/// `--endpoint` is used as given, without a probe, but only on loopback:
/// mur never sends a request off this machine.
fn checked_endpoint(url: &str) -> Result<String> {
    let refused = |why: String, hint: String| {
        Error::usage(format!("`--endpoint {url}` {why}"))
            .with_hint(hint)
            .about_session()
    };
    // Loopback written in a form mur does not contact (`127.1`, `localhost.`,
    // `[::ffff:127.0.0.1]`): refused here, as any other `--endpoint` mur will not reach
    // (exit 1), naming the address to write. `127.1` was a request that failed (exit 2,
    // "transport, retry") once discovery had passed it; `localhost.` "not a loopback
    // address", which it is. Not dialled as the address it stands for: what is sent
    // where is what was typed.
    if let Some(otherwise) = mur_lockfile::endpoint::written_otherwise(url) {
        return Err(refused(
            otherwise.to_string(),
            format!(
                "write the address it stands for: `--endpoint {}`",
                otherwise.meant
            ),
        ));
    }
    mur_lockfile::endpoint::check_loopback(url).map_err(|why| {
        refused(
            why,
            "devtools sessions listen on loopback, e.g. `--endpoint http://127.0.0.1:PORT/mcp`"
                .to_owned(),
        )
    })?;
    Ok(url.to_owned())
}

/// What the looks of one [`resolve`] share.
struct Looks {
    /// The sessions found to have ended, in this look and the ones before: the look
    /// that removes a crashed session's lockfile may find no session while another is
    /// on its way, and the look that finds it has no lockfile left to tell it by
    /// (mur answered from another project with nothing said).
    ended: Vec<Found>,
    /// When `--timeout`, which bounds discovery, runs out: no stale lockfile is removed
    /// after it ([`Survey::collect_garbage`]).
    clear_by: std::time::Instant,
}

/// How long discovery waits for a session on its way (its slot held, no lockfile
/// yet: a reload's successor, an app starting) before it says none runs: as long
/// as a starting session itself waits for a slot, within `--timeout`.
const STARTING_WAIT: std::time::Duration = std::time::Duration::from_secs(5);
const STARTING_POLL: std::time::Duration = std::time::Duration::from_millis(50);

/// No session announced itself while one held its project's slot for all of
/// [`STARTING_WAIT`]: `e` (no session) with that alone to say, not the hints for when
/// none runs, which contradicted it: "start the app" (one is starting, and a second
/// would be refused), `--endpoint` or `--auto`, the sessions of other projects; but
/// how the sessions meant ended (`ended`), first, as the look that found them said.
fn stuck_starting(e: &Error, project: Option<&ProjectFilter>, ended: &[Found]) -> Error {
    let stuck = Error::no_session(e.message()).with_hint(format!(
        "a session holds its project's slot but has not announced itself within {} s: it is \
         starting, or stuck starting; run the command again once it has (`mur devtools \
         session list` shows the sessions that have)",
        STARTING_WAIT.as_secs()
    ));
    let said = match project {
        Some(_) => ended
            .iter()
            .map(|found| lockfiles::ended_words(THIS_PROJECT, found))
            .collect(),
        None => lockfiles::ended_notes(ended),
    };
    said.into_iter().rev().fold(stuck, Error::with_first_hint)
}

/// Whether a session is on its way: a slot held (by a starting session, or handed
/// from a reloading one to its successor) with no lockfile beside it yet, or with
/// the lockfile of an HTTP session that did not answer (found when none answered:
/// a reloading session between closing its endpoint and withdrawing its file); of
/// `project` only, when it is given: of a folder, of the projects directly in it too,
/// as a call takes it, by their lockfiles and by the sidecars of bridges still starting
/// ([`starting_in_folder`]). A stdio session's slot is held for good. None is on its way
/// where the directories are refused ([`lockfiles::survey_wanted`]): their sessions are
/// not searched however long one waits, and the refusal is what to say.
fn starting(registry: &mur_lockfile::Registry, project: Option<&ProjectFilter>) -> bool {
    if registry.check_searched_trusted().is_err() {
        return false;
    }
    let lockfiles: Vec<std::path::PathBuf> = match project {
        Some(project) if project.is_folder() => {
            let mut lockfiles = registry.paths_for(project.canonical());
            lockfiles.extend(starting_in_folder(registry, project));
            lockfiles
        }
        Some(project) => registry.paths_for(project.canonical()),
        None => registry
            .files("lock")
            .into_iter()
            .map(|lock| lock.with_extension("json"))
            .collect(),
    };
    let in_transition = |lockfile: &std::path::PathBuf| match registry.read(lockfile) {
        mur_lockfile::ReadOutcome::Gone => true,
        mur_lockfile::ReadOutcome::Valid(lock) => lock.transport == mur_lockfile::Transport::Http,
        _ => false,
    };
    lockfiles
        .iter()
        .any(|lockfile| in_transition(lockfile) && mur_lockfile::is_held(lockfile))
}

/// The lockfiles of the projects directly in `folder` (as [`ProjectFilter::matches_project`]
/// takes it) that a session on its way may be behind: those announced there (a reloading
/// session's, between closing its endpoint and withdrawing its file), and those of
/// bridges still starting, whose sidecar (trusted, [`read_sidecar`]) names their project
/// before their lockfile does. An app starting names its project nowhere until it has
/// announced itself: only its project file's own `--project` waits for it.
fn starting_in_folder(
    registry: &mur_lockfile::Registry,
    folder: &ProjectFilter,
) -> Vec<std::path::PathBuf> {
    let (announced, _) = folder.files_of(registry, ".json", |lockfile, _| {
        match registry.read(lockfile) {
            mur_lockfile::ReadOutcome::Valid(lock) => Some((lock.project, ())),
            _ => None,
        }
    });
    let (bridges, _) = folder.files_of(registry, SIDECAR_SUFFIX, |sidecar, _| {
        let fields = read_sidecar(sidecar).ok()??;
        Some((fields["project"].as_str()?.to_owned(), ()))
    });
    (announced.into_iter().chain(bridges))
        .map(|found| found.lockfile)
        .collect()
}

/// One look at the lockfiles (and `--auto`'s ports) for the session to call, of
/// `project` only when `--project` names one.
async fn find(
    registry: &mur_lockfile::Registry,
    settings: &Settings,
    project: Option<&ProjectFilter>,
    looks: &mut Looks,
    http: &mur_http::Http,
    report: &mut dyn Report,
    command: &dyn Fn() -> Vec<String>,
) -> Result<Resolved> {
    let range = match &settings.source {
        Source::Auto(range) => Some(*range),
        _ => None,
    };
    // Only the project's session is probed when `--project` names one.
    let wanted = |found: &Found| project.is_none_or(|p| p.matches_lockfile(found));
    let survey =
        lockfiles::survey_wanted(registry, http, wanted, report, Some(looks.clear_by)).await?;
    let removed = match report.tells() {
        true => survey.collect_garbage(registry, report, Some(looks.clear_by)),
        false => Vec::new(),
    };
    let ended_before = &mut looks.ended;
    // Said of this look's result, with those an earlier look removed ([`resolve`]): the
    // sessions the call could have used, so no stdio one. Nothing dials it and selection
    // passes over it, so its crash changes nothing a call does ("…; the session of `B` is
    // used instead" read as if it had been the one meant; a bridged server's crash is its
    // bridge's to say). Its lockfile is removed all the same, and `session list`, which
    // lists stdio sessions, notes it.
    let callable =
        |found: &Found| wanted(found) && found.lock.transport == mur_lockfile::Transport::Http;
    ended_before.extend(survey.ended(&removed, callable).into_iter().cloned());
    // An earlier look's crashed session whose project runs again in this one is no
    // news, as it is in one look (the restart is the session used, not "instead").
    ended_before.retain(|found| !survey.runs_project_of(found));
    let ended_sessions = &*ended_before;
    survey.report_impostors(report);
    let candidates: Vec<Candidate> = survey.live.iter().map(Candidate::from_lockfile).collect();
    let silent: Vec<(Candidate, String)> = survey
        .unresponsive
        .iter()
        .map(|(found, why)| (Candidate::from_lockfile(found), why.clone()))
        .collect();
    let chosen = select::unique(candidates, &silent, project, command)
        .map_err(|e| unresponsive_instead(e, &survey, project));
    // Whether the error says how the project's session ended (then no note says it too).
    let told = std::cell::Cell::new(false);
    let clear_by = looks.clear_by;
    let found = async {
        match (chosen, range) {
            (Err(e), Some(range)) if e.kind() == mur_core::Kind::NoSession => {
                tracing::debug!(
                    "no lockfile names a live session: scanning ports {}-{}",
                    range.first,
                    range.last
                );
                let mut scanned = scan::scan(http, range, report).await;
                let found = std::mem::take(&mut scanned.sessions);
                match select::unique(found, &[], project, command) {
                    Ok(chosen) => Ok(chosen.into()),
                    Err(e) => Err(scanned_none(e, http, &scanned).await),
                }
            }
            (Err(e), None) if e.kind() == mur_core::Kind::NoSession => Err(match project {
                Some(project) => {
                    let skipped = skipped_lockfile(&survey, registry, project);
                    let warned = report.tells();
                    let not_running =
                        |e: Error| match (&skipped, ended(&survey, ended_sessions, project)) {
                            (Some(skipped), _) => skipped_hint(e, skipped, warned),
                            (None, Some(ended)) if e.hints().is_empty() => {
                                told.set(true);
                                no_session_hint(e, registry, false).with_first_hint(ended)
                            }
                            _ => no_session_hint(e, registry, false),
                        };
                    let ran = ended(&survey, ended_sessions, project).is_some();
                    let others = Others {
                        registry,
                        http,
                        deadline: clear_by,
                    };
                    with_other_projects(e, project, ran, others, command, not_running).await
                }
                None => no_session_hint(e, registry, false),
            }),
            (chosen, _) => {
                let chosen = chosen.map_err(|e| no_session_hint(e, registry, range.is_some()))?;
                tracing::debug!("using `{}` ({})", chosen.endpoint, chosen.project);
                Ok(chosen.into())
            }
        }
    }
    .await;
    if told.get() {
        return found;
    }
    match found {
        // The session meant crashed and another project's answers: said whatever `-q`
        // says, naming the one used (the output alone read as the crashed app's).
        Ok(resolved) => {
            if let (Some(project), Some((pid, _))) = (&resolved.project, resolved.process) {
                for ended in lockfiles::ended_notes(ended_sessions) {
                    report.notice(format!(
                        "{ended}; the session of `{}` (pid {pid}) is used instead",
                        mur_core::text::escape_value(project)
                    ));
                }
            }
            Ok(resolved)
        }
        // "No session" says how the one meant ended, as with `--project`: a hint, which
        // `-q` keeps (the next command no longer knows it).
        Err(e) if e.kind() == mur_core::Kind::NoSession => {
            Err(lockfiles::ended_notes(ended_sessions)
                .into_iter()
                .rev()
                .fold(e, Error::with_first_hint))
        }
        Err(e) => {
            // `-q` hides notes, as everywhere.
            if !settings.quiet {
                for ended in lockfiles::ended_notes(ended_sessions) {
                    report.note(ended);
                }
            }
            Err(e)
        }
    }
}

impl From<Candidate> for Resolved {
    fn from(chosen: Candidate) -> Self {
        let identity = chosen.identity();
        let started_at = mur_lockfile::liveness::rfc3339_secs(&chosen.started_at);
        let access = match &chosen.lockfile {
            Some(lockfile) => {
                Access::of(lockfile, chosen.pid, &chosen.started_at, &chosen.endpoint)
            }
            None => Access::Scanned,
        };
        Self {
            access,
            endpoint: chosen.endpoint,
            identity: Some(identity),
            project: Some(chosen.project),
            build_tag: Some(chosen.build_tag),
            lockfile: chosen.lockfile,
            process: Some((chosen.pid, started_at)),
        }
    }
}

/// Where [`with_other_projects`] looks for them, and by when.
struct Others<'a> {
    registry: &'a mur_lockfile::Registry,
    http: &'a mur_http::Http,
    deadline: std::time::Instant,
}

/// `e`, no session of `project`, with the live sessions of other projects (only the
/// project's was probed; the error path probes the rest), or `not_running`'s hints
/// ([`select::with_other_projects`]); `command` is said again when several in a folder
/// typed are to choose from.
async fn with_other_projects(
    e: Error,
    project: &ProjectFilter,
    ran: bool,
    others: Others<'_>,
    command: &dyn Fn() -> Vec<String>,
    not_running: impl FnOnce(Error) -> Error,
) -> Error {
    let Others {
        registry,
        http,
        deadline,
    } = others;
    let mut silent = Silent;
    let all = lockfiles::survey_wanted(registry, http, |_| true, &mut silent, Some(deadline));
    let live = match all.await {
        Ok(all) => all.live.iter().map(Candidate::from_lockfile).collect(),
        // Out of `--timeout`: said as such ([`in_time`]), not as no session.
        Err(out) if out.is_out_of_bound() => return out,
        Err(_) => Vec::new(),
    };
    select::with_other_projects(e, project, ran, &live, command, not_running)
}

/// What the lockfile of `project`'s session says, when the session ended without
/// withdrawing it (crashed, killed; the lockfile goes on this call's way): which
/// process it was, so "start the app" reads as "again". A session
/// that exited cleanly withdrew its lockfile and left nothing to tell. An earlier look
/// may have removed it (`removed`: a session of the project was on its way then).
fn ended(survey: &Survey, removed: &[Found], project: &ProjectFilter) -> Option<String> {
    let mut stale = survey.stale.iter().chain(removed);
    let found = stale.find(|f| project.matches_lockfile(f))?;
    Some(lockfiles::ended_words(THIS_PROJECT, found))
}

/// The lockfile of `project` that this look skipped, as its survey told the report (no
/// session's lockfile is used that is not the user's own and closed to others' writes, of
/// a schema this mur reads, and whose endpoint answers for its pid): its app may run, so
/// "start the app" would send the user to start a second one. A malformed one is none
/// (sessions write theirs whole: no app of it runs), nor is one that names another
/// project (it is that project's). Looked up in the survey, not read again: a file read
/// twice could be skipped in the second read alone, with no warning said of it.
fn skipped_lockfile(
    survey: &Survey,
    registry: &mur_lockfile::Registry,
    project: &ProjectFilter,
) -> Option<std::path::PathBuf> {
    let impostor = |path: &std::path::Path| survey.impostors.iter().any(|(f, _)| f.path == path);
    registry
        .paths_for(project.canonical())
        .into_iter()
        .find(|path| survey.skipped.contains(path) || impostor(path))
}

/// `e`, no session of `project`, whose lockfile `skipped` was skipped ([`skipped_lockfile`]):
/// why is the thing to see to, not the app's start. `warned`: whether the report showed
/// the `warning:` that said so (a silent one did not: then `session list` says it).
fn skipped_hint(e: Error, skipped: &std::path::Path, warned: bool) -> Error {
    let skipped = mur_core::text::escape_value(&skipped.to_string_lossy()).into_owned();
    e.with_hint(match warned {
        true => format!(
            "this project's lockfile `{skipped}` was skipped, as the `warning:` above says: its \
             app may well be running, but mur uses no session by a lockfile it skips; see to \
             what the warning names, then run the command again"
        ),
        false => format!(
            "this project's lockfile `{skipped}` was skipped: its app may well be running, but \
             mur uses no session by a lockfile it skips; `mur devtools session list` says why \
             in a `warning:`: see to what it names, then run the command again"
        ),
    })
}

/// Who a session of `--project`'s project is, in the words under the error naming it.
const THIS_PROJECT: &str = "this project's session";

/// "No session" is wrong when a session's process runs but did not answer
/// the probe (stopped at a breakpoint, out of file descriptors): that is a
/// transport failure, naming the pid and endpoint that did not answer.
fn unresponsive_instead(
    e: Error,
    survey: &lockfiles::Survey,
    project: Option<&ProjectFilter>,
) -> Error {
    if e.kind() != mur_core::Kind::NoSession {
        return e;
    }
    let silent = survey
        .unresponsive
        .iter()
        .find(|(found, _)| project.is_none_or(|p| p.matches(&Candidate::from_lockfile(found))));
    match silent {
        Some((found, reason)) => Error::transport(lockfiles::unresponsive_message(found, reason))
            .with_hint(format!(
                "is it stopped in a debugger or overloaded? `kill -CONT {}` resumes a stopped process",
                found.lock.pid
            )),
        None => e,
    }
}

/// `e` (of `--auto`'s choice among the sessions it found) with the ports scanned, and,
/// when it found none, the ports that answered HTTP but not the probe (a third-party
/// MCP server scanned for is one of those, and `--endpoint` reaches it) and those that
/// did not answer it at all (a session stopped in a debugger).
async fn scanned_none(e: Error, http: &mur_http::Http, scanned: &Scanned) -> Error {
    let e = e.with_hint(scanned.searched());
    if e.kind() != mur_core::Kind::NoSession {
        return e;
    }
    let e = match scanned.not_devtools(http).await {
        Some(hint) => e.with_hint(hint),
        None => e,
    };
    match scanned.silent_hint() {
        Some(hint) => e.with_hint(hint),
        None => e,
    }
}

/// Tells where discovery looked and how to get a session, when it found none.
fn no_session_hint(e: Error, registry: &mur_lockfile::Registry, scanned: bool) -> Error {
    // A session was found that mur cannot call (stdio): its own hint says what to do.
    if e.kind() != mur_core::Kind::NoSession || scanned || !e.hints().is_empty() {
        return e;
    }
    e.with_hint(start_the_app(registry))
}

/// The hint of "no session": how to get one, and where it announces itself.
fn start_the_app(registry: &mur_lockfile::Registry) -> String {
    // One line (it was two, 330 bytes, under every exit 4): the guide says how to start
    // a session, a stdio server's `bridge` among them.
    // What `--auto` finds is said (a devtools session, not any MCP server): offered
    // bare, it sent users of a third-party server to a scan that cannot find theirs.
    format!(
        "start the app with its devtools session enabled (`mur devtools guide` says how); \
         `--auto` scans loopback ports for one that left no lockfile, `--endpoint URL` \
         reaches any other MCP server; a session announces itself in {}",
        registry.searched()
    )
}

/// `e`, no session of `project`, with what `stopped` knows of how its bridge stopped
/// (its log's last line, its command to start it again), in place of "start the app":
/// two remedies were given, the second one for an app. Where `e` has no such hint (it
/// says why else no session is used), first. `stopped` is asked once: it reads logs.
fn with_bridge_stop(
    e: Error,
    registry: &mur_lockfile::Registry,
    project: &ProjectFilter,
    stopped: &dyn Fn(&mur_lockfile::Registry, &ProjectFilter) -> Option<String>,
) -> Error {
    let Some(stop) = stopped(registry, project) else {
        return e;
    };
    let app = start_the_app(registry);
    match e.hints().contains(&app) {
        true => e.replacing_hint(&app, stop),
        false => e.with_first_hint(stop),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::Said;
    use mur_lockfile::{Lockfile, Registry};
    use std::time::Duration;

    /// A project (a file in `dir`) and a registry in `dir`.
    fn project_in(dir: &std::path::Path) -> (Registry, ProjectFilter) {
        let project = dir.join("App.csproj");
        std::fs::write(&project, "").expect("project");
        let project = ProjectFilter::new(&project).expect("project");
        (Registry::at(dir.join("reactor-devtools")), project)
    }

    /// One look for `project`'s session, which finds none.
    async fn no_session(
        registry: &Registry,
        project: &ProjectFilter,
        report: &mut dyn Report,
    ) -> Error {
        let settings = Settings {
            source: Source::Lockfiles,
            ..Settings::quiet_call("http://127.0.0.1:1/mcp", Duration::from_secs(5), 1 << 20)
        };
        let mut looks = Looks {
            ended: Vec::new(),
            clear_by: std::time::Instant::now() + Duration::from_secs(5),
        };
        let http = mur_http::Http::new();
        let command = Vec::<String>::new;
        find(
            registry,
            &settings,
            Some(project),
            &mut looks,
            &http,
            report,
            &command,
        )
        .await
        .expect_err("no session")
    }

    /// The hint of a project whose own lockfile was skipped points at the `warning:` only
    /// where one was shown: a silent report (completion, a hint's quiet look) shows none,
    /// and "as the `warning:` above says" named a line that was never printed.
    #[cfg(unix)]
    #[tokio::test]
    async fn a_skipped_lockfile_is_pointed_at_as_warned_only_where_it_was() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("tempdir");
        let (registry, project) = project_in(dir.path());
        let lock = Lockfile::stdio(std::process::id(), project.canonical().into(), "t".into());
        let path = registry.write(&lock).expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).expect("chmod");
        let mut said = Said::default();
        let warned = no_session(&registry, &project, &mut said).await;
        assert_eq!(
            said.0,
            [format!(
                "refusing lockfile `{}`: writable by group or others (mode 666)",
                path.display()
            )]
        );
        assert_eq!(
            warned.hints(),
            [format!(
                "this project's lockfile `{}` was skipped, as the `warning:` above says: its \
                 app may well be running, but mur uses no session by a lockfile it skips; see \
                 to what the warning names, then run the command again",
                path.display()
            )]
        );
        let silent = no_session(&registry, &project, &mut Silent).await;
        assert_eq!(
            silent.hints(),
            [format!(
                "this project's lockfile `{}` was skipped: its app may well be running, but mur \
                 uses no session by a lockfile it skips; `mur devtools session list` says why in \
                 a `warning:`: see to what it names, then run the command again",
                path.display()
            )]
        );
    }

    /// `--project FOLDER` waits, as its project file's `--project` does, for a bridge of
    /// a project directly in the folder that is still starting (its slot held, its
    /// sidecar naming its project, no lockfile yet): it said at once "no session" of a
    /// bridge on its way. A sidecar of a project elsewhere, or deeper down, is not the
    /// folder's.
    #[cfg(unix)]
    #[test]
    fn a_bridge_starting_for_a_project_in_a_folder_is_on_its_way() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("tempdir");
        let folder = dir.path().join("w");
        std::fs::create_dir_all(folder.join("deeper")).expect("folder");
        let registry = Registry::at(dir.path().join("reactor-devtools"));
        registry.ensure_dir().expect("registry");
        let filter = ProjectFilter::new(&folder).expect("filter");
        let starting_for = |project: &str| {
            let lockfile = registry.path_for(project);
            let slot = mur_lockfile::SlotLock::try_acquire(&lockfile)
                .expect("the slot")
                .expect("free");
            let sidecar = sidecar_path(&lockfile);
            let fields = serde_json::json!({
                "schema": SIDECAR_SCHEMA,
                "pid": std::process::id(),
                "startedAt": "2026-11-29T11:00:00Z",
                "project": project,
            });
            std::fs::write(&sidecar, fields.to_string()).expect("sidecar");
            std::fs::set_permissions(&sidecar, std::fs::Permissions::from_mode(0o600))
                .expect("0600");
            slot
        };
        let folder = filter.canonical().to_owned();
        let _elsewhere = starting_for("/elsewhere/E.csproj");
        let _deeper = starting_for(&format!("{folder}/deeper/D.csproj"));
        assert!(!starting(&registry, Some(&filter)));
        let own = starting_for(&format!("{folder}/B.csproj"));
        assert!(starting(&registry, Some(&filter)));
        drop(own);
        assert!(!starting(&registry, Some(&filter)));
    }

    /// What the caller knows of a bridge's stop is asked for once (it reads every
    /// directory's log), and takes the place of "start the app", or goes first where the
    /// error says something else; without a stop the error is as it was.
    #[test]
    fn a_bridges_stop_is_asked_once_and_placed_by_discovery() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (registry, project) = project_in(dir.path());
        let asked = std::cell::Cell::new(0);
        let stopped = |searched: &Registry, meant: &ProjectFilter| {
            asked.set(asked.get() + 1);
            assert_eq!(searched.dir(), registry.dir());
            assert_eq!(meant.canonical(), project.canonical());
            Some("its bridge stopped".to_owned())
        };
        let app = start_the_app(&registry);
        let e = Error::no_session("none")
            .with_hint(app.clone())
            .with_hint("and");
        let e = with_bridge_stop(e, &registry, &project, &stopped);
        assert_eq!(e.hints(), ["its bridge stopped", "and"]);
        assert_eq!(asked.get(), 1);
        let e = Error::no_session("none").with_hint("why else");
        let e = with_bridge_stop(e, &registry, &project, &stopped);
        assert_eq!(e.hints(), ["its bridge stopped", "why else"]);
        assert_eq!(asked.get(), 2);
        let e = Error::no_session("none").with_hint(app.clone());
        let e = with_bridge_stop(e, &registry, &project, &|_, _| None);
        assert_eq!(e.hints(), [app]);
    }
}
