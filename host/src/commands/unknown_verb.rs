//! What `mur devtools WORD` says when WORD is no installed verb, host command or tool of
//! the session: the word most likely meant, the MCP method `call` makes, the tools a word
//! would stand for, or the session to run it in.

use mur_core::{Error, Kind, ListedSession, is_slip};
use mur_verbs::manage::Broken;
use mur_verbs::{Entry, VerbError, VerbHost};
use serde_json::Value;

use crate::tool_cache::CachedTools;
use crate::tools::pick;

/// The installed verbs, read once for a word's hints ([`VerbHost::installed`]): their index
/// entries, and those broken.
pub type Installed = (Vec<Entry>, Vec<Broken>);

/// Why a word named no tool: the session's tools were read and none answers to it, or
/// no tool list could be read (why not, as a hint), the word being near `near`.
pub enum Unknown {
    Listed(Vec<Value>),
    Unread { why: String, near: String },
}

/// What `name` is when no session was resolved to look it up in (`e`: none runs, kind
/// `NoSession`, or which is meant is not known, kind `Usage`): a slip from a verb or
/// command of mur's, [`Unknown::Unread`]; else `e`, the session being what to fix, with
/// hints saying so.
pub fn unresolved(name: &str, e: Error) -> Result<Unknown, Error> {
    match e.kind() {
        Kind::NoSession => no_session(name, e),
        _ => none_chosen(name, e),
    }
}

/// [`unresolved`] when no session runs.
fn no_session(name: &str, e: Error) -> Result<Unknown, Error> {
    // One slip from an installed verb or a command of mur's: a typo, said first,
    // then why no tool list was read.
    let installed = VerbHost::installed();
    let near = nearest_word(name, &[], &installed);
    if let Some(near) = near.clone().filter(|near| is_slip(name, near)) {
        return Ok(Unknown::Unread {
            why: "no devtools session is running to look for a tool of that name".to_owned(),
            near,
        });
    }
    // Else the word may well be a tool of the app that is not running (`version`
    // is no typo of `session`): no session (exit 4, "start the app"), as for a
    // named verb or `call`.
    let e = match near {
        Some(near) => e.with_first_hint(format!("or {}", did_you_mean(&near, &installed.1))),
        None => e,
    };
    Err(e.with_first_hint(format!(
        "`{name}` is not an installed verb; a tool's verb is looked up in the session once one runs"
    )))
}

/// [`unresolved`] when several sessions run and which is meant is not known.
fn none_chosen(name: &str, e: Error) -> Result<Unknown, Error> {
    // A word near a verb or command of mur's is most likely a typo, said first, as with
    // one session or none; unless the tool lists as last read tell which of the sessions
    // has a tool of that name, the one then named to run the command again.
    let having = having(name, &e);
    let near = nearest_word(name, &[], &VerbHost::installed()).filter(|near| is_slip(name, near));
    if let Some(near) = near.filter(|_| having.is_empty()) {
        return Ok(Unknown::Unread {
            why: "several devtools sessions are running: a tool of that name is looked \
                  up in the one chosen with `--project` or `--endpoint`"
                .to_owned(),
            near,
        });
    }
    // Else the word may well be a tool of the session meant: the session is what
    // to choose.
    Err(naming_one_having(e, name, &having).with_first_hint(format!(
        "`{name}` is not an installed verb; a tool's verb is looked up in the session chosen"
    )))
}

/// The sessions `e` asks to choose from (several, none chosen) that answered and whose
/// tool list as last read (cached) has a tool `name` answers to, by project.
fn having(name: &str, e: &Error) -> Vec<ListedSession> {
    let Some(choice) = e.session_choice() else {
        return Vec::new();
    };
    let mut having: Vec<ListedSession> = choice
        .sessions
        .iter()
        .filter(|c| c.answering)
        .filter(|c| {
            CachedTools::of(&c.endpoint, Some(&c.identity))
                .load()
                .is_some_and(|tools| pick(&tools, name).is_some())
        })
        .cloned()
        .collect();
    having.sort_by(|a, b| a.project.cmp(&b.project));
    having
}

/// `e`, which asks which session is meant, with discovery's hint that repeats the
/// command for the first session listed ("…; for the first: `mur devtools --project P
/// stocktake`") repeating it instead for the first of `having` (those with the tool
/// `name`), and saying so: the first listed may lack it, and the command pasted failed
/// "unknown verb". `e` as it is when none is known to have it, or it has no such hint.
fn naming_one_having(e: Error, name: &str, having: &[ListedSession]) -> Error {
    let (Some(choice), Some(chosen)) = (e.session_choice(), having.first()) else {
        return e;
    };
    let Some(again) = mur_discovery::again(choice, chosen) else {
        return e;
    };
    let which = match having.len() {
        1 => format!(
            "of `{}`'s session, by its tool list as last read",
            chosen.project
        ),
        n => format!("of {n} of them, by their tool lists as last read; for the first"),
    };
    let old = mur_discovery::with_the_first(choice);
    let new = format!("{}; `{name}` is a tool {which}: `{again}`", choice.choose);
    e.replacing_hint(&old, new)
}

