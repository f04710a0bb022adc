//! Sending a request on a kept connection or a new one, and giving the
//! connection back once its answer has been read to the end. Each connection
//! counts the bytes it wrote, so that a request's [`crate::Delivery`] can tell whether
//! any of it reached the socket.
//!
//! A server may close a kept connection unsaid: after an answer without
//! `Connection: close` (which HTTP/1.1 asks of it, RFC 9112 §9.6), or once
//! idle (`mur-server` after 10 s). A connection hyper has seen closed is not
//! reused; one whose close its task has not yet seen takes the next request,
//! which then meets the close. So an endpoint whose server was seen closing a
//! kept connection gets a new connection for each request from then on; and a
//! request on a kept connection that broke before its answer is sent once
//! more, on a new one, only when it was never written, or when it does nothing
//! more if sent twice: a GET, HEAD or OPTIONS (the probe), or one its caller
//! marked [`crate::Request::repeatable`]. Any other may have been read and
//! acted on (a session that read a `tools/call` and then stopped for a reload
//! closes its connection the same way), so it is never sent twice: it fails,
//! as a connection closed.

use std::fmt;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::client::conn::http1::SendRequest;
use hyper::header::{ACCEPT, HOST, HeaderValue};
use hyper::{Method, Response, Uri};

use crate::delivery::Written;
use crate::request::Request;

/// The most idle connections kept: a call needs one; `--auto`'s scan may
/// leave a few sessions' behind.
const MAX_IDLE: usize = 8;

type Sender = SendRequest<Full<Bytes>>;

/// The connections kept for the next request, and the endpoints none is kept for.
#[derive(Default)]
pub(crate) struct Kept {
    /// Connections whose last answer was read to its end, newest last.
    idle: Vec<Idle>,
    /// Endpoints whose server closed a kept connection: each request to them
    /// goes on a new connection, rather than race the server's next close (a
    /// `tools/call` that meets it is not sent again).
    closing: Vec<Target>,
}

#[cfg(test)]
impl Kept {
    /// Whether hyper has seen every kept connection closed: a test waits for
    /// it to have seen a server's close.
    pub(crate) fn none_open(&self) -> bool {
        self.idle.iter().all(|idle| idle.sender.is_closed())
    }
}

/// A connection ready for its next request.
pub(crate) struct Idle {
    to: Target,
    sender: Sender,
    written: Written,
}

/// Where a request goes: the address connected to and the `Host` it names
/// (one connection serves only requests with both the same).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Target {
    addr: SocketAddr,
    host: HeaderValue,
}

/// Why a request got no answer.
#[derive(Debug)]
pub enum SendError {
    /// Not an `http://` URL with a host.
    Url(String),
    /// A host name other than `localhost`: never looked up.
    Lookup(String),
    /// The connection to the address could not be made (refused, unreachable).
    Connect(SocketAddr, io::Error),
    /// The connection broke, or the answer was not HTTP.
    Http(hyper::Error),
    /// The server wrote before the request was written: another protocol's
    /// greeting (an SSH or SMTP banner), which no HTTP server sends. Which of this
    /// and a parse error a greeting gives depends on which the connection saw
    /// first, its bytes or the request: [`SendError::is_not_http`] is both.
    Unasked(hyper::Error),
}

impl SendError {
    /// Whether no connection was made (nothing was sent).
    pub fn is_connect(&self) -> bool {
        matches!(self, Self::Lookup(_) | Self::Connect(..))
    }

    /// Whether the server closed the connection before its answer began (a session
    /// that stopped during the call, its socket closed with it).
    pub fn is_closed(&self) -> bool {
        matches!(self, Self::Http(e) if e.is_incomplete_message()
            || io_kind(e) == Some(io::ErrorKind::ConnectionReset))
    }

    /// Whether what answered does not speak HTTP: its answer did not parse, or it
    /// spoke before it was asked.
    pub fn is_not_http(&self) -> bool {
        match self {
            Self::Http(e) => e.is_parse(),
            Self::Unasked(_) => true,
            _ => false,
        }
    }

