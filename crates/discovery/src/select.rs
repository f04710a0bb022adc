//! Picking the one session a call goes to: `--project` narrows the field;
//! stdio sessions are refused (mur speaks HTTP); several left is ambiguous.
//!
//! Ambiguity exits 1 (usage): nothing is wrong with any session, the command
//! line just does not say which one is meant; `--project PATH` or
//! `--endpoint URL` fixes it.

use std::path::{Path, PathBuf};

use mur_lockfile::{Transport, paths};

use crate::lockfiles::Found;
use mur_core::{Error, Result};

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
}

/// `--project PATH`, canonicalized and hashed as the server does.
#[derive(Debug, Clone)]
pub struct ProjectFilter {
    canonical: String,
    file_name: String,
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
        Ok(Self {
            canonical,
            file_name,
        })
    }

    pub fn matches(&self, c: &Candidate) -> bool {
        c.project == self.canonical
            || c.lockfile
                .as_deref()
                .and_then(Path::file_name)
                .is_some_and(|n| n == self.file_name.as_str())
    }
}

/// The unique usable session among `candidates`.
pub fn unique(candidates: Vec<Candidate>, project: Option<&ProjectFilter>) -> Result<Candidate> {
    let wanted: Vec<Candidate> = match project {
        Some(filter) => candidates
            .into_iter()
            .filter(|c| filter.matches(c))
            .collect(),
        None => candidates,
    };
    let (http, stdio): (Vec<_>, Vec<_>) = wanted
        .into_iter()
        .partition(|c| c.transport == Transport::Http);
    match (http.len(), stdio.first()) {
        (1, _) => Ok(http.into_iter().next().expect("one element")),
        (0, Some(s)) => Err(stdio_refused(s)),
        (0, None) => Err(none_found(project)),
        _ => Err(ambiguous(&http)),
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

fn stdio_refused(s: &Candidate) -> Error {
    Error::no_session(format!(
        "the session for `{}` (pid {}) uses the stdio transport, and `mur` speaks HTTP only",
        s.project, s.pid
    ))
    .with_hint("start the app with its devtools server on HTTP")
}

fn ambiguous(http: &[Candidate]) -> Error {
    let mut message = format!(
        "{} live devtools sessions found; which one is meant?",
        http.len()
    );
    for c in http {
        message.push_str(&format!(
            "\n  {}  {}  (pid {})",
            c.project, c.endpoint, c.pid
        ));
    }
    Error::usage(message).with_hint("choose one with `--project PATH` or `--endpoint URL`")
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
        assert_eq!(unique(all, None).expect("one").project, "/b");
    }

    #[test]
    fn several_sessions_are_a_usage_error_listing_each() {
        let all = vec![
            candidate("/a", 1, Transport::Http),
            candidate("/b", 2, Transport::Http),
        ];
        let err = unique(all, None).expect_err("ambiguous");
        assert_eq!(err.exit_code(), 1);
        assert!(err.message().contains("/a  http://127.0.0.1:1/mcp"));
        assert!(err.message().contains("/b  http://127.0.0.1:2/mcp"));
    }

    #[test]
    fn a_lone_stdio_session_is_refused() {
        let err = unique(vec![candidate("/a", 0, Transport::Stdio)], None).expect_err("stdio");
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
            unique(all, Some(&filter)).expect("match").endpoint,
            "http://127.0.0.1:2/mcp"
        );
        let err =
            unique(vec![candidate("/other", 1, Transport::Http)], Some(&filter)).expect_err("none");
        assert_eq!(err.exit_code(), 4);
    }
}
