//! mur against servers that ask for OAuth authorization, for what the conformance suite's
//! `auth/*` scenarios do not look at: the token kept in a private file and reused by the next
//! call, a refused token refreshed, an authorization server off loopback refused before any
//! request to it, and an authorization page that wants a person when there is no terminal.
//!
//! One stub plays the MCP server, its protected resource metadata and its authorization server
//! (whose authorization endpoint approves at once, like the suite's).

use std::sync::{Arc, Mutex, OnceLock};

use mur_e2e::stub::{Reply, Request};
use mur_e2e::{Output, Sandbox, Stub};
use serde_json::json;

/// How the stub's authorization server behaves.
#[derive(Clone, Copy)]
enum Server {
    /// Approves at once; the resource takes the newest token it issued.
    Approving,
    /// Its protected resource metadata names an authorization server off loopback.
    OffLoopback,
    /// Its authorization page is a sign-in form (200), not a redirect.
    SignIn,
}

/// The stub, and the access token its resource takes now.
struct Protected {
    stub: Stub,
    valid: Arc<Mutex<String>>,
}

impl Protected {
    fn start(server: Server) -> Self {
        let port = Arc::new(OnceLock::<u16>::new());
        let valid = Arc::new(Mutex::new(String::from("access-1")));
        let (port2, valid2) = (port.clone(), valid.clone());
        let stub = Stub::serve(move |req| {
            let base = format!("http://127.0.0.1:{}", port2.get().copied().unwrap_or(0));
            answer(server, &base, &valid2, req)
        });
        port.set(stub.port()).expect("port set once");
        Self { stub, valid }
    }

    /// Requests whose path starts with `prefix`.
    fn seen(&self, prefix: &str) -> Vec<Request> {
        self.stub
            .requests()
            .into_iter()
            .filter(|r| r.path.starts_with(prefix))
            .collect()
    }
}

fn answer(server: Server, base: &str, valid: &Mutex<String>, req: &Request) -> Reply {
    let path = req.path.split('?').next().unwrap_or_default();
    let current = valid.lock().map(|v| v.clone()).unwrap_or_default();
    match (req.method.as_str(), path) {
        ("POST", "/mcp") if req.header("authorization") == Some(&format!("Bearer {current}")) => {
            Reply::json(
                200,
                &json!({ "jsonrpc": "2.0", "id": req.json()["id"], "result": { "authorized": true } }),
            )
        }
        ("POST", "/mcp") => Reply::Respond {
            status: 401,
            headers: vec![(
                "www-authenticate".into(),
                format!(
                    r#"Bearer resource_metadata="{base}/.well-known/oauth-protected-resource/mcp""#
                ),
            )],
            body: Vec::new(),
        },
        ("GET", "/.well-known/oauth-protected-resource/mcp") => {
            let issuer = match server {
                Server::OffLoopback => "http://auth.example.com".to_owned(),
                _ => base.to_owned(),
            };
            Reply::json(
                200,
                &json!({ "resource": format!("{base}/mcp"), "authorization_servers": [issuer] }),
            )
        }
        ("GET", "/.well-known/oauth-authorization-server") => Reply::json(
            200,
            &json!({
                "issuer": base,
                "authorization_endpoint": format!("{base}/authorize"),
                "token_endpoint": format!("{base}/token"),
                "registration_endpoint": format!("{base}/register"),
                "response_types_supported": ["code"],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["none"],
            }),
        ),
        // RFC 7591: the response holds the registered metadata.
        ("POST", "/register") => Reply::json(
            201,
            &json!({ "client_id": "client-1", "redirect_uris": req.json()["redirect_uris"] }),
        ),
        ("GET", "/authorize") => match server {
            Server::SignIn => Reply::Respond {
                status: 200,
                headers: vec![("content-type".into(), "text/html".into())],
                body: b"<form>sign in</form>".to_vec(),
            },
            _ => {
                let query = query(req);
                let mut to = reqwest::Url::parse(&query("redirect_uri")).expect("redirect_uri");
                to.query_pairs_mut()
                    .append_pair("code", "code-1")
                    .append_pair("state", &query("state"))
                    .append_pair("iss", base);
                Reply::Respond {
                    status: 302,
                    headers: vec![("location".into(), to.to_string())],
                    body: Vec::new(),
                }
            }
        },
        ("POST", "/token") => {
            let form = String::from_utf8_lossy(&req.body).into_owned();
            let token = if form.contains("grant_type=refresh_token") {
                "access-2"
            } else {
                "access-1"
            };
            Reply::json(
                200,
                &json!({ "access_token": token, "token_type": "Bearer", "expires_in": 3600,
                         "refresh_token": "refresh-1" }),
            )
        }
        _ => Reply::empty(404),
    }
}

/// A query parameter of the request, decoded ("" when absent).
fn query(req: &Request) -> impl Fn(&str) -> String {
    let url = reqwest::Url::parse(&format!("http://stub{}", req.path)).expect("request target");
    move |name| {
        url.query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
            .unwrap_or_default()
    }
}

