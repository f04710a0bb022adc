//! Atomic writes, the one place for them: mur's own state ([`write_atomic`], private)
//! and a file a user named on a command line ([`write_named`]: an image, a report page,
//! a verb's output), which is written as the user expects of the name they typed, and
//! the numbered names mur makes up beside it ([`write_entry`]), replaced, never written through.

use std::{
    fs::{self, File},
    io::{self, Write},
    path::{Path, PathBuf},
    sync::atomic::{AtomicU64, Ordering},
    time::Duration,
};

use crate::open;

/// Writes `bytes` to `path` so that a reader sees the old file, the new one or
/// none, never a part, and so that the rename survives a crash: the bytes go
/// to a temporary file of this writer's own in the same directory (0600),
/// are fsynced, renamed over `path`, and the directory is fsynced.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_mode(path, bytes, Mode::Private)
}

/// Writes `bytes` to the file a user named (`--out FILE`, `--html FILE`, a verb's output):
/// - none there yet: made whole, atomically as [`write_atomic`] does, readable as any new
///   file of the user's is (0666 less the umask);
/// - a regular file: replaced whole the same way, with its permission bits; one marked
///   read-only is refused, as a shell's `>` refuses it, and one in a directory no
///   temporary file can be made in is rewritten in place;
/// - anything else — a symbolic link, a FIFO, a character device: opened and written
///   through, as `>` would, the kernel following the link, so `fs.protected_symlinks`
///   and `protected_fifos` guard a shared directory (`/tmp`) as they guard `>`. A FIFO
///   no one reads is refused at once: waiting for a reader would outlast `--timeout`;
///   one whose reader takes nothing for `patience` (a reader that opened it and stopped)
///   fails the write then, instead of holding mur for ever.
///
/// A directory, a socket or a block device is refused, saying what it is. Whether the
/// name is mur's own stdout is the caller's to ask first ([`is_stdout`]): written here,
/// its bytes and mur's own output would overwrite each other.
pub fn write_named(path: &Path, bytes: &[u8], patience: Duration) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => write_atomic_mode(path, bytes, Mode::New),
        Err(e) => Err(e),
        Ok(meta) if meta.file_type().is_file() => replace_file(path, &meta, bytes, patience),
        Ok(_) => write_through(path, bytes, patience),
    }
}

/// Writes `bytes` to `path`, a name mur made up (`shot-2.png` beside the `--out shot.png`
/// a user typed), as a new directory entry: a temporary file beside it, filled and
/// fsynced, is renamed over it, as [`write_atomic`] does. `rename(2)` replaces whatever
/// name is there — a symbolic link (dangling or not), a hard link, a FIFO — and never
/// opens nor follows it: a link planted at a name the user never typed must not aim
/// mur's bytes elsewhere (`shot-2.png -> /etc/hostname` was written through), and the
/// file of an earlier run is replaced, so that running the same command again leaves one
/// run's files, not a mix of two. A regular file keeps its permission bits and one marked
/// read-only or not this user's to write is refused, as [`write_named`] does; anything
/// else is replaced by a new file of the user's (0666 less the umask). A directory is
/// refused, saying so.
pub fn write_entry(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mode = match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Mode::New,
        Err(e) => return Err(e),
        Ok(meta) if meta.file_type().is_file() => {
            may_write(path, &meta)?;
            Mode::Kept(bits(&meta))
        }
        Ok(meta) if meta.file_type().is_dir() => {
            return Err(io::Error::other("it is a directory, not a file to write"));
        }
        Ok(_) => Mode::New,
    };
    write_atomic_mode(path, bytes, mode)
}

/// Whether [`write_named`] can write `path`, asked before the call whose output it is to
/// hold, so that a bad name is refused before anything ran: a directory (or a name
/// ending in `/`), a socket, a block device, a file that may not be written, a loop of
/// links, a link into a directory that does not exist, a terminal, a device that cannot
/// be opened (`/dev/tty` with no controlling terminal) or a FIFO no one reads. A FIFO
/// is opened to know, and its write end held for [`write_named`] (until this process
/// ends, if it writes nothing): closed, it would tell a reader waiting there the end of
/// the file before the output came.
pub fn check_named(path: &Path) -> io::Result<()> {
    if path.as_os_str().to_string_lossy().ends_with('/') {
        return Err(io::Error::other(
            "it names a directory, not a file to write",
        ));
    }
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() => may_write(path, &meta),
        Ok(meta) if stream_kind(&meta) => check_stream(path),
        Ok(meta) => writable_kind(&meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // None yet, or a link to none: the file is made in the directory it names.
            let made = link_end(path)?;
            match made.parent().filter(|dir| !dir.as_os_str().is_empty()) {
                Some(dir) if !dir.is_dir() => Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("the directory `{}` does not exist", dir.display()),
                )),
                _ => Ok(()),
            }
        }
        Err(e) => Err(e),
    }
}

