//! What a verb declares about itself — summary, usage line, examples, each
//! positional and option — as kept in the verb index, and the `--help` text
//! the host renders from it, so every verb's help has the same sections and
//! no option goes undocumented. A `mur:verb@0.1.0` verb declares only a usage
//! text, which is printed as it is.

use serde::{Deserialize, Serialize};

use crate::bindings::{v2, v3};

/// What the words of a value are (`value-kind` in `wit/verb.wit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ValueKind {
    Flag,
    Text,
    Selector,
    Name,
    Choice,
    Integer,
    Number,
    Json,
    OutputPath,
    Milliseconds,
}

impl ValueKind {
    /// Its name as `wit/verb.wit` and `catalog --json` spell it (`output-path`).
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    }
}

/// One positional or option a verb accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Param {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub value_name: String,
    pub kind: ValueKind,
    pub help: String,
    #[serde(default)]
    pub required: bool,
    #[serde(default)]
    pub repeatable: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
}

impl Param {
    /// An optional parameter given at most once, with no fixed choices.
    pub fn new(
        name: impl Into<String>,
        value_name: impl Into<String>,
        kind: ValueKind,
        help: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            value_name: value_name.into(),
            kind,
            help: help.into(),
            required: false,
            repeatable: false,
            choices: Vec::new(),
        }
    }

    /// Whether the option takes a value (the next word, or `=VALUE`).
    pub fn takes_value(&self) -> bool {
        self.kind != ValueKind::Flag
    }
}

/// The marks a hand-made spec sets on a [`Param::new`] (in tests).
#[cfg(test)]
impl Param {
    pub(crate) fn required(self) -> Self {
        Self {
            required: true,
            ..self
        }
    }

    pub(crate) fn repeatable(self) -> Self {
        Self {
            repeatable: true,
            ..self
        }
    }
}

/// The structured part of the `info` of a `mur:verb@0.2.0`-or-later verb.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
// Every field may be missing (a verb declares what it has): each is then its default.
#[serde(rename_all = "camelCase", default)]
pub struct VerbSpec {
    /// The command line after `mur devtools`; empty: composed from the params.
    pub synopsis: String,
    pub details: String,
    pub examples: Vec<String>,
    pub positionals: Vec<Param>,
    pub options: Vec<Param>,
    /// The tool waits on a bound of its own, set by this argument: the host lowers
    /// it when its `--timeout` would end the call first. `None` for a verb that
    /// declares nothing (every verb before the declaration, which runs as before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waits: Option<ToolWait>,
    /// The option a word given without one is the value of (`wait-for '#x'` for
    /// `--selector`): a derived or data verb's, whose parser takes such a word. Said
    /// here for what reads the spec alone: the hint that the shell may have dropped an
    /// unquoted `#selector` (`wait-for #x`, a comment). `None` for a component verb, whose
    /// lone word is a positional it declares.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lone: Option<String>,
}

/// One value a command line gives a param ([`VerbSpec::given`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Given<'s, 'a> {
    pub param: &'s Param,
    /// Whether it is an option's (`--out PATH`), not a positional's.
    pub option: bool,
    /// Where in argv the word that holds it is.
    pub at: usize,
    /// Whether that word is `--name=VALUE`, not the value alone.
    pub inline: bool,
    /// The value, as typed.
    pub value: &'a str,
}

/// A param as a list of what a verb takes names it ([`VerbSpec::listed`]): once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listed<'s> {
    pub param: &'s Param,
    /// A word without an option gives it (`click '#btn-inc'`).
    pub positional: bool,
    /// `--NAME VALUE` gives it (`click --selector '#btn-inc'`).
    pub option: bool,
}

/// What a verb declares of a tool that waits on a bound of its own (`waitFor`
/// polls until its `timeoutMs` passes, then answers that it timed out): which
/// argument sets that bound, in milliseconds, and what the tool waits when the
/// argument is not sent. A component declares it in its custom section
/// [`ToolWait::SECTION`], outside `mur:verb@0.3.0`'s `verb-info` (whose record a
/// new field would make a new interface version), so every verb keeps loading.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolWait {
    /// The tool's argument, as the tool names it (`timeoutMs`).
    pub argument: String,
    /// The tool's own default, when the argument is not sent.
    pub default_ms: u32,
}

impl ToolWait {
    /// The custom section a component declares it in: `ARGUMENT=MS` in UTF-8
    /// (`timeoutMs=5000`); empty, or no section, declares nothing.
    pub const SECTION: &str = "mur:verb-waits";

    /// The declaration a section's contents hold, or what is wrong with them.
    pub fn from_section(data: &[u8]) -> Result<Option<Self>, String> {
        if data.is_empty() {
            return Ok(None);
        }
        let section = Self::SECTION;
        let text = std::str::from_utf8(data)
            .map_err(|_| format!("its `{section}` section is not UTF-8"))?;
        let declared = text.split_once('=').and_then(|(argument, ms)| {
            let usable = !argument.is_empty()
                && argument.len() <= 128
                && !argument
                    .chars()
                    .any(|c| c.is_control() || c.is_whitespace());
            let default_ms = ms.parse().ok()?;
            usable.then(|| Self {
                argument: argument.to_owned(),
                default_ms,
            })
        });
        match declared {
            Some(waits) => Ok(Some(waits)),
            None => Err(format!(
                "its `{section}` section is not `ARGUMENT=MS` (a tool argument's name, \
                 then a whole number of milliseconds): {text:?}"
            )),
        }
    }
}

