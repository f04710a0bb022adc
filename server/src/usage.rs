//! Usage records of the calls this session serves, from any client: the
//! server side of the experiment (`mur-usage/1`, side `server`). A request
//! from mur names its verb in `_meta["dev.mur/verb"]` and counts as surface
//! `cli`; any other client is surface `mcp`. Off unless the app turns it on.
//! The stdio bridge records the calls it serves through the same [`Recorder`].

use std::path::PathBuf;
use std::time::Instant;

use mur_usage::{Kind, Outcome, Record, Side, Surface, UsageLog};
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
    /// `<lockfile directory>/usage/<project hash>.jsonl`.
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
            UsageLogging::BesideLockfile => lockfile
                .parent()?
                .join("usage")
                .join(format!("{project}.jsonl")),
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
        self.log.ready()
    }

    /// Where the records go.
    pub fn path(&self) -> &std::path::Path {
        self.log.path()
    }

    /// A call starting now: who asks, through which verb.
    pub(crate) fn start(&self, tool: &str, context: &RequestContext<RoleServer>) -> Served {
        let client = context
            .client_info()
            .map(|info| format!("{} {}", info.name, info.version));
        self.served(tool, client, context.meta.get(VERB_META))
    }

    /// A call of `tool` starting now, from `client` (`name version`); `meta` is the
    /// request's `_meta`, which names the verb when the call is mur's.
    pub fn call(&self, tool: &str, client: Option<String>, meta: &Value) -> Served {
        self.served(tool, client, meta.get(VERB_META))
    }

    fn served(&self, tool: &str, client: Option<String>, verb: Option<&Value>) -> Served {
        Served {
            started: Instant::now(),
            tool: tool.to_owned(),
            client,
            surface: if verb.is_some() {
                Surface::Cli
            } else {
                Surface::Mcp
            },
            verb: verb.and_then(|v| v["name"].as_str()).map(str::to_owned),
            kind: verb.and_then(|v| v["kind"].as_str()).and_then(Kind::parse),
        }
    }

    /// Appends the record of `served`; a failure to record is logged, never
    /// the call's failure.
    pub fn finish(&self, served: Served, outcome: Outcome) {
        let ms = served.started.elapsed().as_secs_f64() * 1000.0;
        let mut record = Record::new(
            Side::Server,
            served.surface,
            outcome,
            (ms * 1000.0).round() / 1000.0,
        );
        record.client = served.client;
        record.verb = served.verb;
        record.kind = served.kind;
        record.tool = Some(served.tool);
        record.project = Some(self.project.clone());
        record.build_tag = Some(self.build_tag.clone());
        if let Err(why) = self.log.append(&record) {
            tracing::warn!("usage not recorded: {why}");
        }
    }
}

/// A call being served and the recorder its record goes to, once it ends
/// (with its request, or later as a task).
pub(crate) struct Finish {
    recorder: std::sync::Arc<Recorder>,
    served: Served,
}

impl Finish {
    pub(crate) fn start(
        recorder: &std::sync::Arc<Recorder>,
        tool: &str,
        context: &RequestContext<RoleServer>,
    ) -> Self {
        Self {
            recorder: recorder.clone(),
            served: recorder.start(tool, context),
        }
    }

    pub(crate) fn done(self, outcome: Outcome) {
        self.recorder.finish(self.served, outcome);
    }
}

/// One call being served.
#[derive(Debug)]
pub struct Served {
    started: Instant,
    tool: String,
    client: Option<String>,
    surface: Surface,
    verb: Option<String>,
    kind: Option<Kind>,
}

impl Served {
    /// The tool called.
    pub fn tool(&self) -> &str {
        &self.tool
    }
}
