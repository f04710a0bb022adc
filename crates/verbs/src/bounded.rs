//! The one way the verb code reads a file: open it without blocking, judge the
//! open handle (a regular file, not too big), and only then read, bounded.
//!
//! Every read under `verbs/` goes through here: the index, the component a
//! user names in `verbs add`, an installed verb's file, a compile-cache entry.
//! A plain `std::fs::read` would hang forever on a FIFO (the open blocks until
//! a writer appears), read `/dev/zero` until memory runs out, and read a 1 GiB
//! file whole before anyone looks at it.
//!
//! Symbolic links are a per-caller choice ([`Links`]): a path the user typed
//! (`verbs add ./out/verb.wasm`) may well be a link to a build output, while a
//! link inside mur's own verb or cache directory is not something mur made.

use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read as _, Seek as _};
use std::path::Path;
use std::time::Duration;

use mur_core::settings::human_bytes;

/// The largest verb component `mur` reads. A Python verb (the interpreter and
/// its standard library, componentized) is ~40 MB and a JavaScript one a few
/// MB; 256 MiB leaves room for six times the biggest seen, and still refuses a
/// file that is plainly not a verb before it is read and compiled.
pub const MAX_COMPONENT_BYTES: u64 = 256 << 20;

/// The first 8 bytes of a WebAssembly binary: `\0asm`, a 2-byte version, and a
/// 2-byte layer — 0 for a core module, 1 for a component.
const WASM_MAGIC: &[u8; 4] = b"\0asm";
const COMPONENT_LAYER: [u8; 2] = [1, 0];
const HEADER_LEN: usize = 8;

/// Whether a symbolic link as the last component of the path is followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    /// Follow it (a path the user typed).
    Follow,
    /// Refuse it (a file in mur's own verb or cache directory).
    Refuse,
}

