//! A glance at the tools of the session the host options choose: found by discovery
//! quietly and within a short wait, the list read fresh (and cached); for what only
//! helps (completion, a hint, a note), never for a call.

use std::time::Duration;

use mur_core::Settings;
use serde_json::Value;

use crate::cli::HostArgs;
use crate::invoke::Session;
use crate::tools::ToolList;

/// The tools of the session the `host` options choose, found by discovery (quietly,
/// within `wait`), its list read fresh: what completion offers and a hint names is the
/// session's now, not a list cached before it restarted on new code behind the same
/// endpoint. One more loopback POST beside discovery's probe, within the same `wait`.
/// None without a session, or with several and none chosen.
pub fn quietly(host: &HostArgs, wait: Duration) -> Vec<Value> {
    let settings = Settings {
        timeout: wait,
        ..crate::options::settings(host)
    };
    let tools = crate::invoke::block_on(async {
        let session = Session::resolve_reporting(&settings, &mut mur_discovery::Silent).await?;
        ToolList::open(&session).fresh(&session, &settings).await
    });
    match tools {
        Ok(Ok(tools)) => tools,
        _ => Vec::new(),
    }
}
