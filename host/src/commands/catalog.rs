//! `mur devtools catalog [--json]`: every verb an agent can use — the host's
//! own, installed plugins, and (when a session answers) one derived verb per
//! tool no installed verb covers — with its kind, tool, usage, options,
//! the tool's hints and the exit codes, and the instructions the session's
//! server gives.
//!
//! The catalog's JSON schema (`mur-catalog/1`) is documented in docs/agents.md.

use std::collections::HashMap;

use mur_core::text::escape_format;
use mur_core::{EXIT_CODES, Error, Result, Settings};
use mur_verbs::derived;
use mur_verbs::{VerbDirs, manage};
use serde_json::{Value, json};

use crate::output;
use crate::verb_list::{Item, call_only, items, listed_again, offered, shown, written};

/// The session's tool list is read afresh, never the cached one
/// ([`tools`](crate::verb_list::tools)): `--refresh` changes nothing here.
pub async fn catalog(settings: &Settings, as_json: bool) -> Result<()> {
    // A verb index mur cannot read is its own failure (exit 7), not an empty list; one
    // verb whose entry is broken is said once, with its repair, in what is printed
    // ([`broken_lines`], `broken[]`): a warning that it was skipped said it twice.
    let (installed, broken) = manage::listing(&VerbDirs::from_env()?)?;
    let offered = offered(settings, true).await?;
    let mut items = items(&installed, offered.as_ref());
    // Its name is still its own (a call of it fails, saying why): no derived verb of a
    // tool by that name is offered under it.
    items.retain(|item| !broken.iter().any(|b| b.name == item.name));
    let instructions = offered.as_ref().and_then(|o| o.instructions.clone());
    let call_only = call_only(&installed, offered.as_ref());
    let named = |names: &[String]| names.iter().map(|name| shown(name)).collect::<Vec<_>>();
    if !call_only.is_empty() {
        output::notice(&format!(
            "tools reachable only as `mur devtools call NAME` (their verb names are taken): {}",
            named(&call_only).join(", ")
        ));
    }
    // One row each, of its first entry: the one its name reaches.
    let listed_again = listed_again(offered.as_ref());
    if !listed_again.is_empty() {
        output::notice(&format!(
            "tools listed more than once by the session (each is one verb, of its first entry): {}",
            named(&listed_again).join(", ")
        ));
    }
    if as_json {
        let exit_codes: serde_json::Map<String, Value> = EXIT_CODES
            .iter()
            .map(|(code, meaning)| (code.to_string(), Value::from(*meaning)))
            .collect();
        let catalog = Catalog {
            broken: broken.iter().map(broken_json).collect(),
            call_only,
            exit_codes,
            instructions,
            listed_again,
            schema: "mur-catalog/1",
            session: offered.as_ref().map(|o| o.endpoint.clone()),
            verbs: Verbs(&items),
        };
        let text = match settings.pretty {
            true => serde_json::to_string_pretty(&catalog),
            false => serde_json::to_string(&catalog),
        };
        let text = text.map_err(|e| Error::internal(format!("cannot print the catalog: {e}")))?;
        return output::stdout(format!("{text}\n").as_bytes());
    }
    // What drives the app, a row each; mur's own commands, which an agent driving one
    // rarely runs, in a line after them (their summaries were 9 rows, 1.1 KB, of every
    // catalog read): their `--help` says what each does. The installed verbs of tools
    // the session lacks are named in a line too (a third-party server's catalog was 19
    // rows of mur-sample's standard verbs "not offered by this session", burying its
    // own: review 508, 12); `--json` keeps them, `offered: false`.
    let (host, verbs): (Vec<&Item>, Vec<&Item>) = items.iter().partition(|i| i.kind == "host");
    let (verbs, lacking): (Vec<&Item>, Vec<&Item>) =
        verbs.into_iter().partition(|i| i.offered != Some(false));
    let rows: Vec<Vec<String>> = verbs
        .iter()
        .map(|i| {
            let hints: Vec<String> = i
                .annotations
                .as_ref()
                .map(|a| derived::annotations(Some(a)))
                .unwrap_or_default();
            vec![
                i.name.clone(),
                i.kind.to_owned(),
                i.tool
                    .as_deref()
                    .map(written)
                    .unwrap_or_default()
                    .into_owned(),
                hints.join(", "),
                // What a terminal shows as nothing (a zero-width space, a tag) is written
                // out; `--json` keeps the summary as the server gave it.
                escape_format(&i.summary).into_owned(),
            ]
        })
        .collect();
    let mut text = match rows.is_empty() {
        // No verb installed and no session: no header over nothing.
        true => String::new(),
        false => output::table(&["NAME", "KIND", "TOOL", "HINTS", "SUMMARY"], &rows) + "\n",
    };
    let devtools = settings.devtools_command();
    let host: Vec<&str> = host.iter().map(|i| i.name.as_str()).collect();
    text += &format!(
        "mur's own commands (`{devtools} COMMAND --help` says what each does): {}\n",
        host.join(", ")
    );
    text += &lacking_line(&lacking, &devtools);
    text += &broken_lines(&broken);
    output::stdout(text.as_bytes())?;
    match instructions {
        // Whole, after the verbs: the server wrote them for whoever drives it, and an
        // agent reading the catalog is that reader.
        Some(instructions) => output::text(&format!(
            "\nInstructions of the session's server:\n{}\n",
            escape_format(instructions.trim_end())
        )),
        None => Ok(()),
    }
}