/// Why a file was not read.
#[derive(Debug)]
pub enum Refusal {
    /// The open or the read failed (missing, no permission, …).
    Io(io::Error),
    /// The path is a symbolic link, refused by [`Links::Refuse`].
    Symlink,
    /// Not a regular file: "a FIFO", "a device", "a directory", …
    NotRegular(&'static str),
    /// Larger than the cap for this kind of file.
    TooBig { size: u64, cap: u64 },
    /// A pipe or stream that held more than the cap (its size is not known).
    Overflowed { cap: u64 },
    /// The first bytes are not those of a WebAssembly component.
    NotComponent(&'static str),
    /// A FIFO no writer opened within the time given.
    NoWriter(Duration),
    /// A pipe its writer had not closed within the time given.
    Unfinished(Duration),
}

impl Refusal {
    /// Nothing is there: the caller may treat it as absent.
    pub fn is_not_found(&self) -> bool {
        matches!(self, Self::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

/// Reads as the end of "`path` …": "is a FIFO, not a regular file".
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(e) => write!(f, "cannot be read: {e}"),
            Self::Symlink => f.write_str("is a symbolic link, which mur does not follow here"),
            Self::NotRegular(kind) => write!(f, "is {kind}, not a regular file"),
            Self::TooBig { size, cap } => {
                write!(f, "is {size} bytes, over the {} limit", human_bytes(*cap))
            }
            Self::Overflowed { cap } => {
                write!(f, "holds more than the {} limit", human_bytes(*cap))
            }
            Self::NotComponent(why) => write!(f, "is not a WebAssembly component ({why})"),
            Self::NoWriter(patience) => {
                write!(f, "is a FIFO nothing wrote to within {}", said(*patience))
            }
            Self::Unfinished(patience) => write!(
                f,
                "was not closed by its writer within {} (the bound `--timeout` sets)",
                said(*patience)
            ),
        }
    }
}

/// `10 s`, `500 ms`: a wait as a message says it.
fn said(wait: Duration) -> String {
    if wait.subsec_millis() == 0 {
        format!("{} s", wait.as_secs())
    } else {
        format!("{} ms", wait.as_millis())
    }
}

/// An open regular file, judged by the metadata of its own handle, so what was
/// checked is what gets read.
pub struct Regular {
    file: File,
    meta: fs::Metadata,
}

impl Regular {
    /// Open `path` without blocking and refuse anything but a regular file.
    pub fn open(path: &Path, links: Links) -> Result<Self, Refusal> {
        let file = open_nonblocking(path, links).map_err(|e| {
            if links == Links::Refuse && refused_as_symlink(&e, path) {
                Refusal::Symlink
            } else {
                Refusal::Io(e)
            }
        })?;
        let meta = file.metadata().map_err(Refusal::Io)?;
        if !meta.is_file() {
            return Err(Refusal::NotRegular(mur_lockfile::describe_file_type(&meta)));
        }
        Ok(Self { file, meta })
    }

    /// The handle's metadata (size, modification time).
    pub fn metadata(&self) -> &fs::Metadata {
        &self.meta
    }

    /// The open handle itself, for a caller that maps rather than reads it.
    pub fn into_file(self) -> File {
        self.file
    }

    /// Up to `n` bytes from the start of the file (fewer when it is shorter).
    pub fn head(&mut self, n: usize) -> Result<Vec<u8>, Refusal> {
        let mut bytes = Vec::with_capacity(n);
        self.file.rewind().map_err(Refusal::Io)?;
        (&mut self.file)
            .take(n as u64)
            .read_to_end(&mut bytes)
            .map_err(Refusal::Io)?;
        Ok(bytes)
    }

    /// The file as a verb component: its first 8 bytes must be a component
    /// header (checked before anything else is read), and it must be at most
    /// [`MAX_COMPONENT_BYTES`].
    pub fn read_component(mut self) -> Result<Vec<u8>, Refusal> {
        check_component_header(&self.head(HEADER_LEN)?)?;
        self.read_all(MAX_COMPONENT_BYTES)
    }

    /// The whole file, if it is at most `cap` bytes. A file over the cap is
    /// refused from its size alone, unread; one that grows past the cap while
    /// being read is refused at the cap.
    fn read_all(mut self, cap: u64) -> Result<Vec<u8>, Refusal> {
        let size = self.meta.len();
        if size > cap {
            return Err(Refusal::TooBig { size, cap });
        }
        self.file.rewind().map_err(Refusal::Io)?;
        // One that grew while read has no size known: it overflowed the cap.
        read_sized(&mut self.file, size, cap)
    }
}

/// At most `cap` bytes of a reader whose size is known (a regular file's, from its
/// metadata): room for it all is made first, so a file is read in one `read` and a
/// second that finds its end. Without it, a read starts at 32 bytes and doubles (a
/// verb's index entry of ~1 KB took seven reads on every call).
fn read_sized(reader: impl io::Read, size: u64, cap: u64) -> Result<Vec<u8>, Refusal> {
    read_into(reader, cap, usize::try_from(size).unwrap_or(0))
}

/// A file of at most `cap` bytes, read through [`Regular`].
pub fn read_capped(path: &Path, links: Links, cap: u64) -> Result<Vec<u8>, Refusal> {
    Regular::open(path, links)?.read_all(cap)
}

/// A verb component from `path`: see [`Regular::read_component`].
pub fn read_component(path: &Path, links: Links) -> Result<Vec<u8>, Refusal> {
    Regular::open(path, links)?.read_component()
}

/// A file the user names for a value (`--text @notes.md`, `--args @<(jq …)`): a
/// regular file of at most `cap` bytes (refused from its size alone), or a pipe — a
/// FIFO, a shell's process substitution — read up to `cap`; a device, a directory or a
/// socket is refused unread. A symbolic link is followed: the path was typed. A FIFO
/// is waited on for its writer at most `patience` ([`Refusal::NoWriter`] after), as
/// its open did not wait: read at once, a FIFO whose writer had not opened it yet
/// (`mkfifo f; producer > f & mur … @f`) read as empty, the value sent was `""` and
/// the writer then blocked forever.
pub fn read_value(path: &Path, cap: u64, patience: Duration) -> Result<Vec<u8>, Refusal> {
    let file = open_nonblocking(path, Links::Follow).map_err(Refusal::Io)?;
    let meta = file.metadata().map_err(Refusal::Io)?;
    if meta.is_file() {
        return Regular { file, meta }.read_all(cap);
    }
    #[cfg(unix)]
    if std::os::unix::fs::FileTypeExt::is_fifo(&meta.file_type()) {
        return read_pipe(&file, cap, patience);
    }
    Err(Refusal::NotRegular(mur_lockfile::describe_file_type(&meta)))
}

/// Standard input for a value (`@-`, `--args -`), at most `cap` bytes: a pipe or a
/// socket within `patience` ([`read_pipe`]: an agent's harness that leaves mur's stdin
/// an open pipe, or a producer that stalls, must not hold the command past its
/// `--timeout`); a terminal (a person typing) and a file as long as they take.
pub fn read_stdin(cap: u64, patience: Duration) -> Result<Vec<u8>, Refusal> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd as _;
        use std::os::unix::fs::FileTypeExt as _;
        let stdin = io::stdin();
        if let Ok(fd) = stdin.as_fd().try_clone_to_owned() {
            let file = File::from(fd);
            let kind = file.metadata().map(|meta| meta.file_type());
            if kind.is_ok_and(|kind| kind.is_fifo() || kind.is_socket()) {
                // A pipe has its writer from the start: silence is an unfinished value.
                return read_pipe(&file, cap, patience).map_err(|refusal| match refusal {
                    Refusal::NoWriter(patience) => Refusal::Unfinished(patience),
                    other => other,
                });
            }
        }
    }
    read_stream(io::stdin().lock(), cap)
}

