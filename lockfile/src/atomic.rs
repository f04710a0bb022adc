//! Atomic writes, the one place for them: mur's own state ([`write_atomic`], private)
//! and a file a user named on a command line ([`write_named`]: an image, a report page,
//! a verb's output), which must also write through what the name stands for.

use std::{
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
    sync::atomic::{AtomicU64, Ordering},
};

use crate::open;

/// Writes `bytes` to `path` so that a reader sees the old file, the new one or
/// none, never a part, and so that the rename survives a crash: the bytes go
/// to a temporary file of this writer's own in the same directory (0600),
/// are fsynced, renamed over `path`, and the directory is fsynced.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_mode(path, bytes, 0o600)
}

/// Writes `bytes` to the file a user named (`--out FILE`, `--html FILE`), as what the
/// name stands for wants it written:
/// - a new or regular file: atomically, as [`write_atomic`] does, but readable as any
///   new file of the user's is (0666 less the umask), not private as mur's own state;
/// - a symbolic link: its target, the same way, so the link stays a link (a link is how
///   a user points a fixed name at a file elsewhere; renaming over it would cut it);
/// - a FIFO, a character device (`/dev/null`, a terminal) or a descriptor
///   (`/dev/stdout`, `/proc/self/fd/N`): opened and written through, as a shell's `>`
///   would, since a rename would replace the node (and its readers would get nothing).
///   A FIFO with no reader waits for one, as `>` does.
///
/// Anything else (a directory, a socket, a block device) is refused, saying what it is.
pub fn write_named(path: &Path, bytes: &[u8]) -> io::Result<()> {
    match named(path)? {
        Named::File(target) => write_atomic_mode(&target, bytes, 0o666),
        Named::Stream => write_through(path, bytes),
    }
}

/// What a path a user named stands for, its links followed.
enum Named {
    /// A regular file, or none yet: the path to write atomically.
    File(PathBuf),
    /// A FIFO, a character device or a descriptor: written through.
    Stream,
}

/// More links in a row than this is a loop (Linux's own limit is 40).
const MAX_LINKS: usize = 40;

