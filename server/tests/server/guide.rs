//! docs/server.md, the embedder's guide, against the truth it describes: every
//! standard verb (`plugins/<verb>/src/lib.rs`, its `About`) has its row in the
//! page's table of standard tools, naming the tool the verb calls, and the page
//! points at no document the repository does not have.

use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root")
        .to_owned()
}

/// The first string literal after `key: ` in `source`.
fn field<'a>(source: &'a str, key: &str) -> Option<&'a str> {
    let at = source.find(&format!("{key}: \""))? + key.len() + 3;
    let len = source[at..].find('"')?;
    Some(&source[at..at + len])
}

/// (verb, tool) of every standard verb: each plugin crate whose `About` names both.
fn standard_verbs() -> Vec<(String, String)> {
    let mut verbs = Vec::new();
    let plugins = repo_root().join("plugins");
    for entry in std::fs::read_dir(&plugins).expect("plugins/") {
        let lib = entry.expect("entry").path().join("src/lib.rs");
        let Ok(source) = std::fs::read_to_string(&lib) else {
            continue;
        };
        let Some(about) = source.find("About {") else {
            continue;
        };
        let about = &source[about..];
        if let (Some(name), Some(tool)) = (field(about, "name"), field(about, "tool")) {
            verbs.push((name.to_owned(), tool.to_owned()));
        }
    }
    verbs.sort();
    verbs
}

/// The cells of each row of the page's table of standard tools.
fn table_rows(page: &str) -> Vec<Vec<String>> {
    let section = page
        .split("\n## The standard tools")
        .nth(1)
        .expect("a section `## The standard tools`");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter(|line| line.starts_with('|'))
        .map(|line| {
            line.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_owned())
                .collect()
        })
        .collect()
}

#[test]
fn the_guide_names_the_tool_of_every_standard_verb() {
    let page = std::fs::read_to_string(repo_root().join("docs/server.md")).expect("docs/server.md");
    let verbs = standard_verbs();
    assert!(verbs.len() >= 19, "the standard verbs: {verbs:?}");
    let rows = table_rows(&page);
    for (verb, tool) in &verbs {
        let row = rows.iter().find(|cells| {
            cells.first().is_some_and(|synopsis| {
                synopsis.starts_with(&format!("`{verb} ")) || *synopsis == format!("`{verb}`")
            })
        });
        let row = row.unwrap_or_else(|| panic!("docs/server.md: no row for the verb `{verb}`"));
        assert_eq!(
            row.get(1).map(String::as_str),
            Some(format!("`{tool}`").as_str()),
            "docs/server.md: the verb `{verb}` calls the tool `{tool}`"
        );
    }
}

#[test]
fn the_guide_points_only_at_documents_that_exist() {
    let page = std::fs::read_to_string(repo_root().join("docs/server.md")).expect("docs/server.md");
    for (at, _) in page.match_indices(".md") {
        let start = page[..at]
            .rfind(|c: char| matches!(c, '`' | '(' | '[') || c.is_whitespace())
            .map_or(0, |i| i + 1);
        let name = &page[start..at + 3];
        if name.starts_with("http") {
            continue;
        }
        let exists =
            repo_root().join("docs").join(name).exists() || repo_root().join(name).exists();
        assert!(
            exists,
            "docs/server.md names `{name}`, which the repository does not have"
        );
    }
}
