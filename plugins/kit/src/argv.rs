//! Argv parsing: a verb declares its positionals and options as a [`Spec`], and
//! [`Args::parse`] checks the words the user typed against it.
//!
//! Everything a user can get wrong is reported here as a one-line message, so a
//! verb's own code only ever sees argv that has the declared shape.

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::nearest::choice_meant;

/// What kind of word an option's value (or a positional) is, and where it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An option without a value; sent as `true` when given.
    Flag,
    /// An option without a value that the verb reads itself ([`Args::flag`], in its own
    /// [`Verb::arguments`](crate::Verb::arguments) or [`Verb::shape`](crate::Verb::shape));
    /// never sent: a display switch such as `--brief`, which a strict tool would refuse
    /// as an unknown argument. Declared to the host as a flag. See [`Opt::local_flag`].
    LocalFlag,
    /// Any text, possibly empty; sent as a string.
    Text,
    /// A selector: text that must not be empty; sent as a string.
    Selector,
    /// A name (of a component, window, event…): text that must not be empty; sent as a string.
    Name,
    /// One of a fixed set of words; sent as a string.
    Choice(&'static [&'static str]),
    /// A non-negative integer; sent as a number.
    Count,
    /// Any integer JSON holds exactly, -2^63 to 2^64-1, read as mur reads one (ASCII
    /// digits after at most one sign: `-12`, `+7`; not `1_000`, `0x10` or `1e3`); sent
    /// as a JSON number, exactly. The Python and JavaScript kits' kind `integer`.
    Integer,
    /// Any number, read as mur reads one (ASCII digits after at most one sign, with a
    /// point and an exponent: `-1.5e3`; not `1_000`, `0x10`, `NaN` or `inf`), finite;
    /// sent as a JSON number: an integer as typed (`2`), else a float (`2.0`, `1e3`).
    /// The Python and JavaScript kits' kind `number`.
    Number,
    /// A JSON value; sent parsed (an option's value and a positional's alike).
    Json,
    /// A file path the verb writes, or `-` for stdout; never sent. A path given is
    /// declared to the host as one the verb writes, checked before the call.
    OutPath,
    /// A positive number of milliseconds, read as mur reads its own `--timeout`
    /// (`+900` and ` 900 ` are 900); never sent.
    Millis,
    /// A value the verb reads itself and turns into arguments in its own
    /// [`Verb::arguments`](crate::Verb::arguments); never sent as is.
    Local,
}

impl Kind {
    /// Whether a value of this kind is a word of the app's (text, a selector, a name,
    /// a choice, a number): what a stray word on the command line may have been meant as.
    fn names_a_thing(self) -> bool {
        matches!(
            self,
            Kind::Text
                | Kind::Selector
                | Kind::Name
                | Kind::Choice(_)
                | Kind::Count
                | Kind::Integer
                | Kind::Number
        )
    }
}

/// An option, written `--name` (with `value` when it takes one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opt {
    /// The option's name without the leading `--`; its JSON key is the name in camelCase.
    pub name: &'static str,
    /// The placeholder shown in the usage for the option's value; empty for flags.
    pub value: &'static str,
    pub kind: Kind,
    /// One line for the usage.
    pub help: &'static str,
    /// Whether it may also be given as a lone word, without `--name`, where that
    /// word can be meant for no other option (see [`Opt::or_word`]).
    pub word: bool,
    /// The bounds of a [`Kind::Integer`], [`Kind::Count`] or [`Kind::Number`] value
    /// (see [`Opt::within`]).
    pub bounds: Bounds,
}

impl Opt {
    /// An option without a value, sent as `true`.
    pub const fn flag(name: &'static str, help: &'static str) -> Self {
        Self::value(name, "", Kind::Flag, help)
    }

    /// An option without a value that is never sent ([`Kind::LocalFlag`]): the verb
    /// reads it with [`Args::flag`].
    pub const fn local_flag(name: &'static str, help: &'static str) -> Self {
        Self::value(name, "", Kind::LocalFlag, help)
    }

    /// An option taking a value of `kind`; `value` is its placeholder in the usage.
    pub const fn value(
        name: &'static str,
        value: &'static str,
        kind: Kind,
        help: &'static str,
    ) -> Self {
        Opt {
            name,
            value,
            kind,
            help,
            word: false,
            bounds: Bounds::NONE,
        }
    }

    /// This option, its value held to `bounds` ([`Bounds`]).
    pub const fn within(self, bounds: Bounds) -> Self {
        Opt { bounds, ..self }
    }

    /// This option, also taken as a lone word: `state '#count'` for `state --selector
    /// '#count'`. Only for a verb without positionals, only when the option is not
    /// given already, and only for the word a usage error would otherwise answer with
    /// "did you mean `--name WORD`?" (one its option would take, and no other option
    /// could be meant for: `tree '#count'` is `--selector`, but `tree main` may be
    /// `--window`, and stays refused). Declared to the host as an optional positional
    /// `[<name>]`, so its help and completion show it. Given both ways (`state '#a'
    /// --selector '#b'`), it is refused as given twice, as [`Pos::or_option`]'s is.
    pub const fn or_word(self) -> Self {
        Opt { word: true, ..self }
    }

    /// `--selector S`: the option of the verbs that can narrow to what a selector matches.
    pub const fn selector(help: &'static str) -> Self {
        Self::value("selector", "S", Kind::Selector, help)
    }

    /// `--window W`: the option of the verbs that work on one window.
    pub const fn window(help: &'static str) -> Self {
        Self::value("window", "W", Kind::Name, help)
    }

    pub(crate) fn takes_value(&self) -> bool {
        !matches!(self.kind, Kind::Flag | Kind::LocalFlag)
    }

    /// The option as mur's host names one of its own in an error (`--timeout <MS>`,
    /// `--pretty`), so that a mistake typed after the verb's name reads as it does
    /// before it.
    fn usage(&self) -> String {
        if self.takes_value() {
            format!("--{} <{}>", self.name, self.value)
        } else {
            format!("--{}", self.name)
        }
    }
}

/// A required positional argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    /// The name shown in the usage and in errors, as `<name>`.
    pub name: &'static str,
    /// The JSON key it is sent under.
    pub key: &'static str,
    /// [`Kind::Selector`] or [`Kind::Name`] (not empty), [`Kind::Text`] (anything), or
    /// another value's kind, to which its word is held and by which it is sent, as its
    /// option form's value is (a [`Kind::Choice`]'s word is one of its choices).
    pub kind: Kind,
    pub help: &'static str,
    /// The placeholder of `--name VALUE`, which may give it instead of its word (see
    /// [`Pos::or_option`]); empty: only as a word.
    pub option: &'static str,
    /// The bounds of a [`Kind::Integer`], [`Kind::Count`] or [`Kind::Number`] word
    /// (see [`Pos::within`]).
    pub bounds: Bounds,
}

impl Pos {
    pub const fn new(
        name: &'static str,
        key: &'static str,
        kind: Kind,
        help: &'static str,
    ) -> Self {
        Pos {
            name,
            key,
            kind,
            help,
            option: "",
            bounds: Bounds::NONE,
        }
    }

    /// This positional, its word held to `bounds` ([`Bounds`]).
    pub const fn within(self, bounds: Bounds) -> Self {
        Pos { bounds, ..self }
    }

    /// This positional, also taken as the option `--name VALUE` (`value` is its
    /// placeholder): `click --selector '#btn-inc'` for `click '#btn-inc'`, the form a
    /// verb whose selector is an option takes. Given both ways, it is refused as given
    /// twice. Declared to the host as an option too, so its help and completion show it.
    pub const fn or_option(self, value: &'static str) -> Self {
        Pos {
            option: value,
            ..self
        }
    }

    /// `<selector>`, sent as `selector`: the element a verb works on.
    pub const fn selector(help: &'static str) -> Self {
        Self::new("selector", "selector", Kind::Selector, help)
    }
}

/// The bounds a number is held to, as a tool's schema sets them (`minimum`, `maximum`,
/// `exclusiveMinimum`, `exclusiveMaximum`): `Bounds::NONE.at_least("1").at_most("100")`.
/// Each end is written as JSON writes the number (`"0"`, `"0.5"`), so that a value past
/// it is refused in a derived verb's very words: "`--delay` is out of range: an integer
/// from 0 to 2000, got `-5`". An end that is no number ([`Spec::unusable`]) holds nothing.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    pub low: Option<End>,
    pub high: Option<End>,
    /// The checks, set by the methods that set an end and reached only through them:
    /// a verb that declares no bounds (each verb is a component of its own) links none
    /// of their code, which was 4 to 9 KB of each standard verb.
    checks: Option<Checks>,
}

/// [`Bounds::check`] and [`Args::check_whole_bounds`], as [`Bounds`] holds them.
#[derive(Debug, Clone, Copy)]
struct Checks {
    word: fn(&Bounds, Kind, &str, &str) -> Result<(), String>,
    whole: fn(&Args, &Spec) -> Result<(), String>,
}

impl PartialEq for Bounds {
    fn eq(&self, other: &Self) -> bool {
        (self.low, self.high) == (other.low, other.high)
    }
}

impl Eq for Bounds {}

/// What each method that sets an end of [`Bounds`] sets them to check with.
const CHECKS: Option<Checks> = Some(Checks {
    word: Bounds::check,
    whole: Args::check_whole_bounds,
});

/// One end of [`Bounds`]: the number, and whether a value equal to it is out (`open`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct End {
    pub at: &'static str,
    pub open: bool,
}

impl Bounds {
    /// No bounds: any value of the kind.
    pub const NONE: Bounds = Bounds {
        low: None,
        high: None,
        checks: None,
    };

    /// `at` or more (`minimum`).
    pub const fn at_least(self, at: &'static str) -> Self {
        self.with_low(End { at, open: false })
    }

    /// More than `at` (`exclusiveMinimum`).
    pub const fn above(self, at: &'static str) -> Self {
        self.with_low(End { at, open: true })
    }

