//! The call path every command that talks to a session takes: resolve the session,
//! then call — within one `--timeout` for both (time the user spends answering the
//! server's questions excepted), on a runtime of one thread ([`block_on`]), for mur or
//! for a client the stdio proxy relays. Around the call: a tool refused for want of a
//! task called again as one, a verb's wait lowered to end within the bound
//! ([`within_bound`]), the session's tool list paged in; after it, what the user reads
//! of a failure — what became of a session gone mid-call (reloaded, exited, stopped),
//! whether a call out of time is safe to run again, a tool named as the verb typed
//! calls it — and the reply settled ([`settle`]): a failed tool is an error that still
//! carries its stdout (`{"error":{…}}`, or the result with `isError: true`), which the
//! binary's one output path prints with it. Progress, log messages and questions go to
//! the output path's [`output::CallReport`].

use std::time::Instant;

use mur_client::tool_result::{is_error, missing_tool, result_text};
use mur_client::{Client, Reply};
use mur_core::{Error, Kind, Result, Settings};
use mur_lockfile::jsonrpc::{INTERNAL_ERROR, METHOD_NOT_FOUND};
use mur_lockfile::liveness::Fate;
use mur_verbs::spec::VerbSpec;
use mur_verbs::tools::{Entries as _, ToolTexts};
use serde_json::{Value, json};

use crate::output;
use crate::tool_cache::CachedTools;
use crate::usage;

/// The most `tools/list` pages read; a server paging forever is cut off.
const MAX_PAGES: usize = 100;

/// How long a call cut off by a session that withdrew its lockfile waits to see
/// its successor announce itself (a reload) or its process exit (a stop). A
/// successor announces itself within tens of milliseconds of the cut.
const RELOAD_WAIT: std::time::Duration = std::time::Duration::from_secs(2);
const RELOAD_POLL: std::time::Duration = std::time::Duration::from_millis(20);

/// What became of a session's process after a call to it failed midway.
#[derive(Debug)]
enum After {
    /// Its lockfile names another process now: the one it reloaded into.
    Reloaded(u32),
    /// It runs without a lockfile: it is reloading or stopping.
    Withdrawn,
    /// The process table's word, the lockfile its own (or none to compare).
    Was(Fate),
}

/// What a session's lockfile names after a call to it failed.
#[derive(Debug, PartialEq)]
enum Names {
    /// The session's own process.
    It,
    /// Another process: the session's successor.
    Another(u32),
    /// No session: the file is gone (or no longer a lockfile).
    Nothing,
    /// Not known: the session was found by no lockfile (`--endpoint`).
    Unknown,
}

/// Runs one future on a single-threaded runtime: one call per process needs
/// no more, and it starts in microseconds.
pub fn block_on<F: Future>(future: F) -> Result<F::Output> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        // A call waits on a handful of descriptors (the connection, the
        // runtime's own): room for 1,024 events a tick (the default) was 12 KB
        // of fresh heap, three page faults, on every call.
        .max_io_events_per_tick(16)
        .build()
        .map_err(|e| Error::internal(format!("cannot start the async runtime: {e}")))?;
    // On the heap, not the stack: a command's future passed down by value takes
    // a slot in each frame it goes through (a call's, 13 KB before its HTTP call
    // was boxed, gave `block_on` a 53 KB frame). Every page of a frame is touched
    // on entry (stack probes), so each was a page fault, used or not; on the heap
    // only what the command writes is touched.
    Ok(runtime.block_on(Box::pin(future)))
}

/// Who a call is made for.
#[derive(Clone, Copy)]
enum Caller<'a> {
    /// mur's own invocation: its progress goes to the terminal, and its verb
    /// labels the call for the session's usage record. `verb` is the verb typed
    /// when it calls a tool of its own (a named, data or derived verb; not `call`):
    /// a line about the call names the tool as that verb calls it. `listing`: where a
    /// `tools/list` page's entries go, kept as texts ([`Session::list_tools`]).
    Mur {
        verb: Option<&'a str>,
        listing: Option<&'a mur_client::ToolPage>,
    },
    /// An MCP client the stdio proxy relays: where its events go, its
    /// `clientInfo`, in whose name the call is made, and whether it cancelled;
    /// and the session with a session-based server the proxy keeps across calls.
    Relay {
        events: &'a dyn mur_client::Events,
        client: Option<&'a Value>,
        cancel: &'a tokio::sync::watch::Receiver<bool>,
        shared: &'a mur_client::SharedSession,
    },
}

/// A session reached: the HTTP client, its endpoint and identity, and when
/// the `--timeout` that began before discovery runs out.
pub struct Session {
    http: mur_http::Http,
    pub endpoint: String,
    /// Pid, start time and build tag (see [`mur_discovery::Resolved`]).
    pub identity: Option<String>,
    /// Its canonical project path and the lockfile it was found by; `None` for
    /// `--endpoint` (the stdio proxy keeps to the project it first found, and
    /// tells what the session was when it is gone: a bridge has a sidecar).
    pub project: Option<String>,
    pub lockfile: Option<std::path::PathBuf>,
    /// Its process, to tell what became of it when a call fails midway.
    process: Option<(u32, Option<i64>)>,
    /// How it lets mur in (a bridge's secret), and what to say when it refuses.
    access: mur_discovery::Access,
    refused: String,
    deadline: Instant,
}

impl Session {
    /// Finds the session (notices go to stderr as they come); among several, the
    /// error names the command line again with `--project` of one, to paste
    /// ([`Settings::command_line`]).
    pub async fn resolve(settings: &Settings) -> Result<Self> {
        Self::resolve_reporting(settings, &mut output::Notices).await
    }