/// The installed verbs of tools the session does not offer, named in one line after mur's
/// own commands (none: no line), with the command whose `--json` lists them whole; a call
/// of one fails (exit 5).
fn lacking_line(lacking: &[&Item], devtools: &str) -> String {
    let names: Vec<&str> = lacking.iter().map(|i| i.name.as_str()).collect();
    let json = format!("`{devtools} catalog --json`");
    match names.len() {
        0 => String::new(),
        1 => format!(
            "1 installed verb calls a tool this session does not offer ({json} lists it): {}\n",
            names[0]
        ),
        n => format!(
            "{n} installed verbs call tools this session does not offer ({json} lists them): {}\n",
            names.join(", ")
        ),
    }
}

/// The verbs installed whose index entry mur cannot use, a line each after mur's own
/// commands: the catalog lists no verb by that name, and a call of it fails. On stdout
/// too, not only in the warning: an agent that drops stderr saw the verb vanish.
fn broken_lines(broken: &[manage::Broken]) -> String {
    broken
        .iter()
        .map(|b| {
            let said = format!("{}; {}", b.error, b.repair());
            format!(
                "broken verb `{}` (a call of it fails): {}\n",
                b.name,
                output::line(&said)
            )
        })
        .collect()
}

/// A broken verb as `broken[]` of the JSON holds it (docs/agents.md).
fn broken_json(broken: &manage::Broken) -> Value {
    json!({
        "name": broken.name,
        "error": broken.error.to_string(),
        "repair": broken.repair(),
    })
}

/// `mur-catalog/1`, its keys in the order a JSON object of mur's prints them (by name).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Catalog<'a> {
    /// The verbs installed whose index entry mur cannot use ([`broken_json`]): no
    /// entry of `verbs`, and a call of one fails.
    broken: Vec<Value>,
    call_only: Vec<String>,
    exit_codes: serde_json::Map<String, Value>,
    instructions: Option<String>,
    /// The tools the session lists more than once, as the warning names them: each one
    /// verb, of its first entry.
    listed_again: Vec<String>,
    schema: &'static str,
    session: Option<String>,
    verbs: Verbs<'a>,
}

/// The verbs, each made a JSON object as it is written: the catalog built whole as one
/// `Value` cost ~25 times its text (770 MB for the 31 MB of 10,000 tools).
struct Verbs<'a>(&'a [Item]);

impl serde::Serialize for Verbs<'_> {
    fn serialize<S: serde::Serializer>(&self, to: S) -> std::result::Result<S::Ok, S::Error> {
        to.collect_seq(self.0.iter().map(item_json))
    }
}

fn item_json(item: &Item) -> Value {
    // Looked up by name, not searched for each option: a tool of 32,000 properties
    // took 17 s, every option searching all the others' facts and the positionals.
    let facts_of: HashMap<&str, &derived::Facts> = item
        .facts
        .iter()
        .map(|(name, facts)| (name.as_str(), facts))
        .collect();
    // Each param once, a positional with an option form too ([`VerbSpec::listed`]).
    let params = item.spec.iter().flat_map(mur_verbs::VerbSpec::listed);
    let options: Vec<Value> = params
        .map(|listed| {
            let (p, positional) = (listed.param, listed.positional);
            let facts = facts_of.get(p.name.as_str()).copied();
            let mut option = json!({
                "name": p.name,
                "type": p.kind,
                "positional": positional,
                "option": listed.option,
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
