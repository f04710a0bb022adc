//! One usage record: what was called, through which surface, how it ended,
//! how long it took. Never an argument value unless the user asked for them.

use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The `schema` field of every record.
pub(crate) const SCHEMA: &str = "mur-usage/1";

/// The `_meta` key naming the verb (`{"name": verb, "kind": kind}`) on every
/// `tools/call` mur sends, so that a session recording usage counts the call as
/// surface `cli`; any other client's is `mcp`.
pub const VERB_META: &str = "dev.mur/verb";

/// The most characters of a name a record keeps — a tool's, a verb's, a client's name
/// and its version — whoever chose it: mur's caller (`call NAME`, a word kept `--with-values`)
/// or a session's client. A name is a product's (`claude-code`, `Visual Studio Code`) or a
/// tool's or verb's (128 and 64 characters at most where they are checked) and a version a
/// few numbers: 200 is far past any, while a caller's own words, unbounded, could make each
/// of its records longer than the 1 MiB a reader takes as one line (skipped, uncounted) and
/// flush every other record out of the log's rotation in a few calls.
pub const NAME_CHARS: usize = 200;

/// `text`, trimmed and cut to [`NAME_CHARS`] characters (`…` marks the cut): a name as a
/// record keeps it, on either side.
pub fn cut_name(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(NAME_CHARS) {
        // Trimmed again: a cut after a space would leave `name …`.
        Some((at, _)) => format!("{}…", text[..at].trim_end()),
        None => text.to_owned(),
    }
}

/// What a record says in place of a name that no verb or tool could be named, and that
/// no one has (no tool of the session, no installed verb): a value typed or sent where a
/// name goes (`mur devtools '#email'`, `call '{"password":"hunter2"}'`, a `tools/call`
/// whose `name` is a sentence), which a record never keeps, as it keeps no other value.
pub const NOT_A_NAME: &str = "WORD";

/// The name a record keeps of `name`, a verb's or a tool's as it was typed or sent: the
/// name, cut ([`cut_name`]), when `known` (a verb mur found, a tool the session has, or
/// values are recorded) or when it is [`name_shaped`]; else [`NOT_A_NAME`]. The one rule
/// of both sides: mur's records of what its caller typed, and a session's (or a bridge's)
/// of the names its client sent. A name no one has is kept when shaped like one, as that
/// is what an operator measures — the verbs and tools agents reach for that do not exist
/// (`mur devtools get-text`, a `tools/call` of `getText`), on both surfaces alike — and a
/// value shaped like a name (`hunter2`) cannot be told from one; a value proper (`#email`,
/// `{"password":"hunter2"}`, a key with digits and dashes) never is.
pub fn recorded_name(name: &str, known: bool) -> String {
    if known || name_shaped(name) {
        cut_name(name)
    } else {
        NOT_A_NAME.to_owned()
    }
}

/// Whether `word`, typed or sent where a verb's or a tool's name goes, is shaped like
/// a name, and so kept in a record as it came even when nothing of that name is known:
/// a verb's name ([`verb_name_shaped`]) or a tool's as an agent used to MCP types one
/// (`tool_like`).
///
/// It is this and not MCP's own tool-name rule (2025-11-25, "Tool Names": 1 to 128 of
/// `A-Z a-z 0-9 _ - .`, a SHOULD): that rule admits nearly every secret's shape — an API
/// key (`ghp_abc123XYZ`, `sk_live_…`, `AKIAIOSFODNN7EXAMPLE`), a base64url token of up
/// to 128 characters — which is what a value typed as a name most often is. A tool that
/// is named so all the same is kept as itself when the session has it (it answered the
/// call as its tool's, its list names it): only a name no one has must look like one.
/// Lives here, not in mur-verbs, so that mur-server, which records a session's calls
/// and must stay light (no wasmtime, no clap), holds names to the same rule as mur.
pub fn name_shaped(word: &str) -> bool {
    verb_name_shaped(word) || tool_like(word)
}

