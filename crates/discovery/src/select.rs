//! Picking the one session a call goes to: `--project` narrows the field (a
//! project file, or a folder: the project directly in it); stdio sessions are
//! refused (mur speaks HTTP); several left is ambiguous.
//!
//! Ambiguity exits 1 (usage): nothing is wrong with any session, the command
//! line just does not say which one is meant; `--project PATH` or
//! `--endpoint URL` fixes it.

use std::path::{Path, PathBuf};

use mur_lockfile::{Registry, Transport, Unlisted, paths};

use crate::lockfiles::Found;
use mur_core::{Error, ListedSession, Result, SessionChoice};

/// A live session, from a lockfile or from the `--auto` scan.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub endpoint: String,
    pub project: String,
    pub pid: u32,
    pub transport: Transport,
    pub build_tag: String,
    pub started_at: String,
    /// The lockfile it came from, if any.
    pub lockfile: Option<PathBuf>,
}

impl Candidate {
    pub fn from_lockfile(found: &Found) -> Self {
        Self {
            endpoint: found.lock.endpoint.clone(),
            project: found.lock.project.clone(),
            pid: found.lock.pid,
            transport: found.lock.transport,
            build_tag: found.lock.build_tag.clone(),
            started_at: found.lock.started_at.clone(),
            lockfile: Some(found.path.clone()),
        }
    }

    /// What tells this session from any other that had its endpoint: pid, start time
    /// and build tag.
    pub fn identity(&self) -> String {
        format!("{} {} {}", self.pid, self.started_at, self.build_tag)
    }

    /// This session as listed to choose from; `answering` whether it answered the probe.
    fn listed(&self, answering: bool) -> ListedSession {
        ListedSession {
            project: self.project.clone(),
            endpoint: self.endpoint.clone(),
            identity: self.identity(),
            answering,
        }
    }
}

/// `--project PATH`, canonicalized and hashed as the server does. A folder names the
/// project directly in it, as `dotnet run --project FOLDER` takes the project file in
/// FOLDER: `--project app` is `app/App.csproj`'s session. A project deeper down is
/// not the folder's (`/repo` holding `tools/H/H.csproj` may have a project of its own,
/// stopped: driving `H` would be driving another app); it is offered, not chosen
/// ([`with_other_projects`]).
#[derive(Debug, Clone)]
pub struct ProjectFilter {
    canonical: String,
    file_name: String,
    /// Whether the path is a folder (then the projects directly in it are its own).
    folder: bool,
}

impl ProjectFilter {
    pub fn new(path: &Path) -> Result<Self> {
        let canonical = paths::canonical_project(path).map_err(|e| {
            Error::usage(format!(
                "cannot resolve project path `{}`: {e}",
                path.display()
            ))
        })?;
        let file_name = paths::lockfile_name(&canonical);
        let folder = Path::new(&canonical).is_dir();
        Ok(Self {
            canonical,
            file_name,
            folder,
        })
    }

    /// The project's canonical path, as its lockfile's name is made from it.
    pub fn canonical(&self) -> &str {
        &self.canonical
    }

    /// Whether the path is a folder, whose projects directly in it are its own.
    pub fn is_folder(&self) -> bool {
        self.folder
    }

    pub fn matches(&self, c: &Candidate) -> bool {
        self.matches_project(&c.project, c.lockfile.as_deref())
    }

    /// Whether the lockfile `found` is this project's (before any probe).
    pub fn matches_lockfile(&self, found: &Found) -> bool {
        self.matches_project(&found.lock.project, Some(&found.path))
    }

    /// Whether `--project` names a session of the canonical `project`, announced (or
    /// to be) by `lockfile` when known: the one rule for calls, `bridge stop` and what
    /// a stopped bridge's log says, so `--project FOLDER` finds a bridge of a project
    /// directly in it (whose file seldom exists) in each.
    pub fn matches_project(&self, project: &str, lockfile: Option<&Path>) -> bool {
        project == self.canonical
            || lockfile
                .and_then(Path::file_name)
                .is_some_and(|n| n == self.file_name.as_str())
            || (self.folder && Path::new(project).parent() == Some(Path::new(&self.canonical)))
    }

