//! A verb's stdout and stderr: its first and last bytes kept up to a small
//! bound, the middle dropped — a Rust panic says what happened first, a
//! Python traceback last.
//!
//! wasmtime-wasi's `MemoryOutputPipe` traps a guest that writes past its
//! capacity, which would turn a chatty but correct verb into a crash. This
//! sink never refuses a write; it only stops keeping bytes.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamResult};

/// How much a guest may write in one go; any amount is accepted overall.
const WRITE_PERMIT: usize = 64 * 1024;

/// An output stream that keeps its first and its last `keep / 2` bytes.
#[derive(Clone)]
pub struct Capture {
    keep: usize,
    kept: Arc<Mutex<Kept>>,
}

#[derive(Default)]
struct Kept {
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    dropped: bool,
}

impl Capture {
    pub fn new(keep: usize) -> Self {
        Self {
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

    fn append(&self, bytes: &[u8]) {
        let Ok(mut kept) = self.kept.lock() else {
            return;
        };
        if self.keep == 0 {
            // A sink that keeps nothing (a verb's stdout): no byte-by-byte tail.
            kept.dropped |= !bytes.is_empty();
            return;
        }
        let head_room = (self.keep / 2).saturating_sub(kept.head.len());
        let (to_head, rest) = bytes.split_at(bytes.len().min(head_room));
        kept.head.extend_from_slice(to_head);
        let tail_keep = self.keep - self.keep / 2;
        kept.tail.extend(rest);
        while kept.tail.len() > tail_keep {
            kept.tail.pop_front();
            kept.dropped = true;
        }
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
        self.append(&bytes);
        Ok(())
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
        self.append(buf);
        Poll::Ready(Ok(buf.len()))
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
        let capture = Capture::new(8);
        capture.append(b"head");
        capture.append(b"-middle-");
        capture.append(b"tail");
        assert_eq!(capture.text(), "head\n\u{2026}\ntail");
        let short = Capture::new(64);
        short.append(b"all of it");
        assert_eq!(short.text(), "all of it");
    }
}
