//! How a session lets mur in. An app's own devtools session asks for nothing
//! (seed 000: loopback, the `Host`/`Origin` checks). A bridge (`mur devtools
//! bridge`) puts a stdio server — which trusts its parent alone — on a loopback
//! port every local user can reach, so it takes requests only with a secret of
//! its own, kept in its sidecar `<hash>.bridge` beside its lockfile (whose
//! fields are the seed's, with no secret among them). mur reads the secret
//! there for the bridge the sidecar names (its pid and start, as in the
//! lockfile), from a file of the user's own that no one else can read, and
//! sends it only to the endpoint of that bridge's lockfile. [`read_sidecar`] is
//! the one reader of sidecars: what `session list` and `bridge stop` learn of a
//! bridge comes from a sidecar mur would take its secret from.

use std::net::IpAddr;
use std::path::{Path, PathBuf};

use mur_lockfile::{Keep, ReadOutcome, Registry, Untrusted};
use serde_json::Value;

use crate::sockets;

/// The `schema` of a bridge's sidecar.
pub const SIDECAR_SCHEMA: &str = "mur-bridge/1";
/// No sidecar is anywhere near this size.
const MAX_SIDECAR_BYTES: u64 = 64 * 1024;

/// How a sidecar is named beside the lockfile `<hash>.json`: `<hash>.bridge`.
pub const SIDECAR_SUFFIX: &str = ".bridge";

/// The sidecar of the session whose lockfile is `lockfile`: `<hash>.bridge`.
pub fn sidecar_path(lockfile: &Path) -> PathBuf {
    lockfile.with_extension(&SIDECAR_SUFFIX[1..])
}

/// A bridge's secret. Its `Debug` hides it: a resolved session is logged with `-v`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(text: impl Into<String>) -> Self {
        Self(text.into())
    }

    /// The secret itself, for the `Authorization` header.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// How mur is let in at the session it resolved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Access {
    /// `--endpoint` naming no bridge mur knows: used as given, any MCP server
    /// (one that answers 401 gets the OAuth flow — unless the 401 is a bridge's,
    /// whose sidecar mur did not find: that ends the call).
    #[default]
    AsGiven,
    /// A session no sidecar names (none beside its lockfile, or another process's):
    /// an app's own, which asks for nothing — or a bridge whose sidecar is gone, which
    /// `bridge stop` no longer knows for one: process `pid`, stopped with `kill`.
    App { pid: u32 },
    /// A bridge of a mur from before secrets, whose sidecar `sidecar` names none: it
    /// asks for nothing.
    Open { sidecar: PathBuf },
    /// A bridge, and the secret its sidecar holds.
    Bridge { sidecar: PathBuf, secret: Secret },
    /// A bridge whose sidecar mur did not read the secret from, and why: not
    /// the user's own, readable by others, not a regular file. `kill`: its process
    /// when `bridge stop` would not signal it either (it trusts no such sidecar), so
    /// the hint says `kill PID` as `bridge stop`'s refusal does; `None` when the
    /// sidecar is trusted and only its secret is not sent (a port another user holds).
    Refused {
        sidecar: PathBuf,
        why: String,
        kill: Option<u32>,
    },
    /// A session `--auto`'s scan found, no lockfile naming it: nothing is sent,
    /// as a port's probe can be anyone's (a bridge's secret goes only to the
    /// endpoint its lockfile names).
    Scanned,
}

impl Access {
    /// The access to the session announced by the lockfile at `lockfile` (one the
    /// registry read as the user's own), of process `pid` started at `started_at`,
    /// at `endpoint`: a bridge's secret is sent there only while no other user holds
    /// its port ([`sockets::other_owner`]).
    pub fn of(lockfile: &Path, pid: u32, started_at: &str, endpoint: &str) -> Self {
        match Self::of_sidecar(lockfile, pid, started_at) {
            Self::Bridge { sidecar, .. }
                if let Some(uid) = addresses_of(endpoint)
                    .and_then(|(ips, port)| sockets::other_owner(&ips, port)) =>
            {
                Self::Refused {
                    why: format!(
                        "the port of `{endpoint}` is held by another user (uid {uid}), not by the \
                         bridge its lockfile names"
                    ),
                    sidecar,
                    kill: None,
                }
            }
            access => access,
        }
    }

