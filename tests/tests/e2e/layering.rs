//! No module imports one that imports it back: every crate of the repository (the
//! workspace, the verb workspaces, the test guests), read from its sources, has a module
//! graph without a cycle. A crate root declares its modules and re-exports their items;
//! what its modules share lives in a module of its own, which they import by name.
//!
//! Hand-written over `syn` because no maintained crate answers this for a source tree:
//! `cargo-modules --acyclic` is a binary built on rust-analyzer (minutes to install),
//! and clippy has no such lint. The module tree is followed from each crate root through
//! its `mod` items (`#[path]` included); an edge is a path that names another module of
//! the crate (`crate::…`, `super::…`, `self::…` or a child's name), in a `use` or
//! anywhere in the code, macros' arguments included. Test code (`#[cfg(test)]`) is left
//! out: a test module's `use super::*` is how Rust tests are written.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::ToTokens;

use mur_testkit::plugins::repo_root;

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let root = repo_root();
    let mut cycles = Vec::new();
    let mut modules = 0;
    for crate_root in crate_roots(&root) {
        let graph = Graph::of_crate(&crate_root);
        modules += graph.edges.len();
        let shown = crate_root.strip_prefix(&root).unwrap_or(&crate_root);
        for cycle in graph.cycles() {
            cycles.push(format!("{}: {}", shown.display(), cycle));
        }
    }
    assert!(
        modules > 100,
        "only {modules} modules were read: is the walk broken?"
    );
    assert!(
        cycles.is_empty(),
        "modules that import each other (a module's `->` lists what it imports of the others):\n{}",
        cycles.join("\n")
    );
}

/// The checker itself finds a cycle between siblings, between a parent and its child
/// (through `super::`, a child's name and the crate root's items), and ignores test code.
#[test]
fn the_checker_sees_what_it_must_and_nothing_else() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("parent")).expect("mkdir");
    let files = [
        (
            "lib.rs",
            "mod a; mod b; mod parent; mod quiet;\npub use parent::Thing;\npub struct Shared;\n",
        ),
        ("a.rs", "pub fn f() { crate::b::g() }\n"),
        ("b.rs", "use crate::{a::f as h};\npub fn g() { h() }\n"),
        (
            "parent/mod.rs",
            "mod child;\npub use child::Thing;\npub fn helper() {}\n",
        ),
        (
            "parent/child.rs",
            "pub struct Thing;\nfn x() { println!(\"{:?}\", super::helper()) }\n",
        ),
        (
            "quiet.rs",
            "pub fn q() -> crate::a::F {}\n#[cfg(test)]\nmod tests { use crate::Shared; }\n\
             #[cfg(all(unix, test))]\nmod unix_tests { use crate::b::g; }\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(src.join(name), text).expect("write");
    }
    let graph = Graph::of_crate(&src.join("lib.rs"));
    assert_eq!(
        graph.cycles(),
        [
            "a -> b; b -> a",
            "parent -> parent::child; parent::child -> parent"
        ]
    );
    // `parent::child` imports no root item, `quiet`'s test does: no cycle with the root;
    // what its tests under `all(unix, test)` import of `b` is no edge either.
    assert_eq!(graph.edges["quiet"], BTreeSet::from(["a".to_owned()]));
    let test_modules: Vec<&String> = graph.edges.keys().filter(|m| m.contains("tests")).collect();
    assert!(test_modules.is_empty(), "read as code: {test_modules:?}");
}

/// Folders never walked: build output, vendored third-party code, npm packages.
const SKIPPED: [&str; 3] = ["target", "vendor", "node_modules"];

/// Each crate's root file below `root`: `src/lib.rs`, `src/main.rs`, `src/bin/*.rs`, and
/// the integration-test crates `tests/*.rs` and `tests/*/main.rs` of every package.
fn crate_roots(root: &Path) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    let mut dirs = vec![root.to_owned()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() && !name.starts_with('.') && !SKIPPED.contains(&name.as_str()) {
                dirs.push(path);
            }
        }
        if !dir.join("Cargo.toml").is_file() {
            continue;
        }
        if let Ok(tests) = std::fs::read_dir(dir.join("tests")) {
            for test in tests.flatten().map(|e| e.path()) {
                let main = test.join("main.rs");
                if main.is_file() {
                    roots.push(main);
                } else if test.extension().is_some_and(|e| e == "rs") {
                    roots.push(test);
                }
            }
        }
        let src = dir.join("src");
        roots.extend(
            ["lib.rs", "main.rs"]
                .map(|f| src.join(f))
                .into_iter()
                .filter(|p| p.is_file()),
        );
        if let Ok(bins) = std::fs::read_dir(src.join("bin")) {
            roots.extend(
                bins.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "rs")),
            );
        }
    }
    roots.sort();
    roots
}

