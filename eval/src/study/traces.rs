//! The traces of a study for the people who judge transcript legibility (seed 000
//! §13): `trace.md` in each run's directory, and `transcripts.md` beside the report
//! with one run of every condition per task, the same job through each surface side by
//! side.

use std::cmp::Ordering;
use std::path::Path;

use mur_core::Result;

use super::context::Recorded;
use super::result::RunResult;
use crate::adapters::AgentReport;
use crate::trace::{self, Step};
use mur_usage::Surface;

/// The file, in a run's directory, with what the agent did as a person reads it.
pub const TRACE_FILE: &str = "trace.md";

/// What the agent of a run did: its event stream's steps when it has them, else the
/// `mur` invocations the capture kept and the tool calls it logged (`recorded`), by time.
pub fn steps(recorded: &Recorded, agent: Option<&AgentReport>) -> Vec<Step> {
    if let Some(agent) = agent.filter(|a| !a.steps.is_empty()) {
        return agent.steps.clone();
    }
    let shell = recorded.captured.iter().map(|call| {
        let step = Step::Shell {
            command: trace::command_line(&call.argv),
            output: call.shown(),
            exit: call.exit,
        };
        (call.time, step)
    });
    let tools = recorded
        .logged
        .iter()
        .filter(|line| line.kind == "result")
        .map(|line| {
            let step = Step::Tool {
                tool: line.what.clone(),
                arguments: trace::arguments(&line.arguments),
                result: line.received(),
            };
            (line.time, step)
        });
    let mut timed: Vec<(Option<f64>, Step)> = shell.chain(tools).collect();
    // Both surfaces at once: in the order made (a line without a time goes last).
    timed.sort_by(|a, b| match (a.0, b.0) {
        (Some(a), Some(b)) => a.total_cmp(&b),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    });
    timed.into_iter().map(|(_, step)| step).collect()
}

/// `trace.md` for the run `result` describes (its directory is `result.transcript`).
pub fn write_trace(result: &RunResult, steps: &[Step]) -> Result<()> {
    let text = format!(
        "# {}\n\n{}",
        heading(result),
        block(steps, result.calls.total)
    );
    crate::write::record(&result.transcript.join(TRACE_FILE), text.as_bytes())
}

/// `run id — pass, 3 calls` (or `fail`, and why the harness could not run it), and
/// where the instructions' order varied, the surface they named first.
fn heading(result: &RunResult) -> String {
    let verdict = if result.success { "pass" } else { "fail" };
    let error = result
        .error
        .as_deref()
        .map(|e| format!(" ({e})"))
        .unwrap_or_default();
    let listed = match result.listed_first {
        Some(Surface::Cli) => ", the shell named first",
        Some(Surface::Mcp) => ", MCP named first",
        None => "",
    };
    format!(
        "{} — {verdict}{error}, {}{listed}",
        result.id,
        crate::words::plural(result.calls.total as usize, "call")
    )
}

/// The steps as a text block; without any, why not. An MCP agent that logs no
/// transcript and gives no event stream still made the calls the session served, which
/// the heading counts: the trace must not say there were none.
fn block(steps: &[Step], calls: u32) -> String {
    if steps.is_empty() {
        if calls > 0 {
            return format!(
                "Nothing recorded of what the agent did: it logged no transcript and gave no \
                 event stream, so only the {} the session served are known (`calls.jsonl`, \
                 without arguments or results).\n",
                crate::words::plural(calls as usize, "call")
            );
        }
        return "Nothing recorded: the agent made no call the harness could see.\n".to_owned();
    }
    format!("```text\n{}```\n", trace::render(steps))
}

