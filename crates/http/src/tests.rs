//! Against real sockets: a small HTTP/1.1 server on loopback that counts the
//! connections it accepts and records the heads it reads.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use reqwest::header::{ACCEPT, HeaderValue};

use super::*;
use crate::client::client_builder;

/// What the server answers: `close` ends each connection after one answer.
#[derive(Clone, Copy)]
struct Serve {
    close: bool,
}

struct Server {
    port: u16,
    accepted: Arc<AtomicUsize>,
    heads: Arc<Mutex<Vec<String>>>,
}

fn server(serve: Serve) -> Server {
    server_with(move |_, conn, seen| answer_all(conn, serve, seen))
}

/// A server that serves its `n`th connection (from 0) with `serve`.
fn server_with(
    serve: impl Fn(usize, std::net::TcpStream, &Mutex<Vec<String>>) + Send + Sync + 'static,
) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let heads = Arc::new(Mutex::new(Vec::new()));
    let (count, seen) = (Arc::clone(&accepted), Arc::clone(&heads));
    let serve = Arc::new(serve);
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            let n = count.fetch_add(1, Ordering::SeqCst);
            let (seen, serve) = (Arc::clone(&seen), Arc::clone(&serve));
            std::thread::spawn(move || serve(n, conn, &seen));
        }
    });
    Server {
        port,
        accepted,
        heads,
    }
}

/// Reads requests off `conn` and answers each with its own path as the body.
fn answer_all(conn: std::net::TcpStream, serve: Serve, seen: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(conn.try_clone().expect("clone"));
    let mut writer = conn;
    while let Some(path) = read_request(&mut reader, seen) {
        let connection = if serve.close {
            "connection: close\r\n"
        } else {
            ""
        };
        if !answer(&mut writer, &path, connection) || serve.close {
            return;
        }
    }
}

/// The path of the next request on a connection, its head recorded in `seen`
/// once it was read whole, body and all; `None` once the client closed it.
fn read_request(
    reader: &mut BufReader<std::net::TcpStream>,
    seen: &Mutex<Vec<String>>,
) -> Option<String> {
    let request = mur_testkit::stub::read_request(reader)?;
    seen.lock().expect("heads").push(request.head);
    Some(request.path)
}