    /// Whether the connection was refused: nothing listens at the address.
    pub fn is_refused(&self) -> bool {
        matches!(self, Self::Connect(_, e) if e.kind() == io::ErrorKind::ConnectionRefused)
    }
}

impl fmt::Display for SendError {
    /// One line, in the words mur uses for every HTTP failure: what failed,
    /// then the innermost cause (which says what happened).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Url(why) => write!(f, "request failed: {why}"),
            Self::Lookup(name) => {
                write!(f, "could not connect: {}", crate::client::no_lookups(name))
            }
            // The OS's words ("Connection refused (os error 111)") say less than this.
            Self::Connect(addr, _) if self.is_refused() => {
                write!(
                    f,
                    "could not connect: nothing listens on {addr} (connection refused)"
                )
            }
            Self::Connect(_, e) => write!(f, "could not connect: {e}"),
            Self::Http(e) => write!(f, "request failed: {}", innermost(e)),
            Self::Unasked(_) => write!(
                f,
                "request failed: the server spoke before it was asked, which no HTTP server does"
            ),
        }
    }
}

impl std::error::Error for SendError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Url(_) | Self::Lookup(_) => None,
            Self::Connect(_, e) => Some(e),
            Self::Http(e) | Self::Unasked(e) => Some(e),
        }
    }
}

