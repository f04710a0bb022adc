//! Verbs: WebAssembly components implementing `wit/verb.wit` (`mur:verb@0.3.0`,
//! or the older 0.2.0 and 0.1.0, adapted), installed in a verb directory, compiled once
//! and cached, run sandboxed; what each declares (`spec`), managing them
//! (`manage`) and scaffolding new ones (`scaffold`). Returns values and
//! errors; never prints.
//!
//! [`VerbHost`] is the entry point for dispatch. It stays cheap until a verb
//! really runs: listing verbs and printing a verb's `--help` read only the index,
//! and the wasmtime engine is built on the first `parse` or `shape`.

mod bindings;
mod bounded;
mod cache;
mod capture;
pub mod data;
pub mod derived;
mod dirs;
mod error;
mod files;
mod host_calls;
mod index;
mod instance;
pub mod manage;
mod name_section;
mod names;
pub mod notes;
mod producers;
mod runtime;
mod sandbox;
pub mod scaffold;
pub mod spec;
#[cfg(test)]
mod tests;
pub mod timings;
pub mod tools;
mod values;
pub mod warnings;

pub use dirs::VerbDirs;
pub use error::VerbError;
pub use files::{OutputPath, Shaped, writable_before_the_call};
pub use index::Entry;
pub use instance::{CallPlan, ShapeState};
pub use names::{VERB_NAME_RULE, valid_verb_name};
pub use spec::{Param, ValueKind, VerbSpec, usable_name};

use std::borrow::Cow;
use std::time::Duration;

use derived::asks_for_help;
use files::OutputPaths;
use index::Index;
use instance::{Instance, Parsed};
use runtime::Runtime;
use timings::Phase;

/// What a verb made of its argv.
#[derive(Debug, Clone, PartialEq)]
pub enum ParseOutcome {
    /// Call the verb's tool with these arguments (a JSON object); `plan` holds
    /// the declared writes (already checked against argv) and what `shape` needs;
    /// `stdout` is the output-path option argv gives `-` (stdout), if one does, read with
    /// the same reading of argv that checked the writes.
    Call {
        arguments: serde_json::Value,
        plan: CallPlan,
        stdout: Option<OutputPath>,
    },
    /// Print this usage text and exit 0.
    Help(String),
}

/// Installed verbs and, once one runs, the engine that runs them.
pub struct VerbHost {
    dirs: VerbDirs,
    index: Index,
    runtime: Option<Runtime>,
    current: Option<Instance>,
    compiling: Option<Compiling>,
}

/// What [`VerbHost::on_compile`] is given.
type Compiling = Box<dyn Fn(&str, usize) + Send + Sync>;

impl VerbHost {
    /// Open the verb directory of this user (see [`dirs`]); builds no engine.
    pub fn open() -> Result<Self, VerbError> {
        Self::open_in(VerbDirs::from_env()?)
    }

    /// [`VerbHost::open`] for running the one verb `verb`: only its index entry
    /// is built (the others are skipped as the index is read), so
    /// [`VerbHost::entries`] holds at most that one; whatever is saved is
    /// merged into the full index.
    pub fn open_for(verb: &str) -> Result<Self, VerbError> {
        let dirs = VerbDirs::from_env()?;
        let index = Index::load_only(&dirs.verbs, verb)?;
        Ok(Self::with_index(dirs, index))
    }

    /// Call `say(verb, bytes)` before a verb that runs must be compiled first
    /// (its cached code missing: a new `mur`, a cleared cache, a changed file):
    /// a Python or JavaScript verb takes tens of seconds, before its call.
    pub fn on_compile(&mut self, say: impl Fn(&str, usize) + Send + Sync + 'static) {
        self.compiling = Some(Box::new(say));
    }

    pub fn open_in(dirs: VerbDirs) -> Result<Self, VerbError> {
        let index = Index::load(&dirs.verbs)?;
        Ok(Self::with_index(dirs, index))
    }

    /// The host of `dirs` with the index read from it: no engine built, no verb
    /// loaded yet.
    fn with_index(dirs: VerbDirs, index: Index) -> Self {
        Self {
            dirs,
            index,
            runtime: None,
            current: None,
            compiling: None,
        }
    }

    /// Every installed verb's index entry (from the index alone).
    pub fn entries(&self) -> &[Entry] {
        &self.index.verbs
    }

