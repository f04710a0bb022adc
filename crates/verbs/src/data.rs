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

use std::time::Duration;

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
    options: Vec<Object<OptionField>>,
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
    /// The argument it fills; the option is `--<field in kebab-case>`, named as
    /// a derived verb's ([`crate::derived`]): the field as written where two
    /// fields would share one, `--arg-NAME` where it would be a host option.
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

/// A `T` read from a JSON object, and from nothing else. serde's derive reads a struct
/// from an array too, its fields in order: `["mur-verb/1", "arrverb", "state", "An array
/// verb"]` was installed as a data verb (docs/verbs.md: one is a JSON object), and `[]`
/// refused as "invalid length 0, expected struct File with 9 elements".
#[derive(Debug)]
struct Object<T>(T);

impl<T> std::ops::Deref for Object<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: serde::Deserializer<'de>>(from: D) -> Result<Self, D::Error> {
        from.deserialize_any(ObjectOnly(std::marker::PhantomData))
    }
}

/// [`Object`]'s visitor: a map is handed to `T`'s own reading of one, anything else is
/// refused in serde's words ("invalid type: string \"x\", expected a JSON object").
struct ObjectOnly<T>(std::marker::PhantomData<T>);

impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for ObjectOnly<T> {
    type Value = Object<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Object)
    }

    /// An array said as JSON says it, not as serde's "sequence".
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        use serde::de::Error as _;
        Err(A::Error::invalid_type(
            serde::de::Unexpected::Other("array"),
            &self,
        ))
    }
}

/// Why a file is no data verb: one line for the error (said of the file, as
/// in "`count.json` has …"), and, where there is a fix, a line for its hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub why: String,
    pub hint: Option<String>,
}

impl Invalid {
    fn new(why: impl Into<String>) -> Self {
        Self {
            why: why.into(),
            hint: None,
        }
    }

    fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

impl From<String> for Invalid {
    fn from(why: String) -> Self {
        Self::new(why)
    }
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
    /// The field of each of the file's options, in the file's order (the parser's puts
    /// the required ones first), in which [`Self::fields_not_in`] names them.
    fields: Vec<String>,
    /// Its tool's hints (`read-only`, …) as a session last listed them, which its
    /// help's tool line says as a component verb's does ([`Self::with_hints`]).
    hints: Vec<String>,
}

impl DataVerb {
    /// Read and check a data verb file's bytes; the error says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Invalid> {
        let Object(file): Object<File> = serde_json::from_slice(bytes).map_err(|e| {
            if let Some(mistyped) = mistyped(bytes) {
                return mistyped;
            }
            let invalid = Invalid::new(format!("is not a data verb: {e}"));
            match field_meant(&e.to_string()) {
                Some(meant) => invalid.hint(format!("did you mean `{meant}`?")),
                None => invalid,
            }
        })?;
        if file.schema != SCHEMA {
            return Err(Invalid::new(format!(
                "has schema `{}`; this mur reads `{SCHEMA}`",
                file.schema
            )));
        }
        one_line(&file)?;
        if let Some(output) = &file.output
            && !(output.is_empty() || output.starts_with('/'))
        {
            return Err(Invalid::new(format!(
                "has output `{output}`, which is not a JSON pointer (`/text`)"
            ))
            .hint(format!(
                "did you mean `/{}`? `output` is a JSON pointer into the tool's result, a `/` \
                 before each key (`/items/0/text`); leave it out to print the whole result",
                output.replace('.', "/")
            )));
        }
        let mut properties = Map::new();
        let mut required = Vec::new();
        for option in &file.options {
            if properties.contains_key(&option.field) {
                return Err(Invalid::new(format!(
                    "has two options for field `{}`",
                    option.field
                ))
                .hint("give each argument field one option (an `array` option may be given many times)"));
            }
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
        let parser = Derived::from_tool(&tool).ok_or_else(|| Invalid::new("names no tool"))?;
        let fields = file.options.iter().map(|o| o.field.clone()).collect();
        // The tool line is added when help is rendered, with the hints a session
        // listed since (none here): kept in the spec, the index's `usage_text` would
        // add a second one to `verbs info` once the hints were learned.
        let spec = VerbSpec {
            synopsis: String::new(),
            details: file.details,
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
            fields,
            hints: Vec::new(),
        })
    }

    /// The verb with its tool's hints as the index keeps them for its entry
    /// ([`crate::index::Entry::hints`]), which its help says.
    pub fn with_hints(self, hints: &[String]) -> Self {
        Self {
            hints: hints.to_vec(),
            ..self
        }
    }

    /// The tool's arguments for `argv`: the file's fixed arguments, `--args`
    /// over them, then each option given. `within` bounds reading a value from a pipe
    /// ([`Derived::parse`]).
    pub fn parse(&self, argv: &[String], within: Duration) -> Result<Request, String> {
        Ok(match self.parser.parse(argv, within)? {
            Request::Help => Request::Help,
            Request::Call(given) => {
                let mut arguments = self.arguments.clone();
                arguments.extend(given);
                Request::Call(arguments)
            }
        })
    }

