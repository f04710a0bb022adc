//! This invocation's usage record (`mur-usage/1`, side `cli`): the command
//! fills it in as it runs — verb, kind, tool, session, the time each phase
//! took — and `main` appends it once, with the exit code, at the end.
//! Recording never changes the result: a record that cannot be written changes
//! neither stdout nor the exit code, and is said in one `warning:` line.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use mur_core::{Error, Kind as ErrorKind};
use mur_usage::{Kind, Outcome, Phases, Record, Side, Surface, UsageDir};
use serde_json::{Value, json};

use mur_usage::VERB_META;

/// One invocation, as far as it got.
#[derive(Debug)]
struct Invocation {
    verb: String,
    kind: Kind,
    agent: Option<String>,
    argv: Vec<String>,
    /// The verb's options that take a value (host options' are known); `None` while
    /// nothing says which of its options do: an unknown word, a derived verb before its
    /// tool list is read (no session), an installed verb indexed without its spec.
    value_options: Option<Vec<String>>,
    verb_hash: Option<String>,
    tool: Option<String>,
    /// The session's endpoint and identity: whose tool list as cached tells, once the
    /// call is over, whether a name typed to `call` is one of its tools ([`finish`]).
    session: Option<(String, Option<String>)>,
    project: Option<String>,
    build_tag: Option<String>,
    /// The server answered with a JSON-RPC error, not a result (outcome `rpc-error`).
    rpc_error: bool,
    /// `verb` is a derived verb's name, as its tool gave it ([`verb_name`]), not a
    /// word as typed.
    renamed: bool,
    /// The command's failing exit is its answer (`parity`: a tool without a named
    /// verb), not a refusal of what was typed (outcome `ok`).
    answered: bool,
    /// The user stopped the call (Ctrl-C, SIGTERM): outcome `interrupted`.
    interrupted: bool,
    phases: [Option<Duration>; 4],
    /// The phase running and since when: a signal may end it before [`measure`] adds it.
    running: Option<(Phase, Instant)>,
    /// The phase `running` runs within (a derived verb's `parse` reads its tool list
    /// by a call), resumed when it ends.
    outer: Option<(Phase, Instant)>,
}

/// Process-wide, like the timings it extends: one `mur` process is one invocation.
static CURRENT: Mutex<Option<Invocation>> = Mutex::new(None);
static STARTED: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();

/// The phases of an invocation, in the order they happen.
#[derive(Debug, Clone, Copy)]
pub enum Phase {
    Discovery = 0,
    Parse = 1,
    Call = 2,
    Shape = 3,
}

fn with<R>(f: impl FnOnce(&mut Invocation) -> R) -> Option<R> {
    CURRENT.lock().ok()?.as_mut().map(f)
}

/// The clock of the whole invocation starts here (first thing in `main`).
pub fn start_clock() {
    STARTED.get_or_init(Instant::now);
}

/// This invocation is verb `verb` of `kind`, typed as `argv` (after its
/// name); `agent` is `--agent`/`MUR_AGENT` when given.
pub fn begin(verb: &str, kind: Kind, argv: &[String], agent: Option<&str>) {
    if let Ok(mut current) = CURRENT.lock() {
        *current = Some(Invocation::new(verb, kind, argv, agent));
    }
}

impl Invocation {
    fn new(verb: &str, kind: Kind, argv: &[String], agent: Option<&str>) -> Self {
        Self {
            verb: verb.to_owned(),
            kind,
            agent: agent.map(str::to_owned),
            argv: argv.to_vec(),
            value_options: None,
            verb_hash: None,
            tool: None,
            session: None,
            project: None,
            build_tag: None,
            rpc_error: false,
            renamed: false,
            answered: false,
            interrupted: false,
            phases: [None; 4],
            running: None,
            outer: None,
        }
    }
}

impl Invocation {
    /// The verb a record names: a verb, command or tool mur found by it (`session
    /// list`, an installed verb, a derived verb renamed from its tool); for a word that
    /// named none (`unknown`), the word when a verb or a tool could be named so
    /// ([`mur_usage::name_shaped`]), or `with_values` (`usage on --with-values`: every
    /// word is kept); else [`mur_usage::NOT_A_NAME`] (`WORD`): a value given where the
    /// verb goes (`mur devtools '#email'`, `mur devtools "$TEXT"`), which a record never
    /// keeps, as it keeps no other word typed. The report's "verbs callers expect" never
    /// needs `#email`. Cut as a session cuts the names it records
    /// ([`mur_usage::recorded_name`], the rule of both sides).
    fn recorded_verb(&self, with_values: bool) -> String {
        let found = self.kind != Kind::Unknown || self.renamed;
        mur_usage::recorded_name(&self.verb, with_values || found)
    }

