//! The contract floor's discovery: what the lockfile contract asks of any
//! client before its call — read the lockfile directory, check that the pid
//! runs, and `GET` the endpoint for the devtools probe answering as that pid —
//! done with std only and no JSON parser (a field is found by its key), so the
//! benchmark's second baseline owes nothing to any crate either.

use std::{
    io::{self, BufReader},
    net::TcpStream,
    path::{Path, PathBuf},
};

use crate::wire;

/// The probe schema a live session answers `GET <endpoint>` with.
const PROBE_SCHEMA: &str = "reactor-devtools-mcp/1";

/// A session that passed the contract's checks, and the connection the probe
/// used (kept open, as an HTTP client would, for the call).
pub struct Live {
    pub host_port: String,
    pub path: String,
    pub stream: TcpStream,
}

/// The lockfile directories of this user, as mur reads them
/// (`mur_lockfile::paths::lockfile_dirs`, here in std alone, as the rest of the floor):
/// where sessions of this environment write first — `$XDG_RUNTIME_DIR/reactor-devtools`,
/// or without that variable the login's `/run/user/<uid>/reactor-devtools` when that
/// directory is the user's own and private — then `${TMPDIR:-/tmp}/reactor-devtools-<uid>`
/// (the contract's Linux path, where a writer started without the variable announces
/// itself) when it is there, the user's and writable by no one else; that one alone when
/// neither of the first is known.
pub fn lockfile_dirs() -> Vec<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let own = |dir: &Path, others: u32| {
        std::fs::symlink_metadata(dir)
            .is_ok_and(|m| m.is_dir() && m.uid() == uid() && m.mode() & others == 0)
    };
    let tmp = std::env::var_os("TMPDIR")
        .filter(|d| !d.is_empty())
        .map_or_else(|| PathBuf::from("/tmp"), PathBuf::from);
    let shared = tmp.join(format!("reactor-devtools-{}", uid()));
    let login = PathBuf::from(format!("/run/user/{}", uid()));
    let written = match std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        Some(runtime) => PathBuf::from(runtime),
        None if own(&login, 0o077) => login,
        None => return vec![shared],
    };
    let mut dirs = vec![written.join("reactor-devtools")];
    dirs.extend(Some(shared).filter(|shared| *shared != dirs[0] && own(shared, 0o022)));
    dirs
}

/// This process's uid, as the owner of its own `/proc` entry (std has no getuid).
fn uid() -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").map_or(0, |meta| meta.uid())
}

/// The first lockfile in `dirs` (each in turn) whose pid runs and whose endpoint answers
/// the probe as that pid.
pub fn find_live(dirs: &[PathBuf]) -> io::Result<Live> {
    let mut names = Vec::new();
    for dir in dirs {
        let listing = match std::fs::read_dir(dir) {
            Err(err) if err.kind() == io::ErrorKind::NotFound => continue,
            listing => listing?,
        };
        let mut listed: Vec<PathBuf> = listing
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
            .collect();
        listed.sort();
        names.extend(listed);
    }
    for path in names {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let (Some(endpoint), Some(pid)) =
            (string_field(&text, "endpoint"), number_field(&text, "pid"))
        else {
            continue;
        };
        if !running(pid) {
            continue;
        }
        if let Ok(live) = probe(endpoint, pid) {
            return Ok(live);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::NotFound,
        format!(
            "no live session in {}",
            dirs.iter()
                .map(|dir| dir.display().to_string())
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    ))
}

/// Whether `pid` is a running process: one look at `/proc/<pid>`.
fn running(pid: u64) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// `GET <endpoint>`: the devtools probe, answered by the same pid.
fn probe(endpoint: &str, pid: u64) -> io::Result<Live> {
    let (host_port, path) = wire::split_endpoint(endpoint)?;
    let mut stream = TcpStream::connect(&host_port)?;
    let _ = stream.set_nodelay(true);
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {host_port}\r\nAccept: application/json\r\nConnection: keep-alive\r\n\r\n"
    );
    let (status, body) = {
        use std::io::Write;
        stream.write_all(request.as_bytes())?;
        wire::read_response(&mut BufReader::new(&mut stream))?
    };
    let body = String::from_utf8_lossy(&body);
    let answers = status == 200
        && string_field(&body, "schema") == Some(PROBE_SCHEMA)
        && number_field(&body, "pid") == Some(pid);
    if !answers {
        return Err(io::Error::other(format!("{endpoint} is not that session")));
    }
    Ok(Live {
        host_port,
        path,
        stream,
    })
}

/// The string value of `"key": "…"` in a flat JSON object (no escapes needed:
/// endpoints and schemas have none).
pub fn string_field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let rest = after_key(text, key)?.strip_prefix('"')?;
    rest.find('"').map(|end| &rest[..end])
}

/// The unsigned number value of `"key": N` in a flat JSON object.
pub fn number_field(text: &str, key: &str) -> Option<u64> {
    let rest = after_key(text, key)?;
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest[..digits].parse().ok()
}

fn after_key<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let quoted = format!("\"{key}\"");
    let at = text.find(&quoted)? + quoted.len();
    let rest = text[at..].trim_start().strip_prefix(':')?;
    Some(rest.trim_start())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_found_by_key_in_a_lockfile() {
        let lockfile = "{\n  \"schema\": \"reactor-devtools-lockfile/1\",\n  \"endpoint\": \"http://127.0.0.1:4100/mcp\",\n  \"port\": 4100,\n  \"pid\": 31337\n}";
        assert_eq!(
            string_field(lockfile, "endpoint"),
            Some("http://127.0.0.1:4100/mcp")
        );
        assert_eq!(number_field(lockfile, "pid"), Some(31337));
        assert_eq!(number_field(r#"{"pid":7,"x":1}"#, "pid"), Some(7));
        assert_eq!(string_field(lockfile, "project"), None);
        assert_eq!(number_field(lockfile, "endpoint"), None);
    }
}
