//! `--auto`: a parallel scan of 127.0.0.1 ports for devtools sessions that
//! left no lockfile. A port counts only when `GET /mcp` answers the devtools
//! probe (`schema: reactor-devtools-mcp/1`).
//!
//! A port that answers HTTP but not the probe (an MCP server that is no devtools
//! session: `--auto` cannot use it) is named when the scan finds no session, with
//! the `--endpoint` that reaches an MCP server there ([`answering_http`]); so is one
//! that takes a connection and never answers in its turn ([`Scanned::silent_hint`]), as
//! a session stopped in a debugger does, which discovery by its lockfile says too.
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
//! connection are then probed within one probe timeout, in turns that share it
//! ([`Turns`]): however many listeners accept a connection and never answer, each port
//! gets a turn of its own, or is counted as passed over and said so.

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

/// A loopback connect either succeeds or is refused at once; this only
/// bounds a filtered port.
const CONNECT_TIMEOUT: Duration = Duration::from_millis(300);
/// The shortest turn a probe is given ([`Turns`]): a devtools session answers the
/// probe on loopback within milliseconds, so this is ample, and a scan past as many
/// silent listeners as the probe timeout has such turns for passes the rest over
/// rather than give each too little to be answered in.
const LEAST_TURN: Duration = Duration::from_millis(100);

/// Every devtools session listening on a port in `range`, and the ports that answered
/// as something else; `report` hears how many ports are done as the scan goes.
pub async fn scan(http: &mur_http::Http, range: PortRange, report: &dyn Report) -> Scanned {
    let ports: Vec<u16> = listening_ports(range).unwrap_or_else(|| range.ports().collect());
    let places = liveness::probes_in_flight();
    scanned(range, scan_ports(http, ports, report, places).await)
}

/// What a scan of `range` met at the ports that took a connection, gathered.
fn scanned(range: PortRange, met: Vec<Port>) -> Scanned {
    let mut scanned = Scanned {
        sessions: Vec::new(),
        range,
        others: Vec::new(),
        silent: Vec::new(),
        listening: met.len(),
        unprobed: 0,
    };
    for port in met {
        match port {
            Port::Session(candidate) => scanned.sessions.push(candidate),
            Port::Other(port) => scanned.others.push(port),
            Port::Silent(port) => scanned.silent.push(port),
            Port::Unprobed => scanned.unprobed += 1,
            Port::Nothing => {}
        }
    }
    scanned.others.sort_unstable();
    scanned.silent.sort_unstable();
    scanned
}

/// What a scan met: the devtools sessions, and the ports that answered the probe
/// with something else (sorted).
pub struct Scanned {
    pub sessions: Vec<Candidate>,
    range: PortRange,
    others: Vec<u16>,
    /// The ports that took a connection and did not answer the probe in their turn
    /// (sorted).
    silent: Vec<u16>,
    /// How many ports took a connection.
    listening: usize,
    /// How many of those were passed over: the probe timeout had no turn left for
    /// them ([`Turns`]).
    unprobed: usize,
}

impl Scanned {
    /// What was scanned, in the words of a hint under a scan's error; and how many
    /// ports it passed over, if any, with what makes it probe them.
    pub fn searched(&self) -> String {
        match self.passed_over_words() {
            Some(passed_over) => format!(
                "{}; {passed_over}, `--endpoint http://127.0.0.1:PORT/mcp` calls a session by \
                 its port",
                self.scanned_words()
            ),
            None => self.scanned_words(),
        }
    }

    /// What a listing of the sessions found says when the scan passed ports over: the
    /// words of [`Self::searched`] but `--endpoint`, which lists nothing. `None` when
    /// every port was probed, and the listing is whole.
    pub fn passed_over(&self) -> Option<String> {
        let passed_over = self.passed_over_words()?;
        Some(format!("{}; {passed_over}", self.scanned_words()))
    }

    fn scanned_words(&self) -> String {
        format!(
            "`--auto` scanned 127.0.0.1 ports {}-{} for devtools sessions",
            self.range.first, self.range.last
        )
    }

    /// How many ports the scan passed over, why, and how to scan fewer.
    fn passed_over_words(&self) -> Option<String> {
        (self.unprobed > 0).then(|| {
            format!(
                "{} of the {} ports that took a connection were not probed: those that accept \
                 a connection and never answer took the {} ms the probes have, at least {} ms \
                 each; `--auto-range LO-HI` scans fewer ports",
                self.unprobed,
                self.listening,
                liveness::PROBE_TIMEOUT.as_millis(),
                LEAST_TURN.as_millis()
            )
        })
    }

