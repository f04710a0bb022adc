//! Each condition a study runs, made ready once: its `mur` (behind `mur-eval-capture`)
//! and verbs installed (cli; compiled once for the study, in `<out>/compiled-verbs`,
//! and copied into each run), the tool schemas its MCP client loads (mcp), and the plan
//! the run machinery of `mur-eval run` takes.

use std::collections::{BTreeMap, VecDeque};
use std::path::Path;

use mur_core::{Error, Result};

use super::plan::{Planned, Study};
use crate::checker::Checker;
use crate::compiled::{Installed, STORE, installing, verbs_command};
use crate::condition::{Condition, VerbSet};
use crate::profile::{self, Prepared};
use crate::run::Plan;

/// A condition made ready: its plan for the run machinery and what its agents get.
pub struct Ready {
    pub plan: Plan,
    pub prepared: Prepared,
    /// The `tools/list` result an MCP client loads (mcp conditions).
    pub schemas: Option<String>,
    /// The verbs installed, name → sha256 (conditions that install some).
    pub verbs: Option<BTreeMap<String, String>>,
}

/// Refuses a verb directory one of `conditions` installs (`verbs`: the standard verbs,
/// `--verbs`) that is missing or holds no verb files, each with its fix: checked for
/// every condition a study runs before anything is compiled (seconds each), and before
/// its `--out` is made or claimed, so a refused study leaves nothing behind.
pub fn check_verbs<'a>(
    verbs: &Path,
    conditions: impl IntoIterator<Item = &'a Condition>,
) -> Result<()> {
    for condition in conditions {
        for (dir, hint) in verb_dirs(verbs, condition) {
            crate::compiled::check_dir(&dir, &hint)?;
        }
    }
    Ok(())
}

/// The verb directories `condition` installs, in order (its set, then `verbs_over`),
/// each with what to do when it is missing or empty: the standard verbs are built or
/// installed; a condition's own directory is built (its `build.sh`), or the condition
/// left out.
fn verb_dirs(verbs: &Path, condition: &Condition) -> Vec<(std::path::PathBuf, String)> {
    let own = |dir: &Path| {
        let build = crate::compiled::build_script(dir).map_or_else(
            || "make its verb files".to_owned(),
            |script| format!("build them (`bash {}`)", script.display()),
        );
        let hint = format!(
            "condition `{}` installs the verbs of that directory: {build}, or leave the \
             condition out (`--conditions`)",
            condition.name
        );
        (dir.to_path_buf(), hint)
    };
    let set = set_dir(verbs, condition).map(|dir| match condition.verbs {
        Some(VerbSet::Named) => (dir, crate::compiled::STANDARD_VERBS_HINT.to_owned()),
        _ => own(&dir),
    });
    set.into_iter()
        .chain(condition.verbs_over.as_deref().map(own))
        .collect()
}

/// The directory of `condition`'s verb set: the standard verbs (`verbs`, `--verbs`) for
/// `named`, its own for `verbs = "DIR"`; none for `derived` and `call`.
fn set_dir(verbs: &Path, condition: &Condition) -> Option<std::path::PathBuf> {
    match &condition.verbs {
        Some(VerbSet::Named) => Some(verbs.to_path_buf()),
        Some(VerbSet::Dir(dir)) => Some(dir.clone()),
        Some(VerbSet::Derived | VerbSet::Call) | None => None,
    }
}

