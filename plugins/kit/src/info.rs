//! A verb's structured description — what `info` returns — composed from its
//! [`About`] and [`Spec`], so every option a verb accepts is declared to the host,
//! which renders `--help`, completions and catalogs from it.

use crate::argv::{self, Kind, Opt, Pos, Spec};

/// `value-kind`, `param` and `verb-info` of `mur:verb@0.3.0`: what the words of a
/// value are, one positional or option as declared to the host, and a verb's `info`.
/// The generated types themselves (bindings are generated natively too), so what
/// [`describe`] composes goes to the host as it is.
pub use crate::bindings::mur::verb::types::{Param, ValueKind, VerbInfo as Info};

/// What a verb says about itself; with its [`Spec`] this is its `info`.
#[derive(Debug, Clone, Copy)]
pub struct About {
    /// The word typed after `mur devtools`.
    pub name: &'static str,
    /// The MCP tool it calls: one verb, one tool.
    pub tool: &'static str,
    /// One line for `mur devtools --help`.
    pub summary: &'static str,
    /// The command line after `mur devtools`, e.g. `click <selector>`. Empty: the kit
    /// composes it from the verb's name and [`Spec`] ([`usage`]), as every standard
    /// verb's is, so it never names another verb or misses an option.
    pub synopsis: &'static str,
    /// More about the verb, printed after the summary; may be empty.
    pub details: &'static str,
    /// Complete example commands, each starting with `mur devtools`.
    pub examples: &'static [&'static str],
}

/// A tool that waits on a bound of its own (`waitFor` polls until its `timeoutMs`
/// passes, then answers that it timed out): the argument that sets the bound, in
/// milliseconds, and how long the tool waits when it is not sent. A verb declaring it
/// ([`Verb::WAITS`](crate::Verb::WAITS)) sends its `--timeout MS` as that argument, and
/// the host lowers the argument (sending it when the verb did not) when the call's
/// own `--timeout` would end first, so the tool's answer that it gave up arrives in
/// time. Declared in the component's custom section `mur:verb-waits`
/// ([`export_verb!`](crate::export_verb)), outside `info`, whose record is
/// `mur:verb@0.3.0`'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waits {
    /// The tool's argument, as the tool names it (`timeoutMs`).
    pub argument: &'static str,
    /// What the tool waits when the argument is not sent.
    pub default_ms: u32,
}

/// Describe a verb from its [`About`] and [`Spec`]: every positional it declares, then
/// the optional positional of an option also taken as a word ([`Opt::or_word`]); every
/// option a command line may give it ([`Spec::every_option`]: the parser's list; `--help`
/// is the host's).
pub fn describe(about: &About, spec: &Spec) -> Info {
    let words = spec
        .options
        .iter()
        .filter(|opt| opt.word)
        .map(|opt| lone_word(spec, opt));
    Info {
        name: about.name.to_owned(),
        tool: about.tool.to_owned(),
        summary: about.summary.to_owned(),
        usage: match about.synopsis.trim() {
            "" => usage(about.name, spec),
            given => given.to_owned(),
        },
        details: about.details.trim_end().to_owned(),
        examples: about.examples.iter().map(|e| (*e).to_owned()).collect(),
        positionals: spec
            .positionals
            .iter()
            .map(positional)
            .chain(words)
            .collect(),
        options: spec
            .every_option()
            .map(|opt| match spec.form_of(&opt) {
                Some(pos) => option_form(pos),
                None => option(&opt),
            })
            .collect(),
    }
}

/// `info` of a verb whose tool waits ([`Waits`]): its `--timeout MS` bounds the wait
/// too, and says how long the tool waits when it is not given (`wait --help`: 5000 ms).
/// The default is the wait's alone: without `--timeout` the call has mur's bound.
pub(crate) fn waiting(mut info: Info, waits: Waits) -> Info {
    let timeout = info
        .options
        .iter_mut()
        .filter(|opt| opt.name == argv::TIMEOUT.name);
    for opt in timeout {
        opt.help = format!(
            "let the wait (default: {}) and the call take up to MS milliseconds",
            waits.default_ms
        );
    }
    info
}

