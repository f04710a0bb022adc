//! What happens during a call besides its answer: the server's progress, its
//! log messages, and the questions it asks (`elicitation/create`, in the
//! 2025-11-25 response stream or a 2026-07-28 input-required result).
//!
//! The client reports progress and log messages, and asks questions, through
//! [`Events`], which the binary implements (a progress bar or plain lines, a
//! prompt on the terminal); this library prints nothing. Answers given on the
//! command line (`--answer KEY=VALUE`) are applied here first, field by field
//! of the requested schema, with the schema's defaults for fields left out.

use serde_json::{Map, Value, json};

use mur_core::{Error, Result};

/// Where a call's progress, log messages and questions go.
pub trait Events {
    /// A `notifications/progress` for this call's progress token.
    fn progress(&self, progress: &Progress);
    /// A `notifications/message` (a log message from the server).
    fn log(&self, message: &LogMessage);
    /// Asks the user `question`, which no `--answer` answered; `None` when
    /// there is no one to ask (no terminal), and the call then ends.
    fn ask(&self, question: &Question) -> Option<Response>;
    /// The status of the task a call waits for changed (a tool that runs
    /// only as a task).
    fn task(&self, _status: &TaskStatus) {}
    /// The call is over, whatever its outcome: take down what shows progress.
    fn finish(&self);
    /// The server wants OAuth authorization and a person must approve it at
    /// `url`: show it to them (and open a browser); `false` when there is no
    /// one to show it to (no terminal), and mur tries without a person.
    fn authorize(&self, _url: &str) -> bool {
        false
    }
}

/// Events nobody sees: a client without a reporter.
pub struct Silent;

impl Events for Silent {
    fn progress(&self, _: &Progress) {}
    fn log(&self, _: &LogMessage) {}
    fn ask(&self, _: &Question) -> Option<Response> {
        None
    }
    fn finish(&self) {}
}

/// A task's status, as `tasks/get` gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskStatus {
    /// One of [`Self::DEFINED`] (`working`, `input_required`, `completed`, `failed`,
    /// `cancelled`), or whatever else a server sent (`unknown` for none).
    pub status: String,
    /// What the server says it is doing.
    pub message: Option<String>,
}

impl TaskStatus {
    /// The status of a task as the server gives it (a `Task`: in a
    /// `CreateTaskResult`, a `tasks/get` result, a `notifications/tasks/status`).
    pub fn of(task: &Value) -> Self {
        Self {
            status: task["status"].as_str().unwrap_or("unknown").to_owned(),
            message: task["statusMessage"].as_str().map(str::to_owned),
        }
    }

    /// The statuses a task ends in: after one of them it does not change.
    pub const ENDED: [&'static str; 3] = ["completed", "failed", "cancelled"];

    /// The statuses MCP defines for a task (2025-11-25's tasks and the 2026-07-28 tasks
    /// extension alike), those it ends in ([`Self::ENDED`]) among them; a task in any
    /// other is one mur cannot follow.
    pub const DEFINED: [&'static str; 5] = {
        let [completed, failed, cancelled] = Self::ENDED;
        ["working", "input_required", completed, failed, cancelled]
    };

    /// Whether the task has ended: a status after which it does not change.
    pub fn ended(&self) -> bool {
        Self::ENDED.contains(&self.status.as_str())
    }

    /// Whether the status is one MCP defines ([`Self::DEFINED`]).
    pub fn defined(&self) -> bool {
        Self::DEFINED.contains(&self.status.as_str())
    }
}

/// One progress notification.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

impl Progress {
    /// The `params` of a `notifications/progress`, if they are one.
    pub fn from_params(params: &Value) -> Option<Self> {
        Some(Self {
            progress: params["progress"].as_f64()?,
            total: params["total"].as_f64(),
            message: params["message"].as_str().map(str::to_owned),
        })
    }
}

/// One log message from the server.
#[derive(Debug, Clone, PartialEq)]
pub struct LogMessage {
    pub level: String,
    pub logger: Option<String>,
    /// A string, or any JSON.
    pub data: Value,
}

impl LogMessage {
    pub fn from_params(params: &Value) -> Self {
        Self {
            level: params["level"].as_str().unwrap_or("info").to_owned(),
            logger: params["logger"].as_str().map(str::to_owned),
            data: params["data"].clone(),
        }
    }

