//! Usage records of the calls this session serves, from any client: the
//! server side of the experiment (`mur-usage/1`, side `server`). A request
//! from mur names its verb in `_meta["dev.mur/verb"]` and counts as surface
//! `cli`; any other client is surface `mcp`. Off unless the app turns it on.
//! The stdio bridge records the calls it serves through the same [`Recorder`].
//! A name the client sent (the tool's, the verb's) is recorded as sent only when
//! the session has that tool or the name is shaped like one, else as `WORD`
//! ([`mur_usage::recorded_name`], the rule of mur's own records): a value sent
//! as a name (`{"password":"hunter2"}`) is never recorded, while a tool no one has
//! that an MCP client reached for (`getText`) is, as mur's records keep
//! `mur devtools get-text`: both surfaces show what their agents expected.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use mur_usage::{Kind, Outcome, Record, Side, Surface, UsageLog, cut_name};
use rmcp::RoleServer;
use rmcp::service::RequestContext;
use serde_json::Value;

pub(crate) use mur_usage::VERB_META;

/// Where the session records the calls it serves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum UsageLogging {
    /// Nothing is recorded (the default).
    #[default]
    Off,
    /// `<hash>.jsonl` (the project hash, the lockfile's name) in the sessions' usage
    /// directory beside mur's own log ([`mur_usage::sessions_dir`]:
    /// `$XDG_STATE_HOME/mur/usage/sessions/`), which outlives a logout and a reboot;
    /// the name is kept from when it was `<lockfile directory>/usage/`, wiped with
    /// `$XDG_RUNTIME_DIR`.
    BesideLockfile,
    /// This file.
    At(PathBuf),
}

/// The session's recorder: the log and what every record says about the session.
#[derive(Debug)]
pub struct Recorder {
    log: UsageLog,
    project: String,
    build_tag: String,
}

impl Recorder {
    /// The recorder for `logging`, or `None` when it is off. `lockfile` is
    /// the session's lockfile path (its stem is the project hash).
    pub fn new(
        logging: &UsageLogging,
        lockfile: &std::path::Path,
        build_tag: &str,
    ) -> Option<Self> {
        let project = lockfile.file_stem()?.to_string_lossy().into_owned();
        let path = match logging {
            UsageLogging::Off => return None,
            UsageLogging::At(path) => path.clone(),
            UsageLogging::BesideLockfile => {
                mur_usage::sessions_dir().join(format!("{project}.jsonl"))
            }
        };
        Some(Self {
            log: UsageLog::at(path),
            project,
            build_tag: build_tag.to_owned(),
        })
    }

    /// Makes the log, so that a path that cannot be one is known before any call
    /// (and a reader finds the file before the first record); `Err` says why.
    pub fn ready(&self) -> Result<(), String> {
        self.log.ready().map_err(|e| e.to_string())
    }

    /// Where the records go.
    pub fn path(&self) -> &std::path::Path {
        self.log.path()
    }

    /// A call starting now: who asks, through which verb. `has_tool`: the session has
    /// a tool of that name (its [`ToolSet`](crate::ToolSet) does).
    pub(crate) fn start(
        &self,
        tool: &str,
        has_tool: bool,
        context: &RequestContext<RoleServer>,
    ) -> Served {
        let client =
            client_info(context).and_then(|info| client_label(&info.name, Some(&info.version)));
        self.served(tool, has_tool, client, context.meta.get(VERB_META))
    }

    /// A call of `tool` starting now, from `client` ([`client_label`]); `meta` is the
    /// request's `_meta`, which names the verb when the call is mur's. Whether the
    /// server has that tool is told by its answer ([`Recorder::finish`]): a bridge keeps
    /// no tool list of its server's.
    pub fn call(&self, tool: &str, client: Option<String>, meta: &Value) -> Served {
        // A bridge's records say it wrote them, so a report that reads them leaves out
        // its server's own records of the same calls (a proxy's do not: `forwarded`).
        Served {
            bridge: true,
            ..self.served(tool, false, client, meta.get(VERB_META))
        }
    }

    /// A call of `tool` that `mur devtools proxy --usage` forwards for `client`: an MCP
    /// client's (surface `mcp`: the proxy takes off any verb label), whose tool the
    /// session has as its answer tells ([`Recorder::finish_forwarded`]). Not a bridge's
    /// record: no stdio server keeps one of the same call under the bridge's name for a
    /// report to leave out.
    pub fn forwarded(&self, tool: &str, client: Option<String>) -> Served {
        self.served(tool, false, client, None)
    }

