//! The lockfile's schema, field for field (seed 000 §5), and the probe's schema name.

use serde::{Deserialize, Serialize};

use crate::stamp::now_rfc3339;

/// The `schema` value of every lockfile this crate understands.
pub const LOCKFILE_SCHEMA: &str = "reactor-devtools-lockfile/1";
/// The `schema` value a devtools endpoint answers `GET /mcp` with.
pub const PROBE_SCHEMA: &str = "reactor-devtools-mcp/1";

/// How a session is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    Http,
    Stdio,
}

impl Transport {
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::Http => "http",
            Transport::Stdio => "stdio",
        }
    }
}

/// One session's lockfile. Serialized in the seed's field order; unknown
/// fields are ignored on read so newer writers stay readable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lockfile {
    pub schema: String,
    pub endpoint: String,
    pub transport: Transport,
    pub port: u16,
    pub pid: u32,
    pub build_tag: String,
    pub project: String,
    pub started_at: String,
}

impl Lockfile {
    /// A lockfile for an HTTP session listening on `127.0.0.1:<port>/mcp`,
    /// started now.
    pub fn http(port: u16, pid: u32, project: String, build_tag: String) -> Self {
        Self {
            schema: LOCKFILE_SCHEMA.to_owned(),
            endpoint: format!("http://127.0.0.1:{port}/mcp"),
            transport: Transport::Http,
            port,
            pid,
            build_tag,
            project,
            started_at: now_rfc3339(),
        }
    }

    /// A lockfile for a stdio session: it takes the project's slot but has
    /// no endpoint a client can dial.
    pub fn stdio(pid: u32, project: String, build_tag: String) -> Self {
        Self {
            schema: LOCKFILE_SCHEMA.to_owned(),
            endpoint: "stdio".to_owned(),
            transport: Transport::Stdio,
            port: 0,
            pid,
            build_tag,
            project,
            started_at: now_rfc3339(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_every_seed_field_in_order() {
        let mut lock = Lockfile::http(54931, 18432, "/p/App.csproj".into(), "tag".into());
        lock.started_at = "2026-04-19T14:22:11Z".into();
        let text = serde_json::to_string(&lock).expect("serialize");
        assert_eq!(
            text,
            r#"{"schema":"reactor-devtools-lockfile/1","endpoint":"http://127.0.0.1:54931/mcp","transport":"http","port":54931,"pid":18432,"buildTag":"tag","project":"/p/App.csproj","startedAt":"2026-04-19T14:22:11Z"}"#
        );
    }

    #[test]
    fn ignores_unknown_fields() {
        let text = r#"{"schema":"reactor-devtools-lockfile/1","endpoint":"stdio","transport":"stdio","port":0,"pid":1,"buildTag":"b","project":"p","startedAt":"s","future":true}"#;
        let lock: Lockfile = serde_json::from_str(text).expect("parse");
        assert_eq!(lock.transport, Transport::Stdio);
    }
}