/// Each condition a pending run needs: its `mur` in `live_root` (outside the study's
/// `out`, as the runs are) and its verbs installed in `out`'s `compiled-verbs`, which
/// its agents' environment never names (cli), or the tool schemas its client will load
/// (mcp), listed in `live_root` and kept in `out`. Its verb directories were found
/// before `out` was claimed ([`check_verbs`]).
pub fn prepare_conditions(
    study: &Study,
    out: &Path,
    live_root: &Path,
    pending: &VecDeque<Planned>,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Vec<Option<Ready>>> {
    let mut schemas: Option<String> = None;
    let mut ready = Vec::new();
    let mut said = std::collections::BTreeSet::new();
    for (index, condition) in study.conditions.iter().enumerate() {
        if !pending.iter().any(|p| p.condition == index) {
            ready.push(None);
            continue;
        }
        let dir = live_root.join("conditions").join(&condition.name);
        crate::tree::create_dir(&dir)?;
        let verbs = verb_dirs(&study.verbs, condition);
        let dirs: Vec<&Path> = verbs.iter().map(|(dir, _)| dir.as_path()).collect();
        let store = out.join(STORE);
        let prepared = profile::prepare(
            condition.surface,
            &dir,
            std::env::var_os("PATH"),
            &study.runner.mur,
            &dirs,
            &store,
            &mut |verbs| progress(&format!("study: {}", installing(verbs, &store))),
        )?;
        // Once per study: each cli condition leaves the same directory off its PATH.
        for warning in &prepared.warnings {
            if said.insert(warning.clone()) {
                progress(&format!("warning: {warning}"));
            }
        }
        if condition.surface.gives_cli() {
            // Found (or refused) before anything was written, when the study was read.
            let capture = study.capture.as_deref().ok_or_else(|| {
                Error::internal("a cli condition with no `mur-eval-capture` found for it")
            })?;
            capture_mur(&dir, capture, &study.runner.mur)?;
        }
        let condition_schemas = if condition.surface.gives_mcp() {
            if schemas.is_none() {
                schemas = Some(tool_schemas(study, out, live_root)?);
            }
            schemas.clone()
        } else {
            None
        };
        let installed = prepared
            .verbs
            .as_ref()
            .map(|verbs| installed_verbs(&study.runner.mur, verbs));
        let plan = Plan {
            profile: condition.surface,
            agent: substitute(&study.agent, condition)?,
            tasks: Vec::new(),
            out: dir,
            _made_out: None,
            verbs: set_dir(&study.verbs, condition).unwrap_or_default(),
            runner: study.runner.clone(),
        };
        ready.push(Some(Ready {
            plan,
            prepared,
            schemas: condition_schemas,
            verbs: installed,
        }));
    }
    Ok(ready)
}

/// The verbs installed for the condition, name → sha256, as `mur devtools verbs list
/// --json` lists them in the installation its runs copy (empty when it cannot say).
fn installed_verbs(mur: &Path, installed: &Installed) -> BTreeMap<String, String> {
    let listed = verbs_command(mur, installed.dir(), &installed.data(), &installed.cache())
        .args(["list", "--json"])
        .stderr(std::process::Stdio::null())
        .output();
    let Ok(listed) = listed else {
        return BTreeMap::new();
    };
    let verbs: Vec<serde_json::Value> = serde_json::from_slice(&listed.stdout).unwrap_or_default();
    verbs
        .iter()
        .filter_map(|verb| {
            Some((
                verb["name"].as_str()?.to_owned(),
                verb["sha256"].as_str()?.to_owned(),
            ))
        })
        .collect()
}

/// `{condition}` and `{surface}` in the agent command, shell-quoted.
fn substitute(command: &str, condition: &Condition) -> Result<String> {
    let quote = |value: &str| {
        shlex::try_quote(value)
            .map(|q| q.into_owned())
            .map_err(|_| Error::usage("cannot quote a condition's name for the shell"))
    };
    let quoted = quote(&condition.name)?;
    let mut out = String::with_capacity(command.len());
    let mut rest = command;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("{condition}") {
            out.push_str(&quoted);
            rest = after;
        } else if let Some(after) = rest.strip_prefix("{surface}") {
            out.push_str(condition.surface.name());
            rest = after;
        } else {
            let next = rest.chars().next().map_or(1, char::len_utf8);
            out.push_str(&rest[..next]);
            rest = &rest[next..];
        }
    }
    Ok(out)
}

/// Replaces the condition's `bin/mur` by a script that runs `mur` through
/// `mur-eval-capture`, which keeps what `mur` printed in the run's `captured.jsonl`.
fn capture_mur(dir: &Path, capture: &Path, mur: &Path) -> Result<()> {
    let quote = |p: &Path| {
        shlex::try_quote(&p.to_string_lossy())
            .map(|q| q.into_owned())
            .map_err(|_| Error::usage(format!("cannot quote `{}` for the shell", p.display())))
    };
    let script = format!(
        "#!/bin/sh\n# mur, with what it prints kept for the study (mur-eval-capture)\nexec {} {} \"$@\"\n",
        quote(capture)?,
        quote(mur)?
    );
    let path = dir.join("bin").join("mur");
    let _ = std::fs::remove_file(&path);
    crate::write::record(&path, script.as_bytes())?;
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| Error::internal(format!("cannot make `{}` executable: {e}", path.display())))
}

/// The `tools/list` result of a fresh `mur-sample`, as the JSON text an MCP client reads
/// before its first call; kept in `out`'s `tools-list.json` (and read from there on
/// resume; one that is no regular file, a FIFO, is refused at once, not waited on).
/// The session that lists them is made in `live_root`, removed with it: its files (a
/// project, a lockfile, logs) are no part of the study a published `--out` carries.
fn tool_schemas(study: &Study, out: &Path, live_root: &Path) -> Result<String> {
    let kept = out.join("tools-list.json");
    if let Some(kept) = crate::bounded::read_or_none(&kept, crate::bounded::FILE_CAP)
        .map_err(Error::usage)?
        .filter(|read| !read.cut)
        .and_then(|read| String::from_utf8(read.bytes).ok())
    {
        return Ok(kept);
    }
    let dir = live_root.join("schemas");
    let runtime = dir.join("run");
    crate::run::ensure_private(&runtime)?;
    let session = crate::session::Session::start(
        &study.runner.sample,
        &dir,
        &runtime,
        &dir.join("usage.jsonl"),
    )?;
    let endpoint = session.endpoint().to_owned();
    let listed = Checker::new()?
        .request(&endpoint, "tools/list", None)
        .map_err(|why| Error::internal(format!("cannot list the session's tools: {why}")))?;
    session.stop();
    let text = serde_json::to_string(&listed)
        .map_err(|e| Error::internal(format!("cannot serialize the tool list: {e}")))?;
    crate::write::record(&kept, text.as_bytes())?;
    Ok(text)
}