impl VerbSpec {
    /// Each param once, by its name, with the ways it is given: a positional with an
    /// option form (a kit's `positional(…, option="S")`, declared as the positional
    /// `<selector>` and the option `--selector S`, "the same as `<selector>`") is one
    /// param given both ways, with the positional's help; so is the option a lone word
    /// gives ([`Self::lone`]: a derived verb's `click <selector>`). The catalog listed
    /// a kit's `click` as two params named `selector`, and a derived `click`'s
    /// `selector` as no positional under a usage line of `click <selector>`.
    pub fn listed(&self) -> Vec<Listed<'_>> {
        let positionals: std::collections::HashSet<&str> =
            self.positionals.iter().map(|p| p.name.as_str()).collect();
        let options: std::collections::HashSet<&str> =
            self.options.iter().map(|o| o.name.as_str()).collect();
        let positional = self.positionals.iter().map(|param| Listed {
            param,
            positional: true,
            option: options.contains(param.name.as_str()),
        });
        let option = self
            .options
            .iter()
            .filter(|o| !positionals.contains(o.name.as_str()))
            .map(|param| Listed {
                param,
                positional: self.lone.as_deref() == Some(param.name.as_str()),
                option: true,
            });
        positional.chain(option).collect()
    }

    /// What it declares that no command line could use, if anything: an option whose
    /// name is not [`usable_name`], a positional with no name (its name is only shown,
    /// `<Component>.<event>`), two params of one name, choices no value is held to
    /// ([`unkept_choices`]), an option `help` (the host's own `-h, --help`), or a wait
    /// on one of its own words ([`Self::wait_on_words`]). A data verb's options are
    /// checked as they are made too.
    pub fn unusable(&self) -> Option<String> {
        for (kind, params) in [("positional", &self.positionals), ("option", &self.options)] {
            let mut seen = std::collections::HashSet::new();
            for param in params {
                let name = &param.name;
                if kind == "option" && !usable_name(name) {
                    return Some(format!(
                        "option {}, which no command line can give: an option's name starts \
                         with a letter or a digit and holds only letters, digits, `-`, `_` and `.`",
                        named(name)
                    ));
                }
                if name.trim().is_empty() {
                    return Some("a positional with no name for its usage to show".to_owned());
                }
                if !seen.insert(name.as_str()) {
                    return Some(format!("two {kind}s named `{name}`"));
                }
                if let Some(why) = unkept_choices(param, kind == "option") {
                    return Some(why);
                }
            }
        }
        if self.option("help").is_some() {
            return Some("option `help`, which is the host's own `-h, --help`".to_owned());
        }
        self.waits
            .as_ref()
            .and_then(|waits| self.wait_on_words(waits))
    }

    /// A wait on the key one of its own params is sent under, when that param's value
    /// is no number of milliseconds: the host writes one into the wait's argument
    /// ([`ToolWait`]), so each call sent a number for a text (`--text`: "expected a
    /// string", a number nobody typed), or found a word there and left the wait as it
    /// was (`<selector>`: the declaration did nothing). Nor on a `milliseconds` param's
    /// (but `--timeout`'s): the kits never send such a value, so the user's
    /// `--timeout-ms 1000` was dropped and the tool waited what the verb's own
    /// `--timeout` gave it. The spec does not say which key a param is sent under, nor
    /// whether it is sent at all (a Rust `Kind::Local`, a Python `send=False`, is
    /// declared as `text`); the kits' rule is judged: an option under its name in
    /// camelCase (`--timeout-ms` as `timeoutMs`), a positional under its name. Keys are
    /// compared exactly, as the host writes the wait's (`Text` is not `text`): a verb
    /// that sends a param under another key is not refused for a near name.
    ///
    /// The kits (plugins/kit/src/info.rs, the scaffolds' kit.py and kit.js) say these
    /// sentences word for word at build: a change here is a change there.
    fn wait_on_words(&self, waits: &ToolWait) -> Option<String> {
        let options = self.options.iter().map(|p| (p, camel_case(&p.name), true));
        let (p, option) = self
            .positionals
            .iter()
            .map(|p| (p, p.name.clone(), false))
            .chain(options)
            .find(|(_, key, _)| *key == waits.argument)
            .map(|(p, _, option)| (p, option))?;
        let section = ToolWait::SECTION;
        let argument = &waits.argument;
        let named = param_named(p, option);
        match p.kind {
            ValueKind::Integer => None,
            ValueKind::Milliseconds if option && p.name == "timeout" => None,
            ValueKind::Milliseconds => Some(format!(
                "a wait (`{section}`) on `{argument}`, the key its {named} of kind \
                 `milliseconds` would be sent under, but a milliseconds value is never sent: \
                 the wait's value is the verb's own `--timeout MS`; drop `{}`, or give it kind \
                 `integer`",
                param_shown(p, option)
            )),
            kind => Some(format!(
                "a wait (`{section}`) on `{argument}`, the argument its {named} of kind `{}` \
                 is sent as: the host sets a wait's argument to a number of milliseconds, so it \
                 must be a key no param of the verb declares, or an `integer` param's",
                kind.name()
            )),
        }
    }

    /// The declared option named `name` (without `--`).
    pub fn option(&self, name: &str) -> Option<&Param> {
        self.options.iter().find(|o| o.name == name)
    }

    /// Each value `argv` gives a param, read as the kits read argv: long options,
    /// `--name=VALUE` or a value in the word after an option that takes one (`--window
    /// -- --out -` gives it `--`; one of the verb's options or mur's, `--window --out -`,
    /// is taken here as the window `--out`, so nothing is read or refused for `--out`,
    /// and the kits refuse it as a value left out), words in order for the positionals
    /// (the last one repeatable), all words after a `--` that is no option's value
    /// positional. An option it does not declare is passed over (the verb refuses it).
    pub fn given<'s, 'a>(&'s self, argv: &'a [String]) -> Vec<Given<'s, 'a>> {
        let mut found = Vec::new();
        let mut words = argv.iter().map(String::as_str).enumerate();
        let mut positional = 0;
        let mut options_ended = false;
        while let Some((at, word)) = words.next() {
            let long = word.strip_prefix("--").filter(|_| !options_ended);
            let (param, value, inline) = match long {
                Some("") => {
                    options_ended = true;
                    continue;
                }
                Some(long) => {
                    let (name, inline) = match long.split_once('=') {
                        Some((name, value)) => (name, Some(value)),
                        None => (long, None),
                    };
                    let Some(option) = self.option(name) else {
                        continue;
                    };
                    let value = match inline {
                        Some(value) => Some((at, value)),
                        None if option.takes_value() => words.next(),
                        None => None,
                    };
                    (option, value, inline.is_some())
                }
                None => {
                    let Some(param) = self
                        .positionals
                        .get(positional)
                        .or_else(|| self.positionals.last().filter(|last| last.repeatable))
                    else {
                        continue;
                    };
                    positional += 1;
                    (param, Some((at, word)), false)
                }
            };
            if let Some((at, value)) = value {
                found.push(Given {
                    param,
                    option: long.is_some(),
                    at,
                    inline,
                    value,
                });
            }
        }
        found
    }

    /// Every text in it, for the index's size cap.
    pub(crate) fn texts(&self) -> impl Iterator<Item = &str> {
        let params = self.positionals.iter().chain(&self.options);
        [self.synopsis.as_str(), self.details.as_str()]
            .into_iter()
            .chain(self.waits.iter().map(|w| w.argument.as_str()))
            .chain(self.examples.iter().map(String::as_str))
            .chain(params.flat_map(|p| {
                [p.name.as_str(), p.value_name.as_str(), p.help.as_str()]
                    .into_iter()
                    .chain(p.choices.iter().map(String::as_str))
            }))
    }

    /// `mur devtools <name> --help`: usage line, summary, details, arguments,
    /// options (with `-h, --help`, which the host answers) and examples, [`wrapped`].
    pub fn render(&self, name: &str, summary: &str) -> String {
        self.render_with(name, summary, &[])
    }

    /// [`Self::render`] and, after it, `notes`: paragraphs the host adds to a verb's
    /// help (a derived verb's `@FILE`, `null` and `--out`), wrapped with the rest,
    /// so that every help mur renders is wrapped in one place and one way.
    pub fn render_with(&self, name: &str, summary: &str, notes: &[String]) -> String {
        let mut text = format!("{}{}\n", self.usage_line(name), summary.trim_end());
        if !self.details.trim().is_empty() {
            text += &format!("\n{}\n", self.details.trim_end());
        }
        text += &self.parameters();
        for note in notes {
            text += &format!("\n{}\n", note.trim_end());
        }
        wrapped(&text)
    }

    /// What a usage error shows under its message: the help without its prose
    /// (summary and details), which the caller has read or can ask for with
    /// `--help`: a tool's description may run to pages, and every slip would
    /// repeat it into an agent's context. Wrapped as the help is.
    pub fn render_brief(&self, name: &str) -> String {
        wrapped(&(self.usage_line(name) + self.parameters().trim_start_matches('\n')))
    }

    /// `Usage: mur devtools …` and a blank line.
    fn usage_line(&self, name: &str) -> String {
        format!("Usage: {}\n\n", self.usage(name))
    }

    /// The help's usage line without its `Usage: ` (`mur devtools tree [<selector>] …`),
    /// never wrapped: what the catalog lists, made without the rest of the help (a
    /// catalog of 10,000 derived verbs rendered and wrapped each one's whole help to
    /// keep its first line).
    pub fn usage(&self, name: &str) -> String {
        let synopsis = match self.synopsis.trim() {
            "" => self.composed_synopsis(name),
            given => given.to_owned(),
        };
        format!("mur devtools {synopsis}")
    }

    /// The option a word given without one is the value of ([`Self::lone`]).
    fn lone_option(&self) -> Option<&Param> {
        self.lone.as_deref().and_then(|name| self.option(name))
    }

    /// The arguments, options and examples sections, each after a blank line. The
    /// option a lone word gives ([`Self::lone`]) is listed in both, as a kit lists a
    /// param it takes in two forms: required, the word first with the option's help
    /// (`<selector>`, and `--selector S  the same as `<selector>``, as `click`'s);
    /// else the option with its help, and `[<selector>]  the same as `--selector S``
    /// (as `state`'s).
    fn parameters(&self) -> String {
        let mut text = String::new();
        let lone = self.lone_option();
        let lone_word = lone.map(|o| match o.required {
            true => (format!("<{}>", o.name), param_help(o, true)),
            false => (
                format!("[<{}>]", o.name),
                format!("the same as `{}`", cut(&option_label(o))),
            ),
        });
        let arguments: Vec<(String, String)> = self
            .positionals
            .iter()
            .map(|p| (positional_label(p), param_help(p, false)))
            .chain(lone_word)
            .collect();
        if !arguments.is_empty() {
            text += &section("Arguments", &arguments);
        }
        let options: Vec<(String, String)> = self
            .options
            .iter()
            .map(|o| match lone {
                Some(lone) if lone.name == o.name && o.required => (
                    option_label(o),
                    format!("the same as `{}`", cut(&format!("<{}>", o.name))),
                ),
                _ => (option_label(o), param_help(o, true)),
            })
            .chain([("-h, --help".to_owned(), "print this help".to_owned())])
            .collect();
        text += &section("Options", &options);
        if !self.examples.is_empty() {
            text += "\nExamples:\n";
            for example in &self.examples {
                text += &format!("  {example}\n");
            }
        }
        text
    }

    /// `name <a> <b> [--x V] [--flag] [--tag T]...` for a verb that gave no usage line;
    /// each label as the sections show it ([`shown_label`]), on one line. A repeatable
    /// option is followed by `...` outside its brackets, docopt's way (`[--tag T]...`,
    /// a required one `(--via HOST)...`): one value per `--tag`, which is how mur
    /// takes it. Inside them (`[--tag T...]`) it would read, as clap and argparse
    /// write it, as several values after one `--tag` (`--tag a b`, refused), and
    /// `[--tag a|b...]` as a choice named `b...`.
    fn composed_synopsis(&self, name: &str) -> String {
        let mut words = vec![name.to_owned()];
        words.extend(
            self.positionals
                .iter()
                .map(|p| shown_label(&positional_label(p))),
        );
        // The option a lone word gives, as that word, once: as the kits' line shows
        // an argument in its first form (`state [<selector>]`, `click <selector>`).
        let lone = self.lone_option();
        words.extend(lone.map(|o| {
            // Cut inside its brackets, which a cut label would lose.
            let word = format!("<{}>", shown_label(&o.name));
            match o.required {
                true => word,
                false => format!("[{word}]"),
            }
        }));
        let others = self
            .options
            .iter()
            .filter(|o| lone.is_none_or(|lone| lone.name != o.name));
        for option in others {
            let label = shown_label(&option_label(option));
            words.push(match (option.required, option.repeatable) {
                (true, false) => label,
                (false, false) => format!("[{label}]"),
                (true, true) => format!("({label})..."),
                (false, true) => format!("[{label}]..."),
            });
        }
        words.join(" ")
    }
}

