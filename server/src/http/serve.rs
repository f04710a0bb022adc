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

/// Once shutdown has begun, longest we wait for the first request of a connection
/// accepted that has not sent one yet; then it is closed. Its client may be sending
/// it right now (a request sent right after a reload's answer): one already written
/// arrives on loopback in microseconds, and 250 ms also covers a client descheduled
/// between its connect and its write on a loaded machine. A client that holds a
/// connection open and sends nothing (a browser's preconnect, an idle pooled
/// connection, a probe) is the common case, though, and every stop and reload waits
/// this long for it: waiting for the whole [`DRAIN_TIMEOUT`] made each take 3 s and
/// the next `mur` call time out; 250 ms is not noticed.
const FIRST_REQUEST_GRACE: Duration = Duration::from_millis(250);

/// Pause after an accept error that is not about one connection (out of file
/// descriptors, memory): retrying at once would spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Serves `app` on `listener` until `stop` resolves, then stops accepting, lets
/// in-flight responses finish (at most [`DRAIN_TIMEOUT`]), answers each connection
/// accepted its first request if it comes within [`FIRST_REQUEST_GRACE`], and
/// closes the rest.
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
    serve_and_drain(listener, app, limits, stop, DRAIN_TIMEOUT)
        .await
        .0
}

/// [`serve_until`], draining for at most `drain_limit`; also says whether every
/// connection had ended by then (`false`: some were closed unfinished).
async fn serve_and_drain(
    listener: TcpListener,
    app: Router,
    limits: HttpLimits,
    stop: impl Future<Output = ()>,
    drain_limit: Duration,
) -> (TcpListener, bool) {
    let connections = Connections::new(limits.max_connections);
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_header_size(MAX_HEADER_BYTES);
    let stopping = CancellationToken::new();
    // Cancels every connection's `asked` (its child) once the stop's grace for a
    // first request is over: one that has not sent it then is closed.
    let grace_over = CancellationToken::new();
    let mut tasks = JoinSet::new();
    let mut stop = pin!(stop);
    let mut accept_failing = false;
    loop {
        // `biased`, the stop first: once it has come, a connection still in the
        // queue stays there, for a reload's successor to answer (it arrived after
        // the reload was asked for: the client sent it for the new process), not
        // accepted by this process, which is about to stop.
        let accepted = tokio::select! {
            biased;
            () = &mut stop => break,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(error) => {
                accept_failed(&error, &connections, &mut accept_failing).await;
                continue;
            }
        };
        accept_failing = false;
        // A connection accepted is served, even when the stop comes while it waits
        // for room at the cap: dropped here, its request would be reset unanswered
        // (it cannot go back to the queue). One over the cap, for the drain only.
        let (admission, stopped) = tokio::select! {
            biased;
            admission = connections.admit() => (admission, false),
            () = &mut stop => (connections.admit_over_cap(), true),
        };
        let asked = grace_over.child_token();
        let service = hyper_service(app.clone(), &admission, asked.clone());
        let connection = http.serve_connection(TokioIo::new(stream), service);
        tasks.spawn(run_connection(
            connection,
            admission,
            asked,
            stopping.clone(),
        ));
        if stopped {
            break;
        }
    }
    stopping.cancel();
    let drained = tokio::time::timeout(drain_limit, async {
        let grace = async {
            tokio::time::sleep(FIRST_REQUEST_GRACE).await;
            grace_over.cancel();
            std::future::pending().await
        };
        tokio::select! {
            () = async { while tasks.join_next().await.is_some() {} } => {}
            () = grace => {}
        }
    })
    .await
    .is_ok();
    if !drained {
        tracing::warn!("in-flight requests did not finish within {drain_limit:?}; closing anyway");
    }
    // Dropping `tasks` aborts whatever is left, closing those sockets.
    (listener, drained)
}

/// Each request carries its connection's handle, so the body check can mark it in
/// flight; `asked` is cancelled once the connection's first request has come.
fn hyper_service(
    app: Router,
    admission: &Admission,
    asked: CancellationToken,
) -> impl hyper::service::Service<
    hyper::Request<Incoming>,
    Response = axum::response::Response,
    Error = Infallible,
    Future: Send,
> + use<> {
    let connection = admission.connection();
    hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        asked.cancel();
        let mut request: Request = request.map(axum::body::Body::new);
        request.extensions_mut().insert(connection.clone());
        app.clone().oneshot(request)
    })
}

