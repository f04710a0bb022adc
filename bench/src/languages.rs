//! One row per language a verb can be written in: a warm named verb called
//! against the session, whole process (interleaved with the other languages)
//! and in-process (the runtime's own `-v` account), with what its compiled
//! code weighs.
//!
//! | language | verb | built from |
//! |---|---|---|
//! | Rust | `version` | the standard verbs (plugins/) |
//! | JavaScript | `shout` | tests/guests/js, componentize-js (needs `node`) |
//! | Python | `pyversion` | `verbs new --lang python`, its app.py made a `version` verb, built with the componentize-py of target/verbs-venv (needs `python3`); or `$MUR_BENCH_PYTHON_VERB`, a built `.wasm` |
//!
//! All three call the tool `version` with no arguments, so the rows differ
//! only in the verb runtime. A language whose verb cannot be had is a row
//! that says why, not a failed benchmark.

use std::{
    path::{Path, PathBuf},
    process::Command,
    time::Duration,
};

use mur_testkit::plugins;

use crate::{
    latency::{Order, Rounds},
    measure,
    runs::Runs,
    setup::{Bench, Result},
    stats::{Row, ms, percentile},
};

/// The in-process target for a warm Python or JavaScript verb (issue 11).
const BIG_VERB_TARGET: Duration = Duration::from_millis(15);

/// A language's verb, or why there is none to measure.
struct Language {
    name: &'static str,
    verb: std::result::Result<Verb, String>,
}

struct Verb {
    /// The word after `mur devtools`.
    name: String,
    /// Its component, when it was installed here (the standard verbs already are).
    file: Option<PathBuf>,
}

/// Rows for Rust, JavaScript and Python verbs: `runs` interleaved warm calls
/// each, then `runs` more under `-v` for the in-process split.
pub fn verb_languages(sandbox: &Bench, runs: usize, order: Order) -> Result<Vec<Row>> {
    let mut languages = vec![
        Language {
            name: "Rust",
            verb: Ok(Verb {
                name: "version".into(),
                file: Some(plugins::standard("version")),
            }),
        },
        Language {
            name: "JavaScript",
            verb: javascript_verb(),
        },
        Language {
            name: "Python",
            verb: python_verb(sandbox),
        },
    ];
    let mut installs = Vec::new();
    for language in &mut languages {
        let install = match &mut language.verb {
            Ok(verb) if verb.name != "version" => install(sandbox, verb),
            _ => Ok(None),
        };
        match install {
            Ok(elapsed) => installs.push(elapsed),
            Err(why) => {
                language.verb = Err(why);
                installs.push(None);
            }
        }
    }
    let ready: Vec<(usize, &Verb)> = languages
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.verb.as_ref().ok().map(|v| (i, v)))
        .collect();
    // Warm the caches; the warm-ups after the first measure memory
    // (`measure::run_for_memory`).
    let mut samples: Vec<Runs> = vec![Runs::default(); languages.len()];
    for &(i, verb) in &ready {
        let _ = measure::run(&mut sandbox.mur(&[&verb.name]));
        for _ in 0..2 {
            let memory = measure::run_for_memory(&mut sandbox.mur(&[&verb.name])).map_err(io)?;
            samples[i].memory.push(memory);
        }
    }
    let mut rounds = Rounds::new(ready.len(), order);
    for _ in 0..runs {
        for &at in rounds.next_round() {
            let (i, verb) = ready[at];
            samples[i]
                .timed
                .push(measure::run(&mut sandbox.mur(&[&verb.name])).map_err(io)?);
        }
    }
    let mut rows = Vec::new();
    for (i, language) in languages.iter().enumerate() {
        let verb = match &language.verb {
            Ok(verb) => verb,
            Err(why) => {
                rows.push(
                    Row::from_durations(format!("{}: (no verb)", language.name), Vec::new())
                        .note(format!("skipped: {why}")),
                );
                continue;
            }
        };
        let failed = samples[i]
            .timed
            .iter()
            .filter(|run| run.exit_code != 0)
            .count();
        let split = in_process(sandbox, &verb.name, runs);
        let mut note = split.describe();
        if language.name != "Rust" {
            let met = split.total().is_some_and(|t| t <= BIG_VERB_TARGET);
            note.push_str(&format!(
                "; target in-process ≤ {} ms: {}",
                BIG_VERB_TARGET.as_millis(),
                if met { "met" } else { "missed" }
            ));
        }
        if let Some(file) = &verb.file {
            note.push_str(&format!("; {}", sizes(sandbox, file)));
        }
        if let Some(add) = installs[i] {
            note.push_str(&format!("; verbs add {:.1} s", add.as_secs_f64()));
        }
        if failed > 0 {
            note.push_str(&format!("; {failed} non-zero exits"));
        }
        rows.push(
            Row::from_measured(
                format!("{}: mur devtools {} (warm)", language.name, verb.name),
                &samples[i],
            )
            .note(note),
        );
    }
    Ok(rows)
}

