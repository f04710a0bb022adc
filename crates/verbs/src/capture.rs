//! A verb's stdout and stderr: kept up to a small bound, the rest dropped.
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

/// An output stream that keeps its first `keep` bytes.
#[derive(Clone)]
pub struct Capture {
    keep: usize,
    kept: Arc<Mutex<Vec<u8>>>,
}

impl Capture {
    pub fn new(keep: usize) -> Self {
        Self {
            keep,
            kept: Arc::default(),
        }
    }

    /// The bytes kept so far, lossily decoded.
    pub fn text(&self) -> String {
        let kept = self.kept.lock().map(|k| k.clone()).unwrap_or_default();
        String::from_utf8_lossy(&kept).into_owned()
    }

    fn append(&self, bytes: &[u8]) {
        if let Ok(mut kept) = self.kept.lock() {
            let room = self.keep.saturating_sub(kept.len());
            kept.extend_from_slice(&bytes[..bytes.len().min(room)]);
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
