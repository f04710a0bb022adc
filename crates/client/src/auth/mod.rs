//! OAuth 2.1 for an MCP server that answers 401 (the MCP authorization spec,
//! 2025-11-25 and 2026-07-28): the Bearer token on every request once mur
//! holds one, and on a `401` (or a `403` with `insufficient_scope`) the flow
//! that gets one, after which the request is sent again.
//!
//! The flow is rmcp's authorization manager: protected resource metadata
//! (RFC 9728: the challenge's `resource_metadata`, else the well-known
//! paths) and its `resource` checked against the endpoint; authorization
//! server metadata (RFC 8414 and OpenID discovery, path-insertion variants)
//! and its `issuer` checked; PKCE S256, the `resource` parameter (RFC 8707),
//! `iss` compared by simple string comparison (RFC 9207); the token endpoint
//! authenticated as the server advertises; scopes from the challenge, else
//! the resource's `scopes_supported`, else none (plus `offline_access` when
//! the authorization server offers it). mur adds what is its own: which
//! client it is (`MUR_OAUTH_CLIENT_ID` / `MUR_OAUTH_CLIENT_SECRET`, else the
//! client it registered at the same issuer before, else the Client ID
//! Metadata Document at `MUR_OAUTH_CLIENT_METADATA_URL` when the server takes
//! one, else dynamic registration), the authorization step ([`agent`]), the
//! tokens kept per endpoint ([`store`]), a step-up asking for the granted
//! scopes plus the challenged ones, at most [`MAX_AUTHORIZATIONS`] per call,
//! and loopback only: every URL of the flow passes `check_loopback`
//! ([`http`]).

mod agent;
mod http;
mod store;

use std::sync::{Arc, Mutex};

use oauth2::TokenResponse as _;
use reqwest::StatusCode;
use reqwest::header::WWW_AUTHENTICATE;
use rmcp::transport::auth::{
    AuthError, AuthorizationManager, AuthorizationMetadata, AuthorizationRequest,
    AuthorizationSession, CredentialStore as _, InMemoryCredentialStore, OAuthClientConfig,
    OAuthTokenResponse, StoredCredentials, WWWAuthenticateParams,
};

pub(crate) use agent::Person;
use http::off_loopback;
use mur_core::{Error, Result};
use mur_http::{Http, Request};

/// The most authorizations (flows and refreshes) one call goes through: a
/// server that keeps refusing after them is not going to stop.
const MAX_AUTHORIZATIONS: u32 = 3;
/// The client name mur registers with.
const CLIENT_NAME: &str = "mur";
/// A pre-registered client (the authorization server offers no registration).
const ENV_CLIENT_ID: &str = "MUR_OAUTH_CLIENT_ID";
const ENV_CLIENT_SECRET: &str = "MUR_OAUTH_CLIENT_SECRET";
/// The HTTPS URL of the Client ID Metadata Document describing mur, published
/// by the user: used as the client id where the server supports them.
const ENV_CLIENT_METADATA_URL: &str = "MUR_OAUTH_CLIENT_METADATA_URL";

/// The OAuth state of one client of one endpoint.
pub(crate) struct Auth {
    endpoint: String,
    /// The most bytes one metadata or token response may have.
    limit: u64,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Whether the token file was looked for.
    loaded: bool,
    grant: Option<store::Grant>,
    authorizations: u32,
}

/// What discovery found that the authorization needs.
struct Flow {
    /// The grant held before, when the same issuer issued it.
    held: Option<store::Grant>,
    issuer: Option<String>,
    /// Whether the server takes Client ID Metadata Documents.
    documents: bool,
    /// Whether the server registers clients (RFC 7591).
    registers: bool,
}

/// Why the server refused a request, when it asks for (more) authorization.
pub(crate) struct Challenge {
    /// The `WWW-Authenticate` value, if any.
    header: Option<String>,
    /// A `403 insufficient_scope`: the scopes it asks for.
    step_up: Option<Vec<String>>,
}

