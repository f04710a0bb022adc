//! `--auto`: a parallel scan of 127.0.0.1 ports for devtools sessions that
//! left no lockfile. A port counts only when `GET /mcp` answers the devtools
//! probe (`schema: reactor-devtools-mcp/1`).
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
//! never even asked. Elsewhere every port in the range is tried.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::StreamExt as _;
use mur_lockfile::{Transport, liveness};
use tokio::net::TcpStream;

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

/// Every devtools session listening on a port in `range`; `report` hears
/// how many ports are done as the scan goes.
pub async fn scan(http: &mur_http::Http, range: PortRange, report: &dyn Report) -> Vec<Candidate> {
    let ports: Vec<u16> = listening_ports(range).unwrap_or_else(|| range.ports().collect());
    let total = ports.len();
    let done = AtomicUsize::new(0);
    let found: Vec<Candidate> = futures_util::stream::iter(ports)
        .map(|port| {
            let done = &done;
            async move {
                let hit = probe_port(http, port).await;
                report.scan_progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                hit
            }
        })
        .buffer_unordered(PARALLEL)
        .filter_map(|hit| async move { hit })
        .collect()
        .await;
    report.scan_finished();
    found
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

async fn probe_port(http: &mur_http::Http, port: u16) -> Option<Candidate> {
    let stream = tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(("127.0.0.1", port)))
        .await
        .ok()?
        .ok()?;
    drop(stream);
    let endpoint = format!("http://127.0.0.1:{port}/mcp");
    let info = liveness::probe(http, &endpoint).await.ok()?;
    tracing::debug!(
        "port {port}: devtools session of `{}` (pid {})",
        info.project,
        info.pid
    );
    Some(Candidate {
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

    #[tokio::test]
    async fn a_port_that_is_not_devtools_is_ignored() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        // Accept and answer with something that is not the probe.
        std::thread::spawn(move || {
            use std::io::{Read as _, Write as _};
            for mut conn in listener.incoming().flatten() {
                let _ = conn.read(&mut [0; 1024]);
                let _ = conn.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}");
            }
        });
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
        assert!(found.is_empty());
    }
}
