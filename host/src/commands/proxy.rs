//! `mur devtools proxy`: a stdio MCP server forwarding to the session
//! (crate `mur-bridge`), found for each request as every command finds it.

use std::sync::Arc;

use mur_bridge::proxy::{Request, Upstream};
use mur_client::{Events, Reply};
use mur_core::{Error, Result, Settings};

use crate::invoke::{self, Session};

pub fn run(settings: &Settings) -> Result<()> {
    let upstream = Arc::new(Discovered {
        settings: settings.clone(),
    });
    mur_bridge::proxy::serve(upstream, std::io::stdin().lock(), std::io::stdout())
        .map_err(|e| Error::internal(format!("cannot read stdin: {e}")))
}

/// The session, found again for each request (an app that reloads moves).
struct Discovered {
    settings: Settings,
}

impl Upstream for Discovered {
    fn call(&self, request: Request<'_>, events: &dyn Events) -> Result<Reply> {
        let mut settings = self.settings.clone();
        settings.verbose |= request.verbose;
        invoke::block_on(async {
            let session = Session::resolve(&settings).await?;
            session.call_relayed(&settings, &request, events).await
        })?
    }
}
