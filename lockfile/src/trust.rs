//! Ownership and permission checks: another local user must not be able to
//! point `mur` at their server by planting a lockfile, feed it records, or read
//! a bridge's secret. [`check_own`] is the one rule for every file and directory
//! mur trusts as the user's own.

use std::path::Path;

/// The effective user id of this process — the owner of every file it
/// creates, so the one to compare owners with (0 where the notion does not apply).
#[cfg(unix)]
pub fn current_uid() -> u32 {
    // SAFETY: geteuid has no preconditions, cannot fail and touches no memory.
    #[allow(unsafe_code)]
    unsafe {
        libc::geteuid()
    }
}

#[cfg(not(unix))]
pub fn current_uid() -> u32 {
    0
}

/// What others, beside not owning it, must not be able to do to a file or
/// directory mur trusts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Write to it (a lockfile, a log, a directory of mur's): its text is no secret,
    /// what it says must be the user's.
    Writes,
    /// Read or write it: it holds a secret (a bridge's sidecar).
    Secret,
}

/// Why a file or directory is not trusted as the user's own. It reads after the
/// path (``"`{path}` is {why}"``, [`Untrusted::of`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Untrusted {
    /// A symbolic link: what it names can change under the check.
    Link,
    /// Another user's (`uid`), not this process's effective user (`you`).
    Owner { uid: u32, you: u32 },
    /// Open to group or others as `keep` forbids; `mode` is its permission bits.
    Open { mode: u32, keep: Keep },
}

impl Untrusted {
    /// "`{path}` is {why}", as readers of files in mur's directories say it.
    pub fn of(&self, path: &Path) -> String {
        format!("`{}` is {self}", path.display())
    }
}

impl std::fmt::Display for Untrusted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Link => f.write_str("a symbolic link"),
            Self::Owner { uid, you } => write!(f, "owned by uid {uid}, not by you (uid {you})"),
            Self::Open {
                mode,
                keep: Keep::Writes,
            } => write!(f, "writable by group or others (mode {mode:o})"),
            Self::Open {
                mode,
                keep: Keep::Secret,
            } => write!(
                f,
                "open to group or others (mode {mode:o}), so its secret is no secret"
            ),
        }
    }
}

/// The one rule for what mur trusts as the user's own: `meta`, of the file or
/// directory itself (from `symlink_metadata` or an open handle, never through a
/// link), is no symbolic link, is owned by this process's effective user (the
/// owner of every file mur makes), and group and others cannot do what `keep`
/// keeps from them. What kind of file it must be is the caller's to say.
pub fn check_own(meta: &std::fs::Metadata, keep: Keep) -> Result<(), Untrusted> {
    if meta.file_type().is_symlink() {
        return Err(Untrusted::Link);
    }
    check_owner_and_mode(meta, keep)
}

