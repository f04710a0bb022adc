//! A glance at the tools of the session the host options choose: found by discovery
//! quietly and within a short wait, from the cached tool list when there is one; for
//! what only helps (completion, a hint, a note), never for a call.

use std::time::Duration;

use mur_core::{Result, Settings};
use mur_verbs::tools::Glance;
use serde_json::Value;

use crate::invoke::Session;
use crate::tools::ToolList;

/// The tools of the session `settings` choose, found by discovery (quietly,
/// within `wait`): its cached list when there is one, read fresh (and cached) only
/// when there is none, or with `--refresh`. A Tab is answered at once where the
/// server is slow to list (a bridged npx server, a stdio server busy with a long call)
/// and asks the app nothing but discovery's probe; what shows the list to a reader
/// (`catalog`, a derived verb's `--help`) reads it fresh and so brings the cache up to
/// date. None without a session, or with several and none chosen.
pub fn quietly(settings: &Settings, wait: Duration) -> Vec<Value> {
    let tools = read_list(settings, wait, async |list, session, settings| {
        if settings.refresh {
            list.fresh(session, settings)
                .await
                .map(|tools| tools.values())
        } else {
            list.all(session, settings).await
        }
    });
    tools.unwrap_or_default()
}

/// The same tools, as completion reads them at a <Tab>: each one's name and summary
/// ([`Glance`]), one built whole only when asked for. Every entry of a cached list of
/// 50,000 tools built cost a <Tab> 1.9 s and 218 MB (a debug build; now 0.5–0.8 s, 48 MB).
pub fn glance(settings: &Settings, wait: Duration) -> Glance {
    let tools = read_list(settings, wait, async |list, session, settings| {
        if settings.refresh {
            let tools = list.fresh(session, settings).await?;
            Ok(Glance::of_texts(&tools))
        } else {
            list.glance(session, settings).await
        }
    });
    tools.unwrap_or_default()
}

/// What `read` reads of the list of the session `settings` choose, found by
/// discovery quietly, within `wait`; `None` without one, or where it fails.
fn read_list<T>(
    settings: &Settings,
    wait: Duration,
    read: impl AsyncFnOnce(&ToolList, &Session, &Settings) -> Result<T>,
) -> Option<T> {
    let settings = Settings {
        timeout: wait,
        ..settings.clone()
    };
    let tools = crate::invoke::block_on(async {
        let session = Session::resolve_reporting(&settings, &mut mur_discovery::Silent).await?;
        read(&ToolList::open(&session), &session, &settings).await
    });
    tools.ok()?.ok()
}