/// `name` is no installed verb, host command, or tool of the session: the error says
/// so, first naming the word the user most likely meant when one is close.
pub fn unknown_verb(name: &str, unknown: &Unknown, devtools: &str) -> Error {
    // No other word is nearer than the method.
    let method = mcp_method(name)
        .map(|method| format!("an MCP method is made with `call`: `{devtools} call {method}`"));
    unknown_word(name, unknown, devtools, method)
}

/// The error of `name`, no verb, with `meant` (else the nearest word) when there is one.
fn unknown_word(name: &str, unknown: &Unknown, devtools: &str, meant: Option<String>) -> Error {
    let message = VerbError::UnknownVerb(name.to_owned());
    let listed = match unknown {
        Unknown::Listed(listed) => listed.as_slice(),
        Unknown::Unread { why, near } => {
            let (_, broken) = VerbHost::installed();
            let error = Error::from(message)
                .with_hint(why.clone())
                .with_first_hint(did_you_mean(near, &broken));
            return match meant {
                Some(meant) => error.with_first_hint(meant),
                None => error,
            };
        }
    };
    // The session was asked: `call NAME` would only be refused in turn.
    let catalog = format!(
        "`{devtools} catalog` lists every verb: the installed ones, mur's own, and one per tool of the session",
    );
    let error = Error::usage(message.to_string());
    // What is sure of the word (the method `call` makes, the tools it would stand for)
    // is said alone: the catalog (3 KB) would only list it among the rest.
    if let Some(meant) = meant.or_else(|| sharing_tools(name, listed)) {
        return error.with_hint(meant);
    }
    let installed = VerbHost::installed();
    match nearest_word(name, listed, &installed) {
        // A slip of the keyboard (`clik`, `clear-todo`) is said alone, as sure.
        Some(word) if is_slip(name, &word) => error.with_hint(did_you_mean(&word, &installed.1)),
        // A guess further off keeps the catalog line after it (user audit AU9 4): the
        // word is likely another verb's, and the one guessed may act, even destroy
        // (`clear '#todo-input'` meant `type --clear`, and was offered `clear-todos`,
        // which empties the list; `check` was offered `click`). An agent given one
        // command follows it; given the catalog too, it has where to look first.
        Some(word) => error
            .with_hint(did_you_mean(&word, &installed.1))
            .with_hint(catalog),
        None => error.with_hint(catalog),
    }
}

/// The verbs of the tools a word that names no verb would stand for, among the tools
/// `listed`: each is a verb under its own name.
fn sharing_tools(name: &str, listed: &[Value]) -> Option<String> {
    let shared = mur_verbs::derived::sharing(listed, name);
    if shared.is_empty() {
        return None;
    }
    let each = shared.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>();
    Some(format!(
        "`{name}` would stand for {} tools, so each is a verb under its own name: {}",
        shared.len(),
        each.join(", ")
    ))
}

/// The families of MCP's methods a client calls (`tools/list`, `resources/read`,
/// `completion/complete`, …): a word in one is a method, not a path (`./x.wasm`).
const METHOD_FAMILIES: [&str; 6] = [
    "tools/",
    "resources/",
    "prompts/",
    "completion/",
    "logging/",
    "tasks/",
];

/// The MCP method a word typed as a verb stands for, as `call` takes it: a method's
/// own name (`tools/list`, `resources/read`), or what a server lists (`tools`,
/// `list-tools`) — what someone who knows MCP types first.
fn mcp_method(name: &str) -> Option<String> {
    let listing = |what: &str| format!("{what}/list");
    match name.to_ascii_lowercase().replace('_', "-").as_str() {
        method if METHOD_FAMILIES.iter().any(|f| method.starts_with(f)) => {
            Some(mur_core::shell_word(name))
        }
        "tools" | "list-tools" => Some(listing("tools")),
        "resources" | "list-resources" => Some(listing("resources")),
        "prompts" | "list-prompts" => Some(listing("prompts")),
        _ => None,
    }
}

/// The installed verb (its index entry broken or not, of `installed`), host command or
/// verb of a tool in `listed` nearest to `name`, case aside
/// ([`mur_core::caseless_meant`]): `CLICK` is `click` as `Click` is.
fn nearest_word(name: &str, listed: &[Value], installed: &Installed) -> Option<String> {
    let tools = mur_verbs::derived::verb_names(listed).into_iter().flatten();
    let words = installed_names(installed)
        .chain(crate::cli::host_verbs())
        .chain(tools);
    mur_core::caseless_meant(name, words)
}