/// A verb name: `[a-z][a-z0-9-]*`, no dash at the end or twice in a row, at most 64
/// bytes. The rule `verbs add` and `verbs new` hold names to (`mur_verbs::valid_verb_name`
/// is this, so that the two never differ), kept here for [`name_shaped`].
pub fn verb_name_shaped(name: &str) -> bool {
    name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && !name.ends_with('-')
        && !name.contains("--")
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// A word a tool could be named, as an agent used to MCP types one in the verb's place
/// (`getText`, `take_screenshot`): letters and `_` alone, at most 64. What the report
/// shows as a verb callers expected; a value (`#email`, a sentence, a key with digits
/// such as `ghp_…`, `sk-live-…`) is none.
fn tool_like(word: &str) -> bool {
    (1..=64).contains(&word.len())
        && word.starts_with(|c: char| c.is_ascii_alphabetic())
        && word.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
}

/// `waitFor` → `wait-for`, `switchComponent` → `switch-component`,
/// `get_sum` → `get-sum`, `getURL` → `get-url`, `v2Tool` → `v2-tool`,
/// `github:search` → `github-search`. Every character that is not a letter or
/// a digit separates words, so a verb or option never needs quoting in a shell
/// and never carries a control character a terminal would act on. The name of a tool's
/// derived verb where no other tool's is the same (`mur_verbs::derived::verb_names`), and
/// of a property's option. Lives here, not in mur-verbs, so that mur-server tells the
/// derived verb of a tool it served by the rule that named it.
pub fn kebab(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
            continue;
        }
        if c.is_uppercase() && i > 0 && !out.ends_with('-') {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push('-');
            }
        }
        out.extend(c.to_lowercase());
    }
    out.trim_end_matches('-').to_owned()
}

/// Who wrote the record: `mur` itself, or the session serving the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    Cli,
    Server,
}

/// Which surface the agent used: mur's verbs, or an MCP client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Surface {
    Cli,
    Mcp,
}

/// What kind of verb ran (side `cli`; on side `server`, what mur said in `_meta`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A command of mur's own (`session list`, `catalog`, `guide`).
    Host,
    /// A verb component.
    Plugin,
    /// A data verb (`mur-verb/1` JSON file).
    Data,
    /// A verb derived from the session's tool list.
    Derived,
    /// `mur devtools call`.
    Call,
    /// A word in the verb's place that named nothing: no installed verb, no command of
    /// mur's, no tool of the session (`mur devtools get-text`). What callers reach for.
    Unknown,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Host => "host",
            Kind::Plugin => "plugin",
            Kind::Data => "data",
            Kind::Derived => "derived",
            Kind::Call => "call",
            Kind::Unknown => "unknown",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [
            Kind::Host,
            Kind::Plugin,
            Kind::Data,
            Kind::Derived,
            Kind::Call,
            Kind::Unknown,
        ]
        .into_iter()
        .find(|k| k.as_str() == text)
    }

    /// A named verb: one a team wrote and an operator can remove.
    pub fn is_named(self) -> bool {
        matches!(self, Kind::Plugin | Kind::Data)
    }
}

/// How the invocation (or the served call) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// It did what was asked: also a failing exit that is the command's answer
    /// (`parity`'s exit 1: some tool has no named verb).
    Ok,
    /// The argv was refused (exit 1): a sign the verb's shape is wrong.
    UsageError,
    /// The tool failed (`isError: true`; exit 5).
    ToolError,
    /// The server answered the call with a JSON-RPC error instead of a result, or said
    /// it has no such tool (exit 5 on side `cli`): no tool ran.
    RpcError,
    /// The verb component failed (exit 6).
    PluginError,
    /// No session, or it could not be reached (exit 2, 4), or which one is meant was
    /// not said (several running, a bad `--endpoint`; exit 1).
    SessionError,
    /// mur itself failed (exit 7).
    InternalError,
    /// The user (or the agent host) stopped the call: Ctrl-C, SIGTERM or SIGHUP (exit
    /// 130, 143, 129). Neither the verb's fault nor the session's: no failure.
    Interrupted,
}

/// Milliseconds spent in each phase of an invocation; absent phases did not run.
// Each `None` is left out of the line, not written `null`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Phases {
    pub discovery: Option<f64>,
    pub parse: Option<f64>,
    pub call: Option<f64>,
    pub shape: Option<f64>,
}

/// The shape of a verb's argv: option names and how many positionals, and
/// the words themselves only when the user opted in.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ArgvShape {
    pub options: Vec<String>,
    pub positionals: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub words: Option<Vec<String>>,
}