    /// [`Session::resolve`], telling `report` what discovery has to say (shell
    /// completion tells nothing: it must not write on the terminal).
    pub async fn resolve_reporting(
        settings: &Settings,
        report: &mut dyn mur_discovery::Report,
    ) -> Result<Self> {
        let command = || settings.command_line.clone();
        let deadline = Instant::now() + settings.timeout;
        let http = mur_http::Http::new();
        // No session of `--project`: what its bridge said as it stopped (idle, its
        // server kept dying) and its command to start it again, from its log. Boxed, as
        // the HTTP call is (`send`): discovery's state (~4 KB) held inline made every
        // call's future, and each frame it passes through, as large.
        let discovery = Box::pin(mur_discovery::resolve(
            settings,
            &http,
            report,
            &command,
            &mur_bridge::last_stop_hint,
        ));
        let resolved = usage::measure_async(usage::Phase::Discovery, discovery).await?;
        usage::session(&resolved);
        // For `--endpoint` of no bridge mur knows too: one whose sidecar is gone
        // answers with a bridge's 401, which ends the call with this hint.
        let refused = resolved.access.refused_hint(resolved.project.as_deref());
        Ok(Self {
            http,
            access: resolved.access,
            refused,
            endpoint: resolved.endpoint,
            identity: resolved.identity,
            project: resolved.project,
            lockfile: resolved.lockfile,
            process: resolved.process,
            deadline,
        })
    }

    /// A client of the session, let in as it asks (a bridge's secret, from its
    /// sidecar; OAuth only at an `--endpoint` of no bridge mur knows).
    pub fn client<'a>(&'a self, settings: &'a Settings) -> Client<'a> {
        let access = match self.access.takes_oauth() {
            true => mur_client::Access::OAuth {
                bridge: &self.refused,
            },
            false => mur_client::Access::Session {
                secret: self.access.secret(),
                refused: &self.refused,
            },
        };
        Client::new(&self.http, &self.endpoint, settings).with_access(access)
    }

    /// Sends `method` with `params` within what is left of the `--timeout`.
    pub async fn call(
        &self,
        settings: &Settings,
        method: &str,
        params: Option<&Value>,
    ) -> Result<Reply> {
        let caller = Caller::Mur {
            verb: None,
            listing: None,
        };
        self.send(settings, method, params, None, caller).await
    }

    /// [`Session::call`] of `tools/call` with `params`, for derived verb `verb` as
    /// typed, whose `tools/list` entry `tool` the caller holds: its `x-mcp-header`
    /// arguments are then mirrored into headers (SEP-2243). No other call reads the
    /// tool list for it, so the per-call path of named verbs and `call` does no extra I/O.
    pub async fn call_tool(
        &self,
        settings: &Settings,
        params: &Value,
        tool: &Value,
        verb: &str,
    ) -> Result<Reply> {
        let caller = Caller::Mur {
            verb: Some(verb),
            listing: None,
        };
        self.send(settings, "tools/call", Some(params), Some(tool), caller)
            .await
    }

    /// [`Session::call`] of a tool whose `tools/list` entry nobody read (a named
    /// verb, `call NAME`), for `verb` as typed (none for `call`): when it fails, and
    /// the session lists it as a tool that runs only as a task, the server refused it
    /// without running it, so it is called again as a task. Only a failure looks at
    /// the list.
    pub async fn call_unlisted(
        &self,
        settings: &Settings,
        method: &str,
        params: Option<&Value>,
        verb: Option<&str>,
    ) -> Result<Reply> {
        let caller = Caller::Mur {
            verb,
            listing: None,
        };
        self.unlisted(settings, method, params, caller).await
    }

    /// [`Session::call_unlisted`] for an MCP client the stdio proxy relays:
    /// its progress, log messages and questions go to `events`, and the call
    /// is not labelled with a verb of mur's (the session counts it as MCP) but
    /// made in the client's name (its `clientInfo`). A tool that runs only as a
    /// task is followed for it too, so a client that knows nothing of tasks gets
    /// the result. A session-based server's session is the one `shared` keeps.
    pub async fn call_relayed(
        &self,
        settings: &Settings,
        request: &mur_bridge::proxy::Request<'_>,
        events: &dyn mur_client::Events,
        shared: &mur_client::SharedSession,
    ) -> Result<Reply> {
        let caller = Caller::Relay {
            events,
            client: request.client,
            cancel: request.cancel,
            shared,
        };
        self.unlisted(settings, request.method, request.params, caller)
            .await
    }

    async fn unlisted(
        &self,
        settings: &Settings,
        method: &str,
        params: Option<&Value>,
        caller: Caller<'_>,
    ) -> Result<Reply> {
        let reply = self.send(settings, method, params, None, caller).await?;
        let untried = params.is_some_and(|p| p.get("task").is_none());
        if method != "tools/call" || !untried || !method_not_found(&reply) {
            return Ok(reply);
        }
        let name = params.and_then(|p| p["name"].as_str()).unwrap_or_default();
        match self.task_only(settings, name).await {
            Some(tool) => {
                tracing::debug!("`{name}` runs only as a task: calling it again as one");
                self.send(settings, method, params, Some(&tool), caller)
                    .await
            }
            None => Ok(reply),
        }
    }

