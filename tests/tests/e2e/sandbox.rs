//! The test kit's own promise: a test leaves nothing running once its sandbox is gone.

use std::path::Path;

use mur_e2e::{Sandbox, Successors};

/// A session a `reload` replaced is no child of the test: its sandbox ends it. Each full
/// test run left one such `mur-sample` running for ever (parent 1) before.
#[test]
fn a_sandbox_ends_the_session_a_reload_started() {
    let (sandbox, app) = Sandbox::with_app();
    sandbox.devtools(&["call", "reload"]).assert_code(0);
    let successor = Successors::new(&sandbox, app.pid()).wait();
    assert_ne!(successor, app.pid());
    drop(app);
    drop(sandbox);
    let stat = std::fs::read_to_string(format!("/proc/{successor}/stat")).unwrap_or_default();
    assert!(
        !Path::new(&format!("/proc/{successor}")).exists()
            || stat.split_whitespace().nth(2) == Some("Z"),
        "the reloaded session {successor} still runs: {stat}"
    );
}