    fn of_sidecar(lockfile: &Path, pid: u32, started_at: &str) -> Self {
        let sidecar = sidecar_path(lockfile);
        match sidecar_of(lockfile, pid, started_at) {
            Ok(Some(fields)) => match fields["secret"].as_str() {
                Some(secret) if !sendable(secret) => Self::Refused {
                    why: format!(
                        "`{}` holds a secret no `Authorization` header can carry (a bridge's \
                             is letters and digits)",
                        sidecar.display()
                    ),
                    sidecar,
                    kill: None,
                },
                Some(secret) => Self::Bridge {
                    sidecar,
                    secret: Secret::new(secret),
                },
                None => Self::Open { sidecar },
            },
            // None, or another process's (a bridge that died without removing it).
            Ok(None) => Self::App { pid },
            Err(why) => Self::Refused {
                sidecar,
                why,
                kill: Some(pid),
            },
        }
    }

    /// The access to `--endpoint URL`: a bridge's when a live bridge's lockfile in
    /// `registry` (any directory it searches) names that endpoint, else as given. Only
    /// sidecars are looked at (a directory listing when no bridge runs): an endpoint
    /// given is used at once.
    pub fn of_endpoint(registry: &Registry, url: &str) -> Self {
        if registry.check_searched_trusted().is_err() {
            return Self::AsGiven;
        }
        let Some(wanted) = same_endpoint_key(url) else {
            return Self::AsGiven;
        };
        for sidecar in registry.files("bridge") {
            let lockfile = sidecar.with_extension("json");
            let ReadOutcome::Valid(lock) = registry.read(&lockfile) else {
                continue;
            };
            let started = mur_lockfile::liveness::started_at_secs(&lock);
            let live = mur_lockfile::liveness::fate(lock.pid, started)
                != mur_lockfile::liveness::Fate::Gone;
            if live && same_endpoint_key(&lock.endpoint).as_ref() == Some(&wanted) {
                return Self::of(&lockfile, lock.pid, &lock.started_at, &lock.endpoint);
            }
        }
        Self::AsGiven
    }

    /// The secret to send, for a bridge that has one.
    pub fn secret(&self) -> Option<&str> {
        match self {
            Self::Bridge { secret, .. } => Some(secret.expose()),
            _ => None,
        }
    }

    /// Whether a 401 asks for the OAuth flow: only at an endpoint given as is. A
    /// devtools session found by its lockfile asks for no authorization (seed 000);
    /// a 401 from one is a bridge refusing a request without its secret.
    pub fn takes_oauth(&self) -> bool {
        matches!(self, Self::AsGiven)
    }

    /// What to say under a 401 from the session (`project`, when known): what mur
    /// knows of the secret, and how to get a bridge whose secret mur reads — by
    /// `bridge stop` only where it would stop it (a sidecar it trusts names the
    /// process), else by `kill PID`; an app's session was told to run `bridge stop`,
    /// which then refused it.
    pub fn refused_hint(&self, project: Option<&str>) -> String {
        let restart = match project {
            Some(project) => {
                let project = mur_core::shell_word(project);
                format!(
                    "stop the bridge (`mur devtools bridge stop --project {project}`) and start it again"
                )
            }
            None => "stop the bridge (`mur devtools bridge stop`) and start it again".to_owned(),
        };
        match self {
            Self::AsGiven => format!(
                "mur reads a bridge's secret from its sidecar beside its lockfile, and no sidecar \
                 of yours names this endpoint: it is gone or unreadable, or the bridge is another \
                 user's; if it is yours, {restart}"
            ),
            // No `bridge stop`: it takes no session its sidecar does not name for a bridge.
            Self::App { pid } => format!(
                "no sidecar beside its lockfile names its process: an app's own session asks \
                 for no secret, and mur runs no OAuth flow for a session found by its lockfile \
                 (it does for `--endpoint URL`); a bridge whose sidecar is gone is stopped with \
                 `kill {pid}` and started again"
            ),
            Self::Open { sidecar } => format!(
                "a bridge takes requests only with the secret in its sidecar `{}`, which names \
                 none; {restart}",
                sidecar.display()
            ),
            Self::Bridge { sidecar, .. } => format!(
                "the secret in `{}` is not the one the bridge holds; {restart}",
                sidecar.display()
            ),
            // `bridge stop` refuses it too (it trusts no such sidecar): said as it says it.
            Self::Refused {
                why,
                kill: Some(pid),
                ..
            } => format!(
                "mur did not read the bridge's secret: {why}; if the bridge is yours, stop it \
                 with `kill {pid}` (`bridge stop` signals nothing by a sidecar it does not \
                 trust) and start it again"
            ),
            Self::Refused {
                why, kill: None, ..
            } => {
                format!("mur did not read the bridge's secret: {why}; {restart}")
            }
            Self::Scanned => format!(
                "`--auto` found the session with no lockfile naming it, and mur sends a bridge's \
                 secret only to the endpoint its lockfile names; {restart}"
            ),
        }
    }
}

