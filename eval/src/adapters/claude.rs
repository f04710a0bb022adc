//! Claude Code's `--output-format stream-json` (with `--verbose`): `system` (init),
//! `assistant` messages (each with the API's `usage`), `user` messages carrying
//! `tool_result` blocks, and a final `result` event with `num_turns`, `total_cost_usd`
//! and the run's `usage`. The `result` event is authoritative; a stream cut short (the
//! time limit) falls back to the assistant messages, each message id counted once.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::report::{AgentReport, result_text};
use crate::trace::{self, Step};

/// The input tokens of a `usage` object: uncached, cache writes and cache reads.
fn input(usage: &Value) -> (u64, u64) {
    let field = |name: &str| usage[name].as_u64().unwrap_or(0);
    let cached = field("cache_read_input_tokens");
    (
        field("input_tokens") + field("cache_creation_input_tokens") + cached,
        cached,
    )
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
    let mut report = AgentReport::default();
    let mut seen = BTreeSet::new();
    // Tool calls waiting for their result, by `tool_use` id.
    let mut calls: BTreeMap<String, Value> = BTreeMap::new();
    let (mut input_sum, mut cached_sum, mut output_sum) = (0, 0, 0);
    let mut result = None;
    for event in events {
        match event["type"].as_str() {
            Some("assistant") => {
                let message = &event["message"];
                let id = message["id"].as_str().unwrap_or_default().to_owned();
                // Several content blocks of one message may come as several events,
                // each repeating the message's usage.
                if seen.insert(id) {
                    let (input, cached) = input(&message["usage"]);
                    input_sum += input;
                    cached_sum += cached;
                    output_sum += message["usage"]["output_tokens"].as_u64().unwrap_or(0);
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
                        let text = result_text(&block["content"]);
                        let id = block["tool_use_id"].as_str().unwrap_or_default();
                        if let Some(call) = calls.remove(id) {
                            if is_mcp(&call) {
                                report.mcp_results.push(text.clone());
                            }
                            report
                                .steps
                                .push(step(&call, &text, block["is_error"] == true));
                        }
                        report.tool_results.push(text);
                    }
                }
            }
            Some("result") => result = Some(event),
            _ => {}
        }
    }
    // Calls the stream ended before answering (the time limit).
    for call in calls.into_values() {
        report.steps.push(step(&call, "", false));
    }
    match result {
        Some(result) => {
            let (input, cached) = input(&result["usage"]);
            report.turns = result["num_turns"].as_u64();
            report.input_tokens = Some(input);
            report.cached_tokens = Some(cached);
            report.output_tokens = result["usage"]["output_tokens"].as_u64();
            report.cost_usd = result["total_cost_usd"].as_f64();
        }
        None if !seen.is_empty() => {
            report.turns = Some(seen.len() as u64);
            report.input_tokens = Some(input_sum);
            report.cached_tokens = Some(cached_sum);
            report.output_tokens = Some(output_sum);
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

fn step(call: &Value, result: &str, failed: bool) -> Step {
    let name = call["name"].as_str().unwrap_or_default();
    let input = &call["input"];
    if name == "Bash" {
        return Step::Shell {
            command: input["command"].as_str().unwrap_or_default().to_owned(),
            output: result.to_owned(),
            exit: failed.then_some(1),
        };
    }
    let tool = name.strip_prefix("mcp__").map_or(name, |rest| {
        rest.split_once("__").map_or(rest, |(_server, tool)| tool)
    });
    Step::Tool {
        tool: tool.to_owned(),
        arguments: trace::arguments(input),
        result: result.to_owned(),
    }
}