    /// The tool a record names, by the verb's rule ([`Invocation::recorded_verb`]): a
    /// verb's tool is its file's or the session's list's, kept; a name typed to `call`
    /// is kept when the session has a tool of that name — it answered the call as the
    /// tool's (`outcome` ok, or the tool's own failure), or `listed` says its tool list
    /// as cached names it ([`listed_by_session`], asked only then) —, when a tool could
    /// be named so ([`mur_usage::name_shaped`]: the tools agents reach for that do not
    /// exist are what an operator measures), or `with_values`; else it is `WORD`: a value
    /// typed as the name (`call '{"password":"hunter2"}'`, a text of 120,000 characters)
    /// is never recorded. Cut as the verb is.
    fn recorded_tool(
        &self,
        outcome: Outcome,
        with_values: bool,
        listed: impl FnOnce(&str) -> bool,
    ) -> Option<String> {
        let tool = self.tool.as_deref()?;
        let typed = matches!(self.kind, Kind::Call | Kind::Unknown);
        let answered = matches!(outcome, Outcome::Ok | Outcome::ToolError);
        let shaped = || mur_usage::name_shaped(tool);
        let known = with_values || !typed || answered || shaped() || listed(tool);
        Some(mur_usage::recorded_name(tool, known))
    }
}

/// Not a call after all (`--help`): nothing is recorded.
pub fn forget() {
    if let Ok(mut current) = CURRENT.lock() {
        *current = None;
    }
}

/// The verb turned out to be of `kind`: a name not installed is a derived verb,
/// and `unknown` once no tool of the session has it either.
pub fn kind(kind: Kind) {
    with(|i| i.kind = kind);
}

/// The verb turned out to be called `name`: a derived verb is recorded under its
/// verb name (`export-todos`, as `catalog` lists it), whatever spelling found it
/// (`exportTodos`, the tool's own name), so one verb is one row of the report. A
/// word that named nothing (`unknown`) is never renamed: it keeps the word typed.
pub fn verb_name(name: &str) {
    with(|i| {
        if i.kind != Kind::Unknown {
            name.clone_into(&mut i.verb);
            i.renamed = true;
        }
    });
}

/// The options `spec` declares that take a value (`--selector`), and `more` (a
/// derived verb's `--out`), so their values are not counted as positionals.
pub fn value_options(spec: &mur_verbs::VerbSpec, more: Option<&str>) {
    let names: Vec<String> = spec
        .options
        .iter()
        .filter(|p| p.takes_value())
        .map(|p| format!("--{}", p.name))
        .chain(more.map(str::to_owned))
        .collect();
    with(|i| i.value_options = Some(names));
}

/// The options of a command of mur's own that take a value (`call --out PATH`), for
/// the shape of its argv.
pub fn command_value_options(names: &[&str]) {
    let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
    with(|i| i.value_options = Some(names));
}

/// `call`'s options that take a value, wherever they are typed (`call --args`).
const CALL_VALUE_OPTIONS: [&str; 2] = ["--args", "--method"];

/// Whether option `name` takes the next word as its value: `None` when nothing says
/// (a verb's own option, its spec not known); `mur_usage::argv_shape` then takes a
/// next word that is no option as its value.
fn takes_value(name: &str, value_options: Option<&[String]>) -> Option<bool> {
    // The host options, from the one table of them (`-vq` as clap takes it).
    let host = crate::cli::HostOption::named(name);
    if CALL_VALUE_OPTIONS.contains(&name) || host.is_some_and(|o| o.value.is_some()) {
        return Some(true);
    }
    // After a host flag, a verb whose options are not known has its next word counted
    // as a positional, not as that option's value.
    let host_flag = host.is_some() || crate::options::is_short_flags(name);
    match value_options {
        Some(names) => Some(names.iter().any(|v| v == name)),
        None if host_flag => Some(false),
        None => None,
    }
}