/// At most `cap` bytes of a pipe (a FIFO, stdin), all of it within `patience`: a FIFO
/// no writer opened in that time is [`Refusal::NoWriter`] (opened without waiting, a
/// FIFO whose writer had not come yet read as empty, and the value sent was `""`), one
/// still open then [`Refusal::Unfinished`]. Each read waits (`poll`) at most the time
/// left, so a writer that stalls mid-way cannot hold the read past it either.
#[cfg(unix)]
fn read_pipe(file: &File, cap: u64, patience: Duration) -> Result<Vec<u8>, Refusal> {
    use std::os::fd::AsRawFd as _;
    let deadline = std::time::Instant::now() + patience;
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    // Whether a writer was seen: Linux and the BSDs report nothing on a FIFO before
    // a writer opens it, so a wait that ends with nothing heard means none came.
    let mut heard = false;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let mut poll = libc::pollfd {
            fd: file.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let millis = libc::c_int::try_from(left.as_millis()).unwrap_or(libc::c_int::MAX);
        #[allow(unsafe_code)]
        // SAFETY: `poll` points at one initialized pollfd for the length given, and
        // its descriptor is open (`file` owns it) for the whole call.
        let ready = unsafe { libc::poll(&mut poll, 1, millis) };
        match ready {
            0 if heard => return Err(Refusal::Unfinished(patience)),
            0 => return Err(Refusal::NoWriter(patience)),
            n if n < 0 => {
                let err = io::Error::last_os_error();
                if err.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(Refusal::Io(err));
            }
            _ => heard = true,
        }
        match (&*file).read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => {
                bytes.extend_from_slice(&chunk[..n]);
                if bytes.len() as u64 > cap {
                    return Err(Refusal::Overflowed { cap });
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) => {}
            Err(e) => return Err(Refusal::Io(e)),
        }
    }
}

/// At most `cap` bytes of a stream (stdin, a pipe): [`Refusal::Overflowed`] when it
/// holds more, found by reading one byte past the cap and no further.
fn read_stream(reader: impl io::Read, cap: u64) -> Result<Vec<u8>, Refusal> {
    read_into(reader, cap, 0)
}

/// [`read_stream`] into a buffer made with room for `expected` bytes.
fn read_into(reader: impl io::Read, cap: u64, expected: usize) -> Result<Vec<u8>, Refusal> {
    let mut bytes = Vec::with_capacity(expected);
    reader
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(Refusal::Io)?;
    if bytes.len() as u64 > cap {
        return Err(Refusal::Overflowed { cap });
    }
    Ok(bytes)
}