    /// Each installed verb's name, summary and kind as help labels it (`plugin`, `data`),
    /// from the index alone, for `--help`'s list: none when the index cannot be read,
    /// which a listing does not fail for. A verb whose index entry is broken is listed
    /// last, of kind `broken`, its summary saying so and where its repair is said
    /// ([`manage::Broken::warning`], which is too long for a line of help): left out, it
    /// vanished from the list without a word.
    pub fn listing() -> Vec<(String, String, &'static str)> {
        let (entries, broken) = Self::installed();
        let listed = entries.into_iter().map(|e| {
            let kind = if e.interface == data::INTERFACE {
                "data"
            } else {
                "plugin"
            };
            (e.name, e.summary, kind)
        });
        let broken = broken.into_iter().map(|b| {
            let said =
                "its index entry is unusable: `mur devtools verbs list` says how to repair it";
            (b.name, said.to_owned(), "broken")
        });
        listed.chain(broken).collect()
    }

    /// The installed verbs, from the index alone and read once ([`manage::listing`]): the
    /// index entries, and those mur cannot use ([`manage::Broken`]), of which a word meant
    /// as one is told it is broken, not that no verb has that name. None when the index
    /// cannot be read, which a listing or a word's hint does not fail for.
    pub fn installed() -> (Vec<Entry>, Vec<manage::Broken>) {
        VerbDirs::from_env()
            .and_then(|dirs| manage::listing(&dirs))
            .unwrap_or_default()
    }

    /// An installed data verb, read from its file (`None`: no such verb, or
    /// not a data verb).
    pub fn data_verb(&self, verb: &str) -> Result<Option<data::DataVerb>, VerbError> {
        let Some(entry) = self
            .index
            .get(verb)
            .filter(|e| e.interface == data::INTERFACE)
        else {
            return Ok(None);
        };
        let path = self.index.file_path(entry);
        let broken = |why: String| {
            VerbError::internal_with_hint(
                format!(
                    "data verb `{verb}` is installed but its file `{}` {why}",
                    path.display()
                ),
                format!("reinstall it with `mur devtools verbs add --force <{verb}.json>`"),
            )
        };
        let bytes = bounded::read_capped(&path, bounded::Links::Refuse, data::MAX_BYTES)
            .map_err(|r| broken(r.to_string()))?;
        let data = data::DataVerb::from_bytes(&bytes).map_err(|invalid| broken(invalid.why))?;
        // Another data verb's file copied over this one's is not this verb, as a
        // component naming itself another is not ([`runtime::Runtime::adopt`]).
        if data.name != verb {
            return Err(broken(format!("holds data verb `{}`", data.name)));
        }
        Ok(Some(data.with_hints(&entry.hints)))
    }

    /// Remember each installed verb's tool hints from a session's tool list
    /// (`tools/list` entries), so its `--help` can say when its tool is
    /// read-only or destructive without asking a session. Best effort.
    pub fn learn_hints(&mut self, tools: &[serde_json::Value]) {
        let mut changed = false;
        for entry in &mut self.index.verbs {
            let Some(tool) = tools.iter().find(|t| t["name"] == entry.tool.as_str()) else {
                continue;
            };
            let hints = derived::annotations(tool.get("annotations"));
            if hints != entry.hints {
                entry.hints = hints;
                changed = true;
            }
        }
        if changed && let Err(e) = self.index.save() {
            tracing::debug!("could not keep the tools' hints in the index: {e}");
        }
    }

    /// The MCP tool an installed verb calls.
    pub fn tool(&self, verb: &str) -> Option<&str> {
        self.index.get(verb).map(|e| e.tool.as_str())
    }

    /// An installed verb's `--help` text: rendered from what it declared (each JSON
    /// option saying what `@FILE` and `-` are for it: [`values::shown`]), or a 0.1
    /// verb's own usage text.
    pub fn usage(&self, verb: &str) -> Option<String> {
        let entry = self.index.get(verb)?;
        Some(match entry.spec.as_ref().map(values::shown) {
            Some(Cow::Owned(spec)) => Entry {
                spec: Some(spec),
                ..entry.clone()
            }
            .usage_text(),
            _ => entry.usage_text(),
        })
    }

    /// An installed verb's `--help` text, as `mur devtools VERB --help` prints it
    /// (before the host's line about its options): a data verb's rendered from its file
    /// as its run renders it ([`data::DataVerb::help`]: what `@FILE` is too), any
    /// other's [`Self::usage`]. A data verb whose file cannot be read is rendered from
    /// its index entry.
    pub fn help(&self, verb: &str) -> Option<String> {
        match self.data_verb(verb) {
            Ok(Some(data)) => Some(data.help()),
            _ => self.usage(verb),
        }
    }

    /// What an installed 0.2-or-later verb declared (`None`: unknown verb, or 0.1).
    pub fn spec(&self, verb: &str) -> Option<&VerbSpec> {
        self.index.get(verb).and_then(|e| e.spec.as_ref())
    }

