//! Context bytes and tokens of one run, for any agent: (a) what the surface put before
//! the agent before its first call — the condition's instructions, then the tool
//! schemas an MCP client loads (`tools/list`), or what a CLI agent read of `guide`,
//! `catalog`, `--help` and `call tools/list`; (b) every result it received.
//!
//! When the agent's event stream was read and carries its tool results, those are what
//! the model received, for every surface: a shell command's output after the agent's own
//! pipes (`mur … | jq`, `> file`), an MCP tool's result. Only an agent that gives no
//! stream is measured from what the surfaces recorded: what `mur` printed (stdout and
//! stderr, kept by the `mur` the cli conditions put on PATH, see `mur-eval-capture`) —
//! an upper bound, since output the agent piped away is counted whole — and the MCP tool
//! results it logged in its transcript (`MUR_EVAL_TRANSCRIPT`). Binary output (a PNG
//! sent to a file) is no text the agent read and counts nothing. An image a result
//! carried (an MCP `screenshot`, the agent's `Read` of a PNG) counts as an image, not as
//! its base64 text: its own bytes, and the tokens of its pixel size
//! ([`crate::images`]); one whose pixel size cannot be read counts no tokens, and the
//! run says how many.

use std::path::Path;

use serde::Deserialize;

use super::result::Context;
use crate::adapters::AgentReport;
use crate::images::Image;
use crate::tokens::Size;
use crate::trace::{Received, Step};

/// The file, in a run's directory, where the `mur` of a cli condition records each
/// invocation (schema `mur-eval-capture/1`).
pub const CAPTURE_FILE: &str = "captured.jsonl";
/// The file, in a run's directory, where an agent may log what it read and received
/// (schema `mur-eval-transcript/1`, path in `MUR_EVAL_TRANSCRIPT`).
pub const TRANSCRIPT_FILE: &str = "transcript.jsonl";

/// One `mur` invocation as the capture recorded it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Captured {
    /// The words after `mur`.
    pub argv: Vec<String>,
    #[serde(default)]
    pub stdout: String,
    #[serde(default)]
    pub stderr: String,
    /// mur's exit code.
    pub exit: Option<i64>,
    /// When it started, milliseconds since the Unix epoch.
    pub time: Option<f64>,
    /// The size of its stdout, stderr when that was not text (then `stdout`, `stderr`
    /// is empty).
    pub stdout_binary: Option<u64>,
    pub stderr_binary: Option<u64>,
}

impl Captured {
    /// What it printed as text (binary output is none).
    pub fn text(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }

    /// What it printed, for people: binary output said by its size.
    pub fn shown(&self) -> String {
        let binary = |size: Option<u64>| {
            size.map(|n| format!("[{n} bytes of binary output]\n"))
                .unwrap_or_default()
        };
        format!(
            "{}{}{}{}",
            self.stdout,
            binary(self.stdout_binary),
            self.stderr,
            binary(self.stderr_binary)
        )
    }

    /// Whether the invocation reads documentation or schemas rather than calling a tool
    /// ([`reads_only`] of its words).
    pub fn is_read(&self) -> bool {
        reads_only(self.argv.iter().map(String::as_str))
    }
}

/// Whether `mur` with the words `argv` reads documentation or schemas rather than calling
/// a tool: help, and mur's own commands that call no tool of the session (`call
/// tools/list` aside). Not the host's list of its commands, which this crate cannot see:
/// kept by hand, `bridge` and `proxy` left out as what starts a surface, not what reads
/// one.
fn reads_only<'a>(argv: impl Iterator<Item = &'a str>) -> bool {
    let words: Vec<&str> = argv.filter(|w| *w != "devtools").collect();
    let first = words.iter().find(|w| !w.starts_with('-')).copied();
    words.iter().any(|w| matches!(*w, "--help" | "-h"))
        || matches!(
            first,
            None | Some("guide" | "catalog" | "parity" | "usage" | "help" | "verbs" | "session")
        )
        || (first == Some("call") && words.contains(&"tools/list"))
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
    /// The image blocks it got (MCP's shape, `{"type":"image","data":…,"mimeType":…}`),
    /// apart from `text`: counted as images, not as their base64.
    #[serde(default)]
    pub images: Vec<serde_json::Value>,
    /// A tool call's arguments (`result` lines; for the trace).
    #[serde(default)]
    pub arguments: serde_json::Value,
    /// Milliseconds since the Unix epoch (for the trace's order beside the capture).
    pub time: Option<f64>,
}

