//! Codex's `exec --json`: `thread.started`, then per turn `turn.started`, `item.*`
//! events (`agent_message`, `reasoning`, `command_execution` with its
//! `aggregated_output`, `mcp_tool_call` with its `result`, …) and `turn.completed` (or
//! `turn.failed`) carrying the turn's `usage`: `input_tokens` (cached ones included),
//! `cached_input_tokens`, `output_tokens`. Codex reports no cost.

use serde_json::Value;

use super::format::Format;
use super::report::{AgentReport, Tokens, Usage, fields, received};
use crate::trace::{self, Step};

/// Whether `event` is one of the stream's: the thread's and turns' events, an `item.*`
/// event with its `item`, or a stream `error`.
pub fn is_event(event: &Value) -> bool {
    match event["type"].as_str() {
        Some("thread.started" | "turn.started" | "turn.completed" | "turn.failed" | "error") => {
            true
        }
        Some(kind) if kind.starts_with("item.") => event["item"].is_object(),
        _ => false,
    }
}

pub fn read(events: impl Iterator<Item = Value>) -> AgentReport {
    let mut report = AgentReport::new(Format::CodexJson);
    let mut turns = 0;
    let mut summed = Usage::default();
    for event in events {
        match event["type"].as_str() {
            Some("turn.completed" | "turn.failed") => {
                turns += 1;
                // A failed turn carries an `error`, and usually no usage: no tokens, not 0.
                summed = summed.plus(usage(&event["usage"]));
            }
            Some("item.completed") => {
                let item = &event["item"];
                match item["type"].as_str() {
                    Some("command_execution") => {
                        let output = received(&item["aggregated_output"]).text;
                        report.steps.push(Step::Shell {
                            command: unwrapped(item["command"].as_str().unwrap_or_default()),
                            output: output.clone(),
                            exit: item["exit_code"].as_i64(),
                        });
                        report.tool_results.push(output);
                    }
                    Some("mcp_tool_call") => {
                        let result = &item["result"];
                        let got = match &result["content"] {
                            Value::Null => received(&item["error"]),
                            content => received(content),
                        };
                        report.steps.push(Step::Tool {
                            tool: item["tool"].as_str().unwrap_or_default().to_owned(),
                            arguments: trace::arguments(&item["arguments"]),
                            result: got.clone(),
                        });
                        report.tool_results.push(got.text.clone());
                        report.mcp_results.push(got);
                    }
                    Some("agent_message") => {
                        let words = item["text"].as_str().unwrap_or_default();
                        report.steps.push(Step::Said(words.to_owned()));
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    if turns > 0 {
        report.turns = Some(turns);
        summed.report(&mut report);
    }
    report
}

/// The figures of a turn's `usage` (its input tokens include the cached ones); nothing
/// for one without a numeric token field.
fn usage(usage: &Value) -> Usage {
    let names = ["input_tokens", "cached_input_tokens", "output_tokens"];
    let Some([input, cached, output]) = fields(usage, names) else {
        return Usage::default();
    };
    Usage {
        input: Tokens::Counted(input),
        cached: Tokens::Counted(cached),
        output: Tokens::Counted(output),
    }
}

/// The command line the agent wrote: Codex runs each in `bash -lc '…'`, which the trace
/// leaves out.
fn unwrapped(command: &str) -> String {
    match shlex::split(command).as_deref() {
        Some([shell, flag, line]) if shell.ends_with("sh") && (flag == "-lc" || flag == "-c") => {
            line.clone()
        }
        _ => command.to_owned(),
    }
}
