//! The loopback HTTP endpoint: `/mcp` for MCP (POST, DELETE) and the probe (GET),
//! all behind the Host/Origin guard (and, for the stdio bridge's, its secret),
//! served with timeouts and a connection cap.

mod body;
mod connections;
mod guard;
mod limits;
mod probe;
mod secret;
mod serve;

use std::{net::SocketAddr, sync::Arc};

use axum::{
    Router,
    extract::{DefaultBodyLimit, Request, State},
    middleware,
    routing::get,
};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

pub use body::is_json;
pub use limits::HttpLimits;

use crate::error::ServeError;
use crate::{identity::SessionIdentity, mcp::DevtoolsHandler};

/// Connections the kernel completes and queues for us before it drops new ones
/// (tokio's `TcpListener::bind` queues 128): a burst of connections — a flood
/// while we evict idle ones — then does not cost a real client a retried SYN (1 s).
const ACCEPT_BACKLOG: u32 = 1024;

/// Binds 127.0.0.1 on `port` (0: any free port).
pub(crate) async fn bind(port: u16) -> Result<TcpListener, ServeError> {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let listen = || {
        let socket = tokio::net::TcpSocket::new_v4()?;
        // As `TcpListener::bind` does: a reload's successor can take a fixed port
        // while the old connections linger in TIME_WAIT.
        #[cfg(unix)]
        socket.set_reuseaddr(true)?;
        socket.bind(addr)?;
        socket.listen(ACCEPT_BACKLOG)
    };
    listen().map_err(|source| ServeError::Bind { addr, source })
}

fn router(
    handler: DevtoolsHandler,
    identity: Arc<SessionIdentity>,
    limits: HttpLimits,
    mcp_cancel: CancellationToken,
) -> Router {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(true)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_max_request_body_bytes(limits::MAX_BODY_BYTES)
        .with_cancellation_token(mcp_cancel);
    let mcp = StreamableHttpService::new(
        move || Ok(handler.for_new_session()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let stream = mcp.clone();
    let mcp_route = get(
        move |State(identity): State<Arc<SessionIdentity>>, request: Request| async move {
            if probe::opens_session_stream(request.headers()) {
                // A 2025-11-25 session's own event stream: log messages and other
                // notifications not tied to one request reach the client there.
                return match stream.oneshot(request).await {
                    Ok(response) => response.map(axum::body::Body::new),
                    Err(never) => match never {},
                };
            }
            probe::probe(&identity, request.headers())
        },
    )
    .post_service(mcp.clone())
    .delete_service(mcp)
    .with_state(identity);
    guarded(Router::new().route("/mcp", mcp_route), limits, None)
}

/// `/mcp` answering the probe on GET and `post` on its other methods, behind
/// the same guard and body limits as a session's (the stdio bridge's endpoint),
/// and with `secret`, only for requests that carry it (the probe excepted).
pub(crate) fn endpoint_router(
    identity: Arc<SessionIdentity>,
    limits: HttpLimits,
    post: axum::routing::MethodRouter,
    secret: Option<Arc<str>>,
) -> Router {
    let probe =
        get(move |request: Request| async move { probe::probe(&identity, request.headers()) });
    guarded(
        Router::new().route("/mcp", probe.merge(post)),
        limits,
        secret,
    )
}

/// `routes` behind what every endpoint applies, a session's and the bridge's alike:
/// the Host/Origin guard and the body's deadline and size cap; with `secret` (the
/// bridge's), the check for it between the two, so that a request without it is
/// refused before its body is read.
fn guarded(routes: Router, limits: HttpLimits, secret: Option<Arc<str>>) -> Router {
    let body_limits = body::BodyLimits {
        read_timeout: limits.body_read_timeout,
        max_bytes: limits::MAX_BODY_BYTES,
    };
    let routes = routes
        // axum's own body extractors (the bridge's `Bytes`) stop at 2 MB unless told,
        // with a plain-text 413: they take what `check_post_body` let through.
        .layer(DefaultBodyLimit::max(limits::MAX_BODY_BYTES))
        // `layer` (not `route_layer`) so unknown paths are guarded as well; the
        // guard is added last, so it runs first.
        .layer(middleware::from_fn_with_state(
            body_limits,
            body::check_post_body,
        ));
    let routes = match secret {
        Some(secret) => routes.layer(middleware::from_fn_with_state(
            secret::Secret(secret),
            secret::required,
        )),
        None => routes,
    };
    routes.layer(middleware::from_fn(guard::loopback_only))
}

/// Serves any `app` with the accept loop's timeouts and connection cap until
/// `stop`; returns the listener, still open (see [`serve::serve_until`]).
pub(crate) async fn serve_app_until(
    listener: TcpListener,
    app: Router,
    limits: HttpLimits,
    stop: impl Future<Output = ()>,
) -> TcpListener {
    serve::serve_until(listener, app, limits, stop).await
}

/// A session's app: MCP on `/mcp` through `handler`, and the probe. Serve it with
/// [`serve_app_until`], as often as the session resumes serving (a reload that
/// failed), and cancel the returned token once it is served no more: it ends
/// the MCP sessions' tasks.
pub(crate) fn session_app(
    handler: DevtoolsHandler,
    identity: Arc<SessionIdentity>,
    limits: HttpLimits,
) -> (Router, CancellationToken) {
    let mcp_cancel = CancellationToken::new();
    let app = router(handler, identity, limits, mcp_cancel.child_token());
    (app, mcp_cancel)
}

/// A listening socket handed over by a reload's predecessor, for tokio.
pub(crate) fn adopt(listener: std::net::TcpListener) -> Result<TcpListener, ServeError> {
    TcpListener::from_std(listener).map_err(ServeError::io("cannot serve the inherited socket"))
}
