//! The HTTP endpoint under hostile clients, against a real `mur-sample` over real
//! loopback TCP: silent, trickling and body-less connections are closed by the
//! timeouts or evicted at the connection cap, so a real call still answers (also
//! at `ulimit -n 1024`); a call in flight is never cut; malformed JSON and batches
//! get JSON-RPC errors; repeated `Host`/`Origin` headers are refused.
//!
//! The sample's hidden `--http-header-timeout-ms`, `--http-body-timeout-ms` and
//! `--http-max-connections` flags shorten the timeouts (so tests see them act
//! quickly) or lengthen them (so only the cap can make room).
#![cfg(unix)]

use std::{
    io::{ErrorKind, Read, Write},
    net::TcpStream,
    path::Path,
    time::{Duration, Instant},
};

use crate::support::{Session, World, mcp, sample_bin};
use mur_lockfile::Lockfile;
use serde_json::{Value, json};

/// Generous bound for "it did not hang": a call, or the server closing a connection.
const BOUND: Duration = Duration::from_secs(30);

/// Timeouts far longer than any test: only the connection cap can make room.
const NO_TIMEOUTS: &[&str] = &[
    "--http-header-timeout-ms",
    "600000",
    "--http-body-timeout-ms",
    "600000",
];

/// `mur-sample` with `extra` arguments, started in a world of its own under `ulimit -n
/// <nofile>` when given; the world goes with the session.
fn start_sample(nofile: Option<u32>, extra: &[&str]) -> (World, Session, Lockfile) {
    let world = World::new();
    let session = match nofile {
        Some(limit) => {
            let mut shell = world.sandbox.command(Path::new("bash"));
            shell
                .arg("-c")
                .arg(format!("ulimit -n {limit} && exec \"$@\""))
                .arg("bash")
                .arg(sample_bin())
                .arg("--project")
                .arg(&world.project)
                .args(extra);
            world.sandbox.start(shell, &world.project)
        }
        None => world.sandbox.start_sample_with(&world.project, extra),
    };
    let lock = session.lock.clone();
    (world, session, lock)
}

/// A real MCP call (`tools/call version`) that must answer 200 with its result.
fn real_call_answers(endpoint: &str) {
    let started = Instant::now();
    let response = mcp::modern_request(
        endpoint,
        "tools/call",
        json!({ "name": "version", "arguments": {} }),
    )
    .timeout(BOUND)
    .send()
    .unwrap_or_else(|error| {
        panic!(
            "the real call failed after {:?}: {error}",
            started.elapsed()
        )
    });
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().expect("JSON answer");
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(
        answer["result"]["structuredContent"]["name"], "mur-sample",
        "{answer}"
    );
}

/// Lets this test process hold `needed` sockets even where its own soft limit is
/// the common 1024: raises it towards the hard limit.
#[allow(unsafe_code)] // two plain libc calls on a local struct
fn allow_open_files(needed: u64) {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit only read and write the struct we pass.
    let got = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut limit) };
    assert_eq!(got, 0, "getrlimit");
    if limit.rlim_cur >= needed {
        return;
    }
    assert!(
        limit.rlim_max >= needed,
        "this test needs {needed} open files; the hard limit is {}",
        limit.rlim_max
    );
    limit.rlim_cur = needed;
    // SAFETY: as above.
    let set = unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raw const limit) };
    assert_eq!(set, 0, "setrlimit");
}

fn connect(port: u16) -> TcpStream {
    TcpStream::connect(("127.0.0.1", port)).expect("connect")
}

/// The start of a request head, never finished.
const PARTIAL_HEAD: &[u8] = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a";

/// A complete head announcing a body that never comes.
const HEAD_WITHOUT_BODY: &[u8] = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\
Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
Content-Length: 100\r\n\r\n";

