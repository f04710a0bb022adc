//! `mur devtools catalog [--json]`: every verb an agent can use — the host's
//! own, installed plugins, and (when a session answers) one derived verb per
//! tool no installed verb covers — with its kind, tool, usage, options,
//! the tool's hints and the exit codes, and the instructions the session's
//! server gives; and `mur devtools parity`: each tool
//! of the session and the verb that reaches it.
//!
//! The catalog's JSON schema (`mur-catalog/1`) is documented in docs/agents.md.

use mur_client::Reply;
use mur_core::settings::Source;
use mur_core::{EXIT_CODES, Error, Kind, Result, Settings};
use mur_verbs::derived::{self, Derived};
use mur_verbs::{Entry, VerbHost, VerbSpec};
use serde_json::{Value, json};

use crate::cli;
use crate::invoke::Session;
use crate::output;
use crate::tools::ToolList;

/// One verb of the catalog.
struct Item {
    name: String,
    kind: &'static str,
    tool: Option<String>,
    summary: String,
    usage: String,
    spec: Option<VerbSpec>,
    annotations: Option<Value>,
    /// Whether the session answering offers the verb's tool (`None`: no session
    /// answered, or a host command): an installed verb of a tool the app lacks
    /// is listed, but not as one to call.
    offered: Option<bool>,
    /// A derived verb's options' defaults and nullability, by option name, which
    /// the schema says and a [`VerbSpec`] has no room for.
    facts: Vec<(String, derived::Facts)>,
}

/// What the session offers, when one answers: its endpoint and tools, and the
/// instructions its server gives (for the catalog only).
struct Offered {
    endpoint: String,
    tools: Vec<Value>,
    instructions: Option<String>,
}

/// `refresh` (`--refresh`): the session's tool list is read afresh, not from the
/// cache ([`tools`]).
pub async fn catalog(settings: &Settings, as_json: bool, refresh: bool) -> Result<()> {
    // A verb index mur cannot read is its own failure (exit 7), not an empty list.
    let installed = VerbHost::open()?.entries().to_vec();
    let offered = offered(settings, true, refresh).await?;
    let items = items(&installed, offered.as_ref());
    let instructions = offered.as_ref().and_then(|o| o.instructions.clone());
    let call_only = call_only(&installed, offered.as_ref());
    if !call_only.is_empty() {
        output::notice(&format!(
            "tools reachable only as `mur devtools call NAME` (their verb names are taken): {}",
            call_only.join(", ")
        ));
    }
    if as_json {
        let verbs: Vec<Value> = items.iter().map(item_json).collect();
        let exit_codes: serde_json::Map<String, Value> = EXIT_CODES
            .iter()
            .map(|(code, meaning)| (code.to_string(), Value::from(*meaning)))
            .collect();
        let catalog = json!({
            "schema": "mur-catalog/1",
            "session": offered.as_ref().map(|o| o.endpoint.clone()),
            "instructions": instructions,
            "verbs": verbs,
            "callOnly": call_only,
            "exitCodes": exit_codes,
        });
        return output::json(&catalog, settings.pretty);
    }
    // What drives the app, a row each; mur's own commands, which an agent driving one
    // rarely runs, in a line after them (their summaries were 9 rows, 1.1 KB, of every
    // catalog read): their `--help` says what each does.
    let (host, verbs): (Vec<&Item>, Vec<&Item>) = items.iter().partition(|i| i.kind == "host");
    let rows: Vec<Vec<String>> = verbs
        .iter()
        .map(|i| {
            let mut hints: Vec<String> = i
                .annotations
                .as_ref()
                .map(|a| derived::annotations(Some(a)))
                .unwrap_or_default();
            if i.offered == Some(false) {
                hints.insert(0, "not offered by this session".to_owned());
            }
            vec![
                i.name.clone(),
                i.kind.to_owned(),
                i.tool.clone().unwrap_or_default(),
                hints.join(", "),
                i.summary.clone(),
            ]
        })
        .collect();
    let mut text = match rows.is_empty() {
        // No verb installed and no session: no header over nothing.
        true => String::new(),
        false => output::table(&["NAME", "KIND", "TOOL", "HINTS", "SUMMARY"], &rows) + "\n",
    };
    let host: Vec<&str> = host.iter().map(|i| i.name.as_str()).collect();
    text += &format!(
        "mur's own commands (`{} COMMAND --help` says what each does): {}\n",
        settings.devtools_command(),
        host.join(", ")
    );
    output::stdout(text.as_bytes())?;
    match instructions {
        // Whole, after the verbs: the server wrote them for whoever drives it, and an
        // agent reading the catalog is that reader.
        Some(instructions) => output::text(&format!(
            "\nInstructions of the session's server:\n{}\n",
            instructions.trim_end()
        )),
        None => Ok(()),
    }
}

