//! What an agent reports about itself, read from its own output (`agent.stdout`):
//! turns, input/output/cached tokens, cost, the tool results it received, and the steps
//! of its trace (commands, tool calls, what it said). Each
//! adapter reads one documented event stream; an agent without one reports nothing
//! here, and the study still measures its context through the surface (docs/eval.md).

mod claude;
mod codex;
mod format;
mod report;

pub use format::Format;
pub use report::AgentReport;

/// What to check when an agent's stdout held no event of the format given: the one
/// advice a run's note and the report's warning both give.
pub const NO_EVENTS_HINT: &str = "check the agent's flags (Claude Code writes its stream \
     with `--output-format stream-json --verbose`; Codex with `exec --json`)";

/// Reads `output` (the agent's stdout) as `format`. Lines that are not events of the
/// format are skipped: text, and JSON that is none of its events (an agent's or a
/// wrapper's own log line, `{"debug": 1}`), which would otherwise say the stream was
/// read when it held no event at all.
pub fn read(format: Format, output: &str) -> AgentReport {
    let seen = std::cell::Cell::new(0usize);
    let is_event = match format {
        Format::StreamJson => claude::is_event,
        Format::CodexJson => codex::is_event,
    };
    let events = output
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line.trim()).ok())
        .filter(is_event)
        .inspect(|_| seen.set(seen.get() + 1));
    let mut report = match format {
        Format::StreamJson => claude::read(events),
        Format::CodexJson => codex::read(events),
    };
    report.no_events = seen.get() == 0;
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Received;

    fn fixture(name: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// A report's input, cached and output tokens, in that order: one assert compares
    /// the three, each of which may be unreported on its own.
    fn tokens(report: &AgentReport) -> (Option<u64>, Option<u64>, Option<u64>) {
        (
            report.input_tokens,
            report.cached_tokens,
            report.output_tokens,
        )
    }

    #[test]
    fn output_without_one_event_is_said_to_hold_none() {
        for format in [Format::StreamJson, Format::CodexJson] {
            let report = read(format, "Hello, I am an agent\n{not json\n[1,2]\n");
            assert!(report.no_events, "{format:?}");
            assert_eq!(report.turns, None);
            let said = serde_json::to_value(&report).expect("json");
            assert_eq!(said["noEvents"], true);
        }
        let report = read(Format::StreamJson, &fixture("claude-stream.jsonl"));
        assert!(!report.no_events);
        let said = serde_json::to_value(&report).expect("json");
        assert_eq!(said.get("noEvents"), None, "absent when false");
    }

    #[test]
    fn json_that_is_no_event_of_the_format_is_skipped() {
        // An agent's own log lines, and the other format's events.
        let stray = [
            r#"{"debug": 1}"#,
            r#"{"type": "note", "text": "hi"}"#,
            r#"{"type": "assistant"}"#,
            r#"{"type": "item.completed"}"#,
        ];
        let claude_line = r#"{"type":"result","subtype":"success","num_turns":9}"#;
        let codex_line = r#"{"type":"turn.completed","usage":{"input_tokens":5}}"#;
        for (format, fixture_name, other) in [
            (Format::StreamJson, "claude-stream.jsonl", codex_line),
            (Format::CodexJson, "codex-exec.jsonl", claude_line),
        ] {
            let mut lines: Vec<&str> = stray.to_vec();
            lines.push(other);
            let alone = read(format, &lines.join("\n"));
            assert!(alone.no_events, "{format:?}: {alone:?}");
            assert_eq!(
                (alone.turns, alone.input_tokens),
                (None, None),
                "{format:?}"
            );
            // Between a stream's events they change nothing.
            let stream = fixture(fixture_name);
            let mixed: String = stream
                .lines()
                .flat_map(|line| [line].into_iter().chain(lines.iter().copied()))
                .map(|line| format!("{line}\n"))
                .collect();
            assert_eq!(read(format, &mixed), read(format, &stream), "{format:?}");
        }
    }

    #[test]
    fn claude_codes_stream_gives_its_result_events_figures() {
        let report = read(Format::StreamJson, &fixture("claude-stream.jsonl"));
        assert_eq!(report.format, Format::StreamJson);
        assert_eq!(report.turns, Some(4));
        // input_tokens + cache_creation_input_tokens + cache_read_input_tokens
        assert_eq!(report.input_tokens, Some(12 + 2_300 + 49_100));
        assert_eq!(report.cached_tokens, Some(49_100));
        assert_eq!(report.output_tokens, Some(160));
        assert_eq!(report.cost_usd, Some(0.0421));
        assert_eq!(report.tool_results.len(), 3);
        assert!(report.tool_results[0].starts_with("# Driving an app"));
        assert_eq!(report.tool_results[2], "{\"text\":\"3\"}");
    }

    #[test]
    fn a_claude_stream_cut_short_sums_its_assistant_messages() {
        let stream = fixture("claude-stream.jsonl");
        let cut: String = stream
            .lines()
            .filter(|line| !line.contains("\"type\":\"result\""))
            .map(|line| format!("{line}\n"))
            .collect();
        let report = read(Format::StreamJson, &cut);
        // Four distinct assistant messages; one was streamed as two events.
        assert_eq!(report.turns, Some(4));
        assert_eq!(report.output_tokens, Some(60 + 45 + 30 + 25));
        let input =
            (4 + 1_200 + 11_000) + (3 + 600 + 12_200) + (3 + 300 + 12_800) + (2 + 200 + 13_100);
        assert_eq!(report.input_tokens, Some(input));
        assert_eq!(
            report.cached_tokens,
            Some(11_000 + 12_200 + 12_800 + 13_100)
        );
        assert_eq!(report.cost_usd, None);
    }

    #[test]
    fn codexs_stream_sums_its_turns_usage() {
        let report = read(Format::CodexJson, &fixture("codex-exec.jsonl"));
        assert_eq!(report.format, Format::CodexJson);
        assert_eq!(report.turns, Some(2));
        assert_eq!(report.input_tokens, Some(24_763 + 8_120));
        assert_eq!(report.cached_tokens, Some(24_448 + 7_936));
        assert_eq!(report.output_tokens, Some(122 + 48));
        assert_eq!(report.cost_usd, None);
        assert_eq!(report.tool_results.len(), 3);
        assert!(report.tool_results[0].starts_with("# Driving an app"));
        assert_eq!(report.tool_results[1], "{\"text\":\"0\"}\n");
        assert_eq!(report.tool_results[2], "clicked #btn-inc");
        assert_eq!(report.mcp_results, [Received::from("clicked #btn-inc")]);
    }

    #[test]
    fn claude_codes_mcp_results_are_told_from_its_own_tools() {
        let stream = [
            r##"{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"mur devtools state"}},{"type":"tool_use","id":"t2","name":"mcp__devtools__click","input":{"selector":"#b"}}]}}"##,
            r##"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"{\"count\":0}"},{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"clicked"}]}]}}"##,
        ]
        .join("\n");
        let report = read(Format::StreamJson, &stream);
        assert_eq!(report.tool_results, ["{\"count\":0}", "clicked"]);
        assert_eq!(report.mcp_results, [Received::from("clicked")]);
    }

    /// The stream is the agent's output: token counts whose sum passes `u64::MAX` leave
    /// that figure unreported, with a note, never a panic (or a wrapped sum).
    #[test]
    fn token_sums_that_overflow_are_not_reported_and_said() {
        let max = u64::MAX;
        let note = |name: &str| {
            format!("`{name}` overflowed: the stream's token counts sum past {max}; not reported")
        };
        let claude = [
            format!(
                r#"{{"type":"assistant","message":{{"id":"m1","content":[],"usage":{{"input_tokens":{max},"cache_creation_input_tokens":1,"output_tokens":1}}}}}}"#
            ),
            format!(
                r#"{{"type":"assistant","message":{{"id":"m2","content":[],"usage":{{"input_tokens":1,"output_tokens":{max}}}}}}}"#
            ),
        ]
        .join("\n");
        let report = read(Format::StreamJson, &claude);
        assert_eq!(report.turns, Some(2));
        assert_eq!(tokens(&report), (None, Some(0), None));
        assert_eq!(report.notes, [note("inputTokens"), note("outputTokens")]);
        // The same figures in the `result` event.
        let result = format!(
            r#"{{"type":"result","subtype":"success","num_turns":1,"usage":{{"input_tokens":{max},"cache_read_input_tokens":{max},"output_tokens":3}}}}"#
        );
        let report = read(Format::StreamJson, &result);
        assert_eq!(tokens(&report), (None, Some(max), Some(3)));
        assert_eq!(report.notes, [note("inputTokens")]);
        let codex = format!(
            "{{\"type\":\"turn.completed\",\"usage\":{{\"input_tokens\":{max},\"output_tokens\":1}}}}\n\
             {{\"type\":\"turn.completed\",\"usage\":{{\"input_tokens\":5,\"output_tokens\":1}}}}"
        );
        let report = read(Format::CodexJson, &codex);
        assert_eq!(report.turns, Some(2));
        assert_eq!(tokens(&report), (None, Some(0), Some(2)));
        assert_eq!(report.notes, [note("inputTokens")]);
    }

    /// A figure no event carried is unreported (`null`), not 0: a Codex turn that failed
    /// (an `error`, no `usage`), a Claude `result` without usage.
    #[test]
    fn tokens_no_usage_carried_are_not_reported_as_zero() {
        let failed = [
            r#"{"type":"thread.started","thread_id":"t1"}"#,
            r#"{"type":"turn.started"}"#,
            r#"{"type":"turn.failed","error":{"message":"stream disconnected before completion"}}"#,
        ]
        .join("\n");
        let report = read(Format::CodexJson, &failed);
        assert_eq!(report.turns, Some(1));
        assert_eq!(tokens(&report), (None, None, None));
        // Beside a turn that reported its usage, the failed one adds nothing.
        let completed = r#"{"type":"turn.completed","usage":{"input_tokens":7,"cached_input_tokens":2,"output_tokens":3}}"#;
        let report = read(Format::CodexJson, &format!("{completed}\n{failed}"));
        assert_eq!(report.turns, Some(2));
        assert_eq!(tokens(&report), (Some(7), Some(2), Some(3)));
        for usage in [
            "",
            r#","usage":null"#,
            r#","usage":{"input_tokens":"many"}"#,
        ] {
            let result = format!(r#"{{"type":"result","subtype":"success","num_turns":2{usage}}}"#);
            let report = read(Format::StreamJson, &result);
            assert_eq!(report.turns, Some(2), "{usage}");
            assert_eq!(tokens(&report), (None, None, None), "{usage}");
            // After messages that carried usage, theirs is the figure.
            let message = r#"{"type":"assistant","message":{"id":"m1","content":[],"usage":{"input_tokens":4,"output_tokens":6}}}"#;
            let report = read(Format::StreamJson, &format!("{message}\n{result}"));
            assert_eq!(tokens(&report), (Some(4), Some(0), Some(6)), "{usage}");
        }
        assert!(report.notes.is_empty());
    }

    #[test]
    fn output_that_is_no_event_stream_reports_nothing() {
        let report = read(Format::CodexJson, "hello\nnot json\n[1,2]\n");
        assert_eq!(report.turns, None);
        assert_eq!(report.input_tokens, None);
        assert!(report.tool_results.is_empty());
    }

    #[test]
    fn each_stream_gives_the_steps_of_its_trace_in_order() {
        let render =
            |name: &str, format: Format| crate::trace::render(&read(format, &fixture(name)).steps);
        // Both fixtures' agents read the guide first.
        let guide = "$ mur devtools guide\n# Driving an app with mur\n\nmur devtools tree, state, click ...\n";
        let claude = render("claude-stream.jsonl", Format::StreamJson);
        assert_eq!(
            claude.strip_prefix(guide),
            Some(
                "» I'll click + three times.\n\
             $ for i in 1 2 3; do mur devtools click '#btn-inc'; done\n\
             {\"clicked\":\"#btn-inc\"}\n\
             {\"clicked\":\"#btn-inc\"}\n\
             {\"clicked\":\"#btn-inc\"}\n\
             $ mur devtools state --selector '#count'\n\
             {\"text\":\"3\"}\n\
             » The count is 3.\n"
            )
        );
        // Codex: its `bash -lc` wrapper left out, an MCP call with its arguments.
        let codex = render("codex-exec.jsonl", Format::CodexJson);
        assert_eq!(
            codex.strip_prefix(guide),
            Some(
                "$ mur devtools state --selector '#count'\n\
             {\"text\":\"0\"}\n\
             » The count is 0; clicking + next.\n\
             → click {\"selector\":\"#btn-inc\"}\n\
             ← clicked #btn-inc\n\
             » Done.\n"
            )
        );
    }
}
