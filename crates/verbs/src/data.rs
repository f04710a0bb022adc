//! Verbs written as data: a small JSON file (schema `mur-verb/1`) that names a
//! tool, fixed arguments, options mapped to argument fields, and what of the
//! result to print — added with `verbs add count.json` and shown in help,
//! completion and the catalog like any verb. No compiler, no code:
//!
//! ```json
//! {
//!   "schema": "mur-verb/1",
//!   "name": "count",
//!   "tool": "state",
//!   "summary": "Print the counter's value",
//!   "arguments": {"selector": "#count"},
//!   "options": [{"field": "selector", "type": "string", "help": "another element"}],
//!   "output": "/text",
//!   "examples": ["mur devtools count"]
//! }
//! ```
//!
//! `mur` interprets the file itself (there is nothing to sandbox: it is data,
//! checked when added), so a data verb costs what a derived verb does: argv is
//! checked by the same parser ([`crate::derived`]), typed by the options'
//! `type`s as a tool's `inputSchema` would type them.

use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::derived::{Derived, Request};
use crate::spec::{VerbSpec, with_tool_line};

/// The one schema this `mur` reads.
pub const SCHEMA: &str = "mur-verb/1";

/// What the verb index records as a data verb's interface.
pub const INTERFACE: &str = "data";

/// The largest data verb read: a few lines in practice.
pub const MAX_BYTES: u64 = 256 << 10;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    schema: String,
    name: String,
    tool: String,
    summary: String,
    #[serde(default)]
    details: String,
    #[serde(default)]
    arguments: Map<String, Value>,
    #[serde(default)]
    options: Vec<OptionField>,
    /// A JSON pointer into what the tool returned (its `structuredContent`,
    /// else its text read as JSON); the whole of it when absent.
    #[serde(default)]
    output: Option<String>,
    #[serde(default)]
    examples: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionField {
    /// The argument it fills; the option is `--<field in kebab-case>` (the
    /// field as written where two fields would share one).
    field: String,
    /// `string` (the default), `integer`, `number`, `boolean`, `array` of
    /// strings, or `json`.
    #[serde(default = "string")]
    r#type: String,
    #[serde(default)]
    help: String,
    #[serde(default)]
    required: bool,
    #[serde(default)]
    choices: Vec<Value>,
}

fn string() -> String {
    "string".to_owned()
}

/// A data verb, checked and ready to run.
#[derive(Debug, Clone)]
pub struct DataVerb {
    pub name: String,
    pub tool: String,
    pub summary: String,
    pub spec: VerbSpec,
    arguments: Map<String, Value>,
    output: Option<String>,
    parser: Derived,
}

impl DataVerb {
    /// Read and check a data verb file's bytes; the error says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let file: File =
            serde_json::from_slice(bytes).map_err(|e| format!("is not a data verb: {e}"))?;
        if file.schema != SCHEMA {
            return Err(format!(
                "has schema `{}`; this mur reads `{SCHEMA}`",
                file.schema
            ));
        }
        if let Some(output) = &file.output
            && !(output.is_empty() || output.starts_with('/'))
        {
            return Err(format!(
                "has output `{output}`, which is not a JSON pointer (`/text`)"
            ));
        }
        let mut properties = Map::new();
        let mut required = Vec::new();
        for option in &file.options {
            let schema = property(option)?;
            if option.required {
                required.push(Value::from(option.field.clone()));
            }
            properties.insert(option.field.clone(), schema);
        }
        let tool = json!({
            "name": file.tool,
            "description": file.summary,
            "inputSchema": {"type": "object", "properties": properties, "required": required},
        });
        let parser = Derived::from_tool(&tool).ok_or("names no tool")?;
        let spec = VerbSpec {
            synopsis: String::new(),
            details: with_tool_line(&file.details, &file.tool, &[]),
            examples: file.examples,
            ..parser.spec.clone()
        };
        Ok(Self {
            name: file.name,
            tool: file.tool,
            summary: file.summary,
            spec,
            arguments: file.arguments,
            output: file.output.filter(|o| !o.is_empty()),
            parser,
        })
    }

    /// The tool's arguments for `argv`: the file's fixed arguments, `--args`
    /// over them, then each option given.
    pub fn parse(&self, argv: &[String]) -> Result<Request, String> {
        Ok(match self.parser.parse(argv)? {
            Request::Help => Request::Help,
            Request::Call(given) => {
                let mut arguments = self.arguments.clone();
                arguments.extend(given);
                Request::Call(arguments)
            }
        })
    }

    /// What to print of the tool's answer (its payload): the `output` pointer,
    /// or all of it.
    pub fn pick(&self, payload: &Value) -> Result<Value, String> {
        match &self.output {
            None => Ok(payload.clone()),
            Some(pointer) => payload
                .pointer(pointer)
                .cloned()
                .ok_or_else(|| format!("the `{}` result has nothing at `{pointer}`", self.tool)),
        }
    }
}