    /// The tool's and the verb's names are the client's words, so they are cut as
    /// its name is ([`mur_usage::cut_name`]); whether the record keeps them is decided
    /// when the call ends ([`Recorder::record`]).
    fn served(
        &self,
        tool: &str,
        has_tool: bool,
        client: Option<String>,
        verb: Option<&Value>,
    ) -> Served {
        let verb_name = verb.and_then(|v| v["name"].as_str());
        Served {
            started: Instant::now(),
            tool: cut_name(tool),
            has_tool,
            client,
            surface: if verb.is_some() {
                Surface::Cli
            } else {
                Surface::Mcp
            },
            verb: verb_name.map(cut_name),
            verb_of_tool: verb_name.is_some_and(|verb| verb_of(verb, tool)),
            kind: verb.and_then(|v| v["kind"].as_str()).and_then(Kind::parse),
            bridge: false,
        }
    }

    /// Appends the record of `served` ([`Recorder::record`]); a failure to record is
    /// logged, never the call's failure.
    pub fn finish(&self, served: Served, outcome: Outcome) {
        self.append(&self.record(served, outcome));
    }

    /// [`Recorder::finish`] for a call a proxy forwarded ([`Recorder::forwarded`]): its
    /// record names `project`, the hash of the project whose session served it (`None`:
    /// one reached by `--endpoint`), and no build (the proxy is no session's build).
    pub fn finish_forwarded(&self, served: Served, outcome: Outcome, project: Option<String>) {
        let mut record = self.record(served, outcome);
        record.project = project;
        record.build_tag = None;
        self.append(&record);
    }

    /// A record that cannot be written is said in a warning of the app's log (its stderr
    /// by default), one per call as its record is one, as mur says its own; a log that
    /// only cannot be rotated kept the record, and is not said to have lost it.
    fn append(&self, record: &Record) {
        match self.log.append(record) {
            Ok(()) => {}
            Err(e) if e.record_written() => tracing::warn!("{e}"),
            Err(e) => tracing::warn!("{e}; this call is not recorded"),
        }
    }

    /// The record of `served`, ended with `outcome`. The tool's name is kept as the
    /// client sent it when the session has that tool — its tool set does, or its server
    /// answered the call as the tool's (a result, or the tool's own failure: how a bridge
    /// knows) — or when a tool could be named so ([`mur_usage::name_shaped`]); else it is
    /// `WORD`. So is the verb's (`_meta["dev.mur/verb"].name`), kept when shaped like a
    /// name or when it is the verb of the session's tool called ([`verb_of`]: mur's
    /// derived verb `2fa-check` of a tool `2faCheck`). The rule of mur's own records
    /// ([`mur_usage::recorded_name`]): a value sent as a name (`{"password":"hunter2"}`,
    /// a sentence) is never recorded, as no argument value is.
    fn record(&self, served: Served, outcome: Outcome) -> Record {
        let ms = served.started.elapsed().as_secs_f64() * 1000.0;
        let mut record = Record::new(
            Side::Server,
            served.surface,
            outcome,
            (ms * 1000.0).round() / 1000.0,
        );
        let answered = matches!(outcome, Outcome::Ok | Outcome::ToolError);
        let has_tool = served.has_tool || answered;
        record.client = served.client;
        record.verb = served
            .verb
            .map(|verb| mur_usage::recorded_name(&verb, has_tool && served.verb_of_tool));
        record.kind = served.kind;
        record.tool = Some(mur_usage::recorded_name(&served.tool, has_tool));
        record.project = Some(self.project.clone());
        record.build_tag = Some(self.build_tag.clone());
        record.bridge = served.bridge;
        record
    }
}

/// Whether `verb` is a verb name mur gives the tool `tool`: its kebab-case form
/// ([`mur_usage::kebab`], the rule mur names it by: `fs.read_v2` → `fs-read-v2`,
/// `2faCheck` → `2fa-check`), or the tool's own name, which mur gives it where another
/// tool's has the same form or its own is empty (`!!`). Such a name says no more than the
/// tool's own: of a tool the session has, it is kept.
fn verb_of(verb: &str, tool: &str) -> bool {
    !verb.is_empty() && (verb == tool || verb == mur_usage::kebab(tool))
}