    /// The files named `<hash><suffix>` in the directories `registry` searches that are
    /// of this project as [`ProjectFilter::matches_project`] takes it (for a folder, of
    /// the projects directly in it): lockfiles (`.json`), a bridge's sidecar (`.bridge`,
    /// which names the project of a bridge still starting) or log (`.bridge.log`, whose
    /// start line names it). `read` gives the project a file names, and what else its
    /// caller takes from it, given the file and the lockfile `<hash>.json` beside it
    /// (none: not one of this kind, or unreadable). The one folder scan of calls,
    /// `bridge stop` and what a stopped bridge's log says. A directory that cannot be
    /// listed is passed over and returned, for the caller to name; one that is not
    /// there has none.
    pub fn files_of<T>(
        &self,
        registry: &Registry,
        suffix: &str,
        mut read: impl FnMut(&Path, &Path) -> Option<(String, T)>,
    ) -> (Vec<OfProject<T>>, Vec<Unlisted>) {
        let extension = suffix.rsplit('.').next().unwrap_or(suffix);
        let (mut found, mut unlisted) = (Vec::new(), Vec::new());
        for dir in registry.dirs() {
            let listing = match std::fs::read_dir(dir) {
                Ok(listing) => listing,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
                Err(error) => {
                    unlisted.push(Unlisted {
                        dir: dir.to_owned(),
                        error,
                    });
                    continue;
                }
            };
            for file in mur_lockfile::files_with_extension(listing, extension) {
                let Some(hash) = (file.file_name().and_then(|name| name.to_str()))
                    .and_then(|name| name.strip_suffix(suffix))
                    .filter(|hash| !hash.is_empty())
                else {
                    continue;
                };
                let lockfile = file.with_file_name(format!("{hash}.json"));
                let Some((project, what)) = read(&file, &lockfile) else {
                    continue;
                };
                if self.matches_project(&project, Some(&lockfile)) {
                    found.push(OfProject {
                        lockfile,
                        project,
                        what,
                    });
                }
            }
        }
        (found, unlisted)
    }
}

/// A file of a project found by [`ProjectFilter::files_of`].
#[derive(Debug)]
pub struct OfProject<T> {
    /// The lockfile `<hash>.json` the file is beside (or is).
    pub lockfile: PathBuf,
    /// The canonical project the file names.
    pub project: String,
    /// What the caller read from it.
    pub what: T,
}

/// The unique usable session among `candidates`. `silent` are sessions whose process
/// runs but did not answer the probe (with why): beside one that answered, which one
/// is meant is not known (the user's own app may be the one stopped in a debugger).
/// `command`: the words after `mur devtools` to run again with `--project`, if known,
/// asked only when they are said (several sessions): not work for every call.
pub fn unique(
    candidates: Vec<Candidate>,
    silent: &[(Candidate, String)],
    project: Option<&ProjectFilter>,
    command: &dyn Fn() -> Vec<String>,
) -> Result<Candidate> {
    let meant = |c: &Candidate| project.is_none_or(|filter| filter.matches(c));
    let (http, stdio): (Vec<_>, Vec<_>) = candidates
        .into_iter()
        .filter(|c| meant(c))
        .partition(|c| c.transport == Transport::Http);
    let silent: Vec<(Candidate, String)> =
        silent.iter().filter(|(c, _)| meant(c)).cloned().collect();
    match (http.len(), stdio.first()) {
        (1, _) if silent.is_empty() => Ok(http.into_iter().next().expect("one element")),
        (0, Some(s)) => Err(stdio_refused(s)),
        (0, None) => Err(none_found(project)),
        // A folder with several projects directly in it, all answering: which one.
        _ => match project.filter(|p| p.folder && silent.is_empty()) {
            Some(folder) => Err(folder_of_several(
                &folder.canonical,
                &http.iter().collect::<Vec<_>>(),
                command,
            )),
            None => Err(ambiguous(&http, &silent, command)),
        },
    }
}

fn none_found(project: Option<&ProjectFilter>) -> Error {
    match project {
        Some(p) => Error::no_session(format!(
            "no live devtools session for project `{}`",
            p.canonical
        )),
        None => Error::no_session("no running devtools session found"),
    }
}