    /// `at` or less (`maximum`).
    pub const fn at_most(self, at: &'static str) -> Self {
        self.with_high(End { at, open: false })
    }

    /// Less than `at` (`exclusiveMaximum`).
    pub const fn below(self, at: &'static str) -> Self {
        self.with_high(End { at, open: true })
    }

    /// These bounds with `low` as their low end, and the checks that hold a value to them.
    const fn with_low(self, low: End) -> Self {
        Bounds {
            low: Some(low),
            checks: CHECKS,
            ..self
        }
    }

    /// These bounds with `high` as their high end, and the checks that hold a value to them.
    const fn with_high(self, high: End) -> Self {
        Bounds {
            high: Some(high),
            checks: CHECKS,
            ..self
        }
    }

    /// Each end that is no number as mur reads one (`1_000`), for [`Spec::unusable`].
    fn unreadable(&self) -> Option<&'static str> {
        [self.low, self.high]
            .into_iter()
            .flatten()
            .map(|end| end.at)
            .find(|at| number(at).is_err())
    }

    /// `word`, of `kind`, held to these bounds, or why not in a derived verb's words,
    /// naming it `shown`: a number its kind takes, or an integer past it (a count's
    /// `-1`, an integer past JSON's), told the range within these (a count's from 0).
    fn check(&self, kind: Kind, shown: &str, word: &str) -> Result<(), String> {
        let what = match kind {
            Kind::Count | Kind::Integer => "an integer",
            Kind::Number => "a number",
            _ => return Ok(()),
        };
        let end = |at| Some(End { at, open: false });
        let floor = if kind == Kind::Count { end("0") } else { None };
        let low = self.low.or(floor);
        let value = match kind {
            Kind::Number => number(word).ok(),
            _ => integer(word),
        };
        let Some(Value::Number(n)) = value else {
            // An integer past JSON's: the range of those JSON holds, within these.
            let low = low.or(end("-9223372036854775808"));
            let high = self.high.or(end("18446744073709551615"));
            return Err(out_of_range(shown, what, low, high, word));
        };
        use std::cmp::Ordering::{Equal, Greater, Less};
        let past = |end: Option<End>, outward| {
            let order = end.and_then(|end| match number(end.at) {
                Ok(Value::Number(at)) => Some((end.open, compare(&n, &at)?)),
                _ => None,
            });
            matches!(order, Some((open, order)) if order == outward || (open && order == Equal))
        };
        match past(low, Less) || past(self.high, Greater) {
            true => Err(out_of_range(shown, what, low, self.high, &n.to_string())),
            false => Ok(()),
        }
    }
}

/// "`--delay` is out of range: an integer from 0 to 2000, got `-5`": a derived verb's
/// words for a value past its schema's bounds (`what`: `an integer`, `a number`).
fn out_of_range(shown: &str, what: &str, low: Option<End>, high: Option<End>, got: &str) -> String {
    let words = match (low, high) {
        (Some(low), Some(high)) if !low.open && !high.open => match low.at == high.at {
            true => format!("exactly {}", low.at),
            false => format!("from {} to {}", low.at, high.at),
        },
        _ => {
            let low =
                low.map(|e| format!("{} {}", if e.open { "above" } else { "at least" }, e.at));
            let high =
                high.map(|e| format!("{} {}", if e.open { "below" } else { "at most" }, e.at));
            let ends: Vec<String> = low.into_iter().chain(high).collect();
            ends.join(" and ")
        }
    };
    format!("{shown} is out of range: {what} {words}, got `{got}`")
}

/// Two JSON numbers compared exactly where both are integers (`u64::MAX` and
/// `u64::MAX - 1` are two, as `f64`s one), else as `f64`s: as a derived verb compares.
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

/// The argv a verb accepts.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub positionals: &'static [Pos],
    pub options: &'static [Opt],
    /// Groups of options of which at most one may be given.
    pub exclusive: &'static [&'static [&'static str]],
}

impl Spec {
    /// A verb that takes no arguments (beyond `--timeout` and `--help`); also
    /// what a spec leaves out: `Spec { options: &[…], ..Spec::NONE }`.
    pub const NONE: Spec = Spec {
        positionals: &[],
        options: &[],
        exclusive: &[],
    };

    /// What this spec declares that a command line could not use or the kit refuses,
    /// if anything, saying whose rule it breaks. `mur devtools verbs add` refuses an
    /// option name that is not [`usable_name`] (empty, `--clear` with its dashes, `a
    /// b`, `x=1`), a positional with no name (only spaces), two positionals or two
    /// options of one name, and an option `help` (the host's `-h, --help`). The kit
    /// refuses more, as its own rules, which `verbs add` would let through: a
    /// positional name that starts with `-` or holds a space (shown as `<name>`, it
    /// would read as an option or as two words in a usage line; `component>.<event`
    /// is fine), an option `timeout` (the kit's own `--timeout MS`, declared for
    /// every verb), and an [`exclusive`](Self::exclusive) group naming an option not
    /// declared. The kit's [`testing`](crate::testing) helpers check it first, so a
    /// verb's `cargo test` says so.
    pub fn unusable(&self) -> Option<String> {
        let named = |name: &str| match name.is_empty() {
            true => "with an empty name".to_owned(),
            false => format!("named `{name}`"),
        };
        let host = |why: String| Some(format!("{why}; `mur devtools verbs add` would refuse it"));
        for (at, pos) in self.positionals.iter().enumerate() {
            let name = pos.name;
            if name.trim().is_empty() {
                return host("a positional with no name for its usage to show".to_owned());
            }
            if name.starts_with('-') || name.contains(char::is_whitespace) {
                return Some(format!(
                    "positional {}, which the kit refuses (`mur devtools verbs add` would \
                     not): shown as `<{name}>`, it reads as an option or as two words in a \
                     usage line; a positional's name does not start with `-` and holds no space",
                    named(name)
                ));
            }
            if self.positionals[..at].iter().any(|p| p.name == name) {
                return host(format!("two positionals named `{name}`"));
            }
        }
        for (at, opt) in self.options.iter().enumerate() {
            let name = opt.name;
            if !usable_name(name) {
                return host(format!(
                    "option {}, which no command line can give: an option's name starts with a \
                     letter or a digit and holds only letters, digits, `-`, `_` and `.`",
                    named(name)
                ));
            }
            if self.options[..at].iter().any(|o| o.name == name) {
                return host(format!("two options named `{name}`"));
            }
            match name {
                "help" => {
                    return host("option `help`, which is the host's own `-h, --help`".into());
                }
                "timeout" => {
                    return Some(
                        "option `timeout`, which the kit declares for every verb (`--timeout MS`)"
                            .into(),
                    );
                }
                _ => {}
            }
        }
        if let Some(why) = self.alternatives_unusable() {
            return Some(format!("{why}, which the kit refuses"));
        }
        let bounds = self.every_option().map(|opt| (opt.name, opt.bounds));
        if let Some((name, at)) = bounds
            .filter_map(|(n, b)| Some((n, b.unreadable()?)))
            .next()
        {
            return Some(format!(
                "a bound `{at}` of `{name}`, which is no number, which the kit refuses"
            ));
        }
        let undeclared = self
            .exclusive
            .iter()
            .flat_map(|group| group.iter())
            .find(|name| !self.options.iter().any(|opt| opt.name == **name))?;
        Some(format!(
            "an exclusive group naming `--{undeclared}`, which is not one of its options"
        ))
    }
}

impl Spec {
    /// Every option a command line may give this verb, as its help lists them: the
    /// ones it declares, the option form of each positional that has one
    /// ([`Pos::or_option`]; its help is the positional's) and `--timeout`. The one
    /// list the parser finds an option in, the help declares and "did you mean"
    /// looks through (`click --selectr` is told `--selector`).
    pub(crate) fn every_option(&self) -> impl Iterator<Item = Opt> + '_ {
        let forms = self
            .positionals
            .iter()
            .filter(|pos| !pos.option.is_empty())
            .map(|pos| Opt::value(pos.name, pos.option, pos.kind, pos.help).within(pos.bounds));
        self.options
            .iter()
            .copied()
            .chain(forms)
            .chain([TIMEOUT])
            .chain(self.whole())
    }

    /// `--args JSON`, the tool's whole arguments object, which every verb takes as a
    /// derived verb does: named `all-args` when the verb has an option `args` of its
    /// own (`fire`), as a derived verb's is when its tool has a property `args`.
    pub(crate) fn whole(&self) -> Option<Opt> {
        let taken = |name: &str| self.every_declared().any(|opt| opt == name);
        WHOLE_NAMES
            .iter()
            .find(|name| !taken(name))
            .map(|name| Opt::value(name, "JSON", Kind::Json, WHOLE_HELP))
    }

    /// The names of the options the verb declares itself, and of its positionals'
    /// option forms.
    fn every_declared(&self) -> impl Iterator<Item = &'static str> + '_ {
        let forms = self
            .positionals
            .iter()
            .filter(|pos| !pos.option.is_empty())
            .map(|pos| pos.name);
        self.options.iter().map(|opt| opt.name).chain(forms)
    }

    /// The positional whose option form `opt` is ([`Pos::or_option`]), if it is one.
    pub(crate) fn form_of(&self, opt: &Opt) -> Option<&Pos> {
        self.positionals
            .iter()
            .find(|pos| pos.name == opt.name && !pos.option.is_empty())
    }

    /// What is wrong with the second forms it declares ([`Pos::or_option`],
    /// [`Opt::or_word`]), if anything: a positional's option that no command line
    /// could give, that is the kit's own (`timeout`) or the host's (`help`), or that
    /// is an option of the verb's besides; a lone word for a flag, or beside
    /// positionals (the word would fill them).
    fn alternatives_unusable(&self) -> Option<String> {
        for pos in self.positionals.iter().filter(|pos| !pos.option.is_empty()) {
            let name = pos.name;
            if !usable_name(name) || matches!(name, "timeout" | "help") {
                return Some(format!(
                    "positional `<{name}>` also given as `--{name}`, an option no verb can take"
                ));
            }
            if self.options.iter().any(|opt| opt.name == name) {
                return Some(format!(
                    "positional `<{name}>` also given as `--{name}`, an option of its own besides"
                ));
            }
        }
        for opt in self.options.iter().filter(|opt| opt.word) {
            let name = opt.name;
            if !opt.takes_value() {
                return Some(format!(
                    "flag `--{name}` also given as a word, which a flag has no value for"
                ));
            }
            if !self.positionals.is_empty() {
                return Some(format!(
                    "option `--{name}` also given as a word beside positionals, which the word would fill"
                ));
            }
        }
        None
    }
}