/// The tool the verb calls, and the SHA-256 of the verb's file.
pub fn verb_file(tool: &str, sha256: Option<&str>) {
    with(|i| {
        i.tool = Some(tool.to_owned());
        i.verb_hash = sha256.map(str::to_owned);
    });
}

pub fn tool(tool: &str) {
    with(|i| i.tool = Some(tool.to_owned()));
}

/// Whether `tool`, a name typed to `call` that no tool answered to and no tool could be
/// named, is a tool of the session's list as mur last cached it (`session`: its endpoint
/// and identity; `call fs.read_v2`). Read only for such a name, once the call is over:
/// a call that reached its tool, or of a name kept by its shape, reads nothing more.
fn listed_by_session(tool: &str, session: Option<&(String, Option<String>)>) -> bool {
    use mur_verbs::tools::Entries as _;
    let listed = session.and_then(|(endpoint, identity)| {
        crate::tool_cache::CachedTools::of(endpoint, identity.as_deref()).listed()
    });
    listed.is_some_and(|tools| tools.position(tool).is_some())
}

/// The server answered the call with a JSON-RPC error (an unknown tool, most often).
pub fn rpc_error() {
    with(|i| i.rpc_error = true);
}

/// The command ends with an exit that is its answer, not a mistake of the caller
/// (`parity`'s exit 1: some tool has no named verb): recorded `ok`, with that exit,
/// so the report counts no usage error against it.
pub fn answered() {
    with(|i| i.answered = true);
}

/// The user stopped the call (Ctrl-C, SIGTERM, SIGHUP: exit 130, 143, 129): recorded
/// `interrupted`, no failure of the verb's nor of the session's; the phase it stopped
/// is counted until then (a verb stopped in its `parse`: `phases.parse`, no `call`).
pub fn interrupted() {
    with(|i| {
        i.interrupted = true;
        i.end_running();
    });
}

/// Whether this invocation is recorded (begun, not forgotten nor finished).
pub fn recording() -> bool {
    with(|_| ()).is_some()
}

/// Where a signal found the invocation's call, as its line says it: ahead (nothing sent),
/// running (a prompt answering the server's question), done (shaping, printing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TheCall {
    Ahead,
    Running,
    Done,
}

/// What a signal stopped: the verb, as a line names it (its tool too, where known:
/// "`spin` (tool `version`)"), and where it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stopped {
    pub what: String,
    pub at: TheCall,
}

/// What a signal stops now; `None` with no invocation recorded.
pub fn stopped() -> Option<Stopped> {
    with(|i| {
        let verb = i.recorded_verb(false);
        let what = match &i.tool {
            Some(tool) if *tool == verb => format!("tool `{tool}`"),
            Some(tool) => format!("`{verb}` (tool `{tool}`)"),
            None => format!("`{verb}`"),
        };
        let at = match (i.running, i.phases[Phase::Call as usize]) {
            (Some((Phase::Call, _)), _) => TheCall::Running,
            (_, Some(_)) => TheCall::Done,
            (_, None) => TheCall::Ahead,
        };
        Stopped { what, at }
    })
}

/// The session the call went to: its project hash and build tag.
pub fn session(resolved: &mur_discovery::Resolved) {
    with(|i| {
        // The lockfile's name is the hash: no SHA-256 on the call's path
        // (a session found by `--auto` has no lockfile, and is hashed).
        i.project = match &resolved.lockfile {
            Some(lockfile) => lockfile
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned()),
            None => resolved.project.as_deref().map(project_hash),
        };
        i.build_tag.clone_from(&resolved.build_tag);
        i.session = Some((resolved.endpoint.clone(), resolved.identity.clone()));
    });
}

/// The lockfile name of a canonical project path, without `.json`.
fn project_hash(project: &str) -> String {
    let name = mur_lockfile::paths::lockfile_name(project);
    name.trim_end_matches(".json").to_owned()
}

/// Runs `f`, adding its duration to `phase`.
pub fn measure<R>(phase: Phase, f: impl FnOnce() -> R) -> R {
    enter(phase);
    let result = f();
    leave();
    result
}