/// `e`, no session of `project`, with the live sessions of other projects listed.
/// When `--project` looks like a slip for one of theirs ([`nearest`]), that one is
/// offered first and the list is to choose from. A path that exists is no slip: it is
/// the project meant, whose session is not running, so it gets `not_running`'s hints
/// (start the app) and the list is only what else runs; "did you mean" the other
/// project's session there sent an agent to drive another app. So is a path whose
/// session ran (`ran`: its lockfile was just found, its process gone), though no file
/// is there (a bridge's project, the README's `/tmp/demo/App.csproj`): a note said it
/// ended, and "did you mean" another app contradicted it. A folder with the projects of
/// several sessions in it, none nearer than the others, is ambiguous ([`folder_of_several`]).
/// `not_running(e)` alone when no other session runs.
pub fn with_other_projects(
    e: Error,
    project: &ProjectFilter,
    ran: bool,
    live: &[Candidate],
    command: &dyn Fn() -> Vec<String>,
    not_running: impl FnOnce(Error) -> Error,
) -> Error {
    let mut others: Vec<&Candidate> = live
        .iter()
        .filter(|c| c.transport == Transport::Http && !project.matches(c))
        .collect();
    if others.is_empty() {
        return not_running(e);
    }
    others.sort_by(|a, b| a.project.cmp(&b.project));
    let typed = Path::new(&project.canonical);
    let exists = ran || typed.exists();
    let choose = "these sessions are of other projects: choose one with `--project PATH`";
    let or_another = |e: Error| match others.len() {
        1 => e,
        _ => e.with_hint("or choose another of those listed with `--project PATH`"),
    };
    let nearest = nearest(&project.canonical, exists, &others);
    // Two or more as near (`a/App.csproj`, `b/App.csproj` in the folder typed): "no live
    // session for `…/w`, start the app; the sessions listed are of other projects" read
    // as false twice over, and sent agents to start a third app.
    let in_folder: Vec<&Candidate> = match nearest {
        None if !ran && typed.is_dir() => others
            .iter()
            .copied()
            .filter(|c| Path::new(&c.project).starts_with(typed))
            .collect(),
        _ => Vec::new(),
    };
    if in_folder.len() > 1 {
        return folder_of_several(&project.canonical, &in_folder, command);
    }
    let listed = e.with_list(rows(&others));
    match nearest {
        // Not "of other projects": one of them is the project likely meant.
        Some(c) => or_another(listed.with_hint(format!(
            "did you mean `--project {}`?",
            mur_core::shell_word(&c.project)
        ))),
        None if exists => {
            not_running(listed).with_hint("the sessions listed are of other projects, not this one")
        }
        None => listed.with_hint(choose),
    }
}

/// The session of `others` that `--project typed` most likely meant, when one stands
/// out: in the directory typed, the nearest below it (`--project App` for
/// `App/App.csproj`); and when nothing is at `typed` (`exists` false: a slip), of the
/// same file name in a place plausibly meant ([`near_in_place`]: `App.csproj` typed
/// beside a directory of its own), else in a folder of the name typed beside the path
/// typed or a folder it is in (`--project app2` typed in `app/`, for `app2/App.csproj`),
/// else beside the file typed and of a name a slip away (`App/App.cproj` or
/// `App/App.sln` for `App/App.csproj`). A file that exists is a project of its own,
/// whatever its name; a file or folder name alone is no sign (`/nonexistent/App.csproj`
/// is none for `/home/me/work/App.csproj`, `/elsewhere/src` none for `/w/src/X.csproj`),
/// nor is being beside it (`app/app2` is none for `app/App.csproj`: the hint sent an
/// agent to drive another app). Two alike are no answer.
fn nearest<'a>(typed: &str, exists: bool, others: &[&'a Candidate]) -> Option<&'a Candidate> {
    let typed = Path::new(typed);
    let only = |found: Vec<&'a Candidate>| match found[..] {
        [one] => Some(one),
        _ => None,
    };
    let slip = |keep: &dyn Fn(&Path, &std::ffi::OsStr) -> bool| -> Vec<&'a Candidate> {
        match typed.file_name() {
            Some(name) if !exists => others
                .iter()
                .copied()
                .filter(|c| keep(Path::new(&c.project), name))
                .collect(),
            _ => Vec::new(),
        }
    };
    let same_name =
        slip(&|live, name| live.file_name() == Some(name) && near_in_place(typed, live));
    if let Some(c) = only(same_name) {
        return Some(c);
    }
    let depth = |c: &Candidate| {
        Path::new(&c.project)
            .strip_prefix(typed)
            .ok()
            .map(|below| below.components().count())
    };
    let closest = others.iter().filter_map(|&c| depth(c)).min();
    if let Some(closest) = closest {
        return only(
            others
                .iter()
                .copied()
                .filter(|&c| depth(c) == Some(closest))
                .collect(),
        );
    }
    // Near the path typed, not anywhere on disk: the folder is beside it or beside a
    // folder it is in (a folder at `/` would be beside every path).
    let in_folder = slip(&|live, name| {
        let Some(dir) = live.parent().filter(|dir| dir.file_name() == Some(name)) else {
            return false;
        };
        dir.parent()
            .is_some_and(|up| up.parent().is_some() && typed.starts_with(up))
    });
    if let Some(c) = only(in_folder) {
        return Some(c);
    }
    let beside = slip(&|live, name| {
        let (Some(file), Some(stem)) = (live.file_name(), live.file_stem()) else {
            return false;
        };
        live.parent() == typed.parent()
            && (typed.file_stem() == Some(stem)
                || mur_core::is_typo_of(&name.to_string_lossy(), &file.to_string_lossy()))
    });
    only(beside)
}