/// The client a request names: the `clientInfo` of its own `_meta` (2026-07-28), else
/// the one its session's `initialize` gave. A request served over HTTP with no session
/// (no `Mcp-Session-Id`: 2026-07-28, stateless) has only its own: rmcp stands its own
/// name in for the handshake it skipped (`rmcp 3.9.0`), which no client gave, so a
/// client that names itself nowhere is `(unnamed)` in the report, not the server's
/// library.
fn client_info(context: &RequestContext<RoleServer>) -> Option<rmcp::model::Implementation> {
    let parts = context.extensions.get::<axum::http::request::Parts>();
    match parts {
        Some(parts) if !parts.headers.contains_key("mcp-session-id") => context.meta.client_info(),
        _ => context.client_info(),
    }
}

/// Who a record says called: the client's `name version`, or its name alone when it
/// gave no version, each cut by [`mur_usage::cut_name`]; `None` for a blank name. The one
/// label of a client, a session's records and the bridge's alike.
pub fn client_label(name: &str, version: Option<&str>) -> Option<String> {
    let name = cut_name(name);
    if name.is_empty() {
        return None;
    }
    let version = version.map(cut_name).unwrap_or_default();
    Some(if version.is_empty() {
        name
    } else {
        format!("{name} {version}")
    })
}

/// A call being served and the recorder its record goes to, once it ends
/// (with its request, or later as a task). Clones share the one record: the
/// request and the task a call may become each hold one, and whichever sees
/// the call end records it; the other's `done` finds it written.
#[derive(Clone)]
pub(crate) struct Finish {
    recorder: Arc<Recorder>,
    served: Arc<Mutex<Option<Served>>>,
}

impl Finish {
    pub(crate) fn start(
        recorder: &Arc<Recorder>,
        tool: &str,
        has_tool: bool,
        context: &RequestContext<RoleServer>,
    ) -> Self {
        let served = recorder.start(tool, has_tool, context);
        Self {
            recorder: recorder.clone(),
            served: Arc::new(Mutex::new(Some(served))),
        }
    }

    /// Records the call as ended with `outcome`, unless a clone did already.
    pub(crate) fn done(&self, outcome: Outcome) {
        let served = self
            .served
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(served) = served {
            self.recorder.finish(served, outcome);
        }
    }
}

/// One call being served.
#[derive(Debug)]
pub struct Served {
    started: Instant,
    /// The tool's name as the client sent it, cut.
    tool: String,
    /// The session has a tool of that name (a bridge learns it from the answer).
    has_tool: bool,
    client: Option<String>,
    surface: Surface,
    /// The verb's name as mur sent it, cut.
    verb: Option<String>,
    /// `verb` is the verb of `tool` ([`verb_of`]).
    verb_of_tool: bool,
    kind: Option<Kind>,
    /// Served by a bridge ([`Recorder::call`]).
    bridge: bool,
}

