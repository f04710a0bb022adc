//! Codex's `exec --json`: `thread.started`, then per turn `turn.started`, `item.*`
//! events (`agent_message`, `reasoning`, `command_execution` with its
//! `aggregated_output`, `mcp_tool_call` with its `result`, …) and `turn.completed` (or
//! `turn.failed`) carrying the turn's `usage`: `input_tokens` (cached ones included),
//! `cached_input_tokens`, `output_tokens`. Codex reports no cost.

use serde_json::Value;

use super::{AgentReport, result_text};

pub fn read(events: impl Iterator<Item = Value>) -> AgentReport {
    let mut report = AgentReport::default();
    let mut turns = 0;
    let (mut input, mut cached, mut output) = (0, 0, 0);
    for event in events {
        match event["type"].as_str() {
            Some("turn.completed" | "turn.failed") => {
                turns += 1;
                let usage = &event["usage"];
                input += usage["input_tokens"].as_u64().unwrap_or(0);
                cached += usage["cached_input_tokens"].as_u64().unwrap_or(0);
                output += usage["output_tokens"].as_u64().unwrap_or(0);
            }
            Some("item.completed") => {
                let item = &event["item"];
                match item["type"].as_str() {
                    Some("command_execution") => report
                        .tool_results
                        .push(result_text(&item["aggregated_output"])),
                    Some("mcp_tool_call") => {
                        let result = &item["result"];
                        let text = match &result["content"] {
                            Value::Null => result_text(&item["error"]),
                            content => result_text(content),
                        };
                        report.tool_results.push(text);
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    if turns > 0 {
        report.turns = Some(turns);
        report.input_tokens = Some(input);
        report.cached_tokens = Some(cached);
        report.output_tokens = Some(output);
    }
    report
}
