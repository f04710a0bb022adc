//! The `call` command a hint writes to reach a tool of the session, ready to paste:
//! `mur devtools call NAME --args '{…}'`, or, for a name `call` sends as a JSON-RPC
//! method (one with a `/`, and `ping`: `call --help`), `call tools/call` with the name
//! in its params. Below the commands: each that writes such a hint uses it, as does
//! `call` to tell a method from a tool.

use serde_json::Value;

/// Longer arguments are written `--args JSON` in a hint, which stays one readable line.
pub const MAX_HINT_ARGUMENTS: usize = 200;

/// Whether `call NAME` sends NAME as a method, not as a tool's name: a NAME with a `/`,
/// and `ping` (MCP's liveness check). A tool of such a name is called with `call
/// tools/call`.
pub fn sent_as_method(name: &str) -> bool {
    name == "ping" || name.contains('/')
}

/// Whether `call NAME` with this name, as a hint writes it, reaches the tool of that
/// name: not a method ([`sent_as_method`]), not empty (`call` refuses an empty NAME),
/// not beginning with `-` (an option to the parser: `call --help` prints call's help),
/// and not [`unseen`](mur_core::text::unseen): holding a control or a zero-width space
/// (stderr shows it escaped, or not at all, so the line as read is not the name), or
/// only blanks (`" "`, U+3164, which read as no name). Any other tool is called through
/// `call tools/call`, its name [`quoted`].
pub fn called_by_name(name: &str) -> bool {
    !name.starts_with('-') && !sent_as_method(name) && !mur_core::text::unseen(name)
}

/// `name` as a JSON string whose every [`blank`](mur_core::text::blank) character but the
/// space is an escape (`"\u200b"`, `"\u3164"`, `""`): what a reader sees is the name,
/// and the text pasted into `--args` is that name again.
pub fn quoted(name: &str) -> String {
    let escaped = |c: char| c != ' ' && mur_core::text::blank(c);
    let json = Value::from(name).to_string();
    if !json.chars().any(escaped) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if !escaped(c) {
            out.push(c);
            continue;
        }
        // JSON escapes a code unit of UTF-16: one past U+FFFF is a surrogate pair.
        let mut units = [0; 2];
        for unit in c.encode_utf16(&mut units) {
            out.push_str(&format!("\\u{unit:04x}"));
        }
    }
    out
}

/// The tool's arguments, as a hint's `call` writes them.
#[derive(Clone, Copy)]
pub enum Arguments<'a> {
    /// None: the line names the tool alone (`call NAME`).
    None,
    /// Left to the reader: `--args '{…}'`.
    Elided,
    /// These, whole (`JSON` in their place when they are long); none written when empty.
    Given(&'a Value),
}

/// `{devtools} call …` that calls `tool` with `arguments`; `devtools` is the command's
/// start, `mur devtools` with the options that chose the session
/// ([`mur_core::Settings::devtools_command`]).
pub fn call_line(devtools: &str, tool: &str, arguments: Arguments<'_>) -> String {
    let json = match arguments {
        Arguments::Given(given) if given.as_object().is_some_and(|o| o.is_empty()) => None,
        Arguments::Given(given) => Some(given.to_string()),
        Arguments::None | Arguments::Elided => None,
    };
    let json = json.map(|json| match json.len() > MAX_HINT_ARGUMENTS {
        true => "JSON".to_owned(),
        false => json,
    });
    if !called_by_name(tool) {
        let arguments = match (arguments, &json) {
            (Arguments::None, _) => String::new(),
            (Arguments::Elided, _) => r#","arguments":{…}"#.to_owned(),
            (Arguments::Given(_), Some(json)) => format!(r#","arguments":{json}"#),
            (Arguments::Given(_), None) => r#","arguments":{}"#.to_owned(),
        };
        // Written by hand: the name first, as a reader looks for it.
        let params = format!(r#"{{"name":{}{arguments}}}"#, quoted(tool));
        return format!(
            "{devtools} call tools/call --args {}",
            mur_core::shell_word(&params)
        );
    }
    let tool = mur_core::shell_word(tool);
    match (arguments, json) {
        (Arguments::Elided, _) => format!("{devtools} call {tool} --args '{{…}}'"),
        (_, None) => format!("{devtools} call {tool}"),
        (_, Some(json)) => format!(
            "{devtools} call {tool} --args {}",
            mur_core::shell_word(&json)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_tool_is_called_by_name_and_one_named_like_a_method_through_tools_call() {
        let line = |tool, arguments| call_line("mur devtools", tool, arguments);
        let (empty, quoted) = (json!({}), json!({"note": "it's"}));
        assert_eq!(line("state", Arguments::None), "mur devtools call state");
        assert_eq!(
            line("say it", Arguments::Elided),
            "mur devtools call 'say it' --args '{…}'"
        );
        assert_eq!(
            line("echo", Arguments::Given(&quoted)),
            r#"mur devtools call echo --args '{"note":"it'\''s"}'"#
        );
        assert_eq!(
            line("echo", Arguments::Given(&empty)),
            "mur devtools call echo"
        );
        assert_eq!(
            line("inventory/list", Arguments::None),
            r#"mur devtools call tools/call --args '{"name":"inventory/list"}'"#
        );
        assert_eq!(
            line("/session", Arguments::Elided),
            r#"mur devtools call tools/call --args '{"name":"/session","arguments":{…}}'"#
        );
        assert_eq!(
            line("ping", Arguments::Given(&empty)),
            r#"mur devtools call tools/call --args '{"name":"ping","arguments":{}}'"#
        );
        let long = json!({ "message": "x".repeat(MAX_HINT_ARGUMENTS) });
        assert_eq!(
            line("a/b", Arguments::Given(&long)),
            r#"mur devtools call tools/call --args '{"name":"a/b","arguments":JSON}'"#
        );
        assert_eq!(
            line("", Arguments::None),
            r#"mur devtools call tools/call --args '{"name":""}'"#
        );
        assert_eq!(
            line("--help", Arguments::None),
            r#"mur devtools call tools/call --args '{"name":"--help"}'"#
        );
        assert_eq!(
            line("echo", Arguments::Given(&long)),
            "mur devtools call echo --args JSON"
        );
    }

    /// A name with a character one cannot see (a zero-width space, a control) is given
    /// in `tools/call`'s params, each such character an escape JSON reads back.
    #[test]
    fn a_name_holding_an_invisible_character_is_called_through_tools_call() {
        let line = |tool| call_line("mur devtools", tool, Arguments::None);
        assert_eq!(
            line("\u{200b}"),
            r#"mur devtools call tools/call --args '{"name":"\u200b"}'"#
        );
        assert_eq!(
            line("a\u{7}\u{feff}b\u{e0041}"),
            r#"mur devtools call tools/call --args '{"name":"a\u0007\ufeffb\udb40\udc41"}'"#
        );
        for name in ["\u{200b}", "x\u{200d}y\u{9b}", "\u{e0041}", "\"\\"] {
            let read: Value = serde_json::from_str(&quoted(name)).expect("JSON");
            assert_eq!(read, name, "{name:?}");
        }
        assert_eq!(quoted(""), r#""""#);
    }
}