/// The usage line of verb `name` taking `spec` (after `mur devtools`), the one
/// [`describe`] gives when [`About::synopsis`] is empty: the name, each positional
/// (`<selector>`), each option also taken as a lone word as that word (`[<selector>]`),
/// then the other options, those of an exclusive group together as alternatives
/// (`scroll <selector> [--by DX,DY | --to S]`). Each argument once, in its first form:
/// not a positional's option form (`--selector S`), nor `--timeout MS`, which every
/// verb takes; the help's options list both. (Left empty, mur composed the line from
/// every option it was told of: a scaffolded verb's read `bump <selector> [--selector
/// S] [--timeout MS]` beside the standard `click <selector>`.)
pub fn usage(name: &str, spec: &Spec) -> String {
    let mut words = vec![name.to_owned()];
    words.extend(spec.positionals.iter().map(|pos| format!("<{}>", pos.name)));
    let (lone, options): (Vec<&Opt>, Vec<&Opt>) = spec.options.iter().partition(|opt| opt.word);
    words.extend(lone.iter().map(|opt| format!("[<{}>]", opt.name)));
    let mut shown: Vec<&str> = Vec::new();
    for opt in &options {
        if shown.contains(&opt.name) {
            continue;
        }
        let group = spec
            .exclusive
            .iter()
            .find(|group| group.contains(&opt.name))
            .copied()
            .unwrap_or_default();
        let together: Vec<&Opt> = options
            .iter()
            .copied()
            .filter(|o| o.name == opt.name || group.contains(&o.name))
            .filter(|o| !shown.contains(&o.name))
            .collect();
        shown.extend(together.iter().map(|o| o.name));
        let labels: Vec<String> = together.iter().map(|o| option_label(o)).collect();
        words.push(format!("[{}]", labels.join(" | ")));
    }
    words.join(" ")
}

/// `--name V` as mur labels an option in its help (crates/verbs/src/spec.rs,
/// `option_label`), so the usage line and the options list agree: a choice's
/// placeholder that does not list its choices gives way to them (`--mode fast|slow`)
/// when they are short; no placeholder is `VALUE`.
fn option_label(opt: &Opt) -> String {
    if !opt.takes_value() {
        return format!("--{}", opt.name);
    }
    let listed = match opt.kind {
        Kind::Choice(choices) if !choices.is_empty() && !opt.value.contains('|') => {
            let words: Vec<String> = choices.iter().map(|c| argv::shell_word(c)).collect();
            Some(words.join("|")).filter(|joined| joined.chars().count() <= CHOICES_LABEL_CHARS)
        }
        _ => None,
    };
    let value = match (listed, opt.value) {
        (Some(choices), _) => choices,
        (None, "") => "VALUE".to_owned(),
        (None, placeholder) => placeholder.to_owned(),
    };
    format!("--{} {value}", opt.name)
}

/// The longest `a|b|c` mur shows a choice's choices as in its label (spec.rs's
/// `CHOICES_LABEL_CHARS`).
const CHOICES_LABEL_CHARS: usize = 40;

/// `[<name>]` for option `--name V` also taken as a lone word, saying which words it
/// takes: any, or (beside other options a word could be meant for) only a selector
/// that starts like one.
fn lone_word(spec: &Spec, opt: &Opt) -> Param {
    let which = match argv::takes_any_word(spec, opt) {
        true => String::new(),
        false => format!(", where {} starts with `#` or `[`", opt.value),
    };
    Param {
        name: opt.name.to_owned(),
        value_name: String::new(),
        required: false,
        ..param(
            opt.kind,
            &format!("the same as `--{} {}`{which}", opt.name, opt.value),
        )
    }
}

/// `--name V` for positional `<name>` also given as an option.
fn option_form(pos: &Pos) -> Param {
    Param {
        name: pos.name.to_owned(),
        value_name: pos.option.to_owned(),
        required: false,
        ..param(pos.kind, &format!("the same as `<{}>`", pos.name))
    }
}

fn positional(pos: &Pos) -> Param {
    Param {
        name: pos.name.to_owned(),
        value_name: String::new(),
        required: true,
        ..param(pos.kind, pos.help)
    }
}

fn option(opt: &Opt) -> Param {
    Param {
        name: opt.name.to_owned(),
        value_name: opt.value.to_owned(),
        required: false,
        ..param(opt.kind, opt.help)
    }
}

fn param(kind: Kind, help: &str) -> Param {
    let (kind, choices) = match kind {
        Kind::Flag | Kind::LocalFlag => (ValueKind::Flag, Vec::new()),
        Kind::Text | Kind::Local => (ValueKind::Text, Vec::new()),
        Kind::Selector => (ValueKind::Selector, Vec::new()),
        Kind::Name => (ValueKind::Name, Vec::new()),
        Kind::Choice(choices) => (
            ValueKind::Choice,
            choices.iter().map(|c| (*c).to_owned()).collect(),
        ),
        Kind::Count | Kind::Integer => (ValueKind::Integer, Vec::new()),
        Kind::Number => (ValueKind::Number, Vec::new()),
        Kind::Json => (ValueKind::Json, Vec::new()),
        Kind::OutPath => (ValueKind::OutputPath, Vec::new()),
        Kind::Millis => (ValueKind::Milliseconds, Vec::new()),
    };
    Param {
        name: String::new(),
        value_name: String::new(),
        kind,
        help: help.to_owned(),
        required: false,
        repeatable: false,
        choices,
    }
}

