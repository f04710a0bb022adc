//! Tasks as data: one TOML file per task (`eval/tasks/<id>.toml`) with the prompt a person
//! would give an agent, the setup the harness makes before the agent starts, and the
//! checks it makes on the app's state afterwards. Loading validates everything, so a
//! typo in a task file is one clear error before any session starts.

use std::path::{Path, PathBuf};
use std::time::Duration;

use mur_core::{Error, Result};
use regex::Regex;
use serde::Deserialize;
use serde_json::Value;

/// The tool categories a suite should cover; a task names the ones it exercises.
pub const CATEGORIES: [&str; 7] = [
    "inspect",
    "interact",
    "wait",
    "navigate",
    "screenshot",
    "reload",
    "questions",
];

/// One task, validated.
#[derive(Debug, Clone)]
pub struct Task {
    /// The file name without `.toml`: what `--tasks` and the agent command's `{task}` name.
    pub id: String,
    pub title: String,
    pub categories: Vec<String>,
    /// What the agent is told, as a person would say it.
    pub prompt: String,
    /// The agent's time limit, when the task needs its own.
    pub time_limit: Option<Duration>,
    /// Tool calls the harness makes before the agent starts.
    pub setup: Vec<ToolCall>,
    /// What must hold afterwards; the task is completed when every check passes.
    pub checks: Vec<Check>,
    /// The sha256 of the task's file, hex: a study records it per run, so runs judged by
    /// two versions of one oracle are told apart.
    pub sha256: String,
}

/// A tool and its arguments.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolCall {
    pub tool: String,
    #[serde(default = "empty_object")]
    pub args: Value,
}

/// One check on the app after the agent has finished.
#[derive(Debug, Clone)]
pub struct Check {
    /// What the check means, in words, for the report.
    pub what: String,
    pub kind: CheckKind,
}

#[derive(Debug, Clone)]
pub enum CheckKind {
    /// A tool's JSON result (`structuredContent`), at `pointer`, meets `expect`.
    Value {
        call: ToolCall,
        pointer: String,
        expect: Expect,
    },
    /// Whether the app was restarted (its pid changed) since the setup.
    Reloaded(bool),
    /// `file`, in the agent's working directory, is a PNG with exactly the pixels
    /// `screenshot` with these arguments returns now.
    Screenshot { file: PathBuf, args: Value },
}

/// What a value must be.
#[derive(Debug, Clone)]
pub enum Expect {
    /// Equal as JSON.
    Equals(Value),
    /// A string containing this text; an array with an element that contains this
    /// (objects: every field given, recursively); an object with these fields.
    Contains(Value),
    /// A string matching this regular expression.
    Matches(Regex),
}

/// A task file as written; validated into a [`Task`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskFile {
    title: String,
    categories: Vec<String>,
    prompt: String,
    time_limit_secs: Option<u64>,
    #[serde(default)]
    setup: Vec<ToolCall>,
    #[serde(rename = "check")]
    checks: Vec<CheckFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckFile {
    what: String,
    tool: Option<String>,
    args: Option<Value>,
    pointer: Option<String>,
    equals: Option<Value>,
    contains: Option<Value>,
    matches: Option<String>,
    reloaded: Option<bool>,
    screenshot: Option<PathBuf>,
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

/// Every task in `dir` (`*.toml`), sorted by id.
pub fn load_dir(dir: &Path) -> Result<Vec<Task>> {
    let paths = crate::listing::files(dir, "task", "tasks (`*.toml`)", &["toml"])?;
    paths.iter().map(|path| load(path)).collect()
}

/// The task in `path` (opened without waiting: a FIFO by a task's name is refused).
pub fn load(path: &Path) -> Result<Task> {
    let text = crate::bounded::text(path, crate::bounded::FILE_CAP).map_err(Error::usage)?;
    let id = path
        .file_stem()
        .and_then(|stem| stem.to_str())
        .unwrap_or_default()
        .to_owned();
    parse(&id, &text)
        .map_err(|message| Error::usage(format!("task file `{}`: {message}", path.display())))
}

/// The task `id` from its TOML text; the error says what is wrong with it.
pub fn parse(id: &str, text: &str) -> std::result::Result<Task, String> {
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(format!(
            "`{id}` is not a task id: use letters, digits and `-` in the file name"
        ));
    }
    let file: TaskFile = toml::from_str(text).map_err(|e| crate::toml_file::located(text, &e))?;
    for category in &file.categories {
        if !CATEGORIES.contains(&category.as_str()) {
            return Err(format!(
                "unknown category `{category}` (categories: {})",
                CATEGORIES.join(", ")
            ));
        }
    }
    if file.checks.is_empty() {
        return Err("a task needs at least one [[check]]".to_owned());
    }
    // As `--time-limit 0` is refused: 0 would end the agent at once and record every
    // run as a timed-out failure, charged to the surface.
    if file.time_limit_secs == Some(0) {
        return Err("`time_limit_secs` is at least 1: 0 would end every agent at once".to_owned());
    }
    let checks = file
        .checks
        .into_iter()
        .map(check)
        .collect::<std::result::Result<_, _>>()?;
    Ok(Task {
        id: id.to_owned(),
        title: file.title,
        categories: file.categories,
        prompt: file.prompt,
        time_limit: file.time_limit_secs.map(Duration::from_secs),
        setup: file.setup,
        checks,
        sha256: mur_core::sha256_hex(text.as_bytes()),
    })
}

