//! `mur devtools verbs new <name> [--lang rust|python|js]`: a standalone project
//! for a new verb, built with the verb kit of its language, that builds anywhere
//! (no mur checkout needed) and carries its own native tests.
//!
//! - Rust: a `cdylib` crate using `mur-verb-kit`, vendored from plugins/kit into
//!   `vendor/mur-verb-kit` so that the crate builds from crates.io alone.
//! - Python: `app.py` on `kit.py`, componentized with componentize-py.
//! - JavaScript: `verb.js` on `kit.js`, componentized with componentize-js.
//!
//! Their native tests are in two files: the verb's own, few, which read what it
//! declares (`test_app.py`, `verb.test.js`), and the kit's, which hold it to mur's rules
//! on verbs of their own (`test_kit.py`, `kit.test.js`), so that no change to the verb
//! breaks them; the Rust kit's are in the vendored kit.
//!
//! Every project gets `wit/verb.wit` (`mur:verb@0.3.0`, exactly as this `mur`
//! loads it) and a README with the next steps.
//!
//! A verb named as a tool of the running session calls that tool and takes one param per
//! property of its input schema, named and typed as the tool's derived verb's options
//! ([`crate::derived`]), the required ones positionals; its own tests parse them. With
//! no such tool, the verb is the template's: a `click <selector>`.

use std::path::{Path, PathBuf};

use crate::error::{VerbError, io_error};
use crate::names::Unusable;
use crate::spec::{ValueKind, camel_case};

/// The verb interface, as this `mur` loads it.
const VERB_WIT: &str = include_str!("../../../wit/verb.wit");

/// The names of the kits' option of the whole arguments object (`--args JSON`, as a
/// derived verb takes it): the first a verb does not declare itself. Each kit spells it
/// in its own language (plugins/kit/src/argv.rs, scaffold/python/kit.py and
/// scaffold/js/kit.js, `WHOLE_NAMES`); a test holds them to this one.
pub const KIT_WHOLE_NAMES: [&str; 3] = ["args", "all-args", "all-all-args"];

/// The help of the kits' option of the whole arguments object, as each kit declares it
/// (`WHOLE_HELP`, beside [`KIT_WHOLE_NAMES`]); a test holds them to this one.
pub const KIT_WHOLE_HELP: &str =
    "the whole arguments object, as JSON; options given beside it override its fields";

/// Whether `param`, of a verb's spec, is a kit's option of the whole arguments object,
/// by the kits' own rule (`is_whole`): a JSON option of one of [`KIT_WHOLE_NAMES`] with
/// the help [`KIT_WHOLE_HELP`]. It sends the tool's arguments, not a property of its
/// name.
pub fn is_kit_whole(param: &crate::Param) -> bool {
    param.kind == ValueKind::Json
        && KIT_WHOLE_NAMES.contains(&param.name.as_str())
        && param.help == KIT_WHOLE_HELP
}

mod rust {
    pub const CARGO_TOML: &str = include_str!("scaffold/rust/Cargo.toml.tmpl");
    pub const LIB_RS: &str = include_str!("scaffold/rust/lib.rs.tmpl");
    /// `src/lib.rs` of a verb whose params are its tool's ([`super::Tool::params`]).
    pub const TOOL_RS: &str = include_str!("scaffold/rust/tool.rs.tmpl");
    pub const README: &str = include_str!("scaffold/rust/README.md.tmpl");
    pub const KIT_CARGO_TOML: &str = include_str!("scaffold/rust/kit.Cargo.toml");
    /// plugins/kit/src, vendored as is: its `generate!` path `../../wit/verb.wit`
    /// finds the project's wit/ from `vendor/mur-verb-kit`.
    pub const KIT_SOURCES: [(&str, &str); 10] = [
        ("argv.rs", include_str!("../../../plugins/kit/src/argv.rs")),
        (
            "host-options.txt",
            include_str!("../../../plugins/kit/src/host-options.txt"),
        ),
        ("info.rs", include_str!("../../../plugins/kit/src/info.rs")),
        ("lib.rs", include_str!("../../../plugins/kit/src/lib.rs")),
        (
            "nearest.rs",
            include_str!("../../../plugins/kit/src/nearest.rs"),
        ),
        (
            "shape.rs",
            include_str!("../../../plugins/kit/src/shape.rs"),
        ),
        (
            "testing.rs",
            include_str!("../../../plugins/kit/src/testing.rs"),
        ),
        (
            "tests.rs",
            include_str!("../../../plugins/kit/src/tests.rs"),
        ),
        ("verb.rs", include_str!("../../../plugins/kit/src/verb.rs")),
        ("wit.rs", include_str!("../../../plugins/kit/src/wit.rs")),
    ];
}

/// The verb's own tests of a verb whose params are its tool's ([`Tool::params`]), in
/// place of `test_app.py` and `verb.test.js`, which test the template's `<selector>`.
mod tool_tests {
    pub const PYTHON: &str = include_str!("scaffold/python/test_tool.py.tmpl");
    pub const JS: &str = include_str!("scaffold/js/tool.test.js.tmpl");
}

/// `(name, text)` of each named file of the folder `scaffold/<dir>/`. A project gets each
/// as a file of the same name, except that a `.tmpl` is filled in and loses that ending.
macro_rules! templates {
    ($dir:literal: $($name:literal),* $(,)?) => {
        [$(($name, include_str!(concat!("scaffold/", $dir, "/", $name)))),*]
    };
}

const PYTHON: [(&str, &str); 7] = templates!("python":
    "app.py.tmpl",
    "kit.py",
    "test_app.py",
    "test_kit.py",
    "build.sh.tmpl",
    "requirements.txt",
    "README.md.tmpl",
);

const JS: [(&str, &str); 7] = templates!("js":
    "verb.js.tmpl",
    "kit.js",
    "verb.test.js",
    "kit.test.js",
    "build.mjs",
    "package.json.tmpl",
    "README.md.tmpl",
);

/// The languages a verb is scaffolded in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Rust,
    Python,
    JavaScript,
}

/// A project `verbs new` created: where it is and what to do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    pub root: PathBuf,
    pub next_steps: String,
}

/// The tool a new verb calls: the session's tool whose derived verb has the verb's
/// name (`verbs new echo` for server-everything's `echo`), else the standard `click`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    /// Its MCP name.
    pub name: String,
    /// The verb's one-line summary: the first line of the tool's description, cut to
    /// at most [`SUMMARY_BYTES`].
    pub summary: String,
    /// One param per property of the tool's input schema, named and typed as its derived
    /// verb's options are; `None` for the template's own verb, of the standard `click` (a
    /// `<selector>`), made when no session has a tool of the verb's name. A verb made for a session's tool sends what the tool takes: it sent
    /// a `selector` whatever the tool's schema said.
    pub params: Option<Vec<ToolParam>>,
}

/// One param of a new verb: a property of its tool's input schema. A required one is a
/// positional (also given as `--OPTION VALUE`), the others options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolParam {
    /// The option's name, the derived verb's (`max-results` for `max_results`).
    pub option: String,
    /// The property it is sent as.
    pub key: String,
    /// The kind of its value, as the derived verb reads it.
    pub kind: ValueKind,
    /// A value's placeholder (`S`, `N`, `TEXT`).
    pub value_name: String,
    pub help: String,
    pub required: bool,
    /// A choice's words.
    pub choices: Vec<String>,
    /// An integer the schema holds to 0 or more and no other bound (`minimum: 0` alone):
    /// a count, of each kit (the Rust kit's `Kind::Count`, the Python and JavaScript
    /// kits' kind `count`), which refuses `-1`.
    pub counts: bool,
    /// The bounds the schema sets an integer or a number that is no count, as its
    /// derived verb holds it to them: each by its JSON Schema name (`minimum`,
    /// `exclusiveMaximum`, …) and the number as JSON writes it (`0`, `0.5`). Each kit
    /// refuses a value past them, in the derived verb's words.
    pub bounds: Vec<(String, String)>,
    /// A boolean: a choice of the words `true` and `false` ([`BOOLEAN`]), each sent as
    /// the JSON value it names by the verb's own `arguments`.
    pub boolean: bool,
    /// The value an example gives it, as the tool takes it: a choice's first word, a
    /// numeric enum's first number, `true` for a boolean, `[]` for a list; else none.
    pub sample: Option<serde_json::Value>,
}

/// The words a boolean param takes, as its derived verb takes them: a kit's choice,
/// which refuses any other naming the two (`--visible yes`, JSON as `kind=json` took it,
/// was refused in a JSON parser's words, and `--visible '"x"'` sent a string).
const BOOLEAN: [&str; 2] = ["true", "false"];

/// The longest summary a new verb is given from a tool's description, in bytes: far
/// below what `verbs add` keeps, and one line of `--help`.
const SUMMARY_BYTES: usize = 200;

impl Tool {
    /// The session's tool `tool` (an entry of `tools/list`), if it has a name.
    pub fn of(tool: &serde_json::Value) -> Option<Self> {
        let name = tool.get("name")?.as_str()?.to_owned();
        let described = tool.get("description").and_then(|d| d.as_str());
        let summary = described
            .and_then(|d| d.lines().map(str::trim).find(|line| !line.is_empty()))
            .map_or_else(|| format!("Call the tool `{name}`"), str::to_owned);
        let summary = cut(&summary, SUMMARY_BYTES);
        let params = crate::derived::Derived::from_tool(tool).map(|verb| params_of(&verb, tool));
        Some(Self {
            name,
            summary,
            params,
        })
    }

    /// What a project calls when the session has no tool of its name.
    fn click() -> Self {
        Self {
            name: "click".to_owned(),
            summary: "Click the element a selector matches".to_owned(),
            params: None,
        }
    }
}

/// The params of a verb calling `tool`: one per property of its input schema, by the
/// option its derived verb `verb` gives it (`arg-timeout` for `timeout`, a host option's
/// name), the required ones first. A property no option can be named for (`""`, `a=b`)
/// is left out. An array is given as JSON (`'["a", "b"]'`): the kits take an option once.
fn params_of(verb: &crate::derived::Derived, tool: &serde_json::Value) -> Vec<ToolParam> {
    let properties = tool["inputSchema"]["properties"].as_object();
    let mut params: Vec<ToolParam> = properties
        .into_iter()
        .flat_map(|properties| properties.keys())
        .filter_map(|key| {
            let option = verb.option_for(key)?;
            let param = verb.spec.option(option)?;
            let range = verb
                .facts(option)
                .map(|facts| facts.range)
                .unwrap_or_default();
            // A choice of numbers (`enum: [1, 2, 4]`) is sent as JSON: the kits send a
            // choice as a string, the derived verb sends the number. A boolean is the
            // choice `true` or `false` ([`BOOLEAN`]), sent as one: a kit's flag can only
            // send `true`; a required one too, a positional, which takes `true` from
            // `--args` as the word (`{"visible": true}`; it was JSON, as a choice
            // positional took only a string). A list of booleans is JSON, as any list.
            let values = tool["inputSchema"]["properties"][key]["enum"].as_array();
            let typed_choice = param.kind == ValueKind::Choice
                && values.is_some_and(|values| values.iter().any(|v| !v.is_string()));
            let flag = param.kind == ValueKind::Flag && !param.repeatable;
            let boolean = flag;
            let json = param.repeatable || typed_choice;
            let kind = match () {
                _ if json => ValueKind::Json,
                _ if boolean => ValueKind::Choice,
                _ => param.kind,
            };
            let value_name = match param.value_name.as_str() {
                _ if flag => "true|false",
                name if typed_choice && !param.repeatable && !name.is_empty() => name,
                _ if json => "JSON",
                "" => "VALUE",
                name => name,
            };
            let sample = match () {
                // A list is given as JSON (`'[]'`): `{}`, a kit's JSON sample, is no list.
                _ if param.repeatable => Some(serde_json::json!([])),
                _ if flag => Some(serde_json::json!(true)),
                _ if typed_choice => values.and_then(|values| values.first()).cloned(),
                _ if param.kind == ValueKind::Choice => {
                    param.choices.first().map(|c| serde_json::json!(c))
                }
                _ => None,
            };
            // `minimum: 0` alone is a count's whole range; any other bounds of an
            // integer or a number the kit holds it to (a list's items' are the tool's to
            // judge: it is given as JSON).
            let numeric = matches!(kind, ValueKind::Integer | ValueKind::Number);
            let counts = kind == ValueKind::Integer && range == zero_or_more();
            let bounds = match numeric && !counts {
                true => range
                    .iter()
                    .map(|(name, at)| (name.clone(), at.to_string()))
                    .collect(),
                false => Vec::new(),
            };
            // The derived verb's help says how its flag is given (`--on` or
            // `--on=false`); this verb's positional takes the word `true` or `false`
            // (also `--on true`), and refused `--on`.
            let help = match flag && param.required {
                true => param.help.replace(
                    &format!("required: `--{option}` or `--{option}=false`"),
                    "required: `true` or `false`",
                ),
                false => param.help.clone(),
            };
            Some(ToolParam {
                option: option.to_owned(),
                key: key.clone(),
                kind,
                value_name: value_name.to_owned(),
                help,
                required: param.required,
                choices: match () {
                    _ if json => Vec::new(),
                    _ if boolean => BOOLEAN.map(str::to_owned).to_vec(),
                    _ => param.choices.clone(),
                },
                counts,
                bounds,
                boolean,
                sample,
            })
        })
        .collect();
    params.sort_by_key(|param| !param.required);
    params
}

