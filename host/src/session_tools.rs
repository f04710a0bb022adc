//! A glance at the tools of the session the host options choose: found by discovery
//! quietly and within a short wait, from the cached tool list when warm; for what only
//! helps (completion, a hint, a note), never for a call.

use std::time::Duration;

use mur_core::Settings;
use serde_json::Value;

use crate::cli::HostArgs;
use crate::invoke::Session;
use crate::tools::ToolList;

/// The tools of the session the `host` options choose, found by discovery (quietly,
/// within `wait`), from its cached tool list when warm; none without a session, or
/// with several and none chosen.
pub fn quietly(host: &HostArgs, wait: Duration) -> Vec<Value> {
    let settings = Settings {
        timeout: wait,
        ..crate::options::settings(host)
    };
    let tools = crate::invoke::block_on(async {
        let session =
            Session::resolve_reporting(&settings, &mut mur_discovery::Silent, &Vec::new).await?;
        ToolList::open(&session).all(&session, &settings).await
    });
    match tools {
        Ok(Ok(tools)) => tools,
        _ => Vec::new(),
    }
}