/// `argv` as option names (`--selector`, `-v`; an inline `=value` cut off)
/// and a count of the positionals. `takes_value` says of each option whether it takes
/// the next word as its value (`true`: that word is skipped; `false`: a word after it
/// counts as a positional), or `None` when nothing says (a verb whose options mur does
/// not know: an unknown word, a derived verb with no session to read it from): then a
/// next word that is no option is taken as its value, as `--name value` is most often
/// meant, and never counted as a positional it perhaps was not (`click --selector '#x'`,
/// no session, was one positional). Values are never recorded unless `with_values`, and
/// then each is cut as a name is ([`cut_name`]): a value of 120,000 characters would
/// make a record longer than the line a reader takes.
pub fn argv_shape<T: Into<Option<bool>>>(
    argv: &[String],
    takes_value: impl Fn(&str) -> T,
    with_values: bool,
) -> ArgvShape {
    let mut shape = ArgvShape::default();
    let mut words = argv.iter().peekable();
    while let Some(word) = words.next() {
        if word == "--" {
            shape.positionals += words.by_ref().count() as u32;
            break;
        }
        if is_option(word) {
            let (name, inline) = match word.split_once('=') {
                Some((n, _)) => (n, true),
                None => (word.as_str(), false),
            };
            shape.options.push(name.to_owned());
            let value_follows = match takes_value(name).into() {
                Some(takes) => takes,
                None => words
                    .peek()
                    .is_some_and(|next| !is_option(next) && *next != "--"),
            };
            if !inline && value_follows {
                words.next();
            }
        } else {
            shape.positionals += 1;
        }
    }
    if with_values {
        shape.words = Some(argv.iter().map(|word| cut_name(word)).collect());
    }
    shape
}

/// Whether `word` is an option's (`-v`, `--selector`, `--selector=#x`): a lone `-` is a
/// word (stdin, most often).
fn is_option(word: &str) -> bool {
    word.starts_with('-') && word.len() > 1
}

/// One line of a usage log.
// Each `None` is left out of the line, not written `null`.
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub schema: String,
    /// UTC, RFC 3339 with milliseconds: records sort and compare as strings.
    pub time: String,
    pub side: Side,
    pub surface: Surface,
    /// The MCP client's `clientInfo` (`name version`), side `server`; `mur` on side `cli`.
    pub client: Option<String>,
    /// Who drove mur: `--agent`, `MUR_AGENT`, else the parent process's name.
    pub agent: Option<String>,
    pub verb: Option<String>,
    pub kind: Option<Kind>,
    /// SHA-256 of the verb's file (plugin and data verbs).
    pub verb_hash: Option<String>,
    pub tool: Option<String>,
    pub outcome: Outcome,
    /// mur's exit code (side `cli`).
    pub exit: Option<u8>,
    /// The error class behind a non-zero exit (side `cli`): `usage`, `transport`, …
    pub class: Option<String>,
    /// Total duration, milliseconds.
    pub ms: f64,
    pub phases: Option<Phases>,
    /// The session's project hash (its lockfile's name without `.json`).
    pub project: Option<String>,
    pub build_tag: Option<String>,
    pub argv: Option<ArgvShape>,
    /// Side `server`: `true` when a bridge (`mur devtools bridge --usage`) wrote it, the
    /// call it forwarded to its stdio server; absent for a session's own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bridge: bool,
}

/// The name a bridge gives itself as the client of its stdio server (`clientInfo`):
/// a server record of that client is a call a bridge forwarded.
pub const BRIDGE_CLIENT: &str = "mur-bridge";

/// The longest call a record is believed to time (a year, in milliseconds): a
/// longer `ms` is no call's, and with every `ms` under it, no sum or scale of a
/// report's figures overflows to infinity.
const MAX_MS: f64 = 365.0 * 86_400_000.0;

impl Record {
    /// Whether the record can be counted: its `time` compares with a window
    /// (`record_time`), is not before any mur
    /// (`EARLIEST_RECORD_TIME`: a clock not yet set) nor ahead of now
    /// (but for a day of clock skew), and its `ms` is a call's duration (`0 ≤ ms ≤` a
    /// year). Any other line of a log, whoever wrote it, is no record: counted with the
    /// lines skipped, never in a figure.
    pub fn is_sound(&self) -> bool {
        crate::clock::record_time(&self.time).is_some_and(|time| {
            (crate::clock::EARLIEST_RECORD_TIME..=crate::clock::latest_record_time())
                .contains(&time.as_str())
        }) && (0.0..=MAX_MS).contains(&self.ms)
    }

