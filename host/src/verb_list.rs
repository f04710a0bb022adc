//! Every verb an agent can use, as `catalog` and `verbs list --all` list them: the
//! host's own commands, the installed verbs, and (when a session answers) one derived
//! verb per tool no installed verb covers; and how each tool of the session is
//! reached (`parity`).

use std::borrow::Cow;
use std::collections::HashSet;

use mur_client::Reply;
use mur_core::settings::Source;
use mur_core::{Error, Kind, Result, Settings};
use mur_verbs::derived::{self, Derived};
use mur_verbs::{Entry, VerbSpec};
use serde_json::Value;

use crate::call_line::{Arguments, call_line, called_by_name, quoted};
use crate::cli;
use crate::invoke::Session;
use crate::output;
use crate::tools::ToolList;
use mur_verbs::tools::{Entries as _, ToolTexts};

/// One verb of the catalog.
pub struct Item {
    pub name: String,
    pub kind: &'static str,
    pub tool: Option<String>,
    pub summary: String,
    pub usage: String,
    pub spec: Option<VerbSpec>,
    pub annotations: Option<Value>,
    /// Whether the session answering offers the verb's tool (`None`: no session
    /// answered, or a host command): an installed verb of a tool the app lacks
    /// is listed, but not as one to call.
    pub offered: Option<bool>,
    /// A derived verb's options' defaults and nullability, by option name, which
    /// the schema says and a [`VerbSpec`] has no room for.
    pub facts: Vec<(String, derived::Facts)>,
}

/// What the session offers, when one answers: its endpoint and tools (each built as
/// its item is: [`items`]), and the instructions its server gives (for the catalog only).
pub struct Offered {
    pub endpoint: String,
    pub tools: ToolTexts,
    pub instructions: Option<String>,
}

/// How a tool of the session is reached from a shell.
pub enum Reach {
    /// By the installed verbs of its tool, by name.
    Named(Vec<String>),
    /// By its derived verb, of this name.
    Derived(String),
    /// Only by `call NAME`: it has no name of its own (shared, or empty), or
    /// its verb name is a host command's or an installed verb's of another tool.
    CallOnly,
}

/// How `tool`, whose derived verb would be named `verb`, is reached.
pub fn reach(tool: &str, verb: Option<String>, installed: &[Entry]) -> Reach {
    let named: Vec<String> = installed
        .iter()
        .filter(|e| e.tool == tool)
        .map(|e| e.name.clone())
        .collect();
    if !named.is_empty() {
        return Reach::Named(named);
    }
    match verb {
        Some(verb) if !taken(&verb, installed) => Reach::Derived(verb),
        _ => Reach::CallOnly,
    }
}

/// Whether `word` is a host command's (`help` too) or an installed verb's:
/// then it runs that, never a derived verb of that name. Asked once a tool: the fast
/// path's list of host commands, not the command tree (a catalog of 10,000 tools built
/// the tree 20,000 times, a third of its time).
pub fn taken(word: &str, installed: &[Entry]) -> bool {
    cli::is_host_command(word) || installed.iter().any(|e| e.name == word)
}

/// A tool's name as a warning or hint lists it: one that `call NAME` does not reach
/// ([`called_by_name`]: empty, a blank in the list; `--help`, call's own help; `ping`,
/// the method; one with a character one cannot see, a blank or an escape) [`written`],
/// with the line that calls it.
pub fn shown(name: &str) -> String {
    if called_by_name(name) {
        return name.to_owned();
    }
    let line = call_line("mur devtools", name, Arguments::None);
    format!("`{}` (`{line}`)", written(name))
}

/// A tool's name as a table or a warning writes it: as it is, but an
/// [`unseen`](mur_core::text::unseen) one (empty, blanks alone, or holding an invisible
/// character) as the JSON string `call tools/call` names it by (`""`, `"\u3164"`,
/// `"\u200b"`): a blank cell or a zero-width space showed no name, or another one.
pub fn written(name: &str) -> Cow<'_, str> {
    match mur_core::text::unseen(name) {
        true => Cow::Owned(quoted(name)),
        false => Cow::Borrowed(name),
    }
}

