//! Seed 000 §6: at most one devtools session per project. Before binding, look at
//! the project's lockfile: a live owner refuses us, a stale or broken file is cleared.

use std::path::Path;

use mur_lockfile::{
    Lockfile, ReadOutcome, Registry,
    liveness::{self, Liveness},
};

use crate::ServeError;

/// Makes sure the slot at `path` is free: `Err(AlreadyActive)` if a live
/// session holds it, otherwise removes whatever stale file is there.
pub(crate) async fn claim_slot(registry: &Registry, path: &Path) -> Result<(), ServeError> {
    if !path.exists() {
        return Ok(());
    }
    match registry.read(path) {
        ReadOutcome::Valid(lock) if is_live(&lock).await => Err(ServeError::AlreadyActive {
            endpoint: lock.endpoint,
            pid: lock.pid,
        }),
        ReadOutcome::Valid(lock) => {
            clear(registry, path, &format!("session pid {} is gone", lock.pid))
        }
        ReadOutcome::Malformed(reason) => clear(registry, path, &reason),
        ReadOutcome::UnknownSchema(schema) => {
            clear(registry, path, &format!("unknown schema `{schema}`"))
        }
        ReadOutcome::Untrusted(reason) => Err(ServeError::Registry(reason)),
    }
}

/// Live means: pid running and, for HTTP, the endpoint answers the probe as that pid.
async fn is_live(lock: &Lockfile) -> bool {
    // Our own pid in the file can only be a leftover (pids are reused).
    lock.pid != std::process::id() && liveness::check(&probe_client(), lock).await == Liveness::Live
}

fn probe_client() -> reqwest::Client {
    // No proxy: the probe goes to 127.0.0.1, and an HTTP_PROXY from the
    // environment must not intercept it.
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap_or_default()
}

fn clear(registry: &Registry, path: &Path, why: &str) -> Result<(), ServeError> {
    tracing::info!("removing stale lockfile `{}` ({why})", path.display());
    match registry.remove(path) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(ServeError::io(format!(
            "cannot remove stale lockfile `{}`",
            path.display()
        ))(error)),
    }
}
