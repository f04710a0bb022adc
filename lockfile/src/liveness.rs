//! Whether the session behind a lockfile is really serving: its pid is a
//! running process AND its endpoint answers the devtools probe with the same
//! pid. A pid alone is never enough — pids are reused.

use std::time::Duration;

use serde::Deserialize;
use sysinfo::{Pid, ProcessRefreshKind, ProcessStatus, ProcessesToUpdate, System};

use crate::{Lockfile, PROBE_SCHEMA, Transport};

/// How long one probe may take. Loopback answers in well under a millisecond;
/// this only bounds a process that accepts connections and never answers.
pub const PROBE_TIMEOUT: Duration = Duration::from_millis(1500);

/// Whether `pid` is a running (not zombie) process.
pub fn pid_running(pid: u32) -> bool {
    running_pids(&[pid]).first().copied().unwrap_or(true)
}

/// For each pid, whether it is a running (not zombie) process. One process
/// table snapshot serves them all, refreshing only these pids, so a thousand
/// stale lockfiles cost one pass rather than a thousand.
pub fn running_pids(pids: &[u32]) -> Vec<bool> {
    // Where sysinfo cannot read the process table, say "running" and let the
    // HTTP probe decide: a wrong "dead" would delete a live session's lockfile.
    let Ok(mut system) = System::new() else {
        return vec![true; pids.len()];
    };
    let wanted: Vec<Pid> = pids.iter().map(|pid| Pid::from_u32(*pid)).collect();
    let mut distinct = wanted.clone();
    distinct.sort_unstable();
    distinct.dedup();
    system.refresh_processes_specifics(
        ProcessesToUpdate::Some(&distinct),
        true,
        ProcessRefreshKind::nothing(),
    );
    let running = |pid: &Pid| {
        system.process(*pid).is_some_and(|process| {
            !matches!(
                process.status(),
                ProcessStatus::Zombie | ProcessStatus::Dead
            )
        })
    };
    wanted.iter().map(running).collect()
}

/// What a devtools endpoint answers to `GET /mcp`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProbeInfo {
    pub schema: String,
    pub pid: u32,
    #[serde(default)]
    pub project: String,
    #[serde(default)]
    pub build_tag: String,
    #[serde(default)]
    pub started_at: String,
}

/// The verdict on one lockfile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Liveness {
    Live,
    /// The process is gone: the lockfile is stale.
    DeadPid,
    /// The pid is alive but the endpoint is not the devtools server that
    /// wrote the lockfile (unreachable, another program, another pid).
    NotDevtools(String),
}

/// `GET <endpoint>` and parse the devtools probe answer.
pub async fn probe(client: &reqwest::Client, endpoint: &str) -> Result<ProbeInfo, String> {
    let response = client
        .get(endpoint)
        .header(reqwest::header::ACCEPT, "application/json")
        .timeout(PROBE_TIMEOUT)
        .send()
        .await
        .map_err(|err| describe_request_error(&err))?;
    if !response.status().is_success() {
        return Err(format!("answered HTTP {}", response.status().as_u16()));
    }
    let body = response
        .bytes()
        .await
        .map_err(|err| describe_request_error(&err))?;
    let info: ProbeInfo = serde_json::from_slice(&body)
        .map_err(|_| "did not answer the devtools probe".to_owned())?;
    if info.schema != PROBE_SCHEMA {
        return Err(format!(
            "answered probe schema `{}`, not `{PROBE_SCHEMA}`",
            info.schema
        ));
    }
    Ok(info)
}

/// Judge one lockfile. Stdio sessions have no endpoint: their pid is all
/// there is to check.
pub async fn check(client: &reqwest::Client, lock: &Lockfile) -> Liveness {
    check_with_pid(client, lock, pid_running(lock.pid)).await
}

/// Judge many lockfiles: one process-table pass, then the HTTP probes of the
/// live pids concurrently. Verdicts come back in the order of `locks`.
pub async fn check_all(client: &reqwest::Client, locks: &[&Lockfile]) -> Vec<Liveness> {
    let pids: Vec<u32> = locks.iter().map(|lock| lock.pid).collect();
    let running = running_pids(&pids);
    let probes = locks
        .iter()
        .zip(running)
        .map(|(lock, alive)| check_with_pid(client, lock, alive));
    futures_util::future::join_all(probes).await
}

async fn check_with_pid(client: &reqwest::Client, lock: &Lockfile, pid_alive: bool) -> Liveness {
    if !pid_alive {
        return Liveness::DeadPid;
    }
    if lock.transport == Transport::Stdio {
        return Liveness::Live;
    }
    match probe(client, &lock.endpoint).await {
        Ok(info) if info.pid == lock.pid => Liveness::Live,
        Ok(info) => {
            Liveness::NotDevtools(format!("answered for pid {}, not {}", info.pid, lock.pid))
        }
        Err(reason) => Liveness::NotDevtools(reason),
    }
}

fn describe_request_error(err: &reqwest::Error) -> String {
    if err.is_timeout() {
        "did not answer in time".to_owned()
    } else if err.is_connect() {
        "refused the connection".to_owned()
    } else {
        format!("failed: {err}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_running() {
        assert!(pid_running(std::process::id()));
    }

    #[test]
    fn a_reaped_child_is_not_running() {
        let mut child = std::process::Command::new("true")
            .spawn()
            .expect("spawn true");
        let pid = child.id();
        child.wait().expect("wait");
        assert!(!pid_running(pid));
    }

    #[tokio::test]
    async fn a_dead_pid_is_stale_without_any_network() {
        let mut child = std::process::Command::new("true")
            .spawn()
            .expect("spawn true");
        let pid = child.id();
        child.wait().expect("wait");
        let lock = Lockfile::http(1, pid, "/p".into(), "t".into());
        assert_eq!(
            check(&reqwest::Client::new(), &lock).await,
            Liveness::DeadPid
        );
    }

    #[tokio::test]
    async fn check_all_judges_each_lockfile_in_order() {
        let mut child = std::process::Command::new("true")
            .spawn()
            .expect("spawn true");
        let dead = child.id();
        child.wait().expect("wait");
        let stale = Lockfile::http(1, dead, "/a".into(), "t".into());
        let stdio = Lockfile::stdio(std::process::id(), "/b".into(), "t".into());
        let verdicts = check_all(&reqwest::Client::new(), &[&stale, &stdio, &stale]).await;
        assert_eq!(
            verdicts,
            [Liveness::DeadPid, Liveness::Live, Liveness::DeadPid]
        );
    }

    #[tokio::test]
    async fn a_live_pid_with_nothing_listening_is_not_devtools() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        drop(listener);
        let lock = Lockfile::http(port, std::process::id(), "/p".into(), "t".into());
        let verdict = check(&reqwest::Client::new(), &lock).await;
        assert!(matches!(verdict, Liveness::NotDevtools(_)), "{verdict:?}");
    }
}
