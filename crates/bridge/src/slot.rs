//! The project's slot, which both starts claim — a background start for the bridge it
//! then starts, and a bridge in the foreground — saying so while a session still
//! starting holds it ([`Waiting`]); and a claim refused as mur reports it
//! ([`serve_error`]), the hint naming `bridge stop` where a bridge holds the slot.

use std::{path::Path, time::Duration};

use mur_core::{Error, Kind};
use mur_server::{ServeError, endpoint::Claimed};

/// How long a start may take before the caller hears what it waits for: a
/// server fetched by `npx` takes seconds, one that never answers a minute.
pub const SLOW_START: Duration = Duration::from_secs(2);

/// What a start that has not returned yet says while it waits ([`crate::start`]; a
/// bridge in the foreground, [`crate::run`], says only [`Waiting::SlotHeld`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting<'a> {
    /// Not announced after [`SLOW_START`]: the bridge's log, where it says why.
    Slow(&'a Path),
    /// Then, if so, the bridge's note that its server wrote to its stdout what is not
    /// JSON-RPC and has not answered `initialize` (the cause, likely, of a server that
    /// never will), as the log has it; the bridge waits on.
    NotJsonRpc(&'a str),
    /// Before any of those, when the project's slot is still held after [`SLOW_START`]
    /// by a session that has not announced itself (another bridge starting): the start
    /// waits for it at most `at_most`, then is refused (exit 3) unless the slot is let go.
    SlotHeld { at_most: Duration },
}

/// Claims the slot of `project` (`build_tag`: the lockfile's); `waiting` is told
/// ([`Waiting::SlotHeld`]) when that takes longer than [`SLOW_START`]: the slot is held
/// by a session still starting, and the start would otherwise say nothing for seconds
/// before it is refused. Both starts claim so: a background start before it starts its
/// bridge, and the bridge in the foreground ([`crate::run`]), whose own lines are held
/// for its log meanwhile and so say nothing of the wait.
pub(crate) async fn claim(
    project: &Path,
    build_tag: impl Into<String>,
    waiting: &mut impl FnMut(Waiting<'_>),
) -> std::result::Result<Claimed, mur_server::ServeError> {
    // The slot of the project a session started with `project` is for, as an app's
    // session claims it: a folder's one project file is the project, not the folder.
    let project = mur_lockfile::paths::project_file(project);
    let claiming = mur_server::endpoint::claim(&project, build_tag);
    tokio::pin!(claiming);
    tokio::select! {
        claimed = &mut claiming => claimed,
        () = tokio::time::sleep(SLOW_START) => {
            waiting(Waiting::SlotHeld { at_most: mur_server::endpoint::SLOT_WAIT });
            claiming.await
        }
    }
}

/// A session-side failure as mur reports it: another session for `project`
/// (as the user named it) is exit 3, its hint how to stop it — `bridge stop`
/// for a bridge; an app's own session is the app's to stop.
pub(crate) fn serve_error(error: ServeError, project: &Path) -> Error {
    match error {
        ServeError::AlreadyActive { endpoint, pid } => Error::new(
            Kind::SessionActive,
            format!("another session for this project is active at {endpoint} (pid {pid})"),
        )
        .with_hint(if is_bridge(project, pid) {
            format!("stop it first with {}", bridge_stop(project))
        } else {
            format!(
                "it is an app's own session (pid {pid}), which `bridge stop` leaves alone: stop the app first"
            )
        }),
        ServeError::SlotBusy { .. } => {
            let starting = is_bridge_starting(project);
            // The session library's words end "; stop it first.": the hint says how.
            let message = error.to_string();
            Error::new(
                Kind::SessionActive,
                message.trim_end_matches("; stop it first.").to_owned(),
            )
            .with_hint(match starting {
                true => format!(
                    "stop it first with {}, or try again once it has announced itself",
                    bridge_stop(project)
                ),
                false => "stop it first, or try again once it has announced itself".to_owned(),
            })
        }
        ServeError::Project { .. } => Error::usage(error.to_string()),
        _ => Error::internal(error.to_string()),
    }
}

/// The canonical project a bridge started with `project` (as the user named it)
/// announces, as [`claim`] claims its slot and `bridge stop` hashes it: a folder holding
/// one project file is that file ([`mur_lockfile::paths::project_file`]), as an app's
/// session and discovery take it, so `--project DIR` and `--project DIR/App.csproj` name
/// one bridge.
pub(crate) fn canonical_project(project: &Path) -> std::io::Result<String> {
    mur_lockfile::paths::canonical_project(&mur_lockfile::paths::project_file(project))
}

/// The command that stops the bridge of `project` (as the user named it), quoted.
fn bridge_stop(project: &Path) -> String {
    format!(
        "`mur devtools bridge stop --project {}`",
        mur_core::shell_word(&project.to_string_lossy())
    )
}

/// Whether what holds the slot of `project`, not announced yet, is a bridge still
/// starting its server (its sidecar names its running pid), which `bridge stop` stops.
fn is_bridge_starting(project: &Path) -> bool {
    let Ok(canonical) = canonical_project(project) else {
        return false;
    };
    let registry = mur_lockfile::Registry::default_location();
    crate::files::starting(&registry.path_for(&canonical)).is_some()
}

/// Whether the session holding `project` (process `pid`) is a bridge.
fn is_bridge(project: &Path, pid: u32) -> bool {
    let Ok(canonical) = canonical_project(project) else {
        return false;
    };
    let registry = mur_lockfile::Registry::default_location();
    let path = registry.path_for(&canonical);
    match registry.read(&path) {
        mur_lockfile::ReadOutcome::Valid(lock) => {
            lock.pid == pid && crate::files::bridge_of(&path, &lock).is_some()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slot held by a session still starting is exit 3, its words the session
    /// library's without their "; stop it first." (the hint says how), none left dangling.
    #[test]
    fn a_slot_held_by_a_session_starting_is_refused_in_one_clean_line() {
        let lock = std::path::PathBuf::from("/run/reactor-devtools/0123456789abcdef.lock");
        let e = serve_error(
            ServeError::SlotBusy { lock },
            Path::new("/no/such/dir/App.csproj"),
        );
        assert_eq!(e.exit_code(), 3);
        assert_eq!(
            (e.message(), e.hints()),
            (
                "another session for this project is starting (it holds \
                 `/run/reactor-devtools/0123456789abcdef.lock`) and has not announced itself",
                &["stop it first, or try again once it has announced itself".to_owned()][..]
            )
        );
    }
}