/// [`measure`] for a future. What it holds across the await is the future alone: a
/// call's future is held whole in every frame it passes through (tool_call.rs's test).
pub async fn measure_async<R>(phase: Phase, f: impl Future<Output = R>) -> R {
    enter(phase);
    let result = f.await;
    leave();
    result
}

/// `phase` runs from now, within the one running, if any.
fn enter(phase: Phase) {
    with(|i| i.outer = i.running.replace((phase, Instant::now())));
}

/// The phase running ends: its time is added, and the one it ran within resumes.
fn leave() {
    with(|i| {
        i.end_running();
        i.running = i.outer.take();
    });
}

impl Invocation {
    /// The phase running ends now: its time so far is added to it.
    fn end_running(&mut self) {
        if let Some((phase, started)) = self.running.take() {
            let slot = &mut self.phases[phase as usize];
            *slot = Some(slot.unwrap_or_default() + started.elapsed());
        }
    }
}

/// `params` of a `tools/call` with the verb named in `_meta`.
pub fn with_verb_meta(method: &str, params: Option<&Value>) -> Option<Value> {
    let label = with(|i| json!({ "name": i.recorded_verb(false), "kind": i.kind.as_str() }))?;
    let mut params = params.filter(|_| method == "tools/call")?.clone();
    let object = params.as_object_mut()?;
    let meta = object.entry("_meta").or_insert_with(|| json!({}));
    meta.as_object_mut()?.entry(VERB_META).or_insert(label);
    Some(params)
}

/// Appends this invocation's record, if it is one to record; never fails the
/// invocation. A record that cannot be written is said at once, in one `warning:`
/// line ([`lost_record`]).
pub fn finish(outcome: &std::result::Result<(), Error>, exit: u8) {
    let Some(invocation) = CURRENT.lock().ok().and_then(|mut c| c.take()) else {
        return;
    };
    let Some(dir) = UsageDir::from_env().filter(UsageDir::enabled) else {
        return;
    };
    let session = invocation.session.clone();
    let listed = |tool: &str| listed_by_session(tool, session.as_ref());
    let record = record(invocation, outcome, exit, dir.with_values(), listed);
    if let Err(e) = dir.log().append(&record) {
        crate::output::notice(&lost_record(&e));
    }
}

/// What a failed append means to the operator, who learnt it only at `usage report`
/// (exit 7) days later: the log, why, and whether this invocation's record is lost
/// (one record per invocation: said once). `-q` keeps it, as every warning: a lost
/// measurement of the experiment is no progress note.
fn lost_record(e: &mur_usage::Error) -> String {
    match e.record_written() {
        true => e.message().to_owned(),
        false => format!("{}; this call is not recorded", e.message()),
    }
}

/// A usage log's failure as mur's error: the one place where the class a log's
/// error carries becomes the kind that decides the exit code.
pub fn error(e: mur_usage::Error) -> Error {
    let kind = match e.class() {
        mur_usage::Class::Usage => ErrorKind::Usage,
        mur_usage::Class::Internal => ErrorKind::Internal,
    };
    let error = Error::new(kind, e.message());
    match e.hint() {
        Some(hint) => error.with_hint(hint),
        None => error,
    }
}

/// Where `--usage` and `--usage-log PATH` (of `bridge` and `proxy`) say the tool calls
/// served are recorded: `PATH` (made absolute: a bridge in the background runs
/// elsewhere) once [`check_usage_log`] has found it can be, else beside mur's own log,
/// else nowhere.
pub fn usage_logging(
    usage: bool,
    usage_log: Option<&std::path::Path>,
) -> Result<mur_bridge::UsageLogging, Error> {
    use mur_bridge::UsageLogging;
    check_usage_log(usage_log)?;
    Ok(match (usage_log, usage) {
        (Some(path), _) => {
            UsageLogging::At(std::path::absolute(path).unwrap_or_else(|_| path.to_owned()))
        }
        (None, true) => UsageLogging::BesideLockfile,
        (None, false) => UsageLogging::Off,
    })
}

/// `--usage-log PATH` (of `bridge` and `proxy`), when given, asked before anything starts, as
/// `--out` is: a path in a directory that does not exist is a mistyped one, refused
/// (exit 1), not made, unless it is mur's own usage directory.
pub fn check_usage_log(path: Option<&std::path::Path>) -> Result<(), Error> {
    let Some(path) = path else {
        return Ok(());
    };
    mur_usage::check_log_path(path).map_err(|e| {
        let e = error(e);
        Error::new(
            e.kind(),
            format!("`--usage-log`: {} (nothing was started)", e.message()),
        )
    })
}

