//! Usage records of the calls this session serves, from any client: the
//! server side of the experiment (`mur-usage/1`, side `server`). A request
//! from mur names its verb in `_meta["dev.mur/verb"]` and counts as surface
//! `cli`; any other client is surface `mcp`. Off unless the app turns it on.

use std::path::PathBuf;
use std::time::Instant;

use mur_usage::{Kind, Outcome, Record, Side, Surface, UsageLog};
use rmcp::RoleServer;
use rmcp::service::RequestContext;

/// The `_meta` key mur sends on every `tools/call`: `{"name": verb, "kind": kind}`.
pub(crate) const VERB_META: &str = "dev.mur/verb";

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
pub(crate) struct Recorder {
    log: UsageLog,
    project: String,
    build_tag: String,
}

impl Recorder {
    /// The recorder for `logging`, or `None` when it is off. `lockfile` is
    /// the session's lockfile path (its stem is the project hash).
    pub(crate) fn new(
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

    /// A call starting now: who asks, through which verb.
    pub(crate) fn start(&self, tool: &str, context: &RequestContext<RoleServer>) -> Served {
        let client = context
            .client_info()
            .map(|info| format!("{} {}", info.name, info.version));
        let verb = context.meta.get(VERB_META);
        let from_mur = verb.is_some();
        Served {
            started: Instant::now(),
            tool: tool.to_owned(),
            client,
            surface: if from_mur { Surface::Cli } else { Surface::Mcp },
            verb: verb.and_then(|v| v["name"].as_str()).map(str::to_owned),
            kind: verb.and_then(|v| v["kind"].as_str()).and_then(Kind::parse),
        }
    }

    /// Appends the record of `served`; a failure to record is logged, never
    /// the call's failure.
    pub(crate) fn finish(&self, served: Served, outcome: Outcome) {
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
pub(crate) struct Served {
    started: Instant,
    tool: String,
    client: Option<String>,
    surface: Surface,
    verb: Option<String>,
    kind: Option<Kind>,
}