/// Whether `name` can name a param on a command line (`--name`, `<name>`): a letter
/// or a digit first, then letters, digits, `-`, `_` or `.` (`item-selector`, `dx`).
/// No dash first, no space, no `=`: the shell and `--name=value` would split it.
pub fn usable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(char::is_alphanumeric)
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Choices a command line is not held to: on a param of another kind than `choice`,
/// whose value is sent whatever it is while `catalog --json` tells an agent the
/// values are restricted; or none on a `choice`, which then refused every value
/// ("must be , got `x`").
fn unkept_choices(p: &Param, option: bool) -> Option<String> {
    let named = param_named(p, option);
    match (p.kind, p.choices.is_empty()) {
        (ValueKind::Choice, true) => Some(format!(
            "{named} of kind `choice` with no choices, which would refuse every value: \
             give it its choices, or another kind"
        )),
        (ValueKind::Choice, false) | (_, true) => None,
        (kind, false) => Some(format!(
            "choices for {named}, of kind `{}`: only a `choice` param is held to its \
             choices; make it kind `choice`, or leave out its choices",
            kind.name()
        )),
    }
}

/// `name` in camelCase, as the kits send an option (`wait-idle` as `waitIdle`), by the
/// Rust kit's rule (`camel_case` in plugins/kit, which cannot share this crate's code):
/// a letter after `-` upper-cased by Unicode's rule, not ASCII's alone.
pub(crate) fn camel_case(name: &str) -> String {
    let mut words = name.split('-');
    let first = words.next().unwrap_or_default().to_owned();
    words.fold(first, |mut key, word| {
        let mut chars = word.chars();
        key.extend(chars.next().into_iter().flat_map(char::to_uppercase));
        key.push_str(chars.as_str());
        key
    })
}

