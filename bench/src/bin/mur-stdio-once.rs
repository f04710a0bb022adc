//! The one-shot stdio floor: what a command-line client without a bridge must
//! do for each call to a stdio MCP server — start the server, `initialize`,
//! `notifications/initialized`, one `tools/call`, read its answer, then end
//! the server. Std only.
//!
//! Usage: `mur-stdio-once <tool> <arguments-json> -- <server command…>`

use std::{
    io::{BufRead, BufReader, Write},
    process::{Command, ExitCode, Stdio},
};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (tool, arguments, server) = match args.as_slice() {
        [tool, arguments, dash, server @ ..] if dash == "--" && !server.is_empty() => {
            (tool, arguments, server)
        }
        _ => {
            eprintln!("usage: mur-stdio-once <tool> <arguments-json> -- <server command…>");
            return ExitCode::from(1);
        }
    };
    match call(tool, arguments, server) {
        Ok(answer) => {
            // Not `println!`: it panics on a stdout pipe its reader closed.
            let _ = writeln!(std::io::stdout().lock(), "{answer}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("mur-stdio-once: {error}");
            ExitCode::from(2)
        }
    }
}

fn call(tool: &str, arguments: &str, server: &[String]) -> std::io::Result<String> {
    let mut child = Command::new(&server[0])
        .args(&server[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| std::io::Error::other("no stdin"))?;
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| std::io::Error::other("no stdout"))?;
    let mut lines = BufReader::new(stdout).lines();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"mur-stdio-once","version":"1"}}}}}}"#
    )?;
    answer(&mut lines, 1)?;
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )?;
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    )?;
    let result = answer(&mut lines, 2)?;
    drop(stdin);
    let _ = child.kill();
    child.wait()?;
    Ok(result)
}

/// The line answering request `id` (servers write compact JSON).
fn answer(
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
    id: u64,
) -> std::io::Result<String> {
    let wanted = [format!("\"id\":{id},"), format!("\"id\":{id}}}")];
    for line in lines {
        let line = line?;
        if wanted.iter().any(|w| line.contains(w.as_str())) && !line.contains("\"method\"") {
            return Ok(line);
        }
    }
    Err(std::io::Error::other(format!(
        "the server ended before answering request {id}"
    )))
}