    /// The record as a report compares it, its `time` in mur's own form (`.mmmZ`,
    /// `record_time`) so that string order is time order; `None`
    /// when it is not [sound](Self::is_sound).
    pub fn sound(mut self) -> Option<Self> {
        if !self.is_sound() {
            return None;
        }
        self.time = crate::clock::record_time(&self.time)?;
        Some(self)
    }

    /// Whether it is a stdio server's record of a call a bridge forwarded to it (its
    /// client `mur-bridge …`): the same call as the bridge's own record of it.
    pub fn forwarded_by_bridge(&self) -> bool {
        self.side == Side::Server
            && self.client.as_deref().is_some_and(|c| {
                c == BRIDGE_CLIENT
                    || c.strip_prefix(BRIDGE_CLIENT)
                        .is_some_and(|rest| rest.starts_with(' '))
            })
    }

    /// A record of `side`/`surface` stamped now; the rest filled in by the writer.
    pub fn new(side: Side, surface: Surface, outcome: Outcome, ms: f64) -> Self {
        Self {
            schema: SCHEMA.to_owned(),
            time: crate::clock::now_millis(),
            side,
            surface,
            client: None,
            agent: None,
            verb: None,
            kind: None,
            verb_hash: None,
            tool: None,
            outcome,
            exit: None,
            class: None,
            ms,
            phases: None,
            project: None,
            build_tag: None,
            argv: None,
            bridge: false,
        }
    }
}