/// Drives one connection until it ends, is evicted, or shutdown lets it finish
/// gracefully; `asked` is cancelled once its first request has come, or once the
/// stop's grace for it is over.
async fn run_connection<S>(
    connection: http1::Connection<TokioIo<tokio::net::TcpStream>, S>,
    admission: Admission,
    asked: CancellationToken,
    stopping: CancellationToken,
) where
    S: hyper::service::HttpService<Incoming, ResBody = axum::body::Body>,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let evicted = admission.evicted();
    let mut connection = pin!(connection);
    // Until the stop, then until its first request has come or the grace for it is
    // over (see below).
    for wanted in [&stopping, &asked] {
        tokio::select! {
            biased;
            // Dropping the connection closes its socket; it had no request in flight.
            () = evicted.cancelled() => return,
            result = connection.as_mut() => return log_end(result),
            () = wanted.cancelled() => {}
        }
    }
    // Closes it at once when idle; otherwise after the response in flight. A
    // connection that has not sent its first request yet is not idle: its client
    // opened it to send one (right after a reload's answer, say) and may be
    // sending it now; hyper would close it unread, resetting that request
    // unanswered. So it is shut down once that request has come, or once the
    // grace for it is over ([`FIRST_REQUEST_GRACE`]): then, having read nothing,
    // it is closed at once (one partway through its request head is answered).
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

#[cfg(test)]
mod tests {
    use axum::{Extension, routing::get};
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    use tokio::net::TcpStream;

    use super::super::connections::Connection;
    use super::*;

    const REQUEST: &[u8] = b"GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n";

    /// An app whose one page says `who` answered.
    fn app(who: &'static str) -> Router {
        Router::new().route("/", get(move || async move { who }))
    }

    async fn listener() -> TcpListener {
        TcpListener::bind("127.0.0.1:0").await.expect("a listener")
    }

    /// All `client` reads until the server closes it, or why it could not.
    async fn answer(client: &mut TcpStream) -> String {
        let mut answer = String::new();
        match client.read_to_string(&mut answer).await {
            Ok(_) => answer,
            Err(error) => format!("{answer}<{error}>"),
        }
    }

    /// Sends a keep-alive request on `client` and checks that the predecessor answers
    /// it: the answer is read to the end as the server, stopping, closes the
    /// connection after it.
    async fn asks_the_stopping_predecessor(client: &mut TcpStream) {
        client
            .write_all(b"GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n")
            .await
            .expect("the request");
        let answer = answer(client).await;
        assert!(
            answer.starts_with("HTTP/1.1 200 ") && answer.ends_with("\r\n\r\npredecessor"),
            "{answer}"
        );
    }

    /// `listener` served as a reload's successor does, until `client` is answered.
    async fn answer_as_successor(listener: TcpListener, client: &mut TcpStream) -> String {
        let answered = CancellationToken::new();
        let successor = tokio::spawn(serve_until(
            listener,
            app("successor"),
            HttpLimits::default(),
            answered.clone().cancelled_owned(),
        ));
        let answer = answer(client).await;
        answered.cancel();
        successor.await.expect("the successor's accept loop");
        answer
    }

    /// A client's request that reaches the listener once the stop has come (right
    /// after a reload's answer) is left in its queue: the successor answers it,
    /// never this process, which would answer it from the old build or reset it
    /// unanswered. Which of two ready branches a `select!` takes is random, so
    /// this tries 20 times: a loop that may still accept passes all of them once
    /// in a million runs.
    #[tokio::test]
    async fn a_connection_still_queued_at_the_stop_is_left_for_the_successor() {
        for _ in 0..20 {
            let listener = listener().await;
            let mut client = TcpStream::connect(listener.local_addr().expect("address"))
                .await
                .expect("connect");
            client.write_all(REQUEST).await.expect("the request");
            let stop = std::future::ready(());
            let listener =
                serve_until(listener, app("predecessor"), HttpLimits::default(), stop).await;
            let answer = answer_as_successor(listener, &mut client).await;
            assert!(
                answer.starts_with("HTTP/1.1 200 ") && answer.ends_with("\r\n\r\nsuccessor"),
                "{answer}"
            );
        }
    }

    /// A connection accepted before the stop whose request comes only after it (its
    /// client has just connected) is answered, not closed unread: hyper closes a
    /// connection that has read nothing at once when shut down, which reset the
    /// client's request (a Python SDK client's `ReadError` right after a reload).
    #[tokio::test]
    async fn a_connection_accepted_before_the_stop_has_its_first_request_answered() {
        let listener = listener().await;
        let mut client = TcpStream::connect(listener.local_addr().expect("address"))
            .await
            .expect("connect");
        let (stream, _) = listener.accept().await.expect("accept");
        let connections = Connections::new(4);
        let admission = connections.admit().await;
        let asked = CancellationToken::new();
        let service = hyper_service(app("predecessor"), &admission, asked.clone());
        let connection = http1::Builder::new().serve_connection(TokioIo::new(stream), service);
        let stopping = CancellationToken::new();
        stopping.cancel();
        let served = tokio::spawn(run_connection(connection, admission, asked, stopping));
        // This runtime has one thread: the connection's task runs now, meets the
        // stop and nothing to read, and only then is the request sent.
        tokio::task::yield_now().await;
        asks_the_stopping_predecessor(&mut client).await;
        served.await.expect("the connection's task");
    }