/// `{"minimum": 0}`: the range of a count.
fn zero_or_more() -> serde_json::Map<String, serde_json::Value> {
    let mut range = serde_json::Map::new();
    range.insert("minimum".to_owned(), 0.into());
    range
}

/// The Rust kit's `Bounds` of `param` (`Bounds::NONE.at_least("1").at_most("100")`),
/// if it has any ([`ToolParam::bounds`]).
fn rust_bounds(param: &ToolParam) -> Option<String> {
    let ends: Vec<String> = param
        .bounds
        .iter()
        .map(|(name, at)| {
            let method = match name.as_str() {
                "minimum" => "at_least",
                "exclusiveMinimum" => "above",
                "maximum" => "at_most",
                _ => "below",
            };
            format!(".{method}(\"{at}\")")
        })
        .collect();
    (!ends.is_empty()).then(|| format!("Bounds::NONE{}", ends.concat()))
}

/// `.within(…)` of `param`'s [`rust_bounds`], or nothing.
fn within(param: &ToolParam) -> String {
    rust_bounds(param).map_or_else(String::new, |bounds| format!(".within({bounds})"))
}

/// Creates the project `<dir>/<name>/` (dir: the working directory by default).
/// `reserved` are the words the host answers itself after `mur devtools`: a
/// verb by such a name could never be called, so it is refused here, before
/// anything is written or compiled. `tool`: the session's tool of that name, which
/// the verb then calls (its `tool` and summary), else the standard `click`.
pub fn new_verb(
    name: &str,
    lang: Lang,
    dir: Option<&Path>,
    reserved: &[String],
    tool: Option<&Tool>,
) -> Result<Created, VerbError> {
    check_name(name, reserved)?;
    let dir = dir.unwrap_or_else(|| Path::new("."));
    let root = dir.join(name);
    // Not `exists()`, which follows a link: a dangling one there is taken too.
    if std::fs::symlink_metadata(&root).is_ok() {
        return Err(VerbError::refused(
            format!("`{}` already exists", root.display()),
            "pick another name, or another place with `--dir PATH`",
        ));
    }
    make_dir(dir, &root)?;
    let tool = tool.cloned().unwrap_or_else(Tool::click);
    write_project(&root, &files(name, lang, &tool))?;
    let root = std::fs::canonicalize(&root).unwrap_or(root);
    let mut next_steps = next_steps(name, lang, &root);
    if let Some(warning) = installed_warning(name) {
        next_steps = format!("{warning}\n{next_steps}");
    }
    Ok(Created { root, next_steps })
}

/// Makes `dir`, where the project `root` goes. A `--dir` that cannot hold a
/// project (a file, a link to nothing, a path under a file or a missing or read-only
/// place) is the user's to fix (exit 1), said in one form; only a failure of the disk
/// itself (full, …) is mur's own (exit 7), named by the project's directory.
fn make_dir(dir: &Path, root: &Path) -> Result<(), VerbError> {
    std::fs::create_dir_all(dir).map_err(|e| match unusable_dir(dir, &e) {
        Some((why, hint)) => VerbError::refused(
            format!(
                "`--dir` `{}` cannot hold the new verb: {why}",
                dir.display()
            ),
            hint,
        ),
        None => io_error("make the directory", root, e),
    })
}

/// Why `dir` cannot hold a project, given what making it failed with, and the fix; `None`
/// for a failure that is not `dir`'s (a full disk). The OS's words lose their
/// "(os error N)", which `--dir` naming a file did not have.
fn unusable_dir(dir: &Path, e: &std::io::Error) -> Option<(String, &'static str)> {
    use std::io::ErrorKind as K;
    const HINT: &str =
        "name a directory with `--dir PATH`: one that exists, or a new one inside one that exists";
    let there = std::fs::symlink_metadata(dir).is_ok();
    if there && !dir.exists() {
        return Some((
            "it is a symbolic link to nothing".into(),
            "make the directory it names, or pick another place with `--dir PATH`",
        ));
    }
    if there && !dir.is_dir() {
        // `create_dir_all` says "File exists" of a file: what is wrong is its kind.
        return Some(("it is not a directory".into(), HINT));
    }
    let theirs = matches!(
        e.kind(),
        K::NotFound
            | K::NotADirectory
            | K::PermissionDenied
            | K::ReadOnlyFilesystem
            | K::AlreadyExists
    );
    let words = e.to_string();
    let words = words.split(" (os error").next().unwrap_or_default();
    theirs.then(|| (words.to_lowercase(), HINT))
}

/// Writes `files` as the project `root`, whole or not at all: into a hidden sibling
/// directory first, renamed into place once every file is written. A write that
/// fails (a full disk) leaves no half-made project, which a retry would find
/// "already exists"; the errors name the files under `root`, where they were meant.
/// Every file and directory is synced before the rename and the parent after it, as an
/// atomic write of one file is: a crash just after must not leave a project of empty or
/// missing files.
fn write_project(root: &Path, files: &[File]) -> Result<(), VerbError> {
    let staging = make_staging(root)?;
    let written = files
        .iter()
        .try_for_each(|file| write(&staging, root, file))
        .and_then(|()| {
            let dirs: std::collections::BTreeSet<PathBuf> = files
                .iter()
                .filter_map(|file| staging.join(&file.path).parent().map(Path::to_owned))
                .collect();
            dirs.iter().for_each(|dir| mur_lockfile::sync_dir(dir));
            std::fs::rename(&staging, root).map_err(|e| io_error("make the directory", root, e))
        })
        .inspect(|()| {
            if let Some(parent) = root.parent() {
                mur_lockfile::sync_dir(parent);
            }
        });
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    written
}

/// Makes the hidden sibling `.NAME.new-<pid>-<n>` that [`write_project`] fills: the first
/// `n` not taken, since a run killed midway leaves its own behind, and in a container
/// every run may have the same pid (one such leftover refused every retry).
fn make_staging(root: &Path) -> Result<PathBuf, VerbError> {
    let mut failure = std::io::ErrorKind::AlreadyExists.into();
    for n in 0..100 {
        let mut name = std::ffi::OsString::from(".");
        name.push(root.file_name().unwrap_or_default());
        name.push(format!(".new-{}-{n}", std::process::id()));
        let staging = root.with_file_name(name);
        match std::fs::create_dir(&staging) {
            Ok(()) => return Ok(staging),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => failure = e,
            Err(e) => return Err(io_error("make the directory", root, e)),
        }
    }
    Err(io_error("make the directory", root, failure))
}

/// A warning when a verb `name` is installed already: the next steps' `verbs add`
/// is refused then, and with `--force` replaces it (the standard `click`, for
/// `verbs new click`). Best effort: an unreadable verb directory is no reason to
/// refuse a new project.
fn installed_warning(name: &str) -> Option<String> {
    installed(name).map(|entry| replaces_warning(&entry))
}

/// The installed verb `name`, if any. Best effort: an unreadable verb directory is no
/// reason to refuse a new project, nor to leave out the name a refusal suggests.
fn installed(name: &str) -> Option<crate::index::Entry> {
    let dirs = crate::VerbDirs::from_env().ok()?;
    let index = crate::index::Index::load_only(&dirs.verbs, name).ok()?;
    index.get(name).cloned()
}

/// What [`installed_warning`] says of the installed verb `entry`.
fn replaces_warning(entry: &crate::index::Entry) -> String {
    let name = &entry.name;
    format!(
        "warning: a verb `{name}` is installed already (tool `{}`); the `verbs add` below is \
         refused, and `verbs add --force` would replace it: to keep it, pick another name \
         (e.g. `my-{name}`)",
        entry.tool
    )
}

/// One file of a new project.
#[derive(Debug, Clone, PartialEq, Eq)]
struct File {
    path: String,
    text: String,
    executable: bool,
}

fn file(path: impl Into<String>, text: impl Into<String>) -> File {
    File {
        path: path.into(),
        text: text.into(),
        executable: false,
    }
}

/// The file a template makes (see [`templates!`]); a shell script is executable.
fn from_template(&(name, text): &(&str, &str), fill: impl Fn(&str) -> String) -> File {
    let (path, text) = match name.strip_suffix(".tmpl") {
        Some(path) => (path, fill(text)),
        None => (name, with_host_options(text)),
    };
    File {
        executable: path.ends_with(".sh"),
        ..file(path, text)
    }
}

/// The place in the Python and JavaScript kits where the host's options go: a
/// list's one string, so that the kit's source reads as code until it is filled.
const HOST_OPTIONS_MARK: &str = "\"@host-options@\"";

/// `text` with the host's options (`"endpoint", "project", …`) in place of
/// [`HOST_OPTIONS_MARK`]: a kit names a misspelt one after a verb's name
/// (`--projct`), and a guest cannot ask the host for them.
fn with_host_options(text: &str) -> String {
    let quoted: Vec<String> = crate::derived::host_options()
        .iter()
        .map(|option| format!("\"{option}\""))
        .collect();
    text.replace(HOST_OPTIONS_MARK, &quoted.join(", "))
}

/// `text` as the inside of a double-quoted string literal of Rust, Python and
/// JavaScript alike: its quotes and backslashes escaped, its control characters gone.
fn literal(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}

/// `text` cut to at most `bytes` bytes on a character boundary, an ellipsis marking the cut.
fn cut(text: &str, bytes: usize) -> String {
    if text.len() <= bytes {
        return text.to_owned();
    }
    const MORE: &str = "…";
    let mut end = bytes - MORE.len();
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{MORE}", text[..end].trim_end())
}

