//! `mur devtools <verb> [args…]` for verbs that are not the host's own: the
//! verb runtime parses argv into a tool call, the host makes the call, and
//! the verb shapes a successful result. A failed tool never reaches `shape`:
//! its result is printed as it is, with exit 5.

use mur_core::{Error, Result};
use mur_verbs::{ParseOutcome, VerbError, VerbHost, VerbSpec};
use serde_json::json;

use super::shown::after_the_call;
use crate::cli::HostArgs;
use crate::invoke::{self, block_on};
use crate::options::{extract_host_options, started};
use crate::output;
use crate::tool_call::{self, Bound};
use crate::usage::{self, Phase};
use crate::verb_help::with_host_options;
use mur_usage::Kind;

/// Runs plugin verb `name` with `argv` as typed after its name, `host` holding
/// the host options typed before it. `parse` and `shape` run outside the async
/// runtime; only the call is async.
pub fn run(name: &str, argv: &[String], host: HostArgs) -> Result<()> {
    let outcome = run_verb(name, argv, host);
    // A derived or data verb runs no component: nothing to time.
    if let Some(summary) = mur_verbs::timings::summary() {
        tracing::debug!("verb timings: {summary}");
    }
    for warning in mur_verbs::warnings::take() {
        output::notice(&warning);
    }
    outcome
}

fn run_verb(name: &str, argv: &[String], mut host: HostArgs) -> Result<()> {
    let mut verbs = VerbHost::open_for(name)?;
    note_installed(&verbs, name);
    let data = verbs.data_verb(name)?;
    // Not installed: a tool of the session, as a derived verb.
    let derived = data.is_none() && verbs.tool(name).is_none();
    // The host options typed among the verb's own are taken out where the verb
    // declares no option of their name, so they are known only now, and the command
    // starts (its settings made, `-v` begun) here, not in the dispatch. A derived
    // verb's options are known only once the tool list is read, after discovery needed
    // these: one refused (`--project` without its value) gets `mur devtools`'s usage,
    // as no verb of this name is known before that list (`clcik` would be shown a usage
    // of its own, as if it existed).
    let default_spec = VerbSpec::default();
    let (spec, named) = match &data {
        Some(data) => (Some(&data.spec), Some(data.name.as_str())),
        None if derived => (Some(&default_spec), None),
        None => (verbs.spec(name), Some(name)),
    };
    let argv = extract_host_options(argv, &mut host, spec, named)?;
    let settings = started(&host);
    if let Some(data) = data {
        // The file it was installed from, which a refusal of its `tool` names.
        let entry = verbs.entries().iter().find(|e| e.name == name);
        let source = entry.and_then(|e| e.source.as_deref());
        return super::derived::run_data(&data, source, &argv, &settings);
    }
    if derived {
        return super::derived::run(name, &argv, &settings);
    }
    let mut settings = settings;
    // A verb whose compiled code is not cached is compiled before its `parse`
    // (before the call, outside `--timeout`): tens of seconds for a big one.
    if !settings.quiet {
        verbs.on_compile(crate::compiling::say_verb);
    }
    // `--timeout` bounds reading a JSON option's value from a pipe too.
    let within = settings.timeout;
    let parsed = usage::measure(Phase::Parse, || verbs.parse(name, &argv, within));
    // Its load may have taken in a file rebuilt behind the index (the edit-build loop):
    // the record names the bytes that ran, and the call the tool they declare.
    note_installed(&verbs, name);
    let parsed = parsed?;
    let tool = verbs.tool(name).unwrap_or_default().to_owned();
    let (arguments, plan) = match parsed {
        ParseOutcome::Help(text) => {
            usage::forget();
            let help = with_host_options(&text, name, verbs.spec(name));
            return output::text(&help);
        }
        ParseOutcome::Call {
            arguments,
            plan,
            stdout,
        } => {
            // A file's bytes are refused on a terminal, as `call --out -` refuses them:
            // before the call, nothing sent.
            if let Some(output) = stdout
                && output::stdout_is_terminal()
            {
                return Err(crate::media::bytes_to_terminal(&output.param));
            }
            (arguments, plan)
        }
    };
    settings.verb_timeout(plan.timeout_ms);
    let (arguments, lowered) = invoke::within_bound(arguments, name, verbs.spec(name), &settings);
    let params = json!({ "name": tool, "arguments": arguments });
    let result = block_on(tool_call::call(&settings, &params, name))?.map_err(|e| {
        let e = tool_call::lengthen(e, Bound::named(plan.timeout_ms, &settings));
        match &lowered {
            Some(lowered) => lowered.told(e),
            None => e,
        }
    })?;
    let shaped = usage::measure(Phase::Shape, || {
        let shaped = verbs
            .shape(name, &plan, &result, settings.pretty)
            .map_err(|e| after_the_call(e.into(), &tool, &result, &settings))?;
        // A refused path is the verb's failure after its call, as a failed `shape` is.
        shaped
            .write_files(&argv, plan.writes.as_deref(), settings.timeout)
            .map_err(|e| match e {
                refused @ VerbError::Plugin { .. } => {
                    after_the_call(refused.into(), &tool, &result, &settings)
                }
                other => Error::from(other),
            })?;
        Ok::<_, Error>(shaped)
    })?;
    // The process ends next: let the OS reclaim the engine, store and mapped
    // code at exit instead of unmapping and unregistering them one by one.
    std::mem::forget(verbs);
    // The bytes the verb's `shape` wrote, not a tool's result printed by mur: what
    // `call`, derived and data verbs print of one is `super::shown`'s.
    output::stdout(&shaped.stdout)?;
    output::notes(&shaped.notes, settings.quiet);
    Ok(())
}

/// Tells the usage record what `name` is: an installed verb's tool, file
/// hash and kind, or (not installed) a derived verb.
fn note_installed(verbs: &VerbHost, name: &str) {
    match verbs.entries().iter().find(|e| e.name == name) {
        Some(entry) => {
            usage::verb_file(&entry.tool, Some(&entry.sha256));
            if let Some(spec) = &entry.spec {
                usage::value_options(spec, None);
            }
            if entry.interface == mur_verbs::data::INTERFACE {
                usage::kind(Kind::Data);
            }
        }
        None => usage::kind(Kind::Derived),
    }
}