/// The tools of the session reached only as `call NAME`; a tool listed twice is
/// reached as its first entry is ([`derived::repeated`]), and named once.
pub fn call_only(installed: &[Entry], offered: Option<&Offered>) -> Vec<String> {
    let names = offered.map(|o| o.tools.names()).unwrap_or_default();
    names
        .iter()
        .zip(derived::verb_names_of(&names))
        .zip(derived::repeated(&names))
        .filter_map(|((name, verb), again)| {
            let name = name.filter(|_| !again)?;
            matches!(reach(name, verb, installed), Reach::CallOnly).then(|| name.to_owned())
        })
        .collect()
}

/// The tools the session lists more than once, each named once, in the order of their
/// first entries: each is one tool, one verb, of its first entry ([`derived::repeated`]).
pub fn listed_again(offered: Option<&Offered>) -> Vec<String> {
    let names = offered.map(|o| o.tools.names()).unwrap_or_default();
    let repeated = derived::repeated(&names);
    let entries = || names.iter().zip(&repeated);
    let listed_twice: HashSet<&str> = entries()
        .filter_map(|(name, again)| name.filter(|_| *again))
        .collect();
    entries()
        .filter_map(|(name, again)| name.filter(|name| !again && listed_twice.contains(name)))
        .map(str::to_owned)
        .collect()
}

/// The session's tools, read fresh (and cached, teaching the installed verbs their
/// tools' hints): what the catalog and `parity` show is never a list cached before the
/// session restarted on new code behind the same endpoint ([`crate::tools`]).
pub async fn tools(session: &Session, settings: &Settings) -> Result<Vec<Value>> {
    Ok(ToolList::open(session)
        .fresh(session, settings)
        .await?
        .values())
}

/// The session's tools, or `None` when no session answers (the catalog then
/// lists what is installed, and says so with `"session": null`); stderr says why,
/// so that a list without derived verbs is never taken for all there is. A session
/// named (`--endpoint`, `--project`) that cannot be read is an error: its verbs were
/// what was asked for. Several live sessions, none named, are as none: what needs no
/// session is listed (exit 0), and the warning says why the derived verbs are not,
/// listing the sessions and how to choose one; a refusal (exit 1) left an agent with
/// no catalog at all, not even mur's own commands.
/// `with_instructions`: the server's instructions are read too ([`instructions`]).
pub async fn offered(settings: &Settings, with_instructions: bool) -> Result<Option<Offered>> {
    let found = async {
        let session = Session::resolve(settings).await?;
        // Each tool built as its item is ([`items`]).
        let tools = ToolList::open(&session).fresh(&session, settings).await?;
        let instructions = match with_instructions {
            true => instructions(&session, settings).await,
            false => None,
        };
        Ok::<_, Error>(Offered {
            endpoint: session.endpoint.clone(),
            tools,
            instructions,
        })
    };
    let named = matches!(settings.source, Source::Endpoint(_)) || settings.project.is_some();
    match found.await {
        Ok(offered) => Ok(Some(offered)),
        Err(e) if named || (e.kind() == Kind::Usage && !e.is_about_session()) => Err(e),
        // Several sessions, and which one is meant not said.
        Err(e) if e.kind() == Kind::Usage => {
            output::notice(&format!(
                "derived verbs are not listed: they are the tools of one session, and {} sessions run",
                e.list().len()
            ));
            for row in e.list() {
                output::diagnostic(&format!("  {}", output::line(row)));
            }
            for hint in e.hints() {
                output::diagnostic(&format!("hint: {}", output::line(hint)));
            }
            Ok(None)
        }
        Err(e) => {
            let why = e.message().lines().next().unwrap_or_default();
            output::notice(&format!("derived verbs are not listed: {why}"));
            Ok(None)
        }
    }
}

