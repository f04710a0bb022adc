//! A stdio session takes the project's slot with a `stdio` lockfile, speaks MCP
//! on stdout (and nothing else), and leaves when its client closes stdin.
#![cfg(unix)]

use std::io::{BufRead, BufReader, Write};

use crate::support::{Process, World, run_to_end};
use mur_lockfile::Transport;
use serde_json::{Value, json};

#[test]
fn stdio_session_writes_a_stdio_lockfile_and_answers_on_stdout() {
    let world = World::new();
    let mut command = world.command(&["--stdio"]);
    command.stdin(std::process::Stdio::piped());
    let mut session = Process::spawn(&mut command);
    let pid = session.pid();

    let lock = world.wait_for_lockfile(|lock| lock.pid == pid);
    assert_eq!(lock.transport, Transport::Stdio);
    assert_eq!(lock.endpoint, "stdio");
    assert_eq!(lock.project, world.canonical_project());

    let second = run_to_end(world.command(&[]));
    assert_eq!(second.code, 3, "a stdio session holds the slot too");

    let mut stdin = session.child_mut().stdin.take().expect("stdin");
    let init = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "0" } } });
    writeln!(stdin, "{init}").expect("write initialize");
    let mut stdout = BufReader::new(session.child_mut().stdout.take().expect("stdout"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("read answer");
    let answer: Value =
        serde_json::from_str(&line).expect("the first stdout line is the JSON-RPC answer");
    assert_eq!(answer["result"]["serverInfo"]["name"], "minimal-session");

    drop(stdin);
    let output = session.wait_output();
    assert_eq!(output.code, 0, "{output}");
    assert!(
        !world.lockfile_path().exists(),
        "lockfile removed when stdin closes"
    );
}