/// The JSON Schema of an option, as a tool's `inputSchema` would give it.
fn property(option: &OptionField) -> Result<Value, String> {
    let ty = match option.r#type.as_str() {
        "string" | "integer" | "number" | "boolean" => json!({"type": option.r#type}),
        "array" => json!({"type": "array", "items": {"type": "string"}}),
        "json" => json!({}),
        other => {
            return Err(format!(
                "gives option `{}` the type `{other}`; one of string, integer, number, boolean, array, json",
                option.field
            ));
        }
    };
    let mut schema = ty;
    schema["description"] = Value::from(option.help.clone());
    if !option.choices.is_empty() {
        schema["enum"] = Value::Array(option.choices.clone());
    }
    Ok(schema)
}

#[cfg(test)]
mod tests {
    use super::*;

    const COUNT: &str = r##"{
        "schema": "mur-verb/1",
        "name": "count",
        "tool": "state",
        "summary": "Print the counter's value",
        "arguments": {"selector": "#count"},
        "options": [{"field": "selector", "help": "another element"}],
        "output": "/text",
        "examples": ["mur devtools count"]
    }"##;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn fixed_arguments_options_over_them_and_the_output_pick() {
        let verb = DataVerb::from_bytes(COUNT.as_bytes()).expect("a data verb");
        assert_eq!(
            verb.parse(&argv(&[])),
            Ok(Request::Call(
                json!({"selector": "#count"})
                    .as_object()
                    .expect("o")
                    .clone()
            ))
        );
        assert_eq!(
            verb.parse(&argv(&["--selector", "#other"])),
            Ok(Request::Call(
                json!({"selector": "#other"})
                    .as_object()
                    .expect("o")
                    .clone()
            ))
        );
        assert_eq!(verb.pick(&json!({"text": "3"})), Ok(json!("3")));
        assert_eq!(
            verb.pick(&json!({})),
            Err("the `state` result has nothing at `/text`".to_owned())
        );
        let help = verb.spec.render(&verb.name, &verb.summary);
        assert!(
            help.starts_with("Usage: mur devtools count [--selector TEXT] [--args JSON]\n\nPrint the counter's value\n\nTool `state`.\n"),
            "{help}"
        );
        assert!(
            help.ends_with("Examples:\n  mur devtools count\n"),
            "{help}"
        );
    }

    #[test]
    fn a_bad_file_says_what_is_wrong() {
        for (text, message) in [
            (
                "{",
                "is not a data verb: EOF while parsing an object at line 1 column 1",
            ),
            (
                r#"{"schema": "mur-verb/9", "name": "x", "tool": "t", "summary": "s"}"#,
                "has schema `mur-verb/9`; this mur reads `mur-verb/1`",
            ),
            (
                r#"{"schema": "mur-verb/1", "name": "x", "tool": "t", "summary": "s", "output": "text"}"#,
                "has output `text`, which is not a JSON pointer (`/text`)",
            ),
            (
                r#"{"schema": "mur-verb/1", "name": "x", "tool": "t", "summary": "s", "options": [{"field": "a", "type": "date"}]}"#,
                "gives option `a` the type `date`; one of string, integer, number, boolean, array, json",
            ),
        ] {
            assert_eq!(
                DataVerb::from_bytes(text.as_bytes()).err().as_deref(),
                Some(message),
                "{text}"
            );
        }
        let unknown = DataVerb::from_bytes(
            br#"{"schema": "mur-verb/1", "name": "x", "tool": "t", "summary": "s", "run": "rm -rf"}"#,
        )
        .err()
        .unwrap_or_default();
        assert!(
            unknown.starts_with("is not a data verb: unknown field `run`"),
            "{unknown}"
        );
    }
}
