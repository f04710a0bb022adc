//! Claude Code's `--output-format stream-json` (with `--verbose`): `system` (init),
//! `assistant` messages (each with the API's `usage`), `user` messages carrying
//! `tool_result` blocks, and a final `result` event with `num_turns`, `total_cost_usd`
//! and the run's `usage`. The `result` event is authoritative; a stream cut short (the
//! time limit) falls back to the assistant messages, each message id counted once.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::format::Format;
use super::report::{AgentReport, Tokens, Usage, fields, received};
use crate::trace::{self, Received, Step};

/// The figures of a `usage` object, its input tokens those uncached, cache writes and
/// cache reads; nothing for one without a numeric token field.
fn usage(usage: &Value) -> Usage {
    let names = [
        "input_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
        "output_tokens",
    ];
    let Some([uncached, written, read, output]) = fields(usage, names) else {
        return Usage::default();
    };
    let input = [uncached, written, read]
        .map(Tokens::Counted)
        .into_iter()
        .fold(Tokens::Unreported, Tokens::plus);
    Usage {
        input,
        cached: Tokens::Counted(read),
        output: Tokens::Counted(output),
    }
}

/// Whether `event` is one of the stream's: `system` and `result` with their `subtype`,
/// `assistant` and `user` with their `message`.
pub fn is_event(event: &Value) -> bool {
    match event["type"].as_str() {
        Some("system" | "result") => event["subtype"].is_string(),
        Some("assistant" | "user") => event["message"].is_object(),
        _ => false,
    }
}

pub fn read(events: impl Iterator<Item = Value>) -> AgentReport {
    let mut report = AgentReport::new(Format::StreamJson);
    let mut seen = BTreeSet::new();
    // Tool calls waiting for their result, by `tool_use` id.
    let mut calls: BTreeMap<String, Value> = BTreeMap::new();
    let mut summed = Usage::default();
    let mut result = None;
    for event in events {
        match event["type"].as_str() {
            Some("assistant") => {
                let message = &event["message"];
                let id = message["id"].as_str().unwrap_or_default().to_owned();
                // Several content blocks of one message may come as several events,
                // each repeating the message's usage.
                if seen.insert(id) {
                    summed = summed.plus(usage(&message["usage"]));
                }
                for block in message["content"].as_array().into_iter().flatten() {
                    match block["type"].as_str() {
                        Some("text") => {
                            let words = block["text"].as_str().unwrap_or_default();
                            report.steps.push(Step::Said(words.to_owned()));
                        }
                        Some("tool_use") => {
                            let id = block["id"].as_str().unwrap_or_default().to_owned();
                            calls.insert(id, block.clone());
                        }
                        _ => {}
                    }
                }
            }
            Some("user") => {
                let blocks = event["message"]["content"].as_array().cloned();
                for block in blocks.unwrap_or_default() {
                    if block["type"] == "tool_result" {
                        let got = received(&block["content"]);
                        let id = block["tool_use_id"].as_str().unwrap_or_default();
                        if let Some(call) = calls.remove(id) {
                            if is_mcp(&call) {
                                report.mcp_results.push(got.clone());
                            }
                            report
                                .steps
                                .push(step(&call, &got, block["is_error"] == true));
                        }
                        report.tool_results.push(got.text);
                    }
                }
            }
            Some("result") => result = Some(event),
            _ => {}
        }
    }
    // Calls the stream ended before answering (the time limit).
    for call in calls.into_values() {
        report.steps.push(step(&call, &Received::default(), false));
    }
    match result {
        Some(result) => {
            report.turns = result["num_turns"].as_u64();
            report.cost_usd = result["total_cost_usd"].as_f64();
            // A `result` without usage gives none: the messages' sum, if any, stands.
            let given = usage(&result["usage"]);
            let tokens = if given == Usage::default() {
                summed
            } else {
                given
            };
            tokens.report(&mut report);
        }
        None if !seen.is_empty() => {
            report.turns = Some(seen.len() as u64);
            summed.report(&mut report);
        }
        None => {}
    }
    report
}

/// A `tool_use` and its result as a step: `Bash` a shell command, `mcp__SERVER__TOOL` an
/// MCP tool call, any other tool (Read, Write, …) a call by its own name.
/// Whether a `tool_use` called a tool of an MCP server (Claude Code names those
/// `mcp__<server>__<tool>`), not one of its own (`Bash`, `Read`, …).
fn is_mcp(call: &Value) -> bool {
    call["name"]
        .as_str()
        .is_some_and(|n| n.starts_with("mcp__"))
}

fn step(call: &Value, result: &Received, failed: bool) -> Step {
    let name = call["name"].as_str().unwrap_or_default();
    let input = &call["input"];
    if name == "Bash" {
        return Step::Shell {
            command: input["command"].as_str().unwrap_or_default().to_owned(),
            output: result.text.clone(),
            exit: failed.then_some(1),
        };
    }
    let tool = name.strip_prefix("mcp__").map_or(name, |rest| {
        rest.split_once("__").map_or(rest, |(_server, tool)| tool)
    });
    Step::Tool {
        tool: tool.to_owned(),
        arguments: trace::arguments(input),
        result: result.clone(),
    }
}
