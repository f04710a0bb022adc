//! A verb: the trait a verb implements, and the kit's three entry points built on it
//! ([`info`], [`parse`], [`shape`]), which the WIT glue and native tests call alike.

use serde_json::{Map, Value};

use crate::argv::{self, Args, Request, Spec};
use crate::info::{self, About, Info, Waits};
use crate::shape::{self as shaping, Shaped};

/// A verb: its description, its argv, and how argv and results are turned around.
pub trait Verb {
    const ABOUT: About;
    const SPEC: Spec;

    /// Whether the tool waits on a bound of its own, and which argument sets it
    /// ([`Waits`]): `--timeout MS` is then sent as that argument too. `None` (the
    /// default) for a tool that answers when done.
    const WAITS: Option<Waits> = None;

    /// The tool's `arguments` object; by default exactly what the [`Spec`] describes.
    fn arguments(args: &Args) -> Result<Map<String, Value>, String> {
        Ok(args.arguments())
    }

    /// What to print for a successful result; by default its [`payload`](crate::shape::payload) as JSON.
    /// `args` is the argv `parse` checked. Add notes for stderr (the likely next
    /// command, what was cut) with [`Shaped::note`].
    fn shape(_args: &Args, result: &Value, pretty: bool) -> Result<Shaped, String> {
        Ok(Shaped::json(&shaping::payload(result), pretty))
    }
}

/// A tool call built from argv.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The JSON text of the tool's `arguments` object: what [`Verb::arguments`] built,
    /// then each JSON option it did not set, as typed ([`Args::json_options`]).
    pub arguments: String,
    /// `--timeout MS`, for the host's call timeout.
    pub timeout_ms: Option<u32>,
    /// The files `shape` may write, as typed (see [`Kind::OutPath`](crate::argv::Kind::OutPath)).
    pub writes: Vec<String>,
    /// The checked argv, handed back to `shape` by the host.
    pub state: String,
}

/// What `parse` makes of argv.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed {
    Call(Call),
    Help,
}

/// Describe verb `V`.
pub fn info<V: Verb>() -> Info {
    let info = info::describe(&V::ABOUT, &V::SPEC);
    match V::WAITS {
        Some(waits) => info::waiting(info, waits),
        None => info,
    }
}

/// Turn argv into verb `V`'s call, a help request, or a one-line usage error.
pub fn parse<V: Verb>(argv: &[String]) -> Result<Parsed, String> {
    match Args::parse_as(V::ABOUT.name, &V::SPEC, argv)? {
        Request::Help => Ok(Parsed::Help),
        Request::Run(args) => Ok(Parsed::Call(Call {
            arguments: {
                let arguments = with_wait(V::WAITS, V::arguments(&args)?, args.timeout_ms());
                let set: Vec<String> = arguments
                    .keys()
                    .cloned()
                    .chain(args.json_options().map(|(key, _)| key))
                    .collect();
                under_whole(args.whole(), with_json_options(arguments, &args), &set)
            },
            timeout_ms: args.timeout_ms(),
            writes: args.writes(),
            state: args.to_state(),
        })),
    }
}

/// `arguments` with `--timeout MS` as the argument that bounds the tool's wait, when
/// the tool waits and the verb did not set that argument itself.
fn with_wait(
    waits: Option<Waits>,
    mut arguments: Map<String, Value>,
    timeout_ms: Option<u32>,
) -> Map<String, Value> {
    if let (Some(waits), Some(ms)) = (waits, timeout_ms) {
        arguments
            .entry(waits.argument)
            .or_insert_with(|| Value::from(ms));
    }
    arguments
}

/// The JSON text of `arguments` with each JSON option of `args` it has no key for
/// appended as typed: a large value is carried as its text, never as a `Value` tree
/// (up to 16 times the bytes, against the verb's 64 MiB).
fn with_json_options(arguments: Map<String, Value>, args: &Args) -> String {
    let typed: Vec<(String, &str)> = args
        .json_options()
        .filter(|(key, _)| !arguments.contains_key(key))
        .collect();
    let mut text = Value::Object(arguments).to_string();
    for (key, json) in typed {
        text.pop(); // the closing `}`
        if text.len() > 1 {
            text.push(',');
        }
        text.push_str(&Value::from(key).to_string());
        text.push(':');
        text.push_str(json);
        text.push('}');
    }
    text
}

/// The JSON text of arguments object `built`, whose keys are `set`, after each entry
/// of `--args JSON` (`whole`) it has no key for, as typed: the options given beside
/// `--args` override its fields, as a derived verb's do.
fn under_whole(whole: Option<&str>, built: String, set: &[String]) -> String {
    let Some(whole) = whole else { return built };
    let kept: Vec<&str> = argv::object_entries(whole)
        .into_iter()
        .filter(|(key, _)| !set.contains(key))
        .map(|(_, entry)| entry)
        .collect();
    if kept.is_empty() {
        return built;
    }
    let rest = built.strip_prefix('{').unwrap_or("}");
    let comma = if rest == "}" { "" } else { "," };
    format!("{{{}{comma}{rest}", kept.join(","))
}

/// Turn the JSON text of a tool result into verb `V`'s output; `state` is what
/// [`parse`] put in its [`Call`].
pub fn shape<V: Verb>(result: &str, state: &str, pretty: bool) -> Result<Shaped, String> {
    let args = Args::from_state(&V::SPEC, state)?;
    let result: Value = serde_json::from_str(result)
        .map_err(|error| format!("the tool result is not JSON: {error}"))?;
    V::shape(&args, &result, pretty)
}