#[cfg(unix)]
fn check_owner_and_mode(meta: &std::fs::Metadata, keep: Keep) -> Result<(), Untrusted> {
    use std::os::unix::fs::MetadataExt;
    let you = current_uid();
    if meta.uid() != you {
        return Err(Untrusted::Owner {
            uid: meta.uid(),
            you,
        });
    }
    let forbidden = match keep {
        Keep::Writes => 0o022,
        Keep::Secret => 0o077,
    };
    if meta.mode() & forbidden != 0 {
        return Err(Untrusted::Open {
            mode: meta.mode() & 0o777,
            keep,
        });
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_owner_and_mode(_meta: &std::fs::Metadata, _keep: Keep) -> Result<(), Untrusted> {
    // %TEMP% is per user on Windows; its ACLs already keep other users out.
    Ok(())
}

/// Refuse a file or directory that is a link, owned by another user, or writable
/// by group or others ([`check_own`]). `what` names it in the message ("lockfile
/// directory", "lockfile").
#[cfg(unix)]
pub(crate) fn check_trusted(path: &Path, what: &str) -> Result<(), String> {
    let meta = std::fs::symlink_metadata(path)
        .map_err(|err| format!("cannot inspect {what} `{}`: {err}", path.display()))?;
    check_metadata(&meta, path, what)
}

#[cfg(not(unix))]
pub(crate) fn check_trusted(_path: &Path, _what: &str) -> Result<(), String> {
    // %TEMP% is per user on Windows; its ACLs already keep other users out.
    Ok(())
}

/// [`check_trusted`] on metadata already in hand (e.g. of an open file).
pub(crate) fn check_metadata(
    meta: &std::fs::Metadata,
    path: &Path,
    what: &str,
) -> Result<(), String> {
    check_own(meta, Keep::Writes).map_err(|why| {
        let it = if why == Untrusted::Link { "it is " } else { "" };
        format!("refusing {what} `{}`: {it}{why}", path.display())
    })
}

/// Creates `dir` (and its parents) mode 0700 if needed, then refuses it if it
/// belongs to another user or others can write to it. The one check for every
/// private directory of mur's: the lockfile directory, the compile and tool-list
/// caches, the usage and OAuth token directories. (The verb directory is the user's
/// data, made as any directory is.) `what` names it in the message.
pub fn ensure_private_dir(dir: &Path, what: &str) -> Result<(), String> {
    create_private_dir(dir)
        .map_err(|err| format!("cannot create {what} `{}`: {err}", dir.display()))?;
    // What it is first: a file group-writable (`touch` under umask 002) was refused as
    // "writable by group or others", which moving it away fixes, not `chmod`.
    check_is_dir(dir, what)?;
    check_trusted(dir, what)
}

/// Refuses `dir` when it is not a directory: a file there was taken for one (making
/// it "failed" as it exists), and what was then written into it failed with "Not a
/// directory", naming another path. A link is left to [`check_trusted`], which refuses
/// every link as one.
fn check_is_dir(dir: &Path, what: &str) -> Result<(), String> {
    let meta = std::fs::symlink_metadata(dir)
        .map_err(|err| format!("cannot inspect {what} `{}`: {err}", dir.display()))?;
    if meta.is_dir() || meta.file_type().is_symlink() {
        return Ok(());
    }
    let kind = if meta.is_file() {
        "a file"
    } else {
        crate::open::describe_type(&meta)
    };
    Err(format!(
        "refusing {what} `{}`: it is {kind}, not a directory (move it away, and the directory \
         is made where it was)",
        dir.display()
    ))
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }

    #[test]
    fn a_secret_is_kept_from_reads_and_anything_else_from_writes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("file");
        std::fs::write(&path, "").expect("write");
        let judged = |keep| check_own(&std::fs::symlink_metadata(&path).expect("stat"), keep);
        chmod(&path, 0o644);
        assert_eq!(judged(Keep::Writes), Ok(()));
        let open = judged(Keep::Secret).expect_err("readable");
        assert_eq!(
            open.of(&path),
            format!(
                "`{}` is open to group or others (mode 644), so its secret is no secret",
                path.display()
            )
        );
        chmod(&path, 0o620);
        let writable = judged(Keep::Writes).expect_err("writable");
        assert_eq!(
            writable.to_string(),
            "writable by group or others (mode 620)"
        );
        chmod(&path, 0o600);
        assert_eq!(judged(Keep::Secret), Ok(()));
    }

    /// A file (or a FIFO) where the directory is to be is refused naming it: it was
    /// taken for the directory, and writing into it failed later, "Not a directory".
    #[test]
    fn a_file_where_the_directory_is_to_be_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("lockfiles");
        std::fs::write(&file, "").expect("write");
        // As `touch` under umask 002 makes it: what it is is said, not its mode.
        chmod(&file, 0o664);
        assert_eq!(
            ensure_private_dir(&file, "lockfile directory"),
            Err(format!(
                "refusing lockfile directory `{}`: it is a file, not a directory (move it away, \
                 and the directory is made where it was)",
                file.display()
            ))
        );
        let fifo = dir.path().join("fifo");
        crate::open::tests::mkfifo(&fifo);
        chmod(&fifo, 0o666);
        assert!(
            ensure_private_dir(&fifo, "cache")
                .expect_err("a FIFO")
                .contains("it is a FIFO, not a directory"),
        );
    }

    /// A link to a private directory is refused as a link (it was refused as one
    /// of mode 777, what Linux gives every link), whatever it names.
    #[test]
    fn a_link_is_refused_as_one() {
        let dir = tempfile::tempdir().expect("tempdir");
        let private = dir.path().join("private");
        ensure_private_dir(&private, "cache").expect("private");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&private, &link).expect("symlink");
        assert_eq!(
            ensure_private_dir(&link, "cache"),
            Err(format!(
                "refusing cache `{}`: it is a symbolic link",
                link.display()
            ))
        );
    }
}