/// Whether `name` can name an option on a command line (`--name`), by the host's
/// rule (`mur_verbs::usable_name`, which `verbs add` holds a verb's options to): a
/// letter or a digit first (`char::is_alphanumeric`), then letters, digits, `-`,
/// `_` or `.`. No dash first, no space, no `=`: the shell and `--name=value` would
/// split it.
pub fn usable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(char::is_alphanumeric)
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The names `--args JSON` takes ([`Spec::whole`]): the first the verb does not
/// declare itself, as a derived verb's (`args`, else `all-args`…).
const WHOLE_NAMES: [&str; 3] = ["args", "all-args", "all-all-args"];

/// The help of `--args JSON`, a derived verb's words for it: the host adds what
/// `@FILE` and `-` are, as it does for every JSON option, and reads them.
pub(crate) const WHOLE_HELP: &str = "the whole arguments object, as JSON; options given beside it \
     override its fields";

/// Whether `opt` is the option of the whole arguments object ([`Spec::whole`]).
pub(crate) fn is_whole(opt: &Opt) -> bool {
    opt.kind == Kind::Json && opt.help == WHOLE_HELP && WHOLE_NAMES.contains(&opt.name)
}

/// The top-level entries of JSON object `text` (checked to be one: [`check_value`]),
/// each as its key and its `"key": value` text: what `--args` gives that no option
/// overrides is carried as typed, never built into a [`Value`] tree (see
/// [`check_word`]'s `Kind::Json`). A key given twice is one entry, where it came first
/// with the value it came with last, as serde_json, JavaScript's `JSON.parse` and
/// Python's `json` read it: the host's derived verbs and the other kits send it once.
pub(crate) fn object_entries(text: &str) -> Vec<(String, &str)> {
    let text = text.trim_matches(JSON_SPACE);
    let inner = text
        .strip_prefix('{')
        .and_then(|rest| rest.strip_suffix('}'))
        .unwrap_or("");
    let mut pieces = Vec::new();
    let (mut depth, mut in_string, mut escaped, mut start) = (0usize, false, false, 0usize);
    for (at, c) in inner.char_indices() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => depth += 1,
            '}' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                pieces.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    pieces.push(&inner[start..]);
    let mut entries: Vec<(String, &str)> = Vec::new();
    let mut at_key = std::collections::HashMap::new();
    for entry in pieces
        .into_iter()
        .map(|entry| entry.trim_matches(JSON_SPACE))
        .filter(|entry| !entry.is_empty())
    {
        let key = key_of(entry).unwrap_or_default();
        match at_key.get(&key) {
            Some(&at) => entries[at] = (key, entry),
            None => {
                at_key.insert(key.clone(), entries.len());
                entries.push((key, entry));
            }
        }
    }
    entries
}

/// The key of entry `"key": value`, decoded.
fn key_of(entry: &str) -> Option<String> {
    let mut deserializer = serde_json::Deserializer::from_str(entry);
    String::deserialize(&mut deserializer).ok()
}

/// `--timeout MS`, which every verb accepts.
pub const TIMEOUT: Opt = Opt::value(
    "timeout",
    "MS",
    Kind::Millis,
    "let the call take up to MS milliseconds",
);

/// Argv checked against a [`Spec`].
#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    positionals: Vec<(Pos, String)>,
    given: Vec<(Opt, Option<String>)>,
    timeout_ms: Option<u32>,
}

/// What the user asked for: a call with these arguments, or the usage.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    Run(Args),
    Help,
}

impl Args {
    /// Check `argv` against `spec`. `--help` or `-h` (alone: `-hello` is an unknown
    /// option) asks for help, even when the rest of argv is wrong; as the value of an
    /// option (`--text -h`) it is just a value. Hints that show a corrected command
    /// leave out its verb's name; [`parse_as`](Self::parse_as) names it.
    pub fn parse(spec: &Spec, argv: &[String]) -> Result<Request, String> {
        Self::parse_with(None, spec, argv)
    }

    /// [`parse`](Self::parse) for verb `verb`, whose name a hint's corrected command
    /// starts with (`mur devtools type '#x' -- -5`).
    pub fn parse_as(verb: &str, spec: &Spec, argv: &[String]) -> Result<Request, String> {
        Self::parse_with(Some(verb), spec, argv)
    }

    fn parse_with(verb: Option<&str>, spec: &Spec, argv: &[String]) -> Result<Request, String> {
        Self::parse_strictly(verb, spec, argv).or_else(|error| match asks_for_help(argv) {
            true => Ok(Request::Help),
            false => Err(error),
        })
    }

    fn parse_strictly(verb: Option<&str>, spec: &Spec, argv: &[String]) -> Result<Request, String> {
        let mut args = Args {
            positionals: Vec::new(),
            given: Vec::new(),
            timeout_ms: None,
        };
        let mut words = Vec::new();
        let mut parser = lexopt::Parser::from_args(argv.iter().cloned());
        loop {
            // Where the next word starts: lexopt names only the first letter of `-hello`.
            let at = parser
                .try_raw_args()
                .map(|raw| argv.len() - raw.as_slice().len());
            let Some(arg) = parser.next().map_err(lexer_message)? else {
                break;
            };
            let unknown = match arg {
                lexopt::Arg::Long("help") => return Ok(Request::Help),
                lexopt::Arg::Value(word) => {
                    words.push(into_string(word)?);
                    continue;
                }
                lexopt::Arg::Long(name) => {
                    let name = name.to_owned();
                    if find_option(spec, &name).is_some() {
                        args.take_option(spec, &name, &mut parser)?;
                        continue;
                    }
                    // A host option by its very name reaches a verb with a value only
                    // where the host did not take it: a flag the host takes no value
                    // for (`--pretty=false`), or any of them in a native test or from
                    // an older `mur` (`--project=App.csproj`).
                    if host_options().any(|option| option == name)
                        && let Some(value) = parser.optional_value()
                    {
                        return Err(match HOST_FLAGS.contains(&name.as_str()) {
                            true => format!(
                                "`--{name}` takes no value, got `{}`",
                                value.to_string_lossy()
                            ),
                            false => format!("`--{name}` is mur's: give it before the verb's name"),
                        });
                    }
                    match option_meant(spec, &name) {
                        Some(meant) => {
                            let meant = match positional_meant(verb, spec, argv, at, &name) {
                                Some(command) => format!("{meant}: did you mean `{command}`?"),
                                None => meant,
                            };
                            return Err(format!("unknown option `--{name}`; {meant}"));
                        }
                        None => format!("unknown option `--{name}`"),
                    }
                }
                lexopt::Arg::Short(letter) => {
                    let word = at.and_then(|at| argv.get(at)).map(String::as_str);
                    match word {
                        Some("-h") => return Ok(Request::Help),
                        // Only `-h` alone is help: `-hello` is no cluster of `-h`; nor is
                        // a number one of `-1` (`-15`).
                        Some(word)
                            if word.starts_with("-h")
                                || word[1..].starts_with(|c: char| c.is_ascii_digit()) =>
                        {
                            format!("unknown option `{word}`")
                        }
                        Some(word) if host_short_cluster(word) => {
                            return Err(host_cluster_refused(word));
                        }
                        // mur's `-v` or `-q`, then something else: that is what is wrong
                        // (lexopt names the first letter, `-v`, which is valid).
                        Some(word) if after_host_letters(word).is_some() => {
                            host_letters_then(spec, word, words.len())?
                        }
                        // `-s` for the one option that starts with `s` (`--selector`),
                        // where no text still to fill may start with a dash.
                        Some(word) if word == format!("-{letter}") => {
                            let told = format!("unknown option `{word}`");
                            let text = spec
                                .positionals
                                .get(words.len())
                                .is_some_and(|pos| pos.kind == Kind::Text);
                            match short_meant(spec, letter) {
                                Some(meant) if !text => {
                                    return Err(format!("{told}; did you mean `--{meant}`?"));
                                }
                                _ => told,
                            }
                        }
                        _ => format!("unknown option `-{letter}`"),
                    }
                }
            };
            return Err(text_after_dashes(
                verb,
                spec,
                argv,
                at,
                words.len(),
                unknown,
            ));
        }
        args.take_positionals(verb, spec, words)?;
        if let Some(checks) = spec.options.iter().find_map(|opt| opt.bounds.checks) {
            (checks.whole)(&args, spec)?;
        }
        check_exclusive(spec, &args)?;
        Ok(Request::Run(args))
    }

    /// The value of positional `<name>`.
    pub fn positional(&self, name: &str) -> &str {
        self.positionals
            .iter()
            .find(|(pos, _)| pos.name == name)
            .map_or("", |(_, word)| word)
    }