/// The sentence in which `mur devtools verbs add` refuses what verb `about` declares in
/// `spec` and `waits` beyond its params' names (which [`Spec::unusable`] judges), in
/// pieces; all empty when it refuses nothing. Pieces, not a `String`: [`export_verb!`]
/// (crate::export_verb) joins them in a constant, so such a verb does not build (rustc
/// says the sentence), and a constant cannot format. First the verb's own name
/// ([`name_refused`]: `Bump`, `call`, `session`), which `build.sh` and `build.mjs`
/// refuse too; then, judged on [`describe`]'s params, which are what `verbs add` reads:
/// - a `choice` with no choices (`Kind::Choice(&[])`), which would refuse every value
///   (choices on another kind, which `verbs add` refuses too, cannot be declared here:
///   only [`Kind::Choice`] has any);
/// - a wait ([`Waits`]) on the key one of its params is sent under, unless that param
///   is a count (or the kit's own `--timeout`): the host sets the wait's argument to a
///   number of milliseconds, so each call sent a number for a text, or the wait did
///   nothing; and a [`Kind::Millis`] value is never sent, so the user's
///   `--timeout-ms 1000` was dropped and the tool waited what `--timeout` gave it. A
///   [`Kind::Local`] is declared as `text`: `verbs add` cannot know it is not sent.
///   The key is `verbs add`'s rule, compared exactly: an option's name in camelCase
///   (ASCII capitals only), a positional's name (not its [`Pos::key`]).
///
/// The wording must match `verbs add`'s word for word (mur's crates/verbs/src/spec.rs,
/// `unkept_choices` and `wait_on_words`, after manage.rs's "verb `x` in `FILE`
/// declares"), as the Python and JavaScript kits' copies must.
///
/// None of these verbs builds (rustc: "evaluation panicked: the verb names itself
/// `session`, a word `mur devtools` answers itself: …", "… verb `pick` declares option
/// `--mode` of kind `choice` with no choices, …", and "… a wait (`mur:verb-waits`) on
/// `text`, the argument its option `--text` of kind `text` is sent as: …"):
///
/// ```compile_fail,E0080
/// use mur_verb_kit::{About, Spec, Verb};
///
/// struct Session;
///
/// impl Verb for Session {
///     const ABOUT: About = About {
///         name: "session",
///         tool: "state",
///         summary: "Show a session",
///         synopsis: "",
///         details: "",
///         examples: &[],
///     };
///     const SPEC: Spec = Spec::NONE;
/// }
///
/// mur_verb_kit::export_verb!(Session);
/// ```
///
/// ```compile_fail,E0080
/// use mur_verb_kit::{About, Kind, Opt, Spec, Verb};
///
/// struct Pick;
///
/// impl Verb for Pick {
///     const ABOUT: About = About {
///         name: "pick",
///         tool: "pick",
///         summary: "Pick a mode",
///         synopsis: "",
///         details: "",
///         examples: &[],
///     };
///     const SPEC: Spec = Spec {
///         options: &[Opt::value("mode", "M", Kind::Choice(&[]), "which")],
///         ..Spec::NONE
///     };
/// }
///
/// mur_verb_kit::export_verb!(Pick);
/// ```
///
/// ```compile_fail,E0080
/// use mur_verb_kit::{About, Kind, Opt, Spec, Verb, Waits};
///
/// struct Wait;
///
/// impl Verb for Wait {
///     const ABOUT: About = About {
///         name: "wait",
///         tool: "waitFor",
///         summary: "Wait for a text",
///         synopsis: "",
///         details: "",
///         examples: &[],
///     };
///     const SPEC: Spec = Spec {
///         options: &[Opt::value("text", "X", Kind::Text, "until its text is X")],
///         ..Spec::NONE
///     };
///     const WAITS: Option<Waits> = Some(Waits {
///         argument: "text",
///         default_ms: 5000,
///     });
/// }
///
/// mur_verb_kit::export_verb!(Wait);
/// ```
pub const fn refused(
    about: &About,
    spec: &Spec,
    waits: Option<Waits>,
) -> [&'static str; REFUSAL_PIECES] {
    let name = name_refused(about.name);
    if !name[0].is_empty() {
        let mut pieces = [""; REFUSAL_PIECES];
        let mut at = 0;
        while at < NAME_PIECES {
            pieces[at] = name[at];
            at += 1;
        }
        return pieces;
    }
    let mut at = 0;
    while let Some(param) = declared(spec, at) {
        if let Kind::Choice(choices) = param.kind
            && choices.is_empty()
        {
            return [
                "verb `",
                about.name,
                "` declares ",
                param.opening(),
                param.name,
                param.closing(),
                " of kind `choice` with no choices, which would refuse every value: give it its \
                 choices, or another kind",
                HOST_REFUSES,
                "",
                "",
                "",
                "",
                "",
                "",
                "",
            ];
        }
        at += 1;
    }
    let Some(waits) = waits else {
        return [""; REFUSAL_PIECES];
    };
    at = 0;
    while let Some(param) = declared(spec, at) {
        if param.sent_as(waits.argument) {
            return match param.kind {
                Kind::Count | Kind::Integer => break,
                // The kit's own `--timeout`: its value is the wait's.
                Kind::Millis if param.option && is_timeout(param.name) => break,
                Kind::Millis => [
                    "verb `",
                    about.name,
                    "` declares ",
                    "a wait (`mur:verb-waits`) on `",
                    waits.argument,
                    "`, the key its ",
                    param.opening(),
                    param.name,
                    param.closing(),
                    " of kind `milliseconds` would be sent under, but a milliseconds value is \
                     never sent: the wait's value is the verb's own `--timeout MS`; drop `",
                    match param.option {
                        true => "--",
                        false => "<",
                    },
                    param.name,
                    match param.option {
                        true => "`",
                        false => ">`",
                    },
                    ", or give it kind `integer`",
                    HOST_REFUSES,
                ],
                _ => [
                    "verb `",
                    about.name,
                    "` declares ",
                    "a wait (`mur:verb-waits`) on `",
                    waits.argument,
                    "`, the argument its ",
                    param.opening(),
                    param.name,
                    param.closing(),
                    " of kind `",
                    kind_name(param.kind),
                    "` is sent as: the host sets a wait's argument to a number of milliseconds, \
                     so it must be a key no param of the verb declares, or an `integer` param's",
                    HOST_REFUSES,
                    "",
                    "",
                ],
            };
        }
        at += 1;
    }
    [""; REFUSAL_PIECES]
}