/// The innermost cause of `e`: an HTTP stack's own text ("error sending
/// request") says less than the OS error under it.
pub fn innermost(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

/// The kind of the OS error under `e`, if one is.
fn io_kind(e: &hyper::Error) -> Option<io::ErrorKind> {
    let mut cause = std::error::Error::source(e);
    while let Some(next) = cause {
        if let Some(io) = next.downcast_ref::<io::Error>() {
            return Some(io.kind());
        }
        cause = next.source();
    }
    None
}

/// Whether a request's connection closed or broke before its answer ended.
fn broke(e: &hyper::Error) -> bool {
    e.is_incomplete_message() || io_kind(e).is_some()
}

pub(crate) async fn send(
    kept: &Arc<Mutex<Kept>>,
    request: Request,
) -> Result<reqwest::Response, SendError> {
    let delivery = request.delivery.clone();
    let handed = |written: &Written| {
        if let Some(delivery) = &delivery {
            delivery.handed(written);
        }
    };
    let repeatable = request.repeatable;
    let (to, mut outgoing) = prepare(request)?;
    if let Some((mut sender, written)) = take(kept, &to) {
        // Ready once the connection's task has seen the last answer's end;
        // an error means the server closed it meanwhile: connect anew.
        if sender.ready().await.is_ok() {
            // What to send again should the server close the connection
            // without answering: only a request that does nothing more when
            // sent twice (RFC 9110's safe methods, or one its caller marked).
            let again = (repeatable
                || matches!(
                    *outgoing.method(),
                    Method::GET | Method::HEAD | Method::OPTIONS
                ))
            .then(|| copy(&outgoing));
            handed(&written);
            match sender.try_send_request(outgoing).await {
                Ok(response) => return Ok(answer(response, kept, to, sender, written)),
                Err(mut failed) => match (failed.take_message(), again) {
                    // Not written before the connection failed: send it on a new one.
                    (Some(unsent), _) => outgoing = unsent,
                    // Written, then the connection closed or broke unanswered.
                    (None, Some(again)) if broke(failed.error()) => outgoing = again,
                    (None, _) => {
                        if broke(failed.error()) {
                            closing(kept, &to);
                        }
                        return Err(SendError::Http(failed.into_error()));
                    }
                },
            }
        }
        closing(kept, &to);
    }
    let (mut sender, written, spoke) = connect(&to).await?;
    handed(&written);
    let response = sender.send_request(outgoing).await.map_err(|e| {
        if spoke.load(Ordering::Relaxed) {
            SendError::Unasked(e)
        } else {
            SendError::Http(e)
        }
    })?;
    Ok(answer(response, kept, to, sender, written))
}

/// A copy of `request` to send again: hyper's requests are not `Clone`.
fn copy(request: &hyper::Request<Full<Bytes>>) -> hyper::Request<Full<Bytes>> {
    let mut copy = hyper::Request::new(request.body().clone());
    *copy.method_mut() = request.method().clone();
    *copy.uri_mut() = request.uri().clone();
    *copy.version_mut() = request.version();
    *copy.headers_mut() = request.headers().clone();
    copy
}

/// `url` as every request reads it (hyper's `Uri`), or why it is none (`invalid uri
/// character`). Public so that a URL the user gives is checked by it where it is parsed
/// (`mur --endpoint`): the loopback check's parser (WHATWG's) takes `http://127.0.0.1:1/ x`,
/// which was then refused here, after discovery, as a request that failed.
pub fn read_url(url: &str) -> Result<Uri, String> {
    url.parse()
        .map_err(|e: hyper::http::uri::InvalidUri| e.to_string())
}

/// The target and hyper's request for `request`.
fn prepare(request: Request) -> Result<(Target, hyper::Request<Full<Bytes>>), SendError> {
    let uri = read_url(&request.url)
        .map_err(|e| SendError::Url(format!("`{}` is not a URL: {e}", request.url)))?;
    if uri.scheme_str() != Some("http") {
        return Err(SendError::Url(format!(
            "`{}` is not an http:// URL (devtools sessions speak plain HTTP on loopback)",
            request.url
        )));
    }
    let authority = uri
        .authority()
        .ok_or_else(|| SendError::Url(format!("`{}` names no host", request.url)))?;
    let name = authority.host().to_ascii_lowercase();
    let ip = if name == "localhost" {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    } else {
        name.trim_start_matches('[')
            .trim_end_matches(']')
            .parse()
            .map_err(|_| SendError::Lookup(name.clone()))?
    };
    // Callers check endpoints before they get here (lockfiles, `--endpoint`);
    // this is the last place a request could leave the machine, so it checks too.
    if !ip.is_loopback() {
        return Err(SendError::Url(format!(
            "`{}` is not on loopback: mur sends nothing off this machine",
            request.url
        )));
    }
    let port = authority.port_u16();
    // As a browser (and reqwest) writes it: the port only when not 80.
    let host = match port.filter(|p| *p != 80) {
        Some(port) => format!("{name}:{port}"),
        None => name,
    };
    let host = HeaderValue::from_str(&host)
        .map_err(|_| SendError::Url(format!("`{}` has an unusable host", request.url)))?;
    let to = Target {
        addr: SocketAddr::new(ip, port.unwrap_or(80)),
        host,
    };
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let mut outgoing = hyper::Request::new(Full::new(request.body));
    *outgoing.method_mut() = request.method;
    *outgoing.uri_mut() = path
        .parse()
        .map_err(|e| SendError::Url(format!("`{}` has an unusable path: {e}", request.url)))?;
    let headers = outgoing.headers_mut();
    headers.insert(HOST, to.host.clone());
    headers.extend(request.headers);
    headers
        .entry(ACCEPT)
        .or_insert(HeaderValue::from_static("*/*"));
    Ok((to, outgoing))
}

/// An idle connection to `to`, if one is still open. Every kept connection
/// found closed is let go, and its endpoint marked as closing them.
fn take(kept: &Mutex<Kept>, to: &Target) -> Option<(Sender, Written)> {
    let mut kept = kept.lock().ok()?;
    let Kept { idle, closing } = &mut *kept;
    for gone in idle.iter().filter(|idle| idle.sender.is_closed()) {
        if !closing.contains(&gone.to) {
            closing.push(gone.to.clone());
        }
    }
    idle.retain(|idle| !closing.contains(&idle.to));
    let at = idle.iter().rposition(|idle| idle.to == *to)?;
    let idle = idle.remove(at);
    Some((idle.sender, idle.written))
}

/// Marks `to` as an endpoint whose server closes kept connections: none is
/// kept for it from now on.
fn closing(kept: &Mutex<Kept>, to: &Target) {
    if let Ok(mut kept) = kept.lock()
        && !kept.closing.contains(to)
    {
        kept.closing.push(to.clone());
        kept.idle.retain(|idle| idle.to != *to);
    }
}

/// A new connection to `to`, driven by a task of its own on this runtime, and
/// whether the server spoke on it before anything was written.
async fn connect(to: &Target) -> Result<(Sender, Written, Spoke), SendError> {
    let unreached = |e| SendError::Connect(to.addr, e);
    let stream = tokio::net::TcpStream::connect(to.addr)
        .await
        .map_err(unreached)?;
    // Requests are written whole; waiting to fill a segment only delays them.
    stream.set_nodelay(true).map_err(unreached)?;
    let written = Written::default();
    let spoke = Spoke::default();
    let stream = Counted {
        stream,
        written: Arc::clone(&written),
        spoke: Arc::clone(&spoke),
    };
    let (sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .map_err(SendError::Http)?;
    // Its failures reach the request waiting on it, as a `send_request` error.
    tokio::spawn(async move {
        let _ = connection.await;
    });
    Ok((sender, written, spoke))
}

/// Set when a connection read bytes before it had written any. hyper says such a
/// greeting as "unexpected message" or as a parse error, depending on whether it
/// arrived before the request was written; this tells the first from a broken
/// connection, which is what a stopped session looks like.
type Spoke = Arc<AtomicBool>;

/// A connection's socket, counting the bytes written to it and noting bytes
/// read before any were written.
struct Counted {
    stream: tokio::net::TcpStream,
    written: Written,
    spoke: Spoke,
}

impl Counted {
    fn count(&self, wrote: &Poll<io::Result<usize>>) {
        if let Poll::Ready(Ok(n)) = wrote {
            self.written.fetch_add(*n as u64, Ordering::Relaxed);
        }
    }
}

impl tokio::io::AsyncRead for Counted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let read = Pin::new(&mut this.stream).poll_read(cx, buf);
        if buf.filled().len() > before && this.written.load(Ordering::Relaxed) == 0 {
            this.spoke.store(true, Ordering::Relaxed);
        }
        read
    }
}