/// The fields of the sidecar of the lockfile `lockfile` when it names the process
/// `pid` started at `started_at` (as that lockfile does), read as [`read_sidecar`]
/// reads it; `None` when there is none, or it is another process's (a bridge that
/// died without removing it).
pub fn sidecar_of(lockfile: &Path, pid: u32, started_at: &str) -> Result<Option<Value>, String> {
    let fields = read_sidecar(&sidecar_path(lockfile))?;
    Ok(fields.filter(|fields| fields["pid"] == pid && fields["startedAt"] == started_at))
}

/// The fields of the bridge's sidecar at `sidecar`, `None` when there is none: the
/// one reader of sidecars, for the secret as for what `session list` and `bridge
/// stop` show and signal. `Err` (why) for a file mur must not trust: a link, not a
/// regular file, not the user's own or open to group or others
/// ([`mur_lockfile::check_own`], [`Keep::Secret`]: another user could have planted
/// it, or read its secret), too large, not a sidecar.
pub fn read_sidecar(sidecar: &Path) -> Result<Option<Value>, String> {
    let shown = sidecar.display();
    let meta = match std::fs::symlink_metadata(sidecar) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot inspect `{shown}`: {e}")),
    };
    if meta.file_type().is_symlink() {
        return Err(Untrusted::Link.of(sidecar));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    let file = mur_lockfile::open_regular(&mut options, sidecar)
        .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot inspect `{shown}`: {e}"))?;
    mur_lockfile::check_own(&meta, Keep::Secret).map_err(|why| why.of(sidecar))?;
    if meta.len() > MAX_SIDECAR_BYTES {
        return Err(format!(
            "`{shown}` has {} bytes, no sidecar's size",
            meta.len()
        ));
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(&file, MAX_SIDECAR_BYTES),
        &mut bytes,
    )
    .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    let fields: Value = serde_json::from_slice(&bytes)
        .map_err(|e| format!("`{shown}` is not a bridge's sidecar: {e}"))?;
    if fields["schema"] != SIDECAR_SCHEMA {
        return Err(format!(
            "`{shown}` is not of schema `{SIDECAR_SCHEMA}`, the one this mur reads"
        ));
    }
    Ok(Some(fields))
}