/// The sentence in which `mur devtools verbs add` refuses a verb named `name` (mur's
/// crates/verbs/src/names.rs: its shape, a word `mur devtools` answers itself, the
/// index's name), in pieces; all empty when it takes the name. A constant, so
/// [`refused`] (and with it [`export_verb!`](crate::export_verb)) refuses the name at
/// build time as [`testing::unusable_name`](crate::testing::unusable_name) does in a
/// test: one rule, from the kit's copies [`VERB_NAME_RULE`]
/// and [`HOST_VERBS`].
pub const fn name_refused(name: &str) -> [&str; NAME_PIECES] {
    let bytes = name.as_bytes();
    let mut shaped = !bytes.is_empty() && bytes.len() <= 64 && bytes[0].is_ascii_lowercase();
    let mut at = 0;
    while shaped && at < bytes.len() {
        let byte = bytes[at];
        let allowed = byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-';
        let doubled = byte == b'-' && (at + 1 == bytes.len() || bytes[at + 1] == b'-');
        shaped = allowed && !doubled;
        at += 1;
    }
    let why = if !shaped {
        "`; "
    } else if is_host_verb(name) {
        "`, a word `mur devtools` answers itself: a verb by that name could not be called"
    } else if same(name, "index") {
        "`, the name of the verb directory's own index: a verb by that name would be taken \
         for it"
    } else {
        return [""; NAME_PIECES];
    };
    let rule = match shaped {
        true => "",
        false => VERB_NAME_RULE,
    };
    ["the verb names itself `", name, why, rule, HOST_REFUSES]
}

/// How many pieces [`name_refused`]'s sentence is in.
pub const NAME_PIECES: usize = 5;

/// Whether `name` is one of [`HOST_VERBS`], in a constant.
const fn is_host_verb(name: &str) -> bool {
    let mut at = 0;
    while at < HOST_VERBS.len() {
        if same(name, HOST_VERBS[at]) {
            return true;
        }
        at += 1;
    }
    false
}

/// Whether `name` is `timeout`, in a constant.
const fn is_timeout(name: &str) -> bool {
    same(name, argv::TIMEOUT.name)
}

/// Whether `a` and `b` are the same words, in a constant.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut at = 0;
    while at < a.len() {
        if a[at] != b[at] {
            return false;
        }
        at += 1;
    }
    true
}

/// How many pieces [`refused`]'s sentence is in.
pub const REFUSAL_PIECES: usize = 15;

