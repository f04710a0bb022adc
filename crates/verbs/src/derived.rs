//! Derived verbs: a verb for every tool a session lists, made from the tool's
//! `inputSchema` — each property a `--kebab-name` option — so a tool is a
//! documented, completable command the day it ships, with no change to mur.
//!
//! The mapping lives in the host, not in a component: the schema is data the
//! host already holds (from `tools/list`), the result is a [`VerbSpec`] that
//! help, completion and the catalog render like any verb's, and no code runs
//! that a component would have to be trusted or instantiated for.
//!
//! The argv parser is written here rather than built on clap: its errors must
//! be one line naming the option, in the same words as the verb kits', and it
//! must type each value by the schema (integer, number, boolean, JSON).

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use serde_json::{Map, Value};

#[cfg(test)]
use crate::spec::HELP_COLUMNS;
use crate::spec::{Param, ValueKind, VerbSpec, with_tool_line};

/// The host's long options. `mur` takes them anywhere in a derived verb's argv,
/// since its options are known only once the tool list is read, after discovery
/// needed `--endpoint` and the rest; so a property of one of these names (or
/// `help`) is the option `--arg-NAME` instead (`--arg-timeout`). One list for the
/// host and the verb kits, which name a misspelt one after a verb's name
/// (`--projct`); the host's tests hold it to its clap tree.
pub fn host_options() -> &'static [&'static str] {
    static LIST: LazyLock<Vec<&str>> = LazyLock::new(|| {
        include_str!("../../../plugins/kit/src/host-options.txt")
            .lines()
            .collect()
    });
    &LIST
}

/// A tool seen as a verb.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    /// `wait-for` for tool `waitFor`.
    pub name: String,
    pub tool: String,
    pub summary: String,
    pub spec: VerbSpec,
    /// The tool's hints, in words (`read-only`, `destructive`, …).
    pub annotations: Vec<String>,
    fields: Vec<Field>,
    /// Whether the tool has a property named `""`, which no option can be (`--` ends
    /// the options), and so is given in the whole object alone; `Some(true)` when required.
    unnamed: Vec<(String, bool)>,
    /// The option that gives the whole arguments object: `args`, or
    /// `all-args` when a property of the tool is itself `--args`.
    whole: String,
    /// `out` when the verb takes `--out FILE` ([`Derived::take_out`]): a derived
    /// verb whose tool has no property of its own called so; not a data verb.
    media: Option<&'static str>,
    /// The schema admits no field it does not list (`additionalProperties: false`):
    /// `--args` can give the tool no other, and an unknown option's refusal says not
    /// that it can ([`Derived::unknown_option`]).
    closed: bool,
}

/// What a derived verb's option is beside its [`Param`] ([`Derived::facts`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    /// The schema's `default`, when it gives one: what the tool takes the option
    /// left out to be (`null` for `Optional[T] = None`).
    pub default: Option<Value>,
    /// The word `null` is JSON null (the schema admits it), not the text "null".
    pub nullable: bool,
    /// The bounds the verb holds the option's value (each value, and a list's length) to
    /// before the call, by the names JSON Schema gives them (`minimum`, `exclusiveMaximum`,
    /// `minLength`, `maxItems`, …; the older `exclusiveMinimum: true` written as the
    /// bound); empty when the schema sets none, or sets them so that no value fits
    /// ([`Range`]).
    pub range: Map<String, Value>,
}

/// How a derived verb's help says a question its tool asks is answered ([`Derived::help`]).
/// (On a terminal mur asks; elsewhere the question ends the call, exit 5, its hint
/// naming the keys, `--answer confirm=true`: the keys are known only once asked.)
const ANSWER: &str =
    "If the tool asks a question, `--answer KEY=VALUE` answers it (exit 5 names KEY).";

/// The option with which a derived verb writes its result's media to files.
const OUT: &str = "out";

/// One option, and the property and type it fills.
#[derive(Debug, Clone, PartialEq)]
struct Field {
    option: String,
    property: String,
    ty: Type,
    required: bool,
    /// The schema's `enum`, if any (an array's: its items'): the only values accepted.
    choices: Vec<Value>,
    /// The schema admits `null`: the word `null` sends it ([`nullable`]).
    nullable: bool,
    /// The schema's `default`, if it gives one (`null` for `Optional[T] = None`).
    default: Option<Value>,
    /// The schema's bounds of each value (`minimum`, `maxLength`, …), if it sets any.
    range: Option<Range>,
    /// A list's `minItems` and `maxItems`, if the schema sets them.
    count: Option<Range>,
}

impl Field {
    /// How an error names the option: `` `--delay` ``.
    fn said(&self) -> String {
        format!("`--{}`", self.option)
    }

    /// Whether `@FILE` reads this option's value from a file ([`Source`]): a text or
    /// JSON option (`TEXT`, `JSON`), or a list of them, and not a choice. Not a
    /// selector `S` nor a window `W` ([`text_param`]): never too long for a command
    /// line, which `@FILE` is for, and a word as the standard verbs' `--selector S`
    /// takes it, whose kit reads no file (`--selector @x` read file `x` here, and
    /// sent `@x` there).
    fn reads_files(&self) -> bool {
        let ty = match &self.ty {
            Type::Array(item) => item,
            ty => ty,
        };
        let word = self.ty == Type::String && is_word_option(&self.option);
        self.choices.is_empty() && !word && matches!(ty, Type::String | Type::Json(_))
    }

    /// What the schema says of this option that its [`Param`] does not ([`Derived::facts`]).
    fn facts(&self) -> Facts {
        Facts {
            default: self.default.clone(),
            nullable: self.nullable,
            range: [&self.range, &self.count]
                .into_iter()
                .flatten()
                .flat_map(Range::named)
                .collect(),
        }
    }
}

/// The option whose value is stdin, in one argv: stdin can be read only once.
#[derive(Default)]
pub(crate) struct StdinUse(Option<String>);

impl StdinUse {
    pub(crate) fn take(&mut self, source: Source, option: &str) -> Result<(), String> {
        if source != Source::Stdin {
            return Ok(());
        }
        match self.0.replace(option.to_owned()) {
            Some(first) => Err(format!(
                "`--{option}` reads stdin, which `--{first}` reads already: stdin can be read \
                 once (give one of them `@FILE`)"
            )),
            None => Ok(()),
        }
    }
}

/// The bytes the values of one argv read from files and stdin, against
/// [`MAX_VALUE_BYTES`]: a repeated option may name a file again and again.
#[derive(Default)]
pub(crate) struct ReadBytes(u64);

impl ReadBytes {
    pub(crate) fn add<'t>(&mut self, text: Text<'t>, option: &str) -> Result<Text<'t>, String> {
        self.0 += text.read_bytes();
        if self.0 > MAX_VALUE_BYTES {
            return Err(format!(
                "`--{option}`: the values read from files and stdin come to more than \
                 {VALUE_BYTES_SAID}"
            ));
        }
        Ok(text)
    }
}

/// How an option's words become a JSON value.
#[derive(Debug, Clone, PartialEq)]
enum Type {
    String,
    Integer,
    Number,
    Boolean,
    /// A repeatable option, one item per use.
    Array(Box<Type>),
    /// Anything else (objects, unions, references): the value is JSON, of these kinds.
    Json(Kinds),
}

/// The kinds of JSON value a schema admits (`type`, `enum`, `const`, the members of
/// `anyOf`/`oneOf`), or any when it does not say ([`kinds_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Kinds(Option<u8>);

impl Kinds {
    const NULL: u8 = 1;
    const BOOLEAN: u8 = 2;
    const INTEGER: u8 = 4;
    const NUMBER: u8 = 8;
    const STRING: u8 = 16;
    const ARRAY: u8 = 32;
    const OBJECT: u8 = 64;
    const ANY: Self = Self(None);

    fn of_type(name: &str) -> Self {
        Self(Some(match name {
            "null" => Self::NULL,
            "boolean" => Self::BOOLEAN,
            "integer" => Self::INTEGER,
            "number" => Self::NUMBER,
            "string" => Self::STRING,
            "array" => Self::ARRAY,
            "object" => Self::OBJECT,
            _ => return Self::ANY,
        }))
    }

    fn of_value(value: &Value) -> Self {
        Self(Some(match value {
            Value::Null => Self::NULL,
            Value::Bool(_) => Self::BOOLEAN,
            Value::Number(n) if n.is_f64() => Self::NUMBER,
            Value::Number(_) => Self::INTEGER,
            Value::String(_) => Self::STRING,
            Value::Array(_) => Self::ARRAY,
            Value::Object(_) => Self::OBJECT,
        }))
    }

    fn or(self, other: Self) -> Self {
        match (self.0, other.0) {
            (Some(a), Some(b)) => Self(Some(a | b)),
            _ => Self::ANY,
        }
    }

    fn has(self, kind: u8) -> bool {
        self.0.is_none_or(|bits| bits & kind != 0)
    }

    /// Whether `value` is of one of these kinds (a whole number is a number too).
    fn admits(self, value: &Value) -> bool {
        let Some(bits) = self.0 else { return true };
        let of = Self::of_value(value).0.unwrap_or(0);
        bits & of != 0 || (of == Self::INTEGER && bits & Self::NUMBER != 0)
    }

    /// "a JSON object or an array", for an error.
    fn words(self) -> String {
        let Some(bits) = self.0 else {
            return "JSON".to_owned();
        };
        named(
            bits,
            &[
                (Self::OBJECT, "a JSON object"),
                (Self::ARRAY, "a JSON array"),
                (Self::STRING, "text"),
                (Self::INTEGER, "an integer"),
                (Self::NUMBER, "a number"),
                (Self::BOOLEAN, "`true` or `false`"),
                (Self::NULL, "`null`"),
            ],
        )
        .join(" or ")
    }

    /// The value name of a union of plain values (`N|TEXT`); `None` when it may be an
    /// object or an array, or is not known.
    fn value_name(self) -> Option<String> {
        let bits = self.0?;
        if bits & (Self::OBJECT | Self::ARRAY) != 0 {
            return None;
        }
        let words = named(
            bits,
            &[
                (Self::INTEGER, "N"),
                (Self::NUMBER, "NUMBER"),
                (Self::STRING, "TEXT"),
                (Self::BOOLEAN, "true|false"),
            ],
        );
        (!words.is_empty()).then(|| words.join("|"))
    }
}

/// The words of `table` whose kind is among `bits`, in the table's order.
fn named(bits: u8, table: &[(u8, &'static str)]) -> Vec<&'static str> {
    table
        .iter()
        .filter(|(kind, _)| bits & kind != 0)
        .map(|(_, word)| *word)
        .collect()
}

/// What a derived verb's argv asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    Call(Map<String, Value>),
    Help,
}

/// The most bytes the values of one command read from files and stdin (`@FILE`, `@-`,
/// `--args @FILE|-`) come to, all of them together: what a session takes in one
/// request (mur's sessions refuse a body over 4 MiB; the body holds the values, escaped
/// as JSON, and the request around them), and so a bound on what one command reads
/// into memory however many values name files.
pub const MAX_VALUE_BYTES: u64 = mur_lockfile::endpoint::MAX_REQUEST_BYTES as u64;

/// What a message says of [`MAX_VALUE_BYTES`].
const VALUE_BYTES_SAID: &str = "4 MiB, what a session takes in one request";

/// Where the value of an option comes from: as typed, or read from a file or stdin.
///
/// The rule, for a text or JSON option of a derived verb: `@FILE` is FILE's contents
/// as they are (no line end dropped), `@-` is stdin's, and `@@…` is the value typed
/// less its first `@` (`--handle @@bob` sends `@bob`). For the whole arguments object
/// (`--args`, and `call --args`), `-` is stdin too: no JSON value is `-` or begins
/// with `@`, so nothing typed there is read differently than before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source<'a> {
    Typed(&'a str),
    File(&'a str),
    Stdin,
}

impl<'a> Source<'a> {
    /// A text or JSON option's word.
    pub fn of_value(word: &'a str) -> Self {
        match word.strip_prefix('@') {
            Some("-") => Self::Stdin,
            Some(rest) if rest.starts_with('@') => Self::Typed(rest),
            Some(path) => Self::File(path),
            None => Self::Typed(word),
        }
    }

    /// The whole arguments object's word: [`Source::of_value`], and `-` is stdin.
    pub fn of_whole(word: &'a str) -> Self {
        if word == "-" {
            Self::Stdin
        } else {
            Self::of_value(word)
        }
    }

    /// The text of option `--{option}`'s value; an error is one line naming the
    /// option and the file. A file or stdin is read through `bounded` (at most
    /// [`MAX_VALUE_BYTES`]; a regular file or a pipe, never a device), once a process
    /// ([`read_once`]), so a verb's argv read again (against a fresh tool list) gets
    /// the same value, and one read before the session was asked ([`prefetch`]) is
    /// not read again. `within` bounds reading a pipe ([`read_once`]).
    pub fn read(self, option: &str, within: Duration) -> Result<Text<'a>, String> {
        self.read_as(option, within, false)
    }

    /// [`Source::read`] for a text option's value, whose missing file is said with the
    /// option that sends the word as typed (`--message '@@alice hi'` for `--message
    /// '@alice hi'`, no file `alice hi`): a value that begins with `@` and was never
    /// meant as a file (`@types/node`, `@here`). A JSON value has no such form.
    fn read_text(self, option: &str, within: Duration) -> Result<Text<'a>, String> {
        self.read_as(option, within, true)
    }

    fn read_as(self, option: &str, within: Duration, text: bool) -> Result<Text<'a>, String> {
        let origin = match self {
            Self::Typed(text) => return Ok(Text::Typed(text)),
            Self::Stdin => Origin::Stdin,
            Self::File("") => {
                return Err(format!(
                    "`--{option}`: `@` names no file (`@FILE` reads one; a value `@` is written `@@`)"
                ));
            }
            Self::File(path) => Origin::File(path.to_owned()),
        };
        read_once(&origin, within).map(Text::Read).map_err(|failure| {
            let told = match &origin {
                Origin::Stdin => format!("`--{option}`: stdin {}", failure.why),
                Origin::File(path) => format!("`--{option}`: `{path}` {}", failure.why),
            };
            match (&origin, failure.not_found) {
                (Origin::File(path), true) if text => format!(
                    "{told} (`@FILE` reads a file; `{}` sends the text `@{path}`)",
                    with_value(option, &format!("@@{path}"))
                ),
                (_, true) => format!(
                    "{told} (`@FILE` reads a file; a value that begins with `@` is written `@@…`)"
                ),
                _ => told,
            }
        })
    }

    /// How the value was given, after the option's name in a message: `--by @f.json`,
    /// `--args -`; nothing when typed.
    fn shown(self, word: &str) -> String {
        match self {
            Self::Typed(_) => String::new(),
            _ => format!(" {word}"),
        }
    }
}

/// A value's text: as typed, or as read from a file or stdin (kept for the process).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Text<'a> {
    Typed(&'a str),
    Read(Arc<str>),
}

impl std::ops::Deref for Text<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            Self::Typed(text) => text,
            Self::Read(text) => text,
        }
    }
}

impl Text<'_> {
    /// The bytes read from a file or stdin; 0 when typed.
    fn read_bytes(&self) -> u64 {
        match self {
            Self::Typed(_) => 0,
            Self::Read(text) => text.len() as u64,
        }
    }
}

/// Where a value is read from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Origin {
    Stdin,
    File(String),
}

/// Why a file or stdin gave no value: the end of "`path` …", and whether nothing is there.
#[derive(Debug, Clone)]
struct Failure {
    why: String,
    not_found: bool,
}

/// The text at `origin`, read at most once a process and kept: stdin and a pipe can
/// be read only once, and a command that parses its argv twice (a stale cached tool
/// list) must send what it read the first time (it sent `""` the second). Bounded by
/// [`MAX_VALUE_BYTES`], and by `within` where it is a pipe (`@-`, `--args -`, `@FIFO`):
/// the command's `--timeout`. A FIFO nobody writes to, or a pipe its writer never
/// closes (an agent's harness that leaves mur's stdin open), is then refused rather
/// than waited on for ever.
fn read_once(origin: &Origin, within: Duration) -> Result<Arc<str>, Failure> {
    type Reads = HashMap<Origin, Result<Arc<str>, Failure>>;
    static READS: LazyLock<Mutex<Reads>> = LazyLock::new(Mutex::default);
    let mut reads = READS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(read) = reads.get(origin) {
        return read.clone();
    }
    let bytes = match origin {
        Origin::Stdin => super::bounded::read_stdin(MAX_VALUE_BYTES, within),
        Origin::File(path) => super::bounded::read_value(Path::new(path), MAX_VALUE_BYTES, within),
    };
    let read = match bytes {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Arc::from)
            .map_err(|_| Failure {
                why: "is not UTF-8 text".to_owned(),
                not_found: false,
            }),
        Err(
            super::bounded::Refusal::Overflowed { .. } | super::bounded::Refusal::TooBig { .. },
        ) => Err(Failure {
            why: format!("holds more than {VALUE_BYTES_SAID}"),
            not_found: false,
        }),
        // Without Rust's "(os error 2)", as `verbs add` says a file it cannot read.
        Err(super::bounded::Refusal::Io(e)) => Err(Failure {
            not_found: e.kind() == std::io::ErrorKind::NotFound,
            why: format!("cannot be read: {}", crate::error::io_said(&e)),
        }),
        Err(why) => Err(Failure {
            not_found: why.is_not_found(),
            why: why.to_string(),
        }),
    };
    reads.insert(origin.clone(), read.clone());
    read
}

/// Reads now every file and stdin that the words of a derived verb's `argv` may name as
/// values (`@FILE`, `@-`, `--args -`), before the session is asked anything: read after
/// the tool list came, a slow pipe (or a person typing at `@-`) left a pooled connection
/// idle past what a session waits, and the call failed as a transport error. What could
/// not be read is said, naming the option, only if the parse uses it; reading stops
/// once [`MAX_VALUE_BYTES`] are read. Nothing is read when argv asks for help: the
/// parse answers it unread ([`Derived::parse`]), and reads for itself the rare value
/// that `--help` turns out to be. `within` bounds reading a pipe ([`read_once`]).
pub fn prefetch(argv: &[String], within: Duration) {
    if asks_for_help(argv) {
        return;
    }
    let (options, _) = mur_core::until_end_of_options(argv);
    let mut whole_next = false;
    let mut read = 0;
    // The value after `--selector` or `--window` is read by no parse: left unread,
    // `--selector @-` leaves stdin to whatever reads it.
    let mut word_next = false;
    for word in options {
        let whole = std::mem::take(&mut whole_next);
        let unread = std::mem::take(&mut word_next);
        let (value, whole) = match word.strip_prefix("--").map(|o| o.split_once('=')) {
            Some(Some((name, _))) if is_word_option(name) => continue,
            Some(Some((name, value))) => (value, matches!(name, "args" | "all-args")),
            Some(None) => {
                whole_next = matches!(&word[2..], "args" | "all-args");
                word_next = is_word_option(&word[2..]);
                continue;
            }
            None if unread => continue,
            None => (word.as_str(), whole),
        };
        let source = if whole {
            Source::of_whole(value)
        } else {
            Source::of_value(value)
        };
        let origin = match source {
            Source::Typed(_) | Source::File("") => continue,
            Source::Stdin => Origin::Stdin,
            Source::File(path) => Origin::File(path.to_owned()),
        };
        if let Ok(text) = read_once(&origin, within) {
            read += text.len() as u64;
        }
        if read > MAX_VALUE_BYTES {
            break;
        }
    }
}

/// What a derived verb's help says of `@FILE`, when it has an option that takes it.
const FILE_VALUES: &str = "A TEXT or JSON option's value `@FILE` is that file's contents, as they are \
     (`@-`: stdin's); a value that begins with `@` is written `@@…`. What is read comes to 4 MiB \
     at most in all, what a session takes in one request.";

/// Whether a verb made by this parser (a derived or data verb's `spec`) has an option
/// that reads `@FILE` ([`Field::reads_files`]), its last, the whole object's (which
/// says so in its own help), aside.
fn reads_files(spec: &VerbSpec) -> bool {
    let options = spec.options.split_last().map_or(&[][..], |(_, rest)| rest);
    options
        .iter()
        .any(|o| [ValueKind::Text, ValueKind::Json].contains(&o.kind) && o.choices.is_empty())
}

/// Names in kebab case (`waitFor` → `wait-for`): written in mur-usage, where mur-server,
/// which cannot depend on this crate, tells the derived verb of a tool it served by it.
pub use mur_usage::kebab;

/// The verb name of each tool in a `tools/list` result, in order: its kebab-case
/// name, except where that is empty or another tool's is the same (`get_sum` and
/// `getSum`), when it is the tool's own name, so that no verb stands for two tools
/// and none is left without a name one can type. `None` for an entry with no name, an
/// empty one, one an entry before it has ([`repeated`]: the first is the tool's verb,
/// the one its name picks), or a kept name one cannot type: beginning with `-`
/// (`--help` where `help` is another tool's), which mur's parser takes for an option,
/// or [`unseen`](mur_core::text::unseen): holding an invisible character (a tool named
/// U+200B, or `bell` and a BEL where `bell` is another tool's), a blank but the space
/// (`get\u{3164}sum`: U+3164 is a letter to [`kebab`], so its verb showed as `get sum`
/// and no one could type it), or none but blanks (`" "`, U+3164, U+2800), a verb whose
/// name no table shows. Such a tool has no verb and is reached by `call` alone.
pub fn verb_names(tools: &[Value]) -> Vec<Option<String>> {
    verb_names_of(&names_of(tools))
}

/// Each entry's string `name`, in order.
fn names_of(tools: &[Value]) -> Vec<Option<&str>> {
    tools
        .iter()
        .map(|tool| tool.get("name")?.as_str())
        .collect()
}

/// [`verb_names`] of the tools named `names` (`None`: an entry with no name): the names
/// alone decide, so a list is named without building its entries.
pub fn verb_names_of(names: &[Option<&str>]) -> Vec<Option<String>> {
    let names: Vec<Option<&str>> = names
        .iter()
        .zip(repeated(names))
        .map(|(name, again)| name.filter(|name| !name.is_empty() && !again))
        .collect();
    let present: Vec<&str> = names.iter().flatten().copied().collect();
    let mut chosen = unique_kebab(&present).into_iter();
    names
        .iter()
        .map(|name| {
            name.and_then(|_| chosen.next())
                .filter(|verb| !verb.starts_with('-') && !mur_core::text::unseen(verb))
        })
        .collect()
}