impl Auth {
    /// No I/O: the token file is looked for with the first request.
    pub(crate) fn new(endpoint: &str, limit: u64) -> Self {
        Self {
            endpoint: endpoint.to_owned(),
            limit,
            state: Mutex::new(State::default()),
        }
    }

    /// `request` with this endpoint's Bearer token, when mur holds one.
    pub(crate) fn authorize(&self, request: Request) -> Request {
        match self.token() {
            Some(token) => request.bearer(&token),
            None => request,
        }
    }

    fn token(&self) -> Option<String> {
        let mut state = self.state.lock().ok()?;
        if !state.loaded {
            state.loaded = true;
            state.grant = store::load(&self.endpoint);
        }
        state
            .grant
            .as_ref()
            .and_then(|g| g.access_token().map(str::to_owned))
    }

    /// Sends `request` with the token; on a challenge, authorizes and sends
    /// it again (bounded by [`MAX_AUTHORIZATIONS`]).
    pub(crate) async fn send(
        &self,
        http: &Http,
        person: &Person<'_>,
        request: Request,
    ) -> Result<reqwest::Response> {
        loop {
            let response = http
                .send(self.authorize(request.clone()))
                .await
                // Only an endpoint given as is takes OAuth (`Access::OAuth`).
                .map_err(|e| crate::response::unreached(&self.endpoint, &e, true))?;
            // A bridge's: it has no authorization server; the caller says so.
            if crate::response::refused_by_a_bridge(&response) {
                return Ok(response);
            }
            if let Some(scheme) = other_scheme(&response) {
                return Err(Error::transport(format!(
                    "`{}` answered HTTP {} asking for `{scheme}` authorization, which mur does \
                     not do (it does OAuth with Bearer tokens)",
                    self.endpoint,
                    response.status()
                )));
            }
            let Some(challenge) = challenge(&response, &self.endpoint) else {
                return Ok(response);
            };
            // The OAuth flow's requests go through rmcp and oauth2, written
            // for a reqwest client: the first challenge builds it. Failing to build
            // it is this machine's trouble (TLS set-up), not the endpoint's.
            let client = http.client().map_err(Error::internal)?;
            // Boxed: the authorization flow's state is tens of KB, and every
            // call's future (and the stack frames that hold it) would carry it.
            Box::pin(self.respond(client, person, &challenge, response.status())).await?;
        }
    }

    /// Gets a token that may answer `challenge`.
    async fn respond(
        &self,
        http: &reqwest::Client,
        person: &Person<'_>,
        challenge: &Challenge,
        status: StatusCode,
    ) -> Result<()> {
        let (held, attempts) = {
            let mut state = self.state.lock().map_err(|_| poisoned())?;
            state.authorizations += 1;
            (state.grant.take(), state.authorizations)
        };
        if attempts > MAX_AUTHORIZATIONS {
            return Err(Error::transport(format!(
                "`{}` still answers HTTP {status} after {MAX_AUTHORIZATIONS} authorizations{}",
                self.endpoint,
                challenge
                    .step_up
                    .as_ref()
                    .map(|s| format!(" (it asks for scope `{}`)", s.join(" ")))
                    .unwrap_or_default()
            ))
            .with_hint("the account mur was authorized as may not be allowed this; ask the server's administrator"));
        }
        tracing::debug!(
            "`{}` answered HTTP {status}: authorizing (attempt {attempts})",
            self.endpoint
        );
        let oauth_http = Arc::new(http::LoopbackHttp::new(http.clone(), self.limit));
        let outcome = self
            .authorization(http, person, challenge, held, oauth_http.clone())
            .await;
        let grant = match outcome {
            Ok(grant) => grant,
            Err(e) => {
                return Err(match oauth_http.refused() {
                    Some((url, why)) => off_loopback(&url, &why),
                    None => e,
                });
            }
        };
        if let Err(why) = store::save(&grant) {
            // The call can still go on with the token; the next one asks again.
            tracing::warn!("the OAuth token of `{}` was not kept: {why}", self.endpoint);
        }
        if let Ok(mut state) = self.state.lock() {
            state.grant = Some(grant);
        }
        Ok(())
    }

