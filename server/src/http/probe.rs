//! `GET /mcp`: the liveness probe readers use to confirm a lockfile points at us.

use std::sync::Arc;

use axum::{
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};

use crate::identity::SessionIdentity;

/// Answers the probe JSON, or 405 when the client wants an event stream
/// outside a session: a stateless server pushes nothing outside a request.
pub(crate) fn probe(identity: &Arc<SessionIdentity>, headers: &HeaderMap) -> Response {
    if wants_event_stream(headers) {
        let allow = [(header::ALLOW, "GET, POST, DELETE")];
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            allow,
            "Method Not Allowed: this server offers no event stream",
        )
            .into_response();
    }
    axum::Json(probe_body(identity)).into_response()
}

/// A GET for the event stream of a 2025-11-25 session (it names the session):
/// that goes to the MCP service, not the probe.
pub(crate) fn opens_session_stream(headers: &HeaderMap) -> bool {
    wants_event_stream(headers) && headers.contains_key("mcp-session-id")
}

fn probe_body(identity: &SessionIdentity) -> serde_json::Value {
    serde_json::json!({
        "schema": mur_lockfile::PROBE_SCHEMA,
        "pid": identity.pid,
        "project": identity.project,
        "buildTag": identity.build_tag,
        "startedAt": identity.started_at,
    })
}

pub(crate) fn wants_event_stream(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|media| mur_http::media_type_is(media, "text/event-stream"))
}