    /// One call within what is left of the `--timeout`, made for `caller`.
    async fn send(
        &self,
        settings: &Settings,
        method: &str,
        params: Option<&Value>,
        tool: Option<&Value>,
        caller: Caller<'_>,
    ) -> Result<Reply> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        let report;
        let events: &dyn mur_client::Events = match caller {
            Caller::Mur { .. } => {
                report = output::CallReport::new(settings);
                &report
            }
            Caller::Relay { events, .. } => events,
        };
        let (verb, listing) = match caller {
            Caller::Mur { verb, listing } => (verb, listing),
            Caller::Relay { .. } => (None, None),
        };
        let mut client = self.client(settings).with_events(events);
        if let Some(page) = listing {
            client = client.listing_into(page);
        }
        if let Some(tool) = tool {
            client = client.with_tool(tool);
        }
        if let Caller::Relay {
            client: relayed,
            cancel,
            shared,
            ..
        } = caller
        {
            let client = client
                .sharing(shared)
                .discovering_from_initialize()
                .relaying_for(relayed)
                .cancelled_by(cancel.clone());
            let call = Box::pin(client.call(method, params, left));
            return match call.await {
                Ok(reply) => Ok(reply),
                Err(e) => Err(self.after_failure(e).await),
            };
        }
        let labelled = usage::with_verb_meta(method, params);
        let params = labelled.as_ref().or(params);
        if let Some(tool) = params
            .filter(|_| method == "tools/call")
            .and_then(|p| p["name"].as_str())
        {
            usage::tool(tool);
        }
        // Ctrl-C or SIGTERM meanwhile stops the call as its timeout would (module `interrupt`).
        let mut interrupts = crate::interrupt::Interrupts::install();
        if let Some(interrupts) = &interrupts {
            client = client.cancelled_by(interrupts.cancelled());
        }
        // Boxed: the HTTP call's future is most of a call's ~13 KB of state, and
        // held inline it made every future around it (and each stack frame they
        // pass through) as large (see `block_on`).
        let call = Box::pin(client.call(method, params, left));
        let reply = match interrupts.as_mut() {
            Some(interrupts) => {
                let call = usage::measure_async(usage::Phase::Call, interrupts.during(call));
                let reply = call.await;
                interrupts.exit_if_stopped(
                    client.sent(),
                    &what_is_called_as_typed(method, params, verb),
                );
                reply
            }
            None => usage::measure_async(usage::Phase::Call, call).await,
        };
        // The call is over: a signal from here on ends mur as by its default action
        // (not lost while `after_failure` waits for a process that reloads).
        drop(interrupts);
        let reply = match reply {
            Ok(reply) => reply,
            Err(e) => {
                // Out of time, a call of a tool may have acted: say whether running
                // it again is safe (a script that retries exit 2 would repeat it).
                let tool = params
                    .filter(|_| method == "tools/call")
                    .and_then(|p| p["name"].as_str());
                let e = match (client.cut_off(), client.outlasted_task(), tool) {
                    (Some(sent), _, Some(tool)) => e.with_first_hint(self.run_again(sent, tool)),
                    // Its task outlasted the call: the tool ran, and was told to stop.
                    (None, Some(task), Some(tool)) => e.with_first_hint(format!(
                        "mur asked the server to cancel task {task}; tool `{tool}` ran and may \
                         have changed the app's state: check it before running it again"
                    )),
                    _ => e,
                };
                let e = match client.closed() {
                    true => self.closed_during(e, &what_is_called_as_typed(method, params, verb)),
                    false => e,
                };
                return Err(self.after_failure(e).await);
            }
        };
        output::notes(&mur_client::question_notes(&reply), settings.quiet);
        // An answer no question asked for was dropped unsaid (`comfirm=yes`, the
        // question then answered with its default): said, but where a refused
        // question's hint below names the key already.
        if client.refused_question().is_none() {
            for unused in client.unused_answers() {
                output::notice(&unused_answer(&unused));
            }
        }
        // A question a bridge said may be another call's, refused for want of an
        // answer: the call's own failure stands (its stdout, its message), and
        // the question is a hint under it, as it may have been this call's.
        match client.refused_question() {
            Some(hint) => settle(reply, settings, method, params)
                .map(Reply::Result)
                .map_err(|e| e.with_hint(hint)),
            None => Ok(reply),
        }
    }

    /// `e`, the session closing the connection before it answered, said of the call
    /// `what` as typed, as an interrupt's line says it ("… during the call to `wait`
    /// (tool `waitFor`) …"): it was "`http://127.0.0.1:41883/mcp`: request failed:
    /// connection closed before message completed", a URL and the HTTP stack's words,
    /// naming no verb (user audit AU11 6). The endpoint goes last among the hints.
    fn closed_during(&self, e: Error, what: &str) -> Error {
        let message = format!(
            "the session closed the connection during the call to {what}, before answering"
        );
        reworded(e, message).with_hint(format!("the session was at `{}`", self.endpoint))
    }

    /// `e`, a call that broke off or went unanswered, with what became of the
    /// session's process when that is why: it reloaded (its lockfile names its
    /// successor), exited (a crash) or is stopped (a debugger, SIGSTOP). Only a
    /// failure looks at the process table and the lockfile.
    async fn after_failure(&self, e: Error) -> Error {
        let Some((pid, started_at)) = self.process.filter(|_| e.kind() == Kind::Transport) else {
            return e;
        };
        let fate = self.fate(pid, started_at).await;
        tracing::debug!("the session's process (pid {pid}) after the failure: {fate:?}");
        match fate {
            After::Reloaded(successor) => e.with_first_hint(format!(
                "the session reloaded during the call (pid {pid}, now pid {successor}), which \
                 cut it off: run the command again"
            )),
            After::Withdrawn => e.with_first_hint(format!(
                "the session's process (pid {pid}) withdrew its lockfile during the call: it \
                 is reloading or stopping; `mur devtools session list` shows the sessions now"
            )),
            After::Was(Fate::Gone) => e.with_first_hint(format!(
                "the session's process (pid {pid}) is gone: it exited or restarted during the \
                 call (a reload, a crash); `mur devtools session list` shows the sessions now"
            )),
            After::Was(Fate::Stopped) => e.with_first_hint(format!(
                "the session's process (pid {pid}) is stopped (a debugger, SIGSTOP): \
                 `kill -CONT {pid}` resumes it"
            )),
            After::Was(Fate::Running) => e,
        }
    }

    /// What became of the session's process `pid`. A reloading session removes its
    /// lockfile, closes what is still in flight (after up to 3 s) and keeps running
    /// (holding the port for its successor) until the successor has announced itself:
    /// a call it cut off finds it running, its lockfile gone. That is waited out, for
    /// a little while ([`RELOAD_WAIT`], or the `--timeout` left): then a lockfile of
    /// another process is a reload, the process gone with none an exit.
    async fn fate(&self, pid: u32, started_at: Option<i64>) -> After {
        let left = self.deadline.saturating_duration_since(Instant::now());
        let waited = Instant::now() + RELOAD_WAIT.min(left);
        loop {
            let names = self.lockfile_names(pid, started_at);
            if let Names::Another(successor) = names {
                return After::Reloaded(successor);
            }
            let fate = match mur_lockfile::liveness::fate(pid, started_at) {
                // A process killed closes its sockets before it is seen to exit: one
                // whose endpoint no longer takes connections is going. One look.
                Fate::Running if refuses_connections(&self.endpoint) => Fate::Gone,
                fate => fate,
            };
            if fate != Fate::Running || names != Names::Nothing {
                return After::Was(fate);
            }
            if Instant::now() >= waited {
                return After::Withdrawn;
            }
            tokio::time::sleep(RELOAD_POLL).await;
        }
    }

    /// What the lockfile the session was found by names now, of process `pid`
    /// started at `started_at`.
    fn lockfile_names(&self, pid: u32, started_at: Option<i64>) -> Names {
        let Some(path) = self.lockfile.as_deref() else {
            return Names::Unknown;
        };
        let Some(dir) = path.parent() else {
            return Names::Unknown;
        };
        match mur_lockfile::Registry::at(dir.to_path_buf()).read(path) {
            mur_lockfile::ReadOutcome::Valid(lock)
                if lock.pid == pid
                    && mur_lockfile::liveness::started_at_secs(&lock) == started_at =>
            {
                Names::It
            }
            mur_lockfile::ReadOutcome::Valid(lock) => Names::Another(lock.pid),
            _ => Names::Nothing,
        }
    }

    /// Whether running tool `tool` again is safe, for a call of it that ran out of
    /// time having sent its request as far as `sent`: not sent, it did not run; sent,
    /// it may have, and only a tool the session's tool list (as cached: nothing is
    /// asked of a session that just did not answer) marks read-only or idempotent
    /// may be run again unlooked.
    fn run_again(&self, sent: mur_http::Sent, tool: &str) -> String {
        let sent = match sent {
            mur_http::Sent::No => {
                return format!(
                    "the request was not sent, so tool `{tool}` did not run: running it again \
                     is safe"
                );
            }
            mur_http::Sent::Maybe => "may have been sent",
            mur_http::Sent::Yes => "was sent",
        };
        let listed = self.cached_tools().listed().and_then(|l| l.named(tool));
        let marked = |hint: &str| {
            listed
                .as_ref()
                .is_some_and(|t| t["annotations"][hint] == true)
        };
        let safe = if marked("readOnlyHint") {
            "read-only"
        } else if marked("idempotentHint") {
            "idempotent"
        } else {
            let why = match listed {
                Some(_) => "does not mark it",
                None => "is not known to mark it",
            };
            return format!(
                "the request {sent}, so tool `{tool}` may have run: check the app's state \
                 before running it again (the session {why} read-only or idempotent)"
            );
        };
        format!(
            "the request {sent}, so tool `{tool}` may have run; the session marks it {safe}: \
             running it again \
                     is safe"
        )
    }

    /// The session's entry in the tool cache: this process's at this endpoint.
    pub fn cached_tools(&self) -> CachedTools {
        CachedTools::of(&self.endpoint, self.identity.as_deref())
    }

    /// Tool `name`'s entry if it runs only as a task: from the cached tool list when
    /// that marks it so, else from a fresh `tools/list`, which is cached. A cached entry
    /// that does not mark it may be stale (the tool became task-only since), and the
    /// refusal says so: trusted, the tool stayed refused until something else read the
    /// list; a fresh list left uncached cost each call of a task-only tool a `tools/list`.
    async fn task_only(&self, settings: &Settings, name: &str) -> Option<Value> {
        let listed = self.cached_tools().listed().and_then(|l| l.named(name));
        if let Some(tool) = listed.filter(mur_client::task::required) {
            return Some(tool);
        }
        // The cache's handle is not held across the read: it would grow every call's
        // future by its size (`tool_call`'s test of it).
        let tools = self.list_tools(settings).await.ok()?;
        self.cached_tools().store(&tools);
        let tool = tools.named(name)?;
        mur_client::task::required(&tool).then_some(tool)
    }

    /// Every page of `tools/list`: together, no larger than one response may be
    /// (`--max-response`). Each page is bounded by it alone, so a server paging large
    /// pages made mur hold up to a hundred times the limit. Each entry is kept as its
    /// text ([`ToolTexts`]), read so by the client as its page is parsed, never built
    /// with the others ([`mur_client::ToolPage`]): a list built whole cost 25–30 times its
    /// size, a page ~150 MB for 10,000 tools in 6.5 MB.
    pub async fn list_tools(&self, settings: &Settings) -> Result<ToolTexts> {
        let mut tools = ToolTexts::default();
        let mut cursor: Option<String> = None;
        let mut bytes = 0;
        for pages in 1..=MAX_PAGES {
            let params = cursor.as_ref().map(|c| json!({ "cursor": c }));
            let listed = mur_client::ToolPage::default();
            let caller = Caller::Mur {
                verb: None,
                listing: Some(&listed),
            };
            let reply = self
                .send(settings, "tools/list", params.as_ref(), None, caller)
                .await?;
            let mut page = settle(reply, settings, "tools/list", params.as_ref())?;
            // The page's own array where the reply holds one (a task's outcome inlined in
            // `tasks/get`, built by the client), else the entries it kept as texts.
            match page.get_mut("tools").map(Value::take) {
                Some(Value::Array(built)) => {
                    for tool in built {
                        bytes += tools.push(&tool);
                    }
                }
                // No list at all (`"tools": "none"`): a malformed answer, not a session
                // without tools (the catalog listed no derived verb, and said nothing).
                Some(other) if !other.is_null() => {
                    return Err(Error::transport(format!(
                        "`{}` answered `tools/list` with `tools` {}, not an array",
                        self.endpoint,
                        mur_client::value_in_words(&other)
                    )));
                }
                _ => {
                    for entry in listed.take().unwrap_or_default() {
                        bytes += tools.push_text(entry.text, entry.name);
                    }
                }
            }
            bytes += json_bytes(&page);
            if bytes > settings.max_response {
                let plural = if pages == 1 { "" } else { "s" };
                let what = format!("a tool list (`tools/list`, {pages} page{plural})");
                return Err(mur_client::past_the_limit(
                    &self.endpoint,
                    &what,
                    settings.max_response,
                ));
            }
            match page["nextCursor"].as_str() {
                Some(next) if !next.is_empty() => cursor = Some(next.to_owned()),
                _ => return Ok(tools),
            }
        }
        // The server's answer is at fault, as with any malformed one (exit 2): no tool
        // failed (it was exit 5), and the endpoint is named as in every such error.
        Err(Error::transport(format!(
            "`{}` was still paging its tool list (`tools/list`) after {MAX_PAGES} pages, \
             the most mur reads: a `nextCursor` that never ends",
            self.endpoint
        )))
    }
}