fn call(sb: &Sandbox, server: &Protected) -> Output {
    sb.call_version_at(&server.stub.endpoint(), &["--protocol", "2026-07-28"])
}

fn assert_no_secret(out: &Output) {
    for secret in ["access-1", "access-2", "refresh-1", "code-1"] {
        assert!(
            !out.stdout.contains(secret) && !out.stderr.contains(secret),
            "`{secret}` printed\n{out}"
        );
    }
}

#[test]
fn a_token_is_kept_private_reused_and_refreshed() {
    let sb = Sandbox::new();
    let server = Protected::start(Server::Approving);
    let first = call(&sb, &server);
    first
        .assert_code(0)
        .assert_stdout_is("{\"authorized\":true}\n");
    assert_no_secret(&first);
    assert_eq!(server.seen("/authorize").len(), 1);
    assert_eq!(server.seen("/token").len(), 1);

    let dir = sb.state_dir().join("mur").join("oauth");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = |p: &std::path::Path| {
            std::fs::metadata(p).expect("metadata").permissions().mode() & 0o777
        };
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&files[0]), 0o600);
    }

    // The next call sends the kept token: no new authorization.
    let again = call(&sb, &server);
    again.assert_code(0);
    assert_no_secret(&again);
    assert_eq!(server.seen("/authorize").len(), 1);
    assert_eq!(server.seen("/token").len(), 1);

    // The server stops taking it: the refresh token gets a new one, no person needed.
    *server.valid.lock().expect("valid") = "access-2".into();
    let refreshed = call(&sb, &server);
    refreshed.assert_code(0);
    assert_no_secret(&refreshed);
    assert_eq!(
        server.seen("/authorize").len(),
        1,
        "refreshed, not authorized again"
    );
    let tokens = server.seen("/token");
    assert_eq!(tokens.len(), 2);
    assert!(String::from_utf8_lossy(&tokens[1].body).contains("grant_type=refresh_token"));
}

/// A call against a `server` that cannot be authorized: exit 2, nothing on stdout, and
/// stderr saying each of `says`; the sandbox and the server, for the checks that follow.
fn refused(server: Server, says: &[&str]) -> (Sandbox, Protected) {
    let sb = Sandbox::new();
    let server = Protected::start(server);
    let out = call(&sb, &server);
    out.assert_code(2);
    assert!(says.iter().all(|said| out.stderr.contains(said)), "{out}");
    assert!(out.stdout.is_empty(), "{out}");
    (sb, server)
}

#[test]
fn an_authorization_server_off_loopback_is_refused() {
    let says = [
        "`http://auth.example.com/",
        "mur reaches only loopback servers",
    ];
    let (_sb, server) = refused(Server::OffLoopback, &says);
    assert!(server.seen("/register").is_empty() && server.seen("/authorize").is_empty());
}

#[test]
fn an_authorization_page_that_wants_a_person_fails_without_a_terminal() {
    let says = [
        "wants a person to approve mur",
        "run the command once on a terminal",
    ];
    let (sb, server) = refused(Server::SignIn, &says);
    assert!(server.seen("/token").is_empty());
    assert!(!sb.state_dir().join("mur").join("oauth").exists());
}

#[test]
fn on_a_terminal_the_page_is_shown_and_the_browser_comes_back_to_mur() {
    if which("script").is_none() {
        eprintln!("skipped: `script` (util-linux) is not installed to give mur a terminal");
        return;
    }
    let sb = Sandbox::new();
    let server = Protected::start(Server::Approving);
    // The "browser" xdg-open starts: follows the authorization page's redirect to mur's listener.
    let bin = sb.dir("bin");
    let opener = bin.join("xdg-open");
    std::fs::write(&opener, "#!/bin/sh\ncurl -s -L -o /dev/null \"$1\" &\n").expect("opener");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let line = format!(
        "mur devtools --endpoint {} --protocol 2026-07-28 call version",
        server.stub.endpoint()
    );
    let mut command = sb.on_a_terminal(&line);
    command.env("PATH", sb.path_with(&[&bin]));
    let out = mur_e2e::process::run(&mut command);
    out.assert_code(0);
    assert!(
        out.stdout
            .contains("the server asks you to authorize mur: open this page")
            && out.stdout.contains("/authorize?")
            && out.stdout.contains("{\"authorized\":true}"),
        "{out}"
    );
    let authorize = server.seen("/authorize");
    assert_eq!(authorize.len(), 1);
    assert!(
        authorize[0]
            .header("user-agent")
            .is_some_and(|a| a.starts_with("curl")),
        "the page was opened by the browser, not by mur: {:?}",
        authorize[0].headers
    );
    assert_eq!(server.seen("/token").len(), 1);
}

/// `name` on the PATH, if it is there.
fn which(name: &str) -> Option<std::path::PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|dir| std::path::Path::new(dir).join(name))
        .find(|p| p.is_file())
}