    /// The data as one line of text: a string as it is, anything else as JSON.
    pub fn text(&self) -> String {
        match &self.data {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        }
    }
}

/// A question from the server: a message and the fields of its requested schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    pub message: String,
    pub fields: Vec<Field>,
    /// The requested schema as the server sent it (an empty object schema when it
    /// sent none), for a client that asks the question of another (the proxy): what
    /// `fields` leave out (a `format`, enum labels) goes with it.
    pub schema: Value,
}

/// One field of a requested schema (a primitive, an enum, or a list of enum values).
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub kind: FieldKind,
    pub required: bool,
    pub default: Option<Value>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    Text,
    Integer,
    Number,
    Boolean,
    /// One of these values.
    Choice(Vec<Choice>),
    /// Any of these values (an array), given comma-separated.
    Choices(Vec<Choice>),
}

/// One value of an enum field, and the title the server gives it for people
/// (`enumNames`, or a `oneOf`/`anyOf` member's `title`): `pet-2` is "Dogs".
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub value: String,
    pub title: Option<String>,
}

impl Choice {
    /// `pet-2 (Dogs)`, or `pet-2` when it has no title other than itself.
    pub fn shown(&self) -> String {
        match &self.title {
            Some(title) if *title != self.value => format!("{} ({title})", self.value),
            _ => self.value.clone(),
        }
    }

    /// The choice `text` names: the one whose value it is, else the one whose title it
    /// is as written, else the one whose title it is but for case (a person answers with
    /// what they read: `Dogs`, or `dogs`); titles alike but for case (`Dogs`, `dogs`)
    /// are each named by their own spelling, and by no other.
    fn named<'a>(choices: &'a [Choice], text: &str) -> Option<&'a Choice> {
        let text = text.trim();
        let only = |same: &dyn Fn(&str) -> bool| {
            let mut matches = choices
                .iter()
                .filter(|c| c.title.as_deref().is_some_and(same));
            match (matches.next(), matches.next()) {
                (Some(one), None) => Some(one),
                _ => None,
            }
        };
        choices
            .iter()
            .find(|c| c.value == text)
            .or_else(|| only(&|t| t == text))
            .or_else(|| only(&|t| t.eq_ignore_ascii_case(text)))
    }

    /// `text`, which names none of `choices`, refused with the value likely meant, by
    /// the rule a verb's choice is meant by: the one value alike but for case
    /// (`Historical`), else the nearest ([`mur_core::choice_meant`]).
    fn refusal(choices: &[Choice], text: &str) -> String {
        let told = format!("`{text}` is not one of {}", listed(choices));
        let values = choices.iter().map(|c| c.value.as_str());
        match mur_core::choice_meant(text.trim(), values) {
            Some(meant) => format!("{told}; did you mean `{meant}`?"),
            None => told,
        }
    }

    /// The choices a comma-separated answer names, in order: each part a value or a
    /// title, the longest run of parts that names one first, so that a title with a
    /// comma in it (`Green, Lantern`) is one choice, not two words; `Err` with the
    /// first part that names none.
    fn all_named<'a>(choices: &'a [Choice], text: &'a str) -> Result<Vec<&'a Choice>, &'a str> {
        let parts: Vec<&str> = text.split(',').collect();
        // A run is at most as many parts as the title (or value) with the most commas.
        let widest = choices
            .iter()
            .flat_map(|c| c.title.iter().chain([&c.value]))
            .map(|t| t.matches(',').count() + 1)
            .max()
            .unwrap_or(1);
        let mut named = Vec::new();
        let mut at = 0;
        while at < parts.len() {
            if parts[at].trim().is_empty() {
                at += 1;
                continue;
            }
            let last = parts.len().min(at + widest);
            let longest = (at + 1..=last).rev().find_map(|end| {
                let run = parts[at..end].join(",");
                Self::named(choices, &run).map(|choice| (choice, end))
            });
            match longest {
                Some((choice, end)) => {
                    named.push(choice);
                    at = end;
                }
                None => return Err(parts[at].trim()),
            }
        }
        Ok(named)
    }
}