    /// The value given to `--name`, if it was given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.given
            .iter()
            .find(|(opt, _)| opt.name == name)
            .and_then(|(_, value)| value.as_deref())
    }

    /// The value of the [`Kind::Count`] option or positional `name`, as the number it
    /// is sent as (`--times 3` is `Some(3)`), if it was given: an [`arguments`](Self::arguments)
    /// or `shape` of the verb's own reads it so, not as the text [`value`](Self::value)
    /// gives, which a pass-through would send as the string `"3"`. `None` for a name of
    /// another kind.
    pub fn count(&self, name: &str) -> Option<u64> {
        count(self.word_of(name, Kind::Count)?).ok()
    }

    /// The value of the [`Kind::Integer`] option or positional `name`, as the number it
    /// is sent as (`--offset -3` is `Some(-3)`), if it was given, as
    /// [`count`](Self::count) gives a count's; an `i128`, which holds every one (-2^63
    /// to 2^64-1). `None` for a name of another kind.
    pub fn integer(&self, name: &str) -> Option<i128> {
        let value = integer(self.word_of(name, Kind::Integer)?)?;
        value
            .as_i64()
            .map(i128::from)
            .or_else(|| value.as_u64().map(i128::from))
    }

    /// The value of the [`Kind::Number`] option or positional `name`, as the number it
    /// is sent as (`--ratio 1.5` is `Some(1.5)`), if it was given, as
    /// [`count`](Self::count) gives a count's. `None` for a name of another kind.
    pub fn number(&self, name: &str) -> Option<f64> {
        number(self.word_of(name, Kind::Number)?).ok()?.as_f64()
    }

    /// The word given for the positional or option `name` of `kind`, if it was given.
    fn word_of(&self, name: &str, kind: Kind) -> Option<&str> {
        let positional = self.positionals.iter().find_map(|(pos, word)| {
            (pos.name == name && pos.kind == kind).then_some(word.as_str())
        });
        let option = || {
            self.given
                .iter()
                .find(|(opt, _)| opt.name == name && opt.kind == kind)
                .and_then(|(_, value)| value.as_deref())
        };
        positional.or_else(option)
    }

    /// Whether flag `--name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.given.iter().any(|(opt, _)| opt.name == name)
    }

    /// `--timeout MS`, checked to be a positive number of milliseconds.
    pub fn timeout_ms(&self) -> Option<u32> {
        self.timeout_ms
    }

    /// The files this command asks to write: the value of each [`Kind::OutPath`]
    /// option given, except `-` (stdout), exactly as typed.
    pub fn writes(&self) -> Vec<String> {
        self.given
            .iter()
            .filter(|(opt, _)| opt.kind == Kind::OutPath)
            .filter_map(|(_, value)| value.clone())
            .filter(|path| path != "-")
            .collect()
    }

    /// The checked argv as JSON text, the state the host hands back to `shape`.
    pub fn to_state(&self) -> String {
        let positionals: Vec<Value> = self
            .positionals
            .iter()
            .map(|(pos, word)| Value::from(vec![pos.name, word.as_str()]))
            .collect();
        let options: Vec<Value> = self
            .given
            .iter()
            .map(|(opt, value)| serde_json::json!([opt.name, value]))
            .collect();
        serde_json::json!({"positionals": positionals, "options": options}).to_string()
    }

    /// The [`Args`] that [`to_state`](Self::to_state) wrote, matched against `spec`
    /// again by name; nothing is re-checked, since `parse` checked it.
    pub fn from_state(spec: &Spec, state: &str) -> Result<Self, String> {
        let broken = || "the output state is not what `parse` wrote".to_owned();
        let state: Value = serde_json::from_str(state).map_err(|_| broken())?;
        let pairs = |key: &str| -> Result<Vec<(String, Option<String>)>, String> {
            let list = state
                .get(key)
                .and_then(Value::as_array)
                .ok_or_else(broken)?;
            list.iter()
                .map(|pair| {
                    let name = pair.get(0).and_then(Value::as_str).ok_or_else(broken)?;
                    let value = pair.get(1).and_then(Value::as_str).map(str::to_owned);
                    Ok((name.to_owned(), value))
                })
                .collect()
        };
        let mut args = Args {
            positionals: Vec::new(),
            given: Vec::new(),
            timeout_ms: None,
        };
        for (name, word) in pairs("positionals")? {
            let pos = spec.positionals.iter().find(|p| p.name == name);
            args.positionals
                .push((*pos.ok_or_else(broken)?, word.unwrap_or_default()));
        }
        for (name, value) in pairs("options")? {
            let opt = find_option(spec, &name).ok_or_else(broken)?;
            if opt.name == TIMEOUT.name {
                args.timeout_ms = value.as_deref().and_then(|v| millis(v).ok());
            }
            args.given.push((opt, value));
        }
        Ok(args)
    }

    /// The tool's `arguments` object as the spec describes it: each positional under its
    /// key, each given option under its name in camelCase, each as its kind is sent (a
    /// [`Kind::Count`] as a number), except the ones never sent ([`Kind::Local`],
    /// [`Kind::LocalFlag`], [`Kind::OutPath`], [`Kind::Millis`]) and the JSON ones
    /// ([`Kind::Json`]), which the kit adds as typed ([`json_options`](Self::json_options)).
    pub fn arguments(&self) -> Map<String, Value> {
        let mut arguments = Map::new();
        for (pos, word) in &self.positionals {
            if let Some(json) = sent_json(pos.kind, Some(word)) {
                arguments.insert(pos.key.to_owned(), json);
            }
        }
        for (opt, value) in &self.given {
            if let Some(json) = sent_json(opt.kind, value.as_deref()) {
                arguments.insert(camel_case(opt.name), json);
            }
        }
        arguments
    }

    /// Each [`Kind::Json`] option given and positional, as its key (an option's name in
    /// camelCase) and its text as typed, checked to be JSON but never parsed into a
    /// [`Value`]: the kit writes it into the arguments object verbatim, under a key the
    /// verb's [`Verb::arguments`](crate::Verb::arguments) did not set itself.
    pub fn json_options(&self) -> impl Iterator<Item = (String, &str)> {
        let options = self
            .given
            .iter()
            .filter(|(opt, _)| opt.kind == Kind::Json && !is_whole(opt))
            .filter_map(|(opt, value)| Some((camel_case(opt.name), value.as_deref()?)));
        let positionals = self
            .positionals
            .iter()
            .filter(|(pos, _)| pos.kind == Kind::Json)
            .map(|(pos, word)| (pos.key.to_owned(), word.as_str()));
        options.chain(positionals)
    }

    /// The text of `--args JSON` ([`Spec::whole`]), a JSON object, if it was given: the
    /// tool's arguments that the options given beside it override.
    pub fn whole(&self) -> Option<&str> {
        self.given
            .iter()
            .find(|(opt, _)| is_whole(opt))
            .and_then(|(_, value)| value.as_deref())
    }

    fn take_option(
        &mut self,
        spec: &Spec,
        name: &str,
        parser: &mut lexopt::Parser,
    ) -> Result<(), String> {
        let opt = find_option(spec, name).ok_or_else(|| unknown_option(spec, name))?;
        if self.flag(opt.name) {
            return Err(format!(
                "the argument `{}` cannot be used multiple times",
                opt.usage()
            ));
        }
        let value = if opt.takes_value() {
            let inline = parser.optional_value();
            let taken = inline.is_none();
            let word = match inline {
                Some(word) => word,
                None => parser
                    .value()
                    .map_err(|_| needs_value(&format!("`{}`", opt.usage())))?,
            };
            let word = into_string(word)?;
            if taken {
                refuse_option_as_value(spec, &opt, &word)?;
            }
            Some(check_value(&opt, word)?)
        } else if let Some(word) = parser.optional_value() {
            return Err(format!(
                "`--{name}` takes no value, got `{}`",
                word.to_string_lossy()
            ));
        } else {
            None
        };
        if opt.name == TIMEOUT.name {
            // Checked by `check_value`.
            self.timeout_ms = value.as_deref().and_then(|v| millis(v).ok());
        }
        self.given.push((opt, value));
        Ok(())
    }

    fn take_positionals(
        &mut self,
        verb: Option<&str>,
        spec: &Spec,
        words: Vec<String>,
    ) -> Result<(), String> {
        let mut words = std::collections::VecDeque::from(words);
        for (at, pos) in spec.positionals.iter().enumerate() {
            if let Some(value) = self.take_given(pos) {
                // A word more than the positionals after this one take: the same
                // argument typed both ways, unless it is more words of a text.
                let later = spec.positionals.len() - at - 1;
                if let Some(word) = words.front().filter(|_| words.len() > later)
                    && given_twice(spec, pos, word)
                {
                    return Err(format!(
                        "`<{name}>` given twice: as `{word}` and as `--{name} {}`",
                        shell_word(&value),
                        name = pos.name
                    ));
                }
                self.positionals.push((*pos, value));
                continue;
            }
            // Fewer words than the positionals still to fill: one whose key `--args`
            // gives is taken from there, as a derived verb takes a required property
            // (`click --args '{"selector": "#x"}'`); the words fill the others. A
            // string gives its text; a number, a count, an integer or a number's; a
            // boolean, a choice's (`true`); any value, a JSON positional.
            let unfilled = spec.positionals[at..]
                .iter()
                .filter(|later| !self.given_as_option(later))
                .count();
            if words.len() < unfilled
                && let Some((whole, value)) = self.whole_field(pos.key)
            {
                let shown = format!("`{}` in `--{whole}`", pos.key);
                let word = match (pos.kind, value) {
                    (Kind::Json, value) => value.to_string(),
                    (_, Value::String(text)) => text,
                    (Kind::Count | Kind::Integer | Kind::Number, value @ Value::Number(_)) => {
                        value.to_string()
                    }
                    // A boolean is the word it is written as, held to the choices as a
                    // word typed is (`{"on": true}` for the choice `true`): its text is
                    // the same in every kit, where a number's (`1.0`) is not.
                    (Kind::Choice(_), value @ Value::Bool(_)) => value.to_string(),
                    (_, value) => return Err(format!("{shown} must be a string, got `{value}`")),
                };
                let word = check_word(pos.kind, pos.bounds, &shown, word)?;
                self.positionals.push((*pos, word));
                continue;
            }
            let word = words
                .pop_front()
                .ok_or_else(|| format!("missing argument `<{}>`", pos.name))?;
            // Held to its kind as its option form is (`--name VALUE`), and as the Python
            // and JavaScript kits hold a positional: a choice's word one of its choices.
            let word = check_word(pos.kind, pos.bounds, &format!("`<{}>`", pos.name), word)?;
            self.positionals.push((*pos, word));
        }
        let mut extra: Vec<String> = words.into();
        // An empty word where an option's lone word goes (`state "$sel"`, the variable
        // unset) is refused as an empty positional is (`click ''`), not as a stray word.
        if let Some(opt) = extra
            .first()
            .filter(|word| word.trim().is_empty())
            .and_then(|_| {
                spec.options
                    .iter()
                    .find(|opt| opt.word && !self.flag(opt.name))
            })
            .filter(|opt| must_not_be_empty(opt.kind))
        {
            return Err(format!("`<{}>` must not be empty", opt.name));
        }
        // An option's lone word (`state '#count'`), never one that reads as an option
        // or stdin (`-`, `-x` after `--`); a word after it is one too many, as after a
        // positional (`state '#a' '#b'`: `#b` is unexpected). The word it would have
        // been beside that option given (`state '#a' --selector '#b'`) is the argument
        // given twice, as a positional's is beside its option form.
        if let Some(word) = extra.first().filter(|word| !word.starts_with('-')) {
            match self.meant(spec, word).filter(|opt| opt.word) {
                Some(opt) => {
                    self.given.push((opt, Some(word.clone())));
                    extra.remove(0);
                }
                None => {
                    if let Some(twice) = self.word_given_too(spec, word) {
                        return Err(twice);
                    }
                }
            }
        }
        match extra.is_empty() {
            true => Ok(()),
            false => Err(self.unexpected(verb, spec, &extra)),
        }
    }

    /// For a stray `word` beside an option given that also takes a lone word
    /// ([`Opt::or_word`]): the refusal of that argument given twice, where the word is
    /// the one the option would have taken alone ([`meant`](Self::meant), the option not
    /// given): `state '#a' --selector '#b'`, as `click '#a' --selector '#b'` is told.
    /// None for a word no option would have taken (`tree main --selector '#a'`, which
    /// may mean `--window main`).
    fn word_given_too(&self, spec: &Spec, word: &str) -> Option<String> {
        let given = self.given.iter().enumerate();
        given
            .filter(|(_, (opt, _))| opt.word)
            .find_map(|(at, (opt, value))| {
                let mut without = self.clone();
                without.given.remove(at);
                let meant = without.meant(spec, word)?;
                (meant.name == opt.name).then(|| {
                    format!(
                        "`<{name}>` given twice: as `{word}` and as `--{name} {}`",
                        shell_word(value.as_deref().unwrap_or_default()),
                        name = opt.name
                    )
                })
            })
    }

    /// Whether positional `pos` was given as its option form ([`Pos::or_option`]).
    fn given_as_option(&self, pos: &Pos) -> bool {
        !pos.option.is_empty() && self.given.iter().any(|(opt, _)| opt.name == pos.name)
    }

    /// The field `key` of `--args JSON`, if it was given with one, and the name of that
    /// option (`args`, `all-args`).
    fn whole_field(&self, key: &str) -> Option<(&'static str, Value)> {
        let (opt, whole) = self.given.iter().find(|(opt, _)| is_whole(opt))?;
        let (_, entry) = object_entries(whole.as_deref()?)
            .into_iter()
            .rfind(|(name, _)| name == key)?;
        let field: Map<String, Value> = serde_json::from_str(&format!("{{{entry}}}")).ok()?;
        Some((opt.name, field.into_iter().next()?.1))
    }

    /// Each option with [`Bounds`] not given, held to them where `--args` gives its key
    /// (its name in camelCase) an integer or number, as a derived verb holds a field of
    /// `--args`: `` `limit` in `--args` is out of range: … ``.
    fn check_whole_bounds(&self, spec: &Spec) -> Result<(), String> {
        let bounded = spec.options.iter().filter(|opt| opt.bounds != Bounds::NONE);
        for opt in bounded.filter(|opt| !self.flag(opt.name)) {
            let key = camel_case(opt.name);
            if let Some((whole, Value::Number(n))) = self.whole_field(&key)
                && (opt.kind == Kind::Number || n.is_i64() || n.is_u64())
            {
                let shown = format!("`{key}` in `--{whole}`");
                opt.bounds.check(opt.kind, &shown, &n.to_string())?;
            }
        }
        Ok(())
    }

    /// The value of `--name` given for positional `<name>` ([`Pos::or_option`]), taken
    /// out of the options given, so it is the positional's alone.
    fn take_given(&mut self, pos: &Pos) -> Option<String> {
        if pos.option.is_empty() {
            return None;
        }
        let at = self
            .given
            .iter()
            .position(|(opt, _)| opt.name == pos.name)?;
        self.given.remove(at).1
    }

    /// `unexpected argument` (the first of `extra`, the words past the positionals),
    /// with what was likely meant: the words quoted as one where the last positional
    /// is text (`type '#x' 'buy milk'`), else the option of [`meant`](Self::meant).
    /// Each names the fix as "did you mean …?", so the host prints it without the
    /// verb's usage.
    fn unexpected(&self, verb: Option<&str>, spec: &Spec, extra: &[String]) -> String {
        let word = extra[0].as_str();
        let told = format!("unexpected argument `{word}`");
        if let Some((pos, text)) = self
            .positionals
            .last()
            .filter(|(pos, _)| pos.kind == Kind::Text)
        {
            let told = format!("{told}; quote the words of `<{}>` as one", pos.name);
            let Some(verb) = verb else { return told };
            let mut quoted = self.clone();
            if let Some((_, last)) = quoted.positionals.last_mut() {
                *last = [text.as_str()]
                    .into_iter()
                    .chain(extra.iter().map(String::as_str))
                    .collect::<Vec<_>>()
                    .join(" ");
            }
            return format!("{told}: did you mean `{}`?", quoted.command(verb));
        }
        let word = shell_word(word);
        match self.meant(spec, &extra[0]) {
            Some(opt) => format!("{told}; did you mean `--{} {word}`?", opt.name),
            // `tree main`: a window's name, or a selector of that type; `tree
            // ':text("x")'`, or `main` beside `--selector`: the one option it fits.
            None => match self.readings(spec, &extra[0]).as_slice() {
                [only] => format!("{told}; did you mean `--{only} {word}`?"),
                [first, second] => {
                    format!("{told}; did you mean `--{first} {word}` or `--{second} {word}`?")
                }
                _ => told,
            },
        }
    }

    /// The options a stray `word` fits where nothing says which it is for (see
    /// [`meant`](Self::meant)): of a verb without positionals, its options (not
    /// choices) that name a thing of the app, not given already, that take the word;
    /// none for a word that looks like a file path (`b.png`: a path given twice). A
    /// name ([`Kind::Name`]: a window's, a component's) never holds a selector's marks
    /// ([`holds_selector_marks`]): `:text("x")` is read as no window.
    fn readings(&self, spec: &Spec, word: &str) -> Vec<&'static str> {
        if !spec.positionals.is_empty() || looks_like_path(word) {
            return Vec::new();
        }
        spec.options
            .iter()
            .filter(|opt| opt.kind.names_a_thing() && !matches!(opt.kind, Kind::Choice(_)))
            .filter(|opt| !(opt.kind == Kind::Name && holds_selector_marks(word)))
            .filter(|opt| !self.flag(opt.name) && check_value(opt, word.to_owned()).is_ok())
            .map(|opt| opt.name)
            .collect()
    }

    /// The option a stray `word` was likely meant for: for a JSON object, the verb's
    /// JSON option (`--args`); and when the verb takes no positionals, one whose
    /// choices hold it, else its `--selector` for a word that starts like one (`#id`,
    /// `[attr]`), else its output path for a word that looks like a path
    /// (`shot.png`, `out/x`), else its one option (not a choice) that names a thing of
    /// the app ([`Kind::names_a_thing`]). Never an option given already or one that
    /// would refuse the word.
    fn meant(&self, spec: &Spec, word: &str) -> Option<Opt> {
        let fits = |opt: &Opt| !self.flag(opt.name) && check_value(opt, word.to_owned()).is_ok();
        // An object by its first byte, checked as JSON without a `Value` tree (a stray
        // word may be as long as a value).
        let object = word.trim_start().starts_with('{') && check_json(word).is_ok();
        let json: Vec<&Opt> = spec
            .options
            .iter()
            .filter(|opt| opt.kind == Kind::Json)
            .collect();
        let json = json
            .iter()
            .find(|opt| opt.name == "args")
            .or(match json.as_slice() {
                [only] => Some(only),
                _ => None,
            });
        match json {
            Some(opt) if object && fits(opt) => return Some(**opt),
            _ => {}
        }
        if !spec.positionals.is_empty() {
            return None;
        }
        let things: Vec<&Opt> = spec
            .options
            .iter()
            .filter(|opt| opt.kind.names_a_thing())
            .collect();
        let listed = things
            .iter()
            .find(|opt| matches!(opt.kind, Kind::Choice(words) if words.contains(&word)));
        let selector = things
            .iter()
            .find(|opt| opt.kind == Kind::Selector && word.starts_with(['#', '[']));
        let path = spec
            .options
            .iter()
            .find(|opt| opt.kind == Kind::OutPath && looks_like_path(word));
        listed
            .or(selector)
            .copied()
            .or(path)
            .or(the_only_thing(spec))
            .filter(|opt| fits(opt))
            .copied()
    }

    /// These arguments as a command line for verb `verb`, each word as a shell reads it
    /// back: the positionals, then the options; from the first positional that starts
    /// with `-`, after the options and `--` (`mur devtools type '#x' --clear -- -5`).
    fn command(&self, verb: &str) -> String {
        let dashed = |word: &str| word.starts_with('-') && word != "-";
        let split = self
            .positionals
            .iter()
            .position(|(_, word)| dashed(word))
            .unwrap_or(self.positionals.len());
        let (before, after) = self.positionals.split_at(split);
        let mut words = vec!["mur".to_owned(), "devtools".to_owned(), shell_word(verb)];
        words.extend(before.iter().map(|(_, word)| shell_word(word)));
        for (opt, value) in &self.given {
            words.push(format!("--{}", opt.name));
            words.extend(value.as_deref().map(shell_word));
        }
        if !after.is_empty() {
            words.push("--".to_owned());
            words.extend(after.iter().map(|(_, word)| shell_word(word)));
        }
        words.join(" ")
    }
}

