//! `mur-bench`: builds everything in release mode, starts a private
//! `mur-sample`, and prints tables of what mur costs per call, side by side
//! with two floors (one raw POST; the lockfile contract then the POST) and,
//! when `bench/peers.sh` installed them, its peers.
//!
//! Run from the workspace root: `cargo run --release -p mur-bench`
//! (`-- --quick` for fewer runs while iterating; `-- --only languages` for one
//! section: latency, load, languages, discovery, auto, server, peers or stdio;
//! `-- --target x86_64-unknown-linux-musl` to measure that build of `mur` and the
//! floors beside the host's, in the latency section).

mod languages;
mod latency;
mod measure;
mod peers;
mod scenarios;
mod setup;
mod stats;
mod stdio;

use std::{process::ExitCode, time::Duration};

use mur_bench::wire;
use stats::Row;

struct Plan {
    latency_runs: usize,
    warm_runs: usize,
    discovery_runs: usize,
    auto_runs: usize,
    load_duration: Duration,
    /// The one section to run (`--only NAME`), or every section.
    only: Option<String>,
    /// Another target to build `mur` and the floors for (`--target TRIPLE`), measured
    /// beside the host build in the latency section.
    target: Option<String>,
}

impl Plan {
    fn from_args() -> Self {
        let args: Vec<String> = std::env::args().collect();
        // A flag given without its value is an empty value, refused by `run`.
        let value = |name: &str| {
            args.iter()
                .position(|arg| arg == name)
                .map(|at| args.get(at + 1).cloned().unwrap_or_default())
        };
        let (only, target) = (value("--only"), value("--target"));
        let plan = if args.iter().any(|arg| arg == "--quick") {
            Self {
                latency_runs: 10,
                warm_runs: 3,
                discovery_runs: 3,
                auto_runs: 1,
                load_duration: Duration::from_secs(1),
                only: None,
                target: None,
            }
        } else {
            Self {
                latency_runs: 60,
                warm_runs: 10,
                discovery_runs: 10,
                auto_runs: 5,
                load_duration: Duration::from_secs(3),
                only: None,
                target: None,
            }
        };
        Self {
            only,
            target,
            ..plan
        }
    }

    fn runs(&self, section: &str) -> bool {
        self.only.as_deref().is_none_or(|only| only == section)
    }
}

const SECTIONS: [&str; 8] = [
    "latency",
    "load",
    "languages",
    "discovery",
    "auto",
    "server",
    "peers",
    "stdio",
];

fn main() -> ExitCode {
    match run(Plan::from_args()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mur-bench: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(plan: Plan) -> setup::Result<()> {
    if let Some(only) = plan.only.as_deref().filter(|only| !SECTIONS.contains(only)) {
        let what = if only.is_empty() {
            "`--only` needs a section".to_owned()
        } else {
            format!("no section `{only}`")
        };
        return Err(format!("{what}; sections: {}", SECTIONS.join(", ")));
    }
    match plan.target.as_deref() {
        Some("") => return Err("`--target` needs a target triple".into()),
        Some(_) if !plan.runs("latency") => {
            return Err("`--target` adds rows to the latency section only".into());
        }
        _ => {}
    }
    let sandbox = setup::Bench::build(plan.target.as_deref())?;
    let verb_files = sandbox.install_standard_verbs()?;
    let session = sandbox.start_sample();
    let live = session.lock.clone();
    let _ = wire::split_endpoint(&live.endpoint).map_err(|err| err.to_string())?;
    println!(
        "# mur benchmarks\n\nmachine: {} cores; session {} (pid {})",
        cores(),
        live.endpoint,
        live.pid
    );

    if plan.runs("latency") {
        eprintln!("per-call latency…");
        stats::print_table(
            "Per-call latency (whole process, warm)",
            &latency::per_call_latency(&sandbox, &live.endpoint, plan.latency_runs)?,
        );
    }
    if plan.runs("load") {
        eprintln!("verb load…");
        stats::print_table(
            "Verb load (per standard verb)",
            &scenarios::verb_load(&sandbox, &verb_files, plan.warm_runs)?,
        );
    }
    if plan.runs("languages") {
        eprintln!("verb languages…");
        stats::print_table(
            "Verbs by language (warm named verb calling `version`, interleaved)",
            &languages::verb_languages(&sandbox, plan.latency_runs)?,
        );
    }
    if plan.runs("discovery") {
        eprintln!("discovery at scale…");
        stats::print_table(
            "Discovery at scale",
            &scenarios::discovery_at_scale(&sandbox, &live, plan.discovery_runs)?,
        );
    }
    if plan.runs("auto") {
        eprintln!("--auto scan…");
        stats::print_table(
            "--auto port scan",
            &scenarios::auto_scan(&sandbox, &live, plan.auto_runs)?,
        );
    }
    if plan.runs("server") {
        eprintln!("server load…");
        let load: Vec<Row> = [8, 64]
            .into_iter()
            .map(|connections| {
                scenarios::server_load(&live.endpoint, connections, plan.load_duration)
            })
            .collect::<setup::Result<_>>()?;
        stats::print_table("Server throughput (mur-sample)", &load);
    }
    if plan.runs("peers") {
        eprintln!("peers…");
        stats::print_table(
            "Peers (same session and call, interleaved with mur and the floors; bench/peers.sh)",
            &peers::peers(&sandbox, &live.endpoint, plan.warm_runs)?,
        );
    }
    if plan.runs("stdio") {
        eprintln!("stdio servers through a bridge…");
        stats::print_table(
            "Stdio servers: warm call through `mur devtools bridge` vs a launch per call (interleaved)",
            &stdio::bridged_vs_launched(&sandbox, plan.warm_runs * 2)?,
        );
    }
    drop(session);
    Ok(())
}

fn cores() -> usize {
    std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(only: Option<&str>, target: Option<&str>) -> Plan {
        Plan {
            latency_runs: 1,
            warm_runs: 1,
            discovery_runs: 1,
            auto_runs: 1,
            load_duration: Duration::ZERO,
            only: only.map(str::to_owned),
            target: target.map(str::to_owned),
        }
    }

    #[test]
    fn bad_flags_are_refused_before_anything_is_built() {
        let sections = "sections: latency, load, languages, discovery, auto, server, peers, stdio";
        let refused = |plan| run(plan).expect_err("refused");
        assert_eq!(
            refused(plan(Some(""), None)),
            format!("`--only` needs a section; {sections}")
        );
        assert_eq!(
            refused(plan(Some("nope"), None)),
            format!("no section `nope`; {sections}")
        );
        assert_eq!(
            refused(plan(None, Some(""))),
            "`--target` needs a target triple"
        );
        assert_eq!(
            refused(plan(Some("load"), Some("x86_64-unknown-linux-musl"))),
            "`--target` adds rows to the latency section only"
        );
    }
}
