//! The profiles and what each puts within the agent's reach. CLI-only: `mur` with a
//! verb set on `PATH`, no MCP configuration. MCP-only: an MCP client configuration
//! (`.mcp.json`, the common `mcpServers` shape) naming the session, and no `mur` on `PATH`.
//! Both: the two at once, for the agent to pick from (seed 000 §13, "unprompted agent
//! preference"). Every directory of the inherited `PATH` that holds a `mur` is left out
//! (with a warning), so the only `mur` an agent can find is the one its profile gives it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use mur_core::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::compiled::{self, Installed};
use crate::tree::create_dir;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// `mur` and its verbs on `PATH`; no MCP configuration
    Cli,
    /// An MCP client configuration naming the session; no `mur` on `PATH`
    Mcp,
    /// `mur` and its verbs on `PATH`, and the MCP client configuration, for the agent to
    /// pick from
    Both,
}

impl Profile {
    pub fn name(self) -> &'static str {
        match self {
            Profile::Cli => "cli",
            Profile::Mcp => "mcp",
            Profile::Both => "both",
        }
    }

    /// `mur` and its verbs are on the agent's `PATH`.
    pub fn gives_cli(self) -> bool {
        matches!(self, Profile::Cli | Profile::Both)
    }

    /// The agent gets an MCP client configuration naming the session.
    pub fn gives_mcp(self) -> bool {
        matches!(self, Profile::Mcp | Profile::Both)
    }
}

/// The name of the MCP configuration file written into the agent's working directory
/// (where MCP clients that read a project file look for it).
pub const MCP_CONFIG: &str = ".mcp.json";

/// The server's name in the MCP configuration unless a condition names another.
pub const MCP_SERVER: &str = "mur-sample";

/// What every agent process of one run gets under its profile.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The agent's `PATH`.
    pub path: OsString,
    /// The verbs installed for the profile (CLI, with verbs to install), which each run
    /// copies as its own `XDG_DATA_HOME` and `XDG_CACHE_HOME`.
    pub verbs: Option<Installed>,
    /// What was left out of reach, for stderr.
    pub warnings: Vec<String>,
}

/// Prepares `profile` in `run_dir`: the agent's `PATH` from `inherited`, and (CLI) a
/// `bin/mur` pointing at `mur` with the verbs of each directory of `verbs` installed for
/// it, in order, a later one's replacing verbs of the same names (none: only derived
/// verbs and `call`), compiled once in `store` ([`compiled::install`], which tells
/// `installing` of each directory it compiles).
pub fn prepare(
    profile: Profile,
    run_dir: &Path,
    inherited: Option<OsString>,
    mur: &Path,
    verbs: &[&Path],
    store: &Path,
    installing: &mut dyn FnMut(&Path),
) -> Result<Prepared> {
    let (mut dirs, warnings) = without_mur(profile, inherited, mur);
    let mut installed = None;
    if profile.gives_cli() {
        let bin = run_dir.join("bin");
        create_dir(&bin)?;
        link(mur, &bin.join("mur"))?;
        installed = compiled::install(store, mur, verbs, installing)?;
        dirs.insert(0, bin);
    }
    let path = std::env::join_paths(&dirs)
        .map_err(|e| Error::usage(format!("cannot build the agent's PATH: {e}")))?;
    Ok(Prepared {
        path,
        verbs: installed,
        warnings,
    })
}

/// The `PATH` an agent's program is looked up in, under every profile: `inherited`
/// without the directories that hold a `mur` (a cli profile adds only its `bin/`, which
/// holds `mur` alone).
pub fn agent_path(inherited: Option<OsString>, mur: &Path) -> OsString {
    let (dirs, _) = without_mur(Profile::Mcp, inherited, mur);
    std::env::join_paths(dirs).unwrap_or_default()
}

