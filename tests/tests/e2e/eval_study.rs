//! `mur-eval study`: a small matrix — every shipped condition (cli-compact's verbs built
//! first) × 3 tasks × 2 repeats — with the scripted agents (eval/agents/scripted.sh)
//! completes, and under `both` it says which surface the agent reached for first; killed mid-study, it resumes where it stopped with the same `--out`, making
//! only the runs not recorded; it writes results.jsonl (one line per run, each with its
//! oracle's verdict, calls, context bytes and tokens), report.md, report.csv and the HTML
//! page, which a headless browser opens when one is installed. The reshaped verbs give
//! the agent fewer bytes than the standard ones. `mur-eval report` rebuilds the table
//! from results.jsonl alone. An agent's event stream (Claude Code's, the fixture) gives
//! its turns, tokens and cost. A condition that leaks the other surface is refused.
//! Commands with other conditions, tasks, repeats and agents into one `--out` are each
//! recorded in study.json, and the report warns that their conditions are not like for
//! like. An agent's failing calls (an unknown tool, a click that matches nothing) and the
//! invocations mur refused are counted in results.jsonl, report.md and report.csv. The
//! report names the verbs installed for each condition that no run invoked, and
//! report.csv the images a screenshot put before the agent.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use mur_e2e::plugins::{self, repo_root, standard_dir};
use mur_e2e::process::{Process, wait_until_within};
use mur_e2e::{Output, Sandbox, mkfifo, run_within};

use crate::eval::{
    assert_eval_snapshot, assert_no_default_out, assert_verbs_compiled_once, eval_bin, executable,
    left_under,
};
use crate::interop_python::python_or_skip;

/// Bound on one study: against hangs, not a performance expectation.
const STUDY_LIMIT: Duration = Duration::from_secs(15 * 60);
const TASKS: &str = "count-to-three,first-warning,add-todo";
const REPEATS: usize = 2;

/// The shipped conditions' names.
fn conditions() -> Vec<String> {
    crate::eval::shipped("conditions")
}

/// The scripted agents' command line (eval/agents/scripted.sh, by its absolute path).
fn scripted_agent() -> String {
    format!(
        "bash {} {{task}}",
        repo_root().join("eval/agents/scripted.sh").display()
    )
}

