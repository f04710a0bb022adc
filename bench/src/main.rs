//! `mur-bench`: builds everything in release mode, starts a private
//! `mur-sample`, and prints tables of what mur costs per call, side by side
//! with two floors (one raw POST; the lockfile contract then the POST) and,
//! when `bench/peers.sh` installed them, its peers.
//!
//! Run from the workspace root: `cargo run --release -p mur-bench` (`-- --help`
//! for its options: `--quick`, `--only SECTION`, `--rounds N`, `--target TRIPLE`
//! to measure that build of `mur` and the floors beside the host's, and
//! `--fixed-order`).

mod languages;
mod latency;
mod link_order;
mod measure;
mod output;
mod peers;
mod runs;
mod scenarios;
mod setup;
mod stats;
mod stdio;
mod tool_list;

use std::{process::ExitCode, time::Duration};

use clap::{Parser, ValueEnum};
use latency::Order;
use mur_bench::wire;
use stats::Row;

/// What one run of the benchmark measures, as the command line says it.
#[derive(Debug, Parser)]
#[command(
    name = "mur-bench",
    about = "Measure what mur costs per call, beside two floors and its peers",
    long_about = "Measure what mur costs per call, beside two floors and its peers.\n\n\
        Builds everything in release mode, starts a private mur-sample, and prints one \
        Markdown table per section. Run it from the workspace root.",
    after_help = "Examples:\n  \
        mur-bench --quick\n  \
        mur-bench --only latency --rounds 300\n  \
        mur-bench --only latency --target x86_64-unknown-linux-musl"
)]
struct Args {
    /// Fewer runs of every section, for iterating
    #[arg(long)]
    quick: bool,
    /// Run this section only
    #[arg(long, value_enum, value_name = "SECTION")]
    only: Option<Section>,
    /// Also build mur and both floors for this target and measure them beside the host
    /// build's (latency section only)
    #[arg(long, value_name = "TRIPLE", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    target: Option<String>,
    /// Rounds of the latency and languages tables [default: 60, 10 with --quick]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    rounds: Option<u32>,
    /// Run the contenders of the interleaved tables (latency, languages, peers) in the same
    /// order every round (by default each round runs them in a fresh shuffled order)
    #[arg(long)]
    fixed_order: bool,
}

/// The sections, in the order a full run prints them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Section {
    Latency,
    Load,
    Languages,
    Discovery,
    Auto,
    Server,
    Peers,
    Stdio,
    ToolList,
}

struct Plan {
    latency_runs: usize,
    warm_runs: usize,
    discovery_runs: usize,
    auto_runs: usize,
    load_duration: Duration,
    /// The one section to run (`--only NAME`), or every section.
    only: Option<Section>,
    /// Another target to build `mur` and the floors for (`--target TRIPLE`), measured
    /// beside the host build in the latency section.
    target: Option<String>,
    order: Order,
}

impl From<Args> for Plan {
    fn from(args: Args) -> Self {
        let (latency_runs, warm_runs, discovery_runs, auto_runs, load_secs) = if args.quick {
            (10, 3, 3, 1, 1)
        } else {
            (60, 10, 10, 5, 3)
        };
        let order = if args.fixed_order {
            Order::Fixed
        } else {
            Order::Shuffled
        };
        Self {
            latency_runs: args.rounds.map_or(latency_runs, |n| n as usize),
            warm_runs,
            discovery_runs,
            auto_runs,
            load_duration: Duration::from_secs(load_secs),
            only: args.only,
            target: args.target,
            order,
        }
    }
}

impl Section {
    /// What stderr says while the section runs.
    fn progress(self) -> &'static str {
        match self {
            Section::Latency => "per-call latency",
            Section::Load => "verb load",
            Section::Languages => "verb languages",
            Section::Discovery => "discovery at scale",
            Section::Auto => "--auto scan",
            Section::Server => "server load",
            Section::Peers => "peers",
            Section::Stdio => "stdio servers through a bridge",
            Section::ToolList => "a large tool list",
        }
    }

    /// The heading of the section's table.
    fn title(self) -> &'static str {
        match self {
            Section::Latency => "Per-call latency (whole process, warm)",
            Section::Load => "Verb load (per standard verb)",
            Section::Languages => {
                "Verbs by language (warm named verb calling `version`, interleaved)"
            }
            Section::Discovery => "Discovery at scale",
            Section::Auto => "--auto port scan",
            Section::Server => "Server throughput (mur-sample)",
            Section::Peers => {
                "Peers (same session and call, interleaved with mur and the floors; bench/peers.sh)"
            }
            Section::Stdio => {
                "Stdio servers: warm call through `mur devtools bridge` vs a launch per call (interleaved)"
            }
            Section::ToolList => {
                "A large tool list (a loopback server of 10,000 tools in one `tools/list` page; each command reads it whole)"
            }
        }
    }
}

/// What every section measures against: the built sandbox, its running session and the
/// standard verbs installed in it.
struct World<'a> {
    sandbox: &'a setup::Bench,
    live: &'a mur_lockfile::Lockfile,
    verb_files: &'a [std::path::PathBuf],
}

impl World<'_> {
    /// The rows of one section's table.
    fn measure(&self, section: Section, plan: &Plan) -> setup::Result<Vec<Row>> {
        let (sandbox, endpoint) = (self.sandbox, self.live.endpoint.as_str());
        match section {
            Section::Latency => {
                latency::per_call_latency(sandbox, endpoint, plan.latency_runs, plan.order)
            }
            Section::Load => scenarios::verb_load(sandbox, self.verb_files, plan.warm_runs),
            Section::Languages => languages::verb_languages(sandbox, plan.latency_runs, plan.order),
            Section::Discovery => {
                scenarios::discovery_at_scale(sandbox, self.live, plan.discovery_runs)
            }
            Section::Auto => scenarios::auto_scan(sandbox, self.live, plan.auto_runs),
            Section::Server => [8, 64]
                .into_iter()
                .map(|connections| {
                    scenarios::server_load(endpoint, connections, plan.load_duration)
                })
                .collect(),
            Section::Peers => peers::peers(sandbox, endpoint, plan.warm_runs, plan.order),
            Section::Stdio => stdio::bridged_vs_launched(sandbox, plan.warm_runs * 2),
            Section::ToolList => tool_list::large_tool_list(sandbox, plan.warm_runs),
        }
    }
}