fn open_with(port: u16, count: usize, first_bytes: &[u8]) -> Vec<TcpStream> {
    (0..count)
        .map(|_| {
            let mut stream = connect(port);
            if !first_bytes.is_empty() {
                stream.write_all(first_bytes).expect("write");
            }
            stream
        })
        .collect()
}

/// Reads until the server closes the connection (end of file or reset) and
/// returns what arrived; `None` if it is still open at `deadline`.
fn read_until_closed(stream: &mut TcpStream, deadline: Instant) -> Option<Vec<u8>> {
    let mut received = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let left = deadline.checked_duration_since(Instant::now())?;
        stream
            .set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .expect("set_read_timeout");
        match stream.read(&mut chunk) {
            Ok(0) => return Some(received),
            Ok(read) => received.extend_from_slice(&chunk[..read]),
            Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                if Instant::now() >= deadline {
                    return None;
                }
            }
            Err(_) => return Some(received), // reset: closed as well
        }
    }
}

/// Waits until the server has closed at least `at_least` of `streams` (their
/// reads end or fail) and returns how many it closed; gives up at `deadline`.
fn closed_by_server(streams: &mut [TcpStream], at_least: usize, deadline: Instant) -> usize {
    let mut closed = vec![false; streams.len()];
    let mut chunk = [0u8; 4096];
    loop {
        for (stream, closed) in streams.iter_mut().zip(&mut closed) {
            if *closed {
                continue;
            }
            stream.set_nonblocking(true).expect("set_nonblocking");
            *closed = loop {
                match stream.read(&mut chunk) {
                    Ok(0) => break true,
                    Ok(_) => continue, // an answer (408) before the close
                    Err(error) if error.kind() == ErrorKind::WouldBlock => break false,
                    Err(_) => break true, // reset
                }
            };
        }
        let count = closed.iter().filter(|closed| **closed).count();
        if count >= at_least || Instant::now() >= deadline {
            return count;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends a whole request on a fresh connection and returns (status, body).
fn raw_exchange(port: u16, request: &str) -> (u16, String) {
    let mut stream = connect(port);
    stream.write_all(request.as_bytes()).expect("write request");
    answer_before_close(
        &mut stream,
        Instant::now() + BOUND,
        "the server answered and closed",
    )
}

/// The HTTP/1.1 answer the server sent on `stream` before closing it, as (status,
/// body); `expect` is the failure's message when it is still open at `deadline`.
fn answer_before_close(stream: &mut TcpStream, deadline: Instant, expect: &str) -> (u16, String) {
    let received = read_until_closed(stream, deadline).expect(expect);
    let text = String::from_utf8_lossy(&received).into_owned();
    let status = text
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP/1.1 status line in {text:?}"));
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or_default();
    (status, body)
}

#[test]
fn a_real_call_answers_through_a_flood_of_idle_and_half_open_connections() {
    // At the common soft limit, with timeouts too long to help: only the cap can.
    allow_open_files(2048);
    let (_world, _session, lock) = start_sample(Some(1024), NO_TIMEOUTS);
    let silent = open_with(lock.port, 350, b"");
    let mut trickling = open_with(lock.port, 350, PARTIAL_HEAD);
    let bodiless = open_with(lock.port, 350, HEAD_WITHOUT_BODY);
    for stream in &mut trickling {
        // Another byte of a header that never ends; the server may have closed it already.
        let _ = stream.write_all(b"b");
    }

    real_call_answers(&lock.endpoint);

    // 1,050 were opened and at most 256 (the cap) are held: the rest were closed.
    let mut flood: Vec<TcpStream> = [silent, trickling, bodiless]
        .into_iter()
        .flatten()
        .collect();
    let closed = closed_by_server(&mut flood, 1050 - 256, Instant::now() + BOUND);
    assert!(
        closed >= 1050 - 256,
        "only {closed} of 1050 flood connections were closed"
    );
    real_call_answers(&lock.endpoint);
}

#[test]
fn eleven_hundred_idle_connections_at_ulimit_1024_do_not_lock_out_a_real_call() {
    allow_open_files(2048);
    let (_world, _session, lock) = start_sample(Some(1024), NO_TIMEOUTS);
    let idle = open_with(lock.port, 1100, b"");
    real_call_answers(&lock.endpoint);
    drop(idle);
}

#[test]
fn silent_trickling_bodiless_and_idle_connections_are_closed_by_the_timeouts() {
    let (_world, _session, lock) = start_sample(
        None,
        &[
            "--http-header-timeout-ms",
            "1000",
            "--http-body-timeout-ms",
            "1000",
        ],
    );
    let deadline = Instant::now() + BOUND;

    let mut silent = connect(lock.port);
    // Bytes keep coming, but the head never completes: the timeout is a total, not a gap.
    let mut trickling = connect(lock.port);
    trickling.write_all(PARTIAL_HEAD).expect("write");
    let mut writer = trickling.try_clone().expect("clone");
    let trickler = std::thread::spawn(move || {
        while Instant::now() < deadline && writer.write_all(b"x").is_ok() {
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    let mut bodiless = connect(lock.port);
    bodiless.write_all(HEAD_WITHOUT_BODY).expect("write");
    // One answered request, then nothing: the keep-alive idle timeout.
    let mut idle = connect(lock.port);
    idle.write_all(b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .expect("write");

    assert!(
        read_until_closed(&mut silent, deadline).is_some(),
        "a silent connection stays open"
    );
    assert!(
        read_until_closed(&mut trickling, deadline).is_some(),
        "a trickling connection stays open"
    );
    trickler.join().expect("trickler");

    let (status, body) = answer_before_close(
        &mut bodiless,
        deadline,
        "a connection whose body never comes stays open",
    );
    assert_eq!(status, 408, "{body}");
    let body: Value = serde_json::from_str(&body).expect("JSON-RPC error body");
    assert_eq!(body["id"], Value::Null);
    assert_eq!(body["error"]["code"], -32600);

    let (status, body) = answer_before_close(&mut idle, deadline, "an idle connection stays open");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("reactor-devtools-mcp/1"), "{body}");

    real_call_answers(&lock.endpoint);
}

#[test]
fn a_call_in_flight_outlives_the_timeouts_and_is_never_evicted() {
    let (_world, _session, lock) = start_sample(
        None,
        &[
            "--http-header-timeout-ms",
            "300",
            "--http-max-connections",
            "4",
        ],
    );
    // A call that lasts until the count reaches 1 (a click below).
    let wait_body = json!({
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {
            "name": "waitFor",
            "arguments": { "selector": "#count", "text": "1", "timeoutMs": 60000 },
            "_meta": mcp::modern_meta(),
        }
    })
    .to_string();
    let mut waiting = connect(lock.port);
    write!(
        waiting,
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: {}\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: waitFor\r\nConnection: close\r\n\
         Content-Length: {}\r\n\r\n{wait_body}",
        mcp::MODERN,
        wait_body.len()
    )
    .expect("write the waitFor call");
    // A round trip after it, so the server has read the waitFor call by now.
    real_call_answers(&lock.endpoint);

    // Far more connections than the cap: the idle ones make room for each other.
    // All of them closing (by eviction or the header timeout) shows that the
    // waitFor call has been in flight for longer than the header timeout.
    let mut silent = open_with(lock.port, 20, b"");
    let deadline = Instant::now() + BOUND;
    assert_eq!(closed_by_server(&mut silent, 20, deadline), 20);

    let clicked = mcp::modern_request(
        &lock.endpoint,
        "tools/call",
        json!({ "name": "click", "arguments": { "selector": "#btn-inc" } }),
    )
    .timeout(BOUND)
    .send()
    .expect("click");
    assert_eq!(clicked.status(), 200);

    let (status, body) = answer_before_close(&mut waiting, deadline, "the waitFor call answers");
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).expect("JSON answer");
    assert_eq!(body["id"], 7, "{body}");
    assert_eq!(body["result"]["isError"], false, "{body}");
}

/// A POST with the headers rmcp wants and `body` as is.
fn post_raw(endpoint: &str, body: &'static str) -> (u16, Value) {
    let response = mcp::post(endpoint)
        .header("Content-Type", "application/json")
        .header("MCP-Protocol-Version", mcp::MODERN)
        .body(body)
        .timeout(BOUND)
        .send()
        .expect("POST");
    let status = response.status().as_u16();
    (status, response.json().expect("a JSON body"))
}

#[test]
fn malformed_json_is_a_400_parse_error() {
    let (_world, _session, lock) = start_sample(None, &[]);
    for body in ["not json", "{\"jsonrpc\": \"2.0\", \"id\": 1,", ""] {
        let (status, answer) = post_raw(&lock.endpoint, body);
        assert_eq!(status, 400, "{body:?}: {answer}");
        assert_eq!(answer["jsonrpc"], "2.0");
        assert_eq!(answer["id"], Value::Null, "{answer}");
        assert_eq!(answer["error"]["code"], -32700, "{answer}");
        assert_eq!(answer["error"]["message"], "Parse error", "{answer}");
    }
}

#[test]
fn a_batch_or_a_non_message_is_a_400_invalid_request() {
    let (_world, _session, lock) = start_sample(None, &[]);
    let batch =
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#;
    for body in [batch, "[]", "42", r#"{"hello":"world"}"#] {
        let (status, answer) = post_raw(&lock.endpoint, body);
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["id"], Value::Null, "{answer}");
        assert_eq!(answer["error"]["code"], -32600, "{answer}");
        assert_eq!(answer["error"]["message"], "Invalid Request", "{answer}");
    }
    // One message still goes through.
    real_call_answers(&lock.endpoint);
}

/// A body past the cap is answered 413, and its client reads that: one 3 times the cap,
/// sent whole, is read to its end first (the server answered as soon as the headers
/// declared it, and closed the connection while it was still being sent: the client's
/// write failed, "Broken pipe", and the 413 was never read). One declared far past
/// what is read on is refused at once, unread.
#[test]
fn a_body_past_the_cap_is_413() {
    let (_world, _session, lock) = start_sample(None, &[]);
    let head = |length: usize| {
        format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {length}\r\n\r\n"
        )
    };
    // Larger than the socket's buffers take before the server reads: 3 times the cap.
    let past = 12 * 1024 * 1024;
    let whole = head(past) + &"x".repeat(past);
    let too_large = |(status, body): (u16, String)| {
        assert_eq!(status, 413, "{body}");
        let answer: Value = serde_json::from_str(&body).expect("JSON-RPC error body");
        assert_eq!(answer["error"]["code"], -32600, "{answer}");
        assert_eq!(
            answer["error"]["data"], "the request body is larger than 4194304 bytes",
            "{answer}"
        );
    };
    too_large(raw_exchange(lock.port, &whole));
    too_large(raw_exchange(lock.port, &head(1 << 30)));
}

#[test]
fn a_repeated_host_or_origin_header_is_refused() {
    let (_world, _session, lock) = start_sample(None, &[]);
    let get = |headers: &str| {
        raw_exchange(
            lock.port,
            &format!("GET /mcp HTTP/1.1\r\n{headers}Connection: close\r\n\r\n"),
        )
    };
    assert_eq!(get("Host: 127.0.0.1\r\n").0, 200, "one Host is fine");
    let (status, body) = get("Host: 127.0.0.1\r\nHost: 127.0.0.1\r\n");
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("more than one Host header"), "{body}");
    let (status, _) = get("Host: 127.0.0.1\r\nHost: evil.example\r\n");
    assert_eq!(status, 403);
    let (status, body) =
        get("Host: 127.0.0.1\r\nOrigin: http://localhost\r\nOrigin: http://evil.example\r\n");
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("more than one Origin header"), "{body}");
}