/// `unknown option`, with what was likely meant (see [`option_meant`]).
fn unknown_option(spec: &Spec, name: &str) -> String {
    let told = format!("unknown option `--{name}`");
    match option_meant(spec, name) {
        Some(meant) => format!("{told}; {meant}"),
        None => told,
    }
}

/// What an unknown `--name` was likely meant as: the positional of that name
/// (`click --selector S` for `click S`), else the nearest of the verb's options
/// (`--slector`), else the nearest host option (`--projct`), which the host takes
/// after the verb's name too; both by the host's rule, case aside as the host's own
/// hints are (`--Selector` is `--selector`). The rule is one function,
/// [`crate::nearest::option_meant`], in nearest.rs, which mur-core takes in too: a
/// derived verb's hint is the same.
fn option_meant(spec: &Spec, name: &str) -> Option<String> {
    if let Some(pos) = positional_named(spec, name) {
        return Some(format!("write `<{}>` without `--{name}`", pos.name));
    }
    let own = spec.every_option().map(|opt| opt.name);
    // The host options the verb declares are its own.
    let host = host_options().filter(|option| find_option(spec, option).is_none());
    let meant = crate::nearest::option_meant(name, own, host)?;
    Some(format!("did you mean `--{meant}`?"))
}

/// The positional `--name` names, case aside, that is given only as a word: one that
/// has an option form is among the options ([`Spec::every_option`]).
fn positional_named<'s>(spec: &'s Spec, name: &str) -> Option<&'s Pos> {
    let lower = name.to_lowercase();
    spec.positionals
        .iter()
        .find(|pos| pos.option.is_empty() && pos.name.to_lowercase() == lower)
}