    /// Discovery, then a refresh (a refused token of the same issuer) or a
    /// whole authorization.
    async fn authorization(
        &self,
        http: &reqwest::Client,
        person: &Person<'_>,
        challenge: &Challenge,
        held: Option<store::Grant>,
        oauth_http: Arc<http::LoopbackHttp>,
    ) -> Result<store::Grant> {
        let mut manager =
            AuthorizationManager::new_with_oauth_http_client(self.endpoint.as_str(), oauth_http)
                .await
                .map_err(|e| self.failed(e))?;
        let metadata = self.discover(&manager, challenge).await?;
        let issuer = metadata.issuer.clone();
        let documents = takes_metadata_documents(&metadata);
        let registers = metadata.registration_endpoint.is_some();
        manager.set_metadata(metadata);
        // SEP-2352: what another authorization server issued stays with it.
        let held = held.filter(|g| g.issuer == issuer);
        if challenge.step_up.is_none()
            && let Some(grant) = &held
            && grant.token.refresh_token().is_some()
        {
            match self.refresh(&mut manager, grant).await {
                Ok(grant) => return Ok(grant),
                Err(e) => tracing::debug!("refreshing the token failed ({e}); authorizing again"),
            }
        }
        let flow = Flow {
            held,
            issuer,
            documents,
            registers,
        };
        self.authorize_anew(http, person, manager, challenge, flow)
            .await
    }

    /// The authorization server's metadata, from the challenge or the
    /// well-known paths; endpoints guessed from the server's URL (the
    /// 2025-03-26 fallback) are not used: newer revisions require discovery.
    /// A challenge's `resource_metadata` off loopback ends the flow naming it,
    /// before anything is sent: rmcp drops one at a private address silently and
    /// goes on to the well-known paths, and the error said the server published
    /// no metadata at all.
    async fn discover(
        &self,
        manager: &AuthorizationManager,
        challenge: &Challenge,
    ) -> Result<AuthorizationMetadata> {
        if let Some(named) = challenge.header.as_deref().and_then(resource_metadata)
            && let Ok(url) = reqwest::Url::parse(&self.endpoint).and_then(|at| at.join(&named))
            && let Err(why) = mur_lockfile::endpoint::check_loopback(url.as_str())
        {
            return Err(off_loopback(url.as_str(), &why));
        }
        let resolution = manager
            .resolve_metadata_from_challenge(challenge.header.as_deref())
            .await
            .map_err(|e| self.failed(e))?;
        if resolution.source
            == rmcp::transport::auth::AuthorizationMetadataSource::LegacyEndpointFallback
        {
            return Err(Error::transport(format!(
                "`{}` asks for authorization but publishes no protected resource or \
                 authorization server metadata to say where",
                self.endpoint
            )));
        }
        Ok(resolution.metadata)
    }

    /// A new access token for `grant` from its refresh token.
    async fn refresh(
        &self,
        manager: &mut AuthorizationManager,
        grant: &store::Grant,
    ) -> std::result::Result<store::Grant, AuthError> {
        let store = InMemoryCredentialStore::new();
        store
            .save(
                StoredCredentials::new(
                    grant.client_id.clone(),
                    Some(grant.token.clone()),
                    grant.scopes.clone(),
                    None,
                )
                .with_issuer(grant.issuer.clone()),
            )
            .await?;
        manager.set_credential_store(store);
        manager.configure_client(client_config(
            &grant.client_id,
            grant.client_secret.as_deref(),
            "http://127.0.0.1/callback",
        ))?;
        let token = manager.refresh_token().await?;
        tracing::debug!("refreshed the token of `{}`", self.endpoint);
        Ok(store::Grant {
            expires_at: store::expires_at(&token),
            endpoint: self.endpoint.clone(),
            issuer: grant.issuer.clone(),
            client_id: grant.client_id.clone(),
            client_secret: grant.client_secret.clone(),
            // A refresh may leave the refresh token out: the old one stays good.
            token: keep_refresh_token(token, &grant.token),
            scopes: grant.scopes.clone(),
        })
    }

