//! A glance at the tools of the session the host options choose: found by discovery
//! quietly and within a short wait, from the cached tool list when there is one; for
//! what only helps (completion, a hint, a note), never for a call.

use std::time::Duration;

use mur_core::Settings;
use serde_json::Value;

use crate::cli::HostArgs;
use crate::invoke::Session;
use crate::tools::ToolList;

/// The tools of the session the `host` options choose, found by discovery (quietly,
/// within `wait`): its cached list when there is one, read fresh (and cached) only
/// when there is none, or with `--refresh`. A Tab is answered at once where the
/// server is slow to list (a bridged npx server, a stdio server busy with a long call)
/// and asks the app nothing but discovery's probe; what shows the list to a reader
/// (`catalog`, a derived verb's `--help`) reads it fresh and so brings the cache up to
/// date. None without a session, or with several and none chosen.
pub fn quietly(host: &HostArgs, wait: Duration) -> Vec<Value> {
    let settings = Settings {
        timeout: wait,
        ..crate::options::settings(host)
    };
    let tools = crate::invoke::block_on(async {
        let session = Session::resolve_reporting(&settings, &mut mur_discovery::Silent).await?;
        let list = ToolList::open(&session);
        if host.refresh {
            list.fresh(&session, &settings)
                .await
                .map(|tools| tools.values())
        } else {
            list.all(&session, &settings).await
        }
    });
    match tools {
        Ok(Ok(tools)) => tools,
        _ => Vec::new(),
    }
}