impl Logged {
    /// What it got: its text, and its image blocks as images (an entry that is no image
    /// block, none).
    pub fn received(&self) -> Received {
        Received {
            text: self.text.clone(),
            images: self.images.iter().filter_map(Image::of_block).collect(),
        }
    }
}

/// The most of a file of the agent's that is read (`captured.jsonl`, the transcript).
pub const LINES_CAP: u64 = 8 << 20;

/// What the surfaces recorded in a run's directory, read once for every figure and the
/// trace: the `mur` invocations the capture kept (`captured.jsonl`) and what the agent
/// logged (`transcript.jsonl`), with a note for each file not read whole.
#[derive(Debug, Default)]
pub struct Recorded {
    pub captured: Vec<Captured>,
    pub logged: Vec<Logged>,
    pub notes: Vec<String>,
}

impl Recorded {
    pub fn read(dir: &Path) -> Self {
        let (captured, captured_notes) = read_lines(&dir.join(CAPTURE_FILE), |_: &Captured| true);
        // A line of another kind is no record of the transcript's schema: counted as
        // neither, and said, as a line that is no JSON is.
        let (logged, logged_notes) = read_lines(&dir.join(TRANSCRIPT_FILE), |l: &Logged| {
            matches!(l.kind.as_str(), "read" | "result")
        });
        Self {
            captured,
            logged,
            notes: captured_notes.into_iter().chain(logged_notes).collect(),
        }
    }
}

/// The records of the JSON Lines file at `path` (what of its first [`LINES_CAP`] bytes
/// parses and `keep` takes; none when it is missing or not a regular file), with a note
/// when the file was not read whole: not a regular file (a FIFO the agent left there is
/// never waited on), or past the cap; and one naming the lines left out as no record.
fn read_lines<T: for<'de> Deserialize<'de>>(
    path: &Path,
    keep: impl Fn(&T) -> bool,
) -> (Vec<T>, Vec<String>) {
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
                    mur_core::settings::human_bytes(LINES_CAP),
                    mur_core::settings::human_bytes(LINES_CAP)
                )
            });
            (read.bytes, note)
        }
        Err(why) => (Vec::new(), Some(format!("`{name}` not read: {why}"))),
    };
    let mut records = Vec::new();
    let mut left_out = Vec::new();
    for (number, line) in String::from_utf8_lossy(&bytes).lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<T>(line) {
            Ok(record) if keep(&record) => records.push(record),
            _ => left_out.push((number + 1).to_string()),
        }
    }
    let mut notes: Vec<String> = note.into_iter().collect();
    if !left_out.is_empty() {
        let shown = left_out
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        let more = if left_out.len() > 5 { ", …" } else { "" };
        notes.push(format!(
            "`{name}`: {} no record of its schema, left out (line {shown}{more})",
            match left_out.len() {
                1 => "1 line is".to_owned(),
                n => format!("{n} lines are"),
            }
        ));
    }
    (records, notes)
}