/// Whether `path` is this process's own stdout — `/dev/stdout`, `/proc/self/fd/1`, or the
/// very file or pipe stdout is redirected to — which a caller takes as `-`. Not a
/// device: `/dev/null` is no one's own, and a terminal is refused as one
/// ([`write_named`]) by whatever name.
#[cfg(unix)]
pub fn is_stdout(path: &Path) -> bool {
    use std::os::fd::AsFd as _;
    use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};
    let Ok(named) = fs::metadata(path) else {
        return false;
    };
    if named.file_type().is_char_device() {
        return false;
    }
    let own = std::io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .map(File::from)
        .and_then(|stdout| stdout.metadata());
    own.is_ok_and(|own| (own.dev(), own.ino()) == (named.dev(), named.ino()))
}

/// Whether `path` is this process's own stdout (only `/dev/stdout` is known here).
#[cfg(not(unix))]
pub fn is_stdout(path: &Path) -> bool {
    path == Path::new("/dev/stdout")
}

/// Whether `path` is a FIFO or a character device (its links followed): a stream that
/// takes one file's bytes, beside which no numbered files are made (`/dev/null-2`).
pub fn is_stream(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|meta| stream_kind(&meta))
}

fn stream_kind(meta: &fs::Metadata) -> bool {
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

/// A regular file `path` that this process may write: not marked read-only (which even
/// root's `>` is refused by here), and writable by this user (`access`): replacing
/// it by a rename would otherwise take another user's file in a directory of ours.
fn may_write(path: &Path, meta: &fs::Metadata) -> io::Result<()> {
    let refused = |why: &str| {
        Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            why.to_owned(),
        ))
    };
    if meta.permissions().readonly() {
        return refused("it is read-only");
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        let Ok(name) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
            return Ok(());
        };
        // SAFETY: `name` is a NUL-terminated path that lives through the call;
        // `access` only reads it.
        #[allow(unsafe_code)]
        let denied = unsafe { libc::access(name.as_ptr(), libc::W_OK) } != 0;
        if denied {
            return refused("this user may not write it");
        }
    }
    Ok(())
}

/// More links in a row than this is a loop (Linux's own limit is 40).
const MAX_LINKS: usize = 40;

