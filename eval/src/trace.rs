//! What the agent did, as a person reviewing it reads it (seed 000 §13, "transcript
//! legibility": can a developer skim a shell transcript against an MCP trace and see
//! what the agent did?): its shell commands with what they printed, its MCP tool calls
//! with their arguments and results, and what it said between them, in the order made.
//!
//! The steps come from the agent's own event stream when it has one (`--agent-format`:
//! the command lines it typed, pipes and all), else from what the surfaces recorded —
//! the `mur` invocations the capture kept and the tool calls the agent logged in its
//! transcript, merged by time. Long outputs are cut to a few lines with their size
//! said: the trace is for skimming; the run's directory keeps everything.

use serde_json::Value;

use crate::images::Image;

/// What a tool result gave the agent: its text, and its images apart — counted as
/// images and shown by their size, not as the base64 text that carried them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Received {
    pub text: String,
    pub images: Vec<Image>,
}

impl Received {
    /// The text, then each image as [`Image::shown`] says it, a line each.
    pub fn shown(&self) -> String {
        let images = self.images.iter().map(Image::shown);
        std::iter::once(self.text.clone())
            .filter(|text| !text.is_empty())
            .chain(images)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl From<&str> for Received {
    fn from(text: &str) -> Self {
        Received {
            text: text.to_owned(),
            images: Vec::new(),
        }
    }
}

/// One thing the agent did, or said.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// A shell command line and what it printed (stdout, then stderr); its exit code
    /// when known.
    Shell {
        command: String,
        output: String,
        exit: Option<i64>,
    },
    /// An MCP tool call: the tool, its arguments (JSON), its result as received.
    Tool {
        tool: String,
        arguments: String,
        result: Received,
    },
    /// What the agent said between its calls (event streams only).
    Said(String),
}

/// The most lines, and characters, of one output the trace shows.
const MAX_LINES: usize = 8;
const MAX_CHARS: usize = 600;

/// `text` cut to what a reader skims, saying how much was left out.
fn cut(text: &str) -> String {
    let text = text.trim_end();
    let mut kept: String = text.lines().take(MAX_LINES).collect::<Vec<_>>().join("\n");
    if kept.chars().count() > MAX_CHARS {
        kept = kept.chars().take(MAX_CHARS).collect();
    }
    if kept.len() < text.len() {
        kept.push_str(&format!(" … [{} more bytes]", text.len() - kept.len()));
    }
    kept
}

/// The steps as one plain-text block: `$ command` and its output for the shell, `→ tool
/// {arguments}` and `← result` for MCP, `» what it said`.
pub fn render(steps: &[Step]) -> String {
    let mut text = String::new();
    for step in steps {
        match step {
            Step::Shell {
                command,
                output,
                exit,
            } => {
                text.push_str(&format!("$ {command}\n"));
                if !output.trim().is_empty() {
                    text.push_str(&cut(output));
                    text.push('\n');
                }
                if let Some(code) = exit.filter(|code| *code != 0) {
                    text.push_str(&format!("[exit {code}]\n"));
                }
            }
            Step::Tool {
                tool,
                arguments,
                result,
            } => {
                // A call logged without its arguments shows none, not `{}`, which
                // would say it was made with none.
                let tool = if tool.is_empty() {
                    "(tool not named)"
                } else {
                    tool
                };
                let call = match arguments.as_str() {
                    "" => tool.to_owned(),
                    arguments => format!("{tool} {arguments}"),
                };
                text.push_str(&format!("→ {call}\n← {}\n", cut(&result.shown())));
            }
            Step::Said(words) => text.push_str(&format!("» {}\n", cut(words))),
        }
    }
    text
}

/// A `mur` invocation as the capture kept it: `mur` and its words, quoted as mur's own
/// hints quote them.
pub fn command_line(argv: &[String]) -> String {
    let words = argv.iter().map(|word| mur_core::shell_word(word));
    std::iter::once("mur".to_owned())
        .chain(words)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Arguments as one line of JSON (empty when none were logged: `null` or absent).
pub fn arguments(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_reads_as_a_shell_transcript_and_a_tool_trace() {
        let steps = [
            Step::Said("I'll click + once.".to_owned()),
            Step::Shell {
                command: command_line(&["devtools".into(), "click".into(), "#btn-inc".into()]),
                output: "{\"clicked\":\"#btn-inc\"}\n".to_owned(),
                exit: Some(0),
            },
            Step::Shell {
                command: "mur devtools clik".to_owned(),
                output: "error: unknown verb `clik`\n".to_owned(),
                exit: Some(1),
            },
            Step::Tool {
                tool: "state".to_owned(),
                arguments: arguments(&serde_json::json!({"selector": "#count"})),
                result: "{\"text\":\"1\"}".into(),
            },
        ];
        assert_eq!(
            render(&steps),
            "» I'll click + once.\n\
             $ mur devtools click '#btn-inc'\n\
             {\"clicked\":\"#btn-inc\"}\n\
             $ mur devtools clik\n\
             error: unknown verb `clik`\n\
             [exit 1]\n\
             → state {\"selector\":\"#count\"}\n\
             ← {\"text\":\"1\"}\n"
        );
    }

    #[test]
    fn a_call_logged_without_arguments_shows_none_and_one_with_empty_ones_shows_them() {
        let step = |tool: &str, args: serde_json::Value| Step::Tool {
            tool: tool.to_owned(),
            arguments: arguments(&args),
            result: "ok".into(),
        };
        let steps = [
            step("click", serde_json::Value::Null),
            step("state", serde_json::json!({})),
            step("", serde_json::Value::Null),
        ];
        assert_eq!(
            render(&steps),
            "→ click\n← ok\n→ state {}\n← ok\n→ (tool not named)\n← ok\n"
        );
    }

    #[test]
    fn an_image_result_is_shown_by_its_size_not_its_base64() {
        let data = crate::images::png_base64(4, 2);
        let block = serde_json::json!({ "type": "image", "data": data, "mimeType": "image/png" });
        let image = Image::of_block(&block).expect("an image");
        let steps = [Step::Tool {
            tool: "screenshot".to_owned(),
            arguments: String::new(),
            result: Received {
                text: "Screenshot of main".to_owned(),
                images: vec![image.clone()],
            },
        }];
        assert_eq!(
            render(&steps),
            format!(
                "→ screenshot\n← Screenshot of main\n[image/png 4×2 px, {} bytes]\n",
                image.bytes
            )
        );
    }

    #[test]
    fn a_long_output_is_cut_with_its_size_said() {
        let long: String = (0..20).map(|n| format!("line {n}\n")).collect();
        let shown = cut(&long);
        assert!(shown.starts_with("line 0\nline 1\n"), "{shown}");
        assert!(
            shown.contains("line 7") && !shown.contains("line 8"),
            "{shown}"
        );
        let left = long.trim_end().len()
            - "line 0\nline 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7".len();
        assert!(
            shown.ends_with(&format!(" … [{left} more bytes]")),
            "{shown}"
        );
        let wide = "x".repeat(1000);
        assert_eq!(
            cut(&wide),
            format!("{} … [400 more bytes]", "x".repeat(600))
        );
        assert_eq!(cut("short\n"), "short");
    }
}
