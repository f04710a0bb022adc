//! Stdio servers: a warm call through `mur devtools bridge` against launching
//! the server for each call (`mur-stdio-once`, what a one-shot command-line
//! client must otherwise do), same server and tool, interleaved. The servers
//! are the ones the e2e tests install: npm `@modelcontextprotocol/server-everything`
//! (tests/conformance, `npm ci`) and the Python SDK server
//! `tests/interop/stdio_server.py` (target/interop-venv); one not installed
//! is a row saying so.

use std::{ffi::OsString, path::PathBuf, process::Command};

use crate::{
    measure,
    runs::Runs,
    setup::{Bench, Result},
    stats::Row,
};

/// One stdio server to bridge: its name, command, and the tool called.
struct Server {
    name: &'static str,
    command: Vec<OsString>,
    tool: &'static str,
    arguments: &'static str,
}

fn servers() -> Vec<std::result::Result<Server, (&'static str, String)>> {
    let root = mur_testkit::plugins::repo_root();
    let modules = root.join("tests/conformance/node_modules");
    let node = modules.join("node/bin/node");
    let everything = modules.join("@modelcontextprotocol/server-everything/dist/index.js");
    let python = root.join("target/interop-venv/bin/python3");
    let script = root.join("tests/interop/stdio_server.py");
    let present = |paths: &[&PathBuf], how: &str| {
        paths
            .iter()
            .all(|p| p.is_file())
            .then_some(())
            .ok_or_else(|| format!("skipped: not installed ({how})"))
    };
    vec![
        present(&[&node, &everything], "npm ci --prefix tests/conformance")
            .map(|()| Server {
                name: "server-everything (Node)",
                command: vec![node.into(), everything.into(), "stdio".into()],
                tool: "echo",
                arguments: r#"{"message":"hi"}"#,
            })
            .map_err(|why| ("server-everything (Node)", why)),
        present(&[&python], "the venv of tests/interop/requirements.txt")
            .map(|()| Server {
                name: "Python SDK 1.x (stdio_server.py)",
                command: vec![python.into(), "-B".into(), script.into()],
                tool: "count",
                arguments: "{}",
            })
            .map_err(|why| ("Python SDK 1.x (stdio_server.py)", why)),
    ]
}

/// Two rows per server: the warm call through the bridge, and the launch per call.
pub fn bridged_vs_launched(sandbox: &Bench, runs: usize) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for (index, server) in servers().into_iter().enumerate() {
        match server {
            Ok(server) => rows.extend(measure_server(sandbox, &server, index, runs)?),
            Err((name, why)) => {
                rows.push(Row::from_durations(format!("stdio: {name}"), Vec::new()).note(why));
            }
        }
    }
    Ok(rows)
}

fn measure_server(sandbox: &Bench, server: &Server, index: usize, runs: usize) -> Result<Vec<Row>> {
    let dir = sandbox.root().join(format!("stdio-{index}"));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let project = dir.join("App.csproj");
    std::fs::write(&project, "<Project />\n").map_err(|e| e.to_string())?;
    let project = project
        .to_str()
        .ok_or("a non-UTF-8 sandbox path")?
        .to_owned();
    let mut start = sandbox.mur(&["bridge", "--project", &project, "--"]);
    start.args(&server.command);
    measure::run_expect(&mut start, 0).map_err(|e| format!("{}: {e}", server.name))?;
    let bridged = || {
        sandbox.mur(&[
            "--project",
            &project,
            "call",
            server.tool,
            "--args",
            server.arguments,
        ])
    };
    let launched = || -> Command {
        let mut command = sandbox.program("mur-stdio-once");
        command
            .args([server.tool, server.arguments, "--"])
            .args(&server.command);
        command
    };
    let measured = interleaved(&bridged, &launched, runs);
    let mut stop = sandbox.mur(&["bridge", "stop", "--project", &project]);
    let stopped = measure::run_expect(&mut stop, 0);
    let (bridged_runs, launched_runs) = measured.map_err(|e| format!("{}: {e}", server.name))?;
    stopped.map_err(|e| format!("{}: {e}", server.name))?;
    let launched_row = Row::from_measured(
        format!("{}: launch per call (mur-stdio-once)", server.name),
        &launched_runs,
    );
    let bridged_row = Row::from_measured(
        format!(
            "{}: `mur devtools call {}` through a warm bridge",
            server.name, server.tool
        ),
        &bridged_runs,
    );
    let speedup = launched_row.median().as_secs_f64() / bridged_row.median().as_secs_f64();
    Ok(vec![
        bridged_row.note(format!("{speedup:.1}x faster than a launch per call")),
        launched_row.note("1.00x"),
    ])
}

/// Both kinds of call, warmed up (then twice more in memory runs), then
/// alternated `runs` times.
fn interleaved(
    bridged: &dyn Fn() -> Command,
    launched: &dyn Fn() -> Command,
    runs: usize,
) -> std::io::Result<(Runs, Runs)> {
    let (mut a, mut b) = (Runs::default(), Runs::default());
    measure::run_expect(&mut bridged(), 0)?;
    measure::run_expect(&mut launched(), 0)?;
    for _ in 0..2 {
        a.memory
            .push(measure::run_for_memory_expect(&mut bridged(), 0)?);
        b.memory
            .push(measure::run_for_memory_expect(&mut launched(), 0)?);
    }
    for _ in 0..runs {
        a.timed.push(measure::run_expect(&mut bridged(), 0)?);
        b.timed.push(measure::run_expect(&mut launched(), 0)?);
    }
    Ok((a, b))
}
