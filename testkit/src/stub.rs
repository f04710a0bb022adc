//! Tiny loopback HTTP servers for the cases a real session cannot play: a
//! plain web server, one that never answers, one that hangs up, one that
//! speaks SSE, and a "legacy-only" proxy in front of a real `mur-sample`.
//! Each request is answered by a handler; one request per connection.

use std::io::{BufRead, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

/// An HTTP request as the stub saw it.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    /// The request line and header lines as read, each ending in its `\r\n`.
    pub head: String,
    /// Header names lowercased.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON (Null when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// What the stub answers; `Reply::Silence` keeps the connection open, unanswered.
#[derive(Debug, Clone)]
pub enum Reply {
    Respond {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    Silence,
    HangUp,
    /// These bytes as the whole answer, status line and headers included,
    /// then the connection is closed: for answers no well-behaved server
    /// sends, such as a body cut short of its `Content-Length`.
    Raw(Vec<u8>),
    /// The status and headers (no `Content-Length`), then `body`, then the
    /// connection stays open with nothing more sent until the client closes
    /// it or `hold` passes: a stream that has not ended yet.
    Open {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
        hold: Duration,
    },
    /// A 200 with these headers (no `Content-Length`), `prefix`, then `chunk`
    /// over and over until the client closes the connection, bounded by
    /// [`ENDLESS_LIMIT`] in time and [`ENDLESS_BYTES`] in size.
    Endless {
        headers: Vec<(String, String)>,
        prefix: Vec<u8>,
        chunk: Vec<u8>,
    },
}

/// Bound on how long one [`Reply::Endless`] body is sent.
pub const ENDLESS_LIMIT: Duration = Duration::from_secs(60);
/// Bound on how much of one [`Reply::Endless`] body is sent (1 GiB, far above
/// any response limit a test sets, so a client without one still reads a lot).
pub const ENDLESS_BYTES: u64 = 1 << 30;

impl Reply {
    pub fn json(status: u16, body: &Value) -> Self {
        Self::Respond {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string().into_bytes(),
        }
    }

    /// A response with this status and no body.
    pub fn empty(status: u16) -> Self {
        Self::Respond {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    /// An SSE response whose events carry these JSON messages, in order.
    pub fn sse(messages: &[Value]) -> Self {
        Self::Respond {
            status: 200,
            headers: sse_headers(),
            body: sse_body(messages),
        }
    }

    /// Like [`Reply::sse`], but the stream stays open after these messages for up to
    /// `hold`: a stream that has not ended yet.
    pub fn sse_open(messages: &[Value], hold: Duration) -> Self {
        Self::Open {
            status: 200,
            headers: sse_headers(),
            body: sse_body(messages),
            hold,
        }
    }
}

fn sse_headers() -> Vec<(String, String)> {
    vec![("content-type".into(), "text/event-stream".into())]
}

/// An SSE body: a comment, then one `message` event per JSON message.
fn sse_body(messages: &[Value]) -> Vec<u8> {
    let mut body = String::from(": stream start\n\n");
    for m in messages {
        body.push_str(&format!("event: message\ndata: {m}\n\n"));
    }
    body.into_bytes()
}

type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

/// A running stub; stops accepting on drop.
pub struct Stub {
    port: u16,
    stop: Arc<AtomicBool>,
    seen: Arc<Mutex<Vec<Request>>>,
}

impl Stub {
    /// Serves every request with `handler`.
    pub fn serve(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind stub");
        let port = listener.local_addr().expect("stub addr").port();
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Handler> = Arc::new(handler);
        let (stop2, seen2) = (stop.clone(), seen.clone());
        std::thread::spawn(move || accept_loop(&listener, &stop2, &seen2, &handler));
        Self { port, stop, seen }
    }

    /// An MCP server that answers every request with this `result`, under the
    /// request's own id.
    pub fn answering(result: Value) -> Self {
        Self::serve(move |req| {
            let id = req.json()["id"].clone();
            Reply::json(
                200,
                &serde_json::json!({ "jsonrpc": "2.0", "id": id, "result": result }),
            )
        })
    }

    /// An MCP server with these `tools` (the `tools/list` result's array) that
    /// answers each `tools/call` with what `call` makes of its params: `Ok` a
    /// result, `Err` a JSON-RPC error object. Any other method gets `{}`; any
    /// request but a POST, 405.
    pub fn with_tools(
        tools: Value,
        call: impl Fn(&Value) -> Result<Value, Value> + Send + Sync + 'static,
    ) -> Self {
        Self::with_tool_list(Arc::new(Mutex::new(tools)), call)
    }

    /// An MCP server with these `tools` that answers each call with the arguments it
    /// got, as JSON text: what mur sent, for a test to read back.
    pub fn echoing_arguments(tools: Value) -> Self {
        Self::echoing_arguments_of(Arc::new(Mutex::new(tools)))
    }

    /// An MCP server with these `tools` that answers each call with its whole params, the
    /// tool's name beside the arguments, as JSON text: which tool mur called, and with what.
    pub fn echoing_params(tools: Value) -> Self {
        Self::with_tools(tools, |params| {
            let text = params.to_string();
            Ok(serde_json::json!({ "content": [{ "type": "text", "text": text }] }))
        })
    }

    /// [`Stub::echoing_arguments`] with a list the test may change while it serves.
    pub fn echoing_arguments_of(tools: Arc<Mutex<Value>>) -> Self {
        Self::with_tool_list(tools, |params| {
            let text = params["arguments"].to_string();
            Ok(serde_json::json!({ "content": [{ "type": "text", "text": text }] }))
        })
    }

    /// [`Stub::with_tools`] with a list the test may change while it serves (a server
    /// restarted on new code behind the same endpoint).
    pub fn with_tool_list(
        tools: Arc<Mutex<Value>>,
        call: impl Fn(&Value) -> Result<Value, Value> + Send + Sync + 'static,
    ) -> Self {
        Self::serve(move |req| {
            if req.method != "POST" {
                return Reply::empty(405);
            }
            let body = req.json();
            let answer = match body["method"].as_str() {
                Some("tools/list") => {
                    let tools = tools.lock().expect("tool list").clone();
                    Ok(serde_json::json!({ "tools": tools }))
                }
                Some("tools/call") => call(&body["params"]),
                _ => Ok(serde_json::json!({})),
            };
            let (key, value) = match answer {
                Ok(result) => ("result", result),
                Err(error) => ("error", error),
            };
            Reply::json(
                200,
                &serde_json::json!({ "jsonrpc": "2.0", "id": body["id"], key: value }),
            )
        })
    }

    /// A server of the 2025-11-25 revision, which has sessions: `initialize` is answered
    /// with `initialized` (its `result`) and opens session `session`; any other request
    /// without that session's id is refused (400, as the SDKs' servers do); notifications
    /// and the client's own responses are accepted (202), `DELETE` ends the session
    /// (200), and every other request is answered by `on_call`.
    pub fn legacy(
        session: &'static str,
        initialized: Value,
        on_call: impl Fn(&Request) -> Reply + Send + Sync + 'static,
    ) -> Self {
        Self::serve(move |req| {
            if req.method == "DELETE" {
                return Reply::empty(200);
            }
            let body = req.json();
            if req.header("mcp-session-id") != Some(session) && body["method"] != "initialize" {
                return Reply::json(
                    400,
                    &serde_json::json!({ "jsonrpc": "2.0", "id": null, "error": {
                        "code": -32000, "message": "Bad Request: No valid session ID provided" } }),
                );
            }
            match body["method"].as_str() {
                Some("initialize") => Reply::Respond {
                    status: 200,
                    headers: vec![
                        ("content-type".into(), "application/json".into()),
                        ("mcp-session-id".into(), session.into()),
                    ],
                    body: serde_json::json!({ "jsonrpc": "2.0", "id": body["id"], "result": initialized })
                        .to_string()
                        .into_bytes(),
                },
                Some(m) if m.starts_with("notifications/") => Reply::empty(202),
                None => Reply::empty(202),
                Some(_) => on_call(req),
            }
        })
    }

    /// A plain web server: every request gets `200 {"hello":"world"}`.
    pub fn plain_http() -> Self {
        Self::serve(|_| Reply::json(200, &serde_json::json!({ "hello": "world" })))
    }

    /// Accepts connections and reads requests, never answering.
    pub fn silent() -> Self {
        Self::serve(|_| Reply::Silence)
    }

    /// Reads each request, then closes the connection without answering.
    pub fn hang_up() -> Self {
        Self::serve(|_| Reply::HangUp)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// `http://127.0.0.1:<port>/mcp`.
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<Request> {
        self.seen.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// The JSON bodies of the requests of method `method` (`tools/list`) it has been
    /// sent so far, in order.
    pub fn sent(&self, method: &str) -> Vec<Value> {
        self.requests()
            .iter()
            .map(Request::json)
            .filter(|body| body["method"] == method)
            .collect()
    }

    /// How many `tools/call` requests it has been sent.
    pub fn tool_calls(&self) -> usize {
        self.sent("tools/call").len()
    }
}

impl Drop for Stub {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn accept_loop(
    listener: &TcpListener,
    stop: &AtomicBool,
    seen: &Arc<Mutex<Vec<Request>>>,
    handler: &Arc<Handler>,
) {
    for conn in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(conn) = conn else { continue };
        let (seen, handler) = (seen.clone(), handler.clone());
        std::thread::spawn(move || serve_one(conn, &seen, &*handler));
    }
}

fn serve_one(mut conn: TcpStream, seen: &Mutex<Vec<Request>>, handler: &Handler) {
    let Some(request) = conn
        .try_clone()
        .ok()
        .and_then(|c| read_request(&mut BufReader::new(c)))
    else {
        return;
    };
    if let Ok(mut s) = seen.lock() {
        s.push(request.clone());
    }
    match handler(&request) {
        Reply::Respond {
            status,
            headers,
            body,
        } => {
            let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
            for (n, v) in &headers {
                head.push_str(&format!("{n}: {v}\r\n"));
            }
            head.push_str(&format!(
                "content-length: {}\r\nconnection: close\r\n\r\n",
                body.len()
            ));
            let _ = conn.write_all(head.as_bytes());
            let _ = conn.write_all(&body);
        }
        Reply::Silence => {
            // Hold the connection open until the client gives up.
            let _ = conn.set_read_timeout(Some(Duration::from_secs(300)));
            let _ = conn.read(&mut [0; 1]);
        }
        Reply::HangUp => {}
        Reply::Raw(bytes) => {
            let _ = conn.write_all(&bytes);
        }
        Reply::Open {
            status,
            headers,
            body,
            hold,
        } => {
            let _ = conn.write_all(&open_head(status, &headers));
            let _ = conn.write_all(&body);
            let _ = conn.flush();
            let _ = conn.set_read_timeout(Some(hold));
            let _ = conn.read(&mut [0; 1]);
        }
        Reply::Endless {
            headers,
            prefix,
            chunk,
        } => {
            let start = std::time::Instant::now();
            let _ = conn.write_all(&open_head(200, &headers));
            let _ = conn.write_all(&prefix);
            let mut sent = prefix.len() as u64;
            while start.elapsed() < ENDLESS_LIMIT && sent < ENDLESS_BYTES && !chunk.is_empty() {
                if conn.write_all(&chunk).is_err() {
                    break;
                }
                sent += chunk.len() as u64;
            }
        }
    }
}

/// Status line and headers of an answer whose end is the connection's.
fn open_head(status: u16, headers: &[(String, String)]) -> Vec<u8> {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("connection: close\r\n\r\n");
    head.into_bytes()
}

/// The next request on a connection, read whole (head and body); `None` once the
/// client closed it, or when it is cut short. For the tests of mur's own HTTP that
/// keep a connection across requests, keep one `reader` for the connection's life.
pub fn read_request(reader: &mut impl BufRead) -> Option<Request> {
    let mut head = String::new();
    reader.read_line(&mut head).ok()?;
    let mut parts = head.split_whitespace();
    let (method, path) = (parts.next()?.to_owned(), parts.next()?.to_owned());
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).ok()?;
        head.push_str(&h);
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
    }
    let len = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; len];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        path,
        head,
        headers,
        body,
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        202 => "Accepted",
        400 => "Bad Request",
        404 => "Not Found",
        _ => "Status",
    }
}

/// A proxy in front of a real session that behaves like a server of the
/// 2025-11-25 revision: a modern request (`MCP-Protocol-Version: 2026-07-28`)
/// is refused with 400 and a null-id JSON-RPC error, as session-based servers
/// do; a `GET` (the session's own event stream, which a forwarding stub
/// cannot stream) is 405; everything else (the `initialize` dance) is
/// forwarded to `target`.
pub fn legacy_proxy(target: &str) -> Stub {
    let target = target.to_owned();
    let http = reqwest::blocking::Client::builder()
        .no_proxy()
        .build()
        .expect("proxy client");
    Stub::serve(move |req| {
        if req.method == "GET" {
            // A forwarded event stream would never end: this server has none.
            return Reply::empty(405);
        }
        if req.header("mcp-protocol-version") == Some("2026-07-28") {
            return Reply::json(
                400,
                &serde_json::json!({
                    "jsonrpc": "2.0", "id": null,
                    "error": { "code": -32000, "message": "Bad Request: No valid session ID provided" }
                }),
            );
        }
        forward(&http, &target, req)
    })
}

fn forward(http: &reqwest::blocking::Client, target: &str, req: &Request) -> Reply {
    let method =
        reqwest::Method::from_bytes(req.method.as_bytes()).unwrap_or(reqwest::Method::POST);
    let mut out = http.request(method, target).body(req.body.clone());
    for name in [
        "content-type",
        "accept",
        "mcp-session-id",
        "mcp-protocol-version",
    ] {
        if let Some(v) = req.header(name) {
            out = out.header(name, v);
        }
    }
    let Ok(response) = out.send() else {
        return Reply::HangUp;
    };
    let status = response.status().as_u16();
    let mut headers = Vec::new();
    for name in ["content-type", "mcp-session-id"] {
        if let Some(v) = response.headers().get(name).and_then(|v| v.to_str().ok()) {
            headers.push((name.to_owned(), v.to_owned()));
        }
    }
    let body = response.bytes().map(|b| b.to_vec()).unwrap_or_default();
    Reply::Respond {
        status,
        headers,
        body,
    }
}