/// `mur devtools verbs list --all`: installed verbs and the session's derived
/// ones (when a session answers), with their kinds.
pub async fn installed_and_derived(settings: &Settings, refresh: bool) -> Result<()> {
    let installed = VerbHost::open()?.entries().to_vec();
    let offered = offered(settings, false, refresh).await?;
    let rows: Vec<Vec<String>> = items(&installed, offered.as_ref())
        .into_iter()
        .filter(|i| i.kind != "host")
        .map(|i| {
            vec![
                i.name,
                i.kind.to_owned(),
                i.tool.unwrap_or_default(),
                i.summary,
            ]
        })
        .collect();
    output::stdout(output::table(&["NAME", "KIND", "TOOL", "SUMMARY"], &rows).as_bytes())
}

/// `mur devtools parity`: exit 0 only when every tool has a named verb.
pub async fn parity(settings: &Settings, as_json: bool, refresh: bool) -> Result<()> {
    let session = Session::resolve(settings).await?;
    let tools = tools(&session, settings, refresh).await?;
    // A verb index mur cannot read is its own failure (exit 7), not an empty list.
    let installed = VerbHost::open()?.entries().to_vec();
    let mut rows = Vec::new();
    let mut missing = Vec::new();
    let mut only_call = Vec::new();
    let verb_names = derived::verb_names(&tools);
    for (tool, verb) in tools.iter().zip(verb_names) {
        let Some(name) = tool["name"].as_str() else {
            continue;
        };
        let (verbs, kind) = match reach(name, verb, &installed) {
            Reach::Named(named) => (named, "named"),
            Reach::Derived(verb) => {
                missing.push(name.to_owned());
                (vec![verb], "derived")
            }
            Reach::CallOnly => {
                missing.push(name.to_owned());
                only_call.push(name.to_owned());
                (Vec::new(), "call-only")
            }
        };
        rows.push((name.to_owned(), verbs, kind));
    }
    if as_json {
        // `verbs` lists each verb that reaches the tool; `verb` says them as the table
        // does (null for none), for readers of the first form.
        let list: Vec<Value> = rows
            .iter()
            .map(|(tool, verbs, kind)| {
                let verb = (!verbs.is_empty()).then(|| verbs.join(", "));
                json!({"tool": tool, "verb": verb, "verbs": verbs, "kind": kind})
            })
            .collect();
        output::json(&Value::Array(list), settings.pretty)?;
    } else {
        let table: Vec<Vec<String>> = rows
            .iter()
            .map(|(tool, verbs, kind)| {
                let verb = if verbs.is_empty() {
                    "–".to_owned()
                } else {
                    verbs.join(", ")
                };
                vec![tool.clone(), verb, (*kind).to_owned()]
            })
            .collect();
        output::stdout(output::table(&["TOOL", "VERB", "KIND"], &table).as_bytes())?;
    }
    if missing.is_empty() {
        return Ok(());
    }
    // Exit 1 is parity's answer (CI branches on it), not a refusal of what was typed
    // nor a failure: the normal state of a third-party server's session. Said as the
    // report's outcome, a `note:` (which `-q` hides, as every note); an `error:` line
    // read as mur having failed.
    crate::usage::answered();
    if !settings.quiet {
        output::diagnostic(&format!(
            "note: {}",
            output::line(&format!(
                "{} of {} tools have no named verb: {}",
                missing.len(),
                tools.len(),
                missing.join(", ")
            ))
        ));
        output::diagnostic(&format!(
            "hint: {}",
            output::line(&format!(
                "{}; `mur devtools verbs new` makes a named one",
                reachable(&only_call, missing.len() - only_call.len())
            ))
        ));
    }
    // Said already: `main` prints no `error:` line for an empty message.
    Err(Error::usage(String::new()))
}

/// How the tools without a named verb are reached: `only_call` only by `call
/// NAME`, `derived` more as derived verbs; in the singular for one.
fn reachable(only_call: &[String], derived: usize) -> String {
    let (one, many) = ("its verb name being taken", "their verb names being taken");
    let call_only = match only_call {
        [] => return "each is still reachable as a derived verb".to_owned(),
        [tool] => format!("{tool} only as `mur devtools call NAME`, {one}"),
        tools => format!(
            "{} only as `mur devtools call NAME`, {many}",
            tools.join(", ")
        ),
    };
    match derived {
        0 => call_only,
        1 => format!("{call_only}; the other as a derived verb"),
        _ => format!("{call_only}; the others as derived verbs"),
    }
}

/// How a tool of the session is reached from a shell.
enum Reach {
    /// By the installed verbs of its tool, by name.
    Named(Vec<String>),
    /// By its derived verb, of this name.
    Derived(String),
    /// Only by `call NAME`: it has no name of its own (shared, or empty), or
    /// its verb name is a host command's or an installed verb's of another tool.
    CallOnly,
}