impl tokio::io::AsyncWrite for Counted {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let wrote = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.count(&wrote);
        wrote
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let wrote = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.count(&wrote);
        wrote
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// The answer as a reqwest response (what the client reads), its body giving
/// the connection back to `kept` at its end.
fn answer(
    response: Response<Incoming>,
    kept: &Arc<Mutex<Kept>>,
    to: Target,
    sender: Sender,
    written: Written,
) -> reqwest::Response {
    let back = Some((
        Arc::clone(kept),
        Idle {
            to,
            sender,
            written,
        },
    ));
    let response = response.map(|body| reqwest::Body::wrap(GivesBack { body, back }));
    reqwest::Response::from(response)
}

/// A response body that returns its connection once read to the end; one
/// dropped before its end (or broken) takes its connection with it.
struct GivesBack {
    body: Incoming,
    back: Option<(Arc<Mutex<Kept>>, Idle)>,
}

impl GivesBack {
    fn give_back(&mut self) {
        let Some((kept, idle)) = self.back.take() else {
            return;
        };
        if let Ok(mut kept) = kept.lock()
            && !kept.closing.contains(&idle.to)
        {
            if kept.idle.len() >= MAX_IDLE {
                kept.idle.remove(0);
            }
            kept.idle.push(idle);
        }
    }
}

impl Body for GivesBack {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = self.get_mut();
        let frame = Pin::new(&mut this.body).poll_frame(cx);
        match &frame {
            Poll::Ready(None) => this.give_back(),
            Poll::Ready(Some(Ok(_))) if this.body.is_end_stream() => this.give_back(),
            Poll::Ready(Some(Err(_))) => this.back = None,
            _ => {}
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
