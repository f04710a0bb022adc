//! The floor's wire format: one JSON-RPC POST in the 2026-07-28 form, written
//! with std only, so the benchmark's baseline owes nothing to any HTTP crate.

use std::{
    io::{self, BufRead, BufReader, Read, Write},
    net::TcpStream,
};

/// The HTTP/1.1 request bytes for a `tools/call` of `tool` with `arguments`
/// (a JSON object as text), as a modern stateless MCP client sends it.
pub fn tools_call_request(
    host_port: &str,
    path: &str,
    tool: &str,
    arguments: &str,
    keep_alive: bool,
) -> Vec<u8> {
    let body = tools_call_body(tool, arguments);
    let connection = if keep_alive { "keep-alive" } else { "close" };
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {host_port}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: {tool}\r\nConnection: {connection}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body.as_bytes());
    bytes
}

/// The JSON-RPC body of a `tools/call` of `tool` with `arguments` (a JSON object as
/// text), its protocol context in `_meta`.
pub fn tools_call_body(tool: &str, arguments: &str) -> String {
    format!(
        concat!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},"#,
            r#""_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","#,
            r#""io.modelcontextprotocol/clientInfo":{{"name":"mur-floor","version":"0"}},"#,
            r#""io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
        ),
        tool = tool,
        arguments = arguments
    )
}

/// Split `http://127.0.0.1:PORT/path` into `("127.0.0.1:PORT", "/path")`.
pub fn split_endpoint(endpoint: &str) -> io::Result<(String, String)> {
    let rest = endpoint.strip_prefix("http://").ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "endpoint must start with http://",
        )
    })?;
    let (host_port, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    Ok((host_port.to_owned(), path.to_owned()))
}

/// Send one request on `stream` and read one response (Content-Length or
/// chunked bodies); returns the status code and body.
pub fn exchange(stream: &mut TcpStream, request: &[u8]) -> io::Result<(u16, Vec<u8>)> {
    stream.write_all(request)?;
    let mut reader = BufReader::new(stream);
    read_response(&mut reader)
}

/// Read one HTTP/1.1 response from `reader`.
pub fn read_response(reader: &mut impl BufRead) -> io::Result<(u16, Vec<u8>)> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("bad status line {line:?}"),
            )
        })?;
    let (mut length, mut chunked) = (None, false);
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let lower = header.to_ascii_lowercase();
        if let Some(value) = lower.strip_prefix("content-length:") {
            length = value.trim().parse().ok();
        } else if lower.starts_with("transfer-encoding:") && lower.contains("chunked") {
            chunked = true;
        }
    }
    let body = if chunked {
        read_chunked(reader)?
    } else {
        read_exact_len(reader, length.unwrap_or(0))?
    };
    Ok((status, body))
}

fn read_exact_len(reader: &mut impl Read, length: usize) -> io::Result<Vec<u8>> {
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(body)
}

fn read_chunked(reader: &mut impl BufRead) -> io::Result<Vec<u8>> {
    let mut body = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or("0"), 16)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "bad chunk size"))?;
        if size == 0 {
            line.clear();
            reader.read_line(&mut line)?;
            return Ok(body);
        }
        body.extend(read_exact_len(reader, size)?);
        line.clear();
        reader.read_line(&mut line)?;
    }
}
