//! A verb's stdout and stderr: its first and last bytes kept up to a small
//! bound, the middle dropped — a Rust panic says what happened first, a
//! Python traceback last — and how much the verb may write in one call.
//!
//! wasmtime-wasi's `MemoryOutputPipe` traps a guest that writes past its
//! capacity, which would turn a chatty but correct verb into a crash. This
//! sink accepts what a verb writes up to [`WRITE_LIMIT_BYTES`] in
//! [`WRITE_LIMIT_COUNT`] writes per stream and call, far past what a verb that
//! explains itself writes, and keeps only the bytes it shows.
//!
//! Why a bound on writing, beside fuel: fuel counts the guest's instructions,
//! not the host's work on what it writes. A write is a few hundred guest
//! instructions and a few microseconds of host work (the WASI stream's call,
//! the copy out of the verb's memory), so a verb printing debug lines in a loop
//! ran for minutes on its half second of fuel. An epoch deadline would need a
//! timer thread on every call and a bound that moves with the machine's load.
//! This bound is counted where the bytes arrive and stops a runaway writer in
//! about a second; its writes are host calls too, which are bounded besides
//! ([`super::host_calls`]), but a write's cost grows with its bytes and a
//! call's count does not see them.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError, StreamResult};

/// How much a guest may write in one go.
const WRITE_PERMIT: usize = 64 * 1024;

/// The bytes a verb may write to one stream in one call (`parse`, `shape`): a
/// Python traceback is a few KiB, a debug dump of the result a few MiB.
pub const WRITE_LIMIT_BYTES: u64 = 16 << 20;

/// The writes a verb may make to one stream in one call: a Rust `eprintln!` is
/// a few writes, so this is some 30,000 debug lines. Each costs the host
/// microseconds whatever its size, so bytes alone do not bound the time.
pub const WRITE_LIMIT_COUNT: u64 = 100_000;

/// An output stream that keeps its first and its last `keep / 2` bytes.
#[derive(Clone)]
pub struct Capture {
    /// `stdout` or `stderr`, as a message names it.
    stream: &'static str,
    keep: usize,
    kept: Arc<Mutex<Kept>>,
}

#[derive(Default)]
struct Kept {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    dropped: bool,
    /// Bytes and writes since the call began ([`Capture::restart`]).
    bytes: u64,
    writes: u64,
    /// Which bound the verb ran past in this call, once it did.
    over: Option<Over>,
}

#[derive(Clone, Copy)]
enum Over {
    Bytes,
    Count,
}

impl Capture {
    pub fn new(stream: &'static str, keep: usize) -> Self {
        Self {
            stream,
            keep,
            kept: Arc::default(),
        }
    }