/// The host's long options (`mur devtools --help`), which the host takes after a
/// verb's name where the verb declares no option of that name. One list, in
/// `host-options.txt`, for the host (crates/verbs, `derived::host_options`, held to
/// its clap tree by a test) and every kit: `verbs new` writes it into the Python and
/// JavaScript kits.
pub fn host_options() -> impl Iterator<Item = &'static str> {
    include_str!("host-options.txt").lines()
}

/// The host options of [`host_options`] that take no value (`mur devtools --help`):
/// only these are told they take none when given one (`--pretty=false`).
pub(crate) const HOST_FLAGS: [&str; 6] =
    ["auto", "auto-full", "pretty", "verbose", "quiet", "refresh"];

/// Whether `word` is a cluster of the host's short options (`-vq`, `-qv`). The host
/// takes one after a verb's name too, so the word reaches a verb only in a native
/// test or from an older `mur`, which took `-v` and `-q` there only one by one: the
/// kit's message (`-v -q`) suits both.
fn host_short_cluster(word: &str) -> bool {
    word.len() > 2
        && word
            .strip_prefix('-')
            .is_some_and(|letters| letters.chars().all(|letter| matches!(letter, 'v' | 'q')))
}

/// [`host_short_cluster`]'s refusal, with the words that work typed: each flag apart
/// (`-vq`: `-v -q`), or once where one is repeated (`-vv`: mur refuses `-v -v` too, as
/// clap refuses `--verbose` twice).
fn host_cluster_refused(word: &str) -> String {
    let letters = &word[1..];
    let repeated = letters
        .chars()
        .enumerate()
        .any(|(i, c)| letters[..i].contains(c));
    if repeated {
        return format!("unknown option `{word}`; mur takes `-v` and `-q` once each");
    }
    let apart: Vec<String> = letters.chars().map(|letter| format!("-{letter}")).collect();
    format!(
        "unknown option `{word}`; write mur's `-v` and `-q` apart: `{}`",
        apart.join(" ")
    )
}

/// Of a word that starts with mur's short flags and goes on with anything else (`-vx`,
/// `-vh`, `-v1`, `-v=x`, `-vé`), mur's flags (`-v`) and the rest (`x`, `h`, `1`, `=x`, `é`).
fn after_host_letters(word: &str) -> Option<(&str, &str)> {
    let letters = word.strip_prefix('-')?;
    let at = letters.find(|c| !matches!(c, 'v' | 'q'))?;
    (at > 0).then(|| (&word[..=at], &letters[at..]))
}

/// The refusal of `word`, mur's flags and then something else ([`after_host_letters`]):
/// what is wrong is named, never mur's valid `-v` (lexopt names the first letter), as mur
/// names a letter before the verb. `Err` is the whole refusal, with what to type (`-vh`:
/// `-v -h`, `-vvh` too, since mur takes each flag once; `-vs`: `--selector`); `Ok` the
/// message, for the hint of a word meant as text. After mur's flags: a letter is named
/// (`-x` in `-vx`); `h` and more, or a number, are named whole, as alone (`-hx` in `-vhx`,
/// `-15` in `-v15`); `=` is a value, which mur's flags take none of (`-v=x`, as
/// `--quiet=1`); a dash is no option's letter, so the word is named whole (`-v-`).
/// `filled`: the positionals the words before gave.
fn host_letters_then(spec: &Spec, word: &str, filled: usize) -> Result<String, String> {
    let Some((flags, rest)) = after_host_letters(word) else {
        return Ok(format!("unknown option `{word}`"));
    };
    if rest == "h" {
        let mut once = String::new();
        for flag in flags.chars() {
            if !once.contains(flag) {
                once.push(flag);
            }
        }
        return Err(match once.len() < flags.len() {
            true => {
                format!("unknown option `{word}`; mur takes `-v` and `-q` once each: `{once} -h`")
            }
            false => format!("unknown option `{word}`; write mur's `{flags}` apart: `{flags} -h`"),
        });
    }
    if let Some(value) = rest.strip_prefix('=') {
        let flag = &flags[flags.len() - 1..];
        return Ok(format!("`-{flag}` takes no value, got `{value}`"));
    }
    let mut chars = rest.chars();
    let other = chars.next().unwrap_or_default();
    let alone = chars.next().is_none();
    let named = match other {
        '-' => return Ok(format!("unknown option `{word}`")),
        'h' | '0'..='9' => rest,
        _ => &rest[..other.len_utf8()],
    };
    let told = format!("unknown option `-{named}` in `{word}`");
    let text = spec
        .positionals
        .get(filled)
        .is_some_and(|pos| pos.kind == Kind::Text);
    match short_meant(spec, other) {
        Some(meant) if alone && !text && !other.is_ascii_digit() => {
            Err(format!("{told}; did you mean `--{meant}`?"))
        }
        _ => Ok(told),
    }
}

/// `unknown` (an unknown option's message) with, where the positional still to fill
/// is text, a hint to give the word after `--`, as the command it would make when
/// the rest of argv is right: `mur devtools type '#x' -- -5`; so too where it is a number
/// an integer or a number still to fill takes (`-3`). A number for a count still to
/// fill (`-1`), or one past an integer's range, is told why it is refused instead:
/// after `--` it would be refused all the same (the Python and JavaScript kits hint
/// `--` for a number their `integer` takes, and say why for one it does not). `at` is
/// the word's place in `argv`; `filled`, how many positionals the words before it gave.
fn text_after_dashes(
    verb: Option<&str>,
    spec: &Spec,
    argv: &[String],
    at: Option<usize>,
    filled: usize,
    unknown: String,
) -> String {
    let (Some(pos), Some(at)) = (spec.positionals.get(filled), at) else {
        return unknown;
    };
    let word = &argv[at];
    match pos.kind {
        Kind::Text => {}
        Kind::Count | Kind::Integer if integer_digits(word).is_some() => {
            if let Err(why) = check_word(
                pos.kind,
                pos.bounds,
                &format!("`<{}>`", pos.name),
                word.clone(),
            ) {
                return why;
            }
        }
        Kind::Number if number(word).is_ok() => {}
        _ => return unknown,
    }
    let told = format!(
        "{unknown}; to give it as `<{}>`, put it after `--`",
        pos.name
    );
    let rest = &argv[at + 1..];
    if rest.iter().any(|later| later == "--") {
        return told;
    }
    let mut moved: Vec<String> = argv[..at].iter().chain(rest).cloned().collect();
    moved.extend(["--".to_owned(), word.clone()]);
    match corrected(verb, spec, &moved, pos.name, word) {
        Some(command) => format!("{told}: did you mean `{command}`?"),
        None => told,
    }
}

/// For `--name VALUE` (or `--name=VALUE`) at `at` in `argv`, where the verb takes
/// `<name>` only as a word: the command with `VALUE` written as that word, when the
/// rest of argv is right (`mur devtools switch todo` for `switch --component todo`).
fn positional_meant(
    verb: Option<&str>,
    spec: &Spec,
    argv: &[String],
    at: Option<usize>,
    name: &str,
) -> Option<String> {
    let (verb, at) = (verb?, at?);
    // Case aside, as [`option_meant`] names it (`--Component` for `<component>`).
    let name = positional_named(spec, name)?.name;
    let word = argv.get(at)?;
    let mut moved: Vec<String> = argv[..at].to_vec();
    let value = match word.split_once('=') {
        Some((_, value)) => {
            moved.push(value.to_owned());
            value
        }
        None => argv.get(at + 1)?,
    };
    moved.extend(argv[at + 1..].iter().cloned());
    corrected(Some(verb), spec, &moved, name, value)
}

