//! `--auto`: a parallel scan of 127.0.0.1 ports for devtools sessions that
//! left no lockfile. A port counts only when `GET /mcp` answers the devtools
//! probe (`schema: reactor-devtools-mcp/1`).
//!
//! A port that answers HTTP but not the probe (an MCP server that is no devtools
//! session: `--auto` cannot use it) is named when the scan finds no session, with
//! the `--endpoint` that reaches an MCP server there ([`answering_http`]).
//!
//! Default range: the ports the OS hands out for `bind(127.0.0.1:0)`, which
//! is how a session picks its port. On Linux that is `ip_local_port_range`
//! (32768-60999 by default), read at run time; elsewhere the IANA dynamic
//! range 49152-65535 (Windows' and macOS' default). `--auto-full` scans
//! 1024-65535 for sessions started on a fixed port; `--auto-range LO-HI` any range.
//!
//! On Linux the kernel's socket table (`/proc/net/tcp`, `/proc/net/tcp6`) says
//! which ports in the range have a listener on loopback (or on every address)
//! owned by this user, so only those are probed: the full range takes
//! milliseconds instead of 64,512 connects, and another user's listener is
//! never even asked. Elsewhere every port in the range is tried. The ports that take a
//! connection are then probed within one probe timeout, all together.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::StreamExt as _;
use mur_lockfile::{Transport, liveness};
use tokio::net::TcpStream;
use tokio::time::Instant;

use crate::report::Report;
use crate::select::Candidate;
use crate::sockets;
use mur_core::settings::PortRange;

/// Connections in flight at once: high enough that closed loopback ports
/// (answered at once with RST) go fast, low enough for default fd limits.
const PARALLEL: usize = 256;
/// A loopback connect either succeeds or is refused at once; this only
/// bounds a filtered port.
const CONNECT_TIMEOUT: Duration = Duration::from_millis(300);

/// Every devtools session listening on a port in `range`, and the ports that answered
/// as something else; `report` hears how many ports are done as the scan goes.
pub async fn scan(http: &mur_http::Http, range: PortRange, report: &dyn Report) -> Scanned {
    let ports: Vec<u16> = listening_ports(range).unwrap_or_else(|| range.ports().collect());
    let met = scan_ports(http, ports, report).await;
    let mut scanned = Scanned {
        sessions: Vec::new(),
        range,
        others: Vec::new(),
    };
    for port in met {
        match port {
            Port::Session(candidate) => scanned.sessions.push(candidate),
            Port::Other(port) => scanned.others.push(port),
            Port::Nothing => {}
        }
    }
    scanned.others.sort_unstable();
    scanned
}

/// What a scan met: the devtools sessions, and the ports that answered the probe
/// with something else (sorted).
pub struct Scanned {
    pub sessions: Vec<Candidate>,
    range: PortRange,
    others: Vec<u16>,
}

impl Scanned {
    /// What was scanned, in the words of a hint under a scan's error.
    pub fn searched(&self) -> String {
        format!(
            "`--auto` scanned 127.0.0.1 ports {}-{} for devtools sessions",
            self.range.first, self.range.last
        )
    }

    /// The hint naming the ports that answered HTTP but not as devtools sessions, with
    /// the `--endpoint` that reaches an MCP server there ([`answering_hint`]); each is
    /// asked again ([`answering_http`]), so it costs up to one probe timeout more.
    pub async fn not_devtools(&self, http: &mur_http::Http) -> Option<String> {
        answering_hint(&answering_http(http, &self.others).await)
    }
}

/// What one port is.
enum Port {
    Session(Candidate),
    /// Listening, but what answered is no devtools session.
    Other(u16),
    /// Nothing listens, or it did not answer in time.
    Nothing,
}

/// What each of `ports` is: those that take a connection (a closed port refuses at once)
/// are probed, all by one deadline ([`probe_port`]). A deadline of each port's own
/// started only when its turn came, so more than [`PARALLEL`] silent listeners (stopped
/// processes, servers that never answer `GET`) took a probe timeout per [`PARALLEL`]
/// of them: a port whose turn comes after the deadline is passed over, uncontacted.
async fn scan_ports(http: &mur_http::Http, ports: Vec<u16>, report: &dyn Report) -> Vec<Port> {
    let total = ports.len();
    let done = AtomicUsize::new(0);
    let settled = || report.scan_progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
    let listening: Vec<u16> = futures_util::stream::iter(ports)
        .map(|port| async move {
            let open = accepts(port).await;
            if !open {
                settled();
            }
            open.then_some(port)
        })
        .buffered(PARALLEL)
        .filter_map(|port| async move { port })
        .collect()
        .await;
    let deadline = Instant::now() + liveness::PROBE_TIMEOUT;
    let met = futures_util::stream::iter(listening)
        .map(|port| async move {
            let met = probe_port(http, port, deadline).await;
            settled();
            met
        })
        .buffer_unordered(PARALLEL)
        .collect()
        .await;
    report.scan_finished();
    met
}