    /// The hint naming the ports that answered HTTP but not as devtools sessions, with
    /// the `--endpoint` that reaches an MCP server there ([`answering_hint`]); each is
    /// asked again ([`answering_http`]), so it costs up to one probe timeout more.
    pub async fn not_devtools(&self, http: &mur_http::Http) -> Option<String> {
        answering_hint(&answering_http(http, &self.others).await)
    }

    /// The hint naming the ports that took a connection and did not answer the probe in
    /// their turn: a session stopped in a debugger or overloaded, which a lockfile's
    /// discovery says "runs but did not answer the probe"; `--auto` said only "no
    /// session", as if nothing were there (review 609 #9).
    pub fn silent_hint(&self) -> Option<String> {
        let first = endpoint_of(*self.silent.first()?);
        let named = named_ports(&self.silent);
        let within = liveness::PROBE_TIMEOUT.as_millis();
        Some(match self.silent.len() {
            1 => format!(
                "port {named} took a connection but did not answer the probe in its turn of \
                 the {within} ms the probes have: a session stopped in a debugger or \
                 overloaded does that; `--endpoint {first}` calls it once it answers"
            ),
            _ => format!(
                "ports {named} took a connection but did not answer the probe in their turns \
                 of the {within} ms the probes have: a session stopped in a debugger or \
                 overloaded does that; `--endpoint http://127.0.0.1:PORT/mcp` calls one once \
                 it answers"
            ),
        })
    }
}

/// What one port is.
enum Port {
    Session(Candidate),
    /// Listening, but what answered is no devtools session.
    Other(u16),
    /// Listening, and did not answer in its turn.
    Silent(u16),
    /// Listening, and the probe's connection broke or could not be made.
    Nothing,
    /// Listening, and passed over: no turn was left for it ([`Turns`]).
    Unprobed,
}

/// What each of `ports` that takes a connection is (a closed port refuses at once, and is
/// left out): each is probed, `places` at a time, within one probe timeout shared in [`Turns`]
/// ([`probe_port`]). With the deadline alone, `places` silent listeners (stopped
/// processes, servers that never answer `GET`) held every place to its end, and the
/// ports after them, a live session's among them, were never probed.
async fn scan_ports(
    http: &mur_http::Http,
    ports: Vec<u16>,
    report: &dyn Report,
    places: usize,
) -> Vec<Port> {
    let places = places.max(1);
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
        .buffered(places)
        .filter_map(|port| async move { port })
        .collect()
        .await;
    let turns = Turns::new(liveness::PROBE_TIMEOUT, places, listening.len());
    let turns = &turns;
    let met = futures_util::stream::iter(listening)
        .map(|port| async move {
            let met = match turns.next() {
                Some(turn) => probe_port(http, port, Instant::now() + turn).await,
                None => {
                    tracing::debug!(
                        "port {port}: not probed, the probes of silent ports took the time"
                    );
                    Port::Unprobed
                }
            };
            turns.finished();
            settled();
            met
        })
        .buffer_unordered(places)
        .collect()
        .await;
    report.scan_finished();
    met
}

/// How the scan's probe timeout is shared by the ports that took a connection,
/// `places` probed at once: in turns, as many as the ports not finished fill and all of
/// one length, so that each port's turn comes before the deadline and a silent listener
/// (accepting, never answering) holds its place for its turn, not to the end. A port
/// answered frees its place at once for the next. A turn is never shorter than
/// [`LEAST_TURN`]: past as many silent listeners as the timeout has such turns for, the
/// ports left are passed over, counted ([`Scanned::searched`] says how many).
struct Turns {
    deadline: Instant,
    places: usize,
    unfinished: AtomicUsize,
}

impl Turns {
    fn new(budget: Duration, places: usize, ports: usize) -> Self {
        Self {
            deadline: Instant::now() + budget,
            places: places.max(1),
            unfinished: AtomicUsize::new(ports),
        }
    }