/// The command verb `verb` would run with `moved` (argv with a word moved where it
/// belongs), when `moved` is right and gives positional `<name>` that `word`: the
/// command a hint names, so it is one that works.
fn corrected(
    verb: Option<&str>,
    spec: &Spec,
    moved: &[String],
    name: &str,
    word: &str,
) -> Option<String> {
    match Args::parse_strictly(None, spec, moved) {
        Ok(Request::Run(args)) if args.positional(name) == word => Some(args.command(verb?)),
        _ => None,
    }
}

/// The option `-letter` likely stands for: the one of the verb's options (and the
/// option forms of its positionals) whose name starts with that letter, if only one
/// does. Not `-h` (help), `-v` or `-q` (mur's own, which the host takes).
fn short_meant(spec: &Spec, letter: char) -> Option<&'static str> {
    if matches!(letter, 'h' | 'v' | 'q') {
        return None;
    }
    let names: Vec<&'static str> = spec
        .every_option()
        .map(|opt| opt.name)
        .filter(|name| name.starts_with(letter))
        .collect();
    match names.as_slice() {
        [only] => Some(only),
        _ => None,
    }
}

/// The verb's one option, not a choice, that names a thing of the app
/// ([`Kind::names_a_thing`]), if it has only one: the option any stray word may have
/// been meant for ([`Args::meant`]).
fn the_only_thing(spec: &Spec) -> Option<&Opt> {
    let mut unlisted = spec
        .options
        .iter()
        .filter(|o| o.kind.names_a_thing() && !matches!(o.kind, Kind::Choice(_)));
    match (unlisted.next(), unlisted.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// Whether option `opt`, also taken as a lone word, takes any word it would take as a
/// value: it is [`the_only_thing`]. Otherwise it takes only a word that starts like a
/// selector (see [`Args::meant`]).
pub(crate) fn takes_any_word(spec: &Spec, opt: &Opt) -> bool {
    the_only_thing(spec).is_some_and(|only| only.name == opt.name)
}

/// Whether `word`, typed for `<pos>` given as an option already, is the same argument
/// typed again rather than a word of the positionals after it: always, unless the last
/// positional is text (`type --selector '#x' buy milk`, whose words are the text);
/// then for a selector only a word that starts like one (`#id`, `[attr]`).
fn given_twice(spec: &Spec, pos: &Pos, word: &str) -> bool {
    let text_last = spec
        .positionals
        .last()
        .is_some_and(|last| last.kind == Kind::Text);
    !text_last || (pos.kind == Kind::Selector && word.starts_with(['#', '[']))
}

/// Whether `word` holds a mark of a selector's syntax that no name holds (a window's,
/// a component's: `main`, `todo`): `#` (an id), `[` (an attribute), `:` (`:text(…)`,
/// `:nth(N)`), `>` (a child), `*` (any element) or white space (a descendant). A
/// plain word (`main`, `Button`, `.done`) may be either.
fn holds_selector_marks(word: &str) -> bool {
    word.contains(['#', '[', ':', '>', '*']) || word.contains(char::is_whitespace)
}

/// Whether `word` looks like a file path rather than a selector or a name: it holds a
/// `/`, or ends in an extension of one to four letters or digits (`shot.png`), and
/// does not start like a selector (`#id`, `[attr]`, `.class`).
fn looks_like_path(word: &str) -> bool {
    if word.starts_with(['#', '[', '.']) {
        return false;
    }
    let extension = word.rsplit_once('.').is_some_and(|(stem, extension)| {
        !stem.is_empty()
            && (1..=4).contains(&extension.len())
            && extension.bytes().all(|b| b.is_ascii_alphanumeric())
    });
    word.contains('/') || extension
}

/// `word` as a shell reads it back: bare when plain, else in single quotes.
pub(crate) fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_.,/:=@%+-".contains(c);
    match !word.is_empty() && word.chars().all(plain) {
        true => word.to_owned(),
        false => format!("'{}'", word.replace('\'', r"'\''")),
    }
}

/// What a value of `kind` is sent as, if anything.
fn sent_json(kind: Kind, value: Option<&str>) -> Option<Value> {
    match (kind, value) {
        (Kind::Flag, _) => Some(Value::Bool(true)),
        (Kind::Local | Kind::LocalFlag | Kind::OutPath | Kind::Millis, _) | (_, None) => None,
        (Kind::Count, Some(text)) => count(text).ok().map(Value::from),
        (Kind::Integer, Some(text)) => integer(text),
        (Kind::Number, Some(text)) => number(text).ok(),
        // Sent as typed, by `json_options`.
        (Kind::Json, _) => None,
        (_, Some(text)) => Some(Value::from(text)),
    }
}

/// Whether a help option appears before `--`, for argv too wrong to parse.
fn asks_for_help(argv: &[String]) -> bool {
    argv.iter()
        .take_while(|word| *word != "--")
        .any(|word| word == "--help" || word == "-h")
}

/// A value of `--name` taken from the next word that is one of the verb's own options
/// or one of mur's (`--selector --pretty`, `--selector --window=main`): the value was
/// left out, as the derived verbs say. An inline value (`--selector=--pretty`) is
/// taken as given.
fn refuse_option_as_value(spec: &Spec, opt: &Opt, word: &str) -> Result<(), String> {
    let Some(option) = word.strip_prefix("--") else {
        return Ok(());
    };
    let option = option.split('=').next().unwrap_or(option);
    let known = !option.is_empty()
        && (find_option(spec, option).is_some() || host_options().any(|host| host == option));
    match known {
        true => Err(format!(
            "{}, and `--{option}` is an option (a value that begins with `--` is written \
             `--{}=VALUE`)",
            needs_value(&format!("`{}`", opt.usage())),
            opt.name
        )),
        false => Ok(()),
    }
}

/// What is said of an option typed without its value, or with an empty one where none
/// can be empty: `` `--selector <S>` needs a value``, the option named as mur names one
/// in an error (`named`, [`Opt::usage`]; a positional as `` `<pause>` ``). The one
/// wording of a missing value, mur's host's for its own options (`value_required` in
/// host/src/options.rs), the derived verbs' and the Python and JavaScript kits' too,
/// so that one mistake reads alike wherever it is typed.
fn needs_value(named: &str) -> String {
    format!("{named} needs a value")
}

/// [`needs_value`] of an option typed with an empty value (`--timeout=`, `--timeout ''`,
/// a script's `"$UNSET"`): the word was typed, so it is said to be empty, in the host's
/// words for its own options (`value_given_empty` in host/src/options.rs).
fn given_empty(named: &str) -> String {
    format!("{} (it was given empty)", needs_value(named))
}

/// The option `--name` of `spec` ([`Spec::every_option`]); the option form of a
/// positional is moved into its place by [`Args::take_positionals`].
fn find_option(spec: &Spec, name: &str) -> Option<Opt> {
    spec.every_option().find(|opt| opt.name == name)
}

fn check_value(opt: &Opt, word: String) -> Result<String, String> {
    match opt.kind {
        // A derived verb's words for it.
        Kind::Json if is_whole(opt) => {
            let word = check_word(opt.kind, opt.bounds, &format!("`--{}`", opt.name), word)?;
            match word.starts_with('{') {
                true => Ok(word),
                false => Err(format!("`--{}` must be a JSON object", opt.name)),
            }
        }
        // Named as the host names its own `--timeout` (`--timeout <MS>`).
        Kind::Millis => millis_word(&format!("`{}`", opt.usage()), word),
        kind => check_word(kind, opt.bounds, &format!("`--{}`", opt.name), word),
    }
}

/// `word` held to `kind`, or why not, naming it as `shown` (`` `--name` ``, `` `<name>` ``).
fn check_word(kind: Kind, bounds: Bounds, shown: &str, word: String) -> Result<String, String> {
    // Bounds first for an integer, so that one past the kind (a count's `-1`) is told
    // them; a number only once it is one.
    let is_number = kind == Kind::Number && number(&word).is_ok();
    if let Some(checks) = bounds.checks
        && (is_number || integer_digits(&word).is_some())
    {
        (checks.word)(&bounds, kind, shown, &word)?;
    }
    match kind {
        kind if must_not_be_empty(kind) && word.trim().is_empty() => {
            Err(format!("{shown} must not be empty"))
        }
        Kind::Choice(choices) if !choices.contains(&word.as_str()) => {
            let told = format!("{shown} must be {}, got `{word}`", one_of(choices));
            Err(match choice_meant(&word, choices.iter().copied()) {
                Some(meant) => format!("{told}; did you mean `{meant}`?"),
                None => told,
            })
        }
        Kind::Count => match count(&word) {
            Ok(_) => Ok(word),
            Err(why) => Err(format!("{shown} {why}, got `{word}`")),
        },
        Kind::Integer => match (integer(&word), integer_digits(&word)) {
            (Some(_), _) => Ok(word),
            (None, None) => Err(format!("{shown} needs an integer, got `{word}`")),
            (None, Some(_)) => Err(format!("{shown} is out of range: {INTEGERS}, got `{word}`")),
        },
        Kind::Number => match number(&word) {
            Ok(_) => Ok(word),
            Err(()) => Err(format!("{shown} needs a number, got `{word}`")),
        },
        // Checked, never built into a `Value` tree: that takes up to 16 times the
        // text's bytes, and a 4 MiB value mur takes would outgrow the verb's 64 MiB;
        // the text is sent as typed (`Args::json_options`), without the white space
        // around it. serde_json's message names the line and column of the first
        // error, which is what a user needs to fix a long value.
        Kind::Json => match check_json(&word) {
            Ok(()) => Ok(word.trim_matches(JSON_SPACE).to_owned()),
            Err(error) => Err(format!("{shown} is not valid JSON: {error}")),
        },
        Kind::Millis => millis_word(shown, word),
        Kind::OutPath if word.is_empty() => {
            Err(format!("{shown} needs a file path, or `-` for stdout"))
        }
        _ => Ok(word),
    }
}

/// A [`Kind::Count`]'s value, or why `word` is none: an integer as mur reads one
/// (ASCII digits after at most one sign, `-0` being 0), within a `u64`. An integer
/// past it is "out of range", as the Python and JavaScript kits and mur's derived
/// verbs say it, naming the range as a derived verb does for a schema's `"minimum": 0`:
/// `-1` is told "at least 0" (not "from 0 to 18446744073709551615", whose top no one
/// typing `-1` is near), a number past the top the whole range.
fn count(word: &str) -> Result<u64, String> {
    let Some(digits) = integer_digits(word) else {
        return Err("needs a non-negative integer".to_owned());
    };
    match (word.starts_with('-'), digits.parse::<u64>()) {
        (false, Ok(n)) | (true, Ok(n @ 0)) => Ok(n),
        (true, _) => Err("is out of range: an integer at least 0".to_owned()),
        (false, Err(_)) => Err(format!(
            "is out of range: an integer from 0 to {}",
            u64::MAX
        )),
    }
}

/// A [`Kind::Number`]'s value as it is sent, or `Err` where `word` is none: a number as
/// mur reads one (a derived verb's `number` option; the Python and JavaScript kits'
/// kind `number`): ASCII digits after at most one sign, with a point and an exponent
/// (`-1.5e3`, `.5`, `2.`, [`number_json`]), finite (`1e400` is no JSON number). An
/// integer is sent exactly where an `i64` or `u64` holds it (`12`), else as a float, one
/// written without a point that is whole as an integer, as the Python kit sends it
/// (`1e3` is 1000, `2.0` 2.0). Read by serde_json, which the kit has anyway: Rust's
/// `f64::from_str` took `inf` and `NaN`, and made each verb 20 KB larger.
fn number(word: &str) -> Result<Value, ()> {
    if let Some(exact) = integer(word) {
        return Ok(exact);
    }
    let n: f64 = serde_json::from_str(&number_json(word).ok_or(())?).map_err(|_| ())?;
    // Whole and within an `i64` (2^63 is the first float past it): an integer.
    if n.fract() == 0.0 && !word.contains('.') && n.abs() < 9_223_372_036_854_775_808.0 {
        return Ok(Value::from(n as i64));
    }
    serde_json::Number::from_f64(n).map(Value::Number).ok_or(())
}

/// `word` as a JSON number, where it is a number as mur reads one (the Python kit's
/// `_NUMBER`: `[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?`), else `None`: a `+`
/// dropped, a point without a digit on a side given one (`.5` is `0.5`, `2.` `2.0`),
/// leading zeros dropped (`007.5` is `7.5`).
fn number_json(word: &str) -> Option<String> {
    let unsigned = word.strip_prefix(['+', '-']).unwrap_or(word);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |text: &str| text.bytes().all(|b| b.is_ascii_digit());
    let exponent_digits = exponent.map(|e| e.strip_prefix(['+', '-']).unwrap_or(e));
    let shaped = digits(whole)
        && digits(fraction)
        && !(whole.is_empty() && fraction.is_empty())
        && exponent_digits.is_none_or(|e| !e.is_empty() && digits(e));
    if !shaped {
        return None;
    }
    let mut json = String::with_capacity(word.len() + 2);
    if word.starts_with('-') {
        json.push('-');
    }
    // JSON takes no leading zero (`007.5`), which mur reads as 7.5.
    json.push_str(match whole.trim_start_matches('0') {
        "" => "0",
        whole => whole,
    });
    if mantissa.contains('.') {
        json.push('.');
        json.push_str(if fraction.is_empty() { "0" } else { fraction });
    }
    if let Some(exponent) = exponent {
        json.push('e');
        json.push_str(exponent);
    }
    Some(json)
}

/// A [`Kind::Integer`]'s value as it is sent, where `word` is one: an integer as mur
/// reads one ([`integer_digits`], `-0` being 0) that JSON holds exactly, an `i64` or a
/// `u64` ([`INTEGERS`]), as mur's derived verbs and the Python and JavaScript kits read
/// a schema's `integer`. Parsed as the integer types, never through a float, so
/// `18446744073709551615` is sent as typed.
fn integer(word: &str) -> Option<Value> {
    let digits = integer_digits(word)?;
    match word.starts_with('-') {
        true => word.parse::<i64>().ok().map(Value::from),
        false => digits.parse::<u64>().ok().map(Value::from),
    }
}

/// The integers a [`Kind::Integer`] takes, in the words the Python and JavaScript kits
/// refuse one past them with (after "is out of range: ").
const INTEGERS: &str = "an integer from -9223372036854775808 to 18446744073709551615";

/// The digits of `word` where it is an integer as mur reads one (Rust's `from_str`
/// of `i64` and `u64`: ASCII digits after at most one sign), else `None`.
fn integer_digits(word: &str) -> Option<&str> {
    let digits = word.strip_prefix(['+', '-']).unwrap_or(word);
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// The white space JSON allows around a value.
const JSON_SPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// Whether `text` is JSON the host takes: it parses the verb's arguments into a
/// `serde_json::Value`, so what that parse refuses must be refused here (exit 1 naming
/// the option), not sent (exit 6, blaming the verb). `RawValue` and `IgnoredAny` skip
/// over a value and so accept nesting deeper than serde_json's limit, a lone surrogate
/// escape (`"\ud800"`) and a number no `f64` holds (`1e400`); [`Checked`] asks for
/// each value as a `Value` parse does (`deserialize_any`: string decoding and number
/// parsing apply) and keeps nothing of it.
fn check_json(text: &str) -> Result<(), serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    // The arguments object around the option is the first level.
    Checked { depth: 1 }.deserialize(&mut deserializer)?;
    deserializer.end()
}

/// Any JSON value, walked as a `Value` parse walks it, with nothing built
/// ([`check_json`]); `depth` counts the arrays and objects around it in the arguments
/// the host parses, which may nest as deep as serde_json's limit: the option's own
/// parse would allow it one level more.
#[derive(Clone, Copy)]
struct Checked {
    depth: u8,
}

/// serde_json refuses a value's 128th level of arrays and objects.
const JSON_DEPTH: u8 = 128;

impl Checked {
    fn inner<E: serde::de::Error>(self) -> Result<Checked, E> {
        match self.depth + 1 {
            JSON_DEPTH => Err(E::custom("recursion limit exceeded")),
            depth => Ok(Checked { depth }),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Checked {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Checked {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let inner = self.inner()?;
        while seq.next_element_seed(inner)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let inner = self.inner()?;
        while map.next_key_seed(inner)?.is_some() {
            map.next_value_seed(inner)?;
        }
        Ok(())
    }
}

fn must_not_be_empty(kind: Kind) -> bool {
    matches!(kind, Kind::Selector | Kind::Name)
}

/// A value of [`Kind::Millis`] (`--timeout MS`) as mur reads its own `--timeout`
/// (`mur_core::settings::timeout_ms`, Rust's `u64` `from_str` of the text trimmed): ASCII
/// digits after at most a `+`, white space around them allowed, at least 1; here at most
/// `u32::MAX`, the interface's ceiling. The Python and JavaScript kits read it the same.
/// Else why not, in the host's words (`timeout_ms`'s), which [`millis_word`] puts after
/// the value and the option, as the host does.
fn millis(word: &str) -> Result<u32, String> {
    let text = word.trim();
    let digits = text.strip_prefix('+').unwrap_or(text);
    let digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u32>() {
        Ok(0) => Err("the bound must be at least 1 ms".to_owned()),
        Ok(ms) => Ok(ms),
        // Digits a u32 cannot hold: a positive number, past the interface's ceiling.
        Err(_) if digits => Err(format!(
            "the bound is at most {} ms (about 49 days)",
            u32::MAX
        )),
        _ => Err(format!(
            "`{word}` is not a whole number of milliseconds (e.g. `5000`)"
        )),
    }
}

/// `word` held to [`Kind::Millis`], refused in the words mur's host refuses its own
/// `--timeout` in before the verb's name (`named`: `` `--timeout <MS>` ``, `` `<pause>` ``),
/// so that one mistake reads alike wherever it is typed: an empty value is none.
fn millis_word(named: &str, word: String) -> Result<String, String> {
    if word.is_empty() {
        return Err(given_empty(named));
    }
    match millis(&word) {
        Ok(_) => Ok(word),
        Err(why) => Err(format!("invalid value `{word}` for {named}: {why}")),
    }
}

fn check_exclusive(spec: &Spec, args: &Args) -> Result<(), String> {
    for group in spec.exclusive {
        let given: Vec<&str> = group
            .iter()
            .copied()
            .filter(|name| args.flag(name))
            .collect();
        if let [first, second, ..] = given[..] {
            return Err(format!(
                "`--{first}` and `--{second}` cannot be used together"
            ));
        }
    }
    Ok(())
}

/// "`a`, `b` or `c`".
fn one_of(choices: &[&str]) -> String {
    let quoted: Vec<String> = choices.iter().map(|choice| format!("`{choice}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
}

/// `include-reactor-source` → `includeReactorSource`.
pub fn camel_case(name: &str) -> String {
    let mut words = name.split('-');
    let mut camel = words.next().unwrap_or_default().to_owned();
    for word in words {
        let mut letters = word.chars();
        if let Some(first) = letters.next() {
            camel.extend(first.to_uppercase());
            camel.push_str(letters.as_str());
        }
    }
    camel
}

fn into_string(word: std::ffi::OsString) -> Result<String, String> {
    word.into_string()
        .map_err(|word| format!("argument `{}` is not valid UTF-8", word.to_string_lossy()))
}

/// lexopt's own errors, reworded; only reachable for argv lexopt itself rejects.
fn lexer_message(error: lexopt::Error) -> String {
    match error {
        lexopt::Error::UnexpectedValue { option, value } => {
            format!(
                "`{option}` takes no value, got `{}`",
                value.to_string_lossy()
            )
        }
        other => other.to_string(),
    }
}