/// The context of the run whose directory held `recorded`. `schemas` is the
/// `tools/list` result an MCP client loads (mcp conditions); `agent` what the agent's
/// event stream reported; `mcp_calls` the MCP calls the session served it.
pub fn measure(
    recorded: &Recorded,
    instructions: &str,
    schemas: Option<&str>,
    agent: Option<&AgentReport>,
    mcp_calls: u32,
) -> Context {
    let mut before = vec![Received::from(instructions)];
    before.extend(schemas.map(Received::from));
    let mut results = Vec::new();
    let streamed = agent.filter(|a| a.steps.iter().any(|s| !matches!(s, Step::Said(_))));
    let (mcp_seen, captured_output) = match streamed {
        Some(agent) => (from_stream(agent, &mut before, &mut results), false),
        None => from_records(
            &recorded.captured,
            &recorded.logged,
            &mut before,
            &mut results,
        ),
    };
    // The results of MCP calls reach the count only from the stream or the transcript:
    // without either, the session served calls whose results nothing here saw.
    let mcp_results_unseen = mcp_calls > 0 && !mcp_seen;
    let images: Vec<&Image> = before
        .iter()
        .chain(&results)
        .flat_map(|r| &r.images)
        .collect();
    let before: Size = before.iter().map(size).sum();
    let result_size: Size = results.iter().map(size).sum();
    Context {
        before,
        results: result_size,
        result_count: results.len() as u32,
        total: before.add(result_size),
        mcp_results_unseen,
        captured_output,
        images: images.len() as u32,
        images_unsized: images.iter().filter(|i| i.tokens().is_none()).count() as u32,
        images_size: (!images.is_empty()).then(|| images.iter().map(|i| image_size(i)).sum()),
    }
}

/// What a result put before the agent: its text's bytes and tokens, and each image's own
/// bytes and estimated tokens ([`Image::tokens`]; none when its pixel size is unknown).
fn size(received: &Received) -> Size {
    let images = received.images.iter().map(image_size);
    std::iter::once(Size::of(&received.text))
        .chain(images)
        .sum()
}

/// An image's own bytes and estimated tokens (none when its pixel size is unknown).
fn image_size(image: &Image) -> Size {
    Size {
        bytes: image.bytes,
        tokens: image.tokens().unwrap_or(0),
    }
}

/// What the agent's event stream says it received, in order: a shell command's output
/// (as the model got it, after the agent's pipes) and a tool's result. Before its first
/// call: the output of commands that only read (`mur devtools guide`, `--help`, or no
/// `mur` at all) and of the agent's own tools (a file read); its first MCP call, or
/// `mur` command that calls a tool, ends that. Whether it carried an MCP result.
fn from_stream(
    agent: &AgentReport,
    before: &mut Vec<Received>,
    results: &mut Vec<Received>,
) -> bool {
    // The stream's MCP results, in order: the tool steps they answer are MCP calls (the
    // agent's own tools, Read or Write, are not).
    let mut mcp = agent.mcp_results.iter().peekable();
    let mut called = false;
    for step in &agent.steps {
        let got = match step {
            Step::Shell {
                command, output, ..
            } => {
                called |= calls_mur(command);
                Received::from(output.as_str())
            }
            Step::Tool { result, .. } => {
                if mcp.peek().is_some_and(|next| *next == result) {
                    mcp.next();
                    called = true;
                }
                result.clone()
            }
            Step::Said(_) => continue,
        };
        if called {
            results.push(got);
        } else {
            before.push(got);
        }
    }
    !agent.mcp_results.is_empty()
}

/// Whether a shell command line runs `mur` for something other than reading its
/// documentation: a word `mur` (or a path ending in `/mur`) followed by a verb or
/// command that calls a tool ([`reads_only`] of the words after it).
fn calls_mur(command: &str) -> bool {
    let words: Vec<String> = shlex::split(command)
        .unwrap_or_else(|| command.split_whitespace().map(str::to_owned).collect());
    words.iter().enumerate().any(|(at, word)| {
        (word == "mur" || word.ends_with("/mur")) && {
            let argv = words[at + 1..].iter().map(String::as_str);
            !reads_only(argv.take_while(|w| !matches!(*w, "|" | "&&" | "||" | ";" | ">" | "2>")))
        }
    })
}

