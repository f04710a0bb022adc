//! docs/server.md shows the same Rust example as `mur_server::run`'s doc test
//! (which `cargo test -p mur-server --doc` compiles), so the page cannot drift.

use mur_e2e::plugins::repo_root;

/// The first ```rust block of a markdown page.
fn rust_block(markdown: &str) -> String {
    let start = markdown.find("```rust\n").expect("a ```rust block") + "```rust\n".len();
    let end = markdown[start..].find("```").expect("closing fence") + start;
    markdown[start..end].to_owned()
}

/// The ```no_run example in the doc comment of server/src/entry.rs, unprefixed.
fn doc_example(source: &str) -> String {
    let lines: Vec<&str> = source
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("///"))
        .collect();
    let start = lines
        .iter()
        .position(|l| l.trim() == "```no_run")
        .expect("a no_run doc example")
        + 1;
    let end = lines[start..]
        .iter()
        .position(|l| l.trim() == "```")
        .expect("closing fence")
        + start;
    lines[start..end]
        .iter()
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect()
}

#[test]
fn the_server_page_shows_the_compiled_doc_example() {
    let page = std::fs::read_to_string(repo_root().join("docs/server.md")).expect("docs/server.md");
    let entry = std::fs::read_to_string(repo_root().join("server/src/entry.rs"))
        .expect("server/src/entry.rs");
    assert_eq!(rust_block(&page), doc_example(&entry));
}