/// `mur-eval study` over the small matrix, into `out`, as a command to run or spawn.
/// The first agent to start (the one that makes `hung-once` in the sandbox) first
/// leaves a long-lived process and waits for it, as an agent the kill interrupts would.
fn study(sandbox: &Sandbox, python: &Path, out: &Path) -> Command {
    let agent = format!(
        "if mkdir {} 2>/dev/null; then sleep 600 & wait; fi; {}",
        sandbox.root().join("hung-once").display(),
        scripted_agent()
    );
    let html = out.join("report.html");
    let mut command = sandbox.command(eval_bin());
    command
        .args(["study", "--conditions", "all", "--tasks", TASKS])
        .args([
            "--repeats",
            &REPEATS.to_string(),
            "--jobs",
            "2",
            "--seed",
            "19",
            // The agent that waits must still be running when the study is killed.
            "--time-limit",
            "900",
        ])
        .args(["--agent", &agent, "--pass-env", "MUR_EVAL_PYTHON"])
        .arg("--verbs")
        .arg(standard_dir())
        .arg("--out")
        .arg(out)
        .arg("--html")
        .arg(&html)
        .env("MUR_EVAL_PYTHON", python)
        .env("TMPDIR", sandbox.dir("tmp"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn results(out: &Path) -> Vec<Value> {
    std::fs::read_to_string(out.join("results.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// The directory of the run `run` (a line of `results.jsonl`, a `record.json`) of the
/// study in `out`: its `transcript`, stored relative to the study's directory.
fn in_study(out: &Path, run: &Value) -> PathBuf {
    out.join(run["transcript"].as_str().expect("transcript"))
}

#[test]
fn a_small_study_resumes_after_a_kill_and_reports_every_condition() {
    let Some(python) = python_or_skip("interop-modern-venv", "2", "requirements-modern.txt") else {
        return;
    };
    plugins::compact_dir();
    let (sandbox, out) = sandbox_and_study();
    let expected = conditions().len() * 3 * REPEATS;

    // Killed once a few runs are recorded.
    let mut first = Process::spawn(&mut study(&sandbox, &python, &out));
    // (Each run starts a session and an agent: on a loaded machine three take
    // longer than the kit's usual patience. A study that stops early fails here.)
    let recorded_before = wait_until_within("a few runs recorded", STUDY_LIMIT, || {
        if let Some(status) = first.try_wait() {
            panic!("the study ended ({status}) before it was killed");
        }
        let n = results(&out).len();
        (n >= 3).then_some(n)
    });
    first.kill();
    let kept = results(&out);
    assert!(
        kept.len() >= recorded_before && kept.len() < expected,
        "{} of {expected}",
        kept.len()
    );

    // The kill left the runs it cut short running, where they were being made.
    assert!(
        !left_under(&sandbox.dir("tmp")).is_empty(),
        "nothing was left"
    );
    // Run again with the same --out: only what is missing runs.
    let (output, _) = run_within(&mut study(&sandbox, &python, &out), STUDY_LIMIT);
    check_study(&output, &out, &kept, expected);
    // The sessions and the agent (its `sleep 600`) the kill left running were stopped
    // by the resumed study, and the directory they were made in removed.
    let left = left_under(sandbox.root());
    for (pid, _) in &left {
        mur_e2e::process::signal(*pid, "KILL");
    }
    assert!(left.is_empty(), "still running: {left:?}");
    assert_nothing_in_tmp(&sandbox);
}

#[track_caller]
fn check_study(output: &Output, out: &Path, kept: &[Value], expected: usize) {
    output.assert_code(0);
    let all = results(out);
    assert_eq!(all.len(), expected, "one line per run\n{output}");
    assert_eq!(
        &all[..kept.len()],
        kept,
        "recorded runs were kept as they were"
    );
    let ids: BTreeSet<&str> = all.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids.len(), expected, "no run made twice");
    assert!(
        output.stderr.contains(&format!("{} recorded", kept.len())),
        "the resumed study says what it skipped\n{output}"
    );
    for run in &all {
        let id = &run["id"];
        assert_eq!(run["success"], true, "{id}: {run}");
        assert!(run["calls"]["total"].as_u64() > Some(0), "{id}: {run}");
        assert_eq!(run["calls"]["otherSurface"], 0, "{id}: {run}");
        assert_eq!(run["calls"]["offCondition"], 0, "{id}: {run}");
        let context = &run["context"];
        assert!(
            context["results"]["tokens"].as_u64() > Some(0),
            "{id}: {run}"
        );
        assert!(
            context["results"]["bytes"].as_u64() > context["results"]["tokens"].as_u64(),
            "{id}"
        );
        // The verbs installed for the run, name → sha256, where the condition installs
        // them (not the derived verbs or `call`).
        if ["cli-named", "cli-compact", "both"].contains(&run["condition"].as_str().unwrap_or("")) {
            let click = run["verbs"]["click"].as_str().unwrap_or_default();
            assert!(
                click.len() == 64 && click.bytes().all(|b| b.is_ascii_hexdigit()),
                "{id}: {run}"
            );
        }
        let transcript = in_study(out, run);
        for kept in ["agent.stdout", "calls.jsonl", "record.json"] {
            assert!(transcript.join(kept).is_file(), "{id}: no {kept}");
        }
    }
    // An MCP client loads every tool's schema before its first call; the CLI agent
    // starts from its instructions.
    let before = |condition: &str| {
        all.iter()
            .find(|r| r["condition"] == condition)
            .and_then(|r| r["context"]["before"]["bytes"].as_u64())
            .unwrap_or_default()
    };
    assert!(
        before("mcp") > 10 * before("cli-named"),
        "{} vs {}",
        before("mcp"),
        before("cli-named")
    );
    // The reshaped verbs put fewer bytes before the agent for the same tasks.
    let results = |condition: &str| -> u64 {
        all.iter()
            .filter(|r| r["condition"] == condition)
            .filter_map(|r| r["context"]["results"]["bytes"].as_u64())
            .sum()
    };
    assert!(
        results("cli-compact") < results("cli-named"),
        "{} vs {}",
        results("cli-compact"),
        results("cli-named")
    );
    // Their hints (notes on stderr) reached the agent and are counted with the results.
    for run in all.iter().filter(|r| r["condition"] == "cli-compact") {
        let transcript = in_study(out, run);
        let captured =
            std::fs::read_to_string(transcript.join("captured.jsonl")).expect("captured.jsonl");
        let calls: Vec<Value> = captured
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        let hinted = calls
            .iter()
            .filter(|c| {
                c["stderr"]
                    .as_str()
                    .is_some_and(|e| e.contains("next: mur devtools"))
            })
            .count();
        assert!(hinted > 0, "{}: no hint on stderr: {captured}", run["id"]);
        let received: u64 = calls
            .iter()
            .map(|c| {
                (c["stdout"].as_str().unwrap_or("").len()
                    + c["stderr"].as_str().unwrap_or("").len()) as u64
            })
            .sum();
        assert_eq!(
            run["context"]["results"]["bytes"].as_u64(),
            Some(received),
            "{}: the results' bytes are stdout and stderr, notes included",
            run["id"]
        );
    }

    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    for condition in conditions() {
        let row = format!(
            "| {condition} | {} | {}/{} (100%) |",
            3 * REPEATS,
            3 * REPEATS,
            3 * REPEATS
        );
        assert!(report.contains(&row), "{row}\n{report}");
    }
    assert!(
        report.contains("o200k_base"),
        "tokens are labelled estimates\n{report}"
    );
    // The scripted agent's `click --element …` (count-to-three), refused before any call
    // under the named-verb conditions, is counted per condition by its argv.
    for condition in ["cli-named", "cli-compact"] {
        let refused = format!("`{condition}` {REPEATS} (`click --element WORD` ×{REPEATS})");
        assert!(report.contains(&refused), "{refused}\n{report}");
    }
    // Under `both` the scripted agent takes the CLI on odd repeats and MCP on even ones:
    // each run's first call says which it reached for, and the report sums them.
    for run in all.iter().filter(|r| r["condition"] == "both") {
        let first = if run["repeat"] == 1 { "cli" } else { "mcp" };
        assert_eq!(run["calls"]["firstSurface"], first, "{}", run["id"]);
        let (cli, mcp) = (&run["calls"]["cli"], &run["calls"]["mcp"]);
        assert!(run["calls"][first].as_u64() > Some(0), "{cli} {mcp}");
    }
    let (cli_calls, mcp_calls): (u64, u64) =
        all.iter()
            .filter(|r| r["condition"] == "both")
            .fold((0, 0), |(c, m), r| {
                let n = |s: &str| r["calls"][s].as_u64().unwrap_or_default();
                (c + n("cli"), m + n("mcp"))
            });
    let runs = 3 * REPEATS;
    let preference = format!(
        "both first reached for the CLI in {} of {runs} runs, for MCP in {}",
        runs / 2,
        runs / 2
    );
    assert!(report.contains(&preference), "{preference}\n{report}");
    // The instructions named the two surfaces in either order, half the runs each, the
    // repeats of a task alternating; the report weighs the first reach against it.
    let both: Vec<&Value> = all.iter().filter(|r| r["condition"] == "both").collect();
    let listed = |surface: &str| both.iter().filter(|r| r["listedFirst"] == surface).count();
    assert_eq!(
        (listed("cli"), listed("mcp")),
        (runs / 2, runs / 2),
        "{both:?}"
    );
    for task in TASKS.split(',') {
        let orders: BTreeSet<&str> = both
            .iter()
            .filter(|r| r["task"] == task)
            .filter_map(|r| r["listedFirst"].as_str())
            .collect();
        assert_eq!(orders.len(), 2, "{task}: {both:?}");
    }
    let as_listed = both
        .iter()
        .filter(|r| r["listedFirst"] == r["calls"]["firstSurface"])
        .count();
    let order = format!(
        "; the surface its instructions named first was reached first in {as_listed} of {runs}; "
    );
    assert!(report.contains(&order), "{order}\n{report}");
    assert!(
        report.contains(&format!("({cli_calls} CLI, {mcp_calls} MCP)")),
        "{report}"
    );
    // Per task category (count-to-three: interact; first-warning: inspect, interact;
    // add-todo: navigate, interact, wait), every condition completed every run.
    assert!(
        report.contains("| condition | inspect | interact | navigate | wait |\n"),
        "{report}"
    );
    for condition in conditions() {
        let row = format!("| {condition} | 2/2 | 6/6 | 2/2 | 2/2 |\n");
        assert!(report.contains(&row), "{row}\n{report}");
    }
    assert!(!report.contains("never completed"), "{report}");
    // The verbs each condition installed and called: the scripted CLI agent's
    // count-to-three invokes `click` four times (one refused), and none of the three
    // tasks' scripts invokes `collapse` or `tree`, which the report names as called by no
    // run of each condition that installs verbs, with the command that prunes them.
    for run in all.iter().filter(|r| r["verbs"].is_object()) {
        let called = &run["verbsCalled"];
        assert!(called.is_object(), "{}: {run}", run["id"]);
        let cli_agent = run["condition"] != "both" || run["repeat"] == 1;
        if run["task"] == "count-to-three" {
            let clicks = if cli_agent { 4 } else { 0 };
            assert_eq!(called["click"].as_u64().unwrap_or(0), clicks, "{run}");
        }
        assert_eq!(called["collapse"], Value::Null, "{run}");
    }
    assert!(
        report.contains("\n## Verbs called, by condition\n"),
        "{report}"
    );
    assert!(report.contains("\n| collapse | – | – | – |\n"), "{report}");
    let unused = report
        .lines()
        .find_map(|l| l.strip_prefix("Installed and called by no run: "))
        .unwrap_or_else(|| panic!("no line of the verbs no run called\n{report}"));
    let clauses: Vec<&str> = unused.trim_end_matches('.').split("; ").collect();
    assert_eq!(clauses.len(), 3, "{unused}");
    for condition in ["cli-named", "cli-compact", "both"] {
        let clause = clauses
            .iter()
            .find(|c| c.starts_with(&format!("`{condition}` ")))
            .unwrap_or_else(|| panic!("{condition}: {unused}"));
        assert!(
            clause.contains("`collapse`") && clause.contains("`tree`"),
            "{clause}"
        );
        assert!(
            !clause.contains("`click`") && !clause.contains("`wait`"),
            "{clause}"
        );
    }
    // The verbs the condition's runs had, alone: a verb installed since is not judged.
    let command = report
        .split("`mur devtools verbs prune --only-named --only-verbs ")
        .nth(1)
        .unwrap_or_else(|| panic!("no prune command\n{report}"));
    let (had, rest) = command.split_once(' ').unwrap_or_default();
    assert!(
        rest.starts_with("--until last --unused-for 1h --server-log runs/"),
        "{command}"
    );
    let mut had: Vec<&str> = had.split(',').collect();
    had.sort_unstable();
    let first = all
        .iter()
        .find(|run| run["verbs"].is_object())
        .expect("a run with verbs");
    let mut installed: Vec<&str> = (first["verbs"].as_object().expect("verbs").keys())
        .map(String::as_str)
        .collect();
    installed.sort_unstable();
    assert_eq!(had, installed, "{command}");
    assert_eq!(output.stdout, report, "the report is printed too");
    // What each agent did, for people to read: a trace per run, and one run of every
    // condition per task side by side — a shell transcript, a trace of tool calls.
    for run in &all {
        let transcript = in_study(out, run);
        let trace = std::fs::read_to_string(transcript.join("trace.md")).expect("trace.md");
        assert!(
            trace.starts_with(&format!(
                "# {} — pass, ",
                run["id"].as_str().unwrap_or_default()
            )),
            "{trace}"
        );
        // Where the order of the surfaces varied, the heading says which came first.
        let first_line = trace.lines().next().unwrap_or_default();
        let calls = match run["calls"]["total"].as_u64() {
            Some(1) => "1 call".to_owned(),
            n => format!("{} calls", n.unwrap_or_default()),
        };
        let named_first = match run["listedFirst"].as_str() {
            Some("cli") => format!("{calls}, the shell named first"),
            Some(_) => format!("{calls}, MCP named first"),
            None => calls,
        };
        assert!(first_line.ends_with(&named_first), "{first_line}");
    }
    let transcripts = std::fs::read_to_string(out.join("transcripts.md")).expect("transcripts.md");
    let section = |condition: &str| -> String {
        let heading = format!("### {condition}/count-to-three/1 — pass");
        let start = transcripts
            .find(&heading)
            .unwrap_or_else(|| panic!("{heading}\n{transcripts}"));
        let rest = &transcripts[start..];
        let end = rest[1..].find("\n### ").map_or(rest.len(), |n| n + 1);
        rest[..end].to_owned()
    };
    let shell = section("cli-named");
    assert!(
        shell.contains(
            "$ mur devtools click --element '#btn-inc'\nerror: click: unknown option `--element`"
        ) && shell.contains("[exit 1]\n$ mur devtools click '#btn-inc'\n"),
        "{shell}"
    );
    let tools = section("mcp");
    assert!(
        tools.contains("→ click {\"selector\":\"#btn-inc\"}\n← "),
        "{tools}"
    );
    // Under `both`, repeat 1 took the shell.
    assert!(section("both").contains("$ mur devtools click '#btn-inc'"));
    let csv = std::fs::read_to_string(out.join("report.csv")).expect("report.csv");
    assert_eq!(csv.lines().count(), 1 + conditions().len() * 4, "{csv}");
    let html = out.join("report.html");
    let page = std::fs::read_to_string(&html).expect("the page");
    assert!(
        page.contains("Success % per condition") && page.contains("<svg"),
        "{page}"
    );
    assert!(
        page.contains("<h2>Verbs called, by condition</h2>"),
        "{page}"
    );
    for fetch in ["<script", "src=", "href=", "url("] {
        assert!(
            !page.contains(fetch),
            "nothing fetched: `{fetch}` in the page"
        );
    }
    opened_in_a_browser(out, &html);

    // `report` rebuilds the same table from results.jsonl alone, and the study's files
    // with it (as for a study stopped before its end, which never wrote them).
    let written: Vec<(PathBuf, String)> = ["report.md", "report.csv", "transcripts.md"]
        .iter()
        .map(|name| {
            let path = out.join(name);
            let text = std::fs::read_to_string(&path).expect("the study wrote it");
            std::fs::remove_file(&path).expect("remove");
            (path, text)
        })
        .collect();
    let sandbox = Sandbox::new();
    let rebuilt = report_of(&sandbox, out, &[]);
    rebuilt.assert_code(0).assert_stdout_is(&report);
    for (path, text) in &written {
        let again = std::fs::read_to_string(path).unwrap_or_default();
        assert_eq!(&again, text, "`report` writes {} anew", path.display());
    }

    // `--readme` puts the per-condition table between the README's marker lines, and
    // only there: the baseline is never typed by hand.
    let before =
        "# App\n\n<!-- study-baseline -->\nold table\n<!-- /study-baseline -->\n\nThe end.\n";
    let readme = sandbox.file("README.md", before);
    report_of(&sandbox, out, &["--readme".as_ref(), readme.as_os_str()]).assert_code(0);
    let written = std::fs::read_to_string(&readme).expect("read");
    assert!(
        written.starts_with("# App\n\n<!-- study-baseline -->\n| condition |"),
        "{written}"
    );
    assert!(
        written.ends_with("<!-- /study-baseline -->\n\nThe end.\n"),
        "{written}"
    );
    assert!(!written.contains("old table"), "{written}");
    // The study's own command and what it ran on, not only the report's.
    assert!(written.contains("Made by `mur-eval study "), "{written}");
    let table_row = report
        .lines()
        .find(|l| l.starts_with("| cli-named |"))
        .expect("a row");
    assert!(written.contains(table_row), "{written}");
}

/// The page as a headless browser renders it, when one is installed (`.ci/run`
/// installs Debian's `chromium-headless-shell`); else the checks on the file stand.
fn opened_in_a_browser(dir: &Path, html: &Path) {
    let Some(browser) = headless_browser() else {
        eprintln!("no headless browser installed: the page was checked as a file only");
        return;
    };
    let dom = dumped_dom(&Sandbox::new(), &browser, dir, html, &[]);
    assert!(
        dom.stdout.matches("<svg").count() >= 4,
        "the browser's DOM has the charts"
    );
    assert!(dom.stdout.contains("cli-named") && dom.stdout.contains("Context tokens per run"));
}

#[test]
fn a_condition_that_leaks_the_other_surface_is_refused_before_any_run() {
    let sandbox = Sandbox::new();
    sandbox.file("conditions/mcp.md", "Use `mur devtools guide`.\n");
    let leaky = sandbox.file(
        "conditions/leaky.toml",
        "description = \"x\"\nsurface = \"mcp\"\ninstructions = \"mcp.md\"\n",
    );
    let dir = leaky.parent().expect("conditions");
    let mut command = sandbox.command(eval_bin());
    command
        .args([
            "study",
            "--agent",
            "true",
            "--repeats",
            "1",
            "--condition-dir",
        ])
        .arg(dir)
        .arg("--out")
        .arg(sandbox.root().join("out"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let output = run_within(&mut command, STUDY_LIMIT).0;
    output.assert_code(1).assert_stderr_is(
        "error: condition `leaky` leaks the other surface: its mcp instructions mention mur devtools\n",
    );
    assert!(!sandbox.root().join("out").exists(), "nothing ran");
}

#[test]
fn an_agents_event_stream_gives_its_turns_tokens_and_cost() {
    // An "agent" that only prints Claude Code's recorded stream: it calls nothing, so
    // the task fails, and its own figures and tool results are what the study reads.
    let fixture = repo_root().join("eval/fixtures/claude-stream.jsonl");
    let agent = format!("cat {}", fixture.display());
    let (_sandbox, out, output) = derived_study(
        "count-to-three",
        "1",
        &["--agent-format", "stream-json", "--agent", &agent],
    );
    output.assert_code(0);
    let only = &results(&out)[0];
    assert_eq!(only["success"], false, "{only}");
    assert_eq!(only["calls"]["total"], 0, "{only}");
    let agent = &only["agent"];
    assert_eq!(agent["format"], "stream-json");
    assert_eq!(agent["turns"], 4);
    assert_eq!(agent["inputTokens"], 12 + 2_300 + 49_100);
    assert_eq!(agent["cachedTokens"], 49_100);
    assert_eq!(agent["outputTokens"], 160);
    assert_eq!(agent["costUsd"], 0.0421);
    // The stream's tool results count, as the model received them: the guide it read
    // before its first call, then the clicks' and the state's output.
    assert_eq!(only["context"]["resultCount"], 2, "{only}");
    assert_eq!(only["context"]["capturedOutput"], Value::Null, "{only}");
    let row = "| cli-derived | 1 | 0/1 (0%) | 0%–79% | 0 | 0 | 0 | 4 | 51412 |";
    output.assert_stdout_contains(row);
}

/// A new sandbox and the study directory in it (not made yet).
fn sandbox_and_study() -> (Sandbox, PathBuf) {
    let sandbox = Sandbox::new();
    let out = sandbox.root().join("study");
    (sandbox, out)
}

/// The arguments of a study of `conditions` × `tasks` × `repeats`, then `extra`.
fn matrix<'a>(
    conditions: &'a str,
    tasks: &'a str,
    repeats: &'a str,
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec![
        "--conditions",
        conditions,
        "--tasks",
        tasks,
        "--repeats",
        repeats,
    ];
    args.extend_from_slice(extra);
    args
}

/// The arguments of a study of `cli-derived` × `task` × `repeats`, then `extra`.
fn cli_derived<'a>(task: &'a str, repeats: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    matrix("cli-derived", task, repeats, extra)
}

/// A study of `cli-derived` × `task` × `repeats` (then `extra`) in a new sandbox, run
/// to its end: the sandbox, the study's directory and what the study printed.
fn derived_study(task: &str, repeats: &str, extra: &[&str]) -> (Sandbox, PathBuf, Output) {
    let (sandbox, out) = sandbox_and_study();
    let output = study_into(&sandbox, &out, &cli_derived(task, repeats, extra));
    (sandbox, out, output)
}

/// The JSON file at `path` (a study's `study.json`, a run's `record.json`).
fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()))
}

/// `mur-eval study ARGS… --out OUT` in `sandbox`, its output piped; its runs made in
/// the sandbox's `tmp` (`TMPDIR`), where [`left_under`] the sandbox finds what they left.
fn study_command(sandbox: &Sandbox, out: &Path, args: &[&str]) -> Command {
    let mut command = sandbox.command(eval_bin());
    command
        .arg("study")
        .args(args)
        .arg("--out")
        .arg(out)
        .env("TMPDIR", sandbox.dir("tmp"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// `mur-eval report OUT EXTRA…`, run to its end.
fn report_of(sandbox: &Sandbox, out: &Path, extra: &[&std::ffi::OsStr]) -> Output {
    run_within(&mut report_command(sandbox, out, extra), STUDY_LIMIT).0
}

/// `mur-eval report OUT EXTRA…` in `sandbox`, its output piped.
fn report_command(sandbox: &Sandbox, out: &Path, extra: &[&std::ffi::OsStr]) -> Command {
    let mut command = sandbox.command(eval_bin());
    command
        .arg("report")
        .arg(out)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// [`study_command`], to the end.
fn study_into(sandbox: &Sandbox, out: &Path, args: &[&str]) -> Output {
    run_within(&mut study_command(sandbox, out, args), STUDY_LIMIT).0
}

#[test]
fn commands_with_other_matrices_into_one_study_are_all_recorded_and_said_unequal() {
    // Agents that call nothing: what is checked is what the study records and says.
    let (sandbox, out) = sandbox_and_study();
    let first = cli_derived(
        "count-to-three",
        "2",
        &["--seed", "7", "--agent", "true derived"],
    );
    study_into(&sandbox, &out, &first).assert_code(0);
    let second = matrix(
        "mcp",
        "count-to-three,updates-off",
        "1",
        &["--agent", "true mcp"],
    );
    let output = study_into(&sandbox, &out, &second);
    output.assert_code(0);
    // Said at the start, not only in report.md once the runs are made.
    output.assert_stderr_contains(
        "warning: runs recorded in the study were made by the agent `true derived`, and this \
         command's by `true mcp`: the conditions' rows will compare the agents as much as the \
         surfaces\nstudy: 1 condition × 2 tasks × 1 repeat, seed 7; 2 to run, 2 recorded\n",
    );
    // The first command again: a resume, nothing new to record, nothing to warn of.
    let again = study_into(&sandbox, &out, &first);
    again.assert_code(0);
    assert!(!again.stderr.contains("warning:"), "{}", again.stderr);

    let mut recorded = read_json(&out.join("study.json"));
    // Each command with how it ran (the resumed first one is the same: not again).
    let mut ran = Vec::new();
    for matrix in recorded["matrices"].as_array_mut().expect("matrices") {
        let provenance = matrix
            .as_object_mut()
            .and_then(|m| m.remove("provenance"))
            .expect("how the command ran");
        let words = provenance["command"].as_array().expect("its words");
        ran.push(serde_json::to_string(&words[1..]).expect("json"));
    }
    assert_eq!(ran.len(), 2, "{recorded}");
    assert!(
        ran[1].starts_with(r#"["study","--conditions","mcp","#),
        "{ran:?}"
    );
    assert_eq!(
        recorded,
        serde_json::json!({
            "schema": "mur-eval-study/2",
            "seed": 7,
            "conditions": ["cli-derived", "mcp"],
            "tasks": ["count-to-three", "updates-off"],
            "tokenizer": "o200k_base",
            "matrices": [
                { "conditions": ["cli-derived"], "tasks": ["count-to-three"], "repeats": 2,
                  "agent": "true derived" },
                { "conditions": ["mcp"], "tasks": ["count-to-three", "updates-off"],
                  "repeats": 1, "agent": "true mcp" },
            ],
        })
    );
    assert_eq!(results(&out).len(), 4, "2 + 2 runs");
    let warning = "\nWarning: the conditions ran different tasks or numbers of repeats, so their \
                   rows are not like for like — `cli-derived` 1 task × 2 repeats, without \
                   `updates-off`; `mcp` 2 tasks × 1 repeat. Compare them task by task, on the \
                   tasks they share.\n";
    output.assert_stdout_contains(warning);
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(report.contains(warning), "{report}");
    assert!(
        report.contains(
            "\nMade by `mur-eval study --conditions cli-derived --tasks count-to-three \
             --repeats 2 --seed 7 --agent 'true derived' --out "
        ) && report.contains("; then `mur-eval study --conditions mcp "),
        "{report}"
    );
    let agents = "\nWarning: the conditions were run by different agents, so their rows compare \
                  the agents as much as the surfaces — `cli-derived` by `true derived`; `mcp` \
                  by `true mcp`.\n";
    assert!(report.contains(agents), "{report}");
    // Each run records the agent command that made it.
    for run in results(&out) {
        let agent = format!("true {}", run["surface"].as_str().unwrap_or_default());
        let agent = agent.replace("true cli", "true derived");
        assert_eq!(run["agentCommand"], agent.as_str(), "{run}");
    }
    // A third command adds a repeat to `cli-derived` with another agent: its row now
    // mixes two, and says so; the agent named by no run in the table is not named.
    let third = cli_derived("count-to-three", "3", &["--agent", "true third"]);
    let output = study_into(&sandbox, &out, &third);
    output.assert_code(0);
    output.assert_stderr_contains(
        "warning: runs recorded in the study were made by the agents `true derived` and \
         `true mcp`, and this command's by `true third`: a condition's row will mix the \
         agents' runs\n",
    );
    let mixed = "\nWarning: a condition's runs were made by different agents, so its row mixes \
                 them — `cli-derived` by `true derived` and `true third`; `mcp` by `true mcp`.\n";
    output.assert_stdout_contains(mixed);
}

#[test]
fn binary_output_the_agent_sent_to_a_file_is_no_context() {
    // A screenshot's PNG, written to a file: the agent read none of it.
    let (sandbox, out) = sandbox_and_study();
    // Only the verb the agent calls: the run compiles every verb `--verbs` holds, and
    // the 19 standard ones were most of this test's time.
    let verbs = sandbox.dir("verbs");
    std::fs::copy(
        plugins::standard("screenshot"),
        verbs.join("screenshot.wasm"),
    )
    .expect("copy");
    let verbs = verbs.to_str().expect("utf-8").to_owned();
    let args = matrix(
        "cli-named",
        "count-to-three",
        "1",
        &[
            "--verbs",
            &verbs,
            "--agent",
            "sh -c 'mur devtools screenshot --out - > shot.png'",
        ],
    );
    study_into(&sandbox, &out, &args).assert_code(0);
    let only = &results(&out)[0];
    assert_eq!(only["context"]["resultCount"], 1, "{only}");
    assert_eq!(only["context"]["results"]["tokens"], 0, "{only}");
    assert_eq!(only["context"]["capturedOutput"], true, "{only}");
    let transcript = in_study(&out, only);
    let captured = read_json_line(&transcript.join("captured.jsonl"));
    let png = std::fs::metadata(transcript.join("work/shot.png"))
        .expect("the PNG")
        .len();
    assert_eq!(captured["stdoutBinary"], png, "{captured}");
    assert_eq!(captured["stdout"], "", "{captured}");
    // mur's own record names the agent by its command's program, not the capture
    // wrapper that is mur's parent (`mur-eval-captur`, cut by the kernel).
    let recorded = read_json_line(&transcript.join("state/mur/usage/usage.jsonl"));
    assert_eq!(recorded["agent"], "sh", "{recorded}");
}

/// A study's verbs are installed and compiled once, in `<out>/compiled-verbs`, for every
/// condition and later command installing the same ones, and each run gets a copy of its
/// own: the first run's agent removes `click` once it has clicked, and every later run
/// of its condition still clicks, its `mur -v` mapping the code compiled before any run.
#[test]
fn a_studys_verbs_are_compiled_once_and_each_run_gets_its_own_copy() {
    let (sandbox, out) = sandbox_and_study();
    let verbs = sandbox.dir("verbs");
    std::fs::copy(plugins::standard("click"), verbs.join("click.wasm")).expect("copy");
    let verbs = verbs.to_str().expect("utf-8").to_owned();
    let agent = format!(
        "for _ in 1 2 3; do mur -v devtools click '#btn-inc' > /dev/null; done; \
         if mkdir {} 2>/dev/null; then mur devtools verbs remove click; fi",
        sandbox.root().join("first").display()
    );
    let extra = ["--jobs", "1", "--verbs", &verbs, "--agent", &agent];
    // The one matrix, into `out`, with `repeats` repeats.
    let study_of = |out: &Path, repeats: &str| {
        let args = matrix("cli-named,both", "count-to-three", repeats, &extra);
        study_into(&sandbox, out, &args)
    };
    let first = study_of(&out, "2");
    first.assert_code(0);
    assert_verbs_compiled_once(&first, "study: ", &verbs, &out);
    assert!(
        sandbox.root().join("first").is_dir(),
        "no agent removed click"
    );
    let each_clicked_with_code_compiled_before = |out: &Path, expected: usize| {
        let runs = results(out);
        assert_eq!(runs.len(), expected);
        for run in &runs {
            assert_eq!(run["success"], true, "{run}");
            let dir = in_study(out, run);
            let said = std::fs::read_to_string(dir.join("agent.stderr")).expect("agent.stderr");
            assert!(
                said.matches("loaded verb `click` from cache").count() >= 3,
                "{said}"
            );
            assert!(!said.contains("compiling verb"), "{said}");
            // The run's copy is gone with it: compiled code is no part of what it did.
            assert!(!dir.join("data").exists() && !dir.join("cache").exists());
        }
    };
    each_clicked_with_code_compiled_before(&out, 4);
    // A later command into the study (a third repeat) compiles nothing.
    let more = study_of(&out, "3");
    more.assert_code(0);
    assert!(more.stderr_lines("study: installing").is_empty(), "{more}");
    each_clicked_with_code_compiled_before(&out, 6);
    // A copy of the study (`cp -r`: every file a new time, which mur's index no longer
    // matches) installs its verbs anew, once, rather than have each run compile them.
    let copy = sandbox.root().join("copy");
    let copied = Command::new("cp").arg("-r").arg(&out).arg(&copy).status();
    assert!(copied.expect("cp").success());
    let extended = study_of(&copy, "4");
    extended.assert_code(0);
    assert_verbs_compiled_once(&extended, "study: ", &verbs, &copy);
    each_clicked_with_code_compiled_before(&copy, 8);
    // The same study by another name (through a link; so `--out ./x` after `/abs/x`)
    // is the one its verbs were compiled for: nothing is compiled again.
    let link = sandbox.root().join("link");
    std::os::unix::fs::symlink(&copy, &link).expect("symlink");
    let linked = study_of(&link, "5");
    linked.assert_code(0);
    assert!(
        linked.stderr_lines("study: installing").is_empty(),
        "{linked}"
    );
    each_clicked_with_code_compiled_before(&copy, 10);
}

/// The first line of the JSON Lines file at `path`.
fn read_json_line(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(text.lines().next().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()))
}

/// A study of the scripted MCP agent on `task`, once, to its end: the sandbox, the
/// study's directory, what it printed and its one run's result, asserted to exit 0 and
/// succeed (`None` without the Python SDK: skipped).
fn scripted_mcp_study(task: &str) -> Option<(Sandbox, PathBuf, Output, Value)> {
    let python = python_or_skip("interop-modern-venv", "2", "requirements-modern.txt")?;
    let (sandbox, out) = sandbox_and_study();
    let agent = scripted_agent();
    let args = matrix(
        "mcp",
        task,
        "1",
        &["--agent", &agent, "--pass-env", "MUR_EVAL_PYTHON"],
    );
    let mut command = study_command(&sandbox, &out, &args);
    command.env("MUR_EVAL_PYTHON", &python);
    let output = run_within(&mut command, STUDY_LIMIT).0;
    output.assert_code(0);
    let only = results(&out).swap_remove(0);
    assert_eq!(only["success"], true, "{only}");
    Some((sandbox, out, output, only))
}

#[test]
fn the_scripted_mcp_agent_logs_what_a_host_gives_the_model_once() {
    let Some((_sandbox, out, _, only)) = scripted_mcp_study("count-to-three") else {
        return;
    };
    let only = &only;
    let transcript = in_study(&out, only);
    let logged = std::fs::read_to_string(transcript.join("transcript.jsonl")).expect("logged");
    assert!(logged.lines().count() >= 3, "{logged}");
    // Each click's result as a host gives it to the model: the text block's JSON, not
    // the whole CallToolResult with structuredContent repeating it.
    for line in logged.lines() {
        let line: Value = serde_json::from_str(line).expect("a transcript line");
        let text = line["text"].as_str().unwrap_or_default();
        let result: Value = serde_json::from_str(text).expect("a tool's JSON result");
        assert!(
            result.get("structuredContent").is_none() && result.get("content").is_none(),
            "{text}"
        );
    }
}

/// A screenshot reaches the model as an image: counted by its pixel size, not as the
/// ~30 000 tokens of its base64 text, which made every screenshot task look tens of
/// times dearer through MCP.
#[test]
fn a_screenshot_the_mcp_agent_receives_counts_as_an_image_not_as_its_base64() {
    let Some((_sandbox, out, output, only)) = scripted_mcp_study("settings-screenshot") else {
        return;
    };
    let only = &only;
    let context = &only["context"];
    assert_eq!(context["images"], 1, "{only}");
    assert_eq!(context["imagesUnsized"], Value::Null, "{only}");
    // At most Anthropic's ~1600 tokens for the image, and a few for the text results.
    let tokens = context["results"]["tokens"].as_u64().expect("tokens");
    assert!(tokens < 2_000, "{only}");
    let transcript = in_study(&out, only);
    let logged = std::fs::read_to_string(transcript.join("transcript.jsonl")).expect("logged");
    let shot = logged
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("a transcript line"))
        .find(|line| line["what"] == "screenshot")
        .expect("the screenshot's line");
    assert_eq!(shot["images"][0]["mimeType"], "image/png", "{shot}");
    assert!(
        !shot["text"].as_str().unwrap_or_default().contains("iVBOR"),
        "{shot}"
    );
    output.assert_stdout_contains(
        "Images in tool results counted as images, not as their base64 text: tokens ≈ width × height / 750",
    );
    output.assert_stdout_contains("in `mcp` 1 image.");
    // What the image put before the agent: its own bytes (what the base64 it received
    // decodes to) and its estimated tokens, recorded apart and in report.csv's columns
    // beside the count report.md says.
    let size = &context["imagesSize"];
    let data = shot["images"][0]["data"].as_str().unwrap_or_default();
    let decoded = data.len() / 4 * 3 - data.bytes().rev().take_while(|b| *b == b'=').count();
    assert_eq!(size["bytes"].as_u64(), Some(decoded as u64), "{only}");
    let image_tokens = size["tokens"].as_u64().unwrap_or_default();
    assert!((1..=1600).contains(&image_tokens), "{only}");
    let csv = std::fs::read_to_string(out.join("report.csv")).expect("report.csv");
    let header = csv.lines().next().unwrap_or_default();
    assert!(
        header.ends_with(",no_events_runs,images,images_unsized,image_tokens,image_bytes"),
        "{csv}"
    );
    let images = format!(",1,0,{image_tokens},{decoded}");
    for row in ["mcp,,", "mcp,settings-screenshot,"] {
        let line = csv.lines().find(|l| l.starts_with(row)).unwrap_or_default();
        assert!(line.ends_with(&images), "{images}\n{csv}");
    }
}

#[test]
fn a_study_of_one_run_says_so_in_the_singular() {
    let (sandbox, out, output) = derived_study(
        "count-to-three",
        "1",
        &["--seed", "5", "--agent", "mur devtools state > /dev/null"],
    );
    output.assert_code(0);
    let root = sandbox.root().display().to_string();
    assert_eval_snapshot(
        "study_of_one_run_stderr",
        &output.stderr,
        &[
            (&regex_escape(&root), "[SANDBOX]"),
            (r"\d+ context tokens?", "[N] context tokens"),
            (r"\d+\.\d\d s\b", "[SECONDS] s"),
        ],
    );
    assert!(
        output
            .stdout
            .starts_with("# mur-eval study: 1 run, seed 5\n"),
        "{}",
        output.stdout
    );
    let trace = std::fs::read_to_string(out.join("runs/cli-derived/count-to-three/1/trace.md"))
        .expect("trace.md");
    assert!(
        trace.starts_with("# cli-derived/count-to-three/1 — fail, 1 call\n"),
        "{trace}"
    );
}

/// `text` as a regular expression matching itself.
fn regex_escape(text: &str) -> String {
    text.chars()
        .map(|c| {
            if "\\.+*?()|[]{}^$#&-~".contains(c) {
                format!("\\{c}")
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The study's page shows every chart label whole: the label column is as wide as the
/// longest label (it was a fixed 180 px, which cut `settings-screenshot · cli-derived`
/// to `ngs-screenshot · cli-derived`). In a headless browser, when one is installed,
/// every label is laid out inside its chart; else the column is checked on the file.
#[test]
fn the_study_page_shows_each_chart_label_whole() {
    let (sandbox, out) = sandbox_and_study();
    let html = sandbox.root().join("study.html");
    let page = html.display().to_string();
    let args = cli_derived(
        "settings-screenshot",
        "1",
        &["--agent", "true", "--html", &page],
    );
    study_into(&sandbox, &out, &args).assert_code(0);
    let page = std::fs::read_to_string(&html).expect("the page");
    let label = "settings-screenshot · cli-derived";
    let shown = format!("text-anchor=\"end\">{label}</text>");
    assert_eq!(
        page.matches(&shown).count(),
        3,
        "a bar per task chart\n{page}"
    );
    // Right-aligned at the column's edge: the column is wider than the label.
    for x in mur_testkit::text_x(&page, label) {
        assert!(x > 7.0 * label.chars().count() as f64, "{x}: {page}");
    }
    labels_laid_out_whole(&sandbox, &page);
}

/// Every chart label of `page` as a headless browser lays it out: inside its chart.
/// The page runs no script; a copy with one that measures the labels is opened.
fn labels_laid_out_whole(sandbox: &Sandbox, page: &str) {
    let Some(browser) = headless_browser() else {
        eprintln!("no headless browser installed: the labels were checked on the file only");
        return;
    };
    let measure = "<pre id=\"cut\"></pre><script>\
        const cut = [], svgs = document.querySelectorAll('svg');\
        for (const svg of svgs) { const chart = svg.getBoundingClientRect();\
          for (const t of svg.querySelectorAll('text')) { const r = t.getBoundingClientRect();\
            if (r.width === 0 || r.left < chart.left - 0.5 || r.right > chart.right + 0.5)\
              cut.push(t.textContent); } }\
        document.getElementById('cut').textContent = 'labels: ' + svgs.length + ' charts, cut: [' + cut.join('|') + ']';\
        </script></body>";
    let measured = sandbox.file("measured.html", page.replace("</body>", measure));
    let window = ["--window-size=900,1200"];
    let dom = dumped_dom(sandbox, &browser, sandbox.root(), &measured, &window);
    let said = dom
        .stdout
        .split("<pre id=\"cut\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .expect("the measurement in the DOM");
    assert!(
        said.starts_with("labels: ")
            && said.ends_with(" charts, cut: []")
            && !said.contains("labels: 0 "),
        "{said}"
    );
}

/// A headless Chromium on PATH (`.ci/run` installs Debian's `chromium-headless-shell`).
fn headless_browser() -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    let dirs: Vec<_> = std::env::split_paths(&path).collect();
    ["chromium-headless-shell", "chromium"]
        .into_iter()
        .flat_map(|program| dirs.iter().map(move |d| d.join(program)))
        .find(|p| p.is_file())
}

/// The DOM `browser` makes of the page at `html` (a profile kept under `dir`), after
/// its scripts ran; the browser must exit 0.
fn dumped_dom(
    sandbox: &Sandbox,
    browser: &Path,
    dir: &Path,
    html: &Path,
    extra: &[&str],
) -> mur_e2e::Output {
    let mut dump = sandbox.command(browser);
    dump.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
    ])
    .args(extra)
    .arg(format!(
        "--user-data-dir={}",
        dir.join("browser-profile").display()
    ))
    .args(["--dump-dom", &format!("file://{}", html.display())]);
    let dom = mur_e2e::process::run(&mut dump);
    assert_eq!(dom.code, 0, "{}: {}", browser.display(), dom.stderr);
    dom
}

#[test]
fn runs_the_harness_could_not_make_are_errors_not_failures_and_exit_7() {
    // A session that never starts (`--sample /bin/false`): no agent ran, so no run is a
    // failure of the agent's; the report counts them apart and the study exits 7.
    let (sandbox, out) = sandbox_and_study();
    let args = cli_derived(
        "count-to-three",
        "2",
        &["--seed", "3", "--agent", "true", "--sample", "/bin/false"],
    );
    let output = study_into(&sandbox, &out, &args);
    output.assert_code(7);
    let error = "mur-sample exited (exit status: 1) before announcing itself, saying nothing";
    for repeat in 1..=2 {
        let line = format!("cli-derived/count-to-three/{repeat}: ERROR, not run: {error}\n");
        output.assert_stderr_contains(&line);
    }
    assert!(!output.stderr.contains("FAIL"), "{output}");
    output.assert_stderr_contains(
        "study: 2 runs the harness could not make (the report counts them apart; each \
         result's `error` says why)\n",
    );
    let row = "| cli-derived | 0 | 0/0 (–) | – | – | – | – | – | – | – (–) | – | – |\n";
    output.assert_stdout_contains(row);
    let line = format!(
        "\nErrors: runs the harness could not make (the agent never ran), left out of every \
         figure above: `cli-derived` 2 (first: {error}). The same command again (the same \
         `--out`) makes them.\n"
    );
    output.assert_stdout_contains(&line);
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(report.contains(&line), "{report}");
    let csv = std::fs::read_to_string(out.join("report.csv")).expect("report.csv");
    let column = |name: &str| {
        let header: Vec<&str> = csv.lines().next().unwrap_or_default().split(',').collect();
        let row: Vec<&str> = csv.lines().nth(1).unwrap_or_default().split(',').collect();
        header
            .iter()
            .position(|h| *h == name)
            .and_then(|i| row.get(i).map(|v| (*v).to_owned()))
    };
    assert!(csv.contains("\ncli-derived,,0,0,"), "{csv}");
    assert_eq!(column("runs_not_made").as_deref(), Some("2"), "{csv}");
    // Its report, made again, says the same and exits as the study did: a script that
    // runs `report && publish` publishes no study with runs missing.
    let report = || report_of(&sandbox, &out, &[]);
    let reported = report();
    reported.assert_code(7).assert_stderr_is(
        "report: 2 runs the harness could not make (the report counts them apart; each \
         result's `error` says why)\n",
    );
    reported.assert_stdout_contains(&line);
    // The same command with a session that starts makes them, and replaces their records.
    let output = study_into(&sandbox, &out, &args[..args.len() - 2]);
    output.assert_code(0);
    report().assert_code(0).assert_stderr_is("");
    output.assert_stderr_contains("; 2 to run, 0 recorded\n");
    assert!(!output.stderr.contains("warning"), "{output}");
    assert!(!output.stdout.contains("Errors"), "{}", output.stdout);
    let row = "| cli-derived | 2 | 0/2 (0%) | 0%–66% | 0 |";
    output.assert_stdout_contains(row);
}

#[test]
fn a_name_given_twice_is_one_condition_and_a_directory_in_use_is_refused() {
    let (sandbox, out) = sandbox_and_study();
    let twice = matrix(
        "cli-derived,cli-derived",
        "count-to-three,count-to-three",
        "1",
        &["--seed", "3", "--agent", "true"],
    );
    let output = study_into(&sandbox, &out, &twice);
    output.assert_code(0);
    output.assert_stderr_starts_with(
        "study: 1 condition × 1 task × 1 repeat, seed 3; 1 to run, 0 recorded\n",
    );
    assert_eq!(results(&out).len(), 1, "one run made once");
    let recorded = read_json(&out.join("study.json"));
    assert_eq!(
        recorded["matrices"][0]["conditions"],
        serde_json::json!(["cli-derived"])
    );
    assert_eq!(
        recorded["matrices"][0]["tasks"],
        serde_json::json!(["count-to-three"])
    );

    // Another study holds the directory (its lock file, as a running study does).
    let lock = std::fs::OpenOptions::new()
        .write(true)
        .open(out.join("study.lock"))
        .expect("the study's lock file");
    lock.try_lock().expect("no study holds it now");
    let more = matrix("mcp", "count-to-three", "1", &["--agent", "true"]);
    let output = study_into(&sandbox, &out, &more);
    output.assert_code(1).assert_stderr_is(format!(
        "error: `{}` is in use by another study (it holds `study.lock`)\n\
         hint: wait for it to end, then run this command again to add what it lacks\n",
        out.display()
    ));
    assert_eq!(results(&out).len(), 1, "nothing ran");
    drop(lock);
    study_into(&sandbox, &out, &more).assert_code(0);
    assert_eq!(results(&out).len(), 2);
}

#[test]
fn a_directory_holding_someone_elses_files_is_refused_and_left_untouched() {
    let (sandbox, _) = sandbox_and_study();
    // The user's own notes, one of them named as a study's report is.
    let mine = sandbox.root().join("mine");
    std::fs::create_dir(&mine).expect("dir");
    std::fs::write(mine.join("report.md"), "my notes\n").expect("write");
    let args = cli_derived("count-to-three", "1", &["--agent", "true"]);
    study_into(&sandbox, &mine, &args)
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: `{}` is not empty and holds no study (no readable `study.json`): a study \
             writes into a new or empty directory, or an earlier study's\n\
             hint: name a new directory with `--out`; nothing in this one was touched\n",
            mine.display()
        ));
    let left: Vec<String> = std::fs::read_dir(&mine)
        .expect("read")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["report.md"]);
    assert_eq!(
        std::fs::read_to_string(mine.join("report.md")).expect("report.md"),
        "my notes\n"
    );
}

#[test]
fn a_page_that_would_overwrite_the_studys_record_is_refused() {
    let (sandbox, out, output) = derived_study("count-to-three", "1", &["--agent", "true"]);
    output.assert_code(0);
    let verdict = "runs/cli-derived/count-to-three/1/record.json";
    // Its record, its reports, a run's verdict — also named through `..` — and a file
    // the study has not written yet under a directory of its own: each the study's.
    for (given, name) in [
        ("results.jsonl", "results.jsonl"),
        ("study.json", "study.json"),
        ("report.md", "report.md"),
        ("report.csv", "report.csv"),
        (verdict, verdict),
        ("runs/cli-derived/../../report.md", "report.md"),
        ("runs/page.html", "runs/page.html"),
    ] {
        let page = out.join(given);
        let before = std::fs::read(&page).ok();
        let output = report_of(&sandbox, &out, &["--html".as_ref(), page.as_os_str()]);
        output.assert_code(1).assert_stderr_is(format!(
            "error: `--html {}` is the study's `{name}`, which the page would overwrite\n\
             hint: name another file for the page, such as `report.html`\n",
            page.display()
        ));
        assert_eq!(std::fs::read(&page).ok(), before, "{given}");
    }
    // A page of its own beside them is the study's to hold.
    let page = out.join("report.html");
    report_of(&sandbox, &out, &["--html".as_ref(), page.as_os_str()]).assert_code(0);
    assert!(
        std::fs::read_to_string(page)
            .expect("the page")
            .starts_with("<!DOCTYPE html>")
    );
}

/// `--html` over another study's files (or any file that is no study's page) is
/// refused before anything runs, and the files are left as they were: a page written
/// over `results.jsonl` lost its runs for good. A `results.jsonl` holding no record is
/// said as such, not as a study that made no run yet.
#[test]
fn a_page_over_another_studys_files_is_refused_and_a_record_written_over_is_said() {
    let (sandbox, out, output) = derived_study("count-to-three", "1", &["--agent", "true"]);
    output.assert_code(0);
    let second = sandbox.root().join("second");
    for name in ["results.jsonl", "study.json", "report.md"] {
        let page = out.join(name);
        let before = std::fs::read(&page).expect("the first study's file");
        let page_arg = page.display().to_string();
        let args = cli_derived(
            "count-to-three",
            "1",
            &["--agent", "true", "--html", &page_arg],
        );
        study_into(&sandbox, &second, &args)
            .assert_code(1)
            .assert_stderr_is(format!(
                "error: `--html {page_arg}` is another study's or run's `{name}`, which the \
                 page would overwrite\nhint: name a new file for the page (such as \
                 `report.html`), or move this one away first\n"
            ));
        assert_eq!(std::fs::read(&page).expect("kept"), before, "{name}");
    }
    assert!(!second.join("study.json").exists(), "nothing ran");
    // Any file of the user's is no page to write over either.
    let notes = sandbox.root().join("notes.txt");
    std::fs::write(&notes, "my notes\n").expect("notes");
    report_of(&sandbox, &out, &["--html".as_ref(), notes.as_os_str()])
        .assert_code(1)
        .assert_stderr_contains(
            "is a file that is no study's page, which the page would overwrite\n",
        );
    assert_eq!(
        std::fs::read_to_string(&notes).expect("notes"),
        "my notes\n"
    );
    // A study's own page, written again, is not refused.
    let page = sandbox.root().join("page.html");
    report_of(&sandbox, &out, &["--html".as_ref(), page.as_os_str()]).assert_code(0);
    report_of(&sandbox, &out, &["--html".as_ref(), page.as_os_str()]).assert_code(0);

    // A results.jsonl something else was written over says what it holds.
    let results = out.join("results.jsonl");
    std::fs::write(&results, "<!DOCTYPE html>\n<html>\n").expect("written over");
    report_of(&sandbox, &out, &[])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: `{}` holds no run's record: none of its 2 lines is a run's record (line 1 \
             is the first)\nhint: a study writes one JSON record a line: put back a copy of the \
             file, or move it away and run the study's command again with the same `--out` to \
             make the runs anew\n",
            results.display()
        ));
}

/// Bound on a command that must end at once (a report refusing a FIFO): against a
/// hang, not a performance expectation.
const AT_ONCE: Duration = Duration::from_secs(120);

/// Runs `command`, which must end at once (the bound is against a hang) with `code`,
/// saying `stderr` whole.
#[track_caller]
fn ends_at_once(command: &mut Command, code: i32, stderr: impl AsRef<str>) {
    run_within(command, AT_ONCE)
        .0
        .assert_code(code)
        .assert_stderr_is(stderr);
}

#[test]
fn a_page_goes_where_mur_puts_one_and_the_studys_record_is_replaced_whole() {
    // `--html -` prints the page in place of the markdown report (report.md holds
    // that); nothing named `-` is written, nor recorded as a page to write again.
    let (sandbox, out, output) =
        derived_study("count-to-three", "1", &["--agent", "true", "--html", "-"]);
    output
        .assert_code(0)
        .assert_stdout_starts_with("<!DOCTYPE html>");
    assert!(output.stdout.ends_with("</html>\n"), "{}", output.stdout);
    assert!(!sandbox.root().join("-").exists());
    let meta = read_json(&out.join("study.json"));
    assert_eq!(
        meta["matrices"][0]["provenance"].get("html"),
        None,
        "{meta}"
    );
    // The same of `report`: its page on stdout is the one it writes to a file.
    let file = sandbox.root().join("page.html");
    let markdown = report_of(&sandbox, &out, &["--html".as_ref(), file.as_os_str()]);
    markdown
        .assert_code(0)
        .assert_stdout_is(std::fs::read_to_string(out.join("report.md")).expect("report.md"));
    let page = std::fs::read_to_string(&file).expect("the page");
    report_of(&sandbox, &out, &["--html".as_ref(), "-".as_ref()])
        .assert_code(0)
        .assert_stderr_is("")
        .assert_stdout_is(&page);
    assert!(!sandbox.root().join("-").exists());
    // A name for its own stdout is `-`: the page whole, not the report written over it.
    let redirected = sandbox.root().join("redirected.html");
    let stdout = std::fs::File::create(&redirected).expect("create");
    let html = ["--html".as_ref(), "/dev/stdout".as_ref()];
    let mut command = report_command(&sandbox, &out, &html);
    ends_at_once(command.stdout(stdout), 0, "");
    assert_eq!(std::fs::read_to_string(&redirected).expect("read"), page);
    // A FIFO no one reads is refused at once, in mur's words (a plain write waited for a
    // reader for ever): before the report is made, as a name no page can be written at.
    let page_fifo = sandbox.root().join("page.fifo");
    mkfifo(&page_fifo);
    let html = ["--html".as_ref(), page_fifo.as_os_str()];
    ends_at_once(
        &mut report_command(&sandbox, &out, &html),
        1,
        format!(
            "error: `--html {}`: it is a FIFO no one is reading\n",
            page_fifo.display()
        ),
    );
    // A resume rewrites study.json: into a new file renamed over it, so that a full disk
    // leaves the old record, never a truncated one. A link to the old one keeps it whole.
    let kept = sandbox.root().join("kept-study.json");
    std::fs::hard_link(out.join("study.json"), &kept).expect("link");
    study_into(
        &sandbox,
        &out,
        &cli_derived("count-to-three", "1", &["--agent", "true"]),
    )
    .assert_code(0);
    assert_eq!(read_json(&kept), meta);
    use std::os::unix::fs::MetadataExt as _;
    let inode = |path: &Path| std::fs::metadata(path).expect("metadata").ino();
    assert_ne!(inode(&kept), inode(&out.join("study.json")));
    // A study is made to be published: its records get the user's umask, as report.md
    // does, not the owner-only bits of mur's own state (write_atomic's 0600).
    let mode = |path: &Path| std::fs::metadata(path).expect("metadata").mode() & 0o777;
    for record in ["study.json", "report.md"] {
        assert_eq!(
            mode(&out.join(record)),
            mode(&out.join("results.jsonl")),
            "{record}"
        );
    }
}

/// `report.md`, `report.csv` and `transcripts.md` are each written anew into a file
/// renamed over the old one, not truncated and rewritten: a reader of the old one (a
/// link to it here; a viewer that has it open) keeps it whole, and a study killed
/// mid-write leaves the old report or the new, never a part. Nothing is left beside them.
///
/// Then, of the same study (one run made for both), `--readme` naming a FIFO no one
/// writes is refused at once, exit 1, before anything is written: `report` read it first
/// (to put the table between its lines) and waited for a writer for ever. (The time
/// limit guards against that hang; it is not what is checked.) Said as every file
/// mur-eval reads says it (a task, a condition, a study's record).
#[test]
fn a_report_is_written_anew_whole_and_not_before_a_fifo_readme_is_refused() {
    let (sandbox, out, output) = derived_study("count-to-three", "1", &["--agent", "true"]);
    output.assert_code(0);
    let names = |dir: &Path| -> BTreeSet<String> {
        std::fs::read_dir(dir)
            .expect("read")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    };
    let before = names(&out);
    let reports = ["report.md", "report.csv", "transcripts.md"];
    for name in reports {
        std::fs::write(out.join(name), format!("the old {name}\n")).expect("write");
        std::fs::hard_link(out.join(name), sandbox.root().join(name)).expect("link");
    }
    report_of(&sandbox, &out, &[]).assert_code(0);
    for name in reports {
        let read = |path: PathBuf| std::fs::read_to_string(path).expect("read");
        assert_eq!(read(sandbox.root().join(name)), format!("the old {name}\n"));
        assert_ne!(read(out.join(name)), format!("the old {name}\n"));
    }
    assert_eq!(names(&out), before);

    std::fs::remove_file(out.join("report.md")).expect("remove");
    let readme = sandbox.root().join("readme.fifo");
    mkfifo(&readme);
    let args = ["--readme".as_ref(), readme.as_os_str()];
    ends_at_once(
        &mut report_command(&sandbox, &out, &args),
        1,
        format!(
            "error: `{}` is not a regular file\n\
             hint: `--readme` names a file holding `<!-- study-baseline -->` and \
             `<!-- /study-baseline -->` lines, read to put the table between them\n",
            readme.display()
        ),
    );
    assert!(
        !out.join("report.md").exists(),
        "written before the README was refused"
    );
}

/// A study's records that are FIFOs — `study.json` or `results.jsonl` (a named pipe
/// passed by mistake, or put there since), the tool list a later command reads — are
/// refused at once, exit 1, in one line: each was read with a blocking read that waited
/// for a writer for ever. (The time limit guards against that hang; it is not what is
/// checked.)
#[test]
fn a_studys_record_that_is_a_fifo_is_refused_at_once() {
    let (sandbox, out) = sandbox_and_study();
    std::fs::create_dir(&out).expect("dir");
    let meta = out.join("study.json");
    mkfifo(&meta);
    ends_at_once(
        &mut report_command(&sandbox, &out, &[]),
        1,
        format!(
            "error: `{0}` is not a study: `{0}` is not a regular file\n",
            meta.display()
        ),
    );
    std::fs::remove_file(&meta).expect("remove");
    std::fs::write(
        &meta,
        r#"{"schema":"mur-eval-study/1","seed":3,"conditions":["mcp"],"tasks":["count-to-three"],"repeats":1,"agent":"true","tokenizer":"o200k_base"}"#,
    )
    .expect("study.json");
    let results = out.join("results.jsonl");
    mkfifo(&results);
    ends_at_once(
        &mut report_command(&sandbox, &out, &[]),
        1,
        format!("error: `{}` is not a regular file\n", results.display()),
    );
    std::fs::remove_file(&results).expect("remove");
    let tools = out.join("tools-list.json");
    mkfifo(&tools);
    let args = matrix("mcp", "count-to-three", "1", &["--agent", "true"]);
    ends_at_once(
        &mut study_command(&sandbox, &out, &args),
        1,
        format!(
            "study: 1 condition × 1 task × 1 repeat, seed 3; 1 to run, 0 recorded\n\
             error: `{}` is not a regular file\n",
            tools.display()
        ),
    );
}

#[test]
fn report_stopped_by_sigterm_says_it_ran_nothing() {
    // `report`, printing to a stdout no one reads (`| less` before a key is pressed), is
    // held at its first byte once it wrote report.md anew: a stdout full before it
    // started, so that it cannot finish whatever a pipe holds on the machine.
    let (sandbox, out, output) = derived_study("count-to-three", "1", &["--agent", "true"]);
    output.assert_code(0);
    std::fs::remove_file(out.join("report.md")).expect("remove");
    let (_unread, stdout) = a_full_stdout();
    let report = Process::spawn(report_command(&sandbox, &out, &[]).stdout(stdout));
    wait_until_within("report.md written", AT_ONCE, || {
        out.join("report.md").exists().then_some(())
    });
    report.signal("TERM");
    report.wait_output().assert_code(143).assert_stderr_is(
        "mur-eval: stopped by SIGTERM: it runs no agents; the study's results.jsonl and \
         study.json were left as they were\n",
    );
}

/// A stdout no one reads that is full already, and the end that would read it (held by
/// the caller for as long as the writer is to be held): a stream socket filled until it
/// took no more, any write to it then waits. A pipe, filled by what the command prints,
/// held it only where the pipe held less than that (64 KiB where pages are 4 KiB, 1 MiB
/// where they are 64 KiB).
fn a_full_stdout() -> (std::os::unix::net::UnixStream, Stdio) {
    use std::io::Write as _;
    let (unread, mut stdout) = std::os::unix::net::UnixStream::pair().expect("socketpair");
    stdout.set_nonblocking(true).expect("non-blocking");
    for chunk in [&[0u8; 4096][..], &[0u8; 1][..]] {
        loop {
            match stdout.write(chunk) {
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) => panic!("filling the socket: {e}"),
            }
        }
    }
    stdout.set_nonblocking(false).expect("blocking");
    (unread, Stdio::from(std::os::fd::OwnedFd::from(stdout)))
}

#[test]
fn an_agent_failing_a_changed_task_or_giving_no_stream_is_said_and_the_study_says_how_it_ran() {
    let (sandbox, out) = sandbox_and_study();
    let tasks = sandbox.dir("tasks");
    let task = tasks.join("count-to-three.toml");
    std::fs::copy(repo_root().join("eval/tasks/count-to-three.toml"), &task).expect("copy");
    let task_dir = tasks.to_string_lossy().into_owned();
    let conditions = sandbox.dir("conditions");
    for name in ["cli-derived.toml", "cli-derived.md"] {
        std::fs::copy(
            repo_root().join("eval/conditions").join(name),
            conditions.join(name),
        )
        .expect("copy");
    }
    let condition_dir = conditions.to_string_lossy().into_owned();
    // An agent that fails at once, as one whose API key is refused.
    let failing = "echo 'error: invalid API key' >&2; exit 1";
    let first = cli_derived(
        "count-to-three",
        "1",
        &[
            "--seed",
            "5",
            "--jobs",
            "1",
            "--task-dir",
            &task_dir,
            "--condition-dir",
            &condition_dir,
            "--pass-env",
            "HOME",
            "--agent",
            failing,
        ],
    );
    let output = study_into(&sandbox, &out, &first);
    output.assert_code(0).assert_stderr_contains(
        "[1/1] cli-derived/count-to-three/1: FAIL (agent exit 1; 0 calls, ",
    );
    output.assert_stdout_contains(
        "\nThe agent exited nonzero in `cli-derived` 1 of 1 run (exit 1 ×1); 1 run before any \
         call, `mur` command or transcript line (126 and 127 too): each run's `agent.stderr` \
         says why.\n",
    );
    output.assert_stdout_contains(
        "\nTask categories a condition never completed: none counted as evidence against a \
         surface (1 run left out: the agent exited nonzero at once (no call, `mur` command or \
         transcript line) in the same task and repeat under every condition, so it failed on \
         its own).\n",
    );
    // How it ran: the command, the versions, the machine, the directories, the names.
    let meta = read_json(&out.join("study.json"));
    let ran = &meta["matrices"][0]["provenance"];
    assert_eq!(ran["command"][1], "study", "{meta}");
    assert_eq!(ran["murVersion"], "mur 0.1.0", "{meta}");
    assert_eq!(ran["sampleVersion"], "mur-sample 0.1.0", "{meta}");
    assert_eq!(ran["jobs"], 1, "{meta}");
    assert_eq!(ran["passEnv"], serde_json::json!(["HOME"]), "{meta}");
    assert_eq!(ran["taskDir"], task_dir.as_str(), "{meta}");
    assert_eq!(ran["conditionDir"], condition_dir.as_str(), "{meta}");
    assert!(ran["cpus"].as_u64().is_some_and(|n| n > 0), "{meta}");
    let run = &results(&out)[0];
    assert!(
        run["startedAt"].as_str().is_some_and(|t| t.ends_with('Z')),
        "{run}"
    );
    let first_sha = run["taskSha256"]
        .as_str()
        .expect("the task's sha256")
        .to_owned();
    let condition_sha = |run: &Value| {
        run["conditionSha256"]
            .as_str()
            .expect("the condition's sha256")
            .to_owned()
    };
    let first_condition = condition_sha(run);
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(
        report.contains("\nMade by `mur-eval study --conditions cli-derived "),
        "{report}"
    );
    // The task's oracle changed, then a second command with a stream-json agent that
    // prints no event: both said.
    let text = std::fs::read_to_string(&task).expect("task");
    std::fs::write(&task, text.replace("equals = 3", "equals = 4")).expect("edit");
    // And the condition's instructions, the treatment.
    let instructions = conditions.join("cli-derived.md");
    let text = std::fs::read_to_string(&instructions).expect("instructions");
    std::fs::write(&instructions, text + "Be quick.\n").expect("edit");
    let second = cli_derived(
        "count-to-three",
        "2",
        &[
            "--task-dir",
            &task_dir,
            "--condition-dir",
            &condition_dir,
            "--agent-format",
            "stream-json",
            "--agent",
            "echo '{not json'",
        ],
    );
    let output = study_into(&sandbox, &out, &second);
    output.assert_code(0).assert_stderr_contains(
        "\nwarning: cli-derived/count-to-three/2: `--agent-format stream-json` was given, but \
         `agent.stdout` held no event of it: check the agent's flags (Claude Code writes its \
         stream with `--output-format stream-json --verbose`; Codex with `exec --json`)\n",
    );
    let second_sha = results(&out)[1]["taskSha256"]
        .as_str()
        .expect("sha")
        .to_owned();
    assert_ne!(first_sha, second_sha);
    output.assert_stdout_contains(&format!(
        "\nWarning: a task's file changed between commands into this study, so its runs were \
         judged by different oracles (by the sha256 of the file) — `count-to-three` {} in 1 \
         run, {} in 1 run.\n",
        &first_sha[..12],
        &second_sha[..12]
    ));
    // Each run says which command made it, and the report names both with their runs.
    assert_eq!(results(&out)[0]["madeBy"], 0);
    assert_eq!(results(&out)[1]["madeBy"], 1);
    output.assert_stdout_contains(", 1 run; then `mur-eval study --conditions cli-derived ");
    let second_condition = condition_sha(&results(&out)[1]);
    assert_ne!(first_condition, second_condition);
    output.assert_stdout_contains(&format!(
        "\nWarning: a condition's files changed between commands into this study, so its runs \
         had different instructions or settings (by the sha256 of its file and its \
         instructions) — `cli-derived` {} in 1 run, {} in 1 run.\n",
        &first_condition[..12],
        &second_condition[..12]
    ));
    output.assert_stdout_contains(
        "\nWarning: `--agent-format` was given, but the agent's stdout held no event of it in \
         `cli-derived` 1 of 2 runs: ",
    );
    let notes = &results(&out)[1]["notes"];
    assert!(
        notes[0]
            .as_str()
            .is_some_and(|n| n.contains("held no event")),
        "{notes}"
    );
}

#[test]
fn report_keeps_one_record_per_run_asked_for_and_says_what_it_left_out() {
    let (sandbox, out, output) =
        derived_study("count-to-three", "1", &["--seed", "3", "--agent", "true"]);
    output.assert_code(0);
    // What an agent with write access to the study could add: the run again, as a pass,
    // six times under repeats no command asked for, and a line that is no record.
    let path = out.join("results.jsonl");
    let line = std::fs::read_to_string(&path).expect("results.jsonl");
    let pass = line.replace("\"success\":false", "\"success\":true");
    let mut forged = line.clone() + &pass;
    for repeat in 11..=16 {
        forged.push_str(
            &pass
                .replace("count-to-three/1", &format!("count-to-three/{repeat}"))
                .replace("\"repeat\":1,", &format!("\"repeat\":{repeat},")),
        );
    }
    forged.push_str("{\"schema\":\"mur-eval-run/1\",\"id\":\n");
    std::fs::write(&path, forged).expect("write");
    let output = report_of(&sandbox, &out, &[]);
    output.assert_code(0).assert_stderr_is(
        "warning: results.jsonl: 1 line is not a run's record, left out (line 9)\n\
         warning: results.jsonl: 6 records of runs study.json never asked for (a condition, task \
         or repeat outside its matrices), left out: cli-derived/count-to-three/11, \
         cli-derived/count-to-three/12, cli-derived/count-to-three/13, \
         cli-derived/count-to-three/14, cli-derived/count-to-three/15, … (6 in all)\n\
         warning: results.jsonl: 1 run recorded more than once, the last record of each kept: \
         cli-derived/count-to-three/1\n",
    );
    let row = "| cli-derived | 1 | 1/1 (100%) |";
    output.assert_stdout_contains(row);
}

/// A run's directory (`transcript`) is stored relative to the study's directory, in
/// `results.jsonl` and the run's `record.json`: what a study publishes holds no path of
/// the operator's machine. An older mur-eval's records hold it absolute, which the
/// journal still reads (its unit test in eval/src/study/journal.rs): no command a user
/// runs reads a recorded `transcript` back — `report` reads each run's files where the
/// run is in the study now, a resume makes each run in its own directory — so none here
/// could tell the two forms apart.
#[test]
fn a_runs_directory_is_stored_relative_to_the_study() {
    let (_sandbox, out, output) =
        derived_study("count-to-three", "1", &["--seed", "3", "--agent", "true"]);
    output.assert_code(0);
    let line = std::fs::read_to_string(out.join("results.jsonl")).expect("results.jsonl");
    let relative = r#""transcript":"runs/cli-derived/count-to-three/1""#;
    assert!(line.contains(relative), "{line}");
    let record = read_json(&out.join("runs/cli-derived/count-to-three/1/record.json"));
    assert_eq!(
        record["transcript"], "runs/cli-derived/count-to-three/1",
        "{record}"
    );
}

#[test]
fn files_the_agent_leaves_are_read_without_waiting_and_its_stream_lossily() {
    // FIFOs no one writes where the screenshot and the transcript go (once the harness
    // waited on them for ever), and a stream whose last byte is not UTF-8 (a multi-byte
    // character cut by the time limit): the run is recorded, its turns kept.
    let (sandbox, out) = sandbox_and_study();
    let fixture = repo_root().join("eval/fixtures/claude-stream.jsonl");
    let agent = format!(
        "mkfifo settings.png \"$MUR_EVAL_TRANSCRIPT\" \"$MUR_EVAL_CAPTURE\"; cat {}; printf '\\303'",
        fixture.display()
    );
    let args = cli_derived(
        "settings-screenshot",
        "1",
        &["--agent-format", "stream-json", "--agent", &agent],
    );
    let output = run_within(
        &mut study_command(&sandbox, &out, &args),
        Duration::from_secs(180),
    )
    .0;
    output.assert_code(0);
    let only = &results(&out)[0];
    assert_eq!(only["agent"]["turns"], 4, "{only}");
    assert_eq!(only["agent"]["inputTokens"], 12 + 2_300 + 49_100, "{only}");
    let dir = out.join("runs/cli-derived/settings-screenshot/1");
    let notes = serde_json::json!([
        format!(
            "`captured.jsonl` not read: `{}` is not a regular file",
            dir.join("captured.jsonl").display()
        ),
        format!(
            "`transcript.jsonl` not read: `{}` is not a regular file",
            dir.join("transcript.jsonl").display()
        ),
    ]);
    assert_eq!(only["notes"], notes, "{only}");
    let record = read_json(&dir.join("record.json"));
    let screenshot = record["checks"]
        .as_array()
        .and_then(|checks| {
            checks.iter().find(|c| {
                c["what"]
                    .as_str()
                    .is_some_and(|w| w.starts_with("settings.png"))
            })
        })
        .expect("the screenshot's check");
    assert_eq!(
        screenshot["seen"],
        format!(
            "`{}` is not a regular file",
            dir.join("work/settings.png").display()
        ),
        "{record}"
    );
}

#[test]
fn a_lockfile_the_agent_rewrites_neither_names_what_is_killed_nor_what_is_checked() {
    // An unrelated process of the operator's, and an agent that points the session's
    // lockfile at it: the harness used to SIGTERM it as "a reload's successor".
    let mut decoy = Command::new("sleep")
        .arg("300")
        .spawn()
        .expect("sleep runs");
    let agent = format!(
        "f=$(find \"$XDG_RUNTIME_DIR\" -name '*.json' | head -1); \
         sed -E 's/\"pid\": [0-9]+/\"pid\": {}/' \"$f\" > \"$f.new\"; chmod 600 \"$f.new\"; \
         mv \"$f.new\" \"$f\"",
        decoy.id()
    );
    let (sandbox, out, output) = derived_study("count-to-three", "1", &["--agent", &agent]);
    let alive = decoy.try_wait().expect("try_wait").is_none();
    let _ = decoy.kill();
    let _ = decoy.wait();
    output.assert_code(0);
    assert!(
        alive,
        "mur-eval signalled a pid the lockfile named\n{output}"
    );
    let dir = out.join("runs/cli-derived/count-to-three/1");
    let record = read_json(&dir.join("record.json"));
    let seen = record["checks"][0]["seen"].as_str().unwrap_or_default();
    let untrusted = format!(
        "; its lockfile names pid {}, no process of the session the harness started (pid ",
        decoy.id()
    );
    assert!(seen.contains(&untrusted), "{record}");
    assert!(
        left_under(sandbox.root()).is_empty(),
        "the session was stopped"
    );
}

#[test]
fn an_unset_pass_env_and_an_agent_that_cannot_start_are_said_before_any_run() {
    let (_sandbox, out, output) = derived_study(
        "count-to-three",
        "1",
        &[
            "--seed",
            "5",
            "--pass-env",
            "MUR_EVAL_NOT_SET_HERE",
            "--agent",
            "no-such-agent --task {task}",
        ],
    );
    output.assert_code(1).assert_stderr_is(
        "warning: --pass-env MUR_EVAL_NOT_SET_HERE: `MUR_EVAL_NOT_SET_HERE` is not set here, \
         so the agent does not get it\n\
         error: the agent's program `no-such-agent` is not found on the PATH the agent runs with\n\
         hint: install it, or name it by absolute path (the agent's PATH is mur-eval's, without \
         the directories that hold a `mur`)\n",
    );
    assert!(!out.exists(), "nothing made");
}

/// An agent command that the check leaves to the runs (a redirection: what only a shell
/// reads) and that never starts in a run (a script named by a relative path, which each
/// run resolves in its own directory) stops the study at its first runs, recording none:
/// no comparison of runs that measured nothing, and the corrected command makes them
/// into the same `--out`.
#[test]
fn a_study_whose_first_agents_never_started_stops_and_the_fixed_command_makes_its_runs() {
    let (sandbox, out) = sandbox_and_study();
    fn args(agent: &str) -> Vec<&str> {
        matrix(
            "cli-derived,cli-call",
            "count-to-three,clear-todos",
            "1",
            &["--seed", "5", "--jobs", "1", "--agent", agent],
        )
    }
    let relative = "bash eval/agents/scripted.sh {task} </dev/null";
    let mut command = study_command(&sandbox, &out, &args(relative));
    command.current_dir(repo_root());
    let output = run_within(&mut command, STUDY_LIMIT).0;
    output.assert_code(1);
    let lines: Vec<&str> = output.stderr.lines().collect();
    assert_eq!(
        lines[lines.len() - 2..],
        [
            "error: the agent never started in the first 3 runs (agent exit 127: its command \
             was not found, its stderr: `bash: eval/agents/scripted.sh: No such file or \
             directory`): the study stopped, recording none of them",
            "hint: fix `--agent` (name its scripts and programs by absolute path: each run's \
             working directory is its own) and run the command again",
        ],
        "{output}"
    );
    assert_eq!(output.stdout, "", "no report, no comparison");
    assert!(results(&out).is_empty());
    assert!(!out.join("runs").exists(), "{:?}", left_under(&out));
    let fixed = scripted_agent();
    study_into(&sandbox, &out, &args(&fixed)).assert_code(0);
    assert_eq!(results(&out).len(), 4);
}

/// A missing verb directory is refused before any verbs are compiled, as a usage error,
/// with the fix for whose directory it is: a condition's own (`verbs_over`, named
/// without its `..`) is built by its workspace's `build.sh`; `run`'s `--verbs` has no
/// conditions. Refused before the study says its plan or makes or claims its `--out`:
/// no directory is left holding only its lock.
#[test]
fn a_missing_verb_directory_is_refused_up_front_with_the_fix_for_whose_it_is() {
    let (sandbox, out) = sandbox_and_study();
    let conditions = sandbox.dir("conditions");
    std::fs::copy(
        repo_root().join("eval/conditions/cli-named.md"),
        conditions.join("cli-named.md"),
    )
    .expect("copy");
    let project = sandbox.dir("shaped");
    std::fs::write(project.join("build.sh"), "").expect("build.sh");
    let toml = std::fs::read_to_string(repo_root().join("eval/conditions/cli-compact.toml"))
        .expect("cli-compact.toml")
        .lines()
        .map(|line| match line.starts_with("verbs_over") {
            true => "verbs_over = \"../shaped/target/wasm32-unknown-unknown/release\"".to_owned(),
            false => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(conditions.join("cli-compact.toml"), toml).expect("toml");
    let condition_dir = conditions.to_string_lossy().into_owned();
    let verbs = standard_dir().to_string_lossy().into_owned();
    let args = matrix(
        "cli-compact",
        "clear-todos",
        "1",
        &[
            "--agent",
            "true",
            "--condition-dir",
            &condition_dir,
            "--verbs",
            &verbs,
        ],
    );
    let output = study_into(&sandbox, &out, &args);
    let built = project.join("target/wasm32-unknown-unknown/release");
    let said = format!(
        "error: cannot read the verb directory `{}`: No such file or directory (os error 2)\n\
         hint: condition `cli-compact` installs the verbs of that directory: build them (`bash \
         {}`), or leave the condition out (`--conditions`)\n",
        built.display(),
        project.join("build.sh").display()
    );
    output.assert_code(1).assert_stderr_is(&said);
    assert!(!out.exists(), "no `--out` made: {:?}", left_under(&out));
    // A study's own placeholders are no typo to the check of its agent command.
    let own: Vec<&str> = args
        .iter()
        .map(|a| {
            if *a == "true" {
                "true {condition} {surface}"
            } else {
                a
            }
        })
        .collect();
    study_into(&sandbox, &out, &own)
        .assert_code(1)
        .assert_stderr_is(&said);
    // An `--out` that is there is left as it was: no lock in it.
    std::fs::create_dir(&out).expect("out");
    study_into(&sandbox, &out, &args)
        .assert_code(1)
        .assert_stderr_is(&said);
    assert_eq!(
        std::fs::read_dir(&out).expect("out").count(),
        0,
        "untouched"
    );
    // Nor is the directory a study without `--out` makes as it names it left behind.
    let cwd = sandbox.dir("cwd");
    let mut default = sandbox.command(eval_bin());
    default
        .arg("study")
        .args(&args)
        .current_dir(&cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    run_within(&mut default, STUDY_LIMIT)
        .0
        .assert_code(1)
        .assert_stderr_is(&said);
    assert_no_default_out(&cwd);
    assert!(
        !out.join("compiled-verbs").exists(),
        "nothing compiled first"
    );
    // `run` has no conditions: the standard verbs' fix alone.
    let empty = sandbox.dir("no-verbs");
    let mut run = sandbox.command(eval_bin());
    run.args([
        "run",
        "--profile",
        "cli",
        "--agent",
        "true",
        "--tasks",
        "clear-todos",
    ])
    .arg("--verbs")
    .arg(&empty)
    .arg("--out")
    .arg(sandbox.root().join("run"))
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    run_within(&mut run, STUDY_LIMIT)
        .0
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: no verb files (`*.wasm`, `*.json`) in `{}`\n\
         hint: build the standard verbs (`bash plugins/build.sh`) and pass `--verbs \
         plugins/target/wasm32-unknown-unknown/release`, or install them (`bash \
         scripts/setup.sh`)\n",
            empty.display()
        ));
}

#[test]
fn a_report_of_a_directory_without_a_study_says_so_plainly() {
    let sandbox = Sandbox::new();
    let empty = sandbox.dir("empty");
    report_of(&sandbox, &empty, &[])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: no study in `{}`: it holds no `study.json`\n\
         hint: name the directory a `mur-eval study` wrote (its `--out`)\n",
            empty.display()
        ));
}