/// Whether the project file `live`, of the name of `typed` (a path with nothing at it),
/// is plausibly the one typed: below the directory typed in (`App.csproj` for
/// `b/App.csproj`), in a directory of the same name (a clone or a move: `old/app/…` for
/// `new/app/…`), or in one a slip away beside it (`c/App.csproj` for `a/App.csproj`).
fn near_in_place(typed: &Path, live: &Path) -> bool {
    fn named(file: &Path) -> Option<(&Path, String)> {
        let dir = file.parent()?;
        Some((dir, dir.file_name()?.to_string_lossy().into_owned()))
    }
    // A file typed at `/` is in no directory that says anything.
    let (Some((dir, name)), Some((live_dir, live_name))) = (named(typed), named(live)) else {
        return false;
    };
    name == live_name
        || (dir.parent() == live_dir.parent() && mur_core::is_typo_of(&name, &live_name))
        || live.starts_with(dir)
}

/// One line a session: project, endpoint and pid, the projects in one column (every list
/// of sessions under an error, `session list`'s among them).
pub fn rows(sessions: &[&Candidate]) -> Vec<String> {
    let width = sessions
        .iter()
        .map(|c| c.project.chars().count())
        .max()
        .unwrap_or(0);
    sessions
        .iter()
        .map(|c| format!("{:width$}  {}  (pid {})", c.project, c.endpoint, c.pid))
        .collect()
}

/// A stdio session's process is all there is: mur reaches it through a bridge, which
/// is a session of its own (`bridge` names it after its own `--project`).
fn stdio_refused(s: &Candidate) -> Error {
    Error::no_session(format!(
        "the session for `{}` (pid {}) uses the stdio transport, and `mur` speaks HTTP only",
        s.project, s.pid
    ))
    .with_hint(
        "reach a stdio server through a bridge, a session mur can call: \
         `mur devtools bridge --project PATH -- COMMAND…` (`session list` shows the running ones)",
    )
}

/// Several sessions and no word on which one is meant; `silent` are those whose
/// process runs but did not answer the probe (with why), which are meant no less than
/// the ones that answered: a call must not go to another app while the user's own is
/// stopped in a debugger. The hint is `command` again with `--project` of the first
/// listed, whole, to paste (when `command` is known).
fn ambiguous(
    http: &[Candidate],
    silent: &[(Candidate, String)],
    command: &dyn Fn() -> Vec<String>,
) -> Error {
    let message = if silent.is_empty() {
        format!(
            "{} live devtools sessions found; which one is meant?",
            http.len()
        )
    } else {
        format!(
            "{} devtools sessions found, {} of them not answering; which one is meant?",
            http.len() + silent.len(),
            silent.len()
        )
    };
    // By project: the directory's order (of hashes) means nothing to a reader.
    let mut answering: Vec<&Candidate> = http.iter().collect();
    answering.sort_by(|a, b| a.project.cmp(&b.project));
    let rows = answering.into_iter().map(|c| (c, String::new())).chain(
        silent
            .iter()
            .map(|(c, why)| (c, format!("; runs but {why}"))),
    );
    let width = http
        .iter()
        .chain(silent.iter().map(|(c, _)| c))
        .map(|c| c.project.chars().count())
        .max()
        .unwrap_or(0);
    let rows: Vec<(&Candidate, String)> = rows.collect();
    let choice = SessionChoice {
        choose: "choose one with `--project PATH` or `--endpoint URL`".to_owned(),
        sessions: rows
            .iter()
            .map(|(c, note)| c.listed(note.is_empty()))
            .collect(),
        command: command(),
    };
    let list = rows
        .into_iter()
        .map(|(c, note)| {
            format!(
                "{:width$}  {}  (pid {}{note})",
                c.project, c.endpoint, c.pid
            )
        })
        .collect();
    let error = Error::usage(message)
        .with_list(list)
        .with_hint(with_the_first(&choice))
        .with_session_choice(choice)
        .about_session();
    match silent.first() {
        Some((c, _)) => error.with_hint(format!(
            "is it stopped in a debugger or overloaded? `kill -CONT {}` resumes a stopped process",
            c.pid
        )),
        None => error,
    }
}

