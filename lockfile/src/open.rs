//! Opening files in a directory other processes can write to: never through a
//! symlink, never blocking (a FIFO planted under a lockfile's name must not
//! hang a reader), judged by the open handle, and read only up to a cap.

use std::{
    fs::{self, File},
    io::{self, Read as _},
    path::Path,
};

/// Opens `path` with `options`, adding `O_NOFOLLOW` and `O_NONBLOCK` on Unix.
/// `O_NONBLOCK` only matters for the open itself and for FIFOs and devices,
/// which every caller refuses after looking at the handle; reads of regular
/// files ignore it.
pub(crate) fn guarded(options: &mut fs::OpenOptions, path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(options, libc::O_NOFOLLOW | libc::O_NONBLOCK);
    options.open(path)
}

/// Opens `path` with `options` without blocking (`O_NONBLOCK`, `O_NOCTTY` on
/// Unix), following a symbolic link, and refuses what is not a regular file:
/// a FIFO planted under a log's name must not hang every writer and reader,
/// nor a device feed a reader forever. The error says what the file is.
pub fn regular(options: &mut fs::OpenOptions, path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(options, libc::O_NONBLOCK | libc::O_NOCTTY);
    let file = match options.open(path) {
        Ok(file) => file,
        // A FIFO with no reader fails the open itself (`ENXIO`, "No such device or
        // address"), before its handle can be judged: what it is says more.
        Err(e) => match fs::metadata(path) {
            Ok(meta) if !meta.is_file() && !meta.is_dir() => return Err(not_regular(&meta)),
            _ => return Err(e),
        },
    };
    let meta = file.metadata()?;
    if meta.is_file() {
        Ok(file)
    } else {
        Err(not_regular(&meta))
    }
}

fn not_regular(meta: &fs::Metadata) -> io::Error {
    io::Error::other(format!("it is {}, not a regular file", describe_type(meta)))
}

/// Whether an open failed because the last component is a symbolic link
/// (`O_NOFOLLOW` answers `ELOOP`).
pub(crate) fn is_symlink_refusal(err: &io::Error) -> bool {
    #[cfg(unix)]
    {
        err.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = err;
        false
    }
}

/// What kind of file a handle is, for messages about files that are not
/// regular ("a FIFO", "a device", …); every reader of the project says it alike.
pub fn describe_type(meta: &fs::Metadata) -> &'static str {
    let kind = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        "a special file"
    }
}

/// Reads all of `file`, refusing more than `cap` bytes; `size_hint` (from the
/// metadata in hand) sizes the buffer without another stat.
pub(crate) fn read_capped(mut file: &File, size_hint: u64, cap: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(size_hint.min(cap) as usize);
    file.by_ref().take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::other(format!("larger than {cap} bytes")));
    }
    Ok(bytes)
}

/// Whether `path` is a directory with nothing in it (one that cannot be listed is not):
/// what a reader may remove in a file's place (the registry and the slot lock ask alike).
pub(crate) fn is_empty_dir(path: &Path) -> bool {
    fs::read_dir(path).is_ok_and(|mut listing| listing.next().is_none())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_fifo_with_no_reader_is_said_to_be_a_fifo() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("usage.jsonl");
        mkfifo(&fifo);
        let err =
            regular(fs::OpenOptions::new().append(true).create(true), &fifo).expect_err("a FIFO");
        assert_eq!(err.to_string(), "it is a FIFO, not a regular file");
    }

    /// Makes a FIFO at `path` (the tests of every module that meets one).
    #[cfg(unix)]
    pub(crate) fn mkfifo(path: &Path) {
        let made = std::process::Command::new("mkfifo").arg(path).status();
        assert!(made.expect("mkfifo").success(), "mkfifo {}", path.display());
    }
}
