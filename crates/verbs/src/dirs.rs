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

use std::path::PathBuf;

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
        match (verbs, cache) {
            (Some(verbs), Some(cache)) => Ok(Self { verbs, cache }),
            // Its own directory, as for the usage log: mur's failure to place it (exit 7).
            _ => Err(VerbError::internal_with_hint(
                "cannot find a home directory for the verb directory",
                "set `XDG_DATA_HOME` and `XDG_CACHE_HOME` (or `HOME`)",
            )),
        }
    }
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
