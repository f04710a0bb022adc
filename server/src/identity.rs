//! Who this session is: the facts shared by the lockfile and the probe answer.

/// Fixed at startup; the probe and the lockfile must agree on every field.
#[derive(Debug, Clone)]
pub(crate) struct SessionIdentity {
    pub pid: u32,
    /// Canonical project path, as written in the lockfile.
    pub project: String,
    pub build_tag: String,
    pub started_at: String,
}

impl SessionIdentity {
    pub(crate) fn new(project: String, build_tag: String) -> Self {
        Self {
            pid: std::process::id(),
            project,
            build_tag,
            started_at: mur_lockfile::now_rfc3339(),
        }
    }
}