    /// Run the verb's `parse` on `argv`. A lone `--help`/`-h` is answered from
    /// the index, without starting the engine. The paths a 0.2+ verb declares it
    /// will write are checked against argv here, before anything is sent. `within`
    /// bounds reading a JSON option's value from a pipe: the command's `--timeout`.
    pub fn parse(
        &mut self,
        verb: &str,
        argv: &[String],
        within: Duration,
    ) -> Result<ParseOutcome, VerbError> {
        // The usage text is rendered only for an answer that shows it: a call
        // that goes ahead never reads it.
        let usage = |host: &Self| host.usage(verb).unwrap_or_default();
        if self.index.get(verb).is_none() {
            return Err(VerbError::UnknownVerb(verb.to_owned()));
        }
        if matches!(argv, [only] if only == "--help" || only == "-h") {
            return Ok(ParseOutcome::Help(usage(self)));
        }
        // Help wins wherever it appears before `--` (every kit's rule), so the verb is
        // asked before any JSON option's `@FILE` or stdin is read: a file not there
        // would be the answer, or a terminal's stdin waited on. The verb judges, as
        // `--help` may be an option's value.
        if self.spec(verb).is_some() && asks_for_help(argv) {
            let answer = self.call(verb, |instance| {
                timings::measure(Phase::Parse, || instance.parse(argv))
            })?;
            if answer == Ok(Parsed::Help) {
                return Ok(ParseOutcome::Help(usage(self)));
            }
        }
        // Each JSON option's `@FILE` and stdin, read for the verb by the host's rule;
        // the paths it declares are checked against argv as typed.
        let read = match self.spec(verb) {
            Some(spec) => values::read(spec, argv, within).map_err(|message| {
                let usage = values::shown(spec).render_brief(verb);
                VerbError::usage(verb, message, usage, Some(spec), argv)
            })?,
            None => Cow::Borrowed(argv),
        };
        let answer = self.call(verb, |instance| {
            timings::measure(Phase::Parse, || instance.parse(&read))
        })?;
        match answer {
            Ok(Parsed::Help) => Ok(ParseOutcome::Help(usage(self))),
            Ok(Parsed::Call(plan)) => {
                let arguments = arguments_object(verb, &plan.arguments)?;
                // The host refuses `--timeout 0` typed to it; from a verb it is a bad
                // answer (exit 6), not a call to give up on at once (a transport error).
                if plan.timeout_ms == Some(0) {
                    return Err(VerbError::plugin(
                        verb,
                        "asked for a call of 0 ms from `parse`; a bound is at least 1 ms",
                    ));
                }
                // What argv gives the verb's output paths, read once for both.
                let outputs = self.spec(verb).map(|spec| OutputPaths::read(spec, argv));
                if let Some(writes) = &plan.writes {
                    files::check_declared(verb, writes, argv, outputs.as_ref())?;
                }
                let stdout = outputs.as_ref().and_then(OutputPaths::to_stdout).cloned();
                Ok(ParseOutcome::Call {
                    arguments,
                    plan,
                    stdout,
                })
            }
            Err(message) => {
                let message = self.whose_option(verb, message);
                let spec = self.index.get(verb).and_then(|entry| entry.spec.as_ref());
                let usage = match spec {
                    Some(spec) => values::shown(spec).render_brief(verb),
                    None => usage(self),
                };
                Err(VerbError::usage(verb, message, usage, spec, argv))
            }
        }
    }

    /// A usage error `message` of `verb` that is only "unknown option `--NAME`" (no
    /// option of its own is near), with the installed verbs that take `--NAME`: an
    /// option of another verb (`state --view full`: `tree` takes it) is told where it
    /// goes. The kit knows only its own verb's spec; the host knows every installed
    /// verb's, read from the whole index only on this error's path. `--args` is told
    /// the `call` of the verb's tool instead: every derived and data verb takes it,
    /// as the tool's whole arguments, and so does `call`, which is what it asks for
    /// (`state --args '{}'`); the verbs naming one for their own ends (`fire`) or the
    /// data verbs that happen to be installed are nothing to it.
    fn whose_option(&self, verb: &str, message: String) -> String {
        let Some(name) = message
            .strip_prefix("unknown option `--")
            .and_then(|rest| rest.strip_suffix('`'))
            .filter(|name| !name.contains('`'))
        else {
            return message;
        };
        let Ok(index) = Index::load(&self.dirs.verbs) else {
            return message;
        };
        if name == derived::WHOLE_ARGUMENTS {
            return match index.get(verb) {
                Some(entry) => format!(
                    "{message}; `mur devtools call {} --args JSON` gives the tool its \
                     arguments as JSON",
                    entry.tool
                ),
                None => message,
            };
        }
        let takers: Vec<&str> = index
            .verbs
            .iter()
            .filter(|entry| entry.name != verb)
            .filter(|entry| {
                entry
                    .spec
                    .as_ref()
                    .is_some_and(|s| s.option(name).is_some())
            })
            .map(|entry| entry.name.as_str())
            .take(4)
            .collect();
        let said = match takers.as_slice() {
            [] => return message,
            [one] => format!("`{one}` takes it (`mur devtools {one} --help`)"),
            [first, second] => format!("`{first}` and `{second}` take it"),
            [first, second, third] => format!("`{first}`, `{second}` and `{third}` take it"),
            [first, second, ..] => format!("`{first}`, `{second}` and others take it"),
        };
        format!("{message}; {said}")
    }