/// The comparison line is for any pair of conditions: against `cli-named` when the
/// study has it, else the first condition, or the one `--against` names.
#[test]
fn the_comparison_is_against_the_condition_named_or_the_first() {
    let (sandbox, out) = sandbox_and_study();
    let agent = scripted_agent();
    let args = matrix(
        "cli-call,cli-derived",
        "count-to-three",
        "1",
        &["--agent", &agent, "--against", "nope"],
    );
    study_into(&sandbox, &out, &args)
        .assert_code(1)
        .assert_stderr_is(
            "error: `--against nope`: not a condition of this study (`--conditions`)\n",
        );
    let args = matrix(
        "cli-call,cli-derived",
        "count-to-three",
        "1",
        &["--agent", &agent],
    );
    let output = study_into(&sandbox, &out, &args);
    output
        .assert_code(0)
        .assert_stdout_contains("\nAgainst `cli-call`: `cli-derived` ");
    let against = report_of(
        &sandbox,
        &out,
        &["--against".as_ref(), "cli-derived".as_ref()],
    );
    against
        .assert_code(0)
        .assert_stdout_contains("\nAgainst `cli-derived`: `cli-call` ");
}

#[test]
fn a_bad_html_path_or_a_study_that_cannot_start_leaves_nothing_pinned() {
    let (sandbox, out) = sandbox_and_study();
    // The page's path is checked before any run, as a usage error.
    let html = cli_derived(
        "count-to-three",
        "1",
        &["--agent", "true", "--html", "/nonexistent/dir/x.html"],
    );
    study_into(&sandbox, &out, &html).assert_code(1).assert_stderr_is(
        "error: `--html /nonexistent/dir/x.html`: the directory `/nonexistent/dir` does not exist\n",
    );
    assert!(!out.exists(), "nothing ran");
    // A page in the study's own directory, which the study makes, is fine.
    let other = sandbox.root().join("other");
    let page = other.join("report.html").to_string_lossy().into_owned();
    let html = cli_derived("count-to-three", "1", &["--agent", "true", "--html", &page]);
    study_into(&sandbox, &other, &html).assert_code(0);
    assert!(other.join("report.html").is_file());
    // A study whose condition cannot be prepared (no verbs) pins no seed: the corrected
    // command may name its own.
    let no_verbs = matrix(
        "cli-named",
        "count-to-three",
        "1",
        &["--agent", "true", "--verbs", "/nonexistent-verbs"],
    );
    study_into(&sandbox, &out, &no_verbs).assert_code(1);
    assert!(!out.join("study.json").exists());
    let seeded = cli_derived(
        "count-to-three",
        "1",
        &["--agent", "true", "--seed", "2026"],
    );
    study_into(&sandbox, &out, &seeded).assert_code(0);
    let recorded = read_json(&out.join("study.json"));
    assert_eq!(recorded["seed"], 2026);
    assert_eq!(recorded["conditions"], serde_json::json!(["cli-derived"]));

    // A copy of the study reads its own traces, wherever the original is.
    let copy = sandbox.root().join("published");
    let copied = Command::new("cp")
        .arg("-r")
        .arg(&out)
        .arg(&copy)
        .status()
        .expect("cp runs");
    assert!(copied.success());
    std::fs::remove_dir_all(&out).expect("remove the original");
    report_of(&sandbox, &copy, &[]).assert_code(0);
    let transcripts = std::fs::read_to_string(copy.join("transcripts.md")).expect("transcripts.md");
    assert!(!transcripts.contains("No `trace.md`"), "{transcripts}");
    assert!(
        transcripts.contains("### cli-derived/count-to-three/1"),
        "{transcripts}"
    );
}

