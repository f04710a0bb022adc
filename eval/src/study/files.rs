//! The files of a study's output directory: their names, how each is written, and which
//! directories a study may write into — a new or empty one, or a study's own; never one
//! holding someone's files, which its reports would overwrite.

use std::path::Path;

use mur_core::{Error, Result};

/// The results file of a study's output directory.
pub const RESULTS: &str = "results.jsonl";

/// The study's record in its output directory.
pub const META: &str = "study.json";

/// The lock file a running study holds in its directory.
pub const LOCK: &str = "study.lock";

/// The study's side-by-side transcripts, beside `report.md`.
pub const TRANSCRIPTS_FILE: &str = "transcripts.md";

/// Names the temporary directory the running study makes its runs in, so that the
/// next command over a study killed between runs removes it (no run's `live` file
/// names it then).
pub const LIVE_ROOT: &str = "live-root";

/// Everything a study writes at the top of its output directory. A study that failed
/// before it could record `study.json` (a condition whose verbs would not install) has
/// left some of these, its lock among them: the corrected command takes the directory.
pub const OWN: [&str; 12] = [
    LOCK,
    LIVE_ROOT,
    META,
    RESULTS,
    "runs",
    // The verbs installed for its runs, compiled once.
    crate::compiled::STORE,
    "conditions",
    // Where an older mur-eval listed the tool schemas (now in the temporary directory).
    "schemas",
    "tools-list.json",
    "report.md",
    "report.csv",
    TRANSCRIPTS_FILE,
];

/// Whether a study may write into `out`: missing, empty, one holding a study's record
/// (`study.json`), or one holding only what a study that never got as far as recording
/// it wrote (its lock among them). Anything else is a usage error, before anything is
/// written there: a study writes `report.md`, `runs/`, `conditions/` … over whatever
/// has those names.
pub fn check_out(out: &Path) -> Result<()> {
    let entries = match std::fs::read_dir(out) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(Error::usage(format!(
                "cannot read the output directory `{}`: {e}",
                out.display()
            )));
        }
    };
    let names: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let meta = out.join(META);
    let a_study = if names.iter().any(|n| n == META) {
        super::journal::Meta::read(&meta).is_ok()
    } else {
        names.is_empty()
            || (names.iter().any(|n| n == LOCK) && names.iter().all(|n| OWN.contains(&n.as_str())))
    };
    if a_study {
        return Ok(());
    }
    Err(Error::usage(format!(
        "`{}` is not empty and holds no study (no readable `{META}`): a study writes into a new or empty directory, or an earlier study's",
        out.display()
    ))
    .with_hint("name a new directory with `--out`; nothing in this one was touched"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("read")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_directory_with_someone_elses_files_is_refused_and_a_studys_taken() {
        let dir = tempfile::tempdir().expect("tempdir");
        // Missing, then empty.
        let out = dir.path().join("out");
        check_out(&out).expect("a new directory");
        std::fs::create_dir(&out).expect("dir");
        check_out(&out).expect("an empty directory");
        // Someone's notes, or their own report.md (a name a study writes), or a
        // `study.json` that is not a study's record: refused, untouched.
        for (name, text) in [
            ("notes.txt", "mine"),
            ("report.md", "my report"),
            (META, "{\"mine\": true}"),
        ] {
            let foreign = dir.path().join(name.replace('.', "-"));
            std::fs::create_dir(&foreign).expect("dir");
            std::fs::write(foreign.join(name), text).expect("write");
            let error = check_out(&foreign).expect_err("refused");
            assert_eq!(error.exit_code(), 1, "{name}");
            assert_eq!(
                error.message(),
                format!(
                    "`{}` is not empty and holds no study (no readable `study.json`): a study \
                     writes into a new or empty directory, or an earlier study's",
                    foreign.display()
                )
            );
            assert_eq!(
                error.hints(),
                ["name a new directory with `--out`; nothing in this one was touched"]
            );
            assert_eq!(entries(&foreign), [name]);
        }
        // What a study left before it recorded study.json, then a recorded study with
        // its reports and a page the user asked for inside it.
        std::fs::write(out.join(LOCK), "").expect("lock");
        std::fs::create_dir(out.join("conditions")).expect("dir");
        check_out(&out).expect("a study that never started");
        let meta = r#"{"schema":"mur-eval-study/1","seed":3,"conditions":["mcp"],"tasks":["a"],"repeats":2,"agent":"x","tokenizer":"o200k_base"}"#;
        std::fs::write(out.join(META), meta).expect("meta");
        std::fs::write(out.join("report.html"), "<html>").expect("page");
        check_out(&out).expect("a study's directory");
    }
}
