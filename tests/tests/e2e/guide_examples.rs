//! The agent guide cannot rot: every ```sh block of docs/agents.md runs, in
//! order, against one fresh `mur-sample` session with the standard verbs
//! installed, and must exit as its `# exit N` comment says (no comment: 0) and,
//! where a `# prints OUTPUT` comment quotes its stdout, print that line.
//! `mur devtools guide` prints that same file.

use std::path::{Path, PathBuf};

use mur_e2e::plugins::{self, repo_root};
use mur_e2e::{Output, Sample, Sandbox};

/// One runnable example of the guide.
struct Example {
    line: usize,
    script: String,
    exit: i32,
    /// The stdout its `# prints` comment quotes, a line.
    prints: Option<String>,
}

/// Every ```sh block, with the code its last `# exit N` comment expects.
fn examples(markdown: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut current: Option<Example> = None;
    for (index, line) in markdown.lines().enumerate() {
        match (&mut current, line.trim_end()) {
            (None, "```sh") => {
                current = Some(Example {
                    line: index + 1,
                    script: String::new(),
                    exit: 0,
                    prints: None,
                })
            }
            (Some(_), "```") => found.extend(current.take()),
            (Some(example), text) => {
                if let Some(code) = text.strip_prefix("# exit ") {
                    let digits: String = code.chars().take_while(char::is_ascii_digit).collect();
                    example.exit = digits
                        .parse()
                        .unwrap_or_else(|_| panic!("bad `# exit` on line {}", index + 1));
                }
                if let Some(printed) = text.strip_prefix("# prints ") {
                    example.prints = Some(format!("{printed}\n"));
                }
                example.script.push_str(line);
                example.script.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(current.is_none(), "an unclosed ```sh block");
    found
}

fn guide() -> String {
    std::fs::read_to_string(repo_root().join("docs/agents.md")).expect("read docs/agents.md")
}

/// Runs one example with `bash -eo pipefail` in `dir`, `mur` first on PATH.
fn run(sb: &Sandbox, dir: &Path, example: &Example) -> Output {
    mur_e2e::run(sb.shell_command(&example.script).current_dir(dir))
}

/// A sandbox with the standard verbs and a sample session for `<root>/work/App.csproj`.
fn session() -> (Sandbox, Sample, PathBuf) {
    let sb = Sandbox::new();
    let mut verbs: Vec<PathBuf> = std::fs::read_dir(plugins::standard_dir())
        .expect("standard verbs")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("mur_verb_"))
                && p.extension().is_some_and(|x| x == "wasm")
        })
        .collect();
    verbs.sort();
    plugins::add(&sb, &verbs);
    let project = sb.project("work");
    let sample = sb.start_sample(&project);
    let dir = project.parent().expect("project dir").to_owned();
    (sb, sample, dir)
}

#[test]
fn every_sh_example_in_the_agent_guide_exits_as_annotated() {
    let jq = std::process::Command::new("jq").arg("--version").output();
    assert!(
        jq.is_ok_and(|o| o.status.success()),
        "the guide's examples compose with `jq`: install it (apt-get install jq)"
    );
    let examples = examples(&guide());
    assert!(
        examples.len() >= 15,
        "only {} examples found",
        examples.len()
    );
    assert!(examples.iter().any(|e| e.exit == 5) && examples.iter().any(|e| e.exit == 4));
    let (sb, _sample, dir) = session();
    let mut failures = Vec::new();
    for example in &examples {
        let out = run(&sb, &dir, example);
        if out.code != example.exit {
            failures.push(format!(
                "docs/agents.md:{} expected exit {}\n{}\n{out}",
                example.line, example.exit, example.script
            ));
        }
        // A quoted output is what the command prints (it was once quoted with its keys
        // sorted, where mur keeps the server's order).
        if let Some(prints) = &example.prints
            && out.stdout != *prints
        {
            failures.push(format!(
                "docs/agents.md:{} expected stdout {prints:?}\n{}\n{out}",
                example.line, example.script
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} example(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// `guide` prints what driving an app takes, up to the line saying how to print the
/// rest: the eval charges it to the CLI before an agent's first call, and the whole
/// file (20.6 KB) was more than MCP's `tools/list` (17.4 KB). `guide --all` prints it all.
#[test]
fn mur_devtools_guide_prints_the_agent_guide() {
    let sb = Sandbox::new();
    let whole = guide();
    let last = "\nThat is what driving an app takes; `mur devtools guide --all` prints the rest: ";
    let end = whole.find(last).expect("the short guide's last line") + 1;
    let short = &whole[..end + whole[end..].find('\n').expect("a whole line") + 1];
    let out = sb.mur(&["devtools", "guide"]);
    out.assert_code(0).assert_stdout_is(short);
    assert!(short.len() <= 12 * 1024, "{} bytes", short.len());
    // What an agent needs to drive an app is in it: every exit code, the verbs, the
    // selectors that find an element without a tree, and what to do on each error.
    for needed in [
        "| 0 |",
        "| 1 |",
        "| 2 |",
        "| 3 |",
        "| 4 |",
        "| 5 |",
        "| 6 |",
        "| 7 |",
        "| 130, 143, 129 |",
        "mur devtools click '#btn-inc'",
        "mur devtools wait ",
        "mur devtools screenshot --out",
        ":text(\"",
        "[name=\"Increment\"]",
        "`A B`: B anywhere inside A",
        ":nth(N)",
        "## What to do on each error",
    ] {
        assert!(short.contains(needed), "the short guide lacks {needed:?}");
    }
    let all = sb.mur(&["devtools", "guide", "--all"]);
    all.assert_code(0).assert_stdout_is(&whole);
    assert!(whole.len() > short.len() && whole.contains("## The catalog's JSON"));
}

#[test]
fn the_example_reader_reads_blocks_and_exit_codes() {
    let text = "x\n```sh\na\n# exit 5\n```\n```text\nb\n```\n```sh\nc\n```\n";
    let found = examples(text);
    assert_eq!(found.len(), 2);
    assert_eq!(
        (found[0].line, found[0].script.as_str(), found[0].exit),
        (2, "a\n# exit 5\n", 5)
    );
    assert_eq!((found[1].script.as_str(), found[1].exit), ("c\n", 0));
}