#[test]
fn time_outs_are_counted_and_the_limit_recorded() {
    let (_sandbox, out, output) = derived_study(
        "count-to-three",
        "1",
        &["--time-limit", "1", "--agent", "sleep 30"],
    );
    output
        .assert_code(0)
        .assert_stderr_contains("cli-derived/count-to-three/1: FAIL (timed out; 0 calls, ");
    let line = "\nTimed out (the time limit ended the agent; its time is the limit, so the \
                medians are lower bounds): `cli-derived` 1 of 1 run. Warning: every run of \
                `cli-derived` timed out before its first call, `mur` command or transcript \
                line: the time limit (1 s) may be shorter than the agent takes to start (raise \
                `--time-limit`); those runs are no evidence against the surface.\n";
    output.assert_stdout_contains(line);
    let recorded = read_json(&out.join("study.json"));
    assert_eq!(recorded["matrices"][0]["timeLimitSecs"], 1, "{recorded}");
}

/// Ctrl-C in the middle of a study's second run: the running agent and session are
/// stopped, and so is the study — cleanly. It exits 130 with one line on stderr saying
/// how to resume, having removed its temporary directory (which `live-root` named) and
/// the run's `live` marker, and recorded nothing of the run it cut short; the run it
/// finished is left as it was, and the same command again makes only the other.
#[test]
fn ctrl_c_stops_the_study_cleanly_and_the_same_command_resumes_it() {
    let (sandbox, out) = sandbox_and_study();
    let root = sandbox.root();
    let (agent, started, quick) = second_run_waits(root);
    let args = cli_derived("count-to-three", "2", &["--agent", &agent]);
    let mut study = Process::spawn(&mut study_command(&sandbox, &out, &args));
    let marker = wait_until_within("a run recorded and the next live", STUDY_LIMIT, || {
        if let Some(status) = study.try_wait() {
            panic!("the study ended ({status}) before it was stopped");
        }
        let live = live_markers(&out);
        (results(&out).len() == 1 && started.exists() && live.len() == 1).then(|| live[0].clone())
    });
    let temporary =
        PathBuf::from(std::fs::read_to_string(out.join("live-root")).expect("live-root"));
    assert!(temporary.is_dir(), "{}", temporary.display());
    let recorded = std::fs::read_to_string(out.join("results.jsonl")).expect("results.jsonl");
    // The agent and the session are in groups of their own: a terminal's Ctrl-C reaches
    // mur-eval alone, as this SIGINT does.
    study.signal("INT");
    let output = study.wait_output();
    output.assert_code(130);
    assert_eq!(output.stdout, "", "a stopped study reports nothing");
    assert_eq!(
        output.stderr.lines().last(),
        Some(
            format!(
                "mur-eval: stopped by SIGINT: the agents and sessions it started were stopped \
                 too; runs not finished were not recorded; run the same command again to \
                 resume the study in `{}`",
                out.display()
            )
            .as_str()
        ),
        "{output}"
    );
    assert!(!temporary.exists(), "left: {}", temporary.display());
    assert!(!out.join("live-root").exists());
    assert!(!marker.exists(), "left: {}", marker.display());
    assert!(
        !marker.parent().expect("its run").exists(),
        "the cut run's directory"
    );
    assert_nothing_in_tmp(&sandbox);
    // What finished is as it was: the run recorded, and its files.
    assert_eq!(
        std::fs::read_to_string(out.join("results.jsonl")).expect("results.jsonl"),
        recorded
    );
    let done = &results(&out)[0];
    let done_dir = in_study(&out, done);
    assert!(done_dir.join("record.json").is_file(), "{done}");
    // Bounds against a hang, well under the agent's 30 s: left running, it outlives them.
    wait_until_within(
        "the agent and session stopped",
        Duration::from_secs(20),
        || left_under(root).is_empty().then_some(()),
    );
    assert_eq!(
        std::fs::read_to_string(&started).expect("started"),
        "started\n",
        "the agent ran on"
    );

    // The same command resumes the study: only the run cut short is made.
    std::fs::write(&quick, "").expect("quick");
    study_into(&sandbox, &out, &args).assert_code(0);
    let all = results(&out);
    assert_eq!(all.len(), 2, "{all:?}");
    assert_eq!(all[0], *done);
    assert!(done_dir.join("record.json").is_file());
    assert_nothing_in_tmp(&sandbox);
}