/// Whether `record` is of `agent`'s (`None`: anyone's); a session's record names none.
pub(crate) fn of_agent(record: &Record, agent: Option<&str>) -> bool {
    agent.is_none_or(|a| record.agent.as_deref() == Some(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn names_split_on_their_natural_boundary() {
        for (tool, verb) in [
            ("waitFor", "wait-for"),
            ("switchComponent", "switch-component"),
            ("get_sum", "get-sum"),
            ("getURL", "get-url"),
            ("HTMLParser", "html-parser"),
            ("v2Tool", "v2-tool"),
            ("tree", "tree"),
            ("test_simple_text", "test-simple-text"),
            ("github:search", "github-search"),
            ("ring\u{7}bell\t", "ring-bell"),
            ("a (b)", "a-b"),
            ("héllo wörld", "héllo-wörld"),
        ] {
            assert_eq!(kebab(tool), verb, "{tool}");
        }
    }

    /// A name no one has is kept only when shaped like one (a verb's, or a tool's as an
    /// agent types it); a value sent as a name is `WORD`, on either side. A name someone
    /// has is kept whatever its shape, cut as every name is.
    #[test]
    fn a_name_is_kept_when_shaped_like_one_or_known() {
        for name in [
            "get-text",
            "click",
            "v2",
            "getText",
            "take_screenshot",
            "hunter",
        ] {
            assert!(name_shaped(name), "{name}");
            assert_eq!(recorded_name(name, false), name);
        }
        let long = "b".repeat(120_000);
        for value in [
            r#"{"password":"hunter2"}"#,
            "#email",
            "hello world",
            "ghp_abc123XYZ",
            "AKIAIOSFODNN7EXAMPLE",
            "fs.read_v2",
            "2fa-check",
            "get--text",
            "Get-Text",
            "",
            &long,
        ] {
            assert!(!name_shaped(value), "{value}");
            assert_eq!(recorded_name(value, false), NOT_A_NAME);
        }
        assert_eq!(recorded_name("fs.read_v2", true), "fs.read_v2");
        assert_eq!(
            recorded_name(&long, true),
            format!("{}…", "b".repeat(NAME_CHARS))
        );
        // At most 64 characters, as a verb's name.
        assert!(name_shaped(&"a".repeat(64)) && !name_shaped(&"a".repeat(65)));
    }

    #[test]
    fn the_shape_of_argv_keeps_option_names_and_counts_the_rest() {
        let argv = words("#btn --selector=#x --depth 3 --name n -v -- --raw");
        let shape = argv_shape(&argv, |o| o == "--name", false);
        assert_eq!(shape.options, ["--selector", "--depth", "--name", "-v"]);
        assert_eq!(
            shape.positionals, 3,
            "`#btn`, `3` and `--raw` after `--`, not `n`"
        );
        assert_eq!(shape.words, None);
        let json = serde_json::to_string(&shape).unwrap_or_default();
        assert!(!json.contains("#x") && !json.contains("#btn"), "{json}");
    }

    #[test]
    fn a_record_is_sound_with_a_records_time_and_a_calls_duration() {
        let at = |time: &str, ms: f64| {
            let mut r = Record::new(Side::Server, Surface::Mcp, Outcome::Ok, ms);
            r.time = time.to_owned();
            r.is_sound()
        };
        assert!(at("2026-01-01T10:00:00.000Z", 0.0));
        assert!(at("2026-01-01T10:00:00.000Z", 2.5));
        assert!(Record::new(Side::Cli, Surface::Cli, Outcome::Ok, 1.0).is_sound());
        assert!(!at("zzzz", 1.0));
        assert!(
            !at("9999-12-31T23:59:59.999Z", 1.0),
            "in every window, for ever"
        );
        // A clock not yet set: before every window, as if the log reached back past it.
        for time in [
            "1970-01-01T00:00:05.000Z",
            "0000-01-01T00:00:00Z",
            "2019-12-31T23:59:59.999Z",
        ] {
            assert!(!at(time, 1.0), "{time}");
        }
        assert!(
            at("2020-01-01T00:00:00Z", 1.0),
            "the earliest time, in any form"
        );
        for ms in [-1.0, f64::NAN, f64::INFINITY, 1e308, MAX_MS * 2.0] {
            assert!(!at("2026-01-01T10:00:00.000Z", ms), "{ms}");
        }
    }

    /// A record's line, as every mur reads it: a field with nothing in it is left out
    /// (never `null`), and a line without one reads back as `None`.
    #[test]
    fn a_records_empty_fields_are_left_out_of_its_line_and_read_back_as_none() {
        let mut record = Record::new(Side::Cli, Surface::Cli, Outcome::Ok, 1.5);
        record.time = "2026-01-01T10:00:00.000Z".to_owned();
        let line = r#"{"schema":"mur-usage/1","time":"2026-01-01T10:00:00.000Z","side":"cli","surface":"cli","outcome":"ok","ms":1.5}"#;
        assert_eq!(serde_json::to_string(&record).expect("json"), line);
        assert_eq!(serde_json::from_str::<Record>(line).expect("back"), record);
        record.phases = Some(Phases {
            call: Some(1.0),
            ..Phases::default()
        });
        record.exit = Some(0);
        let line = r#"{"schema":"mur-usage/1","time":"2026-01-01T10:00:00.000Z","side":"cli","surface":"cli","outcome":"ok","exit":0,"ms":1.5,"phases":{"call":1.0}}"#;
        assert_eq!(serde_json::to_string(&record).expect("json"), line);
        assert_eq!(serde_json::from_str::<Record>(line).expect("back"), record);
    }

    /// Of a verb whose options mur does not know, a word after an option is its value
    /// (not counted), unless it is an option itself; what is known is kept to.
    #[test]
    fn a_word_after_an_option_nothing_describes_is_its_value() {
        let unknown = |argv: &str| argv_shape(&words(argv), |_| None, false);
        let shape = unknown("--selector #x --depth 3 #y");
        assert_eq!(shape.options, ["--selector", "--depth"]);
        assert_eq!(shape.positionals, 1, "`#y` alone");
        let shape = unknown("--force --selector=#x #y - --raw");
        assert_eq!(shape.options, ["--force", "--selector", "--raw"]);
        assert_eq!(shape.positionals, 2, "`#y` after an inline value, and `-`");
        assert_eq!(unknown("--raw -- #x").positionals, 1);
        let known = |o: &str| (o == "--pretty").then_some(false);
        let shape = argv_shape(&words("--pretty #x --selector #y"), known, false);
        assert_eq!(shape.positionals, 1, "`#x` after a flag; `#y` a value");
    }

    /// Kept, each value is cut as a name is (a word of 120,000 characters was kept whole).
    #[test]
    fn values_are_kept_only_when_asked_for_each_cut_as_a_name() {
        let shape = argv_shape(&words("--selector #x"), |_| true, true);
        assert_eq!(shape.words, Some(words("--selector #x")));
        let argv = ["--text".to_owned(), "b".repeat(120_000)];
        let shape = argv_shape(&argv, |_| true, true);
        let cut = format!("{}…", "b".repeat(NAME_CHARS));
        assert_eq!(shape.words, Some(vec!["--text".to_owned(), cut]));
    }
}