/// The instructions the session's server gives for whoever drives it: its
/// `server/discover`'s, or for a server of the 2025-11-25 revision, which has no such
/// method, its `initialize`'s (a bridge answers `server/discover` with its server's).
/// `None` when it gives none, or cannot say: the catalog is of the verbs, and does not
/// fail for want of them.
async fn instructions(session: &Session, settings: &Settings) -> Option<String> {
    let report = output::CallReport::new(settings);
    let client = session
        .client(settings)
        .with_events(&report)
        .discovering_from_initialize();
    match client.call("server/discover", None, settings.timeout).await {
        Ok(Reply::Result(found)) => found["instructions"]
            .as_str()
            .filter(|text| !text.trim().is_empty())
            .map(str::to_owned),
        Ok(_) => None,
        Err(e) => {
            tracing::debug!("the server's instructions could not be read: {e}");
            None
        }
    }
}

/// Every verb of the catalog: mur's own commands, the `installed` verbs, and the derived
/// verbs of the tools the session `offered` that no installed verb reaches; what the
/// session offers first.
pub fn items(installed: &[Entry], offered: Option<&Offered>) -> Vec<Item> {
    let annotations_of = |tool: &str| {
        offered?
            .tools
            .named(tool)?
            .get_mut("annotations")
            .map(Value::take)
    };
    let mut items: Vec<Item> = host_items();
    for entry in installed {
        items.push(Item {
            name: entry.name.clone(),
            kind: if entry.interface == mur_verbs::data::INTERFACE {
                "data"
            } else {
                "plugin"
            },
            tool: Some(entry.tool.clone()),
            summary: entry.summary.clone(),
            usage: usage_line(&entry.usage_text()),
            spec: entry.spec.clone(),
            annotations: annotations_of(&entry.tool),
            offered: offered.map(|o| o.tools.position(&entry.tool).is_some()),
            facts: Vec::new(),
        });
    }
    let names = offered.map(|o| o.tools.names()).unwrap_or_default();
    for (at, verb) in derived::verb_names_of(&names).into_iter().enumerate() {
        // Each tool and its verb built as its item is, and kept only as that: the list
        // built whole held 25–30 times its size, all verbs built first ([`Derived::all`])
        // ~110 MB more for 10,000 tools of 20 properties.
        let Some(tool) = verb.as_ref().and(offered).and_then(|o| o.tools.entry(at)) else {
            continue;
        };
        let Some(verb) = verb.and_then(|verb| Derived::of_entry(&tool, verb)) else {
            continue;
        };
        let reached = matches!(
            reach(&verb.tool, Some(verb.name.clone()), installed),
            Reach::Derived(_)
        );
        if reached {
            items.push(derived_item(verb, &tool));
        }
    }
    // What the session offers first, what it lacks last: an agent reads from the top, and
    // for a third-party server the 19 standard verbs (none offered) came before its tools.
    // Stable, so each group keeps its order (mur's own, installed, derived).
    items.sort_by_key(|item| match item.offered {
        Some(true) => 0,
        None => 1,
        Some(false) => 2,
    });
    items
}

fn derived_item(verb: Derived, tool: &Value) -> Item {
    let usage = verb.spec.usage(&verb.name);
    let facts = verb.all_facts();
    Item {
        facts,
        name: verb.name,
        kind: "derived",
        tool: Some(verb.tool),
        summary: verb.summary,
        usage,
        spec: Some(verb.spec),
        annotations: tool.get("annotations").cloned(),
        offered: Some(true),
    }
}

/// The host's own `devtools` commands, read off the command tree.
fn host_items() -> Vec<Item> {
    let mut tree = cli::command();
    // Built, each command knows its whole name (`mur devtools call`) for its usage.
    tree.build();
    let Some(devtools) = tree.find_subcommand("devtools") else {
        return Vec::new();
    };
    devtools
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| Item {
            name: c.get_name().to_owned(),
            kind: "host",
            tool: None,
            summary: c.get_about().map(|a| a.to_string()).unwrap_or_default(),
            usage: usage_line(&c.clone().render_usage().to_string()),
            spec: None,
            annotations: None,
            offered: None,
            facts: Vec::new(),
        })
        .collect()
}

/// The `Usage:` line of a help text, without the word.
fn usage_line(help: &str) -> String {
    help.lines()
        .next()
        .and_then(|l| l.strip_prefix("Usage: "))
        .unwrap_or_default()
        .to_owned()
}