/// Whether `secret` can be sent as `Authorization: Bearer <secret>`: a token68
/// (RFC 6750's `b64token`), as the bridge's hex is. Any other would be left out
/// of the request, and the bridge's 401 then blamed on a secret never sent.
fn sendable(secret: &str) -> bool {
    let body = secret.trim_end_matches('=');
    !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

/// Where a connection to an `http://` endpoint may go, and its port, as the dialer's URL
/// parser reads them ([`mur_lockfile::endpoint::Url`]: `127.1`, `0x7f.1` and `HTTP://`
/// normalised, userinfo, query and fragment set aside, no port meaning 80): the address
/// it names, both loopback addresses for `localhost` (a resolver may give either first),
/// and none — any address — for another name.
fn addresses_of(endpoint: &str) -> Option<(Vec<IpAddr>, u16)> {
    use mur_lockfile::endpoint::{Host, Url};
    let url = Url::parse(endpoint)
        .ok()
        .filter(|url| url.scheme() == "http")?;
    let addresses = match url.host()? {
        Host::Ipv4(ip) => vec![IpAddr::V4(ip)],
        Host::Ipv6(ip) => vec![IpAddr::V6(ip)],
        // The parser lowercases names: `LOCALHOST` arrives as `localhost`.
        Host::Domain("localhost") => vec![
            IpAddr::from([127, 0, 0, 1]),
            IpAddr::from([0, 0, 0, 0, 0, 0, 0, 1]),
        ],
        Host::Domain(_) => Vec::new(),
    };
    Some((addresses, url.port_or_known_default()?))
}

/// An endpoint as compared with a lockfile's, as the dialer's URL parser reads it
/// (`127.1`, `HTTP://`, an explicit `:80` normalised; userinfo, query and fragment set
/// aside): `localhost` is 127.0.0.1, a trailing `/` does not count. `None` for no URL.
fn same_endpoint_key(url: &str) -> Option<String> {
    use mur_lockfile::endpoint::{Host, Url};
    let url = Url::parse(url).ok()?;
    let host = match url.host()? {
        Host::Domain("localhost") => "127.0.0.1".to_owned(),
        host => host.to_string(),
    };
    let port = url.port_or_known_default()?;
    let path = url.path().trim_end_matches('/');
    Some(format!("{}://{host}:{port}{path}", url.scheme()))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// An endpoint no one listens at (port 1 needs privileges to bind).
    const NOWHERE: &str = "http://127.0.0.1:1/mcp";

    /// What [`addresses_of`] answers for these addresses and port.
    fn at(ips: &[&str], port: u16) -> Option<(Vec<IpAddr>, u16)> {
        let ips = ips
            .iter()
            .map(|ip| ip.parse::<IpAddr>().expect("ip"))
            .collect();
        Some((ips, port))
    }

    #[test]
    fn an_endpoint_s_port_is_read_as_sessions_write_it() {
        assert_eq!(
            addresses_of("http://127.0.0.1:41234/mcp"),
            at(&["127.0.0.1"], 41234)
        );
        assert_eq!(addresses_of("http://[::1]:8080/mcp"), at(&["::1"], 8080));
        assert_eq!(
            addresses_of("http://LOCALHOST:9/"),
            at(&["127.0.0.1", "::1"], 9)
        );
        assert_eq!(addresses_of("stdio"), None);
        assert_eq!(addresses_of("http://127.0.0.1:99999/mcp"), None);
        assert_eq!(addresses_of("https://127.0.0.1:9/mcp"), None, "not http");
    }

    /// The forms the URL parser (the dialer's) normalises are read as it reads them: the
    /// guard looks where the connection goes, not where a hand split of the text points.
    #[test]
    fn an_endpoint_is_read_as_the_dialer_reads_it() {
        let home = |port| at(&["127.0.0.1"], port);
        assert_eq!(
            addresses_of("http://127.1:9/"),
            home(9),
            "a short IPv4 form"
        );
        assert_eq!(addresses_of("http://0x7f.1:9/"), home(9), "hexadecimal");
        assert_eq!(addresses_of("http://2130706433:9/"), home(9), "one number");
        assert_eq!(
            addresses_of("http://[::ffff:127.0.0.1]:9/"),
            at(&["::ffff:127.0.0.1"], 9),
            "IPv4-mapped"
        );
        assert_eq!(
            addresses_of("HTTP://127.0.0.1:9/mcp"),
            home(9),
            "the scheme in capitals"
        );
        assert_eq!(
            addresses_of("http://me:pw@127.0.0.1:9/"),
            home(9),
            "userinfo"
        );
        assert_eq!(
            addresses_of("http://127.0.0.1:9?at=:8"),
            home(9),
            "a `:` in the query"
        );
        assert_eq!(
            addresses_of("http://127.0.0.1:9#:8"),
            home(9),
            "a `:` in the fragment"
        );
        assert_eq!(
            addresses_of("http://127.0.0.1:9\\mcp"),
            home(9),
            "a backslash for `/`"
        );
        assert_eq!(
            addresses_of("http://127.0.0.1/mcp"),
            home(80),
            "http's own port"
        );
        assert_eq!(addresses_of("http://127.0.0.1:80/mcp"), home(80));
        assert_eq!(
            addresses_of("http://devbox:9/"),
            at(&[], 9),
            "a name: any address"
        );
    }

    /// A lockfile and a sidecar written by the test, 0600 unless `mode` says.
    fn planted(dir: &Path, sidecar: &str, mode: u32) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let lockfile = dir.join("0123456789abcdef.json");
        std::fs::write(&lockfile, "{}").expect("lockfile");
        let path = sidecar_path(&lockfile);
        std::fs::write(&path, sidecar).expect("sidecar");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
        lockfile
    }

    fn sidecar(pid: u32, secret: Option<&str>) -> String {
        let mut fields = serde_json::json!({
            "schema": SIDECAR_SCHEMA, "pid": pid, "startedAt": "2026-01-01T00:00:00Z",
        });
        if let Some(secret) = secret {
            fields["secret"] = secret.into();
        }
        fields.to_string()
    }

    /// A secret no header can carry is refused where it is read, saying so, not
    /// left out of the request with the bridge's 401 then blamed on it.
    #[test]
    fn a_secret_no_header_can_carry_is_refused_saying_so() {
        let dir = tempfile::tempdir().expect("tempdir");
        for secret in ["abc\r\nX-Injected: 1", "two words", "", "ünï", "=="] {
            let lockfile = planted(dir.path(), &sidecar(42, Some(secret)), 0o600);
            let access = Access::of(&lockfile, 42, "2026-01-01T00:00:00Z", NOWHERE);
            assert_eq!(access.secret(), None, "{secret:?}");
            let Access::Refused { why, .. } = &access else {
                panic!("{secret:?} taken: {access:?}");
            };
            assert!(
                why.ends_with(
                    "holds a secret no `Authorization` header can carry (a bridge's is letters \
                     and digits)"
                ),
                "{why}"
            );
        }
        for secret in ["35b9c0ffee", "a-b.c_d~e+f/g==", "Zm9v"] {
            let lockfile = planted(dir.path(), &sidecar(42, Some(secret)), 0o600);
            let access = Access::of(&lockfile, 42, "2026-01-01T00:00:00Z", NOWHERE);
            assert_eq!(access.secret(), Some(secret));
        }
    }

    #[test]
    fn a_private_sidecar_naming_the_process_gives_its_secret() {
        let dir = tempfile::tempdir().expect("tempdir");
        let lockfile = planted(dir.path(), &sidecar(42, Some("s3cret")), 0o600);
        let access = Access::of(&lockfile, 42, "2026-01-01T00:00:00Z", NOWHERE);
        assert_eq!(access.secret(), Some("s3cret"));
        assert!(!access.takes_oauth());
        assert!(!format!("{access:?}").contains("s3cret"), "{access:?}");
        // Another process's sidecar, or none: nothing to send.
        let other = Access::of(&lockfile, 43, "2026-01-01T00:00:00Z", NOWHERE);
        assert_eq!(other, Access::App { pid: 43 });
        std::fs::remove_file(sidecar_path(&lockfile)).expect("remove");
        assert_eq!(
            Access::of(&lockfile, 42, "2026-01-01T00:00:00Z", NOWHERE).secret(),
            None
        );
    }

    #[test]
    fn a_sidecar_others_can_read_or_a_link_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let lockfile = planted(dir.path(), &sidecar(42, Some("s3cret")), 0o644);
        let access = Access::of(&lockfile, 42, "2026-01-01T00:00:00Z", NOWHERE);
        let Access::Refused { why, .. } = &access else {
            panic!("taken: {access:?}");
        };
        assert!(
            why.ends_with("is open to group or others (mode 644), so its secret is no secret"),
            "{why}"
        );
        assert_eq!(access.secret(), None);

        let elsewhere = dir.path().join("elsewhere");
        std::fs::rename(sidecar_path(&lockfile), &elsewhere).expect("move");
        std::os::unix::fs::symlink(&elsewhere, sidecar_path(&lockfile)).expect("link");
        let access = Access::of(&lockfile, 42, "2026-01-01T00:00:00Z", NOWHERE);
        assert!(
            matches!(&access, Access::Refused { why, .. } if why.ends_with("is a symbolic link")),
            "{access:?}"
        );
    }

    #[test]
    fn endpoints_compare_as_the_same_address() {
        assert_eq!(
            same_endpoint_key("http://localhost:4000/mcp/"),
            same_endpoint_key("http://127.0.0.1:4000/mcp")
        );
        assert_ne!(
            same_endpoint_key("http://127.0.0.1:4001/mcp"),
            same_endpoint_key("http://127.0.0.1:4000/mcp")
        );
        // As the dialer reads them: the same place, however written.
        for same in [
            "HTTP://127.1:4000/mcp",
            "http://0x7f.0.0.1:4000/mcp/",
            "http://me@127.0.0.1:4000/mcp",
            "http://LOCALHOST:4000/mcp",
        ] {
            assert_eq!(
                same_endpoint_key(same),
                same_endpoint_key("http://127.0.0.1:4000/mcp"),
                "{same}"
            );
        }
        assert_eq!(
            same_endpoint_key("http://127.0.0.1:80/mcp"),
            same_endpoint_key("http://127.0.0.1/mcp")
        );
        assert_ne!(
            same_endpoint_key("http://[::1]:4000/mcp"),
            same_endpoint_key("http://127.0.0.1:4000/mcp")
        );
        assert_eq!(same_endpoint_key("not a url"), None);
    }
}
