//! DNS-rebinding defence: every request must name a loopback host, and a browser
//! origin, when present, must be a loopback origin too.

use axum::{
    extract::Request,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};

/// Axum middleware run in front of every route, the probe included.
pub(crate) async fn loopback_only(request: Request, next: Next) -> Response {
    match check_headers(request.headers()) {
        Ok(()) => next.run(request).await,
        Err(reason) => forbidden(reason),
    }
}

fn forbidden(reason: &'static str) -> Response {
    let body = serde_json::json!({ "error": reason });
    (StatusCode::FORBIDDEN, axum::Json(body)).into_response()
}

fn check_headers(headers: &HeaderMap) -> Result<(), &'static str> {
    // Two Host (or Origin) headers: proxies and servers disagree on which one counts,
    // so a request could pass this check with one and be routed by the other.
    let host = match single(headers, &header::HOST) {
        Ok(host) => host,
        Err(()) => return Err("forbidden: more than one Host header"),
    };
    if !host
        .and_then(|value| value.to_str().ok())
        .is_some_and(is_loopback_authority)
    {
        return Err("forbidden: the Host header must name a loopback address");
    }
    match single(headers, &header::ORIGIN) {
        Err(()) => Err("forbidden: more than one Origin header"),
        Ok(None) => Ok(()),
        Ok(Some(origin)) if origin.to_str().is_ok_and(is_loopback_origin) => Ok(()),
        Ok(Some(_)) => Err("forbidden: the Origin header must be a loopback origin"),
    }
}

/// The header's only value, `None` when absent, `Err` when it appears more than once.
fn single<'a>(
    headers: &'a HeaderMap,
    name: &header::HeaderName,
) -> Result<Option<&'a HeaderValue>, ()> {
    let mut values = headers.get_all(name).iter();
    let first = values.next();
    match values.next() {
        None => Ok(first),
        Some(_) => Err(()),
    }
}

/// `127.0.0.1`, `localhost` or `[::1]`, each with an optional port.
pub(crate) fn is_loopback_authority(authority: &str) -> bool {
    let host = match authority.strip_prefix('[') {
        Some(bracketed) => match bracketed.split_once(']') {
            Some((inside, rest)) if rest.is_empty() || is_port_suffix(rest) => {
                return inside == "::1";
            }
            _ => return false,
        },
        None => match authority.split_once(':') {
            Some((host, port)) if is_port_suffix(&format!(":{port}")) => host,
            Some(_) => return false,
            None => authority,
        },
    };
    host == "127.0.0.1" || host.eq_ignore_ascii_case("localhost")
}

fn is_port_suffix(text: &str) -> bool {
    text.strip_prefix(':')
        .is_some_and(|port| !port.is_empty() && port.parse::<u16>().is_ok())
}

/// `http://` or `https://` followed by a loopback authority and nothing else.
pub(crate) fn is_loopback_origin(origin: &str) -> bool {
    let lower = origin.to_ascii_lowercase();
    let authority = lower
        .strip_prefix("http://")
        .or_else(|| lower.strip_prefix("https://"));
    authority.is_some_and(is_loopback_authority)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_with_and_without_port_are_accepted() {
        for host in [
            "127.0.0.1",
            "127.0.0.1:8080",
            "localhost",
            "LOCALHOST:1",
            "[::1]",
            "[::1]:65535",
        ] {
            assert!(is_loopback_authority(host), "{host} should be accepted");
        }
    }

    #[test]
    fn other_hosts_are_refused() {
        for host in [
            "evil.example",
            "evil.example:80",
            "localhost.evil.example",
            "127.0.0.1.nip.io",
            "127.0.0.2",
            "[::2]",
            "[::1]x",
            "localhost:",
            "localhost:99999",
            "",
            "0.0.0.0",
        ] {
            assert!(!is_loopback_authority(host), "{host} should be refused");
        }
    }

    #[test]
    fn a_repeated_host_or_origin_is_refused() {
        let mut headers = HeaderMap::new();
        headers.append(header::HOST, HeaderValue::from_static("127.0.0.1"));
        assert!(check_headers(&headers).is_ok());
        headers.append(header::HOST, HeaderValue::from_static("127.0.0.1"));
        assert_eq!(
            check_headers(&headers),
            Err("forbidden: more than one Host header")
        );

        let mut headers = HeaderMap::new();
        headers.append(header::HOST, HeaderValue::from_static("localhost"));
        headers.append(header::ORIGIN, HeaderValue::from_static("http://localhost"));
        assert!(check_headers(&headers).is_ok());
        headers.append(
            header::ORIGIN,
            HeaderValue::from_static("http://evil.example"),
        );
        assert_eq!(
            check_headers(&headers),
            Err("forbidden: more than one Origin header")
        );
    }

    #[test]
    fn origins_must_be_http_loopback() {
        assert!(is_loopback_origin("http://localhost:3000"));
        assert!(is_loopback_origin("https://127.0.0.1"));
        assert!(is_loopback_origin("http://[::1]:9"));
        assert!(!is_loopback_origin("null"));
        assert!(!is_loopback_origin("http://evil.example"));
        assert!(!is_loopback_origin("file://localhost"));
        assert!(!is_loopback_origin("http://localhost/path"));
    }
}
