//! A bridge's own files beside its lockfile. The lockfile keeps the seed's
//! fields exactly (`schema`, `endpoint`, … `startedAt`), so what only a bridge
//! has — its log, the server it runs and the secret every request to it must
//! carry — is in `<hash>.bridge`, which names the lockfile's pid and
//! `startedAt` and counts only while they match; the server's stderr and the
//! bridge's own messages go to `<hash>.bridge.log`. Both are 0600 in the 0700
//! lockfile directory (the sidecar written whole, atomically: a reader never
//! sees it without its secret). Neither name ends in `.json`, so no lockfile
//! reader takes them for one. Every reader of a sidecar — mur for the secret
//! ([`mur_discovery::Access`]), `session list` and `bridge stop` for the rest —
//! reads it through [`mur_discovery::read_sidecar`], which trusts only a sidecar
//! of the user's own that no one else can read.

use std::{
    io,
    path::{Path, PathBuf},
};

use mur_lockfile::Lockfile;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The `schema` of a `<hash>.bridge` file.
pub use mur_discovery::SIDECAR_SCHEMA;

/// The two file names for the lockfile `<hash>.json`.
#[derive(Debug, Clone)]
pub struct BridgeFiles {
    pub sidecar: PathBuf,
    pub log: PathBuf,
}

/// How a bridge's log is named beside its lockfile `<hash>.json`: `<hash>.bridge.log`.
pub(crate) const LOG_SUFFIX: &str = ".bridge.log";

impl BridgeFiles {
    pub fn beside(lockfile: &Path) -> Self {
        Self {
            sidecar: mur_discovery::sidecar_path(lockfile),
            log: lockfile.with_extension(&LOG_SUFFIX[1..]),
        }
    }

    /// Both, for the lockfile `<hash>.json`: what an ended bridge leaves beside it
    /// ([`mur_lockfile::Registry::leftovers`] clears it with its slot lock).
    pub fn all_beside(lockfile: &Path) -> Vec<PathBuf> {
        let Self { sidecar, log } = Self::beside(lockfile);
        vec![sidecar, log]
    }
}

/// What `<hash>.bridge` says about the bridge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sidecar {
    pub schema: String,
    /// The bridge's pid and start, as in its lockfile.
    pub pid: u32,
    pub started_at: String,
    /// Where the server's stderr goes.
    pub log: PathBuf,
    /// The server's command line.
    pub command: Vec<String>,
    /// Where the tool calls it serves are recorded, when they are (`--usage`,
    /// `--usage-log`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage_log: Option<PathBuf>,
    /// The canonical project, as its lockfile will name it: what names a
    /// bridge still starting, which has no lockfile yet (absent in a sidecar
    /// of an older bridge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// What every request to the bridge but the probe must carry as
    /// `Authorization: Bearer <secret>`: 256 random bits in hex, made at its
    /// start (absent in a sidecar of a bridge from before secrets, which asks
    /// for none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// The command that starts this bridge again with the options it was started
    /// with, from the directory it ran in ([`crate::Options::again`]): what a proxy
    /// in front of it offers once it is gone without its log saying so (killed).
    /// Absent in a sidecar of an older bridge (one of an older mur yet has no `cd`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub again: Option<String>,
}

impl Sidecar {
    pub(crate) fn write(&self, path: &Path) -> io::Result<()> {
        let mut bytes = serde_json::to_vec_pretty(self).map_err(io::Error::other)?;
        bytes.push(b'\n');
        mur_lockfile::write_atomic(path, &bytes)
    }
}

/// The bridge behind the lockfile at `path`, if it is one: its sidecar,
/// when that names the same process and mur trusts it
/// ([`mur_discovery::sidecar_of`]).
pub fn bridge_of(path: &Path, lock: &Lockfile) -> Option<Sidecar> {
    trusted_bridge_of(path, lock).ok().flatten()
}

/// [`bridge_of`], with why mur does not trust the sidecar there when it does not
/// (`bridge stop` says why it signals nothing).
pub(crate) fn trusted_bridge_of(path: &Path, lock: &Lockfile) -> Result<Option<Sidecar>, String> {
    mur_discovery::sidecar_of(path, lock.pid, &lock.started_at)
        .map(|fields| serde_json::from_value(fields?).ok())
}

/// The bridge of the lockfile at `path` that is still starting (it holds the
/// project's slot, its sidecar is written and its process runs, but it has
/// no lockfile yet): its sidecar. `None` for a sidecar a bridge that died
/// left behind, or whose pid is now another process's.
pub(crate) fn starting(path: &Path) -> Option<Sidecar> {
    use mur_lockfile::liveness::{Fate, fate, rfc3339_secs};
    if !mur_lockfile::is_held(path) {
        return None;
    }
    let sidecar = read(&BridgeFiles::beside(path).sidecar)?;
    let running = fate(sidecar.pid, rfc3339_secs(&sidecar.started_at)) != Fate::Gone;
    running.then_some(sidecar)
}