/// The directories of `inherited` without those that hold a `mur`, and a warning per
/// directory left out whose `mur` is another than `mur`, the one under test: the one
/// beside `mur-eval` (one install directory, `cargo install`'s or a build's) is left out
/// in every run, as designed, and a warning each time would read as if something were
/// wrong.
fn without_mur(
    profile: Profile,
    inherited: Option<OsString>,
    mur: &Path,
) -> (Vec<PathBuf>, Vec<String>) {
    let inherited = inherited.unwrap_or_else(|| "/usr/bin:/bin".into());
    let under_test = std::fs::canonicalize(mur).ok();
    let mut kept = Vec::new();
    let mut warnings = Vec::new();
    for dir in std::env::split_paths(&inherited) {
        let found = dir.join("mur");
        if !found.is_file() {
            kept.push(dir);
            continue;
        }
        if under_test.is_some() && std::fs::canonicalize(&found).ok() == under_test {
            continue;
        }
        let why = if profile.gives_cli() {
            "the agent is given only the mur under test"
        } else {
            "the mcp profile keeps mur out of the agent's reach"
        };
        warnings.push(format!(
            "`{}` left off the agent's PATH: it holds a `mur`, and {why}",
            dir.display()
        ));
    }
    (kept, warnings)
}

/// The MCP client configuration for a session at `endpoint` named `server`, in the
/// `mcpServers` shape most MCP clients read.
pub fn mcp_config(endpoint: &str, server: &str) -> serde_json::Value {
    json!({ "mcpServers": { server: { "type": "http", "url": endpoint } } })
}

#[cfg(unix)]
fn link(target: &Path, link: &Path) -> Result<()> {
    // An output directory used again (a study resumed) already has its link.
    let _ = std::fs::remove_file(link);
    std::os::unix::fs::symlink(target, link).map_err(|e| {
        Error::internal(format!(
            "cannot link `{}` to `{}`: {e}",
            link.display(),
            target.display()
        ))
    })
}

#[cfg(not(unix))]
fn link(target: &Path, link: &Path) -> Result<()> {
    std::fs::copy(target, link)
        .map(drop)
        .map_err(|e| Error::internal(format!("cannot copy `{}`: {e}", target.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_holding_a_mur_are_left_off_path_with_a_warning() {
        let dir = tempfile::tempdir().expect("tempdir");
        let with = dir.path().join("with");
        let without = dir.path().join("without");
        for d in [&with, &without] {
            std::fs::create_dir(d).expect("dir");
        }
        std::fs::write(with.join("mur"), "").expect("file");
        // The directory of the mur under test (beside mur-eval), named by a link too.
        let tested = dir.path().join("tested");
        std::fs::create_dir(&tested).expect("dir");
        std::fs::write(tested.join("mur"), "").expect("file");
        let linked = dir.path().join("linked");
        std::os::unix::fs::symlink(&tested, &linked).expect("link");
        let inherited = std::env::join_paths([&with, &tested, &without, &linked]).expect("path");
        for profile in [Profile::Mcp, Profile::Cli] {
            let (kept, warnings) =
                without_mur(profile, Some(inherited.clone()), &tested.join("mur"));
            assert_eq!(kept, [without.as_path()]);
            let why = if profile == Profile::Mcp {
                "the mcp profile keeps mur out of the agent's reach"
            } else {
                "the agent is given only the mur under test"
            };
            assert_eq!(
                warnings,
                [format!(
                    "`{}` left off the agent's PATH: it holds a `mur`, and {why}",
                    with.display()
                )]
            );
        }
    }

    #[test]
    fn the_mcp_profile_puts_no_mur_on_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let prepared = prepare(
            Profile::Mcp,
            dir.path(),
            Some("/usr/bin:/bin".into()),
            Path::new("/nonexistent/mur"),
            &[Path::new("/nonexistent/verbs")],
            &dir.path().join(compiled::STORE),
            &mut |_| {},
        )
        .expect("nothing to install");
        for entry in std::env::split_paths(&prepared.path) {
            assert!(!entry.join("mur").exists(), "{}", entry.display());
        }
    }

    #[test]
    fn the_mcp_configuration_names_the_session() {
        let config = mcp_config("http://127.0.0.1:4000/mcp", MCP_SERVER);
        assert_eq!(
            config["mcpServers"]["mur-sample"]["url"],
            "http://127.0.0.1:4000/mcp"
        );
    }
}
