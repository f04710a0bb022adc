//! Where mur-eval finds the programs it runs (`mur`, `mur-sample`, `mur-eval-capture`):
//! as named, else beside mur-eval itself (a cargo build puts them together), else on
//! `PATH`.

use std::path::PathBuf;

use mur_core::{Error, Result};

/// The executable `name`: as given, else beside this one (a cargo build puts them
/// together), else the first on `PATH`.
pub fn binary(given: Option<PathBuf>, name: &str, flag: &str) -> Result<PathBuf> {
    let found = match given {
        Some(path) => Some(path).filter(|p| p.is_file()),
        None => beside_me(name).or_else(|| on_path(name)),
    };
    let found = found.ok_or_else(|| {
        Error::usage(format!("cannot find `{name}`")).with_hint(format!(
            "build it (`cargo build -p {name}`) or name it with `{flag} PATH`"
        ))
    })?;
    std::path::absolute(&found)
        .map_err(|e| Error::usage(format!("cannot resolve `{}`: {e}", found.display())))
}

/// `mur-eval-capture`, beside this program: the `mur` a study's cli conditions put on
/// the agent's `PATH` runs through it. Not found, mur-eval is not whole (exit 7), said
/// with where it looked.
pub fn capture() -> Result<PathBuf> {
    const NAME: &str = "mur-eval-capture";
    beside_me(NAME).ok_or_else(|| {
        let looked = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(|dir| format!(" in `{}`", dir.display())))
            .unwrap_or_default();
        Error::internal(format!(
            "cannot find `{NAME}`{looked}, beside `mur-eval`: the `mur` of a cli condition runs through it"
        ))
        .with_hint("build both: `cargo build -p mur-eval`")
    })
}

pub fn beside_me(name: &str) -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.join(name)).filter(|p| p.is_file())
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}
