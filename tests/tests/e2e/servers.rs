//! Servers the tests run from tests/interop/, and how the command that starts a bridge
//! again begins: what several test modules use, kept in a module that imports none of
//! them, so the test modules import each other one way only (`layering::`).

use std::path::Path;
use std::process::Stdio;

use mur_e2e::{Process, Sandbox};

/// `cd ROOT && `, ROOT the sandbox's root, where `mur` runs: how the command that
/// starts a bridge again begins for a bridge started there, which ran its server there.
pub(crate) fn from_the_root(sb: &Sandbox) -> String {
    let root = std::fs::canonicalize(sb.root()).expect("the sandbox's root");
    format!("cd {} && ", mur_core::shell_word(&root.to_string_lossy()))
}

/// `tests/interop/session_server.py` on `port` (0: any), its log in `sb`: the process
/// (killed on drop), its endpoint and its log.
pub(crate) fn session_server(
    sb: &Sandbox,
    python: &Path,
    port: u16,
) -> (Process, String, std::path::PathBuf) {
    interop_server(
        sb,
        python,
        "session_server.py",
        &[&port.to_string()],
        "interop-session",
    )
}

/// `tests/interop/SCRIPT ARGS…` run by `python`, its stdout (its log) in `sb`, once it
/// has said `NAME: listening on ADDRESS`: the process (killed on drop), its endpoint
/// and its log.
pub(crate) fn interop_server(
    sb: &Sandbox,
    python: &Path,
    script: &str,
    args: &[&str],
    name: &str,
) -> (Process, String, std::path::PathBuf) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("interop")
        .join(script);
    let log = sb.root().join(format!("{script}-{}.log", args.join("-")));
    let mut command = sb.command(python);
    // -B: no __pycache__ beside the scripts for the module they share.
    command
        .arg("-B")
        .arg(&path)
        .args(args)
        .stdout(std::fs::File::create(&log).expect("server log"))
        .stderr(Stdio::null());
    let mut process = Process::spawn(&mut command);
    let read = || std::fs::read_to_string(&log).unwrap_or_default();
    let listening = format!("{name}: listening on ");
    let address = process.wait_ready(
        script,
        "listening",
        std::time::Duration::from_secs(60),
        || {
            let log = read();
            let line = log.lines().find_map(|l| l.strip_prefix(&listening))?;
            Some(line.trim().to_owned())
        },
        read,
    );
    (process, format!("http://{address}/mcp"), log)
}

/// `script` written into the sandbox as `file`, beside `line_server.py`
/// (tests/interop/), which it imports: what the tests' small stdio MCP servers share.
pub(crate) fn line_server(sb: &Sandbox, file: &str, script: &str) -> std::path::PathBuf {
    sb.file(
        "line_server.py",
        include_str!("../../interop/line_server.py"),
    );
    sb.file(file, script)
}