/// What the kit adds to a sentence of `verbs add`'s: whose rule it is.
const HOST_REFUSES: &str = "; `mur devtools verbs add` would refuse it";

/// A param as [`describe`] declares it to the host, for [`refused`].
#[derive(Clone, Copy)]
struct Declared {
    name: &'static str,
    kind: Kind,
    option: bool,
}

impl Declared {
    /// `option `--` or `positional `<`, before its name in a sentence of `verbs add`'s.
    const fn opening(&self) -> &'static str {
        match self.option {
            true => "option `--",
            false => "positional `<",
        }
    }

    const fn closing(&self) -> &'static str {
        match self.option {
            true => "`",
            false => ">`",
        }
    }

    /// Whether `verbs add` takes it to be sent under `key`: an option under its name
    /// in camelCase, with an ASCII capital for each word's first letter (`wait-idle` as
    /// `waitIdle`), a positional under its name.
    const fn sent_as(&self, key: &str) -> bool {
        let (name, key) = (self.name.as_bytes(), key.as_bytes());
        let (mut at, mut taken, mut capital) = (0, 0, false);
        while at < name.len() {
            let byte = name[at];
            at += 1;
            if self.option && byte == b'-' {
                capital = true;
                continue;
            }
            let byte = match capital {
                true => byte.to_ascii_uppercase(),
                false => byte,
            };
            capital = false;
            if taken == key.len() || key[taken] != byte {
                return false;
            }
            taken += 1;
        }
        taken == key.len()
    }
}

/// The `at`th param [`describe`] declares, in the order in which `verbs add` judges
/// them ([`member`]).
const fn declared(spec: &Spec, mut at: usize) -> Option<Declared> {
    let mut group = 0;
    while group < 5 {
        let mut i = 0;
        while let Some(member) = member(spec, group, i) {
            if let Some(param) = member {
                if at == 0 {
                    return Some(param);
                }
                at -= 1;
            }
            i += 1;
        }
        group += 1;
    }
    None
}

/// The `i`th of group `group` of the params [`describe`] declares: `Some(None)` where
/// the group passes it over, `None` past the group's end. The groups, as `verbs add`
/// reads them: the positionals declared, the options also taken as a word (positionals
/// to the host), the options declared, the option form of each positional that has
/// one, `--timeout`.
const fn member(spec: &Spec, group: usize, i: usize) -> Option<Option<Declared>> {
    let (positionals, options) = (spec.positionals, spec.options);
    let (name, kind, option, declared) = match group {
        0 if i < positionals.len() => (positionals[i].name, positionals[i].kind, false, true),
        1 if i < options.len() => (options[i].name, options[i].kind, false, options[i].word),
        2 if i < options.len() => (options[i].name, options[i].kind, true, true),
        3 if i < positionals.len() => {
            let pos = &positionals[i];
            (pos.name, pos.kind, true, !pos.option.is_empty())
        }
        4 if i == 0 => (argv::TIMEOUT.name, argv::TIMEOUT.kind, true, true),
        _ => return None,
    };
    Some(match declared {
        true => Some(Declared { name, kind, option }),
        false => None,
    })
}

/// The name of the host's `value-kind` a param of `kind` is declared as ([`param`]).
const fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Flag | Kind::LocalFlag => "flag",
        Kind::Text | Kind::Local => "text",
        Kind::Selector => "selector",
        Kind::Name => "name",
        Kind::Choice(_) => "choice",
        Kind::Count | Kind::Integer => "integer",
        Kind::Number => "number",
        Kind::Json => "json",
        Kind::OutPath => "output-path",
        Kind::Millis => "milliseconds",
    }
}

/// The rule `mur devtools verbs add` holds a verb's name to, in its words (mur's
/// crates/verbs/src/names.rs, `VERB_NAME_RULE`). A copy, as the kit cannot depend on
/// mur: the e2e test `scaffold_python::the_kits_hold_a_verbs_name_to_the_hosts_rule`
/// holds it, [`HOST_VERBS`] and the Python and JavaScript kits' copies to the host's.
pub const VERB_NAME_RULE: &str = "a verb name is lowercase letters, digits and inner dashes (never two in a row), starting with a letter, at most 64 characters";

/// The words `mur devtools` answers itself (its commands and `help`): `verbs add`
/// refuses a verb of one of these names, which could never be called (mur's
/// `cli::host_verbs`; a copy, see [`VERB_NAME_RULE`]).
pub const HOST_VERBS: [&str; 10] = [
    "bridge", "call", "catalog", "guide", "help", "parity", "proxy", "session", "usage", "verbs",
];