/// The record of `i`, ended with `outcome` and `exit`; `listed` tells whether a name
/// typed to `call` that no tool answered to is a tool's all the same
/// ([`Invocation::recorded_tool`]).
fn record(
    i: Invocation,
    outcome: &std::result::Result<(), Error>,
    exit: u8,
    with_values: bool,
    listed: impl FnOnce(&str) -> bool,
) -> Record {
    let ms = STARTED.get().map_or(0.0, |s| millis(s.elapsed()));
    let outcome_kind = match outcome_of(outcome) {
        _ if i.interrupted => Outcome::Interrupted,
        Outcome::ToolError if i.rpc_error => Outcome::RpcError,
        Outcome::UsageError if i.answered => Outcome::Ok,
        other => other,
    };
    let verb = i.recorded_verb(with_values);
    let tool = i.recorded_tool(outcome_kind, with_values, listed);
    let mut record = Record::new(Side::Cli, Surface::Cli, outcome_kind, ms);
    record.client = Some(concat!("mur ", env!("CARGO_PKG_VERSION")).to_owned());
    record.agent = i.agent.or_else(parent_name);
    let value_options = i.value_options.as_deref();
    let takes_value = |o: &str| takes_value(o, value_options);
    record.argv = Some(mur_usage::argv_shape(&i.argv, takes_value, with_values));
    record.verb = Some(verb);
    record.kind = Some(i.kind);
    record.verb_hash = i.verb_hash;
    record.tool = tool;
    record.exit = Some(exit);
    record.class = outcome.as_ref().err().map(|e| class(e).to_owned());
    record.project = i.project;
    record.build_tag = i.build_tag;
    let [discovery, parse, call, shape] = i.phases.map(|p| p.map(millis));
    record.phases = Some(Phases {
        discovery,
        parse,
        call,
        shape,
    });
    record
}

fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

fn outcome_of(outcome: &std::result::Result<(), Error>) -> Outcome {
    let Err(e) = outcome else {
        return Outcome::Ok;
    };
    match e.kind() {
        // Several sessions, a bad `--endpoint`: nothing the verb's shape could help.
        ErrorKind::Usage if e.is_about_session() => Outcome::SessionError,
        ErrorKind::Usage => Outcome::UsageError,
        ErrorKind::Transport | ErrorKind::NoSession | ErrorKind::SessionActive => {
            Outcome::SessionError
        }
        ErrorKind::ToolFailed => Outcome::ToolError,
        ErrorKind::Plugin => Outcome::PluginError,
        ErrorKind::Internal => Outcome::InternalError,
        ErrorKind::BrokenPipe | ErrorKind::Help => Outcome::Ok,
    }
}

/// The error class as the README's exit-code table names it.
fn class(e: &Error) -> &'static str {
    match e.kind() {
        ErrorKind::Usage => "usage",
        ErrorKind::Transport => "transport",
        ErrorKind::NoSession => "no-session",
        ErrorKind::SessionActive => "session-active",
        ErrorKind::ToolFailed => "tool-failed",
        ErrorKind::Plugin => "plugin",
        ErrorKind::Internal => "internal",
        ErrorKind::BrokenPipe => "broken-pipe",
        ErrorKind::Help => "help",
    }
}

/// The parent process's name (the agent's shell, or the agent itself) when
/// no `--agent` names it: one read of `/proc/<ppid>/comm`.
#[cfg(target_os = "linux")]
fn parent_name() -> Option<String> {
    let ppid = std::os::unix::process::parent_id();
    let comm = std::fs::read_to_string(format!("/proc/{ppid}/comm")).ok()?;
    Some(comm.trim_end().to_owned()).filter(|n| !n.is_empty())
}

