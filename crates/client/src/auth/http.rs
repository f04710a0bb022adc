//! The HTTP client of the OAuth flow: every request rmcp's authorization
//! manager makes (protected resource metadata, authorization server metadata,
//! registration, token) goes through here, and goes only to loopback.
//!
//! rmcp's own client follows redirects and looks host names up; mur does
//! neither, so this implements rmcp's [`OAuthHttpClient`] over mur's client
//! (no redirects, no DNS) with `check_loopback` on every URL first.

use std::sync::Mutex;

use futures_util::StreamExt as _;
use oauth2::{HttpRequest, HttpResponse};
use rmcp::transport::auth::{OAuthHttpClient, OAuthHttpClientFuture, OAuthHttpRequest};

use crate::response::describe;
use mur_core::Error;

/// rmcp's OAuth HTTP client, bound to loopback.
pub(super) struct LoopbackHttp {
    http: reqwest::Client,
    /// The most bytes one response body may have.
    limit: u64,
    /// The first URL refused for not being loopback: rmcp folds a failed
    /// request into its own errors, and this is what the user must be told.
    refused: Mutex<Option<(String, String)>>,
}

impl LoopbackHttp {
    pub(super) fn new(http: reqwest::Client, limit: u64) -> Self {
        Self {
            http,
            limit,
            refused: Mutex::new(None),
        }
    }

    /// The URL refused, and why, if one was.
    pub(super) fn refused(&self) -> Option<(String, String)> {
        self.refused.lock().ok().and_then(|r| r.clone())
    }

    async fn execute_request(&self, request: HttpRequest) -> Result<HttpResponse, String> {
        let url = request.uri().to_string();
        if let Err(why) = mur_lockfile::endpoint::check_loopback(&url) {
            if let Ok(mut refused) = self.refused.lock() {
                refused.get_or_insert((url.clone(), why.clone()));
            }
            return Err(format!("`{url}` {why}"));
        }
        tracing::debug!("OAuth: {} {url}", request.method());
        let request = reqwest::Request::try_from(request).map_err(|e| e.to_string())?;
        let response = self
            .http
            .execute(request)
            .await
            .map_err(|e| format!("`{url}`: {}", describe(&e)))?;
        let mut head = oauth2::http::Response::builder().status(response.status());
        for (name, value) in response.headers() {
            head = head.header(name, value);
        }
        let mut body = Vec::new();
        let mut chunks = response.bytes_stream();
        while let Some(chunk) = chunks.next().await {
            let chunk = chunk.map_err(|e| format!("`{url}`: {}", describe(&e)))?;
            if (body.len() + chunk.len()) as u64 > self.limit {
                return Err(format!("`{url}` answered more than {} bytes", self.limit));
            }
            body.extend_from_slice(&chunk);
        }
        head.body(body).map_err(|e| e.to_string())
    }
}

impl OAuthHttpClient for LoopbackHttp {
    fn execute(&self, request: OAuthHttpRequest) -> OAuthHttpClientFuture<'_> {
        // Whatever redirect policy rmcp asks for, mur's client follows none:
        // a redirect comes back as the 3xx response it is.
        let request = request.request;
        Box::pin(async move { self.execute_request(request).await.map_err(Into::into) })
    }
}
/// The error for a URL of the flow that is not on loopback.
pub(crate) fn off_loopback(url: &str, why: &str) -> Error {
    let shown = reqwest::Url::parse(url)
        .map(|u| format!("{}{}", u.origin().ascii_serialization(), u.path()))
        .unwrap_or_else(|_| url.to_owned());
    Error::transport(format!(
        "the OAuth flow leads to `{shown}`, which {why}; mur reaches only loopback servers"
    ))
}