/// The magic number and layer of a component; its version is left to wasmtime,
/// which names the versions it supports.
fn check_component_header(head: &[u8]) -> Result<(), Refusal> {
    if head.len() < HEADER_LEN || !head.starts_with(WASM_MAGIC) {
        return Err(Refusal::NotComponent("no WebAssembly header"));
    }
    match [head[6], head[7]] {
        COMPONENT_LAYER => Ok(()),
        [0, 0] => Err(Refusal::NotComponent(
            "it is a core module; make a component of it with `wasm-tools component new`",
        )),
        _ => Err(Refusal::NotComponent("unknown WebAssembly layer")),
    }
}

/// `O_NONBLOCK` makes opening a FIFO return at once instead of waiting for a
/// writer (and keeps a device's open from waiting on it); the handle is then
/// refused by [`Regular::open`], and reads of a regular file ignore the flag.
/// `O_NOCTTY` keeps a terminal device from becoming our controlling terminal.
fn open_nonblocking(path: &Path, links: Links) -> io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        let mut flags = libc::O_NONBLOCK | libc::O_NOCTTY;
        if links == Links::Refuse {
            flags |= libc::O_NOFOLLOW;
        }
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, flags);
    }
    options.open(path)
}

/// Whether an open failed because of `O_NOFOLLOW`: `ELOOP` on Linux, `EMLINK`
/// on FreeBSD, confirmed by looking at the path itself.
fn refused_as_symlink(err: &io::Error, path: &Path) -> bool {
    #[cfg(unix)]
    {
        matches!(err.raw_os_error(), Some(libc::ELOOP | libc::EMLINK))
            && fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
    }
    #[cfg(not(unix))]
    {
        let _ = (err, path);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path = dir.join(name);
        fs::write(&path, bytes).expect("write");
        path
    }

    #[test]
    fn a_component_header_is_checked_before_the_size() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let core = write(tmp.path(), "core.wasm", b"\0asm\x01\0\0\0");
        let err = read_component(&core, Links::Follow).expect_err("core module");
        assert!(err.to_string().contains("core module"), "{err}");
        let short = write(tmp.path(), "short.wasm", b"\0as");
        assert!(matches!(
            read_component(&short, Links::Follow),
            Err(Refusal::NotComponent(_))
        ));

        let big = tmp.path().join("big.wasm");
        let file = File::create(&big).expect("create");
        file.set_len(MAX_COMPONENT_BYTES + 1).expect("sparse");
        drop(file);
        assert!(matches!(
            read_component(&big, Links::Follow),
            Err(Refusal::NotComponent("no WebAssembly header"))
        ));
        fs::write(&big, b"\0asm\x0d\0\x01\0").expect("header");
        File::options()
            .write(true)
            .open(&big)
            .and_then(|f| f.set_len(MAX_COMPONENT_BYTES + 1))
            .expect("sparse");
        let err = read_component(&big, Links::Follow).expect_err("too big");
        assert!(matches!(err, Refusal::TooBig { cap, .. } if cap == MAX_COMPONENT_BYTES));
        assert_eq!(
            err.to_string(),
            "is 268435457 bytes, over the 256 MiB limit"
        );
    }

    #[test]
    fn a_file_over_its_cap_is_refused_and_one_at_it_is_read() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let path = write(tmp.path(), "f", b"12345");
        assert_eq!(
            read_capped(&path, Links::Refuse, 5).expect("at cap"),
            b"12345"
        );
        assert!(matches!(
            read_capped(&path, Links::Refuse, 4),
            Err(Refusal::TooBig { size: 5, cap: 4 })
        ));
    }

    #[test]
    fn a_value_file_is_read_to_its_cap_and_a_device_or_directory_refused() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let path = write(tmp.path(), "v", b"12345");
        assert_eq!(
            read_value(&path, 5, Duration::ZERO).expect("at cap"),
            b"12345"
        );
        assert!(matches!(
            read_value(&path, 4, Duration::ZERO),
            Err(Refusal::TooBig { size: 5, cap: 4 })
        ));
        // A file that says it is smaller than it reads (it grew while read; a /proc
        // file says 0) is refused without a size it does not have (was "is 5 bytes").
        #[cfg(target_os = "linux")]
        assert!(matches!(
            read_value(Path::new("/proc/self/status"), 4, Duration::ZERO),
            Err(Refusal::Overflowed { cap: 4 })
        ));
        let dir = read_value(tmp.path(), 10, Duration::ZERO).expect_err("directory");
        assert_eq!(dir.to_string(), "is a directory, not a regular file");
        #[cfg(unix)]
        {
            let zero = read_value(Path::new("/dev/zero"), 10, Duration::ZERO).expect_err("device");
            assert_eq!(zero.to_string(), "is a device, not a regular file");
        }
        assert_eq!(read_stream(&b"1234"[..], 4).expect("at cap"), b"1234");
        let over = read_stream(io::repeat(b'x'), 4).expect_err("endless");
        assert_eq!(over.to_string(), "holds more than the 4 bytes limit");
    }

    #[test]
    fn a_directory_is_not_read() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let err = read_capped(tmp.path(), Links::Follow, 10).expect_err("directory");
        assert_eq!(err.to_string(), "is a directory, not a regular file");
    }

    #[cfg(unix)]
    #[test]
    fn fifos_devices_and_refused_links_fail_at_once() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let fifo = tmp.path().join("fifo");
        let c_path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("path");
        #[allow(unsafe_code)]
        // SAFETY: a valid NUL-terminated path; mkfifo has no other precondition.
        let made = unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) };
        assert_eq!(made, 0, "mkfifo");
        let err = read_capped(&fifo, Links::Refuse, 10).expect_err("fifo");
        assert_eq!(err.to_string(), "is a FIFO, not a regular file");
        // A value may come from a pipe; one nobody writes to is refused once the
        // writer's time is out, not read as empty.
        let none = read_value(&fifo, 10, Duration::from_millis(50)).expect_err("no writer");
        assert_eq!(none.to_string(), "is a FIFO nothing wrote to within 50 ms");
        // A writer that opens it later is waited for; one that opens and closes it
        // without writing gives the empty value it meant.
        for sent in [&b"late"[..], b""] {
            let writer = {
                let fifo = fifo.clone();
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(200));
                    fs::write(&fifo, sent).expect("write the fifo");
                })
            };
            let read = read_value(&fifo, 10, Duration::from_secs(30)).expect("the writer's");
            assert_eq!(read, sent);
            writer.join().expect("writer");
        }
        // A writer that writes a part and then stalls, its end open, is cut off at the
        // bound, whatever it wrote: it blocked the read until it closed.
        let (done, stalled) = std::sync::mpsc::channel::<()>();
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut open = fs::OpenOptions::new()
                    .write(true)
                    .open(&fifo)
                    .expect("open");
                io::Write::write_all(&mut open, b"{").expect("a part");
                let _ = stalled.recv();
            })
        };
        let cut = read_value(&fifo, 10, Duration::from_millis(300)).expect_err("stalled");
        assert_eq!(
            cut.to_string(),
            "was not closed by its writer within 300 ms (the bound `--timeout` sets)"
        );
        drop(done);
        writer.join().expect("writer");

        let zero = read_component(Path::new("/dev/zero"), Links::Follow).expect_err("device");
        assert_eq!(zero.to_string(), "is a device, not a regular file");

        let target = write(tmp.path(), "target", b"x");
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&target, &link).expect("symlink");
        assert!(matches!(
            read_capped(&link, Links::Refuse, 10),
            Err(Refusal::Symlink)
        ));
        assert_eq!(
            read_capped(&link, Links::Follow, 10).expect("followed"),
            b"x"
        );
    }

    /// A reader that counts the `read` calls made of it.
    struct Counted<'a> {
        bytes: &'a [u8],
        reads: usize,
    }

    impl io::Read for Counted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.reads += 1;
            self.bytes.read(buf)
        }
    }

    #[test]
    fn a_file_of_known_size_is_read_in_one_read_and_one_that_finds_its_end() {
        let entry = vec![b'x'; 1236];
        let mut counted = Counted {
            bytes: &entry,
            reads: 0,
        };
        let read = read_sized(&mut counted, 1236, 1 << 20).expect("read");
        assert_eq!(read, entry);
        assert_eq!(counted.reads, 2);

        // Grown past the cap since its size was taken: refused at the cap, as before.
        let mut grown = Counted {
            bytes: &entry,
            reads: 0,
        };
        assert!(matches!(
            read_sized(&mut grown, 10, 100),
            Err(Refusal::Overflowed { cap: 100 })
        ));
    }
}