/// How `tool`, whose derived verb would be named `verb`, is reached.
fn reach(tool: &str, verb: Option<String>, installed: &[Entry]) -> Reach {
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
/// then it runs that, never a derived verb of that name.
fn taken(word: &str, installed: &[Entry]) -> bool {
    cli::host_verbs().iter().any(|h| h == word) || installed.iter().any(|e| e.name == word)
}

/// The tools of the session reached only as `call NAME`.
fn call_only(installed: &[Entry], offered: Option<&Offered>) -> Vec<String> {
    let tools = offered.map(|o| o.tools.as_slice()).unwrap_or_default();
    tools
        .iter()
        .zip(derived::verb_names(tools))
        .filter_map(|(tool, verb)| {
            let name = tool["name"].as_str()?;
            matches!(reach(name, verb, installed), Reach::CallOnly).then(|| name.to_owned())
        })
        .collect()
}

/// The session's tools: the cached list, or with `refresh` (`--refresh`) a fresh
/// one, which is cached and teaches the installed verbs their tools' hints, as a
/// derived verb's `--refresh` does.
async fn tools(session: &Session, settings: &Settings, refresh: bool) -> Result<Vec<Value>> {
    let list = ToolList::open(session);
    match refresh {
        true => list.fresh(session, settings).await,
        false => list.all(session, settings).await,
    }
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
async fn offered(
    settings: &Settings,
    with_instructions: bool,
    refresh: bool,
) -> Result<Option<Offered>> {
    let found = async {
        let session = Session::resolve(settings).await?;
        let tools = tools(&session, settings, refresh).await?;
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

fn items(installed: &[Entry], offered: Option<&Offered>) -> Vec<Item> {
    let annotations_of = |tool: &str| {
        offered?
            .tools
            .iter()
            .find(|t| t["name"] == tool)
            .and_then(|t| t.get("annotations").cloned())
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
            offered: offered.map(|o| o.tools.iter().any(|t| t["name"] == entry.tool.as_str())),
            facts: Vec::new(),
        });
    }
    for (verb, tool) in Derived::all(offered.map(|o| o.tools.as_slice()).unwrap_or_default()) {
        let reached = matches!(
            reach(&verb.tool, Some(verb.name.clone()), installed),
            Reach::Derived(_)
        );
        if reached {
            items.push(derived_item(verb, tool));
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
    let usage = usage_line(&verb.spec.render(&verb.name, &verb.summary));
    let facts = verb
        .spec
        .options
        .iter()
        .filter_map(|o| Some((o.name.clone(), verb.facts(&o.name)?)))
        .collect();
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

fn item_json(item: &Item) -> Value {
    let options: Vec<Value> = item
        .spec
        .iter()
        .flat_map(|s| s.positionals.iter().chain(&s.options))
        .map(|p| {
            let facts = item.facts.iter().find(|(name, _)| *name == p.name);
            let facts = facts.map(|(_, facts)| facts);
            let mut option = json!({
                "name": p.name,
                "type": p.kind,
                "positional": item.spec.as_ref().is_some_and(|s| s.positionals.contains(p)),
                "required": p.required,
                "repeatable": p.repeatable,
                "choices": p.choices,
                "help": p.help,
                // The word `null` is JSON null (a derived verb's option whose schema
                // admits it); elsewhere it is a word like any other.
                "nullable": facts.is_some_and(|f| f.nullable),
            });
            // What the tool takes the option left out to be, where its schema says.
            if let Some(default) = facts.and_then(|f| f.default.clone()) {
                option["default"] = default;
            }
            // The bounds held to before the call (`minimum`, `maxLength`, …), where set.
            for (name, bound) in facts.map(|f| f.range.clone()).unwrap_or_default() {
                option[name] = bound;
            }
            option
        })
        .collect();
    let hints = item.annotations.as_ref().map(|a| {
        json!({
            "readOnly": a.get("readOnlyHint"),
            "destructive": a.get("destructiveHint"),
            "idempotent": a.get("idempotentHint"),
            "openWorld": a.get("openWorldHint"),
        })
    });
    json!({
        "name": item.name,
        "kind": item.kind,
        "tool": item.tool,
        "summary": item.summary,
        "usage": item.usage,
        "options": options,
        "annotations": hints,
        "offered": item.offered,
    })
}

#[cfg(test)]
mod tests {
    use super::reachable;

    fn tools(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    /// One tool is spoken of in the singular (it said `overview only as …, their
    /// verb names being taken; the others as derived verbs`).
    #[test]
    fn the_hint_on_tools_reached_only_by_call_agrees_in_number() {
        assert_eq!(
            reachable(&tools(&["overview"]), 2),
            "overview only as `mur devtools call NAME`, its verb name being taken; \
             the others as derived verbs"
        );
        assert_eq!(
            reachable(&tools(&["overview"]), 1),
            "overview only as `mur devtools call NAME`, its verb name being taken; \
             the other as a derived verb"
        );
        assert_eq!(
            reachable(&tools(&["overview"]), 0),
            "overview only as `mur devtools call NAME`, its verb name being taken"
        );
        assert_eq!(
            reachable(&tools(&["session", "help"]), 1),
            "session, help only as `mur devtools call NAME`, their verb names being taken; \
             the other as a derived verb"
        );
        assert_eq!(
            reachable(&[], 3),
            "each is still reachable as a derived verb"
        );
    }
}