/// A crate's modules (`a::b`, the root as ``) and the other modules each one names.
struct Graph {
    edges: BTreeMap<String, BTreeSet<String>>,
}

/// One module as read: its path and its items (test code left out).
struct Module {
    path: Vec<String>,
    items: Vec<syn::Item>,
}

impl Graph {
    fn of_crate(root_file: &Path) -> Self {
        let mut modules = Vec::new();
        read_file(root_file, Vec::new(), &mut modules);
        let known: BTreeSet<Vec<String>> = modules.iter().map(|m| m.path.clone()).collect();
        let mut edges = BTreeMap::new();
        for module in &modules {
            let mut named = BTreeSet::new();
            for path in referenced_paths(module, &known) {
                if let Some(target) = longest_module(&path, &known)
                    && target != module.path
                {
                    named.insert(target.join("::"));
                }
            }
            edges.insert(module.path.join("::"), named);
        }
        Self { edges }
    }

    /// Each strongly connected set of more than one module, as `a -> b, c; b -> a`.
    fn cycles(&self) -> Vec<String> {
        let mut found = Vec::new();
        let mut seen = BTreeSet::new();
        for start in self.edges.keys() {
            if seen.contains(start) {
                continue;
            }
            let reach = self.reachable(start);
            let component: BTreeSet<&String> = reach
                .iter()
                .filter(|m| self.reachable(m).contains(start))
                .collect();
            seen.extend(component.iter().map(|m| (*m).clone()));
            if component.len() > 1 {
                let lines: Vec<String> = component
                    .iter()
                    .map(|m| {
                        let inside: Vec<&str> = self.edges[*m]
                            .iter()
                            .filter(|t| component.contains(t))
                            .map(|t| shown(t))
                            .collect();
                        format!("{} -> {}", shown(m), inside.join(", "))
                    })
                    .collect();
                found.push(lines.join("; "));
            }
        }
        found
    }

    fn reachable(&self, start: &str) -> BTreeSet<String> {
        let mut reach = BTreeSet::new();
        let mut todo = vec![start.to_owned()];
        while let Some(module) = todo.pop() {
            for next in self.edges.get(&module).into_iter().flatten() {
                if reach.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        reach
    }
}

/// The crate root, shown by name.
fn shown(module: &str) -> &str {
    if module.is_empty() {
        "<crate root>"
    } else {
        module
    }
}

/// Reads a module's file and, through its `mod` items, its descendants'.
fn read_file(file: &Path, path: Vec<String>, out: &mut Vec<Module>) {
    let text = std::fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("cannot read `{}`: {e}", file.display()));
    let parsed =
        syn::parse_file(&text).unwrap_or_else(|e| panic!("cannot parse `{}`: {e}", file.display()));
    // `foo.rs`'s children are in `foo/`; `lib.rs`, `main.rs` and `mod.rs`'s beside them.
    let dir = file.parent().expect("a file has a directory");
    let owns_dir = path.is_empty() || file.file_name().is_some_and(|n| n == "mod.rs");
    let children_dir = if owns_dir {
        dir.to_owned()
    } else {
        dir.join(file.file_stem().expect("a file name"))
    };
    read_items(parsed.items, path, file, &children_dir, out);
}

fn read_items(
    items: Vec<syn::Item>,
    path: Vec<String>,
    file: &Path,
    dir: &Path,
    out: &mut Vec<Module>,
) {
    let mut kept = Vec::new();
    for item in items.into_iter().filter(|item| !is_test_only(item)) {
        let syn::Item::Mod(module) = item else {
            kept.push(item);
            continue;
        };
        let name = module.ident.to_string();
        let mut child = path.clone();
        child.push(name.clone());
        match module.content {
            Some((_, inner)) => read_items(inner, child, file, &dir.join(&name), out),
            None => {
                let by_attr =
                    path_attribute(&module.attrs).map(|p| file.parent().expect("dir").join(p));
                let candidates = [
                    dir.join(format!("{name}.rs")),
                    dir.join(&name).join("mod.rs"),
                ];
                let found = by_attr.or_else(|| candidates.into_iter().find(|p| p.is_file()));
                let found = found
                    .unwrap_or_else(|| panic!("no file for `mod {name}` in `{}`", file.display()));
                read_file(&found, child, out);
            }
        }
    }
    out.push(Module { path, items: kept });
}

/// `#[cfg(test)]` on an item, or a `cfg` that holds only under test (`all(test, unix)`).
fn is_test_only(item: &syn::Item) -> bool {
    let attrs: &[syn::Attribute] = match item {
        syn::Item::Mod(m) => &m.attrs,
        syn::Item::Fn(f) => &f.attrs,
        syn::Item::Use(u) => &u.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Struct(s) => &s.attrs,
        syn::Item::Const(c) => &c.attrs,
        syn::Item::Static(s) => &s.attrs,
        syn::Item::Macro(m) => &m.attrs,
        _ => &[],
    };
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Meta>().is_ok_and(|m| requires_test(&m))
    })
}