    /// At the stop, a connection that has sent nothing (a browser's preconnect, an
    /// idle pooled connection) is closed once the grace for its first request is
    /// over, not kept until the drain limit (every stop and reload took 3 s then),
    /// while another one accepted before the stop still has its request answered.
    /// The drain limit is long here, and the header timeout longer still (it would
    /// close the silent connection too): the stop must not reach the limit.
    #[tokio::test]
    async fn at_the_stop_a_connection_that_sends_nothing_is_closed_before_the_drain_limit() {
        use std::os::fd::AsRawFd as _;
        let drain_limit = Duration::from_secs(30);
        let limits = HttpLimits {
            header_read_timeout: 2 * drain_limit,
            ..HttpLimits::default()
        };
        let listener = listener().await;
        let address = listener.local_addr().expect("address");
        let queue = listener.as_raw_fd();
        let mut silent = TcpStream::connect(address).await.expect("connect");
        let mut client = TcpStream::connect(address).await.expect("connect");
        let stop = CancellationToken::new();
        let served = tokio::spawn(serve_and_drain(
            listener,
            app("predecessor"),
            limits,
            stop.clone().cancelled_owned(),
            drain_limit,
        ));
        // Both are accepted once the listener's queue is empty.
        while readable(queue) {
            tokio::task::yield_now().await;
        }
        stop.cancel();
        // This runtime has one thread: the accept loop meets the stop now.
        tokio::task::yield_now().await;
        asks_the_stopping_predecessor(&mut client).await;
        let (_listener, drained) = served.await.expect("the accept loop");
        assert!(drained, "the stop waited for the drain limit");
        assert_eq!(self::answer(&mut silent).await, "", "the silent connection");
    }

    /// A connection accepted as the stop comes while it waits for room at the cap
    /// (every connection busy) is served all the same: dropped, it cannot go back
    /// to the queue, and its request would be reset unanswered.
    #[tokio::test]
    async fn a_connection_waiting_for_room_when_the_stop_comes_is_answered() {
        use std::os::fd::AsRawFd as _;
        let listener = listener().await;
        let address = listener.local_addr().expect("address");
        let queue = listener.as_raw_fd();
        let release = Arc::new(tokio::sync::Notify::new());
        let entered = Arc::new(tokio::sync::Notify::new());
        let held = Router::new()
            .route(
                "/hold",
                get({
                    let (release, entered) = (release.clone(), entered.clone());
                    // Busy as the real app's body check marks a request.
                    move |Extension(connection): Extension<Connection>| async move {
                        let _busy = connection.busy();
                        entered.notify_one();
                        release.notified().await;
                        "held"
                    }
                }),
            )
            .merge(app("predecessor"));
        let limits = HttpLimits {
            max_connections: 1,
            ..HttpLimits::default()
        };
        let mut busy = TcpStream::connect(address).await.expect("connect");
        let mut waiting = None;
        let stop = async {
            busy.write_all(b"GET /hold HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n")
                .await
                .expect("the held request");
            entered.notified().await;
            let mut client = TcpStream::connect(address).await.expect("connect");
            client.write_all(REQUEST).await.expect("the request");
            // Accepted once the listener's queue is empty again: it then waits
            // for room, as the only connection allowed is busy.
            while readable(queue) {
                tokio::task::yield_now().await;
            }
            waiting = Some(client);
            release.notify_one();
        };
        let listener = serve_until(listener, held, limits, stop).await;
        let mut client = waiting.expect("the second client");
        let answer = answer(&mut client).await;
        assert!(answer.ends_with("\r\n\r\npredecessor"), "{answer}");
        let held = self::answer(&mut busy).await;
        assert!(held.ends_with("\r\n\r\nheld"), "{held}");
        drop(listener);
    }

    /// Whether the listening socket `fd` has a connection in its queue.
    fn readable(fd: std::os::fd::RawFd) -> bool {
        let mut poll = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one pollfd, for a socket the test's accept loop holds open; a
        // zero timeout only looks.
        #[allow(unsafe_code)]
        let ready = unsafe { libc::poll(&raw mut poll, 1, 0) };
        ready > 0 && poll.revents & libc::POLLIN != 0
    }
}
