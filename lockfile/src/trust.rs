//! Ownership and permission checks: another local user must not be able to
//! point `mur` at their server by planting a lockfile.

use std::path::Path;

/// The effective user id of this process — the owner of every file it
/// creates, so the one to compare owners with (0 where the notion does not apply).
#[cfg(unix)]
pub(crate) fn current_uid() -> u32 {
    // SAFETY: geteuid has no preconditions, cannot fail and touches no memory.
    #[allow(unsafe_code)]
    unsafe {
        libc::geteuid()
    }
}

#[cfg(not(unix))]
pub(crate) fn current_uid() -> u32 {
    0
}

/// Refuse a file or directory owned by another user, or writable by group or
/// others. `what` names it in the message ("lockfile directory", "lockfile").
#[cfg(unix)]
pub(crate) fn check_trusted(path: &Path, what: &str) -> Result<(), String> {
    let meta = std::fs::symlink_metadata(path)
        .map_err(|err| format!("cannot inspect {what} `{}`: {err}", path.display()))?;
    check_metadata(&meta, path, what)
}

/// [`check_trusted`] on metadata already in hand (e.g. of an open file).
#[cfg(unix)]
pub(crate) fn check_metadata(
    meta: &std::fs::Metadata,
    path: &Path,
    what: &str,
) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let uid = current_uid();
    if meta.uid() != uid {
        return Err(format!(
            "refusing {what} `{}`: owned by uid {}, not by you (uid {uid})",
            path.display(),
            meta.uid()
        ));
    }
    if meta.mode() & 0o022 != 0 {
        return Err(format!(
            "refusing {what} `{}`: writable by group or others (mode {:o})",
            path.display(),
            meta.mode() & 0o777
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
pub(crate) fn check_trusted(_path: &Path, _what: &str) -> Result<(), String> {
    // %TEMP% is per user on Windows; its ACLs already keep other users out.
    Ok(())
}

#[cfg(not(unix))]
pub(crate) fn check_metadata(
    _meta: &std::fs::Metadata,
    _path: &Path,
    _what: &str,
) -> Result<(), String> {
    Ok(())
}

/// Creates `dir` (and its parents) mode 0700 if needed, then refuses it if it
/// belongs to another user or others can write to it. The one check for every
/// private directory of mur's: the lockfile directory, the compile and tool-list
/// caches, the usage and OAuth token directories. (The verb directory is the user's
/// data, made as any directory is.) `what` names it in the message.
pub fn ensure_private_dir(dir: &Path, what: &str) -> Result<(), String> {
    create_private_dir(dir)
        .map_err(|err| format!("cannot create {what} `{}`: {err}", dir.display()))?;
    check_trusted(dir, what)
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    match std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
    {
        Err(err) if err.kind() != std::io::ErrorKind::AlreadyExists => Err(err),
        _ => Ok(()),
    }
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}