/// Without an event stream: what `mur` printed, as the capture kept it (counted whole,
/// whatever the agent did with it), and the results the agent logged in its transcript.
/// Whether an MCP result was seen, and whether `mur`'s output was counted.
fn from_records(
    captured: &[Captured],
    logged: &[Logged],
    before: &mut Vec<Received>,
    results: &mut Vec<Received>,
) -> (bool, bool) {
    // Reads count before the first call only while no call has been made: the guide read
    // later is a result like any other.
    let mut called = false;
    for call in captured {
        called |= !call.is_read();
        let got = Received::from(call.text().as_str());
        if called {
            results.push(got);
        } else {
            before.push(got);
        }
    }
    for line in logged {
        match line.kind.as_str() {
            "read" => before.push(line.received()),
            "result" => results.push(line.received()),
            _ => {}
        }
    }
    (
        logged.iter().any(|l| l.kind == "result"),
        captured.iter().any(|c| !c.is_read()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::count;

    #[test]
    fn transcript_lines_that_are_no_record_are_left_out_and_said() {
        let dir = tempfile::tempdir().expect("tempdir");
        let lines = "{\"kind\":\"result\",\"what\":\"state\",\"text\":\"3\"}\n\
                     \u{fffd} garbage\n\n{\"kind\":\"weird\",\"text\":\"x\"}\n";
        std::fs::write(dir.path().join(TRANSCRIPT_FILE), lines).expect("write");
        let recorded = Recorded::read(dir.path());
        assert_eq!(recorded.logged.len(), 1);
        assert_eq!(
            recorded.notes,
            ["`transcript.jsonl`: 2 lines are no record of its schema, left out (line 2, 4)"]
        );
    }

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
        let context = measure(&Recorded::read(dir.path()), "Use mur.", None, None, 0);
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
        let context = measure(
            &Recorded::read(dir.path()),
            "Use the MCP server.",
            Some(schemas),
            None,
            1,
        );
        assert_eq!(
            context.before,
            Size::of("Use the MCP server.").add(Size::of(schemas))
        );
        assert_eq!(context.results, Size::of("{\"count\":3}"));
        assert_eq!(context.result_count, 1);
    }

    /// A stream's shell command and what the model got of it.
    fn shell(command: &str, output: &str) -> Step {
        Step::Shell {
            command: command.to_owned(),
            output: output.to_owned(),
            exit: None,
        }
    }

    /// A stream's tool call (an MCP tool's, or the agent's own) and its result.
    fn tool(name: &str, result: &str) -> Step {
        Step::Tool {
            tool: name.to_owned(),
            arguments: String::new(),
            result: result.into(),
        }
    }

    /// A capture line of `mur ARGV` that printed `stdout`.
    fn captured(argv: &[&str], stdout: &str) -> String {
        serde_json::json!({ "schema": "mur-eval-capture/1", "argv": argv, "exit": 0, "stdout": stdout, "stderr": "" })
            .to_string()
    }

    #[test]
    fn without_a_capture_or_a_transcript_the_event_streams_results_count() {
        let dir = tempfile::tempdir().expect("tempdir");
        let agent = AgentReport {
            mcp_results: vec!["one".into(), "two".into()],
            steps: vec![tool("click", "one"), tool("state", "two")],
            ..AgentReport::new(crate::adapters::Format::StreamJson)
        };
        let context = measure(&Recorded::read(dir.path()), "", None, Some(&agent), 2);
        assert_eq!(context.result_count, 2);
        assert_eq!(context.results, Size::of("one").add(Size::of("two")));
        assert!(!context.mcp_results_unseen && !context.captured_output);
    }

    #[test]
    fn with_an_event_stream_what_the_agent_received_counts_not_what_mur_printed() {
        let dir = tempfile::tempdir().expect("tempdir");
        // mur printed a whole tree and state, and three clicks' results ...
        let tree = "{\"nodes\":[{\"id\":\"a\"},{\"id\":\"b\"}],\"more\":\"x\"}";
        let log = [
            captured(&["devtools", "guide"], "the guide, long"),
            captured(&["devtools", "tree"], tree),
            captured(&["devtools", "state"], "{\"counter\":{\"count\":0}}"),
            captured(&["devtools", "click", "#btn-inc"], "{\"clicked\":true}\n"),
        ]
        .join("\n");
        std::fs::write(dir.path().join(CAPTURE_FILE), log + "\n").expect("write");
        // ... which went into jq and /dev/null: the model got "2" and "0", and nothing.
        let agent = AgentReport {
            steps: vec![
                Step::Said("Let me look.".to_owned()),
                shell("mur devtools guide | head -3", "the guide"),
                tool("Read", "my notes"),
                shell("mur devtools tree | jq -c '.nodes|length'", "2\n"),
                shell("mur devtools state | jq .counter.count", "0\n"),
                shell("mur devtools click '#btn-inc' > /dev/null", ""),
            ],
            ..AgentReport::new(crate::adapters::Format::StreamJson)
        };
        let context = measure(
            &Recorded::read(dir.path()),
            "Use mur.",
            None,
            Some(&agent),
            0,
        );
        assert_eq!(
            context.before,
            Size::of("Use mur.")
                .add(Size::of("the guide"))
                .add(Size::of("my notes"))
        );
        assert_eq!(context.result_count, 3);
        assert_eq!(context.results, Size::of("2\n").add(Size::of("0\n")));
        assert!(!context.captured_output);
        // Without the stream: what mur printed, whole, and said to be so.
        let context = measure(&Recorded::read(dir.path()), "Use mur.", None, None, 0);
        assert_eq!(context.result_count, 3);
        assert!(context.results.bytes > 60, "{:?}", context.results);
        assert!(context.captured_output);
    }

    /// A screenshot's image block, as Claude Code's stream gives an MCP tool's image and
    /// its own `Read` of a PNG (the Anthropic API's shape), and MCP's shape as the
    /// scripted MCP agent logs it.
    fn anthropic_image(data: &str) -> serde_json::Value {
        serde_json::json!({ "type": "image",
            "source": { "type": "base64", "media_type": "image/png", "data": data } })
    }

    #[test]
    fn an_image_in_a_streamed_result_counts_as_an_image_not_as_its_base64() {
        let data = crate::images::png_base64(800, 600);
        let png_bytes = base64::Engine::decode(&base64::engine::general_purpose::STANDARD, &data)
            .expect("base64")
            .len() as u64;
        let content = serde_json::json!([{ "type": "text", "text": "Screenshot of main" }, anthropic_image(&data)]);
        let read = serde_json::json!([anthropic_image(&data)]);
        // The agent reads a PNG with its own tool, then takes a screenshot over MCP.
        let stream = [
            serde_json::json!({"type":"assistant","message":{"id":"m1","content":[
                {"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"old.png"}},
                {"type":"tool_use","id":"t2","name":"mcp__mur-sample__screenshot","input":{}}]}}),
            serde_json::json!({"type":"user","message":{"content":[
                {"type":"tool_result","tool_use_id":"t1","content":read},
                {"type":"tool_result","tool_use_id":"t2","content":content}]}}),
        ]
        .map(|event| event.to_string())
        .join("\n");
        let agent = crate::adapters::read(crate::adapters::Format::StreamJson, &stream);
        let dir = tempfile::tempdir().expect("tempdir");
        let context = measure(&Recorded::read(dir.path()), "", None, Some(&agent), 1);
        // 800 × 600 / 750 tokens each, and the PNG's own bytes: not ~2 000 base64 tokens.
        let image = Size {
            bytes: png_bytes,
            tokens: 640,
        };
        assert_eq!(context.before, image, "the Read before the first call");
        assert_eq!(context.results, Size::of("Screenshot of main").add(image));
        assert_eq!((context.images, context.images_unsized), (2, 0));
        // The images' share of those, recorded apart (report.csv's image columns).
        assert_eq!(context.images_size, Some(image.add(image)));
        assert!(count(&data) > 640, "the base64 would count more");
    }

    #[test]
    fn a_logged_image_counts_as_an_image_and_one_of_unknown_size_is_counted_apart() {
        let dir = tempfile::tempdir().expect("tempdir");
        let data = crate::images::png_base64(150, 100);
        let gif = "R0lGODlhAQABAAAAACw="; // a GIF: no PNG or JPEG header to read
        let line = serde_json::json!({ "kind": "result", "what": "screenshot", "text": "",
            "images": [{ "type": "image", "data": data, "mimeType": "image/png" },
                       { "type": "image", "data": gif, "mimeType": "image/gif" }] });
        std::fs::write(dir.path().join(TRANSCRIPT_FILE), format!("{line}\n")).expect("write");
        let context = measure(&Recorded::read(dir.path()), "", None, None, 1);
        assert_eq!(context.result_count, 1);
        assert_eq!(context.results.tokens, 20, "150 × 100 / 750, the GIF none");
        assert_eq!((context.images, context.images_unsized), (2, 1));
        // Both images' bytes, the PNG's tokens alone.
        let png = base64::Engine::decode(&base64::engine::general_purpose::STANDARD, &data)
            .expect("base64")
            .len() as u64;
        assert_eq!(
            context.images_size,
            Some(Size {
                bytes: png + 14,
                tokens: 20
            })
        );
        assert!(!context.mcp_results_unseen);
    }

    #[test]
    fn binary_output_counts_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        // `mur devtools screenshot --out - > shot.png`: the capture keeps its size.
        let line = serde_json::json!({ "schema": "mur-eval-capture/1",
            "argv": ["devtools", "screenshot", "--out", "-"], "exit": 0,
            "stdout": "", "stdoutBinary": 2388, "stderr": "" });
        std::fs::write(dir.path().join(CAPTURE_FILE), format!("{line}\n")).expect("write");
        let context = measure(&Recorded::read(dir.path()), "", None, None, 0);
        assert_eq!(
            (context.result_count, context.results),
            (1, Size::default())
        );
        let call: Captured = serde_json::from_value(line).expect("a capture line");
        assert_eq!(call.shown(), "[2388 bytes of binary output]\n");
    }

    #[test]
    fn mcp_calls_whose_results_nothing_logged_are_said_unseen() {
        let dir = tempfile::tempdir().expect("tempdir");
        // No transcript, no event stream: the schemas alone are counted, and said so.
        let context = measure(
            &Recorded::read(dir.path()),
            "",
            Some("{\"tools\":[]}"),
            None,
            3,
        );
        assert_eq!(context.result_count, 0);
        assert!(context.mcp_results_unseen);
        // Under `both`, what `mur` printed is counted but not the MCP results.
        std::fs::write(
            dir.path().join(CAPTURE_FILE),
            captured(&["devtools", "click", "#b"], "{}") + "\n",
        )
        .expect("write");
        let context = measure(&Recorded::read(dir.path()), "", None, None, 1);
        assert_eq!(context.result_count, 1);
        assert!(context.mcp_results_unseen);
        // ... unless the agent's event stream carries them: then the stream says all it
        // received, through either surface.
        let agent = AgentReport {
            mcp_results: vec!["{\"count\":3}".into()],
            steps: vec![
                shell("mur devtools click '#b'", "{}"),
                tool("state", "{\"count\":3}"),
            ],
            ..AgentReport::new(crate::adapters::Format::StreamJson)
        };
        let context = measure(&Recorded::read(dir.path()), "", None, Some(&agent), 1);
        assert_eq!(context.result_count, 2);
        assert_eq!(
            context.results,
            Size::of("{}").add(Size::of("{\"count\":3}"))
        );
        assert!(!context.mcp_results_unseen);
        // Without MCP calls nothing is missing.
        let context = measure(&Recorded::read(dir.path()), "", None, None, 0);
        assert!(!context.mcp_results_unseen);
        // A transcript that logs the results: counted.
        std::fs::write(
            dir.path().join(TRANSCRIPT_FILE),
            "{\"kind\":\"result\",\"text\":\"3\"}\n",
        )
        .expect("write");
        let context = measure(&Recorded::read(dir.path()), "", None, None, 1);
        assert!(!context.mcp_results_unseen);
    }
}