/// Of `ports` (sorted), those that answer `GET /mcp` with any HTTP answer at all:
/// a server that is no devtools session (an MCP server, a web server), not another
/// program's protocol (SSH) nor a listener gone since. Asked again, on the way to
/// "no session" only: the probe's error does not say which it was, and a scan that
/// finds a session needs no word of the others. All by one deadline, as the scan's
/// probes are.
pub(crate) async fn answering_http(http: &mur_http::Http, ports: &[u16]) -> Vec<u16> {
    let deadline = Instant::now() + liveness::PROBE_TIMEOUT;
    futures_util::stream::iter(ports.iter().copied())
        .map(|port| answers_http(http, port, deadline))
        .buffered(PARALLEL)
        .filter_map(|port| async move { port })
        .collect()
        .await
}

/// `port` if `GET /mcp` there has an HTTP answer by `deadline`; not asked past it.
async fn answers_http(http: &mur_http::Http, port: u16, deadline: Instant) -> Option<u16> {
    if Instant::now() >= deadline {
        return None;
    }
    let request = mur_http::Request::get(&endpoint_of(port));
    let answer = tokio::time::timeout_at(deadline, http.send(request)).await;
    matches!(answer, Ok(Ok(_))).then_some(port)
}

/// How many ports a hint names before "and N more".
const NAMED: usize = 3;

/// What the hint under `--auto`'s "no session" says of `ports` (sorted), which answered
/// HTTP but not the devtools probe: `--auto` finds only devtools sessions, and the
/// third-party MCP server a user scanned for is reached with `--endpoint` instead.
pub(crate) fn answering_hint(ports: &[u16]) -> Option<String> {
    let first = endpoint_of(*ports.first()?);
    let shown: Vec<String> = ports.iter().take(NAMED).map(u16::to_string).collect();
    let mut named = shown.join(", ");
    if ports.len() > NAMED {
        named.push_str(&format!(" and {} more", ports.len() - NAMED));
    }
    Some(match ports.len() {
        1 => format!(
            "port {named} answered HTTP, not as a devtools session: if it is an MCP server, \
             reach it with `--endpoint {first}`"
        ),
        _ => format!(
            "ports {named} answered HTTP, not as devtools sessions: reach an MCP server on one \
             with `--endpoint http://127.0.0.1:PORT/mcp` (`--endpoint {first}`)"
        ),
    })
}

/// Where a session on `port` is reached: every devtools session serves `/mcp`.
pub(crate) fn endpoint_of(port: u16) -> String {
    format!("http://127.0.0.1:{port}/mcp")
}

/// The ports in `range` with a TCP listener on loopback or on every address,
/// owned by this user; `None` when the socket table cannot be read.
fn listening_ports(range: PortRange) -> Option<Vec<u16>> {
    let uid = sockets::my_uid()?;
    let mut ports: Vec<u16> = sockets::listeners()?
        .into_iter()
        .filter(|listener| listener.uid == uid)
        .map(|listener| listener.port)
        .filter(|port| (range.first..=range.last).contains(port))
        .collect();
    ports.sort_unstable();
    ports.dedup();
    tracing::debug!(
        "{} listening ports owned by uid {uid} in {}-{}",
        ports.len(),
        range.first,
        range.last
    );
    Some(ports)
}

/// Whether `port` takes a connection on 127.0.0.1. Closed at once: a server that serves
/// one connection at a time would not answer the probe while this one is open.
async fn accepts(port: u16) -> bool {
    let connected =
        tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(("127.0.0.1", port))).await;
    matches!(connected, Ok(Ok(_)))
}

