//! Where mur keeps what an authorization got it, one private file per
//! endpoint: the client it registered (or was given) at which issuer, the
//! tokens and the scopes granted. Reused by the next call, refreshed when the
//! server refuses the access token, never printed.
//!
//! | platform | directory |
//! |---|---|
//! | any, when set | `$XDG_STATE_HOME/mur/oauth` |
//! | Linux, other Unix | `~/.local/state/mur/oauth` |
//! | macOS | `~/Library/Application Support/mur/oauth` |
//! | Windows | `%LOCALAPPDATA%\mur\oauth` |
//!
//! The directory is 0700 and each file 0600 (written whole, atomically).

use std::path::{Path, PathBuf};

use oauth2::TokenResponse as _;
use rmcp::transport::auth::OAuthTokenResponse;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

/// What one authorization of one endpoint left behind.
#[derive(Serialize, Deserialize)]
pub(super) struct Grant {
    /// The endpoint the tokens are for (the file's name is its hash).
    pub endpoint: String,
    /// The authorization server that issued them (SEP-2352: the client and
    /// its tokens are not used with another).
    pub issuer: Option<String>,
    pub client_id: String,
    pub client_secret: Option<String>,
    pub token: OAuthTokenResponse,
    /// The scopes granted, the base of a step-up's request.
    pub scopes: Vec<String>,
    /// When the access token expires (seconds since the epoch), if the
    /// server said.
    #[serde(default)]
    pub expires_at: Option<u64>,
}

impl Grant {
    /// The access token, unless it has expired: one past its time is not
    /// sent (the server's 401 then gets it refreshed).
    pub(super) fn access_token(&self) -> Option<&str> {
        let expired = self.expires_at.is_some_and(|at| at <= now());
        (!expired).then(|| self.token.access_token().secret().as_str())
    }
}

/// When `token`, received now, expires.
pub(super) fn expires_at(token: &OAuthTokenResponse) -> Option<u64> {
    token
        .expires_in()
        .map(|d| now().saturating_add(d.as_secs()))
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

/// The file for `endpoint` in the token directory `dir`.
fn file_in(dir: &Path, endpoint: &str) -> PathBuf {
    let digest = Sha256::digest(endpoint.as_bytes());
    dir.join(format!("{}.json", mur_core::hex(&digest[..12])))
}

/// The grant kept for `endpoint`: a `stat` when there is none.
pub(super) fn load(endpoint: &str) -> Option<Grant> {
    // The common case, no server ever asked for authorization: one failed `stat` of the
    // directory, no digest (SHA-256's first use probes the CPU: two `cpuid`s, each a VM
    // exit of ~10 µs on a virtual machine), nothing read.
    let dir = dir()?;
    if !dir.is_dir() {
        return None;
    }
    let path = file_in(&dir, endpoint);
    if !path.is_file() {
        return None;
    }
    let bytes = std::fs::read(&path).ok()?;
    match serde_json::from_slice::<Grant>(&bytes) {
        Ok(grant) if grant.endpoint == endpoint => Some(grant),
        Ok(_) => None,
        Err(e) => {
            tracing::debug!("ignoring the unreadable `{}`: {e}", path.display());
            None
        }
    }
}

/// Keeps `grant` for its endpoint.
pub(super) fn save(grant: &Grant) -> Result<PathBuf, String> {
    let dir = dir().ok_or("no state directory (HOME is not set)")?;
    mur_lockfile::ensure_private_dir(&dir, "the OAuth token directory")?;
    let path = file_in(&dir, &grant.endpoint);
    let bytes = serde_json::to_vec_pretty(grant).map_err(|e| e.to_string())?;
    mur_lockfile::write_atomic(&path, &bytes)
        .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    Ok(path)
}

fn dir() -> Option<PathBuf> {
    Some(mur_lockfile::paths::state_dir()?.join("oauth"))
}
