//! `mur devtools session list` and `session clean`: the lockfile directory
//! as the user sees it. Neither ever stops a process.

use crate::cli::SessionCommand;
use crate::discovery::{self, Found};
use crate::error::{Error, Result};
use crate::mcp;
use crate::options::Settings;
use crate::output;

pub async fn run(cmd: &SessionCommand, settings: &Settings) -> Result<()> {
    match cmd {
        SessionCommand::List => list(settings).await,
        SessionCommand::Clean { dry_run } => clean(*dry_run).await,
    }
}

/// One JSON line of lockfile fields per live session (a table with
/// `--pretty`); exit 4 when there is none. Stale lockfiles are skipped
/// silently and removed on the way.
async fn list(settings: &Settings) -> Result<()> {
    let http = mcp::http_client()?;
    let registry = discovery::registry();
    let survey = discovery::survey(&registry, &http).await?;
    survey.collect_garbage(&registry);
    if settings.verbose {
        survey.report_impostors();
    }
    if survey.live.is_empty() {
        return Err(
            Error::no_session("no running devtools session found").with_hint(format!(
                "sessions announce themselves in `{}`",
                registry.dir().display()
            )),
        );
    }
    if settings.pretty {
        output::stdout(table(&survey.live).as_bytes())
    } else {
        let mut text = String::new();
        for found in &survey.live {
            text.push_str(&fields(found));
            text.push('\n');
        }
        output::stdout(text.as_bytes())
    }
}

/// The lockfile's fields as one JSON line, in the lockfile's order.
fn fields(found: &Found) -> String {
    serde_json::to_string(&found.lock).unwrap_or_default()
}

fn table(live: &[Found]) -> String {
    let rows: Vec<Vec<String>> = live
        .iter()
        .map(|f| {
            vec![
                f.lock.project.clone(),
                f.lock.transport.as_str().to_owned(),
                f.lock.endpoint.clone(),
                f.lock.pid.to_string(),
                f.lock.started_at.clone(),
            ]
        })
        .collect();
    output::table(
        &["PROJECT", "TRANSPORT", "ENDPOINT", "PID", "STARTED"],
        &rows,
    )
}

/// Removes lockfiles whose process is gone. A lockfile whose process runs is
/// never touched, even when its endpoint does not answer: the session may be
/// busy, and a wrong removal would hide a live session from discovery.
async fn clean(dry_run: bool) -> Result<()> {
    let http = mcp::http_client()?;
    let registry = discovery::registry();
    let survey = discovery::survey(&registry, &http).await?;
    if dry_run {
        let mut text = String::new();
        for found in &survey.stale {
            text.push_str(&format!("{}\n", found.path.display()));
        }
        output::stdout(text.as_bytes())?;
        eprintln!(
            "would remove {} stale {}",
            survey.stale.len(),
            entries(survey.stale.len())
        );
        return Ok(());
    }
    let mut removed = 0;
    for found in &survey.stale {
        match registry.remove(&found.path) {
            Ok(()) => removed += 1,
            Err(e) => output::notice(&format!("cannot remove `{}`: {e}", found.path.display())),
        }
    }
    eprintln!("removed {removed} stale {}", entries(removed));
    Ok(())
}

fn entries(n: usize) -> &'static str {
    if n == 1 { "entry" } else { "entries" }
}