/// `template` with each `{key}` of `values` replaced by its value, in one pass: a value
/// is never searched again, so a tool's description that says `{name}` stays as it is.
fn fill_in(template: &str, values: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let found = values.iter().find(|(key, _)| {
            rest.strip_prefix('{')
                .and_then(|r| r.strip_prefix(key))
                .is_some_and(|r| r.starts_with('}'))
        });
        match found {
            Some((key, value)) => {
                out.push_str(value);
                rest = &rest[key.len() + 2..];
            }
            None => {
                out.push('{');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// What a template says of its verb: the words of the module's first line (`usage`,
/// `what`), the example and its params, in each language. The template's own verb, of
/// `click`, takes a `<selector>`; a verb made for a session's tool takes one param per
/// property of the tool's input schema ([`Tool::params`]): it took a placeholder
/// `<selector>`, sent as a `selector` the tool refused.
fn described(name: &str, lang: Lang, tool: &Tool) -> Vec<(&'static str, String)> {
    let Some(params) = &tool.params else {
        return selector_described(name, lang);
    };
    let usage: Vec<String> = params
        .iter()
        .map(|p| match p.required {
            true => format!("<{}>", p.option),
            false if p.kind == ValueKind::Flag => format!("[--{}]", p.option),
            false => format!("[--{} {}]", p.option, p.value_name),
        })
        .collect();
    let example: String = std::iter::once(format!("mur devtools {name}"))
        .chain(
            params
                .iter()
                .filter(|p| p.required)
                // The word the verb's own tests give ([`sample`]), which the verb takes
                // as printed: `'N'` or `'JSON'` (the value's name) it refused.
                .map(|p| mur_core::shell_word(&sample(p).0)),
        )
        .collect::<Vec<_>>()
        .join(" ");
    let source = params_source(lang, params);
    let imports = imports(lang, &source);
    let what = match params.is_empty() {
        true => "call the tool, which takes no params",
        false => "call the tool with one param per property of its input schema",
    };
    let usage: String = usage.iter().map(|word| format!(" {word}")).collect();
    // Python's is in a docstring, where `C:\Name` (a choice's word) is a syntax
    // error and `"""` would end it.
    let usage = match lang {
        Lang::Python => literal(&usage),
        _ => usage,
    };
    vec![
        ("usage", usage),
        ("what", what.to_owned()),
        ("example", literal(&example)),
        // The README's, a line of a shell block: as typed, not a string literal's inside.
        ("example_line", example),
        ("params", source),
        ("imports", imports),
    ]
}

/// What the verb's `source` of its params uses of the kit, for its `use` or `import`
/// line: only that, so that nothing unused is imported.
fn imports(lang: Lang, source: &str) -> String {
    // A name is used where its mark is in `source` (`""`: always), in rustfmt's order.
    let used = |names: &[(&str, &str)]| -> String {
        let used: Vec<&str> = names
            .iter()
            .filter(|(_, mark)| source.contains(mark))
            .map(|(name, _)| *name)
            .collect();
        used.join(", ")
    };
    match lang {
        Lang::Rust => format!(
            "{{{}}}",
            used(&[
                ("About", ""),
                ("Args", "fn arguments"),
                ("Bounds", "Bounds::"),
                ("Kind", "Kind::"),
                ("Map", "fn arguments"),
                ("Opt", "Opt::"),
                ("Pos", "Pos::"),
                ("Spec", ""),
                ("Value", "fn arguments"),
                ("Verb", ""),
                ("argv::camel_case", "camel_case("),
                ("serde_json", "serde_json::"),
            ])
        ),
        Lang::JavaScript => used(&[
            ("Verb", ""),
            ("VerbError", "new VerbError("),
            ("flag", "flag("),
            ("option", "option("),
            ("positional", "positional("),
        ]),
        Lang::Python => String::new(),
    }
}

/// [`described`] of the template's verb, of `click`.
fn selector_described(name: &str, lang: Lang) -> Vec<(&'static str, String)> {
    let help = "the element to click";
    let params = match lang {
        Lang::Rust => format!("\"{help}\""),
        Lang::Python => format!("    positionals = [kit.selector(\"{help}\")]"),
        Lang::JavaScript => format!("  positionals: [selector(\"{help}\")],"),
    };
    let example = format!("mur devtools {name} '#btn-inc'");
    vec![
        ("usage", " <selector>".to_owned()),
        ("what", "click the element a selector matches".to_owned()),
        ("example", example.clone()),
        // The README's, a line of a shell block: as typed, not a string literal's inside.
        ("example_line", example),
        ("params", params),
        ("imports", "Verb, selector".to_owned()),
    ]
}

/// The declarations of `params` in `lang`: a positional per required one (also given
/// as `--OPTION VALUE`), an option per other, each sent as its property.
fn params_source(lang: Lang, params: &[ToolParam]) -> String {
    let (positionals, options): (Vec<&ToolParam>, Vec<&ToolParam>) =
        params.iter().partition(|p| p.required);
    let python = lang == Lang::Python;
    // The Python or JavaScript kit's list `field` of `params`: none where there are none.
    let list = |field: &str, params: &[&ToolParam]| {
        let lines: String = params.iter().map(|p| kit_param(p, lang)).collect();
        match (params.is_empty(), python) {
            (true, _) => String::new(),
            (false, true) => format!("    {field} = [\n{lines}    ]\n"),
            (false, false) => format!("  {field}: [\n{lines}  ],\n"),
        }
    };
    match lang {
        Lang::Rust if params.is_empty() => "    const SPEC: Spec = Spec::NONE;\n".to_owned(),
        _ if params.is_empty() => String::new(),
        Lang::Rust => rust_spec(&positionals, &options),
        Lang::Python | Lang::JavaScript => {
            let lists = list("positionals", &positionals) + &list("options", &options);
            let keys = boolean_keys(params);
            let arguments = match (keys.is_empty(), python) {
                (true, _) => String::new(),
                (false, true) => format!(
                    "\n\n    def arguments(self, args):\n        \
                     sent = super().arguments(args)\n        \
                     # {BOOLEAN_SENT}\n        \
                     for key in ({keys},):\n            \
                     if sent.get(key) in (\"true\", \"false\"):\n                \
                     sent[key] = sent[key] == \"true\"\n        \
                     return sent"
                ),
                (false, false) => format!(
                    "\n  // The kit's arguments, as the tool takes them.\n  \
                     arguments(args) {{\n    \
                     const sent = Verb.prototype.arguments.call(this, args);\n    \
                     // {BOOLEAN_SENT}\n    \
                     for (const key of [{keys}]) {{\n      \
                     if (sent[key] === \"true\" || sent[key] === \"false\") sent[key] = sent[key] === \"true\";\n    \
                     }}\n    \
                     return sent;\n  \
                     }},"
                ),
            };
            let comment = if python { "    #" } else { "  //" };
            format!(
                "{comment} One param per property of the tool's input schema, sent as it.\n{}{arguments}",
                lists.trim_end()
            )
        }
    }
}

/// What a verb's `arguments` says of what it does to a boolean ([`BOOLEAN`]).
const BOOLEAN_SENT: &str =
    "A boolean is given as the word `true` or `false` (a choice) and sent as the value.";

/// Whether `param` is an integer its tool's schema holds to 0 or more, and to nothing
/// else ([`ToolParam::counts`]): a count of each kit, which refuses `-1` in the Rust kit's
/// words (its `Kind::Count`; the Python and JavaScript kits' kind `count`), where an
/// `integer` sends it.
fn counts(param: &ToolParam) -> bool {
    param.kind == ValueKind::Integer && param.counts
}

/// The keys of the boolean params of `params` ([`ToolParam::boolean`]), each a string
/// literal: those the verb's `arguments` sends as `true` or `false`, not as a word.
fn boolean_keys(params: &[ToolParam]) -> String {
    let keys: Vec<String> = params
        .iter()
        .filter(|p| p.boolean)
        .map(|p| p.key.clone())
        .collect();
    quoted(&keys)
}

/// A kit's name of `param`'s kind (`integer`), as the Python and JavaScript kits spell it:
/// `count` for a count ([`counts`]), which the kits declare to the host as an `integer`.
fn kit_kind(param: &ToolParam) -> String {
    match counts(param) {
        true => "count".to_owned(),
        false => param.kind.name(),
    }
}

/// The line that declares `param` in the Python kit (`kit.option("n", …, key="n"),`)
/// or the JavaScript kit (`option("n", …, { key: "n" }),`), which differ only in how
/// they write the call: the function (`positional`, `option` or `flag`), its words as
/// string literals, then its named arguments in order (`kind`, `choices`, `key`,
/// `option`).
fn kit_param(param: &ToolParam, lang: Lang) -> String {
    let python = lang == Lang::Python;
    let word = |text: &str| format!("\"{}\"", literal(text));
    let (option, value, help) = (
        word(&param.option),
        word(&param.value_name),
        word(&param.help),
    );
    let (function, words) = match (param.required, param.kind) {
        (true, _) => ("positional", vec![option, help]),
        (false, ValueKind::Flag) => ("flag", vec![option, help]),
        (false, _) => ("option", vec![option, value.clone(), help]),
    };
    let mut named = Vec::new();
    if function != "flag" {
        named.push(("kind", word(&kit_kind(param))));
        let choices = quoted(&param.choices);
        match (param.choices.is_empty(), python) {
            (true, _) => {}
            (false, true) => named.push(("choices", format!("({choices},)"))),
            (false, false) => named.push(("choices", format!("[{choices}]"))),
        }
    }
    named.push(("key", word(&param.key)));
    if function == "positional" {
        named.push(("option", value));
    }
    // The schema's bounds by the kit's names (`exclusive_minimum`, `exclusiveMinimum`).
    let bounds: Vec<(String, String)> = param
        .bounds
        .iter()
        .map(|(name, at)| match python {
            true => (name.replace("exclusiveM", "exclusive_m"), at.clone()),
            false => (name.clone(), js_number(at)),
        })
        .collect();
    named.extend(bounds.iter().map(|(name, at)| (name.as_str(), at.clone())));
    let (words, separator) = (words.join(", "), if python { "=" } else { ": " });
    let named: Vec<String> = named
        .iter()
        .map(|(name, v)| format!("{name}{separator}{v}"))
        .collect();
    let named = named.join(", ");
    match python {
        true => format!("        kit.{function}({words}, {named}),\n"),
        false => format!("    {function}({words}, {{ {named} }}),\n"),
    }
}

/// A JSON number (`2000`, `0.5`) as a JavaScript literal: an integer past what a number
/// holds exactly (beyond ±(2^53 - 1)) a BigInt (`18446744073709551614n`), as the kit
/// takes one.
fn js_number(at: &str) -> String {
    let whole = at
        .trim_start_matches('-')
        .bytes()
        .all(|b| b.is_ascii_digit());
    let exact = at.parse::<i64>().is_ok_and(|n| n.unsigned_abs() < 1 << 53);
    match whole && !exact {
        true => format!("{at}n"),
        false => at.to_owned(),
    }
}

/// `"a", "b"`: each word a string literal.
fn quoted(words: &[String]) -> String {
    let quoted: Vec<String> = words
        .iter()
        .map(|w| format!("\"{}\"", literal(w)))
        .collect();
    quoted.join(", ")
}

/// The Rust kit's `Kind` of `param`: one it sends as the tool takes it (`Kind::Count` for
/// an integer at least 0, `Kind::Integer` for one that may be below 0, `Kind::Number`
/// for a number, each read as the Python and JavaScript kits' kind of that name reads
/// one; an integer was `Kind::Json`, which took `"1"` and sent a string).
fn rust_kind(param: &ToolParam) -> String {
    match param.kind {
        ValueKind::Flag => "Kind::Flag".to_owned(),
        ValueKind::Selector => "Kind::Selector".to_owned(),
        ValueKind::Name => "Kind::Name".to_owned(),
        ValueKind::Choice => format!("Kind::Choice(&[{}])", quoted(&param.choices)),
        ValueKind::Integer if counts(param) => "Kind::Count".to_owned(),
        ValueKind::Integer => "Kind::Integer".to_owned(),
        ValueKind::Number => "Kind::Number".to_owned(),
        ValueKind::Json => "Kind::Json".to_owned(),
        _ => "Kind::Text".to_owned(),
    }
}

/// The Rust kit sends an option under its name in camelCase: whether `param`'s tool
/// names it otherwise (`max_results`, `timeout` for `--arg-timeout`).
fn renamed(param: &ToolParam) -> bool {
    !param.required && camel_case(&param.option) != param.key
}

/// The Rust verb's `SPEC` (filled into `{params}`), and its `arguments` when an option's
/// key is not its name in camelCase: such a JSON option is read by the verb itself
/// (`Kind::Local`), the kit adding a JSON option under its camelCase name.
fn rust_spec(positionals: &[&ToolParam], options: &[&ToolParam]) -> String {
    let every: Vec<ToolParam> = positionals
        .iter()
        .chain(options)
        .map(|p| (*p).clone())
        .collect();
    let booleans = boolean_keys(&every);
    let positionals: String = positionals
        .iter()
        .map(|p| {
            format!(
                "            Pos::new(\"{}\", \"{}\", {}, \"{}\").or_option(\"{}\"){},\n",
                literal(&p.option),
                literal(&p.key),
                rust_kind(p),
                literal(&p.help),
                literal(&p.value_name),
                within(p)
            )
        })
        .collect();
    let local = |p: &ToolParam| renamed(p) && rust_kind(p) == "Kind::Json";
    let options_source: String = options
        .iter()
        .map(|p| {
            let (option, help) = (literal(&p.option), literal(&p.help));
            let line = match p.kind {
                ValueKind::Flag => format!("Opt::flag(\"{option}\", \"{help}\")"),
                _ => {
                    let kind = if local(p) {
                        "Kind::Local".to_owned()
                    } else {
                        rust_kind(p)
                    };
                    let value = literal(&p.value_name);
                    let within = within(p);
                    format!("Opt::value(\"{option}\", \"{value}\", {kind}, \"{help}\"){within}")
                }
            };
            format!("            {line},\n")
        })
        .collect();
    let pairs = |which: &dyn Fn(&ToolParam) -> bool| -> String {
        let pairs: Vec<String> = options
            .iter()
            .filter(|p| which(p))
            .map(|p| format!("(\"{}\", \"{}\")", literal(&p.option), literal(&p.key)))
            .collect();
        pairs.join(", ")
    };
    let moved = pairs(&|p| renamed(p) && !local(p));
    let read = pairs(&local);
    let mut arguments = String::new();
    if !moved.is_empty() || !read.is_empty() || !booleans.is_empty() {
        arguments.push_str(
            "\n    /// The kit's arguments as the tool takes them: each option the tool names\n    \
             /// otherwise than in camelCase (the kit's default) under its name, a boolean\n    \
             /// as one.\n    \
             fn arguments(args: &Args) -> Result<Map<String, Value>, String> {\n        \
             let mut arguments = args.arguments();\n",
        );
    }
    if !moved.is_empty() {
        arguments.push_str(&format!(
            "        for (option, key) in [{moved}] {{\n            \
             if let Some(value) = arguments.remove(&camel_case(option)) {{\n                \
             arguments.insert(key.to_owned(), value);\n            }}\n        }}\n"
        ));
    }
    if !read.is_empty() {
        arguments.push_str(&format!(
            "        for (option, key) in [{read}] {{\n            \
             if let Some(text) = args.value(option) {{\n                \
             let value = serde_json::from_str(text)\n                    \
             .map_err(|_| format!(\"`--{{option}}` needs a JSON value, got `{{text}}`\"))?;\n                \
             arguments.insert(key.to_owned(), value);\n            }}\n        }}\n"
        ));
    }
    if !booleans.is_empty() {
        arguments.push_str(&format!(
            "        // {BOOLEAN_SENT}\n        \
             for key in [{booleans}] {{\n            \
             if let Some(value) = arguments.get_mut(key).filter(|v| v.is_string()) {{\n                \
             *value = Value::Bool(*value == \"true\");\n            }}\n        }}\n"
        ));
    }
    if !arguments.is_empty() {
        arguments.push_str("        Ok(arguments)\n    }\n");
    }
    format!(
        "    const SPEC: Spec = Spec {{\n        positionals: &[\n{positionals}        ],\n        \
         options: &[\n{options_source}        ],\n        exclusive: &[],\n    }};\n{arguments}"
    )
}

/// The project's files and their contents, for a verb calling `tool`.
fn files(name: &str, lang: Lang, tool: &Tool) -> Vec<File> {
    let mut values = vec![
        ("name", name.to_owned()),
        ("Type", type_name(name)),
        ("file", component_file(name, lang)),
        ("tool", literal(&tool.name)),
        ("summary", literal(&tool.summary)),
    ];
    values.extend(described(name, lang, tool));
    let fill = |template: &str| fill_in(template, &values);
    let mut files = vec![file("wit/verb.wit", VERB_WIT)];
    match lang {
        Lang::Rust => {
            files.extend([
                file("Cargo.toml", fill(rust::CARGO_TOML)),
                file(
                    "src/lib.rs",
                    fill(match tool.params {
                        Some(_) => rust::TOOL_RS,
                        None => rust::LIB_RS,
                    }),
                ),
                file("README.md", fill(rust::README)),
                file(".gitignore", "/target\n"),
                file("vendor/mur-verb-kit/Cargo.toml", rust::KIT_CARGO_TOML),
            ]);
            files.extend(
                rust::KIT_SOURCES
                    .iter()
                    .map(|(path, text)| file(format!("vendor/mur-verb-kit/src/{path}"), *text)),
            );
        }
        Lang::Python => {
            files.extend(PYTHON.iter().map(|template| from_template(template, fill)));
            files.push(file(".gitignore", "/.venv\n__pycache__/\n*.wasm\n"));
        }
        Lang::JavaScript => {
            files.extend(JS.iter().map(|template| from_template(template, fill)));
            files.push(file(".gitignore", "/node_modules\n*.wasm\n"));
        }
    }
    // The verb's own tests of its tool's params, not of the template's `<selector>`.
    let tests = match lang {
        Lang::Python => Some(("test_app.py", tool_tests::PYTHON)),
        Lang::JavaScript => Some(("verb.test.js", tool_tests::JS)),
        Lang::Rust => None,
    };
    if let (Some(params), Some((path, template))) = (&tool.params, tests) {
        let (words, sent) = sample_call(params);
        let values = [("words", words), ("sent", sent)];
        if let Some(at) = files.iter().position(|f| f.path == path) {
            files[at].text = fill_in(template, &values);
        }
    }
    files
}

/// A command line giving each required param of `params` a value, and the arguments
/// it sends, as Python and JavaScript both write them (JSON): what a verb's own test
/// parses.
fn sample_call(params: &[ToolParam]) -> (String, String) {
    let mut words = Vec::new();
    let mut sent = serde_json::Map::new();
    for param in params.iter().filter(|p| p.required) {
        let (word, value) = sample(param);
        words.push(serde_json::Value::from(word));
        sent.insert(param.key.clone(), value);
    }
    (
        serde_json::Value::from(words).to_string(),
        serde_json::Value::from(sent).to_string(),
    )
}

/// A word `param` takes, and the value it sends: the one of the verb's own tests
/// ([`sample_call`]) and of its example (`--help`, the README), so that both run as
/// printed.
fn sample(param: &ToolParam) -> (String, serde_json::Value) {
    match param.kind {
        _ if param.sample.is_some() => {
            let value = param.sample.clone().unwrap_or_default();
            (sample_word(&value), value)
        }
        ValueKind::Selector => ("#x".to_owned(), serde_json::json!("#x")),
        ValueKind::Choice => {
            let first = param.choices.first().cloned().unwrap_or_default();
            (first.clone(), serde_json::json!(first))
        }
        ValueKind::Integer => ("1".to_owned(), serde_json::json!(1)),
        ValueKind::Number => ("1.5".to_owned(), serde_json::json!(1.5)),
        ValueKind::Json => ("{}".to_owned(), serde_json::json!({})),
        _ => ("x".to_owned(), serde_json::json!("x")),
    }
}

/// The word a command line gives for `value`: a string as it is, else its JSON.
fn sample_word(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(text) => text.clone(),
        value => value.to_string(),
    }
}

/// The component a project's build writes, relative to its root.
pub fn component_file(name: &str, lang: Lang) -> String {
    match lang {
        Lang::Rust => format!(
            "target/wasm32-wasip2/release/mur_verb_{}.wasm",
            name.replace('-', "_")
        ),
        Lang::Python | Lang::JavaScript => format!("{name}.wasm"),
    }
}

/// The Rust type of verb `name`: `click-twice` → `ClickTwiceVerb`. The suffix keeps it
/// clear of Rust's keywords (`self` made `Self`), of what the template imports
/// (`about` made `About`) and of std's types (`string` made `String`), which every
/// name `verbs new` accepts turned into a project that did not build.
fn type_name(name: &str) -> String {
    let words: String = name
        .split('-')
        .map(|word| {
            let mut letters = word.chars();
            letters.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + letters.as_str()
            })
        })
        .collect();
    words + "Verb"
}

