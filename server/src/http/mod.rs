//! The loopback HTTP endpoint: `/mcp` for MCP (POST, DELETE) and the probe (GET),
//! all behind the Host/Origin guard.

mod guard;
mod probe;

use std::{net::SocketAddr, sync::Arc, time::Duration};

use axum::{Router, middleware, routing::get};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::{ServeError, identity::SessionIdentity, mcp::DevtoolsHandler};

/// Longest we wait for in-flight responses once shutdown has begun.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(3);

/// Binds 127.0.0.1 on `port` (0: any free port).
pub(crate) async fn bind(port: u16) -> Result<TcpListener, ServeError> {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Bind { addr, source })
}

fn router(
    handler: DevtoolsHandler,
    identity: Arc<SessionIdentity>,
    mcp_cancel: CancellationToken,
) -> Router {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(true)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_cancellation_token(mcp_cancel);
    let mcp = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let mcp_route = get(probe::probe)
        .post_service(mcp.clone())
        .delete_service(mcp)
        .with_state(identity);
    Router::new()
        .route("/mcp", mcp_route)
        // `layer` (not `route_layer`) so unknown paths are guarded as well.
        .layer(middleware::from_fn(guard::loopback_only))
}

/// Serves until `stop` resolves, then lets in-flight responses finish (bounded)
/// so a tool that asked for a reload still gets its answer to the client.
pub(crate) async fn serve_until(
    listener: TcpListener,
    handler: DevtoolsHandler,
    identity: Arc<SessionIdentity>,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let mcp_cancel = CancellationToken::new();
    let app = router(handler, identity, mcp_cancel.child_token());
    let (stopping_tx, stopping_rx) = tokio::sync::oneshot::channel::<()>();
    let shutdown = async move {
        stop.await;
        let _ = stopping_tx.send(());
    };
    let server = axum::serve(listener, app).with_graceful_shutdown(shutdown);
    let server = std::pin::pin!(server.into_future());
    let drained = drain_after_stop(server, stopping_rx).await;
    mcp_cancel.cancel();
    drained.map_err(ServeError::io("http server failed"))
}

/// Runs the server; once stop has been signalled, gives it [`DRAIN_TIMEOUT`] to finish.
async fn drain_after_stop(
    mut server: std::pin::Pin<&mut impl Future<Output = std::io::Result<()>>>,
    stopping: tokio::sync::oneshot::Receiver<()>,
) -> std::io::Result<()> {
    tokio::select! {
        result = &mut server => return result,
        _ = stopping => {}
    }
    match tokio::time::timeout(DRAIN_TIMEOUT, server).await {
        Ok(result) => result,
        Err(_) => {
            tracing::warn!(
                "in-flight requests did not finish within {DRAIN_TIMEOUT:?}; closing anyway"
            );
            Ok(())
        }
    }
}
