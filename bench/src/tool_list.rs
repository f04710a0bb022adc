//! A large tool list: what the commands that read a session's whole `tools/list` cost
//! against a server offering 10,000 tools in one page of ~6.5 MB — `catalog`, `catalog
//! --json`, a derived verb's first call (the tool cache emptied before each run) and an
//! unknown verb (looked for among the tools). Each tool is what a real server lists: a
//! name, a sentence of description, an `inputSchema` of four described properties and
//! an annotation.
//! Then `catalog --json` of one tool of 20,000 properties: linear in them, or not.
//! The server is the test kit's loopback stub (`mur_testkit::stub`), its page written
//! once and sent as it is to each `tools/list` (the request's id put in), a one-line
//! result to each `tools/call`; `mur` reaches it by `--endpoint`.

use std::process::Command;
use std::sync::Arc;

use mur_testkit::stub::{Reply, Stub};

use crate::{
    measure,
    runs::Runs,
    setup::{Bench, Result},
    stats::Row,
};

/// How many tools the server offers.
const TOOLS: usize = 10_000;

/// The tool the derived verb calls (the middle one), by its verb name.
const VERB: &str = "search-records-05000";

/// What the server answers a `tools/call`.
const CALLED: &str = r#"{"content":[{"type":"text","text":"0 records"}]}"#;

/// The `tools/list` result: `count` tools, each about 650 bytes.
fn page(count: usize) -> String {
    let tools: Vec<String> = (0..count)
        .map(|at| {
            format!(
                r#"{{"name":"search_records_{at:05}","description":"Searches the records of collection {at} for those matching a query, newest first, and returns at most `limit` of them with a cursor to the next page when there are more.","inputSchema":{{"type":"object","properties":{{"query":{{"type":"string","description":"Words to match in a record's title or body"}},"limit":{{"type":"integer","minimum":1,"maximum":100,"default":20,"description":"The most records returned"}},"cursor":{{"type":"string","description":"Where the previous page ended"}},"oldest_first":{{"type":"boolean","description":"Oldest records first"}}}},"required":["query"]}},"annotations":{{"readOnlyHint":true}}}}"#
            )
        })
        .collect();
    format!(r#"{{"tools":[{}]}}"#, tools.join(","))
}

/// How many properties the one tool of the wide list has: a schema no real tool has,
/// which shows whether reading a tool's options grows with their square (a catalog of
/// one tool of 32,000 properties took 17 s, the second fastest of this session's finds).
const PROPERTIES: usize = 20_000;

/// The `tools/list` result of one tool of `count` string properties.
fn wide_page(count: usize) -> String {
    let properties: Vec<String> = (0..count)
        .map(|at| format!(r#""p{at}":{{"type":"string","description":"field {at}"}}"#))
        .collect();
    format!(
        r#"{{"tools":[{{"name":"wide","inputSchema":{{"type":"object","properties":{{{}}}}}}}]}}"#,
        properties.join(",")
    )
}

/// A server of `page`: each POST answered with its own id, `tools/list` with the page,
/// `tools/call` with [`CALLED`], anything else with `{}`.
fn server(page: String) -> Stub {
    let page: Arc<str> = page.into();
    Stub::serve(move |request| {
        if request.method != "POST" {
            return Reply::empty(405);
        }
        let asked = request.json();
        let result: &str = match asked["method"].as_str() {
            Some("tools/list") => &page,
            Some("tools/call") => CALLED,
            _ => "{}",
        };
        let id = asked["id"].to_string();
        let mut body = Vec::with_capacity(result.len() + id.len() + 40);
        body.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
        body.extend_from_slice(id.as_bytes());
        body.extend_from_slice(br#","result":"#);
        body.extend_from_slice(result.as_bytes());
        body.push(b'}');
        Reply::Respond {
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            body,
        }
    })
}

/// One command measured: its row's name, its words after `--endpoint`, the exit code it
/// ends with, and what is done before each run.
struct Case<'a> {
    name: &'a str,
    words: &'a [&'a str],
    code: i32,
    before: &'a dyn Fn() -> std::io::Result<()>,
}

/// One row per command, each run a warm-up, two memory runs and `runs` timed runs.
pub fn large_tool_list(sandbox: &Bench, runs: usize) -> Result<Vec<Row>> {
    let page = page(TOOLS);
    let size = format!(
        "{} tools, one page of {:.1} MB",
        fmt_count(TOOLS),
        page.len() as f64 / 1e6
    );
    let stub = server(page);
    let endpoint = stub.endpoint();
    let tool_cache = sandbox.cache_dir().join("mur").join("tools");
    let keep = || Ok(());
    let empty_cache = || match std::fs::remove_dir_all(&tool_cache) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    };
    let cases = [
        Case {
            name: "`catalog`",
            words: &["catalog"],
            code: 0,
            before: &keep,
        },
        Case {
            name: "`catalog --json`",
            words: &["catalog", "--json"],
            code: 0,
            before: &keep,
        },
        Case {
            name: "a derived verb's first call (tool cache emptied)",
            words: &[VERB, "--query", "x"],
            code: 0,
            before: &empty_cache,
        },
        Case {
            name: "an unknown verb (exit 1)",
            words: &["no-such-verb"],
            code: 1,
            before: &keep,
        },
    ];
    let mut rows = measured_cases(sandbox, &endpoint, &cases, &size, runs)?;
    let wide = server(wide_page(PROPERTIES));
    let size = format!("one tool of {} properties", fmt_count(PROPERTIES));
    let cases = [Case {
        name: "`catalog --json`, one wide tool",
        words: &["catalog", "--json"],
        code: 0,
        before: &keep,
    }];
    rows.extend(measured_cases(
        sandbox,
        &wide.endpoint(),
        &cases,
        &size,
        runs,
    )?);
    Ok(rows)
}

/// A row for each of `cases` against `endpoint`, noted with the list's `size`.
fn measured_cases(
    sandbox: &Bench,
    endpoint: &str,
    cases: &[Case],
    size: &str,
    runs: usize,
) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for case in cases {
        let command = || {
            let mut command = sandbox.mur(&["--endpoint", endpoint]);
            command.args(case.words);
            command
        };
        let measured = measured(&command, case.code, case.before, runs)
            .map_err(|e| format!("{}: {e}", case.name))?;
        rows.push(Row::from_measured(case.name, &measured).note(size.to_owned()));
    }
    Ok(rows)
}

