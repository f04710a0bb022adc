//! The contract floor: the least a process can do for one devtools call while
//! keeping the lockfile contract — read the lockfile directory, check the pid
//! runs, `GET` the probe (same pid), then one POST on that connection, print
//! the body, exit. Std only, no JSON parser.
//!
//! Usage: `mur-contract-floor <tool> <arguments-json>`

use std::{io::Write, process::ExitCode};

use mur_bench::{contract, wire};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [tool, arguments] = args.as_slice() else {
        eprintln!("usage: mur-contract-floor <tool> <arguments-json>");
        return ExitCode::from(1);
    };
    match call(tool, arguments) {
        Ok(body) => {
            let _ = std::io::stdout().write_all(&body);
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("mur-contract-floor: {err}");
            ExitCode::from(2)
        }
    }
}

fn call(tool: &str, arguments: &str) -> std::io::Result<Vec<u8>> {
    let mut live = contract::find_live(&contract::lockfile_dirs())?;
    let request = wire::tools_call_request(&live.host_port, &live.path, tool, arguments, false);
    let (status, body) = wire::exchange(&mut live.stream, &request)?;
    if status != 200 {
        return Err(std::io::Error::other(format!("HTTP {status}")));
    }
    Ok(body)
}