/// A check as written, validated: exactly one of a value check (`pointer` with one of
/// `equals`, `contains`, `matches`), `reloaded` or `screenshot`.
fn check(raw: CheckFile) -> std::result::Result<Check, String> {
    let what = raw.what;
    let expects = [
        raw.equals.map(Expect::Equals),
        raw.contains.map(Expect::Contains),
        raw.matches.map(regex).transpose()?,
    ];
    let mut expects = expects.into_iter().flatten();
    let expect = expects.next();
    if expects.next().is_some() {
        return Err(format!(
            "check `{what}`: give one of `equals`, `contains`, `matches`"
        ));
    }
    let kind = match (expect, raw.reloaded, raw.screenshot) {
        (Some(expect), None, None) => CheckKind::Value {
            call: ToolCall {
                tool: raw.tool.unwrap_or_else(|| "state".to_owned()),
                args: raw.args.unwrap_or_else(empty_object),
            },
            pointer: pointer(raw.pointer.unwrap_or_default())?,
            expect,
        },
        (None, Some(reloaded), None) if no_call(&raw.tool, &raw.args, &raw.pointer) => {
            CheckKind::Reloaded(reloaded)
        }
        (None, None, Some(file)) if raw.tool.is_none() && raw.pointer.is_none() => {
            CheckKind::Screenshot {
                file,
                args: raw.args.unwrap_or_else(empty_object),
            }
        }
        _ => {
            return Err(format!(
                "check `{what}`: give exactly one of `equals`/`contains`/`matches` (with `pointer`), \
                 `reloaded` or `screenshot`"
            ));
        }
    };
    Ok(Check { what, kind })
}

fn no_call(tool: &Option<String>, args: &Option<Value>, pointer: &Option<String>) -> bool {
    tool.is_none() && args.is_none() && pointer.is_none()
}

fn regex(pattern: String) -> std::result::Result<Expect, String> {
    Regex::new(&pattern)
        .map(Expect::Matches)
        .map_err(|e| format!("bad regular expression `{pattern}`: {}", regex_reason(&e)))
}

/// What is wrong with a regular expression, in one line: the regex crate renders a
/// syntax error over several (the pattern, a caret under the place, then `error: …`),
/// which broke the one-line error a bad task file gets.
fn regex_reason(error: &regex::Error) -> String {
    let text = error.to_string();
    text.lines()
        .find_map(|line| line.trim().strip_prefix("error: "))
        .map_or_else(
            || text.split_whitespace().collect::<Vec<_>>().join(" "),
            str::to_owned,
        )
}

/// A JSON pointer (`/counter/count`; empty for the whole value).
fn pointer(text: String) -> std::result::Result<String, String> {
    if text.is_empty() || text.starts_with('/') {
        Ok(text)
    } else {
        Err(format!(
            "`pointer` is a JSON pointer starting with `/`, got `{text}`"
        ))
    }
}

/// The tasks named in `wanted` (all when empty), in the order given, each once (a name
/// given twice is the one task); an unknown name is a usage error listing the known ones.
pub fn select(tasks: Vec<Task>, wanted: &[String]) -> Result<Vec<Task>> {
    if wanted.is_empty() {
        return Ok(tasks);
    }
    once(wanted)
        .into_iter()
        .map(|id| {
            tasks
                .iter()
                .find(|task| &task.id == id)
                .cloned()
                .ok_or_else(|| {
                    let known: Vec<&str> = tasks.iter().map(|task| task.id.as_str()).collect();
                    Error::usage(format!("no task `{id}` (tasks: {})", known.join(", ")))
                })
        })
        .collect()
}