/// `option `--mode`` or `positional `<path>``, for a message about a param.
fn param_named(p: &Param, option: bool) -> String {
    match option {
        true => format!("option `{}`", param_shown(p, option)),
        false => format!("positional `{}`", param_shown(p, option)),
    }
}

/// `--name` or `<name>`, as a param is shown in its verb's usage.
fn param_shown(p: &Param, option: bool) -> String {
    match option {
        true => format!("--{}", p.name),
        false => format!("<{}>", p.name),
    }
}

/// `named `x`` or `with an empty name`, for a message about a param.
fn named(name: &str) -> String {
    if name.is_empty() {
        "with an empty name".to_owned()
    } else {
        format!("named `{name}`")
    }
}

/// `details`, then a line naming the tool a verb calls and its hints, the
/// one wording of it in every verb's help: ``Tool `reload`: destructive.``
pub fn with_tool_line(details: &str, tool: &str, hints: &[String]) -> String {
    let line = match hints {
        [] => format!("Tool `{tool}`."),
        hints => format!("Tool `{tool}`: {}.", hints.join(", ")),
    };
    format!("{}\n\n{line}", details.trim())
        .trim_start()
        .to_owned()
}

fn positional_label(p: &Param) -> String {
    let label = format!("<{}>", p.name);
    match (p.required, p.repeatable) {
        (true, false) => label,
        (true, true) => format!("{label}..."),
        (false, false) => format!("[{label}]"),
        (false, true) => format!("[{label}...]"),
    }
}

fn option_label(o: &Param) -> String {
    let value = match (o.takes_value(), o.value_name.as_str(), choices_label(o)) {
        (false, _, _) => String::new(),
        (true, _, Some(choices)) => format!(" {choices}"),
        (true, "", None) => " VALUE".to_owned(),
        (true, placeholder, None) => format!(" {placeholder}"),
    };
    format!("--{}{value}", o.name)
}

/// The longest `a|b|c` an option's label shows its choices as (a derived verb's
/// `--component counter|todo|settings`); more go in the help column.
const CHOICES_LABEL_CHARS: usize = 40;

/// An option's choices as its value's label (`json|text`, each as a shell reads it
/// back: `'New York'`), when it declares a few; `None` when its placeholder already
/// lists them (`summary|full`, a derived verb's) or they are too many for a label.
fn choices_label(p: &Param) -> Option<String> {
    if !has_choices(p) || p.value_name.contains('|') {
        return None;
    }
    let words: Vec<String> = p.choices.iter().map(|c| choice_word(c)).collect();
    let joined = words.join("|");
    (joined.chars().count() <= CHOICES_LABEL_CHARS).then_some(joined)
}

/// A choice as a shell reads it back: quoted when it must be (`'New York'`), as
/// `$'…'` when it holds what a terminal would obey (the escape inside single quotes
/// would be typed as a backslash and a `u`).
fn choice_word(choice: &str) -> String {
    if choice.chars().any(mur_core::text::unprintable) {
        mur_core::text::ansi_c_quoted(choice.as_bytes())
    } else {
        mur_core::shell_word(choice)
    }
}

/// Whether the help must show `p`'s choices: it declares them.
fn has_choices(p: &Param) -> bool {
    p.kind == ValueKind::Choice && !p.choices.is_empty()
}

/// Whether an option's label shows its choices: as [`choices_label`] makes it, or
/// in a placeholder that lists them.
fn label_shows_choices(o: &Param) -> bool {
    o.value_name.contains('|') || choices_label(o).is_some()
}

/// The most choices a help names; past them it says how many there are and where
/// they are all listed (a tool's `enum` may hold 100,000).
const CHOICES_SHOWN: usize = 12;
/// The most characters of the choices a help names.
const CHOICES_CHARS: usize = 200;
/// The longest choice a help names: a longer one is counted, not named (one of 150
/// characters ran its option's help line to 170 columns, as no line break cuts a word).
const CHOICE_CHARS: usize = 40;

/// What a param's help adds to what it declares, which the help may not say: the
/// choices its label does not show (the first few, when they are many), whether it
/// repeats. Repeatable first: the choices' commas end the list. `option`: an option's
/// label may show its choices, a positional's (`<mode>`) never does.
pub(crate) fn added(p: &Param, option: bool) -> Vec<String> {
    let mut notes = Vec::new();
    if p.repeatable {
        notes.push("repeatable".to_owned());
    }
    if has_choices(p) && !(option && label_shows_choices(p)) {
        let mut words: Vec<String> = Vec::new();
        for choice in &p.choices {
            let word = choice_word(choice);
            if word.chars().count() > CHOICE_CHARS {
                continue;
            }
            if words.len() == CHOICES_SHOWN
                || words.iter().map(|w| w.chars().count() + 2).sum::<usize>() + word.chars().count()
                    > CHOICES_CHARS
            {
                break;
            }
            words.push(word);
        }
        let all = p.choices.len();
        let note = match words.as_slice() {
            named if named.len() == all => format!("one of: {}", words.join(", ")),
            [] if all == 1 => "1 choice; `catalog --json` lists it".to_owned(),
            [] => format!("{all} choices; `catalog --json` lists them"),
            named => format!(
                "one of: {}, … {all} choices; `catalog --json` lists them",
                named.join(", ")
            ),
        };
        notes.push(note);
    }
    notes
}

/// `help` and what mur adds to it, in one parenthesis: `Number of links (1–10, default
/// 3)`; `help` alone when nothing is added. No leading space for a param without help:
/// it would stand out of the column.
pub(crate) fn with_added(help: &str, added: &[String]) -> String {
    let help = help.trim();
    match (help, added.join(", ")) {
        (_, added) if added.is_empty() => help.to_owned(),
        ("", added) => format!("({added})"),
        (help, added) => format!("{help} ({added})"),
    }
}