/// The one name rule ([`crate::names::judge`]), said of the name the user typed.
fn check_name(name: &str, reserved: &[String]) -> Result<(), VerbError> {
    match crate::names::judge(name, reserved) {
        Ok(()) => Ok(()),
        Err(Unusable::Malformed) => Err(VerbError::refused(
            match crate::names::too_long(name) {
                Some(length) => {
                    format!("`{name}` is not a verb name: it is {length} characters long")
                }
                None => format!("`{name}` is not a verb name"),
            },
            suggested(name, reserved),
        )),
        Err(Unusable::Reserved) => Err(VerbError::refused(
            format!(
                "`{name}` is a word `mur devtools` answers itself; a verb by that name could not be called"
            ),
            format!("pick another name (e.g. `my-{name}`)"),
        )),
        Err(Unusable::Index) => Err(VerbError::refused(
            format!(
                "`{name}` is the name of the verb directory's own index; a verb by that name would be taken for it"
            ),
            format!("pick another name (e.g. `my-{name}`)"),
        )),
    }
}

/// The hint under the refusal of malformed `name`: the usable name it was likely meant
/// as ([`crate::names::suggestion`]), and the rule. A name so suggested that an installed
/// verb has is said to be taken, with another: taken as it was offered, `verbs new
/// Click` made `click`, whose next steps (`verbs add --force`) replace the standard
/// `click`, the warning above them the only word of it.
fn suggested(name: &str, reserved: &[String]) -> String {
    let rule = crate::names::VERB_NAME_RULE;
    match crate::names::suggestion(name, reserved) {
        Some(meant) => match installed(&meant) {
            Some(entry) => format!(
                "not `{meant}` either: a verb `{meant}` is installed already (tool `{}`); \
                 pick another name (e.g. `my-{meant}`): {rule}",
                entry.tool
            ),
            None => format!("did you mean `{meant}`? {rule}"),
        },
        None => format!("{rule} (e.g. `bump`)"),
    }
}

/// Writes `file` under `staging`; an error names it under `root`.
fn write(staging: &Path, root: &Path, file: &File) -> Result<(), VerbError> {
    let path = staging.join(&file.path);
    let fail = |e: std::io::Error| io_error("write", &root.join(&file.path), e);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(fail)?;
    }
    let mut out = std::fs::File::create(&path).map_err(fail)?;
    std::io::Write::write_all(&mut out, file.text.as_bytes())
        .and_then(|()| out.sync_all())
        .map_err(fail)?;
    #[cfg(unix)]
    if file.executable {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).map_err(fail)?;
    }
    Ok(())
}