    /// The whole flow: client, authorization step, code for token.
    async fn authorize_anew(
        &self,
        http: &reqwest::Client,
        person: &Person<'_>,
        mut manager: AuthorizationManager,
        challenge: &Challenge,
        flow: Flow,
    ) -> Result<store::Grant> {
        let Flow {
            held,
            issuer,
            documents,
            registers,
        } = flow;
        let redirect = agent::Redirect::open().await?;
        let mut request = AuthorizationRequest::new(redirect.uri())
            .with_client_name(CLIENT_NAME)
            .with_application_type("native")
            .with_initial_scope_selection();
        if let Some(challenged) = &challenge.step_up {
            // SEP-2350: what was granted, and what the server now asks for.
            let mut scopes = held.as_ref().map(|g| g.scopes.clone()).unwrap_or_default();
            for scope in challenged {
                if !scopes.contains(scope) {
                    scopes.push(scope.clone());
                }
            }
            request = request.with_scopes(scopes);
        }
        let (client_id, client_secret) = match self
            .client(&mut manager, &redirect, held, documents, registers)
            .await?
        {
            Some((id, secret)) => {
                request = request.with_preregistered_client(id.clone());
                if let Some(secret) = &secret {
                    request = request.with_client_secret(secret.clone());
                }
                (Some(id), secret)
            }
            None => {
                if let Ok(url) = std::env::var(ENV_CLIENT_METADATA_URL) {
                    request = request.with_client_metadata_url(url);
                }
                (None, None)
            }
        };
        let session = AuthorizationSession::new(manager, request)
            .await
            .map_err(|(_, e)| self.failed(e))?;
        let back = redirect
            .follow(http, person, session.get_authorization_url())
            .await?;
        let token = session
            .handle_callback_url(&back)
            .await
            .map_err(|e| self.failed(e))?;
        let (id, _) = session
            .get_credentials()
            .await
            .map_err(|e| self.failed(e))?;
        let scopes = session.auth_manager.get_current_scopes().await;
        Ok(store::Grant {
            expires_at: store::expires_at(&token),
            endpoint: self.endpoint.clone(),
            issuer,
            client_id: client_id.unwrap_or(id),
            client_secret,
            token,
            scopes,
        })
    }

    /// Which client mur is at this authorization server: the pre-registered
    /// one, the one registered here before, a newly registered one; `None`
    /// leaves it to rmcp, for a Client ID Metadata Document.
    async fn client(
        &self,
        manager: &mut AuthorizationManager,
        redirect: &agent::Redirect,
        held: Option<store::Grant>,
        documents: bool,
        registers: bool,
    ) -> Result<Option<(String, Option<String>)>> {
        if let Ok(id) = std::env::var(ENV_CLIENT_ID) {
            return Ok(Some((id, std::env::var(ENV_CLIENT_SECRET).ok())));
        }
        if let Some(grant) = held {
            return Ok(Some((grant.client_id, grant.client_secret)));
        }
        if documents && std::env::var_os(ENV_CLIENT_METADATA_URL).is_some() {
            return Ok(None);
        }
        if !registers {
            return Err(Error::transport(format!(
                "`{}` needs OAuth authorization, and its authorization server registers no \
                 clients{}",
                self.endpoint,
                if documents {
                    " (it takes Client ID Metadata Documents)"
                } else {
                    ""
                }
            ))
            .with_hint(format!(
                "register mur with it and set {ENV_CLIENT_ID} (and {ENV_CLIENT_SECRET}){}",
                if documents {
                    format!(
                        ", or publish a client metadata document and set {ENV_CLIENT_METADATA_URL}"
                    )
                } else {
                    String::new()
                }
            )));
        }
        // Registered here rather than by rmcp, so that a secret the server
        // hands out is kept for refreshing later.
        let scopes = manager.select_initial_scopes(&[]).await;
        let scopes: Vec<&str> = scopes.iter().map(String::as_str).collect();
        let config = manager
            .register_client(CLIENT_NAME, redirect.uri(), &scopes)
            .await
            .map_err(|e| self.failed(e))?;
        Ok(Some((config.client_id, config.client_secret)))
    }