/// What answers the devtools probe on `port` by `deadline`, the one the scan's probes
/// share; a port whose turn comes after it is not contacted.
async fn probe_port(http: &mur_http::Http, port: u16, deadline: Instant) -> Port {
    if Instant::now() >= deadline {
        tracing::debug!("port {port}: not probed, the probes of silent ports took the time");
        return Port::Nothing;
    }
    let endpoint = endpoint_of(port);
    let probe = tokio::time::timeout_at(deadline, liveness::probe(http, &endpoint));
    let info = match probe.await.unwrap_or_else(|_| {
        Err(liveness::ProbeError::NoAnswer(
            "did not answer by the scan's deadline".into(),
        ))
    }) {
        Ok(info) => info,
        Err(liveness::ProbeError::NotDevtools(why)) => {
            tracing::debug!("port {port}: not a devtools session: {why}");
            return Port::Other(port);
        }
        Err(liveness::ProbeError::NoAnswer(_)) => return Port::Nothing,
    };
    tracing::debug!(
        "port {port}: devtools session of `{}` (pid {})",
        info.project,
        info.pid
    );
    Port::Session(Candidate {
        endpoint,
        project: info.project,
        pid: info.pid,
        transport: Transport::Http,
        build_tag: info.build_tag,
        started_at: info.started_at,
        lockfile: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn the_socket_table_lists_our_loopback_listener_only_inside_the_range() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let around = PortRange {
            first: port.saturating_sub(5),
            last: port.saturating_add(5),
        };
        assert!(
            listening_ports(around)
                .expect("socket table")
                .contains(&port)
        );
        let elsewhere = if port > 2000 {
            PortRange {
                first: 1024,
                last: 1500,
            }
        } else {
            PortRange {
                first: 60000,
                last: 60500,
            }
        };
        assert!(
            !listening_ports(elsewhere)
                .expect("socket table")
                .contains(&port)
        );
    }

    /// A listener on 127.0.0.1 that answers each connection with `answer`: an HTTP
    /// server's, after reading the request, closing the connection (it answers one
    /// request on each); else a greeting, the connection held open as an SSH server does.
    fn answering(answer: &'static [u8], http: bool) -> u16 {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        std::thread::spawn(move || {
            use std::io::{Read as _, Write as _};
            let mut held = Vec::new();
            for mut conn in listener.incoming().flatten() {
                if http {
                    let _ = conn.read(&mut [0; 1024]);
                }
                let _ = conn.write_all(answer);
                if !http {
                    held.push(conn);
                }
            }
        });
        port
    }

    const NOT_THE_PROBE: &[u8] =
        b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}";

    #[tokio::test]
    async fn a_port_that_is_not_devtools_is_ignored() {
        let port = answering(NOT_THE_PROBE, true);
        let http = mur_http::Http::new();
        let found = scan(
            &http,
            PortRange {
                first: port,
                last: port,
            },
            &crate::report::Silent,
        )
        .await;
        assert!(found.sessions.is_empty());
    }

    /// An HTTP server that is no devtools session is kept to be named (an MCP server
    /// there is reached with `--endpoint`); another program's protocol is not.
    #[tokio::test]
    async fn of_the_ports_that_are_not_devtools_those_answering_http_are_kept() {
        let web = answering(NOT_THE_PROBE, true);
        let ssh = answering(b"SSH-2.0-OpenSSH_9.6\r\n", false);
        let http = mur_http::Http::new();
        let mut others = Vec::new();
        for port in [web, ssh] {
            let range = PortRange {
                first: port,
                last: port,
            };
            let scanned = scan(&http, range, &crate::report::Silent).await;
            assert!(scanned.sessions.is_empty());
            others.extend(scanned.others);
        }
        others.sort_unstable();
        assert_eq!(answering_http(&http, &others).await, [web]);
    }

    /// More silent listeners than probes in flight (bound, never accepting: a stopped
    /// process's) share one probe timeout: those whose turn comes after it are passed
    /// over, and what answered in time is what the scan returns. With a timeout of each
    /// port's own, every one was probed and the scan took one timeout per [`PARALLEL`].
    #[tokio::test]
    async fn more_silent_listeners_than_parallel_share_one_probe_deadline() {
        let web = answering(NOT_THE_PROBE, true);
        let silent: Vec<std::net::TcpListener> = (0..PARALLEL + 8)
            .map(|_| std::net::TcpListener::bind("127.0.0.1:0").expect("bind"))
            .collect();
        let ports = std::iter::once(web)
            .chain(silent.iter().map(|l| l.local_addr().expect("addr").port()))
            .collect();
        let met = scan_ports(&mur_http::Http::new(), ports, &crate::report::Silent).await;
        let others: Vec<u16> = (met.iter())
            .filter_map(|port| match port {
                Port::Other(port) => Some(*port),
                _ => None,
            })
            .collect();
        assert_eq!(others, [web]);
        // Connections each listener has queued (none is ever accepted): one of the
        // check that it takes connections, a second of the probe. The web server's
        // answer freed its place at once; the last 8 came after the deadline.
        let queued: Vec<usize> = (silent.iter())
            .map(|listener| {
                listener.set_nonblocking(true).expect("nonblocking");
                std::iter::from_fn(|| listener.accept().ok()).count()
            })
            .collect();
        let mut probed = vec![2; PARALLEL];
        probed.resize(PARALLEL + 8, 1);
        assert_eq!(queued, probed);
    }

    #[test]
    fn the_hint_names_a_few_ports_and_the_endpoint_to_try() {
        assert_eq!(answering_hint(&[]), None);
        assert_eq!(
            answering_hint(&[38101]).expect("a hint"),
            "port 38101 answered HTTP, not as a devtools session: if it is an MCP server, \
             reach it with `--endpoint http://127.0.0.1:38101/mcp`"
        );
        assert_eq!(
            answering_hint(&[38101, 38105]).expect("a hint"),
            "ports 38101, 38105 answered HTTP, not as devtools sessions: reach an MCP server \
             on one with `--endpoint http://127.0.0.1:PORT/mcp` (`--endpoint \
             http://127.0.0.1:38101/mcp`)"
        );
        assert_eq!(
            answering_hint(&[38101, 38102, 38103, 38104, 38110]).expect("a hint"),
            "ports 38101, 38102, 38103 and 2 more answered HTTP, not as devtools sessions: \
             reach an MCP server on one with `--endpoint http://127.0.0.1:PORT/mcp` \
             (`--endpoint http://127.0.0.1:38101/mcp`)"
        );
    }
}