#[cfg(not(target_os = "linux"))]
fn parent_name() -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exit_that_is_the_commands_answer_is_recorded_ok_not_as_a_usage_error() {
        let parity = || Invocation::new("parity", Kind::Host, &[], Some("claude"));
        let outcome = || Err(Error::usage("2 of 9 tools have no named verb: a, b"));
        let told = |r: Record| (r.outcome, r.exit, r.class);
        // Not marked as the answer, exit 1 is what was typed refused.
        assert_eq!(
            told(record(parity(), &outcome(), 1, false, |_| false)),
            (Outcome::UsageError, Some(1), Some("usage".to_owned()))
        );
        let mut answered = parity();
        answered.answered = true;
        assert_eq!(
            told(record(answered, &outcome(), 1, false, |_| false)),
            (Outcome::Ok, Some(1), Some("usage".to_owned()))
        );
        // Whatever else goes wrong is still said: no session is no answer.
        let mut answered = parity();
        answered.answered = true;
        let none = Err(Error::no_session("no live session"));
        assert_eq!(
            record(answered, &none, 4, false, |_| false).outcome,
            Outcome::SessionError
        );
    }

    /// A word in the verb's place that no verb or tool could be named (a value typed
    /// where the verb goes) is not recorded, unless values are.
    #[test]
    fn a_word_no_verb_could_be_named_is_recorded_as_word_unless_values_are() {
        let recorded = |typed: &str, with_values: bool| {
            let i = Invocation::new(typed, Kind::Unknown, &[], Some("claude"));
            record(i, &Ok(()), 0, with_values, |_| false).verb
        };
        for secret in [
            "sk-live-SECRET123",
            "#email",
            "hello world typed text",
            "ghp_abc123XYZ",
        ] {
            assert_eq!(recorded(secret, false).as_deref(), Some("WORD"), "{secret}");
            assert_eq!(recorded(secret, true).as_deref(), Some(secret));
        }
        // A verb's name, or a tool's as an agent used to MCP types it: what callers
        // expected, kept.
        for expected in ["get-text", "getText", "take_screenshot"] {
            assert_eq!(recorded(expected, false).as_deref(), Some(expected));
        }
        // A command of mur's is recorded by its name, spaces and all (it was `WORD`).
        let command = Invocation::new("session list", Kind::Host, &[], Some("claude"));
        assert_eq!(
            record(command, &Ok(()), 0, false, |_| false)
                .verb
                .as_deref(),
            Some("session list")
        );
    }

    /// A name typed to `call` is kept by the verb word's rule: as typed when a tool could
    /// be named so (`get-text`, `hunter2`: a tool agents reach for that does not exist),
    /// or the session has a tool of that name (it answered the call as the tool's: a
    /// result, or the tool's own failure; or its list as cached names it, read only for a
    /// name neither answered nor shaped so), or values are recorded; else `WORD`. Whatever
    /// is kept is cut to 200 characters, as a session cuts the names it records (audit 56
    /// #1: `call '{"password":"hunter2"}'` and `call <120,000 b's>` were recorded whole).
    #[test]
    fn a_name_typed_to_call_no_tool_could_be_named_is_recorded_as_word() {
        let recorded = |tool: &str, kind: Kind, outcome: Outcome, listed: bool, values: bool| {
            let mut i = Invocation::new("call", kind, &["NAME".to_owned()], Some("claude"));
            i.tool = Some(tool.to_owned());
            let result = match outcome {
                Outcome::Ok => Ok(()),
                Outcome::UsageError => Err(Error::usage("HTTP 431")),
                _ => Err(Error::tool_failed("unknown tool")),
            };
            i.rpc_error = outcome == Outcome::RpcError;
            i.interrupted = outcome == Outcome::Interrupted;
            let exit = match outcome {
                Outcome::Ok => 0,
                Outcome::Interrupted => 130,
                _ => 5,
            };
            let asked = std::cell::Cell::new(false);
            let listed = |name: &str| {
                assert_eq!(name, tool);
                asked.set(true);
                listed
            };
            let record = record(i, &result, exit, values, listed);
            assert_eq!(record.outcome, outcome, "{tool}");
            (record.tool.unwrap_or_default(), asked.get())
        };
        let password = r#"{"password":"hunter2"}"#;
        let long = "b".repeat(120_000);
        let (rpc, usage, ok) = (Outcome::RpcError, Outcome::UsageError, Outcome::Ok);
        let (tool_error, stopped) = (Outcome::ToolError, Outcome::Interrupted);
        let word = ("WORD".to_owned(), true);
        for (typed, outcome) in [(password, rpc), (&long, usage), ("fs.read_v2", rpc)] {
            assert_eq!(recorded(typed, Kind::Call, outcome, false, false), word);
        }
        // Shaped like a name, though no tool answered to it (an unknown tool, a call
        // stopped before its answer): as typed, and the cache is not read.
        for name in [
            "state",
            "take_screenshot",
            "get-text",
            "noSuchTool",
            "hunter2",
        ] {
            for outcome in [rpc, stopped] {
                let kept = recorded(name, Kind::Call, outcome, false, false);
                assert_eq!(kept, (name.to_owned(), false));
            }
        }
        // The session's tool: it answered the call as the tool's, nothing more read.
        for outcome in [ok, tool_error] {
            let kept = recorded("fs.read_v2", Kind::Call, outcome, false, false);
            assert_eq!(kept, ("fs.read_v2".to_owned(), false));
        }
        // Its tool list as cached names it.
        assert_eq!(
            recorded("fs.read_v2", Kind::Call, rpc, true, false),
            ("fs.read_v2".to_owned(), true)
        );
        // A verb's tool is its file's or the session's list's.
        assert_eq!(
            recorded("fs.read_v2", Kind::Derived, rpc, false, false),
            ("fs.read_v2".to_owned(), false)
        );
        // With values: as typed, cut as a session cuts a name.
        assert_eq!(
            recorded(password, Kind::Call, rpc, false, true),
            (password.to_owned(), false)
        );
        assert_eq!(
            recorded(&long, Kind::Call, usage, false, true).0,
            format!("{}…", "b".repeat(mur_usage::NAME_CHARS))
        );
    }

    /// The lists of host options a record's shape knows are every host option of the
    /// command line, each in the right one.
    #[test]
    fn the_host_options_a_record_knows_are_the_command_lines() {
        let cmd = crate::cli::command();
        for arg in cmd
            .get_arguments()
            .filter(|a| a.get_help_heading() == Some("Host options"))
        {
            let takes = arg.get_action().takes_values();
            let names = arg.get_long().map(|l| format!("--{l}")).into_iter();
            let names = names.chain(arg.get_short().map(|s| format!("-{s}")));
            for name in names {
                assert_eq!(takes_value(&name, None), Some(takes), "{name}");
            }
        }
    }

    /// An option of a verb nothing describes (no session told its tool's schema) keeps
    /// its value out of the positionals; a host flag's next word is still one.
    #[test]
    fn a_value_after_an_unknown_verbs_option_is_no_positional() {
        let shape = |typed: &str, kind: Kind| {
            let argv: Vec<String> = typed.split(' ').map(str::to_owned).collect();
            let i = Invocation::new("click", kind, &argv, Some("claude"));
            let argv = record(i, &Ok(()), 0, false, |_| false)
                .argv
                .unwrap_or_default();
            (argv.options, argv.positionals)
        };
        assert_eq!(
            shape("--selector #x", Kind::Derived),
            (vec!["--selector".to_owned()], 0)
        );
        assert_eq!(
            shape("--pretty #x -vq #y --timeout 5", Kind::Unknown),
            (
                vec![
                    "--pretty".to_owned(),
                    "-vq".to_owned(),
                    "--timeout".to_owned()
                ],
                2
            )
        );
        // A spec that says `--selector` takes none is kept to.
        let mut known = Invocation::new(
            "click",
            Kind::Plugin,
            &["--selector".into(), "#x".into()],
            None,
        );
        known.value_options = Some(Vec::new());
        assert_eq!(
            record(known, &Ok(()), 0, false, |_| false)
                .argv
                .map(|a| a.positionals),
            Some(1)
        );
    }

    #[test]
    fn a_derived_verb_is_recorded_under_its_verb_name_an_unknown_word_as_typed() {
        let recorded = |found: Kind| {
            begin("exportTodos", Kind::Plugin, &[], Some("claude"));
            kind(found);
            verb_name("export-todos");
            let taken = CURRENT.lock().ok().and_then(|mut c| c.take());
            taken.map(|i| (i.verb, i.kind))
        };
        assert_eq!(
            recorded(Kind::Derived),
            Some(("export-todos".to_owned(), Kind::Derived))
        );
        assert_eq!(
            recorded(Kind::Unknown),
            Some(("exportTodos".to_owned(), Kind::Unknown))
        );
    }
}