/// Whether each entry of a list of tools named `names` names a tool an entry before it
/// names too: a server that lists a tool twice lists one tool, whose name picks the
/// first entry ([`Derived::pick_at`]); the others are no verb (they were two rows of
/// `catalog`, two verbs of which one could be called).
pub fn repeated(names: &[Option<&str>]) -> Vec<bool> {
    let mut seen = HashSet::new();
    names
        .iter()
        .map(|name| name.is_some_and(|name| !seen.insert(name)))
        .collect()
}

/// The tools whose kebab-case name is `word`, when there are several: then none
/// of them is the verb `word` ([`verb_names`]), and each is one under its own name.
/// A tool listed twice is one of them, named once.
pub fn sharing<'a>(tools: &'a [Value], word: &str) -> Vec<&'a str> {
    let mut named: Vec<&str> = Vec::new();
    let names = tools.iter().filter_map(|tool| tool["name"].as_str());
    for name in names.filter(|name| kebab(name) == word) {
        if !named.contains(&name) {
            named.push(name);
        }
    }
    if named.len() > 1 { named } else { Vec::new() }
}

/// Each name in kebab case, or as it is where its kebab-case form is empty or
/// is another name's too. Kept as they are, the names still differ from each
/// other (tool names, like property names, are unique) and from every
/// kebab-case name kept: a name equal to another's kebab-case form is in kebab
/// case itself, so the two collide and both are kept as they are.
fn unique_kebab(names: &[&str]) -> Vec<String> {
    let kebabs: Vec<String> = names.iter().map(|name| kebab(name)).collect();
    let mut uses: HashMap<&str, usize> = HashMap::new();
    for k in &kebabs {
        *uses.entry(k.as_str()).or_default() += 1;
    }
    names
        .iter()
        .zip(&kebabs)
        .map(|(name, k)| {
            if k.is_empty() || uses[k.as_str()] > 1 {
                (*name).to_owned()
            } else {
                k.clone()
            }
        })
        .collect()
}

/// The option of each property: its name in kebab case ([`unique_kebab`]),
/// behind `arg-` where that is `help` (the parser's) or one of `taken`, and
/// behind as many `arg-`s as keep it apart from every other option.
fn option_names(properties: &[&str], taken: &[&str]) -> Vec<String> {
    let mut names = unique_kebab(properties);
    for at in 0..names.len() {
        if names[at] != "help" && !taken.contains(&names[at].as_str()) {
            continue;
        }
        let mut name = format!("arg-{}", names[at]);
        while names.contains(&name) {
            name = format!("arg-{name}");
        }
        names[at] = name;
    }
    names
}

impl Derived {
    /// The verb of every tool in a `tools/list` result, each named by
    /// [`verb_names`], with its tool's entry; entries without a name are left out.
    pub fn all(tools: &[Value]) -> Vec<(Self, &Value)> {
        tools
            .iter()
            .zip(verb_names(tools))
            .filter_map(|(tool, name)| {
                Some((Self::named(tool, name?, host_options())?.with_media(), tool))
            })
            .collect()
    }

    /// The verb a word names in a tool list, and its tool's entry: the tool whose
    /// own name is `word`, else the one whose verb ([`verb_names`]) is called
    /// `word`.
    pub fn pick<'a>(tools: &'a [Value], word: &str) -> Option<(Self, &'a Value)> {
        let (at, verb) = Self::pick_at(&names_of(tools), word)?;
        Some((Self::of_entry(&tools[at], verb)?, &tools[at]))
    }

    /// Where in a list of tools named `names` the tool [`Derived::pick`] picks for `word`
    /// is, and its verb name: from the names alone, the entries left unbuilt (a cached
    /// list read for one call).
    pub fn pick_at(names: &[Option<&str>], word: &str) -> Option<(usize, String)> {
        let verbs = verb_names_of(names);
        let by_tool = names.iter().position(|name| *name == Some(word));
        let at = by_tool.or_else(|| verbs.iter().position(|n| n.as_deref() == Some(word)))?;
        Some((at, verbs[at].clone()?))
    }

    /// The verb `verb` of `tool`, an entry of a list [`Derived::pick_at`] named.
    pub fn of_entry(tool: &Value, verb: String) -> Option<Self> {
        Some(Self::named(tool, verb, host_options())?.with_media())
    }

    /// This verb with `--out FILE`, unless a property of its tool is `--out`
    /// itself (the tool's, then): what `call NAME --out FILE` does, without
    /// calling the tool a second time for an image the verb's output left out.
    /// Not among the options its usage line and `catalog` show: most tools
    /// return no media, and those lines are read into agents' contexts; its
    /// help says it in a line, and the note of a result with media names it.
    fn with_media(mut self) -> Self {
        if self.fields.iter().all(|f| f.option != OUT) {
            self.media = Some(OUT);
        }
        self
    }

    /// `--out` when the verb takes `--out FILE` ([`Derived::with_media`]).
    pub fn takes_out(&self) -> Option<&'static str> {
        self.media.map(|_| "--out")
    }

    /// `--help`: the usage ([`VerbSpec::render_with`]), [`Self::notes`] and, before the
    /// one on `--out`, how a question the tool asks is answered. Whether a tool asks, or
    /// returns media, no tool list says: both are said as what happens if it does (the
    /// help of a tool that asks said "Needs a client that can ask its user", its own
    /// words, and not how). Not a data verb's: its author knows its tool.
    pub fn help(&self) -> String {
        let mut notes = self.notes();
        let at = notes.len() - usize::from(self.media.is_some());
        notes.insert(at, ANSWER.to_owned());
        self.spec.render_with(&self.name, &self.summary, &notes)
    }

    /// What a help says under the options of a verb this parser reads (a derived or a
    /// data verb's): what `@FILE` and `null` are for them, and what `--out FILE` does.
    pub(crate) fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if reads_files(&self.spec) {
            notes.push(FILE_VALUES.to_owned());
        }
        notes.extend(self.nulls());
        if let Some(out) = self.media {
            notes.push(format!(
                "If the result holds images, audio or blobs, `--{out} FILE` writes them to files \
                 (`shot.png`, then `shot-2.png`…) and adds each file's `path` and `bytes` to what \
                 is printed (for several files, to the whole result, as `call --out` does)."
            ));
        }
        notes
    }

    /// What the schema says of option `name` that its [`Param`] does not, for the
    /// catalog an agent reads instead of the help: `None` for an option no property
    /// fills (`--args`).
    pub fn facts(&self, name: &str) -> Option<Facts> {
        let field = self.fields.iter().find(|f| f.option == name)?;
        Some(field.facts())
    }

    /// The option that gives `property` (`arg-timeout` for `timeout`, a host option's
    /// name): `None` for a property no option can be named for (`a=b`, given in
    /// `--args` alone) or that the tool does not have.
    pub fn option_for(&self, property: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|f| f.property == property)
            .map(|f| f.option.as_str())
    }

    /// The facts of every option that has them, by option name, in one pass: what the
    /// catalog lists (asked option by option, a tool of 32,000 properties searched
    /// them all for each, seconds of a catalog).
    pub fn all_facts(&self) -> Vec<(String, Facts)> {
        self.fields
            .iter()
            .map(|field| (field.option.clone(), field.facts()))
            .collect()
    }

    /// Which options take the word `null` as JSON null (their schema admits it), in a
    /// line of help: elsewhere `null` is a word like any other (a text option's text).
    fn nulls(&self) -> Option<String> {
        let named: Vec<String> = self
            .fields
            .iter()
            .filter(|f| f.nullable)
            .map(|f| format!("`--{}`", f.option))
            .collect();
        let (last, rest) = named.split_last()?;
        let (options, their) = match rest {
            [] => (last.clone(), "its"),
            _ => (format!("{} and {last}", rest.join(", ")), "their"),
        };
        Some(format!(
            "`null` is JSON null for {options} ({their} schema admits it), and a word elsewhere."
        ))
    }

    /// `argv` less `--out FILE` (or `--out=FILE`), and FILE, when the verb has that
    /// option ([`Derived::with_media`]); the words after `--` are left as they are.
    pub fn take_out(&self, argv: &[String]) -> Result<(Vec<String>, Option<String>), String> {
        let Some(name) = self.media else {
            return Ok((argv.to_vec(), None));
        };
        let mut rest = Vec::new();
        let mut out = None;
        let (options, end) = mur_core::until_end_of_options(argv);
        let mut words = options.iter();
        while let Some(word) = words.next() {
            let inline = match word.strip_prefix("--").map(|o| o.split_once('=')) {
                // `--out FILE`
                Some(None) if word[2..] == *name => None,
                // `--out=FILE`
                Some(Some((option, value))) if option == name => Some(value.to_owned()),
                _ => {
                    rest.push(word.clone());
                    continue;
                }
            };
            let value = self.value_of(name, inline, &mut words)?;
            // `--out=`: refused before the call, not after the tool ran.
            if value.is_empty() {
                return Err(mur_core::given_empty(&self.option_named(name)));
            }
            if out.replace(value).is_some() {
                return Err(self.given_again(name));
            }
        }
        rest.extend_from_slice(end);
        Ok((rest, out))
    }

    /// The verb for one tool, named in kebab case as if it were the only tool
    /// (a data verb's parser); `None` when it has no name. Its options are named
    /// as a derived verb's are, so a data verb's field `timeout` is
    /// `--arg-timeout` and `--timeout` after its name is still the host's, as
    /// after every derived verb (it once was the field's own, which silently
    /// took the host's `--timeout` away from that verb).
    pub fn from_tool(tool: &Value) -> Option<Self> {
        let name = tool.get("name")?.as_str()?;
        Self::named(tool, kebab(name), host_options())
    }

    /// The verb for one entry of a `tools/list` result, called `verb`, whose
    /// options are none of `taken` ([`option_names`]).
    fn named(tool: &Value, verb: String, taken: &[&str]) -> Option<Self> {
        let name = tool.get("name")?.as_str()?;
        let schema = tool.get("inputSchema").unwrap_or(&Value::Null);
        let required = required_names(schema.get("required"));
        let mut fields = Vec::new();
        let mut options = Vec::new();
        let mut unnamed = Vec::new();
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            let names: Vec<&str> = properties.keys().map(String::as_str).collect();
            // The nodes the walks of this tool's schema may visit ([`Walk`]).
            let mut tool_nodes =
                TOOL_NODES.saturating_add(properties.len().saturating_mul(TOOL_NODES_PER_PROPERTY));
            for ((property, prop_schema), option) in
                properties.iter().zip(option_names(&names, taken))
            {
                // `--` ends the options, and `--p=q` is `--p` given `q`: no option can be
                // named `""`, nor with a `=` (kept as it is, as `p=q` beside `p_q` is).
                if property.is_empty() || option.contains('=') {
                    unnamed.push((property.clone(), required.contains(&property.as_str())));
                    continue;
                }
                let nodes = PROPERTY_NODES.min(tool_nodes);
                let walk = Walk::new(schema, nodes);
                let nullable = nullable(prop_schema, &walk);
                let prop_schema = walk.follow(prop_schema);
                let ty = type_of(&prop_schema, &walk);
                // An array's choices are its items' (`list[Literal["a", "b"]]`), or,
                // as a data verb writes them, its own `enum`, each use one of them.
                let listed = match ty {
                    Type::Array(_) => prop_schema
                        .get("items")
                        .and_then(|items| choices_of(&walk.follow(items))),
                    _ => None,
                };
                let choices = listed
                    .or_else(|| choices_of(&prop_schema))
                    .unwrap_or_default();
                // Choices name every value already.
                let range = match &ty {
                    _ if !choices.is_empty() => None,
                    Type::Array(item) => prop_schema
                        .get("items")
                        .and_then(|items| Range::of(&walk.follow(items), item)),
                    ty => Range::of(&prop_schema, ty),
                };
                let count = match &ty {
                    Type::Array(_) => Range::of(&prop_schema, &ty),
                    _ => None,
                };
                let field = Field {
                    option,
                    property: property.clone(),
                    required: required.contains(&property.as_str()),
                    choices,
                    nullable,
                    default: prop_schema.get("default").cloned(),
                    range,
                    count,
                    ty,
                };
                options.push(param(&field, &prop_schema, &walk));
                fields.push(field);
                tool_nodes -= nodes - walk.left.get();
            }
        }
        // Required options first, then in the order the schema gives its properties
        // (serde_json keeps it: `preserve_order`); the sort is stable.
        options.sort_by_key(|o: &Param| !o.required);
        fields.sort_by_key(|f| !f.required);
        // `args`, or `all-args` when a property of the tool is `--args` (`all-all-args`
        // when one is `--all-args` too: no two options of one name).
        let mut whole = WHOLE_ARGUMENTS.to_owned();
        while fields.iter().any(|f| f.option == whole) {
            whole = format!("all-{whole}");
        }
        options.push(whole_param(&whole, &unnamed));
        let (summary, details) = described(tool, name);
        let mut annotations = annotations(tool.get("annotations"));
        if tool["execution"]["taskSupport"] == "required" {
            // mur waits for it (mur-client's `task`): worth knowing before a long wait.
            annotations.push("runs as a task".to_owned());
        }
        let details = with_tool_line(&details, name, &annotations);
        let mut verb = Self {
            name: verb,
            tool: name.to_owned(),
            summary,
            spec: VerbSpec {
                synopsis: String::new(),
                details,
                examples: Vec::new(),
                positionals: Vec::new(),
                options,
                // Not guessed from the schema: an argument named like `timeoutMs` may
                // bound a step inside the tool rather than the tool's answer.
                waits: None,
                lone: None,
            },
            annotations,
            fields,
            unnamed,
            whole,
            media: None,
            closed: schema.get("additionalProperties") == Some(&Value::Bool(false)),
        };
        verb.spec.lone = verb.lone_option().map(|field| field.option.clone());
        Some(verb)
    }

    /// Check `argv` against the schema and build the tool's `arguments`:
    /// `--args JSON` first (the whole object), then each option over it.
    /// `--help` or `-h` asks for help, even when the rest of argv is wrong, and
    /// before any file or stdin is read: `--args - --help` at a terminal waited on
    /// stdin. As an option's value (`--text --help`) it is just that value. `within`
    /// bounds reading a pipe ([`read_once`]): the command's `--timeout`.
    pub fn parse(&self, argv: &[String], within: Duration) -> Result<Request, String> {
        if !asks_for_help(argv) {
            return self.parse_strictly(argv, Reading::Values(within));
        }
        // A pass that reads nothing finds `--help` where it is a word of its own; it
        // refuses no more than the reading one would, whose refusal is help here too.
        if !matches!(
            self.parse_strictly(argv, Reading::Nothing),
            Ok(Request::Call(_))
        ) {
            return Ok(Request::Help);
        }
        self.parse_strictly(argv, Reading::Values(within))
            .or(Ok(Request::Help))
    }

    fn parse_strictly(&self, argv: &[String], reading: Reading) -> Result<Request, String> {
        let mut arguments = Map::new();
        let mut given: Vec<(&Field, Value)> = Vec::new();
        let mut base = None;
        let mut stdin = StdinUse::default();
        let mut read = ReadBytes::default();
        // The word taken as the one text option's value ([`Self::positional`]).
        let mut lone: Option<&String> = None;
        // The flag the word before was, given without a value (`--include-image`).
        let mut bare_flag: Option<&Field> = None;
        // Each option's value as typed (`--selector @s.txt`, not the file's text): what
        // a refusal of the lone word beside it quotes ([`given_twice`]).
        let mut typed: Vec<(&str, String)> = Vec::new();
        // Past `--`: every word is a word, as the kits take it (the lone word).
        let mut ended = false;
        let mut words = argv.iter();
        while let Some(word) = words.next() {
            let flag_before = bare_flag.take();
            if !ended {
                if word == "--help" || word == "-h" {
                    return Ok(Request::Help);
                }
                if word == "--" {
                    ended = true;
                    continue;
                }
            }
            let Some(option) = word.strip_prefix("--").filter(|_| !ended) else {
                if let Some(meant) = flag_before.and_then(|flag| flag_value(flag, word)) {
                    return Err(meant);
                }
                let Some(field) = self.positional(word, &given) else {
                    // The lone word beside its option given first (`--selector '#t'
                    // '#s'`): the argument given twice, as the kits say it.
                    // Not a word right after a flag (`--include-image null`), which may
                    // have been meant as the flag's.
                    let lone = self.lone_word_for(word).filter(|_| flag_before.is_none());
                    let twice = lone.and_then(|field| {
                        let (_, value) = typed.iter().rfind(|(o, _)| *o == field.option)?;
                        Some(given_twice(field, word, value))
                    });
                    return Err(twice.unwrap_or_else(|| self.unexpected(word, &given, ended)));
                };
                let value = Value::String(lone_text(field, word).unwrap_or(word).to_owned());
                check_value(field.range.as_ref(), &field.said(), &value)?;
                given.push(self.once(field, value, &given)?);
                lone = Some(word);
                continue;
            };
            let (name, inline) = match option.split_once('=') {
                Some((name, value)) => (name, Some(value.to_owned())),
                None => (option, None),
            };
            if name == self.whole {
                let word = self.value_of(name, inline, &mut words)?;
                let source = Source::of_whole(&word);
                if reading.skips(source) {
                    continue;
                }
                stdin.take(source, name)?;
                let text = read.add(source.read(name, reading.within())?, name)?;
                base = Some(parse_whole(
                    &format!("{name}{}", source.shown(&word)),
                    &text,
                )?);
                continue;
            }
            let field = self
                .fields
                .iter()
                .find(|f| f.option == name)
                .ok_or_else(|| self.unknown_option(name))?;
            let value = match (&field.ty, inline) {
                (Type::Boolean, None) => {
                    bare_flag = Some(field);
                    Value::Bool(true)
                }
                // Where the schema admits null, the word `null` is null (not the text
                // "null", nor a choice refused).
                (_, Some(null)) if field.nullable && null == "null" => Value::Null,
                (Type::Boolean, Some(inline)) => convert(name, &field.ty, &inline, None)?,
                (ty, inline) => {
                    let word = self.value_of(name, inline, &mut words)?;
                    typed.push((name, word.clone()));
                    if field.nullable && word == "null" {
                        given.push(self.once(field, Value::Null, &given)?);
                        continue;
                    }
                    let source = if field.reads_files() {
                        Source::of_value(&word)
                    } else {
                        Source::Typed(&word)
                    };
                    if reading.skips(source) {
                        continue;
                    }
                    stdin.take(source, name)?;
                    let item = match ty {
                        Type::Array(item) => item.as_ref(),
                        ty => ty,
                    };
                    let text = match item {
                        Type::String => source.read_text(name, reading.within()),
                        _ => source.read(name, reading.within()),
                    };
                    let text = read.add(text?, name)?;
                    let said = format!("{name}{}", source.shown(&word));
                    convert(&said, ty, &text, field.range.as_ref())?
                }
            };
            if !value.is_null() {
                check_choice(field, &field.said(), &value)?;
                check_value(field.range.as_ref(), &field.said(), &value)?;
            }
            // The option given after its lone word: the argument given twice, as when
            // the option comes first.
            if let Some(word) =
                lone.filter(|_| self.the_one().is_some_and(|one| one.option == field.option))
            {
                let value = typed.last().filter(|(o, _)| *o == name).map(|(_, v)| v);
                return Err(match value {
                    Some(value) => given_twice(field, word, value),
                    None => format!("unexpected argument `{word}`"),
                });
            }
            given.push(self.once(field, value, &given)?);
        }
        if reading == Reading::Nothing {
            // What a value read would make of the arguments is not known.
            return Ok(Request::Call(Map::new()));
        }
        if let Some(base) = base {
            // What `--args` gives is held to the schema as an option's value is, unless
            // an option gives it instead: the tool would refuse it, after its session
            // was found and asked.
            for field in &self.fields {
                let overridden = given.iter().any(|(g, _)| g.option == field.option);
                match base.get(&field.property) {
                    Some(value) if !overridden => self.check_given(field, value)?,
                    _ => {}
                }
            }
            arguments = base;
        }
        // The lists given by options: their first use replaces what `--args` gave.
        let mut listed: Vec<&str> = Vec::new();
        for (field, value) in given {
            if let Type::Array(item) = &field.ty {
                if !listed.contains(&field.property.as_str()) {
                    listed.push(&field.property);
                    arguments.remove(&field.property);
                }
                let slot = arguments
                    .entry(field.property.clone())
                    .or_insert_with(|| Value::Array(Vec::new()));
                // Objects one per use, or all at once as the JSON array they make
                // (`--points '[{"x":1},{"x":2}]'` is two points, not one list of them).
                if value.is_null() && field.nullable {
                    // `--tags null`: the list itself is null (`Optional[list[str]]`).
                    arguments.insert(field.property.clone(), Value::Null);
                    continue;
                }
                let values = match (&**item, value) {
                    (Type::Json(kinds), Value::Array(all))
                        if all.iter().all(Value::is_object) || at_once(*kinds, &all) =>
                    {
                        all
                    }
                    (_, one) => vec![one],
                };
                match slot {
                    Value::Array(items) => items.extend(values),
                    other => *other = Value::Array(values),
                }
            } else {
                // An option given beside `--args` overrides that field.
                arguments.insert(field.property.clone(), value);
            }
        }
        // A list's length, whether options, `--args` or both gave it.
        for field in &self.fields {
            if let (Some(count), Some(list)) = (&field.count, arguments.get(&field.property)) {
                let said = match listed.contains(&field.property.as_str()) {
                    true => field.said(),
                    false => self.in_whole(field),
                };
                check_value(Some(count), &said, list)?;
            }
        }
        for field in self.fields.iter().filter(|f| f.required) {
            if !arguments.contains_key(&field.property) {
                return Err(self.missing(field));
            }
        }
        for (property, _) in self.unnamed.iter().filter(|(_, required)| *required) {
            if !arguments.contains_key(property) {
                let json = Value::from(property.as_str());
                return Err(format!(
                    "missing the property `{json}`, which no option can give: `--{} '{{{json}: …}}'` does",
                    self.whole
                ));
            }
        }
        Ok(Request::Call(arguments))
    }

    /// A required field not given, named as the usage line shows it: the lone word
    /// (`missing argument `<selector>``, under `Usage: mur devtools wait-for <selector>
    /// …`, as a named verb's kit says it), else the option (`missing option `--count``).
    fn missing(&self, field: &Field) -> String {
        match self.spec.lone.as_deref() == Some(field.option.as_str()) {
            true => format!("missing argument `<{}>`", field.option),
            false => format!("missing option `--{}`", field.option),
        }
    }

    /// How an error names a property given in the whole object: `` `delayMs` in `--args` ``.
    fn in_whole(&self, field: &Field) -> String {
        format!("`{}` in `--{}`", field.property, self.whole)
    }

    /// `value`, given for `field` in the whole object, held to the field's choices and
    /// bounds (each item's, for a list) as the option's value is.
    fn check_given(&self, field: &Field, value: &Value) -> Result<(), String> {
        let said = self.in_whole(field);
        let items = match (&field.ty, value) {
            (Type::Array(_), Value::Array(items)) => items.as_slice(),
            _ => std::slice::from_ref(value),
        };
        for item in items.iter().filter(|item| !item.is_null()) {
            check_choice(field, &said, item)?;
            check_value(field.range.as_ref(), &said, item)?;
        }
        Ok(())
    }

    /// `field`'s value, unless the field is given already and is not repeatable.
    fn once<'f>(
        &self,
        field: &'f Field,
        value: Value,
        given: &[(&Field, Value)],
    ) -> Result<(&'f Field, Value), String> {
        let repeatable = matches!(field.ty, Type::Array(_));
        if !repeatable && given.iter().any(|(f, _)| f.option == field.option) {
            return Err(self.given_again(&field.option));
        }
        Ok((field, value))
    }

    /// The refusal of `--option` typed twice, in the words mur's host refuses one of its
    /// own in (clap's), naming it as the verb's help does (`--limit <N>`), so that the
    /// mistake reads alike for a host option and the verb's own.
    fn given_again(&self, option: &str) -> String {
        let named = self.option_named(option);
        format!("the argument `{named}` cannot be used multiple times")
    }

    /// The refusal of `--option` typed without its value, or given an empty one where
    /// none can be empty (`--out=`): `` `--limit <N>` needs a value``, named as
    /// [`Self::given_again`] names it. The one wording of a missing value, the verb
    /// kit's (plugins/kit/src/argv.rs, `needs_value`) and mur's host's for its own
    /// options (`value_required`), so that one mistake reads alike wherever it is typed.
    fn needs_value(&self, option: &str) -> String {
        format!("`{}` needs a value", self.option_named(option))
    }

    /// `--option` as the verb's help names it, and mur's host one of its own in an
    /// error: with its value's name where it takes one (`--limit <N>`).
    fn option_named(&self, option: &str) -> String {
        let value = match self.spec.option(option) {
            Some(param) if param.takes_value() => Some(param.value_name.as_str()),
            // `--out FILE`, which the verb's usage line leaves out.
            None if self.media == Some(option) => Some("FILE"),
            _ => None,
        };
        match value {
            Some(value) => format!("--{option} <{value}>"),
            None => format!("--{option}"),
        }
    }

    /// `unknown option`, with the nearest option when one is close (`--comp`), case
    /// aside (`--Selector`): of the verb's own, else of the host's, which it takes after
    /// the verb's name too (`--prety`), by the one rule a named verb's kit says it by
    /// ([`mur_core::option_meant`]). Else, where the schema admits fields it does not
    /// list, how to send one: in the whole arguments object (`--args '{"FIELD": …}'`),
    /// which no option but says how (review 604, 3). FIELD is a placeholder, the key
    /// the tool's own: the word typed (`--max-depth`) may be `maxDepth` or `max_depth`
    /// to the tool, and a key made of it would be a guess said as the way.
    fn unknown_option(&self, name: &str) -> String {
        let own = self.fields.iter().map(|f| f.option.as_str());
        let own = own.chain([self.whole.as_str()]).chain(self.media);
        let told = format!("unknown option `--{name}`");
        match mur_core::option_meant(name, own, host_options().iter().copied()) {
            Some(near) => format!("{told}; did you mean `--{near}`?"),
            None if self.closed => told,
            None => format!(
                "{told}; a field no option gives is sent in `{}`, under the tool's own name \
                 for it",
                with_value(&self.whole, r#"{"FIELD": …}"#)
            ),
        }
    }

    /// The option a word typed without one stands for: [`Self::the_one`], when it is
    /// text (a selector, a name, a path) and not given yet — `click '#btn-inc'` and
    /// `state '#count'` as the named verbs take them, where the word was refused with
    /// "did you mean `--selector '#btn-inc'`?". A word that could be read as something
    /// else (`-…`, and `@FILE` or `@-` where the option reads files) is not taken; one
    /// that begins with `@` is otherwise what the option makes of it ([`lone_text`]).
    ///
    /// The verb kit's `Args::meant` and `Opt::or_word` (plugins/kit/src/argv.rs) are
    /// this rule for the standard verbs, written twice because no crate holds both:
    /// the kit is vendored into verb authors' crates that build from crates.io alone
    /// and run as wasm, and the host cannot depend on it (its wit-bindgen guest
    /// bindings) nor it on the host. They agree on what a user sees alike, each
    /// side's tests holding it (here `a_lone_word_is_taken_as_the_kit_takes_it`): a
    /// word an option offers as a choice is that option's, a word starting with `-`
    /// is never taken, a second word is the one too many, and a word beside the
    /// option itself is the argument given twice. They differ where their inputs do: the kit
    /// knows no required options (so its lone word is a selector's only where no
    /// other option may be meant, a `#…` or `[…]` word elsewhere), reads `-x` as a
    /// short option (`unknown option`), and has no `@FILE` values to mistake.
    fn positional(&self, word: &str, given: &[(&Field, Value)]) -> Option<&Field> {
        let field = self.lone_word_for(word)?;
        let free = !given.iter().any(|(g, _)| g.option == field.option);
        free.then_some(field)
    }

    /// The option `word` would be the lone word of, its option not given ([`Self::positional`]).
    fn lone_word_for(&self, word: &str) -> Option<&Field> {
        let field = self.lone_option()?;
        // A word one of the options offers as a choice (`full` of `--view`) is that
        // option's, as the refusal says; never the text of another.
        let offered = self
            .fields
            .iter()
            .any(|f| f.choices.iter().any(|c| c.as_str() == Some(word)));
        let plain = !offered && !word.starts_with('-') && lone_text(field, word).is_some();
        plain.then_some(field)
    }

    /// The option a lone word may be the value of: [`Self::the_one`], when it takes
    /// text (and not `null`, which a word could not say apart from the text).
    fn lone_option(&self) -> Option<&Field> {
        self.the_one()
            .filter(|field| field.ty == Type::String && !field.nullable)
    }

    /// The option a word without one is most likely for, when it has no fixed
    /// choices: the one required such option, else (none required) the only one.
    fn the_one(&self) -> Option<&Field> {
        let unlisted: Vec<&Field> = self
            .fields
            .iter()
            .filter(|f| f.choices.is_empty())
            .collect();
        let required: Vec<&Field> = unlisted.iter().copied().filter(|f| f.required).collect();
        match (required.as_slice(), unlisted.as_slice()) {
            ([only], _) | ([], [only]) => Some(*only),
            _ => None,
        }
    }

    /// `unexpected argument`, with the option the word was likely meant for: one
    /// whose `enum` holds it, else the one required option (not an `enum`), else
    /// the one option (not an `enum`) — unless that option is given already or its
    /// type would refuse the word. After `--` (`ended`), where the verb takes no
    /// lone word at all, it says how a value that looks like an option is given.
    fn unexpected(&self, word: &str, given: &[(&Field, Value)], ended: bool) -> String {
        let told = format!("unexpected argument `{word}`");
        let listed = self
            .fields
            .iter()
            .find(|f| f.choices.iter().any(|c| c.as_str() == Some(word)));
        let only = self.the_one();
        let fits = |field: &Field| convert(&field.option, &field.ty, word, None).is_ok();
        match listed.or(only) {
            Some(field) if !given.iter().any(|(g, _)| g.option == field.option) && fits(field) => {
                // A word the option would read a file or stdin for (`echo @alice`): a
                // lone word reads none, and which was meant is not known (`--message
                // @alice` reads file `alice`; `@alice` may be a handle), so both are
                // named. A word written `@@…` already, as `--help` teaches, stays as
                // typed: its `@` doubled again (`--message @@@alice`) sent `@@alice`.
                let as_typed = with_value(&field.option, word);
                let text = || with_value(&field.option, &format!("@{word}"));
                let read = match field.reads_files() {
                    true => Source::of_value(word),
                    false => Source::Typed(word),
                };
                match read {
                    Source::Typed(_) => format!("{told}; did you mean `{as_typed}`?"),
                    Source::File("") => format!(
                        "{told}; did you mean `{}`? (`@FILE` reads a file; a value `@` is \
                         written `@@`)",
                        text()
                    ),
                    Source::File(path) => format!(
                        "{told}: a lone word reads no file; did you mean `{as_typed}` (reads \
                         file `{path}`) or `{}` (the text `{word}`)?",
                        text()
                    ),
                    Source::Stdin => format!(
                        "{told}: a lone word reads no stdin; did you mean `{as_typed}` (reads \
                         stdin) or `{}` (the text `{word}`)?",
                        text()
                    ),
                }
            }
            _ if ended && self.lone_option().is_none() => format!(
                "{told}: every value is an option's, after `--` too (a value that \
                 begins with `-` is written `--OPTION=VALUE`)"
            ),
            _ => told,
        }
    }

    /// The value of option `name`: inline (`--name=VALUE`), else the next word — unless
    /// that word is one of this verb's own options, which means the value was left out
    /// (`--table --columns a` is no table named `--columns`).
    fn value_of<'a>(
        &self,
        name: &str,
        inline: Option<String>,
        words: &mut impl Iterator<Item = &'a String>,
    ) -> Result<String, String> {
        if let Some(value) = inline {
            return Ok(value);
        }
        let needs = self.needs_value(name);
        let Some(next) = words.next() else {
            return Err(needs);
        };
        let option = next
            .strip_prefix("--")
            .map(|o| o.split('=').next().unwrap_or(o));
        match option {
            Some(option)
                if option == self.whole
                    || Some(option) == self.media
                    || self.fields.iter().any(|f| f.option == option) =>
            {
                Err(format!(
                    "{needs}, and `--{option}` is an option (a value that begins with `--` is written `--{name}=VALUE`)"
                ))
            }
            _ => Ok(next.clone()),
        }
    }
}

