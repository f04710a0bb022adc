//! `mur devtools verbs new <name>`: a standalone Rust crate for a new verb — the
//! verb interface (wit/verb.wit, built in), a Cargo.toml using wit-bindgen
//! directly and a lib.rs of under 50 lines — that builds with
//! `cargo build --release --target wasm32-wasip2` anywhere, no mur checkout needed.

use std::path::{Path, PathBuf};

use crate::VerbError;

/// The verb interface, as this `mur` loads it.
const VERB_WIT: &str = include_str!("../../../wit/verb.wit");
const CARGO_TOML: &str = include_str!("scaffold/Cargo.toml.tmpl");
const LIB_RS: &str = include_str!("scaffold/lib.rs.tmpl");
const README: &str = include_str!("scaffold/README.md.tmpl");

/// The languages a verb is scaffolded in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Rust,
    Python,
    JavaScript,
}

/// A crate `verbs new` created: where it is and what to do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    pub root: PathBuf,
    pub next_steps: String,
}

/// Creates the crate `<dir>/<name>/` (dir: the working directory by default).
/// `reserved` are the words the host answers itself after `mur devtools`: a
/// verb by such a name could never be called, so it is refused here, before
/// anything is written or compiled.
pub fn new_verb(
    name: &str,
    lang: Lang,
    dir: Option<&Path>,
    reserved: &[String],
) -> Result<Created, VerbError> {
    check_name(name)?;
    if lang != Lang::Rust {
        return Err(VerbError::refused(
            format!("`--lang {lang:?}` is not scaffolded yet"),
            "use `--lang rust`",
        ));
    }
    if reserved.iter().any(|word| word == name) {
        return Err(VerbError::refused(
            format!(
                "`{name}` is a word `mur devtools` answers itself; a verb by that name could not be called"
            ),
            format!("pick another name (e.g. `my-{name}`)"),
        ));
    }
    let root = dir.unwrap_or_else(|| Path::new(".")).join(name);
    if root.exists() {
        return Err(VerbError::refused(
            format!("`{}` already exists", root.display()),
            "pick another name, or another place with `--dir PATH`",
        ));
    }
    for (path, text) in files(name) {
        write(&root.join(path), &text)?;
    }
    let root = std::fs::canonicalize(&root).unwrap_or(root);
    let next_steps = next_steps(name, &root);
    Ok(Created { root, next_steps })
}

/// The crate's files and their contents.
fn files(name: &str) -> [(&'static str, String); 5] {
    let fill = |template: &str| {
        template
            .replace("{name}", name)
            .replace("{file}", &wasm_file(name))
    };
    [
        ("Cargo.toml", fill(CARGO_TOML)),
        ("src/lib.rs", fill(LIB_RS)),
        ("wit/verb.wit", VERB_WIT.to_owned()),
        ("README.md", fill(README)),
        (".gitignore", "/target\n".to_owned()),
    ]
}

/// The component cargo builds for verb `name`.
pub fn wasm_file(name: &str) -> String {
    format!("mur_verb_{}.wasm", name.replace('-', "_"))
}

fn check_name(name: &str) -> Result<(), VerbError> {
    if crate::valid_verb_name(name) {
        return Ok(());
    }
    Err(VerbError::refused(
        format!("`{name}` is not a verb name"),
        format!("{} (e.g. `bump`)", crate::VERB_NAME_RULE),
    ))
}

fn write(path: &Path, text: &str) -> Result<(), VerbError> {
    let fail = |e: std::io::Error| {
        VerbError::Registry(format!("could not write `{}`: {e}", path.display()))
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(fail)?;
    }
    std::fs::write(path, text).map_err(fail)
}

fn next_steps(name: &str, root: &Path) -> String {
    format!(
        "created verb `{name}`; next:\n  cd {}\n  cargo build --release --target wasm32-wasip2\n  \
         mur devtools verbs add --force target/wasm32-wasip2/release/{}\n  mur devtools {name} --help",
        root.display(),
        wasm_file(name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verb_is_under_fifty_lines_and_named_everywhere() {
        let files = files("bump");
        let lib = &files[1].1;
        assert!(
            lib.lines().count() < 50,
            "lib.rs has {} lines",
            lib.lines().count()
        );
        assert!(lib.contains("name: \"bump\"") && !lib.contains("{name}"));
        assert!(files[0].1.contains("name = \"mur-verb-bump\""));
        assert!(files[3].1.contains("mur_verb_bump.wasm"));
        assert_eq!(files[2].1, VERB_WIT);
    }

    #[test]
    fn names_are_words() {
        for good in ["bump", "click-twice", "a2"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in ["", "Bump", "-x", "x-", "two words", "../up", "x_y"] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn an_existing_directory_is_left_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("bump")).expect("dir");
        assert!(matches!(
            new_verb("bump", Lang::Rust, Some(dir.path()), &[]),
            Err(VerbError::Refused { .. })
        ));
        assert!(
            std::fs::read_dir(dir.path().join("bump"))
                .expect("dir")
                .next()
                .is_none()
        );
    }

    #[test]
    fn reserved_and_malformed_names_are_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().expect("tempdir");
        let reserved = vec!["call".to_owned(), "verbs".to_owned()];
        for name in ["call", "verbs", "Bad", "trailing-", "two--dashes"] {
            let err = new_verb(name, Lang::Rust, Some(dir.path()), &reserved).expect_err(name);
            assert!(matches!(err, VerbError::Refused { .. }), "{name}: {err}");
        }
        assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 0);
    }

    #[test]
    fn dashes_become_underscores_in_the_file_name() {
        assert_eq!(wasm_file("click-twice"), "mur_verb_click_twice.wasm");
    }
}