    /// `--help`: its usage, and what its options take, as a derived verb's says
    /// ([`Derived::notes`]): the parser is a derived verb's.
    pub fn help(&self) -> String {
        let spec = VerbSpec {
            details: with_tool_line(&self.spec.details, &self.tool, &self.hints),
            ..self.spec.clone()
        };
        spec.render_with(&self.name, &self.summary, &self.parser.notes())
    }

    /// What this verb sends that `schema`, its tool's `inputSchema`, does not list
    /// among its `properties`: each such option (by the name its parser gives it), and
    /// each fixed argument no option fills, in the file's order. An option fills one
    /// top-level field (its `field` is a key, not a path: `a.b` is the key `a.b`), and
    /// what it is given is typed at call time, so only a fixed argument can hold a field
    /// nested in another: a fixed argument's object is judged against its property's
    /// schema in turn (`{"target": {"selectr": "#x"}}`: `target.selectr`), and an
    /// array's objects against its `items` (`points[1].z`).
    ///
    /// Nothing for a schema that lists no properties (it says nothing of its fields),
    /// that admits other fields (`additionalProperties` `true` or a schema: the tool
    /// says it takes fields it does not name), or that has `patternProperties` (mur
    /// has no regex engine to match a field against them: said nothing of, rather than
    /// a field one admits named). A schema without `additionalProperties` admits any
    /// field too, but is judged as listing all the tool reads: most servers' schemas
    /// leave it out (pydantic's, schemars'), and their tools drop a field they do not
    /// declare, so a verb's option the schema does not list most likely does nothing
    /// (a misspelt field, a tool changed): worth a note, which says "most likely
    /// ignores" ([`Unlisted::closed`] is false). `additionalProperties: false` closes
    /// the schema: a tool that checks its arguments refuses the call. A nested schema
    /// is judged by the same rules, and by nothing else (`$ref`, `anyOf`: nothing said).
    pub fn fields_not_in(&self, schema: &Value) -> Vec<Unlisted> {
        let Some((properties, closed)) = judged(schema) else {
            return Vec::new();
        };
        // A field no option can be named for (`a=b`) is given in the whole object.
        let whole = self
            .parser
            .spec
            .options
            .iter()
            .map(|o| o.name.as_str())
            .find(|name| self.parser.facts(name).is_none());
        let options = self
            .fields
            .iter()
            .filter(|field| !properties.contains_key(*field))
            .map(|field| Unlisted {
                field: field.clone(),
                option: self.parser.option_for(field).or(whole).map(str::to_owned),
                closed,
            });
        let fixed = Value::Object(
            self.arguments
                .iter()
                .filter(|(field, _)| !self.fields.contains(field))
                .map(|(field, value)| (field.clone(), value.clone()))
                .collect(),
        );
        let mut unlisted: Vec<Unlisted> = options.collect();
        unlisted_within(&fixed, schema, "", &mut unlisted);
        unlisted
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

/// The properties `schema` lists, and whether it admits no other field, when it is
/// judged at all ([`DataVerb::fields_not_in`] says which schemas are).
fn judged(schema: &Value) -> Option<(&Map<String, Value>, bool)> {
    let properties = schema.get("properties")?.as_object()?;
    let closed = match schema.get("additionalProperties") {
        None => false,
        Some(Value::Bool(false)) => true,
        Some(_) => return None,
    };
    let patterns = schema.get("patternProperties").and_then(Value::as_object);
    match patterns.is_some_and(|patterns| !patterns.is_empty()) {
        true => None,
        false => Some((properties, closed)),
    }
}

/// Each field of the fixed `value` (at `path`: empty for the arguments, `target.`
/// within one) that `schema` does not list, and within each it lists, the fields its property's
/// schema does not: an object's by its `properties`, an array's items by its `items`.
fn unlisted_within(value: &Value, schema: &Value, path: &str, found: &mut Vec<Unlisted>) {
    match value {
        Value::Object(fields) => {
            let Some((properties, closed)) = judged(schema) else {
                return;
            };
            for (field, value) in fields {
                let at = format!("{path}{field}");
                match properties.get(field) {
                    Some(inner) => unlisted_within(value, inner, &format!("{at}."), found),
                    None => found.push(Unlisted {
                        field: at,
                        option: None,
                        closed,
                    }),
                }
            }
        }
        Value::Array(items) => {
            let Some(inner) = schema.get("items") else {
                return;
            };
            let path = path.strip_suffix('.').unwrap_or(path);
            for (i, item) in items.iter().enumerate() {
                unlisted_within(item, inner, &format!("{path}[{i}]."), found);
            }
        }
        _ => {}
    }
}

/// A field a data verb sends that its tool's input schema does not list
/// ([`DataVerb::fields_not_in`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unlisted {
    /// The argument field, as the file names it (`depth`); one nested in a fixed
    /// argument by its path there (`target.selectr`, `points[1].z`).
    pub field: String,
    /// The option that sets it, without its dashes (`depth` for `--depth`); `None`
    /// for a fixed argument of the file's `arguments` that no option fills. `args` for
    /// an option's field no option can be named for (`a=b`), given in `--args` alone.
    pub option: Option<String>,
    /// The schema admits no other field (`additionalProperties: false`), so a tool
    /// that checks its arguments refuses the call; else it most likely ignores the
    /// field ([`DataVerb::fields_not_in`]).
    pub closed: bool,
}

/// What a refusal of a field with a control character suggests.
const ONE_LINE: &str = "write `summary`, `output`, each example and an option's `field`, `type`, \
     `help` and choices on one line, without control characters; `details` may have several lines";

/// Refuses a control character in a field help, listings and completion show as one
/// line: a summary of "ok\nerror: forged" printed a line of `--help` that reads as
/// mur's own, an example's escape drove the terminal. Named by its place in the file.
/// The name and the tool are judged for every verb, a component's too
/// (`manage::check_info`).
fn one_line(file: &File) -> Result<(), Invalid> {
    let mut fields = vec![("summary".to_owned(), file.summary.as_str())];
    fields.extend(file.output.as_deref().map(|o| ("output".to_owned(), o)));
    for (i, example) in file.examples.iter().enumerate() {
        fields.push((format!("examples[{i}]"), example));
    }
    for (i, option) in file.options.iter().enumerate() {
        for (key, text) in [
            ("field", &option.field),
            ("type", &option.r#type),
            ("help", &option.help),
        ] {
            fields.push((format!("options[{i}].{key}"), text));
        }
        for (j, choice) in option.choices.iter().enumerate() {
            if let Some(text) = choice.as_str() {
                fields.push((format!("options[{i}].choices[{j}]"), text));
            }
        }
    }
    match fields
        .into_iter()
        .find(|(_, text)| text.chars().any(char::is_control))
    {
        Some((field, text)) => Err(Invalid::new(format!(
            "has a control character in `{field}`, which is one line: {text:?}"
        ))
        .hint(ONE_LINE)),
        None => Ok(()),
    }
}

/// The field a misspelt one was likely meant as (`argumnets` → `arguments`, an
/// option's `feild` → `field`), by the one rule ([`mur_core::nearest`]), from serde's
/// refusal of an unknown field, which names the fields of the object it was in:
/// "unknown field `argumnets`, expected one of `schema`, `name`, …" (or "expected
/// `a` or `b`", or "there are no fields").
fn field_meant(refusal: &str) -> Option<String> {
    let rest = refusal.strip_prefix("unknown field `")?;
    let (typed, rest) = rest.split_once('`')?;
    let expected = rest.strip_prefix(", expected ")?;
    // The fields are each in backticks: every second piece between them.
    let fields = expected.split('`').skip(1).step_by(2);
    mur_core::nearest(typed, fields).map(str::to_owned)
}

/// The JSON type each field of a data verb file takes, and of an option's.
const FILE_FIELDS: [(&str, Json); 9] = [
    ("schema", Json::Text),
    ("name", Json::Text),
    ("tool", Json::Text),
    ("summary", Json::Text),
    ("details", Json::Text),
    ("arguments", Json::Object),
    ("options", Json::Array),
    ("output", Json::Text),
    ("examples", Json::Array),
];
const OPTION_FIELDS: [(&str, Json); 5] = [
    ("field", Json::Text),
    ("type", Json::Text),
    ("help", Json::Text),
    ("required", Json::Bool),
    ("choices", Json::Array),
];

/// A JSON type a field takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Json {
    Text,
    Object,
    Array,
    Bool,
}

impl Json {
    fn holds(self, value: &Value) -> bool {
        match self {
            Self::Text => value.is_string(),
            Self::Object => value.is_object(),
            Self::Array => value.is_array(),
            Self::Bool => value.is_boolean(),
        }
    }