/// Whether a parse reads the files and stdin its values name ([`Derived::parse`]), and
/// within how long a pipe is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    Values(Duration),
    /// Only the words are checked; a value to read is left out.
    Nothing,
}

impl Reading {
    fn skips(self, source: Source) -> bool {
        self == Self::Nothing && !matches!(source, Source::Typed(_))
    }

    /// How long a pipe may take to read: nothing is read where nothing is to be
    /// ([`Reading::skips`]: a typed value is the one left to read, at once).
    fn within(self) -> Duration {
        match self {
            Self::Values(within) => within,
            Self::Nothing => Duration::ZERO,
        }
    }
}

/// The text a lone `word` sends as `field`'s value: what `--OPTION WORD` sends where
/// that is the word's own text — the word itself, or, where the option reads `@FILE`,
/// a word written `@@…` less its first `@` (`echo @@alice` sends `@alice`, as
/// `--message @@alice` does). `None` where the option would read a file or stdin
/// (`@FILE`, `@-`, `@`): a lone word is never read, since `echo @alice` may mean the
/// text as well as the file, and its refusal names both ([`Derived::unexpected`]).
fn lone_text<'w>(field: &Field, word: &'w str) -> Option<&'w str> {
    if !field.reads_files() {
        return Some(word);
    }
    match Source::of_value(word) {
        Source::Typed(text) => Some(text),
        Source::File(_) | Source::Stdin => None,
    }
}

/// `--name VALUE` as a command line that gives VALUE to `--name`: inline,
/// `--name=VALUE`, where VALUE begins with `--` (as the next word, `--name --name`
/// is the option left without a value).
fn with_value(name: &str, value: &str) -> String {
    let inline = value.starts_with("--");
    let value = mur_core::shell_word(value);
    match inline {
        true => format!("--{name}={value}"),
        false => format!("--{name} {value}"),
    }
}

/// The refusal of `field`'s lone word `word` beside the option given as `value`
/// (`#s --selector '#t'`, in either order), in the verb kits' words (plugins/kit's
/// `Args::word_given_too`): a word beside the option is the argument given twice.
fn given_twice(field: &Field, word: &str, value: &str) -> String {
    format!(
        "`<{}>` given twice: as `{word}` and as `{}`",
        field.option,
        with_value(&field.option, value)
    )
}

/// Whether `--help` or `-h` appears before `--` in `argv`: help wins there (every
/// kit's rule), unless the parse finds it an option's value.
pub fn asks_for_help(argv: &[String]) -> bool {
    argv.iter()
        .take_while(|word| *word != "--")
        .any(|word| word == "--help" || word == "-h")
}

/// The refusal of `word` typed as its own word after flag `flag` when it is a value the
/// flag takes only inline (`--include-image false`, which agents write as they would
/// for any option): a flag alone is `true`, so the word was a stray, or was taken as a
/// lone text option's value, and the call would have sent the flag's opposite.
fn flag_value(flag: &Field, word: &str) -> Option<String> {
    let takes = matches!(word, "true" | "false") || (flag.nullable && word == "null");
    takes.then(|| {
        format!(
            "unexpected argument `{word}`; did you mean `--{}={word}`?",
            flag.option
        )
    })
}

/// A value outside the schema's `enum` is refused, naming the choices.
fn check_choice(field: &Field, said: &str, value: &Value) -> Result<(), String> {
    // Numbers are compared by value: `1`, `1.0` and `1e0` are one choice.
    let same = |choice: &Value| match (choice.as_f64(), value.as_f64()) {
        (Some(a), Some(b)) => a == b,
        _ => choice == value,
    };
    if field.choices.is_empty() || field.choices.iter().any(same) {
        return Ok(());
    }
    let words: Vec<String> = field
        .choices
        .iter()
        .map(|c| c.as_str().map_or_else(|| c.to_string(), str::to_owned))
        .collect();
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    let choices = match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.concat(),
    };
    let got = value
        .as_str()
        .map_or_else(|| value.to_string(), str::to_owned);
    let told = format!("{said} must be {choices}, got `{got}`");
    // The choice meant, as the verb kits and the host name it: one that differs only
    // in case (`Error`, `ERROR`), else the nearest (`sucess`).
    Err(match mur_core::choice_meant(&got, &words) {
        Some(meant) => format!("{told}; did you mean `{meant}`?"),
        None => told,
    })
}

/// A value outside the schema's bounds ([`Range`]) is refused before the call, naming
/// them (`said`: the option, or the property in `--args`): the tool would refuse it,
/// after its session was found and asked.
fn check_value(range: Option<&Range>, said: &str, value: &Value) -> Result<(), String> {
    let Some(range) = range else {
        return Ok(());
    };
    let length = match (range.measure, value) {
        (Measure::Length, Value::String(text)) => text.chars().count() as u64,
        (Measure::Items, Value::Array(items)) => items.len() as u64,
        (Measure::Integer | Measure::Number, Value::Number(n)) if !range.admits(n) => {
            let what = match range.measure {
                Measure::Integer => "an integer",
                _ => "a number",
            };
            let admits = format!("{what} {}", range.words());
            return Err(out_of_range(said, &admits, &n.to_string()));
        }
        _ => return Ok(()),
    };
    if range.admits(&length.into()) {
        return Ok(());
    }
    if range.is_not_empty() {
        return Err(format!("{said} must not be empty"));
    }
    let short = range
        .low
        .as_ref()
        .is_some_and(|low| low.below(&length.into()));
    let how = if short { "too short" } else { "too long" };
    Err(format!(
        "{said} is {how}: {}, got {}",
        range.words(),
        range.measure.counted(length)
    ))
}

/// "`--delay-ms` is out of range: an integer from 0 to 2000, got `-5`": one wording for a
/// schema's bounds and for the bounds of the integers JSON holds exactly.
fn out_of_range(said: &str, admits: &str, got: &str) -> String {
    format!("{said} is out of range: {admits}, got `{got}`")
}

/// What a schema's bounds measure: an integer's or a number's value, or a text's length
/// in characters (JSON Schema counts code points, as `chars` does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Measure {
    Integer,
    Number,
    Length,
    /// A list's, in items.
    Items,
}

impl Measure {
    /// The unit of a length, one and many: `character`, `characters`.
    fn unit(self) -> Option<(&'static str, &'static str)> {
        match self {
            Self::Length => Some(("character", "characters")),
            Self::Items => Some(("item", "items")),
            Self::Integer | Self::Number => None,
        }
    }

    /// `1 character`, `3 characters`, `2 items`.
    fn counted(self, count: u64) -> String {
        match (self.unit(), count) {
            (Some((one, _)), 1) => format!("1 {one}"),
            (Some((_, many)), n) => format!("{n} {many}"),
            (None, n) => n.to_string(),
        }
    }
}

/// One end of a [`Range`]: the bound, and whether a value equal to it is out.
#[derive(Debug, Clone, PartialEq)]
struct End {
    at: serde_json::Number,
    open: bool,
}

impl End {
    /// Whether `n` is past this end as a low one (below it, or at it when open).
    fn below(&self, n: &serde_json::Number) -> bool {
        match compare(n, &self.at) {
            Some(std::cmp::Ordering::Less) => true,
            Some(std::cmp::Ordering::Equal) => self.open,
            _ => false,
        }
    }

    /// Of this end and `other`, on the same side, the one that admits less: the one
    /// further `inward` (`Greater` for a low end), or the open one of two at one place.
    fn tighter(self, other: End, inward: std::cmp::Ordering) -> End {
        match compare(&other.at, &self.at) {
            Some(order) if order == inward => other,
            Some(std::cmp::Ordering::Equal) if other.open => other,
            _ => self,
        }
    }

    /// Whether `n` is past this end as a high one.
    fn above(&self, n: &serde_json::Number) -> bool {
        match compare(n, &self.at) {
            Some(std::cmp::Ordering::Greater) => true,
            Some(std::cmp::Ordering::Equal) => self.open,
            _ => false,
        }
    }
}