fn next_steps(name: &str, lang: Lang, root: &Path) -> String {
    let build = match lang {
        Lang::Rust => {
            "cargo test\n  rustup target add wasm32-wasip2\n  cargo build --release --target wasm32-wasip2"
        }
        Lang::Python => {
            "python3 -m unittest\n  python3 -m venv .venv && .venv/bin/pip install -r requirements.txt\n  ./build.sh"
        }
        Lang::JavaScript => "node --test\n  npm install\n  node build.mjs",
    };
    format!(
        "created verb `{name}`; next:\n  cd {}\n  {build}\n  mur devtools verbs add {}\n  \
         mur devtools {name} --help",
        root.display(),
        component_file(name, lang)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Lang; 3] = [Lang::Rust, Lang::Python, Lang::JavaScript];

    fn text(files: &[File], path: &str) -> String {
        files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("no {path}"))
            .text
            .clone()
    }

    /// The error `new_verb` refuses a Rust verb `name` in `dir` with, the user's to fix
    /// (exit 1).
    fn refused_in(name: &str, dir: &Path) -> VerbError {
        let err = new_verb(name, Lang::Rust, Some(dir), &[], None).expect_err("refused");
        assert_eq!(err.kind(), mur_core::Kind::Usage, "{err}");
        err
    }

    /// What a refusal says of a `--dir` that cannot hold the new verb, and `why`.
    fn cannot_hold(dir: &Path, why: &str) -> String {
        format!(
            "`--dir` `{}` cannot hold the new verb: {why}",
            dir.display()
        )
    }

    /// `--dir` naming a file, or a place under a file or under nothing: the user's to
    /// fix (exit 1), said in one form with the fix, neither "mur itself failed" (exit
    /// 7, as it was: `--dir` is what the user typed) nor with the OS's "(os error 2)".
    #[test]
    fn a_dir_that_cannot_hold_the_verb_is_the_users_to_fix_in_one_form() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let afile = tmp.path().join("afile");
        std::fs::write(&afile, "").expect("write");
        let under = afile.join("sub");
        let cases = [
            (afile.clone(), "it is not a directory"),
            (under.clone(), "not a directory"),
        ];
        for (dir, why) in cases {
            let err = refused_in("foo", &dir);
            assert_eq!(err.to_string(), cannot_hold(&dir, why));
            assert_eq!(
                err.hint().as_deref(),
                Some(
                    "name a directory with `--dir PATH`: one that exists, or a new one inside one that exists"
                )
            );
        }
    }

    /// A link to nothing is no place for a project: at `DIR/NAME` it is there already
    /// (exit 1, as a file would be), as `--dir` it is the user's to fix (exit 1),
    /// neither mur's "File exists" (exit 7).
    #[cfg(unix)]
    #[test]
    fn a_dangling_link_is_refused_as_the_users_to_fix() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let link = tmp.path().join("bump");
        std::os::unix::fs::symlink("nowhere", &link).expect("link");
        assert_eq!(
            refused_in("bump", tmp.path()).to_string(),
            format!("`{}` already exists", link.display())
        );
        assert_eq!(
            refused_in("foo", &link).to_string(),
            cannot_hold(&link, "it is a symbolic link to nothing")
        );
        assert!(
            std::fs::symlink_metadata(&link).is_ok_and(|m| m.is_symlink()),
            "the link is left alone"
        );
        // A project is made whole, and nothing else is left beside it.
        let made = new_verb("fine", Lang::Rust, Some(tmp.path()), &[], None).expect("made");
        assert!(made.root.join("wit/verb.wit").is_file());
        let mut names: Vec<_> = std::fs::read_dir(tmp.path())
            .expect("dir")
            .map(|e| e.expect("entry").file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["bump", "fine"]);
    }

    /// A staging directory a killed run left, under this very pid (in a container every
    /// run may be pid 1), is stepped over, not an error every retry meets.
    #[test]
    fn a_staging_directory_left_behind_does_not_block_the_next_run() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let pid = std::process::id();
        // What this mur leaves, and what the one before it left (no number).
        for left in [format!(".bump.new-{pid}-0"), format!(".bump.new-{pid}")] {
            std::fs::create_dir(tmp.path().join(left)).expect("left behind");
        }
        let made = new_verb("bump", Lang::Rust, Some(tmp.path()), &[], None).expect("made");
        assert!(made.root.join("wit/verb.wit").is_file());
    }

    #[test]
    fn a_selector_verb_is_as_short_as_the_standard_click_and_named_everywhere() {
        let files = files("bump-it", Lang::Rust, &Tool::click());
        let lib = text(&files, "src/lib.rs");
        // Its code: the comments say what to change, and are no part of its length.
        let verb: Vec<&str> = lib
            .lines()
            .take_while(|line| !line.starts_with("/// `cargo test`"))
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect();
        assert!(verb.len() <= 20, "the verb is {} lines:\n{lib}", verb.len());
        assert!(lib.contains("name: \"bump-it\"") && lib.contains("BumpItVerb"));
        assert!(lib.contains("#[cfg(test)]"), "no test module:\n{lib}");
        for file in files.iter().filter(|f| !f.path.starts_with("vendor/")) {
            for placeholder in ["{name}", "{Type}", "{file}"] {
                assert!(!file.text.contains(placeholder), "{}", file.path);
            }
        }
        assert!(text(&files, "Cargo.toml").contains("name = \"mur-verb-bump-it\""));
        assert!(text(&files, "README.md").contains("mur_verb_bump_it.wasm"));
        assert_eq!(text(&files, "wit/verb.wit"), VERB_WIT);
    }

    /// No template writes the verb's usage line: its kit composes it from the name and
    /// the params, as the standard verbs' is. The templates wrote `{name} <selector>`,
    /// which after a rename (`bump` to `bump2`) or an added option `--help` printed as
    /// `Usage: mur devtools bump <selector>`.
    #[test]
    fn no_template_writes_the_usage_line_the_kit_composes_it() {
        for (lang, path, declared) in [
            (Lang::Rust, "src/lib.rs", "synopsis:"),
            (Lang::Python, "app.py", "usage ="),
            (Lang::JavaScript, "verb.js", "usage:"),
        ] {
            let source = text(&files("bump", lang, &Tool::click()), path);
            let lines: Vec<&str> = source
                .lines()
                .map(str::trim)
                .filter(|line| line.starts_with(declared))
                .collect();
            let empty = format!("{declared} \"\"");
            assert!(
                lines.len() == 1 && lines[0].trim_end_matches(',') == empty,
                "{lang:?}: {lines:?}"
            );
            assert!(
                source.contains("the kit composes the usage line"),
                "{lang:?}"
            );
        }
    }

    /// Every README says what to give a teammate (the one component the build writes) and
    /// which `mur` it needs: the package of the `wit/verb.wit` it is built against.
    #[test]
    fn every_readme_says_what_to_share_and_the_interface_it_needs() {
        let package = VERB_WIT
            .lines()
            .find_map(|line| line.strip_prefix("package "))
            .and_then(|line| line.strip_suffix(';'))
            .expect("the WIT package");
        for lang in ALL {
            let readme = text(&files("bump", lang, &Tool::click()), "README.md");
            let sharing = readme
                .split_once("\n## Sharing it\n")
                .map(|(_, part)| part)
                .unwrap_or_else(|| panic!("{lang:?}: no `## Sharing it`:\n{readme}"));
            let file = format!(
                "Give a teammate the one file `{}`",
                component_file("bump", lang)
            );
            assert!(sharing.contains(&file), "{lang:?}: {sharing}");
            assert!(
                sharing.contains(&format!("`{package}`")),
                "{lang:?}: {sharing}"
            );
        }
    }

    /// The Rust README's verb with an option and a `shape` is the kit's second doc
    /// example word for word, which `cargo test --doc` in plugins/ builds and checks.
    #[test]
    fn the_rust_readme_s_verb_with_an_option_is_the_kit_s_tested_example() {
        let readme = text(&files("bump", Lang::Rust, &Tool::click()), "README.md");
        let shown = readme
            .split("```rust\n")
            .nth(1)
            .and_then(|rest| rest.split("```").next())
            .expect("a rust block in the README");
        assert!(
            shown.contains("Opt::value(") && shown.contains("fn shape("),
            "{shown}"
        );
        let (_, lib) = rust::KIT_SOURCES
            .iter()
            .find(|(path, _)| *path == "lib.rs")
            .expect("lib.rs");
        let doc: String = lib
            .lines()
            .filter_map(|line| line.strip_prefix("//!"))
            .map(|line| format!("{}\n", line.strip_prefix(' ').unwrap_or(line)))
            .collect();
        assert!(doc.contains(&format!("```\n{shown}")), "{shown}");
    }

    #[test]
    fn the_vendored_kit_is_plugins_kit_whole_with_its_dependency_versions() {
        let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../plugins/kit/src");
        let on_disk = mur_testkit::names_in(&kit);
        let vendored: Vec<&str> = rust::KIT_SOURCES.iter().map(|(path, _)| *path).collect();
        assert_eq!(on_disk, vendored, "vendor every file of plugins/kit/src");
        let read = |path: &str| {
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect(path)
        };
        let workspace = read("../../plugins/Cargo.toml");
        // Every dependency of the kit, as plugins/Cargo.toml pins it.
        let kit_toml = read("../../plugins/kit/Cargo.toml");
        let dependencies: Vec<String> = kit_toml
            .lines()
            .filter_map(|line| line.strip_suffix(".workspace = true"))
            .filter(|name| !["version", "edition", "license", "rust-version"].contains(name))
            .map(|name| format!("{name} = "))
            .collect();
        assert!(dependencies.len() >= 3, "{dependencies:?}");
        for dependency in &dependencies {
            let line = |toml: &str| {
                toml.lines()
                    .find(|line| line.starts_with(dependency))
                    .map(str::to_owned)
            };
            assert_eq!(
                line(rust::KIT_CARGO_TOML),
                line(&workspace),
                "the vendored kit's {dependency}… differs from plugins/Cargo.toml's"
            );
        }
        // Named wherever the kit's dependencies are listed: the template's Cargo.toml
        // and docs/verbs.md (both once left `strsim` out).
        let docs = read("../../docs/verbs.md");
        let listed = docs
            .lines()
            .find(|line| line.starts_with("| `vendor/mur-verb-kit/` |"))
            .expect("docs/verbs.md lists the vendored kit");
        for dependency in &dependencies {
            let name = dependency.trim_end_matches(" = ");
            assert!(
                rust::CARGO_TOML.contains(name),
                "the template's Cargo.toml does not name {name}"
            );
            assert!(
                listed.contains(&format!("`{name}`")),
                "docs/verbs.md does not name {name}: {listed}"
            );
        }
        let (_, lib) = rust::KIT_SOURCES
            .iter()
            .find(|(path, _)| *path == "lib.rs")
            .expect("lib.rs");
        assert!(lib.contains("path: \"../../wit/verb.wit\""));
    }

    /// The Python and JavaScript kits get the host's options in place of the mark,
    /// as the list they search for a misspelt one (`--projct`).
    #[test]
    fn the_python_and_javascript_kits_get_the_hosts_options() {
        for (lang, kit, declared) in [
            (
                Lang::Python,
                "kit.py",
                "\nHOST_OPTIONS = (\"endpoint\", \"project\", ",
            ),
            (
                Lang::JavaScript,
                "kit.js",
                "\nexport const HOST_OPTIONS = [\"endpoint\", \"project\", ",
            ),
        ] {
            let files = files("bump", lang, &Tool::click());
            let text = &files.iter().find(|f| f.path == kit).expect(kit).text;
            assert!(!text.contains(HOST_OPTIONS_MARK), "{kit} keeps the mark");
            assert!(text.contains(declared), "{kit}");
            assert!(text.contains("\"auto-range\", \"timeout\", "), "{kit}");
            assert!(text.contains("\"protocol\", \"refresh\""), "{kit}");
        }
    }

    /// The kit's tests use verbs of their own, never the project's: a Python kit test ran
    /// `kit.stamp` on `app.Verb` and expected no `mur:verb-waits`, so declaring `waits` as
    /// the guide says failed it. The verb's own tests read the tool it declares (they wrote
    /// `click`) and are few, the kit's conformance cases all in the kit's file.
    #[test]
    fn the_kits_tests_are_apart_from_the_verbs_and_use_no_part_of_it() {
        for (lang, verb, ours, kit, imports) in [
            (
                Lang::Python,
                "app.py",
                "test_app.py",
                "test_kit.py",
                &["import app", "from app"][..],
            ),
            (
                Lang::JavaScript,
                "verb.js",
                "verb.test.js",
                "kit.test.js",
                &["./verb.js"][..],
            ),
        ] {
            let files = files("bump", lang, &Tool::click());
            let (ours, kit) = (text(&files, ours), text(&files, kit));
            for import in imports {
                assert!(
                    !kit.contains(import),
                    "{lang:?}: the kit's tests use {verb}"
                );
            }
            assert!(
                ours.contains(imports[0]),
                "{lang:?}: the verb's tests do not use {verb}"
            );
            assert!(!ours.contains("\"click\""), "{lang:?}: {ours}");
            assert!(ours.lines().count() < 60, "{lang:?}: {ours}");
            for table in ["names: begin", "milliseconds: begin"] {
                assert!(
                    kit.contains(table) && !ours.contains(table),
                    "{lang:?}: {table}"
                );
            }
        }
    }

    /// A kind spelt as a type (`int`, `Boolean`, JSON Schema's `boolean`) is answered with
    /// the kit's in both kits, from one table: the JavaScript kit named no kind for `int`.
    #[test]
    fn the_python_and_javascript_kits_take_one_table_of_kinds_meant() {
        let table = |lang, kit: &str| -> Vec<String> {
            let source = text(&files("bump", lang, &Tool::click()), kit);
            let start = source
                .find("KINDS_AS_TYPES_SAY = {")
                .unwrap_or_else(|| panic!("no table in {kit}"));
            let body = &source[start..];
            let body = &body[body.find('{').expect("{") + 1..body.find('}').expect("}")];
            body.split(',')
                .map(|pair| pair.split_whitespace().collect::<String>().replace('"', ""))
                .filter(|pair| !pair.is_empty())
                .collect()
        };
        let python = table(Lang::Python, "kit.py");
        assert!(python.contains(&"int:integer".to_owned()), "{python:?}");
        assert_eq!(table(Lang::JavaScript, "kit.js"), python);
    }

    /// The kits' option of the whole arguments object is named and helped as
    /// [`KIT_WHOLE_NAMES`] and [`KIT_WHOLE_HELP`] say, in each kit's own source: the
    /// host tells it apart by them (`verbs add`'s note of a verb sending nothing its
    /// tool lists took a kit's `--args` for a param `args`). Reworded in one kit alone,
    /// this fails.
    #[test]
    fn the_kits_whole_arguments_option_is_the_one_the_host_knows() {
        let rust = rust::KIT_SOURCES
            .iter()
            .find(|(path, _)| *path == "argv.rs")
            .map(|(_, text)| *text)
            .expect("argv.rs");
        // A Rust string continued on the next line (`\` at a line's end) as one line.
        let rust = rust
            .split("\\\n")
            .map(str::trim_start)
            .collect::<Vec<_>>()
            .join("");
        let quoted = |words: &[&str]| {
            let words: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
            words.join(", ")
        };
        let names = quoted(&KIT_WHOLE_NAMES);
        let python = text(&files("bump", Lang::Python, &Tool::click()), "kit.py");
        let js = text(&files("bump", Lang::JavaScript, &Tool::click()), "kit.js");
        for (kit, source, declared) in [
            (
                "argv.rs",
                &rust,
                [
                    format!("const WHOLE_NAMES: [&str; 3] = [{names}];"),
                    format!("const WHOLE_HELP: &str = \"{KIT_WHOLE_HELP}\";"),
                ],
            ),
            (
                "kit.py",
                &python,
                [
                    format!("\nWHOLE_NAMES = ({names})\n"),
                    format!("\nWHOLE_HELP = \"{KIT_WHOLE_HELP}\"\n"),
                ],
            ),
            (
                "kit.js",
                &js,
                [
                    format!("\nexport const WHOLE_NAMES = [{names}];\n"),
                    format!("\nexport const WHOLE_HELP = \"{KIT_WHOLE_HELP}\";\n"),
                ],
            ),
        ] {
            for line in declared {
                assert!(source.contains(&line), "{kit} lacks {line}");
            }
        }
    }

    #[test]
    fn every_language_gets_the_interface_a_verb_a_kit_a_test_and_a_readme() {
        let expect = |lang, paths: &[&str]| {
            let files = files("bump", lang, &Tool::click());
            for path in paths {
                text(&files, path);
            }
            let readme = text(&files, "README.md");
            assert!(readme.contains(&component_file("bump", lang)), "{lang:?}");
        };
        expect(
            Lang::Python,
            &[
                "app.py",
                "kit.py",
                "test_app.py",
                "test_kit.py",
                "build.sh",
                "requirements.txt",
            ],
        );
        expect(
            Lang::JavaScript,
            &[
                "verb.js",
                "kit.js",
                "verb.test.js",
                "kit.test.js",
                "build.mjs",
                "package.json",
            ],
        );
        for lang in ALL {
            assert_eq!(
                text(&files("bump", lang, &Tool::click()), "wit/verb.wit"),
                VERB_WIT
            );
        }
        let build = files("bump", Lang::Python, &Tool::click());
        assert!(build.iter().any(|f| f.path == "build.sh" && f.executable));
    }

    #[test]
    fn names_are_words() {
        for good in ["bump", "click-twice", "a2"] {
            assert!(check_name(good, &[]).is_ok(), "{good}");
        }
        for bad in ["", "Bump", "-x", "x-", "two words", "../up", "x_y"] {
            assert!(check_name(bad, &[]).is_err(), "{bad:?}");
        }
        assert_eq!(type_name("click-twice"), "ClickTwiceVerb");
        assert_eq!(type_name("a2"), "A2Verb");
    }

    /// Every name `verbs new` accepts makes a type no Rust keyword, import of the
    /// template or type of std's prelude is: `component`, `string`, `vec`, `result`,
    /// `self` and `about` made projects that failed at the build for wasm32-wasip2.
    #[test]
    fn the_verb_type_collides_with_nothing_the_project_names() {
        let taken: Vec<&str> =
            "About Self String Vec Result Option Box Ok Err Some None Component Verb Spec Args Value Map"
                .split(' ')
                .collect();
        let names =
            "component string vec result self about option box ok verb spec crate super type fn";
        for name in names.split(' ') {
            assert!(check_name(name, &[]).is_ok(), "{name}");
            let made = type_name(name);
            assert!(!taken.contains(&made.as_str()), "{name} → {made}");
            assert!(
                made.starts_with(|c: char| c.is_ascii_uppercase()) && made.ends_with("Verb"),
                "{name} → {made}"
            );
        }
    }

    #[test]
    fn an_existing_directory_is_left_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("bump")).expect("dir");
        for lang in ALL {
            assert!(matches!(
                new_verb("bump", lang, Some(dir.path()), &[], None),
                Err(VerbError::Refused { .. })
            ));
        }
        assert!(
            std::fs::read_dir(dir.path().join("bump"))
                .expect("dir")
                .next()
                .is_none()
        );
    }

    #[test]
    fn reserved_and_malformed_names_are_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().expect("tempdir");
        let reserved = vec!["call".to_owned(), "verbs".to_owned()];
        for lang in ALL {
            for name in ["call", "verbs", "index", "Bad", "trailing-", "two--dashes"] {
                let err = new_verb(name, lang, Some(dir.path()), &reserved, None).expect_err(name);
                assert!(matches!(err, VerbError::Refused { .. }), "{name}: {err}");
            }
        }
        assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 0);
    }

    #[test]
    fn every_language_writes_its_project_and_says_how_to_build_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        for (lang, name, build) in [
            (
                Lang::Rust,
                "r",
                "rustup target add wasm32-wasip2\n  cargo build --release --target wasm32-wasip2",
            ),
            (Lang::Python, "p", "./build.sh"),
            (Lang::JavaScript, "j", "node build.mjs"),
        ] {
            let created = new_verb(name, lang, Some(dir.path()), &[], None).expect("created");
            assert!(created.root.join("wit/verb.wit").is_file());
            assert!(created.next_steps.contains(build), "{}", created.next_steps);
            let add = format!("verbs add {}\n", component_file(name, lang));
            assert!(created.next_steps.contains(&add), "{}", created.next_steps);
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join("p/build.sh")).expect("build.sh");
            assert_eq!(mode.permissions().mode() & 0o111, 0o111);
        }
    }

    /// The commands of a README's ```sh blocks, comments and blank lines left out.
    fn readme_commands(readme: &str) -> Vec<String> {
        let mut commands = Vec::new();
        let mut in_sh = false;
        for line in readme.lines() {
            match line.trim() {
                "```sh" => in_sh = true,
                "```" => in_sh = false,
                command if in_sh => {
                    let command = command.split(" #").next().unwrap_or("").trim();
                    if !command.is_empty() {
                        commands.push(command.to_owned());
                    }
                }
                _ => {}
            }
        }
        commands
    }

    /// Every README gives the next steps `verbs new` prints, in the same words: the
    /// component added is the one the build writes, relative to the project (the Rust
    /// README said `target/wasm32-wasip2/release/target/wasm32-wasip2/release/…`).
    #[test]
    fn every_readme_adds_the_component_the_build_writes_as_the_next_steps_do() {
        for lang in ALL {
            let files = files("click-twice", lang, &Tool::click());
            let commands = readme_commands(&text(&files, "README.md"));
            let add = format!(
                "mur devtools verbs add {}",
                component_file("click-twice", lang)
            );
            let adds: Vec<&String> = commands
                .iter()
                .filter(|c| c.contains("verbs add"))
                .collect();
            assert_eq!(adds, [&add], "{lang:?}: {commands:#?}");
            let steps = next_steps("click-twice", lang, Path::new("/p"));
            for step in steps.lines().skip(2).map(str::trim) {
                assert!(
                    commands.iter().any(|c| c == step),
                    "{lang:?}: the README lacks the next step `{step}`: {commands:#?}"
                );
            }
        }
    }

    /// A tool with params of every kind, four named otherwise than an option's camelCase
    /// (`max_results`, `offset_by`, `timeout`, a host option's name, `with_extra`), one of
    /// them JSON (`with_extra`, an object; `offset_by`, an integer that may be below 0,
    /// was JSON in Rust, before its kit's `Kind::Integer`).
    fn echo() -> Tool {
        Tool::of(&serde_json::json!({
            "name": "echo",
            "description": "Echoes back",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "message": {"type": "string", "description": "what to say"},
                    "loud": {"type": "boolean"},
                    "max_results": {"type": "integer", "minimum": 0},
                    "mode": {"enum": ["a", "b"]},
                    "offset_by": {"type": "integer"},
                    "timeout": {"type": "number"},
                    "with_extra": {"type": "object"},
                },
                "required": ["message"],
            },
        }))
        .expect("a tool")
    }

    /// The Rust, Python and JavaScript sources `verbs new` writes for `tool`, each
    /// asserted to hold every line of its language's row of `expected` (in that order).
    #[track_caller]
    fn sources_holding(tool: &Tool, expected: [&[&str]; 3]) -> [String; 3] {
        let sources = [
            (Lang::Rust, "src/lib.rs"),
            (Lang::Python, "app.py"),
            (Lang::JavaScript, "verb.js"),
        ]
        .map(|(lang, file)| (lang, text(&files("t", lang, tool), file)));
        for ((lang, source), lines) in sources.iter().zip(expected) {
            for line in lines {
                assert!(source.contains(line), "{lang:?}: {line}\n{source}");
            }
        }
        sources.map(|(_, source)| source)
    }

    /// The bounds a tool's schema sets an integer or a number (`minimum`, `maximum`,
    /// `exclusiveMinimum`, `exclusiveMaximum`, as its derived verb takes them) are
    /// written into the spec of every language, for the kit to refuse a value past them
    /// before the call: a verb made for `"minimum": 1, "maximum": 100` sent `--limit 500`.
    /// `minimum: 0` with a `maximum` is no count: the kit tells `-1` the whole range.
    #[test]
    fn a_verb_made_for_a_tool_is_held_to_its_schemas_bounds_in_every_language() {
        let tool = Tool::of(&serde_json::json!({
            "name": "t",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                    "delay": {"type": "integer", "minimum": 0, "maximum": 2000},
                    "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
                    "old": {"type": "number", "maximum": 3, "exclusiveMaximum": true},
                    "big": {"type": "integer", "maximum": 18446744073709551614u64},
                    "ids": {"type": "array", "items": {"type": "integer", "maximum": 9}},
                },
                "required": ["limit"],
            },
        }))
        .expect("a tool");
        sources_holding(
            &tool,
            [
                // Rust
                &[
                    "Pos::new(\"limit\", \"limit\", Kind::Integer, \"(1–100, required)\")\
                     .or_option(\"N\").within(Bounds::NONE.at_least(\"1\").at_most(\"100\")),",
                    "Opt::value(\"delay\", \"N\", Kind::Integer, \"(0–2000)\")\
                     .within(Bounds::NONE.at_least(\"0\").at_most(\"2000\")),",
                    "Opt::value(\"ratio\", \"NUMBER\", Kind::Number, \"(above 0, at most 1)\")\
                     .within(Bounds::NONE.above(\"0\").at_most(\"1\")),",
                    "Opt::value(\"old\", \"NUMBER\", Kind::Number, \"(below 3)\")\
                     .within(Bounds::NONE.below(\"3\")),",
                    "Opt::value(\"big\", \"N\", Kind::Integer, \"(at most 18446744073709551614)\")\
                     .within(Bounds::NONE.at_most(\"18446744073709551614\")),",
                    "Opt::value(\"ids\", \"JSON\", Kind::Json, ",
                    "use mur_verb_kit::{About, Bounds, Kind, Opt, Pos, Spec, Verb};",
                ][..],
                // Python
                &[
                    "kit.positional(\"limit\", \"(1–100, required)\", kind=\"integer\", key=\"limit\", \
                     option=\"N\", minimum=1, maximum=100),",
                    "kit.option(\"delay\", \"N\", \"(0–2000)\", kind=\"integer\", key=\"delay\", \
                     minimum=0, maximum=2000),",
                    "kit.option(\"ratio\", \"NUMBER\", \"(above 0, at most 1)\", kind=\"number\", \
                     key=\"ratio\", exclusive_minimum=0, maximum=1),",
                    "kit.option(\"old\", \"NUMBER\", \"(below 3)\", kind=\"number\", key=\"old\", \
                     exclusive_maximum=3),",
                    "kit.option(\"big\", \"N\", \"(at most 18446744073709551614)\", kind=\"integer\", \
                     key=\"big\", maximum=18446744073709551614),",
                    "kit.option(\"ids\", \"JSON\", \"(at most 9, repeatable)\", kind=\"json\", key=\"ids\"),",
                ][..],
                // JavaScript
                &[
                    "positional(\"limit\", \"(1–100, required)\", { kind: \"integer\", key: \"limit\", \
                     option: \"N\", minimum: 1, maximum: 100 }),",
                    "option(\"delay\", \"N\", \"(0–2000)\", { kind: \"integer\", key: \"delay\", \
                     minimum: 0, maximum: 2000 }),",
                    "option(\"ratio\", \"NUMBER\", \"(above 0, at most 1)\", { kind: \"number\", \
                     key: \"ratio\", exclusiveMinimum: 0, maximum: 1 }),",
                    "option(\"old\", \"NUMBER\", \"(below 3)\", { kind: \"number\", key: \"old\", \
                     exclusiveMaximum: 3 }),",
                    "option(\"big\", \"N\", \"(at most 18446744073709551614)\", { kind: \"integer\", \
                     key: \"big\", maximum: 18446744073709551614n }),",
                ][..],
            ],
        );
    }

    /// An integer a tool's schema holds to 0 or more (`minimum: 0`) is a count in
    /// every language, which refuses `-1` as the Rust kit's `Kind::Count` does and in
    /// its words: the Rust kit's `Kind::Count`, the Python and JavaScript kits' kind
    /// `count` (their verbs checked it by hand in `arguments`, in words that differed:
    /// `-1` as a word was an unknown option). A number or an integer with another
    /// minimum takes it, held to that minimum by the kit.
    #[test]
    fn a_count_of_a_verb_made_for_a_tool_refuses_below_0_in_every_language() {
        let tool = Tool::of(&serde_json::json!({
            "name": "t",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "n": {"type": "integer", "minimum": 0},
                    "max_results": {"type": "integer", "minimum": 0},
                    "offset": {"type": "integer", "minimum": -5},
                    "ratio": {"type": "number", "minimum": 0},
                    "on": {"type": "boolean"},
                },
                "required": ["n"],
            },
        }))
        .expect("a tool");
        let [_, python, js] = sources_holding(
            &tool,
            [
                // Rust
                &[
                    "Pos::new(\"n\", \"n\", Kind::Count, ",
                    "Opt::value(\"max-results\", \"N\", Kind::Count, ",
                    "Opt::value(\"offset\", \"N\", Kind::Integer, \"(at least -5)\")\
                     .within(Bounds::NONE.at_least(\"-5\"))",
                    "Opt::value(\"ratio\", \"NUMBER\", Kind::Number, \"(at least 0)\")\
                     .within(Bounds::NONE.at_least(\"0\"))",
                ][..],
                // Python
                &[
                    "kit.positional(\"n\", \"(at least 0, required)\", kind=\"count\", key=\"n\", option=\"N\"),",
                    "kit.option(\"max-results\", \"N\", \"(at least 0)\", kind=\"count\", key=\"max_results\"),",
                    "kit.option(\"offset\", \"N\", \"(at least -5)\", kind=\"integer\", key=\"offset\", minimum=-5),",
                    "kit.option(\"ratio\", \"NUMBER\", \"(at least 0)\", kind=\"number\", key=\"ratio\", minimum=0),",
                ][..],
                // JavaScript
                &[
                    "positional(\"n\", \"(at least 0, required)\", { kind: \"count\", key: \"n\", option: \"N\" }),",
                    "option(\"max-results\", \"N\", \"(at least 0)\", { kind: \"count\", key: \"max_results\" }),",
                    "option(\"offset\", \"N\", \"(at least -5)\", { kind: \"integer\", key: \"offset\", minimum: -5 }),",
                    "option(\"ratio\", \"NUMBER\", \"(at least 0)\", { kind: \"number\", key: \"ratio\", minimum: 0 }),",
                    "import { Verb, option, positional } from \"./kit.js\";",
                ][..],
            ],
        );
        // The kit refuses it: no check of the verb's own, in its `arguments` or not.
        for source in [&python, &js] {
            assert!(!source.contains("< 0"), "{source}");
            assert!(!source.contains("out of range"), "{source}");
        }
        let python_arguments = r#"
    def arguments(self, args):
        sent = super().arguments(args)
        # A boolean is given as the word `true` or `false` (a choice) and sent as the value.
        for key in ("on",):
            if sent.get(key) in ("true", "false"):
                sent[key] = sent[key] == "true"
        return sent