/// The param's help, with what a reader needs that the help may not say ([`added`]),
/// unless the help ends with it already, as a derived verb's does (its one parenthesis
/// holds what mur adds: [`with_added`]).
fn param_help(p: &Param, option: bool) -> String {
    let added = added(p, option);
    let help = p.help.trim();
    if added.is_empty() || help.ends_with(&format!("{})", added.join(", "))) {
        return help.to_owned();
    }
    with_added(help, &added)
}

/// A titled two-column list, the help column aligned: as shown, each label's and
/// help's [`unprintable`](mur_core::text::unprintable) characters written as their
/// escapes before the label is measured (escaped later, a label with one pushed its
/// help out of the column).
fn section(title: &str, rows: &[(String, String)]) -> String {
    let shown =
        |text: &str| mur_core::text::escaped(text, mur_core::text::unprintable).into_owned();
    let rows: Vec<(String, String)> = rows
        .iter()
        .map(|(l, h)| (shown_label(l), shown(h)))
        .collect();
    let rows = rows.as_slice();
    // In characters, as `format!` pads: a choice may be written in any script.
    // A label too long for the column (many choices, a long name) is followed by its
    // help where it ends, and does not push every other row's help out with it.
    let width = rows
        .iter()
        .map(|(label, _)| label.chars().count())
        .filter(|chars| *chars <= COLUMN_CHARS)
        .max()
        .unwrap_or(0);
    let mut text = format!("\n{title}:\n");
    for (label, help) in rows {
        text += format!("  {label:width$}  {help}").trim_end();
        text += "\n";
    }
    text
}

/// The most characters of a label (`--name VALUE`) a help shows: a schema may name a
/// property with 100,000 characters, which once made the help's padding panic.
const LABEL_CHARS: usize = 80;
/// The widest the label column of a help grows.
const COLUMN_CHARS: usize = 40;

/// A label as a help shows it: its [`unprintable`](mur_core::text::unprintable)
/// characters written as their escapes (a newline in a property's name would break
/// the usage line), and cut with `…` past [`LABEL_CHARS`].
fn shown_label(label: &str) -> String {
    cut(&mur_core::text::escaped(label, mur_core::text::unprintable))
}

/// `label` cut with `…` past [`LABEL_CHARS`], as a label is shown ([`shown_label`]):
/// also where a help names another label (`the same as `--name TEXT``).
fn cut(label: &str) -> String {
    match label.char_indices().nth(LABEL_CHARS) {
        Some((at, _)) => format!("{}…", &label[..at]),
        None => label.to_owned(),
    }
}

/// The widest a verb's help runs, as the standard verbs' is written (their details
/// are wrapped to it; only their usage lines and examples, commands to copy whole,
/// run past it): a derived verb's description and options, a data verb's, and a
/// usage error's list are wrapped to it when rendered.
pub const HELP_COLUMNS: usize = 80;

