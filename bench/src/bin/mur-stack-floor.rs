//! The HTTP stack's floor: the two requests of the contract (the `GET` probe, then
//! the POST on the same connection) through the async stack `mur` runs on, with
//! no discovery and nothing else — `hyper` (tokio and hyper's HTTP/1.1 connection,
//! nothing above it), `mur` (mur's own HTTP, `mur_http::Http`, which the probe and
//! the call go through) or `reqwest` (the reqwest client mur builds for what needs
//! one, `Http::client`, which the call path used before `mur_http`). Against
//! `mur-floor` (std only) the rows show what the stack costs a call, and against
//! each other what mur's HTTP and reqwest add to hyper.
//!
//! Usage: `mur-stack-floor <hyper|mur|reqwest> <endpoint> <tool> <arguments-json>`

use std::{io::Write, process::ExitCode};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use mur_bench::wire;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [stack, endpoint, tool, arguments] = args.as_slice() else {
        eprintln!("usage: mur-stack-floor <hyper|mur|reqwest> <endpoint> <tool> <arguments-json>");
        return ExitCode::from(1);
    };
    // As `mur` runs a call (host/src/invoke.rs, `block_on`).
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_io_events_per_tick(16)
        .build();
    let body = wire::tools_call_body(tool, arguments);
    let answer = runtime.map_err(|e| e.to_string()).and_then(|runtime| {
        runtime.block_on(Box::pin(async {
            match stack.as_str() {
                "hyper" => through_hyper(endpoint, tool, body).await,
                "mur" => through_mur(endpoint, tool, body).await,
                "reqwest" => through_reqwest(endpoint, tool, body).await,
                other => Err(format!("no stack `{other}` (hyper, mur, reqwest)")),
            }
        }))
    });
    match answer {
        Ok(answer) => {
            let _ = std::io::stdout().write_all(&answer);
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("mur-stack-floor: {err}");
            ExitCode::from(2)
        }
    }
}

async fn through_hyper(endpoint: &str, tool: &str, body: String) -> Result<Bytes, String> {
    let (host_port, path) = wire::split_endpoint(endpoint).map_err(|e| e.to_string())?;
    let stream = tokio::net::TcpStream::connect(&host_port)
        .await
        .map_err(|e| e.to_string())?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    let probe = hyper::Request::get(&path)
        .header("host", &host_port)
        .header("accept", "application/json")
        .body(Full::new(Bytes::new()))
        .map_err(|e| e.to_string())?;
    let mut call = hyper::Request::post(&path).header("host", &host_port);
    for (name, value) in call_headers(tool) {
        call = call.header(name, value);
    }
    let call = call
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    let mut answer = Bytes::new();
    for request in [probe, call] {
        let response = sender
            .send_request(request)
            .await
            .map_err(|e| e.to_string())?;
        if !response.status().is_success() {
            return Err(format!("HTTP {}", response.status()));
        }
        answer = response
            .into_body()
            .collect()
            .await
            .map_err(|e| e.to_string())?
            .to_bytes();
    }
    Ok(answer)
}

async fn through_mur(endpoint: &str, tool: &str, body: String) -> Result<Bytes, String> {
    use mur_http::Request;
    use reqwest::header::{HeaderName, HeaderValue};
    let http = mur_http::Http::new();
    let probe = Request::get(endpoint).header(
        reqwest::header::ACCEPT,
        HeaderValue::from_static("application/json"),
    );
    let mut call = Request::post(endpoint).body(body);
    for (name, value) in call_headers(tool) {
        let value = HeaderValue::from_str(value).map_err(|e| e.to_string())?;
        call = call.header(HeaderName::from_static(name), value);
    }
    let mut answer = Bytes::new();
    for request in [probe, call] {
        let response = http.send(request).await.map_err(|e| e.to_string())?;
        let response = response.error_for_status().map_err(|e| e.to_string())?;
        answer = response.bytes().await.map_err(|e| e.to_string())?;
    }
    Ok(answer)
}

async fn through_reqwest(endpoint: &str, tool: &str, body: String) -> Result<Bytes, String> {
    let http = mur_http::Http::new();
    let client = http.client()?;
    answer(client.get(endpoint).header("accept", "application/json")).await?;
    let mut call = client.post(endpoint).body(body);
    for (name, value) in call_headers(tool) {
        call = call.header(name, value);
    }
    answer(call).await
}

/// The body of a 2xx answer to `request`; anything else is an error.
async fn answer(request: reqwest::RequestBuilder) -> Result<Bytes, String> {
    let response = request
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .map_err(|e| e.to_string())?;
    response.bytes().await.map_err(|e| e.to_string())
}

/// The headers of the `tools/call` POST, as `wire::tools_call_request` writes them.
fn call_headers(tool: &str) -> [(&'static str, &str); 5] {
    [
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", tool),
    ]
}
