//! Peer clients against the same `mur-sample` session, interleaved with mur's
//! named verb and both floors: mcporter, the MCP Inspector's `--cli` and its
//! `mcpdo` (connected once, so each call goes through its daemon), all run by
//! the Node 24 that `bench/peers.sh` installs next to them in `bench/peers/`
//! (pinned; ignored by git; never installed by CI). Without that directory
//! the section is rows saying so.

use std::{
    ffi::OsString,
    path::{Path, PathBuf},
    process::Command,
};

use crate::{
    latency::{self, Contender, Order, STATE_ARGS},
    measure,
    setup::{Bench, Result},
    stats::Row,
};

const HOW: &str = "bench/peers.sh installs them";

/// The mcpdo connection the benchmark opens (in the sandbox's home).
const CONNECTION: &str = "mur-bench";

/// Where `bench/peers.sh` put the peers, and the Node that runs them.
struct Installed {
    node: PathBuf,
    modules: PathBuf,
}

impl Installed {
    fn find() -> Option<Self> {
        let modules = mur_testkit::plugins::repo_root().join("bench/peers/node_modules");
        let node = modules.join("node/bin/node");
        node.is_file().then_some(Self { node, modules })
    }

    /// The script behind `node_modules/.bin/<bin>`, if installed.
    fn script(&self, bin: &str) -> Option<PathBuf> {
        std::fs::canonicalize(self.modules.join(".bin").join(bin)).ok()
    }

    /// `node <script of bin> <args>` in the sandbox, with this Node first on PATH
    /// (for anything the peer starts itself).
    fn command(&self, sandbox: &Bench, script: &Path, args: &[String]) -> Command {
        let mut command = sandbox.command(&self.node);
        let node_dir = self.node.parent().map(Path::to_owned).unwrap_or_default();
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut paths = vec![node_dir];
        paths.extend(std::env::split_paths(&path));
        command
            .env(
                "PATH",
                std::env::join_paths(paths).unwrap_or_else(|_| OsString::from("")),
            )
            .arg(script)
            .args(args);
        command
    }
}

/// One peer: its row label, its bin, and its arguments for `state` on `#count`.
fn peer_calls(endpoint: &str) -> Vec<(&'static str, &'static str, Vec<String>)> {
    let strings = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
    vec![
        (
            "peer: mcpdo tools/call (MCP Inspector daemon, connected)",
            "mcpdo",
            strings(&[
                "--connection",
                CONNECTION,
                "tools/call",
                "state",
                STATE_ARGS,
            ]),
        ),
        (
            "peer: mcporter call",
            "mcporter",
            strings(&[
                "call",
                "--allow-http",
                &format!("{endpoint}.state"),
                "selector=#count",
            ]),
        ),
        (
            "peer: mcp-inspector --cli",
            "mcp-inspector",
            strings(&[
                "--cli",
                endpoint,
                "--method",
                "tools/call",
                "--tool-name",
                "state",
                "--tool-arg",
                "selector=#count",
            ]),
        ),
    ]
}

/// The peers, mur's named verb and both floors, `runs` interleaved rounds.
pub fn peers(sandbox: &Bench, endpoint: &str, runs: usize, order: Order) -> Result<Vec<Row>> {
    let Some(installed) = Installed::find() else {
        return Ok(peer_calls(endpoint)
            .into_iter()
            .map(|(label, _, _)| skipped(label, HOW))
            .collect());
    };
    let mut rows = Vec::new();
    let mut contenders = Vec::new();
    let mut connected = None;
    for (label, bin, args) in peer_calls(endpoint) {
        let Some(script) = installed.script(bin) else {
            rows.push(skipped(label, &format!("`{bin}` not found; {HOW}")));
            continue;
        };
        if bin == "mcpdo" {
            match connect(sandbox, &installed, &script, endpoint) {
                Ok(()) => connected = Some(script.clone()),
                Err(why) => {
                    rows.push(skipped(label, &why));
                    continue;
                }
            }
        }
        let installed = &installed;
        contenders.push(
            Contender::new(label, move || installed.command(sandbox, &script, &args)).tolerated(),
        );
    }
    let peer_count = contenders.len();
    contenders.push(Contender::new(
        "mur devtools state --selector '#count' (named verb)",
        || sandbox.mur(&["state", "--selector", "#count"]),
    ));
    contenders.extend(latency::floor_contenders(sandbox, endpoint));
    let measured = latency::measure_interleaved(&contenders, runs, order);
    if let Some(mcpdo) = &connected {
        disconnect(sandbox, &installed, mcpdo);
    }
    let (mut measured_rows, _) = latency::rows_against_floors(&contenders, &measured?);
    let mur = measured_rows[peer_count].median();
    let fastest = measured_rows[..peer_count]
        .iter()
        .map(|row| (row.median(), row.name.clone()))
        .min();
    for row in &mut measured_rows[..peer_count] {
        row.note = format!(
            "{:.0}x mur's named verb; {}",
            row.median().as_secs_f64() / mur.as_secs_f64(),
            row.note
        );
    }
    if let Some((peer, name)) = fastest {
        let times = peer.as_secs_f64() / mur.as_secs_f64();
        let verdict = if times >= 50.0 { "met" } else { "missed" };
        let row = &mut measured_rows[peer_count];
        row.note = format!(
            "{}; fastest peer ({}) {times:.0}x slower: target ≥ 50x {verdict}",
            row.note,
            name.trim_start_matches("peer: ")
        );
    }
    rows.extend(measured_rows);
    Ok(rows)
}

fn skipped(label: &str, why: &str) -> Row {
    Row::from_durations(label, Vec::new()).note(format!("skipped: {why}"))
}

/// `mcpdo connect <endpoint>`: starts its daemon (in the sandbox's home) and
/// opens the connection every measured call then goes through.
fn connect(sandbox: &Bench, installed: &Installed, mcpdo: &Path, endpoint: &str) -> Result<()> {
    let args: Vec<String> = ["connect", endpoint, "--connection", CONNECTION]
        .iter()
        .map(|w| (*w).to_owned())
        .collect();
    let run =
        measure::run(&mut installed.command(sandbox, mcpdo, &args)).map_err(|e| e.to_string())?;
    if run.exit_code != 0 {
        return Err(format!("`mcpdo connect` exited {}", run.exit_code));
    }
    Ok(())
}

/// Stops the daemon `connect` started, with its connection.
fn disconnect(sandbox: &Bench, installed: &Installed, mcpdo: &Path) {
    let args = vec!["daemon".to_owned(), "stop".to_owned()];
    let _ = measure::run(&mut installed.command(sandbox, mcpdo, &args));
}