    /// A failure of the flow, as a transport error (exit 2).
    fn failed(&self, e: AuthError) -> Error {
        Error::transport(format!(
            "`{}` needs OAuth authorization and it failed: {}",
            self.endpoint,
            auth_error_text(&e)
        ))
    }
}

/// The challenge in `response`, if it asks for authorization: any 401 whose
/// `WWW-Authenticate` (if present) is Bearer; a 403 with `insufficient_scope`.
fn challenge(response: &reqwest::Response, endpoint: &str) -> Option<Challenge> {
    let header = response
        .headers()
        .get(WWW_AUTHENTICATE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let bearer = header.as_deref().map(|h| {
        h.trim_start()
            .get(..6)
            .is_some_and(|s| s.eq_ignore_ascii_case("bearer"))
    });
    match response.status() {
        StatusCode::UNAUTHORIZED if bearer != Some(false) => Some(Challenge {
            header,
            step_up: None,
        }),
        StatusCode::FORBIDDEN if bearer == Some(true) => {
            let text = header.as_deref().unwrap_or_default();
            let url = reqwest::Url::parse(endpoint).ok()?;
            let params = WWWAuthenticateParams::parse(text, &url);
            params.is_insufficient_scope().then(|| Challenge {
                step_up: Some(
                    params
                        .scope
                        .as_deref()
                        .unwrap_or_default()
                        .split_whitespace()
                        .map(str::to_owned)
                        .collect(),
                ),
                header,
            })
        }
        _ => None,
    }
}

/// The `resource_metadata` parameter of a `WWW-Authenticate` challenge, if it
/// names one: a quoted string (RFC 9110, backslash escapes) or a token.
fn resource_metadata(header: &str) -> Option<String> {
    const NAME: &str = "resource_metadata";
    let lower = header.to_ascii_lowercase();
    let mut from = 0;
    let rest = loop {
        let at = from + lower[from..].find(NAME)?;
        from = at + NAME.len();
        // A parameter's own name, not the tail of another's.
        let alone = header[..at]
            .chars()
            .next_back()
            .is_none_or(|c| c == ',' || c.is_whitespace());
        if let Some(value) = header[from..].trim_start().strip_prefix('=')
            && alone
        {
            break value.trim_start();
        }
    };
    let Some(quoted) = rest.strip_prefix('"') else {
        let end = rest
            .find(|c: char| c == ',' || c.is_whitespace())
            .unwrap_or(rest.len());
        return Some(rest[..end].to_owned()).filter(|v| !v.is_empty());
    };
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(value),
            '\\' => value.push(chars.next()?),
            c => value.push(c),
        }
    }
    None
}

/// The scheme a 401 asks for when it is not Bearer (`DPoP`, `Basic`, …).
fn other_scheme(response: &reqwest::Response) -> Option<String> {
    if response.status() != StatusCode::UNAUTHORIZED {
        return None;
    }
    let header = response.headers().get(WWW_AUTHENTICATE)?.to_str().ok()?;
    let scheme = header.split_whitespace().next()?;
    (!scheme.eq_ignore_ascii_case("bearer")).then(|| scheme.trim_end_matches(',').to_owned())
}

/// Whether the authorization server takes Client ID Metadata Documents.
fn takes_metadata_documents(metadata: &AuthorizationMetadata) -> bool {
    metadata
        .additional_fields
        .get("client_id_metadata_document_supported")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false)
}

fn client_config(id: &str, secret: Option<&str>, redirect: &str) -> OAuthClientConfig {
    let config = OAuthClientConfig::new(id, redirect).with_application_type("native");
    match secret {
        Some(secret) => config.with_client_secret(secret),
        None => config,
    }
}

