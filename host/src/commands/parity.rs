//! `mur devtools parity`: each tool of the session and the verb that reaches it
//! (named, derived, or only `call`); exit 1 when a tool has no named verb. Exit 1 is
//! also every command's refusal (an argv refused, several sessions and none chosen):
//! no other code of the table is true of the answer (0 is "every tool has a named
//! verb", 2–7 are failures), so they share it, and the answer alone prints the table
//! on stdout (README, "Exit codes"; e2e `usage::parity_exit_1_…`).

use mur_core::{Error, Kind as ErrorKind, Result, Settings};
use mur_verbs::{VerbDirs, derived, manage};
use serde_json::{Value, json};

use crate::invoke::Session;
use crate::output;
use crate::verb_list::{Reach, reach, shown, tools, written};

/// `mur devtools parity`: exit 0 only when every tool has a named verb.
pub async fn run(settings: &Settings, as_json: bool) -> Result<()> {
    let session = Session::resolve(settings).await?;
    let tools = tools(&session, settings).await?;
    // A verb index mur cannot read is its own failure (exit 7), not an empty list; one
    // verb whose entry is broken is skipped, said with its repair, as the catalog does.
    let (installed, broken) = manage::listing(&VerbDirs::from_env()?)?;
    for verb in &broken {
        output::notice(&verb.warning());
    }
    let mut rows = Vec::new();
    let mut missing = Vec::new();
    let mut only_call = Vec::new();
    let names: Vec<Option<&str>> = tools.iter().map(|tool| tool["name"].as_str()).collect();
    let verb_names = derived::verb_names_of(&names);
    // A tool listed twice is one tool, reached as its first entry is: one row.
    let repeated = derived::repeated(&names);
    for ((name, verb), again) in names.iter().zip(verb_names).zip(repeated) {
        let Some(name) = name.filter(|_| !again) else {
            continue;
        };
        let (verbs, kind) = match reach(name, verb, &installed) {
            Reach::Named(named) => (named, "named"),
            // Its name is still the broken verb's (a call of it fails, saying why): no
            // derived verb of a tool by that name answers to it.
            Reach::Derived(verb) if !broken.iter().any(|b| b.name == verb) => {
                missing.push(shown(name));
                (vec![verb], "derived")
            }
            Reach::Derived(_) | Reach::CallOnly => {
                missing.push(shown(name));
                only_call.push(shown(name));
                (Vec::new(), "call-only")
            }
        };
        rows.push((name.to_owned(), verbs, kind));
    }
    let printed = if as_json {
        // `verbs` lists each verb that reaches the tool; `verb` says them as the table
        // does (null for none), for readers of the first form.
        let list: Vec<Value> = rows
            .iter()
            .map(|(tool, verbs, kind)| {
                let verb = (!verbs.is_empty()).then(|| verbs.join(", "));
                json!({"tool": tool, "verb": verb, "verbs": verbs, "kind": kind})
            })
            .collect();
        output::json(&Value::Array(list), settings.pretty)
    } else {
        let table: Vec<Vec<String>> = rows
            .iter()
            .map(|(tool, verbs, kind)| {
                let verb = if verbs.is_empty() {
                    "–".to_owned()
                } else {
                    verbs.join(", ")
                };
                vec![written(tool).into_owned(), verb, (*kind).to_owned()]
            })
            .collect();
        output::stdout(output::table(&["TOOL", "VERB", "KIND"], &table).as_bytes())
    };
    // A reader that closed stdout (`parity | head -1`, `| true`) changes no answer: exit
    // 1 and its note stay, as a tool's failure stays 5; it was a quiet exit 0, which a
    // script reading the table through `head` took for "every tool has a named verb".
    match printed {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => return Err(e),
        printed if missing.is_empty() => return printed,
        _ => {}
    }
    // Exit 1 is parity's answer (CI branches on it), not a refusal of what was typed
    // nor a failure: the normal state of a third-party server's session. Said as the
    // report's outcome, a `note:` (which `-q` hides, as every note); an `error:` line
    // read as mur having failed. A refusal exits 1 too, with nothing on stdout: the
    // table printed above is what tells a script this is the answer.
    crate::usage::answered();
    if !settings.quiet {
        output::diagnostic(&format!(
            "note: {}",
            output::line(&format!(
                "{} of {} tools have no named verb: {}",
                missing.len(),
                rows.len(),
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