/// The user's answer to a question (an `ElicitResult`).
#[derive(Debug, Clone, PartialEq)]
pub enum Response {
    Accept(Map<String, Value>),
    Decline,
    Cancel,
}

impl Response {
    pub fn to_json(&self) -> Value {
        match self {
            Self::Accept(content) => json!({ "action": "accept", "content": content }),
            Self::Decline => json!({ "action": "decline" }),
            Self::Cancel => json!({ "action": "cancel" }),
        }
    }
}

impl Question {
    /// The `params` of an `elicitation/create` (form mode).
    pub fn from_params(params: &Value) -> Self {
        let schema = &params["requestedSchema"];
        let required: Vec<&str> = schema["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let fields = schema["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(name, spec)| Field {
                name: name.clone(),
                title: spec["title"].as_str().map(str::to_owned),
                description: spec["description"].as_str().map(str::to_owned),
                kind: FieldKind::of(spec),
                required: required.contains(&name.as_str()),
                default: spec.get("default").cloned(),
            })
            .collect();
        let schema = match schema {
            Value::Object(_) => schema.clone(),
            _ => json!({ "type": "object", "properties": {} }),
        };
        Self {
            message: params["message"].as_str().unwrap_or_default().to_owned(),
            fields,
            schema,
        }
    }

    /// The message as an error line quotes it: in backticks, so that a message quoting
    /// something itself reads as one quotation (`asks "The query "rust wasm" could…"`
    /// read as three); in double quotes when it holds a backtick of its own.
    pub fn quoted(&self) -> String {
        match self.message.contains('`') {
            false => format!("`{}`", self.message),
            true => format!("\"{}\"", self.message),
        }
    }

    /// The answer `--answer KEY=VALUE` gives: `None` when none was given for
    /// this question (no key is one of its fields: `confirmed=true` does not
    /// answer `confirm` with its default) or a required field has neither an
    /// answer nor a default (then someone must be asked); a value that does not
    /// fit its field is a usage error. Keys that are no field of this question
    /// are left for other questions.
    pub fn answer_from(&self, answers: &[(String, String)]) -> Result<Option<Response>> {
        let addressed = self.fields.is_empty()
            || answers
                .iter()
                .any(|(key, _)| self.fields.iter().any(|field| field.name == *key));
        if answers.is_empty() || !addressed {
            return Ok(None);
        }
        let mut content = Map::new();
        for field in &self.fields {
            let given = answers.iter().rev().find(|(key, _)| *key == field.name);
            let value = match (given, &field.default) {
                (Some((_, text)), _) => field.parse(text).map_err(|e| {
                    Error::usage(format!("`--answer {}={text}`: {e}", field.name))
                        .with_hint(format!("the server asks: {}", self.message))
                })?,
                (None, Some(default)) => default.clone(),
                (None, None) if field.required => return Ok(None),
                (None, None) => continue,
            };
            content.insert(field.name.clone(), value);
        }
        Ok(Some(Response::Accept(content)))
    }

    /// What to say of each `--answer` key given that is no field of this question (a
    /// typo, most likely, when it went unanswered): `--answer confrim=…` names no
    /// field; did you mean `confirm`?
    pub fn unknown_keys(&self, answers: &[(String, String)]) -> Vec<String> {
        let mut keys: Vec<&str> = Vec::new();
        for (key, _) in answers {
            if !self.fields.iter().any(|f| f.name == *key) && !keys.contains(&key.as_str()) {
                keys.push(key);
            }
        }
        keys.into_iter()
            .map(|key| {
                let told = format!("`--answer {key}=…` names no field of this question");
                let names = self.fields.iter().map(|f| f.name.as_str());
                match mur_core::nearest(key, names) {
                    Some(near) => format!("{told}; did you mean `{near}`?"),
                    None => told,
                }
            })
            .collect()
    }