/// The names of the verbs `installed`, their index entry broken or not.
pub fn installed_names(installed: &Installed) -> impl Iterator<Item = String> + '_ {
    let (entries, broken) = installed;
    let entries = entries.iter().map(|e| e.name.clone());
    entries.chain(broken.iter().map(|b| b.name.clone()))
}

/// "did you mean `WORD`?" ([`if_broken`]).
fn did_you_mean(word: &str, broken: &[Broken]) -> String {
    if_broken(format!("did you mean `{word}`?"), word, broken)
}

/// `asked`, a did-you-mean of `word`; where `word` is an installed verb whose index entry
/// is broken (of `broken`), with that, why and its repair, as `verbs list` warns of it:
/// it was left out, and a word meant as it read as no verb at all.
pub fn if_broken(asked: String, word: &str, broken: &[Broken]) -> String {
    match broken.iter().find(|b| b.name == word) {
        Some(broken) => format!("{asked} {}", broken.meant()),
        None => asked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What an MCP user types for a listing or a method is pointed at `call`.
    #[test]
    fn a_listing_or_a_method_typed_as_a_verb_is_called() {
        let hint = |name| {
            let unknown = Unknown::Unread {
                why: "no session".to_owned(),
                near: "tree".to_owned(),
            };
            let unread = unknown_verb(name, &unknown, "mur devtools").hints()[0].clone();
            let listed = unknown_verb(name, &Unknown::Listed(Vec::new()), "mur devtools");
            assert_eq!(listed.hints()[0], unread, "with a session or without");
            unread
        };
        for (typed, method) in [
            ("tools", "tools/list"),
            ("list_tools", "tools/list"),
            ("Resources", "resources/list"),
            ("prompts", "prompts/list"),
            ("resources/read", "resources/read"),
        ] {
            assert!(
                hint(typed).contains(&format!(
                    "an MCP method is made with `call`: `mur devtools call {method}`"
                )),
                "{typed}: {}",
                hint(typed)
            );
        }
        for other in ["clikc", "./x.wasm", "plugins/foo.wasm", "verbs/add"] {
            let other = unknown_verb(other, &Unknown::Listed(Vec::new()), "mur devtools");
            assert!(!other.hints().concat().contains("MCP method"), "{other}");
        }
        assert!(
            hint("tools/call x").contains("`mur devtools call 'tools/call x'`"),
            "a word pasted as one"
        );
    }

    /// Among several sessions, the command repeated names the first that has the tool, by
    /// project (by endpoint when another listed is of its project too), with the words
    /// typed; discovery's hint stays as it was when none has it, the command is not known,
    /// or the error lists no sessions to choose from.
    #[test]
    fn the_command_repeated_names_a_session_that_has_the_tool() {
        let session = |project: &str, port: u16| ListedSession {
            endpoint: format!("http://127.0.0.1:{port}/mcp"),
            project: project.to_owned(),
            identity: format!("{port}  "),
            answering: true,
        };
        let (a, b, b2) = (session("/a", 1), session("/my b", 2), session("/my b", 3));
        let choose = "choose one with `--project PATH` or `--endpoint URL`";
        let typed = ["take", "--n", "x y"].map(String::from).to_vec();
        // As discovery says it: the hint, and what it says as data.
        let error = |sessions: &[&ListedSession], command: &[String]| {
            let choice = mur_core::SessionChoice {
                choose: choose.to_owned(),
                sessions: sessions.iter().map(|&c| c.clone()).collect(),
                command: command.to_vec(),
            };
            Error::usage("2 live devtools sessions found")
                .with_hint(mur_discovery::with_the_first(&choice))
                .with_session_choice(choice)
        };
        let first = format!("{choose}; for the first: `mur devtools --project /a take --n 'x y'`");
        assert_eq!(
            error(&[&a, &b], &typed).hints(),
            std::slice::from_ref(&first)
        );
        assert_eq!(
            naming_one_having(error(&[&a, &b], &typed), "take", std::slice::from_ref(&b)).hints(),
            [format!(
                "{choose}; `take` is a tool of `/my b`'s session, by its tool list as last \
                 read: `mur devtools --project '/my b' take --n 'x y'`"
            )]
        );
        let shared = [&a, &b, &b2];
        let having = [b.clone(), b2.clone()];
        assert_eq!(
            naming_one_having(error(&shared, &typed), "take", &having).hints(),
            [format!(
                "{choose}; `take` is a tool of 2 of them, by their tool lists as last read; \
                 for the first: `mur devtools --endpoint http://127.0.0.1:2/mcp take --n 'x y'`"
            )]
        );
        assert_eq!(
            naming_one_having(error(&shared, &typed), "take", &[]).hints(),
            [first]
        );
        assert_eq!(
            naming_one_having(error(&shared, &[]), "take", &having).hints(),
            [choose]
        );
        let other = Error::usage("`--endpoint x` is not on loopback").with_hint("start the app");
        assert_eq!(
            naming_one_having(other, "take", &having).hints(),
            ["start the app"]
        );
    }
}