/// `--project FOLDER` with the projects of several sessions in it, none nearer than the
/// others (`sessions`, at any depth below it): which one is meant is not known, as with
/// several sessions and no `--project` (exit 1, the sessions listed to choose from, the
/// command again for the first), not "no session" (exit 4: start the app).
fn folder_of_several(
    folder: &str,
    sessions: &[&Candidate],
    command: &dyn Fn() -> Vec<String>,
) -> Error {
    let mut sessions = sessions.to_vec();
    sessions.sort_by(|a, b| a.project.cmp(&b.project));
    let choice = SessionChoice {
        choose: "a project is named by its file: choose one with `--project PATH`".to_owned(),
        sessions: sessions.iter().map(|c| c.listed(true)).collect(),
        command: without_project(command()),
    };
    Error::usage(format!(
        "`{folder}` is a folder with the projects of {} live devtools sessions in it; which \
         one is meant?",
        sessions.len()
    ))
    .with_list(rows(&sessions))
    .with_hint(with_the_first(&choice))
    .with_session_choice(choice)
    .about_session()
}

/// `command` without the `--project` it was typed with (`--project P`, `--project=P`;
/// none after `--`, which are a server's words): the command again names the project
/// chosen instead, and the host refuses an option given twice.
fn without_project(command: Vec<String>) -> Vec<String> {
    let (options, end) = mur_core::until_end_of_options(&command);
    let mut kept = Vec::with_capacity(command.len());
    let mut words = options.iter();
    while let Some(word) = words.next() {
        if word == "--project" {
            words.next();
        } else if !word.starts_with("--project=") {
            kept.push(word.clone());
        }
    }
    kept.extend(end.iter().cloned());
    kept
}

/// `choice.choose`, then its command again for the first session listed ([`again`]);
/// `choose` alone when the command is not known.
pub fn with_the_first(choice: &SessionChoice) -> String {
    match choice
        .sessions
        .first()
        .and_then(|first| again(choice, first))
    {
        Some(again) => format!("{}; for the first: `{again}`", choice.choose),
        None => choice.choose.clone(),
    }
}

