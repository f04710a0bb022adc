//! The floor: the least a process can do to make one devtools call — one
//! TCP connection, one POST, print the body, exit. Std only.
//!
//! Usage: `mur-floor <endpoint> <tool> <arguments-json>`

use std::{io::Write, net::TcpStream, process::ExitCode};

use mur_bench::wire;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [endpoint, tool, arguments] = args.as_slice() else {
        eprintln!("usage: mur-floor <endpoint> <tool> <arguments-json>");
        return ExitCode::from(1);
    };
    match call(endpoint, tool, arguments) {
        Ok(body) => {
            let _ = std::io::stdout().write_all(&body);
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("mur-floor: {err}");
            ExitCode::from(2)
        }
    }
}

fn call(endpoint: &str, tool: &str, arguments: &str) -> std::io::Result<Vec<u8>> {
    let (host_port, path) = wire::split_endpoint(endpoint)?;
    let mut stream = TcpStream::connect(&host_port)?;
    let request = wire::tools_call_request(&host_port, &path, tool, arguments, false);
    let (status, body) = wire::exchange(&mut stream, &request)?;
    if status != 200 {
        return Err(std::io::Error::other(format!("HTTP {status}")));
    }
    Ok(body)
}
