//! Claude Code's `--output-format stream-json` (with `--verbose`): `system` (init),
//! `assistant` messages (each with the API's `usage`), `user` messages carrying
//! `tool_result` blocks, and a final `result` event with `num_turns`, `total_cost_usd`
//! and the run's `usage`. The `result` event is authoritative; a stream cut short (the
//! time limit) falls back to the assistant messages, each message id counted once.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{AgentReport, result_text};

/// The input tokens of a `usage` object: uncached, cache writes and cache reads.
fn input(usage: &Value) -> (u64, u64) {
    let field = |name: &str| usage[name].as_u64().unwrap_or(0);
    let cached = field("cache_read_input_tokens");
    (
        field("input_tokens") + field("cache_creation_input_tokens") + cached,
        cached,
    )
}

pub fn read(events: impl Iterator<Item = Value>) -> AgentReport {
    let mut report = AgentReport::default();
    let mut seen = BTreeSet::new();
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
            }
            Some("user") => {
                let blocks = event["message"]["content"].as_array().cloned();
                for block in blocks.unwrap_or_default() {
                    if block["type"] == "tool_result" {
                        report.tool_results.push(result_text(&block["content"]));
                    }
                }
            }
            Some("result") => result = Some(event),
            _ => {}
        }
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