/// `command`'s runs: a warm-up, two memory runs, then `runs` timed ones, each after
/// `before` and expected to exit with `code`.
fn measured(
    command: &dyn Fn() -> Command,
    code: i32,
    before: &dyn Fn() -> std::io::Result<()>,
    runs: usize,
) -> std::io::Result<Runs> {
    let mut measured = Runs::default();
    before()?;
    measure::run_expect(&mut command(), code)?;
    for _ in 0..2 {
        before()?;
        measured
            .memory
            .push(measure::run_for_memory_expect(&mut command(), code)?);
    }
    for _ in 0..runs {
        before()?;
        measured
            .timed
            .push(measure::run_expect(&mut command(), code)?);
    }
    Ok(measured)
}

/// `count` with a comma between thousands.
fn fmt_count(count: usize) -> String {
    let digits = count.to_string();
    let mut out = String::new();
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page is one JSON object of the tools asked for, each about 650 bytes.
    #[test]
    fn the_page_holds_the_tools_asked_for() {
        let page = page(3);
        assert!(page.starts_with(r#"{"tools":[{"name":"search_records_00000","#));
        assert_eq!(page.matches(r#""inputSchema""#).count(), 3);
        assert!((1_800..2_100).contains(&page.len()), "{}", page.len());
        assert_eq!(
            wide_page(2),
            r#"{"tools":[{"name":"wide","inputSchema":{"type":"object","properties":{"p0":{"type":"string","description":"field 0"},"p1":{"type":"string","description":"field 1"}}}}]}"#
        );
        assert_eq!(fmt_count(10_000), "10,000");
        assert_eq!(fmt_count(999), "999");
    }
}