/// The warning of an `--answer` no question of the call asked for
/// ([`mur_client::Client::unused_answers`]), in the words of the hint that names one
/// when its question goes unanswered; the value is not repeated (it may be a secret).
/// The key, as typed, and the field meant, as the server names it, are escaped as any
/// value from outside is in a message, whatever then prints it (`output::notice`
/// escapes the line again).
fn unused_answer(unused: &mur_client::Unused) -> String {
    let told = format!(
        "`--answer {}=…` was not used: no question the server asked has that field",
        mur_core::text::escape_value(&unused.key)
    );
    match &unused.meant {
        Some(meant) => format!(
            "{told}; did you mean `{}`?",
            mur_core::text::escape_value(meant)
        ),
        None => told,
    }
}

/// How many bytes `value` is as compact JSON: a page as the server sent it (its tools
/// taken out and counted apart), but for its white space, which costs nothing parsed.
fn json_bytes(value: &Value) -> u64 {
    struct Counted(u64);
    impl std::io::Write for Counted {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len() as u64;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counted = Counted(0);
    // Writing a `Value` to a writer that takes everything cannot fail.
    let _ = serde_json::to_writer(&mut counted, value);
    counted.0
}

/// `arguments` of a verb whose tool waits on a bound of its own (`spec.waits`: which
/// argument sets it, and the tool's default), that bound lowered when it is longer
/// than the call's `--timeout` leaves it: a tool that gives up in time answers what it
/// last saw (exit 5, `timed out … last seen: …`), where a call the host gives up on
/// says only that it timed out (exit 2). Only the verbs that declare it are touched:
/// handing every verb the host's bound would lengthen every call by its grace. A wait
/// lowered, the one the verb sent or the tool's own default, is returned too, for the
/// failure it may end in to say so ([`Lowered::told`]).
pub fn within_bound(
    mut arguments: Value,
    verb: &str,
    spec: Option<&VerbSpec>,
    settings: &Settings,
) -> (Value, Option<Lowered>) {
    let Some(waits) = spec.and_then(|spec| spec.waits.as_ref()) else {
        return (arguments, None);
    };
    let most = wait_within(settings.timeout);
    let Some(object) = arguments.as_object_mut() else {
        return (arguments, None);
    };
    let asked = match object.get(&waits.argument) {
        None => u64::from(waits.default_ms),
        Some(given) => match given.as_u64() {
            Some(ms) => ms,
            // Not a number of milliseconds: the tool's to refuse, as sent.
            None => return (arguments, None),
        },
    };
    if asked <= most {
        return (arguments, None);
    }
    object.insert(waits.argument.clone(), Value::from(most));
    let lowered = Lowered {
        hint: format!(
            "`{verb}`'s timeout was lowered from {asked} ms to {most} ms, to end within the \
             call's `--timeout` of {} ms; `--timeout MS` after `{verb}` waits that long",
            settings.timeout.as_millis()
        ),
        wait: std::time::Duration::from_millis(most),
        started: Instant::now(),
    };
    (arguments, Some(lowered))
}

/// A wait [`within_bound`] lowered, and when its call began.
pub struct Lowered {
    hint: String,
    wait: std::time::Duration,
    started: Instant,
}

impl Lowered {
    /// `e`, the verb's failure, with a hint saying mur lowered its wait when the tool
    /// failed (exit 5) no sooner than that wait ends: a wait out of time, whose answer
    /// (`timed out after 1333 ms`) names a wait nobody typed. A wait that ends well, or
    /// fails sooner (a bad selector), says nothing of it: a note on every such call
    /// was noise in a transcript (user audit AU6).
    pub fn told(&self, e: Error) -> Error {
        if e.kind() == Kind::ToolFailed && self.started.elapsed() >= self.wait {
            e.with_hint(&self.hint)
        } else {
            e
        }
    }
}

/// The longest a tool may wait within a call bound of `bound`: the inverse of the
/// grace a verb's own `--timeout` gets past the wait it sets (`Settings::verb_timeout`:
/// half as long again, at most 2 s more), so that the same margin is left for the round
/// trip, the discovery before it and a loaded machine, and a wait lowered to it and
/// asked for with `--timeout` after the verb's name give the call the same bound.
fn wait_within(bound: std::time::Duration) -> u64 {
    // In microseconds: a verb's own `--timeout 99` bounds the call at 148.5 ms, whose
    // whole milliseconds (148) gave back 98, and a note said mur lowered the wait the
    // user typed by 1 ms (user audit AU5 2).
    let micros = bound.as_micros();
    let most = (micros / 3 * 2).max(micros.saturating_sub(2_000_000));
    u64::try_from(most / 1000).unwrap_or(u64::MAX)
}

/// A successful result, or exit 5: a JSON-RPC error carries `{"error":{…}}` for
/// stdout, a result with `isError: true` carries the result; the message goes
/// to stderr.
pub fn settle(
    reply: Reply,
    settings: &Settings,
    method: &str,
    params: Option<&Value>,
) -> Result<Value> {
    // A successful call takes no further look.
    let reply = match reply {
        Reply::Result(result) if !is_error(&result) => return Ok(result),
        failed => failed,
    };
    let missing = missing_tool(&reply, method, params).is_some();
    if missing || matches!(reply, Reply::Error(_)) {
        // A missing tool is recorded as the server's refusal, whichever form it took:
        // no tool ran.
        usage::rpc_error();
    }
    let failed = match reply {
        Reply::Error(error) => {
            let message = rpc_error_message(&error, method, params);
            let unserved = error["code"].as_i64() == Some(METHOD_NOT_FOUND);
            let stdout = output::render_json(&json!({ "error": error }), settings.pretty)?;
            let failed = Error::tool_failed(message).with_stdout(stdout.into_bytes());
            if unserved && method != "tools/call" {
                failed.with_hint(no_such_method_hint(settings))
            } else if method == "tools/call" && !missing && error["code"] == INTERNAL_ERROR {
                failed.with_hint(SERVER_FAILED)
            } else {
                failed
            }
        }
        Reply::Result(result) => {
            let message = tool_error_message(&result, method, params);
            let stdout = output::render_json(&result, settings.pretty)?;
            Error::tool_failed(message).with_stdout(stdout.into_bytes())
        }
    };
    Err(if missing {
        failed.with_hint(format!(
            "`{} catalog` lists the tools this session has, each as a verb",
            settings.devtools_command()
        ))
    } else {
        failed
    })
}

/// The hint under a tool call answered with an internal error (-32603): the server
/// failed (a handler that panicked, a bridged server that exited mid-call or is starting
/// again), which is exit 5 as a tool refusing its arguments is, but which other
/// arguments do not fix.
const SERVER_FAILED: &str = "JSON-RPC -32603 (internal error) is the server failing, not the \
     tool refusing its arguments: check the app's log and state, then retry once";

/// The hint of a method the session does not serve.
pub fn no_such_method_hint(settings: &Settings) -> String {
    format!(
        "the session serves no such method; `call NAME` without a `/` calls the tool NAME, \
         and `{} catalog` lists the tools",
        settings.devtools_command()
    )
}

/// Whether a reply is "method not found" (-32601): a JSON-RPC error, or from the
/// TypeScript SDK a result with `isError` reading `MCP error -32601: …`. It is how
/// a server refuses a tool that runs only as a task called without one; a tool
/// that ran and failed never says it, so it alone costs a look at the tool list.
fn method_not_found(reply: &Reply) -> bool {
    match reply {
        Reply::Error(error) => error["code"] == METHOD_NOT_FOUND,
        Reply::Result(result) => {
            is_error(result) && result_text(result).starts_with("MCP error -32601:")
        }
    }
}

fn rpc_error_message(error: &Value, method: &str, params: Option<&Value>) -> String {
    let message = error["message"].as_str().unwrap_or("(no message)");
    let what = what_is_called(method, params);
    match error["code"].as_i64() {
        // A server's message for "method not found" is often the method's name alone,
        // so the error says what the code means.
        Some(METHOD_NOT_FOUND) => format!(
            "{what} failed: {message} (JSON-RPC error {METHOD_NOT_FOUND}: method not found)"
        ),
        Some(code) => format!("{what} failed: {message} (JSON-RPC error {code})"),
        None => format!("{what} failed: {message}"),
    }
}

/// What a call calls, for a message: "tool `NAME`" for a `tools/call`, else the method.
fn what_is_called(method: &str, params: Option<&Value>) -> String {
    match params.and_then(|p| p["name"].as_str()) {
        Some(tool) if method == "tools/call" => format!("tool `{tool}`"),
        _ => format!("`{method}`"),
    }
}

/// A failed tool result's message: its text on one line.
fn tool_error_message(result: &Value, method: &str, params: Option<&Value>) -> String {
    let tool = params.and_then(|p| p["name"].as_str()).unwrap_or(method);
    let text = result_text(result);
    if text.is_empty() {
        format!("tool `{tool}` failed")
    } else {
        format!("tool `{tool}` failed: {text}")
    }
}

/// Whether nothing listens at `endpoint` any more (a connection refused), asked of a
/// session whose call broke off while its process still shows as running.
fn refuses_connections(endpoint: &str) -> bool {
    let Some(address) = reqwest::Url::parse(endpoint)
        .ok()
        .and_then(|url| url.socket_addrs(|| None).ok())
        .and_then(|addresses| addresses.into_iter().next())
    else {
        return false;
    };
    let timeout = std::time::Duration::from_millis(200);
    matches!(
        std::net::TcpStream::connect_timeout(&address, timeout),
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused
    )
}

/// `e`, tool `tool`'s failure, named by verb `verb` too when the verb is called
/// otherwise: "`wait` (tool `waitFor`) failed: …" ([`tool_as_typed`]).
pub(crate) fn as_typed(e: Error, verb: &str, tool: &str) -> Error {
    let said = format!("tool `{tool}` failed");
    match e.message().strip_prefix(&said) {
        Some(rest) if verb != tool && e.kind() == mur_core::Kind::ToolFailed => {
            let message = format!("{} failed{rest}", tool_as_typed(verb, tool, Said::Failed));
            reworded(e, message)
        }
        _ => e,
    }
}

/// What a message says of a tool named as the user typed its verb ([`tool_as_typed`]).
#[derive(Clone, Copy)]
pub(crate) enum Said {
    /// It ran and failed: "`wait` (tool `waitFor`) failed: …".
    Failed,
    /// The session lacks it: "the session has no tool `waitFor`, which `wait` calls".
    Lacking,
}

/// Tool `tool`, for a message, as the user typed verb `verb`: "tool `state`" where the
/// verb is named as its tool (naming it twice read "… `state`, which `state` calls"),
/// else with the verb, as `said` ([`Said`]): the tool's name alone read as if another
/// command had run.
pub(crate) fn tool_as_typed(verb: &str, tool: &str, said: Said) -> String {
    if verb == tool {
        return format!("tool `{tool}`");
    }
    match said {
        Said::Failed => format!("`{verb}` (tool `{tool}`)"),
        Said::Lacking => format!("tool `{tool}`, which `{verb}` calls"),
    }
}

/// [`what_is_called`], a tool named as `verb`, the verb typed, calls it
/// ([`tool_as_typed`]); `call`'s tool (no verb), a derived verb's `tools/list` and any
/// other method as they are.
fn what_is_called_as_typed(method: &str, params: Option<&Value>, verb: Option<&str>) -> String {
    match (params.and_then(|p| p["name"].as_str()), verb) {
        (Some(tool), Some(verb)) if method == "tools/call" => {
            tool_as_typed(verb, tool, Said::Failed)
        }
        _ => what_is_called(method, params),
    }
}

/// `e` saying `message` instead, all else kept (its stdout, list, detail, hints).
pub(crate) fn reworded(e: Error, message: String) -> Error {
    rebuilt(&e, message, e.hints().to_vec())
}

/// `e` saying `message` with `hints`, all else kept (its stdout, list, detail).
pub(crate) fn rebuilt(e: &Error, message: String, hints: Vec<String>) -> Error {
    let mut error = Error::new(e.kind(), message).with_list(e.list().to_vec());
    if let Some(stdout) = e.stdout() {
        error = error.with_stdout(stdout.to_vec());
    }
    if let Some(detail) = e.detail() {
        error = error.with_detail(detail);
    }
    if e.is_about_session() {
        error = error.about_session();
    }
    if e.is_out_of_bound() {
        error = error.out_of_bound();
    }
    if let Some(tool) = e.tool_lacked() {
        error = error.lacking_tool(tool);
    }
    hints
        .into_iter()
        .fold(error, |error, hint| error.with_hint(hint))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error said again in other words keeps what callers read from it as data: the
    /// tool the session lacks (a data verb names its file by it), the session bound.
    #[test]
    fn an_error_rebuilt_keeps_its_markers() {
        let e = Error::tool_failed("the session has no tool `x`")
            .lacking_tool("x")
            .out_of_bound();
        let again = rebuilt(&e, "said otherwise".to_owned(), vec!["a hint".to_owned()]);
        assert_eq!(
            (
                again.message(),
                again.tool_lacked(),
                again.is_out_of_bound()
            ),
            ("said otherwise", Some("x"), true)
        );
    }

    /// tokio builds a signal driver into every runtime of a binary whose tokio
    /// has the `signal` or `process` feature (a socket pair, ~65 signal slots,
    /// an epoll registration: ~24 µs of every call). Nothing in `mur`'s own
    /// dependency graph may turn either on; the bridge and the server's
    /// shutdown do without them (crates/bridge/src/process.rs, server/src/shutdown.rs).
    #[test]
    fn the_runtime_a_call_starts_has_no_signal_driver() {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let out = std::process::Command::new(cargo)
            .args(["tree", "-p", "mur", "-e", "features", "-i", "tokio"])
            .args(["--prefix", "none", "--depth", "1"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("cargo tree runs");
        let tree = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && tree.contains("tokio feature \"rt\""),
            "{tree}"
        );
        for feature in ["signal", "process"] {
            assert!(
                !tree.contains(&format!("tokio feature \"{feature}\"")),
                "`mur` builds tokio with `{feature}`:\n{tree}"
            );
        }
    }

    /// Only "method not found" (how a tool that runs only as a task is refused
    /// when called without one) sends a failed call to look at the tool list.
    #[test]
    fn only_method_not_found_is_read_as_a_refused_task() {
        let failed = |text: &str| {
            Reply::Result(json!({ "isError": true, "content": [{ "type": "text", "text": text }] }))
        };
        let refusal =
            "MCP error -32601: Tool t requires task augmentation (taskSupport: 'required')";
        assert!(method_not_found(&failed(refusal)));
        assert!(method_not_found(&Reply::Error(
            json!({ "code": -32601, "message": "x" })
        )));
        assert!(!method_not_found(&failed("no element matches `#nope`")));
        assert!(!method_not_found(&failed(
            "MCP error -32602: Tool t not found"
        )));
        assert!(!method_not_found(&Reply::Error(
            json!({ "code": -32602, "message": "x" })
        )));
        assert!(!method_not_found(&Reply::Result(json!({ "content": [] }))));
    }

    /// Settings whose call bound is `ms`, and a spec whose tool waits on `timeoutMs`
    /// (5000 when not sent), as the standard `wait` declares.
    fn bound_and_waits(ms: u64) -> (Settings, VerbSpec) {
        let mut settings = crate::options::settings(&crate::cli::HostArgs::unset());
        settings.timeout = std::time::Duration::from_millis(ms);
        let waits = mur_verbs::spec::ToolWait {
            argument: "timeoutMs".to_owned(),
            default_ms: 5000,
        };
        let spec = VerbSpec {
            waits: Some(waits),
            ..VerbSpec::default()
        };
        (settings, spec)
    }

    #[test]
    fn a_wait_longer_than_the_call_bound_is_lowered_to_answer_within_it() {
        let (settings, spec) = bound_and_waits(2000);
        let sent = |arguments: Value| within_bound(arguments, "wait", Some(&spec), &settings).0;
        // The tool's default (5 s), not sent: sent, lowered.
        assert_eq!(
            sent(json!({"selector": "#s"})),
            json!({"selector": "#s", "timeoutMs": 1333})
        );
        // A value given: lowered too; a shorter one as it is.
        assert_eq!(sent(json!({"timeoutMs": 8000})), json!({"timeoutMs": 1333}));
        assert_eq!(sent(json!({"timeoutMs": 1000})), json!({"timeoutMs": 1000}));
        // Not a number of milliseconds: the tool's to refuse.
        assert_eq!(
            sent(json!({"timeoutMs": "soon"})),
            json!({"timeoutMs": "soon"})
        );
    }

    #[test]
    fn a_wait_within_the_bound_and_an_undeclared_one_are_sent_as_they_are() {
        // The default bound (10 s) leaves 8 s: the tool's 5 s default stands unsent.
        let (settings, spec) = bound_and_waits(10_000);
        let arguments = json!({"selector": "#s"});
        assert_eq!(
            within_bound(arguments.clone(), "wait", Some(&spec), &settings).0,
            arguments
        );
        // A verb that declares nothing: untouched, whatever the bound.
        let (settings, _) = bound_and_waits(1000);
        let plain = VerbSpec::default();
        assert_eq!(
            within_bound(arguments.clone(), "wait", Some(&plain), &settings).0,
            arguments
        );
        assert_eq!(
            within_bound(arguments.clone(), "wait", None, &settings).0,
            arguments
        );
    }

    /// A wait lowered to fit a bound, asked for with the verb's own `--timeout`, gets
    /// the call no longer a bound than that: the margin is the verb timeout's grace.
    #[test]
    fn the_margin_left_is_the_grace_a_verbs_own_timeout_gets() {
        for ms in [1, 3, 2000, 5999, 6000, 6001, 10_000, 600_000] {
            let (mut settings, _) = bound_and_waits(ms);
            let wait = u32::try_from(wait_within(settings.timeout)).expect("fits");
            settings.timeout_given = true;
            settings.verb_timeout(Some(wait));
            assert_eq!(settings.timeout.as_millis(), u128::from(ms), "{ms} ms");
        }
    }

    /// A wait the user typed after the verb's name (`wait '#x' --timeout 99`) sets the
    /// call's bound, and within that bound it is never lowered, whatever its number.
    #[test]
    fn a_verbs_own_timeout_is_within_the_bound_it_sets() {
        for ms in [
            1, 2, 99, 101, 901, 999, 1001, 2999, 3999, 4000, 4001, 6001, 600_001,
        ] {
            let (mut settings, _) = bound_and_waits(10_000);
            settings.verb_timeout(Some(ms));
            assert_eq!(wait_within(settings.timeout), u64::from(ms), "{ms} ms");
        }
    }

    #[test]
    fn a_failed_tool_is_described_by_its_text() {
        let result = json!({ "isError": true, "content": [{ "type": "text", "text": "no element\nmatches `#nope`" }] });
        let params = json!({ "name": "click" });
        assert_eq!(
            tool_error_message(&result, "tools/call", Some(&params)),
            "tool `click` failed: no element matches `#nope`"
        );
    }

    /// The unused answer's warning escapes the key as typed and the field as the server
    /// names it, the message safe alone (`output::notice` escapes the line again, so
    /// the terminal was safe before; e2e `host_progress` pins what it shows).
    #[test]
    fn an_unused_answers_warning_escapes_its_key_and_the_field_meant() {
        let unused = mur_client::Unused {
            key: "\u{1b}[31mzzz\nx".to_owned(),
            meant: Some("con\u{202e}firm".to_owned()),
        };
        assert_eq!(
            unused_answer(&unused),
            "`--answer \\x1b[31mzzz\\x0ax=…` was not used: no question the server asked has \
             that field; did you mean `con\\u{202e}firm`?"
        );
    }
}