/// Answers with `path` as the body, whole (`content-length`), and the header
/// line `connection` (empty or `connection: close`); false if it could not.
fn answer(writer: &mut std::net::TcpStream, path: &str, connection: &str) -> bool {
    let reply = format!(
        "HTTP/1.1 200 OK\r\ncontent-length: {}\r\n{connection}\r\n{path}",
        path.len()
    );
    writer.write_all(reply.as_bytes()).is_ok()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

/// A server, its URL for `path`, and an [`Http`] to reach it with.
fn serving(serve: Serve, path: &str) -> (Server, String, Http) {
    let server = server(serve);
    let url = format!("http://127.0.0.1:{}{path}", server.port);
    (server, url, Http::new())
}

/// The body of the answer to `request`.
async fn text(http: &Http, request: Request) -> String {
    let response = http.send(request).await.expect("answer");
    response.text().await.expect("body")
}

#[test]
fn requests_in_turn_share_one_connection_and_name_their_host() {
    let (server, base, http) = serving(Serve { close: false }, "");
    runtime().block_on(async {
        let probe = Request::get(&format!("{base}/probe"));
        assert_eq!(text(&http, probe).await, "/probe");
        let call = Request::post(&format!("{base}/mcp?x=1")).body("{}");
        assert_eq!(text(&http, call).await, "/mcp?x=1");
    });
    assert_eq!(server.accepted.load(Ordering::SeqCst), 1);
    let heads = server.heads.lock().expect("heads").clone();
    let first = heads[0].to_ascii_lowercase();
    assert!(first.starts_with("get /probe http/1.1\r\n"), "{first}");
    assert!(
        first.contains(&format!("host: 127.0.0.1:{}\r\n", server.port)),
        "{first}"
    );
    assert!(first.contains("accept: */*\r\n"), "{first}");
}

#[test]
fn a_connection_still_being_read_is_not_waited_for() {
    let (server, url, http) = serving(Serve { close: false }, "/a");
    runtime().block_on(async {
        let unread = http.send(Request::get(&url)).await.expect("first");
        // The first answer's body is not read yet: its connection is busy.
        assert_eq!(text(&http, Request::get(&url)).await, "/a");
        assert_eq!(unread.text().await.expect("body"), "/a");
    });
    assert_eq!(server.accepted.load(Ordering::SeqCst), 2);
}

#[test]
fn a_connection_the_server_closed_is_replaced() {
    let (server, url, http) = serving(Serve { close: true }, "/again");
    runtime().block_on(async {
        for _ in 0..3 {
            assert_eq!(text(&http, Request::get(&url)).await, "/again");
        }
    });
    assert_eq!(server.accepted.load(Ordering::SeqCst), 3);
}

#[test]
fn headers_are_sent_as_set_and_localhost_is_loopback_without_a_lookup() {
    let (server, _, http) = serving(Serve { close: false }, "");
    let request = Request::post(&format!("http://LocalHost:{}/mcp", server.port))
        .header(ACCEPT, HeaderValue::from_static("application/json"))
        .bearer("t0ken")
        .body("{}");
    let body = runtime().block_on(text(&http, request));
    assert_eq!(body, "/mcp");
    let head = server.heads.lock().expect("heads")[0].to_ascii_lowercase();
    assert!(
        head.contains(&format!("host: localhost:{}\r\n", server.port)),
        "{head}"
    );
    assert!(head.contains("accept: application/json\r\n"), "{head}");
    assert!(!head.contains("*/*"), "{head}");
    assert!(head.contains("authorization: bearer t0ken\r\n"), "{head}");
    assert!(head.contains("content-length: 2\r\n"), "{head}");
}

#[test]
fn failures_say_what_failed_in_one_line() {
    let closed = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = closed.local_addr().expect("addr").port();
    drop(closed);
    let http = Http::new();
    let runtime = runtime();
    let fail = |url: String| {
        runtime
            .block_on(http.send(Request::get(&url)))
            .expect_err("no answer")
    };
    let refused = fail(format!("http://127.0.0.1:{port}/mcp"));
    assert!(refused.is_connect());
    assert!(refused.is_refused());
    assert_eq!(
        refused.to_string(),
        format!("could not connect: nothing listens on 127.0.0.1:{port} (connection refused)")
    );
    let named = fail("http://example.com/mcp".into());
    assert!(named.is_connect());
    assert_eq!(
        named.to_string(),
        "could not connect: mur looks up no host names (`example.com`): devtools endpoints are \
         loopback addresses (127.0.0.1, [::1]) or localhost"
    );
    let away = fail("http://192.0.2.1:80/mcp".into());
    assert!(!away.is_connect());
    assert_eq!(
        away.to_string(),
        "request failed: `http://192.0.2.1:80/mcp` is not on loopback: mur sends nothing off \
         this machine"
    );
    let v6 = fail(format!("http://[::1]:{port}/mcp"));
    assert!(v6.is_connect(), "{v6}");
    let tls = fail("https://127.0.0.1:9/mcp".into());
    assert!(!tls.is_connect());
    assert_eq!(
        tls.to_string(),
        "request failed: `https://127.0.0.1:9/mcp` is not an http:// URL (devtools sessions \
         speak plain HTTP on loopback)"
    );
}

/// A server on one connection that answers its first request (empty) and then
/// reads the next without answering it; each request's head goes to the channel
/// once read.
fn answering_once() -> (u16, tokio::sync::mpsc::UnboundedReceiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let (read, heads) = tokio::sync::mpsc::unbounded_channel();
    std::thread::spawn(move || {
        let Ok((conn, _)) = listener.accept() else {
            return;
        };
        let mut reader = BufReader::new(conn.try_clone().expect("clone"));
        let mut writer = conn;
        for answered in [true, false] {
            let mut head = String::new();
            while !head.ends_with("\r\n\r\n") {
                if reader.read_line(&mut head).unwrap_or(0) == 0 {
                    return;
                }
            }
            let _ = read.send(head);
            if answered {
                let _ = writer.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n");
            }
        }
        // Holds the connection open, unanswered, until the test ends.
        let _ = reader.read(&mut [0; 1]);
    });
    (port, heads)
}

/// Whether a request reached the socket, as a caller that gave up on its answer
/// (a timeout) tells it: not handed to a connection, handed and not yet written,
/// written (the server read it).
#[test]
fn a_delivery_tells_whether_its_request_reached_the_socket() {
    let (port, mut heads) = answering_once();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let http = Http::new();
    let runtime = runtime();
    let (first, second, untried) = (
        Delivery::default(),
        Delivery::default(),
        Delivery::default(),
    );
    assert_eq!(untried.sent(), Sent::No);
    runtime.block_on(async {
        let answered = http.send(Request::get(&url).tracked(&first)).await;
        answered
            .expect("answered")
            .bytes()
            .await
            .expect("read to its end");
        assert_eq!(first.sent(), Sent::Yes);
        assert!(heads.recv().await.is_some());
        // Refused unrun (a session-based server's 400 to a modern request): the
        // call's next request is the one whose delivery counts.
        first.refused();
        assert_eq!(first.sent(), Sent::No);
        // On the kept connection: handed to it at the first poll, and not yet
        // written, as the connection's own task has not run since.
        let mut unanswered = std::pin::pin!(http.send(Request::post(&url).tracked(&second)));
        std::future::poll_fn(|cx| {
            assert!(unanswered.as_mut().poll(cx).is_pending());
            std::task::Poll::Ready(())
        })
        .await;
        assert_eq!(second.sent(), Sent::Maybe);
        // Given up once the server has read it: it was sent.
        tokio::select! {
            _ = unanswered => panic!("the server answers no second request"),
            head = heads.recv() => assert!(head.expect("read").starts_with("POST /mcp")),
        }
    });
    assert_eq!(second.sent(), Sent::Yes);
    // Nothing listens: no connection, nothing sent.
    let closed = TcpListener::bind("127.0.0.1:0").expect("bind");
    let gone = closed.local_addr().expect("addr").port();
    drop(closed);
    let refused = Request::get(&format!("http://127.0.0.1:{gone}/mcp")).tracked(&untried);
    assert!(runtime.block_on(http.send(refused)).is_err());
    assert_eq!(untried.sent(), Sent::No);
}

/// A server that closes its connections without `Connection: close`, as some do
/// after each answer, or idle ones after a while: its first connection answers
/// one request, then closes once told to (`go`) and says so (`closed`); every
/// later one answers all it is sent.
fn closing_when_told() -> (Server, mpsc::Sender<()>, mpsc::Receiver<()>) {
    let (go, told) = mpsc::channel();
    let (said, closed) = mpsc::channel();
    let (told, said) = (Mutex::new(Some(told)), Mutex::new(Some(said)));
    let server = server_with(move |n, conn, seen| {
        if n > 0 {
            return answer_all(conn, Serve { close: false }, seen);
        }
        let mut reader = BufReader::new(conn.try_clone().expect("clone"));
        let mut writer = conn;
        let path = read_request(&mut reader, seen).expect("request");
        assert!(answer(&mut writer, &path, ""));
        let told = told.lock().expect("told").take().expect("once");
        let said = said.lock().expect("said").take().expect("once");
        let _ = told.recv();
        drop((reader, writer));
        let _ = said.send(());
    });
    (server, go, closed)
}

/// A server that closed a kept connection unsaid (no `Connection: close`) is
/// one that closes them: once hyper has seen that close, the endpoint's next
/// requests each get a new connection, rather than reuse one and race the
/// server's next close (a POST that meets it is not sent again).
#[test]
fn an_endpoint_that_closed_a_kept_connection_gets_a_new_one_for_each_request() {
    let (server, go, closed) = closing_when_told();
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let http = Http::new();
    runtime().block_on(async {
        assert_eq!(text(&http, Request::get(&url)).await, "/mcp");
        go.send(()).expect("go");
        closed.recv().expect("closed");
        // Until the connection's task has run and seen the close.
        while !http.kept.lock().expect("kept").none_open() {
            tokio::task::yield_now().await;
        }
        for _ in 0..2 {
            let post = Request::post(&url).body("{}");
            assert_eq!(text(&http, post).await, "/mcp");
        }
    });
    assert_eq!(server.accepted.load(Ordering::SeqCst), 3);
    assert_eq!(server.heads.lock().expect("heads").len(), 3);
}

/// A server whose every connection answers its first request, then reads the
/// next whole and closes without answering it.
fn closing_unanswered() -> Server {
    server_with(|_, conn, seen| {
        let mut reader = BufReader::new(conn.try_clone().expect("clone"));
        let mut writer = conn;
        if let Some(path) = read_request(&mut reader, seen) {
            answer(&mut writer, &path, "");
            read_request(&mut reader, seen);
        }
    })
}

/// A request written on a kept connection that the server then closed
/// unanswered is sent once more, on a new connection, when that does nothing
/// more: a GET, or a POST its caller marked repeatable (`initialize`). Any
/// other (a `tools/call`) is not: the server may have read it and begun, as a
/// session that stops for a reload does; the call fails, the connection closed.
#[test]
fn a_request_on_a_kept_connection_closed_unanswered_is_sent_again_only_if_repeatable() {
    let runtime = runtime();
    for (second, again) in [
        (Request::get as fn(&str) -> Request, true),
        (|url: &str| Request::post(url).body("{}").repeatable(), true),
        (|url: &str| Request::post(url).body("{}"), false),
    ] {
        let server = closing_unanswered();
        let url = format!("http://127.0.0.1:{}/mcp", server.port);
        let http = Http::new();
        runtime.block_on(async {
            assert_eq!(text(&http, Request::get(&url)).await, "/mcp");
            let sent = http.send(second(&url)).await;
            if again {
                assert_eq!(
                    sent.expect("sent again").text().await.expect("body"),
                    "/mcp"
                );
            } else {
                let failed = sent.expect_err("not sent again");
                assert!(failed.is_closed(), "{failed}");
            }
        });
        let heads = server.heads.lock().expect("heads").clone();
        let (connections, sent) = if again { (2, 2) } else { (1, 1) };
        assert_eq!(
            server.accepted.load(Ordering::SeqCst),
            connections,
            "{heads:?}"
        );
        assert_eq!(heads.len() - 1, sent, "{heads:?}");
    }
}

/// A resolver that counts what it is asked and resolves nothing.
#[derive(Clone, Default)]
struct Counting(Arc<AtomicUsize>);

impl reqwest::dns::Resolve for Counting {
    fn resolve(&self, _: reqwest::dns::Name) -> reqwest::dns::Resolving {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(async { Err("no lookups in this test".into()) })
    }
}

#[test]
fn the_reqwest_client_reaches_localhost_without_asking_a_resolver() {
    let server = server(Serve { close: true });
    let resolver = Counting::default();
    let http = client_builder(resolver.clone()).build().expect("client");
    let runtime = runtime();
    let status = runtime
        .block_on(
            http.get(format!("http://LocalHost:{}/", server.port))
                .send(),
        )
        .expect("localhost answers")
        .status();
    assert_eq!(status, reqwest::StatusCode::OK);
    assert_eq!(resolver.0.load(Ordering::SeqCst), 0);
    // Any other name goes to the resolver, which in mur refuses it.
    let err = runtime
        .block_on(http.get("http://devtools.invalid:9/").send())
        .expect_err("not resolved");
    assert_eq!(resolver.0.load(Ordering::SeqCst), 1);
    assert!(err.is_connect(), "{err:?}");
}

#[test]
fn the_production_reqwest_client_refuses_every_name() {
    let http = Http::new();
    let client = http.client().expect("client");
    let err = runtime()
        .block_on(client.get("http://example.com/").send())
        .expect_err("refused");
    let text = format!("{:?}", err);
    assert!(
        text.contains("mur looks up no host names (`example.com`)"),
        "{text}"
    );
}

#[test]
fn a_server_that_speaks_first_does_not_speak_http() {
    // An SSH server greets each connection and holds it: whether hyper reads the
    // greeting before it writes the request (an "unexpected message") or after (a
    // parse error) is a race, and either is the same answer: not HTTP.
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!(
        "http://127.0.0.1:{}/",
        listener.local_addr().expect("addr").port()
    );
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for mut conn in listener.incoming().flatten() {
            let _ = conn.write_all(b"SSH-2.0-OpenSSH_9.6\r\n");
            held.push(conn);
        }
    });
    let runtime = runtime();
    for _ in 0..20 {
        let failed = runtime
            .block_on(Http::new().send(Request::get(&url)))
            .expect_err("not HTTP");
        assert!(failed.is_not_http(), "{failed}");
        assert!(!failed.is_closed(), "{failed}");
    }
}

#[test]
fn a_media_type_is_its_essence_in_any_case_whatever_its_parameters() {
    for value in [
        "text/event-stream",
        "TEXT/Event-Stream",
        " text/event-stream ; charset=utf-8",
    ] {
        assert!(media_type_is(value, "text/event-stream"), "{value}");
    }
    for value in ["text/event-streamed", "text/event", "application/json", ""] {
        assert!(!media_type_is(value, "text/event-stream"), "{value}");
    }
}