/// The session line of `session list` and `bridge` for the lockfile at
/// `path`: the lockfile's fields in their order, then a bridge's `log`, its
/// `usageLog` when it records the calls it serves, and its server's `command`
/// (its words, as `--pretty` shows them quoted): what tells bridges apart.
pub fn session_line(path: &Path, lock: &Lockfile) -> String {
    let mut line = serde_json::to_string(lock).unwrap_or_default();
    if let Some(bridge) = bridge_of(path, lock)
        && line.ends_with('}')
    {
        let text = |path: &Path| Value::String(path.to_string_lossy().into_owned());
        line.pop();
        line.push_str(&format!(",\"log\":{}", text(&bridge.log)));
        if let Some(usage) = &bridge.usage_log {
            line.push_str(&format!(",\"usageLog\":{}", text(usage)));
        }
        let command = serde_json::to_string(&bridge.command).unwrap_or_default();
        line.push_str(&format!(",\"command\":{command}"));
        line.push('}');
    }
    line
}

/// The sidecar at `path`, if mur trusts it ([`mur_discovery::read_sidecar`]: a
/// regular file of the user's own that no one else can read, of a sidecar's size
/// and schema) and it holds a bridge's fields.
fn read(path: &Path) -> Option<Sidecar> {
    parsed(mur_discovery::read_sidecar(path))
}

fn parsed(read: Result<Option<Value>, String>) -> Option<Sidecar> {
    serde_json::from_value(read.ok()??).ok()
}

/// Removes the sidecar if it is still ours.
pub(crate) fn withdraw(path: &Path, pid: u32) {
    if read(path).is_some_and(|s| s.pid == pid) {
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bridge's lockfile in `dir` (pid 42), its files and its sidecar (of the
    /// command `server`, holding `secret`), written.
    fn written(dir: &Path, secret: Option<&str>) -> (PathBuf, BridgeFiles, Lockfile, Sidecar) {
        let lockfile = dir.join("0123456789abcdef.json");
        let files = BridgeFiles::beside(&lockfile);
        let lock = Lockfile::http(1, 42, "/p/App.csproj".into(), "tag".into());
        let sidecar = Sidecar {
            schema: SIDECAR_SCHEMA.into(),
            pid: 42,
            started_at: lock.started_at.clone(),
            log: files.log.clone(),
            command: vec!["server".into()],
            usage_log: None,
            project: None,
            secret: secret.map(str::to_owned),
            again: None,
        };
        sidecar.write(&files.sidecar).expect("write");
        (lockfile, files, lock, sidecar)
    }

    #[test]
    fn a_sidecar_counts_only_for_the_process_it_names() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (lockfile, files, mut lock, _) = written(dir.path(), Some("00ff"));
        assert_eq!(files.log, dir.path().join("0123456789abcdef.bridge.log"));
        // Its secret is the user's alone.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let meta = std::fs::metadata(&files.sidecar).expect("written");
            assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        }
        let line = session_line(&lockfile, &lock);
        assert!(!line.contains("00ff"), "the secret is shown: {line}");
        let line: Value = serde_json::from_str(&line).expect("json");
        assert_eq!(line["log"], files.log.to_string_lossy().as_ref());
        assert_eq!(line["command"], serde_json::json!(["server"]));
        assert_eq!(line["schema"], mur_lockfile::LOCKFILE_SCHEMA);
        lock.pid = 43;
        assert_eq!(bridge_of(&lockfile, &lock), None);
        assert_eq!(
            session_line(&lockfile, &lock),
            serde_json::to_string(&lock).expect("json")
        );
    }

    /// What `session list` and `bridge stop` take a bridge from is read as mur reads
    /// the secret: a sidecar others may read is no bridge's (it was).
    #[cfg(unix)]
    #[test]
    fn a_sidecar_others_may_read_names_no_bridge() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let (lockfile, files, lock, sidecar) = written(dir.path(), None);
        assert_eq!(bridge_of(&lockfile, &lock), Some(sidecar));
        let chmod = |mode| {
            std::fs::set_permissions(&files.sidecar, std::fs::Permissions::from_mode(mode))
                .expect("chmod")
        };
        chmod(0o644);
        assert_eq!(bridge_of(&lockfile, &lock), None);
        assert_eq!(
            session_line(&lockfile, &lock),
            serde_json::to_string(&lock).expect("json")
        );
        // Nor is it withdrawn as the bridge's own: `session clean` clears it once the
        // bridge has ended.
        withdraw(&files.sidecar, 42);
        assert!(files.sidecar.exists());
        chmod(0o600);
        withdraw(&files.sidecar, 42);
        assert!(!files.sidecar.exists());
    }
}