fn io(err: std::io::Error) -> String {
    err.to_string()
}

/// The JavaScript test verb, componentized once (tests/guests/js).
fn javascript_verb() -> std::result::Result<Verb, String> {
    if !on_path("node") || !on_path("npm") {
        return Err("node and npm are needed to build tests/guests/js".into());
    }
    // The test kit's builder asserts; a failed build is a skipped row here.
    let built = std::panic::catch_unwind(plugins::js_verb)
        .map_err(|_| "componentizing tests/guests/js failed (see above)".to_owned())?;
    Ok(Verb {
        name: "shout".into(),
        file: Some(built.to_owned()),
    })
}

/// The Python verb: `$MUR_BENCH_PYTHON_VERB` when set (a built component
/// whose tool takes no arguments, as `version`), else scaffolded by `verbs new
/// --lang python` and built (cached in target/bench-verbs by its sources, since
/// componentize-py takes most of a minute).
fn python_verb(sandbox: &Bench) -> std::result::Result<Verb, String> {
    if let Some(path) = std::env::var_os("MUR_BENCH_PYTHON_VERB") {
        return Ok(Verb {
            name: String::new(), // from `verbs add`
            file: Some(PathBuf::from(path)),
        });
    }
    if !on_path("python3") {
        return Err("python3 is needed to build a Python verb".into());
    }
    let src = sandbox.root().join("src");
    let new = sandbox
        .mur(&["verbs", "new", "pyversion", "--lang", "python", "--dir"])
        .arg(&src)
        .output()
        .map_err(io)?;
    if !new.status.success() {
        return Err(format!(
            "`verbs new --lang python` failed: {}",
            String::from_utf8_lossy(&new.stderr).trim()
        ));
    }
    let project = src.join("pyversion");
    std::fs::write(project.join("app.py"), PYTHON_APP).map_err(io)?;
    let built = python_component(&project)?;
    Ok(Verb {
        name: "pyversion".into(),
        file: Some(built),
    })
}

/// A Python verb calling `version` with no arguments, printing the result as
/// the kit does by default.
const PYTHON_APP: &str = r#"import kit


class Verb(kit.Verb):
    name = "pyversion"
    tool = "version"
    summary = "The session's version, from Python (benchmark verb)"


WitWorld = kit.export(Verb)
"#;

/// The project's `build.sh` output, cached by the project's sources.
fn python_component(project: &Path) -> std::result::Result<PathBuf, String> {
    use std::hash::{Hash as _, Hasher as _};
    let mut files: Vec<PathBuf> = Vec::new();
    let mut dirs = vec![project.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).map_err(io)?.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for file in &files {
        file.strip_prefix(project).unwrap_or(file).hash(&mut hasher);
        std::fs::read(file).map_err(io)?.hash(&mut hasher);
    }
    let cache = plugins::repo_root().join("target/bench-verbs");
    let built = cache.join(format!("pyversion-{:016x}.wasm", hasher.finish()));
    if built.exists() {
        return Ok(built);
    }
    crate::output::note("building a Python verb with componentize-py (about a minute)…");
    let bin = componentize_py()?;
    std::fs::create_dir_all(&cache).map_err(io)?;
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .map_err(|err| err.to_string())?;
    let part = cache.join(format!("pyversion-{}.wasm.part", std::process::id()));
    let status = Command::new(project.join("build.sh"))
        .arg(&part)
        .current_dir(project)
        .env("PATH", path)
        .stdout(std::process::Stdio::null())
        .status()
        .map_err(io)?;
    if !status.success() {
        return Err(format!("the Python verb's build.sh failed ({status})"));
    }
    std::fs::rename(&part, &built).map_err(io)?;
    Ok(built)
}

/// The directory of componentize-py: target/verbs-venv (which .ci/run and the
/// scaffold tests make), made here from the scaffold's requirements when missing.
fn componentize_py() -> std::result::Result<PathBuf, String> {
    let root = plugins::repo_root();
    let venv = root.join("target/verbs-venv");
    let bin = venv.join("bin");
    if bin.join("componentize-py").exists() {
        return Ok(bin);
    }
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .map_err(io)?
        .success()
        && Command::new(bin.join("pip"))
            .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
            .arg(root.join("crates/verbs/src/scaffold/python/requirements.txt"))
            .status()
            .map_err(io)?
            .success();
    if made {
        Ok(bin)
    } else {
        Err("cannot install componentize-py into target/verbs-venv".into())
    }
}

