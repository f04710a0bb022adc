//! Where installed verbs and their compiled code live.
//!
//! | platform | verbs | compiled-code cache |
//! |---|---|---|
//! | any, when set | `$XDG_DATA_HOME/mur/verbs` | `$XDG_CACHE_HOME/mur/verbs` |
//! | Linux, other Unix | `~/.local/share/mur/verbs` | `~/.cache/mur/verbs` |
//! | macOS | `~/Library/Application Support/mur/verbs` | `~/Library/Caches/mur/verbs` |
//! | Windows | `%APPDATA%\mur\verbs` | `%LOCALAPPDATA%\mur\verbs` |
//!
//! The XDG variables win everywhere so tests and users can relocate both.

use std::path::{Path, PathBuf};

use super::error::VerbError;

/// The verb directory and the compile-cache directory.
#[derive(Debug, Clone)]
pub struct VerbDirs {
    pub verbs: PathBuf,
    pub cache: PathBuf,
}

impl VerbDirs {
    /// Resolve both directories from the environment; creates nothing.
    pub fn from_env() -> Result<Self, VerbError> {
        let verbs = xdg("XDG_DATA_HOME")
            .or_else(platform_data)
            .map(|d| d.join("mur").join("verbs"));
        let cache = xdg("XDG_CACHE_HOME")
            .or_else(platform_cache)
            .map(|d| d.join("mur").join("verbs"));
        // Its own directory, as for the usage log: mur's failure to place it (exit 7),
        // naming the one it cannot place and the variable that would (with one of the
        // two set, "the verb directory" and both variables named the one that was).
        let (what, set) = match (verbs, cache) {
            (Some(verbs), Some(cache)) => return Ok(Self { verbs, cache }),
            (None, None) => ("the verb directory", "`XDG_DATA_HOME` and `XDG_CACHE_HOME`"),
            (None, Some(_)) => ("the verb directory", "`XDG_DATA_HOME`"),
            (Some(_), None) => ("the verbs' compiled-code cache", "`XDG_CACHE_HOME`"),
        };
        Err(VerbError::internal_with_hint(
            format!("cannot find a home directory for {what}"),
            format!("set {set} (or `HOME`)"),
        ))
    }
}

/// Why `path`, in the verb directory, cannot be read or written when a part of its
/// path is a file where a directory must be (`XDG_DATA_HOME` set to a file): that, said
/// as such, where "Not a directory" and a hint to remove `…/afile/mur/verbs/index.json`
/// named a file that cannot exist. `None` when no part of it is a file. Asked only once
/// something failed: it costs a look at each part.
pub(crate) fn file_in_the_way(path: &Path) -> Option<VerbError> {
    let file = path
        .ancestors()
        .skip(1)
        .find(|part| std::fs::metadata(part).is_ok_and(|m| !m.is_dir()))?;
    let shown = file.display();
    Some(match xdg("XDG_DATA_HOME") {
        Some(set) if set == file => VerbError::internal_with_hint(
            format!(
                "`XDG_DATA_HOME` is `{shown}`, a file: mur keeps its verbs in a directory under \
                 it (`$XDG_DATA_HOME/mur/verbs`)"
            ),
            "set `XDG_DATA_HOME` to a directory, or unset it",
        ),
        _ => VerbError::internal_with_hint(
            format!("the verb directory cannot be used: `{shown}` is a file, not a directory"),
            format!("move `{shown}` out of the way"),
        ),
    })
}

/// An XDG variable counts only when it is an absolute path, as the spec says.
fn xdg(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}

#[cfg(not(windows))]
fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}

#[cfg(windows)]
fn platform_data() -> Option<PathBuf> {
    std::env::var_os("APPDATA").map(PathBuf::from)
}

#[cfg(windows)]
fn platform_cache() -> Option<PathBuf> {
    std::env::var_os("LOCALAPPDATA").map(PathBuf::from)
}

#[cfg(target_os = "macos")]
fn platform_data() -> Option<PathBuf> {
    home().map(|h| h.join("Library").join("Application Support"))
}

#[cfg(target_os = "macos")]
fn platform_cache() -> Option<PathBuf> {
    home().map(|h| h.join("Library").join("Caches"))
}

#[cfg(not(any(windows, target_os = "macos")))]
fn platform_data() -> Option<PathBuf> {
    home().map(|h| h.join(".local").join("share"))
}

#[cfg(not(any(windows, target_os = "macos")))]
fn platform_cache() -> Option<PathBuf> {
    home().map(|h| h.join(".cache"))
}
