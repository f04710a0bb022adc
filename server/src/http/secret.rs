//! An endpoint that takes requests only with its secret (the stdio bridge's:
//! the server behind it trusts its parent alone, and the loopback port is every
//! local user's to reach). Every request but the probe — a `GET` that asks for
//! no event stream, which discovery and `--auto` read to tell a session from a
//! stale lockfile — must carry `Authorization: Bearer <secret>`; any other is
//! answered 401 before its body is read. An app's own session has no secret
//! (seed 000) and never passes through here.

use std::sync::Arc;

use axum::{
    extract::{Request, State},
    http::{HeaderMap, HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};

/// What a client without the secret is told; the same words whatever it sent,
/// so that a wrong secret says no more than none.
const REFUSAL: &str = "unauthorized: this endpoint takes requests only with its secret \
                       (`Authorization: Bearer …`), which `mur` reads from the bridge's private sidecar file";

/// The secret as the middleware holds it.
#[derive(Clone)]
pub(crate) struct Secret(pub(crate) Arc<str>);

/// Axum middleware behind the Host/Origin guard, in front of the body's read.
pub(crate) async fn required(
    State(secret): State<Secret>,
    request: Request,
    next: Next,
) -> Response {
    let probe =
        request.method() == Method::GET && !super::probe::wants_event_stream(request.headers());
    if probe || carries(request.headers(), &secret.0) {
        return next.run(request).await;
    }
    let challenge = [(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"mur-bridge\""),
    )];
    let body = serde_json::json!({ "error": REFUSAL });
    (StatusCode::UNAUTHORIZED, challenge, axum::Json(body)).into_response()
}

/// Whether `headers` hold one `Authorization: Bearer <secret>` with this secret.
fn carries(headers: &HeaderMap, secret: &str) -> bool {
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let (Some(value), None) = (values.next(), values.next()) else {
        return false;
    };
    let value = value.as_bytes();
    let Some((scheme, token)) = value.split_at_checked(7) else {
        return false;
    };
    scheme.eq_ignore_ascii_case(b"bearer ") && same(token, secret.as_bytes())
}

/// `a == b` in time that depends on their lengths alone, not on where they first
/// differ: a client timing refusals learns nothing of the secret byte by byte.
/// (std has no such comparison, and the secret's length is no secret: 64 hex digits.)
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let differ = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(differ) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(
                header::AUTHORIZATION,
                HeaderValue::from_str(value).expect("value"),
            );
        }
        headers
    }

    #[test]
    fn only_the_one_bearer_secret_is_taken() {
        assert!(carries(&with(&["Bearer abc123"]), "abc123"));
        assert!(carries(&with(&["bearer abc123"]), "abc123"));
        for refused in [
            &[][..],
            &["Bearer abc124"],
            &["Bearer abc12"],
            &["Bearer abc1234"],
            &["Basic abc123"],
            &["Bearer"],
            &["abc123"],
            &["Bearer  abc123"],
            &["Bearer abc123", "Bearer abc123"],
        ] {
            assert!(!carries(&with(refused), "abc123"), "{refused:?} taken");
        }
    }
}