/// `choice`'s command again (the words after `mur devtools`) to paste, with `--project`
/// of `chosen`, or its `--endpoint` when another listed is of its project too (one
/// announced where another writer of the contract does,
/// [`mur_lockfile::paths::lockfile_dirs`]: `--project` picks neither); none when the
/// command is not known.
pub fn again(choice: &SessionChoice, chosen: &ListedSession) -> Option<String> {
    if choice.command.is_empty() {
        return None;
    }
    let shared = choice
        .sessions
        .iter()
        .filter(|c| c.project == chosen.project);
    let picked = match shared.count() {
        0 | 1 => ["--project", chosen.project.as_str()],
        _ => ["--endpoint", chosen.endpoint.as_str()],
    };
    let words = ["mur", "devtools"]
        .into_iter()
        .chain(picked)
        .chain(choice.command.iter().map(String::as_str));
    let again: Vec<String> = words.map(mur_core::shell_word).collect();
    Some(again.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(project: &str, port: u16, transport: Transport) -> Candidate {
        Candidate {
            endpoint: format!("http://127.0.0.1:{port}/mcp"),
            project: project.into(),
            pid: 1,
            transport,
            build_tag: String::new(),
            started_at: String::new(),
            lockfile: None,
        }
    }

    #[test]
    fn one_http_session_is_chosen_over_a_stdio_one() {
        let all = vec![
            candidate("/a", 1, Transport::Stdio),
            candidate("/b", 2, Transport::Http),
        ];
        assert_eq!(
            unique(all, &[], None, &Vec::new).expect("one").project,
            "/b"
        );
    }

    #[test]
    fn several_sessions_are_a_usage_error_listing_each() {
        let all = vec![
            candidate("/a", 1, Transport::Http),
            candidate("/b/cd", 2, Transport::Http),
        ];
        let err = unique(all, &[], None, &Vec::new).expect_err("ambiguous");
        assert_eq!(err.exit_code(), 1);
        assert_eq!(
            err.message(),
            "2 live devtools sessions found; which one is meant?"
        );
        assert_eq!(
            err.list(),
            [
                "/a     http://127.0.0.1:1/mcp  (pid 1)",
                "/b/cd  http://127.0.0.1:2/mcp  (pid 1)"
            ]
        );
    }

    /// The command the user ran, known to the binary, comes back whole to paste, with
    /// `--project` of the first session listed.
    #[test]
    fn several_sessions_are_told_the_command_again_with_the_first_ones_project() {
        let all = || {
            vec![
                candidate("/b/App.csproj", 2, Transport::Http),
                candidate("/a dir/App.csproj", 1, Transport::Http),
            ]
        };
        let command: Vec<String> = ["--pretty", "state", "--selector", "#count"]
            .map(String::from)
            .to_vec();
        let err = unique(all(), &[], None, &|| command.clone()).expect_err("ambiguous");
        assert_eq!(
            err.hints(),
            [
                "choose one with `--project PATH` or `--endpoint URL`; for the first: \
                 `mur devtools --project '/a dir/App.csproj' --pretty state --selector '#count'`"
            ]
        );
        let unknown = unique(all(), &[], None, &Vec::new).expect_err("ambiguous");
        assert_eq!(
            unknown.hints(),
            ["choose one with `--project PATH` or `--endpoint URL`"]
        );
        // What the hint says is data too, for a caller that knows which one is meant.
        let choice = err.session_choice().expect("the sessions to choose from");
        let listed: Vec<(&str, &str)> = (choice.sessions.iter())
            .map(|c| (c.project.as_str(), c.identity.as_str()))
            .collect();
        assert_eq!(
            listed,
            [("/a dir/App.csproj", "1  "), ("/b/App.csproj", "1  ")]
        );
        assert_eq!(choice.command, command);
        assert_eq!(
            again(choice, &choice.sessions[1]).as_deref(),
            Some("mur devtools --project /b/App.csproj --pretty state --selector '#count'")
        );
        assert_eq!(with_the_first(choice), err.hints()[0]);
    }

    /// Two sessions of one project (an older writer's in the directory it knows, a newer
    /// one's in the login's): the command again names the first one's endpoint, as its
    /// project would pick neither.
    #[test]
    fn two_sessions_of_one_project_are_told_the_command_again_with_the_first_ones_endpoint() {
        let all = vec![
            candidate("/a/App.csproj", 2, Transport::Http),
            candidate("/a/App.csproj", 1, Transport::Http),
        ];
        let command = || vec!["state".to_owned()];
        let err = unique(all, &[], None, &command).expect_err("ambiguous");
        assert_eq!(err.exit_code(), 1);
        assert_eq!(
            err.hints(),
            [
                "choose one with `--project PATH` or `--endpoint URL`; for the first: \
                 `mur devtools --endpoint http://127.0.0.1:2/mcp state`"
            ]
        );
        let choice = err.session_choice().expect("the sessions to choose from");
        assert_eq!(
            again(choice, &choice.sessions[1]).as_deref(),
            Some("mur devtools --endpoint http://127.0.0.1:1/mcp state")
        );
    }

    #[test]
    fn a_session_that_did_not_answer_is_among_those_to_choose_from() {
        let live = [candidate("/a", 1, Transport::Http)];
        let silent = [(
            candidate("/b", 2, Transport::Http),
            "did not answer the probe within 1500 ms".to_owned(),
        )];
        let err = unique(live.to_vec(), &silent, None, &Vec::new).expect_err("ambiguous");
        assert_eq!(err.exit_code(), 1);
        assert_eq!(
            err.message(),
            "2 devtools sessions found, 1 of them not answering; which one is meant?"
        );
        assert_eq!(
            err.list(),
            [
                "/a  http://127.0.0.1:1/mcp  (pid 1)",
                "/b  http://127.0.0.1:2/mcp  (pid 1; runs but did not answer the probe within 1500 ms)"
            ]
        );
        assert!(err.is_about_session());
        let answering: Vec<bool> = (err.session_choice().expect("listed").sessions.iter())
            .map(|c| c.answering)
            .collect();
        assert_eq!(answering, [true, false]);
    }

    #[test]
    fn the_project_likely_meant_has_the_name_typed_or_is_in_the_directory_or_beside_the_file() {
        let all = [
            candidate("/w/a/App.csproj", 1, Transport::Http),
            candidate("/w/b/Other.csproj", 2, Transport::Http),
            candidate("/w/b/deep/x/Deep.csproj", 3, Transport::Http),
        ];
        let others: Vec<&Candidate> = all.iter().collect();
        let meant = |typed: &str| nearest(typed, false, &others).map(|c| c.project.as_str());
        // Of the name typed: below the directory typed in, in a directory of the same
        // name, or one a slip away beside it; a name alone elsewhere is no sign.
        assert_eq!(meant("/w/Other.csproj"), Some("/w/b/Other.csproj"));
        assert_eq!(meant("/old/b/Other.csproj"), Some("/w/b/Other.csproj"));
        assert_eq!(meant("/w/v/Other.csproj"), Some("/w/b/Other.csproj"));
        assert_eq!(meant("/elsewhere/Other.csproj"), None);
        assert_eq!(meant("/nonexistent/App.csproj"), None);
        assert_eq!(meant("/x/vv/Other.csproj"), None);
        assert_eq!(meant("/Other.csproj"), None);
        assert_eq!(meant("/w/a"), Some("/w/a/App.csproj"));
        // The nearest below the directory; two as near are no answer.
        assert_eq!(meant("/w/b"), Some("/w/b/Other.csproj"));
        assert_eq!(meant("/w"), None);
        assert_eq!(meant("/w/a/App.sln"), Some("/w/a/App.csproj"));
        assert_eq!(meant("/w/a/App.cproj"), Some("/w/a/App.csproj"));
        assert_eq!(meant("/nowhere/X.csproj"), None);
        // Beside a project is no sign of it: `app2` typed in `a/` is not `a`'s project
        // (user audit AU11 2), but that of a folder of the name typed, when one is.
        assert_eq!(meant("/w/a/b"), Some("/w/b/Other.csproj"));
        assert_eq!(meant("/w/a/app2"), None);
        assert_eq!(meant("/w/a/Oth.csproj"), None);
        assert_eq!(meant("/w/b/deep/src/x"), Some("/w/b/deep/x/Deep.csproj"));
        // A folder's name alone, far from the path typed, is no sign (reviewer RV1 F2).
        assert_eq!(meant("/elsewhere/x"), None);
        assert_eq!(meant("/w/x"), None);
    }

    /// A path that exists is the project meant, not a slip for another of its name or
    /// beside it; a directory still names the project in it.
    #[test]
    fn a_project_file_that_exists_is_no_slip_for_another() {
        let all = [
            candidate("/w/a/App.csproj", 1, Transport::Http),
            candidate("/w/b/Other.csproj", 2, Transport::Http),
        ];
        let others: Vec<&Candidate> = all.iter().collect();
        let meant = |typed: &str| nearest(typed, true, &others).map(|c| c.project.as_str());
        assert_eq!(meant("/w/c/App.csproj"), None);
        assert_eq!(meant("/w/a/App.sln"), None);
        assert_eq!(meant("/w/a"), Some("/w/a/App.csproj"));
    }

    /// `--project FOLDER` with two projects as near in it (and one deeper, and one
    /// elsewhere): which one is meant is asked, those in the folder listed (exit 1), as
    /// with several sessions and no `--project`; not "no session, start the app".
    #[test]
    fn a_folder_with_several_projects_as_near_in_it_asks_which_one_is_meant() {
        let dir = tempfile::tempdir().expect("tempdir");
        let filter = ProjectFilter::new(dir.path()).expect("filter");
        let folder = filter.canonical().to_owned();
        let all = [
            candidate(&format!("{folder}/b/App.csproj"), 2, Transport::Http),
            candidate("/elsewhere/X.csproj", 3, Transport::Http),
            candidate(&format!("{folder}/a/App.csproj"), 1, Transport::Http),
            candidate(&format!("{folder}/a/x/y/Deep.csproj"), 4, Transport::Http),
        ];
        let none = || Error::no_session(format!("no live devtools session for `{folder}`"));
        // The command again names the project chosen, not the folder typed too.
        let command = || {
            [
                "--project=.",
                "--pretty",
                "state",
                "--project",
                "w",
                "--",
                "--project",
            ]
            .map(String::from)
            .to_vec()
        };
        let err = with_other_projects(none(), &filter, false, &all, &command, |e| e);
        assert_eq!(err.exit_code(), 1);
        assert!(err.is_about_session());
        assert_eq!(
            err.message(),
            format!(
                "`{folder}` is a folder with the projects of 3 live devtools sessions in it; \
                 which one is meant?"
            )
        );
        let width = format!("{folder}/a/x/y/Deep.csproj").len();
        let row = |project: &str, port: u16| {
            format!(
                "{:width$}  http://127.0.0.1:{port}/mcp  (pid 1)",
                format!("{folder}/{project}")
            )
        };
        assert_eq!(
            err.list(),
            [
                row("a/App.csproj", 1),
                row("a/x/y/Deep.csproj", 4),
                row("b/App.csproj", 2)
            ]
        );
        assert_eq!(
            err.hints(),
            [format!(
                "a project is named by its file: choose one with `--project PATH`; for the \
                 first: `mur devtools --project {folder}/a/App.csproj --pretty state -- \
                 --project`"
            )]
        );
        let choice = err.session_choice().expect("the sessions to choose from");
        assert_eq!(choice.command, ["--pretty", "state", "--", "--project"]);
        assert_eq!(choice.sessions.len(), 3);
        // A session of the folder itself just ended: it is the one meant, not running.
        let ran = with_other_projects(none(), &filter, true, &all, &command, |e| e);
        assert_eq!(ran.exit_code(), 4);
        // One nearest is the one likely meant, as before.
        let one = with_other_projects(none(), &filter, false, &all[1..], &command, |e| e);
        assert_eq!(one.exit_code(), 4);
        assert_eq!(
            one.hints()[0],
            format!("did you mean `--project {folder}/a/App.csproj`?")
        );
    }

    /// `--project FOLDER` is the project directly in it, as `dotnet run --project FOLDER`
    /// takes the project file there: one is chosen; two are asked about (exit 1), the
    /// command again without the folder; one deeper down is not the folder's (it said
    /// "`…` is a folder; a project is named by its file" and exited 4 for the one the
    /// folder plainly named).
    #[test]
    fn a_folder_is_the_project_directly_in_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let filter = ProjectFilter::new(dir.path()).expect("filter");
        let folder = filter.canonical().to_owned();
        let app = candidate(&format!("{folder}/App.csproj"), 1, Transport::Http);
        let deeper = candidate(&format!("{folder}/tools/H.csproj"), 2, Transport::Http);
        let elsewhere = candidate("/elsewhere/App.csproj", 3, Transport::Http);
        let command = || ["--project", ".", "state"].map(String::from).to_vec();
        let all = vec![deeper.clone(), app.clone(), elsewhere.clone()];
        let chosen = unique(all, &[], Some(&filter), &command).expect("the folder's project");
        assert_eq!(chosen.endpoint, app.endpoint);

        let err = unique(vec![deeper, elsewhere], &[], Some(&filter), &command)
            .expect_err("no project directly in the folder");
        assert_eq!(err.exit_code(), 4);

        let other = candidate(&format!("{folder}/Other.csproj"), 4, Transport::Http);
        let err = unique(vec![other, app], &[], Some(&filter), &command).expect_err("two");
        assert_eq!(err.exit_code(), 1);
        assert_eq!(
            err.message(),
            format!(
                "`{folder}` is a folder with the projects of 2 live devtools sessions in it; \
                 which one is meant?"
            )
        );
        assert_eq!(
            err.hints(),
            [format!(
                "a project is named by its file: choose one with `--project PATH`; for the \
                 first: `mur devtools --project {folder}/App.csproj state`"
            )]
        );
    }

    /// A folder's files of one kind, in every directory searched: each by the lockfile
    /// it is beside and the project `read` gives it, kept when that project is the
    /// folder's; a directory that is not there has none, and one that cannot be listed is
    /// returned, the others' files found all the same.
    #[test]
    fn a_folders_files_are_found_beside_their_lockfiles_in_every_directory_listed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let filter = ProjectFilter::new(dir.path()).expect("filter");
        let folder = filter.canonical().to_owned();
        let (listed, missing, file) = (
            dir.path().join("listed"),
            dir.path().join("missing"),
            dir.path().join("a-file"),
        );
        std::fs::create_dir(&listed).expect("dir");
        std::fs::write(&file, "").expect("file");
        for (name, project) in [
            ("aa.bridge.log", format!("{folder}/A.csproj")),
            ("bb.bridge.log", "/elsewhere/B.csproj".to_owned()),
            ("cc.bridge", format!("{folder}/C.csproj")),
        ] {
            std::fs::write(listed.join(name), project).expect("file");
        }
        let registry = Registry::searching(vec![listed.clone(), missing, file.clone()]);
        let (found, unlisted) = filter.files_of(&registry, ".bridge.log", |log, lockfile| {
            Some((std::fs::read_to_string(log).ok()?, lockfile.to_owned()))
        });
        let found: Vec<(PathBuf, String, PathBuf)> = found
            .into_iter()
            .map(|of| (of.lockfile, of.project, of.what))
            .collect();
        assert_eq!(
            found,
            [(
                listed.join("aa.json"),
                format!("{folder}/A.csproj"),
                listed.join("aa.json")
            )]
        );
        assert_eq!(
            unlisted.iter().map(|not| &not.dir).collect::<Vec<_>>(),
            [&file]
        );
    }

    #[test]
    fn a_lone_stdio_session_is_refused() {
        let err = unique(
            vec![candidate("/a", 0, Transport::Stdio)],
            &[],
            None,
            &Vec::new,
        )
        .expect_err("stdio");
        assert_eq!(err.exit_code(), 4);
        assert!(err.message().contains("stdio"));
    }

    #[test]
    fn the_project_filter_picks_by_canonical_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("App.csproj");
        std::fs::write(&file, "").expect("write");
        let filter = ProjectFilter::new(&file).expect("filter");
        let canonical = paths::canonical_project(&file).expect("canonical");
        let all = vec![
            candidate("/other", 1, Transport::Http),
            candidate(&canonical, 2, Transport::Http),
        ];
        assert_eq!(
            unique(all, &[], Some(&filter), &Vec::new)
                .expect("match")
                .endpoint,
            "http://127.0.0.1:2/mcp"
        );
        let err = unique(
            vec![candidate("/other", 1, Transport::Http)],
            &[],
            Some(&filter),
            &Vec::new,
        )
        .expect_err("none");
        assert_eq!(err.exit_code(), 4);
    }
}