/// `help` with each line longer than [`HELP_COLUMNS`] broken between words: prose
/// flush with where the line starts, an argument's or option's help under its
/// section's help column. The usage line and the examples are commands, copied
/// whole: they are left as they are, as is a word longer than a line. A format
/// character (a zero-width space, a tag: a server's description may hold them) is
/// written as an escape ([`escape_format`](mur_core::text::escape_format)) first, so
/// that the help shows all it says and its widths count what is shown.
fn wrapped(help: &str) -> String {
    let help = mur_core::text::escape_format(help);
    let mut lines = Vec::new();
    let mut section = "";
    for line in help.lines() {
        match line {
            "" => section = "",
            "Arguments:" | "Options:" | "Examples:" => section = line,
            _ => {}
        }
        let command = line.starts_with("Usage: ") || section == "Examples:";
        if command || line.chars().count() <= HELP_COLUMNS {
            lines.push(line.to_owned());
            continue;
        }
        let row = matches!(section, "Arguments:" | "Options:");
        lines.extend(broken(line, hanging(line, row)));
    }
    let mut text = lines.join("\n");
    if help.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// Where a long `line`'s words start, in characters (after its indent, or a section
/// row's label and the spaces that pad it), and where the lines it is broken into
/// continue: under those words, or under a label that runs past half a line.
fn hanging(line: &str, row: bool) -> (usize, usize) {
    let indent = line.len() - line.trim_start().len();
    if !row {
        return (indent, indent);
    }
    let label_end = line[indent..]
        .find("  ")
        .map_or(line.len(), |at| indent + at);
    let words = line[label_end..]
        .find(|c: char| c != ' ')
        .map_or(line.len(), |at| label_end + at);
    let words = line[..words].chars().count();
    match words <= HELP_COLUMNS / 2 {
        true => (words, words),
        false => (words, indent + 4),
    }
}

/// `line` broken between words into lines of at most [`HELP_COLUMNS`] characters (a
/// longer word alone on its line): its first `words` characters kept as they are,
/// the lines after it indented by `column`.
fn broken(line: &str, (words, column): (usize, usize)) -> Vec<String> {
    let head_end = line
        .char_indices()
        .nth(words)
        .map_or(line.len(), |(at, _)| at);
    let (head, rest) = line.split_at(head_end);
    let mut lines = Vec::new();
    let mut current = head.to_owned();
    let mut filled = false;
    for word in rest.split(' ').filter(|word| !word.is_empty()) {
        let width = current.chars().count() + usize::from(filled) + word.chars().count();
        if filled && width > HELP_COLUMNS {
            lines.push(std::mem::replace(&mut current, " ".repeat(column)));
            filled = false;
        }
        if filled {
            current.push(' ');
        }
        current.push_str(word);
        filled = true;
    }
    lines.push(current);
    lines
}

/// `VerbSpec::from(&info)` for the `verb-info` of each world that declares
/// one: 0.2.0 and 0.3.0 have the same record, each in types of its own.
macro_rules! from_wit {
    ($($world:ident),*) => {$(
        impl From<&$world::VerbInfo> for VerbSpec {
            fn from(info: &$world::VerbInfo) -> Self {
                use $world::mur::verb::types::{Param as P, ValueKind as W};
                let param = |p: &P| Param {
                    name: p.name.clone(),
                    value_name: p.value_name.clone(),
                    kind: match p.kind {
                        W::Flag => ValueKind::Flag,
                        W::Text => ValueKind::Text,
                        W::Selector => ValueKind::Selector,
                        W::Name => ValueKind::Name,
                        W::Choice => ValueKind::Choice,
                        W::Integer => ValueKind::Integer,
                        W::Number => ValueKind::Number,
                        W::Json => ValueKind::Json,
                        W::OutputPath => ValueKind::OutputPath,
                        W::Milliseconds => ValueKind::Milliseconds,
                    },
                    help: p.help.clone(),
                    required: p.required,
                    repeatable: p.repeatable,
                    choices: p.choices.clone(),
                };
                Self {
                    synopsis: info.usage.clone(),
                    details: info.details.clone(),
                    examples: info.examples.clone(),
                    positionals: info.positionals.iter().map(param).collect(),
                    options: info.options.iter().map(param).collect(),
                    // Not in `verb-info`: read from the component's own section.
                    waits: None,
                    lone: None,
                }
            }
        }
    )*};
}

from_wit!(v2, v3);

#[cfg(test)]
mod tests {
    use super::*;

    /// What an author's typo declares is named, whichever param it is in.
    #[test]
    fn params_no_command_line_could_use_are_named() {
        let option = |name: &str| Param::new(name, "", ValueKind::Flag, "");
        let with = |positionals: Vec<Param>, options: Vec<Param>| VerbSpec {
            positionals,
            options,
            ..VerbSpec::default()
        };
        let rule = "which no command line can give: an option's name starts with a letter or a \
                    digit and holds only letters, digits, `-`, `_` and `.`";
        for (spec, why) in [
            (
                with(vec![], vec![option("--clear")]),
                format!("option named `--clear`, {rule}"),
            ),
            (
                with(vec![], vec![option("")]),
                format!("option with an empty name, {rule}"),
            ),
            (
                with(vec![option(" ")], vec![]),
                "a positional with no name for its usage to show".to_owned(),
            ),
            (
                with(vec![], vec![option("x=1")]),
                format!("option named `x=1`, {rule}"),
            ),
            (
                with(vec![], vec![option("clear"), option("clear")]),
                "two options named `clear`".to_owned(),
            ),
            (
                with(vec![option("a"), option("a")], vec![]),
                "two positionals named `a`".to_owned(),
            ),
            (
                with(vec![], vec![option("help")]),
                "option `help`, which is the host's own `-h, --help`".to_owned(),
            ),
        ] {
            assert_eq!(spec.unusable(), Some(why));
        }
        // What the standard verbs and derived verbs declare is fine; a positional and
        // an option may share a name (`<selector>` and `--selector` never meet).
        let fine = with(
            vec![
                option("item-selector"),
                option("ünï"),
                option("Component>.<event"),
            ],
            vec![option("dx_2.5"), option("timeout"), option("item-selector")],
        );
        assert_eq!(fine.unusable(), None);
    }

    /// Choices are kept to only on a `choice`, which must have some; a wait's argument
    /// is a number of milliseconds the host writes, so none of the verb's own words.
    #[test]
    fn choices_no_value_is_held_to_and_a_wait_on_a_word_are_named() {
        let param = |name: &str, kind, choices: &[&str]| Param {
            choices: choices.iter().map(|c| (*c).to_owned()).collect(),
            ..Param::new(name, "X", kind, "")
        };
        // "": none declared.
        let waits = |argument: &str| {
            (!argument.is_empty()).then(|| ToolWait {
                argument: argument.to_owned(),
                default_ms: 5000,
            })
        };
        let spec = |positionals: Vec<Param>, options: Vec<Param>, argument: &str| VerbSpec {
            positionals,
            options,
            waits: waits(argument),
            ..VerbSpec::default()
        };
        // A verb of one option, `name` of `kind`, and a wait on `argument`.
        let one_option = |name: &str, kind: ValueKind, argument: &str| {
            spec(vec![], vec![param(name, kind, &[])], argument)
        };
        let text = || param("text", ValueKind::Text, &[]);
        let selector = || param("selector", ValueKind::Selector, &[]);
        let wait_rule = "the host sets a wait's argument to a number of milliseconds, so it \
                         must be a key no param of the verb declares, or an `integer` param's";
        let never_sent = |drop: &str| {
            format!(
                "would be sent under, but a milliseconds value is never sent: the wait's value \
                 is the verb's own `--timeout MS`; drop `{drop}`, or give it kind `integer`"
            )
        };
        for (spec, why) in [
            (
                spec(
                    vec![],
                    vec![param("text", ValueKind::Text, &["1", "2"])],
                    "",
                ),
                "choices for option `--text`, of kind `text`: only a `choice` param is held \
                 to its choices; make it kind `choice`, or leave out its choices"
                    .to_owned(),
            ),
            (
                spec(vec![param("n", ValueKind::Integer, &["1"])], vec![], ""),
                "choices for positional `<n>`, of kind `integer`: only a `choice` param is held \
                 to its choices; make it kind `choice`, or leave out its choices"
                    .to_owned(),
            ),
            (
                one_option("mode", ValueKind::Choice, ""),
                "option `--mode` of kind `choice` with no choices, which would refuse every \
                 value: give it its choices, or another kind"
                    .to_owned(),
            ),
            (
                spec(vec![selector()], vec![text()], "text"),
                format!(
                    "a wait (`mur:verb-waits`) on `text`, the argument its option `--text` of \
                     kind `text` is sent as: {wait_rule}"
                ),
            ),
            (
                spec(vec![selector()], vec![text()], "selector"),
                format!(
                    "a wait (`mur:verb-waits`) on `selector`, the argument its positional \
                     `<selector>` of kind `selector` is sent as: {wait_rule}"
                ),
            ),
            (
                one_option("after-ms", ValueKind::Number, "afterMs"),
                format!(
                    "a wait (`mur:verb-waits`) on `afterMs`, the argument its option \
                     `--after-ms` of kind `number` is sent as: {wait_rule}"
                ),
            ),
            // A milliseconds value is never sent: the user's `--timeout-ms` was dropped.
            (
                one_option("timeout-ms", ValueKind::Milliseconds, "timeoutMs"),
                format!(
                    "a wait (`mur:verb-waits`) on `timeoutMs`, the key its option \
                     `--timeout-ms` of kind `milliseconds` {}",
                    never_sent("--timeout-ms")
                ),
            ),
            (
                spec(
                    vec![param("delay", ValueKind::Milliseconds, &[])],
                    vec![],
                    "delay",
                ),
                format!(
                    "a wait (`mur:verb-waits`) on `delay`, the key its positional `<delay>` \
                     of kind `milliseconds` {}",
                    never_sent("<delay>")
                ),
            ),
        ] {
            assert_eq!(spec.unusable(), Some(why));
        }
        // A wait on an argument no param fills (`wait`'s `timeoutMs`, set by the kit's
        // `--timeout`), or one an integer param fills, or the kit's own `--timeout`
        // (whose value is the wait's), is fine.
        // Nor is one on a key no param is sent under, however near its name (`Text`,
        // `timeout_ms`: the kits send `text`, `timeoutMs`).
        let near = ["timeoutMs2", "timeout_ms", "Text", "Selector"];
        let numbers = [
            (ValueKind::Integer, "timeoutMs"),
            (ValueKind::Text, "timeout"),
        ];
        for (kind, argument) in numbers
            .into_iter()
            .chain(near.map(|a| (ValueKind::Text, a)))
        {
            let fine = spec(
                vec![selector()],
                vec![
                    text(),
                    param("timeout-ms", kind, &[]),
                    param("mode", ValueKind::Choice, &["a", "b"]),
                    param("timeout", ValueKind::Milliseconds, &[]),
                ],
                argument,
            );
            assert_eq!(fine.unusable(), None, "{kind:?} {argument}");
        }
    }

    #[test]
    fn a_repeatable_param_without_help_stays_in_its_column() {
        let spec = VerbSpec {
            options: vec![
                Param::new("tags", "TEXT", ValueKind::Text, "").repeatable(),
                Param::new("mode", "fast|lent", ValueKind::Choice, "how fast"),
                Param::new("ünï", "X", ValueKind::Text, "wide"),
            ],
            ..VerbSpec::default()
        };
        let help = spec.render("v", "");
        let columns: Vec<usize> = help
            .lines()
            .filter(|l| l.starts_with("  --"))
            .map(|l| {
                let label_end = l[2..].find("  ").map_or(0, |i| i + 2);
                l[label_end..].chars().take_while(|c| *c == ' ').count()
                    + l[..label_end].chars().count()
            })
            .collect();
        assert!(columns.windows(2).all(|w| w[0] == w[1]), "{help}");
        assert!(help.contains("(repeatable)"), "{help}");
    }

    /// The choices a verb declares are shown whatever its placeholder says: a few as
    /// the value's label (as a derived verb's), many in the help column, and a
    /// positional's in its help.
    #[test]
    fn declared_choices_are_shown_in_help() {
        let choice = |name: &str, value_name: &str, choices: &[&str]| Param {
            choices: choices.iter().map(|c| (*c).to_owned()).collect(),
            ..Param::new(name, value_name, ValueKind::Choice, "what to print")
        };
        let colours: Vec<String> = (1..=12).map(|n| format!("colour-{n}")).collect();
        let colours: Vec<&str> = colours.iter().map(String::as_str).collect();
        let spec = VerbSpec {
            positionals: vec![Param {
                required: true,
                ..choice("mode", "", &["fast", "slow"])
            }],
            options: vec![
                choice("format", "F", &["json", "text"]),
                choice("colour", "C", &colours),
                choice("city", "", &["New York", "Chicago"]),
                choice("view", "summary|full", &["summary", "full"]),
            ],
            ..VerbSpec::default()
        };
        assert_eq!(
            spec.render_brief("jot"),
            "Usage: mur devtools jot <mode> [--format json|text] [--colour C] [--city 'New York'|Chicago] [--view summary|full]

Arguments:
  <mode>  what to print (one of: fast, slow)

Options:
  --format json|text         what to print
  --colour C                 what to print (one of: colour-1, colour-2,
                             colour-3, colour-4, colour-5, colour-6, colour-7,
                             colour-8, colour-9, colour-10, colour-11,
                             colour-12)
  --city 'New York'|Chicago  what to print
  --view summary|full        what to print
  -h, --help                 print this help
"
        );
    }

    /// A hostile verb's choice or help with a bidi override keeps the help column
    /// aligned (measured as shown, escaped), and its choice reads back in a shell.
    /// A property's name is data: a newline in it broke the usage line (the sections
    /// escaped it), and 100,000 characters of it panicked the padding.
    #[test]
    fn a_label_is_escaped_on_the_usage_line_and_cut_in_the_sections() {
        let long = "n".repeat(100_000);
        let spec = VerbSpec {
            options: vec![
                Param::new("new\nline", "TEXT", ValueKind::Text, "x"),
                Param::new(long.as_str(), "TEXT", ValueKind::Text, "y"),
            ],
            ..VerbSpec::default()
        };
        let cut = format!("--{}…", &long[..78]);
        assert_eq!(
            spec.render_brief("odd"),
            format!(
                "Usage: mur devtools odd [--new\\x0aline TEXT] [{cut}]

Options:
  --new\\x0aline TEXT  x
  {cut}  y
  -h, --help          print this help
"
            )
        );
    }

    #[test]
    fn an_escaped_label_keeps_the_column_and_reads_back() {
        let spec = VerbSpec {
            options: vec![
                Param {
                    choices: vec!["a\u{202e}b".to_owned(), "c".to_owned()],
                    ..Param::new("mode", "", ValueKind::Choice, "h \u{202e} x")
                },
                Param::new("args", "JSON", ValueKind::Json, "the whole"),
            ],
            ..VerbSpec::default()
        };
        assert_eq!(
            spec.render_brief("evil"),
            "Usage: mur devtools evil [--mode $'a\\xe2\\x80\\xaeb'|c] [--args JSON]

Options:
  --mode $'a\\xe2\\x80\\xaeb'|c  h \\u{202e} x
  --args JSON                 the whole
  -h, --help                  print this help
"
        );
    }

    /// Every help mur renders is wrapped by the renderer itself: a data verb's (its
    /// notes after the options) and a usage error's list as a derived verb's help,
    /// which alone was wrapped (by its own caller).
    #[test]
    fn the_help_its_notes_and_a_usage_errors_list_are_wrapped_alike() {
        let long = "a word ".repeat(14);
        let spec = VerbSpec {
            details: long.trim().to_owned(),
            examples: vec![format!(
                "mur devtools count --selector '{}'",
                "x".repeat(70)
            )],
            options: vec![Param::new(
                "selector",
                "S",
                ValueKind::Selector,
                long.trim(),
            )],
            ..VerbSpec::default()
        };
        let options = "Options:
  --selector S  a word a word a word a word a word a word a word a word a word a
                word a word a word a word a word
  -h, --help    print this help

Examples:
  mur devtools count --selector 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'
";
        assert_eq!(
            spec.render_with("count", "Count", &[format!("Note: {long}")]),
            format!(
                "Usage: mur devtools count [--selector S]

Count

a word a word a word a word a word a word a word a word a word a word a word a
word a word a word

{options}
Note: a word a word a word a word a word a word a word a word a word a word a
word a word a word a word
"
            )
        );
        assert_eq!(
            spec.render_brief("count"),
            format!("Usage: mur devtools count [--selector S]\n\n{options}")
        );
    }

    /// An index entry written before the declaration reads as declaring nothing, and
    /// a spec that declares nothing is written as before (no `waits` key).
    #[test]
    fn a_tool_wait_is_kept_in_the_index_only_where_declared() {
        let old: VerbSpec = serde_json::from_str(r#"{"synopsis":"wait <s>"}"#).expect("old");
        assert_eq!(old.waits, None);
        assert!(!serde_json::to_string(&old).expect("json").contains("waits"));
        let waits = ToolWait {
            argument: "timeoutMs".into(),
            default_ms: 5000,
        };
        let spec = VerbSpec {
            waits: Some(waits),
            ..old
        };
        let json = serde_json::to_string(&spec).expect("json");
        assert!(
            json.contains(r#""waits":{"argument":"timeoutMs","defaultMs":5000}"#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<VerbSpec>(&json).expect("back"), spec);
    }

    #[test]
    fn help_has_every_section_aligned_and_a_usage_error_all_but_the_prose() {
        let spec = VerbSpec {
            synopsis: "tree [--view summary|full]".into(),
            details: "More words.".into(),
            examples: vec!["mur devtools tree --view full".into()],
            positionals: vec![
                Param::new("selector", "", ValueKind::Selector, "the element").required(),
            ],
            options: vec![
                Param::new("view", "summary|full", ValueKind::Choice, "how much"),
                Param::new("timeout", "MS", ValueKind::Milliseconds, "let it take MS"),
            ],
            waits: None,
            lone: None,
        };
        assert_eq!(
            spec.render("tree", "Print the tree"),
            "Usage: mur devtools tree [--view summary|full]\n\nPrint the tree\n\nMore words.\n\n\
             Arguments:\n  <selector>  the element\n\n\
             Options:\n  --view summary|full  how much\n  --timeout MS         let it take MS\n  \
             -h, --help           print this help\n\n\
             Examples:\n  mur devtools tree --view full\n"
        );
        // Under a usage error: all but the prose, which may be a tool's pages.
        assert_eq!(
            spec.render_brief("tree"),
            "Usage: mur devtools tree [--view summary|full]\n\n\
             Arguments:\n  <selector>  the element\n\n\
             Options:\n  --view summary|full  how much\n  --timeout MS         let it take MS\n  \
             -h, --help           print this help\n\n\
             Examples:\n  mur devtools tree --view full\n"
        );
    }

    #[test]
    fn a_missing_usage_line_is_composed_from_the_params() {
        let spec = VerbSpec {
            positionals: vec![
                Param::new("file", "", ValueKind::Text, "files")
                    .required()
                    .repeatable(),
            ],
            options: vec![
                Param::new("all", "", ValueKind::Flag, "all"),
                Param::new("to", "", ValueKind::Text, "where").required(),
                // A repeatable option is marked as a repeatable positional is.
                Param::new("tag", "T", ValueKind::Text, "tags").repeatable(),
                Param::new("via", "HOST", ValueKind::Text, "hosts")
                    .repeatable()
                    .required(),
            ],
            ..VerbSpec::default()
        };
        assert!(
            spec.render("copy", "Copy").starts_with(
                "Usage: mur devtools copy <file>... [--all] --to VALUE [--tag T]... (--via HOST)...\n"
            ),
            "{}",
            spec.render("copy", "Copy")
        );
    }

    /// Each param is listed once, with the ways it is given: a kit's positional with an
    /// option form, and a derived verb's option a lone word gives (review 508, 12: the
    /// catalog listed `click`'s `selector` twice).
    #[test]
    fn a_param_given_two_ways_is_listed_once() {
        let listed = |spec: &VerbSpec| -> Vec<(String, bool, bool, String)> {
            spec.listed()
                .iter()
                .map(|l| {
                    let p = l.param;
                    (p.name.clone(), l.positional, l.option, p.help.clone())
                })
                .collect()
        };
        let row = |name: &str, positional, option, help: &str| {
            (name.to_owned(), positional, option, help.to_owned())
        };
        let kit = VerbSpec {
            positionals: vec![
                Param::new("selector", "", ValueKind::Selector, "the element").required(),
                Param::new("file", "", ValueKind::Text, "a file"),
            ],
            options: vec![
                Param::new(
                    "selector",
                    "S",
                    ValueKind::Selector,
                    "the same as `<selector>`",
                ),
                Param::new("timeout", "MS", ValueKind::Milliseconds, "wait"),
            ],
            ..VerbSpec::default()
        };
        assert_eq!(
            listed(&kit),
            [
                row("selector", true, true, "the element"),
                row("file", true, false, "a file"),
                row("timeout", false, true, "wait"),
            ]
        );
        let derived = VerbSpec {
            options: vec![
                Param::new("selector", "S", ValueKind::Selector, "the element").required(),
                Param::new("depth", "N", ValueKind::Integer, "how deep"),
            ],
            lone: Some("selector".to_owned()),
            ..VerbSpec::default()
        };
        assert_eq!(
            listed(&derived),
            [
                row("selector", true, true, "the element"),
                row("depth", false, true, "how deep"),
            ]
        );
    }

    /// What the catalog lists as a verb's usage is its help's first line, however long
    /// (never wrapped), made without the rest of the help.
    #[test]
    fn the_usage_alone_is_the_helps_first_line() {
        let long = (0..12)
            .map(|i| Param::new(format!("option-{i}"), "VALUE", ValueKind::Text, "some"))
            .collect();
        let spec = VerbSpec {
            options: long,
            details: "Words enough to wrap. ".repeat(20),
            ..VerbSpec::default()
        };
        let help = spec.render("many", "Many options");
        let first = help.lines().next().expect("a line");
        assert!(first.chars().count() > 100, "{first}");
        assert_eq!(
            Some(spec.usage("many").as_str()),
            first.strip_prefix("Usage: ")
        );
        let given = VerbSpec {
            synopsis: "tree [<selector>]".into(),
            ..spec
        };
        assert_eq!(given.usage("tree"), "mur devtools tree [<selector>]");
    }
}