/// `token`, with `old`'s refresh token when the refresh gave no new one.
fn keep_refresh_token(token: OAuthTokenResponse, old: &OAuthTokenResponse) -> OAuthTokenResponse {
    let mut token = token;
    if token.refresh_token().is_none()
        && let Some(refresh) = old.refresh_token()
    {
        token.set_refresh_token(Some(refresh.clone()));
    }
    token
}

/// What an rmcp error says, on one line of bounded length (it may quote an
/// authorization server's error response).
fn auth_error_text(e: &AuthError) -> String {
    const LIMIT: usize = 400;
    let text = e.to_string();
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > LIMIT {
        format!("{}…", line.chars().take(LIMIT).collect::<String>())
    } else {
        line
    }
}

fn poisoned() -> Error {
    Error::internal("the OAuth state was poisoned by a panic")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The challenge of `response` to a call of a loopback endpoint.
    fn challenge_at(response: &reqwest::Response) -> Option<Challenge> {
        challenge(response, "http://127.0.0.1:9/mcp")
    }

    fn response(status: u16, header: Option<&str>) -> reqwest::Response {
        let mut builder = oauth2::http::Response::builder().status(status);
        if let Some(header) = header {
            builder = builder.header(WWW_AUTHENTICATE, header);
        }
        reqwest::Response::from(builder.body(Vec::<u8>::new()).expect("response"))
    }

    #[test]
    fn a_401_asks_for_authorization_unless_another_scheme_is_named() {
        assert!(challenge_at(&response(401, None)).is_some());
        let bearer = challenge_at(&response(401, Some(r#"Bearer resource_metadata="x""#)));
        assert!(bearer.is_some_and(|c| c.step_up.is_none() && c.header.is_some()));
        assert!(challenge_at(&response(401, Some(r#"Basic realm="x""#))).is_none());
        assert!(challenge_at(&response(200, None)).is_none());
    }

    #[test]
    fn a_403_asks_for_more_scope_only_with_insufficient_scope() {
        let step_up = challenge_at(&response(
            403,
            Some(r#"Bearer error="insufficient_scope", scope="mcp:write mcp:read""#),
        ))
        .and_then(|c| c.step_up);
        assert_eq!(
            step_up,
            Some(vec!["mcp:write".to_owned(), "mcp:read".to_owned()])
        );
        assert!(challenge_at(&response(403, Some(r#"Bearer error="invalid_token""#))).is_none());
        assert!(challenge_at(&response(403, None)).is_none());
    }

    #[test]
    fn a_challenges_resource_metadata_is_read_quoted_or_not() {
        let named = |header: &str| resource_metadata(header);
        assert_eq!(
            named(r#"Bearer resource_metadata="http://10.1.2.3/prm?a=1,b=2""#).as_deref(),
            Some("http://10.1.2.3/prm?a=1,b=2")
        );
        assert_eq!(
            named(r#"Bearer realm="x", RESOURCE_METADATA = http://127.0.0.1:9/p, scope="a""#)
                .as_deref(),
            Some("http://127.0.0.1:9/p")
        );
        assert_eq!(
            named(r#"Bearer resource_metadata="/w\"x""#).as_deref(),
            Some(r#"/w"x"#)
        );
        assert_eq!(
            named(r#"Bearer x_resource_metadata="a", resource_metadata="b""#).as_deref(),
            Some("b")
        );
        assert_eq!(named(r#"Bearer realm="resource_metadata""#), None);
        assert_eq!(named(r#"Bearer resource_metadata="unterminated"#), None);
        assert_eq!(named("Bearer"), None);
    }

    #[test]
    fn a_url_off_loopback_is_named_without_its_query() {
        let e = off_loopback(
            "http://auth.example.com/token?code=secret",
            "is not a loopback address",
        );
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.message().contains("`http://auth.example.com/token`"),
            "{}",
            e.message()
        );
        assert!(!e.message().contains("secret"));
    }
}
