//! Context bytes and tokens of one run, for any agent: (a) what the surface put before
//! the agent before its first call — the condition's instructions, then the tool
//! schemas an MCP client loads (`tools/list`), or what a CLI agent read of `guide`,
//! `catalog`, `--help` and `call tools/list`; (b) every result it received — what `mur`
//! printed (stdout and stderr, kept by the `mur` the cli conditions put on PATH, see
//! `mur-eval-capture`), and the MCP tool results the agent logged in its transcript
//! (`MUR_EVAL_TRANSCRIPT`), else those its event stream carries (all of the stream's
//! results for an agent that ran no `mur`; its MCP results alone for one that did).

use std::path::Path;

use serde::Deserialize;

use super::result::Context;
use crate::adapters::AgentReport;
use crate::tokens::Size;

/// The file, in a run's directory, where the `mur` of a cli condition records each
/// invocation (schema `mur-eval-capture/1`).
pub const CAPTURE_FILE: &str = "captured.jsonl";
/// The file, in a run's directory, where an agent may log what it read and received
/// (schema `mur-eval-transcript/1`, path in `MUR_EVAL_TRANSCRIPT`).
pub const TRANSCRIPT_FILE: &str = "transcript.jsonl";

/// One `mur` invocation as the capture recorded it.
#[derive(Debug, Clone, Deserialize)]
pub struct Captured {
    /// The words after `mur`.
    pub argv: Vec<String>,
    #[serde(default)]
    pub stdout: String,
    #[serde(default)]
    pub stderr: String,
    /// mur's exit code.
    #[serde(default)]
    pub exit: Option<i64>,
    /// When it started, milliseconds since the Unix epoch.
    #[serde(default)]
    pub time: Option<f64>,
}

impl Captured {
    /// Whether the invocation reads documentation or schemas rather than calling a tool:
    /// help, and mur's own commands that call no tool of the session (`call tools/list`
    /// aside). Not the host's list of its commands, which this crate cannot see: kept by
    /// hand, `bridge` and `proxy` left out as what starts a surface, not what reads one.
    pub fn is_read(&self) -> bool {
        let words: Vec<&str> = self
            .argv
            .iter()
            .map(String::as_str)
            .filter(|w| *w != "devtools")
            .collect();
        let first = words.iter().find(|w| !w.starts_with('-')).copied();
        words.iter().any(|w| matches!(*w, "--help" | "-h"))
            || matches!(
                first,
                None | Some(
                    "guide" | "catalog" | "parity" | "usage" | "help" | "verbs" | "session"
                )
            )
            || (first == Some("call") && words.contains(&"tools/list"))
    }
}

/// One line an agent logged of what it read (`read`) or received (`result`).
#[derive(Debug, Clone, Deserialize)]
pub struct Logged {
    pub kind: String,
    /// The tool or command it came from.
    #[serde(default)]
    pub what: String,
    #[serde(default)]
    pub text: String,
    /// A tool call's arguments (`result` lines; for the trace).
    #[serde(default)]
    pub arguments: serde_json::Value,
    /// Milliseconds since the Unix epoch (for the trace's order beside the capture).
    #[serde(default)]
    pub time: Option<f64>,
}

/// The most of a file of the agent's that is read (`captured.jsonl`, the transcript).
pub const LINES_CAP: u64 = 8 << 20;

/// The records of the JSON Lines file at `path` (what of its first [`LINES_CAP`] bytes
/// parses; none when it is missing or not a regular file).
pub fn lines<T: for<'de> Deserialize<'de>>(path: &Path) -> Vec<T> {
    read_lines(path).0
}