    /// Run the verb's `shape` on a tool result (reusing the instance `parse`
    /// made), with what its `parse` planned.
    pub fn shape(
        &mut self,
        verb: &str,
        plan: &CallPlan,
        result: &serde_json::Value,
        pretty: bool,
    ) -> Result<Shaped, VerbError> {
        let result = result.to_string();
        let answer = self.call(verb, |instance| {
            timings::measure(Phase::Shape, || {
                instance.shape(&plan.state, &result, pretty)
            })
        })?;
        let shaped = answer.map_err(|message| {
            VerbError::plugin(verb, format!("could not shape the result: {message}"))
        })?;
        Ok(Shaped {
            verb: verb.to_owned(),
            stdout: shaped.stdout,
            files: shaped.files,
            notes: notes::bounded(&shaped.notes),
        })
    }

    /// Call into `verb`'s instance. A failed call drops the instance: after a
    /// trap its state is not to be trusted, so any later call starts afresh.
    fn call<R: Send>(
        &mut self,
        verb: &str,
        f: impl FnOnce(&mut Instance) -> Result<R, VerbError> + Send,
    ) -> Result<R, VerbError> {
        let result = off_async_runtime(|| f(self.instance(verb)?));
        if result.is_err() {
            self.current = None;
        }
        result
    }

    /// The live instance of `verb`, instantiated on first use in this process.
    fn instance(&mut self, verb: &str) -> Result<&mut Instance, VerbError> {
        if self.current.as_ref().is_none_or(|i| i.verb != verb) {
            self.current = None;
            let fresh = self.instantiate(verb)?;
            self.current = Some(fresh);
        }
        self.current
            .as_mut()
            .ok_or_else(|| VerbError::UnknownVerb(verb.to_owned()))
    }

    fn instantiate(&mut self, verb: &str) -> Result<Instance, VerbError> {
        if self.runtime.is_none() {
            self.runtime = Some(timings::measure(Phase::Engine, || {
                Runtime::new(&self.dirs.cache)
            })?);
        }
        let runtime = self
            .runtime
            .as_ref()
            .ok_or_else(|| VerbError::UnknownVerb(verb.to_owned()))?;
        let compiling = self.compiling.as_deref();
        let say = |name: &str, bytes: usize| compiling.iter().for_each(|say| say(name, bytes));
        let loaded = runtime.load(&mut self.index, verb, &say)?;
        let mut instance = timings::measure(Phase::Instantiate, || {
            Instance::new(&runtime.engine, &loaded.component, verb)
        })?;
        if let Some(changed) = loaded.changed {
            // A file replaced behind the index may declare another tool or usage;
            // it is this verb only if it names itself so.
            let info = instance.info()?;
            runtime.adopt(&self.index, verb, &info.name, &changed)?;
            manage::refresh_entry(&mut self.index, verb, info, &changed);
        }
        Ok(instance)
    }
}

/// Arguments must be a JSON object: that is what MCP's `tools/call` takes.
fn arguments_object(verb: &str, text: &str) -> Result<serde_json::Value, VerbError> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value @ serde_json::Value::Object(_)) => Ok(value),
        Ok(_) => Err(VerbError::plugin(
            verb,
            "returned tool arguments that are not a JSON object",
        )),
        Err(e) => Err(VerbError::plugin(
            verb,
            format!("returned tool arguments that are not valid JSON: {e}"),
        )),
    }
}

/// Run `f` on a plain thread when called from inside a tokio runtime: WASI's
/// synchronous bindings block on their own runtime, which tokio forbids inside
/// another. Outside a runtime (the usual case) this costs nothing.
fn off_async_runtime<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    if tokio::runtime::Handle::try_current().is_err() {
        return f();
    }
    std::thread::scope(|s| match s.spawn(f).join() {
        Ok(r) => r,
        Err(panic) => std::panic::resume_unwind(panic),
    })
}
