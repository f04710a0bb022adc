//! Reading a file the agent could have written — its stdout, its transcript, the
//! capture, a screenshot it saved, the usage logs in its reach — or one the user names
//! or an earlier command wrote (a task, a condition, a study's record, which a slip can
//! make a named pipe) without trusting what it is: a FIFO, a socket or a device (`/dev/zero` behind a link) is refused, opened
//! non-blocking (`mur_lockfile::open_regular`) so that opening never waits for a
//! writer, and no more than a cap is read
//! (what lies past it is left out, and the caller says so).

use std::fs::OpenOptions;
use std::io::Read as _;
use std::path::Path;

/// The largest task or condition file (or instructions) read: each is some KB. A small
/// record of mur-eval's own (an output's record, a study's `tools-list.json`) is read up
/// to it too.
pub const FILE_CAP: u64 = 1 << 20;

/// A file's first bytes, at most the cap.
pub struct Bytes {
    pub bytes: Vec<u8>,
    /// The file held more than the cap.
    pub cut: bool,
}

/// The regular file at `path`, its first `cap` bytes; why not, in words, otherwise (a
/// file that does not exist: `NotFound` in [`read_or_none`]).
pub fn read(path: &Path, cap: u64) -> Result<Bytes, String> {
    read_or_none(path, cap)?.ok_or_else(|| format!("`{}` does not exist", path.display()))
}

/// As [`read`], but a file that does not exist is `None`.
pub fn read_or_none(path: &Path, cap: u64) -> Result<Option<Bytes>, String> {
    // The project's one non-blocking open of a regular file (a FIFO or a device is
    // refused by what it is, never waited on).
    let file = match mur_lockfile::open_regular(OpenOptions::new().read(true), path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(_) if std::fs::metadata(path).is_ok_and(|meta| !meta.is_file()) => {
            return Err(format!("`{}` is not a regular file", path.display()));
        }
        Err(e) => return Err(format!("cannot read `{}`: {e}", path.display())),
    };
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let mut bytes = Vec::with_capacity(meta.len().min(cap) as usize);
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let cut = bytes.len() as u64 > cap;
    bytes.truncate(cap as usize);
    Ok(Some(Bytes { bytes, cut }))
}

/// The whole text of the regular file at `path`, a file the user names (a task, a
/// condition and its instructions) or a command wrote (a study's record): refused as
/// [`read`] refuses, and past `cap` (no such file is that large) or not UTF-8, in words.
pub fn text(path: &Path, cap: u64) -> Result<String, String> {
    let read = read(path, cap)?;
    if read.cut {
        return Err(format!(
            "`{}` is larger than {}",
            path.display(),
            mur_core::settings::human_bytes(cap)
        ));
    }
    String::from_utf8(read.bytes).map_err(|_| format!("`{}` is not UTF-8 text", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_or_a_device_is_refused_at_once_and_a_big_file_is_cut() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("settings.png");
        mur_testkit::mkfifo(&fifo);
        // No writer ever comes: reading must not wait for one.
        assert_eq!(
            read(&fifo, 10).err(),
            Some(format!("`{}` is not a regular file", fifo.display()))
        );
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
        assert!(read(&link, 10).is_err());
        let big = dir.path().join("big");
        std::fs::write(&big, "0123456789abc").expect("write");
        let read = read(&big, 10).expect("regular");
        assert_eq!(
            (read.bytes.as_slice(), read.cut),
            (&b"0123456789"[..], true)
        );
        let whole = super::read(&big, 13).expect("regular");
        assert!(!whole.cut);
        assert!(
            read_or_none(&dir.path().join("none"), 10)
                .expect("fine")
                .is_none()
        );
    }

    #[test]
    fn a_text_is_whole_utf_8_or_refused_in_words() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("task.toml");
        std::fs::write(&path, "id = 1\n").expect("write");
        assert_eq!(text(&path, 7), Ok("id = 1\n".to_owned()));
        assert_eq!(
            text(&path, 6),
            Err(format!("`{}` is larger than 6 bytes", path.display()))
        );
        std::fs::write(&path, b"\xff").expect("write");
        assert_eq!(
            text(&path, 6),
            Err(format!("`{}` is not UTF-8 text", path.display()))
        );
        let fifo = dir.path().join("fifo.toml");
        mur_testkit::mkfifo(&fifo);
        assert_eq!(
            text(&fifo, 6),
            Err(format!("`{}` is not a regular file", fifo.display()))
        );
    }
}