/// Two JSON numbers compared exactly where both are integers (`u64::MAX` and
/// `u64::MAX - 1` are two values, as `f64`s they are one), else as `f64`s.
fn compare(a: &serde_json::Number, b: &serde_json::Number) -> Option<std::cmp::Ordering> {
    let whole = |n: &serde_json::Number| {
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
    };
    match (whole(a), whole(b)) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// The bounds a schema sets each value of an option: `minimum`, `maximum`,
/// `exclusiveMinimum`, `exclusiveMaximum` (a number, or the older `true` that makes
/// `minimum`/`maximum` exclusive) of an integer or a number; `minLength`, `maxLength` of
/// a text. A bound that is not a number (a length: not a whole number of 0 or more) is
/// no bound, and bounds that no value fits (`minimum` over `maximum`) are none at all:
/// a server's slip leaves the option as it would be without them, never unusable.
#[derive(Debug, Clone, PartialEq)]
struct Range {
    measure: Measure,
    low: Option<End>,
    high: Option<End>,
}

impl Range {
    /// The bounds `schema` sets a value of type `ty`, if any.
    fn of(schema: &View, ty: &Type) -> Option<Self> {
        let number = |key: &str| schema.get(key).and_then(Value::as_number).cloned();
        let (measure, low, high) = match ty {
            Type::Integer | Type::Number => {
                let measure = match ty {
                    Type::Integer => Measure::Integer,
                    _ => Measure::Number,
                };
                // Both given, the one that admits less holds: the higher low end, the
                // lower high one (`inward`: the way a bound moves to admit less).
                let ends = |inclusive: &str, exclusive: &str, inward| {
                    // Draft 4's `exclusiveMinimum: true`: `minimum` itself is out.
                    let old = schema.get(exclusive) == Some(&Value::Bool(true));
                    let ends = [
                        number(inclusive).map(|at| End { at, open: old }),
                        number(exclusive).map(|at| End { at, open: true }),
                    ];
                    ends.into_iter()
                        .flatten()
                        .reduce(|a, b| a.tighter(b, inward))
                };
                let low = ends("minimum", "exclusiveMinimum", std::cmp::Ordering::Greater);
                let high = ends("maximum", "exclusiveMaximum", std::cmp::Ordering::Less);
                (measure, low, high)
            }
            Type::String | Type::Array(_) => {
                let (measure, [min, max]) = match ty {
                    Type::String => (Measure::Length, ["minLength", "maxLength"]),
                    _ => (Measure::Items, ["minItems", "maxItems"]),
                };
                let length = |key: &str| {
                    let at = schema.get(key)?.as_u64()?;
                    Some(End {
                        at: at.into(),
                        open: false,
                    })
                };
                // `minLength: 0` says nothing.
                let low = length(min).filter(|end| end.at.as_u64() != Some(0));
                (measure, low, length(max))
            }
            _ => return None,
        };
        let empty = match (&low, &high) {
            (Some(low), Some(high)) => match compare(&low.at, &high.at) {
                Some(std::cmp::Ordering::Less) => false,
                Some(std::cmp::Ordering::Equal) => low.open || high.open,
                _ => true,
            },
            (None, None) => true,
            _ => false,
        };
        (!empty).then_some(Self { measure, low, high })
    }

    /// The integers JSON holds exactly (`i64` and `u64`), within `schema`'s bounds where
    /// it sets any: what an integer option takes, as one range.
    fn integers_within(schema: Option<&Range>) -> Range {
        use std::cmp::Ordering::{Greater, Less};
        let schema = schema.filter(|range| range.measure == Measure::Integer);
        let end = |at: serde_json::Number, bound: Option<&End>, inward| {
            let json = End { at, open: false };
            Some(match bound {
                Some(bound) => json.tighter(bound.clone(), inward),
                None => json,
            })
        };
        Range {
            measure: Measure::Integer,
            low: end(
                i64::MIN.into(),
                schema.and_then(|r| r.low.as_ref()),
                Greater,
            ),
            high: end(u64::MAX.into(), schema.and_then(|r| r.high.as_ref()), Less),
        }
    }

    fn admits(&self, n: &serde_json::Number) -> bool {
        !self.low.as_ref().is_some_and(|low| low.below(n))
            && !self.high.as_ref().is_some_and(|high| high.above(n))
    }

    /// `minLength: 1` alone: what the verb kits call "must not be empty".
    fn is_not_empty(&self) -> bool {
        let one = Some(End {
            at: 1.into(),
            open: false,
        });
        self.measure.unit().is_some() && self.low == one && self.high.is_none()
    }

    /// Each end in words: `at least 0`, `below 10`.
    fn ends(&self) -> Vec<String> {
        let low = self.low.as_ref().map(|End { at, open }| {
            let word = if *open { "above" } else { "at least" };
            format!("{word} {at}")
        });
        let high = self.high.as_ref().map(|End { at, open }| {
            let word = if *open { "below" } else { "at most" };
            format!("{word} {at}")
        });
        low.into_iter().chain(high).collect()
    }

    /// Whether a description's `numbers` ([`numbers_in`]) hold each of its ends, so that
    /// it states the range already.
    fn stated_in(&self, numbers: &[f64]) -> bool {
        [&self.low, &self.high]
            .into_iter()
            .flatten()
            .all(|end| end.at.as_f64().is_some_and(|at| numbers.contains(&at)))
    }

    /// Both ends when both are in the range (`0` and `2000`, the same number twice).
    fn closed(&self) -> Option<(&serde_json::Number, &serde_json::Number)> {
        match (&self.low, &self.high) {
            (Some(low), Some(high)) if !low.open && !high.open => Some((&low.at, &high.at)),
            _ => None,
        }
    }

    /// The range in an error's words: `from 0 to 2000`, `above 0 and at most 1`;
    /// `from 1 to 64 characters`, `at most 64 characters`.
    fn words(&self) -> String {
        let words = match self.closed() {
            Some((low, high)) if low == high => format!("exactly {low}"),
            Some((low, high)) => format!("from {low} to {high}"),
            None => self.ends().join(" and "),
        };
        self.in_units(words)
    }

    /// The range in a help's parentheses: `0–2000`, `above 0, at most 1`,
    /// `1–64 characters`, `not empty`.
    fn help(&self) -> String {
        if self.is_not_empty() {
            return "not empty".to_owned();
        }
        let words = match self.closed() {
            Some((low, high)) if low == high => format!("exactly {low}"),
            Some((low, high)) => format!("{low}–{high}"),
            None => self.ends().join(", "),
        };
        self.in_units(words)
    }

    /// `words` with the unit of a length after them: `characters` (`1 character`).
    fn in_units(&self, words: String) -> String {
        let Some((one, many)) = self.measure.unit() else {
            return words;
        };
        let last = self.high.as_ref().or(self.low.as_ref());
        match last.and_then(|end| end.at.as_u64()) {
            Some(1) => format!("{words} {one}"),
            _ => format!("{words} {many}"),
        }
    }

    /// The bounds by their JSON Schema names, for the catalog ([`Facts::range`]).
    fn named(&self) -> Map<String, Value> {
        let (low, high) = match self.measure {
            Measure::Length => (["minLength"; 2], ["maxLength"; 2]),
            Measure::Items => (["minItems"; 2], ["maxItems"; 2]),
            _ => (
                ["minimum", "exclusiveMinimum"],
                ["maximum", "exclusiveMaximum"],
            ),
        };
        let mut named = Map::new();
        for (end, names) in [(&self.low, low), (&self.high, high)] {
            if let Some(End { at, open }) = end {
                named.insert(
                    names[usize::from(*open)].to_owned(),
                    Value::Number(at.clone()),
                );
            }
        }
        named
    }
}

fn parse_whole(name: &str, text: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(format!("`--{name}` must be a JSON object")),
        Err(e) => Err(format!("`--{name}` is not valid JSON: {e}")),
    }
}

/// `text`, given to option `--name` of type `ty`, as the JSON value sent; `range` is the
/// schema's bounds of the value, which an integer past what JSON holds is told.
fn convert(name: &str, ty: &Type, text: &str, range: Option<&Range>) -> Result<Value, String> {
    match ty {
        Type::String => Ok(Value::from(text)),
        Type::Integer => integer(name, text, range),
        // A whole number stays one (`--ratio 2` sends 2, not 2.0), as typed.
        Type::Number => text
            .parse::<i64>()
            .map(Value::from)
            .ok()
            .or_else(|| {
                let n = text.parse::<f64>().ok()?;
                serde_json::Number::from_f64(n).map(Value::Number)
            })
            .ok_or_else(|| format!("`--{name}` needs a number, got `{text}`")),
        Type::Boolean => match text {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(format!("`--{name}` is `true` or `false`, got `{text}`")),
        },
        // A list's items all at once (`--points '[{"x":1},{"x":2}]'`), where the
        // items themselves are no lists.
        Type::Array(item) => match (&**item, serde_json::from_str::<Value>(text)) {
            (Type::Json(kinds), Ok(Value::Array(all))) if at_once(*kinds, &all) => {
                Ok(Value::Array(all))
            }
            _ => convert(name, item, text, range),
        },
        // A word that is no JSON of a kind the schema admits is text where text is one
        // of them (`Union[int, str]`: `--key 5` is 5, `--key abc` "abc").
        Type::Json(kinds) => match serde_json::from_str::<Value>(text) {
            Ok(value) if kinds.admits(&value) => Ok(value),
            _ if kinds.has(Kinds::STRING) => Ok(Value::from(text)),
            // Plain values (`N|true|false`): what it takes, not a JSON parser's words.
            Ok(_) | Err(_) if kinds.value_name().is_some() => {
                Err(format!("`--{name}` needs {}, got `{text}`", kinds.words()))
            }
            Ok(_) => Err(format!("`--{name}` needs {}, got `{text}`", kinds.words())),
            Err(e) => Err(format!("`--{name}` is not valid JSON: {e}")),
        },
    }
}

/// An integer option's value: any whole number JSON holds exactly (`i64` or `u64`); one
/// written in digits past them is said to be out of range, not to be no integer, with the
/// range it may take within `range`, the schema's bounds: `--delay-ms 99999999999999999999999`
/// was told "from -9223372036854775808 to 18446744073709551615" where `--delay-ms 5000`
/// is told "from 0 to 2000".
fn integer(name: &str, text: &str, range: Option<&Range>) -> Result<Value, String> {
    if let Ok(n) = text.parse::<i64>() {
        return Ok(Value::from(n));
    }
    if let Ok(n) = text.parse::<u64>() {
        return Ok(Value::from(n));
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        let admits = format!("an integer {}", Range::integers_within(range).words());
        return Err(out_of_range(&format!("`--{name}`"), &admits, text));
    }
    Err(format!("`--{name}` needs an integer, got `{text}`"))
}

/// Whether an array given to a list whose items are JSON of `kinds` is all its items
/// at once: the items are no arrays, and each of `all` is one.
fn at_once(kinds: Kinds, all: &[Value]) -> bool {
    kinds.0.is_some() && !kinds.has(Kinds::ARRAY) && all.iter().all(|v| kinds.admits(v))
}

/// The most `$ref`s and one-member unions followed for one property, and the
/// deepest a walk goes into the members of `anyOf`/`oneOf`.
const MAX_HOPS: usize = 8;

/// The most schema nodes the walks of one property visit ([`Walk`]): far more than
/// a shape of [`SHAPE_CHARS`] characters can show.
const PROPERTY_NODES: usize = 2_048;
/// The most schema nodes the walks of one tool visit, and as many more per property.
const TOOL_NODES: usize = 65_536;
const TOOL_NODES_PER_PROPERTY: usize = 16;

/// Walks over one tool's input schema (what a property admits, whether `null`, its
/// shape): the schema its `$ref`s point into, and how many nodes they may still
/// visit. A schema is a graph, not a tree — `$ref`s loop, and an `anyOf` of `$ref`s
/// to itself branches at each hop (one such tool made `--help`, `catalog` and every
/// <Tab> in its session take minutes) — so the count, not the hops, bounds the time:
/// at most linear in the number of properties. A walk that runs out answers as for
/// a schema that says nothing more (any JSON, no `null`, `…`).
struct Walk<'a> {
    root: &'a Value,
    left: std::cell::Cell<usize>,
}

impl<'a> Walk<'a> {
    fn new(root: &'a Value, nodes: usize) -> Self {
        Self {
            root,
            left: std::cell::Cell::new(nodes),
        }
    }

    /// Count one node; `false` once the walk may visit no more.
    fn visit(&self) -> bool {
        let left = self.left.get();
        self.left.set(left.saturating_sub(1));
        left > 0
    }

    /// `schema` with its `$ref`s and one-member unions followed ([`View`]), each hop
    /// a node: borrowed from the schema, never copied (a copy of the root at each
    /// hop made N properties `{"$ref": "#"}` cost N² copies of N).
    fn follow(&self, schema: &'a Value) -> View<'a> {
        let mut chain = vec![schema];
        for _ in 0..MAX_HOPS {
            let last = chain[chain.len() - 1];
            match standing_for(last, self.root) {
                Some(inner @ Value::Object(_)) if self.visit() => chain.push(inner),
                _ => break,
            }
        }
        View(chain)
    }
}

/// A property's schema as its option needs it, the way Python's MCP servers
/// (pydantic) write schemas: `anyOf`/`oneOf` of one schema and `null` (an
/// `Optional[T]`), `allOf` of one schema, and `$ref` into the input schema's own
/// `$defs` (an enum, a model) each stand for the one schema they name, and the
/// property's own words (`description`, `default`) stay over it: the chain from the
/// schema to the one it stands for, each word read from the first that has it. A
/// union of several schemas, or a `$ref` elsewhere, stays as it is (a JSON value).
struct View<'a>(Vec<&'a Value>);

impl<'a> View<'a> {
    /// The schema's `key`: a union or `$ref` is the last schema's (those before it
    /// stand for it); any other word the first one's that says it.
    fn get(&self, key: &str) -> Option<&'a Value> {
        if matches!(key, "$ref" | "anyOf" | "oneOf" | "allOf") {
            self.0[self.0.len() - 1].get(key)
        } else {
            self.0.iter().find_map(|schema| schema.get(key))
        }
    }

    /// The schema as it was written, before anything was followed.
    fn written(&self) -> &'a Value {
        self.0[0]
    }

    /// The members of its `anyOf` (else `oneOf`), if it is such a union.
    fn members(&self) -> Option<&'a Vec<Value>> {
        ["anyOf", "oneOf"]
            .iter()
            .find_map(|key| self.get(key)?.as_array())
    }
}

/// The one schema `schema` stands for: its local `$ref`'s target, or the one
/// member of its union that is not `null`.
fn standing_for<'a>(schema: &'a Value, root: &'a Value) -> Option<&'a Value> {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        return root.pointer(reference.strip_prefix('#')?);
    }
    let is_null = |member: &&Value| member.get("type").and_then(Value::as_str) == Some("null");
    let union = ["anyOf", "oneOf", "allOf"]
        .iter()
        .find_map(|key| schema.get(*key)?.as_array())?;
    let mut members = union.iter().filter(|m| !is_null(m));
    match (members.next(), members.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// Whether a property's schema admits `null`: a `type` that is or lists `null`, a
/// member of its `anyOf`/`oneOf` that is `null` (pydantic's `Optional[T]`), `null`
/// among its `enum`, or OpenAPI's `nullable: true`, through local `$ref`s.
fn nullable(schema: &Value, walk: &Walk) -> bool {
    nullable_within(schema, walk, MAX_HOPS)
}

fn nullable_within(schema: &Value, walk: &Walk, hops: usize) -> bool {
    if !walk.visit() {
        return false;
    }
    let is_null = |ty: &Value| ty == "null";
    let typed = match schema.get("type") {
        Some(Value::Array(types)) => types.iter().any(is_null),
        Some(ty) => is_null(ty),
        None => false,
    };
    let listed = schema
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| values.contains(&Value::Null));
    if typed || listed || schema.get("nullable") == Some(&Value::Bool(true)) {
        return true;
    }
    if hops == 0 {
        return false;
    }
    if let Some(target) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| walk.root.pointer(r.strip_prefix('#')?))
    {
        return nullable_within(target, walk, hops - 1);
    }
    ["anyOf", "oneOf"]
        .iter()
        .filter_map(|key| schema.get(*key)?.as_array())
        .flatten()
        .any(|member| nullable_within(member, walk, hops - 1))
}

/// The kinds of JSON value a schema admits ([`Kinds`]), through local `$ref`s and the
/// members of `anyOf`/`oneOf`; any, where it does not say or says in other words.
fn kinds_of(schema: &View, walk: &Walk, hops: usize) -> Kinds {
    match schema.get("type") {
        Some(Value::String(ty)) => return Kinds::of_type(ty),
        Some(Value::Array(types)) => {
            return types
                .iter()
                .map(|ty| ty.as_str().map_or(Kinds::ANY, Kinds::of_type))
                .reduce(Kinds::or)
                .unwrap_or(Kinds::ANY);
        }
        _ => {}
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .map(Kinds::of_value)
            .reduce(Kinds::or)
            .unwrap_or(Kinds::ANY);
    }
    if let Some(value) = schema.get("const") {
        return Kinds::of_value(value);
    }
    match schema.members() {
        Some(members) if hops > 0 && !members.is_empty() => {
            let mut kinds = Kinds(Some(0));
            for member in members {
                // Any JSON already, or out of nodes: no member can say more.
                if kinds == Kinds::ANY || !walk.visit() {
                    return Kinds::ANY;
                }
                kinds = kinds.or(kinds_of(&walk.follow(member), walk, hops - 1));
            }
            kinds
        }
        _ => Kinds::ANY,
    }
}

/// The types a schema names other than `null` (`"string"`, `["integer", "null"]`).
fn types_of<'a>(schema: &View<'a>) -> Vec<&'a str> {
    match schema.get("type") {
        Some(Value::String(ty)) => vec![ty.as_str()],
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect(),
        _ => Vec::new(),
    }
}

/// A schema's choices: its `enum`, or its `const` as the one choice (`Literal["x"]`).
fn choices_of(schema: &View) -> Option<Vec<Value>> {
    match (schema.get("enum"), schema.get("const")) {
        (Some(Value::Array(values)), _) => Some(values.clone()),
        (_, Some(value)) => Some(vec![value.clone()]),
        _ => None,
    }
}

/// Whether choices are all text (`null` aside, which the word `null` gives).
fn all_text(choices: &[Value]) -> bool {
    choices
        .iter()
        .filter(|c| !c.is_null())
        .all(Value::is_string)
}

/// The type of a property's schema: its `type` (the one that is not `null`), else the
/// type of its choices (text, or JSON of the kinds they are: `[1, 2.5, true]`), else
/// JSON of the kinds it admits, as also where it names several types
/// (`["integer", "boolean"]`).
fn type_of(schema: &View, walk: &Walk) -> Type {
    match types_of(schema)[..] {
        ["string"] => Type::String,
        ["integer"] => Type::Integer,
        ["number"] => Type::Number,
        ["boolean"] => Type::Boolean,
        ["array"] => {
            let items = schema.get("items").map(|items| walk.follow(items));
            let Some(items) = items else {
                return Type::Array(Box::new(Type::Json(Kinds::ANY)));
            };
            // An item that is itself a list, or a flag (which takes no word), is JSON.
            match item_type(&items) {
                Some(item) => Type::Array(Box::new(item)),
                None => Type::Array(Box::new(Type::Json(kinds_of(&items, walk, MAX_HOPS)))),
            }
        }
        [] if choices_of(schema).is_some_and(|c| all_text(&c)) => Type::String,
        _ => Type::Json(kinds_of(schema, walk, MAX_HOPS)),
    }
}

/// The type of a list's item, when it is one an option's word gives: not itself a list
/// or a flag, nor one that may be `null` (a JSON item, where `null` is one).
fn item_type(items: &View) -> Option<Type> {
    let nullable = matches!(items.get("type"), Some(Value::Array(types)) if types.contains(&Value::from("null")));
    if nullable {
        return None;
    }
    match types_of(items)[..] {
        ["string"] => Some(Type::String),
        ["integer"] => Some(Type::Integer),
        ["number"] => Some(Type::Number),
        [] if choices_of(items).is_some_and(|c| all_text(&c)) => Some(Type::String),
        _ => None,
    }
}

/// The deepest a shape nests objects and lists before it writes `{…}` or `[…]`.
const SHAPE_DEPTH: usize = 3;
/// The most fields of one object a shape names before `…`.
const SHAPE_FIELDS: usize = 12;
/// The most characters of a shape in an option's help.
const SHAPE_CHARS: usize = 240;

/// What a JSON option's value looks like, for its help: `{name: TEXT, tags?: [TEXT],
/// color?: red|green}` — each field with its type, `?` after one that is optional, a
/// list in `[…]`, choices joined by `|`; `$ref`s into `$defs` followed; nested at most
/// [`SHAPE_DEPTH`] deep and cut at [`SHAPE_CHARS`]. `None` when the schema says nothing
/// a value name does not.
fn shape(schema: &Value, walk: &Walk) -> Option<String> {
    let text = shape_within(schema, walk, SHAPE_DEPTH);
    // An object that names no field says no more than `JSON`.
    if !text.contains(['{', '[']) || text == "{…}" || text == "{}" {
        return None;
    }
    Some(cut(&text, SHAPE_CHARS))
}

/// `text`, cut with `…` after `chars` characters.
fn cut(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

fn shape_within(schema: &Value, walk: &Walk, depth: usize) -> String {
    if !walk.visit() {
        return "…".to_owned();
    }
    let schema = walk.follow(schema);
    let word = |v: &Value| {
        v.as_str()
            .map_or_else(|| v.to_string(), mur_core::shell_word)
    };
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        // No more than a shape shows (a schema may list 100,000 of them).
        let mut text = String::new();
        for value in values {
            if text.len() > SHAPE_CHARS {
                text.push_str("|…");
                break;
            }
            if !text.is_empty() {
                text.push('|');
            }
            text.push_str(&word(value));
        }
        return text;
    }
    if let Some(value) = schema.get("const") {
        return cut(&word(value), SHAPE_CHARS);
    }
    if let Some(members) = schema.members() {
        if depth == 0 {
            return "…".to_owned();
        }
        let mut shown: Vec<String> = Vec::new();
        for member in members {
            if shown.iter().map(String::len).sum::<usize>() > SHAPE_CHARS {
                shown.push("…".to_owned());
                break;
            }
            let text = shape_within(member, walk, depth - 1);
            if text != "null" && !shown.contains(&text) {
                shown.push(text);
            }
        }
        return shown.join("|");
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(ty)) => vec![ty.as_str()],
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).collect(),
        _ if schema.get("properties").is_some() => vec!["object"],
        _ => Vec::new(),
    };
    let shown: Vec<String> = types
        .iter()
        .filter(|ty| **ty != "null" || types.len() == 1)
        .map(|ty| match *ty {
            "string" => "TEXT".to_owned(),
            "integer" => "N".to_owned(),
            "number" => "NUMBER".to_owned(),
            "boolean" => "true|false".to_owned(),
            "null" => "null".to_owned(),
            "array" => match schema.get("items") {
                Some(items) if depth > 0 => format!("[{}]", shape_within(items, walk, depth - 1)),
                _ => "[…]".to_owned(),
            },
            "object" => object_shape(&schema, walk, depth),
            _ => "JSON".to_owned(),
        })
        .collect();
    if shown.is_empty() {
        "JSON".to_owned()
    } else {
        shown.join("|")
    }
}

/// An object's shape: `{name: TEXT, tags?: [TEXT]}`, or `{TEXT: N}` for a map.
fn object_shape(schema: &View, walk: &Walk, depth: usize) -> String {
    if depth == 0 {
        return "{…}".to_owned();
    }
    let required = required_names(schema.get("required"));
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        let mut fields: Vec<String> = properties
            .iter()
            .take(SHAPE_FIELDS)
            .map(|(name, field)| {
                let optional = if required.contains(&name.as_str()) {
                    ""
                } else {
                    "?"
                };
                let name = mur_core::text::escaped(name, mur_core::text::unprintable);
                let name = cut(&name, SHAPE_CHARS);
                format!("{name}{optional}: {}", shape_within(field, walk, depth - 1))
            })
            .collect();
        if properties.len() > SHAPE_FIELDS {
            fields.push("…".to_owned());
        }
        return format!("{{{}}}", fields.join(", "));
    }
    match schema.get("additionalProperties") {
        Some(values @ Value::Object(_)) => {
            format!("{{TEXT: {}}}", shape_within(values, walk, depth - 1))
        }
        _ => "{…}".to_owned(),
    }
}

/// The most characters of the choices an option's value name lists (`red|green`).
const CHOICES_NAME_CHARS: usize = 40;