impl Plan {
    fn runs(&self, section: Section) -> bool {
        self.only.is_none_or(|only| only == section)
    }
}

fn main() -> ExitCode {
    match run(Plan::from(Args::parse())) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            output::note(&format!("mur-bench: {message}"));
            ExitCode::FAILURE
        }
    }
}

fn run(plan: Plan) -> setup::Result<()> {
    if plan.target.is_some() && !plan.runs(Section::Latency) {
        return Err("`--target` adds rows to the latency section only".into());
    }
    let sandbox = setup::Bench::build(plan.target.as_deref())?;
    let verb_files = sandbox.install_standard_verbs()?;
    let session = sandbox.start_sample();
    let live = session.lock.clone();
    let _ = wire::split_endpoint(&live.endpoint).map_err(|err| err.to_string())?;
    output::out(&format!(
        "# mur benchmarks\n\nmachine: {} cores; session {} (pid {})\n",
        cores(),
        live.endpoint,
        live.pid
    ));

    let world = World {
        sandbox: &sandbox,
        live: &live,
        verb_files: &verb_files,
    };
    for section in Section::value_variants() {
        if plan.runs(*section) {
            output::note(&format!("{}…", section.progress()));
            output::out(&stats::table(
                section.title(),
                &world.measure(*section, &plan)?,
            ));
        }
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

    fn parse(args: &[&str]) -> Result<Plan, clap::Error> {
        Args::try_parse_from(std::iter::once("mur-bench").chain(args.iter().copied()))
            .map(Plan::from)
    }

    fn refused(args: &[&str]) -> String {
        match parse(args) {
            Ok(_) => panic!("{args:?} was accepted"),
            Err(e) => e.render().to_string(),
        }
    }

    #[test]
    fn help_says_what_it_measures_and_how_to_choose() {
        let help = refused(&["--help"]);
        assert_eq!(
            help,
            "\
Measure what mur costs per call, beside two floors and its peers.

Builds everything in release mode, starts a private mur-sample, and prints one Markdown table per
section. Run it from the workspace root.

Usage: mur-bench [OPTIONS]

Options:
      --quick
          Fewer runs of every section, for iterating

      --only <SECTION>
          Run this section only
          \n          [possible values: latency, load, languages, discovery, auto, server, peers, stdio,
          tool-list]

      --target <TRIPLE>
          Also build mur and both floors for this target and measure them beside the host build's
          (latency section only)

      --rounds <N>
          Rounds of the latency and languages tables [default: 60, 10 with --quick]

      --fixed-order
          Run the contenders of the interleaved tables (latency, languages, peers) in the same order
          every round (by default each round runs them in a fresh shuffled order)

  -h, --help
          Print help (see a summary with '-h')

Examples:
  mur-bench --quick
  mur-bench --only latency --rounds 300
  mur-bench --only latency --target x86_64-unknown-linux-musl
"
        );
    }

    /// Each example of the help is a command line `mur-bench` takes, as it would run it (a
    /// run builds in release mode and takes minutes: the test stops at the plan).
    #[test]
    fn every_example_of_the_help_is_a_command_line_it_takes() {
        let help = refused(&["--help"]);
        let examples: Vec<&str> = help
            .split_once("Examples:\n")
            .map(|(_, rest)| {
                rest.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(examples.len(), 3, "{help}");
        for example in examples {
            let words: Vec<&str> = example.split_whitespace().collect();
            assert_eq!(words[0], "mur-bench");
            let plan = Args::try_parse_from(&words).map(Plan::from);
            assert!(plan.is_ok(), "`{example}`: {:?}", plan.err());
        }
    }

    #[test]
    fn bad_words_are_refused_before_anything_is_built() {
        // Each used to be ignored (or read as an empty value) and the whole
        // benchmark ran, building everything first.
        assert!(refused(&["--onyl", "latency"]).contains("unexpected argument '--onyl'"));
        assert!(
            refused(&["--only", "nope"]).contains("invalid value 'nope' for '--only <SECTION>'")
        );
        assert!(refused(&["--only"]).contains("a value is required for '--only <SECTION>'"));
        assert!(refused(&["--target", ""]).contains("a value is required for '--target <TRIPLE>'"));
        assert!(refused(&["--rounds", "0"]).contains("invalid value '0' for '--rounds <N>'"));
        let plan =
            parse(&["--only", "load", "--target", "x86_64-unknown-linux-musl"]).expect("accepted");
        assert_eq!(
            run(plan).expect_err("refused"),
            "`--target` adds rows to the latency section only"
        );
    }

    #[test]
    fn rounds_and_order_follow_the_flags() {
        let plan = parse(&[]).expect("accepted");
        assert_eq!((plan.latency_runs, plan.order), (60, Order::Shuffled));
        let plan = parse(&["--quick", "--fixed-order"]).expect("accepted");
        assert_eq!((plan.latency_runs, plan.order), (10, Order::Fixed));
        let plan = parse(&["--quick", "--rounds", "300", "--only", "latency"]).expect("accepted");
        assert_eq!(plan.latency_runs, 300);
        assert!(plan.runs(Section::Latency) && !plan.runs(Section::Load));
    }
}