    /// The `--answer` options that would answer this question, each as it can be
    /// pasted into a shell, e.g. `--answer confirm=true` (or `false`): a placeholder
    /// `true|false` pasted is a pipe, which ran the tool with `true` and hid its output.
    pub fn answer_options(&self) -> String {
        if self.fields.is_empty() {
            return "`--answer` with any KEY=VALUE (the question has no fields)".to_owned();
        }
        self.fields
            .iter()
            .map(|f| {
                let pair = mur_core::shell_word(&format!("{}={}", f.name, f.kind.example()));
                let others = f
                    .kind
                    .others()
                    .map(|o| format!(" ({o})"))
                    .unwrap_or_default();
                let optional = if f.required { "" } else { " (optional)" };
                format!("`--answer {pair}`{others}{optional}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl Field {
    /// The value `text` means for this field.
    pub fn parse(&self, text: &str) -> Result<Value, String> {
        match &self.kind {
            FieldKind::Text => Ok(Value::String(text.to_owned())),
            FieldKind::Integer => text
                .trim()
                .parse::<i64>()
                .map(Value::from)
                .map_err(|_| format!("`{text}` is not an integer")),
            FieldKind::Number => text
                .trim()
                .parse::<f64>()
                .ok()
                .and_then(|n| serde_json::Number::from_f64(n).map(Value::Number))
                .ok_or_else(|| format!("`{text}` is not a number")),
            FieldKind::Boolean => match text.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "y" | "1" => Ok(Value::Bool(true)),
                "false" | "no" | "n" | "0" => Ok(Value::Bool(false)),
                _ => Err(format!("`{text}` is not true or false (yes or no)")),
            },
            FieldKind::Choice(choices) => Choice::named(choices, text)
                .map(|c| Value::String(c.value.clone()))
                .ok_or_else(|| Choice::refusal(choices, text)),
            FieldKind::Choices(choices) => Choice::all_named(choices, text)
                .map(|named| {
                    let values = named.iter().map(|c| Value::String(c.value.clone()));
                    Value::Array(values.collect())
                })
                .map_err(|t| Choice::refusal(choices, t)),
        }
    }
}

impl FieldKind {
    fn of(spec: &Value) -> Self {
        let values = |spec: &Value| -> Option<Vec<Choice>> {
            if let Some(values) = spec["enum"].as_array() {
                // `enumNames`: the titles of the 2025-06-18 revision, one per value.
                let names = spec["enumNames"].as_array();
                return Some(
                    values
                        .iter()
                        .enumerate()
                        .filter_map(|(at, v)| {
                            Some(Choice {
                                value: json_text(v)?,
                                title: names.and_then(|n| title(n.get(at)?)),
                            })
                        })
                        .collect(),
                );
            }
            let options = spec["oneOf"].as_array().or(spec["anyOf"].as_array())?;
            Some(
                options
                    .iter()
                    .filter_map(|o| {
                        Some(Choice {
                            value: json_text(&o["const"])?,
                            title: title(&o["title"]),
                        })
                    })
                    .collect(),
            )
        };
        match spec["type"].as_str() {
            Some("array") => values(&spec["items"]).map_or(Self::Text, Self::Choices),
            _ if values(spec).is_some() => Self::Choice(values(spec).unwrap_or_default()),
            Some("integer") => Self::Integer,
            Some("number") => Self::Number,
            Some("boolean") => Self::Boolean,
            _ => Self::Text,
        }
    }

    /// A value to show in a hint that can be pasted as it is: the first choice, `true`,
    /// or a placeholder word (`TEXT`) that is a mistake, never a shell command.
    pub fn example(&self) -> String {
        match self {
            Self::Text => "TEXT".to_owned(),
            Self::Integer => "INTEGER".to_owned(),
            Self::Number => "NUMBER".to_owned(),
            Self::Boolean => "true".to_owned(),
            Self::Choice(choices) | Self::Choices(choices) => {
                choices.first().map(|c| c.value.clone()).unwrap_or_default()
            }
        }
    }

    /// The other values [`FieldKind::example`] stands for, in words.
    pub fn others(&self) -> Option<String> {
        // `pet-2` (Dogs): the value to paste, and what it means to a person.
        let quoted = |choices: &[Choice]| {
            let each = choices.iter().map(|c| match &c.title {
                Some(title) if *title != c.value => format!("`{}` ({title})", c.value),
                _ => format!("`{}`", c.value),
            });
            let titled = choices.iter().any(|c| c.shown() != c.value);
            let or_title = if titled { ", or a title" } else { "" };
            format!("{}{or_title}", each.collect::<Vec<_>>().join(", "))
        };
        match self {
            Self::Boolean => Some("or `false`".to_owned()),
            Self::Choice(choices) if choices.len() > 1 => {
                Some(format!("one of {}", quoted(choices)))
            }
            Self::Choices(choices) => Some(format!("any of {}, joined by commas", quoted(choices))),
            _ => None,
        }
    }

    /// What a value looks like, for a prompt on a terminal.
    pub fn placeholder(&self) -> String {
        match self {
            Self::Text => "TEXT".to_owned(),
            Self::Integer => "INTEGER".to_owned(),
            Self::Number => "NUMBER".to_owned(),
            Self::Boolean => "true|false".to_owned(),
            Self::Choice(choices) => shown(choices),
            Self::Choices(choices) => format!("{}[,…]", shown(choices)),
        }
    }
}

/// `pet-1 (Cats)|pet-2 (Dogs)`, for a prompt.
fn shown(choices: &[Choice]) -> String {
    joined(choices, "|")
}

/// `pet-1 (Cats), pet-2 (Dogs)`, for an error.
fn listed(choices: &[Choice]) -> String {
    joined(choices, ", ")
}

fn joined(choices: &[Choice], separator: &str) -> String {
    choices
        .iter()
        .map(Choice::shown)
        .collect::<Vec<_>>()
        .join(separator)
}

/// A choice's title, when it says something: an empty one is none (shown `e2`, not
/// `e2 ()`).
fn title(value: &Value) -> Option<String> {
    json_text(value).filter(|t| !t.trim().is_empty())
}

fn json_text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A task's status is ended exactly when it is one of [`TaskStatus::ENDED`], each of
    /// which MCP defines, as it defines the two a task runs in; any other status is
    /// neither (mur cannot follow it). The ended ones were listed twice, once here.
    #[test]
    fn a_status_is_ended_or_defined_as_the_one_list_says() {
        let of = |status: &str| TaskStatus::of(&json!({ "status": status }));
        for status in TaskStatus::DEFINED {
            let status = of(status);
            assert!(status.defined(), "{status:?}");
            let ended = TaskStatus::ENDED.contains(&status.status.as_str());
            assert_eq!(status.ended(), ended, "{status:?}");
        }
        assert_eq!(
            TaskStatus::DEFINED.map(|s| of(s).ended()),
            [false, false, true, true, true]
        );
        for other in [of("paused"), TaskStatus::of(&json!({}))] {
            assert!(!other.defined() && !other.ended(), "{other:?}");
        }
    }

    /// The question of an `elicitation/create` with this `message`, asking for an
    /// object of these `properties`, the `required` ones required.
    /// A question of `properties`; `required` empty: a schema without the key, as a
    /// server that requires nothing may send it.
    fn asking(message: &str, properties: Value, required: &[&str]) -> Question {
        let mut schema = json!({ "type": "object", "properties": properties });
        if !required.is_empty() {
            schema["required"] = json!(required);
        }
        Question::from_params(&json!({ "message": message, "requestedSchema": schema }))
    }

    fn question() -> Question {
        let properties = json!({
            "confirm": { "type": "boolean", "description": "Clear them?" },
            "age": { "type": "integer", "default": 30 },
            "status": { "type": "string", "enum": ["active", "inactive"], "default": "active" },
            "tags": { "type": "array", "items": { "anyOf": [{ "const": "a" }, { "const": "b" }] } },
            "note": { "type": "string" }
        });
        asking("Clear all 2 todo(s)?", properties, &["confirm"])
    }

    fn answers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    /// What `q` accepts from these `--answer` pairs: the content of its answer, or
    /// (`Err`) what it made of them instead.
    fn accepted(q: &Question, pairs: &[(&str, &str)]) -> Result<Value, String> {
        match q.answer_from(&answers(pairs)) {
            Ok(Some(Response::Accept(content))) => Ok(Value::Object(content)),
            other => Err(format!("{other:?}")),
        }
    }

    #[test]
    fn keys_that_name_no_field_are_told_with_the_field_likely_meant() {
        let given = answers(&[
            ("confrim", "true"),
            ("age", "3"),
            ("zzz", "1"),
            ("confrim", "no"),
        ]);
        assert_eq!(
            question().unknown_keys(&given),
            [
                "`--answer confrim=…` names no field of this question; did you mean `confirm`?",
                "`--answer zzz=…` names no field of this question",
            ]
        );
    }

    #[test]
    fn answers_fill_their_fields_and_defaults_the_rest() {
        assert_eq!(
            accepted(
                &question(),
                &[("confirm", "yes"), ("tags", "a,b"), ("other", "x")]
            ),
            Ok(json!({ "confirm": true, "age": 30, "status": "active", "tags": ["a", "b"] }))
        );
    }

    #[test]
    fn a_required_field_without_an_answer_or_default_leaves_the_question_open() {
        let q = question();
        assert_eq!(q.answer_from(&[]).expect("valid"), None);
        assert_eq!(
            q.answer_from(&answers(&[("note", "hi")])).expect("valid"),
            None
        );
        let err = q
            .answer_from(&answers(&[("confirm", "maybe")]))
            .expect_err("not a boolean");
        assert_eq!(err.exit_code(), 1);
        assert_eq!(
            err.message(),
            "`--answer confirm=maybe`: `maybe` is not true or false (yes or no)"
        );
    }

    #[test]
    fn answers_to_none_of_its_fields_leave_a_question_of_optional_fields_open() {
        let properties = json!({ "confirm": { "type": "boolean", "default": false } });
        let optional = asking("Clear all todos?", properties, &[]);
        // A mistyped key does not answer with the defaults.
        let mistyped = answers(&[("confirmed", "true")]);
        assert_eq!(optional.answer_from(&mistyped).expect("valid"), None);
        let right = [("confirmed", "true"), ("confirm", "yes")];
        assert_eq!(accepted(&optional, &right), Ok(json!({ "confirm": true })));
        // A question without fields is answered by any `--answer`.
        let bare = Question::from_params(&json!({ "message": "Go on?" }));
        assert!(bare.answer_from(&mistyped).expect("valid").is_some());
    }

    /// server-everything's three ways of titling choices (`enumNames`, `oneOf` of
    /// `const`s with a `title`, the same for an array's items): the prompt and the hint
    /// show each id with its title, and either answers.
    #[test]
    fn titles_alike_but_for_case_with_a_comma_or_empty_are_each_answered() {
        let properties = json!({
            "pet": { "type": "string", "enum": ["pet-1", "pet-2", "pet-3"],
                     "enumNames": ["Dogs", "dogs", ""] },
            "hero": { "type": "array", "items": { "anyOf": [
                { "const": "h1", "title": "Green, Lantern" },
                { "const": "h2", "title": "Green" },
                { "const": "h3", "title": "Flash" } ] } }
        });
        let q = asking("Pick", properties, &[]);
        let kinds: Vec<String> = q.fields.iter().map(|f| f.kind.placeholder()).collect();
        assert_eq!(
            kinds,
            [
                "pet-1 (Dogs)|pet-2 (dogs)|pet-3",
                "h1 (Green, Lantern)|h2 (Green)|h3 (Flash)[,…]",
            ]
        );
        let answered = |pet: &str, hero: &str| accepted(&q, &[("pet", pet), ("hero", hero)]);
        assert_eq!(
            answered("dogs", "Green, Lantern, Flash"),
            Ok(json!({ "pet": "pet-2", "hero": ["h1", "h3"] }))
        );
        assert_eq!(
            answered("Dogs", "Flash,Green"),
            Ok(json!({ "pet": "pet-1", "hero": ["h3", "h2"] }))
        );
        assert!(
            answered("DOGS", "Flash").is_err(),
            "two titles but for case"
        );
    }

    #[test]
    fn titled_choices_are_shown_with_their_titles_and_answered_by_either() {
        let properties = json!({
            "pet": { "type": "string", "enum": ["pet-1", "pet-2"], "enumNames": ["Cats", "Dogs"] },
            "hero": { "type": "string", "oneOf": [
                { "const": "hero-1", "title": "Superman" },
                { "const": "hero-2", "title": "Green Lantern" } ] },
            "fish": { "type": "array", "items": { "anyOf": [
                { "const": "fish-1", "title": "Tuna" }, { "const": "fish-2", "title": "Salmon" } ] } }
        });
        let q = asking("Pick", properties, &["pet", "hero"]);
        let kinds: Vec<String> = q.fields.iter().map(|f| f.kind.placeholder()).collect();
        assert_eq!(
            kinds,
            [
                "pet-1 (Cats)|pet-2 (Dogs)",
                "hero-1 (Superman)|hero-2 (Green Lantern)",
                "fish-1 (Tuna)|fish-2 (Salmon)[,…]",
            ]
        );
        // In the order the requested schema gives its properties, not by name.
        assert_eq!(
            q.answer_options(),
            "`--answer pet=pet-1` (one of `pet-1` (Cats), `pet-2` (Dogs), or a title), \
             `--answer hero=hero-1` (one of `hero-1` (Superman), `hero-2` (Green Lantern), or \
             a title), `--answer fish=fish-1` (any of `fish-1` (Tuna), `fish-2` (Salmon), or a \
             title, joined by commas) (optional)"
        );
        assert_eq!(
            accepted(
                &q,
                &[
                    ("pet", "Dogs"),
                    ("hero", "green lantern"),
                    ("fish", "Tuna, fish-2")
                ]
            ),
            Ok(json!({ "pet": "pet-2", "hero": "hero-2", "fish": ["fish-1", "fish-2"] }))
        );
        let err = q
            .answer_from(&answers(&[("pet", "Cows"), ("hero", "hero-1")]))
            .expect_err("no such pet");
        assert_eq!(
            err.message(),
            "`--answer pet=Cows`: `Cows` is not one of pet-1 (Cats), pet-2 (Dogs)"
        );
    }

    /// An answer that names no choice is told the one meant, by the rule a verb's
    /// choice is (the one value alike but for case, else the nearest): `Historical`
    /// got no suggestion, while `--message-type Error` did.
    #[test]
    fn an_answer_in_another_case_or_misspelt_is_told_the_choice_meant() {
        let properties = json!({
            "interpretation": { "type": "string", "enum": ["technical", "historical"],
                "enumNames": ["Technical perspective", "Historical perspective"] },
            "areas": { "type": "array", "items": { "enum": ["rust", "wasm"] } }
        });
        let q = asking("Which?", properties, &["interpretation"]);
        let refused = |pairs: &[(&str, &str)]| {
            q.answer_from(&answers(pairs))
                .map_err(|e| e.message().to_owned())
        };
        let pick =
            "is not one of technical (Technical perspective), historical (Historical perspective)";
        for (given, said) in [
            (
                "Historical",
                format!("`Historical` {pick}; did you mean `historical`?"),
            ),
            (
                "histroical",
                format!("`histroical` {pick}; did you mean `historical`?"),
            ),
            ("future", format!("`future` {pick}")),
        ] {
            assert_eq!(
                refused(&[("interpretation", given)]),
                Err(format!("`--answer interpretation={given}`: {said}"))
            );
        }
        assert_eq!(
            refused(&[("interpretation", "technical"), ("areas", "rust,WASM")]),
            Err(
                "`--answer areas=rust,WASM`: `WASM` is not one of rust, wasm; did you mean `wasm`?"
                    .to_owned()
            )
        );
    }

    /// A message quoting something itself reads as one quotation in an error line.
    #[test]
    fn a_message_is_quoted_as_one_quotation() {
        let said = |message: &str| asking(message, json!({}), &[]).quoted();
        assert_eq!(
            said(r#"The query "rust wasm" could mean several things"#),
            r#"`The query "rust wasm" could mean several things`"#
        );
        assert_eq!(said("Run `ls`?"), r#""Run `ls`?""#);
    }

    /// Each field in the order the requested schema gives it (a server puts the
    /// question's point first), not by name.
    #[test]
    fn the_options_that_answer_a_question_are_named() {
        assert_eq!(
            question().answer_options(),
            "`--answer confirm=true` (or `false`), `--answer age=INTEGER` (optional), \
             `--answer status=active` (one of `active`, `inactive`) (optional), `--answer \
             tags=a` (any of `a`, `b`, joined by commas) (optional), `--answer note=TEXT` \
             (optional)"
        );
    }
}