/// The option a field is, for help and completion (`walk`: over the input schema, which
/// holds the `$defs` its `$ref`s name).
fn param(field: &Field, schema: &View, walk: &Walk) -> Param {
    let choices: Vec<String> = field
        .choices
        .iter()
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
        .collect();
    let (kind, value_name) = match (&field.ty, choices.is_empty()) {
        (Type::Boolean, _) => (ValueKind::Flag, String::new()),
        // Quoted where a shell would split it, as it must be typed: `'New York'|Chicago`;
        // too many for a usage line (an `enum` may hold 100,000), `CHOICE`, and the help
        // names the first few.
        (_, false) => {
            let typed: Vec<String> = choices.iter().map(|c| mur_core::shell_word(c)).collect();
            let typed = typed.join("|");
            if typed.chars().count() <= CHOICES_NAME_CHARS {
                (ValueKind::Choice, typed)
            } else {
                (ValueKind::Choice, "CHOICE".to_owned())
            }
        }
        (Type::String, _) => text_param(&field.option),
        (Type::Integer, _) => (ValueKind::Integer, "N".to_owned()),
        (Type::Number, _) => (ValueKind::Number, "NUMBER".to_owned()),
        (Type::Array(item), _) => match &**item {
            Type::Integer => (ValueKind::Integer, "N".to_owned()),
            Type::Number => (ValueKind::Number, "NUMBER".to_owned()),
            Type::String => (ValueKind::Text, "TEXT".to_owned()),
            Type::Json(kinds) => json_param(*kinds),
            _ => (ValueKind::Json, "JSON".to_owned()),
        },
        (Type::Json(kinds), _) => json_param(*kinds),
    };
    let mut help = schema
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let stated = numbers_in(&help);
    // A JSON value's fields: what `--entities JSON` alone never said (a choice's value
    // name lists its choices already).
    let shaped = match &field.ty {
        _ if !field.choices.is_empty() => None,
        Type::Json(_) => shape(schema.written(), walk),
        Type::Array(item) if matches!(**item, Type::Json(_)) => {
            schema.get("items").and_then(|items| shape(items, walk))
        }
        _ => None,
    };
    if let Some(shaped) = shaped {
        help = if help.is_empty() {
            shaped
        } else {
            format!("{help}; {shaped}")
        };
    }
    // What mur adds, in one parenthesis (`(1–10, default 3)`): a bound the description
    // states already (`(1-10)`, `between 1 and 10`) is not said twice.
    let mut added: Vec<String> = [&field.range, &field.count]
        .into_iter()
        .flatten()
        .filter(|range| !range.stated_in(&stated))
        .map(Range::help)
        .collect();
    // A `null` default (`Optional[T] = None`) says only that the option may be left out.
    if let Some(default) = schema.get("default").filter(|d| !d.is_null()) {
        // A flag on by default is turned off only by `--NAME=false`: said where it shows.
        added.push(match (&field.ty, default) {
            (Type::Boolean, Value::Bool(true)) => {
                format!("default true; `--{}=false` turns it off", field.option)
            }
            _ => format!("default {default}"),
        });
    }
    if field.required {
        // A required flag is sent false only as `--NAME=false`: said where it shows.
        added.push(match field.ty {
            Type::Boolean => format!("required: `--{0}` or `--{0}=false`", field.option),
            _ => "required".to_owned(),
        });
    }
    // Renamed so as not to be the host's (`--arg-timeout`): say what it fills.
    let renamed = field.option != kebab(&field.property) && field.option != field.property;
    if renamed {
        added.push(format!("property `{}`", field.property));
    }
    let mut param = Param {
        name: field.option.clone(),
        value_name,
        kind,
        help: String::new(),
        required: field.required,
        repeatable: matches!(field.ty, Type::Array(_)),
        choices,
    };
    // What the help adds of every param (`repeatable`) goes in the same parenthesis, so
    // the catalog's help reads as the help does.
    added.extend(crate::spec::added(&param, true));
    param.help = crate::spec::with_added(&help, &added);
    param
}

/// The numbers a text writes (`1` and `10` of `(1-10)`, `-5` of `from -5`), to tell a
/// bound it states already.
fn numbers_in(text: &str) -> Vec<f64> {
    let mut numbers = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..]
        .find(|c: char| c.is_ascii_digit())
        .map(|at| from + at)
    {
        let len = text[at..]
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(text.len() - at);
        let digits = text[at..at + len].trim_end_matches('.');
        // A `-` is a sign where no word or number ends just before it (`1-10` is a span).
        let signed = text[..at].strip_suffix('-').is_some_and(|before| {
            !before
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
        });
        if let Ok(n) = digits.parse::<f64>() {
            numbers.push(if signed { -n } else { n });
        }
        from = at + len;
    }
    numbers
}

/// The kind and value name of an option whose value is JSON of `kinds`: a union of
/// plain values that admits text takes any word as it is typed (`Union[int, str]`,
/// `N|TEXT`: `--key 5` is 5, `--key abc` "abc", never `'"abc"'`), so it is text to
/// whoever reads its kind (`catalog --json`); else JSON (`N|true|false`, `JSON`).
fn json_param(kinds: Kinds) -> (ValueKind, String) {
    match kinds.value_name() {
        Some(name) if kinds.has(Kinds::STRING) => (ValueKind::Text, name),
        Some(name) => (ValueKind::Json, name),
        None => (ValueKind::Json, "JSON".to_owned()),
    }
}

/// The kind and placeholder of a text option: text, `TEXT`, but for the options every
/// standard verb names alike (the verb kit's `Opt::selector` and `Opt::window`), which
/// are a selector `S` and a name `W` there, so that one tool's option reads the same
/// in its named verb's help and `catalog --json` and in its derived verb's.
fn text_param(option: &str) -> (ValueKind, String) {
    let (kind, placeholder) = match option {
        "selector" => (ValueKind::Selector, "S"),
        "window" => (ValueKind::Name, "W"),
        _ => (ValueKind::Text, "TEXT"),
    };
    (kind, placeholder.to_owned())
}

/// Whether a text option named `option` is a selector or a window ([`text_param`]),
/// whose value `@FILE` does not read ([`Field::reads_files`]).
fn is_word_option(option: &str) -> bool {
    text_param(option).0 != ValueKind::Text
}

/// The option giving a tool's whole arguments object, of every derived and data verb
/// (`all-args` where a tool's property takes the name) as of `call`.
pub(crate) const WHOLE_ARGUMENTS: &str = "args";

/// The help of the option giving the whole arguments object.
const WHOLE: &str = "the whole arguments object, as JSON (`@FILE`, `-`: read from FILE, stdin; \
     4 MiB at most, what a session takes in one request); options given beside it override its \
     fields";

/// Said of the whole object's option when a property is named `""`.
#[cfg(test)]
const UNNAMED: &str = "; the property `\"\"` (a name no option can have) is given only here";

/// The whole object's option, and what it alone gives: the properties no option can
/// name ([`Derived::named`]), each as JSON writes its name (`""`, `"p=q"`).
fn whole_param(name: &str, unnamed: &[(String, bool)]) -> Param {
    let names: Vec<String> = unnamed
        .iter()
        .map(|(property, _)| format!("`{}`", Value::from(property.as_str())))
        .collect();
    let help = match names.split_last() {
        None => WHOLE.to_owned(),
        Some((one, [])) => {
            format!("{WHOLE}; the property {one} (a name no option can have) is given only here")
        }
        Some((last, rest)) => format!(
            "{WHOLE}; the properties {} and {last} (names no option can have) are given only here",
            rest.join(", ")
        ),
    };
    Param::new(name, "JSON", ValueKind::Json, &help)
}

/// The summary of the verb of `tool`, an entry of a `tools/list` result, as its
/// [`Derived`] has it, without building the verb: the word a list of verbs shows beside
/// its name (a completion candidate's), where building each verb's options for it took
/// minutes for 50,000 tools.
pub fn summary_of(tool: &Value) -> String {
    let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
    described(tool, name).0
}

/// The summary and details of the verb of `tool`, named `name`: from its description
/// ([`split_description`]), its title when it has none, else its name.
fn described(tool: &Value, name: &str) -> (String, String) {
    let title = tool
        .pointer("/annotations/title")
        .or_else(|| tool.get("title"));
    described_by(tool.get("description"), title, name)
}

/// [`described`] of a tool named `name` whose `description` and title (its annotations',
/// else its own) are these, however they were read: the tool's entry whole, or only
/// these members of it (a list read for a glance, [`crate::tools::Glance`]).
pub fn described_by(
    description: Option<&Value>,
    title: Option<&Value>,
    name: &str,
) -> (String, String) {
    let description = description.and_then(Value::as_str).unwrap_or("");
    split_description(description, title.and_then(Value::as_str).unwrap_or(name))
}

/// The first sentence of a description as the summary (the title when
/// there is none), the rest as details.
fn split_description(description: &str, title: &str) -> (String, String) {
    let description = description.trim();
    if description.is_empty() {
        return (title.to_owned(), String::new());
    }
    let first_line = description.lines().next().unwrap_or_default();
    let end = first_line
        .match_indices(". ")
        .map(|(at, _)| at + 1)
        .next()
        .unwrap_or(first_line.len());
    let summary = first_line[..end].trim().trim_end_matches('.').to_owned();
    let details = description[end..].trim().to_owned();
    (summary, details)
}

/// MCP tool annotations in words, in a fixed order.
pub fn annotations(annotations: Option<&Value>) -> Vec<String> {
    let Some(hints) = annotations else {
        return Vec::new();
    };
    let hint = |key: &str| hints.get(key).and_then(Value::as_bool);
    let mut words = Vec::new();
    if hint("readOnlyHint") == Some(true) {
        words.push("read-only");
    }
    if hint("destructiveHint") == Some(true) && hint("readOnlyHint") != Some(true) {
        words.push("destructive");
    }
    if hint("idempotentHint") == Some(true) {
        words.push("idempotent");
    }
    if hint("openWorldHint") == Some(true) {
        words.push("open-world");
    }
    words.into_iter().map(str::to_owned).collect()
}

