//! Directories: made, with an error naming one that cannot be; and copied whole, their
//! regular files (with their modification times), directories (with their permission
//! bits) and links — anything else, a FIFO, a socket, a device, is left out: a FIFO
//! would hold the copy.

use std::fs;
use std::io;
use std::path::Path;

use mur_core::{Error, Result};

/// `dir` made, with its parents; an internal error naming it when it cannot be.
pub fn create_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir)
        .map_err(|e| Error::internal(format!("cannot create `{}`: {e}", dir.display())))
}

/// `from`'s tree copied into `to` (made when missing). A file keeps its time, so that mur
/// takes a copied verb's file as the one its index recorded (by size and time) and maps
/// its compiled code instead of compiling it again; a directory keeps its bits, so that
/// a copied cache directory is as private as mur made it.
pub fn copy(from: &Path, to: &Path) -> io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type()?;
        if kind.is_dir() {
            copy(&source, &target)?;
        } else if kind.is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(&source)?, &target)?;
        } else if kind.is_file() {
            fs::copy(&source, &target)?;
            let modified = entry.metadata()?.modified()?;
            // Opened to read: the owner sets a file's times without writing it (a file
            // copied read-only stays so).
            fs::File::open(&target)?.set_modified(modified)?;
        }
    }
    fs::set_permissions(to, fs::metadata(from)?.permissions())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    #[test]
    fn files_keep_their_times_directories_their_bits_and_a_fifo_is_left_out() {
        let dir = tempfile::tempdir().expect("tempdir");
        let from = dir.path().join("from");
        fs::create_dir_all(from.join("private")).expect("dirs");
        fs::set_permissions(from.join("private"), fs::Permissions::from_mode(0o700))
            .expect("chmod");
        let file = from.join("private").join("verb.wasm");
        fs::write(&file, "code").expect("write");
        let then = std::time::SystemTime::UNIX_EPOCH
            + std::time::Duration::new(1_700_000_000, 123_456_789);
        fs::File::open(&file)
            .expect("open")
            .set_modified(then)
            .expect("time");
        mur_testkit::mkfifo(&from.join("fifo"));
        let to = dir.path().join("to");
        copy(&from, &to).expect("copied");
        let copied = to.join("private").join("verb.wasm");
        assert_eq!(fs::read_to_string(&copied).expect("read"), "code");
        assert_eq!(
            fs::metadata(&copied)
                .expect("meta")
                .modified()
                .expect("time"),
            then
        );
        let bits = fs::metadata(to.join("private"))
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(bits & 0o777, 0o700);
        assert!(!to.join("fifo").exists());
    }
}