/// Whether a `cfg` predicate is false outside tests: `test`, or `all(…)` of which one is.
fn requires_test(predicate: &syn::Meta) -> bool {
    match predicate {
        syn::Meta::Path(path) => path.is_ident("test"),
        syn::Meta::List(list) if list.path.is_ident("all") => list
            .parse_args_with(
                syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|all| all.iter().any(requires_test)),
        _ => false,
    }
}

/// `#[path = "…"]`.
fn path_attribute(attrs: &[syn::Attribute]) -> Option<String> {
    attrs
        .iter()
        .find(|a| a.path().is_ident("path"))
        .and_then(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
}

/// Every path in `module` that starts at the crate, a parent, itself or a child,
/// resolved to a path from the crate root.
fn referenced_paths(module: &Module, known: &BTreeSet<Vec<String>>) -> Vec<Vec<String>> {
    let children: BTreeSet<String> = known
        .iter()
        .filter(|k| k.len() == module.path.len() + 1 && k.starts_with(&module.path))
        .map(|k| k.last().expect("a child has a name").clone())
        .collect();
    let mut raw = Vec::new();
    for item in &module.items {
        match item {
            syn::Item::Use(u) => use_paths(&u.tree, Vec::new(), &mut raw),
            other => token_paths(other.to_token_stream(), &mut raw),
        }
    }
    raw.into_iter()
        .filter_map(|segments| resolve(&module.path, &children, segments))
        .collect()
}

/// The paths a `use` tree names (a glob names the module it globs).
fn use_paths(tree: &syn::UseTree, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let with = |name: &syn::Ident| {
        let mut p = prefix.clone();
        p.push(name.to_string());
        p
    };
    match tree {
        syn::UseTree::Path(p) => use_paths(&p.tree, with(&p.ident), out),
        syn::UseTree::Name(n) => out.push(with(&n.ident)),
        syn::UseTree::Rename(r) => out.push(with(&r.ident)),
        syn::UseTree::Glob(_) => out.push(prefix),
        syn::UseTree::Group(g) => g
            .items
            .iter()
            .for_each(|t| use_paths(t, prefix.clone(), out)),
    }
}

/// Paths `a::b::c` in a token stream, braces after `::` (a `use` in a function body)
/// expanded; inside macros' arguments too.
fn token_paths(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < tokens.len() {
        if let TokenTree::Group(g) = &tokens[i] {
            token_paths(g.stream(), out);
            i += 1;
            continue;
        }
        let after_colons = i > 1 && is_colon(&tokens[i - 1]) && is_colon(&tokens[i - 2]);
        if let (TokenTree::Ident(_), false) = (&tokens[i], after_colons) {
            i = path_at(&tokens, i, Vec::new(), out);
        } else {
            i += 1;
        }
    }
}

/// Reads the path that starts at `tokens[i]`; returns where it ends.
fn path_at(
    tokens: &[TokenTree],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    while let Some(TokenTree::Ident(ident)) = tokens.get(i) {
        prefix.push(ident.to_string());
        let colons =
            tokens.get(i + 1).is_some_and(is_colon) && tokens.get(i + 2).is_some_and(is_colon);
        if !colons {
            i += 1;
            break;
        }
        i += 3;
        if let Some(TokenTree::Group(g)) = tokens.get(i)
            && g.delimiter() == Delimiter::Brace
        {
            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
            for part in inner.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')) {
                path_at(part, 0, prefix.clone(), out);
            }
            return i + 1;
        }
    }
    if prefix.len() > 1 {
        out.push(prefix);
    }
    i
}

fn is_colon(token: &TokenTree) -> bool {
    matches!(token, TokenTree::Punct(p) if p.as_char() == ':')
}

/// A path from the crate root for one that starts at `crate`, `self`, `super` or a child
/// of `here`; `None` for any other (another crate's, a local item's).
fn resolve(
    here: &[String],
    children: &BTreeSet<String>,
    segments: Vec<String>,
) -> Option<Vec<String>> {
    let first = segments.first()?;
    let (mut base, rest) = match first.as_str() {
        "crate" => (Vec::new(), &segments[1..]),
        "self" | "super" => (here.to_vec(), &segments[..]),
        name if children.contains(name) => (here.to_vec(), &segments[..]),
        _ => return None,
    };
    let mut rest = rest;
    while let Some(word) = rest.first() {
        match word.as_str() {
            "self" => {}
            "super" => {
                base.pop();
            }
            _ => break,
        }
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The longest known module `path` starts with.
fn longest_module(path: &[String], known: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| known.contains(p))
}