/// The names an object schema's `required` lists (what is not a string ignored).
/// A set, not a list: each property asks whether it is in it (a tool of 32,000 required
/// properties searched them all for each).
fn required_names(required: Option<&Value>) -> HashSet<&str> {
    required
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// How long a test's read of a pipe may take: `--timeout`'s default.
#[cfg(test)]
pub(crate) const WITHIN: Duration = Duration::from_secs(10);

#[cfg(test)]
mod tests {
    use super::*;

    // The choice typos every kind of verb answers alike (one table for three builds).
    include!("../../../tests/shared/choice_cases.rs");
    use serde_json::json;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    /// The call `wait_for` makes of `words`, which must parse.
    fn wait_for_call(words: &[&str]) -> Request {
        parsed(&wait_for(), words).expect("parses")
    }

    /// The verb of a tool `name` whose input schema is `schema`.
    fn verb_of(name: &str, schema: serde_json::Value) -> Derived {
        Derived::from_tool(&json!({"name": name, "inputSchema": schema})).expect("a tool")
    }

    /// What `verb` makes of `words`: a request, or what it says refusing them.
    fn parsed(verb: &Derived, words: &[&str]) -> Result<Request, String> {
        verb.parse(&argv(words), WITHIN)
    }

    /// Asserts, for each `(words, parsed)` row, what `verb` makes of `words`: a call
    /// with these arguments (`Ok`), or what it says refusing them (`Err`).
    #[track_caller]
    fn assert_parses(verb: &Derived, rows: &[(&[&str], Result<Value, &str>)]) {
        for (words, expected) in rows {
            let expected = expected.clone().map(call).map_err(str::to_owned);
            assert_eq!(parsed(verb, words), expected, "{words:?}");
        }
    }

    /// What `verb` says refusing `words`, which it must refuse.
    fn refused(verb: &Derived, words: &[&str]) -> String {
        match parsed(verb, words) {
            Err(message) => message,
            other => panic!("{words:?}: {other:?}"),
        }
    }

    /// Asserts, for each `(words, message)` row, what `verb` says refusing `words`.
    #[track_caller]
    fn assert_refusals(verb: &Derived, rows: &[(&[&str], impl AsRef<str>)]) {
        for (words, said) in rows {
            assert_eq!(refused(verb, words), said.as_ref(), "{words:?}");
        }
    }

    /// What `each` makes of every option of `verb`, in order.
    fn options_as<'a, T>(verb: &'a Derived, each: impl FnMut(&'a Param) -> T) -> Vec<T> {
        verb.spec.options.iter().map(each).collect()
    }

    /// Each option's name and help, but `--args`'s.
    fn option_helps(verb: &Derived) -> Vec<(&str, &str)> {
        let helps = options_as(verb, |o| (o.name.as_str(), o.help.as_str()));
        helps
            .into_iter()
            .filter(|(name, _)| *name != "args")
            .collect()
    }

    /// A call with these arguments (a JSON object).
    fn call(arguments: serde_json::Value) -> Request {
        Request::Call(arguments.as_object().expect("an object").clone())
    }

    #[test]
    fn a_tool_is_reached_by_its_own_name_and_its_verb_s() {
        let tools = [
            json!({"title": "waitFor"}),
            json!({"name": "waitFor", "inputSchema": {"type": "object"}}),
        ];
        let picked = |word| Derived::pick(&tools, word).map(|(verb, _)| verb.name);
        assert_eq!(picked("waitFor"), Some("wait-for".into()));
        assert_eq!(picked("wait-for"), Some("wait-for".into()));
        for word in ["wait", "waitfor", "wait_for", ""] {
            assert_eq!(picked(word), None, "{word}");
        }
    }

    #[test]
    fn tools_whose_verb_names_would_be_the_same_or_empty_keep_their_own_names() {
        let tool = |name: &str| json!({"name": name, "inputSchema": {"type": "object"}});
        let tools = [
            tool("get_sum"),
            tool("getSum"),
            tool("___"),
            tool(""),
            json!({"name": 5}),
            tool("waitFor"),
        ];
        assert_eq!(
            verb_names(&tools),
            [
                Some("get_sum".to_owned()),
                Some("getSum".to_owned()),
                Some("___".to_owned()),
                None,
                None,
                Some("wait-for".to_owned()),
            ]
        );
        let all: Vec<(String, String)> = Derived::all(&tools)
            .into_iter()
            .map(|(verb, entry)| (verb.name, entry["name"].to_string()))
            .collect();
        assert_eq!(
            all,
            [
                ("get_sum".into(), "\"get_sum\"".into()),
                ("getSum".into(), "\"getSum\"".into()),
                ("___".into(), "\"___\"".into()),
                ("wait-for".into(), "\"waitFor\"".into()),
            ]
        );
        // The shared kebab-case name would stand for two tools: it names none.
        assert!(Derived::pick(&tools, "get-sum").is_none());
        assert_eq!(sharing(&tools, "get-sum"), ["get_sum", "getSum"]);
        assert!(sharing(&tools, "wait-for").is_empty());
        let (verb, _) = Derived::pick(&tools, "getSum").expect("its own name");
        assert_eq!(verb.tool, "getSum");
    }

    /// A tool listed twice is one tool: the first entry is its verb, named as if the
    /// second were not there (`click-element`, not two verbs `clickElement` of which one
    /// was the tool's), and the one its name picks.
    #[test]
    fn a_tool_listed_twice_is_one_verb_of_its_first_entry() {
        let tool = |name: &str, description: &str| json!({"name": name, "description": description, "inputSchema": {"type": "object"}});
        let tools = [
            tool("clickElement", "First"),
            tool("get_sum", ""),
            tool("clickElement", "Second"),
            tool("getSum", ""),
            tool("get_sum", ""),
            tool("", ""),
            tool("", ""),
        ];
        assert_eq!(
            verb_names(&tools),
            [
                Some("click-element".to_owned()),
                Some("get_sum".to_owned()),
                None,
                Some("getSum".to_owned()),
                None,
                None,
                None,
            ]
        );
        let names: Vec<Option<&str>> = tools.iter().map(|t| t["name"].as_str()).collect();
        assert_eq!(
            repeated(&names),
            [false, false, true, false, true, false, true]
        );
        let (verb, _) = Derived::pick(&tools, "clickElement").expect("its own name");
        assert_eq!(
            (verb.name.as_str(), verb.summary.as_str()),
            ("click-element", "First")
        );
        assert_eq!(Derived::all(&tools).len(), 3);
        assert_eq!(sharing(&tools, "get-sum"), ["get_sum", "getSum"]);
    }

    /// A verb name one could not see whole (a tool named U+200B, or a format or control
    /// character in a name kept as it is) is none: the tool is `call`'s alone, as one
    /// named `--help` is. A kebab-case name is letters and digits, and stays a verb.
    #[test]
    fn a_verb_name_with_an_invisible_character_is_none() {
        let tool = |name: &str| json!({"name": name, "inputSchema": {"type": "object"}});
        let tools = [
            tool("\u{200b}"),
            tool("\u{feff}"),
            tool("a\u{200d}b"),
            tool("a b"),
            tool("\u{7}"),
            tool("ring\u{7}bell"),
            tool("zero\u{200b}"),
        ];
        assert_eq!(
            verb_names(&tools),
            [
                None,
                None,
                None,
                Some("a b".to_owned()),
                None,
                Some("ring-bell".to_owned()),
                Some("zero".to_owned()),
            ]
        );
        assert!(Derived::pick(&tools, "\u{200b}").is_none());
    }

    /// A name of blanks alone (spaces, the Hangul fillers, the blank Braille pattern, an
    /// ideographic space) is kept as it is, its kebab-case form being empty or itself:
    /// a verb that showed as a gap in the catalog and as nothing in completion. It is
    /// none, and so is one with a blank among its letters that [`kebab`] keeps (the
    /// Hangul fillers are letters to it): `get\u{3164}sum` was a verb shown as `get sum`. One
    /// that kebab case separates at (a space) is a verb one can read and type.
    #[test]
    fn a_verb_name_of_blanks_or_with_a_blank_among_its_letters_is_none() {
        let tool = |name: &str| json!({"name": name, "inputSchema": {"type": "object"}});
        let names = [
            " ",
            "  ",
            "\u{3164}",
            "\u{2800}",
            "\u{115f}\u{1160}",
            "\u{3000}",
            "a\u{3164}",
            "get\u{3164}sum",
            "\u{115f}x",
            "get sum",
            "get\u{3000}it",
        ];
        let tools: Vec<Value> = names.iter().map(|name| tool(name)).collect();
        let mut expected = vec![None; names.len() - 2];
        expected.extend([Some("get-sum".to_owned()), Some("get-it".to_owned())]);
        assert_eq!(verb_names(&tools), expected);
        assert!(Derived::pick(&tools, " ").is_none());
        assert!(Derived::pick(&tools, "get\u{3164}sum").is_none());
    }

    /// The option a lone word gives is in the verb's spec, so the hint that the shell may
    /// have read an unquoted `#selector` as a comment (`wait-for #x`: argv empty, and
    /// `--selector` missing) is given from the spec alone, as for a kit's positional. Not
    /// where no lone word is taken, nor for an option that is no selector.
    #[test]
    fn the_option_a_lone_word_gives_is_in_the_spec_and_its_absence_hinted() {
        let tool = |properties: Value, required: Value| {
            json!({"name": "waitFor", "inputSchema": {"type": "object",
                "properties": properties, "required": required}})
        };
        let selector = json!({"selector": {"type": "string"}, "text": {"type": "string"}});
        let text = json!({"text": {"type": "string"}});
        let hints = |tool: &Value| {
            let verb = Derived::from_tool(tool).expect("a tool");
            let message = verb
                .parse(&[], Duration::from_secs(1))
                .expect_err("refused");
            let error = mur_core::Error::from(crate::VerbError::usage(
                &verb.name,
                message,
                String::new(),
                Some(&verb.spec),
                &[],
            ));
            let quoting = error.hints().iter().find(|h| h.starts_with("quote"));
            (verb.spec.lone.clone(), quoting.cloned())
        };
        let (lone, hinted) = hints(&tool(selector.clone(), json!(["selector"])));
        assert_eq!(lone.as_deref(), Some("selector"));
        assert_eq!(
            hinted.as_deref(),
            Some(
                "quote a selector that starts with `#` ('#btn-inc'): unquoted, the shell reads \
                 it and the rest of the line as a comment"
            )
        );
        let (lone, hinted) = hints(&tool(text, json!(["text"])));
        assert_eq!((lone.as_deref(), hinted), (Some("text"), None));
        let both = json!(["selector", "text"]);
        assert_eq!(hints(&tool(selector, both)), (None, None));
    }

    /// A candidate's summary, read off the tool's entry, is its verb's.
    #[test]
    fn the_summary_of_a_tool_is_its_verbs_without_building_it() {
        for tool in [
            json!({"name": "a", "description": "One. Two.\nThree"}),
            json!({"name": "b", "title": "Bee", "description": "  "}),
            json!({"name": "c", "title": "Sea", "annotations": {"title": "See"}}),
            json!({"name": "d"}),
        ] {
            let verb = Derived::from_tool(&tool).expect("a tool");
            assert_eq!(summary_of(&tool), verb.summary, "{tool}");
        }
    }

    #[test]
    fn properties_whose_options_would_be_the_same_keep_their_own_names() {
        let verb = verb_of(
            "tune",
            json!({"type": "object", "properties": {
                "fooBar": {"type": "string"},
                "foo_bar": {"type": "integer"},
                "__": {"type": "boolean"},
                "level": {"type": "integer"}
            }}),
        );
        let names = options_as(&verb, |o| o.name.as_str());
        assert_eq!(names, ["fooBar", "foo_bar", "__", "level", "args"]);
        assert_eq!(
            parsed(&verb, &["--foo_bar", "7", "--fooBar", "x", "--__"]),
            Ok(call(json!({"foo_bar": 7, "fooBar": "x", "__": true})))
        );
        // Case aside (the one rule of the kit's hints, helper 506), `--foo-bar` is most
        // like `--fooBar`, whose option it would have been alone.
        assert_eq!(
            refused(&verb, &["--foo-bar", "7"]),
            "unknown option `--foo-bar`; did you mean `--fooBar`?"
        );
    }

    #[test]
    fn properties_named_like_the_hosts_options_or_help_are_behind_arg() {
        let tool = json!({
            "name": "wait",
            "inputSchema": {"type": "object", "properties": {
                "timeout": {"type": "integer", "description": "how long"},
                "argTimeout": {"type": "integer"},
                "help": {"type": "boolean"},
                "pretty": {"type": "boolean"},
                "selector": {"type": "string"}
            }}
        });
        let options = |verb: &Derived| -> Vec<(String, String)> {
            let options = verb.spec.options.iter();
            options.map(|o| (o.name.clone(), o.help.clone())).collect()
        };
        let all = Derived::all(std::slice::from_ref(&tool));
        let [(derived, _)] = all.as_slice() else {
            panic!("one verb: {all:?}");
        };
        let owned = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            let pairs = pairs.iter();
            pairs
                .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
                .collect()
        };
        assert_eq!(
            options(derived),
            owned(&[
                ("arg-arg-timeout", "how long (property `timeout`)"),
                ("arg-timeout", ""),
                ("arg-help", "(property `help`)"),
                ("arg-pretty", "(property `pretty`)"),
                ("selector", ""),
                ("args", WHOLE),
            ])
        );
        assert_eq!(
            parsed(
                derived,
                &["--arg-arg-timeout", "5", "--arg-help", "--arg-pretty"]
            ),
            Ok(call(json!({"timeout": 5, "help": true, "pretty": true})))
        );
        // A data verb's options are named the same way: its `timeout` is `--arg-timeout`.
        let data = Derived::from_tool(&tool).expect("a tool");
        assert_eq!(options(&data), options(derived));
    }

    #[test]
    fn optional_unions_and_local_refs_are_the_option_they_stand_for() {
        let verb = verb_of(
            "search",
            json!({
                "type": "object",
                "$defs": {
                    "Mode": {"enum": ["fast", "slow"], "type": "string"},
                    "Loop": {"type": "array", "items": {"$ref": "#/$defs/Loop"}},
                    "Ping": {"$ref": "#/$defs/Pong"},
                    "Pong": {"$ref": "#/$defs/Ping"}
                },
                "properties": {
                    "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null},
                    "mode": {
                        "anyOf": [{"$ref": "#/$defs/Mode"}, {"type": "null"}],
                        "description": "how hard to look"
                    },
                    "tags": {"oneOf": [{"type": "null"}, {"type": "array", "items": {"type": "string"}}]},
                    "size": {"allOf": [{"type": "number"}], "default": 2},
                    "either": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                    "loop": {"$ref": "#/$defs/Loop"},
                    "ping": {"$ref": "#/$defs/Ping"},
                    "away": {"$ref": "https://example.com/schema"}
                }
            }),
        );
        let options = options_as(&verb, |o| {
            (o.name.as_str(), o.value_name.as_str(), o.help.as_str())
        });
        assert_eq!(
            options,
            [
                ("limit", "N", ""),
                ("mode", "fast|slow", "how hard to look"),
                ("tags", "TEXT", "(repeatable)"),
                ("size", "NUMBER", "(default 2)"),
                ("either", "N|TEXT", ""),
                ("loop", "JSON", "[[[[…]]]] (repeatable)"),
                ("ping", "JSON", ""),
                ("away", "JSON", ""),
                ("args", "JSON", WHOLE),
            ]
        );
        assert_eq!(
            parsed(
                &verb,
                &[
                    "--limit", "3", "--mode", "slow", "--tags", "a", "--size", "1.5"
                ]
            ),
            Ok(call(
                json!({"limit": 3, "mode": "slow", "tags": ["a"], "size": 1.5})
            ))
        );
        assert_eq!(
            refused(&verb, &["--mode", "medium"]),
            "`--mode` must be `fast` or `slow`, got `medium`"
        );
    }

    /// A pydantic server's schema (models in `$defs`, `Union[int, str]`, `Optional[T]`,
    /// `list[Literal[…]]`, `dict[str, int]`): each JSON option's help shows its fields,
    /// a union with text takes a plain word, a list's choices are shown and checked, and
    /// `null` is null where the schema admits it.
    #[test]
    fn nested_schemas_show_their_shape_and_unions_take_plain_words() {
        let verb = verb_of(
            "draw",
            json!({
                "type": "object",
                "required": ["shape"],
                "$defs": {
                    "Point": {"type": "object", "required": ["x", "y"], "properties": {
                        "x": {"type": "integer"}, "y": {"type": "integer"},
                        "label": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null}
                    }},
                    "Color": {"enum": ["red", "green"], "type": "string"},
                    "Shape": {"type": "object", "required": ["name"], "properties": {
                        "name": {"type": "string"},
                        "points": {"type": "array", "items": {"$ref": "#/$defs/Point"}},
                        "color": {"$ref": "#/$defs/Color"}
                    }}
                },
                "properties": {
                    "shape": {"$ref": "#/$defs/Shape", "description": "what to draw"},
                    "key": {"anyOf": [{"type": "integer"}, {"type": "string"}], "default": 0},
                    "points": {"type": "array", "items": {"$ref": "#/$defs/Point"}, "default": []},
                    "tags": {"type": "array", "items": {"enum": ["a", "b"], "type": "string"}},
                    "maybe": {"type": ["string", "null"]},
                    "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                    "mode": {"anyOf": [{"$ref": "#/$defs/Color"}, {"type": "null"}]},
                    "counts": {"type": "object", "additionalProperties": {"type": "integer"}}
                }
            }),
        );
        let options = options_as(&verb, |o| {
            (
                o.name.as_str(),
                o.value_name.as_str(),
                o.help.as_str(),
                o.repeatable,
            )
        });
        assert_eq!(
            options,
            [
                (
                    "shape",
                    "JSON",
                    "what to draw; {name: TEXT, points?: [{x: N, y: N, label?: TEXT}], color?: red|green} (required)",
                    false
                ),
                ("key", "N|TEXT", "(default 0)", false),
                (
                    "points",
                    "JSON",
                    "{x: N, y: N, label?: TEXT} (default [], repeatable)",
                    true
                ),
                ("tags", "a|b", "(repeatable)", true),
                ("maybe", "TEXT", "", false),
                ("limit", "N", "", false),
                ("mode", "red|green", "", false),
                ("counts", "JSON", "{TEXT: N}", false),
                ("args", "JSON", WHOLE, false),
            ]
        );
        let parse = |words: &[&str]| {
            verb.parse(
                &argv(&[&["--shape", r#"{"name":"tri"}"#], words].concat()),
                WITHIN,
            )
        };
        let sent = |words: &[&str]| match parse(words) {
            Ok(Request::Call(mut arguments)) => {
                arguments.remove("shape");
                Value::Object(arguments)
            }
            other => panic!("{words:?}: {other:?}"),
        };
        assert_eq!(sent(&["--key", "abc"]), json!({"key": "abc"}));
        assert_eq!(sent(&["--key", "5"]), json!({"key": 5}));
        assert_eq!(sent(&["--key", r#""5""#]), json!({"key": "5"}));
        assert_eq!(sent(&["--key", "true"]), json!({"key": "true"}));
        assert_eq!(
            sent(&["--maybe", "null", "--limit", "null", "--mode", "null"]),
            json!({"maybe": null, "limit": null, "mode": null})
        );
        assert!(
            verb.help().contains(
                "\n`null` is JSON null for `--maybe`, `--limit` and `--mode` (their schema \
                 admits\nit), and a word elsewhere.\n"
            ),
            "{}",
            verb.help()
        );
        // An object that names no field gets no shape.
        let bare = verb_of(
            "t",
            json!({"properties": {
                "a": {"type": "object", "properties": {}}, "b": {"type": "object"}
            }}),
        );
        assert!(
            bare.spec
                .options
                .iter()
                .all(|o| o.name == "args" || o.help.is_empty())
        );
        // A list's own `enum` (a data verb's choices) is each use's, as before.
        let listed = verb_of(
            "t",
            json!({"properties": {
                "tags": {"type": "array", "items": {"type": "string"}, "enum": ["x", "y"]}
            }}),
        );
        assert_eq!(
            refused(&listed, &["--tags", "z"]),
            "`--tags` must be `x` or `y`, got `z`"
        );
        assert_eq!(sent(&["--mode=null"]), json!({"mode": null}));
        assert_eq!(
            sent(&[
                "--points",
                r#"[{"x":1,"y":2}]"#,
                "--tags",
                "a",
                "--tags",
                "b"
            ]),
            json!({"points": [{"x": 1, "y": 2}], "tags": ["a", "b"]})
        );
        for (words, said) in [
            // Not where the schema has no null: `null` is a word like any other.
            (
                &["--tags", "null"],
                "`--tags` must be `a` or `b`, got `null`",
            ),
            (
                &["--points", "1"],
                "`--points` needs a JSON object, got `1`",
            ),
            (&["--tags", "c"], "`--tags` must be `a` or `b`, got `c`"),
            (
                &["--counts", "{"],
                "`--counts` is not valid JSON: EOF while parsing an object at line 1 column 1",
            ),
        ] {
            assert_eq!(parse(words), Err(said.to_owned()), "{words:?}");
        }
    }

    #[test]
    fn a_property_named_empty_is_no_option_and_is_given_in_args() {
        let verb = verb_of(
            "odd",
            json!({"type": "object", "required": [""], "properties": {
                "": {"type": "string"}, "a": {"type": "string"}
            }}),
        );
        let options = options_as(&verb, |o| (o.name.as_str(), o.help.as_str()));
        let whole = format!("{WHOLE}{UNNAMED}");
        assert_eq!(options, [("a", ""), ("args", whole.as_str())]);
        assert!(
            verb.spec
                .render(&verb.name, &verb.summary)
                .starts_with("Usage: mur devtools odd [<a>] [--args JSON]\n"),
        );
        assert_eq!(
            refused(&verb, &["--a", "x"]),
            "missing the property `\"\"`, which no option can give: `--args \'{\"\": …}\'` does"
        );
        assert_eq!(
            parsed(&verb, &["--args", r#"{"": "v"}"#, "--a", "x"]),
            Ok(call(json!({"": "v", "a": "x"})))
        );
    }

    #[test]
    fn a_number_choice_matches_by_value_and_a_whole_number_is_sent_whole() {
        let verb = verb_of(
            "zoom",
            json!({"type": "object", "properties": {
                "level": {"type": "number", "enum": [1, 2, 2.5]},
                "ratio": {"type": "number"}
            }}),
        );
        let rows: &[(&[&str], _)] = &[
            (&["--level", "1"], Ok(json!({"level": 1}))),
            (&["--level", "2.5"], Ok(json!({"level": 2.5}))),
            (&["--level", "2.0"], Ok(json!({"level": 2.0}))),
            (
                &["--level", "3"],
                Err("`--level` must be `1`, `2` or `2.5`, got `3`"),
            ),
            (&["--ratio", "2"], Ok(json!({"ratio": 2}))),
            (&["--ratio", "1e3"], Ok(json!({"ratio": 1000.0}))),
        ];
        assert_parses(&verb, rows);
    }

    fn wait_for() -> Derived {
        Derived::from_tool(&json!({
            "name": "waitFor",
            "description": "Wait until an element matches",
            "annotations": {"readOnlyHint": true, "idempotentHint": true},
            "inputSchema": {"type": "object", "required": ["selector"], "properties": {
                "selector": {"type": "string", "description": "the elements"},
                "count": {"type": "integer"},
                "ratio": {"type": "number"},
                "visible": {"type": "boolean"},
                "view": {"type": "string", "enum": ["summary", "full"], "default": "summary"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "by": {"type": "object"},
                "maybe": {"type": ["integer", "null"]}
            }}
        }))
        .expect("a tool")
    }

    #[test]
    fn a_property_named_args_keeps_its_option_and_the_whole_object_moves() {
        let fire = verb_of(
            "fire",
            json!({"type": "object", "required": ["target"], "properties": {
                "target": {"type": "string"}, "args": {"type": "object"}
            }}),
        );
        let names = options_as(&fire, |o| o.name.as_str());
        assert_eq!(names, ["target", "args", "all-args"]);
        assert_eq!(
            parsed(
                &fire,
                &["--target", "counter.set", "--args", r#"{"value": 5}"#]
            ),
            Ok(Request::Call(
                json!({"target": "counter.set", "args": {"value": 5}})
                    .as_object()
                    .expect("o")
                    .clone()
            ))
        );
        assert_eq!(
            parsed(&fire, &["--all-args", r#"{"target": "a.b"}"#]),
            Ok(Request::Call(
                json!({"target": "a.b"}).as_object().expect("o").clone()
            ))
        );
    }

    #[test]
    fn options_are_typed_by_the_schema() {
        let request = wait_for_call(&[
            "--selector",
            "#s",
            "--count=3",
            "--ratio",
            "0.5",
            "--visible",
            "--view",
            "full",
            "--tags",
            "a",
            "--tags",
            "b",
            "--by",
            r#"{"dy": 2}"#,
            "--maybe",
            "7",
        ]);
        assert_eq!(
            request,
            call(
                json!({"selector": "#s", "count": 3, "ratio": 0.5, "visible": true,
                "view": "full", "tags": ["a", "b"], "by": {"dy": 2}, "maybe": 7})
            )
        );
    }

    #[test]
    fn args_supplies_the_object_and_options_override_it() {
        let request = wait_for_call(&[
            "--args",
            r##"{"selector": "#a", "count": 1}"##,
            "--count",
            "2",
        ]);
        assert_eq!(request, call(json!({"selector": "#a", "count": 2})));
    }

    #[test]
    fn a_list_option_beside_args_replaces_its_list() {
        let verb = verb_of(
            "tree",
            json!({"type": "object",
            "properties": {"children": {"type": "array", "items": {"type": "object"}}}}),
        );
        assert_eq!(
            parsed(
                &verb,
                &[
                    "--args",
                    r#"{"children": [{"name": "x"}], "k": 1}"#,
                    "--children",
                    r#"{"name": "y"}"#,
                    "--children",
                    r#"{"name": "z"}"#,
                ]
            ),
            Ok(call(
                json!({"children": [{"name": "y"}, {"name": "z"}], "k": 1})
            ))
        );
    }

    /// Choices that are not text (`enum` or `const` without a `type`), and a `type`
    /// that lists several, are typed as JSON of their kinds and compared as JSON: before,
    /// they were text (the first type), so `1` was never the choice `1`.
    #[test]
    fn choices_and_type_lists_take_each_of_their_kinds() {
        let verb = verb_of(
            "mix",
            json!({"type": "object",
            "properties": {
                "any": {"enum": [1, 2.5, true, null, "x"]},
                "ints": {"type": "array", "items": {"enum": [1, 2, 3]}},
                "either": {"type": ["integer", "boolean"]},
                "maybe": {"type": "array", "items": {"type": ["integer", "null"]}},
                "meaning": {"const": 42},
                "word": {"type": "string", "const": "yes"},
                "pair": {"enum": [[1, 2], [3]]}
            }}),
        );
        for (word, sent) in [
            ("1", json!(1)),
            ("2.5", json!(2.5)),
            ("true", json!(true)),
            ("null", json!(null)),
            ("x", json!("x")),
        ] {
            assert_parses(&verb, &[(&["--any", word], Ok(json!({"any": sent})))]);
        }
        let rows: &[(&[&str], _)] = &[
            (
                &["--any", "3"],
                Err("`--any` must be `1`, `2.5`, `true`, `null` or `x`, got `3`"),
            ),
            (&["--ints", "1", "--ints", "3"], Ok(json!({"ints": [1, 3]}))),
            (
                &["--ints", "4"],
                Err("`--ints` must be `1`, `2` or `3`, got `4`"),
            ),
            (&["--either", "true"], Ok(json!({"either": true}))),
            (&["--either", "5"], Ok(json!({"either": 5}))),
            (
                &["--either", "x"],
                Err("`--either` needs an integer or `true` or `false`, got `x`"),
            ),
            (
                &["--maybe", "null", "--maybe", "2"],
                Ok(json!({"maybe": [null, 2]})),
            ),
            (&["--meaning", "42"], Ok(json!({"meaning": 42}))),
            (
                &["--meaning", "7"],
                Err("`--meaning` must be `42`, got `7`"),
            ),
            (&["--word", "no"], Err("`--word` must be `yes`, got `no`")),
        ];
        assert_parses(&verb, rows);
        let names = options_as(&verb, |o| (o.name.as_str(), o.value_name.as_str()));
        // The choices are the value's name; its help does not repeat them as a shape.
        let pair = verb.spec.options.iter().find(|o| o.name == "pair");
        assert_eq!(pair.map(|o| o.help.as_str()), Some(""));
        assert_eq!(
            names,
            [
                ("any", "1|2.5|true|null|x"),
                ("ints", "1|2|3"),
                ("either", "N|true|false"),
                ("maybe", "N"),
                ("meaning", "42"),
                ("word", "yes"),
                ("pair", "'[1,2]'|'[3]'"),
                ("args", "JSON")
            ]
        );
    }

    /// Options no one could type: `all-args` beside `args` made two `--all-args`, and
    /// `p=q` beside `p_q` (one kebab-case name, so each kept as it is) an option
    /// `--p=q`, which reads as `--p` given `q`. Every property is reachable, or the
    /// help says where it is given.
    #[test]
    fn every_property_has_an_option_of_its_own_or_is_said_to_be_in_args() {
        let verb = verb_of(
            "odd",
            json!({"type": "object",
            "required": ["p=q"], "properties": {
                "args": {"type": "string"}, "all-args": {"type": "string"},
                "p=q": {"type": "string"}, "p_q": {"type": "string"}
            }}),
        );
        let options = options_as(&verb, |o| o.name.as_str());
        assert_eq!(options, ["args", "all-args", "p_q", "all-all-args"]);
        assert!(
            verb.spec.options[3].help.ends_with(
                "; the property `\"p=q\"` (a name no option can have) is given only here"
            ),
            "{}",
            verb.spec.options[3].help
        );
        assert_eq!(
            refused(&verb, &["--all-args", "x", "--args", "y", "--p_q", "z"]),
            "missing the property `\"p=q\"`, which no option can give: `--all-all-args '{\"p=q\": …}'` does"
        );
        assert_eq!(
            parsed(
                &verb,
                &["--all-all-args", r#"{"p=q": "w"}"#, "--all-args", "x"]
            ),
            Ok(call(json!({"p=q": "w", "all-args": "x"})))
        );
    }

    /// A missing required field is named as the usage line shows it: the lone word
    /// (`wait-for <selector>`, above), else the option, when two are required and no
    /// word stands for either (review 314, 9).
    #[test]
    fn a_missing_field_no_lone_word_gives_is_named_as_an_option() {
        let verb = verb_of(
            "drag",
            json!({"type": "object", "required": ["from", "to"], "properties": {
                "from": {"type": "string"}, "to": {"type": "string"}
            }}),
        );
        assert_eq!(refused(&verb, &["--to", "#b"]), "missing option `--from`");
    }

    #[test]
    fn bad_argv_names_the_option() {
        let verb = wait_for();
        let rows: &[(&[&str], _)] = &[
            (&[][..], "missing argument `<selector>`"),
            (&["--selector"], "`--selector <S>` needs a value"),
            (
                &["--selector", "--count", "2"],
                "`--selector <S>` needs a value, and `--count` is an option (a value that begins with `--` is written `--selector=VALUE`)",
            ),
            (
                &["--selector", "--args={}"],
                "`--selector <S>` needs a value, and `--args` is an option (a value that begins with `--` is written `--selector=VALUE`)",
            ),
            (
                &["--selector", "#s", "--count", "many"],
                "`--count` needs an integer, got `many`",
            ),
            (
                &["--selector", "#s", "--view", "tiny"],
                "`--view` must be `summary` or `full`, got `tiny`",
            ),
            (
                &["--selector", "#s", "--bogus"],
                "unknown option `--bogus`; a field no option gives is sent in `--args \
                 '{\"FIELD\": …}'`, under the tool's own name for it",
            ),
            (
                &["--selectr", "#s"],
                "unknown option `--selectr`; did you mean `--selector`?",
            ),
            (
                &["--selector", "#s", "stray"],
                "`<selector>` given twice: as `stray` and as `--selector '#s'`",
            ),
            // A stray word: the option whose `enum` holds it, else the one required.
            (
                &["--selector", "#s", "full"],
                "unexpected argument `full`; did you mean `--view full`?",
            ),
            // A word for the one required text option is taken as it (below), but
            // not once the option is given, nor when it reads as something else.
            (&["#s", "#t"], "unexpected argument `#t`"),
            (
                &["full"],
                "unexpected argument `full`; did you mean `--view full`?",
            ),
            (
                &["--selector", "#s", "--by", "{"],
                "`--by` is not valid JSON: EOF while parsing an object at line 1 column 1",
            ),
            (&["--args", "[]"], "`--args` must be a JSON object"),
        ];
        assert_refusals(&verb, rows);
        assert_eq!(parsed(&verb, &["--bogus", "-h"]), Ok(Request::Help));
        // Help before values to read, between them and after them (the e2e test
        // `help_is_printed_before_any_value_is_read` sees that none is read); as an
        // option's value, `--help` is a value.
        for words in [
            ["-h", "--args", "@/no/such/file", "--selector", "@-"],
            ["--args", "@/no/such/file", "--help", "--selector", "@-"],
            ["--args", "@/no/such/file", "--selector", "@-", "--help"],
        ] {
            assert_eq!(parsed(&verb, &words), Ok(Request::Help), "{words:?}");
        }
        assert_eq!(
            parsed(&verb, &["--selector", "--help"]),
            Ok(call(json!({"selector": "--help"})))
        );
        // The one required text option also as a word, as the named verbs take it.
        assert_eq!(
            parsed(&verb, &["#s", "--count", "2"]),
            Ok(call(json!({"selector": "#s", "count": 2})))
        );
    }

    /// A host option mistyped after a derived verb's name is named as a named verb's kit
    /// names it (`--prety`: `--pretty`), where it was "unknown option `--prety`" and the
    /// usage; of a host option and one of the verb's as near, the verb's.
    #[test]
    fn a_mistyped_host_option_is_named_beside_the_verbs_own() {
        let verb = verb_of(
            "find",
            json!({"type": "object", "properties": {
                "selector": {"type": "string"}, "pretto": {"type": "string"}
            }}),
        );
        assert_refusals(
            &verb,
            &[
                (
                    &["--prety"],
                    "unknown option `--prety`; did you mean `--pretty`?",
                ),
                (
                    &["--verbos"],
                    "unknown option `--verbos`; did you mean `--verbose`?",
                ),
                (
                    &["--selectr"],
                    "unknown option `--selectr`; did you mean `--selector`?",
                ),
                // `--prett` is as like the verb's `--pretto` as the host's `--pretty`.
                (
                    &["--prett"],
                    "unknown option `--prett`; did you mean `--pretto`?",
                ),
            ],
        );
    }

    /// An option mistyped in case is named as the kits name it (`--Selector` is
    /// `--selector`, caps lock no other word), the verb's own and the host's alike, where
    /// it had no hint at all; a host option is never its own typo.
    #[test]
    fn a_mistyped_options_case_is_named_as_the_kits_name_it() {
        let verb = verb_of(
            "find",
            json!({"type": "object", "properties": {
                "selector": {"type": "string"}, "timeout": {"type": "integer"}
            }}),
        );
        assert_refusals(
            &verb,
            &[
                (
                    &["--Selector", "#x"],
                    "unknown option `--Selector`; did you mean `--selector`?",
                ),
                (
                    &["--SELECTR", "#x"],
                    "unknown option `--SELECTR`; did you mean `--selector`?",
                ),
                (
                    &["--Pretty"],
                    "unknown option `--Pretty`; did you mean `--pretty`?",
                ),
                // The field `timeout` is `--arg-timeout`, beside the host's `--timeout`.
                (
                    &["--timeout", "5"],
                    "unknown option `--timeout`; did you mean `--arg-timeout`?",
                ),
                (
                    &["--Timeout", "5"],
                    "unknown option `--Timeout`; did you mean `--timeout`?",
                ),
            ],
        );
    }

    /// A value outside the schema's `minimum`/`maximum` (exclusive too, in either draft's
    /// form) or `minLength`/`maxLength` is refused before the call, saying the range in
    /// the words an integer past JSON's range is; each value of a list alike.
    #[test]
    fn a_value_outside_the_schemas_bounds_is_refused_naming_them() {
        let verb = verb_of(
            "bounded",
            json!({"type": "object", "properties": {
                "delay": {"type": "integer", "minimum": 0, "maximum": 2000},
                "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
                "old": {"type": "number", "minimum": 0, "exclusiveMinimum": true},
                "both": {"type": "integer", "minimum": 1, "exclusiveMinimum": 5},
                "big": {"type": "integer", "maximum": 18446744073709551614u64},
                "maybe": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
                "ids": {"type": "array", "items": {"type": "integer", "maximum": 9}},
                "name": {"type": "string", "minLength": 1},
                "code": {"type": "string", "minLength": 3, "maxLength": 8},
                "one": {"type": "string", "maxLength": 1}
            }}),
        );
        let rows: &[(&[&str], _)] = &[
            (
                &["--delay", "-5"][..],
                "`--delay` is out of range: an integer from 0 to 2000, got `-5`",
            ),
            (
                &["--delay", "2001"],
                "`--delay` is out of range: an integer from 0 to 2000, got `2001`",
            ),
            (
                &["--ratio", "0"],
                "`--ratio` is out of range: a number above 0 and at most 1, got `0`",
            ),
            (
                &["--ratio", "1.5"],
                "`--ratio` is out of range: a number above 0 and at most 1, got `1.5`",
            ),
            (
                &["--old", "0"],
                "`--old` is out of range: a number above 0, got `0`",
            ),
            (
                &["--both", "5"],
                "`--both` is out of range: an integer above 5, got `5`",
            ),
            (
                &["--big", "18446744073709551615"],
                "`--big` is out of range: an integer at most 18446744073709551614, \
                 got `18446744073709551615`",
            ),
            (
                &["--maybe", "0"],
                "`--maybe` is out of range: an integer at least 1, got `0`",
            ),
            (
                &["--ids", "1", "--ids", "10"],
                "`--ids` is out of range: an integer at most 9, got `10`",
            ),
            (&["--name", ""], "`--name` must not be empty"),
            (
                &["--code", "ab"],
                "`--code` is too short: from 3 to 8 characters, got 2 characters",
            ),
            (
                &["--code", "ninechars"],
                "`--code` is too long: from 3 to 8 characters, got 9 characters",
            ),
            (
                &["--one", "éé"],
                "`--one` is too long: at most 1 character, got 2 characters",
            ),
        ];
        assert_refusals(&verb, rows);
        assert_eq!(
            parsed(
                &verb,
                &[
                    "--delay",
                    "2000",
                    "--ratio",
                    "1",
                    "--old",
                    "0.5",
                    "--both",
                    "6",
                    "--big",
                    "18446744073709551614",
                    "--maybe",
                    "null",
                    "--ids",
                    "9",
                    "--name",
                    "x",
                    "--code",
                    "abc",
                    "--one",
                    "é"
                ]
            ),
            Ok(call(json!({
                "delay": 2000, "ratio": 1, "old": 0.5, "both": 6, "big": 18446744073709551614u64,
                "maybe": null, "ids": [9], "name": "x", "code": "abc", "one": "é"
            })))
        );
        // The lone word of the one text option is held to its bounds too.
        let click = verb_of(
            "click",
            json!({"type": "object", "required": ["selector"],
                "properties": {"selector": {"type": "string", "minLength": 1}}}),
        );
        assert_eq!(refused(&click, &[""]), "`--selector` must not be empty");
    }

    /// What `--args` gives is held to the schema's choices and bounds as an option's
    /// value is, the error naming the property in `--args`, unless an option gives it
    /// instead; a list's `minItems`/`maxItems` hold however it was given.
    #[test]
    fn a_value_in_args_is_held_to_the_schema_as_an_options_is() {
        let verb = verb_of(
            "bounded",
            json!({"type": "object", "properties": {
                "delayMs": {"type": "integer", "minimum": 0, "maximum": 2000},
                "code": {"type": "string", "minLength": 3, "maxLength": 8},
                "name": {"type": "string", "minLength": 1},
                "view": {"enum": ["summary", "full"]},
                "maybe": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
                "ids": {"type": "array", "items": {"type": "integer", "maximum": 9},
                    "minItems": 2, "maxItems": 3},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1}
            }}),
        );
        let rows: &[(&[&str], _)] = &[
            (
                &["--args", r#"{"delayMs": 2001}"#][..],
                "`delayMs` in `--args` is out of range: an integer from 0 to 2000, got `2001`",
            ),
            (
                &["--args", r#"{"code": "ab"}"#],
                "`code` in `--args` is too short: from 3 to 8 characters, got 2 characters",
            ),
            (
                &["--args", r#"{"name": ""}"#],
                "`name` in `--args` must not be empty",
            ),
            (
                &["--args", r#"{"view": "ful"}"#],
                "`view` in `--args` must be `summary` or `full`, got `ful`; did you mean `full`?",
            ),
            (
                &["--args", r#"{"maybe": 0}"#],
                "`maybe` in `--args` is out of range: an integer at least 1, got `0`",
            ),
            (
                &["--args", r#"{"ids": [1, 10]}"#],
                "`ids` in `--args` is out of range: an integer at most 9, got `10`",
            ),
            (
                &["--args", r#"{"ids": [1]}"#],
                "`ids` in `--args` is too short: from 2 to 3 items, got 1 item",
            ),
            (
                &["--args", r#"{"tags": []}"#],
                "`tags` in `--args` must not be empty",
            ),
            (
                &["--ids", "1"],
                "`--ids` is too short: from 2 to 3 items, got 1 item",
            ),
            (
                &["--ids", "1", "--ids", "2", "--ids", "3", "--ids", "4"],
                "`--ids` is too long: from 2 to 3 items, got 4 items",
            ),
            // Checked after the options: a typed value is refused first.
            (
                &["--args", r#"{"delayMs": -1}"#, "--code", "ab"],
                "`--code` is too short: from 3 to 8 characters, got 2 characters",
            ),
        ];
        assert_refusals(&verb, rows);
        // An option over a value of `--args` replaces it, unchecked as it is not sent.
        assert_eq!(
            parsed(
                &verb,
                &[
                    "--args",
                    r#"{"delayMs": 5000, "ids": [10], "view": "full", "maybe": null}"#,
                    "--delay-ms",
                    "5",
                    "--ids",
                    "1",
                    "--ids",
                    "2"
                ]
            ),
            Ok(call(json!({
                "delayMs": 5, "ids": [1, 2], "view": "full", "maybe": null
            })))
        );
        let facts = verb.facts("ids").expect("facts");
        assert_eq!(
            Value::Object(facts.range),
            json!({"maximum": 9, "minItems": 2, "maxItems": 3})
        );
        // All at once (the catalog's) are each option's, for every option with any.
        let each: Vec<(String, Facts)> = verb
            .spec
            .options
            .iter()
            .filter_map(|o| Some((o.name.clone(), verb.facts(&o.name)?)))
            .collect();
        assert!(each.len() > 3, "{each:?}");
        assert_eq!(verb.all_facts(), each);
        let help = |name: &str| {
            let option = verb.spec.options.iter().find(|o| o.name == name);
            option.expect("the option").help.clone()
        };
        assert_eq!(help("ids"), "(at most 9, 2–3 items, repeatable)");
        assert_eq!(help("tags"), "(not empty, repeatable)");
    }

    /// What mur adds to an option's help is one parenthesis (`(1–10, default 3)`, was
    /// `(1–10) (default: 3)`), without a bound the description states already in
    /// numbers (server-everything's `(1-10)` was followed by mur's `(1–10)`); a required
    /// flag's says how to send false.
    #[test]
    fn what_mur_adds_to_a_help_is_one_parenthesis_without_a_stated_bound() {
        let verb = verb_of(
            "links",
            json!({"type": "object", "required": ["sure"], "properties": {
                "count": {"type": "number", "minimum": 1, "maximum": 10, "default": 3,
                    "description": "Number of resource links to return (1-10)"},
                "delay": {"type": "integer", "minimum": 0, "maximum": 2000, "default": 100,
                    "description": "ms per todo, at most 2000"},
                "offset": {"type": "integer", "minimum": -5, "maximum": 5,
                    "description": "from -5 to 5"},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3,
                    "default": [], "description": "up to 3 tags"},
                "sure": {"type": "boolean", "description": "whether"}
            }}),
        );
        assert_eq!(
            option_helps(&verb),
            [
                ("sure", "whether (required: `--sure` or `--sure=false`)"),
                (
                    "count",
                    "Number of resource links to return (1-10) (default 3)"
                ),
                ("delay", "ms per todo, at most 2000 (0–2000, default 100)"),
                ("offset", "from -5 to 5"),
                ("tags", "up to 3 tags (default [], repeatable)"),
            ]
        );
        // The rendered help says each once; the catalog's data is as it was.
        let help = verb.help();
        assert!(
            help.contains("  --tags TEXT     up to 3 tags (default [], repeatable)\n"),
            "{help}"
        );
        let facts = verb.facts("count").expect("facts");
        assert_eq!(facts.default, Some(json!(3)));
        assert_eq!(
            Value::Object(facts.range),
            json!({"minimum": 1, "maximum": 10})
        );
    }

    /// A lone word that begins with `@` is what the option makes of it (review 604, 1),
    /// unless the option would read a file or stdin for it: `echo @alice` may mean the
    /// file or the text (`--message '@alice hi'` read file `alice hi`, review 508, 2), so
    /// it is refused naming both; `echo @@alice` sends `@alice`, as `--message @@alice`
    /// does, and a selector, which reads no file, takes `@s.txt` as `--selector @s.txt`
    /// does. A file not found says how its text is sent as it is; `--args`, whose JSON
    /// never begins with `@`, says the rule alone.
    #[test]
    fn a_lone_word_that_begins_with_at_is_what_its_option_makes_of_it() {
        let echo = verb_of(
            "echo",
            json!({ "type": "object", "required": ["message"],
                "properties": { "message": { "type": "string" } } }),
        );
        let missing = "/no/such/dir/alice hi";
        let at_missing = format!("@{missing}");
        assert_refusals(
            &echo,
            &[
                (
                    &["@alice hi"][..],
                    "unexpected argument `@alice hi`: a lone word reads no file; did you mean \
                     `--message '@alice hi'` (reads file `alice hi`) or `--message '@@alice hi'` \
                     (the text `@alice hi`)?"
                        .to_owned(),
                ),
                (
                    &["@-"],
                    "unexpected argument `@-`: a lone word reads no stdin; did you mean \
                     `--message @-` (reads stdin) or `--message @@-` (the text `@-`)?"
                        .to_owned(),
                ),
                (
                    &["@"],
                    "unexpected argument `@`; did you mean `--message @@`? (`@FILE` reads a \
                     file; a value `@` is written `@@`)"
                        .to_owned(),
                ),
                (
                    &["--message", &at_missing],
                    format!(
                        "`--message`: `{missing}` cannot be read: no such file (`@FILE` reads \
                         a file; `--message '@@{missing}'` sends the text `{at_missing}`)"
                    ),
                ),
                (
                    &["--args", &at_missing],
                    format!(
                        "`--args`: `{missing}` cannot be read: no such file (`@FILE` reads a \
                         file; a value that begins with `@` is written `@@…`)"
                    ),
                ),
                (
                    &["--message", "hi", "@@x"],
                    "`<message>` given twice: as `@@x` and as `--message hi`".to_owned(),
                ),
            ],
        );
        // The lone word and the option it names send the same.
        for (lone, option) in [
            (&["@@alice hi"][..], &["--message", "@@alice hi"][..]),
            (&["@@x"], &["--message", "@@x"]),
            (&["--", "@@-"], &["--message", "@@-"]),
        ] {
            let sent = &option[1][1..];
            for words in [lone, option] {
                assert_eq!(
                    parsed(&echo, words),
                    Ok(call(json!({ "message": sent }))),
                    "{words:?}"
                );
            }
        }
        for words in [&["@s.txt"][..], &["--selector", "@s.txt"]] {
            assert_eq!(
                parsed(&wait_for(), words),
                Ok(call(json!({ "selector": "@s.txt" }))),
                "{words:?}"
            );
        }
    }

    /// An option the schema does not list is sent, where the tool takes fields it does
    /// not list, in the whole arguments object (review 604, 3): the refusal says so,
    /// naming the option that gives it (`--all-args` beside a property `args`), and
    /// says nothing of it where the schema is closed (`additionalProperties: false`).
    #[test]
    fn an_unknown_option_says_how_a_field_the_schema_does_not_list_is_sent() {
        let tool = |extra: serde_json::Value| {
            let mut schema = json!({ "type": "object",
                "properties": { "selector": { "type": "string" } } });
            schema
                .as_object_mut()
                .expect("object")
                .extend(extra.as_object().expect("object").clone());
            verb_of("find", schema)
        };
        let open = tool(json!({}));
        let refusal = refused(&open, &["--max-depth", "2"]);
        // No key is made of the word typed: the tool's field may be `maxDepth` or
        // `max_depth`, and `{"max-depth": …}` was said as the way.
        assert_eq!(
            refusal,
            "unknown option `--max-depth`; a field no option gives is sent in `--args \
             '{\"FIELD\": …}'`, under the tool's own name for it"
        );
        // What the refusal names sends the field: its line, typed as it says, FIELD the
        // tool's name for the field and `…` its value.
        let line = refusal.split('`').nth(3).expect("the line to type");
        let line = line.replace("FIELD", "maxDepth").replace('…', "2");
        let (option, value) = line.split_once(' ').expect("an option and its value");
        let value = value.strip_prefix('\'').and_then(|v| v.strip_suffix('\''));
        let value = value.expect("a value in single quotes");
        assert_eq!((option, value), ("--args", r#"{"maxDepth": 2}"#));
        assert_eq!(
            parsed(&open, &[option, value]),
            Ok(call(json!({ "maxDepth": 2 })))
        );
        let args = tool(json!({ "properties": { "args": { "type": "string" } } }));
        assert_eq!(
            refused(&args, &["--bogus"]),
            "unknown option `--bogus`; a field no option gives is sent in `--all-args \
             '{\"FIELD\": …}'`, under the tool's own name for it"
        );
        let closed = tool(json!({ "additionalProperties": false }));
        assert_eq!(refused(&closed, &["--bogus"]), "unknown option `--bogus`");
        // A near option is the likelier meaning.
        assert_eq!(
            refused(&open, &["--selectr", "x"]),
            "unknown option `--selectr`; did you mean `--selector`?"
        );
    }

    /// `--flag true|false` as two words, as agents write any option: the word is no
    /// stray to drop the usage on, nor a lone text option's value (which sent the flag's
    /// opposite), but the flag's value written inline.
    #[test]
    fn a_flags_value_as_its_own_word_is_told_to_go_inline() {
        let verb = verb_of(
            "annotated",
            json!({"type": "object", "required": ["messageType"], "properties": {
                "messageType": {"type": "string"},
                "includeImage": {"type": "boolean"},
                "strict": {"type": ["boolean", "null"]}
            }}),
        );
        let rows: &[(&[&str], _)] = &[
            (
                &["--message-type", "error", "--include-image", "false"][..],
                "unexpected argument `false`; did you mean `--include-image=false`?",
            ),
            (
                &["--include-image", "true", "--message-type", "error"],
                "unexpected argument `true`; did you mean `--include-image=true`?",
            ),
            (
                &["--message-type", "error", "--strict", "null"],
                "unexpected argument `null`; did you mean `--strict=null`?",
            ),
            // `null` is no value of a flag that admits none: a stray as before.
            (
                &["--message-type", "error", "--include-image", "null"],
                "unexpected argument `null`",
            ),
        ];
        assert_refusals(&verb, rows);
        assert_eq!(
            parsed(&verb, &["--include-image=false", "--message-type", "error"]),
            Ok(call(json!({"includeImage": false, "messageType": "error"})))
        );
        // The lone text word after a flag is still the text option's.
        assert_eq!(
            parsed(&verb, &["--include-image", "error"]),
            Ok(call(json!({"includeImage": true, "messageType": "error"})))
        );
    }

    /// The help says each option's bounds after its description, and the catalog's facts
    /// name them as JSON Schema does.
    #[test]
    fn the_schemas_bounds_show_in_the_help_and_the_facts() {
        let verb = verb_of(
            "bounded",
            json!({"type": "object", "properties": {
                "delay": {"type": "integer", "minimum": 0, "maximum": 2000, "default": 100,
                    "description": "ms per todo"},
                "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
                "old": {"type": "number", "maximum": 3, "exclusiveMaximum": true},
                "exact": {"type": "integer", "minimum": 2, "maximum": 2},
                "name": {"type": "string", "minLength": 1},
                "code": {"type": "string", "minLength": 3, "maxLength": 8},
                "short": {"type": "string", "maxLength": 1},
                "ids": {"type": "array", "items": {"type": "integer", "minimum": 1}}
            }}),
        );
        assert_eq!(
            option_helps(&verb),
            [
                ("delay", "ms per todo (0–2000, default 100)"),
                ("ratio", "(above 0, at most 1)"),
                ("old", "(below 3)"),
                ("exact", "(exactly 2)"),
                ("name", "(not empty)"),
                ("code", "(3–8 characters)"),
                ("short", "(at most 1 character)"),
                ("ids", "(at least 1, repeatable)"),
            ]
        );
        let range = |name: &str| Value::Object(verb.facts(name).expect("an option").range);
        assert_eq!(range("delay"), json!({"minimum": 0, "maximum": 2000}));
        assert_eq!(range("ratio"), json!({"exclusiveMinimum": 0, "maximum": 1}));
        assert_eq!(range("old"), json!({"exclusiveMaximum": 3}));
        assert_eq!(range("code"), json!({"minLength": 3, "maxLength": 8}));
        assert_eq!(range("ids"), json!({"minimum": 1}));
    }

    /// Bounds no value fits, or that are no numbers, are a server's slip: the option is
    /// as it would be without them (they were sent on, for the tool to judge).
    #[test]
    fn bounds_that_make_no_range_are_ignored() {
        let verb = verb_of(
            "odd",
            json!({"type": "object", "properties": {
                "crossed": {"type": "integer", "minimum": 10, "maximum": 1},
                "shut": {"type": "number", "minimum": 1, "exclusiveMaximum": 1},
                "words": {"type": "integer", "minimum": "0", "maximum": null},
                "half": {"type": "string", "minLength": 1.5, "maxLength": -1},
                "zero": {"type": "string", "minLength": 0},
                "flag": {"type": "boolean", "minimum": 1},
                "json": {"type": "object", "minLength": 1},
                "pick": {"type": "integer", "enum": [1, 50], "maximum": 10}
            }}),
        );
        assert_eq!(
            parsed(
                &verb,
                &[
                    "--crossed",
                    "5",
                    "--shut",
                    "1",
                    "--words",
                    "-1",
                    "--half",
                    "",
                    "--zero",
                    "",
                    "--flag",
                    "--json",
                    "{}",
                    "--pick",
                    "50"
                ]
            ),
            Ok(call(json!({
                "crossed": 5, "shut": 1, "words": -1, "half": "", "zero": "", "flag": true,
                "json": {}, "pick": 50
            })))
        );
        for option in verb.spec.options.iter().filter(|o| o.name != "args") {
            assert!(
                !option.help.contains('('),
                "{}: {}",
                option.name,
                option.help
            );
            if let Some(facts) = verb.facts(&option.name) {
                assert!(facts.range.is_empty(), "{}", option.name);
            }
        }
    }

    /// An integer past what JSON holds exactly is out of range, said with the range;
    /// up to `u64::MAX` it is sent as typed.
    #[test]
    fn an_integer_past_its_range_is_said_to_be_out_of_range() {
        let add = verb_of(
            "add",
            json!({"type": "object", "properties": {
                "a": {"type": "integer"},
                "ids": {"type": "array", "items": {"type": "integer"}}
            }}),
        );
        let range = "an integer from -9223372036854775808 to 18446744073709551615";
        let rows: &[(&[&str], _)] = &[
            (
                &["--a", "99999999999999999999"][..],
                format!("`--a` is out of range: {range}, got `99999999999999999999`"),
            ),
            (
                &["--a", "-9223372036854775809"],
                format!("`--a` is out of range: {range}, got `-9223372036854775809`"),
            ),
            (
                &["--ids", "1", "--ids", "18446744073709551616"],
                format!("`--ids` is out of range: {range}, got `18446744073709551616`"),
            ),
            (
                &["--a", "1e3"],
                "`--a` needs an integer, got `1e3`".to_owned(),
            ),
            (&["--a", "-"], "`--a` needs an integer, got `-`".to_owned()),
        ];
        assert_refusals(&add, rows);
        assert_eq!(
            parsed(
                &add,
                &[
                    "--a",
                    "18446744073709551615",
                    "--ids",
                    "-9223372036854775808"
                ]
            ),
            Ok(call(
                json!({"a": 18_446_744_073_709_551_615_u64, "ids": [i64::MIN]})
            ))
        );
    }

    /// An integer past what JSON holds is told the schema's bounds, as one inside it and
    /// past them is: `--delay-ms 99999999999999999999999` was told "from
    /// -9223372036854775808 to 18446744073709551615", `--delay-ms 5000` "from 0 to 2000".
    /// A bound the schema leaves open is JSON's; a list's items are held to theirs.
    #[test]
    fn an_integer_past_json_is_told_the_schemas_range() {
        let export = verb_of(
            "export",
            json!({"type": "object", "properties": {
                "delayMs": {"type": "integer", "minimum": 0, "maximum": 2000},
                "above": {"type": "integer", "exclusiveMinimum": 5},
                "ids": {"type": "array", "items": {"type": "integer", "maximum": 9}}
            }}),
        );
        let huge = "99999999999999999999999";
        let rows: &[(&[&str], _)] = &[
            (
                &["--delay-ms", huge][..],
                format!("`--delay-ms` is out of range: an integer from 0 to 2000, got `{huge}`"),
            ),
            (
                &["--delay-ms", "5000"],
                "`--delay-ms` is out of range: an integer from 0 to 2000, got `5000`".to_owned(),
            ),
            (
                &["--above", huge],
                format!(
                    "`--above` is out of range: an integer above 5 and at most \
                     18446744073709551615, got `{huge}`"
                ),
            ),
            (
                &["--ids", &format!("-{huge}")],
                format!(
                    "`--ids` is out of range: an integer from -9223372036854775808 to 9, \
                     got `-{huge}`"
                ),
            ),
        ];
        assert_refusals(&export, rows);
    }

    /// A choice's typo names the choice meant, as the verb kits' and the host's
    /// do: the nearest (`mur_core::nearest`), or one that differs only in case,
    /// however far (`ERROR`); nothing when none is near.
    #[test]
    fn a_choice_typo_names_the_choice_meant() {
        let log = verb_of(
            "log",
            json!({"type": "object", "properties": {
                "message-type": {"type": "string", "enum": ["error", "success", "debug"]},
                "level": {"type": "integer", "enum": [1, 2, 10]}
            }}),
        );
        let told = "`--message-type` must be `error`, `success` or `debug`, got";
        for (typed, meant) in [
            ("sucess", Some("success")),
            ("Error", Some("error")),
            ("ERROR", Some("error")),
            ("debgu", Some("debug")),
            ("warning", None),
        ] {
            let said = match meant {
                Some(meant) => format!("{told} `{typed}`; did you mean `{meant}`?"),
                None => format!("{told} `{typed}`"),
            };
            assert_eq!(refused(&log, &["--message-type", typed]), said);
        }
        assert_eq!(
            refused(&log, &["--level", "100"]),
            "`--level` must be `1`, `2` or `10`, got `100`; did you mean `10`?"
        );
        assert_eq!(
            refused(&log, &["--level", "3"]),
            "`--level` must be `1`, `2` or `10`, got `3`"
        );
    }

    /// The cases the three verb kits pin too (plugins/kit/tests/choices.rs,
    /// tests/tests/e2e/scaffold_python.rs and scaffold_js.rs), so that a choice's
    /// "did you mean" is one rule wherever a verb comes from: the case rule (`FULL`,
    /// `Error`), `mur_core::nearest` (`sucess`), and nothing for a word Jaro alone
    /// finds near (`fl`, `cntr`) or one far from every choice.
    #[test]
    fn a_choice_is_meant_as_the_verb_kits_mean_it() {
        let verb = verb_of(
            "pick",
            json!({"type": "object", "properties": {
                "view": {"type": "string", "enum": ["summary", "full"]},
                "status": {"type": "string", "enum": ["success", "error"]},
                "component": {"type": "string", "enum": ["counter", "todo"]}
            }}),
        );
        for (option, word, meant) in CHOICE_CASES {
            let said = choice_refusal(option, word, meant);
            let option = format!("--{option}");
            assert_eq!(refused(&verb, &[&option, word]), said);
        }
    }

    /// `enumNames` (titles for people, one per `enum` value) never change what is sent:
    /// a choice is typed and sent as its value, so names swapped against the values
    /// (each name another value) cannot make a verb send the value it did not name.
    /// Its help and completion offer the values alone; as does a `oneOf` of titled
    /// `const`s, whose typed word is sent as it is.
    #[test]
    fn a_choice_is_its_value_whatever_enum_names_say() {
        let pick = verb_of(
            "pick",
            json!({"type": "object", "properties": {
                "pet": {"type": "string", "enum": ["cat", "dog"], "enumNames": ["dog", "cat"]},
                "size": {"type": "string", "oneOf": [
                    {"const": "s", "title": "l"}, {"const": "l", "title": "s"}
                ]}
            }}),
        );
        for (typed, sent) in [("cat", "cat"), ("dog", "dog")] {
            assert_eq!(
                parsed(&pick, &["--pet", typed]),
                Ok(call(json!({"pet": sent})))
            );
        }
        assert_eq!(
            parsed(&pick, &["--size", "l"]),
            Ok(call(json!({"size": "l"})))
        );
        assert_eq!(
            refused(&pick, &["--pet", "Cat"]),
            "`--pet` must be `cat` or `dog`, got `Cat`; did you mean `cat`?"
        );
        let pet = pick.spec.option("pet").expect("--pet");
        assert_eq!(
            (pet.value_name.as_str(), &pet.choices[..]),
            ("cat|dog", &["cat".to_owned(), "dog".to_owned()][..])
        );
    }

    /// The cases the verb kit's lone word agrees on (plugins/kit/src/tests.rs,
    /// `a_second_form_of_an_argument_is_read_as_it_and_declared`), with its messages.
    #[test]
    fn a_lone_word_is_taken_as_the_kit_takes_it() {
        let verb = wait_for();
        let rows: &[(&[&str], _)] = &[
            // A choice's word is the choice's.
            (
                &["full"][..],
                "unexpected argument `full`; did you mean `--view full`?",
            ),
            // A second word is one too many.
            (&["#s", "#t"], "unexpected argument `#t`"),
            (
                &["#s", "full"],
                "unexpected argument `full`; did you mean `--view full`?",
            ),
            // A word that reads as an option or stdin is never the option's.
            (
                &["-"],
                "unexpected argument `-`; did you mean `--selector -`?",
            ),
            (
                &["--", "-x"],
                "unexpected argument `-x`; did you mean `--selector -x`?",
            ),
            // Beside the option itself, in either order, the argument is given twice, as
            // the kits say it; a word the option would not take stays unexpected.
            (
                &["#s", "--selector", "#t"],
                "`<selector>` given twice: as `#s` and as `--selector '#t'`",
            ),
            (
                &["--selector", "#t", "#s"],
                "`<selector>` given twice: as `#s` and as `--selector '#t'`",
            ),
            (
                &["--selector=#t", "#s"],
                "`<selector>` given twice: as `#s` and as `--selector '#t'`",
            ),
            (&["--selector", "#t", "-"], "unexpected argument `-`"),
        ];
        assert_refusals(&verb, rows);
        assert_eq!(
            parsed(&verb, &["#s", "--view", "full"]),
            Ok(call(json!({"selector": "#s", "view": "full"})))
        );
    }

    /// `--` ends the options, and after it every word is a word, as in the kits: the
    /// lone word lands (`echo -- hello` was refused, `did you mean `--message
    /// hello`?`), `--help` too is that word's text; one that reads as an option is
    /// refused, as before `--`, with a suggestion that parses (`--message=--message`,
    /// not `--message --message`); and where the verb takes no lone word, the
    /// refusal says how a value that begins with `-` is given.
    #[test]
    fn after_double_dash_a_word_is_the_lone_word_or_told_how_to_be_given() {
        let echo = verb_of(
            "echo",
            json!({"type": "object", "required": ["message"],
                   "properties": {"message": {"type": "string"}}}),
        );
        let message = |text: &str| Ok(call(json!({ "message": text })));
        assert_eq!(parsed(&echo, &["--", "hello"]), message("hello"));
        assert_eq!(parsed(&echo, &["hello", "--"]), message("hello"));
        for (words, refusal, meant, sent) in [
            (
                &["--", "--message"][..],
                "unexpected argument `--message`; did you mean `--message=--message`?",
                &["--message=--message"][..],
                "--message",
            ),
            (
                &["--", "--help"],
                "unexpected argument `--help`; did you mean `--message=--help`?",
                &["--message=--help"],
                "--help",
            ),
            (
                &["--", "-x"],
                "unexpected argument `-x`; did you mean `--message -x`?",
                &["--message", "-x"],
                "-x",
            ),
            (
                &["--", "--a b"],
                "unexpected argument `--a b`; did you mean `--message='--a b'`?",
                &["--message=--a b"],
                "--a b",
            ),
        ] {
            assert_eq!(refused(&echo, words), refusal, "{words:?}");
            assert_eq!(parsed(&echo, meant), message(sent), "{meant:?}");
        }
        // A word past the lone one is one too many, as before `--`; beside the option
        // given, the argument is given twice.
        assert_eq!(refused(&echo, &["--", "a", "b"]), "unexpected argument `b`");
        assert_eq!(
            refused(&echo, &["--message", "a", "--", "b"]),
            "`<message>` given twice: as `b` and as `--message a`"
        );
        let typing = verb_of(
            "type",
            json!({"type": "object", "required": ["selector", "text"], "properties": {
                "selector": {"type": "string"}, "text": {"type": "string"}}}),
        );
        let told = |word: &str| {
            format!(
                "unexpected argument `{word}`: every value is an option's, after `--` too \
                 (a value that begins with `-` is written `--OPTION=VALUE`)"
            )
        };
        for word in ["-5", "hello"] {
            let words = ["--selector", "#x", "--", word];
            assert_eq!(refused(&typing, &words), told(word), "{words:?}");
        }
        assert_eq!(
            parsed(&typing, &["--selector", "#x", "--text=-5"]),
            Ok(call(json!({"selector": "#x", "text": "-5"})))
        );
        // Before `--`, a stray word is told as it was.
        assert_eq!(
            refused(&typing, &["--selector", "#x", "hello"]),
            "unexpected argument `hello`"
        );
    }

    #[test]
    fn at_file_is_a_text_or_json_value_read_from_the_file_and_at_at_a_literal_at() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let file = |name: &str, text: &str| {
            let path = tmp.path().join(name);
            std::fs::write(&path, text).expect("write");
            path.to_str().expect("utf-8").to_owned()
        };
        let text = file("text", "#a\n");
        let by = file("by.json", r#"{"dy": 2}"#);
        let whole = file("args.json", r##"{"selector": "#w", "count": 1}"##);
        let verb = wait_for();
        let at = |path: &str| format!("@{path}");
        let parse = |words: &[&str]| parsed(&verb, words);
        assert_eq!(
            parse(&[
                "--selector",
                &at(&text),
                "--by",
                &at(&by),
                "--tags",
                &at(&text)
            ]),
            Ok(call(
                json!({"selector": at(&text), "by": {"dy": 2}, "tags": ["#a\n"]})
            ))
        );
        // The whole object from a file, the options over it; `@@` is a value's `@`,
        // but a selector's, which reads no file: it is sent as typed.
        assert_eq!(
            parse(&[&format!("--args={}", at(&whole)), "--tags", "@@home"]),
            Ok(call(
                json!({"selector": "#w", "count": 1, "tags": ["@home"]})
            ))
        );
        assert_eq!(
            parse(&["--selector", "@@home"]),
            Ok(call(json!({"selector": "@@home"})))
        );
        // Not a text or JSON option: `@` is no file there.
        assert_eq!(
            parse(&["--selector", "s", "--count", &at(&text)]),
            Err(format!("`--count` needs an integer, got `@{text}`"))
        );
        let missing = tmp.path().join("nope");
        let missing = missing.to_str().expect("utf-8");
        assert_eq!(
            parse(&["--selector", "s", "--tags", &at(missing)]),
            Err(format!(
                "`--tags`: `{missing}` cannot be read: no such file \
                 (`@FILE` reads a file; `--tags @@{missing}` sends the text `@{missing}`)"
            ))
        );
        assert_eq!(
            parse(&["--selector", "s", "--tags", "@"]),
            Err(
                "`--tags`: `@` names no file (`@FILE` reads one; a value `@` is written `@@`)"
                    .to_owned()
            )
        );
        let bad = file("bad.json", "{");
        assert_eq!(
            parse(&["--selector", "s", "--by", &at(&bad)]),
            Err(format!(
                "`--by @{bad}` is not valid JSON: EOF while parsing an object at line 1 column 1"
            ))
        );
        assert_eq!(
            parse(&["--args", &at(&text)]),
            Err(format!(
                "`--args @{text}` is not valid JSON: expected value at line 1 column 1"
            ))
        );
        let dir = tmp.path().to_str().expect("utf-8");
        assert_eq!(
            parse(&["--selector", "s", "--tags", &at(dir)]),
            Err(format!(
                "`--tags`: `{dir}` is a directory, not a regular file"
            ))
        );
    }

    #[test]
    fn stdin_is_the_value_of_one_option_only() {
        let mut stdin = StdinUse::default();
        assert_eq!(stdin.take(Source::Typed("-"), "a"), Ok(()));
        assert_eq!(stdin.take(Source::File("x"), "a"), Ok(()));
        assert_eq!(stdin.take(Source::Stdin, "args"), Ok(()));
        assert_eq!(
            stdin.take(Source::Stdin, "text"),
            Err(
                "`--text` reads stdin, which `--args` reads already: stdin can be read once \
                 (give one of them `@FILE`)"
                    .to_owned()
            )
        );
        assert_eq!(Source::of_whole("-"), Source::Stdin);
        assert_eq!(Source::of_value("-"), Source::Typed("-"));
        assert_eq!(Source::of_value("@-"), Source::Stdin);
        assert_eq!(Source::of_value("@@-"), Source::Typed("@-"));
        assert_eq!(Source::of_whole("-1"), Source::Typed("-1"));
    }

    #[test]
    fn a_stray_word_is_pointed_only_at_an_option_that_would_take_it() {
        let export = verb_of(
            "exportTodos",
            json!({"type": "object", "properties": {"delayMs": {"type": "integer"}}}),
        );
        assert_eq!(
            refused(&export, &["250"]),
            "unexpected argument `250`; did you mean `--delay-ms 250`?"
        );
        assert_eq!(refused(&export, &["json"]), "unexpected argument `json`");
    }

    /// A tool's `selector` and `window` are a selector and a name, as the standard
    /// verbs' `--selector S` and `--window W` are (the verb kit's `Opt::selector`
    /// and `Opt::window`): `catalog --json` gives one tool's option one kind in its
    /// named verb and its derived verb. They still read `@FILE`, as text does.
    #[test]
    fn a_selector_and_a_window_are_of_the_standard_verbs_kinds() {
        let verb = verb_of(
            "scroll",
            json!({"type": "object", "properties": {
                "selector": {"type": "string"},
                "window": {"type": "string"},
                "note": {"type": "string"}
            }}),
        );
        let kinds = options_as(&verb, |o| (o.name.as_str(), o.kind, o.value_name.as_str()));
        assert_eq!(
            kinds[..3],
            [
                ("selector", ValueKind::Selector, "S"),
                ("window", ValueKind::Name, "W"),
                ("note", ValueKind::Text, "TEXT"),
            ]
        );
        let point = verb_of(
            "point",
            json!({"type": "object", "properties": {"selector": {"type": "string"}}}),
        );
        // Shown as `S`, not `TEXT`, it reads no `@FILE` (as the standard verbs' does
        // not), and the help says nothing of `@FILE` where no option reads one.
        let help = point.help();
        assert!(!help.contains("value `@FILE` is"), "{help}");
        assert_eq!(
            parsed(&point, &["--selector", "@sel.txt"]),
            Ok(call(json!({"selector": "@sel.txt"})))
        );
    }

    #[test]
    fn help_shows_the_description_annotations_defaults_and_required() {
        let verb = wait_for();
        let help = verb.spec.render(&verb.name, &verb.summary);
        assert!(
            help.starts_with(
                "Usage: mur devtools wait-for <selector> [--count N] [--ratio NUMBER] [--visible]"
            ),
            "{help}"
        );
        for said in [
            "\nWait until an element matches\n",
            "Tool `waitFor`: read-only, idempotent.",
            "--view summary|full  (default \"summary\")",
            "\nArguments:\n  <selector>  the elements (required)\n",
            "--selector S         the same as `<selector>`",
            "--tags TEXT",
        ] {
            assert!(help.contains(said), "{said:?} in {help}");
        }
    }

    /// The options come as the tool's author wrote its properties, the required ones
    /// first: not by name (a sorted map once showed `--alpha` before `--zeta`).
    #[test]
    fn options_keep_the_schemas_order_the_required_first() {
        let verb = verb_of(
            "book",
            json!({"type": "object", "required": ["when"], "properties": {
                "zeta": {"type": "string"},
                "when": {"type": "string"},
                "alpha": {"type": "integer"}
            }}),
        );
        let help = verb.help();
        let usage = "Usage: mur devtools book <when> [--zeta TEXT] [--alpha N] [--args JSON]\n";
        assert!(help.starts_with(usage), "{help}");
    }

    /// A derived verb's help keeps to the standard verbs' width: prose broken between
    /// words, an option's help under its column, the usage line and examples whole.
    #[test]
    fn help_is_wrapped_as_the_standard_verbs_help_is() {
        let long = "a word ".repeat(20);
        let verb = verb_of(
            "find",
            json!({"type": "object", "required": ["selector"], "properties": {
                "selector": {"type": "string", "description": long.trim()},
                "window": {"type": "string"},
                "an-option-whose-name-runs-past-the-column-of-every-other": {
                    "type": "string", "description": long.trim()
                }
            }}),
        );
        let verb = Derived {
            summary: format!("Find {long}"),
            spec: VerbSpec {
                details: format!("{}\n\n  - {long}", "x".repeat(90)),
                ..verb.spec
            },
            ..verb
        };
        let help = verb.help();
        let usage = "Usage: mur devtools find <selector> [--window W] [--an-option-whose-name-runs-past-the-column-of-every-other TEXT] [--args JSON]\n";
        assert!(help.starts_with(usage), "{help}");
        for expected in [
            "\nFind a word a word a word a word a word a word a word a word a word a word a\nword a word",
            // A word longer than a line stands alone; an indented line keeps its indent.
            &format!("\n{}\n\n  - a word a word", "x".repeat(90)),
            "\n  <selector>  a word a word a word a word a word a word a word a word a word a\n              word a word",
            "\n  --an-option-whose-name-runs-past-the-column-of-every-other TEXT  a word a word\n      a word a word a word",
            "\n  --window W",
        ] {
            assert!(help.contains(expected), "{expected:?} in\n{help}");
        }
        let wide = help
            .lines()
            .filter(|line| line.chars().count() > HELP_COLUMNS)
            .collect::<Vec<_>>();
        assert_eq!(wide, [usage.trim_end(), &"x".repeat(90)], "{help}");
    }

    #[test]
    fn objects_of_a_list_come_one_a_use_or_all_at_once() {
        let draw = verb_of(
            "draw",
            json!({"type": "object", "properties": {
                "points": {"type": "array", "items": {"type": "object"}},
                "rows": {"type": "array", "items": {"type": "array"}}
            }}),
        );
        let sent = |words: &[&str]| match parsed(&draw, words) {
            Ok(Request::Call(arguments)) => Value::Object(arguments),
            other => panic!("{words:?}: {other:?}"),
        };
        let both = json!({"points": [{"x": 1}, {"x": 2}]});
        assert_eq!(sent(&["--points", r#"[{"x":1},{"x":2}]"#]), both);
        assert_eq!(
            sent(&["--points", r#"{"x":1}"#, "--points", r#"{"x":2}"#]),
            both
        );
        // An item that is itself a list stays one item.
        assert_eq!(sent(&["--rows", "[1,2]"]), json!({"rows": [[1, 2]]}));
    }

    #[test]
    fn a_flag_on_by_default_says_how_to_turn_it_off() {
        let list = verb_of(
            "list",
            json!({"type": "object", "properties": {
                "closed": {"type": "boolean", "description": "include closed ones", "default": true},
                "deep": {"type": "boolean", "default": false}
            }}),
        );
        let help = |option: &str| list.spec.option(option).map(|o| o.help.as_str());
        assert_eq!(
            help("closed"),
            Some("include closed ones (default true; `--closed=false` turns it off)")
        );
        assert_eq!(help("deep"), Some("(default false)"));
        assert_eq!(
            parsed(&list, &["--closed=false"]),
            Ok(Request::Call(
                json!({"closed": false})
                    .as_object()
                    .cloned()
                    .expect("object")
            ))
        );
    }

    #[test]
    fn a_derived_verb_takes_out_file_unless_its_tool_has_an_out_of_its_own() {
        let tool = |properties: Value| json!({ "name": "shot", "inputSchema": { "properties": properties } });
        let tools = [tool(json!({ "window": { "type": "string" } }))];
        let (verb, _) = Derived::pick(&tools, "shot").expect("verb");
        assert_eq!(
            verb.take_out(&argv(&["--window", "main", "--out", "a.png"])),
            Ok((argv(&["--window", "main"]), Some("a.png".to_owned())))
        );
        assert_eq!(
            verb.take_out(&argv(&["--out=a.png", "--", "--out", "b"])),
            Ok((argv(&["--", "--out", "b"]), Some("a.png".to_owned())))
        );
        for (typed, said) in [
            (
                &["--out", "a", "--out", "b"][..],
                "the argument `--out <FILE>` cannot be used multiple times",
            ),
            (
                &["--out="],
                "`--out <FILE>` needs a value (it was given empty)",
            ),
            (
                &["--out", "--window"],
                "`--out <FILE>` needs a value, and `--window` is an option (a value that \
                 begins with `--` is written `--out=VALUE`)",
            ),
        ] {
            assert_eq!(
                verb.take_out(&argv(typed)),
                Err(said.to_owned()),
                "{typed:?}"
            );
        }
        // Said in its help, not among the options every usage line shows.
        assert!(
            verb.help()
                .contains("\nIf the result holds images, audio or blobs, `--out FILE`")
        );
        assert!(verb.spec.options.iter().all(|o| o.name != "out"));
        // The tool's own `out`: its option, not mur's.
        let own = [tool(json!({ "out": { "type": "string" } }))];
        let (verb, _) = Derived::pick(&own, "shot").expect("verb");
        assert_eq!(
            verb.take_out(&argv(&["--out", "x"])),
            Ok((argv(&["--out", "x"]), None))
        );
        assert_eq!(
            parsed(&verb, &["--out", "x"]),
            Ok(call(json!({ "out": "x" })))
        );
        // A data verb's parser has none.
        let data = Derived::from_tool(&tools[0]).expect("parser");
        assert_eq!(
            data.take_out(&argv(&["--out", "x"])),
            Ok((argv(&["--out", "x"]), None))
        );
        assert!(!data.help().contains("--out"));
    }
}