    /// How long a probe starting now may take; `None` when less than [`LEAST_TURN`]
    /// is left.
    fn next(&self) -> Option<Duration> {
        let left = self.deadline.checked_duration_since(Instant::now())?;
        let unfinished = self.unfinished.load(Ordering::Relaxed).max(1);
        let turns = u32::try_from(unfinished.div_ceil(self.places)).unwrap_or(u32::MAX);
        let turn = (left / turns).max(LEAST_TURN);
        (turn <= left).then_some(turn)
    }

    fn finished(&self) {
        self.unfinished.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Of `ports` (sorted), those that answer `GET /mcp` with any HTTP answer at all:
/// a server that is no devtools session (an MCP server, a web server), not another
/// program's protocol (SSH) nor a listener gone since. Asked again, on the way to
/// "no session" only: the probe's error does not say which it was, and a scan that
/// finds a session needs no word of the others. All by one deadline: each of these
/// answered the scan's probe, so none holds its place to the end but one that stopped
/// answering since.
pub(crate) async fn answering_http(http: &mur_http::Http, ports: &[u16]) -> Vec<u16> {
    let deadline = Instant::now() + liveness::PROBE_TIMEOUT;
    futures_util::stream::iter(ports.iter().copied())
        .map(|port| answers_http(http, port, deadline))
        .buffered(liveness::probes_in_flight())
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
    let named = named_ports(ports);
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

/// The first [`NAMED`] of `ports`, and how many more: "1, 2, 3 and 2 more".
fn named_ports(ports: &[u16]) -> String {
    let shown: Vec<String> = ports.iter().take(NAMED).map(u16::to_string).collect();
    let mut named = shown.join(", ");
    if ports.len() > NAMED {
        named.push_str(&format!(" and {} more", ports.len() - NAMED));
    }
    named
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

/// What answers the devtools probe on `port` by `deadline`, the end of its turn.
async fn probe_port(http: &mur_http::Http, port: u16, deadline: Instant) -> Port {
    let endpoint = endpoint_of(port);
    let probe = tokio::time::timeout_at(deadline, liveness::probe(http, &endpoint));
    let Ok(probed) = probe.await else {
        tracing::debug!("port {port}: did not answer the probe in its turn");
        return Port::Silent(port);
    };
    let info = match probed {
        Ok(info) => info,
        Err(liveness::ProbeError::NotDevtools(why)) => {
            tracing::debug!("port {port}: not a devtools session: {why}");
            return Port::Other(port);
        }
        // The probe's own timeout, ending with the turn (in the same tick of the timer):
        // no answer in its turn either.
        Err(liveness::ProbeError::NoAnswer(_)) if Instant::now() >= deadline => {
            tracing::debug!("port {port}: did not answer the probe in its turn");
            return Port::Silent(port);
        }
        Err(liveness::ProbeError::NoAnswer(why)) => {
            tracing::debug!("port {port}: {why}");
            return Port::Nothing;
        }
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

    /// `count` listeners on 127.0.0.1 that never accept (a stopped process's: the kernel
    /// completes the handshake, a request waits), and their ports.
    fn silent(count: usize) -> (Vec<std::net::TcpListener>, Vec<u16>) {
        let listeners: Vec<std::net::TcpListener> = (0..count)
            .map(|_| std::net::TcpListener::bind("127.0.0.1:0").expect("bind"))
            .collect();
        let ports = (listeners.iter())
            .map(|l| l.local_addr().expect("addr").port())
            .collect();
        (listeners, ports)
    }

    /// How many connections each of `listeners` has queued (none is ever accepted): one
    /// of the check that it takes connections, a second of the probe.
    fn queued(listeners: &[std::net::TcpListener]) -> Vec<usize> {
        (listeners.iter())
            .map(|listener| {
                listener.set_nonblocking(true).expect("nonblocking");
                std::iter::from_fn(|| listener.accept().ok()).count()
            })
            .collect()
    }

    /// More silent listeners than probes in flight: each gets a turn of the probe
    /// timeout, and what answers among them is found. With one deadline over them all,
    /// the first [`liveness::PROBES_IN_FLIGHT`] held every place to its end and the last
    /// 8 were never probed (a live session's port among them was missed).
    #[tokio::test]
    async fn more_silent_listeners_than_probes_in_flight_each_get_a_turn() {
        let places = liveness::PROBES_IN_FLIGHT;
        let (listeners, ports) = silent(places + 8);
        let web = answering(NOT_THE_PROBE, true);
        let ports = ports.into_iter().chain([web]).collect();
        let http = mur_http::Http::new();
        let met = scan_ports(&http, ports, &crate::report::Silent, places).await;
        let scanned = scanned(PortRange { first: 1, last: 2 }, met);
        assert_eq!(scanned.others, [web]);
        assert_eq!(queued(&listeners), vec![2; places + 8]);
        let sorted = &scanned.silent;
        assert_eq!(sorted.len(), places + 8);
        assert_eq!(
            scanned.silent_hint().expect("a hint"),
            format!(
                "ports {}, {}, {} and {} more took a connection but did not answer the probe \
                 in their turns of the 1500 ms the probes have: a session stopped in a \
                 debugger or overloaded does that; `--endpoint http://127.0.0.1:PORT/mcp` \
                 calls one once it answers",
                sorted[0],
                sorted[1],
                sorted[2],
                places + 5
            )
        );
        assert_eq!(
            scanned.searched(),
            "`--auto` scanned 127.0.0.1 ports 1-2 for devtools sessions"
        );
        assert_eq!(scanned.passed_over(), None);
    }

    /// Past as many silent listeners as the probe timeout has turns of [`LEAST_TURN`]
    /// for (2 in flight: 30 of them), the ports left are not probed, and the hint under
    /// "no session" says how many and what to do.
    #[tokio::test]
    async fn ports_past_the_turns_the_timeout_has_are_counted_and_said() {
        let (listeners, ports) = silent(40);
        let met = scan_ports(&mur_http::Http::new(), ports, &crate::report::Silent, 2).await;
        let scanned = scanned(PortRange { first: 1, last: 2 }, met);
        let queued = queued(&listeners);
        let passed_over = queued.iter().filter(|&&n| n == 1).count();
        assert!(queued.iter().all(|&n| n == 1 || n == 2), "{queued:?}");
        assert!(passed_over > 0, "{queued:?}");
        assert_eq!(scanned.unprobed, passed_over);
        assert_eq!(
            scanned.searched(),
            format!(
                "`--auto` scanned 127.0.0.1 ports 1-2 for devtools sessions; {passed_over} of \
                 the 40 ports that took a connection were not probed: those that accept a \
                 connection and never answer took the 1500 ms the probes have, at least 100 \
                 ms each; `--auto-range LO-HI` scans fewer ports, `--endpoint \
                 http://127.0.0.1:PORT/mcp` calls a session by its port"
            )
        );
        // A listing says it without `--endpoint`, which lists nothing.
        assert_eq!(
            scanned.passed_over().expect("ports passed over"),
            format!(
                "`--auto` scanned 127.0.0.1 ports 1-2 for devtools sessions; {passed_over} of \
                 the 40 ports that took a connection were not probed: those that accept a \
                 connection and never answer took the 1500 ms the probes have, at least 100 \
                 ms each; `--auto-range LO-HI` scans fewer ports"
            )
        );
    }

    /// A listener that accepts each connection and holds it, never answering (a
    /// session stopped in a debugger, its accept loop on another thread): its port.
    fn accepting_silently() -> u16 {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        std::thread::spawn(move || {
            let held: Vec<_> = listener.incoming().flatten().collect();
            drop(held);
        });
        port
    }

    /// A port that takes a connection and never answers the probe is named under "no
    /// session", as a lockfile's session that runs but did not answer is; `--auto` said
    /// nothing of it (review 609 #9). A port that answers says nothing of the kind.
    #[tokio::test]
    async fn a_port_that_accepts_and_never_answers_is_named() {
        let http = mur_http::Http::new();
        let one = |port| PortRange {
            first: port,
            last: port,
        };
        let port = accepting_silently();
        let scanned = scan(&http, one(port), &crate::report::Silent).await;
        assert!(scanned.sessions.is_empty());
        assert_eq!(
            scanned.silent_hint().expect("a hint"),
            format!(
                "port {port} took a connection but did not answer the probe in its turn of \
                 the 1500 ms the probes have: a session stopped in a debugger or overloaded \
                 does that; `--endpoint http://127.0.0.1:{port}/mcp` calls it once it answers"
            )
        );
        let web = answering(NOT_THE_PROBE, true);
        let scanned = scan(&http, one(web), &crate::report::Silent).await;
        assert_eq!(scanned.silent_hint(), None);
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
