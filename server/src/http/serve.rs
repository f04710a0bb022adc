//! The accept loop: HTTP/1.1 connections with a header-read timeout, under a cap.
//!
//! In place of `axum::serve`, which sets no timeout and no cap: a silent, idle or
//! trickling connection would stay open forever, and enough of them exhaust the
//! process's file descriptors so that no real client gets in.

use std::{convert::Infallible, io, pin::pin, sync::Arc, time::Duration};

use axum::{Router, extract::Request};
use hyper::{body::Incoming, server::conn::http1};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::{net::TcpListener, task::JoinSet};
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

use super::{
    connections::{Admission, Connections},
    limits::{HttpLimits, MAX_HEADER_BYTES},
};

/// Longest we wait for in-flight responses once shutdown has begun.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(3);

/// Pause after an accept error that is not about one connection (out of file
/// descriptors, memory): retrying at once would spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Serves `app` on `listener` until `stop` resolves, then stops accepting, lets
/// in-flight responses finish (at most [`DRAIN_TIMEOUT`]) and closes the rest.
/// The listener is returned, still open: the caller lets the port go (only once
/// `stop` has resolved: what names it to clients, a session's lockfile or a
/// bridge's sidecar, is removed in `stop`, while the port is still this
/// process's, never after another process could bind it), or hands it to a
/// reload's successor, or serves on. Connections that arrive meanwhile wait in
/// its queue, unanswered but not refused.
pub(crate) async fn serve_until(
    listener: TcpListener,
    app: Router,
    limits: HttpLimits,
    stop: impl Future<Output = ()>,
) -> TcpListener {
    let connections = Connections::new(limits.max_connections);
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_header_size(MAX_HEADER_BYTES);
    let stopping = CancellationToken::new();
    let mut tasks = JoinSet::new();
    let mut stop = pin!(stop);
    let mut accept_failing = false;
    loop {
        let accepted = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => accepted,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(error) => {
                accept_failed(&error, &connections, &mut accept_failing).await;
                continue;
            }
        };
        accept_failing = false;
        let admission = tokio::select! {
            () = &mut stop => break,
            admission = connections.admit() => admission,
        };
        let service = hyper_service(app.clone(), &admission);
        let connection = http.serve_connection(TokioIo::new(stream), service);
        tasks.spawn(run_connection(connection, admission, stopping.clone()));
    }
    stopping.cancel();
    let drained = tokio::time::timeout(DRAIN_TIMEOUT, async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            "in-flight requests did not finish within {DRAIN_TIMEOUT:?}; closing anyway"
        );
    }
    // Dropping `tasks` aborts whatever is left, closing those sockets.
    listener
}

/// Each request carries its connection's handle, so the body check can mark it in flight.
fn hyper_service(
    app: Router,
    admission: &Admission,
) -> impl hyper::service::Service<
    hyper::Request<Incoming>,
    Response = axum::response::Response,
    Error = Infallible,
    Future: Send,
> + use<> {
    let connection = admission.connection();
    hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let mut request: Request = request.map(axum::body::Body::new);
        request.extensions_mut().insert(connection.clone());
        app.clone().oneshot(request)
    })
}

/// Drives one connection until it ends, is evicted, or shutdown lets it finish gracefully.
async fn run_connection<S>(
    connection: http1::Connection<TokioIo<tokio::net::TcpStream>, S>,
    admission: Admission,
    stopping: CancellationToken,
) where
    S: hyper::service::HttpService<Incoming, ResBody = axum::body::Body>,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let evicted = admission.evicted();
    let mut connection = pin!(connection);
    tokio::select! {
        biased;
        // Dropping the connection closes its socket; it had no request in flight.
        () = evicted.cancelled() => return,
        result = connection.as_mut() => return log_end(result),
        () = stopping.cancelled() => {}
    }
    // Closes it at once when idle; otherwise after the response in flight.
    connection.as_mut().graceful_shutdown();
    log_end(connection.await);
}

fn log_end(result: hyper::Result<()>) {
    if let Err(error) = result {
        // Timeouts and clients that hang up are routine; nothing for the app's log.
        tracing::debug!("connection ended: {error}");
    }
}

/// `failing` is set while accepts keep failing, so the log gets one line per episode.
async fn accept_failed(error: &io::Error, connections: &Arc<Connections>, failing: &mut bool) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return; // that one client gave up; the next accept is unaffected
    }
    // Most likely out of file descriptors (EMFILE): free one for the next client.
    let evicted = connections.evict_one_idle();
    if !std::mem::replace(failing, true) {
        let freed = if evicted {
            "closed an idle connection"
        } else {
            "no idle connection to close"
        };
        tracing::warn!("cannot accept a connection: {error}; {freed}; retrying");
    }
    tokio::time::sleep(ACCEPT_BACKOFF).await;
}
