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
    /// The command line after `mur devtools`, e.g. `click <selector>`. Empty: `mur`
    /// composes it from the verb's name and [`Spec`] (`click <selector> [--timeout
    /// MS]`), so it never names another verb or misses an option.
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
        usage: about.synopsis.to_owned(),
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
        Kind::Count => (ValueKind::Integer, Vec::new()),
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