/// `transcripts.md`: per task, the lowest-numbered repeat recorded of each condition (in
/// the study's order of conditions), read from its `trace.md`.
/// Each run's trace is read from `out` — its directory, `runs/<condition>/<task>/<repeat>`,
/// in the study's directory as it is now — never from the path the run recorded, so a
/// study copied or moved elsewhere reads its own traces.
pub fn transcripts(
    out: &Path,
    results: &[RunResult],
    conditions: &[String],
    title: &str,
) -> String {
    let mut text = format!(
        "# Transcripts: {title}\n\n\
         One run per task and condition (the lowest-numbered repeat recorded, not the \
         first made: the shuffled order made them in any order), the same job through \
         each surface, for the people judging how legible each transcript is: under the \
         CLI the shell commands and what they printed (`$ …`), under MCP the tool calls \
         (`→ tool {{arguments}}`, `← result`), and what the agent said (`» …`) when its \
         event stream carries it. Long outputs are cut; each run's directory \
         (`trace.md`, `agent.stdout`, `captured.jsonl`, `transcript.jsonl`) keeps the rest.\n"
    );
    let mut tasks: Vec<&str> = results.iter().map(|r| r.task.as_str()).collect();
    tasks.sort_unstable();
    tasks.dedup();
    for task in tasks {
        text.push_str(&format!("\n## {task}\n"));
        for condition in conditions {
            let first = results
                .iter()
                .filter(|r| r.task == task && &r.condition == condition)
                .min_by_key(|r| r.repeat);
            if let Some(run) = first {
                let dir = out
                    .join("runs")
                    .join(&run.condition)
                    .join(&run.task)
                    .join(run.repeat.to_string());
                let trace = crate::bounded::read(&dir.join(TRACE_FILE), 16 << 20)
                    .map(|read| String::from_utf8_lossy(&read.bytes).into_owned());
                let body = trace
                    .ok()
                    .and_then(|t| t.split_once("\n\n").map(|(_, body)| body.to_owned()))
                    .unwrap_or_else(|| "No `trace.md` in the run's directory.\n".to_owned());
                text.push_str(&format!("\n### {}\n\n{body}", heading(run)));
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::context::{CAPTURE_FILE, TRANSCRIPT_FILE};

    #[test]
    fn both_surfaces_recorded_make_one_trace_in_the_order_made() {
        let dir = tempfile::tempdir().expect("tempdir");
        let capture = [
            r##"{"schema":"mur-eval-capture/1","argv":["devtools","click","#btn-inc"],"exit":0,"time":1000.0,"stdout":"{\"clicked\":true}\n","stderr":""}"##,
            r##"{"schema":"mur-eval-capture/1","argv":["devtools","state","#count"],"exit":1,"time":3000.0,"stdout":"","stderr":"error: state: unexpected argument `#count`\n"}"##,
        ];
        let transcript = [
            r##"{"schema":"mur-eval-transcript/1","kind":"read","what":"guide","text":"the guide"}"##,
            r##"{"schema":"mur-eval-transcript/1","kind":"result","what":"state","arguments":{"selector":"#count"},"time":2000.0,"text":"{\"text\":\"1\"}"}"##,
        ];
        std::fs::write(dir.path().join(CAPTURE_FILE), capture.join("\n")).expect("write");
        std::fs::write(dir.path().join(TRANSCRIPT_FILE), transcript.join("\n")).expect("write");
        let recorded = Recorded::read(dir.path());
        assert_eq!(
            trace::render(&steps(&recorded, None)),
            "$ mur devtools click '#btn-inc'\n\
             {\"clicked\":true}\n\
             → state {\"selector\":\"#count\"}\n\
             ← {\"text\":\"1\"}\n\
             $ mur devtools state '#count'\n\
             error: state: unexpected argument `#count`\n\
             [exit 1]\n"
        );
        // An event stream with steps is the agent's own account, and wins.
        let agent = AgentReport {
            steps: vec![Step::Said("hello".to_owned())],
            ..AgentReport::new(crate::adapters::Format::StreamJson)
        };
        assert_eq!(trace::render(&steps(&recorded, Some(&agent))), "» hello\n");
    }
}