/// The path a chain of links starting at `path` ends at (`path` itself when it is none).
fn link_end(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_owned();
    for _ in 0..MAX_LINKS {
        match fs::read_link(&at) {
            // A relative target is read from the link's own directory.
            Ok(target) => at = at.parent().unwrap_or_else(|| Path::new("")).join(target),
            Err(_) => return Ok(at),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// A regular file, a FIFO or a character device (`/dev/null`, a terminal): what a
/// name may stand for; anything else is said.
fn writable_kind(meta: &fs::Metadata) -> io::Result<()> {
    if meta.file_type().is_file() || stream_kind(meta) {
        return Ok(());
    }
    let what = match open::describe_type(meta) {
        "a device" => "a block device",
        other => other,
    };
    Err(io::Error::other(format!(
        "it is {what}, not a file to write"
    )))
}

/// A regular file replaced whole, keeping its permission bits (a private 0600 file stays
/// private). Its hard links and owner are not kept: the file is a new one.
fn replace_file(
    path: &Path,
    meta: &fs::Metadata,
    bytes: &[u8],
    patience: Duration,
) -> io::Result<()> {
    may_write(path, meta)?;
    match write_atomic_mode(path, bytes, Mode::Kept(bits(meta))) {
        // A directory the user may not write in, holding a file they may: no temporary
        // file can be made beside it, so it is rewritten in place, as `>` would.
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            write_through(path, bytes, patience)
        }
        other => other,
    }
}

/// The permission bits of the file `meta` tells of, which a file replacing it keeps.
fn bits(meta: &fs::Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o777
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        0o666
    }
}

fn terminal() -> io::Error {
    io::Error::other("it is a terminal, which raw bytes would garble")
}

/// Whether the FIFO or device `path` can be written, opened as [`write_through`] opens
/// it (not to become mur's controlling terminal, not waiting for a reader): not a
/// terminal, and open. A FIFO's write end is kept ([`HELD`]); a device's is closed.
fn check_stream(path: &Path) -> io::Result<()> {
    let file = open_stream(path, &mut fs::OpenOptions::new()).map_err(|e| unopened(path, e))?;
    if std::io::IsTerminal::is_terminal(&file) {
        return Err(terminal());
    }
    if let Some(key) = fifo_identity(&file.metadata()?) {
        held().push((key, file));
    }
    Ok(())
}

/// `options` opening `path` to write: `O_NOCTTY`, a terminal named must not become mur's
/// controlling one; `O_NONBLOCK`, a FIFO with no reader fails the open at once (ENXIO)
/// instead of waiting for ever.
fn open_stream(path: &Path, options: &mut fs::OpenOptions) -> io::Result<File> {
    options.write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(options, libc::O_NOCTTY | libc::O_NONBLOCK);
    options.open(path)
}

/// The write ends of FIFOs [`check_named`] opened, by the FIFO's device and inode (a
/// pipe named `/dev/stderr` has no path to canonicalize), for [`write_through`] to write
/// through and close.
static HELD: std::sync::Mutex<Vec<((u64, u64), File)>> = std::sync::Mutex::new(Vec::new());

fn held() -> std::sync::MutexGuard<'static, Vec<((u64, u64), File)>> {
    // A thread that panicked holding it left a list still whole.
    HELD.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The write end of the FIFO `path` that [`check_named`] opened, taken from [`HELD`].
fn take_held(path: &Path) -> Option<File> {
    let key = fifo_identity(&fs::metadata(path).ok()?)?;
    let mut held = held();
    let at = held.iter().position(|(fifo, _)| *fifo == key)?;
    Some(held.swap_remove(at).1)
}

/// The device and inode of a FIFO (or a pipe), which [`HELD`] goes by; `None` for
/// anything else.
fn fifo_identity(meta: &fs::Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};
        meta.file_type().is_fifo().then(|| (meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

/// Opens `path`, following links, and writes `bytes` to it: no temporary file, no
/// fsync (a pipe or a terminal has nothing to sync). Opened as [`open_stream`] opens
/// it, or the FIFO's end [`check_named`] held taken; a reader that stops reading fails
/// the write after `patience` ([`write_patiently`]).
fn write_through(path: &Path, bytes: &[u8], patience: Duration) -> io::Result<()> {
    // Judged before the open too: opening a block device to write has effects of its own.
    if let Ok(meta) = fs::metadata(path) {
        writable_kind(&meta)?;
    }
    // `truncate` is ignored by FIFOs and devices; a regular file behind a link is
    // rewritten as `>` would.
    let mut file = match take_held(path) {
        Some(file) => file,
        None => open_stream(path, fs::OpenOptions::new().create(true).truncate(true))
            .map_err(|e| unopened(path, e))?,
    };
    writable_kind(&file.metadata()?)?;
    if std::io::IsTerminal::is_terminal(&file) {
        // By whatever name (`/dev/tty`, `/dev/stderr`): as `--out -` is refused there.
        return Err(terminal());
    }
    #[cfg(unix)]
    return write_patiently(&mut file, bytes, patience);
    #[cfg(not(unix))]
    {
        let _ = patience;
        file.write_all(bytes)
    }
}

/// Why `path` could not be opened to write, in words: ENXIO is a FIFO no one reads, a
/// socket, or a device with nothing behind it (`/dev/tty` with no controlling terminal),
/// which the OS calls "No such device or address".
fn unopened(path: &Path, e: io::Error) -> io::Error {
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ENXIO)
        && let Ok(meta) = fs::metadata(path)
    {
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        if meta.file_type().is_fifo() {
            return io::Error::other("it is a FIFO no one is reading");
        }
        if meta.file_type().is_char_device() {
            // `/dev/tty` by any name: the same device number.
            let tty = fs::metadata("/dev/tty").is_ok_and(|tty| tty.rdev() == meta.rdev());
            return io::Error::other(match tty {
                true => "it is the controlling terminal, and there is none",
                false => "it is a device with nothing behind it to write to",
            });
        }
        if let Err(kind) = writable_kind(&meta) {
            return kind;
        }
    }
    let _ = path;
    e
}

/// Writes `bytes` to a pipe or a device opened with `O_NONBLOCK`, as a blocking write
/// would, but waiting at most `patience` each time the reader takes nothing: a slow
/// reader gets every byte, one that stopped reading fails the write. By hand: std has
/// no write with a deadline, and a thread left blocked in `write` would hold the file.
#[cfg(unix)]
fn write_patiently(file: &mut File, bytes: &[u8], patience: Duration) -> io::Result<()> {
    let mut written = 0;
    while written < bytes.len() {
        match file.write(&bytes[written..]) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => written += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if !writable_within(file, patience)? {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        format!(
                            "its reader took nothing for {} ms, after {written} of {} bytes",
                            patience.as_millis(),
                            bytes.len()
                        ),
                    ));
                }
            }
            // "Broken pipe (os error 32)" says nothing of what happened.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                return Err(io::Error::new(
                    io::ErrorKind::BrokenPipe,
                    format!(
                        "its reader closed it after {written} of {} bytes",
                        bytes.len()
                    ),
                ));
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Whether `file` can take more bytes within `patience` (`poll` for `POLLOUT`; a reader
/// gone counts as ready, and the write then says so).
#[cfg(unix)]
fn writable_within(file: &File, patience: Duration) -> io::Result<bool> {
    use std::os::fd::AsRawFd as _;
    let mut ready = libc::pollfd {
        fd: file.as_raw_fd(),
        events: libc::POLLOUT,
        revents: 0,
    };
    let ms = libc::c_int::try_from(patience.as_millis()).unwrap_or(libc::c_int::MAX);
    loop {
        // SAFETY: `ready` is one valid pollfd of this open file, for the call's duration.
        #[allow(unsafe_code)]
        let n = unsafe { libc::poll(&mut ready, 1, ms) };
        if n >= 0 {
            return Ok(n > 0);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// The permission bits of a file written atomically.
#[derive(Clone, Copy)]
enum Mode {
    /// mur's own state: 0600.
    Private,
    /// A new file of the user's: 0666 less the umask.
    New,
    /// A file replaced: exactly its bits.
    Kept(u32),
}

fn write_atomic_mode(path: &Path, bytes: &[u8], mode: Mode) -> io::Result<()> {
    let (tmp, file) = create_temp(path, mode)?;
    let result = fill(file, bytes).and_then(|()| fs::rename(&tmp, path));
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result?;
    if let Some(dir) = path.parent() {
        sync_dir(dir);
    }
    Ok(())
}

/// Names tried for a temporary file before giving up.
const TEMP_TRIES: usize = 100;

/// A new temporary file beside `path` and its name: the next name when one is taken —
/// by a file a run killed midway left (under this pid: in a container every run may
/// have it) or a link planted there — which is left alone, not ours to remove.
fn create_temp(path: &Path, mode: Mode) -> io::Result<(PathBuf, File)> {
    let mut taken = io::Error::from(io::ErrorKind::AlreadyExists);
    for _ in 0..TEMP_TRIES {
        let tmp = temp_name(path);
        match open_temp(&tmp, mode) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists || open::is_symlink_refusal(&e) => {
                taken = e;
            }
            Err(e) => return Err(e),
        }
    }
    Err(taken)
}

/// The `n` of the next temporary name this process makes.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// `.<name>.<pid>.<n>.tmp`, the name cut to 32 bytes (a name near the 255-byte limit
/// must still have one): two writers (two processes, or two threads of one) never share
/// a temporary file, and none ends in `.json`, so scans skip them.
fn temp_name(path: &Path) -> PathBuf {
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let cut = name
        .char_indices()
        .map(|(at, c)| at + c.len_utf8())
        .take_while(|end| *end <= 32)
        .last()
        .unwrap_or(0);
    path.with_file_name(format!(".{}.{}.{n}.tmp", &name[..cut], std::process::id()))
}

/// What the name of a temporary file [`temp_name`] made says: the name of the file it
/// was to become (cut to 32 bytes) and the pid of the process writing it; `None` for any
/// other name. For `session clean`, which removes one whose writer is gone.
pub(crate) fn temp_writer(name: &str) -> Option<(&str, u32)> {
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (rest, n) = rest.rsplit_once('.')?;
    let (target, pid) = rest.rsplit_once('.')?;
    if target.is_empty() || !digits(n) || !digits(pid) {
        return None;
    }
    Some((target, pid.parse().ok()?))
}

/// Creates the temporary file `path`, never one already there (planted, or a FIFO:
/// `create_new`, and no link followed), with `mode`'s bits.
fn open_temp(path: &Path, mode: Mode) -> io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(match mode {
            Mode::Private => 0o600,
            Mode::New => 0o666,
            // Made private, then given its bits below (the umask would narrow them).
            Mode::Kept(_) => 0o600,
        });
    }
    let file = open::guarded(&mut options, path)?;
    #[cfg(unix)]
    if let Mode::Kept(bits) = mode {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(fs::Permissions::from_mode(bits))?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    Ok(file)
}

fn fill(mut file: File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(bytes)?;
    file.sync_all()
}

/// Makes what was renamed or created in `dir` durable (the last step of every atomic
/// write, and of `verbs new`'s whole-directory one). Best effort: not every platform lets a
/// directory be opened for syncing.
pub fn sync_dir(dir: &Path) {
    if let Ok(handle) = fs::File::open(dir) {
        let _ = handle.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How long a test's write waits for a reader that takes nothing.
    const PATIENCE: Duration = Duration::from_secs(10);

    /// `write_named` of `bytes` to `path` in a thread of its own, its outcome (the
    /// error's words) sent when it ends: a write that waited for ever would hang the
    /// test instead of failing it.
    fn writing(
        path: &Path,
        bytes: Vec<u8>,
        patience: Duration,
    ) -> std::sync::mpsc::Receiver<Result<(), String>> {
        let (said, outcome) = std::sync::mpsc::channel();
        let path = path.to_owned();
        std::thread::spawn(move || {
            said.send(write_named(&path, &bytes, patience).map_err(|e| e.to_string()))
        });
        outcome
    }

    /// Asserts the write of 1 MiB that `outcome` tells of failed, saying `why` and how
    /// far it got (how much a pipe holds is the system's: 64 KiB here).
    fn failed_after_part(outcome: &std::sync::mpsc::Receiver<Result<(), String>>, why: &str) {
        let ended = outcome
            .recv_timeout(Duration::from_secs(60))
            .expect("no hang");
        let message = ended.expect_err("the write failed");
        assert!(
            message.starts_with(why) && message.ends_with(" of 1048576 bytes"),
            "{message}"
        );
    }

    fn dir() -> tempfile::TempDir {
        tempfile::tempdir().expect("temp dir")
    }

    /// A new FIFO, `f.png` in a temporary directory (the directory, then its path).
    #[cfg(unix)]
    fn fifo() -> (tempfile::TempDir, PathBuf) {
        let dir = dir();
        let fifo = dir.path().join("f.png");
        crate::open::tests::mkfifo(&fifo);
        (dir, fifo)
    }

    /// `fifo` opened to read and write: the open does not wait for a writer, and holds
    /// the FIFO's read end.
    #[cfg(unix)]
    fn held_open(fifo: &Path) -> fs::File {
        fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(fifo)
            .expect("open the FIFO")
    }

    /// `fifo` opened to read only, without waiting for a writer (`O_NONBLOCK`).
    #[cfg(unix)]
    fn opened_to_read(fifo: &Path) -> fs::File {
        use std::os::unix::fs::OpenOptionsExt as _;
        fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(fifo)
            .expect("open the FIFO to read")
    }

    #[test]
    fn a_new_or_regular_file_is_written_whole() {
        let dir = dir();
        let path = dir.path().join("shot.png");
        write_named(&path, b"first", PATIENCE).expect("new");
        write_named(&path, b"second", PATIENCE).expect("over");
        assert_eq!(fs::read(&path).expect("read"), b"second");
        let left: Vec<_> = fs::read_dir(dir.path()).expect("dir").collect();
        assert_eq!(left.len(), 1, "no temporary file left: {left:?}");
    }

    /// A file replaced keeps its permission bits (a private one stays private), one
    /// marked read-only is refused as `>` refuses it, and a name near the length limit
    /// still has a temporary file beside it.
    #[cfg(unix)]
    #[test]
    fn a_file_replaced_keeps_its_mode_and_a_read_only_one_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = dir();
        let mode = |p: &Path| fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        let private = dir.path().join("private.png");
        fs::write(&private, "old").expect("private");
        fs::set_permissions(&private, fs::Permissions::from_mode(0o600)).expect("chmod");
        write_named(&private, b"new", PATIENCE).expect("private");
        assert_eq!(
            (mode(&private), fs::read(&private).expect("read")),
            (0o600, b"new".to_vec())
        );

        let shared = dir.path().join("shared.png");
        fs::write(&shared, "old").expect("shared");
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o664)).expect("chmod");
        write_named(&shared, b"new", PATIENCE).expect("shared");
        assert_eq!(mode(&shared), 0o664, "kept whatever the umask");

        let kept = dir.path().join("kept.png");
        fs::write(&kept, "old").expect("kept");
        fs::set_permissions(&kept, fs::Permissions::from_mode(0o444)).expect("chmod");
        let refused = write_named(&kept, b"new", PATIENCE).expect_err("read-only");
        assert_eq!(refused.to_string(), "it is read-only");
        assert_eq!(fs::read(&kept).expect("read"), b"old");

        let long = dir.path().join(format!("{}.png", "x".repeat(250)));
        write_named(&long, b"long", PATIENCE).expect("a 254-byte name");
        assert_eq!(fs::read(&long).expect("read"), b"long");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_kept_and_its_target_written() {
        let dir = dir();
        let real = dir.path().join("real.png");
        fs::write(&real, "original").expect("real");
        let link = dir.path().join("link.png");
        std::os::unix::fs::symlink("real.png", &link).expect("link");
        write_named(&link, b"image", PATIENCE).expect("through the link");
        assert!(fs::symlink_metadata(&link).expect("link").is_symlink());
        assert_eq!(fs::read(&real).expect("real"), b"image");
        // A dangling link: its target is made.
        let dangling = dir.path().join("dangling.png");
        std::os::unix::fs::symlink("made.png", &dangling).expect("link");
        write_named(&dangling, b"new", PATIENCE).expect("dangling");
        assert!(fs::symlink_metadata(&dangling).expect("link").is_symlink());
        assert_eq!(fs::read(dir.path().join("made.png")).expect("made"), b"new");
    }

    /// A name mur made up is replaced as a directory entry, never written through: a link
    /// there (to a file, or dangling) and a FIFO become regular files, the link's target
    /// untouched (a dangling one's not made), and the FIFO not opened (no reader, and the
    /// write does not wait); a regular file is replaced keeping its bits, a read-only
    /// one refused as `>` refuses it; a directory is refused; no temporary file is left.
    #[cfg(unix)]
    #[test]
    fn a_made_up_name_is_replaced_never_written_through() {
        use std::os::unix::fs::{PermissionsExt as _, symlink};
        let dir = dir();
        let at = |name: &str| dir.path().join(name);
        let mode = |p: &Path| fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        fs::write(at("target"), "kept").expect("target");
        fs::write(at("old.png"), "old").expect("old");
        fs::set_permissions(at("old.png"), fs::Permissions::from_mode(0o640)).expect("chmod");
        fs::write(at("locked.png"), "locked").expect("locked");
        fs::set_permissions(at("locked.png"), fs::Permissions::from_mode(0o444)).expect("chmod");
        symlink("target", at("link.png")).expect("link");
        symlink("made.png", at("dangling.png")).expect("link");
        crate::open::tests::mkfifo(&at("fifo.png"));
        fs::create_dir(at("dir.png")).expect("dir");
        for name in ["old.png", "link.png", "dangling.png", "fifo.png", "new.png"] {
            write_entry(&at(name), b"image").expect(name);
            let meta = fs::symlink_metadata(at(name)).expect(name);
            assert!(meta.file_type().is_file(), "{name}: {meta:?}");
            assert_eq!(fs::read(at(name)).expect(name), b"image", "{name}");
        }
        assert_eq!(fs::read(at("target")).expect("target"), b"kept");
        assert!(!at("made.png").exists(), "no link followed");
        assert_eq!(mode(&at("old.png")), 0o640, "its bits kept");
        let refused = write_entry(&at("locked.png"), b"image").expect_err("read-only");
        assert_eq!(refused.to_string(), "it is read-only");
        assert_eq!(fs::read(at("locked.png")).expect("locked"), b"locked");
        let refused = write_entry(&at("dir.png"), b"image").expect_err("a directory");
        assert_eq!(
            refused.to_string(),
            "it is a directory, not a file to write"
        );
        assert!(at("dir.png").is_dir());
        let mut names: Vec<_> = fs::read_dir(dir.path())
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "dangling.png",
                "dir.png",
                "fifo.png",
                "link.png",
                "locked.png",
                "new.png",
                "old.png",
                "target"
            ]
        );
    }

    /// A FIFO is written through to its reader and kept; one no one reads is refused
    /// at once (waiting for a reader outlasted every `--timeout`).
    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_device_is_written_through_not_replaced() {
        use std::io::Read as _;
        let (dir, fifo) = fifo();
        let unread = writing(&fifo, b"lost".to_vec(), PATIENCE);
        assert_eq!(
            unread.recv_timeout(Duration::from_secs(60)),
            Ok(Err("it is a FIFO no one is reading".to_owned()))
        );
        // Read and write: the open does not wait for a writer, and holds the FIFO's
        // read end while `write_named` writes.
        let mut reader = held_open(&fifo);
        // More than a pipe holds (64 KiB), read meanwhile: the write waits for the
        // reader, as a blocking one does (left non-blocking, it failed at the full pipe).
        let big = vec![7_u8; 1 << 20];
        let read = std::thread::spawn(move || {
            let mut got = vec![0; 1 << 20];
            reader.read_exact(&mut got).map(|()| got)
        });
        write_named(&fifo, &big, PATIENCE).expect("FIFO");
        assert!(read.join().expect("reader").expect("read") == big);
        assert!(is_fifo(&fifo), "still a FIFO");
        // A reader that opened it and reads nothing: the write fails after its patience
        // (a blocking write waited for ever, past every `--timeout`).
        let _idle = held_open(&fifo);
        let stalled = writing(&fifo, vec![7; 1 << 20], Duration::from_millis(200));
        failed_after_part(&stalled, "its reader took nothing for 200 ms, after ");
        drop(_idle);
        // A reader that reads a little and closes it: said so, with how far it got.
        let mut closing = opened_to_read(&fifo);
        let closed = writing(&fifo, vec![7; 1 << 20], PATIENCE);
        let mut first = vec![0; 4096];
        let read_some = (0..6000).any(|_| {
            let got = closing.read(&mut first).is_ok_and(|n| n > 0);
            if !got {
                std::thread::sleep(Duration::from_millis(10));
            }
            got
        });
        assert!(read_some, "the writer wrote");
        drop(closing);
        failed_after_part(&closed, "its reader closed it after ");
        // Behind a link too.
        let link = dir.path().join("null.png");
        std::os::unix::fs::symlink("/dev/null", &link).expect("link");
        write_named(&link, b"gone", PATIENCE).expect("/dev/null");
        assert!(fs::symlink_metadata(&link).expect("link").is_symlink());
        write_named(Path::new("/dev/null"), b"gone", PATIENCE).expect("/dev/null itself");
    }

    /// What cannot be written is known before a call: a directory, a link into a
    /// directory that does not exist, a loop of links; a new name or a link to a new
    /// file in a directory that exists can be.
    #[cfg(unix)]
    #[test]
    fn a_name_that_cannot_be_written_is_known_before_the_call() {
        use std::os::unix::fs::symlink;
        let dir = dir();
        let at = |name: &str| dir.path().join(name);
        assert!(check_named(&at("new.png")).is_ok());
        symlink("made.png", at("dangling.png")).expect("link");
        assert!(check_named(&at("dangling.png")).is_ok());
        symlink("nodir/x.png", at("nowhere.png")).expect("link");
        let nowhere = check_named(&at("nowhere.png")).expect_err("no directory");
        assert!(
            nowhere.to_string().ends_with("/nodir` does not exist"),
            "{nowhere}"
        );
        symlink("loop2.png", at("loop1.png")).expect("link");
        symlink("loop1.png", at("loop2.png")).expect("link");
        assert!(check_named(&at("loop1.png")).is_err());
        let directory = check_named(dir.path()).expect_err("a directory");
        assert_eq!(
            directory.to_string(),
            "it is a directory, not a file to write"
        );
    }

    /// A FIFO no one reads is refused before the call (it was let through, and the
    /// write after the call failed); one with a reader waiting passes, and that reader
    /// gets the output, not the end of the file the check's open and close told it.
    #[cfg(unix)]
    #[test]
    fn a_fifo_no_one_reads_is_refused_before_the_call_and_a_reader_kept() {
        use std::io::Read as _;
        let (_dir, fifo) = fifo();
        let unread = check_named(&fifo).expect_err("no one reads it");
        assert_eq!(unread.to_string(), "it is a FIFO no one is reading");
        // A reader waiting for a writer, as `cat f.png` is (opened without waiting, then
        // read as a blocking reader reads).
        let mut reader = opened_to_read(&fifo);
        // SAFETY: `reader` is an open descriptor; F_SETFL only changes its flags.
        #[allow(unsafe_code)]
        let blocking =
            unsafe { libc::fcntl(std::os::fd::AsRawFd::as_raw_fd(&reader), libc::F_SETFL, 0) };
        assert_eq!(blocking, 0, "made blocking");
        check_named(&fifo).expect("a reader waits");
        let mut waiting = libc::pollfd {
            fd: std::os::fd::AsRawFd::as_raw_fd(&reader),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: `waiting` is one valid pollfd of the open reader, for the call.
        #[allow(unsafe_code)]
        let told = unsafe { libc::poll(&mut waiting, 1, 0) };
        assert_eq!(
            told, 0,
            "the reader is told nothing yet, not the end of the file"
        );
        let read = std::thread::spawn(move || {
            let mut got = Vec::new();
            reader.read_to_end(&mut got).map(|_| got)
        });
        write_named(&fifo, b"image", PATIENCE).expect("written to its reader");
        assert_eq!(read.join().expect("reader").expect("read"), b"image");
    }

    /// `/dev/tty` is refused before the call, with a controlling terminal (a terminal)
    /// or without one (as in every agent's and CI's run, where it was let through and
    /// the write after the call failed, "No such device or address").
    #[cfg(unix)]
    #[test]
    fn dev_tty_is_refused_before_the_call_with_a_terminal_or_without() {
        let tty = Path::new("/dev/tty");
        let has_one = fs::OpenOptions::new().write(true).open(tty).is_ok();
        let refused = check_named(tty).expect_err("never written");
        assert_eq!(
            refused.to_string(),
            match has_one {
                true => "it is a terminal, which raw bytes would garble",
                false => "it is the controlling terminal, and there is none",
            }
        );
        write_named(Path::new("/dev/null"), b"gone", PATIENCE).expect("/dev/null");
        check_named(Path::new("/dev/null")).expect("/dev/null is written");
    }

    /// `/dev/stdout` is this process's stdout, whatever it is; another file is not.
    #[cfg(unix)]
    #[test]
    fn stdout_is_known_by_what_it_is() {
        assert!(is_stdout(Path::new("/dev/stdout")));
        assert!(is_stdout(Path::new("/proc/self/fd/1")));
        let dir = dir();
        let file = dir.path().join("x");
        fs::write(&file, "").expect("file");
        assert!(!is_stdout(&file));
        assert!(!is_stdout(&dir.path().join("none")));
    }

    /// A name ending in `/`, and a file this process may not write, are known before
    /// the call, not once its output is in hand.
    #[cfg(unix)]
    #[test]
    fn a_directory_name_or_a_read_only_file_is_refused_before_the_call() {
        use std::os::unix::fs::PermissionsExt;
        let dir = dir();
        let slash = check_named(Path::new("shots/")).expect_err("a directory's name");
        assert_eq!(
            slash.to_string(),
            "it names a directory, not a file to write"
        );
        let kept = dir.path().join("kept.png");
        fs::write(&kept, "old").expect("kept");
        fs::set_permissions(&kept, fs::Permissions::from_mode(0o444)).expect("chmod");
        let refused = check_named(&kept).expect_err("read-only");
        assert_eq!(refused.to_string(), "it is read-only");
    }

    /// A temporary file a run killed midway left under this pid (in a container every
    /// run may have it) is stepped over, and left alone.
    #[test]
    fn a_temporary_file_left_behind_is_stepped_over() {
        let dir = dir();
        let path = dir.path().join("shot.png");
        let next = TEMP_COUNTER.load(Ordering::Relaxed);
        let left: Vec<PathBuf> = (next..next + 20)
            .map(|n| {
                dir.path()
                    .join(format!(".shot.png.{}.{n}.tmp", std::process::id()))
            })
            .collect();
        for leftover in &left {
            fs::write(leftover, "left").expect("left behind");
        }
        write_named(&path, b"image", PATIENCE).expect("written beside them");
        assert_eq!(fs::read(&path).expect("read"), b"image");
        assert!(left.iter().all(|l| l.exists()), "not ours to remove");
    }

    /// A terminal, by any name (`/dev/tty`, `/dev/stderr`), is not written raw bytes.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_terminal_is_refused_whatever_its_name() {
        // SAFETY: a pseudo-terminal pair opened, granted, unlocked and named by the
        // documented calls; the name is copied before the master is closed.
        #[allow(unsafe_code)]
        let (master, name) = unsafe {
            let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
            assert!(master >= 0, "posix_openpt");
            assert_eq!(libc::grantpt(master), 0);
            assert_eq!(libc::unlockpt(master), 0);
            let mut name = [0 as libc::c_char; 128];
            assert_eq!(libc::ptsname_r(master, name.as_mut_ptr(), name.len()), 0);
            let name = std::ffi::CStr::from_ptr(name.as_ptr())
                .to_string_lossy()
                .into_owned();
            (master, name)
        };
        let refused = write_named(Path::new(&name), b"\x89PNG", PATIENCE).expect_err("a terminal");
        assert_eq!(
            refused.to_string(),
            "it is a terminal, which raw bytes would garble"
        );
        let known = check_named(Path::new(&name)).expect_err("known before");
        assert_eq!(known.to_string(), refused.to_string());
        #[allow(unsafe_code)]
        // SAFETY: `master` is the descriptor opened above, closed once.
        unsafe {
            libc::close(master);
        }
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
    fn a_temporary_files_name_says_its_target_and_writer() {
        let temp = temp_name(Path::new("/run/a941a538e57c9f96.json"));
        let name = temp.file_name().and_then(|n| n.to_str()).expect("name");
        assert_eq!(
            temp_writer(name),
            Some(("a941a538e57c9f96.json", std::process::id()))
        );
        let long = temp_name(Path::new("/d/0123456789abcdef0123456789abcdef.json"));
        let name = long.file_name().and_then(|n| n.to_str()).expect("name");
        assert_eq!(temp_writer(name).map(|(target, _)| target.len()), Some(32));
        for other in [
            ".a.json.tmp",
            "a.json.1.2.tmp",
            ".a.json.x.2.tmp",
            "..1.2.tmp",
            ".a.json.99999999999.0.tmp",
        ] {
            assert_eq!(temp_writer(other), None, "{other}");
        }
    }
}