/// As [`lines`], with a note when the file was not read whole: not a regular file (a
/// FIFO the agent left there is never waited on), or past the cap.
pub fn read_lines<T: for<'de> Deserialize<'de>>(path: &Path) -> (Vec<T>, Option<String>) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (bytes, note) = match crate::bounded::read_or_none(path, LINES_CAP) {
        Ok(None) => (Vec::new(), None),
        Ok(Some(read)) => {
            let note = read.cut.then(|| {
                format!(
                    "`{name}` is larger than {}: only its first {} were read",
                    crate::bounded::size(LINES_CAP),
                    crate::bounded::size(LINES_CAP)
                )
            });
            (read.bytes, note)
        }
        Err(why) => (Vec::new(), Some(format!("`{name}` not read: {why}"))),
    };
    let records = String::from_utf8_lossy(&bytes)
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    (records, note)
}

/// The context of the run in `dir`, and a note for each file not read whole. `schemas`
/// is the `tools/list` result an MCP client loads (mcp conditions); `agent` what the
/// agent's event stream reported; `mcp_calls` the MCP calls the session served it.
pub fn measure(
    dir: &Path,
    instructions: &str,
    schemas: Option<&str>,
    agent: Option<&AgentReport>,
    mcp_calls: u32,
) -> (Context, Vec<String>) {
    let (captured, captured_note): (Vec<Captured>, _) = read_lines(&dir.join(CAPTURE_FILE));
    let (logged, logged_note): (Vec<Logged>, _) = read_lines(&dir.join(TRANSCRIPT_FILE));
    let notes = captured_note.into_iter().chain(logged_note).collect();
    let mut before = vec![instructions.to_owned()];
    before.extend(schemas.map(str::to_owned));
    let mut results = Vec::new();
    // Reads count before the first call only while no call has been made: the guide read
    // later is a result like any other.
    let mut called = false;
    for call in &captured {
        let text = format!("{}{}", call.stdout, call.stderr);
        called |= !call.is_read();
        if called {
            results.push(text);
        } else {
            before.push(text);
        }
    }
    for line in &logged {
        match line.kind.as_str() {
            "read" => before.push(line.text.clone()),
            "result" => results.push(line.text.clone()),
            _ => {}
        }
    }
    // An agent that neither ran the recorded `mur` nor logged its results (a real MCP
    // client): the tool results of its own event stream. One that ran `mur` and logged
    // no results (condition `both`): its stream's MCP results beside what the capture
    // holds — not the whole stream, whose shell results repeat `mur`'s output.
    let logged_results = logged.iter().any(|l| l.kind == "result");
    let streamed = match agent {
        Some(a) if captured.is_empty() && logged.is_empty() => a.tool_results.clone(),
        Some(a) if !logged_results => a.mcp_results.clone(),
        _ => Vec::new(),
    };
    // The results of MCP calls reach the count only from the transcript or the stream:
    // without either, the session served calls whose results nothing here saw.
    let mcp_results_unseen = mcp_calls > 0 && streamed.is_empty() && !logged_results;
    results.extend(streamed);
    let before: Size = before.iter().map(|t| Size::of(t)).sum();
    let result_size: Size = results.iter().map(|t| Size::of(t)).sum();
    let context = Context {
        before,
        results: result_size,
        result_count: results.len() as u32,
        total: before.add(result_size),
        mcp_results_unseen,
    };
    (context, notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::count;

    #[test]
    fn reads_go_before_the_first_call_and_results_after() {
        let dir = tempfile::tempdir().expect("tempdir");
        let line = |argv: &[&str], out: &str| {
            serde_json::json!({ "schema": "mur-eval-capture/1", "argv": argv, "exit": 0, "stdout": out, "stderr": "" })
                .to_string()
        };
        let log = [
            line(&["devtools", "guide"], "the guide"),
            line(&["devtools", "click", "--help"], "click's help"),
            line(&["devtools", "call", "tools/list"], "{\"tools\":[]}"),
            line(&["devtools", "click", "#btn-inc"], "{\"clicked\":true}\n"),
            line(&["devtools", "state", "--help"], "state's help"),
        ]
        .join("\n");
        std::fs::write(dir.path().join(CAPTURE_FILE), log + "\n").expect("write");
        let (context, _) = measure(dir.path(), "Use mur.", None, None, 0);
        let before = ["Use mur.", "the guide", "click's help", "{\"tools\":[]}"];
        assert_eq!(
            context.before.bytes,
            before.iter().map(|t| t.len() as u64).sum::<u64>()
        );
        assert_eq!(
            context.before.tokens,
            before.iter().map(|t| count(t)).sum::<u64>()
        );
        assert_eq!(
            context.result_count, 2,
            "a read after the first call is a result"
        );
        assert_eq!(
            context.results,
            Size::of("{\"clicked\":true}\n").add(Size::of("state's help"))
        );
        assert_eq!(context.total, context.before.add(context.results));
    }

    #[test]
    fn an_mcp_run_counts_the_schemas_and_the_logged_results() {
        let dir = tempfile::tempdir().expect("tempdir");
        let logged =
            "{\"kind\":\"result\",\"what\":\"state\",\"text\":\"{\\\"count\\\":3}\"}\nnot json\n";
        std::fs::write(dir.path().join(TRANSCRIPT_FILE), logged).expect("write");
        let schemas = "{\"tools\":[{\"name\":\"state\"}]}";
        let (context, _) = measure(dir.path(), "Use the MCP server.", Some(schemas), None, 1);
        assert_eq!(
            context.before,
            Size::of("Use the MCP server.").add(Size::of(schemas))
        );
        assert_eq!(context.results, Size::of("{\"count\":3}"));
        assert_eq!(context.result_count, 1);
    }

    #[test]
    fn without_a_capture_or_a_transcript_the_event_streams_results_count() {
        let dir = tempfile::tempdir().expect("tempdir");
        let agent = AgentReport {
            tool_results: vec!["one".to_owned(), "two".to_owned()],
            ..AgentReport::default()
        };
        let (context, _) = measure(dir.path(), "", None, Some(&agent), 2);
        assert_eq!(context.result_count, 2);
        assert_eq!(context.results, Size::of("one").add(Size::of("two")));
        assert!(!context.mcp_results_unseen);
    }

    #[test]
    fn mcp_calls_whose_results_nothing_logged_are_said_unseen() {
        let dir = tempfile::tempdir().expect("tempdir");
        // No transcript, no event stream: the schemas alone are counted, and said so.
        let (context, _) = measure(dir.path(), "", Some("{\"tools\":[]}"), None, 3);
        assert_eq!(context.result_count, 0);
        assert!(context.mcp_results_unseen);
        // Under `both`, what `mur` printed is counted but not the MCP results.
        let capture = serde_json::json!({ "argv": ["devtools", "click", "#b"], "stdout": "{}" });
        std::fs::write(dir.path().join(CAPTURE_FILE), format!("{capture}\n")).expect("write");
        let (context, _) = measure(dir.path(), "", None, None, 1);
        assert_eq!(context.result_count, 1);
        assert!(context.mcp_results_unseen);
        // ... unless the agent's event stream carries them: its MCP results are added,
        // its shell results (`mur`'s output again) are not.
        let agent = AgentReport {
            tool_results: vec!["{}".to_owned(), "{\"count\":3}".to_owned()],
            mcp_results: vec!["{\"count\":3}".to_owned()],
            ..AgentReport::default()
        };
        let (context, _) = measure(dir.path(), "", None, Some(&agent), 1);
        assert_eq!(context.result_count, 2);
        assert_eq!(
            context.results,
            Size::of("{}").add(Size::of("{\"count\":3}"))
        );
        assert!(!context.mcp_results_unseen);
        // Without MCP calls nothing is missing.
        let (context, _) = measure(dir.path(), "", None, None, 0);
        assert!(!context.mcp_results_unseen);
        // A transcript that logs the results: counted.
        std::fs::write(
            dir.path().join(TRANSCRIPT_FILE),
            "{\"kind\":\"result\",\"text\":\"3\"}\n",
        )
        .expect("write");
        let (context, _) = measure(dir.path(), "", None, None, 1);
        assert!(!context.mcp_results_unseen);
    }
}