/// `names` without repeats, each where first given.
pub fn once(names: &[String]) -> Vec<&String> {
    let mut seen = Vec::new();
    for name in names {
        if !seen.contains(&name) {
            seen.push(name);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const COUNTER: &str = r#"
title = "Count to three"
categories = ["interact"]
prompt = "Click + until the counter shows 3."

[[setup]]
tool = "fire"
args = { target = "counter.set", args = { value = 1 } }

[[check]]
what = "the count is 3"
pointer = "/counter/count"
equals = 3
"#;

    #[test]
    fn a_task_file_reads_with_its_setup_and_checks() {
        let task = parse("counter", COUNTER).expect("valid");
        assert_eq!(task.setup[0].tool, "fire");
        assert_eq!(task.setup[0].args["args"]["value"], 1);
        let CheckKind::Value {
            call,
            pointer,
            expect: Expect::Equals(value),
        } = &task.checks[0].kind
        else {
            panic!("a value check: {:?}", task.checks[0]);
        };
        assert_eq!(
            (call.tool.as_str(), pointer.as_str(), value),
            ("state", "/counter/count", &json!(3))
        );
    }

    #[test]
    fn a_task_is_known_by_its_files_sha256() {
        let task = parse("counter", COUNTER).expect("valid");
        assert_eq!(task.sha256, mur_core::sha256_hex(COUNTER.as_bytes()));
        let changed = parse("counter", &COUNTER.replace("equals = 3", "equals = 4"));
        assert_ne!(changed.expect("valid").sha256, task.sha256);
    }

    #[test]
    fn mistakes_in_a_task_file_are_named() {
        let cases = [
            ("equals = 3", "equal = 3", "unknown field `equal`"),
            ("interact", "poke", "unknown category `poke`"),
            (
                "equals = 3",
                "equals = 3\nmatches = \"3\"",
                "give one of `equals`, `contains`, `matches`",
            ),
            (
                "pointer = \"/counter/count\"",
                "pointer = \"counter\"",
                "JSON pointer",
            ),
            ("equals = 3", "reloaded = true", "give exactly one of"),
            ("equals = 3", "matches = \"(\"", "bad regular expression"),
            (
                "title =",
                "time_limit_secs = 0\ntitle =",
                "`time_limit_secs` is at least 1: 0 would end every agent at once",
            ),
        ];
        for (from, to, message) in cases {
            let error = parse("counter", &COUNTER.replace(from, to)).expect_err(message);
            assert!(error.contains(message), "{error:?} should say {message:?}");
        }
        let error = parse("Counter Task", COUNTER).expect_err("bad id");
        assert!(error.contains("not a task id"), "{error}");
    }

    #[test]
    fn a_syntax_or_type_error_names_the_file_line_and_column_in_one_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cases = [
            // A string never closed, on the title's line.
            (
                "syntax",
                COUNTER.replace("\"Count to three\"", "\"Count to three"),
                "line 2, column 24: invalid basic string, expected `\"`",
            ),
            // A number where a list of categories goes.
            (
                "types",
                COUNTER.replace("[\"interact\"]", "7"),
                "line 3, column 14: invalid type: integer `7`, expected a sequence",
            ),
            // A regular expression that does not parse: the regex crate's own layout
            // is four lines.
            (
                "regex",
                COUNTER.replace("equals = 3", "matches = \"(unclosed\""),
                "bad regular expression `(unclosed`: unclosed group",
            ),
        ];
        for (id, text, place) in cases {
            let path = dir.path().join(format!("{id}.toml"));
            std::fs::write(&path, text).expect("write");
            let error = load(&path).expect_err(id);
            assert_eq!(error.exit_code(), 1);
            assert_eq!(
                error.message(),
                format!("task file `{}`: {place}", path.display())
            );
        }
    }

    #[test]
    fn select_keeps_the_order_given_and_names_unknown_tasks() {
        let tasks: Vec<Task> = ["a", "b", "c"]
            .map(|id| parse(id, COUNTER).expect("valid"))
            .into();
        let picked = select(tasks.clone(), &["c".into(), "a".into(), "c".into()]).expect("known");
        assert_eq!(
            picked.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
            ["c", "a"]
        );
        let error = select(tasks, &["zz".into()]).expect_err("unknown");
        assert_eq!(error.message(), "no task `zz` (tasks: a, b, c)");
    }
}