WitWorld = kit.export(Verb)
"#;
        assert!(python.ends_with(python_arguments), "{python}");
        let js_arguments = r#"
  // The kit's arguments, as the tool takes them.
  arguments(args) {
    const sent = Verb.prototype.arguments.call(this, args);
    // A boolean is given as the word `true` or `false` (a choice) and sent as the value.
    for (const key of ["on"]) {
      if (sent[key] === "true" || sent[key] === "false") sent[key] = sent[key] === "true";
    }
    return sent;
  },
});
"#;
        assert!(js.contains(js_arguments), "{js}");
    }

    /// A verb made for a tool sends each param as the tool takes it, as its derived
    /// verb does: a choice of numbers as a number (it was sent as the string `"2"`,
    /// pinned so by its own test, and its example `'1|2|4'` was refused), a boolean
    /// as `true` or `false` (a flag could only send `true`). Python's docstring takes
    /// a choice's backslash and quotes escaped (`C:\Name` was a syntax error).
    #[test]
    fn a_verb_made_for_a_tool_sends_numbers_and_booleans_as_the_tool_takes_them() {
        let tool = Tool::of(&serde_json::json!({
            "name": "pick",
            "description": "Picks",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "n": {"type": "integer", "enum": [1, 2, 4]},
                    "visible": {"type": "boolean"},
                    "drive": {"enum": ["C:\\Name", "a\"\"\"b"]},
                },
                "required": ["n"],
            },
        }))
        .expect("a tool");
        let params = tool.params.clone().expect("params");
        assert_eq!(
            sample_call(&params),
            ("[\"1\"]".to_owned(), "{\"n\":1}".to_owned())
        );
        for (lang, path, wants) in [
            (
                Lang::Rust,
                "src/lib.rs",
                &[
                    "Pos::new(\"n\", \"n\", Kind::Json, ",
                    "Opt::value(\"visible\", \"true|false\", Kind::Choice(&[\"true\", \"false\"]), ",
                    "        for key in [\"visible\"] {\n            \
                     if let Some(value) = arguments.get_mut(key).filter(|v| v.is_string()) {\n                \
                     *value = Value::Bool(*value == \"true\");\n",
                ][..],
            ),
            (
                Lang::Python,
                "app.py",
                &[
                    ", kind=\"json\", key=\"n\", ",
                    "kit.option(\"visible\", \"true|false\", ",
                    ", kind=\"choice\", choices=(\"true\", \"false\",), key=\"visible\"),",
                    "        sent = super().arguments(args)\n        \
                     # A boolean is given as the word `true` or `false` (a choice) and sent as the value.\n        \
                     for key in (\"visible\",):\n            \
                     if sent.get(key) in (\"true\", \"false\"):\n                \
                     sent[key] = sent[key] == \"true\"\n        \
                     return sent",
                ][..],
            ),
            (
                Lang::JavaScript,
                "verb.js",
                &[
                    "{ kind: \"json\", key: \"n\", ",
                    "option(\"visible\", \"true|false\", ",
                    "{ kind: \"choice\", choices: [\"true\", \"false\"], key: \"visible\" }),",
                    "    const sent = Verb.prototype.arguments.call(this, args);\n    \
                     // A boolean is given as the word `true` or `false` (a choice) and sent as the value.\n    \
                     for (const key of [\"visible\"]) {\n      \
                     if (sent[key] === \"true\" || sent[key] === \"false\") sent[key] = sent[key] === \"true\";\n",
                ][..],
            ),
        ] {
            let files = files("pick", lang, &tool);
            let source = text(&files, path);
            for want in wants {
                assert!(source.contains(want), "{lang:?}: {want}\n{source}");
            }
            for gone in ["\"1\", \"2\"", "flag("] {
                assert!(!source.contains(gone), "{lang:?}: {gone}\n{source}");
            }
            assert!(
                source.contains("\"mur devtools pick 1\""),
                "{lang:?}: {source}"
            );
        }
        let python = text(&files("pick", Lang::Python, &tool), "app.py");
        let docstring = python.lines().next().unwrap_or_default();
        assert!(docstring.contains("C:\\\\Name"), "{docstring}");
        assert_eq!(python.matches("\"\"\"").count(), 2, "{python}");
        let test = text(&files("pick", Lang::Python, &tool), "test_app.py");
        assert!(test.contains("{\"n\":1}"), "{test}");
    }

    /// The example of a verb made for a tool (its `--help`, its README) gives each
    /// required param the word its own tests give ([`sample_call`]), one the verb takes:
    /// `'N'`, `'NUMBER'` and `'JSON'`, the values' names, it refused, and a choice's
    /// `'` broke the `'…'` around it.
    #[test]
    fn a_verb_made_for_a_tool_has_an_example_it_takes_as_printed() {
        let tool = Tool::of(&serde_json::json!({
            "name": "t",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "n": {"type": "integer"},
                    "ratio": {"type": "number"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "extra": {"type": "object"},
                    "on": {"type": "boolean"},
                    "word": {"enum": ["it's", "b"]},
                    "name": {"type": "string"},
                },
                "required": ["n", "ratio", "tags", "extra", "on", "word", "name"],
            },
        }))
        .expect("a tool");
        let example = r#"mur devtools t 1 1.5 '[]' '{}' true 'it'\''s' x"#;
        let params = tool.params.clone().expect("params");
        let (words, sent) = sample_call(&params);
        assert_eq!(
            words, r#"["1","1.5","[]","{}","true","it's","x"]"#,
            "the tests' words are the example's"
        );
        assert_eq!(
            sent,
            r#"{"n":1,"ratio":1.5,"tags":[],"extra":{},"on":true,"word":"it's","name":"x"}"#
        );
        for lang in ALL {
            let files = files("t", lang, &tool);
            let path = match lang {
                Lang::Rust => "src/lib.rs",
                Lang::Python => "app.py",
                Lang::JavaScript => "verb.js",
            };
            let source = text(&files, path);
            let declared = format!("[\"{}\"]", literal(example));
            assert!(source.contains(&declared), "{lang:?}: {declared}\n{source}");
            // A required boolean is the choice `true` or `false` an optional one is
            // (`--on true|false`), sent as the value by the verb's `arguments`: it was a
            // JSON positional, as a kit's choice positional took only a string from
            // `--args` (which now takes `{"on": true}` as the word `true`).
            let (on, choice) = match lang {
                Lang::Rust => (
                    "Pos::new(\"on\", ",
                    "\"on\", Kind::Choice(&[\"true\", \"false\"]), \
                     \"(required: `true` or `false`)\").or_option(\"true|false\")",
                ),
                Lang::Python => (
                    "kit.positional(\"on\", \"",
                    "kind=\"choice\", choices=(\"true\", \"false\",), key=\"on\", \
                     option=\"true|false\")",
                ),
                Lang::JavaScript => (
                    "positional(\"on\", \"",
                    "{ kind: \"choice\", choices: [\"true\", \"false\"], key: \"on\", \
                     option: \"true|false\" }",
                ),
            };
            let line = source.lines().find(|l| l.contains(on));
            assert!(
                line.is_some_and(|l| l.contains(choice)),
                "{lang:?}: {line:?}\n{source}"
            );
            let sends = match lang {
                Lang::Rust => "for key in [\"on\"] {",
                Lang::Python => "for key in (\"on\",):",
                Lang::JavaScript => "for (const key of [\"on\"]) {",
            };
            assert!(source.contains(sends), "{lang:?}: {sends}\n{source}");
            // Its help says the words it takes, not the derived verb's flag (`--on` or
            // `--on=false`), which it refused.
            assert!(
                line.is_some_and(|l| l.contains("\"(required: `true` or `false`)\"")),
                "{lang:?}: {line:?}"
            );
            let readme = text(&files, "README.md");
            assert!(
                readme.contains(&format!("\n{example}\n")),
                "{lang:?}: {readme}"
            );
        }
    }

    /// A verb made for a session's tool takes one param per property of the tool's
    /// input schema, named as its derived verb's options, the required ones positionals
    /// (also `--OPTION VALUE`), each sent as its property, in every language; nothing
    /// of a click nor a placeholder `<selector>` is left. It took a `<selector>`, sent
    /// whatever the tool's schema said.
    #[test]
    fn a_verb_made_for_a_tool_takes_the_params_of_its_schema() {
        let tool = echo();
        let usage = "`mur devtools echo <message> [--loud true|false] [--max-results N] [--mode a|b] \
                     [--offset-by N] [--arg-timeout NUMBER] [--with-extra JSON]`";
        for (lang, path, params) in [
            (
                Lang::Rust,
                "src/lib.rs",
                &[
                    "use mur_verb_kit::{About, Args, Kind, Map, Opt, Pos, Spec, Value, Verb, \
                     argv::camel_case, serde_json};",
                    "Pos::new(\"message\", \"message\", Kind::Text, ",
                    "Opt::value(\"loud\", \"true|false\", Kind::Choice(&[\"true\", \"false\"]), ",
                    "Opt::value(\"max-results\", \"N\", Kind::Count, ",
                    "Opt::value(\"mode\", \"a|b\", Kind::Choice(&[\"a\", \"b\"]), ",
                    // An integer that may be below 0 is read and sent by the kit (it
                    // was JSON, read by the verb: `--offset-by abc` was "needs a JSON
                    // value", `--offset-by '"1"'` sent a string).
                    "Opt::value(\"offset-by\", \"N\", Kind::Integer, ",
                    // JSON under another key is read by the verb itself.
                    "Opt::value(\"with-extra\", \"JSON\", Kind::Local, ",
                    "for (option, key) in [(\"with-extra\", \"with_extra\")] {",
                    // A number is read and sent by the kit (it was JSON, read by the
                    // verb: `--arg-timeout abc` was "needs a JSON value").
                    "Opt::value(\"arg-timeout\", \"NUMBER\", Kind::Number, ",
                    "for (option, key) in [(\"max-results\", \"max_results\"), \
                     (\"offset-by\", \"offset_by\"), (\"arg-timeout\", \"timeout\")] {",
                ][..],
            ),
            (
                Lang::Python,
                "app.py",
                &[
                    "kit.positional(\"message\", \"what to say (required)\", kind=\"text\", \
                     key=\"message\", option=\"TEXT\"),",
                    "kit.option(\"loud\", \"true|false\", ",
                    ", kind=\"choice\", choices=(\"true\", \"false\",), key=\"loud\"),",
                    "kit.option(\"max-results\", \"N\", ",
                    ", kind=\"count\", key=\"max_results\"),",
                    ", kind=\"choice\", choices=(\"a\", \"b\",), key=\"mode\"),",
                    ", kind=\"number\", key=\"timeout\"),",
                ][..],
            ),
            (
                Lang::JavaScript,
                "verb.js",
                &[
                    "import { Verb, option, positional } from \"./kit.js\";",
                    "option(\"loud\", \"true|false\", ",
                    "positional(\"message\", \"what to say (required)\", { kind: \"text\", \
                     key: \"message\", option: \"TEXT\" }),",
                    "{ kind: \"count\", key: \"max_results\" }),",
                    "{ kind: \"choice\", choices: [\"a\", \"b\"], key: \"mode\" }),",
                    "{ kind: \"number\", key: \"timeout\" }),",
                ][..],
            ),
        ] {
            let files = files("echo", lang, &tool);
            let source = text(&files, path);
            assert!(source.contains(usage), "{lang:?}: {source}");
            for param in params {
                assert!(source.contains(param), "{lang:?}: {param}\n{source}");
            }
            assert!(!source.contains("selector("), "{lang:?}: {source}");
            assert!(
                source.contains("\"mur devtools echo x\""),
                "{lang:?}: {source}"
            );
            let readme = text(&files, "README.md");
            assert!(
                readme.contains("\nmur devtools echo x\n"),
                "{lang:?}: {readme}"
            );
            for text in [&source, &readme] {
                for gone in ["click the element", "'#btn-inc'", "placeholder"] {
                    assert!(!text.contains(gone), "{lang:?}: {gone}: {text}");
                }
                for key in ["{usage}", "{what}", "{example}", "{params}", "{imports}"] {
                    assert!(!text.contains(key), "{lang:?}: {key}: {text}");
                }
            }
            let click = text(&super::files("bump", lang, &Tool::click()), path);
            assert!(
                click.contains("click the element a selector matches (MCP tool `click`)")
                    && click.contains("\"the element to click\"")
                    && click.contains("\"mur devtools bump '#btn-inc'\""),
                "{lang:?}: {click}"
            );
        }
        // The verb's own tests parse its params, not a `<selector>` (they failed).
        let python = text(&files("echo", Lang::Python, &tool), "test_app.py");
        assert!(
            python.contains("self.verb.parse([\"x\"])")
                && python.contains("{\"message\":\"x\"})")
                && !python.contains("selector"),
            "{python}"
        );
        let js = text(&files("echo", Lang::JavaScript, &tool), "verb.test.js");
        assert!(
            js.contains("verb.parse([\"x\"])") && !js.contains("selector"),
            "{js}"
        );
        // A tool of no params makes a verb of none.
        let bare = Tool::of(&serde_json::json!({"name": "ping"})).expect("a tool");
        assert_eq!(bare.params, Some(Vec::new()));
        let source = text(&files("ping", Lang::Python, &bare), "app.py");
        assert!(
            source.contains("`mur devtools ping`: call the tool, which takes no params")
                && !source.contains("positionals =")
                && !source.contains("One param"),
            "{source}"
        );
        let rust = text(&files("ping", Lang::Rust, &bare), "src/lib.rs");
        assert!(
            rust.contains("    const SPEC: Spec = Spec::NONE;\n}"),
            "{rust}"
        );
    }

    /// A tool's description is put in last: one that says `{name}` or `{Type}` keeps
    /// those words (they were filled in as the verb's name), and its first line is cut
    /// to at most 200 bytes on a character boundary (`verbs add` refuses a summary far
    /// longer).
    #[test]
    fn the_tools_description_is_put_in_as_it_is_and_cut_to_one_short_line() {
        let braces = Tool::of(&serde_json::json!({
            "name": "say",
            "description": "Says {name} in {Type} to {file}\nsecond line {name}"
        }))
        .expect("a tool");
        assert_eq!(braces.summary, "Says {name} in {Type} to {file}");
        for lang in ALL {
            let path = match lang {
                Lang::Rust => "src/lib.rs",
                Lang::Python => "app.py",
                Lang::JavaScript => "verb.js",
            };
            let source = text(&files("say", lang, &braces), path);
            assert!(
                source.contains("\"Says {name} in {Type} to {file}\""),
                "{lang:?}: {source}"
            );
        }
        let long = "é".repeat(300);
        let tool =
            Tool::of(&serde_json::json!({"name": "long", "description": long})).expect("a tool");
        assert!(tool.summary.len() <= 200, "{}", tool.summary.len());
        assert!(tool.summary.len() > 190, "{}", tool.summary.len());
        assert!(tool.summary.starts_with("éé") && tool.summary.ends_with('…'));
    }

    #[test]
    fn dashes_become_underscores_in_the_rust_file_name() {
        assert_eq!(
            component_file("click-twice", Lang::Rust),
            "target/wasm32-wasip2/release/mur_verb_click_twice.wasm"
        );
        assert_eq!(
            component_file("click-twice", Lang::Python),
            "click-twice.wasm"
        );
    }
}