    fn said(self) -> &'static str {
        match self {
            Self::Text => "a string",
            Self::Object => "a JSON object",
            Self::Array => "an array",
            Self::Bool => "`true` or `false`",
        }
    }
}

/// What JSON `value` is, in the words of [`Json::said`].
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "`true` or `false`",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "a JSON object",
    }
}

/// The first field of the file `bytes` whose JSON type is wrong, named (`arguments`,
/// `options[0].required`, `examples[1]`), when serde refused the file: its "invalid
/// type: string "#count", expected a map at line 1 column 85" named no field. `None`
/// when the file is no JSON object, or every field it has is of its type.
fn mistyped(bytes: &[u8]) -> Option<Invalid> {
    let Ok(Value::Object(file)) = serde_json::from_slice::<Value>(bytes) else {
        return None;
    };
    let wrong = |at: String, value: &Value, want: Json| {
        let why = format!(
            "is not a data verb: its `{at}` is {}, not {}",
            json_type(value),
            want.said()
        );
        Some(match at.as_str() {
            "arguments" => Invalid::new(why).hint(
                "`arguments` holds the tool's fixed arguments by field: \
                 `\"arguments\": {\"selector\": \"#count\"}`",
            ),
            _ => Invalid::new(why),
        })
    };
    for (field, want) in FILE_FIELDS {
        // An absent `output` is written `null` too.
        match file.get(field) {
            Some(Value::Null) if field == "output" => {}
            Some(value) if !want.holds(value) => return wrong(field.to_owned(), value, want),
            _ => {}
        }
    }
    let listed = |field: &str| {
        file.get(field)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
    };
    for (n, option) in listed("options").enumerate() {
        let Some(option) = option.as_object() else {
            return wrong(format!("options[{n}]"), option, Json::Object);
        };
        for (field, want) in OPTION_FIELDS {
            if let Some(value) = option.get(field).filter(|v| !want.holds(v)) {
                return wrong(format!("options[{n}].{field}"), value, want);
            }
        }
    }
    listed("examples")
        .enumerate()
        .find(|(_, example)| !example.is_string())
        .and_then(|(n, example)| wrong(format!("examples[{n}]"), example, Json::Text))
}

