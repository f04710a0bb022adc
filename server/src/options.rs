//! How an app describes the session it wants: project, transport, port and identity.

use std::path::PathBuf;

use crate::http::HttpLimits;
use crate::usage::UsageLogging;

/// How clients reach the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SessionTransport {
    /// MCP over Streamable HTTP at `http://127.0.0.1:<port>/mcp`.
    #[default]
    Http,
    /// MCP over this process's stdin and stdout.
    Stdio,
}

/// Everything [`serve`](crate::serve) needs besides the tools.
#[derive(Debug, Clone)]
pub struct SessionOptions {
    /// The project file the session is for; its canonical path names the lockfile. A
    /// folder holding exactly one project file (`*.*proj`) names that file
    /// ([`mur_lockfile::paths::project_file`]), as `dotnet run --project` takes it.
    pub project: PathBuf,
    /// Port to bind on 127.0.0.1; `None` picks a free one.
    pub port: Option<u16>,
    /// Identifies the build in the lockfile and the probe.
    pub build_tag: String,
    /// How clients reach the session: HTTP (the default) or stdio.
    pub transport: SessionTransport,
    /// Reported to MCP clients as `serverInfo.name`.
    pub server_name: String,
    /// Reported to MCP clients as `serverInfo.version`.
    pub server_version: String,
    /// Timeouts and connection cap of the HTTP endpoint (the defaults suit any app).
    pub http_limits: HttpLimits,
    /// Whether and where the session records the calls it serves (off by default).
    pub usage: UsageLogging,
}

impl SessionOptions {
    /// An HTTP session on an ephemeral port, tagged with the current time.
    pub fn http(project: impl Into<PathBuf>) -> Self {
        Self {
            project: project.into(),
            port: None,
            build_tag: mur_lockfile::now_rfc3339(),
            transport: SessionTransport::Http,
            server_name: "mur-server".to_owned(),
            server_version: env!("CARGO_PKG_VERSION").to_owned(),
            http_limits: HttpLimits::default(),
            usage: UsageLogging::Off,
        }
    }

    /// A stdio session, otherwise like [`SessionOptions::http`].
    pub fn stdio(project: impl Into<PathBuf>) -> Self {
        Self {
            transport: SessionTransport::Stdio,
            ..Self::http(project)
        }
    }

    /// Listen on this port of 127.0.0.1 (`None`, the default: any free port).
    /// A port already taken makes [`serve`](crate::serve) fail with
    /// [`ServeError::Bind`](crate::ServeError::Bind). Ignored by stdio sessions.
    pub fn with_port(mut self, port: Option<u16>) -> Self {
        self.port = port;
        self
    }

    /// The build tag written in the lockfile and answered by the probe
    /// (`buildTag`; default: the time the options were made), so a reader can
    /// tell builds apart.
    pub fn with_build_tag(mut self, build_tag: impl Into<String>) -> Self {
        self.build_tag = build_tag.into();
        self
    }

    /// Timeouts, connection cap and task limits of the HTTP endpoint (see
    /// [`HttpLimits`]; the defaults suit any app).
    pub fn with_http_limits(mut self, http_limits: HttpLimits) -> Self {
        self.http_limits = http_limits;
        self
    }

    /// Records every `tools/call` served, from any client (see [`UsageLogging`]).
    pub fn with_usage(mut self, usage: UsageLogging) -> Self {
        self.usage = usage;
        self
    }

    /// Name and version MCP clients see in `serverInfo`.
    pub fn with_server_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.server_name = name.into();
        self.server_version = version.into();
        self
    }
}