/// `verbs add --force` the verb's file, learning its name from what `mur`
/// says (`added verb `NAME` (tool `…`)`). Returns how long the add took.
fn install(sandbox: &Bench, verb: &mut Verb) -> std::result::Result<Option<Duration>, String> {
    let Some(file) = &verb.file else {
        return Ok(None);
    };
    let started = std::time::Instant::now();
    let out = sandbox
        .mur(&["verbs", "add", "--force"])
        .arg(file)
        .output()
        .map_err(io)?;
    let elapsed = started.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "`verbs add {}` failed: {}",
            file.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let name = stdout
        .split('`')
        .nth(1)
        .filter(|n| !n.is_empty())
        .ok_or_else(|| format!("`verbs add` named no verb: {stdout}"))?;
    verb.name = name.to_owned();
    Ok(Some(elapsed))
}

/// Medians of the runtime's `verb timings:` phases over `runs` calls under `-v`.
struct Split {
    /// (phase, median), in the order `mur` prints them.
    phases: Vec<(String, Duration)>,
}

impl Split {
    fn total(&self) -> Option<Duration> {
        self.phases
            .iter()
            .find(|(phase, _)| phase == "total")
            .map(|(_, d)| *d)
    }

    fn describe(&self) -> String {
        let Some(total) = self.total() else {
            return "in-process split not reported".into();
        };
        let parts: Vec<String> = self
            .phases
            .iter()
            .filter(|(phase, _)| phase != "total")
            .map(|(phase, d)| format!("{phase} {}", ms(*d)))
            .collect();
        format!("in-process {} ms ({})", ms(total), parts.join(", "))
    }
}

fn in_process(sandbox: &Bench, verb: &str, runs: usize) -> Split {
    let mut by_phase: Vec<(String, Vec<Duration>)> = Vec::new();
    for _ in 0..runs {
        let Ok(out) = sandbox.mur(&["-v", verb]).output() else {
            continue;
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        let Some(line) = stderr
            .lines()
            .find_map(|line| line.split_once("verb timings:").map(|(_, rest)| rest))
        else {
            continue;
        };
        for (phase, spent) in parse_timings(line) {
            match by_phase.iter_mut().find(|(p, _)| *p == phase) {
                Some((_, samples)) => samples.push(spent),
                None => by_phase.push((phase, vec![spent])),
            }
        }
    }
    Split {
        phases: by_phase
            .into_iter()
            .map(|(phase, samples)| (phase, percentile(&samples, 50.0)))
            .collect(),
    }
}

/// `engine 0.32 ms, cache lookup 0.37 ms, …, total 1.41 ms` as (phase, duration).
fn parse_timings(line: &str) -> Vec<(String, Duration)> {
    line.split(',')
        .filter_map(|part| {
            let part = part.trim().strip_suffix(" ms")?;
            let (phase, value) = part.rsplit_once(' ')?;
            let millis: f64 = value.parse().ok()?;
            Some((phase.to_owned(), Duration::from_secs_f64(millis / 1000.0)))
        })
        .collect()
}

/// "component 12.0 MB, compiled 41.2 MB": the verb file and, when one entry
/// in the compile cache is exactly that verb's, its compiled code.
fn sizes(sandbox: &Bench, file: &Path) -> String {
    let mb = |bytes: u64| format!("{:.1} MB", bytes as f64 / 1e6);
    let component = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    let compiled = compiled_size(sandbox, file);
    match compiled {
        Some(bytes) => format!("component {}, compiled {}", mb(component), mb(bytes)),
        None => format!("component {}", mb(component)),
    }
}

fn compiled_size(sandbox: &Bench, file: &Path) -> Option<u64> {
    let sha = sha256_of(file)?;
    let dir = sandbox.cache_dir().join("mur/verbs");
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&sha))
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .max()
}

/// The sha256 of a file by `sha256sum`, which the bench has no crate for.
fn sha256_of(file: &Path) -> Option<String> {
    let out = Command::new("sha256sum").arg(file).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    text.split_whitespace().next().map(str::to_owned)
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timings_line_reads_as_phases() {
        let phases = parse_timings(" engine 0.32 ms, cache lookup 0.37 ms, total 1.41 ms");
        assert_eq!(
            phases,
            vec![
                ("engine".to_owned(), Duration::from_secs_f64(0.00032)),
                ("cache lookup".to_owned(), Duration::from_secs_f64(0.00037)),
                ("total".to_owned(), Duration::from_secs_f64(0.00141)),
            ]
        );
    }
}