/// The types an option may have.
const TYPES: [&str; 6] = ["string", "integer", "number", "boolean", "array", "json"];

/// The type a mistyped one was likely meant as: one near it by the one rule
/// ([`mur_core::nearest`]: `int`, `bool`, `strng`), or the one a programming
/// language's word for it stands for (`float`, `list`, `object`), as the Python
/// kit answers `kind="int"`.
fn meant_type(typed: &str) -> Option<&'static str> {
    const SAID_ELSEWHERE: [(&str, &str); 6] = [
        ("float", "number"),
        ("double", "number"),
        ("list", "array"),
        ("object", "json"),
        ("dict", "json"),
        ("any", "json"),
    ];
    let typed = typed.to_ascii_lowercase();
    SAID_ELSEWHERE
        .iter()
        .find(|(said, _)| *said == typed)
        .map(|(_, meant)| *meant)
        .or_else(|| TYPES.into_iter().find(|ty| *ty == typed))
        .or_else(|| mur_core::nearest(&typed, TYPES))
}

/// The JSON Schema of an option, as a tool's `inputSchema` would give it: an
/// option `mur` can name (a field with a letter or a digit), whose choices are
/// values of its type.
fn property(option: &OptionField) -> Result<Value, Invalid> {
    if option.field.is_empty() {
        return Err(Invalid::new("has an option with an empty `field`").hint(
            "set `field` to the argument the option fills, as in `{\"field\": \"selector\"}`",
        ));
    }
    if crate::derived::kebab(&option.field).is_empty() {
        return Err(Invalid::new(format!(
            "has an option for field `{}`, which has no letter or digit to name an option after",
            option.field.escape_debug()
        )));
    }
    let ty = match option.r#type.as_str() {
        "string" | "integer" | "number" | "boolean" => json!({"type": option.r#type}),
        "array" => json!({"type": "array", "items": {"type": "string"}}),
        "json" => json!({}),
        other => {
            let invalid = Invalid::new(format!(
                "gives option `{}` the type `{other}`; one of {}",
                option.field,
                TYPES.join(", ")
            ));
            return Err(match meant_type(other) {
                Some(meant) => invalid.hint(format!("did you mean `{meant}`?")),
                None => invalid,
            });
        }
    };
    check_choices(option)?;
    let mut schema = ty;
    schema["description"] = Value::from(option.help.clone());
    if !option.choices.is_empty() {
        schema["enum"] = Value::Array(option.choices.clone());
    }
    Ok(schema)
}

/// Each choice of an option is a value its type gives, or no value typed on the
/// command line could ever be that choice (a choice `1` of a `string` option
/// refused `--mode 1` with "must be `1` or `2`, got `1`").
fn check_choices(option: &OptionField) -> Result<(), Invalid> {
    let field = &option.field;
    let ty = option.r#type.as_str();
    if ty == "boolean" && !option.choices.is_empty() {
        return Err(Invalid::new(format!(
            "gives option `{field}` choices, but it is a `boolean` (a bare flag)"
        ))
        .hint("leave out `choices`, or give the option the type of its choices"));
    }
    let (fits, what): (fn(&Value) -> bool, &str) = match ty {
        "string" | "array" => (Value::is_string, "a string"),
        "integer" => (
            |v| v.as_f64().is_some_and(|n| n.fract() == 0.0),
            "an integer",
        ),
        "number" => (Value::is_number, "a number"),
        _ => return Ok(()), // json: any value
    };
    let Some(wrong) = option.choices.iter().find(|c| !fits(c)) else {
        return Ok(());
    };
    let of_type = |choice: &Value| match choice {
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Bool(_) => "boolean",
        _ => "json",
    };
    Err(Invalid::new(format!(
        "gives option `{field}` the choice `{wrong}`, which is not {what} (the option's `type` is `{ty}`)"
    ))
    .hint(format!(
        "write every choice as {what}, or give the option the type of its choices (`\"type\": \"{}\"`)",
        of_type(wrong)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::derived::WITHIN;

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
            verb.parse(&argv(&[]), WITHIN),
            Ok(Request::Call(
                json!({"selector": "#count"})
                    .as_object()
                    .expect("o")
                    .clone()
            ))
        );
        assert_eq!(
            verb.parse(&argv(&["--selector", "#other"]), WITHIN),
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
        let help = verb.help();
        assert!(
            help.starts_with("Usage: mur devtools count [<selector>] [--args JSON]\n\nPrint the counter's value\n\nTool `state`.\n\nArguments:\n  [<selector>]  the same as `--selector S`\n"),
            "{help}"
        );
        assert!(
            help.ends_with("\nExamples:\n  mur devtools count\n"),
            "{help}"
        );
        // The hints a session listed for its tool, as a component verb's help says them.
        let hinted = verb.with_hints(&["read-only".to_owned(), "idempotent".to_owned()]);
        assert!(
            hinted.help().starts_with("Usage: mur devtools count [<selector>] [--args JSON]\n\nPrint the counter's value\n\nTool `state`: read-only, idempotent.\n\nArguments:\n"),
            "{}", hinted.help()
        );
    }

    /// A field of the wrong JSON type is named, as serde's "invalid type: string
    /// "#count", expected a map at line 1 column 85" did not; `arguments` and a bad
    /// `output` get a hint of their own, not the generic one that lists the fields.
    #[test]
    fn a_field_of_the_wrong_type_is_named_and_a_bad_output_says_what_a_pointer_is() {
        let verb = |rest: &str| {
            let text = format!(
                r#"{{"schema": "mur-verb/1", "name": "x", "tool": "t", "summary": "s"{rest}}}"#
            );
            DataVerb::from_bytes(text.as_bytes()).err()
        };
        assert_eq!(
            verb(r##", "arguments": "#count""##),
            Some(
                Invalid::new("is not a data verb: its `arguments` is a string, not a JSON object")
                    .hint(
                        "`arguments` holds the tool's fixed arguments by field: \
                         `\"arguments\": {\"selector\": \"#count\"}`"
                    )
            )
        );
        for (rest, message) in [
            (
                r#", "summary": 3"#,
                "its `summary` is a number, not a string",
            ),
            (
                r#", "options": {"field": "a"}"#,
                "its `options` is a JSON object, not an array",
            ),
            (
                r#", "options": [{"field": "a", "required": "yes"}]"#,
                "its `options[0].required` is a string, not `true` or `false`",
            ),
            (
                r#", "examples": ["a", 2]"#,
                "its `examples[1]` is a number, not a string",
            ),
        ] {
            // `summary` twice: serde takes the last.
            assert_eq!(
                verb(rest),
                Some(Invalid::new(format!("is not a data verb: {message}"))),
                "{rest}"
            );
        }
        assert_eq!(verb(r#", "output": null"#).map(|e| e.why), None);
        for (output, meant) in [("text", "/text"), ("items.0.text", "/items/0/text")] {
            assert_eq!(
                verb(&format!(r#", "output": "{output}""#)),
                Some(
                    Invalid::new(format!(
                        "has output `{output}`, which is not a JSON pointer (`/text`)"
                    ))
                    .hint(format!(
                        "did you mean `{meant}`? `output` is a JSON pointer into the tool's \
                         result, a `/` before each key (`/items/0/text`); leave it out to print \
                         the whole result"
                    ))
                )
            );
        }
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
                r#"{"schema": "mur-verb/1", "name": "x", "tool": "t", "summary": "s", "options": [{"field": "a", "type": "date"}]}"#,
                "gives option `a` the type `date`; one of string, integer, number, boolean, array, json",
            ),
        ] {
            assert_eq!(
                DataVerb::from_bytes(text.as_bytes()).err(),
                Some(Invalid::new(message)),
                "{text}"
            );
        }
        // A type near one, or a language's word for one, is answered with it.
        for (typed, meant) in [
            ("int", "integer"),
            ("Integer", "integer"),
            ("bool", "boolean"),
            ("strng", "string"),
            ("float", "number"),
            ("list", "array"),
            ("object", "json"),
        ] {
            let text = format!(
                r#"{{"schema": "mur-verb/1", "name": "x", "tool": "t", "summary": "s", "options": [{{"field": "a", "type": "{typed}"}}]}}"#
            );
            assert_eq!(
                DataVerb::from_bytes(text.as_bytes()).err(),
                Some(
                    Invalid::new(format!(
                        "gives option `a` the type `{typed}`; one of string, integer, number, boolean, array, json"
                    ))
                    .hint(format!("did you mean `{meant}`?"))
                ),
                "{text}"
            );
        }
        // A data verb, and each of its options, is a JSON object, never its fields in an
        // array (which serde's derive takes), nor any other JSON.
        for (text, message) in [
            (
                r#"["mur-verb/1", "arrverb", "state", "An array verb"]"#,
                "is not a data verb: invalid type: array, expected a JSON object at line 1 column 1",
            ),
            (
                "[]",
                "is not a data verb: invalid type: array, expected a JSON object at line 1 column 2",
            ),
            (
                r#""mur-verb/1""#,
                "is not a data verb: invalid type: string \"mur-verb/1\", expected a JSON object \
                 at line 1 column 12",
            ),
            (
                r#"{"schema": "mur-verb/1", "name": "x", "tool": "t", "summary": "s", "options": [["a", "string"]]}"#,
                "is not a data verb: its `options[0]` is an array, not a JSON object",
            ),
        ] {
            assert_eq!(
                DataVerb::from_bytes(text.as_bytes()).err(),
                Some(Invalid::new(message)),
                "{text}"
            );
        }
        let unknown = DataVerb::from_bytes(
            br#"{"schema": "mur-verb/1", "name": "x", "tool": "t", "summary": "s", "run": "rm -rf"}"#,
        )
        .err()
        .map(|e| e.why)
        .unwrap_or_default();
        assert!(
            unknown.starts_with("is not a data verb: unknown field `run`"),
            "{unknown}"
        );
    }

    /// A misspelt field, the file's or an option's, is told the field meant by the one
    /// rule (audit 271: "unknown field `argumnets`" alone); a field like none, none.
    #[test]
    fn a_misspelt_field_is_told_the_field_meant() {
        let top = |field: &str| {
            format!(
                r#"{{"schema": "mur-verb/1", "name": "x", "tool": "t", "summary": "s", "{field}": {{}}}}"#
            )
        };
        let option = |field: &str| {
            format!(
                r#"{{"schema": "mur-verb/1", "name": "x", "tool": "t", "summary": "s", "options": [{{"field": "a", "{field}": 1}}]}}"#
            )
        };
        for (text, meant) in [
            (top("argumnets"), Some("arguments")),
            (top("exmaples"), Some("examples")),
            (top("Summary"), Some("summary")),
            (option("feild"), Some("field")),
            (option("choises"), Some("choices")),
            (top("run"), None),
        ] {
            let refused = DataVerb::from_bytes(text.as_bytes()).expect_err("refused");
            assert!(refused.why.contains("unknown field"), "{refused}");
            assert_eq!(
                refused.hint,
                meant.map(|meant| format!("did you mean `{meant}`?")),
                "{text}"
            );
        }
    }

    /// A control character in a field shown as one line is refused, the field named: a
    /// summary's newline printed a second line of `--help`, `error: forged`.
    #[test]
    fn a_control_character_in_a_one_line_field_is_refused_naming_the_field() {
        let refused = |fields: &str| {
            let text = format!(r#"{{"schema": "mur-verb/1", "name": "x", "tool": "t", {fields}}}"#);
            DataVerb::from_bytes(text.as_bytes())
                .err()
                .map(|e| (e.why, e.hint))
        };
        let one_line = |field: &str, text: &str| {
            Some((
                format!("has a control character in `{field}`, which is one line: {text}"),
                Some(ONE_LINE.to_owned()),
            ))
        };
        for (fields, field, shown) in [
            (
                r#""summary": "ok\nerror: forged""#,
                "summary",
                r#""ok\nerror: forged""#,
            ),
            (
                r#""summary": "s", "examples": ["mur devtools x", "x\u001b[2J"]"#,
                "examples[1]",
                r#""x\u{1b}[2J""#,
            ),
            (
                r#""summary": "s", "options": [{"field": "a", "choices": ["b", 1, "c\rd"]}]"#,
                "options[0].choices[2]",
                r#""c\rd""#,
            ),
            (
                r#""summary": "s", "options": [{"field": "a"}, {"field": "b", "help": "h\tx"}]"#,
                "options[1].help",
                r#""h\tx""#,
            ),
        ] {
            assert_eq!(refused(fields), one_line(field, shown), "{fields}");
        }
        // `details` is several lines.
        assert_eq!(refused(r#""summary": "s", "details": "a\n\nb""#), None);
    }

    /// A data verb `x` with these options.
    fn with_options(options: &str) -> Result<DataVerb, Invalid> {
        let text = format!(
            r#"{{"schema": "mur-verb/1", "name": "x", "tool": "t", "summary": "s", "options": {options}}}"#
        );
        DataVerb::from_bytes(text.as_bytes())
    }

    #[test]
    fn options_no_argv_could_use_are_refused_with_a_hint() {
        for (options, why, hint) in [
            (
                r#"[{"field": "selector"}, {"field": "selector"}]"#,
                "has two options for field `selector`",
                Some(
                    "give each argument field one option (an `array` option may be given many times)",
                ),
            ),
            (
                r#"[{"field": ""}]"#,
                "has an option with an empty `field`",
                Some(
                    r#"set `field` to the argument the option fills, as in `{"field": "selector"}`"#,
                ),
            ),
            (
                r#"[{"field": "--"}]"#,
                "has an option for field `--`, which has no letter or digit to name an option after",
                None,
            ),
            (
                r#"[{"field": "mode", "choices": [1, 2]}]"#,
                "gives option `mode` the choice `1`, which is not a string (the option's `type` is `string`)",
                Some(
                    r#"write every choice as a string, or give the option the type of its choices (`"type": "integer"`)"#,
                ),
            ),
            (
                r#"[{"field": "n", "type": "integer", "choices": [1, 2.5]}]"#,
                "gives option `n` the choice `2.5`, which is not an integer (the option's `type` is `integer`)",
                Some(
                    r#"write every choice as an integer, or give the option the type of its choices (`"type": "number"`)"#,
                ),
            ),
            (
                r#"[{"field": "ratio", "type": "number", "choices": ["1"]}]"#,
                r#"gives option `ratio` the choice `"1"`, which is not a number (the option's `type` is `number`)"#,
                Some(
                    r#"write every choice as a number, or give the option the type of its choices (`"type": "string"`)"#,
                ),
            ),
            (
                r#"[{"field": "tags", "type": "array", "choices": [true]}]"#,
                "gives option `tags` the choice `true`, which is not a string (the option's `type` is `array`)",
                Some(
                    r#"write every choice as a string, or give the option the type of its choices (`"type": "boolean"`)"#,
                ),
            ),
            (
                r#"[{"field": "visible", "type": "boolean", "choices": [true]}]"#,
                "gives option `visible` choices, but it is a `boolean` (a bare flag)",
                Some("leave out `choices`, or give the option the type of its choices"),
            ),
        ] {
            let invalid = with_options(options).expect_err(options);
            assert_eq!(
                (invalid.why.as_str(), invalid.hint.as_deref()),
                (why, hint),
                "{options}"
            );
        }
        // Choices of the option's own type are fine, numbers by value.
        for options in [
            r#"[{"field": "mode", "choices": ["1", "2"]}]"#,
            r#"[{"field": "n", "type": "integer", "choices": [1, 2.0]}]"#,
            r#"[{"field": "ratio", "type": "number", "choices": [0.5, 1]}]"#,
            r#"[{"field": "any", "type": "json", "choices": [1, "a", null]}]"#,
        ] {
            assert!(with_options(options).is_ok(), "{options}");
        }
        let verb = with_options(r#"[{"field": "mode", "choices": ["1", "2"]}]"#).expect("ok");
        assert_eq!(
            verb.parse(&argv(&["--mode", "1"]), WITHIN),
            Ok(Request::Call(
                json!({"mode": "1"}).as_object().expect("o").clone()
            ))
        );
    }

    /// A field named like a host option is `--arg-NAME`, as in a derived verb, so
    /// `--timeout` after the verb's name is still the host's.
    #[test]
    fn a_field_named_like_a_host_option_is_behind_arg() {
        let verb = with_options(r#"[{"field": "timeout", "type": "integer"}, {"field": "help"}]"#)
            .expect("a data verb");
        let names: Vec<&str> = verb.spec.options.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["arg-timeout", "arg-help", "args"]);
        assert_eq!(
            verb.parse(&argv(&["--arg-timeout", "5"]), WITHIN),
            Ok(Request::Call(
                json!({"timeout": 5}).as_object().expect("o").clone()
            ))
        );
        assert_eq!(
            verb.parse(&argv(&["--timeout", "5"]), WITHIN),
            Err("unknown option `--timeout`; did you mean `--arg-timeout`?".to_owned())
        );
    }

    /// The fields a verb sends that its tool's schema does not list: each option by the
    /// name its parser gives it (`--arg-timeout`, required ones sorted first by the
    /// parser but said in the file's order), then each fixed argument no option fills.
    /// Nothing where the schema lists no properties or admits any other.
    #[test]
    fn the_fields_a_schema_does_not_list_are_named_with_their_options() {
        let verb = DataVerb::from_bytes(
            br##"{"schema": "mur-verb/1", "name": "deep", "tool": "tree", "summary": "s",
                 "arguments": {"selector": "#x", "mode": "all"},
                 "options": [{"field": "depth", "type": "integer"},
                             {"field": "selector"},
                             {"field": "timeout", "type": "integer", "required": true}]}"##,
        )
        .expect("a data verb");
        let schema = json!({"type": "object", "properties": {"selector": {"type": "string"}}});
        let option = |field: &str, option: &str| Unlisted {
            field: field.to_owned(),
            option: Some(option.to_owned()),
            closed: false,
        };
        assert_eq!(
            verb.fields_not_in(&schema),
            [
                option("depth", "depth"),
                option("timeout", "arg-timeout"),
                Unlisted {
                    field: "mode".to_owned(),
                    option: None,
                    closed: false,
                },
            ]
        );
        let all = json!({"properties": {"selector": {}, "depth": {}, "timeout": {}, "mode": {}}});
        assert_eq!(verb.fields_not_in(&all), []);
        for says_nothing in [
            json!({"type": "object"}),
            json!({"type": "object", "properties": {}, "additionalProperties": true}),
        ] {
            assert_eq!(verb.fields_not_in(&says_nothing), [], "{says_nothing}");
        }
        let closed = json!({"type": "object", "properties": {}, "additionalProperties": false});
        assert_eq!(verb.fields_not_in(&closed).len(), 4);
    }

    /// Each option is named by the option its parser gives its field, whatever the other
    /// fields: with a field no option can be named for (`a=b` beside `a-b`, given in
    /// `--args` alone), `timeout` is still `--arg-timeout` (the options were once guessed by
    /// position, and then all named by kebab case: "`deep --timeout` sets `timeout`").
    #[test]
    fn an_option_is_named_as_its_parser_names_it_beside_a_field_no_option_can_be() {
        let verb = DataVerb::from_bytes(
            br#"{"schema": "mur-verb/1", "name": "deep", "tool": "tree", "summary": "s",
                 "options": [{"field": "a=b"}, {"field": "a-b"},
                             {"field": "timeout", "type": "integer"},
                             {"field": "depth", "type": "integer", "required": true}]}"#,
        )
        .expect("a data verb");
        let schema = json!({"type": "object", "properties": {}, "additionalProperties": false});
        let named: Vec<(String, Option<String>)> = verb
            .fields_not_in(&schema)
            .into_iter()
            .map(|u| (u.field, u.option))
            .collect();
        let named: Vec<(&str, Option<&str>)> = named
            .iter()
            .map(|(f, o)| (f.as_str(), o.as_deref()))
            .collect();
        assert_eq!(
            named,
            [
                ("a=b", Some("args")),
                ("a-b", Some("a-b")),
                ("timeout", Some("arg-timeout")),
                ("depth", Some("depth")),
            ]
        );
        assert_eq!(
            verb.parse(&argv(&["--depth", "1", "--arg-timeout", "5"]), WITHIN),
            Ok(Request::Call(
                json!({"depth": 1, "timeout": 5})
                    .as_object()
                    .expect("o")
                    .clone()
            ))
        );
    }

    /// A fixed argument's object is judged against its property's schema, and an
    /// array's objects against its `items`, by the same rules as the arguments: a field
    /// nested in one that the schema does not list is named by its path, closed where
    /// its own schema is. A nested schema that says nothing (no `properties`, `$ref`)
    /// and an option's field (a key, typed at call time) are not looked into.
    #[test]
    fn a_fixed_arguments_nested_field_the_schema_does_not_list_is_named_by_its_path() {
        let verb = DataVerb::from_bytes(
            br##"{"schema": "mur-verb/1", "name": "x", "tool": "t", "summary": "s",
                 "arguments": {"target": {"selectr": "#x", "frame": {"id": 1, "nme": "f"}},
                               "points": [{"x": 1}, {"x": 2, "z": 3}],
                               "any": {"whatever": 1},
                               "style": {"colour": "red"}},
                 "options": [{"field": "style", "type": "json"}]}"##,
        )
        .expect("a data verb");
        let schema = json!({"type": "object", "properties": {
            "target": {"type": "object", "additionalProperties": false, "properties": {
                "selector": {"type": "string"},
                "frame": {"type": "object", "properties": {"id": {"type": "integer"}}}
            }},
            "points": {"type": "array", "items": {"properties": {"x": {}, "y": {}}}},
            "any": {"$ref": "#/$defs/Any"},
            "style": {"type": "object", "properties": {"color": {}}}
        }});
        let fixed = |field: &str, closed: bool| Unlisted {
            field: field.to_owned(),
            option: None,
            closed,
        };
        assert_eq!(
            verb.fields_not_in(&schema),
            [
                fixed("target.selectr", true),
                fixed("target.frame.nme", false),
                fixed("points[1].z", false),
            ]
        );
    }

    /// Which schemas are judged, and how: a missing `additionalProperties` is judged
    /// (most servers leave it out, and their tools drop a field they do not declare:
    /// `closed` false, "most likely ignores"), `false` closes the schema; `true` or a
    /// schema for the other fields, or any `patternProperties` (no regex engine to
    /// match them), says nothing.
    #[test]
    fn a_schema_is_judged_closed_open_or_not_at_all_by_its_additional_properties() {
        let verb = DataVerb::from_bytes(
            br#"{"schema": "mur-verb/1", "name": "x", "tool": "t", "summary": "s",
                 "options": [{"field": "x-extra"}]}"#,
        )
        .expect("a data verb");
        let closed_of = |schema: Value| -> Vec<bool> {
            verb.fields_not_in(&schema)
                .into_iter()
                .map(|u| u.closed)
                .collect()
        };
        assert_eq!(closed_of(json!({"properties": {"a": {}}})), [false]);
        assert_eq!(
            closed_of(json!({"properties": {"a": {}}, "additionalProperties": false})),
            [true]
        );
        assert_eq!(
            closed_of(json!({"properties": {"a": {}}, "patternProperties": {}})),
            [false]
        );
        for says_nothing in [
            json!({"properties": {"a": {}}, "additionalProperties": true}),
            json!({"properties": {"a": {}}, "additionalProperties": {"type": "string"}}),
            json!({"properties": {"a": {}}, "patternProperties": {"^x-": {}}}),
            json!({"properties": {"a": {}}, "patternProperties": {"^y-": {}},
                   "additionalProperties": false}),
        ] {
            assert_eq!(
                closed_of(says_nothing.clone()),
                [false; 0],
                "{says_nothing}"
            );
        }
    }
}