    /// The bytes kept so far, lossily decoded; a `…` line where the middle
    /// was dropped.
    pub fn text(&self) -> String {
        let Ok(kept) = self.kept.lock() else {
            return String::new();
        };
        let mut bytes = kept.head.clone();
        if kept.dropped {
            bytes.extend_from_slice(b"\n\xe2\x80\xa6\n");
        }
        bytes.extend(kept.tail.iter());
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// A call of an export begins: its writing is counted from nothing.
    pub fn restart(&self) {
        if let Ok(mut kept) = self.kept.lock() {
            (kept.bytes, kept.writes, kept.over) = (0, 0, None);
        }
    }

    /// What the verb did past a bound in this call, as an error says it:
    /// `wrote more than 16 MiB to stderr, the most one call may write`.
    pub fn overrun(&self) -> Option<String> {
        let over = self.kept.lock().ok()?.over?;
        let stream = self.stream;
        Some(match over {
            Over::Bytes => format!(
                "wrote more than {} MiB to {stream}, the most one call may write",
                WRITE_LIMIT_BYTES >> 20
            ),
            Over::Count => {
                format!("wrote to {stream} {WRITE_LIMIT_COUNT} times, the most one call may")
            }
        })
    }

    /// Take a write: counted against the call's bounds (past them it is refused,
    /// and the verb stopped), then kept in the head or the tail. The host's work
    /// is in proportion to the bytes, whatever their number.
    fn append(&self, bytes: &[u8]) -> Result<(), String> {
        let Ok(mut kept) = self.kept.lock() else {
            return Ok(());
        };
        kept.writes += 1;
        kept.bytes = kept.bytes.saturating_add(bytes.len() as u64);
        if kept.bytes > WRITE_LIMIT_BYTES {
            kept.over = Some(Over::Bytes);
        } else if kept.writes > WRITE_LIMIT_COUNT {
            kept.over = Some(Over::Count);
        }
        if kept.over.is_some() {
            return Err(format!("the verb wrote past its bound on {}", self.stream));
        }
        if self.keep == 0 {
            // A sink that keeps nothing (a verb's stdout).
            kept.dropped |= !bytes.is_empty();
            return Ok(());
        }
        let head_room = (self.keep / 2).saturating_sub(kept.head.len());
        let (to_head, rest) = bytes.split_at(bytes.len().min(head_room));
        kept.head.extend_from_slice(to_head);
        let tail_keep = self.keep - self.keep / 2;
        // Of a long write only its last `tail_keep` bytes can stay; what is
        // older goes in one step, not a byte at a time.
        let skipped = rest.len().saturating_sub(tail_keep);
        let over = (kept.tail.len() + rest.len() - skipped).saturating_sub(tail_keep);
        kept.tail.drain(..over);
        kept.tail.extend(&rest[skipped..]);
        kept.dropped |= skipped + over > 0;
        Ok(())
    }
}

impl IsTerminal for Capture {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for Capture {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

#[wasmtime_wasi::async_trait]
impl OutputStream for Capture {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        // A trap, not an error the guest could read and go on writing after.
        self.append(&bytes).map_err(|e| StreamError::trap(&e))
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(WRITE_PERMIT)
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for Capture {
    async fn ready(&mut self) {}
}

impl tokio::io::AsyncWrite for Capture {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let taken = self.append(buf).map(|()| buf.len());
        Poll::Ready(taken.map_err(std::io::Error::other))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_and_last_bytes_are_kept() {
        let capture = Capture::new("stderr", 8);
        for write in ["head", "-middle-", "tail"] {
            capture.append(write.as_bytes()).expect("taken");
        }
        assert_eq!(capture.text(), "head\n\u{2026}\ntail");
        let long = Capture::new("stderr", 8);
        long.append(b"head-middle-tail").expect("taken");
        assert_eq!(long.text(), "head\n\u{2026}\ntail");
        let short = Capture::new("stderr", 64);
        short.append(b"all of it").expect("taken");
        assert_eq!(short.text(), "all of it");
    }

    /// Past either bound a write is refused and the overrun said; the next call
    /// starts counting afresh. What was written last is still kept.
    #[test]
    fn writing_is_bounded_per_call_in_bytes_and_in_writes() {
        let capture = Capture::new("stderr", 8);
        let mib = vec![b'x'; 1 << 20];
        for _ in 0..WRITE_LIMIT_BYTES >> 20 {
            capture.append(&mib).expect("within the bound");
        }
        assert_eq!(capture.overrun(), None);
        capture.append(b"last").expect_err("past the bound");
        assert_eq!(
            capture.overrun().as_deref(),
            Some("wrote more than 16 MiB to stderr, the most one call may write")
        );
        assert!(capture.text().ends_with("xxxx"), "{}", capture.text());

        capture.restart();
        assert_eq!(capture.overrun(), None);
        let stdout = Capture::new("stdout", 0);
        for _ in 0..WRITE_LIMIT_COUNT {
            stdout.append(b"").expect("within the bound");
        }
        stdout.append(b"").expect_err("past the bound");
        assert_eq!(
            stdout.overrun().as_deref(),
            Some("wrote to stdout 100000 times, the most one call may")
        );
    }
}