/// An agent whose first run ends at once and whose second waits 30 s (writing `started`
/// when it begins), unless `quick` is there: the agent, `started` and `quick`, in `root`.
fn second_run_waits(root: &Path) -> (String, PathBuf, PathBuf) {
    let (first, started, quick) = (root.join("first"), root.join("started"), root.join("quick"));
    let agent = format!(
        "if mkdir {f} 2>/dev/null || [ -e {q} ]; then exit 0; fi; \
         echo started >> {s}; sleep 30; echo finished >> {s}",
        f = first.display(),
        q = quick.display(),
        s = started.display()
    );
    (agent, started, quick)
}

/// A study run without `--out` (into a new `mur-eval-out/study-<time>`) and stopped by
/// Ctrl-C says the command that resumes it, with that `--out`: the same command again
/// would start another study, in another directory with another seed. That command, run
/// as printed, makes only the run cut short: also pasted in another directory, by a shell
/// whose PATH has no `mur-eval`, when `mur-eval` was run by a relative path (README's
/// `target/debug/mur-eval study …`). The tool schemas its MCP client loads are kept in
/// the study's directory (`tools-list.json`, which the resume reads), the session that
/// listed them is not (no `schemas/`).
#[test]
fn ctrl_c_of_a_study_without_out_says_the_command_that_resumes_it() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.dir("cwd");
    let (agent, started, quick) = second_run_waits(sandbox.root());
    // mur-eval by a path relative to `cwd`, in a directory on no PATH.
    std::os::unix::fs::symlink(eval_bin(), sandbox.dir("bin").join("mur-eval"))
        .expect("a link to mur-eval");
    let mut command = sandbox.shell_command(r#"exec ../bin/mur-eval study "$@""#);
    command
        .arg("bash")
        .args(matrix("mcp", "count-to-three", "2", &["--agent", &agent]))
        .current_dir(&cwd)
        .env("TMPDIR", sandbox.dir("tmp"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let studies = || -> Vec<PathBuf> {
        std::fs::read_dir(cwd.join("mur-eval-out"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .collect()
    };
    let mut study = Process::spawn(&mut command);
    let out = wait_until_within("a run recorded and the next started", STUDY_LIMIT, || {
        if let Some(status) = study.try_wait() {
            panic!("the study ended ({status}) before it was stopped");
        }
        let out = studies().pop()?;
        (results(&out).len() == 1 && started.exists()).then_some(out)
    });
    study.signal("INT");
    let output = study.wait_output();
    output.assert_code(130);
    let last = output.stderr.lines().last().unwrap_or_default();
    let said = format!(
        "mur-eval: stopped by SIGINT: the agents and sessions it started were stopped too; \
         runs not finished were not recorded; resume the study in `{out}` with the same \
         command and that `--out`: `",
        out = out.display()
    );
    let resume = last
        .strip_prefix(&said)
        .and_then(|rest| rest.strip_suffix('`'))
        .unwrap_or_else(|| panic!("no resume line:\n{output}"));
    assert!(
        resume.starts_with(&format!(
            "{}/../bin/mur-eval study --conditions mcp --tasks count-to-three --repeats 2 --agent '",
            cwd.display()
        )) && resume.ends_with(&format!("' --out {}", out.display())),
        "{resume}"
    );
    assert!(out.join("tools-list.json").is_file());
    assert!(!out.join("schemas").exists(), "a scratch session kept");

    // The command said, as a person pastes it, in another directory, with no `mur-eval`
    // on PATH that could stand in for the one that ran.
    std::fs::write(&quick, "").expect("quick");
    let own = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
    let without_mur_eval = std::env::join_paths(
        std::env::split_paths(&own).filter(|dir| !dir.join("mur-eval").exists()),
    )
    .expect("PATH");
    let mut again = sandbox.shell_command(resume);
    again
        .current_dir(sandbox.dir("elsewhere"))
        .env("PATH", without_mur_eval)
        .env("TMPDIR", sandbox.dir("tmp"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let resumed = run_within(&mut again, STUDY_LIMIT).0;
    resumed
        .assert_code(0)
        .assert_stderr_contains("; 1 to run, 1 recorded");
    assert_eq!(results(&out).len(), 2);
    assert_eq!(studies(), [out.as_path()], "another study started");
    assert!(!out.join("schemas").exists(), "a scratch session kept");
}

/// Ctrl-C while the study prepares its conditions — here the mcp condition's tools being
/// listed, by a `mur-sample` that waits (the session's, not the one that says its
/// version) — before any run: the study says to run the same
/// command again to resume it, and that works: its `study.json` is there, with the seed
/// the resume keeps, and `mur-eval report` finds the study (with no run yet). It was written only once the
/// conditions were ready, so the line promised a study no command could find (`report`:
/// "no study in …: it holds no `study.json`"), and the resume drew another seed.
#[test]
fn ctrl_c_before_the_first_run_leaves_a_study_the_same_command_resumes() {
    let (sandbox, out) = sandbox_and_study();
    let (waiting, go) = (sandbox.root().join("waiting"), sandbox.root().join("go"));
    let script = format!(
        "#!/bin/sh\ncase \"$*\" in *--usage-log*) [ -e '{go}' ] || {{ touch '{waiting}'; exec sleep 60; }};; esac\n\
         exec '{sample}' \"$@\"\n",
        go = go.display(),
        waiting = waiting.display(),
        sample = mur_e2e::sample_bin().display()
    );
    let sample = executable(&sandbox, "bin/mur-sample", &script);
    let sample = sample.to_str().expect("utf-8");
    let args = matrix(
        "mcp",
        "count-to-three",
        "1",
        &["--agent", "true", "--sample", sample],
    );
    let mut study = Process::spawn(&mut study_command(&sandbox, &out, &args));
    wait_until_within("the tools being listed", STUDY_LIMIT, || {
        if let Some(status) = study.try_wait() {
            panic!("the study ended ({status}) before it was stopped");
        }
        waiting.exists().then_some(())
    });
    study.signal("INT");
    let output = study.wait_output();
    output.assert_code(130);
    assert_eq!(output.stdout, "", "a stopped study reports nothing");
    let seed = read_json(&out.join("study.json"))["seed"]
        .as_u64()
        .unwrap_or_else(|| panic!("no study recorded\n{output}"));
    let starting =
        format!("study: 1 condition × 1 task × 1 repeat, seed {seed}; 1 to run, 0 recorded\n");
    output.assert_stderr_is(format!(
        "{starting}mur-eval: stopped by SIGINT: the agents and sessions it started were \
         stopped too; runs not finished were not recorded; run the same command again to \
         resume the study in `{}`\n",
        out.display()
    ));
    assert!(results(&out).is_empty());
    // `report` finds the study, and says how to make its runs.
    let report = report_of(&sandbox, &out, &[]);
    report.assert_code(1).assert_stderr_is(format!(
        "error: `{}` records no run yet\n\
         hint: a study records each run as it ends: run its command again with the same \
         `--out` to make them (study.json's commands name it)\n",
        out.join("results.jsonl").display()
    ));
    assert_nothing_in_tmp(&sandbox);

    // The same command resumes it, with its seed.
    std::fs::write(&go, "").expect("go");
    let resumed = study_into(&sandbox, &out, &args);
    resumed.assert_code(0).assert_stderr_contains(&starting);
    assert_eq!(results(&out).len(), 1, "{resumed}");
    assert_nothing_in_tmp(&sandbox);
}

/// The `live` markers in `out`'s run directories (`runs/<condition>/<task>/<repeat>/live`).
fn live_markers(out: &Path) -> Vec<PathBuf> {
    let within = |dir: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .collect()
    };
    within(&out.join("runs"))
        .iter()
        .flat_map(|condition| within(condition))
        .flat_map(|task| within(&task))
        .map(|run| run.join("live"))
        .filter(|marker| marker.exists())
        .collect()
}

/// A run is made outside the study's directory and moved into it once it ended: an agent
/// that looks around (`ls ..`, `ls ../..`) finds no other run's files — the repeat made
/// before it is in the study by then — and no path its environment names leads into the
/// study; the directory the runs were made in is gone when the study ends.
#[test]
fn an_agent_sees_no_other_run_nor_the_studys_directory() {
    let agent = "echo \"== ..\"; ls -a ..; echo \"== ../..\"; ls -a ../..; echo \"== env\"; env";
    let (sandbox, out, output) = derived_study("count-to-three", "2", &["--agent", agent]);
    output.assert_code(0);
    let study = out.to_string_lossy().into_owned();
    for repeat in ["1", "2"] {
        let dir = out.join("runs/cli-derived/count-to-three").join(repeat);
        let seen = std::fs::read_to_string(dir.join("agent.stdout")).expect("agent.stdout");
        assert!(
            !seen.contains(&study),
            "the study's directory was in reach:\n{seen}"
        );
        let listed = |from: &str, to: &str| -> Vec<String> {
            let part = seen.split_once(from).map_or("", |(_, rest)| rest);
            let part = part.split_once(to).map_or(part, |(part, _)| part);
            part.lines()
                .filter(|l| !l.is_empty() && *l != "." && *l != "..")
                .map(str::to_owned)
                .collect()
        };
        // `..`: the run's own files; `../..`: the conditions' and this run's directory.
        let parent = listed("== ..\n", "== ../..\n");
        assert!(parent.contains(&"prompt.md".to_owned()), "{seen}");
        let grandparent = listed("== ../..\n", "== env\n");
        assert_eq!(grandparent.len(), 2, "{seen}");
        assert!(grandparent.contains(&"conditions".to_owned()), "{seen}");
        // Its TMPDIR is the run's own, beside its XDG_RUNTIME_DIR: mur searches
        // `$TMPDIR/reactor-devtools-<uid>` for sessions too.
        let var = |name: &str| {
            let line = seen
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}=")));
            Path::new(line.unwrap_or_else(|| panic!("no {name} in:\n{seen}"))).to_owned()
        };
        assert_eq!(
            var("TMPDIR").parent(),
            var("XDG_RUNTIME_DIR").parent(),
            "{seen}"
        );
        // What the run made is in the study, and names no other place.
        assert!(dir.join("work").join("AGENTS.md").is_file());
        assert!(!dir.join("live").exists());
        // Relative to the study's directory, where the record is: no path of this machine.
        let record = read_json(&dir.join("record.json"));
        assert_eq!(
            record["transcript"],
            format!("runs/cli-derived/count-to-three/{repeat}"),
            "{record}"
        );
        assert_eq!(in_study(&out, &record), dir);
    }
    assert_nothing_in_tmp(&sandbox);
}

/// The sandbox's `TMPDIR`, where the study makes its runs, holds nothing.
#[track_caller]
fn assert_nothing_in_tmp(sandbox: &Sandbox) {
    let tmp: Vec<_> = std::fs::read_dir(sandbox.dir("tmp"))
        .expect("tmp")
        .flatten()
        .collect();
    assert!(tmp.is_empty(), "left in TMPDIR: {tmp:?}");
}

/// A study killed between runs (no run's `live` file names where runs were made) left
/// its temporary directory, with the conditions' verbs and compiled code, in `TMPDIR`
/// for good: the study names it in `live-root`, and the next command over it removes it
/// — only a directory a study names so — saying so on stderr in one line (it was silent).
#[test]
fn the_next_command_removes_the_temporary_directory_a_killed_study_left() {
    let args = ["--seed", "5", "--agent", "mur devtools state > /dev/null"];
    let (sandbox, out, first) = derived_study("count-to-three", "1", &args);
    first.assert_code(0);
    assert!(
        !out.join("live-root").exists(),
        "a study that ended names none"
    );
    let tmp = sandbox.dir("tmp");
    let left = tmp.join("mur-eval-study-killed");
    std::fs::create_dir_all(left.join("conditions")).expect("a killed study's directory");
    std::fs::write(out.join("live-root"), left.to_string_lossy().as_bytes()).expect("named");
    let next = study_into(&sandbox, &out, &cli_derived("count-to-three", "1", &args));
    // Removed, and said: the operator learns that an earlier study died.
    next.assert_code(0).assert_stderr_is(format!(
        "study: an earlier study into this directory was killed before it ended: removed its \
         temporary directory `{}`\n\
         study: 1 condition × 1 task × 1 repeat, seed 5; 0 to run, 1 recorded\n\
         study: 0 runs made now, 1 recorded in all: {}\n",
        left.display(),
        out.join("results.jsonl").display()
    ));
    assert!(!left.exists(), "left in TMPDIR");
    assert!(!out.join("live-root").exists());
    // A name a study never gives is no order to delete anything.
    let other = tmp.join("precious");
    std::fs::create_dir_all(&other).expect("a directory of someone's");
    std::fs::write(out.join("live-root"), other.to_string_lossy().as_bytes()).expect("named");
    let next = study_into(&sandbox, &out, &cli_derived("count-to-three", "1", &args));
    next.assert_code(0);
    assert!(!next.stderr.contains("was killed"), "{next}");
    assert!(other.exists(), "removed a directory no study made");
}

/// The MCP agent of [`failed_calls_and_refused_invocations_are_counted_in_every_figure`]:
/// on the first repeat a tool the session does not have and a click on a selector that
/// matches nothing, then (every repeat) the three clicks the task asks for.
const FAILING_MCP_AGENT: &str = r##"import asyncio, json, os
from mcp import Client

async def main():
    with open(os.environ["MUR_EVAL_MCP_CONFIG"]) as f:
        url = json.load(f)["mcpServers"]["mur-sample"]["url"]
    async with Client(url) as client:
        if os.environ["MUR_EVAL_REPEAT"] == "1":
            try:
                await client.call_tool("noSuchTool", {})
            except Exception as error:
                print("noSuchTool:", error)
            result = await client.call_tool("click", {"selector": "#nothing"})
            print("click #nothing: isError", result.is_error)
        for _ in range(3):
            await client.call_tool("click", {"selector": "#btn-inc"})

asyncio.run(main())
"##;

/// The CLI half: on the first repeat a verb mur does not have, an option `click` does
/// not take (both refused before any call) and a click that matches nothing (a failed
/// call), then the three clicks.
const FAILING_CLI_AGENT: &str = r##"if [ "$MUR_EVAL_REPEAT" = 1 ]; then
    mur devtools frobnicate
    mur devtools click --element '#btn-inc'
    mur devtools click --args '{"selector":"#nothing"}'
fi
for _ in 1 2 3; do mur devtools click --args '{"selector":"#btn-inc"}' > /dev/null; done
"##;

#[test]
fn failed_calls_and_refused_invocations_are_counted_in_every_figure() {
    let Some(python) = python_or_skip("interop-modern-venv", "2", "requirements-modern.txt") else {
        return;
    };
    let (sandbox, out) = sandbox_and_study();
    // (Not `mcp.py`: Python would import it as the SDK, its own directory first.)
    let mcp = sandbox.file("agents/failing_agent.py", FAILING_MCP_AGENT);
    let cli = sandbox.file("agents/cli.sh", FAILING_CLI_AGENT);
    let agent = format!(
        "if [ \"$MUR_EVAL_CONDITION\" = mcp ]; then exec \"$MUR_EVAL_PYTHON\" -B {}; fi; bash {}",
        mcp.display(),
        cli.display()
    );
    let args = matrix(
        "cli-derived,mcp",
        "count-to-three",
        "2",
        &[
            "--seed",
            "11",
            "--jobs",
            "1",
            "--pass-env",
            "MUR_EVAL_PYTHON",
            "--agent",
            &agent,
        ],
    );
    let mut command = study_command(&sandbox, &out, &args);
    command.env("MUR_EVAL_PYTHON", &python);
    let output = run_within(&mut command, STUDY_LIMIT).0;
    output.assert_code(0);

    // Each run's calls as the session served them, and the invocations mur refused.
    let mut runs: Vec<Value> = results(&out);
    runs.sort_by_key(|run| run["id"].as_str().unwrap_or_default().to_owned());
    let figures: Vec<Value> = runs
        .iter()
        .map(|run| {
            // When each refusal was last made is the clock's.
            let mut invocations = run["invocations"].clone();
            let refused = invocations.get_mut("refused").and_then(Value::as_array_mut);
            for shape in refused.into_iter().flatten() {
                shape.as_object_mut().map(|r| r.remove("last"));
            }
            serde_json::json!({
                "id": run["id"], "success": run["success"], "calls": run["calls"],
                "invocations": invocations, "agentExit": run["agentExit"],
            })
        })
        .collect();
    let calls = |total: u32, cli: u32, failed: u32, tools: Value| {
        let surface = if cli > 0 { "cli" } else { "mcp" };
        serde_json::json!({
            "total": total, "cli": cli, "mcp": total - cli, "firstSurface": surface,
            "failed": failed, "otherSurface": 0, "offCondition": 0, "tools": tools,
        })
    };
    let refused = serde_json::json!([
        { "verb": "click", "kind": "derived", "options": ["--element"], "positionals": 1,
          "times": 1 },
        { "verb": "frobnicate", "kind": "unknown", "options": [], "positionals": 0,
          "times": 1 },
    ]);
    assert_eq!(
        figures,
        [
            serde_json::json!({
                "id": "cli-derived/count-to-three/1", "success": true,
                "calls": calls(4, 4, 1, serde_json::json!({ "click": 4 })),
                "invocations": { "total": 6,
                    "failed": { "tool-error": 1, "usage-error": 2 }, "refused": refused },
                "agentExit": 0,
            }),
            serde_json::json!({
                "id": "cli-derived/count-to-three/2", "success": true,
                "calls": calls(3, 3, 0, serde_json::json!({ "click": 3 })),
                "invocations": { "total": 3, "failed": {} }, "agentExit": 0,
            }),
            serde_json::json!({
                "id": "mcp/count-to-three/1", "success": true,
                "calls": calls(5, 0, 2, serde_json::json!({ "click": 4, "noSuchTool": 1 })),
                "invocations": null, "agentExit": 0,
            }),
            serde_json::json!({
                "id": "mcp/count-to-three/2", "success": true,
                "calls": calls(3, 0, 0, serde_json::json!({ "click": 3 })),
                "invocations": null, "agentExit": 0,
            }),
        ]
    );

    // The report whole: calls 3.5 and 4 (medians of 4, 3 and 5, 3), attempts with the
    // two refused 4.5 and 4, failed calls 0.5 and 1, and the sums under the table. Only
    // what the machine decides is filtered: times, context (the tools' schemas and the
    // instructions are other files' business), the machine and the sandbox's path.
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert_eq!(
        output.stdout, report,
        "the report printed is the one written"
    );
    let root = sandbox.root().display().to_string();
    assert_eval_snapshot(
        "study_with_failed_calls_report",
        &report,
        &[
            (&regex_escape(&root), "[SANDBOX]"),
            (&regex_escape(&python.display().to_string()), "[PYTHON]"),
            (r"\d+\.\d\d s\b", "[SECONDS] s"),
            (r"≥?\d+ \(\d+\) \| ≥?\d+ \|", "[CONTEXT] | [BYTES] |"),
            (r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "[TIME]"),
            (r"\((debug|release) build\)", "([BUILD] build)"),
            (r"; [a-z0-9_]+ [a-z0-9_]+, \d+ CPUs?;", "; [MACHINE];"),
            // The first digits of the programs' sha256: this build's.
            (r"\b[0-9a-f]{12}\b", "[SHA256]"),
        ],
    );
    // The MCP agent logged no transcript: its trace says the calls the session served
    // are all that is known, not that it made none.
    let trace =
        std::fs::read_to_string(out.join("runs/mcp/count-to-three/1/trace.md")).expect("trace.md");
    assert_eq!(
        trace,
        "# mcp/count-to-three/1 — pass, 5 calls\n\n\
         Nothing recorded of what the agent did: it logged no transcript and gave no event \
         stream, so only the 5 calls the session served are known (`calls.jsonl`, without \
         arguments or results).\n"
    );
    // The same figures, unrounded, in report.csv: median calls, attempts and failed
    // calls, then refused invocations and failed calls summed.
    let csv = std::fs::read_to_string(out.join("report.csv")).expect("report.csv");
    let columns: Vec<&str> = csv.lines().next().unwrap_or_default().split(',').collect();
    let rows: Vec<Vec<String>> = csv
        .lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            [
                "condition",
                "task",
                "median_calls",
                "median_attempts",
                "median_failed_calls",
                "refused_invocations",
                "failed_calls",
                "cli_calls",
                "mcp_calls",
            ]
            .iter()
            .map(|name| {
                let at = columns.iter().position(|c| c == name).expect(name);
                cells[at].to_owned()
            })
            .collect()
        })
        .collect();
    assert_eq!(
        rows,
        [
            ["cli-derived", "", "3.5", "4.5", "0.5", "2", "1", "7", "0"],
            ["mcp", "", "4", "4", "1", "0", "2", "0", "8"],
            [
                "cli-derived",
                "count-to-three",
                "3.5",
                "4.5",
                "0.5",
                "2",
                "1",
                "7",
                "0"
            ],
            ["mcp", "count-to-three", "4", "4", "1", "0", "2", "0", "8"],
        ],
        "{csv}"
    );
}

/// A command into a study that wrote a page (`--html`) writes that page anew, with or
/// without `--html`: it never shows fewer runs than report.md. A file that took the
/// page's name is left alone, said. A directory left off the agents' PATH (it holds a
/// `mur`) is said once per study, not once per cli condition. A study that recorded no
/// run yet has a report that says how to make them.
#[test]
fn a_later_command_writes_the_earlier_page_anew_and_warns_once() {
    let (sandbox, out) = sandbox_and_study();
    // A directory on PATH that holds a `mur`: each cli condition leaves it off.
    let other_mur = sandbox.file("elsewhere/mur", "");
    let path = format!(
        "{}:/usr/bin:/bin",
        other_mur.parent().expect("dir").display()
    );
    let page = out.join("report.html");
    let page_arg = page.to_string_lossy().into_owned();
    let first = matrix(
        "cli-derived,cli-call",
        "count-to-three",
        "1",
        &["--agent", "true", "--seed", "3", "--html", &page_arg],
    );
    let made = run_within(
        study_command(&sandbox, &out, &first).env("PATH", &path),
        STUDY_LIMIT,
    )
    .0;
    made.assert_code(0);
    let left_off = format!(
        "warning: `{}` left off the agent's PATH",
        other_mur.parent().expect("dir").display()
    );
    assert_eq!(made.stderr.matches(&left_off).count(), 1, "{made}");
    let title = |runs: &str| format!("<title>mur-eval study: {runs}, seed 3</title>");
    let read = || std::fs::read_to_string(&page).expect("the page");
    assert!(read().contains(&title("2 runs")), "{}", read());

    // The same study extended, no `--html`: the page follows report.md.
    let more = cli_derived("count-to-three", "2", &["--agent", "true"]);
    let extended = study_into(&sandbox, &out, &more);
    extended.assert_code(0).assert_stderr_contains(&format!(
        "study: `{page_arg}`, the page an earlier command of this study wrote (`--html`), \
         written anew\n"
    ));
    assert!(read().contains(&title("3 runs")), "{}", read());
    extended.assert_stdout_contains("# mur-eval study: 3 runs, seed 3\n");

    // A file that took the page's name is not the study's to write over.
    std::fs::write(&page, "<p>my notes</p>").expect("write over the page");
    let again = cli_derived("count-to-three", "3", &["--agent", "true"]);
    study_into(&sandbox, &out, &again)
        .assert_code(0)
        .assert_stderr_contains(&format!(
            "warning: `{page_arg}`, the page an earlier command of this study wrote \
             (`--html`), is no longer a study's page: left as it is\n"
        ));
    assert_eq!(read(), "<p>my notes</p>");

    // A study that recorded no run yet (one stopped before its first run ended).
    std::fs::write(out.join("results.jsonl"), "").expect("empty the record");
    report_of(&sandbox, &out, &[])
        .assert_code(1)
        .assert_stderr_is(format!(
            "error: `{}` records no run yet\nhint: a study records each run as it ends: run its \
         command again with the same `--out` to make them (study.json's commands name it)\n",
            out.join("results.jsonl").display()
        ));
}

/// A later command writes anew only a page that is its study's: one in `--out` is
/// recorded relative to it, so a copy of the directory, extended, writes its own page and
/// leaves the original's; one outside `--out` (two studies' `--html` of one file) is
/// named in a warning, not written over with the other study's runs.
#[test]
fn a_later_command_writes_only_its_own_studys_page() {
    let (sandbox, out) = sandbox_and_study();
    let title =
        |runs: &str, seed: &str| format!("<title>mur-eval study: {runs}, seed {seed}</title>");
    let read = |page: &Path| std::fs::read_to_string(page).expect("the page");
    let page = out.join("report.html");
    let first = cli_derived(
        "count-to-three",
        "1",
        &[
            "--agent",
            "true",
            "--seed",
            "3",
            "--html",
            page.to_str().expect("utf-8"),
        ],
    );
    study_into(&sandbox, &out, &first).assert_code(0);

    // `cp -r study copy`, then the copy extended, no `--html`.
    let copy = sandbox.root().join("copy");
    let copied = std::process::Command::new("cp")
        .arg("-r")
        .arg(&out)
        .arg(&copy)
        .status()
        .expect("cp");
    assert!(copied.success());
    let more = cli_derived("count-to-three", "2", &["--agent", "true"]);
    study_into(&sandbox, &copy, &more)
        .assert_code(0)
        .assert_stderr_contains(&format!(
            "study: `{}`, the page an earlier command of this study wrote (`--html`), \
             written anew\n",
            copy.join("report.html").display()
        ));
    assert!(read(&copy.join("report.html")).contains(&title("2 runs", "3")));
    assert!(
        read(&page).contains(&title("1 run", "3")),
        "{}",
        read(&page)
    );

    // Studies `a` and `b` write one page outside both; `b` last. `a` extended leaves it.
    let shared = sandbox.root().join("shared.html");
    let shared_arg = shared.to_str().expect("utf-8");
    let (a, b) = (sandbox.root().join("a"), sandbox.root().join("b"));
    for (dir, seed) in [(&a, "5"), (&b, "6")] {
        let args = cli_derived(
            "count-to-three",
            "1",
            &["--agent", "true", "--seed", seed, "--html", shared_arg],
        );
        study_into(&sandbox, dir, &args).assert_code(0);
    }
    let extended = study_into(&sandbox, &a, &more);
    extended.assert_code(0).assert_stderr_contains(&format!(
        "warning: `{shared_arg}`, the page an earlier command of this study wrote (`--html`), \
         lies outside its `--out`, and another study may have written it since: left as it \
         is; pass `--html {shared_arg}` to write it anew\n"
    ));
    assert!(
        read(&shared).contains(&title("1 run", "6")),
        "{}",
        read(&shared)
    );
    // Named again, it is written.
    let again = cli_derived(
        "count-to-three",
        "2",
        &["--agent", "true", "--html", shared_arg],
    );
    let written = study_into(&sandbox, &a, &again);
    written.assert_code(0);
    assert!(!written.stderr.contains("earlier command"), "{written}");
    assert!(
        read(&shared).contains(&title("2 runs", "5")),
        "{}",
        read(&shared)
    );
}

/// A study whose `mur-eval` has no `mur-eval-capture` beside it (the cli conditions'
/// `mur` runs through it) is refused before it writes anything into `--out`, saying where
/// it looked: mur-eval's own failure, exit 7.
#[test]
fn a_study_without_its_capture_program_writes_nothing_and_exits_7() {
    let (sandbox, out) = sandbox_and_study();
    let alone = sandbox.dir("alone");
    std::fs::copy(eval_bin(), alone.join("mur-eval")).expect("copy mur-eval");
    let args = cli_derived("count-to-three", "1", &["--agent", "true"]);
    let mut command = study_command(&sandbox, &out, &args);
    // The same study, run by the copy, which finds mur and mur-sample where they are.
    let mut copy = sandbox.command(&alone.join("mur-eval"));
    copy.args(command.get_args())
        .arg("--mur")
        .arg(mur_e2e::mur_bin())
        .arg("--sample")
        .arg(mur_e2e::sample_bin())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let refused = run_within(&mut copy, STUDY_LIMIT).0;
    refused.assert_code(7).assert_stderr_is(format!(
        "error: cannot find `mur-eval-capture` in `{}`, beside `mur-eval`: the `mur` of a cli \
         condition runs through it\nhint: build both: `cargo build -p mur-eval`\n",
        alone.display()
    ));
    assert!(!out.exists(), "nothing written into --out");
    // Beside it, the study runs.
    run_within(&mut command, STUDY_LIMIT).0.assert_code(0);
}

// Helper 410: a study stopped before its end says which runs it lacks.

/// `results.jsonl` of the study in `out` cut to the records of `kept` (run ids), as a
/// study killed before its end leaves it: the other runs were never recorded.
fn keep_only(out: &Path, whole: &str, kept: &[&str]) {
    let lines: String = whole
        .lines()
        .filter(|line| {
            let run: Value = serde_json::from_str(line).expect("a run's record");
            kept.contains(&run["id"].as_str().unwrap_or_default())
        })
        .map(|line| format!("{line}\n"))
        .collect();
    assert_eq!(lines.lines().count(), kept.len(), "{whole}");
    std::fs::write(out.join("results.jsonl"), lines).expect("cut results.jsonl");
}

/// A study stopped before its end (its records cut as a kill -9 leaves them) is not
/// reported as if complete: under the conditions table — report.md, stdout and the
/// README's block alike — it says how many of the runs `study.json` asked for are
/// recorded, names a condition none of whose runs was, and says the missing runs of an
/// equally short set; the same command again makes them, and a complete study's report
/// is as it was, byte for byte.
#[test]
fn a_study_stopped_before_its_end_says_which_runs_it_lacks() {
    let (sandbox, out) = sandbox_and_study();
    let args = matrix(
        "cli-derived,mcp",
        "count-to-three",
        "2",
        &["--seed", "11", "--agent", "true"],
    );
    study_into(&sandbox, &out, &args).assert_code(0);
    let whole = std::fs::read_to_string(out.join("results.jsonl")).expect("results.jsonl");
    let complete = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(!complete.contains("not complete"), "{complete}");
    let tail = "The same `mur-eval study` command again (the same `--out`) makes the rest; the \
                runs recorded are skipped.\n";

    // One run of `mcp` recorded: `cli-derived` has no row, and is named.
    keep_only(&out, &whole, &["mcp/count-to-three/2"]);
    let readme = sandbox.file(
        "README.md",
        "# App\n\n<!-- study-baseline -->\n<!-- /study-baseline -->\n",
    );
    let output = report_of(&sandbox, &out, &["--readme".as_ref(), readme.as_os_str()]);
    // Said on stderr too, for a script that publishes the report (still exit 0).
    output.assert_code(0).assert_stderr_is(
        "warning: the study is not complete: 1 of 4 runs recorded; run the same `mur-eval \
         study` command again (the same `--out`) to finish\n",
    );
    let line = format!(
        "\nWarning: the study is not complete — 1 of the 4 runs its commands asked for \
         (`study.json`) are recorded, and every figure is over those alone: `cli-derived` 0 \
         of 2 runs recorded; `mcp` 1 of 2 runs recorded (missing `count-to-three` repeat 1). \
         {tail}"
    );
    output.assert_stdout_contains(&line);
    assert!(!output.stdout.contains("| cli-derived |"), "{output}");
    let report = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(report.contains(&line), "{report}");
    let written = std::fs::read_to_string(&readme).expect("README.md");
    assert!(written.contains(&line), "{written}");

    // One run of each, the same task and repeat: a clean comparison, but half the study.
    keep_only(
        &out,
        &whole,
        &["cli-derived/count-to-three/2", "mcp/count-to-three/2"],
    );
    let output = report_of(&sandbox, &out, &[]);
    output.assert_code(0).assert_stdout_contains(&format!(
        "\nWarning: the study is not complete — 2 of the 4 runs its commands asked for \
         (`study.json`) are recorded, and every figure is over those alone: `cli-derived` 1 \
         of 2 runs recorded (missing `count-to-three` repeat 1); `mcp` 1 of 2 runs recorded \
         (missing `count-to-three` repeat 1). {tail}"
    ));

    // Every run recorded: the report is the complete study's, byte for byte.
    std::fs::write(out.join("results.jsonl"), &whole).expect("restore results.jsonl");
    report_of(&sandbox, &out, &[])
        .assert_code(0)
        .assert_stderr_is("");
    let again = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert_eq!(again, complete);

    // As the line says: the same command again makes the runs missing, and only those.
    keep_only(
        &out,
        &whole,
        &["cli-derived/count-to-three/2", "mcp/count-to-three/2"],
    );
    let resumed = study_into(&sandbox, &out, &args);
    resumed
        .assert_code(0)
        .assert_stderr_contains("2 to run, 2 recorded");
    assert_eq!(results(&out).len(), 4);
    assert!(!resumed.stdout.contains("not complete"), "{resumed}");
    assert!(!resumed.stderr.contains("not complete"), "{resumed}");
}
