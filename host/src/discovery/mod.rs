//! Endpoint resolution, the one entry point every call goes through:
//! `--endpoint` (as-is) > lockfile discovery > `--auto` loopback scan.

mod lockfiles;
mod scan;
mod select;

pub use lockfiles::{Found, registry, survey};
pub use select::Candidate;

use crate::error::{Error, Result};
use crate::options::{Settings, Source};

/// The MCP endpoint URL for this invocation.
pub async fn resolve(settings: &Settings, http: &reqwest::Client) -> Result<String> {
    let project = settings
        .project
        .as_deref()
        .map(select::ProjectFilter::new)
        .transpose()?;
    let range = match &settings.source {
        Source::Endpoint(url) => return Ok(url.clone()),
        Source::Lockfiles => None,
        Source::Auto(range) => Some(*range),
    };
    let registry = registry();
    let survey = survey(&registry, http).await?;
    survey.collect_garbage(&registry);
    survey.report_impostors();
    let candidates: Vec<Candidate> = survey.live.iter().map(Candidate::from_lockfile).collect();
    let chosen = select::unique(candidates, project.as_ref());
    match (chosen, range) {
        (Err(e), Some(range)) if e.kind() == crate::error::Kind::NoSession => {
            tracing::debug!(
                "no lockfile names a live session: scanning ports {}-{}",
                range.first,
                range.last
            );
            let found = scan::scan(http, range).await;
            let chosen = select::unique(found, project.as_ref()).map_err(|e| {
                e.with_hint(format!(
                    "`--auto` scanned 127.0.0.1 ports {}-{}",
                    range.first, range.last
                ))
            })?;
            Ok(chosen.endpoint)
        }
        (chosen, _) => {
            let chosen = chosen.map_err(|e| no_session_hint(e, &registry, range.is_some()))?;
            tracing::debug!("using `{}` ({})", chosen.endpoint, chosen.project);
            Ok(chosen.endpoint)
        }
    }
}

/// Tells where discovery looked and how to get a session, when it found none.
fn no_session_hint(e: Error, registry: &mur_lockfile::Registry, scanned: bool) -> Error {
    if e.kind() != crate::error::Kind::NoSession || scanned {
        return e;
    }
    e.with_hint(format!(
        "start the app with devtools enabled (e.g. `mur-sample --project PATH`); it announces itself in `{}`",
        registry.dir().display()
    ))
    .with_hint("a session started elsewhere can be reached with `--endpoint URL`, or found with `--auto`")
}