impl Served {
    /// The tool called, as the client named it (cut: [`mur_usage::cut_name`]), to read
    /// its answer by; the record may say `WORD` ([`Recorder::finish`]).
    pub fn tool(&self) -> &str {
        &self.tool
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recorder whose log is never written: these tests look only at what it makes
    /// of a call.
    fn unwritten_recorder() -> Recorder {
        Recorder::new(
            &UsageLogging::At(PathBuf::from("never-written.jsonl")),
            std::path::Path::new("0123456789abcdef.json"),
            "tag",
        )
        .expect("a recorder")
    }

    /// The tool's and the verb's names are the client's words too (audit 54 #1: a
    /// 2 MiB verb name made a record no reader takes, and flushed the log's others).
    #[test]
    fn the_tool_and_verb_names_a_client_sent_are_bounded_as_its_name_is() {
        let recorder = unwritten_recorder();
        let long = "v".repeat(2 << 20);
        let meta = serde_json::json!({ VERB_META: { "name": long, "kind": "plugin" } });
        let served = recorder.call(&long, None, &meta);
        let cut = cut_name(&long);
        assert_eq!(cut.chars().count(), mur_usage::NAME_CHARS + 1);
        assert_eq!(
            (served.tool(), served.verb.as_deref()),
            (&*cut, Some(&*cut))
        );
        assert_eq!(served.kind, Some(Kind::Plugin));
    }

    /// A name the client sent is recorded as sent when the session has that tool (its
    /// tool set does, or — a bridge's — its server answered the call as the tool's) or
    /// when it is shaped like a name; else as `WORD`, the verb's name alike (kept too as
    /// the verb of the session's tool called): a value sent as a name is never recorded.
    /// Whatever is kept is cut.
    #[test]
    fn a_name_sent_is_kept_when_the_session_has_it_or_it_is_shaped_like_one() {
        let recorder = unwritten_recorder();
        let recorded = |tool: &str, has_tool: bool, verb: Option<&str>, outcome: Outcome| {
            let meta = verb.map(|name| serde_json::json!({ "name": name, "kind": "derived" }));
            let served = recorder.served(tool, has_tool, None, meta.as_ref());
            let record = recorder.record(served, outcome);
            (record.tool.unwrap_or_default(), record.verb)
        };
        let (ok, rpc, stopped) = (Outcome::Ok, Outcome::RpcError, Outcome::Interrupted);
        let password = r#"{"password":"hunter2"}"#;
        let word = || "WORD".to_owned();
        assert_eq!(recorded(password, false, None, rpc), (word(), None));
        // Shaped like a name, though no tool of the session's: kept.
        for name in ["get-text", "getText", "take_screenshot", "noSuchTool"] {
            assert_eq!(recorded(name, false, None, rpc).0, name);
        }
        // The session's tool, whatever its shape: its tool set has it, or (a bridge) its
        // server answered the call as the tool's, a result or the tool's own failure.
        assert_eq!(recorded("fs.read_v2", false, None, rpc).0, "WORD");
        assert_eq!(recorded("fs.read_v2", false, None, stopped).0, "WORD");
        assert_eq!(recorded("fs.read_v2", true, None, stopped).0, "fs.read_v2");
        for answered in [ok, Outcome::ToolError] {
            assert_eq!(
                recorded("fs.read_v2", false, None, answered).0,
                "fs.read_v2"
            );
        }
        // The verb: shaped like a name, or the verb of the session's tool called.
        let verb = |verb: &str, tool: &str, has_tool: bool| {
            recorded(tool, has_tool, Some(verb), rpc)
                .1
                .unwrap_or_default()
        };
        assert_eq!(verb(password, "greet", true), "WORD");
        assert_eq!(verb("greet", "greet", true), "greet");
        assert_eq!(verb("get-text", "getText", false), "get-text");
        assert_eq!(verb("2fa-check", "2faCheck", true), "2fa-check");
        assert_eq!(verb("2fa_check2", "2fa_check2", true), "2fa_check2");
        assert_eq!(verb("2fa-check", "2faCheck", false), "WORD");
        assert_eq!(verb("2fa-check", "3faCheck", true), "WORD");
        // By the rule mur names a derived verb by, not a looser one: the same letters
        // spelled otherwise are no verb of the tool, and a tool of no letters is its own.
        assert_eq!(verb("2FA-Check", "2faCheck", true), "WORD");
        assert_eq!(verb("!!", "!!", true), "!!");
        // Kept, a name is cut; a sent one no one has is not kept at all.
        let long = "v".repeat(2 << 20);
        let cut = format!("{}…", "v".repeat(mur_usage::NAME_CHARS));
        assert_eq!(
            recorded(&long, true, Some(&long), ok),
            (cut.clone(), Some(cut))
        );
        assert_eq!(
            recorded(&long, false, Some(&long), rpc),
            (word(), Some(word()))
        );
    }

    #[test]
    fn a_clients_label_is_its_name_and_version_each_bounded() {
        assert_eq!(client_label("agent", Some("1")).as_deref(), Some("agent 1"));
        // No version, or a blank one: the name alone, no trailing space.
        assert_eq!(client_label("agent", None).as_deref(), Some("agent"));
        assert_eq!(client_label("agent", Some(" ")).as_deref(), Some("agent"));
        assert_eq!(client_label(" ", Some("1")), None);
        let long = client_label(&"é".repeat(1_500_000), Some(&"9".repeat(300))).expect("a label");
        let expected = format!(
            "{}… {}…",
            "é".repeat(mur_usage::NAME_CHARS),
            "9".repeat(mur_usage::NAME_CHARS)
        );
        assert_eq!(long, expected);
        // A cut just after a space leaves none before the `…`.
        let spaced = format!("{} tail", "x".repeat(mur_usage::NAME_CHARS - 1));
        assert_eq!(cut_name(&spaced), format!("{}…", "x".repeat(199)));
        // Cut once is cut for good: the proxy cuts, the session cuts again.
        assert_eq!(
            cut_name(&cut_name(&"x".repeat(500))),
            cut_name(&"x".repeat(500))
        );
    }
}