fn named(path: &Path) -> io::Result<Named> {
    let mut at = path.to_owned();
    for _ in 0..MAX_LINKS {
        let meta = match fs::symlink_metadata(&at) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Named::File(at)),
            other => other?,
        };
        let kind = meta.file_type();
        if kind.is_file() {
            return Ok(Named::File(at));
        }
        if is_stream(&meta) {
            return Ok(Named::Stream);
        }
        if !kind.is_symlink() {
            return Err(io::Error::other(format!(
                "it is {}, not a file to write",
                open::describe_type(&meta)
            )));
        }
        // A descriptor's link names no path to rename onto (`pipe:[…]`, or the file
        // mur's own stdout writes, which a rename would cut it off from).
        if is_descriptor(&at) {
            return Ok(Named::Stream);
        }
        let target = fs::read_link(&at)?;
        // A relative target is read from the link's own directory.
        at = at.parent().unwrap_or_else(|| Path::new("")).join(target);
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// A FIFO or a character device: what is written through rather than replaced.
fn is_stream(meta: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        kind.is_fifo() || kind.is_char_device()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// `/proc/<pid>/fd/N` or `/dev/fd/N`: a link to an open descriptor.
fn is_descriptor(path: &Path) -> bool {
    let in_fd = path.parent().and_then(Path::file_name) == Some("fd".as_ref());
    in_fd && (path.starts_with("/proc") || path.starts_with("/dev/fd"))
}

/// Opens `path`, following links, and writes `bytes` to it: no temporary file, no
/// fsync (a pipe or a terminal has nothing to sync). `O_NOCTTY`: a terminal named
/// must not become mur's controlling one.
fn write_through(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut options = fs::OpenOptions::new();
    // `truncate` is ignored by FIFOs and devices; a descriptor of a regular file is
    // rewritten as `>` would.
    options.write(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOCTTY);
    options.open(path)?.write_all(bytes)
}

fn write_atomic_mode(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let tmp = temp_name(path);
    let result = write_synced(&tmp, bytes, mode).and_then(|()| fs::rename(&tmp, path));
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result?;
    if let Some(dir) = path.parent() {
        sync_dir(dir);
    }
    Ok(())
}

/// `<name>.<pid>.<n>.tmp`: two writers (two processes, or two threads of one)
/// never share a temporary file, and none ends in `.json`, so scans skip them.
fn temp_name(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.{n}.tmp", std::process::id()));
    path.with_file_name(name)
}

fn write_synced(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let mut options = fs::OpenOptions::new();
    // create_new: a file already there (planted, or a FIFO) is never written through.
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
    #[cfg(not(unix))]
    let _ = mode;
    let mut file = open::guarded(&mut options, path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Best effort: not every platform lets a directory be opened for syncing.
fn sync_dir(dir: &Path) {
    if let Ok(handle) = fs::File::open(dir) {
        let _ = handle.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> tempfile::TempDir {
        tempfile::tempdir().expect("temp dir")
    }

    #[test]
    fn a_new_or_regular_file_is_written_whole() {
        let dir = dir();
        let path = dir.path().join("shot.png");
        write_named(&path, b"first").expect("new");
        write_named(&path, b"second").expect("over");
        assert_eq!(fs::read(&path).expect("read"), b"second");
        let left: Vec<_> = fs::read_dir(dir.path()).expect("dir").collect();
        assert_eq!(left.len(), 1, "no temporary file left: {left:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_kept_and_its_target_written() {
        let dir = dir();
        let real = dir.path().join("real.png");
        fs::write(&real, "original").expect("real");
        let link = dir.path().join("link.png");
        std::os::unix::fs::symlink("real.png", &link).expect("link");
        write_named(&link, b"image").expect("through the link");
        assert!(fs::symlink_metadata(&link).expect("link").is_symlink());
        assert_eq!(fs::read(&real).expect("real"), b"image");
        // A dangling link: its target is made.
        let dangling = dir.path().join("dangling.png");
        std::os::unix::fs::symlink("made.png", &dangling).expect("link");
        write_named(&dangling, b"new").expect("dangling");
        assert!(fs::symlink_metadata(&dangling).expect("link").is_symlink());
        assert_eq!(fs::read(dir.path().join("made.png")).expect("made"), b"new");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_device_is_written_through_not_replaced() {
        let dir = dir();
        let fifo = dir.path().join("f.png");
        mkfifo(&fifo);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).expect("read the FIFO"))
        };
        write_named(&fifo, b"through").expect("FIFO");
        assert_eq!(reader.join().expect("reader"), b"through");
        assert!(is_fifo(&fifo), "still a FIFO");
        // Behind a link too.
        let link = dir.path().join("null.png");
        std::os::unix::fs::symlink("/dev/null", &link).expect("link");
        write_named(&link, b"gone").expect("/dev/null");
        assert!(fs::symlink_metadata(&link).expect("link").is_symlink());
        write_named(Path::new("/dev/null"), b"gone").expect("/dev/null itself");
    }

    #[cfg(unix)]
    fn is_fifo(path: &Path) -> bool {
        use std::os::unix::fs::FileTypeExt;
        fs::symlink_metadata(path)
            .expect("meta")
            .file_type()
            .is_fifo()
    }

    #[test]
    fn a_descriptor_is_a_link_to_write_through() {
        assert!(is_descriptor(Path::new("/proc/self/fd/1")));
        assert!(is_descriptor(Path::new("/dev/fd/2")));
        assert!(!is_descriptor(Path::new("/tmp/fd/1")));
        assert!(!is_descriptor(Path::new("/proc/self/cwd")));
    }

    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        let made = std::process::Command::new("mkfifo").arg(path).status();
        assert!(made.expect("mkfifo").success(), "mkfifo {}", path.display());
    }
}
